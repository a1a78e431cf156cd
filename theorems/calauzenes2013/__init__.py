"""Calauzènes, Usunier & Gallinari (2013), "Calibration and regret bounds for order-preserving
surrogate losses in learning to rank", Machine Learning 93(2-3).

Main claims
-----------
* Table 1 / Definition 2.1: DCG@k, NDCG@k, Prec@k, Rec@k, AUC and Spearman written as
  (u, phi)-GPPMs, checked exhaustively against their formulas (every label vector, every
  ranking, every k) for small n, and where the printed u and b are defined.
  **Erratum**: the AUC's b(y) is printed without its minus sign (Appendix B.1 has it).
  **Erratum**: NDCG@k's formula divides by max DCG while its u divides by max DCG@k; they
  agree only for k = n.
* Eq. (2) and its converse for strictly decreasing phi (with the twin: the converse fails for a
  phi with a tie); the rearrangement identity (6) and the regret lower bound in the proof of
  Theorem 3.2.
* Theorem 3.3's counterexample (n = 4, y = (1,1,0,0), y' = (0,0,1,1), probability 1/2 each):
  **Erratum**: the printed gaps +1/24 (ERR) and -1/12 (AP) are twice the true gaps +1/48 and
  -1/24 (the two labels' values were added, not averaged).  The theorem survives: the gaps
  are non-zero.  Lemma B.2's hypotheses (symmetry, strict monotonicity) hold for ERR and AP.
* Lemma 4.1 (a set of non-overlapping misordered pairs bounding the regret) and Lemma 5.1's
  bound with C_phi(p) for p = 2, 3 and 3/2, for every pair set Lemma 4.1 allows, exhaustively for
  small n.  **Erratum** (proof only): the first inequality of Lemma 5.1's proof raises the
  phi-differences to the power q where Hoelder needs p; as printed it fails for p = 3 at n = 2.
* Table 2 (Appendix B.4, B.5): the inequality behind each constant c -- pointwise squared
  error, logistic and exponential (strong convexity of the conjugate psi), Square Hinge and
  Differentiable Hinge (inner minimum, then H^- - H against |U_i - U_j|^2; z3 per linear piece),
  pairwise squared error, logistic (interval branch-and-bound after an exact reduction to one
  variable) and exponential (z3 with square roots as auxiliary variables).
  **Erratum**: the Square Hinge's printed c = sqrt(eta)/sqrt(2 eta) fails (H^- - H =
  t^2 (U_i - U_j)^2/(2 eta)); the proof's mu/8 bound gives c = 2 sqrt(eta)/t, the best is sqrt(2 eta)/t.
  **Erratum**: the Differentiable Hinge's bound c = 4 sqrt(eta/alpha) needs alpha <= 2, not just
  alpha in (0, eta/2) (counterexample eta = 8, alpha = 3); proved for alpha in (0, 2].
* Remark 2: the inner risk of the proposed pairwise loss is sum_i U_i sum_{j != i} phi(s_i - s_j);
  the usual pairwise loss sum 1[v_i > v_j] phi(s_i - s_j) with the hinge is not
  order-preserving on an explicit distribution (exact LP optimum by z3), where the proposed
  loss is.

Encoding notes
--------------
* Rankings are tuples of items in rank order (sigma[k-1] = sigma(k)); symcal.ranking.measures
  implements the measures with exact Fractions and random tie breaking.  Exhaustive checks
  take labels in {0..2}^n (binary for Prec/Rec/AUC/AP), utilities in {0,1,2}^n and every
  non-increasing phi with values in {0..3}, phi(1) > 0 (strictly decreasing where required).
* The DCG discount 1/log(1+i) is irrational; the GPPM identities are linear in phi, so they are
  checked with phi(1..n) as sympy symbols (an identity for every discount).
* NDCG's normalisation, AUC's b and Spearman's b are undefined where ||y||_1 = 0 (NDCG, Rec,
  AP), ||y||_1 in {0, n} (AUC); Table 1 rows are checked on the labels where they are defined
  and the edge-case claim checks exactly where the printed forms divide by zero.
* Table 2 is checked through the inequality each proof uses: H^- - H (or the pairwise
  constrained-minus-unconstrained infimum) >= |U_i - U_j|^2 / c^2 on a bounded box stated in the
  scope.  The pairwise logistic bound is reduced exactly (b = a x, a = max, a <= B) to
  x log x - (1+x) log((1+x)/2) >= (1-x)^2/4 on [1/100, 1], proved by rigorous mpmath
  interval branch-and-bound (tight at x = 1 to second order; closed by derivative-sign faces).
  The pointwise logistic/exponential bounds are the strong convexity of psi used in the proof
  (Theorem 5.3); their gap form 2 lambda((a+b)/2) - lambda(a) - lambda(b) >= (a-b)^2 reduces to
  the same second-derivative bound, so it is not encoded twice.
* Square Hinge: s = t s', v = eta v' scale the loss by t^2 eta (a z3 claim), so t = eta = 1; the
  inner minimum x(1 - x) is a z3 claim (lower bound for every s, attained at s = x), and the gap
  bound is one z3 query per pair of linear pieces of the max terms (implies_cases): a single
  query with Max did not finish in 30 s.
* Differentiable Hinge: Lambda(eta x, s) = eta Lambda(x, s) at eta = 1 with alpha unchanged, so
  the printed range alpha in (0, eta/2) over all eta is every alpha > 0 at eta = 1.  The inner
  minimum L is piecewise (three regimes, z3 per piece: lower bound and attained).  The printed
  bound is refuted directly; the corrected one is proved through strong concavity: L'' <= -alpha/4
  on each piece, L continuous with slopes not jumping up where pieces meet (z3 per piece and
  join), then (16) -- which the paper asserts for these losses (Lambda(x, .) is convex and linear
  in x) and is not re-checked here -- gives H^- - H >= alpha/16 (U_i - U_j)^2.  The proof's
  "alpha/(16n)" is read as alpha/(16 eta), which Table 2's c = 4 sqrt(eta/alpha) requires.  A
  direct z3 query for the corrected bound did not finish in 120 s.
* Lemma 5.1 for p = r/s: both sides are raised to the power r, leaving integer powers of sums
  of radicals (here only sqrt 2 occurs), which sympy expands to a canonical form (zero only if
  exactly zero) and a rigorous interval enclosure signs; an undecided sign raises (error, never a
  verdict).  p = 3 and 3/2 run at n <= 3 within the budget (n = 4 takes about 5 s each).

References
----------
../shared/papers/calauzenes-usunier-gallinari-2013-order-preserving-losses.txt
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import factorial
from typing import Any

import sympy

from symcal import Citation, Finding, bounded_inequality, finite_check, identity, implies, implies_cases
from symcal.claims.core import Claim
from symcal.ranking.measures import (
    arg_sort,
    auc,
    average_precision,
    err,
    precision_at,
    rank_of,
    rankings,
    recall_at,
    spearman,
)
from symcal.ranking.order_preserving import hinge, inner_risk, pairwise_proposed, pairwise_usual

PAPER = "calauzenes2013"
F = Fraction
ONE = Fraction(1)
TWO, THREE = Fraction(2), Fraction(3)
QUARTER = sympy.Rational(1, 4)


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


# ---------------------------------------------------------------------------------------
# Table 1: printed forms (phi, u, b) versus the formulas
# ---------------------------------------------------------------------------------------

PHI = sympy.symbols("phi1:9", positive=True)


def labels(n: int, grades: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(grades + 1), repeat=n)


def dcg_formula(y: tuple[int, ...], sigma: tuple[int, ...], k: int, norm: str = "none") -> Any:
    """Table 1 formula column with symbolic discounts phi_i = 1/log(1+i)."""
    def raw(s: tuple[int, ...], cut: int) -> Any:
        return sum((2 ** y[s[i] - 1] - 1) * PHI[i] for i in range(cut))
    ideal = tuple(sorted(range(1, len(y) + 1), key=lambda i: -y[i - 1]))
    if norm == "none":
        return raw(sigma, k)
    if norm == "dcg":  # as printed: DCG@k / max DCG
        return raw(sigma, k) / raw(ideal, len(y))
    return raw(sigma, k) / raw(ideal, k)  # the usual NDCG@k


def gppm_value(phi: tuple[Any, ...], u: tuple[Any, ...], b: Any, sigma: tuple[int, ...]) -> Any:
    return b + sum(phi[k] * u[sigma[k] - 1] for k in range(len(sigma)))


def table1_dcg_case(case: tuple[Any, ...], *, u_norm: str = "none", f_norm: str = "none",
                    gain_offset: int = 1) -> tuple[bool, str]:
    y, sigma, k = case
    n = len(y)
    phi = tuple(PHI[i] if i < k else 0 for i in range(n))
    ideal_k = dcg_formula(y, tuple(sorted(range(1, n + 1), key=lambda i: -y[i - 1])), k)
    ideal_n = dcg_formula(y, tuple(sorted(range(1, n + 1), key=lambda i: -y[i - 1])), n)
    z = {"none": 1, "dcgk": ideal_k, "dcg": ideal_n}[u_norm]
    u = tuple((2**v - gain_offset) / z for v in y)
    diff = sympy.cancel(sympy.together(dcg_formula(y, sigma, k, f_norm) - gppm_value(phi, u, 0, sigma)))
    if diff == 0:
        return True, ""
    at = {PHI[i]: F(1, i + 1) for i in range(n)}
    return False, f"formula - GPPM form = {diff} (e.g. {diff.xreplace(at)} at phi(i) = 1/i)"


def dcg_cases(m: int | None, *, need_relevant: bool = False) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for y in labels(m, 2):
        if need_relevant and not any(y):
            continue
        for sigma in rankings(m):
            for k in range(1, m + 1):
                yield y, sigma, k


def table1_dcg_claim(id: str, **kw: Any) -> Any:
    return finite_check(
        id, cases=lambda m: dcg_cases(m), holds=lambda c: table1_dcg_case(c, **kw),  # kw: twins
        sample='grades y_i in {0,1,2} only, of a statement for every grade',
        domain="y in {0,1,2}^n, every ranking, k = 1..n, symbolic discounts",
        describe=lambda c: {"y": c[0], "sigma": c[1], "k": c[2]}, sizes=(2, 3),
        cite=cite("Table 1, DCG@k row", "phi(i) = 1{i<=k}/log(1+i), u_i(y) = 2^{y_i} - 1"),
        statement="DCG@k(y, sigma) = sum_k phi(k) u_sigma(k)(y) with the printed phi and u, b = 0",
    )


def table1_ndcg_claim(id: str, *, u_norm: str, f_norm: str, finding: Finding | None = None,
                      statement: str = "") -> Any:
    return finite_check(
        id, cases=lambda m: dcg_cases(m, need_relevant=True),
        holds=lambda c: table1_dcg_case(c, u_norm=u_norm, f_norm=f_norm),
        sample='grades y_i in {0,1,2} only, of a statement for every grade',
        domain="y in {0,1,2}^n \\ {0}, every ranking, k = 1..n, symbolic discounts",
        describe=lambda c: {"y": c[0], "sigma": c[1], "k": c[2]}, sizes=(2, 3),
        cite=cite("Table 1, NDCG@k row", "NDCG@k = DCG@k(y, sigma) / max DCG(y, sigma'); "
                  "u_i(y) = (2^{y_i} - 1) / max DCG@k(y, sigma')"),
        statement=statement or "NDCG@k as printed (normalised by max DCG) equals its GPPM form with u "
                               "normalised by max DCG@k",
        finding=finding,
    )


def binary_measure_case(case: tuple[Any, ...], measure: str, b_sign: int = -1,
                        phi_scale: Fraction = ONE) -> tuple[bool, str]:
    """Printed Table 1 rows for Prec@k, Rec@k and AUC (formula via symcal.ranking.measures)."""
    y, sigma, k = case
    n = len(y)
    m = sum(y)
    if measure == "prec":
        r, phi = precision_at(n, k)(y, sigma), tuple(F(1, k) if i <= k else F(0) for i in range(1, n + 1))
        u, b = tuple(F(v) for v in y), F(0)
    elif measure == "rec":
        r, phi = recall_at(n, k)(y, sigma), tuple(F(1) if i <= k else F(0) for i in range(1, n + 1))
        u, b = tuple(F(v, m) for v in y), F(0)
    else:
        r, phi = auc(n)(y, sigma), tuple(F(n - i) for i in range(1, n + 1))
        u = tuple(F(v, m * (n - m)) for v in y)
        b = b_sign * F(m - 1, 2 * (n - m))  # printed: b(y) = (||y||_1 - 1) / (2 (n - ||y||_1))
    g = gppm_value(tuple(phi_scale * f for f in phi), u, b, sigma)
    return r == g, f"r = {r}, GPPM form = {g}"


def binary_cases(m: int | None, measure: str) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for y in labels(m, 1):
        s = sum(y)
        if (measure in ("rec",) and s == 0) or (measure == "auc" and s in (0, m)):
            continue
        for sigma in rankings(m):
            for k in (range(1, m + 1) if measure != "auc" else [m]):
                yield y, sigma, k


TABLE1_QUOTES = {
    "prec": ("Table 1, Prec@k row", "Prec@k = sum_{i<=k} y_sigma(i)/k, phi(i) = 1{i<=k}/k, u_i = y_i"),
    "rec": ("Table 1, Rec@k row", "Rec@k = sum_{i<=k} y_sigma(i)/||y||_1, phi(i) = 1{i<=k}, u_i = y_i/||y||_1"),
    "auc": ("Table 1 and its caption", "b(y) = (||y||_1 - 1)/(2(n - ||y||_1)), phi(i) = n - i, "
            "u_i = y_i/(||y||_1 (n - ||y||_1))"),
}


def table1_binary_claim(id: str, measure: str, *, b_sign: int = -1, finding: Finding | None = None,
                        statement: str = "", sizes: tuple[int, int] = (2, 5), phi_scale: Fraction = ONE) -> Any:
    loc, quote = TABLE1_QUOTES[measure]
    return finite_check(
        id, cases=lambda m: binary_cases(m, measure),
        holds=lambda c: binary_measure_case(c, measure, b_sign, phi_scale),
        domain="y in {0,1}^n where defined, every ranking, every k", sizes=sizes,
        describe=lambda c: {"y": c[0], "sigma": c[1], "k": c[2]}, cite=cite(loc, quote),
        statement=statement or f"{measure} equals its printed GPPM form b(y) + sum phi(k) u_sigma(k)(y)",
        finding=finding,
    )


def spearman_case(case: tuple[Any, ...], b_sign: int = -1) -> tuple[bool, str]:
    y, sigma = case
    n = len(y)
    r = spearman(n)(y, sigma)
    py = rank_of(y)
    phi = tuple(F(12 * (n - i), n * (n * n - 1)) for i in range(1, n + 1))
    u = tuple(F(n - py[i]) for i in range(1, n + 1))
    g = gppm_value(phi, u, b_sign * F(3 * (n - 1), n + 1), sigma)
    return r == g, f"Spearman = {r}, GPPM form = {g}"


def spearman_claim(id: str, *, b_sign: int = -1) -> Any:
    return finite_check(
        id, cases=lambda m: itertools.product(list(rankings(m)), list(rankings(m))),  # type: ignore[arg-type]
        holds=lambda c: spearman_case(c, b_sign), domain="y, sigma in S_n", sizes=(2, 5),
        describe=lambda c: {"y": c[0], "sigma": c[1]},
        cite=cite("Table 1 and Appendix B.1", "phi(i) = 12(n-i)/(n(n^2-1)), u_i = n - y^-1(i), "
                  "b(y) = -3(n-1)/(n+1)"),
        statement="Spearman's coefficient equals its printed GPPM form",
    )


def edge_case(case: tuple[Any, ...], widen: bool = False) -> tuple[bool, str]:
    """The printed u/b divide by zero exactly where Table 1's measures are undefined."""
    y, which = case
    n, m = len(y), sum(y)
    undefined = {"rec": m == 0, "ap": m == 0, "auc": m in (0, n) if not widen else m == 0}[which]
    try:
        if which == "rec":
            [F(v, m) for v in y]
        elif which == "ap":
            average_precision(n)(y, tuple(range(1, n + 1)))
        else:
            [F(v, m * (n - m)) for v in y]
            F(m - 1, 2 * (n - m))
        fails = False
    except (ZeroDivisionError, ValueError):
        fails = True
    return fails == undefined, f"{which}: division by zero = {fails}, declared undefined = {undefined}"


def edge_claim(id: str, *, widen: bool = False) -> Any:
    return finite_check(
        id, cases=lambda m: itertools.product(list(labels(m, 1)), ["rec", "ap", "auc"]),  # type: ignore[arg-type]
        holds=lambda c: edge_case(c, widen), domain="y in {0,1}^n, measures Rec@k, AP, AUC", sizes=(2, 5),
        describe=lambda c: {"y": c[0], "measure": c[1]},
        cite=cite("Table 1", "Rec@k = sum y_sigma(i)/||y||_1; AUC ... /(||y||_1 (n - ||y||_1))"),
        statement="Rec@k and AP are undefined exactly when ||y||_1 = 0, AUC exactly when ||y||_1 in {0, n}",
    )


# ---------------------------------------------------------------------------------------
# GPPM-generic claims: eq. (2), eq. (6), Theorem 3.2, Lemmas 4.1 and 5.1
# ---------------------------------------------------------------------------------------


def phis(n: int, *, strict: bool = False, top: int = 3) -> list[tuple[int, ...]]:
    """Every non-increasing phi in {0..top}^n with phi(1) > 0 (strictly decreasing if asked)."""
    out = []
    for p in itertools.product(range(top + 1), repeat=n):
        if p[0] > 0 and all(p[k] > p[k + 1] if strict else p[k] >= p[k + 1] for k in range(n - 1)):
            out.append(p)
    return out


def utilities(n: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(3), repeat=n))


def perf(phi: tuple[int, ...], U: tuple[Any, ...], sigma: tuple[int, ...]) -> Any:
    """R(Delta, sigma) - b = sum_k phi(k) U_sigma(k) (the GPPM in expectation)."""
    return sum(phi[k] * U[sigma[k] - 1] for k in range(len(sigma)))


def perf_scores(phi: tuple[int, ...], U: tuple[Any, ...], s: tuple[int, ...]) -> Fraction:
    sig = arg_sort(s)
    return F(sum(perf(phi, U, t) for t in sig), len(sig))


def best(phi: tuple[int, ...], U: tuple[Any, ...]) -> Any:
    return perf(phi, U, arg_sort(U)[0])


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
    return finite_check(
        id, cases=eq6_cases, holds=lambda c: eq6_case(c, swap_sign),
        sample='a small integer grid of the real phi and U',
        domain="phi in {0..2}^n non-increasing, U in {0,1,2}^n, every sigma, every i != j", sizes=(2, 4),
        describe=lambda c: dict(zip(("phi", "U", "sigma", "i", "j"), c, strict=True)),
        cite=cite("Proof of Theorem 3.2, eq. (6)", "R(tau_ij o sigma) - R(sigma) = (U_i - U_j)"
                  "(phi(sigma^-1(j)) - phi(sigma^-1(i)))"),
        statement="the swap identity (6) for every GPPM, ranking and pair",
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
    return finite_check(
        id, cases=lambda m: eq2_cases(m, strict=True), holds=lambda c: thm32_case(c, factor),
        sample='a small integer grid of the real phi, U and scores',
        domain="phi strictly decreasing in {0..n}^n, U in {0,1,2}^n, s in {0..n-1}^n", sizes=(2, 3),
        describe=lambda c: {"phi": c[0], "U": c[1], "s": c[2]},
        cite=cite("Proof of Theorem 3.2", "R-bar - R(s) >= min_k |phi(k) - phi(k+1)| x "
                  "min_{U_i != U_j} |U_i - U_j| / n!"),
        statement="the regret lower bound of Theorem 3.2's proof when arg sort(s) is not inside arg sort(U)",
    )


def matchings(pairs: list[tuple[int, ...]]) -> Iterator[list[tuple[int, ...]]]:
    """Every set of pairwise disjoint pairs (condition 1 of Lemma 4.1), the empty set included;
    a pair is (i, j, ...): only its first two entries are items."""
    if not pairs:
        yield []
        return
    first, rest = pairs[0], pairs[1:]
    yield from matchings(rest)
    for m in matchings([p for p in rest if not {p[0], p[1]} & {first[0], first[1]}]):
        yield [first] + m


def lemma41_cases(m: int | None, top: int = 2) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for phi in phis(m, top=top):
        for U in utilities(m):
            for nu in arg_sort(U):
                for sigma in rankings(m):
                    yield phi, U, nu, sigma


def lemma41_sets(case: tuple[Any, ...], scale: Fraction = ONE) -> tuple[int, Iterator[list[tuple[int, ...]]]]:
    """The regret R-bar - R(sigma) and, lazily, every set C of Lemma 4.1: non-overlapping pairs
    (i, j) with U_i > U_j and sigma^-1(i) > sigma^-1(j) whose bound sum (U_i - U_j)(phi(nu^-1(i)) -
    phi(nu^-1(j))) (times ``scale``) is at least the regret.  Each pair is given with its two
    factors: (i, j, U_i - U_j, phi(nu^-1(i)) - phi(nu^-1(j))).  Integers throughout (the
    exhaustive domain is integral), so no Fraction arithmetic in the inner loop."""
    phi, U, nu, sigma = case
    n = len(U)
    regret = perf(phi, U, nu) - perf(phi, U, sigma)
    if regret <= 0:  # the empty set already bounds it
        return regret, iter([[]])
    ps, pn = rank_of(sigma), rank_of(nu)
    valid = [(i, j, U[i - 1] - U[j - 1], phi[pn[i] - 1] - phi[pn[j] - 1])
             for i in range(1, n + 1) for j in range(1, n + 1) if U[i - 1] > U[j - 1] and ps[i] > ps[j]]

    def sets() -> Iterator[list[tuple[int, ...]]]:
        for C in matchings(valid):
            if regret <= scale * sum(du * dphi for _, _, du, dphi in C):
                yield C
    return regret, sets()


def lemma41_case(case: tuple[Any, ...], scale: Fraction = ONE) -> tuple[bool, str]:
    regret, sets = lemma41_sets(case, scale)
    return next(sets, None) is not None, f"regret {regret}: no non-overlapping misordered pair set satisfies the bound"


LEMMA41_DOMAIN = "phi in {0..2}^n non-increasing, U in {0,1,2}^n, every nu in arg sort(U), every sigma"


def pair_set_check(id: str, holds: Any, *, sizes: tuple[int, int], cite: Citation, statement: str,
                   every_set: bool = False, finding: Finding | None = None) -> Any:
    """An exhaustive check over Lemma 4.1's domain (``every_set``: and every pair set it allows)."""
    return finite_check(
        id, cases=lemma41_cases, holds=holds,
        sample='a small integer grid of the real phi and U',
        domain=LEMMA41_DOMAIN + (", every pair set C that Lemma 4.1 allows" if every_set else ""),
        describe=lambda c: dict(zip(("phi", "U", "nu", "sigma"), c, strict=True)), sizes=sizes,
        cite=cite, statement=statement, finding=finding,
    )


def lemma41_claim(id: str, *, scale: Fraction = ONE) -> Any:
    return pair_set_check(
        id, lambda c: lemma41_case(c, scale), sizes=(2, 4),
        cite=cite("Lemma 4.1", "there is C_sigma of non-overlapping pairs with U_i > U_j, sigma^-1(i) > "
                  "sigma^-1(j) and R-bar - R(sigma) <= sum (U_i - U_j)(phi(nu^-1(i)) - phi(nu^-1(j)))"),
        statement="Lemma 4.1: a non-overlapping set of misordered pairs bounds the regret",
    )


def _power_sum(terms: tuple[int, ...], p: Fraction) -> Any:
    return sum((sympy.Integer(t) ** sympy.Rational(p.numerator, p.denominator) for t in terms), sympy.Integer(0))


@functools.cache
def holder_bound(regret: Fraction, w_terms: tuple[int, ...], p: Fraction, a_terms: tuple[int, ...],
                 w_exponent: Fraction | None = None) -> bool:
    """Exactly: regret <= (sum w^e)^(1/p) (sum a^q)^(1/q), 1/p + 1/q = 1, e = p unless
    ``w_exponent`` is given (the proof of Lemma 5.1 prints e = q).  With p = r/s both sides are
    raised to the power r, which leaves integer powers of sums of radicals: sympy expands them
    to a canonical form (zero only if exactly zero) and a rigorous interval enclosure signs the
    rest; an undecided sign raises, so the claim errs instead of passing."""
    if regret <= 0:
        return True
    q = p / (p - 1)
    e = p if w_exponent is None else w_exponent
    r = p.numerator  # 1/p = s/r, 1/q = (r - s)/r
    s_ = p.denominator
    X, Y = _power_sum(w_terms, e), _power_sum(a_terms, q)
    diff = sympy.expand(X ** s_ * Y ** (r - s_) - sympy.Rational(regret.numerator, regret.denominator) ** r)
    if diff == 0:
        return True
    from symcal.backends.sympy_backend import residual_excludes_zero

    if residual_excludes_zero(diff) is not True:
        raise ArithmeticError(f"could not sign {diff} exactly")
    return bool(sympy.N(diff, 50) > 0)


def lemma51_case(case: tuple[Any, ...], p: Fraction, c_terms: int | None = None, proof_step: str = "",
                 regret_scale: Fraction = ONE) -> tuple[bool, str]:
    """Every pair set C of Lemma 4.1 satisfies Lemma 5.1's bound R-bar - R <= C_phi(p) (sum_C
    (U_i - U_j)^q)^(1/q) (``proof_step="printed"``: the first line of the proof in Appendix B.3,
    (sum_C (phi(nu^-1(i)) - phi(nu^-1(j)))^q)^(1/p) (sum_C (U_i - U_j)^q)^(1/q); ``"holder"``: the
    same with exponent p, i.e. Hoelder's inequality).  Twins scale the regret by ``regret_scale``."""
    phi, U = case[0], case[1]
    n = len(U)
    regret, sets = lemma41_sets(case)
    scaled = F(regret) * regret_scale
    terms = n // 2 if c_terms is None else c_terms
    d_terms = tuple(phi[i - 1] - phi[n - i] for i in range(1, terms + 1))  # eq. (10)
    found = False
    for C in sets:
        found = True
        a_terms = tuple(du for _, _, du, _ in C)
        if proof_step:
            w_terms = tuple(dphi for _, _, _, dphi in C)
            ok = holder_bound(scaled, w_terms, p, a_terms, p / (p - 1) if proof_step == "printed" else None)
            what = f"the proof's bound with phi-differences {w_terms}"
        else:
            ok = holder_bound(scaled, d_terms, p, a_terms)
            what = f"C_phi({p}) from (phi(i) - phi(n-i+1)) = {d_terms}"
        if not ok:
            return False, (f"regret {scaled} exceeds {what} and U-differences {a_terms} (C = "
                           f"{[(i, j) for i, j, _, _ in C]}, p = {p})")
    return found, f"regret {regret}: Lemma 4.1 gives no pair set"


def lemma51_claim(id: str, *, p: Fraction = TWO, c_terms: int | None = None, sizes: tuple[int, int] = (2, 3)) -> Any:
    return pair_set_check(
        id, lambda c: lemma51_case(c, p, c_terms), sizes=sizes, every_set=True,
        cite=cite(f"Lemma 5.1, eq. (10), p = {p}", "R-bar - R(s) <= C_phi(p) (sum_{C_s} (U_i - U_j)^q)^(1/q)"),
        statement=(f"Lemma 5.1 with p = {p}, q = {p / (p - 1)} for every pair set given by Lemma 4.1 "
                   "(both sides raised to a common integer power, exact)"),
    )


def lemma51_proof_claim(id: str, *, p: Fraction = THREE, printed: bool = True, finding: Finding | None = None,
                        sizes: tuple[int, int] = (2, 3), regret_scale: Fraction = ONE) -> Any:
    q = p / (p - 1)
    return pair_set_check(
        id, lambda c: lemma51_case(c, p, proof_step="printed" if printed else "holder", regret_scale=regret_scale),
        sizes=sizes, every_set=True, finding=finding,
        cite=cite("Proof of Lemma 5.1 (Appendix B.3), first inequality",
                  "<= (sum_{C_s} (phi(nu^-1(i)) - phi(nu^-1(j)))^q)^(1/p) (sum_{C_s} (U_i - U_j)^q)^(1/q)"),
        statement=(f"the first line of Lemma 5.1's proof as printed (phi-differences to the power q = {q}, the sum "
                   f"to the power 1/p, p = {p})" if printed else
                   f"Hoelder's inequality as the proof needs it: (sum_C (phi(nu^-1(i)) - phi(nu^-1(j)))^p)^(1/p) "
                   f"(sum_C (U_i - U_j)^q)^(1/q) bounds the regret (p = {p}, q = {q})"),
    )


# ---------------------------------------------------------------------------------------
# Theorem 3.3 and Lemma B.2
# ---------------------------------------------------------------------------------------

THM33_DIST = [((1, 1, 0, 0), F(1, 2)), ((0, 0, 1, 1), F(1, 2))]
ORDER_1234, ORDER_1324 = (1, 2, 3, 4), (1, 3, 2, 4)


def thm33_gap(which: str) -> Fraction:
    m = err(4) if which == "err" else average_precision(4)
    return m.expected(THM33_DIST, ORDER_1324) - m.expected(THM33_DIST, ORDER_1234)


def thm33_claim(id: str, which: str, printed: Fraction, *, finding: Finding | None = None,
                statement: str = "") -> Any:
    name = which.upper()
    return finite_check(
        id, cases=[which], holds=lambda w: (thm33_gap(w) == printed, f"{name} gap = {thm33_gap(w)}, not {printed}"),
        domain="the distribution of the proof (n = 4, y = (1,1,0,0), y' = (0,0,1,1), 1/2 each)",
        cite=cite("Appendix B.2, proof of Theorem 3.3",
                  "ERR(1>3>2>4) = ERR(1>2>3>4) + 1/24; AP(1>3>2>4) = AP(1>2>3>4) - 1/12"),
        statement=statement or f"{name}(Delta, 1>3>2>4) - {name}(Delta, 1>2>3>4) = {printed}",
        finding=finding,
    )


def thm33_not_all_optimal_claim(id: str, which: str, *, dist: list[Any] | None = None) -> Any:
    d = dist or THM33_DIST
    m = err(4) if which == "err" else average_precision(4)

    def holds(_: Any) -> tuple[bool, str]:
        vals = {s: m.expected(d, s) for s in rankings(4)}
        return len(set(vals.values())) > 1, f"all 24 rankings have the same {m.name}"
    return finite_check(
        id, cases=[which], holds=holds, domain="the 24 rankings of 4 items under the proof's Delta",
        cite=cite("Appendix B.2, proof of Theorem 3.3", "some permutations are suboptimal"),
        statement=f"under Delta (U constant by Lemma B.2) not every ranking maximises {m.name}, so no "
                  "order-preserving loss is calibrated with it",
    )


def lemma_b2_cases(m: int | None) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for y in labels(m, 1):
        for sigma in rankings(m):
            for i, j in itertools.permutations(range(1, m + 1), 2):
                yield y, sigma, i, j


def lemma_b2_case(case: tuple[Any, ...], which: str, strict: bool = True) -> tuple[bool, str]:
    y, sigma, i, j = case
    n = len(y)
    meas = err(n) if which == "err" else average_precision(n, empty="zero")
    swapped = tuple(j if x == i else i if x == j else x for x in sigma)
    ty = list(y)
    ty[i - 1], ty[j - 1] = ty[j - 1], ty[i - 1]
    if meas(y, sigma) != meas(tuple(ty), swapped):
        return False, "symmetry fails"
    pos = rank_of(sigma)
    if y[i - 1] > y[j - 1] and pos[i] > pos[j]:
        a, b = meas(y, sigma), meas(y, swapped)
        if not (a < b if strict else a <= b) or (not strict and a < b):
            return False, f"r(y, sigma) = {a}, r(y, tau o sigma) = {b}"
    return True, ""


def lemma_b2_claim(id: str, which: str, *, strict: bool = True, expected: str | None = None) -> Any:
    return finite_check(
        id, cases=lemma_b2_cases, holds=lambda c: lemma_b2_case(c, which, strict),
        domain="y in {0,1}^n, every sigma, every i != j (AP := 0 at y = 0)", sizes=(3, 4),
        describe=lambda c: dict(zip(("y", "sigma", "i", "j"), c, strict=True)),
        cite=cite("Lemma B.2, hypotheses 1-2", "r(y, sigma) = r(tau_ij(y), tau_ij o sigma); y_i > y_j and "
                  "sigma^-1(i) > sigma^-1(j) => r(y, sigma) < r(y, tau_ij o sigma)"),
        statement=f"{which.upper()} satisfies Lemma B.2's symmetry and strict monotonicity"
                  if strict else f"twin: {which.upper()} never strictly improves by the swap",
        expected=expected,
    )


# ---------------------------------------------------------------------------------------
# Table 2: the inequality behind each constant c
# ---------------------------------------------------------------------------------------

a, b, x, B = sympy.symbols("a b x B", real=True)
ap_, bp_ = sympy.symbols("a b", positive=True)
T2_POINT = "Table 2 and Appendix B.4"
T2_PAIR = "Table 2 and Appendix B.5"


def pointwise_squared_claim(id: str, c2: Any = 2) -> Any:
    # H^- - H = inf_{s_i <= s_j} (a - s_i)^2 + (b - s_j)^2 = (a - b)^2 / 2 for a >= b (attained at (a+b)/2)
    return bounded_inequality(
        id, c2 * (a - b) ** 2 / 2, ">=", (a - b) ** 2, box={a: (0, 10), b: (0, 10)}, conditions=[a >= b],
        cite=cite(T2_POINT, "Squared Error: H^- - H = (U_i - U_j)^2 / 2, c = sqrt(2)"),
        statement="c^2 (H^- - H) >= |U_i - U_j|^2 for the pointwise squared error with c = sqrt 2",
        scope="U_i, U_j in [0, 10] (the inequality is homogeneous, so every bounded box scales to this one)",
    )


def pointwise_logistic_claim(id: str, mu: Any = 4) -> Any:
    # psi(x) = x log x + (1-x) log(1-x) on (0, 1): psi'' = 1/(x(1-x)) >= 4 = mu  (strong convexity)
    return bounded_inequality(
        id, 1 / (x * (1 - x)), ">=", mu, box={x: (0, 1)}, conditions=[x > 0, x < 1],
        cite=cite(T2_POINT + ", Proof Logistic", "psi(x) = x log(x) + (1-x) log(1-x) which is 4-strongly convex"),
        statement="psi'' >= 4 on (0, 1): the strong convexity giving c = sqrt(eta) for the pointwise logistic",
    )


def pointwise_exponential_claim(id: str, mu: Any = 4) -> Any:
    # psi(x) = -2 sqrt(x(eta - x)), eta = 1 (scale): psi'' = 1/(2 (x(1-x))^(3/2)) >= 4/eta = 4
    return bounded_inequality(
        id, 1 / (2 * (x * (1 - x)) ** sympy.Rational(3, 2)), ">=", mu, box={x: (0, 1)}, conditions=[x > 0, x < 1],
        cite=cite(T2_POINT + ", Proof Exponential", "psi(x) = -2 sqrt(x(eta - x)) which is 4/eta-strongly convex"),
        statement="psi'' >= 4/eta on (0, eta) (eta = 1 by scaling): strong convexity behind c = sqrt(eta)",
        scope="eta = 1; psi_eta(x) = eta psi_1(x/eta) scales psi'' by 1/eta",
    )


# Square Hinge: lambda(v, s) = v max(0, t - s)^2 + (eta - v) max(0, s)^2.  With s = t s' and
# v = eta v' it is t^2 eta times the loss at t = eta = 1, so H^- - H scales by t^2 eta, |U_i - U_j|^2
# by eta^2 and c^2 by eta / t^2: the claims below take t = eta = 1 after the scaling claim.
si_, sj_, s_, t_, eta_ = sympy.symbols("s_i s_j s t eta", real=True)


def square_hinge(v: Any, s: Any, t: Any = 1, eta: Any = 1) -> Any:
    """The pointwise Square Hinge's inner risk at expected utility v (Table 2)."""
    return v * sympy.Max(0, t - s) ** 2 + (eta - v) * sympy.Max(0, s) ** 2


def square_hinge_scaling_claim(id: str, power: int = 2) -> Any:
    return implies(
        id, hypotheses={"positive": [t_ > 0, eta_ > 0]},
        conclusion=sympy.Eq(square_hinge(eta_ * x, t_ * s_, t_, eta_), t_ ** power * eta_ * square_hinge(x, s_)),
        cite=cite(T2_POINT, "v_i max(0, t - s_i)^2 + (eta - v_i) max(0, s_i)^2"),
        statement="scaling: Lambda(eta x, t s; t, eta) = t^2 eta Lambda(x, s; 1, 1), so t = eta = 1 loses nothing "
                  "(c^2 scales by eta/t^2)",
    )


def square_hinge_minimum_claim(id: str, extra: Any = 0) -> Any:
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
    return implies_cases(
        id, cases=square_hinge_gap_cases(c2),
        cite=cite(T2_POINT + ", Table 2 and Proof Square Hinge",
                  "c = sqrt(eta)/sqrt(2 eta) [as printed]; lambda is 2t^2/eta-strongly concave ... "
                  "H^- - H >= mu/8 (U_i - U_j)^2"),
        statement=statement, finding=finding,
        domain="the nine pairs of linear pieces of max(0, 1 - s), max(0, s) at s_i and s_j",
        scope="t = eta = 1 (the scaling claim carries it to every t, eta > 0); U_j <= U_i in [0, 1], s_i <= s_j",
    )


# Differentiable Hinge: lambda(v, s) = v phi_alpha(1 - s) + (eta - v) phi_alpha(s).  Lambda(eta x, s) =
# eta Lambda_1(x, s) (eta = 1), and its inner minimum is the piecewise L below (three regimes).
al_ = sympy.Symbol("alpha", real=True)


def phi_alpha(z: Any) -> Any:
    """Table 2's differentiable hinge: 0 for z <= 0, z^2/(2 alpha) on [0, alpha], z - alpha/2 after."""
    return sympy.Piecewise((0, z <= 0), (z ** 2 / (2 * al_), z <= al_), (z - al_ / 2, True))


def diff_hinge(v: Any, s: Any, eta: Any = 1) -> Any:
    return v * phi_alpha(1 - s) + (eta - v) * phi_alpha(s)


def diff_hinge_pieces(v: Any) -> list[tuple[str, list[Any], Any, Any, Any]]:
    """(name, region, L(v), its second derivative, the minimising s) for eta = 1: the minimiser
    sits where phi_alpha(s) is quadratic and phi_alpha(1 - s) linear (v <= 1 - alpha, v <= 1/2),
    the mirror image, or where both are quadratic."""
    low = v * (1 - al_ / 2) - al_ * v ** 2 / (2 * (1 - v))
    high = (1 - v) * (1 - al_ / 2) - al_ * (1 - v) ** 2 / (2 * v)
    mid = v * (1 - v) / (2 * al_)
    return [("low", [v <= 1 - al_, v <= F(1, 2), v >= 0], low, sympy.diff(low, v, 2), al_ * v / (1 - v)),
            ("high", [v >= al_, v >= F(1, 2), v <= 1], high, sympy.diff(high, v, 2), 1 - al_ * (1 - v) / v),
            ("middle", [v >= 1 - al_, v <= al_, v >= 0, v <= 1], mid, sympy.diff(mid, v, 2), v)]


def diff_hinge_L(v: Any) -> Any:
    low, high, mid = diff_hinge_pieces(v)
    return sympy.Piecewise((low[2], sympy.And(*low[1])), (high[2], sympy.And(*high[1])), (mid[2], True))


def diff_hinge_minimum_claim(id: str, extra: Any = 0) -> Any:
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
    e = sympy.Symbol("eta", positive=True)
    return identity(
        id, diff_hinge(e * x, s_, e), e ** power * diff_hinge(x, s_),
        cite=cite(T2_POINT, "v_i phi_alpha(1 - s_i) + (eta - v_i) phi_alpha(s_i)"),
        statement="scaling: Lambda(eta x, s; eta) = eta Lambda(x, s; 1) with alpha unchanged, so a bound for eta = 1 "
                  "and a given alpha holds for every eta with that alpha (c^2 scales by eta)",
    )


def diff_hinge_printed_claim(id: str, *, alpha_max: Any = None, finding: Finding | None = None) -> Any:
    """c^2 (H^- - H) >= (U_i - U_j)^2 with c = 4 sqrt(eta/alpha), at eta = 1.  Table 2's range
    alpha in (0, eta/2) covers every alpha > 0 once eta is free (take eta > 2 alpha), and the
    scaling claim moves any eta to 1 with the same alpha, so the printed range becomes alpha > 0."""
    gap = diff_hinge(a, si_) + diff_hinge(b, sj_) - diff_hinge_L(a) - diff_hinge_L(b)
    alpha = [al_ > 0] if alpha_max is None else [al_ > 0, al_ <= alpha_max]
    return implies(
        id, hypotheses={"alpha": alpha, "utilities": [b >= 0, a >= b, a <= 1], "misordered": [si_ <= sj_]},
        conclusion=16 / al_ * gap >= (a - b) ** 2,
        cite=cite(T2_POINT + " and Table 2", "alpha in (0; eta/2); H^- - H >= alpha/(16n) (U_i - U_j)^2; "
                                             "c = 4 sqrt(eta/alpha)"),
        statement="c^2 (H^- - H) >= |U_i - U_j|^2 with c = 4 sqrt(eta/alpha) for every alpha in (0, eta/2) (the "
                  "proof's 'alpha/(16n)' read as alpha/(16 eta), which Table 2's c requires)",
        scope="eta = 1 with every alpha > 0: by the scaling claim this is the printed range alpha in (0, eta/2) over "
              "all eta",
        finding=finding,
    )


def diff_hinge_curvature_claim(id: str, alpha_max: Any = 2) -> Any:
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
        scope="eta = 1 (Lambda(eta x, s) = eta Lambda(x, s) at eta = 1); strong concavity and (16) turn the "
              "piecewise bound into the gap bound",
    )


def pairwise_squared_claim(id: str, c2: Any = 1) -> Any:
    # inf_{d <= 0} E(v_i - v_j - d)^2 - inf_d = (U_i - U_j)^2 for U_i >= U_j
    d = sympy.Symbol("d", real=True)
    return implies(
        id, hypotheses={"order": [a >= b], "misordered": [d <= 0]},
        conclusion=c2 * ((a - b - d) ** 2 - 0) >= (a - b) ** 2,
        cite=cite(T2_PAIR + ", Proof Squared Error", "inf_{d <= 0} Lambda - inf Lambda = (U_i - U_j)^2, c = 1"),
        statement="for U_i >= U_j and every d <= 0: c^2 ((U_i - U_j - d)^2 - 0) >= (U_i - U_j)^2 with c = 1",
    )


def pairwise_logistic_reduction_claim(id: str, extra: Any = 0) -> Any:
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
    g = x * sympy.log(x) - (1 + x) * sympy.log((1 + x) / 2)
    return bounded_inequality(
        id, g, ">=", const * (1 - x) ** 2, box={x: (F(1, 100), 1)},
        cite=cite(T2_PAIR + ", Proof Logistic", ">= 1/(4 ||U||_inf) (U_i - U_j)^2, c = 2 sqrt(||U||_inf)"),
        statement="g(x) >= (1 - x)^2 / 4 on [1/100, 1]; with a = U_i = max, x = U_j/U_i and a <= B it gives "
                  "a g(x) >= a^2 (1-x)^2/(4B) = (U_i - U_j)^2/(4 ||U||_inf)",
        scope="U_j/U_i in [1/100, 1] (the ratio range covered); tight at x = 1 to second order",
    )


def pairwise_exponential_claim(id: str, const: Any = 4) -> Any:
    return bounded_inequality(
        id, (sympy.sqrt(a) - sympy.sqrt(b)) ** 2, ">=", (a - b) ** 2 / (const * B),
        box={a: (0, 10), b: (0, 10), B: (F(1, 100), 10)}, conditions=[a <= B, b <= B],
        cite=cite(T2_PAIR + ", Proof Exponential", "= (sqrt U_i - sqrt U_j)^2 >= 1/(4 ||U||_inf) (U_i - U_j)^2"),
        statement="(sqrt a - sqrt b)^2 >= (a - b)^2/(4B) when a, b <= B: c = 2 sqrt(||U||_inf)",
        scope="U_i, U_j in [0, 10], ||U||_inf = B in [1/100, 10]",
    )


def pairwise_exponential_form_claim(id: str, extra: Any = 0) -> Any:
    lhs = ap_ * (1 - sympy.sqrt(bp_ / ap_)) + bp_ * (1 - sympy.sqrt(ap_ / bp_))
    return identity(
        id, sympy.expand(lhs), sympy.expand((sympy.sqrt(ap_) - sympy.sqrt(bp_)) ** 2) + extra * bp_,
        cite=cite(T2_PAIR + ", Proof Exponential", "U_i(1 - sqrt(U_j/U_i)) + U_j(1 - sqrt(U_i/U_j)) = "
                  "(sqrt U_i - sqrt U_j)^2"),
        statement="the closed form of the pairwise-exponential gap",
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
    from symcal.ranking.order_preserving import _z3_minimum

    status, m, _ = _z3_minimum(expr, s, [], 10.0)
    assert status == "optimal" and m is not None
    return implies(
        id, hypotheses={"misordered": [s[1] <= s[2]]}, conclusion=expr > sympy.Rational(m.numerator, m.denominator),
        cite=cite("Remark 2 and Section 6", "such losses are not order-preserving when varphi is convex"),
        statement=f"{loss_name} pairwise hinge loss on Delta = {{(0,0,1): 1/2, (0,2,0): 1/2}}: every s with "
                  f"s_2 <= s_3 has inner risk > min L = {m} (order preservation for the pair U_2 > U_3)",
        expected=expected,
    )


# ---------------------------------------------------------------------------------------
# the claims
# ---------------------------------------------------------------------------------------

CLAIMS = [
    table1_dcg_claim("calauzenes2013.table1.dcg.gppm_form"),
    table1_ndcg_claim(
        "calauzenes2013.table1.ndcg.gppm_form", u_norm="dcgk", f_norm="dcg",
        finding=Finding(
            what="Table 1's NDCG@k formula divides by max DCG (all n ranks) while its u divides by max DCG@k; "
                 "the two agree only for k = n.",
            counterexample="n = 2, k = 1, y = (1, 1), sigma = (1, 2): formula phi1/(phi1 + phi2), GPPM form 1.",
            corrected="calauzenes2013.table1.ndcg.gppm_form.corrected",
        ),
    ),
    table1_ndcg_claim("calauzenes2013.table1.ndcg.gppm_form.corrected", u_norm="dcgk", f_norm="dcgk",
                      statement="NDCG@k = DCG@k / max DCG@k equals its GPPM form with u normalised by max DCG@k"),
    table1_binary_claim("calauzenes2013.table1.prec.gppm_form", "prec"),
    table1_binary_claim("calauzenes2013.table1.rec.gppm_form", "rec"),
    table1_binary_claim(
        "calauzenes2013.table1.auc.gppm_form", "auc", b_sign=1,
        finding=Finding(
            what="Table 1's caption prints b(y) = (||y||_1 - 1)/(2(n - ||y||_1)) for the AUC; Appendix B.1 "
                 "derives b(y) = -(||y||_1 - 1)/(2(n - ||y||_1)) (minus sign).",
            counterexample="n = 3, y = (0, 1, 1), sigma = (1, 2, 3): AUC = 0, printed form 1 (and "
                           "y = (1, 1, 0), sigma = (1, 2, 3): AUC = 1, printed form 2).",
            corrected="calauzenes2013.table1.auc.gppm_form.corrected",
        ),
    ),
    table1_binary_claim("calauzenes2013.table1.auc.gppm_form.corrected", "auc", b_sign=-1,
                        statement="AUC = -(|y| - 1)/(2(n - |y|)) + sum phi(k) u_sigma(k)(y) with the printed phi, u"),
    spearman_claim("calauzenes2013.table1.spearman.gppm_form"),
    edge_claim("calauzenes2013.table1.edge_cases"),
    eq2_claim("calauzenes2013.eq2"),
    eq2_claim("calauzenes2013.eq2.converse_strict", converse=True, strict=True),
    eq2_claim("calauzenes2013.eq2.converse_non_strict", converse=True, strict=False, expected="refuted",
              statement="the converse of (2) needs strictly decreasing phi: with a tie it fails"),
    eq6_claim("calauzenes2013.eq6"),
    thm32_claim("calauzenes2013.theorem3_2.regret_lower_bound"),
    thm33_claim(
        "calauzenes2013.theorem3_3.err_gap", "err", F(1, 24),
        finding=Finding(
            what="The printed ERR gap is the difference of the sums over the two labels, not of the "
                 "expectations under Delta (probability 1/2 each): twice the true gap. The theorem survives "
                 "(the gap is non-zero).",
            counterexample="ERR(Delta, 1>3>2>4) - ERR(Delta, 1>2>3>4) = 43/96 - 41/96 = 1/48 (R = 1/2 for a "
                           "relevant item, p = 1).",
            corrected="calauzenes2013.theorem3_3.err_gap.corrected",
        ),
    ),
    thm33_claim("calauzenes2013.theorem3_3.err_gap.corrected", "err", F(1, 48),
                statement="ERR(Delta, 1>3>2>4) - ERR(Delta, 1>2>3>4) = 1/48"),
    thm33_claim(
        "calauzenes2013.theorem3_3.ap_gap", "ap", F(-1, 12),
        finding=Finding(
            what="The printed AP gap is twice the gap of the expectations under Delta; the theorem survives.",
            counterexample="AP(Delta, 1>3>2>4) - AP(Delta, 1>2>3>4) = 2/3 - 17/24 = -1/24.",
            corrected="calauzenes2013.theorem3_3.ap_gap.corrected",
        ),
    ),
    thm33_claim("calauzenes2013.theorem3_3.ap_gap.corrected", "ap", F(-1, 24),
                statement="AP(Delta, 1>3>2>4) - AP(Delta, 1>2>3>4) = -1/24"),
    thm33_not_all_optimal_claim("calauzenes2013.theorem3_3.err_not_all_optimal", "err"),
    thm33_not_all_optimal_claim("calauzenes2013.theorem3_3.ap_not_all_optimal", "ap"),
    lemma_b2_claim("calauzenes2013.lemma_b2.err_hypotheses", "err"),
    lemma_b2_claim("calauzenes2013.lemma_b2.ap_hypotheses", "ap"),
    lemma41_claim("calauzenes2013.lemma4_1"),
    lemma51_claim("calauzenes2013.lemma5_1"),
    lemma51_claim("calauzenes2013.lemma5_1.p3", p=F(3)),
    lemma51_claim("calauzenes2013.lemma5_1.p3_2", p=F(3, 2)),
    lemma51_proof_claim(
        "calauzenes2013.lemma5_1.proof_first_step",
        finding=Finding(
            what="The first inequality of Lemma 5.1's proof (Appendix B.3) raises the phi-differences to the power q "
                 "where Hoelder's inequality needs p: (sum w^q)^(1/p) (sum a^q)^(1/q) does not bound the regret "
                 "unless p = q = 2. The lemma itself survives: its statement uses C_phi(p) with exponent p.",
            counterexample="n = 2, phi = (2, 0), U = (0, 1), nu = (2, 1), sigma = (1, 2), p = 3 (q = 3/2): regret 2, "
                           "C = {(2, 1)}, printed bound (2^(3/2))^(1/3) * 1^(2/3) = sqrt 2 < 2.",
            corrected="calauzenes2013.lemma5_1.proof_first_step.corrected",
        ),
    ),
    lemma51_proof_claim("calauzenes2013.lemma5_1.proof_first_step.corrected", printed=False),
    pointwise_squared_claim("calauzenes2013.table2.pointwise.squared"),
    pointwise_logistic_claim("calauzenes2013.table2.pointwise.logistic"),
    pointwise_exponential_claim("calauzenes2013.table2.pointwise.exponential"),
    square_hinge_scaling_claim("calauzenes2013.table2.pointwise.square_hinge.scaling"),
    square_hinge_minimum_claim("calauzenes2013.table2.pointwise.square_hinge.inner_minimum"),
    square_hinge_claim(
        "calauzenes2013.table2.pointwise.square_hinge", sympy.Rational(1, 2),
        statement="c^2 (H^- - H) >= |U_i - U_j|^2 with Table 2's printed c = sqrt(eta)/sqrt(2 eta) (c^2 = 1/2)",
        finding=Finding(
            what="Table 2 prints c = sqrt(eta)/sqrt(2 eta) = 1/sqrt 2 for the pointwise Square Hinge (our copy of the "
                 "table may have garbled it: it does not depend on t, although Section 5.1 says this bound depends "
                 "on t). No constant independent of t can hold, since H^- - H = t^2 (U_i - U_j)^2/(2 eta). The "
                 "proof in Appendix B.4 (lambda is mu = 2t^2/eta strongly concave, H^- - H >= mu/8 (U_i - U_j)^2) "
                 "gives c = 2 sqrt(eta)/t; the best constant is sqrt(2 eta)/t.",
            counterexample="t = eta = 1, U_i = 1, U_j = 0, s_i = s_j = 1/2: H^- - H = 1/2, so c^2 (H^- - H) = 1/4 < 1.",
            corrected="calauzenes2013.table2.pointwise.square_hinge.corrected",
        ),
    ),
    square_hinge_claim("calauzenes2013.table2.pointwise.square_hinge.corrected", 4,
                       statement="c^2 (H^- - H) >= |U_i - U_j|^2 with the proof's c = 2 sqrt(eta)/t (c^2 = 4 at "
                                 "t = eta = 1): the mu/8 bound of Appendix B.4"),
    square_hinge_claim("calauzenes2013.table2.pointwise.square_hinge.best_constant", 2,
                       statement="c = sqrt(2 eta)/t also works (H^- - H = t^2 (U_i - U_j)^2/(2 eta)): the proof's "
                                 "constant is loose by sqrt 2"),
    diff_hinge_minimum_claim("calauzenes2013.table2.pointwise.differentiable_hinge.inner_minimum"),
    diff_hinge_scaling_claim("calauzenes2013.table2.pointwise.differentiable_hinge.scaling"),
    diff_hinge_printed_claim(
        "calauzenes2013.table2.pointwise.differentiable_hinge",
        finding=Finding(
            what="Table 2 allows any alpha in (0, eta/2) for the Differentiable Hinge, but its bound (c = 4 sqrt(eta/"
                 "alpha), i.e. H^- - H >= alpha/(16 eta) (U_i - U_j)^2) fails for alpha > 2: the kink of phi_alpha "
                 "sits at distance 1 whatever eta is, and for alpha >= 1 the inner minimum is x (eta - x)/(2 alpha "
                 "eta), so H^- - H = (U_i - U_j)^2/(4 alpha eta), below alpha (U_i - U_j)^2/(16 eta) once alpha > 2. "
                 "The bound holds for alpha in (0, min(2, eta/2)).",
            counterexample="eta = 8, alpha = 3, U_i = 8, U_j = 0, s_i = s_j = 0: Lambda = 8 phi_3(1) = 4/3 while "
                           "H = 0, and c^2 (H^- - H) = (128/3)(4/3) = 512/9 < 64 = (U_i - U_j)^2.",
            corrected="calauzenes2013.table2.pointwise.differentiable_hinge.corrected",
        ),
    ),
    diff_hinge_curvature_claim("calauzenes2013.table2.pointwise.differentiable_hinge.corrected"),
    pairwise_squared_claim("calauzenes2013.table2.pairwise.squared"),
    pairwise_logistic_reduction_claim("calauzenes2013.table2.pairwise.logistic_reduction"),
    pairwise_logistic_claim("calauzenes2013.table2.pairwise.logistic"),
    pairwise_exponential_form_claim("calauzenes2013.table2.pairwise.exponential_form"),
    pairwise_exponential_claim("calauzenes2013.table2.pairwise.exponential"),
    remark2_form_claim("calauzenes2013.remark2.inner_risk_form"),
    remark2_claim("calauzenes2013.remark2.usual_pairwise_not_order_preserving", "usual", expected="refuted"),
    remark2_claim("calauzenes2013.remark2.proposed_pairwise_order_preserving", "proposed"),
]


# ---------------------------------------------------------------------------------------
# Negative twins (DESIGN.md, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with this module's own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says "proved" (proved or confirmed on samples): the twin of a
# claim the paper says is false restores the missing condition.  Errata are their own twins.
# `symcal selftest --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


P = "calauzenes2013."
ALL_ONES = [((1, 1, 1, 1), Fraction(1))]
PROPOSED_FAILS = [((0, 0, 1), Fraction(1, 3)), ((2, 1, 0), Fraction(2, 3))]  # hinge is not differentiable
TWINS: dict[str, Callable[[], Claim]] = {
    P + "table1.dcg.gppm_form": lambda: table1_dcg_claim(twin_id("calauzenes2013.dcg"), gain_offset=0),
    P + "table1.ndcg.gppm_form.corrected": lambda: table1_ndcg_claim(
        twin_id("calauzenes2013.ndcg"), u_norm="dcg", f_norm="dcgk"),
    P + "table1.prec.gppm_form": lambda: table1_binary_claim(
        twin_id("calauzenes2013.prec"), "prec", phi_scale=Fraction(2)),
    P + "table1.rec.gppm_form": lambda: table1_binary_claim(
        twin_id("calauzenes2013.rec"), "rec", phi_scale=Fraction(2)),
    P + "table1.auc.gppm_form.corrected": lambda: table1_binary_claim(
        twin_id("calauzenes2013.auc"), "auc", phi_scale=Fraction(2)),
    P + "table1.spearman.gppm_form": lambda: spearman_claim(twin_id("calauzenes2013.spearman"), b_sign=1),
    P + "table1.edge_cases": lambda: edge_claim(twin_id("calauzenes2013.edge"), widen=True),
    P + "eq2": lambda: eq2_claim(twin_id("calauzenes2013.eq2"), overlap=True),
    P + "eq2.converse_strict": lambda: eq2_claim(twin_id("calauzenes2013.eq2c"), converse=True, strict=False),
    P + "eq6": lambda: eq6_claim(twin_id("calauzenes2013.eq6"), swap_sign=-1),
    P + "theorem3_2.regret_lower_bound": lambda: thm32_claim(twin_id("calauzenes2013.thm32"), factor=Fraction(12)),
    P + "theorem3_3.err_gap.corrected": lambda: thm33_claim(twin_id("calauzenes2013.err"), "err", Fraction(1, 96)),
    P + "theorem3_3.ap_gap.corrected": lambda: thm33_claim(twin_id("calauzenes2013.ap"), "ap", Fraction(-1, 48)),
    P + "theorem3_3.err_not_all_optimal": lambda: thm33_not_all_optimal_claim(
        twin_id("calauzenes2013.err_all"), "err", dist=ALL_ONES),
    P + "theorem3_3.ap_not_all_optimal": lambda: thm33_not_all_optimal_claim(
        twin_id("calauzenes2013.ap_all"), "ap", dist=ALL_ONES),
    P + "lemma_b2.err_hypotheses": lambda: lemma_b2_claim(twin_id("calauzenes2013.b2err"), "err", strict=False),
    P + "lemma_b2.ap_hypotheses": lambda: lemma_b2_claim(twin_id("calauzenes2013.b2ap"), "ap", strict=False),
    P + "lemma4_1": lambda: lemma41_claim(twin_id("calauzenes2013.lemma41"), scale=Fraction(1, 2)),
    P + "lemma5_1": lambda: lemma51_claim(twin_id("calauzenes2013.lemma51"), c_terms=0),
    P + "lemma5_1.p3": lambda: lemma51_claim(twin_id("calauzenes2013.lemma51p3"), p=Fraction(3), c_terms=0),
    P + "lemma5_1.p3_2": lambda: lemma51_claim(twin_id("calauzenes2013.lemma51p32"), p=Fraction(3, 2), c_terms=0),
    P + "lemma5_1.proof_first_step.corrected": lambda: lemma51_proof_claim(
        twin_id("calauzenes2013.lemma51proof"), printed=False, regret_scale=Fraction(11, 10)),
    P + "table2.pointwise.square_hinge.scaling": lambda: square_hinge_scaling_claim(
        twin_id("calauzenes2013.sqhscale"), power=3),
    P + "table2.pointwise.square_hinge.inner_minimum": lambda: square_hinge_minimum_claim(
        twin_id("calauzenes2013.sqhmin"), extra=Fraction(1, 100)),
    P + "table2.pointwise.square_hinge.corrected": lambda: square_hinge_claim(
        twin_id("calauzenes2013.sqhc"), Fraction(100, 51), statement="twin: c^2 just below the best constant 2"),
    P + "table2.pointwise.square_hinge.best_constant": lambda: square_hinge_claim(
        twin_id("calauzenes2013.sqhb"), Fraction(199, 100), statement="twin: c^2 = 1.99 < 2"),
    P + "table2.pointwise.squared": lambda: pointwise_squared_claim(twin_id("calauzenes2013.psq"), c2=1),
    P + "table2.pointwise.logistic": lambda: pointwise_logistic_claim(twin_id("calauzenes2013.plog"), mu=5),
    P + "table2.pointwise.exponential": lambda: pointwise_exponential_claim(twin_id("calauzenes2013.pexp"), mu=5),
    P + "table2.pointwise.differentiable_hinge.scaling": lambda: diff_hinge_scaling_claim(
        twin_id("calauzenes2013.dhscale"), power=2),
    P + "table2.pointwise.differentiable_hinge.inner_minimum": lambda: diff_hinge_minimum_claim(
        twin_id("calauzenes2013.dhmin"), extra=Fraction(1, 100)),
    P + "table2.pointwise.differentiable_hinge.corrected": lambda: diff_hinge_curvature_claim(
        twin_id("calauzenes2013.dhc"), alpha_max=Fraction(5, 2)),
    P + "table2.pairwise.squared": lambda: pairwise_squared_claim(twin_id("calauzenes2013.qsq"), c2=Fraction(1, 2)),
    P + "table2.pairwise.logistic_reduction": lambda: pairwise_logistic_reduction_claim(
        twin_id("calauzenes2013.qlogr"), extra=Fraction(1, 10)),
    P + "table2.pairwise.logistic": lambda: pairwise_logistic_claim(
        twin_id("calauzenes2013.qlog"), const=sympy.Rational(26, 100)),
    P + "table2.pairwise.exponential_form": lambda: pairwise_exponential_form_claim(
        twin_id("calauzenes2013.qexpf"), extra=Fraction(1, 10)),
    P + "table2.pairwise.exponential": lambda: pairwise_exponential_claim(twin_id("calauzenes2013.qexp"), const=3),
    P + "remark2.inner_risk_form": lambda: remark2_form_claim(
        twin_id("calauzenes2013.r2form"), swap=True, phi=lambda t: t**3 + t),
    P + "remark2.proposed_pairwise_order_preserving": lambda: remark2_claim(
        twin_id("calauzenes2013.r2prop"), "proposed", dist=PROPOSED_FAILS),
    # claims the paper says are false: the twin restores the missing condition and is proved
    P + "eq2.converse_non_strict": lambda: eq2_claim(twin_id("calauzenes2013.eq2n"), converse=True, strict=True),
    P + "remark2.usual_pairwise_not_order_preserving": lambda: remark2_claim(
        twin_id("calauzenes2013.r2usual"), "usual", dist=[((0, 1, 0), Fraction(1))]),
}

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {
    P + "eq2.converse_non_strict": "proved",
    P + "remark2.usual_pairwise_not_order_preserving": "proved",
}
