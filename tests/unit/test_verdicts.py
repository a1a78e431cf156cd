"""A verdict cannot claim more than its evidence supports."""

from fractions import Fraction

import pytest

from symcal.errors import BackendFailure
from symcal.verdicts import Exhaustive, NumericEvidence, Residual, Status, Verdict, Witness


def test_a_proved_verdict_without_evidence_is_refused():
    with pytest.raises(BackendFailure, match="needs evidence"):
        Verdict("x2026.a", Status.PROVED, "scope", "z3", 0.0)


def test_a_refutation_needs_a_witness_that_was_rechecked_exactly():
    w = Witness({"x": Fraction(1, 2)}, rechecked=False)
    with pytest.raises(BackendFailure, match="not re-checked"):
        Verdict("x2026.a", Status.REFUTED, "scope", "z3", 0.0, w)
    ok = Witness({"x": Fraction(1, 2)}, rechecked=True)
    assert Verdict("x2026.a", Status.REFUTED, "scope", "z3", 0.0, ok).witness is ok


def test_numeric_evidence_cannot_support_proved():
    ev = NumericEvidence("BFGS", {}, 1e-6, 0.1)
    with pytest.raises(BackendFailure, match="cannot rest on"):
        Verdict("x2026.a", Status.PROVED, "scope", "scipy", 0.0, ev)
    assert Verdict("x2026.a", Status.CONFIRMED_NUMERICALLY, "s", "scipy", 0.0, ev).status.decisive


def test_an_exhaustive_check_of_zero_cases_is_refused():
    with pytest.raises(BackendFailure, match="0 cases"):
        Exhaustive("nothing", 0)


def test_unknown_needs_no_evidence_and_is_not_decisive():
    v = Verdict("x2026.a", Status.UNKNOWN, "scope", "z3", 0.0, reason="timeout")
    assert not v.status.decisive


def test_evidence_serialises_fractions_as_strings():
    w = Witness({"a[1,2]": Fraction(-1, 3)}, rechecked=True)
    assert w.to_json()["values"] == {"a[1,2]": "-1/3"}
    assert Residual("0", "expand").to_json()["kind"] == "residual"
