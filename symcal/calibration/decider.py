"""The decider of ``calibrated(...)`` claims (kind ``calibration``), registered with the backends'
registry (:data:`symcal.backends.DECIDERS`) when :mod:`symcal.calibration` is imported: the claim's
loss, surrogate, link and noise at the size, handed to the engine (:func:`symcal.calibration.engine.decide`)."""

from __future__ import annotations

from symcal.backends import Budget, Outcome, decides, require
from symcal.claims.core import Claim


@decides("calibration")
def decide_claim(claim: Claim, m: int | None, budget: Budget, encoding: str) -> Outcome:
    """Decide a calibration claim at size ``m`` within ``budget`` (``encoding`` is not used)."""
    from symcal.calibration import setup
    from symcal.calibration.engine import decide

    require("z3", "base")
    spec = claim.spec
    st = setup(spec.loss(m), spec.surrogate(m), spec.link(m), noise=spec.noise(m), name=claim.id)
    v = decide(st, max(0.1, budget.left()))
    scope = (f"m = {m}: " if m is not None else "") + v.scope
    return Outcome(v.status, scope, v.backend, v.evidence, v.reason)
