"""Ramaswamy, Agarwal & Tewari (2013): every encoded claim agrees with the paper or is a recorded
erratum, and every claim has a negative twin (built with the module's own builders) that the
engine refutes with an exactly re-checked witness."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from symcal.claims.core import Claim
from symcal.library import load_module
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, verdicts_by_id

R = load_module(Path(__file__).resolve().parents[2] / "theorems" / "ramaswamy2013.py",
                "symcal_test_theorems_ramaswamy2013")
CLAIMS: list[Claim] = R.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


def tw(claim_id: str) -> str:
    return claim_id + ".twin"


# Theorem 6's whole-simplex claims: id -> (r, f, labels) of the builder
THEOREM6_ARGS = {
    f"ramaswamy2013.theorem6.calibration.p_f.{fname}_r{r}" + ("" if labels == "unit_dags" else f"_{labels}"):
        (r, fname, labels)
    for r, labels in R.THEOREM6_WHOLE_CASES for fname in ("duchi", "out_weight")
}


# claim id -> a negative twin that must be refuted with a re-checked witness
REFUTED_TWINS: dict[str, Callable[[], Claim]] = {
    "ramaswamy2013.theorem3.risk_identity": lambda: R.theorem3_identity_claim(
        tw("ramaswamy2013.theorem3.risk_identity"), extra=R._P[0] / 7),
    "ramaswamy2013.theorem3.surrogate_minimiser": lambda: R.theorem3_surrogate_claim(
        tw("ramaswamy2013.theorem3.surrogate_minimiser"), scale=2),
    "ramaswamy2013.theorem3.calibration": lambda: R.theorem3_calibration_claim(
        tw("ramaswamy2013.theorem3.calibration"), radius_factor=F(200)),
    "ramaswamy2013.precision.two_forms": lambda: R.precision_forms_claim(
        tw("ramaswamy2013.precision.two_forms"), q_shift=1).replace(sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.precision.decomposition": lambda: R.decomposition_claim(
        tw("ramaswamy2013.precision.decomposition"), "precision", {"q": 2}, R.r_sizes(3, 3), "Section 4", "q",
        c_shift=F(1, 7)),
    "ramaswamy2013.precision.rank": lambda: R.precision_rank_claim(tw("ramaswamy2013.precision.rank"), offset=-1)
    .replace(sizes=R.r_sizes(3, 3)),
    "ramaswamy2013.precision.pred_top_q": lambda: R.top_q_claim(tw("ramaswamy2013.precision.pred_top_q"),
                                                                bottom=True).replace(sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.wta.is_precision_at_1": lambda: R.wta_claim(tw("ramaswamy2013.wta"), q=2)
    .replace(sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.eru.decomposition": lambda: R.decomposition_claim(
        tw("ramaswamy2013.eru.decomposition"), "eru", {"s": 2, "v": 1, "w": 2}, R.r_sizes(3, 3), "Section 5", "q",
        c_shift=F(-1, 3)),
    "ramaswamy2013.eru.rank": lambda: R.eru_rank_claim(tw("ramaswamy2013.eru.rank"), offset=1)
    .replace(sizes=R.r_sizes(3, 3)),
    "ramaswamy2013.eru.pred_sorting.corrected": lambda: R.eru_sorting_claim(
        tw("ramaswamy2013.eru.corrected"), (F(2), F(1, 2)), reverse_below_1=False, statement="twin: no reversal"),
    "ramaswamy2013.map.rewrite.positions": lambda: R.map_forms_claim(
        tw("ramaswamy2013.map.positions"), form=1, shift=F(1, 100)).replace(sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.map.rewrite.pairs": lambda: R.map_forms_claim(
        tw("ramaswamy2013.map.pairs"), form=2, shift=F(-1, 100)).replace(sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.map.decomposition": lambda: R.decomposition_claim(
        tw("ramaswamy2013.map.decomposition"), "map", {"empty": "zero"}, R.r_sizes(3, 3), "Section 6", "q"),
    "ramaswamy2013.map.rank_bound": lambda: R.map_rank_bound_claim(tw("ramaswamy2013.map.rank_bound"), offset=-2)
    .replace(sizes=R.r_sizes(3, 3)),
    "ramaswamy2013.map.rank_exact": lambda: R.map_rank_bound_claim(
        tw("ramaswamy2013.map.rank_exact"), offset=0, exact=True).replace(sizes=R.r_sizes(3, 3)),
    "ramaswamy2013.map.pred_is_qap": lambda: R.map_qap_claim(tw("ramaswamy2013.map.qap"), diagonal_only=True)
    .replace(sizes=R.r_sizes(3, 3)),
    "ramaswamy2013.theorem4.eq2": lambda: R.eq2_claim(tw("ramaswamy2013.theorem4.eq2"), shift=F(1, 1000)),
    "ramaswamy2013.lemma8": lambda: R.lemma8_claim(tw("ramaswamy2013.lemma8"), pred="reverse"),
    "ramaswamy2013.lemma8.proof.swap_step.corrected": lambda: R.lemma8_step_claim(
        tw("ramaswamy2013.lemma8.step"), printed=False, slack=F(1, 1000)),
    "ramaswamy2013.theorem4": lambda: R.theorem4_claim(tw("ramaswamy2013.theorem4"), radius_factor=F(400)),
    "ramaswamy2013.corollary5.u_tilde_is_diagonal": lambda: R.corollary5_identity_claim(
        tw("ramaswamy2013.corollary5.u_tilde"), extra=sympy.Rational(1, 9)),
    "ramaswamy2013.corollary5": lambda: R.theorem4_claim(tw("ramaswamy2013.corollary5"), tilde=True,
                                                         radius_factor=F(400)),
    "ramaswamy2013.pd.decomposition": lambda: R.decomposition_claim(
        tw("ramaswamy2013.pd.decomposition"), "pd", {}, R.r_sizes(2, 3), "Section 7", "q", c_shift=F(1, 2)),
    "ramaswamy2013.pd.rank_bound.corrected": lambda: R.pd_rank_claim(
        tw("ramaswamy2013.pd.rank_bound.corrected"), offset=0, exact=True, sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.pd.affine_dimension": lambda: R.pd_rank_claim(
        tw("ramaswamy2013.pd.affine_dimension"), offset=0, exact=True, kind="affine dimension",
        sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.pd.total_orders_affine": lambda: R.pd_rank_claim(
        tw("ramaswamy2013.pd.total_orders"), offset=-1, kind="affine dimension", labels="total_orders",
        sizes=R.r_sizes(3, 3)),
    # the surrogate with the sign of alpha flipped (alpha_y = y_ji - y_ij) is not calibrated
    "ramaswamy2013.pd.half_dimensional_surrogate": lambda: R.pd_offset_claim(
        tw("ramaswamy2013.pd.half"), sign=-1).replace(sizes=R.r_sizes(2, 3)),
    "ramaswamy2013.pd.pred_is_mwfas": lambda: R.pd_fas_claim(tw("ramaswamy2013.pd.mwfas"), wrong_constant=True)
    .replace(sizes=R.r_sizes(3, 3)),
    "ramaswamy2013.theorem6": lambda: R.theorem6_claim(tw("ramaswamy2013.theorem6"), use_f="reversed"),
    "ramaswamy2013.theorem6.dmj_special_case": lambda: R.dmj_claim(tw("ramaswamy2013.theorem6.dmj"), nu=1)
    .replace(sizes=R.r_sizes(3, 3)),
    "ramaswamy2013.theorem6.dmj_noise_set": lambda: R.dmj_noise_claim(tw("ramaswamy2013.theorem6.noise"),
                                                                      extra=sympy.Rational(1, 5)),
    "ramaswamy2013.theorem7": lambda: R.theorem7_claim(tw("ramaswamy2013.theorem7"), radius_factor=F(400)),
    "ramaswamy2013.theorem7.p_dag_contains_p_f": lambda: R.p_dag_contains_p_f_claim(
        tw("ramaswamy2013.theorem7.p_dag"), strict=False).replace(sizes=R.r_sizes(3, 3)),
    # the whole-simplex / noise-set calibration claims: a wrong link, a wrong surrogate or a noise set the
    # theorem excludes must be refuted by an exactly re-checked counterexample distribution
    **{R.theorem3_whole_id(key, r): (lambda key=key, r=r: R.theorem3_whole_claim(
        tw(R.theorem3_whole_id(key, r)), key, r, reversed_link=True)) for key, r in R.THEOREM3_WHOLE_CASES},
    **{f"ramaswamy2013.theorem4.calibration.p_reinforce.r{r}": (lambda r=r: R.theorem4_whole_claim(
        tw(f"ramaswamy2013.theorem4.calibration.p_reinforce.r{r}"), r, outside=True)) for r in (3, 4)},
    **{f"ramaswamy2013.corollary5.calibration.p_reinforce.r{r}": (lambda r=r: R.corollary5_whole_claim(
        tw(f"ramaswamy2013.corollary5.calibration.p_reinforce.r{r}"), r, ascending=True)) for r in (3, 4)},
    **{f"ramaswamy2013.lemma8.p_reinforce.r{r}": (lambda r=r: R.lemma8_whole_claim(
        tw(f"ramaswamy2013.lemma8.p_reinforce.r{r}"), r, outside=True)) for r in (3, 4)},
    **{cid: (lambda cid=cid, r=r, f=f, labels=labels: R.theorem6_whole_claim(
        tw(cid), r, f, labels=labels, use_f="reversed")) for cid, (r, f, labels) in THEOREM6_ARGS.items()},
    "ramaswamy2013.theorem7.algorithm1_regions": lambda: R.algorithm1_regions_claim(
        tw("ramaswamy2013.theorem7.algorithm1_regions"), reverse=True),
    "ramaswamy2013.theorem7.calibration.p_dag.r3": lambda: R.theorem7_whole_claim(
        tw("ramaswamy2013.theorem7.calibration.p_dag.r3"), reverse=True),
    "ramaswamy2013.theorem7.calibration.whole_simplex.r3": lambda: R.theorem7_whole_claim(
        tw("ramaswamy2013.theorem7.calibration.whole_simplex.r3"), reverse=True, whole_simplex=True),
}


# claims the paper implies are false: the twin adds the missing hypothesis and is proved
PROVED_TWINS: dict[str, Callable[[], Claim]] = {
    "ramaswamy2013.theorem4.without_p_reinforce": lambda: R.lemma8_claim(
        tw("ramaswamy2013.theorem4.without"), inside=True, expected="proved"),
    "ramaswamy2013.theorem7.inclusion_strict": lambda: R.inclusion_strict_claim(
        tw("ramaswamy2013.theorem7.strict"), only_p_f=True),
}

TWINS = {**REFUTED_TWINS, **PROVED_TWINS}
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


def test_the_three_errata_are_refuted_with_rechecked_witnesses_and_their_corrections_proved(verdicts):
    assert ERRATA == {
        "ramaswamy2013.eru.pred_sorting",
        "ramaswamy2013.lemma8.proof.swap_step",
        "ramaswamy2013.pd.rank_bound",
    }
    for cid in ERRATA:
        v = verdicts[cid]
        assert refuted_with_rechecked_witness(v), cid
        assert BY_ID[cid].finding.corrected == cid + ".corrected"
        assert verdicts[cid + ".corrected"].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES), cid


def test_the_pd_rank_erratum_is_refuted_at_the_smallest_size_two(verdicts):
    w = verdicts["ramaswamy2013.pd.rank_bound"].witness
    assert w.size == 2 and "certified rank 2" in w.detail and "bound 1" in w.detail


def test_the_eru_erratum_needs_a_half_life_below_one(verdicts):
    w = verdicts["ramaswamy2013.eru.pred_sorting"].witness
    assert w.size == 2 and "w = 0" in w.detail


def test_the_lemma8_step_fails_at_an_optimal_sigma(verdicts):
    detail = verdicts["ramaswamy2013.lemma8.proof.swap_step"].witness.detail
    assert "(optimal)" in detail and "printed bound is 1/60" in detail


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
