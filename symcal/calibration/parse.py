"""A safe parser of expressions and relations written in sympy syntax.

The text is parsed with Python's :mod:`ast` and the tree is turned into sympy objects by hand:
nothing is ever ``eval``-ed, attribute access and unknown names are refused, and a float
literal such as ``0.5`` is refused with the exact fix (``1/2``) -- integer division of sympy
integers is exact, so ``1/2`` *is* one half.

Allowed: integers, the variables given by the caller (``u1..ud`` or ``p1..pn``), ``+ - * / **``,
the functions ``Max Min Abs Piecewise exp log sqrt`` (and ``And Or Not`` in relations), tuples
and ``True`` inside ``Piecewise``, and the comparisons ``= == <= >= < >`` (one ``=`` means
equality, as in ``u1 + u2 + u3 = 0``).
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import invalid

__all__ = ["parse_expression", "parse_relation", "variables"]

_FUNCTIONS: dict[str, Any] = {
    "Max": sympy.Max, "Min": sympy.Min, "Abs": sympy.Abs, "abs": sympy.Abs,
    "Piecewise": sympy.Piecewise, "exp": sympy.exp, "log": sympy.log, "sqrt": sympy.sqrt,
    "max": sympy.Max, "min": sympy.Min,
}
_LOGIC: dict[str, Any] = {"And": sympy.And, "Or": sympy.Or, "Not": sympy.Not}
_MAX_LEN = 20_000


def variables(prefix: str, count: int) -> list[sympy.Symbol]:
    """``prefix1 .. prefix<count>`` as real sympy symbols (``u1..ud``, ``p1..pn``)."""
    return [sympy.Symbol(f"{prefix}{i}") for i in range(1, count + 1)]


def _single_equals(text: str) -> str:
    # "a = b" -> "a == b"; leave <=, >=, ==, != alone
    return re.sub(r"(?<![<>=!])=(?!=)", "==", text)


class _Builder:
    def __init__(self, param: str, text: str, names: dict[str, sympy.Symbol], relations: bool) -> None:
        self.param, self.text, self.names, self.relations = param, text, names, relations

    def fail(self, what: str, fix: str | None = None) -> Exception:
        return invalid(self.param, self.text, what, fix)

    def __call__(self, node: ast.AST) -> Any:  # noqa: C901 - one case per node type
        if isinstance(node, ast.Expression):
            return self(node.body)
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                if v:
                    return sympy.true
                return sympy.false
            if isinstance(v, int):
                return sympy.Integer(v)
            if isinstance(v, float):
                src = ast.get_source_segment(self.text, node) or repr(v)
                if re.fullmatch(r"[0-9.]{1,30}", src):
                    fr = Fraction(src)
                    fix = f"write {fr.numerator}/{fr.denominator}"
                else:
                    fix = "write it as a fraction of integers such as 1/2"
                raise self.fail(f"exact numbers; {src} is a float", fix)
            raise self.fail(f"numbers and the variables {self._names()}, not {type(v).__name__} {v!r}")
        if isinstance(node, ast.Name):
            if node.id in self.names:
                return self.names[node.id]
            if node.id in ("pi", "E", "oo", "I"):
                raise self.fail(f"rational numbers and the variables {self._names()}; {node.id} is not allowed")
            raise self.fail(f"only the variables {self._names()} and the functions "
                            f"{', '.join(sorted(set(_FUNCTIONS) | (set(_LOGIC) if self.relations else set())))}; "
                            f"unknown name {node.id!r}")
        if isinstance(node, ast.UnaryOp):
            a = self(node.operand)
            if isinstance(node.op, ast.USub):
                return -a
            if isinstance(node.op, ast.UAdd):
                return a
            if isinstance(node.op, ast.Not) and self.relations:
                return sympy.Not(a)
            raise self.fail(f"+, -, *, /, **; not the operator {type(node.op).__name__}")
        if isinstance(node, ast.BinOp):
            a, b = self(node.left), self(node.right)
            op = node.op
            if isinstance(op, ast.Add):
                return a + b
            if isinstance(op, ast.Sub):
                return a - b
            if isinstance(op, ast.Mult):
                return a * b
            if isinstance(op, ast.Div):
                if b == 0:
                    raise self.fail("no division by zero")
                return a / b
            if isinstance(op, ast.Pow):
                if not (isinstance(b, sympy.Rational) and abs(b) <= 64 and b.q <= 2):
                    raise self.fail("a power with a small integer (or half-integer) exponent, |e| <= 64")
                return a ** b
            if isinstance(op, ast.BitXor):
                raise self.fail("** for powers", "'^' is not a power in Python syntax; write u1**2")
            if isinstance(op, ast.BitAnd | ast.BitOr) and self.relations:
                return sympy.And(a, b) if isinstance(op, ast.BitAnd) else sympy.Or(a, b)
            raise self.fail(f"+, -, *, /, **; not the operator {type(op).__name__}")
        if isinstance(node, ast.BoolOp) and self.relations:
            args = [self(v) for v in node.values]
            return sympy.And(*args) if isinstance(node.op, ast.And) else sympy.Or(*args)
        if isinstance(node, ast.Compare):
            if not self.relations:
                raise self.fail("an expression, not a relation")
            left = self(node.left)
            out = []
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = self(right_node)
                rel = {ast.Eq: sympy.Eq, ast.LtE: sympy.Le, ast.GtE: sympy.Ge, ast.Lt: sympy.Lt,
                       ast.Gt: sympy.Gt}.get(type(op))
                if rel is None:
                    raise self.fail(f"one of = <= >= < >, not {type(op).__name__}")
                out.append(rel(left, right, evaluate=False))
                left = right
            return out[0] if len(out) == 1 else sympy.And(*out)
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise self.fail("plain function calls such as Max(0, u1); attribute access is not allowed")
            fname = node.func.id
            fn = _FUNCTIONS.get(fname) or (_LOGIC.get(fname) if self.relations else None)
            if fn is None:
                raise self.fail(f"the functions {', '.join(sorted(_FUNCTIONS))}; unknown function {fname!r}")
            if node.keywords:
                raise self.fail(f"{fname}(...) without keyword arguments")
            if fname == "Piecewise":
                pairs = []
                for arg in node.args:
                    if not isinstance(arg, ast.Tuple) or len(arg.elts) != 2:
                        raise self.fail("Piecewise((expr, condition), ..., (expr, True))")
                    expr = self(arg.elts[0])
                    sub = _Builder(self.param, self.text, self.names, True)
                    pairs.append((expr, sub(arg.elts[1])))
                return sympy.Piecewise(*pairs)
            args = [self(a) for a in node.args]
            if not args:
                raise self.fail(f"{fname}(...) with at least one argument")
            if fname in ("Abs", "abs", "exp", "log", "sqrt") and len(args) != 1:
                raise self.fail(f"{fname}(x) with one argument")
            return fn(*args)
        if isinstance(node, ast.Attribute):
            raise self.fail("no attribute access (x.y)")
        raise self.fail(f"an arithmetic expression; {type(node).__name__} is not allowed")

    def _names(self) -> str:
        keys = sorted(self.names, key=lambda s: (len(s), s))
        if len(keys) > 4:
            return f"{keys[0]}..{keys[-1]}"
        return ", ".join(keys) or "(none)"


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
        return text
    if isinstance(text, bool) or not isinstance(text, str):
        raise invalid(param, text, "a string in sympy syntax" + (" (a relation)" if relations else ""))
    if len(text) > _MAX_LEN:
        raise invalid(param, f"<{len(text)} characters>", f"an expression of at most {_MAX_LEN} characters")
    src = _single_equals(text) if relations else text
    try:
        tree = ast.parse(src.strip(), mode="eval")
    except SyntaxError as e:
        raise invalid(param, text, f"an expression in sympy syntax ({e.msg})") from None
    b = _Builder(param, src.strip(), {str(s): s for s in names}, relations)
    try:
        out = b(tree)
    except RecursionError:
        raise invalid(param, text, "an expression of sensible nesting depth") from None
    if relations and not isinstance(out, sympy.logic.boolalg.Boolean | sympy.core.relational.Relational):
        raise invalid(param, text, "a relation such as 'u1 + u2 = 0' or 'p1 >= p2'")
    if not relations and not isinstance(out, sympy.Expr):
        raise invalid(param, text, "an expression, not a relation")
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
