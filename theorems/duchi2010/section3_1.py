"""Section 3.1 (Relationship to prior work): Cossock-Zhang scores are low-noise; with G~ =
{1 -> 2, 1 -> 3} the loss is indifferent to the order of 2 and 3; and the order-preserving
example (printed weights, w2 >= 2, no fixed w2 works)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, identity, implies
from symcal.claims.core import Claim

from .common import (
    HALF,
    Weights,
    alpha,
    cite,
    conditional_risk,
    expected_weights,
    low_noise_relations,
    risk_eq8,
    symbolic_weights,
    twin_id,
    weights_diff,
)

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}

TWO_THIRDS = sympy.Rational(2, 3)


@functools.cache
def ysym(i: int) -> sympy.Symbol:
    return sympy.Symbol(f"y_{i}", real=True)


def cossock_zhang_claim(
    id: str = "duchi2010.section3_1.cossock_zhang", *, shift: Any = 0, sizes: tuple[int, int] = (3, 8)
) -> Claim:
    """Section 3.1: "we can construct a graph G = ({x_i, x_j}, {(i -> j)}) and set a_ij^G = y_i - y_j. ... G~
    satisfies the low-noise condition".  ``shift`` moves every weight (the twin)."""

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
TWINS[cossock_zhang.id] = lambda: cossock_zhang_claim(
    twin_id(cossock_zhang.id), shift=Fraction(-1, 10), sizes=(3, 3)
)



def printed_penalty_claim(id: str = "duchi2010.section3_1.cossock_zhang.printed_penalty", *,
                          finding: Finding | None = None) -> Claim:
    """Section 3.1: "for every observed pair of results and scores <(x_i, y_i), (x_j, y_j)>, we can construct a graph
    G = ({x_i, x_j}, {(i -> j)}) and set a_ij^G = y_i - y_j", read against Section 2's standing assumption "a set of
    non-negative penalties a_ij^G"."""
    y_i, y_j = ysym(1), ysym(2)
    return implies(
        id, hypotheses={}, conclusion=y_i - y_j >= 0,
        cite=cite("Section 3.1", "for every observed pair of results and scores <(x_i, y_i), (x_j, y_j)>, we can "
                                 "construct a graph G = ({x_i, x_j}, {(i -> j)}) and set a_ij^G = y_i - y_j"),
        statement=("for every observed pair of scores (y_i, y_j), the penalty a_ij^G = y_i - y_j of the one-edge graph "
                   "i -> j is non-negative, as Section 2 assumes of every penalty"),
        finding=finding,
    )


def oriented_average_claim(id: str, *, draws: int = 3, shift: Any = 0, sizes: tuple[int, int] = (3, 4)) -> Claim:
    """Section 3.1: "Then in the limit, we have a_ij = y~_i - y~_j, where y~_i is the true score of item x_i, and
    clearly a_ik = a_ij + a_jk so that G~ satisfies the low-noise condition", with each observed pair oriented from
    its higher score.  ``shift`` moves every penalty (the twin)."""
    y = [[sympy.Symbol(f"y{s}_{i}", real=True) for i in range(1, 9)] for s in range(draws)]  # draw s, item i

    def conclusion(m: int) -> Any:
        penalty = {(s, i, j): sympy.Max(y[s][i - 1] - y[s][j - 1] - shift, 0) for s in range(draws)
                   for i in range(1, m + 1) for j in range(1, m + 1) if i != j}  # edge i -> j iff y_i > y_j
        a = {(i, j): sum(penalty[s, i, j] for s in range(draws)) / draws
             for i in range(1, m + 1) for j in range(1, m + 1) if i != j}
        mean = [sum(y[s][i] for s in range(draws)) / draws for i in range(m)]
        dd = weights_diff(a)
        return sympy.And(*[x >= 0 for x in penalty.values()], *low_noise_relations(dd, m),
                         *[sympy.Eq(dd(i, j), mean[i - 1] - mean[j - 1]) for i in range(1, m + 1)
                           for j in range(i + 1, m + 1)])

    return implies(
        id, hypotheses={}, conclusion=conclusion,
        cite=cite("Section 3.1", "Then in the limit, we have a_ij = y~_i - y~_j, where y~_i is the true score of item "
                                 "x_i, and clearly a_ik = a_ij + a_jk so that G~ satisfies the low-noise condition "
                                 "[corrected: each observed pair oriented from its higher score]"),
        statement=(f"for {draws} equally likely observed score vectors y^s of m items, each pair oriented from its "
                   "higher score (a_ij^G = max(y_i - y_j, 0) >= 0): a_ij - a_ji = y~_i - y~_j with y~ the mean score, "
                   "and (G, p) is low noise" + (f" [twin: penalties shifted by {shift}]" if shift else "")),
        sizes=sizes,
    )


cossock_zhang_printed = printed_penalty_claim(finding=Finding(
    what=("Section 3.1 sets a_ij^G = y_i - y_j for every observed pair, which is a negative penalty whenever "
          "y_i < y_j, while Section 2 assumes non-negative penalties (and the difference graph, Eq. (8) and the "
          "losses are defined for those). The pair must be oriented by its scores: the edge i -> j with weight "
          "y_i - y_j when y_i > y_j. Then a_ij - a_ji (not a_ij) is y~_i - y~_j, and the conclusion (low noise) "
          "holds."),
    counterexample="an observed pair with y_i = -1 and y_j = 0: a_ij^G = y_i - y_j = -1 < 0.",
    corrected="duchi2010.section3_1.cossock_zhang.printed_penalty.corrected",
    finding_class="hypothesis",
))
cossock_zhang_corrected = oriented_average_claim(cossock_zhang_printed.finding.corrected)
TWINS[cossock_zhang_corrected.id] = lambda: oriented_average_claim(
    twin_id(cossock_zhang_corrected.id), draws=1, shift=Fraction(1, 10), sizes=(3, 3)
)
def indifferent_claim(id: str = "duchi2010.section3_1.indifferent_2_3", *, tie: bool = True) -> Claim:
    """Section 3.1: "consider a low-noise setting in which the difference graph G~ consists of edges (1 -> 2) and
    (1 -> 3). Our losses are indifferent to whether we order result 2 ahead of or behind 3".  ``tie`` False lets
    G~ also hold 2 -> 3, still low noise (the twin)."""
    a = symbolic_weights(3)
    dd = weights_diff(a)
    risk = risk_eq8(a, alpha)
    g_tilde = [dd(1, 2) > 0, dd(1, 3) > 0, dd(2, 3) >= 0, *([dd(2, 3) <= 0] if tie else low_noise_relations(dd, 3))]
    return implies(
        id,
        hypotheses={"weights_nonnegative": [x >= 0 for x in a.values()], "difference_graph": g_tilde},
        conclusion=sympy.And(*low_noise_relations(dd, 3), conditional_risk(a, (2, 1, 0)) <= risk,
                             conditional_risk(a, (2, 0, 1)) <= risk),
        cite=cite("Section 3.1", "consider a low-noise setting in which the difference graph G~ consists of edges "
                                 "(1 -> 2) and (1 -> 3). Our losses are indifferent to whether we order result 2 "
                                 "ahead of or behind 3"),
        statement=("for every a_ij >= 0 on 3 nodes with G~ = {1 -> 2, 1 -> 3}: (G, p) is low noise, and both "
                   "a = (2, 1, 0) and a = (2, 0, 1) minimise l(p, .) (Eq. (8)) over every real score vector"
                   + ("" if tie else " [twin: 2 -> 3 may be in G~, low noise assumed]")),
    )


indifferent_2_3 = indifferent_claim()
TWINS[indifferent_2_3.id] = lambda: indifferent_claim(twin_id(indifferent_2_3.id), tie=False)

P_PI, P_HAT, W2 = sympy.symbols("p_pi p_pihat w2", real=True)


def order_preserving_weights() -> Weights:
    """pi = 1 -> 2 -> 3 and pihat = 2 -> 3 -> 1; adjacent pairs weigh 1, distance-two pairs w2."""
    pi = {(1, 2): 1, (2, 3): 1, (1, 3): W2}
    pihat = {(2, 3): 1, (3, 1): 1, (2, 1): W2}
    return expected_weights([pi, pihat], [P_PI, P_HAT])


def order_preserving_weights_claim(
    id: str = "duchi2010.section3_1.order_preserving.weights", *, printed: tuple[Any, Any, Any] | None = None
) -> Claim:
    """Section 3.1: "The associated difference graph G~ will have edge weights a12 = p_pi - w2 p_pihat, a13 =
    w2 p_pi - p_pihat, and a23 = p_pi + p_pihat."  ``printed`` replaces the printed weights (the twin)."""
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
TWINS[order_preserving_weights_c.id] = lambda: order_preserving_weights_claim(
    twin_id("duchi2010.section3_1.weights"), printed=(P_PI - P_HAT, W2 * P_PI - P_HAT, P_PI + P_HAT)
)


def order_preserving_hyps(upper: Any = 1) -> dict[str, Any]:
    dd = weights_diff(order_preserving_weights())
    return {
        "probabilities": [P_PI > P_HAT, P_HAT >= 0, sympy.Eq(P_PI + P_HAT, 1), P_PI <= upper],
        "w2_nonnegative": [W2 >= 0],
        "low_noise": low_noise_relations(dd, 3),
        "a12_positive": [dd(1, 2) > 0],
    }


def w2_at_least_2_claim(id: str = "duchi2010.section3_1.order_preserving.w2_at_least_2", *, bound: Any = 2) -> Claim:
    """Section 3.1: "To satisfy the low-noise condition in Def. 8 and have the ordering pi minimize the true loss,
    we must have ... That is, w2 >= 2."  ``bound`` 2.1 asks more (the twin)."""
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


def no_fixed_w2_claim(
    id: str = "duchi2010.section3_1.order_preserving.no_fixed_w2", *, upper: Any = TWO_THIRDS
) -> Claim:
    """Section 3.1: "then there is no way to set w2 so that the resulting (G, p) satisfies the low-noise condition
    in Def. 8", for 1/2 < p_pi <= ``upper`` (a larger ``upper`` is the twin)."""
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
TWINS[w2_at_least_2.id] = lambda: w2_at_least_2_claim(
    twin_id("duchi2010.section3_1.w2"), bound=2 + sympy.Rational(1, 10)
)
no_fixed_w2 = no_fixed_w2_claim()
TWINS[no_fixed_w2.id] = lambda: no_fixed_w2_claim(
    twin_id("duchi2010.section3_1.no_fixed_w2"), upper=sympy.Rational(2, 3) + sympy.Rational(1, 10)
)
