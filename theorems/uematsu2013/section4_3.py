"""Section 4.3 of Uematsu & Lee (2013): support vector ordinal regression (SVOR) with K = 3, in
Shashua and Levin's version (1) and Chu and Keerthi's implicit-constraints version (2): the
piecewise-linear conditional hinge risk, its minimisers and the functions r(x) that index them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sympy

from symcal import Finding, identity, implies
from symcal.claims.core import Claim

from .common import P, R, cite, sym, theta, twin_id

FV = sym("f", real=True)
GV = sym("g", real=True)


@functools.cache
def hinge(s: Any) -> Any:
    """The hinge loss (1 - s)_+ (cached: sympy's Max compares its arguments, and the tables ask again)."""
    return sympy.Max(0, 1 - s)


@functools.cache
def svor_risk(version: int, f: Any) -> Any:
    """The K = 3 conditional hinge risk at f: version 1 (Shashua and Levin), version 2 (implicit constraints).
    Cached: the tables and cases ask for the same f many times."""
    p1, p2, p3, t1, t2 = P(1), P(2), P(3), theta(1), theta(2)
    if version == 1:
        return p1 * hinge(t1 - f) + p2 * (hinge(f - t1) + hinge(t2 - f)) + p3 * hinge(f - t2)
    return (
        p1 * (hinge(t1 - f) + hinge(t2 - f))
        + p2 * (hinge(f - t1) + hinge(t2 - f))
        + p3 * (hinge(f - t1) + hinge(f - t2))
    )


SIMPLEX3 = [P(1) >= 0, P(2) >= 0, P(3) >= 0, sympy.Eq(P(1) + P(2) + P(3), 1)]


def svor_tables() -> dict[tuple[int, int], tuple[list[Any], list[tuple[Any, Any, Any]]]]:
    """(version, case) -> (case condition, [(lo, hi, printed expression)]) as printed."""
    p1, p2, p3, t1, t2, f = P(1), P(2), P(3), theta(1), theta(2), FV
    inf = None
    v1_left = (inf, t1 - 1, p2 * (1 + t1) + p3 * (1 + t2) - (p2 + p3) * f)
    v1_right = (t2 + 1, inf, p1 * (1 - t1) + p2 * (1 - t2) + (p1 + p2) * f)
    return {
        (1, 1): (
            [t1 <= t2, t1 + 1 >= t2 - 1],
            [
                v1_left,
                (t1 - 1, t2 - 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (1 + t2) + (p1 - p2 - p3) * f),
                (t2 - 1, t1 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p3 * (1 + t2) + (p1 - p3) * f),
                (t1 + 1, t2 + 1, p1 * (1 - t1) + p2 * (1 - t2) + p3 * (1 + t2) + (p1 + p2 - p3) * f),
                v1_right,
            ],
        ),
        (1, 2): (
            [t1 <= t2, t1 + 1 <= t2 - 1],
            [
                v1_left,
                (t1 - 1, t1 + 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (1 + t2) + (p1 - p2 - p3) * f),
                (t1 + 1, t2 - 1, p1 * (1 - t1) + p3 * (1 + t2) + (p1 - p3) * f),
                (t2 - 1, t2 + 1, p1 * (1 - t1) + p2 * (1 - t2) + p3 * (1 + t2) + (p1 + p2 - p3) * f),
                v1_right,
            ],
        ),
        (1, 3): (
            [t2 <= t1, t2 + 1 >= t1 - 1],
            [
                (inf, t2 - 1, p2 * (1 + t1) + p3 * (1 + t2) - (p2 + p3) * f),
                (t2 - 1, t1 - 1, p2 * (2 + t1 - t2) + p3 * (1 + t2) - p3 * f),
                (t1 - 1, t2 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p3 * (1 + t2) + (p1 - p3) * f),
                (t2 + 1, t1 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p1 * f),
                (t1 + 1, inf, p1 * (1 - t1) + p2 * (1 - t2) + (p1 + p2) * f),
            ],
        ),
        (1, 4): (
            [t2 <= t1, t2 + 1 <= t1 - 1],
            [
                (inf, t2 - 1, p2 * (1 + t1) + p3 * (1 + t2) - (p2 + p3) * f),
                (t2 - 1, t2 + 1, p2 * (2 + t1 - t2) + p3 * (1 + t2) - p3 * f),
                (t2 + 1, t1 - 1, p2 * (2 + t1 - t2)),
                (t1 - 1, t1 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p1 * f),
                (t1 + 1, inf, p1 * (1 - t1) + p2 * (1 - t2) + (p1 + p2) * f),
            ],
        ),
        (2, 1): (
            [t1 <= t2, t1 + 1 >= t2 - 1],
            [
                (inf, t1 - 1, p2 * (1 + t1) + p3 * (2 + t1 + t2) - (p2 + 2 * p3) * f),
                (t1 - 1, t2 - 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (2 + t1 + t2) + (p1 - p2 - 2 * p3) * f),
                (t2 - 1, t1 + 1, p1 * (2 - t1 - t2) + p2 * (2 + t1 - t2) + p3 * (2 + t1 + t2) + (2 * p1 - 2 * p3) * f),
                (t1 + 1, t2 + 1, p1 * (2 - t1 - t2) + p2 * (1 - t2) + p3 * (1 + t2) + (2 * p1 + p2 - p3) * f),
                (t2 + 1, inf, p1 * (2 - t1 - t2) + p2 * (1 - t2) + (2 * p1 + p2) * f),
            ],
        ),
        (2, 2): (
            [t1 <= t2, t1 + 1 <= t2 - 1],
            [
                (inf, t1 - 1, p2 * (1 + t1) + p3 * (2 + t1 + t2) - (p2 + 2 * p3) * f),
                (t1 - 1, t1 + 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (2 + t1 + t2) + (p1 - p2 - 2 * p3) * f),
                (t1 + 1, t2 - 1, p1 * (1 - t1) + p3 * (1 + t2) + (p1 - p3) * f),
                (t2 - 1, t2 + 1, p1 * (2 - t1 - t2) + p2 * (1 - t2) + p3 * (1 + t2) + (2 * p1 + p2 - p3) * f),
                (t2 + 1, inf, p1 * (2 - t1 - t2) + p2 * (1 - t2) + (2 * p1 + p2) * f),
            ],
        ),
    }


def svor_case_claim(version: int, case: int, id: str | None = None, *, nudge: Any = 0) -> Claim:
    """Section 4.3: "the conditional risk is represented as follows", Case ``case`` of version ``version``:
    the hinge risk equals each printed linear piece on its interval (``nudge`` perturbs a piece: the twin)."""
    cond, pieces = svor_tables()[(version, case)]
    f = FV
    parts = []
    for k, (lo, hi, expr) in enumerate(pieces):
        where = [
            x for x in ((lo <= f) if lo is not None else None, (f <= hi) if hi is not None else None) if x is not None
        ]
        e = expr + (nudge * P(2) if k == 2 else 0)
        parts.append(sympy.Implies(sympy.And(*where), sympy.Eq(svor_risk(version, f), e)))
    name = {1: "Shashua & Levin", 2: "Chu & Keerthi (implicit constraints)"}[version]
    return implies(
        id or f"uematsu2013.section4_3.svor{version}.case{case}",
        hypotheses={"simplex": SIMPLEX3, "case": cond},
        conclusion=sympy.And(*parts),
        cite=cite(
            "Section 4.3",
            f"Case {case}: ... the conditional risk is represented as follows"
            if version == 1
            else f"[implicit constraints] Case {case}: the conditional risk is represented as follows",
        ),
        statement=f"SVOR ({name}), Case {case}: the hinge conditional risk equals the printed linear piece on "
        "each interval",
    )


def svor_r(version: int) -> tuple[Any, Any]:
    """r(x) as (numerator, denominator): (1 - 2p_1)/p_2 for version 1, (1 - p_1)/(1 - p_3) for version 2."""
    return (1 - 2 * P(1), P(2)) if version == 1 else (1 - P(1), 1 - P(3))


def svor_r_table(version: int, which: str) -> tuple[list[Any], list[tuple[Any, Any, Any]]]:
    """The printed r-tables: (case condition, [(lo, hi, f*)]), f* = the printed value for lo < r < hi."""
    t1, t2 = theta(1), theta(2)
    middle = [sympy.Min(t1 + 1, t2 - 1), sympy.Max(t1 + 1, t2 - 1)]
    if version == 2:
        return [t1 <= t2], [(0, R(1, 2), t1 - 1), (R(1, 2), 1, middle[0]), (1, 2, middle[1]), (2, None, t2 + 1)]
    if which == "cases12":
        return [t1 <= t2], [(None, 0, t1 - 1), (0, 1, middle[0]), (1, 2, middle[1]), (2, None, t2 + 1)]
    return [t2 <= t1, t1 - t2 <= 2], [(None, 1, t1 - 1), (1, None, t2 + 1)]


def r_in_range(version: int, lo: Any, hi: Any, *, extended: bool = False) -> list[Any]:
    """lo < r(x) < hi (a bound None is absent).  ``extended`` cross-multiplies by the denominator d >= 0:
    r itself where d > 0, and r's limit +-oo (the sign of the numerator) where d = 0."""
    num, den = svor_r(version)
    r = num / den
    out = []
    if lo is not None:
        out.append(num > lo * den if extended else r > lo)
    if hi is not None:
        out.append(num < hi * den if extended else r < hi)
    return out


def table_minimises(version: int, table: list[tuple[Any, Any, Any]], *, extended: bool = False) -> Any:
    """On each r-range of ``table``, its f* minimises the conditional hinge risk over every real g."""
    return sympy.And(*[
        sympy.Implies(sympy.And(*r_in_range(version, lo, hi, extended=extended)),
                      svor_risk(version, fstar) <= svor_risk(version, GV))
        for lo, hi, fstar in table
    ])


def swapped(table: list[tuple[Any, Any, Any]]) -> list[tuple[Any, Any, Any]]:
    """The table with the f* of its first and last r-ranges exchanged (the twins)."""
    (lo0, hi0, first), (lo1, hi1, last) = table[0], table[-1]
    return [(lo0, hi0, last), *table[1:-1], (lo1, hi1, first)]


def svor_rtable_claim(id: str, version: int, which: str, *, swap: bool = False) -> Claim:
    """Section 4.3: "when theta_1 - theta_2 <= 0 (Cases 1 and 2), there is the following correspondence
    between f^* and r" (and the Case 3 table; version 2: "we can express the relation between the optimal
    ranking function f^* and r as follows").  ``swap`` exchanges the first and last f* (the twin)."""
    cond, table = svor_r_table(version, which)
    if swap:
        table = swapped(table)
    label = {("cases12", 1): "Cases 1 and 2", ("case3", 1): "Case 3"}.get((which, version), "Cases 1 and 2")
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3, "r_defined": [P(2) > 0] if version == 1 else [P(3) < 1], "case": cond},
        conclusion=table_minimises(version, table),
        cite=cite(
            "Section 4.3",
            "there is the following correspondence between f^* and r"
            if version == 1
            else "we can express the relation between the optimal ranking function f^* and r as follows",
        ),
        statement=f"SVOR version {version} ({label}): on each r-range of the printed table, the printed f* "
        "minimises the conditional hinge risk over every real g",
    )


def r_defined_claim(id: str, version: int, *, finding: Finding | None = None) -> Claim:
    """Section 4.3: "Define r(x) = (1 - 2p_1(x))/p_2(x)" (version 2: "r(x) = {1 - p_1(x)}/{1 - p_3(x)}"),
    used on the whole simplex by the equivalences and the tables: is its denominator ever 0 there?"""
    num, den = svor_r(version)
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3},
        conclusion=sympy.Ne(den, 0),
        cite=cite("Section 4.3", "Define r(x) = (1 - 2p_1(x))/p_2(x), thresholding of which is very conducive to "
                                 "expressing the signs of the coefficients" if version == 1 else
                  "Consider r(x) = {1 - p_1(x)}/{1 - p_3(x)} for succinct expressions of the signs"),
        statement=f"r(x) = ({num})/({den}) is defined at every point of the probability simplex",
        finding=finding,
    )


def r_extended_claim(id: str, version: int, *, swap: bool = False) -> Claim:
    """The r-tables of Section 4.3 on the whole closed simplex: r's ranges read cross-multiplied
    (``r_in_range(extended=True)``), and, for version 1, every f* of a table minimises at the one point
    p = (1/2, 0, 1/2) where r = 0/0.  ``swap`` exchanges the first and last f* of the Cases 1-2 table (the twin)."""
    p1, p2 = P(1), P(2)
    parts = []
    for which in ("cases12", "case3") if version == 1 else ("cases12",):
        cond, table = svor_r_table(version, which)
        if swap and which == "cases12":
            table = swapped(table)
        parts.append(sympy.Implies(sympy.And(*cond), table_minimises(version, table, extended=True)))
        if version == 1:  # r = 0/0: the three slopes 2p_1 - 1 vanish, the risk is flat between the kinks
            every = sympy.And(*[svor_risk(1, fstar) <= svor_risk(1, GV) for _, _, fstar in table])
            parts.append(sympy.Implies(sympy.And(*cond, sympy.Eq(p2, 0), sympy.Eq(p1, R(1, 2))), every))
    if version == 1:
        parts.append(median_rows(extended=True))
    num, den = svor_r(version)
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3},
        conclusion=sympy.And(*parts),
        cite=cite("Section 4.3", "there is the following correspondence between f^* and r" if version == 1 else
                  "we can express the relation between the optimal ranking function f^* and r as follows"),
        statement=f"SVOR version {version}: with r = ({num})/({den}) extended by its limits +-oo where {den} = 0 "
        "(ranges read cross-multiplied), every printed r-table holds on the closed simplex"
        + (" (f* and median); at p = (1/2, 0, 1/2), where r = 0/0, every f* of a table minimises"
           if version == 1 else ""),
    )


def svor_case4_claim(id: str = "uematsu2013.section4_3.svor1.case4_minimisers", *, lower: Any = 1) -> Claim:
    """Section 4.3, Case 4: "Hence the minimum risk is achieved as long as f(x) is between theta_2 + 1
    and theta_1 - 1" (``lower`` = -1 widens the interval to [theta_2 - 1, theta_1 - 1]: the twin)."""
    t1, t2 = theta(1), theta(2)
    cond, _ = svor_tables()[(1, 4)]
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3, "case": cond, "between": [t2 + lower <= FV, FV <= t1 - 1]},
        conclusion=svor_risk(1, FV) <= svor_risk(1, GV),
        cite=cite("Section 4.3, Case 4", "Hence the minimum risk is achieved as long as f(x) is between "
                                         "theta_2 + 1 and theta_1 - 1"),
        statement="SVOR version 1, Case 4: every f in [theta_2 + 1, theta_1 - 1] minimises the conditional hinge "
        "risk over every real g",
    )


def svor_equiv_claim(id: str, version: int, *, nudge: Any = 0) -> Claim:
    """Section 4.3: "p_1 - p_2 - p_3 = 2p_1 - 1 <= 0 <=> r(x) >= 0, ..." (version 2: "p_1 - p_2 - 2p_3 <= 0 <=>
    r(x) >= 1/2, ..."), where r is defined (``nudge`` moves a threshold: the twin)."""
    p1, p2, p3 = P(1), P(2), P(3)
    if version == 1:
        r = (1 - 2 * p1) / p2
        dom = [p2 > 0]
        rows = [(p1 - p2 - p3, 0), (p1 - p3, 1), (p1 + p2 - p3, 2 + nudge)]
    else:
        r = (1 - p1) / (1 - p3)
        dom = [p3 < 1]
        rows = [(p1 - p2 - 2 * p3, R(1, 2)), (p1 - p3, 1 + nudge), (2 * p1 + p2 - p3, 2)]
    concl = sympy.And(*[sympy.And(sympy.Implies(e <= 0, r >= b), sympy.Implies(r >= b, e <= 0)) for e, b in rows])
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3, "r_defined": dom},
        conclusion=concl,
        cite=cite(
            "Section 4.3",
            "p1 - p2 - p3 = 2p1 - 1 <= 0 <=> r(x) >= 0, p1 - p3 <= 0 <=> r(x) >= 1, ..."
            if version == 1
            else "p1 - p2 - 2p3 <= 0 <=> r(x) >= 1/2, p1 - p3 <= 0 <=> r(x) >= 1, 2p1 + p2 - p3 <= 0 <=> r(x) >= 2",
        ),
        statement=f"SVOR version {version}: the sign of each slope coefficient is a threshold on r(x)",
    )


def median_rows(*, upper: Any = 2, extended: bool = False) -> Any:
    """The median table: r < 0 => p_1 > 1/2 (median 1); 0 < r < 2 => p_1 < 1/2 <= p_1 + p_2 (median 2);
    r > 2 => p_1 + p_2 < 1/2 (median 3)."""
    p1, p2 = P(1), P(2)
    return sympy.And(
        sympy.Implies(sympy.And(*r_in_range(1, None, 0, extended=extended)), p1 > R(1, 2)),
        sympy.Implies(sympy.And(*r_in_range(1, 0, upper, extended=extended)),
                      sympy.And(p1 < R(1, 2), p1 + p2 >= R(1, 2))),
        sympy.Implies(sympy.And(*r_in_range(1, 2, None, extended=extended)), p1 + p2 < R(1, 2)),
    )


def median_claim(id: str = "uematsu2013.section4_3.svor1.median", *, upper: Any = 2) -> Claim:
    """Section 4.3: "when theta_1 <= theta_2, r corresponds to the median of Y given x" (the median
    table; the probability row is misaligned in the text extraction).  ``upper`` moves a bound (the twin)."""
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3, "r_defined": [P(2) > 0]},
        conclusion=median_rows(upper=upper),
        cite=cite("Section 4.3", "when theta_1 <= theta_2, r corresponds to the median of Y given x"),
        statement="r < 0 => median 1 (p1 > 1/2); 0 < r < 2 => median 2; r > 2 => median 3 (p1 + p2 < 1/2)",
    )


def svor2_function_claim(id: str = "uematsu2013.section4_3.svor2.same_function", *, swap: bool = False) -> Claim:
    """Section 4.3: "(1 - p_1)/(1 - p_3) = (p_2 + p_3)/(p_1 + p_2)" on the simplex (``swap`` inverts: the twin)."""
    p1, p2 = P(1), P(2)
    p3 = 1 - p1 - p2
    rhs = (p2 + p3) / (p1 + p2) if not swap else (p1 + p2) / (p2 + p3)
    return identity(
        id,
        (1 - p1) / (1 - p3),
        rhs,
        cite=cite("Section 4.3", "(1 - p1)/(1 - p3) = (p2 + p3)/(p1 + p2)"),
        statement="SVOR-IMC's r(x) = (1 - p1)/(1 - p3) equals q = (p2 + p3)/(p1 + p2) on the simplex",
    )


# ---------------------------------------------------------------------------------------
# The claims of Section 4.3, in reading order
# ---------------------------------------------------------------------------------------

svor1_cases = {k: svor_case_claim(1, k) for k in (1, 2, 3, 4)}
svor1_r_equivalences = svor_equiv_claim("uematsu2013.section4_3.svor1.r_equivalences", 1)
svor1_r_table_cases12 = svor_rtable_claim("uematsu2013.section4_3.svor1.r_table.cases12", 1, "cases12")
svor1_r_table_case3 = svor_rtable_claim("uematsu2013.section4_3.svor1.r_table.case3", 1, "case3")
svor1_median = median_claim()
svor2_cases = {k: svor_case_claim(2, k) for k in (1, 2)}
svor2_r_equivalences = svor_equiv_claim("uematsu2013.section4_3.svor2.r_equivalences", 2)
svor2_r_table = svor_rtable_claim("uematsu2013.section4_3.svor2.r_table", 2, "cases12")
svor2_same_function = svor2_function_claim()
svor1_case4_minimisers = svor_case4_claim()
svor1_r_extended = r_extended_claim("uematsu2013.section4_3.svor1.r_defined.corrected", 1)
svor1_r_defined = r_defined_claim("uematsu2013.section4_3.svor1.r_defined", 1, finding=Finding(
    what="Shashua and Levin's r(x) = (1 - 2p_1(x))/p_2(x) has a zero denominator where p_2(x) = 0, a part of the "
    "simplex on which Section 4.3 states the sign equivalences, the f* tables of Cases 1-3 and the median table "
    "(and Figure 2's right panel draws its contours); the text gives r no value there.",
    counterexample="p = (1, 0, 0): r = -1/0; at p = (1/2, 0, 1/2) it is 0/0.",
    corrected=svor1_r_extended.id, finding_class="clarification"))
svor2_r_extended = r_extended_claim("uematsu2013.section4_3.svor2.r_defined.corrected", 2)
svor2_r_defined = r_defined_claim("uematsu2013.section4_3.svor2.r_defined", 2, finding=Finding(
    what="The implicit-constraints r(x) = (1 - p_1(x))/(1 - p_3(x)) has a zero denominator at p_3(x) = 1, a point "
    "of the simplex on which its f* table is stated; the text gives r no value there.",
    counterexample="p = (0, 0, 1): r = 1/0.",
    corrected=svor2_r_extended.id, finding_class="clarification"))

TWINS: dict[str, Callable[[], Claim]] = {
    **{
        c.id: (lambda v=v, k=k: svor_case_claim(v, k, twin_id(f"uematsu2013.svor{v}c{k}"), nudge=1))
        for v, cases in ((1, svor1_cases), (2, svor2_cases))
        for k, c in cases.items()
    },
    svor1_r_equivalences.id: lambda: svor_equiv_claim(twin_id("uematsu2013.req1"), 1, nudge=1),
    svor1_r_table_cases12.id: lambda: svor_rtable_claim(twin_id("uematsu2013.rt1"), 1, "cases12", swap=True),
    svor1_r_table_case3.id: lambda: svor_rtable_claim(twin_id("uematsu2013.rt3"), 1, "case3", swap=True),
    svor1_median.id: lambda: median_claim(twin_id("uematsu2013.median"), upper=3),
    svor2_r_equivalences.id: lambda: svor_equiv_claim(twin_id("uematsu2013.req2"), 2, nudge=1),
    svor2_r_table.id: lambda: svor_rtable_claim(twin_id("uematsu2013.rt2"), 2, "cases12", swap=True),
    svor2_same_function.id: lambda: svor2_function_claim(twin_id("uematsu2013.same"), swap=True),
    svor1_case4_minimisers.id: lambda: svor_case4_claim(twin_id(svor1_case4_minimisers.id), lower=-1),
    svor1_r_extended.id: lambda: r_extended_claim(twin_id(svor1_r_extended.id), 1, swap=True),
    svor2_r_extended.id: lambda: r_extended_claim(twin_id(svor2_r_extended.id), 2, swap=True),
}
