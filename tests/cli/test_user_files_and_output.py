"""A user's ``--theorems`` files keep their promises: an id defined twice is an error (never a claim
silently dropped), ``--json`` output is only JSON whatever the files print, and a long check whose
stderr is not a terminal prints plain progress lines."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from symcal import cli, progress
from symcal.commands import common

ROOT = Path(__file__).resolve().parents[2]

HEAD = ("import sympy\nfrom symcal import Citation, finite_check, implies, reals\nx, = reals('x')\n"
        "C = Citation('mine2026', 'p. 1')\n")


def symcal(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symcal", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def claim(var: str, cid: str, bound: int = 0) -> str:
    return f"{var} = implies({cid!r}, hypotheses={{'h': [x > {bound}]}}, conclusion=x >= {bound}, cite=C)\n"


def write(path: Path, body: str) -> str:
    path.write_text(HEAD + body)
    return str(path)


def test_two_files_defining_one_id_are_an_error_naming_both(tmp_path):
    a = write(tmp_path / "a.py", claim("a", "mine2026.one"))
    b = write(tmp_path / "b.py", claim("b", "mine2026.one", 1))
    r = symcal("check", "--theorems", a, "--theorems", b, "--no-cross-check")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "mine2026.one" in r.stderr
    assert "a.py" in r.stderr and "b.py" in r.stderr
    # its twin: different ids in the two files are both checked
    c = write(tmp_path / "c.py", claim("c", "mine2026.two", 1))
    r2 = symcal("check", "--theorems", a, "--theorems", c, "--json", "--no-cross-check")
    assert r2.returncode == 0, r2.stderr
    assert sorted(row["id"] for row in json.loads(r2.stdout)) == ["mine2026.one", "mine2026.two"]


def test_two_different_claims_with_one_id_in_one_file_are_an_error_but_one_claim_under_two_names_is_one(tmp_path):
    two = write(tmp_path / "two.py", claim("a", "mine2026.same") + claim("b", "mine2026.same", 1))
    r = symcal("check", "--theorems", two, "--no-cross-check")
    assert r.returncode == 2 and "mine2026.same" in r.stderr and "Traceback" not in r.stderr
    # its twin: the same claim bound to two names is one claim
    alias = write(tmp_path / "alias.py", claim("a", "mine2026.same") + "b = a\n")
    r2 = symcal("check", "--theorems", alias, "--json", "--no-cross-check")
    assert r2.returncode == 0, r2.stderr
    assert [row["id"] for row in json.loads(r2.stdout)] == ["mine2026.same"]


def test_a_library_id_in_a_user_file_is_an_error_with_the_library_and_free_without(tmp_path):
    f = write(tmp_path / "mine.py", claim("a", "duchi2010.lemma14"))
    r = symcal("check", "--theorems", f, "--with-library", "duchi2010.lemma14", "--no-cross-check")
    assert r.returncode == 2 and "duchi2010.lemma14" in r.stderr and "bundled library" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    # its twin: without --with-library the library is not loaded, so the user's claim is the only one
    r2 = symcal("check", "--theorems", f, "duchi2010.lemma14", "--json", "--no-cross-check")
    assert r2.returncode == 0, r2.stderr
    row, = json.loads(r2.stdout)
    assert row["id"] == "duchi2010.lemma14" and row["citation"]["paper"] == "mine2026"  # the user's claim


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_json_stdout_is_only_json_whatever_user_code_prints(tmp_path, jobs):
    f = write(tmp_path / "noisy.py", (
        "import os\n"
        "print('printed at import')\n"
        "os.write(1, b'written to fd 1 at import\\n')\n"
        "def holds(k):\n"
        "    print('printed while deciding', k)\n"
        "    return k >= 0\n"
        "f = finite_check('mine2026.f', cases=[1, 2], holds=holds, domain='two cases', cite=C)\n"
        "g = finite_check('mine2026.g', cases=[3], holds=holds, domain='one case', cite=C)\n"
    ))
    r = symcal("check", "--theorems", f, "--json", "--jobs", jobs, "--no-cross-check")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)  # nothing but the JSON array
    assert [row["status"] for row in rows] == ["proved", "proved"]
    for text in ("printed at import", "written to fd 1 at import", "printed while deciding 1",
                 "printed while deciding 3"):
        assert text in r.stderr
    # its twin: without --json the table is printed to stdout as before
    r2 = symcal("check", "--theorems", f, "--jobs", jobs, "--no-cross-check")
    assert r2.returncode == 0 and "mine2026.f" in r2.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(r2.stdout)


def test_lines_two_workers_print_under_json_arrive_whole(tmp_path):
    """Under ``--json`` a worker's ``print`` goes to stderr one line per write: two workers printing
    at the same time never shred each other's lines (CI saw "printed while decidingprinted ...")."""
    f = write(tmp_path / "chatty.py", (
        "def holds(k):\n"
        "    for t in range(150):\n"
        "        print('deciding', k, 'step', t)\n"
        "    return k >= 0\n"
        "f = finite_check('mine2026.f', cases=list(range(8)), holds=holds, domain='eight cases', cite=C)\n"
        "g = finite_check('mine2026.g', cases=list(range(8)), holds=holds, domain='eight cases', cite=C)\n"
    ))
    r = symcal("check", "--theorems", f, "--json", "--jobs", "2", "--no-cross-check")
    assert r.returncode == 0, r.stderr
    assert [row["status"] for row in json.loads(r.stdout)] == ["proved", "proved"]
    lines = [line for line in r.stderr.splitlines() if "deciding" in line]
    assert len(lines) == 2 * 8 * 150
    assert all(re.fullmatch(r"deciding \d step \d+", line) for line in lines)



def test_a_long_check_whose_stderr_is_not_a_terminal_prints_plain_progress_lines(tmp_path, monkeypatch, capsys):
    f = write(tmp_path / "slow.py", (
        "def holds(k):\n"
        "    s = 0\n"
        "    for i in range(3_000_000):\n"
        "        s += i\n"
        "    return True\n"
        "f = finite_check('mine2026.slow', cases=[1, 2], holds=holds, domain='two cases', cite=C)\n"
    ))
    monkeypatch.setattr(progress, "PLAIN_SECONDS", 0.2)
    assert cli.main(["check", "--theorems", f, "--jobs", "1", "--no-cross-check"]) == 0
    err = capsys.readouterr().err
    assert "symcal: deciding: " in err and " after " in err
    assert not common._BARS  # stopped with the command


def test_plain_progress_prints_nothing_for_work_that_ends_sooner_and_counts_what_is_done():
    import io
    import time

    out = io.StringIO()
    p = progress.PlainProgress("deciding", file=out, interval=0.1)
    p("[2/5] mine2026.a m=3: proved (0.10 s)")
    time.sleep(0.35)
    p.close()
    lines = out.getvalue().splitlines()
    assert lines and lines[-1].startswith("symcal: deciding: 2/5 done after ") and "mine2026.a m=3: proved" in lines[-1]
    # its twin: closed before its first interval, it prints nothing
    quiet = io.StringIO()
    q = progress.PlainProgress("deciding", file=quiet, interval=5.0)
    q("[1/1] x: proved (0.01 s)")
    q.close()
    assert quiet.getvalue() == ""
    # and where a bar is drawn (both streams terminals) there are no plain lines
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True
    assert progress.plain_progress(stdout=Tty(), stderr=Tty()) is None
    plain = progress.plain_progress(stdout=io.StringIO(), stderr=Tty())
    assert isinstance(plain, progress.PlainProgress)
    plain.close()


def test_prints_made_while_claims_are_decided_never_reach_the_stdout_of_report_or_selftest(tmp_path, capfd):
    # issue 25, item 8: what user code prints goes to stderr for every command whose stdout is its answer
    path = tmp_path / "noisy.py"
    path.write_text(
        "from symcal import Citation, finite_check\n"
        "def ok(n):\n    print('DURING', n)\n    return n >= 0\n"
        "CLAIMS = [finite_check('mine2026.fc', cases=range(3), holds=ok, domain='n = 0..2',\n"
        "                       cite=Citation('Mine 2026', 'Eq. 2'))]\n")
    from symcal.cli import main

    main(["report", "--theorems", str(path)])
    out, err = capfd.readouterr()
    assert "DURING" not in out and out.startswith("# symcal report") and "DURING" in err
    main(["selftest", "--mutants", "--theorems", str(path), "--json"])
    out, err = capfd.readouterr()
    json.loads(out)  # only JSON on stdout
    assert "DURING" not in out
