"""Section 6 of Uematsu & Lee (2013): the worked numbers of the simulation (6.1) and of the
MovieLens analysis (6.2), Table 2 recomputed from the printed thresholds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies
from symcal.claims.core import Claim
from symcal.errors import BackendFailure
from symcal.exact import zero_test
from symcal.ranking.costs import CostScheme, orboost_costs

from .common import E_SQUARED, P, R, cite, on_simplex, pvec, sym, theta, twin_id

# ---------------------------------------------------------------------------------------
# Printed numbers: a rounding is a formula over the printed decimals (enclosures decide it)
# ---------------------------------------------------------------------------------------


def enclosure(expr: Any) -> tuple[Fraction, Fraction]:
    """A rigorous enclosure [lo, hi] of a closed expression: symcal's interval compiler
    (mpmath ``iv``, every constant and operation outward-rounded, 200 bits)."""
    from symcal.backends.interval_backend import enclosure as iv_enclosure

    return iv_enclosure(sympy.sympify(expr), {}, precision=200)


def round_half_up(x: Fraction, digits: int) -> Fraction:
    """``x`` rounded half up to ``digits`` decimals."""
    scale = 10**digits
    return Fraction(int((x * scale + Fraction(1, 2)) // 1), scale)


def rounds_to(expr: Any, printed: str) -> tuple[bool, str]:
    """Does ``expr`` round to ``printed`` (as many decimals as printed)?  Raises when the
    enclosure straddles a rounding boundary (undecided: never a pass)."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    lo, hi = enclosure(expr)
    a, b = round_half_up(lo, digits), round_half_up(hi, digits)
    if a != b:
        raise BackendFailure(
            f"the enclosure [{float(lo)}, {float(hi)}] of {expr} does not decide the rounding to {digits} digits"
        )
    want = Fraction(printed)
    return a == want, f"{sympy.sstr(expr)} in [{float(lo):.12g}, {float(hi):.12g}] rounds to {float(a):.{digits}f}"


def rounds_half_up(expr: Any, shown: sympy.Symbol, printed: str) -> list[Any]:
    """``expr`` rounds half up to the printed decimal ``shown`` (a symbol the formula binds to the
    printed number): ``shown - h <= expr < shown + h``, h half a unit of the printed last digit."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    h = R(5, 10 ** (digits + 1))
    return [shown - h <= expr, expr < shown + h]


def equals_exactly(expr: Any, shown: sympy.Symbol) -> Any:
    """``expr = shown``, stated as ``shown <= expr <= shown``: the kernel decides an equation only between
    exact rationals, an inequality also by arb balls (so an exp that misses the printed integer is refuted
    in the kernel too)."""
    return sympy.And(shown <= expr, expr <= shown)


C13_NUMBERS = {  # section -> (the number, the printed theta_1, the printed rounding of e^{-theta_1}, the quote)
    "6.1": ("e^{2.06}", "-2.06", "7.846", "c_13 = e^{-theta_1} = e^{2.06} = 7.846"),
    "6.2": ("e^{0.183}", "-0.183", "1.201", "which amounts to e^{-theta_1} = 1.201"),
}


def c13_claim(id: str, section: str, *, printed: str | None = None) -> Claim:
    """Sections 6.1 and 6.2: ORBoost's cost c_13 = e^{-theta_1} at the estimated thresholds, "e^{2.06} = 7.846"
    (theta_1 = -2.06) and "e^{-theta_1} = 1.201" (theta_1 = -0.183); ``printed`` nudges the printed digits (the
    twins).  The formula binds theta_1 and the printed value to the printed decimals; e^{-theta_1} is enclosed
    (mpmath intervals, and the kernel's arb balls) and must lie in the printed value's half-up rounding interval."""
    name, t1_printed, shown, quote = C13_NUMBERS[section]
    shown = printed or shown
    t1, c13 = sympy.Symbol("theta_1"), sympy.Symbol("c_13_printed")

    def formula(_: str) -> Any:
        return rounds_half_up(sympy.exp(-t1), c13, shown), {t1: t1_printed, c13: shown}

    return finite_check(
        id,
        cases=[name],
        formula=formula,
        describe=lambda it: {"entry": it, "printed": shown},
        domain="the printed number, e^{-theta_1} at the printed theta_1, enclosed and compared with the printed "
        "value's rounding interval",
        cite=cite(f"Section {section}", quote),
        statement=f"{name} rounds to {shown}",
    )


# ---------------------------------------------------------------------------------------
# Section 6.1: the simulation (a normal mixture, K = 3)
# ---------------------------------------------------------------------------------------


XS = sym("x", real=True)


def mixture_posteriors(means: Sequence[Any]) -> list[Any]:
    """P(Y = k | x) for a balanced mixture of N(mu_k, 1)."""
    g = [sympy.exp(-((XS - mu) ** 2) / 2) for mu in means]
    return [gk / sum(g) for gk in g]


def mixture_f0_claim(id: str = "uematsu2013.section6_1.normal_mixture_f0", *, e2: Any = E_SQUARED) -> Claim:
    """Section 6.1: "f_0^*(x) = (P(Y=2|x) + P(Y=3|x)) / (P(Y=1|x) + P(Y=2|x)) = (e^{2x} + e^2)/(e^{-2x} + e^2)"
    (``e2`` = e: the twin)."""
    p = mixture_posteriors((-2, 0, 2))
    return identity(
        id,
        (p[1] + p[2]) / (p[0] + p[1]),
        (sympy.exp(2 * XS) + e2) / (sympy.exp(-2 * XS) + e2),
        cite=cite(
            "Section 6.1", "f_0^*(x) = (P(Y=2|x) + P(Y=3|x)) / (P(Y=1|x) + P(Y=2|x)) = (e^{2x} + e^2)/(e^{-2x} + e^2)"
        ),
        statement="balanced N(-2,1), N(0,1), N(2,1) mixture: f_0^* for unit costs = (e^{2x} + e^2)/(e^{-2x} + e^2)",
    )


def mixture_orboost_claim(id: str = "uematsu2013.section6_1.orboost_f_star", *, sign: int = 1) -> Claim:
    """Section 6.1: "f^* for ORBoost is approximately given as 1/2 log((e^{2x} + e^{2 + theta_1})/(e^{-2x - theta_1}
    + e^2))", (7) with theta_2 = 0 on the mixture (``sign`` = -1: the twin)."""
    p = mixture_posteriors((-2, 0, 2))
    t1 = theta(1)
    th = {1: t1, 2: sympy.Integer(0)}
    inside7 = (p[1] * sympy.exp(th[1]) + p[2] * sympy.exp(th[2])) / (
        p[0] * sympy.exp(-th[1]) + p[1] * sympy.exp(-th[2])
    )
    printed = (sympy.exp(2 * XS) + sympy.exp(2 + sign * t1)) / (sympy.exp(-2 * XS - t1) + sympy.exp(2))
    return identity(
        id,
        inside7,
        printed,
        cite=cite(
            "Section 6.1",
            "f^* for ORBoost is approximately given as 1/2 log((e^{2x} + e^{2 + theta_1})/(e^{-2x - theta_1} + e^2))",
        ),
        statement="(7) with theta_2 = 0 on the normal mixture: the argument of (1/2) log is as printed",
    )


def mixture_propodds_claim(id: str = "uematsu2013.section6_1.propodds_f_star", *, four: Any = 4) -> Claim:
    """Section 6.1: "log((f_0^*(x) - 1 + sqrt((f_0^*(x) - 1)^2 + 4 e^{theta_1} f_0^*(x)))/2)", (8) with theta_2 = 0
    (``four`` = 2: the twin)."""
    q = sym("q", positive=True)
    t1 = theta(1)
    eq8 = (q - 1 + sympy.sqrt((q - 1) ** 2 + 4 * sympy.exp(t1 - 0) * q)) / (2 * sympy.exp(-0))
    printed = (q - 1 + sympy.sqrt((q - 1) ** 2 + four * sympy.exp(t1) * q)) / 2
    return identity(
        id,
        eq8,
        printed,
        cite=cite("Section 6.1", "log((f_0^*(x) - 1 + sqrt((f_0^*(x) - 1)^2 + 4 e^{theta_1} f_0^*(x)))/2)"),
        statement="(8) with theta_2 = 0 and q = f_0^* is the printed proportional-odds f* (inside the log)",
    )


def is_zero(expr: Any) -> tuple[bool, str]:
    """The code base's one zero test (``symcal.exact.zero_test``): 0 only when formally zero,
    non-zero only by exact evaluation or a rigorous enclosure; undecided raises (never a pass)."""
    z = zero_test(expr)
    if z.zero is None:
        raise BackendFailure(f"the zero test does not decide {sympy.sstr(expr)}: {z.reason}")
    return z.zero, z.reason


def svor_steps_claim(id: str = "uematsu2013.section6_1.svor_steps", *, printed: str = "1.02") -> Claim:
    """Section 6.1: "the theoretical values of -1.02, 0 and 1.02 that yield f_0^*(x) = 1/2, 1 and 2".
    With u = e^{2x}, f_0^* = 2 solves u^2 - e^2 u - 2 = 0; each value is decided by the zero test and
    each location's rounding by an interval enclosure."""
    e2 = sympy.exp(2)
    ustar = (e2 + sympy.sqrt(e2**2 + 8)) / 2  # e^{2x*}: root of u^2 - e^2 u - 2 = 0
    xstar = sympy.log(ustar) / 2

    def f0_of_u(uu: Any) -> Any:  # f_0^* with e^{2x} = uu
        return (uu + e2) / (1 / uu + e2)

    steps = {  # name -> (f_0^* at the step minus its value, the location, its printed rounding)
        "x*: f_0^* = 2": (f0_of_u(ustar) - 2, xstar, printed),
        "-x*: f_0^* = 1/2": (f0_of_u(1 / ustar) - R(1, 2), -xstar, "-" + printed),
        "0: f_0^* = 1": (f0_of_u(sympy.Integer(1)) - 1, sympy.Integer(0), "0"),
    }

    def holds(name: str) -> tuple[bool, str]:
        residual, x, shown = steps[name]
        zero, how = is_zero(residual)
        ok, detail = rounds_to(x, shown)
        return zero and ok, f"f_0^* minus its value is {'zero' if zero else 'non-zero'} ({how}); {detail}"

    return finite_check(
        id,
        cases=list(steps),
        holds=holds,
        describe=lambda it: {"step": it},
        domain="the three step locations: exact algebra (e^{2x} solves u^2 - e^2 u - 2 = 0) and interval rounding",
        cite=cite("Section 6.1", "the theoretical values of -1.02, 0 and 1.02 that yield f_0^*(x) = 1/2, 1 and 2"),
        statement="f_0^* = 2, 1, 1/2 exactly at x = x*, 0, -x* with x* = (1/2) log((e^2 + sqrt(e^4 + 8))/2), "
        f"and x* rounds to {printed}",
    )


def threshold_shift_claim(
    id: str = "uematsu2013.section6_1.threshold_shift", *, shift_thresholds: bool = True
) -> Claim:
    """Section 6.1: "When K = 3, there are two thresholds theta_1 and theta_2 (theta_1 <= theta_2), but without loss
    of generality we can fix one of them": the losses of Section 4 (l(f - theta_{y-1}) + l(theta_y - f) for any l,
    and the implicit-constraints hinge loss) are unchanged when f and every theta_j move by the same a
    (``shift_thresholds=False`` moves f alone, with l(s) = e^{-s}: the twin)."""
    f, a = sym("f", real=True), sym("a", real=True)
    t1, t2 = theta(1), theta(2)
    lf = sympy.Function("l") if shift_thresholds else (lambda x: sympy.exp(-x))

    def hinge(x: Any) -> Any:
        return sympy.Max(0, 1 - x)

    def losses(f: Any, t1: Any, t2: Any) -> Any:  # label y = 2 (the middle one) and the IMC loss of y = 2
        return sympy.Matrix([lf(f - t1) + lf(t2 - f), hinge(f - t1) + hinge(t2 - f)])

    b = a if shift_thresholds else 0
    return identity(
        id,
        losses(f + a, t1 + b, t2 + b),
        losses(f, t1, t2),
        cite=cite("Section 6.1", "there are two thresholds theta_1 and theta_2 (theta_1 <= theta_2), but without loss "
                                 "of generality we can fix one of them"),
        statement="the ordinal-regression losses depend on f and the thresholds only through f - theta_j: moving all "
        "of them by a leaves them unchanged, so one threshold can be fixed",
    )


def c13_contour_claim(id: str = "uematsu2013.section6_1.c13_contours", *, swap: bool = False) -> Claim:
    """Section 6.1: "(P(Y = 2|x) + c13 P(Y = 3|x))/(c13 P(Y = 1|x) + P(Y = 2|x)) = (p_2(x) + c13(1 - p_1(x) -
    p_2(x)))/(c13 p_1(x) + p_2(x))", the f_0^* of Theorem 3 (i) for c12 = c23 = 1 (``swap`` moves c13 in
    the denominator onto p_2: the twin)."""
    from symcal.ranking.costs import optimal_ranking_function

    c13, p1, p2 = sym("c_13", positive=True), P(1), P(2)
    f0 = optimal_ranking_function(CostScheme(3, {(1, 2): 1, (1, 3): c13, (2, 3): 1}), pvec(3))
    den = (p1 + c13 * p2) if swap else (c13 * p1 + p2)
    return identity(
        id,
        on_simplex(f0, 3),
        (p2 + c13 * (1 - p1 - p2)) / den,
        cite=cite("Section 6.1", "(P(Y=2|x) + c13 P(Y=3|x)) / (c13 P(Y=1|x) + P(Y=2|x)) = (p_2(x) + c13(1 - p_1(x) - "
                                 "p_2(x))) / (c13 p_1(x) + p_2(x))"),
        statement="f_0^* for (c12, c13, c23) = (1, c13, 1), written on the simplex p_3 = 1 - p_1 - p_2, is as printed",
    )


def parallel_contours_claim(id: str = "uematsu2013.section6_1.figure2_parallel_contours", *, c13: int = 2) -> Claim:
    """Figure 2: "(p_2 + 2p_3)/(2p_1 + p_2) for expected relevance (middle) ... where the equivalence sets form
    parallel lines": two points of the simplex have the same score iff they lie on the same line
    2p_1 + p_2 = const (``c13`` = 1 asks it of the left panel's (p_2 + p_3)/(p_1 + p_2): the twin)."""
    p1, p2, q1, q2 = (sym(n, real=True) for n in ("p_1", "p_2", "q_1", "q_2"))

    def score(a: Any, b: Any) -> Any:  # (p_2 + c13 p_3)/(c13 p_1 + p_2) with p_3 = 1 - p_1 - p_2
        return (b + c13 * (1 - a - b)) / (c13 * a + b)

    simplex = [p1 >= 0, p2 >= 0, p1 + p2 <= 1, q1 >= 0, q2 >= 0, q1 + q2 <= 1]
    same_line = sympy.Eq(2 * p1 + p2, 2 * q1 + q2)
    same_score = sympy.Eq(score(p1, p2), score(q1, q2))
    return implies(
        id,
        hypotheses={"simplex": simplex, "defined": [c13 * p1 + p2 > 0, c13 * q1 + q2 > 0]},
        conclusion=sympy.And(sympy.Implies(same_score, same_line), sympy.Implies(same_line, same_score)),
        cite=cite("Section 6.1, Figure 2", "(p_2 + 2p_3)/(2p_1 + p_2) for expected relevance (middle) ... where the "
                                           "equivalence sets form parallel lines"),
        statement="two points of the simplex have the same value of (p_2 + 2p_3)/(2p_1 + p_2) iff 2p_1 + p_2 is "
        "the same at both: the level sets are the parallel lines 2p_1 + p_2 = const",
    )


# ---------------------------------------------------------------------------------------
# Section 6.2: MovieLens
# ---------------------------------------------------------------------------------------


def svor_thresholds_claim(id: str = "uematsu2013.section6_2.svor_thresholds", *, theta2: str = "0.61") -> Claim:
    """Sections 6.1 and 6.2: "the estimates of theta_1 and theta_2 are -1.39 and 0.61 and satisfy the relation
    theta_1 + 1 = theta_2 - 1 ... (-2.39, -0.39, 1.61)"; "theta_1 = -1.2 and theta_2 = 1.1, which fall into Case 2"
    (``theta2`` = 0.62: the twin).  Each check is a formula over the printed decimals."""
    t1, t2, s1, s2 = (sympy.Symbol(n) for n in ("theta_1", "theta_2", "sim_theta_1", "sim_theta_2"))
    k1, k2, k3 = (sympy.Symbol(f"cluster_{k}") for k in (1, 2, 3))
    movielens = {t1: "-1.39", t2: theta2}
    checks = {
        "theta_1 + 1 = theta_2 - 1 (MovieLens)": ([sympy.Eq(t1 + 1, t2 - 1)], movielens),
        "clusters (-2.39, -0.39, 1.61)": (
            [sympy.Eq(t1 - 1, k1), sympy.Eq(t1 + 1, k2), sympy.Eq(t2 + 1, k3)],
            {**movielens, k1: "-2.39", k2: "-0.39", k3: "1.61"},
        ),
        "simulation (-1.2, 1.1) in Case 2: theta_1 + 1 <= theta_2 - 1": ([s1 + 1 <= s2 - 1], {s1: "-1.2", s2: "1.1"}),
    }
    return finite_check(
        id,
        cases=list(checks),
        formula=lambda c: checks[c],
        describe=lambda c: {"check": c},
        domain="the printed SVOR thresholds, exact decimals",
        cite=cite(
            "Sections 6.1 and 6.2",
            "the estimates of theta_1 and theta_2 are -1.39 and 0.61 and satisfy the relation "
            "theta_1 + 1 = theta_2 - 1 ... (-2.39, -0.39, 1.61)",
        ),
        statement="SVOR thresholds: -1.39 + 1 = 0.61 - 1, clusters at (-2.39, -0.39, 1.61); (-1.2, 1.1) fall "
        "into Case 2",
    )


def pairrank2_claim(id: str = "uematsu2013.section6_2.pairrank2_regression", *, c13: int = 2) -> Claim:
    """Section 6.2: "1/2 log((sum j P(Y=j|x) - 1)/(3 - sum j P(Y=j|x))) = 1/2 log((s_r(x) - 1)/(3 - s_r(x)))", the
    f_0^* of PAIRRANK2, c = (1, 2, 1) (``c13`` = 1: the twin)."""
    from symcal.ranking.costs import optimal_ranking_function

    f0 = optimal_ranking_function(CostScheme(3, {(1, 2): 1, (1, 3): c13, (2, 3): 1}), pvec(3))
    E = sum(k * P(k) for k in (1, 2, 3))
    return identity(
        id,
        on_simplex(f0, 3),
        on_simplex((E - 1) / (3 - E), 3),
        cite=cite(
            "Section 6.2", "1/2 log((sum j P(Y=j|x) - 1)/(3 - sum j P(Y=j|x))) = 1/2 log((s_r(x) - 1)/(3 - s_r(x)))"
        ),
        statement="PAIRRANK2 (c = (1, 2, 1)): f_0^* = (E[Y|x] - 1)/(3 - E[Y|x])",
    )


def orboost_k3_claim(id: str = "uematsu2013.section6_2.orboost_k3_costs", *, theta2: Any = 0) -> Claim:
    """Section 6.2: "This yields the cost scheme of c12 = c23 = 1 and c13 = e^{-theta_1} for ORBoost"
    (``theta2`` = 1 instead of 0: the twin)."""
    t1 = theta(1)
    c = orboost_costs([t1, theta2])
    return identity(
        id,
        sympy.Matrix([c.c(1, 2), c.c(1, 3), c.c(2, 3)]),
        sympy.Matrix([1, sympy.exp(-t1), 1]),
        cite=cite("Section 6.2", "This yields the cost scheme of c12 = c23 = 1 and c13 = e^{-theta_1} for ORBoost"),
        statement="ORBoost with theta_2 = 0 implies c12 = c23 = 1, c13 = e^{-theta_1}",
    )


MOVIELENS_COUNTS = (5039, 10846, 26448, 33842, 20964)
PRINTED_PERCENT = ("5.18", "11.17", "27.23", "34.84", "21.58")
CORRECTED_PERCENT = ("5.19", "11.17", "27.23", "34.84", "21.58")


def proportions_claim(id: str, printed: Sequence[str], *, finding: Finding | None = None) -> Claim:
    """Section 6.2: "The remaining ratings are 97,139 in total, and there are 5,039, 10,846, 26,448, 33,842 and
    20,964 cases ... (5.18%, 11.17%, 27.23%, 34.84%, 21.58%)": the counts add up to 97,139 and each exact
    percentage 100 n_k / (n_1 + ... + n_5) rounds half up to the ``printed`` one (a formula over the printed
    counts and percentages)."""
    n = [sympy.Symbol(f"n_{k}") for k in range(1, 6)]
    total, pct = sympy.Symbol("N"), sympy.Symbol("percent_printed")
    counts = dict(zip(n, MOVIELENS_COUNTS, strict=True))

    def formula(k: int) -> Any:
        share = 100 * n[k] / sum(n)
        return ([sympy.Eq(sum(n), total), *rounds_half_up(share, pct, printed[k])],
                {**counts, total: 97139, pct: printed[k]})

    return finite_check(
        id,
        cases=range(5),
        formula=formula,
        describe=lambda k: {"rating": k + 1, "count": MOVIELENS_COUNTS[k], "printed": printed[k],
                            "percent": f"{100 * MOVIELENS_COUNTS[k] / sum(MOVIELENS_COUNTS):.5f}"},
        domain="the five MovieLens ratings, exact rational percentages rounded half-up to 2 decimals",
        cite=cite(
            "Section 6.2", "5,039, 10,846, 26,448, 33,842 and 20,964 cases ... (5.18%, 11.17%, 27.23%, 34.84%, 21.58%)"
        ),
        statement="the rating proportions of the 97,139 ratings, rounded to 2 decimals, are "
        + ", ".join(printed)
        + " %",
        finding=finding,
    )


def unbalanced_claim(id: str = "uematsu2013.section6_2.unbalanced_sample", *, tol: str = "0.1") -> Claim:
    """Section 6.2: "an unbalanced sample ... contains 130, 280, 680, 870, and 540 cases ... approximately
    reflecting the proportions", each share within ``tol`` points (0.01: the twin): a formula over the printed
    sample counts a_k, the sample size 2,500 and the data's counts n_k."""
    sample = (130, 280, 680, 870, 540)
    a = [sympy.Symbol(f"a_{k}") for k in range(1, 6)]
    n = [sympy.Symbol(f"n_{k}") for k in range(1, 6)]
    size, t = sympy.Symbol("sample_size"), sympy.Symbol("tol")
    data = {**dict(zip(a, sample, strict=True)), **dict(zip(n, MOVIELENS_COUNTS, strict=True)), size: 2500, t: tol}

    def formula(k: int) -> Any:
        share, data_share = 100 * a[k] / size, 100 * n[k] / sum(n)
        return [sympy.Eq(sum(a), size), sympy.Abs(share - data_share) <= t], data

    return finite_check(
        id,
        cases=range(5),
        formula=formula,
        describe=lambda k: {"rating": k + 1},
        domain="the five ratings of the unbalanced sample of 2,500",
        cite=cite(
            "Section 6.2",
            "an unbalanced sample ... contains 130, 280, 680, 870, and 540 cases ... approximately "
            "reflecting the proportions",
        ),
        statement=f"130 + 280 + 680 + 870 + 540 = 2500 and each share is within {tol} percentage points of the data's",
    )


def printed_arithmetic_claim(id: str = "uematsu2013.section6_2.printed_arithmetic", *, balanced: str = "0.2") -> Claim:
    """Section 6.2: "sigma^2 = 44 x 0.5 = 22" and "Since c12 pi_2 = 0.1117 < 0.2 while c45 pi_4 = 0.3484 > 0.2",
    with c12 = c45 = 1 (the linear scheme c_ji = i - j), pi_2, pi_4 the printed 11.17 %, 34.84 % (the unbalanced
    sample's 280/2500, 870/2500 within 0.05 points) and 0.2 the balanced share ``balanced`` (0.1: the twin).
    Each check is a formula over the printed numbers."""
    S = sympy.Symbol
    n_var, bw, sigma2 = S("n_variables"), S("bandwidth"), S("sigma2")
    i, j, j4, i5, c = S("i"), S("j"), S("j_4"), S("i_5"), S("c_printed")
    P2, P4, pi2, pi4 = S("percent_2"), S("percent_4"), S("pi_2"), S("pi_4")
    a2, a4, size, per_rating, share = S("a_2"), S("a_4"), S("sample_size"), S("per_rating"), S("balanced_share")
    half_pp = R(5, 100)
    printed = {P2: "11.17", P4: "34.84", pi2: "0.1117", pi4: "0.3484", share: balanced}

    def lin(jj: Any, ii: Any) -> Any:  # the linear scheme c_ji = i - j
        return ii - jj

    checks = {
        "sigma^2 = 44 x 0.5 = 22": ([sympy.Eq(n_var * bw, sigma2)], {n_var: 44, bw: "0.5", sigma2: 22}),
        "c_12 = c_45 = 1 in the linear scheme": (
            [sympy.Eq(lin(j, i), c), sympy.Eq(lin(j4, i5), c)], {j: 1, i: 2, j4: 4, i5: 5, c: 1}),
        "pi_2 = 11.17 % = 0.1117, pi_4 = 34.84 % = 0.3484": (
            [sympy.Eq(P2 / 100, pi2), sympy.Eq(P4 / 100, pi4)], printed),
        "the unbalanced sample's shares 11.2 %, 34.8 % are within 0.05 points of them": (
            [sympy.Abs(100 * a2 / size - P2) <= half_pp, sympy.Abs(100 * a4 / size - P4) <= half_pp],
            {**printed, a2: 280, a4: 870, size: 2500}),
        "the balanced share 500/2500 = 0.2": ([sympy.Eq(per_rating / size, share)],
                                              {per_rating: 500, size: 2500, share: balanced}),
        "c_12 pi_2 = 0.1117 < 0.2": ([lin(j, i) * pi2 < share], {**printed, j: 1, i: 2}),
        "c_45 pi_4 = 0.3484 > 0.2": ([lin(j, i) * pi4 > share], {**printed, j: 4, i: 5}),
    }
    return finite_check(
        id,
        cases=list(checks),
        formula=lambda c: checks[c],
        describe=lambda c: {"check": c},
        domain="the printed numbers of Section 6.2, exact decimals",
        cite=cite("Section 6.2", "sigma^2 = 44 x 0.5 = 22 ... Since c12 pi_2 = 0.1117 < 0.2 while c45 pi_4 = 0.3484 "
                                 "> 0.2, more ranking errors are expected for (1, 2) pair"),
        statement="44 x 0.5 = 22; c12 pi_2 = 0.1117 < 0.2 = 500/2500 < 0.3484 = c45 pi_4 with the printed proportions",
    )


# Table 3: mean ranking error rates, (balanced, unbalanced) x (PAIRRANK, PROPODDS, ORBOOST)
TABLE3_METHODS = ("PAIRRANK", "PROPODDS", "ORBOOST")
TABLE3 = {
    (1, 2): (("0.4485", "0.4413", "0.4431"), ("0.4545", "0.4529", "0.4533")),
    (1, 3): (("0.3875", "0.3833", "0.3853"), ("0.4006", "0.4014", "0.4012")),
    (1, 4): (("0.3193", "0.3164", "0.3195"), ("0.3341", "0.3346", "0.3343")),
    (1, 5): (("0.2607", "0.2620", "0.2637"), ("0.2740", "0.2768", "0.2746")),
    (2, 3): (("0.4368", "0.4395", "0.4399"), ("0.4443", "0.4472", "0.4464")),
    (2, 4): (("0.3652", "0.3687", "0.3707"), ("0.3749", "0.3780", "0.3768")),
    (2, 5): (("0.3023", "0.3094", "0.3103"), ("0.3107", "0.3167", "0.3135")),
    (3, 4): (("0.4266", "0.4280", "0.4295"), ("0.4295", "0.4300", "0.4297")),
    (3, 5): (("0.3601", "0.3655", "0.3658"), ("0.3622", "0.3665", "0.3640")),
    (4, 5): (("0.4313", "0.4351", "0.4340"), ("0.4307", "0.4345", "0.4323")),
}
HIGH_PAIRS = {((4, 5), m) for m in TABLE3_METHODS}  # the pair of the high ratings 4 and 5


def table3_claim(
    id: str, *, exceptions: set[tuple[tuple[int, int], str]], exact: bool, finding: Finding | None = None
) -> Claim:
    """Section 6.2: "The balanced case gave lower error rates than the unbalanced case except for pairs of high
    ratings", over the 30 (pair, method) cells of Table 3.  ``exact``: lower exactly outside ``exceptions``
    (else: lower at least outside them, the printed reading).  Each cell is a formula over its two printed
    means; in the printed reading a cell's membership of ``exceptions`` is a 0/1 datum of the statement."""
    bal, unbal, excepted = sympy.Symbol("balanced"), sympy.Symbol("unbalanced"), sympy.Symbol("excepted")

    def formula(cell: tuple[tuple[int, int], str]) -> Any:
        pair, method = cell
        k = TABLE3_METHODS.index(method)
        printed = {bal: TABLE3[pair][0][k], unbal: TABLE3[pair][1][k]}
        if exact:  # lower exactly outside the exceptions
            return [bal >= unbal] if cell in exceptions else [bal < unbal], printed
        return [sympy.Or(bal < unbal, sympy.Eq(excepted, 1))], {**printed, excepted: int(cell in exceptions)}

    return finite_check(
        id,
        cases=[(pair, m) for pair in sorted(TABLE3) for m in TABLE3_METHODS],
        formula=formula,
        describe=lambda cell: {"pair": list(cell[0]), "method": cell[1]},
        domain="the 30 (pair, method) cells of Table 3, printed means as exact decimals",
        cite=cite("Section 6.2, about Table 3", "The balanced case gave lower error rates than the unbalanced case "
                                                "except for pairs of high ratings"),
        statement="balanced < unbalanced mean error rate in every cell of Table 3 "
        + ("except exactly " if exact else "outside ")
        + ", ".join(sorted(f"{p[0]} vs {p[1]} ({m})" for p, m in exceptions)),
        finding=finding,
    )


TABLE2_THETAS = {
    "balanced": ("-0.0932", "-0.0656", "-0.0386", "0"),
    "unbalanced": ("-0.7742", "-0.7742", "-0.4183", "0"),
}
TABLE2 = {
    "balanced": {
        (1, 2): "1",
        (1, 3): "1.028",
        (1, 4): "1.056",
        (1, 5): "1.098",
        (2, 3): "0.053",
        (2, 4): "0.116",
        (2, 5): "1.068",
        (3, 4): "0.063",
        (3, 5): "1.039",
        (4, 5): "1",
    },
    "unbalanced": {
        (1, 2): "1",
        (1, 3): "1",
        (1, 4): "1.427",
        (1, 5): "2.169",
        (2, 3): "0.299",
        (2, 4): "0.966",
        (2, 5): "2.169",
        (3, 4): "0.539",
        (3, 5): "1.519",
        (4, 5): "1",
    },
}


def table2_claim(id: str, case: str, *, printed: dict[tuple[int, int], str] | None = None) -> Claim:
    """Table 2: "Implicit cost schemes for ORBoost in the balanced (left) and unbalanced (right) cases",
    recomputed from the printed thresholds and rounded to the printed digits (``printed`` nudges one: the twin).
    Each entry is a formula over the printed thresholds theta_1..theta_4 and the printed entry:
    c_ji = exp(theta_(i-1) - theta_j) - exp(theta_(j-1) - theta_i), the first term absent when i - 1 = 0 or
    j = K and the second when j - 1 = 0 or i = K (theta_0 = -inf, theta_K = +inf: e^{-inf} = 0), enclosed and
    compared with the printed value's half-up rounding interval (an entry printed as an integer: exactly).
    exp(theta_a - theta_b) is written "exp(theta_a - theta_b) if theta_a != theta_b, else 1" (the same function),
    so that an entry printed 1 because two printed thresholds are equal is decided exactly by the kernel too."""
    thetas = TABLE2_THETAS[case]
    K = len(thetas) + 1
    th = {k: sympy.Symbol(f"theta_{k}") for k in range(1, K)}
    shown = sympy.Symbol("c_printed")
    table = printed or TABLE2[case]

    def e_minus(a: int, b: int) -> Any:  # exp(theta_a - theta_b); 0 when theta_a = -inf or theta_b = +inf
        if a == 0 or b == K:
            return sympy.Integer(0)
        if a == b:
            return sympy.exp(th[a] - th[b])  # exp(0) = 1
        # exp(0) = 1 written out for two equal printed thresholds (the unbalanced theta_1 = theta_2): the
        # kernel then sees the exact 1, which its balls around the two (non-dyadic) decimals cannot
        return sympy.Piecewise((sympy.exp(th[a] - th[b]), sympy.Or(th[a] < th[b], th[a] > th[b])), (1, True))

    def formula(key: tuple[int, int]) -> Any:
        j, i = key
        cost = e_minus(i - 1, j) - e_minus(j - 1, i)
        text = table[key]
        conds = [equals_exactly(cost, shown)] if "." not in text else rounds_half_up(cost, shown, text)
        return conds, {**{th[k]: t for k, t in enumerate(thetas, 1)}, shown: text}

    return finite_check(
        id,
        cases=sorted(table),
        formula=formula,
        describe=lambda k: {"(j, i)": list(k), "printed": table[k]},
        domain=f"the 10 entries of Table 2 ({case}), from the printed thresholds {', '.join(thetas)}, "
        "interval enclosures rounded to the printed digits",
        cite=cite(
            "Section 6.2, Table 2",
            "Implicit cost schemes for ORBoost in the balanced (left) and unbalanced (right) cases",
        ),
        statement=f"Table 2 ({case}) = c_ji = exp(theta_(i-1) - theta_j) - exp(theta_(j-1) - theta_i) at the "
        "printed thresholds, "
        "to the printed precision",
    )


# ---------------------------------------------------------------------------------------
# The claims of Section 6, in reading order
# ---------------------------------------------------------------------------------------

normal_mixture_f0 = mixture_f0_claim()
orboost_f_star = mixture_orboost_claim()
propodds_f_star = mixture_propodds_claim()
svor_steps = svor_steps_claim()
threshold_shift = threshold_shift_claim()
c13_contours = c13_contour_claim()
figure2_parallel_contours = parallel_contours_claim()
c13_orboost_6_1 = c13_claim("uematsu2013.section6_1.c13_orboost", "6.1")
pairrank2_regression = pairrank2_claim()
orboost_k3_costs = orboost_k3_claim()
c13_orboost_6_2 = c13_claim("uematsu2013.section6_2.c13_orboost", "6.2")
svor_thresholds = svor_thresholds_claim()
proportions_corrected = proportions_claim("uematsu2013.section6_2.proportions.corrected", CORRECTED_PERCENT)
proportions = proportions_claim(
    "uematsu2013.section6_2.proportions", PRINTED_PERCENT,
    finding=Finding(
        what="The proportion of rating 1 is printed 5.18 %; 5039/97139 = 5.1874 % rounds to 5.19 % (the other four "
        "are rounded, not truncated).",
        counterexample="100 x 5039/97139 = 5.18741...",
        corrected=proportions_corrected.id,
        finding_class="statement",
    ),
)
unbalanced_sample = unbalanced_claim()
printed_arithmetic = printed_arithmetic_claim()
table2_balanced = table2_claim("uematsu2013.section6_2.table2.balanced", "balanced")
table2_unbalanced = table2_claim("uematsu2013.section6_2.table2.unbalanced", "unbalanced")
TABLE3_EXCEPTIONS = HIGH_PAIRS | {((3, 5), "ORBOOST")}
table3_corrected = table3_claim(
    "uematsu2013.section6_2.table3.balanced_lower.corrected", exceptions=TABLE3_EXCEPTIONS, exact=True
)
table3 = table3_claim(
    "uematsu2013.section6_2.table3.balanced_lower", exceptions=HIGH_PAIRS, exact=False,
    finding=Finding(
        what="Read with the high ratings 4 and 5, 'the balanced case gave lower error rates than the unbalanced "
        "case except for pairs of high ratings' has one more exception in Table 3: 3 vs 5 for ORBoost (a difference "
        "within one standard error).  The printed means are lower in the balanced case exactly outside 4 vs 5 (all "
        "three methods) and 3 vs 5 (ORBoost).",
        counterexample="3 vs 5, ORBoost: balanced 0.3658 (0.0019) > unbalanced 0.3640 (0.0015).",
        corrected=table3_corrected.id,
        finding_class="clarification",
    ),
)

BAL = {**TABLE2["balanced"], (3, 4): "0.064"}
UNBAL = {**TABLE2["unbalanced"], (2, 4): "0.967"}

TWINS: dict[str, Callable[[], Claim]] = {
    normal_mixture_f0.id: lambda: mixture_f0_claim(twin_id("uematsu2013.mix"), e2=sympy.exp(1)),
    orboost_f_star.id: lambda: mixture_orboost_claim(twin_id("uematsu2013.mixor"), sign=-1),
    propodds_f_star.id: lambda: mixture_propodds_claim(twin_id("uematsu2013.mixpo"), four=2),
    svor_steps.id: lambda: svor_steps_claim(twin_id("uematsu2013.steps"), printed="1.03"),
    threshold_shift.id: lambda: threshold_shift_claim(twin_id(threshold_shift.id), shift_thresholds=False),
    c13_contours.id: lambda: c13_contour_claim(twin_id(c13_contours.id), swap=True),
    figure2_parallel_contours.id: lambda: parallel_contours_claim(twin_id(figure2_parallel_contours.id), c13=1),
    c13_orboost_6_1.id: lambda: c13_claim(twin_id("uematsu2013.c13a"), "6.1", printed="7.847"),
    pairrank2_regression.id: lambda: pairrank2_claim(twin_id("uematsu2013.pr2"), c13=1),
    orboost_k3_costs.id: lambda: orboost_k3_claim(twin_id("uematsu2013.ork3"), theta2=1),
    c13_orboost_6_2.id: lambda: c13_claim(twin_id("uematsu2013.c13b"), "6.2", printed="1.202"),
    svor_thresholds.id: lambda: svor_thresholds_claim(twin_id("uematsu2013.svt"), theta2="0.62"),
    proportions_corrected.id: lambda: proportions_claim(
        twin_id("uematsu2013.prop"), ("5.19", "11.16", "27.23", "34.84", "21.58")
    ),
    unbalanced_sample.id: lambda: unbalanced_claim(twin_id("uematsu2013.unbal"), tol="0.01"),
    printed_arithmetic.id: lambda: printed_arithmetic_claim(twin_id(printed_arithmetic.id), balanced="0.1"),
    table2_balanced.id: lambda: table2_claim(twin_id("uematsu2013.t2b"), "balanced", printed=BAL),
    table2_unbalanced.id: lambda: table2_claim(twin_id("uematsu2013.t2u"), "unbalanced", printed=UNBAL),
    table3_corrected.id: lambda: table3_claim(
        twin_id(table3_corrected.id), exceptions=TABLE3_EXCEPTIONS | {((3, 4), "PAIRRANK")}, exact=True
    ),
}
