"""``symcal necessity ID``: drop each hypothesis of one claim in turn; which are needed?

    symcal necessity ID [--size A..B] [--timeout S] [--jobs N] [--json]
                     [--theorems FILE [--with-library]] [--cluster ADDRESS|local [--cache DIR | --no-cache]]

Prints one line per hypothesis (needed or not, the status and scope of the check without it)
and, for a needed one, the counterexample without it, re-checked exactly; ``--json`` prints a
JSON array.  Exit code 0, or 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from symcal.commands import common
from symcal.errors import invalid

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    sp = sub.add_parser("necessity", help="drop each hypothesis in turn: which are needed?")
    sp.add_argument("id")
    sp.add_argument("--size", type=common.size_range)
    sp.add_argument("--timeout", type=common.positive_seconds, default=30.0)
    sp.add_argument("--jobs", type=common.jobs, default=min(2, os.cpu_count() or 1))
    sp.add_argument("--json", action="store_true")
    common.add_theorems_options(sp)
    common.add_cluster_options(sp)
    sp.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    from symcal.explore import necessity

    claims = common.load_claims(args)
    found = [c for c in claims if c.id == args.id]
    if not found:
        from symcal.library import select

        select(claims, [args.id])
        raise invalid("id", args.id, "the exact id of one claim")
    claim = found[0]
    if args.size is not None and claim.sizes is not None:
        claim.sizes.validate(args.size[0], args.size[1], claim.id)
    # under --json, stdout is only the JSON: what the claims print while they are decided goes to stderr
    with common.output_to_stderr(args.json), common.open_cluster(args) as cluster:
        try:
            rows = necessity(claim, sizes=args.size, timeout=args.timeout, jobs=args.jobs,
                             progress=common.start_progress(args.json), cluster=cluster)
        finally:
            common.end_progress()
    if args.json:
        print(json.dumps([{
            "hypothesis": r.hypothesis, "answer": r.answer, "needed": r.needed, "status": r.verdict.status.value,
            "scope": r.scope, "evidence": r.verdict.evidence.to_json() if r.verdict.evidence else None,
            "reason": r.verdict.reason,
        } for r in rows], indent=1))
        return common.EXIT_OK
    print(f"{claim.id}: dropping each hypothesis in turn")
    for r in rows:
        print(f"  {r.hypothesis}: {r.answer} ({r.verdict.status.value}, {r.scope})")
        if r.needed and r.verdict.evidence is not None:
            print(f"    counterexample without it (re-checked exactly): {r.verdict.evidence.summary()}")
        elif r.needed is None and r.verdict.reason:
            print(f"    {r.verdict.reason}")
    return common.EXIT_OK
