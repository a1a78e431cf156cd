"""A claim that is a finite family of SMT implications (``implies_cases``): proved iff every case's
negated query is unsat, refuted at the first case with an exactly re-checked counterexample (the
verdict names the case), unknown -- never proved -- when a case is undecided or the budget runs
out; the evidence keeps one SMT-LIB2 query per case, so cvc5, ``--json`` and ``--smtlib`` see them."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

from symcal import Citation, InvalidInput, implies_cases
from symcal.backends.base import Budget
from symcal.backends.smt_claims import decide_implies_cases
from symcal.cli import main
from symcal.crosscheck import smt_parts
from symcal.errors import InvalidClaim
from symcal.explore import mutants as M
from symcal.explore.necessity import necessity
from symcal.report import to_json
from symcal.runner import check
from symcal.verdicts import Composite, SmtResult, Status

x, y = sympy.symbols("x y", real=True)
C = Citation("test2026", "Lemma 1", "a quoted statement")

SIGNS = [
    ("x>0, y>0", {"x_sign": [x > 0], "y_pos": [y > 0]}, x * y > 0),
    ("x<0, y>0", {"x_sign": [x < 0], "y_pos": [y > 0]}, x * y < 0),
    ("x=0", {"x_zero": [sympy.Eq(x, 0)]}, sympy.Eq(x * y, 0)),
]
PRODUCT_SIGNS = implies_cases("test2026.product_signs", cases=SIGNS, cite=C, domain="the sign of x",
                              statement="the sign of x*y for each sign of x when y > 0")


def wrong_second_case(flip_third: bool = True) -> list:
    """The second case claims x*y > 0 for x < 0 (false); the third is false too when flipped."""
    third = sympy.Ne(x * y, 0) if flip_third else SIGNS[2][2]
    return [SIGNS[0], ("x<0, y>0", SIGNS[1][1], x * y > 0), ("x=0", SIGNS[2][1], third)]


def ladder(m: int | None) -> list:
    """Case k of size m: x >= k implies x >= k - 1 (k = 1..m): m cases at size m."""
    assert m is not None
    return [(f"k={k}", {"above": [x >= k]}, x >= k - 1) for k in range(1, m + 1)]


LADDER = implies_cases("test2026.ladder", cases=ladder, sizes=(2, 4), cite=C, domain="k = 1..m",
                       statement="x >= k implies x >= k - 1")


# --------------------------------------------------------------------------- decisions


def test_a_family_is_proved_with_one_smt_query_per_case_as_evidence():
    v = check(PRODUCT_SIGNS)
    assert v.status is Status.PROVED, v.reason
    assert isinstance(v.evidence, Composite)
    assert [label for label, _ in v.evidence.parts] == [label for label, _, _ in SIGNS]
    for label, part in v.evidence.parts:
        assert isinstance(part, SmtResult) and part.answer == "unsat"
        assert "(check-sat)" in part.smtlib and label in part.smtlib  # the case is named in the query's comment
    assert v.scope.startswith("3 cases") and "the sign of x" in v.scope


def test_a_false_case_refutes_the_family_with_a_rechecked_witness_naming_the_case():
    claim = implies_cases("test2026.signs_wrong", cases=wrong_second_case(), cite=C, statement="wrong sign")
    v = check(claim)
    assert v.status is Status.REFUTED
    w = v.witness
    assert w is not None and w.rechecked
    # it stops at the first refutation: the second case, not the (also false) third
    assert "case 'x<0, y>0'" in w.detail and "x<0, y>0" in v.reason and "x=0" not in v.reason
    # our own exact re-check of the named case's expressions at the witness
    values = {x: sympy.Rational(str(w.values["x"])), y: sympy.Rational(str(w.values["y"]))}
    assert values[x] < 0 < values[y] and not bool((x * y > 0).subs(values))
    assert all(isinstance(val, Fraction) for val in w.values.values())


def test_a_refutation_at_a_size_names_the_size_and_the_case():
    def cases(m: int | None) -> list:
        assert m is not None
        out = ladder(m)
        if m >= 3:  # from m = 3 on, the last case claims one more than it can
            out[-1] = (f"k={m}", {"above": [x >= m]}, x >= m + 1)
        return out

    v = check(implies_cases("test2026.ladder_wrong", cases=cases, sizes=(2, 4), cite=C, statement="too far"))
    assert v.status is Status.REFUTED
    assert v.sizes[0].status is Status.PROVED and v.sizes[1].status is Status.REFUTED
    assert v.witness is not None and v.witness.size == 3 and "case 'k=3'" in v.witness.detail
    assert "m = 3" in v.reason and "k=3" in v.reason


def test_sized_families_keep_every_case_of_every_size_in_the_evidence():
    v = check(LADDER)
    assert v.status is Status.PROVED and [s.size for s in v.sizes] == [2, 3, 4]
    parts = smt_parts(v.evidence)
    assert len(parts) == 2 + 3 + 4
    assert "m = 3/k=2" in [label for label, _ in parts]
    assert all(p.answer == "unsat" for _, p in parts)
    assert check(LADDER, sizes=(5, 5)).status is Status.PROVED


def test_an_undecidable_case_makes_the_family_unknown_never_proved():
    cases = [SIGNS[0], ("exp", {"x_pos": [x > 0]}, sympy.exp(x) >= x + 1)]  # z3 has no exp
    v = check(implies_cases("test2026.with_exp", cases=cases, cite=C, statement="exp is positive"))
    assert v.status is Status.UNKNOWN
    assert "1 of 2 cases proved" in v.reason and "case 'exp'" in v.reason
    # the case decided so far stays in the (partial) evidence
    assert isinstance(v.evidence, Composite) and len(v.evidence.parts) == 1 and "partial" in v.evidence.note


def test_a_budget_that_runs_out_gives_unknown_and_stops():
    many = [(f"c{k}", {"h": [x >= k, y >= x]}, y >= k) for k in range(400)]
    out = decide_implies_cases(many, Budget(0.05), "scope", "test2026.many")
    assert out.status is Status.UNKNOWN and "CPU seconds spent" in out.reason and "not attempted" in out.reason
    # through the runner: the same family under a tiny timeout is never proved
    v = check(implies_cases("test2026.many", cases=many, cite=C, statement="many cases"), timeout=0.05)
    assert v.status is Status.UNKNOWN


def test_a_refutation_after_an_undecided_case_still_refutes():
    cases = [("exp", {"x_pos": [x > 0]}, sympy.exp(x) >= x + 1), ("false", {"x_pos": [x > 0]}, x > 1)]
    v = check(implies_cases("test2026.exp_then_false", cases=cases, cite=C, statement="x > 0 => x > 1"))
    assert v.status is Status.REFUTED and "case 'false'" in v.witness.detail


# --------------------------------------------------------------------------- reports and second opinion


def test_the_json_element_carries_the_smtlib_of_every_case():
    v = check(PRODUCT_SIGNS)
    (element,) = to_json([(PRODUCT_SIGNS, v)])
    ev = json.loads(json.dumps(element))["evidence"]
    assert ev["kind"] == "composite" and len(ev["parts"]) == 3
    assert all(p["kind"] == "smt" and "(check-sat)" in p["smtlib"] for p in ev["parts"])


def test_the_cli_checks_a_users_family_and_writes_one_smtlib_file_per_case(tmp_path, capsys):
    f = tmp_path / "mine.py"
    f.write_text(
        "import sympy\nfrom symcal import Citation, implies_cases\n"
        "x = sympy.Symbol('x', real=True)\n"
        "CLAIMS = [implies_cases('mine2026.steps', cite=Citation('mine2026', 'Lemma 1', 'q'), statement='steps',\n"
        "          cases=[(f'k={k}', {'above': [x >= k]}, x >= k - 1) for k in range(3)])]\n")
    code = main(["check", "--theorems", str(f), "--json", "--no-cross-check", "--smtlib", str(tmp_path / "smt")])
    assert code == 0
    (element,) = json.loads(capsys.readouterr().out)
    assert element["status"] == "proved" and len(element["evidence"]["parts"]) == 3
    assert len(list((tmp_path / "smt").glob("mine2026.steps.k_*.smt2"))) == 3


def test_cvc5_gives_a_second_opinion_on_every_case():
    pytest.importorskip("cvc5")
    v = check(PRODUCT_SIGNS, cross_check=True)
    assert v.status is Status.PROVED
    assert v.cross_check is not None and v.cross_check.answers == 3 and v.cross_check.confirmed
    assert all("agrees" in p.cross_check for _, p in smt_parts(v.evidence))
    sized = check(LADDER, cross_check=True)
    assert sized.cross_check is not None and sized.cross_check.answers == 9 and sized.cross_check.confirmed


# --------------------------------------------------------------------------- mutants and necessity


def test_mutants_of_a_family_edit_every_case_and_are_killed():
    ms, why = M.mutants_of(PRODUCT_SIGNS)
    assert not why
    ops = {m.operator for m in ms}
    assert {"flip", "nudge", "drop", "strict"} <= ops
    drops = {m.edit for m in ms if m.operator == "drop"}
    assert drops == {"drop hypothesis x_sign from every case", "drop hypothesis y_pos from every case",
                     "drop hypothesis x_zero from every case"}
    report = M.run_selftest([PRODUCT_SIGNS], timeout=10, jobs=2)
    got = {r.mutant.edit: r.outcome for r in report.results}
    assert got["reverse the first inequality of each case's conclusion"] == "killed"
    assert got["drop hypothesis x_sign from every case"] == "killed"
    assert got["drop hypothesis y_pos from every case"] == "killed"
    assert report.count("unsound") == 0


def test_mutants_of_a_refuted_family_stay_refuted():
    claim = implies_cases("test2026.signs_wrong", cases=wrong_second_case(False), cite=C, statement="wrong",
                          expected="refuted")
    report = M.run_selftest([claim], timeout=10, jobs=2)
    assert report.results and report.count("unsound") == 0
    assert all(r.outcome == "killed" for r in report.results if r.mutant.strengthening)


def test_necessity_drops_a_hypothesis_from_every_case_that_has_it():
    rows = {r.hypothesis: r for r in necessity(PRODUCT_SIGNS, timeout=10)}
    assert rows["y_pos"].needed is True and "x>0, y>0" in rows["y_pos"].verdict.reason
    assert rows["x_zero"].needed is True
    loose = implies_cases("test2026.loose", cases=[("a", {"big": [x >= 2], "spare": [y >= 0]}, x >= 1)], cite=C,
                          statement="x >= 2 => x >= 1")
    rows = {r.hypothesis: r for r in necessity(loose, timeout=10)}
    assert rows["spare"].needed is False and rows["big"].needed is True
    with pytest.raises(InvalidInput, match="hypothesis='nope'"):
        PRODUCT_SIGNS.without("nope")


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("cases", "match"), [
    ([], "at least one case"),
    ("x > 0", "a list of"),
    ({"a": 1}, "a list of"),
    ([("a", {"h": [x > 0]})], "a triple"),
    ([(1, {"h": [x > 0]}, x > 0)], "label"),
    ([("", {"h": [x > 0]}, x > 0)], "label"),
    ([("a", {"h": [x > 0]}, x > 0), ("a", {"h": [x > 1]}, x > 1)], "distinct case labels"),
    ([("a", [x > 0], x > 0)], "hypotheses"),
    ([("a", {"not a name": [x > 0]}, x > 0)], "identifiers"),
    ([("a", {"h": [x > 0]}, x == 1)], "Python bool"),
    ([("a", {"h": [x > 0, True]}, x > 0)], "Python bool"),
    ([("a", {"h": [x > 0]}, "x > 0")], "sympy relation"),
])
def test_bad_families_are_refused_with_the_parameter_named(cases, match):
    with pytest.raises(InvalidInput, match=match):
        implies_cases("test2026.bad", cases=cases, cite=C, statement="bad")


def test_bad_options_are_refused():
    with pytest.raises(InvalidInput, match="a function of the size m"):
        implies_cases("test2026.bad", cases=SIGNS, sizes=(2, 3), cite=C, statement="bad")
    with pytest.raises(InvalidInput, match="sizes"):
        implies_cases("test2026.bad", cases=ladder, sizes=(3, 2), cite=C, statement="bad")
    with pytest.raises(InvalidInput, match="domain"):
        implies_cases("test2026.bad", cases=SIGNS, domain=3, cite=C, statement="bad")  # type: ignore[arg-type]
    with pytest.raises(InvalidClaim, match="cite"):
        implies_cases("test2026.bad", cases=SIGNS, cite="Lemma 1", statement="bad")  # type: ignore[arg-type]


def test_a_family_that_is_empty_or_malformed_at_a_later_size_is_an_error_never_a_pass():
    empty_at_3 = implies_cases("test2026.empty3", cases=lambda m: ladder(m) if m == 2 else [], sizes=(2, 3),
                               cite=C, statement="empty at 3")
    v = check(empty_at_3)
    assert v.status is Status.ERROR and "at least one case" in v.reason and "m = 3" in v.reason
    bad_at_3 = implies_cases("test2026.bad3", cases=lambda m: ladder(m) if m == 2 else [("a", {"h": x > 0}, True)],
                             sizes=(2, 3), cite=C, statement="bad at 3")
    v = check(bad_at_3)
    assert v.status is Status.ERROR and "Python bool" in v.reason


# --------------------------------------------------------------------------- engine fix: cvc5's limit

# Xia et al.'s Proposition 10 stationarity system (case x < 1): cvc5 with nl-cov ignores its own
# time limit on it (tlimit-per), so the second opinion must kill it from outside.
STUBBORN = """(set-logic ALL)
(declare-fun p1 () Real) (declare-fun x () Real) (declare-fun z () Real)
(assert (< (/ 1.0 3.0) p1)) (assert (> 1.0 p1)) (assert (< 0.0 x)) (assert (< 0.0 z))
(assert (= 0.0 (+ (* (- 1.0) z) (* (- 1.0) (* z z)) (* 3.0 (* x x)) (* 3.0 (* x x x)) (* x z) (* (- 1.0) p1 z)
  (* (- 1.0) p1 z z) (* (- 5.0) p1 x x) (* (- 3.0) p1 x x x) (* (- 2.0) p1 x) (* 3.0 z x x) (* (- 5.0) p1 x z)
  (* (- 5.0) p1 z x x) (* (- 2.0) p1 x z z))))
(assert (= 0.0 (+ (* (- 1.0) x) (* (- 1.0) x x) (* 2.0 z z) (* 2.0 z z z) (* p1 x) (* p1 x x) (* x z z)
  (* (- 1.0) z x x) (* 2.0 p1 z z) (* 2.0 p1 z z z) (* 3.0 p1 z x x) (* 4.0 p1 x z) (* 5.0 p1 x z z))))
(assert (> 0.0 (+ 2.0 (* (- 11.0) p1) (* 7.0 p1 p1 p1) (* 10.0 p1 p1))))
(assert (not (> 1.0 x)))
(check-sat)
"""


def _decide_stubborn(conn) -> None:  # pragma: no cover - runs in a child process
    import resource

    from symcal.backends import cvc5_backend

    def cpu() -> float:  # this process and the cvc5 children it waited for
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    t = cpu()
    conn.send((cvc5_backend.decide_smtlib(STUBBORN, 1.0), cpu() - t))


def test_cvc5_is_stopped_at_its_limit_even_when_it_ignores_its_own():
    pytest.importorskip("cvc5")
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_decide_stubborn, args=(child,), daemon=True)
    p.start()
    p.join(20)  # a guard so a regression fails instead of hanging the suite
    if p.is_alive():
        p.kill()
        pytest.fail("cvc5 ran on past its 1 s limit for 20 s")
    answer, cpu_seconds = parent.recv()  # CPU seconds: the limit does not depend on the load
    assert answer.startswith("unknown") and cpu_seconds < 2.0, (answer, cpu_seconds)
