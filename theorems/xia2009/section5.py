"""Section 5: footnote 5 (N@1 equals P@1 with two ratings -- an erratum at queries without a relevant
document, where N@1 is 0/0), and the comparisons the text draws from the printed Tables 1-6
(exact comparisons of the printed numbers; significance is not checkable)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check
from symcal.errors import InvalidInput
from symcal.ranking.measures import ndcg, precision_at, rankings

from .common import cite

# ---------------------------------------------------------------------------------------
# Footnote 5: N@1 = P@1 with binary relevance
# ---------------------------------------------------------------------------------------


def _binary_queries(n: int, *, with_empty: bool = True) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every binary label vector (the all-irrelevant one first) and every ranking of n documents."""
    return [(y, s) for y in itertools.product((0, 1), repeat=n) if with_empty or any(y) for s in rankings(n)]


def n_at_1_holds(case: tuple[tuple[int, ...], tuple[int, ...]], *, convention: str | None = None,
                 p_depth: int = 1) -> tuple[bool, str]:
    """N@1 = P@(p_depth) at (y, sigma), NDCG@1 = DCG@1 / ideal DCG@1 with gain 2^y - 1 (symcal.ranking);
    where no document is relevant it is 0/0, unless ``convention="zero"`` defines it as 0."""
    y, sigma = case
    n = len(y)
    p = precision_at(n, p_depth).fn(y, sigma)
    try:
        value = ndcg(n, 1, grades=1, empty=convention or "error").fn(y, sigma)
    except InvalidInput:
        return False, f"n = {n}, y = {y}: no relevant document, so N@1 = DCG@1 / ideal DCG@1 = 0/0 is undefined " \
                      f"(P@1 = {p})"
    return value == p, f"n = {n}, y = {y}, ranking {sigma}: N@1 = {value}, P@{p_depth} = {p}"


@functools.cache
def _n_at_1_statement(n: int) -> tuple[list[Any], tuple[sympy.Symbol, ...], tuple[sympy.Symbol, ...], sympy.Symbol,
                                         sympy.Symbol, sympy.Symbol]:
    """N@1 = P@k over symbols: the labels y_i, the ranks r_i of the documents, k, and symcal.ranking's values of
    N@1 and P@k (built once per n)."""
    lab = tuple(sympy.Symbol(f"y_{i}") for i in range(1, n + 1))
    rank = tuple(sympy.Symbol(f"r_{i}") for i in range(1, n + 1))
    k, lib_n, lib_p = sympy.Symbol("k"), sympy.Symbol("library_N_at_1"), sympy.Symbol("library_P_at_k")

    def ite(*branches: Any) -> Any:  # unevaluated: sympy's own Piecewise folding is slow and not needed
        return sympy.Piecewise(*branches, evaluate=False)

    gain = [ite((2**1 - 1, sympy.Eq(v, 1)), (2**0 - 1, True)) for v in lab]
    dcg = sympy.Add(*[ite((gi, ri <= 1), (0, True)) for gi, ri in zip(gain, rank, strict=True)])
    ideal = sympy.Max(*gain, evaluate=False) if n > 1 else gain[0]
    ratio = sympy.Mul(dcg, sympy.Pow(ideal, -1, evaluate=False), evaluate=False)
    ndcg1 = ite((0, sympy.Eq(ideal, 0, evaluate=False)), (ratio, True))
    prec = sympy.Add(*[ite((v, ri <= k), (0, True)) for v, ri in zip(lab, rank, strict=True)]) / k
    binary = sympy.And(*[sympy.Or(sympy.Eq(v, 0), sympy.Eq(v, 1)) for v in lab])
    # N@1 = library N@1 = library P@k = P@k: the statement N@1 = P@k, the library's values checked on the way
    chain = [sympy.Eq(ndcg1, lib_n, evaluate=False), sympy.Eq(lib_n, lib_p), sympy.Eq(lib_p, prec, evaluate=False)]
    return [binary, *chain], lab, rank, k, lib_n, lib_p


def n_at_1_formula(case: tuple[tuple[int, ...], tuple[int, ...]], *,
                   p_depth: int = 1) -> tuple[list[Any], dict[Any, Any]]:
    """The corrected footnote at (y, sigma), written over the labels y_i and the ranks r_i of the documents:
    gain 2^y - 1 (on y in {0, 1}: 1 for a relevant document, else 0), DCG@1 = sum_i gain(y_i) [r_i <= 1]
    (the discount of position 1 is 1 / log2(1 + 1) = 1), ideal DCG@1 = max_i gain(y_i), N@1 = DCG@1 / ideal DCG@1
    where the ideal is positive and 0 where it is 0 (NDCG := 0), P@k = (1/k) sum_i y_i [r_i <= k]; N@1 = P@k
    with k = ``p_depth`` (1 as printed, 2 for a twin).  symcal.ranking's N@1 (NDCG := 0 where no document is
    relevant) and P@k must equal the formulas (a cross-check of the library)."""
    y, sigma = case
    n = len(y)
    conds, lab, rank, k, lib_n, lib_p = _n_at_1_statement(n)
    values: dict[Any, Any] = {k: p_depth, **dict(zip(lab, y, strict=True))}
    values.update({rank[item - 1]: r for r, item in enumerate(sigma, start=1)})  # sigma lists the items by rank
    values[lib_n] = ndcg(n, 1, grades=1, empty="error" if any(y) else "zero").fn(y, sigma)
    values[lib_p] = precision_at(n, p_depth).fn(y, sigma)
    return conds, values


def n_at_1_claim(id: str, *, corrected: bool = False, p_depth: int = 1, sizes: tuple[int, int] = (1, 5),
                 finding: Finding | None = None) -> Any:
    """Footnote 5: "On datasets with only two ratings such as TD2003 and TD2004, N@1 equals P@1" -- per
    query, as printed (``n_at_1_holds``, where 0/0 is a failure), or (``corrected``) where N@1 is defined,
    and with NDCG := 0 elsewhere (``n_at_1_formula``: stated over the labels and ranks, kernel-checked)."""
    def holds(case: Any) -> tuple[bool, str]:
        return n_at_1_holds(case, p_depth=p_depth)

    rule = {"formula": lambda case: n_at_1_formula(case, p_depth=p_depth)} if corrected else {"holds": holds}
    return finite_check(
        id, cases=lambda n: _binary_queries(n), **rule,
        describe=lambda c: {"y": list(c[0]), "ranking": list(c[1])},
        domain="every binary label vector y in {0,1}^n and every ranking of the n documents",
        cite=cite("Footnote 5", "On datasets with only two ratings such as TD2003 and TD2004, N@1 equals P@1."),
        statement=("for every query with binary relevance and every ranking, N@1 = P@1" if not corrected else
                   "for every query with at least one relevant document and every ranking, N@1 = P@1; on a query "
                   "with none, N@1 is 0/0 and equals P@1 = 0 only under the convention NDCG := 0")
        + ("" if p_depth == 1 else f" [twin: P@{p_depth}]"),
        sizes=sizes, finding=finding,
    )


# ---------------------------------------------------------------------------------------
# Tables 1-6 as printed, and the comparisons the text draws from them
# ---------------------------------------------------------------------------------------

OHSUMED_COLUMNS = ("N@1", "N@3", "N@10", "P@1", "P@3", "P@10")
TD_COLUMNS = ("N/P@1", "N@3", "N@10", "P@3", "P@10")  # two ratings: N@1 = P@1, one column (footnote 5)
LISTMLE_ROWS = ("ListMLE", "Top-1 ListMLE", "Top-3 ListMLE", "Top-10 ListMLE")
BASELINE_ROWS = ("RankBoost", "Ranking SVM", "ListNet", "RankCosine", "Top-10 ListMLE")


def _table(columns: Sequence[str], rows: Sequence[str], text: str) -> dict[str, dict[str, Fraction]]:
    lines = [line.split() for line in text.strip().splitlines()]
    return {row: dict(zip(columns, map(Fraction, vals), strict=True)) for row, vals in zip(rows, lines, strict=True)}


TABLES: dict[int, dict[str, dict[str, Fraction]]] = {
    1: _table(OHSUMED_COLUMNS, LISTMLE_ROWS, """
        0.548 0.473 0.446 0.642 0.582 0.495
        0.529 0.482 0.447 0.652 0.595 0.499
        0.535 0.484 0.445 0.671 0.608 0.504
        0.558 0.473 0.444 0.672 0.601 0.509"""),
    2: _table(TD_COLUMNS, LISTMLE_ROWS, """
        0.24 0.253 0.261 0.22 0.146
        0.4 0.329 0.314 0.3 0.176
        0.44 0.382 0.343 0.34 0.204
        0.5 0.410 0.378 0.38 0.22"""),
    3: _table(TD_COLUMNS, LISTMLE_ROWS, """
        0.4 0.351 0.356 0.284 0.188
        0.52 0.469 0.451 0.413 0.248
        0.506 0.456 0.458 0.417 0.261
        0.52 0.469 0.472 0.413 0.269"""),
    4: _table(OHSUMED_COLUMNS, BASELINE_ROWS, """
        0.497 0.472 0.435 0.604 0.586 0.495
        0.495 0.464 0.441 0.633 0.592 0.507
        0.523 0.477 0.448 0.642 0.602 0.509
        0.523 0.475 0.437 0.642 0.589 0.493
        0.558 0.473 0.444 0.672 0.601 0.509"""),
    5: _table(TD_COLUMNS, BASELINE_ROWS, """
        0.26 0.270 0.285 0.24 0.178
        0.42 0.378 0.341 0.34 0.206
        0.46 0.408 0.374 0.36 0.222
        0.36 0.346 0.322 0.3 0.182
        0.5 0.410 0.378 0.38 0.22"""),
    6: _table(TD_COLUMNS, BASELINE_ROWS, """
        0.48 0.463 0.471 0.404 0.253
        0.44 0.409 0.420 0.351 0.225
        0.439 0.437 0.457 0.399 0.257
        0.439 0.397 0.405 0.328 0.209
        0.52 0.469 0.472 0.413 0.269"""),
}
BOLD: dict[int, set[tuple[str, str]]] = {  # the entries printed in bold
    4: {("Top-10 ListMLE", "N@1"), ("ListNet", "N@3"), ("ListNet", "N@10"), ("Top-10 ListMLE", "P@1"),
        ("ListNet", "P@3"), ("ListNet", "P@10"), ("Top-10 ListMLE", "P@10")},
    5: {("Top-10 ListMLE", c) for c in ("N/P@1", "N@3", "N@10", "P@3")} | {("ListNet", "P@10")},
    6: {("Top-10 ListMLE", c) for c in TD_COLUMNS},
}
TABLES_TEXT = "the printed numbers of Tables 1-6, exact decimals"


_ROW_KEYS = {"ListMLE": "listmle", "Top-1 ListMLE": "top1_listmle", "Top-3 ListMLE": "top3_listmle",
             "Top-10 ListMLE": "top10_listmle", "RankBoost": "rankboost", "Ranking SVM": "ranking_svm",
             "ListNet": "listnet", "RankCosine": "rankcosine"}


def entry(t: int, row: str, col: str) -> sympy.Symbol:
    """The printed entry of Table t, row, column as a symbol (``table4.listnet.N3`` for N@3); its value
    is the printed decimal (``entry_values``)."""
    return sympy.Symbol(f"table{t}.{_ROW_KEYS[row]}.{col.replace('/', '').replace('@', '')}")


def bold_flag(t: int, row: str, col: str) -> sympy.Symbol:
    """1 if the entry is printed in bold, else 0 (the printed typography, as data)."""
    return sympy.Symbol(f"{entry(t, row, col)}.bold")


def entry_values(*cells: tuple[int, str, str]) -> dict[sympy.Symbol, Fraction]:
    return {entry(t, row, col): TABLES[t][row][col] for t, row, col in cells}


def _table_check(id: str, cases: list[Any], formula: Any, *, location: str, quote: str, statement: str) -> Any:
    """A comparison of printed numbers: ``formula(case)`` states it over the entries' symbols, with the printed
    decimals as their values (the kernel re-checks each case under ``--certify``)."""
    return finite_check(id, cases=cases, formula=formula, describe=lambda c: {"case": repr(c)},
                        domain=TABLES_TEXT, cite=cite(location, quote), statement=statement)


def boosted_formula(case: tuple[int, str, str]) -> tuple[list[Any], dict[sympy.Symbol, Fraction]]:
    """Table t, column col: the Top-k ListMLE entry exceeds the ListMLE entry."""
    t, row, col = case
    return [entry(t, row, col) > entry(t, "ListMLE", col)], entry_values((t, row, col), (t, "ListMLE", col))


def boosted_claim(id: str, *, tables: Sequence[int] = (2, 3)) -> Any:
    """Section 5: "with the modifications the ranking accuracies of ListMLE can be significantly boosted,
    in terms of all measures, on both TD2003 and TD2004" (``tables`` with Table 1: a twin)."""
    cases = [(t, row, col) for t in tables for row in LISTMLE_ROWS[1:] for col in TABLES[t]["ListMLE"]]
    return _table_check(
        id, cases, boosted_formula, location="Section 5, after Tables 1-3",
        quote="with the modifications the ranking accuracies of ListMLE can be significantly boosted, in terms of all "
              "measures, on both TD2003 and TD2004",
        statement=f"in Tables {', '.join(map(str, tables))} every Top-k ListMLE entry (k = 1, 3, 10) exceeds the "
                  "ListMLE entry of its column (the significance is not checkable)")


def best_at_1_formula(case: tuple[int, str]) -> tuple[list[Any], dict[sympy.Symbol, Fraction]]:
    """Table t, column col: the Top-10 ListMLE entry exceeds every other row's entry."""
    t, col = case
    others = [row for row in TABLES[t] if row != "Top-10 ListMLE"]
    top = entry(t, "Top-10 ListMLE", col)
    return [top > entry(t, row, col) for row in others], entry_values(*[(t, row, col) for row in TABLES[t]])


def best_at_1_claim(id: str, *, columns: Sequence[str] = ("N@1", "P@1", "N/P@1")) -> Any:
    """Section 5: "Especially for N@1 and P@1, it significantly outperforms all the other methods on all
    the datasets" (more ``columns``: a twin)."""
    cases = [(t, col) for t in (4, 5, 6) for col in columns if col in TABLES[t]["Top-10 ListMLE"]]
    return _table_check(
        id, cases, best_at_1_formula, location="Section 5, after Tables 4-6",
        quote="Especially for N@1 and P@1, it significantly outperforms all the other methods on all the datasets",
        statement=f"in each of Tables 4-6 the Top-10 ListMLE entry is strictly the largest in {', '.join(columns)}")


def best_td_holds(case: tuple[int, int]) -> tuple[bool, str]:
    """The same statement read in Python (which columns Top-10 ListMLE is not the largest in), for the reader."""
    t, allowed = case
    top = TABLES[t]["Top-10 ListMLE"]
    behind = [col for col in top if any(v[col] > top[col] for v in TABLES[t].values())]
    return len(behind) <= allowed, f"Table {t}: Top-10 ListMLE is not the largest in {behind or 'no column'}"


def best_td_formula(case: tuple[int, int]) -> tuple[list[Any], dict[sympy.Symbol, Any]]:
    """Table t: the number of columns where some entry exceeds the Top-10 ListMLE entry is at most
    ``allowed`` (a symbol bound to the case's parameter)."""
    t, allowed = case
    bound = sympy.Symbol("allowed")
    behind = sympy.Add(*[
        sympy.Piecewise((1, sympy.Or(*[entry(t, row, col) > entry(t, "Top-10 ListMLE", col)
                                       for row in TABLES[t] if row != "Top-10 ListMLE"])), (0, True))
        for col in TABLES[t]["Top-10 ListMLE"]])
    cells = [(t, row, col) for row in TABLES[t] for col in TABLES[t][row]]
    return [behind <= bound], {**entry_values(*cells), bound: allowed}


def best_td_claim(id: str, *, allowed: int = 1) -> Any:
    """Section 5: "Top-10 ListMLE achieves the best performance among all the methods on the TD2003 and
    TD2004 datasets in terms of almost all measures" (``allowed`` = 0, every measure: a twin)."""
    return _table_check(
        id, [(5, allowed), (6, allowed)], best_td_formula, location="Section 5, after Tables 4-6",
        quote="Top-10 ListMLE achieves the best performance among all the methods on the TD2003 and TD2004 datasets "
              "in terms of almost all measures",
        statement=f"in Tables 5 and 6 (TD2003, TD2004) Top-10 ListMLE has the largest entry in every column but at "
                  f"most {allowed} of the five ('almost all')")


def bold_formula(case: tuple[int, str], *, strict: bool = False) -> tuple[list[Any], dict[sympy.Symbol, Any]]:
    """Table t, column col: each row's bold flag (printed) is 1 exactly when its entry is a column maximum
    (``strict``: and exactly one entry is bold, i.e. the maximum is unique)."""
    t, col = case
    rows = list(TABLES[t])
    conds: list[Any] = [
        sympy.Eq(bold_flag(t, r, col), sympy.Piecewise(
            (1, sympy.And(*[entry(t, r, col) >= entry(t, s, col) for s in rows if s != r])), (0, True)))
        for r in rows]
    if strict:
        conds.append(sympy.Eq(sympy.Add(*[bold_flag(t, r, col) for r in rows]), 1))
    flags = {bold_flag(t, r, col): int((r, col) in BOLD[t]) for r in rows}
    return conds, {**entry_values(*[(t, r, col) for r in rows]), **flags}


def bold_claim(id: str, *, strict: bool = False) -> Any:
    """Section 5: "The results are listed in Tables 4-6." -- the entries printed in bold are the column
    maxima (``strict``: a unique maximum per column, a twin)."""
    cases = [(t, col) for t in (4, 5, 6) for col in TABLES[t]["Top-10 ListMLE"]]
    return _table_check(
        id, cases, lambda c: bold_formula(c, strict=strict), location="Section 5, Tables 4-6 (the bold entries)",
        quote="The results are listed in Tables 4-6.",
        statement="in every column of Tables 4-6 the entries printed in bold are exactly the column maxima (bold read "
                  "as 'best', the usual convention; the paper does not say)"
                  + (" [twin: and the maximum is unique]" if strict else ""))


def repeat_formula(case: tuple[int, int, str]) -> tuple[list[Any], dict[sympy.Symbol, Fraction]]:
    """Every column of Table t's Top-10 ListMLE row equals the same column of Table s's ``row``."""
    t, s, row = case
    cols = list(TABLES[t]["Top-10 ListMLE"])
    return ([sympy.Eq(entry(t, "Top-10 ListMLE", col), entry(s, row, col)) for col in cols],
            entry_values(*[(t, "Top-10 ListMLE", col) for col in cols], *[(s, row, col) for col in cols]))


def repeat_claim(id: str, *, row: str = "Top-10 ListMLE") -> Any:
    """Section 5: "Next, we take Top-10 ListMLE as an example to make comparison with some other baseline
    methods" -- its rows in Tables 4-6 repeat Tables 1-3 (``row`` = another method of Tables 1-3: a twin)."""
    return _table_check(
        id, [(4, 1, row), (5, 2, row), (6, 3, row)], repeat_formula, location="Section 5, Tables 4-6",
        quote="Next, we take Top-10 ListMLE as an example to make comparison with some other baseline methods",
        statement=f"the Top-10 ListMLE rows of Tables 4, 5, 6 equal the {row} rows of Tables 1, 2, 3 (OHSUMED, "
                  "TD2003, TD2004)")


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

footnote5 = n_at_1_claim(
    "xia2009.footnote5.n_at_1_is_p_at_1",
    finding=Finding(
        what="N@1 = P@1 holds on every query that has a relevant document, but on a query without one NDCG@1 = "
             "DCG@1 / ideal DCG@1 is 0/0 (the ideal DCG is 0): there the footnote holds only under the convention "
             "NDCG := 0 (and fails under NDCG := 1, the other common convention). The paper does not say which.",
        counterexample="n = 1, y = (0): N@1 = 0/0 is undefined, P@1 = 0.",
        corrected="xia2009.footnote5.n_at_1_is_p_at_1.corrected",
        finding_class="clarification",
    ))
footnote5_corrected = n_at_1_claim(footnote5.finding.corrected, corrected=True)
tables_boosted = boosted_claim("xia2009.tables.top_k_listmle_boosted")
tables_best_at_1 = best_at_1_claim("xia2009.tables.top10_listmle_best_at_1")
tables_best_td = best_td_claim("xia2009.tables.top10_listmle_best_on_td")
tables_bold = bold_claim("xia2009.tables.bold_marks_column_maxima")
tables_repeat = repeat_claim("xia2009.tables.top10_rows_repeat")
