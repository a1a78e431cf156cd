"""Logical connectives that work on three kinds of value at once.

Node claims (see :func:`symcal.claims.node_implies`) are written as Python functions of an
edge-weight accessor.  symcal evaluates the *same* function three ways: with exact
Fractions (the independent re-check of every counterexample), with z3 terms (the solver
query) and with sympy symbols (the printed statement and the all-size local lemma).  These
connectives dispatch on what they are given, so one definition serves all three.
"""

from __future__ import annotations

from typing import Any

import sympy

__all__ = ["Implies", "And", "Or", "Not", "Iff"]


def _kind(args: tuple[Any, ...]) -> str:
    """Which of the three kinds of truth value ``args`` are; anything else is refused in one line."""
    for a in args:
        if isinstance(a, bool) or type(a).__module__.startswith("z3"):
            continue
        if isinstance(a, sympy.Basic) and (a.is_Relational or a.is_Boolean or a.is_Symbol):
            continue
        from symcal.errors import wrong_type

        raise wrong_type("argument", a, "a truth value: True/False, a sympy relation or a z3 Boolean")
    for a in args:
        mod = type(a).__module__
        if mod.startswith("z3"):
            return "z3"
    for a in args:
        if isinstance(a, sympy.Basic):
            return "sympy"
    return "py"


def _bool(x: Any) -> bool:
    if isinstance(x, bool):
        return x
    if x is sympy.true or x is sympy.false:
        return bool(x)
    from symcal.errors import wrong_type

    raise wrong_type("argument", x, "a truth value: True/False, a sympy relation or a z3 Boolean")


def _connective(args: tuple[Any, ...], name: str, unit: bool) -> Any:
    """``And`` (``unit`` True) or ``Or`` (``unit`` False) of ``args`` in their kind: z3's (``unit``
    when there are none), sympy's, or Python's ``all`` / ``any``."""
    kind = _kind(args)
    if kind == "z3":
        import z3

        return getattr(z3, name)(*args) if args else z3.BoolVal(unit)
    if kind == "sympy":
        return getattr(sympy, name)(*args)
    return (all if unit else any)(_bool(a) for a in args)


def And(*args: Any) -> Any:
    """Conjunction of bools, z3 Booleans or sympy relations."""
    return _connective(args, "And", True)


def Or(*args: Any) -> Any:
    """Disjunction of bools, z3 Booleans or sympy relations."""
    return _connective(args, "Or", False)


def Not(a: Any) -> Any:
    kind = _kind((a,))
    if kind == "z3":
        import z3

        return z3.Not(a)
    if kind == "sympy":
        return sympy.Not(a)
    return not _bool(a)


def Implies(p: Any, q: Any) -> Any:
    """p -> q."""
    kind = _kind((p, q))
    if kind == "z3":
        import z3

        return z3.Implies(_z3ify(p), _z3ify(q))
    if kind == "sympy":
        return sympy.Implies(p, q)
    return (not _bool(p)) or _bool(q)


def Iff(p: Any, q: Any) -> Any:
    """p <-> q."""
    kind = _kind((p, q))
    if kind == "z3":

        return _z3ify(p) == _z3ify(q)
    if kind == "sympy":
        return sympy.Equivalent(p, q)
    return _bool(p) == _bool(q)


def _z3ify(x: Any) -> Any:
    import z3

    if isinstance(x, bool):
        return z3.BoolVal(x)
    return x
