"""Section 7, Eq. (1): the PD loss -- its decomposition, its rank (an erratum: r(r-1)/2 + 1, not
r(r-1)/2), the r(r-1)/2-dimensional surrogate that still exists, and pred*_PD as an exact
minimum weighted feedback arc set."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check
from symcal.claims.core import Sizes
from symcal.ranking.loss_matrix import LossMatrix, permutations, unit_dags
from symcal.ranking.noise_sets import expected_preferences
from symcal.ranking.pred_maps import argmin_linear, pd_objective, pd_pred_brute, pd_pred_fas
from symcal.ranking.subset_losses import pd_half_decomposition

from .common import (
    F,
    _named_loss,
    _psym,
    _rat,
    cite,
    decomposition_claim,
    describe_dist,
    expected_row,
    fs,
    r_sizes,
    random_dist,
    random_scores,
    rank_claim,
    risk_argmin,
)


def pd_matrix_of(r: int, labels: str) -> LossMatrix:
    return _named_loss("pd", r, (("labels", labels),)).matrix


def _pd_dists(r: int, seed: int, count: int, accept: Callable[[list], bool]) -> list[list]:
    """``count`` seeded distributions on the unit DAGs of r nodes that ``accept`` admits."""
    rng = random.Random(seed)
    labels = unit_dags(r)
    out = []
    tries = 0
    while len(out) < count and tries < 200 * count:
        tries += 1
        p = random_dist(labels, rng, max_support=4, den=5)
        if accept(p):
            out.append(p)
    return out


def pd_risks(p: list, r: int) -> dict[tuple[int, ...], Fraction]:
    """p^T l_sigma = sum_{i != j} E[Y_ij] 1(sigma(i) > sigma(j)) for every sigma."""
    a = expected_preferences(p)
    return {s: pd_objective(a, s, r) for s in permutations(r)}


def expected_preference_of_p(mat: LossMatrix, i: int, j: int) -> Any:
    """E[Y_ij] as a linear form in p1..pn (labels = the DAGs of the PD matrix)."""
    p = _psym(mat.shape[0])
    return sum((p[a] * _rat(y.weight(i, j)) for a, y in enumerate(mat.labels) if y.weight(i, j)), sympy.Integer(0))


def pd_rank_claim(id: str, *, offset: int = 0, exact: bool = False, kind: str = "rank", sizes: Sizes | None = None,
                  statement: str = "", finding: Finding | None = None, labels: str = "unit_dags") -> Any:
    """Section 7: "in fact the loss matrix l_PD has rank at most r(r-1)/2, allowing for an
    r(r-1)/2-dimensional surrogate"."""
    return rank_claim(
        id, "pd", {"labels": labels}, sizes or r_sizes(2, 4), "Section 7",
        "in fact the loss matrix l_PD has rank at most r(r-1)/2, allowing for an r(r-1)/2-dimensional surrogate",
        kind=kind, bound=lambda r: r * (r - 1) // 2 + offset, exact=exact,
        statement=statement or f"the PD loss matrix over {labels.replace('_', ' ')} has rank at most r(r-1)/2",
        finding=finding)


def _pd_offset_sample(mat: LossMatrix, dec: Any, p: list, *, sign: int, with_offset: bool) -> str | None:
    """Why the d-dimensional surrogate fails at p (None when it does not): its argmin is optimal and,
    without the offset, p^T l_t - p^T l_0 = (u^p)^T (beta_t - beta_0) for every t."""
    risks = expected_row(mat, p)
    opt, _best = risk_argmin(risks)
    idx = {y: a for a, y in enumerate(mat.labels)}
    up = [sign * sum((pr * dec.alpha_of(idx[y])[i] for y, pr in p), F(0)) for i in range(dec.d)]
    arg, _v = argmin_linear(up, dec)
    if not set(arg) <= opt:
        return f"p = {describe_dist(p)}: argmin u^T beta = {mat.predictions[arg[0]]} is not optimal"
    if not with_offset:  # differences between predictions are reproduced exactly
        base = sum((a * b for a, b in zip(up, dec.beta_of(0), strict=True)), F(0))
        for t in range(mat.shape[1]):
            val = sum((a * b for a, b in zip(up, dec.beta_of(t), strict=True)), F(0))
            if risks[t] - risks[0] != val - base:
                return "p^T l_t - p^T l_0 differs from (u^p)^T (beta_t - beta_0)"
    return None


def pd_offset_holds(r: int, *, with_offset: bool, labels: str, sign: int) -> tuple[bool, str]:
    """l_PD = sum_{i<j} y_ji + sum_{i<j} (y_ij - y_ji) 1(sigma(i) > sigma(j)) exactly, and the
    surrogate on the r(r-1)/2 coordinates (y_ij - y_ji) is optimal for 10 seeded p."""
    mat = pd_matrix_of(r, labels)
    if not pd_half_decomposition(mat, r, with_offset=True).check(mat).holds:
        return False, "the offset decomposition is not exact"
    dec = pd_half_decomposition(mat, r, with_offset=with_offset)
    rng = random.Random(70 + r)
    for _ in range(10):
        why = _pd_offset_sample(mat, dec, random_dist(mat.labels, rng, max_support=5), sign=sign,
                                with_offset=with_offset)
        if why is not None:
            return False, why
    return True, (f"{mat.name}: l = offset(y) + sum_{{i<j}} (y_ij - y_ji) 1(sigma(i) > sigma(j)) exactly; "
                  f"the d = {dec.d} surrogate's argmin is optimal for 10 seeded p")


def pd_offset_claim(id: str, *, with_offset: bool = False, labels: str = "unit_dags", sign: int = 1) -> Any:
    """Section 7: "allowing for an r(r-1)/2-dimensional surrogate" -- the r(r-1)/2 coordinates
    (y_ij - y_ji) carry every difference between predictions (``sign=-1`` flips alpha: a twin)."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: pd_offset_holds(r, with_offset=with_offset, labels=labels, sign=sign),
        describe=lambda r: {"r": r, "labels": labels},
        sample='seeded distributions',
        domain=f"PD over {labels.replace('_', ' ')}: every entry, 10 seeded p",
        cite=cite("Section 7", "allowing for an r(r-1)/2-dimensional surrogate"),
        statement="an r(r-1)/2-dimensional least-squares surrogate (alpha_y = (y_ij - y_ji)_{i<j}, beta = 1(sigma(i) > "
                  "sigma(j))) is calibrated for PD: the dropped term sum_{i<j} y_ji does not depend on sigma",
        sizes=r_sizes(2, 4),
    )


def pd_fas_holds(r: int, *, wrong_constant: bool = False) -> tuple[bool, str]:
    """On 10 seeded u the exact MWFAS order and value attain min over S_r (``wrong_constant`` drops
    sum_{i<j} min(u_ij, u_ji) twice: a twin)."""
    rng = random.Random(80 + r)
    pairs = [(i, j) for i in range(1, r + 1) for j in range(1, r + 1) if i != j]
    for _ in range(10):
        u = dict(zip(pairs, random_scores(len(pairs), rng, lo=-2, hi=3, den=2), strict=True))
        arg, best = pd_pred_brute(u, r)
        sigma, value, certified = pd_pred_fas(u, r)
        if wrong_constant:
            value -= sum((min(u[(i, j)], u[(j, i)]) for i, j in pairs if i < j), F(0))
        if not certified or value != best or pd_objective(u, sigma, r) != best or sigma not in arg:
            return False, f"MWFAS gives {sigma} with value {fs(value)}, the exact minimum is {fs(best)}"
    return True, "10 seeded u (entries of both signs): the exact MWFAS order attains min over S_r"


def pd_fas_claim(id: str, *, wrong_constant: bool = False) -> Any:
    """Section 7: "the optimization problem associated with computing pred*_PD(u) above is a minimum
    weighted feedback arc set (MWFAS) problem"."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: pd_fas_holds(r, wrong_constant=wrong_constant),
        describe=lambda r: {"r": r}, sample="seeded score vectors",
        domain="10 seeded u in [-2, 3]^{r(r-1)} per r, exhaustive over S_r",
        cite=cite("Section 7", "the optimization problem associated with computing pred*_PD(u) above is a minimum "
                               "weighted feedback arc set (MWFAS) problem"),
        statement="min_sigma sum u_ij 1(sigma(i) > sigma(j)) = MWFAS of the graph (u_ij - u_ji)_+ plus "
                  "sum_{i<j} min(u_ij, u_ji), and the MWFAS order attains it",
        sizes=r_sizes(3, 5),
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

pd_decomposition = decomposition_claim(
    "ramaswamy2013.pd.decomposition", "pd", {}, r_sizes(2, 4), "Section 7, Eq. (1)",
    "psi*_PD(y, u) = sum_i sum_{j != i} (u_ij - y_ij)^2, pred*_PD(u) in argmin sum u_ij 1(sigma(i) > sigma(j))")
pd_rank_bound = pd_rank_claim("ramaswamy2013.pd.rank_bound", finding=Finding(
    what="The PD loss matrix does not have rank at most r(r-1)/2: l_PD = sum_{i<j} y_ji + sum_{i<j} (y_ij - y_ji) "
         "1(sigma(i) > sigma(j)) has a label-dependent offset, and over all unit DAGs both the rank and Theorem 3's "
         "d are r(r-1)/2 + 1 (certified for r = 2..5). An r(r-1)/2-dimensional calibrated surrogate still exists, "
         "because the offset does not depend on sigma.",
    counterexample="r = 2, labels {}, {1->2}, {2->1}: L = [[0, 0], [0, 1], [1, 0]] has rank 2 > 1 (and no constant c "
                   "gives rank(L - c J) = 1).",
    corrected="ramaswamy2013.pd.rank_bound.corrected",
    finding_class="statement",
))
pd_rank_corrected = pd_rank_claim(
    pd_rank_bound.finding.corrected, offset=1, exact=True,
    statement="over all unit DAGs the PD loss matrix has certified rank exactly r(r-1)/2 + 1")
pd_affine_corrected = pd_rank_claim(
    "ramaswamy2013.pd.affine_dimension", offset=1, exact=True, kind="affine dimension",
    statement="over all unit DAGs the PD loss matrix has certified affine dimension (Theorem 3's d) exactly "
              "r(r-1)/2 + 1")
pd_total_orders = pd_rank_claim(
    "ramaswamy2013.pd.total_orders_affine", exact=True, kind="affine dimension", labels="total_orders",
    sizes=r_sizes(3, 4),
    statement="over total orders (constant total weight) the PD loss matrix has affine dimension exactly r(r-1)/2: "
              "the bound holds for Theorem 3's d there")
pd_half_surrogate = pd_offset_claim("ramaswamy2013.pd.half_dimensional_surrogate")
pd_mwfas = pd_fas_claim("ramaswamy2013.pd.pred_is_mwfas")
