"""The library's cheaper builders build the same formulas as the naive way: a measure built once and
evaluated by ``xreplace`` is the measure rebuilt and evaluated by ``subs``; a cached helper returns what
its uncached body computes; a conclusion deferred to check time is the one the paper's formula gives.
(How much faster the library loads is measured, not asserted: no timed tests.)"""

from __future__ import annotations

import importlib
from types import ModuleType

import sympy

from symcal.library import load_paper
from symcal.ranking.measures import rankings


def section(paper: str, name: str) -> ModuleType:
    """A section module of ``paper``, loaded under a private name of this test."""
    package = f"symcal_test_s34_{paper}"
    load_paper(paper, package)
    return importlib.import_module(f"{package}.{name}")


T33 = section("calauzenes2013", "theorem3_3")
T2 = section("calauzenes2013", "table2")
RADII = section("ramaswamy2013", "radii")
SVOR = section("uematsu2013", "section4_3")
U2 = section("uematsu2013", "section2")
P10 = section("xia2009", "proposition10")
Y, P = T33.label_symbols("y", 4), T33.rank_matrix("P", 4)


def naive_value(which: str, labels: tuple[int, ...], sigma: tuple[int, ...]) -> sympy.Expr:
    """r(y, sigma) as the family claim computed it before: the measure rebuilt and evaluated by subs."""
    return T33.measure_expr(which, Y, P).subs({**T33.label_data(Y, labels), **T33.ranking_data(P, sigma)})


def fast_value(which: str, labels: tuple[int, ...], sigma: tuple[int, ...]) -> sympy.Expr:
    return T33.measure_expr(which, Y, P).xreplace({**T33.label_data(Y, labels), **T33.ranking_data(P, sigma)})


def test_a_measure_evaluated_by_xreplace_equals_the_measure_evaluated_by_subs_at_every_ranking() -> None:
    for which in ("err", "ap"):
        for sigma in list(rankings(4))[:8]:
            for labels in ((1, 1, 0, 0), (0, 0, 1, 1)):
                fast = fast_value(which, labels, sigma)
                assert fast == naive_value(which, labels, sigma)
                assert fast.is_Rational


def test_the_values_differ_between_rankings_so_the_comparison_above_is_not_vacuous() -> None:
    assert fast_value("err", (1, 1, 0, 0), (1, 2, 3, 4)) != naive_value("err", (1, 1, 0, 0), (3, 4, 1, 2))


def test_the_family_claim_states_the_same_conclusion_as_one_built_with_subs() -> None:
    t = sympy.Symbol("t", real=True)
    ref = {lab: naive_value("err", lab, (1, 2, 3, 4)) for lab in ((1, 1, 0, 0), (0, 0, 1, 1))}

    def expected(sigma: tuple[int, ...]) -> sympy.Expr:
        return t * naive_value("err", (1, 1, 0, 0), sigma) + (1 - t) * naive_value("err", (0, 0, 1, 1), sigma)

    naive = sympy.Or(*[sympy.Ne(expected(s), t * ref[(1, 1, 0, 0)] + (1 - t) * ref[(0, 0, 1, 1)])
                       for s in rankings(4) if s != (1, 2, 3, 4)])
    claim = T33.family_not_all_equal_claim("calauzenes2013.test.family", "err")
    assert claim.spec.conclusion(None) == naive
    twin = T33.family_not_all_equal_claim("calauzenes2013.test.family_twin", "err", dist=((1, 1, 1, 1),) * 2)
    assert twin.spec.conclusion(None) != naive


def test_the_cached_differentiable_hinge_pieces_are_the_ones_computed_afresh() -> None:
    x = sympy.Symbol("x_s34", real=True)
    assert T2.diff_hinge_pieces(x) == T2.diff_hinge_pieces.__wrapped__(x)
    assert T2.diff_hinge_pieces(x) is T2.diff_hinge_pieces(x)
    other = sympy.Symbol("w_s34", real=True)
    assert T2.diff_hinge_pieces(other) != T2.diff_hinge_pieces(x)


def test_the_cached_svor_risk_is_the_risk_computed_afresh_and_depends_on_the_version() -> None:
    f = sympy.Symbol("f", real=True)
    for version in (1, 2):
        assert SVOR.svor_risk(version, f) == SVOR.svor_risk.__wrapped__(version, f)
    assert SVOR.svor_risk(1, f) != SVOR.svor_risk(2, f)
    assert SVOR.hinge(f) == sympy.Max(0, 1 - f)


def test_a_deferred_regret_conclusion_is_built_when_asked_and_its_twin_differs() -> None:
    claim = RADII.regret_form_claim("ramaswamy2013.test.regret_form")
    twin = RADII.regret_form_claim("ramaswamy2013.test.regret_form_twin", nudge=1)
    assert claim.spec.conclusion(None) == RADII._regret_form_conclusion.__wrapped__(3, 3, 2, 0)
    assert isinstance(claim.spec.conclusion(None), sympy.Equality)
    assert twin.spec.conclusion(None) != claim.spec.conclusion(None)
    chain = RADII.regret_chain_claim("ramaswamy2013.test.regret_chain")
    assert chain.spec.conclusion(None) == RADII._regret_chain_conclusion.__wrapped__(3, 2)


def test_the_deferred_theorem2_facts_are_the_convex_ones_and_the_twin_flips_them() -> None:
    claim, twin = U2.theorem2_losses_claim("uematsu2013.test.t2"), U2.theorem2_losses_claim("uematsu2013.test.t2t",
                                                                                            convex=-1)
    assert claim.spec.conclusion(None) == U2._theorem2_facts.__wrapped__(1)
    assert twin.spec.conclusion(None) != claim.spec.conclusion(None)


def test_the_deferred_hessian_identity_has_the_hessian_computed_from_q_on_its_left() -> None:
    h11, h13, h33 = P10.prop10_hessian.__wrapped__()
    claim = P10.prop10_decomposition_claim("xia2009.test.hessian")
    twin = P10.prop10_decomposition_claim("xia2009.test.hessian_twin", drop_c=True)
    assert claim.spec.lhs(None) == sympy.Matrix([[h11, h13], [h13, h33]])
    assert twin.spec.rhs(None) != claim.spec.rhs(None)
