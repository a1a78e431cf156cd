"""Exact minimum weighted feedback arc set: a plain HiGHS MILP against symcal's solver.

On dense random integer weights (every ordered pair gets a weight 0..9, seeded), time

(a) the plain linear-ordering MILP: binary x_uv ("u before v") for u < v, every 3-cycle
    inequality 0 <= x_uv + x_vw - x_uw <= 1, scipy.optimize.milp (HiGHS) with
    mip_rel_gap = 0 -- no component split, no lazy constraints, no heuristic;
(b) symcal.ranking.min_feedback_arc_set (components, LP cutting planes, lazy triangles,
    a local-search cutoff, certified from HiGHS's dual bound),

and check that both reach the same optimal weight.  Run from the repository root:

    python -m bench.fas [SIZES ...] [--seed S]
"""

from __future__ import annotations

import itertools
import sys
import time
from fractions import Fraction

import numpy as np

from symcal.ranking.feedback_arc_set import min_feedback_arc_set, order_cost


def dense_weights(n: int, seed: int) -> dict[tuple[int, int], int]:
    """Every ordered pair (i, j), i != j, of nodes 1..n gets a random integer weight 0..9."""
    rng = np.random.default_rng(seed)
    mat = rng.integers(0, 10, size=(n, n))
    return {(i + 1, j + 1): int(mat[i, j]) for i in range(n) for j in range(n) if i != j}


def plain_milp(n: int, a: dict[tuple[int, int], int]) -> tuple[Fraction, tuple[int, ...], float]:
    """The plain linear-ordering MILP with all triangle inequalities; returns the exact
    weight of the order it finds, the order, and HiGHS's dual bound."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    pairs = [(u, v) for u in range(1, n + 1) for v in range(u + 1, n + 1)]
    index = {p: k for k, p in enumerate(pairs)}
    # x_uv = 1: u before v, back edge v -> u costs a_vu; x_uv = 0 costs a_uv
    c = np.array([a.get((v, u), 0) - a.get((u, v), 0) for u, v in pairs], dtype=float)
    const = sum(a.get((u, v), 0) for u, v in pairs)
    rows, cols, vals = [], [], []
    for r, (u, v, w) in enumerate(itertools.combinations(range(1, n + 1), 3)):
        rows += [r, r, r]
        cols += [index[(u, v)], index[(v, w)], index[(u, w)]]
        vals += [1.0, 1.0, -1.0]
    A = csr_matrix((vals, (rows, cols)), shape=(rows[-1] + 1, len(pairs)))
    res = milp(
        c,
        constraints=[LinearConstraint(A, 0, 1)],
        integrality=np.ones(len(pairs)),
        bounds=Bounds(0, 1),
        options={"mip_rel_gap": 0},
    )
    x = np.round(res.x)
    wins = {v: 0 for v in range(1, n + 1)}
    for (u, v), k in index.items():
        wins[u if x[k] > 0.5 else v] += 1
    order = tuple(sorted(wins, key=lambda v: -wins[v]))
    return order_cost(a, order, n), order, float(res.mip_dual_bound) + const


def measure(sizes: tuple[int, ...] = (20, 25, 30), seed: int = 0) -> list[dict]:
    """One row per size: seconds of the plain MILP and of ``min_feedback_arc_set``, their
    ratio, both optimal weights and whether they agree."""
    out = []
    for n in sizes:
        a = dense_weights(n, seed)
        t0 = time.perf_counter()
        plain_weight, _order, _bound = plain_milp(n, a)
        plain_s = time.perf_counter() - t0
        res = min_feedback_arc_set(a, n)
        out.append(
            {
                "n": n,
                "seed": seed,
                "plain_milp_seconds": round(plain_s, 3),
                "symcal_seconds": round(res.seconds, 3),
                "ratio": round(plain_s / res.seconds, 2) if res.seconds else None,
                "plain_milp_weight": str(plain_weight),
                "symcal_weight": str(res.weight),
                "certified": res.certified,
                "agree": plain_weight == res.weight,
                "method": res.method,
            }
        )
    return out


def main(argv: list[str]) -> int:
    seed = 0
    sizes: list[int] = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--seed":
            seed = int(args.pop(0))
        else:
            sizes.append(int(arg))
    rows = measure(tuple(sizes) or (20, 25, 30), seed)
    print(f"{'n':>4} {'plain MILP s':>13} {'symcal s':>9} {'ratio':>7} {'weight':>7} {'agree':>6} {'certified':>9}")
    for r in rows:
        print(
            f"{r['n']:>4} {r['plain_milp_seconds']:>13.3f} {r['symcal_seconds']:>9.3f} {r['ratio']:>7} "
            f"{r['symcal_weight']:>7} {str(r['agree']):>6} {str(r['certified']):>9}"
        )
    return 0 if all(r["agree"] and r["certified"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
