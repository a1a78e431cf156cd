"""Section 2.2 (Low-noise inconsistency): Definition 8, the remark on the minimisers of the
four-weight risk, Lemma 10 and every step of its proof, and Theorem 11's construction (with
the exact check that the minimiser of W lies outside A(p), for exp, logistic and squared hinge)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation, Finding, calibrated, finite_check, identity, implies
from symcal.claims.core import Claim

from .common import (
    HALF,
    NOT_EDGE_CONSISTENT,
    Weights,
    acyclic,
    cite,
    d,
    expected_weights,
    ind,
    low_noise_relations,
    low_noise_violations,
    twin_id,
    weights_diff,
)

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}


# ---------------------------------------------------------------------------------------
# Definition 8: low noise => the difference graph is a DAG
# ---------------------------------------------------------------------------------------


def low_noise_dag_claim(
    id: str = "duchi2010.definition8.difference_graph_is_dag", *, slack: Any = 0, sizes: tuple[int, int] = (3, 6)
) -> Claim:
    """Section 2.2, after Definition 8: "if (G, p) satisfies Def. 8, its difference graph G~ is a DAG".
    ``slack`` > 0 weakens Definition 8 (the twin)."""
    return implies(
        id,
        hypotheses={"low_noise": lambda m: low_noise_relations(d, m, slack)},
        conclusion=lambda m: acyclic(d, m),
        cite=cite("Section 2.2, after Definition 8", "if (G, p) satisfies Def. 8, its difference graph G~ is a DAG"),
        statement="Definition 8 on every triple => no directed cycle of positive differences",
        sizes=sizes,
    )


definition8_dag = low_noise_dag_claim()
TWINS[definition8_dag.id] = lambda: low_noise_dag_claim(twin_id("duchi2010.definition8"), slack=1, sizes=(3, 3))


# ---------------------------------------------------------------------------------------
# Section 2.2: with the four weights of Lemma 10, every minimiser has a1 > a2 > a3
# ---------------------------------------------------------------------------------------

a12, a13, a23, a31 = sympy.symbols("a12 a13 a23 a31", real=True)
x1, x2, x3 = sympy.symbols("x1 x2 x3", real=True)  # the scores alpha_1, alpha_2, alpha_3


def lemma10_risk(al: tuple[Any, Any, Any]) -> Any:
    """l(p, a) of Lemma 10: a12 1(a1 <= a2) + a13 1(a1 <= a3) + a23 1(a2 <= a3) + a31 1(a3 < a1)."""
    b1, b2, b3 = al
    return a12 * ind(b1 <= b2) + a13 * ind(b1 <= b3) + a23 * ind(b2 <= b3) + a31 * ind(b3 < b1)


def ordered_minimisers_claim(id: str = "duchi2010.section2_2.minimisers_ordered", *, drop: str = "") -> Claim:
    """Section 2.2: "In this case, if a13 > a31, any a minimizing l(p, a) clearly will have a1 > a2 > a3."
    ``drop`` removes one hypothesis (the twin drops a23 > 0)."""
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
TWINS[section2_2_minimisers.id] = lambda: ordered_minimisers_claim(
    twin_id("duchi2010.section2_2"), drop="a23_positive"
)


# ---------------------------------------------------------------------------------------
# Lemma 10 and the steps of its proof
# ---------------------------------------------------------------------------------------

h12, h13, h23, h31 = sympy.symbols("h12 h13 h23 h31", real=True)
g12, g13, g23, g31, g0 = sympy.symbols("g12 g13 g23 g31 g0", real=True)
delta12, delta13, delta23, delta31 = sympy.symbols("delta12 delta13 delta23 delta31", real=True)

POSITIVE_H = [h12 > 0, h13 > 0, h23 > 0, h31 > 0]
# Eq. (11): the subgradient conditions for optimality of W in Eq. (10)
EQ11 = [sympy.Eq(h12 * g12 + h13 * g13 - h31 * g31, 0), sympy.Eq(-h12 * g12 + h23 * g23, 0)]


PHI = sympy.Function("phi")
U = sympy.Dummy("u")


def derivative(phi: Any, at: Any) -> Any:
    """phi'(at) for an undefined function phi (a sympy Subs of the derivative) or a concrete one."""
    return sympy.diff(phi(U), U).subs(U, at)


def eq10_w(phi: Any, al: tuple[Any, Any, Any] = (x1, x2, x3)) -> Any:
    """Eq. (10): W(p, a) = h12 phi(a1 - a2) + h13 phi(a1 - a3) + h23 phi(a2 - a3) + h31 phi(a3 - a1)."""
    b1, b2, b3 = al
    return h12 * phi(b1 - b2) + h13 * phi(b1 - b3) + h23 * phi(b2 - b3) + h31 * phi(b3 - b1)


def squared_hinge_polynomial(x: Any) -> Any:
    """phi(x) = (1 - x)^2: one convex phi with phi'(0) < 0, where a twin of a claim 'for every phi' is refuted."""
    return (1 - x) ** 2


def eq11_claim(id: str = "duchi2010.section2_2.eq11", *, phi: Any = PHI, h31_sign: int = -1) -> Claim:
    """Section 2.2, Eq. (11): "0 = h12 phi'(a1 - a2) + h13 phi'(a1 - a3) - h31 phi'(a3 - a1); 0 = -h12 phi'(a1 - a2)
    + h23 phi'(a2 - a3)" are the optimality conditions of Eq. (10): its partial derivatives in a1 and a2 (and
    dW/da3 = -(dW/da1 + dW/da2), so the third condition is implied).  The twin flips the sign of the h31 term and
    takes phi(x) = (1 - x)^2, one phi at which "for every phi" fails."""
    w = eq10_w(phi)
    row1 = h12 * derivative(phi, x1 - x2) + h13 * derivative(phi, x1 - x3) + h31_sign * h31 * derivative(phi, x3 - x1)
    row2 = -h12 * derivative(phi, x1 - x2) + h23 * derivative(phi, x2 - x3)
    return identity(
        id,
        sympy.Matrix([sympy.diff(w, x1), sympy.diff(w, x2), sympy.diff(w, x3)]),
        sympy.Matrix([row1, row2, -(row1 + row2)]),
        cite=cite("Section 2.2, Eq. (11)", "0 = h12 phi'(a1 - a2) + h13 phi'(a1 - a3) - h31 phi'(a3 - a1); "
                                           "0 = -h12 phi'(a1 - a2) + h23 phi'(a2 - a3)"),
        statement=("for every differentiable phi (an undefined function) and real h: the partial derivatives of W of "
                   "Eq. (10) in a1, a2 are the right-hand sides of Eq. (11), and dW/da3 is minus their sum"
                   + ("" if phi is PHI else " [twin: at phi(x) = (1 - x)^2]")
                   + ("" if h31_sign == -1 else " [twin: +h31 phi'(a3 - a1)]")),
    )


eq11 = eq11_claim()
TWINS[eq11.id] = lambda: eq11_claim(twin_id(eq11.id), phi=squared_hinge_polynomial, h31_sign=1)


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
) -> Claim:
    """A step of Lemma 10's proof: an implication over the free reals h, g (z3)."""
    return implies(id, hypotheses=hypotheses, conclusion=conclusion, cite=cite(location, quote), statement=statement)


def eq12a_claim(id: str = "duchi2010.lemma10.eq12a", extra: Any = 0) -> Claim:
    """Lemma 10, proof, Eq. (12a): "g13 - g12 = (h31/h13) g31 - (1 + h12/h13) g12".  ``extra`` nudges it."""
    return lemma10_step(
        id,
        {"positive_h": POSITIVE_H, "eq11": EQ11},
        sympy.Eq(g13 - g12, h31 / h13 * g31 - (1 + h12 / h13) * g12 + extra),
        "h > 0 and Eq. (11) => g13 - g12 = (h31/h13) g31 - (1 + h12/h13) g12",
        L10_QUOTE,
    )


def eq12b_claim(id: str = "duchi2010.lemma10.eq12b", extra: Any = 0) -> Claim:
    """Lemma 10, proof, Eq. (12b): "g13 - g23 = (h31/h13) g31 - (1 + h23/h13) g23".  ``extra`` nudges it."""
    return lemma10_step(
        id,
        {"positive_h": POSITIVE_H, "eq11": EQ11},
        sympy.Eq(g13 - g23, h31 / h13 * g31 - (1 + h23 / h13) * g23 + extra),
        "h > 0 and Eq. (11) => g13 - g23 = (h31/h13) g31 - (1 + h23/h13) g23",
        L10_QUOTE,
    )


lemma10_eq12a = eq12a_claim()
TWINS[lemma10_eq12a.id] = lambda: eq12a_claim(twin_id(lemma10_eq12a.id), extra=1)
lemma10_eq12b = eq12b_claim()
TWINS[lemma10_eq12b.id] = lambda: eq12b_claim(twin_id(lemma10_eq12b.id), extra=1)


def g12_negative_claim(id: str = "duchi2010.lemma10.proof.g12_negative", *, drop: str = "") -> Claim:
    """Lemma 10, proof: "If g12 >= 0, we thus have that g13 >= 0 and by Eq. (11), g31 >= 0. ... Hence, g12 < 0."
    ``drop`` removes one hypothesis (the twin drops g31 < 0)."""
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


def g23_negative_claim(id: str = "duchi2010.lemma10.proof.g23_negative", *, drop: str = "") -> Claim:
    """Lemma 10, proof: "By identical reasoning, we also have that g23 < 0."  ``drop`` removes one hypothesis."""
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
TWINS[lemma10_g12_negative.id] = lambda: g12_negative_claim(twin_id("duchi2010.lemma10.g12"), drop="g31_negative")
lemma10_g23_negative = g23_negative_claim()
TWINS[lemma10_g23_negative.id] = lambda: g23_negative_claim(twin_id("duchi2010.lemma10.g23"), drop="g31_negative")


def bound1_claim(id: str = "duchi2010.lemma10.proof.bound_cond1", extra: Any = 0) -> Claim:
    """Lemma 10, proof: "g13 - g12 <= (h31/h13) g23 - (1 + h12/h13) g12 = (h31 h12/h23 - h13 - h12) g12/h13".
    ``extra`` < 0 tightens the bound (the twin)."""
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


def bound2_claim(id: str = "duchi2010.lemma10.proof.bound_cond2", extra: Any = 0) -> Claim:
    """Lemma 10, proof: "g13 - g23 <= (h31/h13) g12 - (1 + h23/h13) g23 = (h31 h23/h12 - h13 - h23) g23/h13".
    ``extra`` < 0 tightens the bound (the twin)."""
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
TWINS[lemma10_bound1.id] = lambda: bound1_claim(twin_id("duchi2010.lemma10.bound1"), extra=-1)
lemma10_bound2 = bound2_claim()
TWINS[lemma10_bound2.id] = lambda: bound2_claim(twin_id("duchi2010.lemma10.bound2"), extra=-1)


def sign1_claim(id: str = "duchi2010.lemma10.proof.sign_cond1", slack: Any = 0) -> Claim:
    """Lemma 10, proof: "we have that g13 - g12 < 0 whenever h31 h12/h23 > h13 + h12".  ``slack`` weakens COND 1."""
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


def sign2_claim(id: str = "duchi2010.lemma10.proof.sign_cond2", slack: Any = 0) -> Claim:
    """Lemma 10, proof: "g13 - g23 < 0 whenever h31 h23/h12 > h13 + h23".  ``slack`` weakens COND 2."""
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
TWINS[lemma10_sign1.id] = lambda: sign1_claim(twin_id("duchi2010.lemma10.sign1"), slack=1)
lemma10_sign2 = sign2_claim()
TWINS[lemma10_sign2.id] = lambda: sign2_claim(twin_id("duchi2010.lemma10.sign2"), slack=1)


def cond_form_claim(id: str, which: int, slack: Any = 0) -> Claim:
    """Lemma 10, proof: "which yields a contradiction under CONDITION 1" (resp. 2): the proof's form of
    each condition is the lemma's.  ``slack`` moves the condition (the twin)."""
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
TWINS[lemma10_cond1_form.id] = lambda: cond_form_claim(twin_id("duchi2010.lemma10.cond1_form"), 1, slack=1)
lemma10_cond2_form = cond_form_claim("duchi2010.lemma10.proof.cond2_form", 2)
TWINS[lemma10_cond2_form.id] = lambda: cond_form_claim(twin_id("duchi2010.lemma10.cond2_form"), 2, slack=1)

# the subgradient points of the proof: delta12, delta13, delta23, delta31 and 0 (g0 = phi'(0))
POINTS = [(delta12, g12), (delta13, g13), (delta23, g23), (delta31, g31), (sympy.Integer(0), g0)]
MONOTONE = [sympy.Implies(x > y, gx >= gy) for (x, gx), (y, gy) in itertools.permutations(POINTS, 2)]
IN_A = [delta12 > 0, delta23 > 0]  # a* in A(p) = {a1 > a2 > a3}
DIFFERENCES = [sympy.Eq(delta13, delta12 + delta23), sympy.Eq(delta31, -delta13)]


def contradiction_claim(id: str, which: int, *, slack: Any = 0, drop: str = "") -> Claim:
    """Lemma 10, proof: "Suppose for the sake of contradiction that a* in A(p). ... which yields a contradiction
    under CONDITION 1" (resp. 2).  ``drop`` removes one hypothesis (the twin drops the condition)."""
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


# ---------------------------------------------------------------------------------------
# Section 2.2: "If phi from Eq. (9) is edge-consistent, then phi must be differentiable at 0 with phi'(0) < 0"
# ---------------------------------------------------------------------------------------

A12, A21, DD = sympy.symbols("a12 a21 d", real=True)  # expected weights (h(x) = x) and d = a1 - a2
GM, GP = sympy.symbols("g_minus g_plus", real=True)  # phi'(0-), phi'(0+)
DERIVATIVE_QUOTE = ("If phi from Eq. (9) is edge-consistent, then phi must be differentiable at 0 with phi'(0) < 0. "
                    "This is a consequence of Bartlett et al.'s (2006) analysis of binary classification")


def ramp(x: Any) -> Any:
    """phi(x) = min(1, max(0, 1 - x)): >= 0, non-increasing, continuous, bounded (Eq. (9) and Definition 2), not
    convex; phi'(0-) = 0 and phi'(0+) = -1."""
    return sympy.Min(1, sympy.Max(0, 1 - x))


def ramp_edge_consistent_claim(id: str = "duchi2010.section2_2.ramp_edge_consistent_m2", *, gap: Any = 0) -> Claim:
    """The ramp is edge-consistent on two items (M = 2), with h(x) = x: W(d) = a12 phi(d) + a21 phi(-d).  If
    a12 > a21, A(p) = {d > 0}, W(1) = a21 and every d <= 0 has W(d) >= a12; if a21 > a12, A(p) = {d <= 0},
    W(-1) = a12 and every d > 0 has W(d) >= a21 (a uniform gap; a12 = a21 leaves nothing outside A(p)).
    ``gap`` asks W >= a12 + gap (the twin)."""
    w = A12 * ramp(DD) + A21 * ramp(-DD)
    return implies(
        id,
        hypotheses={"weights": [A12 >= 0, A21 >= 0]},
        conclusion=sympy.And(sympy.Implies(sympy.And(A12 > A21, DD <= 0), w >= A12 + gap),
                             sympy.Implies(sympy.And(A21 > A12, DD > 0), w >= A21 + gap)),
        cite=cite("Section 2.2", DERIVATIVE_QUOTE),
        statement=("phi(x) = min(1, max(0, 1 - x)), h(x) = x, two items: if a12 > a21 then W(d) >= a12 > a21 = W(1) "
                   "for every d = a1 - a2 <= 0 (outside A(p)), and symmetrically; so the ramp is edge-consistent "
                   "for M = 2" + ("" if not gap else f" [twin: W >= a12 + {gap}]")),
    )


def _one_sided_derivatives(phi: Callable[[Fraction], Fraction]) -> tuple[Fraction, Fraction]:
    eps = Fraction(1, 1000)  # the ramp is linear on [-eps, 0] and on [0, eps]
    return (phi(Fraction(0)) - phi(-eps)) / eps, (phi(eps) - phi(Fraction(0))) / eps


def derivative_claim(id: str, *, finding: Finding | None = None) -> Claim:
    """Section 2.2's sentence, as printed (phi from Eq. (9): >= 0, non-increasing), at the ramp, which is
    edge-consistent for M = 2 (duchi2010.section2_2.ramp_edge_consistent_m2): is it differentiable at 0 with
    phi'(0) < 0?  One-sided difference quotients in exact Fractions on the ramp's linear pieces."""
    def phi(x: Fraction) -> Fraction:
        return min(Fraction(1), max(Fraction(0), 1 - x))

    def holds(case: str) -> tuple[bool, str]:
        left, right = _one_sided_derivatives(phi)
        return left == right and right < 0, f"{case}: phi'(0-) = {left}, phi'(0+) = {right}"

    return finite_check(
        id,
        cases=["phi(x) = min(1, max(0, 1 - x))"],
        holds=holds,
        domain="the ramp, an edge-consistent phi of Eq. (9) for M = 2",
        cite=cite("Section 2.2", DERIVATIVE_QUOTE),
        statement="every edge-consistent phi of Eq. (9) (>= 0, non-increasing) is differentiable at 0 with "
                  "phi'(0) < 0; checked at the ramp, edge-consistent for M = 2",
        finding=finding,
    )


def convex_derivative_claim(id: str, *, convex: bool = True) -> Claim:
    """Corrected (Bartlett et al.'s condition needs phi convex): a convex phi (one-sided derivatives g- <= g+ at 0)
    that is not differentiable at 0 with phi'(0) < 0 has, for every a21 > 0, some a12 > a21 with W'(0+) = a12 g+ -
    a21 g- >= 0; W convex is then non-decreasing on [0, oo), so its infimum is reached on d <= 0, outside
    A(p) = {d > 0}: not edge-consistent.  a12 = 2 a21 when g+ >= 0, a12 = a21 g-/g+ when g- < g+ < 0.
    ``convex`` False drops g- <= g+ (the twin)."""
    choice = sympy.Piecewise((2 * A21, GP >= 0), (A21 * GM / GP, True))
    hyps: dict[str, Any] = {
        "not_differentiable_with_negative_slope": [sympy.Or(GM < GP, GP >= 0)],
        "weights": [A21 > 0],
    }
    if convex:
        hyps["convex_at_0"] = [GM <= GP]
    return implies(
        id,
        hypotheses=hyps,
        conclusion=sympy.And(choice > A21, choice * GP - A21 * GM >= 0),
        cite=cite("Section 2.2", DERIVATIVE_QUOTE + " [corrected: for convex phi]"),
        statement=("for convex phi with phi'(0-) = g- <= g+ = phi'(0+), not (g- = g+ < 0): some p on two items "
                   "(a12 > a21) has W'(0+) >= 0, so inf W is attained outside A(p): not edge-consistent"
                   + ("" if convex else " [twin: without g- <= g+]")),
    )


ramp_edge_consistent = ramp_edge_consistent_claim()
TWINS[ramp_edge_consistent.id] = lambda: ramp_edge_consistent_claim(twin_id(ramp_edge_consistent.id),
                                                                    gap=Fraction(1, 10))
derivative_needs_convexity = derivative_claim(
    "duchi2010.section2_2.derivative_at_0",
    finding=Finding(
        what=(
            "Section 2.2 says an edge-consistent phi of Eq. (9) must be differentiable at 0 with phi'(0) < 0, "
            "citing Bartlett et al. (2006); their result is for convex phi, and Eq. (9) only asks phi >= 0 "
            "non-increasing. The ramp min(1, max(0, 1 - x)) is edge-consistent on two items (the binary case the "
            "sentence reduces to) yet has phi'(0-) = 0 != -1 = phi'(0+). For convex phi the sentence holds (the "
            "corrected claim); Section 2.2's results assume convex phi anyway."
        ),
        counterexample=(
            "phi(x) = min(1, max(0, 1 - x)), h(x) = x, M = 2: for a12 > a21, W(1) = a21 < a12 <= W(d) for every "
            "d = a1 - a2 <= 0 (and symmetrically), but phi'(0-) = 0 and phi'(0+) = -1."
        ),
        corrected="duchi2010.section2_2.derivative_at_0.corrected",
        finding_class="hypothesis",
    ),
)
derivative_corrected = convex_derivative_claim(derivative_needs_convexity.finding.corrected)
TWINS[derivative_corrected.id] = lambda: convex_derivative_claim(twin_id(derivative_corrected.id), convex=False)


lemma10_cond1 = contradiction_claim("duchi2010.lemma10.cond1", 1)
TWINS[lemma10_cond1.id] = lambda: contradiction_claim(twin_id(lemma10_cond1.id), 1, drop="cond1")
lemma10_cond2 = contradiction_claim("duchi2010.lemma10.cond2", 2)
TWINS[lemma10_cond2.id] = lambda: contradiction_claim(twin_id(lemma10_cond2.id), 2, drop="cond2")


# ---------------------------------------------------------------------------------------
# The minimiser of W lies outside A(p) = {a1 > a2 > a3}: decided exactly (calibration method (S))
# ---------------------------------------------------------------------------------------

PHIS = ("exp", "logistic", "squared_hinge")
PHI_TEXT = {"exp": "exp(-({x}))", "logistic": "log(1 + exp(-({x})))", "squared_hinge": "Max(0, 1 - ({x}))**2"}
# cl A(p) = {d12 >= 0, d23 >= 0} and the two half-planes that cover the rest of the (d12, d23) plane
A_REGIONS = {"regions": [["u1 >= 0", "u2 >= 0"], ["u1 <= 0"], ["u2 <= 0"]],
             "names": ["cl A(p)", "d12 <= 0", "d23 <= 0"]}


def w_text(h: Mapping[str, Fraction], phi_name: str, shift: Fraction) -> str:
    """W = h12 f(d12) + h13 f(d12 + d23) + h23 f(d23) + h31 f(-d12 - d23), f(x) = phi(x - shift), in
    (u1, u2) = (d12, d23) = (a1 - a2, a2 - a3): W depends on the scores only through differences."""
    if phi_name not in PHI_TEXT:
        raise ValueError(f"phi={phi_name!r}: expected one of {PHIS}")

    def f(x: str) -> str:
        return PHI_TEXT[phi_name].format(x=f"{x} - {shift}" if shift else x)

    args = (("h12", "u1"), ("h13", "u1 + u2"), ("h23", "u2"), ("h31", "-u1 - u2"))
    return " + ".join(f"{h[k]}*({f(a)})" for k, a in args if h[k])


def minimiser_claim(
    id: str, phi_name: str, h: Mapping[str, Fraction], shift: Fraction, citation: Citation, what: str
) -> Claim:
    """Theorems 11 and 12: no minimiser of W lies in cl A(p), and no minimising sequence either:
    inf over cl A(p) of W > inf W.  Decided exactly as a one-label calibration problem: psi_1 = W,
    the link's regions cl A(p) and the two half-planes covering the rest, and a loss only cl A(p)
    pays (calibrated iff the infimum over cl A(p) exceeds the global one)."""
    return calibrated(
        id,
        loss=[[1, 0, 0]],
        surrogate={"dim": 2, "per_label": [w_text(h, phi_name, shift)]},
        link=A_REGIONS,
        cite=citation,
        statement=f"{what}, phi = {phi_name}: the minimiser of W lies outside A(p) = {{a1 > a2 > a3}} "
                  "(inf of W over cl A(p) > inf W)",
    )


def minimiser_claims(theorem: int, h: Mapping[str, Fraction], shift: Fraction, what: str, *,
                     twins: dict[str, Callable[[], Claim]], twin_expect: dict[str, str],
                     twin_h: Mapping[str, Fraction], twin_citation: Citation, twin_what: str) -> list[Claim]:
    """Theorem 11 or 12: one claim per phi in PHIS, each with its twin (an instance where COND 1 fails,
    so a minimiser of W is in A(p)) declared in ``twins``: the twin is refuted with that minimiser."""
    claims = [minimiser_claim(f"duchi2010.theorem{theorem}.minimiser_outside_a.{name}", name, h, shift,
                              cite(f"Theorem {theorem}", NOT_EDGE_CONSISTENT), what) for name in PHIS]
    for claim, name in zip(claims, PHIS, strict=True):
        twins[claim.id] = lambda n=name: minimiser_claim(
            twin_id(f"duchi2010.theorem{theorem}.minimiser_outside_a.{n}"), n, twin_h, shift, twin_citation, twin_what)
        twin_expect[claim.id] = "refuted"
    return claims


# ---------------------------------------------------------------------------------------
# Theorem 11's construction
# ---------------------------------------------------------------------------------------

b12, b13, b23, b31 = sympy.symbols("a12_G1 a13_G1 a23_G2 a31_G2", real=True)  # a_ij^G


def theorem11_graphs(w12: Any, w13: Any, w23: Any, w31: Any) -> list[Weights]:
    """G1 = {1 -> 2, 1 -> 3}, G2 = {2 -> 3, 3 -> 1}."""
    return [{(1, 2): w12, (1, 3): w13}, {(2, 3): w23, (3, 1): w31}]


def theorem11_weights() -> Weights:
    return expected_weights(theorem11_graphs(b12, b13, b23, b31), [HALF, HALF])


def theorem11_low_noise_claim(
    id: str, *, a31_bound: bool, a31_slack: Any = 0, finding: Finding | None = None
) -> Claim:
    """Theorem 11, proof: "a23^G2 <= (a13^G1 - a12^G1)/2 < a13^G1 - a12^G1 implies that G~ is a DAG satisfying
    the low-noise condition".  ``a31_bound`` adds the bound on a31 the corrected statement needs."""
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
        finding_class="proof",
    ),
)
theorem11_low_noise_corrected = theorem11_low_noise_claim(theorem11_low_noise.finding.corrected, a31_bound=True)
TWINS[theorem11_low_noise_corrected.id] = lambda: theorem11_low_noise_claim(
    twin_id(theorem11_low_noise.id), a31_bound=True, a31_slack=Fraction(1, 10)
)

H12, H13, H31, H23, HEPS, EPS = sympy.symbols("H12 H13 H31 H23 H_eps eps", real=True)  # h(a12^G1), ..., h(eps)
# h only through its values: positive at positive arguments, monotone (every continuous increasing h, h(0) = 0)
H_INCREASING_WITH_H0_ZERO = [H12 > 0, H13 > 0, H31 > 0, H23 > 0, HEPS > 0, sympy.Implies(b23 <= EPS, H23 <= HEPS)]


def theorem11_cond1_claim(id: str = "duchi2010.theorem11.cond1", *, eps_factor: Any = 2) -> Claim:
    """Theorem 11, proof: "Then we have h23 = h(a23^G2)/2 <= h(eps)/2 < h31 h12/(h13 + h12). Hence CONDITION 1 of
    Lemma 10 is satisfied".  ``eps_factor`` 4 allows a larger h(eps) (the twin)."""
    h_12, h_13, h_31, h_23 = H12 / 2, H13 / 2, H31 / 2, H23 / 2  # h_ij = sum_G h(a_ij^G) p_G, h(0) = 0
    return implies(
        id,
        hypotheses={
            "weights": [b13 > b12, b12 > 0, b13 > b31, b31 > 0],
            "construction": [EPS > 0, sympy.Eq(b23, sympy.Min(EPS, (b13 - b12) / 2))],
            "h_increasing_with_h0_zero": H_INCREASING_WITH_H0_ZERO,
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
TWINS[theorem11_cond1.id] = lambda: theorem11_cond1_claim(twin_id(theorem11_cond1.id), eps_factor=4)

THEOREM11_INSTANCE = {"a12_G1": Fraction(1), "a13_G1": Fraction(4), "a31_G2": Fraction(1), "eps": Fraction(1, 10)}


def theorem11_instance_weights(w: Mapping[str, Fraction]) -> tuple[Fraction, list[Weights], Weights]:
    """a23^G2 = min(eps, (a13 - a12)/2), the two graphs, and their expected weights by symcal.ranking."""
    from symcal.ranking.preference import PreferenceDistribution, PreferenceGraph
    from symcal.ranking.preference import expected_weights as ew

    w12, w13, w31, eps = w["a12_G1"], w["a13_G1"], w["a31_G2"], w["eps"]
    w23 = min(eps, (w13 - w12) / 2)
    g1, g2 = theorem11_graphs(w12, w13, w23, w31)
    dist = PreferenceDistribution([(PreferenceGraph(3, g1), Fraction(1, 2)), (PreferenceGraph(3, g2), Fraction(1, 2))])
    return w23, [g1, g2], ew(dist)


def theorem11_instance_holds(w: Mapping[str, Fraction]) -> tuple[bool, str]:
    """The construction with h(x) = x on exact weights: hypotheses, low noise, COND 1
    (expected weights and low noise by symcal.ranking, cross-checked locally)."""
    from symcal.ranking.difference import difference_cycle, is_low_noise

    w12, w13, w31, eps = w["a12_G1"], w["a13_G1"], w["a31_G2"], w["eps"]
    h12_, h13_, h31_ = w12 / 2, w13 / 2, w31 / 2  # h(x) = x: h_ij = sum_G h(a_ij^G) p_G
    eps_ok = eps > 0 and eps < 2 * h31_ * h12_ / (h13_ + h12_)
    w23, graphs, a = theorem11_instance_weights(w)
    local = expected_weights(graphs, [Fraction(1, 2)] * 2)
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


def theorem11_instance_formula(w: Mapping[str, Fraction]) -> tuple[list[Any], dict[Any, Any]]:
    """The construction with h(x) = x over symbols bound to the instance's weights (a12^G1, a13^G1, a31^G2,
    eps) and the graphs' probabilities p_G1 = p_G2 = 1/2: a23^G2 = min(eps, (a13 - a12)/2), the expected
    weights a_ij = sum_G a_ij^G p_G, the printed hypotheses, the choice of eps, the DAG and low-noise
    conditions on the difference graph, and COND 1 (h_ij = sum_G h(a_ij^G) p_G = a_ij); and, as a
    cross-check, symcal.ranking's expected weights and its low-noise / DAG verdicts (1 or 0) equal them."""
    from symcal.ranking.difference import difference_cycle, is_low_noise

    w12, w13, w31, eps = (sympy.Symbol(n) for n in ("a12_G1", "a13_G1", "a31_G2", "eps"))
    p1, p2 = sympy.Symbol("p_G1"), sympy.Symbol("p_G2")
    w23 = sympy.Min(eps, (w13 - w12) / 2)
    a = expected_weights(theorem11_graphs(w12, w13, w23, w31), [p1, p2])
    dd = weights_diff(a)
    h12_, h13_, h31_, h23_ = a[(1, 2)], a[(1, 3)], a[(3, 1)], a[(2, 3)]  # h(x) = x
    low, dag = sympy.And(*low_noise_relations(dd, 3)), acyclic(dd, 3)
    conds: list[Any] = [
        w13 > w12, w12 > 0, w13 > w31, w31 > 0,  # the printed hypotheses
        eps > 0, eps < 2 * h31_ * h12_ / (h13_ + h12_),  # the choice of eps: h(eps) < 2 h31 h12 / (h13 + h12)
        dag, low, h23_ < h31_ * h12_ / (h13_ + h12_),  # a DAG, low noise, COND 1
    ]
    _, graphs, lib = theorem11_instance_weights(w)
    lib_sym = {e: sympy.Symbol(f"library_a_{e[0]}_{e[1]}") for e in lib}
    low_sym, dag_sym = sympy.Symbol("library_low_noise"), sympy.Symbol("library_dag")
    conds += [sympy.Eq(s, a.get(e, 0)) for e, s in lib_sym.items()]
    conds += [sympy.Eq(low_sym, sympy.Piecewise((1, low), (0, True))),
              sympy.Eq(dag_sym, sympy.Piecewise((1, dag), (0, True)))]
    values: dict[Any, Any] = {w12: w["a12_G1"], w13: w["a13_G1"], w31: w["a31_G2"], eps: w["eps"],
                              p1: Fraction(1, 2), p2: Fraction(1, 2)}
    values.update({s: lib[e] for e, s in lib_sym.items()})
    values.update({low_sym: int(bool(is_low_noise(lib, 3))), dag_sym: int(difference_cycle(lib, 3) is None)})
    return conds, values


def theorem11_instance_claim(
    id: str = "duchi2010.theorem11.instance", instance: Mapping[str, Fraction] = THEOREM11_INSTANCE
) -> Claim:
    """Theorem 11: "Even in the low-noise setting, ..." -- one exact instance of the construction, stated
    over its weights (``theorem11_instance_formula``, which the kernel re-checks).
    The twin moves a31^G2 to 3, which breaks low noise."""
    return finite_check(
        id,
        cases=[dict(instance)],
        formula=theorem11_instance_formula,
        describe=lambda w: {k: v for k, v in w.items()},
        domain="one exact instance of Theorem 11's construction with h(x) = x",
        cite=cite("Theorem 11", NOT_EDGE_CONSISTENT),
        statement=(
            "a12^G1 = 1, a13^G1 = 4, a31^G2 = 1, eps = 1/10, h(x) = x: the construction is low-noise, "
            "a DAG, and satisfies COND 1"
        ),
    )


theorem11_instance = theorem11_instance_claim()
TWINS[theorem11_instance.id] = lambda: theorem11_instance_claim(
    twin_id(theorem11_instance.id), {**THEOREM11_INSTANCE, "a31_G2": Fraction(3)}
)


def theorem11_h(instance: Mapping[str, Fraction] = THEOREM11_INSTANCE) -> dict[str, Fraction]:
    w12, w13, w31, eps = (instance[k] for k in ("a12_G1", "a13_G1", "a31_G2", "eps"))
    return {"h12": w12 / 2, "h13": w13 / 2, "h23": min(eps, (w13 - w12) / 2) / 2, "h31": w31 / 2}


# the twins: an instance where COND 1 fails, so the minimiser of W is in A(p)
NO_MINIMISER_OUTSIDE = {"h12": Fraction(1, 2), "h13": Fraction(2), "h23": Fraction(2), "h31": Fraction(1, 20)}

theorem11_minimiser = minimiser_claims(
    11, theorem11_h(), Fraction(0),
    "Theorem 11's instance (a12^G1 = 1, a13^G1 = 4, a31^G2 = 1, a23^G2 = 1/10, h(x) = x)",
    twins=TWINS, twin_expect=TWIN_EXPECT, twin_h=NO_MINIMISER_OUTSIDE, twin_citation=theorem11_instance.citation,
    twin_what="an instance where COND 1 fails",
)
