"""Xia, Liu & Li (2009): time of the exhaustive order-sensitivity proof for top-k ListMLE
(Definition 3, all k, via polynomials in t = exp(g)) against n.

symcal's encoding: pair (1, 2) fixed by symmetry, one small z3 query per position pattern
(a, b) of objects 1 and 2 (others in increasing order: C(n, 2) patterns per k).
Naive: every y in Y_{1,2} (n!/2 orderings) for every k, all conditions in one monolithic z3
query.  Also the largest n whose symcal check finishes within 60 s.

Modified ListNet (12), Section 4.3.3: the claim's termwise encoding (a sympy difference
identity, then one z3 query per sign: a_pi > 0 / = 0 per (k, position pattern), the g side,
the tie side) against a baseline that gives z3 condition (3) directly as one rational
inequality in (t, u) per k (sum over all n! orderings; condition (2) has no log-free direct
form).  Also the largest n whose ListNet proof (z3 cases) finishes within 60 s.

Run alone: ``python -m bench.xia`` (add ``--full`` for n up to 6, ListNet up to 5).
"""

from __future__ import annotations

import itertools
import sys
import time
from typing import Any

import sympy

LIMIT = 60.0


def _module() -> Any:
    from symcal.library import load_paper

    return load_paper("xia2009", "symcal_bench_xia2009")


def _cases_time(cases: Any, limit: float) -> float | None:
    """Every case of a family, one z3 query each (the engine's implies_cases route), within
    ``limit`` seconds in all; None when a case is undecided or the limit runs out."""
    from symcal.backends.base import Budget
    from symcal.backends.smt_claims import decide_implies
    from symcal.verdicts import Status

    start = time.perf_counter()
    for label, hyps, concl in cases:
        left = limit - (time.perf_counter() - start)
        if left <= 0:
            return None
        out = decide_implies(hyps, concl, Budget(left), "bench", label)
        if out.status is Status.REFUTED:
            raise AssertionError(f"{label} failed")
        if out.status is not Status.PROVED:
            return None
    return time.perf_counter() - start


def _symcal_time(X: Any, n: int, limit: float) -> float | None:
    return _cases_time(X.listmle_os_cases(n), limit)


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


def _listnet_time(X: Any, n: int, limit: float) -> float | None:
    return _cases_time(X.listnet_os_cases(n), limit)


def _listnet_cond3_direct_time(X: Any, n: int, limit: float) -> float | None:
    """Condition (3) at y = identity for every k, each as one rational inequality:
    sum_pi (P_{psi_{sigma y}}(pi) - P_{psi_y}(pi)) G_1(pi) > 0 at t_1 = t_2."""
    from symcal.backends.base import Budget
    from symcal.backends.smt_claims import decide_implies
    from symcal.verdicts import Status

    t = X.t_symbols(n)
    u = list(sympy.symbols(" ".join(f"u{s}" for s in range(n + 1)), positive=True))
    start = time.perf_counter()
    for k in range(1, n + 1):
        order = [u[s] > u[s + 1] for s in range(1, k)] + ([u[k] > u[0]] if k < n else [])
        y = tuple(range(1, n + 1))
        z = X.swap(y, 1, 2)
        wy = [u[X.pos(y, o)] if X.pos(y, o) <= k else u[0] for o in range(1, n + 1)]
        wz = [u[X.pos(z, o)] if X.pos(z, o) <= k else u[0] for o in range(1, n + 1)]
        gap: Any = 0
        for pi in X.perms(n):
            (a, b), (c, d) = X.luce_parts(wz, pi, n), X.luce_parts(wy, pi, n)
            gap += (a / b - c / d) * X.listmle_gradient(t, pi, n, 1)
        left = limit - (time.perf_counter() - start)
        if left <= 0:
            return None
        out = decide_implies({"psi_order": order, "tie": [sympy.Eq(t[0], t[1])]}, sympy.together(gap) > 0,
                             Budget(left), "bench", f"direct (3), k = {k}")
        if out.status is not Status.PROVED:
            return None
    return time.perf_counter() - start


def _listnet_cond3_termwise_time(X: Any, n: int, limit: float) -> float | None:
    """The termwise cases that give condition (3): the tie side and a_pi > 0 at y = identity."""
    ident = tuple(range(1, n + 1))
    return _cases_time([c for c in X.listnet_os_cases(n) if "g_1 = g_2" in c[0] or f"y={ident}" in c[0]], limit)


def listnet_rows(X: Any, quick: bool) -> list[dict[str, Any]]:
    sizes = (3, 4) if quick else (3, 4, 5)
    out = []
    largest = None
    for n in sizes:
        s = _listnet_time(X, n, LIMIT)
        if s is not None:
            largest = n
        out.append({
            "what": "xia2009 modified ListNet order sensitivity (Def. 3, all k), termwise z3 cases",
            "size": f"n = {n}", "baseline_s": None, "symcal_s": s, "ratio": None,
            "target": f"symcal <= {LIMIT:g} s", "met": s is not None,
            "note": "every case of xia2009.listnet_modified.order_sensitive (the sympy identity not included)"
                    + ("" if s is not None else f"; not finished within {LIMIT:g} s"),
        })
    for n in (3, 4):
        cap = 20.0 if quick else LIMIT
        b = _listnet_cond3_direct_time(X, n, cap)
        s = _listnet_cond3_termwise_time(X, n, LIMIT)
        out.append({
            "what": "xia2009 modified ListNet condition (3), all k: termwise signs vs one rational inequality per k",
            "size": f"n = {n}", "baseline_s": b, "symcal_s": s,
            "ratio": (b / s) if (b is not None and s) else None,
            "target": "termwise decides every k", "met": s is not None,
            "note": "baseline: sum over all n! orderings as one z3 inequality per k"
                    + ("" if b is not None else f" (undecided within {cap:g} s)"),
        })
    out.append({
        "what": "xia2009 largest n with the modified ListNet order-sensitivity proof within 60 s",
        "size": f"n <= {largest}" if largest else "none",
        "baseline_s": None, "symcal_s": None, "ratio": None,
        "target": "n >= 4", "met": bool(largest and largest >= 4) if not quick else None,
        "note": f"sizes tried: {list(sizes)}",
    })
    return out


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
    return out + listnet_rows(X, quick)


if __name__ == "__main__":  # pragma: no cover
    for r in rows(quick="--full" not in sys.argv):
        print(r)
