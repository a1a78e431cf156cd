"""Exact evaluation of rational sympy formulas at rational points, compiled once.

A ``finite_check`` formula is evaluated at thousands of cases; substituting into the sympy tree
and asking :func:`symcal.exact.zero.truth` each time costs about a millisecond a case.  When a
condition is built from rationals, symbols, ``+``, ``*``, integer powers, ``Piecewise``,
``Max``/``Min``/``Abs``, relations and the boolean connectives only, :func:`compile_condition`
turns it once into a closure that evaluates it with Python integers and
:class:`fractions.Fraction` -- exact, no rounding anywhere (a negative power goes through
``Fraction``, never ``int ** -n``).  Anything else (``exp``, ``log``, a root, an undefined function) is not
compiled, and the caller keeps the general path.  A division by zero raises
:class:`ZeroDivisionError`: the condition is undefined there, which the caller reports as
undecided, never as a value -- also inside a connective, whose operands are all evaluated (no
short circuit: ``Or(a >= 0, 1/a > 0)`` at a = 0 is undefined, as everywhere else in symcal).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

__all__ = ["compile_condition"]

Env = dict[Any, Fraction | int]
_REL = {sympy.Eq: operator.eq, sympy.Ne: operator.ne, sympy.Lt: operator.lt, sympy.Le: operator.le,
        sympy.Gt: operator.gt, sympy.Ge: operator.ge}


class _NotRational(Exception):
    pass


def _power(b: Fraction | int, n: int) -> Fraction | int:
    if n < 0:
        if b == 0:
            raise ZeroDivisionError("a negative power of zero")
        return Fraction(b) ** n  # never int ** -n, a float
    return b ** n


def _compile(e: Any) -> Callable[[Env], Any]:
    if e is sympy.true or e is sympy.false:
        v = bool(e)
        return lambda env: v
    if isinstance(e, sympy.Rational):
        q = int(e.p) if e.q == 1 else Fraction(int(e.p), int(e.q))  # ints where exact: much faster
        return lambda env: q
    if isinstance(e, sympy.Symbol):
        return lambda env: env[e]
    args = [_compile(a) for a in e.args] if not isinstance(e, sympy.Piecewise) else []
    if isinstance(e, sympy.Add):
        return lambda env: sum(f(env) for f in args)
    if isinstance(e, sympy.Mul):
        return lambda env: functools.reduce(operator.mul, (f(env) for f in args), 1)
    if isinstance(e, sympy.Pow):
        if not isinstance(e.exp, sympy.Integer):
            raise _NotRational(str(e))
        base, n = args[0], int(e.exp)
        return lambda env: _power(base(env), n)
    if isinstance(e, sympy.Max | sympy.Min):
        pick = max if isinstance(e, sympy.Max) else min
        return lambda env: pick(f(env) for f in args)
    if isinstance(e, sympy.Abs):
        return lambda env: abs(args[0](env))
    if isinstance(e, sympy.Piecewise):
        branches = [(_compile(ex), _compile(c)) for ex, c in e.args]

        def piecewise(env: Env) -> Any:
            for ex, c in branches:
                if c(env):
                    return ex(env)
            raise ZeroDivisionError("no branch of a Piecewise applies (undefined)")
        return piecewise
    for cls, op in _REL.items():
        if isinstance(e, cls):
            return lambda env, op=op: op(args[0](env), args[1](env))
    # every operand of a connective is evaluated (a list, never a short-circuiting generator): a
    # condition is defined only where each of its parts is, as symcal.exact.assumptions.definedness
    # and the solvers' queries read it, so And(a > 0, 1/a > 0) at a = 0 is undefined, not False
    if isinstance(e, sympy.And):
        return lambda env: all([f(env) for f in args])
    if isinstance(e, sympy.Or):
        return lambda env: any([f(env) for f in args])
    if isinstance(e, sympy.Not):
        return lambda env: not args[0](env)
    if isinstance(e, sympy.Implies):
        return lambda env: (lambda a, b: (not a) or b)(args[0](env), args[1](env))
    raise _NotRational(type(e).__name__)


@functools.lru_cache(maxsize=1024)
def compile_condition(c: Any) -> Callable[[Env], Any] | None:
    """``c`` as an exact evaluator of its symbols' Fraction values, or None when it has a part
    that is not rational (the caller then decides it the general way)."""
    try:
        return _compile(c)
    except _NotRational:
        return None
