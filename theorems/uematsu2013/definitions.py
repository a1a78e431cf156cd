"""Checkable content inside Uematsu & Lee's definitions and quoted facts: the Bayes classifier of Section 2,
the normalisers and index ranges of the metrics (2)-(4) of Section 3, the linear cost table of Section 6.2,
and the partition A_1..A_9 of the proof of Theorem 3 with the cells that switching x and x' pairs."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import finite_check, implies
from symcal.claims.core import Claim

from .common import cite

# ---------------------------------------------------------------------------------------
# Section 2: the Bayes classifier sign[log{p_1/(1 - p_1)}]
# ---------------------------------------------------------------------------------------


def bayes_classifier_claim(id: str = "uematsu2013.section2.bayes_classifier", *, proper: bool = True) -> Claim:
    """Section 2: "c^*(x) = sign[log{p_1(x)/(1 - p_1(x))}] achieves the Bayes risk in classification".  At x
    the error of predicting +1 is 1 - p_1, of predicting -1 is p_1; log t > 0 iff t > 1, so c^* predicts +1
    exactly when the odds exceed 1, and that is exactly when +1 has the smaller error (and -1 when the odds are
    below 1).  ``proper=False`` drops p_1 < 1 (the twin: at p_1 > 1 the odds are negative)."""
    p = sympy.Symbol("p1", real=True)
    odds = p / (1 - p)
    hyps = {"p_in_unit_interval": [p > 0, p < 1] if proper else [p > 0, sympy.Ne(p, 1)]}
    return implies(
        id, hypotheses=hyps,
        conclusion=sympy.And(sympy.Equivalent(odds > 1, 1 - p < p), sympy.Equivalent(odds < 1, p < 1 - p)),
        cite=cite("Section 2", "c^*(x) = sign[log{p_1(x)/(1 - p_1(x))}] achieves the Bayes risk in classification"),
        statement="for 0 < p_1 < 1: p_1/(1 - p_1) > 1 iff predicting +1 errs less (1 - p_1 < p_1), and < 1 iff "
                  "predicting -1 errs less; log t > 0 iff t > 1, so c^* is the Bayes classifier",
    )


# ---------------------------------------------------------------------------------------
# Section 3, Eqs. (2)-(4): each metric is an average -- its normaliser counts its terms
# ---------------------------------------------------------------------------------------

METRIC_QUOTES = {
    "pairs": ("Section 3, Eq. (2)", "U_pairs(f) = 1/sum_{l' < l} n_l' n_l sum_{y_i < y_j} I(f(x_i) < f(x_j))"),
    "ovo": ("Section 3, Eq. (3)", "U_ovo(f) = 2/(K(K-1)) sum_{l' < l} A_l'l, A_l'l = 1/(n_l' n_l) sum_{y_i = l'} "
                                  "sum_{y_j = l} I(f(x_i) < f(x_j))"),
    "cons": ("Section 3, Eq. (4)", "U_cons(f) = 1/(K-1) sum_{l=1}^{K-1} B_l, B_l = 1/(sum_{i<=l} n_i sum_{j>l} n_j) "
                                   "sum_{y_i <= l} sum_{y_j > l} I(f(x_i) < f(x_j))"),
}


def metric_of_perfect_ranking(which: str, counts: tuple[int, ...], variant: str = "") -> tuple[Fraction | None, str]:
    """U_which of the perfect ranking f(x_i) = y_i from the printed formula, every indicator summed over the
    sample (``variant``: "leq" sums pairs over l' <= l in (2)'s normaliser, "half" takes 1/(K(K-1)) in (3),
    "to_k" lets (4)'s l run to K -- the twins).  None with the reason where a normaliser is 0."""
    K = len(counts)
    y = [k for k in range(1, K + 1) for _ in range(counts[k - 1])]
    ind = [[1 if a < b else 0 for b in y] for a in y]  # I(f(x_i) < f(x_j)) with f = y
    idx = range(len(y))
    if which == "pairs":
        norm = sum(counts[a] * counts[b] for a in range(K) for b in range(K) if (a <= b if variant == "leq" else a < b))
        return Fraction(sum(ind[i][j] for i in idx for j in idx if y[i] < y[j]), norm), ""
    if which == "ovo":
        total = sum((Fraction(sum(ind[i][j] for i in idx for j in idx if y[i] == lp and y[j] == ll),
                              counts[lp - 1] * counts[ll - 1])
                     for lp in range(1, K + 1) for ll in range(lp + 1, K + 1)), Fraction(0))
        return Fraction(1 if variant == "half" else 2, K * (K - 1)) * total, ""
    total = Fraction(0)
    for ll in range(1, (K if variant == "to_k" else K - 1) + 1):
        norm = sum(counts[:ll]) * sum(counts[ll:])
        if norm == 0:
            return None, f"B_{ll} divides by sum_{{i<={ll}}} n_i sum_{{j>{ll}}} n_j = 0"
        total += Fraction(sum(ind[i][j] for i in idx for j in idx if y[i] <= ll < y[j]), norm)
    return total / (K - 1), ""


def metric_cases(K: int) -> Iterator[tuple[int, ...]]:
    """Category counts n_k in {1, 2, 3} for K categories."""
    return itertools.product((1, 2, 3), repeat=K)


def metric_normaliser_claim(which: str, *, variant: str = "") -> Claim:
    """Section 3, Eqs. (2)-(4): the normaliser of each metric counts its terms, so the perfect ranking
    f(x_i) = y_i scores exactly 1 (an average of AUC values): sum_{l' < l} n_l' n_l pairs y_i < y_j in (2), K(K-1)/2
    category pairs in (3), K - 1 problems l = 1..K-1, each with sum_{i<=l} n_i sum_{j>l} n_j pairs, in (4)."""
    location, quote = METRIC_QUOTES[which]
    suffix = f".twin_{variant}" if variant else ""

    def holds(counts: tuple[int, ...]) -> tuple[bool, str]:
        u, why = metric_of_perfect_ranking(which, counts, variant)
        return u == 1, why or f"U_{which} of the perfect ranking = {u}"
    return finite_check(
        f"uematsu2013.section3.eq{ {'pairs': 2, 'ovo': 3, 'cons': 4}[which] }.normaliser{suffix}",
        cases=metric_cases, holds=holds, sizes=(2, 4), describe=lambda c: {"n": list(c)},
        domain="category counts n_k in {1, 2, 3}, the perfect ranking f(x_i) = y_i",
        cite=cite(location, quote),
        statement=f"U_{which} of the perfect ranking is 1: the printed normaliser counts exactly the summed "
                  "indicators (every index range as printed)",
    )


# ---------------------------------------------------------------------------------------
# Section 6.2: the linear cost table
# ---------------------------------------------------------------------------------------

# the printed table: rows j, columns i, blank = no cost (j >= i)
LINEAR_TABLE = {(1, 2): 1, (1, 3): 2, (1, 4): 3, (1, 5): 4, (2, 3): 1, (2, 4): 2, (2, 5): 3, (3, 4): 1, (3, 5): 2,
                (4, 5): 1}


def linear_table_claim(id: str = "uematsu2013.section6_2.linear_cost_table", *, transposed: bool = False) -> Claim:
    """Section 6.2: "a linear cost scheme of c_ji = i - j for i > j was used as given below" and its table (rows
    j, columns i): every printed entry is i - j, and exactly the cells i > j are filled (``transposed`` reads the
    table with rows i, columns j: the twin)."""
    c, i, j = sympy.symbols("c i j", integer=True)

    def formula(cell: tuple[int, int]) -> tuple[Any, dict[Any, int]]:
        row, col = cell
        jj, ii = (col, row) if transposed else (row, col)
        printed = LINEAR_TABLE.get((row, col), 0)  # a blank cell: no cost
        return [sympy.Eq(c, sympy.Piecewise((i - j, i > j), (0, True)))], {c: printed, i: ii, j: jj}
    return finite_check(
        id, cases=list(itertools.product(range(1, 6), repeat=2)), formula=formula,
        describe=lambda cell: {"row": cell[0], "column": cell[1], "printed": LINEAR_TABLE.get(cell, "blank")},
        domain="the 25 cells of the printed table (blank read as 0)",
        cite=cite("Section 6.2, linear cost table", "a linear cost scheme of c_ji = i - j for i > j was used as given "
                                                     "below"),
        statement="every cell (row j, column i) of the printed table is i - j where i > j and blank otherwise",
    )


# ---------------------------------------------------------------------------------------
# Appendix, proof of Theorem 3: the partition A_1..A_9 and switching x and x'
# ---------------------------------------------------------------------------------------

SIGNS = (-1, 0, 1)  # <, =, >
SIGN_PAIRS = list(itertools.product(SIGNS, SIGNS))  # (sign f(x) - f(x'), sign f0(x) - f0(x')): the nine cells


def describe_signs(c: tuple[int, int]) -> dict[str, int]:
    """A cell's sign pair, as a counterexample shows it."""
    return {"sign f(x) - f(x')": c[0], "sign f0(x) - f0(x')": c[1]}


def cell_number(sign_f: int, sign_f0: int) -> int:
    """The printed table: rows f(x) <, =, > f(x'), columns f_0^*(x) <, =, > f_0^*(x'); A_1 .. A_9 row by row."""
    return 3 * (sign_f + 1) + (sign_f0 + 1) + 1


def partition_holds(case: tuple[int, int], *, overlap: bool = False) -> tuple[bool, str]:
    """The pair of signs of (f(x) - f(x'), f_0^*(x) - f_0^*(x')) lies in exactly one printed cell, and A_1 is
    {f(x) < f(x'), f_0^*(x) < f_0^*(x')} as printed.  ``overlap`` reads the first row as f(x) <= f(x') (the twin)."""
    s, t = case
    rows = {-1: (lambda v: v <= 0) if overlap else (lambda v: v < 0), 0: lambda v: v == 0, 1: lambda v: v > 0}
    cols = {-1: lambda v: v < 0, 0: lambda v: v == 0, 1: lambda v: v > 0}
    cells = [cell_number(r, q) for r in SIGNS for q in SIGNS if rows[r](s) and cols[q](t)]
    a1 = (s < 0 and t < 0) == (cell_number(s, t) == 1)
    return len(cells) == 1 and a1, f"in cells {cells}"


def partition_cells_claim(id: str = "uematsu2013.theorem3.proof.partition_cells", *, overlap: bool = False) -> Claim:
    """Appendix, proof of Theorem 3: "X x X = u_{j=1}^9 A_j, where A_1 = {(x, x') | f(x) < f(x') and f_0^*(x) <
    f_0^*(x')}": the nine cells are a partition (every pair of signs in exactly one cell)."""
    return finite_check(
        id, cases=SIGN_PAIRS, holds=lambda c: partition_holds(c, overlap=overlap), describe=describe_signs,
        domain="the 9 sign pairs of (f(x) - f(x'), f_0^*(x) - f_0^*(x'))",
        cite=cite("Appendix, proof of Theorem 3", "X x X = u_{j=1}^9 A_j, where A_1 = {(x, x') | f(x) < f(x') and "
                                                  "f_0^*(x) < f_0^*(x')}"),
        statement="every pair (x, x') lies in exactly one of the printed cells A_1..A_9, A_1 as defined",
    )


# the pairs of cells the proof matches by switching x and x': A_3 ~ A_7, A_6 ~ A_4, A_2 ~ A_8
SWITCHED = ((3, 7), (6, 4), (2, 8))


def switch_holds(case: tuple[int, int], *, pairs: tuple[tuple[int, int], ...] = SWITCHED) -> tuple[bool, str]:
    """Switching x and x' negates both signs; a printed pair (a, b) must send A_a onto A_b."""
    s, t = case
    k, k_switched = cell_number(s, t), cell_number(-s, -t)
    bad = [(a, b) for a, b in pairs if (k == a) != (k_switched == b)]
    return not bad, f"A_{k} switches to A_{k_switched}, not as printed in {bad}"


def switch_cells_claim(id: str = "uematsu2013.theorem3.proof.switch_cells", *,
                       pairs: tuple[tuple[int, int], ...] = SWITCHED) -> Claim:
    """Appendix, proof of Theorem 3: "By switching x and x', we can show that int_A3 C(x', x) = int_A7 C(x, x')
    ... Similarly ... int_A6 C > int_A4 C and int_A2 C = int_A8 C" (and the same pairs for D): switching x and x'
    maps A_3 onto A_7, A_6 onto A_4 and A_2 onto A_8 (``pairs`` changes the printed pairs: the twin)."""
    return finite_check(
        id, cases=SIGN_PAIRS, holds=lambda c: switch_holds(c, pairs=pairs), describe=describe_signs,
        domain="the 9 cells A_1..A_9",
        cite=cite("Appendix, proof of Theorem 3, step 3", "By switching x and x', we can show that int_A3 C(x', x) = "
                                                          "int_A7 C(x, x')"),
        statement="the map (x, x') -> (x', x) sends A_3 onto A_7, A_6 onto A_4 and A_2 onto A_8",
    )


bayes_classifier = bayes_classifier_claim()
eq2_normaliser = metric_normaliser_claim("pairs")
eq3_normaliser = metric_normaliser_claim("ovo")
eq4_normaliser = metric_normaliser_claim("cons")
linear_table = linear_table_claim()
partition_cells = partition_cells_claim()
switch_cells = switch_cells_claim()

TWINS: dict[str, Any] = {
    bayes_classifier.id: lambda: bayes_classifier_claim(bayes_classifier.id + ".twin", proper=False),
    eq2_normaliser.id: lambda: metric_normaliser_claim("pairs", variant="leq"),
    eq3_normaliser.id: lambda: metric_normaliser_claim("ovo", variant="half"),
    eq4_normaliser.id: lambda: metric_normaliser_claim("cons", variant="to_k"),
    linear_table.id: lambda: linear_table_claim(linear_table.id + ".twin", transposed=True),
    partition_cells.id: lambda: partition_cells_claim(partition_cells.id + ".twin", overlap=True),
    switch_cells.id: lambda: switch_cells_claim(switch_cells.id + ".twin", pairs=((3, 7), (6, 6), (2, 8))),
}
