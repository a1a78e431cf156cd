"""The command line: ``symcal list | show | check | necessity | report | selftest | preference``
and the domain verbs of :mod:`symcal.commands`.

Exit codes (DESIGN.md, *Interface contract*): 0 when every verdict agrees with its
expected outcome or is a recorded erratum; 1 when any other verdict disagrees; 2 on usage
or input errors (a one-line message, never a traceback); 3 on an internal error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from symcal.claims.core import Claim
from symcal.commands import whole_number
from symcal.errors import SymcalError, invalid

EXIT_OK, EXIT_DISAGREE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"symcal: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*(?:\.\.\s*(\d+))?\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"--size={text!r}: expected A..B or N with whole numbers, e.g. 3..12")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if lo > hi:
        raise argparse.ArgumentTypeError(f"--size={text!r}: expected A <= B")
    if hi - lo + 1 > MAX_SIZES:
        raise argparse.ArgumentTypeError(f"--size={text!r}: {hi - lo + 1:,} sizes; at most {MAX_SIZES:,} sizes per "
                                         f"sweep")
    return lo, hi


MAX_SIZES = 10_000
MAX_TIMEOUT = 86_400.0  # one day: beyond that a number of seconds is a typo (and overflows timers)


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--timeout={text!r}: expected a positive number of seconds") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"--timeout={text!r}: expected a positive number of seconds")
    if v > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"--timeout={text!r}: expected at most {MAX_TIMEOUT:g} seconds (one day)")
    return v


_jobs = whole_number("--jobs", 1)


def _picture_file(text: str) -> str:
    from symcal.report.plot import picture_file

    return picture_file(text)


def _picture_dir(text: str) -> str:
    from symcal.report.plot import picture_dir

    return picture_dir(text)


def _claims(args: argparse.Namespace) -> list[Claim]:
    from symcal.library import load_bundled, load_file

    if getattr(args, "theorems", None):
        claims: list[Claim] = []
        seen: set[Path] = set()
        for f in args.theorems:
            key = Path(f).resolve()
            if key in seen:
                raise invalid("--theorems", f, "each file once (it was given twice)")
            seen.add(key)
            # imported first in a child under the time limit: a file that loops, exits or crashes
            # at import is a one-line error, never symcal's end
            claims += load_file(f, timeout=getattr(args, "timeout", None) or 60.0)
        if getattr(args, "with_library", False):
            claims += load_bundled()
        return claims
    return load_bundled()


_BARS: list[Any] = []  # the progress bar on screen, erased by _end_progress()


def _progress(json: bool = False, desc: str = "deciding") -> Any:
    """A progress bar with counts and an ETA (tqdm; symcal.progress) when stdout and stderr are
    terminals and the output is not --json; else None."""
    from symcal.progress import progress_bar

    _end_progress()
    bar = progress_bar(desc, json=json)
    if bar is not None:
        _BARS.append(bar)
    return bar


def _end_progress() -> None:
    while _BARS:
        _BARS.pop().close()


@contextlib.contextmanager
def _cluster(args: argparse.Namespace) -> Iterator[Any]:
    """The Dask cluster of --cluster (symcal.cluster), closed afterwards; None without --cluster."""
    address = getattr(args, "cluster", None)
    if address is None:
        if getattr(args, "cache", None) or getattr(args, "no_cache", False):
            raise invalid("--cache" if args.cache else "--no-cache", args.cache or True, "--cluster as well",
                          "the cache keeps decisions made with --cluster (use --cluster local on one machine)")
        yield None
        return
    from symcal.cluster import Cluster

    cache = False if args.no_cache else (args.cache or True)
    with Cluster(address, theorems=args.theorems or (), with_library=args.with_library, cache=cache) as c:
        c.notify = lambda message: print(f"symcal: {message}", file=sys.stderr)
        yield c
        print(f"cluster {address}: {c.summary()}", file=sys.stderr)


def cmd_list(args: argparse.Namespace) -> int:
    from symcal.library import select

    claims = select(_claims(args), [args.pattern] if args.pattern else [])
    width = max((len(c.id) for c in claims), default=2)
    for c in claims:
        exp = c.expected.value if c.expected else "-"
        flag = "  [finding]" if c.finding else ""
        print(f"{c.id.ljust(width)}  {exp:<22} {c.citation.location}{flag}")
    print(f"\n{len(claims)} claims")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from symcal.library import select

    claims = _claims(args)
    found = [c for c in claims if c.id == args.id]
    if not found:
        select(claims, [args.id])  # raises with near matches
        raise invalid("id", args.id, "the exact id of one claim", "see 'symcal list'")
    c = found[0]
    if getattr(args, "latex", False):  # the statement as LaTeX (symcal.report.latex)
        from symcal.report.latex import claim_latex

        print(claim_latex(c))
        return EXIT_OK
    print(c.id)
    print(f"  statement : {c.statement}")
    print(f"  citation  : {c.citation.paper}, {c.citation.location}")
    if c.citation.quote:
        print(f"  quote     : \"{c.citation.quote}\"")
    print(f"  kind      : {c.kind}")
    if c.hypothesis_names:
        print(f"  hypotheses: {', '.join(c.hypothesis_names)}")
        spec = c.spec
        hyps = getattr(spec, "hypotheses", None) or getattr(spec, "constraints", None) or {}
        for name, h in hyps.items():
            text = getattr(h, "text", "")
            if text:
                print(f"      {name}: {text}   (every ordered {h.arity}-tuple of distinct nodes)")
    concl = getattr(c.spec, "conclusion", None)
    if concl is not None and getattr(concl, "text", ""):
        print(f"  conclusion: {concl.text}   (every ordered {concl.arity}-tuple)")
    if c.sizes:
        scope = (f"all {c.sizes.name} >= {c.sizes.minimum}" if c.strategy == "local_lemma"
                 else f"{c.sizes.name} = {c.sizes.default[0]}..{c.sizes.default[1]} by default "
                      f"(any {c.sizes.name} >= {c.sizes.minimum} with --size)")
        print(f"  sizes     : {scope}")
    print(f"  expected  : {c.expected.value if c.expected else '-'}")
    print(f"  checked by: {c.method}")
    if c.finding:
        print(f"  finding   : {c.finding.what}")
        print(f"  counterex.: {c.finding.counterexample}")
        print(f"  corrected : {c.finding.corrected}")
    return EXIT_OK


def _write_smtlib(directory: Path, pairs: list[tuple[Claim, Any]]) -> int:
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


def cmd_check(args: argparse.Namespace) -> int:
    from symcal.library import select
    from symcal.report import agrees, is_erratum, second_opinion_summary, table, to_json
    from symcal.runner import check_many

    claims = select(_claims(args), args.patterns)
    if args.size is not None:
        sized = [c for c in claims if c.sized and c.strategy != "local_lemma"]
        if not sized:
            raise invalid("--size", f"{args.size[0]}..{args.size[1]}", "patterns that select a sized claim")
        for c in sized:
            assert c.sizes is not None
            c.sizes.validate(args.size[0], args.size[1], c.id)
    with _cluster(args) as cluster:
        verdicts = check_many(claims, sizes=args.size, timeout=args.timeout, jobs=args.jobs, cluster=cluster,
                              progress=_progress(args.json), cross_check=args.cross_check, certify=args.certify)
        _end_progress()
    pairs = list(zip(claims, verdicts, strict=True))
    if args.smtlib:
        try:
            n = _write_smtlib(Path(args.smtlib), pairs)
        except OSError as e:
            raise invalid("--smtlib", args.smtlib, "a directory symcal can create and write", str(e)) from None
        print(f"wrote {n} SMT-LIB2 files to {args.smtlib}", file=sys.stderr)
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
    return EXIT_DISAGREE if bad else EXIT_OK


def cmd_necessity(args: argparse.Namespace) -> int:
    from symcal.explore import necessity

    claims = _claims(args)
    found = [c for c in claims if c.id == args.id]
    if not found:
        from symcal.library import select

        select(claims, [args.id])
        raise invalid("id", args.id, "the exact id of one claim")
    claim = found[0]
    if args.size is not None and claim.sizes is not None:
        claim.sizes.validate(args.size[0], args.size[1], claim.id)
    with _cluster(args) as cluster:
        rows = necessity(claim, sizes=args.size, timeout=args.timeout, jobs=args.jobs,
                         progress=_progress(args.json), cluster=cluster)
        _end_progress()
    if args.json:
        print(json.dumps([{
            "hypothesis": r.hypothesis, "answer": r.answer, "needed": r.needed, "status": r.verdict.status.value,
            "scope": r.scope, "evidence": r.verdict.evidence.to_json() if r.verdict.evidence else None,
            "reason": r.verdict.reason,
        } for r in rows], indent=1))
        return EXIT_OK
    print(f"{claim.id}: dropping each hypothesis in turn")
    for r in rows:
        print(f"  {r.hypothesis}: {r.answer} ({r.verdict.status.value}, {r.scope})")
        if r.needed and r.verdict.evidence is not None:
            print(f"    counterexample without it (re-checked exactly): {r.verdict.evidence.summary()}")
        elif r.needed is None and r.verdict.reason:
            print(f"    {r.verdict.reason}")
    return EXIT_OK


def cmd_selftest(args: argparse.Namespace) -> int:
    """Mutation testing of the library: every mutant killed, or its survival explained."""
    from symcal.explore.mutants import run_selftest
    from symcal.library import select

    if not args.mutants:
        raise invalid("selftest", "(no mode)", "a mode: --mutants", "symcal selftest --mutants")
    from symcal.explore.twins import twins_for

    claims = select(_claims(args), args.patterns)
    twins = twins_for(claims, files=getattr(args, "theorems", None) or ())  # the operator `twin`
    with _cluster(args) as cluster:
        report = run_selftest(claims, timeout=args.timeout, jobs=args.jobs, progress=_progress(args.json),
                              cluster=cluster, twins=twins)
        _end_progress()
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
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
    return EXIT_DISAGREE if report.count("unsound") else EXIT_OK


def cmd_preference(args: argparse.Namespace) -> int:
    from symcal.limits import TimeLimitReached, run_limited
    from symcal.ranking.io import load_preferences, report_file

    timeout = getattr(args, "timeout", 60.0)
    try:  # reading, validating and every check: one CPU budget in a child that is really stopped
        report = run_limited(report_file, args.file, timeout=timeout, time_limit=timeout,
                             what="the preference report")
    except TimeLimitReached:
        reason = f"gave up after {timeout:g} s: the preference report did not finish within --timeout {timeout:g}"
        print(json.dumps({"status": "unknown", "reason": reason}) if args.json else f"symcal: {reason}: unknown")
        return EXIT_DISAGREE
    # exit 1 when the minimum of l(p, alpha) (NP-hard) was not proved within the limit
    code = EXIT_OK if report["min_conditional_risk"]["status"] == "exact" else EXIT_DISAGREE
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


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="symcal", description="Check the theory of surrogate losses for learning to rank.")
    p.add_argument("--version", action="version", version="symcal 0.1.0")
    sub = p.add_subparsers(dest="verb", required=True, parser_class=_Parser)

    def theorems(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--theorems", action="append", metavar="FILE",
                        help="a Python file of your own claims (instead of the bundled library)")
        sp.add_argument("--with-library", action="store_true", help="with --theorems: also load the bundled library")

    def cluster(sp: argparse.ArgumentParser) -> None:  # symcal.cluster
        sp.add_argument("--cluster", metavar="ADDRESS|local",
                        help="decide on a Dask cluster: a scheduler's address (tcp://host:8786) or 'local' (2 worker "
                             "processes on this machine); needs symcal[cluster]")
        sp.add_argument("--cache", metavar="DIR", help="with --cluster: keep each decision in DIR (default "
                        "~/.cache/symcal), so that a re-run costs nothing")
        sp.add_argument("--no-cache", action="store_true", help="with --cluster: neither read nor write the cache")

    sp = sub.add_parser("list", help="list claims")
    sp.add_argument("pattern", nargs="?")
    theorems(sp)
    sp.set_defaults(fn=cmd_list)

    sp = sub.add_parser("show", help="show one claim: statement, hypotheses, citation, how it is checked")
    sp.add_argument("id")
    sp.add_argument("--latex", action="store_true", help="print the claim's statement as LaTeX")
    theorems(sp)
    sp.set_defaults(fn=cmd_show)

    sp = sub.add_parser("check", help="decide claims and compare with the outcome their source asserts")
    sp.add_argument("patterns", nargs="*", metavar="PATTERN", help="ids, id prefixes or globs ('uematsu2013.*')")
    sp.add_argument("--size", type=_size, help="sizes A..B for sized claims")
    sp.add_argument("--timeout", type=_positive, default=60.0, help="seconds per decision (default 60)")
    sp.add_argument("--jobs", type=_jobs, default=min(2, os.cpu_count() or 1), help="parallel workers")
    sp.add_argument("--json", action="store_true", help="print the JSON array of the interface contract")
    sp.add_argument("--smtlib", metavar="DIR", help="write every SMT query as SMT-LIB2 into DIR")
    sp.add_argument("--draw", metavar="DIR", type=_picture_dir,
                    help="draw each refuted node claim's counterexample and each sweep's seconds per size as PNG "
                         "into DIR (needs symcal[plot])")
    sp.add_argument("--cross-check", action=argparse.BooleanOptionalAction, default=None,
                    help="re-decide every SMT proved/refuted with cvc5 (default: when cvc5 is installed; "
                         "--cross-check insists on it)")
    sp.add_argument("--certify", action="store_true",
                    help="build a certificate for every decisive verdict and re-check it with symcal's small "
                         "independent kernel (no solver, no sympy); a rejected certificate makes the verdict unknown")
    sp.add_argument("--verbose", "-v", action="store_true", help="show evidence for every claim")
    theorems(sp)
    cluster(sp)
    sp.set_defaults(fn=cmd_check)

    sp = sub.add_parser("necessity", help="drop each hypothesis in turn: which are needed?")
    sp.add_argument("id")
    sp.add_argument("--size", type=_size)
    sp.add_argument("--timeout", type=_positive, default=30.0)
    sp.add_argument("--jobs", type=_jobs, default=min(2, os.cpu_count() or 1))
    sp.add_argument("--json", action="store_true")
    theorems(sp)
    cluster(sp)
    sp.set_defaults(fn=cmd_necessity)

    sp = sub.add_parser("selftest", help="mutation testing: is every claim's check able to fail?")
    sp.add_argument("patterns", nargs="*", metavar="PATTERN", help="restrict to these claims")
    sp.add_argument("--mutants", action="store_true", help="mutate every claim and report the kill rate")
    sp.add_argument("--timeout", type=_positive, default=10.0, help="seconds per mutant (default 10)")
    sp.add_argument("--jobs", type=_jobs, default=min(2, os.cpu_count() or 1))
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--verbose", "-v", action="store_true", help="list killed mutants too")
    theorems(sp)
    cluster(sp)
    sp.set_defaults(fn=cmd_selftest)

    sp = sub.add_parser("preference", help="check your own preference distribution (JSON): low noise, A(p), ...")
    sp.add_argument("file")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--timeout", type=_positive, default=60.0,
                    help="CPU seconds for the whole report (default 60); the minimum of l(p, alpha) is then "
                         "'unknown' with the best order and a lower bound")
    sp.add_argument("--draw", metavar="FILE", type=_picture_file,
                    help="draw the weights, the difference graph (low-noise violation in red) and an optimal order "
                         "into FILE (.svg, .png or .pdf; needs symcal[plot])")
    sp.set_defaults(fn=cmd_preference)

    import importlib

    from symcal.commands import VERBS

    for name in VERBS:
        importlib.import_module(f"symcal.commands.{name}").register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.fn(args))
    except SymcalError as e:
        print(f"symcal: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("symcal: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head
        return EXIT_OK
    except Exception as e:
        if os.environ.get("SYMCAL_DEBUG"):
            raise
        print(f"symcal: internal error: {type(e).__name__}: {e} (set SYMCAL_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
