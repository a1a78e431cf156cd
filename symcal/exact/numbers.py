"""Exact numbers: the one place where user values become Fractions.

Floats are refused where an exact value is needed (ARCHITECTURE.md, *Conventions*, 4), with the fix in
the message; NaN and infinities are refused everywhere.  :func:`expr_str` prints a sympy
expression also when it holds integers beyond Python's int-to-str digit limit.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from numbers import Rational
from typing import Any

import sympy

from symcal.errors import invalid, shown

__all__ = ["to_fraction", "fraction_str", "to_sympy_rational", "expr_str", "rational_hint"]

_MAX_DECIMAL_EXPONENT = 10_000


def _float_hint(value: float) -> str:
    """How to write the number a float was typed as, exactly: the shortest decimal that reads back as the
    same float (``repr``), so 0.1 -> ``Fraction(1, 10)``, 1e-05 -> ``Fraction(1, 100000)`` -- never a
    nearby fraction of small denominator (0.1234 is not 106/859) -- and ``Fraction('1e+308')`` when the
    numbers would be long."""
    text = repr(float(value))  # numpy's float64 reprs as np.float64(0.1)
    typed = Fraction(text)
    if max(len(str(abs(typed.numerator))), len(str(typed.denominator))) > 30:
        return f"Fraction({text!r})"
    return f"Fraction({typed.numerator}, {typed.denominator})"


def rational_hint(f: Any) -> str:
    """How to write the float ``f`` exactly: ``sympy.Rational(1, 10)`` for 0.1 (``sympy.Rational(1/10)``
    would be the double nearest 0.1, not 1/10)."""
    try:
        r = sympy.Rational(sympy.nsimplify(f, rational=True))
    except (TypeError, ValueError, ArithmeticError):
        return "sympy.Rational(p, q)"
    return f"sympy.Rational({r.p}, {r.q})" if r.q != 1 else f"sympy.Integer({r.p})"


def to_fraction(value: Any, param: str = "value", *, allow_float: bool = False) -> Fraction:
    """Turn ``value`` into an exact :class:`Fraction`.

    Accepts ints, Fractions, sympy Rationals and strings such as ``"3/10"``.  A float is
    refused unless ``allow_float`` (then it is converted exactly, never rounded).
    """
    if isinstance(value, bool):
        raise invalid(param, value, "a number, not a bool")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, sympy.Basic):
        if value.is_Rational:
            return Fraction(int(value.p), int(value.q))
        raise invalid(param, value, "an exact rational number")
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise invalid(param, value, "a finite number")
        if not allow_float:
            raise invalid(param, value, "an exact number (int, Fraction or 'p/q' string), not a float",
                          f"use {_float_hint(value)}")
        return Fraction(value)
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii():  # Python's Fraction reads '٣' or '３' as 3: refuse, do not guess
            raise invalid(param, value, "a number written with ASCII digits such as 3, -2 or 3/10")
        if text.lower() in {"nan", "inf", "-inf", "+inf", "infinity", "-infinity"}:
            raise invalid(param, value, "a finite number")
        exponent = re.search(r"[eE]\s*([+-]?\d+)\s*$", text)
        if exponent and abs(int(exponent.group(1)[:7])) > _MAX_DECIMAL_EXPONENT:  # 1e999999999 never finishes
            raise invalid(param, value, f"a number whose decimal exponent is at most {_MAX_DECIMAL_EXPONENT}")
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise invalid(param, value, "a number such as 3, -2 or 3/10") from None
    # numpy scalars and the like
    try:
        import numpy as np

        if isinstance(value, np.integer):
            return Fraction(int(value))
        if isinstance(value, np.floating):
            return to_fraction(float(value), param, allow_float=allow_float)
    except ImportError:  # pragma: no cover - numpy is a base dependency
        pass
    raise invalid(param, value, "a number (int, Fraction or 'p/q' string)")


def fraction_str(x: Fraction | int) -> str:
    """Serialise an exact number the way symcal prints it: ``"3"``, ``"-1/3"``."""
    x = Fraction(x) if isinstance(x, int | Fraction) else to_fraction(x, "x")
    num, den = _int_str(x.numerator), _int_str(x.denominator)
    return num if x.denominator == 1 else f"{num}/{den}"


def _int_str(n: int) -> str:
    """``str(n)``, also beyond Python's int-to-str digit limit (exact digits via decimal)."""
    try:
        return str(n)
    except ValueError:
        import decimal

        return str(decimal.Decimal(n))


def to_sympy_rational(x: Fraction | int) -> sympy.Rational:
    """``x`` (an exact number, see :func:`to_fraction`) as a ``sympy.Rational``."""
    x = Fraction(x) if isinstance(x, int | Fraction) else to_fraction(x, "x")
    return sympy.Rational(x.numerator, x.denominator)


_MAX_SHOWN_DIGITS = 4000  # below Python's default int-to-str limit (4300)


def expr_str(expr: Any) -> str:
    """``sympy.sstr(expr)``; an integer too long to print in decimal (beyond Python's
    int-to-str limit) is shown as ``<integer of about N digits>`` instead of raising.  A string
    is returned as it is, any other object as its ``repr``: showing a value never fails."""
    if isinstance(expr, sympy.Basic):
        e = expr
    elif isinstance(expr, int | float | Fraction):  # bool is an int: True prints as True
        e = sympy.sympify(expr)
    elif isinstance(expr, str):  # shown as given: parsing it could take without end ("9**9**9**9")
        return expr
    else:  # anything else (a message may show any value): its repr, never an error
        return shown(expr, width=10**6)
    try:
        return sympy.sstr(e)
    except ValueError:
        pass
    big: dict[sympy.Basic, sympy.Basic] = {}
    for r in e.atoms(sympy.Rational):
        p, q = int(r.p), int(r.q)
        if max(abs(p), q).bit_length() > _MAX_SHOWN_DIGITS * 3:  # 3 bits < one decimal digit
            big[r] = _placeholder(p) / _placeholder(q) if q != 1 else _placeholder(p)
    return sympy.sstr(e.xreplace(big))


def _placeholder(n: int) -> sympy.Basic:
    if n.bit_length() <= _MAX_SHOWN_DIGITS * 3:
        return sympy.Integer(n)
    digits = int(abs(n).bit_length() * 0.30103) + 1
    sym = sympy.Symbol(f"<integer of about {digits} digits>")
    return -sym if n < 0 else sym
