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
    rng = random.Random(12345)
    tried = 0
    for shown_functions, inst_diff, inst_conds in _instantiated(diff, conds, rng):
        out, n = _try_points(inst_diff, inst_conds, shown_functions, rng, budget, scope)
        tried += n
        if out is not None:
            return out
    return Outcome(
        Status.UNKNOWN, scope, NAME,
        reason=f"{not_zero}, and none of {tried} exact test points excluded 0",
    )


def _applied_functions(exprs: list[Any]) -> dict[Any, int] | None:
    """The undefined functions applied in ``exprs`` with their arities; None when one is
    applied with two different numbers of arguments."""
    from sympy.core.function import AppliedUndef

    out: dict[Any, int] = {}
    for e in exprs:
        for a in getattr(e, "atoms", lambda *_: set())(AppliedUndef):
            if out.setdefault(a.func, len(a.args)) != len(a.args):
                return None
    return out


def _polynomial_function(arity: int, rng: random.Random) -> sympy.Lambda:
    """A polynomial of total degree 3 in ``arity`` arguments with seeded non-zero rational
    coefficients, one per monomial (so it is neither symmetric nor affine): a concrete real
    function, differentiable everywhere."""
    import itertools

    xs = sympy.symbols(f"u1:{arity + 1}") if arity else ()
    body = sympy.Integer(0)
    for degree in range(4):
        for combo in itertools.combinations_with_replacement(range(arity), degree):
            c = sympy.Rational(rng.choice([-1, 1]) * rng.randint(1, 9), rng.randint(1, 5))
            body += c * sympy.Mul(*[xs[i] for i in combo])
    return sympy.Lambda(xs, body)


def _instantiated(diff: Any, conds: list[Any], rng: random.Random) -> Any:
    """(functions shown, residual, conditions) to test at exact points: the residual itself, or,
    when it applies undefined functions (an identity claimed for every function ``phi``), the
    residual with each of them replaced by a concrete polynomial -- three seeded choices.  One
    function at which the identity fails at one point refutes an identity claimed for all
    functions; derivatives of the instantiated functions are evaluated (``doit``)."""
    funcs = _applied_functions([diff, *conds])
    if not funcs:
        yield {}, diff, conds
        return
    for _ in range(3):
        lams = {f: _polynomial_function(arity, rng) for f, arity in sorted(funcs.items(), key=lambda kv: str(kv[0]))}

        def put(e: Any, lams: dict[Any, Any] = lams) -> Any:
            for f, lam in lams.items():
                e = e.replace(f, lam)
            return e.doit() if e.has(sympy.Derivative, sympy.Subs) else e
        yield {str(f): f"Lambda({lam.variables}, {sympy.sstr(lam.expr)})" for f, lam in lams.items()}, put(diff), \
            [put(c) for c in conds]


def _try_points(diff: Any, conds: list[Any], functions: dict[str, str], rng: random.Random, budget: Budget,
                scope: str) -> tuple[Outcome | None, int]:
    """A refutation at one of 60 exact rational points (the residual there certainly non-zero),
    or None; and how many points were evaluated."""
    from sympy.core.function import AppliedUndef

    symbols = sorted(set(diff.free_symbols).union(*[getattr(c, "free_symbols", set()) for c in conds]), key=str)
    tried = 0
    if diff.has(AppliedUndef):
        return None, 0
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
                    {**{str(s): v for s, v in pt.items()}, **functions}, rechecked=True,
                    detail=f"lhs - rhs = {shown} != 0 at this point",
                    found_by="exact rational test points" + (
                        ", each undefined function replaced by a concrete polynomial" if functions else ""),
                ),
            ), tried
    return None, tried


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
