"""The largest subset of P on which a surrogate is calibrated, exactly.

For the surrogates :mod:`symcal.calibration` decides -- (A) quadratic with an affine minimiser,
(B) polyhedral -- the set of distributions at which calibration fails is::

    Bad = { p in P : some minimiser u of risk_p lies in the closed cell of a prediction t
                     that is suboptimal at p }

(the engine's per-pair query with ``p`` left free).  Its description is linear in ``(p, u,
multipliers)`` once the complementarity disjunctions are kept as disjunctions, so eliminating
every variable but ``p`` (z3's ``qe`` tactic, Loos-Weispfenning for linear real arithmetic) gives a
quantifier-free formula ``Q(p)``: a finite union of polytopes (the "pieces").  For a refuted
surrogate, ``P \\ Q`` is then the largest noise subset on which it is calibrated -- the union of
the surrogate's level sets that lie inside a single target cell (Finocchiaro, Frongillo & Waggoner,
JMLR 2024), found without enumerating them by hand.

Nothing of ``qe`` is taken on trust; the answer is ``proved`` only when both inclusions are:

1. calibration over ``P \\ Q`` -- the engine's own decision (one z3 query per pair, unsat, SMT-LIB
   kept for cvc5) with ``P \\ Q`` as the noise set;
2. every point of ``Q`` fails -- one query "some p in Q has no failing minimiser" (quantified over
   the minimiser and its multipliers), unsat; and each piece carries an exact counterexample
   distribution inside it, re-checked in Fractions without the solver (the engine's refutation).

Otherwise the answer is ``unknown`` with the reason (the pieces found so far are still shown).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget
from symcal.calibration.engine import (
    Polyhedral,
    Quadratic,
    Setup,
    _pair_constraints_polyhedral,
    _pair_constraints_quadratic,
    _poly_vars,
    _simplex_and_noise,
    _smt,
    _solve,
    _zvars,
    decide,
    polyhedral_form,
    quadratic_form,
)
from symcal.exact import fraction_str
from symcal.verdicts import SmtResult, Status, Verdict

__all__ = ["Piece", "CalibratedRegion", "region"]

PIECE_SECONDS = 5.0  # CPU seconds for each piece's satisfiability check (a share of the region's budget)
MAX_PIECES = 200  # pieces of Q before dedupe; beyond, the description is not useful: unknown


@dataclass(frozen=True)
class Piece:
    """One polytope of the failure set: a conjunction of linear relations in ``p1..pn``, the
    vertices of its closure, and the engine's refutation inside it (``verdict``)."""

    relations: tuple[str, ...]
    vertices: tuple[tuple[Fraction, ...], ...]
    verdict: Verdict | None = None

    def to_json(self) -> dict[str, Any]:
        w = self.verdict.witness if self.verdict is not None else None
        return {"relations": list(self.relations),
                "vertices": [[fraction_str(x) for x in v] for v in self.vertices],
                "status": self.verdict.status.value if self.verdict is not None else None,
                "counterexample": ({k: (fraction_str(v) if isinstance(v, Fraction) else v)
                                    for k, v in w.values.items()} if w is not None else None)}


@dataclass(frozen=True)
class CalibratedRegion:
    """The answer of :func:`region`.  ``status`` is ``proved`` when ``P \\ Q`` is shown to be exactly
    the set where the surrogate is calibrated (both inclusions), else ``unknown`` with ``reason``."""

    name: str
    status: Status
    P: str
    pieces: tuple[Piece, ...]
    good: Verdict | None
    maximal: SmtResult | None
    seconds: float
    reason: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def calibrated_everywhere(self) -> bool:
        return self.status is Status.PROVED and not self.pieces

    def to_json(self) -> dict[str, Any]:
        return {"id": f"calibration-region:{self.name}" if self.name else "calibration-region",
                "status": self.status.value, "P": self.P, "seconds": round(self.seconds, 4),
                "reason": self.reason or None,
                "fails_on": [pc.to_json() for pc in self.pieces],
                "calibrated_on": ("P minus the union of fails_on" if self.pieces else "all of P"),
                "calibrated_on_proof": _verdict_json(self.good),
                "fails_everywhere_on_pieces": self.maximal.to_json() if self.maximal is not None else None,
                "notes": list(self.notes)}

    def describe(self) -> str:
        lines = [f"{'calibration-region:' + self.name if self.name else 'calibration-region'}: "
                 f"{self.status.value}  ({self.seconds:.2f} s)", self.P]
        if self.reason:
            lines.append(f"reason: {self.reason}")
        if self.status is Status.PROVED and not self.pieces:
            lines.append("calibrated on all of P (no distribution in P fails)")
        elif self.pieces:
            lines.append(f"calibrated exactly on P minus these {len(self.pieces)} pieces, where it fails:")
            for i, pc in enumerate(self.pieces, 1):
                lines.append(f"  piece {i}: {', '.join(pc.relations)}")
                if pc.vertices:
                    lines.append("    vertices of its closure: "
                                 + "; ".join("(" + ", ".join(map(fraction_str, v)) + ")" for v in pc.vertices))
                w = pc.verdict.witness if pc.verdict is not None else None
                if w is not None:
                    p = ", ".join(fraction_str(w.values[k]) for k in sorted(w.values)
                                  if k.startswith("p") and k[1:].isdigit())
                    lines.append(f"    fails at p = ({p}): pred {w.values['pred']}, conditional loss "
                                 f"{fraction_str(w.values['loss of pred'])} > optimal "
                                 f"{fraction_str(w.values['optimal loss'])} (re-checked exactly)")
        if self.good is not None:
            lines.append(f"calibration on {'the rest of P' if self.pieces else 'P'}: {self.good.status.value}"
                         + (f" ({self.good.evidence.summary()})" if self.good.evidence is not None else "")
                         + (f" ({self.good.reason})" if self.good.reason else ""))
        if self.maximal is not None:
            lines.append(f"every point of the pieces fails: {self.maximal.summary()}")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def _repr_html_(self) -> str:  # pragma: no cover - notebooks
        import html

        return f"<pre>{html.escape(self.describe())}</pre>"


def _verdict_json(v: Verdict | None) -> dict[str, Any] | None:
    if v is None:
        return None
    return {"status": v.status.value, "scope": v.scope, "reason": v.reason or None, "seconds": round(v.seconds, 4),
            "evidence": v.evidence.to_json() if v.evidence is not None else None}


# --------------------------------------------------------------------------- z3 <-> sympy


def _to_sympy(e: Any, names: dict[str, sympy.Symbol]) -> Any:
    """A quantifier-free z3 formula of linear real arithmetic as a sympy relation / boolean."""
    import z3

    if z3.is_true(e):
        return sympy.true
    if z3.is_false(e):
        return sympy.false
    if z3.is_and(e):
        return sympy.And(*[_to_sympy(a, names) for a in e.children()])
    if z3.is_or(e):
        return sympy.Or(*[_to_sympy(a, names) for a in e.children()])
    if z3.is_not(e):
        return sympy.Not(_to_sympy(e.arg(0), names))
    rels = {z3.Z3_OP_LE: sympy.Le, z3.Z3_OP_LT: sympy.Lt, z3.Z3_OP_GE: sympy.Ge, z3.Z3_OP_GT: sympy.Gt,
            z3.Z3_OP_EQ: sympy.Eq}
    if z3.is_app(e) and e.decl().kind() in rels and z3.is_arith(e.arg(0)):
        lhs, rhs = (_term(a, names) for a in e.children())
        return _normal(rels[e.decl().kind()](lhs - rhs, 0))
    raise ValueError(f"not a linear relation in p: {e}")


def _term(e: Any, names: dict[str, sympy.Symbol]) -> sympy.Expr:
    import z3

    if z3.is_rational_value(e) or z3.is_int_value(e):
        f = Fraction(e.as_fraction()) if z3.is_rational_value(e) else Fraction(e.as_long())
        return sympy.Rational(f.numerator, f.denominator)
    if z3.is_const(e) and e.decl().name() in names:
        return names[e.decl().name()]
    if z3.is_add(e):
        return sympy.Add(*[_term(a, names) for a in e.children()])
    if z3.is_mul(e):
        return sympy.Mul(*[_term(a, names) for a in e.children()])
    if z3.is_sub(e):
        a, *rest = (_term(x, names) for x in e.children())
        return a - sympy.Add(*rest)
    if z3.is_app_of(e, z3.Z3_OP_UMINUS):
        return -_term(e.arg(0), names)
    if z3.is_app_of(e, z3.Z3_OP_TO_REAL):
        return _term(e.arg(0), names)
    raise ValueError(f"not a linear term in p: {e}")


def _normal(rel: Any) -> Any:
    """``a.p + b op 0`` with integer coefficients, leading coefficient positive where possible."""
    if rel in (sympy.true, sympy.false):
        return rel
    expr = sympy.expand(rel.lhs)
    den = sympy.ilcm(1, 1, *[sympy.fraction(c)[1] for c in expr.as_coefficients_dict().values()])
    expr = sympy.expand(expr * den)
    return type(rel)(expr, 0)


# --------------------------------------------------------------------------- geometry


def _vertices(rels: list[Any], p: list[sympy.Symbol]) -> list[tuple[Fraction, ...]]:
    """The vertices of the closure of a polytope in the simplex given by linear relations."""
    n = len(p)
    closed = []
    for r in rels:
        if isinstance(r, sympy.Eq):
            closed.append((r.lhs, "=="))
        elif isinstance(r, sympy.Le | sympy.Lt):
            closed.append((r.lhs, "<="))
        elif isinstance(r, sympy.Ge | sympy.Gt):
            closed.append((-r.lhs, "<="))
        elif isinstance(r, sympy.Ne):
            continue  # removes a hyperplane: the closure keeps it
        else:
            return []
    closed += [(-x, "<=") for x in p]
    simplex = sympy.Add(*p) - 1
    out: set[tuple[Fraction, ...]] = set()
    exprs = [e for e, _ in closed]
    if len(exprs) > 40:
        return []
    for combo in itertools.combinations(range(len(exprs)), n - 1):
        eqs = [simplex] + [exprs[i] for i in combo]
        sol = sympy.linsolve(eqs, p)
        if not sol:
            continue
        (pt,) = sol
        if any(not v.is_Rational for v in pt):
            continue
        sub = dict(zip(p, pt, strict=True))
        if all((e.xreplace(sub) <= 0) if op == "<=" else (e.xreplace(sub) == 0) for e, op in closed):
            out.add(tuple(Fraction(int(v.p), int(v.q)) for v in pt))
    return sorted(out)


def _atoms(e: Any, out: dict[str, Any]) -> dict[str, Any]:
    """The arithmetic relations of a quantifier-free z3 formula, once each (by their s-expression)."""
    import z3

    if z3.is_and(e) or z3.is_or(e) or z3.is_not(e):
        for c in e.children():
            _atoms(c, out)
    elif not (z3.is_true(e) or z3.is_false(e)):
        out.setdefault(e.sexpr(), e)
    return out


def _literal(atom: Any, model: Any) -> Any:
    """``atom`` or its negation, whichever holds at ``model``; a false equation becomes the strict
    inequality that holds there (a half-space, not the non-convex ``!=``)."""
    import z3

    if z3.is_true(model.eval(atom, model_completion=True)):
        return atom
    if z3.is_eq(atom):
        lhs, rhs = atom.children()
        return lhs < rhs if z3.is_true(model.eval(lhs < rhs, model_completion=True)) else lhs > rhs
    return z3.Not(atom)


def _verdict_of(solver: Any, budget: Budget, *assumptions: Any) -> Any:
    """``solver.check(*assumptions)`` within ``budget``'s CPU seconds; unknown raises (a piece that is
    not shown to lie in Q, or a part of Q not shown covered, would describe the wrong set)."""
    import z3

    answer = _answer(solver, budget, *assumptions)
    if answer == z3.unknown:
        raise z3.Z3Exception(f"z3 answered unknown within the region's CPU budget ({solver.reason_unknown()})")
    return answer


def _answer(solver: Any, budget: Budget, *assumptions: Any) -> Any:
    """z3's answer for ``solver`` within ``budget``'s CPU seconds (the watchdog; z3's own wall-clock
    timeout is only the backstop)."""
    from symcal.backends.z3_backend import cpu_watchdog

    solver.set("timeout", budget.wall_ms())
    with cpu_watchdog(budget, solver.ctx):
        return solver.check(*assumptions)


def _implicant(lits: list[Any], outside: Any, budget: Budget) -> list[Any]:
    """A small subset of ``lits`` (literals true at one point of Q) whose conjunction still lies in Q:
    ``outside`` holds the domain and not-Q, so a subset is good when it is unsat there; an unsat core
    first, then each remaining literal dropped when the rest stays unsat (a prime implicant)."""
    import z3

    flags = [z3.Bool(f"symcal_piece_literal_{i}") for i in range(len(lits))]
    outside.push()
    try:
        for flag, lit in zip(flags, lits, strict=True):
            outside.add(z3.Implies(flag, lit))
        if _verdict_of(outside, budget, *flags) != z3.unsat:
            raise z3.Z3Exception("a point of the failure set whose literals do not imply it")
        core = {str(c) for c in outside.unsat_core()}
        cur = [f for f in flags if str(f) in core]
        i = 0
        while i < len(cur):
            trial = cur[:i] + cur[i + 1:]
            if _verdict_of(outside, budget, *trial) == z3.unsat:
                core = {str(c) for c in outside.unsat_core()}
                cur = [f for f in trial if str(f) in core]
            else:
                i += 1
    finally:
        outside.pop()
    index = {str(f): i for i, f in enumerate(flags)}
    return [lits[index[str(f)]] for f in cur]


def _pieces(Q: Any, domain: list[Any], budget: Budget) -> list[Any] | None:
    """Q (within ``domain``: the simplex and the noise relations) as a union of convex pieces, each a
    conjunction of Q's own relations (or their negations) that lies in Q, none contained in another;
    None when there are more than MAX_PIECES.  Built as a cover: a point of Q outside the pieces so far,
    the literals of Q's relations that hold there, shrunk to a prime implicant of Q (one z3 unsat core,
    then minimised); until no point of Q is left outside (an unsat query: the pieces describe all of Q).
    Each step stops when ``budget``'s CPU seconds are spent (a z3 exception: never a partial answer)."""
    import z3

    atoms = list(_atoms(Q, {}).values())
    inside = z3.Solver()
    inside.add(*domain, Q)
    outside = z3.Solver()
    outside.add(*domain, z3.Not(Q))
    found: list[Any] = []
    while True:
        if _verdict_of(inside, budget) == z3.unsat:  # every point of Q lies in a piece
            break
        if len(found) >= MAX_PIECES:
            return None
        model = inside.model()
        piece = z3.And(*_implicant([_literal(a, model) for a in atoms], outside, budget))
        found.append(piece)
        inside.add(z3.Not(piece))
    keep: list[Any] = []
    for i, a in enumerate(found):
        inside_other = False
        for j, b in enumerate(found):
            if i == j:
                continue
            if _check([*domain, a, z3.Not(b)], budget) == "unsat" and (j < i or not _contains(a, b, domain, budget)):
                inside_other = True  # a inside b (equal: keep the first)
                break
        if not inside_other:
            keep.append(a)
    return keep


def _contains(a: Any, b: Any, domain: list[Any], budget: Budget) -> bool:
    """Within ``domain``, ``b`` lies in ``a`` (z3 unsat; unknown is no)."""
    import z3

    return _check([*domain, b, z3.Not(a)], budget) == "unsat"


def _check(constraints: list[Any], budget: Budget) -> str:
    """z3's answer ("sat", "unsat", "unknown") on ``constraints`` within ``budget``'s CPU seconds."""
    import z3

    s = z3.Solver()
    s.add(*constraints)
    return str(_answer(s, budget))


# --------------------------------------------------------------------------- the decision


def _bad_parts(s: Setup, form: Quadratic | Polyhedral) -> list[Any]:
    """For each prediction t: p is bad through t (the engine's query with p left free)."""
    import z3

    out = []
    for tp in range(s.k):
        if isinstance(form, Quadratic):
            cons, _ = _pair_constraints_quadratic(s, form, tp, None)
            out.append(z3.And(*cons))
        else:
            v = _poly_vars(s, form)
            cons = _pair_constraints_polyhedral(s, form, v, tp, None)
            inner = [x for x in v.all() if x not in v.p]
            out.append(z3.Exists(inner, z3.And(*cons)) if inner else z3.And(*cons))
    return out


def _piece(s: Setup, rel: Any) -> Piece:
    """A piece of the failure set from its relations (those of the simplex itself not shown)."""
    parts = list(rel.args) if isinstance(rel, sympy.And) else [rel]
    simplex_parts = {sympy.Eq(sympy.Add(*s.p) - 1, 0)} | {sympy.Ge(x, 0) for x in s.p}
    shown = [r for r in parts if r not in simplex_parts and _normal(r) not in simplex_parts]
    return Piece(tuple(sorted(sympy.sstr(r) for r in shown)), tuple(_vertices(parts, s.p)))


def _eliminate(bad: list[Any], budget: Budget) -> Any:
    """Q(p): u and the multipliers eliminated (z3 ``qe``) from each prediction's failure formula apart --
    an existential quantifier distributes over the disjunction, and the parts are far smaller -- then
    their disjunction."""
    import z3

    from symcal.backends.z3_backend import cpu_watchdog

    parts = []
    for b in bad:
        g = z3.Goal()
        g.add(b)
        with cpu_watchdog(budget, g.ctx):
            tactic = z3.Then(z3.TryFor(z3.Tactic("qe"), budget.wall_ms()), z3.Tactic("ctx-solver-simplify"))
            parts.append(tactic(g).as_expr())
    return z3.Or(*parts)


def region(s: Setup, timeout: float) -> CalibratedRegion:
    """The largest subset of P on which ``s``'s surrogate is calibrated (see the module docstring)."""
    import z3

    t0 = time.monotonic()
    budget = Budget(timeout)
    P = s.p_text()

    def unknown(reason: str, pieces: tuple[Piece, ...] = (), **kw: Any) -> CalibratedRegion:
        return CalibratedRegion(s.name, Status.UNKNOWN, P, pieces, kw.get("good"), kw.get("maximal"),
                                time.monotonic() - t0, reason)

    form: Quadratic | Polyhedral | str = quadratic_form(s)
    if not isinstance(form, Quadratic):
        poly = polyhedral_form(s)
        if not isinstance(poly, Polyhedral):
            return unknown(f"neither (A) quadratic ({form}) nor (B) polyhedral ({poly})")
        form = poly
    tied = [t for t in range(s.k) if len(s.link.tied(t)) > 1]
    if tied:
        return unknown(f"the link ties predictions {', '.join(s.pname(t) for t in tied)} everywhere: the region "
                       f"depends on its tie-breaking")
    bad = _bad_parts(s, form)
    pz = _zvars("p", s.n)
    try:  # z3's TryFor counts wall-clock time: only the backstop; the watchdog stops qe on the CPU clock
        Q = _eliminate(bad, budget)
    except z3.Z3Exception as e:
        return unknown(f"eliminating u and the multipliers (z3 qe) did not finish: {e}")
    domain = _simplex_and_noise(s, pz)
    try:
        raw = _pieces(Q, domain, budget)
    except z3.Z3Exception as e:
        return unknown(f"splitting the failure set into pieces (z3) did not finish: {e}")
    if raw is None:
        return unknown(f"the failure set needs more than {MAX_PIECES} convex pieces")
    names = {str(x): sym for x, sym in zip(pz, s.p, strict=True)}
    try:
        pieces = [_piece(s, _to_sympy(e, names)) for e in raw]
    except ValueError as ex:
        return unknown(f"the eliminated formula is not linear in p ({ex})")
    # 2. every point of Q fails: no p in Q without a failing minimiser
    maximal = None
    if pieces:
        res = _solve([Q, z3.Not(z3.Or(*bad))], budget, pz,
                     "calibration region: is some p of the failure set Q without a failing minimiser? unsat = no")
        maximal = _smt(res, "unsat: every p of Q has a minimiser in a suboptimal cell")
        if res.answer != "unsat":
            return unknown(f"could not show that every point of the pieces fails (z3: {res.answer} {res.reason})",
                           tuple(pieces), maximal=maximal)
        # each piece: the engine's refutation, with an exact counterexample inside it
        for i, pc_e in enumerate(raw):
            v = decide(dataclasses.replace(s, noise=s.noise + (_to_sympy(pc_e, names),)), max(0.5, budget.left()))
            if v.status is not Status.REFUTED:
                return unknown(f"the engine did not refute calibration inside a piece ({v.status.value}: "
                               f"{v.reason[:200]})", tuple(pieces), maximal=maximal)
            pieces[i] = dataclasses.replace(pieces[i], verdict=v)
    # 1. calibration over P minus Q, by the engine's own decision
    rest = z3.And(*_simplex_and_noise(s, pz), z3.Not(Q))
    if _check([rest], budget) == "unsat":
        good = None
        notes: tuple[str, ...] = ("the surrogate fails at every distribution of P",)
    else:
        # the pieces describe Q within P (each lies in Q, and no point of Q is outside them): P minus their union
        sg = dataclasses.replace(s, noise=s.noise + (sympy.Not(sympy.Or(*(_to_sympy(e, names) for e in raw))),))
        good = decide(sg, max(0.5, budget.left()))
        notes = ()
        if good.status is not Status.PROVED:
            return unknown(f"calibration over P minus the pieces is {good.status.value}: {good.reason[:200]}",
                           tuple(pieces), good=good, maximal=maximal)
    return CalibratedRegion(s.name, Status.PROVED, P, tuple(pieces), good, maximal, time.monotonic() - t0,
                            notes=notes)
