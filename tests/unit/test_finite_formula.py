"""finite_check(formula=...): a case's statement as conditions over exact data, decided exactly
and re-checked by the kernel; LossMatrix.kernel_statement and the kernel's matrix kind."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from symcal import Citation, finite_check
from symcal.errors import InvalidInput
from symcal.kernel import check
from symcal.ranking.loss_matrix import LossMatrix
from symcal.runner import check as decide
from symcal.verdicts import Status

x, y = sympy.symbols("x y")
CITE = Citation("demo", "Table 1", "a printed table")


def test_formula_claim_is_decided_and_kernel_checked() -> None:
    c = finite_check("demo2024.table", cases=[1], domain="one printed row", cite=CITE,
                     formula=lambda _: ([x < y, sympy.exp(x) < 8], {x: "103/50", y: 3}))
    v = decide(c, certify=True, isolate=False)
    assert v.status is Status.PROVED
    assert v.certificate.checked and v.certificate.kind == "all"


def test_failing_case_is_refuted_with_a_kernel_checked_witness() -> None:
    c = finite_check("demo2024.bad", cases=[1, 2], domain="k in {1, 2}", cite=CITE, expected="refuted",
                     formula=lambda k: ([x * k < y], {x: 2, y: 3}))
    v = decide(c, certify=True, isolate=False)
    assert v.status is Status.REFUTED
    assert v.certificate.checked


def test_undecided_condition_is_unknown_never_a_pass() -> None:
    f = sympy.Function("f")
    c = finite_check("demo2024.undecided", cases=[1], domain="one case", cite=CITE,
                     formula=lambda _: ([f(x) > 0], {x: 1}))
    assert decide(c, isolate=False).status is Status.UNKNOWN


@pytest.mark.parametrize("bad", [lambda _: ([True], {}), lambda _: (sympy.Rational(1, 2) < 1, {}),
                                 lambda _: ([x < 1], {}), lambda _: ([x < 1], {x: 0.5}), lambda _: x < 1])
def test_malformed_formula_is_refused_naming_the_formula(bad) -> None:
    c = finite_check("demo2024.malformed", cases=[1], domain="one case", cite=CITE, formula=bad)
    v = decide(c, isolate=False)
    assert v.status is Status.ERROR and "formula of demo2024.malformed" in v.reason


def test_holds_and_formula_are_exclusive() -> None:
    with pytest.raises(InvalidInput, match="exactly one of holds and formula"):
        finite_check("demo2024.both", cases=[1], domain="d", cite=CITE, holds=lambda _: True,
                     formula=lambda _: ([x < 1], {x: 0}))


def test_matrix_statement_checked_and_tampered_rejected() -> None:
    rows = [[1, 2, 3], [2, 4, 6], [1, 1, 1]]
    m = LossMatrix.from_rows(rows)
    assert check(m.kernel_statement(rank=("rank", "=", 2)))["checked"]
    assert not check(m.kernel_statement(rank=("rank", "=", 1)))["checked"]
    # affine dimension: L = J has rank 1 and affine dimension 0
    j = LossMatrix.from_rows([[1, 1], [1, 1]])
    assert check(j.kernel_statement(rank=("affine", "=", 0)))["checked"]
    assert not check(j.kernel_statement(rank=("affine", ">=", 1)))["checked"]
    cert = m.kernel_statement(rank=("rank", "<=", 2))
    cert["rows"][0][0] = "5"  # tampered data: the rank becomes 3
    assert not check(cert)["checked"]


def test_decomposition_statement() -> None:
    from symcal.ranking.loss_matrix import Decomposition

    m = LossMatrix.from_rows([[Fraction(3), 4], [5, 7]])
    dec = Decomposition.from_fractions([[1, 0], [0, 1]], [[2, 4], [3, 6]], 1)
    res = check(m.kernel_statement(decomposition=dec))
    assert res["checked"], res
    bad = Decomposition.from_fractions([[1, 0], [0, 1]], [[2, 4], [3, 6]], 2)
    assert "entry (0, 0)" in check(m.kernel_statement(decomposition=bad))["reason"]


def test_a_formula_claim_has_symbolic_mutants_that_are_killed() -> None:
    from symcal.explore.mutants import classify, mutants_of

    c = finite_check("demo2024.rows", cases=[1, 2], domain="two printed rows", cite=CITE,
                     formula=lambda k: ([x * k < y, y < 5], {x: 1, y: 3}))
    mutants, why = mutants_of(c)
    assert {mu.operator for mu in mutants} >= {"flip", "nudge"}, why
    results = [classify(mu, decide(mu.claim, isolate=False)) for mu in mutants]
    assert {r.outcome for r in results if r.mutant.operator == "flip"} == {"killed"}


def test_symbol_names_that_need_quoting_are_bound_in_the_certificate() -> None:
    t = sympy.Symbol("table4.listnet@N 3")
    c = finite_check("demo2024.quoted", cases=[1], domain="one case", cite=CITE,
                     formula=lambda _: ([t < 1], {t: "1/2"}))
    v = decide(c, certify=True, isolate=False)
    assert v.status is Status.PROVED and v.certificate.checked, v.certificate


def test_the_rational_fast_path_is_exact_and_refuses_what_is_not_rational() -> None:
    from symcal.exact.rational_eval import compile_condition

    f = compile_condition(sympy.Eq(x ** -2 + sympy.Rational(1, 3), y))
    assert f({x: 3, y: Fraction(4, 9)}) is True  # 1/9 + 1/3, not a float
    with pytest.raises(ZeroDivisionError):
        f({x: 0, y: 1})
    assert compile_condition(sympy.exp(x) < 1) is None
    pw = compile_condition(sympy.Piecewise((1, x > 0), (0, True)) + sympy.Max(x, y) > 1)
    assert pw({x: 1, y: -5}) is True and pw({x: -1, y: 1}) is False


def test_a_mutant_whose_condition_collapsed_to_a_constant_is_decided() -> None:
    from symcal.claims.core import formula_truth

    assert formula_truth(lambda _: ([sympy.false], {}), None, allow_constant=True)[0] is False
    with pytest.raises(InvalidInput):
        formula_truth(lambda _: ([sympy.false], {}), None)
