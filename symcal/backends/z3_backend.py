"""z3: implications and existence over the reals at a given size.

z3 answers on the *negated* claim: unsat -> proved, sat -> a model, which is turned into
small exact rationals and re-checked by the caller on the claim's own expressions;
unknown or a timeout -> unknown with z3's reason.  The query is kept as SMT-LIB2 text.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from symcal.backends.base import Budget
from symcal.backends.translate import model_algebraic, model_fraction

__all__ = ["NAME", "version", "SolveResult", "solve", "smtlib_text", "small_models", "pinned_model", "divisors"]

NAME = "z3"


def version() -> str:
    import z3

    return z3.get_version_string()


@dataclass
class SolveResult:
    answer: str  # "sat" | "unsat" | "unknown"
    model: dict[str, Fraction] | None
    smtlib: str
    reason: str = ""
    # the model exactly, when some value is an algebraic number: name -> sympy Rational or CRootOf
    algebraic: dict[str, Any] | None = None


def smtlib_text(constraints: list[Any], comment: str = "") -> str:
    import z3

    s = z3.Solver()
    s.add(*constraints)
    head = "".join(f"; {line}\n" for line in comment.splitlines()) if comment else ""
    return head + "(set-logic ALL)\n" + s.to_smt2()


@contextlib.contextmanager
def cpu_watchdog(budget: Budget, ctx: Any) -> Iterator[None]:
    """Interrupt z3 (``ctx.interrupt()``, thread-safe) once the budget's CPU seconds are spent.

    z3's own ``timeout`` counts wall-clock time, which a busy machine stretches; this thread
    reads the process's CPU clock every 20 ms instead, so the point at which z3 gives up does
    not depend on the load.  (z3 releases the GIL while it solves.)"""
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.02):
            if budget.cpu_left() <= 0:
                ctx.interrupt()
                return

    t = threading.Thread(target=watch, name="z3-cpu-watchdog", daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()


_PRIVATE: dict[int, Any] = {}  # this process's own z3 context (a forked worker makes its own)


def _private_context() -> Any:
    """A z3 context that only this process's queries fill: the terms a forked worker parses are numbered
    the same in every run, whatever its parent made before (a context per query would cost 3 ms each)."""
    import z3

    pid = os.getpid()
    if pid not in _PRIVATE:
        _PRIVATE.clear()
        _PRIVATE[pid] = z3.Context()
    return _PRIVATE[pid]


def _solver_on_text(text: str, constraints: list[Any], variables: list[Any] | None) -> tuple[Any, list[Any] | None]:
    """A solver holding the query ``text`` (its SMT-LIB form) in this process's own context, and the
    variables carried into that context.

    z3's work on a nonlinear query depends on the ids of its terms, which depend on every term this process
    made before (forked workers inherit the parent's): the same query took 3 CPU seconds in one run of the
    library and more than 60 in another (``xia2009.proposition10.corrected``).  Parsed from its text into the
    process's private context (:func:`_private_context`), the query is solved the same way in every run,
    and what is solved is exactly the recorded text (the one the second opinion and the certificates read).
    When the text does not parse back (a construct z3 prints but does not read), the constraints are solved
    as built."""
    import z3

    try:
        ctx = _private_context()
        s = z3.Solver(ctx=ctx)
        s.from_string(text)
        if len(s.assertions()) or not constraints:
            return s, None if variables is None else [v.translate(ctx) for v in variables]
    except z3.Z3Exception:
        pass
    s = z3.Solver()
    s.add(*constraints)
    return s, variables


def solve(
    constraints: list[Any], budget: Budget, variables: list[Any] | None = None, comment: str = ""
) -> SolveResult:
    """Check the conjunction of ``constraints`` within the budget."""
    import z3

    text = smtlib_text(constraints, comment)
    s, names = _solver_on_text(text, constraints, variables)
    s.set("timeout", budget.wall_ms())
    try:
        with cpu_watchdog(budget, s.ctx):
            r = s.check()
    except z3.Z3Exception as e:  # pragma: no cover - z3 internals
        return SolveResult("unknown", None, text, f"z3 raised: {e}")
    if r == z3.unsat:
        return SolveResult("unsat", None, text)
    if r == z3.unknown:
        reason = s.reason_unknown()
        if budget.expired() or "timeout" in reason or "canceled" in reason:
            reason = f"z3 timeout: its budget of {budget.seconds:g} CPU seconds is spent ({reason})"
        return SolveResult("unknown", None, text, reason)
    m = s.model()
    if names is None:
        names = [d() for d in m.decls() if d.arity() == 0]  # constants only: not z3's /0 (two arguments)
    got = {str(v): m.eval(v, model_completion=True) for v in names}
    values = {k: model_fraction(val) for k, val in got.items()}
    algebraic: dict[str, Any] | None = None
    if any(z3.is_algebraic_value(val) for val in got.values()):
        exact = {k: model_algebraic(val) for k, val in got.items()}
        algebraic = exact if all(x is not None for x in exact.values()) else None
    return SolveResult("sat", values, text, algebraic=algebraic)


def small_models(
    constraints: list[Any], variables: list[Any], budget: Budget, *, attempts: int = 3
) -> list[dict[str, Fraction]]:
    """Candidate models with small numerators and denominators, simplest first.

    Each variable x is written k_x / D for an integer k_x and a common denominator D in
    (1, 2, 6); z3's optimiser minimises sum |k_x|.  Candidates must still be re-checked
    exactly by the caller.  Returns [] when nothing is found within the budget.
    """
    import z3

    out: list[dict[str, Fraction]] = []
    for den in (1, 2, 6)[:attempts]:
        if budget.left() < 0.05:
            break
        opt = z3.Optimize()
        opt.set("timeout", budget.wall_ms())
        ks = []
        for v in variables:
            k = z3.Int(f"k!{v}")
            ks.append(k)
            if v.is_int():
                opt.add(v == k)
            else:
                opt.add(v * den == z3.ToReal(k))
        opt.add(*constraints)
        opt.minimize(z3.Sum([z3.If(k >= 0, k, -k) for k in ks]) if ks else z3.IntVal(0))
        try:
            with cpu_watchdog(budget, opt.ctx):
                r = opt.check()
        except z3.Z3Exception:  # pragma: no cover
            continue
        if r == z3.sat:
            m = opt.model()
            out.append(
                {str(v): model_fraction(m.eval(v, model_completion=True)) for v in variables}
            )
            break
    return out


def _near(x: Fraction) -> list[Fraction]:
    """Simple rationals near ``x``, simplest first."""
    out: list[Fraction] = []
    for den in (1, 2, 3, 4, 10, 100, 1000, 10**6):
        for c in (x.limit_denominator(den), Fraction(int(x * den), den), Fraction(int(x * den) + 1, den)):
            if c not in out:
                out.append(c)
    return out


def divisors(constraints: list[Any]) -> list[Any]:
    """The distinct non-constant divisors of the real divisions in ``constraints`` (z3 terms).

    z3 makes division total (``x / 0`` is some real number), so a model may satisfy a query only
    through a division by zero; exact arithmetic calls that value undefined, and such a model
    never passes the exact re-check of a claim whose statement divides by it."""
    import z3

    out: list[Any] = []
    seen_terms: set[int] = set()
    seen_divs: set[int] = set()
    stack = list(constraints)
    while stack:
        e = stack.pop()
        if not z3.is_app(e) or e.get_id() in seen_terms:
            continue
        seen_terms.add(e.get_id())
        kids = e.children()
        if e.decl().kind() == z3.Z3_OP_DIV and len(kids) == 2:
            d = kids[1]
            if not (z3.is_rational_value(d) or z3.is_int_value(d)) and d.get_id() not in seen_divs:
                seen_divs.add(d.get_id())
                out.append(d)
        stack.extend(kids)
    return out


def _exact_model(res_model: Any, variables: list[Any]) -> tuple[dict[str, Fraction], bool]:
    """z3's model as Fractions, and whether every value was rational (not an approximation)."""
    import z3

    values: dict[str, Fraction] = {}
    exact = True
    for v in variables:
        val = res_model.eval(v, model_completion=True)
        exact = exact and not z3.is_algebraic_value(val)
        values[str(v)] = model_fraction(val)
    return values, exact


def _solve_model(constraints: list[Any], variables: list[Any],
                 budget: Budget) -> tuple[str, dict[str, Fraction] | None, bool]:
    """("sat" | "unsat" | "unknown", the model as Fractions, whether it is exactly rational)."""
    import z3

    s = z3.Solver()
    s.set("timeout", budget.wall_ms())
    s.add(*constraints)
    try:
        with cpu_watchdog(budget, s.ctx):
            r = s.check()
    except z3.Z3Exception:  # pragma: no cover - z3 internals
        return "unknown", None, False
    if r != z3.sat:
        return ("unsat" if r == z3.unsat else "unknown"), None, False
    values, exact = _exact_model(s.model(), variables)
    return "sat", values, exact


def _pin(constraints: list[Any], variables: list[Any], model: dict[str, Fraction], exact: bool,
         budget: Budget) -> dict[str, Fraction] | None:
    """Pin the variables one at a time to simple rationals near the current model, re-solving
    after each pin so that the remaining variables adapt; stop as soon as a re-solved model is
    exactly rational."""
    import z3

    pins: list[Any] = []
    current = dict(model)
    for v in variables:
        name = str(v)
        if budget.left() <= 0.05:
            return None
        target = current.get(name, Fraction(0))
        for r in _near(target):
            if budget.left() <= 0.05:
                return None
            if v.is_int() and r.denominator != 1:
                continue
            val = z3.IntVal(r.numerator) if v.is_int() else z3.RealVal(f"{r.numerator}/{r.denominator}")
            answer, got, got_exact = _solve_model(constraints + pins + [v == val], variables,
                                                  Budget(max(0.05, min(1.0, budget.left()))))
            if answer == "sat" and got is not None:
                pins.append(v == val)
                current, exact = got, got_exact
                break
        else:
            return None
        if exact:  # the re-solved model is rational: it is the pinned model
            return current
    return current


def pinned_model(constraints: list[Any], variables: list[Any], model: dict[str, Fraction],
                 budget: Budget) -> dict[str, Fraction] | None:
    """A rational model of ``constraints`` near z3's, for the caller to re-check exactly
    (issue 12, item 2); None when none is found within the budget.

    Two things keep a satisfiable query from yielding an exact witness, and this handles both:

    * a model that divides by zero (z3's division is total; exact arithmetic calls ``x / 0``
      undefined): the query is solved again with every divisor required non-zero;
    * an algebraic model (a root of a polynomial): the variables are pinned one at a time to
      simple rationals near it, re-solving after each pin so that the rest adapt; this finds
      none when the solutions near z3's are isolated points or lie on a curve without rational
      points near them (then the claim stays unknown).

    The extra constraints only narrow the search: whatever comes back is a candidate, which the
    caller re-checks on the claim's own expressions in exact arithmetic."""
    guard = [d != 0 for d in divisors(constraints)]
    if guard:
        answer, got, exact = _solve_model(constraints + guard, variables,
                                          Budget(max(0.05, min(2.0, budget.left() / 2))))
        if answer == "sat" and got is not None:
            if exact:
                return got
            pinned = _pin(constraints + guard, variables, got, exact, budget)
            if pinned is not None:
                return pinned
    return _pin(constraints, variables, model, False, budget)
