"""Start-up cost of the command line (issue 25, item 6): CPU seconds of ``symcal check`` and
``symcal show`` on one claim against what the same work costs without symcal.

* ``symcal check duchi2010.lemma14 --size 6..6 --no-cross-check`` against a naive z3 script doing the
  same query (:data:`NAIVE`: a_ij >= 0, every low-noise instance, the conclusion negated; about 30
  lines, importing z3 only).  Target: symcal within 0.5 CPU-s of the script.
* ``symcal show duchi2010.lemma14`` against the interpreter alone (``python -c pass``).  Target:
  at most 0.5 CPU-s more.

Each command runs in its own process (``sys.executable``, from the repository root); its cost is the
user + system CPU seconds of that process and of the workers it waited for (``RUSAGE_CHILDREN``),
the best of 5 runs (3 with ``quick``).  CPU seconds, not wall: the machine may be shared.

Run alone: ``python -m bench.startup [--quick]``.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLAIM_ID = "duchi2010.lemma14"
M = 6
BUDGET = 0.5  # CPU-s of start-up allowed beyond the work itself

# the same question as `symcal check duchi2010.lemma14 --size M..M`, written the obvious way
NAIVE = '''\
"""Lemma 14 of Duchi et al. (2010) at m nodes, the naive way: a_ij >= 0, every low-noise
instance, the conclusion negated; unsat = proved."""
import itertools
import sys

import z3

m = int(sys.argv[1]) if len(sys.argv) > 1 else 6
nodes = range(m)
a = {(i, j): z3.Real(f"a_{i}_{j}") for i in nodes for j in nodes if i != j}


def d(i, j):
    return a[i, j] - a[j, i]


s = z3.Solver()
s.add([w >= 0 for w in a.values()])
for i, j, k in itertools.permutations(nodes, 3):  # low noise (Definition 8)
    s.add(z3.Implies(z3.And(d(i, j) > 0, d(j, k) > 0), d(i, k) >= d(i, j) + d(j, k)))
# negated conclusion: some pair with a_ik > a_ki and sum_j (a_ij - a_ji) <= sum_j (a_kj - a_jk)
s.add(z3.Or([z3.And(d(i, k) > 0, z3.Sum([d(i, j) for j in nodes if j != i])
                    <= z3.Sum([d(k, j) for j in nodes if j != k]))
             for i, k in itertools.permutations(nodes, 2)]))
print(f"m = {m}: {'proved' if s.check() == z3.unsat else 'not proved'}")
'''


def cpu_seconds(cmd: list[str]) -> tuple[float, int, str]:
    """(user + system CPU seconds of ``cmd`` and the children it waited for, exit code, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent, done.returncode, done.stdout


def best_of(cmd: list[str], runs: int) -> dict[str, Any]:
    """The least CPU seconds of ``runs`` runs of ``cmd``, every run's, and the last output."""
    times, code, out = [], 0, ""
    for _ in range(runs):
        t, code, out = cpu_seconds(cmd)
        times.append(round(t, 3))
    return {"cmd": cmd, "best": min(times), "runs": times, "exit": code, "stdout": out}


def measure(runs: int = 5) -> dict[str, dict[str, Any]]:
    """Best-of-``runs`` CPU seconds of the naive script, ``symcal check``, ``symcal show`` and the
    bare interpreter."""
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="symcal_bench_startup_") as tmp:
        script = Path(tmp) / "naive_lemma14.py"
        script.write_text(NAIVE)
        return {
            "python": best_of([py, "-c", "pass"], runs),
            "naive": best_of([py, str(script), str(M)], runs),
            "check": best_of([py, "-m", "symcal", "check", CLAIM_ID, "--size", f"{M}..{M}", "--no-cross-check"], runs),
            "show": best_of([py, "-m", "symcal", "show", CLAIM_ID], runs),
        }


def rows(quick: bool = False) -> list[dict[str, Any]]:
    """The bench rows (bench/README.md, *What each row measures*)."""
    runs = 3 if quick else 5
    r = measure(runs)
    naive, check, show, python = r["naive"], r["check"], r["show"], r["python"]
    naive_ok = "proved" in naive["stdout"]
    check_ok = check["exit"] == 0 and " proved " in check["stdout"]
    show_ok = show["exit"] == 0 and show["stdout"].startswith(CLAIM_ID)
    extra_check = check["best"] - naive["best"]
    extra_show = show["best"] - python["best"]
    return [
        {"what": f"start-up: naive z3 script vs `symcal check {CLAIM_ID} --size {M}..{M} --no-cross-check` "
                 "(CPU-s)", "size": f"m = {M}", "baseline_s": naive["best"], "symcal_s": check["best"],
         "ratio": naive["best"] / check["best"] if check["best"] else None,
         "target": f"symcal <= naive + {BUDGET} CPU-s", "met": naive_ok and check_ok and extra_check <= BUDGET,
         "note": f"symcal - naive = {extra_check:+.2f} CPU-s; naive {'proved' if naive_ok else 'NOT proved'}, symcal "
                 f"{'proved' if check_ok else 'NOT proved'}; best of {runs}",
         "detail": {"naive": naive, "check": check}},
        {"what": f"start-up: `python -c pass` vs `symcal show {CLAIM_ID}` (CPU-s)", "size": "one claim",
         "baseline_s": python["best"], "symcal_s": show["best"],
         "ratio": python["best"] / show["best"] if show["best"] else None,
         "target": f"symcal <= python + {BUDGET} CPU-s", "met": show_ok and extra_show <= BUDGET,
         "note": f"symcal - python = {extra_show:+.2f} CPU-s; best of {runs}",
         "detail": {"python": python, "show": show}},
    ]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for row in rows(quick="--quick" in argv):
        print(f"{row['what']}: baseline {row['baseline_s']:.2f} s, symcal {row['symcal_s']:.2f} s "
              f"(ratio {row['ratio']:.2f}); target {row['target']}: {'met' if row['met'] else 'NOT met'}; "
              f"{row['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
