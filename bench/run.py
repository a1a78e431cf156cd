"""symcal benchmarks: ``python -m bench.run [--quick] [--only NAME ...]`` from the repo root.

Prints one table (what, size, baseline seconds, symcal seconds, ratio, target, met) under a
header describing the machine, and writes the same as JSON (default bench/last-run.json).
Sections: lemma14, largest_m, all_m, fas, theorem3, rank, xia, calauzenes, calibration,
research_sizes, certificates, fuzz, library, selftest (see bench/README.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import lemma14

SECTIONS = ("lemma14", "largest_m", "all_m", "fas", "theorem3", "rank", "xia", "calauzenes", "calibration",
            "research_sizes", "certificates", "fuzz", "library", "selftest", "startup")
# sections measured by a paper's own bench module exposing rows(quick) -> list[dict]
PAPER_SECTIONS = {"theorem3": "Uematsu & Lee, Theorem 3 exhaustive",
                  "rank": "Ramaswamy et al., certified rank",
                  "xia": "Xia et al., top-k order sensitivity",
                  "calauzenes": "Calauzenes et al., exhaustive / interval",
                  "calibration": "calibration over the whole simplex",
                  "research_sizes": "research sizes within the default limit",
                  "certificates": "Farkas certificates of the ordering principle",
                  "fuzz": "differential fuzzing against independent oracles",
                  "startup": "start-up CPU seconds of show and a one-claim check"}
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = Path(__file__).resolve().parent / "last-run.json"

Row = dict[str, Any]


def _say(msg: str) -> None:
    print(f"  .. {msg}", file=sys.stderr, flush=True)


def _row(section: str, what: str, size: str, *, baseline: float | None = None,
         baseline_cap: float | None = None, symcal: float | None = None,
         ratio: float | None = None, ratio_lower_bound: bool = False, target: str = "",
         met: bool | None = None, note: str = "", detail: Any = None) -> Row:
    return {"section": section, "what": what, "size": size, "baseline_s": baseline,
            "baseline_cap": baseline_cap, "symcal_s": symcal, "ratio": ratio,
            "ratio_lower_bound": ratio_lower_bound, "target": target, "met": met,
            "note": note, "detail": detail}


# --------------------------------------------------------------------------- machine header

def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                             capture_output=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, text=True,
                               capture_output=True, timeout=10, check=True).stdout.strip()
        return out + (" (uncommitted changes)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> dict[str, Any]:
    import sympy
    import z3

    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "z3": z3.get_version_string(),
        "sympy": sympy.__version__,
        "commit": _git_commit(),
    }


# --------------------------------------------------------------------------- sections

def run_lemma14(naive_timeout: float) -> list[Row]:
    rows = []
    for r in lemma14.naive_vs_symcal((6, 7, 8), naive_timeout, progress=_say):
        m, naive, sym = r["m"], r["naive"], r["symcal"]
        capped = r["naive_capped"]
        ratio = (r["naive_cap"] if capped else naive["seconds"]) / sym["seconds"]
        at8 = m == 8
        met = (sym["status"] == "proved" and sym["solver_seconds"] < 0.05) if at8 else None
        note = (f"naive {naive['status']}{' (cap reached)' if capped else ''}, symcal "
                f"{sym['status']}; symcal solver {sym['solver_seconds']:.4f} s in "
                f"{sym['queries']} queries (median of {len(sym['runs'])} runs)")
        rows.append(_row("lemma14", "Lemma 14, naive z3 vs symcal encoding", f"m = {m}",
                         baseline=naive["seconds"],
                         baseline_cap=r["naive_cap"] if capped else None,
                         symcal=sym["seconds"], ratio=ratio, ratio_lower_bound=capped,
                         target="symcal solver < 0.05 s" if at8 else "", met=met,
                         note=note, detail=r))
    return rows


def run_largest_m(quick: bool, limit: float) -> list[Row]:
    sizes = (10, 20, 30, 40) if quick else None
    r = lemma14.largest_size(limit, sizes, progress=_say)
    best, stop = r["largest"], r["stopped_by"]
    if stop is not None:
        note = f"m = {stop['m']}: {stop['status']} after {stop['seconds']:.1f} s"
    else:
        note = f"quick: stopped at m = {r['tried'][-1]['m']} without reaching the limit"
    return [_row("largest_m", f"Lemma 14, largest m proved in {limit:g} s",
                 f"m = {best['m']}" if best else "none",
                 symcal=best["seconds"] if best else None, target="m >= 40",
                 met=best is not None and best["m"] >= 40, note=note, detail=r)]


def run_all_m(timeout: float) -> list[Row]:
    r = lemma14.all_sizes_proof(timeout)
    _say(f"lemma14 all m: {r['status']} in {r['seconds']:.3f} s")
    ok = r["status"] == "proved" and r["seconds"] < 1.0
    return [_row("all_m", "Lemma 14, all sizes (local lemma)", r["scope"] or "all m",
                 symcal=r["seconds"], target="< 1 s", met=ok,
                 note=f"{lemma14.ALL_M_ID}: {r['status']}" + (f" ({r['reason']})" if r["reason"]
                                                             else ""), detail=r)]


def _pick(d: dict[str, Any], *tests: Callable[[str], bool]) -> Any:
    for test in tests:
        for k, v in d.items():
            if test(k.lower()):
                return v
    return None


def _is_time(k: str) -> bool:
    return "sec" in k or "time" in k or k.endswith("_s")


def run_fas(quick: bool) -> list[Row]:
    what = "Exact feedback arc set, plain MILP vs symcal"
    try:
        fas = importlib.import_module("bench.fas")
    except ModuleNotFoundError as e:
        note = "fas: not available" + ("" if e.name == "bench.fas" else f" ({e})")
        _say(note)
        return [_row("fas", what, "-", note=note)]
    except Exception as e:  # the other helper's module failed to import: report it
        return [_row("fas", what, "-", note=f"fas: not available ({type(e).__name__}: {e})")]
    sizes = (20,) if quick else (20, 25, 30)
    try:
        results = fas.measure(sizes=sizes, seed=0)
    except Exception as e:  # the other helper's module: report, do not crash the bench
        return [_row("fas", what, "-", note=f"fas: error: {type(e).__name__}: {e}")]
    rows = []
    for d in results:
        n = _pick(d, lambda k: k in ("nodes", "n", "size", "m"))
        base = _pick(d, lambda k: ("milp" in k or "baseline" in k or "plain" in k) and _is_time(k))
        sym = _pick(d, lambda k: "symcal" in k and _is_time(k))
        ratio = _pick(d, lambda k: "ratio" in k)
        if ratio is None and isinstance(base, int | float) and isinstance(sym, int | float) and sym:
            ratio = base / sym
        agree = _pick(d, lambda k: "agree" in k)
        note = "" if agree is None else f"same optimum: {agree}"
        rows.append(_row("fas", what, f"n = {n}", baseline=base, symcal=sym, ratio=ratio,
                         target="agree", met=None if agree is None else bool(agree),
                         note=note, detail=d))
        _say(f"fas n={n}: milp {base} s, symcal {sym} s, agree {agree}")
    return rows


def run_paper(section: str, quick: bool) -> list[Row]:
    """Rows of ``bench/<section>.py`` (its ``rows(quick)``), in the common table."""
    try:
        mod = importlib.import_module(f"bench.{section}")
        got = mod.rows(quick)
    except Exception as e:  # report, do not crash the whole bench
        return [_row(section, PAPER_SECTIONS[section], "-", note=f"error: {type(e).__name__}: {e}")]
    rows = []
    for d in got:
        base, sym = d.get("baseline_s"), d.get("symcal_s")
        ratio = d.get("ratio")
        if ratio is None and isinstance(base, int | float) and isinstance(sym, int | float) and sym:
            ratio = base / sym
        capped = bool(d.get("baseline_capped") or d.get("ratio_lower_bound"))
        rows.append(_row(section, str(d.get("what", PAPER_SECTIONS[section])), str(d.get("size", "")),
                         baseline=base, baseline_cap=d.get("baseline_cap") or (base if capped else None),
                         symcal=sym, ratio=ratio,
                         ratio_lower_bound=capped, target=str(d.get("target", "")), met=d.get("met"),
                         note=str(d.get("note", "")), detail=d))
        _say(f"{section}: {rows[-1]['what']} {rows[-1]['size']}: {sym} s")
    return rows


def run_library(timeout: float) -> list[Row]:
    from symcal.backends import cvc5_backend
    from symcal.library import load_bundled
    from symcal.report.render import second_opinion_summary
    from symcal.runner import check_many

    claims = load_bundled()
    _say(f"library: {len(claims)} claims, jobs=2, timeout={timeout:g} s")
    start = time.perf_counter()
    verdicts = check_many(claims, jobs=2, timeout=timeout, cross_check=False)
    wall = time.perf_counter() - start
    rows = [{"claim": c.id, "expected": c.expected.value if c.expected else None,
             "status": v.status.value, "seconds": round(v.seconds, 4),
             "erratum": c.finding is not None and v.status.value == "refuted"}
            for c, v in zip(claims, verdicts, strict=True)]
    agree = [r for r in rows if r["expected"] is not None and r["status"] == r["expected"]]
    errata = [r for r in rows if r["erratum"] and r["status"] != r["expected"]]
    differ = [r for r in rows if r["status"] != r["expected"] and not r["erratum"]]
    note = f"{len(agree)}/{len(rows)} agree, {len(errata)} recorded errata, {len(differ)} disagree"
    if differ:
        note += ": " + ", ".join(f"{r['claim']} ({r['status']})" for r in differ[:5])
    _say(f"library: {wall:.1f} s, {note}")
    out = [_row("library", "symcal check, whole library (jobs=2, no second opinion)",
                f"{len(rows)} claims", symcal=wall, target="< 120 s", met=wall < 120 and not differ,
                note=note + (f" (per-decision timeout {timeout:g} s)" if timeout != 60 else ""),
                detail={"timeout": timeout, "claims": rows})]
    # issue 12, item 6: every bundled claim decides in under a quarter of the default limit
    quarter = 60.0 / 4
    for rank, r in enumerate(sorted(rows, key=lambda r: -r["seconds"])[:10], start=1):
        out.append(_row("library", f"slowest claim #{rank}", r["claim"], symcal=r["seconds"],
                        target=f"< {quarter:g} s", met=r["seconds"] < quarter, note=r["status"]))
    if cvc5_backend.available():
        start = time.perf_counter()
        crossed = check_many(claims, jobs=2, timeout=timeout, cross_check=True)
        wall2 = time.perf_counter() - start
        line = second_opinion_summary(list(zip(claims, crossed, strict=True))).splitlines()[0]
        _say(f"library with cvc5: {wall2:.1f} s; {line}")
        out.append(_row("library", "symcal check, whole library, with the cvc5 second opinion (default)",
                        f"{len(rows)} claims", baseline=wall, symcal=wall2, ratio=wall / wall2,
                        target="< 120 s, 0 disagreements", met=wall2 < 120 and " 0 disagreements" in line,
                        note=line.replace("second opinion: ", ""), detail={"summary": line}))
    return out


def run_selftest(quick: bool, timeout: float) -> list[Row]:
    from symcal.explore.mutants import run_selftest as selftest
    from symcal.library import load_bundled, select

    claims = load_bundled()
    if quick:
        claims = select(claims, ["duchi2010.lemma14*", "uematsu2013.corollary1*", "ramaswamy2013.theorem3*"])
    start = time.perf_counter()
    report = selftest(claims, timeout=timeout, jobs=2)
    wall = time.perf_counter() - start
    _say(f"selftest: {wall:.1f} s; {report.summary()}")
    return [_row("selftest", "symcal selftest --mutants" + (" (3 claim families)" if quick else ", whole library"),
                 f"{len(claims)} claims", symcal=wall, target="0 unsound",
                 met=report.count("unsound") == 0, note=report.summary(),
                 detail={k: v for k, v in report.to_json().items() if k != "mutants"})]


# --------------------------------------------------------------------------- output

def _secs(s: float | None, capped: bool = False) -> str:
    if s is None:
        return "-"
    if capped:
        return f"> {s:.0f}"
    return f"{s:.4f}" if s < 0.1 else f"{s:.2f}" if s < 10 else f"{s:.1f}"


def _ratio(r: float | None, lower: bool) -> str:
    if r is None:
        return "-"
    text = f"{r:,.0f}" if r >= 10 else f"{r:.1f}"
    return f">{text}×" if lower else f"{text}×"


def cells(row: Row) -> list[str]:
    cap = row["baseline_cap"]
    base = _secs(cap, capped=True) if cap is not None else _secs(row["baseline_s"])
    met = {True: "yes", False: "NO", None: "-"}[row["met"]]
    return [row["what"], row["size"], base, _secs(row["symcal_s"]),
            _ratio(row["ratio"], row["ratio_lower_bound"]), row["target"] or "-", met,
            row["note"]]


HEAD = ["what", "size", "baseline s", "symcal s", "ratio", "target", "met", "note"]


def header_lines(info: dict[str, Any], mode: str) -> list[str]:
    return [f"symcal bench ({mode}), {info['date']}, commit {info['commit']}",
            f"{info['platform']}; {info['cpu']}; {info['cpu_count']} CPUs",
            f"Python {info['python']}, z3 {info['z3']}, sympy {info['sympy']}"]


def render_text(rows: list[Row]) -> str:
    table = [HEAD] + [cells(r) for r in rows]
    widths = [max(len(t[i]) for t in table) for i in range(len(HEAD) - 1)]
    out = []
    for t in table:
        out.append("  ".join(c.ljust(w) for c, w in zip(t, widths, strict=False)) + "  " + t[-1])
        if t is HEAD:
            out.append("  ".join("-" * w for w in widths) + "  " + "-" * 4)
    return "\n".join(out)


def render_markdown(rows: list[Row]) -> str:
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in cells(r)) + " |" for r in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------- main

def _sections(values: list[str]) -> list[str]:
    chosen = [s.strip() for v in values for s in v.split(",") if s.strip()]
    for s in chosen:
        if s not in SECTIONS:
            raise SystemExit(f"--only {s}: expected one of {', '.join(SECTIONS)}")
    return [s for s in SECTIONS if s in chosen] if chosen else list(SECTIONS)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="small sizes and a 20 s naive cap (about a minute)")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="run only these sections (repeat or comma-separate): "
                   + ", ".join(SECTIONS))
    p.add_argument("--naive-timeout", type=float, default=None, metavar="S",
                   help="cap for the naive Lemma 14 encoding (default 300 s; 20 s with --quick)")
    p.add_argument("--json", type=Path, default=DEFAULT_JSON, metavar="PATH",
                   help="where to write the JSON (default bench/last-run.json)")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = p.parse_args(argv)
    sections = _sections(args.only)
    naive_timeout = args.naive_timeout
    if naive_timeout is None:
        naive_timeout = 20.0 if args.quick else 300.0
    if naive_timeout <= 0:
        raise SystemExit(f"--naive-timeout {naive_timeout:g}: expected a positive number of "
                         "seconds")
    mode = "quick" if args.quick else "full"
    info = machine()
    runners: dict[str, Callable[[], list[Row]]] = {
        "lemma14": lambda: run_lemma14(naive_timeout),
        "largest_m": lambda: run_largest_m(args.quick, 60.0),
        "all_m": lambda: run_all_m(60.0),
        "fas": lambda: run_fas(args.quick),
        "library": lambda: run_library(15.0 if args.quick else 60.0),
        "selftest": lambda: run_selftest(args.quick, 10.0),
    }
    for name in PAPER_SECTIONS:
        runners[name] = lambda name=name: run_paper(name, args.quick)
    start = time.perf_counter()
    rows: list[Row] = []
    for s in sections:
        rows += runners[s]()
    total = time.perf_counter() - start
    print("\n".join(header_lines(info, mode)))
    print()
    print(render_markdown(rows) if args.markdown else render_text(rows))
    print(f"\ntotal {total:.1f} s; JSON written to {args.json}")
    doc = {"mode": mode, "sections": sections, "naive_timeout": naive_timeout, "machine": info,
           "total_seconds": total, "rows": rows}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
