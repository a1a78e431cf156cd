"""A safe parser of expressions and relations written in sympy syntax.

The text is parsed with Python's :mod:`ast` and the tree is turned into sympy objects by hand:
nothing is ever ``eval``-ed, attribute access and unknown names are refused, and a float
literal such as ``0.5`` is refused with the exact fix (``1/2``) -- integer division of sympy
integers is exact, so ``1/2`` *is* one half.

Allowed: integers, the variables given by the caller (``u1..ud`` or ``p1..pn``), ``+ - * / **``,
the functions ``Max Min Abs Piecewise exp log sqrt`` (and ``And Or Not`` in relations), tuples
and ``True`` inside ``Piecewise``, and the comparisons ``= == <= >= < >`` (one ``=`` means
equality, as in ``u1 + u2 + u3 = 0``).

Limits on what the text may *build*, not only on how it is written (each refusal is one
:class:`~symcal.errors.InvalidInput` line):

* ``MAX_LEN`` characters of text;
* ``MAX_DEPTH`` levels of nesting (parentheses, calls, signs, powers); a flat sum or product of
  thousands of terms is one level, built in one step;
* every intermediate result is bounded before it is built, by an upper estimate of its size:
  the bits of its exact constants (``MAX_BITS``), its polynomial degree (``MAX_DEGREE``) and the
  number of monomials it would have when expanded (``MAX_TERMS``; the engine expands products).
  A power tower such as ``((2**64)**64)**64`` or ``((u1**9)**9)**9`` is refused before the number
  or the polynomial exists, whatever each exponent is;
* a fractional power of an exact constant is limited to constants of ``MAX_ROOT_BITS`` bits
  (sympy looks for perfect powers, which costs time in the size of the number).
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import math
import re
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import InvalidInput, invalid

__all__ = ["parse_expression", "parse_relation", "variables", "parse_time_limit", "MAX_LEN", "MAX_DEPTH", "MAX_BITS",
           "MAX_DEGREE", "MAX_TERMS", "MAX_ARGS", "PARSE_SECONDS"]

_FUNCTIONS: dict[str, Any] = {
    "Max": sympy.Max, "Min": sympy.Min, "Abs": sympy.Abs, "abs": sympy.Abs,
    "Piecewise": sympy.Piecewise, "exp": sympy.exp, "log": sympy.log, "sqrt": sympy.sqrt,
    "max": sympy.Max, "min": sympy.Min,
}
_LOGIC: dict[str, Any] = {"And": sympy.And, "Or": sympy.Or, "Not": sympy.Not}
MAX_LEN = 500_000
MAX_DEPTH = 50
MAX_BITS = 4096  # about 1,233 decimal digits; Python prints at most 4,300 digits of an int
MAX_DEGREE = 64
MAX_TERMS = 20_000
MAX_ROOT_BITS = 64
MAX_ARGS = 64  # arguments of one Max / Min (sympy compares them pairwise: 400 took 46 s)
PARSE_SECONDS = 60.0  # CPU seconds for reading one problem's expressions, unless parse_time_limit says
# (process time at which reading stops, its budget), per thread / task
_deadline: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar("symcal_parse_deadline",
                                                                                        default=None)
_PARSE_STACK = 256 * 1024 * 1024  # bytes of stack for parsing a long text (reserved, not used)
_MAX_LEN = MAX_LEN  # the old private name


def variables(prefix: str, count: int) -> list[sympy.Symbol]:
    """``prefix1 .. prefix<count>`` as real sympy symbols (``u1..ud``, ``p1..pn``)."""
    return [sympy.Symbol(f"{prefix}{i}") for i in range(1, count + 1)]


@contextlib.contextmanager
def parse_time_limit(seconds: float) -> Iterator[None]:
    """While the block runs, reading expressions stops with a one-line
    :class:`~symcal.errors.InvalidInput` once it has spent ``seconds`` CPU seconds in all
    (checked between the nodes of the text; every single step is bounded by the size limits)."""
    token = _deadline.set((time.process_time() + seconds, seconds))
    try:
        yield
    finally:
        _deadline.reset(token)


def _single_equals(text: str) -> str:
    # "a = b" -> "a == b"; leave <=, >=, ==, != alone
    return re.sub(r"(?<![<>=!])=(?!=)", "==", text)


@dataclass(frozen=True)
class _Size:
    """An upper estimate of the size of a value: ``num``/``den`` bound log2 of the numerators and
    denominators of its exact coefficients, ``deg`` its polynomial degree in its atoms (variables
    and function calls, which stay unexpanded), ``terms`` its monomials once expanded."""

    num: float = 0.0
    den: float = 0.0
    deg: int = 0
    terms: float = 1.0
    atoms: frozenset[int] = frozenset()


_ONE = _Size()


def _exact(x: Any) -> _Size:
    """The size of an exact rational number: ceil(log2) of its numerator and denominator."""
    return _Size(float((abs(int(x.p)) - 1).bit_length()) if x.p else 0.0, float((int(x.q) - 1).bit_length()))


def _log2_add(a: float, b: float) -> float:
    hi, lo = max(a, b), min(a, b)
    return hi + math.log2(1.0 + 2.0 ** (lo - hi)) if lo - hi > -60 else hi + 1e-9


def _monomials(deg: int, atoms: int) -> float:
    """Monomials of degree <= ``deg`` in ``atoms`` atoms (a cap, not a count)."""
    if deg <= 0:
        return 1.0
    return float(min(math.comb(atoms + deg, deg), 10**18))


def _sum_size(sizes: list[_Size]) -> _Size:
    num, den, deg, terms = sizes[0].num, sizes[0].den, sizes[0].deg, sizes[0].terms
    atoms: set[int] = set(sizes[0].atoms)
    for s in sizes[1:]:
        # a/b + c/d = (ad + cb) / bd
        num, den = _log2_add(num + s.den, s.num + den), den + s.den
        deg, terms = max(deg, s.deg), terms + s.terms
        atoms |= s.atoms
    return _Size(num, den, deg, min(terms, _monomials(deg, len(atoms))), frozenset(atoms))


def _product_size(sizes: list[_Size]) -> _Size:
    num, den, deg, terms = sizes[0].num, sizes[0].den, sizes[0].deg, sizes[0].terms
    atoms: set[int] = set(sizes[0].atoms)
    for s in sizes[1:]:
        num = num + s.num + math.log2(max(1.0, min(terms, s.terms)))
        den, deg, terms = den + s.den, deg + s.deg, terms * s.terms
        atoms |= s.atoms
    return _Size(num, den, deg, min(terms, _monomials(deg, len(atoms))), frozenset(atoms))


def _power_size(base: _Size, k: int, negative: bool) -> _Size:
    num = k * (base.num + math.log2(max(1.0, base.terms)))
    den = k * base.den
    if negative:
        num, den = den, num
    deg = k * base.deg
    terms = base.terms ** k if base.terms < 1e6 else math.inf
    return _Size(num, den, deg, min(terms, _monomials(deg, len(base.atoms))), base.atoms)


def _is_logic(x: Any) -> bool:
    """A relation, a connective of relations, or True/False -- not a symbol (sympy's Symbol is
    also a Boolean, so ``And(u1, u2)`` would otherwise pass for a formula)."""
    from sympy.logic.boolalg import BooleanAtom, BooleanFunction

    return isinstance(x, sympy.core.relational.Relational | BooleanFunction | BooleanAtom)


class _Builder:
    def __init__(self, param: str, text: str, names: dict[str, sympy.Symbol], relations: bool) -> None:
        self.param, self.text, self.names, self.relations = param, text, names, relations
        self.atom_ids = {nm: i for i, nm in enumerate(names)}
        self.next_atom = len(names)
        self.calls: dict[bytes, tuple[Any, _Size]] = {}  # a call's text -> its value (a repeated term is built once)
        self.raw = text.encode("utf-8")  # ast offsets count UTF-8 bytes
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(self.raw) if ch == 10]
        self.deadline = _deadline.get() or (time.process_time() + PARSE_SECONDS, PARSE_SECONDS)
        self.nodes = 0

    def fail(self, what: str, fix: str | None = None) -> Exception:
        return invalid(self.param, self.text, what, fix)

    def build(self, tree: ast.AST) -> Any:
        return self(tree, 0)[0]

    # ------------------------------------------------------------------ sizes
    def _atom(self) -> _Size:
        self.next_atom += 1
        return _Size(0.0, 0.0, 1, 1.0, frozenset({self.next_atom}))

    def _bounded(self, size: _Size, what: str) -> _Size:
        """Refuse ``size`` before the value is built when it is beyond the limits."""
        if size.deg > MAX_DEGREE:
            raise self.fail(f"a polynomial degree of at most {MAX_DEGREE}; {what} would build degree {size.deg:,}")
        if size.num > MAX_BITS or size.den > MAX_BITS:
            raise self.fail(f"exact numbers of at most {MAX_BITS} bits (about {int(MAX_BITS * 0.30103)} digits); "
                            f"{what} would build one of about {int(max(size.num, size.den)):,} bits")
        if size.terms > MAX_TERMS:
            raise self.fail(f"at most {MAX_TERMS:,} terms once expanded; {what} would build about "
                            f"{size.terms:.3g}")
        return size

    def _settle(self, value: Any, size: _Size) -> tuple[Any, _Size]:
        """An exact number's true size replaces the estimate."""
        if isinstance(value, sympy.Rational):
            return value, _exact(value)
        return value, size

    def _arith(self, *values: Any) -> None:
        for v in values:
            if not isinstance(v, sympy.Expr):
                raise self.fail("arithmetic (+ - * / **) on numbers and expressions, not on a relation or truth "
                                f"value ({sympy.sstr(v)[:40]})")

    # ------------------------------------------------------------------ the tree
    def __call__(self, node: ast.AST, depth: int) -> tuple[Any, _Size]:  # noqa: C901 - one case per node type
        self.nodes += 1
        if self.nodes % 64 == 0 and time.process_time() > self.deadline[0]:
            raise self.fail(f"a problem whose expressions can be read within {self.deadline[1]:g} CPU seconds; "
                            "this one is too large")
        if depth > MAX_DEPTH:
            raise self.fail(f"an expression nested at most {MAX_DEPTH} deep (parentheses, calls, signs, powers); "
                            "a long flat sum or product is fine")
        if isinstance(node, ast.Expression):
            return self(node.body, depth)
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                return (sympy.true if v else sympy.false), _ONE
            if isinstance(v, int):
                if v.bit_length() > MAX_BITS:
                    raise self.fail(f"exact numbers of at most {MAX_BITS} bits; a literal has {v.bit_length()} bits")
                return self._settle(sympy.Integer(v), _ONE)
            if isinstance(v, float):
                src = ast.get_source_segment(self.text, node) or repr(v)
                if re.fullmatch(r"[0-9.]{1,30}", src):
                    fr = Fraction(src)
                    fix = f"write {fr.numerator}/{fr.denominator}"
                else:
                    fix = "write it as a fraction of integers such as 1/2"
                raise self.fail(f"exact numbers; {src} is a float", fix)
            raise self.fail(f"numbers and the variables {self._names()}, not {type(v).__name__} {str(v)[:30]!r}")
        if isinstance(node, ast.Name):
            if node.id in self.names:
                return self.names[node.id], _Size(0.0, 0.0, 1, 1.0, frozenset({self.atom_ids[node.id]}))
            if node.id in ("pi", "E", "oo", "I", "nan", "zoo", "inf"):
                raise self.fail(f"rational numbers and the variables {self._names()}; {node.id} is not allowed")
            raise self.fail(f"only the variables {self._names()} and the functions "
                            f"{', '.join(sorted(set(_FUNCTIONS) | (set(_LOGIC) if self.relations else set())))}; "
                            f"unknown name {node.id[:30]!r}")
        if isinstance(node, ast.UnaryOp):
            a, sa = self(node.operand, depth + 1)
            if isinstance(node.op, ast.USub):
                self._arith(a)
                return self._settle(-a, sa)
            if isinstance(node.op, ast.UAdd):
                self._arith(a)
                return a, sa
            if isinstance(node.op, ast.Not) and self.relations:
                return self._logic(sympy.Not, [a]), _ONE
            raise self.fail(f"+, -, *, /, **; not the operator {type(node.op).__name__}")
        if isinstance(node, ast.BinOp):
            return self._binop(node, depth)
        if isinstance(node, ast.BoolOp) and self.relations:
            args = [self(v, depth + 1)[0] for v in node.values]
            return self._logic(sympy.And if isinstance(node.op, ast.And) else sympy.Or, args), _ONE
        if isinstance(node, ast.Compare):
            if not self.relations:
                raise self.fail("an expression, not a relation")
            left, _ = self(node.left, depth + 1)
            out = []
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right, _ = self(right_node, depth + 1)
                rel = {ast.Eq: sympy.Eq, ast.LtE: sympy.Le, ast.GtE: sympy.Ge, ast.Lt: sympy.Lt,
                       ast.Gt: sympy.Gt}.get(type(op))
                if rel is None:
                    raise self.fail(f"one of = <= >= < >, not {type(op).__name__}")
                self._arith(left, right)
                out.append(rel(left, right, evaluate=False))
                left = right
            return (out[0] if len(out) == 1 else self._logic(sympy.And, out)), _ONE
        if isinstance(node, ast.Call):
            key = self._segment(node)
            if key is not None and key in self.calls:
                return self.calls[key]
            out = self._call(node, depth)
            if key is not None:
                self.calls[key] = out
            return out
        if isinstance(node, ast.Attribute):
            raise self.fail("no attribute access (x.y)")
        raise self.fail(f"an arithmetic expression; {type(node).__name__} is not allowed")

    def _segment(self, node: ast.AST) -> bytes | None:
        """The source bytes of ``node`` (``ast.get_source_segment`` re-splits the whole text on every call)."""
        try:
            start = self.line_starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
            end = self.line_starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        except (AttributeError, IndexError, TypeError):
            return None
        return self.raw[start:end]

    def _logic(self, fn: Any, args: list[Any]) -> Any:
        for a in args:
            if not _is_logic(a):
                raise self.fail(f"{fn.__name__} of relations, not of the expression {sympy.sstr(a)[:40]}")
        return fn(*args)

    def _chain(self, node: ast.BinOp, ops: tuple[type, ...]) -> list[tuple[type, ast.AST]]:
        """A left-leaning chain ``a op b op c ...`` of operators in ``ops`` as ``[(Add, a), (op, b), ...]``,
        walked without recursion (a flat sum of thousands of terms is one level deep)."""
        items: list[tuple[type, ast.AST]] = []
        cur: ast.AST = node
        while isinstance(cur, ast.BinOp) and isinstance(cur.op, ops):
            items.append((type(cur.op), cur.right))
            cur = cur.left
        items.append((ops[0], cur))
        items.reverse()
        return items

    def _binop(self, node: ast.BinOp, depth: int) -> tuple[Any, _Size]:  # noqa: C901
        op = node.op
        if isinstance(op, ast.Add | ast.Sub):
            vals, sizes = [], []
            for kind, sub in self._chain(node, (ast.Add, ast.Sub)):
                v, s = self(sub, depth + 1)
                self._arith(v)
                vals.append(-v if kind is ast.Sub else v)
                sizes.append(s)
            size = self._bounded(_sum_size(sizes), f"a sum of {len(vals)} terms")
            return self._settle(sympy.Add(*vals), size)
        if isinstance(op, ast.Mult | ast.Div):
            vals, sizes = [], []
            for kind, sub in self._chain(node, (ast.Mult, ast.Div)):
                v, s = self(sub, depth + 1)
                self._arith(v)
                if kind is ast.Div:
                    if v == 0:
                        raise self.fail("no division by zero")
                    v, s = 1 / v, _Size(s.den, s.num, s.deg, s.terms, s.atoms)
                vals.append(v)
                sizes.append(s)
            size = self._bounded(_product_size(sizes), f"a product of {len(vals)} factors")
            return self._settle(sympy.Mul(*vals), size)
        if isinstance(op, ast.Pow):
            a, sa = self(node.left, depth + 1)
            b, _ = self(node.right, depth + 1)
            self._arith(a, b)
            if not (isinstance(b, sympy.Rational) and abs(b) <= MAX_DEGREE and b.q <= 2):
                raise self.fail(f"a power with a small integer (or half-integer) exponent, |e| <= {MAX_DEGREE}")
            if a == 0 and b < 0:
                raise self.fail("no division by zero (0 to a negative power)")
            k = int(math.ceil(abs(b)))
            if b.q != 1 and isinstance(a, sympy.Rational) and max(sa.num, sa.den) > MAX_ROOT_BITS:
                raise self.fail(f"a fractional power only of exact numbers of at most {MAX_ROOT_BITS} bits")
            size = self._bounded(_power_size(sa, k, b < 0), f"the power ...**{b}")
            return self._settle(a ** b, size)
        if isinstance(op, ast.BitXor):
            raise self.fail("** for powers", "'^' is not a power in Python syntax; write u1**2")
        if isinstance(op, ast.BitAnd | ast.BitOr) and self.relations:
            cls = ast.BitAnd if isinstance(op, ast.BitAnd) else ast.BitOr
            args = [self(sub, depth + 1)[0] for _, sub in self._chain(node, (cls,))]
            return self._logic(sympy.And if cls is ast.BitAnd else sympy.Or, args), _ONE
        raise self.fail(f"+, -, *, /, **; not the operator {type(op).__name__}")

    def _call(self, node: ast.Call, depth: int) -> tuple[Any, _Size]:
        if not isinstance(node.func, ast.Name):
            raise self.fail("plain function calls such as Max(0, u1); attribute access is not allowed")
        fname = node.func.id
        fn = _FUNCTIONS.get(fname) or (_LOGIC.get(fname) if self.relations else None)
        if fn is None:
            raise self.fail(f"the functions {', '.join(sorted(_FUNCTIONS))}; unknown function {fname[:30]!r}")
        if node.keywords:
            raise self.fail(f"{fname}(...) without keyword arguments")
        if fname == "Piecewise":
            pairs = []
            if not node.args:
                raise self.fail("Piecewise((expr, condition), ..., (expr, True))")
            for arg in node.args:
                if not isinstance(arg, ast.Tuple) or len(arg.elts) != 2:
                    raise self.fail("Piecewise((expr, condition), ..., (expr, True))")
                expr, _ = self(arg.elts[0], depth + 2)
                self._arith(expr)
                relations, self.relations = self.relations, True  # a condition is a relation
                try:
                    cond, _ = self(arg.elts[1], depth + 2)
                finally:
                    self.relations = relations
                if not _is_logic(cond):
                    raise self.fail(f"Piecewise conditions that are relations or True, not {sympy.sstr(cond)[:40]}")
                pairs.append((expr, cond))
            return self._opaque(sympy.Piecewise(*pairs))
        args = [self(a, depth + 1) for a in node.args]
        if not args:
            raise self.fail(f"{fname}(...) with at least one argument")
        if fname in ("Abs", "abs", "exp", "log", "sqrt") and len(args) != 1:
            raise self.fail(f"{fname}(x) with one argument")
        if fname in _LOGIC:
            return self._logic(fn, [a for a, _ in args]), _ONE
        if len(args) > MAX_ARGS:
            raise self.fail(f"{fname}(...) with at most {MAX_ARGS} arguments, not {len(args)}")
        self._arith(*(a for a, _ in args))
        if fname == "sqrt" and isinstance(args[0][0], sympy.Rational) and max(args[0][1].num, args[0][1].den) \
                > MAX_ROOT_BITS:
            raise self.fail(f"sqrt only of exact numbers of at most {MAX_ROOT_BITS} bits")
        if fname == "exp" and isinstance(args[0][0], sympy.Rational) and abs(args[0][0]) > 10**6:
            raise self.fail("exp of a number of size at most 10**6")
        return self._opaque(fn(*(a for a, _ in args)))

    def _opaque(self, value: Any) -> tuple[Any, _Size]:
        """A function call's value: an atom of its own (its insides were bounded when built)."""
        if isinstance(value, sympy.Rational):
            return value, _exact(value)
        return value, self._atom()  # an irrational constant (sqrt(2)) counts as an atom too

    def _names(self) -> str:
        keys = sorted(self.names, key=lambda s: (len(s), s))
        if len(keys) > 4:
            return f"{keys[0]}..{keys[-1]}"
        return ", ".join(keys) or "(none)"


def _ast(src: str, param: str, text: str) -> ast.AST:
    """``ast.parse`` of one expression.  A long flat sum is a deep left-leaning tree for Python's
    own parser, whose conversion to Python objects recurses once per term and counts that depth
    against the recursion limit: a long text is parsed with the limit raised, in a thread of its
    own with a large stack (the text is at most ``MAX_LEN`` characters, so the tree at most
    that deep; measured: 70,000 levels fit in 8 MB of stack)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["tree"] = ast.parse(src, mode="eval")
        except BaseException as e:  # noqa: BLE001 - handed to the caller below
            box["error"] = e

    if len(src) <= 2_000:
        run()
    else:
        old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
        started = False
        try:
            sys.setrecursionlimit(max(old_limit, MAX_LEN + 1_000))
            threading.stack_size(_PARSE_STACK)
            t = threading.Thread(target=run, name="symcal-parse")
            t.start()
            started = True
        except (RuntimeError, ValueError, MemoryError):  # no room for the stack (an address-space limit)
            pass
        finally:
            threading.stack_size(old_stack)
        if started:
            t.join()
        sys.setrecursionlimit(old_limit)
        if not started:
            run()  # here, with the ordinary limit: a very long sum is refused as too deep, not a crash
    e = box.get("error")
    if e is None:
        return box["tree"]
    if isinstance(e, SyntaxError):
        raise invalid(param, text, f"an expression in sympy syntax ({e.msg})") from None
    if isinstance(e, MemoryError | RecursionError):
        raise invalid(param, text, f"an expression nested at most {MAX_DEPTH} deep (parentheses, calls, signs, "
                                   "powers)") from None
    if isinstance(e, ValueError):  # e.g. a NUL character
        raise invalid(param, text, f"an expression in sympy syntax ({e})") from None
    raise e


def _parse(text: Any, param: str, names: list[sympy.Symbol], relations: bool) -> Any:
    if isinstance(text, sympy.Basic):
        by_name = {str(s): s for s in names}
        text = text.xreplace({s: by_name[str(s)] for s in text.free_symbols if str(s) in by_name})
        extra = {s for s in text.free_symbols if s not in set(names)}
        if extra:
            raise invalid(param, text, f"only the variables {', '.join(map(str, names))}",
                          f"unknown symbols {sorted(map(str, extra))}")
        if text.has(sympy.Float):
            raise invalid(param, text, "exact numbers, not floats", "use sympy.Rational")
        if relations and not _is_logic(text):
            raise invalid(param, text, "a relation such as 'u1 + u2 = 0' or 'p1 >= p2'")
        return _finite(text, param, text)
    if isinstance(text, bool) or not isinstance(text, str):
        raise invalid(param, text, "a string in sympy syntax" + (" (a relation)" if relations else ""))
    if len(text) > MAX_LEN:
        raise invalid(param, f"<{len(text)} characters>", f"an expression of at most {MAX_LEN} characters")
    src = (_single_equals(text) if relations else text).strip()
    if not src:
        raise invalid(param, text, "a non-empty expression in sympy syntax" + (" (a relation)" if relations else ""))
    tree = _ast(src, param, text)
    b = _Builder(param, src, {str(s): s for s in names}, relations)
    try:
        out = b.build(tree)
    except InvalidInput:
        raise
    except RecursionError:
        raise invalid(param, text, f"an expression nested at most {MAX_DEPTH} deep") from None
    except (TypeError, ValueError, AttributeError, ArithmeticError) as e:  # sympy refused to build it
        raise invalid(param, text, f"an expression sympy can build ({type(e).__name__}: {str(e)[:80]})") from None
    if relations and not _is_logic(out):
        raise invalid(param, text, "a relation such as 'u1 + u2 = 0' or 'p1 >= p2'")
    if not relations and not isinstance(out, sympy.Expr):
        raise invalid(param, text, "an expression, not a relation")
    return _finite(out, param, text)


def _finite(out: Any, param: str, text: Any) -> Any:
    """Refuse what is not a finite real expression: ``log(0)`` (zoo), ``sqrt(-1)`` (I), nan, oo."""
    bad = [a for a in (sympy.zoo, sympy.nan, sympy.oo, sympy.I) if out.has(a)]
    if bad or out.has(-sympy.oo):
        what = sympy.sstr(bad[0]) if bad else "-oo"
        raise invalid(param, text, f"a finite real expression; it contains {what}",
                      "e.g. log(0) is zoo, sqrt(-1) is I")
    return out


def parse_expression(text: Any, param: str, names: list[sympy.Symbol]) -> sympy.Expr:
    """``text`` (a string, or a sympy expression) as a sympy expression in ``names``."""
    out = _parse(text, param, names, relations=False)
    if not isinstance(out, sympy.Expr):
        raise invalid(param, text, "an expression, not a relation")
    return out


def parse_relation(text: Any, param: str, names: list[sympy.Symbol]) -> Any:
    """``text`` (a string, or a sympy relation) as a sympy relation / boolean formula in ``names``."""
    out = _parse(text, param, names, relations=True)
    if out is sympy.true or out is sympy.false:
        raise invalid(param, text, "a relation that mentions a variable (it evaluated to a constant)")
    return out
