"""What every backend returns: an :class:`Outcome`, turned into a verdict by the runner."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from symcal.verdicts import CrossCheck, Evidence, Status

__all__ = ["Outcome", "Budget", "FamilyBudget", "children_cpu"]


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

    def share(self, seconds: float = math.inf, *, floor: float = 0.0) -> Budget:
        """A sub-budget for one solver call: ``min(seconds, self.left())`` CPU seconds (by default
        all that is left; at least ``floor``, a minimal chance to answer even when this budget is
        nearly spent), with a wall-clock backstop ``WALL_FACTOR`` times as long that ends no later
        than this budget's own (but never sooner than its CPU seconds from now).

        The one home of a sub-limit (ARCHITECTURE.md, rule 5): a fixed wall-clock limit such as
        z3's ``timeout`` of 5000 ms gives a worker that a busy machine leaves a tenth of a core
        half a CPU second, so the answer would depend on the load.  The caller enforces the
        sub-budget's CPU seconds with :func:`symcal.backends.z3_backend.cpu_watchdog` and hands
        the solver's own timeout only ``sub.wall_ms()``."""
        sub = Budget(max(floor, min(seconds, self.left())))
        sub.deadline = min(sub.deadline, max(self.deadline, time.monotonic() + sub.seconds))
        return sub


def children_cpu() -> float:
    """CPU seconds of the child processes this process has waited for (``RUSAGE_CHILDREN``)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class FamilyBudget(Budget):
    """A :class:`Budget` that also counts the CPU seconds of the child processes waited for since it
    began: the calibration engine (:func:`symcal.limits.run_limited`) and cvc5 decide in forked
    children, whose work this process's own clock does not see.  A caller that waits for them is
    thus charged their CPU seconds, not the wall time a busy machine stretches (ARCHITECTURE.md,
    rule 5).  Children of other threads reaped meanwhile count too: it errs towards stopping early."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self._children0 = children_cpu()

    def cpu_used(self) -> float:
        return super().cpu_used() + children_cpu() - self._children0
