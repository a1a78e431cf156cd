"""Exhaustive check of Uematsu & Lee (2013), Theorem 3 on a finite instance space: time
against the number of points m.

For one seeded instance (K = 4, linear costs c_ji = i - j) with m points, time

(a) the naive way: R_0 of each of the Fubini(m) weak orders evaluated as a sympy expression
    (sum over point pairs and label pairs of c_ji P(x_a, i) P(x_b, j) times the tie/order
    indicator, with sympy Rationals), then the minimum;
(b) symcal.ranking.multipartite.check_theorem3: pair terms precomputed once, scaled to
    integers, one integer sum per weak order;

and check that both give the same exact minimum and that f_0^* attains it.  The naive way is
run for m <= 6 (it grows like Fubini(m) * m^2 * K^2 sympy operations); beyond that only the
symcal time is measured (with --quick the naive way stops at m = 5).  Where it stops being
practical: m = 7 (47,293 weak orders) takes about 0.3 s, m = 8 (545,835) about 3 s (10 s on a
loaded machine), and each further point multiplies the count by about 13.  Run from the repository root:

    python -m bench.theorem3 [--quick]
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction
from typing import Any

import sympy

from symcal.ranking.costs import linear_costs
from symcal.ranking.multipartite import FiniteInstanceSpace, check_theorem3, fubini, random_space, weak_orders

K = 4
TARGET_S = 1.0  # "practical": one instance decided within a second


def instance(m: int) -> FiniteInstanceSpace:
    return random_space(m, K, random.Random(1000 + m), den=6)


def naive_min_risk(space: FiniteInstanceSpace) -> Fraction:
    costs = linear_costs(K)
    q = [
        [sympy.Rational(space.joint(a, k).numerator, space.joint(a, k).denominator) for k in range(1, K + 1)]
        for a in range(space.m)
    ]
    Z = sympy.Rational(space.p_greater.numerator, space.p_greater.denominator)
    best = None
    for lv in weak_orders(space.m):
        total = sympy.Integer(0)
        for a in range(space.m):
            for b in range(space.m):
                ind = 1 if lv[a] < lv[b] else (sympy.Rational(1, 2) if lv[a] == lv[b] else 0)
                if ind == 0:
                    continue
                for j in range(1, K + 1):
                    for i in range(j + 1, K + 1):
                        total += ind * int(costs.c(j, i)) * q[a][i - 1] * q[b][j - 1]
        r = total / Z
        best = r if best is None or r < best else best
    assert best is not None
    return Fraction(int(best.p), int(best.q))


def rows(quick: bool) -> list[dict[str, Any]]:
    sizes = range(3, 7) if quick else range(3, 9)
    out = []
    for m in sizes:
        space = instance(m)
        check_theorem3(instance(2), linear_costs(K))  # warm-up
        fast = float("inf")
        for _ in range(3 if m <= 7 else 1):  # best of three: the machine may be shared
            t0 = time.perf_counter()
            res = check_theorem3(space, linear_costs(K))
            fast = min(fast, time.perf_counter() - t0)
        base = None
        note = f"{fubini(m)} weak orders; f_0^* optimal: {res.f0_optimal}"
        if m <= (5 if quick else 6):
            t0 = time.perf_counter()
            naive = naive_min_risk(space)
            base = time.perf_counter() - t0
            note += f"; naive minimum {'agrees' if naive == res.min_risk else 'DISAGREES'}"
        else:
            note += "; naive sympy evaluation skipped (minutes beyond m = 6)"
        out.append(
            {
                "what": "Theorem 3 exhaustive check (K = 4, linear costs)",
                "size": f"m = {m}",
                "baseline_s": None if base is None else round(base, 4),
                "symcal_s": round(fast, 4),
                "ratio": None if base is None else round(base / fast, 1),
                "target": f"one instance < {TARGET_S:g} s",
                "met": fast < TARGET_S,
                "note": note,
            }
        )
    return out


def main(argv: list[str]) -> int:
    for r in rows("--quick" in argv):
        print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
