"""What every section of Duchi, Mackey & Jordan (2010) shares: the citation helper, exact
helpers on weighted graphs (weights are dicts {(i, j): a_ij} on nodes 1..m; Fractions or
sympy), and the symbolic encodings of the difference graph and of Eq. (8)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import sympy

from symcal import Citation

PAPER = "duchi2010"

Weights = dict[tuple[int, int], Any]

HALF = sympy.Rational(1, 2)

# Theorems 11 and 12 end alike
NOT_EDGE_CONSISTENT = (
    "Even in the low-noise setting, for phi convex and satisfying Assumption A, phi is not edge-consistent."
)


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


def twin_id(claim_id: str) -> str:
    """The id of a claim's negative twin (theorems/README.md, section 5)."""
    return claim_id + ".twin"


# ---------------------------------------------------------------------------------------
# Exact helpers
# ---------------------------------------------------------------------------------------


def expected_weights(graphs: Iterable[Mapping[tuple[int, int], Any]], p: Iterable[Any]) -> Weights:
    """a_ij = sum_G a_ij^G p_G (Section 2, before Eq. (8))."""
    out: Weights = {}
    for g, pg in zip(graphs, p, strict=True):
        for e, w in g.items():
            out[e] = out.get(e, 0) + w * pg
    return out


def diff(a: Mapping[tuple[int, int], Any], i: int, j: int) -> Any:
    """a_ij - a_ji: the weight of (i -> j) in the difference graph when positive."""
    return a.get((i, j), 0) - a.get((j, i), 0)


def difference_edges(a: Mapping[tuple[int, int], Any], m: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j and diff(a, i, j) > 0]


def has_cycle(edges: Iterable[tuple[int, int]], m: int) -> bool:
    """Kahn's algorithm on nodes 1..m."""
    succ: dict[int, list[int]] = {v: [] for v in range(1, m + 1)}
    indeg = {v: 0 for v in range(1, m + 1)}
    for i, j in edges:
        succ[i].append(j)
        indeg[j] += 1
    todo = [v for v in indeg if indeg[v] == 0]
    seen = 0
    while todo:
        v = todo.pop()
        seen += 1
        for w in succ[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                todo.append(w)
    return seen < m


def low_noise_violations(a: Mapping[tuple[int, int], Any], m: int) -> list[tuple[int, int, int]]:
    """Triples (i, j, k) with i -> j, j -> k in G~ and d_ik < d_ij + d_jk (Definition 8)."""
    bad = []
    for i, j, k in itertools.permutations(range(1, m + 1), 3):
        dij, djk = diff(a, i, j), diff(a, j, k)
        if dij > 0 and djk > 0 and diff(a, i, k) < dij + djk:
            bad.append((i, j, k))
    return bad


def conditional_risk(a: Mapping[tuple[int, int], Any], alpha: tuple[Any, ...]) -> Any:
    """Eq. (8): sum_{i<j} a_ij 1(a_i <= a_j) + sum_{i>j} a_ij 1(a_i < a_j)."""
    total: Any = 0
    for (i, j), w in a.items():
        if (i < j and alpha[i - 1] <= alpha[j - 1]) or (i > j and alpha[i - 1] < alpha[j - 1]):
            total += w
    return total


def weak_orders(m: int) -> list[tuple[int, ...]]:
    """Score vectors in {0..m-1}^m: every weak order of m items occurs (Eq. (8) depends
    on alpha only through its weak order)."""
    return list(itertools.product(range(m), repeat=m))


@functools.cache
def weak_order_representatives(m: int) -> tuple[tuple[int, ...], ...]:
    """One score vector per weak order of m items (13 at m = 3, 75 at m = 4): Eq. (8) depends on a
    only through its weak order."""
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for al in weak_orders(m):
        levels = sorted(set(al))
        seen.setdefault(tuple(levels.index(x) for x in al), al)
    return tuple(sorted(seen.values()))


def min_conditional_risk(a: Mapping[tuple[int, int], Any], m: int) -> Any:
    return min(conditional_risk(a, al) for al in weak_orders(m))


def pairs(m: int) -> list[tuple[int, int]]:
    """The ordered pairs (i, j), i != j, of nodes 1..m."""
    return [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]


# ---------------------------------------------------------------------------------------
# Symbolic helpers for implies claims on m nodes
# ---------------------------------------------------------------------------------------


@functools.cache
def dsym(i: int, j: int) -> sympy.Symbol:
    return sympy.Symbol(f"d_{i}_{j}", real=True)


def d(i: int, j: int) -> Any:
    """Difference variable d_ij with d_ji = -d_ij and d_ii = 0."""
    if i == j:
        return sympy.Integer(0)
    return dsym(i, j) if i < j else -dsym(j, i)


@functools.cache
def directed_cycles(m: int) -> tuple[tuple[int, ...], ...]:
    """Every directed simple cycle of the complete digraph on nodes 1..m (networkx)."""
    import networkx as nx

    g = nx.complete_graph(range(1, m + 1), create_using=nx.DiGraph)
    return tuple(sorted(tuple(c) for c in nx.simple_cycles(g)))


def acyclic(dd: Callable[[int, int], Any], m: int) -> Any:
    """The difference graph {i -> j : d_ij > 0} has no directed cycle."""
    return sympy.And(
        *[sympy.Not(sympy.And(*[dd(c[t], c[(t + 1) % len(c)]) > 0 for t in range(len(c))])) for c in directed_cycles(m)]
    )


def low_noise_relations(dd: Callable[[int, int], Any], m: int, slack: Any = 0) -> list[Any]:
    """Definition 8 for every ordered triple: d_ij > 0, d_jk > 0 -> d_ik >= d_ij + d_jk."""
    return [
        sympy.Implies(sympy.And(dd(i, j) > 0, dd(j, k) > 0), dd(i, k) >= dd(i, j) + dd(j, k) - slack)
        for i, j, k in itertools.permutations(range(1, m + 1), 3)
    ]


def weights_diff(a: Mapping[tuple[int, int], Any]) -> Callable[[int, int], Any]:
    return lambda i, j: sympy.sympify(diff(a, i, j))


@functools.cache
def asym(i: int, j: int) -> sympy.Symbol:
    """The expected weight a_ij as a real symbol."""
    return sympy.Symbol(f"a_{i}_{j}", real=True)


@functools.cache
def alpha(i: int) -> sympy.Symbol:
    """The score alpha_i as a real symbol."""
    return sympy.Symbol(f"alpha_{i}", real=True)


def ind(cond: Any) -> Any:
    """The indicator 1(cond) as a sympy Piecewise (z3: an if-then-else)."""
    return sympy.Piecewise((1, cond), (0, True))


def risk_eq8(a: Mapping[tuple[int, int], Any], al: Callable[[int], Any]) -> Any:
    """Eq. (8) with symbolic scores: sum_{i<j} a_ij 1(al_i <= al_j) + sum_{i>j} a_ij 1(al_i < al_j)."""
    return sum(
        (w * ind(al(i) <= al(j) if i < j else al(i) < al(j)) for (i, j), w in sorted(a.items())), sympy.Integer(0)
    )


def symbolic_weights(m: int) -> Weights:
    """a_ij as real symbols on every ordered pair of nodes 1..m."""
    return {e: asym(*e) for e in pairs(m)}
