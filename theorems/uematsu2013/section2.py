"""Section 2 of Uematsu & Lee (2013): bipartite ranking, regression and classification."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sympy

from symcal import identity, implies
from symcal.claims.core import Claim

from .common import P, cite, sym, twin_id


def regression_claim(id: str = "uematsu2013.section2.regression_identity", *, two: Any = 2) -> Claim:
    """Section 2: "E[Y|x] = P(Y = 1|x) - P(Y = -1|x), which can be expressed as
    1 - 2{1 + p_1(x)/(1 - p_1(x))}^{-1}" (``two`` nudges the constant for the twin)."""
    p1 = P(1)
    return identity(
        id,
        p1 - (1 - p1),
        1 - two / (1 + p1 / (1 - p1)),
        conditions=[p1 >= 0, p1 < 1],
        cite=cite("Section 2", "E[Y|x] = P(Y=1|x) - P(Y=-1|x) ... 1 - 2{1 + p1(x)/(1 - p1(x))}^{-1}"),
        statement="E[Y|x] = p_1 - (1 - p_1) equals 1 - 2{1 + p_1/(1 - p_1)}^{-1}",
    )



def theorem1_claim(id: str = "uematsu2013.theorem1", *, flip: bool = False) -> Claim:
    """Theorem 1: "Let f_0^*(x) = g_+(x)/g_-(x). For any ranking function f, R_0(f_0^*) <= R_0(f)".
    On a finite space R_0(f) = (1/2) sum_a g_+(a) g_-(a) + sum over pairs {a, b} of a term fixed by
    how f orders a and b; this two-point lemma shows f_0^*'s order is the cheapest at every pair.
    ``flip`` ranks by g_-/g_+ instead (the twin)."""
    gpa, gma, gpb, gmb = (sym(n, real=True) for n in ("gp_a", "gm_a", "gp_b", "gm_b"))
    above, below = gpb * gma, gpa * gmb  # R_0 mass of the pair when f puts a above / below b
    tie = (above + below) / 2
    ra, rb = (gma / gpa, gmb / gpb) if flip else (gpa / gma, gpb / gmb)  # f_0^*(a), f_0^*(b)
    cheapest = sympy.And(
        sympy.Implies(ra > rb, sympy.And(above <= below, above <= tie)),
        sympy.Implies(sympy.Eq(ra, rb), sympy.And(tie <= above, tie <= below)),
        sympy.Implies(ra < rb, sympy.And(below <= above, below <= tie)),
    )
    return implies(
        id,
        hypotheses={"positive_pmfs": [gpa > 0, gma > 0, gpb > 0, gmb > 0]},
        conclusion=cheapest,
        cite=cite("Theorem 1", "Let f_0^*(x) = g_+(x)/g_-(x). For any ranking function f, R_0(f_0^*) <= R_0(f)"),
        statement="at every pair of points a, b of a finite instance space (0 < g_+, g_- as assumed), the order "
        "f_0^* = g_+/g_- gives the pair is the cheapest of the three (a above, below or tied with b)",
        scope="every finite instance space, any number of points: R_0(f) is (1/2) sum_a g_+(a) g_-(a) plus a "
        "sum of such pair terms, so f_0^* attains the minimum of every term at once",
    )


def odds_claim(id: str = "uematsu2013.section2.odds_proportional_to_likelihood_ratio", *, prior: bool = True) -> Claim:
    """Section 2: "the optimal ranking function can be represented by p_1(x)/(1 - p_1(x)), which is
    proportional to g_+(x)/g_-(x)"; by Bayes' rule p_1 = pi_+ g_+ / (pi_+ g_+ + pi_- g_-), and the
    constant is pi_+/pi_- (``prior=False`` drops it: the twin)."""
    gp, gm, pp, pm = (sym(n, positive=True) for n in ("g_+", "g_-", "pi_+", "pi_-"))
    p1 = pp * gp / (pp * gp + pm * gm)
    return identity(
        id,
        p1 / (1 - p1),
        (pp / pm if prior else 1) * gp / gm,
        cite=cite("Section 2", "p_1(x)/(1 - p_1(x)), which is proportional to g_+(x)/g_-(x)"),
        statement="with p_1 = pi_+ g_+/(pi_+ g_+ + pi_- g_-) (Bayes' rule), p_1/(1 - p_1) = (pi_+/pi_-) g_+/g_-",
    )


@functools.cache
def _theorem2_facts(convex: int) -> Any:
    """l' < 0, convex * l'' > 0 (in t = e^{-s}) and l'(0) < 0 for l(s) = e^{-s} and log(1 + e^{-s}), the derivatives
    taken and simplified by sympy when the claim is checked or shown, not when the library is loaded."""
    s, t = sym("s", real=True), sym("t_s", real=True)  # t_s = e^{-s} > 0 (a hypothesis, for z3)
    t_pos = sym("t_s", positive=True)  # exp(-(-log t)) = t needs t > 0 for sympy
    facts = []
    for loss in (sympy.exp(-s), sympy.log(1 + sympy.exp(-s))):
        d1, d2 = sympy.diff(loss, s), sympy.diff(loss, s, 2)
        in_t = [sympy.simplify(d.subs(s, -sympy.log(t_pos)).subs(t_pos, t)) for d in (d1, d2)]
        if any(d.has(sympy.exp, sympy.log) for d in in_t):
            raise ValueError(f"the derivatives of {loss} are not rational in t = e^(-s): {in_t}")
        facts += [in_t[0] < 0, convex * in_t[1] > 0, d1.subs(s, 0) < 0]
    return sympy.And(*facts)


def theorem2_losses_claim(id: str = "uematsu2013.section2_1.exp_logistic_meet_theorem2", *, convex: int = 1) -> Claim:
    """Section 2.1: "l(s) = exp(-s) and l(s) = log(1 + exp(-s)) satisfy the conditions above" (convex,
    non-increasing, differentiable, l'(0) < 0).  The derivatives are taken by sympy and written in
    t = e^{-s} > 0, so z3 sees rational functions; ``convex=-1`` asks for l'' < 0 (the twin)."""
    t = sym("t_s", real=True)  # t_s = e^{-s} > 0 (a hypothesis, for z3)
    return implies(
        id,
        hypotheses={"t_is_exp_minus_s": [t > 0]},
        conclusion=lambda m: _theorem2_facts(convex),
        cite=cite("Section 2.1", "l(s) = exp(-s) and l(s) = log(1 + exp(-s)) satisfy the conditions above"),
        statement="for l(s) = e^{-s} and log(1 + e^{-s}): l' < 0 and l'' > 0 at every s (derivatives finite "
        "everywhere, so l is differentiable, convex and non-increasing) and l'(0) = -1, -1/2 < 0",
    )


def hinge_claim(id: str = "uematsu2013.section2_1.hinge_not_differentiable", *, right: int = 0) -> Claim:
    """Section 2.1: "l(s) = (1 - s)_+, the hinge loss in support vector ranking has a singularity point
    at s = 1 and does not satisfy the conditions": its one-sided difference quotients at 1 are -1 and
    0 (``right`` is the right one claimed: 0, or -1 for the twin)."""
    h = sym("h", real=True)
    quotient = (sympy.Max(0, 1 - (1 + h)) - sympy.Max(0, 1 - 1)) / h
    return implies(
        id,
        hypotheses={},
        conclusion=sympy.And(
            sympy.Implies(h < 0, sympy.Eq(quotient, -1)), sympy.Implies(h > 0, sympy.Eq(quotient, right))
        ),
        cite=cite("Section 2.1", "l(s) = (1 - s)_+ ... has a singularity point at s = 1 and does not satisfy the "
                                 "conditions"),
        statement="the difference quotients of (1 - s)_+ at s = 1 are -1 for every h < 0 and 0 for every h > 0: "
        "the one-sided derivatives differ, so the hinge is not differentiable there",
    )


theorem1 = theorem1_claim()
odds = odds_claim()
regression = regression_claim()
theorem2_losses = theorem2_losses_claim()
hinge_not_differentiable = hinge_claim()

TWINS: dict[str, Callable[[], Claim]] = {
    theorem1.id: lambda: theorem1_claim(twin_id(theorem1.id), flip=True),
    odds.id: lambda: odds_claim(twin_id(odds.id), prior=False),
    regression.id: lambda: regression_claim(twin_id("uematsu2013.s2"), two=3),
    theorem2_losses.id: lambda: theorem2_losses_claim(twin_id(theorem2_losses.id), convex=-1),
    hinge_not_differentiable.id: lambda: hinge_claim(twin_id(hinge_not_differentiable.id), right=-1),
}
