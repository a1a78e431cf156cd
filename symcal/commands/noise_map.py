"""``symcal noise-map``: the map of the papers' noise conditions.

``symcal noise-map [--n N] [--json] [--draw FILE]`` decides, for every ordered pair (A, B) of
the conditions of :mod:`symcal.explore.noise_map` on the same objects, whether A is contained
in B at size n: ``proved`` (z3: the negated query is unsat) or ``separated`` (an exact label
distribution in A and not in B, re-checked by both conditions' own checks); conditions on
different objects are ``not comparable``.  Without ``--n`` it covers n = 3..5; ``--n N`` gives
one size (3 to 6).  ``--json`` prints only JSON on stdout; ``--draw FILE`` (.png, .svg or .pdf,
needs matplotlib) draws an arrow A -> B wherever A is contained in B at every size shown.
Exit codes: 0 when every comparable cell is decided, 1 when one is unknown, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from symcal.commands import common

__all__ = ["register", "run"]


def _size(text: str) -> int:
    """The argparse ``type`` of ``--n``: a whole number from 3 to 6, else a one-line error."""
    from symcal.explore.noise_map import MAX_N

    try:
        v = int(text)
    except ValueError:
        v = 0
    if not 3 <= v <= MAX_N:
        raise argparse.ArgumentTypeError(f"--n={text!r}: expected a whole number from 3 to {MAX_N}")
    return v


def register(sub: Any) -> None:
    sp = sub.add_parser("noise-map", help="which of the papers' noise conditions contains which, proved or "
                                          "separated by an exact distribution")
    sp.add_argument("--n", type=_size, metavar="N", help="one size n (3 to 6; default: n = 3..5)")
    sp.add_argument("--json", action="store_true", help="machine-readable output (only JSON on stdout)")
    sp.add_argument("--draw", metavar="FILE", type=common.picture_file,
                    help="draw the inclusions into FILE (.png, .svg or .pdf; needs symcal[plot])")
    sp.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    from symcal.exact import fraction_str
    from symcal.explore.noise_map import SIZES, STATEMENTS, confirmations, format_maps, noise_maps
    from symcal.report.noise_map import draw

    sizes = [args.n] if args.n is not None else list(range(SIZES[0], SIZES[1] + 1))
    maps = noise_maps(sizes)
    unknown = any(c.status == "unknown" for m in maps for c in m.cells.values())
    saved = None
    if args.draw:
        saved = str(draw(maps).save(args.draw))
    if args.json:
        data = {
            "sizes": sizes,
            "maps": [m.to_json() for m in maps],
            "statements": [{"a": s.a, "b": s.b, "kind": s.kind, "paper": s.paper, "location": s.location,
                            "quote": s.quote, "verdict": verdict, "sizes": detail}
                           for s, verdict, detail in confirmations(maps)],
            "drawing": saved,
        }
        assert len(data["statements"]) <= len(STATEMENTS)
        print(json.dumps(data, indent=2, default=lambda x: fraction_str(x) if hasattr(x, "denominator") else str(x)))
    else:
        print(format_maps(maps))
        if saved:
            print(f"\ndrawing: {saved}")
    return common.EXIT_DISAGREE if unknown else common.EXIT_OK
