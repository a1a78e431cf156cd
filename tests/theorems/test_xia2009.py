"""Xia, Liu & Li (2009): every encoded claim agrees with the paper or is a recorded erratum;
every claim has a negative twin (built with the module's own builders) that comes back
refuted (numeric twins: not confirmed); nothing with exp/log is proved from samples."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
import scipy.optimize  # noqa: F401  (imported once here: the forked workers inherit it)
import sympy

from symcal import implies_cases
from symcal.claims.core import Claim
from symcal.library import load_module
from symcal.runner import check_many
from symcal.verdicts import Status
from tests.common.papers import disagreements, refuted_with_rechecked_witness, verdicts_by_id

X = load_module(Path(__file__).resolve().parents[2] / "theorems" / "xia2009.py", "symcal_test_theorems_xia2009")
CLAIMS: list[Claim] = X.CLAIMS
BY_ID = {c.id: c for c in CLAIMS}
ERRATA = {c.id for c in CLAIMS if c.finding is not None}


def tw(claim_id: str) -> str:
    return claim_id + ".twin"


TOP2_ORDER_PRESERVING = {"p_123": F(1, 2), "p_132": F(1, 4), "p_213": F(0), "p_231": F(0), "p_312": F(1, 4),
                         "p_321": F(0)}

REFUTED_TWINS: dict[str, Callable[[], Claim]] = {
    "xia2009.eq5.top_n_is_permutation_level": lambda: X.eq5_claim(
        tw("xia2009.eq5.top_n"), depth=lambda n: n - 2, sizes=(3, 3)),
    "xia2009.eq5.top_n_minus_1_is_permutation_level": lambda: X.eq5_claim(
        tw("xia2009.eq5.top_n_minus_1"), depth=lambda n: max(1, n - 2), sizes=(3, 3)),
    "xia2009.eq7.bayes_ranker": lambda: implies_cases(
        tw("xia2009.eq7"), cases=lambda n: X.bayes_cases(n, strict_argmax=True), sizes=(3, 3), domain="twin",
        cite=BY_ID["xia2009.eq7.bayes_ranker"].citation, statement="twin: strict argmax"),
    "xia2009.proposition4": lambda: implies_cases(
        tw("xia2009.proposition4"), cases=lambda n: X.proposition4_cases(n, k_shift=-1), sizes=(3, 3), domain="twin",
        cite=BY_ID["xia2009.proposition4"].citation, statement="twin: equal on top-(k-1) subgroups"),
    "xia2009.proposition5": lambda: implies_cases(
        tw("xia2009.proposition5"), cases=lambda n: X.proposition5_cases(n, flip=True), sizes=(3, 3), domain="twin",
        cite=BY_ID["xia2009.proposition5"].citation, statement="twin: derivative order flipped"),
    "xia2009.proposition8": lambda: implies_cases(
        tw("xia2009.proposition8"), cases=lambda n: X.proposition8_cases(n, down=-1), sizes=(3, 3), domain="twin",
        cite=BY_ID["xia2009.proposition8"].citation, statement="twin: k => k + 1"),
    "xia2009.proposition8.converse_fails": lambda: X.proposition8_converse_claim(
        tw("xia2009.proposition8.converse"), TOP2_ORDER_PRESERVING),
    "xia2009.proposition9": lambda: implies_cases(
        tw("xia2009.proposition9"), cases=lambda n: X.proposition9_cases(n, step=-1), sizes=(3, 3), domain="twin",
        cite=BY_ID["xia2009.proposition9"].citation, statement="twin: k => k - 1"),
    "xia2009.proposition9.example_strict": lambda: X.proposition9_example_claim(
        tw("xia2009.proposition9.example"), drop_prop4=True),
    "xia2009.theorem6.pair_set": lambda: X.theorem6_pairs_claim(tw("xia2009.theorem6.pairs"), drop_last=True,
                                                                sizes=(3, 3)),
    "xia2009.theorem6.most_probable_subgroup": lambda: implies_cases(
        tw("xia2009.theorem6.bayes"), cases=lambda n: X.theorem6_bayes_cases(n, weaken=True), sizes=(3, 3),
        domain="twin", cite=BY_ID["xia2009.theorem6.most_probable_subgroup"].citation,
        statement="twin: the first pair dropped"),
    "xia2009.theorem7.swap_identity": lambda: X.theorem7_identity_claim(tw("xia2009.theorem7.identity"), sign=-1,
                                                                        sizes=(3, 3)),
    "xia2009.listmle_topk.order_sensitive": lambda: X.listmle_os_claim(
        tw("xia2009.listmle_topk"), strict_all=True, sizes=(3, 3)),
    "xia2009.cosine.difference_identity": lambda: X.cosine_identity_claim(tw("xia2009.cosine.identity"), factor=2),
    "xia2009.cosine_modified.order_sensitive": lambda: X.cosine_os_claim(
        tw("xia2009.cosine_modified"), modified=False, sizes=(3, 3)),
    **{cid: (lambda cid=cid, name=name: X.not_os_claim(tw(cid), name, sign=-1, location="twin", quote="twin",
                                                       what="twin"))
       for cid, name in [("xia2009.listmle.not_top_k_order_sensitive", "listmle"),
                         ("xia2009.cosine.not_top_k_order_sensitive", "cosine"),
                         ("xia2009.listnet.not_top_k_order_sensitive", "listnet"),
                         ("xia2009.listnet_cao.not_top_k_order_sensitive", "listnet_cao")]},
    "xia2009.proposition10.corrected": lambda: X.prop10_range_claim(
        tw("xia2009.proposition10.corrected"), below=True, drop_range=True, pin=X.PROP10_WITNESS),
    "xia2009.proposition10.listmle_consistent_above_c": lambda: X.prop10_range_claim(
        tw("xia2009.proposition10.above_c"), below=False, flip=True, pin=X.PROP10_WITNESS),
    "xia2009.proposition10.listmle_meets_hypothesis": lambda: X.prop10_hypothesis_claim(
        tw("xia2009.proposition10.hypothesis"), flip=True),
    "xia2009.listnet.difference_identity": lambda: X.listnet_identity_claim(
        tw("xia2009.listnet.identity"), factor=2, sizes=(3, 3)),
    "xia2009.listnet_modified.order_sensitive": lambda: X.listnet_os_claim(
        tw("xia2009.listnet_modified"), modified=False, sizes=(3, 3)),
    "xia2009.proposition10.q_hessian_decomposition": lambda: X.prop10_decomposition_claim(
        tw("xia2009.proposition10.hessian"), drop_c=True),
    "xia2009.proposition10.q_strictly_convex": lambda: X.prop10_convex_claim(
        tw("xia2009.proposition10.convex"), drop_family=True),
    "xia2009.proposition10.q_coercive": lambda: X.prop10_coercive_claim(
        tw("xia2009.proposition10.coercive"), drop_family=True),
}

# further twins of the same claims (each must be refuted too)
EXTRA_TWINS: dict[str, Callable[[], Claim]] = {
    "listnet derivative pairing with the sign flipped": lambda: X.listnet_identity_claim(
        tw("xia2009.listnet.identity_derivative"), flip_derivative=True, sizes=(3, 3)),
}

NUMERIC_TWINS: dict[str, Callable[[], Claim]] = {
    "xia2009.theorem7.listmle_top1_n3": lambda: X.theorem7_numeric_claim(tw("xia2009.theorem7.n3"), 3, 1, 1,
                                                                         check_pair=(2, 1)),
    "xia2009.theorem7.listmle_top2_n4": lambda: X.theorem7_numeric_claim(tw("xia2009.theorem7.n4"), 4, 2, 2,
                                                                         check_pair=(2, 1)),
    "xia2009.listnet_modified.order_sensitive.library_at_points": lambda: X.sensitivity_numeric_claim(
        tw("xia2009.listnet_modified.library"), "listnet", 3, 1, 1, location="twin", quote="twin",
        what="original ListNet"),
    "xia2009.listnet_cao.permutation_level_order_sensitive": lambda: X.sensitivity_numeric_claim(
        tw("xia2009.listnet_cao"), "listnet_cao", 3, 1, 1, location="twin", quote="twin", what="Cao at depth 1"),
}

TWINS = {**REFUTED_TWINS, **NUMERIC_TWINS}
TWIN_CLAIMS = {cid: build() for cid, build in {**TWINS, **EXTRA_TWINS}.items()}


@pytest.fixture(scope="module")
def verdicts():
    return verdicts_by_id(CLAIMS)


@pytest.fixture(scope="module")
def twin_verdicts():
    return dict(zip(TWIN_CLAIMS, check_many(list(TWIN_CLAIMS.values()), jobs=2, timeout=30), strict=True))


def test_every_claim_agrees_with_the_paper_or_is_a_recorded_erratum(verdicts):
    wrong = disagreements(CLAIMS, verdicts)
    assert not wrong, "\n".join(wrong)


def test_proposition10_is_the_one_erratum_refuted_exactly_and_its_correction_is_proved(verdicts):
    assert ERRATA == {"xia2009.proposition10"}
    v = verdicts["xia2009.proposition10"]
    assert refuted_with_rechecked_witness(v)
    assert {k: F(str(val)) for k, val in v.witness.values.items()} == X.PROP10_WITNESS
    assert verdicts["xia2009.proposition10.corrected"].status is Status.PROVED


def test_every_claim_has_a_negative_twin():
    assert set(TWINS) | ERRATA == set(BY_ID)


@pytest.mark.parametrize("cid", sorted(REFUTED_TWINS) + sorted(EXTRA_TWINS))
def test_the_negative_twin_is_refuted_with_a_rechecked_witness(cid, twin_verdicts):
    v = twin_verdicts[cid]
    assert v.status is Status.REFUTED, f"{cid}: {v.status.value} {v.reason[:300]}"
    assert refuted_with_rechecked_witness(v)


@pytest.mark.parametrize("cid", sorted(NUMERIC_TWINS))
def test_a_numeric_twin_is_not_confirmed(cid, twin_verdicts):
    assert twin_verdicts[cid].status is Status.UNKNOWN


def test_numeric_claims_are_confirmed_numerically_never_proved(verdicts):
    numeric = [c for c in CLAIMS if c.kind == "numeric"]
    assert len(numeric) == 4
    for c in numeric:
        assert verdicts[c.id].status is Status.CONFIRMED_NUMERICALLY


def test_claims_about_exp_and_log_losses_are_proved_only_by_exact_reductions_or_certificates(verdicts):
    # the loss-level claims: z3 on polynomials in t = exp(g), or interval certificates at one exact point
    for cid in ("xia2009.listmle_topk.order_sensitive", "xia2009.cosine_modified.order_sensitive",
                "xia2009.listnet_modified.order_sensitive", "xia2009.proposition10.q_strictly_convex",
                "xia2009.proposition10.q_coercive",
                "xia2009.proposition10.corrected", "xia2009.proposition10.listmle_consistent_above_c"):
        assert BY_ID[cid].kind == "implies_cases"  # one z3 query per case, each kept as SMT-LIB evidence
        assert verdicts[cid].status is Status.PROVED
    for cid in ("xia2009.listnet.not_top_k_order_sensitive", "xia2009.listnet_cao.not_top_k_order_sensitive"):
        assert "interval" in BY_ID[cid].spec.domain


def test_the_proposition10_witness_is_the_numeric_minimiser_and_ranks_object_1_first():
    from symcal.ranking.listwise import PermutationDistribution, listmle, minimise_conditional_risk

    p1 = X.PROP10_WITNESS["p1"]
    p = PermutationDistribution({"123": p1, "213": (1 - p1) / 2, "321": (1 - p1) / 2})
    res = minimise_conditional_risk(p, listmle(3))
    g = [v - res.g[1] for v in res.g]
    assert g[0] == pytest.approx(math.log(487 / 210), abs=1e-6)
    assert g[2] == pytest.approx(math.log(17 / 140), abs=1e-6)
    assert res.top(1) == (1,)


@pytest.mark.parametrize(("p1", "first"), [(F(2, 5), 2), (F(52, 100), 2), (F(53, 100), 1), (F(9, 10), 1)])
def test_the_listmle_minimiser_switches_from_object_2_to_object_1_at_c(p1, first):
    from symcal.ranking.listwise import PermutationDistribution, listmle, minimise_conditional_risk

    p = PermutationDistribution({"123": p1, "213": (1 - p1) / 2, "321": (1 - p1) / 2})
    assert minimise_conditional_risk(p, listmle(3)).top(1) == (first,)
    assert (X.C_POLY.subs(X.P1, p1) > 0) == (first == 1)


def test_the_listnet_identity_is_proved_by_sympy_with_the_real_exp_and_log(verdicts):
    c = BY_ID["xia2009.listnet.difference_identity"]
    assert c.kind == "identity"
    lhs, _ = X.listnet_difference_sides(3)
    assert lhs.has(sympy.log) and lhs.has(sympy.exp)
    assert verdicts[c.id].status is Status.PROVED


@pytest.mark.parametrize("y", [(1, 2, 3), (3, 1, 2), (2, 3, 1)])
def test_the_symbolic_cross_entropy_is_the_library_listnet_loss(y):
    from symcal.ranking.listwise import listnet

    phi = listnet(3, 1)  # modified psi (3, 0, 0)
    g = [F(0), F(1), F(1, 2)]
    expr = X.cross_entropy_expr(X.position_scores([sympy.Integer(int(v)) for v in phi.psi], y),
                                [sympy.Rational(v.numerator, v.denominator) for v in g])
    enclosure = phi.value(g, y, arithmetic="interval")
    value = float(sympy.N(expr, 30))
    assert enclosure.a - 1e-12 <= value <= enclosure.b + 1e-12
    assert value == pytest.approx(phi.value(g, y), abs=1e-12)


def test_the_listnet_cases_cover_every_k_and_position_pattern():
    cases = X.listnet_os_cases(3)
    labels = [c[0] for c in cases]
    assert sum("a_pi = 0" in lab for lab in labels) == 1  # only k = 1, y = (3, 1, 2) keeps its subgroup
    assert sum("a_pi > 0" in lab for lab in labels) == 3 * 3 - 1
    assert len(cases) == 3 + 3 * 3


def test_the_proposition10_hessian_is_positive_definite_at_the_erratum_witness():
    h11, h13, h33 = X.prop10_hessian()
    w = {X.X: sympy.Rational(487, 210), X.Z: sympy.Rational(17, 140), X.P1: sympy.Rational(628, 833)}
    a, b, c = (sympy.nsimplify(h.subs(w)) for h in (h11, h13, h33))
    assert a > 0 and a * c - b ** 2 > 0
