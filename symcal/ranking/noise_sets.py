"""Noise conditions of Ramaswamy, Agarwal & Tewari (2013) as checks with witnesses.

A distribution ``p`` over labels is a list of ``(label, probability)`` pairs with exact
probabilities summing to 1 (:func:`label_distribution`).

* ``P_reinforce`` (Section 6, before Theorem 4) on binary relevance labels, through
  ``u^p_ij = E[Y_i Y_j / sum_g Y_g]`` (0 at ``y = 0``, the ``empty="one"`` convention of
  :func:`symcal.ranking.subset_losses.map_loss`):
  ``u_ii >= u_jj  =>  u_ii >= u_jj + sum_{g != i, j} (u_jg - u_ig)_+``.
* ``P_f`` (Theorem 6) on DAG labels for a score function ``f``:
  ``E[Y_ij] > E[Y_ji]  =>  E[f_i(Y)] > E[f_j(Y)]``; :func:`duchi_f` is Duchi et al.'s
  ``f_i(y) = sum_{j != i} (y_ij - y_ji)``.
* ``P_DAG`` (Section 7.2): the graph ``E^p = {(i, j) : E[Y_ij] > E[Y_ji]}`` is acyclic.

Each check returns a :class:`~symcal.ranking._check.CheckResult` whose witness names the
violating pair (or cycle) with exact values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import networkx as nx

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction
from symcal.ranking._check import CheckResult
from symcal.ranking.loss_matrix import DagLabel

__all__ = [
    "label_distribution",
    "map_u",
    "map_u_tilde",
    "in_p_reinforce",
    "reinforce_slack",
    "duchi_f",
    "expected_scores",
    "expected_preferences",
    "in_p_f",
    "preference_graph_of",
    "in_p_dag",
]

Dist = list[tuple[Any, Fraction]]


def label_distribution(pairs: Iterable[tuple[Any, Any]]) -> Dist:
    """Validate ``[(label, p_y), ...]``: exact probabilities ``>= 0`` summing to 1; repeated
    labels are merged."""
    if isinstance(pairs, (str, bytes, dict)):
        raise invalid("p", pairs, "a list of (label, probability) pairs")
    merged: dict[Any, Fraction] = {}
    order: list[Any] = []
    for k, item in enumerate(pairs):
        if not isinstance(item, tuple) or len(item) != 2:
            raise invalid(f"p[{k}]", item, "a pair (label, probability)")
        y, prob = item
        pr = to_fraction(prob, f"p[{k}]")
        if pr < 0:
            raise invalid(f"p[{k}]", fraction_str(pr), "a probability >= 0")
        if y not in merged:
            order.append(y)
            merged[y] = Fraction(0)
        merged[y] += pr
    if not order:
        raise invalid("p", [], "at least one (label, probability) pair")
    total = sum(merged.values(), Fraction(0))
    if total != 1:
        raise invalid("p", [fraction_str(merged[y]) for y in order], f"probabilities summing to 1 (sum {total})")
    return [(y, merged[y]) for y in order]


def _binary_r(p: Dist) -> int:
    r = None
    for y, _pr in p:
        if not isinstance(y, tuple) or any(v not in (0, 1) or isinstance(v, bool) for v in y):
            raise invalid("p", y, "binary relevance labels in {0,1}^r (MAP's label set)")
        if r is None:
            r = len(y)
        elif len(y) != r:
            raise invalid("p", y, f"labels of the same length r = {r}")
    assert r is not None
    return r


def map_u(p: Iterable[tuple[Any, Any]]) -> dict[tuple[int, int], Fraction]:
    """``u^p_ij = sum_y p_y y_i y_j / sum_g y_g`` for all ``i, j`` (symmetric; Section 6; the
    all-zero label contributes 0)."""
    dist = label_distribution(p)
    r = _binary_r(dist)
    u = {(i, j): Fraction(0) for i in range(1, r + 1) for j in range(1, r + 1)}
    for y, pr in dist:
        s = sum(y)
        if s == 0 or pr == 0:
            continue
        for i in range(1, r + 1):
            if y[i - 1]:
                for j in range(1, r + 1):
                    if y[j - 1]:
                        u[(i, j)] += pr / s
    return u


def map_u_tilde(p: Iterable[tuple[Any, Any]]) -> tuple[Fraction, ...]:
    """``u-tilde^p_i = E[Y_i / sum_g Y_g]``: the minimiser of Corollary 5's ``psi-tilde_MAP``."""
    dist = label_distribution(p)
    r = _binary_r(dist)
    return tuple(sum((pr * Fraction(y[i], sum(y)) for y, pr in dist if sum(y)), Fraction(0)) for i in range(r))


def reinforce_slack(u: dict[tuple[int, int], Fraction], r: int, i: int, j: int) -> Fraction:
    """``u_ii - u_jj - sum_{g != i, j} (u_jg - u_ig)_+`` (>= 0 is what P_reinforce asks when
    ``u_ii >= u_jj``)."""
    pos = sum((max(u[(j, g)] - u[(i, g)], Fraction(0)) for g in range(1, r + 1) if g not in (i, j)), Fraction(0))
    return u[(i, i)] - u[(j, j)] - pos


def in_p_reinforce(p: Iterable[tuple[Any, Any]]) -> CheckResult:
    """Whether ``p`` is in ``P_reinforce`` (Section 6); the witness is the first pair
    ``(i, j)`` with ``u_ii >= u_jj`` and ``u_ii < u_jj + sum_g (u_jg - u_ig)_+``."""
    dist = label_distribution(p)
    r = _binary_r(dist)
    u = map_u(dist)
    bad = []
    for i in range(1, r + 1):
        for j in range(1, r + 1):
            if i != j and u[(i, i)] >= u[(j, j)] and reinforce_slack(u, r, i, j) < 0:
                bad.append((i, j))
    if not bad:
        return CheckResult(True, f"every pair with u_ii >= u_jj has u_ii >= u_jj + sum_g (u_jg - u_ig)_+ (r = {r})",
                           {"u_diagonal": [u[(i, i)] for i in range(1, r + 1)]})
    i, j = bad[0]
    return CheckResult(False, f"u_{i}{i} = {fraction_str(u[(i, i)])} >= u_{j}{j} = {fraction_str(u[(j, j)])} but "
                              f"the slack u_ii - u_jj - sum_g (u_jg - u_ig)_+ = "
                              f"{fraction_str(reinforce_slack(u, r, i, j))} < 0",
                       {"i": i, "j": j, "u": {f"u_{a}{b}": v for (a, b), v in u.items() if a >= b}},
                       tuple(bad))


def _dag_r(p: Dist) -> int:
    r = None
    for y, _pr in p:
        if not isinstance(y, DagLabel):
            raise invalid("p", y, "DAG labels (DagLabel) over the r documents")
        if r is None:
            r = y.r
        elif y.r != r:
            raise invalid("p", str(y), f"labels over the same r = {r}")
    assert r is not None
    return r


def duchi_f(y: DagLabel) -> tuple[Fraction, ...]:
    """``f_i(y) = sum_{j != i} (y_ij - y_ji)`` (Theorem 6, Duchi et al.'s special case)."""
    if not isinstance(y, DagLabel):
        raise invalid("y", y, "a DagLabel")
    f = [Fraction(0)] * y.r
    for i, j, w in y.edges:
        f[i - 1] += w
        f[j - 1] -= w
    return tuple(f)


def expected_preferences(p: Iterable[tuple[Any, Any]]) -> dict[tuple[int, int], Fraction]:
    """``E[Y_ij]`` for every ordered pair ``i != j``."""
    dist = label_distribution(p)
    r = _dag_r(dist)
    out = {(i, j): Fraction(0) for i in range(1, r + 1) for j in range(1, r + 1) if i != j}
    for y, pr in dist:
        for i, j, w in y.edges:
            out[(i, j)] += pr * w
    return out


def expected_scores(p: Iterable[tuple[Any, Any]], f: Callable[[Any], Sequence[Any]]) -> tuple[Fraction, ...]:
    """``E[f(Y)]`` (exact; ``f`` returns ``r`` exact scores)."""
    dist = label_distribution(p)
    if not callable(f):
        raise invalid("f", f, "a function from labels to score vectors")
    total: list[Fraction] | None = None
    for y, pr in dist:
        vals = [to_fraction(v, f"f({y})") for v in f(y)]
        if total is None:
            total = [Fraction(0)] * len(vals)
        if len(vals) != len(total):
            raise invalid("f", f"f({y}) has {len(vals)} scores", f"{len(total)} scores for every label")
        for i, v in enumerate(vals):
            total[i] += pr * v
    assert total is not None
    return tuple(total)


def in_p_f(p: Iterable[tuple[Any, Any]], f: Callable[[Any], Sequence[Any]] = duchi_f) -> CheckResult:
    """Whether ``p`` is in ``P_f`` (Theorem 6); the witness is a pair with ``E[Y_ij] >
    E[Y_ji]`` and ``E[f_i] <= E[f_j]``."""
    dist = label_distribution(p)
    r = _dag_r(dist)
    a = expected_preferences(dist)
    u = expected_scores(dist, f)
    if len(u) != r:
        raise invalid("f", f"{len(u)} scores", f"r = {r} scores")
    bad = [(i, j) for (i, j) in a if a[(i, j)] > a[(j, i)] and not u[i - 1] > u[j - 1]]
    if not bad:
        return CheckResult(True, "every strict expected preference i -> j has E f_i > E f_j",
                           {"E_f": list(u)})
    i, j = bad[0]
    return CheckResult(False, f"E[Y_{i}{j}] = {fraction_str(a[(i, j)])} > E[Y_{j}{i}] = {fraction_str(a[(j, i)])} "
                              f"but E[f_{i}] = {fraction_str(u[i - 1])} <= E[f_{j}] = {fraction_str(u[j - 1])}",
                       {"i": i, "j": j, "E_f": list(u)}, tuple(bad))


def preference_graph_of(p: Iterable[tuple[Any, Any]]) -> nx.DiGraph:
    """``([r], E^p)`` with ``E^p = {(i, j) : E[Y_ij] > E[Y_ji]}`` (Section 7.2)."""
    dist = label_distribution(p)
    r = _dag_r(dist)
    a = expected_preferences(dist)
    g = nx.DiGraph()
    g.add_nodes_from(range(1, r + 1))
    g.add_edges_from(e for e in sorted(a) if a[e] > a[(e[1], e[0])])
    return g


def in_p_dag(p: Iterable[tuple[Any, Any]]) -> CheckResult:
    """Whether ``p`` is in ``P_DAG`` (Section 7.2); the witness is a directed cycle of ``E^p``."""
    g = preference_graph_of(p)
    try:
        cyc = nx.find_cycle(g, source=sorted(g.nodes))
    except nx.NetworkXNoCycle:
        return CheckResult(True, f"E^p is acyclic ({g.number_of_edges()} edges)", {"edges": sorted(g.edges)})
    nodes = [u for u, _v in cyc]
    return CheckResult(False, "E^p has the cycle " + " -> ".join(str(v) for v in [*nodes, nodes[0]]),
                       {"cycle": nodes}, (tuple(nodes),))
