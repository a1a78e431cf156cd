"""Section 2 (The difficulty of consistency), before 2.1: the conditional risk of the pairwise
loss (7) is the same loss on the expected weights, Eq. (8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy

from symcal import identity
from symcal.claims.core import Claim

from .common import Weights, alpha, cite, expected_weights, pairs, risk_eq8, twin_id

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}


def symbolic_graphs(m: int, n: int) -> list[Weights]:
    """n graphs on nodes 1..m with a real weight a_ij^G on every ordered pair (0 where G has no edge)."""
    return [{e: sympy.Symbol(f"a_{e[0]}_{e[1]}^G{g}", real=True) for e in pairs(m)} for g in range(1, n + 1)]


def eq8_claim(id: str = "duchi2010.section2.eq8", *, graphs: int = 3, nudge: Any = 1,
              sizes: tuple[int, int] = (3, 5)) -> Claim:
    """Section 2, Eq. (8): "If we define a_ij = sum_G a_ij^G p_G, then l(p, a) = sum_{i<j} a_ij 1(a_i <= a_j) +
    sum_{i>j} a_ij 1(a_i < a_j)."  ``nudge`` scales p_G1 inside a_ij (2 is the twin)."""
    p = sympy.symbols(f"p_G1:{graphs + 1}", real=True)

    def lhs(m: int) -> Any:  # Eq. (2) with Eq. (7): sum_G p_G L(a, G)
        return sum((pg * risk_eq8(g, alpha) for g, pg in zip(symbolic_graphs(m, graphs), p, strict=True)),
                   sympy.Integer(0))

    return identity(
        id, lhs, lambda m: risk_eq8(expected_weights(symbolic_graphs(m, graphs), (nudge * p[0], *p[1:])), alpha),
        cite=cite("Section 2, Eq. (8)", "If we define a_ij = sum_G a_ij^G p_G, then l(p, a) = sum_{i<j} a_ij "
                                        "1(a_i <= a_j) + sum_{i>j} a_ij 1(a_i < a_j)."),
        statement=(f"sum_G p_G L(a, G) with L of Eq. (7) = Eq. (8) with a_ij = sum_G a_ij^G p_G, for {graphs} graphs "
                   "with real weights on every ordered pair, real p_G and every real score vector a (the indicators "
                   "are atoms of a polynomial identity)" + (f" [twin: p_G1 scaled by {nudge} in a_ij]"
                                                             if nudge != 1 else "")),
        sizes=sizes,
    )


eq8 = eq8_claim()
TWINS[eq8.id] = lambda: eq8_claim(twin_id(eq8.id), nudge=2, sizes=(3, 3))
