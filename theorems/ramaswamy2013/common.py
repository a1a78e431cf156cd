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
from symcal.ranking.loss_matrix import LossMatrix, binary_relevance, permutations
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
# A ranking case's inputs as symbols (finite_check(formula=...): the kernel re-evaluates the
# printed formulas at the case's label y and permutation sigma)
# ---------------------------------------------------------------------------------------


@functools.cache
def label_symbols(r: int) -> tuple[sympy.Symbol, ...]:
    """y_1..y_r: the case's relevance labels."""
    return tuple(sympy.symbols(f"y1:{r + 1}"))


@functools.cache
def position_symbols(r: int) -> tuple[sympy.Symbol, ...]:
    """s_1..s_r: the case's permutation as positions, s_i = sigma(i)."""
    return tuple(sympy.symbols(f"s1:{r + 1}"))


def indicator(cond: Any) -> Any:
    """1(cond) as a Piecewise the kernel evaluates."""
    return sympy.Piecewise((1, cond), (0, True))


def label_permutation_cases(r: Any, *, nonzero: bool = False) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Every case (r, y, sigma): y in {0,1}^r (``nonzero``: without y = 0), sigma in S_r."""
    return [(r, y, s) for y in binary_relevance(r, nonzero=nonzero) for s in permutations(r)]


def ranking_values(y: Sequence[Any], sigma: Sequence[int]) -> dict[sympy.Symbol, Any]:
    """The case's data: y_i and s_i = sigma(i)."""
    r = len(sigma)
    return {**dict(zip(label_symbols(r), y, strict=True)), **dict(zip(position_symbols(r), sigma, strict=True))}


def at_position(sigma: Sequence[int]) -> tuple[list[int], list[Any]]:
    """sigma^{-1} read off the case (``doc[j]``: the 0-based index of the document at position j,
    j = 1..r; ``doc[0]`` unused) and the conditions s_{doc[j]} = j that let the kernel check it is
    the inverse of the positions s it is given (so y_{sigma^-1(j)} may be written y_{doc[j]})."""
    r = len(sigma)
    doc = [-1] * (r + 1)
    for k, pos in enumerate(sigma):
        doc[pos] = k
    s = position_symbols(r)
    return doc, [sympy.Eq(s[doc[j]], j) for j in range(1, r + 1)]


# ---------------------------------------------------------------------------------------
# Rank and decomposition claims (shared builders)
# ---------------------------------------------------------------------------------------


def _decomposition(r: int, loss: str, params: dict[str, Any], c_shift: Fraction = ZERO) -> tuple[Any, Any]:
    """The named loss and its paper decomposition (``c_shift`` nudges c: a twin) -- the one object both
    the check and its kernel statement use."""
    nl = _named_loss(loss, r, tuple(sorted(params.items())))
    dec = nl.decomposition
    if c_shift:
        dec = type(dec)(dec.alpha, dec.alpha_den, dec.beta, dec.beta_den, dec.c + c_shift, dec.coords, dec.source)
    return nl, dec


def decomposition_claim(id: str, loss: str, params: dict[str, Any], sizes: Sizes, location: str, quote: str,
                        *, c_shift: Fraction = ZERO) -> Any:
    """Sections 4-7: "l(y, t) = sum_i alpha_yi beta_ti + c" for the named loss, every entry exactly
    (``c_shift`` nudges c: a twin).  ``--certify``: the kernel re-checks the same matrix and
    decomposition entry by entry (kernel kind ``matrix``)."""
    def holds(r: int) -> tuple[bool, str]:
        nl, dec = _decomposition(r, loss, params, c_shift)
        chk = dec.check(nl.matrix)
        return chk.holds, f"{nl.matrix.name}: d = {dec.d}, c = {fs(dec.c)}: {chk.reason}"

    def kernel(r: int) -> dict[str, Any]:
        nl, dec = _decomposition(r, loss, params, c_shift)
        return nl.matrix.kernel_statement(decomposition=dec)

    return finite_check(
        id, cases=lambda m: [m], holds=holds, kernel=kernel, describe=lambda r: {"r": r, **params},
        domain=f"every entry of the {loss} loss matrix (exact)", cite=cite(location, quote),
        statement=f"the paper's decomposition l = alpha beta^T + c of the {loss} loss is exact in every entry",
        sizes=sizes,
    )


def rank_holds(r: int, loss: str, params: dict[str, Any], kind: str, bound: int, exact: bool) -> tuple[bool, str]:
    """The certified rank (or affine dimension) of the named loss matrix against ``bound``."""
    nl = _named_loss(loss, r, tuple(sorted(params.items())))
    cert = nl.matrix.rank() if kind == "rank" else nl.matrix.affine_dimension()
    if not cert.certified:
        return False, f"{kind} not certified: {cert.summary()}"
    ok = cert.value == bound if exact else cert.value <= bound
    return ok, (f"{nl.matrix.name} ({nl.matrix.shape[0]} x {nl.matrix.shape[1]}): certified {kind} "
                f"{cert.value} (minor of size {len(cert.minors[0][0])} with exact determinant; decomposition with "
                f"d = {cert.decomposition.d if cert.decomposition else '?'} checked exactly); "
                f"{'claimed' if exact else 'bound'} {bound}")


def rank_kernel(r: int, loss: str, params: dict[str, Any], kind: str, bound: int, exact: bool) -> dict[str, Any]:
    """What ``rank_holds`` decides, as a statement the kernel recomputes from the matrix itself (its own
    elimination: the rank, or the affine dimension min_c rank(L - c J))."""
    nl = _named_loss(loss, r, tuple(sorted(params.items())))
    return nl.matrix.kernel_statement(rank=("rank" if kind == "rank" else "affine", "=" if exact else "<=", bound))


def rank_claim(id: str, loss: str, params: dict[str, Any], sizes: Sizes, location: str, quote: str, *,
               kind: str, bound: Callable[[int], int], exact: bool = False, statement: str,
               finding: Finding | None = None) -> Any:
    """Sections 4-7: "for the d-dimensional surrogate psi*": the certified rank or affine dimension
    of the loss matrix is at most (``exact``: equal to) ``bound(r)``; ``--certify`` has the kernel
    recompute it from the same matrix."""
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: rank_holds(r, loss, params, kind, bound(r), exact),
        kernel=lambda r: rank_kernel(r, loss, params, kind, bound(r), exact),
        describe=lambda r: {"r": r, **params},
        domain=f"the {loss} loss matrix (certified exact {kind})", cite=cite(location, quote),
        statement=statement, sizes=sizes, finding=finding,
    )
