"""Rigorous enclosures of closed real expressions (mpmath ``iv``: every constant, operation
and elementary function rounded outward).

:func:`enclose` evaluates a sympy expression without free symbols (or with symbols bound to
intervals in ``env``) at a given working precision and returns an mpmath interval that
certainly contains its value, or raises :class:`Unenclosable` (an unsupported function, a
possibly undefined operation such as ``log`` of an interval reaching 0, a non-finite
result, or an ``exp`` whose argument is beyond :data:`MAX_EXP_ARG`: ``exp(exp(exp(10)))``
would need more bits than there is time for).  :func:`enclosure` gives the endpoints as
exact Fractions.

The sign and zero tests live in :mod:`symcal.exact.zero`; this module only encloses.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import sympy

__all__ = ["Unenclosable", "MAX_EXP_ARG", "enclose", "enclosure", "sign_of", "endpoints", "within", "show"]

# |x| beyond this in exp(x): the result has about 190,000 binary digits before the point
MAX_EXP_ARG = 2**17
MAX_INT_POWER = 100_000


class Unenclosable(Exception):
    """No enclosure: unsupported, possibly undefined, not finite or too large."""


def _iv() -> Any:
    from mpmath import iv

    return iv


def _L() -> Any:
    import mpmath.libmp as L

    return L


@contextlib.contextmanager
def _precision(bits: int) -> Iterator[Any]:
    iv = _iv()
    old = iv.prec
    iv.prec = bits
    try:
        yield iv
    finally:
        iv.prec = old


def _finite(x: Any) -> bool:
    L = _L()
    return not any(t in (L.fnan, L.finf, L.fninf) for t in x._mpi_)


def sign_of(x: Any) -> int | None:
    """+1 if the interval lies in (0, oo), -1 if in (-oo, 0), else None."""
    L = _L()
    lo, hi = x._mpi_
    if L.mpf_sign(lo) > 0:
        return 1
    if L.mpf_sign(hi) < 0:
        return -1
    return None


def endpoints(x: Any) -> tuple[Fraction, Fraction]:
    """The exact binary endpoints of an interval, as Fractions."""
    L = _L()
    (p1, q1), (p2, q2) = L.to_rational(x._mpi_[0]), L.to_rational(x._mpi_[1])
    return Fraction(p1, q1), Fraction(p2, q2)


def within(x: Any, bound: Fraction) -> bool:
    """Does the interval lie in [-bound, bound]?  (exact comparison of the endpoints)"""
    lo, hi = endpoints(x)
    return -bound <= lo and hi <= bound


def show(x: Any) -> str:
    import mpmath

    return f"[{mpmath.nstr(mpmath.mpf(x._mpi_[0]), 8)}, {mpmath.nstr(mpmath.mpf(x._mpi_[1]), 8)}]"


def _rational(iv: Any, p: int, q: int) -> Any:
    num = iv.mpf(p)
    return num if q == 1 else num / iv.mpf(q)


def _positive_base(b: Any, what: str) -> None:
    if _L().mpf_sign(b._mpi_[0]) <= 0:
        raise Unenclosable(f"{what} of a value not shown to be positive")


def enclose(expr: Any, bits: int, env: Mapping[sympy.Symbol, Any] | None = None) -> Any:
    """An mpmath interval containing the value of ``expr`` (a sympy expression), computed at
    ``bits`` bits; symbols are looked up in ``env`` (intervals).  Raises :class:`Unenclosable`."""
    env = env or {}
    memo: dict[sympy.Basic, Any] = {}

    def ev(e: sympy.Basic) -> Any:
        if e in memo:
            return memo[e]
        out = _eval(e)
        if not _finite(out):
            raise Unenclosable(f"the enclosure of {sympy.sstr(e)[:60]} is not finite")
        memo[e] = out
        return out

    def _eval(e: sympy.Basic) -> Any:
        if isinstance(e, sympy.Rational):
            return _rational(iv, int(e.p), int(e.q))
        if isinstance(e, sympy.Float):
            r = sympy.Rational(e)  # the float's exact binary value
            return _rational(iv, int(r.p), int(r.q))
        if isinstance(e, sympy.Symbol):
            if e in env:
                return env[e]
            raise Unenclosable(f"the symbol {e} has no value")
        if e is sympy.pi:
            return iv.pi
        if e is sympy.E:
            return iv.e
        if isinstance(e, sympy.Add):
            out = ev(e.args[0])
            for a in e.args[1:]:
                out = out + ev(a)
            return out
        if isinstance(e, sympy.Mul):
            out = ev(e.args[0])
            for a in e.args[1:]:
                out = out * ev(a)
            return out
        if isinstance(e, sympy.exp):
            a = ev(e.args[0])
            lo, hi = endpoints(a)
            if max(abs(lo), abs(hi)) > MAX_EXP_ARG:
                raise Unenclosable(f"exp of an argument beyond {MAX_EXP_ARG} in absolute value")
            return iv.exp(a)
        if isinstance(e, sympy.log):
            if len(e.args) != 1:
                raise Unenclosable("log with a base")
            a = ev(e.args[0])
            _positive_base(a, "log")
            return iv.log(a)
        if isinstance(e, sympy.sin | sympy.cos):
            a = ev(e.args[0])
            lo, hi = endpoints(a)
            if max(abs(lo), abs(hi)) > MAX_EXP_ARG:
                raise Unenclosable(f"sin/cos of an argument beyond {MAX_EXP_ARG} in absolute value")
            return iv.sin(a) if isinstance(e, sympy.sin) else iv.cos(a)
        if isinstance(e, sympy.Abs):
            return abs(ev(e.args[0]))
        if isinstance(e, sympy.Pow):
            base, ex = e.args
            if base is sympy.E:
                return ev(sympy.exp(ex, evaluate=False))
            b = ev(base)
            if isinstance(ex, sympy.Integer):
                n = int(ex)
                if abs(n) > MAX_INT_POWER:
                    raise Unenclosable(f"an integer power beyond {MAX_INT_POWER}")
                if n >= 0:
                    return b**n
                d = b ** (-n)
                if sign_of(d) is None:
                    raise Unenclosable("division by an interval containing 0")
                return 1 / d
            if isinstance(ex, sympy.Rational) and int(ex.q) == 2:
                p = int(ex.p)
                if _L().mpf_sign(b._mpi_[0]) < 0 or (p < 0 and _L().mpf_sign(b._mpi_[0]) <= 0):
                    raise Unenclosable("square root of a value not shown to be >= 0")
                r = iv.sqrt(b)
                return r**p if p > 0 else 1 / (r ** (-p))
            _positive_base(b, "a non-integer power")
            x = ev(ex) * iv.log(b)
            lo, hi = endpoints(x)
            if max(abs(lo), abs(hi)) > MAX_EXP_ARG:
                raise Unenclosable(f"a power whose logarithm is beyond {MAX_EXP_ARG}")
            return iv.exp(x)
        raise Unenclosable(f"{type(e).__name__} is not supported (in {sympy.sstr(e)[:60]})")

    with _precision(bits) as iv:
        try:
            return ev(sympy.sympify(expr))
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as exc:
            raise Unenclosable(f"{type(exc).__name__}: {exc}") from None


def enclosure(expr: Any, *, precision: int = 200) -> tuple[Fraction, Fraction]:
    """A rigorous enclosure ``(lo, hi)`` of a closed expression, as exact Fractions."""
    return endpoints(enclose(expr, precision))
