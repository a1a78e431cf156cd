"""Section 4: Precision@q -- its two printed forms, the decomposition alpha_y = y, the certified
affine dimension r, top-q selection as pred*_P@q, and WTA = P@1."""

from __future__ import annotations

import random
from typing import Any

from symcal import finite_check
from symcal.ranking.loss_matrix import binary_relevance, permutations
from symcal.ranking.pred_maps import precision_objective, top_q
from symcal.ranking.subset_losses import precision_at_q_loss, precision_at_q_loss_by_positions, wta_loss

from .common import cite, decomposition_claim, fs, r_sizes, random_scores, rank_claim


def precision_forms_holds(r: int, *, q_shift: int = 0) -> tuple[bool, str]:
    """Both forms agree for every q, y in {0,1}^r and sigma (``q_shift`` moves q in one form: a twin)."""
    n = 0
    for q in range(1, r + 1):
        for y in binary_relevance(r):
            for s in permutations(r):
                n += 1
                a = precision_at_q_loss_by_positions(y, s, q)
                b = precision_at_q_loss(y, s, min(max(q + q_shift, 1), r))
                if a != b:
                    return False, f"q = {q}, y = {y}, sigma = {s}: {fs(a)} != {fs(b)}"
    return True, f"{n} (q, y, sigma) triples agree"


def precision_forms_claim(id: str, *, q_shift: int = 0) -> Any:
    """Section 4: "l_P@q(y, sigma) = 1 - (1/q) sum_{i<=q} y_{sigma^-1(i)} = 1 - (1/q) sum_i y_i
    1(sigma(i) <= q)"."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: precision_forms_holds(r, q_shift=q_shift),
        describe=lambda r: {"r": r}, domain="q in 1..r, y in {0,1}^r, S_r",
        cite=cite("Section 4", "l_P@q(y, sigma) = 1 - (1/q) sum_{i<=q} y_{sigma^-1(i)} "
                               "= 1 - (1/q) sum_i y_i 1(sigma(i) <= q)"),
        statement="the two printed forms of Precision@q agree on every label and permutation", sizes=r_sizes(2, 5),
    )


def precision_rank_claim(id: str, *, offset: int = 0) -> Any:
    """Section 4: "for the r-dimensional surrogate psi*_P@q ...": the affine dimension is exactly r."""
    return rank_claim(
        id, "precision", {"q": 2}, r_sizes(3, 5), "Section 4", "for the r-dimensional surrogate psi*_P@q ...",
        kind="affine dimension", bound=lambda r: r + offset, exact=True,
        statement="the P@2 loss matrix has certified affine dimension (Theorem 3's d) exactly r: the paper's r "
                  "dimensions are needed and enough")


def top_q_holds(r: int, *, bottom: bool = False) -> tuple[bool, str]:
    """Top-q selection attains max_sigma sum_i u_i 1(sigma(i) <= q) on 25 seeded integer u per r
    (``bottom`` selects the bottom q: a twin)."""
    rng = random.Random(40 + r)
    n = 0
    for _ in range(25):
        u = random_scores(r, rng, den=1, lo=-2, hi=2)  # small integers: ties are common
        for q in range(1, r + 1):
            sigma = top_q([-x for x in u] if bottom else u, q)
            best = max(precision_objective(u, s, q) for s in permutations(r))
            n += 1
            if precision_objective(u, sigma, q) != best:
                got = precision_objective(u, sigma, q)
                return False, f"u = {[fs(x) for x in u]}, q = {q}: top-q gives {fs(got)}, max {fs(best)}"
    return True, f"{n} (u, q) pairs: top-q selection attains the maximum over S_r"


def top_q_claim(id: str, *, bottom: bool = False) -> Any:
    """Section 4: "any permutation sigma which places the top q documents ... in the top q positions
    achieves the maximum in pred*_P@q(u)"."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: top_q_holds(r, bottom=bottom), describe=lambda r: {"r": r},
        sample='seeded score vectors',
        domain="25 seeded integer score vectors in [-2, 2]^r per r, every q, exhaustive over S_r",
        cite=cite("Section 4", "any permutation sigma which places the top q documents ... in the top q positions "
                               "achieves the maximum in pred*_P@q(u)"),
        statement="top-q selection maximises sum_i u_i 1(sigma(i) <= q) over S_r", sizes=r_sizes(2, 5),
    )


def wta_holds(r: int, *, q: int = 1) -> tuple[bool, str]:
    n = 0
    for y in binary_relevance(r):
        for s in permutations(r):
            n += 1
            if wta_loss(y, s) != precision_at_q_loss(y, s, min(q, r)):
                return False, f"y = {y}, sigma = {s}: WTA {wta_loss(y, s)} != P@{q} {precision_at_q_loss(y, s, q)}"
    return True, f"{n} (y, sigma) pairs"


def wta_claim(id: str, *, q: int = 1) -> Any:
    """Section 4: "the popular winner-take-all (WTA) loss ... is simply a special case of the above
    loss with q = 1" (``q`` = 2 is a twin)."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: wta_holds(r, q=q), describe=lambda r: {"r": r},
        domain="{0,1}^r x S_r",
        cite=cite("Section 4", "the popular winner-take-all (WTA) loss ... is simply a special case of the above "
                               "loss with q = 1"),
        statement=f"the WTA loss equals Precision@{q} on every label and permutation", sizes=r_sizes(2, 5),
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

precision_two_forms = precision_forms_claim("ramaswamy2013.precision.two_forms")
precision_decomposition = decomposition_claim(
    "ramaswamy2013.precision.decomposition", "precision", {"q": 2}, r_sizes(3, 6), "Section 4",
    "l_P@q(y, sigma) = 1 - (1/q) sum_i y_i 1(sigma(i) <= q); therefore, by Theorem 3, ... psi*_P@q(y, u) = "
    "sum_i (u_i - y_i)^2")
precision_rank = precision_rank_claim("ramaswamy2013.precision.rank")
precision_top_q = top_q_claim("ramaswamy2013.precision.pred_top_q")
wta_is_p1 = wta_claim("ramaswamy2013.wta.is_precision_at_1")
