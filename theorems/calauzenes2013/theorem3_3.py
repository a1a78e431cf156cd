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
from symcal.claims import described
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


# ---------------------------------------------------------------------------------------
# Lemma B.2, proof of point 3: "y and y' do not impose any constraint on the relative ordering of any two
# items for which y_i + y_i' = y_j + y_j'".  Read as: the two labels' values summed are the same for sigma
# and tau_ij o sigma (R(Delta, .) for Delta = (delta_y + delta_{y'})/2, up to the factor 1/2).
# ---------------------------------------------------------------------------------------

B2_NO_CONSTRAINT_QUOTE = ("Since sum_k y_k = sum_k y_k' and using the symmetry of the ranking performance measure, we "
                          "can claim that y and y' do not impose any constraint on the relative ordering of any two "
                          "items for which y_i + y_i' = y_j + y_j'")


def no_constraint_cases(m: int | None, measures: tuple[str, ...] = ("err",)) -> Iterator[tuple[Any, ...]]:
    """(measure, y, y', i, j, sigma) over y, y' in {0,1}^m with equal sums and i != j with y_i + y_i' = y_j + y_j'
    and y_i = 1, y_j = 0 (the proof's case: y_i != y_j by point 2, y_i = 1 without loss of generality), for each of
    ``measures`` (ERR by default: one measure refutes the step, and AP's 72 cases at m = 3 would double the time),
    y before y' in lexicographic order (the hypotheses are also stated in each case's formula)."""
    assert m is not None
    for which in measures:
        for y in labels(m, 1):
            for yp in labels(m, 1):
                if sum(y) != sum(yp):
                    continue
                for i, j in itertools.permutations(range(1, m + 1), 2):
                    if (y[i - 1], y[j - 1]) != (1, 0) or y[i - 1] + yp[i - 1] != y[j - 1] + yp[j - 1]:
                        continue
                    for sigma in rankings(m):
                        yield which, y, yp, i, j, sigma


@functools.cache
def no_constraint_formula(n: int, i: int, j: int, which: str) -> tuple[Any, tuple[Any, ...]]:
    """sum_k y_k = sum_k y'_k, y_i + y'_i = y_j + y'_j, y_i = 1, y_j = 0 => r(y, sigma) + r(y', sigma) =
    r(y, tau_ij o sigma) + r(y', tau_ij o sigma), over the label symbols of y and y' and the permutation matrix P
    of sigma (tau_ij o sigma exchanges rows i and j of P)."""
    Y, Yp, P = label_symbols("y", n), label_symbols("yp", n), rank_matrix("P", n)
    tP = list(P)
    tP[i - 1], tP[j - 1] = P[j - 1], P[i - 1]
    hyp = sympy.And(sympy.Eq(sympy.Add(*Y), sympy.Add(*Yp)), sympy.Eq(Y[i - 1] + Yp[i - 1], Y[j - 1] + Yp[j - 1]),
                    sympy.Eq(Y[i - 1], 1), sympy.Eq(Y[j - 1], 0))
    lhs = measure_expr(which, Y, P, empty_zero=True) + measure_expr(which, Yp, P, empty_zero=True)
    rhs = measure_expr(which, Y, tuple(tP), empty_zero=True) + measure_expr(which, Yp, tuple(tP), empty_zero=True)
    return sympy.Implies(hyp, sympy.Eq(lhs, rhs, evaluate=False), evaluate=False), (Y, Yp, P)


def no_constraint_case(case: tuple[Any, ...]) -> tuple[list[Any], dict[Any, Any]]:
    which, y, yp, i, j, sigma = case
    cond, (Y, Yp, P) = no_constraint_formula(len(y), i, j, which)
    return [cond], {**label_data(Y, y), **label_data(Yp, yp), **ranking_data(P, sigma)}


def no_constraint_printed_claim(id: str, *, finding: Finding | None = None) -> Any:
    """Proof of Lemma B.2, point 3, as printed: the step "y and y' do not impose any constraint on the relative
    ordering of any two items for which y_i + y_i' = y_j + y_j'", for ERR (AP fails on the same case; both satisfy
    the lemma's hypotheses: calauzenes2013.lemma_b2.err_hypotheses, .ap_hypotheses)."""
    return finite_check(
        id, cases=no_constraint_cases, formula=no_constraint_case, sizes=(3, 4),
        domain="ERR; y, y' in {0,1}^n with equal sums, i != j with y_i + y_i' = y_j + y_j' and y_i = 1, "
               "y_j = 0 (the proof's case), every sigma",
        describe=lambda c: dict(zip(("measure", "y", "y'", "i", "j", "sigma"), c, strict=True)),
        cite=cite(B2_POINT3, B2_NO_CONSTRAINT_QUOTE),
        statement="r(y, sigma) + r(y', sigma) = r(y, tau_ij o sigma) + r(y', tau_ij o sigma) whenever sum y = sum y' "
                  "and y_i + y_i' = y_j + y_j' (r = ERR)",
        finding=finding,
    )


def no_constraint_symmetric_claim(id: str, *, symmetry: bool = True) -> Any:
    """The step where it holds: y' = tau_ij(y) (y and y' agree outside {i, j}, all that n = 3 allows once y_i != y_j),
    for every measure with Lemma B.2's symmetry r(y, sigma) = r(tau_ij(y), tau_ij o sigma).  The four values
    r(y, sigma), r(y, tau sigma), r(y', sigma), r(y', tau sigma) are real variables; symmetry at (y', sigma) and
    (y', tau sigma) gives r(y', sigma) = r(y, tau sigma) and r(y', tau sigma) = r(y, sigma) (tau tau = id).
    ``symmetry=False`` drops them (the twin)."""
    a, b, c, d = sympy.symbols("r_y_sigma r_y_tausigma r_yp_sigma r_yp_tausigma", real=True)
    return implies(
        id,
        hypotheses={"symmetry_at_y_prime": [sympy.Eq(c, b), sympy.Eq(d, a)] if symmetry else []},
        conclusion=sympy.Eq(a + c, b + d),
        cite=cite(B2_POINT3, B2_NO_CONSTRAINT_QUOTE),
        statement="for y' = tau_ij(y) and every measure r with Lemma B.2's symmetry: r(y, sigma) + r(y', sigma) = "
                  "r(y, tau_ij o sigma) + r(y', tau_ij o sigma)" + ("" if symmetry else " (twin: without symmetry)"),
        scope=described("the four values r(y, sigma), r(y, tau_ij o sigma), r(y', sigma), r(y', tau_ij o sigma) "
                        "as real variables with symmetry's r(y', sigma) = r(y, tau_ij o sigma), r(y', tau_ij o "
                        "sigma) = r(y, sigma): the values of every measure r satisfying hypothesis 1, every sigma, "
                        "every y and y' = tau_ij(y)"),
    )


# Theorem 3.3 without point 3: along Delta_t = t delta_y + (1 - t) delta_{y'} (y = (1,1,0,0), y' = (0,0,1,1)),
# points 1-2 give U(Delta_t) = (x, x, z, z) with x - z going from < 0 (t = 0) to > 0 (t = 1), so U is constant at
# some t in (0, 1), where it is optimal only if all 24 rankings have the same R(Delta_t, .).


@functools.cache
def family_not_all_equal_conclusion(which: str, dist: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
    """Some sigma has R(Delta_t, sigma) != R(Delta_t, 1>2>3>4), Delta_t = t delta_y + (1 - t) delta_{y'}, (y, y') =
    ``dist``: the measure's formula is built once and evaluated at each ranking's data by ``xreplace`` (every symbol
    becomes a number), when the claim is checked or shown, not when the library is loaded."""
    t = sympy.Symbol("t", real=True)
    y, yp = dist
    Y, P = label_symbols("y", 4), rank_matrix("P", 4)
    measure = measure_expr(which, Y, P)

    def value(labels_: tuple[int, ...], sigma: tuple[int, ...]) -> Any:
        return measure.xreplace({**label_data(Y, labels_), **ranking_data(P, sigma)})

    def expected(sigma: tuple[int, ...]) -> Any:
        return t * value(y, sigma) + (1 - t) * value(yp, sigma)

    ref = expected(ORDER_1234)
    return sympy.Or(*[sympy.Ne(expected(s), ref) for s in rankings(4) if s != ORDER_1234])


def family_not_all_equal_claim(id: str, which: str, *, t_range: tuple[Any, Any] = (0, 1),
                               dist: tuple[tuple[int, ...], tuple[int, ...]] = ((1, 1, 0, 0), (0, 0, 1, 1))) -> Any:
    """Theorem 3.3 repaired: for every t in (0, 1), some ranking sigma has R(Delta_t, sigma) != R(Delta_t, 1>2>3>4)
    for Delta_t = t delta_y + (1 - t) delta_{y'}.  Each R(Delta_t, sigma) = t r(y, sigma) + (1 - t) r(y', sigma)
    with r the measure's formula (Table 1) at the labels and sigma's permutation matrix.  ``dist`` replaces
    (y, y') (the twin: y = y' = (1,1,1,1), where every ranking has the same value)."""
    t = sympy.Symbol("t", real=True)
    y, yp = dist
    return implies(
        id,
        hypotheses={"t_inside": [t > t_range[0], t < t_range[1]]},
        conclusion=lambda m: family_not_all_equal_conclusion(which, dist),
        cite=cite("Appendix B.2, proof of Theorem 3.3", "by the third point of Lemma B.2, u_i(Delta) does not depend "
                                                        "on i. If this is an optimal score vector, then any "
                                                        "permutation of the four items is optimal"),
        statement=f"for every t in (0, 1) not all 24 rankings have the same {which.upper()}(Delta_t, .), Delta_t = t "
                  f"delta_{y} + (1 - t) delta_{yp}: where U(Delta_t) is constant (some t, by points 1-2 of Lemma B.2) "
                  "it is not optimal, so no standardization function exists without point 3",
        scope=described("y = (1,1,0,0), y' = (0,0,1,1) as in the proof; every real t in (0, 1)"),
    )


no_constraint_corrected = no_constraint_symmetric_claim("calauzenes2013.lemma_b2.proof_no_constraint.corrected")
no_constraint = no_constraint_printed_claim(
    "calauzenes2013.lemma_b2.proof_no_constraint",
    finding=Finding(
        what="The proof of Lemma B.2, point 3, claims that, since sum y = sum y' and r is symmetric, y and y' 'do not "
             "impose any constraint on the relative ordering' of two items with y_i + y_i' = y_j + y_j'. Symmetry "
             "gives this only when y' = tau_ij(y) (all that n = 3 allows); for ERR and AP, which satisfy the lemma's "
             "hypotheses, it fails at n = 4 -- on Theorem 3.3's own labels, whose gaps 1/24 and -1/12 are exactly "
             "these sums. Point 3 of the lemma is left without a proof; Theorem 3.3, its only use, survives without "
             "it: by points 1-2, U(t delta_y + (1-t) delta_{y'}) is constant for some t in (0, 1), and there not all "
             "24 rankings have the same value (calauzenes2013.theorem3_3.err_family_not_all_equal, "
             ".ap_family_not_all_equal).",
        counterexample="ERR, n = 4, y = (0,0,1,1), y' = (1,1,0,0) (Theorem 3.3's labels), i = 3, j = 1, sigma = "
                       "1>2>3>4: ERR(y, sigma) + ERR(y', sigma) = 11/48 + 5/8 = 41/48, but with items 1 and 3 "
                       "exchanged (3>2>1>4) 9/16 + 1/3 = 43/48 (R = y/2). AP on the same case: 5/12 + 1 = 17/12 "
                       "against 3/4 + 7/12 = 4/3. At n = 3 the step holds (y' = tau_ij(y) is forced).",
        corrected=no_constraint_corrected.id,
        finding_class="proof",
    ),
)
err_family = family_not_all_equal_claim("calauzenes2013.theorem3_3.err_family_not_all_equal", "err")
ap_family = family_not_all_equal_claim("calauzenes2013.theorem3_3.ap_family_not_all_equal", "ap")


# ---------------------------------------------------------------------------------------
# Lemma B.2, proof of point 2: the mixture Delta^alpha = alpha delta_{y^j} + (1 - alpha) delta_y (y_i = y_j)
# ---------------------------------------------------------------------------------------

B2_POINT2 = "Lemma B.2, proof of point 2"


def point2_mixture_claim(id: str, *, small_strict: bool = True) -> Any:
    """Proof of Lemma B.2, point 2: "Delta^alpha = alpha delta_{y^j} + (1 - alpha) delta_y for alpha > 0 such that
    (1 - alpha) u_i(y) + alpha u_i(y^j) > (1 - alpha) u_j(y) + alpha u_j(y^j)", given u_i(y) > u_j(y) (the assumption
    for a contradiction) and u_j(y^j) > u_i(y^j) (point 1): every alpha in (0, alpha_0), alpha_0 = S/(S + u_j(y^j) -
    u_i(y^j)) with S = u_i(y) - u_j(y), and 0 < alpha_0 < 1.  ``small_strict=False``: alpha <= alpha_0 (the twin)."""
    alpha, ai, aj, yi, yj = sympy.symbols("alpha ui_yj uj_yj ui_y uj_y", real=True)
    excess = yi - yj
    denominator = excess + (aj - ai)
    small = alpha * denominator
    return implies(
        id,
        hypotheses={
            "point1_at_yj": [aj > ai],
            "assumed_excess": [excess > 0],
            "alpha_small": [alpha > 0, small < excess if small_strict else small <= excess],
        },
        conclusion=sympy.And(denominator > 0, excess < denominator,
                             (1 - alpha) * yi + alpha * ai > (1 - alpha) * yj + alpha * aj),
        cite=cite(B2_POINT2, "Define a mixture between the two Dirac distributions, Delta^alpha = alpha delta_{y^j} + "
                             "(1 - alpha) delta_y for alpha > 0 such that (1 - alpha)u_i(y) + alpha u_i(y^j) > (1 - "
                             "alpha)u_j(y) + alpha u_j(y^j)"),
        statement="u_i(y) > u_j(y) and u_j(y^j) > u_i(y^j): 0 < alpha_0 < 1 and U_i(Delta^alpha) > "
                  "U_j(Delta^alpha) for every alpha in (0, alpha_0), alpha_0 = S/(S + u_j(y^j) - u_i(y^j)), "
                  "S = u_i(y) - u_j(y)"
                  + ("" if small_strict else " (twin: alpha <= alpha_0)"),
    )


def point2_swap_claim(id: str, *, monotone: bool = True) -> Any:
    """Proof of Lemma B.2, point 2: "By strict monotonicity (y^j requires j ranked before i) and symmetry (the
    relative ordering of i and j does not matter for y), the small probability alpha implies U_j(Delta^alpha) >
    U_i(Delta^alpha)": for sigma ranking i above j, R(Delta^alpha, sigma) < R(Delta^alpha, tau_ij o sigma) for every
    alpha in (0, 1).  The four values r(y^j, sigma), r(y^j, tau sigma), r(y, sigma), r(y, tau sigma) are real
    variables; symmetry at y (tau_ij(y) = y as y_i = y_j) makes the last two equal, strict monotonicity at y^j
    (y^j_j = 1 > 0 = y^j_i, j below i) orders the first two.  ``monotone=False`` drops the latter (the twin)."""
    alpha, a, b, c, d = sympy.symbols("alpha r_yj_sigma r_yj_tausigma r_y_sigma r_y_tausigma", real=True)
    return implies(
        id,
        hypotheses={
            "symmetry_at_y": [sympy.Eq(c, d)],
            "monotonicity_at_yj": [a < b] if monotone else [],
            "alpha_probability": [alpha > 0, alpha < 1],
        },
        conclusion=alpha * a + (1 - alpha) * c < alpha * b + (1 - alpha) * d,
        cite=cite(B2_POINT2, "By strict monotonicity (y^j requires j ranked before i) and symmetry (the relative "
                             "ordering of i and j does not matter for y), the small probability alpha implies "
                             "U_j(Delta^alpha) > U_i(Delta^alpha)"),
        statement="for sigma ranking i above j: R(Delta^alpha, sigma) < R(Delta^alpha, tau_ij o sigma) for every "
                  "alpha in (0, 1), so no optimal ranking puts i above j and U_i(Delta^alpha) > U_j(Delta^alpha) is "
                  "not optimal"
                  + ("" if monotone else " (twin: without strict monotonicity)"),
        scope=described("the four values r(y^j, sigma), r(y^j, tau_ij o sigma), r(y, sigma), r(y, tau_ij o sigma) "
                        "as real variables with symmetry at y (y_i = y_j) and strict monotonicity at y^j, every "
                        "alpha in (0, 1): the values of every measure r satisfying Lemma B.2's hypotheses, every "
                        "sigma ranking i above j"),
    )


point2_mixture = point2_mixture_claim("calauzenes2013.lemma_b2.proof_point2_mixture")
point2_swap = point2_swap_claim("calauzenes2013.lemma_b2.proof_point2_swap")
