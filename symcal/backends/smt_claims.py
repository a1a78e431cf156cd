"""Implications and existence claims over sympy expressions, decided by z3 and re-checked.

The solver's model is never trusted: it is rounded to simple rationals and substituted
into the claim's own sympy expressions in exact arithmetic (symcal.backends.translate).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends import z3_backend
from symcal.backends.base import Budget, Outcome
from symcal.backends.translate import (
    UNDECIDED,
    Translator,
    assumption_constraints,
    assumptions_hold,
    check_symbols,
    defined_at,
    definedness,
    domain_text,
    exact_scope,
    truth_at,
)
from symcal.errors import InvalidClaim, NoBackendAvailable
from symcal.verdicts import Composite, SmtResult, Status, Witness

__all__ = ["decide_implies", "decide_implies_cases", "decide_exists", "decide_identity_by_smt", "check_assignment"]


def _flatten(items: Any) -> list[Any]:
    if isinstance(items, list | tuple):
        out: list[Any] = []
        for x in items:
            out.extend(_flatten(x))
        return out
    return [items]


def _no_python_bools(parts: dict[str, list[Any]], what: str) -> None:
    for name, exprs in parts.items():
        for k, e in enumerate(exprs):
            if isinstance(e, bool):
                raise InvalidClaim(
                    f"{what}[{name!r}][{k}] is the Python bool {e}: did you write == where you meant "
                    f"sympy.Eq(lhs, rhs)? (Python's == compares expressions structurally)"
                )


def check_assignment(
    parts: dict[str, list[Any]], values: dict[sympy.Symbol, Fraction]
) -> tuple[dict[str, Any], str]:
    """Evaluate every named part exactly. Returns {name: True/False/UNDECIDED} and a note."""
    status: dict[str, Any] = {}
    notes = []
    for name, exprs in parts.items():
        res: Any = True
        for e in exprs:
            t = truth_at(e, values)
            if t is False:
                res = False
                notes.append(f"{name} fails: {sympy.sstr(e)[:100]}")
                break
            if t is UNDECIDED:
                res = UNDECIDED
        status[name] = res
    return status, "; ".join(notes)


def _symbols(exprs: list[Any]) -> list[sympy.Symbol]:
    """The free symbols, sorted by name; each one's assumptions classified (encoded or relaxed),
    an assumption symcal cannot encode refused (InvalidClaim naming the symbol and the assumption)."""
    return check_symbols(list(exprs))


FALSE_CONSTRAINT_SCOPE = ("a constraint as built: False, sympy evaluated it when it was built (from its symbols' "
                          "assumptions); not what may have been typed")
FALSE_CONCLUSION_SCOPE = ("the conclusion as built: False, sympy evaluated it when it was built (from its symbols' "
                          "assumptions); not what may have been typed")
def built_true(parts: dict[str, list[Any]], what: str) -> str:
    """'' when no relation of ``parts`` is sympy's True as built; else why a counterexample or witness
    cannot stand: sympy evaluated the relation when it was built (``Piecewise((1, x > 0)) > 0`` is True,
    though what was typed is undefined for x <= 0), so a point found for the claim as built may sit where
    what was typed is undefined.  (A proof is unaffected: dropping a hypothesis only weakens it.)"""
    names = [name for name, exprs in parts.items() if any(e is sympy.true for e in exprs)]
    if not names:
        return ""
    return (f"{what} {', '.join(repr(n) for n in names)} holds a relation that is True as built (sympy evaluated it "
            f"when it was built, e.g. one over a Piecewise without an otherwise branch): a point found for the claim "
            f"as built may sit where what was typed is undefined, so it is no counterexample or witness; leave such "
            f"a relation out if it is meant to be True")


NOWHERE_DEFINED = ("an expression of the claim is real at no point (sympy's principal value of a rational power of a "
                   "negative number, such as (-1)**(2/3), is complex): the claim would hold or fail only vacuously, "
                   "and a root's equation would give such a power a real value it does not have; not decided")


def nowhere_defined(requirements: Sequence[Any]) -> bool:
    """Whether a definedness requirement is False as built: an expression defined at no real point."""
    return any(r is sympy.false for r in requirements)


TRIVIAL_CONCLUSION = ("the conclusion is already True as written (sympy evaluated it when it was built, e.g. a "
                      "relation its symbols' assumptions decide, or one over a Piecewise without an otherwise "
                      "branch): the claim states nothing beyond its hypotheses")
FALSE_CONCLUSION = ("the conclusion is False as written (sympy evaluated it when it was built, e.g. p > p, or it "
                    "was written False): the claim is that the hypotheses cannot all hold")


def witness_problem(values: dict[Any, Any], requirements: list[Any]) -> str:
    """Why a candidate witness cannot stand ('' when it can): a value violates (or is not shown to
    satisfy) its symbol's assumptions, or an expression of the claim is not shown defined there."""
    ok, why = assumptions_hold(values)
    if ok is not True:
        return why
    if requirements and not defined_at(requirements, values):
        return "an expression of the claim is not shown to be defined over the reals at the model"
    return ""


def _candidates(
    result_model: dict[str, Fraction], constraints: list[Any], zvars: list[Any], budget: Budget,
    exact: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    cands = []
    try:
        cands.extend(z3_backend.small_models(constraints, zvars, Budget(min(3.0, max(0.1, budget.left() / 3)))))
    except Exception:  # pragma: no cover - minimisation is best effort
        pass
    cands.append(result_model)
    # rounded versions of the raw model (algebraic models become nearby simple rationals)
    for den in (1, 2, 10, 100, 10**6):
        cands.append({k: v.limit_denominator(den) for k, v in result_model.items()})
    # then a search with the variables pinned to nearby rationals one by one (an algebraic model
    # that no rounding turns into a witness usually has rational neighbours that are models)
    try:
        pinned = z3_backend.pinned_model(constraints, zvars, result_model,
                                         Budget(min(5.0, max(0.1, budget.left() / 2))))
    except Exception:  # pragma: no cover - best effort
        pinned = None
    if pinned is not None:
        cands.append(pinned)
    if exact is not None:  # last, z3's algebraic model itself, re-checked in exact algebraic arithmetic
        cands.append(exact)
    return cands


def _algebraic_note(values: dict[Any, Any]) -> str:
    """For a witness with algebraic (irrational) values: what they are, with decimals to read."""
    alg = {s: v for s, v in values.items() if isinstance(v, sympy.Basic) and not isinstance(v, sympy.Rational)}
    if not alg:
        return ""
    shown = ", ".join(f"{s} ~ {sympy.N(v, 12)}" for s, v in alg.items())
    return f" in algebraic arithmetic: {shown}, each the real root of its polynomial named by CRootOf"


def decide_implies(hyps: dict[str, list[Any]], conclusion: Any, budget: Budget, scope: str, label: str) -> Outcome:
    hyps = {k: _flatten(v) for k, v in hyps.items()}
    _no_python_bools(hyps, "hypotheses")
    _no_python_bools({"conclusion": [conclusion]}, "conclusion")
    true_as_built = built_true(hyps, "hypothesis")
    all_exprs = [e for v in hyps.values() for e in v] + [conclusion]
    syms = _symbols(all_exprs)
    requirements = definedness(all_exprs)
    scope = exact_scope(scope, domain_text(syms, requirements))
    trivial = ((TRIVIAL_CONCLUSION,) if conclusion is sympy.true else (FALSE_CONCLUSION,) if conclusion is sympy.false
               else ())
    if conclusion is sympy.true:  # what was shown is the claim as built, not what may have been typed (x/(3x) < 1 is 1/3 < 1)
        scope = f"{scope} (the conclusion as built: True, sympy evaluated it; not where what was typed is defined)"
    if nowhere_defined(requirements):
        return Outcome(Status.UNKNOWN, scope, "z3", reason=NOWHERE_DEFINED, warnings=trivial)
    implicit = assumption_constraints(syms)
    if implicit:  # sign assumptions on symbols are hypotheses too
        hyps = {**hyps, "symbol_assumptions": implicit}
    tr = Translator(roots=True)
    try:
        zh = [tr(e) for v in hyps.values() for e in v] + tr.parity(syms)  # integer symbols: z3 Ints
        zc = tr(conclusion)
    except NoBackendAvailable as e:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=str(e), warnings=trivial)
    import z3

    outside = _roots_outside(tr, requirements)
    if outside:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=outside, warnings=trivial)
    zh += tr.definitions  # the roots' definitions (sqrt(x) as t >= 0, t*t = x), beside the hypotheses
    zh += defined_where(tr, requirements)
    zvars = [tr.var(s) for s in syms]
    constraints = zh + [z3.Not(zc)]
    parts = list(conclusion.args) if isinstance(conclusion, sympy.And) else []
    whole = Budget(WHOLE_SHARE * max(budget.left(), 0.0)) if len(parts) > 1 else budget
    res = z3_backend.solve(constraints, whole, zvars, comment=f"{label}: negated claim; unsat = proved")
    ver = z3_backend.version()
    if res.answer == "unsat":
        # a conclusion of False states that the hypotheses are contradictory: that is the claim
        warn = () if conclusion is sympy.false else vacuity(zh, zvars, budget, label)
        return Outcome(Status.PROVED, scope, "z3", SmtResult("z3", ver, "unsat", res.smtlib), warnings=trivial + warn)
    if res.answer == "unknown":
        if len(parts) > 1 and not budget.expired():
            return _by_conjuncts(hyps, conclusion, parts, syms, tr, zh, zvars, budget, scope, label, res.reason,
                                 requirements)
        return Outcome(Status.UNKNOWN, scope, "z3", reason=res.reason)
    assert res.model is not None
    found, problem = _rechecked(hyps, conclusion, syms, res, constraints, zvars, budget, f"z3 {ver}", requirements)
    if found is not None and true_as_built:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=true_as_built)
    if found is not None:  # a refutation of a conclusion sympy built as False says so (Eq(v - v, 1) is False)
        return Outcome(Status.REFUTED, f"{scope} ({FALSE_CONCLUSION_SCOPE})" if conclusion is sympy.false else scope,
                       "z3", found)
    return Outcome(
        Status.UNKNOWN, scope, "z3",
        reason="z3 found a model but no rounding of it passed the exact re-check (nor the model itself, in exact "
               "algebraic arithmetic)" + (f"; the model itself is no counterexample: {problem}" if problem else ""),
    )



def decide_identity_by_smt(lhs: Any, rhs: Any, conditions: Sequence[Any], budget: Budget, scope: str,
                           label: str) -> Outcome:
    """An identity the residual test left undecided -- typically one with ``Min``, ``Max``, ``Abs``
    or ``Piecewise``, which is zero without being formally zero -- decided as the implication
    "conditions => lhs = rhs" by z3 (:func:`decide_implies`: definedness, assumptions, the exact
    re-check of a counterexample on ``Eq(lhs, rhs)`` itself).  Under ``conditions`` a proof covers
    only the points where they hold, and the scope says so; without them it is the identity for
    every real value.  A relation sympy evaluates when built (``Eq`` of two sides it can compare)
    is not decided here."""
    equation = sympy.Eq(lhs, rhs)
    if isinstance(equation, sympy.logic.boolalg.BooleanAtom):
        return Outcome(Status.UNKNOWN, scope, "z3", reason=f"Eq(lhs, rhs) is {equation} as built: not sent to z3")
    conds = list(conditions)
    out = decide_implies({"conditions": conds} if conds else {}, equation, budget, scope, label)
    if not conds:
        return out
    only = f"{out.scope}; only where the conditions hold ({', '.join(sympy.sstr(c) for c in conds)[:200]})"
    return Outcome(out.status, only, out.backend, out.evidence, out.reason, out.cross_check, out.warnings)


def defined_where(tr: Translator, requirements: Sequence[Any]) -> list[Any]:
    """The claim's definedness requirements as z3 constraints, so that a query ranges over exactly
    the domain its scope names ("where every expression is defined (x != 0)"): z3 gives ``1/0`` some
    value, and without them ``1/x > 0 => x > 0`` has the model x = 0.  A requirement z3 cannot state,
    or one with a root in it (a root's definition would hold everywhere, not only where the
    requirement is read), is left out: the query then ranges over more than the scope, which a proof
    may, and every witness is still re-checked against every requirement."""
    out = []
    for r in requirements:
        if any(isinstance(p, sympy.Pow) and not p.exp.is_integer for p in sympy.preorder_traversal(r)):
            continue
        try:
            out.append(tr(r))
        except NoBackendAvailable:
            continue
    return out


def _roots_outside(tr: Translator, requirements: Sequence[Any]) -> str:
    """Why a query with rational powers would range over less than the scope says ('' when it does
    not): each root's definition restricts the query to its base >= 0 (> 0), which must be one of
    the claim's definedness requirements, named in the scope."""
    have = set(requirements)
    missing = [r for r in tr.root_domains() if r is not sympy.true and r not in have and not _stronger_in(r, have)]
    if not missing:
        return ""
    return ("z3: the rational powers are defined only where " + ", ".join(sympy.sstr(r) for r in missing)[:160]
            + ", which the scope's definedness conditions do not state; not decided")


def _stronger_in(domain: Any, have: set[Any]) -> bool:
    """A root's domain (``b >= 0``, or guarded ``Or(guard fails, b >= 0)``) follows from a requirement the
    scope states: every disjunct of that requirement implies one of the domain's (equal, or ``b > 0`` for
    ``b >= 0``)."""
    mine = set(domain.args) if isinstance(domain, sympy.Or) else {domain}
    weaker = {sympy.Gt(a.lhs, a.rhs) for a in mine if isinstance(a, sympy.GreaterThan)}
    return any(all(d in mine or d in weaker for d in (r.args if isinstance(r, sympy.Or) else (r,))) for r in have)


WHOLE_SHARE = 0.8  # of an implication's budget for its whole query, when its conclusion is a conjunction


def _rechecked(hyps: dict[str, list[Any]], conclusion: Any, syms: list[Any], res: Any, constraints: list[Any],
               zvars: list[Any], budget: Budget, found_by: str,
               requirements: Sequence[Any] = ()) -> tuple[Witness | None, str]:
    """A counterexample from z3's model (or a rounding of it) that passes the exact re-check on the
    claim's own hypotheses and conclusion, satisfies every assumption of every symbol (integer,
    parity, sign, rational, prime, ...) and where every expression is defined; (None, why the
    model itself is not one, or '') when none does."""
    ver = z3_backend.version()

    def refutes(values: dict[Any, Any]) -> bool:
        st, _ = check_assignment(hyps, values)
        return all(v is True for v in st.values()) and truth_at(conclusion, values) is False

    values, problem = _first_model(res, constraints, zvars, syms, budget, refutes, requirements)
    if values is None:
        return None, problem
    return Witness({str(s): values[s] for s in syms}, rechecked=True,
                   detail="every hypothesis holds and the conclusion fails (exact re-check"
                          + _algebraic_note(values) + ")",
                   found_by=found_by, query=SmtResult("z3", ver, "sat", res.smtlib)), ""


def _first_model(res: Any, constraints: list[Any], zvars: list[Any], syms: list[Any], budget: Budget,
                 holds: Callable[[dict[Any, Any]], bool], requirements: Sequence[Any]) -> tuple[dict | None, str]:
    """The first of z3's model and its roundings (:func:`_candidates`) that gives every symbol of
    ``syms`` a value, at which ``holds`` in exact arithmetic and :func:`witness_problem` finds
    nothing; else (None, the problem of the first candidate that held, or '')."""
    by_name = {str(s): s for s in syms}
    problem = ""
    for cand in _candidates(res.model, constraints, zvars, budget, res.algebraic):
        values = {by_name[k]: v for k, v in cand.items() if k in by_name}
        if len(values) < len(syms) or not holds(values):
            continue
        why = witness_problem(values, list(requirements))
        if why:
            problem = problem or why
            continue
        return values, ""
    return None, problem


def _by_conjuncts(hyps: dict[str, list[Any]], conclusion: Any, parts: list[Any], syms: list[Any], tr: Any,
                  zh: list[Any], zvars: list[Any], budget: Budget, scope: str, label: str, why: str,
                  requirements: Sequence[Any] = ()) -> Outcome:
    """The implication decided conjunct by conjunct of its conclusion, after the whole query used
    its share of the budget: it holds iff each conjunct follows from the hypotheses (the reduction,
    recorded in the evidence's note).  One negated query per conjunct in what is left, shared
    evenly; a counterexample to a conjunct is re-checked on the whole conclusion.  (A sat query of
    a conjunction can be much harder for z3 than each of its conjuncts': a mutant of a seven-part
    conclusion took over 10 s whole and 0.02 s split.)"""
    import z3

    ver = z3_backend.version()
    proofs: list[tuple[str, Any]] = []
    undecided: list[str] = []
    for i, part in enumerate(parts):
        share = Budget(max(budget.left(), 0.0) / (len(parts) - i))
        if share.expired():
            undecided.append(f"conjunct {i + 1}: no budget left")
            continue
        negated = zh + [z3.Not(tr(part))]
        negated += [d for d in tr.definitions if not any(d.eq(h) for h in zh)]  # a root first met in this part
        res = z3_backend.solve(negated, share, zvars,
                               comment=f"{label}: conjunct {i + 1} of {len(parts)} of the conclusion, negated; "
                                       "unsat = that conjunct proved")
        if res.answer == "unsat":
            proofs.append((f"conjunct {i + 1} of {len(parts)}", SmtResult("z3", ver, "unsat", res.smtlib)))
        elif res.answer == "sat":
            found, problem = _rechecked(hyps, conclusion, syms, res, negated, zvars, share,
                                        f"z3 {ver}, on conjunct {i + 1} of {len(parts)} of the conclusion "
                                        f"(the whole query: {why})", requirements)
            if found is not None:
                why_not = built_true(hyps, "hypothesis")
                if why_not:
                    return Outcome(Status.UNKNOWN, scope, "z3", reason=why_not)
                return Outcome(Status.REFUTED, scope, "z3", found)
            undecided.append(f"conjunct {i + 1}: a model that failed the exact re-check"
                             + (f" ({problem})" if problem else ""))
        else:
            undecided.append(f"conjunct {i + 1}: {res.reason}")
    if undecided:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=f"{why}; conjunct by conjunct: {len(proofs)} of "
                       f"{len(parts)} proved, undecided: {'; '.join(undecided)}")
    warn = vacuity(zh, zvars, budget, label)
    return Outcome(Status.PROVED, scope, "z3", Composite(tuple(proofs), note=(
        f"the conclusion's {len(parts)} conjuncts, each negated query unsat: the implication holds iff each "
        f"conjunct does (the whole negated query: {why})")), warnings=warn)


VACUOUS = "vacuous: the hypotheses cannot all hold, so the implication is proved without content"


def _satisfied_at_a_simple_point(hyps: list[Any], zvars: list[Any]) -> bool:
    """Whether every hypothesis is true (z3's own ``simplify`` gives ``True``) with all of ``zvars`` set
    to 0, to 1 or to -1: then z3 would answer sat, the point being a model.  Only real and integer
    variables; anything else, or a hypothesis that does not simplify to ``True``, is no."""
    import z3

    if not hyps or any(not (z3.is_real(v) or z3.is_int(v)) or not z3.is_const(v) for v in zvars):
        return not hyps
    for value in (0, 1, -1):
        point = [(v, z3.RealVal(value) if z3.is_real(v) else z3.IntVal(value)) for v in zvars]
        try:
            if all(z3.is_true(z3.simplify(z3.substitute(h, *point) if point else h)) for h in hyps):
                return True
        except z3.Z3Exception:
            return False
    return False


def vacuity(hyps: list[Any], zvars: list[Any], budget: Budget, label: str) -> tuple[str, ...]:
    """After a proof: are the hypotheses satisfiable on their own?  An unsat answer flags the
    implication as vacuous (ARCHITECTURE.md, rule 7); sat or unknown flags nothing (a short budget:
    the proof stands either way).  A point where every hypothesis simplifies to true answers sat
    without a solver call (``_satisfied_at_a_simple_point``)."""
    if _satisfied_at_a_simple_point(hyps, zvars):
        return ()
    res = z3_backend.solve(list(hyps), Budget(max(0.1, min(2.0, budget.left()))), zvars,
                           comment=f"{label}: hypotheses alone; unsat = vacuous implication")
    return (VACUOUS,) if res.answer == "unsat" else ()


def decide_implies_cases(cases: Any, budget: Budget, scope: str, label: str, m: int | None = None) -> Outcome:
    """A finite family of implications, one z3 query per case, within one shared budget.

    Proved iff every case's negated query is unsat: the evidence is a ``Composite`` of the
    per-case ``SmtResult`` (SMT-LIB2 text), labelled by case.  Refuted at the first case with a
    counterexample that passes the exact re-check on that case's own expressions; the witness
    names the case and the size.  Unknown, never proved, when a case is undecided or the budget
    runs out; the cases decided so far stay in the evidence.
    """
    from symcal.claims.core import validate_cases
    from symcal.errors import SymcalError

    family = validate_cases(cases, label, m)
    at = f" (m = {m})" if m is not None else ""
    everything = [[*_flatten(list(hyps.values())), concl] for _, hyps, concl in family]
    try:
        scope = exact_scope(scope, domain_text(_symbols(everything), definedness(everything)))
    except SymcalError as e:
        raise type(e)(f"{label}{at}: {e}") from None
    parts: list[tuple[str, Any]] = []
    undecided: list[str] = []
    vacuous_cases: list[str] = []
    trivial_cases: list[str] = []
    for i, (case, hyps, concl) in enumerate(family):
        if budget.expired():
            undecided.append(f"budget of {budget.seconds:g} CPU seconds spent after {i} of {len(family)} cases; "
                             f"case {case!r} and later ones not attempted")
            break
        try:
            out = decide_implies(hyps, concl, budget, scope, f"{label}{at} case {case!r}")
        except SymcalError as e:
            raise type(e)(f"case {case!r}{at}: {e}") from None
        if out.status is Status.PROVED:
            parts.append((case, out.evidence))
            if any(w.startswith("vacuous") for w in out.warnings):
                vacuous_cases.append(str(case))
            if TRIVIAL_CONCLUSION in out.warnings:
                trivial_cases.append(str(case))
        elif out.status is Status.REFUTED:
            w = out.evidence
            assert isinstance(w, Witness) and w.rechecked
            return Outcome(
                Status.REFUTED, scope, "z3",
                Witness(w.values, rechecked=True, size=m, found_by=f"{w.found_by}, case {i + 1} of {len(family)}",
                        detail=f"case {case!r}: {w.detail}", query=w.query),
                reason=f"refuted by case {case!r}{at}",
            )
        else:
            undecided.append(f"case {case!r}: {out.reason or out.status.value}")
    n = len(family)
    if undecided:
        partial = Composite(tuple(parts), note=f"partial: {len(parts)} of {n} cases proved") if parts else None
        return Outcome(Status.UNKNOWN, scope, "z3", partial,
                       reason=f"{len(parts)} of {n} cases proved; undecided: {'; '.join(undecided)}")
    warn: tuple[str, ...] = ()
    if vacuous_cases and len(vacuous_cases) == n:
        warn = (VACUOUS + f" (in every one of the {n} cases)",)
    elif vacuous_cases:
        warn = (f"{len(vacuous_cases)} of {n} cases are vacuous (their hypotheses cannot all hold): "
                + ", ".join(vacuous_cases[:5]) + (" ..." if len(vacuous_cases) > 5 else ""),)
    if trivial_cases and len(trivial_cases) == n:  # some cases of a family may well be trivial; all of them is news
        warn += (f"every one of the {n} cases' conclusions{at} is already True as written (sympy evaluated them "
                 "when they were built): the claim states nothing beyond its hypotheses",)
    return Outcome(Status.PROVED, f"{n} cases; {scope}", "z3",
                   Composite(tuple(parts), note=f"{n} cases, each negated query unsat"), warnings=warn)


def decide_exists(
    constraints: dict[str, list[Any]], witness: dict[Any, Any] | None, budget: Budget, scope: str, label: str
) -> Outcome:
    constraints = {k: _flatten(v) for k, v in constraints.items()}
    _no_python_bools(constraints, "constraints")
    true_as_built = built_true(constraints, "constraint")
    own = [e for v in constraints.values() for e in v]
    syms = _symbols(own)
    requirements = definedness(own)
    where = domain_text(syms, requirements, existential=True)
    scope = f"{scope}: {where}" if scope else where
    if nowhere_defined(requirements):
        return Outcome(Status.UNKNOWN, scope, "exact" if witness is not None else "z3", reason=NOWHERE_DEFINED)
    implicit = assumption_constraints(syms)
    if implicit:
        constraints = {**constraints, "symbol_assumptions": implicit}
    exprs = [e for v in constraints.values() for e in v]
    if witness is not None:
        from symcal.exact import to_fraction

        values = {}
        for k, v in witness.items():
            sym = k if isinstance(k, sympy.Symbol) else next((s for s in syms if str(s) == str(k)), None)
            if sym is None:
                continue
            values[sym] = to_fraction(v, f"witness[{k}]")
        missing = [s for s in syms if s not in values]
        if missing:
            return Outcome(Status.ERROR, scope, "exact", reason=f"witness gives no value for {missing}")
        st, note = check_assignment(constraints, values)
        shown = {str(s): values[s] for s in syms}
        fits, why = assumptions_hold(values)  # the source's witness must respect every assumption too
        if fits is True and all(v is True for v in st.values()):
            if true_as_built:
                return Outcome(Status.UNKNOWN, scope, "exact", reason=true_as_built)
            if not defined_at(requirements, values):
                return Outcome(Status.UNKNOWN, scope, "exact", reason=(
                    "a constraint's expression is not shown to be defined over the reals at the witness"))
            return Outcome(Status.WITNESSED, scope, "exact",
                           Witness(shown, rechecked=True, detail="every constraint holds (exact)",
                                   found_by="the source's construction"))
        # the given witness does not show it: the existence is still open -- never refuted by one
        # failing point; the search below decides it (refuted only when no point exists at all)
        failed = (f"the given witness {', '.join(f'{k} = {v}' for k, v in shown.items())} "
                  + (f"fails: {why}" if fits is False else f"fails: {note}" if any(v is False for v in st.values())
                     else "could not be decided exactly"))
        out = decide_exists(constraints, None, budget, "", label)
        if out.status is Status.UNKNOWN:
            return Outcome(Status.UNKNOWN, scope, out.backend, reason=f"{failed}; {out.reason}")
        built = f" ({FALSE_CONSTRAINT_SCOPE})" if FALSE_CONSTRAINT_SCOPE in out.scope else ""
        return Outcome(out.status, scope + built, out.backend, out.evidence, out.reason, out.cross_check,
                       out.warnings + (failed + "; the search decided the existence",))
    tr = Translator(roots=True)
    try:
        zc = [tr(e) for e in exprs] + tr.parity(syms)  # integer symbols: z3 Ints
    except NoBackendAvailable as e:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=str(e))
    outside = _roots_outside(tr, requirements)
    if outside:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=outside)
    zc += tr.definitions  # the roots' definitions: the search ranges over points where they are defined
    zc += defined_where(tr, requirements)
    zvars = [tr.var(s) for s in syms]
    res = z3_backend.solve(zc, budget, zvars, comment=f"{label}: existence query; sat = witnessed")
    ver = z3_backend.version()
    if res.answer == "unsat":  # a constraint sympy built as False (what was typed may differ) is named in the scope
        built = f" ({FALSE_CONSTRAINT_SCOPE})" if any(e is sympy.false for e in exprs) else ""
        return Outcome(Status.REFUTED, scope + built, "z3", SmtResult("z3", ver, "unsat", res.smtlib,
                                                                      note="no values satisfy the constraints"))
    if res.answer == "unknown":
        return Outcome(Status.UNKNOWN, scope, "z3", reason=res.reason)
    assert res.model is not None
    values, problem = _first_model(res, zc, zvars, syms, budget,
                                   lambda v: all(x is True for x in check_assignment(constraints, v)[0].values()),
                                   requirements)
    if values is not None and true_as_built:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=true_as_built)
    if values is not None:
        return Outcome(Status.WITNESSED, scope, "z3",
                       Witness({str(s): values[s] for s in syms}, rechecked=True,
                               detail="every constraint holds (exact re-check" + _algebraic_note(values) + ")",
                               found_by=f"z3 {ver}",
                               query=SmtResult("z3", ver, "sat", res.smtlib)))
    return Outcome(Status.UNKNOWN, scope, "z3",
                   reason="z3 found a model but no rounding of it passed the exact re-check"
                          + (f"; the model itself is no witness: {problem}" if problem else ""))
