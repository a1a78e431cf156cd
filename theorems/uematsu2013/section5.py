"""Section 5 of Uematsu & Lee (2013): convex risk minimisation and Theorem 4 (5.1), and the
non-smooth ranking measures of Section 5.2 (Table 1, Eq. (9), DCG, average precision)."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies_cases
from symcal.claims.core import Claim
from symcal.ranking.costs import CostScheme, dcg_costs, zero_one_costs
from symcal.ranking.multipartite import FiniteInstanceSpace, optimal_scores, surrogate_pair_weights

from .common import (
    HALF,
    F,
    P,
    cite,
    corollary1_schemes,
    describe_case,
    identity_of_sides,
    instances,
    on_simplex,
    pairs,
    pvec,
    sym,
    twin_id,
)
from .section3 import sweep_claim

# ---------------------------------------------------------------------------------------
# Section 5.1: Theorem 4 on finite instance spaces
# ---------------------------------------------------------------------------------------


def rank_one_claim(
    id: str = "uematsu2013.theorem4.finite.rank_one",
    *,
    costs: CostScheme | None = None,
    sizes: tuple[int, int] = (2, 4),
) -> Claim:
    """Theorem 4: "f^* minimizing R_l(f) + [extra terms] is a monotonic transformation of f_0^*": on a finite
    space the weights of l(f(x_a) - f(x_b)) in the modified risk are N_a M_b / c_1K, a rank-one matrix, so
    the bipartite result applies (``costs`` = 0-1 at K = 4, without the condition: the twin)."""
    def holds(case: Any) -> Any:
        c, space = case
        W = surrogate_pair_weights(space, c, extra=True)
        K = space.K
        q = [[space.joint(a, k) for k in range(1, K + 1)] for a in range(space.m)]
        N = [sum((c.c(1, i) * q[a][i - 1] for i in range(2, K + 1)), F(0)) for a in range(space.m)]
        M = [sum((c.c(j, K) * q[a][j - 1] for j in range(1, K)), F(0)) for a in range(space.m)]
        bad = [(a, b) for a in range(space.m) for b in range(space.m) if W[a][b] != N[a] * M[b] / c.c(1, K)]
        return not bad, f"entries differing from N_a M_b / c_1K: {bad[:3]}"

    def cases(m: int) -> Iterator[Any]:
        schemes = [costs] if costs else [s for K in (3, 4, 5) for s in corollary1_schemes(K, 4, 41, w_min=1)]
        for c in schemes:
            for space in instances(c.K, m, 3, seed=17):
                yield c, space

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=describe_case,
        sample='a grid of cost schemes and seeded finite instance spaces',
        domain="schemes with the condition (Corollary 1, w >= 1), K = 3..5 x instance spaces, exact",
        cite=cite("Theorem 4", "f^* minimizing R_l(f) + [extra terms] is a monotonic transformation of f_0^*"),
        statement="on a finite space the weights of l(f(x_a) - f(x_b)) in Theorem 4's modified risk are N_a "
        "M_b / c_1K (rank one)",
        sizes=sizes,
    )


def exp_minimiser_claim(
    id: str = "uematsu2013.theorem4.exp_minimiser", *, half: Any = HALF, sizes: tuple[int, int] = (2, 4)
) -> Claim:
    """Theorem 4 and Section 6.1: "f^* for pairwise ranking risk minimization under exponential loss is given by
    1/2 log f_0^* up to a constant", for rank-one weights (``half`` = 1: the twin)."""
    def grad(m: int) -> Any:
        Ns = [sym(f"N_{a}", positive=True) for a in range(m)]
        Ms = [sym(f"M_{a}", positive=True) for a in range(m)]
        fs = [sym(f"f_{a}", real=True) for a in range(m)]
        risk = sum(Ns[a] * Ms[b] * sympy.exp(-(fs[a] - fs[b])) for a in range(m) for b in range(m))
        at = {fs[a]: half * sympy.log(Ns[a] / Ms[a]) for a in range(m)}
        return sympy.Matrix([sympy.diff(risk, fs[k]).subs(at) for k in range(m)])

    return identity(
        id,
        grad,
        lambda m: sympy.zeros(m, 1),
        sizes=sizes,
        cite=cite(
            "Theorem 4 and Section 6.1",
            "f^* for pairwise ranking risk minimization under exponential loss is "
            "given by 1/2 log f_0^* up to a constant",
        ),
        statement="for rank-one weights N_a M_b and l(s) = e^{-s}, f_a = (1/2) log(N_a/M_a) zeroes the gradient "
        "(the risk is convex, so it is the minimiser)",
    )


MISORDER_SPACE = FiniteInstanceSpace(
    (F(1, 7), F(5, 7), F(1, 7)),
    ((F(3, 8), F(1, 8), F(1, 2)), (F(2, 5), F(2, 5), F(1, 5)), (F(1, 7), F(4, 7), F(2, 7))),
)


def minimise_exp_risk(W: Sequence[Sequence[Fraction]]) -> tuple[Any, Any]:
    """BFGS on sum_ab W_ab exp(-(f_a - f_b)) with f_1 = 0 (numeric, float): where MISORDER_POINT comes from, and a
    cross-check in the tests; no verdict rests on it."""
    import numpy as np
    from scipy.optimize import minimize

    Wf = np.array([[float(x) for x in r] for r in W])

    def obj(g: Any) -> Any:
        f = np.concatenate([[0.0], g])
        return float((Wf * np.exp(-(f[:, None] - f[None, :]))).sum())

    def grad(g: Any) -> Any:
        f = np.concatenate([[0.0], g])
        E = Wf * np.exp(-(f[:, None] - f[None, :]))
        return (-E.sum(1) + E.sum(0))[1:]

    r = minimize(obj, np.zeros(len(Wf) - 1), jac=grad, method="BFGS", options={"gtol": 1e-12})
    return np.concatenate([[0.0], r.x]), r


# a rational point near the minimiser of the exponential risk without the extra term (x = exp(f), f_1 = 0; BFGS,
# ``minimise_exp_risk``, gives x = (1, 0.72949, 1.07687)): only a bound R(MISORDER_POINT) for the proof, never trusted
MISORDER_POINT = (F(1), F(73, 100), F(27, 25))
MISORDER_BOX = (F(1, 4), F(4))  # the sublevel set {R <= R(MISORDER_POINT)} lies in x_2, x_3 in this range


def misorder_cases(*, extra: bool) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """The exponential pairwise risk on MISORDER_SPACE (0-1 costs, K = 3; with Theorem 4's extra term when
    ``extra``), R(f) = sum_ab W_ab exp(-(f_a - f_b)), depends on differences of f only, so f_1 = 0; with x_a =
    exp(f_a) > 0 it is sum_ab W_ab x_b / x_a, times x_2 x_3 > 0 a polynomial.  Two cases, w = MISORDER_POINT:
    (i) if x orders no pair against f_0^* (x_a >= x_b whenever f_0^*(a) > f_0^*(b)), then R(x) > R(w);
    (ii) R(x) <= R(w) puts x_2, x_3 in MISORDER_BOX, a compact set of positive x: the continuous R attains its
    minimum there, and every global minimiser (R <= R(w)) misorders a pair of f_0^* by (i)."""
    costs = zero_one_costs(3)
    W = surrogate_pair_weights(MISORDER_SPACE, costs, extra=extra)
    f0 = [N / M for N, M in optimal_scores(MISORDER_SPACE, costs)]
    x = [sympy.Integer(1), *sympy.symbols("x_2 x_3", positive=True)]

    def risk(v: Sequence[Any]) -> Any:
        return sum(sympy.Rational(W[a][b].numerator, W[a][b].denominator) * v[b] / v[a]
                   for a in range(3) for b in range(3))

    scale = x[1] * x[2]
    poly = sympy.expand(sympy.cancel(risk(x) * scale))
    bound = risk([sympy.Rational(w.numerator, w.denominator) for w in MISORDER_POINT]) * scale
    lo, hi = (sympy.Rational(v.numerator, v.denominator) for v in MISORDER_BOX)
    ordered = [x[a] >= x[b] for a in range(3) for b in range(3) if f0[a] > f0[b]]
    return [(f"no pair of f_0^* = {[str(v) for v in f0]} misordered => R(x) > R(w), w = "
             f"{[str(v) for v in MISORDER_POINT]}", {"orders_like_f0": ordered}, poly > bound),
            (f"R(x) <= R(w) => x_2, x_3 in [{lo}, {hi}] (a minimiser exists)", {"sublevel": [poly <= bound]},
             sympy.And(*[sympy.And(v >= lo, v <= hi) for v in x[1:]]))]


def misorder_claim(id: str = "uematsu2013.theorem4.without_extra_term_misorders", *, extra: bool = False) -> Claim:
    """Section 5.1: "minimizing the convex risk above alone does not lead to the best ranking function f_0^*":
    on a 3-point space every minimiser of the exponential risk misorders a pair of f_0^*, and one exists (z3 on
    two polynomial implications, ``misorder_cases``; ``extra`` adds Theorem 4's term: the twin, refuted)."""
    return implies_cases(
        id,
        cases=misorder_cases(extra=extra),
        domain="x = exp(f) > 0 with f_1 = 0 (R depends on differences of f); both cases polynomial after "
               "multiplying by x_2 x_3 > 0",
        cite=cite("Section 5.1", "minimizing the convex risk above alone does not lead to the best ranking function "
                                 "f_0^*"),
        statement="K = 3, 0-1 costs, a 3-point space: the minimiser of the exponential pairwise risk R_l "
        + ("with Theorem 4's extra term" if extra else "without the extra term")
        + " misorders a pair of f_0^*",
        scope="every minimiser of R over f in R^3 (one exists); R is invariant under f -> f + c, so f_1 = 0",
    )


# ---------------------------------------------------------------------------------------
# Section 5.2
# ---------------------------------------------------------------------------------------


def bipartite_rankings(n_max: int) -> Iterator[tuple[int, ...]]:
    """Label sequences in ranked order (position 1 first), labels in {1, 2}."""
    for n in range(2, n_max + 1):
        yield from itertools.product((1, 2), repeat=n)


# The measures of Section 5.2 as formulas of a ranked list's labels: the labels y_1..y_n (position 1 first) are
# symbols, the case binds them; positions are the literal indices; G(y) = I(y = 2) is an if-then-else.


def labels(n: int, name: str = "y") -> list[sympy.Symbol]:
    """The labels y_1..y_n of a ranked list (position 1 first), bound by each case."""
    return [sympy.Symbol(f"{name}_{i}") for i in range(1, n + 1)]


def gain(y: Any) -> Any:
    """G(y) = I(y = 2)."""
    return sympy.Piecewise((1, sympy.Eq(y, 2)), (0, True))


def bound(ys: Sequence[int], name: str = "y") -> dict[Any, int]:
    """The case's labels as the formula's values."""
    return dict(zip(labels(len(ys), name), ys, strict=True))


@functools.cache
def auc_conditions(n: int, offset: int) -> list[Any]:
    """AUC: sum_i I(y_i = 2)(n - i + offset) = n+ n- AUC + C(n+, 2), AUC = (positive-negative pairs ranked in that
    order)/(n+ n-); when the list has only one label AUC is undefined and the row asserts nothing."""
    G = [gain(y) for y in labels(n)]
    npos = sum(G)
    nneg = n - npos
    above = sum(G[i] * (1 - G[k]) for i in range(n) for k in range(i + 1, n))
    auc = above / (npos * nneg)
    row = sum(G[i - 1] * (n - i + offset) for i in range(1, n + 1))
    return [sympy.Implies(sympy.And(npos > 0, nneg > 0), sympy.Eq(row, npos * nneg * auc + npos * (npos - 1) / 2))]


@functools.cache
def p_at_m_conditions(n: int, offset: int) -> list[Any]:
    """P@m for every m = 1..n (m a symbol bound to m): sum_i I(y_i = 2) I(i <= m - offset)/m = (the relevant
    items among positions 1..m)/m."""
    G = [gain(y) for y in labels(n)]
    out = []
    for k in range(1, n + 1):
        m = sympy.Symbol(f"m_{k}")
        row = sum(G[i - 1] * sympy.Piecewise((1, i <= m - offset), (0, True)) / m for i in range(1, n + 1))
        out.append(sympy.Eq(row, sum(G[:k]) / m))
    return out


@functools.cache
def mrr_conditions(n: int, offset: int, exactly_one: bool) -> list[Any]:
    """MRR: sum_i I(y_i = 2)/(i + offset) = 1/(the position of the first relevant item), the position written
    sum_i i I(y_i = 2) prod_{k<i} I(y_k != 2); nothing is asserted without a relevant item; ``exactly_one``:
    the list has exactly one relevant item (the corrected row's domain, stated for the kernel too)."""
    G = [gain(y) for y in labels(n)]
    npos = sum(G)
    first = sum(i * G[i - 1] * sympy.Mul(*[1 - G[k] for k in range(i - 1)]) for i in range(1, n + 1))
    row = sum(G[i - 1] / (i + offset) for i in range(1, n + 1))
    return ([sympy.Eq(npos, 1)] if exactly_one else []) + [sympy.Implies(npos > 0, sympy.Eq(row, 1 / first))]


TABLE1_ROWS: dict[str, tuple[Callable[[int, int, bool], list[Any]], str]] = {
    # measure -> (its conditions (n, offset, exactly one relevant), the printed row)
    "auc": (lambda n, o, one: auc_conditions(n, o), "AUC: G(y) = I(y = 2), D(i) = n - i"),
    "p_at_m": (lambda n, o, one: p_at_m_conditions(n, o), "Precision at m: G(y) = I(y = 2), D(i) = I(i <= m)/m"),
    "mrr": (mrr_conditions, "Mean Reciprocal Rank: G(y) = I(y = 2), D(i) = 1/i"),
}


def table1_claim(
    id: str, measure: str, *, offset: int = 0, n_max: int = 6, any_relevant: bool = True, finding: Finding | None = None
) -> Claim:
    """Table 1: "AUC: G(y) = I(y = 2), D(i) = n - i", "Precision at m: ... I(i <= m)/m", "Mean Reciprocal Rank:
    ... 1/i" (``measure``), over every ranked list of bipartite labels; ``offset`` nudges D (the twins).  Each
    list is a formula: (9) with the row's G and D and the measure's own definition, both written over the
    list's labels, which the case binds."""
    conditions, quote = TABLE1_ROWS[measure]
    which = "" if any_relevant else " (exactly one relevant item)"

    def formula(ys: tuple[int, ...]) -> Any:
        extra = {sympy.Symbol(f"m_{k}"): k for k in range(1, len(ys) + 1)} if measure == "p_at_m" else {}
        return conditions(len(ys), offset, not any_relevant), {**bound(ys), **extra}

    return finite_check(
        id,
        cases=lambda _: (ys for ys in bipartite_rankings(n_max) if any_relevant or ys.count(2) == 1),
        formula=formula,
        describe=lambda ys: {"ranked labels": list(ys)},
        domain=f"every ranked list of n = 2..{n_max} bipartite labels{which}",
        cite=cite("Section 5.2, Table 1", quote),
        statement=f"Table 1: {measure} is sum_i G(y_pi(i)) D(i) of Eq. (9){which}",
        finding=finding,
    )


def push_objective(ys: Sequence[int], p: int) -> int:
    """Rudin (2009)'s p-norm push with the 0-1 loss (to minimise): the sum over negatives (label 1) of
    (the number of positives ranked below it)^p; ``ys`` lists the labels in ranked order."""
    return sum(sum(1 for y in ys[k + 1:] if y == 2) ** p for k, y in enumerate(ys) if y == 1)


def push_row_claim(
    id: str, *, p: int, n_max: int, increasing: bool = False, finding: Finding | None = None
) -> Claim:
    """Table 1: "p-Norm Push: G(y) = I(y = 2), D(i) = (n - i)^p".  Checked as: over every two ranked
    lists of the same labels, (9) with this G and D orders them as Rudin's p-norm push does (larger (9)
    <=> smaller push objective).  ``increasing`` uses D(i) = (i - 1)^p instead (the twin)."""

    def measure(ys: tuple[int, ...]) -> int:
        n = len(ys)
        return sum(((i - 1) if increasing else (n - i)) ** p for i, y in enumerate(ys, 1) if y == 2)

    def cases(_: Any) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        for n in range(2, n_max + 1):
            for npos in range(1, n):
                lists = [ys for ys in itertools.product((2, 1), repeat=n) if ys.count(2) == npos]
                yield from itertools.combinations(lists, 2)

    def holds(pair: Any) -> tuple[bool, str]:
        (a, b), sign = pair, lambda x: (x > 0) - (x < 0)
        ma, mb, ra, rb = measure(a), measure(b), push_objective(a, p), push_objective(b, p)
        return sign(ma - mb) == sign(rb - ra), f"(9): {ma} vs {mb}; push objective: {ra} vs {rb}"

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=lambda pair: {"ranked labels": [list(pair[0]), list(pair[1])]},
        domain=f"every two ranked lists of n = 2..{n_max} bipartite labels with the same number of positives",
        cite=cite("Section 5.2, Table 1", "p-Norm Push: G(y) = I(y = 2), D(i) = (n - i)^p"),
        statement=f"p = {p}: sum_i I(y_pi(i) = 2) (n - i)^p orders ranked lists as Rudin's p-norm push "
        "(sum over negatives of (positives ranked below)^p) does",
        finding=finding,
    )


def rearrangement_claim(
    id: str = "uematsu2013.section5_2.optimal_by_expected_gain", *, increasing_d: bool = False
) -> Claim:
    """Section 5.2: "to maximize the conditional measure as a weighted sum of D(i)'s, f must be a function such
    that C_f(1) >= C_f(2) >= ... >= C_f(n)" (``increasing_d`` makes D increasing: the twin)."""
    def cases(_: Any) -> Iterator[Any]:
        rng = random.Random(52)
        for n in range(2, 6):
            for _ in range(12):
                C = [F(rng.randint(0, 9), rng.randint(1, 4)) for _ in range(n)]
                D = sorted((F(rng.randint(0, 9), rng.randint(1, 3)) for _ in range(n)), reverse=not increasing_d)
                yield C, D

    def holds(case: Any) -> Any:
        C, D = case
        best = max(
            sum(C[p] * d for p, d in zip(perm, D, strict=True)) for perm in itertools.permutations(range(len(C)))
        )
        srt = sorted(C, reverse=True)
        val = sum(c * d for c, d in zip(srt, D, strict=True))
        return val == best, f"sorted = {val}, best = {best}"

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=lambda c: {"C": c[0], "D": c[1]},
        sample='seeded expected gains and discounts',
        domain="seeded expected gains C(1..n), non-negative decreasing discounts D, n = 2..5, every permutation",
        cite=cite("Section 5.2", "f must be a function such that C_f(1) >= C_f(2) >= ... >= C_f(n)"),
        statement="sum_i C_f(i) D(i) is maximised by sorting the expected gains E[G(Y)|x] decreasingly",
    )


def dcg_claim(id: str = "uematsu2013.section5_2.dcg_costs", *, base: int = 2, sizes: tuple[int, int] = (2, 6)) -> Claim:
    """Section 5.2: "the optimal ranking with respect to DCG is equivalent to pairwise ranking with c_ji =
    (2^i - 2^j) I(i > j)" (``base`` = 3: the twin)."""
    def sides(K: int) -> tuple[Any, Any]:
        s = [base**i - 1 for i in range(1, K + 1)]
        costs = sympy.Matrix([(s[i - 1] - s[j - 1]) for j, i in pairs(K)])
        return costs, sympy.Matrix([2**i - 2**j for j, i in pairs(K)])

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite(
            "Section 5.2",
            "the optimal ranking with respect to DCG is equivalent to pairwise ranking with c_ji = (2^i - 2^j) "
            "I(i > j)",
        ),
        statement="Corollary 1 with s_i = 2^i - 1, w = 1 gives c_ji = 2^i - 2^j",
    )


def dcg_f0_claim(id: str = "uematsu2013.section5_2.dcg_f0", *, base: int = 2, sizes: tuple[int, int] = (2, 6)) -> Claim:
    """Section 5.2: "the optimal ranking function for DCG preserves the ordering of sum (2^j - 1) P(Y = j|X = x),
    which is the same as f_0^* in Corollary 1 with s_i = 2^i - 1 and w_j = 1" (``base`` = 3: the twin)."""
    from symcal.ranking.costs import optimal_ranking_function

    def sides(K: int) -> tuple[Any, Any]:
        p = pvec(K)
        f0 = on_simplex(optimal_ranking_function(dcg_costs(K), p), K)
        E = on_simplex(sum((base**j - 1) * p[j - 1] for j in range(1, K + 1)), K)
        s1, sK = 1, 2**K - 1
        return f0, (E - s1) / (sK - E)

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        conditions=lambda K: [P(k) > 0 for k in range(1, K)],
        cite=cite(
            "Section 5.2",
            "the optimal ranking function for DCG preserves the ordering of sum (2^j - 1) P(Y = j|X = x), "
            "which is the same as f_0^* in Corollary 1",
        ),
        statement="f_0^* for c_ji = 2^i - 2^j equals (E - 1)/(2^K - 1 - E), E = sum (2^j - 1) p_j: increasing in E",
    )


def ap_expected(ps: Sequence[Any], one: Any = 1) -> Any:
    """E[AP] = sum_i p_i/i (1 + sum_{j<i} p_j) for the list of probabilities ``ps`` in ranked order (and AP
    itself for 0/1 relevances); ``one`` replaces the 1 (the twins)."""
    return sum(ps[i] * F(1, i + 1) * (one + sum(ps[:i])) for i in range(len(ps)))


@functools.cache
def ap_conditions(n: int, one: int) -> list[Any]:
    """The two printed forms of AP over the labels y_1..y_n: sum_i I(y_i = 2) 1/i sum_{j<=i} I(y_j = 2) and
    sum_i 1/i I(y_i = 2) (one + sum_{j<i} I(y_j = 2))."""
    G = [gain(y) for y in labels(n)]
    first = sum(G[i - 1] / i * sum(G[:i]) for i in range(1, n + 1))
    second = sum(G[i - 1] / i * (one + sum(G[: i - 1])) for i in range(1, n + 1))
    return [sympy.Eq(first, second, evaluate=False)]  # unevaluated: at n = 1 sympy sees G^2 = G itself


def ap_identity_claim(id: str = "uematsu2013.section5_2.ap_identity", *, one: int = 1, n_max: int = 8) -> Claim:
    """Section 5.2: "AP(f) = sum_i I(y_pi(i) = 2) 1/i sum_{j<=i} I(y_pi(j) = 2) = sum_i 1/i I(y_pi(i) = 2)
    (1 + sum_{j<i} I(y_pi(j) = 2))", over every ranked list of labels ("one" = 0 drops the 1: the twin).  Each
    list is a formula: both forms written over its labels (``ap_conditions``), which the case binds."""
    return finite_check(
        id,
        cases=lambda _: (ys for n in range(1, n_max + 1) for ys in itertools.product((1, 2), repeat=n)),
        formula=lambda ys: (ap_conditions(len(ys), one), bound(ys)),
        describe=lambda ys: {"ranked labels": list(ys)},
        domain=f"every ranked list of n = 1..{n_max} labels in {{1, 2}}",
        cite=cite("Section 5.2", "AP(f) = sum_i I(y_i = 2) 1/i sum_{j<=i} I(y_j = 2) = sum_i 1/i I(y_i = 2)(1 + "
                                 "sum_{j<i} I(y_j = 2))"),
        statement="the two printed forms of AP agree on every ranked list (the j = i term is the 1)",
    )


def ap_expectation_claim(
    id: str = "uematsu2013.section5_2.ap_expectation", *, one: int = 1, sizes: tuple[int, int] = (1, 5)
) -> Claim:
    """Section 5.2: "E[AP(f)|{X_i}] = sum_i p_f(i)/i (1 + sum_{j<i} p_f(j))" for independent labels with
    P(Y_pi(i) = 2) = p_i: the expectation over all 2^n label lists, a polynomial in p ("one" = 0: twin)."""

    def sides(n: int) -> tuple[Any, Any]:
        p = [sym(f"p_{i}", real=True) for i in range(1, n + 1)]
        expectation = sum(sympy.Mul(*[p[i] if r else 1 - p[i] for i, r in enumerate(rel)]) * ap_expected(rel)
                          for rel in itertools.product((0, 1), repeat=n))
        return sympy.expand(expectation), ap_expected(p, one)

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite("Section 5.2", "E[AP(f)|{X_i}] = sum_i p_f(i)/i (1 + sum_{j<i} p_f(j))"),
        statement="with independent labels, E[AP] over the 2^n label lists equals sum_i p_i/i (1 + sum_{j<i} p_j)",
    )


def ap_swap_claim(
    id: str = "uematsu2013.section5_2.ap_swap", *, square: bool = False, sizes: tuple[int, int] = (2, 6)
) -> Claim:
    """Section 5.2: "AP_k(p_{l+1}) - AP_k(p_l) = (p_l - p_k)(1 + sum_{i=1}^{l-1} p_i) 1/(l(l+1))"
    (``square`` divides by l^2: the twin)."""
    def sides(k: int) -> tuple[Any, Any]:
        p = [sym(f"p_{i}", real=True) for i in range(1, k + 1)]
        tail = [sym("t_1", real=True), sym("t_2", real=True)]
        lhs, rhs = [], []
        for l in range(1, k):
            pl = p[: l - 1] + [p[k - 1]] + p[l - 1 : k - 1]
            pl1 = p[:l] + [p[k - 1]] + p[l : k - 1]
            lhs.append(sympy.expand(ap_expected(pl1 + tail) - ap_expected(pl + tail)))
            den = l * l if square else l * (l + 1)
            rhs.append((p[l - 1] - p[k - 1]) * (1 + sum(p[: l - 1])) / den)
        return sympy.Matrix(lhs), sympy.Matrix(rhs)

    return identity_of_sides(
        id,
        sides,
        sizes=sizes,
        cite=cite("Section 5.2", "AP_k(p_{l+1}) - AP_k(p_l) = (p_l - p_k)(1 + sum_{i=1}^{l-1} p_i) 1/(l(l+1))"),
        statement="moving p_k from position l to l + 1 changes E[AP] by (p_l - p_k)(1 + sum_{i<l} "
        "p_i)/(l(l+1)) (two tail items)",
    )


def ap_sorted_claim(id: str = "uematsu2013.section5_2.ap_sorted_optimal", *, ascending: bool = False) -> Claim:
    """Section 5.2: "a ranking function f with p_f(1) >= p_f(2) >= ... >= p_f(n) maximizes E[AP(f)|{X_i}]"
    (``ascending`` sorts the other way: the twin)."""
    def cases(_: Any) -> Iterator[Any]:
        rng = random.Random(5)
        for n in range(2, 7):
            for _ in range(10):
                yield [F(rng.randint(0, 8), 8) for _ in range(n)]

    def holds(ps: list[Fraction]) -> Any:
        best = max(ap_expected([ps[i] for i in perm]) for perm in itertools.permutations(range(len(ps))))
        val = ap_expected(sorted(ps, reverse=not ascending))
        return val == best, f"sorted = {val}, best = {best}"

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=lambda ps: {"p": ps},
        sample='seeded posteriors on a grid',
        domain="seeded P(Y=2|x_i) in {0, 1/8, ..., 1}, n = 2..6, every permutation",
        cite=cite(
            "Section 5.2", "a ranking function f with p_f(1) >= p_f(2) >= ... >= p_f(n) maximizes E[AP(f)|{X_i}]"
        ),
        statement="sorting by P(Y = 2|x) decreasingly maximises the conditional expected AP",
    )


# ---------------------------------------------------------------------------------------
# The claims of Section 5, in reading order
# ---------------------------------------------------------------------------------------

without_extra_term_misorders = misorder_claim()
rank_one = rank_one_claim()
exp_minimiser = exp_minimiser_claim()
table1_auc = table1_claim("uematsu2013.section5_2.table1.auc", "auc")
table1_p_at_m = table1_claim("uematsu2013.section5_2.table1.p_at_m", "p_at_m")
table1_mrr_corrected = table1_claim("uematsu2013.section5_2.table1.mrr.corrected", "mrr", any_relevant=False)
table1_mrr = table1_claim(
    "uematsu2013.section5_2.table1.mrr", "mrr",
    finding=Finding(
        what=(
            "Table 1's MRR row (G = I(y = 2), D(i) = 1/i) sums 1/position over every relevant item; the reciprocal "
            "rank is 1/(position of the first relevant item).  They agree only when exactly one item is relevant."
        ),
        counterexample="n = 2, both items relevant: sum G D = 1 + 1/2 = 3/2, reciprocal rank 1.",
        corrected=table1_mrr_corrected.id,
        finding_class="statement",
    ),
)
table1_p_norm_push_corrected = push_row_claim("uematsu2013.section5_2.table1.p_norm_push.corrected", p=1, n_max=8)
table1_p_norm_push = push_row_claim(
    "uematsu2013.section5_2.table1.p_norm_push", p=2, n_max=6,
    finding=Finding(
        what="Table 1's p-norm push row (G = I(y = 2), D(i) = (n - i)^p) is not Rudin (2009)'s p-norm push for "
        "p >= 2: Rudin's objective sums, over the negatives, (number of positives ranked below)^p, which is not of "
        "the form (9), and the two order ranked lists differently (none of n <= 5 does).  At p = 1 the row is the "
        "AUC row and agrees with the push.",
        counterexample="p = 2, n = 6, three positives: (+,-,-,-,+,+) and (-,+,+,-,+,-) both score 26 under (9) "
        "(5^2 + 1^2 + 0^2 = 4^2 + 3^2 + 1^2) while the push objective is 12 vs 10; (-,+,+,-,-,+) scores 25 < 26 "
        "under (9) yet 11 < 12 under the push.",
        corrected=table1_p_norm_push_corrected.id,
        finding_class="statement",
    ),
)
optimal_by_expected_gain = rearrangement_claim()
dcg_f0 = dcg_f0_claim()
dcg_costs_identity = dcg_claim()
condition_dcg = sweep_claim(
    "uematsu2013.theorem3.condition.dcg",
    "dcg",
    location="Section 5.2",
    quote="the optimal ranking with respect to DCG is equivalent to pairwise ranking with c_ji = 2^i - 2^j",
)
ap_identity = ap_identity_claim()
ap_expectation = ap_expectation_claim()
ap_swap = ap_swap_claim()
ap_sorted_optimal = ap_sorted_claim()

TWINS: dict[str, Callable[[], Claim]] = {
    # with Theorem 4's extra term the minimiser orders like f_0^*: refuted at an order-preserving x with R <= R(w)
    without_extra_term_misorders.id: lambda: misorder_claim(twin_id("uematsu2013.misorder"), extra=True),
    rank_one.id: lambda: rank_one_claim(twin_id("uematsu2013.r1"), costs=zero_one_costs(4), sizes=(2, 2)),
    exp_minimiser.id: lambda: exp_minimiser_claim(twin_id("uematsu2013.expmin"), half=1, sizes=(2, 2)),
    table1_auc.id: lambda: table1_claim(twin_id("uematsu2013.auc"), "auc", offset=1, n_max=4),
    table1_p_at_m.id: lambda: table1_claim(twin_id("uematsu2013.pm"), "p_at_m", offset=1, n_max=4),
    table1_mrr_corrected.id: lambda: table1_claim(
        twin_id("uematsu2013.mrr"), "mrr", any_relevant=False, offset=1, n_max=4
    ),
    table1_p_norm_push_corrected.id: lambda: push_row_claim(
        twin_id(table1_p_norm_push_corrected.id), p=1, n_max=4, increasing=True
    ),
    optimal_by_expected_gain.id: lambda: rearrangement_claim(twin_id("uematsu2013.rearr"), increasing_d=True),
    dcg_f0.id: lambda: dcg_f0_claim(twin_id("uematsu2013.dcgf"), base=3, sizes=(2, 2)),
    dcg_costs_identity.id: lambda: dcg_claim(twin_id("uematsu2013.dcgc"), base=3, sizes=(2, 2)),
    condition_dcg.id: lambda: sweep_claim(twin_id("uematsu2013.dcg"), "zero_one", sizes=(4, 4)),
    ap_identity.id: lambda: ap_identity_claim(twin_id(ap_identity.id), one=0, n_max=4),
    ap_expectation.id: lambda: ap_expectation_claim(twin_id(ap_expectation.id), one=0, sizes=(2, 2)),
    ap_swap.id: lambda: ap_swap_claim(twin_id("uematsu2013.ap"), square=True, sizes=(3, 3)),
    ap_sorted_optimal.id: lambda: ap_sorted_claim(twin_id("uematsu2013.aps"), ascending=True),
}
TWIN_EXPECT: dict[str, str] = {}


# ---------------------------------------------------------------------------------------
# Section 5.2: "f must be a function such that C_f(1) >= ... >= C_f(n)" read as a necessary condition
# ---------------------------------------------------------------------------------------


def table1_discounts(n: int) -> dict[str, list[Fraction]]:
    """Table 1's discounts D(1..n) at list length n, the rational ones (AUC, p-norm push at p = 2, MRR, P@m
    for m = 1..n-1); DCG's 1/log(1 + i) is left out (irrational, and strictly decreasing anyway)."""
    out = {"AUC": [F(n - i) for i in range(1, n + 1)],
           "p-norm push, p = 2": [F(n - i) ** 2 for i in range(1, n + 1)],
           "MRR": [F(1, i) for i in range(1, n + 1)]}
    for m in range(1, n):
        out[f"P@{m}"] = [F(int(i <= m), m) for i in range(1, n + 1)]
    return out


GAIN_GRID = (F(0), F(1, 2), F(1))


def necessity_cases(n: int) -> Iterator[tuple[str, tuple[Fraction, ...], tuple[Fraction, ...]]]:
    """(measure, D, C_f) for every Table 1 discount at length n and every C_f in {0, 1/2, 1}^n."""
    for name, D in table1_discounts(n).items():
        for C in itertools.product(GAIN_GRID, repeat=n):
            yield name, tuple(D), C


def necessity_holds(case: Any) -> tuple[bool, str]:
    """Whether an order of the expected gains C_f that maximises sum C_f(i) D(i) is sorted decreasingly
    (an order that does not maximise satisfies the implication vacuously)."""
    name, D, C = case
    n = len(C)
    best = max(sum(C[p] * d for p, d in zip(perm, D, strict=True)) for perm in itertools.permutations(range(n)))
    if sum(c * d for c, d in zip(C, D, strict=True)) != best:
        return True, f"C_f = {[str(c) for c in C]} does not maximise"
    bad = [a for a in range(n - 1) if C[a] < C[a + 1]]
    where = f", but C_f({bad[0] + 1}) < C_f({bad[0] + 2})" if bad else ""
    return not bad, (f"{name}: C_f = {[str(c) for c in C]} attains the maximum {best} of sum C_f(i) D(i), "
                     f"D = {[str(d) for d in D]}{where}")


def necessity_claim(id: str, *, finding: Finding | None = None) -> Claim:
    """Section 5.2: "Since D is non-negative and decreasing, to maximize the conditional measure as a weighted
    sum of D(i)'s, f must be a function such that C_f(1) >= C_f(2) >= ... >= C_f(n)", read as printed: every
    maximising order is sorted, for the discounts of Table 1 (P@m's included), n = 2..4, C_f on a grid."""
    return finite_check(
        id,
        cases=necessity_cases,
        holds=necessity_holds,
        describe=lambda c: {"measure": c[0], "D": [str(d) for d in c[1]], "C_f": [str(x) for x in c[2]]},
        domain="Table 1's rational discounts at n = 2..4, expected gains C_f in {0, 1/2, 1}^n",
        sample="the expected gains on the grid {0, 1/2, 1}^n",
        cite=cite("Section 5.2", "Since D is non-negative and decreasing, to maximize the conditional measure as a "
                                 "weighted sum of D(i)'s, f must be a function such that C_f(1) >= C_f(2) >= ... >= "
                                 "C_f(n)"),
        statement="with Table 1's discounts, every order that maximises sum C_f(i) D(i) has C_f(1) >= ... >= C_f(n)",
        sizes=(2, 4),
        finding=finding,
    )


def strict_necessity_cases(n: int, *, strict: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """D strictly decreasing (``strict=False``: only non-increasing, the twin) and non-negative, and the
    identity order maximal among all n! orders => C_1 >= ... >= C_n (symbolic C, D)."""
    C = [sym(f"C_{i}", real=True) for i in range(1, n + 1)]
    D = [sym(f"D_{i}", real=True) for i in range(1, n + 1)]
    value = sum(c * d for c, d in zip(C, D, strict=True))
    maximal = [value >= sum(C[p] * d for p, d in zip(perm, D, strict=True))
               for perm in itertools.permutations(range(n)) if list(perm) != list(range(n))]
    decreasing = [(D[i] > D[i + 1]) if strict else (D[i] >= D[i + 1]) for i in range(n - 1)] + [D[-1] >= 0]
    return [(f"n={n}", {"decreasing": decreasing, "maximiser": maximal},
             sympy.And(*[C[i] >= C[i + 1] for i in range(n - 1)]))]


def strict_necessity_claim(id: str, *, strict: bool = True, sizes: tuple[int, int] = (2, 4)) -> Claim:
    """The corrected reading: with D strictly decreasing (AUC, p-norm push, MRR, DCG) every maximiser is sorted;
    with D only non-increasing (P@m) sorting is a maximiser (``optimal_by_expected_gain``) but not the only one."""
    return implies_cases(
        id,
        cases=lambda n: strict_necessity_cases(n, strict=strict),
        sizes=sizes,
        domain="n = 2..4, real expected gains C_i and discounts D_i",
        cite=cite("Section 5.2", "f must be a function such that C_f(1) >= C_f(2) >= ... >= C_f(n)"),
        statement="if D(1) > D(2) > ... > D(n) >= 0, an order maximises sum C_f(i) D(i) only if C_f(1) >= ... >= "
                  "C_f(n)" + ("" if strict else " [twin: D only non-increasing]"),
    )


necessity_corrected = strict_necessity_claim("uematsu2013.section5_2.sorted_is_necessary.corrected")
necessity = necessity_claim(
    "uematsu2013.section5_2.sorted_is_necessary",
    finding=Finding(
        what="Section 5.2 says that to maximise sum C_f(i) D(i) for a non-negative decreasing D, f 'must' order "
             "the expected gains decreasingly.  Sorting is sufficient, but necessary only for a strictly decreasing "
             "D: Table 1's P@m discount D(i) = I(i <= m)/m is constant on the top m positions and 0 below, so "
             "any order of the top m (and of the rest) is also a maximiser.",
        counterexample="P@1, n = 3, D = (1, 0, 0): C_f = (1/2, 0, 1/2) attains the maximum 1/2 although "
                       "C_f(2) < C_f(3).",
        corrected=necessity_corrected.id,
        finding_class="hypothesis",
    ),
)

TWINS[necessity_corrected.id] = lambda: strict_necessity_claim(
    twin_id(necessity_corrected.id), strict=False, sizes=(2, 2))
