"""The verbs of the command line, one module each (``claims`` holds ``list`` and ``show``).

Each module defines ``register(sub)`` which adds its sub-parsers to the ``symcal`` parser
(``sub`` is the result of ``add_subparsers``) and sets ``fn`` to a function taking the parsed
arguments and returning an exit code.  ``cli.py`` registers every module named in ``VERBS``.
What several verbs share (exit codes, option types, loading claims, progress, ``--cluster``)
is in :mod:`symcal.commands.common`; this module holds only the argparse types that need
nothing else.
Errors are raised as :class:`symcal.errors.SymcalError` (``invalid(...)``); ``cli.main``
turns them into a one-line message and exit code 2.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

# module names under symcal.commands, in the order their verbs appear in ``symcal --help``
# (``claims`` registers ``list`` and ``show``)
VERBS: tuple[str, ...] = (
    "claims", "check", "export", "necessity", "selftest", "preference", "report", "loss", "costs", "calibration",
    "coverage", "noise_map",
)


def whole_number(flag: str, minimum: int, maximum: int = 10**6) -> Callable[[str], int]:
    """An argparse ``type`` for ``flag``: a whole number in ASCII digits, ``minimum <= n <= maximum``,
    else a one-line error (``int()`` alone would take '٣' for 3 and 10**30 workers)."""

    def parse(text: str) -> int:
        v = int(text) if re.fullmatch(r"\s*[+]?[0-9]{1,12}\s*", text, re.ASCII) else minimum - 1
        if not minimum <= v <= maximum:
            raise argparse.ArgumentTypeError(f"{flag}={text!r}: expected a whole number from {minimum} to {maximum:,}")
        return v

    return parse


MAX_SECONDS = 86_400.0  # one day: beyond that a number of seconds is a typo (and overflows timers)


def seconds_option(flag: str, most: float, said: str) -> Callable[[str], float]:
    """The argparse ``type`` of an option counting seconds: > 0 and at most ``most`` (``said`` names that
    bound in words), else a one-line error naming the option and the value."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            v = -1.0
        if not 0 < v <= most:  # also refuses nan and inf
            raise argparse.ArgumentTypeError(f"{flag}={text!r}: expected a number of seconds > 0 (at most "
                                             f"{most:g}, {said})")
        return v

    return parse


seconds = seconds_option("--timeout", MAX_SECONDS, "one day")  # every verb's --timeout
