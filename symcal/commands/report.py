"""``symcal report``: the verdicts of the selected claims as Markdown, HTML or LaTeX.

    symcal report [PATTERN ...] [--format md|html|latex] [--out FILE] [--timeout S] [--jobs N]
                  [--theorems FILE [--with-library]]
    symcal report --from RUN.json [PATTERN ...] [--format md|html|latex] [--out FILE]

With ``--from`` the report is built from a saved ``symcal check --json`` run and nothing is decided
again (:mod:`symcal.report.from_run`): each claim's hypotheses and conclusion as mathematics (from
the library by id; an id it lacks is reported from the JSON alone), counterexamples, findings, and
a header with the symcal version, git commit, date and solver versions.

* ``md`` (the default): the Markdown report, stamped with backend versions.
* ``html``: ONE self-contained file (inline CSS and inline SVG; no network, no script), grouped by
  paper with the errata first, statuses coloured, each refuted node claim's counterexample drawn.
* ``latex``: a complete document that compiles with a plain ``pdflatex``; each claim is a table
  row (id, location, statement, verdict, scope) to paste into an appendix.

Without ``--format`` the suffix of ``--out`` decides (``.html``/``.htm``, ``.tex``, else ``md``).
Exit codes as ``symcal check``: 0 when every verdict agrees with its source or is a recorded
erratum, 1 when another verdict disagrees, 2 on bad input.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from symcal.commands import common
from symcal.errors import invalid

__all__ = ["register", "run", "render", "FORMATS"]

FORMATS = ("md", "html", "latex")
_SUFFIXES = {".html": "html", ".htm": "html", ".tex": "latex", ".md": "md", ".markdown": "md"}


def register(sub: Any) -> None:
    sp = sub.add_parser("report", help="write the verdicts as Markdown, one self-contained HTML file, or LaTeX")
    sp.add_argument("patterns", nargs="*", metavar="PATTERN", help="ids, id prefixes or globs ('uematsu2013.*')")
    sp.add_argument("--format", choices=FORMATS, default=None,
                    help="md (default), html (self-contained) or latex (a compilable document); "
                         "default: from the suffix of --out")
    sp.add_argument("--out", metavar="FILE", help="write the report to FILE instead of printing it")
    sp.add_argument("--timeout", type=common.positive_seconds, default=60.0, help="seconds per decision (default 60)")
    sp.add_argument("--jobs", type=common.jobs, default=min(2, os.cpu_count() or 1), help="parallel workers")
    sp.add_argument("--from", dest="from_run", metavar="RUN.json",
                    help="build the report from a saved 'symcal check --json' run; nothing is decided again")
    common.add_theorems_options(sp)
    sp.set_defaults(fn=run)


def output_format(fmt: str | None, out: str | None) -> str:
    """The format asked for, else the one the suffix of ``out`` names, else Markdown."""
    if fmt is not None:
        return fmt
    if out:
        return _SUFFIXES.get(Path(out).suffix.lower(), "md")
    return "md"


def render(pairs: list[tuple[Any, Any]], fmt: str) -> str:
    """The report of ``pairs`` (claim, verdict) in ``fmt`` (``md``, ``html`` or ``latex``)."""
    if fmt == "md":
        from symcal.report import markdown_report

        return markdown_report(pairs) + "\n"
    if fmt == "html":
        from symcal.report.html import report_html

        return report_html(pairs)
    if fmt == "latex":
        from symcal.report.latex import latex_report

        return latex_report(pairs)
    raise invalid("--format", fmt, "one of " + ", ".join(FORMATS))


def run(args: argparse.Namespace) -> int:
    from symcal.library import select
    from symcal.report import agrees, is_erratum
    from symcal.runner import check_many

    if args.out is not None and not args.out.strip():
        raise invalid("--out", args.out, "a file name (leave --out out to print the report)")
    if args.out is not None:  # refused before any claim is decided, not after
        from symcal.report.plot import unwritable_file

        why = unwritable_file(args.out)
        if why:
            raise invalid("--out", args.out, "a file symcal can write", why)
    fmt = output_format(args.format, args.out)
    if getattr(args, "from_run", None) is not None:
        return _run_from(args, fmt)
    # the report is the only thing on stdout: what the claims print while they are decided goes to stderr
    with common.output_to_stderr(True):
        claims = select(common.load_claims(args), args.patterns)
        try:
            verdicts = check_many(claims, timeout=args.timeout, jobs=args.jobs, progress=common.start_progress())
        finally:
            common.end_progress()
    pairs = list(zip(claims, verdicts, strict=True))
    _write(args, render(pairs, fmt), fmt)
    bad = [c for c, v in pairs if not agrees(c, v) and not is_erratum(c, v)]
    return common.EXIT_DISAGREE if bad else common.EXIT_OK


def _write(args: argparse.Namespace, text: str, fmt: str) -> None:
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except (OSError, ValueError) as e:  # ValueError: a NUL in the name
            raise invalid("--out", args.out, "a file symcal can write", str(e)) from None
        print(f"wrote {args.out} ({fmt}, {len(text.encode()):,} bytes)", file=sys.stderr)
    else:
        sys.stdout.write(text)


def _run_from(args: argparse.Namespace, fmt: str) -> int:
    """``--from RUN.json``: the report of a saved run; nothing is decided again.  With ``--theorems``
    the mathematics of the run's claims comes from those files (and the library with
    ``--with-library``)."""
    from symcal.report.from_run import render_run

    common.input_file("--from", args.from_run, "a JSON array written by 'symcal check --json'",
                      max_bytes=common.MAX_RUN_BYTES)
    claims = None
    if getattr(args, "theorems", None):
        with common.output_to_stderr(True):
            claims = {c.id: c for c in common.load_claims(args)}
    try:
        text, es = render_run(args.from_run, fmt, claims=claims, patterns=list(args.patterns) or None)
    except ValueError as e:  # a value beyond Python's int-to-str digit limit in a hand-edited run
        if "integer string conversion" not in str(e):
            raise
        raise invalid("--from", args.from_run, "a JSON array written by 'symcal check --json'",
                      f"it holds a number of more than {sys.get_int_max_str_digits():,} digits") from None
    _write(args, text, fmt)
    return common.EXIT_DISAGREE if any(e.mark == "DISAGREES" for e in es) else common.EXIT_OK
