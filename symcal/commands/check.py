"""``symcal check``: decide claims and compare each verdict with the outcome its source asserts.

    symcal check [PATTERN ...] [--size A..B] [--timeout S] [--jobs N] [--json] [--smtlib DIR]
                 [--draw DIR] [--[no-]cross-check] [--certify] [--certificates DIR] [--verbose]
                 [--theorems FILE [--with-library]] [--cluster ADDRESS|local [--cache DIR | --no-cache]]

Prints the table (or with ``--json`` the JSON array of ARCHITECTURE.md, *Interface contract*), the
second opinion of cvc5 and, with ``--certify``, the certificates' summary.  Every JSON element
carries ``finding_class``: the class of its finding (``statement``, ``hypothesis``, ``proof``,
``clarification``), null when it has none; the summary line counts the recorded errata by class.  ``--certificates DIR``
(implies ``--certify``; not with ``--cluster``) also writes one certificate file per decisive
decision into DIR (:mod:`symcal.certificate_files`) for ``python -m symcal.kernel DIR``.  Exit
code 0 when every verdict agrees with its expected outcome or is a recorded erratum, 1 when
another verdict disagrees, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symcal.commands import common
from symcal.errors import invalid

if TYPE_CHECKING:
    from symcal.claims.core import Claim

__all__ = ["register", "run", "write_smtlib"]


def register(sub: Any) -> None:
    sp = sub.add_parser("check", help="decide claims and compare with the outcome their source asserts")
    sp.add_argument("patterns", nargs="*", metavar="PATTERN", help="ids, id prefixes or globs ('uematsu2013.*')")
    sp.add_argument("--size", type=common.size_range, help="sizes A..B for sized claims")
    sp.add_argument("--timeout", type=common.positive_seconds, default=60.0, help="seconds per decision (default 60)")
    sp.add_argument("--jobs", type=common.jobs, default=min(2, os.cpu_count() or 1), help="parallel workers")
    sp.add_argument("--json", action="store_true", help="print the JSON array of the interface contract")
    sp.add_argument("--smtlib", metavar="DIR", help="write every SMT query as SMT-LIB2 into DIR")
    sp.add_argument("--draw", metavar="DIR", type=common.picture_dir,
                    help="draw each refuted node claim's counterexample and each sweep's seconds per size as PNG "
                         "into DIR (needs symcal[plot])")
    sp.add_argument("--cross-check", action=argparse.BooleanOptionalAction, default=None,
                    help="re-decide every SMT proved/refuted with cvc5 (default: when cvc5 is installed; "
                         "--cross-check insists on it)")
    sp.add_argument("--certify", action="store_true",
                    help="build a certificate for every decisive verdict and re-check it with symcal's small "
                         "independent kernel (no solver, no sympy); a rejected certificate makes the verdict unknown")
    sp.add_argument("--certificates", metavar="DIR",
                    help="write one certificate file per decisive decision into DIR (<id>.json, <id>@m<size>.json; "
                         "implies --certify) for `python -m symcal.kernel DIR` to re-check without sympy or a solver")
    sp.add_argument("--verbose", "-v", action="store_true", help="show evidence for every claim")
    common.add_theorems_options(sp)
    common.add_cluster_options(sp)
    sp.set_defaults(fn=run)


def write_smtlib(directory: Path, pairs: list[tuple[Claim, Any]]) -> int:
    """Write every SMT query of the verdicts in ``pairs`` as ``<id>[.<label>].smt2`` into
    ``directory``; return how many files were written."""
    from symcal.crosscheck import smt_parts

    directory.mkdir(parents=True, exist_ok=True)
    n = 0
    for c, v in pairs:
        parts = [] if v.sizes else smt_parts(v.evidence)  # a sweep's evidence is its sizes' evidence
        for s in v.sizes:
            parts += smt_parts(s.evidence, f"m{s.size}")
        for label, p in parts:
            safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")
            name = f"{c.id}{'.' + safe if safe else ''}.smt2"
            (directory / name).write_text(p.smtlib)
            n += 1
    return n


def _certificate_files(directory: Path, pairs: list[tuple[Claim, Any]], since: float) -> list[Path]:
    """The certificate files this run wrote for ``pairs`` (not those of earlier runs)."""
    from symcal.certificate_files import file_name

    names = {file_name(c.id, None) for c, _ in pairs} | {file_name(c.id, s.size) for c, v in pairs for s in v.sizes}
    out = []
    for name in sorted(names):
        try:
            if (directory / name).stat().st_mtime >= since - 1:
                out.append(directory / name)
        except OSError:
            continue
    return out


def run(args: argparse.Namespace) -> int:
    from symcal.library import select
    from symcal.report import agrees, is_erratum, second_opinion_summary, table, to_json
    from symcal.runner import check_many

    certificates = getattr(args, "certificates", None)
    if certificates is not None:  # --certificates implies --certify
        if getattr(args, "cluster", None):
            raise invalid("--certificates", certificates, "local workers (certificate files are not written with "
                          "--cluster)")
        args.certify = True
    common.writable_dir("--smtlib", args.smtlib)  # before the run, not after it: an empty or unusable folder
    with common.output_to_stderr(args.json):  # under --json, stdout is only the JSON: what claims print goes to stderr
        claims = select(common.load_claims(args), args.patterns)
        if args.size is not None:
            sized = [c for c in claims if c.sized and c.strategy != "local_lemma"]
            if not sized:
                raise invalid("--size", f"{args.size[0]}..{args.size[1]}", "patterns that select a sized claim")
            for c in sized:
                assert c.sizes is not None
                c.sizes.validate(args.size[0], args.size[1], c.id)
        started = time.time()
        with common.open_cluster(args) as cluster:
            try:
                verdicts = check_many(claims, sizes=args.size, timeout=args.timeout, jobs=args.jobs, cluster=cluster,
                                      progress=common.start_progress(args.json), cross_check=args.cross_check,
                                      certify=args.certify, certificates=certificates)
            finally:
                common.end_progress()
    pairs = list(zip(claims, verdicts, strict=True))
    if args.smtlib:
        try:
            n = write_smtlib(Path(args.smtlib), pairs)
        except OSError as e:
            raise invalid("--smtlib", args.smtlib, "a directory symcal can create and write", str(e)) from None
        print(f"wrote {n} SMT-LIB2 files to {args.smtlib}", file=sys.stderr)
    if certificates is not None:
        n = len(_certificate_files(Path(certificates), pairs, started))
        print(f"wrote {n} certificate files to {certificates} (re-check: python -m symcal.kernel {certificates})",
              file=sys.stderr)
    if getattr(args, "draw", None):  # one picture per refuted node claim / sweep (symcal.report.plot)
        from symcal.report.plot import draw_verdicts

        drawn = draw_verdicts(pairs, args.draw)
        print(f"wrote {len(drawn)} pictures to {args.draw}" if drawn else
              f"no pictures for {args.draw}: no refuted node claim and no sweep of two or more sizes", file=sys.stderr)
    if args.json:
        print(json.dumps(to_json(pairs), indent=1))
    else:
        print(table(pairs, verbose=args.verbose))
        from symcal.backends import cvc5_backend

        if args.cross_check is None and not cvc5_backend.available():
            print("second opinion: none (cvc5 is not installed: pip install 'symcal[cvc5]')")
        elif args.cross_check is False:
            print("second opinion: none (--no-cross-check)")
        else:
            print(second_opinion_summary(pairs))
        if args.certify:
            from symcal.report.render import certificate_summary

            print(certificate_summary(pairs))
    bad = [c for c, v in pairs if not agrees(c, v) and not is_erratum(c, v)]
    return common.EXIT_DISAGREE if bad else common.EXIT_OK
