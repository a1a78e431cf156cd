"""Mutation testing: mutants of a true claim are killed by a re-checked refutation, survivors
carry the reason they are harmless, and a broken engine that proves everything is caught."""

from __future__ import annotations

import sympy

from symcal import Citation, Local, identity, implies, node_implies
from symcal.explore import mutants as M
from symcal.verdicts import Composite, Status, Verdict

x, y = sympy.symbols("x y", real=True)
C = Citation("test2026", "eq. 1", "a quoted statement")

PRODUCT = implies("test2026.product", hypotheses={"x_pos": [x > 0], "y_pos": [y > 0]},
                  conclusion=x * y > 0, cite=C, statement="x, y > 0 => x y > 0")
LOOSE = implies("test2026.loose", hypotheses={"x_big": [x >= 2]}, conclusion=x >= 1, cite=C,
                statement="x >= 2 => x >= 1")
SQUARE = identity("test2026.square", (x + y) ** 2, x**2 + 2 * x * y + y**2, cite=C, statement="binomial")
FALSE = implies("test2026.false", hypotheses={"x_pos": [x > 0]}, conclusion=x > 1, cite=C,
                statement="x > 0 => x > 1", expected="refuted")


def outcomes(report: M.SelftestReport, claim_id: str) -> dict[str, str]:
    return {r.mutant.edit: r.outcome for r in report.results if r.mutant.original.id == claim_id}


def test_every_operator_applies_to_an_implication():
    ms, why = M.mutants_of(PRODUCT)
    assert not why
    assert {m.operator for m in ms} == {"flip", "nudge", "drop", "strict"}
    assert all(m.claim.id.startswith("test2026.product.mutant_") and m.claim.expected is None for m in ms)


def test_mutants_of_a_true_claim_are_killed_and_survivors_explained():
    report = M.run_selftest([PRODUCT, LOOSE, SQUARE], timeout=10, jobs=2)
    got = outcomes(report, "test2026.product")
    assert got["reverse x*y > 0"] == "killed"
    assert got["drop hypothesis x_pos"] == "killed" and got["drop hypothesis y_pos"] == "killed"
    # x >= 2 => x >= 1 is not tight: moving 1 up by 1/7 survives, with the reason said
    loose = {r.mutant.edit: r for r in report.results if r.mutant.original.id == "test2026.loose"}
    assert loose["move constant 1 by -1/7"].outcome == "survived"  # x >= 6/7 is weaker
    assert loose["move constant 1 by +1/7"].outcome == "survived"  # x >= 8/7: 1 is not tight either
    assert loose["make x >= 1 strict"].outcome == "survived"
    assert "never tight" in loose["make x >= 1 strict"].why
    assert loose["drop hypothesis x_big"].outcome == "killed"
    assert outcomes(report, "test2026.square")["move constant 2 by +1/7"] == "killed"
    assert report.count("unsound") == 0
    assert "generated" in report.summary() and "killed" in report.summary()


def test_a_symmetric_swap_is_reported_as_equivalent_not_as_a_survivor():
    ms, _ = M.mutants_of(PRODUCT)
    (swap,) = [m for m in ms if m.operator == "swap"] or [None]
    assert swap is None or swap.equivalent  # x*y is symmetric and so are the hypotheses


def test_strengthened_mutants_of_a_refuted_claim_stay_refuted():
    report = M.run_selftest([FALSE], timeout=10, jobs=1)
    assert report.count("unsound") == 0
    assert outcomes(report, "test2026.false")["drop hypothesis x_pos"] == "killed"


def test_node_claims_are_flipped_consistently_in_every_evaluation():
    nonneg = Local(2, lambda a, i, j: a(i, j) >= 0, "a_ij >= 0")
    c = node_implies("test2026.nonneg", hypotheses={}, conclusion=nonneg, cite=C, sizes=(3, 3),
                     statement="weights are >= 0")
    report = M.run_selftest([c], timeout=10, jobs=1)
    (r,) = report.results
    assert r.outcome == "killed"  # a_ij <= 0 fails; the witness was re-checked on the flipped form
    assert r.verdict.witness is not None and r.verdict.witness.rechecked


def test_a_broken_engine_that_proves_everything_is_caught(monkeypatch):
    import symcal.runner as runner

    def proves_all(claims, **kw):
        ev = Composite((), note="fake")
        return [Verdict(c.id, Status.PROVED, "fake", "fake", 0.0, ev) for c in claims]

    monkeypatch.setattr(runner, "check_many", proves_all)
    report = M.run_selftest([PRODUCT], timeout=5, jobs=1)
    assert report.count("killed") == 0 and report.kill_rate == 0.0
    assert report.count("survived") > 0


def test_finite_and_numeric_claims_are_listed_as_without_operator():
    from symcal import finite_check

    f = finite_check("test2026.finite", cases=[1, 2], holds=lambda k: k > 0, domain="two cases", cite=C,
                     statement="positive")
    ms, why = M.mutants_of(f)
    assert ms == [] and "Python predicate" in why


def test_a_swap_is_equivalent_only_if_it_is_at_every_size_checked():
    # at m = 3 exchanging d_1_2 and d_2_3 maps Definition 8's claim onto itself; at m = 4 it does not,
    # and that mutant is rightly refuted at m = 4: it must count as killed, not as an unsound equivalent
    from symcal.library import load_bundled, select

    (claim,) = select(load_bundled(), ["duchi2010.definition8.difference_graph_is_dag"])
    ms, _ = M.mutants_of(claim)
    assert [m for m in ms if m.operator == "swap"] and not any(m.equivalent for m in ms)


# --------------------------------------------------------------------------- issue 12: better mutants and decisions

def test_a_swap_under_symmetric_hypotheses_is_the_same_statement_by_renaming():
    # u1 > 0, u2 > 0 => u1 >= 0 and u2 > -1: exchanging u1 and u2 in the conclusion only renames
    # the bound symbols, since the hypotheses are symmetric
    u1, u2 = sympy.symbols("u1 u2", real=True)
    c = implies("test2026.rename", hypotheses={"pos": [u1 > 0, u2 > 0]}, conclusion=sympy.And(u1 >= 0, u2 > -1),
                cite=C)
    (swap,) = [m for m in M.mutants_of(c)[0] if m.operator == "swap"]
    assert swap.equivalent and "renamed" in swap.equivalent
    # negative twin: with a hypothesis on u1 alone the exchange is a different statement
    d = implies("test2026.rename_not", hypotheses={"pos": [u1 > 0]},
                conclusion=sympy.And(u1 >= 0, u1 * (u2**2 + 1) > 0), cite=C)
    (swap,) = [m for m in M.mutants_of(d)[0] if m.operator == "swap"]
    assert not swap.equivalent
    report = M.run_selftest([d], timeout=10, jobs=1)
    assert outcomes(report, "test2026.rename_not")["exchange u1 and u2 in the conclusion"] == "killed"


def test_strict_loosens_a_premise_instead_of_weakening_the_claim():
    c = implies("test2026.premise", hypotheses={}, conclusion=sympy.Implies(x > 0, x**2 > 0), cite=C)
    stricts = [m for m in M.mutants_of(c)[0] if m.operator == "strict"]
    assert [m.edit for m in stricts] == ["make x > 0 non-strict in the premise of an implication"]
    assert stricts[0].strengthening
    report = M.run_selftest([c], timeout=10, jobs=1)
    assert outcomes(report, "test2026.premise")[stricts[0].edit] == "killed"  # x = 0
    # a non-strict premise has no strengthening strict edit: making it strict would only weaken the claim
    d = implies("test2026.premise2", hypotheses={}, conclusion=sympy.Implies(x >= 1, x >= 0), cite=C)
    assert [m.edit for m in M.mutants_of(d)[0] if m.operator == "strict"] == ["make x >= 0 strict"]


def test_a_redundant_hypothesis_is_proved_equivalent_and_a_needed_one_kills():
    c = implies("test2026.redundant", hypotheses={"pos": [x > 0], "nonneg": [x >= 0]}, conclusion=x**2 > 0, cite=C)
    report = M.run_selftest([c], timeout=10, jobs=1)
    by_edit = {r.mutant.edit: r for r in report.results}
    nonneg = by_edit["drop hypothesis nonneg"]
    assert nonneg.outcome == "equivalent" and "follows from the others" in nonneg.why
    assert by_edit["drop hypothesis pos"].outcome == "killed"  # x = 0
    assert report.count("unsound") == 0


def test_a_survivor_that_is_a_different_statement_stays_a_survivor_and_is_a_finding():
    report = M.run_selftest([LOOSE], timeout=10, jobs=1)
    loose = {r.mutant.edit: r for r in report.results}
    plus = loose["move constant 1 by +1/7"]
    assert plus.outcome == "survived" and plus.finding == "bound not tight"  # x >= 8/7 is not x >= 1
    assert loose["make x >= 1 strict"].finding == "bound never tight"
    assert plus in report.findings() and all(r.outcome == "survived" for r in report.findings())
    assert report.to_json()["findings_by_kind"]["bound not tight"] == 2


def test_an_all_sizes_mutant_the_local_argument_cannot_decide_is_refuted_at_a_small_size():
    from symcal.library import load_bundled, select

    (claim,) = select(load_bundled(), ["duchi2010.lemma14.all_m"])
    report = M.run_selftest([claim], timeout=10, jobs=2)
    flips = [r for r in report.results if r.mutant.operator == "flip"]
    assert flips and all(r.outcome == "killed" for r in flips)
    assert all(r.verdict.status is Status.REFUTED and r.verdict.witness.rechecked for r in flips)


def test_undecided_mutants_are_tabulated_by_reason():
    algebraic = M.undecided_reason("z3 found a model but no rounding of it passed the exact re-check")
    assert algebraic.startswith("algebraic")
    assert M.undecided_reason("z3 timeout: its budget of 10 CPU seconds is spent") == "timeout"
    assert M.undecided_reason("1 of 2 cases proved; undecided: case 'a': z3 timeout: x").startswith("a case undecided")


def test_selftest_findings_lists_the_survivors_by_kind(tmp_path, capsys):
    import json

    from symcal.cli import main

    f = tmp_path / "mine.py"
    f.write_text(
        "import sympy\nfrom symcal import Citation, implies\n"
        "x = sympy.Symbol('x', real=True)\n"
        "CLAIMS = [implies('mine2026.loose', hypotheses={'x_big': [x >= 2]}, conclusion=x >= 1,"
        " cite=Citation('mine2026', 'L1'))]\n")
    assert main(["selftest", "--findings", "--theorems", str(f)]) == 0
    out = capsys.readouterr().out
    assert "bound not tight (2):" in out and "mine2026.loose: move constant 1 by +1/7" in out
    assert "hypothesis not needed" not in out  # dropping x >= 2 is refuted (x = 0)
    assert main(["selftest", "--findings", "--json", "--theorems", str(f)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["finding"] for r in rows} == {"bound not tight", "bound never tight"}
    assert all(r["status"] == "proved" for r in rows)


def test_a_survivor_of_a_valid_conclusion_is_not_called_equivalent():
    # x^2 + y^2 >= 2 x y and x^2 + y^2 >= 13/7 x y are both valid: equivalent as formulas only because
    # both always hold -- which is what surviving means -- so the mutant stays a survivor
    c = implies("test2026.valid", hypotheses={}, conclusion=x**2 + y**2 >= 2 * x * y, cite=C)
    report = M.run_selftest([c], timeout=10, jobs=1)
    got = {r.mutant.edit: r.outcome for r in report.results}
    assert got["move constant 2 by -1/7"] == "survived"
    assert got["move constant 2 by +1/7"] == "killed"  # x = y = 1
    # negative twin: a conclusion that is not valid on its own, edited where it cannot matter
    d = implies("test2026.not_valid", hypotheses={"big": [x >= 2]},
                conclusion=sympy.And(x >= 1, sympy.Implies(x + 1 > 0, x**2 + 2 >= 2 * x)), cite=C)
    report = M.run_selftest([d], timeout=10, jobs=1)
    got = {r.mutant.edit: r for r in report.results}
    loosened = got["make x + 1 > 0 non-strict in the premise of an implication"]
    assert loosened.outcome == "equivalent" and "for all values" in loosened.why


def test_a_mutant_whose_only_counterexamples_divide_by_zero_survives_as_defined_only():
    # x > 0 keeps 1/x^2 defined; with it dropped, z3's only counterexample is x = 0 (its division
    # is total), but wherever 1/x^2 is defined the mutant holds: no exact counterexample exists, so
    # it survives -- listed apart from the findings about the paper, never counted as killed
    c = implies("test2026.defined", hypotheses={"x_pos": [x > 0]}, conclusion=1 / x**2 > 0, cite=C)
    report = M.run_selftest([c], timeout=10, jobs=1)
    dropped = {r.mutant.edit: r for r in report.results}["drop hypothesis x_pos"]
    assert dropped.outcome == "survived" and dropped.why.startswith("holds wherever it is defined")
    assert dropped.finding == M.FINDING_KINDS["defined"] and "FINDING" not in dropped.why
    assert report.count("undecided") == 0 and report.count("unsound") == 0


# --------------------------------------------------------------------------- survivors that are false: unsound


def _proves_everything(monkeypatch):
    """symcal's decision replaced by one that says proved to every claim (a false `proved`)."""
    import symcal.runner as runner

    def proves_all(claims, **kw):
        return [Verdict(c.id, Status.PROVED, "fake", "fake", 0.0, Composite((), note="fake")) for c in claims]

    monkeypatch.setattr(runner, "check_many", proves_all)


def test_a_false_survivor_of_an_implication_is_unsound_not_a_finding(monkeypatch):
    _proves_everything(monkeypatch)
    report = M.run_selftest([PRODUCT], timeout=5, jobs=1)
    got = {r.mutant.edit: r for r in report.results}
    dropped = got["drop hypothesis x_pos"]  # y > 0 => x y > 0 is false at x = -1, y = 1
    assert dropped.outcome == "unsound" and dropped.finding == ""
    assert "independent exact check" in dropped.why and "conclusion fails" in dropped.why
    assert dropped not in report.findings() and report.count("unsound") >= 3
    # negative twin: a survivor whose edited statement is true (x, y > 0 => x y > -1/7) stays a survivor
    assert got["move the zero side of each inequality by -1/7"].outcome == "survived"


def test_a_false_survivor_of_a_node_claim_is_unsound(monkeypatch):
    big = Local(2, lambda a, i, j: a(i, j) >= 1, "a_ij >= 1")
    pos = Local(2, lambda a, i, j: a(i, j) > 0, "a_ij > 0")
    c = node_implies("test2026.node_drop", hypotheses={"big": big}, conclusion=pos, cite=C, sizes=(3, 3))
    _proves_everything(monkeypatch)
    report = M.run_selftest([c], timeout=5, jobs=1)
    got = {r.mutant.operator: r for r in report.results}
    assert got["drop"].outcome == "unsound" and "all weights 0" in got["drop"].why  # a_ij > 0 fails at 0
    assert got["flip"].outcome == "unsound"  # a_ij >= 1 => a_ij < 0 fails at a_ij = 1


def test_a_true_node_survivor_is_not_made_unsound(monkeypatch):
    big = Local(2, lambda a, i, j: a(i, j) >= 1, "a_ij >= 1")
    nonneg = Local(2, lambda a, i, j: a(i, j) >= 0, "a_ij >= 0")
    c = node_implies("test2026.node_true", hypotheses={"big": big}, conclusion=nonneg, cite=C, sizes=(3, 3))
    _proves_everything(monkeypatch)
    report = M.run_selftest([c], timeout=5, jobs=1)
    drop = next(r for r in report.results if r.mutant.operator == "drop")
    assert drop.outcome == "survived" and drop.finding == "hypothesis not needed"  # a_ij >= 0 holds anyway


def test_the_independent_check_refutes_a_nudged_identity_and_spares_the_original():
    (nudged,) = [m for m in M.mutants_of(SQUARE)[0] if m.edit == "move constant 2 by +1/7"]
    assert "two sides are" in M.independent_counterexample(nudged)
    assert M.independent_counterexample(M.Mutant(SQUARE, SQUARE, "nudge", "none")) is None


def test_the_independent_check_respects_the_symbols_assumptions():
    e = sympy.Symbol("e", even=True)
    holds = implies("test2026.even", hypotheses={"box": [e >= 0, e <= 3]}, conclusion=sympy.Ne(e, 1), cite=C)
    assert M.independent_counterexample(M.Mutant(holds, holds, "drop", "none")) is None  # e = 1 is not even
    fails = implies("test2026.even2", hypotheses={"box": [e >= 0, e <= 3]}, conclusion=sympy.Ne(e, 2), cite=C)
    assert "e=2" in M.independent_counterexample(M.Mutant(fails, fails, "drop", "none"))


def test_the_independent_check_re_evaluates_a_finite_formula_claim_exhaustively():
    from symcal import finite_check

    t = sympy.Symbol("t")
    ok = finite_check("test2026.finite_ok", cases=[1, 2, 3], formula=lambda k: ([t > 0], {t: k}),
                      domain="k = 1..3", cite=C)
    bad = finite_check("test2026.finite_bad", cases=[1, 2, 3], formula=lambda k: ([t > 1], {t: k}),
                       domain="k = 1..3", cite=C)
    assert M.independent_counterexample(M.Mutant(ok, ok, "flip", "none")) is None
    assert "case 1" in M.independent_counterexample(M.Mutant(bad, bad, "flip", "none"))


def test_the_independent_check_decides_only_exact_rational_relations():
    two = {x: sympy.Integer(2)}
    assert M._truth(sympy.And(x**2 > 3, sympy.Ne(x, 1)), two) is True
    assert M._truth(sympy.Implies(x > 0, x < 1), two) is False
    # sqrt(2) > 1 is true, but deciding it needs a numeric evaluation: the exact check abstains
    assert M._truth(sympy.sqrt(x) > 1, two) is None
    assert M._truth(1 / (x - 2) > 0, two) is None  # undefined at x = 2
