"""Audit of the coverage map of Duchi, Mackey & Jordan (2010) (issue 26, "coverage without blind spots"): the
checkable steps that the map had listed as "definition", "not checkable" or only under a theorem-level claim.

Each claim cites the sentence it checks; each has its negative twin in ``TWINS`` (an erratum is its own twin, its
``.corrected`` claim has one).  Findings of this audit:

* Introduction / Eq. (7): L is "equal to zero if f obeys the order specified by G ... and is positive otherwise",
  but Eq. (7) charges nothing for a tie a_i = a_j on an edge (i -> j) with i > j (clarification: the tie-breaking
  is deliberate, "to avoid ... doubly penalizing"; the loss is zero iff a_i > a_j on the edges with i < j and
  a_i >= a_j on the edges with i > j, Lemma 16's shape).
* Section 2.2, after Eq. (9): W(p, a) = sum_{i != j} h_ij phi(a_i - a_j) with h_ij = sum_{G in G} h(a_ij^G) p_G
  needs h(0) = 0 (or the sum over the graphs that contain the edge): a graph without (i -> j) has a_ij^G = 0 and
  adds h(0) p_G to h_ij (clarification; Theorem 11 assumes h(0) = 0).
* Appendix A, proof of Lemma 7: "the sum of the back edges is less than k, i.e., sum_{i >= j} a_ij <= k": the words
  say < k, the formula <= k; with < the equivalence fails whenever the minimum feedback arc set equals k (proof).
* Appendix A, proof of Lemma 16: the paths from i to j and from j to i are both written with k intermediate nodes
  (l_1..l_k and l'_1..l'_k); they have k and k' nodes with k + k' + 2 = the cycle's length (proof).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies
from symcal.claims.core import Claim

from .common import (
    alpha,
    cite,
    conditional_risk,
    directed_cycles,
    has_cycle,
    ind,
    min_conditional_risk,
    risk_eq8,
    symbolic_weights,
    twin_id,
    weak_order_representatives,
)

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}

x1, x2, x3 = alpha(1), alpha(2), alpha(3)


# ---------------------------------------------------------------------------------------
# Section 1: H(eps) = min_m H_m(eps) is non-decreasing because each H_m is
# ---------------------------------------------------------------------------------------

H_QUOTE = ("We immediately have H >= 0, H(0) = 0, and H(eps) is non-decreasing on 0 <= eps < oo, since individual "
           "H_m(eps) are non-decreasing in eps.")
e1, e2 = sympy.symbols("eps1 eps2", real=True)
Hm = sympy.symbols("H2_at_eps1 H2_at_eps2 H3_at_eps1 H3_at_eps2", real=True)


def min_nondecreasing_claim(id: str = "duchi2010.audit.section1.h_min_nondecreasing", *, drop: str = "") -> Claim:
    """Section 1: "H(eps) is non-decreasing ..., since individual H_m(eps) are non-decreasing": the minimum of two
    non-decreasing values stays ordered.  ``drop`` removes one H_m's monotonicity (the twin)."""
    hyps = {"eps_ordered": [e1 >= 0, e1 <= e2], "H2_nondecreasing": [Hm[0] <= Hm[1]],
            "H3_nondecreasing": [Hm[2] <= Hm[3]]}
    hyps.pop(drop, None)
    return implies(
        id, hypotheses=hyps, conclusion=sympy.Min(Hm[0], Hm[2]) <= sympy.Min(Hm[1], Hm[3]),
        cite=cite("Section 1", H_QUOTE),
        statement=("0 <= eps1 <= eps2, H_2 and H_3 non-decreasing (values at eps1, eps2 free reals) => "
                   "min_m H_m(eps1) <= min_m H_m(eps2)" + (f" [twin: without {drop}]" if drop else "")),
    )


h_min_nondecreasing = min_nondecreasing_claim()
TWINS[h_min_nondecreasing.id] = lambda: min_nondecreasing_claim(twin_id(h_min_nondecreasing.id),
                                                                drop="H3_nondecreasing")


# ---------------------------------------------------------------------------------------
# Theorem 6, proof (and Lemma 4's proof): l(p, .) takes finitely many values, so a in A(p) fails by a fixed eps
# ---------------------------------------------------------------------------------------

THEOREM6_QUOTE = ("Further, by assumption there is some eps > 0 such that l(p, alpha^(n)) >= inf_alpha l(p, alpha) "
                  "+ eps for all n.")


def finitely_many_values_claim(id: str = "duchi2010.audit.theorem6.finitely_many_values", *, skip: int = -1,
                               sizes: tuple[int, int] = (3, 3)) -> Claim:
    """Theorem 6, proof: a uniform eps > 0 exists because l(p, a) of Eq. (8) takes only the values it takes on one
    score vector per weak order: for every real a, l(p, a) equals l(p, r) for some representative r.  ``skip``
    leaves the representative with that index out (the twin)."""

    def conclusion(m: int) -> Any:
        a = symbolic_weights(m)
        reps = [r for k, r in enumerate(weak_order_representatives(m)) if k != skip]
        risk = risk_eq8(a, alpha)
        return sympy.Or(*[sympy.Eq(risk, conditional_risk(a, r)) for r in reps])

    return implies(
        id,
        hypotheses={"weights_nonnegative": lambda m: [x >= 0 for x in symbolic_weights(m).values()]},
        conclusion=conclusion,
        cite=cite("Theorem 6, proof", THEOREM6_QUOTE),
        statement=("for every a_ij >= 0 and every real score vector a on m nodes, l(p, a) (Eq. (8)) is one of the "
                   "values l(p, r) at the weak-order representatives r (13 at m = 3), so l(p, a) - inf l is 0 or at "
                   "least the least positive gap" + (f" [twin: representative {skip} left out]" if skip >= 0 else "")),
        sizes=sizes,
    )


theorem6_finitely_many_values = finitely_many_values_claim()
# the twin leaves out the strict order a_1 > a_2 > a_3, whose value a_21 + a_31 + a_32 no other weak order takes
TWINS[theorem6_finitely_many_values.id] = lambda: finitely_many_values_claim(
    twin_id(theorem6_finitely_many_values.id), skip=weak_order_representatives(3).index((2, 1, 0)))


# ---------------------------------------------------------------------------------------
# Introduction and Eq. (7): when is L(a, G) zero, and a tie is charged once
# ---------------------------------------------------------------------------------------

INTRO_QUOTE = ("a general graph-based loss L(f(x, q), G) which is equal to zero if f(q, x) obeys the order specified "
               "by G -- that is, f_i(x, q) > f_j(x, q) for each edge (i -> j) in G -- and is positive otherwise")
w12, w31, w32 = sympy.symbols("aG_1_2 aG_3_1 aG_3_2", real=True)
# a DAG with an edge from a smaller to a larger label (1 -> 2) and edges from a larger to a smaller one (3 -> 1, 3 -> 2)
EQ7_EDGES = ((1, 2, w12), (3, 1, w31), (3, 2, w32))


def eq7_loss(al: Callable[[int], Any]) -> Any:
    """Eq. (7) on G = {1 -> 2, 3 -> 1, 3 -> 2}: sum_{i<j} a_ij^G 1(a_i <= a_j) + sum_{i>j} a_ij^G 1(a_i < a_j)."""
    return risk_eq8({(i, j): w for i, j, w in EQ7_EDGES}, al)


def eq7_zero_claim(id: str, *, printed: bool, positive: bool = True, finding: Finding | None = None) -> Claim:
    """Introduction with Eq. (7): L(a, G) = 0 iff a obeys G.  ``printed``: "obeys" is a_i > a_j on every edge (the
    introduction); else a_i > a_j on edges i < j and a_i >= a_j on edges i > j (the corrected reading, Lemma 16's
    shape).  ``positive`` False drops the positivity of the weights (the twin of the corrected claim)."""
    obeys = sympy.And(*[(alpha(i) > alpha(j)) if (printed or i < j) else (alpha(i) >= alpha(j))
                        for i, j, _ in EQ7_EDGES])
    loss = eq7_loss(alpha)
    hyps = {"weights_positive" if positive else "weights_nonnegative":
            [(w > 0) if positive else (w >= 0) for _, _, w in EQ7_EDGES]}
    reading = ("a_i > a_j on every edge" if printed else "a_i > a_j on edges i < j, a_i >= a_j on edges i > j")
    return implies(
        id, hypotheses=hyps,
        conclusion=sympy.And(loss >= 0, sympy.Equivalent(loss <= 0, obeys)),
        cite=cite("Introduction; Section 2, Eq. (7)", INTRO_QUOTE),
        statement=(f"G = {{1 -> 2, 3 -> 1, 3 -> 2}} with weights {'> 0' if positive else '>= 0'}, L of Eq. (7): "
                   f"L(a, G) >= 0, and L(a, G) = 0 <=> {reading}, for every real score vector a"),
        finding=finding,
    )


eq7_zero_iff_obeys = eq7_zero_claim(
    "duchi2010.audit.eq7.zero_iff_obeys", printed=True,
    finding=Finding(
        what=("The introduction says the loss is zero if f_i > f_j on every edge (i -> j) of G and positive "
              "otherwise; Eq. (7) charges an edge (i -> j) with i > j only when a_i < a_j, so a tie a_i = a_j on it "
              "costs nothing although f_i > f_j fails. The tie-breaking is deliberate (Section 2: 'to avoid ... "
              "doubly penalizing 1(a_i = a_j)'), and everything later (Eq. (8), Lemma 16's A(p)) uses Eq. (7): L is "
              "zero iff a_i > a_j on the edges with i < j and a_i >= a_j on the edges with i > j."),
        counterexample=("m = 2, G = {2 -> 1} with a_21^G = 1, a = (0, 0): L = a_21^G 1(a_2 < a_1) = 0 but "
                        "a_2 > a_1 fails; on the encoded G = {1 -> 2, 3 -> 1, 3 -> 2} the solver's model is "
                        "re-checked exactly."),
        corrected="duchi2010.audit.eq7.zero_iff_obeys.corrected",
        finding_class="clarification",
    ),
)
eq7_zero_iff_obeys_corrected = eq7_zero_claim(eq7_zero_iff_obeys.finding.corrected, printed=False)
TWINS[eq7_zero_iff_obeys_corrected.id] = lambda: eq7_zero_claim(twin_id(eq7_zero_iff_obeys_corrected.id),
                                                                printed=False, positive=False)

EQ7_TIE_QUOTE = ("We distinguish the cases i < j and i > j to avoid minor technical issues created by doubly "
                 "penalizing 1(alpha_i = alpha_j).")
b12, b21 = sympy.symbols("aG_1_2 aG_2_1", real=True)


def eq7_tie_claim(id: str = "duchi2010.audit.eq7.tie_charged_once", *, both_weak: bool = False) -> Claim:
    """Section 2, after Eq. (7): with edges both ways between 1 and 2, Eq. (7) charges exactly one of a_12^G, a_21^G
    (a_12^G when a_1 <= a_2, else a_21^G), so a tie is penalised once.  ``both_weak`` writes 1(a_2 <= a_1) for the
    pair i > j (the doubly penalising loss, the twin)."""
    cost = b12 * ind(x1 <= x2) + b21 * ind(x2 <= x1 if both_weak else x2 < x1)
    return implies(
        id, hypotheses={"weights_nonnegative": [b12 >= 0, b21 >= 0]},
        conclusion=sympy.Or(sympy.And(x1 <= x2, sympy.Eq(cost, b12)), sympy.And(x1 > x2, sympy.Eq(cost, b21))),
        cite=cite("Section 2, after Eq. (7)", EQ7_TIE_QUOTE),
        statement=("the pair {1, 2} of Eq. (7) costs a_12^G if a_1 <= a_2 and a_21^G if a_1 > a_2 (one weight, ties "
                   "included)" + (" [twin: 1(a_2 <= a_1) for i > j]" if both_weak else "")),
    )


eq7_tie_charged_once = eq7_tie_claim()
TWINS[eq7_tie_charged_once.id] = lambda: eq7_tie_claim(twin_id(eq7_tie_charged_once.id), both_weak=True)


# ---------------------------------------------------------------------------------------
# Section 2.2, after Eq. (9): W = sum_{i != j} h_ij phi(a_i - a_j) with h_ij = sum_G h(a_ij^G) p_G
# ---------------------------------------------------------------------------------------

EQ9_QUOTE = ("In this case, the conditional surrogate risk is W(p, alpha) = sum_{i != j} h_ij phi(alpha_i - alpha_j), "
             "where we define h_ij = sum_{G in G} h(a_ij^G) p_G.")
PHI = sympy.Function("phi")
K = sympy.Function("k")
q1, q2, c12, c21 = sympy.symbols("p_G1 p_G2 aG1_1_2 aG2_2_1", real=True)


def hinge(x: Any) -> Any:
    """phi(x) = max(0, 1 - x): phi >= 0 and non-increasing, as Eq. (9) asks (z3 decides it exactly)."""
    return sympy.Max(0, 1 - x)


def eq9_claim(id: str, *, h: Callable[[Any], Any], phi: Any = PHI, flip: bool = False,
              finding: Finding | None = None, what_h: str = "") -> Claim:
    """Section 2.2, after Eq. (9), on G1 = {1 -> 2} (weight a_12^G1), G2 = {2 -> 1} (weight a_21^G2): sum_G p_G
    phi(a, G) = sum_{i != j} h_ij phi(a_i - a_j) with h_ij summed over both graphs (a_ij^G = 0 where G has no
    edge i -> j).  ``flip`` writes phi(a_2 - a_1) in the h_12 term (the twin of the corrected claim)."""
    lhs = q1 * h(c12) * phi(x1 - x2) + q2 * h(c21) * phi(x2 - x1)
    h_12 = h(c12) * q1 + h(sympy.Integer(0)) * q2
    h_21 = h(sympy.Integer(0)) * q1 + h(c21) * q2
    rhs = h_12 * phi(x2 - x1 if flip else x1 - x2) + h_21 * phi(x2 - x1)
    on_simplex = [q1 >= 0, q2 >= 0, sympy.Eq(q1 + q2, 1), c12 >= 0, c21 >= 0]
    return identity(
        id, lhs, rhs, conditions=on_simplex, cite=cite("Section 2.2, after Eq. (9)", EQ9_QUOTE),
        statement=(f"G1 = {{1 -> 2}}, G2 = {{2 -> 1}}, {what_h}, "
                   f"{'phi an undefined function' if phi is PHI else 'phi(x) = max(0, 1 - x)'}: "
                   "sum_G p_G sum_(i->j in G) h(a_ij^G) phi(a_i - a_j) = sum_{i != j} h_ij phi(a_i - a_j), "
                   "h_ij = sum_G h(a_ij^G) p_G over both graphs (a_ij^G = 0 off G), for p on the simplex, weights "
                   ">= 0 and every real a" + (" [twin: phi(a_2 - a_1) in the h_12 term]" if flip else "")),
        finding=finding,
    )


eq9_h_ij = eq9_claim(
    "duchi2010.audit.eq9.w_from_h_ij", h=lambda x: x + 1, phi=hinge, what_h="h(x) = x + 1 (>= 0 on R+, increasing)",
    finding=Finding(
        what=("After Eq. (9), W(p, a) = sum_{i != j} h_ij phi(a_i - a_j) with h_ij = sum_{G in G} h(a_ij^G) p_G holds "
              "only if h(0) = 0 or the sum runs over the graphs containing (i -> j): a graph without the edge has "
              "a_ij^G = 0 and adds h(0) p_G to h_ij, which W does not contain. Section 2.2 asks only h >= 0 on R+ "
              "and strictly increasing; Theorem 11 adds h(0) = 0, so the results stand."),
        counterexample=("G1 = {1 -> 2}, G2 = {2 -> 1}, h(x) = x + 1, phi(x) = max(0, 1 - x): W - sum h_ij "
                        "phi(a_i - a_j) = -h(0) (p_G2 phi(a_1 - a_2) + p_G1 phi(a_2 - a_1)), e.g. -1 at p = (1, 0), "
                        "a = (0, 0) (the solver's model is re-checked exactly)."),
        corrected="duchi2010.audit.eq9.w_from_h_ij.corrected",
        finding_class="clarification",
    ),
)
eq9_h_ij_corrected = eq9_claim(eq9_h_ij.finding.corrected, h=lambda x: x * K(x),
                               what_h="h(x) = x k(x) for an undefined k (every h with h(0) = 0)")
TWINS[eq9_h_ij_corrected.id] = lambda: eq9_claim(twin_id(eq9_h_ij_corrected.id), h=lambda x: x, phi=hinge,
                                                 flip=True, what_h="h(x) = x")


# ---------------------------------------------------------------------------------------
# Section 2.2: h must be strictly increasing (an instance: h constant on [1, 2] with the hinge)
# ---------------------------------------------------------------------------------------

H_INCREASING_QUOTE = "Similarly, we must have h >= 0 on R+ and strictly increasing."
pr = sympy.Symbol("p_G1", real=True)


def h_increasing_claim(id: str = "duchi2010.audit.section2_2.h_strictly_increasing_needed", *,
                       h2: Any = 1) -> Claim:
    """Section 2.2: "we must have h ... strictly increasing", on an instance: h(1) = h(2) = 1 (h not strictly
    increasing), G1 = {1 -> 2} with weight 2 (probability p), G2 = {2 -> 1} with weight 1, 1/3 < p < 1/2, the
    hinge phi.  Then a_12 = 2p > a_21 = 1 - p, so A(p) = {a_1 > a_2}, yet a = (0, 1), outside A(p), minimises W.
    ``h2`` is h(2); 2 (h(x) = x, strictly increasing) is the twin."""
    h12, h21 = pr * h2, (1 - pr) * 1
    w = h12 * hinge(x1 - x2) + h21 * hinge(x2 - x1)
    w_out = h12 * hinge(sympy.Integer(-1)) + h21 * hinge(sympy.Integer(1))
    return implies(
        id, hypotheses={"p_range": [pr > sympy.Rational(1, 3), pr < sympy.Rational(1, 2)]},
        conclusion=sympy.And(2 * pr > 1 - pr, w >= w_out),
        cite=cite("Section 2.2", H_INCREASING_QUOTE),
        statement=(f"h(1) = 1, h(2) = {h2}, G1 = {{1 -> 2}} (a^G1 = 2, prob. p), G2 = {{2 -> 1}} (a^G2 = 1), "
                   "1/3 < p < 1/2, phi = hinge: a_12 > a_21 (A(p) = {a_1 > a_2}) and W(p, a) >= W(p, (0, 1)) for "
                   "every a, so W* is attained outside A(p): not edge-consistent"),
    )


h_strictly_increasing_needed = h_increasing_claim()
TWINS[h_strictly_increasing_needed.id] = lambda: h_increasing_claim(twin_id(h_strictly_increasing_needed.id), h2=2)


# ---------------------------------------------------------------------------------------
# Section 2.2: the recession function (sup = lim for convex phi) and Assumption A for bounded-below phi
# ---------------------------------------------------------------------------------------

RECESSION_QUOTE = "phi'_oo(d) = sup_{t>0} (phi(td) - phi(0))/t = lim_{t -> oo} (phi(td) - phi(0))/t"
s_, t_, Ps, Pt, P0 = sympy.symbols("s t phi_sd phi_td phi_0", real=True)


def recession_claim(id: str = "duchi2010.audit.recession.quotient_nondecreasing", *, convex: bool = True) -> Claim:
    """Section 2.2: the sup equals the limit because for convex phi the quotient (phi(td) - phi(0))/t is
    non-decreasing in t: convexity at s d = (s/t)(t d) + (1 - s/t) 0 gives it.  ``convex`` False drops the
    convexity inequality (the twin)."""
    hyps: dict[str, Any] = {"s_between_0_and_t": [s_ > 0, s_ < t_]}
    if convex:
        hyps["convex"] = [Ps <= (s_ / t_) * Pt + (1 - s_ / t_) * P0]
    return implies(
        id, hypotheses=hyps, conclusion=(Ps - P0) / s_ <= (Pt - P0) / t_,
        cite=cite("Section 2.2", RECESSION_QUOTE),
        statement=("0 < s < t and phi(sd) <= (s/t) phi(td) + (1 - s/t) phi(0) (convexity) => (phi(sd) - phi(0))/s "
                   "<= (phi(td) - phi(0))/t: the quotient is non-decreasing, so its sup over t > 0 is its limit"
                   + ("" if convex else " [twin: without convexity]")),
    )


recession_quotient = recession_claim()
TWINS[recession_quotient.id] = lambda: recession_claim(twin_id(recession_quotient.id), convex=False)

ASSUMPTION_A_QUOTE = "The assumption, satisfied for bounded below phi, is Assumption A. phi'_oo(1) >= 0 or ..."
c_, B_ = sympy.symbols("c B", real=True)


def assumption_a_claim(id: str = "duchi2010.audit.assumption_a.bounded_below", *, sup: bool = True) -> Claim:
    """Section 2.2: bounded-below phi satisfy Assumption A, since phi'_oo(1) >= 0; contrapositive: a slope
    c = phi'_oo(1) < 0 bounds (phi(t) - phi(0))/t <= c for every t > 0 (the sup), so phi(t) < B at
    t = (phi(0) - B)/(-c) + 1 for any B <= phi(0).  ``sup`` False drops the bound from the sup (the twin)."""
    t = (P0 - B_) / (-c_) + 1
    hyps: dict[str, Any] = {"slope_negative": [c_ < 0], "B_below_phi0": [P0 >= B_]}
    if sup:
        hyps["sup_bound"] = [Pt <= P0 + c_ * t]
    return implies(
        id, hypotheses=hyps, conclusion=sympy.And(t > 0, Pt < B_),
        cite=cite("Section 2.2, Assumption A", ASSUMPTION_A_QUOTE),
        statement=("phi'_oo(1) = c < 0 and B <= phi(0): at t = (phi(0) - B)/(-c) + 1 > 0, phi(t) <= phi(0) + c t "
                   "< B, so no B bounds phi below; hence bounded-below phi have phi'_oo(1) >= 0"
                   + ("" if sup else " [twin: without the sup bound]")),
    )


assumption_a_bounded_below = assumption_a_claim()
TWINS[assumption_a_bounded_below.id] = lambda: assumption_a_claim(twin_id(assumption_a_bounded_below.id), sup=False)


# ---------------------------------------------------------------------------------------
# Appendix A, proof of Lemma 9, step 2: the largest gap in A(p), and convex phi with phi'(0) < 0 is unbounded above
# ---------------------------------------------------------------------------------------

LEMMA9_GAP_QUOTE = ("suppose that limsup_n (alpha_i^(n) - alpha_j^(n)) = oo for some i < j. Since alpha^(n) in A(p), "
                    "this implies limsup_n (alpha_1^(n) - alpha_3^(n)) = oo")


def lemma9_gap_claim(id: str = "duchi2010.audit.lemma9.largest_gap", *, widest: tuple[int, int] = (1, 3)) -> Claim:
    """Lemma 9, proof: in A(p) = {a_1 > a_2 > a_3}, every |a_i - a_j| is at most a_1 - a_3, so one unbounded gap
    makes a_1 - a_3 unbounded, and a bound on a_1 - a_3 bounds every gap.  ``widest`` (1, 2) is the twin."""
    u, v = widest
    return implies(
        id, hypotheses={"in_A": [x1 > x2, x2 > x3]},
        conclusion=sympy.And(*[sympy.Abs(alpha(i) - alpha(j)) <= alpha(u) - alpha(v)
                               for i, j in itertools.combinations((1, 2, 3), 2)]),
        cite=cite("Appendix A, proof of Lemma 9", LEMMA9_GAP_QUOTE),
        statement=f"a_1 > a_2 > a_3 => |a_i - a_j| <= a_{u} - a_{v} for all i < j",
    )


lemma9_largest_gap = lemma9_gap_claim()
TWINS[lemma9_largest_gap.id] = lambda: lemma9_gap_claim(twin_id(lemma9_largest_gap.id), widest=(1, 2))

LEMMA9_UNBOUNDED_QUOTE = "But phi is convex with phi'(0) < 0 and so is unbounded above"
g0_, M_, X_, PX = sympy.symbols("g0 M x phi_x", real=True)


def unbounded_claim(id: str = "duchi2010.audit.lemma9.unbounded_above", *, subgradient: bool = True) -> Claim:
    """Lemma 9, proof: convex phi with phi'(0) = g0 < 0 is unbounded above: the subgradient inequality
    phi(x) >= phi(0) + g0 x at x = (M - phi(0))/g0 < 0 gives phi(x) >= M for any M > phi(0).  ``subgradient``
    False drops the subgradient inequality (the twin)."""
    x = (M_ - P0) / g0_
    hyps: dict[str, Any] = {"slope_negative": [g0_ < 0], "M_above_phi0": [M_ > P0], "at_x": [sympy.Eq(X_, x)]}
    if subgradient:
        hyps["subgradient_at_0"] = [PX >= P0 + g0_ * X_]
    return implies(
        id, hypotheses=hyps, conclusion=sympy.And(X_ < 0, PX >= M_),
        cite=cite("Appendix A, proof of Lemma 9", LEMMA9_UNBOUNDED_QUOTE),
        statement=("g0 = phi'(0) < 0, M > phi(0), x = (M - phi(0))/g0, phi(x) >= phi(0) + g0 x (convexity) => x < 0 "
                   "and phi(x) >= M" + ("" if subgradient else " [twin: without the subgradient inequality]")),
    )


lemma9_unbounded_above = unbounded_claim()
TWINS[lemma9_unbounded_above.id] = lambda: unbounded_claim(twin_id(lemma9_unbounded_above.id), subgradient=False)


# ---------------------------------------------------------------------------------------
# Theorem 12, proof: phi~'(0) = phi'(-c) < 0 by monotone subgradients
# ---------------------------------------------------------------------------------------

THEOREM12_SLOPE_QUOTE = "Notably, phi~ is convex, satisfies Assumption A, and phi~'(0) = phi'(-c) < 0."
gc_ = sympy.Symbol("g_minus_c", real=True)


def theorem12_slope_claim(id: str = "duchi2010.audit.theorem12.shifted_slope_negative", *,
                          monotone: bool = True) -> Claim:
    """Theorem 12, proof: phi'(-c) < 0 because -c < 0 and subgradients are monotone (phi'(-c) <= phi'(0) < 0).
    ``monotone`` False drops the monotonicity (the twin)."""
    hyps: dict[str, Any] = {"c_positive": [c_ > 0], "slope_at_0_negative": [g0_ < 0]}
    if monotone:
        hyps["monotone_subgradients"] = [sympy.Implies(-c_ < 0, gc_ <= g0_)]
    return implies(
        id, hypotheses=hyps, conclusion=gc_ < 0,
        cite=cite("Theorem 12, proof", THEOREM12_SLOPE_QUOTE),
        statement=("c > 0, phi'(0) = g0 < 0 and monotone subgradients (-c < 0 => phi'(-c) <= phi'(0)) => "
                   "phi~'(0) = phi'(-c) < 0" + ("" if monotone else " [twin: without monotone subgradients]")),
    )


theorem12_shifted_slope = theorem12_slope_claim()
TWINS[theorem12_shifted_slope.id] = lambda: theorem12_slope_claim(twin_id(theorem12_shifted_slope.id),
                                                                  monotone=False)


# ---------------------------------------------------------------------------------------
# Appendix A, proof of Lemma 7: "less than k" against "<= k"
# ---------------------------------------------------------------------------------------

LEMMA7_K_QUOTE = ("finding an ordering of the nodes i_1, ..., i_n ... in G~ such that the sum of the back edges is "
                  "less than k, i.e., sum_{i >= j} a_ij <= k")


def unit_digraphs(m: int) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every digraph on nodes 1..m (each ordered pair an edge or not), unit weights."""
    ps = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
    return [(m, tuple(e for e, keep in zip(ps, bits, strict=True) if keep))
            for bits in itertools.product((0, 1), repeat=len(ps))]


def min_back_edges(m: int, edges: tuple[tuple[int, int], ...]) -> int:
    """The least number of back edges (i -> j with i after j) over the strict orderings of 1..m."""
    return min(sum(1 for i, j in edges if order.index(i) > order.index(j))
               for order in itertools.permutations(range(1, m + 1)))


def lemma7_k_cases() -> list[tuple[int, tuple[tuple[int, int], ...], int]]:
    return [(m, e, k) for m in (2, 3) for _, e in unit_digraphs(m) for k in range(len(e) + 1)]


def lemma7_k_holds(case: tuple[int, tuple[tuple[int, int], ...], int], *, strict: bool,
                   shift: int = 0) -> tuple[bool, str]:
    m, edges, k = case
    a = {e: Fraction(1) for e in edges}
    risk = min_conditional_risk(a, m)  # min over every real score vector of Eq. (8) (one per weak order)
    back = min_back_edges(m, edges) + shift
    ordering_ok = back < k if strict else back <= k
    return ordering_ok == (risk <= k), f"min l = {risk}, least back-edge count = {back - shift}, k = {k}"


def lemma7_k_claim(id: str, *, strict: bool, shift: int = 0, finding: Finding | None = None) -> Claim:
    """Lemma 7, proof: "some a has l(p, a) <= k iff some ordering's back edges sum to less than k" (``strict``) or
    to at most k (the formula that follows, the corrected claim); ``shift`` adds 1 to the back-edge count (the
    twin of the corrected claim)."""
    return finite_check(
        id, cases=lemma7_k_cases(),
        holds=lambda c: lemma7_k_holds(c, strict=strict, shift=shift),
        describe=lambda c: {"m": c[0], "edges": list(c[1]), "k": c[2]},
        domain="every unit-weight digraph on m = 2, 3 nodes (4 + 64) and every k = 0..|E|",
        cite=cite("Appendix A, proof of Lemma 7", LEMMA7_K_QUOTE),
        statement=("exists a with l(p, a) <= k (Eq. (8), unit weights on E) <=> some strict ordering has "
                   + ("fewer than k back edges" if strict else "at most k back edges")
                   + (" [twin: back edges + 1]" if shift else "")),
        finding=finding,
    )


lemma7_less_than_k = lemma7_k_claim(
    "duchi2010.audit.lemma7.less_than_k", strict=True,
    finding=Finding(
        what=("Lemma 7's proof says the decision problem 'some a has l(p, a) <= k' is equivalent to an ordering whose "
              "back edges sum to 'less than k', then writes sum_{i >= j} a_ij <= k. With 'less than' the "
              "equivalence fails whenever the minimum feedback arc set weighs exactly k; the formula (<= k) is "
              "right, and so is the reduction."),
        counterexample="m = 2, E empty, k = 0: a = (0, 0) has l = 0 <= 0, but no ordering has fewer than 0 back "
                       "edges (also the 3-cycle with k = 1).",
        corrected="duchi2010.audit.lemma7.less_than_k.corrected",
        finding_class="proof",
    ),
)
lemma7_less_than_k_corrected = lemma7_k_claim(lemma7_less_than_k.finding.corrected, strict=False)
TWINS[lemma7_less_than_k_corrected.id] = lambda: lemma7_k_claim(twin_id(lemma7_less_than_k_corrected.id),
                                                                strict=False, shift=1)


# ---------------------------------------------------------------------------------------
# Appendix A, proof of Lemma 16, step 3: the two arcs of a cycle, and the strict inequality
# ---------------------------------------------------------------------------------------

LEMMA16_PATHS_QUOTE = ("Let the nodes on the path from i to j be l_1, ..., l_k and from j to i be l'_1, ..., l'_k. "
                       "... alpha_i >= alpha_l1 >= ... >= alpha_j >= ... >= alpha_i. One of the inequalities must be "
                       "strict")


def arcs(cycle: tuple[int, ...]) -> list[tuple[tuple[int, ...], int, int, int, int]]:
    """(cycle, i, j, k, k'): for two nodes i != j of the cycle, the numbers of nodes strictly between i and j on
    the arc i -> j (k) and on the arc j -> i (k')."""
    n = len(cycle)
    out = []
    for a, b in itertools.permutations(range(n), 2):
        k = (b - a) % n - 1
        out.append((cycle, cycle[a], cycle[b], k, n - 2 - k))
    return out


def lemma16_path_cases(m: int) -> list[tuple[tuple[int, ...], int, int, int, int]]:
    return [arc for c in directed_cycles(m) if len(c) >= 3 for arc in arcs(c)]


def lemma16_paths_claim(id: str, *, printed: bool, offset: int = 0, sizes: tuple[int, int] = (3, 5),
                        finding: Finding | None = None) -> Claim:
    """Lemma 16, proof: for a directed cycle through i != j (every simple cycle of the complete digraph on m nodes
    with at least 3 nodes), the arcs i -> j and j -> i have k and k' intermediate nodes; ``printed`` asserts
    k = k' (both paths written with k nodes), else k + k' + 2 = the cycle's length (``offset`` added: the twin)."""

    def holds(case: tuple[tuple[int, ...], int, int, int, int]) -> tuple[bool, str]:
        cycle, i, j, k, k2 = case
        ok = k == k2 if printed else k + k2 + 2 + offset == len(cycle)
        return ok, f"cycle {cycle}, i = {i}, j = {j}: k = {k}, k' = {k2}"

    return finite_check(
        id, cases=lemma16_path_cases, holds=holds,
        describe=lambda c: {"cycle": list(c[0]), "i": c[1], "j": c[2], "k": c[3], "k'": c[4]},
        domain="every directed simple cycle of length >= 3 of the complete digraph on m nodes, every ordered pair "
               "of its nodes",
        cite=cite("Appendix A, proof of Lemma 16", LEMMA16_PATHS_QUOTE),
        statement=("the path from i to j and the path from j to i on a cycle through both have "
                   + ("the same number k of intermediate nodes" if printed
                      else f"k and k' intermediate nodes with k + k' + 2{f' + {offset}' if offset else ''} = the "
                           "cycle's length")),
        sizes=sizes,
        finding=finding,
    )


lemma16_paths = lemma16_paths_claim(
    "duchi2010.audit.lemma16.path_lengths", printed=True,
    finding=Finding(
        what=("Lemma 16's proof names the nodes on the path from i to j l_1, ..., l_k and those on the path from j to "
              "i l'_1, ..., l'_k, with the same k; the two arcs of a cycle have k and k' intermediate nodes with "
              "k + k' + 2 the cycle's length, not equal in general. The argument (a cycle of weak inequalities with "
              "one strict) does not use the lengths; the lemma stands."),
        counterexample="m = 3, the cycle 1 -> 2 -> 3 -> 1, i = 1, j = 2: the path 1 -> 2 has k = 0 intermediate "
                       "nodes, the path 2 -> 3 -> 1 has k' = 1.",
        corrected="duchi2010.audit.lemma16.path_lengths.corrected",
        finding_class="proof",
    ),
)
lemma16_paths_corrected = lemma16_paths_claim(lemma16_paths.finding.corrected, printed=False)
TWINS[lemma16_paths_corrected.id] = lambda: lemma16_paths_claim(twin_id(lemma16_paths_corrected.id), printed=False,
                                                                offset=1, sizes=(3, 3))


def lemma16_strict_claim(id: str = "duchi2010.audit.lemma16.cycle_has_ascending_edge", *, at_least: int = 1,
                         sizes: tuple[int, int] = (2, 6)) -> Claim:
    """Lemma 16, proof: "One of the inequalities must be strict": in Lemma 16's set an edge u -> v of G~ with u < v
    forces a_u > a_v, and every directed cycle on labels 1..m has such an ascending edge (labels cannot decrease all
    the way round).  ``at_least`` 2 asks for two ascending edges (the twin, refuted by a 2-cycle)."""

    def holds(cycle: tuple[int, ...]) -> tuple[bool, str]:
        up = [(cycle[t], cycle[(t + 1) % len(cycle)]) for t in range(len(cycle))
              if cycle[t] < cycle[(t + 1) % len(cycle)]]
        return len(up) >= at_least, f"cycle {cycle}: ascending edges {up}"

    return finite_check(
        id, cases=lambda m: list(directed_cycles(m)), holds=holds,
        describe=lambda c: {"cycle": list(c)},
        domain="every directed simple cycle of the complete digraph on m nodes",
        cite=cite("Appendix A, proof of Lemma 16", LEMMA16_PATHS_QUOTE),
        statement=(f"every directed cycle on labels 1..m has at least {at_least} edge(s) u -> v with u < v, where "
                   "Lemma 16's set asks a_u > a_v: the chain of >= round the cycle has a strict link"),
        sizes=sizes,
    )


lemma16_ascending_edge = lemma16_strict_claim()
TWINS[lemma16_ascending_edge.id] = lambda: lemma16_strict_claim(twin_id(lemma16_ascending_edge.id), at_least=2,
                                                                sizes=(2, 3))

# a cross-check of the domain helper: the enumerated digraphs have the expected count and include the 3-cycle
assert len(unit_digraphs(3)) == 64 and any(has_cycle(e, 3) for _, e in unit_digraphs(3))

CLAIMS: list[Claim] = [
    h_min_nondecreasing,
    theorem6_finitely_many_values,
    eq7_zero_iff_obeys,
    eq7_zero_iff_obeys_corrected,
    eq7_tie_charged_once,
    eq9_h_ij,
    eq9_h_ij_corrected,
    h_strictly_increasing_needed,
    recession_quotient,
    assumption_a_bounded_below,
    lemma9_largest_gap,
    lemma9_unbounded_above,
    theorem12_shifted_slope,
    lemma7_less_than_k,
    lemma7_less_than_k_corrected,
    lemma16_paths,
    lemma16_paths_corrected,
    lemma16_ascending_edge,
]
