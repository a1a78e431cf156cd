"""Box covers: ``lhs REL rhs`` at every point of a box where the conditions hold, replayed with ball
arithmetic (python-flint's ``arb``, optional: every operation returns a ball containing the exact result).

Certificate ``{"kind": "interval", "lhs": S, "rhs": S, "relation": REL, "box": {VAR: [LO, HI]},
"conditions": [S, ...], "precision": BITS, "tree": TREE}`` (S an s-expression, LO/HI exact rationals).
The kernel proves ``g >= 0`` (or ``g > 0``) on the box, ``g = lhs - rhs`` (``rhs - lhs`` for ``<=`` /
``<``), by the tree:

``"enclosure"``
    the ball of ``g`` on the box is certainly ``>= 0`` (``> 0``), or some condition is certainly false
    on the box (no point of it is in the claim's domain);
``{"split": VAR, "at": Q, "lo": TREE, "hi": TREE}``
    ``LO < Q < HI`` for VAR, and both halves are covered;
``{"monotone": VAR, "sign": "+" | "-", "derivative": TREE, "face": TREE}``
    every condition is certainly true on the box, ``g`` is defined on it, and the sub-tree
    ``derivative`` proves ``dg >= 0`` (sign +) or ``-dg >= 0`` (sign -) on the box, with no conditions,
    for ``dg = dg/dVAR`` computed here symbolically; so ``g`` is smallest on the face VAR = LO (+) or
    VAR = HI (-), which the sub-tree ``face`` covers (mean value theorem: every operation used is
    differentiable where the derivative's balls are finite, which the sub-tree checks on every sub-box).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcal.kernel.poly import frac
from symcal.kernel.terms import RELATIONS, Algebra, Evaluator, Unsupported, is_bool, read_one

__all__ = ["available", "check_cover", "ball_of", "ball_truth", "derivative", "ArbAlgebra", "UNAVAILABLE"]

UNAVAILABLE = "python-flint not installed"

try:  # optional: pip install python-flint
    import flint
except ImportError:  # pragma: no cover - depends on the environment
    flint = None  # type: ignore[assignment]


def available() -> bool:
    return flint is not None


def _q(q: Fraction) -> Any:
    return flint.arb(q.numerator) / flint.arb(q.denominator)


def ball_of(lo: Fraction, hi: Fraction) -> Any:
    """A ball containing the interval [lo, hi]."""
    return _q(lo) if lo == hi else _q(lo).union(_q(hi))


def _ipow(a: Any, n: int) -> Any:
    """a**n for an integer n >= 0 (arb's own power is nan for a ball with negative points)."""
    if a > 0:
        return a ** n
    if a < 0:
        return (-a) ** n if n % 2 == 0 else -((-a) ** n)
    r = flint.arb(1)
    for _ in range(n):
        r = r * a
    return flint.arb(0).union(r.upper()) if n % 2 == 0 else r  # an even power is >= 0


class ArbAlgebra(Algebra):
    """Balls on a box; an operation outside its domain somewhere on the box is Unsupported."""

    def __init__(self, env: dict[str, Any]) -> None:
        self.env = env

    def num(self, q: Fraction) -> Any:
        return _q(q)

    def var(self, name: str) -> Any:
        if name not in self.env:
            raise Unsupported(f"the variable {name} is not in the box")
        return self.env[name]

    def div(self, a: Any, b: Any) -> Any:
        if b.contains(0):
            raise Unsupported("a divisor may be zero on this box")
        return a / b

    def pow(self, a: Any, q: Fraction) -> Any:
        if q.denominator == 1:
            if q < 0 and a.contains(0):
                raise Unsupported("a negative power of a ball containing zero")
            return _ipow(a, int(q)) if q >= 0 else 1 / _ipow(a, int(-q))
        if not a > 0:
            raise Unsupported("a non-integer power of a base that may be <= 0")
        return (_q(q) * a.log()).exp()

    def func(self, name: str, a: Any) -> Any:
        if name == "log" and not a > 0:
            raise Unsupported("log of a ball that may be <= 0")
        if name == "sqrt" and not a >= 0:
            raise Unsupported("sqrt of a ball that may be < 0")
        return {"exp": a.exp, "log": a.log, "sqrt": a.sqrt}[name]()

    def ite(self, node: list[Any], ev: Evaluator) -> Any:
        c = ball_truth(node[1], ev)
        if c is None:
            raise Unsupported("an if-then-else condition is undecided on this box")
        return ev.term(node[2] if c else node[3])


def ball_truth(e: Any, ev: Evaluator) -> bool | None:
    """True / False when the formula certainly holds / fails on the whole box, else None."""
    if e in ("true", "false"):
        return e == "true"
    if not isinstance(e, list):
        raise Unsupported(f"not a condition: {e!r}")
    op, args = e[0], e[1:]
    if op in ("and", "or"):  # a False part decides an "and", a True part an "or"; else an undecided part
        vals, decisive = [ball_truth(a, ev) for a in args], op == "or"
        return decisive if decisive in vals else (None if None in vals else not decisive)
    if op == "not" and len(args) == 1:
        v = ball_truth(args[0], ev)
        return None if v is None else not v
    if op in RELATIONS and len(args) == 2:
        try:
            d = ev.term(args[1]) - ev.term(args[0])  # the relation is 0 REL' d
        except Unsupported:
            return None
        if not d.is_finite():
            return None
        yes = {"<": d > 0, "<=": d >= 0, ">": d < 0, ">=": d <= 0}[op]
        no = {"<": d <= 0, "<=": d < 0, ">": d >= 0, ">=": d > 0}[op]
        return True if yes else (False if no else None)
    raise Unsupported(f"the condition connective {op!r} is not understood by the kernel")


def _fold(op: str, xs: list[Any]) -> Any:
    """``(op x1 ... xn)``, just ``x1`` when n = 1, 0 when n = 0."""
    return Fraction(0) if not xs else (xs[0] if len(xs) == 1 else [op, *xs])


def derivative(e: Any, x: str) -> Any:
    """d e / d x as a term (Fraction(0) when e does not depend on x)."""
    zero = Fraction(0)
    if isinstance(e, Fraction):
        return zero
    if isinstance(e, str):
        return Fraction(1) if e == x else zero
    op, args = e[0], e[1:]
    ds = [derivative(a, x) for a in args] if op != "^" else []
    if op in ("+", "-"):
        return zero if all(d == zero for d in ds) else [op, *ds]
    if op == "*":
        return _fold("+", [_fold("*", [*args[:i], d, *args[i + 1:]]) for i, d in enumerate(ds) if d != zero])
    if op == "/" and len(args) == 2:
        (a, b), (da, db) = args, ds
        return ["/", ["-", ["*", da, b], ["*", a, db]], ["^", b, Fraction(2)]]
    if op == "^" and len(args) == 2 and isinstance(args[1], Fraction):
        da = derivative(args[0], x)
        if da == zero or args[1] == 0:
            return zero
        return da if args[1] == 1 else ["*", args[1], ["^", args[0], args[1] - 1], da]
    if op in ("exp", "log", "sqrt") and len(args) == 1:
        if ds[0] == zero:
            return zero
        outer = {"exp": e, "log": ["/", Fraction(1), args[0]], "sqrt": ["/", Fraction(1, 2), e]}[op]
        return ["*", outer, ds[0]]
    raise Unsupported(f"no derivative for {op!r} (not differentiable everywhere)")


def _enclosure_ok(g: Any, strict: bool, env: dict[str, Any]) -> bool:
    try:
        v = Evaluator(ArbAlgebra(env)).term(g)
    except Unsupported:
        return False
    return bool(v.is_finite() and (v > 0 if strict else v >= 0))


def _env(box: dict[str, tuple[Fraction, Fraction]]) -> dict[str, Any]:
    return {v: ball_of(lo, hi) for v, (lo, hi) in box.items()}


def cover(g: Any, strict: bool, box: dict[str, tuple[Fraction, Fraction]], conds: list[Any], tree: Any,
          where: str = "root") -> str | None:
    """None when ``tree`` proves ``g > 0`` (strict) / ``g >= 0`` on the box where ``conds`` hold."""
    stack = [(g, strict, box, conds, tree, where)]
    while stack:
        g, strict, box, conds, tree, where = stack.pop()
        env = _env(box)
        ev = Evaluator(ArbAlgebra(env))
        if tree == "enclosure":
            if _enclosure_ok(g, strict, env):
                continue
            if any(ball_truth(c, ev) is False for c in conds):
                continue
            return f"{where}: the enclosure on {box} does not show the relation"
        if not isinstance(tree, dict):
            return f"{where}: a node is not 'enclosure' or an object"
        if "split" in tree:
            var, at = tree["split"], frac(tree["at"])
            if var not in box or not box[var][0] < at < box[var][1]:
                return f"{where}: split point {var} = {at} is not inside the box"
            stack.append((g, strict, {**box, var: (box[var][0], at)}, conds, tree["lo"], f"{where}/lo"))
            stack.append((g, strict, {**box, var: (at, box[var][1])}, conds, tree["hi"], f"{where}/hi"))
        elif "monotone" in tree:
            var, sign = tree["monotone"], tree.get("sign")
            if var not in box or sign not in ("+", "-"):
                return f"{where}: malformed monotone node"
            if not all(ball_truth(c, ev) is True for c in conds):
                return f"{where}: a condition is not certainly true on the box (needed for a monotone reduction)"
            try:
                v = ev.term(g)
            except Unsupported as e:
                return f"{where}: the function is not defined on the whole box ({e})"
            if not v.is_finite():
                return f"{where}: the function is not finite on the box"
            d = derivative(g, var)
            stack.append((d if sign == "+" else ["-", d], False, box, [], tree["derivative"], f"{where}/d{var}"))
            end = box[var][0] if sign == "+" else box[var][1]
            stack.append((g, strict, {**box, var: (end, end)}, conds, tree["face"], f"{where}/face"))
        else:
            return f"{where}: a node is neither a split, a monotone reduction nor 'enclosure'"
    return None


def check_cover(cert: dict[str, Any]) -> str | None:
    """None when the interval certificate proves its statement, else why not."""
    if flint is None:
        return UNAVAILABLE
    rel = cert.get("relation")
    if rel not in RELATIONS:
        return f"relation {rel!r}: expected one of {RELATIONS}"
    lhs, rhs = read_one(cert.get("lhs")), read_one(cert.get("rhs"))
    if not isinstance(cert.get("conditions", []), list):
        return "conditions is not a list of formulas"
    conds = [read_one(c) for c in cert.get("conditions", [])]
    if any(not is_bool(c, {}) for c in conds):
        return "a condition is not a formula"
    raw = cert.get("box")
    if not isinstance(raw, dict) or not raw:
        return "no box"
    box = {}
    for v, bounds in raw.items():
        if not (isinstance(bounds, list) and len(bounds) == 2):
            return f"box bounds of {v}: expected [lo, hi]"
        lo, hi = frac(bounds[0]), frac(bounds[1])
        if not lo <= hi:
            return f"box bounds of {v} are reversed"
        box[v] = (lo, hi)
    g = ["-", lhs, rhs] if rel in (">", ">=") else ["-", rhs, lhs]
    old = flint.ctx.prec
    precision = cert.get("precision", 53)
    if type(precision) is not int:
        return f"precision {precision!r}: expected a whole number of bits"
    flint.ctx.prec = max(53, min(precision, 4096))
    try:
        return cover(g, rel in ("<", ">"), box, conds, cert.get("tree"))
    finally:
        flint.ctx.prec = old
