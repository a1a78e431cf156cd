"""Bounded inequalities with transcendental functions: z3 when algebraic, else rigorous
interval branch-and-bound (mpmath ``iv``, outward rounding).

A claim of kind ``interval`` (built with :func:`symcal.claims.constructors.bounded_inequality`)
says: for every point of a bounded box (exact rational bounds), where the side conditions
hold, ``lhs REL rhs`` with REL one of ``>=``, ``>``, ``<=``, ``<``.

Decision:

1. *Exact reduction.*  If ``lhs - rhs`` and the conditions are algebraic (rational
   functions, ``Abs``/``Max``/``Min``/``Piecewise``; square roots become auxiliary variables
   ``t >= 0, t**2 = g``), z3 decides the query over the reals with the box as hypotheses; a
   model is re-checked exactly (``symcal.backends.smt_claims``).
2. *Interval branch-and-bound.*  The sympy expression is compiled to mpmath ``iv`` interval
   operations (every operation, constant and elementary function outward-rounded); a box is
   closed when the enclosure of ``lhs - rhs`` satisfies the relation (natural enclosure
   intersected with the mean-value form), or when the side conditions are certainly false
   on it.  Tight points are handled by a derivative refinement: where the conditions hold on
   the whole box and a partial derivative has constant sign (its enclosure, or a recursive
   branch-and-bound proof of its sign, up to third derivatives), the box is reduced to the
   face where the minimum (maximum) lies; a face that shrinks to a rational point is
   decided by exact symbolic evaluation (``log(1) = 0``) or a high-precision enclosure.
   ``proved`` only when every sub-box is closed; ``refuted`` only at an exact rational
   point whose enclosure strictly violates the relation, re-checked at a higher precision
   with freshly compiled expressions; otherwise ``unknown`` with the covered fraction.

Sampling never proves anything here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget, Outcome
from symcal.claims.core import RELATIONS
from symcal.errors import InvalidClaim, NoBackendAvailable
from symcal.exact.intervals import (
    Env,
    Undefined,
    compile_enclosure,
    compile_truth,
    endpoints,
    finite,
    from_fraction,
    holds,
    hull,
    intersect,
    show,
    sign_hi,
    sign_lo,
)
from symcal.exact.intervals import precision as iv_precision
from symcal.verdicts import IntervalProof, Status, Witness

EXACT_SECONDS = 10.0  # CPU seconds for the exact sign of one value at a point


def _exact_sign(val: Any) -> int | None:
    """-1, 0, +1 by :func:`symcal.exact.sign` (formal zero, exact evaluation or a rigorous
    enclosure), None when undecided or absurdly large."""
    from symcal.errors import InvalidInput
    from symcal.exact import CpuBudget, sign

    try:
        return sign(val, deadline=CpuBudget(EXACT_SECONDS)).value
    except InvalidInput:
        return None

__all__ = ["NAME", "RELATIONS", "decide_bounded", "is_algebraic", "enclosure"]

NAME = "interval"
MAX_DERIVATIVE_LEVEL = 3

_SMOOTH = (sympy.Add, sympy.Mul, sympy.Pow, sympy.exp, sympy.log, sympy.Symbol, sympy.Number, sympy.NumberSymbol)



def _shown_bound(bound: Any) -> str:
    """An enclosure's endpoint (an mpmath mpf tuple) to 12 significant digits, also beyond a double's range."""
    import mpmath
    import mpmath.libmp as L

    f = L.to_float(bound)
    return format(f, ".12g") if math.isfinite(f) else mpmath.nstr(mpmath.mpf(bound), 12)


def _nearest_zero(lo: Fraction, hi: Fraction, count: int) -> list[int]:
    """The ``count`` integers of [lo, hi] nearest 0 (all of them when there are fewer), without
    enumerating the interval."""
    first, last = math.ceil(lo), math.floor(hi)
    if first > last:
        return []
    if first >= 0:
        return list(range(first, min(last, first + count - 1) + 1))
    if last <= 0:
        return list(range(max(first, last - count + 1), last + 1))
    return list(range(max(first, -count), min(last, count) + 1))

class _OutOfBudget(Exception):
    pass


# ---------------------------------------------------------------------------------------
# the interval evaluator is symcal.exact.intervals' (one evaluator in the code base)
# ---------------------------------------------------------------------------------------

def _exact_holds(v: Fraction, op: str) -> bool:
    return {">=": v >= 0, ">": v > 0, "<=": v <= 0, "<": v < 0}[op]


def enclosure(expr: Any, box: Mapping[sympy.Symbol, tuple[Any, Any]], *,
              precision: int = 53) -> tuple[Fraction, Fraction]:
    """A rigorous enclosure [lo, hi] of ``expr`` on ``box`` (exact bounds); the endpoints
    are the exact binary endpoints as Fractions.  Raises ``ValueError`` where the
    expression is undefined or not finite on the box."""
    from symcal.exact import to_fraction

    with iv_precision(precision):
        f = compile_enclosure(expr)
        env = {s: hull(to_fraction(lo, str(s)), to_fraction(hi, str(s))) for s, (lo, hi) in box.items()}
        try:
            v = f(env)
        except Undefined as e:
            raise ValueError(str(e)) from None
        if not finite(v):
            raise ValueError("the enclosure is not finite on this box")
        return endpoints(v)


# ---------------------------------------------------------------------------------------
# algebraic check and the z3 route
# ---------------------------------------------------------------------------------------


def is_algebraic(e: Any) -> bool:
    """Rational functions with Abs/Max/Min/Piecewise and square roots: what z3 can take
    after replacing square roots by auxiliary variables."""
    e = sympy.sympify(e)
    for node in sympy.preorder_traversal(e):
        if isinstance(node, sympy.Float):
            return False
        if isinstance(node, sympy.Pow):
            ex = node.args[1]
            if node.args[0] is sympy.E:
                return False
            if not (isinstance(ex, sympy.Integer) or (isinstance(ex, sympy.Rational) and int(ex.q) == 2)):
                return False
        elif isinstance(node, sympy.Function | sympy.NumberSymbol):
            if not isinstance(node, sympy.Abs | sympy.Max | sympy.Min | sympy.Piecewise):
                return False
    return True


def _root_reduction(exprs: list[Any], avoid: Any = ()) -> tuple[list[Any], list[Any], list[sympy.Symbol]]:
    """Replace each g**(p/2) by t**p with t >= 0, t**2 = g (an exact reduction); t is named unlike every
    symbol of ``exprs`` and ``avoid`` (the box's), so it is never one of the claim's variables."""
    aux: dict[Any, sympy.Symbol] = {}
    extra: list[Any] = []
    taken = {str(s) for x in exprs if isinstance(x, sympy.Basic) for s in x.free_symbols} | {str(s) for s in avoid}
    prefix = "sqrt_aux_"
    while any(name.startswith(prefix) for name in taken):  # never the name of a symbol of the claim
        prefix = "_" + prefix

    def rep(e: Any) -> Any:
        if isinstance(e, sympy.Pow) and isinstance(e.args[1], sympy.Rational) and int(e.args[1].q) == 2:
            g = rep(e.args[0])
            if g not in aux:
                t = sympy.Symbol(f"{prefix}{len(aux)}", real=True)
                aux[g] = t
                extra.extend([sympy.GreaterThan(t, 0, evaluate=False), sympy.Eq(t**2, g, evaluate=False)])
            return aux[g] ** int(e.args[1].p)
        if isinstance(e, sympy.Basic) and e.args:
            return e.func(*[rep(a) for a in e.args])
        return e
    out = [rep(sympy.sympify(x)) for x in exprs]
    return out, extra, list(aux.values())


def _relation(lhs: Any, op: str, rhs: Any) -> Any:
    cls = {">=": sympy.GreaterThan, ">": sympy.StrictGreaterThan, "<=": sympy.LessThan,
           "<": sympy.StrictLessThan}[op]
    return cls(lhs, rhs, evaluate=False)


def _box_bounds(box: dict[sympy.Symbol, tuple[Fraction, Fraction]]) -> list[Any]:
    """The box as relations lo <= s <= hi."""
    bounds = []
    for s, (lo, hi) in box.items():
        bounds += [sympy.GreaterThan(s, sympy.Rational(lo.numerator, lo.denominator), evaluate=False),
                   sympy.LessThan(s, sympy.Rational(hi.numerator, hi.denominator), evaluate=False)]
    return bounds


def _z3_route(lhs: Any, op: str, rhs: Any, box: dict[sympy.Symbol, tuple[Fraction, Fraction]],
              conds: list[Any], budget: Budget, scope: str, label: str) -> Outcome | None:
    """Decide an algebraic query with z3; None when z3 cannot settle it soundly."""
    from symcal.backends.smt_claims import decide_implies

    bounds = _box_bounds(box)
    reduced, extra, aux = _root_reduction([lhs, rhs] + conds, avoid=box)
    hyps: dict[str, list[Any]] = {"box": bounds}
    if reduced[2:]:
        hyps["conditions"] = list(reduced[2:])
    if extra:
        hyps["square_roots"] = extra
    sub = Budget(max(0.2, min(budget.left() * 0.5, 20.0)))
    out = decide_implies(hyps, _relation(reduced[0], op, reduced[1]), sub, scope, label)
    if out.status is Status.PROVED:
        note = "; square roots replaced by t >= 0, t**2 = g" if aux else ""
        return Outcome(Status.PROVED, scope + f" (algebraic: z3 over the reals{note})", "z3", out.evidence)
    if out.status is Status.REFUTED and not aux:
        return Outcome(Status.REFUTED, scope, "z3", out.evidence)
    if aux and out.status is not Status.PROVED:
        return _z3_aux_refutation(lhs, op, rhs, box, conds, hyps, reduced, budget, scope)
    return None


def _z3_aux_refutation(lhs: Any, op: str, rhs: Any, box: dict[sympy.Symbol, tuple[Fraction, Fraction]],
                       conds: list[Any], hyps: dict[str, list[Any]], reduced: list[Any], budget: Budget,
                       scope: str) -> Outcome | None:
    """z3's model of the reduced query has irrational square roots; round the original
    symbols' values to nearby rationals in the box and re-check them rigorously."""
    import z3

    from symcal.backends import z3_backend
    from symcal.backends.translate import Translator

    tr = Translator()
    try:
        cons = [tr(e) for v in hyps.values() for e in v] + [z3.Not(tr(_relation(reduced[0], op, reduced[1])))]
    except NoBackendAvailable:
        return None
    syms = list(box)
    res = z3_backend.solve(cons, Budget(max(0.2, min(budget.left() * 0.3, 10.0))), [tr.var(x) for x in syms])
    if res.answer != "sat" or res.model is None:
        return None
    raw = {x: res.model.get(str(x)) for x in syms}
    if any(v is None for v in raw.values()):
        return None
    f = sympy.sympify(lhs) - sympy.sympify(rhs)
    for den in (1, 2, 4, 10, 100, 1000, 10**4, 10**6, 10**9):
        pt = tuple(min(max(Fraction(raw[x]).limit_denominator(den), box[x][0]), box[x][1]) for x in syms)
        ok, detail = _recheck(f, syms, op, conds, pt, 160)
        if ok:
            return Outcome(Status.REFUTED, scope, NAME,
                           Witness({str(x): q for x, q in zip(syms, pt, strict=True)}, rechecked=True, detail=detail,
                                   found_by=f"z3 {z3_backend.version()} (square roots as auxiliary variables), "
                                            "rounded and re-checked by interval arithmetic"))
    return None


# ---------------------------------------------------------------------------------------
# branch and bound
# ---------------------------------------------------------------------------------------

Box = tuple[tuple[Fraction, Fraction], ...]


def _flip(op: str) -> str:
    return {">=": "<=", ">": "<", "<=": ">=", "<": ">"}[op]


class _Prover:
    def __init__(self, f: Any, syms: list[sympy.Symbol], op: str, conds: list[Any], precision: int,
                 budget: Budget, max_boxes: int, max_depth: int) -> None:
        self.f = sympy.sympify(f)
        self.syms = syms
        self.op = op
        self.precision = precision
        self.budget = budget
        self.max_boxes = max_boxes
        self.max_depth = max_depth
        self.smooth = all(isinstance(n, _SMOOTH) for n in sympy.preorder_traversal(self.f))
        self.cond = compile_truth(sympy.And(*conds)) if conds else (lambda env: True)
        self.cond_exprs = conds
        self._fns: dict[tuple[int, ...], Callable[[Env], Any] | None] = {}
        self._exprs: dict[tuple[int, ...], Any] = {(): self.f}
        self._sign_cache: dict[tuple[tuple[int, ...], Box], int | None] = {}
        self.boxes = 0
        self.max_seen_depth = 0
        self.faces = 0
        self.exact_points = 0
        self.sub_proofs = 0
        self.worst: Any = None  # the closed enclosure bound closest to violating (an mpmath mpf tuple)
        self.tight_points: list[tuple[Fraction, ...]] = []
        self._zero_faces: dict[Any, bool] = {}

    # expressions and their derivatives ------------------------------------------------
    def expr(self, key: tuple[int, ...]) -> Any:
        if key not in self._exprs:
            self._exprs[key] = sympy.diff(self.expr(key[:-1]), self.syms[key[-1]])
        return self._exprs[key]

    def fn(self, key: tuple[int, ...]) -> Callable[[Env], Any] | None:
        if key not in self._fns:
            try:
                self._fns[key] = compile_enclosure(self.expr(key))
            except NoBackendAvailable:
                self._fns[key] = None
        return self._fns[key]

    def env(self, box: Box) -> dict[sympy.Symbol, Any]:
        return {s: hull(lo, hi) for s, (lo, hi) in zip(self.syms, box, strict=True)}

    def eval(self, key: tuple[int, ...], box: Box) -> Any:
        """Natural enclosure intersected with the mean-value form; raises Undefined."""
        fn = self.fn(key)
        if fn is None:
            raise Undefined("not compilable")
        env = self.env(box)
        v = fn(env)
        if not finite(v):
            raise Undefined("enclosure not finite")
        if self.smooth and len(key) < MAX_DERIVATIVE_LEVEL + 1 and any(lo != hi for lo, hi in box):
            try:
                mid = tuple((lo + hi) / 2 for lo, hi in box)
                fm = fn(self.env(tuple((m, m) for m in mid)))
                acc = fm
                for k, (lo, hi) in enumerate(box):
                    if lo == hi:
                        continue
                    gk = self.fn(key + (k,))
                    if gk is None:
                        raise Undefined("gradient")
                    acc = acc + gk(env) * (hull(lo, hi) - from_fraction(mid[k]))
                if finite(acc):
                    v = intersect(v, acc)
            except (Undefined, ZeroDivisionError):
                pass
        return v

    # exact evaluation at a rational point ----------------------------------------------
    def point_truth(self, key: tuple[int, ...], point: tuple[Fraction, ...], op: str) -> bool | None:
        sub = {s: sympy.Rational(q.numerator, q.denominator) for s, q in zip(self.syms, point, strict=True)}
        try:
            val = self.expr(key).xreplace(sub)
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        if isinstance(val, sympy.Rational):
            self.exact_points += 1
            return _exact_holds(Fraction(int(val.p), int(val.q)), op)
        with iv_precision(4 * self.precision + 64):
            try:
                d = compile_enclosure(val)({})
                if finite(d):
                    t = holds(d, op)
                    if t is not None:
                        return t
            except (Undefined, NoBackendAvailable, ZeroDivisionError, ValueError):
                pass
        got = _exact_sign(val)  # the one sign test (ARCHITECTURE.md, rule 2)
        if got is None:
            return None
        self.exact_points += 1
        return _exact_holds(Fraction(got), op)

    # sign of a partial derivative on a box -----------------------------------------------
    def partial_sign(self, key: tuple[int, ...], k: int, box: Box, level: int) -> int | None:
        ck = (key + (k,), box)
        if ck in self._sign_cache:
            return self._sign_cache[ck]
        sign: int | None = None
        try:
            g = self.eval(key + (k,), box)
            if sign_lo(g) >= 0:
                sign = 1
            elif sign_hi(g) <= 0:
                sign = -1
        except (Undefined, ZeroDivisionError):
            self._sign_cache[ck] = None
            return None
        if sign is None and level < MAX_DERIVATIVE_LEVEL:
            mid = tuple((lo + hi) / 2 for lo, hi in box)
            try:
                gm = self.eval(key + (k,), tuple((m, m) for m in mid))
                guess = [1, -1] if sign_lo(gm) + sign_hi(gm) >= 0 else [-1, 1]
            except (Undefined, ZeroDivisionError):
                guess = [1, -1]
            for s in guess:
                self.sub_proofs += 1
                ok, _, _ = self.run(key + (k,), ">=" if s > 0 else "<=", box, level + 1,
                                    use_conditions=False, box_limit=400)
                if ok is True:
                    sign = s
                    break
        self._sign_cache[ck] = sign
        return sign

    # the main loop ---------------------------------------------------------------------
    def run(self, key: tuple[int, ...], op: str, box0: Box, level: int, *, use_conditions: bool,
            box_limit: int | None = None) -> tuple[bool | None, Any, float]:
        """Prove ``expr(key) op 0`` on box0.  Returns (True, None, 1.0) when proved,
        (False, point, covered) with a violating rational point (level 0 only), or
        (None, reason, covered)."""
        stack: list[tuple[Box, int, float, bool]] = [(box0, 0, 1.0, use_conditions)]
        covered = 0.0
        unresolved = ""
        start_boxes = self.boxes
        with iv_precision(self.precision):
            while stack:
                box, depth, weight, use_conditions = stack.pop()
                self.boxes += 1
                if self.boxes > self.max_boxes or self.budget.expired():
                    raise _OutOfBudget()
                if box_limit is not None and self.boxes - start_boxes > box_limit:
                    return None, "sub-proof box limit", covered
                self.max_seen_depth = max(self.max_seen_depth, depth)
                env = None
                c: bool | None = True
                if use_conditions:
                    env = self.env(box)
                    c = self.cond(env)
                    if c is False:
                        covered += weight
                        continue
                is_point = all(lo == hi for lo, hi in box)
                try:
                    enc = self.eval(key, box)
                    t = holds(enc, op)
                except (Undefined, ZeroDivisionError):
                    enc, t = None, None
                if t is True:
                    covered += weight
                    if level == 0:
                        self._note_worst(enc, op)
                    continue
                if not is_point and op in (">=", "<=") and self.face_is_zero(key, box):
                    covered += weight
                    continue
                if is_point:
                    pt = tuple(lo for lo, _ in box)
                    pv = self.point_truth(key, pt, op)
                    if pv is True and c is True:
                        covered += weight
                        continue
                    if pv is True and c is None:
                        unresolved = unresolved or "a side condition is undecided at an exact point"
                        continue
                    if pv is False and (c is True or level > 0):
                        return False, pt, covered
                    unresolved = unresolved or f"the value at the point {self._fmt(pt)} is not decided"
                    if level > 0:
                        return None, unresolved, covered
                    continue
                if level == 0 and c is not False:
                    mid = tuple((lo + hi) / 2 for lo, hi in box)
                    if self.violates(mid):
                        return False, mid, covered
                if t is False and level > 0:
                    return False, None, covered
                if self.smooth and c is True and level <= MAX_DERIVATIVE_LEVEL and enc is not None:
                    face = self.face(key, op, box, level)
                    if face is not None:
                        # the conditions hold on the whole box, so its minimum (maximum) lies on the
                        # face selected by the derivative's constant sign
                        self.faces += 1
                        stack.append((face, depth, weight, use_conditions))
                        continue
                if depth >= self.max_depth:
                    unresolved = unresolved or (
                        f"depth limit {self.max_depth} reached on the box {self._fmt_box(box)} "
                        f"(enclosure {show(enc, 12) if enc is not None else 'undefined'})"
                    )
                    if level > 0:
                        return None, unresolved, covered
                    continue
                k, m = self.split_point(box)
                lo, hi = box[k]
                share = (m - lo) / (hi - lo)
                left = box[:k] + ((lo, m),) + box[k + 1:]
                right = box[:k] + ((m, hi),) + box[k + 1:]
                stack.append((right, depth + 1, weight * float(1 - share), use_conditions))
                stack.append((left, depth + 1, weight * float(share), use_conditions))
        if unresolved:
            return None, unresolved, covered
        return True, None, 1.0

    def face_is_zero(self, key: tuple[int, ...], box: Box) -> bool:
        """On a face (some coordinates fixed at rationals) the expression may vanish
        identically, which no enclosure can show (dependency); decide that exactly by
        substituting the fixed coordinates and simplifying with sympy."""
        fixed = tuple((k, lo) for k, (lo, hi) in enumerate(box) if lo == hi)
        if not fixed:
            return False
        ck = (key, fixed)
        if ck not in self._zero_faces:
            sub = {self.syms[k]: sympy.Rational(v.numerator, v.denominator) for k, v in fixed}
            try:
                e = self.expr(key).xreplace(sub)
                zero = e == 0 or _exact_sign(e) == 0
            except (TypeError, ValueError, ZeroDivisionError):
                zero = False
            self._zero_faces[ck] = bool(zero)
            if zero:
                self.exact_points += 1
        return self._zero_faces[ck]

    def split_point(self, box: Box) -> tuple[int, Fraction]:
        """Split at a tight point strictly inside the box (so that it becomes a corner, where
        the face reduction can reach it), else bisect the widest side."""
        for p in self.tight_points:
            for k, (lo, hi) in enumerate(box):
                if lo < p[k] < hi and all(blo <= q <= bhi for q, (blo, bhi) in zip(p, box, strict=True)):
                    return k, p[k]
        k = max(range(len(box)), key=lambda i: box[i][1] - box[i][0])
        return k, (box[k][0] + box[k][1]) / 2

    def find_tight_points(self, box: Box, limit: int = 400) -> None:
        """Rational points with small denominators (<= 4) where lhs - rhs is exactly 0."""
        import itertools

        axes = []
        for lo, hi in box:
            # the 12 points of smallest denominator, then smallest |q|: built from the 40 numerators nearest
            # 0 for each denominator (enough for 12 of each reduced denominator), never from every n/d of the
            # side -- a side of width 2*10**6 built 10**7 Fractions (110 CPU seconds past an 8 s budget)
            vals = sorted({Fraction(n, d) for d in (1, 2, 3, 4) for n in _nearest_zero(lo * d, hi * d, 40)},
                          key=lambda q: (q.denominator, abs(q)))[:12]
            axes.append(sorted(vals))
        fn = self.fn(())
        seen = 0
        for pt in itertools.product(*axes):
            seen += 1
            if seen > limit or fn is None:
                break
            try:
                d = fn(self.env(tuple((q, q) for q in pt)))
            except (Undefined, ZeroDivisionError):
                continue
            if not finite(d) or sign_lo(d) > 0 or sign_hi(d) < 0:
                continue
            sub = {s: sympy.Rational(q.numerator, q.denominator) for s, q in zip(self.syms, pt, strict=True)}
            try:
                val = self.f.xreplace(sub)
            except (TypeError, ValueError, ZeroDivisionError):
                continue
            if val == 0 or (not isinstance(val, sympy.Rational) and _exact_sign(val) == 0):
                self.tight_points.append(pt)

    def face(self, key: tuple[int, ...], op: str, box: Box, level: int) -> Box | None:
        """The face holding the minimum (op >=, >) or maximum (op <=, <) of expr(key) when a
        partial derivative has constant sign on the box; None otherwise."""
        want_min = op in (">=", ">")
        order = sorted((k for k in range(len(box)) if box[k][0] != box[k][1]),
                       key=lambda i: -(box[i][1] - box[i][0]))
        for k in order:
            s = self.partial_sign(key, k, box, level)
            if s is None:
                continue
            lo, hi = box[k]
            at = lo if (s > 0) == want_min else hi
            return box[:k] + ((at, at),) + box[k + 1:]
        return None

    def violates(self, point: tuple[Fraction, ...]) -> bool:
        """The point satisfies the conditions and the enclosure of f strictly violates."""
        env = self.env(tuple((q, q) for q in point))
        if self.cond(env) is not True:
            return False
        try:
            d = self.fn(())(env)  # type: ignore[misc]
        except (Undefined, ZeroDivisionError):
            return False
        return finite(d) and holds(d, self.op) is False

    def _note_worst(self, enc: Any, op: str) -> None:
        # compared as binary floats, never turned into Fractions: exp(10**12) on a proved box has
        # 10**12 bits before the point (to_rational raised MemoryError, an error verdict)
        import mpmath.libmp as L

        lo, hi = enc._mpi_
        lower = op in (">=", ">")
        bound = lo if lower else hi
        if self.worst is None or (L.mpf_lt(bound, self.worst) if lower else L.mpf_gt(bound, self.worst)):
            self.worst = bound

    def _fmt(self, pt: tuple[Fraction, ...]) -> str:
        return ", ".join(f"{s}={q}" for s, q in zip(self.syms, pt, strict=True))

    def _fmt_box(self, box: Box) -> str:
        return " x ".join(f"{s} in [{lo}, {hi}]" for s, (lo, hi) in zip(self.syms, box, strict=True))


def _recheck(f: Any, syms: list[sympy.Symbol], op: str, conds: list[Any], point: tuple[Fraction, ...],
             precision: int) -> tuple[bool, str]:
    """Independent re-check of a violating point: fresh compilation at a higher precision;
    conditions checked exactly (sympy) or by enclosure."""
    from symcal.backends.translate import assumptions_hold, truth_at

    values = dict(zip(syms, point, strict=True))
    fits, why = assumptions_hold(values)  # integer, parity, sign, rational, prime, ... of every symbol
    if fits is not True:
        return False, why
    for c in conds:
        t = truth_at(c, values)
        if t is not True:
            with iv_precision(precision):
                env = {s: from_fraction(q) for s, q in values.items()}
                try:
                    if compile_truth(c)(env) is not True:
                        return False, "a side condition does not hold at the point"
                except NoBackendAvailable:
                    return False, "a side condition cannot be evaluated"
    with iv_precision(precision):
        env = {s: from_fraction(q) for s, q in values.items()}
        try:
            d = compile_enclosure(f)(env)
        except Undefined as e:
            return False, str(e)
        if finite(d) and holds(d, op) is False:
            return True, f"lhs - rhs in {show(d, 12)} (mpmath iv, {precision} bits), violating {op} 0"
    return False, "the high-precision enclosure does not exclude the relation"


def _domain_problem(lhs: Any, rhs: Any, conds: list[Any], box: dict[sympy.Symbol, tuple[Fraction, Fraction]],
                    budget: Budget, label: str, precision: int, use_z3: bool) -> str | None:
    """Where the claim's expressions are defined (issue 13): a power with a negative exponent
    needs a non-zero base, a root a base >= 0 (> 0 when inverted), another power or a log a
    base > 0 -- at every point of the box where the conditions hold (for the conditions'
    own expressions: every point of the box).  Each requirement is settled by a rigorous
    enclosure on the whole box, else proved as a bounded inequality of its own (a quarter of
    the time left).  Returns None when every one is proved, else the reason the verdict is
    ``unknown``: an expression undefined on part of its box is never decided (z3's square-root
    reduction, for one, would make ``sqrt(x) >= 0`` vacuously true on x in [-4, -1])."""
    reqs: list[tuple[Any, str, Any, bool]] = []
    pieces: list[tuple[Any, bool]] = []
    for e, under in [(lhs, True), (rhs, True)] + [(c, False) for c in conds]:
        for node in reversed(list(sympy.preorder_traversal(sympy.sympify(e)))):  # innermost first
            if isinstance(node, sympy.Piecewise) and node.args[-1].cond is not sympy.true \
                    and (node, under) not in pieces:
                pieces.append((node, under))
            need: tuple[Any, str] | None = None
            if isinstance(node, sympy.Pow) and node.args[0] is not sympy.E:
                base, ex = node.args
                if ex.is_Integer:
                    need = (base, "!=") if ex < 0 else None
                elif ex.is_Rational:
                    need = (base, ">" if ex < 0 else ">=")
                else:
                    need = (base, ">")
            elif isinstance(node, sympy.log):
                need = (node.args[0], ">")
            if need is not None and (need[0], need[1], node, under) not in reqs:
                reqs.append((need[0], need[1], node, under))
    for node, under in pieces:
        problem = _piecewise_gap(node, conds if under else [], box, budget, label, precision, use_z3)
        if problem:
            return problem
    for g, op, node, under in reqs:
        req = f"{sympy.sstr(g)} {'!= 0' if op == '!=' else op + ' 0'}"
        try:
            lo, hi = enclosure(g, box, precision=precision)
            if (op == ">=" and lo >= 0) or (op == ">" and lo > 0) or (op == "!=" and (lo > 0 or hi < 0)):
                continue
            nowhere = (op == ">=" and hi < 0) or (op == ">" and hi <= 0) or (op == "!=" and lo == hi == 0)
            if nowhere and not (under and conds):
                return (f"{sympy.sstr(node)} is undefined on the whole box: it needs {req}, and {sympy.sstr(g)} "
                        f"lies in [{lo}, {hi}] there; an undefined expression is never decided")
        except (ValueError, NoBackendAvailable):
            pass  # g is itself undefined somewhere (its own requirement comes first) or not enclosable
        sub = Budget(max(0.2, min(budget.left() * 0.25, 10.0)))
        outs = [decide_bounded(g, o, 0, box, conds if under else [], sub, label=f"{label} (domain of "
                               f"{sympy.sstr(node)[:40]})", max_boxes=2000, precision=precision, use_z3=use_z3)
                for o in ((">", "<") if op == "!=" else (op,))]
        if any(o.status is Status.PROVED for o in outs):
            continue
        where = " where the conditions hold" if under and conds else ""
        wit = next((o.evidence for o in outs if o.status is Status.REFUTED and op != "!="), None)
        at = ("; it fails at " + ", ".join(f"{k} = {v}" for k, v in getattr(wit, "values", {}).items())
              if wit is not None else "")
        return (f"{sympy.sstr(node)} needs {req} at every point of the box{where}, which was not shown{at}; "
                "an expression undefined on part of its box is never decided")
    return None


def _piecewise_gap(pw: Any, conds: list[Any], box: dict[sympy.Symbol, tuple[Fraction, Fraction]], budget: Budget,
                   label: str, precision: int, use_z3: bool) -> str:
    """'' when some branch of ``pw`` (a Piecewise without an otherwise branch, undefined where no
    condition holds) applies at every point of the box where ``conds`` hold -- shown by a rigorous
    enclosure of its conditions on the whole box, or by z3 when they are algebraic -- else the
    reason the claim is not decided (with a point where no branch applies, when z3 finds one)."""
    from symcal.backends.smt_claims import decide_implies

    cover = sympy.Or(*[c for _, c in pw.args])
    shown = sympy.sstr(pw)[:80]
    with iv_precision(precision):
        try:
            env = {s: hull(lo, hi) for s, (lo, hi) in box.items()}
            if compile_truth(cover)(env) is True:
                return ""
        except (Undefined, NoBackendAvailable, ValueError):
            pass
    at = ""
    if use_z3 and all(is_algebraic(e) for e in [cover, *conds]):
        hyps: dict[str, list[Any]] = {"box": _box_bounds(box)}
        if conds:
            hyps["conditions"] = list(conds)
        out = decide_implies(hyps, cover, Budget(max(0.2, min(budget.left() * 0.25, 10.0))), "",
                             f"{label} (the branches of {shown[:40]} cover the box)")
        if out.status is Status.PROVED:
            return ""
        w = out.evidence if out.status is Status.REFUTED else None
        if w is not None:
            at = "; none applies at " + ", ".join(f"{k} = {v}" for k, v in getattr(w, "values", {}).items())
    where = " where the conditions hold" if conds else ""
    return (f"{shown} has no otherwise branch (it is undefined where none of its conditions holds), and its "
            f"conditions were not shown to cover every point of the box{where}{at}; an expression undefined on "
            "part of its box is never decided")


def decide_bounded(
    lhs: Any, op: str, rhs: Any, box: Mapping[Any, tuple[Any, Any]], conditions: Any, budget: Budget, *,
    label: str = "", max_boxes: int = 20000, max_depth: int = 40, precision: int = 53,
    use_z3: bool = True,
) -> Outcome:
    """Decide ``for all x in box (with conditions): lhs op rhs`` (see the module docstring)."""
    from symcal.claims.core import validate_box

    if op not in RELATIONS:
        raise InvalidClaim(f"{label}: relation={op!r}: expected one of {', '.join(RELATIONS)}")
    from symcal.backends.translate import assumption_constraints, check_symbols, domain_text, symbol_domain

    conds = [c for c in (conditions or []) if c is not sympy.true and c is not True]
    exprs = [sympy.sympify(lhs), sympy.sympify(rhs)] + [sympy.sympify(c) for c in conds]
    exact_box = validate_box(box, exprs, label)
    syms = list(exact_box)
    check_symbols(syms)  # an assumption symcal cannot encode: InvalidClaim naming it
    # the box symbols' sign assumptions are conditions (sympy has simplified with them); integer-ness, parity and
    # the relaxed ones are re-checked on a counterexample (a proof over every real point of the box covers them)
    conds += [c for c in assumption_constraints(syms) if c not in conds]
    shown = " x ".join(f"{s} in [{lo}, {hi}]" for s, (lo, hi) in exact_box.items())
    cond_txt = f" with {', '.join(sympy.sstr(c) for c in conds)}" if conds else ""
    scope = f"every point of the box {shown}{cond_txt}"
    if any(symbol_domain(s).integer or symbol_domain(s).relaxed for s in syms):
        scope += f" ({domain_text(syms)})"
    f = sympy.sympify(lhs) - sympy.sympify(rhs)
    problem = _domain_problem(exprs[0], exprs[1], conds, exact_box, budget, label, precision, use_z3)
    if problem is not None:
        return Outcome(Status.UNKNOWN, scope, NAME, reason=problem)
    if use_z3 and all(is_algebraic(e) for e in exprs):
        try:
            out = _z3_route(sympy.sympify(lhs), op, sympy.sympify(rhs), exact_box, conds, budget, scope, label)
        except NoBackendAvailable:
            out = None
        if out is not None:
            return out
    start = time.perf_counter()
    try:
        prover = _Prover(f, syms, op, conds, precision, budget, max_boxes, max_depth)
        compile_enclosure(f)
    except NoBackendAvailable as e:
        return Outcome(Status.UNKNOWN, scope, NAME, reason=str(e))
    box0: Box = tuple(exact_box[s] for s in syms)
    # canonical candidates first: the corners and the centre of the box
    corners: list[tuple[Fraction, ...]] = [tuple((lo + hi) / 2 for lo, hi in box0)]
    if len(syms) <= 4:
        import itertools

        corners += list(itertools.product(*[sorted({lo, hi}) for lo, hi in box0]))
    with iv_precision(precision):
        for pt in sorted(corners, key=lambda p: (max(q.denominator for q in p), p)):
            if prover.violates(pt):
                return _refuted(f, syms, op, conds, pt, precision, scope, prover)
    try:
        with iv_precision(precision):
            prover.find_tight_points(box0)
        ok, info, covered = prover.run((), op, box0, 0, use_conditions=bool(conds))
    except _OutOfBudget:
        why = (f"time limit {budget.seconds:g} s" if budget.expired() else f"box limit {max_boxes}")
        return Outcome(Status.UNKNOWN, scope, NAME,
                       reason=f"{why} reached after {prover.boxes} boxes (depth {prover.max_seen_depth}) "
                              f"without closing every box; tight points need an exact reduction")
    if ok is True:
        worst = _shown_bound(prover.worst) if prover.worst is not None else "n/a (closed by faces/points)"
        ev = IntervalProof(
            boxes=prover.boxes, max_depth=prover.max_seen_depth, worst_bound=worst, precision_bits=precision,
            relation=f"lhs - rhs {op} 0", box={str(s): [lo, hi] for s, (lo, hi) in exact_box.items()},
            face_reductions=prover.faces, exact_points=prover.exact_points,
            method=("mpmath iv branch-and-bound (natural enclosure ∩ mean-value form; monotone faces "
                    f"by derivative sign, {prover.sub_proofs} derivative sub-proofs)"),
            seconds=round(time.perf_counter() - start, 4),
        )
        return Outcome(Status.PROVED, scope + f" (interval branch-and-bound, {precision}-bit mpmath iv)", NAME, ev)
    if ok is False and info is not None:
        return _refuted(f, syms, op, conds, info, precision, scope, prover)
    return Outcome(Status.UNKNOWN, scope, NAME,
                   reason=f"{info}; {covered:.1%} of the box closed after {prover.boxes} boxes")


def _refuted(f: Any, syms: list[sympy.Symbol], op: str, conds: list[Any], pt: tuple[Fraction, ...],
             precision: int, scope: str, prover: _Prover) -> Outcome:
    ok, detail = _recheck(f, syms, op, conds, pt, 2 * precision + 64)
    if not ok:
        return Outcome(Status.UNKNOWN, scope, NAME,
                       reason=f"a candidate counterexample {prover._fmt(pt)} failed the re-check: {detail}")
    return Outcome(Status.REFUTED, scope, NAME,
                   Witness({str(s): q for s, q in zip(syms, pt, strict=True)}, rechecked=True, detail=detail,
                           found_by=f"interval branch-and-bound ({prover.boxes} boxes)"))
