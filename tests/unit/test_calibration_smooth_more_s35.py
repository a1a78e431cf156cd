"""Issue 24 (helper 49): held-out smooth cases that were sound ``unknown``s, now decided -- each new rule with
its negative twin.  The truths are derived by hand (in each docstring), never read off symcal."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from symcal.calibration import check_calibration, recheck_witness, setup
from symcal.calibration.convexity import NotShown, analyse, bounded_below, rewrite_logs

Z2 = [[0, 1], [1, 0]]
SIGN = {"linear": [[-1], [1]]}
THRESHOLD_ONE = {"linear": [[-1], [1]], "offset": [1, -1]}  # predicts 1 exactly when u1 >= 1
u1, u2 = sympy.symbols("u1 u2")


def _run(loss, per_label, link, dim=1):
    return check_calibration(loss, {"dim": dim, "per_label": per_label}, link, timeout=60, cross_check=False)


def _margin(phi):
    return [phi, phi.xreplace({u1: -u1})]


# ---------------------------------------------------------------- convexity rules and their twins

@pytest.mark.parametrize("text", [
    "exp(u1)*exp(u2)",            # = exp(u1 + u2)
    "sqrt(exp(u1))",              # = exp(u1/2)
    "(1 + exp(u1))**2",           # square of a nonnegative convex function
    "sqrt(u1**2 + 1)",            # |(u1, 1)|_2
    "sqrt(u1**2 + 1) - u1",
    "log(1 + exp(-u1))**2",       # square of a nonnegative convex function
    "log(1 + exp(-u1))/log(2)",   # positive constant factor
    "pi*(u1 - 1)**2",
    "E*exp(u1)",
    "sqrt(2)*log(1 + exp(u1))",
])
def test_new_convexity_rules_show_these_convex(text):
    e = sympy.sympify(text, locals={"u1": u1, "u2": u2})
    assert analyse(rewrite_logs(e), [u1, u2]).curvature in ("convex", "affine")


def test_a_constant_base_power_is_convex():
    assert analyse(2**u1, [u1]).curvature == "convex"  # = exp(u1 log 2)


@pytest.mark.parametrize("text", [
    "sqrt(u1**2 - 1)",            # undefined on (-1, 1)
    "(exp(u1) - 2)**2",           # f'' = 4 e^u (e^u - 1) < 0 for u < 0
    "-sqrt(u1**2 + 1)",           # concave
    "log(1 + exp(-u1))**(1/2)",   # ~ sqrt(-u) as u -> -oo: concave there
    "-pi*u1**2",
    "(1 - pi)*exp(u1)",           # a negative constant (sign decided exactly)
])
def test_negative_twins_are_not_shown_convex(text):
    e = sympy.sympify(text, locals={"u1": u1})
    with pytest.raises(NotShown):
        analyse(rewrite_logs(e), [u1])


def test_sqrt_of_a_psd_quadratic_with_a_zero_is_convex_but_not_c1():
    sh = analyse(sympy.sqrt(u1**2 + 2 * u1 + 1), [u1])  # |u1 + 1|
    assert sh.curvature == "convex" and not sh.c1


def test_bounded_below_exp_minus_affine_and_its_twin():
    assert bounded_below(sympy.exp(u1) - u1, [u1]) == ""          # min 1 at u = 0
    assert bounded_below(sympy.exp(-u1) + u1 / 2, [u1]) == ""
    assert bounded_below(sympy.exp(u1) + u1, [u1]) != ""          # -> -oo as u -> -oo
    assert bounded_below(sympy.sqrt(u1**2 + 1) - u1, [u1]) == ""  # >= |u| - u >= 0
    assert bounded_below(sympy.sqrt(u1**2 + 1) - 2 * u1, [u1]) != ""  # ~ -u as u -> oo


# ---------------------------------------------------------------- decisions

@pytest.mark.parametrize("phi", [
    sympy.log(1 + sympy.exp(-u1)) / sympy.log(2),    # logistic in base 2
    sympy.sqrt(2) * sympy.log(1 + sympy.exp(-u1)),
    sympy.E * sympy.exp(-u1),
    sympy.pi * (u1 - 1)**2,
    sympy.sqrt(sympy.exp(-u1)),                       # exp(-u/2)
    (1 + sympy.exp(-u1))**2,                           # phi'(0) = -4 < 0
    sympy.sqrt(u1**2 + 1) - u1,                        # phi'(0) = -1 < 0
    sympy.exp(-u1) + u1 / 2,                           # phi'(0) = -1/2 < 0, needs the exp cone
])
def test_convex_margin_losses_with_negative_slope_at_zero_are_proved(phi):
    """Bartlett, Jordan & McAuliffe 2006, Thm 6: convex phi differentiable at 0 with phi'(0) < 0 is
    classification-calibrated (each phi'(0) computed by hand)."""
    v = _run(Z2, _margin(phi), SIGN)
    assert v.status.value == "proved", v.reason


def test_exp_product_in_two_dimensions_is_proved():
    v = _run(Z2, ["exp(-u1)*exp(u2)", "exp(u1)*exp(-u2)"], {"linear": [[-1, 1], [1, -1]]}, dim=2)
    assert v.status.value == "proved", v.reason


def test_base_two_logistic_thresholded_at_one_is_refuted_at_the_hand_minimiser():
    """Twin: risk minimiser u = log(p1/p2) whatever the base; at p = (2/3, 1/3) it is log 2 < 1, predicted 2."""
    per = _margin(sympy.log(1 + sympy.exp(-u1)) / sympy.log(2))
    v = _run(Z2, per, THRESHOLD_ONE)
    assert v.status.value == "refuted"
    p1 = Fraction(v.witness.values["p1"])
    assert Fraction(1, 2) < p1 < sympy.E / (1 + sympy.E)  # u* = log(p1/p2) < 1 and label 1 optimal
    assert v.witness.values["pred"] == "2"
    assert "positive constant factor" in v.scope and "positive constant factor" in v.witness.certificate
    assert recheck_witness(Z2, {"dim": 1, "per_label": per}, THRESHOLD_ONE, v.witness)[0]


def test_pi_squared_loss_thresholded_at_one_is_refuted():
    """u* = 2 p1 - 1 < 1 for every p1 < 1: at any p1 in (1/2, 1) label 1 is optimal and 2 predicted."""
    v = _run(Z2, _margin(sympy.pi * (u1 - 1)**2), THRESHOLD_ONE)
    assert v.status.value == "refuted"
    assert Fraction(1, 2) < Fraction(v.witness.values["p1"]) < 1


def test_listnet_with_exp_link_weights_is_proved():
    """Targets q(y) = (e^2, e, e)/(e^2 + 2e) (item y has relevance 2): softmax(u*) = sum_y p_y q(y) has
    component j = (e^2 p_j + e (1 - p_j)) / (e^2 + 2e), increasing in p_j, so argmax u* = argmax p."""
    lse = "log(exp(u1) + exp(u2) + exp(u3))"
    w = ["exp(2)", "exp(1)", "exp(1)"]
    per = []
    for y in range(3):
        ws = w[-y:] + w[:-y] if y else w
        per.append(f"{lse} - ({ws[0]}*u1 + {ws[1]}*u2 + {ws[2]}*u3)/(exp(2) + 2*exp(1))")
    loss = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    v = check_calibration(loss, {"dim": 3, "per_label": per}, "argmax", timeout=60, cross_check=False)
    assert v.status.value == "proved", v.reason


def test_a_non_convex_margin_loss_stays_unknown():
    v = _run(Z2, _margin(sympy.sqrt(u1**2 - 1) - u1), SIGN)
    assert v.status.value == "unknown"


def test_constant_base_power_is_unknown_with_the_reason():
    v = _run(Z2, _margin(2**(-u1)), SIGN)
    assert v.status.value == "unknown" and "irrational slope" in v.reason


# ---------------------------------------------------------------- zero loss

@pytest.mark.parametrize("loss", [[[0, 0], [0, 0]], [[1, 1], [2, 2]]])
def test_equal_loss_columns_make_any_surrogate_calibrated(loss):
    v = _run(loss, ["-u1**2", "u1**4 - u1**2"], SIGN)  # non-convex on purpose
    assert v.status.value == "proved"
    assert "every prediction is optimal" in v.scope


def test_unequal_columns_with_a_non_convex_surrogate_stay_unknown():
    v = _run(Z2, ["-u1**2", "u1**4 - u1**2"], SIGN)
    assert v.status.value == "unknown"


def test_setup_is_unchanged_by_the_normalisation():
    s = setup(Z2, {"dim": 1, "per_label": _margin(sympy.log(1 + sympy.exp(-u1)) / sympy.log(2))}, SIGN)
    assert s.surrogate.per_label[0].has(sympy.log(2))
