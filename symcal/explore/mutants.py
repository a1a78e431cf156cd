"""Mutation testing of the claim library: does every check fail when the claim is wrong?

For every bundled claim the mutation operators below build *mutants*: claims that differ from
the original by one small edit.  A mutant of a claim that holds is **killed** when symcal
refutes it (with an exactly re-checked witness, or an unsat existence query); a mutant that
comes back proved **survived**, and each survivor gets the reason it is harmless:

========  ==========================================================  ==========================
operator  edit                                                        a survivor means
========  ==========================================================  ==========================
flip      reverse one inequality of the conclusion (<= to >=)         equality holds there
strict    make one non-strict inequality of the conclusion strict     the bound is never tight
          (in the premise of an implication, and for hypotheses, a    / boundary is harmless
          strict one non-strict: always the stronger statement)
nudge     move one numeric constant of the conclusion by +-1/7        the constant is not tight
drop      drop one named hypothesis                                   the hypothesis is not
                                                                      needed (a finding)
swap      exchange two symbols of one family in the conclusion        the conclusion is
                                                                      symmetric in them
twin      the claim's declared negative twin (``TWINS`` beside the    the twin is not the
          claim in its module; :mod:`symcal.explore.twins`)           counterexample it was
                                                                      meant to be (a finding)
========  ==========================================================  ==========================

A family of implications (``implies_cases``) gets the same operators applied to every case at
once: flip the first (or every) inequality of each case's conclusion, make the first non-strict
one strict, nudge its first constant (or zero side), drop a named hypothesis from every case
that has it, or make a hypothesis's strict inequalities non-strict in every case.

A mutant is **equivalent** when it is the same statement as the original, and only when that
is shown, never because it survived:

* syntactically, before solving: the edit changes nothing at the sizes decided; or a swap maps
  the conclusion onto itself, or maps the hypotheses onto themselves -- all symbols are
  universally quantified, so the mutant is then the original with two bound symbols renamed
  (checked on canonical forms, exactly);
* by a proof, after the mutant survived: a dropped hypothesis follows from the others; a
  hypothesis made non-strict implies, with the others, the printed one; an edited conclusion is
  equivalent to the original for all values (no hypothesis: under the hypotheses both hold, which
  says nothing), where the original conclusion is not valid on its own (refuted without
  hypotheses: were it valid, a surviving edit would be valid too, and "equivalent" would only
  restate that it survived).  Each such proof counts only if its control -- the same query with
  the conclusion negated -- is refuted with a re-checked witness too, so an engine that proves
  everything cannot turn survivors into equivalents.

``strict`` is polarity-aware: a non-strict inequality of the conclusion's premise is not made
strict (that would weaken the claim: a mutant that a true claim always survives, and that could
turn a false claim true); a strict one there is made non-strict instead; an inequality that
occurs both ways (a bi-implication) is made strict as a change, not a strengthening.

Follow-up decisions for undecided mutants: an all-sizes mutant (local lemma) whose local argument
does not apply is decided at its two smallest sizes, where a re-checked counterexample refutes it
for all sizes (killed); a mutant whose only counterexamples divide by zero (z3's division is
total, exact arithmetic's is not) is decided again with every denominator non-zero -- proved, no exact
counterexample exists and it *survives* ("holds wherever it is defined": the edit loosened only
what keeps a denominator non-zero; listed apart in ``--findings``).  Undecided mutants
are tabulated by reason (``undecided_by_reason`` in the JSON).

Every survivor (and every mutant shown equivalent after it was decided) then gets an independent
exact check of its edited statement, with no solver: exact evaluation (sympy, rational values) at
the points of a small rational grid the symbols' assumptions admit and at the counterexamples of
the claim's other mutants, for implications and families of cases; both sides of an identity at
those points; the claim's own functions at exact weights (other mutants' counterexamples, every
0/1 weighting at m = 3, a seeded sample beyond) for node claims; every case re-evaluated for finite
claims.  A counterexample found there makes the mutant **unsound**: symcal said the edited
statement holds and it does not, a bug of symcal, never a finding such as "hypothesis not needed".

Every remaining survivor is a *finding* about its claim (``symcal selftest --findings``): a hypothesis not
needed, a bound not tight or never tight, a hypothesis whose boundary is harmless, an inequality
that holds both ways, a symmetry, a declared twin that does not break its claim.
Mutants of a claim the paper refutes are *strengthened* only (drop a hypothesis, make the
conclusion strict): a stronger version of a false claim is false, so one of them coming back
``proved`` would be a soundness bug.  Every such case is counted in ``unsound``.

A ``finite_check`` stated by a ``formula`` gets flip, strict and nudge on each case's conditions
(the data stay as they are).  The ``twin`` operator reaches every claim, including opaque Python
predicates (``finite_check`` with ``holds``), numeric confirmations and calibration claims, which
no symbolic operator can edit: a twin is **killed** when it comes back as its module declares
(``refuted``; ``proved`` for the twin of a claim the paper calls false, and for a recorded
erratum, whose twin is its corrected statement; ``unknown`` -- not confirmed -- for the twin of a
numeric claim).  A claim with neither a twin nor an operator is listed as not mutable.  Sized
claims are mutated at their smallest default sizes; a twin is decided at the sizes it was built
for.  At most ``MAX_RELATIONS`` inequalities and ``MAX_CONSTANTS`` constants of one conclusion are
edited (the first in pre-order), and only inequalities reached through the conclusion's logical
connectives (not the conditions of a ``Piecewise`` term, which belong to a definition).  Mutants
that are syntactically the original (an edit that changed nothing at the sizes decided) are
reported as equivalent without being decided, and syntactically identical mutants of one claim are
decided once.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy
from sympy.core.relational import Relational
from sympy.logic.boolalg import BooleanFunction

from symcal.claims.core import (
    CasesSpec,
    Claim,
    ExistsSpec,
    FiniteSpec,
    IdentitySpec,
    ImpliesSpec,
    Local,
    NodeSpec,
    formula_truth,
    validate_cases,
)
from symcal.verdicts import Status, Verdict

__all__ = ["FINDING_KINDS", "Mutant", "MutantResult", "SelftestReport", "mutants_of", "run_selftest",
           "undecided_reason"]

NUDGE = sympy.Rational(1, 7)
MAX_SWAPS = 3
# selective mutation: at most this many inequalities (flip, strict) and constants (nudge +-) of
# one conclusion are edited, the first in pre-order -- it bounds the run on long conjunctions
# (Uematsu-Lee's SVOR tables had 8-12 of each) without leaving any claim unmutated
MAX_RELATIONS = 4
MAX_CONSTANTS = 3

_FLIP = {sympy.Lt: sympy.Gt, sympy.Gt: sympy.Lt, sympy.Le: sympy.Ge, sympy.Ge: sympy.Le}
_STRICT = {sympy.Le: sympy.Lt, sympy.Ge: sympy.Gt}
_LOOSE = {sympy.Lt: sympy.Le, sympy.Gt: sympy.Ge}


# what a survivor of each operator says about the claim (``symcal selftest --findings``)
FINDING_KINDS = {
    "drop": "hypothesis not needed",
    "nudge": "bound not tight",
    "strict": "bound never tight",
    "flip": "inequality holds both ways (an equality there)",
    "swap": "symmetric in the exchanged symbols",
    "twin": "declared twin does not break the claim",
    "defined": "the edit only reaches points where the statement is undefined",
}
_DEFINED_ONLY = "holds wherever it is defined"
_WHERE_DEFINED = "where every expression is defined"  # a scope's words for a domain cut by definedness

# the undecided, by reason (a verdict's reason text -> a short label; first match wins)
_UNDECIDED_REASONS = (
    ("not formally zero", "identity: residual not formally zero, no exact test point decides (uninterpreted "
                          "functions)"),
    ("local argument does not apply", "local lemma does not apply"),
    ("failed the exact re-check", "solver model failed the exact re-check"),
    ("no rounding of it passed", "algebraic model: no rational witness re-checked"),
    ("no rational model", "algebraic model: no rational witness re-checked"),
    ("timeout", "timeout"),
    ("time limit", "timeout"),
    ("budget", "timeout"),
    ("killed", "timeout"),
    ("cases proved; undecided", "a case undecided"),
    ("unsupported", "unsupported function"),
    ("not supported", "unsupported function"),
    ("does not confirm", "numeric check not confirmed"),
    ("incomplete", "solver incomplete (z3 unknown)"),
    ("unknown", "solver unknown"),
)


def undecided_reason(why: str) -> str:
    """A short label for why a mutant is undecided (for the table of undecided by reason)."""
    low = why.lower()
    if "cases proved; undecided" in low:  # a family of cases: the reason of its first undecided case
        inner = low.split("undecided:", 1)[1]
        return "a case undecided: " + undecided_reason(inner)
    for needle, label in _UNDECIDED_REASONS:
        if needle in low:
            return label
    return "other: " + (why[:80] or "(no reason given)")


@dataclass(frozen=True)
class Mutant:
    original: Claim
    claim: Claim
    operator: str
    edit: str  # what was changed, in words
    equivalent: str = ""  # non-empty: why this mutant is the same statement as the original
    strengthening: bool = False  # implies the original (kills are expected even if it is false)
    expect: str = ""  # operator "twin": the outcome its module declares (refuted / proved / unknown)
    hypothesis: str = ""  # drop / strict on a hypothesis: its name


@dataclass(frozen=True)
class MutantResult:
    mutant: Mutant
    verdict: Verdict
    outcome: str  # killed | survived | equivalent | undecided | unsound
    why: str = ""

    @property
    def finding(self) -> str:
        """For a survivor: what it says about the claim (one of ``FINDING_KINDS``); else ""."""
        if self.outcome != "survived":
            return ""
        original_false = self.mutant.original.expected is Status.REFUTED or self.mutant.original.finding is not None
        if original_false and self.mutant.operator != "twin":
            return "a false statement made true by the edit"
        if self.why.startswith(_DEFINED_ONLY):
            return FINDING_KINDS["defined"]
        if self.mutant.operator == "strict" and "hypothesis" in self.mutant.edit:
            return "boundary of a hypothesis harmless"
        return FINDING_KINDS.get(self.mutant.operator, "survived")

    def to_json(self) -> dict[str, Any]:
        out = {"claim": self.mutant.original.id, "mutant": self.mutant.claim.id, "operator": self.mutant.operator,
               "edit": self.mutant.edit, "outcome": self.outcome, "status": self.verdict.status.value,
               "why": self.why, "scope": self.verdict.scope, "seconds": round(self.verdict.seconds, 3)}
        if self.outcome == "undecided":
            out["reason"] = undecided_reason(self.why)
        if self.outcome == "survived":
            out["finding"] = self.finding
        return out


@dataclass
class SelftestReport:
    results: list[MutantResult] = field(default_factory=list)
    not_mutable: list[tuple[str, str]] = field(default_factory=list)  # (claim id, why)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # originals not decided as expected
    claims: int = 0  # how many claims were asked about
    seconds: float = 0.0  # wall time of the whole run
    original_seconds: list[tuple[str, float]] = field(default_factory=list)  # (claim id, seconds)

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.results)

    @property
    def claims_mutated(self) -> int:
        """Claims with at least one mutant (symbolic or twin)."""
        return len({r.mutant.original.id for r in self.results})

    def slowest(self, n: int = 10) -> list[dict[str, Any]]:
        """The n slowest decisions of the run (originals and mutants), slowest first."""
        rows: list[dict[str, Any]] = [{"what": cid, "kind": "original", "seconds": round(s, 3)}
                                      for cid, s in self.original_seconds]
        seen: set[int] = set()
        for r in self.results:
            if id(r.verdict) in seen or r.outcome == "equivalent" and "not decided again" in r.why:
                continue
            seen.add(id(r.verdict))
            rows.append({"what": r.mutant.claim.id, "kind": r.mutant.operator, "outcome": r.outcome,
                         "seconds": round(r.verdict.seconds, 3)})
        return sorted(rows, key=lambda row: -row["seconds"])[:n]

    @property
    def kill_rate(self) -> float:
        """Killed over the non-equivalent mutants that were decided."""
        denominator = self.count("killed") + self.count("survived") + self.count("unsound")
        return self.count("killed") / denominator if denominator else 1.0

    def summary(self) -> str:
        return (f"mutants: {len(self.results)} generated, {self.count('killed')} killed, "
                f"{self.count('equivalent')} equivalent, {self.count('survived')} survived (each explained), "
                f"{self.count('undecided')} undecided, {self.count('unsound')} unsound; kill rate "
                f"{100 * self.kill_rate:.1f}% of non-equivalent decided mutants; "
                f"{len(self.not_mutable)} claims without a mutation operator; "
                f"{self.claims_mutated}/{self.claims} claims mutated"
                + (f" ({100 * self.claims_mutated / self.claims:.1f}%)" if self.claims else "")
                + (f"; {self.seconds:.0f} s" if self.seconds else ""))

    def undecided_by_reason(self) -> dict[str, int]:
        """How many mutants are undecided, by reason (most frequent first)."""
        counts: dict[str, int] = {}
        for r in self.results:
            if r.outcome == "undecided":
                key = undecided_reason(r.why)
                counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def findings(self) -> list[MutantResult]:
        """Every survivor, by what it says about its claim (a hypothesis not needed, a bound not
        tight, ...), then by claim id: each is a decided statement, not a failure of the check."""
        order = {k: n for n, k in enumerate(FINDING_KINDS.values())}
        rows = [r for r in self.results if r.outcome == "survived"]
        return sorted(rows, key=lambda r: (order.get(r.finding, len(order)), r.finding, r.mutant.original.id,
                                           r.mutant.claim.id))

    def to_json(self) -> dict[str, Any]:
        return {"generated": len(self.results), "killed": self.count("killed"),
                "equivalent": self.count("equivalent"), "survived": self.count("survived"),
                "undecided": self.count("undecided"), "unsound": self.count("unsound"),
                "undecided_by_reason": self.undecided_by_reason(),
                "findings_by_kind": {k: sum(r.finding == k for r in self.results if r.outcome == "survived")
                                     for k in sorted({r.finding for r in self.results if r.outcome == "survived"})},
                "kill_rate": round(self.kill_rate, 4),
                "claims": self.claims, "claims_mutated": self.claims_mutated,
                "claims_mutated_fraction": round(self.claims_mutated / self.claims, 4) if self.claims else None,
                "seconds": round(self.seconds, 1),
                "by_operator": {op: {o: sum(r.outcome == o for r in self.results if r.mutant.operator == op)
                                     for o in ("killed", "survived", "equivalent", "undecided", "unsound")}
                                for op in sorted({r.mutant.operator for r in self.results})},
                "slowest": self.slowest(),
                "mutants": [r.to_json() for r in self.results],
                "not_mutable": [{"claim": c, "why": w} for c, w in self.not_mutable],
                "originals_not_as_expected": [{"claim": c, "why": w} for c, w in self.skipped]}


# --------------------------------------------------------------------------- sympy edits

def _relationals(expr: Any) -> list[Relational]:
    """Inequalities of the statement ``expr`` in a stable order (pre-order, duplicates once):
    those reached through its logical connectives only.  An inequality inside a term (the
    condition of a ``Piecewise`` defining a loss) is part of a definition, not of the statement:
    flipping it would not be the edit the operator names, and making it strict would not
    strengthen the claim."""
    out: list[Relational] = []

    def walk(e: Any) -> None:
        if isinstance(e, Relational):
            if type(e) in _FLIP and e not in out:
                out.append(e)
        elif isinstance(e, BooleanFunction):
            for a in e.args:
                walk(a)

    if isinstance(expr, sympy.Basic):
        walk(expr)
    return out


def _polarities(expr: Any) -> dict[Relational, set[int]]:
    """For each inequality of the statement ``expr`` (as in :func:`_relationals`), the
    polarities of its occurrences: +1 where making it harder to satisfy strengthens the
    statement (under And, Or, and the consequent of an implication), -1 where it weakens it (the
    premise of an implication, under Not), both inside an equivalence or an exclusive or."""
    out: dict[Relational, set[int]] = {}

    def walk(e: Any, sign: int) -> None:
        if isinstance(e, Relational):
            if type(e) in _FLIP:
                out.setdefault(e, set()).add(sign)
        elif isinstance(e, sympy.Implies):
            walk(e.args[0], -sign)
            walk(e.args[1], sign)
        elif isinstance(e, sympy.Not):
            walk(e.args[0], -sign)
        elif isinstance(e, sympy.And | sympy.Or):
            for a in e.args:
                walk(a, sign)
        elif isinstance(e, BooleanFunction):  # Equivalent, Xor, ITE: both ways
            for a in e.args:
                walk(a, sign)
                walk(a, -sign)

    if isinstance(expr, sympy.Basic):
        walk(expr, 1)
    return out


def _strict_edit(r: Relational, polarity: set[int]) -> tuple[Relational, bool] | None:
    """The operator ``strict`` on the relation ``r`` and whether the edit strengthens the
    statement: a non-strict inequality made strict where it occurs positively (strengthens), a
    strict one made non-strict where it occurs only negatively, in the premise of an implication
    (strengthens), a non-strict one made strict where it occurs both ways (a bi-implication: a
    change in both directions).  None for a non-strict inequality that occurs only negatively:
    making it strict would only weaken the claim, a mutant that a true claim always survives
    and that a false one may well turn true."""
    if polarity == {-1}:
        return (_LOOSE[type(r)](*r.args), True) if type(r) in _LOOSE else None
    if type(r) in _STRICT and polarity:
        return _STRICT[type(r)](*r.args), polarity == {1}
    return None


def _walk_constants(expr: Any, parent: Any = None) -> list[sympy.Number]:
    """Numeric constants outside exponents, orders of derivatives and function arguments
    (``exp(2 x)``, the pieces of a ``Piecewise``: a definition, not a bound), not the sign factor
    -1 of a product."""
    if isinstance(expr, sympy.Number):
        if not expr.is_finite or (isinstance(parent, sympy.Mul) and abs(expr) == 1):
            return []
        return [expr]
    if not isinstance(expr, sympy.Basic) or isinstance(expr, sympy.Function):
        return []
    args = expr.args[:1] if isinstance(expr, sympy.Pow | sympy.Derivative) else expr.args
    return [c for a in args for c in _walk_constants(a, expr)]


def _constants(expr: Any) -> list[sympy.Number]:
    """Numeric constants of ``expr`` worth nudging (each value once); 0 stands for the zero side
    of inequalities such as ``x >= 0``."""
    out: list[sympy.Number] = []
    for c in _walk_constants(expr):
        if c not in out:
            out.append(c)
    zero_side = [r for r in _relationals(expr) if r.rhs == 0 or r.lhs == 0]
    if zero_side and sympy.Integer(0) not in out:
        out.append(sympy.Integer(0))
    return out


def _replace_constant(expr: Any, c: sympy.Number, new: Any, parent: Any = None) -> Any:
    if isinstance(expr, sympy.Number):
        return new if expr == c and not (isinstance(parent, sympy.Mul) and abs(expr) == 1) else expr
    if not isinstance(expr, sympy.Basic) or not expr.args or isinstance(expr, sympy.Function):
        return expr
    if isinstance(expr, sympy.Pow):
        return sympy.Pow(_replace_constant(expr.args[0], c, new, expr), expr.args[1])
    if isinstance(expr, sympy.Derivative):  # the orders of differentiation are not values
        return sympy.Derivative(_replace_constant(expr.args[0], c, new, expr), *expr.args[1:])
    return expr.func(*[_replace_constant(a, c, new, expr) for a in expr.args])


def _nudge_number(expr: Any, c: sympy.Number, delta: sympy.Rational) -> Any:
    if c == 0:  # zero is implicit in "x >= 0": move the right-hand side of those relations
        def shift(r: Relational) -> Relational:
            if r.rhs == 0:
                return type(r)(r.lhs, delta)
            if r.lhs == 0:
                return type(r)(delta, r.rhs)
            return r
        return expr.xreplace({r: shift(r) for r in _relationals(expr)})
    return _replace_constant(expr, c, c + delta)


def _family(s: sympy.Symbol) -> str:
    m = re.match(r"[A-Za-z]+", s.name)
    return (m.group(0) if m else s.name) + str(sorted(s.assumptions0.items()))


def _swappable(expr: Any) -> list[tuple[sympy.Symbol, sympy.Symbol]]:
    if not isinstance(expr, sympy.Basic):
        return []
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    pairs = [(a, b) for k, a in enumerate(syms) for b in syms[k + 1:] if _family(a) == _family(b)]
    return pairs[:MAX_SWAPS]


def _swap(expr: Any, a: sympy.Symbol, b: sympy.Symbol) -> Any:
    if isinstance(expr, list | tuple):
        return type(expr)(_swap(e, a, b) for e in expr)
    if isinstance(expr, dict):
        return {_swap(k, a, b): _swap(v, a, b) for k, v in expr.items()}
    if isinstance(expr, sympy.Basic):
        return expr.xreplace({a: b, b: a})
    return expr


def _as_list(x: Any) -> list[Any]:
    return list(x) if isinstance(x, list | tuple) else [x]


def _hyp_key(hyps: dict[str, Any]) -> set[Any]:
    return {_canon(sympy.sympify(e)) for v in hyps.values() for e in _as_list(v)}


# --------------------------------------------------------------------------- node edits

def _z3_flip(e: Any) -> Any:
    """The z3 boolean ``e`` with every inequality reversed (x <= y becomes x >= y)."""
    import z3

    if not z3.is_app(e):
        return e
    k = e.decl().kind()
    kids = [_z3_flip(c) for c in e.children()]
    flips = {z3.Z3_OP_LE: lambda x, y: x >= y, z3.Z3_OP_GE: lambda x, y: x <= y,
             z3.Z3_OP_LT: lambda x, y: x > y, z3.Z3_OP_GT: lambda x, y: x < y}
    if k in flips and len(kids) == 2:
        return flips[k](*kids)
    if k == z3.Z3_OP_IMPLIES:  # the consequent only, as in _flip_all
        return z3.Implies(e.children()[0], kids[1])
    if not kids or not z3.is_bool(e):
        return e
    return e.decl()(*kids)


def _flip_all(expr: Any) -> Any:
    """Every inequality of the statement reversed -- of an implication, those of its consequent
    only: reversing the premise too would give, for antisymmetric differences d_ji = -d_ij and
    hypotheses invariant under reversing every edge, the same statement again."""
    if isinstance(expr, Relational):
        return _FLIP[type(expr)](*expr.args) if type(expr) in _FLIP else expr
    if isinstance(expr, sympy.Implies):
        return sympy.Implies(expr.args[0], _flip_all(expr.args[1]))
    if isinstance(expr, BooleanFunction):
        return expr.func(*[_flip_all(a) for a in expr.args])
    return expr


def _node_flipped(local: Local) -> Local:
    """The local constraint with every inequality reversed, the same in all three evaluations
    (z3, sympy, and exact Fractions -- the last through the sympy form, so that the exact
    re-check of a counterexample evaluates the mutant, not the original)."""
    from symcal.backends import nodes

    def fn(a: Any, *t: int) -> Any:
        if isinstance(a, nodes.ExactWeights):
            sym = nodes._SympyWeights(tuple(a.nodes), generic=False)
            expr = _flip_all(sympy.sympify(local.fn(sym, *t)))
            values = {s: sympy.Rational(a.d(*ij)) if s.name.startswith("d_") else sympy.Rational(a(*ij))
                      for s, ij in sym.symbol_nodes.items()}
            return bool(expr.xreplace(values))
        out = local.fn(a, *t)
        if isinstance(out, sympy.Basic):
            return _flip_all(out)
        if isinstance(out, bool):  # pragma: no cover - only the exact accessor gives bools
            return out
        return _z3_flip(out)

    return Local(local.arity, fn, f"flipped({local.text})")


# --------------------------------------------------------------------------- mutants

def _mid(claim: Claim, op: str, k: int) -> str:
    return f"{claim.id}.mutant_{op}{k}"


def _replace_spec(claim: Claim, mid: str, spec: Any, **extra: Any) -> Claim:
    return dataclasses.replace(claim, id=mid, spec=spec, expected=None, finding=None, scope="", **extra)


def _smallest_sizes(claim: Claim) -> Claim:
    if claim.sizes is None or claim.strategy == "local_lemma":
        return claim
    lo, hi = claim.sizes.default
    return dataclasses.replace(claim, sizes=dataclasses.replace(claim.sizes, default=(lo, min(hi, lo + 1))))


_MAX_EXPAND_OPS = 300  # beyond this an expansion may take minutes: call the mutant non-equivalent


def _canon(e: Any) -> Any:
    """A canonical form of a statement for a syntactic comparison: each relation as
    (``<``, ``<=``, ``=``, ``!=``; ``lhs - rhs`` expanded, moved to one side), conjunctions and
    disjunctions as sets.  Cheap by design (no simplify: it can take minutes on piecewise terms);
    a term too large to expand is kept as it is."""
    if isinstance(e, Relational):
        d = e.lhs - e.rhs
        if sympy.count_ops(d) > _MAX_EXPAND_OPS or d.has(sympy.Piecewise):
            return ("raw", e)
        if isinstance(e, sympy.Gt | sympy.Ge):
            return ("<" if isinstance(e, sympy.Gt) else "<=", sympy.expand(-d))
        if isinstance(e, sympy.Lt | sympy.Le):
            return ("<" if isinstance(e, sympy.Lt) else "<=", sympy.expand(d))
        pm = sorted((sympy.expand(d), sympy.expand(-d)), key=sympy.srepr)[0]
        return (type(e).__name__, pm)
    if isinstance(e, sympy.And | sympy.Or):
        return (type(e).__name__, frozenset(_canon(x) for x in e.args))
    if isinstance(e, BooleanFunction):
        return (type(e).__name__, tuple(_canon(x) for x in e.args))
    return ("raw", e)


def _same_relation(e1: Any, e2: Any) -> bool:
    """The same statement up to the canonical form of :func:`_canon`.  False when unsure: the
    mutant is then decided, and if it survives it is reported with its reason, never silently
    called equivalent."""
    return bool(_canon(e1) == _canon(e2))


def _same_under_swap(concl: Any, hyps: dict[str, Any] | None, a: sympy.Symbol, b: sympy.Symbol) -> bool:
    """The mutant that exchanges a and b in the conclusion is the original statement.

    Either exchanging them maps the conclusion onto itself, or it maps the set of hypotheses
    (for an identity: its other side and its conditions) onto itself: every symbol is
    universally quantified, so renaming a <-> b throughout turns ``forall x: H(x) => C(swap x)``
    into ``forall y: H(swap y) => C(y)``, which is the original when H is invariant (a and b
    are of one family, with the same sympy assumptions).  The invariance is checked on the
    canonical forms of :func:`_canon` (exact, no simplify)."""
    swapped = _swap(concl, a, b)
    if (swapped == concl or _same_relation(swapped, concl)) and hyps is None:
        return True
    if hyps is None:
        return False
    return _hyp_key(_swap(hyps, a, b)) == _hyp_key(hyps)


def _conclusion_mutants(claim: Claim, concl: Callable[[int | None], Any], rebuild: Callable[[Callable], Any],
                        m0: int | None, hyps_at: Callable[[int | None], dict[str, Any]] | None) -> list[Mutant]:
    out: list[Mutant] = []
    sizes: list[int | None] = [m0]
    if claim.sizes is not None and claim.strategy != "local_lemma":
        lo, hi = claim.sizes.default
        sizes = list(range(lo, hi + 1))
    base = concl(m0)
    for k, rel in enumerate(_relationals(base)[:MAX_RELATIONS]):
        def flipped(m: int | None, k: int = k) -> Any:
            e = concl(m)
            rels = _relationals(e)
            return e.xreplace({rels[k]: _FLIP[type(rels[k])](*rels[k].args)}) if k < len(rels) else e
        out.append(Mutant(claim, _replace_spec(claim, _mid(claim, "flip", k), rebuild(flipped)), "flip",
                          f"reverse {rel}"))
        # strict strengthens: a non-strict inequality made strict where it occurs positively, a strict
        # one made non-strict in the premise of an implication (making a premise strict would weaken
        # the claim: a mutant that a true claim always survives, and no strengthening of a false one)
        edit = _strict_edit(rel, _polarities(base).get(rel, set()))
        if edit is not None:
            def strict(m: int | None, k: int = k) -> Any:
                e = concl(m)
                rels = _relationals(e)
                r = rels[k] if k < len(rels) else None
                new = _strict_edit(r, _polarities(e).get(r, set())) if r is not None else None
                return e.xreplace({r: new[0]}) if new is not None else e
            what = (f"make {rel} strict" if type(rel) in _STRICT
                    else f"make {rel} non-strict in the premise of an implication")
            out.append(Mutant(claim, _replace_spec(claim, _mid(claim, "strict", k), rebuild(strict)), "strict",
                              what, strengthening=edit[1]))
    for k, c in enumerate(_constants(base)[:MAX_CONSTANTS]):
        for sign, delta in (("plus", NUDGE), ("minus", -NUDGE)):
            def nudged(m: int | None, c: Any = c, delta: Any = delta) -> Any:
                return _nudge_number(concl(m), c, delta)
            what = "the zero side of each inequality" if c == 0 else f"constant {c}"
            out.append(Mutant(claim, _replace_spec(claim, _mid(claim, f"nudge_{sign}", k), rebuild(nudged)),
                              "nudge", f"move {what} by {'+' if delta > 0 else '-'}1/7"))
    for k, (a, b) in enumerate(_swappable(base)):
        def swapped(m: int | None, a: Any = a, b: Any = b) -> Any:
            return _swap(concl(m), a, b)
        equivalent = ""
        if all(_same_under_swap(concl(m), hyps_at(m) if hyps_at else None, a, b) for m in sizes):
            equivalent = (f"the same statement: the hypotheses are invariant under exchanging {a} and {b}, so the "
                          f"mutant is the original with these two bound symbols renamed (at every size checked)")
            if all(_swap(concl(m), a, b) == concl(m) or _same_relation(_swap(concl(m), a, b), concl(m))
                   for m in sizes):
                equivalent = f"the claim is the same with {a} and {b} exchanged (at every size checked)"
        out.append(Mutant(claim, _replace_spec(claim, _mid(claim, "swap", k), rebuild(swapped)), "swap",
                          f"exchange {a} and {b} in the conclusion", equivalent=equivalent))
    return out


def _first_flipped(e: Any) -> Any:
    rels = _relationals(e)
    return e.xreplace({rels[0]: _FLIP[type(rels[0])](*rels[0].args)}) if rels else e


def _first_strict(e: Any) -> Any:
    """The first inequality of ``e`` that has a strengthening ``strict`` edit (see
    :func:`_strict_edit`), edited."""
    pol = _polarities(e)
    for r in _relationals(e):
        edit = _strict_edit(r, pol.get(r, set()))
        if edit is not None and edit[1]:
            return e.xreplace({r: edit[0]})
    return e


def _first_nudged(e: Any, delta: Any) -> Any:
    cs = _constants(e)
    return _nudge_number(e, cs[0], delta) if cs else e


def _loosened(rels: list[Any]) -> list[Any]:
    return [(_LOOSE[type(r)](*r.args) if isinstance(r, Relational) and type(r) in _LOOSE else r) for r in rels]


def _cases_mutants(claim: Claim, spec: CasesSpec, m0: int | None) -> list[Mutant]:
    """Operators for a family of implications: each edit is applied to every case (a case the
    edit does not touch stays as it is); a mutant that changes no case at the smallest size is
    not generated."""
    build = spec.cases
    base = validate_cases(build(m0), claim.id, m0)

    def mapped(concl_edit: Callable[[Any], Any] | None = None,
               hyp_edit: tuple[str, Callable[[list[Any]], list[Any]]] | None = None) -> CasesSpec:
        def cases(m: int | None) -> list[Any]:
            out = []
            for label, hyps, concl in validate_cases(build(m), claim.id, m):
                if hyp_edit is not None and hyp_edit[0] in hyps:
                    hyps = {**hyps, hyp_edit[0]: hyp_edit[1](hyps[hyp_edit[0]])}
                out.append((label, hyps, concl_edit(concl) if concl_edit is not None else concl))
            return out
        return dataclasses.replace(spec, cases=cases)

    def touches(concl_edit: Callable[[Any], Any]) -> bool:
        return any(concl_edit(c) != c for _, _, c in base)

    edits: list[tuple[str, str, str, Callable[[Any], Any], bool]] = [
        ("flip", "flip", "reverse the first inequality of each case's conclusion", _first_flipped, False),
        ("flip", "flip_all", "reverse every inequality of each case's conclusion (of its consequent, for an "
         "implication)", _flip_all, False),
        ("strict", "strict", "make the first non-strict inequality of each case's conclusion strict (or, in "
         "the premise of an implication, the first strict one non-strict)", _first_strict, True),
        ("nudge", "nudge_plus", "move the first constant (or the zero side) of each case's conclusion by +1/7",
         lambda e: _first_nudged(e, NUDGE), False),
        ("nudge", "nudge_minus", "move the first constant (or the zero side) of each case's conclusion by -1/7",
         lambda e: _first_nudged(e, -NUDGE), False),
    ]
    out: list[Mutant] = []
    for op, tag, what, edit, stronger in edits:
        if not touches(edit):
            continue
        if tag == "flip_all" and all(_flip_all(c) == _first_flipped(c) for _, _, c in base):
            continue  # one inequality per case: the same mutant as "flip"
        out.append(Mutant(claim, _replace_spec(claim, _mid(claim, tag, 0), mapped(edit)), op, what,
                          strengthening=stronger))
    for name in claim.hypothesis_names:
        out.append(Mutant(claim, claim.without(name).replace(id=_mid(claim, f"drop_{name}", 0)), "drop",
                          f"drop hypothesis {name} from every case", strengthening=True, hypothesis=name))
        if any(_loosened(h[name]) != h[name] for _, h, _ in base if name in h):
            out.append(Mutant(claim, _replace_spec(claim, _mid(claim, f"strict_hyp_{name}", 0),
                                                   mapped(hyp_edit=(name, _loosened))),
                              "strict", f"make the strict inequalities of hypothesis {name} non-strict in every case",
                              strengthening=True, hypothesis=name))
    return out


def _formula_mutants(claim: Claim, spec: FiniteSpec, m0: int | None) -> list[Mutant]:
    """Operators for a ``finite_check`` stated by a ``formula``: each edit is applied to every
    case's conditions (their conjunction), the data left as they are; a mutant that changes no
    case at the smallest size is not generated."""
    import functools

    assert spec.formula is not None
    formula0 = spec.formula

    def joined(case: Any) -> tuple[Any, Any]:
        conds, values = formula0(case)
        conds = list(conds) if isinstance(conds, list | tuple) else [conds]
        return (conds[0] if len(conds) == 1 else sympy.And(*conds, evaluate=False)), values

    try:
        base = [joined(case)[0] for case in spec.cases(m0)]
    except Exception:  # noqa: BLE001 - a malformed formula is the check's own error, reported when decided
        return []

    def mapped(edit: Callable[[Any], Any]) -> FiniteSpec:
        def formula(case: Any) -> tuple[Any, Any]:
            cond, values = joined(case)
            return edit(cond), values
        return dataclasses.replace(spec, formula=formula, holds=functools.partial(
            formula_truth, formula, where=f"formula of {claim.id} (mutated)", allow_constant=True))

    edits: list[tuple[str, str, str, Callable[[Any], Any], bool]] = [
        ("flip", "flip", "reverse the first inequality of each case's conditions", _first_flipped, False),
        ("strict", "strict", "make the first non-strict inequality of each case's conditions strict",
         _first_strict, True),
        ("nudge", "nudge_plus", "move the first constant of each case's conditions by +1/7",
         lambda e: _first_nudged(e, NUDGE), False),
        ("nudge", "nudge_minus", "move the first constant of each case's conditions by -1/7",
         lambda e: _first_nudged(e, -NUDGE), False),
    ]
    return [Mutant(claim, _replace_spec(claim, _mid(claim, tag, 0), mapped(edit)), op, what, strengthening=stronger)
            for op, tag, what, edit, stronger in edits if any(edit(c) != c for c in base)]


def _implies_mutants(claim: Claim, spec: ImpliesSpec, m0: int | None) -> list[Mutant]:
    """Mutants of an implication: its conclusion's edits, each hypothesis dropped, and each
    hypothesis's strict inequalities made non-strict."""
    hyps_now = {k: v(m0) for k, v in spec.hypotheses.items()}

    def hyps_at(m: int | None) -> dict[str, Any]:
        return {k: v(m) for k, v in spec.hypotheses.items()}

    out = _conclusion_mutants(claim, spec.conclusion, lambda f: dataclasses.replace(spec, conclusion=f), m0, hyps_at)
    for name in claim.hypothesis_names:
        out.append(Mutant(claim, claim.without(name).replace(id=_mid(claim, f"drop_{name}", 0)), "drop",
                          f"drop hypothesis {name}", strengthening=True, hypothesis=name))
        strict_rels = [r for r in _as_list(hyps_now[name]) if isinstance(r, Relational) and type(r) in _LOOSE]
        if strict_rels:
            def loosened(m: int | None, name: str = name) -> Any:
                return [(_LOOSE[type(r)](*r.args) if isinstance(r, Relational) and type(r) in _LOOSE else r)
                        for r in _as_list(spec.hypotheses[name](m))]
            hyps = dict(spec.hypotheses)
            hyps[name] = loosened
            out.append(Mutant(claim, _replace_spec(claim, _mid(claim, f"strict_hyp_{name}", 0),
                                                   dataclasses.replace(spec, hypotheses=hyps)),
                              "strict", f"make the strict inequalities of hypothesis {name} non-strict",
                              strengthening=True, hypothesis=name))
    return out


def _identity_mutants(claim: Claim, spec: IdentitySpec, m0: int | None) -> list[Mutant]:
    """Mutants of an identity: its right-hand side nudged or swapped, else 1/7 added to it."""
    out = [mu for mu in _conclusion_mutants(claim, spec.rhs, lambda f: dataclasses.replace(spec, rhs=f), m0,
                                            None) if mu.operator in ("nudge", "swap")]
    if not out:
        def plus(m: int | None) -> Any:
            rhs = spec.rhs(m)
            if isinstance(rhs, sympy.MatrixBase):  # nudge one entry
                rhs = rhs.copy()
                rhs[0] = rhs[0] + NUDGE
                return rhs
            return rhs + NUDGE
        out.append(Mutant(claim, _replace_spec(claim, _mid(claim, "nudge_plus", 0),
                                               dataclasses.replace(spec, rhs=plus)),
                          "nudge", "add 1/7 to the right-hand side"))
    return out


def _exists_mutants(claim: Claim, spec: ExistsSpec, m0: int | None) -> list[Mutant]:
    """Mutants of an existence claim: the inequalities of each constraint reversed."""
    out: list[Mutant] = []
    for name in claim.hypothesis_names:
        cons = spec.constraints[name]
        if not any(isinstance(r, Relational) and type(r) in _FLIP for r in _as_list(cons(m0))):
            continue
        def flipped_c(m: int | None, cons: Any = cons) -> Any:
            return [(_FLIP[type(r)](*r.args) if isinstance(r, Relational) and type(r) in _FLIP else r)
                    for r in _as_list(cons(m))]
        new = dict(spec.constraints)
        new[name] = flipped_c
        out.append(Mutant(claim, _replace_spec(claim, _mid(claim, f"flip_{name}", 0),
                                               dataclasses.replace(spec, constraints=new)),
                          "flip", f"reverse the inequalities of constraint {name}"))
    return out


def _node_mutants(claim: Claim, spec: NodeSpec) -> list[Mutant]:
    """Mutants of a node claim: its conclusion flipped, and each hypothesis dropped."""
    out = [Mutant(claim, _replace_spec(claim, _mid(claim, "flip", 0),
                                       dataclasses.replace(spec, conclusion=_node_flipped(spec.conclusion))),
                  "flip", "reverse every inequality of the conclusion (of its consequent, for an implication)")]
    for name in claim.hypothesis_names:
        w = claim.without(name)
        out.append(Mutant(claim, w.replace(id=_mid(claim, f"drop_{name}", 0),
                                           strategy=claim.strategy), "drop",
                          f"drop hypothesis {name}", strengthening=True, hypothesis=name))
    return out


def _interval_mutants(claim: Claim, spec: Any) -> list[Mutant]:
    """Mutants of an interval claim: its relation reversed, and its right-hand side moved by 1/7."""
    rel = spec.relation
    flip = {">=": "<=", "<=": ">=", ">": "<", "<": ">"}
    out = [Mutant(claim, _replace_spec(claim, _mid(claim, "flip", 0),
                                       dataclasses.replace(spec, relation=flip.get(rel, rel))),
                  "flip", f"reverse {rel}")]
    def rhs_plus(m: int | None) -> Any:
        return spec.rhs(m) + (NUDGE if rel in (">=", ">") else -NUDGE)
    out.append(Mutant(claim, _replace_spec(claim, _mid(claim, "nudge", 0), dataclasses.replace(spec, rhs=rhs_plus)),
                      "nudge", f"move the right-hand side by 1/7 against {rel}"))
    return out


def mutants_of(claim: Claim) -> tuple[list[Mutant], str]:
    """The mutants of ``claim`` and, when there are none, why."""
    claim = _smallest_sizes(claim)
    spec = claim.spec
    m0 = claim.sizes.default[0] if claim.sizes is not None else None
    out: list[Mutant] = []
    if isinstance(spec, ImpliesSpec):
        out += _implies_mutants(claim, spec, m0)
    elif isinstance(spec, IdentitySpec):
        out += _identity_mutants(claim, spec, m0)
    elif isinstance(spec, ExistsSpec):
        out += _exists_mutants(claim, spec, m0)
    elif isinstance(spec, NodeSpec):
        out += _node_mutants(claim, spec)
    elif isinstance(spec, CasesSpec):
        out += _cases_mutants(claim, spec, m0)
    elif isinstance(spec, FiniteSpec) and spec.formula is not None:
        out += _formula_mutants(claim, spec, m0)
    elif claim.kind == "interval" and hasattr(spec, "relation"):
        out += _interval_mutants(claim, spec)
    if out:
        return out, ""
    if claim.kind == "finite":
        return [], "an exhaustive check of a Python predicate: no symbolic operator applies (negative twin in tests)"
    if claim.kind == "numeric":
        return [], "a numeric confirmation never refutes, so a mutant cannot be killed (negative twin in tests)"
    return [], f"no mutation operator for this {claim.kind} claim's expressions"


def _survivor_reason(mu: Mutant) -> str:
    op = mu.operator
    if op == "flip":
        return ("the conclusion still holds with this inequality reversed: under the hypotheses it is an "
                "equality, or it sits in a part of the conclusion that is never needed")
    if op == "strict":
        return ("the stronger form also holds: the printed inequality is never tight there (for a hypothesis: "
                "its boundary case is harmless)")
    if op == "nudge":
        return "the constant is not tight: the claim survives moving it by 1/7"
    if op == "drop":
        return "FINDING: the hypothesis is not needed for this claim (within the scope checked)"
    if op == "swap":
        return "the conclusion also holds with the two symbols exchanged"
    return "survived"


def _classify_twin(mu: Mutant, v: Verdict) -> MutantResult:
    from symcal.explore.twins import meets

    if meets(mu.expect, v):
        return MutantResult(mu, v, "killed", f"{v.status.value}, as declared")
    if mu.expect == "unknown" and v.status is Status.CONFIRMED_NUMERICALLY:
        return MutantResult(mu, v, "survived", "FINDING: the numeric check confirms the twin of a numeric claim "
                                               "too: its margin does not tell the claim from its twin")
    if v.status.decisive:
        if mu.expect == "refuted":
            why = ("FINDING: the declared negative twin holds: the edit does not break the claim (a hypothesis "
                   "not needed, a bound not tight), or the check cannot tell them apart")
        else:
            why = (f"FINDING: the twin was expected to hold ({mu.expect}) but came back {v.status.value}: the "
                   "repair does not repair the statement, or the check cannot tell them apart")
        return MutantResult(mu, v, "survived", why)
    return MutantResult(mu, v, "undecided", v.reason or v.status.value)


def classify(mu: Mutant, v: Verdict) -> MutantResult:
    """Killed, survived (with its reason), equivalent, undecided, or unsound."""
    if mu.operator == "twin":
        return _classify_twin(mu, v)
    orig_expected = mu.original.expected
    original_false = orig_expected is Status.REFUTED or mu.original.finding is not None
    if original_false:
        if v.status is Status.PROVED and mu.strengthening:
            return MutantResult(mu, v, "unsound", "a strengthened version of a refuted claim was proved")
        if v.status is Status.REFUTED:
            return MutantResult(mu, v, "killed", "still refuted")
        if v.status.decisive:
            return MutantResult(mu, v, "survived", "the edit turned a false statement into a true one")
        return MutantResult(mu, v, "undecided", v.reason)
    if mu.equivalent:
        ok = v.status is not Status.REFUTED
        return MutantResult(mu, v, "equivalent" if ok else "unsound",
                            mu.equivalent if ok else "an equivalent mutant was refuted")
    if v.status is Status.REFUTED:
        return MutantResult(mu, v, "killed", "refuted with re-checked evidence")
    if v.status in (Status.PROVED, Status.WITNESSED, Status.CONFIRMED_ON_SAMPLES):
        return MutantResult(mu, v, "survived", _survivor_reason(mu))
    return MutantResult(mu, v, "undecided", v.reason or v.status.value)


def _fingerprint(claim: Claim) -> str | None:
    """The statement a symbolic claim makes at the sizes it is decided for, as text (sympy's
    ``srepr``), or None when it is not a plain sympy statement (node constraints, predicates,
    numeric runs, witnesses): two claims with one fingerprint are the same query."""
    spec = claim.spec
    sizes: list[int | None] = [None]
    if claim.sizes is not None:
        lo, hi = claim.sizes.default
        sizes = list(range(lo, hi + 1))

    def text(x: Any) -> str:
        if isinstance(x, dict):
            return "{" + ", ".join(f"{k!r}: {text(v)}" for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))) + "}"
        if isinstance(x, list | tuple):
            return "[" + ", ".join(text(e) for e in x) + "]"
        return sympy.srepr(x) if isinstance(x, sympy.Basic) else repr(x)

    try:
        parts: list[str] = [claim.kind, claim.strategy, repr(claim.sizes), type(spec).__name__]
        for m in sizes:
            if isinstance(spec, ImpliesSpec):
                parts.append(text({k: _as_list(v(m)) for k, v in spec.hypotheses.items()}) + text(spec.conclusion(m)))
            elif isinstance(spec, IdentitySpec):
                parts.append(text([spec.lhs(m), spec.rhs(m), spec.conditions(m)]))
            elif isinstance(spec, CasesSpec):
                parts.append(text([list(case) for case in spec.cases(m)]))
            elif isinstance(spec, ExistsSpec) and spec.witness is None:
                parts.append(text({k: _as_list(v(m)) for k, v in spec.constraints.items()}))
            else:
                return None
    except Exception:  # a builder that fails here fails in the backend too, with its message
        return None
    return "\n".join(parts)


# --------------------------------------------------------------------------- follow-up decisions

def _statements(claim: Claim, m: int | None) -> list[tuple[str, dict[str, list[Any]], Any]] | None:
    """The implications ``claim`` makes at size m, as (label, hypotheses, conclusion) cases."""
    spec = claim.spec
    if isinstance(spec, ImpliesSpec):
        return [("statement", {k: _as_list(v(m)) for k, v in spec.hypotheses.items()}, spec.conclusion(m))]
    if isinstance(spec, CasesSpec):
        return [(str(lb), {k: _as_list(v) for k, v in h.items()}, c) for lb, h, c in validate_cases(spec.cases(m),
                                                                                                    claim.id, m)]
    return None


def _query(claim: Claim, qid: str, cases: Callable[[int | None], list[Any]]) -> Claim | None:
    """A family of implications at the sizes ``claim`` is decided for (None when it is empty or
    cannot be built: then nothing is claimed from it)."""
    m0 = claim.sizes.default[0] if claim.sizes is not None else None
    try:
        if not cases(m0):
            return None
    except Exception:  # a builder that cannot be rewritten: no follow-up
        return None
    return dataclasses.replace(claim, id=qid, kind="implies_cases", spec=CasesSpec(cases), expected=None,
                               finding=None, scope="", hypothesis_names=(), strategy="per_size")


def _equivalence_query(mu: Mutant) -> Claim | None:
    """A claim whose proof shows that the survivor ``mu`` is the original statement (an
    equivalent mutant), or None when no such query applies.

    * ``drop`` of hypothesis H: the other hypotheses imply H (in every case that has it), so
      dropping it changes nothing;
    * ``strict`` on hypothesis H: the other hypotheses and H made non-strict imply H;
    * an edit of the conclusion (``flip``, ``strict``, ``nudge``): the edited conclusion is
      equivalent to the original for all values of the symbols -- with no hypothesis, only the
      symbols' declared assumptions, since under the hypotheses both hold whenever the mutant
      survives, which would say nothing.
    """
    orig = _smallest_sizes(mu.original)
    name = mu.hypothesis
    if mu.operator in ("drop", "strict") and name:
        loosen = mu.operator == "strict"

        def implied(m: int | None) -> list[Any]:
            out = []
            for label, hyps, _ in _statements(orig, m) or []:
                if name not in hyps:
                    continue
                rest = {k: v for k, v in hyps.items() if k != name}
                if loosen:
                    rest[f"{name}_nonstrict"] = _loosened(hyps[name])
                out.append((label, rest, sympy.And(*hyps[name])))
            return out
        return _query(orig, f"{mu.claim.id}.equivalence", implied)
    if mu.operator in ("flip", "strict", "nudge") and not name:
        def same(m: int | None) -> list[Any]:
            a, b = _statements(orig, m), _statements(_smallest_sizes(mu.claim), m)
            if a is None or b is None or len(a) != len(b):
                return []
            return [(la, {}, sympy.Equivalent(ca, cb)) for (la, _, ca), (_, _, cb) in zip(a, b, strict=True)
                    if ca != cb]
        return _query(orig, f"{mu.claim.id}.equivalence", same)
    return None


def _denominators(exprs: Sequence[Any]) -> list[Any]:
    """The non-constant denominators of ``exprs`` (bases of negative integer powers)."""
    out: list[Any] = []
    for e in exprs:
        if not isinstance(e, sympy.Basic):
            continue
        for p in sympy.preorder_traversal(e):
            if (isinstance(p, sympy.Pow) and p.exp.is_Integer and p.exp < 0 and p.base.free_symbols
                    and p.base not in out):
                out.append(p.base)
    return out


def _defined_query(mu: Mutant) -> Claim | None:
    """The mutant with every denominator of its statement required non-zero, or None when it
    has none: proved, it says the mutant holds wherever it is defined, and z3's counterexamples
    were points where the statement divides by zero (undefined in exact arithmetic)."""
    claim = _smallest_sizes(mu.claim)

    def guarded(m: int | None) -> list[Any]:
        out = []
        for label, hyps, concl in _statements(claim, m) or []:
            dens = _denominators([e for v in hyps.values() for e in v] + [concl])
            if dens:
                out.append((label, {**hyps, "denominators_nonzero": [sympy.Ne(d, 0) for d in dens]}, concl))
        return out
    return _query(claim, f"{mu.claim.id}.where_defined", guarded)


def _needed_query(mu: Mutant) -> Claim | None:
    """For a survivor that dropped hypothesis H and was proved only where its expressions are defined:
    "the other hypotheses keep every expression defined" (None when the statement has no definedness
    requirement).  Refuted (a re-checked point where the others hold and an expression is undefined), H
    kept the statement defined: the mutant holds wherever it is defined, which is no finding that H is
    not needed (``1/x**2 > 0`` without ``x > 0`` is proved only for x != 0)."""
    from symcal.exact.assumptions import definedness

    claim = _smallest_sizes(mu.claim)

    def keeps_defined(m: int | None) -> list[Any]:
        out = []
        for label, hyps, concl in _statements(claim, m) or []:
            needs = definedness([e for v in hyps.values() for e in v] + [concl])
            if needs:
                out.append((label, hyps, sympy.And(*needs)))
        return out
    return _query(claim, f"{mu.claim.id}.keeps_defined", keeps_defined)


def _shown_witness(v: Verdict) -> str:
    vals = getattr(v.evidence, "values", None)
    return ", ".join(f"{k} = {x}" for k, x in vals.items()) if isinstance(vals, dict) and vals else v.scope


def _bounded_query(mu: Mutant) -> Claim | None:
    """An all-sizes mutant (local lemma) decided at its two smallest sizes: a counterexample
    there refutes the statement for all sizes."""
    c = mu.claim
    if c.strategy != "local_lemma" or c.sizes is None:
        return None
    lo = c.sizes.default[0]
    return dataclasses.replace(c, id=f"{c.id}.bounded", strategy="per_size",
                               sizes=dataclasses.replace(c.sizes, default=(lo, lo + 1)))


_ALGEBRAIC = "no rounding of it passed the exact re-check"
_LOCAL_FAILS = "the local argument does not apply"


def _control(q: Claim) -> Claim:
    """The query ``q`` with each case's conclusion negated: it must come back refuted (a witness
    where the hypotheses hold and the conclusion too) for a proof of ``q`` to count -- an engine
    that proves everything would prove both (and a query with contradictory hypotheses too)."""
    build = q.spec.cases

    def negated(m: int | None) -> list[Any]:
        return [(label, hyps, sympy.Not(concl)) for label, hyps, concl in build(m)]
    return dataclasses.replace(q, id=f"{q.id}.control", spec=CasesSpec(negated))


def _follow_ups(results: list[MutantResult]) -> list[tuple[int, str, Claim]]:
    """(index into results, what, query) for every follow-up decision: an equivalence proof
    for each survivor (and its control, see :func:`_control`), a bounded search for an
    undecided all-sizes mutant, a search restricted to defined points for a mutant whose
    counterexamples divide by zero."""
    out: list[tuple[int, str, Claim]] = []
    for k, r in enumerate(results):
        mu = r.mutant
        q: Claim | None = None
        what = ""
        try:
            if r.outcome == "survived" and mu.operator != "twin" and mu.original.expected is not Status.REFUTED \
                    and mu.original.finding is None:
                q, what = _equivalence_query(mu), "equivalence"
            elif r.outcome == "undecided" and _LOCAL_FAILS in r.why:
                q, what = _bounded_query(mu), "bounded"
            elif r.outcome == "undecided" and _ALGEBRAIC in r.why:
                q, what = _defined_query(mu), "defined"
        except Exception:  # pragma: no cover - a follow-up is best effort; the first outcome stands
            q = None
        if r.outcome == "survived" and mu.operator == "drop" and _WHERE_DEFINED in r.verdict.scope:
            try:
                needed = _needed_query(mu)
            except Exception:  # pragma: no cover - best effort, like every follow-up
                needed = None
            if needed is not None:
                out.append((k, "needed for definedness", needed))
        if q is not None:
            out.append((k, what, q))
            if what == "equivalence":
                out.append((k, "control", _control(q)))
                if not mu.hypothesis:
                    alone = _conclusion_alone(mu)
                    if alone is None:  # pragma: no cover - built like q, which was built
                        out.pop()
                        out.pop()
                    else:
                        out.append((k, "not valid alone", alone))
    return out


def _conclusion_alone(mu: Mutant) -> Claim | None:
    """The original conclusion with no hypothesis: it must come back refuted for a proof that
    an edited conclusion is equivalent to it to count.  Were it valid on its own, the edited one
    would be valid too whenever the mutant survives, and the two would be "equivalent" only in
    that both always hold -- which is what surviving means, not an equivalence."""
    orig = _smallest_sizes(mu.original)

    def alone(m: int | None) -> list[Any]:
        return [(label, {}, concl) for label, _, concl in _statements(orig, m) or []]
    return _query(orig, f"{mu.claim.id}.conclusion_alone", alone)


def _settle(r: MutantResult, what: str, q: Claim, v: Verdict) -> MutantResult:
    """The outcome of mutant result ``r`` after its follow-up query ``q`` came back ``v``."""
    mu = r.mutant
    if what == "equivalence" and v.status is Status.PROVED:
        if mu.operator == "drop":
            why = f"the same statement: hypothesis {mu.hypothesis} follows from the others (proved: {v.scope})"
        elif mu.hypothesis:
            why = (f"the same statement: with the others, hypothesis {mu.hypothesis} made non-strict implies it "
                   f"as printed (proved: {v.scope})")
        else:
            why = ("the same statement: the edited conclusion is equivalent to the original for all values "
                   f"(proved: {v.scope})")
        return MutantResult(dataclasses.replace(mu, equivalent=why), r.verdict, "equivalent", why)
    if what == "bounded" and v.status is Status.REFUTED:
        return MutantResult(mu, v, "killed", f"{v.scope or 'refuted at its smallest sizes'}, with re-checked evidence: "
                                             "a counterexample to the statement for all sizes (the local argument "
                                             "does not apply to the mutant)")
    if what == "needed for definedness" and v.status is Status.REFUTED and r.outcome == "survived":
        return MutantResult(mu, r.verdict, "survived",
                            f"{_DEFINED_ONLY} ({r.verdict.scope}); without hypothesis {mu.hypothesis} an expression "
                            f"of the statement is undefined at some point where the others hold (re-checked: "
                            f"{_shown_witness(v)}): the hypothesis keeps the statement defined")
    if what == "defined" and v.status is Status.PROVED:
        # decided: no exact counterexample exists (the mutant is proved at every point where it is
        # defined); z3's "counterexamples" divide by zero.  The check cannot kill it, so it survives
        # -- usually the edit loosened a hypothesis whose job is to keep a denominator non-zero.
        return MutantResult(mu, v, "survived",
                            f"{_DEFINED_ONLY} (proved with every denominator non-zero: {v.scope}); z3's only "
                            "counterexamples divide by zero, where exact arithmetic is undefined, so no exact "
                            "counterexample exists: the edit loosened only what keeps the statement defined")
    return r


def _twin_mutants(claim: Claim, twins: Sequence[Any]) -> list[Mutant]:
    out = []
    for t in twins:
        built = t.make()
        out.append(Mutant(claim, built, "twin", f"{t.what} {built.id} (expected {t.expect})", expect=t.expect))
    return out


# --------------------------------------------------------------------------- independent exact check of survivors

# rational grid values tried for each free symbol (those its sympy assumptions admit)
GRID = tuple(sympy.Rational(v) for v in ("0", "1", "-1", "2", "-2", "1/2", "-1/2", "3", "-3", "1/3", "3/2", "5"))
MAX_GRID_POINTS = 300
CHECK_SECONDS = 1.0  # wall seconds of the independent check per survivor


def _admits(s: sympy.Symbol, v: sympy.Rational) -> bool:
    """Whether the value v is allowed by the symbol's sympy assumptions."""
    tests = (("integer", v.is_integer), ("even", v.is_integer and v % 2 == 0), ("odd", v.is_integer and v % 2 == 1),
             ("positive", v > 0), ("negative", v < 0), ("nonnegative", v >= 0), ("nonpositive", v <= 0),
             ("nonzero", v != 0), ("zero", v == 0))
    return all(bool(ok) for name, ok in tests if getattr(s, f"is_{name}") is True)


def _grid(symbols: Sequence[sympy.Symbol], extra: Sequence[dict[str, Any]], seed: int = 0) -> list[dict[Any, Any]]:
    """Exact points: the values of ``extra`` (other mutants' counterexamples, by symbol name)
    first, then the product of the admissible grid values (a seeded sample of it when large)."""
    import itertools
    import random

    out: list[dict[Any, Any]] = []
    for e in extra:
        try:
            p = {s: sympy.Rational(str(e[s.name])) for s in symbols if s.name in e}
        except (TypeError, ValueError, sympy.SympifyError):
            continue
        if len(p) == len(symbols) and all(_admits(s, v) for s, v in p.items()):
            out.append(p)
    values = [[v for v in GRID if _admits(s, v)] or [sympy.Integer(0)] for s in symbols]
    total = 1
    for vs in values:
        total *= len(vs)
    if total <= MAX_GRID_POINTS:
        out += [dict(zip(symbols, combo, strict=True)) for combo in itertools.product(*values)]
    else:
        rng = random.Random(seed)
        out += [{s: rng.choice(vs) for s, vs in zip(symbols, values, strict=True)} for _ in range(MAX_GRID_POINTS)]
    return out


_SIGN = {sympy.Lt: lambda d: d < 0, sympy.Le: lambda d: d <= 0, sympy.Gt: lambda d: d > 0,
         sympy.Ge: lambda d: d >= 0, sympy.Eq: lambda d: d == 0, sympy.Ne: lambda d: d != 0}


def _truth(e: Any, point: dict[Any, Any]) -> bool | None:
    """The exact truth value of the statement e at the point, or None when it is undefined
    there or not decided exactly: each relation counts only when the difference of its sides is
    an exact rational at the point (no numeric evaluation), connectives by their truth tables."""
    if e is True or e is sympy.true:
        return True
    if e is False or e is sympy.false:
        return False
    try:
        if isinstance(e, Relational) and type(e) in _SIGN:
            d = (sympy.sympify(e.lhs) - sympy.sympify(e.rhs)).xreplace(point)
            if isinstance(d, sympy.Basic) and d.has(sympy.Piecewise):
                d = d.doit()
            return bool(_SIGN[type(e)](d)) if isinstance(d, sympy.Rational) else None
        if isinstance(e, sympy.Not):
            v = _truth(e.args[0], point)
            return None if v is None else not v
        if isinstance(e, sympy.And | sympy.Or):
            vals = [_truth(a, point) for a in e.args]
            stop = isinstance(e, sympy.Or)  # the value that decides: True for Or, False for And
            if stop in vals:
                return stop
            return None if None in vals else not stop
        if isinstance(e, sympy.Implies):
            p, q = _truth(e.args[0], point), _truth(e.args[1], point)
            if p is False or q is True:
                return True
            return None if p is None or q is None else False
        if isinstance(e, sympy.Equivalent):
            vals = [_truth(a, point) for a in e.args]
            return None if None in vals else len(set(vals)) == 1
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError):
        return None
    return None


def _statement_counterexample(claim: Claim, m: int | None, extra: Sequence[dict[str, Any]],
                              deadline: float) -> str | None:
    """A grid point where every hypothesis of one of the claim's implications holds and its
    conclusion fails, all exactly (sympy with rational values), or None."""
    for label, hyps, concl in _statements(claim, m) or []:
        exprs = [e for v in hyps.values() for e in v] + [concl]
        symbols = sorted(set().union(*[e.free_symbols for e in exprs if isinstance(e, sympy.Basic)]),
                         key=lambda s: s.name)
        if any(isinstance(e, sympy.Basic) and e.atoms(sympy.core.function.AppliedUndef) for e in exprs):
            continue
        for point in _grid(symbols, extra):
            if time.monotonic() > deadline:
                return None
            if all(_truth(h, point) is True for h in exprs[:-1]) and _truth(concl, point) is False:
                at = ", ".join(f"{s}={v}" for s, v in point.items())
                case = f" (case {label})" if label != "statement" else ""
                return f"at {at}{case} every hypothesis holds and the conclusion fails (exact, sympy)"
    return None


def _identity_counterexample(claim: Claim, m: int | None, deadline: float) -> str | None:
    """A grid point where both sides of an identity are exact rationals that differ."""
    spec = claim.spec
    lhs, rhs, conds = spec.lhs(m), spec.rhs(m), _as_list(spec.conditions(m))
    if not all(isinstance(e, sympy.Expr) for e in (lhs, rhs)) or lhs.atoms(sympy.core.function.AppliedUndef) \
            or rhs.atoms(sympy.core.function.AppliedUndef):
        return None
    symbols = sorted(lhs.free_symbols | rhs.free_symbols, key=lambda s: s.name)
    for point in _grid(symbols, ()):
        if time.monotonic() > deadline:
            return None
        if not all(_truth(c, point) is True for c in conds):
            continue
        try:
            a, b = lhs.xreplace(point), rhs.xreplace(point)
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if a.is_Rational and b.is_Rational and a != b:
            at = ", ".join(f"{s}={v}" for s, v in point.items())
            return f"at {at} the two sides are {a} and {b} (exact)"
    return None


def _node_counterexample(claim: Claim, extra: Sequence[Any], deadline: float) -> str | None:
    """Exact weights -- other mutants' counterexamples, then a small grid -- at which every
    hypothesis instance of the node claim holds and a conclusion instance fails, evaluated on the
    claim's own functions in Fractions (no solver), or None."""
    import itertools
    import random
    from fractions import Fraction

    from symcal.backends.nodes import recheck

    spec = claim.spec
    lo = claim.sizes.default[0] if claim.sizes is not None else 3
    candidates: list[tuple[int, dict[tuple[int, int], Fraction]]] = []
    for w in extra:
        if getattr(w, "size", None) is None:
            continue
        try:
            a = {tuple(int(x) for x in k[2:-1].split(",")): Fraction(str(v)) for k, v in w.values.items()
                 if k.startswith("a[")}
        except (ValueError, TypeError):
            continue
        candidates.append((w.size, a))  # type: ignore[arg-type]
    for m in (lo, lo + 1):
        edges = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
        if len(edges) <= 6:
            grid = [dict(zip(edges, map(Fraction, bits), strict=True)) for bits in itertools.product((0, 1),
                                                                                                      repeat=len(edges))]
        else:
            rng = random.Random(m)
            grid = [{e: Fraction(rng.choice((0, 0, 1, 2))) for e in edges} for _ in range(150)]
        candidates += [(m, a) for a in grid]
    for m, a in candidates:
        if time.monotonic() > deadline:
            return None
        try:
            ok, detail = recheck(spec, m, a)
        except Exception:  # noqa: BLE001 - a function that fails on these weights: no evidence either way
            continue
        if ok:
            shown = ", ".join(f"a[{i},{j}]={v}" for (i, j), v in sorted(a.items()) if v) or "all weights 0"
            return f"at m={m} with {shown}: {detail}"
    return None


def _finite_counterexample(claim: Claim, deadline: float) -> str | None:
    """A case of a finite claim that fails when re-evaluated here, exhaustively: a formula's
    conditions with sympy at the case's exact values, a predicate by calling it again."""
    spec = claim.spec
    m = claim.sizes.default[0] if claim.sizes is not None else None
    for case in spec.cases(m):
        if time.monotonic() > deadline:
            return None
        try:
            if spec.formula is not None:
                out = spec.formula(case)
                conds = out[0] if isinstance(out[0], list | tuple) else [out[0]]
                values = {sympy.Symbol(k) if isinstance(k, str) else k: sympy.Rational(str(v))
                          for k, v in out[1].items()}
                if any(_truth(c, values) is False for c in conds):
                    return f"case {case!r}: a condition is false at its exact values (sympy)"
            else:
                got = spec.holds(case)
                ok = got[0] if isinstance(got, tuple) else got
                if ok is False:
                    return f"case {case!r}: the predicate is false when evaluated again"
        except Exception:  # noqa: BLE001 - no evidence either way
            continue
    return None


def independent_counterexample(mu: Mutant, others: Sequence[MutantResult] = (),
                               seconds: float = CHECK_SECONDS) -> str | None:
    """A counterexample to the statement of the (surviving) mutant ``mu`` found without any
    solver: exact evaluation at rational grid points (and at the counterexamples of the other
    mutants of its claim) for implications and identities, at exact weights for node claims,
    exhaustive re-evaluation for finite claims, the witness's exact values for an existence.
    None when none is found within ``seconds`` or no exact check applies."""
    claim = _smallest_sizes(mu.claim)
    spec = claim.spec
    deadline = time.monotonic() + seconds
    witnesses = [r.verdict.witness for r in others if r.verdict.witness is not None]
    try:
        if isinstance(spec, NodeSpec):
            return _node_counterexample(claim, witnesses, deadline)
        if isinstance(spec, ImpliesSpec | CasesSpec):
            m = claim.sizes.default[0] if claim.sizes is not None else None
            return _statement_counterexample(claim, m, [w.values for w in witnesses], deadline)
        if isinstance(spec, IdentitySpec):
            return _identity_counterexample(claim, claim.sizes.default[0] if claim.sizes else None, deadline)
        if isinstance(spec, FiniteSpec):
            return _finite_counterexample(claim, deadline)
    except Exception:  # noqa: BLE001 - the check is best effort: no evidence either way
        return None
    return None


def _recheck_survivors(results: list[MutantResult], seconds: float = CHECK_SECONDS) -> None:
    """Make unsound every survivor (and every mutant shown equivalent after it was decided)
    whose edited statement the independent exact check refutes: symcal said it holds, and it
    does not -- a bug of symcal, not a finding about the claim."""
    by_claim: dict[str, list[MutantResult]] = {}
    for r in results:
        by_claim.setdefault(r.mutant.original.id, []).append(r)
    for k, r in enumerate(results):
        if r.outcome not in ("survived", "equivalent") or "not decided again" in r.why:
            continue
        if r.verdict.status not in (Status.PROVED, Status.WITNESSED, Status.CONFIRMED_ON_SAMPLES):
            continue
        others = [o for o in by_claim[r.mutant.original.id] if o is not r and o.verdict.witness is not None]
        found = independent_counterexample(r.mutant, others, seconds)
        if found:
            results[k] = MutantResult(r.mutant, r.verdict, "unsound",
                                      f"symcal says {r.verdict.status.value}, but an independent exact check refutes "
                                      f"the edited statement: {found}")


def _mutants_to_run(claims: Sequence[Claim], originals: Sequence[Verdict],
                    twins: Mapping[str, Sequence[Any]], report: SelftestReport) -> list[Mutant]:
    """The mutants of every claim decided as its source says (or a recorded erratum); the others
    are listed in ``report`` as skipped or not mutable."""
    mutants: list[Mutant] = []
    for c, v in zip(claims, originals, strict=True):
        erratum = c.finding is not None and v.status is Status.REFUTED
        if not (v.status is c.expected or erratum):
            report.skipped.append((c.id, f"the original is {v.status.value}, expected {c.expected}"))
            continue
        ms, why = mutants_of(c)
        if c.expected is Status.REFUTED or c.finding is not None:
            # a false claim: only a strengthening must stay false (see the module docstring); its
            # other edits say nothing about the check -- its twin says whether it can come back true
            dropped = len(ms)
            ms = [mu for mu in ms if mu.strengthening]
            if dropped and not ms:
                why = "a false claim with no strengthening edit"
        ms += _twin_mutants(c, twins.get(c.id, ()))
        if not ms:
            report.not_mutable.append((c.id, why))
        mutants += ms
    return mutants


@dataclass
class _Plan:
    """Which mutants need a decision: verdicts known already (by mutant id), mutants settled as
    equivalent, the ones to decide, and the ones that are the same query as one decided."""

    verdict_of: dict[int, Verdict] = field(default_factory=dict)
    settled: dict[int, MutantResult] = field(default_factory=dict)
    to_decide: list[Mutant] = field(default_factory=list)
    same_as: dict[int, Mutant] = field(default_factory=dict)


def _plan(mutants: list[Mutant], claims: Sequence[Claim], base: Sequence[Claim],
          originals: Sequence[Verdict]) -> _Plan:
    """Syntactic equivalence before solving: a mutant that is the original's query is equivalent
    (replaced in ``mutants``); mutants of one claim that are the same query are decided once."""
    decided = {id(c): v for c, v in zip(claims, originals, strict=True)}  # an erratum's twin is a claim here
    original_print = {c.id: _fingerprint(b) for c, b in zip(claims, base, strict=True)}
    decided_base = {c.id: v for c, v in zip(claims, originals, strict=True)}
    plan = _Plan()
    first: dict[tuple[str, str], Mutant] = {}
    for k, mu in enumerate(mutants):
        if id(mu.claim) in decided:
            plan.verdict_of[id(mu)] = decided[id(mu.claim)]
            continue
        fp = _fingerprint(mu.claim) if mu.operator != "twin" else None
        if fp is not None and fp == original_print.get(mu.original.id) and not mu.equivalent:
            why = "the edit changes nothing at the sizes decided: the same query as the original (not decided again)"
            mu_eq = dataclasses.replace(mu, equivalent=why)
            mutants[k] = mu_eq
            plan.settled[id(mu_eq)] = MutantResult(mu_eq, decided_base[mu.original.id], "equivalent", why)
            continue
        if fp is not None and (mu.original.id, fp) in first:
            plan.same_as[id(mu)] = first[(mu.original.id, fp)]
            continue
        if fp is not None:
            first[(mu.original.id, fp)] = mu
        plan.to_decide.append(mu)
    return plan


def _decide_follow_ups(results: list[MutantResult], decide: Callable[[list[Claim]], list[Verdict]]) -> None:
    """Follow-ups: is a survivor the same statement (proved)?  is an undecided all-sizes mutant
    refuted at a small size?  does a mutant whose only counterexamples divide by zero hold where
    defined?  Settles ``results`` in place."""
    follow = _follow_ups(results)
    if not follow:
        return
    answers = decide([q for _, _, q in follow])
    # an equivalence proof counts only if each of its controls is refuted (a re-checked witness)
    controls: dict[int, list[Verdict]] = {}
    for (k, what, _), v in zip(follow, answers, strict=True):
        if what in ("control", "not valid alone"):
            controls.setdefault(k, []).append(v)
    for (k, what, q), v in zip(follow, answers, strict=True):
        if what == "equivalence" and not (controls.get(k) and
                                          all(c.status is Status.REFUTED for c in controls[k])):
            continue
        if what in ("equivalence", "bounded", "defined", "needed for definedness"):
            results[k] = _settle(results[k], what, q, v)


def run_selftest(
    claims: Sequence[Claim], *, timeout: float = 10.0, jobs: int = 2,
    progress: Callable[[str], None] | None = None, cluster: Any = None,
    twins: Mapping[str, Sequence[Any]] | None = None,
) -> SelftestReport:
    """Generate every mutant of every claim that is decided as its source says (or is a
    recorded erratum), decide them all, and classify each (``cluster``: a
    :class:`symcal.cluster.Cluster` to decide on, as in ``check_many``).

    ``twins``: claim id -> its :class:`symcal.explore.twins.Twin` s; by default the twins the
    bundled library declares (and each erratum's corrected statement)."""
    from symcal.runner import check_many

    if twins is None:
        from symcal.explore.twins import twins_for

        twins = twins_for(claims)

    def decide(queries: list[Claim]) -> list[Verdict]:
        return check_many(queries, timeout=timeout, jobs=jobs, progress=progress, cluster=cluster)

    started = time.monotonic()
    report = SelftestReport(claims=len(claims))
    base = [_smallest_sizes(c) for c in claims]
    originals = decide(base)
    report.original_seconds = [(c.id, v.seconds) for c, v in zip(claims, originals, strict=True)]
    mutants = _mutants_to_run(claims, originals, twins, report)
    plan = _plan(mutants, claims, base, originals)
    verdicts = decide([mu.claim for mu in plan.to_decide])
    verdict_of = plan.verdict_of
    verdict_of.update({id(mu): v for mu, v in zip(plan.to_decide, verdicts, strict=True)})
    for key, mu in plan.same_as.items():
        verdict_of[key] = verdict_of[id(mu)]
    report.results = [plan.settled[id(mu)] if id(mu) in plan.settled else classify(mu, verdict_of[id(mu)])
                      for mu in mutants]
    _decide_follow_ups(report.results, decide)
    # a survivor whose edited statement an exact check refutes is a bug of symcal, not a finding
    _recheck_survivors(report.results)
    report.seconds = time.monotonic() - started
    return report
