"""Section 2.1, Table 1 and Appendix B.1: the performance measures written as (u, phi)-GPPMs,
checked against their formulas (every label vector, every ranking, every k, small n)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check
from symcal.ranking.measures import auc, average_precision, precision_at, rank_of, rankings, recall_at, spearman

from .common import ONE, F, cite, labels

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
    """Table 1, the Prec@k, Rec@k and AUC rows (quotes in TABLE1_QUOTES)."""
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
    """Table 1 and Appendix B.1: "phi(i) = 12(n-i)/(n(n^2-1)), u_i = n - y^-1(i), b(y) = -3(n-1)/(n+1)"."""
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
    """Table 1: "Rec@k = sum y_sigma(i)/||y||_1; AUC ... /(||y||_1 (n - ||y||_1))" -- where they divide by 0."""
    return finite_check(
        id, cases=lambda m: itertools.product(list(labels(m, 1)), ["rec", "ap", "auc"]),  # type: ignore[arg-type]
        holds=lambda c: edge_case(c, widen), domain="y in {0,1}^n, measures Rec@k, AP, AUC", sizes=(2, 5),
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
    ),
)
spearman_gppm = spearman_claim("calauzenes2013.table1.spearman.gppm_form")
edge_cases = edge_claim("calauzenes2013.table1.edge_cases")
