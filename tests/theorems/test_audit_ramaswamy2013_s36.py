"""Ramaswamy, Agarwal & Tewari (2013), the coverage-map audit (issue 26, theorems/ramaswamy2013/audit.py): each new
claim comes back with the verdict the audit found -- proved, or refuted with an exactly re-checked witness for the
recorded erratum (psi_DMJ is not a surrogate into R_+) -- and each negative twin is refuted with a re-checked witness.
Sized claims are decided at their smallest sizes here (symcal check decides the whole sweep)."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest

from symcal.claims.core import Claim
from symcal.library import load_paper
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import refuted_with_rechecked_witness

load_paper("ramaswamy2013", "symcal_test_theorems_ramaswamy2013_audit")
A = importlib.import_module("symcal_test_theorems_ramaswamy2013_audit.audit")
CLAIMS: list[Claim] = A.CLAIMS

REFUTED = {"ramaswamy2013.audit.section7_1.dmj_nonnegative": "clarification"}
PROVED = {
    "ramaswamy2013.audit.section1.dimension_at_most_rank",
    "ramaswamy2013.audit.theorem3.regret_threshold",
    "ramaswamy2013.audit.section7_1.square_is_admissible",
    "ramaswamy2013.audit.section2.losses_in_r_plus",
    "ramaswamy2013.audit.sizes",
    "ramaswamy2013.audit.section5.eru_z_least",
    "ramaswamy2013.audit.section6.pred_bar_is_sorting",
    "ramaswamy2013.audit.section7_1.dmj_nonnegative.corrected",
    "ramaswamy2013.audit.theorem6_7.agreeing_sigma_is_optimal",
    "ramaswamy2013.audit.lemma8.adjacent_misordered_pair",
    "ramaswamy2013.audit.lemma8.swap_difference_chain",
}


def _small(c: Claim) -> Claim:
    """The claim at its smallest size (and the next one for the cheap finite checks)."""
    if c.sizes is None:
        return c
    lo = c.sizes.minimum
    hi = lo if c.kind != "finite" else min(lo + 1, c.sizes.default[1])
    return c.replace(sizes=type(c.sizes)(minimum=lo, default=(lo, hi), maximum=c.sizes.maximum, name=c.sizes.name))


@pytest.fixture(scope="module")
def verdicts():
    small = [_small(c) for c in CLAIMS]
    return {c.id: v for c, v in zip(small, check_many(small, jobs=1, timeout=60), strict=True)}


@pytest.fixture(scope="module")
def twin_verdicts():
    twins = [make() for make in A.TWINS.values()]
    return {t.id: v for t, v in zip(twins, check_many(twins, jobs=1, timeout=60), strict=True)}


def test_the_audit_decides_each_claim_as_expected_and_names_the_correction(verdicts):
    by_id = {c.id: c for c in CLAIMS}
    assert set(by_id) == set(REFUTED) | PROVED and len(CLAIMS) == len(by_id)
    for cid, c in by_id.items():
        v = verdicts[cid]
        if cid in PROVED:  # a proof, never a sample, and no finding
            assert (c.finding, v.status) == (None, Status.PROVED), (cid, v.status, v.reason)
            continue
        # the erratum keeps the paper's outcome, is refuted with a re-checked witness and names its correction
        assert c.expected is Status.PROVED and c.finding.finding_class == REFUTED[cid]
        assert refuted_with_rechecked_witness(v), v.reason
        assert c.finding.corrected == cid + ".corrected" and c.finding.corrected in PROVED


def test_the_erratum_is_its_own_twin_and_every_other_twin_is_refuted_exactly(twin_verdicts):
    assert set(A.TWINS) == PROVED and not A.TWIN_EXPECT  # the corrected claim has a twin, the erratum does not
    bad = {tid: (v.status, v.reason[:200]) for tid, v in twin_verdicts.items() if not refuted_with_rechecked_witness(v)}
    assert not bad and len(twin_verdicts) == len(PROVED)


def test_psi_dmj_is_negative_at_the_printed_counterexample():
    # r = 2, y_12 = 1, lambda(z) = z^2, nu = 1/2: psi_DMJ(y, u) = (u_2 - u_1) + (u_1^2 + u_2^2)/2
    def psi(u1: Fraction, u2: Fraction) -> Fraction:
        return (u2 - u1) + (u1 * u1 + u2 * u2) / 2

    assert psi(Fraction(1), Fraction(0)) == Fraction(-1, 2)
    assert psi(Fraction(1), Fraction(-1)) == -1  # the minimum, -sum_i f_i(y)^2 / 2 with f = (1, -1)


def test_the_least_eru_constant_is_the_full_utility():
    # s = 2, v = 1, w = 2, r = 3: z* = 1 + 1/2 + 1/4; w = 1/2 (increasing discounts): z* = 1 + 4 + 16
    assert A.eru_utility_max(3, 2, 1, 1) == Fraction(7, 4)
    assert A.eru_utility_max(3, 2, 1, -2) == 21


def test_the_registered_library_carries_the_audit_and_its_twins():
    R = importlib.import_module("symcal_test_theorems_ramaswamy2013_audit")
    ids = {c.id for c in R.CLAIMS}
    assert {c.id for c in CLAIMS} <= ids
    assert set(A.TWINS) <= set(R.TWINS)


# --- Calauzenes et al. (2013): finite steps inside entries the map had called not checkable ---------------

load_paper("calauzenes2013", "symcal_test_theorems_calauzenes2013_audit")
C = importlib.import_module("symcal_test_theorems_calauzenes2013_audit.audit")
C_PROVED = {
    "calauzenes2013.audit.section3.d_r_is_bounded_utility",
    "calauzenes2013.audit.section5_2.bregman_strong_convexity_step",
    "calauzenes2013.audit.section5_2.bregman_strong_convexity_limit",
}


def test_the_calauzenes_audit_claims_are_proved_and_their_twins_refuted():
    assert {c.id for c in C.CLAIMS} == C_PROVED and not C.TWIN_EXPECT
    assert set(C.TWINS) == C_PROVED
    for c, v in zip(C.CLAIMS, check_many(C.CLAIMS, jobs=1, timeout=60), strict=True):
        assert c.finding is None and v.status is Status.PROVED, (c.id, v.status, v.reason)
    twins = [make() for make in C.TWINS.values()]
    for t, v in zip(twins, check_many(twins, jobs=1, timeout=60), strict=True):
        assert refuted_with_rechecked_witness(v), (t.id, v.status, v.reason)
    R = importlib.import_module("symcal_test_theorems_calauzenes2013_audit")
    assert C_PROVED <= {c.id for c in R.CLAIMS} and C_PROVED <= set(R.TWINS)
