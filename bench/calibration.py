"""Calibration over the whole simplex: decision time against the number of labels n.

symcal: :func:`symcal.calibration.engine.decide` (one z3 query per pair of predictions, the
preconditions checked, a counterexample re-checked exactly).  Baseline, the naive encoding: the
same question as ONE z3 query, the disjunction over every prediction t' of "p in P, a minimiser
of risk_p in the cell of t', t' worse than another prediction", capped (the ratio is then a
lower bound).  Both in a child process under the same CPU budget.

Cases (0-1 loss, argmax link): Lee-Lin-Wahba hinge (polyhedral, calibrated), Weston-Watkins
hinge (polyhedral, refuted), the squared loss (quadratic, calibrated), n = 3..8 and the largest n
decided within the cap; and the papers' claims for Ramaswamy et al.'s Theorem 4 over P_reinforce
at r = 3, 4 when they are in the library; the calibrated region (``--region``) of the refuted
multiclass hinges at n = 3, 4 and of the Lovász hinge at d = 2 (no naive baseline: no other tool
computes it).

    python -m bench.calibration [--quick] [--region-only]
"""

from __future__ import annotations

import sys
import time
from typing import Any

CAP = 60.0
TARGET_POLY_4 = 10.0


def _setup(case: str, n: int) -> Any:
    from symcal.calibration import setup
    from symcal.calibration import surrogates as S

    sur = {"lee_lin_wahba": S.lee_lin_wahba, "weston_watkins": S.weston_watkins, "squared": S.squared}[case](n)
    return setup(S.zero_one(n), sur, "argmax", name=f"{case}_{n}")


def _symcal(case: str, n: int, cap: float) -> tuple[str, float]:
    from symcal.calibration.engine import decide

    s = _setup(case, n)
    t0 = time.perf_counter()
    v = decide(s, cap)
    return v.status.value, time.perf_counter() - t0


def _monolithic(case: str, n: int, cap: float) -> tuple[str, float]:
    """The naive single query (the disjunction over every t')."""
    import z3

    from symcal.backends.base import Budget
    from symcal.calibration import engine as E

    s = _setup(case, n)
    t0 = time.perf_counter()
    q = E.quadratic_form(s)
    if isinstance(q, E.Quadratic):
        alts, pz = [], None
        for tp in range(s.k):
            cons, pz = E._pair_constraints_quadratic(s, q, tp, None)
            alts.append(z3.And(*cons))
        query = [z3.Or(*alts)]
        variables = pz
    else:
        poly = E.polyhedral_form(s)
        v = E._poly_vars(s, poly)
        base = E._simplex_and_noise(s, v.p) + E._minimiser_constraints(s, poly, v)
        alts = [z3.And(*[E._zlin(a, v.u) <= E._q(b) for a, b in s.link.cells[tp]], E._worse(s, v.p, tp, None))
                for tp in range(s.k)]
        query = base + [z3.Or(*alts)]
        variables = v.all()
    from symcal.backends import z3_backend

    res = z3_backend.solve(query, Budget(cap), variables, "naive: one query")
    answer = {"unsat": "proved", "sat": "refuted (no re-check)", "unknown": "unknown"}[res.answer]
    return answer, time.perf_counter() - t0


def _limited(fn: Any, *args: Any, cap: float) -> tuple[str, float, bool]:
    from symcal.limits import TimeLimitReached, run_limited

    try:
        status, secs = run_limited(fn, *args, cap, timeout=cap)
        return status, secs, status == "unknown"
    except TimeLimitReached:
        return "unknown", cap, True


def rows(quick: bool = False) -> list[dict[str, Any]]:
    cap = 20.0 if quick else CAP
    out: list[dict[str, Any]] = []
    sizes = range(3, 6) if quick else range(3, 9)
    for case, kind in (("lee_lin_wahba", "polyhedral"), ("weston_watkins", "polyhedral"), ("squared", "quadratic")):
        largest = None
        for n in sizes:
            st, secs, capped = _limited(_symcal, case, n, cap=cap)
            bst, bsecs, bcapped = _limited(_monolithic, case, n, cap=cap)
            target = f"< {TARGET_POLY_4:g} s" if (kind == "polyhedral" and n == 4) else ""
            met = (st != "unknown" and secs < TARGET_POLY_4) if target else None
            out.append({"what": f"calibration, {case} ({kind}), 0-1 loss, argmax", "size": f"n = {n}",
                        "baseline_s": bsecs, "baseline_capped": bcapped, "symcal_s": None if capped else secs,
                        "target": target, "met": met,
                        "note": f"symcal {st}; one monolithic query {bst}" + (" (cap)" if bcapped else "")})
            print(f"  .. {case} n={n}: symcal {st} {secs:.2f} s, naive {bst} {bsecs:.2f} s", file=sys.stderr)
            if capped:
                break
            largest = n
        out.append({"what": f"calibration, {case}: largest n decided within {cap:g} s", "size": f"n = {largest}",
                    "symcal_s": None, "note": "quick: n <= 5" if quick else ""})
    out += _theorem4_rows(cap)
    out += region_rows(quick)
    return out


def region_rows(quick: bool = False) -> list[dict[str, Any]]:
    """Time of :func:`symcal.calibration.calibrated_region` and the number of failure pieces."""
    from symcal.calibration import calibrated_region
    from symcal.calibration import surrogates as S

    cap = 20.0 if quick else CAP
    cases: list[tuple[str, Any]] = []
    for n in ((3,) if quick else (3, 4)):
        for name, sur in (("weston_watkins", S.weston_watkins), ("crammer_singer", S.crammer_singer),
                          ("one_vs_all_hinge", S.one_vs_all_hinge)):
            cases.append((f"{name}, 0-1 loss, argmax, n = {n}", (S.zero_one(n), sur(n), "argmax")))
    loss, sur, link = S.lovasz_hinge(2, lambda A: 1 if A else 0)
    cases.append(("Lovász hinge, d = 2, 'any mistake' loss", (loss, sur, link)))
    out = []
    for what, args in cases:
        t0 = time.perf_counter()
        r = calibrated_region(*args, timeout=cap)
        secs = time.perf_counter() - t0
        out.append({"what": f"calibrated region: {what}", "size": f"{len(r.pieces)} failure pieces",
                    "symcal_s": secs, "target": f"decided < {cap:g} s", "met": r.status.value == "proved",
                    "note": r.status.value + ("" if r.status.value == "proved" else f": {r.reason[:80]}")})
        print(f"  .. region {what}: {r.status.value}, {len(r.pieces)} pieces, {secs:.2f} s", file=sys.stderr)
    return out


def _theorem4_rows(cap: float) -> list[dict[str, Any]]:
    from symcal.library import load_bundled
    from symcal.runner import check

    ids = [c for c in load_bundled() if c.id.startswith("ramaswamy2013.theorem4.") and c.kind == "calibration"]
    rows = []
    for c in ids:
        t0 = time.perf_counter()
        v = check(c, timeout=cap)
        secs = time.perf_counter() - t0
        rows.append({"what": f"Ramaswamy et al. Theorem 4 over P_reinforce: {c.id}", "size": v.scope[:40],
                     "symcal_s": secs, "target": "r = 3 < 60 s" if "r3" in c.id or "r = 3" in v.scope else "",
                     "met": (v.status.value == "proved" and secs < 60) if ("r3" in c.id) else None,
                     "note": v.status.value})
    if not rows:
        rows.append({"what": "Ramaswamy et al. Theorem 4 over P_reinforce", "size": "-",
                     "note": "no calibration claim for Theorem 4 in the library"})
    return rows


if __name__ == "__main__":
    quick = "--quick" in sys.argv[1:]
    for r in (region_rows(quick) if "--region-only" in sys.argv[1:] else rows(quick)):
        print(r)
