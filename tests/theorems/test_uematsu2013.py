"""Uematsu & Lee (2013): every encoded claim agrees with the paper or is a recorded erratum,
and every claim has a negative twin (built with the module's own builders) that comes back
refuted (numeric twins: not confirmed; claims the paper calls false: a twin that is proved)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

import pytest
import scipy.optimize  # noqa: F401  (imported once here: the forked workers inherit it)

from symcal.claims.core import Claim
from symcal.library import load_paper
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, twins_expecting, verdicts_by_id

U = load_paper("uematsu2013", "symcal_test_theorems_uematsu2013")
CLAIMS: list[Claim] = U.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


S = "uematsu2013."
# the twins live beside the claims, at the end of each section of theorems/uematsu2013/ (TWINS,
# TWIN_EXPECT): refuted with a re-checked witness, except the paper's own "false" statement (its twin
# adds the condition and is proved) and the numeric claim (its twin is not confirmed)
TWINS: dict[str, Callable[[], Claim]] = U.TWINS
REFUTED_TWINS = twins_expecting(U, "refuted")
PROVED_TWINS = twins_expecting(U, "proved")
NUMERIC_TWINS = twins_expecting(U, "unknown")
TWIN_CLAIMS = {cid: build() for cid, build in TWINS.items()}


@pytest.fixture(scope="module")
def verdicts():
    return verdicts_by_id(CLAIMS)


@pytest.fixture(scope="module")
def twin_verdicts():
    ids, claims = list(TWIN_CLAIMS), list(TWIN_CLAIMS.values())
    return dict(zip(ids, check_many(claims, jobs=2, timeout=30), strict=True))


def test_every_claim_agrees_with_the_paper_or_is_a_recorded_erratum(verdicts):
    wrong = disagreements(CLAIMS, verdicts)
    assert not wrong, "\n".join(wrong)


def test_the_errata_are_refuted_with_rechecked_witnesses_and_their_corrections_proved(verdicts):
    assert ERRATA == {
        S + "theorem3.i",
        S + "theorem3.ii",
        S + "theorem3.proof.strict",
        S + "section4.eq6",
        S + "section5_2.table1.mrr",
        S + "section6_2.proportions",
        S + "section4_3.svor1.r_defined",
        S + "section4_3.svor2.r_defined",
        S + "section5_2.table1.p_norm_push",
        S + "section6_2.table3.balanced_lower",
        S + "section5_2.sorted_is_necessary",
        S + "corollary1.proof.via_theorem3",
    }
    for cid in ERRATA:
        v = verdicts[cid]
        assert refuted_with_rechecked_witness(v), cid
        assert BY_ID[cid].finding.corrected == cid + ".corrected"
        assert verdicts[cid + ".corrected"].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES), cid


def test_theorem3_fails_at_the_edge_c13_zero_with_two_points(verdicts):
    w = verdicts[S + "theorem3.i"].witness
    assert w.size == 2 and "c13=0" in w.values["costs"]
    assert w.values["posteriors"] == [["0", "1", "0"], ["0", "1/2", "1/2"]]


def test_svor_r_has_a_zero_denominator_on_the_simplex_and_the_tables_hold_with_its_limits(verdicts):
    assert verdicts[S + "section4_3.svor1.r_defined"].witness.values["p_2"] == 0
    assert verdicts[S + "section4_3.svor2.r_defined"].witness.values["p_3"] == 1
    for version in (1, 2):
        v = verdicts[f"{S}section4_3.svor{version}.r_defined.corrected"]
        assert v.status is Status.PROVED and "r_defined" not in BY_ID[v.claim_id].hypothesis_names


def test_the_p_norm_push_row_orders_rankings_unlike_rudin_first_at_six_items(verdicts):
    lists = verdicts[S + "section5_2.table1.p_norm_push"].witness.values["ranked labels"]
    assert [len(x) for x in lists] == [6, 6]
    assert verdicts[S + "section5_2.table1.p_norm_push.corrected"].status is Status.PROVED


def test_table3_has_one_exception_beyond_the_pair_of_high_ratings(verdicts):
    assert verdicts[S + "section6_2.table3.balanced_lower"].witness.values == {"pair": [3, 5], "method": "ORBOOST"}


def test_sorting_is_necessary_only_for_a_strictly_decreasing_discount_p_at_1_has_other_maximisers(verdicts):
    w = verdicts[S + "section5_2.sorted_is_necessary"].witness
    assert w.values == {"measure": "P@1", "D": ["1", "0", "0"], "C_f": ["1/2", "0", "1/2"]}
    assert verdicts[S + "section5_2.sorted_is_necessary.corrected"].status is Status.PROVED
    assert verdicts[S + "section5_2.optimal_by_expected_gain"].status is Status.CONFIRMED_ON_SAMPLES


def test_corollary1s_proof_needs_w1_wk_positive_but_the_corollary_holds_for_every_weight(verdicts):
    w = verdicts[S + "corollary1.proof.via_theorem3"].witness
    assert w.values["w"] == [0, 1, 1] and w.values["s"] == [0, 1, 2]
    assert verdicts[S + "corollary1.proof.via_theorem3.corrected"].status is Status.PROVED


def test_theorem1_is_proved_for_every_finite_space_by_a_two_point_lemma(verdicts):
    v = verdicts[S + "theorem1"]
    assert v.status is Status.PROVED and "any number of points" in v.scope


def test_the_condition_is_needed_zero_one_costs_at_k4_break_f0_with_two_points(verdicts):
    w = verdicts[S + "theorem3.ii.condition_needed"].witness
    assert w.size == 2 and "zero_one" in w.values["costs"]


def test_corollary1_is_proved_for_all_k_and_says_so_in_its_scope(verdicts):
    v = verdicts[S + "corollary1.condition.all_k"]
    assert v.status is Status.PROVED and "all K >= 2" in v.scope


def test_table2_is_reproduced_digit_for_digit_by_decided_enclosures(verdicts):
    for case in ("balanced", "unbalanced"):
        v = verdicts[f"{S}section6_2.table2.{case}"]
        assert v.status is Status.PROVED and v.evidence.cases == 10


def test_the_misordering_is_proved_exactly_and_no_claim_rests_on_an_optimiser(verdicts):
    # issue 24: the numeric claim became two z3 implications on the same statement
    assert [c.id for c in CLAIMS if c.kind == "numeric"] == []
    v = verdicts[S + "theorem4.without_extra_term_misorders"]
    assert v.status is Status.PROVED and BY_ID[S + "theorem4.without_extra_term_misorders"].kind == "implies_cases"


def test_the_misorder_bound_point_is_near_the_bfgs_minimiser_which_misorders_x1_and_x3():
    import math

    from symcal.ranking.costs import zero_one_costs
    from symcal.ranking.multipartite import surrogate_pair_weights

    s5 = U.section5
    f, res = s5.minimise_exp_risk(surrogate_pair_weights(s5.MISORDER_SPACE, zero_one_costs(3), extra=False))
    assert res.success
    for fa, w in zip(f, s5.MISORDER_POINT, strict=True):
        assert abs(math.exp(fa) - float(w)) < 0.01
    assert f[2] > f[0]  # f_0^* = (5/4, 3/4, 6/5) puts x_1 above x_3


def test_the_checkable_steps_inside_definitions_and_quoted_facts_are_proved_exhaustively(verdicts):
    for cid in ("section2.bayes_classifier", "section3.eq2.normaliser", "section3.eq3.normaliser",
                "section3.eq4.normaliser", "section6_2.linear_cost_table", "theorem3.proof.partition_cells",
                "theorem3.proof.switch_cells"):
        assert verdicts[S + cid].status is Status.PROVED, cid
        assert S + cid in TWINS, cid


def test_every_claim_has_a_negative_twin():
    assert set(TWINS) | ERRATA == set(BY_ID)


@pytest.mark.parametrize("cid", sorted(REFUTED_TWINS))
def test_the_negative_twin_is_refuted_with_a_rechecked_witness(cid, twin_verdicts):
    v = twin_verdicts[cid]
    assert v.status is Status.REFUTED, f"{cid}: {v.status.value} {v.reason[:300]}"
    assert refuted_with_rechecked_witness(v)


@pytest.mark.parametrize("cid", sorted(PROVED_TWINS))
def test_the_twin_of_a_claim_the_paper_calls_false_is_proved_once_the_condition_holds(cid, twin_verdicts):
    assert BY_ID[cid].expected is Status.REFUTED
    assert twin_verdicts[cid].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES)


@pytest.mark.parametrize("cid", sorted(NUMERIC_TWINS))
def test_a_numeric_twin_is_not_confirmed_because_numeric_checks_never_refute(cid, twin_verdicts):
    assert twin_verdicts[cid].status is Status.UNKNOWN


def test_the_misordering_instance_has_f0_order_and_exact_data():
    assert sum(U.MISORDER_SPACE.marginal) == 1
    assert all(sum(r) == 1 for r in U.MISORDER_SPACE.posteriors)
    assert F(1, 7) in U.MISORDER_SPACE.marginal
