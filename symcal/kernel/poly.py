"""Polynomials with exact rational coefficients, and quotients of them.

A :class:`Poly` maps monomials to non-zero Fractions; a monomial is a sorted tuple of ``(variable,
exponent)`` pairs (``()`` is the constant monomial).  Nothing here rounds, simplifies heuristically
or calls out: sums and products are computed term by term.

Serial form (JSON): a list of ``[coefficient, [[variable, exponent], ...]]`` with the coefficient a
string ``"p/q"``, e.g. ``x - y/2 + 3`` is ``[["1", [["x", 1]]], ["-1/2", [["y", 1]]], ["3", []]]``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

__all__ = ["Poly", "RatFunc", "frac", "frac_str"]

Monomial = tuple[tuple[str, int], ...]


def frac(x: Any) -> Fraction:
    """An exact number from a certificate: int, Fraction or a string "p/q" (never a float)."""
    if isinstance(x, int | Fraction | str) and not isinstance(x, bool):
        return Fraction(x)
    raise ValueError(f"{x!r} is not an exact number")


def frac_str(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _mono_mul(a: Monomial, b: Monomial) -> Monomial:
    if not a or not b:
        return a or b
    d = dict(a)
    for v, e in b:
        d[v] = d.get(v, 0) + e
    return tuple(sorted(d.items()))


class Poly:
    """An exact polynomial; immutable by convention."""

    __slots__ = ("terms",)

    def __init__(self, terms: dict[Monomial, Fraction] | None = None) -> None:
        self.terms = {m: c for m, c in (terms or {}).items() if c != 0}

    @staticmethod
    def const(c: Any) -> Poly:
        return Poly({(): Fraction(c)})

    @staticmethod
    def var(name: str) -> Poly:
        return Poly({((name, 1),): Fraction(1)})

    def __add__(self, other: Poly) -> Poly:
        out = dict(self.terms)
        for m, c in other.terms.items():
            out[m] = out.get(m, Fraction(0)) + c
        return Poly(out)

    def __neg__(self) -> Poly:
        return Poly({m: -c for m, c in self.terms.items()})

    def __sub__(self, other: Poly) -> Poly:
        return self + (-other)

    def __mul__(self, other: Poly) -> Poly:
        out: dict[Monomial, Fraction] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in other.terms.items():
                m = _mono_mul(m1, m2)
                out[m] = out.get(m, Fraction(0)) + c1 * c2
        return Poly(out)

    def scale(self, c: Fraction) -> Poly:
        return Poly({m: c * v for m, v in self.terms.items()})

    def power(self, n: int) -> Poly:
        if n < 0:
            raise ValueError("a polynomial has no negative powers")
        if n == 0:
            return Poly.const(1)
        half = self.power(n // 2)  # by squaring: (^ 2 1000000) is quick
        return half * half * self if n % 2 else half * half

    def is_zero(self) -> bool:
        return not self.terms

    def constant(self) -> Fraction | None:
        """The value when the polynomial is a constant, else None."""
        return self.terms.get((), Fraction(0)) if self.terms.keys() <= {()} else None

    def degree(self) -> int:
        return max((sum(e for _, e in m) for m in self.terms), default=0)

    def key(self) -> tuple[tuple[Monomial, Fraction], ...]:
        """A hashable canonical form (equal polynomials have equal keys)."""
        return tuple(sorted(self.terms.items()))

    def leading(self) -> Fraction | None:
        """The coefficient of the first non-constant monomial in sorted order (None if constant)."""
        return next((c for m, c in sorted(self.terms.items()) if m), None)

    def at(self, point: dict[str, Fraction]) -> Fraction:
        return sum((c * math.prod(point[v] ** e for v, e in m) for m, c in self.terms.items()), Fraction(0))

    def to_json(self) -> list[Any]:
        return [[frac_str(c), [[v, e] for v, e in m]] for m, c in sorted(self.terms.items())]

    @staticmethod
    def from_json(data: Any) -> Poly:
        if not isinstance(data, list):
            raise ValueError(f"a polynomial is a list of [coefficient, monomial], not {type(data).__name__}")
        out = Poly()
        for item in data:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], list)):
                raise ValueError(f"malformed polynomial term {item!r}")
            mono: dict[str, int] = {}
            for pair in item[1]:
                if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                        and isinstance(pair[1], int) and not isinstance(pair[1], bool) and pair[1] > 0):
                    raise ValueError(f"malformed monomial factor {pair!r}")
                mono[pair[0]] = mono.get(pair[0], 0) + pair[1]
            out = out + Poly({tuple(sorted(mono.items())): frac(item[0])})
        return out

    def __repr__(self) -> str:
        return " + ".join(frac_str(c) + "".join(f"*{v}" if e == 1 else f"*{v}^{e}" for v, e in m)
                          for m, c in sorted(self.terms.items())) or "0"


class RatFunc:
    """num / den with den a non-zero polynomial (not reduced: no gcd is ever taken)."""

    __slots__ = ("num", "den")

    def __init__(self, num: Poly, den: Poly | None = None) -> None:
        den = den if den is not None else Poly.const(1)
        if den.is_zero():
            raise ZeroDivisionError("a denominator is the zero polynomial")
        self.num, self.den = num, den

    def __add__(self, other: RatFunc) -> RatFunc:
        if self.den.key() == other.den.key():
            return RatFunc(self.num + other.num, self.den)
        return RatFunc(self.num * other.den + other.num * self.den, self.den * other.den)

    def __neg__(self) -> RatFunc:
        return RatFunc(-self.num, self.den)

    def __sub__(self, other: RatFunc) -> RatFunc:
        return self + (-other)

    def __mul__(self, other: RatFunc) -> RatFunc:
        return RatFunc(self.num * other.num, self.den * other.den)

    def inverse(self) -> RatFunc:
        return RatFunc(self.den, self.num)  # raises when num is the zero polynomial

    def power(self, n: int) -> RatFunc:
        r = RatFunc(self.num.power(abs(n)), self.den.power(abs(n)))
        return r if n >= 0 else r.inverse()
