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
    """A budget in CPU seconds of this process (the worker that decides), with a wall-clock
    backstop ``WALL_FACTOR`` times longer (ARCHITECTURE.md, rule 5).

    CPU seconds do not shrink when the machine is busy, so a verdict does not depend on the
    load: ``left()`` and ``expired()`` count CPU; a solver is stopped by a watchdog that reads
    the same clock (:func:`symcal.backends.z3_backend.solve`); ``wall_ms()`` is the backstop
    handed to a solver's own wall-clock timeout.
    """

    def __init__(self, seconds: float) -> None:
        from symcal.limits import WALL_FACTOR

        self.seconds = seconds
        self._cpu0 = time.process_time()
        self.deadline = time.monotonic() + WALL_FACTOR * seconds + 1.0

    def cpu_used(self) -> float:
        return time.process_time() - self._cpu0

    def cpu_left(self) -> float:
        return self.seconds - self.cpu_used()

    def wall_left(self) -> float:
        return self.deadline - time.monotonic()

    def left(self) -> float:
        return min(self.cpu_left(), self.wall_left())

    def expired(self) -> bool:
        return self.left() <= 0

    def ms(self, floor: int = 50) -> int:
        """The CPU seconds left, in ms (for loops that count their own work)."""
        return max(floor, int(self.left() * 1000))

    def wall_ms(self, floor: int = 50) -> int:
        """The wall-clock backstop left, in ms: a solver's own timeout (the CPU limit is
        enforced by a watchdog on the CPU clock)."""
        return max(floor, int(self.wall_left() * 1000))
