"""The appendix of Uematsu & Lee (2013): the proofs of Theorem 3 (identities (10), (11) and their
steps), Corollary 1 and Theorem 4."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies
from symcal.claims.core import Claim
from symcal.ranking.costs import CostScheme, corollary1_condition_identity, zero_one_costs
from symcal.ranking.multipartite import check_theorem3, respects_strict_order, weak_orders

from .common import (
    N_RANDOM,
    ZS,
    F,
    cite,
    condition_costs,
    corollary1_schemes,
    cs,
    defined_cases,
    describe_case,
    gx,
    gy,
    identity_of_sides,
    pairs,
    pi,
    pvec,
    sym,
    twin_id,
    ws,
)

# ---------------------------------------------------------------------------------------
# Proof of Theorem 3: identities (10), (11) and the steps
# ---------------------------------------------------------------------------------------


def lhs_pairs(K: int, c: Callable[[int, int], Any], x: Callable[[int], Any] = gx, y: Callable[[int], Any] = gy) -> Any:
    """The pair density of (10)/(11): sum_{j<i} c_ji P(Y = i, Y' = j | Y > Y') g_i(x) g_j(x')."""
    return sum(c(j, i) * pi(i) * pi(j) / ZS * x(i) * y(j) for j, i in pairs(K))


def eq10_claim(id: str = "uematsu2013.theorem3.proof.eq10", *, d_sign: int = -1) -> Claim:
    """Appendix, proof of Theorem 3 (i), Eq. (10): "sum c_ji P(Y=i,Y'=j|Y>Y') g_i(x) g_j(x') = -c12 c23/c13 ...
    + 1/(c13 P(Y>Y')) [...][...] = D(x, x') + C(x, x')" (``d_sign`` = +1 flips D: the twin)."""
    c = cs
    rhs = d_sign * c(1, 2) * c(2, 3) / c(1, 3) * pi(2) * pi(2) / ZS * gx(2) * gy(2) + 1 / (c(1, 3) * ZS) * (
        c(1, 3) * gx(3) * pi(3) + c(1, 2) * gx(2) * pi(2)
    ) * (c(1, 3) * gy(1) * pi(1) + c(2, 3) * gy(2) * pi(2))
    return identity(
        id,
        lhs_pairs(3, c),
        rhs,
        cite=cite(
            "Appendix, proof of Theorem 3 (i), Eq. (10)",
            "sum c_ji P(Y=i,Y'=j|Y>Y') g_i(x) g_j(x') = -c12 c23/c13 ... + 1/(c13 P(Y>Y')) [...][...]",
        ),
        statement="identity (10): the K = 3 pair mass = D(x, x') + C(x, x')",
    )


def eq11_rhs(K: int, c: Callable[[int, int], Any], *, r_sign: int = -1) -> Any:
    """The right side of (11): D(x, x') + C(x, x') + sum P(Y'=j)P(Y=i)/P(Y>Y') R_ji(x, x')."""
    D = -sum(c(1, i) * c(i, K) / c(1, K) * pi(i) ** 2 / ZS * gx(i) * gy(i) for i in range(2, K))
    C = (
        1
        / (c(1, K) * ZS)
        * sum(c(1, i) * gx(i) * pi(i) for i in range(2, K + 1))
        * sum(c(j, K) * gy(j) * pi(j) for j in range(1, K))
    )
    Rs = sum(
        pi(j)
        * pi(i)
        / ZS
        * (
            (c(j, i) * c(1, K) - c(1, i) * c(j, K)) / c(1, K) * gx(i) * gy(j)
            + r_sign * c(1, j) * c(i, K) / c(1, K) * gy(i) * gx(j)
        )
        for j, i in pairs(K)
    )
    return D + C + Rs


def eq11_claim(
    id: str = "uematsu2013.theorem3.proof.eq11", *, r_sign: int = -1, sizes: tuple[int, int] = (3, 6)
) -> Claim:
    """Appendix, proof of Theorem 3 (ii), Eq. (11): "= D(x, x') + C(x, x') + sum P(Y'=j)P(Y=i)/P(Y>Y')
    R_ji(x, x')", for generic costs (``r_sign`` = +1 flips R_ji's second term: the twin)."""
    return identity(
        id,
        lambda K: lhs_pairs(K, cs),
        lambda K: eq11_rhs(K, cs, r_sign=r_sign),
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Theorem 3 (ii), Eq. (11)",
            "= D(x, x') + C(x, x') + sum P(Y'=j)P(Y=i)/P(Y>Y') R_ji(x, x')",
        ),
        statement="identity (11) with c_11 = c_KK = 0, for generic costs (no condition needed)",
    )


def posterior(k: int, K: int) -> Any:
    """P(Y = k | x) by Bayes' rule: g_k(x) pi_k / sum_a g_a(x) pi_a."""
    return gx(k) * pi(k) / sum(gx(a) * pi(a) for a in range(1, K + 1))


def partition_claim(id: str = "uematsu2013.theorem3.proof.partition_risks", *, swap: bool = False) -> Claim:
    """Appendix, proof of Theorem 3 (i): "R_0(f) = int_{A1 u A2 u A3} [D + C] + 1/2 int_{A4 u A5 u A6} [D + C];
    R_0(f_0^*) = int_{A1 u A4 u A7} [D + C] + 1/2 int_{A2 u A5 u A8} [D + C]" and their difference
    "int_A3 - int_A7 + 1/2 int_{A2 u A6} - 1/2 int_{A4 u A8}".  Checked pointwise: in the cell A_k of a pair
    (x, x') the weight of [D + C] in each risk is l_0 of the sign of f(x) - f(x') (of f_0^*(x) - f_0^*(x'));
    the integrals follow by linearity.  ``swap`` exchanges the halves' signs (the twin).  Each cell is a formula
    over its two signs s (of f(x) - f(x')) and t (of f_0^*(x) - f_0^*(x')): the cell's number k = 3(s + 1) +
    (t + 1) + 1, the printed weights as if-then-elses on k's membership of the printed unions, and l_0."""
    signs = (-1, 0, 1)  # the rows (f) and the columns (f_0^*) of the partition: <, =, >
    sf, sf0 = sympy.Symbol("sign_f"), sympy.Symbol("sign_f0")
    k = 3 * (sf + 1) + (sf0 + 1) + 1

    def l0(sign: Any) -> Any:
        return sympy.Piecewise((1, sign < 0), (sympy.Rational(1, 2), sympy.Eq(sign, 0)), (0, True))

    def weight(full: set[int], half: set[int]) -> Any:  # A_k's weight in int_full + 1/2 int_half
        def member(cells: set[int]) -> Any:
            return sympy.Or(*[sympy.Eq(k, a) for a in sorted(cells)])

        return sympy.Piecewise((1, member(full)), (sympy.Rational(1, 2), member(half)), (0, True))

    plus, minus = ({4, 8}, {2, 6}) if swap else ({2, 6}, {4, 8})
    conditions = [
        sympy.Eq(weight({1, 2, 3}, {4, 5, 6}), l0(sf), evaluate=False),  # R_0(f)
        sympy.Eq(weight({1, 4, 7}, {2, 5, 8}), l0(sf0), evaluate=False),  # R_0(f_0^*)
        sympy.Eq(weight({3}, plus) - weight({7}, minus), l0(sf) - l0(sf0), evaluate=False),  # the difference
    ]

    return finite_check(
        id,
        cases=list(itertools.product(signs, signs)),
        formula=lambda cell: (conditions, {sf: cell[0], sf0: cell[1]}),
        describe=lambda cell: {"sign f(x) - f(x')": cell[0], "sign f0(x) - f0(x')": cell[1]},
        domain="the 9 cells A_1..A_9 (sign of f(x) - f(x') by sign of f_0^*(x) - f_0^*(x')), exact weights",
        cite=cite("Appendix, proof of Theorem 3 (i)", "R_0(f) = int_{A1 u A2 u A3} [D + C] + 1/2 int_{A4 u A5 u A6} "
                                                       "[D + C] ... The difference R_0(f) - R_0(f_0^*) is given by"),
        statement="in every cell of the partition the printed weights of [D + C] in R_0(f), R_0(f_0^*) and their "
        "difference are l_0(f(x) - f(x')), l_0(f_0^*(x) - f_0^*(x')) and their difference",
    )


def d_symmetric_claim(
    id: str = "uematsu2013.theorem3.proof.d_symmetric", *, shift: int = 0, sizes: tuple[int, int] = (3, 6)
) -> Claim:
    """Appendix, proof of Theorem 3: "Since D(x, x') = D(x', x)", for D(x, x') = -sum_{i=2}^{K-1} c_1i c_iK/c_1K
    P(Y = i) P(Y' = i)/P(Y > Y') g_i(x) g_i(x') of (10) (K = 3) and (11).  ``shift`` = 1 pairs g_i(x) with
    g_{i+1}(x') (the twin)."""

    def D(K: int, x: Callable[[int], Any], y: Callable[[int], Any]) -> Any:
        return -sum(cs(1, i) * cs(i, K) / cs(1, K) * pi(i) ** 2 / ZS * x(i) * y(i + shift) for i in range(2, K))

    return identity(
        id,
        lambda K: D(K, gx, gy),
        lambda K: D(K, gy, gx),
        sizes=sizes,
        cite=cite("Appendix, proof of Theorem 3", "Since D(x, x') = D(x', x), int_A3 D(x, x') = int_A3 D(x', x) = "
                                                  "int_A7 D(x, x')"),
        statement="the D(x, x') of identities (10) and (11) is symmetric in x and x'",
    )


def c_ratio_claim(
    id: str = "uematsu2013.theorem3.proof.c_ratio", *, sizes: tuple[int, int] = (3, 6), swap: bool = False
) -> Claim:
    """Appendix, proof of Theorem 3, step 3: "From C(x, x')/C(x', x) = f_0^*(x)/f_0^*(x')", with f_0^*
    written in the posteriors (normaliser S(x) a symbol of its own); ``swap`` inverts the right side (the twin)."""
    def lhs(K: int) -> Any:
        def Cxy(x: Callable[[int], Any], y: Callable[[int], Any]) -> Any:
            return (
                sum(cs(1, i) * x(i) * pi(i) for i in range(2, K + 1))
                * sum(cs(j, K) * y(j) * pi(j) for j in range(1, K))
                / (cs(1, K) * ZS)
            )

        return Cxy(gx, gy) / Cxy(gy, gx)

    def f0(g: Callable[[int], Any], K: int) -> Any:
        # P(Y = k | x) = g_k(x) pi_k / S(x); the normaliser S(x) > 0 is a symbol of its own
        norm = sym("S_x" if g is gx else "S_y", positive=True)
        post = [g(k) * pi(k) / norm for k in range(1, K + 1)]
        return sum(cs(1, i) * post[i - 1] for i in range(2, K + 1)) / sum(cs(j, K) * post[j - 1] for j in range(1, K))

    def rhs(K: int) -> Any:
        return f0(gx, K) / f0(gy, K) if not swap else f0(gy, K) / f0(gx, K)

    return identity(
        id,
        lhs,
        rhs,
        sizes=sizes,
        cite=cite("Appendix, proof of Theorem 3", "From C(x, x')/C(x', x) = f_0^*(x)/f_0^*(x')"),
        statement="C(x, x')/C(x', x) = f_0^*(x)/f_0^*(x') with f_0^* written in the posteriors",
    )


def rji_claim(
    id: str = "uematsu2013.theorem3.proof.rji_symmetric",
    *,
    with_condition: bool = True,
    sizes: tuple[int, int] = (4, 6),
) -> Claim:
    """Appendix, proof of Theorem 3 (ii): "the condition on the misranking costs implies that int_A3 R_ji -
    int_A7 R_ji = ... = 0": under the condition every R_ji(x, x') is symmetric in x, x'
    (``with_condition=False`` uses generic costs: the twin)."""
    def side(K: int, flip: bool) -> Any:
        c = condition_costs(K) if with_condition else cs
        x, y = (gy, gx) if flip else (gx, gy)
        return sympy.Matrix(
            [
                (c(j, i) * c(1, K) - c(1, i) * c(j, K)) / c(1, K) * x(i) * y(j)
                - c(1, j) * c(i, K) / c(1, K) * y(i) * x(j)
                for j, i in pairs(K)
            ]
        )

    return identity(
        id,
        lambda K: side(K, False),
        lambda K: side(K, True),
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Theorem 3 (ii)",
            "the condition on the misranking costs implies that ... (c_ji c_1K - c_1i c_jK + c_1j c_iK)/c_1K (...) = 0",
        ),
        statement="under the condition every R_ji(x, x') is symmetric in x, x' (its antisymmetric part vanishes)",
    )


def minimisers_are(case: Any, *, corrected: bool) -> tuple[bool, str]:
    """Whether R_0's minimisers over every weak order are f_0^*'s own weak order (as printed) or, ``corrected``,
    exactly the weak orders that keep every strict order of f_0^*."""
    costs, space = case
    r = check_theorem3(space, costs)
    if corrected:
        ok = {lv for lv in weak_orders(space.m) if respects_strict_order(lv, r.f0_levels)} == set(r.minimisers)
        what = "the weak orders keeping every strict order of f_0^*"
    else:
        ok, what = set(r.minimisers) == {r.f0_levels}, "f_0^*'s own weak order"
    return ok, f"minimisers {[list(x) for x in r.minimisers]}; f_0^* levels {list(r.f0_levels)}; claimed: {what}"


def strictness_claim(
    id: str,
    *,
    corrected: bool,
    sizes: tuple[int, int],
    finding: Finding | None = None,
    twin_costs: CostScheme | None = None,
) -> Claim:
    """Appendix, proof of Theorem 3, step 4: "Hence, R_0(f) - R_0(f_0^*) > 0 unless f is an order-preserving
    transformation of f_0^*", on finite instance spaces; ``corrected`` asks instead that the minimisers be
    exactly the weak orders keeping every strict order of f_0^*."""
    schemes = [twin_costs] if twin_costs else [s for K in (3, 4) for s in corollary1_schemes(K, 6, 23, w_min=1)]
    return finite_check(
        id,
        cases=lambda m: defined_cases(schemes, m, N_RANDOM.get(m, 1), seed=5),
        holds=lambda case: minimisers_are(case, corrected=corrected),
        describe=describe_case,
        sample="a grid of cost schemes and seeded finite instance spaces",
        domain="K = 3, 4 Corollary 1 schemes with w >= 1 x instance spaces (positive marginal) x every weak order",
        cite=cite("Appendix, proof of Theorem 3",
                  "Hence, R_0(f) - R_0(f_0^*) > 0 unless f is an order-preserving transformation of f_0^*."),
        statement=(
            "the minimisers of R_0 are exactly the weak orders that keep every strict order of f_0^*"
            if corrected
            else "R_0(f) > R_0(f_0^*) unless f induces f_0^*'s weak order"
        ),
        sizes=sizes,
        finding=finding,
    )


# ---------------------------------------------------------------------------------------
# Proof of Corollary 1
# ---------------------------------------------------------------------------------------


def corollary1_all_k_claim(id: str = "uematsu2013.corollary1.condition.all_k", *, power: int = 1) -> Claim:
    """Appendix, proof of Corollary 1: "It is easy to check that c_y'y = c_1K (s_y - s_y') t_y t_y' I(y > y')
    satisfies the condition in Theorem 3", as one identity covering every pair of every K (``power`` = 2
    squares the spacing: the twin)."""
    lhs, rhs, syms = corollary1_condition_identity()
    if power != 1:  # a twin: c_ji = w_i w_j (s_i - s_j)^power
        w1, wj, wi, wK, s1, sj, si, sK = syms

        def cc(wa: Any, sa: Any, wb: Any, sb: Any) -> Any:
            return wa * wb * (sb - sa) ** power

        lhs = cc(w1, s1, wK, sK) * cc(wj, sj, wi, si)
        rhs = cc(w1, s1, wi, si) * cc(wj, sj, wK, sK) - cc(w1, s1, wj, sj) * cc(wi, si, wK, sK)
    return identity(
        id,
        lhs,
        rhs,
        cite=cite(
            "Proof of Corollary 1",
            "c_{y'y} = c_1K (s_y - s_y') t_y t_y' I(y > y') satisfies the condition in Theorem 3",
        ),
        statement="c_ji = w_i w_j (s_i - s_j) satisfies c_1K c_ji = c_1i c_jK - c_1j c_iK at every pair",
        scope=(
            "all K >= 2: the condition at any pair (j, i) of any K is this identity in w_1, w_j, w_i, "
            "w_K, s_1, s_j, s_i, s_K (symbols coincide when j = 1 or i = K)"
        ),
    )


def corollary1_f0_claim(
    id: str = "uematsu2013.corollary1.proof.f0_forms", *, sizes: tuple[int, int] = (3, 6), drop_weights: bool = False
) -> Claim:
    """Both forms of the proof, cross-multiplied (all denominators are positive)."""

    def residuals(K: int) -> Any:
        w, s = ws(K)
        p = pvec(K)
        c = {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)}
        num = sum(c[(1, i)] * p[i - 1] for i in range(2, K + 1))  # f_0^* = num / den (Theorem 3)
        den = sum(c[(j, K)] * p[j - 1] for j in range(1, K))
        num2 = w[0] * sum((s[i - 1] - s[0]) * w[i - 1] * p[i - 1] for i in range(2, K + 1))
        den2 = w[K - 1] * sum((s[K - 1] - s[j - 1]) * w[j - 1] * p[j - 1] for j in range(1, K))
        wt = [1] * K if drop_weights else w
        sw = sum(s[i] * wt[i] * p[i] for i in range(K))  # E = sw / tot
        tot = sum(wt[j] * p[j] for j in range(K))
        num3, den3 = w[0] * (sw - s[0] * tot), w[K - 1] * (s[K - 1] * tot - sw)
        return sympy.Matrix([sympy.expand(num * den2 - num2 * den), sympy.expand(num * den3 - num3 * den)])

    return identity(
        id,
        residuals,
        lambda K: sympy.zeros(2, 1),
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Corollary 1",
            "f_0^*(x) = t_1 sum (s_i - s_1) w_i P(Y=i|x) / (t_K sum (s_K - s_j) w_j P(Y=j|x)) = ... (E - "
            "s_1)/(s_K - E)",
        ),
        statement=(
            "for c_ji = w_i w_j (s_i - s_j): f_0^* = w_1 sum (s_i - s_1) w_i p_i / (w_K sum (s_K - s_j) w_j p_j) "
            "= (w_1/w_K)(E - s_1)/(s_K - E), E = sum s w p / sum w p (cross-multiplied)"
        ),
    )


def corollary1_monotone_claim(id: str = "uematsu2013.corollary1.proof.monotone", *, flip: bool = False) -> Claim:
    """Appendix, proof of Corollary 1: "It is clearly a monotonic transformation of f_0^*(x)": E -> (E - s_1)/(s_K - E)
    is increasing on (s_1, s_K) (``flip`` reverses the conclusion: the twin)."""
    s1, sK, e1, e2 = (sym(n, real=True) for n in ("s_1", "s_K", "E_1", "E_2"))
    lhs = (e1 - s1) * (sK - e2)
    rhs = (e2 - s1) * (sK - e1)
    concl = lhs > rhs if flip else lhs < rhs
    return implies(
        id,
        hypotheses={"ordered": [s1 < e1, e1 < e2, e2 < sK]},
        conclusion=concl,
        cite=cite("Appendix, proof of Corollary 1", "It is clearly a monotonic transformation of f_0^*(x)"),
        statement="E -> (E - s_1)/(s_K - E) is increasing on (s_1, s_K) (compared by cross-multiplication)",
    )


# ---------------------------------------------------------------------------------------
# Proof of Theorem 4
# ---------------------------------------------------------------------------------------


def theorem4_i_claim(id: str = "uematsu2013.theorem4.i.identity", *, divide: bool = True) -> Claim:
    """Appendix, proof of Theorem 4 (i): "R_l(f) + c12 c23/c13 E[l|Y=2,Y'=2] P(Y=2,Y'=2)/P(Y>Y') =
    [...][...]/(c13 P(Y>Y')) int int l h_+ h_-" (``divide=False`` drops the 1/c13 of the extra term: the twin)."""
    c = cs
    extra = c(1, 2) * c(2, 3) / (c(1, 3) if divide else 1) * pi(2) * pi(2) / ZS * gx(2) * gy(2)
    lhs = lhs_pairs(3, c) + extra
    a = c(1, 3) * pi(3) + c(1, 2) * pi(2)
    b = c(1, 3) * pi(1) + c(2, 3) * pi(2)
    hp = (c(1, 2) * gx(2) * pi(2) + c(1, 3) * gx(3) * pi(3)) / (c(1, 2) * pi(2) + c(1, 3) * pi(3))
    hm = (c(1, 3) * gy(1) * pi(1) + c(2, 3) * gy(2) * pi(2)) / (c(1, 3) * pi(1) + c(2, 3) * pi(2))
    return identity(
        id,
        lhs,
        a * b / (c(1, 3) * ZS) * hp * hm,
        cite=cite(
            "Appendix, proof of Theorem 4 (i)",
            "R_l(f) + c12 c23/c13 E[l|Y=2,Y'=2] P(Y=2,Y'=2)/P(Y>Y') = [...][...]/(c13 P(Y>Y')) int int l h_+ h_-",
        ),
        statement="Theorem 4 (i): pair weight + the extra term = const x h_+(x) h_-(x') (the integrands agree)",
    )


def theorem4_bayes_claim(id: str = "uematsu2013.theorem4.proof.modified_ratio", *, constant: bool = True) -> Claim:
    """Appendix, proof of Theorem 4 (i): "h_+(x)/h_-(x) proportional to (c12 g_2(x) P(Y = 2) + c13 g_3(x) P(Y = 3))
    / (c13 g_1(x) P(Y' = 1) + c23 g_2(x) P(Y' = 2)) = (c12 P(Y = 2|x) + c13 P(Y = 3|x)) / (c13 P(Y' = 1|x) +
    c23 P(Y' = 2|x))": the constant is (c13 pi_1 + c23 pi_2)/(c12 pi_2 + c13 pi_3), and Bayes' rule
    P(Y = k|x) = g_k(x) pi_k / sum_a g_a(x) pi_a gives the second form (``constant=False``: the twin)."""
    hp = (cs(1, 2) * gx(2) * pi(2) + cs(1, 3) * gx(3) * pi(3)) / (cs(1, 2) * pi(2) + cs(1, 3) * pi(3))
    hm = (cs(1, 3) * gx(1) * pi(1) + cs(2, 3) * gx(2) * pi(2)) / (cs(1, 3) * pi(1) + cs(2, 3) * pi(2))
    const = (cs(1, 2) * pi(2) + cs(1, 3) * pi(3)) / (cs(1, 3) * pi(1) + cs(2, 3) * pi(2)) if constant else 1
    num, den = cs(1, 2) * gx(2) * pi(2) + cs(1, 3) * gx(3) * pi(3), cs(1, 3) * gx(1) * pi(1) + cs(2, 3) * gx(2) * pi(2)
    middle = num / den
    post = [posterior(k, 3) for k in (1, 2, 3)]
    return identity(
        id,
        sympy.Matrix([const * hp / hm, middle]),
        sympy.Matrix([middle, (cs(1, 2) * post[1] + cs(1, 3) * post[2]) / (cs(1, 3) * post[0] + cs(2, 3) * post[1])]),
        cite=cite("Appendix, proof of Theorem 4 (i)", "h_+(x)/h_-(x) proportional to (c12 g_2(x) P(Y=2) + c13 g_3(x) "
                                                       "P(Y=3)) / (...) = (c12 P(Y=2|x) + c13 P(Y=3|x)) / (...)"),
        statement="h_+/h_- times (c12 pi_2 + c13 pi_3)/(c13 pi_1 + c23 pi_2) is the printed density ratio, which "
        "Bayes' rule turns into Theorem 3 (i)'s f_0^*",
    )


def theorem4_ii_claim(
    id: str = "uematsu2013.theorem4.ii.identity", *, with_condition: bool = True, sizes: tuple[int, int] = (4, 6)
) -> Claim:
    """Appendix, proof of Theorem 4 (ii): "R_l(f) + [three extra sums] = [...][...]/(c_1K P(Y>Y')) int int
    l h_+ h_-" under the condition (``with_condition=False``: the twin)."""
    def sides(K: int) -> tuple[Any, Any]:
        c = condition_costs(K) if with_condition else cs
        lhs = lhs_pairs(K, c)
        lhs += sum(c(1, j) * c(i, K) / c(1, K) * pi(i) * pi(j) / ZS * gx(i) * gy(j) for j, i in pairs(K))
        lhs += sum(c(1, i) * c(i, K) / c(1, K) * pi(i) ** 2 / ZS * gx(i) * gy(i) for i in range(2, K))
        lhs += sum(c(1, j) * c(i, K) / c(1, K) * pi(j) * pi(i) / ZS * gx(j) * gy(i) for j, i in pairs(K))
        A = sum(c(1, i) * pi(i) for i in range(2, K + 1))
        B = sum(c(j, K) * pi(j) for j in range(1, K))
        hp = sum(c(1, i) * gx(i) * pi(i) for i in range(2, K + 1)) / A
        hm = sum(c(j, K) * gy(j) * pi(j) for j in range(1, K)) / B
        return lhs, A * B / (c(1, K) * ZS) * hp * hm

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Theorem 4 (ii)",
            "R_l(f) + sum c_1j c_iK/c_1K E[l|Y=i,Y'=j] ... = [...][...]/(c_1K P(Y>Y')) int int l h_+ h_-",
        ),
        statement="Theorem 4 (ii): under the condition, pair weight + the three extra terms = const x h_+(x) h_-(x')",
    )


# ---------------------------------------------------------------------------------------
# The claims of the appendix, in reading order
# ---------------------------------------------------------------------------------------

eq10 = eq10_claim()
partition_risks = partition_claim()
c_ratio = c_ratio_claim()
d_symmetric = d_symmetric_claim()
strict_corrected = strictness_claim("uematsu2013.theorem3.proof.strict.corrected", corrected=True, sizes=(2, 4))
strict = strictness_claim(
    "uematsu2013.theorem3.proof.strict", corrected=False, sizes=(2, 3),
    finding=Finding(
        what=(
            "The proof's 'R_0(f) - R_0(f_0^*) > 0 unless f is an order-preserving transformation of f_0^*' is false "
            "when f_0^* has ties: breaking a tie of f_0^* leaves R_0 unchanged (the A_2 and A_8 terms cancel)."
        ),
        counterexample="two points with the same posterior: f_0^* ties them, and either strict order has the same R_0.",
        corrected=strict_corrected.id,
        finding_class="proof",
    ),
)
eq11 = eq11_claim()
rji_symmetric = rji_claim()
corollary1_all_k = corollary1_all_k_claim()
corollary1_f0_forms = corollary1_f0_claim()
corollary1_monotone = corollary1_monotone_claim()
theorem4_i = theorem4_i_claim()
theorem4_modified_ratio = theorem4_bayes_claim()
theorem4_ii = theorem4_ii_claim()

TWINS: dict[str, Callable[[], Claim]] = {
    eq10.id: lambda: eq10_claim(twin_id("uematsu2013.eq10"), d_sign=1),
    partition_risks.id: lambda: partition_claim(twin_id(partition_risks.id), swap=True),
    d_symmetric.id: lambda: d_symmetric_claim(twin_id(d_symmetric.id), shift=1, sizes=(4, 4)),
    c_ratio.id: lambda: c_ratio_claim(twin_id("uematsu2013.cratio"), swap=True, sizes=(3, 3)),
    strict_corrected.id: lambda: strictness_claim(
        twin_id("uematsu2013.strict"), corrected=True, sizes=(2, 3), twin_costs=zero_one_costs(4)
    ),
    eq11.id: lambda: eq11_claim(twin_id("uematsu2013.eq11"), r_sign=1, sizes=(4, 4)),
    rji_symmetric.id: lambda: rji_claim(twin_id("uematsu2013.rji"), with_condition=False, sizes=(4, 4)),
    corollary1_all_k.id: lambda: corollary1_all_k_claim(twin_id("uematsu2013.allk"), power=2),
    corollary1_f0_forms.id: lambda: corollary1_f0_claim(twin_id("uematsu2013.f0f"), drop_weights=True, sizes=(3, 3)),
    corollary1_monotone.id: lambda: corollary1_monotone_claim(twin_id("uematsu2013.mono"), flip=True),
    theorem4_i.id: lambda: theorem4_i_claim(twin_id("uematsu2013.t4i"), divide=False),
    theorem4_modified_ratio.id: lambda: theorem4_bayes_claim(twin_id(theorem4_modified_ratio.id), constant=False),
    theorem4_ii.id: lambda: theorem4_ii_claim(twin_id("uematsu2013.t4ii"), with_condition=False, sizes=(4, 4)),
}


# ---------------------------------------------------------------------------------------
# Proof of Corollary 1: the route through Theorem 3 needs w_1 w_K > 0
# ---------------------------------------------------------------------------------------


def _simplex_grid(K: int, den: int) -> list[tuple[F, ...]]:
    """The posteriors (p_1, ..., p_K) with denominator ``den``."""
    return [tuple(F(a, den) for a in c) for c in itertools.product(range(den + 1), repeat=K) if sum(c) == den]


def via_theorem3_cases(K: int) -> Any:
    """(w, s, p, p') for w in {0, 1, 2}^K, s = (0, 1, ..., K - 1), two posteriors with denominator 2 at which
    both Theorem 3's f_0^* and Corollary 1's E are defined."""
    s = tuple(range(K))
    grid = _simplex_grid(K, 2)
    for w in itertools.product(range(3), repeat=K):
        c = {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)}

        def defined(p: tuple[F, ...], c: dict[tuple[int, int], int] = c, w: tuple[int, ...] = w) -> bool:
            """Theorem 3's denominator sum c_jK p_j and Corollary 1's sum w p are positive."""
            return sum(c[(j, K)] * p[j - 1] for j in range(1, K)) > 0 and sum(w[k] * p[k] for k in range(K)) > 0

        ok = [p for p in grid if defined(p)]
        for p, q in itertools.combinations(ok, 2):
            yield w, s, p, q


def via_theorem3_holds(case: Any) -> tuple[bool, str]:
    """Theorem 3's f_0^* = sum c_1i p_i / sum c_jK p_j orders the two posteriors as Corollary 1's
    E = sum s w p / sum w p does (strictly: a monotonic transformation)."""
    w, s, p, q = case
    K = len(w)
    c = {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)}

    def f0(r: tuple[F, ...]) -> F:
        return F(sum(c[(1, i)] * r[i - 1] for i in range(2, K + 1))) / sum(c[(j, K)] * r[j - 1] for j in range(1, K))

    def E(r: tuple[F, ...]) -> F:
        return F(sum(s[k] * w[k] * r[k] for k in range(K))) / sum(w[k] * r[k] for k in range(K))

    def sign(x: F) -> int:
        return (x > 0) - (x < 0)

    a, b = (E(p), f0(p)), (E(q), f0(q))
    return sign(a[0] - b[0]) == sign(a[1] - b[1]), (
        f"w = {list(w)}, s = {list(s)}: E = {a[0]} vs {b[0]}, Theorem 3's f_0^* = {a[1]} vs {b[1]}")


def via_theorem3_claim(id: str, *, finding: Finding | None = None) -> Claim:
    """Appendix, proof of Corollary 1: "Application of Theorem 3 leads to f_0^*(x) = t_1 sum ... / (t_K sum ...)
    ... It is clearly a monotonic transformation of f_0^*(x), and thus it also minimizes the risk", over the
    non-negative weights Corollary 1 allows."""
    return finite_check(
        id,
        cases=via_theorem3_cases,
        holds=via_theorem3_holds,
        describe=lambda c: {"w": list(c[0]), "s": list(c[1]), "p": [str(x) for x in c[2]],
                            "p'": [str(x) for x in c[3]]},
        domain="K = 3, w in {0, 1, 2}^3, s = (0, 1, 2), posteriors with denominator 2 where both are defined",
        sample="a grid of weights and posteriors",
        cite=cite("Appendix, proof of Corollary 1", "Application of Theorem 3 leads to f_0^*(x) = ... It is clearly "
                                                    "a monotonic transformation of f_0^*(x)"),
        statement="for c_ji = w_i w_j (s_i - s_j) with non-negative w, Theorem 3's f_0^* = sum c_1i p_i / sum c_jK "
                  "p_j is a strictly increasing transformation of Corollary 1's E = sum s w p / sum w p",
        sizes=(3, 3),
        finding=finding,
    )


def direct_preference_claim(id: str, *, drop_scale: bool = False, sizes: tuple[int, int] = (3, 6)) -> Claim:
    """The corrected proof of Corollary 1, valid for every weight (w_1 w_K = 0 included): with u_k = pi_k g_k(x),
    v_k = pi_k g_k(x'), the cost of ranking x' above x minus that of x above x' is
    sum_{j<i} w_i w_j (s_i - s_j)(u_j v_i - v_j u_i) = (sum w u)(sum s w v) - (sum s w u)(sum w v),
    i.e. A(x) A(x') (E(x') - E(x)): ranking by E = sum s w p / sum w p is optimal pair by pair
    (``drop_scale`` drops s from the right side: the twin)."""
    def sides(K: int) -> tuple[Any, Any]:
        w = [sym(f"w_{k}", real=True) for k in range(1, K + 1)]
        s = [sym(f"s_{k}", real=True) for k in range(1, K + 1)]
        u, v = [gx(k) for k in range(1, K + 1)], [gy(k) for k in range(1, K + 1)]
        lhs = sum(w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) * (u[j - 1] * v[i - 1] - v[j - 1] * u[i - 1])
                  for j, i in pairs(K))
        sv = [1] * K if drop_scale else s
        A = sum(w[k] * u[k] for k in range(K))
        Av = sum(w[k] * v[k] for k in range(K))
        rhs = A * sum(sv[k] * w[k] * v[k] for k in range(K)) - sum(s[k] * w[k] * u[k] for k in range(K)) * Av
        return lhs, rhs

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite("Appendix, proof of Corollary 1", "Application of Theorem 3 leads to f_0^*(x) = ... It is clearly "
                                                    "a monotonic transformation of f_0^*(x)"),
        statement="for c_ji = w_i w_j (s_i - s_j) and any w: sum_{j<i} c_ji (u_j v_i - v_j u_i) = (sum w u)(sum s w v) "
                  "- (sum s w u)(sum w v), so E = sum s w p / sum w p is optimal without Theorem 3 (w_1 w_K = 0 too)",
    )


corollary1_via_theorem3_corrected = direct_preference_claim("uematsu2013.corollary1.proof.via_theorem3.corrected")
corollary1_via_theorem3 = via_theorem3_claim(
    "uematsu2013.corollary1.proof.via_theorem3",
    finding=Finding(
        what="Corollary 1 allows non-negative weights, but its proof applies Theorem 3, which needs c_1K = w_1 w_K "
             "(s_K - s_1) > 0 (it divides by c_1K; with c_1K = 0 its f_0^* is constant or 0/0).  With w_1 = 0 "
             "Theorem 3's f_0^* is identically 0, not a monotonic transformation of E = sum s w p / sum w p.  The "
             "corollary itself still holds there: the pairwise cost difference is A(x)A(x')(E(x') - E(x)) for "
             "every w.",
        counterexample="K = 3, w = (0, 1, 1), s = (0, 1, 2) (c_12 = c_13 = 0, c_23 = 1): p = (0, 1/2, 1/2) and "
                       "p' = (0, 1, 0) have E = 3/2 > 1 but Theorem 3's f_0^* = 0 at both.",
        corrected=corollary1_via_theorem3_corrected.id,
        finding_class="proof",
    ),
)

TWINS[corollary1_via_theorem3_corrected.id] = lambda: direct_preference_claim(
    twin_id("uematsu2013.c1direct"), drop_scale=True, sizes=(3, 3))
