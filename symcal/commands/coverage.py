"""``symcal coverage``: which statements of the five papers are checked, and how.

``symcal coverage [PAPER] [--json]`` prints, per paper, the counts (statements, checked -- by
proof, on samples, numeric --, errata, definitions, prose, not checkable, out of scope, gaps)
and one line per statement in reading order: its location, a status word (``proof``,
``samples``, ``numeric``, ``+ erratum``, or the reason kind) and the claim ids or the reason.
``--json`` prints ``{paper: {counts..., "entries": [...]}}``.  No solver runs: the status is
read from each claim's expected outcome and recorded finding.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from symcal.errors import invalid

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    sp = sub.add_parser("coverage", help="each paper's statements with the claims that check them, or why none do")
    sp.add_argument(
        "paper",
        metavar="PAPER",
        nargs="?",
        help="one paper (duchi2010, ramaswamy2013, xia2009, uematsu2013, calauzenes2013); all five by default",
    )
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    from symcal.coverage import PAPERS, render_text, summarise, to_json

    if args.paper is not None and args.paper not in PAPERS:
        raise invalid("PAPER", args.paper, "one of " + ", ".join(PAPERS))
    summary = summarise(PAPERS if args.paper is None else (args.paper,))
    if args.json:
        print(json.dumps(to_json(summary), indent=1))
    else:
        print(render_text(summary))
    return 0
