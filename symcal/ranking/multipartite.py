"""Multipartite ranking on a finite instance space: the exact ranking risk, weak orders and
the optimal ranking function f_0^* of Uematsu & Lee (2013), Theorem 3.

A finite instance space has points ``x_1..x_m`` with a marginal ``P(X = x_a)`` and
posteriors ``P(Y = k | x_a)`` (k = 1..K).  Two independent copies ``(X, Y), (X', Y')`` are
drawn; the risk of a ranking ``f`` under costs ``c`` is (Section 3, after Eq. (5))

    R_0(f; c) = sum_{j<i} c_ji [P(f(X) < f(X') | i, j) + 1/2 P(f(X) = f(X') | i, j)]
                    P(Y = i, Y' = j) / P(Y > Y'),

computed exactly with Fractions (ties count 1/2, including the pair of a point with itself).
``R_0`` depends on ``f`` only through the weak order it induces, so a ranking is a tuple of
levels (higher level = ranked higher) and the exhaustive search runs over the ordered set
partitions of the m points (Fubini numbers 1, 3, 13, 75, 541, 4683, 47293, ...).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction
from symcal.ranking.costs import CostScheme, satisfies_theorem3_condition

__all__ = [
    "FiniteInstanceSpace",
    "weak_orders",
    "fubini",
    "levels_from_scores",
    "PairTable",
    "pair_table",
    "ranking_risk",
    "optimal_scores",
    "optimal_levels",
    "Theorem3Check",
    "check_theorem3",
    "respects_strict_order",
    "search_counterexample",
    "random_space",
    "surrogate_pair_weights",
]


def _prob_vector(values: Any, where: str, length: int | None = None) -> tuple[Fraction, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise invalid(where, values, "a list of exact probabilities")
    if length is not None and len(values) != length:
        raise invalid(where, f"{len(values)} entries", f"{length} entries")
    out = tuple(to_fraction(v, f"{where}[{k}]") for k, v in enumerate(values, start=1))
    for k, v in enumerate(out, start=1):
        if v < 0:
            raise invalid(f"{where}[{k}]", fraction_str(v), "a probability >= 0")
    if sum(out) != 1:
        raise invalid(
            where,
            [fraction_str(v) for v in out],
            f"probabilities summing to 1 (they sum to {fraction_str(sum(out, Fraction(0)))})",
        )
    return out


@dataclass(frozen=True)
class FiniteInstanceSpace:
    """Points ``x_1..x_m`` with ``marginal[a] = P(X = x_a)`` and ``posteriors[a][k-1] =
    P(Y = k | X = x_a)``; every number exact."""

    marginal: tuple[Fraction, ...]
    posteriors: tuple[tuple[Fraction, ...], ...]

    def __post_init__(self) -> None:
        marg = _prob_vector(self.marginal, "marginal")
        if not isinstance(self.posteriors, Sequence) or isinstance(self.posteriors, str | bytes):
            raise invalid("posteriors", self.posteriors, "one row P(Y = . | x) per point")
        if len(self.posteriors) != len(marg):
            raise invalid("posteriors", f"{len(self.posteriors)} rows", f"one row per point ({len(marg)} points)")
        rows = [self.posteriors[a] for a in range(len(marg))]
        if not rows:
            raise invalid("marginal", [], "at least one point")
        K = len(rows[0]) if isinstance(rows[0], Sequence) else 0
        if K < 2:
            raise invalid("posteriors[1]", rows[0], "K >= 2 posteriors P(Y = k | x)")
        post = tuple(_prob_vector(r, f"posteriors[{a}]", K) for a, r in enumerate(rows, start=1))
        object.__setattr__(self, "marginal", marg)
        object.__setattr__(self, "posteriors", post)
        pi = self.label_probs
        if sum(pi[a] * pi[b] for a in range(K) for b in range(a + 1, K)) == 0:
            raise invalid(
                "posteriors",
                "one label only",
                "at least two labels with positive probability (else P(Y > Y') = 0 and R_0 is undefined)",
            )

    @classmethod
    def from_joint(cls, joint: Sequence[Sequence[Any]]) -> FiniteInstanceSpace:
        """From ``joint[a][k-1] = P(X = x_a, Y = k)`` (exact, summing to 1); points of mass 0
        get the uniform posterior (they never matter)."""
        if isinstance(joint, str | bytes) or not isinstance(joint, Sequence) or any(
            isinstance(r, str | bytes) or not isinstance(r, Sequence) or not r for r in joint
        ):
            raise invalid("joint", joint, "rows joint[a] = [P(X = x_a, Y = 1), ..., P(X = x_a, Y = K)]")
        rows = [
            [to_fraction(v, f"joint[{a}][{k}]") for k, v in enumerate(r, start=1)] for a, r in enumerate(joint, start=1)
        ]
        marg = [sum(r, Fraction(0)) for r in rows]
        post = [[v / ma for v in r] if ma else [Fraction(1, len(r))] * len(r) for r, ma in zip(rows, marg, strict=True)]
        return cls(tuple(marg), tuple(tuple(r) for r in post))

    @property
    def m(self) -> int:
        return len(self.marginal)

    @property
    def K(self) -> int:
        return len(self.posteriors[0])

    def joint(self, a: int, k: int) -> Fraction:
        """``P(X = x_a, Y = k)`` for a point index ``a`` (0-based) and label ``k`` (1-based)."""
        return self.marginal[a] * self.posteriors[a][k - 1]

    @property
    def label_probs(self) -> tuple[Fraction, ...]:
        return tuple(
            sum((self.marginal[a] * self.posteriors[a][k] for a in range(len(self.marginal))), Fraction(0))
            for k in range(len(self.posteriors[0]))
        )

    @property
    def p_greater(self) -> Fraction:
        """``P(Y > Y')`` for independent copies."""
        pi = self.label_probs
        return sum((pi[i] * pi[j] for i in range(len(pi)) for j in range(i)), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        return {
            "marginal": [fraction_str(v) for v in self.marginal],
            "posteriors": [[fraction_str(v) for v in r] for r in self.posteriors],
        }


def fubini(m: int) -> int:
    """The number of weak orders (ordered set partitions) of m items."""
    a = [1]
    for n in range(1, m + 1):
        a.append(sum(math.comb(n, k) * a[n - k] for k in range(1, n + 1)))
    return a[m]


def weak_orders(m: int) -> Iterator[tuple[int, ...]]:
    """Every weak order of ``m`` points as a level vector (levels ``0..L-1``, each used; a
    higher level is ranked higher).  Yields exactly ``fubini(m)`` vectors."""
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise invalid("m", m, "a number of points m >= 1")

    def rec(remaining: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        # ordered set partitions of ``remaining``: choose the top block, recurse
        if not remaining:
            yield []
            return
        first, rest = remaining[0], remaining[1:]
        n = len(rest)
        for mask in range(1 << n):
            block = (first,) + tuple(rest[t] for t in range(n) if mask >> t & 1)
            others = tuple(rest[t] for t in range(n) if not mask >> t & 1)
            for tail in rec(others):
                # the block containing ``first`` may sit at any position of the tail
                for pos in range(len(tail) + 1):
                    yield tail[:pos] + [block] + tail[pos:]

    # each ordered partition arises once: from the block holding the first point, the ordered
    # partition of the other points and the block's position among them
    for blocks in rec(tuple(range(m))):
        levels = [0] * m
        L = len(blocks)
        for rank, blk in enumerate(blocks):
            for a in blk:
                levels[a] = L - 1 - rank
        yield tuple(levels)


def levels_from_scores(scores: Sequence[Any]) -> tuple[int, ...]:
    """The level vector (weak order) of real scores: equal scores tie, higher is higher."""
    distinct = sorted(set(scores))
    rank = {v: k for k, v in enumerate(distinct)}
    return tuple(rank[v] for v in scores)


def _rational_costs(costs: CostScheme) -> None:
    if not isinstance(costs, CostScheme):
        raise invalid("costs", costs, "a CostScheme")
    if not costs.is_rational:
        bad = next(f"c_{j}{i} = {v}" for (j, i), v in costs.costs.items() if not isinstance(v, Fraction))
        raise invalid(
            "costs",
            bad,
            "rational costs for the exact risk",
            "substitute exact rational values (CostScheme.substitute) first",
        )


@dataclass(frozen=True)
class PairTable:
    """``W[a][b] = sum_{j<i} c_ji P(X = x_a, Y = i) P(X = x_b, Y = j)``: the mass of pairs
    that ranking ``x_b`` above ``x_a`` misorders, and ``Z = P(Y > Y')``."""

    W: tuple[tuple[Fraction, ...], ...]
    Z: Fraction

    @property
    def m(self) -> int:
        return len(self.W)

    def risk(self, levels: Sequence[int]) -> Fraction:
        """R_0 of the weak order ``levels`` (exact)."""
        if len(levels) != self.m:
            raise invalid("ranking", levels, f"{self.m} levels, one per point")
        total = Fraction(0)
        for a in range(self.m):
            for b in range(self.m):
                if levels[a] < levels[b]:
                    total += self.W[a][b]
                elif levels[a] == levels[b]:
                    total += self.W[a][b] / 2
        return total / self.Z

    def integer_form(self) -> tuple[int, list[tuple[int, int, int, int, int]], int]:
        """``(scale, terms, const)`` with ``2 * scale * Z * R_0 = const + sum of terms``: per
        unordered pair ``(a, b, below, above, tie)`` the integer contribution when ``x_a`` is
        below, above or tied with ``x_b``.  Lets the exhaustive search run on integers."""
        den = 1
        for row in self.W:
            for v in row:
                den = den * v.denominator // math.gcd(den, v.denominator)
        Wi = [[int(v * den) for v in row] for row in self.W]
        const = sum(Wi[a][a] for a in range(self.m))
        terms = [
            (a, b, 2 * Wi[a][b], 2 * Wi[b][a], Wi[a][b] + Wi[b][a]) for a in range(self.m) for b in range(a + 1, self.m)
        ]
        return den, terms, const


def pair_table(space: FiniteInstanceSpace, costs: CostScheme) -> PairTable:
    """The pair weights of ``space`` under rational ``costs`` (same K)."""
    _rational_costs(costs)
    if costs.K != space.K:
        raise invalid("costs", f"K = {costs.K}", f"a scheme for the K = {space.K} labels of the space")
    m, K = space.m, space.K
    q = [[space.joint(a, k) for k in range(1, K + 1)] for a in range(m)]
    W = tuple(
        tuple(
            sum(
                (costs.c(j, i) * q[a][i - 1] * q[b][j - 1] for j in range(1, K + 1) for i in range(j + 1, K + 1)),
                Fraction(0),
            )
            for b in range(m)
        )
        for a in range(m)
    )
    return PairTable(W, space.p_greater)


def ranking_risk(space: FiniteInstanceSpace, costs: CostScheme, levels: Sequence[int]) -> Fraction:
    """``R_0(f; c)`` exactly for the weak order ``levels`` (Section 3, after Eq. (5))."""
    return pair_table(space, costs).risk(levels)


def optimal_scores(space: FiniteInstanceSpace, costs: CostScheme) -> list[tuple[Fraction, Fraction]]:
    """``(N_a, M_a)`` with ``f_0^*(x_a) = N_a / M_a``, ``N = sum_{i>=2} c_1i p_i``, ``M =
    sum_{j<=K-1} c_jK p_j`` (Theorem 3); ``M = 0 < N`` means ``+inf``."""
    _rational_costs(costs)
    K = space.K
    out = []
    for row in space.posteriors:
        N = sum((costs.c(1, i) * row[i - 1] for i in range(2, K + 1)), Fraction(0))
        M = sum((costs.c(j, K) * row[j - 1] for j in range(1, K)), Fraction(0))
        out.append((N, M))
    return out


def optimal_levels(space: FiniteInstanceSpace, costs: CostScheme) -> tuple[int, ...]:
    """The weak order of ``f_0^*`` (ratios compared exactly; ``N/0 = +inf``).  A point with
    ``N = M = 0`` has no defined ``f_0^*``; it gets the score 0 (under Theorem 3's condition
    with ``c_1K > 0`` its position does not change R_0)."""
    keys: list[Any] = []
    for N, M in optimal_scores(space, costs):
        if M == 0:
            keys.append((1, Fraction(0)) if N > 0 else (0, Fraction(0)))
        else:
            keys.append((0, N / M))
    return levels_from_scores(keys)


def respects_strict_order(levels: Sequence[int], reference: Sequence[int]) -> bool:
    """``reference[a] > reference[b]`` implies ``levels[a] > levels[b]`` (ties of the
    reference may be broken either way)."""
    m = len(levels)
    return all(levels[a] > levels[b] for a in range(m) for b in range(m) if reference[a] > reference[b])


@dataclass(frozen=True)
class Theorem3Check:
    """Exhaustive check of Theorem 3 on one instance: R_0 of f_0^*'s weak order, the
    minimum over every weak order, the minimisers, and the number of orders seen."""

    f0_levels: tuple[int, ...]
    f0_risk: Fraction
    min_risk: Fraction
    minimisers: tuple[tuple[int, ...], ...]
    orders: int
    condition_holds: bool | None

    @property
    def f0_optimal(self) -> bool:
        return self.f0_risk == self.min_risk

    @property
    def minimisers_are_strict_refinements(self) -> bool:
        """The minimisers are exactly the weak orders that keep every strict order of f_0^*."""
        want = {lv for lv in weak_orders(len(self.f0_levels)) if respects_strict_order(lv, self.f0_levels)}
        return want == set(self.minimisers)

    def to_json(self) -> dict[str, Any]:
        return {
            "f0_levels": list(self.f0_levels),
            "f0_risk": fraction_str(self.f0_risk),
            "min_risk": fraction_str(self.min_risk),
            "f0_optimal": self.f0_optimal,
            "minimisers": [list(x) for x in self.minimisers],
            "orders": self.orders,
            "condition_holds": self.condition_holds,
        }


def check_theorem3(space: FiniteInstanceSpace, costs: CostScheme) -> Theorem3Check:
    """Compare ``R_0(f_0^*)`` with ``min_f R_0(f)`` over all ``fubini(m)`` weak orders,
    in exact integer arithmetic on precomputed pair terms."""
    table = pair_table(space, costs)
    scale, terms, const = table.integer_form()
    best: int | None = None
    argmin: list[tuple[int, ...]] = []
    n = 0
    for lv in weak_orders(space.m):
        n += 1
        s = const
        for a, b, below, above, tie in terms:
            la, lb = lv[a], lv[b]
            s += below if la < lb else above if la > lb else tie
        if best is None or s < best:
            best, argmin = s, [lv]
        elif s == best:
            argmin.append(lv)
    assert best is not None
    f0 = optimal_levels(space, costs)
    f0_risk = table.risk(f0)
    min_risk = Fraction(best, 2 * scale) / table.Z
    return Theorem3Check(f0, f0_risk, min_risk, tuple(argmin), n, satisfies_theorem3_condition(costs).holds)


def _random_simplex(K: int, rng: random.Random, den: int, *, positive: bool) -> tuple[Fraction, ...]:
    lo = 1 if positive else 0
    while True:
        cuts = [rng.randint(lo, den) for _ in range(K)]
        if sum(cuts) > 0:
            s = sum(cuts)
            return tuple(Fraction(c, s) for c in cuts)


def random_space(m: int, K: int, rng: random.Random, *, den: int = 6, positive: bool = True) -> FiniteInstanceSpace:
    """A random instance with small-denominator posteriors and marginal (seeded); draws
    again when all the mass sits on one label."""
    from symcal.errors import InvalidInput

    while True:
        try:
            return FiniteInstanceSpace(
                _random_simplex(m, rng, den, positive=True),
                tuple(_random_simplex(K, rng, den, positive=positive) for _ in range(m)),
            )
        except InvalidInput:
            continue


def search_counterexample(
    costs: CostScheme, *, m_max: int = 4, tries: int = 200, seed: int = 0, den: int = 4
) -> tuple[FiniteInstanceSpace, Theorem3Check] | None:
    """Look for an instance where ``f_0^*`` does not minimise ``R_0`` (smallest m first,
    small denominators first, seeded): the returned instance is exact and re-checked."""
    rng = random.Random(seed)
    for m in range(2, m_max + 1):
        for d in range(1, den + 1):
            for _ in range(tries):
                space = random_space(m, costs.K, rng, den=d, positive=False)
                res = check_theorem3(space, costs)
                if not res.f0_optimal:
                    return space, res
    return None


def surrogate_pair_weights(space: FiniteInstanceSpace, costs: CostScheme, *, extra: bool) -> list[list[Fraction]]:
    """Weights of ``l(f(x_a) - f(x_b))`` in the convex risk R_l of Section 5.1 (times
    P(Y > Y')), plus Theorem 4's extra terms when ``extra`` (which needs ``c_1K > 0``)."""
    table = pair_table(space, costs)
    W = [list(r) for r in table.W]
    if not extra:
        return W
    K, c = space.K, costs.c
    if c(1, K) == 0:
        raise invalid("costs", "c_1K = 0", "c_1K > 0 for Theorem 4's extra terms")
    q = [[space.joint(a, k) for k in range(1, K + 1)] for a in range(space.m)]
    for a in range(space.m):
        for b in range(space.m):
            add = Fraction(0)
            for j in range(1, K + 1):
                for i in range(j + 1, K + 1):
                    coef = c(1, j) * c(i, K) / c(1, K)
                    add += coef * (q[a][i - 1] * q[b][j - 1] + q[a][j - 1] * q[b][i - 1])
            for i in range(2, K):
                add += c(1, i) * c(i, K) / c(1, K) * q[a][i - 1] * q[b][i - 1]
            W[a][b] += add
    return W
