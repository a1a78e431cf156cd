"""Section 1 (Consistency for surrogate losses): the number of preference DAGs, and the
infimum of the conditional risk is attained (A(p) is not empty)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from symcal import finite_check, implies
from symcal.claims.core import Claim

from .common import (
    alpha,
    cite,
    conditional_risk,
    has_cycle,
    risk_eq8,
    symbolic_weights,
    twin_id,
    weak_order_representatives,
)

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}


def enumerated_dag_count(m: int) -> int:
    """Labelled DAGs on m nodes by enumeration: each pair is absent, i -> j or j -> i."""
    pairs = list(itertools.combinations(range(1, m + 1), 2))
    n = 0
    for choice in itertools.product((0, 1, 2), repeat=len(pairs)):
        edges = [(i, j) if c == 1 else (j, i) for (i, j), c in zip(pairs, choice, strict=True) if c]
        n += not has_cycle(edges, m)
    return n


def dag_count_bound_holds(m: int, *, base: Any = 3, enumerate_too: bool = True) -> tuple[bool, str]:
    """|G(m)| <= base^C(m,2), with |G(m)| = symcal.ranking's count_dags (Robinson's recurrence),
    cross-checked for small m against ranking's dags() and this module's own enumeration."""
    from symcal.ranking.dags import count_dags, dags

    count = count_dags(m)
    bound = Fraction(base) ** math.comb(m, 2)
    detail = f"|G({m})| = {count} (Robinson's recurrence), bound {base}^{math.comb(m, 2)} = {bound}"
    if enumerate_too:
        listed, seen = sum(1 for _ in dags(m)), enumerated_dag_count(m)
        detail += f"; ranking.dags lists {listed}, the local enumeration counts {seen}"
        if not listed == seen == count:
            return False, detail + " (the counts disagree)"
    return count <= bound, detail


def dag_count_formula(m: int, *, base: Any = 3, enumerate_too: bool = True) -> tuple[list[Any], dict[Any, Any]]:
    """|G(m)| <= base^C(m,2) stated over the sequence dags_0..dags_m of Robinson's recurrence
    dags_0 = 1, dags_j = sum_{i=1}^{j} (-1)^(i+1) C(j, i) 2^(i (j - i)) dags_(j-i): the values are symcal.ranking's
    count_dags, but the conditions pin each one to the recurrence, so the kernel re-derives them (a wrong
    value fails) and the bound is checked on the recurrence's own number.  With ``enumerate_too`` the two
    enumerations' counts (ranking.dags and this module's) must equal it too."""
    from symcal.ranking.dags import count_dags, dags

    seq = [sympy.Symbol(f"dags_{j}") for j in range(m + 1)]
    b = sympy.Symbol("base")
    conds: list[Any] = [sympy.Eq(seq[0], 1)]  # unevaluated below: sympy would try to decide each equation itself
    conds += [sympy.Eq(seq[j], sympy.Add(*[(-1) ** (i + 1) * math.comb(j, i) * 2 ** (i * (j - i)) * seq[j - i]
                                           for i in range(1, j + 1)]), evaluate=False) for j in range(1, m + 1)]
    conds.append(seq[m] <= b ** math.comb(m, 2))
    values: dict[Any, Any] = {seq[0]: 1, **{seq[j]: count_dags(j) for j in range(1, m + 1)}, b: Fraction(base)}
    if enumerate_too:
        listed, seen = sympy.Symbol("dags_listed"), sympy.Symbol("dags_enumerated")
        conds += [sympy.Eq(listed, seq[m]), sympy.Eq(seen, seq[m])]
        values.update({listed: sum(1 for _ in dags(m)), seen: enumerated_dag_count(m)})
    return conds, values


def dag_count_claim(id: str, *, sizes: tuple[int, int], base: Any = 3, enumerate_too: bool = True) -> Claim:
    """Section 1: "noting that |G(m)| <= 3^(m choose 2)".  ``base`` 5/2 is the twin.  Each m is stated over
    Robinson's recurrence (``dag_count_formula``), which the kernel re-checks."""
    return finite_check(
        id,
        cases=lambda m: [m],
        formula=lambda m: dag_count_formula(m, base=base, enumerate_too=enumerate_too),
        describe=lambda m: {"m": m, "bound": Fraction(base) ** math.comb(m, 2)},
        domain="the labelled DAGs on m nodes"
        + (" (counted, and enumerated twice)" if enumerate_too else " (Robinson's recurrence)"),
        cite=cite("Section 1", "noting that |G(m)| <= 3^(m choose 2)"),
        statement=f"the number of DAGs on m labelled nodes is at most {base}^C(m,2)",
        sizes=sizes,
    )


dag_count_bound = dag_count_claim("duchi2010.dag_count_bound", sizes=(1, 5))
TWINS[dag_count_bound.id] = lambda: dag_count_claim(twin_id(dag_count_bound.id), sizes=(1, 3), base=Fraction(5, 2))

dag_count_bound_large = dag_count_claim("duchi2010.dag_count_bound.large_m", sizes=(6, 25), enumerate_too=False)
TWINS[dag_count_bound_large.id] = lambda: dag_count_claim(
    twin_id(dag_count_bound_large.id), sizes=(6, 7), base=Fraction(5, 2), enumerate_too=False
)


def infimum_attained_claim(
    id: str = "duchi2010.section1.infimum_attained", *, drop: tuple[int, ...] | None = None,
    sizes: tuple[int, int] = (3, 4)
) -> Claim:
    """Section 1, after Eq. (5): "The infimum is attained since l is edgewise as described earlier, so A(p) is not
    empty."  ``drop`` leaves one weak order's score vector out (the twin drops (2, 1, 0))."""

    def some_weak_order_is_as_good(m: int) -> Any:
        a = symbolic_weights(m)
        reps = [w for w in weak_order_representatives(m) if w != drop]
        return sympy.Or(*[conditional_risk(a, w) <= risk_eq8(a, alpha) for w in reps])

    return implies(
        id,
        hypotheses={"weights_nonnegative": lambda m: [x >= 0 for x in symbolic_weights(m).values()]},
        conclusion=some_weak_order_is_as_good,
        cite=cite("Section 1, after Eq. (5)", "The infimum is attained since l is edgewise as described earlier, "
                                              "so A(p) is not empty."),
        statement=("for every a_ij >= 0 and every real score vector a: one of the score vectors w that represent the "
                   "weak orders of m items (13 at m = 3, 75 at m = 4) has l(p, w) <= l(p, a) (Eq. (8)); so "
                   "inf_a l(p, a) is the least of finitely many values, attained, and A(p) is not empty"
                   + (f" [twin: {drop} left out]" if drop else "")),
        sizes=sizes,
    )


infimum_attained = infimum_attained_claim()
TWINS[infimum_attained.id] = lambda: infimum_attained_claim(twin_id(infimum_attained.id), drop=(2, 1, 0), sizes=(3, 3))
