"""Red team (session 33): regret bounds and parameter answers against cases of known truth.

Each expected constant, exponent and parameter set is derived by hand in the test (Bartlett, Jordan &
McAuliffe 2006 for the binary psi-transforms; Ramaswamy, Tewari & Agarwal 2018 for the abstain
decoder, whose bound is 1 / (2 (1 - |tau|)); Scott 2012 for the cost-sensitive hinge) and checked
at exact points with the test's own arithmetic, never by asking symcal again.  Each has a negative
twin: a smaller constant fails at an exhibited point, or a neighbouring problem is refuted.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
import z3

from symcal.backends.base import Budget
from symcal.calibration import setup
from symcal.calibration.parameters import _solve, decide_parameters
from symcal.calibration.transfer import THETA, _right_slope_at_0, bound, identical_on_interval, psi_transform
from symcal.cli import main
from symcal.errors import InvalidInput
from symcal.verdicts import Status

Z01 = [[0, 1], [1, 0]]
SIGN = {"linear": [[-1], [1]]}
HINGE = {"dim": 1, "per_label": ["Max(0, 1 - u1)", "Max(0, 1 + u1)"]}
OVA3 = {"dim": 3, "per_label": ["Max(0, 1 - u1) + Max(0, 1 + u2) + Max(0, 1 + u3)",
                                "Max(0, 1 + u1) + Max(0, 1 - u2) + Max(0, 1 + u3)",
                                "Max(0, 1 + u1) + Max(0, 1 + u2) + Max(0, 1 - u3)"]}
ABSTAIN3 = [[0, 1, 1, "1/2"], [1, 0, 1, "1/2"], [1, 1, 0, "1/2"]]  # predictions 1, 2, 3, abstain


def margin(phi: str) -> dict:
    return {"dim": 1, "per_label": [phi, phi.replace("u1", "(-u1)")]}


def threshold(tau: str) -> dict:
    """Predict label 1 iff u >= tau: argmin {-u + tau, u - tau}."""
    return {"linear": [[-1], [1]], "offset": [tau, str(-Fraction(tau))]}


def abstain_link(tau: str) -> dict:
    """Ramaswamy et al.'s decoder: the class with the largest score when it is >= tau, else abstain."""
    return {"linear": [[-1, 0, 0], [0, -1, 0], [0, 0, -1], [0, 0, 0]], "offset": ["0", "0", "0", str(-Fraction(tau))]}


def value(expr: str, u: list[Fraction]) -> Fraction:
    """An expression of the problem at u, in exact arithmetic (sympy, no symcal)."""
    e = sympy.sympify(expr, locals={f"u{i + 1}": sympy.Symbol(f"u{i + 1}") for i in range(len(u))})
    v = e.subs({sympy.Symbol(f"u{i + 1}"): sympy.Rational(x.numerator, x.denominator) for i, x in enumerate(u)})
    return Fraction(int(v.p), int(v.q))


def risk(sur: dict, p: list[Fraction], u: list[Fraction]) -> Fraction:
    return sum((py * value(e, u) for py, e in zip(p, sur["per_label"], strict=True)), Fraction(0))


# --------------------------------------------------------------------------- binary psi-transforms


def test_an_asymmetric_hinge_gets_its_linear_bound_two_thirds_from_the_exact_right_slope_of_psi():
    # phi = max(0, 1 - u, 2 - 3u): slopes -3, -1, 0, phi(0) = 2; C_eta's least value is at a = 1/2 for small
    # theta: eta/2 + 7(1 - eta)/2 = 2 - 3 theta/2, so psi(theta) = 3 theta/2 on [0, 1/2] and C = 2/3.
    # sympy's limit gave up on the Min form ("MRV set ...") and no bound was reported before.
    r = psi_transform(setup(Z01, margin("Max(0, 1 - u1, 2 - 3*u1)"), SIGN))
    assert r.status is Status.PROVED
    assert (r.exponent, r.constant, r.tight) == ("1", sympy.Rational(2, 3), True)
    for t in (sympy.Rational(1, 4), sympy.Rational(1, 2)):
        assert r.psi.subs(THETA, t) == sympy.Rational(3, 2) * t  # the ratio theta / psi(theta) is 2/3 there


def test_a_smaller_constant_than_two_thirds_fails_for_the_asymmetric_hinge_at_an_exact_point():
    # at eta = p1 = 3/8 the label -1 is optimal and u = 0 predicts +1 (the closed cell u >= 0): the 0-1 excess is
    # |2 eta - 1| = 1/4, the surrogate excess phi(0) - H(3/8) = 3/8 (C_eta's least value among its breakpoints
    # +-1/2, +-1): the ratio is 2/3, so no smaller constant holds
    phi = "Max(0, 1 - u1, 2 - 3*u1)"
    sur = margin(phi)
    p = [Fraction(3, 8), Fraction(5, 8)]
    best = min(risk(sur, p, [a]) for a in (Fraction(1), Fraction(1, 2), Fraction(-1, 2), Fraction(-1)))
    excess_phi = risk(sur, p, [Fraction(0)]) - best
    assert excess_phi == Fraction(3, 8)
    assert Fraction(1, 4) == Fraction(2, 3) * excess_phi  # attained: C = 2/3 is the least
    assert Fraction(1, 4) > Fraction(65, 100) * excess_phi


def test_the_right_slope_of_a_min_form_psi_is_exact_and_a_smooth_psi_is_left_to_the_limits():
    psi = 2 - sympy.Min(2 - 2 * THETA, 2 * THETA + 2)
    assert _right_slope_at_0(psi) == (0, 2)
    assert _right_slope_at_0(sympy.Rational(1, 2) - sympy.Min(sympy.Rational(1, 2) - THETA / 2, THETA / 2 + 1)) \
        == (0, sympy.Rational(1, 2))
    assert _right_slope_at_0(THETA**2) is None
    assert _right_slope_at_0(1 - sympy.sqrt(1 - THETA**2)) is None


def test_a_piecewise_linear_psi_is_compared_with_the_textbook_by_linear_arithmetic_and_a_wrong_one_is_not():
    assert identical_on_interval(1 - sympy.Min(1 - THETA, 1 + THETA), sympy.Abs(THETA))
    assert not identical_on_interval(2 - sympy.Min(2 - 2 * THETA, 2 + 2 * THETA), sympy.Abs(THETA))


@pytest.mark.parametrize("phi, exponent, constant", [
    ("2*Max(0, 1 - u1)", "1", sympy.Rational(1, 2)),      # psi = 2 |theta|
    ("Max(0, 2 - u1)", "1", sympy.Rational(1, 2)),        # H = 4 min(eta, 1 - eta), phi(0) = 2: psi = 2 |theta|
    ("Max(0, 1/2 - u1)", "1", sympy.Integer(2)),          # psi = |theta| / 2
    ("Abs(1 - u1)", "1", sympy.Integer(1)),               # minimiser a = 1 as for the hinge: psi = |theta|
    ("u1**2 - u1", "1/2", sympy.Integer(2)),              # a* = (2 eta - 1)/2, psi = theta^2 / 4
    ("3*(1 - u1)**2", "1/2", sympy.sqrt(3) / 3),          # psi = 3 theta^2
])
def test_scaled_and_shifted_margin_losses_get_the_constants_derived_by_hand(phi, exponent, constant):
    r = psi_transform(setup(Z01, margin(phi), SIGN))
    assert r.status is Status.PROVED and r.exponent == exponent
    assert sympy.simplify(r.constant - constant) == 0 and r.tight


@pytest.mark.parametrize("phi", [
    "Max(0, -u1)",                      # perceptron: phi'(0) does not exist
    "Max(0, 1 - u1) + Max(0, -u1)",     # kink at 0 with subgradients [-2, -1]: 0 minimises C_eta near 1/2
    "Min(1, Max(0, 1 - u1))",           # ramp: not convex
    "1/(1 + exp(u1))",                  # sigmoid: not convex
    "-u1",                              # unbounded below
])
def test_a_margin_loss_that_is_not_classification_calibrated_or_not_convex_gets_no_bound(phi):
    r = bound(setup(Z01, margin(phi), SIGN), None, 30, cross_check=False)
    assert r.status is Status.UNKNOWN and r.constant is None


# --------------------------------------------------------------------------- multiclass and thresholded


def test_the_hinge_thresholded_at_one_half_transfers_with_constant_two_and_not_less():
    # p1 > 1/2 and u <= 1/2: min risk at u = 1/2 is 3/2 - p1, the minimum 2 - 2 p1: excess p1 - 1/2 = N / 2
    r = bound(setup(Z01, HINGE, threshold("1/2")), None, 60, cross_check=False)
    assert (r.status, r.exponent, r.constant, r.tight) == (Status.PROVED, "1", 2, True)
    p = [Fraction(3, 4), Fraction(1, 4)]
    n = Fraction(3, 4) - Fraction(1, 4)
    d = risk(HINGE, p, [Fraction(1, 2)]) - risk(HINGE, p, [Fraction(1)])
    assert n == 2 * d and n > Fraction(199, 100) * d


def test_the_hinge_thresholded_at_its_minimiser_gets_no_bound():
    r = bound(setup(Z01, HINGE, threshold("1")), None, 30, cross_check=False)
    assert r.status is Status.UNKNOWN and "not proved calibrated" in r.reason


def test_the_squared_loss_thresholded_at_2c_minus_1_transfers_with_constant_one_half_for_cost_one_third():
    # u* = 2 p1 - 1; the cost-c loss wants +1 iff p1 > c, i.e. u* > 2c - 1; D >= (2 (p1 - c))^2 = 4 N^2
    loss = [[0, "2/3"], ["1/3", 0]]
    sq = margin("(1 - u1)**2")
    r = bound(setup(loss, sq, threshold("-1/3")), None, 60, cross_check=False)
    assert (r.status, r.exponent, r.constant, r.tight) == (Status.PROVED, "1/2", sympy.Rational(1, 2), True)
    p = [Fraction(1, 2), Fraction(1, 2)]  # u* = 0; u = -1/3 predicts -1 with N = 1/2 - 1/3 = 1/6
    d = risk(sq, p, [Fraction(-1, 3)]) - risk(sq, p, [Fraction(0)])
    assert Fraction(1, 6) ** 2 == Fraction(1, 4) * d
    r_wrong = bound(setup(loss, sq, SIGN), None, 30, cross_check=False)
    assert r_wrong.status is Status.UNKNOWN


def test_the_one_vs_all_hinge_with_the_abstain_decoder_at_zero_has_constant_one_half():
    # Ramaswamy et al.: excess abstain(1/2) <= excess OvA hinge / (2 (1 - |tau|)); at p = e_3, u = (1, -1, 1)
    # predicts 1 (a tie with 3, loss 1) with OvA excess 2 (the minimiser (-1, -1, 1) has risk 0... plus 0)
    r = bound(setup(ABSTAIN3, OVA3, abstain_link("0")), None, 60, cross_check=False)
    assert (r.status, r.exponent, r.constant, r.tight) == (Status.PROVED, "1", sympy.Rational(1, 2), True)
    p = [Fraction(0), Fraction(0), Fraction(1)]
    d = risk(OVA3, p, [Fraction(1), Fraction(-1), Fraction(1)]) - risk(OVA3, p, [Fraction(-1), Fraction(-1),
                                                                                   Fraction(1)])
    assert d == 2 and Fraction(1) == Fraction(1, 2) * d  # N = 1: attained, so no smaller constant


def test_the_one_vs_all_hinge_with_argmax_gets_no_bound_for_three_classes():
    zo3 = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    r = bound(setup(zo3, OVA3, "argmax"), None, 30, cross_check=False)
    assert r.status is Status.UNKNOWN and r.constant is None


def test_the_all_threshold_hinge_transfers_the_absolute_loss_with_constant_one_and_the_wrong_order_is_refuted():
    # thresholds u2 <= u1, prediction 1 + #{j : u_j >= 0}; at p = e_3, u = 0 predicts 1 (N = 2) with surrogate
    # excess 2 (the minimiser (1, 1) has risk 0)
    sur = {"dim": 2, "domain": ["u2 <= u1"], "per_label": ["Max(0, 1 + u1) + Max(0, 1 + u2)",
                                                           "Max(0, 1 - u1) + Max(0, 1 + u2)",
                                                           "Max(0, 1 - u1) + Max(0, 1 - u2)"]}
    loss = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    link = {"linear": [[0, 0], [-1, 0], [-1, -1]]}
    r = bound(setup(loss, sur, link), None, 60, cross_check=False)
    assert (r.status, r.exponent, r.constant, r.tight) == (Status.PROVED, "1", 1, True)
    assert risk(sur, [0, 0, 1], [Fraction(0), Fraction(0)]) - risk(sur, [0, 0, 1], [Fraction(1), Fraction(1)]) == 2
    wrong = dict(sur, domain=["u1 <= u2"])  # the thresholds in the other order: label 2 cannot be fitted
    assert bound(setup(loss, wrong, link), None, 30, cross_check=False).status is Status.UNKNOWN


# --------------------------------------------------------------------------- parameters


def test_a_query_that_divides_by_the_parameter_is_answered_not_an_internal_error():
    # z3's model of x / w also interprets division by zero ('/0', two arguments); the model was read by calling
    # every declaration with no argument
    x, w = z3.Reals("x w")
    res = _solve([x / w == 1, w >= 0, x == 2], Budget(5.0), "division")
    assert res.answer == "sat" and set(res.model) == {"x", "w"} and res.model["x"] == 2  # w = 0 is allowed: x/0 is free
    assert _solve([x / w == 1, w > 0, x == 0], Budget(5.0), "division").answer == "unsat"


def test_a_max_term_weight_that_changes_sign_is_unknown_below_zero_and_refuted_above():
    # phi_w = w max(0, 1 - u) + max(0, -u): not convex for w < 0; for w >= 0 a kink at 0 with subgradients
    # [-w - 1, -w], so u = 0 minimises the risk at p1 = 5/12 for every w in [0, 5/2] while it predicts +1
    kw = {"parameters": {"w": ["-1", "1"]}, "loss": Z01, "link": SIGN, "noise": None, "name": "w",
          "surrogate": {"dim": 1, "per_label": ["w*Max(0, 1 - u1) + Max(0, -u1)", "w*Max(0, 1 + u1) + Max(0, u1)"]}}
    ans = decide_parameters(kw, timeout=60, cross_check=False)
    got = [(pc.set, pc.status) for pc in ans.pieces]
    assert got[-1] == ("0 <= w <= 1", "refuted")
    assert all(st != "proved" for _, st in got)


def test_a_parameter_that_appears_nowhere_is_refused_and_one_used_in_the_link_is_decided(tmp_path, capsys):
    f = tmp_path / "nowhere.json"
    f.write_text(json.dumps({"parameters": {"tau": ["0", "1"]}, "loss": Z01, "surrogate": HINGE, "link": SIGN}))
    assert main(["calibration", str(f), "--no-cross-check"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "parameters.tau" in err and "appears in none" in err
    with pytest.raises(InvalidInput, match="appears in none"):
        decide_parameters({"parameters": {"c": ["0", "1"]}, "loss": Z01, "surrogate": HINGE, "link": SIGN,
                           "noise": ["p1 >= 0"], "name": "x"}, timeout=30, cross_check=False)
    g = tmp_path / "used.json"
    g.write_text(json.dumps({"parameters": {"tau": ["(-1", "1"]}, "loss": Z01, "surrogate": HINGE,
                             "link": {"linear": [[-1], [1]], "offset": ["tau", "-tau"]}}))
    assert main(["calibration", str(g), "--no-cross-check", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    # the hinge's minimisers are -1 and 1: a threshold strictly between separates them; at tau = 1 the
    # minimiser u = 1 of p1 > 1/2 lies on the closed cell of -1
    assert [(x["set"], x["status"]) for x in rep["parameter_set"]] == [("-1 < tau < 1", "proved"),
                                                                       ("tau = 1", "refuted")]


def test_the_weighted_hinge_for_its_own_cost_is_calibrated_on_the_closed_range_ends_included():
    # (1 - c) max(0, 1 - u), c max(0, 1 + u) is c-weighted hinge: excess >= |p1 - c| = the cost-sensitive
    # excess; at c = 0 (c = 1) +1 (-1) is always optimal and the risk p1 max(0, 1 - u) is least only at u >= 1
    kw = {"parameters": {"c": ["0", "1"]}, "loss": [[0, "1 - c"], ["c", 0]], "link": SIGN, "noise": None,
          "name": "c", "surrogate": {"dim": 1, "per_label": ["(1 - c)*Max(0, 1 - u1)", "c*Max(0, 1 + u1)"]}}
    ans = decide_parameters(kw, timeout=60, cross_check=False)
    assert [(pc.set, pc.status) for pc in ans.pieces] == [("0 <= c <= 1", "proved")]
    # its twin with the weights frozen at c = 1/4 is calibrated only there
    kw2 = dict(kw, surrogate={"dim": 1, "per_label": ["3/4*Max(0, 1 - u1)", "1/4*Max(0, 1 + u1)"]},
               parameters={"c": ["(0", "1)"]})
    ans2 = decide_parameters(kw2, timeout=60, cross_check=False)
    assert [(pc.set, pc.status) for pc in ans2.pieces] == [("0 < c < 1/4", "refuted"), ("c = 1/4", "proved"),
                                                           ("1/4 < c < 1", "refuted")]


def test_the_squared_loss_with_argmin_is_shown_tight_where_one_row_of_the_cell_binds():
    # u* = p, the loss picks the least likely label (identity loss, argmin link); the largest regret at the
    # ratio is at p = e_1, where u* sits beyond the corner u1 = u2 = u3 of the cell of 1 and the nearest point
    # (1/3, 1/3, 1/3) gives N^2 / D = 3/2 only: "not shown tight" before; at p = (2/3, 0, 1/3) one row binds:
    # u = (1/3, 1/3, 1/3), N = 2/3, D = 2/9, N^2 = 2 D
    sq = {"dim": 3, "per_label": ["(u1 - 1)**2 + u2**2 + u3**2", "u1**2 + (u2 - 1)**2 + u3**2",
                                  "u1**2 + u2**2 + (u3 - 1)**2"]}
    eye = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    r = bound(setup(eye, sq, "argmin"), None, 60, cross_check=False)
    assert (r.status, r.exponent, r.constant, r.tight) == (Status.PROVED, "1/2", sympy.sqrt(2), True)
    p = [Fraction(x) for x in r.attained["p"]]
    u = [Fraction(x) for x in r.attained["u"]]
    n = p[0] - min(p)  # the attained prediction is 1
    d = risk(sq, p, u) - risk(sq, p, p)
    assert r.attained["pred"] == "1" and u[0] <= min(u) and n * n == 2 * d and n * n > Fraction(199, 100) * d
    # at p = e_1 the ratio is 3/2 < 2: the point the search met first does not attain the constant
    e1 = [Fraction(1), Fraction(0), Fraction(0)]
    third = [Fraction(1, 3)] * 3
    assert Fraction(1) / (risk(sq, e1, third) - risk(sq, e1, e1)) == Fraction(3, 2)
