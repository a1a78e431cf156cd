"""Section 3.2: the top-k true loss (5) at k = n (and n - 1) is the permutation-level 0-1 loss, and
the top-k Bayes ranker (7) is any permutation of the most probable top-k subgroup."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import sympy

from symcal import finite_check, implies_cases

from .common import cite, perms, simplex, subgroup_prob


def topk_loss(yhat: tuple[int, ...], y: tuple[int, ...], k: int) -> int:
    return 0 if yhat[:k] == y[:k] else 1


@functools.cache
def _eq5_statement(n: int) -> tuple[list[Any], tuple[sympy.Symbol, ...], tuple[sympy.Symbol, ...], sympy.Symbol,
                                     sympy.Symbol]:
    """Eq. (5) against (2) over symbols: yhat_t, y_t the objects at position t, k, and the value of
    symcal.ranking's ``topk_loss`` (built once per n)."""
    yhat = tuple(sympy.Symbol(f"yhat_{t}") for t in range(1, n + 1))
    y = tuple(sympy.Symbol(f"y_{t}") for t in range(1, n + 1))
    k, library = sympy.Symbol("k"), sympy.Symbol("library_topk_loss")
    # (5): 0 iff yhat(t) = y(t) for t = 1..k (the same top-k subgroup), else 1
    same_top_k = sympy.And(*[sympy.Or(t > k, sympy.Eq(a, b)) for t, (a, b) in enumerate(zip(yhat, y, strict=True), 1)])
    top_k = sympy.Piecewise((0, same_top_k), (1, True))
    # (2): 0 iff yhat = y, else 1
    zero_one = sympy.Piecewise((0, sympy.And(*[sympy.Eq(a, b) for a, b in zip(yhat, y, strict=True)])), (1, True))
    # (5) = library = (2): the statement (5) = (2), with the library's value checked against both on the way
    return [sympy.Eq(top_k, library), sympy.Eq(library, zero_one)], yhat, y, k, library


def eq5_formula(case: tuple[int, int, tuple[int, ...], tuple[int, ...]]) -> tuple[list[Any], dict[Any, Any]]:
    """At one pair of orderings (yhat, y) of n objects and the depth k: the top-k loss (5) equals the 0-1 loss (2),
    through the value of symcal.ranking's ``topk_loss`` (a cross-check of the library, pinned by both formulas)."""
    from symcal.ranking.listwise import topk_loss as library_loss

    n, k, yhat, y = case
    conds, yhat_s, y_s, k_s, library = _eq5_statement(n)
    return conds, {k_s: k, library: library_loss(yhat, y, k), **dict(zip(yhat_s, yhat, strict=True)),
                   **dict(zip(y_s, y, strict=True))}


def eq5_cases(n: int | None, depth: Callable[[int], int]) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """Every pair (yhat, y) of orderings of n objects, with k = depth(n)."""
    assert n is not None, "Eq. (5) is checked per size n"
    return [(n, depth(n), yhat, y) for yhat in perms(n) for y in perms(n)]


def eq5_claim(id: str, *, depth: Callable[[int], int], sizes: tuple[int, int] = (2, 6)) -> Any:
    """Eq. (5), Section 3.2: "When k equals the length of the entire ranked list, the top-k true loss
    will become exactly the permutation-level 0-1 loss." (``depth`` = n - 2 is a twin).  One case per
    pair (yhat, y) of orderings, stated over their entries (``eq5_formula``)."""
    return finite_check(
        id, cases=lambda m: eq5_cases(m, depth), formula=eq5_formula,
        describe=lambda c: {"n": c[0], "k": c[1], "yhat": list(c[2]), "y": list(c[3])},
        domain="all pairs (yhat, y) of permutations of n objects",
        cite=cite("Eq. (5), Section 3.2", "When k equals the length of the entire ranked list, the top-k true loss "
                                         "will become exactly the permutation-level 0-1 loss."),
        statement="the top-k true loss (5) at this k equals the permutation-level 0-1 loss (2) for every pair",
        sizes=sizes,
    )


def bayes_cases(n: int, *, strict_argmax: bool = False) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """For each k: (R_k(id) <= R_k(yhat) for all yhat) <=> (P(G_k(1..k)) >= P(G) for all G).
    ``strict_argmax`` (a twin) replaces >= by > on the right."""
    p, simp = simplex(n)
    cases = []
    for k in range(1, n + 1):
        ident = tuple(range(1, n + 1))

        def risk(yhat: tuple[int, ...], k: int = k) -> Any:
            return sum(v * topk_loss(yhat, y, k) for y, v in p.items())

        top = subgroup_prob(p, ident[:k])
        others = [key for key in itertools.permutations(range(1, n + 1), k) if key != ident[:k]]
        minimal = sympy.And(*[risk(ident) <= risk(yh) for yh in perms(n) if yh != ident])
        rel = (lambda a, b: a > b) if strict_argmax else (lambda a, b: a >= b)
        argmax = sympy.And(*[rel(top, subgroup_prob(p, key)) for key in others])
        cases.append((f"n={n}, k={k}", {"simplex": simp}, sympy.Equivalent(minimal, argmax)))
    return cases


def bayes_claim(id: str, *, strict_argmax: bool = False, sizes: tuple[int, int] = (3, 4)) -> Any:
    """Eq. (7), Section 3.2: "the top-k Bayes ranker is any permutation in the top-k subgroup having
    the highest probability"."""
    return implies_cases(
        id, cases=lambda n: bayes_cases(n, strict_argmax=strict_argmax), sizes=sizes,
        domain="k = 1..n, p_y real variables on the simplex",
        cite=cite("Eq. (7), Section 3.2", "the top-k Bayes ranker is any permutation in the top-k subgroup having "
                                              "the highest probability"),
        statement="a permutation minimises the conditional top-k risk iff its top-k subgroup has maximal probability",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

eq5_top_n = eq5_claim("xia2009.eq5.top_n_is_permutation_level", depth=lambda n: n, sizes=(2, 5))
eq5_top_n_minus_1 = eq5_claim("xia2009.eq5.top_n_minus_1_is_permutation_level", depth=lambda n: n - 1,
                              sizes=(2, 5))
eq7_bayes_ranker = bayes_claim("xia2009.eq7.bayes_ranker")
