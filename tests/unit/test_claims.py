"""Claims are validated values; bad constructions fail early with the parameter named."""

import pytest
import sympy

from symcal import (
    Citation,
    InvalidClaim,
    InvalidInput,
    Local,
    finite_check,
    implies,
    node_implies,
    reals,
)
from symcal.runner import check
from symcal.verdicts import Status

C = Citation("test2026", "Lemma 1", "q")
x, = reals("x")


def test_a_malformed_id_is_refused():
    with pytest.raises(InvalidClaim, match="id="):
        implies("Bad Id", hypotheses={}, conclusion=x >= x, cite=C)


def test_a_claim_needs_a_citation():
    with pytest.raises(InvalidClaim, match="cite="):
        implies("test2026.a", hypotheses={}, conclusion=x >= x, cite="me")  # type: ignore[arg-type]


def test_dropping_an_unknown_hypothesis_names_the_known_ones():
    c = implies("test2026.a", hypotheses={"pos": [x > 0]}, conclusion=x >= 0, cite=C)
    with pytest.raises(InvalidInput, match="pos"):
        c.without("neg")
    assert c.without("pos").hypothesis_names == ()


def test_node_claim_sizes_must_cover_the_tuple_arity():
    loc = Local(3, lambda a, i, j, k: a.d(i, j) >= 0)
    with pytest.raises(InvalidInput, match="arity"):
        node_implies("test2026.n", hypotheses={"h": loc}, conclusion=loc, cite=C, sizes=(2, 4))


def test_sizes_below_the_minimum_are_refused_by_name():
    loc = Local(2, lambda a, i, j: a.d(i, j) >= 0)
    c = node_implies("test2026.n", hypotheses={}, conclusion=loc, cite=C, sizes=(3, 4))
    with pytest.raises(InvalidInput, match="--size"):
        check(c, sizes=(2, 3))


def test_an_empty_finite_domain_is_an_error_not_a_pass():
    c = finite_check("test2026.empty", cases=[], holds=lambda c: True, domain="nothing", cite=C)
    assert check(c).status is Status.ERROR


def test_a_finite_check_reports_its_case_count_and_its_failing_case():
    ok = finite_check("test2026.small", cases=range(1, 6), holds=lambda n: n * n >= n, domain="1..5", cite=C)
    v = check(ok)
    assert v.status is Status.PROVED and v.evidence.cases == 5
    bad = finite_check("test2026.small2", cases=range(1, 6), holds=lambda n: n * n > n, domain="1..5",
                       cite=C, describe=lambda n: {"n": n})
    v2 = check(bad)
    assert v2.status is Status.REFUTED and v2.witness.values == {"n": 1}


def test_floats_in_a_claim_are_refused_when_it_is_built_with_the_exact_fix():
    # issue 13: a float in an exact constructor is bad input, named with its fix
    with pytest.raises(InvalidInput, match=r"conclusion=.*float 0\.1.*Rational\(1, 10\)"):
        implies("test2026.float", hypotheses={}, conclusion=x * sympy.Float(0.1) <= x, cite=C)
    with pytest.raises(InvalidInput, match=r"hypotheses\['h'\]\[0\]"):
        implies("test2026.float", hypotheses={"h": [x > 0.25]}, conclusion=x > 0, cite=C)
    # its twin: the exact constant is accepted and decided
    ok = implies("test2026.exact", hypotheses={"h": [x > sympy.Rational(1, 4)]}, conclusion=x > 0, cite=C)
    assert check(ok).status is Status.PROVED


def test_python_equality_in_a_claim_is_refused_with_the_fix():
    y = sympy.Symbol("y", real=True)
    with pytest.raises(InvalidInput, match=r"sympy\.Eq"):
        implies("test2026.eq", hypotheses={"h": [x == y]}, conclusion=x >= y, cite=C)
    ok = implies("test2026.eq", hypotheses={"h": [sympy.Eq(x, y)]}, conclusion=x >= y, cite=C)
    assert check(ok).status is Status.PROVED
