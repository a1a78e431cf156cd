"""What every section of Uematsu & Lee (2013) shares: the citation helper, the symbols (posteriors
p_k, costs c_ji, densities g_k(x), thresholds theta_j), the cost schemes satisfying Theorem 3's
condition, and the finite instance spaces on which Theorem 3 and its relatives are checked."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation, identity
from symcal.claims.core import Claim
from symcal.ranking.costs import CostScheme
from symcal.ranking.multipartite import FiniteInstanceSpace, optimal_scores, random_space

PAPER = "uematsu2013"
F = Fraction
R = sympy.Rational
HALF = R(1, 2)
MINUS_HALF = R(-1, 2)
E_SQUARED = sympy.exp(2)


def cite(location: str, quote: str) -> Citation:
    """The paper's citation at ``location``, quoting it in one line."""
    return Citation(PAPER, location, quote)


def identity_of_sides(id: str, sides: Callable[[int], tuple[Any, Any]], **kwargs: Any) -> Claim:
    """``identity`` of the two sides ``sides(m)`` returns, for each size m."""
    return identity(id, lambda m: sides(m)[0], lambda m: sides(m)[1], **kwargs)


def twin_id(claim_id: str) -> str:
    """The id of a negative twin (theorems/README.md, section 5)."""
    return claim_id + ".twin"


# ---------------------------------------------------------------------------------------
# Symbols
# ---------------------------------------------------------------------------------------


@functools.cache
def sym(name: str, **assumptions: Any) -> sympy.Symbol:
    """One sympy symbol per name and assumptions (cached, so every section shares it)."""
    return sympy.Symbol(name, **assumptions)


def P(k: int) -> sympy.Symbol:
    """p_k = P(Y = k | x)."""
    return sym(f"p_{k}", real=True)


def pvec(K: int) -> list[sympy.Symbol]:
    """(p_1, ..., p_K)."""
    return [P(k) for k in range(1, K + 1)]


def on_simplex(e: Any, K: int) -> Any:
    """Substitute p_K = 1 - p_1 - ... - p_{K-1}."""
    return sympy.sympify(e).subs(P(K), 1 - sum(pvec(K - 1)))


def cs(j: int, i: int) -> Any:
    """Generic positive cost c_ji (c_jj = 0)."""
    return sympy.Integer(0) if j == i else sym(f"c_{j}_{i}", positive=True)


def condition_costs(K: int) -> Callable[[int, int], Any]:
    """Costs satisfying Theorem 3's condition: c_ji for 2 <= j < i <= K-1 replaced by
    (c_1i c_jK - c_1j c_iK) / c_1K."""

    def c(j: int, i: int) -> Any:
        if j == i:
            return sympy.Integer(0)
        if j >= 2 and i <= K - 1:
            return (cs(1, i) * cs(j, K) - cs(1, j) * cs(i, K)) / cs(1, K)
        return cs(j, i)

    return c


def pi(k: int) -> sympy.Symbol:
    """pi_k = P(Y = k)."""
    return sym(f"pi_{k}", positive=True)


def gx(k: int) -> sympy.Symbol:
    """g_k(x), the density of X in category k at x."""
    return sym(f"gx_{k}", positive=True)


def gy(k: int) -> sympy.Symbol:
    """g_k(x'), the density of X in category k at x'."""
    return sym(f"gy_{k}", positive=True)


ZS = sym("Z", positive=True)  # P(Y > Y')


def pairs(K: int) -> list[tuple[int, int]]:
    """The pairs (j, i) with 1 <= j < i <= K."""
    return [(j, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)]


def ws(K: int) -> tuple[list[Any], list[Any]]:
    """The weights w_k and the scale s_k of Corollary 1."""
    return (
        [sym(f"w_{k}", positive=True) for k in range(1, K + 1)],
        [sym(f"s_{k}", real=True) for k in range(1, K + 1)],
    )


TT = sym("t", real=True)  # the value t = f(x) of Section 4


def theta(j: int) -> sympy.Symbol:
    """The threshold theta_j of ordinal regression."""
    return sym(f"theta_{j}", real=True)


def u(j: int) -> sympy.Symbol:
    """u_j = exp(theta_j) > 0, so that ORBoost's exponentials become rational."""
    return sym(f"u_{j}", positive=True)  # u_j = exp(theta_j)


# ---------------------------------------------------------------------------------------
# Finite instance spaces (Theorem 3, Corollary 1, Theorem 4 on pmfs)
# ---------------------------------------------------------------------------------------


def simple_posteriors(K: int) -> list[tuple[Fraction, ...]]:
    """Posterior vectors with denominators 1 and 2."""
    out = []
    for a in range(K):
        out.append(tuple(F(1) if k == a else F(0) for k in range(K)))
    for a, b in itertools.combinations(range(K), 2):
        out.append(tuple(F(1, 2) if k in (a, b) else F(0) for k in range(K)))
    return out


def defined(space: FiniteInstanceSpace, costs: CostScheme) -> bool:
    """f_0^* is not 0/0 at any point."""
    return all(N != 0 or M != 0 for N, M in optimal_scores(space, costs))


def instances(K: int, m: int, n_random: int, seed: int) -> Iterator[FiniteInstanceSpace]:
    """Small structured instances first (posteriors with denominators 1, 2, uniform marginal),
    then seeded random ones with small denominators."""
    if m == 2 and K <= 4:
        for a, b in itertools.combinations(simple_posteriors(K), 2):
            try:
                yield FiniteInstanceSpace((F(1, 2), F(1, 2)), (a, b))
            except Exception:
                continue
    rng = random.Random(seed * 1000 + m * 10 + K)
    for t in range(n_random):
        yield random_space(m, K, rng, den=3 + t % 4, positive=t % 3 != 0)


def defined_cases(schemes: list[CostScheme], m: int, n_random: int, seed: int) -> Iterator[Any]:
    """(costs, space) for every scheme and every instance space of m points on which f_0^* is defined."""
    for costs in schemes:
        for space in instances(costs.K, m, n_random, seed=seed):
            if defined(space, costs):
                yield costs, space


def corollary1_schemes(K: int, count: int, seed: int, *, w_min: int = 0) -> list[CostScheme]:
    """``count`` seeded Corollary 1 schemes w_i w_j (s_i - s_j), w in {w_min..2}, s increasing integers."""
    rng = random.Random(seed + K)
    out = []
    for _ in range(count):
        w = [rng.randint(w_min, 2) for _ in range(K)]
        s = sorted(rng.sample(range(0, 3 * K), K))
        out.append(
            CostScheme(K, {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)}, f"w={w}, s={s}")
        )
    return out


# instances per size m
N_RANDOM = {2: 6, 3: 6, 4: 4, 5: 2, 6: 1}


def describe_case(case: Any) -> dict[str, Any]:
    """A (costs, instance space) case as JSON for a witness."""
    costs, space = case
    return {"costs": str(costs), **space.to_json()}
