"""Section 4: Precision@q -- its two printed forms, the decomposition alpha_y = y, the certified
affine dimension r, top-q selection as pred*_P@q, and WTA = P@1."""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import sympy

from symcal import finite_check, implies
from symcal.ranking.loss_matrix import permutations
from symcal.ranking.pred_maps import precision_objective, top_q

from .common import (
    at_position,
    cite,
    decomposition_claim,
    fs,
    indicator,
    label_permutation_cases,
    label_symbols,
    position_symbols,
    r_sizes,
    random_scores,
    rank_claim,
    ranking_values,
)


@functools.cache
def _precision_forms(sigma: tuple[int, ...], q_shift: int) -> tuple[Any, ...]:
    """The conditions of every case with this sigma (they depend on y only through the symbols)."""
    r = len(sigma)
    ys, s = label_symbols(r), position_symbols(r)
    doc, inverse = at_position(sigma)
    conds = list(inverse)
    for q in range(1, r + 1):
        q2 = min(max(q + q_shift, 1), r)
        by_positions = 1 - sympy.Rational(1, q) * sum(ys[doc[i]] for i in range(1, q + 1))
        by_documents = 1 - sympy.Rational(1, q2) * sum(ys[i] * indicator(s[i] <= q2) for i in range(r))
        conds.append(sympy.Eq(by_positions, by_documents, evaluate=False))
    return tuple(conds)


def precision_forms_formula(case: Any, *, q_shift: int = 0) -> tuple[list[Any], dict[Any, Any]]:
    """Both printed forms at the case's y and sigma (symbols y_i, s_i = sigma(i)), for every q:
    1 - (1/q) sum_{i<=q} y_{sigma^-1(i)} = 1 - (1/q) sum_i y_i 1(sigma(i) <= q); y_{sigma^-1(i)} is
    y_{doc[i]}, with s_{doc[i]} = i among the conditions (``q_shift`` moves q in the second form: a twin)."""
    r, y, sigma = case
    return list(_precision_forms(tuple(sigma), q_shift)), ranking_values(y, sigma)


def precision_forms_claim(id: str, *, q_shift: int = 0) -> Any:
    """Section 4: "l_P@q(y, sigma) = 1 - (1/q) sum_{i<=q} y_{sigma^-1(i)} = 1 - (1/q) sum_i y_i
    1(sigma(i) <= q)"."""
    return finite_check(
        id, cases=label_permutation_cases, formula=lambda c: precision_forms_formula(c, q_shift=q_shift),
        describe=lambda c: {"r": c[0], "y": c[1], "sigma": c[2]}, domain="q in 1..r, y in {0,1}^r, S_r",
        cite=cite("Section 4", "l_P@q(y, sigma) = 1 - (1/q) sum_{i<=q} y_{sigma^-1(i)} "
                               "= 1 - (1/q) sum_i y_i 1(sigma(i) <= q)"),
        statement="the two printed forms of Precision@q agree on every label and permutation", sizes=r_sizes(2, 5),
    )


def precision_rank_claim(id: str, *, offset: int = 0) -> Any:
    """Section 4: "for the r-dimensional surrogate psi*_P@q ...": the affine dimension is exactly r."""
    return rank_claim(
        id, "precision", {"q": 2}, r_sizes(3, 5), "Section 4", "for the r-dimensional surrogate psi*_P@q ...",
        kind="affine dimension", bound=lambda r: r + offset, exact=True,
        statement="the P@2 loss matrix has certified affine dimension (Theorem 3's d) exactly r: the paper's r "
                  "dimensions are needed and enough")


def top_q_holds(r: int, *, bottom: bool = False) -> tuple[bool, str]:
    """Top-q selection attains max_sigma sum_i u_i 1(sigma(i) <= q) on 25 seeded integer u per r
    (``bottom`` selects the bottom q: a twin)."""
    rng = random.Random(40 + r)
    n = 0
    for _ in range(25):
        u = random_scores(r, rng, den=1, lo=-2, hi=2)  # small integers: ties are common
        for q in range(1, r + 1):
            sigma = top_q([-x for x in u] if bottom else u, q)
            best = max(precision_objective(u, s, q) for s in permutations(r))
            n += 1
            if precision_objective(u, sigma, q) != best:
                got = precision_objective(u, sigma, q)
                return False, f"u = {[fs(x) for x in u]}, q = {q}: top-q gives {fs(got)}, max {fs(best)}"
    return True, f"{n} (u, q) pairs: top-q selection attains the maximum over S_r"


def top_q_claim(id: str, *, bottom: bool = False) -> Any:
    """Section 4: "any permutation sigma which places the top q documents ... in the top q positions
    achieves the maximum in pred*_P@q(u)"."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: top_q_holds(r, bottom=bottom), describe=lambda r: {"r": r},
        sample='seeded score vectors',
        domain="25 seeded integer score vectors in [-2, 2]^r per r, every q, exhaustive over S_r",
        cite=cite("Section 4", "any permutation sigma which places the top q documents ... in the top q positions "
                               "achieves the maximum in pred*_P@q(u)"),
        statement="top-q selection maximises sum_i u_i 1(sigma(i) <= q) over S_r", sizes=r_sizes(2, 5),
    )


@functools.cache
def _wta_equals_precision(r: int, q: int) -> Any:
    ys, s = label_symbols(r), position_symbols(r)
    top_relevant = sympy.Or(*[sympy.And(sympy.Eq(s[i], 1), sympy.Eq(ys[i], 1)) for i in range(r)])
    wta = sympy.Piecewise((0, top_relevant), (1, True))
    qq = min(q, r)
    precision = 1 - sympy.Rational(1, qq) * sum(ys[i] * indicator(s[i] <= qq) for i in range(r))
    return sympy.Eq(wta, precision, evaluate=False)


def wta_formula(case: Any, *, q: int = 1) -> tuple[list[Any], dict[Any, Any]]:
    """WTA (0 if the top-ranked document, the i with sigma(i) = 1, is relevant, else 1) equals
    P@q = 1 - (1/q) sum_i y_i 1(sigma(i) <= q) at the case's y and sigma (symbols y_i, s_i)."""
    r, y, sigma = case
    return [_wta_equals_precision(r, q)], ranking_values(y, sigma)


def wta_claim(id: str, *, q: int = 1) -> Any:
    """Section 4: "the popular winner-take-all (WTA) loss ... is simply a special case of the above
    loss with q = 1" (``q`` = 2 is a twin)."""
    return finite_check(
        id, cases=label_permutation_cases,
        formula=lambda c: wta_formula(c, q=q), describe=lambda c: {"r": c[0], "y": c[1], "sigma": c[2]},
        domain="{0,1}^r x S_r",
        cite=cite("Section 4", "the popular winner-take-all (WTA) loss ... is simply a special case of the above "
                               "loss with q = 1"),
        statement=f"the WTA loss equals Precision@{q} on every label and permutation", sizes=r_sizes(2, 5),
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

precision_two_forms = precision_forms_claim("ramaswamy2013.precision.two_forms")
precision_decomposition = decomposition_claim(
    "ramaswamy2013.precision.decomposition", "precision", {"q": 2}, r_sizes(3, 6), "Section 4",
    "l_P@q(y, sigma) = 1 - (1/q) sum_i y_i 1(sigma(i) <= q); therefore, by Theorem 3, ... psi*_P@q(y, u) = "
    "sum_i (u_i - y_i)^2")
precision_rank = precision_rank_claim("ramaswamy2013.precision.rank")
def _score_symbols(r: int) -> list[Any]:
    return list(sympy.symbols(f"u1:{r + 1}", real=True))


def top_q_all_u_claim(id: str, *, first: int = 0) -> Any:
    """Section 4's top-q selection for every real u: with the documents labelled by decreasing score (u_1 >= ... >=
    u_r; the objective sum_i u_i 1(sigma(i) <= q) is symmetric under relabelling documents and positions together),
    a sigma placing the top q documents in the top q positions scores u_1 + ... + u_q, and every sigma scores the sum
    over some q-subset S of documents.  ``first`` 1 takes documents 2..q+1 as "the top q" (the twin)."""
    def conclusion(r: int) -> Any:
        u = _score_symbols(r)
        parts = []
        for q in range(1, r + 1):
            top = sum(u[first:first + q]) if first + q <= r else sum(u[r - q:])
            parts += [top >= sum(u[i] for i in subset) for subset in itertools.combinations(range(r), q)]
        return sympy.And(*parts)

    return implies(
        id,
        hypotheses={"labelled_by_decreasing_score":
                    lambda r: [a >= b for a, b in itertools.pairwise(_score_symbols(r))]},
        conclusion=conclusion,
        sizes=r_sizes(2, 5),
        cite=cite("Section 4", "any permutation sigma which places the top q documents ... in the top q positions "
                               "achieves the maximum in pred*_P@q(u)"),
        statement=("for every real u (documents labelled so that u_1 >= ... >= u_r) and every q: u_1 + ... + u_q >= "
                   "sum_{i in S} u_i for every q-subset S, i.e. top-q selection maximises sum_i u_i 1(sigma(i) <= q)"
                   + ("" if not first else " [twin: documents 2..q+1]")),
        scope="every real score vector: the objective is symmetric under relabelling, so sorted labels lose nothing",
    )


precision_top_q = top_q_claim("ramaswamy2013.precision.pred_top_q")
precision_top_q_all_u = top_q_all_u_claim("ramaswamy2013.precision.pred_top_q.all_u")
wta_is_p1 = wta_claim("ramaswamy2013.wta.is_precision_at_1")
