"""Duchi, Mackey & Jordan (2010), "On the Consistency of Ranking Algorithms", ICML.

Main claims
-----------
* Section 1: |G(m)| <= 3^C(m,2), with the exact number of labelled DAGs (Robinson's
  recurrence = two independent enumerations) for m = 1..5, and the recurrence for m = 6..25.
* Definition 8: a low-noise pair has an acyclic difference graph (z3, m = 3..6).
* Lemma 14 (low noise => ordering condition of Theorem 13) for m = 3..12 and for all m by a
  local lemma; its converse is false; each case of its proof as a 3-node claim.
  **Erratum**: in the tie case the proof says "(j -> k) is not in G~"; that is false, the
  argument needs (k -> j) not in G~ (recorded finding, corrected step proved).
* Lemma 16 (G~ is a DAG iff A(p) is the described set), exhaustively at m = 3.
* Theorem 13 with r(a) = a^2: the closed form (15), W(a) - W* = nu |a - a*|^2, the
  neighbourhood step, and "a* strictly respects every edge <=> (16)".  **Erratum** (proof
  step): "a* of (15) is in A(p) iff (16)" is false when a* lies on the boundary of A(p).
  Corollary 15 for m = 3..8 and all m.
* Lemma 10: identities (12a)/(12b), every inequality step, and the whole contradiction under
  COND 1 and under COND 2; the Section 2.2 remark that every minimiser has a1 > a2 > a3.
* Theorem 11's construction: **erratum** -- the printed weights need not be low-noise (a31
  is ignored); corrected construction proved; COND 1 proved for every increasing h; an
  exact low-noise instance; numeric confirmation for three convex phi that the minimiser of
  W lies outside A(p).
* Theorem 12's construction: low noise (with equality 0.26 = 0.26), COND 1, and numeric
  confirmation for phi~(x) = phi(x - 1).
* Section 3.1: Cossock-Zhang scores are low-noise (m = 3..8); the order-preserving example
  (printed weights, w2 >= 2, no fixed w2 works).
* Lemma 7's reduction on seeded random instances: min_a l(p, a) = minimum weighted
  feedback arc set (brute force and MILP agree); the pedantic construction of its proof.
* Section 3: without the regulariser r the linear loss is sent to -oo outside A(p).
* Edge-consistency decided over every distribution of a noise set by the calibration engine
  (:mod:`symcal.calibration`): Corollary 15 (low noise) and Theorem 13 (<=: a DAG G~ and (16)) for the
  linear loss (14) with r = a^2 at m = 3, 4; Theorems 11 and 12 as refutations with exact low-noise
  counterexample distributions for the hinge (Theorem 12 also at the printed p).  Lemma 16 (m = 3, 4)
  and Lemma 7's reduction (m = 3) for every real weight vector (z3, one query per weak order).

Encoding notes
--------------
* Node claims use edge weights a_ij >= 0 on nodes 1..m; ``a.d(i, j)`` is a_ij - a_ji, the
  weight of the difference graph when positive.  Ties are written as ``d >= 0 and d <= 0``
  (never ``==``, which sympy would turn into a Python bool).
* ``implies`` claims over m nodes use difference variables d_i_j (i < j) with
  d_ji = -d_ij; acyclicity of G~ is "no directed simple cycle of the complete digraph has
  all its differences > 0" (cycles from networkx).
* Theorem 13 is encoded with r(a) = a^2, so a*_i = sum_j (a_ij - a_ji) / (2 nu) and
  W(a) - W* = nu |a - a*|^2 (an exact identity).  Hence W* < inf{W : a not in A(p)} iff a*
  is in the interior of A(p), i.e. strictly respects every edge of G~; that is the
  equivalence encoded.  Corollary 15 fixes nu = 1/2 so that a*_i = sum_j d_ij.
* Lemma 10's subgradients are free reals g12, g13, g23, g31 and g0 = phi'(0) < 0;
  "monotone subgradients" is the family delta_a > delta_b -> g_a >= g_b over the points
  delta12, delta13, delta23, delta31, 0.  This covers every convex phi.
* Theorem 11 (b) treats h only through its values (H12 = h(a12^G1), ...): positive at
  positive arguments and monotone, so it covers every continuous increasing h, h(0) = 0.
  (c) and the numeric claims take h(x) = x and the corrected construction.
* Theorem 12 prints the weights as a_12^G1 = a_13^G2 = a_23^G3 = a_31^G4 although G2 has the
  edge 2 -> 3 and G3 the edge 1 -> 3: a harmless notation slip (each graph's single edge
  gets weight h^-1(c)); encoded with the graphs' own edges.  The printed
  a13 - a31 >= a12 + a23 holds with equality (0.26 c0 = 0.26 c0), still low noise.
* Numeric claims minimise W over (delta12, delta23) = (a1 - a2, a2 - a3) with a3 = 0
  (shift invariance), globally and over the closure of A(p) = {delta12, delta23 >= 0}; the
  margin is the gap between the two minima.  Never a proof.
* symcal.ranking supplies count_dags / dags (Section 1), expected weights and is_low_noise
  (Theorem 11's instance), min_feedback_arc_set and single_edge_distribution (Lemma 7).
  Symbolic claims need weights as sympy expressions, and Eq. (8), Lemma 16's set and the
  edge-subset feedback arc set were not in symcal.ranking when this was written, so small
  exact helpers for those live here; where both exist they are cross-checked.
* Remark, not encoded as a claim: the Section 3 sentence "phi can be sent to -oo with
  a not in A(p)" needs more than one edge in G~: with a single edge i -> j the
  unregularised W = d_ij (a_j - a_i) is >= 0 outside A(p).  The encoded instance has G~ =
  {1 -> 2, 1 -> 3} (the paper's own example in Section 3.1).

* Calibration (edge-consistency by the engine).  Labels = the DAGs G of the support, with
  probabilities p1..pn; loss L(G, sigma) = sum_{(i -> j) in G} a_ij^G 1(sigma(i) > sigma(j)) (Eq. (7)
  on strict orders); predictions = the m! permutations; link = "sort-desc"; surrogate phi(a, G) in
  the scores a in R^m; noise = Definition 8 / acyclicity / (16) written in d_ij = a_ij - a_ji with
  a_ij = sum_G a_ij^G p_G (linear in p).  This is Definition 2 exactly: Eq. (8) gives a score vector
  with ties the loss of one permutation sorting it (ties: the larger index first), which lies in the
  closed cell the engine covers, and a refutation's sequence stays in an open cell (no ties).
  Theorem 13 / Corollary 15 use the m(m-1) single-edge graphs of unit weight: W(p, .) and l(p, .)
  depend on (G, p) only through a, every a >= 0 (a != 0) is s a' with a' the expected weights of that
  family under p' = a / s, and with r = a^2 scaling a by s is scaling nu by 1/s, which moves
  a* = sum_j d_ij / (2 nu) along a ray and keeps edge-consistency.  So m = 3, 4 cover every (G, p).
  m = 5 (20 labels, 120 orders) takes about 17 s and is left out.  The (=>) half of Theorem 13 (each
  p violating (16) fails) is a statement per p, not calibration over a set; it stays with the
  symbolic claims (theorem13.eq16_iff_alpha_star_in_a.corrected).
* Theorems 11 and 12 use the hinge phi(x) = max(0, 1 - x): convex, phi'(0) = -1 < 0, bounded below
  (Assumption A), differentiable at -c for every c > 0 -- both theorems cover it -- and polyhedral,
  which the engine decides exactly (the exponential and logistic phi stay numeric).  h(x) = x.
  Theorem 11 uses its own graphs with the corrected instance (a12 = 1, a13 = 4, a31 = 1, a23 = 1/10);
  Theorem 12 its four single-edge graphs of weight h^-1(c) = 1 (margin c = 1).  Expected "refuted":
  the paper asserts inconsistency.  The engine's counterexample for Theorem 12 over all low-noise p,
  p = (1/6, 1/6, 1/2, 1/6), meets neither COND 1 nor COND 2: the hinge is not strictly convex and has
  a minimiser on the boundary of A(p) there (a tie a2 = a3); Lemma 10's mechanism is one way to fail,
  not the only one.  The twins swap in the linear loss (14), which is proved edge-consistent on the
  same graphs and distributions.
* Lemma 16 and Lemma 7's reduction over every real weight vector: Eq. (8) depends on a score vector
  only through its weak order, so one representative per weak order (13 at m = 3, 75 at m = 4) and,
  for Lemma 7, every edge set whose complement is acyclic make the statements finite families of
  linear implications over all real a_ij >= 0 (implies_cases, one z3 query each).

References
----------
../shared/papers/duchi-mackey-jordan-2010-consistency-of-ranking-algorithms.txt
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from symcal import (
    And,
    Citation,
    Finding,
    Implies,
    Local,
    NumericOutcome,
    all_sizes,
    calibrated,
    finite_check,
    identity,
    implies,
    implies_cases,
    node_implies,
    numeric,
)
from symcal.claims.core import Claim

PAPER = "duchi2010"


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


# ---------------------------------------------------------------------------------------
# Exact helpers (weights are dicts {(i, j): a_ij} on nodes 1..m; Fractions or sympy)
# ---------------------------------------------------------------------------------------

Weights = dict[tuple[int, int], Any]


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


def in_lemma16_set(
    a: Mapping[tuple[int, int], Any], alpha: tuple[Any, ...], m: int, *, strict_back: bool = False
) -> bool:
    """Lemma 16's set: a_i > a_j for i < j with a_ij > a_ji, a_i >= a_j for i > j with
    a_ij > a_ji (``strict_back`` replaces the latter by a_i > a_j: a twin)."""
    for i, j in difference_edges(a, m):
        ai, aj = alpha[i - 1], alpha[j - 1]
        if i < j or strict_back:
            if not ai > aj:
                return False
        elif not ai >= aj:
            return False
    return True


def min_conditional_risk(a: Mapping[tuple[int, int], Any], m: int) -> Any:
    return min(conditional_risk(a, al) for al in weak_orders(m))


def brute_force_feedback_arc_set(a: Mapping[tuple[int, int], Any], m: int) -> Any:
    """Minimum total weight of an edge set whose removal leaves a DAG (all subsets)."""
    edges = [e for e, w in a.items() if w > 0]
    best = sum((a[e] for e in edges), Fraction(0))
    for r in range(len(edges) + 1):
        for removed in itertools.combinations(edges, r):
            w = sum((a[e] for e in removed), Fraction(0))
            if w >= best:
                continue
            rs = set(removed)
            if not has_cycle([e for e in edges if e not in rs], m):
                best = w
    return best


def enumerated_dag_count(m: int) -> int:
    """Labelled DAGs on m nodes by enumeration: each pair is absent, i -> j or j -> i."""
    pairs = list(itertools.combinations(range(1, m + 1), 2))
    n = 0
    for choice in itertools.product((0, 1, 2), repeat=len(pairs)):
        edges = [(i, j) if c == 1 else (j, i) for (i, j), c in zip(pairs, choice, strict=True) if c]
        n += not has_cycle(edges, m)
    return n


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


# ---------------------------------------------------------------------------------------
# Section 1: the number of DAGs
# ---------------------------------------------------------------------------------------


def dag_count_bound_holds(m: int, *, base: Any = 3, enumerate_too: bool = True) -> tuple[bool, str]:
    """|G(m)| <= base^C(m,2), with |G(m)| = symcal.ranking's count_dags (Robinson's recurrence),
    cross-checked for small m against ranking's dags() and this module's own enumeration."""
    from symcal.ranking.dags import count_dags, dags

    count = count_dags(m)
    bound = Fraction(base) ** math.comb(m, 2)
    detail = f"|G({m})| = {count} (Robinson's recurrence), bound {base}^{math.comb(m, 2)} = {bound}"
    if enumerate_too:
        listed, seen = sum(1 for _ in dags(m)), enumerated_dag_count(m)
        detail += f"; ranking.dags lists {listed}, the local enumeration counts {seen}"
        if not listed == seen == count:
            return False, detail + " (the counts disagree)"
    return count <= bound, detail


def dag_count_claim(id: str, *, sizes: tuple[int, int], base: Any = 3, enumerate_too: bool = True) -> Any:
    from math import comb

    return finite_check(
        id,
        cases=lambda m: [m],
        holds=lambda m: dag_count_bound_holds(m, base=base, enumerate_too=enumerate_too),
        describe=lambda m: {"m": m, "bound": Fraction(base) ** comb(m, 2)},
        domain="the labelled DAGs on m nodes"
        + (" (counted, and enumerated twice)" if enumerate_too else " (Robinson's recurrence)"),
        cite=cite("Section 1", "noting that |G(m)| <= 3^(m choose 2)"),
        statement=f"the number of DAGs on m labelled nodes is at most {base}^C(m,2)",
        sizes=sizes,
    )


dag_count_bound = dag_count_claim("duchi2010.dag_count_bound", sizes=(1, 5))
dag_count_bound_large = dag_count_claim("duchi2010.dag_count_bound.large_m", sizes=(6, 25), enumerate_too=False)


# ---------------------------------------------------------------------------------------
# Definition 8: low noise => the difference graph is a DAG
# ---------------------------------------------------------------------------------------


def low_noise_dag_claim(
    id: str = "duchi2010.definition8.difference_graph_is_dag", *, slack: Any = 0, sizes: tuple[int, int] = (3, 6)
) -> Any:
    return implies(
        id,
        hypotheses={"low_noise": lambda m: low_noise_relations(d, m, slack)},
        conclusion=lambda m: acyclic(d, m),
        cite=cite("Section 2.2, after Definition 8", "if (G, p) satisfies Def. 8, its difference graph G~ is a DAG"),
        statement="Definition 8 on every triple => no directed cycle of positive differences",
        sizes=sizes,
    )


definition8_dag = low_noise_dag_claim()


# ---------------------------------------------------------------------------------------
# Lemma 14 and the steps of its proof (node claims)
# ---------------------------------------------------------------------------------------


def low_noise_local(slack: Any = 0) -> Local:
    """Definition 8 on the ordered triple (i, j, k) (``slack`` > 0 weakens it: a twin)."""
    return Local(
        3,
        lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) >= a.d(i, j) + a.d(j, k) - slack),
        "d_ij > 0 and d_jk > 0  ->  d_ik >= d_ij + d_jk" + (f" - {slack}" if slack else ""),
    )


# Definition 8: whenever i->j and j->k are edges of the difference graph,
# a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj).
LOW_NOISE = low_noise_local()

# Theorem 13 / Lemma 14: whenever a_ik > a_ki, sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk).
ORDERING = Local(
    2,
    lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j))),
    "d_ik > 0  ->  sum_j d_ij > sum_j d_kj",
)


def lemma14_claim(id: str = "duchi2010.lemma14", *, slack: Any = 0, sizes: tuple[int, int] = (3, 12)) -> Any:
    return node_implies(
        id,
        hypotheses={"low_noise": low_noise_local(slack)},
        conclusion=ORDERING,
        cite=cite(
            "Lemma 14", "If (G, p) is low noise, then whenever a_ik > a_ki, sum_j a_ij - a_ji > sum_j a_kj - a_jk."
        ),
        statement="low noise (Def. 8) => for every pair with a_ik > a_ki: sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk)",
        sizes=sizes,
    )


def lemma14_converse_claim(
    id: str = "duchi2010.lemma14.converse", *, with_low_noise: bool = False, sizes: tuple[int, int] = (3, 6)
) -> Any:
    hyps = {"ordering": ORDERING, **({"low_noise": LOW_NOISE} if with_low_noise else {})}
    return node_implies(
        id,
        hypotheses=hyps,
        conclusion=LOW_NOISE,
        cite=cite("Section 3, after Lemma 14", "The converse of the lemma is, in general, false."),
        statement="the ordering condition of Lemma 14 => low noise (the paper says: false in general)",
        sizes=sizes,
        expected="proved" if with_low_noise else "refuted",
    )


lemma14 = lemma14_claim()
lemma14_all_m = all_sizes(lemma14, "duchi2010.lemma14.all_m")
lemma14_converse = lemma14_converse_claim()


def step(
    id: str,
    conclusion: Callable[..., Any],
    text: str,
    quote: str,
    *,
    slack: Any = 0,
    arity: int = 3,
    sizes: tuple[int, int] = (3, 4),
    finding: Finding | None = None,
) -> Any:
    """A step of Lemma 14's proof on the nodes (i, k, j): low noise => ``conclusion``."""
    return node_implies(
        id,
        hypotheses={"low_noise": low_noise_local(slack)},
        conclusion=Local(arity, conclusion, text),
        cite=cite("Lemma 14, proof", quote),
        statement=f"low noise => {text}",
        sizes=sizes,
        finding=finding,
    )


def case_both_edges(extra: Any = 0, strict: bool = False) -> Callable[..., Any]:
    def fn(a: Any, i: int, k: int, j: int) -> Any:
        rhs = a.d(k, j) + a.d(i, k) + extra
        return Implies(
            And(a.d(i, k) > 0, a.d(i, j) > 0, a.d(k, j) > 0),
            And(a.d(i, j) > rhs if strict else a.d(i, j) >= rhs, a.d(k, j) + a.d(i, k) > a.d(k, j)),
        )

    return fn


def case_edge_ij_only(extra: Any = 0) -> Callable[..., Any]:
    return lambda a, i, k, j: Implies(And(a.d(i, k) > 0, a.d(i, j) > 0, a.d(k, j) <= 0), a.d(k, j) + extra < a.d(i, j))


def case_reverse_edge(extra: Any = 0) -> Callable[..., Any]:
    # printed chain: a_ji - a_ij < a_ji - a_ij + a_ik - a_ki <= a_jk - a_kj, or a_kj - a_jk < a_ij - a_ji
    return lambda a, i, k, j: Implies(
        And(a.d(i, k) > 0, a.d(i, j) < 0),
        And(
            a.d(j, i) < a.d(j, i) + a.d(i, k), a.d(j, i) + a.d(i, k) <= a.d(j, k) + extra, a.d(k, j) < a.d(i, j) + extra
        ),
    )


def tie(a: Any, i: int, j: int) -> Any:
    return And(a.d(i, j) >= 0, a.d(i, j) <= 0)  # a_ij = a_ji, written without ==


def case_tie_printed(a: Any, i: int, k: int, j: int) -> Any:
    return Implies(And(a.d(i, k) > 0, tie(a, i, j)), a.d(j, k) <= 0)  # (j -> k) not in G~


def case_tie_corrected(extra: Any = 0) -> Callable[..., Any]:
    # (k -> j) not in G~, so a_kj - a_jk <= 0 = a_ij - a_ji
    return lambda a, i, k, j: Implies(
        And(a.d(i, k) > 0, tie(a, i, j)), And(a.d(k, j) <= extra, a.d(k, j) <= a.d(i, j) + extra)
    )


def per_node(extra: Any = 0) -> Callable[..., Any]:
    return lambda a, i, k, j: Implies(a.d(i, k) > 0, a.d(i, j) >= a.d(k, j) + extra)


TIE_QUOTE = (
    "Otherwise, a_ij = a_ji, and the low-noise condition guarantees that (j -> k) is not "
    "in G~, so a_kj - a_jk <= 0 = a_ij - a_ji."
)

lemma14_case_both = step(
    "duchi2010.lemma14.proof.case_both_edges",
    case_both_edges(),
    "d_ik > 0, d_ij > 0, d_kj > 0  ->  d_ij >= d_kj + d_ik > d_kj",
    "If (k -> j) in G~, the low-noise condition implies a_ij - a_ji >= a_kj - a_jk + a_ik - a_ki > a_kj - a_jk.",
)
lemma14_case_ij_only = step(
    "duchi2010.lemma14.proof.case_edge_ij_only",
    case_edge_ij_only(),
    "d_ik > 0, d_ij > 0, d_kj <= 0  ->  d_kj < d_ij",
    "Otherwise, a_kj - a_jk <= 0 < a_ij - a_ji.",
)
lemma14_case_reverse = step(
    "duchi2010.lemma14.proof.case_reverse_edge",
    case_reverse_edge(),
    "d_ik > 0, d_ij < 0  ->  d_ji < d_ji + d_ik <= d_jk, so d_kj < d_ij",
    "If the inequality is strict, then (j -> i) in G~, so ... a_ji - a_ij < a_ji - a_ij + a_ik - a_ki <= a_jk - a_kj",
)
lemma14_case_tie = step(
    "duchi2010.lemma14.proof.case_tie",
    case_tie_printed,
    "d_ik > 0, d_ij = 0  ->  (j -> k) not in G~, i.e. d_jk <= 0",
    TIE_QUOTE,
    finding=Finding(
        what=(
            "Lemma 14's proof, tie case: low noise does not exclude the edge (j -> k) when "
            "a_ij = a_ji; what it excludes (and what the next step 'a_kj - a_jk <= 0' uses) is "
            "(k -> j), since i -> k -> j would force a_ij - a_ji >= a_ik - a_ki + a_kj - a_jk > 0. "
            "The lemma itself is unaffected."
        ),
        counterexample=(
            "m = 3, (i, k, j) = (1, 2, 3), a_12 = 1, a_32 = 1, all other a = 0: G~ = "
            "{1 -> 2, 3 -> 2} is low-noise (no two-edge path), a_13 = a_31 = 0, and "
            "(j -> k) = (3 -> 2) is in G~."
        ),
        corrected="duchi2010.lemma14.proof.case_tie.corrected",
    ),
)
lemma14_case_tie_corrected = step(
    "duchi2010.lemma14.proof.case_tie.corrected",
    case_tie_corrected(),
    "d_ik > 0, d_ij = 0  ->  (k -> j) not in G~, i.e. d_kj <= 0 = d_ij",
    TIE_QUOTE + " [corrected: (k -> j) is not in G~]",
)
lemma14_per_node = step(
    "duchi2010.lemma14.proof.per_node",
    per_node(),
    "d_ik > 0  ->  d_ij >= d_kj for every third node j (the four cases together)",
    "There are two cases for a third node j: either a_ij - a_ji > 0 or a_ij - a_ji <= 0.",
)


def strict_terms(extra: Any = 0) -> Callable[..., Any]:
    # the j = k and j = i terms: d_ik > 0 = d_kk and d_ii = 0 > d_ki
    return lambda a, i, k: Implies(a.d(i, k) > 0, And(a.d(i, k) > a.d(k, k) + extra, a.d(i, i) > a.d(k, i) + extra))


def lemma14_strict_claim(id: str = "duchi2010.lemma14.proof.strict", *, extra: Any = 0) -> Any:
    return node_implies(
        id,
        hypotheses={"low_noise": LOW_NOISE},
        conclusion=Local(2, strict_terms(extra), "d_ik > 0  ->  d_ik > d_kk = 0 and d_ii = 0 > d_ki"),
        cite=cite(
            "Lemma 14, proof",
            "The inequality in the statement of the lemma is strict, because a_ik - a_ki > 0 = a_kk - a_kk.",
        ),
        statement="low noise => the j = k and j = i terms differ strictly: d_ik > d_kk = 0, d_ii = 0 > d_ki",
        sizes=(3, 3),
    )


lemma14_strict = lemma14_strict_claim()


# ---------------------------------------------------------------------------------------
# Lemma 16: G~ is a DAG iff A(p) is the described set (exhaustive at m = 3)
# ---------------------------------------------------------------------------------------


def lemma16_cases(values: tuple[int, ...] = (0, 1, 2), m: int = 3) -> list[Weights]:
    pairs = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
    grid = itertools.product(values, repeat=len(pairs))
    return [{e: Fraction(w) for e, w in zip(pairs, ws, strict=True) if w} for ws in grid]


def lemma16_holds(a: Weights, *, m: int = 3, strict_back: bool = False) -> tuple[bool, str]:
    """Compare A(p) (minimisers of Eq. (8) over all weak orders) with Lemma 16's set."""
    orders = weak_orders(m)
    risks = {al: conditional_risk(a, al) for al in orders}
    best = min(risks.values())
    optimal = {al for al in orders if risks[al] == best}
    described = {al for al in orders if in_lemma16_set(a, al, m, strict_back=strict_back)}
    dag = not has_cycle(difference_edges(a, m), m)
    same = optimal == described
    detail = (
        f"G~ = {difference_edges(a, m)} is {'a DAG' if dag else 'cyclic'}; A(p) has {len(optimal)} "
        f"of {len(orders)} score vectors, the described set {len(described)}"
        + ("" if same else f"; e.g. {sorted(optimal ^ described)[0]} is in exactly one of them")
    )
    return dag == same, detail


def lemma16_claim(
    id: str = "duchi2010.lemma16", *, values: tuple[int, ...] = (0, 1, 2), strict_back: bool = False
) -> Any:
    return finite_check(
        id,
        cases=lambda m: lemma16_cases(values),
        holds=lambda a: lemma16_holds(a, strict_back=strict_back),
        describe=lambda a: {f"a[{i},{j}]": w for (i, j), w in sorted(a.items())} or {"a": "all zero"},
        sample='a grid: weights in a small set, of a statement for all real weights',
        domain=f"all weights a_ij in {set(values)} on 3 nodes ({len(values) ** 6} cases) x all 27 score "
        f"vectors in {{0,1,2}}^3 (every weak order)",
        cite=cite(
            "Lemma 16",
            "G~ is a DAG if and only if A(p) = {a : a_i > a_j for i < j with a_ij > a_ji, "
            "a_i >= a_j for i > j with a_ij > a_ji}",
        ),
        statement="G~ is a DAG <=> the minimisers of Eq. (8) are exactly Lemma 16's set (m = 3)",
    )


lemma16 = lemma16_claim()


# ---------------------------------------------------------------------------------------
# Theorem 13 with r(a) = a^2, Corollary 15
# ---------------------------------------------------------------------------------------

HALF = sympy.Rational(1, 2)
TWO_THIRDS = sympy.Rational(2, 3)
NU = sympy.Symbol("nu", real=True)  # real, not positive: "nu > 0" stays a hypothesis


@functools.cache
def asym(i: int, j: int) -> sympy.Symbol:
    return sympy.Symbol(f"a_{i}_{j}", real=True)


@functools.cache
def alpha(i: int) -> sympy.Symbol:
    return sympy.Symbol(f"alpha_{i}", real=True)


def net_out(i: int, m: int) -> Any:
    """sum_j (a_ij - a_ji) over raw weight symbols a_i_j."""
    return sum((asym(i, j) - asym(j, i) for j in range(1, m + 1) if j != i), sympy.Integer(0))


def alpha_star(i: int, m: int, factor: Any = 2) -> Any:
    """Eq. (15) with r(a) = a^2: s(g) = g / 2, so a*_i = sum_j (a_ij - a_ji) / (2 nu)."""
    return net_out(i, m) / (factor * NU)


def linear_w(m: int, r: Callable[[Any], Any], al: Callable[[int], Any] = alpha) -> Any:
    """W(p, a) = sum_G p_G phi(a, G) for Eq. (14): sum_{i != j} a_ij (a_j - a_i) + nu sum_i r(a_i)."""
    pairs = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
    return sum((asym(i, j) * (al(j) - al(i)) for i, j in pairs), sympy.Integer(0)) + NU * sum(
        (r(al(i)) for i in range(1, m + 1)), sympy.Integer(0)
    )


def theorem13_gradient_claim(
    id: str = "duchi2010.theorem13.eq15", *, factor: Any = 2, sizes: tuple[int, int] = (3, 6)
) -> Any:
    def grad_at_star(m: int) -> sympy.Matrix:
        w = linear_w(m, lambda x: x**2)
        star = {alpha(i): alpha_star(i, m, factor) for i in range(1, m + 1)}
        return sympy.Matrix([sympy.diff(w, alpha(i)).xreplace(star) for i in range(1, m + 1)])

    return identity(
        id,
        grad_at_star,
        lambda m: sympy.zeros(m, 1),
        cite=cite(
            "Theorem 13, proof, Eq. (15)",
            "Optimality is therefore attained uniquely at a*_i = s((sum_j a_ij - a_ji) / nu).",
        ),
        statement="with r(a) = a^2, the gradient of W at a*_i = sum_j (a_ij - a_ji)/(2 nu) is 0",
        sizes=sizes,
    )


theorem13_eq15 = theorem13_gradient_claim()


def theorem13_unique_claim(
    id: str = "duchi2010.theorem13.eq15.unique_minimum", *, scale: Any = 1, sizes: tuple[int, int] = (3, 5)
) -> Any:
    def lhs(m: int) -> Any:
        w = linear_w(m, lambda x: x**2)
        return w - w.xreplace({alpha(i): alpha_star(i, m) for i in range(1, m + 1)})

    return identity(
        id,
        lhs,
        lambda m: scale * NU * sum(((alpha(i) - alpha_star(i, m)) ** 2 for i in range(1, m + 1)), sympy.Integer(0)),
        cite=cite("Theorem 13, proof", "since a* is the unique global minimum"),
        statement="with r(a) = a^2: W(a) - W(a*) = nu |a - a*|^2, so a* is the unique minimiser for nu > 0",
        sizes=sizes,
    )


theorem13_unique = theorem13_unique_claim()


def theorem13_w_form_claim(
    id: str = "duchi2010.theorem13.w_form", *, sign: int = 1, sizes: tuple[int, int] = (3, 6)
) -> Any:
    r = sympy.Function("r")
    return identity(
        id,
        lambda m: linear_w(m, r),
        lambda m: sum(
            (alpha(i) * sign * (-net_out(i, m)) + NU * r(alpha(i)) for i in range(1, m + 1)), sympy.Integer(0)
        ),
        cite=cite("Theorem 13, proof", "W(p, a) = sum_i (a_i sum_j (a_ji - a_ij) + nu r(a_i))"),
        statement="sum_{i != j} a_ij (a_j - a_i) + nu sum_i r(a_i) = sum_i (a_i sum_j (a_ji - a_ij) + nu r(a_i))",
        sizes=sizes,
    )


theorem13_w_form = theorem13_w_form_claim()


def s_of(i: int, m: int) -> Any:
    return sum((d(i, j) for j in range(1, m + 1)), sympy.Integer(0))


def star_d(i: int, m: int) -> Any:
    """a*_i in difference variables: sum_j d_ij / (2 nu)."""
    return s_of(i, m) / (2 * NU)


def eq16(m: int, slack: Any = 0) -> Any:
    """(16): sum_j (a_ij - a_ji)/nu > sum_j (a_kj - a_jk)/nu whenever a_ik > a_ki."""
    return sympy.And(
        *[
            sympy.Implies(d(i, k) > 0, s_of(i, m) / NU > s_of(k, m) / NU + slack)
            for i, k in itertools.permutations(range(1, m + 1), 2)
        ]
    )


def alpha_in_lemma16_set(al: Callable[[int], Any], m: int) -> Any:
    """A(p) of a DAG difference graph, by Lemma 16."""
    return sympy.And(
        *[
            sympy.Implies(d(i, k) > 0, al(i) > al(k) if i < k else al(i) >= al(k))
            for i, k in itertools.permutations(range(1, m + 1), 2)
        ]
    )


def alpha_respects_edges(al: Callable[[int], Any], m: int) -> Any:
    return sympy.And(
        *[sympy.Implies(d(i, k) > 0, al(i) > al(k)) for i, k in itertools.permutations(range(1, m + 1), 2)]
    )


THM13_QUOTE = "Hence, the optimal a* of Eq. (15) is in A(p) if and only if (16) when a_ik > a_ki."


def theorem13_iff_claim(
    id: str, *, strict: bool, slack: Any = 0, sizes: tuple[int, int] = (3, 5), finding: Finding | None = None
) -> Any:
    inside = alpha_respects_edges if strict else alpha_in_lemma16_set
    return implies(
        id,
        hypotheses={"dag": lambda m: [acyclic(d, m)], "nu_positive": [NU > 0]},
        conclusion=lambda m: sympy.Equivalent(inside(lambda i: star_d(i, m), m), eq16(m, slack)),
        cite=cite(
            "Theorem 13, proof, Eq. (16)",
            THM13_QUOTE + (" [corrected: strictly respects every edge]" if strict else ""),
        ),
        statement=(
            "for a DAG G~: a* of (15) strictly respects every edge of G~ <=> (16)"
            if strict
            else "for a DAG G~: a* of (15) is in A(p) (Lemma 16's set) <=> (16)"
        ),
        sizes=sizes,
        finding=finding,
    )


theorem13_iff = theorem13_iff_claim(
    "duchi2010.theorem13.eq16_iff_alpha_star_in_a",
    strict=False,
    sizes=(3, 4),
    finding=Finding(
        what=(
            "Theorem 13's proof: 'a* is in A(p) iff (16)' fails when G~ has an edge i -> k with "
            "i > k and a*_i = a*_k: Lemma 16's A(p) then only asks a_i >= a_k, so a* is in A(p) "
            "(on its boundary) while (16) fails. The theorem survives: a boundary a* still gives "
            "W* = inf{W : a not in A(p)}; what is equivalent to (16) is that a* is in the interior "
            "of A(p), i.e. strictly respects every edge of G~."
        ),
        counterexample=(
            "m = 3, nu = 1, a_21 = 1, a_13 = 2, all other a = 0: G~ = {2 -> 1, 1 -> 3} is a "
            "DAG, a* = (1/2, 1/2, -1) is in A(p) = {a_2 >= a_1 > a_3}, but (16) fails for (i, k) = (2, 1) "
            "since sum_j d_2j = 1 = sum_j d_1j."
        ),
        corrected="duchi2010.theorem13.eq16_iff_alpha_star_in_a.corrected",
    ),
)
theorem13_iff_corrected = theorem13_iff_claim("duchi2010.theorem13.eq16_iff_alpha_star_in_a.corrected", strict=True)


@functools.cache
def star_sym(i: int) -> sympy.Symbol:
    return sympy.Symbol(f"astar_{i}", real=True)


def theorem13_neighbourhood_claim(
    id: str = "duchi2010.theorem13.neighbourhood", *, half: Any = HALF, sizes: tuple[int, int] = (3, 4)
) -> Any:
    def near(m: int) -> list[Any]:
        return [
            sympy.Implies(d(i, k) > 0, sympy.Abs(alpha(j) - star_sym(j)) < half * (star_sym(i) - star_sym(k)))
            for i, k in itertools.permutations(range(1, m + 1), 2)
            for j in range(1, m + 1)
        ]

    return implies(
        id,
        hypotheses={"eq16": lambda m: [alpha_respects_edges(star_sym, m)], "near": near},
        conclusion=lambda m: alpha_respects_edges(alpha, m),
        cite=cite(
            "Theorem 13, proof",
            "for all a satisfying |a - a*|_oo < min_{i,k: a_ik > a_ki} (a*_i - a*_k)/2, we have a in A(p)",
        ),
        statement=(
            "a* strictly respects every edge and |a - a*|_oo < min (a*_i - a*_k)/2 => a strictly respects every edge"
        ),
        sizes=sizes,
    )


theorem13_neighbourhood = theorem13_neighbourhood_claim()


def corollary15_claim(id: str = "duchi2010.corollary15", *, slack: Any = 0, sizes: tuple[int, int] = (3, 8)) -> Any:
    # nu = 1/2: a*_i = sum_j d_ij / (2 nu) = sum_j d_ij
    def fn(a: Any, i: int, k: int) -> Any:
        return Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j)))

    return node_implies(
        id,
        hypotheses={"low_noise": low_noise_local(slack)},
        conclusion=Local(2, fn, "d_ik > 0  ->  a*_i > a*_k with a*_i = sum_j d_ij / (2 nu), nu = 1/2"),
        cite=cite("Corollary 15", "The linear loss of Eq. (14) is edge-consistent if (G, p) is low noise"),
        statement=(
            "low noise => the minimiser a* of the linear loss (r = a^2, nu = 1/2) strictly respects every edge of G~"
        ),
        sizes=sizes,
    )


corollary15 = corollary15_claim()
corollary15_all_m = all_sizes(corollary15, "duchi2010.corollary15.all_m")


# ---------------------------------------------------------------------------------------
# Lemma 10 and the Section 2.2 remark
# ---------------------------------------------------------------------------------------

h12, h13, h23, h31 = sympy.symbols("h12 h13 h23 h31", real=True)
g12, g13, g23, g31, g0 = sympy.symbols("g12 g13 g23 g31 g0", real=True)
delta12, delta13, delta23, delta31 = sympy.symbols("delta12 delta13 delta23 delta31", real=True)

POSITIVE_H = [h12 > 0, h13 > 0, h23 > 0, h31 > 0]
# Eq. (11): the subgradient conditions for optimality of W in Eq. (10)
EQ11 = [sympy.Eq(h12 * g12 + h13 * g13 - h31 * g31, 0), sympy.Eq(-h12 * g12 + h23 * g23, 0)]


def cond1(slack: Any = 0) -> Any:
    return h23 < h31 * h12 / (h13 + h12) + slack


def cond2(slack: Any = 0) -> Any:
    return h12 < h31 * h23 / (h13 + h23) + slack


L10_QUOTE = (
    "By Eq. (11), g13 - g12 = (h31/h13) g31 - (1 + h12/h13) g12 (12a), "
    "g13 - g23 = (h31/h13) g31 - (1 + h23/h13) g23 (12b)."
)


def lemma10_step(
    id: str, hypotheses: dict[str, Any], conclusion: Any, statement: str, quote: str, location: str = "Lemma 10, proof"
) -> Any:
    return implies(id, hypotheses=hypotheses, conclusion=conclusion, cite=cite(location, quote), statement=statement)


def eq12a_claim(id: str = "duchi2010.lemma10.eq12a", extra: Any = 0) -> Any:
    return lemma10_step(
        id,
        {"positive_h": POSITIVE_H, "eq11": EQ11},
        sympy.Eq(g13 - g12, h31 / h13 * g31 - (1 + h12 / h13) * g12 + extra),
        "h > 0 and Eq. (11) => g13 - g12 = (h31/h13) g31 - (1 + h12/h13) g12",
        L10_QUOTE,
    )


def eq12b_claim(id: str = "duchi2010.lemma10.eq12b", extra: Any = 0) -> Any:
    return lemma10_step(
        id,
        {"positive_h": POSITIVE_H, "eq11": EQ11},
        sympy.Eq(g13 - g23, h31 / h13 * g31 - (1 + h23 / h13) * g23 + extra),
        "h > 0 and Eq. (11) => g13 - g23 = (h31/h13) g31 - (1 + h23/h13) g23",
        L10_QUOTE,
    )


lemma10_eq12a = eq12a_claim()
lemma10_eq12b = eq12b_claim()


def g12_negative_claim(id: str = "duchi2010.lemma10.proof.g12_negative", *, drop: str = "") -> Any:
    hyps = {"positive_h": POSITIVE_H, "eq11": EQ11, "monotone_13_12": [g13 >= g12], "g31_negative": [g31 < 0]}
    hyps.pop(drop, None)
    return lemma10_step(
        id,
        hyps,
        g12 < 0,
        "h > 0, Eq. (11), g13 >= g12 (delta13 > delta12) and g31 <= phi'(0) < 0 => g12 < 0",
        "If g12 >= 0, we thus have that g13 >= 0 and by Eq. (11), g31 >= 0. This is a contradiction "
        "since delta31 < 0 gives g31 <= phi'(0) < 0. Hence, g12 < 0.",
    )


def g23_negative_claim(id: str = "duchi2010.lemma10.proof.g23_negative", *, drop: str = "") -> Any:
    hyps = {"positive_h": POSITIVE_H, "eq11": EQ11, "monotone_13_23": [g13 >= g23], "g31_negative": [g31 < 0]}
    hyps.pop(drop, None)
    return lemma10_step(
        id,
        hyps,
        g23 < 0,
        "h > 0, Eq. (11), g13 >= g23 (delta13 > delta23) and g31 < 0 => g23 < 0",
        "By identical reasoning, we also have that g23 < 0.",
    )


lemma10_g12_negative = g12_negative_claim()
lemma10_g23_negative = g23_negative_claim()


def bound1_claim(id: str = "duchi2010.lemma10.proof.bound_cond1", extra: Any = 0) -> Any:
    rhs = h31 / h13 * g23 - (1 + h12 / h13) * g12
    return lemma10_step(
        id,
        {"positive_h": POSITIVE_H, "eq11": EQ11, "monotone_23_31": [g23 >= g31]},
        sympy.And(g13 - g12 <= rhs + extra, sympy.Eq(rhs, (h31 * h12 / h23 - h13 - h12) * g12 / h13)),
        "h > 0, Eq. (11), g23 >= g31 => g13 - g12 <= (h31/h13) g23 - (1 + h12/h13) g12 "
        "= (h31 h12/h23 - h13 - h12) g12/h13",
        "delta23 > 0 > delta31 implies that g23 >= g31, which combined with Eq. (12a) and ... "
        "g23 = (h12/h23) g12 gives "
        "g13 - g12 <= ... = (h31 h12/h23 - h13 - h12) g12/h13.",
    )


def bound2_claim(id: str = "duchi2010.lemma10.proof.bound_cond2", extra: Any = 0) -> Any:
    rhs = h31 / h13 * g12 - (1 + h23 / h13) * g23
    return lemma10_step(
        id,
        {"positive_h": POSITIVE_H, "eq11": EQ11, "monotone_12_31": [g12 >= g31]},
        sympy.And(g13 - g23 <= rhs + extra, sympy.Eq(rhs, (h31 * h23 / h12 - h13 - h23) * g23 / h13)),
        "h > 0, Eq. (11), g12 >= g31 => g13 - g23 <= (h31/h13) g12 - (1 + h23/h13) g23 "
        "= (h31 h23/h12 - h13 - h23) g23/h13",
        "delta12 > 0 > delta31 implies that g12 >= g31, which with g12 = (h23/h12) g23 and Eq. (12b) gives "
        "g13 - g23 <= ... = (h31 h23/h12 - h13 - h23) g23/h13.",
    )


lemma10_bound1 = bound1_claim()
lemma10_bound2 = bound2_claim()


def sign1_claim(id: str = "duchi2010.lemma10.proof.sign_cond1", slack: Any = 0) -> Any:
    return lemma10_step(
        id,
        {
            "positive_h": POSITIVE_H,
            "eq11": EQ11,
            "monotone_23_31": [g23 >= g31],
            "g12_negative": [g12 < 0],
            "cond1": [cond1(slack)],
        },
        g13 - g12 < 0,
        "h > 0, Eq. (11), g23 >= g31, g12 < 0 and COND 1 => g13 - g12 < 0",
        "Since g12/h13 < 0, we have that g13 - g12 < 0 whenever h31 h12/h23 > h13 + h12.",
    )


def sign2_claim(id: str = "duchi2010.lemma10.proof.sign_cond2", slack: Any = 0) -> Any:
    return lemma10_step(
        id,
        {
            "positive_h": POSITIVE_H,
            "eq11": EQ11,
            "monotone_12_31": [g12 >= g31],
            "g23_negative": [g23 < 0],
            "cond2": [cond2(slack)],
        },
        g13 - g23 < 0,
        "h > 0, Eq. (11), g12 >= g31, g23 < 0 and COND 2 => g13 - g23 < 0",
        "Since g23/h13 < 0, we further have that g13 - g23 < 0 whenever h31 h23/h12 > h13 + h23.",
    )


lemma10_sign1 = sign1_claim()
lemma10_sign2 = sign2_claim()


def cond_form_claim(id: str, which: int, slack: Any = 0) -> Any:
    if which == 1:
        c, form = cond1(slack), h31 * h12 / h23 > h13 + h12
        text = "COND 1 (h23 < h31 h12/(h13 + h12)) <=> h31 h12/h23 > h13 + h12"
    else:
        c, form = cond2(slack), h31 * h23 / h12 > h13 + h23
        text = "COND 2 (h12 < h31 h23/(h13 + h23)) <=> h31 h23/h12 > h13 + h23"
    return lemma10_step(
        id,
        {"positive_h": POSITIVE_H},
        sympy.Equivalent(c, form),
        f"h > 0 => {text}",
        f"which yields a contradiction under CONDITION {which}",
    )


lemma10_cond1_form = cond_form_claim("duchi2010.lemma10.proof.cond1_form", 1)
lemma10_cond2_form = cond_form_claim("duchi2010.lemma10.proof.cond2_form", 2)

# the subgradient points of the proof: delta12, delta13, delta23, delta31 and 0 (g0 = phi'(0))
POINTS = [(delta12, g12), (delta13, g13), (delta23, g23), (delta31, g31), (sympy.Integer(0), g0)]
MONOTONE = [sympy.Implies(x > y, gx >= gy) for (x, gx), (y, gy) in itertools.permutations(POINTS, 2)]
IN_A = [delta12 > 0, delta23 > 0]  # a* in A(p) = {a1 > a2 > a3}
DIFFERENCES = [sympy.Eq(delta13, delta12 + delta23), sympy.Eq(delta31, -delta13)]


def contradiction_claim(id: str, which: int, *, slack: Any = 0, drop: str = "") -> Any:
    hyps = {
        "positive_h": POSITIVE_H,
        "eq11": EQ11,
        "in_a": IN_A,
        "differences": DIFFERENCES,
        "monotone_subgradients": MONOTONE,
        "phi_prime_zero_negative": [g0 < 0],
        f"cond{which}": [cond1(slack) if which == 1 else cond2(slack)],
    }
    hyps.pop(drop, None)
    return implies(
        id,
        hypotheses=hyps,
        conclusion=sympy.false,
        cite=cite(
            "Lemma 10, proof",
            "Suppose for the sake of contradiction that a* in A(p). ... which yields a "
            f"contradiction under CONDITION {which}.",
        ),
        statement=(
            f"h > 0, Eq. (11) at a* with a1 > a2 > a3, monotone subgradients and phi'(0) < 0 are "
            f"inconsistent under COND {which}: no minimiser of W lies in A(p)"
        ),
    )


lemma10_cond1 = contradiction_claim("duchi2010.lemma10.cond1", 1)
lemma10_cond2 = contradiction_claim("duchi2010.lemma10.cond2", 2)

a12, a13, a23, a31 = sympy.symbols("a12 a13 a23 a31", real=True)
x1, x2, x3 = sympy.symbols("x1 x2 x3", real=True)  # the scores alpha_1, alpha_2, alpha_3


def ind(cond: Any) -> Any:
    return sympy.Piecewise((1, cond), (0, True))


def lemma10_risk(al: tuple[Any, Any, Any]) -> Any:
    """l(p, a) of Lemma 10: a12 1(a1 <= a2) + a13 1(a1 <= a3) + a23 1(a2 <= a3) + a31 1(a3 < a1)."""
    b1, b2, b3 = al
    return a12 * ind(b1 <= b2) + a13 * ind(b1 <= b3) + a23 * ind(b2 <= b3) + a31 * ind(b3 < b1)


def ordered_minimisers_claim(id: str = "duchi2010.section2_2.minimisers_ordered", *, drop: str = "") -> Any:
    hyps = {
        "nonnegative": [a31 >= 0],
        "a13_above_a31": [a13 > a31],
        "a12_positive": [a12 > 0],
        "a23_positive": [a23 > 0],
    }
    hyps.pop(drop, None)
    risk = lemma10_risk((x1, x2, x3))
    best = lemma10_risk((sympy.Integer(3), sympy.Integer(2), sympy.Integer(1)))  # = a31
    return implies(
        id,
        hypotheses=hyps,
        conclusion=sympy.And(risk >= best, sympy.Implies(risk <= best, sympy.And(x1 > x2, x2 > x3))),
        cite=cite(
            "Section 2.2", "In this case, if a13 > a31, any a minimizing l(p, a) clearly will have a1 > a2 > a3."
        ),
        statement=(
            "with only a12, a13, a23, a31 (a12, a23 > 0, a13 > a31): l(p, a) >= l(p, (3,2,1)) "
            "and equality forces a1 > a2 > a3"
        ),
    )


section2_2_minimisers = ordered_minimisers_claim()


# ---------------------------------------------------------------------------------------
# Numeric confirmation: the minimiser of W lies outside A(p) = {a1 > a2 > a3}
# ---------------------------------------------------------------------------------------

PHIS = ("exp", "logistic", "squared_hinge")


def phi_and_derivative(name: str) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    import numpy as np

    if name == "exp":  # phi(x) = e^-x
        return (lambda x: np.exp(-x)), (lambda x: -np.exp(-x))
    if name == "logistic":  # phi(x) = log(1 + e^-x)
        return (lambda x: np.logaddexp(0.0, -x)), (lambda x: -0.5 * (1.0 - np.tanh(x / 2.0)))
    if name == "squared_hinge":  # phi(x) = (1 - x)_+^2
        return (lambda x: np.maximum(1.0 - x, 0.0) ** 2), (lambda x: -2.0 * np.maximum(1.0 - x, 0.0))
    raise ValueError(f"phi={name!r}: expected one of {PHIS}")


def minimiser_outside_a(h: Mapping[str, Fraction], phi_name: str, shift: float = 0.0) -> NumericOutcome:
    """Minimise W = h12 f(d12) + h13 f(d12 + d23) + h23 f(d23) + h31 f(-d12 - d23), f(x) = phi(x - shift),
    over (d12, d23) = (a1 - a2, a2 - a3) with a3 = 0, globally and over cl A(p) = {d12, d23 >= 0}."""
    import numpy as np
    from scipy.optimize import minimize

    phi, dphi = phi_and_derivative(phi_name)
    w12, w13, w23, w31 = (float(h[k]) for k in ("h12", "h13", "h23", "h31"))

    def f(x: Any) -> Any:
        return phi(x - shift)

    def df(x: Any) -> Any:
        return dphi(x - shift)

    def W(z: Any) -> float:
        x, y = z
        return float(w12 * f(x) + w13 * f(x + y) + w23 * f(y) + w31 * f(-x - y))

    def grad(z: Any) -> Any:
        x, y = z
        common = w13 * df(x + y) - w31 * df(-x - y)
        return np.array([w12 * df(x) + common, w23 * df(y) + common])

    opts = {"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10000}
    with np.errstate(all="ignore"):
        glob = minimize(W, np.zeros(2), jac=grad, method="L-BFGS-B", bounds=[(-40, 40)] * 2, options=opts)
        cl_a = minimize(W, np.full(2, 0.5), jac=grad, method="L-BFGS-B", bounds=[(0, 40)] * 2, options=opts)
    gap = float(cl_a.fun - glob.fun)
    d12, d23 = (float(v) for v in glob.x)
    outside = min(d12, d23) < 0
    interior = bool(np.all(np.abs(glob.x) < 39))
    return NumericOutcome(
        ok=outside and interior and glob.success and cl_a.success,
        method="scipy L-BFGS-B (analytic gradient, ftol 1e-15) on (a1 - a2, a2 - a3), a3 = 0",
        values={
            "phi": phi_name,
            "shift": shift,
            **{k: str(v) for k, v in h.items()},
            "argmin (a1-a2, a2-a3)": [round(d12, 8), round(d23, 8)],
            "W*": glob.fun,
            "min over cl A(p)": cl_a.fun,
            "argmin over cl A(p)": [round(float(v), 8) for v in cl_a.x],
            "grad norm at argmin": float(np.linalg.norm(grad(glob.x))),
        },
        tolerance=1e-6,
        margin=gap,
        note=(
            "margin = min over cl A(p) of W minus the global min of W: positive means no minimiser of W "
            "is in A(p) (numeric, not a proof)"
        ),
    )


def minimiser_claim(
    id: str, phi_name: str, h: Mapping[str, Fraction], shift: float, citation: Citation, what: str
) -> Any:
    return numeric(
        id,
        run=lambda: minimiser_outside_a(h, phi_name, shift),
        cite=citation,
        statement=f"{what}, phi = {phi_name}: the minimiser of W lies outside A(p) = {{a1 > a2 > a3}}",
    )


# ---------------------------------------------------------------------------------------
# Theorem 11's construction
# ---------------------------------------------------------------------------------------

b12, b13, b23, b31 = sympy.symbols("a12_G1 a13_G1 a23_G2 a31_G2", real=True)  # a_ij^G


def theorem11_graphs(w12: Any, w13: Any, w23: Any, w31: Any) -> list[Weights]:
    """G1 = {1 -> 2, 1 -> 3}, G2 = {2 -> 3, 3 -> 1}."""
    return [{(1, 2): w12, (1, 3): w13}, {(2, 3): w23, (3, 1): w31}]


def theorem11_weights() -> Weights:
    return expected_weights(theorem11_graphs(b12, b13, b23, b31), [HALF, HALF])


def theorem11_low_noise_claim(id: str, *, a31_bound: bool, a31_slack: Any = 0, finding: Finding | None = None) -> Any:
    hyps: dict[str, Any] = {
        "weights": [b13 > b12, b12 > 0, b13 > b31, b31 > 0],
        "a23_choice": [b23 > 0, b23 <= (b13 - b12) / 2],
    }
    if a31_bound:
        hyps["a31_choice"] = [b31 <= (b13 - b12) / 2 + a31_slack]
    a = theorem11_weights()
    return implies(
        id,
        hypotheses=hyps,
        conclusion=sympy.And(acyclic(weights_diff(a), 3), *low_noise_relations(weights_diff(a), 3)),
        cite=cite(
            "Theorem 11, proof",
            "Moreover, a23^G2 <= (a13^G1 - a12^G1)/2 < a13^G1 - a12^G1 implies that G~ is "
            "a DAG satisfying the low-noise condition."
            + (" [corrected: also a31^G2 <= (a13^G1 - a12^G1)/2]" if a31_bound else ""),
        ),
        statement=(
            "G1 = {1->2, 1->3}, G2 = {2->3, 3->1}, p = (1/2, 1/2), a13 > a12 > 0, a13 > a31 > 0, "
            "0 < a23 <= (a13 - a12)/2" + (", a31 <= (a13 - a12)/2" if a31_bound else "") + " => G~ is a low-noise DAG"
        ),
        finding=finding,
    )


theorem11_low_noise = theorem11_low_noise_claim(
    "duchi2010.theorem11.low_noise",
    a31_bound=False,
    finding=Finding(
        what=(
            "Theorem 11's proof infers low noise from a23 <= (a13 - a12)/2 alone, but G~ = {1 -> 2, 1 -> 3, 2 -> 3} "
            "is low-noise iff a13 - a31 >= a12 + a23 (path 1 -> 2 -> 3), and a31 is only required to be "
            "below a13. The construction works once a31 is small too (e.g. a31 <= (a13 - a12)/2); "
            "COND 1 and the theorem are unaffected."
        ),
        counterexample=(
            "a12^G1 = 1, a13^G1 = 3, a23^G2 = 1, a31^G2 = 2, p = (1/2, 1/2): every printed "
            "hypothesis holds, but d13 = (3 - 2)/2 = 1/2 < d12 + d23 = 1/2 + 1/2 = 1."
        ),
        corrected="duchi2010.theorem11.low_noise.corrected",
    ),
)
theorem11_low_noise_corrected = theorem11_low_noise_claim("duchi2010.theorem11.low_noise.corrected", a31_bound=True)

H12, H13, H31, H23, HEPS, EPS = sympy.symbols("H12 H13 H31 H23 H_eps eps", real=True)  # h(a12^G1), ..., h(eps)


def theorem11_cond1_claim(id: str = "duchi2010.theorem11.cond1", *, eps_factor: Any = 2) -> Any:
    h_12, h_13, h_31, h_23 = H12 / 2, H13 / 2, H31 / 2, H23 / 2  # h_ij = sum_G h(a_ij^G) p_G, h(0) = 0
    return implies(
        id,
        hypotheses={
            "weights": [b13 > b12, b12 > 0, b13 > b31, b31 > 0],
            "construction": [EPS > 0, sympy.Eq(b23, sympy.Min(EPS, (b13 - b12) / 2))],
            "h_increasing_with_h0_zero": [
                H12 > 0,
                H13 > 0,
                H31 > 0,
                H23 > 0,
                HEPS > 0,
                sympy.Implies(b23 <= EPS, H23 <= HEPS),
            ],
            "eps_choice": [HEPS < eps_factor * h_31 * h_12 / (h_13 + h_12)],
        },
        conclusion=sympy.And(h_23 <= HEPS / 2, h_23 < h_31 * h_12 / (h_13 + h_12)),
        cite=cite(
            "Theorem 11, proof",
            "Take a23^G2 = min{eps, (a13^G1 - a12^G1)/2}. Then we have h23 = h(a23^G2)/2 <= "
            "h(eps)/2 < h31 h12/(h13 + h12). Hence CONDITION 1 of Lemma 10 is satisfied",
        ),
        statement=(
            "for every increasing h with h(0) = 0: h(eps) < 2 h31 h12/(h13 + h12) and "
            "a23 = min(eps, (a13 - a12)/2) => COND 1"
        ),
    )


theorem11_cond1 = theorem11_cond1_claim()

THEOREM11_INSTANCE = {"a12_G1": Fraction(1), "a13_G1": Fraction(4), "a31_G2": Fraction(1), "eps": Fraction(1, 10)}


def theorem11_instance_holds(w: Mapping[str, Fraction]) -> tuple[bool, str]:
    """The construction with h(x) = x on exact weights: hypotheses, low noise, COND 1
    (expected weights and low noise by symcal.ranking, cross-checked locally)."""
    from symcal.ranking.difference import difference_cycle, is_low_noise
    from symcal.ranking.preference import PreferenceDistribution, PreferenceGraph
    from symcal.ranking.preference import expected_weights as ew

    w12, w13, w31, eps = w["a12_G1"], w["a13_G1"], w["a31_G2"], w["eps"]
    h12_, h13_, h31_ = w12 / 2, w13 / 2, w31 / 2  # h(x) = x: h_ij = sum_G h(a_ij^G) p_G
    eps_ok = eps > 0 and eps < 2 * h31_ * h12_ / (h13_ + h12_)
    w23 = min(eps, (w13 - w12) / 2)
    g1, g2 = theorem11_graphs(w12, w13, w23, w31)
    dist = PreferenceDistribution([(PreferenceGraph(3, g1), Fraction(1, 2)), (PreferenceGraph(3, g2), Fraction(1, 2))])
    a = ew(dist)
    local = expected_weights([g1, g2], [Fraction(1, 2)] * 2)
    same = all(a[e] == local.get(e, 0) for e in a)
    h23_ = a[(2, 3)]
    printed = w13 > w12 > 0 and w13 > w31 > 0
    low = is_low_noise(a, 3)
    agree = bool(low) == (not low_noise_violations(a, 3))
    dag = difference_cycle(a, 3) is None
    c1 = h23_ < h31_ * h12_ / (h13_ + h12_)
    detail = (
        f"a23^G2 = {w23}; a = {{{', '.join(f'{i}{j}: {v}' for (i, j), v in sorted(a.items()) if v)}}}; "
        f"{low.reason}; COND 1: h23 = {h23_} < {h31_ * h12_ / (h13_ + h12_)} is {c1}"
    )
    return printed and eps_ok and same and agree and dag and bool(low) and c1, detail


def theorem11_instance_claim(
    id: str = "duchi2010.theorem11.instance", instance: Mapping[str, Fraction] = THEOREM11_INSTANCE
) -> Any:
    return finite_check(
        id,
        cases=[dict(instance)],
        holds=theorem11_instance_holds,
        describe=lambda w: {k: v for k, v in w.items()},
        domain="one exact instance of Theorem 11's construction with h(x) = x",
        cite=cite(
            "Theorem 11",
            "Even in the low-noise setting, for phi convex and satisfying Assumption A, phi is not edge-consistent.",
        ),
        statement=(
            "a12^G1 = 1, a13^G1 = 4, a31^G2 = 1, eps = 1/10, h(x) = x: the construction is low-noise, "
            "a DAG, and satisfies COND 1"
        ),
    )


theorem11_instance = theorem11_instance_claim()


def theorem11_h(instance: Mapping[str, Fraction] = THEOREM11_INSTANCE) -> dict[str, Fraction]:
    w12, w13, w31, eps = (instance[k] for k in ("a12_G1", "a13_G1", "a31_G2", "eps"))
    return {"h12": w12 / 2, "h13": w13 / 2, "h23": min(eps, (w13 - w12) / 2) / 2, "h31": w31 / 2}


theorem11_numeric = [
    minimiser_claim(
        f"duchi2010.theorem11.minimiser_outside_a.{name}",
        name,
        theorem11_h(),
        0.0,
        cite(
            "Theorem 11",
            "Even in the low-noise setting, for phi convex and satisfying Assumption A, phi is not edge-consistent.",
        ),
        "Theorem 11's instance (a12^G1 = 1, a13^G1 = 4, a31^G2 = 1, a23^G2 = 1/10, h(x) = x)",
    )
    for name in PHIS
]


# ---------------------------------------------------------------------------------------
# Theorem 12's construction
# ---------------------------------------------------------------------------------------

C0 = sympy.Symbol("c0", real=True)  # the constant weight h^-1(c)
THEOREM12_P = (Fraction(1, 4), Fraction(1, 100), Fraction(1, 2), Fraction(6, 25))


def theorem12_graphs(w: Any) -> list[Weights]:
    """G1 = {1 -> 2}, G2 = {2 -> 3}, G3 = {1 -> 3}, G4 = {3 -> 1}, each edge of weight h^-1(c)."""
    return [{(1, 2): w}, {(2, 3): w}, {(1, 3): w}, {(3, 1): w}]


def theorem12_weights(p: tuple[Fraction, ...]) -> Weights:
    return expected_weights(theorem12_graphs(C0), [sympy.Rational(x.numerator, x.denominator) for x in p])


def theorem12_low_noise_claim(id: str = "duchi2010.theorem12.low_noise", p: tuple[Fraction, ...] = THEOREM12_P) -> Any:
    a = theorem12_weights(p)
    dd = weights_diff(a)
    return implies(
        id,
        hypotheses={"weight_positive": [C0 > 0]},
        conclusion=sympy.And(
            dd(1, 3) >= dd(1, 2) + dd(2, 3), dd(1, 2) + dd(2, 3) > 0, acyclic(dd, 3), *low_noise_relations(dd, 3)
        ),
        cite=cite(
            "Theorem 12, proof",
            "a13 - a31 = h^-1(c)(p_G3 - p_G4) >= h^-1(c)(p_G1 + p_G2) = a12 + a23 > 0, "
            "so G~ is a DAG satisfying the low-noise condition",
        ),
        statement="p = (.25, .01, .5, .24), one-edge graphs 1->2, 2->3, 1->3, 3->1 of weight c0 > 0 => a low-noise DAG",
    )


def theorem12_tight_claim(
    id: str = "duchi2010.theorem12.low_noise_tight", p: tuple[Fraction, ...] = THEOREM12_P
) -> Any:
    a = theorem12_weights(p)
    return identity(
        id,
        a[(1, 3)] - a[(3, 1)],
        a[(1, 2)] + a[(2, 3)],
        cite=cite("Theorem 12, proof", "a13 - a31 = h^-1(c)(p_G3 - p_G4) >= h^-1(c)(p_G1 + p_G2) = a12 + a23"),
        statement="the printed a13 - a31 >= a12 + a23 holds with equality: 0.26 c0 = 0.26 c0",
    )


def theorem12_cond1_holds(p: tuple[Fraction, ...]) -> tuple[bool, str]:
    p1, p2, p3, p4 = p
    rhs = p4 * p1 / (p3 + p1)
    return sum(p) == 1 and min(p) >= 0 and p2 < rhs, f"p_G2 = {p2} < p_G4 p_G1/(p_G3 + p_G1) = {rhs}; sum p = {sum(p)}"


def theorem12_cond1_claim(id: str = "duchi2010.theorem12.cond1", p: tuple[Fraction, ...] = THEOREM12_P) -> Any:
    return finite_check(
        id,
        cases=[tuple(p)],
        holds=theorem12_cond1_holds,
        describe=lambda q: {f"p_G{t + 1}": v for t, v in enumerate(q)},
        domain="Theorem 12's probability vector (exact)",
        cite=cite("Theorem 12, proof", "However, p_G2 < p_G4 p_G1/(p_G3 + p_G1)."),
        statement=(
            "p = (1/4, 1/100, 1/2, 6/25) is a probability vector with "
            "p_G2 < p_G4 p_G1/(p_G3 + p_G1) (COND 1 with h_ij = p_G)"
        ),
    )


theorem12_low_noise = theorem12_low_noise_claim()
theorem12_tight = theorem12_tight_claim()
theorem12_cond1 = theorem12_cond1_claim()


def theorem12_h(p: tuple[Fraction, ...] = THEOREM12_P) -> dict[str, Fraction]:
    return {"h12": p[0], "h23": p[1], "h13": p[2], "h31": p[3]}  # W = sum_G p_G phi~(edge of G)


theorem12_numeric = [
    minimiser_claim(
        f"duchi2010.theorem12.minimiser_outside_a.{name}",
        name,
        theorem12_h(),
        1.0,
        cite(
            "Theorem 12",
            "Even in the low-noise setting, for phi convex and satisfying Assumption A, phi is not edge-consistent.",
        ),
        "Theorem 12's instance (p = (.25, .01, .5, .24), phi~(x) = phi(x - 1))",
    )
    for name in PHIS
]


# ---------------------------------------------------------------------------------------
# Section 3.1: Cossock-Zhang scores, order-preserving probability spaces
# ---------------------------------------------------------------------------------------


@functools.cache
def ysym(i: int) -> sympy.Symbol:
    return sympy.Symbol(f"y_{i}", real=True)


def cossock_zhang_claim(
    id: str = "duchi2010.section3_1.cossock_zhang", *, shift: Any = 0, sizes: tuple[int, int] = (3, 8)
) -> Any:
    def conclusion(m: int) -> Any:
        a = {
            (i, j): sympy.Max(ysym(i) - ysym(j) - shift, 0) for i in range(1, m + 1) for j in range(1, m + 1) if i != j
        }
        return sympy.And(*low_noise_relations(weights_diff(a), m))

    return implies(
        id,
        hypotheses={},
        conclusion=conclusion,
        cite=cite(
            "Section 3.1",
            "we can construct a graph G = ({x_i, x_j}, {(i -> j)}) and set a_ij^G = y_i - y_j. "
            "... G~ satisfies the low-noise condition",
        ),
        statement="for any scores y, the weights a_ij = max(y_i - y_j, 0) are low-noise",
        sizes=sizes,
    )


cossock_zhang = cossock_zhang_claim()

P_PI, P_HAT, W2 = sympy.symbols("p_pi p_pihat w2", real=True)


def order_preserving_weights() -> Weights:
    """pi = 1 -> 2 -> 3 and pihat = 2 -> 3 -> 1; adjacent pairs weigh 1, distance-two pairs w2."""
    pi = {(1, 2): 1, (2, 3): 1, (1, 3): W2}
    pihat = {(2, 3): 1, (3, 1): 1, (2, 1): W2}
    return expected_weights([pi, pihat], [P_PI, P_HAT])


def order_preserving_weights_claim(
    id: str = "duchi2010.section3_1.order_preserving.weights", *, printed: tuple[Any, Any, Any] | None = None
) -> Any:
    dd = weights_diff(order_preserving_weights())
    printed = printed or (P_PI - W2 * P_HAT, W2 * P_PI - P_HAT, P_PI + P_HAT)
    return identity(
        id,
        sympy.Matrix([dd(1, 2), dd(1, 3), dd(2, 3)]),
        sympy.Matrix(list(printed)),
        cite=cite(
            "Section 3.1",
            "The associated difference graph G~ will have edge weights a12 = p_pi - w2 p_pihat, "
            "a13 = w2 p_pi - p_pihat, and a23 = p_pi + p_pihat.",
        ),
        statement=(
            "the difference weights of pi = 1->2->3, pihat = 2->3->1 are "
            "p_pi - w2 p_pihat, w2 p_pi - p_pihat, p_pi + p_pihat"
        ),
    )


order_preserving_weights_c = order_preserving_weights_claim()


def order_preserving_hyps(upper: Any = 1) -> dict[str, Any]:
    dd = weights_diff(order_preserving_weights())
    return {
        "probabilities": [P_PI > P_HAT, P_HAT >= 0, sympy.Eq(P_PI + P_HAT, 1), P_PI <= upper],
        "w2_nonnegative": [W2 >= 0],
        "low_noise": low_noise_relations(dd, 3),
        "a12_positive": [dd(1, 2) > 0],
    }


def w2_at_least_2_claim(id: str = "duchi2010.section3_1.order_preserving.w2_at_least_2", *, bound: Any = 2) -> Any:
    hyps = order_preserving_hyps()
    hyps["pi_edges"] = [weights_diff(order_preserving_weights())(2, 3) > 0]
    return implies(
        id,
        hypotheses=hyps,
        conclusion=W2 >= bound,
        cite=cite(
            "Section 3.1",
            "To satisfy the low-noise condition in Def. 8 and have the ordering pi minimize the true "
            "loss, we must have ... That is, w2 >= 2.",
        ),
        statement="low noise with the edges 1 -> 2, 2 -> 3 of pi in G~ => w2 >= 2",
    )


def no_fixed_w2_claim(id: str = "duchi2010.section3_1.order_preserving.no_fixed_w2", *, upper: Any = TWO_THIRDS) -> Any:
    hyps = order_preserving_hyps(upper)
    hyps["probabilities"].append(P_PI > HALF)
    return implies(
        id,
        hypotheses=hyps,
        conclusion=sympy.false,
        cite=cite(
            "Section 3.1",
            "then there is no way to set w2 so that the resulting (G, p) satisfies the low-noise condition in Def. 8",
        ),
        statement=f"for 1/2 < p_pi <= {upper}, p_pi + p_pihat = 1, no w2 >= 0 gives a low-noise G~ with a12 > 0",
    )


w2_at_least_2 = w2_at_least_2_claim()
no_fixed_w2 = no_fixed_w2_claim()


# ---------------------------------------------------------------------------------------
# Lemma 7: min l(p, a) is a minimum weighted feedback arc set
# ---------------------------------------------------------------------------------------


def random_weighted_graphs(
    seed: int = 2010,
    per_size: int = 6,
    sizes: tuple[int, ...] = (3, 4, 5),
    weights: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)),
    density: float = 0.45,
    max_edges: int = 12,
) -> list[tuple[int, Weights]]:
    rng = random.Random(seed)
    out: list[tuple[int, Weights]] = []
    for m in sizes:
        made = 0
        while made < per_size:
            pairs = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
            a = {e: rng.choice(weights) for e in pairs if rng.random() < density}
            if 0 < len(a) <= max_edges:
                out.append((m, a))
                made += 1
    return out


def lemma7_holds(case: tuple[int, Weights], *, offset: Fraction = Fraction(0)) -> tuple[bool, str]:
    from symcal.ranking.feedback_arc_set import min_feedback_arc_set

    m, a = case
    risk = min_conditional_risk(a, m)
    fas = brute_force_feedback_arc_set(a, m) + offset
    # brute_force_nodes=1 sends every strongly connected component through the HiGHS LP/MILP path
    ranked = min_feedback_arc_set(a, m, brute_force_nodes=1)
    return (
        risk == fas == ranked.weight + offset and ranked.certified,
        f"min l = {risk}, brute-force FAS (edge subsets) = {fas}, "
        f"MILP FAS (ranking.min_feedback_arc_set) = {ranked.weight} ({ranked.method})",
    )


def describe_graph(case: tuple[int, Weights]) -> dict[str, Any]:
    m, a = case
    return {"m": m, **{f"a[{i},{j}]": w for (i, j), w in sorted(a.items())}}


def lemma7_claim(id: str = "duchi2010.lemma7.min_risk_is_feedback_arc_set", *, offset: Fraction = Fraction(0)) -> Any:
    return finite_check(
        id,
        cases=lambda m: random_weighted_graphs(),
        holds=lambda c: lemma7_holds(c, offset=offset),
        describe=describe_graph,
        sample='seeded random digraphs',
        domain=(
            "18 seeded random weighted digraphs (seed 2010; m = 3, 4, 5; at most 12 edges; weights in {1/2, 1, 2, 3})"
        ),
        cite=cite(
            "Lemma 7, proof",
            "this is equivalent to finding an ordering of the nodes ... such that the sum of the "
            "back edges is less than k",
        ),
        statement=(
            "min over a of l(p, a) (Eq. (8), all weak orders) = minimum weighted feedback arc set "
            "(brute force = MILP = symcal.ranking)"
        ),
    )


lemma7 = lemma7_claim()


def lemma7_reduction_holds(case: tuple[int, Weights], *, weight_offset: int = 0) -> tuple[bool, str]:
    m, g = case
    edges = sorted(g)
    n = len(edges)
    graphs = [{e: Fraction(n + weight_offset)} for e in edges]  # the i_j-th graph is the single edge, weight |E|
    a = expected_weights(graphs, [Fraction(1, n)] * n)
    from symcal.ranking.preference import expected_weights as ew
    from symcal.ranking.preference import single_edge_distribution, unit_weights

    indicator = a == {e: Fraction(1) for e in edges} and ew(single_edge_distribution(m, edges)) == unit_weights(
        m, edges
    )
    risk = min_conditional_risk(a, m)
    fas = brute_force_feedback_arc_set({e: Fraction(1) for e in edges}, m)
    return (
        indicator and risk == fas,
        f"|E| = {n}; expected weights are the 0/1 indicator: {indicator}; min l = {risk}, min |E'| = {fas}",
    )


def lemma7_reduction_claim(id: str = "duchi2010.lemma7.reduction", *, weight_offset: int = 0) -> Any:
    return finite_check(
        id,
        cases=lambda m: [
            (mm, {e: Fraction(1) for e in a}) for mm, a in random_weighted_graphs(seed=7, per_size=4, sizes=(3, 4, 5))
        ],
        holds=lambda c: lemma7_reduction_holds(c, weight_offset=weight_offset),
        describe=describe_graph,
        sample='seeded random digraphs',
        domain="12 seeded random unweighted digraphs (seed 7; m = 3, 4, 5)",
        cite=cite(
            "Lemma 7, proof",
            "set p_ij = 1/|E| and let the i_j-th graph ... be simply the edge (i -> j) with weight a_ij = |E|",
        ),
        statement=(
            "the single-edge graphs of weight |E| with p = 1/|E| give a_ij = 1 on E, "
            "and min l(p, a) = the minimum feedback arc set size"
        ),
    )


lemma7_reduction = lemma7_reduction_claim()


# ---------------------------------------------------------------------------------------
# Section 3: the regulariser r is needed
# ---------------------------------------------------------------------------------------

T = sympy.Symbol("t", real=True)


def regulariser_claim(id: str = "duchi2010.section3.regulariser_needed", *, nu: Any = 0) -> Any:
    a = {(1, 2): 1, (1, 3): 1}  # G~ = {1 -> 2, 1 -> 3}, A(p) = {a1 > a2, a1 > a3}
    al = (T, T, sympy.Integer(0))  # a(t) = (t, t, 0)
    w = sum((wt * (al[j - 1] - al[i - 1]) for (i, j), wt in a.items()), sympy.Integer(0)) + nu * sum(x**2 for x in al)
    return implies(
        id,
        hypotheses={"t_positive": [T > 0]},
        conclusion=sympy.And(sympy.Not(sympy.And(al[0] > al[1], al[0] > al[2])), w <= -T),
        cite=cite(
            "Section 3, after Corollary 15",
            "if r is not in the objective in Eq. (14), then phi(., G) can be sent to -oo with a not in A(p)",
        ),
        statement=(
            "without r (nu = 0), for G~ = {1->2, 1->3} and a(t) = (t, t, 0): a(t) is not in A(p) "
            "and W(a(t)) <= -t for all t > 0"
        ),
    )


regulariser_needed = regulariser_claim()


# --- Theorem 13 for a strictly convex r that is not differentiable --------------------------
# Theorem 13 asks only that r be strictly convex and 1-coercive.  Its proof uses
# "s = (dr)^-1 is increasing" as if strictly: a*_i > a*_k iff g_i > g_k.  For a kinked r the
# inverse subdifferential is flat on the kink, so distinct g can give equal a*.
# The family r_{k,b,c}(a) = k a^2 + b a + c |a| (k > 0, c >= 0) is strictly convex and
# 1-coercive; its minimiser of -G a + nu r(a) is the soft threshold below (exact).


def _soft_threshold_minimiser(g: Fraction, nu: Fraction, k: Fraction, b: Fraction, c: Fraction) -> Fraction:
    """argmin_a  -g a + nu (k a^2 + b a + c |a|), exactly."""
    t = g / nu - b  # the subgradient condition: t in 2 k a + c * sign(a)
    if abs(t) <= c:
        return Fraction(0)
    return (t - c) / (2 * k) if t > 0 else (t + c) / (2 * k)


def _theorem13_general_r_cases(rs: tuple[tuple[Fraction, Fraction, Fraction], ...]) -> list[Any]:
    grid = (Fraction(0), Fraction(1, 2), Fraction(1))
    cases = []
    for m in (2, 3):
        pairs = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
        for values in itertools.product(grid, repeat=len(pairs)):
            a = dict(zip(pairs, values, strict=True))
            for nu in (Fraction(1), Fraction(1, 2)):
                for r in rs:
                    cases.append((m, a, nu, r))
    return cases


def _theorem13_general_r_holds(case: Any) -> tuple[bool, str]:
    m, a, nu, (k, b, c) = case
    g = {i: sum((a.get((i, j), 0) - a.get((j, i), 0) for j in range(1, m + 1) if j != i), Fraction(0))
         for i in range(1, m + 1)}
    edges = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j and a.get((i, j), 0) > a.get((j, i), 0)]
    if has_cycle(edges, m):
        return True, "difference graph not a DAG: outside the theorem"
    star = {i: _soft_threshold_minimiser(g[i], nu, k, b, c) for i in range(1, m + 1)}
    consistent = all(star[i] > star[j] for i, j in edges)  # a* in the interior of A(p)
    cond16 = all(g[i] > g[k2] for i, k2 in edges)
    return consistent == cond16, (f"m={m}, a={ {f'a{i}{j}': str(v) for (i, j), v in a.items() if v} }, nu={nu}, "
                                  f"r=({k})a^2+({b})a+({c})|a|: (16) {'holds' if cond16 else 'fails'} but a* = "
                                  f"{ {i: str(v) for i, v in star.items()} } "
                                  f"{'respects' if consistent else 'does not strictly respect'} every edge")


def theorem13_general_r_claim(id: str, rs: tuple[tuple[Fraction, Fraction, Fraction], ...], *,
                              finding: Finding | None = None, statement: str) -> Any:
    return finite_check(
        id,
        cases=lambda m: _theorem13_general_r_cases(rs),
        holds=_theorem13_general_r_holds,
        sample='a grid of weights and two choices of r, of a statement for every strictly convex r',
        domain=(f"m = 2, 3; a_ij in {{0, 1/2, 1}}; nu in {{1, 1/2}}; r(a) = k a^2 + b a + c|a| for (k, b, c) in "
                f"{[tuple(str(x) for x in r) for r in rs]}"),
        describe=lambda case: {"m": case[0], **{f"a[{i},{j}]": v for (i, j), v in case[1].items() if v},
                               "nu": case[2], "r": f"({case[3][0]})a^2 + ({case[3][1]})a + ({case[3][2]})|a|"},
        cite=cite("Theorem 13", "... where nu > 0 and r is strictly convex and 1-coercive. If the pair (G, p) "
                                "induces a difference graph that is a DAG, then [edge-consistency] <=> (16)."),
        statement=statement,
        finding=finding,
    )


_F = Fraction
theorem13_strictly_convex_r = theorem13_general_r_claim(
    "duchi2010.theorem13.strictly_convex_r",
    ((_F(1), _F(0), _F(0)), (_F(1), _F(0), _F(1))),
    statement="for strictly convex 1-coercive r (here k a^2 + c|a|), a DAG difference graph gives: "
              "edge-consistency (a* strictly respects every edge) <=> (16)",
    finding=Finding(
        what=("Theorem 13 holds for differentiable r but not for every strictly convex 1-coercive r: the proof's "
              "step 'a*_i > a*_k iff (sum_j a_ij - a_ji)/nu > (sum_j a_kj - a_jk)/nu' needs s = (dr)^-1 strictly "
              "increasing, and at a kink of r it is constant, so (16) can hold while a* ties the two ends of an "
              "edge (a* on the boundary of A(p), so W* = inf{W : a not in A(p)})."),
        counterexample="m = 2, a_21 = 1/2 (a_12 = 0), nu = 1, r(a) = a^2 + |a|: (16) holds for the edge 2 -> 1 "
                       "(1/2 > -1/2) but the unique minimiser is a* = (0, 0), on the boundary of "
                       "A(p) = {a_2 >= a_1}, so the loss is not edge-consistent there.",
        corrected="duchi2010.theorem13.strictly_convex_r.corrected",
    ),
)
theorem13_strictly_convex_r_corrected = theorem13_general_r_claim(
    "duchi2010.theorem13.strictly_convex_r.corrected",
    ((_F(1), _F(0), _F(0)), (_F(1), _F(1), _F(0)), (_F(2), _F(-1), _F(0))),
    statement="with r also differentiable (here k a^2 + b a), a DAG difference graph gives: edge-consistency <=> (16)",
)


# ---------------------------------------------------------------------------------------
# Edge-consistency decided over the whole simplex (symcal.calibration)
# ---------------------------------------------------------------------------------------
# The reduction (module notes, "Calibration"): labels = the DAGs G of the support, loss
# L(G, sigma) = sum_{(i -> j) in G} a_ij^G 1(sigma(i) > sigma(j)) (Eq. (7) on strict orders),
# predictions = the m! permutations (position vectors), link = "sort-desc", surrogate
# phi(alpha, G) in the scores alpha in R^m, noise = relations in the probabilities p1..pn of
# the DAGs.  Edge-consistency (Definition 2) is then exactly the engine's calibration.


@functools.cache
def score_permutations(m: int) -> tuple[tuple[int, ...], ...]:
    """The m! permutations as position vectors, in the sort-desc link's order."""
    return tuple(itertools.permutations(range(1, m + 1)))


def graph_name(g: Mapping[tuple[int, int], Any]) -> str:
    return "{" + ", ".join(f"{i}->{j}" + ("" if w == 1 else f":{w}") for (i, j), w in sorted(g.items())) + "}"


def disagreement_matrix(graphs: list[Weights], m: int) -> Any:
    """L(G, sigma) = sum_{(i -> j) in G} a_ij^G 1(sigma(i) > sigma(j)) for every graph and permutation."""
    from symcal.ranking.loss_matrix import LossMatrix

    perms = score_permutations(m)
    rows = [[sum((Fraction(w) for (i, j), w in g.items() if s[i - 1] > s[j - 1]), Fraction(0)) for s in perms]
            for g in graphs]
    return LossMatrix.from_rows(rows, labels=[graph_name(g) for g in graphs], predictions=list(perms),
                                name=f"disagreement loss, m = {m}")


def single_edge_graphs(m: int) -> list[Weights]:
    """One graph per ordered pair: (i -> j) with weight 1 (the family of Lemma 7's proof)."""
    return [{(i, j): Fraction(1)} for i in range(1, m + 1) for j in range(1, m + 1) if i != j]


def _sum(terms: Iterable[str]) -> str:
    text = " + ".join(terms)
    return text or "0"


def linear_surrogate(graphs: list[Weights], m: int, nu: Fraction = Fraction(1, 2)) -> dict[str, Any]:
    """Eq. (14) with r(a) = a^2: phi(a, G) = sum_{(i -> j) in G} a_ij^G (a_j - a_i) + nu sum_k a_k^2."""
    reg = f"{nu}*(" + " + ".join(f"u{k}**2" for k in range(1, m + 1)) + ")"
    rows = [_sum(f"{w}*(u{j} - u{i})" for (i, j), w in sorted(g.items())) + " + " + reg for g in graphs]
    return {"dim": m, "per_label": rows, "name": "linear_value_regularised"}


def hinge_pairwise_surrogate(graphs: list[Weights], m: int) -> dict[str, Any]:
    """Eq. (9) with h(x) = x and the hinge phi(x) = max(0, 1 - x): sum_{(i -> j) in G} a_ij^G (1 - (a_i - a_j))_+."""
    rows = [_sum(f"{w}*Max(0, 1 - u{i} + u{j})" for (i, j), w in sorted(g.items())) for g in graphs]
    return {"dim": m, "per_label": rows, "name": "pairwise_hinge"}


def hinge_margin_surrogate(graphs: list[Weights], m: int) -> dict[str, Any]:
    """Eq. (13) with h(x) = x and the hinge: sum_{(i -> j) in G} (1 - (a_i - a_j - a_ij^G))_+."""
    rows = [_sum(f"Max(0, 1 + {w} - u{i} + u{j})" for (i, j), w in sorted(g.items())) for g in graphs]
    return {"dim": m, "per_label": rows, "name": "margin_hinge"}


def p_symbols(n: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(f"p1:{n + 1}"))


def differences_of_p(graphs: list[Weights]) -> Callable[[int, int], Any]:
    """d_ij = a_ij - a_ji with a_ij = sum_G a_ij^G p_G, linear in p1..pn."""
    return weights_diff(expected_weights(graphs, p_symbols(len(graphs))))


def eq16_relations(dd: Callable[[int, int], Any], m: int) -> list[Any]:
    """(16) with nu cancelled: a_ik > a_ki  =>  sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk)."""
    def s(i: int) -> Any:
        return sum((dd(i, j) for j in range(1, m + 1) if j != i), sympy.Integer(0))

    return [sympy.Implies(dd(i, k) > 0, s(i) > s(k)) for i, k in itertools.permutations(range(1, m + 1), 2)]


def duchi_noise(graphs: list[Weights], m: int, kind: str) -> list[Any]:
    dd = differences_of_p(graphs)
    if kind == "low_noise":
        return low_noise_relations(dd, m)
    if kind == "dag":
        return [acyclic(dd, m)]
    if kind == "dag_and_eq16":
        return [acyclic(dd, m), *eq16_relations(dd, m)]
    raise ValueError(kind)


EDGE_CONSISTENCY = ("edge-consistency (Definition 2) = the engine's calibration with the sort-desc link: "
                    "labels = the graphs, L(G, sigma) = sum a_ij^G 1(sigma(i) > sigma(j))")


def linear_whole_claim(id: str, m: int, noise: str, *, location: str, quote: str, statement: str) -> Any:
    graphs = single_edge_graphs(m)
    return calibrated(
        id, loss=lambda mm: disagreement_matrix(graphs, m), surrogate=lambda mm: linear_surrogate(graphs, m),
        link="sort-desc", noise=lambda mm: duchi_noise(graphs, m, noise),
        cite=cite(location, quote),
        statement=(f"m = {m}: {statement}; the labels are the m(m-1) single-edge graphs of unit weight, so p "
                   "ranges over every expected weight vector up to scale (W and l depend on (G, p) only through "
                   "a_ij = sum_G a_ij^G p_G, and scaling a is scaling nu); " + EDGE_CONSISTENCY),
    )


def corollary15_whole_claim(id: str, m: int, *, noise: str = "low_noise") -> Any:
    what = {"low_noise": "over every low-noise p (Definition 8 as relations in p)",
            "dag": "over every p whose difference graph is a DAG (low noise dropped)"}[noise]
    return linear_whole_claim(
        id, m, noise, location="Corollary 15",
        quote="The linear loss of Eq. (14) is edge-consistent if (G, p) is low noise for all query-result pairs.",
        statement=f"the linear loss of Eq. (14) with r(a) = a^2, nu = 1/2 is edge-consistent {what}")


def theorem13_whole_claim(id: str, m: int, *, noise: str = "dag_and_eq16") -> Any:
    what = {"dag_and_eq16": "over every p whose difference graph is a DAG and which satisfies (16)",
            "dag": "over every p whose difference graph is a DAG ((16) dropped)"}[noise]
    return linear_whole_claim(
        id, m, noise, location="Theorem 13",
        quote="If (G, p) induces a difference graph that is a DAG, then W*(p) < inf{W(p, a) : a not in A(p)} <=> "
              "sum_j a_ij - a_ji > sum_j a_kj - a_jk for i, k s.t. a_ik > a_ki.",
        statement=f"(<=) the linear loss of Eq. (14) with r(a) = a^2, nu = 1/2 is edge-consistent {what}")


THEOREM11_GRAPHS: list[Weights] = theorem11_graphs(Fraction(1), Fraction(4), Fraction(1, 10), Fraction(1))
THEOREM12_GRAPHS: list[Weights] = theorem12_graphs(Fraction(1))
THEOREM12_PAPER_P = [f"p{t + 1} = {fr}" for t, fr in enumerate(THEOREM12_P[:3])]


def theorem11_whole_claim(id: str, *, linear: bool = False) -> Any:
    g = THEOREM11_GRAPHS
    return calibrated(
        id, loss=lambda m: disagreement_matrix(g, 3),
        surrogate=lambda m: linear_surrogate(g, 3) if linear else hinge_pairwise_surrogate(g, 3),
        link="sort-desc", noise=lambda m: duchi_noise(g, 3, "low_noise"),
        cite=cite("Theorem 11", "Even in the low-noise setting, for phi convex and satisfying Assumption A, "
                                "phi is not edge-consistent."),
        statement=(("twin: the value-regularised linear loss (14) (r = a^2, nu = 1/2) instead of the pairwise "
                    "hinge is edge-consistent" if linear else
                    "the pairwise surrogate of Eq. (9) with h(x) = x and the hinge phi(x) = max(0, 1 - x) (convex, "
                    "phi'(0) = -1 < 0, bounded below so Assumption A holds) is edge-consistent")
                   + " over every low-noise p on Theorem 11's graphs G1 = {1->2: 1, 1->3: 4}, G2 = {2->3: 1/10, "
                   "3->1: 1} (the construction with the corrected a31 <= (a13 - a12)/2, eps = 1/10); "
                   + ("" if linear else "false: the paper asserts inconsistency, so a refutation with an exact p "
                      "agrees with it; ") + EDGE_CONSISTENCY),
        expected=None if linear else "refuted",
    )


def theorem12_whole_claim(id: str, *, paper_p: bool = False, linear: bool = False) -> Any:
    g = THEOREM12_GRAPHS
    where = ("at the paper's p = (.25, .01, .5, .24)" if paper_p else "over every low-noise p")
    return calibrated(
        id, loss=lambda m: disagreement_matrix(g, 3),
        surrogate=lambda m: linear_surrogate(g, 3) if linear else hinge_margin_surrogate(g, 3),
        link="sort-desc", noise=lambda m: THEOREM12_PAPER_P if paper_p else duchi_noise(g, 3, "low_noise"),
        cite=cite("Theorem 12", "Even in the low-noise setting, for phi convex and satisfying Assumption A, "
                                "phi is not edge-consistent."),
        statement=(("twin: the value-regularised linear loss (14) (r = a^2, nu = 1/2) instead of the margin hinge "
                    "is edge-consistent" if linear else
                    "the margin-based surrogate of Eq. (13) with h(x) = x and the hinge phi(x) = max(0, 1 - x) "
                    "(phi~(x) = phi(x - c), c = h(1) = 1, differentiable at -c) is edge-consistent")
                   + f" {where} on Theorem 12's graphs G1 = {{1->2}}, G2 = {{2->3}}, G3 = {{1->3}}, G4 = {{3->1}} of "
                   "weight h^-1(c) = 1; " + ("" if linear else "false: the paper asserts inconsistency; ")
                   + EDGE_CONSISTENCY),
        expected=None if linear else "refuted",
    )


corollary15_whole = [corollary15_whole_claim(f"duchi2010.corollary15.calibration.low_noise.m{m}", m) for m in (3, 4)]
theorem13_whole = [theorem13_whole_claim(f"duchi2010.theorem13.calibration.dag_and_eq16.m{m}", m) for m in (3, 4)]
theorem11_whole = theorem11_whole_claim("duchi2010.theorem11.calibration.hinge")
theorem12_whole = theorem12_whole_claim("duchi2010.theorem12.calibration.margin_hinge")
theorem12_whole_paper_p = theorem12_whole_claim("duchi2010.theorem12.calibration.margin_hinge.paper_p", paper_p=True)


# --- Lemma 16 over every real weight vector ---------------------------------------------


@functools.cache
def weak_order_representatives(m: int) -> tuple[tuple[int, ...], ...]:
    """One score vector per weak order of m items (13 at m = 3, 75 at m = 4): Eq. (8) depends on a
    only through its weak order."""
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for al in weak_orders(m):
        levels = sorted(set(al))
        seen.setdefault(tuple(levels.index(x) for x in al), al)
    return tuple(sorted(seen.values()))


def lemma16_symbolic_cases(m: int, *, strict_back: bool = False) -> list[Any]:
    """One implication per weak order alpha: for every a >= 0 with a DAG difference graph,
    alpha minimises Eq. (8) <=> alpha is in Lemma 16's set; and one for the converse: a cyclic
    difference graph makes the two sets differ at some alpha."""
    pairs = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
    a = {e: asym(*e) for e in pairs}
    nonneg = [x >= 0 for x in a.values()]
    dd = weights_diff(a)
    orders = weak_order_representatives(m)
    risk = {al: conditional_risk(a, al) for al in orders}

    def optimal(al: tuple[int, ...]) -> Any:
        return sympy.And(*[risk[al] <= risk[be] for be in orders if be != al])

    def described(al: tuple[int, ...]) -> Any:
        conds = []
        for i, j in pairs:
            inside = al[i - 1] > al[j - 1] if (i < j or strict_back) else al[i - 1] >= al[j - 1]
            if not inside:
                conds.append(sympy.Not(dd(i, j) > 0))
        return sympy.And(*conds)

    dag = acyclic(dd, m)
    cases = [(f"m={m}, alpha={al}", {"weights_nonnegative": nonneg, "dag": [dag]},
              sympy.Equivalent(optimal(al), described(al))) for al in orders]
    cases.append((f"m={m}, cyclic", {"weights_nonnegative": nonneg, "cyclic": [sympy.Not(dag)]},
                  sympy.Or(*[sympy.Not(sympy.Equivalent(optimal(al), described(al))) for al in orders])))
    return cases


def lemma16_all_weights_claim(id: str = "duchi2010.lemma16.all_weights", *, strict_back: bool = False,
                              sizes: tuple[int, int] = (3, 4)) -> Any:
    return implies_cases(
        id, cases=lambda m: lemma16_symbolic_cases(m, strict_back=strict_back),
        cite=cite("Lemma 16", "G~ is a DAG if and only if A(p) = {a : a_i > a_j for i < j with a_ij > a_ji, "
                              "a_i >= a_j for i > j with a_ij > a_ji}"),
        statement=("for every real weight vector a_ij >= 0 on m nodes: G~ is a DAG <=> the minimisers of Eq. (8) "
                   "(one score vector per weak order) are exactly Lemma 16's set"
                   + (" [twin: a_i > a_j also for i > j]" if strict_back else "")),
        sizes=sizes,
        domain="every weak order alpha of m items (Eq. (8) depends on alpha only through it), all real a_ij >= 0",
    )


lemma16_all_weights = lemma16_all_weights_claim()


# --- Lemma 7's reduction over every real weight vector -------------------------------------


def lemma7_symbolic_cases(m: int, *, offset: Any = 0) -> list[Any]:
    """min over weak orders of Eq. (8) = min over edge sets E' leaving a DAG of sum_{E'} a_e, for
    every a >= 0, as one implication per weak order (some E' is as light) and one per E' (some
    weak order is as good); ``offset`` is added to every feedback arc set weight (a twin)."""
    pairs = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
    a = {e: asym(*e) for e in pairs}
    nonneg = [x >= 0 for x in a.values()]
    orders = weak_order_representatives(m)
    risk = {al: conditional_risk(a, al) for al in orders}
    arc_sets = [removed for k in range(len(pairs) + 1) for removed in itertools.combinations(pairs, k)
                if not has_cycle([e for e in pairs if e not in removed], m)]
    weight = {E: sum((a[e] for e in E), sympy.Integer(0)) + offset for E in arc_sets}
    cases = [(f"m={m}, alpha={al}", {"weights_nonnegative": nonneg},
              sympy.Or(*[weight[E] <= risk[al] for E in arc_sets])) for al in orders]
    cases += [(f"m={m}, E'={sorted(E)}", {"weights_nonnegative": nonneg},
               sympy.Or(*[risk[al] <= weight[E] for al in orders])) for E in arc_sets]
    return cases


def lemma7_all_weights_claim(id: str = "duchi2010.lemma7.all_weights", *, offset: Any = 0,
                             sizes: tuple[int, int] = (3, 3)) -> Any:
    return implies_cases(
        id, cases=lambda m: lemma7_symbolic_cases(m, offset=offset),
        cite=cite("Lemma 7, proof", "this is equivalent to finding an ordering of the nodes ... such that the sum of "
                                    "the back edges is less than k"),
        statement=("for every real weight vector a_ij >= 0 on m nodes: min over score vectors of l(p, a) (Eq. (8)) = "
                   "the minimum weight of an edge set whose removal leaves a DAG (the feedback arc set of the "
                   "reduction)" + (f" [twin: feedback arc sets offset by {offset}]" if offset else "")),
        sizes=sizes,
        domain=("every weak order of m items and every edge set E' of the complete digraph whose complement is "
                "acyclic (25 at m = 3); all real a_ij >= 0.  m = 4 (618 cases) is decided in about 6 s but its "
                "sympy construction takes about 20 s: --size 4"),
    )


lemma7_all_weights = lemma7_all_weights_claim()


CLAIMS = [
    dag_count_bound,
    dag_count_bound_large,
    definition8_dag,
    lemma14,
    lemma14_all_m,
    lemma14_converse,
    lemma14_case_both,
    lemma14_case_ij_only,
    lemma14_case_reverse,
    lemma14_case_tie,
    lemma14_case_tie_corrected,
    lemma14_per_node,
    lemma14_strict,
    lemma16,
    theorem13_eq15,
    theorem13_unique,
    theorem13_w_form,
    theorem13_iff,
    theorem13_iff_corrected,
    theorem13_neighbourhood,
    theorem13_strictly_convex_r,
    theorem13_strictly_convex_r_corrected,
    corollary15,
    corollary15_all_m,
    lemma10_eq12a,
    lemma10_eq12b,
    lemma10_g12_negative,
    lemma10_g23_negative,
    lemma10_bound1,
    lemma10_bound2,
    lemma10_sign1,
    lemma10_sign2,
    lemma10_cond1_form,
    lemma10_cond2_form,
    lemma10_cond1,
    lemma10_cond2,
    section2_2_minimisers,
    theorem11_low_noise,
    theorem11_low_noise_corrected,
    theorem11_cond1,
    theorem11_instance,
    *theorem11_numeric,
    theorem12_low_noise,
    theorem12_tight,
    theorem12_cond1,
    *theorem12_numeric,
    cossock_zhang,
    order_preserving_weights_c,
    w2_at_least_2,
    no_fixed_w2,
    lemma7,
    lemma7_reduction,
    regulariser_needed,
    lemma16_all_weights,
    lemma7_all_weights,
    *corollary15_whole,
    *theorem13_whole,
    theorem11_whole,
    theorem12_whole,
    theorem12_whole_paper_p,
]


# ---------------------------------------------------------------------------------------
# Negative twins (DESIGN.md, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with this module's own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says otherwise: "proved" (proved or confirmed on samples) for a
# claim the paper itself calls false -- the twin adds what makes it true; "unknown" for the
# twin of a numeric claim (a numeric check never refutes; it must not confirm).  The twin of an
# all-sizes claim (ALL_SIZE_TWINS) is the perturbed node claim: refuted per size, and not
# proved for all sizes by the local lemma.  Errata are their own twins.  `symcal selftest
# --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


_BY_ID = {c.id: c for c in CLAIMS}
NO_MINIMISER_OUTSIDE = {"h12": Fraction(1, 2), "h13": Fraction(2), "h23": Fraction(2), "h31": Fraction(1, 20)}
THEOREM12_COND1_FAILS = (Fraction(3, 10), Fraction(3, 10), Fraction(7, 20), Fraction(1, 20))  # COND 1 fails

TWINS: dict[str, Callable[[], Claim]] = {
    # a small kink (c = 1/2) added to the differentiable family breaks the corrected statement
    "duchi2010.theorem13.strictly_convex_r.corrected": lambda: theorem13_general_r_claim(
        twin_id("duchi2010.theorem13.strictly_convex_r.corrected"),
        ((Fraction(1), Fraction(0), Fraction(0)), (Fraction(1), Fraction(0), Fraction(1, 2))),
        statement="twin: a kinked r",
    ),
    "duchi2010.dag_count_bound": lambda: dag_count_claim(twin_id("duchi2010.dag_count_bound"), sizes=(1, 3),
                                                         base=Fraction(5, 2)),
    "duchi2010.dag_count_bound.large_m": lambda: dag_count_claim(
        twin_id("duchi2010.dag_count_bound.large_m"), sizes=(6, 7), base=Fraction(5, 2), enumerate_too=False
    ),
    "duchi2010.definition8.difference_graph_is_dag": lambda: low_noise_dag_claim(
        twin_id("duchi2010.definition8"), slack=1, sizes=(3, 3)
    ),
    "duchi2010.lemma14": lambda: lemma14_claim(twin_id("duchi2010.lemma14"), slack=1, sizes=(3, 4)),
    "duchi2010.lemma14.proof.case_both_edges": lambda: step(
        twin_id("duchi2010.lemma14.both"), case_both_edges(strict=True), "d_ij > d_kj + d_ik", "q"
    ),
    "duchi2010.lemma14.proof.case_edge_ij_only": lambda: step(
        twin_id("duchi2010.lemma14.ij_only"), case_edge_ij_only(extra=1), "d_kj + 1 < d_ij", "q"
    ),
    "duchi2010.lemma14.proof.case_reverse_edge": lambda: step(
        twin_id("duchi2010.lemma14.reverse"), case_reverse_edge(extra=-1), "d_ji + d_ik <= d_jk - 1", "q"
    ),
    "duchi2010.lemma14.proof.case_tie.corrected": lambda: step(
        twin_id("duchi2010.lemma14.tie"), case_tie_corrected(extra=Fraction(-1, 2)), "d_kj <= -1/2", "q"
    ),
    "duchi2010.lemma14.proof.per_node": lambda: step(
        twin_id("duchi2010.lemma14.per_node"), per_node(extra=Fraction(1, 2)), "d_ij >= d_kj + 1/2", "q"
    ),
    "duchi2010.lemma14.proof.strict": lambda: lemma14_strict_claim(twin_id("duchi2010.lemma14.strict"), extra=1),
    "duchi2010.lemma16": lambda: lemma16_claim(twin_id("duchi2010.lemma16"), strict_back=True),
    "duchi2010.theorem13.eq15": lambda: theorem13_gradient_claim(
        twin_id("duchi2010.theorem13.eq15"), factor=1, sizes=(3, 3)
    ),
    "duchi2010.theorem13.eq15.unique_minimum": lambda: theorem13_unique_claim(
        twin_id("duchi2010.theorem13.unique"), scale=2, sizes=(3, 3)
    ),
    "duchi2010.theorem13.w_form": lambda: theorem13_w_form_claim(
        twin_id("duchi2010.theorem13.w_form"), sign=-1, sizes=(3, 3)
    ),
    "duchi2010.theorem13.eq16_iff_alpha_star_in_a.corrected": lambda: theorem13_iff_claim(
        twin_id("duchi2010.theorem13.iff"), strict=True, slack=1, sizes=(3, 3)
    ),
    "duchi2010.theorem13.neighbourhood": lambda: theorem13_neighbourhood_claim(
        twin_id("duchi2010.theorem13.neighbourhood"), half=1, sizes=(3, 3)
    ),
    "duchi2010.corollary15": lambda: corollary15_claim(twin_id("duchi2010.corollary15"), slack=1, sizes=(3, 4)),
    "duchi2010.lemma10.eq12a": lambda: eq12a_claim(twin_id("duchi2010.lemma10.eq12a"), extra=1),
    "duchi2010.lemma10.eq12b": lambda: eq12b_claim(twin_id("duchi2010.lemma10.eq12b"), extra=1),
    "duchi2010.lemma10.proof.g12_negative": lambda: g12_negative_claim(
        twin_id("duchi2010.lemma10.g12"), drop="g31_negative"
    ),
    "duchi2010.lemma10.proof.g23_negative": lambda: g23_negative_claim(
        twin_id("duchi2010.lemma10.g23"), drop="g31_negative"
    ),
    "duchi2010.lemma10.proof.bound_cond1": lambda: bound1_claim(twin_id("duchi2010.lemma10.bound1"), extra=-1),
    "duchi2010.lemma10.proof.bound_cond2": lambda: bound2_claim(twin_id("duchi2010.lemma10.bound2"), extra=-1),
    "duchi2010.lemma10.proof.sign_cond1": lambda: sign1_claim(twin_id("duchi2010.lemma10.sign1"), slack=1),
    "duchi2010.lemma10.proof.sign_cond2": lambda: sign2_claim(twin_id("duchi2010.lemma10.sign2"), slack=1),
    "duchi2010.lemma10.proof.cond1_form": lambda: cond_form_claim(twin_id("duchi2010.lemma10.cond1_form"), 1, slack=1),
    "duchi2010.lemma10.proof.cond2_form": lambda: cond_form_claim(twin_id("duchi2010.lemma10.cond2_form"), 2, slack=1),
    "duchi2010.lemma10.cond1": lambda: contradiction_claim(twin_id("duchi2010.lemma10.cond1"), 1, drop="cond1"),
    "duchi2010.lemma10.cond2": lambda: contradiction_claim(twin_id("duchi2010.lemma10.cond2"), 2, drop="cond2"),
    "duchi2010.section2_2.minimisers_ordered": lambda: ordered_minimisers_claim(
        twin_id("duchi2010.section2_2"), drop="a23_positive"
    ),
    "duchi2010.theorem11.low_noise.corrected": lambda: theorem11_low_noise_claim(
        twin_id("duchi2010.theorem11.low_noise"), a31_bound=True, a31_slack=Fraction(1, 10)
    ),
    "duchi2010.theorem11.cond1": lambda: theorem11_cond1_claim(twin_id("duchi2010.theorem11.cond1"), eps_factor=4),
    "duchi2010.theorem11.instance": lambda: theorem11_instance_claim(
        twin_id("duchi2010.theorem11.instance"), {**THEOREM11_INSTANCE, "a31_G2": Fraction(3)}
    ),
    "duchi2010.theorem12.low_noise": lambda: theorem12_low_noise_claim(
        twin_id("duchi2010.theorem12.low_noise"), (Fraction(1, 4), Fraction(1, 100), Fraction(49, 100), Fraction(1, 4))
    ),
    "duchi2010.theorem12.low_noise_tight": lambda: theorem12_tight_claim(
        twin_id("duchi2010.theorem12.tight"), (Fraction(1, 4), Fraction(1, 100), Fraction(49, 100), Fraction(1, 4))
    ),
    "duchi2010.theorem12.cond1": lambda: theorem12_cond1_claim(
        twin_id("duchi2010.theorem12.cond1"), (Fraction(1, 4), Fraction(1, 10), Fraction(1, 2), Fraction(3, 20))
    ),
    "duchi2010.section3_1.cossock_zhang": lambda: cossock_zhang_claim(
        twin_id("duchi2010.section3_1.cossock_zhang"), shift=Fraction(-1, 10), sizes=(3, 3)
    ),
    "duchi2010.section3_1.order_preserving.weights": lambda: order_preserving_weights_claim(
        twin_id("duchi2010.section3_1.weights"), printed=(P_PI - P_HAT, W2 * P_PI - P_HAT, P_PI + P_HAT)
    ),
    "duchi2010.section3_1.order_preserving.w2_at_least_2": lambda: w2_at_least_2_claim(
        twin_id("duchi2010.section3_1.w2"), bound=2 + sympy.Rational(1, 10)
    ),
    "duchi2010.section3_1.order_preserving.no_fixed_w2": lambda: no_fixed_w2_claim(
        twin_id("duchi2010.section3_1.no_fixed_w2"), upper=sympy.Rational(2, 3) + sympy.Rational(1, 10)
    ),
    "duchi2010.lemma7.min_risk_is_feedback_arc_set": lambda: lemma7_claim(twin_id("duchi2010.lemma7"),
                                                                          offset=Fraction(1, 7)),
    "duchi2010.lemma7.reduction": lambda: lemma7_reduction_claim(twin_id("duchi2010.lemma7.reduction"),
                                                                 weight_offset=1),
    "duchi2010.section3.regulariser_needed": lambda: regulariser_claim(
        twin_id("duchi2010.section3.regulariser"), nu=sympy.Rational(1, 2)
    ),
    # Lemma 16 with a_i > a_j demanded for back edges too; Lemma 7 with every arc set offset by 1/7
    "duchi2010.lemma16.all_weights": lambda: lemma16_all_weights_claim(
        twin_id("duchi2010.lemma16.all_weights"), strict_back=True, sizes=(3, 3)
    ),
    "duchi2010.lemma7.all_weights": lambda: lemma7_all_weights_claim(
        twin_id("duchi2010.lemma7.all_weights"), offset=Fraction(1, 7)
    ),
    # edge-consistency over every p with a DAG difference graph: low noise, resp. (16), dropped
    **{
        f"duchi2010.corollary15.calibration.low_noise.m{m}": (
            lambda m=m: corollary15_whole_claim(
                twin_id(f"duchi2010.corollary15.calibration.low_noise.m{m}"), m, noise="dag"
            )
        )
        for m in (3, 4)
    },
    **{
        f"duchi2010.theorem13.calibration.dag_and_eq16.m{m}": (
            lambda m=m: theorem13_whole_claim(
                twin_id(f"duchi2010.theorem13.calibration.dag_and_eq16.m{m}"), m, noise="dag"
            )
        )
        for m in (3, 4)
    },
    # all-size claims: the local lemma never refutes, so the twin is the perturbed node claim
    "duchi2010.lemma14.all_m": lambda: lemma14_claim(twin_id("duchi2010.lemma14.all_m"), slack=1, sizes=(3, 4)),
    "duchi2010.corollary15.all_m": lambda: corollary15_claim(
        twin_id("duchi2010.corollary15.all_m"), slack=1, sizes=(3, 4)
    ),
    # claims the paper itself says are false: the twin adds a hypothesis that makes them true
    "duchi2010.lemma14.converse": lambda: lemma14_converse_claim(
        twin_id("duchi2010.lemma14.converse"), with_low_noise=True, sizes=(3, 4)
    ),
    # the margin/pairwise hinge replaced by the value-regularised linear loss (14): edge-consistent
    # on the same graphs and the same low-noise distributions
    "duchi2010.theorem11.calibration.hinge": lambda: theorem11_whole_claim(
        twin_id("duchi2010.theorem11.calibration.hinge"), linear=True
    ),
    "duchi2010.theorem12.calibration.margin_hinge": lambda: theorem12_whole_claim(
        twin_id("duchi2010.theorem12.calibration.margin_hinge"), linear=True
    ),
    "duchi2010.theorem12.calibration.margin_hinge.paper_p": lambda: theorem12_whole_claim(
        twin_id("duchi2010.theorem12.calibration.margin_hinge.paper_p"), linear=True, paper_p=True
    ),
    # numeric claims: an instance where the condition that puts the minimiser outside A fails
    **{
        f"duchi2010.theorem11.minimiser_outside_a.{n}": (
            lambda n=n: minimiser_claim(
                twin_id(f"duchi2010.theorem11.numeric.{n}"),
                n,
                NO_MINIMISER_OUTSIDE,
                0.0,
                _BY_ID["duchi2010.theorem11.instance"].citation,
                "an instance where COND 1 fails",
            )
        )
        for n in PHIS
    },
    **{
        f"duchi2010.theorem12.minimiser_outside_a.{n}": (
            lambda n=n: minimiser_claim(
                twin_id(f"duchi2010.theorem12.numeric.{n}"),
                n,
                theorem12_h(THEOREM12_COND1_FAILS),
                1.0,
                _BY_ID["duchi2010.theorem12.cond1"].citation,
                "p = (.3, .3, .35, .05)",
            )
        )
        for n in PHIS
    },
}

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {
    "duchi2010.lemma14.converse": "proved",
    "duchi2010.theorem11.calibration.hinge": "proved",
    "duchi2010.theorem12.calibration.margin_hinge": "proved",
    "duchi2010.theorem12.calibration.margin_hinge.paper_p": "proved",
    **{f"duchi2010.theorem1{t}.minimiser_outside_a.{n}": "unknown" for t in (1, 2) for n in PHIS},
}

# twins of all-size claims: refuted per size, and all_sizes(twin) must not be proved
ALL_SIZE_TWINS: tuple[str, ...] = ("duchi2010.lemma14.all_m", "duchi2010.corollary15.all_m")
