"""scipy: numeric confirmation.  Never a proof: the best it says is
``confirmed-numerically``, with the optimiser output, tolerance and margin."""

from __future__ import annotations

from symcal.backends.base import Budget, Outcome
from symcal.claims.core import NumericOutcome, NumericSpec
from symcal.errors import BackendFailure
from symcal.verdicts import NumericEvidence, Status

__all__ = ["NAME", "decide_numeric"]

NAME = "scipy"


def decide_numeric(spec: NumericSpec, budget: Budget, scope: str) -> Outcome:
    out = spec.run()
    if not isinstance(out, NumericOutcome):
        raise BackendFailure(f"a numeric claim's run() returned {type(out).__name__}, not NumericOutcome")
    ev = NumericEvidence(out.method, dict(out.values, note=out.note) if out.note else dict(out.values),
                         out.tolerance, out.margin)
    if out.ok and out.margin > out.tolerance:
        return Outcome(Status.CONFIRMED_NUMERICALLY, scope + " (numeric)", NAME, ev)
    return Outcome(
        Status.UNKNOWN, scope + " (numeric)", NAME,
        reason=(f"numeric evidence does not confirm the claim: margin {out.margin:.4g} vs tolerance "
                f"{out.tolerance:.1g} ({out.method}); a numeric check never refutes"),
    )
