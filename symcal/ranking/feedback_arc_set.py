"""Exact minimum weighted feedback arc set, i.e. the minimiser of the pairwise risk (8).

Duchi, Mackey & Jordan (2010), Lemma 7 and its proof: minimising ``l(p, alpha)`` of
Eq. (8) is finding an order of ``1..m`` whose back edges (``i -> j`` with ``j`` placed
before ``i``) have the least total weight ``a_ij`` -- the minimum weighted feedback arc
set, NP-hard in general.

How it is solved exactly:

1. split into strongly connected components of the graph of positive weights (an edge
   between components is never a back edge of an optimal order) and order the
   components topologically;
2. a component of at most 7 nodes: exhaustive search over its permutations;
3. a larger one: the linear-ordering MILP (binary ``x_uv`` = "u before v" for ``u < v``,
   3-cycle inequalities ``0 <= x_uv + x_vw - x_uw <= 1``) solved by HiGHS through
   :func:`scipy.optimize.milp`.  Weights are scaled to integers.  The triangle
   inequalities are added lazily: an LP cutting-plane loop first, then a MILP on the
   triangles found, re-solved while its integer solution still violates one.  An
   insertion local search gives an upper bound that HiGHS uses as a cutoff.

The order returned is read from the solution and its cost recomputed exactly.  With
integer weights an order of cost ``c`` is optimal when a valid lower bound exceeds
``c - 1``; ``certified`` is True only when HiGHS's dual bound (or the LP bound) does so
with a relative margin of 1e-6, and never otherwise.
"""

from __future__ import annotations

import itertools
import math
import random
import time
import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import networkx as nx
import numpy as np

from symcal.errors import invalid
from symcal.ranking.preference import Edge, Weights, as_weights

__all__ = [
    "FasResult",
    "min_feedback_arc_set",
    "brute_force_feedback_arc_set",
    "order_cost",
    "BRUTE_FORCE_MAX_NODES",
    "SCC_BRUTE_FORCE_NODES",
]

BRUTE_FORCE_MAX_NODES = 9
SCC_BRUTE_FORCE_NODES = 7
_CERT_REL_TOL = 1e-6
_SEP_TOL = 1e-7
_NEAR_TIGHT = 0.2
_RESTARTS = 50
# HiGHS settings measured fastest on dense random instances (bench/fas.py): no presolve
# (it finds nothing to reduce here) and pseudo-cost branching without strong branching
_MILP_OPTIONS: dict[str, Any] = {
    "mip_rel_gap": 0.0,
    "presolve": False,
    "mip_pscost_minreliable": 0,
}


@dataclass(frozen=True)
class FasResult:
    """A minimum weighted feedback arc set (Duchi et al. 2010, proof of Lemma 7).

    ``order`` lists the nodes best first; ``removed`` are its back edges of positive
    weight (removing them leaves a DAG); ``weight`` is their exact total, which is also
    ``min l(p, alpha)`` of Eq. (8).  ``certified`` says the order is proved optimal;
    ``method`` says how each component was solved.
    """

    order: tuple[int, ...]
    removed: tuple[Edge, ...]
    weight: Fraction
    certified: bool
    method: str
    seconds: float


def order_cost(weights: Any, order: Any, m: int | None = None) -> Fraction:
    """Total weight of the back edges of ``order`` (best first): ``sum a_ij`` over pairs
    with ``j`` placed before ``i`` (Duchi et al. 2010, proof of Lemma 7)."""
    m, a = as_weights(weights, m)
    order = _check_order(order, m)
    total = Fraction(0)
    for p in range(m):
        for q in range(p + 1, m):
            total += a[(order[q], order[p])]
    return total


def _check_order(order: Any, m: int, param: str = "order") -> tuple[int, ...]:
    try:
        seq = tuple(order)
    except TypeError:
        raise invalid(param, order, f"a permutation of 1..{m}") from None
    if any(isinstance(v, bool) or not isinstance(v, int | np.integer) for v in seq) or sorted(seq) != list(
        range(1, m + 1)
    ):
        raise invalid(param, seq, f"a permutation of 1..{m} (best first)")
    return tuple(int(v) for v in seq)


def _integer_matrix(m: int, a: Weights) -> tuple[list[list[int]], int]:
    """``W[u][v] = a_{u+1, v+1} * scale`` as ints (0-based), and the scale."""
    scale = 1
    for w in a.values():
        scale = math.lcm(scale, w.denominator)
    mat = [[0] * m for _ in range(m)]
    for (i, j), w in a.items():
        mat[i - 1][j - 1] = int(w * scale)
    return mat, scale


def _back_edges(a: Weights, order: tuple[int, ...]) -> tuple[Edge, ...]:
    pos = {v: k for k, v in enumerate(order)}
    return tuple(sorted(e for e, w in a.items() if w > 0 and pos[e[1]] < pos[e[0]]))


# --- exhaustive search ------------------------------------------------------------------


def _brute_force(mat: list[list[int]], nodes: list[int]) -> tuple[list[int], int]:
    """Lexicographically first optimal order of ``nodes`` (0-based) and its cost.

    Depth-first over permutations in lexicographic order; a prefix is dropped once it
    costs more than the best complete order seen (or than a heuristic order before any).
    """
    n = len(nodes)
    if n <= 1:
        return list(nodes), 0
    start = _heuristic_order(mat, nodes)
    bound = _cost(mat, start)
    best: list[int] | None = None
    prefix: list[int] = []
    used = [False] * n

    def dfs(cost: int) -> None:
        nonlocal bound, best
        if len(prefix) == n:
            if best is None or cost < bound:
                bound, best = cost, list(prefix)
            return
        for k in range(n):
            if used[k]:
                continue
            v = nodes[k]
            row = mat[v]
            new = cost + sum(row[u] for u in prefix)
            if new > bound or (best is not None and new >= bound):
                continue
            used[k] = True
            prefix.append(v)
            dfs(new)
            prefix.pop()
            used[k] = False

    dfs(0)
    assert best is not None  # the heuristic order itself is never pruned
    return best, bound


def _cost(mat: list[list[int]], order: list[int]) -> int:
    return sum(mat[order[q]][order[p]] for p in range(len(order)) for q in range(p + 1, len(order)))


def _heuristic_order(mat: list[list[int]], nodes: list[int], restarts: int = 0) -> list[int]:
    """A good order: insertion local search from the net-score order and from
    ``restarts`` seeded random orders; the cheapest local optimum wins."""
    if len(nodes) <= 1:
        return list(nodes)
    sub = np.array([[mat[u][v] for v in nodes] for u in nodes], dtype=np.int64)
    net = sub.sum(axis=1) - sub.sum(axis=0)
    start = sorted(range(len(nodes)), key=lambda k: (-int(net[k]), nodes[k]))
    best = _insertion_search(sub, start)
    best_cost = _cost_np(sub, best)
    rng = random.Random(0)
    for _ in range(restarts):
        order = list(range(len(nodes)))
        rng.shuffle(order)
        order = _insertion_search(sub, order)
        cost = _cost_np(sub, order)
        if cost < best_cost:
            best, best_cost = order, cost
    return [nodes[k] for k in best]


def _cost_np(sub: np.ndarray, order: list[int]) -> int:
    perm = sub[np.ix_(order, order)]
    return int(np.tril(perm, -1).sum())  # entry [q, p], q after p: a back edge


def _insertion_search(sub: np.ndarray, order: list[int]) -> list[int]:
    """Move single nodes to their best slot until no move lowers the cost."""
    improved = True
    while improved:
        improved = False
        for v in list(order):
            rest = [u for u in order if u != v]
            out_w = sub[v, rest]  # paid when u is placed before v
            in_w = sub[rest, v]  # paid when u is placed after v
            # placing v at slot t: pay out_w[:t] and in_w[t:]
            costs = np.concatenate(([0], np.cumsum(out_w))) + np.concatenate((np.cumsum(in_w[::-1])[::-1], [0]))
            here = order.index(v)
            t = int(np.argmin(costs))
            if costs[t] < costs[here]:
                rest.insert(t, v)
                order = rest
                improved = True
    return order


def brute_force_feedback_arc_set(weights: Any, m: int | None = None) -> FasResult:
    """Minimum weighted feedback arc set by exhaustive search over all orders of ``1..m``
    (``m <= 9``): the lexicographically first optimal order.  An independent check of
    :func:`min_feedback_arc_set` (Duchi et al. 2010, proof of Lemma 7)."""
    t0 = time.perf_counter()
    m, a = as_weights(weights, m)
    if m > BRUTE_FORCE_MAX_NODES:
        raise invalid(
            "m",
            m,
            f"at most {BRUTE_FORCE_MAX_NODES} nodes for exhaustive search",
            "use min_feedback_arc_set for larger graphs",
        )
    mat, _scale = _integer_matrix(m, a)
    best, _c = _brute_force(mat, list(range(m)))
    order = tuple(v + 1 for v in best)
    return FasResult(
        order=order,
        removed=_back_edges(a, order),
        weight=sum((a[e] for e in _back_edges(a, order)), Fraction(0)),
        certified=True,
        method=f"exhaustive search over the {math.factorial(m)} orders",
        seconds=time.perf_counter() - t0,
    )


# --- MILP -------------------------------------------------------------------------------


@dataclass
class _Component:
    order: list[int]
    certified: bool
    method: str


def _milp_component(mat: list[list[int]], nodes: list[int], deadline: float | None) -> _Component:
    """Solve one strongly connected component (0-based node ids) with lazy triangles."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    n = len(nodes)
    pair_index = {}
    for p in range(n):
        for q in range(p + 1, n):
            pair_index[(p, q)] = len(pair_index)
    w = np.array([[mat[u][v] for v in nodes] for u in nodes], dtype=np.float64)
    c = np.array([w[q, p] - w[p, q] for (p, q) in pair_index], dtype=np.float64)
    const = float(sum(w[p, q] for (p, q) in pair_index))
    triples = np.array(list(itertools.combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)
    t_pq = np.array([pair_index[(p, q)] for p, q, _r in triples], dtype=np.int64)
    t_qr = np.array([pair_index[(q, r)] for _p, q, r in triples], dtype=np.int64)
    t_pr = np.array([pair_index[(p, r)] for p, _q, r in triples], dtype=np.int64)

    def slack(x: np.ndarray) -> np.ndarray:
        return x[t_pq] + x[t_qr] - x[t_pr]

    def rows(active: np.ndarray) -> list[Any]:
        ids = np.flatnonzero(active)
        if ids.size == 0:
            return []
        r = np.repeat(np.arange(ids.size), 3)
        cols = np.stack([t_pq[ids], t_qr[ids], t_pr[ids]], axis=1).ravel()
        vals = np.tile([1.0, 1.0, -1.0], ids.size)
        a_mat = csr_matrix((vals, (r, cols)), shape=(ids.size, c.size))
        return [LinearConstraint(a_mat, 0.0, 1.0)]

    def remaining() -> float | None:
        return None if deadline is None else max(deadline - time.perf_counter(), 0.01)

    def exact_cost(order: list[int]) -> int:
        return _cost(mat, order)

    heur = _heuristic_order(mat, nodes, restarts=_RESTARTS)
    upper = exact_cost(heur)

    def certifies(bound: float, cost: int) -> bool:
        return bound > cost - 1 + _CERT_REL_TOL * max(1.0, abs(cost))

    # 1. LP cutting-plane loop over triangle inequalities
    active = np.zeros(len(triples), dtype=bool)
    lp_rounds = 0
    lp_bound = -math.inf
    while True:
        lp_rounds += 1
        opts: dict[str, Any] = {"presolve": True}
        if remaining() is not None:
            opts["time_limit"] = remaining()
        res = milp(c, constraints=rows(active), bounds=Bounds(0, 1), options=opts)
        if res.x is None:
            break
        s = slack(res.x)
        viol = ((s > 1 + _SEP_TOL) | (s < -_SEP_TOL)) & ~active
        if not viol.any():
            lp_bound = float(res.fun) + const
            active |= (s >= 1 - _NEAR_TIGHT) | (s <= _NEAR_TIGHT)
            break
        active |= viol
        if deadline is not None and time.perf_counter() > deadline:
            break
    if certifies(lp_bound, upper):
        return _Component(heur, True, f"heuristic order proved optimal by LP bound ({n} nodes)")

    # 2. MILP on the active triangles, re-solved while the integer solution is cyclic
    best, best_cost, certified, rounds = heur, upper, False, 0
    status = ""
    while True:
        rounds += 1
        opts = {
            **_MILP_OPTIONS,
            # only solutions at least as good as the heuristic order are of interest
            "objective_bound": upper - const + 0.5,
        }
        if remaining() is not None:
            opts["time_limit"] = remaining()
        with warnings.catch_warnings():
            # HiGHS options beyond scipy's list are passed verbatim, with a warning
            warnings.filterwarnings("ignore", message="Unrecognized options", category=RuntimeWarning)
            res = milp(
                c,
                constraints=rows(active),
                integrality=np.ones(c.size),
                bounds=Bounds(0, 1),
                options=opts,
            )
        status = str(res.message)
        if res.x is None:
            break
        x = np.round(res.x)
        s = slack(x)
        viol = (s > 1) | (s < 0)
        if viol.any():
            active |= viol
            if deadline is not None and time.perf_counter() > deadline:
                status = "time limit reached with triangle inequalities still violated"
                break
            continue
        # transitive tournament: the number of nodes each node precedes orders them
        wins = np.zeros(n)
        for (p, q), k in pair_index.items():
            if x[k] > 0.5:
                wins[p] += 1
            else:
                wins[q] += 1
        local = sorted(range(n), key=lambda k: -wins[k])
        order = [nodes[k] for k in local]
        cost = exact_cost(order)
        if cost < best_cost:
            best, best_cost = order, cost
        bound = getattr(res, "mip_dual_bound", None)
        # the dual bound is a valid lower bound also when the time limit stopped HiGHS
        if res.status in (0, 1) and bound is not None and math.isfinite(bound):
            certified = certifies(float(bound) + const, best_cost)
        break
    how = (
        f"HiGHS MILP ({n} nodes, {int(active.sum())} of {len(triples)} triangle "
        f"inequalities, {lp_rounds} LP + {rounds} MILP rounds)"
    )
    if not certified:
        how += f", NOT certified ({status})"
    return _Component(best, certified, how)


def min_feedback_arc_set(
    weights: Any,
    m: int | None = None,
    *,
    time_limit: float | None = None,
    brute_force_nodes: int = SCC_BRUTE_FORCE_NODES,
) -> FasResult:
    """Exact minimum weighted feedback arc set of the expected graph ``a`` (Duchi et al.
    2010, Lemma 7 and its proof): the order (best first) minimising the total weight of
    back edges, which equals ``min_alpha l(p, alpha)`` of Eq. (8).

    Components of the positive-weight graph are ordered topologically and solved one by
    one: exhaustively up to ``brute_force_nodes`` (default 7, at most 9) nodes, by a HiGHS
    MILP beyond (see the module docstring).
    ``certified`` is True only when every component is proved optimal; ``time_limit``
    (seconds, for all MILPs together) may leave it False, with the best order found.
    """
    t0 = time.perf_counter()
    m, a = as_weights(weights, m)
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
            raise invalid("time_limit", time_limit, "a number of seconds > 0")
        if not time_limit > 0:
            raise invalid("time_limit", time_limit, "a number of seconds > 0")
    if (
        isinstance(brute_force_nodes, bool)
        or not isinstance(brute_force_nodes, int)
        or not 1 <= brute_force_nodes <= BRUTE_FORCE_MAX_NODES
    ):
        raise invalid("brute_force_nodes", brute_force_nodes, f"an int in 1..{BRUTE_FORCE_MAX_NODES}")
    deadline = None if time_limit is None else t0 + float(time_limit)
    mat, _scale = _integer_matrix(m, a)
    g = nx.DiGraph()
    g.add_nodes_from(range(m))
    g.add_edges_from((i - 1, j - 1) for (i, j), w in sorted(a.items()) if w > 0)
    comps = [sorted(cc) for cc in nx.strongly_connected_components(g)]
    cond = nx.condensation(g, scc=comps)
    comp_order = list(nx.lexicographical_topological_sort(cond, key=lambda k: min(cond.nodes[k]["members"])))
    order0: list[int] = []
    certified = True
    methods: list[str] = []
    n_brute = 0
    for k in comp_order:
        nodes = sorted(cond.nodes[k]["members"])
        if len(nodes) <= brute_force_nodes:
            part, _c = _brute_force(mat, nodes)
            if len(nodes) > 1:
                n_brute += 1
        else:
            comp = _milp_component(mat, nodes, deadline)
            part = comp.order
            certified &= comp.certified
            methods.append(comp.method)
        order0.extend(part)
    order = tuple(v + 1 for v in order0)
    removed = _back_edges(a, order)
    summary = f"{len(comps)} strongly connected component(s)"
    if n_brute:
        summary += f"; {n_brute} solved exhaustively (<= {brute_force_nodes} nodes)"
    if methods:
        summary += "; " + "; ".join(methods)
    return FasResult(
        order=order,
        removed=removed,
        weight=sum((a[e] for e in removed), Fraction(0)),
        certified=certified,
        method=summary,
        seconds=time.perf_counter() - t0,
    )
