"""Hang guards, not timings (performance lives in bench/): a wall-clock bound in a test only says
that something stops instead of hanging, so it is widened when the run shares the cores with
other test workers (pytest-xdist) and with their decisions."""

from __future__ import annotations

import os

# one worker per core, each of which may fork two deciding workers of its own
SLACK = 3.0 if os.environ.get("PYTEST_XDIST_WORKER") else 1.0


def within(seconds: float) -> float:
    """``seconds`` as a hang guard on this run's machine."""
    return seconds * SLACK
