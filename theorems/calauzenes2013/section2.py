"""Section 2.1, Table 1 and Appendix B.1: the performance measures written as (u, phi)-GPPMs,
checked against their formulas (every label vector, every ranking, every k, small n)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check
from symcal.ranking.measures import rankings

from .common import (
    ONE,
    F,
    cite,
    gppm_expr,
    indicator,
    label_data,
    label_symbols,
    labels,
    position_symbols,
    positions_data,
)

PHI = sympy.symbols("phi1:9", positive=True)


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
    """Table 1, DCG@k row: "phi(i) = 1{i<=k}/log(1+i), u_i(y) = 2^{y_i} - 1"."""
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
    """Table 1, NDCG@k row: "NDCG@k = DCG@k(y, sigma) / max DCG(y, sigma'); u_i(y) = (2^{y_i} - 1) / max
    DCG@k(y, sigma')"."""
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


@functools.cache
def binary_measure_formula(n: int, measure: str, b_sign: int = -1, phi_scale: Fraction = ONE) -> tuple[Any, ...]:
    """Printed Table 1 rows for Prec@k, Rec@k and AUC over the symbols of a case: labels y_i, the ranking's
    positions s_i = sigma^-1(i), the cut-off k and the size n.  The measure's own formula and its GPPM form
    b(y) + sum_r phi(r) u_sigma(r)(y) = b(y) + sum_i phi(s_i) u_i(y) are both sympy expressions (indicators as
    Piecewise), so symcal and the kernel evaluate both at each case's data; sums over ranks r <= k are sums
    over the items with s_i <= k:
    Prec@k = (1/k) sum_{r<=k} y_sigma(r), phi(r) = 1{r<=k}/k, u_i = y_i, b = 0;
    Rec@k = (1/||y||_1) sum_{r<=k} y_sigma(r), phi(r) = 1{r<=k}, u_i = y_i/||y||_1, b = 0;
    AUC = (1/(|y|(n-|y|))) sum_{i,j} y_i (1 - y_j) 1{s_i < s_j} (relevant before irrelevant, binary y),
    phi(r) = n - r, u_i = y_i/(|y|(n-|y|)), b = b_sign (|y|-1)/(2(n-|y|)) (printed: b_sign = +1)."""
    Y, S, k, N = label_symbols("y", n), position_symbols("s", n), sympy.Symbol("k"), sympy.Symbol("n")
    m = sympy.Add(*Y)  # ||y||_1
    top_k = sympy.Add(*[y * indicator(s <= k) for y, s in zip(Y, S, strict=True)])  # sum_{r<=k} y_sigma(r)
    if measure == "prec":
        r, phi, u, b = top_k / k, lambda j: indicator(j <= k) / k, Y, 0
    elif measure == "rec":
        r, phi, u, b = top_k / m, lambda j: indicator(j <= k), tuple(v / m for v in Y), 0
    else:
        good = sympy.Add(*[Y[i] * (1 - Y[j]) * indicator(S[i] < S[j]) for i in range(n) for j in range(n) if i != j])
        r = good / (m * (N - m))
        phi, u = lambda j: N - j, tuple(v / (m * (N - m)) for v in Y)
        b = b_sign * (m - 1) / (2 * (N - m))  # printed: b(y) = (||y||_1 - 1) / (2 (n - ||y||_1))
    g = gppm_expr(lambda j: phi_scale * phi(j), u, b, S)
    return (sympy.Eq(r, g, evaluate=False),), (Y, S, k, N)


def binary_measure_case(case: tuple[Any, ...], measure: str, b_sign: int = -1,
                        phi_scale: Fraction = ONE) -> tuple[list[Any], dict[Any, Any]]:
    y, sigma, k = case
    n = len(y)
    conds, (Y, S, K, N) = binary_measure_formula(n, measure, b_sign, phi_scale)
    return list(conds), {**label_data(Y, y), **positions_data(S, sigma), K: k, N: n}


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
    """Table 1, the Prec@k, Rec@k and AUC rows (quotes in TABLE1_QUOTES)."""
    loc, quote = TABLE1_QUOTES[measure]
    return finite_check(
        id, cases=lambda m: binary_cases(m, measure),
        formula=lambda c: binary_measure_case(c, measure, b_sign, phi_scale),
        domain="y in {0,1}^n where defined, every ranking, every k", sizes=sizes,
        describe=lambda c: {"y": c[0], "sigma": c[1], "k": c[2]}, cite=cite(loc, quote),
        statement=statement or f"{measure} equals its printed GPPM form b(y) + sum phi(k) u_sigma(k)(y)",
        finding=finding,
    )


@functools.cache
def spearman_formula(n: int, b_sign: int = -1) -> tuple[Any, ...]:
    """Spearman's coefficient 1 - 6/(n(n^2-1)) sum_i (sigma^-1(i) - y^-1(i))^2 and its printed GPPM form
    (phi(r) = 12(n-r)/(n(n^2-1)), u_i = n - y^-1(i), b = -3(n-1)/(n+1)) over the positions t_i = y^-1(i),
    s_i = sigma^-1(i) and the size n."""
    T, S, N = position_symbols("t", n), position_symbols("s", n), sympy.Symbol("n")
    r = 1 - 6 / (N * (N**2 - 1)) * sympy.Add(*[(s - t) ** 2 for s, t in zip(S, T, strict=True)])
    g = gppm_expr(lambda j: 12 * (N - j) / (N * (N**2 - 1)), tuple(N - t for t in T), b_sign * 3 * (N - 1) / (N + 1), S)
    return (sympy.Eq(r, g, evaluate=False),), (T, S, N)


def spearman_case(case: tuple[Any, ...], b_sign: int = -1) -> tuple[list[Any], dict[Any, Any]]:
    y, sigma = case
    conds, (T, S, N) = spearman_formula(len(y), b_sign)
    return list(conds), {**positions_data(T, y), **positions_data(S, sigma), N: len(y)}


def spearman_claim(id: str, *, b_sign: int = -1) -> Any:
    """Table 1 and Appendix B.1: "phi(i) = 12(n-i)/(n(n^2-1)), u_i = n - y^-1(i), b(y) = -3(n-1)/(n+1)"."""
    return finite_check(
        id, cases=lambda m: itertools.product(list(rankings(m)), list(rankings(m))),  # type: ignore[arg-type]
        formula=lambda c: spearman_case(c, b_sign), domain="y, sigma in S_n", sizes=(2, 5),
        describe=lambda c: {"y": c[0], "sigma": c[1]},
        cite=cite("Table 1 and Appendix B.1", "phi(i) = 12(n-i)/(n(n^2-1)), u_i = n - y^-1(i), "
                  "b(y) = -3(n-1)/(n+1)"),
        statement="Spearman's coefficient equals its printed GPPM form",
    )


@functools.cache
def edge_formula(n: int, which: str, widen: bool = False) -> tuple[Any, ...]:
    """The printed forms divide by zero (one of their denominators is 0: ||y||_1 for Rec@k's u and AP's
    1/||y||_1; ||y||_1 (n - ||y||_1) and 2 (n - ||y||_1) for the AUC's u and b) exactly where the measure is
    declared undefined (||y||_1 = 0; for the AUC ||y||_1 in {0, n}, ``widen``: only 0, the twin)."""
    Y, N = label_symbols("y", n), sympy.Symbol("n")
    m = sympy.Add(*Y)
    dens = [m] if which in ("rec", "ap") else [m * (N - m), 2 * (N - m)]
    divides_by_zero = sympy.Or(*[sympy.Eq(d, 0, evaluate=False) for d in dens], evaluate=False)
    undefined = sympy.Eq(m, 0, evaluate=False)
    if which == "auc" and not widen:
        undefined = sympy.Or(undefined, sympy.Eq(m, N, evaluate=False), evaluate=False)
    both_ways = [sympy.Implies(divides_by_zero, undefined, evaluate=False),
                 sympy.Implies(undefined, divides_by_zero, evaluate=False)]
    return tuple(both_ways), (Y, N)


def edge_case(case: tuple[Any, ...], widen: bool = False) -> tuple[list[Any], dict[Any, Any]]:
    y, which = case
    conds, (Y, N) = edge_formula(len(y), which, widen)
    return list(conds), {**label_data(Y, y), N: len(y)}


def edge_claim(id: str, *, widen: bool = False) -> Any:
    """Table 1: "Rec@k = sum y_sigma(i)/||y||_1; AUC ... /(||y||_1 (n - ||y||_1))" -- where they divide by 0."""
    return finite_check(
        id, cases=lambda m: itertools.product(list(labels(m, 1)), ["rec", "ap", "auc"]),  # type: ignore[arg-type]
        formula=lambda c: edge_case(c, widen), domain="y in {0,1}^n, measures Rec@k, AP, AUC", sizes=(2, 5),
        describe=lambda c: {"y": c[0], "measure": c[1]},
        cite=cite("Table 1", "Rec@k = sum y_sigma(i)/||y||_1; AUC ... /(||y||_1 (n - ||y||_1))"),
        statement="Rec@k and AP are undefined exactly when ||y||_1 = 0, AUC exactly when ||y||_1 in {0, n}",
    )


dcg = table1_dcg_claim("calauzenes2013.table1.dcg.gppm_form")
ndcg_corrected = table1_ndcg_claim(
    "calauzenes2013.table1.ndcg.gppm_form.corrected", u_norm="dcgk", f_norm="dcgk",
    statement="NDCG@k = DCG@k / max DCG@k equals its GPPM form with u normalised by max DCG@k")
ndcg = table1_ndcg_claim(
    "calauzenes2013.table1.ndcg.gppm_form", u_norm="dcgk", f_norm="dcg",
    finding=Finding(
        what="Table 1's NDCG@k formula divides by max DCG (all n ranks) while its u divides by max DCG@k; "
             "the two agree only for k = n.",
        counterexample="n = 2, k = 1, y = (1, 1), sigma = (1, 2): formula phi1/(phi1 + phi2), GPPM form 1.",
        corrected=ndcg_corrected.id,
        finding_class="statement",
    ),
)
prec = table1_binary_claim("calauzenes2013.table1.prec.gppm_form", "prec")
rec = table1_binary_claim("calauzenes2013.table1.rec.gppm_form", "rec")
auc_corrected = table1_binary_claim(
    "calauzenes2013.table1.auc.gppm_form.corrected", "auc", b_sign=-1,
    statement="AUC = -(|y| - 1)/(2(n - |y|)) + sum phi(k) u_sigma(k)(y) with the printed phi, u")
auc_printed = table1_binary_claim(
    "calauzenes2013.table1.auc.gppm_form", "auc", b_sign=1,
    finding=Finding(
        what="Table 1's caption prints b(y) = (||y||_1 - 1)/(2(n - ||y||_1)) for the AUC; Appendix B.1 "
             "derives b(y) = -(||y||_1 - 1)/(2(n - ||y||_1)) (minus sign).",
        counterexample="n = 3, y = (0, 1, 1), sigma = (1, 2, 3): AUC = 0, printed form 1 (and "
                       "y = (1, 1, 0), sigma = (1, 2, 3): AUC = 1, printed form 2).",
        corrected=auc_corrected.id,
        finding_class="statement",
    ),
)
spearman_gppm = spearman_claim("calauzenes2013.table1.spearman.gppm_form")
edge_cases = edge_claim("calauzenes2013.table1.edge_cases")
