"""Section 4.2: Proposition 8 (order preserving at k => at k - 1) and its failing converse,
Proposition 9 (order sensitive at k => at k + 1) and the strict inequalities of its example.
Proposition 10 has a module of its own."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import sympy

from symcal import exists, implies, implies_cases

from .common import cite, order_preserving, perms, phi_vars, simplex, tie_patterns
from .section4_1 import condition2, condition3


def proposition8_cases(n: int, *, down: int = 1) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Order preserving w.r.t. (1, 2) at k => at k - down (down = -1 is a twin: k => k + 1)."""
    p, simp = simplex(n)
    cases = []
    for k in range(1, n + 1):
        k2 = k - down
        if not 1 <= k2 <= n:
            continue
        cases.append((f"n={n}, k={k}->{k2}", {"simplex": simp, "order_preserving_k": order_preserving(p, n, k, 1, 2)},
                      sympy.And(*order_preserving(p, n, k2, 1, 2))))
    return cases


def proposition8_claim(id: str, *, down: int = 1, sizes: tuple[int, int] = (3, 5)) -> Any:
    """Proposition 8, Section 4.2: "If the top-k subgroup probability space is order preserving with
    respect to object i and j, the top-(k-1) subgroup probability space is also order preserving"."""
    return implies_cases(
        id, cases=lambda n: proposition8_cases(n, down=down), sizes=sizes,
        domain="k = 2..n, pair (1, 2) (WLOG by relabelling), p_y real variables on the simplex",
        cite=cite("Proposition 8, Section 4.2", "If the top-k subgroup probability space is order preserving with "
                                                    "respect to object i and j, the top-(k-1) subgroup probability "
                                                    "space is also order preserving"),
        statement="order preserving w.r.t. (i, j) at depth k implies order preserving at depth k - 1",
    )


P3 = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(3)}
CONVERSE_WITNESS = {"p_123": Fraction(1, 2), "p_132": Fraction(0), "p_213": Fraction(0), "p_231": Fraction(1, 4),
                    "p_312": Fraction(0), "p_321": Fraction(1, 4)}
TOP2_ORDER_PRESERVING = {"p_123": Fraction(1, 2), "p_132": Fraction(1, 4), "p_213": Fraction(0), "p_231": Fraction(0),
                         "p_312": Fraction(1, 4), "p_321": Fraction(0)}  # the twin's witness: top-2 order preserving


def proposition8_converse_claim(id: str, witness: dict[str, Fraction] | None, *, swapped: bool = False) -> Any:
    """Proposition 8's example, Section 4.2: "it is easy to verify that Proposition 8 holds for this case
    while the opposite does not".  ``swapped`` (the twin): a distribution that is top-2 but not top-1
    order preserving, which Proposition 8 rules out."""
    p = P3
    holds, fails = (2, 1) if swapped else (1, 2)
    return exists(
        id,
        constraints={
            "simplex": [v >= 0 for v in p.values()] + [sympy.Eq(sum(p.values()), 1)],
            f"top{holds}_order_preserving": order_preserving(p, 3, holds, 1, 2),
            f"top{fails}_not_order_preserving": [sympy.Not(sympy.And(*order_preserving(p, 3, fails, 1, 2)))],
        },
        witness=witness,
        cite=cite("Proposition 8's example, Section 4.2", "it is easy to verify that Proposition 8 holds for this case "
                                                          "while the opposite does not"),
        statement="n = 3: a distribution that is top-1 but not top-2 order preserving w.r.t. (1, 2)",
    )


def proposition9_cases(n: int, *, step: int = 1) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Def. 3 at depth k => Def. 3 at depth k + step (step = -1 is a twin)."""
    v = phi_vars(n)
    d = {(i, j, y): sympy.Symbol(f"d{i}{j}_" + "".join(map(str, y)), real=True)
         for i, j in itertools.permutations(range(1, n + 1), 2) for y in perms(n)}
    built: dict[tuple[int, tuple[int, ...]], list[Any]] = {}

    def definition3(k: int, blocks: tuple[int, ...]) -> list[Any]:
        # Definition 3 at depth k is the conclusion for k - step and the hypothesis for k: built once
        if (k, blocks) not in built:
            built[k, blocks] = condition2(v, n, k, blocks) + condition3(d, n, k, blocks)
        return built[k, blocks]

    cases = []
    for k in range(1, n + 1):
        k2 = k + step
        if not 1 <= k2 <= n:
            continue
        for blocks in tie_patterns(n):
            hyp = definition3(k, blocks)
            concl = definition3(k2, blocks)
            cases.append((f"n={n}, k={k}->{k2}, ties={blocks}", {"definition3_at_k": hyp}, sympy.And(*concl)))
    return cases


def proposition9_claim(id: str, *, step: int = 1, sizes: tuple[int, int] = (3, 4)) -> Any:
    """Proposition 9, Section 4.2: "If the surrogate loss function phi is top-k subgroup order sensitive
    ..., then it is also top-(k+1) subgroup order sensitive"."""
    return implies_cases(
        id, cases=lambda n: proposition9_cases(n, step=step), sizes=sizes,
        domain="k = 1..n-1 and every tie pattern of g; phi(g, y) and its partial derivatives real variables",
        cite=cite("Proposition 9, Section 4.2", "If the surrogate loss function phi is top-k subgroup order sensitive "
                                                    "..., then it is also top-(k+1) subgroup order sensitive"),
        statement="top-k subgroup order sensitivity implies top-(k+1) subgroup order sensitivity",
    )


def proposition9_example_claim(id: str, *, drop_prop4: bool = False) -> Any:
    """Proposition 9's example, Section 4.2: "From Proposition 4, we know that the two inequalities are
    strict." -- n = 3, g_1 < g_2, top-1 order sensitive (``drop_prop4``: a twin)."""
    v = phi_vars(3)
    blocks = (0, 1, 2)
    hyps = {"definition3": condition2(v, 3, 1, blocks)}
    if drop_prop4:  # the twin forgets condition (2)'s equality part, i.e. Proposition 4
        hyps = {"definition3": [h for h in hyps["definition3"] if not isinstance(h, sympy.Eq)]}
    return implies(
        id, hypotheses=hyps,
        conclusion=sympy.And(v[(1, 2, 3)] > v[(2, 1, 3)], v[(1, 3, 2)] > v[(2, 3, 1)]),
        cite=cite("Proposition 9's example, Section 4.2", "From Proposition 4, we know that the two inequalities "
                                                          "are strict."),
        statement="n = 3, g_1 < g_2, top-1 order sensitive: phi(g,(1,2,3)) > phi(g,(2,1,3)) and "
                  "phi(g,(1,3,2)) > phi(g,(2,3,1))",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

proposition8 = proposition8_claim("xia2009.proposition8")
proposition8_converse = proposition8_converse_claim("xia2009.proposition8.converse_fails", CONVERSE_WITNESS)
proposition9 = proposition9_claim("xia2009.proposition9")
proposition9_example = proposition9_example_claim("xia2009.proposition9.example_strict")
