"""Terms and formulas read from s-expressions, and their exact meanings.

After :func:`expand_lets`, a term is a ``Fraction`` (a number), a ``str`` (a variable, or ``true`` /
``false``) or a list ``[op, arg, ...]``; a name bound by ``let`` is replaced by the very object it is
bound to, so shared subterms stay shared (every interpretation below memoises by object identity).

The operators understood are those of SMT-LIB's real arithmetic and core theory
(``+ - * / to_real ite and or not => xor = distinct < <= > >=``) plus, for certificates' own terms,
``^`` with a literal exponent, ``exp log sqrt`` and a certificate's declared uninterpreted functions
(opaque, see :class:`RatAlgebra`).  Anything else is :class:`Unsupported`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from symcal.kernel.poly import Poly, RatFunc
from symcal.kernel.sexpr import parse

__all__ = ["Unsupported", "expand_lets", "read_one", "is_bool", "Algebra", "Evaluator", "PolyAlgebra", "RatAlgebra",
           "ValueAlgebra", "truth", "show", "BOOL_OPS", "RELATIONS"]

RELATIONS = ("<", "<=", ">", ">=")
BOOL_OPS = frozenset(("and", "or", "not", "=>", "xor", "=", "distinct") + RELATIONS)
_BUILTIN = frozenset(("+", "-", "*", "/", "^", "ite", "let", "to_real", "exp", "log", "sqrt", "true", "false"))


class Unsupported(ValueError):
    """The kernel does not give a meaning to this term (so it certifies nothing about it)."""


def expand_lets(e: Any, env: dict[str, Any] | None = None) -> Any:
    """``e`` with every ``let`` replaced by its (shared) bound terms.  Bindings are parallel,
    as in SMT-LIB: a binding's term is read in the environment outside the ``let``."""
    env = env or {}
    while isinstance(e, list) and len(e) == 3 and e[0] == "let":
        if not isinstance(e[1], list):
            raise Unsupported("malformed let")
        inner = dict(env)
        for b in e[1]:
            if not (isinstance(b, list) and len(b) == 2 and isinstance(b[0], str)):
                raise Unsupported(f"malformed let binding {b!r}")
            inner[b[0]] = expand_lets(b[1], env)
        env, e = inner, e[2]
    if isinstance(e, str):
        return env.get(e, e)
    if isinstance(e, list):
        if not e or not isinstance(e[0], str):
            raise Unsupported(f"not a term: {e!r}")
        return [e[0]] + [expand_lets(x, env) for x in e[1:]]
    if isinstance(e, Fraction):
        return e
    raise Unsupported(f"not a term: {e!r}")


def read_one(text: Any) -> Any:
    """The one s-expression of a certificate's string, its lets expanded."""
    items = parse(text) if isinstance(text, str) else None
    if items is None or len(items) != 1:
        raise Unsupported(f"expected the text of one s-expression, got {text!r:.80}")
    return expand_lets(items[0])


def is_bool(e: Any, sorts: dict[str, str]) -> bool:
    """Is ``e`` a formula (as opposed to a number-valued term)?"""
    if isinstance(e, str):
        return e in ("true", "false") or sorts.get(e) == "Bool"
    if isinstance(e, list):
        return e[0] in BOOL_OPS or (e[0] == "ite" and len(e) == 4 and is_bool(e[2], sorts))
    return False


def _integer(q: Fraction) -> int:
    if q.denominator != 1:
        raise Unsupported(f"the power {q} is not an integer (its value need not be rational)")
    return int(q)


class Algebra:
    """How numbers, variables, quotients ``a / b`` and powers ``a ^ q`` are interpreted (each subclass
    below defines these four).  ``functions``: names of uninterpreted functions, whose applications go
    to :meth:`transcendental`."""

    functions: frozenset[str] = frozenset()
    num: Callable[[Fraction], Any]
    var: Callable[[str], Any]
    div: Callable[[Any, Any], Any]
    pow: Callable[[Any, Fraction], Any]

    def func(self, name: str, a: Any) -> Any:
        raise Unsupported(f"the function {name} has no meaning in this check")

    def transcendental(self, node: list[Any], ev: Evaluator) -> Any:
        """``exp``/``log``/``sqrt`` or a non-integer power (by default: ``func`` / ``pow``)."""
        if node[0] == "^":
            return self.pow(ev.term(node[1]), node[2])
        return self.func(node[0], ev.term(node[1]))

    def ite(self, node: list[Any], ev: Evaluator) -> Any:
        raise Unsupported("an if-then-else term has no meaning in this check")


class Evaluator:
    """Interprets terms in an :class:`Algebra`, memoising shared subterms."""

    def __init__(self, algebra: Algebra) -> None:
        self.alg = algebra
        self.memo: dict[int, tuple[Any, Any]] = {}
        self.truths: dict[int, tuple[Any, bool]] = {}

    def term(self, e: Any) -> Any:
        hit = self.memo.get(id(e))
        if hit is None or hit[0] is not e:
            hit = self.memo[id(e)] = (e, self._term(e))
        return hit[1]

    def _term(self, e: Any) -> Any:
        alg = self.alg
        if isinstance(e, Fraction):
            return alg.num(e)
        if isinstance(e, str):
            if e in ("true", "false"):
                raise Unsupported(f"{e} used as a number")
            return alg.var(e)
        op, args = e[0], e[1:]
        if op == "ite" and len(args) == 3:
            return alg.ite(e, self)
        if op == "^":
            if len(args) != 2 or not isinstance(args[1], Fraction):
                raise Unsupported(f"^ needs a rational literal exponent: {e!r}")
            return alg.pow(self.term(args[0]), args[1]) if args[1].denominator == 1 else alg.transcendental(e, self)
        if op in ("exp", "log", "sqrt") and len(args) == 1 or op in alg.functions:
            return alg.transcendental(e, self)
        if op == "to_real" and len(args) == 1:
            return self.term(args[0])
        vals = [self.term(a) for a in args]
        if not vals:
            raise Unsupported(f"{op} without arguments")
        if op == "-" and len(vals) == 1:
            return -vals[0]
        fold = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": alg.div}.get(op)
        if fold is not None:  # left to right: (- a b c) is (a - b) - c
            return functools.reduce(fold, vals)
        raise Unsupported(f"the operator {op!r} is not understood by the kernel")


class PolyAlgebra(Algebra):
    """Polynomials: division only by a non-zero constant."""

    def num(self, q: Fraction) -> Poly:
        return Poly.const(q)

    def var(self, name: str) -> Poly:
        return Poly.var(name)

    def div(self, a: Poly, b: Poly) -> Poly:
        c = b.constant()
        if c is None or c == 0:
            raise Unsupported(f"division by {b!r}: not a non-zero constant, so not a polynomial")
        return a.scale(1 / c)

    def pow(self, a: Poly, q: Fraction) -> Poly:
        n = _integer(q)
        if n < 0:
            raise Unsupported("a negative power is not a polynomial")
        return a.power(n)


class RatAlgebra(Algebra):
    """Rational functions (a division by the zero polynomial is refused).

    An ``exp``/``log``/``sqrt`` term, a non-integer power or an application of one of the uninterpreted
    ``functions`` is read as an *opaque atom*: an indeterminate named by its own text, ``#(log (+ 1 x))``.
    Equal texts denote equal values, so when lhs - rhs is the zero rational function of the variables
    and the atoms taken as independent indeterminates, it is zero whatever values the atoms have."""

    def __init__(self, functions: Any = ()) -> None:
        if not isinstance(functions, list | tuple) or any(
                not isinstance(f, str) or f in BOOL_OPS or f in _BUILTIN for f in functions):
            raise Unsupported(f"functions {functions!r}: expected a list of names other than built-in operators")
        self.functions = frozenset(functions)

    def num(self, q: Fraction) -> RatFunc:
        return RatFunc(Poly.const(q))

    def var(self, name: str) -> RatFunc:
        if name.startswith("#"):
            raise Unsupported(f"the variable name {name!r} is reserved for opaque atoms")
        return RatFunc(Poly.var(name))

    def transcendental(self, node: list[Any], ev: Evaluator) -> RatFunc:
        return RatFunc(Poly.var("#" + show(node)))

    def div(self, a: RatFunc, b: RatFunc) -> RatFunc:
        if b.num.is_zero():
            raise Unsupported("division by the zero polynomial")
        return a * b.inverse()

    def pow(self, a: RatFunc, q: Fraction) -> RatFunc:
        n = _integer(q)
        if n < 0 and a.num.is_zero():
            raise Unsupported("a negative power of the zero polynomial")
        return a.power(n)


class ValueAlgebra(Algebra):
    """Exact values at a point (every variable must have a value)."""

    def __init__(self, point: dict[str, Fraction], sorts: dict[str, str] | None = None) -> None:
        self.point = point
        self.sorts = sorts or {}

    def num(self, q: Fraction) -> Fraction:
        return q

    def var(self, name: str) -> Fraction:
        if name not in self.point:
            raise Unsupported(f"no value for the variable {name}")
        return self.point[name]

    def div(self, a: Fraction, b: Fraction) -> Fraction:
        if b == 0:
            raise Unsupported("division by zero at this point")
        return a / b

    def pow(self, a: Fraction, q: Fraction) -> Fraction:
        n = _integer(q)
        if n < 0 and a == 0:
            raise Unsupported("a negative power of zero at this point")
        return a ** n

    def ite(self, node: list[Any], ev: Evaluator) -> Fraction:
        return ev.term(node[2] if truth(node[1], ev) else node[3])


def show(e: Any) -> str:
    """A term as text (canonical: the same term always gives the same text)."""
    if isinstance(e, Fraction):
        return str(e)
    if isinstance(e, str):
        return "|" + e + "|"
    return "(" + " ".join(show(x) for x in e) + ")"


def truth(e: Any, ev: Evaluator) -> bool:
    """The truth value of formula ``e`` at the point of ``ev`` (a :class:`ValueAlgebra`)."""
    hit = ev.truths.get(id(e))
    if hit is None or hit[0] is not e:
        hit = ev.truths[id(e)] = (e, _truth(e, ev))
    return hit[1]


def _truth(e: Any, ev: Evaluator) -> bool:
    alg = ev.alg
    assert isinstance(alg, ValueAlgebra)
    if e in ("true", "false"):
        return e == "true"
    if isinstance(e, str):
        if alg.sorts.get(e) != "Bool" or not isinstance(alg.point.get(e), bool):
            raise Unsupported(f"no truth value for {e}")
        return bool(alg.point[e])
    if not isinstance(e, list):
        raise Unsupported(f"not a formula: {e!r}")
    op, args = e[0], e[1:]
    if op == "and":
        return all(truth(a, ev) for a in args)
    if op == "or":
        return any(truth(a, ev) for a in args)
    if op == "not" and len(args) == 1:
        return not truth(args[0], ev)
    if op == "=>" and len(args) >= 2:
        return not all(truth(h, ev) for h in args[:-1]) or truth(args[-1], ev)
    if op == "xor" and len(args) == 2:
        return truth(args[0], ev) != truth(args[1], ev)
    if op == "ite" and len(args) == 3:
        return truth(args[1], ev) if truth(args[0], ev) else truth(args[2], ev)
    if op in ("=", "distinct") and len(args) >= 2:
        boolean = is_bool(args[0], alg.sorts)
        n_values = len({truth(a, ev) if boolean else ev.term(a) for a in args})
        return n_values == 1 if op == "=" else n_values == len(args)
    if op in RELATIONS and len(args) >= 2:
        vals = [ev.term(a) for a in args]
        cmp = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]
        return all(cmp(a, b) for a, b in zip(vals, vals[1:], strict=False))
    raise Unsupported(f"the connective {op!r} is not understood by the kernel")
