"""--regret: the psi-transform of a binary margin loss (Bartlett, Jordan & McAuliffe 2006),
computed and checked exactly; the four textbook transforms come out exactly."""

from __future__ import annotations

import json

import pytest
import sympy

from symcal.calibration import regret
from symcal.calibration.regret import TEXTBOOK, THETA
from symcal.cli import main
from symcal.exact import sign
from symcal.verdicts import Status

SIGN = {"linear": [[-1], [1]]}
Z1 = [[0, 1], [1, 0]]


def margin(phi: str) -> dict:
    return {"dim": 1, "per_label": [phi, phi.replace("u1", "(-u1)")]}


@pytest.mark.parametrize("name, phi", [
    ("hinge", "Max(0, 1 - u1)"), ("squared", "(1 - u1)**2"), ("exponential", "exp(-u1)"),
    ("logistic", "log(1 + exp(-u1))"),
])
def test_the_four_textbook_psi_transforms_come_out_exactly(name, phi):
    r = regret(Z1, margin(phi), SIGN)
    assert r.status is Status.PROVED and r.known == name
    for k in (-6, -1, 0, 3, 5):  # and pointwise, by the one exact sign test
        t = sympy.Rational(k, 7)
        assert sign(r.psi.subs(THETA, t) - TEXTBOOK[name].subs(THETA, t)).value == 0


def test_the_squared_hinge_has_the_squared_losss_transform():
    r = regret(Z1, margin("Max(0, 1 - u1)**2"), SIGN)
    assert r.status is Status.PROVED and r.known == "squared"


@pytest.mark.parametrize("phi, why", [
    ("Max(0, -u1)", "differentiable at 0"),       # kink at 0: not decided (Bartlett et al., Theorem 6)
    ("u1**2", "not classification-calibrated"),    # phi'(0) = 0
    ("-u1**2 + 3", "not shown convex"),
])
def test_a_loss_outside_the_theorem_is_unknown_with_the_reason(phi, why):
    r = regret(Z1, margin(phi), SIGN)
    assert r.status is Status.UNKNOWN and why in r.reason


def test_a_problem_that_is_not_a_binary_margin_loss_is_unknown():
    assert "0-1 loss" in regret([[0, 2], [1, 0]], margin("exp(-u1)"), SIGN).reason
    assert "margin loss" in regret(Z1, {"dim": 1, "per_label": ["exp(-u1)", "exp(2*u1)"]}, SIGN).reason
    assert "sign link" in regret(Z1, margin("exp(-u1)"), {"linear": [[1], [-1]]}).reason


def test_the_command_line_prints_and_writes_the_bound(capsys):
    assert main(["calibration", "examples/calibration/logistic_binary.json", "--regret"]) == 0
    out = capsys.readouterr().out
    assert "psi(theta) = phi(0) - H((1 + theta)/2)" in out and "logistic psi-transform" in out
    assert main(["calibration", "examples/calibration/logistic_binary.json", "--regret", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["regret"]["status"] == "proved" and rep["regret"]["textbook"] == "logistic"
