"""Xia, Liu & Li (2009): time of the exhaustive order-sensitivity proof for top-k ListMLE
(Definition 3, all k, via polynomials in t = exp(g)) against n.

symcal's encoding: pair (1, 2) fixed by symmetry, one small z3 query per position pattern
(a, b) of objects 1 and 2 (others in increasing order: C(n, 2) patterns per k).
Naive: every y in Y_{1,2} (n!/2 orderings) for every k, all conditions in one monolithic z3
query.  Also the largest n whose symcal check finishes within 60 s.

Run alone: ``python -m bench.xia`` (add ``--full`` for n up to 6).
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Any

import sympy

LIMIT = 60.0


def _module() -> Any:
    from symcal.library import load_module

    return load_module(Path(__file__).resolve().parents[1] / "theorems" / "xia2009.py", "symcal_bench_xia2009")


def _symcal_time(X: Any, n: int, limit: float) -> float | None:
    start = time.perf_counter()
    for label, hyps, concl in X.listmle_os_cases(n):
        left = limit - (time.perf_counter() - start)
        if left <= 0:
            return None
        try:
            ok, _ = X.z3_case(hyps, concl, label, seconds=left)
        except X.UndecidedCase:
            return None
        if not ok:
            raise AssertionError(f"{label} failed")
    return time.perf_counter() - start


def _naive_time(X: Any, n: int, limit: float) -> float | None:
    """All y in Y_{1,2}, all k, in one query (no symmetry, no splitting)."""
    from symcal.backends.base import Budget
    from symcal.backends.smt_claims import decide_implies
    from symcal.verdicts import Status

    t = X.t_symbols(n)
    parts = []
    for k in range(1, n + 1):
        for y in itertools.permutations(range(1, n + 1)):
            if not X.before(y, 1, 2):
                continue
            z = X.swap(y, 1, 2)
            ny, dy = X.luce_parts(t, y, k)
            nz, dz = X.luce_parts(t, z, k)
            parts.append(nz * dy > ny * dz if X.changes_subgroup(y, 1, 2, k) else sympy.Eq(nz * dy, ny * dz))
    start = time.perf_counter()
    out = decide_implies({"g1_below_g2": [t[0] < t[1]]}, sympy.And(*parts), Budget(limit), "bench", "naive")
    secs = time.perf_counter() - start
    return secs if out.status is Status.PROVED else None


def rows(quick: bool) -> list[dict[str, Any]]:
    X = _module()
    sizes = (3, 4) if quick else (3, 4, 5, 6)
    out = []
    largest = None
    for n in sizes:
        s = _symcal_time(X, n, LIMIT)
        b = _naive_time(X, n, 20.0 if quick else LIMIT)
        if s is not None:
            largest = n
        out.append({
            "what": "xia2009 top-k ListMLE order sensitivity (Def. 3, all k), z3 on polynomials in exp(g)",
            "size": f"n = {n}",
            "baseline_s": b, "symcal_s": s,
            "ratio": (b / s) if (b is not None and s) else None,
            "target": f"symcal <= {LIMIT:g} s",
            "met": s is not None,
            "note": "baseline: one monolithic query over all y in Y_12 and all k"
                    + ("" if b is not None else f" (did not finish within {20.0 if quick else LIMIT:g} s)"),
        })
    out.append({
        "what": "xia2009 largest n with the ListMLE order-sensitivity proof within 60 s",
        "size": f"n <= {largest}" if largest else "none",
        "baseline_s": None, "symcal_s": None, "ratio": None,
        "target": "n >= 5", "met": bool(largest and largest >= 5) if not quick else None,
        "note": f"sizes tried: {list(sizes)}",
    })
    return out


if __name__ == "__main__":  # pragma: no cover
    for r in rows(quick="--full" not in sys.argv):
        print(r)
