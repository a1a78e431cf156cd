"""Duchi, Mackey & Jordan (2010), the coverage-map audit (issue 26, theorems/duchi2010/audit.py): each new claim
comes back with the verdict the audit found -- proved, or refuted with an exactly re-checked witness for the four
recorded errata -- and each negative twin is refuted with a re-checked witness."""

from __future__ import annotations

import importlib

import pytest

from symcal.claims.core import Claim
from symcal.library import load_paper
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import refuted_with_rechecked_witness

load_paper("duchi2010", "symcal_test_theorems_duchi2010_audit")
A = importlib.import_module("symcal_test_theorems_duchi2010_audit.audit")
CLAIMS: list[Claim] = A.CLAIMS

# the audit's verdicts: the errata are refuted (the paper's reading), everything else is proved
REFUTED = {
    "duchi2010.audit.eq7.zero_iff_obeys": "clarification",
    "duchi2010.audit.eq9.w_from_h_ij": "clarification",
    "duchi2010.audit.lemma7.less_than_k": "proof",
    "duchi2010.audit.lemma16.path_lengths": "proof",
}
PROVED = {
    "duchi2010.audit.section1.h_min_nondecreasing",
    "duchi2010.audit.theorem6.finitely_many_values",
    "duchi2010.audit.eq7.zero_iff_obeys.corrected",
    "duchi2010.audit.eq7.tie_charged_once",
    "duchi2010.audit.eq9.w_from_h_ij.corrected",
    "duchi2010.audit.section2_2.h_strictly_increasing_needed",
    "duchi2010.audit.recession.quotient_nondecreasing",
    "duchi2010.audit.assumption_a.bounded_below",
    "duchi2010.audit.lemma9.largest_gap",
    "duchi2010.audit.lemma9.unbounded_above",
    "duchi2010.audit.theorem12.shifted_slope_negative",
    "duchi2010.audit.lemma7.less_than_k.corrected",
    "duchi2010.audit.lemma16.path_lengths.corrected",
    "duchi2010.audit.lemma16.cycle_has_ascending_edge",
}


@pytest.fixture(scope="module")
def verdicts():
    return {c.id: v for c, v in zip(CLAIMS, check_many(CLAIMS, jobs=1, timeout=30), strict=True)}


@pytest.fixture(scope="module")
def twin_verdicts():
    twins = [make() for make in A.TWINS.values()]
    return {t.id: v for t, v in zip(twins, check_many(twins, jobs=1, timeout=30), strict=True)}


def test_the_audit_lists_exactly_the_claims_it_expects():
    assert {c.id for c in CLAIMS} == set(REFUTED) | PROVED
    assert len(CLAIMS) == len(REFUTED) + len(PROVED)


def test_every_erratum_of_the_audit_is_refuted_with_a_rechecked_witness_and_its_class(verdicts):
    for c in CLAIMS:
        if c.id in REFUTED:
            assert c.finding is not None and c.finding.finding_class == REFUTED[c.id], c.id
            assert c.expected is Status.PROVED, c.id  # the paper's outcome is kept
            assert refuted_with_rechecked_witness(verdicts[c.id]), (c.id, verdicts[c.id].reason)


def test_every_other_claim_of_the_audit_is_proved(verdicts):
    for c in CLAIMS:
        if c.id in PROVED:
            assert c.finding is None, c.id
            assert verdicts[c.id].status is Status.PROVED, (c.id, verdicts[c.id].status, verdicts[c.id].reason)


def test_every_erratum_points_to_a_corrected_claim_of_the_audit():
    ids = {c.id for c in CLAIMS}
    for c in CLAIMS:
        if c.finding is not None:
            assert c.finding.corrected == c.id + ".corrected" and c.finding.corrected in ids


def test_every_claim_has_a_twin_or_is_an_erratum():
    for c in CLAIMS:
        assert (c.id in A.TWINS) != (c.finding is not None), c.id


def test_every_twin_of_the_audit_is_refuted_with_a_rechecked_witness(twin_verdicts):
    assert not A.TWIN_EXPECT
    for tid, v in twin_verdicts.items():
        assert refuted_with_rechecked_witness(v), (tid, v.status, v.reason)
