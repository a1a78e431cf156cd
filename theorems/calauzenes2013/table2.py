"""Section 5.1, Table 2, with Appendices B.4 (pointwise losses) and B.5 (pairwise losses): the
inequality behind each constant c, H^- - H (or the constrained-minus-unconstrained infimum) >=
|U_i - U_j|^2 / c^2."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import sympy

from symcal import Finding, bounded_inequality, identity, implies, implies_cases
from symcal.claims import described

from .common import QUARTER, F, cite

a, b, x, B = sympy.symbols("a b x B", real=True)
ap_, bp_ = sympy.symbols("a b", positive=True)
T2_POINT = "Table 2 and Appendix B.4"
T2_PAIR = "Table 2 and Appendix B.5"


def pointwise_squared_claim(id: str, c2: Any = 2) -> Any:
    """Table 2, pointwise Squared Error: "H^- - H = (U_i - U_j)^2 / 2, c = sqrt(2)"."""
    # H^- - H = inf_{s_i <= s_j} (a - s_i)^2 + (b - s_j)^2 = (a - b)^2 / 2 for a >= b (attained at (a+b)/2)
    return bounded_inequality(
        id, c2 * (a - b) ** 2 / 2, ">=", (a - b) ** 2, box={a: (0, 10), b: (0, 10)}, conditions=[a >= b],
        cite=cite(T2_POINT, "Squared Error: H^- - H = (U_i - U_j)^2 / 2, c = sqrt(2)"),
        statement="c^2 (H^- - H) >= |U_i - U_j|^2 for the pointwise squared error with c = sqrt 2",
        scope="U_i, U_j in [0, 10]; every other U_j <= U_i in [0, M]: both sides are homogeneous of degree 2 in "
              "(U_i, U_j), so the scaling by 10/M carries that box onto this one",
    )


def pointwise_logistic_claim(id: str, mu: Any = 4) -> Any:
    """Appendix B.4, Proof Logistic: "psi(x) = x log(x) + (1-x) log(1-x) which is 4-strongly convex"."""
    # psi(x) = x log x + (1-x) log(1-x) on (0, 1): psi'' = 1/(x(1-x)) >= 4 = mu  (strong convexity)
    return bounded_inequality(
        id, 1 / (x * (1 - x)), ">=", mu, box={x: (0, 1)}, conditions=[x > 0, x < 1],
        cite=cite(T2_POINT + ", Proof Logistic", "psi(x) = x log(x) + (1-x) log(1-x) which is 4-strongly convex"),
        statement="psi'' >= 4 on (0, 1): the strong convexity giving c = sqrt(eta) for the pointwise logistic",
    )


def pointwise_exponential_claim(id: str, mu: Any = 4) -> Any:
    """Appendix B.4, Proof Exponential: "psi(x) = -2 sqrt(x(eta - x)) which is 4/eta-strongly
    convex"."""
    # psi(x) = -2 sqrt(x(eta - x)), eta = 1 (scale): psi'' = 1/(2 (x(1-x))^(3/2)) >= 4/eta = 4
    return bounded_inequality(
        id, 1 / (2 * (x * (1 - x)) ** sympy.Rational(3, 2)), ">=", mu, box={x: (0, 1)}, conditions=[x > 0, x < 1],
        cite=cite(T2_POINT + ", Proof Exponential", "psi(x) = -2 sqrt(x(eta - x)) which is 4/eta-strongly convex"),
        statement="psi'' >= 4/eta on (0, eta) (eta = 1 by scaling): strong convexity behind c = sqrt(eta)",
        scope="eta = 1; every eta > 0: psi_eta(x) = eta psi_1(x/eta), so psi_eta''(x) = psi_1''(x/eta)/eta >= "
              "4/eta on (0, eta)",
    )


def eq16_claim(id: str, *, misordered: bool = True) -> Any:
    """Appendix B.4, eq. (16): "H^-_ij - H_ij = 2 underline-lambda((U_i + U_j)/2) - underline-lambda(U_i) -
    underline-lambda(U_j)" for lambda(v, s) = v f(s) + (eta - v) g(s), f non-increasing, g non-decreasing
    (``misordered=False``: s_i >= s_j instead of s_i <= s_j, the twin)."""
    eta, fi, fj, gi, gj, low = sympy.symbols("eta f_i f_j g_i g_j L_m", real=True)

    def lam(v: Any, f: Any, g: Any) -> Any:
        return v * f + (eta - v) * g
    m = (a + b) / 2
    order = [fi >= fj, gi <= gj] if misordered else [fi <= fj, gi >= gj]  # s_i <= s_j (twin: s_i >= s_j)
    hyps = {"utilities": [b >= 0, a >= b, a <= eta], "misordered": order, "nonnegative": [fi >= 0, fj >= 0, gi >= 0,
                                                                                          gj >= 0],
            "inner_minimum": [low <= lam(m, fi, gi), low <= lam(m, fj, gj)]}
    return implies(
        id, hypotheses=hyps,
        conclusion=sympy.And(lam(a, fi, gi) + lam(b, fj, gj) >= 2 * low,
                             sympy.Eq(lam(a, fi, gi) + lam(b, fi, gi), 2 * lam(m, fi, gi))),
        cite=cite(T2_POINT + ", eq. (16)", "H^-_ij - H_ij = 2 underline-lambda((U_i + U_j)/2) - underline-lambda(U_i) "
                                           "- underline-lambda(U_j)"),
        statement="for lambda(v, s) = v f(s) + (eta - v) g(s) with f non-increasing, g non-decreasing (the Logistic, "
                  "Exponential, Square Hinge and Differentiable Hinge rows) and U_i >= U_j: every s_i <= s_j has "
                  "lambda(U_i, s_i) + lambda(U_j, s_j) >= 2 underline-lambda(m), m = (U_i + U_j)/2, and s_i = s_j "
                  "gives 2 lambda(m, s); so H^- = 2 underline-lambda(m), which is (16)",
        scope=described("f(s_i) >= f(s_j) >= 0, 0 <= g(s_i) <= g(s_j) (s_i <= s_j), underline-lambda(m) <= "
                        "lambda(m, s_i), lambda(m, s_j) and 0 <= U_j <= U_i <= eta as real variables: the values "
                        "of every such loss"),
    )


# Square Hinge: lambda(v, s) = v max(0, t - s)^2 + (eta - v) max(0, s)^2.  With s = t s' and
# v = eta v' it is t^2 eta times the loss at t = eta = 1, so H^- - H scales by t^2 eta, |U_i - U_j|^2
# by eta^2 and c^2 by eta / t^2: the claims below take t = eta = 1 after the scaling claim.
si_, sj_, s_, t_, eta_ = sympy.symbols("s_i s_j s t eta", real=True)


def square_hinge(v: Any, s: Any, t: Any = 1, eta: Any = 1) -> Any:
    """The pointwise Square Hinge's inner risk at expected utility v (Table 2)."""
    return v * sympy.Max(0, t - s) ** 2 + (eta - v) * sympy.Max(0, s) ** 2


def square_hinge_scaling_claim(id: str, power: int = 2) -> Any:
    """Table 2, Square Hinge: "v_i max(0, t - s_i)^2 + (eta - v_i) max(0, s_i)^2"."""
    return implies(
        id, hypotheses={"positive": [t_ > 0, eta_ > 0]},
        conclusion=sympy.Eq(square_hinge(eta_ * x, t_ * s_, t_, eta_), t_ ** power * eta_ * square_hinge(x, s_)),
        cite=cite(T2_POINT, "v_i max(0, t - s_i)^2 + (eta - v_i) max(0, s_i)^2"),
        statement="scaling: Lambda(eta x, t s; t, eta) = t^2 eta Lambda(x, s; 1, 1), so t = eta = 1 loses nothing "
                  "(c^2 scales by eta/t^2)",
    )


def square_hinge_minimum_claim(id: str, extra: Any = 0) -> Any:
    """Appendix B.4, Proof Square Hinge: "lambda(x) = t^2/eta x (eta - x)"."""
    low = x * (1 - x) + extra
    return implies(
        id, hypotheses={"utility": [x >= 0, x <= 1]},
        conclusion=sympy.And(square_hinge(x, s_) >= low, sympy.Eq(square_hinge(x, x), low)),
        cite=cite(T2_POINT + ", Proof Square Hinge", "lambda(x) = t^2/eta x (eta - x)"),
        statement="the inner minimum of the Square Hinge is t^2 x (eta - x)/eta (t = eta = 1: x(1 - x), attained "
                  "at s = x t/eta)",
    )


def square_hinge_gap_cases(c2: Any) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """c^2 (H^- - H) >= (U_i - U_j)^2 at t = eta = 1, with a = U_i >= b = U_j and the pair
    misordered (s_i <= s_j); one case per pair of linear pieces of the max terms."""
    def pieces(sv: Any) -> list[tuple[str, list[Any], Any, Any]]:
        return [("s <= 0", [sv <= 0], 1 - sv, 0), ("0 <= s <= 1", [sv >= 0, sv <= 1], 1 - sv, sv),
                ("s >= 1", [sv >= 1], 0, sv)]
    out = []
    for (li, ri, pi, qi), (lj, rj, pj, qj) in itertools.product(pieces(si_), pieces(sj_)):
        gap = a * pi ** 2 + (1 - a) * qi ** 2 + b * pj ** 2 + (1 - b) * qj ** 2 - a * (1 - a) - b * (1 - b)
        out.append((f"s_i: {li.replace('s', 's_i', 1)}; s_j: {lj.replace('s', 's_j', 1)}",
                    {"utilities": [b >= 0, a >= b, a <= 1], "misordered": [si_ <= sj_], "piece": ri + rj},
                    c2 * gap >= (a - b) ** 2))
    return out


def square_hinge_claim(id: str, c2: Any, *, statement: str, finding: Finding | None = None) -> Any:
    """Table 2 and Proof Square Hinge: "c = sqrt(eta)/sqrt(2 eta)"; "lambda is 2t^2/eta-strongly concave
    ... H^- - H >= mu/8 (U_i - U_j)^2"."""
    return implies_cases(
        id, cases=square_hinge_gap_cases(c2),
        cite=cite(T2_POINT + ", Table 2 and Proof Square Hinge",
                  "c = sqrt(eta)/sqrt(2 eta) [as printed]; lambda is 2t^2/eta-strongly concave ... "
                  "H^- - H >= mu/8 (U_i - U_j)^2"),
        statement=statement, finding=finding,
        domain="the nine pairs of linear pieces of max(0, 1 - s), max(0, s) at s_i and s_j",
        scope="t = eta = 1; every t, eta > 0 by calauzenes2013.table2.pointwise.square_hinge.scaling "
              "(Lambda(eta x, t s; t, eta) = t^2 eta Lambda(x, s; 1, 1): H^- - H scales by t^2 eta, (U_i - U_j)^2 by "
              "eta^2); U_j <= U_i in [0, 1], s_i <= s_j",
    )


# Differentiable Hinge: lambda(v, s) = v phi_alpha(1 - s) + (eta - v) phi_alpha(s).  Lambda(eta x, s) =
# eta Lambda_1(x, s) (eta = 1), and its inner minimum is the piecewise L below (three regimes).
al_ = sympy.Symbol("alpha", real=True)


def phi_alpha(z: Any) -> Any:
    """Table 2's differentiable hinge: 0 for z <= 0, z^2/(2 alpha) on [0, alpha], z - alpha/2 after."""
    return sympy.Piecewise((0, z <= 0), (z ** 2 / (2 * al_), z <= al_), (z - al_ / 2, True))


def diff_hinge(v: Any, s: Any, eta: Any = 1) -> Any:
    return v * phi_alpha(1 - s) + (eta - v) * phi_alpha(s)


@functools.cache
def diff_hinge_pieces(v: Any) -> tuple[tuple[str, list[Any], Any, Any, Any], ...]:
    """(name, region, L(v), its second derivative, the minimising s) for eta = 1: the minimiser
    sits where phi_alpha(s) is quadratic and phi_alpha(1 - s) linear (v <= 1 - alpha, v <= 1/2),
    the mirror image, or where both are quadratic.  Cached: the claims below ask for the same v."""
    low = v * (1 - al_ / 2) - al_ * v ** 2 / (2 * (1 - v))
    high = (1 - v) * (1 - al_ / 2) - al_ * (1 - v) ** 2 / (2 * v)
    mid = v * (1 - v) / (2 * al_)
    return (("low", [v <= 1 - al_, v <= F(1, 2), v >= 0], low, sympy.diff(low, v, 2), al_ * v / (1 - v)),
            ("high", [v >= al_, v >= F(1, 2), v <= 1], high, sympy.diff(high, v, 2), 1 - al_ * (1 - v) / v),
            ("middle", [v >= 1 - al_, v <= al_, v >= 0, v <= 1], mid, sympy.diff(mid, v, 2), v))


def diff_hinge_L(v: Any) -> Any:
    low, high, mid = diff_hinge_pieces(v)
    return sympy.Piecewise((low[2], sympy.And(*low[1])), (high[2], sympy.And(*high[1])), (mid[2], True))


def diff_hinge_minimum_claim(id: str, extra: Any = 0) -> Any:
    """Appendix B.4, Proof Hinge Differentiable: "underline-lambda(x) = inf_s lambda(x, s)"."""
    cases = [(f"L on the {name} piece", {"alpha": [al_ > 0], "piece": region},
              sympy.And(diff_hinge(x, s_) >= L + extra, sympy.Eq(diff_hinge(x, smin), L + extra)))
             for name, region, L, _, smin in diff_hinge_pieces(x)]
    return implies_cases(
        id, cases=cases,
        cite=cite(T2_POINT + ", Proof Hinge Differentiable", "underline-lambda(x) = inf_s lambda(x, s)"),
        statement="the inner minimum of the Differentiable Hinge (eta = 1) is the piecewise L: Lambda(x, s) >= L(x) "
                  "for every s, with equality at the piece's minimiser",
        domain="the three pieces of L (x in [0, 1], alpha > 0)",
    )


def diff_hinge_scaling_claim(id: str, power: int = 1) -> Any:
    """Table 2, Differentiable Hinge: "v_i phi_alpha(1 - s_i) + (eta - v_i) phi_alpha(s_i)"."""
    e = sympy.Symbol("eta", positive=True)
    return identity(
        id, diff_hinge(e * x, s_, e), e ** power * diff_hinge(x, s_),
        cite=cite(T2_POINT, "v_i phi_alpha(1 - s_i) + (eta - v_i) phi_alpha(s_i)"),
        statement="scaling: Lambda(eta x, s; eta) = eta Lambda(x, s; 1) with alpha unchanged, so a bound for eta = 1 "
                  "and a given alpha holds for every eta with that alpha (c^2 scales by eta)",
    )


@functools.cache
def diff_hinge_printed_conclusion() -> Any:
    """16/alpha (H^- - H) >= (U_i - U_j)^2 at eta = 1, H^- - H = Lambda(U_i, s_i) + Lambda(U_j, s_j) - L(U_i) - L(U_j):
    built when the claim is checked or shown, not when the library is loaded (L's pieces are differentiated)."""
    gap = diff_hinge(a, si_) + diff_hinge(b, sj_) - diff_hinge_L(a) - diff_hinge_L(b)
    return 16 / al_ * gap >= (a - b) ** 2


def diff_hinge_printed_claim(id: str, *, alpha_max: Any = None, finding: Finding | None = None) -> Any:
    """c^2 (H^- - H) >= (U_i - U_j)^2 with c = 4 sqrt(eta/alpha), at eta = 1.  Table 2's range
    alpha in (0, eta/2) covers every alpha > 0 once eta is free (take eta > 2 alpha), and the
    scaling claim moves any eta to 1 with the same alpha, so the printed range becomes alpha > 0."""
    alpha = [al_ > 0] if alpha_max is None else [al_ > 0, al_ <= alpha_max]
    return implies(
        id, hypotheses={"alpha": alpha, "utilities": [b >= 0, a >= b, a <= 1], "misordered": [si_ <= sj_]},
        conclusion=lambda m: diff_hinge_printed_conclusion(),
        cite=cite(T2_POINT + " and Table 2", "alpha in (0; eta/2); H^- - H >= alpha/(16n) (U_i - U_j)^2; "
                                             "c = 4 sqrt(eta/alpha)"),
        statement="c^2 (H^- - H) >= |U_i - U_j|^2 with c = 4 sqrt(eta/alpha) for every alpha in (0, eta/2) (the "
                  "proof's 'alpha/(16n)' read as alpha/(16 eta), which Table 2's c requires)",
        scope="eta = 1 with every alpha > 0; every eta > 0 with the same alpha by "
              "calauzenes2013.table2.pointwise.differentiable_hinge.scaling (Lambda(eta x, s; eta) = "
              "eta Lambda(x, s; 1)), which covers the printed range alpha in (0, eta/2) over all eta",
        finding=finding,
    )


def diff_hinge_curvature_claim(id: str, alpha_max: Any = 2) -> Any:
    """Appendix B.4, Proof Hinge Differentiable: "H^- - H >= alpha/(16n) (U_i - U_j)^2", for alpha
    in (0, alpha_max]: L is alpha/4-strongly concave piece by piece and at the joins."""
    v = x
    pieces = diff_hinge_pieces(v)
    cases = [(f"L'' <= -alpha/4 on the {name} piece", {"alpha": [al_ > 0, al_ <= alpha_max], "piece": region},
              d2 <= -al_ / 4) for name, region, _, d2, _ in pieces]
    # where the pieces meet, L is continuous and its slope does not increase (a concave kink at
    # most), so the piecewise bound makes L alpha/4-strongly concave on [0, 1]
    low, high, mid = pieces
    joins = ((low, mid, 1 - al_, [al_ >= F(1, 2), al_ < 1]), (mid, high, al_, [al_ >= F(1, 2), al_ < 1]),
             (low, high, F(1, 2), [al_ > 0, al_ <= F(1, 2)]))
    for (n1, _, f1, _, _), (n2, _, f2, _, _), point, where in joins:
        cases.append((f"{n1}/{n2} join at x = {point}: L continuous, slope not increasing", {"alpha": where},
                      sympy.And(sympy.Eq(f1.subs(v, point), f2.subs(v, point)),
                                sympy.diff(f1, v).subs(v, point) >= sympy.diff(f2, v).subs(v, point))))
    return implies_cases(
        id, cases=cases,
        cite=cite(T2_POINT + ", Proof Hinge Differentiable", "H^- - H >= alpha/(16n) (U_i - U_j)^2"),
        statement=f"for alpha in (0, {alpha_max}]: L is continuous, its slope never jumps up, and L'' <= -alpha/4 on "
                  "every piece, so it is alpha/4-strongly concave and, by (16), H^- - H = 2L((U_i+U_j)/2) - L(U_i) "
                  "- L(U_j) >= alpha/16 (U_i - U_j)^2, i.e. c = 4 sqrt(eta/alpha) (eta = 1)",
        domain="the three pieces of L and the points where they meet",
        scope="eta = 1; every eta > 0 by calauzenes2013.table2.pointwise.differentiable_hinge.scaling "
              "(Lambda(eta x, s; eta) = eta Lambda(x, s; 1)); a continuous L whose slope never jumps up and with "
              "L'' <= -alpha/4 on every piece is alpha/4-strongly concave, and (16) turns that into the gap bound",
    )


def pairwise_squared_claim(id: str, c2: Any = 1) -> Any:
    """Appendix B.5, Proof Squared Error: "inf_{d <= 0} Lambda - inf Lambda = (U_i - U_j)^2", c = 1."""
    # inf_{d <= 0} E(v_i - v_j - d)^2 - inf_d = (U_i - U_j)^2 for U_i >= U_j
    d = sympy.Symbol("d", real=True)
    return implies(
        id, hypotheses={"order": [a >= b], "misordered": [d <= 0]},
        conclusion=c2 * ((a - b - d) ** 2 - 0) >= (a - b) ** 2,
        cite=cite(T2_PAIR + ", Proof Squared Error", "inf_{d <= 0} Lambda - inf Lambda = (U_i - U_j)^2, c = 1"),
        statement="for U_i >= U_j and every d <= 0: c^2 ((U_i - U_j - d)^2 - 0) >= (U_i - U_j)^2 with c = 1",
    )


def pairwise_logistic_reduction_claim(id: str, extra: Any = 0) -> Any:
    """Appendix B.5, Proof Logistic: "= U_i log U_i + U_j log U_j - (U_i + U_j) log((U_i + U_j)/2)"."""
    # a log a + b log b - (a+b) log((a+b)/2) with b = a x equals a (x log x - (1+x) log((1+x)/2))
    xp = sympy.Symbol("x", positive=True)
    lhs = ap_ * sympy.log(ap_) + ap_ * xp * sympy.log(ap_ * xp) - (ap_ + ap_ * xp) * sympy.log((ap_ + ap_ * xp) / 2)
    rhs = ap_ * (xp * sympy.log(xp) - (1 + xp) * sympy.log((1 + xp) / 2)) + extra * ap_
    return identity(
        id, sympy.expand_log(lhs, force=True), sympy.expand_log(rhs, force=True),
        cite=cite(T2_PAIR + ", Proof Logistic", "= U_i log U_i + U_j log U_j - (U_i + U_j) log((U_i + U_j)/2)"),
        statement="exact reduction: with U_j = U_i x the pairwise-logistic gap is U_i g(x), "
                  "g(x) = x log x - (1+x) log((1+x)/2)",
    )


def pairwise_logistic_claim(id: str, const: Any = QUARTER) -> Any:
    """Appendix B.5, Proof Logistic: ">= 1/(4 ||U||_inf) (U_i - U_j)^2", c = 2 sqrt(||U||_inf)."""
    g = x * sympy.log(x) - (1 + x) * sympy.log((1 + x) / 2)
    return bounded_inequality(
        id, g, ">=", const * (1 - x) ** 2, box={x: (F(1, 100), 1)},
        cite=cite(T2_PAIR + ", Proof Logistic", ">= 1/(4 ||U||_inf) (U_i - U_j)^2, c = 2 sqrt(||U||_inf)"),
        statement="g(x) >= (1 - x)^2 / 4 on [1/100, 1]; with a = U_i = max, x = U_j/U_i and a <= B it gives "
                  "a g(x) >= a^2 (1-x)^2/(4B) = (U_i - U_j)^2/(4 ||U||_inf)",
        scope=described("x = U_j/U_i in [1/100, 1] (the ratio range covered; the bound is tight at x = 1 to "
                        "second order)"),
    )


def pairwise_exponential_claim(id: str, const: Any = 4) -> Any:
    """Appendix B.5, Proof Exponential: "= (sqrt U_i - sqrt U_j)^2 >= 1/(4 ||U||_inf) (U_i - U_j)^2"."""
    return bounded_inequality(
        id, (sympy.sqrt(a) - sympy.sqrt(b)) ** 2, ">=", (a - b) ** 2 / (const * B),
        box={a: (0, 10), b: (0, 10), B: (F(1, 100), 10)}, conditions=[a <= B, b <= B],
        cite=cite(T2_PAIR + ", Proof Exponential", "= (sqrt U_i - sqrt U_j)^2 >= 1/(4 ||U||_inf) (U_i - U_j)^2"),
        statement="(sqrt a - sqrt b)^2 >= (a - b)^2/(4B) when a, b <= B: c = 2 sqrt(||U||_inf)",
        scope=described("U_i, U_j in [0, 10], ||U||_inf = B in [1/100, 10]"),
    )


def pairwise_exponential_form_claim(id: str, extra: Any = 0) -> Any:
    """Appendix B.5, Proof Exponential: "U_i(1 - sqrt(U_j/U_i)) + U_j(1 - sqrt(U_i/U_j)) =
    (sqrt U_i - sqrt U_j)^2"."""
    lhs = ap_ * (1 - sympy.sqrt(bp_ / ap_)) + bp_ * (1 - sympy.sqrt(ap_ / bp_))
    return identity(
        id, sympy.expand(lhs), sympy.expand((sympy.sqrt(ap_) - sympy.sqrt(bp_)) ** 2) + extra * bp_,
        cite=cite(T2_PAIR + ", Proof Exponential", "U_i(1 - sqrt(U_j/U_i)) + U_j(1 - sqrt(U_i/U_j)) = "
                  "(sqrt U_i - sqrt U_j)^2"),
        statement="the closed form of the pairwise-exponential gap",
    )



ETA_P, V_P = sympy.symbols("eta v", positive=True)
S_R = sympy.Symbol("s", real=True)


def logistic_bregman_claim(id: str, *, printed: bool, extra: Any = 0, finding: Finding | None = None) -> Any:
    """Appendix B.4, Proof Logistic: "lambda(v_i, s_i) = eta B_psi(v_i/eta || h^-1(s_i)) - eta psi(v_i/eta)" with
    psi(x) = x log x + (1 - x) log(1 - x) and h(u) = log(u/(eta - u)), u in (0, eta), so h^-1(s) = eta e^s/(1 + e^s).
    ``printed`` False rescales the second argument to h^-1(s_i)/eta (in (0, 1), psi's domain): the corrected form.
    ``extra`` adds a multiple of v to the right side (the twin)."""
    def psi(t: Any) -> Any:
        return t * sympy.log(t) + (1 - t) * sympy.log(1 - t)

    def bregman(t: Any, y: Any) -> Any:
        return psi(t) - psi(y) - (sympy.log(y) - sympy.log(1 - y)) * (t - y)

    h_inv = ETA_P * sympy.exp(S_R) / (1 + sympy.exp(S_R))
    y = h_inv if printed else h_inv / ETA_P
    lam = V_P * sympy.log(1 + sympy.exp(-S_R)) + (ETA_P - V_P) * sympy.log(1 + sympy.exp(S_R))
    rhs = ETA_P * bregman(V_P / ETA_P, y) - ETA_P * psi(V_P / ETA_P) + extra * V_P
    quote = "lambda(v_i, s_i) = eta B_psi(v_i/eta || h^-1(s_i)) - eta psi(v_i/eta)"
    return identity(
        id, sympy.expand_log(sympy.expand(lam), force=True), sympy.expand_log(sympy.expand(rhs), force=True),
        conditions=[V_P < ETA_P],
        cite=cite(T2_POINT + ", Proof Logistic",
                  quote + ("" if printed else " [corrected: B_psi(v_i/eta || h^-1(s_i)/eta)]")),
        statement=("the pointwise logistic lambda(v, s) = v log(1 + e^-s) + (eta - v) log(1 + e^s) equals "
                   + ("eta B_psi(v/eta || h^-1(s)) - eta psi(v/eta)" if printed else
                      "eta B_psi(v/eta || h^-1(s)/eta) - eta psi(v/eta)")
                   + ", psi(x) = x log x + (1 - x) log(1 - x), h(u) = log(u/(eta - u)), for 0 < v < eta"
                   + ("" if not extra else f" [twin: + {extra} v]")),
        finding=finding,
    )



def exponential_bregman_claim(id: str, *, extra: Any = 0) -> Any:
    """Appendix B.4, Proof Exponential: "lambda(v_i, s_i) = B_psi(v_i || h^-1(s_i)) - psi(v_i)" with
    psi(x) = -2 sqrt(x(eta - x)) and h(u) = log(sqrt(u/(eta - u))), so h^-1(s) = eta e^(2s)/(1 + e^(2s)).
    ``extra`` adds a multiple of v to the right side (the twin)."""
    e = sympy.exp(S_R)
    y = ETA_P * e**2 / (1 + e**2)  # h^-1(s)
    root_y = ETA_P * e / (1 + e**2)  # sqrt(y (eta - y)), written out (y (eta - y) = (eta e^s/(1 + e^2s))^2)
    psi_y = -2 * root_y
    dpsi_y = -(ETA_P - 2 * y) / root_y  # psi'(y) = -(eta - 2y)/sqrt(y (eta - y))
    lam = V_P * sympy.exp(-S_R) + (ETA_P - V_P) * e
    # B_psi(v || y) - psi(v) = -psi(y) - psi'(y) (v - y): psi(v) cancels
    rhs = -psi_y - dpsi_y * (V_P - y) + extra * V_P
    return identity(
        id, lam, rhs,
        conditions=[V_P < ETA_P],
        cite=cite(T2_POINT + ", Proof Exponential", "lambda(v_i, s_i) = B_psi(v_i || h^-1(s_i)) - psi(v_i)"),
        statement="the pointwise exponential lambda(v, s) = v e^-s + (eta - v) e^s equals B_psi(v || h^-1(s)) - psi(v) "
                  "= -psi(y) - psi'(y)(v - y), y = h^-1(s) = eta e^2s/(1 + e^2s), psi(x) = -2 sqrt(x(eta - x)), "
                  "h(u) = log(sqrt(u/(eta - u)))" + ("" if not extra else f" [twin: + {extra} v]"),
    )


pointwise_squared = pointwise_squared_claim("calauzenes2013.table2.pointwise.squared")
pointwise_logistic = pointwise_logistic_claim("calauzenes2013.table2.pointwise.logistic")
pointwise_exponential = pointwise_exponential_claim("calauzenes2013.table2.pointwise.exponential")
square_hinge_scaling = square_hinge_scaling_claim("calauzenes2013.table2.pointwise.square_hinge.scaling")
square_hinge_minimum = square_hinge_minimum_claim("calauzenes2013.table2.pointwise.square_hinge.inner_minimum")
square_hinge_corrected = square_hinge_claim(
    "calauzenes2013.table2.pointwise.square_hinge.corrected", 4,
    statement="c^2 (H^- - H) >= |U_i - U_j|^2 with the proof's c = 2 sqrt(eta)/t (c^2 = 4 at t = eta = 1): the "
              "mu/8 bound of Appendix B.4")
square_hinge_printed = square_hinge_claim(
    "calauzenes2013.table2.pointwise.square_hinge", sympy.Rational(1, 2),
    statement="c^2 (H^- - H) >= |U_i - U_j|^2 with Table 2's printed c = sqrt(eta)/sqrt(2 eta) (c^2 = 1/2)",
    finding=Finding(
        what="Table 2 prints c = sqrt(eta)/sqrt(2 eta) = 1/sqrt 2 for the pointwise Square Hinge (our copy of the "
             "table may have garbled it: it does not depend on t, although Section 5.1 says this bound depends "
             "on t). No constant independent of t can hold, since H^- - H = t^2 (U_i - U_j)^2/(2 eta). The "
             "proof in Appendix B.4 (lambda is mu = 2t^2/eta strongly concave, H^- - H >= mu/8 (U_i - U_j)^2) "
             "gives c = 2 sqrt(eta)/t; the best constant is sqrt(2 eta)/t.",
        counterexample="t = eta = 1, U_i = 1, U_j = 0, s_i = s_j = 1/2: H^- - H = 1/2, so c^2 (H^- - H) = 1/4 < 1.",
        corrected=square_hinge_corrected.id,
        finding_class="statement",
    ),
)
square_hinge_best = square_hinge_claim(
    "calauzenes2013.table2.pointwise.square_hinge.best_constant", 2,
    statement="c = sqrt(2 eta)/t also works (H^- - H = t^2 (U_i - U_j)^2/(2 eta)): the proof's constant is loose "
              "by sqrt 2")
diff_hinge_minimum = diff_hinge_minimum_claim("calauzenes2013.table2.pointwise.differentiable_hinge.inner_minimum")
diff_hinge_scaling = diff_hinge_scaling_claim("calauzenes2013.table2.pointwise.differentiable_hinge.scaling")
diff_hinge_corrected = diff_hinge_curvature_claim("calauzenes2013.table2.pointwise.differentiable_hinge.corrected")
diff_hinge_printed = diff_hinge_printed_claim(
    "calauzenes2013.table2.pointwise.differentiable_hinge",
    finding=Finding(
        what="Table 2 allows any alpha in (0, eta/2) for the Differentiable Hinge, but its bound (c = 4 sqrt(eta/"
             "alpha), i.e. H^- - H >= alpha/(16 eta) (U_i - U_j)^2) fails for alpha > 2: the kink of phi_alpha "
             "sits at distance 1 whatever eta is, and for alpha >= 1 the inner minimum is x (eta - x)/(2 alpha "
             "eta), so H^- - H = (U_i - U_j)^2/(4 alpha eta), below alpha (U_i - U_j)^2/(16 eta) once alpha > 2. "
             "The bound holds for alpha in (0, min(2, eta/2)).",
        counterexample="eta = 8, alpha = 3, U_i = 8, U_j = 0, s_i = s_j = 0: Lambda = 8 phi_3(1) = 4/3 while "
                       "H = 0, and c^2 (H^- - H) = (128/3)(4/3) = 512/9 < 64 = (U_i - U_j)^2.",
        corrected=diff_hinge_corrected.id,
        finding_class="hypothesis",
    ),
)
pairwise_squared = pairwise_squared_claim("calauzenes2013.table2.pairwise.squared")
pairwise_logistic_reduction = pairwise_logistic_reduction_claim("calauzenes2013.table2.pairwise.logistic_reduction")
pairwise_logistic = pairwise_logistic_claim("calauzenes2013.table2.pairwise.logistic")
pairwise_exponential_form = pairwise_exponential_form_claim("calauzenes2013.table2.pairwise.exponential_form")
pairwise_exponential = pairwise_exponential_claim("calauzenes2013.table2.pairwise.exponential")
eq16 = eq16_claim("calauzenes2013.eq16")
exponential_bregman = exponential_bregman_claim("calauzenes2013.table2.pointwise.exponential.bregman_form")
logistic_bregman_corrected = logistic_bregman_claim("calauzenes2013.table2.pointwise.logistic.bregman_form.corrected",
                                                    printed=False)
logistic_bregman_printed = logistic_bregman_claim(
    "calauzenes2013.table2.pointwise.logistic.bregman_form", printed=True,
    finding=Finding(
        what="Appendix B.4 writes the pointwise logistic as eta B_psi(v_i/eta || h^-1(s_i)) - eta psi(v_i/eta) with "
             "h(u) = log(u/(eta - u)) on (0, eta), so h^-1(s) = eta e^s/(1 + e^s) lies in (0, eta) while psi "
             "lives on (0, 1): the identity holds only at eta = 1 (for eta > 1, log(1 - h^-1(s)) is undefined "
             "once h^-1(s) >= 1). The second argument must be h^-1(s_i)/eta (the logistic sigmoid), or equally "
             "the loss is B_psi_eta(v_i || h^-1(s_i)) - psi_eta(v_i) with psi_eta(x) = eta psi(x/eta), which is "
             "4/eta-strongly convex; the constant c = sqrt(eta) of Table 2 is unaffected.",
        counterexample="eta = 1/2, v = 1/4, s = 0: lambda = (1/2) log 2 = 0.3466, but h^-1(0) = 1/4 and "
                       "eta B_psi(1/2 || 1/4) - eta psi(1/2) = (1/4) log(16/3) = 0.4185.",
        corrected="calauzenes2013.table2.pointwise.logistic.bregman_form.corrected",
        finding_class="proof",
    ),
)
