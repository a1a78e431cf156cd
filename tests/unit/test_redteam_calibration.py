"""Red-team cases of known truth for the calibration engine, each with its negative twin: the ListNet
top-1 loss (shown bounded below by Gibbs' inequality), parametric refutations whose witness keeps one
distribution over the whole piece, Bartlett-Jordan-McAuliffe's differentiability condition, and
non-convex surrogates that must stay unknown."""

from __future__ import annotations

from fractions import Fraction

import sympy

from symcal.calibration import check_calibration, recheck_witness
from symcal.calibration.convexity import bounded_below
from symcal.calibration.parameters import decide_parameters
from symcal.verdicts import Status

U = sympy.symbols("u1:4")
LSE = "log(exp(u1) + exp(u2) + exp(u3))"
SIGN = {"linear": [[-1], [1]]}  # predict 1 iff u1 > 0
ZERO_ONE_2 = [[0, 1], [1, 0]]

# ListNet top-1 (Cao et al. 2007) with target top-1 distributions q_y; the loss 1/2 - q_{y,t} asks for the
# document with the largest expected top-1 probability, which softmax(u*) = E[q_y] gives.
Q = [[Fraction(1, 2), Fraction(1, 2), Fraction(0)], [Fraction(0), Fraction(1, 2), Fraction(1, 2)],
     [Fraction(1, 2), Fraction(0), Fraction(1, 2)]]
LISTNET = {"dim": 3, "per_label": [LSE + "".join(f" - ({q})*u{j + 1}" for j, q in enumerate(row) if q) for row in Q]}
LISTNET_LOSS = [[Fraction(1, 2) - q for q in row] for row in Q]


def _expr(text: str) -> sympy.Expr:
    return sympy.sympify(text, locals={f"u{i + 1}": s for i, s in enumerate(U)})


def _binary(phi: str) -> dict:
    """psi(1, u) = phi(u1), psi(2, u) = phi(-u1)."""
    return {"dim": 1, "per_label": [phi.replace("U", "u1"), phi.replace("U", "(-u1)")]}


# --------------------------------------------------------------------------- log-sum-exp bounded below


def test_log_sum_exp_minus_a_convex_combination_of_its_slopes_is_shown_bounded_below():
    for text in (f"{LSE} - u1", f"{LSE} - u1/2 - u2/2", f"{LSE} - u1/3 - u2/3 - u3/3", f"2*{LSE} - u1 - u2",
                 "log(exp(u1) + exp(-u1))", "log(1 + exp(-u1)) + log(1 + exp(u2))"):
        assert bounded_below(_expr(text), U) == "", text


def test_log_sum_exp_minus_a_slope_outside_the_hull_is_not_shown_bounded_below():
    for text in (f"{LSE} - u1 - u2", f"{LSE} - 2*u1", "log(exp(u1) + exp(u2))", "log(1 + exp(u1)) + u1"):
        assert "not shown bounded below" in bounded_below(_expr(text), U), text


def test_listnet_top1_with_target_distributions_is_proved_calibrated_for_the_expected_top1_loss():
    v = check_calibration(LISTNET_LOSS, LISTNET, "argmax", timeout=30, cross_check=False)
    assert v.status is Status.PROVED, v.reason


def test_listnet_top1_with_the_argmin_link_is_refuted_with_a_rechecked_witness():
    v = check_calibration(LISTNET_LOSS, LISTNET, "argmin", timeout=30, cross_check=False)
    assert v.status is Status.REFUTED, v.reason
    ok, why = recheck_witness(LISTNET_LOSS, LISTNET, "argmin", v.witness)
    assert ok, why


# --------------------------------------------------------------------------- parametric witnesses


def _parametric(loss: list, per_label: list[str], c_range: list[str]):
    kw = {"loss": loss, "surrogate": {"dim": 1, "per_label": per_label}, "link": SIGN, "noise": None,
          "name": "redteam", "parameters": {"c": c_range}}
    return decide_parameters(kw, timeout=60, cross_check=False)


def test_a_hinge_weighted_by_c_for_the_zero_one_loss_is_refuted_on_a_whole_range_by_one_fixed_distribution():
    # c Max(0, 1 - u) for label 1: the minimiser is u = -1 wherever c p1 < p2, also for p1 > p2, so the
    # failure region moves with c and the largest-gap witnesses (on its edge c p1 = p2) do not interpolate
    ans = _parametric(ZERO_ONE_2, ["c*Max(0, 1 - u1)", "Max(0, 1 + u1)"], ["1/8", "3/8"])
    assert [pc.status for pc in ans.pieces] == ["refuted"], [(pc.set, pc.status) for pc in ans.pieces]
    wit = ans.pieces[0].witness
    witnesses = wit if isinstance(wit, list | tuple) else [wit]
    para = [w for w in witnesses if w.get("parametric")]
    assert para, witnesses
    p1, p2 = (sympy.Rational(x) for x in para[0]["p"])  # constant in c
    u = sympy.Rational(para[0]["u"][0])
    assert u == -1 and p1 > p2 and p1 + p2 == 1
    for c in (sympy.Rational(1, 8), sympy.Rational(3, 8)):  # u = -1 minimises iff c p1 <= p2 (affine in c)
        assert c * p1 <= p2


def test_a_hinge_weighted_by_its_own_cost_is_proved_on_the_whole_range_not_refuted():
    ans = _parametric([[0, "1 - c"], ["c", 0]], ["(1 - c)*Max(0, 1 - u1)", "c*Max(0, 1 + u1)"], ["1/4", "1/2"])
    assert [pc.status for pc in ans.pieces] == ["proved"], [(pc.set, pc.status) for pc in ans.pieces]


# --------------------------------------------------------------------------- BJM 2006 and non-convexity


def test_a_convex_margin_loss_with_a_kink_at_zero_is_refuted_as_bartlett_jordan_mcauliffe_predict():
    # phi = hinge + perceptron / 2: convex, not differentiable at 0; for eta in (1/2, 3/5) the minimiser is 0
    sur = _binary("Max(0, 1 - U) + Max(0, -U)/2")
    v = check_calibration(ZERO_ONE_2, sur, SIGN, timeout=30, cross_check=False)
    assert v.status is Status.REFUTED, v.reason
    assert Fraction(v.witness.values["u1"]) == 0
    ok, why = recheck_witness(ZERO_ONE_2, sur, SIGN, v.witness)
    assert ok, why


def test_the_same_loss_differentiable_at_zero_is_proved():
    sur = _binary("Max(0, 1 - U) + Max(0, 1 - U)/2")
    v = check_calibration(ZERO_ONE_2, sur, SIGN, timeout=30, cross_check=False)
    assert v.status is Status.PROVED, v.reason


def test_non_convex_margin_losses_stay_unknown_with_a_reason():
    for phi in ("Max(0, 1 - U)**(1/2)", "(Max(0, 1 - U) - 1)**2", "Min(1, Max(0, 1 - U))",
                "Piecewise(((U - 1)**2, U <= 1), (-(U - 1)**2, True))", "1/(1 + exp(U))", "Abs(Abs(U) - 1)"):
        v = check_calibration(ZERO_ONE_2, _binary(phi), SIGN, timeout=30, cross_check=False)
        assert v.status is Status.UNKNOWN and v.reason, (phi, v.status)


def test_a_convex_piecewise_squared_hinge_with_its_conditions_reversed_is_proved():
    v = check_calibration(ZERO_ONE_2, _binary("Piecewise((0, U >= 1), ((1 - U)**2, True))"), SIGN, timeout=30,
                          cross_check=False)
    assert v.status is Status.PROVED, v.reason
