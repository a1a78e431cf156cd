"""Section 4.3 and footnote 4: ListMLE, RankCosine, ListNet with the original mappings, and Cao et
al.'s top-k ListNet, are not top-k subgroup order sensitive (rigorous interval witnesses at exact
points); Cao et al.'s loss is permutation-level order sensitive (numeric); the shared witness and
numeric builders of Sections 4.3.1-4.3.3."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from symcal import NumericOutcome, finite_check, numeric

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


def not_os_claim(id: str, name: str, *, n: int = 3, k: int = 1, sign: int = 1, location: str, quote: str,
                 what: str, g: Sequence[Fraction] = WITNESS_G, y: tuple[int, ...] = WITNESS_Y) -> Any:
    """Section 4.3: "In [16], the surrogate loss functions in ListNet, RankCosine, and ListMLE have been
    proved to be permutation-level order sensitive ... they may not be top-k subgroup order sensitive" --
    one certified witness point (``sign`` = -1 claims the opposite sign: a twin)."""
    return finite_check(
        id,
        cases=[(name, n, k, tuple(g), y, sign)],
        holds=lambda c: certified_sign(*c),
        describe=lambda c: {"surrogate": c[0], "n": c[1], "k": c[2], "g": [str(v) for v in c[3]], "y": list(c[4]),
                            "claimed sign": c[5]},
        domain="one exact witness point, rigorous mpmath interval enclosures of both losses",
        cite=cite(location, quote),
        statement=f"{what} is not top-{k} subgroup order sensitive (n = {n}): at g = {[str(v) for v in g]} "
                  f"(g_1 < g_2), y = {y} and sigma_(1,2) y have the same top-{k} subgroup but "
                  f"phi(g, y) {'>' if sign > 0 else '<'} phi(g, sigma y), certified",
    )


# ---------------------------------------------------------------------------------------
# Numeric evidence: modified ListNet is top-k order sensitive; Cao et al. at k = n
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


def sensitivity_numeric(name: str, n: int, k: int, depth: int, count: int, seed: int) -> NumericOutcome:
    """Definition 3 at depth ``depth`` for surrogate ``name`` at random exact points, with
    interval arithmetic; the margin is 1 when no violation and no undecided comparison
    occurred (a certified violation gives ok = False).  Never a proof for all g."""
    from symcal.ranking.listwise import check_order_sensitivity

    phi = surrogate(name, n, k)
    res = check_order_sensitivity(phi, depth, random_points(n, count, seed))
    ok = res.holds and not res.undecided
    return NumericOutcome(
        ok=ok, method="Definition 3 at random exact points, mpmath interval enclosures",
        values={"surrogate": phi.name, "depth": depth, "points": res.points, "comparisons": res.comparisons,
                "undecided": len(res.undecided), "witness": res.witness, "reason": res.reason[:300]},
        tolerance=0.5, margin=1.0 if ok else 0.0,
        note="sampled points only: evidence, not a proof for all g",
    )


def sensitivity_numeric_claim(id: str, name: str, n: int, k: int, depth: int, *, location: str, quote: str,
                              what: str, count: int = 12, seed: int = 7) -> Any:
    """Definition 3 at ``depth`` for a concrete surrogate at seeded exact points (numeric, never a proof)."""
    return numeric(
        id, run=lambda: sensitivity_numeric(name, n, k, depth, count, seed),
        cite=cite(location, quote),
        statement=f"{what} (n = {n}) satisfies Definition 3 at depth {depth} at {count} random exact points (numeric)",
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
listnet_cao_permutation_level = sensitivity_numeric_claim(
    "xia2009.listnet_cao.permutation_level_order_sensitive", "listnet_cao", 3, 1, 3, location="Footnote 4",
    quote="the so-defined top-k cross entropy loss is still permutation-level order sensitive",
    what="Cao et al.'s top-1 ListNet")
