"""Calibration with a parameter: the pieces of its range, each proved or refuted for every value in it.

Each example's answer is derived by hand in its test and in the file's comment; symcal must find
exactly those pieces, and a piece is decided only when every value of it is (a proof with the
parameter free in the piece, a parametric witness re-checked exactly, or the engine at a point).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from symcal.backends.base import Budget
from symcal.calibration.parameters import (
    _Q,
    Span,
    _parametric_witness,
    _polyhedral,
    _recheck,
    decide_parameters,
    holds_on,
    parametric_problem,
    parse_parameters,
)
from symcal.calibration.problem import read_problem_file
from symcal.cli import main
from symcal.errors import InvalidInput

EX = Path(__file__).resolve().parents[2] / "examples" / "calibration"


def pieces(name: str) -> list[tuple[str, str]]:
    ans = decide_parameters(read_problem_file(EX / f"{name}.json"), timeout=120)
    return [(pc.set, pc.status) for pc in ans.pieces]


# --------------------------------------------------------------------------- the examples, derived by hand


def test_the_plain_hinge_is_calibrated_for_a_cost_c_only_at_c_one_half():
    # the hinge minimiser is u = 1 when p1 > 1/2 and u = -1 when p1 < 1/2; the cost-sensitive loss wants +1
    # iff p1 > c: for c != 1/2 the distributions between c and 1/2 fail (p = (1/2, 1/2) with u at the wrong
    # side), at c = 1/2 it is the 0-1 loss
    assert pieces("cost_sensitive_hinge_c") == [("0 < c < 1/2", "refuted"), ("c = 1/2", "proved"),
                                                ("1/2 < c < 1", "refuted")]


def test_the_squared_loss_is_calibrated_for_cost_one_quarter_only_with_the_threshold_at_minus_one_half():
    # u* = 2 p1 - 1 and +1 is optimal iff p1 > 1/4, i.e. iff u* > -1/2: the threshold must be tau = 2c - 1
    assert pieces("squared_threshold_tau") == [("-1 <= tau < -1/2", "refuted"), ("tau = -1/2", "proved"),
                                               ("-1/2 < tau <= 1", "refuted")]


def test_the_ordinal_threshold_decoder_is_calibrated_exactly_for_tau_strictly_between_one_and_two():
    # |u - y| is minimised at the medians: the median 1 must fall strictly in the cell of 1 (tau > 1) and
    # the median 2 strictly in the cell of 2 (tau < 2 <= 5/2)
    assert pieces("ordinal_threshold_tau") == [("0 <= tau <= 1", "refuted"), ("1 < tau < 2", "proved"),
                                               ("2 <= tau <= 3", "refuted")]


def test_the_weighted_hinge_is_calibrated_for_its_cost_for_every_threshold_between_its_two_minimisers():
    # the weighted hinge's minimiser is +1 or -1 by the sign of p1 - c: any tau in (-1, 1) separates them
    assert pieces("weighted_hinge_threshold_tau") == [("-2 <= tau <= -1", "refuted"), ("-1 < tau < 1", "proved"),
                                                      ("1 <= tau <= 2", "refuted")]


def test_weston_watkins_with_a_dominant_class_above_tau_is_calibrated_from_tau_one_half():
    # the failure set of Weston-Watkins reaches max p_y = 1/2 at p = (1/3, 1/2, 1/6) and no further
    assert pieces("weston_watkins_3_dominance_tau") == [("1/3 <= tau < 1/2", "refuted"),
                                                        ("1/2 <= tau <= 3/4", "proved")]


def test_the_json_carries_the_parameter_set_with_a_parametric_witness(capsys):
    assert main(["calibration", str(EX / "cost_sensitive_hinge_c.json"), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["status"] == "refuted" and rep["parameter"] == "c"
    first = rep["parameter_set"][0]
    assert set(first) >= {"set", "status", "witness"}
    assert first["witness"]["parametric"] and first["witness"]["p"] == ["1/2", "1/2"]
    assert first["witness"]["loss_gap"] == "1/2 - c"


def test_a_smooth_surrogate_is_decided_only_at_points_and_says_unknown_between():
    # the logistic loss thresholded at tau: calibrated only at tau = 0, but method (S) has no parametric proof
    kw = {"loss": [[0, 1], [1, 0]], "surrogate": {"dim": 1, "per_label": ["log(1 + exp(-u1))", "log(1 + exp(u1))"]},
          "link": {"linear": [[-1], [1]], "offset": ["tau", "-tau"]}, "noise": None, "name": "logistic_tau",
          "parameters": {"tau": ["-1", "1"]}}
    ans = decide_parameters(kw, timeout=120)
    got = {pc.set: pc.status for pc in ans.pieces}
    assert got["tau = 0"] == "proved"
    assert "unknown" in got.values()
    assert not any(st == "proved" and "<" in s for s, st in got.items())  # never proved on an interval by (S)


# --------------------------------------------------------------------------- the checks that can fail


def test_a_parametric_witness_valid_on_half_the_range_is_refused_on_the_whole_range():
    kw = read_problem_file(EX / "cost_sensitive_hinge_c.json")
    par = parametric_problem(kw)
    c = par.rng.symbol
    half = Span(sympy.Integer(0), sympy.Rational(1, 2), True, True)
    whole = Span(sympy.Integer(0), sympy.Integer(1), True, True)
    form = _polyhedral(par, half, Budget(30))
    q = _Q(par, par.instantiate(Fraction(1, 4), 30), form)
    w = _parametric_witness(q, half, 1, 0, Budget(30))
    assert w is not None and w["p"] == ["1/2", "1/2"]
    vals = {"p1": sympy.Rational(1, 2), "p2": sympy.Rational(1, 2), "u1": sympy.Integer(-1),
            "mu_1_1": 0, "mu_1_2": sympy.Rational(1, 2), "mu_2_1": 0, "mu_2_2": sympy.Rational(1, 2)}
    assert _recheck(q, half, 1, 0, vals, [sympy.Integer(-1)]) == ""
    assert _recheck(q, whole, 1, 0, vals, [sympy.Integer(-1)]) == "the prediction is not worse on the whole piece"
    bad = dict(vals, mu_1_2=sympy.Rational(1, 3))
    assert "sum" in _recheck(q, half, 1, 0, bad, [sympy.Integer(-1)])
    assert c.name == "c"


def test_exact_signs_on_a_piece_use_the_real_roots():
    t = sympy.Symbol("tau")
    root2 = sympy.sqrt(2)
    assert holds_on(t**2 - 2, ">", Span(root2, sympy.Integer(3), True, True), t)
    assert not holds_on(t**2 - 2, ">", Span(root2, sympy.Integer(3), False, True), t)  # 0 at sqrt(2)
    assert holds_on(t**2 - 2, ">=", Span(root2, sympy.Integer(3), False, True), t)
    assert not holds_on(1 / (t - 1), ">", Span(sympy.Integer(0), sympy.Integer(2), True, True), t)
    assert holds_on((t**2 - 1) - (t - 1) * (t + 1), "==", Span(sympy.Integer(0), sympy.Integer(2), True, True), t)


@pytest.mark.parametrize(("params", "says"), [
    ({"tau": ["1", "-1"]}, "reversed"),
    ({"tau": ["0.5", "1"]}, "no decimals"),
    ({"tau": ["a", "1"]}, "no decimals, floats or names"),
    ({"tau": ["(1", "1)"]}, "non-empty"),
    ({"tau": ["1", "1)"]}, "non-empty"),
    ({"tau": ["0"]}, "two exact numbers"),
    ({"p1": ["0", "1"]}, "not p1..pn"),
    ({"u2": ["0", "1"]}, "not p1..pn"),
    ({"exp": ["0", "1"]}, "function name"),
    ({"a": ["0", "1"], "b": ["0", "1"]}, "one parameter"),
])
def test_a_bad_parameter_range_is_one_line_naming_the_parameter_with_exit_2(tmp_path, capsys, params, says):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({"loss": [[0, 1], [1, 0]], "surrogate": {"dim": 1, "per_label": ["u1**2", "u1**2"]},
                             "link": "argmax", "parameters": params}))
    assert main(["calibration", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err
    assert "parameters" in err


def test_a_good_range_parses_with_open_and_closed_ends():
    (r,) = parse_parameters({"tau": ["(-1", "1/2]"]})
    assert (r.lo_open, r.hi_open, str(r.lo), str(r.hi), r.text()) == (True, False, "-1", "1/2", "(-1, 1/2]")
    with pytest.raises(InvalidInput):
        parse_parameters({"tau": ["-1", 1.5]})


def test_the_parameter_may_not_enter_the_domain_nor_make_an_expression_undefined():
    base = {"loss": [[0, 1], [1, 0]], "link": "argmax", "noise": None, "name": "x"}
    with pytest.raises(InvalidInput, match="free of the parameter"):
        parametric_problem({**base, "surrogate": {"dim": 2, "per_label": ["u1**2", "u2**2"],
                                                  "domain": ["u1 + u2 = tau"]}, "parameters": {"tau": ["0", "1"]}})
    with pytest.raises(InvalidInput, match="defined"):
        parametric_problem({**base, "loss": [[0, "1/tau"], [1, 0]],
                            "surrogate": {"dim": 2, "per_label": ["u1**2", "u2**2"]},
                            "parameters": {"tau": ["-1", "1"]}})


def test_region_and_regret_are_refused_for_a_file_with_a_parameter_but_a_plain_run_exits_0(capsys):
    f = str(EX / "weighted_hinge_threshold_tau.json")
    assert main(["calibration", f, "--region"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--region" in err and len(err.splitlines()) == 1
    assert main(["calibration", f]) == 0
    out = capsys.readouterr().out
    assert "-1 < tau < 1: proved" in out and "1 <= tau <= 2: refuted" in out


def test_an_irrational_critical_value_is_a_piece_of_its_own_proved_with_its_minimal_polynomial():
    # the hinge with cost tau**2: calibrated iff tau**2 = 1/2, i.e. only at the irrational tau = sqrt(2)/2
    kw = {"loss": [[0, "1 - tau**2"], ["tau**2", 0]], "noise": None, "name": "irrational_cost",
          "surrogate": {"dim": 1, "per_label": ["Max(0, 1 - u1)", "Max(0, 1 + u1)"]},
          "link": {"linear": [[-1], [1]]}, "parameters": {"tau": ["(0", "1)"]}}
    ans = decide_parameters(kw, timeout=120)
    assert [(pc.set, pc.status) for pc in ans.pieces] == [
        ("0 < tau < sqrt(2)/2", "refuted"), ("tau = sqrt(2)/2", "proved"), ("sqrt(2)/2 < tau < 1", "refuted")]


def test_a_piece_with_an_algebraic_end_is_a_relation_with_rational_coefficients_that_is_exact():
    t = sympy.Symbol("tau")
    rel = Span(sympy.sqrt(2) / 2, sympy.Integer(1), True, True).relation(t)
    assert all(a.is_Rational for a in rel.atoms(sympy.Number))
    inside = ["71/100", "7072/10000", "99/100"]
    outside = ["7/10", "707/1000", "1", "0"]
    assert all(rel.xreplace({t: sympy.Rational(x)}) is sympy.true for x in inside)
    assert all(rel.xreplace({t: sympy.Rational(x)}) is sympy.false for x in outside)


def test_where_the_noise_set_is_empty_a_piece_is_unknown_never_vacuously_proved():
    # the cost-weighted hinge with the threshold at 0 is calibrated for its cost on every P; P = {p1 >= tau}
    # is empty for tau > 1, where the engine refuses to decide (an empty P is an error, never a vacuous pass)
    kw = {"loss": [[0, "3/4"], ["1/4", 0]], "noise": ["p1 >= tau"], "name": "empty_p",
          "surrogate": {"dim": 1, "per_label": ["3/4 * Max(0, 1 - u1)", "1/4 * Max(0, 1 + u1)"]},
          "link": {"linear": [[-1], [1]]}, "parameters": {"tau": ["0", "2"]}}
    ans = decide_parameters(kw, timeout=120)
    got = [(pc.set, pc.status) for pc in ans.pieces]
    assert got[0] == ("0 <= tau <= 1", "proved")
    assert all(st == "unknown" for _, st in got[1:]) and got[-1][0].endswith("tau <= 2")
