"""Calauzènes et al. (2013): exhaustive checks against n, and the interval prover.

``rows(quick)`` returns dicts with keys what, size, baseline_s, symcal_s, ratio, target, met,
note.  Run alone: ``python -m bench.calauzenes [--quick]``.

* Lemma 4.1 exhaustively (every non-increasing phi in {0..2}^n, U in {0,1,2}^n, nu, sigma):
  symcal enumerates only non-overlapping sets of misordered pairs (matchings); the naive
  baseline enumerates every subset of misordered pairs and filters the overlapping ones.
  The largest n whose check fits in 60 s is reported.
* Table 2, pairwise logistic, reduced: x log x - (1+x) log((1+x)/2) >= (1-x)^2/4 on
  [1/100, 1] (tight at x = 1): symcal's branch-and-bound against naive uniform-grid interval
  subdivision (2^k equal cells, natural enclosure, doubling k), which cannot close the tight
  cell; and the same pair with constant 1/5 (both sides still vanish at x = 1).
"""

from __future__ import annotations

import itertools
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from symcal.backends.base import Budget  # noqa: E402
from symcal.backends.interval_backend import _compile, _hull_iv, _sign_lo, _workprec, decide_bounded  # noqa: E402
from symcal.library import load_paper  # noqa: E402
from symcal.verdicts import Status  # noqa: E402

C = load_paper("calauzenes2013", "symcal_bench_calauzenes2013")


def _lemma41_naive(case: tuple[Any, ...]) -> bool:
    phi, U, nu, sigma = case
    n = len(U)
    regret = C.perf(phi, U, nu) - C.perf(phi, U, sigma)
    ps, pn = C.rank_of(sigma), C.rank_of(nu)
    valid = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if U[i - 1] > U[j - 1] and ps[i] > ps[j]]
    for r in range(len(valid) + 1):
        for sub in itertools.combinations(valid, r):
            items = [x for p in sub for x in p]
            if len(items) != len(set(items)):
                continue
            if regret <= sum((U[i - 1] - U[j - 1]) * (phi[pn[i] - 1] - phi[pn[j] - 1]) for i, j in sub):
                return True
    return False


def _time_lemma41(n: int, naive: bool, cap: float) -> float | None:
    start = time.perf_counter()
    for case in C.lemma41_cases(n):
        ok = _lemma41_naive(case) if naive else C.lemma41_case(case)[0]
        assert ok
        if time.perf_counter() - start > cap:
            return None
    return time.perf_counter() - start


def _grid_prove(expr: Any, x: sympy.Symbol, lo: Fraction, hi: Fraction, max_k: int,
                cap: float) -> tuple[bool, float, int]:
    """Naive: split [lo, hi] into 2^k equal cells, natural interval enclosure on each."""
    f = _compile(expr)
    start = time.perf_counter()
    with _workprec(53):
        for k in range(max_k + 1):
            cells = 2**k
            w = (hi - lo) / cells
            ok = True
            for c in range(cells):
                v = f({x: _hull_iv(lo + c * w, lo + (c + 1) * w)})
                if _sign_lo(v) < 0:
                    ok = False
                    break
            if ok:
                return True, time.perf_counter() - start, cells
            if time.perf_counter() - start > cap:
                break
    return False, time.perf_counter() - start, 2**k


def rows(quick: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cap = 10.0 if quick else 60.0
    largest = None
    for n in range(2, 7 if not quick else 5):
        s = _time_lemma41(n, naive=False, cap=cap)
        b = _time_lemma41(n, naive=True, cap=cap) if n <= 4 else None
        if s is not None:
            largest = n
        out.append({"what": "Lemma 4.1 exhaustive (matchings vs all pair subsets)", "size": f"n = {n}",
                    "baseline_s": b, "symcal_s": s, "ratio": (b / s) if (b and s) else None,
                    "target": f"<= {cap:g} s", "met": s is not None,
                    "note": "" if s is not None else f"over {cap:g} s"})
        if s is None:
            break
    out.append({"what": "Lemma 4.1 exhaustive: largest n in the time cap", "size": f"n = {largest}",
                "baseline_s": None, "symcal_s": None, "ratio": None, "target": f"{cap:g} s", "met": largest is not None,
                "note": "phi in {0..2}^n non-increasing, U in {0,1,2}^n, every nu and sigma"})
    x = sympy.Symbol("x", real=True)
    g = x * sympy.log(x) - (1 + x) * sympy.log((1 + x) / 2)
    cases = ((sympy.Rational(1, 4), "tight (printed constant 1/4)"),
             (sympy.Rational(1, 5), "constant 1/5 (still 0 at x = 1)"))
    for const, label in cases:
        expr = g - const * (1 - x) ** 2
        t0 = time.perf_counter()
        v = decide_bounded(g, ">=", const * (1 - x) ** 2, {x: (Fraction(1, 100), 1)}, [], Budget(60), use_z3=False)
        s = time.perf_counter() - t0
        ok, b, cells = _grid_prove(expr, x, Fraction(1, 100), Fraction(1), 22 if not quick else 16, cap)
        out.append({"what": f"Table 2 pairwise logistic, interval proof, {label}", "size": "x in [1/100, 1]",
                    "baseline_s": b, "symcal_s": s, "ratio": (b / s) if s else None,
                    "target": "proved", "met": v.status is Status.PROVED,
                    "note": f"symcal {v.status.value}; uniform grid {'proved with' if ok else 'NOT proved at'} "
                            f"{cells} cells (a tight point never closes on a grid)"})
    return out


if __name__ == "__main__":
    for r in rows("--quick" in sys.argv):
        print(r)
