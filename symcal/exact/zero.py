"""THE sign and zero test of symcal (ARCHITECTURE.md, *Rules of trust*, rule 2).

:func:`sign` answers -1, 0, +1, or None (undecided), always with a short reason:

* **0 only for a formal zero.**  Rational arithmetic; otherwise the expression is brought to
  a normal form and must vanish there:

  - a logarithm of a positive rational (or of a rational power of one) is written over a
    *coprime base*: ``log(p/q) = sum_b e_b log b`` where the ``b`` are pairwise coprime
    integers > 1 computed from the numerators and denominators by gcds (no factoring);
    each ``log b`` becomes an independent symbol ``L_b``;
  - ``exp`` of a sum is split into a product, and ``exp(c m)`` with ``c`` rational becomes
    ``X_m**(c d)`` for one symbol ``X_m = exp(m/d)`` per monomial ``m`` (``d`` the common
    denominator), so that ``exp(1/3) exp(2/3) = e`` and ``exp(t1 - t2) exp(t2) = exp(t1)``
    are seen;
  - every other non-algebraic factor (``pi``, ``exp(sqrt(2))``, a free symbol, ...) is an
    opaque indeterminate.

  The result is expanded as a (Laurent) polynomial in these indeterminates.  It is
  formally zero when every coefficient is zero -- each coefficient is an algebraic number
  (rationals, radicals and real roots of polynomials over Q -- ``CRootOf``, as z3's algebraic
  models are read), tested *exactly*: an annihilating polynomial ``P`` of the
  coefficient is built by resultants (no floating point), ``P = x^m Q`` with ``Q(0) != 0``;
  if ``m = 0`` the coefficient is non-zero, else it is 0 as soon as a rigorous enclosure
  puts it inside Cauchy's bound ``|q_0| / (|q_0| + max |q_k|)``, below which ``Q`` has no root.
  A polynomial identity in indeterminates holds under every substitution, so "expands to
  0" is a proof of 0.  It is *not* a proof of non-zero, except where a theorem says so:

  - a linear form ``b_0 + sum_b beta_b log b`` with algebraic ``beta`` and pairwise
    coprime ``b > 1`` (so the logs are Q-linearly independent) is 0 only if every ``beta``
    is 0 (Baker 1966);
  - a Laurent polynomial in the single ``X = exp(1/d)`` with algebraic coefficients is
    ``sum beta_n exp(n/d)``, 0 only if every ``beta_n`` is 0 (Lindemann-Weierstrass);
  - a non-zero algebraic number (``m = 0`` above).

* **+1 / -1 only when exact evaluation or a rigorous interval enclosure excludes 0**
  (:mod:`symcal.exact.intervals`, mpmath ``iv`` with outward rounding), evaluated on the
  normal form (where the symbolic cancellation is already done) at 64, 256, 1024, 4096,
  16384 and 65536 bits, so ``10^-120 log 6`` is shown positive at the first step.

* **Last, sympy's ``simplify``** when the above left the answer undecided (trigonometric
  identities, ``sqrt(x**2) - Abs(x)``, atoms the normal form keeps opaque): a result of
  exactly 0 is a formal zero (a chain of rewrites each valid under the symbols' declared
  assumptions); any other result decides nothing.

* **None otherwise**, with the reason: never a guess from floating point, nor from sympy's
  ``is_zero`` / ``is_positive`` (which may rest on a 15-digit evaluation).

:func:`truth` decides a closed relation ``lhs op rhs`` through the sign of ``lhs - rhs``.
There is no other zero test in symcal: backends, ``ranking/`` and ``calibration/`` call these.

Everything is bounded: sizes are refused up front (:func:`check_size` raises
``invalid(...)`` naming the parameter: an integer beyond :data:`MAX_BITS` bits, an integer
power beyond :data:`MAX_POWER`, more than :data:`MAX_NODES` nodes), an expansion that would
produce more than :data:`MAX_TERMS` terms is not attempted, and ``deadline`` (a
``time.monotonic()`` instant, or any object with ``expired()``, such as
:class:`CpuBudget` or the engine's ``Budget``) is checked between stages and precisions.
A single sympy step is not interruptible: for a hard stop run the caller under
:func:`symcal.limits.run_limited`.
"""

from __future__ import annotations

import contextlib
import math
import random
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import invalid, wrong_type
from symcal.exact import intervals

__all__ = [
    "Sign",
    "sign",
    "truth",
    "zero_test",
    "ZeroTest",
    "normal_form",
    "check_size",
    "CpuBudget",
    "MAX_BITS",
    "MAX_POWER",
    "MAX_NODES",
    "MAX_TERMS",
    "PRECISIONS",
    "DEFAULT_SECONDS",
]

MAX_BITS = 1 << 17  # ~39,000 decimal digits: any integer sympy may build from the expression
MAX_POWER = 100_000  # |n| in an integer power
MAX_NODES = 100_000
MAX_TERMS = 50_000  # terms an expansion may produce
PRECISIONS = (64, 256, 1024, 4096, 16384, 65536)
MAX_RADICALS = 8  # algebraic test: radicals per coefficient
MAX_DEGREE = 256  # ... and the degree of the annihilating polynomial
MAX_EXPONENT_MULTIPLE = 10_000  # exp(c m) = X_m**(c d) only while |c d| stays below this
DEFAULT_SECONDS = 60.0  # the deadline when none is given
MAX_SIMPLIFY_OPS = 2_000  # sympy's simplify is tried on expressions up to this size


@dataclass(frozen=True)
class Sign:
    """The answer of :func:`sign`: ``value`` is -1, 0, +1 or None (undecided); ``reason``
    says how it was established (or why not).  ``nonzero`` is True for +-1, False for 0,
    and may be True with ``value`` None (known non-zero by a theorem, sign not enclosed)."""

    value: int | None
    reason: str
    nonzero: bool | None = field(default=None)

    def __post_init__(self) -> None:
        if not (self.value is None or (type(self.value) is int and self.value in (-1, 0, 1))):
            raise invalid("value", self.value, "-1, 0, 1 or None (Sign.value)")
        if self.value is not None:
            object.__setattr__(self, "nonzero", self.value != 0)

    @property
    def decided(self) -> bool:
        return self.value is not None

    @property
    def is_zero(self) -> bool | None:
        """True (formally zero), False (certainly non-zero), None (undecided)."""
        return None if self.nonzero is None else not self.nonzero

    def __str__(self) -> str:
        word = {-1: "negative", 0: "zero", 1: "positive", None: "undecided"}[self.value]
        if self.value is None and self.nonzero:
            word = "non-zero (sign undecided)"
        return f"{word}: {self.reason}"


class CpuBudget:
    """A deadline in CPU seconds of this process (``time.process_time``), so that an answer
    does not depend on the load (ARCHITECTURE.md, *Rules of trust*, rule 5)."""

    def __init__(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise wrong_type("seconds", seconds, "a number of CPU seconds")
        if not (isinstance(seconds, float) or abs(seconds) < 2**53) or not math.isfinite(seconds) or seconds < 0:
            raise invalid("seconds", seconds, "a finite number of CPU seconds >= 0")
        seconds = float(seconds)
        self.seconds = seconds
        self.end = time.process_time() + seconds

    def expired(self) -> bool:
        return time.process_time() >= self.end

    def left(self) -> float:
        return self.end - time.process_time()


class _OutOfTime(BaseException):  # not an Exception: sympy's broad handlers must not swallow it
    pass


class _TooLarge(Exception):
    pass


def _check_deadline(deadline: Any) -> None:
    """Refuse a ``deadline`` that is not None, a finite ``time.monotonic()`` instant or an object
    with ``expired()`` (a :class:`CpuBudget`)."""
    if deadline is None:
        return
    if isinstance(deadline, bool):
        raise wrong_type("deadline", deadline, "None, a time.monotonic() instant or a CpuBudget")
    if isinstance(deadline, int | float):
        if abs(deadline) >= 2**53 or not math.isfinite(deadline):  # 1e308 overflows the timers it is given to
            raise invalid("deadline", deadline, "a time.monotonic() instant below 2**53 seconds")
        return
    if not callable(getattr(deadline, "expired", None)):
        raise wrong_type("deadline", deadline, "None, a time.monotonic() instant or a CpuBudget")


def _expired(deadline: Any) -> bool:
    if deadline is None:
        return False
    if isinstance(deadline, int | float):
        return time.monotonic() >= deadline
    return bool(deadline.expired())


def _tick(deadline: Any) -> None:
    if _expired(deadline):
        raise _OutOfTime


def _seconds_left(deadline: Any) -> float | None:
    if deadline is None:
        return None
    if isinstance(deadline, int | float):
        return deadline - time.monotonic()
    left = getattr(deadline, "left", None)
    return float(left()) if callable(left) else None


@contextlib.contextmanager
def _interrupt_after(seconds: float | None) -> Iterator[None]:
    """Interrupt the block (raise :class:`_OutOfTime`) after ``seconds`` of CPU time, by a
    ``SIGPROF`` timer: a single sympy step (expand, cancel, resultant) cannot otherwise be
    stopped.  Only in the main thread, and only when nobody else uses ``SIGPROF``."""
    if (
        seconds is None
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGPROF) not in (signal.SIG_DFL, None)
        or signal.getitimer(signal.ITIMER_PROF)[0] > 0
    ):
        yield
        return
    state = {"armed": True}

    def handler(signum: int, frame: Any) -> None:
        if state["armed"]:
            raise _OutOfTime

    old = signal.signal(signal.SIGPROF, handler)
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.001))
    try:
        yield
    finally:
        state["armed"] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


# ---------------------------------------------------------------------------------------
# size guards
# ---------------------------------------------------------------------------------------


def check_size(expr: Any, param: str = "expr") -> None:
    """Refuse an absurdly large expression with ``invalid(param, ...)``: more than
    :data:`MAX_NODES` nodes, an integer power beyond :data:`MAX_POWER`, or a rational that
    sympy would build with more than :data:`MAX_BITS` bits (``(2^9999)^9999``).  Works on
    unevaluated trees (``sympify(..., evaluate=False)``), so a caller can check before
    sympy evaluates anything."""
    e = _as_basic(expr, param)
    heights: dict[sympy.Basic, tuple[int, int]] = {}
    nodes = 0
    for node in sympy.postorder_traversal(e):
        nodes += 1
        if nodes > MAX_NODES:
            raise invalid(param, _short(e), f"an expression of at most {MAX_NODES} nodes")
        if isinstance(node, sympy.Pow) and isinstance(node.args[1], sympy.Rational):
            if abs(int(node.args[1].p)) > MAX_POWER:
                raise invalid(param, _short(e), f"an expression whose powers are at most {MAX_POWER}")
        h = _height(node, heights)
        heights[node] = h
        if max(h) > MAX_BITS:
            raise invalid(
                param,
                _short(e),
                f"an expression whose numbers stay below {MAX_BITS} bits "
                f"(about {int(MAX_BITS * 0.30103)} digits); {_short(node)} would be larger",
            )


def _short(e: Any) -> str:
    from symcal.exact.numbers import expr_str

    try:
        if isinstance(e, sympy.Basic) and sum(1 for _ in sympy.preorder_traversal(e)) > 200:
            return f"<expression of type {type(e).__name__}>"
        text = expr_str(e)
    except Exception:  # printing must never be the error
        text = f"<{type(e).__name__}>"
    return text if len(text) <= 100 else text[:97] + "..."


def _as_basic(expr: Any, param: str) -> sympy.Basic:
    """``expr`` as a sympy object: a sympy object itself, or a number (int, Fraction, float)."""
    if isinstance(expr, sympy.Basic):
        return expr
    if isinstance(expr, bool) or not isinstance(expr, int | float | Fraction):
        raise wrong_type(param, expr, "a number or a sympy expression")
    if isinstance(expr, Fraction):
        return sympy.Rational(expr.numerator, expr.denominator)
    return sympy.Float(expr) if isinstance(expr, float) else sympy.Integer(expr)


def _bits(n: int) -> int:
    return max(1, abs(n).bit_length())


def _height(node: sympy.Basic, heights: dict[sympy.Basic, tuple[int, int]]) -> tuple[int, int]:
    """Upper bounds (numerator bits, denominator bits) of the rational sympy may build for
    ``node`` when it evaluates it; (1, 0) for what stays symbolic."""
    if isinstance(node, sympy.Rational):
        return _bits(int(node.p)), _bits(int(node.q)) if int(node.q) != 1 else 0
    if isinstance(node, sympy.Float):
        r = sympy.Rational(node)
        return _bits(int(r.p)), _bits(int(r.q))
    args = [heights.get(a, (1, 0)) for a in node.args]
    if isinstance(node, sympy.Add):
        den = sum(d for _, d in args)
        return max(n + den - d for n, d in args) + len(args).bit_length(), den
    if isinstance(node, sympy.Mul):
        return sum(n for n, _ in args), sum(d for _, d in args)
    if isinstance(node, sympy.Pow):
        (bn, bd), ex = args[0], node.args[1]
        if isinstance(ex, sympy.Rational):
            k = abs(int(ex.p))
            n, d = bn * k, bd * k
            return (d, n) if ex < 0 else (n, d)
        return max(bn, bd), 0
    return 1, 0


def _expansion_size(e: sympy.Basic, memo: dict[sympy.Basic, int]) -> int:
    """An upper bound on the number of terms ``expand(e)`` produces (capped)."""
    if e in memo:
        return memo[e]
    cap = 10 * MAX_TERMS
    if isinstance(e, sympy.Add):
        out = sum(_expansion_size(a, memo) for a in e.args)
    elif isinstance(e, sympy.Mul):
        out = 1
        for a in e.args:
            out = min(cap, out * _expansion_size(a, memo))
    elif isinstance(e, sympy.Pow) and isinstance(e.args[1], sympy.Integer) and int(e.args[1]) > 1:
        s, n = _expansion_size(e.args[0], memo), int(e.args[1])
        out = 1 if s == 1 else (cap if n > cap else min(cap, math.comb(s + n - 1, n)))
    else:
        out = 1
    memo[e] = min(cap, out)
    return memo[e]


# ---------------------------------------------------------------------------------------
# normal form: logs over a coprime base, exps as powers of one generator per monomial
# ---------------------------------------------------------------------------------------


def _coprime_base(numbers: list[int]) -> list[int]:
    """A gcd-free basis: pairwise coprime integers > 1 such that each of ``numbers`` is a
    product of their powers (refinement by gcds; the product of the pending numbers drops
    by a factor g >= 2 at each split, so it ends)."""
    base: list[int] = []
    todo = [n for n in numbers if n > 1]
    while todo:
        x = todo.pop()
        if x == 1:
            continue
        for k, b in enumerate(base):
            g = math.gcd(x, b)
            if g > 1:
                base.pop(k)
                todo.extend([g, b // g, x // g])
                break
        else:
            base.append(x)
    return sorted(base)


def _exponents(n: int, base: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for b in base:
        e = 0
        while n % b == 0:
            n //= b
            e += 1
        if e:
            out[b] = e
    if n != 1:  # cannot happen for a coprime base of a set containing n
        raise AssertionError(f"{n} is not a product of the coprime base")
    return out


@dataclass
class _Normal:
    """``expr`` in indeterminates: ``gens`` maps each introduced symbol (``L_b``, ``X_m``)
    to the expression it stands for; ``terms`` maps monomials to algebraic coefficients
    (None when the expansion was not attempted); ``kinds`` of indeterminates seen."""

    expr: sympy.Expr
    gens: dict[sympy.Symbol, sympy.Expr]
    log_base: list[int]
    terms: dict[frozenset[tuple[sympy.Basic, int]], sympy.Expr] | None
    atoms: set[sympy.Basic]
    fraction: bool = False  # terms are those of the numerator N of expr = N/D

    @property
    def part(self) -> str:
        return "cancelled numerator" if self.fraction else "expansion"

    def back(self, e: sympy.Expr) -> sympy.Expr:
        return e.xreplace(self.gens)


def _log_argument(a: sympy.Basic) -> tuple[Fraction, Fraction] | None:
    """``a = r**k`` with r > 0 rational, k rational: (r, k); else None."""
    if isinstance(a, sympy.Rational):
        return (Fraction(int(a.p), int(a.q)), Fraction(1)) if a > 0 else None
    if isinstance(a, sympy.Pow) and isinstance(a.args[0], sympy.Rational) and isinstance(a.args[1], sympy.Rational):
        b, k = a.args
        if b > 0:
            return Fraction(int(b.p), int(b.q)), Fraction(int(k.p), int(k.q))
    return None


def _normalise(e: sympy.Expr, deadline: Any) -> _Normal:
    gens: dict[sympy.Symbol, sympy.Expr] = {}
    # Floats are taken at their exact binary value
    floats = {f: sympy.Rational(f) for f in e.atoms(sympy.Float)}
    if floats:
        e = e.xreplace(floats)
    e, base = _normalise_logs(e, gens)
    _tick(deadline)
    e = _normalise_exps(e, gens)
    _tick(deadline)
    # 3. expand (a rational function: cancel, and keep the numerator N; e = N/D with D != 0
    #    wherever e is defined, so e = 0 iff N = 0) and group by monomials in the indeterminates
    fraction = _has_denominator(e)
    if fraction:
        num, den = sympy.fraction(sympy.cancel(e))
        ex = num / den
        num = sympy.expand(num, power_exp=False, power_base=False, log=False, deep=False)
    else:
        if _expansion_size(e, {}) > MAX_TERMS:
            return _Normal(e, gens, base, None, set())
        ex = num = sympy.expand(e, power_exp=False, power_base=False, log=False, deep=True)
    _tick(deadline)
    grouped, atoms = _group_monomials(num)
    return _Normal(ex, gens, base, grouped, atoms, fraction)


def _normalise_logs(e: sympy.Expr, gens: dict[sympy.Symbol, sympy.Expr]) -> tuple[sympy.Expr, list[int]]:
    """Step 1 of :func:`_normalise`: logs of positive rationals as linear combinations of
    ``log b`` over a coprime base (one new indeterminate per b, recorded in ``gens``)."""
    logs = {}
    for lg in e.atoms(sympy.log):
        if len(lg.args) == 1:
            arg = _log_argument(lg.args[0])
            if arg is not None:
                logs[lg] = arg
    base = _coprime_base(sorted({v for r, _ in logs.values() for v in (r.numerator, r.denominator)}))
    L = {b: sympy.Dummy(f"log{b}") for b in base}
    for b, s in L.items():
        gens[s] = sympy.log(sympy.Integer(b))
    rep: dict[sympy.Basic, sympy.Basic] = {}
    for lg, (r, k) in logs.items():
        num, den = _exponents(r.numerator, base), _exponents(r.denominator, base)
        lin = sum((v * L[b] for b, v in num.items()), sympy.Integer(0)) - sum(
            (v * L[b] for b, v in den.items()), sympy.Integer(0)
        )
        rep[lg] = sympy.Rational(k.numerator, k.denominator) * lin
    if rep:
        e = e.xreplace(rep)
    return e, base


def _split_exps(e: sympy.Expr) -> tuple[dict[sympy.Basic, list[tuple[Fraction, sympy.Expr]]], dict[sympy.Expr, int]]:
    """The exps of ``e`` (and E) with their arguments split as ``sum c_k m_k`` (c_k rational),
    and for each m the lcm d_m of the denominators of its coefficients."""
    exps = list(e.atoms(sympy.exp))
    if e.has(sympy.E):
        exps.append(sympy.E)
    split: dict[sympy.Basic, list[tuple[Fraction, sympy.Expr]]] = {}
    dens: dict[sympy.Expr, int] = {}
    for x in exps:
        arg = sympy.Integer(1) if x is sympy.E else x.args[0]
        if _expansion_size(arg, {}) < 1000:
            arg = sympy.expand(arg)
        parts = []
        for t in sympy.Add.make_args(arg):
            c, m = t.as_coeff_Mul()  # c is a Number: Rational, as Floats are gone
            parts.append((Fraction(int(c.p), int(c.q)), m))
        split[x] = parts
        for c, m in parts:
            dens[m] = math.lcm(dens.get(m, 1), c.denominator)
    return split, dens


def _normalise_exps(e: sympy.Expr, gens: dict[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """Step 2 of :func:`_normalise`: exp(sum c_k m_k) = prod X_m**(c_k d_m) with
    X_m = exp(m / d_m) a new indeterminate (recorded in ``gens``)."""
    split, dens = _split_exps(e)
    X: dict[sympy.Expr, sympy.Symbol] = {}
    rep = {}
    for x, parts in split.items():
        if any(abs(c * dens[m]) > MAX_EXPONENT_MULTIPLE for c, m in parts):
            continue  # stays an opaque atom
        out = sympy.Integer(1)
        for c, m in parts:
            if m not in X:
                X[m] = sympy.Dummy("exp")
                gens[X[m]] = sympy.exp((m / dens[m]).xreplace(gens), evaluate=False)
            out *= X[m] ** int(c * dens[m])
        rep[x] = out
    if rep:
        e = e.xreplace(rep)
    return e


def _group_monomials(
    num: sympy.Expr,
) -> tuple[dict[frozenset[tuple[sympy.Basic, int]], sympy.Expr], set[sympy.Basic]]:
    """The terms of the expanded ``num`` grouped by monomial in the non-algebraic atoms (with
    their algebraic coefficients summed, zero sums dropped), and the atoms seen."""
    terms: dict[frozenset[tuple[sympy.Basic, int]], list[sympy.Expr]] = {}
    atoms: set[sympy.Basic] = set()
    for t in sympy.Add.make_args(num):
        coeff: list[sympy.Expr] = []
        mono: dict[sympy.Basic, int] = {}
        for f in sympy.Mul.make_args(t):
            if _is_algebraic(f):
                coeff.append(f)
                continue
            if isinstance(f, sympy.Pow) and isinstance(f.args[1], sympy.Integer):
                atom, n = f.args[0], int(f.args[1])
            else:
                atom, n = f, 1
            mono[atom] = mono.get(atom, 0) + n
            atoms.add(atom)
        key = frozenset((a, n) for a, n in mono.items() if n)
        terms.setdefault(key, []).append(sympy.Mul(*coeff))
    grouped = {}
    for key, cs in terms.items():
        c = sympy.Add(*cs)
        if c != 0:
            grouped[key] = c
    return grouped, atoms


def _has_denominator(e: sympy.Basic) -> bool:
    """A negative power of something that is not an algebraic constant (an indeterminate,
    or a sum containing one)."""
    return any(
        isinstance(p.args[1], sympy.Number) and p.args[1] < 0 and not _is_algebraic(p.args[0])
        for p in e.atoms(sympy.Pow)
    )


_ALG_CACHE: dict[sympy.Basic, bool] = {}


def _is_algebraic(e: sympy.Basic) -> bool:
    """A closed real-algebraic expression: rationals, real roots of polynomials over Q (``CRootOf``),
    +, *, rational powers (no I)."""
    if isinstance(e, sympy.Rational):
        return True
    hit = _ALG_CACHE.get(e)
    if hit is not None:
        return hit
    if isinstance(e, sympy.Add | sympy.Mul):
        ok = all(_is_algebraic(a) for a in e.args)
    elif isinstance(e, sympy.Pow):
        ok = isinstance(e.args[1], sympy.Rational) and _is_algebraic(e.args[0])
    elif isinstance(e, sympy.CRootOf):  # a real root of a polynomial over Q (an algebraic witness)
        ok = bool(e.is_real) and e.poly.domain in (sympy.ZZ, sympy.QQ)
    else:
        ok = False
    if len(_ALG_CACHE) > 10_000:
        _ALG_CACHE.clear()
    _ALG_CACHE[e] = ok
    return ok


def normal_form(expr: Any, *, deadline: Any = None) -> sympy.Expr:
    """``expr`` with logarithms of rationals written over their coprime base (``log(6) ->
    log(2) + log(3)``), exponentials of rational multiples combined, expanded and with
    common factors pulled out: a readable exact form (what :func:`sign` decides on).
    Never calls ``simplify`` (which may build ``log(3**1000000/2**1000000)``)."""
    _check_deadline(deadline)
    e = _as_expr(expr, "expr")
    if isinstance(e, sympy.Rational):
        return e
    check_size(e, "expr")
    if deadline is None:
        deadline = time.monotonic() + DEFAULT_SECONDS
    try:
        with _interrupt_after(_seconds_left(deadline)):
            n = _normalise(e, deadline)
    except _OutOfTime:
        return e
    out = n.back(n.expr)
    try:
        return sympy.factor_terms(out) if _expansion_size(out, {}) < 2000 else out
    except Exception:  # pragma: no cover - cosmetic only
        return out


# ---------------------------------------------------------------------------------------
# algebraic numbers: an exact annihilating polynomial and Cauchy's root bound
# ---------------------------------------------------------------------------------------


class _NotAlgebraic(Exception):
    pass


def _annihilator(c: sympy.Expr, deadline: Any) -> sympy.Poly | None:
    """A non-zero polynomial P over Q with P(c) = 0, by resultants (exact), or None when too
    large.  Each radical b**(p/q) is y**p with y**q = b; eliminating the y's from
    D(y) x - N(y) (c = N/D) keeps every common root, so P(c) = 0."""
    x = sympy.Dummy("x")
    ys: list[sympy.Symbol] = []
    rels: list[sympy.Expr] = []
    seen: dict[tuple[sympy.Basic, int], sympy.Symbol] = {}

    def rw(node: sympy.Basic) -> sympy.Expr:
        if isinstance(node, sympy.Rational):
            return node
        if isinstance(node, sympy.Add):
            return sympy.Add(*[rw(a) for a in node.args])
        if isinstance(node, sympy.Mul):
            return sympy.Mul(*[rw(a) for a in node.args])
        if isinstance(node, sympy.CRootOf):  # y with its polynomial P(y) = 0
            if (node, 0) not in seen:
                if len(ys) >= MAX_RADICALS:
                    raise _TooLarge
                y = sympy.Dummy(f"y{len(ys)}")
                rels.append(sympy.expand(node.poly.as_expr(y)))
                ys.append(y)
                seen[(node, 0)] = y
            return seen[(node, 0)]
        if isinstance(node, sympy.Pow) and isinstance(node.args[1], sympy.Rational):
            b, k = node.args
            if isinstance(k, sympy.Integer):
                return rw(b) ** k
            q = int(k.q)
            if (b, q) not in seen:
                if len(ys) >= MAX_RADICALS:
                    raise _TooLarge
                bb = sympy.together(rw(b))
                num, den = sympy.fraction(bb)
                y = sympy.Dummy(f"y{len(ys)}")
                rels.append(sympy.expand(den * y**q - num))
                ys.append(y)
                seen[(b, q)] = y
            return seen[(b, q)] ** int(k.p)
        raise _NotAlgebraic

    try:
        num, den = sympy.fraction(sympy.together(rw(c)))
    except _NotAlgebraic:
        return None
    degree = 1
    for r, y in zip(rels, ys, strict=True):
        degree *= sympy.degree(r, y)
    if degree > MAX_DEGREE:
        raise _TooLarge
    P = sympy.expand(den * x - num)
    for y, r in zip(reversed(ys), reversed(rels), strict=True):
        _tick(deadline)
        P = sympy.expand(sympy.resultant(P, r, y))
    poly = sympy.Poly(P, x, domain=sympy.QQ)
    return None if poly.is_zero else poly


def _algebraic_sign(c: sympy.Expr, deadline: Any) -> Sign:
    """Sign of a closed real algebraic number, exactly (see the module docstring)."""
    if isinstance(c, sympy.Rational):
        return Sign(_rsign(c), "exact rational arithmetic")
    try:
        P = _annihilator(c, deadline)
    except _TooLarge:
        P = None
    bound: Fraction | None = None
    known_nonzero = False
    if P is not None:
        coeffs = {m[0]: Fraction(int(v.p), int(v.q)) for m, v in P.terms()}
        low = min(coeffs)
        q0 = abs(coeffs[low])
        rest = max((abs(v) for k, v in coeffs.items() if k > low), default=Fraction(0))
        if low == 0:
            known_nonzero = True  # P(0) != 0 and P(c) = 0
        elif rest == 0:
            return Sign(0, f"algebraic: its annihilating polynomial is a monomial x^{low} (resultants)")
        bound = q0 / (q0 + rest)  # every root of Q = P / x^low has |root| > bound
    for bits in PRECISIONS:
        _tick(deadline)
        try:
            enc = intervals.enclose(c, bits)
        except intervals.Unenclosable as exc:
            why = f"no enclosure ({exc})"
            break
        s = intervals.sign_of(enc)
        if s is not None:
            how = "algebraic, non-zero (annihilating polynomial with P(0) != 0); " if known_nonzero else ""
            return Sign(s, f"{how}interval enclosure {intervals.show(enc)} at {bits} bits excludes 0")
        if bound is not None and not known_nonzero and intervals.within(enc, bound):
            return Sign(
                0,
                f"algebraic: a root of its annihilating polynomial x^{low}*Q(x) (resultants), and its "
                f"enclosure at {bits} bits lies within Cauchy's bound {_frac(bound)} below which Q has no root",
            )
        why = f"the enclosure at {bits} bits contains 0"
    else:
        why = f"the enclosure at {PRECISIONS[-1]} bits still contains 0"
    if known_nonzero:
        return Sign(None, f"algebraic and non-zero (P(0) != 0), but its sign was not enclosed: {why}", True)
    return Sign(None, f"algebraic number not decided: {why}")


def _rsign(r: sympy.Rational) -> int:
    p = int(r.p)
    return (p > 0) - (p < 0)


def _frac(x: Fraction) -> str:
    from symcal.exact.numbers import fraction_str

    if max(x.numerator.bit_length(), x.denominator.bit_length()) > 200:
        return f"~2^{x.numerator.bit_length() - x.denominator.bit_length()}"
    return fraction_str(x)


# ---------------------------------------------------------------------------------------
# the test
# ---------------------------------------------------------------------------------------


def _as_expr(expr: Any, param: str) -> sympy.Expr:
    if isinstance(expr, bool):
        raise invalid(param, expr, "a number or a sympy expression, not a bool")
    if isinstance(expr, Fraction):
        return sympy.Rational(expr.numerator, expr.denominator)
    if isinstance(expr, int):
        return sympy.Integer(expr)
    if isinstance(expr, sympy.Basic):
        if not isinstance(expr, sympy.Expr):
            raise invalid(param, _short(expr), "a real expression (not a relation or a set)")
        return expr
    if isinstance(expr, float):
        raise invalid(param, expr, "an exact number or a sympy expression, not a float")
    raise invalid(param, expr, "a number or a sympy expression")


def sign(expr: Any, *, deadline: Any = None) -> Sign:
    """The sign of a closed real expression: -1, 0, +1, or None (undecided), with the reason.

    0 only for a formal zero; +-1 only by exact evaluation or a rigorous enclosure (see the
    module docstring for the rules).  An expression with free symbols gets 0 when it is
    formally zero identically in them, else None (:func:`zero_test` also looks for a point
    where it is non-zero).  ``deadline``: a ``time.monotonic()`` instant or an object with
    ``expired()``; past it the answer is None ("gave up").  Absurd sizes raise
    :class:`symcal.errors.InvalidInput` naming ``expr``."""
    _check_deadline(deadline)
    e = _as_expr(expr, "expr")
    if isinstance(e, sympy.Rational):
        return Sign(_rsign(e), "exact rational arithmetic")
    check_size(e, "expr")
    if e.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo, sympy.I):
        return Sign(None, "not a finite real number (nan, infinity or I in it)")
    if deadline is None:
        deadline = time.monotonic() + DEFAULT_SECONDS
    left = _seconds_left(deadline)
    try:
        if left is not None and left <= 0:
            raise _OutOfTime
        with _interrupt_after(left):
            got = _sign(e, deadline)
            if got.value is None and not got.nonzero:
                return _simplified(e, got, deadline)
            return got
    except _OutOfTime:
        return Sign(None, "gave up: the deadline passed")


def _simplified(e: sympy.Expr, undecided: Sign, deadline: Any) -> Sign:
    """The last formal step: sympy's ``simplify`` returning exactly 0 proves a zero."""
    _tick(deadline)
    if sympy.count_ops(e) > MAX_SIMPLIFY_OPS:
        return undecided
    try:
        r = sympy.simplify(e)
    except _OutOfTime:
        raise
    except Exception:  # noqa: BLE001 - sympy internals: nothing decided
        return undecided
    if r == 0:
        return Sign(0, "formally zero: sympy's simplify rewrites it to 0")
    return undecided


_RELATIONS = {
    "==": lambda s: s == 0, "!=": lambda s: s != 0, ">": lambda s: s > 0, ">=": lambda s: s >= 0,
    "<": lambda s: s < 0, "<=": lambda s: s <= 0,
}


def truth(relation: Any, *, deadline: Any = None) -> bool | None:
    """Whether a closed statement holds: a relation (``Eq``, ``Ne``, ``<``, ``<=``, ``>``, ``>=``
    between real expressions) is True / False when :func:`sign` decides the sign of
    ``lhs - rhs`` (``!=`` is also decided by a proven non-zero of unknown sign); ``And``, ``Or``,
    ``Not``, ``Implies``, ``Equivalent`` combine their parts in three-valued logic; None when
    undecided (never a guess)."""
    _check_deadline(deadline)
    if relation is sympy.true or relation is True:
        return True
    if relation is sympy.false or relation is False:
        return False
    if isinstance(relation, sympy.Not):
        t = truth(relation.args[0], deadline=deadline)
        return None if t is None else not t
    if isinstance(relation, sympy.And | sympy.Or):
        parts = [truth(a, deadline=deadline) for a in relation.args]
        decisive = isinstance(relation, sympy.Or)  # the value one part makes the whole take
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    if isinstance(relation, sympy.Implies):
        return truth(sympy.Or(sympy.Not(relation.args[0]), relation.args[1], evaluate=False), deadline=deadline)
    if isinstance(relation, sympy.Equivalent):
        parts = [truth(a, deadline=deadline) for a in relation.args]
        return None if None in parts else len(set(parts)) == 1
    op = getattr(relation, "rel_op", None)
    if op not in _RELATIONS:
        return None
    try:
        lhs, rhs = relation.lhs, relation.rhs
        floats = {f: sympy.Rational(f) for side in (lhs, rhs) if isinstance(side, sympy.Basic)
                  for f in side.atoms(sympy.Float)}
        if floats:  # at their exact binary value, as sign() takes them: sympy's 1/10 - 0.1 is a double's 0
            lhs, rhs = lhs.xreplace(floats), rhs.xreplace(floats)
        diff = lhs - rhs
        if diff.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I):
            return None
        s = sign(diff, deadline=deadline)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    if s.value is None:
        if s.nonzero and op in ("==", "!="):
            return op == "!="
        return None
    return bool(_RELATIONS[op](s.value))


def _quick_enclosure(e: sympy.Expr) -> Sign | None:
    """A cheap first try: a 128-bit outward-rounded enclosure of the expression as given that
    excludes 0 decides the sign rigorously (most non-zero residuals end here); anything else
    (an enclosure containing 0, or no enclosure) goes on to the formal analysis."""
    if e.free_symbols:
        return None
    from symcal.exact import intervals

    try:
        with intervals.precision(128):
            x = intervals.enclose(e, 128)
            s = intervals.sign_of(x)
            shown = intervals.show(x)
    except Exception:  # noqa: BLE001 - no enclosure: the formal analysis decides
        return None
    if s in (-1, 1):
        return Sign(s, f"interval enclosure {shown} at 128 bits excludes 0")
    return None


def _sign(e: sympy.Expr, deadline: Any) -> Sign:
    if isinstance(e, sympy.Float):
        r = sympy.Rational(e)
        return Sign(_rsign(r), "a floating-point number, taken at its exact binary value")
    quick = _quick_enclosure(e)
    if quick is not None:
        return quick
    n = _normalise(e, deadline)
    free = n.expr.free_symbols - set(n.gens)
    how = _how(n)
    if n.terms is not None:
        if not n.terms:
            return Sign(0, f"formally zero: it expands to 0{how}")
        # every coefficient is algebraic: decide each exactly
        nonzero_coeff = False
        undecided_coeff = None
        zero_reasons = []
        constant: Sign | None = None  # the expansion (or numerator) is one non-zero number
        for key, c in n.terms.items():
            s = _algebraic_sign(c, deadline)
            if s.is_zero is True:
                zero_reasons.append(s.reason)
            elif s.nonzero:
                nonzero_coeff = True
                if not key and len(n.terms) == 1:
                    what = f"the rational {_short(c)}" if isinstance(c, sympy.Rational) else "an algebraic number"
                    constant = Sign(s.value, f"it expands to {what}{how}; {s.reason}", True)
            else:
                undecided_coeff = s
        if not nonzero_coeff and undecided_coeff is None:
            return Sign(0, f"formally zero: every coefficient of its {n.part} is 0{how}; {zero_reasons[0]}")
        if free:
            return Sign(None, "not formally zero; it depends on " + ", ".join(sorted(map(str, free))))
        if constant is not None and not n.fraction and constant.value is not None:
            return constant
        if constant is not None:
            theorem: str | None = "a non-zero constant numerator"
        else:
            theorem = _independence(n) if nonzero_coeff else None
    else:
        if free:
            return Sign(None, "too large to expand; it depends on " + ", ".join(sorted(map(str, free))))
        theorem = None
    # a closed expression that is not formally zero: enclose its normal form
    env_exprs = n.gens
    target = n.expr
    last = "no enclosure attempted"
    for bits in PRECISIONS:
        _tick(deadline)
        try:
            env = {g: intervals.enclose(v, bits) for g, v in env_exprs.items()}
            enc = intervals.enclose(target, bits, env)
        except intervals.Unenclosable as exc:
            last = f"no enclosure ({exc})"
            break
        got = intervals.sign_of(enc)
        if got is not None:
            pre = f"non-zero by {theorem}; " if theorem else ""
            return Sign(got, f"{pre}interval enclosure {intervals.show(enc)} at {bits} bits excludes 0{how}")
        last = f"the enclosure at {bits} bits, {intervals.show(enc)}, contains 0"
    if theorem:
        return Sign(None, f"non-zero by {theorem}, but its sign was not enclosed: {last}", True)
    return Sign(None, f"not formally zero, and {last}")


def _how(n: _Normal) -> str:
    if n.log_base:
        shown = ", ".join(map(str, n.log_base[:6])) + (", ..." if len(n.log_base) > 6 else "")
        return " (logs over the coprime base {" + shown + "})"
    return ""


def _independence(n: _Normal) -> str | None:
    """The theorem that makes "some coefficient is non-zero" a proof of non-zero, if any."""
    assert n.terms is not None
    if n.expr.free_symbols - set(n.gens):
        return None
    logs = {g for g, v in n.gens.items() if isinstance(v, sympy.log)}
    exps = {g for g, v in n.gens.items() if isinstance(v, sympy.exp)}
    if not n.atoms <= set(n.gens):
        return None  # an opaque atom (pi, exp(sqrt 2), ...)
    used = set(n.atoms)
    if used <= logs and all(sum(k for _, k in key) <= 1 and all(k >= 0 for _, k in key) for key in n.terms):
        return "Baker's theorem (a linear form in logs of pairwise coprime integers, algebraic coefficients)"
    if len(used) == 1 and used <= exps:
        (g,) = used
        if _is_algebraic(n.gens[g].args[0]):
            return "Lindemann-Weierstrass (a sum of exp of distinct rationals, algebraic coefficients)"
    return None


@dataclass(frozen=True)
class ZeroTest:
    """The answer of :func:`zero_test`: ``zero`` is True (formally zero, identically in any
    symbols), False (certainly non-zero: at a shown exact point when it has symbols) or None."""

    zero: bool | None
    reason: str


def zero_test(expr: Any, *, deadline: Any = None, points: int = 12) -> ZeroTest:
    """Is ``expr`` zero?  Closed expressions: :func:`sign`.  With free symbols: True only
    when formally zero identically; False only when :func:`sign` shows it non-zero at an
    exact rational point that respects the symbols' assumptions (positive, integer, ...)."""
    _check_deadline(deadline)
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 10_000:
        raise invalid("points", points, "a number of test points from 0 to 10000")
    e = _as_expr(expr, "expr")
    s = sign(e, deadline=deadline)
    if s.is_zero is not None or not e.free_symbols:
        return ZeroTest(s.is_zero, s.reason if s.value == 0 else str(s))
    syms = sorted(e.free_symbols, key=str)
    rng = random.Random(7)
    tried = 0
    for _ in range(points):
        if _expired(deadline):
            break
        pt = {x: _value_for(x, rng) for x in syms}
        if any(v is None for v in pt.values()):
            break
        try:
            v = e.xreplace(pt)
        except (ZeroDivisionError, TypeError):
            continue
        if v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
            continue
        tried += 1
        sv = sign(v, deadline=deadline)
        if sv.nonzero:
            at = ", ".join(f"{x}={_short(pt[x])}" for x in syms)
            return ZeroTest(False, f"non-zero at {at}: {sv}")
    return ZeroTest(None, f"{s.reason}; none of {tried} exact points showed it non-zero")


def _value_for(x: sympy.Symbol, rng: random.Random) -> sympy.Rational | None:
    """A rational value that has every assumption the symbol declares (positive, integer,
    ...), or None when no simple value does (prime, irrational, ...)."""
    v = sympy.Integer(rng.randint(1, 9)) if x.is_integer else sympy.Rational(rng.randint(1, 40), rng.randint(1, 7))
    if x.is_negative or x.is_nonpositive:
        v = -v
    for name, want in x.assumptions0.items():
        have = getattr(v, f"is_{name}", None)
        if want is not None and have is not None and have != want:
            return None
        if want is True and have is None:
            return None
    return v
