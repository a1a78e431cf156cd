"""Domain verbs of the command line, one module each.

Each module defines ``register(sub)`` which adds its sub-parser to the ``symcal`` parser
(``sub`` is the result of ``add_subparsers``) and sets ``fn`` to a function taking the parsed
arguments and returning an exit code.  ``cli.py`` registers every module named in ``VERBS``.
Errors are raised as :class:`symcal.errors.SymcalError` (``invalid(...)``); ``cli.main``
turns them into a one-line message and exit code 2.
"""

from __future__ import annotations

# module names under symcal.commands, in the order they appear in ``symcal --help``
VERBS: tuple[str, ...] = ("loss", "costs")
