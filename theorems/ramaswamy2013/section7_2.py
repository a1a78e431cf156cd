"""Section 7.2, Theorem 7: Algorithm 1 (pred-bar_PD) with psi*_PD is calibrated for PD over P_DAG --
on seeded distributions, and at r = 3 decided over P_DAG (and the whole simplex) through
Algorithm 1's exact closed regions; P_DAG contains every P_f, strictly."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import calibrated, finite_check, implies
from symcal.claims import described
from symcal.calibration import surrogates as calibration_surrogates
from symcal.ranking.loss_matrix import order_of
from symcal.ranking.noise_sets import duchi_f, expected_preferences, in_p_dag, in_p_f
from symcal.ranking.pred_maps import algorithm1, algorithm1_orders
from symcal.ranking.subset_losses import ordered_pairs

from .common import ONE, ZERO, F, _named_loss, cite, describe_dist, fs, r_sizes
from .section7 import _pd_dists, expected_preference_of_p, pd_matrix_of, pd_risks


def _theorem7_perturbations(case: Any, a: dict, risks: dict, best: Fraction,
                            radius_factor: Fraction) -> tuple[bool, str]:
    """Algorithm 1 on 10 seeded u within a quarter of the smallest positive u_ij - u_ji is optimal."""
    r, p = case
    diffs = [a[(i, j)] - a[(j, i)] for (i, j) in a if a[(i, j)] > a[(j, i)]]
    eps = min(diffs) if diffs else F(1)
    rad = eps / 4 * radius_factor
    rng = random.Random(r * 31 + len(p))
    for _ in range(10):
        pert = {e: v + rad * F(rng.randint(-99, 99), 100) for e, v in a.items()}
        s = algorithm1(pert, r)
        if risks[s] != best:
            return False, (f"Algorithm 1 on a perturbation within {fs(rad)} of u^p returns {s}, risk {fs(risks[s])} >"
                          f" {fs(best)}")
    return True, f"every order Algorithm 1 may return on u^p, and on 10 perturbations within {fs(rad)}, is optimal"


def theorem7_holds(case: Any, *, radius_factor: Fraction = ONE) -> tuple[bool, str]:
    """Every order Algorithm 1 may return on u^p = E[Y] is optimal for l_PD, and so is its output
    near u^p (``radius_factor`` widens the radius: a twin)."""
    r, p = case
    a = expected_preferences(p)
    risks = pd_risks(p, r)
    best = min(risks.values())
    for s in algorithm1_orders(a, r):
        if risks[s] != best:
            return False, f"Algorithm 1 on u^p can return {s} with risk {fs(risks[s])} > {fs(best)}"
    return _theorem7_perturbations(case, a, risks, best, radius_factor)


def theorem7_claim(id: str, *, radius_factor: Fraction = ONE) -> Any:
    """Theorem 7: "(psi*_PD, pred-bar_PD) is (l_PD, P_DAG)-calibrated." -- on seeded distributions."""
    return finite_check(
        id,
        cases=lambda m: [(r, p) for r in (3, 4) for p in _pd_dists(r, 7, 10, lambda p: in_p_dag(p).holds)],
        holds=lambda c: theorem7_holds(c, radius_factor=radius_factor),
        describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions and seeded perturbations of u',
        domain="10 seeded distributions in P_DAG on unit DAGs per r = 3, 4 (seed 7), exhaustive over S_r, "
               "10 perturbed u^p each",
        cite=cite("Theorem 7", "(psi*_PD, pred-bar_PD) is (l_PD, P_DAG)-calibrated."),
        statement="for p in P_DAG every order Algorithm 1 may return on u^p = E[Y] is optimal for l_PD, and so is "
                  "its output on any u within a quarter of the smallest positive u_ij - u_ji",
    )


# --- P_DAG contains P_f, strictly -------------------------------------------------------------


@functools.cache
def _dsym(i: int, j: int) -> sympy.Symbol:
    return sympy.Symbol(f"d_{i}_{j}", real=True)


def _d(i: int, j: int) -> Any:
    return _dsym(i, j) if i < j else -_dsym(j, i)


@functools.cache
def _cycles(r: int) -> tuple[tuple[int, ...], ...]:
    import networkx as nx

    g = nx.complete_graph(range(1, r + 1), create_using=nx.DiGraph)
    return tuple(sorted(tuple(c) for c in nx.simple_cycles(g) if len(c) > 2))


def p_dag_contains_p_f_claim(id: str, *, strict: bool = True) -> Any:
    """Section 7.2: "It is easy to see that P_DAG contains P_f for all f" (``strict=False`` weakens
    P_f's conclusion to >=: a twin)."""
    def hyp(r: int) -> list[Any]:
        s = sympy.symbols(f"s1:{r + 1}", real=True)
        return [sympy.Implies(_d(i, j) > 0, s[i - 1] > s[j - 1] if strict else s[i - 1] >= s[j - 1])
                for i in range(1, r + 1) for j in range(1, r + 1) if i != j]

    def concl(r: int) -> Any:
        return sympy.And(*[sympy.Not(sympy.And(*[_d(c[t], c[(t + 1) % len(c)]) > 0 for t in range(len(c))]))
                           for c in _cycles(r)])

    return implies(
        id, hypotheses={"p_in_p_f": hyp}, conclusion=concl,
        cite=cite("Section 7.2", "It is easy to see that P_DAG contains P_f for all f"),
        statement="if E[Y_ij] > E[Y_ji] implies E f_i > E f_j (d_ij = E[Y_ij] - E[Y_ji], s = E f), the graph of "
                  "positive d_ij has no directed cycle",
        sizes=r_sizes(3, 6),
        scope=described("every real d_ij = -d_ji and s_i at each r decided: every f and every p, whose "
                        "hypothesis only involves d = E[Y_ij] - E[Y_ji] and s = E f(Y)"),
    )


def _in_p_f_duchi(case: Any) -> tuple[bool, str]:
    res = in_p_f(case[1], duchi_f)
    return res.holds, res.reason


def inclusion_strict_claim(id: str, *, only_p_f: bool = False) -> Any:
    """Section 7.2: "calibrated for the PD loss under a broader set of conditions than the previous
    surrogates" -- seeded p in P_DAG outside P_f (``only_p_f`` draws inside P_f: a twin)."""
    def cases(m: Any) -> list[Any]:
        accept = (lambda p: in_p_dag(p).holds and in_p_f(p).holds) if only_p_f else (lambda p: in_p_dag(p).holds)
        return [(r, p) for r in (3, 4) for p in _pd_dists(r, 9, 12, accept)]

    return finite_check(
        id, cases=cases, holds=_in_p_f_duchi, describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions',
        domain="12 seeded distributions in P_DAG" + (" and P_f" if only_p_f else "") + " on unit DAGs per r = 3, 4",
        cite=cite("Section 7.2", "calibrated for the PD loss under a broader set of conditions than the previous "
                                 "surrogates"),
        statement="every seeded p in P_DAG is also in P_f for Duchi et al.'s f (false: P_DAG is strictly larger)",
        expected=None if only_p_f else "refuted",
    )


# --- Theorem 7 over P_DAG at r = 3 (symcal.calibration), through Algorithm 1's regions -------


@functools.cache
def p_dag_relations(r: int, *, outside: bool = False) -> tuple[Any, ...]:
    """P_DAG (Section 7.2): the graph E^p = {(i, j) : E[Y_ij] > E[Y_ji]} has no directed cycle."""
    mat = pd_matrix_of(r, "unit_dags")

    def dd(i: int, j: int) -> Any:
        return expected_preference_of_p(mat, i, j) - expected_preference_of_p(mat, j, i)

    rels = [sympy.Not(sympy.And(*[dd(c[t], c[(t + 1) % len(c)]) > 0 for t in range(len(c))])) for c in _cycles(r)]
    return (sympy.Not(sympy.And(*rels)),) if outside else tuple(rels)


def algorithm1_region(order: Sequence[int], r: int) -> list[str]:
    """Algorithm 1's closed region of the order (i, j, k) (r = 3), in u1..u6 (the coordinates u_ab
    in ordered_pairs order) with d_ab = u_ab - u_ba:  d_ij >= 0, d_jk >= 0, d_ki <= d_ij, d_ki <= d_jk.
    Either the graph is acyclic and (i, j, k) is a topological order of it (d_ij, d_jk, d_ik >= 0),
    or it is the 3-cycle i -> j -> k -> i whose lightest edge k -> i (ties: any lightest) is deleted."""
    if r != 3:
        raise ValueError("Algorithm 1's regions are encoded for r = 3 only")
    idx = {pair: c + 1 for c, pair in enumerate(ordered_pairs(r))}

    def d(a: int, b: int) -> str:
        return f"(u{idx[(a, b)]} - u{idx[(b, a)]})"

    i, j, k = order
    return [f"{d(i, j)} >= 0", f"{d(j, k)} >= 0", f"{d(k, i)} <= {d(i, j)}", f"{d(k, i)} <= {d(j, k)}"]


@functools.cache
def algorithm1_link(r: int, *, reverse: bool = False) -> dict[str, Any]:
    """pred-bar_PD (Algorithm 1) at r = 3 as closed regions, one per sigma (``reverse``: the
    reversed order's region, a twin)."""
    perms = pd_matrix_of(r, "unit_dags").predictions
    regions = [algorithm1_region(tuple(reversed(order_of(s))) if reverse else order_of(s), r) for s in perms]
    return {"regions": regions}


def algorithm1_outputs(dvals: dict[tuple[int, int], Fraction], r: int) -> set[tuple[int, ...]]:
    """Every sigma Algorithm 1 may return when d_ab = u_ab - u_ba: every deletion order that sorts
    the positive edges ascending (ties in any order), then every topological order."""
    import networkx as nx

    from symcal.ranking.pred_maps import sigma_from_order

    edges = [(a, b, w) for (a, b), w in dvals.items() if w > 0]
    out: set[tuple[int, ...]] = set()
    for seq in itertools.permutations(edges):
        if any(seq[t][2] > seq[t + 1][2] for t in range(len(seq) - 1)):
            continue
        g = nx.DiGraph()
        g.add_nodes_from(range(1, r + 1))
        g.add_edges_from((a, b) for a, b, _w in seq)
        for a, b, _w in seq:
            if nx.is_directed_acyclic_graph(g):
                break
            g.remove_edge(a, b)
        out |= {sigma_from_order(list(o)) for o in nx.all_topological_sorts(g)}
    return out


def _region_point(d12: int, d23: int, d31: int, idx: dict) -> tuple[dict, list[Fraction]]:
    """The differences d_ab of (d12, d23, d31) and a u realising them (u_ab = max(d_ab, 0))."""
    dv = {(1, 2): F(d12), (2, 1): F(-d12), (2, 3): F(d23), (3, 2): F(-d23), (3, 1): F(d31), (1, 3): F(-d31)}
    u = [ZERO] * len(idx)
    for (a, b), w in dv.items():
        u[idx[(a, b)]] = max(w, ZERO)
    return dv, u


def algorithm1_regions_holds(r: int, *, reverse: bool = False) -> tuple[bool, str]:
    """At every grid point the closed regions containing u are exactly the orders Algorithm 1 may
    return (and symcal.ranking's algorithm1_orders returns some of them)."""
    from symcal.backends.translate import truth_at
    from symcal.calibration.parse import parse_relation, variables

    idx = {pair: c for c, pair in enumerate(ordered_pairs(r))}
    perms = pd_matrix_of(r, "unit_dags").predictions
    u_syms = variables("u", len(idx))
    regions = algorithm1_link(r, reverse=reverse)["regions"]
    rels = [[parse_relation(t, "region", u_syms) for t in reg] for reg in regions]
    n = 0
    for d12, d23, d31 in itertools.product(range(-3, 4), repeat=3):
        dv, u = _region_point(d12, d23, d31, idx)
        values = dict(zip(u_syms, u, strict=True))
        inside = {s for s, reg in zip(perms, rels, strict=True) if all(truth_at(rel, values) is True for rel in reg)}
        outputs = algorithm1_outputs(dv, r)
        library = set(algorithm1_orders({pair: u[c] for pair, c in idx.items()}, r))
        n += 1
        if inside != outputs or not library <= outputs:
            return False, (f"d = (d12, d23, d31) = ({d12}, {d23}, {d31}): Algorithm 1 may return "
                           f"{sorted(outputs)}, the regions contain {sorted(inside)}"
                           + ("" if library <= outputs else f", symcal.ranking's algorithm1_orders gives {library}"))
    return True, f"{n} difference vectors: the regions containing u are exactly the orders Algorithm 1 may return"


def algorithm1_regions_claim(id: str, *, reverse: bool = False) -> Any:
    """Section 7.2, Algorithm 1: "sort the edges in ascending order by weight and delete them one by
    one (smallest weight first) until the graph becomes acyclic; return any topological sorted order"."""
    return finite_check(
        id, cases=lambda m: [3], holds=lambda r: algorithm1_regions_holds(r, reverse=reverse),
        describe=lambda r: {"r": r},
        domain=("r = 3, every (d12, d23, d31) in {-3..3}^3: both Algorithm 1's outputs (signs of d, order of the "
                "positive weights) and region membership (comparisons among +-d) depend only on the order type of "
                "{+-d12, +-d23, +-d31, 0}, and this grid realises every order type (up to 3 distinct magnitudes)"),
        cite=cite("Section 7.2, Algorithm 1",
                  "sort the edges in ascending order by weight and delete them one by one (smallest weight first) "
                  "until the graph becomes acyclic; return any topological sorted order"),
        statement=("the link of ramaswamy2013.theorem7.calibration.p_dag.r3 is Algorithm 1 exactly: at every u the "
                   "closed regions containing u are the orders Algorithm 1 may return (every tie in the deletion "
                   "order and in the topological order)" + (" [twin: reversed regions]" if reverse else "")),
    )


def theorem7_whole_claim(id: str, *, reverse: bool = False, whole_simplex: bool = False) -> Any:
    """Theorem 7: "(psi*_PD, pred-bar_PD) is (l_PD, P_DAG)-calibrated." -- decided at r = 3 over P_DAG
    (``whole_simplex``: over every p, beyond the paper)."""
    r = 3

    def parts(m: Any) -> tuple[Any, Any]:
        nl = _named_loss("pd", r)
        return nl.matrix, calibration_surrogates.ramaswamy_quadratic(nl.decomposition)[0]

    over = ("the whole simplex (not asserted by the paper: on 3 nodes Algorithm 1 deletes the lightest edge of "
            "a 3-cycle, an exact minimum weighted feedback arc set, so P_DAG is not needed at r = 3)"
            if whole_simplex else "P_DAG (E^p acyclic, as relations in p)")
    return calibrated(
        id, loss=lambda m: parts(m)[0], surrogate=lambda m: parts(m)[1],
        link=lambda m: algorithm1_link(r, reverse=reverse),
        noise=None if whole_simplex else (lambda m: list(p_dag_relations(r))),
        cite=cite("Theorem 7", "(psi*_PD, pred-bar_PD) is (l_PD, P_DAG)-calibrated."),
        statement=("r = 3, all unit DAGs: psi*_PD(y, u) = sum_{i != j} (u_ij - y_ij)^2 with pred-bar_PD = "
                   f"{'the reverse of ' if reverse else ''}Algorithm 1 (its exact closed regions, "
                   f"ramaswamy2013.theorem7.algorithm1_regions) is calibrated for l_PD over {over}"),
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

theorem7 = theorem7_claim("ramaswamy2013.theorem7")
theorem7_algorithm1_regions = algorithm1_regions_claim("ramaswamy2013.theorem7.algorithm1_regions")
theorem7_whole = theorem7_whole_claim("ramaswamy2013.theorem7.calibration.p_dag.r3")
theorem7_whole_simplex = theorem7_whole_claim("ramaswamy2013.theorem7.calibration.whole_simplex.r3",
                                              whole_simplex=True)
theorem7_p_dag_contains_p_f = p_dag_contains_p_f_claim("ramaswamy2013.theorem7.p_dag_contains_p_f")
theorem7_inclusion_strict = inclusion_strict_claim("ramaswamy2013.theorem7.inclusion_strict")
