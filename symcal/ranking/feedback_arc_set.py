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

import numpy as np

from symcal import display
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
    ``method`` says how each component was solved.  ``lower_bound`` is a proved lower bound
    on the minimum (equal to ``weight`` when certified): when a time limit stops the search,
    the minimum lies in ``[lower_bound, weight]``.
    """

    order: tuple[int, ...]
    removed: tuple[Edge, ...]
    weight: Fraction
    certified: bool
    method: str
    seconds: float
    lower_bound: Fraction | None = None

    def _repr_html_(self) -> str | None:
        return display.render("fas", "html", self)


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
        seq = tuple(itertools.islice(order, m + 1))  # one more than a permutation has: an endless iterator stops
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
    rows = [[mat[u][v] for v in nodes] for u in nodes]
    big = max((abs(v) for row in rows for v in row), default=0)
    # int64 while every sum of a row fits; Python ints (exact, slower) beyond
    sub = np.array(rows, dtype=np.int64 if big * len(nodes) ** 2 < 2**62 else object)
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


# --- lower bounds -----------------------------------------------------------------------

# deadlines count CPU seconds of this process (ARCHITECTURE.md, *Rules of trust*, rule 5: a limit
# that does not depend on the load); HiGHS gets the CPU time left as its (wall-clock) time_limit, which under load
# stops it early, never late
_now = time.process_time


def _pairwise_bound(sub: np.ndarray) -> int:
    """Every order pays at least ``min(w_uv, w_vu)`` on each pair: an exact lower bound."""
    n = sub.shape[0]
    iu = np.triu_indices(n, 1)
    return int(np.minimum(sub, sub.T)[iu].sum())


def _packing_bound(sub: np.ndarray, deadline: float | None) -> int:
    """The pairwise bound plus a greedy packing of directed 3-cycles of the excess graph
    ``r_uv = max(w_uv - w_vu, 0)``: cycles with amounts ``t_c >= 0`` and ``sum_{c ∋ e} t_c
    <= r_e`` on every edge add ``sum_c t_c`` (an order breaks an edge of every cycle, and an
    edge broken pays at least the amounts of the cycles through it).  Exact integers; a
    packing cut short by the deadline is still a packing."""
    n = sub.shape[0]
    r = np.maximum(sub - sub.T, 0)
    extra = 0
    for i in range(n):
        if deadline is not None and _now() > deadline:
            break
        for j in np.flatnonzero(r[i] > 0):
            rij = r[i, j]
            if rij <= 0:
                continue
            cap = np.minimum(r[j, :], r[:, i])  # 3-cycles i -> j -> k -> i
            ks = np.flatnonzero(cap > 0)
            if ks.size == 0:
                continue
            cc = cap[ks]
            take = np.clip(rij - (np.cumsum(cc) - cc), 0, cc)
            total = take.sum()
            if total <= 0:
                continue
            r[j, ks] -= take
            r[ks, i] -= take
            r[i, j] -= total
            extra += int(total)
    return _pairwise_bound(sub) + extra


def _float_bound(bound: float) -> int:
    """The integer lower bound implied by a floating (HiGHS) bound on an integer minimum,
    allowing a relative error of ``_CERT_REL_TOL``."""
    return math.ceil(bound - 1 + _CERT_REL_TOL * max(1.0, abs(bound))) if math.isfinite(bound) else -(10**30)


# --- MILP -------------------------------------------------------------------------------

# the triangle LP/MILP is tried on components of at most this many nodes (all C(n, 3)
# triangle inequalities are scanned each round: 551,300 at 150 nodes; at 300 nodes one LP
# round takes longer than the default minute and never beat the packing bound in our runs);
# beyond, the best local-search order and the exact packing bound are reported
LP_MAX_NODES = 150
_MAX_CUTS_PER_ROUND = 20_000


@dataclass
class _Component:
    order: list[int]  # local indices 0..n-1
    certified: bool
    method: str
    cost: int = 0
    lower: int = 0


def _restarts(n: int) -> int:
    return min(_RESTARTS, max(5, 5000 // max(n, 1)))


def _heuristic_local(sub: np.ndarray, restarts: int, deadline: float | None) -> list[int]:
    """:func:`_heuristic_order` on a local matrix, stopping restarts at the deadline."""
    n = sub.shape[0]
    if n <= 1:
        return list(range(n))
    net = sub.sum(axis=1) - sub.sum(axis=0)
    start = sorted(range(n), key=lambda k: (-int(net[k]), k))
    best = _insertion_search(sub, start)
    best_cost = _cost_np(sub, best)
    rng = random.Random(0)
    for _ in range(restarts):
        if deadline is not None and _now() > deadline:
            break
        order = list(range(n))
        rng.shuffle(order)
        order = _insertion_search(sub, order)
        cost = _cost_np(sub, order)
        if cost < best_cost:
            best, best_cost = order, cost
    return best


def _remaining(deadline: float | None) -> float | None:
    """CPU seconds left before ``deadline`` (at least 0.01), or None without a deadline."""
    return None if deadline is None else max(deadline - _now(), 0.01)


def _out_of_time(deadline: float | None) -> bool:
    """Whether the CPU-time ``deadline`` has passed."""
    return deadline is not None and _now() > deadline


def _with_time_limit(opts: dict[str, Any], deadline: float | None) -> dict[str, Any]:
    """``opts`` with HiGHS's ``time_limit`` set to the time left, when there is a deadline."""
    if _remaining(deadline) is not None:
        opts["time_limit"] = _remaining(deadline)
    return opts


def _float_weights(sub: np.ndarray) -> np.ndarray | None:
    """``sub`` as floats for HiGHS, or None when the weights are beyond floating range."""
    n = sub.shape[0]
    try:
        w = sub.astype(np.float64)
    except OverflowError:
        w = np.full((1, 1), np.inf)
    if not np.isfinite(w).all() or np.abs(w).max() * n * n > 1e300:
        return None
    return w


class _Triangles:
    """The triangle LP of one component: ``x_pq`` for p < q ("p before q") costs
    ``const + c·x``, and each triple p < q < r has the transitivity inequality
    ``0 <= x_pq + x_qr - x_pr <= 1``."""

    def __init__(self, w: np.ndarray) -> None:
        n = self.n = w.shape[0]
        self.iu = np.triu_indices(n, 1)
        self.n_pairs = self.iu[0].size
        # x_pq for p < q ("p before q"), index p*n - p(p+1)/2 + (q - p - 1)
        self.c = (w.T - w)[self.iu]
        self.const = float(w[self.iu].sum())
        tri = np.array(list(itertools.combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)
        self.t_pq = self._pidx(tri[:, 0], tri[:, 1])
        self.t_qr = self._pidx(tri[:, 1], tri[:, 2])
        self.t_pr = self._pidx(tri[:, 0], tri[:, 2])

    def _pidx(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The index of the variable ``x_pq`` (p < q)."""
        return p * self.n - p * (p + 1) // 2 + (q - p - 1)

    def slack(self, x: np.ndarray) -> np.ndarray:
        """``x_pq + x_qr - x_pr`` of every triangle."""
        return x[self.t_pq] + x[self.t_qr] - x[self.t_pr]

    def rows(self, active: np.ndarray) -> list[Any]:
        """The triangle inequalities marked ``active``, as scipy constraints."""
        from scipy.optimize import LinearConstraint
        from scipy.sparse import csr_matrix

        ids = np.flatnonzero(active)
        if ids.size == 0:
            return []
        r = np.repeat(np.arange(ids.size), 3)
        cols = np.stack([self.t_pq[ids], self.t_qr[ids], self.t_pr[ids]], axis=1).ravel()
        vals = np.tile([1.0, 1.0, -1.0], ids.size)
        a_mat = csr_matrix((vals, (r, cols)), shape=(ids.size, self.n_pairs))
        return [LinearConstraint(a_mat, 0.0, 1.0)]

    @staticmethod
    def most_violated(s: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``mask`` cut to the ``_MAX_CUTS_PER_ROUND`` most violated triangles."""
        ids = np.flatnonzero(mask)
        if ids.size > _MAX_CUTS_PER_ROUND:
            amount = np.maximum(s[ids] - 1, -s[ids])
            ids = ids[np.argsort(-amount, kind="stable")[:_MAX_CUTS_PER_ROUND]]
        out = np.zeros_like(mask)
        out[ids] = True
        return out

    def order(self, x: np.ndarray) -> list[int]:
        """The order of a transitive tournament ``x``: by the number of nodes each node precedes."""
        n = self.n
        wins = np.zeros(n)
        xm = np.zeros((n, n))
        xm[self.iu] = x
        wins += (xm > 0.5).sum(axis=1)
        wins += ((xm < 0.5) & (np.triu(np.ones((n, n)), 1) > 0)).sum(axis=0)
        return sorted(range(n), key=lambda k: -wins[k])


@dataclass
class _Cuts:
    """The state of the triangle cutting planes: the active inequalities, the exact lower bound
    and the rounds run."""

    active: np.ndarray
    lower: int
    lp_rounds: int = 0
    lp_done: bool = False
    rounds: int = 0


def _lp_cutting_planes(tri: _Triangles, cuts: _Cuts, deadline: float | None) -> None:
    """LP cutting-plane loop over triangle inequalities, raising ``cuts.lower``; every LP
    solved to optimality (with any subset of the triangles) is a valid lower bound."""
    from scipy.optimize import Bounds, milp

    while not _out_of_time(deadline):
        cuts.lp_rounds += 1
        opts = _with_time_limit({"presolve": True}, deadline)
        res = milp(tri.c, constraints=tri.rows(cuts.active), bounds=Bounds(0, 1), options=opts)
        if res.x is None or res.status != 0:
            break
        cuts.lower = max(cuts.lower, _float_bound(float(res.fun) + tri.const))
        s = tri.slack(res.x)
        viol = ((s > 1 + _SEP_TOL) | (s < -_SEP_TOL)) & ~cuts.active
        if not viol.any():
            cuts.lp_done = True
            cuts.active |= (s >= 1 - _NEAR_TIGHT) | (s <= _NEAR_TIGHT)
            break
        cuts.active |= tri.most_violated(s, viol)


def _milp_round(tri: _Triangles, cuts: _Cuts, best_cost: int, deadline: float | None) -> Any:
    """One HiGHS MILP on the active triangles, raising ``cuts.lower`` by its dual bound."""
    from scipy.optimize import Bounds, milp

    # only solutions at least as good as the heuristic order are of interest
    opts = _with_time_limit({**_MILP_OPTIONS, "objective_bound": best_cost - tri.const + 0.5}, deadline)
    with warnings.catch_warnings():
        # HiGHS options beyond scipy's list are passed verbatim, with a warning
        warnings.filterwarnings("ignore", message="Unrecognized options", category=RuntimeWarning)
        res = milp(
            tri.c,
            constraints=tri.rows(cuts.active),
            integrality=np.ones(tri.c.size),
            bounds=Bounds(0, 1),
            options=opts,
        )
    bound = getattr(res, "mip_dual_bound", None)
    # the dual bound of a relaxation (a subset of the triangles) is a valid lower bound,
    # also when the time limit stopped HiGHS
    if res.status in (0, 1) and bound is not None and math.isfinite(bound):
        cuts.lower = max(cuts.lower, _float_bound(float(bound) + tri.const))
    if res.status == 2:
        # no point of the relaxation costs below best_cost - 1/2: integer costs make
        # best_cost the minimum
        cuts.lower = max(cuts.lower, best_cost)
    return res


def _milp_search(
    tri: _Triangles, cuts: _Cuts, sub: list[list[int]], heur: list[int], upper: int, deadline: float | None
) -> tuple[list[int], int, str]:
    """MILP on the active triangles, re-solved while the integer solution is cyclic: the
    best order, its exact cost and HiGHS's last status."""
    best, best_cost = heur, upper
    status = "time limit reached" if _out_of_time(deadline) else ""
    while not _out_of_time(deadline):
        cuts.rounds += 1
        res = _milp_round(tri, cuts, best_cost, deadline)
        status = str(res.message)
        if res.x is None:
            break
        x = np.round(res.x)
        s = tri.slack(x)
        viol = (s > 1) | (s < 0)
        if viol.any():
            cuts.active |= tri.most_violated(s, viol)
            status = "time limit reached with triangle inequalities still violated"
            continue
        local = tri.order(x)
        cost = _cost(sub, local)
        if cost < best_cost:
            best, best_cost = local, cost
        break
    return best, best_cost, status


def _milp_component(sub: np.ndarray, deadline: float | None) -> _Component:
    """Solve one strongly connected component (local ids 0..n-1): heuristic order, exact
    packing bound, then LP cutting planes and a MILP on the triangles found."""
    t_start = _now()
    n = sub.shape[0]
    subl = sub.tolist()
    # the local search takes at most a fifth of the time left
    h_deadline = None if deadline is None else t_start + (deadline - t_start) / 5
    heur = _heuristic_local(sub, _restarts(n), h_deadline)
    upper = _cost(subl, heur)
    lower = _packing_bound(sub, deadline)
    if lower >= upper:
        return _Component(heur, True, f"heuristic order proved optimal by the 3-cycle packing bound ({n} nodes)",
                           upper, upper)
    if n > LP_MAX_NODES or _out_of_time(deadline):
        why = (f"more than {LP_MAX_NODES} nodes: no triangle LP" if n > LP_MAX_NODES else "time limit reached")
        return _Component(heur, False, f"local search ({n} nodes), NOT certified ({why}; exact lower bound "
                                       "by 3-cycle packing)", upper, lower)
    w = _float_weights(sub)
    if w is None:
        return _Component(heur, False, f"local search ({n} nodes), NOT certified (weights beyond floating range: "
                                       "no LP; exact lower bound by 3-cycle packing)", upper, lower)
    tri = _Triangles(w)
    cuts = _Cuts(np.zeros(tri.t_pq.size, dtype=bool), lower)
    # 1. LP cutting-plane loop over triangle inequalities
    _lp_cutting_planes(tri, cuts, deadline)
    if cuts.lower >= upper:
        return _Component(heur, True, f"heuristic order proved optimal by LP bound ({n} nodes)", upper, upper)
    # 2. MILP on the active triangles, re-solved while the integer solution is cyclic
    best, best_cost, status = _milp_search(tri, cuts, subl, heur, upper, deadline)
    certified = cuts.lower >= best_cost
    how = (
        f"HiGHS MILP ({n} nodes, {int(cuts.active.sum())} of {tri.t_pq.size} triangle "
        f"inequalities, {cuts.lp_rounds} LP{'' if cuts.lp_done else ' (unfinished)'} + {cuts.rounds} MILP rounds)"
    )
    if not certified:
        how += f", NOT certified ({status or 'gap left'})"
    return _Component(best, certified, how, best_cost, best_cost if certified else cuts.lower)


@dataclass(frozen=True)
class _Solved:
    order: list[int]  # 0-based, best first
    cost: int  # exact, in units of 1/scale
    lower: int
    certified: bool
    method: str


def _components(pos: np.ndarray) -> list[list[int]]:
    """Strongly connected components of the graph ``pos`` (bool m x m), each sorted, in the
    lexicographically first topological order of the condensation (smallest member first)."""
    import heapq

    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    m = pos.shape[0]
    n_comp, labels = connected_components(csr_matrix(pos), directed=True, connection="strong")
    members: list[list[int]] = [[] for _ in range(n_comp)]
    for v in range(m):
        members[labels[v]].append(v)
    src, dst = np.nonzero(pos)
    lu, lv = labels[src], labels[dst]
    keep = lu != lv
    succ: list[set[int]] = [set() for _ in range(n_comp)]
    indeg = [0] * n_comp
    for a, b in set(zip(lu[keep].tolist(), lv[keep].tolist(), strict=True)):
        succ[a].add(b)
        indeg[b] += 1
    heap = [(members[k][0], k) for k in range(n_comp) if indeg[k] == 0]
    heapq.heapify(heap)
    out: list[list[int]] = []
    while heap:
        _key, k = heapq.heappop(heap)
        out.append(members[k])
        for b in succ[k]:
            indeg[b] -= 1
            if indeg[b] == 0:
                heapq.heappush(heap, (members[b][0], b))
    return out


def _solve(w: np.ndarray, deadline: float | None, brute_force_nodes: int) -> _Solved:
    """Minimum feedback arc set of the integer matrix ``w`` (0-based): components of the
    positive-weight graph in topological order, each solved exhaustively or by the MILP."""
    comps = _components(w > 0)
    order: list[int] = []
    certified = True
    cost = lower = 0
    methods: list[str] = []
    n_brute = 0
    for nodes in comps:
        if len(nodes) == 1:
            order.extend(nodes)
            continue
        sub = w[np.ix_(nodes, nodes)]
        if len(nodes) <= brute_force_nodes:
            part, c = _brute_force(sub.tolist(), list(range(len(nodes))))
            n_brute += 1
            cost += c
            lower += c
        else:
            comp = _milp_component(sub, deadline)
            part = comp.order
            certified &= comp.certified
            methods.append(comp.method)
            cost += comp.cost
            lower += comp.lower
        order.extend(nodes[k] for k in part)
    summary = f"{len(comps)} strongly connected component(s)"
    if n_brute:
        summary += f"; {n_brute} solved exhaustively (<= {brute_force_nodes} nodes)"
    if methods:
        summary += "; " + "; ".join(methods)
    return _Solved(order, cost, cost if certified else lower, certified, summary)


def _check_time_limit(time_limit: Any) -> float | None:
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise invalid("time_limit", time_limit, "a number of seconds > 0")
    if not 0 < time_limit <= 1e9:  # also NaN and inf; 1e9 s (31 years) keeps float() exact enough
        raise invalid("time_limit", time_limit, "a finite number of seconds > 0")
    return float(time_limit)


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
    (CPU seconds for the whole search) may leave it False, with the best order found and a
    proved ``lower_bound``.
    """
    t0 = time.perf_counter()
    c0 = _now()
    from symcal.ranking.preference import weight_matrix

    limit = _check_time_limit(time_limit)
    if (
        isinstance(brute_force_nodes, bool)
        or not isinstance(brute_force_nodes, int)
        or not 1 <= brute_force_nodes <= BRUTE_FORCE_MAX_NODES
    ):
        raise invalid("brute_force_nodes", brute_force_nodes, f"an int in 1..{BRUTE_FORCE_MAX_NODES}")
    w, scale = weight_matrix(weights, m)
    deadline = None if limit is None else c0 + limit
    sol = _solve(w, deadline, brute_force_nodes)
    order = tuple(v + 1 for v in sol.order)
    pos = np.empty(len(order), dtype=np.int64)
    pos[list(sol.order)] = np.arange(len(order))
    back = (w > 0) & (pos[None, :] < pos[:, None])  # i -> j with j placed before i
    removed = tuple((int(i) + 1, int(j) + 1) for i, j in np.argwhere(back))
    return FasResult(
        order=order,
        removed=removed,
        weight=Fraction(sol.cost, scale),
        certified=sol.certified,
        method=sol.method,
        seconds=time.perf_counter() - t0,
        lower_bound=Fraction(sol.lower, scale),
    )
