"""``symcal preference FILE``: check your own preference distribution (JSON): low noise, A(p),
the minimum of l(p, alpha), ...

    symcal preference FILE [--json] [--timeout S] [--draw FILE]

Reading, validating and every check run in one child under one CPU budget (``--timeout``).
Exit code 0 when the minimum of l(p, alpha) was proved, 1 when it was not within the limit (or
the report did not finish), 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from symcal.commands import common

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    sp = sub.add_parser("preference", help="check your own preference distribution (JSON): low noise, A(p), ...")
    sp.add_argument("file")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--timeout", type=common.positive_seconds, default=60.0,
                    help="CPU seconds for the whole report (default 60); the minimum of l(p, alpha) is then "
                         "'unknown' with the best order and a lower bound")
    sp.add_argument("--draw", metavar="FILE", type=common.picture_file,
                    help="draw the weights, the difference graph (low-noise violation in red) and an optimal order "
                         "into FILE (.svg, .png or .pdf; needs symcal[plot])")
    sp.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    from symcal.limits import TimeLimitReached, run_limited
    from symcal.ranking.io import load_preferences, report_file

    timeout = getattr(args, "timeout", 60.0)
    # a FIFO or a device is refused here: in the child it waited for a writer until the stall rule
    # called it a timeout, and /dev/zero ended in a MemoryError
    common.input_file("file", args.file, "a JSON preference file")
    try:  # reading, validating and every check: one CPU budget in a child that is really stopped
        report = run_limited(report_file, args.file, timeout=timeout, time_limit=timeout,
                             what="the preference report")
    except TimeLimitReached:
        reason = f"gave up after {timeout:g} s: the preference report did not finish within --timeout {timeout:g}"
        print(json.dumps({"status": "unknown", "reason": reason}) if args.json else f"symcal: {reason}: unknown")
        return common.EXIT_DISAGREE
    # exit 1 when the minimum of l(p, alpha) (NP-hard) was not proved within the limit
    code = common.EXIT_OK if report["min_conditional_risk"]["status"] == "exact" else common.EXIT_DISAGREE
    if getattr(args, "draw", None):  # weights, difference graph, optimal order (symcal.report.plot)
        from symcal.report.plot import preferences

        data = load_preferences(args.file)
        print(f"wrote {preferences(data).save(args.draw)}", file=sys.stderr)
    if args.json:
        print(json.dumps(report, indent=1, default=str))
        return code
    for key, value in report.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for k, v in value.items():
                print(f"  {k}: {v}")
        elif isinstance(value, list):
            print(f"{key}:")
            for v in value:
                print(f"  {v}")
        else:
            print(f"{key}: {value}")
    return code
