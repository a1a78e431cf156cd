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
"""

from __future__ import annotations

import argparse
import json
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
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as e:  # ValueError: bad JSON or bad UTF-8
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


def check_folder(folder: Path) -> list[dict[str, Any]]:
    """:func:`check_file` for every file of ``folder`` (sorted by name; hidden files skipped)."""
    return [check_file(p) for p in _files(folder)]


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
        print(f"symcal-kernel: error: {message} (usage: {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def main(argv: list[str] | None = None) -> int:
    """Check every certificate file of a folder; print the summary; 0, 1 (a file rejected) or 2 (usage)."""
    prog = "symcal-kernel" if Path(sys.argv[0]).name == "symcal-kernel" else "python -m symcal.kernel"
    p = _Parser(prog=prog, description="Re-check a folder of symcal certificate files with the independent "
                "kernel (no sympy, no solver).")
    p.add_argument("folder", metavar="DIR", help="a folder written by `symcal check --certificates DIR`")
    p.add_argument("--json", action="store_true", help="print a JSON object with one result per file")
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
    rows = check_folder(folder)
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
