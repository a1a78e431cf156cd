"""Calauzènes, Usunier & Gallinari (2013): every claim agrees with the paper or is a recorded
erratum; every claim has a negative twin built with the module's own builders."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from symcal.claims.core import Claim
from symcal.library import load_module
from symcal.runner import check_many
from symcal.verdicts import IntervalProof, Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, verdicts_by_id

C = load_module(Path(__file__).resolve().parents[2] / "theorems" / "calauzenes2013.py",
                "symcal_test_theorems_calauzenes2013")
CLAIMS: list[Claim] = C.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


def tw(cid: str) -> str:
    return cid + ".twin"


P = "calauzenes2013."
ALL_ONES = [((1, 1, 1, 1), F(1))]
PROPOSED_FAILS = [((0, 0, 1), F(1, 3)), ((2, 1, 0), F(2, 3))]  # hinge is not differentiable
REFUTED_TWINS: dict[str, Callable[[], Claim]] = {
    P + "table1.dcg.gppm_form": lambda: C.table1_dcg_claim(tw("calauzenes2013.dcg"), gain_offset=0),
    P + "table1.ndcg.gppm_form.corrected": lambda: C.table1_ndcg_claim(
        tw("calauzenes2013.ndcg"), u_norm="dcg", f_norm="dcgk"),
    P + "table1.prec.gppm_form": lambda: C.table1_binary_claim(tw("calauzenes2013.prec"), "prec", phi_scale=F(2)),
    P + "table1.rec.gppm_form": lambda: C.table1_binary_claim(tw("calauzenes2013.rec"), "rec", phi_scale=F(2)),
    P + "table1.auc.gppm_form.corrected": lambda: C.table1_binary_claim(
        tw("calauzenes2013.auc"), "auc", phi_scale=F(2)),
    P + "table1.spearman.gppm_form": lambda: C.spearman_claim(tw("calauzenes2013.spearman"), b_sign=1),
    P + "table1.edge_cases": lambda: C.edge_claim(tw("calauzenes2013.edge"), widen=True),
    P + "eq2": lambda: C.eq2_claim(tw("calauzenes2013.eq2"), overlap=True),
    P + "eq2.converse_strict": lambda: C.eq2_claim(tw("calauzenes2013.eq2c"), converse=True, strict=False),
    P + "eq6": lambda: C.eq6_claim(tw("calauzenes2013.eq6"), swap_sign=-1),
    P + "theorem3_2.regret_lower_bound": lambda: C.thm32_claim(tw("calauzenes2013.thm32"), factor=F(12)),
    P + "theorem3_3.err_gap.corrected": lambda: C.thm33_claim(tw("calauzenes2013.err"), "err", F(1, 96)),
    P + "theorem3_3.ap_gap.corrected": lambda: C.thm33_claim(tw("calauzenes2013.ap"), "ap", F(-1, 48)),
    P + "theorem3_3.err_not_all_optimal": lambda: C.thm33_not_all_optimal_claim(
        tw("calauzenes2013.err_all"), "err", dist=ALL_ONES),
    P + "theorem3_3.ap_not_all_optimal": lambda: C.thm33_not_all_optimal_claim(
        tw("calauzenes2013.ap_all"), "ap", dist=ALL_ONES),
    P + "lemma_b2.err_hypotheses": lambda: C.lemma_b2_claim(tw("calauzenes2013.b2err"), "err", strict=False),
    P + "lemma_b2.ap_hypotheses": lambda: C.lemma_b2_claim(tw("calauzenes2013.b2ap"), "ap", strict=False),
    P + "lemma4_1": lambda: C.lemma41_claim(tw("calauzenes2013.lemma41"), scale=F(1, 2)),
    P + "lemma5_1": lambda: C.lemma51_claim(tw("calauzenes2013.lemma51"), c_terms=0),
    P + "lemma5_1.p3": lambda: C.lemma51_claim(tw("calauzenes2013.lemma51p3"), p=F(3), c_terms=0),
    P + "lemma5_1.p3_2": lambda: C.lemma51_claim(tw("calauzenes2013.lemma51p32"), p=F(3, 2), c_terms=0),
    P + "lemma5_1.proof_first_step.corrected": lambda: C.lemma51_proof_claim(
        tw("calauzenes2013.lemma51proof"), printed=False, regret_scale=F(11, 10)),
    P + "table2.pointwise.square_hinge.scaling": lambda: C.square_hinge_scaling_claim(
        tw("calauzenes2013.sqhscale"), power=3),
    P + "table2.pointwise.square_hinge.inner_minimum": lambda: C.square_hinge_minimum_claim(
        tw("calauzenes2013.sqhmin"), extra=F(1, 100)),
    P + "table2.pointwise.square_hinge.corrected": lambda: C.square_hinge_claim(
        tw("calauzenes2013.sqhc"), F(100, 51), statement="twin: c^2 just below the best constant 2"),
    P + "table2.pointwise.square_hinge.best_constant": lambda: C.square_hinge_claim(
        tw("calauzenes2013.sqhb"), F(199, 100), statement="twin: c^2 = 1.99 < 2"),
    P + "table2.pointwise.squared": lambda: C.pointwise_squared_claim(tw("calauzenes2013.psq"), c2=1),
    P + "table2.pointwise.logistic": lambda: C.pointwise_logistic_claim(tw("calauzenes2013.plog"), mu=5),
    P + "table2.pointwise.exponential": lambda: C.pointwise_exponential_claim(tw("calauzenes2013.pexp"), mu=5),
    P + "table2.pointwise.differentiable_hinge.scaling": lambda: C.diff_hinge_scaling_claim(
        tw("calauzenes2013.dhscale"), power=2),
    P + "table2.pointwise.differentiable_hinge.inner_minimum": lambda: C.diff_hinge_minimum_claim(
        tw("calauzenes2013.dhmin"), extra=F(1, 100)),
    P + "table2.pointwise.differentiable_hinge.corrected": lambda: C.diff_hinge_curvature_claim(
        tw("calauzenes2013.dhc"), alpha_max=F(5, 2)),
    P + "table2.pairwise.squared": lambda: C.pairwise_squared_claim(tw("calauzenes2013.qsq"), c2=F(1, 2)),
    P + "table2.pairwise.logistic_reduction": lambda: C.pairwise_logistic_reduction_claim(
        tw("calauzenes2013.qlogr"), extra=F(1, 10)),
    P + "table2.pairwise.logistic": lambda: C.pairwise_logistic_claim(
        tw("calauzenes2013.qlog"), const=sympy.Rational(26, 100)),
    P + "table2.pairwise.exponential_form": lambda: C.pairwise_exponential_form_claim(
        tw("calauzenes2013.qexpf"), extra=F(1, 10)),
    P + "table2.pairwise.exponential": lambda: C.pairwise_exponential_claim(tw("calauzenes2013.qexp"), const=3),
    P + "remark2.inner_risk_form": lambda: C.remark2_form_claim(
        tw("calauzenes2013.r2form"), swap=True, phi=lambda t: t**3 + t),
    P + "remark2.proposed_pairwise_order_preserving": lambda: C.remark2_claim(
        tw("calauzenes2013.r2prop"), "proposed", dist=PROPOSED_FAILS),
}
# claims the paper says are false: the twin restores the missing condition and is proved
PROVED_TWINS: dict[str, Callable[[], Claim]] = {
    P + "eq2.converse_non_strict": lambda: C.eq2_claim(tw("calauzenes2013.eq2n"), converse=True, strict=True),
    P + "remark2.usual_pairwise_not_order_preserving": lambda: C.remark2_claim(
        tw("calauzenes2013.r2usual"), "usual", dist=[((0, 1, 0), F(1))]),
}
TWINS = {**REFUTED_TWINS, **PROVED_TWINS}


@pytest.fixture(scope="module")
def verdicts():
    return verdicts_by_id(CLAIMS)


@pytest.fixture(scope="module")
def twin_verdicts():
    built = {cid: b() for cid, b in TWINS.items()}
    return dict(zip(built, check_many(list(built.values()), jobs=2, timeout=60), strict=True))


def test_every_claim_agrees_with_the_paper_or_is_a_recorded_erratum(verdicts):
    wrong = disagreements(CLAIMS, verdicts)
    assert not wrong, "\n".join(wrong)


def test_the_seven_errata_are_refuted_and_their_corrections_proved(verdicts):
    assert ERRATA == {P + "table1.ndcg.gppm_form", P + "table1.auc.gppm_form",
                      P + "theorem3_3.err_gap", P + "theorem3_3.ap_gap", P + "lemma5_1.proof_first_step",
                      P + "table2.pointwise.square_hinge", P + "table2.pointwise.differentiable_hinge"}
    for cid in ERRATA:
        v = verdicts[cid]
        assert v.status is Status.REFUTED and v.witness.rechecked, cid
        assert verdicts[cid + ".corrected"].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES), cid


def test_the_auc_erratum_is_found_at_three_items(verdicts):
    w = verdicts[P + "table1.auc.gppm_form"].witness
    assert w.size == 3


def test_no_transcendental_inequality_is_proved_by_sampling(verdicts):
    for cid in (P + "table2.pairwise.logistic",):
        v = verdicts[cid]
        assert v.status is Status.PROVED and isinstance(v.evidence, IntervalProof) and v.backend == "interval"
    for c in CLAIMS:
        if c.kind == "interval":
            assert verdicts[c.id].backend in ("interval", "z3"), c.id


def test_every_claim_has_a_negative_twin():
    assert set(TWINS) | ERRATA == set(BY_ID)


@pytest.mark.parametrize("cid", sorted(REFUTED_TWINS))
def test_the_negative_twin_is_refuted_with_a_rechecked_witness(cid, twin_verdicts):
    v = twin_verdicts[cid]
    assert v.status is Status.REFUTED, f"{cid}: {v.status.value} {v.reason[:200]}"
    assert refuted_with_rechecked_witness(v)


@pytest.mark.parametrize("cid", sorted(PROVED_TWINS))
def test_a_claim_the_paper_calls_false_has_a_twin_that_is_proved(cid, twin_verdicts):
    assert BY_ID[cid].expected is Status.REFUTED
    assert twin_verdicts[cid].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES), twin_verdicts[cid].reason


def test_the_differentiable_hinge_fails_exactly_beyond_alpha_2():
    """The corrected range is tight: the curvature bound holds up to alpha = 2 and fails just above."""
    at_2 = check_many([C.diff_hinge_curvature_claim(tw("calauzenes2013.dh2"), alpha_max=2)], timeout=60)[0]
    above = check_many([C.diff_hinge_curvature_claim(tw("calauzenes2013.dh2x"), alpha_max=F(201, 100))], timeout=60)[0]
    assert at_2.status is Status.PROVED
    assert above.status is Status.REFUTED and above.witness.rechecked


def test_lemma_5_1_signs_sums_of_radicals_exactly():
    # 2 <= (2^(3/2))^(1/3) * 1 is false (sqrt 2 < 2); 2 <= 2^(1/3) * (1 + 2 sqrt 2)^(2/3) is true (~2.85)
    assert not C.holder_bound(F(2), (2,), F(3), (1,), F(3, 2))
    assert C.holder_bound(F(2), (2,), F(3), (1, 2))
    assert C.holder_bound(F(4), (2,), F(2), (2,))  # equality: 4 = 2 * 2
    assert not C.holder_bound(F(4) + F(1, 10**9), (2,), F(2), (2,))
