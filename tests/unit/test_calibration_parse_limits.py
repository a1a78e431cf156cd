"""The calibration parser bounds what a text may build, not how it is written: nesting is counted,
length is not; the size of every result (bits of its exact numbers, degree, expanded terms) is
estimated before it is built; each refusal is one InvalidInput line naming the parameter."""

from __future__ import annotations

import time

import pytest
import sympy

from symcal.calibration.parse import (
    MAX_BITS,
    MAX_DEPTH,
    parse_expression,
    parse_relation,
    parse_time_limit,
    variables,
)
from symcal.errors import InvalidInput

U = variables("u", 3)


def refused(text, match, relation=False):
    with pytest.raises(InvalidInput, match=match) as e:
        (parse_relation if relation else parse_expression)(text, "surrogate.per_label[0]", U)
    assert "\n" not in str(e.value) and str(e.value).startswith("surrogate.per_label[0]=")
    return str(e.value)


def test_ten_thousand_nested_unary_minus_is_a_one_line_refusal_not_a_memory_error():
    refused("-" * 10_000 + "u1", "nested at most")


def test_a_few_nested_unary_minus_still_parse():
    assert parse_expression("-" * 40 + "u1", "x", U) == U[0]


def test_nesting_beyond_the_depth_limit_is_refused_by_name():
    refused("Max(0, " * (MAX_DEPTH + 5) + "u1" + ")" * (MAX_DEPTH + 5), f"nested at most {MAX_DEPTH} deep")


def test_nesting_within_the_depth_limit_parses():
    assert parse_expression("Max(0, " * 20 + "u1" + ")" * 20, "x", U) == sympy.Max(0, U[0])


@pytest.mark.parametrize("n", [500, 5000])
def test_a_flat_sum_of_thousands_of_hinge_terms_parses_quickly(n):
    start = time.process_time()
    e = parse_expression(" + ".join(["Max(0, 1 - u1)"] * n), "x", U)
    assert e == n * sympy.Max(0, 1 - U[0])
    assert time.process_time() - start < 10


def test_a_flat_sum_of_distinct_terms_parses_too():
    e = parse_expression(" - ".join(f"Max(0, {k} - u1)" for k in range(300)), "x", U)
    assert len(e.args) == 300


def test_a_long_flat_product_and_difference_are_one_level_deep():
    assert parse_expression("*".join(["1"] * 20_000) + "*u1", "x", U) == U[0]
    assert parse_expression("-".join(["u1"] * 20_001), "x", U) == -19_999 * U[0]


@pytest.mark.parametrize("text", ["((((((2**64)**64)**64)**64)**64)**64)", "((2**64)**64)**2", "((3**40)**40)**2",
                                  "((1 + u1)**64)**64", "((((((u1**9)**9)**9)**9)**9)**9)", "(u1**9)**9",
                                  "((1/3)**64)**64", "u1" + "*u1" * 64])
def test_power_towers_of_allowed_exponents_are_refused_before_they_are_built(text):
    start = time.process_time()
    msg = refused(text, "at most")
    assert "bits" in msg or "degree" in msg
    assert time.process_time() - start < 2


@pytest.mark.parametrize("text, value", [("(2**64)**64", sympy.Integer(2) ** 4096), ("u1**64", U[0] ** 64),
                                         ("(u1**8)**8", U[0] ** 64), ("(1/2)**64", sympy.Rational(1, 2 ** 64))])
def test_powers_within_the_size_limits_are_built_exactly(text, value):
    assert parse_expression(text, "x", U) == value


def test_a_power_whose_expansion_has_too_many_terms_is_refused():
    names = variables("u", 6)
    with pytest.raises(InvalidInput, match="terms once expanded"):
        parse_expression("(u1 + u2 + u3 + u4 + u5 + u6)**64", "x", names)


def test_a_power_whose_expansion_is_small_is_kept():
    assert parse_expression("(u1 + u2)**10", "x", U) == (U[0] + U[1]) ** 10


def test_a_literal_beyond_the_bit_limit_is_refused():
    refused(str(2 ** (MAX_BITS + 8)), "bits")


def test_max_with_too_many_arguments_is_refused_and_a_small_max_is_not():
    refused("Max(" + ", ".join(f"u1 + {k}*u2" for k in range(65)) + ")", "at most 64 arguments")
    assert parse_expression("Max(" + ", ".join(f"u1 + {k}" for k in range(64)) + ")", "x", U) == U[0] + 63


@pytest.mark.parametrize("text", ["sqrt(-1)", "log(0)", "1/(u1 - u1)", "0**-1", "True + 1", "Max(u1 < 1, 2)",
                                  "u1\x00", "", "lambda: 1", "u1 // 2", "__import__('os')", "u1 − u2",
                                  "Piecewise((u1, u1))", "Piecewise()", "exp(10**7)"])
def test_malformed_or_non_real_expressions_are_refused_in_one_line(text):
    refused(text, "expected")


@pytest.mark.parametrize("text", ["sqrt(2) + u1", "Piecewise((u1, u1 > 0), (0, True))", "log(2)*u1", "Abs(u1 - 1/3)"])
def test_well_formed_real_expressions_are_accepted(text):
    assert isinstance(parse_expression(text, "x", U), sympy.Expr)


@pytest.mark.parametrize("text", ["And(u1, u2)", "Not(u1)", "(u1 < 1) & u2", "u1 < 1 + (u2 < 1)", "u1"])
def test_relations_must_be_made_of_relations_not_symbols(text):
    refused(text, "expected", relation=True)


@pytest.mark.parametrize("text", ["And(u1 <= 1, u2 >= 0)", "Not(u1 < 1)", "(u1 <= 1) & (u2 >= 2)", "u1 = u2"])
def test_relations_made_of_relations_are_accepted(text):
    assert parse_relation(text, "x", U) is not None


def test_a_sympy_symbol_given_as_a_relation_is_refused():
    with pytest.raises(InvalidInput, match="a relation"):
        parse_relation(U[0], "noise[0]", U)
    assert parse_relation(U[0] >= 1, "noise[0]", U) == (U[0] >= 1)


def test_reading_stops_with_a_one_line_error_once_its_cpu_budget_is_spent():
    text = " + ".join(f"Max(0, {k} - u1)" for k in range(3000))
    start = time.process_time()
    with parse_time_limit(0.3), pytest.raises(InvalidInput, match="within 0.3 CPU seconds"):
        parse_expression(text, "surrogate.per_label[0]", U)
    assert time.process_time() - start < 3


def test_reading_within_its_cpu_budget_is_not_stopped():
    with parse_time_limit(30):
        assert len(parse_expression(" + ".join(f"Max(0, {k} - u1)" for k in range(20)), "x", U).args) == 20
