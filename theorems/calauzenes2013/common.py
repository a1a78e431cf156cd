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
