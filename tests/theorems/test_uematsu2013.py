"""Uematsu & Lee (2013): every encoded claim agrees with the paper or is a recorded erratum,
and every claim has a negative twin (built with the module's own builders) that comes back
refuted (numeric twins: not confirmed; claims the paper calls false: a twin that is proved)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
import scipy.optimize  # noqa: F401  (imported once here: the forked workers inherit it)
import sympy

from symcal.claims.core import Claim
from symcal.library import load_module
from symcal.ranking.costs import CostScheme, linear_costs, zero_one_costs
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, verdicts_by_id

U = load_module(Path(__file__).resolve().parents[2] / "theorems" / "uematsu2013.py", "symcal_test_theorems_uematsu2013")
CLAIMS: list[Claim] = U.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


def tw(claim_id: str) -> str:
    return claim_id + ".twin"


C13_ZERO = CostScheme(3, {(1, 2): 1, (1, 3): 0, (2, 3): 1})
BAL = {**U.TABLE2["balanced"], (3, 4): "0.064"}
UNBAL = {**U.TABLE2["unbalanced"], (2, 4): "0.967"}
S = "uematsu2013."

REFUTED_TWINS: dict[str, Callable[[], Claim]] = {
    S + "section2.regression_identity": lambda: U.regression_claim(tw("uematsu2013.s2"), two=3),
    S + "section3.pairs_costs": lambda: U.empirical_claim(
        tw("uematsu2013.pairs"), "pairs", variant="half", sizes=(2, 3)
    ),
    S + "section3.ovo_costs": lambda: U.empirical_claim(tw("uematsu2013.ovo"), "ovo", variant="half", sizes=(2, 3)),
    S + "section3.cons_costs": lambda: U.empirical_claim(tw("uematsu2013.cons"), "cons", variant="to_i", sizes=(2, 3)),
    S + "section3.f0_expected_costs": lambda: U.expected_cost_claim(tw("uematsu2013.ec"), c11=1, sizes=(3, 3)),
    S + "theorem3.condition.linear": lambda: U.sweep_claim(tw("uematsu2013.lin"), "zero_one", sizes=(2, 5)),
    S + "theorem3.condition.dcg": lambda: U.sweep_claim(tw("uematsu2013.dcg"), "zero_one", sizes=(4, 4)),
    S + "theorem3.condition.normalised": lambda: U.normalised_claim(tw("uematsu2013.norm"), sign=-1),
    S + "theorem3.condition.void_at_i_eq_k": lambda: U.void_claim(tw("uematsu2013.void"), cKK=1),
    S + "theorem3.condition.additive_spacing": lambda: U.additivity_claim(tw("uematsu2013.add"), drop=True),
    S + "theorem3.condition.is_corollary1_family": lambda: U.corollary1_form_claim(
        tw("uematsu2013.fam"), with_condition=False, sizes=(4, 4)
    ),
    S + "theorem3.i.corrected": lambda: U.theorem3_claim(
        tw("uematsu2013.t3i"), "i", c1K_positive=True, sizes=(2, 3), twin_costs=C13_ZERO
    ),
    S + "theorem3.ii.corrected": lambda: U.theorem3_claim(
        tw("uematsu2013.t3ii"), "ii", c1K_positive=True, sizes=(2, 3), twin_costs=zero_one_costs(4)
    ),
    S + "theorem3.proof.strict.corrected": lambda: U.strictness_claim(
        tw("uematsu2013.strict"), corrected=True, sizes=(2, 3), twin_costs=zero_one_costs(4)
    ),
    S + "theorem3.proof.eq10": lambda: U.eq10_claim(tw("uematsu2013.eq10"), d_sign=1),
    S + "theorem3.proof.eq11": lambda: U.eq11_claim(tw("uematsu2013.eq11"), r_sign=1, sizes=(4, 4)),
    S + "theorem3.proof.c_ratio": lambda: U.c_ratio_claim(tw("uematsu2013.cratio"), swap=True, sizes=(3, 3)),
    S + "theorem3.proof.rji_symmetric": lambda: U.rji_claim(tw("uematsu2013.rji"), with_condition=False, sizes=(4, 4)),
    S + "corollary1.condition.all_k": lambda: U.corollary1_all_k_claim(tw("uematsu2013.allk"), power=2),
    S + "corollary1.proof.f0_forms": lambda: U.corollary1_f0_claim(
        tw("uematsu2013.f0f"), drop_weights=True, sizes=(3, 3)
    ),
    S + "corollary1.proof.monotone": lambda: U.corollary1_monotone_claim(tw("uematsu2013.mono"), flip=True),
    S + "corollary1": lambda: U.corollary1_optimal_claim(
        tw("uematsu2013.cor1"), sizes=(2, 3), unweighted_denominator=True
    ),
    S + "corollary1.expected_relevance": lambda: U.expected_relevance_claim(
        tw("uematsu2013.er"), square=True, sizes=(3, 3)
    ),
    S + "theorem4.i.identity": lambda: U.theorem4_i_claim(tw("uematsu2013.t4i"), divide=False),
    S + "theorem4.ii.identity": lambda: U.theorem4_ii_claim(tw("uematsu2013.t4ii"), with_condition=False, sizes=(4, 4)),
    S + "theorem4.finite.rank_one": lambda: U.rank_one_claim(
        tw("uematsu2013.r1"), costs=zero_one_costs(4), sizes=(2, 2)
    ),
    S + "theorem4.exp_minimiser": lambda: U.exp_minimiser_claim(tw("uematsu2013.expmin"), half=1, sizes=(2, 2)),
    S + "section4.eq6.corrected": lambda: U.eq6_claim(
        tw("uematsu2013.eq6"), corrected=True, generic=False, second_flipped=True, sizes=(2, 2)
    ),
    S + "section4_1.eq7": lambda: U.eq7_claim(tw("uematsu2013.eq7"), half=1, sizes=(2, 2)),
    S + "section4_1.orboost_costs": lambda: U.orboost_costs_claim(tw("uematsu2013.orc"), sign=1, sizes=(4, 4)),
    S + "section4_1.orboost_relation": lambda: U.orboost_relation_claim(
        tw("uematsu2013.orr"), plus_one=2, sizes=(3, 3)
    ),
    S + "section4_1.orboost_costs_nonnegative": lambda: U.orboost_nonneg_claim(
        tw("uematsu2013.orn"), ordered=False, sizes=(4, 4)
    ),
    S + "section4_1.orboost_condition": lambda: U.orboost_condition_claim(
        tw("uematsu2013.orcond"), bump=1, sizes=(4, 4)
    ),
    S + "section4_2.likelihood": lambda: U.likelihood_claim(tw("uematsu2013.lik"), sign=-1),
    S + "section4_2.population_equation": lambda: U.population_claim(tw("uematsu2013.pop"), use_pK=True, sizes=(3, 3)),
    S + "section4_2.k3_form": lambda: U.k3_form_claim(tw("uematsu2013.k3"), with_factor=False),
    S + "section4_2.eq8": lambda: U.eq8_claim(tw("uematsu2013.eq8"), four=2),
    S + "section4_2.q_is_unit_cost_f0": lambda: U.q_is_f0_claim(tw("uematsu2013.q"), c13=2),
    S + "section4_2.f_star_increasing_in_q": lambda: U.q_monotone_claim(tw("uematsu2013.qmono"), flip=True, pin=True),
    **{
        f"{S}section4_3.svor{v}.case{k}": (
            lambda v=v, k=k: U.svor_case_claim(v, k, tw(f"uematsu2013.svor{v}c{k}"), nudge=1)
        )
        for v, k in ((1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2))
    },
    S + "section4_3.svor1.r_table.cases12": lambda: U.svor_rtable_claim(tw("uematsu2013.rt1"), 1, "cases12", swap=True),
    S + "section4_3.svor1.r_table.case3": lambda: U.svor_rtable_claim(tw("uematsu2013.rt3"), 1, "case3", swap=True),
    S + "section4_3.svor2.r_table": lambda: U.svor_rtable_claim(tw("uematsu2013.rt2"), 2, "cases12", swap=True),
    S + "section4_3.svor1.r_equivalences": lambda: U.svor_equiv_claim(tw("uematsu2013.req1"), 1, nudge=1),
    S + "section4_3.svor2.r_equivalences": lambda: U.svor_equiv_claim(tw("uematsu2013.req2"), 2, nudge=1),
    S + "section4_3.svor1.median": lambda: U.median_claim(tw("uematsu2013.median"), upper=3),
    S + "section4_3.svor2.same_function": lambda: U.svor2_function_claim(tw("uematsu2013.same"), swap=True),
    S + "section4_4.indicator_risk": lambda: U.indicator_claim(
        tw("uematsu2013.ind"), shift=sympy.Rational(1, 2), sizes=(3, 3)
    ),
    S + "section4_4.no_cost_gives_argmax": lambda: U.argmax_claim(tw("uematsu2013.argmax"), only_first=True),
    S + "section5_2.table1.auc": lambda: U.table1_claim(tw("uematsu2013.auc"), "auc", offset=1, n_max=4),
    S + "section5_2.table1.p_at_m": lambda: U.table1_claim(tw("uematsu2013.pm"), "p_at_m", offset=1, n_max=4),
    S + "section5_2.table1.mrr.corrected": lambda: U.table1_claim(
        tw("uematsu2013.mrr"), "mrr", any_relevant=False, offset=1, n_max=4
    ),
    S + "section5_2.optimal_by_expected_gain": lambda: U.rearrangement_claim(
        tw("uematsu2013.rearr"), increasing_d=True
    ),
    S + "section5_2.dcg_costs": lambda: U.dcg_claim(tw("uematsu2013.dcgc"), base=3, sizes=(2, 2)),
    S + "section5_2.dcg_f0": lambda: U.dcg_f0_claim(tw("uematsu2013.dcgf"), base=3, sizes=(2, 2)),
    S + "section5_2.ap_swap": lambda: U.ap_swap_claim(tw("uematsu2013.ap"), square=True, sizes=(3, 3)),
    S + "section5_2.ap_sorted_optimal": lambda: U.ap_sorted_claim(tw("uematsu2013.aps"), ascending=True),
    S + "section6_1.normal_mixture_f0": lambda: U.mixture_f0_claim(tw("uematsu2013.mix"), e2=sympy.exp(1)),
    S + "section6_1.orboost_f_star": lambda: U.mixture_orboost_claim(tw("uematsu2013.mixor"), sign=-1),
    S + "section6_1.propodds_f_star": lambda: U.mixture_propodds_claim(tw("uematsu2013.mixpo"), four=2),
    S + "section6_1.svor_steps": lambda: U.svor_steps_claim(tw("uematsu2013.steps"), printed="1.03"),
    S + "section6_1.c13_orboost": lambda: U.number_claim(
        tw("uematsu2013.c13a"),
        [("e^{2.06}", sympy.exp(sympy.Rational(206, 100)), "7.847")],
        location="Section 6.1",
        quote="q",
        statement="twin: 7.847",
    ),
    S + "section6_2.c13_orboost": lambda: U.number_claim(
        tw("uematsu2013.c13b"),
        [("e^{0.183}", sympy.exp(sympy.Rational(183, 1000)), "1.202")],
        location="Section 6.2",
        quote="q",
        statement="twin: 1.202",
    ),
    S + "section6_2.svor_thresholds": lambda: U.svor_thresholds_claim(tw("uematsu2013.svt"), theta2="0.62"),
    S + "section6_2.pairrank2_regression": lambda: U.pairrank2_claim(tw("uematsu2013.pr2"), c13=1),
    S + "section6_2.orboost_k3_costs": lambda: U.orboost_k3_claim(tw("uematsu2013.ork3"), theta2=1),
    S + "section6_2.proportions.corrected": lambda: U.proportions_claim(
        tw("uematsu2013.prop"), ("5.19", "11.16", "27.23", "34.84", "21.58")
    ),
    S + "section6_2.unbalanced_sample": lambda: U.unbalanced_claim(tw("uematsu2013.unbal"), tol="0.01"),
    S + "section6_2.table2.balanced": lambda: U.table2_claim(tw("uematsu2013.t2b"), "balanced", printed=BAL),
    S + "section6_2.table2.unbalanced": lambda: U.table2_claim(tw("uematsu2013.t2u"), "unbalanced", printed=UNBAL),
}

# the paper's own "false" statement: the condition is needed; the twin adds the condition
PROVED_TWINS: dict[str, Callable[[], Claim]] = {
    S + "theorem3.ii.condition_needed": lambda: U.condition_needed_claim(
        tw("uematsu2013.needed"), costs=linear_costs(4), sizes=(2, 3)
    ),
}

NUMERIC_TWINS: dict[str, Callable[[], Claim]] = {
    S + "theorem4.without_extra_term_misorders": lambda: U.misorder_claim(tw("uematsu2013.misorder"), extra=True),
}

TWINS = {**REFUTED_TWINS, **PROVED_TWINS, **NUMERIC_TWINS}
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


def test_the_numeric_claim_is_confirmed_numerically_never_proved(verdicts):
    numeric = [c for c in CLAIMS if c.kind == "numeric"]
    assert [c.id for c in numeric] == [S + "theorem4.without_extra_term_misorders"]
    v = verdicts[numeric[0].id]
    assert v.status is Status.CONFIRMED_NUMERICALLY and v.evidence.margin > v.evidence.tolerance


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
