"""Robustness attacks on symcal's Python API (issue 25, "Promises not kept"): each bad input found by this
red team is refused with a one-line :class:`~symcal.errors.SymcalError` naming the parameter, never a raw
exception or a hang; each refusal has a twin that must still be accepted."""

from __future__ import annotations

import json
import os
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from symcal import Citation, SymcalError, check, implies, reals
from symcal.errors import InvalidClaim, InvalidInput, invalid, shown

ROOT = Path(__file__).resolve().parents[2]
x, = reals("x")
C = Citation("test2026", "Lemma 1")


def _claim():
    return implies("test2026.s34", hypotheses={"h": [x > 0]}, conclusion=x >= 0, cite=C)


def test_an_error_naming_a_numpy_array_is_one_line_and_a_string_value_keeps_its_escapes():
    e = invalid("loss", np.array([[0, 1], [1, 0]]), "a list of rows")
    assert "\n" not in str(e) and str(e).startswith("loss=array([[0, 1], [1, 0]])")
    assert "\n" not in shown(np.eye(4))
    # its twin: a string's repr is left exactly as it was (its newline stays the escape \n)
    assert str(invalid("name", "a\nb  c", "one word")) == "name='a\\nb  c': expected one word"


def test_a_public_call_refusing_a_numpy_array_says_so_in_one_line():
    with pytest.raises(SymcalError) as e:
        check(_claim(), sizes=np.array([[3, 4], [5, 6]]), timeout=5)
    assert "sizes=" in str(e.value) and "\n" not in str(e.value)


def test_cross_check_given_an_array_is_refused_naming_cross_check_and_false_is_accepted():
    with pytest.raises(InvalidInput, match="cross_check="):
        check(_claim(), cross_check=np.array([True, False]), timeout=5)
    with pytest.raises(InvalidInput, match="cross_check='yes'"):  # the type is judged before cvc5 is looked for
        check(_claim(), cross_check="yes", timeout=5)
    assert check(_claim(), cross_check=False, timeout=5).status.value == "proved"


def test_minimise_surrogate_risk_refuses_an_array_for_gradient_and_runs_without_one():
    from symcal.ranking import (
        PHI_EXP,
        PreferenceDistribution,
        PreferenceGraph,
        minimise_surrogate_risk,
        numeric_pairwise_risk,
    )

    dist = PreferenceDistribution([(PreferenceGraph(3, {(1, 2): F(1), (2, 3): F(1)}), F(1))])
    risk = numeric_pairwise_risk(dist, PHI_EXP)
    with pytest.raises(InvalidInput, match="gradient="):
        minimise_surrogate_risk(risk, gradient=np.array([1.0, 2.0]), maxiter=50)
    assert minimise_surrogate_risk(risk, gradient=None, maxiter=50).method.startswith("scipy BFGS")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_load_preferences_refuses_a_fifo_a_device_and_a_nul_name_instead_of_waiting_forever(tmp_path):
    from symcal.ranking import load_preferences

    fifo = tmp_path / "prefs.json"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", "prefs\x00.json"):
        if path == "/dev/zero" and not Path(path).exists():
            continue
        with pytest.raises(InvalidInput, match="path=") as e:
            load_preferences(path)
        assert "\n" not in str(e.value)
    # its twin: a regular preference file is read
    assert load_preferences(ROOT / "examples" / "preferences.json") is not None


def test_a_certificates_folder_named_with_a_nul_is_refused_and_a_plain_folder_is_written(tmp_path):
    with pytest.raises(InvalidInput, match="certificates="):
        check(_claim(), certificates="certs\x00x", timeout=5)
    assert check(_claim(), certificates=tmp_path / "certs", timeout=5).status.value == "proved"
    assert list((tmp_path / "certs").glob("*.json"))


def test_a_saved_run_giving_one_id_twice_is_refused_and_distinct_ids_are_read(tmp_path):
    from symcal.report.from_run import load_run

    run = tmp_path / "run.json"
    run.write_text(json.dumps([{"id": "mine.x", "status": "proved"}, {"id": "mine.x", "status": "refuted"}]))
    with pytest.raises(InvalidInput, match="repeats the id 'mine.x'"):
        load_run(run)
    run.write_text(json.dumps([{"id": "mine.x", "status": "proved"}, {"id": "mine.y", "status": "refuted"}]))
    assert [e["id"] for e in load_run(run)] == ["mine.x", "mine.y"]


def test_a_theorems_file_with_a_nul_byte_is_refused_without_a_line_none_and_a_syntax_error_names_its_line(
        tmp_path):
    from symcal.library import load_module

    nul = tmp_path / "nul.py"
    nul.write_bytes(b"x = 1\x00\n")
    with pytest.raises(InvalidInput, match="valid Python") as e:
        load_module(nul)
    assert "None" not in str(e.value)
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\ndef (:\n")
    with pytest.raises(InvalidInput, match="at line 2"):
        load_module(bad)


def test_two_claims_with_one_id_in_a_theorems_file_are_refused_naming_the_file_and_one_claim_is_counted(tmp_path):
    from symcal.library import probe_file

    head = "from symcal import Citation, implies, reals\nC = Citation('mine2026', 'p. 1')\np, = reals('p')\n"
    dup = tmp_path / "dup.py"
    dup.write_text(head + "a = implies('mine2026.x', hypotheses={}, conclusion=p >= p, cite=C)\n"
                          "b = implies('mine2026.x', hypotheses={}, conclusion=p <= p, cite=C)\n")
    with pytest.raises(InvalidClaim, match="defined twice in .*dup.py"):
        probe_file(dup, 20)
    one = tmp_path / "one.py"
    one.write_text(head + "a = implies('mine2026.x', hypotheses={}, conclusion=p >= p, cite=C)\nb = a\n")
    assert probe_file(one, 20) == 1


@pytest.mark.parametrize(("typed", "hint"), [(0.1, "Fraction(1, 10)"), (0.1234, "Fraction(617, 5000)"),
                                             (1e-05, "Fraction(1, 100000)"), (1e308, "Fraction('1e+308')"),
                                             (np.float64(0.1), "Fraction(1, 10)")])
def test_a_float_is_refused_with_the_exact_number_it_was_typed_as_not_a_nearby_small_fraction(typed, hint):
    from symcal.exact.numbers import to_fraction

    with pytest.raises(SymcalError) as e:
        to_fraction(typed, "p")
    assert str(e.value).endswith(f"use {hint}")
    assert to_fraction(typed, "p", allow_float=True) == F(typed)  # allowed: the double itself, exactly


def test_a_deadline_too_far_for_the_timers_is_refused_and_a_near_one_is_used():
    import time

    import sympy

    from symcal.exact import zero

    with pytest.raises(SymcalError, match="deadline"):
        zero.sign(sympy.Integer(1), deadline=1e308)
    assert zero.sign(sympy.Integer(1), deadline=time.monotonic() + 60).value == 1


def test_status_of_a_value_whose_repr_fails_is_a_symcal_error_and_of_its_text_the_status():
    from symcal.verdicts import Status

    deep: list = []
    inner = deep
    for _ in range(3000):
        inner.append([])
        inner = inner[0]
    for bad in (deep, -10**100000, "bogus", 3):
        with pytest.raises(SymcalError, match="status"):
            Status(bad)
    assert Status("proved") is Status.PROVED and Status(Status.REFUTED) is Status.REFUTED


def test_an_identitys_conditions_with_a_float_are_refused_like_its_sides_and_exact_ones_are_decided():
    import sympy

    with pytest.raises(SymcalError, match="Rational"):
        from symcal import identity

        identity("test2026.s34_cond", lhs=sympy.Abs(x), rhs=x, conditions=[x > 0.5], cite=C)
    from symcal import identity

    exact = identity("test2026.s34_cond", lhs=sympy.Abs(x), rhs=x, conditions=[x > sympy.Rational(1, 2)], cite=C)
    assert check(exact).status.value == "proved"


def test_a_claim_whose_strategy_is_an_array_is_refused_and_a_named_strategy_is_kept():
    c = _claim()
    with pytest.raises(SymcalError, match="strategy"):
        c.replace(strategy=np.array(["per_size", "local_lemma"]))
    assert c.replace(strategy="per_size").strategy == "per_size"
