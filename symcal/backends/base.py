"""What every backend returns: an :class:`Outcome`, turned into a verdict by the runner."""

from __future__ import annotations

import time
from dataclasses import dataclass

from symcal.verdicts import CrossCheck, Evidence, Status

__all__ = ["Outcome", "Budget"]


@dataclass(frozen=True)
class Outcome:
    status: Status
    scope: str
    backend: str
    evidence: Evidence | None = None
    reason: str = ""
    cross_check: CrossCheck | None = None
    warnings: tuple[str, ...] = ()  # e.g. "vacuous: the hypotheses cannot all hold"


class Budget:
    """A wall-clock deadline shared by the steps of one decision."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def expired(self) -> bool:
        return self.left() <= 0

    def ms(self, floor: int = 50) -> int:
        return max(floor, int(self.left() * 1000))
