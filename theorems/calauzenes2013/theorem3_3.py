"""Theorem 3.3 (no order-preserving loss is calibrated with the ERR or the AP) with its proof in
Appendix B.2: the hypotheses of Lemma B.2 for ERR and AP, and the proof's counterexample distribution."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, implies
from symcal.ranking.measures import rankings

from .common import F, at_rank, cite, label_data, label_symbols, labels, position, rank_matrix, ranking_data

Matrix = tuple[tuple[Any, ...], ...]

THM33_DIST = [((1, 1, 0, 0), F(1, 2)), ((0, 0, 1, 1), F(1, 2))]
ORDER_1234, ORDER_1324 = (1, 2, 3, 4), (1, 3, 2, 4)
HALF = sympy.Rational(1, 2)


def err_expr(Y: tuple[Any, ...], P: Matrix) -> Any:
    """ERR (Table 1) = sum_r R_sigma(r)/r prod_{q<r} (1 - R_sigma(q)) with R_i = (2^{y_i} - 1)/2^p; binary labels
    (p = 1) give R_i = y_i/2.  Over label symbols and a permutation matrix (y_sigma(r) = sum_i y_i P_i_r)."""
    R = tuple(HALF * y for y in Y)
    return sympy.Add(*[at_rank(R, P, r) / r * sympy.Mul(*[1 - at_rank(R, P, q) for q in range(1, r)])
                       for r in range(1, len(Y) + 1)])


def ap_expr(Y: tuple[Any, ...], P: Matrix, *, empty_zero: bool = False) -> Any:
    """AP (Table 1) = (1/||y||_1) sum_{i: y_i = 1} Prec@sigma^-1(i) = (1/||y||_1) sum_r y_sigma(r) (1/r)
    sum_{q<=r} y_sigma(q) (binary labels); ``empty_zero``: AP := 0 at y = 0."""
    n, m = len(Y), sympy.Add(*Y)
    ap = sympy.Add(*[at_rank(Y, P, r) / r * sympy.Add(*[at_rank(Y, P, q) for q in range(1, r + 1)])
                     for r in range(1, n + 1)]) / m
    return sympy.Piecewise((0, sympy.Eq(m, 0)), (ap, True)) if empty_zero else ap


def measure_expr(which: str, Y: tuple[Any, ...], P: Matrix, *, empty_zero: bool = False) -> Any:
    return err_expr(Y, P) if which == "err" else ap_expr(Y, P, empty_zero=empty_zero)


def ranking_name(sigma: tuple[int, ...]) -> str:
    return "P" + "".join(map(str, sigma))


def expected_expr(which: str, dist: list[Any], sigma: tuple[int, ...]) -> tuple[Any, dict[Any, Any]]:
    """R(Delta, sigma) = sum_t p_t r(y^(t), sigma) over symbols (labels y<t>_i, probabilities p<t>, the
    permutation matrix P<sigma>_i_r) and the values of those symbols: Delta's labels and probabilities and
    sigma's matrix are the data."""
    n = len(sigma)
    P = rank_matrix(ranking_name(sigma), n)
    total, values = sympy.Integer(0), ranking_data(P, sigma)
    for t, (y, p) in enumerate(dist, start=1):
        Y, pt = label_symbols(f"y{t}_", n), sympy.Symbol(f"p{t}")
        total += pt * measure_expr(which, Y, P)
        values.update({**label_data(Y, y), pt: p})
    return total, values


def thm33_gap_formula(which: str, printed: Fraction) -> tuple[list[Any], dict[Any, Any]]:
    """R(Delta, 1>3>2>4) - R(Delta, 1>2>3>4) = printed gap (a value: the paper's number)."""
    a, va = expected_expr(which, THM33_DIST, ORDER_1324)
    b, vb = expected_expr(which, THM33_DIST, ORDER_1234)
    gap = sympy.Symbol("gap")
    return [sympy.Eq(a - b, gap, evaluate=False)], {**va, **vb, gap: printed}


def thm33_claim(id: str, which: str, printed: Fraction, *, finding: Finding | None = None,
                statement: str = "") -> Any:
    """Appendix B.2, proof of Theorem 3.3: "ERR(1>3>2>4) = ERR(1>2>3>4) + 1/24; AP(1>3>2>4) =
    AP(1>2>3>4) - 1/12"."""
    name = which.upper()
    return finite_check(
        id, cases=[which], formula=lambda w: thm33_gap_formula(w, printed),
        domain="the distribution of the proof (n = 4, y = (1,1,0,0), y' = (0,0,1,1), 1/2 each)",
        cite=cite("Appendix B.2, proof of Theorem 3.3",
                  "ERR(1>3>2>4) = ERR(1>2>3>4) + 1/24; AP(1>3>2>4) = AP(1>2>3>4) - 1/12"),
        statement=statement or f"{name}(Delta, 1>3>2>4) - {name}(Delta, 1>2>3>4) = {printed}",
        finding=finding,
    )


def thm33_not_all_optimal_formula(which: str, dist: list[Any]) -> tuple[list[Any], dict[Any, Any]]:
    """Some ranking of the 24 has R(Delta, sigma) != R(Delta, 1>2>3>4): not all have the same value, so not
    all maximise it.  Every ranking's permutation matrix and Delta are the data."""
    ref, values = expected_expr(which, dist, ORDER_1234)
    others = []
    for sigma in rankings(4):
        if sigma != ORDER_1234:
            e, v = expected_expr(which, dist, sigma)
            others.append(sympy.Ne(e, ref, evaluate=False))
            values.update(v)
    return [sympy.Or(*others, evaluate=False)], values


def thm33_not_all_optimal_claim(id: str, which: str, *, dist: list[Any] | None = None) -> Any:
    """Appendix B.2, proof of Theorem 3.3: "some permutations are suboptimal"."""
    d = dist or THM33_DIST
    name = "ERR" if which == "err" else "AP"
    return finite_check(
        id, cases=[which], formula=lambda w: thm33_not_all_optimal_formula(w, d),
        domain="the 24 rankings of 4 items under the proof's Delta",
        cite=cite("Appendix B.2, proof of Theorem 3.3", "some permutations are suboptimal"),
        statement=f"under Delta (U constant by Lemma B.2) not every ranking maximises {name}, so no "
                  "order-preserving loss is calibrated with it",
    )


def lemma_b2_cases(m: int | None) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for y in labels(m, 1):
        for sigma in rankings(m):
            for i, j in itertools.permutations(range(1, m + 1), 2):
                yield y, sigma, i, j


@functools.cache
def lemma_b2_formula(n: int, i: int, j: int, which: str, strict: bool = True) -> tuple[Any, ...]:
    """Lemma B.2's hypotheses for the pair (i, j) over the symbols of a case (labels y, the permutation matrix
    P of sigma): tau_ij(y) exchanges y_i and y_j, tau_ij o sigma exchanges the ranks of items i and j (rows
    i and j of P).  Symmetry r(y, sigma) = r(tau_ij(y), tau_ij o sigma), and y_i > y_j, sigma^-1(i) >
    sigma^-1(j) => r(y, sigma) < r(y, tau_ij o sigma) (``strict=False``: = there, the twin)."""
    Y, P = label_symbols("y", n), rank_matrix("P", n)
    tY, tP = list(Y), list(P)
    tY[i - 1], tY[j - 1] = Y[j - 1], Y[i - 1]
    tP[i - 1], tP[j - 1] = P[j - 1], P[i - 1]
    r = measure_expr(which, Y, P, empty_zero=True)
    sym = measure_expr(which, tuple(tY), tuple(tP), empty_zero=True)
    swapped = measure_expr(which, Y, tuple(tP), empty_zero=True)
    misordered = sympy.And(Y[i - 1] > Y[j - 1], position(P, i) > position(P, j))
    better = (r < swapped) if strict else sympy.Eq(r, swapped, evaluate=False)
    return (sympy.Eq(r, sym, evaluate=False), sympy.Implies(misordered, better, evaluate=False)), (Y, P)


def lemma_b2_case(case: tuple[Any, ...], which: str, strict: bool = True) -> tuple[list[Any], dict[Any, Any]]:
    y, sigma, i, j = case
    conds, (Y, P) = lemma_b2_formula(len(y), i, j, which, strict)
    return list(conds), {**label_data(Y, y), **ranking_data(P, sigma)}


def lemma_b2_claim(id: str, which: str, *, strict: bool = True, expected: str | None = None) -> Any:
    """Lemma B.2, hypotheses 1-2: "r(y, sigma) = r(tau_ij(y), tau_ij o sigma); y_i > y_j and sigma^-1(i) >
    sigma^-1(j) => r(y, sigma) < r(y, tau_ij o sigma)"."""
    return finite_check(
        id, cases=lemma_b2_cases, formula=lambda c: lemma_b2_case(c, which, strict),
        domain="y in {0,1}^n, every sigma, every i != j (AP := 0 at y = 0)", sizes=(3, 4),
        describe=lambda c: dict(zip(("y", "sigma", "i", "j"), c, strict=True)),
        cite=cite("Lemma B.2, hypotheses 1-2", "r(y, sigma) = r(tau_ij(y), tau_ij o sigma); y_i > y_j and "
                  "sigma^-1(i) > sigma^-1(j) => r(y, sigma) < r(y, tau_ij o sigma)"),
        statement=f"{which.upper()} satisfies Lemma B.2's symmetry and strict monotonicity"
                  if strict else f"twin: {which.upper()} never strictly improves by the swap",
        expected=expected,
    )



# ---------------------------------------------------------------------------------------
# Lemma B.2, proof of point 3: two garbled steps, each checked as printed and as intended.
# U(Delta) = int u dDelta (Section 3.1), so U of a mixture is the mixture of the u's.
# ---------------------------------------------------------------------------------------

B2_POINT3 = "Lemma B.2, proof of point 3"


def lemma_b2_mixture_claim(id: str, *, printed: bool = False, small_strict: bool = True,
                           finding: Finding | None = None) -> Any:
    """Proof of Lemma B.2, point 3: "Delta^beta = beta delta_{y^j} + (1-beta)/2 delta_{y^j} + (1-beta)/2
    delta_{y^j}, and beta > 0 small enough so that U_i(Delta^beta) > U_j(Delta^beta)", given u_i(y) + u_i(y') >
    u_j(y) + u_j(y') (the assumption for a contradiction) and u_j(y^j) > u_i(y^j) (point 1: y^j_j = 1 > 0 = y^j_i).
    "Small enough" is every beta in (0, beta_0), beta_0 = S/D with S the assumed excess and D = S + 2(u_j(y^j) -
    u_i(y^j)); the conclusion also asks 0 < beta_0 < 1 (D > 0, 0 < S < D), so that such a beta exists.
    ``printed``: the three masses at y^j, y^j, y^j as printed (else at y^j, y, y', the intended mixture);
    ``small_strict=False``: beta <= beta_0 (the twin: at beta_0 the two are equal)."""
    beta, ai, aj, yi, ypi, yj, ypj = sympy.symbols("beta ui_yj uj_yj ui_y ui_yp uj_y uj_yp", real=True)
    excess = yi + ypi - yj - ypj
    denominator = excess + 2 * (aj - ai)  # beta_0 = excess / denominator
    small = beta * denominator
    rest = 1 - beta
    if printed:
        Ui = beta * ai + rest / 2 * ai + rest / 2 * ai
        Uj = beta * aj + rest / 2 * aj + rest / 2 * aj
    else:
        Ui = beta * ai + rest / 2 * yi + rest / 2 * ypi
        Uj = beta * aj + rest / 2 * yj + rest / 2 * ypj
    return implies(
        id,
        hypotheses={
            "u_nonnegative": [ai >= 0, aj >= 0, yi >= 0, ypi >= 0, yj >= 0, ypj >= 0],
            "point1_at_yj": [aj > ai],
            "assumed_excess": [excess > 0],
            "beta_small": [beta > 0, small < excess if small_strict else small <= excess],
        },
        conclusion=sympy.And(denominator > 0, excess > 0, excess < denominator, Ui > Uj),
        cite=cite(B2_POINT3, "Define a mixture between the three Dirac distributions, Delta^beta = beta delta_{y^j} + "
                             "(1-beta)/2 delta_{y^j} + (1-beta)/2 delta_{y^j}, and beta > 0 small enough so that "
                             "U_i(Delta^beta) > U_j(Delta^beta)"),
        statement=("as printed, Delta^beta = beta delta_{y^j} + (1-beta)/2 delta_{y^j} + (1-beta)/2 delta_{y^j}"
                   if printed else "with Delta^beta = beta delta_{y^j} + (1-beta)/2 delta_y + (1-beta)/2 delta_{y'}")
                  + ": 0 < beta_0 < 1 and U_i(Delta^beta) > U_j(Delta^beta) for every beta in (0, beta_0), beta_0 = "
                    "S/(S + 2(u_j(y^j) - u_i(y^j))), S = u_i(y) + u_i(y') - u_j(y) - u_j(y') > 0, u_j(y^j) > u_i(y^j) "
                    "(point 1)"
                  + ("" if small_strict else " (twin: beta <= beta_0)"),
        finding=finding,
    )


def lemma_b2_labels_claim(id: str, *, printed: bool = False, distinct: bool = True,
                          finding: Finding | None = None) -> Any:
    """Proof of Lemma B.2, point 3: "by the second point, we necessarily have y_i != y_j, thus y_i + y_i' = 1.
    Without loss of generality, assume y_i = 1 (thus, y_j = y_i' = 1 and y_i' = 0)", over binary labels.
    ``printed``: the parenthesis as printed (else y_j = y_i' = 0 and y_j' = 1); ``distinct=False``: without
    y_i != y_j (the twin)."""
    yi, yj, ypi, ypj = sympy.symbols("y_i y_j yp_i yp_j", integer=True)
    conclusion = (sympy.And(sympy.Eq(yj, 1), sympy.Eq(ypi, 1), sympy.Eq(ypi, 0)) if printed
                  else sympy.And(sympy.Eq(yj, 0), sympy.Eq(ypi, 0), sympy.Eq(ypj, 1)))
    return implies(
        id,
        hypotheses={
            "binary_labels": [v >= 0 for v in (yi, yj, ypi, ypj)] + [v <= 1 for v in (yi, yj, ypi, ypj)],
            "equal_pair_sums": [sympy.Eq(yi + ypi, yj + ypj)],
            "distinct_by_point2": [sympy.Ne(yi, yj)] if distinct else [],
            "wlog_yi_1": [sympy.Eq(yi, 1)],
        },
        conclusion=conclusion,
        cite=cite(B2_POINT3, "Without loss of generality, assume y_i = 1 (thus, y_j = y_i' = 1 and y_i' = 0)"),
        statement="binary labels with y_i + y_i' = y_j + y_j', y_i != y_j and y_i = 1: "
                  + ("y_j = y_i' = 1 and y_i' = 0 (as printed)" if printed else "y_j = y_i' = 0 and y_j' = 1")
                  + ("" if distinct else " (twin: without y_i != y_j)"),
        finding=finding,
    )


# ---------------------------------------------------------------------------------------


err_gap_corrected = thm33_claim("calauzenes2013.theorem3_3.err_gap.corrected", "err", F(1, 48),
                                statement="ERR(Delta, 1>3>2>4) - ERR(Delta, 1>2>3>4) = 1/48")
err_gap = thm33_claim(
    "calauzenes2013.theorem3_3.err_gap", "err", F(1, 24),
    finding=Finding(
        what="The printed ERR gap is the difference of the sums over the two labels, not of the "
             "expectations under Delta (probability 1/2 each): twice the true gap. The theorem survives "
             "(the gap is non-zero).",
        counterexample="ERR(Delta, 1>3>2>4) - ERR(Delta, 1>2>3>4) = 43/96 - 41/96 = 1/48 (R = 1/2 for a "
                       "relevant item, p = 1).",
        corrected=err_gap_corrected.id,
        finding_class="proof",
    ),
)
ap_gap_corrected = thm33_claim("calauzenes2013.theorem3_3.ap_gap.corrected", "ap", F(-1, 24),
                               statement="AP(Delta, 1>3>2>4) - AP(Delta, 1>2>3>4) = -1/24")
ap_gap = thm33_claim(
    "calauzenes2013.theorem3_3.ap_gap", "ap", F(-1, 12),
    finding=Finding(
        what="The printed AP gap is twice the gap of the expectations under Delta; the theorem survives.",
        counterexample="AP(Delta, 1>3>2>4) - AP(Delta, 1>2>3>4) = 2/3 - 17/24 = -1/24.",
        corrected=ap_gap_corrected.id,
        finding_class="proof",
    ),
)
err_not_all_optimal = thm33_not_all_optimal_claim("calauzenes2013.theorem3_3.err_not_all_optimal", "err")
ap_not_all_optimal = thm33_not_all_optimal_claim("calauzenes2013.theorem3_3.ap_not_all_optimal", "ap")
lemma_b2_err = lemma_b2_claim("calauzenes2013.lemma_b2.err_hypotheses", "err")
lemma_b2_ap = lemma_b2_claim("calauzenes2013.lemma_b2.ap_hypotheses", "ap")
lemma_b2_mixture_corrected = lemma_b2_mixture_claim("calauzenes2013.lemma_b2.proof_mixture.corrected")
lemma_b2_mixture = lemma_b2_mixture_claim(
    "calauzenes2013.lemma_b2.proof_mixture", printed=True,
    finding=Finding(
        what="The proof of Lemma B.2, point 3, puts all three Dirac masses of Delta^beta at y^j, so Delta^beta = "
             "delta_{y^j} for every beta and U_i(Delta^beta) - U_j(Delta^beta) = u_i(y^j) - u_j(y^j) < 0 by point 1: "
             "no beta gives U_i > U_j. The intended mixture beta delta_{y^j} + (1-beta)/2 delta_y + (1-beta)/2 "
             "delta_{y'} gives it for every beta below S/(S + 2(u_j(y^j) - u_i(y^j))), S = u_i(y) + u_i(y') - u_j(y) "
             "- u_j(y') > 0; the lemma stands.",
        counterexample="u_i(y^j) = 0, u_j(y^j) = 1, u_i(y) = 1, u_i(y') = u_j(y) = u_j(y') = 0 (S = 1, beta_0 = 1/3), "
                       "beta = 1/4: the printed mixture gives U_i - U_j = -1; the intended one -1/4 + 3/8 = 1/8 > 0.",
        corrected=lemma_b2_mixture_corrected.id,
        finding_class="proof",
    ),
)
lemma_b2_labels_corrected = lemma_b2_labels_claim("calauzenes2013.lemma_b2.proof_labels.corrected")
lemma_b2_labels = lemma_b2_labels_claim(
    "calauzenes2013.lemma_b2.proof_labels", printed=True,
    finding=Finding(
        what="The proof of Lemma B.2, point 3, assumes y_i = 1 and writes '(thus, y_j = y_i' = 1 and y_i' = 0)', "
             "which contradicts itself (y_i' = 1 and y_i' = 0): from y_i != y_j and y_i + y_i' = y_j + y_j' follow "
             "y_j = y_i' = 0 and y_j' = 1. A typo; the lemma stands.",
        counterexample="y_i = 1, y_j = 0, y_i' = 0, y_j' = 1 (the only binary labels meeting the hypotheses): y_j = 0, "
                       "not 1.",
        corrected=lemma_b2_labels_corrected.id,
        finding_class="proof",
    ),
)
