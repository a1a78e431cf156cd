"""--regret (issue 24, item 2): psi-transforms whose minimiser changes piece at eta = 1/2, derived
by hand and pinned exactly (Bartlett, Jordan & McAuliffe 2006, Section 2), each with its twins.

Huberized hinge (delta = 1): phi(u) = 1/2 - u (u < 0), (1 - u)^2/2 (0 <= u < 1), 0 (u >= 1).  For
eta >= 1/2, dC/da = -eta (1 - a) + (1 - eta) = 0 on [0, 1] gives a* = (2 eta - 1)/eta in [0, 1],
H = (1 - eta)(4 eta - 1)/(2 eta), and with eta = (1 + theta)/2, psi = theta^2/(1 + |theta|).

Cubic hinge Max(0, 1 - u)^3: on [-1, 1], dC/da = 3 [(1 - eta)(1 + a)^2 - eta (1 - a)^2] = 0 gives
sqrt(eta) (1 - a) = sqrt(1 - eta) (1 + a), a* = (sqrt(eta) - sqrt(1 - eta))/(sqrt(eta) + sqrt(1 - eta)),
H = 8 eta (1 - eta)/(1 + 2 sqrt(eta (1 - eta))), psi = (1 - r)(1 + 2 r)/(1 + r), r = sqrt(1 - theta^2);
psi ~ 3 theta^2 / 4 at 0, so excess_01 <= (2/sqrt(3)) excess_phi^(1/2).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

from symcal.calibration import regret
from symcal.calibration.transfer import ETA, THETA
from symcal.cli import main
from symcal.exact import sign
from symcal.verdicts import Status

SIGN = {"linear": [[-1], [1]]}
Z1 = [[0, 1], [1, 0]]
HUBER = "Piecewise((1/2 - u1, u1 < 0), ((1 - u1)**2/2, u1 < 1), (0, True))"
HUBER_REORDERED = "Piecewise((0, u1 >= 1), ((1 - u1)**2/2, u1 >= 0), (1/2 - u1, True))"
CUBIC = "Max(0, 1 - u1)**3"
R = sympy.sqrt(1 - THETA**2)
HUBER_PSI = THETA**2 / (1 + sympy.Abs(THETA))
CUBIC_PSI = (1 - R) * (1 + 2 * R) / (1 + R)
POINTS = [sympy.Rational(k, 9) for k in (-8, -5, -1, 0, 1, 4, 7, 8)]


def margin(phi: str) -> dict:
    return {"dim": 1, "per_label": [phi, phi.replace("u1", "(-u1)")]}


def _huber(u: float) -> float:
    return 0.5 - u if u < 0 else ((1 - u) ** 2 / 2 if u < 1 else 0.0)


def _cubic(u: float) -> float:
    return max(0.0, 1 - u) ** 3


def _grid_h(phi, eta: float) -> float:
    """An independent upper estimate of H(eta): the least C_eta on a grid of a (step 1/2000 on [-3, 3])."""
    return min(eta * phi(k / 2000) + (1 - eta) * phi(-k / 2000) for k in range(-6000, 6001))


def _same_at_points(psi: sympy.Expr, want: sympy.Expr) -> None:
    for t in POINTS:
        assert sign(psi.subs(THETA, t) - want.subs(THETA, t)).value == 0, t


@pytest.mark.parametrize("phi", [HUBER, HUBER_REORDERED])
def test_the_huberized_hinge_has_psi_theta_squared_over_one_plus_abs_theta(phi):
    r = regret(Z1, margin(phi), SIGN)
    assert r.status is Status.PROVED, r.reason
    assert r.psi == HUBER_PSI
    _same_at_points(r.psi, HUBER_PSI)
    assert any("split at 1/2" in s and "(v**2 - 1)/v**2" in s for s in r.steps)
    for e in (Fraction(1, 10), Fraction(3, 10), Fraction(1, 2), Fraction(3, 4), Fraction(19, 20)):
        eh = max(e, 1 - e)
        hand = (1 - eh) * (4 * eh - 1) / (2 * eh)
        assert sign(r.H.subs(ETA, sympy.Rational(e.numerator, e.denominator)) - sympy.Rational(
            hand.numerator, hand.denominator)).value == 0
        assert abs(_grid_h(_huber, float(e)) - float(hand)) < 1e-6


def test_the_huberized_hinge_gets_no_tight_square_root_bound_because_psi_is_below_theta_squared():
    """psi(theta)/theta^2 -> 1 but psi(1/2) = 1/6 < 1/4: the constant 1 would be wrong; none is claimed."""
    r = regret(Z1, margin(HUBER), SIGN)
    assert r.psi.subs(THETA, sympy.Rational(1, 2)) == sympy.Rational(1, 6)
    assert r.constant is None and r.exponent == ""
    assert any("psi'' >= 2 on (0, 1) is not shown" in s for s in r.steps)
    assert r.calibration_function is not None  # psi(eps) on [0, 1] still


def test_the_cubic_hinge_has_its_exact_psi_and_tight_square_root_bound():
    r = regret(Z1, margin(CUBIC), SIGN)
    assert r.status is Status.PROVED, r.reason
    _same_at_points(r.psi, CUBIC_PSI)
    w = sympy.Symbol("w", positive=True)  # and identically: theta = (w - 1)/(w + 1) maps w > 0 onto (-1, 1)
    assert sympy.simplify((r.psi - CUBIC_PSI).subs(THETA, (w**2 - 1) / (w**2 + 1))) == 0
    assert not r.psi.has(sympy.Abs)  # even as written
    assert r.exponent == "1/2" and sympy.simplify(r.constant - 2 / sympy.sqrt(3)) == 0 and r.tight
    assert any("(v - 1)/(v + 1)" in s for s in r.steps)
    for e in (0.05, 0.3, 0.5, 0.62, 0.9):
        hand = 8 * e * (1 - e) / (1 + 2 * (e * (1 - e)) ** 0.5)
        assert abs(float(r.H.subs(ETA, sympy.Float(e, 30))) - hand) < 1e-12
        assert abs(_grid_h(_cubic, e) - hand) < 1e-5


def test_a_scaled_cubic_hinge_has_twice_the_psi_twin():
    r = regret(Z1, margin("2*" + CUBIC), SIGN)
    assert r.status is Status.PROVED
    _same_at_points(r.psi, 2 * CUBIC_PSI)
    assert sympy.simplify(r.constant - sympy.sqrt(6) / 3) == 0


@pytest.mark.parametrize("phi", [
    "Piecewise((1/2 - u1, u1 < 0), ((1 - u1)**2/2, u1 < 1/2), (0, True))",  # wrong threshold: jumps at 1/2
    "Piecewise((1/2 - u1, u1 < 0), ((1 - u1)**2/2, u1 < 2), (0, True))",    # wrong threshold: jumps at 2
    "Piecewise((1 - u1, u1 < 0), ((1 - u1)**2/2, u1 < 1), (0, True))",      # jumps at 0
])
def test_a_huberized_hinge_with_a_wrong_threshold_is_not_convex_and_gets_no_bound(phi):
    r = regret(Z1, margin(phi), SIGN)
    assert r.status is Status.UNKNOWN and r.psi is None and "not shown convex" in r.reason


def test_a_non_convex_truncated_cubic_hinge_gets_no_bound():
    r = regret(Z1, margin("Min(1, " + CUBIC + ")"), SIGN)
    assert r.status is Status.UNKNOWN and r.psi is None and r.constant is None


def test_the_quartic_hinge_whose_minimiser_needs_cube_roots_stays_unknown():
    """a* = (eta^(1/3) - (1 - eta)^(1/3))/(eta^(1/3) + (1 - eta)^(1/3)) is not rational in v: not shown."""
    r = regret(Z1, margin("Max(0, 1 - u1)**4"), SIGN)
    assert r.status is Status.UNKNOWN and "[1/2, 1)" in r.reason


def test_the_command_line_prints_the_cubic_hinge_psi(tmp_path, capsys):
    f = tmp_path / "cubic.json"
    f.write_text(json.dumps({"loss": Z1, "surrogate": margin(CUBIC), "link": SIGN}))
    assert main(["calibration", str(f), "--regret", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)["regret"]
    assert rep["status"] == "proved" and rep["exponent"] == "1/2"
    assert rep["psi"] == "(2*theta**2 + sqrt(1 - theta**2) - 1)/(sqrt(1 - theta**2) + 1)"
