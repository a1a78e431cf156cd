"""Surrogate risks (9), (13), (14), the closed form (15), and numeric minimisers."""

from fractions import Fraction as F

import numpy as np
import pytest
import sympy

from symcal.errors import InvalidInput
from symcal.ranking import (
    PHI_EXP,
    PHI_LOGISTIC,
    PHI_SQUARED_HINGE,
    PreferenceDistribution,
    PreferenceGraph,
    in_optimal_set,
    is_low_noise,
    linear_surrogate_minimiser,
    linear_surrogate_risk,
    margin_surrogate_risk,
    minimise_surrogate_risk,
    numeric_gap_outside_optimal_set,
    numeric_margin_risk,
    numeric_pairwise_risk,
    order_of,
    pairwise_surrogate_risk,
)
from symcal.ranking.surrogates import x

PHIS = [PHI_EXP, PHI_LOGISTIC, PHI_SQUARED_HINGE]


def figure1(a12=F(1), a13=F(3), a23=F(1, 10), a31=F(1)):
    g1 = PreferenceGraph(3, {(1, 2): a12, (1, 3): a13})
    g2 = PreferenceGraph(3, {(2, 3): a23, (3, 1): a31})
    return PreferenceDistribution([(g1, F(1, 2)), (g2, F(1, 2))])


@pytest.mark.parametrize("phi", PHIS, ids=lambda p: p.name)
def test_each_phi_numeric_value_and_derivative_match_its_sympy_expression(phi):
    d_expr = sympy.diff(phi.expr, x)
    for t in (-2.5, -0.3, 0.7, 1.5, 3.0):
        assert phi.func(np.array(t)) == pytest.approx(float(phi.expr.subs(x, t)), rel=1e-12)
        assert phi.derivative(np.array(t)) == pytest.approx(float(d_expr.subs(x, t)), rel=1e-12)
    # convex and decreasing at 0 (phi'(0) < 0, Section 2.2)
    assert phi.derivative(np.array(0.0)) < 0


def test_pairwise_risk_is_exact_and_matches_a_hand_computation():
    w = pairwise_surrogate_risk(figure1(), [1, F(1, 2), 0], PHI_SQUARED_HINGE)
    # h12 phi(1/2) + h13 phi(1) + h23 phi(1/2) + h31 phi(-1) = 1/8 + 0 + 1/80 + 2
    assert w == sympy.Rational(171, 80)
    e = pairwise_surrogate_risk(figure1(), [0, 0, 0], PHI_EXP)
    assert e == sympy.Rational(1, 2) + sympy.Rational(3, 2) + sympy.Rational(1, 20) + sympy.Rational(1, 2)


def test_pairwise_risk_counts_h_only_on_edges_present_in_each_graph():
    # h(a) = a + 1 so h(0) = 1: an edge of weight 0 present in G contributes, an absent one does not
    g1 = PreferenceGraph(2, {(1, 2): 0})
    g2 = PreferenceGraph(2, {})
    dist = PreferenceDistribution([(g1, F(1, 4)), (g2, F(3, 4))])
    w = pairwise_surrogate_risk(dist, [0, 0], PHI_EXP, h=lambda a: a + 1)
    assert w == sympy.Rational(1, 4)  # h_12 = h(0) p_G1 = 1/4, phi(0) = 1
    w2 = pairwise_surrogate_risk(PreferenceDistribution([(g2, 1)]), [0, 0], PHI_EXP, h=lambda a: a + 1)
    assert w2 == 0


def test_margin_risk_shifts_each_edge_by_h_of_its_weight():
    g = PreferenceGraph(2, {(1, 2): 2})
    assert margin_surrogate_risk(g, [3, 0], PHI_SQUARED_HINGE) == 0  # phi(3 - 0 - 2) = 0
    assert margin_surrogate_risk(g, [2, 0], PHI_SQUARED_HINGE) == 1  # phi(0) = 1
    symbolic = margin_surrogate_risk(g, sympy.symbols("a1 a2"), PHI_EXP)
    assert symbolic.free_symbols == set(sympy.symbols("a1 a2"))


def test_linear_surrogate_closed_form_is_the_stationary_point_and_unique_minimiser():
    dist = figure1()
    s = sympy.symbols("s1:4")
    for nu in (F(1), F(1, 3)):
        w = linear_surrogate_risk(dist, s, nu)
        star = linear_surrogate_minimiser(dist, nu)
        at = dict(zip(s, [sympy.Rational(v.numerator, v.denominator) for v in star], strict=True))
        assert all(sympy.diff(w, si).subs(at) == 0 for si in s)
        value = w.subs(at)
        # twin: any perturbation raises W by nu |delta|^2
        moved = w.subs({**at, s[0]: at[s[0]] + sympy.Rational(1, 10)})
        assert moved - value == sympy.Rational(nu.numerator, nu.denominator) / 100


def test_linear_minimiser_is_in_the_optimal_set_under_low_noise_and_outside_when_16_fails():
    dist = figure1()
    assert is_low_noise(dist)
    assert in_optimal_set(dist, linear_surrogate_minimiser(dist, 1))  # Corollary 15
    # difference graph 1 -> 2, 2 -> 3, 2 -> 4 is a DAG, but node 2's net score ties node 1's
    a = {(1, 2): 1, (2, 3): 1, (2, 4): 1}
    star = linear_surrogate_minimiser(a, 1)
    assert star[0] == star[1] == F(1, 2)
    result = in_optimal_set(a, star)
    assert not result and "alpha_1 > alpha_2" in result.reason


@pytest.mark.parametrize("phi", PHIS, ids=lambda p: p.name)
def test_theorem11_convex_pairwise_minimiser_leaves_the_optimal_set_in_a_low_noise_setting(phi):
    # COND 1 of Lemma 10: h23 = 1/20 < h31 h12 / (h13 + h12) = 1/8, and low noise holds
    dist = figure1()
    assert is_low_noise(dist)
    best = minimise_surrogate_risk(numeric_pairwise_risk(dist, phi))
    assert best.converged and best.alpha[2] == 0.0 and best.numeric
    gap = numeric_gap_outside_optimal_set(dist, best.alpha)
    assert gap.status == "outside" and gap.margin > 0.1
    assert "alpha_2 > alpha_3" in gap.reason


@pytest.mark.parametrize("phi", PHIS, ids=lambda p: p.name)
def test_without_lemma10s_conditions_the_same_minimiser_stays_inside(phi):
    dist = figure1(a13=F(4), a23=F(1), a31=F(1, 10))
    best = minimise_surrogate_risk(numeric_pairwise_risk(dist, phi))
    gap = numeric_gap_outside_optimal_set(dist, best.alpha)
    assert gap.status == "inside" and gap.margin > 0.1 and gap.excess_risk == 0


def test_theorem12_margin_minimiser_leaves_the_optimal_set():
    graphs = [PreferenceGraph(3, {e: 1}) for e in [(1, 2), (2, 3), (1, 3), (3, 1)]]
    dist = PreferenceDistribution(list(zip(graphs, [F(25, 100), F(1, 100), F(50, 100), F(24, 100)], strict=True)))
    assert is_low_noise(dist)  # with equality 0.26 = 0.26
    best = minimise_surrogate_risk(numeric_margin_risk(dist, PHI_EXP))
    assert numeric_gap_outside_optimal_set(dist, best.alpha).status == "outside"


def test_analytic_gradient_matches_finite_differences():
    risk = numeric_pairwise_risk(figure1(), PHI_LOGISTIC)
    alpha = np.array([0.3, -0.2, 0.1])
    g = risk.gradient(alpha)
    for k in range(3):
        e = np.zeros(3)
        e[k] = 1e-6
        fd = (risk.value(alpha + e) - risk.value(alpha - e)) / 2e-6
        assert g[k] == pytest.approx(fd, abs=1e-6)


def test_minimiser_accepts_a_plain_function_and_a_non_shift_invariant_risk():
    # W = (a1 - 1)^2 + (a2 + 2)^2 is not shift-invariant: its minimiser is (1, -2)
    res = minimise_surrogate_risk(lambda a: (a[0] - 1) ** 2 + (a[1] + 2) ** 2, 2, shift_invariant=False)
    assert res.alpha == pytest.approx((1.0, -2.0), abs=1e-5)
    assert "finite-difference" in res.method
    # the shift-invariant default fixes alpha_2 = 0 and so cannot reach it
    fixed = minimise_surrogate_risk(lambda a: (a[0] - 1) ** 2 + (a[1] + 2) ** 2, 2)
    assert fixed.alpha[1] == 0.0 and fixed.value == pytest.approx(4.0)


def test_order_of_groups_scores_within_tolerance():
    assert order_of([0.0, 2.0, 1.0]) == ((2,), (3,), (1,))
    assert order_of([1.0, 1.0 + 1e-9, 0.0], tol=1e-6) == ((1, 2), (3,))
    assert order_of([1.0, 1.0 + 1e-3, 0.0], tol=1e-6) == ((2,), (1,), (3,))


def test_gap_report_is_undecided_when_a_required_gap_is_within_tolerance():
    a = {(1, 2): 1}
    assert numeric_gap_outside_optimal_set(a, [1e-9, 0.0]).status == "undecided"
    assert numeric_gap_outside_optimal_set(a, [1e-3, 0.0]).status == "inside"
    assert numeric_gap_outside_optimal_set(a, [-1e-3, 0.0]).status == "outside"


def test_gap_report_uses_the_strict_order_when_the_difference_graph_has_a_cycle():
    a = {(1, 2): 2, (2, 3): 2, (3, 1): 1}
    inside = numeric_gap_outside_optimal_set(a, [3.0, 2.0, 1.0])
    assert inside.status == "inside" and inside.excess_risk == 0
    outside = numeric_gap_outside_optimal_set(a, [1.0, 3.0, 2.0])
    assert outside.status == "outside" and outside.excess_risk == 1
    assert numeric_gap_outside_optimal_set(a, [1.0, 1.0, 0.0]).status == "undecided"


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: pairwise_surrogate_risk(figure1(), [0, 0, 0], "exp"), "phi"),
        (lambda: pairwise_surrogate_risk(figure1(), [0, 0.5, 0], PHI_EXP), "alpha[2]"),
        (lambda: pairwise_surrogate_risk(figure1(), [0, 0], PHI_EXP), "alpha"),
        (lambda: pairwise_surrogate_risk(figure1(), [0, 0, 0], PHI_EXP, h=lambda a: 0.5), "h(a[1,2]=1)"),
        (lambda: margin_surrogate_risk({(1, 2): 1}, [0, 0], PHI_EXP), "dist"),
        (lambda: linear_surrogate_minimiser(figure1(), 0), "nu"),
        (lambda: linear_surrogate_minimiser(figure1(), 0.5), "nu"),
        (lambda: linear_surrogate_risk(figure1(), [0, 0, 0], -1), "nu"),
        (lambda: minimise_surrogate_risk(lambda a: 0.0), "m"),
        (lambda: minimise_surrogate_risk(3, 2), "W_numeric"),
        (lambda: order_of([1.0, 2.0], tol=-1), "tol"),
        (lambda: order_of([], tol=0), "alpha_floats"),
        (lambda: numeric_gap_outside_optimal_set({(1, 2): 1}, [np.nan, 0.0]), "alpha_star"),
    ],
)
def test_bad_surrogate_inputs_name_the_parameter(call, param):
    with pytest.raises(InvalidInput) as err:
        call()
    assert err.value.param == param
