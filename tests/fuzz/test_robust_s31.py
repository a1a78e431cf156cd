"""Robustness red team of the command line (session 31): one test per defect class found, each with
a negative twin.  Every refusal is one ``symcal: error:`` line on stderr with exit code 2 naming the
parameter and the value; stdout under ``--json`` is exactly one JSON document; nothing hangs.

Classes: input files that are not regular files (a FIFO waited on forever, /dev/zero read without
end); a stdout that cannot be written (``> /dev/full``) or cannot encode a character; ``atexit``
output of a user's file after the JSON; interpreter state (recursion limit, SIGINT) changed by a
user's file; empty names taken for "everything"; csv's field limit; a saved run with a huge number;
MemoryError / RecursionError reaching ``cli.main``; the kernel on a certificate whose check never
ends, on a closed pipe and on a full disk.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from symcal.cli import main

ROOT = Path(__file__).resolve().parents[2]
OWN = '''
from symcal import Citation, identity, reals
x, = reals("x")
C = Citation("rt2026", "Eq. (1)", "x + 0 = x")
CLAIMS = [identity("rt2026.plus_zero", x + 0, x, cite=C)]
'''
RUN = [{"id": "rt2026.plus_zero", "status": "proved", "expected": "proved", "agrees": True, "erratum": False,
        "scope": "identity", "seconds": 0.1, "backend": "sympy", "evidence": {"kind": "residual", "residual": "0"},
        "reason": "", "finding": None, "finding_class": None, "statement": "x + 0 = x", "citation": {}, "sizes": [],
        "warnings": []}]


def cli(args: list[str], cwd: Path, *, env: dict[str, str] | None = None, shell: str | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m symcal ARGS`` (or a shell line) in a real process, with a timeout."""
    e = {k: v for k, v in os.environ.items() if k != "SYMCAL_DEBUG"}
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env or {})
    cmd: list[str] | str = shell if shell is not None else [sys.executable, "-m", "symcal", *args]
    return subprocess.run(cmd, shell=shell is not None, executable="/bin/bash" if shell else None, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env=e)


def one_line_refusal(code: int, err: str, *needles: str) -> str:
    assert code == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("symcal: error: "), err
    assert "Traceback" not in err and "internal error" not in err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def run_main(argv: list[str], capfd: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capfd.readouterr()
    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capfd.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "own.py").write_text(OWN)
    (tmp_path / "run.json").write_text(json.dumps(RUN))
    (tmp_path / "pref.json").write_text(json.dumps({"m": 2, "weights": [[1, 2, "1"]]}))
    (tmp_path / "costs.csv").write_text(",1,2\n,,1\n,,\n")
    os.mkfifo(tmp_path / "fifo.json")
    os.mkfifo(tmp_path / "fifo.py")
    return tmp_path


# --------------------------------------------------------------------------- input files that are not files

def _verbs(d: Path, name: str) -> list[list[str]]:
    return [["preference", str(d / name)], ["costs", str(d / name)], ["loss", str(d / name)],
            ["costs", "linear", "--K", "3", "--posteriors", str(d / name)], ["report", "--from", str(d / name)]]


@pytest.mark.parametrize("k", range(5))
def test_a_fifo_or_a_device_given_as_an_input_file_is_refused_at_once_naming_it(files, capfd, k):
    for name, kind in (("fifo.json", "FIFO"), ("/dev/zero", "")):  # costs refuses /dev/zero by its suffix
        argv = _verbs(files, name)[k] if name == "fifo.json" else [a.replace(str(files / name), name)
                                                                   for a in _verbs(files, name)[k]]
        code, out, err = run_main(argv, capfd)
        one_line_refusal(code, err, name, *([kind] if kind else []))
    code, _, err = run_main(["list", "--theorems", str(files / "fifo.py")], capfd)
    one_line_refusal(code, err, "--theorems", "FIFO")


def test_the_same_verbs_read_a_regular_file(files, capfd):
    assert run_main(["preference", str(files / "pref.json")], capfd)[0] == 0
    assert run_main(["costs", str(files / "costs.csv")], capfd)[0] == 0
    assert run_main(["report", "--from", str(files / "run.json")], capfd)[0] == 0
    assert run_main(["list", "--theorems", str(files / "own.py")], capfd)[0] == 0


# --------------------------------------------------------------------------- stdout that cannot be written

def test_a_full_disk_on_stdout_is_one_line_with_exit_code_2(files):
    p = cli([], files, shell=f"{sys.executable} -m symcal report --from run.json > /dev/full")
    one_line_refusal(p.returncode, p.stderr, "stdout", "No space left")


def test_a_closed_pipe_ends_quietly_and_a_normal_stdout_gets_the_report(files):
    p = cli([], files, shell=f"set -o pipefail; {sys.executable} -m symcal report --from run.json | head -c 1")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    p = cli(["report", "--from", "run.json"], files)
    assert p.returncode == 0 and "rt2026.plus_zero" in p.stdout


def test_a_character_stdout_cannot_encode_is_escaped_not_an_internal_error(files):
    (files / "run.json").write_text(json.dumps([{**RUN[0], "statement": "x \u2014 y \u2264 z"}]))
    p = cli(["report", "--from", "run.json"], files, env={"PYTHONIOENCODING": "ascii"})
    assert p.returncode == 0, p.stderr
    assert "\\u2014" in p.stdout or "\\u2264" in p.stdout
    p = cli(["report", "--from", "run.json"], files, env={"PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 0 and "\\u2014" not in p.stdout


# --------------------------------------------------------------------------- user code and --json / the interpreter

def test_what_a_theorems_file_prints_at_exit_never_follows_the_json(files):
    (files / "late.py").write_text(OWN + "import atexit\natexit.register(lambda: print('LATE'))\n")
    p = cli(["check", "--json", "--theorems", "late.py", "--timeout", "20"], files)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)[0]["id"] == "rt2026.plus_zero"
    assert "LATE" in p.stderr
    p = cli(["list", "--theorems", "late.py"], files)  # without --json it is the file's own business
    assert p.returncode == 0 and "LATE" in p.stdout


def test_a_theorems_file_cannot_change_the_recursion_limit_or_sigint_of_the_run(files, capfd):
    (files / "meddle.py").write_text(OWN + "import sys, signal\nsys.setrecursionlimit(sys.getrecursionlimit() - 300)\n"
                                     "signal.signal(signal.SIGINT, signal.SIG_IGN)\n")
    limit, handler = sys.getrecursionlimit(), signal.getsignal(signal.SIGINT)
    assert run_main(["list", "--theorems", str(files / "meddle.py")], capfd)[0] == 0
    assert sys.getrecursionlimit() == limit and signal.getsignal(signal.SIGINT) is handler
    assert run_main(["list", "--theorems", str(files / "own.py")], capfd)[0] == 0  # a quiet file: the same


# --------------------------------------------------------------------------- empty names and misplaced options

@pytest.mark.parametrize("argv, needle", [
    (["list", ""], "pattern=''"),
    (["list", "--with-library"], "--with-library"),
    (["check", "--theorems", "{d}/own.py", "--smtlib", ""], "--smtlib=''"),
])
def test_an_empty_name_or_a_lone_with_library_is_refused_not_taken_for_everything(files, capfd, argv, needle):
    code, _, err = run_main([a.format(d=files) for a in argv], capfd)
    one_line_refusal(code, err, needle)


def test_list_without_a_pattern_lists_every_claim_of_the_file(files, capfd):
    code, out, _ = run_main(["list", "--theorems", str(files / "own.py")], capfd)
    assert code == 0 and "rt2026.plus_zero" in out


# --------------------------------------------------------------------------- cost files, saved runs

def test_a_csv_cell_beyond_the_field_limit_and_deep_json_name_the_file_parameter(files, capfd):
    (files / "long.csv").write_text(",%s\n,\n" % ("1" * 200_000))
    code, _, err = run_main(["costs", str(files / "long.csv")], capfd)
    one_line_refusal(code, err, "FILE=", "field")
    (files / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = run_main(["costs", str(files / "deep.json")], capfd)
    one_line_refusal(code, err, "FILE=", "deep.json", "nesting")
    code, _, err = run_main(["costs", "linear", "--K", "3", "--posteriors", str(files / "deep.json")], capfd)
    one_line_refusal(code, err, "--posteriors=")


def test_a_csv_with_ordinary_cells_is_checked(files, capfd):
    assert run_main(["costs", str(files / "costs.csv"), "--json"], capfd)[0] == 0


def test_a_saved_run_with_a_number_beyond_the_digit_limit_is_one_line(files, capfd):
    (files / "big.json").write_text(json.dumps([{**RUN[0], "evidence": {"kind": "witness",
                                                                         "values": {"x": "9" * 5000}}}]))
    code, _, err = run_main(["report", "--from", str(files / "big.json")], capfd)
    one_line_refusal(code, err, "--from=", "digits")
    (files / "small.json").write_text(json.dumps([{**RUN[0], "evidence": {"kind": "witness",
                                                                           "values": {"x": "9" * 50}}}]))
    assert run_main(["report", "--from", str(files / "small.json")], capfd)[0] == 0


# --------------------------------------------------------------------------- what reaches cli.main

@pytest.mark.parametrize("exc", [MemoryError(), RecursionError("maximum recursion depth exceeded")])
def test_memory_and_recursion_errors_reaching_main_are_one_line_not_internal(monkeypatch, capfd, exc):
    import symcal.commands.coverage as cov

    def boom(args):
        raise exc

    monkeypatch.setattr(cov, "run", boom)
    code, _, err = run_main(["coverage", "duchi2010"], capfd)
    one_line_refusal(code, err, "symcal coverage", type(exc).__name__)


def test_any_other_unexpected_exception_is_still_an_internal_error(monkeypatch, capfd):
    import symcal.commands.coverage as cov

    def boom(args):
        raise KeyError("bug")

    monkeypatch.setattr(cov, "run", boom)
    code, _, err = run_main(["coverage", "duchi2010"], capfd)
    assert code == 3 and "internal error: KeyError" in err


# --------------------------------------------------------------------------- the kernel's command line

SQUARE = {"format": "symcal-certificate 1", "claim": "rt2026.square", "size": None, "status": "proved",
          "scope": "identity for all real values of p, q", "text": "(p + q)**2 = p**2 + 2*p*q + q**2",
          "statement": {"kind": "identity", "pairs": [["(^ (+ p q) 2)", "(+ (^ p 2) (^ q 2) (* 2 p q))"]],
                        "functions": []},
          "reductions": [], "reduction": "none",
          "certificate": {"kind": "identity", "checked": True, "reason": "",
                          "body": {"kind": "identity", "pairs": [["(^ (+ p q) 2)", "(+ (^ p 2) (^ q 2) (* 2 p q))"]]},
                          "missing": []}, "symcal": "0.1.0"}


def kernel(args: list[str], cwd: Path, shell: str | None = None) -> subprocess.CompletedProcess[str]:
    e = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd: list[str] | str = shell if shell is not None else [sys.executable, "-m", "symcal.kernel", *args]
    return subprocess.run(cmd, shell=shell is not None, executable="/bin/bash" if shell else None, cwd=cwd,
                          capture_output=True, text=True, timeout=60, env=e)


@pytest.fixture
def certs(tmp_path: Path) -> Path:
    d = tmp_path / "certs"
    d.mkdir()
    (d / "rt2026.square.json").write_text(json.dumps(SQUARE))
    return d


def test_a_certificate_whose_check_never_ends_is_rejected_within_its_seconds_and_the_next_file_checked(certs):
    slow = json.loads(json.dumps(SQUARE).replace("(^ (+ p q) 2)", "(^ (+ p q) 100000)"))
    slow["claim"] = "rt2026.a_slow"
    (certs / "rt2026.a_slow.json").write_text(json.dumps(slow))
    p = kernel([str(certs), "--seconds", "1", "--json"], certs.parent)
    assert p.returncode == 1, p.stderr
    rows = {r["file"]: r for r in json.loads(p.stdout)["results"]}
    assert rows["rt2026.a_slow.json"]["result"] == "rejected"
    assert "did not finish within 1 CPU seconds" in rows["rt2026.a_slow.json"]["reason"]
    assert rows["rt2026.square.json"]["result"] == "accepted"


def test_an_untouched_certificate_is_accepted_under_the_same_limit(certs):
    p = kernel([str(certs), "--seconds", "1"], certs.parent)
    assert p.returncode == 0 and "1 accepted end to end" in p.stdout, p.stdout + p.stderr


def test_the_kernel_on_a_full_disk_is_one_line_and_on_a_closed_pipe_quiet(certs):
    p = kernel([], certs.parent, shell=f"{sys.executable} -m symcal.kernel certs > /dev/full")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "No space left" in p.stderr, p.stderr
    for i in range(300):
        (certs / f"x{i}.json").write_text("not json")
    p = kernel([], certs.parent, shell=f"set -o pipefail; {sys.executable} -m symcal.kernel certs | head -c 1")
    assert "Traceback" not in p.stderr and p.returncode in (0, 1), p.stderr  # 1: files rejected


def test_the_kernel_refuses_a_nan_time_limit_and_takes_a_plain_one(certs):
    p = kernel([str(certs), "--seconds", "nan"], certs.parent)
    assert p.returncode == 2 and "--seconds" in p.stderr and p.stderr.count("\n") == 1
    assert kernel([str(certs), "--seconds", "5"], certs.parent).returncode == 0
