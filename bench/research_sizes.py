"""Research sizes, bounded (issue 13): ``symcal preference`` and ``symcal loss`` at the sizes
researchers use, each against the method symcal used before.

* the low-noise check (Duchi et al. 2010, Definition 8) on a dense 300-node distribution:
  exact integer arrays against the plain Fraction triple loop of before;
* the whole ``symcal preference`` report (difference graph, low noise, A(p), the minimum of
  Eq. (8) -- an NP-hard feedback arc set, reported ``unknown`` with the best order and a
  proved lower bound when it is not proved) on 300 dense nodes and on a 2,000-node chain,
  within the default 60 s;
* certified exact ranks of 300 x 300 and 2,000 x 2,000 random integer matrices (Ramaswamy et
  al. 2013, Theorem 3): python-flint against the floating-guess / Bareiss / Fraction method
  (still the fallback without python-flint).

Baselines run in a child process killed at a cap (the ratio is then a lower bound).

    python -m bench.research_sizes [--quick]
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from fractions import Fraction
from typing import Any

import numpy as np

TARGET_S = 60.0  # the default --timeout of both verbs


def dense_weights(m: int, seed: int = 0) -> dict[tuple[int, int], Fraction]:
    """Random dense expected weights: about half the ordered pairs get p/q with p < 10, q <= 5."""
    rng = np.random.default_rng(seed)
    out = {}
    for i in range(1, m + 1):
        for j in range(1, m + 1):
            if i != j and rng.random() < 0.5:
                out[(i, j)] = Fraction(int(rng.integers(0, 10)), int(rng.integers(1, 6)))
    return out


def random_matrix(n: int, seed: int = 1) -> list[list[int]]:
    return np.random.default_rng(seed).integers(0, 10, size=(n, n)).tolist()


# --------------------------------------------------------------------------- baselines (capped)


def _naive_low_noise(m: int, a: dict[tuple[int, int], Fraction], out: Any) -> None:
    """Definition 8 the way symcal checked it before issue 13: Fractions, one triple at a time."""
    t0 = time.perf_counter()

    def d(i: int, j: int) -> Fraction:
        return a.get((i, j), Fraction(0)) - a.get((j, i), Fraction(0))

    bad = paths = 0
    for i in range(1, m + 1):
        for j in range(1, m + 1):
            if i == j or d(i, j) <= 0:
                continue
            for k in range(1, m + 1):
                if k in (i, j) or d(j, k) <= 0:
                    continue
                paths += 1
                bad += d(i, k) < d(i, j) + d(j, k)
    out.put(((paths, bad), time.perf_counter() - t0))


def _fallback_rank(rows: list[list[int]], out: Any) -> None:
    """The certified rank without python-flint (floating QR guess, Bareiss minor, Fraction inverse)."""
    import symcal.ranking.loss_matrix as lm

    lm.USE_FLINT = False
    t0 = time.perf_counter()
    cert = lm.LossMatrix.from_rows(rows).rank()
    out.put((cert.value, time.perf_counter() - t0))


def capped(fn: Any, args: tuple[Any, ...], cap: float) -> tuple[Any, float, bool]:
    """(answer, seconds, capped) of ``fn(*args, queue)`` in a child killed after ``cap`` seconds."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    proc = ctx.Process(target=fn, args=(*args, q))
    t0 = time.perf_counter()
    proc.start()
    proc.join(cap)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return None, cap, True
    if q.empty():
        return None, time.perf_counter() - t0, False
    answer, secs = q.get()
    return answer, secs, False


# --------------------------------------------------------------------------- symcal


def _row(what: str, size: str, sym: float, *, base: float | None = None, capped_: bool = False,
         met: bool, note: str) -> dict[str, Any]:
    ratio = base / sym if base is not None and sym > 0 else None
    return {"what": what, "size": size, "baseline_s": base, "ratio_lower_bound": capped_, "symcal_s": sym,
            "ratio": ratio, "target": f"< {TARGET_S:g} s", "met": met, "note": note}


def preference_rows(cap: float) -> list[dict[str, Any]]:
    from symcal.ranking.difference import is_low_noise
    from symcal.ranking.io import describe_preferences
    from symcal.ranking.preference import SparseWeights

    out = []
    m = 300
    a = dense_weights(m)
    sw = SparseWeights(m, a)
    t0 = time.perf_counter()
    low = is_low_noise(sw, max_listed=20)
    sym = time.perf_counter() - t0
    got, base, was_capped = capped(_naive_low_noise, (m, a), cap)
    agree = "" if got is None else (
        f"; the triple loop agrees ({got[1]:,} of {got[0]:,})" if got == (low.witness["paths_checked"],
                                                                           low.witness.get("violations", 0))
        else "; the triple loop DIFFERS")
    out.append(_row("low-noise check (Definition 8), exact", f"{m} dense nodes", sym, base=base, capped_=was_capped,
                    met=sym < TARGET_S,
                    note=f"{low.witness.get('violations', 0):,} of {low.witness['paths_checked']:,} two-edge paths "
                         f"violate it{agree}" + (f"; baseline capped at {cap:g} s" if was_capped else "")))
    t0 = time.perf_counter()
    rep = describe_preferences(sw, time_limit=TARGET_S)
    sym = time.perf_counter() - t0
    risk = rep["min_conditional_risk"]
    span = (f"minimum {risk['value']} (exact)" if risk["status"] == "exact" else
            f"minimum unknown in [{risk['lower_bound']}, {risk['best_value']}]")
    out.append(_row("symcal preference report (low noise, A(p), min l(p, alpha))", f"{m} dense nodes", sym,
                    met=sym < TARGET_S, note=f"{span}; before issue 13 a 60-node instance ran > 2 min"))
    chain = SparseWeights(2000, {(i, i + 1): 1 for i in range(1, 2000)})
    t0 = time.perf_counter()
    rep = describe_preferences(chain, time_limit=TARGET_S)
    sym = time.perf_counter() - t0
    out.append(_row("symcal preference report", "2,000-node chain", sym, met=sym < TARGET_S,
                    note=f"minimum {rep['min_conditional_risk']['value']} ({rep['min_conditional_risk']['status']}); "
                         f"low noise {rep['low_noise']['holds']}; before issue 13: 4 million Fractions, > 2 min"))
    return out


def rank_rows(cap: float, quick: bool) -> list[dict[str, Any]]:
    import symcal.ranking.loss_matrix as lm

    out = []
    if not lm.flint_available():
        return [_row("certified rank", "-", 0.0, met=False, note="python-flint is not installed: "
                     "pip install 'symcal[flint]'")]
    for n in (300, 2000):
        rows = random_matrix(n)
        t0 = time.perf_counter()
        mat = lm.LossMatrix.from_rows(rows)
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        rk = mat.rank()
        af = mat.affine_dimension(base=rk)
        sym = time.perf_counter() - t0
        if quick and n > 300:
            got, base, was_capped = None, None, False
        else:
            got, base, was_capped = capped(_fallback_rank, (rows,), cap)
        agree = "" if got is None else ("; the fallback agrees" if got == rk.value else "; the fallback DIFFERS")
        out.append(_row("certified rank + affine dimension (python-flint) vs the fallback", f"{n} x {n} random",
                        sym, base=base, capped_=was_capped,
                        met=bool(rk.certified and af.certified and sym < TARGET_S),
                        note=f"rank {rk.value}, affine dimension {af.value}, certified "
                             f"{rk.certified and af.certified}; matrix built in {built:.2f} s{agree}"
                             + (f"; fallback capped at {cap:g} s" if was_capped else "")))
    return out


def rows(quick: bool) -> list[dict[str, Any]]:
    cap = 20.0 if quick else 120.0
    return preference_rows(cap) + rank_rows(cap, quick)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for row in rows("--quick" in argv):
        if row["baseline_s"] is None:
            base = "-"
        else:
            base = ("> " if row["ratio_lower_bound"] else "") + f"{row['baseline_s']:.2f}"
        ratio = "-" if row["ratio"] is None else (">" if row["ratio_lower_bound"] else "") + f"{row['ratio']:.0f}x"
        print(f"{row['what']:<66} {row['size']:<18} before {base:>8} s  symcal {row['symcal_s']:6.2f} s  "
              f"{ratio:>7}  met={row['met']}  {row['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
