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
