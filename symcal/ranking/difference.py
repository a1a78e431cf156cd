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
import numpy as np

from symcal.errors import invalid
from symcal.exact import fraction_str
from symcal.ranking._check import CheckResult
from symcal.ranking.preference import find_cycle_nodes

__all__ = ["difference_graph", "difference_edges", "is_low_noise", "difference_cycle"]


def _difference_matrix(weights: Any, m: int | None) -> tuple[int, Any, int]:
    """``(m, D, scale)`` with ``a_ij - a_ji = D[i-1, j-1] / scale`` exactly (D antisymmetric)."""
    from symcal.ranking.preference import weight_matrix

    w, scale = weight_matrix(weights, m)
    return int(w.shape[0]), w - w.T, scale


def difference_graph(weights: Any, m: int | None = None) -> nx.DiGraph:
    """The difference graph ``G~`` (Duchi et al. 2010, Section 2.2, Fig. 1): nodes ``1..m``,
    an edge ``i -> j`` iff ``a_ij > a_ji``, with attribute ``weight = a_ij - a_ji``
    (a :class:`~fractions.Fraction`).  ``weights`` is anything :func:`as_weights` takes."""
    m, d, scale = _difference_matrix(weights, m)
    g = nx.DiGraph()
    g.add_nodes_from(range(1, m + 1))
    g.add_edges_from((int(i) + 1, int(j) + 1, {"weight": Fraction(int(d[i, j]), scale)})
                     for i, j in np.argwhere(d > 0))
    return g


def difference_edges(weights: Any, m: int | None = None) -> list[tuple[int, int, Fraction]]:
    """The edges ``(i, j, a_ij - a_ji)`` of the difference graph (Duchi et al. 2010, Fig. 1),
    sorted; the same as ``difference_graph(...).edges(data=True)`` without building a graph."""
    m, d, scale = _difference_matrix(weights, m)
    return [(int(i) + 1, int(j) + 1, Fraction(int(d[i, j]), scale)) for i, j in np.argwhere(d > 0)]


# up to this many edges the cycle is networkx's (nx.find_cycle from the sorted nodes, as
# before); beyond, a depth-first search inside the first non-trivial strongly connected
# component (scipy), which is just as deterministic and never builds a Python graph
_NX_CYCLE_EDGES = 200_000


def _cycle_in(positive: Any) -> list[int] | None:
    """Nodes (1-based) of one directed cycle of the graph ``positive[i, j]`` (bool m x m)."""
    m = positive.shape[0]
    n_edges = int(positive.sum())
    if n_edges <= _NX_CYCLE_EDGES:
        g = nx.DiGraph()
        g.add_nodes_from(range(1, m + 1))
        g.add_edges_from((int(i) + 1, int(j) + 1) for i, j in np.argwhere(positive))
        return find_cycle_nodes(g)
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    graph = csr_matrix(positive)
    _n, labels = connected_components(graph, directed=True, connection="strong")
    sizes = np.bincount(labels)
    big = [v for v in range(m) if sizes[labels[v]] > 1]
    if not big:
        return None
    start = big[0]
    inside = labels == labels[start]
    # depth-first search inside the component: every node there reaches ``start`` again, so
    # the first edge back to a node on the current path closes a cycle
    on_path = {start: 0}
    path = [start]
    nexts = [iter(np.flatnonzero(positive[start] & inside))]
    seen = {start}
    while path:
        try:
            v = int(next(nexts[-1]))
        except StopIteration:
            on_path.pop(path.pop())
            nexts.pop()
            continue
        if v in on_path:
            return [u + 1 for u in path[on_path[v]:]]
        if v in seen:
            continue
        seen.add(v)
        on_path[v] = len(path)
        path.append(v)
        nexts.append(iter(np.flatnonzero(positive[v] & inside)))
    raise AssertionError("a strongly connected component of two or more nodes has a cycle")  # pragma: no cover


def difference_cycle(weights: Any, m: int | None = None) -> list[int] | None:
    """The nodes of one cycle of the difference graph, or None when it is a DAG
    (the hypothesis of Theorem 13 and Lemma 16, Duchi et al. 2010)."""
    _m, d, _scale = _difference_matrix(weights, m)
    return _cycle_in(d > 0)


def _low_noise_scan(d: Any, max_listed: int | None) -> tuple[int, int, list[tuple[int, int, int]]]:
    """``(paths, violations, listed)``: the number of two-edge paths ``i -> j -> k`` of the
    difference graph ``d > 0``, how many break ``d_ik >= d_ij + d_jk``, and the first
    ``max_listed`` of those (all when None) in lexicographic order, 1-based.

    Exact: integer arrays (int64 when the sums fit, else Python ints), one row ``i`` at a
    time, so that the work is the number of paths and the memory ``O(m^2)``."""
    m = d.shape[0]
    pos = d > 0
    paths = int(np.dot(pos.sum(axis=0).astype(object), pos.sum(axis=1).astype(object))) if m else 0
    count = 0
    listed: list[tuple[int, int, int]] = []
    block = max(1, 2_000_000 // max(m, 1))
    for i in range(m):
        js = np.flatnonzero(pos[i])
        for b in range(0, js.size, block):
            jj = js[b:b + block]
            sub = d[jj, :]
            # i -> j -> k with a_ik - a_ki < (a_ij - a_ji) + (a_jk - a_kj)
            bad = (sub > 0) & (d[i][None, :] < d[i, jj][:, None] + sub)
            n_bad = int(bad.sum())
            if not n_bad:
                continue
            count += n_bad
            if max_listed is None or len(listed) < max_listed:
                for r, k in np.argwhere(bad):
                    if max_listed is not None and len(listed) >= max_listed:
                        break
                    listed.append((i + 1, int(jj[r]) + 1, int(k) + 1))
    return paths, count, listed


def is_low_noise(weights: Any, m: int | None = None, *, max_listed: int | None = None) -> CheckResult:
    """Definition 8 of Duchi et al. 2010, encoded as printed: for all edges ``i -> j`` and
    ``j -> k`` of the difference graph, ``a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj)``
    -- also when ``i -> k`` is not an edge (its weight ``a_ik - a_ki`` is then <= 0, so the
    inequality fails).

    On failure ``witness`` is the lexicographically first violating triple ``(i, j, k)``
    with both sides exact, and ``violations`` lists the violating triples in order: all of
    them, or the first ``max_listed`` (``witness["violations"]`` counts them all).

    Exact integer arithmetic on arrays (the weights over their common denominator): about
    one vectorised step per node, so 300 dense nodes take well under a second.
    """
    if max_listed is not None and (isinstance(max_listed, bool) or not isinstance(max_listed, int)
                                   or max_listed < 1):
        raise invalid("max_listed", max_listed, "a whole number >= 1, or None for every violation")
    m, d, scale = _difference_matrix(weights, m)
    n_paths, n_bad, listed = _low_noise_scan(d, max_listed)

    def diff(i: int, j: int) -> Fraction:
        return Fraction(int(d[i - 1, j - 1]), scale)

    if not n_paths:
        return CheckResult(
            True,
            "low-noise (Definition 8) holds vacuously: the difference graph has no two-edge path",
            witness={"paths_checked": 0},
        )
    if not n_bad:
        return CheckResult(
            True,
            f"low-noise (Definition 8): all {n_paths} two-edge paths i -> j -> k of the "
            "difference graph satisfy a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj)",
            witness={"paths_checked": n_paths},
        )
    i, j, k = listed[0]
    lhs, rhs = diff(i, k), diff(i, j) + diff(j, k)
    reason = (
        f"not low-noise (Definition 8) at (i, j, k) = ({i}, {j}, {k}): "
        f"a[{i},{k}] - a[{k},{i}] = {fraction_str(lhs)} < "
        f"(a[{i},{j}] - a[{j},{i}]) + (a[{j},{k}] - a[{k},{j}]) = {fraction_str(rhs)}"
        f"; {n_bad} of {n_paths} two-edge paths violate it"
    )
    witness = {
        "triple": (i, j, k),
        "lhs": lhs,
        "rhs": rhs,
        "a_ik - a_ki": lhs,
        "a_ij - a_ji": diff(i, j),
        "a_jk - a_kj": diff(j, k),
        "paths_checked": n_paths,
        "violations": n_bad,
    }
    return CheckResult(False, reason, witness=witness, violations=tuple(listed))
