"""Calibration with a parameter: for which values of ``tau`` in a range is the surrogate calibrated?

A calibration file may name one parameter with its range, ``"parameters": {"tau": ["-1", "1"]}``
(closed ends; ``"(-1"`` / ``"1)"`` for open ones), and use it in the loss entries, the surrogate's
expressions, the link (``{"linear": B, "offset": c}`` entries, ``{"regions": ...}`` relations, a
link file's ``REGIONS``) and the noise relations.  The answer is a list of *pieces* of the range,
each a set of parameter values with a status:

* ``proved`` -- calibrated for **every** value in the piece, never by sampling: at a rational point
  by the engine itself (:func:`symcal.calibration.engine.decide` on the problem with the value put
  in); on an interval (or at an irrational point) by the engine's own per-pair queries of method
  (A) or (B) with the parameter as one more real variable confined to the piece (z3's nonlinear
  real arithmetic, nlsat, complete for polynomial arithmetic; a timeout is ``unknown``), after
  their preconditions were checked for the whole piece (nonnegative weights of the ``Max`` terms
  and a quadratic part free of the parameter, decided exactly; each ``psi_y`` bounded below, one
  unsat query).  When cvc5 is installed it re-decides every unsat answer behind a decided piece
  (the queries at points too); a disagreement makes the piece ``unknown``.
* ``refuted`` -- an exact failure for **every** value in the piece: at a rational point, the
  engine's re-checked counterexample; on an interval, a *parametric witness* (p, u, multipliers and
  an interior point, affine in the parameter) re-checked exactly for all values at once: each
  equality of the engine's re-check is an identity in the parameter (sympy), each inequality a
  univariate rational function whose sign on the piece is decided by exact real-root isolation
  (:func:`sympy.solve_univariate_inequality`).  The witness is found at two rational values of the
  piece (z3's optimiser: the distribution with the largest loss gap, then the smallest u) and
  interpolated; it is only a candidate until the re-check passes.
* ``unknown`` -- what is not decided (a solver timeout, a surrogate method (S) decides only at
  points, a witness that did not interpolate).

The range is split at *critical values*: the real roots, in the range, of the polynomials whose
sign changes the structure of the problem -- each coefficient of the loss, the surrogate's affine
pieces, the link and the noise, and the differences of coefficients in one group (two loss
entries of a row, two offsets of the link, two constants of one ``Max``).  The critical values
only decide where the range is cut; soundness rests on each piece's own decision, so a missing
one costs precision (an ``unknown`` or a split piece), never a wrong answer.  Adjacent pieces with
the same decisive status are merged.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget
from symcal.calibration.parse import parse_expression, parse_relation, variables
from symcal.calibration.problem import invalid
from symcal.exact import fraction_str

__all__ = ["Range", "Piece", "ParameterAnswer", "parse_parameters", "decide_parameters", "MAX_CRITICAL"]

MAX_CRITICAL = 40  # critical values kept (beyond: the range is cut at the first ones; the rest is still decided)
_RESERVED = {"Max", "Min", "Abs", "abs", "max", "min", "Piecewise", "exp", "log", "sqrt", "And", "Or", "Not", "pi",
             "E", "oo", "I", "nan", "zoo", "inf", "eps", "True", "False", "None"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,29}")
RECHECK_SECONDS = 10.0  # CPU seconds for each z3 query of a parametric witness's re-check (a share)
_BOX = 1000  # |u_i| bound for the witness search only (a witness found inside is a witness)


# --------------------------------------------------------------------------- the range


@dataclass(frozen=True)
class Range:
    """A parameter and its range ``lo .. hi`` (exact; ``lo_open``/``hi_open`` for open ends)."""

    name: str
    lo: Fraction
    hi: Fraction
    lo_open: bool = False
    hi_open: bool = False

    @property
    def symbol(self) -> sympy.Symbol:
        return sympy.Symbol(self.name)

    def text(self) -> str:
        return (f"{'(' if self.lo_open else '['}{fraction_str(self.lo)}, {fraction_str(self.hi)}"
                f"{')' if self.hi_open else ']'}")

    def contains(self, x: Any) -> bool:
        lo, hi = sympy.Rational(*_nd(self.lo)), sympy.Rational(*_nd(self.hi))
        return bool((x > lo if self.lo_open else x >= lo) and (x < hi if self.hi_open else x <= hi))


def parse_parameters(data: Any, param: str = "parameters") -> tuple[Range, ...]:
    """``{"tau": ["-1", "1"]}`` as Ranges.  Refused in one line naming the parameter: a name that is
    not an identifier or clashes with ``p1..pn``/``u1..ud``/a function, a range that is not two exact
    numbers (floats and decimals refused), reversed or empty, and more than one parameter."""
    if not isinstance(data, dict) or not data:
        raise invalid(param, data, 'an object {"tau": ["lo", "hi"]} naming one parameter and its range')
    if len(data) > 1:
        raise invalid(param, sorted(data), "one parameter (pieces of a line; two or more are not decided)")
    out = []
    for name, rng in data.items():
        where = f"{param}.{name}"
        if not isinstance(name, str) or not _NAME.fullmatch(name) or name in _RESERVED \
                or re.fullmatch(r"[pu][0-9]+", name) or re.fullmatch(r"(mu|nu|eta|dd|m)_?[0-9_]*", name):
            raise invalid(param, name, "a parameter name: an identifier of at most 30 characters that is not "
                                       "p1..pn, u1..ud, a multiplier name or a function name")
        if not isinstance(rng, list) or len(rng) != 2:
            raise invalid(where, rng, 'a range of two exact numbers ["lo", "hi"] ("(lo" / "hi)" for open ends)')
        lo, lo_open = _end(rng[0], where, "(", "[", True)
        hi, hi_open = _end(rng[1], where, ")", "]", False)
        if lo > hi:
            raise invalid(where, rng, "a range with lo <= hi (it is reversed)")
        if lo == hi and (lo_open or hi_open):
            raise invalid(where, rng, "a non-empty range (an open end at lo = hi leaves nothing)")
        out.append(Range(name, lo, hi, lo_open, hi_open))
    return tuple(out)


def _end(x: Any, where: str, open_mark: str, closed_mark: str, left: bool) -> tuple[Fraction, bool]:
    from symcal.calibration.problem import exact_number

    if isinstance(x, bool) or not isinstance(x, str | int):
        raise invalid(where, x, 'an exact number as a string or an integer, e.g. "-1", "1/2", "(0" or "1)"')
    text = str(x).strip()
    is_open = False
    mark = text[:1] if left else text[-1:]
    if mark in (open_mark, closed_mark):
        is_open = mark == open_mark
        text = (text[1:] if left else text[:-1]).strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,400}(/[0-9]{1,400})?", text):
        raise invalid(where, x, 'an exact number such as "-1" or "1/2" (no decimals, floats or names)'
                      + (", with '(' for an open end" if left else ", with ')' for an open end"))
    return exact_number(text, where), is_open


# --------------------------------------------------------------------------- the parametric problem


def _nd(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


def _rat(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


def _sub_text(text: str, name: str, value: Fraction) -> str:
    """``text`` with the identifier ``name`` replaced by ``(value)`` (identifiers are whole words)."""
    return re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", f"({fraction_str(value)})", text)


@dataclass
class Parametric:
    """The problem with the parameter kept symbolic: loss entries, per-label expressions, link cells
    (``a(tau).u <= b(tau)`` rows; None for the built-in links, whose cells do not move) and noise."""

    raw: dict[str, Any]
    rng: Range
    loss: list[list[sympy.Expr]]
    per_label: list[sympy.Expr]
    cells: list[list[tuple[tuple[sympy.Expr, ...], sympy.Expr]]] | None
    exclusive: bool
    noise: list[Any]
    n: int = 0
    d: int = 0
    link_spec: Any = None
    cross: bool = False  # cvc5 re-decides the SMT answers behind each decided piece

    def instantiate(self, value: Fraction, timeout: float) -> Any:
        """The engine's Setup at ``tau = value`` (the texts with the value put in, validated again)."""
        from symcal.calibration import setup

        raw = _instantiated(self.raw, self.rng.name, value)
        return setup(raw["loss"], raw["surrogate"], raw["link"], noise=raw["noise"], name=raw["name"],
                     timeout=timeout)


def _instantiated(raw: dict[str, Any], name: str, value: Fraction) -> dict[str, Any]:
    out = copy.deepcopy(raw)
    tau = sympy.Symbol(name)

    def number(x: Any, where: str) -> Any:
        if isinstance(x, str):
            e = parse_expression(x, where, [tau]).xreplace({tau: _rat(value)})
            if not e.is_Rational:
                raise invalid(where, x, f"an exact rational number at {name} = {fraction_str(value)}")
            return fraction_str(Fraction(int(e.p), int(e.q)))
        return x

    if isinstance(out["loss"], list):
        out["loss"] = [[number(x, f"loss[{a}][{b}]") for b, x in enumerate(row)] if isinstance(row, list) else row
                       for a, row in enumerate(out["loss"])]
    sur = out["surrogate"]
    if isinstance(sur, dict) and isinstance(sur.get("per_label"), list):
        sur["per_label"] = [_sub_text(e, name, value) if isinstance(e, str) else e for e in sur["per_label"]]
    link = out["link"]
    if isinstance(link, dict) and "linear" in link:
        link["linear"] = [[number(x, f"link.linear[{t}][{i}]") for i, x in enumerate(row)]
                          if isinstance(row, list) else row for t, row in enumerate(link["linear"])]
        if isinstance(link.get("offset"), list):
            link["offset"] = [number(x, f"link.offset[{t}]") for t, x in enumerate(link["offset"])]
    if isinstance(link, dict) and isinstance(link.get("regions"), list):
        link["regions"] = [[_sub_text(r, name, value) if isinstance(r, str) else r for r in reg]
                           if isinstance(reg, list) else reg for reg in link["regions"]]
    if isinstance(out.get("noise"), list):
        out["noise"] = [_sub_text(r, name, value) if isinstance(r, str) else r for r in out["noise"]]
    return out


def parametric_problem(kw: dict[str, Any], timeout: float = 60.0) -> Parametric:
    """Read a calibration file's arguments (:func:`symcal.calibration.problem.read_problem_file`) with
    its one parameter kept symbolic; every text is parsed with the parameter as one more name."""
    (rng,) = parse_parameters(kw["parameters"])
    tau = rng.symbol
    raw = {k: kw[k] for k in ("loss", "surrogate", "link", "noise", "name")}
    link = raw["link"]
    if isinstance(link, str) and link.endswith(".py"):  # its REGIONS as texts, then like {"regions": ...}
        from pathlib import Path

        from symcal.calibration.problem import _link_file

        regions, names = _link_file(Path(link), "link", timeout)
        raw["link"] = {"regions": regions, **({"names": names} if names is not None else {})}
    sur = raw["surrogate"]
    if not isinstance(sur, dict) or not isinstance(sur.get("dim"), int) or not isinstance(sur.get("per_label"), list):
        raise invalid("surrogate", sur, 'an object {"dim": d, "per_label": [...]}')
    d = sur["dim"]
    u = variables("u", d)
    for i, r in enumerate(sur.get("domain") or []):
        if isinstance(r, str) and re.search(rf"(?<![A-Za-z0-9_]){re.escape(rng.name)}(?![A-Za-z0-9_])", r):
            raise invalid(f"surrogate.domain[{i}]", r, f"a domain free of the parameter {rng.name}",
                          "the parameter may appear in the loss, per_label, link and noise")
    per_label = [parse_expression(e, f"surrogate.per_label[{i}]", u + [tau]) for i, e in enumerate(sur["per_label"])]
    loss = raw["loss"]
    if isinstance(loss, dict):
        rows = None
    else:
        if not isinstance(loss, list) or not all(isinstance(r, list) for r in loss):
            raise invalid("loss", loss, "a list of rows of exact numbers or expressions in the parameter")
        rows = [[_entry(x, f"loss[{a}][{b}]", tau) for b, x in enumerate(row)] for a, row in enumerate(loss)]
    n = len(per_label)
    p = variables("p", n)
    noise = [parse_relation(r, f"noise[{i}]", p + [tau]) for i, r in enumerate(raw["noise"] or [])]
    cells, exclusive = _parametric_cells(raw["link"], d, tau)
    par = Parametric(raw, rng, rows or [], per_label, cells, exclusive, noise, n=n, d=d, link_spec=raw["link"])
    # defined on the whole range: no denominator vanishes there
    exprs = [x for row in par.loss for x in row] + per_label
    if cells is not None:
        exprs += [c for cell in cells for a, b in cell for c in (*a, b)]
    if not any(sympy.sympify(e).has(tau) for e in exprs + noise):
        # the same verdict for every value would answer a question nobody asked (a misspelt name?)
        raise invalid(f"parameters.{rng.name}", rng.text(), "a parameter the problem uses",
                      f"{rng.name} appears in none of the loss, surrogate.per_label, link and noise")
    for e in exprs:
        den = sympy.fraction(sympy.together(e))[1]
        if den.has(tau):
            for r in _real_roots(den, tau):
                if rng.contains(r):
                    raise invalid(rng.name, sympy.sstr(r), f"a range where every expression is defined "
                                                           f"({sympy.sstr(den)} = 0 there)")
    if rows is None:
        par.loss = [[_rat(x) for x in row] for row in par.instantiate(rng.lo, timeout).L]
    return par


def _entry(x: Any, where: str, tau: sympy.Symbol) -> sympy.Expr:
    if isinstance(x, bool) or not isinstance(x, str | int):
        raise invalid(where, x, "an exact number or an expression in the parameter, as a string")
    e = parse_expression(str(x), where, [tau])
    return e


def _parametric_cells(link: Any, d: int, tau: sympy.Symbol) -> tuple[list[Any] | None, bool]:
    """The link's cells as rows ``(a(tau), b(tau))`` meaning ``a.u <= b``; None for a built-in link."""
    u = variables("u", d)
    if isinstance(link, dict) and "linear" in link:
        B = [[_entry(x, f"link.linear[{t}][{i}]", tau) for i, x in enumerate(row)] for t, row in
             enumerate(link["linear"])]
        off = link.get("offset")
        c = [_entry(x, f"link.offset[{t}]", tau) for t, x in enumerate(off)] if off else [sympy.Integer(0)] * len(B)
        cells = []
        for t in range(len(B)):
            cells.append([(tuple(sympy.expand(x - y) for x, y in zip(B[t], B[s], strict=True)),
                           sympy.expand(c[s] - c[t])) for s in range(len(B)) if s != t])
        return cells, True
    if isinstance(link, dict) and "regions" in link:
        cells = []
        for t, reg in enumerate(link["regions"]):
            rows = []
            for i, text in enumerate(reg):
                rel = parse_relation(text, f"link.regions[{t}][{i}]", u + [tau])
                if isinstance(rel, sympy.Eq):
                    diffs = [rel.lhs - rel.rhs, rel.rhs - rel.lhs]
                elif isinstance(rel, sympy.LessThan):
                    diffs = [rel.lhs - rel.rhs]
                elif isinstance(rel, sympy.GreaterThan):
                    diffs = [rel.rhs - rel.lhs]
                else:
                    raise invalid(f"link.regions[{t}][{i}]", text, "a closed linear relation in u (<=, >= or =)")
                for df in diffs:
                    lf = _affine(df, u)
                    if lf is None:
                        raise invalid(f"link.regions[{t}][{i}]", text, "a relation affine in u")
                    rows.append((lf[0], -lf[1]))
            cells.append(rows)
        return cells, False
    return None, True


def _affine(e: Any, u: list[sympy.Symbol]) -> tuple[tuple[sympy.Expr, ...], sympy.Expr] | None:
    """``e = a.u + b`` with ``a, b`` free of u (expressions in the parameter), or None."""
    e = sympy.expand(e)
    try:
        poly = sympy.Poly(e, *u)
    except sympy.PolynomialError:
        return None
    if poly.total_degree() > 1 or any(c.has(*u) for c in poly.coeffs()):
        return None
    if any(c.has(sympy.Max, sympy.Min, sympy.Abs, sympy.exp, sympy.log, sympy.Piecewise) for c in poly.coeffs()):
        return None
    a = tuple(sympy.expand(poly.coeff_monomial(x)) for x in u)
    return a, sympy.expand(poly.coeff_monomial(1))


# --------------------------------------------------------------------------- exact signs on a piece


@dataclass(frozen=True)
class Span:
    """A piece of the range: ``lo .. hi`` (sympy real algebraic numbers), open or closed at each end;
    ``lo == hi`` (closed) is a point."""

    lo: Any
    hi: Any
    lo_open: bool
    hi_open: bool

    @property
    def point(self) -> bool:
        return self.lo == self.hi

    def as_set(self) -> Any:
        return sympy.Interval(self.lo, self.hi, self.lo_open, self.hi_open)

    def text(self, name: str) -> str:
        if self.point:
            return f"{name} = {sympy.sstr(self.lo)}"
        return (f"{sympy.sstr(self.lo)} {'<' if self.lo_open else '<='} {name} "
                f"{'<' if self.hi_open else '<='} {sympy.sstr(self.hi)}")

    def relation(self, tau: sympy.Symbol) -> Any:
        """The piece as a relation in tau with rational coefficients only (an algebraic end through its
        minimal polynomial and an isolating interval), so that z3 takes it exactly."""
        if self.point and not self.lo.is_Rational:
            m, a, b = _isolate(self.lo, tau)
            return sympy.And(sympy.Eq(m, 0), tau >= a, tau <= b)
        if self.point:
            return sympy.Eq(tau, self.lo)
        return sympy.And(_beyond(tau, self.lo, self.lo_open, 1), _beyond(tau, self.hi, self.hi_open, -1))


def _isolate(x: Any, tau: sympy.Symbol) -> tuple[Any, Any, Any]:
    """An algebraic number as (its minimal polynomial in tau, l, r): rationals l < x < r with x the
    only root in [l, r]."""
    mp = sympy.Poly(sympy.minimal_polynomial(x, tau), tau)
    v = sympy.N(x, 50)
    for (a, b), _ in mp.intervals(eps=sympy.Rational(1, 10**12)):
        if a <= v <= b and a != b:
            return mp.as_expr(), a, b
        if a == b == x:
            return mp.as_expr(), a, b
    raise ValueError(f"no isolating interval for {x}")


def _beyond(tau: sympy.Symbol, x: Any, strict: bool, side: int) -> Any:
    """``tau > x`` (side 1) or ``tau < x`` (side -1), ``>=``/``<=`` unless strict, exactly, for x
    rational or algebraic: the minimal polynomial m has a simple root at x, so its sign between x and
    the isolating interval's far end is the sign there."""
    if x.is_Rational:
        if side > 0:
            return tau > x if strict else tau >= x
        return tau < x if strict else tau <= x
    m, a, b = _isolate(x, tau)
    far = b if side > 0 else a
    sgn = sympy.sign(m.xreplace({tau: far}))
    if sgn == 0:
        raise ValueError(f"the isolating interval of {x} ends at a root")
    between = sympy.And(tau > a, tau < b, sgn * m > 0)
    outside = tau >= b if side > 0 else tau <= a
    out = sympy.Or(outside, between)
    return out if strict else sympy.Or(out, sympy.And(sympy.Eq(m, 0), tau >= a, tau <= b))


def _real_roots(e: Any, tau: sympy.Symbol) -> list[Any]:
    """The distinct real roots of the numerator of ``e`` (a rational function of tau), exactly."""
    num = sympy.fraction(sympy.together(e))[0]
    num = sympy.expand(num)
    if not num.has(tau):
        return []
    try:
        poly = sympy.Poly(num, tau, domain="QQ")
    except (sympy.PolynomialError, sympy.CoercionFailed):
        return []
    if poly.degree() > 12:
        return []
    return sorted(set(sympy.real_roots(poly)), key=lambda r: sympy.N(r, 30))


def holds_on(e: Any, op: str, span: Span, tau: sympy.Symbol) -> bool:
    """``e(tau) op 0`` for every tau of ``span``, decided exactly: ``==`` as an identity; ``>``/``>=``
    from the real roots of the numerator and denominator (sympy's exact univariate solver)."""
    try:
        return _holds_on(e, op, span, tau)
    except (NotImplementedError, TypeError, ValueError, ArithmeticError, sympy.PolynomialError):
        return False  # a sign sympy cannot decide (e.g. of a Max it does not solve): not shown


def _holds_on(e: Any, op: str, span: Span, tau: sympy.Symbol) -> bool:
    from sympy.solvers.inequalities import solve_univariate_inequality

    e = sympy.together(sympy.sympify(e))
    if e.free_symbols - {tau}:
        return False
    if op == "==":
        if span.point:
            return sympy.simplify(e.xreplace({tau: span.lo})) == 0
        return sympy.expand(sympy.fraction(e)[0]) == 0
    num, den = sympy.fraction(e)
    g = sympy.expand(num * den)  # the sign of e where den != 0
    if den.has(tau) and any(span.as_set().contains(r) is sympy.true for r in _real_roots(den, tau)):
        return False
    if span.point:
        v = sympy.simplify(g.xreplace({tau: span.lo}))
        try:
            return bool(v > 0) if op == ">" else bool(v >= 0)
        except TypeError:  # a sign sympy cannot decide: not shown
            return False
    if not g.has(tau):
        return bool(g > 0) if op == ">" else bool(g >= 0)
    bad = solve_univariate_inequality(g <= 0 if op == ">" else g < 0, tau, relational=False, domain=span.as_set())
    return bad.is_empty is True


# --------------------------------------------------------------------------- critical values


def critical_values(par: Parametric) -> list[Any]:
    """The real roots in the range where the structure may change (see the module docstring)."""
    tau = par.rng.symbol
    u = variables("u", par.d)
    p = variables("p", par.n)
    polys: list[Any] = []

    def group(exprs: list[Any]) -> None:
        exprs = [sympy.expand(x) for x in exprs]
        polys.extend(x for x in exprs if x.has(tau))
        for i, x in enumerate(exprs):
            for y in exprs[i + 1:]:
                if (x - y).has(tau):
                    polys.append(x - y)

    for row in par.loss:
        group(list(row))
    for e in par.per_label:
        for sub in sympy.preorder_traversal(e):
            if isinstance(sub, sympy.Max | sympy.Min):
                consts = []
                for arg in sub.args:
                    lf = _affine(arg, u)
                    if lf is not None:
                        group(list(lf[0]))
                        consts.append(lf[1])
                group(consts)
        for term in sympy.Add.make_args(sympy.expand(e)):
            coeff, _ = term.as_independent(*u, as_Add=False)
            group([coeff])
    if par.cells is not None:
        for cell in par.cells:
            for a, b in cell:
                group([*a, b])
    for rel in par.noise:
        for sub in sympy.preorder_traversal(rel):
            if isinstance(sub, sympy.core.relational.Relational):
                try:
                    poly = sympy.Poly(sympy.expand(sub.lhs - sub.rhs), *p)
                    group(list(poly.coeffs()))
                except sympy.PolynomialError:
                    pass
    if par.d == 1:
        polys += _coincidences(par, tau, u[0])
    roots: list[Any] = []
    for e in polys:
        for r in _real_roots(e, tau):
            if par.rng.contains(r) and not any(sympy.simplify(r - s) == 0 for s in roots):
                roots.append(r)
    roots.sort(key=lambda r: sympy.N(r, 30))
    return roots[:MAX_CRITICAL]


def _coincidences(par: Parametric, tau: sympy.Symbol, u1: sympy.Symbol) -> list[Any]:
    """One score (d = 1): the values of tau where a boundary of the link's cells meets a kink of the
    surrogate (two pieces of one Max equal), or, for two labels and quadratic psi_y, the minimiser at
    the distribution where two predictions tie; for two labels and a piecewise-linear surrogate, where
    the loss's tie p1 meets a p1 at which the minimiser jumps."""
    bounds = []
    if par.cells is not None:
        for cell in par.cells:
            for a, b in cell:
                if a[0] != 0:
                    bounds.append(b / a[0])
    kinks = _kinks(par, u1)
    ties = _loss_ties(par) if par.n == 2 else []
    out = [sympy.together(t - sw) for t in ties for sw in _switches(par, tau, u1) if (t - sw).has(tau)]
    if par.n == 2 and all(e.is_polynomial(u1) and sympy.degree(e, u1) == 2 for e in par.per_label):
        v = [sympy.solve(sympy.diff(e, u1), u1) for e in par.per_label]
        if all(len(x) == 1 for x in v):
            kinks += [p1 * v[0][0] + (1 - p1) * v[1][0] for p1 in ties]
    return out + [sympy.together(b - k) for b in bounds for k in kinks if (b - k).has(tau)]


def _kinks(par: Parametric, u1: sympy.Symbol) -> list[Any]:
    """One score: every u1 at which two pieces of a Max, Min or Abs in some psi_y are equal (pieces
    whose difference is affine in u1 and not constant), in the order they occur."""
    out = []
    for e in par.per_label:
        for sub in sympy.preorder_traversal(e):
            if isinstance(sub, sympy.Max | sympy.Min | sympy.Abs):
                args = sub.args if not isinstance(sub, sympy.Abs) else (sub.args[0], -sub.args[0])
                for i, x in enumerate(args):
                    for y in args[i + 1:]:
                        lf = _affine(x - y, [u1])
                        if lf is not None and lf[0][0] != 0:
                            out.append(-lf[1] / lf[0][0])
    return out


def _loss_ties(par: Parametric) -> list[Any]:
    """Two labels: the p1 (a function of tau) at which two loss columns tie."""
    out = []
    k = len(par.loss[0])
    for t in range(k):
        for s in range(t + 1, k):
            a0 = par.loss[0][t] - par.loss[0][s]
            a1 = par.loss[1][t] - par.loss[1][s]
            if sympy.simplify(a0 - a1) != 0:
                out.append(sympy.together(-a1 / (a0 - a1)))  # a0 p1 + a1 (1 - p1) = 0
    return out


def _switches(par: Parametric, tau: sympy.Symbol, u1: sympy.Symbol) -> list[Any]:
    """Two labels, one score, a piecewise-linear surrogate free of tau: the p1 at which the risk is
    flat on a segment between two kinks (where its minimiser jumps), exactly."""
    if any(e.has(tau) for e in par.per_label):
        return []
    kinks = {k for k in _kinks(par, u1) if k.is_Rational}
    if not kinks:
        return []
    pts = sorted(kinks)
    pts = [pts[0] - 1] + pts + [pts[-1] + 1]
    out = []
    for a, b in zip(pts, pts[1:], strict=False):
        slopes = []
        for e in par.per_label:
            va, vb = e.xreplace({u1: a}), e.xreplace({u1: b})
            if not (va.is_Rational and vb.is_Rational):
                return []
            slopes.append((vb - va) / (b - a))
        s1, s2 = slopes
        if s1 != s2:
            p1 = -s2 / (s1 - s2)  # p1 s1 + (1 - p1) s2 = 0
            if 0 < p1 < 1:
                out.append(p1)
    return out


def spans(par: Parametric, roots: list[Any]) -> list[Span]:
    """The range cut at ``roots``: points (the roots, the closed ends) and open intervals between."""
    rng = par.rng
    lo, hi = _rat(rng.lo), _rat(rng.hi)
    pts = [r for r in roots if not (r == lo or r == hi)]
    out: list[Span] = []
    if lo == hi:
        return [Span(lo, lo, False, False)]
    if not rng.lo_open:
        out.append(Span(lo, lo, False, False))
    bounds = [lo] + pts + [hi]
    for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False)):
        out.append(Span(a, b, True, True))
        if i < len(pts):
            out.append(Span(b, b, False, False))
    if not rng.hi_open:
        out.append(Span(hi, hi, False, False))
    return out


def _rational_in(span: Span, frac: Fraction = Fraction(1, 2)) -> Fraction:
    """A simple rational strictly inside an open span (near the fraction ``frac`` of its width)."""
    lo, hi = sympy.N(span.lo, 40), sympy.N(span.hi, 40)
    target = Fraction(str(lo)) + frac * (Fraction(str(hi)) - Fraction(str(lo)))
    for den in (1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 100, 1000, 10**6, 10**12, 10**24, 10**36):
        x = Fraction(round(target * den), den)
        if span.as_set().contains(_rat(x)) is sympy.true:
            return x
    raise ValueError(f"no simple rational found inside {span.text('tau')}")


# --------------------------------------------------------------------------- the parametric forms


@dataclass
class PForm:
    """Method (A) or (B)'s form with coefficients in the parameter.  (B): ``terms[T]`` the pieces
    ``(a(tau), b(tau))`` of a Max, ``weight[T][y]``, ``affine[y]``.  (A): the minimisers ``v[y]``."""

    kind: str
    terms: list[list[tuple[tuple[Any, ...], Any]]] = field(default_factory=list)
    weight: list[list[Any]] = field(default_factory=list)
    affine: list[tuple[tuple[Any, ...], Any]] = field(default_factory=list)
    v: list[list[Any]] = field(default_factory=list)


def _polyhedral(par: Parametric, span: Span, budget: Budget) -> PForm | str:
    tau = par.rng.symbol
    u = variables("u", par.d)
    terms: dict[tuple[Any, ...], list[Any]] = {}
    pieces_of: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], Any]]] = {}
    affine = []
    for y, e in enumerate(par.per_label):
        a_tot: list[Any] = [sympy.Integer(0)] * par.d
        b_tot: Any = sympy.Integer(0)
        for term in sympy.Add.make_args(sympy.expand(e)):
            lf = _affine(term, u)
            if lf is not None:
                a_tot = [x + z for x, z in zip(a_tot, lf[0], strict=True)]
                b_tot += lf[1]
                continue
            coeff, rest = term.as_independent(*u, as_Add=False)
            if coeff.has(*u) or coeff.has(sympy.Max, sympy.Min, sympy.Abs):
                return f"psi_{y + 1}: the term {sympy.sstr(term)} is not a multiple of one Max"
            if isinstance(rest, sympy.Max):
                args, c = rest.args, coeff
            elif isinstance(rest, sympy.Min):
                args, c = tuple(-x for x in rest.args), -coeff
            elif isinstance(rest, sympy.Abs):
                args, c = (rest.args[0], -rest.args[0]), coeff
            else:
                return f"psi_{y + 1} has the term {sympy.sstr(term)}, not a multiple of a Max of affine pieces"
            pieces = []
            for arg in args:
                lf = _affine(arg, u)
                if lf is None:
                    return f"psi_{y + 1}: {sympy.sstr(rest)} has a piece that is not affine in u"
                pieces.append(lf)
            key = tuple(sorted(sympy.srepr(pc) for pc in pieces))
            pieces_of[key] = pieces
            terms.setdefault(key, [sympy.Integer(0)] * par.n)[y] += c
        affine.append((tuple(sympy.expand(x) for x in a_tot), sympy.expand(b_tot)))
    keys = sorted(terms)
    form = PForm("B", [pieces_of[k] for k in keys], [[sympy.expand(w) for w in terms[k]] for k in keys], affine)
    for T, row in enumerate(form.weight):
        for y, w in enumerate(row):
            if not holds_on(w, ">=", span, tau):
                return f"the weight {sympy.sstr(w)} of max-term {T + 1} in psi_{y + 1} is not >= 0 on {span.text(tau)}"
    # the form equals each expression: an identity, or z3 finds no (u, tau) of the piece where they differ
    for y, e in enumerate(par.per_label):
        rebuilt = _rebuild(form, y, u)
        if not _same(e, rebuilt, span, tau, u, budget):
            return f"psi_{y + 1}: the polyhedral form is not shown equal to the expression (internal)"
    return form


def _rebuild(form: PForm, y: int, u: list[sympy.Symbol]) -> Any:
    a, b = form.affine[y]
    out = sum((c * x for c, x in zip(a, u, strict=True)), b)
    for T, pieces in enumerate(form.terms):
        w = form.weight[T][y]
        if w != 0:
            out += w * sympy.Max(*[sum((c * x for c, x in zip(pa, u, strict=True)), pb) for pa, pb in pieces],
                                 evaluate=False)
    return out


def _same(e: Any, rebuilt: Any, span: Span, tau: sympy.Symbol, u: list[sympy.Symbol], budget: Budget) -> bool:
    orig = sympy.expand(e).replace(sympy.Abs, lambda x: sympy.Max(x, -x, evaluate=False))
    orig = orig.replace(sympy.Min, lambda *xs: -sympy.Max(*[-x for x in xs], evaluate=False))
    if sympy.expand(orig - rebuilt) == 0:
        return True
    from symcal.backends.translate import Translator

    tr = Translator()
    res = _solve([tr(span.relation(tau)), tr(e) != tr(rebuilt)], budget, "does psi_y differ from its form?")
    return res.answer == "unsat"


def _quadratic(par: Parametric, sample: Any, span: Span) -> PForm | str:
    """(A) with the parameter: one quadratic part free of the parameter (positive definite on the
    domain, checked by the engine at a sample value), linear parts in the parameter; the minimisers
    ``v_y(tau)`` solved symbolically and shown stationary identically in tau."""
    from symcal.calibration.engine import Quadratic, quadratic_form

    tau = par.rng.symbol
    u = variables("u", par.d)
    q = quadratic_form(sample)
    if not isinstance(q, Quadratic):
        return q
    H = sympy.Matrix([[_rat(x) for x in row] for row in q.H])
    for y, e in enumerate(par.per_label):
        if not e.is_polynomial(*u):
            return f"psi_{y + 1} is not a polynomial in u"
        poly = sympy.Poly(sympy.expand(e), *u)
        if poly.total_degree() > 2:
            return f"psi_{y + 1} has degree > 2"
        quad = sum((c * sympy.prod(x ** k for x, k in zip(u, mon, strict=True))
                    for mon, c in poly.terms() if sum(mon) == 2), sympy.Integer(0))
        uvec = sympy.Matrix(u)
        if sympy.expand(quad - (uvec.T * H * uvec)[0]) != 0:
            return f"psi_{y + 1}: the quadratic part depends on the parameter or differs between labels"
    Z = sympy.Matrix([[_rat(x) for x in row] for row in q.Z]) if q.Z and q.Z[0] else None
    u0 = sympy.Matrix([_rat(x) for x in q.u0])
    vs = []
    for y, e in enumerate(par.per_label):
        if Z is None:
            vs.append(list(u0))
            continue
        w = sympy.Matrix(sympy.symbols(f"w1:{Z.shape[1] + 1}"))
        pt = u0 + Z * w
        grad = sympy.Matrix([sympy.diff(e, x) for x in u]).xreplace(dict(zip(u, pt, strict=True)))
        sol = sympy.solve(list(Z.T * grad), list(w), dict=True)
        if len(sol) != 1:
            return f"psi_{y + 1}: the minimiser is not unique in the parameter"
        v = [sympy.expand(x.xreplace(sol[0])) for x in pt]
        g = sympy.Matrix([sympy.diff(e, x) for x in u]).xreplace(dict(zip(u, v, strict=True)))
        if any(sympy.expand(x) != 0 for x in Z.T * g):
            return f"psi_{y + 1}: the minimiser is not stationary identically in {tau} (internal)"
        vs.append(v)
    return PForm("A", v=vs)


# --------------------------------------------------------------------------- the parametric queries


def _solve(cons: list[Any], budget: Budget, comment: str) -> Any:
    """z3 on ``cons``, the model read on the query's own constants: a query that divides by a term
    (``w * x / w``) has a model that also interprets z3's division by zero (``/0``, a function of two
    arguments); listing every declaration of the model called it with none (an internal error)."""
    import z3

    from symcal.backends import z3_backend

    variables = list(z3.z3util.get_vars(z3.And(*cons))) if cons else []
    return z3_backend.solve(cons, budget, variables, comment)


def _ask(q: _Q, cons: list[Any], budget: Budget, comment: str, label: str) -> Any:
    """:func:`_solve`, its unsat answer kept (with its SMT-LIB text) for the second opinion."""
    from symcal.backends import z3_backend
    from symcal.verdicts import SmtResult

    res = _solve(cons, budget, comment)
    if res.answer == "unsat":
        q.unsat.append((label, SmtResult("z3", z3_backend.version(), "unsat", res.smtlib, note="unsat")))
    return res


def _confirm(parts: list[tuple[str, Any]], seconds: float) -> tuple[bool, str]:
    """cvc5's second opinion on unsat answers (:func:`symcal.crosscheck.second_opinion`): False when
    it disagrees with one; an undecided cvc5 leaves them standing, unconfirmed (as ``symcal check``)."""
    from symcal.backends.base import Outcome
    from symcal.crosscheck import second_opinion
    from symcal.verdicts import Composite, Status

    if not parts:
        return True, ""
    out = second_opinion(Outcome(Status.PROVED, "", "z3", Composite(tuple(parts))), seconds)
    summary = out.cross_check.summary() if out.cross_check is not None else ""
    return out.status is Status.PROVED, summary


class _Q:
    """The engine's per-pair queries with the parameter as a real variable (sympy built, z3 translated)."""

    def __init__(self, par: Parametric, sample: Any, form: PForm) -> None:
        from symcal.backends.translate import Translator

        self.par, self.form, self.tr = par, form, Translator()
        self.unsat: list[tuple[str, Any]] = []  # (label, SmtResult) of every unsat answer, for cvc5
        self.tau = par.rng.symbol
        self.p = variables("p", par.n)
        self.u = variables("u", par.d)
        self.eqs, self.les, _ = sample.surrogate.domain_constraints()
        self.cells = par.cells if par.cells is not None else [
            [(tuple(_rat(x) for x in a), _rat(b)) for a, b in cell] for cell in sample.link.cells]
        self.k = len(self.cells)
        self.mu = [[sympy.Symbol(f"mu_{T + 1}_{j + 1}") for j in range(len(pc))] for T, pc in enumerate(form.terms)]
        self.nu = [sympy.Symbol(f"nu{i + 1}") for i in range(len(self.eqs))]
        self.eta = [sympy.Symbol(f"eta{i + 1}") for i in range(len(self.les))]

    def lin(self, a: Any, xs: list[Any]) -> Any:
        return sum((_rat(c) if isinstance(c, Fraction) else c) * x for c, x in zip(a, xs, strict=True))

    def simplex(self) -> list[Any]:
        return [x >= 0 for x in self.p] + [sympy.Eq(sum(self.p), 1)] + list(self.par.noise)

    def domain(self, u: list[Any]) -> list[Any]:
        return [sympy.Eq(self.lin(a, u), _rat(b)) for a, b in self.eqs] + [self.lin(a, u) <= _rat(b)
                                                                          for a, b in self.les]

    def margin(self, tp: int, tpp: int) -> Any:
        return sum(py * (self.par.loss[y][tp] - self.par.loss[y][tpp]) for y, py in enumerate(self.p))

    def cell(self, t: int, u: list[Any]) -> list[Any]:
        return [self.lin(a, u) <= b for a, b in self.cells[t]]

    def point(self) -> list[Any]:
        """u: the minimiser (A) or a minimiser certified by the KKT conditions (B)."""
        if self.form.kind == "A":
            return []
        cons = self.domain(self.u)
        grad = [sympy.Integer(0)] * self.par.d
        for T, pieces in enumerate(self.form.terms):
            mus = self.mu[T]
            cons += [m >= 0 for m in mus]
            cons.append(sympy.Eq(sum(mus), sum(w * py for w, py in zip(self.form.weight[T], self.p, strict=True))))
            vals = [self.lin(pa, self.u) + pb for pa, pb in pieces]
            for j, m in enumerate(mus):
                others = [vals[j] >= vals[i] for i in range(len(pieces)) if i != j]
                cons.append(sympy.Or(sympy.Eq(m, 0), sympy.And(*others)) if others else sympy.true)
                for i in range(self.par.d):
                    grad[i] += m * pieces[j][0][i]
        for i in range(self.par.d):
            grad[i] += sum(py * self.form.affine[y][0][i] for y, py in enumerate(self.p))
            grad[i] += sum(x * _rat(a[i]) for (a, _), x in zip(self.eqs, self.nu, strict=True))
            grad[i] += sum(x * _rat(a[i]) for (a, _), x in zip(self.les, self.eta, strict=True))
        for x, (a, b) in zip(self.eta, self.les, strict=True):
            cons += [x >= 0, sympy.Or(sympy.Eq(x, 0), sympy.Eq(self.lin(a, self.u), _rat(b)))]
        cons += [sympy.Eq(g, 0) for g in grad]
        return cons

    def ustar(self) -> list[Any]:
        if self.form.kind == "A":
            return [sum(py * v[i] for py, v in zip(self.p, self.form.v, strict=True)) for i in range(self.par.d)]
        return list(self.u)

    def pair(self, tp: int, tpp: int, where: Any) -> list[Any]:
        cons = [where] + self.simplex() + self.point() + self.cell(tp, self.ustar()) + [self.margin(tp, tpp) > 0]
        return [self.tr(c) for c in cons if c is not sympy.true]

    def pairs(self) -> list[tuple[int, int]]:
        L = self.par.loss
        return [(tp, tpp) for tp in range(self.k) for tpp in range(self.k)
                if tp != tpp and any(sympy.expand(L[y][tp] - L[y][tpp]) != 0 for y in range(self.par.n))]


def _bounded_below(q: _Q, where: Any, budget: Budget) -> str:
    """(B): each psi_y bounded below on C for every parameter value of the piece (no recession
    direction of negative slope; one z3 query per label with the parameter free)."""
    dd = [sympy.Symbol(f"dd{i + 1}") for i in range(q.par.d)]
    for y in range(q.par.n):
        cons = [where] + [sympy.Eq(q.lin(a, dd), 0) for a, _ in q.eqs] + [q.lin(a, dd) <= 0 for a, _ in q.les]
        slope = q.lin(q.form.affine[y][0], dd)
        for T, pieces in enumerate(q.form.terms):
            w = q.form.weight[T][y]
            if w != 0:
                m = sympy.Symbol(f"m{T + 1}")
                cons += [m >= q.lin(pa, dd) for pa, _ in pieces]
                slope += w * m
        cons.append(slope < 0)
        res = _ask(q, [q.tr(c) for c in cons if c is not sympy.true], budget.share(floor=0.5),
                   f"psi_{y + 1} bounded below on C for every parameter value? unsat = yes",
                   f"psi_{y + 1} bounded below")
        if res.answer != "unsat":
            return f"psi_{y + 1} is not shown bounded below for every parameter value ({res.answer})"
    return ""


def _covers(q: _Q, where: Any, budget: Budget) -> str:
    """A user's regions cover C for every parameter value of the piece (one unsat query)."""
    if q.par.exclusive:
        return ""
    cons = [where] + q.domain(q.u) + [sympy.Or(*[q.lin(a, q.u) > b for a, b in cell]) for cell in q.cells]
    res = _ask(q, [q.tr(c) for c in cons], budget.share(floor=0.5), "is some u in no region?",
               "regions cover C")
    return "" if res.answer == "unsat" else f"the regions are not shown to cover C on the piece ({res.answer})"


# --------------------------------------------------------------------------- pieces


@dataclass(frozen=True)
class Piece:
    """A set of parameter values (``set``: a relation in the parameter) and its status, with the
    witness of a refutation (a point's counterexample, or a parametric one) and how it was decided."""

    set: str
    status: str  # "proved" | "refuted" | "unknown"
    witness: Any = None
    how: str = ""
    spans: tuple[Span, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"set": self.set, "status": self.status, "witness": self.witness, "how": self.how}


@dataclass(frozen=True)
class ParameterAnswer:
    """The answer for a problem with a parameter: ``status`` ``proved`` when every piece is proved
    (calibrated for every value of the range), ``refuted`` when some piece is refuted, else
    ``unknown``; ``pieces`` cover the range in order."""

    name: str
    parameter: str
    range: str
    status: str
    pieces: tuple[Piece, ...]
    critical: tuple[str, ...]
    seconds: float
    problem: dict[str, Any] = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        return all(pc.status != "unknown" for pc in self.pieces)

    def to_json(self) -> dict[str, Any]:
        return {"id": f"calibration:{self.name}" if self.name else "calibration", "status": self.status,
                "seconds": round(self.seconds, 4), "parameter": self.parameter, "range": self.range,
                "critical_values": list(self.critical), "problem": self.problem,
                "parameter_set": [pc.to_json() for pc in self.pieces]}

    def describe(self) -> str:
        lines = [f"{'calibration:' + self.name if self.name else 'calibration'}: {self.status}  "
                 f"({self.seconds:.2f} s)",
                 f"parameter {self.parameter} in {self.range}; critical values: "
                 f"{', '.join(self.critical) or 'none'}"]
        for pc in self.pieces:
            lines.append(f"  {pc.set}: {pc.status}" + (f"  ({pc.how})" if pc.how else ""))
            w = pc.witness
            for w in (pc.witness if isinstance(pc.witness, list) else [pc.witness])[:3]:
                if not isinstance(w, dict) or "p" not in w:
                    continue
                if w.get("parametric"):
                    lines.append(f"    fails for every {self.parameter} of the piece: p = ({', '.join(w['p'])}), "
                                 f"u = ({', '.join(w['u'])}), pred {w['pred']}, worse than {w['better']} by "
                                 f"{w['loss_gap']} > 0 (re-checked exactly on the piece)")
                else:
                    lines.append(f"    fails at {self.parameter} = {w['at']}: p = ({', '.join(w['p'])}), "
                                 f"u = ({', '.join(w['u'])}), pred {w['pred']}, conditional loss {w['loss_of_pred']} "
                                 f"> optimal {w['optimal_loss']} (re-checked exactly)")
        return "\n".join(lines)


def _point_value(span: Span) -> Fraction | None:
    return Fraction(int(span.lo.p), int(span.lo.q)) if span.lo.is_Rational else None


def _decide_point(par: Parametric, span: Span, budget: Budget) -> tuple[str, Any, str]:
    """A rational point: the engine on the problem with the value put in."""
    from symcal.calibration.engine import decide
    from symcal.errors import InvalidInput

    x = _point_value(span)
    assert x is not None
    s = par.instantiate(x, max(1.0, budget.left()))
    try:
        v = decide(s, max(0.5, min(budget.left(), 30.0)))
    except InvalidInput as e:
        if str(e).startswith("noise"):  # P is empty at this value: the engine refuses it, so do we
            return "unknown", None, "P is empty at this value (no distribution to decide on)"
        raise
    if par.cross and v.status.decisive:
        from symcal.calibration import _second_opinion

        v = _second_opinion(v, max(1.0, min(30.0, budget.left())))
    if v.status.value == "refuted" and v.witness is not None:
        vals = v.witness.values
        w = {"at": fraction_str(x), "p": [_show(vals[f"p{i}"]) for i in range(1, s.n + 1)],
             "u": [_show(vals[f"u{i}"]) for i in range(1, s.d + 1)], "pred": vals["pred"],
             "loss_of_pred": _show(vals["loss of pred"]), "optimal_loss": _show(vals["optimal loss"]),
             "rechecked": bool(v.witness.rechecked)}
        return "refuted", w, "the engine at this value: an exact counterexample, re-checked"
    if v.status.value == "proved":
        cc = f"; second opinion: {v.cross_check.summary()}" if v.cross_check is not None else ""
        return "proved", None, "the engine at this value" + cc
    return "unknown", None, f"the engine at this value: {(v.reason or 'unknown')[:160]}"


def _show(x: Any) -> str:
    if isinstance(x, Fraction):
        return fraction_str(x)
    return sympy.sstr(x) if isinstance(x, sympy.Basic) else str(x)


def _decide_span(par: Parametric, span: Span, budget: Budget) -> tuple[str, Any, str]:
    """An interval (or an irrational point): the parametric queries; a refutation by a parametric
    witness re-checked exactly; else unknown (also when a step cannot be carried out: a term z3 does
    not take, a value where the problem cannot be instantiated)."""
    from symcal.errors import SymcalError

    try:
        return _decide_span_inner(par, span, budget)
    except (SymcalError, ValueError, TypeError, ArithmeticError, NotImplementedError) as e:
        return "unknown", None, f"not decided on the piece: {type(e).__name__}: {str(e)[:160]}"


def _decide_span_inner(par: Parametric, span: Span, budget: Budget) -> tuple[str, Any, str]:
    tau = par.rng.symbol
    sample_x = _rational_in(span) if not span.point else None
    if sample_x is None:
        # an irrational point: the queries with tau the root; refutations need a rational value
        sample_x = _rational_in(Span(span.lo - sympy.Rational(1, 10**6), span.lo + sympy.Rational(1, 10**6),
                                     True, True))
    sample = par.instantiate(sample_x, max(1.0, budget.left()))
    form: PForm | str = _quadratic(par, sample, span)
    why_a = form if isinstance(form, str) else ""
    if isinstance(form, str):
        form = _polyhedral(par, span, budget)
    if isinstance(form, str):
        return "unknown", None, f"no parametric method: not (A) ({why_a}); not (B) ({form})"
    if sample.bad_domain:
        return "unknown", None, f"unsupported domain relations: {'; '.join(sample.bad_domain)}"
    q = _Q(par, sample, form)
    where = span.relation(tau)
    why = _covers(q, where, budget) or (_bounded_below(q, where, budget) if form.kind == "B" else "")
    if why:
        return "unknown", None, why
    sat_pairs = []
    unknowns = []
    for tp, tpp in q.pairs():
        if budget.expired():
            return "unknown", None, "gave up (time)"
        res = _ask(q, q.pair(tp, tpp, where), budget.share(20.0, floor=0.5),
                   f"calibration with the parameter in {span.text(tau)}: pair ({tp + 1}, {tpp + 1}); unsat = no "
                   f"failure for any value", f"pair ({tp + 1}, {tpp + 1})")
        if res.answer == "sat":
            sat_pairs.append((tp, tpp))
        elif res.answer == "unknown":
            unknowns.append(f"pair ({tp + 1}, {tpp + 1}): {res.reason}")
    if not sat_pairs and not unknowns and par.noise:
        # a proof is vacuous where P is empty: the engine refuses an empty P, so the piece must not have one
        import z3

        pz = [q.tr.var(x) for x in q.p]
        empty = z3.ForAll(pz, z3.Not(z3.And(*[q.tr(c) for c in q.simplex() if c is not sympy.true])))
        res = _solve([q.tr(where), empty], budget.share(10.0, floor=0.5),
                     "is P empty for some parameter value of the piece? unsat = never")
        if res.answer != "unsat":
            return "unknown", None, (f"P may be empty for some values of the piece (z3: {res.answer}); "
                                     f"the proof would be vacuous there")
    if not sat_pairs and not unknowns:
        how = (f"({form.kind}) {len(q.pairs())} pair queries unsat with {tau} free in the piece "
               "(z3 nonlinear real arithmetic)")
        if par.cross:
            ok, summary = _confirm(q.unsat, max(1.0, min(30.0, budget.left())))
            if not ok:
                return "unknown", None, f"SOLVERS DISAGREE: {summary}"
            how += f"; second opinion: {summary}"
        return "proved", None, how
    if span.point:
        return "unknown", None, "an irrational value: refutations are only checked at rational values"
    for tp, tpp in sat_pairs:
        w = _parametric_witness(q, span, tp, tpp, budget)
        if w is not None:
            return "refuted", w, "a parametric witness, affine in the parameter, re-checked exactly on the piece"
    reason = "; ".join(unknowns[:3]) if unknowns else "a failure exists in the piece, but no witness valid on all of it"
    return "unknown", None, reason


def _optimal(q: _Q, tp: int, tpp: int, x: Fraction, budget: Budget) -> dict[str, Fraction] | None:
    """A failure at tau = x with the largest loss gap, then the smallest |u|, u and multipliers (z3's
    lexicographic optimiser): a vertex that moves affinely with the parameter on a piece."""
    import z3

    from symcal.backends.z3_backend import cpu_watchdog

    tau = q.tau
    cons = q.pair(tp, tpp, sympy.Eq(tau, _rat(x)))
    sub = budget.share(10.0, floor=0.5)
    opt = z3.Optimize()
    opt.set("timeout", sub.wall_ms())
    opt.add(*cons)
    us = [q.tr.var(x_) for x_ in q.u] if q.form.kind == "B" else []
    opt.add(*[z3.And(v >= -_BOX, v <= _BOX) for v in us])
    opt.maximize(q.tr(q.margin(tp, tpp).xreplace({tau: _rat(x)})))
    if us:
        size = [z3.Real(f"abs_u{i + 1}") for i in range(len(us))]
        opt.add(*[z3.And(a >= v, a >= -v) for a, v in zip(size, us, strict=True)])
        opt.minimize(z3.Sum(size) if len(size) > 1 else size[0])
    for v in us:
        opt.minimize(v)
    for row in q.mu:
        for m in row:
            opt.minimize(q.tr.var(m))
    with cpu_watchdog(sub, opt.ctx):
        answer = opt.check()
    if answer != z3.sat:
        return None
    m = opt.model()
    out = {}
    names = q.p + (q.u if q.form.kind == "B" else []) + [m_ for row in q.mu for m_ in row] + q.nu + q.eta
    for s in names:
        val = m.eval(q.tr.var(s), model_completion=True)
        if not z3.is_rational_value(val):
            return None
        out[str(s)] = Fraction(val.as_fraction())
    return out


def _optimal_common(q: _Q, tp: int, tpp: int, x1: Fraction, x2: Fraction,
                    budget: Budget) -> tuple[dict[str, Fraction], dict[str, Fraction]] | None:
    """Failures at tau = x1 and at tau = x2 at the *same* distribution p (u and the multipliers may
    differ; z3's optimiser asks first for the least change of u, then for the smallest |u|): a
    candidate whose p does not move with the parameter.  The
    largest-gap failures of :func:`_optimal` sit on the edge of the failure region, which moves with
    the parameter (e.g. the tie p1 c = p2 of a weighted hinge), so that their affine interpolation
    leaves it; a p inside the failure region at both values often stays inside in between.  Only a
    candidate: :func:`_recheck` decides."""
    import z3

    from symcal.backends.z3_backend import cpu_watchdog

    tau = q.tau
    own = q.u + [m for row in q.mu for m in row] + q.nu + q.eta
    second = {s: sympy.Symbol(f"{s}__b") for s in own}

    def cons_at(x: Fraction, rename: dict[Any, Any]) -> list[Any]:
        where = sympy.Eq(tau, _rat(x))
        cons = [where] + q.simplex() + q.point() + q.cell(tp, q.ustar()) + [q.margin(tp, tpp) > 0]
        cons = [c.xreplace({tau: _rat(x)}).xreplace(rename) if c is not sympy.true else c for c in cons]
        return [q.tr(c) for c in cons if c is not sympy.true]

    sub = budget.share(10.0, floor=0.5)
    opt = z3.Optimize()
    opt.set("timeout", sub.wall_ms())
    opt.add(*cons_at(x1, {}), *cons_at(x2, second))
    us = ([q.tr.var(x_) for x_ in q.u] + [q.tr.var(second[x_]) for x_ in q.u]) if q.form.kind == "B" else []
    opt.add(*[z3.And(v >= -_BOX, v <= _BOX) for v in us])
    if us:
        d = len(q.u)
        moves = [z3.Real(f"move_common_u{i + 1}") for i in range(d)]  # |u(x1) - u(x2)|: a u that stays put first
        opt.add(*[z3.And(a >= us[i] - us[d + i], a >= us[d + i] - us[i]) for i, a in enumerate(moves)])
        opt.minimize(z3.Sum(moves) if d > 1 else moves[0])
        size = [z3.Real(f"abs_common_u{i + 1}") for i in range(len(us))]
        opt.add(*[z3.And(a >= v, a >= -v) for a, v in zip(size, us, strict=True)])
        opt.minimize(z3.Sum(size) if len(size) > 1 else size[0])
    with cpu_watchdog(sub, opt.ctx):
        answer = opt.check()
    if answer != z3.sat:
        return None
    m = opt.model()
    w1: dict[str, Fraction] = {}
    w2: dict[str, Fraction] = {}
    names = q.p + (q.u if q.form.kind == "B" else []) + [m_ for row in q.mu for m_ in row] + q.nu + q.eta
    for s_ in names:
        for w, sym in ((w1, s_), (w2, second.get(s_, s_))):
            val = m.eval(q.tr.var(sym), model_completion=True)
            if not z3.is_rational_value(val):
                return None
            w[str(s_)] = Fraction(val.as_fraction())
    return w1, w2


def _interior(q: _Q, tp: int, x: Fraction, budget: Budget) -> list[Fraction] | None:
    """A point strictly inside the cell of tp at tau = x: the largest slack (capped at 1), then the
    smallest coordinates, in a box."""
    import z3

    from symcal.backends.z3_backend import cpu_watchdog

    tau = q.tau
    s = z3.Real("slack")
    c = [z3.Real(f"c{i + 1}") for i in range(q.par.d)]
    limit = budget.share(5.0, floor=0.5)
    opt = z3.Optimize()
    opt.set("timeout", limit.wall_ms())
    sub = {tau: _rat(x)}
    for a, b in q.cells[tp]:
        a = [sympy.sympify(v).xreplace(sub) for v in a]
        b = sympy.sympify(b).xreplace(sub)
        if all(v == 0 for v in a) and b == 0:
            continue  # a row the link ties everywhere
        opt.add(q.tr(sum(v * sympy.Symbol(f"c{i + 1}") for i, v in enumerate(a))) + s <= q.tr(b))
    opt.add(*[q.tr(r) for r in q.domain([sympy.Symbol(f"c{i + 1}") for i in range(q.par.d)])])
    opt.add(s <= 1, *[z3.And(v >= -_BOX, v <= _BOX) for v in c])
    size = [z3.Real(f"abs_c{i + 1}") for i in range(q.par.d)]
    opt.add(*[z3.And(a >= v, a >= -v) for a, v in zip(size, c, strict=True)])
    opt.maximize(s)
    opt.minimize(z3.Sum(size) if len(size) > 1 else size[0])
    for v in c:
        opt.minimize(v)
    with cpu_watchdog(limit, opt.ctx):
        answer = opt.check()
    if answer != z3.sat:
        return None
    m = opt.model()
    if not m.eval(s, model_completion=True).as_fraction() > 0:
        return None
    return [Fraction(m.eval(v, model_completion=True).as_fraction()) for v in c]


def _parametric_witness(q: _Q, span: Span, tp: int, tpp: int, budget: Budget) -> dict[str, Any] | None:
    """Witnesses at two rational values of the piece, interpolated affinely, re-checked exactly for
    every value of the piece (:func:`_recheck`); None when it does not pass.  The witnesses are the
    largest-gap failures at the two values (:func:`_optimal`), else two failures at one common p
    (:func:`_optimal_common`)."""
    tau = q.tau
    tries: list[tuple[Fraction, Fraction]] = []
    for f1, f2 in ((Fraction(1, 3), Fraction(2, 3)), (Fraction(1, 4), Fraction(3, 4)),
                   (Fraction(1, 8), Fraction(7, 8))):
        try:
            tries.append((_rational_in(span, f1), _rational_in(span, f2)))
        except ValueError:  # no simple rational inside (a very thin piece)
            continue
    if span.lo.is_Rational and span.hi.is_Rational:
        # the piece's own (closed) ends: a failure found there at one p with one u is the likeliest
        # to hold all along the piece (the re-check decides, on the piece itself)
        tries.append((Fraction(int(span.lo.p), int(span.lo.q)), Fraction(int(span.hi.p), int(span.hi.q))))
    for x1, x2 in tries:
        if x1 == x2 or budget.expired():
            continue
        c1, c2 = _interior(q, tp, x1, budget), _interior(q, tp, x2, budget)
        if c1 is None or c2 is None:
            continue
        t = (tau - _rat(x1)) / _rat(x2 - x1)

        def line(a: Fraction, b: Fraction, t: Any = t) -> Any:
            return sympy.expand(_rat(a) + (_rat(b) - _rat(a)) * t)

        c = [line(a, b) for a, b in zip(c1, c2, strict=True)]
        # the largest-gap failures at x1 and x2, then failures sharing one p (computed only when needed)
        vals: dict[str, Any] | None = None
        for common in (False, True):
            if budget.expired():
                break
            w1, w2 = ((_optimal_common(q, tp, tpp, x1, x2, budget) or (None, None)) if common
                      else (_optimal(q, tp, tpp, x1, budget), _optimal(q, tp, tpp, x2, budget)))
            if w1 is None or w2 is None:
                continue
            line_vals = {k: line(w1[k], w2[k]) for k in w1}
            if not _recheck(q, span, tp, tpp, line_vals, c, budget):
                vals = line_vals  # re-checked exactly on the whole piece
                break
        if vals is not None:
            p = [vals[str(x)] for x in q.p]
            u = ([vals[str(x)] for x in q.u] if q.form.kind == "B"
                 else [sympy.expand(sum(py * v[i] for py, v in zip(p, q.form.v, strict=True))) for i in range(q.par.d)])
            margin = sympy.expand(q.margin(tp, tpp).xreplace(dict(zip(q.p, p, strict=True))))
            return {"p": [sympy.sstr(x) for x in p], "u": [sympy.sstr(x) for x in u],
                    "pred": _pred_name(q, tp), "better": _pred_name(q, tpp), "loss_gap": sympy.sstr(margin),
                    "interior_point": [sympy.sstr(x) for x in c], "parametric": True, "rechecked": True}
    return None


def _pred_name(q: _Q, t: int) -> str:
    names = q.par.link_spec.get("names") if isinstance(q.par.link_spec, dict) else None
    return str(names[t]) if names else f"{t + 1}"


def _recheck(q: _Q, span: Span, tp: int, tpp: int, vals: dict[str, Any], c: list[Any],
             budget: Budget | None = None) -> str:
    """The engine's exact re-check of a refutation, for every tau of the piece at once: '' when it
    passes, else what failed.  Identities in tau for the equalities, exact signs on the piece for the
    inequalities (:func:`holds_on`).  Its z3 queries share ``budget`` (none given: ``RECHECK_SECONDS``)."""
    budget = budget if budget is not None else Budget(RECHECK_SECONDS)
    sub = {sympy.Symbol(k): v for k, v in vals.items()}
    p = [vals[str(x)] for x in q.p]

    def ok(e: Any, op: str) -> bool:
        return holds_on(sympy.sympify(e).xreplace(sub), op, span, q.tau)

    why = _p_on_piece(q, p, sub, ok)
    if why:
        return why
    u = [sympy.sympify(x).xreplace(sub) for x in q.ustar()]
    if not _in_domain(q, u, ok):
        return "u is not in C"
    if q.form.kind == "B":
        why = _subgradient_certificate(q, vals, p, u, ok)
        if why:
            return why
    why = _in_worse_cell(q, tp, tpp, sub, u, c, ok)
    if why or q.par.exclusive:
        return why
    return _regions_apart(q, span, tp, budget)


def _in_domain(q: _Q, x: list[Any], ok: Callable[[Any, str], bool]) -> bool:
    """``x`` is in C (its equalities, then its inequalities) on the whole piece."""
    return (all(ok(q.lin(a, x) - _rat(b), "==") for a, b in q.eqs)
            and all(ok(_rat(b) - q.lin(a, x), ">=") for a, b in q.les))


def _p_on_piece(q: _Q, p: list[Any], sub: dict[Any, Any], ok: Callable[[Any, str], bool]) -> str:
    """'' when ``p`` is in the simplex and in P for every tau of the piece, else what failed."""
    if not ok(sum(p) - 1, "==") or not all(ok(x, ">=") for x in p):
        return "p is not in the simplex"
    for rel in q.par.noise:
        r = rel.xreplace(sub)
        if not isinstance(r, sympy.core.relational.Relational) or isinstance(r, sympy.Ne):
            return "a noise relation is not a plain comparison"
        diff = r.lhs - r.rhs
        op = {sympy.StrictGreaterThan: ">", sympy.GreaterThan: ">=", sympy.Equality: "=="}.get(type(r))
        if op is None:
            diff, op = -diff, {sympy.StrictLessThan: ">", sympy.LessThan: ">="}[type(r)]
        if not ok(diff, op):
            return "p is not in P on the whole piece"
    return ""


def _subgradient_certificate(q: _Q, vals: dict[str, Any], p: list[Any], u: list[Any],
                             ok: Callable[[Any, str], bool]) -> str:
    """(B): '' when the multipliers of the active pieces and of C's rows are >= 0, sum to the weights and make
    a subgradient of risk_p at u that is 0 (so u minimises risk_p over C), on the whole piece; else what failed."""
    par = q.par
    grad = [sympy.Integer(0)] * par.d
    for T, pieces in enumerate(q.form.terms):
        mus = [vals[str(m)] for m in q.mu[T]]
        if not all(ok(m, ">=") for m in mus):
            return "a multiplier is negative"
        w = sum(wt * py for wt, py in zip(q.form.weight[T], p, strict=True))
        if not ok(sum(mus) - w, "=="):
            return "multipliers do not sum to the weight"
        vs = [q.lin(pa, u) + pb for pa, pb in pieces]
        for j, m in enumerate(mus):
            if sympy.expand(m) != 0 and not all(ok(vs[j] - vs[i], ">=") for i in range(len(pieces)) if i != j):
                return "a piece with a multiplier is not active on the whole piece"
            for i in range(par.d):
                grad[i] += m * pieces[j][0][i]
    for i in range(par.d):
        grad[i] += sum(py * q.form.affine[y][0][i] for y, py in enumerate(p))
        grad[i] += sum(vals[str(x)] * _rat(a[i]) for (a, _), x in zip(q.eqs, q.nu, strict=True))
        grad[i] += sum(vals[str(x)] * _rat(a[i]) for (a, _), x in zip(q.les, q.eta, strict=True))
    for (a, b), x in zip(q.les, q.eta, strict=True):
        e = vals[str(x)]
        if not ok(e, ">=") or (sympy.expand(e) != 0 and not ok(q.lin(a, u) - _rat(b), "==")):
            return "a domain multiplier is negative or inactive"
    if not all(ok(g, "==") for g in grad):
        return "the subgradient certificate does not sum to 0"
    return ""


def _in_worse_cell(q: _Q, tp: int, tpp: int, sub: dict[Any, Any], u: list[Any], c: list[Any],
                ok: Callable[[Any, str], bool]) -> str:
    """'' when u is in the closed cell of ``tp``, ``tp`` is worse than ``tpp``, and ``c`` is a strict interior
    point of the cell in C, on the whole piece; else what failed."""
    for a, b in q.cells[tp]:
        if not ok(b - q.lin(a, u), ">="):
            return "u is not in the closed cell"
    if not ok(q.margin(tp, tpp).xreplace(sub), ">"):
        return "the prediction is not worse on the whole piece"
    # ties: a row 0.u <= 0 means another prediction the link never tells apart: not decided here
    for a, b in q.cells[tp]:
        if all(sympy.expand(x) == 0 for x in a) and sympy.expand(b) == 0:
            return "the link ties this prediction with another everywhere"
    for a, b in q.cells[tp]:
        if not ok(b - q.lin(a, c), ">"):
            return "the interior point is not strictly inside the cell"
    if not _in_domain(q, c, ok):
        return "the interior point is not in C"
    return ""


def _regions_apart(q: _Q, span: Span, tp: int, budget: Budget) -> str:
    """'' when no other region meets the strict interior of region ``tp``, for any value of the piece
    (one z3 query each), else what failed."""
    tau = q.tau
    for other in range(q.k):
        if other == tp:
            continue
        cons = [span.relation(tau)] + q.domain(q.u) + [q.lin(a, q.u) < b for a, b in q.cells[tp]
                                                       if not (all(x == 0 for x in a) and b == 0)]
        cons += q.cell(other, q.u)
        res = _solve([q.tr(x) for x in cons], budget.share(RECHECK_SECONDS, floor=0.5),
                     "does another region meet the interior?")
        if res.answer != "unsat":
            return "another region meets the interior of the cell"
    return ""


# --------------------------------------------------------------------------- the decision


def decide_parameters(kw: dict[str, Any], timeout: float = 60.0, cross_check: bool | None = None
                      ) -> ParameterAnswer:
    """Decide a calibration file with one parameter (see the module docstring): the pieces of the
    range with their status, in order, adjacent pieces of the same decisive status merged.
    ``cross_check``: cvc5 re-decides the SMT answers behind each decided piece (None: when installed);
    a disagreement makes the piece unknown."""
    from symcal.calibration import _cross

    t0 = time.monotonic()
    budget = Budget(0.85 * timeout)  # the rest: to hand back the pieces decided before the child's limit
    cross = _cross(cross_check)
    par = parametric_problem(kw, timeout)
    par.cross = cross
    tau = par.rng.symbol
    roots = critical_values(par)
    raw: list[tuple[Span, str, Any, str]] = []
    for sp in spans(par, roots):
        raw += _decide_rec(par, sp, budget, BISECT)
    pieces = _merge(raw, tau)
    statuses = {pc.status for pc in pieces}
    overall = "proved" if statuses == {"proved"} else "refuted" if "refuted" in statuses else "unknown"
    sample = par.instantiate(par.rng.lo if not par.rng.lo_open else _rational_in(spans(par, [])[0]), timeout)
    noise = [sympy.sstr(r) for r in par.noise]
    problem = {"labels": sample.n, "predictions": sample.k, "dim": sample.d, "link": sample.link.kind,
               "prediction_names": [sample.pname(t) for t in range(sample.k)], "domain": sample.c_text(),
               "P": f"P = {{p in Delta_{sample.n} : {', '.join(noise)}}}" if noise
               else f"P = the whole simplex Delta_{sample.n}"}
    return ParameterAnswer(kw.get("name", ""), par.rng.name, par.rng.text(), overall, tuple(pieces),
                           tuple(sympy.sstr(r) for r in roots), time.monotonic() - t0, problem)


BISECT = 2  # an undecided interval is cut at a simple rational inside, this many times deep


def _decide_rec(par: Parametric, sp: Span, budget: Budget, depth: int) -> list[tuple[Span, str, Any, str]]:
    """A span decided; an undecided interval cut at a simple rational inside (decided by the engine as
    a point of its own) and both halves decided again, ``depth`` times deep."""
    if budget.expired():
        return [(sp, "unknown", None, "gave up (time)")]
    if sp.point and sp.lo.is_Rational:
        return [(sp, *_decide_point(par, sp, budget))]
    status, w, how = _decide_span(par, sp, budget)
    if status != "unknown" or sp.point or depth <= 0:
        return [(sp, status, w, how)]
    try:
        mid = _rat(_rational_in(sp))
    except ValueError:  # a piece narrower than 1e-36: left undecided
        return [(sp, status, w, how)]
    return (_decide_rec(par, Span(sp.lo, mid, sp.lo_open, True), budget, depth - 1)
            + [(Span(mid, mid, False, False), *_decide_point(par, Span(mid, mid, False, False), budget))]
            + _decide_rec(par, Span(mid, sp.hi, True, sp.hi_open), budget, depth - 1))


def _merge(raw: list[tuple[Span, str, Any, str]], tau: sympy.Symbol) -> list[Piece]:
    """Adjacent spans with the same decisive status become one piece (its set the union)."""
    groups: list[list[tuple[Span, str, Any, str]]] = []
    for item in raw:
        if groups and groups[-1][-1][1] == item[1]:
            groups[-1].append(item)
        else:
            groups.append([item])
    out = []
    for g in groups:
        first, last = g[0][0], g[-1][0]
        span = Span(first.lo, last.hi, first.lo_open, last.hi_open)
        ws = [w for _, _, w, _ in g if w is not None]
        hows = []
        for _, _, _, h in g:
            if h and h not in hows:
                hows.append(h)
        out.append(Piece(span.text(tau.name), g[0][1], (ws[0] if len(ws) == 1 else ws) if ws else None,
                         "; ".join(hows), tuple(sp for sp, *_ in g)))
    return out
