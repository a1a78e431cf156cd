"""sympy: polynomial and rational identities.

Proved when lhs - rhs expands/cancels (or simplifies) to 0.  Otherwise exact random
rational points are tried: a point refutes only when the residual there is exactly a
non-zero rational, or when a rigorous interval enclosure excludes 0 (ARCHITECTURE.md, rule 2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget, Outcome
from symcal.backends.translate import (
    assumptions_hold,
    check_symbols,
    defined_at,
    definedness,
    domain_text,
    exact_scope,
    symbol_domain,
    truth_at,
)
from symcal.exact.assumptions import where_defined
from symcal.verdicts import Residual, Status, Witness

__all__ = ["NAME", "decide_identity", "residual_excludes_zero"]

NAME = "sympy"
RESIDUAL_SECONDS = 10.0


def residual_excludes_zero(value: sympy.Expr) -> bool | None:
    """True if ``value`` (a closed expression) is certainly non-zero, False if it is
    formally zero, None when undecided.

    Delegates to :func:`symcal.exact.sign`, the one zero test of symcal: 0 only for a formal
    zero (rational arithmetic, logs over a coprime base, exact algebraic test), non-zero only
    by exact evaluation or a rigorous interval enclosure (ARCHITECTURE.md, rule 2); bounded by
    ``RESIDUAL_SECONDS`` of CPU time, after which it is undecided."""
    from symcal.errors import InvalidInput
    from symcal.exact import CpuBudget, sign

    try:  # a budget in CPU seconds: the answer must not depend on the machine's load
        s = sign(value, deadline=CpuBudget(RESIDUAL_SECONDS))
    except InvalidInput:  # absurdly large: undecided, never a guess
        return None
    return s.nonzero


IDENTICAL_SIDES = ("lhs and rhs are the same expression as built: sympy's evaluation when it built them is the "
                   "proof, and it may use rules the scope does not show (exp(log(x)) is built as x, which over the "
                   "reals needs x > 0)")


def _fits(s: sympy.Symbol, v: Fraction) -> bool:
    """``v`` respects every assumption of the symbol (integer, parity, sign, prime, ...), decided
    by the one witness check, :func:`symcal.backends.translate.assumptions_hold`."""
    return assumptions_hold({s: v})[0] is True


def _draw(s: sympy.Symbol, rng: random.Random, small: list[Fraction]) -> Fraction:
    """One value for ``s``: a random small rational, an integer for an integer symbol (of its
    parity, a prime for a prime one), then moved into its sign."""
    d = symbol_domain(s)
    if d.integer:
        pool = [Fraction(k) for k in range(-12, 13)]
        if d.parity:
            pool = [q for q in pool if (q.numerator % 2 == 0) == (d.parity == "even")]
        if dict(d.relaxed).get("prime"):
            pool = [Fraction(p) for p in (2, 3, 5, 7, 11, 13, 17, 19, 23)]
        elif dict(d.relaxed).get("composite"):
            pool = [Fraction(c) for c in (4, 6, 8, 9, 10, 12, 14, 15, 16)]
        v = rng.choice(pool)
    else:
        v = rng.choice(small) if rng.random() < 0.6 else Fraction(rng.randint(-50, 50), rng.randint(1, 7))
    for cand in (v, -v, Fraction(round(v)), -Fraction(round(v)), Fraction(1), Fraction(-1), Fraction(0)):
        if _fits(s, cand):
            return cand
    return v


def _points(symbols: list[sympy.Symbol], rng: random.Random, n: int) -> list[dict[sympy.Symbol, Fraction]]:
    """``n`` exact rational points, each value drawn within every assumption of its symbol (a
    point outside them, e.g. t = -2 for a positive t or n = 1 for an even n, would refute an
    identity that holds); a symbol no rational satisfies (irrational=True) gives no points."""
    pts: list[dict[sympy.Symbol, Fraction]] = []
    small = [Fraction(k, d) for k in range(-4, 5) for d in (1, 2, 3)]
    for _ in range(20 * n):  # bounded: contradictory assumptions simply give no points
        if len(pts) == n:
            break
        pt = {s: _draw(s, rng, small) for s in symbols}
        if all(_fits(s, v) for s, v in pt.items()):
            pts.append(pt)
    return pts


def decide_identity(lhs: Any, rhs: Any, conditions: Any, budget: Budget, scope: str) -> Outcome:
    """``lhs == rhs`` wherever both sides are defined over the reals, for every value of the
    symbols within their assumptions: proved when the residual is formally zero, refuted at an
    exact point that satisfies every assumption, where both sides are defined and the residual
    is certainly non-zero.  The scope says exactly that: the symbols (integers, signs, ...) and
    the conditions for both sides to be defined (``x != 1`` for ``(x**2 - 1)/(x - 1)``)."""
    lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    conds = list(conditions) if isinstance(conditions, list | tuple) else ([conditions] if conditions else [])
    syms = check_symbols([lhs, rhs, conds])  # an assumption symcal cannot encode: InvalidClaim
    defined = definedness([lhs, rhs])
    scope = exact_scope(scope, domain_text(syms, defined, side="both sides are"))
    if any(c is sympy.true for c in conds):  # Ne(1/(x - 1), 0) is built True: it restricts nothing, x = 1 included
        scope += " (a condition as built: True, sympy evaluated it; not where what was typed is defined)"
    identical = bool(lhs == rhs)
    warn = (IDENTICAL_SIDES,) if identical and syms else ()
    if isinstance(lhs, sympy.MatrixBase) or isinstance(rhs, sympy.MatrixBase):
        out = _decide_matrix(sympy.Matrix(lhs), sympy.Matrix(rhs), conds, budget, scope, defined)
    else:
        out = _decide_scalar(lhs, rhs, conds, budget, scope, defined)
    if not (identical and out.status is Status.PROVED):
        return out
    # the claim as built is "e = e": say so in the scope, not "for all real values" of what the
    # user may have typed (exp(log(x)) arrives here as x), nor "the expressions as written" when no
    # symbol is left (x/x arrives here as 1)
    as_built = f"identity as built: both sides are the expression {sympy.sstr(lhs)[:80]} (sympy evaluated them)"
    if defined:  # what sympy built may still be partial (Abs(1/x) arrives as 1/Abs(x)): say where it is defined
        as_built += f", {where_defined(defined, side='it is')}"
    return Outcome(out.status, as_built, out.backend, out.evidence, out.reason, out.cross_check,
                   out.warnings + warn)


def _decide_scalar(lhs: Any, rhs: Any, conds: list[Any], budget: Budget, scope: str, defined: list[Any]) -> Outcome:
    diff = lhs - rhs
    r = sympy.cancel(sympy.expand(diff))
    if r == 0:
        return Outcome(Status.PROVED, scope, NAME, Residual("0", "expand + cancel"))
    from symcal.errors import InvalidInput
    from symcal.exact import sign

    try:  # the one zero test (ARCHITECTURE.md, rule 2): formal zero, or undecided
        formal = sign(r, deadline=budget)
    except InvalidInput as e:
        formal = None
        not_zero = f"the residual is too large to test ({e})"
    if formal is not None and formal.value == 0:
        return Outcome(Status.PROVED, scope, NAME, Residual("0", formal.reason))
    if formal is not None:
        not_zero = f"residual {sympy.sstr(r)[:120]} is not formally zero ({formal.reason})"
    rng = random.Random(12345)
    tried = 0
    # a point refutes only where both sides are defined over the reals: a root of a negative number or the log
    # of one is complex, and a division by zero does not always show as zoo (acot(1/x) at x = 0 is 0, atan's
    # an AccumBounds), so every definedness condition is checked at the point, the divisions' too
    needs = list(defined)
    for shown_functions, inst_diff, inst_conds in _instantiated(diff, conds, rng):
        out, n = _try_points(inst_diff, inst_conds, shown_functions, rng, budget, scope, needs)
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
                scope: str, needs: Sequence[Any] = ()) -> tuple[Outcome | None, int]:
    """A refutation at one of 60 exact rational points (within every assumption of the symbols,
    where ``needs`` -- both sides' definedness conditions -- hold, and where every condition is
    defined and true, the residual there certainly non-zero), or None; and how many points were
    evaluated.  A condition is read only where it is defined: sympy evaluates ``Ne(1/(x - 1), 5)``
    at x = 1 to True (``zoo != 5``), and ``Ne(log(x - 1), 5)`` there to True as well, so a point
    where a condition is undefined would refute an identity claimed only where its conditions hold."""
    from sympy.core.function import AppliedUndef

    symbols = sorted(set(diff.free_symbols).union(*[getattr(c, "free_symbols", set()) for c in conds]), key=str)
    needs = list(needs) + [r for r in definedness(list(conds)) if r not in needs]
    tried = 0
    if diff.has(AppliedUndef):
        return None, 0
    for pt in _points(symbols, rng, 60):
        if budget.expired():
            break
        if conds and not all(truth_at(c, pt) is True for c in conds):
            continue
        if needs and not defined_at(list(needs), pt):
            continue
        sub = {s: sympy.Rational(v.numerator, v.denominator) for s, v in pt.items()}
        try:
            val = diff.xreplace(sub)
            if val.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.AccumBounds):
                continue
        except (ZeroDivisionError, TypeError, ValueError):  # Max(0, zoo): "the argument 'zoo' is not comparable"
            continue
        if val.has(sympy.Float):  # never guess a rational for a float (floats are refused in claims)
            continue
        if val.has(sympy.I) or val.is_extended_real is False:  # a side is not real here: undefined over the reals
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


def _decide_matrix(lhs: sympy.Matrix, rhs: sympy.Matrix, conditions: list[Any], budget: Budget, scope: str,
                   defined: list[Any]) -> Outcome:
    """Entry-wise identity of two matrices (or vectors) of the same shape."""
    if lhs.shape != rhs.shape:
        return Outcome(Status.ERROR, scope, NAME, reason=f"shapes differ: {lhs.shape} vs {rhs.shape}")
    for idx in range(len(lhs)):
        out = _decide_scalar(lhs[idx], rhs[idx], conditions, budget, scope, defined)
        if out.status is not Status.PROVED:
            if out.status is Status.REFUTED and isinstance(out.evidence, Witness):
                w = out.evidence
                out = Outcome(out.status, scope, NAME, Witness(w.values, True, f"entry {idx}: {w.detail}",
                                                               found_by=w.found_by))
            return out
    return Outcome(Status.PROVED, scope, NAME,
                   Residual("0 (every entry)", f"expand + cancel, entry-wise over {lhs.shape[0]}x{lhs.shape[1]}"))
