"""``python -m symcal.kernel DIR [--json]`` (or ``symcal-kernel``): re-check a folder of certificate files.

The files are those ``symcal check --certificates DIR`` writes (one per decisive decision; the
format is described in ``symcal/certificate_files.py``).  This process imports the standard library
and :mod:`symcal.kernel` only -- no sympy, no solver, nothing else of symcal -- and checks every
file of DIR (not its sub-folders; names starting with ``.`` are skipped) with
:func:`symcal.kernel.check`.  Each file ends in one of five results:

``accepted``     the kernel accepts every piece, nothing is missing, and the file names no
                 reduction the kernel does not re-check: the verdict is checked end to end;
``trusted``      as ``accepted``, but the verdict rests on a reduction step the kernel does not
                 re-check (node symmetry, one query per conjunct, a local lemma, a wider scope...);
``unavailable``  a piece needs python-flint (interval or transcendental certificates), which is
                 not installed here: not checkable here, not rejected;
``uncertified``  the verdict (or a piece of it) had no certificate: solver-trusted, nothing to check;
``rejected``     unreadable, not a certificate file, a piece the kernel rejects, or a file whose
                 recorded ``status`` / ``checked`` / ``reduction`` disagrees with what the kernel finds.

Prints one summary line (``--json``: a JSON object with one result per file)::

    symcal-kernel: N files: A accepted end to end, T accepted with a trusted reduction,
    U not checkable here (no python-flint), S without a certificate, R rejected

(one line), then one line per rejected file.  Exit 0 when no file is rejected, 1 otherwise, 2 on
usage errors (no such folder, not a folder, no files).

A file is checked in a forked child limited to ``--seconds`` CPU seconds (default 60): a tampered
certificate whose check would never end (``(^ (+ p q) 100000)``, ``(^ 2 999999999999)``) is
``rejected`` with that reason instead of hanging the kernel.  A file larger than 256 MB, a FIFO or a
device is never read (``rejected`` / skipped).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import math
import os
import select
import sys
import time
from pathlib import Path
from typing import Any

from symcal.kernel import check
from symcal.kernel.record import name_problem, record_problem

__all__ = ["FORMAT", "check_file", "check_folder", "summary_line", "main"]

FORMAT = "symcal-certificate 1"
RESULTS = ("accepted", "trusted", "unavailable", "uncertified", "rejected")
DECISIVE = ("proved", "refuted", "witnessed")
EXIT_OK, EXIT_REJECTED, EXIT_USAGE = 0, 1, 2
MAX_FILE_BYTES = 256 * 1024**2  # a certificate file is read whole; the largest symcal writes are a few MB
FILE_SECONDS = 60.0  # CPU seconds the kernel may spend on one file (``--seconds``)


def _judge(cert: Any) -> tuple[str, str]:
    """("checked" | "unavailable" | "rejected", why): the kernel on one certificate; the parts of an
    ``all`` one at a time, so that a part this kernel cannot replay (no python-flint) is told apart
    from one it rejects."""
    parts = cert.get("parts") if isinstance(cert, dict) and cert.get("kind") == "all" else None
    if isinstance(parts, list) and parts and all(isinstance(p, list) and len(p) == 2 for p in parts):
        unavailable = ""
        for label, part in parts:
            state, why = _judge(part)
            if state == "rejected":
                return state, f"{label}: {why}"
            if state == "unavailable" and not unavailable:
                unavailable = f"{label}: {why}"
        return ("unavailable", unavailable) if unavailable else ("checked", "")
    res = check(cert)
    if res["checked"]:
        return "checked", ""
    return ("unavailable" if res.get("unavailable") else "rejected"), str(res["reason"])


def _reduction(steps: Any) -> str | None:
    """"none", "checked" or "trusted" as the steps say; None when they are malformed."""
    if not isinstance(steps, list) or not all(isinstance(s, dict) and isinstance(s.get("checked_by_kernel"), bool)
                                              for s in steps):
        return None
    return "none" if not steps else "checked" if all(s["checked_by_kernel"] for s in steps) else "trusted"


def _result(data: dict[str, Any], name: str | None = None) -> tuple[str, str]:
    """(result, reason) for a file's parsed content (see the module docstring); ``name``: the file's
    name, which must be that of the claim and size the file records."""
    if data.get("format") != FORMAT:
        return "rejected", f"not a symcal certificate file (format {data.get('format')!r}, expected {FORMAT!r})"
    status, cert = data.get("status"), data.get("certificate")
    if not isinstance(cert, dict) or not isinstance(cert.get("checked"), bool) \
            or not isinstance(cert.get("missing", []), list):
        return "rejected", "no certificate record {kind, checked, body, missing}"
    reduction = _reduction(data.get("reductions", []))
    if reduction is None:
        return "rejected", "reductions: expected a list of {kind, checked_by_kernel: true/false}"
    if data.get("reduction") != reduction and not (reduction == "none" and data.get("reduction") == "checked"):
        return "rejected", f"reduction {data.get('reduction')!r} disagrees with its steps ({reduction})"
    body, missing, recorded = cert.get("body"), cert.get("missing", []), cert["checked"]
    if body is None and not missing:
        return "rejected", "no certificate body and no reason why"
    state, why = _judge(body) if body is not None else ("none", "")
    if state == "rejected":
        return "rejected", f"the kernel rejects the certificate: {why}"
    problem = record_problem(data) or (name_problem(name, data) if name is not None else None)
    if problem is not None:  # the record (status, statement, size, kind, reductions, name) says more than the body
        return "rejected", problem
    if recorded and missing:
        return "rejected", f"recorded checked, but {len(missing)} piece(s) have no certificate"
    if status not in DECISIVE:
        return "rejected", f"status {status!r} with a certificate the kernel does not reject"
    if missing:
        what = "; ".join(str(m[1] if isinstance(m, list) and len(m) == 2 else m) for m in missing[:2])
        return "uncertified", f"{len(missing)} piece(s) without a certificate (solver-trusted): {what}"[:500]
    if state == "unavailable":
        return "unavailable", why
    if not recorded:
        return "rejected", "recorded not checked, but the kernel accepts the whole certificate"
    if reduction == "trusted":
        kinds = sorted({str(s.get("kind")) for s in data["reductions"] if not s["checked_by_kernel"]})
        return "trusted", "trusted reduction: " + ", ".join(kinds)
    return "accepted", ""


def check_file(path: Path) -> dict[str, Any]:
    """The kernel's result for one certificate file: ``{"file", "result", "reason", "claim", "size",
    "status", "kind", "reduction", "seconds"}`` (an unreadable file is ``rejected``)."""
    start = time.perf_counter()
    row: dict[str, Any] = {"file": path.name, "claim": None, "size": None, "status": None, "kind": None,
                           "reduction": None}
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{size:,} bytes; a certificate file has at most {MAX_FILE_BYTES:,}")
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError, MemoryError) as e:  # ValueError: bad JSON or bad UTF-8
        result, reason = "rejected", f"unreadable: {type(e).__name__}: {e}"[:300]
    else:
        if isinstance(data, dict):
            cert = data.get("certificate")
            row.update(claim=data.get("claim"), size=data.get("size"), status=data.get("status"),
                       kind=cert.get("kind") if isinstance(cert, dict) else None, reduction=data.get("reduction"))
            try:
                result, reason = _result(data, path.name)
            except RecursionError:
                result, reason = "rejected", "the certificate is nested too deeply"
            except Exception as e:  # noqa: BLE001 - a malformed file the kernel trips over is rejected, never a crash
                result, reason = "rejected", f"malformed: the kernel failed on it ({type(e).__name__}: {e})"[:300]
        else:
            result, reason = "rejected", f"not a symcal certificate file (a JSON {type(data).__name__})"
    row.update(result=result, reason=reason, seconds=round(time.perf_counter() - start, 3))
    return row


def check_folder(folder: Path, seconds: float | None = None) -> list[dict[str, Any]]:
    """:func:`check_file` for every file of ``folder`` (sorted by name; hidden files skipped); with
    ``seconds``, under that many CPU seconds per file (:func:`check_files_limited`)."""
    files = _files(folder)
    return [check_file(p) for p in files] if seconds is None else check_files_limited(files, seconds)


def check_files_limited(files: list[Path], seconds: float = FILE_SECONDS) -> list[dict[str, Any]]:
    """:func:`check_file` of each of ``files`` in a forked child whose ``RLIMIT_CPU`` is raised to
    "used so far + ``seconds``" before each file (a wall clock of 20 times that is the last resort): a
    file whose check does not end is ``rejected`` saying so, and a new child goes on with the next
    file.  One child for the whole folder while nothing goes wrong (a fork per file cost 16 ms each).
    Without ``fork`` (not POSIX) the files are checked in this process."""
    if not hasattr(os, "fork"):  # pragma: no cover - not POSIX
        return [check_file(p) for p in files]
    rows: list[dict[str, Any]] = []
    while len(rows) < len(files):
        rows.extend(_child_run(files, len(rows), seconds))
    return rows


def _child_run(files: list[Path], first: int, seconds: float) -> list[dict[str, Any]]:
    """Check ``files[first:]`` in one forked child (see :func:`check_files_limited`); the rows it
    finished, then -- if it was stopped or died -- one ``rejected`` row for the file it was on."""
    import resource

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one JSON line per file, ended without running the parent's exit code
        code = 0
        try:
            os.close(r)
            hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
            with os.fdopen(w, "wb", buffering=0) as out:
                for path in files[first:]:
                    use = resource.getrusage(resource.RUSAGE_SELF)
                    soft = math.ceil(use.ru_utime + use.ru_stime) + max(1, math.ceil(seconds))
                    if hard == resource.RLIM_INFINITY or soft < hard:
                        with contextlib.suppress(ValueError, OSError):
                            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
                    out.write(json.dumps(check_file(path)).encode() + b"\n")
        except BaseException:  # noqa: BLE001 - the parent reports the file without an answer
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    rows: list[dict[str, Any]] = []
    buffer = b""
    started = time.monotonic()
    killed = False
    try:
        while True:
            if time.monotonic() - started > 20 * seconds + 10:  # the current file's wall-clock backstop
                killed = True
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
                break
            ready, _, _ = select.select([r], [], [], 1.0)
            if not ready:
                continue
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                rows.append(json.loads(line))
                started = time.monotonic()
    finally:
        os.close(r)
        _, status = os.waitpid(pid, 0)
    if first + len(rows) < len(files):  # stopped or died on this file
        path = files[first + len(rows)]
        stopped = killed or (os.WIFSIGNALED(status) and os.WTERMSIG(status) in (9, 24))  # SIGKILL, SIGXCPU
        why = (f"its check did not finish within {seconds:g} CPU seconds (--seconds; a tampered size or exponent?)"
               if stopped else f"the kernel ended without an answer on it (wait status {status})")
        rows.append({"file": path.name, "claim": None, "size": None, "status": None, "kind": None,
                     "reduction": None, "result": "rejected", "reason": why, "seconds": None})
    return rows


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def summary_line(rows: list[dict[str, Any]]) -> str:
    """``symcal-kernel: N files: A accepted end to end, T accepted with a trusted reduction, U not
    checkable here (no python-flint), S without a certificate, R rejected``."""
    n = {r: sum(1 for row in rows if row["result"] == r) for r in RESULTS}
    return (f"symcal-kernel: {len(rows)} files: {n['accepted']} accepted end to end, {n['trusted']} accepted with a "
            f"trusted reduction, {n['unavailable']} not checkable here (no python-flint), {n['uncertified']} without "
            f"a certificate, {n['rejected']} rejected")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        message = " ".join(message.split())
        print(f"symcal-kernel: error: {message} (usage: {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _seconds(text: str) -> float:
    """The argparse ``type`` of ``--seconds``: CPU seconds per file, > 0 and at most one day."""
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not 0 < v <= 86_400:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"--seconds={text!r}: expected CPU seconds per file > 0 (at most 86400)")
    return v


def main(argv: list[str] | None = None) -> int:
    """Check every certificate file of a folder; print the summary; 0, 1 (a file rejected) or 2 (usage).
    A closed pipe (``| head -1``) ends quietly; an output that cannot be written (``> /dev/full``) is a
    one-line error, exit 2; a character stdout's encoding lacks is written as a backslash escape."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            if stream.errors == "strict":
                stream.reconfigure(errors="backslashreplace")
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except OSError as e:
        if e.errno not in (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG):
            raise
        with contextlib.suppress(Exception):  # nothing more to stdout, not even at exit
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)
        if e.errno == errno.EPIPE:
            return EXIT_OK
        print(f"symcal-kernel: error: stdout: expected an output this process can write; {e.strerror}",
              file=sys.stderr)
        return EXIT_USAGE


def _main(argv: list[str] | None) -> int:
    prog = "symcal-kernel" if Path(sys.argv[0]).name == "symcal-kernel" else "python -m symcal.kernel"
    p = _Parser(prog=prog, description="Re-check a folder of symcal certificate files with the independent "
                "kernel (no sympy, no solver).")
    p.add_argument("folder", metavar="DIR", help="a folder written by `symcal check --certificates DIR`")
    p.add_argument("--json", action="store_true", help="print a JSON object with one result per file")
    p.add_argument("--seconds", type=_seconds, default=FILE_SECONDS, metavar="S",
                   help=f"CPU seconds the kernel may spend on one file (default {FILE_SECONDS:g}); a file that needs "
                        "more is rejected")
    args = p.parse_args(argv)
    folder = Path(args.folder)
    try:
        if not args.folder.strip():
            raise ValueError("expected a folder name")
        if "\x00" in args.folder:
            raise ValueError("expected a folder name without a NUL character")
        if not folder.exists():
            raise ValueError("no such folder")
        if not folder.is_dir():
            raise ValueError("not a folder")
        if not _files(folder):
            raise ValueError("a folder with no files (write some with `symcal check --certificates DIR`)")
    except (ValueError, OSError) as e:
        print(f"symcal-kernel: error: DIR={args.folder!r}: {e}", file=sys.stderr)
        return EXIT_USAGE
    start = time.perf_counter()
    rows = check_folder(folder, args.seconds)
    line = summary_line(rows)
    rejected = [r for r in rows if r["result"] == "rejected"]
    if args.json:
        counts = {r: sum(1 for row in rows if row["result"] == r) for r in RESULTS}
        print(json.dumps({"folder": str(folder), "files": len(rows), **counts, "summary": line,
                          "seconds": round(time.perf_counter() - start, 3), "results": rows}, indent=1))
    else:
        print(line)
        for r in rejected:
            print(f"  REJECTED {r['file']}: {r['reason']}")
    return EXIT_REJECTED if rejected else EXIT_OK
