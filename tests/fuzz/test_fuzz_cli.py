"""Property-based fuzzing of the command line (Hypothesis), in-process through ``cli.main``.

Malformed options and hostile files must give exit code 2 with one ``symcal: error: ...``
line naming the parameter or file, never a traceback, exit 3 or a hang; valid random files
must give exit 0.  Derandomized for CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcal.cli import main

FUZZ = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FEW = settings(FUZZ, max_examples=8)

OWN = '''
import sympy
from symcal import Citation, identity, reals
x, = reals("x")
C = Citation("fuzz2026", "Eq. (1)", "x + 0 = x")
CLAIMS = [identity("fuzz2026.plus_zero", x + 0, x, cite=C)]
'''


def run(argv, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # argparse refusals
        code = e.code if isinstance(e.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(argv, capsys, *names: str) -> str:
    code, out, err = run(argv, capsys)
    assert code == 2, f"{argv}: exit {code}, stderr {err!r}"
    assert "Traceback" not in err + out and "internal error" not in err
    lines = [ln for ln in err.splitlines() if ln.startswith("symcal: error:")]
    assert len(lines) == 1, f"{argv}: expected one 'symcal: error:' line, got {err!r}"
    assert len(err.strip().splitlines()) == 1, f"{argv}: a refusal is one line, got {err!r}"
    if names:
        assert any(n in lines[0] for n in names), f"{argv}: {lines[0]!r} names none of {names}"
    return lines[0]


def assert_ok_or_usage(argv, capsys, *names: str) -> int:
    code, out, err = run(argv, capsys)
    assert code in (0, 2), f"{argv}: exit {code}, stderr {err!r}"
    assert "Traceback" not in err + out and "internal error" not in err
    if code == 2:
        lines = [ln for ln in err.splitlines() if ln.startswith("symcal: error:")]
        assert len(lines) == 1, err
        if names:
            assert any(n in lines[0] for n in names), lines[0]
    return code


@pytest.fixture(scope="module")
def own(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("own") / "own.py"
    p.write_text(OWN)
    return p


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzzcli")


def _write(d: Path, name: str, content: str | bytes) -> Path:
    p = d / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return p


# --------------------------------------------------------------------------- options

bad_sizes = st.one_of(st.sampled_from(["", "a", "3..", "..3", "5..3", "3..x", "-1..2", "3.5", "1e3", "3...4", "0x3"]),
                      st.text(max_size=6).filter(lambda s: not s.strip().isdigit()))
bad_numbers = st.one_of(st.sampled_from(["0", "-1", "nan", "inf", "-inf", "", "x", "1/2", "0.0", "-0"]),
                        st.text(max_size=5))


@FUZZ
@given(size=bad_sizes)
def test_check_bad_size(size, own, capsys):
    import re
    if re.fullmatch(r"\s*(\d+)\s*(?:\.\.\s*(\d+))?\s*", size):
        return
    assert_usage_error(["check", "--theorems", own, "--size", size], capsys, "--size")


@FUZZ
@given(timeout=bad_numbers, jobs=bad_numbers)
def test_check_bad_timeout_and_jobs(timeout, jobs, own, capsys):
    try:
        t_ok = float(timeout) > 0 and float(timeout) < float("inf")
    except ValueError:
        t_ok = False
    try:
        j_ok = int(jobs) >= 1
    except ValueError:
        j_ok = False
    if not t_ok:
        assert_usage_error(["check", "--theorems", own, "--timeout", timeout], capsys, "--timeout")
    if not j_ok:
        assert_usage_error(["check", "--theorems", own, "--jobs", jobs], capsys, "--jobs")


@FUZZ
@given(pattern=st.one_of(st.text(min_size=1, max_size=12), st.sampled_from(["[", "fuzz2026.[", "*x*", "fuzz"])))
def test_check_and_list_bad_patterns(pattern, own, capsys):
    if pattern.startswith("-"):
        pattern = "x" + pattern
    for verb in ("check", "list"):
        code = assert_ok_or_usage([verb, pattern, "--theorems", own], capsys, "pattern")
        matches = pattern in ("fuzz2026", "fuzz2026.plus_zero") or (
            any(c in pattern for c in "*?[") and __import__("fnmatch").fnmatchcase("fuzz2026.plus_zero", pattern))
        assert (code == 0) == matches, (verb, pattern, code)
    assert_ok_or_usage(["show", pattern, "--theorems", own], capsys, "id", "pattern")


@FEW
@given(id_=st.text(min_size=1, max_size=10).filter(lambda s: not s.startswith("-")),
       size=st.sampled_from(["0..1", "2..1", "1..1", "3"]))
def test_necessity_bad_id_and_size(id_, size, own, capsys):
    assert_usage_error(["necessity", id_, "--theorems", own], capsys, "id", "pattern")
    assert_usage_error(["necessity", id_, "--theorems", own, "--size", size], capsys, "id", "pattern", "--size")


def test_size_on_unsized_claims_is_refused(own, capsys):
    assert_usage_error(["check", "--theorems", own, "--size", "3..4"], capsys, "--size")


def test_selftest_without_mode(own, capsys):
    assert_usage_error(["selftest", "--theorems", own], capsys, "selftest")


def test_unwritable_outputs(own, scratch, capsys):
    a_file = _write(scratch, "a_file.txt", "x")
    assert_usage_error(["report", "--theorems", own, "--out", scratch], capsys, "--out")
    assert_usage_error(["report", "--theorems", own, "--out", scratch / "no" / "such" / "dir.md"], capsys, "--out")
    assert_usage_error(["check", "--theorems", own, "--smtlib", a_file], capsys, "--smtlib")


def test_valid_own_file_runs(own, capsys):
    code, out, err = run(["check", "--theorems", own, "--jobs", "1", "--timeout", "30"], capsys)
    assert code == 0 and "fuzz2026.plus_zero" in out and "proved" in out


# --------------------------------------------------------------------------- hostile --theorems files

HOSTILE = {
    "syntax.py": "def f(:\n",
    "raises.py": "raise RuntimeError('boom on import')\n",
    "exits.py": "import sys\nsys.exit(0)\n",
    "exits3.py": "raise SystemExit(3)\n",
    "zero.py": "1 / 0\n",
    "empty.py": "",
    "noclaims.py": "x = 1\n",
    "claims_int.py": "CLAIMS = 5\n",
    "claims_none_list.py": "CLAIMS = [None]\n",
    "claims_strs.py": "CLAIMS = ['fuzz2026.a']\n",
    "claims_str.py": "CLAIMS = 'fuzz2026.a'\n",
    "claims_dict.py": "CLAIMS = {'a': 1}\n",
    "bad_id.py": OWN.replace("fuzz2026.plus_zero", "Not An Id"),
    "bad_cite.py": OWN.replace('Citation("fuzz2026", "Eq. (1)", "x + 0 = x")', "None"),
    "dup.py": OWN.replace("CLAIMS = [", "CLAIMS = [identity('fuzz2026.plus_zero', x, x, cite=C), "),
    "nul.py": b"x = 1\x00\n",
    "binary.py": bytes(range(256)),
    "latin1.py": "x = 'caf\xe9'\n".encode("latin-1"),
    "notpy.txt": OWN,
    "import_missing.py": "import symcal_no_such_module\n",
    "recursion.py": "def f(): return f()\nf()\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_theorems_files(name, scratch, capsys):
    p = _write(scratch, name, HOSTILE[name])
    for verb in (["list"], ["check"], ["show", "fuzz2026.a"]):
        assert_usage_error([*verb, "--theorems", p], capsys, str(p), "--theorems", "fuzz2026", "Not An Id")


def test_theorems_path_oddities(scratch, capsys):
    d = scratch / "adir.py"
    d.mkdir(exist_ok=True)
    link = scratch / "dangling.py"
    if not link.is_symlink():
        link.symlink_to(scratch / "nowhere.py")
    for p in (d, link, scratch / "missing.py", scratch, ""):
        assert_usage_error(["list", "--theorems", p], capsys, "--theorems")


@FUZZ
@given(content=st.one_of(st.text(max_size=40), st.binary(max_size=40)))
def test_random_theorems_file(content, scratch, capsys):
    if isinstance(content, str) and any(w in content for w in ("while", "import", "exec", "eval", "open")):
        return  # keep random code harmless
    p = _write(scratch, "random_claims.py", content)
    assert_usage_error(["list", "--theorems", p], capsys, str(p), "--theorems")


# --------------------------------------------------------------------------- data files: preference, costs, loss

json_junk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 6), st.floats(allow_nan=False, allow_infinity=False),
              st.sampled_from(["1/2", "-1", "x", "1/0", "nan", "", "1e99999999", "9^9^9", "exp(1)", "inf"]),
              st.text(max_size=4)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["m", "graphs", "weights", "p", "edges", "matrix", "labels", "predictions",
                                         "name", "costs", "x"]), inner, max_size=4)),
    max_leaves=14,
)

HOSTILE_TEXT = [
    "", " ", "{", "[", "null", "[]", "{}", "NaN", "[NaN]", "[[NaN, 1], [1, 0]]", "[1e400]", "\ufeff{}",
    "[" * 50_000 + "]" * 50_000, '{"m": ' + "9" * 5000 + "}", "[[" + "9" * 5000 + "]]",
    '{"m": 3, "weights": [[1, 2, "1e999999999"]]}', '{"m": 2, "weights": [[1, 2, 0.5]]}',
    '{"m": 2, "graphs": [{"p": "1", "edges": [[1, 2, 1], [2, 1, 1]]}]}',
    '{"m": 2, "graphs": [{"p": "1/2", "edges": [[1, 2, 1]]}]}',
    '{"m": 2, "graphs": [{"p": "1", "edges": [[1, 2, "-1"]]}]}',
    '{"m": 2, "graphs": [{"p": "1", "edges": [[1, 1, "1"]]}]}',
    '{"m": 0, "weights": []}', '{"m": true, "weights": [[1, 2, 1]]}', '{"m": 2.0, "weights": [[1, 2, 1]]}',
    '{"matrix": [[1, 2], [3]]}', '{"matrix": [[1, "x"]]}', '{"matrix": [[1, NaN]]}', '{"matrix": []}',
    '{"matrix": [[-1, 1e308]]}', '{"costs": [[null, "-1"], [null, null]]}',
    '{"costs": [[null, "9^9^9"], [null, null]]}',
    '{"costs": [[null, "1"], [null]]}', '{"costs": [[null, 1.5], [null, null]]}',
]
HOSTILE_BYTES = [b"\xff\xfe\x00\x01", bytes(range(256)), b"\x00" * 10, "[1, 2]".encode("utf-16")]


def _data_verbs(p: Path) -> list[list[object]]:
    return [["preference", p], ["loss", p], ["costs", p]]


@pytest.mark.parametrize("k", range(len(HOSTILE_TEXT) + len(HOSTILE_BYTES)))
def test_hostile_data_files(k, scratch, capsys):
    content = (HOSTILE_TEXT + HOSTILE_BYTES)[k]
    for suffix in (".json", ".csv"):
        p = _write(scratch, f"hostile{k}{suffix}", content)
        for argv in _data_verbs(p):
            if argv[0] == "costs" or suffix == ".json":
                assert_ok_or_usage(argv, capsys, str(p), "path", "file", "source", "matrix", "labels")


@FUZZ
@given(data=json_junk)
def test_random_json_data_files(data, scratch, capsys):
    p = _write(scratch, "random.json", json.dumps(data))
    for argv in _data_verbs(p):
        assert_ok_or_usage(argv, capsys, str(p), "path", "file", "source", "matrix", "labels", "predictions")


csv_cells = st.one_of(st.sampled_from(["", "-", "1", "0", "-1", "1/2", "x", "nan", "inf", "1/0", "1e5", "exp(1)",
                                       "9^9^9", '"', "#", "0.25", "1e99999999"]),
                      st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=4))


@FUZZ
@given(rows=st.lists(st.lists(csv_cells, min_size=0, max_size=5), min_size=0, max_size=5))
def test_random_csv_cost_tables(rows, scratch, capsys):
    p = _write(scratch, "random.csv", "\n".join(",".join(r) for r in rows))
    assert_ok_or_usage(["costs", p], capsys, str(p), "FILE")


@FUZZ
@given(K=st.integers(2, 5), data=st.data())
def test_valid_cost_tables_agree_with_direct_evaluation(K, data, scratch, capsys):
    c = {(j, i): data.draw(st.integers(0, 4)) for j in range(1, K + 1) for i in range(j + 1, K + 1)}
    rows = [["" if i <= j else str(c[(j, i)]) for i in range(1, K + 1)] for j in range(1, K + 1)]
    p = _write(scratch, "valid.csv", "\n".join(",".join(r) for r in rows))
    code, out, err = run(["costs", p, "--json"], capsys)
    assert code == 0, err

    def cc(j, i):
        return 0 if j == i else c[(j, i)]

    holds = all(cc(1, K) * cc(j, i) - cc(1, i) * cc(j, K) + cc(1, j) * cc(i, K) == 0
                for j in range(1, K + 1) for i in range(j + 1, K + 1))
    assert json.loads(out)["holds"] is holds


@FUZZ
@given(m=st.integers(2, 4), data=st.data())
def test_valid_preference_files(m, data, scratch, capsys):
    w = {(i, j): Fraction(data.draw(st.integers(0, 6)), 2) for i in range(1, m + 1) for j in range(1, m + 1) if i != j}
    p = _write(scratch, "pref.json", json.dumps({"m": m, "weights": [[i, j, str(v)] for (i, j), v in w.items()]}))
    code, out, err = run(["preference", p, "--json"], capsys)
    assert code == 0, err
    rep = json.loads(out)

    def d(i, j):
        return w[(i, j)] - w[(j, i)]

    bad = [(i, j, k) for i in range(1, m + 1) for j in range(1, m + 1) for k in range(1, m + 1)
           if len({i, j, k}) == 3 and d(i, j) > 0 and d(j, k) > 0 and d(i, k) < d(i, j) + d(j, k)]
    assert rep["low_noise"]["holds"] == (not bad)


@FUZZ
@given(n=st.integers(1, 3), k=st.integers(1, 3), data=st.data())
def test_valid_loss_files(n, k, data, scratch, capsys):
    import sympy

    rows = [[data.draw(st.integers(-2, 3)) for _ in range(k)] for _ in range(n)]
    p = _write(scratch, "loss.json", json.dumps({"matrix": rows}))
    code, out, err = run(["loss", p, "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["rank"]["value"] == sympy.Matrix(rows).rank()


def test_missing_and_directory_data_files(scratch, capsys):
    for p in (scratch / "missing.json", scratch / "missing.csv", scratch):
        for argv in _data_verbs(p):
            assert_usage_error(argv, capsys, str(p), "path", "file", "source", "FILE")
    d = scratch / "dir.json"
    d.mkdir(exist_ok=True)
    for argv in _data_verbs(d):
        assert_usage_error(argv, capsys, str(d), "path", "file", "source")


# --------------------------------------------------------------------------- real processes

@pytest.mark.parametrize("argv", [["preference", "{tmp}/bin.json"], ["check", "--theorems", "{tmp}/exits.py"]])
def test_subprocess_exit_code_and_no_traceback(argv, tmp_path):
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(0)\n")
    env = {k: v for k, v in os.environ.items() if k != "SYMCAL_DEBUG"}
    proc = subprocess.run([sys.executable, "-m", "symcal", *[a.format(tmp=tmp_path) for a in argv]],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("symcal: error:") == 1
