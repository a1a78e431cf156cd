"""Which hypotheses does a claim need?  Drop each named hypothesis in turn.

A hypothesis is *needed* when the claim without it is refuted: the re-checked
counterexample (smallest size first) shows it.  It is *not needed* when the weakened claim
is still proved — within the scope said (sizes tried, or all sizes by a local lemma) —
which is itself worth reporting.  Otherwise the answer is undecided.  For a family of
implications (``implies_cases``) a name is dropped from every case that has it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symcal.claims.constructors import all_sizes
from symcal.claims.core import Claim
from symcal.errors import invalid
from symcal.runner import check_many
from symcal.verdicts import Status, Verdict

__all__ = ["NecessityRow", "necessity"]


@dataclass(frozen=True)
class NecessityRow:
    hypothesis: str
    needed: bool | None  # None: undecided
    verdict: Verdict
    scope: str

    @property
    def answer(self) -> str:
        return {True: "needed", False: "not needed", None: "undecided"}[self.needed]


def necessity(
    claim: Claim, *, sizes: tuple[int, int] | None = None, timeout: float = 30.0, jobs: int = 1,
    progress: Callable[[str], None] | None = None, cluster: Any = None,
) -> list[NecessityRow]:
    """Drop each named hypothesis of ``claim`` in turn and decide the weakened claim
    (``cluster``: a :class:`symcal.cluster.Cluster` to decide on, as in ``check_many``)."""
    if not isinstance(claim, Claim):
        raise invalid("claim", claim, "a Claim (built by implies, implies_cases, node_implies or exists)")
    if not claim.hypothesis_names:
        raise invalid("claim", claim.id,
                      "a claim with named hypotheses (implies, implies_cases, node_implies or exists)")
    if claim.kind == "exists":
        raise invalid("claim", claim.id, "a universal claim; dropping a constraint of an existence "
                      "claim can only make it easier")
    weakened = [claim.without(h) for h in claim.hypothesis_names]
    verdicts = check_many(weakened, sizes=sizes if claim.sized else None, timeout=timeout, jobs=jobs,
                          progress=progress, cluster=cluster)
    rows = []
    for name, w, v in zip(claim.hypothesis_names, weakened, verdicts, strict=True):
        if v.status is Status.REFUTED:
            rows.append(NecessityRow(name, True, v, v.scope))
            continue
        if v.status is Status.PROVED and w.kind == "node":
            lv = check_many([all_sizes(w, w.id + ".all_m")], timeout=timeout, cluster=cluster)[0]
            if lv.status is Status.PROVED:
                rows.append(NecessityRow(name, False, lv, lv.scope))
                continue
        if v.status is Status.PROVED:
            rows.append(NecessityRow(name, False, v, v.scope))
        else:
            rows.append(NecessityRow(name, None, v, v.scope))
    return rows
