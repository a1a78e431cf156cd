"""Duchi, Mackey & Jordan (2010): every encoded claim agrees with the paper or is a recorded
erratum, and every claim has a negative twin (built with the module's own builders) that
the engine refutes with an exactly re-checked witness."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
import scipy.optimize  # noqa: F401  (imported once here: the forked workers inherit it)
import sympy

from symcal import all_sizes
from symcal.claims.core import Claim
from symcal.library import load_module
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, verdicts_by_id

D = load_module(Path(__file__).resolve().parents[2] / "theorems" / "duchi2010.py", "symcal_test_theorems_duchi2010")
CLAIMS: list[Claim] = D.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


def tw(claim_id: str) -> str:
    return claim_id + ".twin"


# claim id -> its negative twin, built with the module's builder functions.  Expected: refuted
# with a re-checked witness (numeric twins: unknown, since a numeric check never refutes).
REFUTED_TWINS: dict[str, Callable[[], Claim]] = {
    # a small kink (c = 1/2) added to the differentiable family breaks the corrected statement
    "duchi2010.theorem13.strictly_convex_r.corrected": lambda: D.theorem13_general_r_claim(
        tw("duchi2010.theorem13.strictly_convex_r.corrected"), ((F(1), F(0), F(0)), (F(1), F(0), F(1, 2))),
        statement="twin: a kinked r",
    ),
    "duchi2010.dag_count_bound": lambda: D.dag_count_claim(tw("duchi2010.dag_count_bound"), sizes=(1, 3), base=F(5, 2)),
    "duchi2010.dag_count_bound.large_m": lambda: D.dag_count_claim(
        tw("duchi2010.dag_count_bound.large_m"), sizes=(6, 7), base=F(5, 2), enumerate_too=False
    ),
    "duchi2010.definition8.difference_graph_is_dag": lambda: D.low_noise_dag_claim(
        tw("duchi2010.definition8"), slack=1, sizes=(3, 3)
    ),
    "duchi2010.lemma14": lambda: D.lemma14_claim(tw("duchi2010.lemma14"), slack=1, sizes=(3, 4)),
    "duchi2010.lemma14.proof.case_both_edges": lambda: D.step(
        tw("duchi2010.lemma14.both"), D.case_both_edges(strict=True), "d_ij > d_kj + d_ik", "q"
    ),
    "duchi2010.lemma14.proof.case_edge_ij_only": lambda: D.step(
        tw("duchi2010.lemma14.ij_only"), D.case_edge_ij_only(extra=1), "d_kj + 1 < d_ij", "q"
    ),
    "duchi2010.lemma14.proof.case_reverse_edge": lambda: D.step(
        tw("duchi2010.lemma14.reverse"), D.case_reverse_edge(extra=-1), "d_ji + d_ik <= d_jk - 1", "q"
    ),
    "duchi2010.lemma14.proof.case_tie.corrected": lambda: D.step(
        tw("duchi2010.lemma14.tie"), D.case_tie_corrected(extra=F(-1, 2)), "d_kj <= -1/2", "q"
    ),
    "duchi2010.lemma14.proof.per_node": lambda: D.step(
        tw("duchi2010.lemma14.per_node"), D.per_node(extra=F(1, 2)), "d_ij >= d_kj + 1/2", "q"
    ),
    "duchi2010.lemma14.proof.strict": lambda: D.lemma14_strict_claim(tw("duchi2010.lemma14.strict"), extra=1),
    "duchi2010.lemma16": lambda: D.lemma16_claim(tw("duchi2010.lemma16"), strict_back=True),
    "duchi2010.theorem13.eq15": lambda: D.theorem13_gradient_claim(
        tw("duchi2010.theorem13.eq15"), factor=1, sizes=(3, 3)
    ),
    "duchi2010.theorem13.eq15.unique_minimum": lambda: D.theorem13_unique_claim(
        tw("duchi2010.theorem13.unique"), scale=2, sizes=(3, 3)
    ),
    "duchi2010.theorem13.w_form": lambda: D.theorem13_w_form_claim(
        tw("duchi2010.theorem13.w_form"), sign=-1, sizes=(3, 3)
    ),
    "duchi2010.theorem13.eq16_iff_alpha_star_in_a.corrected": lambda: D.theorem13_iff_claim(
        tw("duchi2010.theorem13.iff"), strict=True, slack=1, sizes=(3, 3)
    ),
    "duchi2010.theorem13.neighbourhood": lambda: D.theorem13_neighbourhood_claim(
        tw("duchi2010.theorem13.neighbourhood"), half=1, sizes=(3, 3)
    ),
    "duchi2010.corollary15": lambda: D.corollary15_claim(tw("duchi2010.corollary15"), slack=1, sizes=(3, 4)),
    "duchi2010.lemma10.eq12a": lambda: D.eq12a_claim(tw("duchi2010.lemma10.eq12a"), extra=1),
    "duchi2010.lemma10.eq12b": lambda: D.eq12b_claim(tw("duchi2010.lemma10.eq12b"), extra=1),
    "duchi2010.lemma10.proof.g12_negative": lambda: D.g12_negative_claim(
        tw("duchi2010.lemma10.g12"), drop="g31_negative"
    ),
    "duchi2010.lemma10.proof.g23_negative": lambda: D.g23_negative_claim(
        tw("duchi2010.lemma10.g23"), drop="g31_negative"
    ),
    "duchi2010.lemma10.proof.bound_cond1": lambda: D.bound1_claim(tw("duchi2010.lemma10.bound1"), extra=-1),
    "duchi2010.lemma10.proof.bound_cond2": lambda: D.bound2_claim(tw("duchi2010.lemma10.bound2"), extra=-1),
    "duchi2010.lemma10.proof.sign_cond1": lambda: D.sign1_claim(tw("duchi2010.lemma10.sign1"), slack=1),
    "duchi2010.lemma10.proof.sign_cond2": lambda: D.sign2_claim(tw("duchi2010.lemma10.sign2"), slack=1),
    "duchi2010.lemma10.proof.cond1_form": lambda: D.cond_form_claim(tw("duchi2010.lemma10.cond1_form"), 1, slack=1),
    "duchi2010.lemma10.proof.cond2_form": lambda: D.cond_form_claim(tw("duchi2010.lemma10.cond2_form"), 2, slack=1),
    "duchi2010.lemma10.cond1": lambda: D.contradiction_claim(tw("duchi2010.lemma10.cond1"), 1, drop="cond1"),
    "duchi2010.lemma10.cond2": lambda: D.contradiction_claim(tw("duchi2010.lemma10.cond2"), 2, drop="cond2"),
    "duchi2010.section2_2.minimisers_ordered": lambda: D.ordered_minimisers_claim(
        tw("duchi2010.section2_2"), drop="a23_positive"
    ),
    "duchi2010.theorem11.low_noise.corrected": lambda: D.theorem11_low_noise_claim(
        tw("duchi2010.theorem11.low_noise"), a31_bound=True, a31_slack=F(1, 10)
    ),
    "duchi2010.theorem11.cond1": lambda: D.theorem11_cond1_claim(tw("duchi2010.theorem11.cond1"), eps_factor=4),
    "duchi2010.theorem11.instance": lambda: D.theorem11_instance_claim(
        tw("duchi2010.theorem11.instance"), {**D.THEOREM11_INSTANCE, "a31_G2": F(3)}
    ),
    "duchi2010.theorem12.low_noise": lambda: D.theorem12_low_noise_claim(
        tw("duchi2010.theorem12.low_noise"), (F(1, 4), F(1, 100), F(49, 100), F(1, 4))
    ),
    "duchi2010.theorem12.low_noise_tight": lambda: D.theorem12_tight_claim(
        tw("duchi2010.theorem12.tight"), (F(1, 4), F(1, 100), F(49, 100), F(1, 4))
    ),
    "duchi2010.theorem12.cond1": lambda: D.theorem12_cond1_claim(
        tw("duchi2010.theorem12.cond1"), (F(1, 4), F(1, 10), F(1, 2), F(3, 20))
    ),
    "duchi2010.section3_1.cossock_zhang": lambda: D.cossock_zhang_claim(
        tw("duchi2010.section3_1.cossock_zhang"), shift=F(-1, 10), sizes=(3, 3)
    ),
    "duchi2010.section3_1.order_preserving.weights": lambda: D.order_preserving_weights_claim(
        tw("duchi2010.section3_1.weights"), printed=(D.P_PI - D.P_HAT, D.W2 * D.P_PI - D.P_HAT, D.P_PI + D.P_HAT)
    ),
    "duchi2010.section3_1.order_preserving.w2_at_least_2": lambda: D.w2_at_least_2_claim(
        tw("duchi2010.section3_1.w2"), bound=2 + sympy.Rational(1, 10)
    ),
    "duchi2010.section3_1.order_preserving.no_fixed_w2": lambda: D.no_fixed_w2_claim(
        tw("duchi2010.section3_1.no_fixed_w2"), upper=sympy.Rational(2, 3) + sympy.Rational(1, 10)
    ),
    "duchi2010.lemma7.min_risk_is_feedback_arc_set": lambda: D.lemma7_claim(tw("duchi2010.lemma7"), offset=F(1, 7)),
    "duchi2010.lemma7.reduction": lambda: D.lemma7_reduction_claim(tw("duchi2010.lemma7.reduction"), weight_offset=1),
    "duchi2010.section3.regulariser_needed": lambda: D.regulariser_claim(
        tw("duchi2010.section3.regulariser"), nu=sympy.Rational(1, 2)
    ),
    # Lemma 16 with a_i > a_j demanded for back edges too; Lemma 7 with every arc set offset by 1/7
    "duchi2010.lemma16.all_weights": lambda: D.lemma16_all_weights_claim(
        tw("duchi2010.lemma16.all_weights"), strict_back=True, sizes=(3, 3)
    ),
    "duchi2010.lemma7.all_weights": lambda: D.lemma7_all_weights_claim(
        tw("duchi2010.lemma7.all_weights"), offset=F(1, 7)
    ),
    # edge-consistency over every p with a DAG difference graph: low noise, resp. (16), dropped
    **{
        f"duchi2010.corollary15.calibration.low_noise.m{m}": (
            lambda m=m: D.corollary15_whole_claim(
                tw(f"duchi2010.corollary15.calibration.low_noise.m{m}"), m, noise="dag"
            )
        )
        for m in (3, 4)
    },
    **{
        f"duchi2010.theorem13.calibration.dag_and_eq16.m{m}": (
            lambda m=m: D.theorem13_whole_claim(
                tw(f"duchi2010.theorem13.calibration.dag_and_eq16.m{m}"), m, noise="dag"
            )
        )
        for m in (3, 4)
    },
}

# all-size claims: the local lemma never refutes, so the twin is the perturbed node claim,
# which must be refuted per size and must not be proved for all sizes.
ALL_SIZE_TWINS: dict[str, Callable[[], Claim]] = {
    "duchi2010.lemma14.all_m": lambda: D.lemma14_claim(tw("duchi2010.lemma14.all_m"), slack=1, sizes=(3, 4)),
    "duchi2010.corollary15.all_m": lambda: D.corollary15_claim(
        tw("duchi2010.corollary15.all_m"), slack=1, sizes=(3, 4)
    ),
}

# claims the paper itself says are false: the twin adds a hypothesis that makes them true
PROVED_TWINS: dict[str, Callable[[], Claim]] = {
    "duchi2010.lemma14.converse": lambda: D.lemma14_converse_claim(
        tw("duchi2010.lemma14.converse"), with_low_noise=True, sizes=(3, 4)
    ),
    # the margin/pairwise hinge replaced by the value-regularised linear loss (14): edge-consistent
    # on the same graphs and the same low-noise distributions
    "duchi2010.theorem11.calibration.hinge": lambda: D.theorem11_whole_claim(
        tw("duchi2010.theorem11.calibration.hinge"), linear=True
    ),
    "duchi2010.theorem12.calibration.margin_hinge": lambda: D.theorem12_whole_claim(
        tw("duchi2010.theorem12.calibration.margin_hinge"), linear=True
    ),
    "duchi2010.theorem12.calibration.margin_hinge.paper_p": lambda: D.theorem12_whole_claim(
        tw("duchi2010.theorem12.calibration.margin_hinge.paper_p"), linear=True, paper_p=True
    ),
}

NO_MINIMISER_OUTSIDE = {"h12": F(1, 2), "h13": F(2), "h23": F(2), "h31": F(1, 20)}  # COND 1 and 2 fail
THEOREM12_COND1_FAILS = (F(3, 10), F(3, 10), F(7, 20), F(1, 20))
NUMERIC_TWINS: dict[str, Callable[[], Claim]] = {
    **{
        f"duchi2010.theorem11.minimiser_outside_a.{n}": (
            lambda n=n: D.minimiser_claim(
                tw(f"duchi2010.theorem11.numeric.{n}"),
                n,
                NO_MINIMISER_OUTSIDE,
                0.0,
                BY_ID["duchi2010.theorem11.instance"].citation,
                "an instance where COND 1 fails",
            )
        )
        for n in D.PHIS
    },
    **{
        f"duchi2010.theorem12.minimiser_outside_a.{n}": (
            lambda n=n: D.minimiser_claim(
                tw(f"duchi2010.theorem12.numeric.{n}"),
                n,
                D.theorem12_h(THEOREM12_COND1_FAILS),
                1.0,
                BY_ID["duchi2010.theorem12.cond1"].citation,
                "p = (.3, .3, .35, .05)",
            )
        )
        for n in D.PHIS
    },
}

TWINS = {**REFUTED_TWINS, **ALL_SIZE_TWINS, **PROVED_TWINS, **NUMERIC_TWINS}
TWIN_CLAIMS = {cid: build() for cid, build in TWINS.items()}
ALL_M_ONLY = {cid: all_sizes(TWIN_CLAIMS[cid], TWIN_CLAIMS[cid].id + "_all_m") for cid in ALL_SIZE_TWINS}


@pytest.fixture(scope="module")
def verdicts():
    return verdicts_by_id(CLAIMS)


@pytest.fixture(scope="module")
def twin_verdicts():
    ids = list(TWIN_CLAIMS) + [f"{cid}#all_m" for cid in ALL_M_ONLY]
    claims = list(TWIN_CLAIMS.values()) + list(ALL_M_ONLY.values())
    return dict(zip(ids, check_many(claims, jobs=2, timeout=30), strict=True))


def test_every_claim_agrees_with_the_paper_or_is_a_recorded_erratum(verdicts):
    wrong = disagreements(CLAIMS, verdicts)
    assert not wrong, "\n".join(wrong)


def test_each_erratum_is_refuted_with_a_rechecked_witness_and_its_correction_is_proved(verdicts):
    assert ERRATA == {
        "duchi2010.lemma14.proof.case_tie",
        "duchi2010.theorem13.eq16_iff_alpha_star_in_a",
        "duchi2010.theorem11.low_noise",
        "duchi2010.theorem13.strictly_convex_r",
    }
    for cid in ERRATA:
        v = verdicts[cid]
        assert refuted_with_rechecked_witness(v), cid
        assert BY_ID[cid].finding.corrected == cid + ".corrected"
        assert verdicts[cid + ".corrected"].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES), cid


def test_the_tie_case_erratum_is_the_three_node_graph_with_edges_1_to_2_and_3_to_2(verdicts):
    w = verdicts["duchi2010.lemma14.proof.case_tie"].witness
    nonzero = {k: v for k, v in w.values.items() if v != 0}
    assert w.size == 3 and nonzero == {"a[1,2]": 1, "a[3,2]": 1}


def test_theorem11s_erratum_is_witnessed_by_small_integer_weights_that_break_low_noise(verdicts):
    vals = {k: F(v) for k, v in verdicts["duchi2010.theorem11.low_noise"].witness.values.items()}
    b12, b13, b23, b31 = (vals[k] for k in ("a12_G1", "a13_G1", "a23_G2", "a31_G2"))
    assert b13 > b12 > 0 and b13 > b31 > 0 and 0 < b23 <= (b13 - b12) / 2
    a = D.expected_weights(D.theorem11_graphs(b12, b13, b23, b31), [F(1, 2), F(1, 2)])
    assert D.low_noise_violations(a, 3) == [(1, 2, 3)]


def test_numeric_claims_are_confirmed_numerically_never_proved(verdicts):
    numeric = [c for c in CLAIMS if c.kind == "numeric"]
    assert len(numeric) == 6
    for c in numeric:
        v = verdicts[c.id]
        assert v.status is Status.CONFIRMED_NUMERICALLY and v.evidence.margin > v.evidence.tolerance


def test_every_claim_has_a_negative_twin():
    assert set(TWINS) | ERRATA == set(BY_ID)


@pytest.mark.parametrize("cid", sorted(REFUTED_TWINS))
def test_the_negative_twin_is_refuted_with_a_rechecked_witness(cid, twin_verdicts):
    v = twin_verdicts[cid]
    assert v.status is Status.REFUTED, f"{cid}: {v.status.value} {v.reason[:200]}"
    assert refuted_with_rechecked_witness(v)


@pytest.mark.parametrize("cid", sorted(ERRATA))
def test_a_printed_erratum_is_its_own_negative_twin_refuted_with_a_rechecked_witness(cid, verdicts):
    v = verdicts[cid]
    assert refuted_with_rechecked_witness(v)


@pytest.mark.parametrize("cid", sorted(ALL_SIZE_TWINS))
def test_an_all_sizes_twin_is_refuted_per_size_and_not_proved_by_the_local_lemma(cid, twin_verdicts):
    v = twin_verdicts[cid]
    assert refuted_with_rechecked_witness(v)
    assert twin_verdicts[f"{cid}#all_m"].status is Status.UNKNOWN


@pytest.mark.parametrize("cid", sorted(PROVED_TWINS))
def test_a_claim_the_paper_calls_false_has_a_twin_that_is_proved_once_repaired(cid, twin_verdicts):
    assert BY_ID[cid].expected is Status.REFUTED
    assert twin_verdicts[cid].status in (Status.PROVED, Status.CONFIRMED_ON_SAMPLES)


@pytest.mark.parametrize("cid", sorted(NUMERIC_TWINS))
def test_a_numeric_twin_comes_back_unknown_because_numeric_checks_never_refute(cid, twin_verdicts):
    assert twin_verdicts[cid].status is Status.UNKNOWN


def test_the_local_dag_enumeration_gives_the_known_counts():
    assert [D.enumerated_dag_count(m) for m in range(1, 6)] == [1, 3, 25, 543, 29281]


def test_theorem12_is_low_noise_with_equality_and_satisfies_cond1_exactly():
    a = D.expected_weights(D.theorem12_graphs(F(1)), D.THEOREM12_P)
    assert a[(1, 3)] - a[(3, 1)] == a[(1, 2)] + a[(2, 3)] == F(13, 50)
    assert D.low_noise_violations(a, 3) == []
    assert D.theorem12_cond1_holds(D.THEOREM12_P)[0]


REFUTED_CALIBRATION = ("duchi2010.theorem11.calibration.hinge", "duchi2010.theorem12.calibration.margin_hinge",
                       "duchi2010.theorem12.calibration.margin_hinge.paper_p")


@pytest.mark.parametrize("cid", REFUTED_CALIBRATION)
def test_a_hinge_surrogate_is_refuted_at_an_exact_low_noise_distribution_rechecked_from_the_witness(cid, verdicts):
    from symcal.calibration import recheck_witness

    v = verdicts[cid]
    assert refuted_with_rechecked_witness(v)
    spec = BY_ID[cid].spec
    ok, why = recheck_witness(spec.loss(None), spec.surrogate(None), spec.link(None), v.witness,
                              noise=spec.noise(None))
    assert ok, why
    graphs = D.THEOREM11_GRAPHS if "theorem11" in cid else D.THEOREM12_GRAPHS
    p = [F(v.witness.values[f"p{t + 1}"]) for t in range(len(graphs))]
    a = D.expected_weights(graphs, p)
    assert D.low_noise_violations(a, 3) == [] and not D.has_cycle(D.difference_edges(a, 3), 3)


def test_theorem11s_counterexample_is_the_papers_uniform_distribution(verdicts):
    w = verdicts["duchi2010.theorem11.calibration.hinge"].witness
    assert (w.values["p1"], w.values["p2"]) == (F(1, 2), F(1, 2))


def test_theorem12s_printed_distribution_is_itself_an_exact_counterexample_for_the_margin_hinge(verdicts):
    w = verdicts["duchi2010.theorem12.calibration.margin_hinge.paper_p"].witness
    assert tuple(F(w.values[f"p{t}"]) for t in range(1, 5)) == D.THEOREM12_P
    assert w.values["optimal predictions"] == ["(1, 2, 3)"]


@pytest.mark.parametrize("cid", [c.id for c in D.corollary15_whole + D.theorem13_whole])
def test_the_linear_loss_is_proved_edge_consistent_over_every_distribution_of_its_noise_set(cid, verdicts):
    v = verdicts[cid]
    assert v.status is Status.PROVED and "(A) quadratic" in v.scope
