"""Differential fuzzing: N seeded random claims decided by symcal and judged by independent
oracles (:mod:`symcal.explore.fuzz`).

One row per run: the claims, the false verdicts (a decisive verdict an oracle refutes with an
exact certificate; target 0), the share of ``unknown``, and claims per second (wall time of the
whole run: generating, building, deciding with a 2 s CPU budget each, judging).  Decisions run in
this process by default, as the default-run test does (``--isolate``: one forked worker per claim,
``check_many``'s default, whose fork costs more than most of these small decisions).
The note lists the families with false verdicts; ``detail`` has the per-family counts and every
false verdict's reproducer.

Run alone: ``python -m bench.fuzz [N] [--seed S] [--jobs J]`` (default 2,000 claims; the bench's
quick mode runs 300, the full one 10,000).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any


def measure(n: int, seed: int = 1, timeout: float = 2.0, jobs: int = 1, isolate: bool = False) -> dict[str, Any]:
    """One fuzz run of ``n`` claims, as a bench row (a dict for bench.run's table)."""
    from symcal.explore.fuzz import run_fuzz

    start = time.perf_counter()
    report = run_fuzz(n, seed=seed, timeout=timeout, jobs=jobs, isolate=isolate)
    wall = time.perf_counter() - start
    unknown = report.total("unknown")
    bad = {f: s.false for f, s in report.families.items() if s.false}
    note = (f"{len(report.false_verdicts)} false verdicts"
            + (" (" + ", ".join(f"{f}: {k}" for f, k in sorted(bad.items())) + ")" if bad else "")
            + f"; unknown {100 * unknown / max(report.claims, 1):.1f}%; refused {report.total('refused')}, "
              f"error {report.total('error')}, oracle abstained {report.total('abstained')}; "
              f"{report.claims / wall:.1f} claims/s (seed {seed}, {timeout:g} s per claim, "
              + (f"forked workers, {jobs} jobs)" if isolate else "in-process)"))
    return {"what": "differential fuzzing: symcal vs independent oracles", "size": f"{report.claims} claims",
            "symcal_s": wall, "target": "0 false verdicts", "met": not report.false_verdicts, "note": note,
            "claims": report.claims, "false_verdicts": len(report.false_verdicts),
            "unknown_share": round(unknown / max(report.claims, 1), 4),
            "claims_per_second": round(report.claims / wall, 2), "report": report.to_json()}


def rows(quick: bool) -> list[dict[str, Any]]:
    """bench.run's ``fuzz`` section: 300 claims with --quick, else 10,000."""
    return [measure(300 if quick else 10_000)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__.splitlines()[0])
    p.add_argument("n", nargs="?", type=int, default=2000, help="how many claims (default 2000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2, help="workers with --isolate (default 2)")
    p.add_argument("--isolate", action="store_true", help="decide each claim in a forked worker")
    p.add_argument("--timeout", type=float, default=2.0, help="CPU seconds per claim (default 2)")
    args = p.parse_args(argv)
    if args.n < 1 or args.jobs < 1 or args.timeout <= 0:
        raise SystemExit(f"n={args.n}, jobs={args.jobs}, timeout={args.timeout}: expected positive numbers")
    row = measure(args.n, args.seed, args.timeout, args.jobs if args.isolate else 1, args.isolate)
    from symcal.explore.fuzz import FamilyStats, FuzzReport

    rep = row["report"]
    r = FuzzReport({f: FamilyStats(**s) for f, s in rep["families"].items()}, seconds=row["symcal_s"], seed=args.seed)
    summary = r.summary().replace(" 0 false verdicts,", f" {len(rep['false_verdicts'])} false verdicts,")
    print(summary)
    for f in rep["false_verdicts"]:
        print(f"--- {f['family']} {f['claim_id']}: {f['status']}: {f['why']}\n{f['reproducer']}")
    return 0 if not rep["false_verdicts"] else 1


if __name__ == "__main__":
    sys.exit(main())
