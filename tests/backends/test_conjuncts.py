"""An implication whose whole query runs out of its share of the budget is decided conjunct by
conjunct of its conclusion: a counterexample to one conjunct is re-checked on the whole
conclusion, and a proof is one unsat query per conjunct, the split recorded in the evidence."""

from __future__ import annotations

import sympy

from symcal.backends import Budget, decide, z3_backend
from symcal.backends.smt_claims import decide_implies
from symcal.explore.mutants import mutants_of
from symcal.library import load_bundled
from symcal.verdicts import Composite, Status, Witness

x, y = sympy.symbols("x y", real=True)


def _whole_query_times_out(monkeypatch):
    real = z3_backend.solve

    def solve(constraints, budget, variables=None, comment=""):
        if "negated claim" in comment:  # the whole query: as if z3 ran out of time
            return z3_backend.SolveResult("unknown", None, "", "z3 timeout (test)")
        return real(constraints, budget, variables, comment)

    monkeypatch.setattr(z3_backend, "solve", solve)


def test_a_proof_conjunct_by_conjunct_records_the_split(monkeypatch):
    _whole_query_times_out(monkeypatch)
    out = decide_implies({"h": [x > 1, y > x]}, sympy.And(x > 0, y > 1), Budget(10), "", "test")
    assert out.status is Status.PROVED and isinstance(out.evidence, Composite)
    assert len(out.evidence.parts) == 2 and "each conjunct" in out.evidence.note
    assert all("conjunct" in label and ev.answer == "unsat" for label, ev in out.evidence.parts)


def test_a_counterexample_to_one_conjunct_is_rechecked_on_the_whole_conclusion(monkeypatch):
    _whole_query_times_out(monkeypatch)
    out = decide_implies({"h": [x > 0]}, sympy.And(x > 0, x < 1), Budget(10), "", "test")
    assert out.status is Status.REFUTED and isinstance(out.evidence, Witness) and out.evidence.rechecked
    assert out.evidence.values["x"] >= 1 and "conjunct 2 of 2" in out.evidence.found_by


def test_an_undecided_conjunct_leaves_the_implication_unknown(monkeypatch):
    real = z3_backend.solve

    def solve(constraints, budget, variables=None, comment=""):
        if "negated claim" in comment or "conjunct 2" in comment:
            return z3_backend.SolveResult("unknown", None, "", "z3 timeout (test)")
        return real(constraints, budget, variables, comment)

    monkeypatch.setattr(z3_backend, "solve", solve)
    out = decide_implies({"h": [x > 1]}, sympy.And(x > 0, x > 1), Budget(10), "", "test")
    assert out.status is Status.UNKNOWN and "1 of 2 proved" in out.reason


def test_a_mutant_whose_whole_query_z3_often_cannot_solve_in_time_is_refuted_within_the_budget():
    """A flipped seven-part conclusion of Uematsu & Lee's SVOR r-table: often over 10 s whole (it was
    an undecided mutant), 0.02 s for the conjunct that fails; z3 sometimes finds the whole query's
    model within its share, so either road may refute it (the split itself is tested above, with the
    whole query made to time out)."""
    claim = next(c for c in load_bundled() if c.id == "uematsu2013.section4_3.svor1.r_defined.corrected")
    mutant = next(mu for mu in mutants_of(claim)[0] if mu.claim.id.endswith("mutant_flip1"))
    out = decide(mutant.claim, None, Budget(3.0))
    assert out.status is Status.REFUTED and out.evidence.rechecked
