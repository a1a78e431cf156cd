"""Section 4 of Uematsu & Lee (2013) except the SVOR of Section 4.3 (``section4_3``): the
ordinal-regression risk and Eq. (6), ORBoost (4.1), the proportional odds model (4.2) and the
indicator loss (4.4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies
from symcal.claims.core import Claim
from symcal.ranking.costs import CostScheme, orboost_costs, satisfies_theorem3_condition

from .common import (
    HALF,
    MINUS_HALF,
    TT,
    P,
    R,
    cite,
    identity_of_sides,
    on_simplex,
    pairs,
    pvec,
    sym,
    theta,
    twin_id,
    u,
)

# ---------------------------------------------------------------------------------------
# Section 4: the ordinal-regression risk and Eq. (6)
# ---------------------------------------------------------------------------------------



def reindex_claim(
    id: str = "uematsu2013.section4.conditional_risk_reindexed",
    *,
    unshifted: bool = False,
    sizes: tuple[int, int] = (2, 6),
) -> Claim:
    """Section 4: "sum_{j=1}^K p_j(x){l(theta_j - f(x)) + l(f(x) - theta_{j-1})} = p_1 l(f(x) + oo) +
    p_K l(oo - f(x)) + sum_{j=1}^{K-1} p_j l(theta_j - f(x)) + p_{j+1} l(f(x) - theta_j)", with
    theta_0 = -oo and theta_K = +oo kept as symbols and l an undefined function.  ``unshifted`` pairs
    l(f - theta_j) with p_j (the twin, with l(s) = s^2 so that a point refutes it)."""

    def sides(K: int) -> tuple[Any, Any]:
        p, f = pvec(K), sym("f", real=True)
        loss = (lambda a: a**2) if unshifted else sympy.Function("l")
        lhs = sum(p[j - 1] * (loss(theta(j) - f) + loss(f - theta(j - 1))) for j in range(1, K + 1))
        inner = sum(p[j - 1] * loss(theta(j) - f) + p[j - (1 if unshifted else 0)] * loss(f - theta(j))
                    for j in range(1, K))
        return lhs, p[0] * loss(f - theta(0)) + p[K - 1] * loss(theta(K) - f) + inner

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite("Section 4", "sum_j p_j {l(theta_j - f(x)) + l(f(x) - theta_{j-1})} = p_1 l(f(x) + oo) + p_K "
                               "l(oo - f(x)) + sum_{j=1}^{K-1} p_j l(theta_j - f(x)) + p_{j+1} l(f(x) - theta_j)"),
        statement="the conditional ordinal-regression risk regrouped by threshold, for any loss l "
        "(theta_0 = -oo, theta_K = +oo as symbols)",
    )


def eq6_sum(K: int, l: Callable[[Any], Any]) -> Any:
    """The objective of (6): sum_{j<K} p_j l(theta_j - t) + p_{j+1} l(t - theta_j)."""
    p = pvec(K)
    return sum(p[j - 1] * l(theta(j) - TT) + p[j] * l(TT - theta(j)) for j in range(1, K))


def loss_and_derivative(generic: bool) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """(l, l') for an undefined differentiable l (``generic``: a sympy Function, l' as a Subs of its
    derivative) or for l(s) = e^{-s}."""
    if not generic:
        return (lambda a: sympy.exp(-a)), (lambda a: -sympy.exp(-a))
    s, lf = sym("s_", real=True), sympy.Function("l")
    return lf, (lambda a: sympy.Subs(sympy.Derivative(lf(s), s), s, a))


def eq6_claim(
    id: str,
    *,
    corrected: bool,
    sizes: tuple[int, int] = (2, 4),
    finding: Finding | None = None,
    generic: bool = True,
    second_flipped: bool = False,
) -> Claim:
    """Section 4, Eq. (6): "d/dt (sum p_j l(theta_j - t) + p_{j+1} l(t - theta_j)) = sum p_{j+1} l'(theta_j - t*)
    - sum p_j l'(theta_j - t*)" as printed, or ``corrected`` (first sum l'(t* - theta_j)); ``generic`` l a
    sympy Function, else l(s) = e^{-s}; ``second_flipped`` also flips the second sum (the twin)."""
    loss, dl = loss_and_derivative(generic)

    def rhs(K: int) -> Any:
        p = pvec(K)
        first = sum(p[j] * dl((TT - theta(j)) if corrected else (theta(j) - TT)) for j in range(1, K))
        second = sum(p[j - 1] * dl((TT - theta(j)) if second_flipped else (theta(j) - TT)) for j in range(1, K))
        return first - second

    which = "an arbitrary differentiable l" if generic else "l(s) = e^{-s}"
    return identity(
        id,
        lambda K: sympy.diff(eq6_sum(K, loss), TT),
        rhs,
        sizes=sizes,
        cite=cite(
            "Section 4, Eq. (6)",
            "d/dt (sum p_j l(theta_j - t) + p_{j+1} l(t - theta_j)) = sum p_{j+1} "
            "l'(theta_j - t*) - sum p_j l'(theta_j - t*)",
        ),
        statement=(f"Eq. (6) {'corrected (first sum l(t - theta_j))' if corrected else 'as printed'}, for {which}"),
        finding=finding,
    )



# ---------------------------------------------------------------------------------------
# Section 4.1: ORBoost, Eq. (7) and ORBoost <-> Corollary 1
# ---------------------------------------------------------------------------------------


def eq7_claim(id: str = "uematsu2013.section4_1.eq7", *, half: Any = HALF, sizes: tuple[int, int] = (2, 5)) -> Claim:
    """Section 4.1, Eq. (7): "f^*(x) = 1/2 log (sum P(Y=i|x) exp(theta_{i-1}) / sum P(Y=j|x) exp(-theta_j))"
    zeroes the corrected (6) with l(s) = e^{-s} (``half`` = 1: the twin)."""
    def deriv(K: int) -> Any:
        p = [sym(f"q_{k}", positive=True) for k in range(1, K + 1)]
        th = {j: sympy.log(u(j)) for j in range(1, K)}
        A = sum(p[i - 1] * sympy.exp(th[i - 1]) for i in range(2, K + 1))
        B = sum(p[j - 1] * sympy.exp(-th[j]) for j in range(1, K))
        tstar = half * sympy.log(A / B)
        d = sum(p[j] * (-sympy.exp(-(tstar - th[j]))) for j in range(1, K)) - sum(
            p[j - 1] * (-sympy.exp(-(th[j] - tstar))) for j in range(1, K)
        )
        return d

    return identity(
        id,
        deriv,
        lambda K: sympy.Integer(0),
        sizes=sizes,
        cite=cite(
            "Section 4.1, Eq. (7)", "f^*(x) = 1/2 log (sum P(Y=i|x) exp(theta_{i-1}^*) / sum P(Y=j|x) exp(-theta_j^*))"
        ),
        statement="with l(s) = e^{-s}, t* of (7) zeroes the (corrected) derivative of (6) (strictly convex in "
        "t, so the minimiser)",
    )


def orboost_sw(K: int) -> tuple[dict[int, Any], dict[int, Any]]:
    """The printed s_j, w_j with theta_j = log u_j; j = 1 and j = K are the limits."""
    th = {j: sympy.log(u(j)) for j in range(1, K)}
    s, w = {}, {}
    for j in range(1, K + 1):
        if j == 1:
            s[j], w[j] = sympy.Integer(0), sympy.exp(-th[1])
        elif j == K:
            s[j], w[j] = sympy.Integer(1), sympy.exp(th[K - 1])
        else:
            s[j] = 1 / (1 + sympy.exp(-th[j] - th[j - 1]))
            w[j] = sympy.exp(th[j - 1]) * (1 + sympy.exp(-th[j] - th[j - 1]))
    return s, w


def orboost_costs_claim(
    id: str = "uematsu2013.section4_1.orboost_costs", *, sign: int = -1, sizes: tuple[int, int] = (2, 6)
) -> Claim:
    """Section 4.1: "let s_j = [1 + exp(-theta_j - theta_{j-1})]^{-1} and w_j = ... Then c_ji =
    exp(theta_{i-1} - theta_j) - exp(theta_{j-1} - theta_i)" (``sign`` = +1: the twin)."""
    def ex(a: int, b: int, K: int) -> Any:  # exp(theta_a - theta_b); 0 when theta_a = -inf or theta_b = +inf
        return 0 if a == 0 or b == K else sympy.exp(sympy.log(u(a)) - sympy.log(u(b)))

    def sides(K: int) -> tuple[Any, Any]:
        s, w = orboost_sw(K)
        implied = sympy.Matrix([w[i] * w[j] * (s[i] - s[j]) for j, i in pairs(K)])
        printed = sympy.Matrix([ex(i - 1, j, K) + sign * ex(j - 1, i, K) for j, i in pairs(K)])
        return implied, printed

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite(
            "Section 4.1",
            "let s_j = [1 + exp(-theta_j - theta_{j-1})]^{-1} and w_j = exp(theta_{j-1})(1 + "
            "exp(-theta_j - theta_{j-1})) ... Then c_ji = exp(theta_{i-1} - theta_j) - exp(theta_{j-1} - theta_i)",
        ),
        statement="w_i w_j (s_i - s_j) = exp(theta_{i-1} - theta_j) - exp(theta_{j-1} - theta_i) for the printed s, w",
    )


def orboost_relation_claim(
    id: str = "uematsu2013.section4_1.orboost_relation", *, plus_one: int = 1, sizes: tuple[int, int] = (2, 5)
) -> Claim:
    """Section 4.1: "sum s_i w_i P(Y=i|x) / sum w_j P(Y=j|x) = (sum exp(-theta_j) P(Y=j|x) / sum exp(theta_{i-1})
    P(Y=i|x) + 1)^{-1}" (``plus_one`` = 2: the twin)."""
    def sides(K: int) -> tuple[Any, Any]:
        s, w = orboost_sw(K)
        p = [sym(f"q_{k}", positive=True) for k in range(1, K + 1)]
        left = sum(s[i] * w[i] * p[i - 1] for i in range(1, K + 1)) / sum(w[j] * p[j - 1] for j in range(1, K + 1))
        B = sum(p[j - 1] / u(j) for j in range(1, K))
        A = sum(p[i - 1] * u(i - 1) for i in range(2, K + 1))
        return left, 1 / (B / A + plus_one)

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite(
            "Section 4.1",
            "sum s_i w_i P(Y=i|x) / sum w_j P(Y=j|x) = (sum exp(-theta_j^*) P(Y=j|x) / "
            "sum exp(theta_{i-1}^*) P(Y=i|x) + 1)^{-1}",
        ),
        statement="Corollary 1's f_0^* for the ORBoost weights equals (B/A + 1)^{-1}, a monotone transform of (7)",
    )


def orboost_nonneg_claim(
    id: str = "uematsu2013.section4_1.orboost_costs_nonnegative",
    *,
    ordered: bool = True,
    sizes: tuple[int, int] = (2, 5),
) -> Claim:
    """Section 4.1: "The ordering restriction on the thresholds (theta_i >= theta_j) yields non-negative ranking
    costs (c_ji >= 0)" (``ordered=False`` drops the ordering: the twin)."""
    def hyps(K: int) -> list[Any]:
        return [u(j) <= u(j + 1) for j in range(1, K - 1)] if ordered else []

    def concl(K: int) -> Any:
        terms = []
        for j, i in pairs(K):
            a = u(i - 1) / u(j) if i - 1 >= 1 else 0
            b = (u(j - 1) / u(i) if i < K else 0) if j > 1 else 0
            terms.append(a - b >= 0)
        return sympy.And(*terms)

    return implies(
        id,
        hypotheses={"ordered_thresholds": hyps},
        conclusion=concl,
        sizes=sizes,
        cite=cite(
            "Section 4.1",
            "The ordering restriction on the thresholds (theta_i^* >= theta_j^*) yields non-negative ranking costs",
        ),
        statement="theta_1 <= ... <= theta_{K-1} => every ORBoost cost c_ji >= 0 (u_j = e^{theta_j} > 0)",
    )


def orboost_condition_statement(K: int, bump: Any = 0) -> dict[str, Any]:
    """The claim for the kernel: Theorem 3's condition c_1K c_ji = c_1i c_jK - c_1j c_iK at every pair as an
    identity of rational functions of u_1..u_{K-1} (u_j = e^{theta_j} > 0), with ORBoost's costs written from
    Section 4.1: c_ji = u_{i-1}/u_j - u_{j-1}/u_i, the first term absent when i - 1 = 0 or j = K and the second
    when j - 1 = 0 or i = K (theta_0 = -inf, theta_K = +inf), c_jj = 0, and ``bump`` added to c_23 (the twin)."""
    from symcal.certify import identity_certificate

    def ratio(a: int, b: int) -> Any:  # e^{theta_a - theta_b} = u_a / u_b; 0 when theta_a = -inf or theta_b = +inf
        return sympy.Integer(0) if a == 0 or b == K else u(a) / u(b)

    def c(a: int, b: int) -> Any:
        if a == b:
            return sympy.Integer(0)
        return ratio(b - 1, a) - ratio(a - 1, b) + (bump if (a, b) == (2, 3) else 0)

    lhs = [c(1, K) * c(j, i) for j, i in pairs(K)]
    rhs = [c(1, i) * c(j, K) - c(1, j) * c(i, K) for j, i in pairs(K)]
    return identity_certificate(sympy.Matrix(lhs), sympy.Matrix(rhs))


def orboost_condition_claim(
    id: str = "uematsu2013.section4_1.orboost_condition", *, bump: Any = 0, sizes: tuple[int, int] = (2, 6)
) -> Claim:
    """Section 4.1: "f^* in (7) is a monotonic transformation of the function f_0^* in Corollary 1, and hence the
    optimal ranking by ORBoost provides a solution to pairwise ranking risk": ORBoost's costs meet the
    condition identically in the thresholds (``bump`` perturbs c_23: the twin).  The kernel re-checks each K
    as a polynomial identity in the u_j (``orboost_condition_statement``)."""
    def holds(K: int) -> Any:
        c = orboost_costs([sympy.log(u(j)) for j in range(1, K)])
        if bump:
            c = CostScheme(K, {k: (v + bump if k == (2, 3) else v) for k, v in c.sympy_costs().items()}, "bumped")
        r = satisfies_theorem3_condition(c)
        return r.holds is True, r.reason

    return finite_check(
        id,
        cases=lambda K: [K],
        holds=holds,
        kernel=lambda K: orboost_condition_statement(K, bump),
        describe=lambda K: {"K": K},
        domain="the ORBoost cost scheme with symbolic thresholds, every pair, identically in u_j = e^{theta_j}",
        cite=cite("Section 4.1", "the optimal ranking by ORBoost provides a solution to pairwise ranking risk"),
        statement="the costs implied by any ORBoost thresholds satisfy Theorem 3's condition",
        sizes=sizes,
    )


# ---------------------------------------------------------------------------------------
# Section 4.2: the proportional odds model
# ---------------------------------------------------------------------------------------


def likelihood_claim(id: str = "uematsu2013.section4_2.likelihood", *, sign: int = 1) -> Claim:
    """Section 4.2: "log(1/(1 + exp(theta_{y-1} - f)) - 1/(1 + exp(theta_y - f))) = log(1 - exp(theta_{y-1} -
    theta_y)) - [log(1 + exp(-f + theta_{y-1})) + log(1 + exp(-theta_y + f))]" (``sign`` = -1: the twin)."""
    U, V, Fv = (sym(n, positive=True) for n in ("U", "V", "E_f"))  # e^{theta_{y-1}}, e^{theta_y}, e^{f}
    a, b, f = sympy.log(U), sympy.log(V), sympy.log(Fv)
    inside = 1 / (1 + sympy.exp(a - f)) - 1 / (1 + sympy.exp(b - f))
    rhs = sympy.exp(
        sympy.log(1 - sympy.exp(a - b)) - (sympy.log(1 + sympy.exp(-f + a)) + sympy.log(1 + sign * sympy.exp(-b + f)))
    )
    return identity(
        id,
        inside,
        rhs,
        conditions=[U < V],
        cite=cite(
            "Section 4.2",
            "log(1/(1 + exp(theta_{y-1} - f)) - 1/(1 + exp(theta_y - f))) = log(1 - exp(theta_{y-1} - "
            "theta_y)) - [log(1 + exp(-f + theta_{y-1})) + log(1 + exp(-theta_y + f))]",
        ),
        statement="the proportional-odds log likelihood splits as printed (checked on the arguments of log, "
        "which is injective)",
    )


def population_claim(
    id: str = "uematsu2013.section4_2.population_equation", *, use_pK: bool = False, sizes: tuple[int, int] = (2, 5)
) -> Claim:
    """Section 4.2: "This is equivalent to the condition: sum (p_j(x) + p_{j+1}(x)) / (1 + exp(theta_j - t^*)) =
    1 - p_1(x)" (``use_pK`` writes 1 - p_K: the twin)."""
    def sides(K: int) -> tuple[Any, Any]:
        p = pvec(K)
        obj = sum(
            p[j] * sympy.log(1 + sympy.exp(theta(j) - TT)) + p[j - 1] * sympy.log(1 + sympy.exp(TT - theta(j)))
            for j in range(1, K)
        )
        d = on_simplex(sympy.diff(obj, TT), K)
        eq = sum((p[j - 1] + p[j]) / (1 + sympy.exp(theta(j) - TT)) for j in range(1, K)) - (
            1 - p[K - 1 if use_pK else 0]
        )
        return d, on_simplex(eq, K)

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite(
            "Section 4.2",
            "This is equivalent to the condition: sum (p_j(x) + p_{j+1}(x)) / (1 + exp(theta_j - t^*)) = 1 - p_1(x)",
        ),
        statement="d/dt of the population log-likelihood = sum (p_j + p_{j+1})/(1 + e^{theta_j - t}) - (1 - p_1)",
    )


def k3_form_claim(id: str = "uematsu2013.section4_2.k3_form", *, with_factor: bool = True) -> Claim:
    """Section 4.2: "(1 - p_3(x))(1 + exp(f^*(x) - theta_2)) = (1 - p_1(x))(1 + exp(theta_1 - f^*(x)))", the
    K = 3 equation times a positive factor (``with_factor=False``: the twin)."""
    p1, p2 = P(1), P(2)
    p3 = 1 - p1 - p2
    t1, t2 = theta(1), theta(2)
    eq = (p1 + p2) / (1 + sympy.exp(t1 - TT)) + (p2 + p3) / (1 + sympy.exp(t2 - TT)) - (1 - p1)
    printed = (1 - p3) * (1 + sympy.exp(TT - t2)) - (1 - p1) * (1 + sympy.exp(t1 - TT))
    factor = (1 + sympy.exp(t1 - TT)) * (1 + sympy.exp(TT - t2)) if with_factor else 1
    return identity(
        id,
        printed,
        eq * factor,
        cite=cite("Section 4.2", "(1 - p3(x))(1 + exp(f^*(x) - theta_2)) = (1 - p1(x))(1 + exp(theta_1 - f^*(x)))"),
        statement="K = 3: printed form residual = equation residual x (1 + e^{theta_1 - t})(1 + e^{t - "
        "theta_2}) > 0, so equivalent",
    )


def eq8_claim(id: str = "uematsu2013.section4_2.eq8", *, four: Any = 4) -> Claim:
    """Section 4.2, Eq. (8): "e^{f^*(x)} = (q(x) - 1 + sqrt((q(x) - 1)^2 + 4 e^{theta_1 - theta_2} q(x))) /
    (2 e^{-theta_2})" solves the K = 3 equation (``four`` = 2: the twin)."""
    q, U, V = (sym(n, positive=True) for n in ("q", "U", "V"))  # U = e^{theta_1}, V = e^{theta_2}
    Fv = (q - 1 + sympy.sqrt((q - 1) ** 2 + four * (U / V) * q)) / (2 / V)
    return identity(
        id,
        Fv + Fv**2 / V,
        q * Fv + q * U,
        cite=cite(
            "Section 4.2, Eq. (8)",
            "e^{f^*(x)} = (q(x) - 1 + sqrt((q(x) - 1)^2 + 4 e^{theta_1 - theta_2} q(x))) / (2 e^{-theta_2})",
        ),
        statement="F = e^{f*} of (8) solves (1 + F e^{-theta_2}) = q (1 + e^{theta_1}/F), multiplied by F > 0",
    )


def q_is_f0_claim(id: str = "uematsu2013.section4_2.q_is_unit_cost_f0", *, c13: int = 1) -> Claim:
    """Section 4.2: "q is the ranking function minimizing pairwise ranking risk when c12 = c13 = c23 = 1"
    (``c13`` = 2: the twin)."""
    from symcal.ranking.costs import optimal_ranking_function

    costs = CostScheme(3, {(1, 2): 1, (1, 3): c13, (2, 3): 1})
    return identity(
        id,
        optimal_ranking_function(costs, pvec(3)),
        (P(2) + P(3)) / (P(1) + P(2)),
        conditions=[P(1) > 0, P(2) > 0, P(3) > 0],
        cite=cite("Section 4.2", "q is the ranking function minimizing pairwise ranking risk when c12 = c13 = c23 = 1"),
        statement="f_0^* for c12 = c13 = c23 = 1 is q = (p2 + p3)/(p1 + p2)",
    )


def q_monotone_claim(id: str = "uematsu2013.section4_2.f_star_increasing_in_q", *, flip: bool = False,
                     pin: bool = False) -> Claim:
    """``pin`` (for twins) fixes q_1 = 1, q_2 = 2, r = 1, where both square roots are rational
    (2 and 3): otherwise z3 may answer with an algebraic model that no rounding turns into an
    exact witness, and a refutable twin comes back unknown."""
    q1, q2, r, S1, S2 = (sym(n, real=True) for n in ("q_1", "q_2", "r", "S_1", "S_2"))
    hyps = {
        "order": [q1 > 0, q2 > q1, r > 0],
        "roots": [
            S1 >= 0,
            S2 >= 0,
            sympy.Eq(S1**2, (q1 - 1) ** 2 + 4 * r * q1),
            sympy.Eq(S2**2, (q2 - 1) ** 2 + 4 * r * q2),
        ],
    }
    if pin:
        hyps["pinned"] = [sympy.Eq(q1, 1), sympy.Eq(q2, 2), sympy.Eq(r, 1)]
    a, b = q1 - 1 + S1, q2 - 1 + S2
    return implies(
        id,
        hypotheses=hyps,
        conclusion=(a > b) if flip else (a < b),
        cite=cite("Section 4.2", "This implies that f^* for the proportional odds model preserves the ordering of q"),
        statement="e^{f*} of (8) is strictly increasing in q (r = e^{theta_1 - theta_2} > 0; S = the square root)",
    )


# ---------------------------------------------------------------------------------------
# Section 4.4
# ---------------------------------------------------------------------------------------


def indicator_claim(
    id: str = "uematsu2013.section4_4.indicator_risk", *, shift: Any = MINUS_HALF, sizes: tuple[int, int] = (2, 5)
) -> Claim:
    """Section 4.4: "If theta_{i-1} < f(x) < theta_i, the conditional risk above is sum_{j<i} p_j + sum_{j>i} p_j =
    1 - p_i", with theta_j = j (``shift`` = +1/2 moves f to the next interval: the twin)."""
    def lhs(K: int) -> Any:
        p = pvec(K)
        rows = []
        for i in range(1, K + 1):
            f = i + shift  # thresholds theta_j = j, so f in (theta_{i-1}, theta_i) when shift = -1/2
            risk = sum(p[j - 1] * (1 if j < f else 0) for j in range(1, K)) + sum(
                p[j - 1] * (1 if f < j - 1 else 0) for j in range(2, K + 1)
            )
            rows.append(on_simplex(risk, K))
        return sympy.Matrix(rows)

    return identity(
        id,
        lhs,
        lambda K: sympy.Matrix([on_simplex(1 - P(i), K) for i in range(1, K + 1)]),
        sizes=sizes,
        cite=cite("Section 4.4", "If theta_{i-1} < f(x) < theta_i, the conditional risk above is ... = 1 - p_i"),
        statement="with the indicator loss, the conditional risk at f in (theta_{i-1}, theta_i) is 1 - p_i "
        "(theta_j = j)",
    )


def argmax_claim(id: str = "uematsu2013.section4_4.no_cost_gives_argmax", *, only_first: bool = False) -> Claim:
    """Section 4.4: "When K = 3, there is no {c_ji} such that f_0^*(x) ... is a monotonic transformation of
    argmax_j p_j(x)" (``only_first`` keeps one of the two witnesses: the twin)."""
    c12, c13, c23 = (sym(n, real=True) for n in ("c_12", "c_13", "c_23"))

    def f0(p: tuple[Any, Any, Any]) -> tuple[Any, Any]:
        return c12 * p[1] + c13 * p[2], c13 * p[0] + c23 * p[1]

    A, A2, B = (R(1, 2), R(1, 4), R(1, 4)), (R(2, 3), R(1, 3), 0), (R(1, 4), R(1, 4), R(1, 2))
    (na, da), (na2, da2), (nb, db) = f0(A), f0(A2), f0(B)
    differs = sympy.Ne(na * da2, na2 * da)  # f0(A) != f0(A'): both have argmax 1
    not_below = na * db >= nb * da  # f0(A) >= f0(B): argmax 1 < argmax 3 but not ranked lower
    concl = differs if only_first else sympy.Or(differs, not_below)
    return implies(
        id,
        hypotheses={"costs": [c12 >= 0, c13 >= 0, c23 >= 0, c13 + c23 > 0]},
        conclusion=concl,
        cite=cite(
            "Section 4.4",
            "When K = 3, there is no {c_ji} such that f_0^*(x) ... is a monotonic transformation of argmax_j p_j(x)",
        ),
        statement="for every K = 3 scheme, f_0^* is not h(argmax p) with h increasing: f_0^* differs at two "
        "argmax-1 points "
        "or does not rank an argmax-1 point below an argmax-3 point",
    )


# ---------------------------------------------------------------------------------------
# The claims of Section 4 (without 4.3), in reading order
# ---------------------------------------------------------------------------------------

conditional_risk_reindexed = reindex_claim()
eq6_corrected = eq6_claim("uematsu2013.section4.eq6.corrected", corrected=True, generic=True)
eq6 = eq6_claim(
    "uematsu2013.section4.eq6", corrected=False, generic=False,
    finding=Finding(
        what=(
            "Eq. (6) writes the derivative of p_{j+1} l(t - theta_j) as p_{j+1} l'(theta_j - t*); it is "
            "p_{j+1} l'(t* - theta_j).  As printed, (6) with l(s) = e^{-s} does not depend on t and cannot give (7)."
        ),
        counterexample="K = 2, l(s) = e^{-s}, p = (1/2, 1/2), theta_1 = 0, t = 1: the derivative is (e - 1/e)/2, "
        "the printed right side is 0.",
        corrected=eq6_corrected.id,
        finding_class="proof",
    ),
)
eq7 = eq7_claim()
orboost_costs_identity = orboost_costs_claim()
orboost_costs_nonnegative = orboost_nonneg_claim()
orboost_relation = orboost_relation_claim()
orboost_condition = orboost_condition_claim()
likelihood = likelihood_claim()
population_equation = population_claim()
k3_form = k3_form_claim()
eq8 = eq8_claim()
f_star_increasing_in_q = q_monotone_claim()
q_is_unit_cost_f0 = q_is_f0_claim()
indicator_risk = indicator_claim()
no_cost_gives_argmax = argmax_claim()

TWINS: dict[str, Callable[[], Claim]] = {
    conditional_risk_reindexed.id: lambda: reindex_claim(
        twin_id(conditional_risk_reindexed.id), unshifted=True, sizes=(2, 3)
    ),
    eq6_corrected.id: lambda: eq6_claim(
        twin_id("uematsu2013.eq6"), corrected=True, generic=False, second_flipped=True, sizes=(2, 2)
    ),
    eq7.id: lambda: eq7_claim(twin_id("uematsu2013.eq7"), half=1, sizes=(2, 2)),
    orboost_costs_identity.id: lambda: orboost_costs_claim(twin_id("uematsu2013.orc"), sign=1, sizes=(4, 4)),
    orboost_costs_nonnegative.id: lambda: orboost_nonneg_claim(
        twin_id("uematsu2013.orn"), ordered=False, sizes=(4, 4)
    ),
    orboost_relation.id: lambda: orboost_relation_claim(twin_id("uematsu2013.orr"), plus_one=2, sizes=(3, 3)),
    orboost_condition.id: lambda: orboost_condition_claim(twin_id("uematsu2013.orcond"), bump=1, sizes=(4, 4)),
    likelihood.id: lambda: likelihood_claim(twin_id("uematsu2013.lik"), sign=-1),
    population_equation.id: lambda: population_claim(twin_id("uematsu2013.pop"), use_pK=True, sizes=(3, 3)),
    k3_form.id: lambda: k3_form_claim(twin_id("uematsu2013.k3"), with_factor=False),
    eq8.id: lambda: eq8_claim(twin_id("uematsu2013.eq8"), four=2),
    f_star_increasing_in_q.id: lambda: q_monotone_claim(twin_id("uematsu2013.qmono"), flip=True, pin=True),
    q_is_unit_cost_f0.id: lambda: q_is_f0_claim(twin_id("uematsu2013.q"), c13=2),
    indicator_risk.id: lambda: indicator_claim(twin_id("uematsu2013.ind"), shift=sympy.Rational(1, 2), sizes=(3, 3)),
    no_cost_gives_argmax.id: lambda: argmax_claim(twin_id("uematsu2013.argmax"), only_first=True),
}
