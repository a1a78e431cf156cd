"""Calauzènes, Usunier & Gallinari (2013): every claim agrees with the paper or is a recorded
erratum; every claim has a negative twin built with the module's own builders."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

import pytest
import sympy

from symcal.claims.core import Claim
from symcal.library import load_paper
from symcal.runner import check_many
from symcal.verdicts import IntervalProof, Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, twins_expecting, verdicts_by_id

C = load_paper("calauzenes2013", "symcal_test_theorems_calauzenes2013")
CLAIMS: list[Claim] = C.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


def tw(cid: str) -> str:
    return cid + ".twin"


P = "calauzenes2013."
# the twins are declared in theorems/calauzenes2013/__init__.py (TWINS, TWIN_EXPECT): refuted with a
# re-checked witness, except for claims the paper says are false (the twin restores the missing
# condition and is proved)
TWINS: dict[str, Callable[[], Claim]] = C.TWINS
REFUTED_TWINS = twins_expecting(C, "refuted")
PROVED_TWINS = twins_expecting(C, "proved")


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


def test_the_eighteen_errata_are_refuted_and_their_corrections_proved(verdicts):
    assert ERRATA == {P + "table1.ndcg.gppm_form", P + "table1.auc.gppm_form",
                      P + "theorem3_3.err_gap", P + "theorem3_3.ap_gap", P + "lemma5_1.proof_first_step",
                      P + "table2.pointwise.square_hinge", P + "table2.pointwise.differentiable_hinge",
                      P + "lemma4_1.proof_split", P + "theorem4_2.proof_pair_count", P + "theorem4_2.proof_lower_bound",
                      P + "lemma5_1.proof_second_step", P + "theorem5_3.proof_first_step",
                      P + "lemma_b2.proof_labels", P + "lemma_b2.proof_mixture", P + "lemma_b2.proof_no_constraint",
                      P + "table2.pointwise.logistic.bregman_form", P + "eq14.pairwise_form",
                      P + "corollary_a1.k_dimension"}
    for cid in ERRATA:
        v = verdicts[cid]
        assert v.status is Status.REFUTED and v.witness.rechecked, cid
        assert verdicts[cid + ".corrected"].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES), cid


def test_the_proof_errata_are_found_at_the_smallest_size(verdicts):
    sizes = {"lemma4_1.proof_split": 3, "theorem4_2.proof_pair_count": 2, "theorem4_2.proof_lower_bound": 2,
             "lemma5_1.proof_second_step": 2}
    for cid, n in sizes.items():
        assert verdicts[P + cid].witness.size == n, cid


def test_the_appendix_a_notation_errata_fail_at_two_items_and_footnote_3_needs_k_nonnegative(verdicts, twin_verdicts):
    assert "refuted at m = 2" in verdicts[P + "eq14.pairwise_form"].scope
    assert verdicts[P + "corollary_a1.k_dimension"].witness.values["n"] == 2
    assert verdicts[P + "footnote3.u_range"].status is Status.PROVED
    twin = twin_verdicts[P + "footnote3.u_range"]
    assert twin.status is Status.REFUTED and twin.witness.values["a"] < -twin.witness.values["B"]


def test_lemma_b2s_no_constraint_step_fails_at_four_items_on_theorem_3_3s_labels(verdicts):
    # the printed gaps of Theorem 3.3 are exactly these sums: ERR 41/48 against 43/48
    w = verdicts[P + "lemma_b2.proof_no_constraint"].witness
    assert w.size == 4 and w.values["measure"] == "err"
    assert {w.values["y"], w.values["y'"]} == {(1, 1, 0, 0), (0, 0, 1, 1)}
    assert verdicts[P + "theorem3_3.err_family_not_all_equal"].status is Status.PROVED
    assert verdicts[P + "theorem3_3.ap_family_not_all_equal"].status is Status.PROVED


def test_undefined_terms_are_reported_as_such(verdicts):
    # phi(n + 1) in Theorem 4.2's proof, a sum up to (n + 1)/2 = 3/2 in Appendix B.3
    assert "phi(3) is undefined" in verdicts[P + "theorem4_2.proof_lower_bound"].witness.detail
    assert "3/2 is not an integer" in verdicts[P + "lemma5_1.proof_second_step"].witness.detail


def test_the_printed_first_step_of_theorem_5_3_holds_exactly_for_a_point_mass():
    v = check_many([C.printed_bregman_step_claim(tw("calauzenes2013.thm53point"), point_mass=True)], timeout=60)[0]
    assert v.status is Status.PROVED


def test_with_exponent_q_the_last_line_of_lemma_5_1s_proof_exceeds_c_phi():
    # p = 3/2, q = 3, n = 3, phi = (2, 0, 0): the printed last line (sum_{i <= (n+1)/2} (phi(i) - phi(n+1-i))^q)^(1/p)
    # is 8^(2/3) = 4, while C_phi(3/2) = (2^(3/2))^(2/3) = 2
    p, q = sympy.Rational(3, 2), 3
    printed = C.c_phi_power((2, 0, 0), q, terms=2) ** (1 / p)
    c_phi = (sympy.Integer(2) ** p) ** (1 / p)
    assert printed == 4 and c_phi == 2


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
