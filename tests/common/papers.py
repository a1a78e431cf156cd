"""What every theorem module's test file asks of its paper: each claim agrees with the paper
or is a recorded erratum, and each negative twin (declared beside its claim, in the theorem
module's TWINS / TWIN_EXPECT) comes back as declared -- refuted with a re-checked witness unless
the module says otherwise."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType

from symcal.claims.core import Claim
from symcal.report import agrees, is_erratum
from symcal.runner import check_many
from symcal.verdicts import Status, Verdict


def verdicts_by_id(claims: Sequence[Claim], timeout: float = 60) -> dict[str, Verdict]:
    """Every claim decided (two workers), keyed by claim id."""
    return {c.id: v for c, v in zip(claims, check_many(claims, jobs=2, timeout=timeout), strict=True)}


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
