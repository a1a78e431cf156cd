"""Ramaswamy, Agarwal & Tewari (2013): every encoded claim agrees with the paper or is a recorded
erratum, and every claim has a negative twin (built with the module's own builders) that the
engine refutes with an exactly re-checked witness."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

import pytest

from symcal.claims.core import Claim
from symcal.library import load_paper
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, twins_expecting, verdicts_by_id

R = load_paper("ramaswamy2013", "symcal_test_theorems_ramaswamy2013")
CLAIMS: list[Claim] = R.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


# the twins are declared in theorems/ramaswamy2013/__init__.py (TWINS, TWIN_EXPECT): each must be
# refuted with a re-checked witness, except where the paper implies the claim is false: that twin
# adds the missing hypothesis and is proved
THEOREM6_ARGS = R.THEOREM6_ARGS  # Theorem 6's whole-simplex claims: id -> (r, f, labels) of the builder
TWINS: dict[str, Callable[[], Claim]] = R.TWINS
REFUTED_TWINS = twins_expecting(R, "refuted")
PROVED_TWINS = twins_expecting(R, "proved")
TWIN_CLAIMS = {cid: build() for cid, build in TWINS.items()}


@pytest.fixture(scope="module")
def verdicts():
    return verdicts_by_id(CLAIMS)


@pytest.fixture(scope="module")
def twin_verdicts():
    claims = list(TWIN_CLAIMS.values())
    return dict(zip(TWIN_CLAIMS, check_many(claims, jobs=2, timeout=60), strict=True))


def test_every_claim_agrees_with_the_paper_or_is_a_recorded_erratum(verdicts):
    wrong = disagreements(CLAIMS, verdicts)
    assert not wrong, "\n".join(wrong)


def test_the_nine_errata_are_refuted_with_rechecked_witnesses_and_their_corrections_proved(verdicts):
    assert ERRATA == {
        "ramaswamy2013.audit.section7_1.dmj_nonnegative",  # psi_DMJ is not into R_+ (coverage audit, session 36)
        "ramaswamy2013.eru.pred_sorting",
        "ramaswamy2013.map.zero_label",
        "ramaswamy2013.lemma8.proof.swap_step",
        "ramaswamy2013.lemma8.proof.adjacent_count",
        "ramaswamy2013.pd.rank_bound",
        "ramaswamy2013.map.no_r_dimensional_surrogate",
        "ramaswamy2013.pd.no_r_dimensional_surrogate",
        "ramaswamy2013.theorem7.proof.inf_space",
    }
    for cid in ERRATA:
        v = verdicts[cid]
        assert refuted_with_rechecked_witness(v), cid
        assert BY_ID[cid].finding.corrected == cid + ".corrected"
        assert verdicts[cid + ".corrected"].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES), cid


def test_theorem7s_infimum_over_r_to_the_r_fails_first_at_three_documents_where_r_differs_from_r_r_minus_1(verdicts):
    v = verdicts["ramaswamy2013.theorem7.proof.inf_space"]
    assert v.status is Status.REFUTED and v.witness.values == {"r": 3}
    assert verdicts["ramaswamy2013.theorem7.proof.inf_space.corrected"].status is Status.PROVED


def test_the_pd_rank_erratum_is_refuted_at_the_smallest_size_two(verdicts):
    w = verdicts["ramaswamy2013.pd.rank_bound"].witness
    assert w.size == 2 and "certified rank 2" in w.detail and "bound 1" in w.detail


def test_the_quoted_impossibility_results_fail_at_two_documents_where_a_one_dimensional_surrogate_exists(verdicts):
    for loss in ("map", "pd"):
        w = verdicts[f"ramaswamy2013.{loss}.no_r_dimensional_surrogate"].witness
        assert w.size == 2 and "1 <= CCdim <= 1" in w.detail, loss


def test_pd_has_an_r_dimensional_calibrated_surrogate_at_three_documents_and_none_at_four():
    three = R.SD.dimension_holds("pd", {}, 3, ">", 3)
    assert three[0] is False and "3 <= CCdim <= 3" in three[1]
    four = R.SD.dimension_holds("pd", {}, 4, ">", 4)
    assert four[0] is True and "6 <= CCdim <= 6" in four[1] and "re-checked" in four[1]


def test_a_dimension_strictly_inside_the_bracket_is_undecided_and_outside_it_is_decided(monkeypatch):
    cc = R.SD.bracket("map", 3)
    assert (cc.lower, cc.upper) == (4, 4)
    wide = type(cc)(cc.loss, cc.labels, cc.predictions, 2, 5, cc.evidence)  # ends that do not meet
    monkeypatch.setattr(R.SD, "bracket", lambda loss, r, params=(): wide)
    assert R.SD.dimension_holds("map", {}, 3, "<=", 3)[0] is None
    assert R.SD.dimension_holds("map", {}, 3, ">", 3)[0] is None
    assert R.SD.dimension_holds("map", {}, 3, "==", 3)[0] is None
    assert R.SD.dimension_holds("map", {}, 3, "<=", 5)[0] is True
    assert R.SD.dimension_holds("map", {}, 3, "<=", 1)[0] is False
    assert R.SD.dimension_holds("map", {}, 3, ">", 1)[0] is True


def test_the_eru_erratum_needs_a_half_life_below_one(verdicts):
    w = verdicts["ramaswamy2013.eru.pred_sorting"].witness
    assert w.size == 2 and "w = 0" in w.detail


def test_the_lemma8_step_fails_at_an_optimal_sigma(verdicts):
    detail = verdicts["ramaswamy2013.lemma8.proof.swap_step"].witness.detail
    assert "(optimal)" in detail and "printed bound is 1/60" in detail


def test_the_adjacent_count_of_lemma8_fails_at_three_documents_and_the_count_of_all_pairs_is_proved(verdicts):
    w = verdicts["ramaswamy2013.lemma8.proof.adjacent_count"].witness
    assert w.size == 3 and "(0, 0, 1)" in w.detail and "disagreeing adjacent pairs 1 -> 1" in w.detail
    corrected = verdicts["ramaswamy2013.lemma8.proof.adjacent_count.corrected"]
    # the default run decides a true sized claim one size short of its sweep r = 2..5 (tests/common/papers.py,
    # short_sweep); `symcal check` and the slow lane decide r = 2..5
    assert corrected.status is Status.PROVED and corrected.scope.startswith("r = 2..4")


def test_map_is_undefined_at_the_empty_label_and_only_loss_one_there_keeps_the_decomposition(verdicts):
    w = verdicts["ramaswamy2013.map.zero_label"].witness
    assert w.size == 2 and "y = (0, 0)" in w.detail and "0/0" in w.detail
    assert verdicts["ramaswamy2013.map.zero_label.corrected"].status is Status.PROVED
    assert not R.S6.map_zero_label_holds(2, corrected=True, value=F(0))[0]


def test_the_appendix_proof_steps_are_proved_not_sampled(verdicts):
    for cid in ("ramaswamy2013.theorem4.proof.minimiser", "ramaswamy2013.theorem6.proof.minimiser",
                "ramaswamy2013.theorem7.proof.minimiser", "ramaswamy2013.theorem6.proof.pairwise_form",
                "ramaswamy2013.lemma8.proof.equal_risk_on_pi"):
        assert BY_ID[cid].kind in ("identity", "implies"), cid
        assert verdicts[cid].status is Status.PROVED, cid


def test_a_swap_changes_the_adjacent_count_by_at_most_one_and_can_raise_it():
    # scores along sigma^0 = (1, 0, 2, 1): swapping the misordered middle pair gives (1, 2, 0, 1)
    assert R.A.adjacent_disagreements((1, 0, 2, 1)) == 1 and R.A.adjacent_disagreements((1, 2, 0, 1)) == 2
    assert R.A.all_disagreements((1, 0, 2, 1)) == R.A.all_disagreements((1, 2, 0, 1)) + 1


def test_every_claim_has_a_negative_twin():
    assert set(TWINS) | ERRATA == set(BY_ID)


@pytest.mark.parametrize("cid", sorted(REFUTED_TWINS))
def test_the_negative_twin_is_refuted_with_a_rechecked_witness(cid, twin_verdicts):
    v = twin_verdicts[cid]
    assert v.status is Status.REFUTED, f"{cid}: {v.status.value} {v.reason[:300]}"
    assert refuted_with_rechecked_witness(v)


@pytest.mark.parametrize("cid", sorted(ERRATA))
def test_a_printed_erratum_is_its_own_negative_twin(cid, verdicts):
    v = verdicts[cid]
    assert refuted_with_rechecked_witness(v)


@pytest.mark.parametrize("cid", sorted(PROVED_TWINS))
def test_a_claim_the_paper_calls_false_is_proved_once_the_hypothesis_is_restored(cid, twin_verdicts):
    assert BY_ID[cid].expected is Status.REFUTED
    assert twin_verdicts[cid].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES)


CALIBRATION = sorted(c.id for c in CLAIMS if c.kind == "calibration")


def test_the_calibration_claims_cover_theorems_3_4_6_7_corollary_5_and_lemma_8():
    assert len(CALIBRATION) == 20
    for label in ("theorem3", "theorem4", "corollary5", "lemma8", "theorem6", "theorem7"):
        assert any(cid.startswith(f"ramaswamy2013.{label}.") for cid in CALIBRATION), label
    assert set(THEOREM6_ARGS) <= set(CALIBRATION)


@pytest.mark.parametrize("cid", CALIBRATION)
def test_a_calibration_claim_is_proved_over_its_whole_set_with_one_smt_query_per_pair(cid, verdicts):
    v = verdicts[cid]
    assert v.status is Status.PROVED, f"{cid}: {v.status.value} {v.reason[:300]}"
    assert "(A) quadratic" in v.scope and v.evidence is not None and "pair queries unsat" in v.evidence.note


def test_the_seeded_calibration_checks_stay_sampled_beside_the_whole_simplex_claims(verdicts):
    for cid in ("ramaswamy2013.theorem3.calibration", "ramaswamy2013.theorem4", "ramaswamy2013.lemma8",
                "ramaswamy2013.corollary5", "ramaswamy2013.theorem6", "ramaswamy2013.theorem7"):
        assert verdicts[cid].status is Status.CONFIRMED_ON_SAMPLES, cid


def test_theorem4_fails_outside_p_reinforce_at_an_exact_distribution(twin_verdicts):
    from symcal.calibration import recheck_witness

    r = 3
    v = twin_verdicts["ramaswamy2013.theorem4.calibration.p_reinforce.r3"]
    mat = R._named_loss("map", r).matrix
    sur = R.calibration_surrogates.ramaswamy_quadratic(R._named_loss("map", r).decomposition)[0]
    ok, why = recheck_witness(mat, sur, R.diagonal_sort_link(r), v.witness, noise=R.map_noise(r, outside=True))
    assert ok, why
    p = [(y, F(v.witness.values[f"p{a + 1}"])) for a, y in enumerate(mat.labels) if v.witness.values[f"p{a + 1}"]]
    assert not R.in_p_reinforce(p).holds
