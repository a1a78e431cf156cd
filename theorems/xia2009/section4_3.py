"""Section 4.3 and footnote 4: ListMLE, RankCosine, ListNet with the original mappings, and Cao et
al.'s top-k ListNet, are not top-k subgroup order sensitive (rigorous interval witnesses at exact
points); Cao et al.'s loss is permutation-level order sensitive (exactly at sampled points); the shared
witness and sampled builders of Sections 4.3.1-4.3.3."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import finite_check

from .common import UndecidedCase, cite, swap

# ---------------------------------------------------------------------------------------
# Witnesses of non-order-sensitivity: rigorous interval enclosures at exact points
# ---------------------------------------------------------------------------------------

WITNESS_G = (Fraction(0), Fraction(1), Fraction(1, 2))
WITNESS_Y = (3, 1, 2)  # objects 1 and 2 both outside the top 1: (2) demands equal losses


def surrogate(name: str, n: int, k: int) -> Any:
    """symcal.ranking's concrete surrogate ``name`` on n objects (top-k where it has a k)."""
    from symcal.ranking import listwise as lw

    return {
        "listmle": lambda: lw.listmle(n),
        "listmle_topk": lambda: lw.listmle(n, k),
        "cosine": lambda: lw.rank_cosine(n),
        "cosine_modified": lambda: lw.rank_cosine(n, k),
        "listnet": lambda: lw.listnet(n),
        "listnet_modified": lambda: lw.listnet(n, k),
        "listnet_cao": lambda: lw.listnet_topk_cao(n, k),
    }[name]()


def certified_sign(name: str, n: int, k: int, g: Sequence[Fraction], y: tuple[int, ...], sign: int) -> tuple[bool, str]:
    """Is sign(phi(g, y) - phi(g, sigma_{1,2} y)) = ``sign``, certified by disjoint interval
    enclosures?  Undecided enclosures raise (never a verdict)."""
    from symcal.ranking.listwise import _iv_dps, interval_difference

    phi = surrogate(name, n, k)
    with _iv_dps(40):
        a = phi.value(list(g), y, arithmetic="interval")
        b = phi.value(list(g), swap(y, 1, 2), arithmetic="interval")
        got, text = interval_difference(a, b)
    detail = f"{phi.name}: phi(g, {y}) - phi(g, {swap(y, 1, 2)}) in {text} at g = {[str(v) for v in g]}"
    if got is None:
        raise UndecidedCase(f"{detail}: the enclosure contains 0")
    return got == sign, detail


def _luce(score: Any, order: Sequence[int], depth: int) -> Any:
    """The Luce (Plackett-Luce) probability of the first ``depth`` places of ``order`` under the scores
    ``score(object)``: prod_{i <= depth} exp(s_{order(i)}) / sum_{t >= i} exp(s_{order(t)}) (Eqs. (9), (10))."""
    return sympy.Mul(*[sympy.exp(score(order[i])) / sympy.Add(*[sympy.exp(score(o)) for o in order[i:]])
                       for i in range(depth)])


def loss_expression(name: str, n: int, k: int, y: tuple[int, ...]) -> Any:
    """phi(g, y) written from the paper as a sympy expression of the scores g_1..g_n (and, for the
    mappings of RankCosine and ListNet, of psi_1 > ... > psi_n: the object at position s of y gets psi_s):
    ListMLE (9) -log P(y; g); RankCosine (11) (1/2)(1 - psi_y . g / (|psi_y| |g|)); ListNet (12)
    D(P(.; psi_y) || P(.; g)) over the n! permutations; Cao et al.'s top-k ListNet (footnote 4) the same
    divergence between the top-k Luce distributions (over the ordered k-tuples)."""
    g = {o: sympy.Symbol(f"g_{o}") for o in range(1, n + 1)}
    psi = {o: sympy.Symbol(f"psi_{s}") for s, o in enumerate(y, start=1)}  # psi_y(x_{y(s)}) = psi_s
    if name == "listmle":
        return -sympy.log(_luce(g.__getitem__, y, n))
    if name == "cosine":
        dot = sympy.Add(*[psi[o] * g[o] for o in y])
        norm_psi = sympy.sqrt(sympy.Add(*[psi[o] ** 2 for o in y]))
        norm_g = sympy.sqrt(sympy.Add(*[g[o] ** 2 for o in g]))
        return sympy.Rational(1, 2) * (1 - dot / (norm_psi * norm_g))
    depth = {"listnet": n, "listnet_cao": k}[name]
    out = []
    for key in itertools.permutations(range(1, n + 1), depth):
        order = key + tuple(o for o in range(1, n + 1) if o not in key)
        p, q = _luce(psi.__getitem__, order, depth), _luce(g.__getitem__, order, depth)
        out.append(p * sympy.log(p / q))
    return sympy.Add(*out)


def not_os_formula(case: tuple[Any, ...]) -> tuple[list[Any], dict[Any, Any]]:
    """Definition 3 (2) fails at the case: g_1 < g_2, objects 1 and 2 both below position k in y (so y and
    sigma_{1,2} y share their top-k subgroup, and (2) demands equal losses), yet phi(g, y) > phi(g, sigma y)
    (< for ``sign`` = -1, a twin).  The losses are the paper's formulas (``loss_expression``), evaluated by
    rigorous enclosures."""
    name, n, k, g, y, sign = case
    pos = {o: sympy.Symbol(f"pos_{o}") for o in (1, 2)}  # the positions of objects 1, 2 in y
    g1, g2, kk = sympy.Symbol("g_1"), sympy.Symbol("g_2"), sympy.Symbol("k")
    left, right = loss_expression(name, n, k, y), loss_expression(name, n, k, swap(y, 1, 2))
    conds = [g1 < g2, pos[1] > kk, pos[2] > kk, left > right if sign > 0 else left < right]
    values: dict[Any, Any] = {f"g_{i}": v for i, v in enumerate(g, start=1)}
    values.update({pos[o]: y.index(o) + 1 for o in (1, 2)}, k=k)
    if name != "listmle":
        psi = [sympy.Symbol(f"psi_{s}") for s in range(1, n + 1)]
        conds.append(sympy.And(*[psi[s] > psi[s + 1] for s in range(n - 1)]))  # the mapping retains the order
        values.update({f"psi_{s}": n + 1 - s for s in range(1, n + 1)})  # the original mapping (as symcal.ranking's)
    return conds, values


def not_os_claim(id: str, name: str, *, n: int = 3, k: int = 1, sign: int = 1, location: str, quote: str,
                 what: str, g: Sequence[Fraction] = WITNESS_G, y: tuple[int, ...] = WITNESS_Y) -> Any:
    """Section 4.3: "In [16], the surrogate loss functions in ListNet, RankCosine, and ListMLE have been
    proved to be permutation-level order sensitive ... they may not be top-k subgroup order sensitive" --
    one certified witness point (``sign`` = -1 claims the opposite sign: a twin).  The losses are written
    as sympy expressions of g (and psi) from Eqs. (9), (11), (12) and footnote 4 (``loss_expression``);
    ``certified_sign`` evaluates symcal.ranking's surrogates at the same point (a cross-check for tests)."""
    return finite_check(
        id,
        cases=[(name, n, k, tuple(g), y, sign)],
        formula=not_os_formula,
        describe=lambda c: {"surrogate": c[0], "n": c[1], "k": c[2], "g": [str(v) for v in c[3]], "y": list(c[4]),
                            "claimed sign": c[5]},
        domain="one exact witness point, rigorous mpmath interval enclosures of both losses",
        cite=cite(location, quote),
        statement=f"{what} is not top-{k} subgroup order sensitive (n = {n}): at g = {[str(v) for v in g]} "
                  f"(g_1 < g_2), y = {y} and sigma_(1,2) y have the same top-{k} subgroup but "
                  f"phi(g, y) {'>' if sign > 0 else '<'} phi(g, sigma y), certified",
    )


# ---------------------------------------------------------------------------------------
# Sampled evidence, exact at each point: modified ListNet is top-k order sensitive; Cao et al. at k = n
# ---------------------------------------------------------------------------------------


def random_points(n: int, count: int, seed: int) -> list[tuple[Fraction, ...]]:
    """``count`` seeded exact score vectors; every third has a tie g_1 = g_2 (condition (3))."""
    rng = random.Random(seed)
    pts = []
    for c in range(count):
        g = [Fraction(rng.randint(-6, 6), rng.choice((1, 2, 3))) for _ in range(n)]
        if c % 3 == 0:  # include ties for condition (3)
            g[1] = g[0]
        pts.append(tuple(g))
    return pts


def sensitivity_at_point(name: str, n: int, k: int, depth: int, g: tuple[Fraction, ...]) -> tuple[bool | None, str]:
    """Definition 3 at depth ``depth`` for surrogate ``name`` at the exact point g: symcal.ranking's
    ``check_order_sensitivity``, whose every inequality is an mpmath interval enclosure (a violation is certified)
    and whose equalities go to the exact zero test; a comparison it cannot decide makes the case undecided (None),
    never holding."""
    from symcal.ranking.listwise import check_order_sensitivity

    res = check_order_sensitivity(surrogate(name, n, k), depth, [g])
    if res.undecided:
        return None, f"undecided: {res.undecided[0][:200]}"
    return res.holds, f"{res.comparisons} certified comparisons; {res.reason[:200]}"


def sensitivity_sampled_claim(id: str, name: str, n: int, k: int, depth: int, *, location: str, quote: str,
                              what: str, count: int = 12, seed: int = 7) -> Any:
    """Definition 3 at ``depth`` for a concrete surrogate at ``count`` seeded exact points (``random_points``),
    decided exactly at each point (``sensitivity_at_point``): confirmed on samples, never a proof for all g; a
    certified violation refutes."""
    return finite_check(
        id, cases=random_points(n, count, seed),
        holds=lambda g: sensitivity_at_point(name, n, k, depth, g),
        describe=lambda g: {"g": [str(v) for v in g]},
        domain=f"score vectors g in Q^{n} (every pair (i, j), every y; ties g_1 = g_2 at every third point)",
        sample=f"{count} seeded exact points, seed {seed}",
        cite=cite(location, quote),
        statement=f"{what} (n = {n}) satisfies Definition 3 at depth {depth} at {count} random exact points "
                  f"(rigorous interval enclosures and exact zero tests at each point)",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

NOT_OS_QUOTE_43 = ("In [16], the surrogate loss functions in ListNet, RankCosine, and ListMLE have been proved to be "
                   "permutation-level order sensitive ... they may not be top-k subgroup order sensitive")
listmle_not_os = not_os_claim("xia2009.listmle.not_top_k_order_sensitive", "listmle", location="Section 4.3",
                              quote=NOT_OS_QUOTE_43, what="ListMLE (9)")
cosine_not_os = not_os_claim("xia2009.cosine.not_top_k_order_sensitive", "cosine", location="Section 4.3",
                             quote=NOT_OS_QUOTE_43, what="the cosine loss with the original psi")
listnet_not_os = not_os_claim("xia2009.listnet.not_top_k_order_sensitive", "listnet", location="Section 4.3",
                              quote=NOT_OS_QUOTE_43, what="ListNet with the original psi")
listnet_cao_not_os = not_os_claim(
    "xia2009.listnet_cao.not_top_k_order_sensitive", "listnet_cao", location="Footnote 4, Section 4.3.3",
    quote="the so-defined top-k cross entropy loss is still permutation-level order sensitive, but not top-k subgroup "
          "order sensitive", what="Cao et al.'s top-k ListNet")
listnet_cao_permutation_level = sensitivity_sampled_claim(
    "xia2009.listnet_cao.permutation_level_order_sensitive", "listnet_cao", 3, 1, 3, location="Footnote 4",
    quote="the so-defined top-k cross entropy loss is still permutation-level order sensitive",
    what="Cao et al.'s top-1 ListNet")
