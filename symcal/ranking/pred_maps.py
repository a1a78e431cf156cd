"""Pred maps of Ramaswamy, Agarwal & Tewari (2013): from a surrogate prediction ``u`` back to
a permutation ``sigma`` (``sigma[i-1]`` = position of document ``i``).

* Theorem 3: ``pred*(u) in argmin_t u^T beta_t`` for any decomposition (exact argmin).
* Section 4: top-``q`` selection for Precision@q (WTA: ``q = 1``).
* Section 5: sorting for ERU -- right when the discounts decrease with the position
  (``w > 1``); for ``w < 1`` they increase and the right map sorts in *increasing* order.
* Section 6: ``pred*_MAP`` as an exact quadratic assignment (enumeration over ``S_r``, small
  ``r``) and the diagonal sort ``pred-bar_MAP`` of Theorem 4.
* Section 7: ``pred*_PD`` as an exact minimum weighted feedback arc set
  (:func:`symcal.ranking.feedback_arc_set.min_feedback_arc_set`, HiGHS MILP beyond 7
  nodes) and Algorithm 1 (networkx: delete the lightest edges until acyclic, then a
  topological order).

Ties: sorting maps break ties by document index (lower first); Algorithm 1 deletes equal
weights in edge order and returns the lexicographically smallest topological order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import networkx as nx

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction
from symcal.ranking.loss_matrix import Decomposition, check_permutation, order_of, permutations

__all__ = [
    "scores",
    "sigma_from_order",
    "respects_scores",
    "argmin_linear",
    "top_q",
    "precision_objective",
    "sort_by_scores",
    "eru_objective",
    "eru_pred",
    "map_objective",
    "qap_objective",
    "map_pred_qap",
    "map_pred_diagonal",
    "pd_objective",
    "pd_pred_brute",
    "pd_pred_fas",
    "algorithm1",
    "algorithm1_orders",
]

T = TypeVar("T")


def scores(u: Sequence[Any], param: str = "u") -> tuple[Fraction, ...]:
    """Exact score vector (floats refused)."""
    if isinstance(u, (str, bytes, Mapping)):
        raise invalid(param, u, "a sequence of exact scores")
    try:
        out = tuple(to_fraction(x, f"{param}[{i}]") for i, x in enumerate(u))
    except TypeError:
        raise invalid(param, u, "a sequence of exact scores") from None
    if not out:
        raise invalid(param, u, "at least one score")
    return out


def sigma_from_order(order: Sequence[int]) -> tuple[int, ...]:
    """Positions from a list of documents best first: ``sigma(order[k]) = k + 1``."""
    sigma = [0] * len(order)
    for k, doc in enumerate(order):
        sigma[doc - 1] = k + 1
    return tuple(sigma)


def respects_scores(sigma: Sequence[int], u: Sequence[Any]) -> bool:
    """``u_i > u_j => sigma(i) < sigma(j)`` for all ``i, j`` (the sets of Sections 5-7)."""
    r = len(u)
    return all(not (u[i] > u[j]) or sigma[i] < sigma[j] for i in range(r) for j in range(r))


def argmin_linear(u: Sequence[Any], decomposition: Decomposition) -> tuple[list[int], Fraction]:
    """``argmin_t u^T beta_t`` (Theorem 3's ``pred*``): every minimising prediction index, and
    the minimum, in exact arithmetic."""
    uu = scores(u)
    if len(uu) != decomposition.d:
        raise invalid("u", f"{len(uu)} coordinates", f"{decomposition.d} coordinates (the decomposition's d)")
    return _optima(range(decomposition.beta.shape[0]),
                   lambda t: sum((a * b for a, b in zip(uu, decomposition.beta_of(t), strict=True)), Fraction(0)))


def _optima(items: Iterable[T], value: Callable[[T], Fraction], *, largest: bool = False) -> tuple[list[T], Fraction]:
    """Every item of ``items`` (in their order) with the least ``value`` -- the greatest when
    ``largest`` -- and that value, compared exactly; ``items`` is not empty."""
    best: Fraction | None = None
    arg: list[T] = []
    for item in items:
        val = value(item)
        if best is None or (val > best if largest else val < best):
            best, arg = val, [item]
        elif val == best:
            arg.append(item)
    assert best is not None
    return arg, best


def sort_by_scores(u: Sequence[Any], *, descending: bool = True) -> tuple[int, ...]:
    """Sort documents by score (decreasing by default; ties by index): positions."""
    uu = scores(u)
    key = (lambda i: (-uu[i], i)) if descending else (lambda i: (uu[i], i))
    return sigma_from_order([i + 1 for i in sorted(range(len(uu)), key=key)])


def top_q(u: Sequence[Any], q: int) -> tuple[int, ...]:
    """``pred*_P@q``: the ``q`` highest scores in the top ``q`` positions, sorted (Section 4);
    the others after them by index."""
    uu = scores(u)
    if isinstance(q, bool) or not isinstance(q, int) or not 1 <= q <= len(uu):
        raise invalid("q", q, f"an integer 1 <= q <= {len(uu)}")
    top = sorted(range(len(uu)), key=lambda i: (-uu[i], i))[:q]
    rest = [i for i in range(len(uu)) if i not in top]
    return sigma_from_order([i + 1 for i in top + rest])


def precision_objective(u: Sequence[Any], sigma: Sequence[int], q: int) -> Fraction:
    """``sum_i u_i 1(sigma(i) <= q)`` (Section 4, the argmax defining ``pred*_P@q``)."""
    uu = scores(u)
    sigma = check_permutation(sigma, len(uu))
    return sum((x for x, s in zip(uu, sigma, strict=True) if s <= q), Fraction(0))


def eru_objective(u: Sequence[Any], sigma: Sequence[int], w: Any) -> Fraction:
    """``sum_i u_i 2^((1 - sigma(i))/(w - 1))`` (Section 5, the argmax defining ``pred*_ERU``)."""
    from symcal.ranking.subset_losses import eru_discounts

    uu = scores(u)
    sigma = check_permutation(sigma, len(uu))
    disc = eru_discounts(len(uu), w)
    return sum((x * disc[s - 1] for x, s in zip(uu, sigma, strict=True)), Fraction(0))


def eru_pred(u: Sequence[Any], w: Any) -> tuple[int, ...]:
    """``pred*_ERU``: sort decreasing when ``w > 1`` (discounts decrease with the position) and
    increasing when ``w < 1`` (they increase); ``w = 1`` is undefined."""
    w = to_fraction(w, "w")
    if w == 1:
        raise invalid("w", "1", "w != 1 (ERU divides by w - 1)")
    return sort_by_scores(u, descending=w > 1)


def _map_u(u: Any, r: int) -> dict[tuple[int, int], Fraction]:
    """``{(i, j): u_ij}`` for ``i >= j`` from a mapping (either order of the pair) or a
    sequence in the order of :func:`symcal.ranking.subset_losses.map_pairs`."""
    pairs = [(i, j) for i in range(1, r + 1) for j in range(1, i + 1)]
    if isinstance(u, Mapping):
        out = {}
        for i, j in pairs:
            key = (i, j) if (i, j) in u else (j, i)
            if key not in u:
                raise invalid("u", f"no entry for ({i}, {j})", f"an entry u_ij for every i >= j in 1..{r}")
            out[(i, j)] = to_fraction(u[key], f"u[{i},{j}]")
        return out
    return _pair_coordinates(u, pairs, f"r(r+1)/2 = {len(pairs)} coordinates u_ij, i >= j")


def _pair_coordinates(u: Any, pairs: list[tuple[int, int]], expected: str) -> dict[tuple[int, int], Fraction]:
    """``{pair: u_pair}`` from a sequence of exact scores, one for each of ``pairs`` in their order
    (``expected`` says how many, for the error)."""
    vals = scores(u)
    if len(vals) != len(pairs):
        raise invalid("u", f"{len(vals)} coordinates", expected)
    return dict(zip(pairs, vals, strict=True))


def map_objective(u: Any, sigma: Sequence[int], r: int) -> Fraction:
    """``sum_{i=1..r} sum_{j=1..i} u_ij / max(sigma(i), sigma(j))`` (Section 6, ``pred*_MAP``)."""
    uu = _map_u(u, r)
    sigma = check_permutation(sigma, r)
    return sum((v / max(sigma[i - 1], sigma[j - 1]) for (i, j), v in uu.items()), Fraction(0))


def qap_objective(u: Any, sigma: Sequence[int], r: int) -> Fraction:
    """The Koopmans-Beckmann form ``sum_{i,j} W_ij C_{sigma(i) sigma(j)}`` with the flow
    ``W_ii = u_ii``, ``W_ij = W_ji = u_ij / 2`` (i > j) and the distance ``C_ab = 1/max(a, b)``:
    the quadratic assignment problem the paper names (Section 6)."""
    uu = _map_u(u, r)
    sigma = check_permutation(sigma, r)
    total = Fraction(0)
    for i in range(1, r + 1):
        for j in range(1, r + 1):
            w = uu[(i, i)] if i == j else uu[(max(i, j), min(i, j))] / 2
            total += w / max(sigma[i - 1], sigma[j - 1])
    return total


def map_pred_qap(u: Any, r: int) -> tuple[list[tuple[int, ...]], Fraction]:
    """``pred*_MAP`` exactly: every maximiser of the QAP over ``S_r`` (``r <= 8``) and the maximum."""
    if r > 8:
        raise invalid("r", r, "r <= 8 for the exhaustive quadratic assignment")
    uu = _map_u(u, r)
    return _optima(permutations(r), lambda sigma: map_objective(uu, sigma, r), largest=True)


def map_pred_diagonal(u: Any, r: int) -> tuple[int, ...]:
    """``pred-bar_MAP`` (Section 6): sort the diagonal ``u_ii`` decreasingly."""
    uu = _map_u(u, r)
    return sort_by_scores([uu[(i, i)] for i in range(1, r + 1)])


def _pd_u(u: Any, r: int) -> dict[tuple[int, int], Fraction]:
    pairs = [(i, j) for i in range(1, r + 1) for j in range(1, r + 1) if i != j]
    if isinstance(u, Mapping):
        out = {}
        for i, j in pairs:
            out[(i, j)] = to_fraction(u.get((i, j), 0), f"u[{i},{j}]")
        extra = set(u) - set(pairs)
        if extra:
            raise invalid("u", sorted(extra)[:3], f"pairs (i, j), i != j, of 1..{r}")
        return out
    return _pair_coordinates(u, pairs, f"r(r-1) = {len(pairs)} coordinates u_ij, i != j")


def pd_objective(u: Any, sigma: Sequence[int], r: int) -> Fraction:
    """``sum_i sum_{j != i} u_ij 1(sigma(i) > sigma(j))`` (Section 7, Eq. (1))."""
    uu = _pd_u(u, r)
    sigma = check_permutation(sigma, r)
    return sum((v for (i, j), v in uu.items() if sigma[i - 1] > sigma[j - 1]), Fraction(0))


def pd_pred_brute(u: Any, r: int) -> tuple[list[tuple[int, ...]], Fraction]:
    """Every minimiser of Eq. (1)'s objective over ``S_r`` (``r <= 8``) and the minimum."""
    if r > 8:
        raise invalid("r", r, "r <= 8 for exhaustive search")
    uu = _pd_u(u, r)
    return _optima(permutations(r), lambda sigma: pd_objective(uu, sigma, r))


def pd_pred_fas(u: Any, r: int) -> tuple[tuple[int, ...], Fraction, bool]:
    """``pred*_PD`` (Section 7) as a minimum weighted feedback arc set: for ``i < j``,
    ``u_ij 1(i after j) + u_ji 1(j after i) = min(u_ij, u_ji) + (u_ij - u_ji)_+ 1(i after j)
    + (u_ji - u_ij)_+ 1(j after i)``, so the minimiser is an exact MWFAS of the difference
    graph ``(u_ij - u_ji)_+`` (:func:`min_feedback_arc_set`).  Returns (sigma, the minimum of
    Eq. (1)'s objective, certified)."""
    from symcal.ranking.feedback_arc_set import min_feedback_arc_set

    uu = _pd_u(u, r)
    weights = {(i, j): max(uu[(i, j)] - uu[(j, i)], Fraction(0)) for (i, j) in uu}
    res = min_feedback_arc_set(weights, r)
    sigma = sigma_from_order(res.order)
    const = sum((min(uu[(i, j)], uu[(j, i)]) for (i, j) in uu if i < j), Fraction(0))
    return sigma, res.weight + const, res.certified


def _algorithm1_graph(u: Any, r: int) -> tuple[nx.DiGraph, list[tuple[int, int, Fraction]]]:
    uu = _pd_u(u, r)
    g = nx.DiGraph()
    g.add_nodes_from(range(1, r + 1))
    for (i, j), v in sorted(uu.items()):
        w = v - uu[(j, i)]
        if w > 0:  # weight (u_ij - u_ji)_+; weight-0 edges would be deleted first anyway
            g.add_edge(i, j, weight=w)
    deleted = []
    if not nx.is_directed_acyclic_graph(g):
        edges = sorted(((i, j, d["weight"]) for i, j, d in g.edges(data=True)), key=lambda e: (e[2], e[0], e[1]))
        for i, j, w in edges:
            g.remove_edge(i, j)
            deleted.append((i, j, w))
            if nx.is_directed_acyclic_graph(g):
                break
    return g, deleted


def algorithm1(u: Any, r: int) -> tuple[int, ...]:
    """``pred-bar_PD`` (Algorithm 1): build the graph with weights ``(u_ij - u_ji)_+``, delete
    edges lightest first until acyclic, return a topological order (the lexicographically
    smallest) as positions."""
    g, _deleted = _algorithm1_graph(u, r)
    return sigma_from_order(list(nx.lexicographical_topological_sort(g)))


def algorithm1_orders(u: Any, r: int) -> list[tuple[int, ...]]:
    """Every permutation Algorithm 1 could return on ``u`` with this deletion order (all
    topological orders of the final graph): the set ``Pi(p)`` of the proof of Theorem 7."""
    g, _deleted = _algorithm1_graph(u, r)
    return sorted(sigma_from_order(list(o)) for o in nx.all_topological_sorts(g))


def describe_sigma(sigma: Sequence[int]) -> str:
    """``'2 > 1 > 3'``: the documents best first."""
    return " > ".join(str(d) for d in order_of(sigma))


def fraction_list(xs: Sequence[Fraction]) -> list[str]:
    return [fraction_str(x) for x in xs]
