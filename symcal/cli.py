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
import contextlib
import errno
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
    pass), a file or folder name the system refuses (too long, no such folder, no permission:
    an :class:`OSError` naming the file), a stdout that cannot be written (a full disk,
    ``> /dev/full``) and input too large or too deeply nested for this machine (a
    ``MemoryError`` or ``RecursionError`` that reached here, an int beyond Python's digit limit).
    A closed pipe (``| head -1``) ends quietly with exit code 0.  Anything else is an internal
    error, exit code 3.  Run as the program (``argv`` None) under ``--json``, whatever runs after the
    verb (``atexit`` handlers of a user's file, finalizers) writes to stderr: stdout holds the JSON
    document only."""
    _tolerant_stdout()
    standalone = argv is None  # the program itself (not a caller in this process, e.g. a test)
    argv = list(sys.argv[1:] if argv is None else argv)
    for a in argv:
        if isinstance(a, str) and "\x00" in a:
            print(f"symcal: error: argument={shown(a)}: expected text without a NUL character", file=sys.stderr)
            return EXIT_USAGE
    verb = "symcal"
    try:
        parser = build_parser()  # imports every verb's module: a Ctrl-C meanwhile is exit code 130 too
        args = parser.parse_args(argv)
        verb = f"symcal {args.verb}"
        code = int(args.fn(args))
        _flush_stdout()
        if getattr(args, "json", False) and standalone:
            _stdout_to_stderr()
        return code
    except SymcalError as e:
        text = " ".join(str(e).splitlines())  # one line, whatever a value's repr looked like
        print(f"symcal: error: {text}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        if isinstance(e, BrokenPipeError) or (e.filename is None and e.errno == errno.EPIPE):
            if standalone:
                _silence_stdout()  # e.g. piped into head: the reader has what it wanted
            return EXIT_OK
        if e.filename is None and e.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG, errno.EBADF):
            if standalone:
                _silence_stdout()
            print(f"symcal: error: stdout: expected an output symcal can write; {e.strerror or e}", file=sys.stderr)
            return EXIT_USAGE
        if e.filename is None:
            return _internal(e)
        # a file or folder named on the command line (or under it) that the system refuses
        print(f"symcal: error: path={shown(str(e.filename))}: expected a file or folder symcal can use; "
              f"{e.strerror or type(e).__name__}", file=sys.stderr)
        return EXIT_USAGE
    except (MemoryError, RecursionError) as e:
        what = "memory" if isinstance(e, MemoryError) else "nesting depth (recursion)"
        print(f"symcal: error: {verb}: expected input that fits this machine; it ran out of {what} "
              f"({type(e).__name__}) -- a smaller or less deeply nested input, or a verb's --timeout", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("symcal: interrupted", file=sys.stderr)
        return 130
    except ValueError as e:
        if "integer string conversion" in str(e):  # Python's int-to-str digit limit: a number too large to handle
            print(f"symcal: error: {verb}: expected numbers of at most {sys.get_int_max_str_digits():,} digits; "
                  f"{shown(' '.join(str(e).split(';')[0].split()), 200)}", file=sys.stderr)
            return EXIT_USAGE
        return _internal(e)
    except Exception as e:
        return _internal(e)


def _tolerant_stdout() -> None:
    """stdout and stderr that cannot fail on a character their encoding lacks (``LC_ALL=C``,
    ``PYTHONIOENCODING=ascii``): such a character is written as a backslash escape, not an
    internal error half-way through the output."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            if stream.errors == "strict":
                stream.reconfigure(errors="backslashreplace")


def _flush_stdout() -> None:
    """Flush stdout inside :func:`main`, so that a write error surfaces here, not at exit."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _silence_stdout() -> None:
    """After a broken pipe or a full disk: stdout goes to /dev/null, so that the interpreter's own
    flush at exit prints nothing more ("Exception ignored ... BrokenPipeError")."""
    with contextlib.suppress(Exception):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _stdout_to_stderr() -> None:
    """After a ``--json`` verb: file descriptor 1 and ``sys.stdout`` point at stderr, so that code
    running at exit (a user's ``atexit`` handler, a finalizer) cannot append to the JSON document."""
    with contextlib.suppress(Exception):
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr


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
