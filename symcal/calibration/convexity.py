"""Convexity of a surrogate, shown by rules -- never assumed.

A calibration method for smooth surrogates (:mod:`symcal.calibration.smooth`) needs three facts about
each ``psi_y`` that it must not take on trust: that it is **convex** on ``R^d``, whether it is
**continuously differentiable** (C^1), and its **recession function** ``psi^inf(w) = lim_{t->inf}
(psi(u + t w) - psi(u)) / t`` (which decides whether a risk has bounded level sets, i.e. attains
its infimum; Rockafellar, *Convex Analysis*, Thm 8.5 and 27.1).  All three are built here by a
small set of composition rules, the way disciplined convex programming builds curvature (Grant,
Boyd & Ye 2006): an expression is convex when every node of its tree follows a rule; an expression
no rule covers is *not shown convex* (the method then answers ``unknown`` with that node named),
never treated as convex.

The rules (``g`` affine unless said otherwise; ``c`` a positive rational):

====================================  ======================  ========  ===============================
expression                            curvature               C^1       recession ``psi^inf(w)``
====================================  ======================  ========  ===============================
``a.u + b``                           affine                  yes       ``a.w``
``c f``, ``f + h``                    as f (and h)            as both   ``c f^inf``, ``f^inf + h^inf``
``-f`` for concave f                  convex                  as f      --
``exp(f)``, f convex                  convex, > 0             as f      0 if ``f^inf(w) <= 0`` else inf
``log(c0 + sum c_i exp(g_i))``        convex (log-sum-exp)    yes       ``max(0 if c0 > 0, a_i.w)``
``Max(f_1, .., f_m)``, f_i convex     convex                  no*       ``max f_i^inf``
``Abs(g)``                            convex, >= 0            no        ``|a.w|``
``g**(2k)``                           convex, >= 0            yes       0 if ``a.w = 0`` else inf
``f**r``, r > 1, f convex and >= 0    convex, >= 0            yes**     0 if ``f^inf(w) <= 0`` else inf
``h(u_i)``, h a Piecewise of u_i      convex if every piece   if the    slopes of the outer pieces
 (polynomial pieces)                  is and the derivative   slopes
                                      never jumps down        match
a polynomial of degree <= 2           convex iff its Hessian  yes       inf unless ``H w = 0``, then
                                      is PSD (exact minors)             ``grad.w`` at 0
====================================  ======================  ========  ===============================

(*) a ``Max`` of one argument is that argument.  (**) when f is C^1, or ``f = Max(0, g)`` /
``Abs(g)`` (the kink sits where f = 0, and r > 1 flattens it).

``log(c0 + sum c_i exp(g_i))`` covers the multinomial logistic loss ``log(sum_j exp(u_j)) - u_y``
and the logistic loss ``log(1 + exp(-u))``; ``log(exp(a)/(exp(a) + exp(b)))`` is first rewritten as
``a - log(exp(a) + exp(b))`` (valid: both sides positive).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

__all__ = ["Shape", "analyse", "rewrite_logs", "NotShown"]


class NotShown(Exception):
    """No rule shows the sub-expression convex (the message names it and why)."""


Rec = Callable[[Sequence[Any]], tuple[Any, Any]]  # w (z3 reals) -> (finite: z3 Bool, value: z3 Real)


@dataclass(frozen=True)
class Shape:
    """What the rules showed about one expression."""

    curvature: str  # "affine" | "convex" | "concave"
    c1: bool
    nonneg: bool
    rec: Rec | None  # recession function (convex shapes only)
    kink: str = ""  # why not C^1, for the evidence


def _affine(e: sympy.Expr, u: Sequence[sympy.Symbol]) -> tuple[list[Fraction], Fraction] | None:
    """``e = a.u + b`` with rational a, b (:func:`symcal.calibration.problem.linear_form`)."""
    from symcal.calibration.problem import linear_form

    lf = linear_form(e, u)
    return None if lf is None else (list(lf[0]), lf[1])


def _z(x: Fraction) -> Any:
    import z3

    return z3.RealVal(f"{x.numerator}/{x.denominator}")


def _dot(a: Sequence[Fraction], w: Sequence[Any]) -> Any:
    import z3

    terms = [_z(c) * wi for c, wi in zip(a, w, strict=True) if c]
    return z3.Sum(*terms) if terms else z3.RealVal(0)


def _zmax(xs: list[Any]) -> Any:
    import z3

    out = xs[0]
    for x in xs[1:]:
        out = z3.If(x > out, x, out)
    return out


def _zsum(vals: list[Any]) -> Any:
    """``z3.Sum`` of the values (z3 imported only when used)."""
    import z3

    return z3.Sum(*vals)


def _constant(e: Any) -> bool:
    """``e`` is a closed real number that is not a rational (``log(2)``, ``E``, ``pi``, ``sqrt(2)``)."""
    return isinstance(e, sympy.Expr) and not e.free_symbols and not e.is_Rational and bool(e.is_number)


def const_sign(e: sympy.Expr) -> int | None:
    """The sign of a closed constant, decided by the one sign test of :mod:`symcal.exact` (exact
    arithmetic or a rigorous enclosure; never a float comparison); None when undecided."""
    if e.is_Rational:
        return 1 if e > 0 else -1 if e < 0 else 0
    from symcal.exact import sign

    try:
        return sign(e).value
    except Exception:  # noqa: BLE001 - an absurd constant is simply not decided
        return None


def _split_constant(e: sympy.Mul) -> tuple[sympy.Expr, sympy.Expr]:
    """``e = c * rest`` with ``c`` the product of the factors free of symbols (closed numbers)."""
    consts = [a for a in e.args if not a.free_symbols and a.is_number]
    rest = [a for a in e.args if a not in consts]
    return sympy.Mul(*consts), sympy.Mul(*rest)


def _positive(e: sympy.Expr) -> bool:
    """e > 0 everywhere by construction: exp, positive constants, sums/products of those."""
    if e.is_Rational:
        return bool(e > 0)
    if _constant(e):
        return const_sign(e) == 1
    if isinstance(e, sympy.exp):
        return True
    if isinstance(e, sympy.Add | sympy.Mul):
        return all(_positive(a) for a in e.args)
    if isinstance(e, sympy.Pow) and e.exp.is_Rational:
        return _positive(e.base)
    return False


def rewrite_logs(e: sympy.Expr) -> sympy.Expr:
    """``log(a*b) -> log a + log b``, ``log(a/b) -> log a - log b``, ``log(exp(g)) -> g``, each only
    when every factor is positive by construction (:func:`_positive`), so the value never changes."""
    if isinstance(e, sympy.log):
        arg = rewrite_logs(e.args[0])
        if isinstance(arg, sympy.exp):
            return arg.args[0]
        if isinstance(arg, sympy.Mul) and all(_positive(f) for f in arg.args):
            return sympy.Add(*[rewrite_logs(sympy.log(f)) for f in arg.args])
        if isinstance(arg, sympy.Pow) and arg.exp.is_Rational and _positive(arg.base):
            return arg.exp * rewrite_logs(sympy.log(arg.base))
        return sympy.log(arg)
    if not e.args:
        return e
    return e.func(*[rewrite_logs(a) for a in e.args])


def _negative_minor(M: sympy.Matrix, rows: Sequence[int]) -> tuple[int, ...] | None:
    """The rows of a negative principal minor of the symmetric rational matrix ``M`` among ``rows``
    (exact, fraction-free determinants), None when every one is >= 0: ``M`` restricted to ``rows`` is
    positive semidefinite exactly then."""
    from itertools import combinations

    rows = list(rows)
    for r in range(1, len(rows) + 1):
        for idx in combinations(rows, r):
            if M.extract(list(idx), list(idx)).det(method="bareiss") < 0:
                return idx
    return None


def _augmented(q: sympy.Expr, used: Sequence[sympy.Symbol], u: Sequence[sympy.Symbol]) -> sympy.Matrix:
    """``M = [[A, b/2], [b^T/2, c]]`` of a quadratic ``q(u) = u^T A u + b.u + c`` in the variables ``used``
    (the others of ``u`` set to 0), so that ``q(u) = (u, 1)^T M (u, 1)``."""
    k = len(used)
    H = sympy.hessian(q, list(used))
    zero = {x: 0 for x in u}
    M = sympy.zeros(k + 1, k + 1)
    for i in range(k):
        for j in range(k):
            M[i, j] = H[i, j] / 2
        M[i, k] = M[k, i] = sympy.diff(q, used[i]).xreplace(zero) / 2
    M[k, k] = q.xreplace(zero)
    return M


def _quadratic(e: sympy.Expr, u: Sequence[sympy.Symbol]) -> Shape | None:
    """A polynomial of degree <= 2: convex iff its Hessian is PSD (every principal minor >= 0)."""
    if not e.free_symbols <= set(u):
        return None
    try:
        poly = sympy.Poly(e, *u)
    except sympy.PolynomialError:
        return None
    if poly.total_degree() > 2 or any(not c.is_Rational for c in poly.coeffs()):
        return None
    if poly.total_degree() <= 1:
        lf = _affine(e, u)
        assert lf is not None
        return Shape("affine", True, poly.total_degree() <= 0 and lf[1] >= 0,
                     lambda w, a=lf[0]: (_true(), _dot(a, w)))
    H = sympy.hessian(e, list(u))
    d = len(u)
    used = [i for i in range(d) if any(H[i, j] != 0 for j in range(d))]
    if len(used) > 10:
        return None
    idx = _negative_minor(H, used)
    if idx is not None:
        raise NotShown(f"{sympy.sstr(e)} is not convex: its Hessian has a negative principal minor "
                       f"on {', '.join(str(u[i]) for i in idx)}")
    grad0 = [sympy.diff(e, x).subs({y: 0 for y in u}) for x in u]
    Hq = [[Fraction(int(H[i, j].p), int(H[i, j].q)) for j in range(d)] for i in range(d)]
    g0 = [Fraction(int(g.p), int(g.q)) for g in grad0]

    def rec(w: Sequence[Any]) -> tuple[Any, Any]:
        import z3

        flat = z3.And(*[_dot(row, w) == 0 for row in Hq if any(row)]) if any(any(r) for r in Hq) else _true()
        return flat, _dot(g0, w)

    return Shape("convex", True, False, rec)


def _true() -> Any:
    import z3

    return z3.BoolVal(True)


def _lse(arg: sympy.Expr, u: Sequence[sympy.Symbol]) -> Shape | None:
    """``log(c0 + sum c_i exp(g_i))`` with c0 >= 0, c_i > 0 rational and g_i affine: log-sum-exp."""
    terms = sympy.Add.make_args(sympy.expand(arg, power_exp=False))
    c0 = sympy.Integer(0)
    slopes: list[list[Fraction]] = []
    for t in terms:
        if t.is_Rational:
            c0 += t
            continue
        coeff, rest = t.as_coeff_Mul()
        if not (coeff.is_Rational and coeff > 0 and isinstance(rest, sympy.exp)):
            return None
        lf = _affine(rest.args[0], u)
        if lf is None:
            return None
        slopes.append(lf[0])
    if c0 < 0 or not slopes:
        return None
    with_zero = c0 > 0

    def rec(w: Sequence[Any]) -> tuple[Any, Any]:
        import z3

        vals = [_dot(a, w) for a in slopes] + ([z3.RealVal(0)] if with_zero else [])
        return _true(), _zmax(vals)

    return Shape("convex", True, bool(c0 >= 1), rec)


def _piecewise(e: sympy.Piecewise, u: Sequence[sympy.Symbol]) -> Shape:
    """A Piecewise in one variable x with polynomial pieces: convex iff continuous, every piece convex
    on its interval, and the slope never jumps down at a breakpoint; C^1 iff the slopes match."""
    free = e.free_symbols
    if len(free) != 1 or not free <= set(u):
        raise NotShown(f"{sympy.sstr(e)}: only a Piecewise in one variable u_i is covered")
    (x,) = free
    i = list(u).index(x)
    pieces = _univariate_pieces(e, x)
    c1 = True
    for (f, lo, hi) in pieces:
        f2 = sympy.expand(sympy.diff(f, x, 2))
        bad = sympy.solveset(f2 < 0, x, sympy.Interval(lo, hi))
        if bad != sympy.S.EmptySet:
            raise NotShown(f"{sympy.sstr(e)} is not convex: piece {sympy.sstr(f)} has a negative second "
                           f"derivative on {bad}")
    for (f, _, hi), (g, lo2, _) in zip(pieces, pieces[1:], strict=False):
        if hi != lo2:
            raise NotShown(f"{sympy.sstr(e)}: pieces leave a gap or overlap at {hi} / {lo2}")
        if sympy.simplify(f.subs(x, hi) - g.subs(x, hi)) != 0:
            raise NotShown(f"{sympy.sstr(e)} is not continuous at {x} = {hi}, so not convex")
        at = e.subs(x, hi)
        if not at.is_number or sympy.simplify(at - f.subs(x, hi)) != 0:
            raise NotShown(f"{sympy.sstr(e)} takes the value {sympy.sstr(at)} at {x} = {hi}, not its pieces' limit")
        d_left, d_right = sympy.diff(f, x).subs(x, hi), sympy.diff(g, x).subs(x, hi)
        if d_left > d_right:
            raise NotShown(f"{sympy.sstr(e)} is not convex: its slope drops from {d_left} to {d_right} at {x} = {hi}")
        if d_left != d_right:
            c1 = False

    def tail(f: sympy.Expr, sign: int) -> Fraction | None:
        deg = sympy.degree(f, x) if f.has(x) else 0
        if deg >= 2:
            return None  # grows superlinearly (convex piece: leading coefficient > 0)
        if deg == 1:
            s = sympy.Poly(f, x).coeff_monomial(x)
            return Fraction(int(s.p), int(s.q)) * sign
        return Fraction(0)

    up, down = tail(pieces[-1][0], 1), tail(pieces[0][0], -1)  # h^inf(1), h^inf(-1)

    def rec(w: Sequence[Any]) -> tuple[Any, Any]:
        import z3

        s = w[i]
        fin = z3.And(z3.Or(s <= 0, z3.BoolVal(up is not None)), z3.Or(s >= 0, z3.BoolVal(down is not None)))
        val = z3.If(s > 0, _z(up or Fraction(0)) * s, z3.If(s < 0, _z(down or Fraction(0)) * (-s), z3.RealVal(0)))
        return fin, val

    nonneg = all(not f.has(x) and f >= 0 for f, _, _ in pieces)  # constant pieces only: conservative
    return Shape("convex", c1, nonneg, rec, kink="" if c1 else f"{sympy.sstr(e)} has a kink")


def _breaks(e: sympy.Expr, x: sympy.Symbol) -> set[Any]:
    """Every point where a piece, an Abs, a Max or a Min of ``e`` may switch: real roots of the
    polynomials compared there (NotShown when one is not a polynomial in x)."""
    out: set[Any] = set()
    diffs: list[sympy.Expr] = []
    for node in sympy.preorder_traversal(e):
        if isinstance(node, sympy.Abs):
            diffs.append(node.args[0])
        elif isinstance(node, sympy.Max | sympy.Min):
            diffs += [a - b for a in node.args for b in node.args if a != b]
        elif isinstance(node, sympy.core.relational.Relational):
            diffs.append(node.lhs - node.rhs)
    for g in diffs:
        out |= _roots(sympy.expand(g), x)
    return out


def _roots(g: sympy.Expr, x: sympy.Symbol) -> set[Any]:
    """Where ``g`` (a polynomial, or Abs / Max / Min / Piecewise of polynomials) may change sign."""
    if not g.has(x):
        return set()
    if g.is_polynomial(x):
        if any(not c.is_Rational for c in sympy.Poly(g, x).coeffs()):
            raise NotShown(f"switch point of {sympy.sstr(g)}: not a rational polynomial")
        return set(sympy.real_roots(sympy.Poly(g, x)))
    inner = _breaks(g, x)
    out = set(inner)
    for f, lo, hi in _pieces_at(g, x, inner):
        out |= {r for r in _roots(f, x) if lo <= r <= hi}
    return out


def _local(e: sympy.Expr, x: sympy.Symbol, at: Any) -> sympy.Expr:
    """The polynomial that ``e`` equals on an open interval containing ``at`` and no switch point."""
    if isinstance(e, sympy.Abs):
        g = _local(e.args[0], x, at)
        return g if g.subs(x, at) >= 0 else -g
    if isinstance(e, sympy.Max | sympy.Min):
        args = [_local(a, x, at) for a in e.args]
        vals = [a.subs(x, at) for a in args]
        pick = max(range(len(args)), key=lambda j: vals[j]) if isinstance(e, sympy.Max) else \
            min(range(len(args)), key=lambda j: vals[j])
        return args[pick]
    if isinstance(e, sympy.Piecewise):
        for expr, cond in e.args:
            if bool(cond.subs(x, at)):
                return _local(expr, x, at)
        raise NotShown(f"{sympy.sstr(e)} is undefined at {x} = {at}")
    if not e.args:
        return e
    return e.func(*[_local(a, x, at) for a in e.args])


def _univariate_pieces(e: sympy.Expr, x: sympy.Symbol) -> list[tuple[sympy.Expr, Any, Any]]:
    """``e`` (Piecewise / Abs / Max / Min of polynomials in x) as polynomials on consecutive closed
    intervals covering R, split at every switch point."""
    return _pieces_at(e, x, _breaks(e, x))


def _pieces_at(e: sympy.Expr, x: sympy.Symbol, points: set[Any]) -> list[tuple[sympy.Expr, Any, Any]]:
    pts = sorted(points, key=lambda r: sympy.Float(r, 30))
    if len(pts) > 40:
        raise NotShown(f"{sympy.sstr(e)}: more than 40 switch points")
    edges = [-sympy.oo, *pts, sympy.oo]
    pieces = []
    for lo, hi in zip(edges, edges[1:], strict=False):
        if lo == -sympy.oo:
            mid = hi - 1 if hi != sympy.oo else sympy.Integer(0)
        elif hi == sympy.oo:
            mid = lo + 1
        else:
            mid = (lo + hi) / 2
        f = sympy.expand(_local(e, x, mid))
        if not f.is_polynomial(x):
            raise NotShown(f"{sympy.sstr(e)}: piece {sympy.sstr(f)} is not a polynomial in {x}")
        pieces.append((f, lo, hi))
    return pieces


def analyse(e: sympy.Expr, u: Sequence[sympy.Symbol]) -> Shape:
    """The shape of ``e`` by the rules of the module docstring; raises :class:`NotShown`."""
    q = _quadratic(e, u)
    if q is not None:
        return q
    if _constant(e):  # log(2), E, pi, sqrt(2): a constant, its sign decided exactly
        sg = const_sign(e)
        if sg is None:
            raise NotShown(f"{sympy.sstr(e)}: the sign of this constant is not decided")
        return Shape("affine", True, sg >= 0, None)
    for node_type, rule in _RULES:
        if isinstance(e, node_type):
            return rule(e, u)
    if e.is_Rational:
        return Shape("affine", True, bool(e >= 0), lambda w: (_true(), _real0()))
    raise NotShown(f"{sympy.sstr(e)}: no convexity rule for {type(e).__name__}")


def _rec_all(recs: Sequence[Rec | None], combine: Callable[[list[Any]], Any]) -> Rec | None:
    """The recession function combining every term's by ``combine`` (finite where all are), None when one has none."""
    if not all(r is not None for r in recs):
        return None

    def rec(w: Sequence[Any]) -> tuple[Any, Any]:
        import z3

        parts = [r(w) for r in recs if r is not None]
        return z3.And(*[f for f, _ in parts]), combine([v for _, v in parts])

    return rec


def _rec_flat(inner: Rec | None) -> Rec | None:
    """The recession function of ``h(f)`` that grows superlinearly: 0 where ``f^inf(w) <= 0``, else infinite."""
    if inner is None:
        return None

    def rec(w: Sequence[Any]) -> tuple[Any, Any]:
        import z3

        fin, val = inner(w)
        return z3.And(fin, val <= 0), z3.RealVal(0)

    return rec


def _analyse_add(e: sympy.Add, u: Sequence[sympy.Symbol]) -> Shape:
    """``f + h``: convex when every term is convex or affine, recession ``f^inf + h^inf``."""
    shapes = [analyse(a, u) for a in e.args]
    if all(s.curvature in ("affine", "convex") for s in shapes):
        rec = _rec_all([s.rec for s in shapes], _zsum)
        kinks = [s.kink for s in shapes if s.kink]
        if all(s.curvature == "affine" for s in shapes):  # a.u + b with closed constant coefficients
            return Shape("affine", True, False, rec)
        return Shape("convex", all(s.c1 for s in shapes), all(s.nonneg for s in shapes), rec,
                     kink="; ".join(kinks))
    if all(s.curvature in ("affine", "concave") for s in shapes):
        return Shape("concave", all(s.c1 for s in shapes), False, None)
    bad = next(a for a, s in zip(e.args, shapes, strict=True) if s.curvature == "concave")
    raise NotShown(f"{sympy.sstr(bad)} is concave inside a sum of convex terms")


def _analyse_mul(e: sympy.Mul, u: Sequence[sympy.Symbol]) -> Shape:
    """``c f`` for a closed constant ``c`` (sign decided exactly), or a product of exponentials."""
    coeff, rest = _split_constant(e)
    if coeff != 1:
        sg = const_sign(coeff)
        if sg is None:
            raise NotShown(f"{sympy.sstr(e)}: the sign of the constant factor {sympy.sstr(coeff)} is not decided")
        if sg == 0:
            return Shape("affine", True, True, lambda w: (_true(), _real0()))
        s = analyse(rest, u)
        if sg > 0:
            r0 = s.rec
            # a positive constant factor keeps the curvature; the recession function is scaled exactly
            # when the constant is rational, else dropped (None: no recession rule, never a guess)
            rec = None if r0 is None or not coeff.is_Rational else (
                lambda w, c=Fraction(int(coeff.p), int(coeff.q)): (r0(w)[0], _z(c) * r0(w)[1]))
            return Shape(s.curvature, s.c1, s.nonneg, rec, s.kink)
        if s.curvature == "concave":
            return Shape("convex", s.c1, False, None, s.kink)  # no recession rule for -concave
        if s.curvature == "affine":
            return Shape("affine", True, False, None)
        raise NotShown(f"{sympy.sstr(e)}: a negative multiple of a convex function")
    combined = _exp_product(e, u)
    if combined is not None:
        return analyse(combined, u)
    raise NotShown(f"{sympy.sstr(e)}: a product of non-constant factors")


def _analyse_exp(e: sympy.exp, u: Sequence[sympy.Symbol]) -> Shape:
    """``exp(f)`` for convex ``f``: convex and > 0."""
    s = analyse(e.args[0], u)
    if s.curvature == "concave":
        raise NotShown(f"{sympy.sstr(e)}: exp of a concave function")
    return Shape("convex", s.c1, True, _rec_flat(s.rec), s.kink)


def _analyse_log(e: sympy.log, u: Sequence[sympy.Symbol]) -> Shape:
    """``log(c0 + sum c_i exp(g_i))`` only (log-sum-exp)."""
    s = _lse(e.args[0], u)
    if s is not None:
        return s
    raise NotShown(f"{sympy.sstr(e)}: log is concave; only log(c0 + sum c_i exp(affine)) is covered")


def _analyse_max(e: sympy.Max, u: Sequence[sympy.Symbol]) -> Shape:
    """``Max(f_1, .., f_m)`` of convex ``f_i``: convex with a kink, recession ``max f_i^inf``."""
    shapes = [analyse(a, u) for a in e.args]
    if any(s.curvature == "concave" for s in shapes):
        raise NotShown(f"{sympy.sstr(e)}: Max of a concave function")
    rec_m = _rec_all([s.rec for s in shapes], _zmax)
    nonneg = any(s.nonneg for s in shapes) or any(a.is_Rational and a >= 0 for a in e.args)
    return Shape("convex", False, nonneg, rec_m, kink=f"{sympy.sstr(e)} has a kink")


def _analyse_abs(e: sympy.Abs, u: Sequence[sympy.Symbol]) -> Shape:
    """``Abs(g)`` for affine ``g``: convex, >= 0, recession ``|a.w|``."""
    lf = _affine(e.args[0], u)
    if lf is None:
        raise NotShown(f"{sympy.sstr(e)}: Abs of a non-affine expression")
    a = lf[0]

    def rec_abs(w: Sequence[Any]) -> tuple[Any, Any]:
        import z3

        v = _dot(a, w)
        return _true(), z3.If(v >= 0, v, -v)

    return Shape("convex", False, True, rec_abs, kink=f"{sympy.sstr(e)} has a kink")


def _analyse_pow(e: sympy.Pow, u: Sequence[sympy.Symbol]) -> Shape:
    """A power: an exponential in disguise, ``sqrt`` of a quadratic, ``g**(2k)``, or ``f**r`` (r > 1)."""
    base, ex = e.args
    as_exp = _exp_product(e, u)
    if as_exp is not None:  # exp(g)**r = exp(r g), b**g = exp(g log b) for a constant b > 0 (identities)
        return analyse(as_exp, u)
    if not ex.is_Rational:
        raise NotShown(f"{sympy.sstr(e)}: a non-rational exponent")
    if ex == sympy.Rational(1, 2):
        return _sqrt_quadratic(e, u)
    lf = _affine(base, u)
    if lf is not None and ex.is_Integer and ex > 0 and ex % 2 == 0:
        a = lf[0]
        return Shape("convex", True, True, lambda w: (_dot(a, w) == 0, _real0()))
    if ex > 1:
        s = analyse(base, u)
        if s.curvature in ("convex", "affine") and s.nonneg:
            flat = _flat_kink(base, u)  # decided even when s.c1: analysing the inner argument may raise NotShown
            c1 = s.c1 or flat
            return Shape("convex", c1, True, _rec_flat(s.rec), "" if c1 else s.kink)
    raise NotShown(f"{sympy.sstr(e)}: no rule for this power")


def _flat_kink(base: sympy.Expr, u: Sequence[sympy.Symbol]) -> bool:
    """``base`` is ``Max(0, g)`` or ``Abs(g)``, ``g`` C^1: ``base**r`` (r > 1) is C^1 (its kink is at base = 0)."""
    inner_arg = [a for a in base.args if a != 0] if isinstance(base, sympy.Max | sympy.Abs) else []
    return bool((isinstance(base, sympy.Abs) or (isinstance(base, sympy.Max) and len(base.args) == 2
                                                 and any(a == 0 for a in base.args)))
                and len(inner_arg) == 1 and analyse(inner_arg[0], u).c1)


_RULES: list[tuple[type, Callable[[Any, Sequence[sympy.Symbol]], Shape]]] = [
    (sympy.Add, _analyse_add), (sympy.Mul, _analyse_mul), (sympy.exp, _analyse_exp), (sympy.log, _analyse_log),
    (sympy.Max, _analyse_max), (sympy.Abs, _analyse_abs), (sympy.Pow, _analyse_pow),
    (sympy.Piecewise, _piecewise),
]  # one rule per node type, tried in this order (the rows of the module docstring's table)


def _exp_arg(f: sympy.Expr, u: Sequence[sympy.Symbol]) -> sympy.Expr | None:
    """``g`` with ``f = exp(g)`` identically on R^d: ``exp(g)``, ``exp(g)**r`` (r a closed number: r g), and
    ``b**g`` for a closed constant ``b > 0`` (sign decided exactly: g log b); None otherwise."""
    if isinstance(f, sympy.exp):
        return f.args[0]
    if isinstance(f, sympy.Pow):
        base, ex = f.args
        if isinstance(base, sympy.exp) and not ex.free_symbols:
            return ex * base.args[0]
        if not base.free_symbols and base.is_number and ex.free_symbols and const_sign(base) == 1:
            return ex * sympy.log(base)
    return None


def _exp_product(e: sympy.Expr, u: Sequence[sympy.Symbol]) -> sympy.Expr | None:
    """``c * exp(g_1 + .. + g_m)`` for ``e = c * f_1 * .. * f_m`` with every non-constant ``f_i = exp(g_i)``
    (:func:`_exp_arg`): ``exp(a) exp(b) = exp(a + b)``, ``sqrt(exp(u)) = exp(u/2)``, ``2**u = exp(u log 2)``;
    None when some factor is not of that kind (or nothing changes)."""
    c, rest = _split_constant(e) if isinstance(e, sympy.Mul) else (sympy.Integer(1), e)
    args = []
    for f in sympy.Mul.make_args(rest):
        g = _exp_arg(f, u)
        if g is None:
            return None
        args.append(g)
    if not args:
        return None
    out = c * sympy.exp(sympy.Add(*args), evaluate=False)
    return None if out == e else out


def _sqrt_quadratic(e: sympy.Pow, u: Sequence[sympy.Symbol]) -> Shape:
    """``sqrt(q)`` for a polynomial ``q`` of degree <= 2 with rational coefficients: with
    ``M = [[A, b/2], [b^T/2, c]]`` (``q(u) = u^T A u + b.u + c``), convex when M is positive semidefinite
    (every principal minor >= 0, exact): then ``M = R^T R`` and ``sqrt(q(u)) = |R (u, 1)|_2``, the Euclidean
    norm of an affine map (``sqrt(u**2 + 1)``).  C^1 when M is positive definite (then ``q > 0``
    everywhere).  When some principal minor is negative, ``q`` is negative somewhere (``sqrt(u**2 - 1)``),
    so ``sqrt(q)`` is not a real function on R^d: NotShown with that reason."""
    base = e.args[0]
    if not base.free_symbols <= set(u) or not base.free_symbols:
        raise NotShown(f"{sympy.sstr(e)}: no rule for this power")
    try:
        poly = sympy.Poly(base, *u)
    except sympy.PolynomialError:
        raise NotShown(f"{sympy.sstr(e)}: no rule for this power (only sqrt of a quadratic)") from None
    if poly.total_degree() > 2 or any(not c.is_Rational for c in poly.coeffs()):
        raise NotShown(f"{sympy.sstr(e)}: no rule for this power (only sqrt of a quadratic with rational "
                       "coefficients)")
    used = [x for x in u if poly.degree(x) > 0]
    if len(used) + 1 > 11:
        raise NotShown(f"{sympy.sstr(e)}: too many variables for the exact minors")
    M = _augmented(base, used, u)
    if _negative_minor(M, range(len(used) + 1)) is not None:
        raise NotShown(f"{sympy.sstr(e)}: {sympy.sstr(base)} is negative somewhere (its matrix "
                       f"[[A, b/2], [b^T/2, c]] has a negative principal minor), so the square root is not "
                       "a real convex function on R^d")
    k = len(used)
    pd = all(M.extract(list(range(r)), list(range(r))).det(method="bareiss") > 0 for r in range(1, k + 2))
    return Shape("convex", pd, True, None,
                 kink="" if pd else f"{sympy.sstr(e)} may have a kink where {sympy.sstr(base)} = 0")


def _real0() -> Any:
    import z3

    return z3.RealVal(0)



def bounded_below(e: sympy.Expr, u: Sequence[sympy.Symbol]) -> str:
    """'' when ``e`` is shown bounded below on R^d by the rules below, else why not.

    Non-negative shapes (exp, Abs, even powers, ``Max`` with a non-negative argument, squares of
    those); convex quadratics whose linear part lies in the range of the Hessian; a univariate
    convex Piecewise with non-negative slopes at both ends; a positive multiple or sum of bounded
    terms; and positive multiples of log-sum-exp terms ``log(c0 + sum c_i exp(a_i.u + b_i))`` plus an
    affine part ``l.u + b`` with ``-l`` in the Minkowski sum of the terms' scaled slope hulls
    (:func:`_lse_absorbs`; Gibbs' inequality), which covers the multinomial logistic loss
    (``lse(u) - u_y``) and the ListNet top-1 loss (``lse(u) - sum_j q_j u_j`` for a distribution q)."""
    e = rewrite_logs(e)
    terms = list(sympy.Add.make_args(e))

    def as_lse(t: sympy.Expr) -> tuple[Fraction, sympy.log] | None:
        c, rest = t.as_coeff_Mul()
        if isinstance(rest, sympy.log) and c.is_Rational and c > 0:
            return Fraction(int(c.p), int(c.q)), rest
        return None

    lse = [x for x in (as_lse(t) for t in terms) if x is not None]
    rest = [t for t in terms if as_lse(t) is None]
    affine_part = sympy.Add(*[t for t in rest if _affine(t, u) is not None])
    others = [t for t in rest if _affine(t, u) is None]
    lf = _affine(affine_part, u)
    for _, t in lse:
        if _lse(t.args[0], u) is None:
            return f"{sympy.sstr(t)}: not log-sum-exp"
    if lf is None or not any(lf[0]):
        lf = ([Fraction(0)] * len(u), Fraction(0))
    hulls = [(c, _lse_slopes(t.args[0], u)) for c, t in lse]
    if lse and _gibbs_constant_weights(lse, others, u):
        return ""
    cones = [a for a in (_exp_slope(t, u) for t in others) if a is not None]
    if _lse_absorbs(hulls, lf[0], cones) is None:
        if lse == [] and any(lf[0]) and _quadratic(e, u) is not None and _quadratic_bounded(e, u):
            return ""
        if any(lf[0]) and _sqrt_absorbs(others, lf[0], u) and _lse_absorbs(hulls, [Fraction(0)] * len(u)) is not None:
            return "".join(_bounded_term(t, u) for t in others)
        if any(lf[0]):
            return f"{sympy.sstr(e)}: its affine part {sympy.sstr(affine_part)} is not shown bounded below"
        return f"{sympy.sstr(lse[0][1])} is not shown bounded below"
    for t in others:
        why = _bounded_term(t, u)
        if why:
            return why
    return ""


def _lse_slopes(arg: sympy.Expr, u: Sequence[sympy.Symbol]) -> list[list[Fraction]]:
    """The slopes ``a_i`` of ``log(c0 + sum c_i exp(a_i.u + b_i))`` (checked by :func:`_lse`), with the
    zero vector when ``c0 > 0`` (the constant is ``c0 exp(0.u)``)."""
    out: list[list[Fraction]] = []
    c0 = sympy.Integer(0)
    for t in sympy.Add.make_args(sympy.expand(arg, power_exp=False)):
        if t.is_Rational:
            c0 += t
            continue
        _, rest = t.as_coeff_Mul()
        lf = _affine(rest.args[0], u)
        assert lf is not None
        out.append(lf[0])
    if c0 > 0:
        out.append([Fraction(0)] * len(u))
    return out


# CPU seconds for the z3 query of :func:`_lse_absorbs` (a small linear feasibility problem; the
# shape analysis has no caller's budget to share, so this is the query's own)
LSE_SECONDS = 5.0


def _gibbs_constant_weights(lse: Sequence[tuple[Fraction, sympy.log]], others: Sequence[sympy.Expr],
                            u: Sequence[sympy.Symbol]) -> bool:
    """``c log(sum_j exp(u_j)) - sum_j l_j u_j`` with closed constants ``l_j`` (ListNet with weights
    ``exp(r_j) / sum_k exp(r_k)``): bounded below when ``q = l / c`` is a probability vector, each
    ``q_j >= 0`` and ``sum_j q_j - 1 = 0`` decided by the one exact sign test (Gibbs' inequality:
    ``log sum_j exp(u_j) >= sum_j q_j u_j - sum_j q_j log q_j``).  One log-sum-exp term, every other term
    ``l_j u_j``."""
    if len(lse) != 1 or not others:
        return False
    c, t = lse[0]
    inner = sympy.Add.make_args(t.args[0])
    if sorted(inner, key=str) != sorted((sympy.exp(x) for x in u), key=str):
        return False
    coef = {x: sympy.Integer(0) for x in u}
    for term in sympy.Add.make_args(sympy.expand(sympy.Add(*others))):
        k, rest = _split_constant(term) if isinstance(term, sympy.Mul) else (sympy.Integer(1), term)
        if rest not in coef:
            return False
        coef[rest] += k
    q = [-coef[x] / sympy.Rational(c.numerator, c.denominator) for x in u]
    if any(const_sign(x) not in (0, 1) for x in q):
        return False
    return const_sign(sympy.Add(*q) - 1) == 0


def _exp_slope(t: sympy.Expr, u: Sequence[sympy.Symbol]) -> list[Fraction] | None:
    """``a`` when ``t = c exp(a.u + b)`` with a constant ``c > 0`` (sign decided exactly), rational a, b."""
    c, rest = _split_constant(t) if isinstance(t, sympy.Mul) else (sympy.Integer(1), t)
    if not isinstance(rest, sympy.exp) or const_sign(c) != 1:
        return None
    lf = _affine(rest.args[0], u)
    return None if lf is None or not any(lf[0]) else list(lf[0])


def _sqrt_absorbs(others: Sequence[sympy.Expr], slope: Sequence[Fraction], u: Sequence[sympy.Symbol]) -> bool:
    """Some term ``c sqrt(q)`` (c > 0 rational, q a quadratic with matrix M = [[A, b/2], [b^T/2, c0]]) has
    ``M - m m^T`` positive semidefinite for ``m = (slope / c, 0)`` (every principal minor >= 0, exact): then
    ``q(u) >= (slope.u / c)**2``, so ``c sqrt(q(u)) >= |slope.u| >= -slope.u`` and ``c sqrt(q) + slope.u >= 0``
    (``sqrt(u**2 + 1) - u``).  The other terms must be bounded below on their own."""
    for t in others:
        c, rest = t.as_coeff_Mul()
        if not (c.is_Rational and c > 0 and isinstance(rest, sympy.Pow) and rest.exp == sympy.Rational(1, 2)):
            continue
        q = rest.base
        try:
            poly = sympy.Poly(q, *u)
        except sympy.PolynomialError:
            continue
        if poly.total_degree() > 2 or any(not x.is_Rational for x in poly.coeffs()) or len(u) > 10:
            continue
        m = sympy.Matrix([sympy.Rational(x.numerator, x.denominator) / c for x in slope] + [sympy.Integer(0)])
        M = _augmented(q, list(u), u) - m * m.T
        if _negative_minor(M, range(len(u) + 1)) is None:
            return True
    return False


def _lse_absorbs(hulls: Sequence[tuple[Fraction, list[list[Fraction]]]],
                 slope: Sequence[Fraction], cones: Sequence[list[Fraction]] = ()) -> list[list[Fraction]] | None:
    """Weights ``lambda_m`` (a probability vector per log-sum-exp term ``c_m lse_m``) with
    ``sum_m c_m sum_i lambda_mi a_mi + slope = 0``, found by z3 and re-checked in Fractions; None
    when there are none.  They show ``sum_m c_m lse_m(u) + slope.u`` bounded below: by Gibbs'
    inequality ``log sum_i c_i exp(x_i) >= sum_i lambda_i (x_i + log c_i - log lambda_i)`` for every
    probability vector lambda, so the sum is at least a constant plus
    ``(sum_m c_m sum_i lambda_mi a_mi + slope).u = 0``.  No log-sum-exp term: bounded iff slope = 0.

    ``cones``: the slopes ``a_j`` of terms ``c_j exp(a_j.u + b_j)`` (c_j > 0) of the same sum; each absorbs
    ``kappa_j a_j`` for any ``kappa_j >= 0``, since ``c exp(x) - kappa x`` is bounded below (by ``kappa -
    kappa log(kappa / c)``, its minimum; 0 for kappa = 0): so ``exp(u) - u`` is bounded below.  The weights
    returned are then the lambdas followed by one row ``[kappa_j]`` per cone."""
    if not hulls and not cones:
        return [] if not any(slope) else None
    import z3

    from symcal.backends.base import Budget
    from symcal.backends.z3_backend import cpu_watchdog

    solver = z3.Solver()
    lams = [[z3.Real(f"lam_{m}_{i}") for i in range(len(pts))] for m, (_, pts) in enumerate(hulls)]
    for row in lams:
        solver.add(*[x >= 0 for x in row])
        solver.add(z3.Sum(*row) == 1)
    kappas = [z3.Real(f"kappa_{j}") for j in range(len(cones))]
    solver.add(*[x >= 0 for x in kappas])
    for j in range(len(slope)):
        terms = [_z(c * pt[j]) * x for (c, pts), row in zip(hulls, lams, strict=True)
                 for pt, x in zip(pts, row, strict=True) if pt[j]]
        terms += [_z(a[j]) * x for a, x in zip(cones, kappas, strict=True) if a[j]]
        solver.add((z3.Sum(*terms) if terms else z3.RealVal(0)) + _z(slope[j]) == 0)
    budget = Budget(LSE_SECONDS)
    solver.set("timeout", budget.wall_ms())
    with cpu_watchdog(budget, solver.ctx):
        answer = solver.check()
    if answer != z3.sat:
        return None
    model = solver.model()

    def frac(x: Any) -> Fraction:
        v = model.eval(x, model_completion=True)
        return Fraction(v.numerator_as_long(), v.denominator_as_long())

    weights = [[frac(x) for x in row] for row in lams]
    ks = [frac(x) for x in kappas]
    # the exact re-check: probability vectors, kappa >= 0, and the slopes cancel
    if any(x < 0 for row in weights for x in row) or any(sum(row) != 1 for row in weights) or any(k < 0 for k in ks):
        return None
    for j in range(len(slope)):
        total = sum((c * pt[j] * x for (c, pts), row in zip(hulls, weights, strict=True)
                     for pt, x in zip(pts, row, strict=True)), Fraction(0))
        total += sum((a[j] * k for a, k in zip(cones, ks, strict=True)), Fraction(0))
        if total + slope[j] != 0:
            return None
    return weights + [[k] for k in ks]


def _quadratic_bounded(e: sympy.Expr, u: Sequence[sympy.Symbol]) -> bool:
    H = sympy.hessian(e, list(u))
    g0 = sympy.Matrix([sympy.diff(e, x).subs({y: 0 for y in u}) for x in u])
    try:
        H.gauss_jordan_solve(-g0)
    except ValueError:
        return False
    return True


def _bounded_term(t: sympy.Expr, u: Sequence[sympy.Symbol]) -> str:
    coeff, rest = t.as_coeff_Mul()
    if coeff.is_Rational and coeff > 0 and coeff != 1:
        return _bounded_term(rest, u)
    try:
        sh = analyse(t, u)
    except NotShown as exc:
        return str(exc)
    if sh.nonneg:
        return ""
    q = _quadratic(t, u) if t.free_symbols else None
    if q is not None and _quadratic_bounded(t, u):
        return ""
    if isinstance(t, sympy.Piecewise) and len(t.free_symbols) == 1:
        (x,) = t.free_symbols
        pieces = _univariate_pieces(t, x)
        lo_f, hi_f = pieces[0][0], pieces[-1][0]
        ok = (sympy.degree(hi_f, x) >= 2 or sympy.diff(hi_f, x) >= 0) and \
             (sympy.degree(lo_f, x) >= 2 or sympy.diff(lo_f, x) <= 0)
        return "" if ok else f"{sympy.sstr(t)}: a tail decreases without bound"
    if isinstance(t, sympy.Max) and any(_bounded_term(a, u) == "" for a in t.args):
        return ""
    if t.is_Rational:
        return ""
    return f"{sympy.sstr(t)} is not shown bounded below"


MAX_PIECES = 256


def max_of_affine(e: sympy.Expr, u: Sequence[sympy.Symbol]) -> list[tuple[tuple[Fraction, ...], Fraction]] | None:
    """Affine pieces ``(a, b)`` with ``e = max_j (a_j.u + b_j)`` for a convex piecewise-linear ``e``
    built from affine expressions, ``Max``, ``Abs`` of affine, sums and positive multiples -- so that
    a nested form such as ``Max(0, Abs(u1 - 1) - 1/4)`` is the polyhedral ``Max(0, u1 - 5/4, 3/4 - u1)``
    (a sum of maxima is the maximum of the sums of their pieces).  None when ``e`` is not of that
    shape or has more than :data:`MAX_PIECES` pieces."""
    lf = _affine(e, u)
    if lf is not None:
        return [(tuple(lf[0]), lf[1])]
    if isinstance(e, sympy.Mul):
        c, rest = e.as_coeff_Mul()
        if not (c.is_Rational and c > 0) or c == 1:
            return None
        inner = max_of_affine(rest, u)
        k = Fraction(int(c.p), int(c.q))
        return None if inner is None else [(tuple(k * x for x in a), k * b) for a, b in inner]
    if isinstance(e, sympy.Add):
        acc: list[tuple[tuple[Fraction, ...], Fraction]] = [(tuple(Fraction(0) for _ in u), Fraction(0))]
        for term in e.args:
            pieces = max_of_affine(term, u)
            if pieces is None or len(acc) * len(pieces) > MAX_PIECES:
                return None
            acc = [(tuple(x + y for x, y in zip(a1, a2, strict=True)), b1 + b2) for a1, b1 in acc for a2, b2 in pieces]
        return sorted(set(acc))
    if isinstance(e, sympy.Max):
        out: set[tuple[tuple[Fraction, ...], Fraction]] = set()
        for arg in e.args:
            pieces = max_of_affine(arg, u)
            if pieces is None:
                return None
            out |= set(pieces)
        return sorted(out) if len(out) <= MAX_PIECES else None
    if isinstance(e, sympy.Abs):
        lf = _affine(e.args[0], u)
        if lf is None:
            return None
        a, b = tuple(lf[0]), lf[1]
        return sorted({(a, b), (tuple(-x for x in a), -b)})
    return None
