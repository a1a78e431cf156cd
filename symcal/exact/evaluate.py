"""The exact evaluator that re-checks solver answers: exact values substituted into a claim's own
sympy expressions, truth decided by the one sign / zero test (:func:`symcal.exact.truth`).  It never
touches a solver, so a counterexample is confirmed independently of the encoding (ARCHITECTURE.md,
rule 2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

__all__ = ["POINT_SECONDS", "UNDECIDED", "evaluate_exact", "truth_at"]

POINT_SECONDS = 10.0  # CPU seconds to decide a relation at one exact point

UNDECIDED = object()


def evaluate_exact(e: Any, values: dict[sympy.Symbol, Any]) -> Any:
    """Substitute exact values (Fractions, or exact sympy numbers such as an algebraic
    ``CRootOf``) and evaluate; returns a sympy number or truth value."""
    sub = {s: v if isinstance(v, sympy.Basic) else sympy.Rational(v.numerator, v.denominator)
           for s, v in values.items()}
    if isinstance(e, bool):
        return sympy.true if e else sympy.false
    return sympy.sympify(e).xreplace(sub)


def truth_at(e: Any, values: dict[sympy.Symbol, Fraction]) -> Any:
    """True/False when the exact evaluation decides ``e``; UNDECIDED otherwise (including
    points where an expression is undefined, e.g. a division by zero)."""
    try:
        return _truth_at(e, values)
    except (TypeError, ValueError, ZeroDivisionError):
        return UNDECIDED


def _truth_at(e: Any, values: dict[sympy.Symbol, Fraction]) -> Any:
    r = evaluate_exact(e, values)
    if isinstance(r, sympy.Basic) and r.has(sympy.zoo, sympy.nan):
        return UNDECIDED
    if r is sympy.true:
        return True
    if r is sympy.false:
        return False
    from symcal.exact.zero import CpuBudget, truth

    t = truth(r, deadline=CpuBudget(POINT_SECONDS))  # the one zero / sign test (ARCHITECTURE.md, rule 2)
    return UNDECIDED if t is None else t
