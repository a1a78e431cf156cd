"""What every theorem module's test file asks of its paper: each claim agrees with the paper
or is a recorded erratum, and each negative twin (declared beside its claim, in the theorem
module's TWINS / TWIN_EXPECT) comes back as declared -- refuted with a re-checked witness unless
the module says otherwise."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from types import ModuleType

from symcal.claims.core import Claim
from symcal.report import agrees, is_erratum
from symcal.runner import check_many
from symcal.verdicts import Status, Verdict


def short_sweep(claim: Claim) -> Claim:
    """``claim`` as the default test run decides it: a sized claim the paper states as true (no
    finding) is swept up to the second-largest size of its default sweep, since the largest size
    costs most of the library's time (measured: 556 of 1,000 s, 148 s without it); claims with a
    finding, refuted or all-size claims keep their whole sweep.  The slow lane
    (``pytest -m slow``) and ``symcal check`` decide every claim at its whole default sweep."""
    s = claim.sizes
    if (s is None or claim.strategy != "per_size" or claim.finding is not None
            or claim.expected is not Status.PROVED or s.default[1] <= s.default[0]):
        return claim
    return replace(claim, sizes=replace(s, default=(s.default[0], s.default[1] - 1)))


def verdicts_by_id(claims: Sequence[Claim], timeout: float = 60, *, whole: bool = False) -> dict[str, Verdict]:
    """Every claim decided (two workers), keyed by claim id: at the short sweep of
    :func:`short_sweep` unless ``whole``."""
    run = list(claims) if whole else [short_sweep(c) for c in claims]
    return {c.id: v for c, v in zip(run, check_many(run, jobs=2, timeout=timeout), strict=True)}


def disagreements(claims: Sequence[Claim], verdicts: dict[str, Verdict]) -> list[str]:
    """One line per claim whose verdict is neither its expected outcome nor a recorded erratum."""
    return [f"{c.id}: expected {c.expected.value}, got {verdicts[c.id].status.value} "
            f"({verdicts[c.id].reason[:200]})"
            for c in claims if not (agrees(c, verdicts[c.id]) or is_erratum(c, verdicts[c.id]))]


def refuted_with_rechecked_witness(v: Verdict) -> bool:
    """Refuted with an exact counterexample -- or, for an existence claim, with the solver's proof
    that no point satisfies the constraints (its refutation has no point to show)."""
    from symcal.verdicts import SmtResult

    if v.status is not Status.REFUTED:
        return False
    if v.witness is not None:
        return v.witness.rechecked
    return isinstance(v.evidence, SmtResult) and v.evidence.answer == "unsat" and v.scope.startswith("existence")


def twins_expecting(module: ModuleType, expect: str) -> dict[str, Callable[[], Claim]]:
    """The theorem module's twins (``TWINS``, claim id -> builder) whose declared outcome
    (``TWIN_EXPECT``, "refuted" where absent) is ``expect``."""
    declared = getattr(module, "TWIN_EXPECT", {})
    return {cid: build for cid, build in module.TWINS.items() if declared.get(cid, "refuted") == expect}
