"""Brackets on the convex calibration dimension of 50+ loss matrices (the README's table).

Each row is :func:`symcal.calibration.cc_dimension` on one loss: the upper end (the certified
rank of the double-difference matrix, or a lower-dimensional surrogate the calibration engine
proves calibrated), the lower end (a relative-interior point with many tied predictions, its
certificate re-checked exactly), whether they meet, and the seconds the row took.  With
``--confirm`` the engine also decides the upper end's own least-squares surrogate for rows with
at most 8 predictions (a second, independent proof of that end).

    python -m bench.cc_dim [--quick] [--confirm] [--markdown] [--json OUT] [--cpu S]
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

Row = tuple[str, str, Callable[[], Any], list[dict[str, Any]]]


def rows(quick: bool = False) -> list[Row]:
    """(loss, parameters, matrix builder, candidate surrogates) for every row of the table."""
    from symcal.calibration.dimension import known_surrogates, multiclass_loss
    from symcal.ranking.subset_losses import named_loss

    out: list[Row] = []

    def mc(name: str, n: int, k: int | None = None) -> None:
        params = f"n={n}" if name not in ("hamming", "subset-zero-one") else f"m={n}"
        if k is not None:
            params += f", k={k}"
        out.append((name, params, lambda: multiclass_loss(name, n, k=k), known_surrogates(name, n)))

    def rk(name: str, r: int, **params: Any) -> None:
        text = ", ".join([f"r={r}", *(f"{a}={b}" for a, b in params.items())])
        out.append((name, text, lambda: named_loss(name, r, **params).matrix, []))

    small = quick
    for n in range(2, 6 if small else 9):
        mc("zero-one", n)
    for n in range(3, 5 if small else 8):
        mc("top-k", n, 2)
    for n in ([] if small else range(5, 8)):
        mc("top-k", n, 3)
    for n in range(3, 5 if small else 7):
        mc("abstain", n)
    for n in range(3, 5 if small else 9):
        mc("ordinal-abs", n)
    for n in range(3, 5 if small else 9):
        mc("ordinal-sq", n)
    for m in range(2, 4 if small else 5):
        mc("hamming", m)
    for m in range(2, 4 if small else 5):
        mc("subset-zero-one", m)
    for r in (3,) if small else (3, 4, 5):
        rk("wta", r)
        rk("precision", r, q=2)
        rk("map", r)
    if not small:
        rk("pd", 3, labels="unit_dags")
        rk("pd", 4, labels="unit_dags")
        rk("pd", 3, labels="total_orders")
        rk("pd", 4, labels="total_orders")
        rk("ndcg", 3)
        rk("ndcg", 4)
        rk("dcg", 3)
        rk("eru", 3)
    return out


def run_row(row: Row, cpu: float, confirm: bool) -> dict[str, Any]:
    from symcal.calibration.dimension import cc_dimension

    name, params, build, candidates = row
    t0 = time.perf_counter()
    mat = build()
    cc = cc_dimension(mat, cpu_seconds=cpu, surrogates=candidates, confirm=confirm and mat.shape[1] <= 8)
    ev = cc.evidence
    low = ev["lower"]
    up = ev["upper"]
    return {"loss": name, "params": params, "labels": cc.labels, "predictions": cc.predictions,
            "lower": cc.lower, "upper": cc.upper, "exact": cc.exact,
            "lower_by": "tie point" if "p" in low else ("trivial" if cc.lower else "constant"),
            "tied": len(low.get("tied", [])),
            "upper_by": "engine" if "proved calibrated" in up.get("by", "") else
            ("rank D" if "double-difference" in up.get("by", "") else up.get("by", "")),
            "engine_confirmation": up.get("engine_confirmation", {}).get("status"),
            "search": ev.get("search", {}).get("stopped", ""), "queries": ev.get("search", {}).get("queries", 0),
            "seconds": round(time.perf_counter() - t0, 2)}


def markdown(results: list[dict[str, Any]]) -> str:
    lines = ["| loss | parameters | n x k | lower | upper | exact | lower by | upper by | s |",
             "| --- | --- | --- | ---: | ---: | --- | --- | --- | ---: |"]
    for r in results:
        conf = " (engine-confirmed)" if r["engine_confirmation"] == "proved" else ""
        lines.append(f"| {r['loss']} | {r['params']} | {r['labels']} x {r['predictions']} | {r['lower']} | "
                     f"{r['upper']} | {'yes' if r['exact'] else 'no'} | "
                     f"{r['lower_by'] + (' (' + str(r['tied']) + ' tied)' if r['tied'] else '')} | "
                     f"{r['upper_by']}{conf} | {r['seconds']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    quick, confirm, md = "--quick" in args, "--confirm" in args, "--markdown" in args
    out = args[args.index("--json") + 1] if "--json" in args else None
    cpu = float(args[args.index("--cpu") + 1]) if "--cpu" in args else 60.0
    results = []
    t0 = time.perf_counter()
    for row in rows(quick):
        res = run_row(row, cpu, confirm)
        results.append(res)
        if not md:
            print(f"{res['loss']:<16} {res['params']:<22} {res['labels']:>4} x {res['predictions']:<4} "
                  f"[{res['lower']}, {res['upper']}] {'exact' if res['exact'] else '     '} "
                  f"{res['upper_by']:<8} {res['engine_confirmation'] or '':<8} {res['seconds']:>7.2f} s", flush=True)
    total = time.perf_counter() - t0
    exact = sum(r["exact"] for r in results)
    if md:
        print(markdown(results))
    print(f"\n{len(results)} loss matrices, {exact} exact, {len(results) - exact} brackets; {total:.1f} s in all")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
