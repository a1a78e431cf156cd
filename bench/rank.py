"""Certified exact ranks of big loss matrices: symcal against plain sympy ``Matrix.rank``.

symcal: a floating pivoted QR guesses independent rows/columns, an exact Bareiss determinant
certifies the minor (lower bound) and an exact integer check of a decomposition through it
(upper bound) certifies the rank.  Baseline: ``sympy.Matrix(L).rank()`` on the same exact
matrix, in a separate process killed at a cap (the ratio is then a lower bound).

    python -m bench.rank [--quick]
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from typing import Any

CASES = (("map", 6, {}), ("map", 7, {}), ("pd", 5, {"labels": "unit_dags"}))
TARGET_S = 30.0


def _sympy_rank(name: str, r: int, params: dict[str, Any], out: Any) -> None:
    import sympy

    from symcal.ranking.subset_losses import named_loss

    mat = named_loss(name, r, **params).matrix
    m = sympy.Matrix(mat.numerators.tolist())  # integers: the rank of L = numerators / denominator
    t0 = time.perf_counter()
    out.put((m.rank(), time.perf_counter() - t0))


def sympy_baseline(name: str, r: int, params: dict[str, Any], cap: float) -> tuple[int | None, float, bool]:
    """(rank, seconds, capped) of plain sympy Matrix.rank, killed after ``cap`` seconds."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    proc = ctx.Process(target=_sympy_rank, args=(name, r, params, q))
    t0 = time.perf_counter()
    proc.start()
    proc.join(cap)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None, cap, True
    if q.empty():
        return None, time.perf_counter() - t0, False
    rank, secs = q.get()
    return rank, secs, False


def symcal_rank(name: str, r: int, params: dict[str, Any]) -> dict[str, Any]:
    from symcal.ranking.subset_losses import named_loss

    t0 = time.perf_counter()
    nl = named_loss(name, r, **params)
    built = time.perf_counter() - t0
    t1 = time.perf_counter()
    cert = nl.matrix.rank()
    secs = time.perf_counter() - t1
    return {"rank": cert.value, "certified": cert.certified, "seconds": secs, "build_seconds": built,
            "shape": nl.matrix.shape, "bound": nl.bound, "bound_kind": nl.bound_kind}


def rows(quick: bool) -> list[dict[str, Any]]:
    cap = 20.0 if quick else 120.0
    out = []
    for name, r, params in CASES:
        s = symcal_rank(name, r, params)
        base_rank, base_s, capped = sympy_baseline(name, r, params, cap)
        ratio = base_s / s["seconds"] if s["seconds"] > 0 else None
        same = "agrees" if base_rank == s["rank"] else "DIFFERS"
        agree = "" if base_rank is None else f"; sympy rank {base_rank} ({same})"
        n, k = s["shape"]
        out.append({
            "what": f"certified rank of the {name.upper()} loss matrix vs sympy Matrix.rank",
            "size": f"r = {r} ({n} x {k})",
            "baseline_s": base_s, "ratio_lower_bound": capped,
            "symcal_s": s["seconds"], "ratio": ratio,
            "target": f"< {TARGET_S:g} s", "met": bool(s["certified"] and s["seconds"] < TARGET_S),
            "note": (f"rank {s['rank']} certified={s['certified']} (paper bound {s['bound']}, {s['bound_kind']}); "
                     f"matrix built in {s['build_seconds']:.2f} s"
                     + (f"; sympy capped at {cap:g} s, ratio is a lower bound" if capped else "") + agree),
        })
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for row in rows("--quick" in argv):
        base = f"> {row['baseline_s']:.0f}" if row["ratio_lower_bound"] else f"{row['baseline_s']:.2f}"
        ratio = "-" if row["ratio"] is None else (">" if row["ratio_lower_bound"] else "") + f"{row['ratio']:.0f}x"
        print(f"{row['what']:<62} {row['size']:<22} sympy {base:>7} s  symcal {row['symcal_s']:6.2f} s  {ratio:>7}  "
              f"target {row['target']} met={row['met']}  {row['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
