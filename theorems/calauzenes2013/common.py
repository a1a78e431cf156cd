"""What every section of Calauzènes, Usunier & Gallinari (2013) shares: the citation helper, exact
constants, the twin-id rule, and the GPPM in expectation (R(Delta, sigma) - b = sum_k phi(k)
U_sigma(k)) with the small exact grids of phi and U that the exhaustive checks range over."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation
from symcal.ranking.measures import arg_sort

PAPER = "calauzenes2013"
F = Fraction
ONE = Fraction(1)
TWO, THREE = Fraction(2), Fraction(3)
QUARTER = sympy.Rational(1, 4)


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


def labels(n: int, grades: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(grades + 1), repeat=n)


def phis(n: int, *, strict: bool = False, top: int = 3) -> list[tuple[int, ...]]:
    """Every non-increasing phi in {0..top}^n with phi(1) > 0 (strictly decreasing if asked)."""
    out = []
    for p in itertools.product(range(top + 1), repeat=n):
        if p[0] > 0 and all(p[k] > p[k + 1] if strict else p[k] >= p[k + 1] for k in range(n - 1)):
            out.append(p)
    return out


def utilities(n: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(3), repeat=n))


def perf(phi: tuple[Any, ...], U: tuple[Any, ...], sigma: tuple[int, ...]) -> Any:
    """R(Delta, sigma) - b = sum_k phi(k) U_sigma(k) (the GPPM in expectation)."""
    return sum(phi[k] * U[sigma[k] - 1] for k in range(len(sigma)))


def perf_scores(phi: tuple[int, ...], U: tuple[Any, ...], s: tuple[int, ...]) -> Fraction:
    sig = arg_sort(s)
    return F(sum(perf(phi, U, t) for t in sig), len(sig))


def best(phi: tuple[int, ...], U: tuple[Any, ...]) -> Any:
    return perf(phi, U, arg_sort(U)[0])


def matchings(pairs: list[tuple[int, ...]]) -> Iterator[list[tuple[int, ...]]]:
    """Every set of pairwise disjoint pairs (condition 1 of Lemma 4.1), the empty set included;
    a pair is (i, j, ...): only its first two entries are items."""
    if not pairs:
        yield []
        return
    first, rest = pairs[0], pairs[1:]
    yield from matchings(rest)
    for m in matchings([p for p in rest if not {p[0], p[1]} & {first[0], first[1]}]):
        yield [first] + m


def reals(name: str, n: int) -> tuple[Any, ...]:
    """n real sympy symbols name1..name<n>."""
    return tuple(sympy.symbols(f"{name}1:{n + 1}", real=True))


def non_increasing(xs: tuple[Any, ...] | list[Any]) -> list[Any]:
    """x_1 >= x_2 >= ... >= x_n as a list of relations (phi of a GPPM; U sorted by nu = id)."""
    return [xs[k] >= xs[k + 1] for k in range(len(xs) - 1)]


def swap_positions(sigma: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    """sigma o tau_ab: the items at ranks a and b exchange their places."""
    s = list(sigma)
    s[a - 1], s[b - 1] = s[b - 1], s[a - 1]
    return tuple(s)


# ---------------------------------------------------------------------------------------
# A case's inputs as data for finite_check(formula=...): the measures are written as sympy
# expressions of these symbols, so that symcal and the kernel evaluate the formulas themselves
# at the case's values (nothing is computed in Python but the 0/1 entries of the data).
# ---------------------------------------------------------------------------------------


def label_symbols(name: str, n: int) -> tuple[Any, ...]:
    """The labels y_1..y_n of a case as symbols name1..name<n> (plain symbols: their values are the data)."""
    return tuple(sympy.Symbol(f"{name}{i}") for i in range(1, n + 1))


def rank_matrix(name: str, n: int) -> tuple[tuple[Any, ...], ...]:
    """A ranking sigma as its permutation matrix of symbols: P[i-1][r-1] (named name_i_r) is 1 when item i
    is at rank r (sigma(r) = i), else 0."""
    return tuple(tuple(sympy.Symbol(f"{name}_{i}_{r}") for r in range(1, n + 1)) for i in range(1, n + 1))


def ranking_data(P: tuple[tuple[Any, ...], ...], sigma: tuple[int, ...]) -> dict[Any, int]:
    """The values of ``rank_matrix`` symbols for the ranking sigma (items in rank order)."""
    return {P[i - 1][r - 1]: int(sigma[r - 1] == i) for i in range(1, len(sigma) + 1) for r in range(1, len(sigma) + 1)}


def position_symbols(name: str, n: int) -> tuple[Any, ...]:
    """A ranking sigma as the positions of its items: symbol name<i> is sigma^-1(i), the rank of item i."""
    return tuple(sympy.Symbol(f"{name}{i}") for i in range(1, n + 1))


def positions_data(S: tuple[Any, ...], sigma: tuple[int, ...]) -> dict[Any, int]:
    """The values of ``position_symbols`` for the ranking sigma (items in rank order)."""
    return {S[item - 1]: r for r, item in enumerate(sigma, start=1)}


def label_data(Y: tuple[Any, ...], y: tuple[Any, ...]) -> dict[Any, Any]:
    return dict(zip(Y, y, strict=True))


def at_rank(x: tuple[Any, ...], P: tuple[tuple[Any, ...], ...], r: int) -> Any:
    """x_sigma(r) (r 1-based) = sum_i x_i [sigma(r) = i], read off the permutation matrix."""
    return sympy.Add(*[x[i] * P[i][r - 1] for i in range(len(x))])


def position(P: tuple[tuple[Any, ...], ...], i: int) -> Any:
    """sigma^-1(i) (i 1-based) = sum_r r [sigma(r) = i]."""
    return sympy.Add(*[r * P[i - 1][r - 1] for r in range(1, len(P) + 1)])


def indicator(cond: Any) -> Any:
    """1{cond} as a Piecewise (evaluated by symcal and by the kernel at the case's values)."""
    return sympy.Piecewise((1, cond), (0, True))


def gppm_expr(phi: Any, u: tuple[Any, ...], b: Any, S: tuple[Any, ...]) -> Any:
    """Definition 2.1, r(y, sigma) = b(y) + sum_k phi(k) u_sigma(k)(y), summed over the items (k = sigma^-1(i)):
    b(y) + sum_i phi(s_i) u_i(y) with s_i the position symbols, phi a function of the rank."""
    return b + sympy.Add(*[phi(s) * ui for s, ui in zip(S, u, strict=True)])
