"""What several verbs of the command line share: the exit codes, the argparse types of
``--size``, ``--timeout``, ``--jobs`` and ``--draw``, the ``--theorems`` and ``--cluster`` options,
loading the claims a command works on, the progress bar and the Dask cluster of ``--cluster``.

Exit codes (ARCHITECTURE.md, *Interface contract*): 0 when every verdict agrees with its expected
outcome or is a recorded erratum; 1 when any other verdict disagrees; 2 on usage or input
errors; 3 on an internal error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symcal.claims.arguments import MAX_JOBS
from symcal.commands import seconds, whole_number
from symcal.errors import InvalidClaim, invalid

if TYPE_CHECKING:
    from symcal.claims.core import Claim

__all__ = [
    "EXIT_OK", "EXIT_DISAGREE", "EXIT_USAGE", "EXIT_INTERNAL", "MAX_SIZES",
    "size_range", "positive_seconds", "jobs", "picture_file", "picture_dir",
    "add_theorems_options", "add_cluster_options", "load_claims", "output_to_stderr", "start_progress", "end_progress",
    "open_cluster", "MAX_INPUT_BYTES", "input_file", "writable_dir", "preserved_interpreter",
]

EXIT_OK, EXIT_DISAGREE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

MAX_SIZES = 10_000

# an input file read whole (a loss matrix, cost table, posteriors, saved run, --theorems file): at most 2 GB;
# each verb's own, smaller limit (e.g. 1 GB for a preference file) is checked by its reader
MAX_INPUT_BYTES = 2_000_000_000
# a saved run (report --from) or a --theorems file: the library's 419 claims take a few MB
MAX_RUN_BYTES = 256 * 1024**2


def input_file(param: str, path: str, expected: str, *, max_bytes: int = MAX_INPUT_BYTES) -> Path:
    """``path`` as a :class:`Path` once it names an existing regular file of at most ``max_bytes``; else a
    one-line :class:`~symcal.errors.InvalidInput` naming ``param``, the path and ``expected``.

    A FIFO, a character device (``/dev/zero``, ``/dev/urandom``), a socket or a folder is refused
    before anything opens it: reading one would wait for a writer forever or never end (found by
    the robustness red team: ``symcal preference FIFO`` was reported as a timeout, ``costs
    --posteriors FIFO`` hung, ``/dev/zero`` ended in a MemoryError)."""
    import stat

    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise invalid(param, path, expected, "no such file") from None
    except (OSError, ValueError) as e:  # a loop of symlinks, a name too long, a NUL byte
        raise invalid(param, path, expected, getattr(e, "strerror", None) or str(e)) from None
    if stat.S_ISDIR(st.st_mode):
        raise invalid(param, path, expected, "it is not a file (a folder)")
    if not stat.S_ISREG(st.st_mode):
        kind = "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode) or \
            stat.S_ISBLK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file"
        raise invalid(param, path, expected, f"it is {kind}, not a regular file")
    if st.st_size > max_bytes:
        raise invalid(param, path, expected, f"it has {st.st_size / 1e6:,.0f} MB; at most {max_bytes / 1e6:,.0f} MB")
    return p


def writable_dir(param: str, path: str | None) -> None:
    """Refuse an output folder (``--smtlib``, ``--draw DIR``) before any work: an empty name, or one
    that cannot be created; a one-line :class:`~symcal.errors.InvalidInput` naming ``param``."""
    if path is None:
        return
    if not path.strip():
        raise invalid(param, path, "a folder name")
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as e:
        raise invalid(param, path, "a directory symcal can create and write", str(e)) from None


@contextlib.contextmanager
def preserved_interpreter() -> Iterator[None]:
    """Import users' files without letting them change this process's interpreter for the rest of
    the run: the recursion limit (a file that lowers it to 50 made every later decision a
    RecursionError), the handlers of SIGINT, SIGTERM and SIGPIPE (a file ignoring SIGINT made
    Ctrl-C useless) and the working folder are put back afterwards."""
    import signal

    limit = sys.getrecursionlimit()
    handlers = {}
    for name in ("SIGINT", "SIGTERM", "SIGPIPE"):
        sig = getattr(signal, name, None)
        if sig is not None:
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                handlers[sig] = signal.getsignal(sig)
    try:
        cwd: str | None = os.getcwd()
    except OSError:
        cwd = None
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)
        for sig, h in handlers.items():
            if h is not None:
                with contextlib.suppress(ValueError, OSError, TypeError):
                    signal.signal(sig, h)
        if cwd is not None:
            with contextlib.suppress(OSError):
                if os.getcwd() != cwd:
                    os.chdir(cwd)


def size_range(text: str) -> tuple[int, int]:
    """The argparse ``type`` of ``--size``: ``A..B`` or ``N`` (whole numbers, at most MAX_SIZES sizes)."""
    m = re.fullmatch(r"\s*([0-9]{1,12})\s*(?:\.\.\s*([0-9]{1,12}))?\s*", text, re.ASCII)
    if not m:
        raise argparse.ArgumentTypeError(f"--size={text!r}: expected A..B or N with whole numbers, e.g. 3..12")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if lo > hi:
        raise argparse.ArgumentTypeError(f"--size={text!r}: expected A <= B")
    if hi - lo + 1 > MAX_SIZES:
        raise argparse.ArgumentTypeError(f"--size={text!r}: {hi - lo + 1:,} sizes; at most {MAX_SIZES:,} sizes per "
                                         f"sweep")
    return lo, hi


positive_seconds = seconds  # the one parser of --timeout (symcal.commands.seconds), under its older name


jobs = whole_number("--jobs", 1, MAX_JOBS)  # the argparse ``type`` of --jobs


def picture_file(text: str) -> str:
    """The argparse ``type`` of ``--draw FILE`` (symcal.report.plot, imported when used)."""
    from symcal.report.plot import picture_file

    return picture_file(text)


def picture_dir(text: str) -> str:
    """The argparse ``type`` of ``--draw DIR`` (symcal.report.plot, imported when used)."""
    from symcal.report.plot import picture_dir

    return picture_dir(text)


def add_theorems_options(sp: argparse.ArgumentParser) -> None:
    """``--theorems FILE`` (repeatable) and ``--with-library`` on the sub-parser ``sp``."""
    sp.add_argument("--theorems", action="append", metavar="FILE",
                    help="a Python file of your own claims (instead of the bundled library)")
    sp.add_argument("--with-library", action="store_true", help="with --theorems: also load the bundled library")


def add_cluster_options(sp: argparse.ArgumentParser) -> None:
    """``--cluster``, ``--cache`` and ``--no-cache`` (symcal.cluster) on the sub-parser ``sp``."""
    sp.add_argument("--cluster", metavar="ADDRESS|local",
                    help="decide on a Dask cluster: a scheduler's address (tcp://host:8786) or 'local' (2 worker "
                         "processes on this machine); needs symcal[cluster]")
    sp.add_argument("--cache", metavar="DIR", help="with --cluster: keep each decision in DIR (default "
                    "~/.cache/symcal), so that a re-run costs nothing")
    sp.add_argument("--no-cache", action="store_true", help="with --cluster: neither read nor write the cache")


def load_claims(args: argparse.Namespace) -> list[Claim]:
    """The claims of ``--theorems`` files (and the bundled library with ``--with-library``), else
    the bundled library.
    An id defined twice -- in two files, or in a file and the library it is loaded with -- is an
    error naming both (without ``--with-library`` a file may reuse a library id: the library is not
    loaded).  Under ``--json`` whatever the files print at import goes to stderr."""
    from symcal.library import load_bundled, load_file, load_selected, merge

    if getattr(args, "with_library", False) and not getattr(args, "theorems", None):
        raise invalid("--with-library", True, "--theorems FILE as well", "the bundled library is loaded anyway")
    if getattr(args, "theorems", None):
        # the front door the files import, loaded once here: each file is imported first in a forked
        # child under its CPU limit, which should not spend it on loading symcal
        from symcal import check  # noqa: F401

        sources: list[tuple[str, list[Claim]]] = []
        seen: set[Path] = set()
        for f in args.theorems:  # all names first: a file given twice is refused before any file runs
            key = Path(f).resolve()
            if key in seen:
                raise invalid("--theorems", f, "each file once (it was given twice)")
            seen.add(key)
        for f in args.theorems:
            if Path(f).exists():  # a FIFO or a device is refused before a child waits on it
                input_file("--theorems", f, "a .py file defining claims", max_bytes=MAX_RUN_BYTES)
            # imported first in a child under the time limit: a file that loops, exits or crashes
            # at import is a one-line error, never symcal's end
            with output_to_stderr(getattr(args, "json", False)), preserved_interpreter():
                sources.append((f, load_file(f, timeout=getattr(args, "timeout", None) or 60.0)))
        if getattr(args, "with_library", False):
            sources.append(("the bundled library (--with-library)", load_bundled()))
        try:
            return merge(sources)
        except InvalidClaim as e:
            raise InvalidClaim(f"--theorems: {e}") from None
    return load_selected(_patterns(args))


def _patterns(args: argparse.Namespace) -> list[str] | None:
    """The claim patterns of a command (``patterns``, ``pattern`` or ``id``), None for all claims."""
    for name in ("patterns", "pattern", "id"):
        value = getattr(args, name, None)
        if value:
            return list(value) if isinstance(value, list | tuple) else [str(value)]
    return None


@contextlib.contextmanager
def output_to_stderr(active: bool = True) -> Iterator[None]:
    """While ``active``, whatever is written to stdout goes to stderr: ``print`` in this process,
    in the processes started meanwhile (forked workers, the child importing a ``--theorems`` file:
    they inherit file descriptor 1) and C code writing to it -- so that under ``--json`` stdout
    carries only the JSON printed afterwards."""
    if not active:
        yield
        return
    saved = sys.stdout
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        fd: int | None = sys.stdout.fileno()
        err_fd: int | None = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # a captured stream (pytest): no descriptor to move
        fd = err_fd = None
    kept = os.dup(fd) if fd is not None else None
    lines: io.TextIOWrapper | None = None
    if fd is not None and err_fd is not None:
        os.dup2(err_fd, fd)
        # one write per printed line: ``sys.stderr`` writes each piece of a ``print`` at once, so
        # two workers printing at the same time would shred each other's lines
        lines = open(fd, "w", buffering=1, encoding=getattr(sys.stderr, "encoding", None) or "utf-8",
                     errors="backslashreplace", closefd=False)
    sys.stdout = lines if lines is not None else sys.stderr
    try:
        yield
    finally:
        if lines is not None:
            with contextlib.suppress(Exception):
                lines.close()
        for stream in (sys.stderr, saved):
            with contextlib.suppress(Exception):
                stream.flush()
        sys.stdout = saved
        if kept is not None and fd is not None:
            os.dup2(kept, fd)
            os.close(kept)


_BARS: list[Any] = []  # the progress bar on screen, erased by end_progress()


def start_progress(json: bool = False, desc: str = "deciding") -> Any:
    """A progress bar with counts and an ETA (tqdm; symcal.progress) when stdout and stderr are
    terminals and the output is not --json; else a plain line on stderr every few seconds
    (:class:`symcal.progress.PlainProgress`).  :func:`end_progress` closes either."""
    from symcal.progress import plain_progress, progress_bar

    end_progress()
    bar = progress_bar(desc, json=json)
    if bar is None:
        bar = plain_progress(desc, json=json)
    if bar is not None:
        _BARS.append(bar)
    return bar


def end_progress() -> None:
    """Close the progress bar on screen, if any."""
    while _BARS:
        _BARS.pop().close()


@contextlib.contextmanager
def open_cluster(args: argparse.Namespace) -> Iterator[Any]:
    """The Dask cluster of --cluster (symcal.cluster), closed afterwards; None without --cluster."""
    address = getattr(args, "cluster", None)
    if address is None:
        if getattr(args, "cache", None) or getattr(args, "no_cache", False):
            raise invalid("--cache" if args.cache else "--no-cache", args.cache or True, "--cluster as well",
                          "the cache keeps decisions made with --cluster (use --cluster local on one machine)")
        yield None
        return
    from symcal.cluster import Cluster

    cache = False if args.no_cache else (args.cache or True)
    with Cluster(address, theorems=args.theorems or (), with_library=args.with_library, cache=cache) as c:
        c.notify = lambda message: print(f"symcal: {message}", file=sys.stderr)
        yield c
        print(f"cluster {address}: {c.summary()}", file=sys.stderr)
