"""Section 2.3 (Margin-based inconsistency): Theorem 12's construction -- low noise (with
equality), COND 1 at the printed p, and numeric confirmation for phi~(x) = phi(x - 1)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies
from symcal.claims.core import Claim

from .common import (
    Weights,
    acyclic,
    cite,
    expected_weights,
    low_noise_relations,
    twin_id,
    weights_diff,
)
from .section2_2 import PHI, derivative, minimiser_claims, squared_hinge_polynomial, x1, x2, x3

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}

C0 = sympy.Symbol("c0", real=True)  # the constant weight h^-1(c)
THEOREM12_P = (Fraction(1, 4), Fraction(1, 100), Fraction(1, 2), Fraction(6, 25))
# a distribution that is low-noise but not tightly so: the twins of the low-noise claims
THEOREM12_TWIN_P = (Fraction(1, 4), Fraction(1, 100), Fraction(49, 100), Fraction(1, 4))


def theorem12_graphs(w: Any) -> list[Weights]:
    """G1 = {1 -> 2}, G2 = {2 -> 3}, G3 = {1 -> 3}, G4 = {3 -> 1}, each edge of weight h^-1(c)."""
    return [{(1, 2): w}, {(2, 3): w}, {(1, 3): w}, {(3, 1): w}]


def theorem12_weights(p: tuple[Fraction, ...]) -> Weights:
    return expected_weights(theorem12_graphs(C0), [sympy.Rational(x.numerator, x.denominator) for x in p])


C = sympy.Symbol("c", real=True)  # the margin c = h(h^-1(c)) at which phi is differentiable
P_G = sympy.symbols("p_G1:5", real=True)


def theorem12_w_claim(id: str = "duchi2010.theorem12.w_form", *, phi: Any = PHI, order: tuple[int, ...] = (0, 1, 2, 3)
                      ) -> Claim:
    """Theorem 12, proof: "In this setting, W(p, a) = p_G1 phi~(a1 - a2) + p_G2 phi~(a2 - a3) + p_G3 phi~(a1 - a3)
    + p_G4 phi~(a3 - a1), for phi~(x) = phi(x - c). Notably, ... phi~'(0) = phi'(-c)".  ``order`` permutes the
    printed p_G (the twin swaps p_G3 and p_G4, at phi(x) = (1 - x)^2)."""
    h, w0 = sympy.Function("h"), sympy.Symbol("w0", positive=True)  # w0 = h^-1(c): every graph's one edge
    al = {1: x1, 2: x2, 3: x3}
    w = sum((pg * sum((phi(al[i] - al[j] - h(wt)) for (i, j), wt in g.items()), sympy.Integer(0))  # Eq. (13)
             for g, pg in zip(theorem12_graphs(w0), P_G, strict=True)), sympy.Integer(0)).subs(h(w0), C)

    def phi_tilde(x: Any) -> Any:
        return phi(x - C)

    printed = sum((P_G[k] * phi_tilde(al[i] - al[j]) for k, (i, j) in zip(order, [(1, 2), (2, 3), (1, 3), (3, 1)],
                                                                            strict=True)), sympy.Integer(0))
    return identity(
        id, sympy.Matrix([w, derivative(phi_tilde, 0)]), sympy.Matrix([printed, derivative(phi, -C)]),
        cite=cite("Theorem 12, proof", "W(p, a) = p_G1 phi~(a1 - a2) + p_G2 phi~(a2 - a3) + p_G3 phi~(a1 - a3) "
                                       "+ p_G4 phi~(a3 - a1), for phi~(x) = phi(x - c). Notably, ... "
                                       "phi~'(0) = phi'(-c)"),
        statement=("for every phi (an undefined function), every h and real p_G, c: Eq. (13) on the four one-edge "
                   "graphs G1 = {1->2}, G2 = {2->3}, G3 = {1->3}, G4 = {3->1} of weight h^-1(c) gives the printed W "
                   "with phi~(x) = phi(x - c), and phi~'(0) = phi'(-c)"
                   + ("" if order == (0, 1, 2, 3) else f" [twin: p_G in the order {order}, at phi(x) = (1 - x)^2]")),
    )


theorem12_w = theorem12_w_claim()
TWINS[theorem12_w.id] = lambda: theorem12_w_claim(twin_id(theorem12_w.id), phi=squared_hinge_polynomial,
                                                  order=(0, 1, 3, 2))


def theorem12_low_noise_claim(
    id: str = "duchi2010.theorem12.low_noise", p: tuple[Fraction, ...] = THEOREM12_P
) -> Claim:
    """Theorem 12, proof: "a13 - a31 = h^-1(c)(p_G3 - p_G4) >= h^-1(c)(p_G1 + p_G2) = a12 + a23 > 0, so G~ is a
    DAG satisfying the low-noise condition".  The twin moves p."""
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
) -> Claim:
    """Theorem 12, proof: "a13 - a31 = h^-1(c)(p_G3 - p_G4) >= h^-1(c)(p_G1 + p_G2) = a12 + a23" holds with
    equality at the printed p.  The twin moves p."""
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


def theorem12_cond1_formula(p: tuple[Fraction, ...]) -> tuple[list[Any], dict[sympy.Symbol, Fraction]]:
    """The same statement over p_G1..p_G4 (Theorem 12's printed probabilities as the values)."""
    pg = [sympy.Symbol(f"p_G{t}") for t in range(1, 5)]
    p1, p2, p3, p4 = pg
    conds = [sympy.Eq(sympy.Add(*pg), 1), *[v >= 0 for v in pg], p2 < p4 * p1 / (p3 + p1)]
    return conds, dict(zip(pg, p, strict=True))


def theorem12_cond1_claim(id: str = "duchi2010.theorem12.cond1", p: tuple[Fraction, ...] = THEOREM12_P) -> Claim:
    """Theorem 12, proof: "However, p_G2 < p_G4 p_G1/(p_G3 + p_G1)."  The twin moves p.  Stated over the
    symbols p_G1..p_G4 (``theorem12_cond1_formula``), which the kernel re-checks."""
    return finite_check(
        id,
        cases=[tuple(p)],
        formula=theorem12_cond1_formula,
        describe=lambda q: {f"p_G{t + 1}": v for t, v in enumerate(q)},
        domain="Theorem 12's probability vector (exact)",
        cite=cite("Theorem 12, proof", "However, p_G2 < p_G4 p_G1/(p_G3 + p_G1)."),
        statement=(
            "p = (1/4, 1/100, 1/2, 6/25) is a probability vector with "
            "p_G2 < p_G4 p_G1/(p_G3 + p_G1) (COND 1 with h_ij = p_G)"
        ),
    )


theorem12_low_noise = theorem12_low_noise_claim()
TWINS[theorem12_low_noise.id] = lambda: theorem12_low_noise_claim(twin_id(theorem12_low_noise.id), THEOREM12_TWIN_P)
theorem12_tight = theorem12_tight_claim()
TWINS[theorem12_tight.id] = lambda: theorem12_tight_claim(twin_id("duchi2010.theorem12.tight"), THEOREM12_TWIN_P)
theorem12_cond1 = theorem12_cond1_claim()
TWINS[theorem12_cond1.id] = lambda: theorem12_cond1_claim(
    twin_id(theorem12_cond1.id), (Fraction(1, 4), Fraction(1, 10), Fraction(1, 2), Fraction(3, 20))
)


# Theorem 12's printed weights: a_12^G1 = a_13^G2 = a_23^G3 = a_31^G4 = h^-1(c)
PRINTED_WEIGHTS = (((1, 2), 1), ((1, 3), 2), ((2, 3), 3), ((3, 1), 4))
GRAPH_WEIGHTS = (((1, 2), 1), ((2, 3), 2), ((1, 3), 3), ((3, 1), 4))  # each graph's own edge


def theorem12_weight_names_claim(id: str, assignments: tuple[tuple[tuple[int, int], int], ...], *,
                                 finding: Finding | None = None) -> Claim:
    """Theorem 12, proof: each weight a_ij^Gk the proof sets to h^-1(c) names an edge (i -> j) of Gk, for
    G1 = {1 -> 2}, G2 = {2 -> 3}, G3 = {1 -> 3}, G4 = {3 -> 1} (all four weights: the whole domain)."""
    graphs = theorem12_graphs(1)

    def holds(case: tuple[tuple[int, int], int]) -> tuple[bool, str]:
        (i, j), k = case
        edges = sorted(graphs[k - 1])
        return (i, j) in graphs[k - 1], f"a_{i}{j}^G{k}: G{k} has the edge(s) {edges}"

    names = ", ".join(f"a_{i}{j}^G{k}" for (i, j), k in assignments)
    return finite_check(
        id,
        cases=list(assignments),
        holds=holds,
        domain="the four weights the proof sets to h^-1(c)",
        cite=cite("Theorem 12, proof", "choose constant edge weights a_12^G1 = a_13^G2 = a_23^G3 = a_31^G4 = "
                                       "h^-1(c) > 0"
                  + ("" if assignments == PRINTED_WEIGHTS else f" [corrected: {names}]")),
        statement=f"G1 = {{1->2}}, G2 = {{2->3}}, G3 = {{1->3}}, G4 = {{3->1}}: each of {names} is the weight of an "
                  "edge of its graph",
        finding=finding,
    )


theorem12_weight_names = theorem12_weight_names_claim(
    "duchi2010.theorem12.weight_names", PRINTED_WEIGHTS,
    finding=Finding(
        what=(
            "Theorem 12's proof sets a_12^G1 = a_13^G2 = a_23^G3 = a_31^G4 = h^-1(c), but G2 = {2 -> 3} and "
            "G3 = {1 -> 3}: a_13^G2 and a_23^G3 weigh edges their graphs do not have, and the edges 2 -> 3 of G2 "
            "and 1 -> 3 of G3 get no weight. Meant: a_23^G2 and a_13^G3 (as the proof's W and "
            "a13 - a31 = h^-1(c)(p_G3 - p_G4) use them); the construction is unaffected."
        ),
        counterexample="a_13^G2: G2 = {2 -> 3} has no edge 1 -> 3 (likewise a_23^G3: G3 = {1 -> 3}).",
        corrected="duchi2010.theorem12.weight_names.corrected",
        finding_class="clarification",
    ),
)
theorem12_weight_names_corrected = theorem12_weight_names_claim(theorem12_weight_names.finding.corrected,
                                                                GRAPH_WEIGHTS)
TWINS[theorem12_weight_names_corrected.id] = lambda: theorem12_weight_names_claim(
    twin_id(theorem12_weight_names_corrected.id), (((1, 2), 1), ((2, 3), 2), ((1, 3), 3), ((1, 3), 4)))


def theorem12_h(p: tuple[Fraction, ...] = THEOREM12_P) -> dict[str, Fraction]:
    return {"h12": p[0], "h23": p[1], "h13": p[2], "h31": p[3]}  # W = sum_G p_G phi~(edge of G)


THEOREM12_COND1_FAILS = (Fraction(3, 10), Fraction(3, 10), Fraction(7, 20), Fraction(1, 20))  # the numeric twins

theorem12_minimiser = minimiser_claims(
    12, theorem12_h(), Fraction(1), "Theorem 12's instance (p = (.25, .01, .5, .24), phi~(x) = phi(x - 1))",
    twins=TWINS, twin_expect=TWIN_EXPECT, twin_h=theorem12_h(THEOREM12_COND1_FAILS),
    twin_citation=theorem12_cond1.citation, twin_what="p = (.3, .3, .35, .05)",
)
