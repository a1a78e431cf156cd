"""Section 4.3.3: ListNet's cross entropy (12) with the modified mapping psi is top-k subgroup order
sensitive -- a difference identity (sympy, with the real exp and log), then termwise polynomial
signs (z3) -- and symcal's concrete ListNet agrees at sampled points (exact at each point)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import sympy

from symcal import identity, implies_cases
from symcal.errors import invalid

from .common import (
    before,
    cancel_positive,
    changes_subgroup,
    cite,
    listmle_gradient,
    luce_parts,
    perms,
    pos,
    position_patterns,
    position_scores,
    swap,
    t_symbols,
)
from .section4_3 import sensitivity_sampled_claim

Case = tuple[str, dict[str, list[Any]], Any]


def log_luce_expr(scores: Sequence[Any], pi: tuple[int, ...]) -> Any:
    """log of the Luce probability of ordering ``pi`` under real scores (per object):
    sum_s [s_{pi(s)} - log sum_{r >= s} exp(s_{pi(r)})] (Eq. (9)), with sympy's exp and log."""
    n = len(pi)
    return sum(scores[pi[a] - 1] - sympy.log(sum(sympy.exp(scores[pi[r] - 1]) for r in range(a, n)))
               for a in range(n))


def cross_entropy_expr(psi_scores: Sequence[Any], g: Sequence[Any]) -> Any:
    """ListNet's loss (12): D(P(.; psi_y) || P(.; g)) = sum_pi P_psi(pi) (log P_psi(pi) - log P_g(pi))
    over the n! orderings (full Luce model on both sides, as in the paper)."""
    out: Any = 0
    for pi in perms(len(g)):
        lp = log_luce_expr(psi_scores, pi)
        out += sympy.exp(lp) * (lp - log_luce_expr(g, pi))
    return out


def cross_entropy_derivative(psi_scores: Sequence[Any], g: Sequence[Any], x: Any) -> Any:
    """d/dx of ListNet's loss (12) (:func:`cross_entropy_expr`) for a score symbol ``x`` of g, built term by term:
    each term is exp(log P_psi(pi)) (log P_psi(pi) - log P_g(pi)), whose first factor does not depend on g, so the
    product rule leaves exp(log P_psi(pi)) d/dx (log P_psi(pi) - log P_g(pi)).  This is the expression
    ``sympy.diff(cross_entropy_expr(psi_scores, g), x)`` builds (sympy differentiates a sum termwise and a product
    by the product rule), without sympy differentiating the psi factors it then discards (n = 4: 0.5 s -> 0.01 s
    per derivative; the tests compare the two at n = 3 and 4)."""
    if any(x in sympy.sympify(v).free_symbols for v in psi_scores):
        raise invalid("x", x, "a score symbol of g that psi's scores do not contain")
    terms = []
    for pi in perms(len(g)):
        lp = log_luce_expr(psi_scores, pi)
        terms.append(sympy.exp(lp) * sympy.diff(lp - log_luce_expr(g, pi), x))
    return sympy.Add(*terms)


def _pattern_sides(psi: list[Any], g: list[Any], y: tuple[int, ...], *, factor: Any,
                   flip_derivative: bool) -> tuple[list[Any], list[Any]]:
    """Identities (a), (b), (c) of ``listnet_difference_sides`` at the position pattern y."""
    n = len(y)
    e, sg = [sympy.exp(v) for v in g], [g[1], g[0], *g[2:]]
    y12 = [pi for pi in perms(n) if before(pi, 1, 2)]
    sy, sz = position_scores(psi, y), position_scores(psi, swap(y, 1, 2))
    w = [sympy.exp(v) for v in sy]
    a = {}
    for pi in y12:
        (n1, d1), (n2, d2) = luce_parts(w, pi, n), luce_parts(w, swap(pi, 1, 2), n)
        a[pi] = n1 / d1 - n2 / d2
    phi_y, phi_z = cross_entropy_expr(sy, g), cross_entropy_expr(sz, g)
    sign = -1 if flip_derivative else 1
    rhs = [factor * sum(a[pi] * (log_luce_expr(g, swap(pi, 1, 2)) - log_luce_expr(g, pi)) for pi in y12),
           sign * sum(a[pi] * (listmle_gradient(e, swap(pi, 1, 2), n, 1) - listmle_gradient(e, pi, n, 1))
                      for pi in y12),
           phi_y]
    return [phi_y - phi_z, cross_entropy_derivative(sz, g, g[0]) - cross_entropy_derivative(sy, g, g[0]),
            cross_entropy_expr(sz, sg)], rhs


@functools.lru_cache(maxsize=8)
def listnet_difference_sides(n: int, *, factor: Any = 1, flip_derivative: bool = False) -> tuple[Any, Any]:
    """For every position pattern y (objects 1 before 2) and tau = the swap of labels 1, 2:
    (a) phi(g, y) - phi(g, sigma y) = sum_{pi in Y_12} a_pi (log P_g(tau pi) - log P_g(pi)),
    (b) d phi(g, sigma y)/d g_1 - d phi(g, y)/d g_1 = sum_{pi in Y_12} a_pi (G_1(tau pi) - G_1(pi)),
    (c) phi(sigma g, sigma y) = phi(g, y)  (condition (1)),
    with a_pi = P_psi_y(pi) - P_psi_y(tau pi) (Luce probabilities with weights exp(psi)) and
    G_1 = ``listmle_gradient``, the derivative of -log P_g in g_1 used by the z3 cases.
    psi and g are symbolic reals (any psi, so every modified mapping is covered).
    ``factor`` / ``flip_derivative`` nudge the right-hand sides (twins)."""
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    psi = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, n + 1)), real=True))
    lhs, rhs = [], []
    for y in position_patterns(n):
        left, right = _pattern_sides(psi, g, y, factor=factor, flip_derivative=flip_derivative)
        lhs += left
        rhs += right
    return sympy.Matrix(lhs), sympy.Matrix(rhs)


def listnet_identity_claim(id: str, *, factor: Any = 1, flip_derivative: bool = False,
                           sizes: tuple[int, int] = (3, 4)) -> Any:
    """Eq. (12), Section 4.3.3: "phi(g(x), y) = D(P(pi|x; psi_y) || P(pi|x; g))" -- the pairing of its
    differences used by the order-sensitivity proof."""
    return identity(
        id,
        lambda n: listnet_difference_sides(n, factor=factor, flip_derivative=flip_derivative)[0],
        lambda n: listnet_difference_sides(n, factor=factor, flip_derivative=flip_derivative)[1],
        cite=cite("Eq. (12), Section 4.3.3", "phi(g(x), y) = D(P(pi|x; psi_y) || P(pi|x; g))"),
        statement="ListNet's cross entropy (12), any psi: phi(g, y) - phi(g, sigma y) = sum_{pi in Y_12} "
                  "(P_psi_y(pi) - P_psi_y(tau pi)) log(P_g(tau pi) / P_g(pi)), the same pairing for the "
                  "g_1-derivative, and phi(sigma g, sigma y) = phi(g, y) (condition (1)); every y in Y_12",
        sizes=sizes,
        scope="every position pattern y of objects 1, 2 (the others relabelled), symbolic real psi and g",
    )


def _g_side_cases(t: list[Any], n: int) -> list[Case]:
    """The g side: Luce probabilities sum to 1; g_1 < g_2 => P_g(tau pi) > P_g(pi); at g_1 = g_2,
    G_1(tau pi) > G_1(pi) (every pi in Y_12)."""
    y12 = [pi for pi in perms(n) if before(pi, 1, 2)]
    total = sum(num / den for num, den in (luce_parts(t, pi, n) for pi in perms(n)))
    g_side = []
    for pi in y12:
        (n1, d1), (n2, d2) = luce_parts(t, pi, n), luce_parts(t, swap(pi, 1, 2), n)
        g_side.append(n2 * d1 > n1 * d2)  # P_g(tau pi) > P_g(pi): the log factor is > 0
    tie_side = [sympy.together(listmle_gradient(t, swap(pi, 1, 2), n, 1) - listmle_gradient(t, pi, n, 1)) > 0
                for pi in y12]
    return [(f"n={n}: Luce probabilities sum to 1 (phi = KL >= 0 by Gibbs' inequality)", {},
             sympy.Eq(sympy.together(total), 1)),
            (f"n={n}: g_1 < g_2 => P_g(tau pi) > P_g(pi) for every pi in Y_12", {"g1_below_g2": [t[0] < t[1]]},
             sympy.And(*g_side)),
            (f"n={n}: g_1 = g_2 => G_1(tau pi) > G_1(pi) for every pi in Y_12", {"tie": [sympy.Eq(t[0], t[1])]},
             sympy.And(*tie_side))]


def _psi_side_case(u: list[Any], y: tuple[int, ...], k: int, top: int, order: list[Any]) -> Case:
    """The psi side at the pattern y: a_pi > 0 for every pi in Y_12 when the subgroup changes, = 0
    otherwise (weights u at the top ``top`` positions, u_0 below).  a_pi = n1/d1 - n2/d2 with positive
    denominators, so a_pi > 0 <=> n1 d2 > n2 d1; the factors the two products share (the numerator, the
    partial sums before both objects 1, 2 and after both) are positive and cancelled (:func:`cancel_positive`):
    the same inequality, of lower degree (n = 4: z3 needs 1 s for all 27 cases instead of 14 s)."""
    n = len(y)
    w = [u[pos(y, obj)] if pos(y, obj) <= top else u[0] for obj in range(1, n + 1)]
    parts = []
    for pi in (pi for pi in perms(n) if before(pi, 1, 2)):
        (n1, d1), (n2, d2) = luce_parts(w, pi, n), luce_parts(w, swap(pi, 1, 2), n)
        left, right = cancel_positive(n1 * d2, n2 * d1)
        if changes_subgroup(y, 1, 2, k):
            parts.append(left > right)  # a_pi > 0
        else:
            parts.append(sympy.Eq(sympy.expand(left - right), 0))  # a_pi = 0
    what = "a_pi > 0" if changes_subgroup(y, 1, 2, k) else "a_pi = 0"
    return f"n={n}, k={k}, y={y}: {what} for every pi in Y_12", {"psi_order": order}, sympy.And(*parts)


def listnet_os_cases(n: int, *, modified: bool = True) -> list[Case]:
    """The polynomial signs behind Definition 3 for ListNet with the modified psi (u = exp(psi):
    u_1 > ... > u_k > u_0 = exp(eps), positions below k get u_0); ``modified=False`` (a twin)
    uses the original strictly decreasing psi at every position, judged at depth k."""
    u = list(sympy.symbols(" ".join(f"u{s}" for s in range(n + 1)), positive=True))
    cases = _g_side_cases(t_symbols(n), n)
    for k in range(1, n + 1):
        top = k if modified else n
        order = [u[s] > u[s + 1] for s in range(1, top)] + ([u[top] > u[0]] if top < n else [])
        cases += [_psi_side_case(u, y, k, top, order) for y in position_patterns(n)]
    return cases


def listnet_os_claim(id: str, *, modified: bool = True, sizes: tuple[int, int] = (3, 4)) -> Any:
    """Section 4.3.3: "It can be proved that such a modification can make the surrogate loss function
    top-k subgroup order sensitive"."""
    return implies_cases(
        id, cases=lambda n: listnet_os_cases(n, modified=modified), sizes=sizes,
        domain="k = 1..n; pair (1, 2) WLOG, positions (a, b) of objects 1, 2; t = exp(g) > 0, u = exp(psi) > 0 "
               "symbolic with u_1 > ... > u_k > u_0 = exp(eps); with xia2009.listnet.difference_identity (sympy)",
        cite=cite("Section 4.3.3", "It can be proved that such a modification can make the surrogate loss "
                                       "function top-k subgroup order sensitive"),
        statement="ListNet (12) with the modified psi (top k decreasing, the rest eps) is top-k subgroup order "
                  "sensitive: phi = KL >= 0, (1), (2) strict whenever the subgroup changes and = otherwise, (3)",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

listnet_difference_identity = listnet_identity_claim("xia2009.listnet.difference_identity")
listnet_modified_order_sensitive = listnet_os_claim("xia2009.listnet_modified.order_sensitive")
listnet_modified_os = sensitivity_sampled_claim(
    "xia2009.listnet_modified.order_sensitive.library_at_points", "listnet_modified", 3, 1, 1,
    location="Section 4.3.3",
    quote="It can be proved that such a modification can make the surrogate loss function top-k subgroup order "
          "sensitive", what="symcal's concrete ListNet with the top-1 modified psi (3, 0, 0), a cross-check of the "
                            "library code against the exact proof,")
