"""Section 4.3.2: the cosine loss (11) -- its difference identity, and with the modified mapping psi
(top k decreasing, the rest eps) it is top-k subgroup order sensitive (exact polynomial reduction,
z3)."""

from __future__ import annotations

from typing import Any

import sympy

from symcal import identity, implies_cases

from .common import changes_subgroup, cite, position_patterns, position_scores, swap

Case = tuple[str, dict[str, list[Any]], Any]


def cosine_sides(n: int, y: tuple[int, ...]) -> tuple[Any, Any, list[sympy.Symbol], list[sympy.Symbol]]:
    """phi(g, y) - phi(g, sigma_{1,2} y) for symbolic psi (per position) and g, and the
    claimed reduced form (psi_{sigma y} . g - psi_y . g) / (2 |psi| |g|)."""
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    psi = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, n + 1)), real=True))
    z = swap(y, 1, 2)
    npsi = sympy.sqrt(sum(v ** 2 for v in psi))
    ng = sympy.sqrt(sum(v ** 2 for v in g))

    def phi(order: tuple[int, ...]) -> Any:
        return (1 - sum(a * b for a, b in zip(position_scores(psi, order), g, strict=True)) / (npsi * ng)) / 2

    dot = (sum(a * b for a, b in zip(position_scores(psi, z), g, strict=True))
           - sum(a * b for a, b in zip(position_scores(psi, y), g, strict=True)))
    return phi(y) - phi(z), dot / (2 * npsi * ng), g, psi


def cosine_identity_claim(id: str, *, factor: Any = 1) -> Any:
    """Eq. (11), Section 4.3.2: "phi(g(x), y) = 1/2 (1 - psi_y(x)^T g(x) / (||psi_y(x)|| ||g(x)||))" --
    the difference the order-sensitivity reduction uses (``factor`` = 2 is a twin)."""
    y = (3, 1, 2)
    lhs, rhs, g, psi = cosine_sides(3, y)
    return identity(
        id, lhs, factor * rhs,
        conditions=[sympy.Ne(sum(v ** 2 for v in g), 0), sympy.Ne(sum(v ** 2 for v in psi), 0)],
        cite=cite("Eq. (11), Section 4.3.2", "phi(g(x), y) = 1/2 (1 - psi_y(x)^T g(x) / (||psi_y(x)|| ||g(x)||))"),
        statement="n = 3: phi(g, y) - phi(g, sigma y) = (psi_{sigma y} . g - psi_y . g) / (2 |psi| |g|) "
                  "(the reduction used for the cosine loss; |psi_y| does not depend on y)",
    )


def _cosine_scores(n: int, k: int, *, modified: bool, loose_eps: bool) -> tuple[list[Any], list[Any]]:
    """The mapping psi per position and its order hypotheses: modified (psi_1 > ... > psi_k > eps, the
    rest eps; ``loose_eps`` allows psi_k = eps, a twin) or the original (strictly decreasing)."""
    psi = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, k + 1)), real=True, seq=True))
    eps = sympy.Symbol("eps", real=True)
    if not modified:
        scores = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, n + 1)), real=True, seq=True))
        return scores, [scores[s] > scores[s + 1] for s in range(n - 1)]
    scores = psi + [eps] * (n - k)
    order = [scores[s] > scores[s + 1] for s in range(k - 1)]
    if k < n:
        order.append(psi[-1] >= eps if loose_eps else psi[-1] > eps)
    return scores, order


def _cosine_condition3(g: list[Any], n: int, k: int, scores: list[Any], hyp_psi: dict) -> Case:
    """(3) at g_1 = g_2, y = identity: d phi(sigma y)/d g_1 - d phi(y)/d g_1 times 2 |psi| |g|^3 equals
    -[(psi_{sigma y})_1 |g|^2 - (psi_{sigma y} . g) g_1] + [(psi_y)_1 |g|^2 - (psi_y . g) g_1]."""
    y = tuple(range(1, n + 1))
    vy, vz = position_scores(scores, y), position_scores(scores, swap(y, 1, 2))
    g2 = sum(v ** 2 for v in g)
    dz = vz[0] * g2 - sum(a * b for a, b in zip(vz, g, strict=True)) * g[0]
    dy = vy[0] * g2 - sum(a * b for a, b in zip(vy, g, strict=True)) * g[0]
    nonzero = sympy.Or(*[v > 0 for v in g], *[v < 0 for v in g])
    return (f"n={n}, k={k}: condition (3)", {**hyp_psi, "tie": [sympy.Eq(g[0], g[1])], "g_nonzero": [nonzero]},
            dy - dz > 0)


def cosine_os_cases(n: int, *, modified: bool = True, loose_eps: bool = False) -> list[Case]:
    """Condition (2) for every position pattern and (3) at the identity, per k, as signs of the
    reduced numerators (``modified=False``: the original psi, a twin)."""
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    cases = []
    for k in range(1, n + 1):
        scores, order = _cosine_scores(n, k, modified=modified, loose_eps=loose_eps)
        hyp_psi = {"psi_order": order}
        for y in position_patterns(n):
            numer = (sum(a * b for a, b in zip(position_scores(scores, swap(y, 1, 2)), g, strict=True))
                     - sum(a * b for a, b in zip(position_scores(scores, y), g, strict=True)))
            concl = numer > 0 if changes_subgroup(y, 1, 2, k) else sympy.Eq(numer, 0)
            cases.append((f"n={n}, k={k}, y={y}: condition (2)", {**hyp_psi, "g1_below_g2": [g[0] < g[1]]}, concl))
        cases.append(_cosine_condition3(g, n, k, scores, hyp_psi))
    return cases


def cosine_os_claim(id: str, *, modified: bool = True, loose_eps: bool = False, sizes: tuple[int, int] = (3, 5),
                    expected: str | None = None, statement: str = "") -> Any:
    """Section 4.3.2: "It can be proved that after the modification, the cosine loss becomes top-k
    subgroup order sensitive"."""
    return implies_cases(
        id, cases=lambda n: cosine_os_cases(n, modified=modified, loose_eps=loose_eps), sizes=sizes,
        domain="k = 1..n; pair (1, 2) WLOG; symbolic psi and g; reduced numerators (see the difference identity)",
        cite=cite("Section 4.3.2", "It can be proved that after the modification, the cosine loss becomes top-k "
                                       "subgroup order sensitive"),
        statement=statement or "the cosine loss with the modified psi (top k decreasing, the rest eps) is top-k "
                               "subgroup order sensitive: (2) with strict inequality iff the subgroup changes, and (3)",
        expected=expected,
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

cosine_difference_identity = cosine_identity_claim("xia2009.cosine.difference_identity")
cosine_modified_order_sensitive = cosine_os_claim("xia2009.cosine_modified.order_sensitive")
