"""Exact enumeration over finite sets (permutations, DAGs, labels) with Fractions.

Proved means every case of the statement's (finite) domain was evaluated and held; the
number of cases is in the evidence and zero cases is an error, never a vacuous pass
(ARCHITECTURE.md, convention 9).  When the cases are only a sample of the statement's domain
(``finite_check(..., sample=...)``: seeded draws, or a grid of a continuous domain), the
same exact check gives ``confirmed-on-samples``, never ``proved`` (issue 11); a failing
sampled case is still an exact counterexample, so ``refuted`` stands.
"""

from __future__ import annotations

from typing import Any

import sympy

from symcal.backends.base import Budget, Outcome
from symcal.claims.core import FiniteSpec
from symcal.errors import invalid, shown
from symcal.verdicts import Exhaustive, Sampled, Status, Witness

__all__ = ["NAME", "decide_finite"]

NAME = "enumerate"


def _truth(x: Any, whole: Any) -> bool | None:
    """A truth value ``holds`` may give: True/False (Python, numpy or sympy), 0/1, or None (undecided).
    Anything else -- a list of relations, a string, a symbolic relation, a number -- is refused with one
    line, never read by Python's truthiness (a non-empty list or the string 'no' is truthy)."""
    if x is None:
        return None
    if isinstance(x, bool) or x is sympy.true or x is sympy.false:
        return bool(x)
    if type(x).__name__ in ("bool_", "bool") and type(x).__module__ == "numpy":  # numpy 1: bool_, numpy 2: bool
        return bool(x)
    if isinstance(x, int) and x in (0, 1):
        return bool(x)
    raise invalid("holds", shown(whole, 80), "True, False or None (undecided), or (one of them, detail)",
                  "a list of conditions is not their conjunction here: use all(...) or finite_check(formula=...)")


def _result(x: Any) -> tuple[bool | None, str]:
    """(True / False / None for undecided, detail) from what ``holds`` returned."""
    if isinstance(x, tuple) and len(x) == 2:
        return _truth(x[0], x), str(x[1])
    return _truth(x, x), ""


def decide_finite(spec: FiniteSpec, m: int | None, budget: Budget, scope: str) -> Outcome:
    """Every case evaluated in turn: the first failing case refutes the claim (also after an
    undecided case -- a case undefined or undecided at its data says nothing about the others),
    an undecided case with no failing one leaves it unknown, and proved needs every case to hold."""
    n = 0
    undecided = ""
    for case in spec.cases(m):
        if budget.expired():
            return Outcome(Status.UNKNOWN, scope, NAME,
                           reason=f"budget of {budget.seconds:g} CPU seconds spent after {n} cases"
                                  + (f"; {undecided}" if undecided else ""))
        n += 1
        ok, detail = _result(spec.holds(case))
        if ok is None:
            if not undecided:
                values = spec.describe(case) if spec.describe else {"case": repr(case)}
                undecided = f"case {n} ({values}) is undecided: {detail}"
            continue
        if not ok:
            ok2, detail2 = _result(spec.holds(case))  # evaluate again: results must be deterministic
            values = spec.describe(case) if spec.describe else {"case": repr(case)}
            if not isinstance(values, dict):
                values = {"case": values}
            if ok2 is not False:
                return Outcome(Status.ERROR, scope, NAME, reason=f"case {values} gave different answers twice")
            return Outcome(Status.REFUTED, scope, NAME,
                           Witness(values, rechecked=True, detail=detail or "the case fails (exact)",
                                   size=m, found_by=f"enumeration, case {n}"))
    if n == 0:
        return Outcome(Status.ERROR, scope, NAME, reason=f"the domain {spec.domain} has no cases at {scope}")
    if undecided:
        return Outcome(Status.UNKNOWN, scope, NAME, reason=f"{undecided} (no case of the {n} fails)")
    if spec.sample:
        return Outcome(Status.CONFIRMED_ON_SAMPLES, f"{scope}; {n} sampled cases ({spec.sample}): not a proof",
                       NAME, Sampled(f"{spec.domain} ({scope})", n, spec.sample))
    return Outcome(Status.PROVED, scope, NAME, Exhaustive(f"{spec.domain} ({scope})", n))
