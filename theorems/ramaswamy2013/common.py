"""What every section of Ramaswamy, Agarwal & Tewari (2013) shares: the citation helper, exact
constants, the twin-id rule, seeded distributions over labels, and the two builders every loss of
Sections 4-7 uses (the decomposition l = alpha beta^T + c, and a certified rank or affine
dimension)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation, Finding, finite_check
from symcal.claims.core import Sizes
from symcal.ranking.loss_matrix import LossMatrix
from symcal.ranking.subset_losses import named_loss

PAPER = "ramaswamy2013"
F = Fraction
ONE, ZERO = Fraction(1), Fraction(0)
HALF = sympy.Rational(1, 2)


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


def r_sizes(lo: int, hi: int, maximum: int | None = None) -> Sizes:
    return Sizes(minimum=lo, default=(lo, hi), maximum=maximum, name="r")


def fs(x: Any) -> str:
    x = F(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# ---------------------------------------------------------------------------------------
# Seeded distributions and scores
# ---------------------------------------------------------------------------------------


def random_dist(labels: Sequence[Any], rng: random.Random, *, max_support: int = 4, den: int = 6) -> list:
    k = rng.randint(1, min(max_support, len(labels)))
    ys = rng.sample(list(labels), k)
    ws = [rng.randint(1, den) for _ in ys]
    total = sum(ws)
    return [(y, F(w, total)) for y, w in zip(ys, ws, strict=True)]


def random_scores(n: int, rng: random.Random, lo: int = -4, hi: int = 4, den: int = 3) -> tuple[Fraction, ...]:
    return tuple(F(rng.randint(lo * den, hi * den), den) for _ in range(n))


def expected_row(mat: LossMatrix, p: list) -> list[Fraction]:
    idx = {y: a for a, y in enumerate(mat.labels)}
    probs = [F(0)] * mat.shape[0]
    for y, pr in p:
        probs[idx[y]] += pr
    return mat.expected_losses(probs)


def risk_argmin(values: Sequence[Fraction]) -> tuple[set[int], Fraction]:
    best = min(values)
    return {t for t, v in enumerate(values) if v == best}, best


def describe_dist(p: list) -> dict[str, Any]:
    return {f"p[{y}]": pr for y, pr in p}


@functools.cache
def _named_loss(loss: str, r: int, params: tuple[tuple[str, Any], ...] = ()) -> Any:
    return named_loss(loss, r, **dict(params))


def _psym(n: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(f"p1:{n + 1}"))


def _rat(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


# ---------------------------------------------------------------------------------------
# Rank and decomposition claims (shared builders)
# ---------------------------------------------------------------------------------------


def decomposition_claim(id: str, loss: str, params: dict[str, Any], sizes: Sizes, location: str, quote: str,
                        *, c_shift: Fraction = ZERO) -> Any:
    """Sections 4-7: "l(y, t) = sum_i alpha_yi beta_ti + c" for the named loss, every entry exactly
    (``c_shift`` nudges c: a twin)."""
    def holds(r: int) -> tuple[bool, str]:
        nl = named_loss(loss, r, **params)
        dec = nl.decomposition
        if c_shift:
            dec = type(dec)(dec.alpha, dec.alpha_den, dec.beta, dec.beta_den, dec.c + c_shift, dec.coords, dec.source)
        chk = dec.check(nl.matrix)
        return chk.holds, f"{nl.matrix.name}: d = {dec.d}, c = {fs(dec.c)}: {chk.reason}"

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r, **params},
        domain=f"every entry of the {loss} loss matrix (exact)", cite=cite(location, quote),
        statement=f"the paper's decomposition l = alpha beta^T + c of the {loss} loss is exact in every entry",
        sizes=sizes,
    )


def rank_holds(r: int, loss: str, params: dict[str, Any], kind: str, bound: int, exact: bool) -> tuple[bool, str]:
    """The certified rank (or affine dimension) of the named loss matrix against ``bound``."""
    nl = named_loss(loss, r, **params)
    cert = nl.matrix.rank() if kind == "rank" else nl.matrix.affine_dimension()
    if not cert.certified:
        return False, f"{kind} not certified: {cert.summary()}"
    ok = cert.value == bound if exact else cert.value <= bound
    return ok, (f"{nl.matrix.name} ({nl.matrix.shape[0]} x {nl.matrix.shape[1]}): certified {kind} "
                f"{cert.value} (minor of size {len(cert.minors[0][0])} with exact determinant; decomposition with "
                f"d = {cert.decomposition.d if cert.decomposition else '?'} checked exactly); "
                f"{'claimed' if exact else 'bound'} {bound}")


def rank_claim(id: str, loss: str, params: dict[str, Any], sizes: Sizes, location: str, quote: str, *,
               kind: str, bound: Callable[[int], int], exact: bool = False, statement: str,
               finding: Finding | None = None) -> Any:
    """Sections 4-7: "for the d-dimensional surrogate psi*": the certified rank or affine dimension
    of the loss matrix is at most (``exact``: equal to) ``bound(r)``."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: rank_holds(r, loss, params, kind, bound(r), exact),
        describe=lambda r: {"r": r, **params},
        domain=f"the {loss} loss matrix (certified exact {kind})", cite=cite(location, quote),
        statement=statement, sizes=sizes, finding=finding,
    )
