"""The difference graph and the low-noise condition.

Duchi, Mackey & Jordan (2010), Section 2.2 and Figure 1: the difference graph has an edge
``i -> j`` with weight ``a_ij - a_ji`` exactly when ``a_ij > a_ji``; Definition 8 calls
``(G, p)`` low-noise when every two-edge path ``i -> j -> k`` of the difference graph
satisfies the reverse triangle inequality ``a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj)``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import networkx as nx

from symcal.exact import fraction_str
from symcal.ranking._check import CheckResult
from symcal.ranking.preference import as_weights, find_cycle_nodes

__all__ = ["difference_graph", "is_low_noise", "difference_cycle"]


def difference_graph(weights: Any, m: int | None = None) -> nx.DiGraph:
    """The difference graph ``G~`` (Duchi et al. 2010, Section 2.2, Fig. 1): nodes ``1..m``,
    an edge ``i -> j`` iff ``a_ij > a_ji``, with attribute ``weight = a_ij - a_ji``
    (a :class:`~fractions.Fraction`).  ``weights`` is anything :func:`as_weights` takes."""
    m, a = as_weights(weights, m)
    g = nx.DiGraph()
    g.add_nodes_from(range(1, m + 1))
    for (i, j), w in sorted(a.items()):
        if w > a[(j, i)]:
            g.add_edge(i, j, weight=w - a[(j, i)])
    return g


def difference_cycle(weights: Any, m: int | None = None) -> list[int] | None:
    """The nodes of one cycle of the difference graph, or None when it is a DAG
    (the hypothesis of Theorem 13 and Lemma 16, Duchi et al. 2010)."""
    return find_cycle_nodes(difference_graph(weights, m))


def is_low_noise(weights: Any, m: int | None = None) -> CheckResult:
    """Definition 8 of Duchi et al. 2010, encoded as printed: for all edges ``i -> j`` and
    ``j -> k`` of the difference graph, ``a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj)``
    -- also when ``i -> k`` is not an edge (its weight ``a_ik - a_ki`` is then <= 0, so the
    inequality fails).

    On failure ``witness`` is the lexicographically first violating triple ``(i, j, k)``
    with both sides exact, and ``violations`` lists every violating triple in order.
    """
    m, a = as_weights(weights, m)
    g = difference_graph(a, m)

    def d(i: int, j: int) -> Fraction:
        return a[(i, j)] - a[(j, i)]

    paths = sorted((i, j, k) for i, j in g.edges for k in g.successors(j))
    violations = []
    for i, j, k in paths:
        lhs, rhs = d(i, k), d(i, j) + d(j, k)
        if lhs < rhs:
            violations.append((i, j, k))
    if not paths:
        return CheckResult(
            True,
            "low-noise (Definition 8) holds vacuously: the difference graph has no two-edge path",
            witness={"paths_checked": 0},
        )
    if not violations:
        return CheckResult(
            True,
            f"low-noise (Definition 8): all {len(paths)} two-edge paths i -> j -> k of the "
            "difference graph satisfy a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj)",
            witness={"paths_checked": len(paths)},
        )
    i, j, k = violations[0]
    lhs, rhs = d(i, k), d(i, j) + d(j, k)
    reason = (
        f"not low-noise (Definition 8) at (i, j, k) = ({i}, {j}, {k}): "
        f"a[{i},{k}] - a[{k},{i}] = {fraction_str(lhs)} < "
        f"(a[{i},{j}] - a[{j},{i}]) + (a[{j},{k}] - a[{k},{j}]) = {fraction_str(rhs)}"
        f"; {len(violations)} of {len(paths)} two-edge paths violate it"
    )
    witness = {
        "triple": (i, j, k),
        "lhs": lhs,
        "rhs": rhs,
        "a_ik - a_ki": lhs,
        "a_ij - a_ji": d(i, j),
        "a_jk - a_kj": d(j, k),
        "paths_checked": len(paths),
    }
    return CheckResult(False, reason, witness=witness, violations=tuple(violations))
