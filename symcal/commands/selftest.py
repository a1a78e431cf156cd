"""``symcal selftest --mutants``: mutation testing of the library; is every claim's check able
to fail?

    symcal selftest --mutants [PATTERN ...] [--timeout S] [--jobs N] [--json] [--verbose]
                    [--theorems FILE [--with-library]] [--cluster ADDRESS|local [--cache DIR | --no-cache]]
    symcal selftest --findings [PATTERN ...] [same options]

Mutates every selected claim (symcal.explore.mutants, with the operator ``twin`` from
symcal.explore.twins) and prints, per claim, how many mutants were killed and every survivor
with why (``--verbose``: the killed ones too), then the summary; ``--json`` prints the report as
JSON.  ``--findings`` runs the same mutation test and lists only its survivors, grouped by what
each says about its claim: a hypothesis not needed, a bound not tight (or never tight), an
inequality that holds both ways, a symmetry, a declared twin that does not break its claim --
each a decided statement (with its scope) worth reporting, not a failure of the check
(``--json``: a JSON array of them).  With ``--mutants --findings`` both are printed.  Exit code
0 when no mutant is unsound, 1 otherwise, 2 on bad input.
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
    sp = sub.add_parser("selftest", help="mutation testing: is every claim's check able to fail?")
    sp.add_argument("patterns", nargs="*", metavar="PATTERN", help="restrict to these claims")
    sp.add_argument("--mutants", action="store_true", help="mutate every claim and report the kill rate")
    sp.add_argument("--findings", action="store_true",
                    help="list the survivors of the mutation test by what they say: hypotheses not needed, "
                         "bounds not tight, ...")
    sp.add_argument("--timeout", type=common.positive_seconds, default=10.0, help="seconds per mutant (default 10)")
    sp.add_argument("--jobs", type=common.jobs, default=min(2, os.cpu_count() or 1))
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--verbose", "-v", action="store_true", help="list killed mutants too")
    common.add_theorems_options(sp)
    common.add_cluster_options(sp)
    sp.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Mutation testing of the library: every mutant killed, or its survival explained."""
    from symcal.explore.mutants import run_selftest
    from symcal.library import select

    if not (args.mutants or args.findings):
        raise invalid("selftest", "(no mode)", "a mode: --mutants or --findings", "symcal selftest --mutants")
    from symcal.explore.twins import twins_for

    claims = select(common.load_claims(args), args.patterns)
    twins = twins_for(claims, files=getattr(args, "theorems", None) or ())  # the operator `twin`
    # under --json, stdout is only the JSON: what the claims print while they are decided goes to stderr
    with common.output_to_stderr(args.json), common.open_cluster(args) as cluster:
        try:
            report = run_selftest(claims, timeout=args.timeout, jobs=args.jobs,
                                  progress=common.start_progress(args.json), cluster=cluster, twins=twins)
        finally:
            common.end_progress()
    if args.json and not args.mutants:
        print(json.dumps([_finding_json(r) for r in report.findings()], indent=1))
    elif args.json:
        out = report.to_json()
        if args.findings:
            out["findings"] = [_finding_json(r) for r in report.findings()]
        print(json.dumps(out, indent=1))
    elif not args.mutants:
        _print_findings(report)
    else:
        by_claim: dict[str, list[Any]] = {}
        for r in report.results:
            by_claim.setdefault(r.mutant.original.id, []).append(r)
        for cid, rows in by_claim.items():
            killed = sum(r.outcome == "killed" for r in rows)
            print(f"{cid}: {killed}/{len(rows)} killed")
            for r in rows:
                if r.outcome != "killed" or args.verbose:
                    print(f"  {r.outcome:<10} {r.mutant.edit}: {r.why}")
        for cid, why in report.not_mutable:
            print(f"{cid}: no mutant ({why})")
        for cid, why in report.skipped:
            print(f"{cid}: not mutated ({why})")
        print()
        print(report.summary())
        for why, n in report.undecided_by_reason().items():
            print(f"  undecided {n:>4}: {why}")
        if args.findings:
            print()
            _print_findings(report)
    return common.EXIT_DISAGREE if report.count("unsound") else common.EXIT_OK


def _finding_json(r: Any) -> dict[str, Any]:
    return {"claim": r.mutant.original.id, "finding": r.finding, "operator": r.mutant.operator,
            "edit": r.mutant.edit, "mutant": r.mutant.claim.id, "status": r.verdict.status.value,
            "scope": r.verdict.scope, "why": r.why}


def _print_findings(report: Any) -> None:
    """The survivors, grouped by what they say about their claims."""
    rows = report.findings()
    kind = None
    for r in rows:
        if r.finding != kind:
            kind = r.finding
            n = sum(x.finding == kind for x in rows)
            print(f"{kind} ({n}):")
        scope = f" [{r.verdict.status.value}; {r.verdict.scope}]" if r.verdict.scope else f" [{r.verdict.status.value}]"
        print(f"  {r.mutant.original.id}: {r.mutant.edit}{scope}")
    print(f"{len(rows)} findings (survivors, each a decided statement) among {len(report.results)} mutants; "
          f"{report.count('undecided')} undecided")
