"""Solver sub-limits are CPU seconds shared from the caller's budget, so a verdict does not depend on the load.

A worker that a load of 20 on 2 cores leaves a tenth of a core would turn a fixed wall-clock limit of
5 s into half a CPU second.  So every solver call gets a sub-budget in CPU seconds
(:meth:`symcal.backends.base.Budget.share`), stopped by the watchdog on the CPU clock
(:func:`symcal.backends.z3_backend.cpu_watchdog`); a solver's own wall-clock ``timeout`` is only the
budget's backstop (``wall_ms()``, ``WALL_FACTOR`` times longer) -- ARCHITECTURE.md, rule 5.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from symcal.backends.base import Budget
from symcal.calibration.parameters import decide_parameters
from symcal.calibration.problem import read_problem_file
from symcal.limits import WALL_FACTOR

ROOT = Path(__file__).resolve().parents[2]
SYMCAL = ROOT / "symcal"
EX = ROOT / "examples" / "calibration"


# --------------------------------------------------------------------------- the architecture


def _is_backstop(node: ast.expr) -> bool:
    """``<a budget>.wall_ms()``: the only wall-clock limit a solver may be given."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "wall_ms"


def _uses_watchdog(fn: ast.AST) -> bool:
    return any(isinstance(n, ast.With) and any(isinstance(it.context_expr, ast.Call)
                                               and (getattr(it.context_expr.func, "id", None) == "cpu_watchdog"
                                                    or getattr(it.context_expr.func, "attr", None) == "cpu_watchdog")
                                               for it in n.items) for n in ast.walk(fn))


def wall_limits(source: str) -> list[str]:
    """The solver wall-clock limits in ``source`` that are not a budget's backstop: ``x.set("timeout", v)``
    and ``TryFor(tactic, v)`` with ``v`` anything but ``<budget>.wall_ms()``, or outside a function that
    stops the solver by :func:`cpu_watchdog`."""
    tree = ast.parse(source)
    owner: dict[ast.AST, ast.AST | None] = {}

    def visit(node: ast.AST, fn: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            owner[child] = fn
            visit(child, child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else fn)

    visit(tree, None)
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute | ast.Name):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        if name == "set" and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "timeout":
            limit = node.args[1] if len(node.args) > 1 else None
        elif name == "TryFor" and len(node.args) > 1:
            limit = node.args[1]
        else:
            continue
        fn = owner.get(node)
        if limit is None or not _is_backstop(limit) or fn is None or not _uses_watchdog(fn):
            bad.append(f"line {node.lineno}: {ast.unparse(node)}")
    return bad


def test_every_solver_timeout_in_symcal_is_a_budgets_wall_backstop_with_the_cpu_watchdog():
    found, seen = {}, 0
    for path in sorted(SYMCAL.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if '"timeout"' not in text and "TryFor" not in text:
            continue
        seen += text.count('.set("timeout"') + text.count("TryFor(")
        bad = wall_limits(text)
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    assert found == {}
    assert seen >= 10  # the scan looks at the solver calls (z3_backend and the calibration package)


@pytest.mark.parametrize("snippet", [
    'def f(s):\n    s.set("timeout", 5000)\n    return s.check()\n',
    'def f(s, budget):\n    s.set("timeout", max(1, int(1000 * min(5.0, budget.left()))))\n    return s.check()\n',
    'def f(opt, timeout_s):\n    opt.set("timeout", int(timeout_s * 1000))\n',
    'def f(z3, g, ms):\n    return z3.TryFor(z3.Tactic("qe"), ms)(g)\n',
    # the backstop alone is not enough: without the watchdog z3 would stop only on the wall clock
    'def f(s, budget):\n    s.set("timeout", budget.wall_ms())\n    return s.check()\n',
])
def test_a_fixed_or_computed_wall_clock_limit_is_flagged(snippet):
    assert wall_limits(snippet)


def test_a_shared_budgets_backstop_under_the_watchdog_is_not_flagged():
    snippet = ('def f(s, budget):\n    sub = budget.share(5.0)\n    s.set("timeout", sub.wall_ms())\n'
               '    with cpu_watchdog(sub, s.ctx):\n        return s.check()\n')
    assert wall_limits(snippet) == []


# --------------------------------------------------------------------------- the sub-budget


def test_a_share_gets_the_seconds_asked_for_when_the_parent_has_more_left():
    sub = Budget(30.0).share(5.0)
    assert sub.seconds == 5.0
    assert sub.wall_left() == pytest.approx(WALL_FACTOR * 5.0 + 1.0, abs=0.5)
    assert sub.wall_ms() == pytest.approx(1000 * (WALL_FACTOR * 5.0 + 1.0), abs=500)


def test_a_share_is_capped_by_what_the_parent_has_left():
    parent = Budget(2.0)
    sub = parent.share(10.0)
    assert sub.seconds <= 2.0 and sub.seconds == pytest.approx(2.0, abs=0.2)
    assert sub.wall_left() == pytest.approx(WALL_FACTOR * sub.seconds + 1.0, abs=0.5)
    assert parent.share().seconds == pytest.approx(2.0, abs=0.2)  # by default: all that is left


def test_a_share_of_a_spent_budget_is_spent_too_unless_a_floor_is_asked_for():
    spent = Budget(0.0)
    assert spent.share(5.0).cpu_left() <= 0 and spent.share(5.0).expired()
    floored = spent.share(5.0, floor=0.5)  # a minimal chance to answer
    assert floored.seconds == 0.5 and not floored.expired()


def test_a_share_never_outlives_its_parents_wall_backstop():
    parent = Budget(10.0)
    parent.deadline = time.monotonic() + 3.0  # the backstop nearly reached (a very busy machine)
    sub = parent.share(2.0)
    assert sub.deadline <= parent.deadline + 1e-6 and sub.seconds == 2.0
    twin = Budget(10.0).share(2.0)  # the same share of a fresh parent: its own, longer backstop
    assert twin.deadline > parent.deadline


# --------------------------------------------------------------------------- the behaviour


HINGE = [("0 < c < 1/2", "refuted"), ("c = 1/2", "proved"), ("1/2 < c < 1", "refuted")]


def _pieces() -> list[tuple[str, str]]:
    ans = decide_parameters(read_problem_file(EX / "cost_sensitive_hinge_c.json"), timeout=30, cross_check=False)
    return [(pc.set, pc.status) for pc in ans.pieces]


def _clock(monkeypatch: pytest.MonkeyPatch, speed: float) -> None:
    """The wall clock (``time.monotonic``) runs ``speed`` times as fast as it does: what a process that a
    busy machine leaves 1/speed of a core sees (each CPU second takes ``speed`` seconds of wall time)."""
    real = time.monotonic
    start = real()
    monkeypatch.setattr(time, "monotonic", lambda: start + speed * (real() - start))


def test_the_cost_sensitive_hinge_gets_the_same_pieces_when_the_wall_clock_runs_twenty_times_as_fast(monkeypatch):
    assert _pieces() == HINGE
    _clock(monkeypatch, 20.0)  # a load of 20 on 2 cores: a tenth of a core
    assert _pieces() == HINGE


def test_a_wall_clock_beyond_the_backstop_gives_up_on_pieces_but_never_decides_one_otherwise(monkeypatch):
    # the twin: a clock so fast that even the backstop (WALL_FACTOR times the budget) passes -- the
    # backstop is live, and what it stops is unknown, never a different decisive answer
    _clock(monkeypatch, 1e6)
    got = dict(_pieces())
    assert "unknown" in got.values()
    assert all(status in ("unknown", dict(HINGE).get(piece)) for piece, status in got.items())


STOPPER = """
import os, signal, sys, time
pid, share = int(sys.argv[1]), float(sys.argv[2])
def done(*_):
    os.kill(pid, signal.SIGCONT)
    sys.exit(0)
signal.signal(signal.SIGTERM, done)
end = time.monotonic() + 30
try:
    while time.monotonic() < end:
        os.kill(pid, signal.SIGSTOP)
        time.sleep(0.02 * (1 - share))
        os.kill(pid, signal.SIGCONT)
        if sys.stdout:
            print("on", flush=True)  # the first cycle is done: the test may start
            sys.stdout = None
        time.sleep(0.02 * share)
finally:
    os.kill(pid, signal.SIGCONT)
"""


@pytest.fixture
def tenth_of_a_core():
    """This process runs a tenth of the time (SIGSTOP / SIGCONT from a helper, every 20 ms), its z3 threads
    too: what a load of 20 on 2 cores leaves a worker, with no busy loop on the machine."""
    import os
    import subprocess
    import sys

    helper = subprocess.Popen([sys.executable, "-c", STOPPER, str(os.getpid()), "0.1"], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert helper.stdout is not None and helper.stdout.readline().strip() == "on"
        yield
    finally:
        helper.terminate()
        helper.wait()
        if helper.stdout is not None:
            helper.stdout.close()


def _pigeonhole(n: int) -> list:
    """n pigeons in n - 1 holes: unsat, and ~0.2 CPU seconds of z3 for n = 9 (a query with a known cost)."""
    import z3

    x = [[z3.Bool(f"x{i}_{j}") for j in range(n - 1)] for i in range(n)]
    cons = [z3.Or(*row) for row in x]
    cons += [z3.Or(z3.Not(x[i][j]), z3.Not(x[k][j])) for j in range(n - 1) for i in range(n) for k in range(i + 1, n)]
    return cons


def test_a_shared_cpu_second_still_decides_a_query_on_a_tenth_of_a_core(tenth_of_a_core):
    from symcal.calibration.region import _check

    start = time.process_time()
    assert _check(_pigeonhole(9), Budget(30.0).share(1.0)) == "unsat"
    assert time.process_time() - start < 1.0


def test_a_wall_clock_limit_on_a_tenth_of_a_core_is_not_enough_for_the_same_query(tenth_of_a_core):
    # the twin: the old way, z3's own timeout (of 300 ms) leaves a tenth of it, 0.03 CPU seconds: unknown
    import z3

    s = z3.Solver()
    s.set("timeout", 300)
    s.add(*_pigeonhole(9))
    assert s.check() == z3.unknown
