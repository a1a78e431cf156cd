"""sympy: polynomial and rational identities.

Proved when lhs - rhs expands/cancels (or simplifies) to 0.  Otherwise exact random
rational points are tried: a point refutes only when the residual there is exactly a
non-zero rational, or when a rigorous interval enclosure excludes 0 (DESIGN.md, rule 2).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget, Outcome
from symcal.backends.translate import truth_at
from symcal.verdicts import Residual, Status, Witness

__all__ = ["NAME", "decide_identity", "residual_excludes_zero"]

NAME = "sympy"
RESIDUAL_SECONDS = 10.0


def residual_excludes_zero(value: sympy.Expr) -> bool | None:
    """True if ``value`` (a closed expression) is certainly non-zero, False if it is
    formally zero, None when undecided.

    Delegates to :func:`symcal.exact.sign`, the one zero test of symcal: 0 only for a formal
    zero (rational arithmetic, logs over a coprime base, exact algebraic test), non-zero only
    by exact evaluation or a rigorous interval enclosure (DESIGN.md, rule 2); bounded by
    ``RESIDUAL_SECONDS`` of CPU time, after which it is undecided."""
    from symcal.errors import InvalidInput
    from symcal.exact import CpuBudget, sign

    try:  # a budget in CPU seconds: the answer must not depend on the machine's load
        s = sign(value, deadline=CpuBudget(RESIDUAL_SECONDS))
    except InvalidInput:  # absurdly large: undecided, never a guess
        return None
    return s.nonzero


def _fits(s: sympy.Symbol, v: Fraction) -> bool:
    """``v`` respects the symbol's declared assumptions (positive, integer, ...)."""
    checks = (("is_positive", v > 0), ("is_nonnegative", v >= 0), ("is_negative", v < 0),
              ("is_nonpositive", v <= 0), ("is_nonzero", v != 0), ("is_zero", v == 0),
              ("is_integer", v.denominator == 1))
    return all(ok for attr, ok in checks if getattr(s, attr) is True)


def _points(symbols: list[sympy.Symbol], rng: random.Random, n: int) -> list[dict[sympy.Symbol, Fraction]]:
    """``n`` exact rational points, each value drawn within its symbol's assumptions (a point
    outside them, e.g. t = -2 for a positive t, would refute an identity that holds)."""
    pts: list[dict[sympy.Symbol, Fraction]] = []
    small = [Fraction(k, d) for k in range(-4, 5) for d in (1, 2, 3)]
    for _ in range(20 * n):  # bounded: contradictory assumptions simply give no points
        if len(pts) == n:
            break
        pt = {}
        for s in symbols:
            v = rng.choice(small) if rng.random() < 0.6 else Fraction(rng.randint(-50, 50), rng.randint(1, 7))
            for cand in (v, -v, Fraction(round(v)), -Fraction(round(v)), Fraction(1), Fraction(-1)):
                if _fits(s, cand):
                    v = cand
                    break
            pt[s] = v
        if all(_fits(s, v) for s, v in pt.items()):
            pts.append(pt)
    return pts


def decide_identity(lhs: Any, rhs: Any, conditions: Any, budget: Budget, scope: str) -> Outcome:
    lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    if isinstance(lhs, sympy.MatrixBase) or isinstance(rhs, sympy.MatrixBase):
        return _decide_matrix(sympy.Matrix(lhs), sympy.Matrix(rhs), conditions, budget, scope)
    diff = lhs - rhs
    r = sympy.cancel(sympy.expand(diff))
    if r == 0:
        return Outcome(Status.PROVED, scope, NAME, Residual("0", "expand + cancel"))
    from symcal.errors import InvalidInput
    from symcal.exact import sign

    try:  # the one zero test (DESIGN.md, rule 2): formal zero, or undecided
        formal = sign(r, deadline=budget)
    except InvalidInput as e:
        formal = None
        not_zero = f"the residual is too large to test ({e})"
    if formal is not None and formal.value == 0:
        return Outcome(Status.PROVED, scope, NAME, Residual("0", formal.reason))
    if formal is not None:
        not_zero = f"residual {sympy.sstr(r)[:120]} is not formally zero ({formal.reason})"
    conds = list(conditions) if conditions else []
    symbols = sorted(set(diff.free_symbols).union(*[getattr(c, "free_symbols", set()) for c in conds]), key=str)
    rng = random.Random(12345)
    tried = 0
    for pt in _points(symbols, rng, 60):
        if budget.expired():
            break
        if conds and not all(truth_at(c, pt) is True for c in conds):
            continue
        sub = {s: sympy.Rational(v.numerator, v.denominator) for s, v in pt.items()}
        try:
            val = diff.xreplace(sub)
            if val.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
                continue
        except (ZeroDivisionError, TypeError):
            continue
        if val.has(sympy.Float):  # never guess a rational for a float (floats are refused in claims)
            continue
        tried += 1
        nz = residual_excludes_zero(val)
        if nz:
            shown = val if val.is_Rational else sympy.N(val, 12)
            return Outcome(
                Status.REFUTED, scope, NAME,
                Witness(
                    {str(s): v for s, v in pt.items()}, rechecked=True,
                    detail=f"lhs - rhs = {shown} != 0 at this point",
                    found_by="exact rational test points",
                ),
            )
    return Outcome(
        Status.UNKNOWN, scope, NAME,
        reason=f"{not_zero}, and none of {tried} exact test points excluded 0",
    )


def _decide_matrix(lhs: sympy.Matrix, rhs: sympy.Matrix, conditions: Any, budget: Budget, scope: str) -> Outcome:
    """Entry-wise identity of two matrices (or vectors) of the same shape."""
    if lhs.shape != rhs.shape:
        return Outcome(Status.ERROR, scope, NAME, reason=f"shapes differ: {lhs.shape} vs {rhs.shape}")
    for idx in range(len(lhs)):
        out = decide_identity(lhs[idx], rhs[idx], conditions, budget, scope)
        if out.status is not Status.PROVED:
            if out.status is Status.REFUTED and isinstance(out.evidence, Witness):
                w = out.evidence
                out = Outcome(out.status, scope, NAME, Witness(w.values, True, f"entry {idx}: {w.detail}",
                                                               found_by=w.found_by))
            return out
    return Outcome(Status.PROVED, scope, NAME,
                   Residual("0 (every entry)", f"expand + cancel, entry-wise over {lhs.shape[0]}x{lhs.shape[1]}"))
