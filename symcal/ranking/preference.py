"""Preference graphs, distributions over them, and their expected edge weights.

Duchi, Mackey & Jordan (2010), Sections 1-2: a training example carries a weighted DAG
``G`` of preferences over results ``1..m``; ``p`` is a distribution over such DAGs and
``a_ij = sum_G a_ij^G p_G`` (the text after Eq. (7)) is all the pairwise losses depend on.

Nodes are labelled ``1..m`` as in the paper.  Every weight and probability is exact
(:class:`~fractions.Fraction`); floats are refused with the fix in the message.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from numbers import Integral
from types import MappingProxyType
from typing import Any, TypeAlias

import networkx as nx

from symcal import display
from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction

__all__ = [
    "Edge",
    "Weights",
    "PreferenceGraph",
    "PreferenceDistribution",
    "expected_weights",
    "as_weights",
    "unit_weights",
    "single_edge_distribution",
    "format_cycle",
    "SparseWeights",
    "sparse_weights",
    "weight_matrix",
    "MAX_M",
]

Edge: TypeAlias = tuple[int, int]
Weights: TypeAlias = dict[Edge, Fraction]


# The m x m weight matrix is the object every check works on: at most MAX_M^2 = 2.5e7 entries
# (200 MB as int64), refused up front beyond -- never a MemoryError (issue 13).
MAX_M = 5000
MAX_GRAPHS = 1_000_000  # graphs of one distribution (the DAGs on 5 nodes are 29,281)


def sci(x: int | float) -> str:
    """A size in short scientific notation: ``1e18``, ``2.5e7``, ``40,320`` below 1e6."""
    if isinstance(x, int) and x.bit_length() > 1000:
        return f"about 2^{x.bit_length()}"
    if abs(x) < 1e6:
        return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"
    mant, exp = f"{float(x):.1e}".split("e")
    return f"{mant.rstrip('0').rstrip('.')}e{int(exp)}"


def check_m(m: Any, param: str = "m", *, at_most: int | None = MAX_M) -> int:
    """Validate a number of results ``m`` (an int >= 1, at most ``at_most``, by default
    :data:`MAX_M`; Duchi et al. 2010, Section 1)."""
    if isinstance(m, bool) or not isinstance(m, Integral):
        raise invalid(param, m, "an integer number of results >= 1")
    m = int(m)
    if m < 1:
        raise invalid(param, m, "an integer number of results >= 1")
    if at_most is not None and m > at_most:
        if at_most == MAX_M:
            raise invalid(param, m, f"an integer number of results between 1 and {MAX_M:,}",
                          f"the m x m weights would have {sci(m * m)} entries; at most {sci(MAX_M * MAX_M)}")
        raise invalid(param, m, f"an integer number of results between 1 and {at_most}")
    return m


def _parse_pair(key: Any, m: int | None, param: str) -> Edge:
    """Turn a key ``(i, j)`` into a validated pair of distinct nodes."""
    if not isinstance(key, tuple) or len(key) != 2:
        raise invalid(param, key, "a pair of node labels (i, j)")
    i, j = key
    for v in (i, j):
        if isinstance(v, bool) or not isinstance(v, Integral) or int(v) < 1:
            bound = f"1..{m}" if m is not None else "1..m"
            raise invalid(param, key, f"a pair (i, j) of node labels in {bound}")
        if m is not None and int(v) > m:
            raise invalid(param, key, f"a pair (i, j) of node labels in 1..{m}")
    if i == j:
        raise invalid(param, key, "a pair (i, j) with i != j (no self-loops)")
    return int(i), int(j)


def _weight(value: Any, i: int, j: int) -> Fraction:
    param = f"weight a[{i},{j}]"
    w = to_fraction(value, param)
    if w < 0:
        raise invalid(param, fraction_str(w), "a weight >= 0")
    return w


def format_cycle(nodes: Iterable[int]) -> str:
    """``[1, 2, 3]`` -> ``'1 -> 2 -> 3 -> 1'`` (a cycle, as printed in messages about the DAGs
    of Duchi et al. 2010, Section 1)."""
    nodes = list(nodes)
    return " -> ".join(str(v) for v in [*nodes, nodes[0]])


def find_cycle_nodes(graph: nx.DiGraph) -> list[int] | None:
    """The nodes of one directed cycle of ``graph`` (deterministic), or None for a DAG
    (Duchi et al. 2010: preference graphs are DAGs, Section 1)."""
    try:
        edges = nx.find_cycle(graph, source=sorted(graph.nodes))
    except nx.NetworkXNoCycle:
        return None
    return [u for u, _v, *_rest in edges]


class PreferenceGraph:
    """A weighted preference DAG on results ``1..m`` (Duchi et al. 2010, Section 1).

    ``edges`` maps ``(i, j)`` (``i`` preferred to ``j``) to a weight ``a_ij^G >= 0``; an
    edge with weight 0 is still present (it matters to surrogates of Eq. (9) and (13)).
    The graph must be acyclic; a cycle is named in the error.
    """

    __slots__ = ("_m", "_edges")

    def __init__(self, m: int, edges: Mapping[Edge, Any]) -> None:
        m = check_m(m)
        if not isinstance(edges, Mapping):
            raise invalid("edges", edges, "a mapping {(i, j): weight}", "for example {(1, 2): 1, (1, 3): '1/2'}")
        parsed: dict[Edge, Fraction] = {}
        for key, value in edges.items():
            i, j = _parse_pair(key, m, "edges")
            parsed[(i, j)] = _weight(value, i, j)
        g = nx.DiGraph()
        g.add_nodes_from(range(1, m + 1))
        g.add_edges_from(sorted(parsed))
        cycle = find_cycle_nodes(g)
        if cycle is not None:
            shown = {k: fraction_str(v) for k, v in sorted(parsed.items())}
            raise invalid(
                "edges",
                shown,
                f"the edges of a directed acyclic graph; they contain the cycle {format_cycle(cycle)}",
                "a preference graph must be a DAG (Duchi et al. 2010, Section 1)",
            )
        self._m = m
        self._edges = MappingProxyType(dict(sorted(parsed.items())))

    @property
    def m(self) -> int:
        """Number of results (nodes ``1..m``)."""
        return self._m

    @property
    def edges(self) -> Mapping[Edge, Fraction]:
        """Read-only mapping ``{(i, j): a_ij^G}``, sorted by edge."""
        return self._edges

    def weight(self, i: int, j: int) -> Fraction:
        """``a_ij^G`` (0 when the edge is absent)."""
        return self._edges.get((i, j), Fraction(0))

    def to_networkx(self) -> nx.DiGraph:
        """A :class:`networkx.DiGraph` on nodes ``1..m`` with edge attribute ``weight``."""
        g = nx.DiGraph()
        g.add_nodes_from(range(1, self._m + 1))
        for (i, j), w in self._edges.items():
            g.add_edge(i, j, weight=w)
        return g

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PreferenceGraph):
            return NotImplemented
        return self._m == other._m and dict(self._edges) == dict(other._edges)

    def __hash__(self) -> int:
        return hash((self._m, frozenset(self._edges.items())))

    def __repr__(self) -> str:
        shown = ", ".join(f"({i}, {j}): {fraction_str(w)}" for (i, j), w in self._edges.items())
        return f"PreferenceGraph(m={self._m}, edges={{{shown}}})"

    def _repr_html_(self) -> str | None:
        return display.render("preference", "html", self)


class PreferenceDistribution:
    """A distribution ``p`` over preference DAGs on the same ``m`` (Duchi et al. 2010, Eq. (2)).

    Built from ``[(graph, probability), ...]``; probabilities are exact, ``>= 0`` and sum
    exactly to 1.  The same graph may appear more than once (its probabilities add up).
    """

    __slots__ = ("_m", "_items")

    def __init__(self, graphs_with_probs: Iterable[tuple[PreferenceGraph, Any]]) -> None:
        if isinstance(graphs_with_probs, (str, bytes, Mapping)) or not isinstance(graphs_with_probs, Iterable):
            raise invalid("graphs_with_probs", graphs_with_probs, "a list of (PreferenceGraph, probability)")
        items = list(itertools.islice(graphs_with_probs, MAX_GRAPHS + 1))  # an endless iterator stops here
        if len(items) > MAX_GRAPHS:
            raise invalid("graphs_with_probs", graphs_with_probs, f"at most {MAX_GRAPHS:,} (graph, probability) pairs")
        if not items:
            raise invalid("graphs_with_probs", items, "at least one (PreferenceGraph, probability) pair")
        parsed: list[tuple[PreferenceGraph, Fraction]] = []
        m: int | None = None
        for k, item in enumerate(items):
            if not isinstance(item, tuple) or len(item) != 2:
                raise invalid(f"graphs_with_probs[{k}]", item, "a pair (PreferenceGraph, probability)")
            graph, prob = item
            if not isinstance(graph, PreferenceGraph):
                raise invalid(f"graphs_with_probs[{k}]", graph, "a PreferenceGraph")
            if m is None:
                m = graph.m
            elif graph.m != m:
                raise invalid(f"graphs_with_probs[{k}].m", graph.m, f"the same m as the first graph (m={m})")
            p = to_fraction(prob, f"probabilities[{k}]")
            if p < 0:
                raise invalid(f"probabilities[{k}]", fraction_str(p), "a probability >= 0")
            parsed.append((graph, p))
        total = sum((p for _g, p in parsed), Fraction(0))
        if total != 1:
            raise invalid(
                "probabilities",
                [fraction_str(p) for _g, p in parsed],
                f"probabilities summing to 1 (they sum to {fraction_str(total)})",
            )
        assert m is not None
        self._m = m
        self._items = tuple(parsed)

    @property
    def m(self) -> int:
        return self._m

    @property
    def items(self) -> tuple[tuple[PreferenceGraph, Fraction], ...]:
        """The ``(graph, p_G)`` pairs, in the order given."""
        return self._items

    @property
    def graphs(self) -> tuple[PreferenceGraph, ...]:
        return tuple(g for g, _p in self._items)

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        return tuple(p for _g, p in self._items)

    def __iter__(self) -> Iterator[tuple[PreferenceGraph, Fraction]]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        inner = ", ".join(f"({g!r}, {fraction_str(p)})" for g, p in self._items)
        return f"PreferenceDistribution([{inner}])"

    def _repr_html_(self) -> str | None:
        return display.render("preference", "html", self)


def _all_pairs(m: int) -> list[Edge]:
    return [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]


def expected_weights(dist: PreferenceDistribution) -> Weights:
    """``a_ij = sum_G a_ij^G p_G`` for every ordered pair ``i != j`` (0 where no graph has
    the edge).  Duchi et al. 2010, the definition after Eq. (7)."""
    if isinstance(dist, PreferenceGraph):
        dist = PreferenceDistribution([(dist, 1)])
    if not isinstance(dist, PreferenceDistribution):
        raise invalid("dist", dist, "a PreferenceDistribution")
    a = {e: Fraction(0) for e in _all_pairs(dist.m)}
    for graph, p in dist:
        for e, w in graph.edges.items():
            a[e] += w * p
    return a


def as_weights(obj: Any, m: int | None = None, *, param: str = "weights") -> tuple[int, Weights]:
    """Return ``(m, a)`` with ``a[(i, j)]`` exact for every ordered pair ``i != j``.

    ``obj`` is a :class:`PreferenceDistribution` (its expected weights, Duchi et al. 2010,
    after Eq. (7)), a single :class:`PreferenceGraph` (probability 1), or a plain mapping
    ``{(i, j): a_ij}`` with exact values ``>= 0``; for a mapping ``m`` defaults to the
    largest node named (pass ``m`` when trailing nodes carry no weight).
    """
    if m is not None:
        m = check_m(m)
    if isinstance(obj, SparseWeights):  # already validated, and immutable: shared, never densified
        if m is not None and m != obj.m:
            raise invalid("m", m, f"the m of the SparseWeights (m={obj.m})")
        return obj.m, obj  # type: ignore[return-value]
    if isinstance(obj, (PreferenceDistribution, PreferenceGraph)):
        if m is not None and m != obj.m:
            raise invalid("m", m, f"the m of the {type(obj).__name__} (m={obj.m})")
        return obj.m, expected_weights(obj)
    if not isinstance(obj, Mapping):
        raise invalid(
            param,
            obj,
            "a PreferenceDistribution, a PreferenceGraph or a mapping {(i, j): a_ij}",
        )
    if not obj and m is None:
        raise invalid(param, dict(obj), "at least one weight a[i,j] (or pass m explicitly)")
    parsed: dict[Edge, Fraction] = {}
    for key in obj:
        i, j = _parse_pair(key, m, param)
        parsed[(i, j)] = _weight(obj[key], i, j)
    if m is None:
        m = max(max(e) for e in parsed)
    a = {e: Fraction(0) for e in _all_pairs(m)}
    a.update(parsed)
    return m, a


_ZERO = Fraction(0)


class SparseWeights(Mapping[Edge, Fraction]):
    """Expected weights ``a_ij`` on results ``1..m`` (Duchi et al. 2010, after Eq. (7)), stored
    sparsely: it reads like the dict of :func:`as_weights` -- every ordered pair ``i != j`` is
    a key, absent ones weigh 0 -- but holds only the non-zero weights, so that a 2,000-node
    chain is 2,000 numbers, not 4 million.  Immutable; built validated from a mapping
    ``{(i, j): a_ij}`` with exact values ``>= 0``."""

    __slots__ = ("_m", "_nonzero")

    def __init__(self, m: int, weights: Mapping[Edge, Any] | None = None, *, param: str = "weights") -> None:
        m = check_m(m)
        weights = {} if weights is None else weights
        if not isinstance(weights, Mapping):
            raise invalid(param, weights, "a mapping {(i, j): a_ij}")
        nonzero: dict[Edge, Fraction] = {}
        for key, value in weights.items():
            i, j = _parse_pair(key, m, param)
            w = _weight(value, i, j)
            if w:
                nonzero[(i, j)] = w
        self._m = m
        self._nonzero = dict(sorted(nonzero.items()))

    @property
    def m(self) -> int:
        return self._m

    @property
    def nonzero(self) -> Mapping[Edge, Fraction]:
        """The non-zero weights, sorted by pair (read-only)."""
        return MappingProxyType(self._nonzero)

    def __getitem__(self, key: Edge) -> Fraction:
        w = self._nonzero.get(key)
        if w is not None:
            return w
        if (isinstance(key, tuple) and len(key) == 2 and all(type(v) is int for v in key)
                and 1 <= key[0] <= self._m and 1 <= key[1] <= self._m and key[0] != key[1]):
            return _ZERO
        raise KeyError(key)

    def __iter__(self) -> Iterator[Edge]:
        m = self._m
        return ((i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j)

    def __len__(self) -> int:
        return self._m * (self._m - 1)

    def __repr__(self) -> str:
        shown = ", ".join(f"({i}, {j}): {fraction_str(w)}" for (i, j), w in list(self._nonzero.items())[:8])
        more = f", ... ({len(self._nonzero)} non-zero)" if len(self._nonzero) > 8 else ""
        return f"SparseWeights(m={self._m}, {{{shown}{more}}})"


def sparse_weights(obj: Any, m: int | None = None, *, param: str = "weights") -> SparseWeights:
    """``(m, a)`` of :func:`as_weights` as a :class:`SparseWeights`, built without ever
    listing the ``m(m-1)`` pairs: the expected weights of a distribution or graph (Duchi et
    al. 2010, after Eq. (7)), or a mapping ``{(i, j): a_ij}``."""
    if m is not None:
        m = check_m(m)
    if isinstance(obj, SparseWeights):
        if m is not None and m != obj.m:
            raise invalid("m", m, f"the m of the SparseWeights (m={obj.m})")
        return obj
    if isinstance(obj, PreferenceGraph):
        obj = PreferenceDistribution([(obj, 1)])
    if isinstance(obj, PreferenceDistribution):
        if m is not None and m != obj.m:
            raise invalid("m", m, f"the m of the PreferenceDistribution (m={obj.m})")
        acc: dict[Edge, Fraction] = {}
        for graph, p in obj:
            for e, w in graph.edges.items():
                acc[e] = acc.get(e, _ZERO) + w * p
        return SparseWeights(obj.m, acc)
    if not isinstance(obj, Mapping):
        raise invalid(param, obj, "a PreferenceDistribution, a PreferenceGraph or a mapping {(i, j): a_ij}")
    if not obj and m is None:
        raise invalid(param, dict(obj), "at least one weight a[i,j] (or pass m explicitly)")
    if m is None:
        pairs = [_parse_pair(key, None, param) for key in obj]
        m = check_m(max(max(e) for e in pairs), param)
    return SparseWeights(m, obj, param=param)


def weight_matrix(weights: Any, m: int | None = None) -> tuple[Any, int]:
    """``(W, scale)`` with ``a_ij = W[i-1, j-1] / scale`` exactly: ``scale`` is the least common
    multiple of the weights' denominators and ``W`` an integer numpy array -- int64 when every
    sum the checks form (at most ``4 m^2 max|W|``) fits, else Python ints (dtype object)."""
    import numpy as np

    sw = sparse_weights(weights, m)
    m = sw.m
    scale = 1
    for w in sw.nonzero.values():
        scale = math.lcm(scale, w.denominator)
    entries = [(i - 1, j - 1, w.numerator * (scale // w.denominator)) for (i, j), w in sw.nonzero.items()]
    big = max((v for _i, _j, v in entries), default=0)
    if big * 4 * m * m < 2**62:
        mat = np.zeros((m, m), dtype=np.int64)
    else:
        mat = np.zeros((m, m), dtype=object)
        mat[...] = 0
    if entries:
        rows, cols, vals = zip(*entries, strict=True)
        if mat.dtype == object:
            for i, j, v in entries:
                mat[i, j] = v
        else:
            mat[list(rows), list(cols)] = np.array(vals, dtype=np.int64)
    return mat, scale


def _edge_items(edges: Any, m: int) -> list[Any]:
    """``edges`` (an iterable of pairs) as a list of at most ``m * m`` items: an endless or huge
    iterable is refused, never run to its end."""
    if isinstance(edges, str | bytes) or not isinstance(edges, Iterable):
        raise invalid("edges", edges, "an iterable of edges (i, j)")
    items = list(itertools.islice(edges, m * m + 1))
    if len(items) > m * m:
        raise invalid("edges", edges, f"at most m * m = {m * m:,} edges (i, j)")
    return items


def unit_weights(m: int, edges: Iterable[Edge]) -> Weights:
    """``a_ij = 1`` on the given edges and 0 elsewhere: the expected graph of Lemma 7's
    reduction from feedback arc set (Duchi et al. 2010, proof of Lemma 7).  The edge set
    may contain cycles."""
    m = check_m(m)
    a = {e: Fraction(0) for e in _all_pairs(m)}
    for k, key in enumerate(_edge_items(edges, m)):
        i, j = _parse_pair(tuple(key) if isinstance(key, list) else key, m, f"edges[{k}]")
        a[(i, j)] = Fraction(1)
    return a


def single_edge_distribution(m: int, edges: Iterable[Edge]) -> PreferenceDistribution:
    """Lemma 7's 'pedantic' construction: one single-edge graph per edge of ``E`` with
    weight ``|E|`` and probability ``1/|E|``, so that ``a_ij = 1`` exactly on ``E``
    (Duchi et al. 2010, proof of Lemma 7)."""
    m = check_m(m)
    edge_list = []
    for k, key in enumerate(_edge_items(edges, m)):
        edge_list.append(_parse_pair(tuple(key) if isinstance(key, list) else key, m, f"edges[{k}]"))
    edge_list = sorted(set(edge_list))
    if not edge_list:
        raise invalid("edges", edge_list, "at least one edge")
    n = len(edge_list)
    return PreferenceDistribution([(PreferenceGraph(m, {e: n}), Fraction(1, n)) for e in edge_list])
