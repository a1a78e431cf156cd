"""``symcal export``: write certified claims as files another proof checker re-checks.

    symcal export --coq DIR [PATTERN ...] [--check] [--timeout S] [--jobs N] [--certify-seconds S]
                  [--theorems FILE [--with-library]]
    symcal export --coq DIR --from-certificates CERTS [PATTERN ...] [--check]

Decides the claims, builds their certificates, has symcal's kernel check them, and writes each
claim whose every piece is certified as a Coq file ``DIR/<id>.v`` (dots as ``_``) (:mod:`symcal.export_coq`);
``DIR/README.md`` indexes the files and lists the claims not exported, with the reason.  Prints
one summary line.  ``--from-certificates CERTS`` decides nothing: it reads the certificate
files of ``symcal check --certificates CERTS`` (one per decision), has the kernel re-check each and
writes one file per decision (``<id>_m<size>.v`` for a sized claim; a long replay as several
files, each importing the one before).  ``--check`` compiles every file with ``coqc`` and reports each failure.
Exit code 0 when every file written compiles (or without ``--check``), 1 when one does not,
2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from symcal.commands import common, seconds_option
from symcal.errors import invalid

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    sp = sub.add_parser("export", help="write certified claims as Coq files that coqc re-checks")
    sp.add_argument("patterns", nargs="*", metavar="PATTERN", help="ids, id prefixes or globs ('duchi2010.*')")
    sp.add_argument("--coq", metavar="DIR", required=True, help="write one Coq file per certified claim into DIR")
    sp.add_argument("--check", action="store_true", help="compile every written file with coqc and report")
    sp.add_argument("--timeout", type=common.positive_seconds, default=60.0, help="seconds per decision (default 60)")
    sp.add_argument("--jobs", type=common.jobs, default=1, help="parallel workers for the decisions (default 1)")
    sp.add_argument("--certify-seconds", type=_certify_seconds, default=5.0, metavar="S",
                    help="seconds to build the certificate of each piece of evidence (default 5, as check --certify; "
                         "a large case tree needs more)")
    sp.add_argument("--from-certificates", metavar="CERTS", default=None,
                    help="export the certificate files symcal check --certificates CERTS wrote, deciding nothing again")
    common.add_theorems_options(sp)
    sp.set_defaults(fn=run)


_certify_seconds = seconds_option("--certify-seconds", 3600, "one hour")  # the argparse type of --certify-seconds


def _certificate_folder(text: str) -> None:
    """Refuse a ``--from-certificates`` value that is not a readable folder with at least one
    certificate file (``*.json``, hidden files aside): exporting nothing from it is a mistaken path."""
    folder = Path(text)
    expected = "a folder written by symcal check --certificates"
    try:
        if not folder.is_dir():
            raise invalid("--from-certificates", text, expected, "no such folder" if not folder.exists() else
                          "it is not a folder")
        files = [p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith(".")]
        if not any(p.is_file() for p in files):
            raise invalid("--from-certificates", text, expected, "it holds no certificate file (<id>.json)")
        for p in files:  # a FIFO or device named *.json would be opened and waited on; a 3 GB file read whole
            common.input_file("--from-certificates", str(p), "certificate files (regular files)",
                              max_bytes=common.MAX_RUN_BYTES)
    except OSError as e:
        raise invalid("--from-certificates", text, expected, str(e)) from None


def run(args: argparse.Namespace) -> int:
    from symcal.export_coq import coqc_available, export_certificates, export_coq
    from symcal.library import select

    if not args.coq.strip():
        raise invalid("--coq", args.coq, "a directory name")
    if args.check and not coqc_available():
        raise invalid("--check", True, "coqc on PATH", "install Coq (e.g. apt-get install coq) or drop --check")
    if args.from_certificates is not None and not args.from_certificates.strip():
        raise invalid("--from-certificates", args.from_certificates, "a folder written by symcal check --certificates")
    if args.from_certificates is not None:
        _certificate_folder(args.from_certificates)  # before the library is loaded: a bad folder fails at once
    claims = select(common.load_claims(args), args.patterns)
    bar = common.start_progress(desc="exporting" if args.from_certificates else "deciding")
    try:
        if args.from_certificates is not None:
            try:
                result = export_certificates(claims, args.from_certificates, args.coq, check=args.check, progress=bar)
            except RecursionError:  # a certificate file nested absurdly deep (json.loads)
                raise invalid("--from-certificates", args.from_certificates, "certificate files of a sensible "
                              "nesting depth", "one file is nested too deeply to read") from None
        else:
            result = export_coq(claims, args.coq, timeout=args.timeout, jobs=args.jobs, check=args.check,
                                certify_seconds=args.certify_seconds, progress=bar)
    finally:
        common.end_progress()
    for f in result.files:
        if f.compiled is False:
            first = f.coqc_error.strip().splitlines()[:3]
            print(f"coqc FAILS on {f.path}: {' '.join(first)}", file=sys.stderr)
    print(result.summary())
    failed = [f for f in result.files if f.compiled is False]
    return common.EXIT_DISAGREE if failed else common.EXIT_OK
