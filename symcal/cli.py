"""The command line: the ``symcal`` parser, dispatch to the verbs and ``main``.

Every verb lives in a module of :mod:`symcal.commands` (``list`` and ``show`` in ``claims``,
``check``, ``necessity``, ``selftest``, ``preference``, ``report`` and the domain verbs), each
registering its sub-parser with ``register(sub)``; :data:`symcal.commands.VERBS` gives their
order in ``symcal --help``.

Exit codes (ARCHITECTURE.md, *Interface contract*): 0 when every verdict agrees with its
expected outcome or is a recorded erratum; 1 when any other verdict disagrees; 2 on usage
or input errors (a one-line message, never a traceback); 3 on an internal error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from symcal.commands import VERBS
from symcal.commands.common import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE
from symcal.errors import SymcalError

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line refusals: ``symcal: error: ...`` naming where the usage is (exit 2),
    not the usage block first."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"symcal: error: {message} (usage: {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The ``symcal`` parser with the sub-parser of every verb in :data:`symcal.commands.VERBS`."""
    p = _Parser(prog="symcal", description="Check the theory of surrogate losses for learning to rank.")
    p.add_argument("--version", action="version", version="symcal 0.1.0")
    sub = p.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    for name in VERBS:
        importlib.import_module(f"symcal.commands.{name}").register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``symcal`` with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.fn(args))
    except SymcalError as e:
        print(f"symcal: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("symcal: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head
        return EXIT_OK
    except Exception as e:
        if os.environ.get("SYMCAL_DEBUG"):
            raise
        print(f"symcal: internal error: {type(e).__name__}: {e} (set SYMCAL_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
