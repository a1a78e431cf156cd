"""Lemma 14 of Duchi et al. (2010): naive z3 encoding vs symcal's, largest size, all sizes.

Three measurements (see bench/README.md):

* :func:`naive_vs_symcal` - ``decide_node`` with ``encoding="naive"`` (a_ij >= 0 variables,
  every hypothesis instance, the whole conclusion negated at once) against
  ``encoding="auto"``, timed in-process with ``time.perf_counter``;
* :func:`largest_size` - the largest m symcal proves within a per-size limit, each size in a
  worker process killed at the limit (``symcal.runner.check``);
* :func:`all_sizes_proof` - the local-lemma proof of ``duchi2010.lemma14.all_m``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from symcal.backends.base import Budget
from symcal.backends.nodes import decide_node
from symcal.claims.core import Claim
from symcal.library import load_bundled, select
from symcal.runner import check
from symcal.verdicts import Status

__all__ = ["CLAIM_ID", "ALL_M_ID", "claim", "solver_clock", "naive_vs_symcal", "size_ladder",
           "largest_size", "all_sizes_proof"]

CLAIM_ID = "duchi2010.lemma14"
ALL_M_ID = "duchi2010.lemma14.all_m"

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def claim(claim_id: str = CLAIM_ID) -> Claim:
    """The bundled claim with this exact id."""
    return select(load_bundled(), [claim_id])[0]


@contextmanager
def solver_clock() -> Iterator[list[float]]:
    """Collect the seconds spent inside ``z3.Solver.check`` while the block runs."""
    import z3

    spent: list[float] = []
    original = z3.Solver.check

    def timed(self: Any, *args: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(self, *args)
        finally:
            spent.append(time.perf_counter() - start)

    z3.Solver.check = timed  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        z3.Solver.check = original  # type: ignore[method-assign]


def _decide(c: Claim, m: int, seconds: float, encoding: str) -> dict[str, Any]:
    """One in-process decision: status, wall seconds, seconds inside the solver."""
    with solver_clock() as spent:
        start = time.perf_counter()
        out = decide_node(c.spec, m, Budget(seconds), c.id, encoding=encoding)
        wall = time.perf_counter() - start
    return {"status": out.status.value, "seconds": wall, "solver_seconds": sum(spent),
            "queries": len(spent), "reason": out.reason}


def naive_vs_symcal(sizes: Iterable[int] = (6, 7, 8), naive_timeout: float = 300.0,
                    repeats: int = 5, progress: Progress = _quiet) -> list[dict[str, Any]]:
    """Lemma 14 at each m: the naive encoding once (capped), symcal's ``repeats`` times.

    The symcal figure is the median over the repeats (it is a few milliseconds, so one run
    is noisy); all runs are kept.  A warm-up at m = 4 loads z3 and sympy first.
    """
    c = claim()
    _decide(c, 4, 60.0, "auto")
    _decide(c, 4, 60.0, "naive")
    rows = []
    for m in sizes:
        runs = [_decide(c, m, 60.0, "auto") for _ in range(repeats)]
        sym_s = statistics.median(r["seconds"] for r in runs)
        solver_s = statistics.median(r["solver_seconds"] for r in runs)
        sym_status = ",".join(sorted({r["status"] for r in runs}))
        progress(f"lemma14 m={m}: symcal {sym_status} in {sym_s:.4f} s (median of {repeats}); "
                 f"naive running (cap {naive_timeout:g} s)")
        naive = _decide(c, m, naive_timeout, "naive")
        capped = naive["status"] == Status.UNKNOWN.value and (
            naive["seconds"] >= naive_timeout or "limit" in naive["reason"]
            or "timeout" in naive["reason"])
        progress(f"lemma14 m={m}: naive {naive['status']} in {naive['seconds']:.2f} s")
        rows.append({
            "m": m,
            "naive": naive,
            "naive_capped": capped,
            "naive_cap": naive_timeout,
            "symcal": {"status": sym_status, "seconds": sym_s, "solver_seconds": solver_s,
                       "queries": runs[0]["queries"], "runs": [r["seconds"] for r in runs]},
        })
    return rows


def size_ladder() -> Iterator[int]:
    """10, 20, 30, 40, 60, 80, 100, 120, then about 25 % more each step (multiples of 20)."""
    yield from (10, 20, 30, 40, 60, 80, 100, 120)
    m = 120
    while True:
        m = max(m + 20, round(m * 1.25 / 20) * 20)
        yield m


def largest_size(limit: float = 60.0, sizes: Iterable[int] | None = None,
                 progress: Progress = _quiet) -> dict[str, Any]:
    """Increase m until a size is not proved within ``limit`` seconds (or ``sizes`` ends).

    Each size runs in a worker process that ``symcal.runner`` kills shortly after the
    limit, so a hang cannot stop the benchmark.
    """
    c = claim()
    tried: list[dict[str, Any]] = []
    best: dict[str, Any] | None = None
    for m in sizes if sizes is not None else size_ladder():
        v = check(c, sizes=(m, m), timeout=limit)
        secs = v.sizes[0].seconds if v.sizes else v.seconds
        ok = v.status is Status.PROVED and secs <= limit
        tried.append({"m": m, "status": v.status.value, "seconds": secs, "reason": v.reason})
        progress(f"lemma14 largest m: m={m} {v.status.value} in {secs:.2f} s")
        if not ok:
            break
        best = tried[-1]
    return {"limit": limit, "largest": best, "tried": tried,
            "stopped_by": None if best is tried[-1] else tried[-1]}


def all_sizes_proof(timeout: float = 60.0) -> dict[str, Any]:
    """The local-lemma proof of Lemma 14 for every m (one isolated decision)."""
    v = check(claim(ALL_M_ID), timeout=timeout)
    return {"status": v.status.value, "seconds": v.seconds, "scope": v.scope, "reason": v.reason}
