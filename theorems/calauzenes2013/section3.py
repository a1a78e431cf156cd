"""Section 3 up to Theorem 3.2: eq. (2) and its converse, the rearrangement inequality of footnote 1,
the squared template losses of Section 3.1, Remark 2 (the usual and the proposed pairwise losses),
and eq. (6) with the regret lower bound in the proof of Theorem 3.2."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from math import factorial
from typing import Any

import sympy

from symcal import finite_check, identity, implies, implies_cases
from symcal.claims import described
from symcal.ranking.measures import arg_sort, rank_of, rankings
from symcal.ranking.order_preserving import hinge, inner_risk, pairwise_proposed, pairwise_usual

from .common import ONE, F, best, cite, non_increasing, perf, perf_scores, phis, reals, utilities

# ---------------------------------------------------------------------------------------
# Section 3.1, eq. (2); proof of Theorem 3.2, eq. (6)
# ---------------------------------------------------------------------------------------


def eq2_cases(m: int | None, strict: bool = False) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for phi in phis(m, strict=strict, top=m):
        for U in utilities(m):
            for s in itertools.product(range(m), repeat=m):
                yield phi, U, s


def eq2_case(case: tuple[Any, ...], converse: bool, overlap: bool = False) -> tuple[bool, str]:
    phi, U, s = case
    inside = (set(arg_sort(s)) & set(arg_sort(U))) if overlap else set(arg_sort(s)) <= set(arg_sort(U))
    optimal = perf_scores(phi, U, s) == best(phi, U)
    if converse:
        return (not optimal) or inside, f"R(s) = R-bar but arg sort(s) is not inside arg sort(U) = {U}"
    return (not inside) or optimal, f"arg sort(s) inside arg sort(U) but R(s) = {perf_scores(phi, U, s)} < " \
                                    f"{best(phi, U)}"


def eq2_claim(id: str, *, converse: bool = False, strict: bool = False, statement: str = "",
              expected: str | None = None, overlap: bool = False) -> Any:
    """Section 3.1, eq. (2): "arg sort(s) in arg sort(U) => R(s) = R-bar; the reverse implication holds
    when phi is strictly decreasing"."""
    loc = "Section 3.1, eq. (2) and the sentence after it"
    quote = ("arg sort(s) in arg sort(U) => R(s) = R-bar; the reverse implication holds when phi is "
             "strictly decreasing")
    return finite_check(
        id, cases=lambda m: eq2_cases(m, strict), holds=lambda c: eq2_case(c, converse, overlap),
        sample='a small integer grid of the real phi, U and scores',
        domain="phi non-increasing in {0..n}^n" + (" strictly" if strict else "") + ", U in {0,1,2}^n, "
               "s in {0..n-1}^n (every weak order)",
        describe=lambda c: {"phi": c[0], "U": c[1], "s": c[2]}, sizes=(2, 3), cite=cite(loc, quote),
        statement=statement or ("R(s) = R-bar => arg sort(s) inside arg sort(U)" if converse
                                else "arg sort(s) inside arg sort(U) => R(s) = R-bar"),
        expected=expected,
    )


def eq6_cases(m: int | None) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for phi in phis(m, top=2):
        for U in utilities(m):
            for sigma in rankings(m):
                for i, j in itertools.permutations(range(1, m + 1), 2):
                    yield phi, U, sigma, i, j


def eq6_case(case: tuple[Any, ...], swap_sign: int = 1) -> tuple[bool, str]:
    phi, U, sigma, i, j = case
    swapped = tuple(j if x == i else i if x == j else x for x in sigma)  # tau_ij o sigma
    pos = rank_of(sigma)
    lhs = perf(phi, U, swapped) - perf(phi, U, sigma)
    rhs = swap_sign * (U[i - 1] - U[j - 1]) * (phi[pos[j] - 1] - phi[pos[i] - 1])
    return lhs == rhs, f"R(tau o sigma) - R(sigma) = {lhs}, printed right side = {rhs}"


def eq6_claim(id: str, *, swap_sign: int = 1) -> Any:
    """Proof of Theorem 3.2, eq. (6): "R(tau_ij o sigma) - R(sigma) = (U_i - U_j)(phi(sigma^-1(j)) -
    phi(sigma^-1(i)))"."""
    return finite_check(
        id, cases=eq6_cases, holds=lambda c: eq6_case(c, swap_sign),
        sample='a small integer grid of the real phi and U',
        domain="phi in {0..2}^n non-increasing, U in {0,1,2}^n, every sigma, every i != j", sizes=(2, 4),
        describe=lambda c: dict(zip(("phi", "U", "sigma", "i", "j"), c, strict=True)),
        cite=cite("Proof of Theorem 3.2, eq. (6)", "R(tau_ij o sigma) - R(sigma) = (U_i - U_j)"
                  "(phi(sigma^-1(j)) - phi(sigma^-1(i)))"),
        statement="the swap identity (6) for every GPPM, ranking and pair",
    )


def eq6_two_terms_claim(id: str, *, swap_sign: int = 1) -> Any:
    """Proof of Theorem 3.2, eq. (6), for real phi and U: tau_ij o sigma exchanges the items at ranks a = sigma^-1(i)
    and b = sigma^-1(j) and leaves every other term of R(Delta, .) = b(Delta) + sum_k phi(k) U_sigma(k) unchanged
    (their sum is ``rest``), so (6) is the identity (rest + phi(a) U_j + phi(b) U_i) - (rest + phi(a) U_i + phi(b)
    U_j) = (U_i - U_j)(phi(b) - phi(a)) in six real symbols (``swap_sign=-1`` flips the right-hand side: the twin)."""
    phi_a, phi_b, u_i, u_j, rest = sympy.symbols("phi_a phi_b U_i U_j rest", real=True)
    lhs = (rest + phi_a * u_j + phi_b * u_i) - (rest + phi_a * u_i + phi_b * u_j)
    return identity(
        id, lhs, swap_sign * (u_i - u_j) * (phi_b - phi_a),
        cite=cite("Theorem 3.2, proof, Eq. (6)", "R(Delta, tau_ij o sigma) - R(Delta, sigma) = (U_i(Delta) - "
                  "U_j(Delta))(phi(sigma^-1(j)) - phi(sigma^-1(i)))"),
        statement="R(tau_ij o sigma) - R(sigma) = (U_i - U_j)(phi(sigma^-1(j)) - phi(sigma^-1(i))) for every real "
                  "phi and U (the two terms the exchange changes)"
                  + ("" if swap_sign == 1 else " (twin: sign flipped)"),
        scope="every n, sigma and i != j: a = sigma^-1(i), b = sigma^-1(j), the other n - 2 terms summed in rest",
    )


def thm32_case(case: tuple[Any, ...], factor: Fraction = ONE) -> tuple[bool, str]:
    phi, U, s = case
    if set(arg_sort(s)) <= set(arg_sort(U)):
        return True, ""
    n = len(U)
    gap = min(phi[k] - phi[k + 1] for k in range(n - 1))
    du = min(abs(U[i] - U[j]) for i in range(n) for j in range(n) if U[i] != U[j])
    regret = best(phi, U) - perf_scores(phi, U, s)
    bound = factor * F(gap * du, factorial(n))
    return regret >= bound, f"regret {regret} < bound {bound}"


def thm32_claim(id: str, *, factor: Fraction = ONE) -> Any:
    """Proof of Theorem 3.2: "R-bar - R(s) >= min_k |phi(k) - phi(k+1)| x min_{U_i != U_j} |U_i - U_j| / n!"."""
    return finite_check(
        id, cases=lambda m: eq2_cases(m, strict=True), holds=lambda c: thm32_case(c, factor),
        sample='a small integer grid of the real phi, U and scores',
        domain="phi strictly decreasing in {0..n}^n, U in {0,1,2}^n, s in {0..n-1}^n", sizes=(2, 3),
        describe=lambda c: {"phi": c[0], "U": c[1], "s": c[2]},
        cite=cite("Proof of Theorem 3.2", "R-bar - R(s) >= min_k |phi(k) - phi(k+1)| x "
                  "min_{U_i != U_j} |U_i - U_j| / n!"),
        statement="the regret lower bound of Theorem 3.2's proof when arg sort(s) is not inside arg sort(U)",
    )


# ---------------------------------------------------------------------------------------
# Footnote 1 (the rearrangement inequality) and Section 3.1's squared template losses
# ---------------------------------------------------------------------------------------


def rearrangement_cases(n: int | None, *, sorted_y: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """One z3 query per sigma in S_n: x_1 >= ... >= x_n >= 0, y_1 >= ... >= y_n => sum x_k y_sigma(k)
    <= sum x_k y_k (``sorted_y=False`` drops the order of y: the twin)."""
    assert n is not None
    xs, ys = reals("x", n), reals("y", n)
    hyps = {"x_sorted": non_increasing(xs) + [xs[-1] >= 0], "y_sorted": non_increasing(ys) if sorted_y else []}
    return [(f"n={n}, sigma={sg}", hyps, pair_sum(xs, ys, sg) <= pair_sum(xs, ys, tuple(range(1, n + 1))))
            for sg in rankings(n)]


def pair_sum(xs: tuple[Any, ...], ys: tuple[Any, ...], sigma: tuple[int, ...]) -> Any:
    return sum(xs[k] * ys[sigma[k] - 1] for k in range(len(sigma)))


def rearrangement_claim(id: str, *, sorted_y: bool = True) -> Any:
    """Footnote 1: "for any real numbers x_1 >= ... >= x_n >= 0 and y_1 >= ... >= y_n, and for any
    permutation sigma, we have x_1 y_sigma(1) + ... + x_n y_sigma(n) <= x_1 y_1 + ... + x_n y_n"."""
    return implies_cases(
        id, cases=lambda n: rearrangement_cases(n, sorted_y=sorted_y), sizes=(2, 5),
        cite=cite("Footnote 1", "x_1 >= ... >= x_n >= 0, y_1 >= ... >= y_n: x_1 y_sigma(1) + ... + x_n y_sigma(n) "
                                "<= x_1 y_1 + ... + x_n y_n"),
        statement="the rearrangement inequality for real x, y, every sigma in S_n (one z3 query per sigma)",
        domain="every sigma in S_n; x, y real variables", scope=described("n = 2..5, every sigma, all real x and y"),
    )


def rearrangement_equality_cases(n: int | None, *, strict: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Per sigma: x strictly decreasing (``strict=False``: non-increasing, the twin), y sorted =>
    (equality <=> y_sigma(1) >= ... >= y_sigma(n))."""
    assert n is not None
    xs, ys = reals("x", n), reals("y", n)
    x_order = [xs[k] > xs[k + 1] for k in range(n - 1)] if strict else non_increasing(xs)
    hyps = {"x_order": x_order + [xs[-1] >= 0], "y_sorted": non_increasing(ys)}
    out = []
    for sg in rankings(n):
        equal = sympy.Eq(pair_sum(xs, ys, sg), pair_sum(xs, ys, tuple(range(1, n + 1))))
        out.append((f"n={n}, sigma={sg}", hyps, sympy.Equivalent(equal, sympy.And(*non_increasing(
            [ys[k - 1] for k in sg])))))
    return out


def rearrangement_equality_claim(id: str, *, strict: bool = True) -> Any:
    """Footnote 1: "Moreover, if the x_i's are strictly decreasing, then the equality holds if and only
    if y_sigma(1) >= ... >= y_sigma(n)"."""
    return implies_cases(
        id, cases=lambda n: rearrangement_equality_cases(n, strict=strict), sizes=(2, 5),
        cite=cite("Footnote 1", "if the x_i's are strictly decreasing, then the equality holds if and only if "
                                "y_sigma(1) >= ... >= y_sigma(n)"),
        statement="the equality case of the rearrangement inequality (both directions) for strictly decreasing x",
        domain="every sigma in S_n; x, y real variables", scope=described("n = 2..5, every sigma, all real x and y"),
    )


def pointwise_squared_risk_claim(id: str, *, sign: int = 1) -> Any:
    """Section 3.1: "This template loss is obviously order-preserving since the optimal value of the
    scores is precisely the expected value of v" -- E (v - s)^2 = E (v - U)^2 + (U - s)^2."""
    p1, p2, s = sympy.symbols("p1 p2 s", real=True)
    vs = reals("v", 3)
    probs = (p1, p2, 1 - p1 - p2)
    U = sum(q * v for q, v in zip(probs, vs, strict=True))
    return identity(
        id, sum(q * (v - s) ** 2 for q, v in zip(probs, vs, strict=True)),
        sum(q * (v - U) ** 2 for q, v in zip(probs, vs, strict=True)) + sign * (U - s) ** 2,
        cite=cite("Section 3.1, pointwise squared loss", "the optimal value of the scores is precisely the expected "
                                                         "value of v"),
        statement="for a three-point Delta (probabilities p1, p2, 1 - p1 - p2; a polynomial identity, so every p): "
                  "E (v - s)^2 = E (v - U)^2 + (U - s)^2, so s = U(Delta) is the unique minimiser of each coordinate",
    )


def pairwise_squared_risk_claim(id: str, *, sign: int = 1) -> Any:
    """Section 3.1: "taking lambda(v_i, v_j, s_i - s_j) = (s_i - s_j - v_i + v_j)^2 also obviously leads to
    an order-preserving template loss" -- the inner risk is minimised exactly at s = U + const."""
    p = sympy.Symbol("p", real=True)
    s, v, w = reals("s", 3), reals("v", 3), reals("w", 3)
    U = [p * v[i] + (1 - p) * w[i] for i in range(3)]
    pairs = list(itertools.combinations(range(3), 2))

    def risk(z: Any, t: Any) -> Any:  # sum_{i<j} (t_i - t_j - z_i + z_j)^2
        return sum((t[i] - t[j] - z[i] + z[j]) ** 2 for i, j in pairs)
    return identity(
        id, p * risk(v, s) + (1 - p) * risk(w, s),
        p * risk(v, U) + (1 - p) * risk(w, U) + sign * risk(U, s),
        cite=cite("Section 3.1, pairwise squared loss", "taking lambda(v_i, v_j, s_i - s_j) = (s_i - s_j - v_i "
                  "+ v_j)^2 also obviously leads to an order-preserving template loss"),
        statement="n = 3, two-point Delta: L(Delta, s) = L(Delta, U) + sum_{i<j} ((s_i - U_i) - (s_j - U_j))^2, so the "
                  "minimisers are exactly s = U(Delta) + c (the order of U) and a misordered pair costs at least "
                  "(U_i - U_j)^2 (Table 2's pairwise squared error)",
    )


# ---------------------------------------------------------------------------------------
# Remark 2
# ---------------------------------------------------------------------------------------

PHI_FN = sympy.Function("varphi")


def remark2_form_claim(id: str, *, n: int = 3, swap: bool = False, phi: Any = None) -> Any:
    """``phi`` defaults to an undefined function (the identity for every varphi); twins pass a
    concrete one so that a wrong form is refuted at exact points."""
    p = sympy.Symbol("p", positive=True)
    v1 = sympy.symbols("v1:4", nonnegative=True)
    w1 = sympy.symbols("w1:4", nonnegative=True)
    s = sympy.symbols("s1:4", real=True)
    phi = phi or PHI_FN

    def loss(v: Any) -> Any:
        return sum(v[i] * phi(s[i] - s[j]) + v[j] * phi(s[j] - s[i]) for i in range(n) for j in range(i + 1, n))
    risk = p * loss(v1) + (1 - p) * loss(w1)
    U = [p * v1[i] + (1 - p) * w1[i] for i in range(n)]
    form = sum(U[i] * sum(phi((s[j] - s[i]) if swap else (s[i] - s[j])) for j in range(n) if j != i)
               for i in range(n))
    return identity(
        id, sympy.expand(risk), sympy.expand(form),
        cite=cite("Remark 2", "L^u(Delta, s) = sum_i U_i(Delta) sum_{j != i} varphi(s_i - s_j)"),
        statement="the inner risk of the proposed pairwise loss (two-point Delta, n = 3, any varphi)",
    )


REMARK2_DIST = [((0, 0, 1), F(1, 2)), ((0, 2, 0), F(1, 2))]  # U = (0, 1, 1/2)


def remark2_claim(id: str, loss_name: str, *, dist: list[Any] | None = None, expected: str = "proved") -> Any:
    """For every s with s_2 <= s_3 (misordering U_2 = 1 > U_3 = 1/2): L(s) > min L.  Decided by
    z3 over the piecewise-linear hinge risk; the minimum is computed exactly first."""
    d = dist or REMARK2_DIST
    loss = pairwise_usual(hinge) if loss_name == "usual" else pairwise_proposed(hinge)
    expr, s = inner_risk(loss, d, 3)
    from symcal.calibration.order import z3_minimum

    status, m, _ = z3_minimum(expr, s, [], 10.0)
    assert status == "optimal" and m is not None
    return implies(
        id, hypotheses={"misordered": [s[1] <= s[2]]}, conclusion=expr > sympy.Rational(m.numerator, m.denominator),
        cite=cite("Remark 2 and Section 6", "such losses are not order-preserving when varphi is convex"),
        statement=f"{loss_name} pairwise hinge loss on Delta = {{(0,0,1): 1/2, (0,2,0): 1/2}}: every s with "
                  f"s_2 <= s_3 has inner risk > min L = {m} (order preservation for the pair U_2 > U_3)",
        expected=expected,
    )


# ---------------------------------------------------------------------------------------
# Proof of Theorem 3.2, step 1: a misordered pair and a ranking of arg sort(s) that puts it in the wrong order
# ---------------------------------------------------------------------------------------


def order_types(n: int) -> list[tuple[int, ...]]:
    """One vector per order type of n reals, ties included (the dense ranks of every vector of {0..n-1}^n)."""
    out = set()
    for v in itertools.product(range(n), repeat=n):
        levels = sorted(set(v))
        out.add(tuple(levels.index(x) for x in v))
    return sorted(out)


def pair_step_cases(m: int | None) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    types = order_types(m)
    for U in types:
        for s in types:
            yield U, s


def pair_step_holds(case: tuple[Any, ...], *, every: bool = False) -> tuple[bool, str]:
    """arg sort(s) not inside arg sort(U) => some pair (i, j) has U_i > U_j, s_i <= s_j and some sigma in arg sort(s)
    has sigma^-1(i) > sigma^-1(j) (``every``: every sigma in arg sort(s) does, the twin)."""
    U, s = case
    by_s, by_u = arg_sort(s), set(arg_sort(U))
    if set(by_s) <= by_u:
        return True, "arg sort(s) is inside arg sort(U)"
    quantifier = all if every else any
    n = len(U)
    for i, j in itertools.permutations(range(1, n + 1), 2):
        if U[i - 1] > U[j - 1] and s[i - 1] <= s[j - 1] and \
                quantifier(rank_of(sg)[i] > rank_of(sg)[j] for sg in by_s):
            return True, f"pair ({i}, {j})"
    return False, (f"no pair (i, j) with U_i > U_j, s_i <= s_j and {'every' if every else 'some'} sigma in arg sort(s) "
                   "ranking j above i")


def pair_step_claim(id: str, *, every: bool = False) -> Any:
    """Proof of Theorem 3.2: "if arg sort(s) is not a subset of arg sort(U(Delta)), then there is a pair (i, j) with
    U_i(Delta) > U_j(Delta) but s_i <= s_j. Then, there is at least one permutation sigma in arg sort(s) with
    sigma^-1(i) > sigma^-1(j)" (``every``: "every permutation", the twin)."""
    return finite_check(
        id, cases=pair_step_cases, holds=lambda c: pair_step_holds(c, every=every), sizes=(2, 4),
        describe=lambda c: {"U": c[0], "s": c[1]},
        domain="every order type of U and of s (ties included; the statement depends on nothing else), n = 2..4",
        cite=cite("Theorem 3.2, proof, step 1", "if arg sort(s) not subset arg sort(U(Delta)), then there is a pair "
                  "(i,j) with U_i(Delta) > U_j(Delta) but s_i <= s_j. Then, there is at least one permutation sigma "
                  "in arg sort(s) with sigma^-1(i) > sigma^-1(j)"),
        statement="arg sort(s) not inside arg sort(U) gives a pair U_i > U_j, s_i <= s_j and "
                  + ("every" if every else "some") + " sigma in arg sort(s) ranking j above i"
                  + (" (twin: 'every' for 'at least one')" if every else ""),
    )


# ---------------------------------------------------------------------------------------
# the claims
# ---------------------------------------------------------------------------------------


eq2 = eq2_claim("calauzenes2013.eq2")
eq2_converse_strict = eq2_claim("calauzenes2013.eq2.converse_strict", converse=True, strict=True)
eq2_converse_non_strict = eq2_claim(
    "calauzenes2013.eq2.converse_non_strict", converse=True, strict=False, expected="refuted",
    statement="the converse of (2) needs strictly decreasing phi: with a tie it fails")
remark2_form = remark2_form_claim("calauzenes2013.remark2.inner_risk_form")
remark2_usual = remark2_claim("calauzenes2013.remark2.usual_pairwise_not_order_preserving", "usual",
                              expected="refuted")
remark2_proposed = remark2_claim("calauzenes2013.remark2.proposed_pairwise_order_preserving", "proposed")
eq6 = eq6_claim("calauzenes2013.eq6")
eq6_two_terms = eq6_two_terms_claim("calauzenes2013.eq6.two_terms")
thm32 = thm32_claim("calauzenes2013.theorem3_2.regret_lower_bound")
thm32_pair_step = pair_step_claim("calauzenes2013.theorem3_2.proof_pair_step")
rearrangement = rearrangement_claim("calauzenes2013.footnote1.rearrangement")
rearrangement_equality = rearrangement_equality_claim("calauzenes2013.footnote1.equality_case")
pointwise_squared_risk = pointwise_squared_risk_claim("calauzenes2013.section3_1.pointwise_squared_minimiser")
pairwise_squared_risk = pairwise_squared_risk_claim("calauzenes2013.section3_1.pairwise_squared_minimiser")
