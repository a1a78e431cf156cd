"""Appendix A (Auxiliary proofs): Lemma 7's reduction to the feedback arc set problem (on
seeded instances, and for every real weight vector at m = 3), steps of the proofs of Lemmas 3, 4
and 9 (errata: a dropped weight, a strict inequality, a minimising sequence taken inside A(p) and
a misquoted Assumption A), the shift invariance in Lemma 9's proof, and Lemma 16 (exhaustively
on a grid, for every real weight vector at m = 3, 4, and the first steps of its proof)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies, implies_cases
from symcal.claims.core import Claim

from .common import (
    Weights,
    acyclic,
    alpha,
    cite,
    conditional_risk,
    difference_edges,
    expected_weights,
    has_cycle,
    ind,
    min_conditional_risk,
    pairs,
    risk_eq8,
    symbolic_weights,
    twin_id,
    weak_order_representatives,
    weak_orders,
    weights_diff,
)
from .section2_2 import PHI, eq10_w, h12, h13, h23, h31, squared_hinge_polynomial, theorem11_h, x1, x2, x3

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}


# ---------------------------------------------------------------------------------------
# Lemma 7: min l(p, a) is a minimum weighted feedback arc set
# ---------------------------------------------------------------------------------------


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
            a = {e: rng.choice(weights) for e in pairs(m) if rng.random() < density}
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


LEMMA7_QUOTE = (
    "this is equivalent to finding an ordering of the nodes ... such that the sum of the back edges is less than k"
)


def lemma7_claim(
    id: str = "duchi2010.lemma7.min_risk_is_feedback_arc_set", *, offset: Fraction = Fraction(0)
) -> Claim:
    """Lemma 7, proof: "this is equivalent to finding an ordering of the nodes ... such that the sum of the back
    edges is less than k", on seeded digraphs.  ``offset`` shifts the feedback arc set weight (the twin)."""
    return finite_check(
        id,
        cases=lambda m: random_weighted_graphs(),
        holds=lambda c: lemma7_holds(c, offset=offset),
        describe=describe_graph,
        sample='seeded random digraphs',
        domain=(
            "18 seeded random weighted digraphs (seed 2010; m = 3, 4, 5; at most 12 edges; weights in {1/2, 1, 2, 3})"
        ),
        cite=cite("Lemma 7, proof", LEMMA7_QUOTE),
        statement=(
            "min over a of l(p, a) (Eq. (8), all weak orders) = minimum weighted feedback arc set "
            "(brute force = MILP = symcal.ranking)"
        ),
    )


lemma7 = lemma7_claim()
TWINS[lemma7.id] = lambda: lemma7_claim(twin_id("duchi2010.lemma7"), offset=Fraction(1, 7))


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


def lemma7_reduction_claim(id: str = "duchi2010.lemma7.reduction", *, weight_offset: int = 0) -> Claim:
    """Lemma 7, proof: "set p_ij = 1/|E| and let the i_j-th graph ... be simply the edge (i -> j) with weight
    a_ij = |E|".  ``weight_offset`` 1 gives each graph the weight |E| + 1 (the twin)."""
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
TWINS[lemma7_reduction.id] = lambda: lemma7_reduction_claim(twin_id(lemma7_reduction.id), weight_offset=1)


def lemma7_symbolic_cases(m: int, *, offset: Any = 0) -> list[Any]:
    """min over weak orders of Eq. (8) = min over edge sets E' leaving a DAG of sum_{E'} a_e, for
    every a >= 0, as one implication per weak order (some E' is as light) and one per E' (some
    weak order is as good); ``offset`` is added to every feedback arc set weight (a twin)."""
    a = symbolic_weights(m)
    nonneg = [x >= 0 for x in a.values()]
    orders = weak_order_representatives(m)
    risk = {al: conditional_risk(a, al) for al in orders}
    arc_sets = [removed for k in range(len(a) + 1) for removed in itertools.combinations(pairs(m), k)
                if not has_cycle([e for e in pairs(m) if e not in removed], m)]
    weight = {E: sum((a[e] for e in E), sympy.Integer(0)) + offset for E in arc_sets}
    cases = [(f"m={m}, alpha={al}", {"weights_nonnegative": nonneg},
              sympy.Or(*[weight[E] <= risk[al] for E in arc_sets])) for al in orders]
    cases += [(f"m={m}, E'={sorted(E)}", {"weights_nonnegative": nonneg},
               sympy.Or(*[risk[al] <= weight[E] for al in orders])) for E in arc_sets]
    return cases


def lemma7_all_weights_claim(id: str = "duchi2010.lemma7.all_weights", *, offset: Any = 0,
                             sizes: tuple[int, int] = (3, 3)) -> Claim:
    """Lemma 7, proof: "this is equivalent to finding an ordering of the nodes ... such that the sum of the back
    edges is less than k", for every real weight vector.  ``offset`` 1/7 shifts every arc set (the twin)."""
    return implies_cases(
        id, cases=lambda m: lemma7_symbolic_cases(m, offset=offset),
        cite=cite("Lemma 7, proof", LEMMA7_QUOTE),
        statement=("for every real weight vector a_ij >= 0 on m nodes: min over score vectors of l(p, a) (Eq. (8)) = "
                   "the minimum weight of an edge set whose removal leaves a DAG (the feedback arc set of the "
                   "reduction)" + (f" [twin: feedback arc sets offset by {offset}]" if offset else "")),
        sizes=sizes,
        domain=("every weak order of m items and every edge set E' of the complete digraph whose complement is "
                "acyclic (25 at m = 3); all real a_ij >= 0.  m = 4 (618 cases) is decided in about 6 s but its "
                "sympy construction takes about 20 s: --size 4"),
    )


lemma7_all_weights = lemma7_all_weights_claim()
TWINS[lemma7_all_weights.id] = lambda: lemma7_all_weights_claim(twin_id(lemma7_all_weights.id), offset=Fraction(1, 7))


# ---------------------------------------------------------------------------------------
# Lemma 3's proof: "sum_G p_G^(n) phi(a, G) -> sum_G phi(a, G)"
# ---------------------------------------------------------------------------------------

N_SEQ = sympy.Symbol("n", positive=True)
LEMMA3_QUOTE = ("Since sum_G p_G^(n) phi(alpha, G) -> sum_G phi(alpha, G) uniformly in alpha in B_r "
                "(we have equicontinuity)")


def lemma3_limit_claim(id: str, *, weighted: bool, finding: Finding | None = None) -> Claim:
    """Lemma 3, proof: the limit of sum_G p_G^(n) phi(a, G) as p^(n) -> p, on G = {G1 = {1 -> 2}, G2 = {2 -> 1}},
    phi(a, G) = phi(a_i - a_j) for the edge i -> j of G (Eq. (9), h = 1), p^(n) = (1/2 + 1/n, 1/2 - 1/n) -> (1/2, 1/2):
    the printed limit sum_G phi(a, G), or (``weighted``) sum_G p_G phi(a, G).  ``phi`` is an undefined function."""
    terms = (PHI(x1 - x2), PHI(x2 - x1))
    p_n = (sympy.Rational(1, 2) + 1 / N_SEQ, sympy.Rational(1, 2) - 1 / N_SEQ)
    p = (sympy.Rational(1, 2), sympy.Rational(1, 2))
    limit = sympy.limit(sum(q * t for q, t in zip(p_n, terms, strict=True)), N_SEQ, sympy.oo)
    target = sum(q * t for q, t in zip(p, terms, strict=True)) if weighted else sum(terms)
    return identity(
        id, limit, target,
        cite=cite("Appendix A, proof of Lemma 3", LEMMA3_QUOTE + (" [corrected: -> sum_G p_G phi(alpha, G)]"
                                                                   if weighted else "")),
        statement=("G1 = {1 -> 2}, G2 = {2 -> 1}, phi(a, G) = phi(a_i - a_j) for every phi, p^(n) = (1/2 + 1/n, "
                   "1/2 - 1/n) -> p = (1/2, 1/2): lim_n sum_G p_G^(n) phi(a, G) = "
                   + ("sum_G p_G phi(a, G)" if weighted else "sum_G phi(a, G)")),
        finding=finding,
    )


lemma3_limit = lemma3_limit_claim(
    "duchi2010.lemma3.proof.limit", weighted=False,
    finding=Finding(
        what=(
            "Lemma 3's proof writes sum_G p_G^(n) phi(alpha, G) -> sum_G phi(alpha, G) as p^(n) -> p; the limit is "
            "sum_G p_G phi(alpha, G) = W(p, alpha) (the weights p_G are dropped), which is what the next display "
            "uses. (The same paragraph takes B_r in R^|G| where the scores alpha live in R^m.)"
        ),
        counterexample=(
            "G1 = {1 -> 2}, G2 = {2 -> 1}, p^(n) = (1/2 + 1/n, 1/2 - 1/n) -> (1/2, 1/2): the limit is "
            "(phi(a1 - a2) + phi(a2 - a1))/2, not phi(a1 - a2) + phi(a2 - a1) (e.g. 1 vs 2 for phi = 1)."
        ),
        corrected="duchi2010.lemma3.proof.limit.corrected",
        finding_class="clarification",
    ),
)
lemma3_limit_corrected = lemma3_limit_claim(lemma3_limit.finding.corrected, weighted=True)
TWINS[lemma3_limit_corrected.id] = lambda: identity(
    twin_id(lemma3_limit_corrected.id),
    sympy.limit((sympy.Rational(1, 2) + 1 / N_SEQ) * PHI(x1 - x2) + (sympy.Rational(1, 2) - 1 / N_SEQ) * PHI(x2 - x1),
                N_SEQ, sympy.oo),
    sympy.Rational(2, 3) * PHI(x1 - x2) + sympy.Rational(1, 3) * PHI(x2 - x1),
    cite=lemma3_limit_corrected.citation,
    statement="[twin] the same limit against p = (2/3, 1/3)",
)


# ---------------------------------------------------------------------------------------
# Lemma 4's proof: "W(p, a^(n_j)) > inf{W(p, a) : a not in A(p)} > W*(p)"
# ---------------------------------------------------------------------------------------

Y1, Y2 = sympy.symbols("y1 y2", real=True)  # the scores of a two-node instance
LEMMA4_QUOTE = "W(p, alpha^(n_j)) > inf_alpha {W(p, alpha) : alpha not in A(p)} > W*(p)."
# one edge 1 -> 2 of weight 1 (p = 1); the linear loss (14) with r(a) = a^2, nu = 1/2 (edge-consistent: Theorem 13)
LEMMA4_W = (Y2 - Y1) + sympy.Rational(1, 2) * (Y1**2 + Y2**2)
LEMMA4_INF_OUTSIDE = 0  # inf over {y1 <= y2} of W, attained at (0, 0); W* = -1 at (1, -1)


def lemma4_claim(id: str, *, strict: bool, bound: Any = LEMMA4_INF_OUTSIDE, finding: Finding | None = None) -> Claim:
    """Lemma 4, proof: every a^(n_j) outside A(p) has W(p, a^(n_j)) > inf{W : a not in A(p)} (``strict``, as printed)
    or >= it (corrected), on an edge-consistent instance: G = {1 -> 2} with a_12 = 1, the linear loss (14) with
    r(a) = a^2 and nu = 1/2, so A(p) = {y1 > y2}, inf{W : y1 <= y2} = 0 (attained at (0, 0)) and W* = -1.
    ``bound`` above 0 asks W >= bound outside A(p) (the twin)."""
    b = sympy.nsimplify(bound)
    return implies(
        id,
        hypotheses={"outside_A": [Y1 <= Y2]},
        conclusion=LEMMA4_W > b if strict else LEMMA4_W >= b,
        cite=cite("Appendix A, proof of Lemma 4", LEMMA4_QUOTE + ("" if strict else " [corrected: the first > is >=]")),
        statement=("G = {1 -> 2}, a_12 = 1, phi(a, G) = (a2 - a1) + (a1^2 + a2^2)/2 (Eq. (14), r = a^2, nu = 1/2; "
                   "edge-consistent), A(p) = {a1 > a2}, inf{W : a not in A(p)} = 0 at (0, 0): every a not in A(p) "
                   f"has W(p, a) {'>' if strict else '>='} {b}"),
        finding=finding,
    )


lemma4_strict = lemma4_claim(
    "duchi2010.lemma4.proof.strict", strict=True,
    finding=Finding(
        what=(
            "Lemma 4's proof writes W(p, alpha^(n_j)) > inf{W(p, alpha) : alpha not in A(p)} for the terms "
            "alpha^(n_j) outside A(p); a point outside A(p) can attain that infimum, so only >= holds. The "
            "argument needs only the second, strict, inequality (inf{W : alpha not in A(p)} > W*(p), Definition "
            "2): the lemma is unaffected."
        ),
        counterexample=(
            "G = {1 -> 2}, a_12 = 1, p = 1, phi = the linear loss (14) with r(a) = a^2, nu = 1/2 (edge-consistent): "
            "alpha = (0, 0) is not in A(p) = {a1 > a2} and W(p, alpha) = 0 = inf{W : alpha not in A(p)} > W* = -1."
        ),
        corrected="duchi2010.lemma4.proof.strict.corrected",
        finding_class="proof",
    ),
)
lemma4_corrected = lemma4_claim(lemma4_strict.finding.corrected, strict=False)
TWINS[lemma4_corrected.id] = lambda: lemma4_claim(twin_id(lemma4_corrected.id), strict=False, bound=Fraction(1, 100))


# ---------------------------------------------------------------------------------------
# Lemma 9's proof: W of Eq. (10) is shift invariant
# ---------------------------------------------------------------------------------------

T = sympy.Symbol("t", real=True)


def shift_invariance_claim(id: str = "duchi2010.lemma9.proof.shift_invariance", *, phi: Any = PHI,
                           shift: tuple[int, int, int] = (1, 1, 1)) -> Claim:
    """Lemma 9, proof: "W(p, a) is shift invariant with respect to a, so without loss of generality we can let
    a_3^(n) = 0".  ``shift`` (1, 0, 0) moves a1 alone, at phi(x) = (1 - x)^2 (the twin)."""
    moved = (x1 + shift[0] * T, x2 + shift[1] * T, x3 + shift[2] * T)
    return identity(
        id, eq10_w(phi, moved), eq10_w(phi),
        cite=cite("Lemma 9, proof", "W(p, a) is shift invariant with respect to a, so without loss of generality we "
                                    "can let a_3^(n) = 0"),
        statement=("for every phi (an undefined function) and real h, t: W(p, a + t (1, 1, 1)) = W(p, a) for W of "
                   "Eq. (10), so a3 = 0 may be assumed (t = -a3)"
                   + ("" if shift == (1, 1, 1) else f" [twin: a + t {shift}, at phi(x) = (1 - x)^2]")),
    )


shift_invariance = shift_invariance_claim()
TWINS[shift_invariance.id] = lambda: shift_invariance_claim(twin_id(shift_invariance.id), phi=squared_hinge_polynomial,
                                                            shift=(1, 0, 0))


# ---------------------------------------------------------------------------------------
# Lemma 9's proof: the minimising sequence is taken inside A(p)
# ---------------------------------------------------------------------------------------

D12, D23 = sympy.symbols("d12 d23", real=True)  # a1 - a2, a2 - a3 (a3 = 0 by shift invariance)
# Theorem 11's corrected instance (a12^G1 = 1, a13^G1 = 4, a31^G2 = 1, a23^G2 = 1/10, h(x) = x): COND 1 holds
LEMMA9_H = theorem11_h()
LEMMA9_INF_OVER_A = Fraction(103, 60)  # inf of W over cl A(p), attained at (d12, d23) = (2/3, 0)
LEMMA9_MIN = Fraction(27, 16)  # min of W, attained only at (d12, d23) = (7/8, -1/4): a2 < a3, outside cl A(p)
LEMMA9_QUOTE = ("Let (alpha^(n)) be a sequence with alpha^(n) in A(p) = {alpha : alpha_1 > alpha_2 > alpha_3} such "
                "that W(p, alpha^(n)) -> W*(p).")


def lemma9_w(d12: Any = D12, d23: Any = D23) -> Any:
    """W of Eq. (10) at Theorem 11's corrected instance with the squared hinge phi(x) = max(0, 1 - x)^2 (convex,
    non-increasing, phi'(0) = -2 < 0, bounded below: Assumption A), in (d12, d23) with a3 = 0."""
    h = {k: sympy.Rational(v.numerator, v.denominator) for k, v in LEMMA9_H.items()}

    def phi(x: Any) -> Any:
        return sympy.Max(0, 1 - x) ** 2

    return h["h12"] * phi(d12) + h["h13"] * phi(d12 + d23) + h["h23"] * phi(d23) + h["h31"] * phi(-d12 - d23)


def lemma9_bound_claim(id: str, *, bound: Any, closure: bool, finding: Finding | None = None,
                       quote: str = LEMMA9_QUOTE, statement: str = "") -> Claim:
    """W(d12, d23) >= ``bound`` for every (d12, d23), or only over cl A(p) = {d12 >= 0, d23 >= 0} (``closure``)."""
    b = sympy.Rational(Fraction(bound).numerator, Fraction(bound).denominator)
    return implies(
        id,
        hypotheses={"closure_of_A": [D12 >= 0, D23 >= 0]} if closure else None,
        conclusion=lemma9_w() >= b,
        cite=cite("Appendix A, proof of Lemma 9", quote),
        statement=statement,
        finding=finding,
    )


INSTANCE_TEXT = ("W of Eq. (10) at h12 = 1/2, h13 = 2, h23 = 1/20, h31 = 1/2 (Theorem 11's corrected instance, "
                 "COND 1 holds), phi(x) = max(0, 1 - x)^2, a3 = 0, d12 = a1 - a2, d23 = a2 - a3")

lemma9_inf_over_a = lemma9_bound_claim(
    "duchi2010.lemma9.proof.inf_over_a", bound=LEMMA9_INF_OVER_A, closure=True,
    statement=f"{INSTANCE_TEXT}: W >= 103/60 on cl A(p) = {{d12 >= 0, d23 >= 0}} (attained at (2/3, 0)), so "
              "inf over A(p) of W = 103/60",
)
TWINS[lemma9_inf_over_a.id] = lambda: lemma9_bound_claim(
    twin_id(lemma9_inf_over_a.id), bound=LEMMA9_INF_OVER_A + Fraction(1, 100), closure=True,
    statement=f"[twin] {INSTANCE_TEXT}: W >= 103/60 + 1/100 on cl A(p)",
)

lemma9_sequence_in_a = lemma9_bound_claim(
    "duchi2010.lemma9.proof.sequence_in_a", bound=LEMMA9_INF_OVER_A, closure=False,
    statement=f"{INSTANCE_TEXT}: a sequence in A(p) with W -> W*(p) exists, i.e. W*(p) = inf over A(p) of W = 103/60 "
              "(duchi2010.lemma9.proof.inf_over_a), i.e. W >= 103/60 for every (d12, d23)",
    finding=Finding(
        what=(
            "Lemma 9's proof starts from a sequence alpha^(n) in A(p) = {a1 > a2 > a3} with W(p, alpha^(n)) -> "
            "W*(p). Such a sequence exists only if W*(p) = inf over A(p) of W, which is exactly what fails where "
            "Lemma 9 is used: under COND 1, Lemma 10 (and the paper's point) is that W* is approached only outside "
            "A(p). The bound on the minimiser must be argued for a minimising sequence in all of R^3 (W of Eq. (10) "
            "grows along every direction that changes the order, since h12, h23, h13, h31 > 0 and the graph "
            "1 -> 2 -> 3 -> 1 is a cycle); the lemma's conclusion stands."
        ),
        counterexample=(
            "Theorem 11's corrected instance (h12 = 1/2, h13 = 2, h23 = 1/20, h31 = 1/2, COND 1 holds) with "
            "phi(x) = max(0, 1 - x)^2: inf over A(p) of W = 103/60 (at d12 = 2/3, d23 = 0 on its boundary), but "
            "W(7/8, -1/4) = 27/16 < 103/60, so no sequence in A(p) has W -> W*(p) = 27/16."
        ),
        corrected="duchi2010.lemma9.proof.sequence_in_a.corrected",
        finding_class="proof",
    ),
)
lemma9_sequence_corrected = lemma9_bound_claim(
    lemma9_sequence_in_a.finding.corrected, bound=LEMMA9_MIN, closure=False,
    quote=LEMMA9_QUOTE + " [corrected: a minimising sequence in R^3, not in A(p)]",
    statement=f"{INSTANCE_TEXT}: W >= 27/16 = W(7/8, -1/4) for every (d12, d23): W* = 27/16 is attained by a bounded "
              "alpha* = (5/8, -1/4, 0) (Lemma 9's conclusion), which lies outside cl A(p) (a2 < a3)",
)
TWINS[lemma9_sequence_corrected.id] = lambda: lemma9_bound_claim(
    twin_id(lemma9_sequence_corrected.id), bound=LEMMA9_MIN + Fraction(1, 100), closure=False,
    statement=f"[twin] {INSTANCE_TEXT}: W >= 27/16 + 1/100 for every (d12, d23)",
)


# Lemma 9's proof restates Assumption A as "phi'_oo(1) = 0 or phi'_oo(-1) = -oo"
RP, RM, G0, S = sympy.symbols("r_plus r_minus g0 s", real=True)  # phi'_oo(1), phi'_oo(-1) (finite), phi'(0), ray
LEMMA9_ASSUMPTION_QUOTE = ("The assumption that phi'_oo(1) = 0 or phi'_oo(-1) = -oo then implies that "
                           "limsup_n W(p, alpha^(n)) = oo.")
RECESSION_FACTS = [G0 < 0, RM >= -G0]  # convex phi with phi'(0) < 0: phi'_oo(-1) >= -phi'(0) > 0


def lemma9_assumption_claim(id: str, *, conclusion: str, assumption_a: bool = True,
                            finding: Finding | None = None) -> Claim:
    """Lemma 9, proof: what Assumption A (Section 2.2: phi'_oo(1) >= 0 or phi'_oo(-1) = oo) gives, in the
    finite-slope case (r_plus = phi'_oo(1), r_minus = phi'_oo(-1) real).  ``conclusion`` "printed": the proof's
    restatement r_plus = 0 (its other disjunct, r_minus = -oo, never holds for a convex phi with phi'(0) < 0);
    "growth": W of Eq. (10) has a positive slope along every ray (d12, d23) = (s t, (1 - s) t) of cl A(p), so
    limsup W = oo as a1 - a3 -> oo.  ``assumption_a`` False drops r_plus >= 0 (the twin)."""
    hyps: dict[str, Any] = {"convex_phi": RECESSION_FACTS}
    if assumption_a:
        hyps["assumption_a"] = [RP >= 0]
    if conclusion == "printed":
        concl = sympy.And(RP >= 0, RP <= 0)
        text = "r_plus >= 0 (Assumption A) => r_plus = 0 (the proof's restatement)"
    else:
        hyps["weights"] = [h12 > 0, h13 > 0, h23 > 0, h31 > 0]
        hyps["ray_in_closure_of_A"] = [S >= 0, S <= 1]
        concl = h12 * S * RP + h23 * (1 - S) * RP + h13 * RP + h31 * RM > 0
        text = ("r_plus >= 0 (Assumption A) => the slope h12 s r_plus + h23 (1 - s) r_plus + h13 r_plus + h31 r_minus "
                "of W along the ray (d12, d23) = (s t, (1 - s) t), 0 <= s <= 1, is > 0")
        if not assumption_a:
            text = "[twin: without Assumption A] " + text.split(" => ", 1)[1]
    return implies(
        id,
        hypotheses=hyps,
        conclusion=concl,
        cite=cite("Appendix A, proof of Lemma 9", LEMMA9_ASSUMPTION_QUOTE
                  + (" [corrected: Assumption A as stated in Section 2.2]" if conclusion != "printed" else "")),
        statement="for every convex phi with phi'(0) = g0 < 0 and finite recession slopes r_plus = phi'_oo(1), "
                  "r_minus = phi'_oo(-1) >= -g0: " + text,
        finding=finding,
    )


lemma9_assumption = lemma9_assumption_claim(
    "duchi2010.lemma9.proof.assumption_a", conclusion="printed",
    finding=Finding(
        what=(
            "Lemma 9's proof quotes Assumption A as 'phi'_oo(1) = 0 or phi'_oo(-1) = -oo', but Section 2.2 states "
            "it as 'phi'_oo(1) >= 0 or phi'_oo(-1) = oo'. The second disjunct has the wrong sign: for a convex phi "
            "with phi'(0) < 0, phi'_oo(-1) >= -phi'(0) > 0, so it never holds; and the first is narrower than "
            "Assumption A for a convex phi that is not monotone (Theorems 11 and 12 assume only 'phi convex and "
            "satisfying Assumption A'). For the non-increasing phi of Eq. (9) the two agree (phi'_oo(1) <= 0 there), "
            "and the step 'limsup W = oo' holds under Assumption A as stated."
        ),
        counterexample=(
            "phi(x) = |1 - x| (or (1 - x)^2): convex, phi'(0) < 0, phi'_oo(1) = 1 >= 0 (Assumption A holds), "
            "phi'_oo(-1) = 1: neither phi'_oo(1) = 0 nor phi'_oo(-1) = -oo."
        ),
        corrected="duchi2010.lemma9.proof.assumption_a.corrected",
        finding_class="clarification",
    ),
)
lemma9_assumption_corrected = lemma9_assumption_claim(lemma9_assumption.finding.corrected, conclusion="growth")
TWINS[lemma9_assumption_corrected.id] = lambda: lemma9_assumption_claim(
    twin_id(lemma9_assumption_corrected.id), conclusion="growth", assumption_a=False)


# ---------------------------------------------------------------------------------------
# Lemma 16: G~ is a DAG iff A(p) is the described set
# ---------------------------------------------------------------------------------------

LEMMA16_QUOTE = ("G~ is a DAG if and only if A(p) = {a : a_i > a_j for i < j with a_ij > a_ji, "
                 "a_i >= a_j for i > j with a_ij > a_ji}")


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


def lemma16_cases(values: tuple[int, ...] = (0, 1, 2), m: int = 3) -> list[Weights]:
    grid = itertools.product(values, repeat=len(pairs(m)))
    return [{e: Fraction(w) for e, w in zip(pairs(m), ws, strict=True) if w} for ws in grid]


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
) -> Claim:
    """Lemma 16: "G~ is a DAG if and only if A(p) = {a : a_i > a_j for i < j with a_ij > a_ji, a_i >= a_j for
    i > j with a_ij > a_ji}", on a grid of weights.  ``strict_back`` asks a_i > a_j for i > j too (the twin)."""
    return finite_check(
        id,
        cases=lambda m: lemma16_cases(values),
        holds=lambda a: lemma16_holds(a, strict_back=strict_back),
        describe=lambda a: {f"a[{i},{j}]": w for (i, j), w in sorted(a.items())} or {"a": "all zero"},
        sample='a grid: weights in a small set, of a statement for all real weights',
        domain=f"all weights a_ij in {set(values)} on 3 nodes ({len(values) ** 6} cases) x all 27 score "
        f"vectors in {{0,1,2}}^3 (every weak order)",
        cite=cite("Lemma 16", LEMMA16_QUOTE),
        statement="G~ is a DAG <=> the minimisers of Eq. (8) are exactly Lemma 16's set (m = 3)",
    )


lemma16 = lemma16_claim()
TWINS[lemma16.id] = lambda: lemma16_claim(twin_id(lemma16.id), strict_back=True)


def lemma16_symbolic_cases(m: int, *, strict_back: bool = False) -> list[Any]:
    """One implication per weak order alpha: for every a >= 0 with a DAG difference graph,
    alpha minimises Eq. (8) <=> alpha is in Lemma 16's set; and one for the converse: a cyclic
    difference graph makes the two sets differ at some alpha."""
    a = symbolic_weights(m)
    nonneg = [x >= 0 for x in a.values()]
    dd = weights_diff(a)
    orders = weak_order_representatives(m)
    risk = {al: conditional_risk(a, al) for al in orders}

    def optimal(al: tuple[int, ...]) -> Any:
        return sympy.And(*[risk[al] <= risk[be] for be in orders if be != al])

    def described(al: tuple[int, ...]) -> Any:
        conds = []
        for i, j in pairs(m):
            inside = al[i - 1] > al[j - 1] if (i < j or strict_back) else al[i - 1] >= al[j - 1]
            if not inside:
                conds.append(sympy.Not(dd(i, j) > 0))
        return sympy.And(*conds)

    dag = acyclic(dd, m)
    # one Equivalent per weak order, shared by its own case and the cyclic case (built once: at m = 4 the
    # 75 x 74 risk comparisons were built twice)
    same = {al: sympy.Equivalent(optimal(al), described(al)) for al in orders}
    cases = [(f"m={m}, alpha={al}", {"weights_nonnegative": nonneg, "dag": [dag]}, same[al]) for al in orders]
    cases.append((f"m={m}, cyclic", {"weights_nonnegative": nonneg, "cyclic": [sympy.Not(dag)]},
                  sympy.Or(*[sympy.Not(same[al]) for al in orders])))
    return cases


def lemma16_all_weights_claim(id: str = "duchi2010.lemma16.all_weights", *, strict_back: bool = False,
                              sizes: tuple[int, int] = (3, 4)) -> Claim:
    """Lemma 16 (as :func:`lemma16_claim`) for every real weight vector a_ij >= 0, one z3 query per weak order."""
    return implies_cases(
        id, cases=lambda m: lemma16_symbolic_cases(m, strict_back=strict_back),
        cite=cite("Lemma 16", LEMMA16_QUOTE),
        statement=("for every real weight vector a_ij >= 0 on m nodes: G~ is a DAG <=> the minimisers of Eq. (8) "
                   "(one score vector per weak order) are exactly Lemma 16's set"
                   + (" [twin: a_i > a_j also for i > j]" if strict_back else "")),
        sizes=sizes,
        domain="every weak order alpha of m items (Eq. (8) depends on alpha only through it), all real a_ij >= 0",
    )


lemma16_all_weights = lemma16_all_weights_claim()
TWINS[lemma16_all_weights.id] = lambda: lemma16_all_weights_claim(
    twin_id(lemma16_all_weights.id), strict_back=True, sizes=(3, 3)
)


def upper_pairs(m: int) -> list[tuple[int, int]]:
    return [(i, j) for i, j in pairs(m) if i < j]


def lemma16_rewrite_claim(id: str = "duchi2010.lemma16.proof.rewrite", *, strict_tie: bool = False,
                          sizes: tuple[int, int] = (3, 5)) -> Claim:
    """Lemma 16, proof: "l(p, a) = sum_{i<j} a_ij 1(a_i <= a_j) + sum_{i>j} a_ij 1(a_i < a_j) = sum_i sum_{j>i}
    a_ij 1(a_i <= a_j) + a_ji 1(a_j < a_i) = sum_i sum_{j>i} (a_ij - a_ji) 1(a_i <= a_j) + a_ji".
    ``strict_tie`` writes 1(a_i < a_j) in the last line (the twin)."""

    def chain(m: int) -> Any:
        a = symbolic_weights(m)
        grouped = sum((a[i, j] * ind(alpha(i) <= alpha(j)) + a[j, i] * ind(alpha(j) < alpha(i))
                       for i, j in upper_pairs(m)), sympy.Integer(0))
        last = sum(((a[i, j] - a[j, i]) * ind(alpha(i) < alpha(j) if strict_tie else alpha(i) <= alpha(j)) + a[j, i]
                    for i, j in upper_pairs(m)), sympy.Integer(0))
        return sympy.And(sympy.Eq(risk_eq8(a, alpha), grouped), sympy.Eq(grouped, last))

    return implies(
        id, hypotheses={"weights_nonnegative": lambda m: [x >= 0 for x in symbolic_weights(m).values()]},
        conclusion=chain,
        cite=cite("Lemma 16, proof", "l(p, a) = sum_{i<j} a_ij 1(a_i <= a_j) + sum_{i>j} a_ij 1(a_i < a_j) = ... "
                                     "= sum_{i=1}^m sum_{j=i+1}^m (a_ij - a_ji) 1(a_i <= a_j) + a_ji"),
        statement=("for all a_ij >= 0 and every real score vector a on m nodes, the three lines of the rewriting of "
                   "Eq. (8) are equal (no ordering of the labels is needed for it)"
                   + (" [twin: 1(a_i < a_j) in the last line]" if strict_tie else "")),
        sizes=sizes,
    )


lemma16_rewrite = lemma16_rewrite_claim()
TWINS[lemma16_rewrite.id] = lambda: lemma16_rewrite_claim(twin_id(lemma16_rewrite.id), strict_tie=True, sizes=(3, 3))


def topologically_sorted(m: int) -> list[Any]:
    """a_ij >= a_ji for i < j: every edge of G~ goes from a smaller label to a larger one."""
    a = symbolic_weights(m)
    return [a[i, j] >= a[j, i] for i, j in upper_pairs(m)]


def lemma16_sorted_cases(m: int, *, sorted_labels: bool = True) -> list[Any]:
    """One implication per weak order w (Eq. (8) depends on a only through it): l(p, w) >= sum_{i<j} a_ji, with
    equality iff w_i > w_j for every i < j with a_ij > a_ji; and w = (m, ..., 1) attains the bound."""
    a = symbolic_weights(m)
    floor = sum((a[j, i] for i, j in upper_pairs(m)), sympy.Integer(0))  # sum_{i<j} a_ji
    hyps = {"weights_nonnegative": [x >= 0 for x in a.values()],
            **({"topologically_sorted": topologically_sorted(m)} if sorted_labels else {})}
    cases = []
    for w in weak_order_representatives(m):
        risk = conditional_risk(a, w)
        respects = sympy.And(*[a[i, j] <= a[j, i] for i, j in upper_pairs(m) if not w[i - 1] > w[j - 1]])
        cases.append((f"m={m}, alpha={w}", hyps, sympy.And(risk >= floor, sympy.Equivalent(risk <= floor, respects))))
    cases.append((f"m={m}, alpha=(m, ..., 1)", hyps, sympy.Eq(conditional_risk(a, tuple(range(m, 0, -1))), floor)))
    return cases


def lemma16_sorted_claim(id: str = "duchi2010.lemma16.proof.sorted_minimisers", *, sorted_labels: bool = True,
                         sizes: tuple[int, int] = (3, 4)) -> Claim:
    """Lemma 16, proof: "so that a_ij >= a_ji for i < j. ... Clearly, if a_ij > a_ji for some i < j, then any
    minimizing a must satisfy a_i > a_j. If a_ij - a_ji = 0 ..., then the relative order of a_i and a_j does not
    affect l(p, a)."  ``sorted_labels`` False drops the topological order of the labels (the twin)."""
    return implies_cases(
        id, cases=lambda m: lemma16_sorted_cases(m, sorted_labels=sorted_labels),
        cite=cite("Lemma 16, proof", "so that a_ij >= a_ji for i < j. ... Clearly, if a_ij > a_ji for some i < j, then "
                                     "any minimizing a must satisfy a_i > a_j. If a_ij - a_ji = 0 for some j > i, then "
                                     "the relative order of a_i and a_j does not affect l(p, a)."),
        statement=("for every a_ij >= 0 on m nodes with a_ij >= a_ji for i < j (labels topologically sorted): "
                   "l(p, a) >= sum_{i<j} a_ji for every score vector a, with equality iff a_i > a_j for every "
                   "i < j with a_ij > a_ji, and a = (m, ..., 1) attains it; so A(p) is that set"
                   + ("" if sorted_labels else " [twin: labels not sorted]")),
        sizes=sizes,
        domain="every weak order a of m items (Eq. (8) depends on a only through it), all real a_ij >= 0",
    )


lemma16_sorted = lemma16_sorted_claim()
TWINS[lemma16_sorted.id] = lambda: lemma16_sorted_claim(twin_id(lemma16_sorted.id), sorted_labels=False, sizes=(3, 3))
