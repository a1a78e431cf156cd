"""The second opinion: cvc5 re-decides every SMT answer behind a proved/refuted verdict from
the same SMT-LIB2 text; a disagreement turns the verdict into unknown with both answers kept."""

from __future__ import annotations

import pytest
import sympy

from symcal import Citation, implies
from symcal.backends import cvc5_backend
from symcal.report import second_opinion_summary, to_json
from symcal.runner import check, check_many
from symcal.verdicts import Status

pytest.importorskip("cvc5")

x, y = sympy.symbols("x y", real=True)
CITE = Citation("test2026", "eq. 1", "x > 0 and y > 0 imply x*y > 0")
TRUE = implies("test2026.product_positive", hypotheses={"x_pos": [x > 0], "y_pos": [y > 0]},
               conclusion=x * y > 0, cite=CITE, statement="x, y > 0 => x y > 0")


def test_a_proved_verdict_carries_cvc5s_confirmation():
    v = check(TRUE, cross_check=True)
    assert v.status is Status.PROVED
    assert v.cross_check is not None and v.cross_check.confirmed
    assert v.cross_check.answers == 1 and not v.cross_check.disagreements
    assert "cvc5" in v.evidence.summary() and "agrees" in v.evidence.summary()


def test_sized_sweeps_add_up_their_second_opinions():
    from symcal.library import load_bundled, select

    claim = select(load_bundled(), ["duchi2010.lemma14"])[0]
    v = check(claim, sizes=(3, 4), cross_check=True)
    assert v.status is Status.PROVED
    assert v.cross_check.answers >= 2 and v.cross_check.agreed == v.cross_check.answers


def test_a_disagreement_turns_the_verdict_unknown_and_keeps_both_answers(monkeypatch):
    monkeypatch.setattr(cvc5_backend, "decide_smtlib", lambda text, timeout: "sat")
    v = check(TRUE, cross_check=True, isolate=False)
    assert v.status is Status.UNKNOWN
    assert "SOLVERS DISAGREE" in v.reason and "z3 says unsat" in v.reason and "cvc5 says sat" in v.reason
    assert v.evidence is not None and "DISAGREES" in v.evidence.summary()
    assert v.cross_check.disagreements
    line = second_opinion_summary([(TRUE, v)])
    assert "1 disagreements" in line and "SOLVERS DISAGREE on test2026.product_positive" in line


def test_a_cvc5_unknown_is_no_answer_never_agreement(monkeypatch):
    monkeypatch.setattr(cvc5_backend, "decide_smtlib", lambda text, timeout: "unknown (TIMEOUT)")
    v = check(TRUE, cross_check=True, isolate=False)
    assert v.status is Status.PROVED  # z3's proof stands, but it is not counted as confirmed
    assert not v.cross_check.confirmed and v.cross_check.agreed == 0 and v.cross_check.unknown


def test_the_json_element_reports_the_second_opinion():
    (v,) = check_many([TRUE], cross_check=True)
    (e,) = to_json([(TRUE, v)])
    assert e["cross_check"]["solver"].startswith("cvc5") and e["cross_check"]["agreed"] == 1


def test_no_cross_check_asked_means_none_reported():
    v = check(TRUE, cross_check=False)
    assert v.cross_check is None
    assert "none" in second_opinion_summary([(TRUE, v)])


def test_cross_check_must_be_a_bool_or_none():
    from symcal.errors import InvalidInput

    with pytest.raises(InvalidInput, match="cross_check"):
        check_many([TRUE], cross_check="yes")  # type: ignore[arg-type]


def test_cvc5_decides_nonlinear_real_queries_by_coverings():
    text = ("(set-logic ALL)(declare-fun a () Real)(declare-fun b () Real)"
            "(assert (> a 0.0))(assert (> b 0.0))(assert (<= (* a b) 0.0))(check-sat)")
    assert cvc5_backend.decide_smtlib(text, 10) == "unsat"


def test_a_cvc5_that_hangs_costs_the_confirmation_never_the_decision(monkeypatch):
    import time

    def hang(text, timeout):
        while True:
            time.sleep(0.05)

    from symcal.limits import WALL_FACTOR

    monkeypatch.setattr(cvc5_backend, "decide_smtlib", hang)  # inherited by the forked worker
    t = time.monotonic()
    v = check(TRUE, cross_check=True, timeout=1.0)
    assert time.monotonic() - t < 2 * (WALL_FACTOR * 1.0 + 5) + 1.0  # a sleeping phase: the wall backstop
    assert v.status is Status.PROVED
    assert not v.cross_check.confirmed and "killed" in v.cross_check.unknown[0]


def test_without_cvc5_the_check_says_so_instead_of_a_silent_none(monkeypatch, capsys):
    from symcal.cli import main

    monkeypatch.setattr(cvc5_backend, "available", lambda: False)
    assert main(["check", "duchi2010.lemma14", "--size", "3..3"]) == 0
    assert "second opinion: none (cvc5 is not installed" in capsys.readouterr().out


def test_a_refuted_z3_verdict_carries_its_satisfiable_query_and_cvc5_re_decides_it():
    pytest.importorskip("cvc5")
    import sympy

    from symcal.claims import Citation, implies
    from symcal.runner import check_many

    x = sympy.Symbol("x", real=True)
    c = implies("mine2026.false", hypotheses={"a": [x > 1]}, conclusion=x > 2, cite=Citation("Mine 2026", "L1"))
    v = check_many([c], cross_check=True)[0]
    assert v.status is Status.REFUTED and v.witness is not None
    assert v.witness.query is not None and v.witness.query.answer == "sat" and "(check-sat)" in v.witness.query.smtlib
    assert v.cross_check is not None and v.cross_check.answers == 1 and v.cross_check.agreed == 1
    # its negative twin: the true statement is proved, and its unsat query is re-decided the same way
    true = implies("mine2026.true", hypotheses={"a": [x > 2]}, conclusion=x > 1, cite=Citation("Mine 2026", "L1"))
    w = check_many([true], cross_check=True)[0]
    assert w.status is Status.PROVED and w.cross_check is not None and w.cross_check.agreed == 1


def test_a_refuted_node_claim_exports_the_query_of_its_counterexample():
    pytest.importorskip("cvc5")
    from symcal.claims import Citation, Local, node_implies
    from symcal.logic import Implies
    from symcal.runner import check_many

    up = Local(2, lambda a, i, j: Implies(i < j, a.d(i, j) >= 0))
    down = Local(2, lambda a, i, k: Implies(i > k, a.d(i, k) >= 0))
    c = node_implies("mine2026.label", hypotheses={"up": up}, conclusion=down, cite=Citation("Mine 2026", "L1"),
                     sizes=(3, 3))
    v = check_many([c], cross_check=True)[0]
    assert v.status is Status.REFUTED
    assert v.witness.query is not None and v.cross_check is not None and v.cross_check.agreed >= 1


def test_a_cvc5_run_is_stopped_by_its_cpu_seconds_not_by_the_wall_clock(monkeypatch):
    # the forked child inherits the patched run: a busy loop spends its CPU limit (RLIMIT_CPU, whole
    # seconds) and the answer says so, however busy the machine is
    def spin(text, timeout, options):
        while True:
            pass

    monkeypatch.setattr(cvc5_backend, "_run", spin)
    import resource

    def children_cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    before = children_cpu()
    answer = cvc5_backend.decide_smtlib("(check-sat)", 1.0)
    assert answer.startswith("unknown (cvc5 spent its ") and answer.endswith(" CPU seconds)")
    assert children_cpu() - before < 1.5  # the 1 CPU-s limit, read every 50 ms, over both configurations


def test_a_cvc5_run_that_sleeps_is_stopped_by_the_wall_clock_backstop(monkeypatch):
    import time

    from symcal.limits import WALL_FACTOR

    def sleep(text, timeout, options):
        while True:
            time.sleep(0.05)

    monkeypatch.setattr(cvc5_backend, "_run", sleep)
    t = time.monotonic()
    answer = cvc5_backend.decide_smtlib("(check-sat)", 0.1)
    assert "wall-clock backstop" in answer and time.monotonic() - t >= WALL_FACTOR * 0.1
