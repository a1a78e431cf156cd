"""Theorem 3.3 (no order-preserving loss is calibrated with the ERR or the AP) with its proof in
Appendix B.2: the hypotheses of Lemma B.2 for ERR and AP, and the proof's counterexample distribution."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from symcal import Finding, finite_check
from symcal.ranking.measures import average_precision, err, rank_of, rankings

from .common import F, cite, labels

THM33_DIST = [((1, 1, 0, 0), F(1, 2)), ((0, 0, 1, 1), F(1, 2))]
ORDER_1234, ORDER_1324 = (1, 2, 3, 4), (1, 3, 2, 4)


def thm33_gap(which: str) -> Fraction:
    m = err(4) if which == "err" else average_precision(4)
    return m.expected(THM33_DIST, ORDER_1324) - m.expected(THM33_DIST, ORDER_1234)


def thm33_claim(id: str, which: str, printed: Fraction, *, finding: Finding | None = None,
                statement: str = "") -> Any:
    """Appendix B.2, proof of Theorem 3.3: "ERR(1>3>2>4) = ERR(1>2>3>4) + 1/24; AP(1>3>2>4) =
    AP(1>2>3>4) - 1/12"."""
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
    """Appendix B.2, proof of Theorem 3.3: "some permutations are suboptimal"."""
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
    """Lemma B.2, hypotheses 1-2: "r(y, sigma) = r(tau_ij(y), tau_ij o sigma); y_i > y_j and sigma^-1(i) >
    sigma^-1(j) => r(y, sigma) < r(y, tau_ij o sigma)"."""
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
    ),
)
err_not_all_optimal = thm33_not_all_optimal_claim("calauzenes2013.theorem3_3.err_not_all_optimal", "err")
ap_not_all_optimal = thm33_not_all_optimal_claim("calauzenes2013.theorem3_3.ap_not_all_optimal", "ap")
lemma_b2_err = lemma_b2_claim("calauzenes2013.lemma_b2.err_hypotheses", "err")
lemma_b2_ap = lemma_b2_claim("calauzenes2013.lemma_b2.ap_hypotheses", "ap")
