"""Honest timeouts at the command line: a hard query with a short --timeout is unknown after its
CPU budget, a check that ignores its limit and sleeps is stopped by the stall rule (no CPU
progress) and says so, --jobs keeps results with their claims, and Ctrl-C stops cleanly: exit
130, one line, no traceback, no worker left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.common.timing import within

HARD = '''
import time
import sympy
from symcal import Citation, finite_check, implies

C = Citation("hard2026", "eq. 1", "hard on purpose")
a, b, c = sympy.symbols("fa fb fc", integer=True)
# Fermat for cubes over positive integers: true, far beyond z3's nonlinear integer reasoning
fermat = implies("hard2026.fermat3", hypotheses={"pos": [a > 0, b > 0, c > 0]},
                 conclusion=sympy.Ne(a**3 + b**3, c**3), cite=C, statement="no positive a^3 + b^3 = c^3")


def forever(case):
    while True:  # ignores every limit
        time.sleep(0.05)


hang = finite_check("hard2026.hang", cases=[1], holds=forever, domain="one case", cite=C,
                    statement="a check that never returns")


def spin(case):
    while True:  # ignores every limit, busy
        pass


busy = finite_check("hard2026.spin", cases=[1], holds=spin, domain="one case", cite=C,
                    statement="a busy check that never returns")
quick = [implies(f"hard2026.quick{k}", hypotheses={"h": [a > k]}, conclusion=a > k - 1 + 2 * (k % 2), cite=C,
                 statement=f"quick claim {k}") for k in range(6)]
CLAIMS = [fermat, hang, busy] + quick
'''


@pytest.fixture()
def hard_file(tmp_path: Path) -> Path:
    p = tmp_path / "hard_claims_for_symcal_test.py"
    p.write_text(HARD)
    return p


def run(*args: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess[str], float]:
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "symcal", *args], capture_output=True, text=True, timeout=timeout)
    return r, time.monotonic() - t


def elapsed_in_json(stdout: str) -> dict[str, dict]:
    return {e["id"]: e for e in json.loads(stdout)}


def test_a_hard_check_is_unknown_after_its_cpu_budget(hard_file):
    r, _ = run("check", "hard2026.fermat3", "--theorems", str(hard_file), "--timeout", "1", "--json")
    assert r.returncode == 1, r.stderr  # unknown disagrees with the expected "proved"
    (e,) = json.loads(r.stdout)
    assert e["status"] == "unknown"
    from symcal.limits import wall_cap

    # 1 CPU second (wall time grows with the load, never up to the absolute cap)
    assert e["seconds"] < wall_cap(1), e
    assert "CPU seconds" in e["reason"], e["reason"]
    assert "no CPU progress" not in e["reason"], e["reason"]  # busy, not hung


def test_a_check_that_sleeps_forever_is_stopped_by_the_stall_rule(hard_file):
    # it uses no CPU: the stall rule stops it once it made no CPU progress for its window
    from symcal.limits import stall_window

    r, wall = run("check", "hard2026.hang", "--theorems", str(hard_file), "--timeout", "1", "--json")
    assert r.returncode == 1, r.stderr
    (e,) = json.loads(r.stdout)
    assert e["status"] == "unknown" and "backstop" in e["reason"], e
    assert "no CPU progress for 3 s (the worker was hung or sleeping" in e["reason"], e["reason"]
    assert e["seconds"] < stall_window(1) + 3.0, e


def test_a_busy_check_that_ignores_its_limit_is_stopped_by_the_cpu_limit_not_the_stall_rule(hard_file):
    # RLIMIT_CPU ends it after the budget and 5 s to spare (a few CPU seconds), whatever the load
    r, _ = run("check", "hard2026.spin", "--theorems", str(hard_file), "--timeout", "1", "--no-cross-check", "--json")
    assert r.returncode == 1, r.stderr
    (e,) = json.loads(r.stdout)
    assert e["status"] == "unknown" and e["reason"].startswith("CPU limit reached: CPU budget of 1 s spent"), e
    assert "no CPU progress" not in e["reason"], e


def test_parallel_jobs_at_the_cli_keep_each_verdict_with_its_claim(hard_file):
    r, _ = run("check", "hard2026.quick*", "--theorems", str(hard_file), "--jobs", "3", "--json")
    got = {k: v["status"] for k, v in elapsed_in_json(r.stdout).items()}
    assert got == {f"hard2026.quick{k}": ("refuted" if k % 2 else "proved") for k in range(6)}


def _workers_mentioning(marker: str) -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and int(d.name) != os.getpid():
            try:
                if marker in (d / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(d.name))
            except OSError:
                continue
    return pids


def _descendants(root: int, marker: str) -> list[int]:
    """``root`` and the processes descended from it whose command line mentions ``marker``."""
    parent = {}
    for pid in _workers_mentioning(marker):
        try:
            parent[pid] = int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    out = []
    for pid in parent:
        q = pid
        while q in parent and q != root:
            q = parent[q]
        if q == root:
            out.append(pid)
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to look for leftover workers")
def test_ctrl_c_stops_cleanly_and_leaves_no_worker_behind(hard_file):
    # a terminal's Ctrl-C reaches a program whose SIGINT has its default disposition; a process that inherits an
    # ignored SIGINT (a job started with '&', or a test worker left so by an earlier in-process test) keeps it
    # ignored, as Python and symcal must: so the child starts with the default, whatever this process has
    p = subprocess.Popen([sys.executable, "-m", "symcal", "check", "hard2026.hang", "hard2026.fermat3",
                          "--theorems", str(hard_file), "--timeout", "60", "--jobs", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    # the front door and both of its workers run (later on a loaded machine); only this run's processes count, not
    # a process of an earlier test of this file (same file name) still ending on a busy machine
    deadline = time.monotonic() + 90
    while len(_descendants(p.pid, hard_file.name)) < 3 and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.25)
    assert len(_descendants(p.pid, hard_file.name)) >= 3
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=20)
    assert time.monotonic() - t < within(5.0)
    assert p.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    time.sleep(0.5)
    assert _workers_mentioning(hard_file.name) == []


def test_a_ctrl_c_while_symcal_is_still_importing_is_one_line_and_exit_130(monkeypatch, capsys):
    import builtins

    import symcal.__main__ as entry

    real_import = builtins.__import__

    def interrupted(name, *args, **kw):
        if name == "symcal.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert entry.run() == 130
    assert capsys.readouterr().err == "symcal: interrupted\n"


def test_without_a_ctrl_c_the_entry_point_runs_the_command_line(monkeypatch, capsys):
    import symcal.__main__ as entry

    monkeypatch.setattr(sys, "argv", ["symcal", "--version"])
    try:
        entry.run()
    except SystemExit as e:  # argparse's --version
        assert e.code == 0
    assert "symcal" in capsys.readouterr().out
