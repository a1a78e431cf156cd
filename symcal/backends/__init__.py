"""Backends, chosen per claim by its kind (ARCHITECTURE.md, convention 7: each declares what it decides).

| kind      | backend                 | decides                                    |
|-----------|-------------------------|--------------------------------------------|
| identity  | sympy, then z3          | rational-function identities; with Min,    |
|           |                         | Max, Abs, Piecewise as an implication      |
| implies   | z3 (+ exact re-check)   | linear / polynomial real arithmetic        |
| implies_cases | z3, one query per case | a finite family of implications          |
| exists    | exact witness or z3     | existence with an exact witness            |
| node      | z3 per size, local lemma| statements about weights on m nodes        |
| finite    | enumerate               | exhaustive exact checks                    |
| numeric   | scipy                   | numeric confirmation (never a proof)       |
| interval  | z3 if algebraic, else   | bounded inequalities with exp/log/sqrt     |
|           | mpmath iv branch&bound  | (rigorous enclosures, never sampled)       |
| calibration | the calibration engine | registered by symcal/calibration/decider.py |

Each kind's decider is registered in :data:`DECIDERS` (``@decides(kind)``); a new kind is one
decorated function here, or in its own package above this layer.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from symcal.backends.base import Budget, Outcome
from symcal.claims.core import Claim
from symcal.errors import NoBackendAvailable
from symcal.verdicts import Status

__all__ = ["decide", "decides", "DECIDERS", "Budget", "Outcome", "require"]


def require(module: str, extra: str) -> None:
    """Import guard: say what is missing and how to install it."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        raise NoBackendAvailable(f"{module}: not installed; pip install 'symcal[{extra}]'") from None


def _scope(claim: Claim, m: int | None, base: str) -> str:
    return f"{base}, m = {m}" if m is not None else base


# claim kind -> the function that decides a claim of that kind at one size: the kinds below register
# here; a decider that lives above this layer registers itself when imported (the calibration engine,
# symcal/calibration/decider.py)
Decider = Callable[[Claim, "int | None", Budget, str], Outcome]
DECIDERS: dict[str, Decider] = {}


def decides(kind: str) -> Callable[[Decider], Decider]:
    """Register the decorated function as the decider of claims of ``kind``."""
    def register(fn: Decider) -> Decider:
        DECIDERS[kind] = fn
        return fn
    return register


def decide(claim: Claim, m: int | None, budget: Budget, *, encoding: str = "auto") -> Outcome:
    """Decide ``claim`` (at size ``m`` for sized claims) within ``budget``, by the decider registered
    for its kind (:data:`DECIDERS`)."""
    decider = DECIDERS.get(claim.kind)
    if decider is None:
        hint = (" (the calibration engine registers it when symcal.calibration is imported)"
                if claim.kind == "calibration" else "")
        return Outcome(Status.ERROR, "", "none", reason=f"no backend for claims of kind {claim.kind!r}{hint}")
    try:
        return decider(claim, m, budget, encoding)
    except NoBackendAvailable as e:
        return Outcome(Status.UNKNOWN, "", "none", reason=str(e))


@decides("identity")
def _identity(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends.sympy_backend import decide_identity

    lhs, rhs, conditions = spec.lhs(m), spec.rhs(m), spec.conditions(m)
    base = _scope(claim, m, "identity for all real values of its symbols")
    out = decide_identity(lhs, rhs, conditions, budget, base)
    if isinstance(lhs, int | Fraction) or isinstance(rhs, int | Fraction):
        import sympy  # a side given as a Python number (identity(..., Max(k, 0), 0)) is a sympy number to z3

        lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    if out.status is not Status.UNKNOWN or budget.expired() or not _z3_readable(lhs, rhs):
        return out
    # zero without being formally zero (Max(x, y) + Min(x, y) - x - y): the implication "conditions =>
    # lhs = rhs" by z3, whose counterexamples are re-checked exactly on Eq(lhs, rhs)
    from symcal.backends.smt_claims import decide_identity_by_smt

    conds = list(conditions) if isinstance(conditions, list | tuple) else ([conditions] if conditions else [])
    by_smt = decide_identity_by_smt(lhs, rhs, conds, budget, base, claim.id)
    if by_smt.status is Status.UNKNOWN:
        return Outcome(out.status, out.scope, out.backend, out.evidence,
                       f"{out.reason}; z3 on the implication 'conditions => lhs = rhs': {by_smt.reason}",
                       out.cross_check, out.warnings)
    return by_smt


def _z3_readable(*exprs: object) -> bool:
    """Whether an identity's sides are worth sending to z3: sympy expressions without undefined
    functions (``phi(x)``) or matrices; z3's translator refuses what else it cannot read."""
    import sympy
    from sympy.core.function import AppliedUndef

    return all(isinstance(e, sympy.Expr) and not e.atoms(AppliedUndef) for e in exprs)


@decides("implies")
def _implies(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends.smt_claims import decide_implies

    require("z3", "base")
    hyps = {k: b(m) for k, b in spec.hypotheses.items()}
    return decide_implies(hyps, spec.conclusion(m), budget,
                          _scope(claim, m, "all real values of the free symbols"), claim.id)


@decides("implies_cases")
def _implies_cases(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends.smt_claims import decide_implies_cases

    require("z3", "base")
    return decide_implies_cases(spec.cases(m), budget,
                                _scope(claim, m, f"every case of {spec.domain or 'the family'}, all real "
                                                 "values of the free symbols"), claim.id, m)


@decides("exists")
def _exists(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends.smt_claims import decide_exists

    cons = {k: b(m) for k, b in spec.constraints.items()}
    w = spec.witness(m) if spec.witness is not None else None
    return decide_exists(cons, w, budget, _scope(claim, m, "existence"), claim.id)


@decides("node")
def _node(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends import nodes

    require("z3", "base")
    if claim.strategy == "local_lemma":
        assert claim.sizes is not None
        return nodes.decide_local_lemma(spec, claim.sizes.minimum, budget, claim.id)
    assert m is not None
    return nodes.decide_node(spec, m, budget, claim.id, encoding=encoding)


@decides("finite")
def _finite(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends.enumerate_backend import decide_finite

    return decide_finite(spec, m, budget, f"m = {m}" if m is not None else "every case")


@decides("interval")
def _interval(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends.interval_backend import decide_bounded

    conds = spec.conditions(m)
    conds = list(conds) if isinstance(conds, list | tuple) else [conds]
    return decide_bounded(spec.lhs(m), spec.relation, spec.rhs(m), spec.box(m), conds, budget,
                          label=claim.id, max_boxes=spec.max_boxes, max_depth=spec.max_depth,
                          precision=spec.precision)


@decides("numeric")
def _numeric(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    spec = claim.spec
    from symcal.backends.numeric_backend import decide_numeric

    return decide_numeric(spec, budget, "one instance")
