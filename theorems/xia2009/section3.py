"""Section 3.2: the top-k true loss (5) at k = n (and n - 1) is the permutation-level 0-1 loss, and
the top-k Bayes ranker (7) is any permutation of the most probable top-k subgroup."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import sympy

from symcal import finite_check, implies_cases

from .common import cite, perms, simplex, subgroup_prob


def topk_loss(yhat: tuple[int, ...], y: tuple[int, ...], k: int) -> int:
    return 0 if yhat[:k] == y[:k] else 1


def eq5_holds(n: int, depth: Callable[[int], int]) -> tuple[bool, str]:
    """The top-k loss (ours and symcal.ranking's) equals the 0-1 loss on every pair (yhat, y)."""
    from symcal.ranking.listwise import topk_loss as library_loss

    k = depth(n)
    for yhat in perms(n):
        for y in perms(n):
            zero_one = 0 if yhat == y else 1
            if topk_loss(yhat, y, k) != zero_one or library_loss(yhat, y, k) != zero_one:
                return False, f"n = {n}, k = {k}: yhat = {yhat}, y = {y}"
    return True, f"n = {n}, k = {k}: {len(perms(n)) ** 2} pairs"


def eq5_claim(id: str, *, depth: Callable[[int], int], sizes: tuple[int, int] = (2, 6)) -> Any:
    """Eq. (5), Section 3.2: "When k equals the length of the entire ranked list, the top-k true loss
    will become exactly the permutation-level 0-1 loss." (``depth`` = n - 2 is a twin)."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda n: eq5_holds(n, depth), describe=lambda n: {"n": n, "k": depth(n)},
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
