"""Rigorous interval evaluation of real expressions (mpmath ``iv``: every constant, operation
and elementary function rounded outward) -- the one interval evaluator of the code base.

* :func:`compile_enclosure` turns a sympy expression into a closure ``env -> interval`` (symbols
  bound to intervals in ``env``); the interval backend's branch and bound calls it on many boxes,
  :func:`enclose` once.  Evaluation raises :class:`Undefined` where an operation is possibly
  undefined on the intervals given (``log`` of an interval reaching 0, a division by an interval
  containing 0, a root of a possibly negative value, no applicable ``Piecewise`` branch);
  compiling raises :class:`~symcal.errors.NoBackendAvailable` for an unsupported function.
* :func:`compile_truth` gives the three-valued truth (True / False / None) of a relation or a
  boolean combination of relations on a box; :func:`holds` that of ``d REL 0`` for an interval d.
* :func:`enclose` evaluates a closed expression (or one with symbols bound in ``env``) at a
  given working precision and returns an interval that certainly contains its value, or raises
  :class:`Unenclosable`: an unsupported function, a possibly undefined operation, a non-finite
  result, or -- for a closed value, ``limits=True`` -- an ``exp`` whose argument is beyond
  :data:`MAX_EXP_ARG` (``exp(exp(exp(10)))`` would need more bits than there is time for) or an
  integer power beyond :data:`MAX_INT_POWER`.  :func:`enclosure` gives the endpoints as Fractions.

The sign and zero tests live in :mod:`symcal.exact.zero`; this module only encloses.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import NoBackendAvailable

__all__ = ["Unenclosable", "Undefined", "MAX_EXP_ARG", "MAX_INT_POWER", "Env", "compile_enclosure", "compile_truth",
           "holds", "enclose", "enclosure", "precision", "finite", "sign_of", "sign_lo", "sign_hi", "endpoints",
           "within", "show", "from_fraction", "hull", "intersect"]

# |x| beyond this in exp(x): the result has about 190,000 binary digits before the point
MAX_EXP_ARG = 2**17
MAX_INT_POWER = 100_000


class Unenclosable(Exception):
    """No enclosure: unsupported, possibly undefined, not finite or too large."""


class Undefined(Unenclosable):
    """The expression is possibly undefined (or not finite) somewhere on the intervals given."""


def _iv() -> Any:
    from mpmath import iv

    return iv


def _L() -> Any:
    import mpmath.libmp as L

    return L


@contextlib.contextmanager
def precision(bits: int) -> Iterator[Any]:
    """Set the working precision of mpmath's ``iv`` context for a block (it has no workprec)."""
    iv = _iv()
    old = iv.prec
    iv.prec = bits
    try:
        yield iv
    finally:
        iv.prec = old


def finite(x: Any) -> bool:
    """Are both endpoints finite (no inf, no nan)?"""
    L = _L()
    return not any(t in (L.fnan, L.finf, L.fninf) for t in x._mpi_)


def sign_lo(x: Any) -> int:
    """The sign of the lower endpoint."""
    return int(_L().mpf_sign(x._mpi_[0]))


def sign_hi(x: Any) -> int:
    """The sign of the upper endpoint."""
    return int(_L().mpf_sign(x._mpi_[1]))


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


def show(x: Any, digits: int = 8) -> str:
    """``[lo, hi]`` with ``digits`` significant digits (inf and nan spelled out)."""
    import mpmath

    return f"[{mpmath.nstr(mpmath.mpf(x._mpi_[0]), digits)}, {mpmath.nstr(mpmath.mpf(x._mpi_[1]), digits)}]"


def from_fraction(q: Fraction) -> Any:
    """The tightest interval around ``q`` at the current precision."""
    iv = _iv()
    if q.denominator == 1:
        return iv.mpf(q.numerator)
    return iv.mpf(q.numerator) / iv.mpf(q.denominator)


_ROOTS: dict[tuple[Any, int], tuple[Fraction, Fraction]] = {}


def root_interval(r: Any, bits: int) -> Any:
    """An interval containing the real algebraic number ``r`` (a sympy ``CRootOf``): the
    ``r.index``-th real root, in increasing order, of its square-free polynomial, isolated by
    sympy's exact real-root isolation (rational endpoints, no floating point) to width below
    ``2**-bits``."""
    key = (r, bits)
    if key not in _ROOTS:
        found = r.poly.intervals(eps=sympy.Rational(1, 2 ** min(bits, 8192)))
        real = [ab for ab, _ in found]
        if r.index >= len(real):  # pragma: no cover - CRootOf indexes the real roots first
            raise Unenclosable(f"{r} has no real root number {r.index}")
        a, b = real[r.index]
        if len(_ROOTS) > 1000:
            _ROOTS.clear()
        _ROOTS[key] = (Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q)))
    return hull(*_ROOTS[key])


def hull(lo: Fraction, hi: Fraction) -> Any:
    """An interval containing ``[lo, hi]``."""
    if lo == hi:
        return from_fraction(lo)
    return _iv().make_mpf((from_fraction(lo)._mpi_[0], from_fraction(hi)._mpi_[1]))


def intersect(a: Any, b: Any) -> Any:
    """The intersection of two enclosures of the same value (``a`` if they do not meet, which two
    true enclosures cannot)."""
    L = _L()
    lo = a._mpi_[0] if L.mpf_cmp(a._mpi_[0], b._mpi_[0]) >= 0 else b._mpi_[0]
    hi = a._mpi_[1] if L.mpf_cmp(a._mpi_[1], b._mpi_[1]) <= 0 else b._mpi_[1]
    if L.mpf_cmp(lo, hi) > 0:
        return a
    return _iv().make_mpf((lo, hi))


Env = Mapping[sympy.Symbol, Any]
Fn = Callable[[Env], Any]


def _argument_limit(a: Any, what: str) -> None:
    lo, hi = endpoints(a)
    if max(abs(lo), abs(hi)) > MAX_EXP_ARG:
        raise Undefined(f"{what} of an argument beyond {MAX_EXP_ARG} in absolute value")


@dataclass(frozen=True)
class _Compiler:
    """The state of one :func:`compile_enclosure` call: mpmath's ``iv`` context and the two
    options.  ``comp`` dispatches on the sympy node type to the handlers of :data:`_HANDLERS`."""

    iv: Any
    exact_floats: bool
    limits: bool

    def comp(self, e: Any) -> Fn:
        if e is sympy.pi:
            return lambda env: self.iv.pi
        if e is sympy.E:
            return lambda env: self.iv.e
        for types, handler in _HANDLERS:
            if isinstance(e, types):
                return handler(self, e)
        raise NoBackendAvailable(f"interval: {type(e).__name__} is not supported (in {sympy.sstr(e)[:80]})")


def _c_symbol(c: _Compiler, e: Any) -> Fn:
    def sym(env: Env) -> Any:
        if e not in env:
            raise Unenclosable(f"the symbol {e} has no value")
        return env[e]
    return sym


def _c_float(c: _Compiler, e: Any) -> Fn:
    if not c.exact_floats:
        raise NoBackendAvailable(f"interval: the float {e} has no exact value; write it as a Rational")
    r = sympy.Rational(e)  # the float's exact binary value
    q = Fraction(int(r.p), int(r.q))
    return lambda env: from_fraction(q)


def _c_rational(c: _Compiler, e: Any) -> Fn:
    q = Fraction(int(e.p), int(e.q))
    return lambda env: from_fraction(q)


def _c_root(c: _Compiler, e: Any) -> Fn:
    if not e.is_real:
        raise NoBackendAvailable(f"interval: {e} is not a real root")
    iv = c.iv
    return lambda env: root_interval(e, iv.prec)


def _c_addmul(c: _Compiler, e: Any) -> Fn:
    parts = [c.comp(a) for a in e.args]
    is_add = isinstance(e, sympy.Add)

    def addmul(env: Env) -> Any:
        out = parts[0](env)
        for f in parts[1:]:
            out = out + f(env) if is_add else out * f(env)
        return out
    return addmul


def _c_pow(c: _Compiler, e: Any) -> Fn:
    base, ex = e.args
    if base is sympy.E:
        return c.comp(sympy.exp(ex, evaluate=False))
    fb = c.comp(base)
    if isinstance(ex, sympy.Integer):
        return _integer_power(c, fb, int(ex))
    if isinstance(ex, sympy.Rational) and int(ex.q) == 2:
        return _half_power(c, fb, int(ex.p))
    return _general_power(c, fb, c.comp(ex))


def _integer_power(c: _Compiler, fb: Fn, n: int) -> Fn:
    if c.limits and abs(n) > MAX_INT_POWER:
        raise NoBackendAvailable(f"interval: an integer power beyond {MAX_INT_POWER}")

    def ipow(env: Env) -> Any:
        b = fb(env)
        if n >= 0:
            return b ** n
        d = b ** (-n)
        if sign_lo(d) <= 0 <= sign_hi(d):
            raise Undefined("division by an interval containing 0")
        return 1 / d
    return ipow


def _half_power(c: _Compiler, fb: Fn, p: int) -> Fn:
    """``b ** (p/2)`` as a power of the (outward rounded) square root."""
    iv = c.iv

    def half(env: Env) -> Any:
        b = fb(env)
        if sign_lo(b) < 0 or (p < 0 and sign_lo(b) <= 0):
            raise Undefined("square root of a possibly negative (or zero, when inverted) value")
        r = iv.sqrt(b)
        return r ** p if p > 0 else 1 / (r ** (-p))
    return half


def _general_power(c: _Compiler, fb: Fn, fe: Fn) -> Fn:
    """``b ** x = exp(x log b)`` for a positive base."""
    iv, limits = c.iv, c.limits

    def gpow(env: Env) -> Any:
        b = fb(env)
        if sign_lo(b) <= 0:
            raise Undefined("non-integer power of a possibly non-positive base")
        x = fe(env) * iv.log(b)
        if limits:
            _argument_limit(x, "a power whose logarithm is")
        return iv.exp(x)
    return gpow


def _c_elementary(c: _Compiler, e: Any) -> Fn:
    iv, limits = c.iv, c.limits
    fa = c.comp(e.args[0])
    fn = iv.exp if isinstance(e, sympy.exp) else iv.sin if isinstance(e, sympy.sin) else iv.cos
    name = type(e).__name__

    def elementary(env: Env) -> Any:
        a = fa(env)
        if limits or name != "exp":  # sin / cos of a huge interval: mpmath reduces slowly
            _argument_limit(a, name)
        return fn(a)
    return elementary


def _c_log(c: _Compiler, e: Any) -> Fn:
    if len(e.args) != 1:
        raise NoBackendAvailable(f"interval: log with a base: {e}")
    iv = c.iv
    fa = c.comp(e.args[0])

    def log(env: Env) -> Any:
        a = fa(env)
        if sign_lo(a) <= 0:
            raise Undefined("log of a possibly non-positive value")
        return iv.log(a)
    return log


def _c_abs(c: _Compiler, e: Any) -> Fn:
    fa = c.comp(e.args[0])
    return lambda env: abs(fa(env))


def _c_maxmin(c: _Compiler, e: Any) -> Fn:
    iv = c.iv
    parts = [c.comp(a) for a in e.args]
    is_max = isinstance(e, sympy.Max)

    def mm(env: Env) -> Any:
        L = _L()
        vals = [f(env) for f in parts]
        lo, hi = vals[0]._mpi_
        for v in vals[1:]:
            vlo, vhi = v._mpi_
            if is_max:
                lo = lo if L.mpf_cmp(lo, vlo) >= 0 else vlo
                hi = hi if L.mpf_cmp(hi, vhi) >= 0 else vhi
            else:
                lo = lo if L.mpf_cmp(lo, vlo) <= 0 else vlo
                hi = hi if L.mpf_cmp(hi, vhi) <= 0 else vhi
        return iv.make_mpf((lo, hi))
    return mm


def _c_piecewise(c: _Compiler, e: Any) -> Fn:
    """The hull of the branches whose condition may hold, up to the first that surely holds."""
    iv = c.iv
    branches = [(c.comp(x), compile_truth(cond)) for x, cond in e.args]

    def pw(env: Env) -> Any:
        L = _L()
        lo = hi = None
        for fx, fc in branches:
            t = fc(env)
            if t is False:
                continue
            vlo, vhi = fx(env)._mpi_
            lo = vlo if lo is None or L.mpf_cmp(vlo, lo) < 0 else lo
            hi = vhi if hi is None or L.mpf_cmp(vhi, hi) > 0 else hi
            if t is True:
                break
        if lo is None:
            raise Undefined("no Piecewise branch applies")
        return iv.make_mpf((lo, hi))
    return pw


# checked in this order (first match wins); pi and E are checked before, by identity
_HANDLERS: list[tuple[Any, Callable[[_Compiler, Any], Fn]]] = [
    (sympy.Symbol, _c_symbol),
    (sympy.Float, _c_float),
    (sympy.Rational, _c_rational),
    (sympy.CRootOf, _c_root),
    (sympy.Add | sympy.Mul, _c_addmul),
    (sympy.Pow, _c_pow),
    (sympy.exp | sympy.sin | sympy.cos, _c_elementary),
    (sympy.log, _c_log),
    (sympy.Abs, _c_abs),
    (sympy.Max | sympy.Min, _c_maxmin),
    (sympy.Piecewise, _c_piecewise),
]


def compile_enclosure(expr: Any, *, exact_floats: bool = False, limits: bool = False) -> Fn:
    """A closure evaluating ``expr`` on intervals (call it inside :func:`precision`).

    A sympy Float is refused (``NoBackendAvailable``: it has no exact value, write a Rational)
    unless ``exact_floats``, which takes its exact binary value.  ``limits`` refuses arguments of
    exp / sin / cos / non-integer powers beyond :data:`MAX_EXP_ARG` and integer powers beyond
    :data:`MAX_INT_POWER` (for one closed value, where such a size means a runaway computation;
    the branch and bound leaves them to its boxes).  Evaluation raises :class:`Undefined`."""
    return _Compiler(_iv(), exact_floats, limits).comp(sympy.sympify(expr))


def compile_truth(c: Any) -> Callable[[Env], bool | None]:
    """Three-valued truth of a relation ``>=, >, <=, <`` or a boolean combination of them on a
    box: True (on every point), False (on none) or None."""
    if c is sympy.true or c is True:
        return lambda env: True
    if c is sympy.false or c is False:
        return lambda env: False
    if isinstance(c, sympy.And | sympy.Or):
        parts = [compile_truth(a) for a in c.args]
        is_and = isinstance(c, sympy.And)

        def andor(env: Env) -> bool | None:
            vals = [f(env) for f in parts]
            if is_and:
                return False if False in vals else (True if all(v is True for v in vals) else None)
            return True if True in vals else (False if all(v is False for v in vals) else None)
        return andor
    if isinstance(c, sympy.Not):
        inner = compile_truth(c.args[0])

        def neg(env: Env) -> bool | None:
            v = inner(env)
            return None if v is None else not v
        return neg
    if isinstance(c, sympy.Rel) and c.rel_op in (">=", ">", "<=", "<"):
        fd = compile_enclosure(c.lhs - c.rhs)
        op = c.rel_op

        def rel(env: Env) -> bool | None:
            try:
                d = fd(env)
            except Undefined:
                return None
            if not finite(d):
                return None
            return holds(d, op)
        return rel
    raise NoBackendAvailable(f"interval: condition {sympy.sstr(c)[:80]} is not a relation >=, >, <=, <")


def holds(d: Any, op: str) -> bool | None:
    """Does ``d REL 0`` hold for every value of the interval d (True), for none (False)?"""
    slo, shi = sign_lo(d), sign_hi(d)
    if op == ">=":
        return True if slo >= 0 else (False if shi < 0 else None)
    if op == ">":
        return True if slo > 0 else (False if shi <= 0 else None)
    if op == "<=":
        return True if shi <= 0 else (False if slo > 0 else None)
    return True if shi < 0 else (False if slo >= 0 else None)


def enclose(expr: Any, bits: int, env: Env | None = None) -> Any:
    """An mpmath interval containing the value of ``expr`` (a sympy expression), computed at
    ``bits`` bits; symbols are looked up in ``env`` (intervals).  Floats count with their exact
    binary value, and the size limits apply.  Raises :class:`Unenclosable`."""
    with precision(bits):
        try:
            out = compile_enclosure(expr, exact_floats=True, limits=True)(env or {})
        except NoBackendAvailable as exc:
            raise Unenclosable(str(exc).removeprefix("interval: ")) from None
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as exc:
            raise Unenclosable(f"{type(exc).__name__}: {exc}") from None
        if not finite(out):
            raise Unenclosable(f"the enclosure of {sympy.sstr(expr)[:60]} is not finite")
        return out


def enclosure(expr: Any, *, precision: int = 200) -> tuple[Fraction, Fraction]:
    """A rigorous enclosure ``(lo, hi)`` of a closed expression, as exact Fractions."""
    return endpoints(enclose(expr, precision))
