"""Section 5: the ERU loss -- its decomposition, the certified affine dimension r, and the
sorting pred map (an erratum: right only for a half-life w > 1)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, implies
from symcal.ranking.loss_matrix import permutations
from symcal.ranking.pred_maps import eru_objective, respects_scores

from .common import F, cite, decomposition_claim, fs, r_sizes, rank_claim


def eru_rearrangement_claim(id: str, *, opposite: bool = False) -> Any:
    """The corrected ERU statement for every real u and every w != 1, by the rearrangement inequality: the discounts
    c_k = 2^((1 - k)/(w - 1)) decrease with the position k when w > 1 and increase when w < 1, so a sigma sorting u
    decreasingly (w > 1) or increasingly (w < 1) pairs the larger scores with the larger discounts.  Labels and
    positions ordered alike (u_1 >= ... >= u_r, c_1 >= ... >= c_r: every such pairing, relabelled): sum_i u_i c_i >=
    sum_i u_i c_sigma(i) for every sigma.  ``opposite`` orders c the other way (the twin)."""
    def symbols(r: int) -> tuple[list[Any], list[Any]]:
        return list(sympy.symbols(f"u1:{r + 1}", real=True)), list(sympy.symbols(f"c1:{r + 1}", real=True))

    def hyps(r: int) -> list[Any]:
        u, c = symbols(r)
        return ([a >= b for a, b in itertools.pairwise(u)]
                + [(b >= a) if opposite else (a >= b) for a, b in itertools.pairwise(c)])

    def conclusion(r: int) -> Any:
        u, c = symbols(r)
        best = sum(ui * ci for ui, ci in zip(u, c, strict=True))
        return sympy.And(*[best >= sum(u[i] * c[s[i] - 1] for i in range(r)) for s in permutations(r)])

    return implies(
        id,
        hypotheses={"similarly_ordered": hyps},
        conclusion=conclusion,
        sizes=r_sizes(2, 4),
        cite=cite("Section 5", "any permutation sigma satisfying u_i > u_j => sigma(i) < sigma(j) achieves the maximum "
                               "in pred*_ERU(u) [corrected: w > 1; for w < 1 sorted increasingly]"),
        statement=("for all real u_1 >= ... >= u_r and discounts c_1 >= ... >= c_r (2^((1 - k)/(w - 1)) for w > 1, or "
                   "the increasing discounts of w < 1 with the positions read backwards): sum_i u_i c_i >= "
                   "sum_i u_i c_sigma(i) for every sigma in S_r"
                   + (" [twin: c ordered oppositely]" if opposite else "")),
        scope="every real u and every monotone discount sequence (every w != 1), by relabelling",
    )

ERU_WS_PRINTED = (F(2), F(3, 2), F(0), F(1, 2))  # w in R: includes w < 1
ERU_WS_ABOVE_1 = (F(2), F(3, 2), F(4, 3), F(5, 4))


def eru_rank_claim(id: str, *, offset: int = 0) -> Any:
    """Section 5: "for the r-dimensional surrogate psi*_ERU ...": the affine dimension is exactly r."""
    return rank_claim(
        id, "eru", {"s": 2, "v": 1, "w": 2}, r_sizes(3, 4), "Section 5", "for the r-dimensional surrogate psi*_ERU ...",
        kind="affine dimension", bound=lambda r: r + offset, exact=True,
        statement="the ERU loss matrix (s = 2, v = 1, w = 2, z = r) has certified affine dimension exactly r")


def eru_sorting_holds(r: int, ws: Sequence[Fraction], *, reverse_below_1: bool) -> tuple[bool, str]:
    """Every sigma sorting u (decreasingly; increasingly for w < 1 when ``reverse_below_1``) attains
    max_sigma sum_i u_i 2^((1 - sigma(i))/(w - 1)), for u in {-1, 0, 1}^r and each w."""
    n = 0
    grid = [F(v) for v in (-1, 0, 1)]
    for w in ws:
        for u in itertools.product(grid, repeat=r):
            best = max(eru_objective(u, s, w) for s in permutations(r))
            descending = w > 1 or not reverse_below_1
            for s in permutations(r):
                if respects_scores(s, u if descending else [-x for x in u]):
                    n += 1
                    if eru_objective(u, s, w) != best:
                        return False, (f"w = {fs(w)}, u = {[fs(x) for x in u]}: sigma = {s} sorts u "
                                       f"{'decreasingly' if descending else 'increasingly'} but gives "
                                       f"{fs(eru_objective(u, s, w))} < max {fs(best)}")
    return True, f"{n} (w, u, sigma) triples with sigma sorted as claimed attain the maximum"


def eru_sorting_claim(id: str, ws: Sequence[Fraction], *, reverse_below_1: bool, statement: str,
                      finding: Finding | None = None) -> Any:
    """Section 5: "w in R is a constant indicating the viewing half-life ... any permutation sigma
    satisfying u_i > u_j => sigma(i) < sigma(j) achieves the maximum in pred*_ERU(u)"."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: eru_sorting_holds(r, ws, reverse_below_1=reverse_below_1),
        describe=lambda r: {"r": r, "w": [fs(w) for w in ws]},
        sample='a grid of u and a few w, of a statement for all real u and w',
        domain=f"u in {{-1, 0, 1}}^r, w in {{{', '.join(fs(w) for w in ws)}}}, exhaustive over S_r",
        cite=cite("Section 5", "w in R is a constant indicating the viewing half-life ... any permutation sigma "
                               "satisfying u_i > u_j => sigma(i) < sigma(j) achieves the maximum in pred*_ERU(u)"),
        statement=statement, sizes=r_sizes(2, 4), finding=finding,
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

eru_decomposition = decomposition_claim(
    "ramaswamy2013.eru.decomposition", "eru", {"s": 2, "v": 1, "w": 2}, r_sizes(3, 5), "Section 5",
    "l_ERU(y, sigma) = z - sum_i max(y_i - v, 0) 2^((1 - sigma(i))/(w - 1))")
eru_rank = eru_rank_claim("ramaswamy2013.eru.rank")
eru_sorting = eru_sorting_claim(
    "ramaswamy2013.eru.pred_sorting", ERU_WS_PRINTED, reverse_below_1=False,
    statement="for every w in R (w != 1) and u, every sigma with u_i > u_j => sigma(i) < sigma(j) maximises "
              "sum_i u_i 2^((1 - sigma(i))/(w - 1))",
    finding=Finding(
        what="The paper lets the half-life w range over R, but the sorting pred map is right only for w > 1: for "
             "w < 1 the discounts 2^((1 - k)/(w - 1)) increase with the position k, so the maximiser sorts the scores "
             "in increasing order (and w = 1 divides by zero).",
        counterexample="r = 2, w = 0 (discounts 2^0 = 1 at position 1, 2^1 = 2 at position 2), u = (-1, 0): the "
                       "decreasing sort sigma = (2, 1) gives 0*1 + (-1)*2 = -2 < -1 = (-1)*1 + 0*2.",
        corrected="ramaswamy2013.eru.pred_sorting.corrected",
        finding_class="hypothesis",
    ),
)
eru_sorting_all_u = eru_rearrangement_claim("ramaswamy2013.eru.pred_sorting.corrected.all_u")
eru_sorting_corrected = eru_sorting_claim(
    eru_sorting.finding.corrected, ERU_WS_PRINTED + ERU_WS_ABOVE_1[2:], reverse_below_1=True,
    statement="for w > 1 every sigma sorting u decreasingly maximises the ERU objective; for w < 1 every sigma "
              "sorting u increasingly does",
)
