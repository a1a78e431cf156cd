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
from symcal.errors import SymcalError, shown

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line refusals: ``symcal: error: ...`` naming where the usage is (exit 2),
    not the usage block first."""

    def error(self, message: str) -> None:  # type: ignore[override]
        message = " ".join(message.split())  # one line, whatever the value held
        if len(message) > 400:  # a 5,000-character value is shown by its start
            message = message[:397] + "..."
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
    """Run ``symcal`` with ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    Every refusal is one line on stderr and exit code 2: a bad option (argparse), a
    :class:`~symcal.errors.SymcalError`, an argument holding a NUL character (which no shell can
    pass) and a file or folder name the system refuses (too long, no such folder, no permission:
    an :class:`OSError` naming the file).  Anything else is an internal error, exit code 3."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    for a in argv:
        if isinstance(a, str) and "\x00" in a:
            print(f"symcal: error: argument={shown(a)}: expected text without a NUL character", file=sys.stderr)
            return EXIT_USAGE
    try:
        args = parser.parse_args(argv)
        return int(args.fn(args))
    except SymcalError as e:
        print(f"symcal: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        if e.filename is None or isinstance(e, BrokenPipeError):
            if isinstance(e, BrokenPipeError):  # e.g. piped into head
                return EXIT_OK
            return _internal(e)
        # a file or folder named on the command line (or under it) that the system refuses
        print(f"symcal: error: path={shown(str(e.filename))}: expected a file or folder symcal can use; "
              f"{e.strerror or type(e).__name__}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("symcal: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        return _internal(e)


def _internal(e: Exception) -> int:
    """An unexpected exception: one line and exit code 3 (with ``SYMCAL_DEBUG=1``, the traceback)."""
    if os.environ.get("SYMCAL_DEBUG"):
        raise e
    text = " ".join(str(e).split())
    print(f"symcal: internal error: {type(e).__name__}: {shown(text, 300) if text else ''} "
          f"(set SYMCAL_DEBUG=1 for a traceback)", file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
