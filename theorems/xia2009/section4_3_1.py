"""Section 4.3.1: top-k ListMLE (10) is top-k subgroup order sensitive -- an exact reduction to
polynomials in t = exp(g), decided by z3."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy

from symcal import Citation, identity, implies_cases

from .common import (
    cancel_positive,
    changes_subgroup,
    cite,
    listmle_gradient,
    luce_parts,
    perms,
    position_patterns,
    swap,
    t_symbols,
)

Case = tuple[str, dict[str, list[Any]], Any]


def _listmle_pattern_cases(t: Sequence[Any], y: tuple[int, ...], k: int, m: int, *, strict_all: bool) -> list[Case]:
    """Conditions (2) and (1) of Definition 3 for the Luce top-m loss at the position pattern y."""
    n = len(y)
    z = swap(y, 1, 2)
    ny, dy = luce_parts(t, y, m)
    nz, dz = luce_parts(t, z, m)
    # phi(g, y) - phi(g, sigma y) = log(P(sigma y) / P(y)) ; P = N / D, D > 0; the positive factors the two
    # products share (the t's and partial sums of both orderings) are cancelled: the same inequality, lower degree
    left, right = cancel_positive(nz * dy, ny * dz)
    if changes_subgroup(y, 1, 2, k) or strict_all:
        concl = left > right
    else:
        concl = sympy.Eq(sympy.expand(left - right), 0)
    # condition (1): phi(g, y) = phi(sigma g, sigma y), an exact identity in t
    ns, ds = luce_parts([t[1], t[0], *t[2:]], z, m)
    return [(f"n={n}, k={k}, y={y}: condition (2)", {"g1_below_g2": [t[0] < t[1]]}, concl),
            (f"n={n}, k={k}, y={y}: condition (1)", {}, sympy.Eq(sympy.expand(ny * ds - ns * dy), 0))]


def listmle_os_cases(n: int, *, depth: Callable[[int], int] | None = None, strict_all: bool = False,
                     ) -> list[Case]:
    """Cases of Definition 3 for the Luce top-m loss (m = depth(k), default k) judged at depth k."""
    t = t_symbols(n)
    cases: list[Case] = []
    for k in range(1, n + 1):
        m = depth(k) if depth else k
        ident = tuple(range(1, n + 1))
        # non-negativity: P <= 1, i.e. N <= D (every y is a relabelling of the identity)
        num, den = luce_parts(t, ident, m)
        cases.append((f"n={n}, k={k}: phi >= 0", {}, num <= den))
        for y in position_patterns(n):
            cases += _listmle_pattern_cases(t, y, k, m, strict_all=strict_all)
        # condition (3) at g_1 = g_2, witnessed by y = (1, 2, 3, ..., n)
        gap = listmle_gradient(t, swap(ident, 1, 2), m, 1) - listmle_gradient(t, ident, m, 1)
        cases.append((f"n={n}, k={k}: condition (3) at y={ident}", {"tie": [sympy.Eq(t[0], t[1])]},
                      sympy.together(gap) > 0))
    return cases


def listmle_os_claim(id: str, *, depth: Callable[[int], int] | None = None, strict_all: bool = False,
                     sizes: tuple[int, int] = (3, 5), expected: str | None = None, statement: str = "",
                     citation: Citation | None = None) -> Any:
    """Section 4.3.1, Eq. (10): "It can be proved that the modified loss is top-k subgroup order
    sensitive" (``strict_all`` demands strict inequality for every y: a twin)."""
    return implies_cases(
        id, cases=lambda n: listmle_os_cases(n, depth=depth, strict_all=strict_all), sizes=sizes,
        domain="k = 1..n; pair (1, 2) WLOG, positions (a, b) of objects 1, 2; t_i = exp(g_i) > 0",
        cite=citation or cite("Section 4.3.1, Eq. (10)", "It can be proved that the modified loss is top-k "
                                                             "subgroup order sensitive"),
        statement=statement or "top-k ListMLE (10) is top-k subgroup order sensitive: non-negative, (1), (2) with "
                               "strict inequality whenever the subgroup changes, (3)",
        expected=expected,
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

listmle_topk_order_sensitive = listmle_os_claim("xia2009.listmle_topk.order_sensitive")


# ---------------------------------------------------------------------------------------
# Eq. (10) is the top-k subgroup probability of the Luce model (footnote 2: a subgroup's probability
# is the sum of the probabilities of its permutations)
# ---------------------------------------------------------------------------------------


def subgroup_marginal_sides(n: int, *, truncate: bool = False) -> tuple[Any, Any]:
    """For every k = 1..n and y = (1, ..., n): sum over pi in G_k(y(1..k)) of the full Luce probability (9)
    against the product (10).  ``truncate`` stops (10)'s denominators at position k (the twin)."""
    t = t_symbols(n)
    y = tuple(range(1, n + 1))
    lhs, rhs = [], []
    for k in range(1, n + 1):
        total = sympy.Integer(0)
        for p in perms(n):
            if p[:k] == y[:k]:
                num, den = luce_parts(t, p, n)
                total += num / den
        lhs.append(total)
        if truncate:
            r = sympy.Integer(1)
            for s in range(k):
                r *= t[y[s] - 1] / sum(t[y[q] - 1] for q in range(s, k))
            rhs.append(r)
        else:
            num, den = luce_parts(t, y, k)
            rhs.append(num / den)
    return sympy.Matrix(lhs), sympy.Matrix(rhs)


def subgroup_marginal_claim(id: str, *, truncate: bool = False, sizes: tuple[int, int] = (3, 4)) -> Any:
    """Section 4.3.1, Eq. (10): "We propose replacing the permutation probability with the top-k subgroup
    probability (which is also defined with the Luce model [11])"."""
    sides: dict[int, tuple[Any, Any]] = {}

    def side(n: int, which: int) -> Any:
        if n not in sides:
            sides[n] = subgroup_marginal_sides(n, truncate=truncate)
        return sides[n][which]

    return identity(
        id,
        lambda n: side(n, 0),
        lambda n: side(n, 1),
        sizes=sizes,
        cite=cite("Section 4.3.1, Eq. (10)", "We propose replacing the permutation probability with the top-k "
                                             "subgroup probability (which is also defined with the Luce model)"),
        statement="(10) prod_{i=1}^k t_{y(i)} / sum_{s=i}^n t_{y(s)} is the Luce probability of the top-k subgroup "
                  "G_k(y(1), ..., y(k)): the sum of (9) over its permutations (t = exp(g), every k = 1..n)"
                  + (" [twin: denominators stopped at k]" if truncate else ""),
    )


eq10_subgroup_marginal = subgroup_marginal_claim("xia2009.eq10.subgroup_probability")
