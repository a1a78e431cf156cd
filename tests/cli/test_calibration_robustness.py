"""``symcal calibration FILE`` and ``symcal.calibration`` against bad input: a link file runs in a
child under the limits of a ``--theorems`` file (what it prints goes to stderr), every bad value
is one line naming the parameter (exit 2, SymcalError), prediction names given by the link name
the predictions in the answer, and cvc5 re-decides the SMT answers behind a decisive verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symcal.calibration import check_calibration, check_file, setup, surrogates
from symcal.cli import main
from symcal.errors import SymcalError
from symcal.verdicts import Status

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "calibration"
HINGE = ["Max(0, 1 + u2 - u1) + Max(0, 1 + u3 - u1)", "Max(0, 1 + u1 - u2) + Max(0, 1 + u3 - u2)",
         "Max(0, 1 + u1 - u3) + Max(0, 1 + u2 - u3)"]
WW = {"loss": [[0, 1, 1], [1, 0, 1], [1, 1, 0]], "surrogate": {"dim": 3, "per_label": HINGE}, "link": "argmax"}
REGIONS = 'REGIONS = [["u1 >= u2", "u1 >= u3"], ["u2 >= u1", "u2 >= u3"], ["u3 >= u1", "u3 >= u2"]]\n'
NAMED = {"linear": [[-1, 0, 0], [0, -1, 0], [0, 0, -1]], "names": ["cat", "dog", "cow"]}


def problem(tmp_path, name="c", raw=None, **change):
    path = tmp_path / f"{name}.json"
    data = {**WW, **change}
    path.write_text(raw if raw is not None else json.dumps(data))
    return str(path)


def link_file(tmp_path, body, name="link"):
    (tmp_path / f"{name}.py").write_text(body)
    return problem(tmp_path, name, link=f"{name}.py")


def one_line_error(capfd, args, *needles):
    assert main(args) == 2
    out, err = capfd.readouterr()
    assert out == ""
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("symcal: error: ") and "Traceback" not in err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


# --------------------------------------------------------------------------- link files


@pytest.mark.parametrize("body, why", [
    ("while True:\n    pass\n", "within 2 CPU seconds"),
    ("import time\ntime.sleep(1000)\n", "within 2 CPU seconds"),
    ("import sys\nsys.exit(0)\n", "SystemExit"),
    ("import os\nos._exit(0)\n", "ended the process"),
    ("raise KeyboardInterrupt\n", "KeyboardInterrupt"),
    # filling memory costs CPU too (zeroing pages): on a loaded machine the 2 CPU seconds may end it before the
    # memory limit does; either way one line naming the file
    ("x = []\nwhile True:\n    x.append(bytearray(10**8))\n", ("MemoryError", "within 2 CPU seconds")),
    # under a full, loaded test run this error once came back as "could not be read back (ModuleNotFoundError
    # ...)": still one line naming the file, so either wording is accepted
    ("class E(Exception):\n    def __str__(self):\n        raise RuntimeError\nraise E()\n",
     ("E: <unprintable>", "could not be read back")),
    ("raise ValueError('one\\ntwo')\n", "ValueError: one two"),
    ("def (:\n", "valid Python"),
    ("X = 1\n", "defining REGIONS"),
    ("REGIONS = [[lambda: 1]] * 3\n", "link.REGIONS[0][0]"),
    ("REGIONS = 5\n", "link.REGIONS"),
    (REGIONS + "NAMES = ['a', 'a', 'c']\n", "distinct names"),
    ("class L(list):\n    def __len__(self):\n        while True:\n            pass\nREGIONS = L([['u1 >= u2']])\n",
     "within 2 CPU seconds"),
    ("def __getattr__(name):\n    raise SystemExit(5)\n", "SystemExit: 5"),
])
def test_a_link_file_that_hangs_exits_raises_or_misbehaves_is_one_line_naming_the_file(tmp_path, capfd, body, why):
    path = link_file(tmp_path, body)
    if isinstance(why, tuple):
        line = one_line_error(capfd, ["calibration", path, "--json", "--timeout", "2"], "link.py")
        assert any(w in line for w in why), line
    else:
        one_line_error(capfd, ["calibration", path, "--json", "--timeout", "2"], why)


def test_a_well_behaved_link_file_is_decided_with_exit_zero(tmp_path, capfd):
    assert main(["calibration", link_file(tmp_path, REGIONS), "--json", "--timeout", "30"]) == 0
    assert json.loads(capfd.readouterr().out)["status"] == "refuted"


def test_only_plain_data_comes_back_from_a_link_file_even_from_its_own_str_and_int_classes(tmp_path, capfd):
    body = ("class S(str):\n    def __eq__(self, other):\n        raise RuntimeError\n    __hash__ = str.__hash__\n"
            "class N(int):\n    pass\n" + REGIONS.replace('"u1 >= u2"', 'S("u1 >= u2")')
            + "NAMES = [N(1), S('two'), 'c']\n")
    assert main(["calibration", link_file(tmp_path, body), "--json", "--timeout", "30"]) == 0
    assert json.loads(capfd.readouterr().out)["problem"]["prediction_names"] == ["1", "two", "c"]


def test_what_a_link_file_prints_goes_to_stderr_and_the_json_stays_clean(tmp_path):
    body = ("print('GARBAGE')\nimport os, sys\nos.write(1, b'RAW\\n')\nprint('DIRECT', file=sys.__stdout__)\n"
            + REGIONS)
    path = link_file(tmp_path, body)
    r = subprocess.run([sys.executable, "-m", "symcal", "calibration", path, "--json", "--timeout", "30"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["status"] == "refuted"
    assert "GARBAGE" in r.stderr and "RAW" in r.stderr and "DIRECT" in r.stderr
    assert "GARBAGE" not in r.stdout


def test_a_link_file_is_imported_once_not_in_symcal_itself(tmp_path, capfd):
    marker = tmp_path / "ran"
    body = f"import os\nopen({str(marker)!r}, 'a').write(str(os.getpid()) + '\\n')\n" + REGIONS
    assert main(["calibration", link_file(tmp_path, body), "--timeout", "30"]) == 0
    pids = marker.read_text().split()
    assert len(pids) == 1 and int(pids[0]) != os.getpid()


def test_the_python_api_refuses_a_hanging_link_file_with_a_symcal_error(tmp_path):
    (tmp_path / "hang.py").write_text("while True:\n    pass\n")
    with pytest.raises(SymcalError, match="hang.py"):
        check_calibration(WW["loss"], WW["surrogate"], str(tmp_path / "hang.py"), timeout=2)
    with pytest.raises(SymcalError, match="SystemExit"):
        (tmp_path / "bye.py").write_text("raise SystemExit(3)\n")
        setup(WW["loss"], WW["surrogate"], str(tmp_path / "bye.py"), timeout=5)


def test_the_python_api_decides_with_a_good_link_file(tmp_path):
    (tmp_path / "good.py").write_text(REGIONS)
    assert check_calibration(WW["loss"], WW["surrogate"], str(tmp_path / "good.py"), timeout=30).status \
        is Status.REFUTED


# --------------------------------------------------------------------------- prediction names


def test_the_links_names_name_the_predictions_in_text_and_json(tmp_path, capfd):
    path = problem(tmp_path, link=NAMED)
    assert main(["calibration", path, "--json"]) == 0
    rep = json.loads(capfd.readouterr().out)
    assert rep["problem"]["prediction_names"] == ["cat", "dog", "cow"]
    ce = rep["counterexample"]
    assert ce["pred"] in ("cat", "dog", "cow") and set(ce["optimal_predictions"]) <= {"cat", "dog", "cow"}
    assert main(["calibration", path]) == 0
    assert f"the link predicts {ce['pred']} on" in capfd.readouterr().out


def test_without_names_the_predictions_are_numbered(tmp_path, capfd):
    assert main(["calibration", problem(tmp_path, link={"linear": NAMED["linear"]}), "--json"]) == 0
    rep = json.loads(capfd.readouterr().out)
    assert rep["problem"]["prediction_names"] == ["1", "2", "3"] and rep["counterexample"]["pred"] in "123"


def test_the_region_pieces_use_the_names_of_a_link_file(tmp_path, capfd):
    path = link_file(tmp_path, REGIONS + "NAMES = ['a', 'b', 'c']\n")
    assert main(["calibration", path, "--region", "--json"]) == 0
    pieces = json.loads(capfd.readouterr().out)["fails_on"]
    assert pieces and {p["counterexample"]["pred"] for p in pieces} <= {"a", "b", "c"}


@pytest.mark.parametrize("names, why", [("abc", "a list of 3 names"), ([1, "1", 2], "distinct"),
                                        (["a\nb", "b", "c"], "one line"), ([{"a": 1}, "b", "c"], "a string"),
                                        ([True, "b", "c"], "a string"), (["a", "b"], "a list of 3 names")])
def test_bad_names_are_refused_by_parameter(tmp_path, capfd, names, why):
    path = problem(tmp_path, link={**NAMED, "names": names})
    one_line_error(capfd, ["calibration", path], "link.names", why)


# --------------------------------------------------------------------------- the second opinion


def test_cvc5_re_decides_the_queries_of_a_proof(capfd):
    pytest.importorskip("cvc5")
    assert main(["calibration", str(EXAMPLES / "lee_lin_wahba_3.json"), "--json"]) == 0
    cc = json.loads(capfd.readouterr().out)["cross_check"]
    assert cc["answers"] > 0 and cc["agreed"] == cc["answers"] and not cc["disagreements"]


def test_no_cross_check_asks_cvc5_nothing(capfd):
    assert main(["calibration", str(EXAMPLES / "lee_lin_wahba_3.json"), "--json", "--no-cross-check"]) == 0
    assert json.loads(capfd.readouterr().out)["cross_check"] is None


def test_a_disagreement_of_cvc5_makes_a_proof_unknown(monkeypatch):
    pytest.importorskip("cvc5")
    from symcal.backends import cvc5_backend

    monkeypatch.setattr(cvc5_backend, "decide_smtlib", lambda text, seconds: "sat")
    _, v = check_file(EXAMPLES / "lee_lin_wahba_3.json", timeout=60)
    assert v.status is Status.UNKNOWN and "SOLVERS DISAGREE" in v.reason
    _, v = check_file(EXAMPLES / "lee_lin_wahba_3.json", timeout=60, cross_check=False)
    assert v.status is Status.PROVED


# --------------------------------------------------------------------------- bad files and values


def test_a_directory_a_fifo_and_a_missing_file_are_one_line_errors(tmp_path, capfd):
    one_line_error(capfd, ["calibration", str(tmp_path)], "file=", "not a directory")
    os.mkfifo(tmp_path / "fifo.json")
    one_line_error(capfd, ["calibration", str(tmp_path / "fifo.json")], "file=", "regular")
    one_line_error(capfd, ["calibration", str(tmp_path / "nope.json")], "file=", "existing")


@pytest.mark.parametrize("raw, why", [
    (bytes(range(256)) * 4, "UTF-8"),
    ("", "valid JSON"),
    ('{"loss": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested at most"),
    ('{"comment": ' + "[" * 40 + "]" * 40 + "}", "nested at most 32"),
    (json.dumps(WW).replace("[0, 1, 1]", "[NaN, 1, 1]"), "NaN"),
    (json.dumps(WW).replace("[0, 1, 1]", "[-Infinity, 1, 1]"), "Infinity"),
    (json.dumps(WW).replace("[0, 1, 1]", "[0.5, 1, 1]"), "not floats"),
    (json.dumps(WW).replace("[0, 1, 1]", "[" + "9" * 5000 + ", 1, 1]"), "sensible size"),
    ("[1, 2]", "a JSON object"),
])
def test_broken_binary_or_deeply_nested_files_are_one_line_errors(tmp_path, capfd, raw, why):
    path = tmp_path / "bad.json"
    (path.write_bytes if isinstance(raw, bytes) else path.write_text)(raw)
    one_line_error(capfd, ["calibration", str(path), "--json"], "file", why)


@pytest.mark.parametrize("change, param", [
    ({"loss": "abc"}, "loss="), ({"loss": [[], [], []]}, "loss[0]="), ({"loss": [["nan", 1, 1], [1, 0, 1], [1, 1, 0]]},
                                                                        "loss[0][0]="),
    ({"loss": [[True, 1, 1], [1, 0, 1], [1, 1, 0]]}, "loss[0][0]="), ({"loss": [[0] * 700] * 1000}, "loss="),
    ({"loss": [["1" + "0" * 1300, 1, 1], [1, 0, 1], [1, 1, 0]]}, "loss[0][0]="),
    ({"loss": [["３", 1, 1], [1, 0, 1], [1, 1, 0]]}, "loss[0][0]="),
    ({"surrogate": {"dim": "3", "per_label": HINGE}}, "surrogate.dim="),
    ({"surrogate": {"dim": 3, "per_label": HINGE, "domain": "u1 = 0"}}, "surrogate.domain="),
    ({"surrogate": {"dim": 3, "per_label": HINGE, "domain": ["u1 <= 1"] * 5000}}, "surrogate.domain="),
    ({"surrogate": {"dim": 3, "per_label": HINGE, "name": [1]}}, "surrogate.name="),
    ({"surrogate": {"dim": 3, "per_label": ["Max(0, 1 + u2 − u1)", "u1", "u2"]}}, "surrogate.per_label[0]="),
    ({"surrogate": {"dim": 3, "per_label": ["-" * 10_000 + "u1", "u1", "u2"]}}, "surrogate.per_label[0]="),
    ({"surrogate": {"dim": 3, "per_label": ["((((((2**64)**64)**64)**64)**64)**64)", "u1", "u2"]}},
     "surrogate.per_label[0]="),
    ({"link": {"linear": [[1, 0, 0]] * 100_000}}, "link.linear="),
    ({"link": {"regions": [["u1 >= u2"]] * 3, "evil": 1}}, "link="), ({"link": None}, "link="),
    ({"link": "argmedian"}, "link="), ({"link": "."}, "link="),
    ({"noise": ["p1 >= 0"] * 5000}, "noise="), ({"noise": ["u1 >= 0"]}, "noise[0]="), ({"noise": ["p1"]}, "noise[0]="),
    ({"name": "a\x1b[31mb"}, "file.name="), ({"evil": 1}, "file="),
])
def test_bad_values_are_one_line_naming_the_parameter(tmp_path, capfd, change, param):
    one_line_error(capfd, ["calibration", problem(tmp_path, **change), "--json"], param)


def test_the_same_file_with_good_values_is_decided(tmp_path, capfd):
    assert main(["calibration", problem(tmp_path), "--json"]) == 0
    assert json.loads(capfd.readouterr().out)["status"] == "refuted"


def test_a_flat_sum_of_five_thousand_hinge_terms_is_read_and_decided(tmp_path, capfd):
    flat = " + ".join(["Max(0, 1 + u2 - u1)"] * 5000)
    path = problem(tmp_path, surrogate={"dim": 3, "per_label": [flat, HINGE[1], HINGE[2]]})
    assert main(["calibration", path, "--json", "--timeout", "60"]) in (0, 1)
    assert json.loads(capfd.readouterr().out)["status"] in ("refuted", "proved", "unknown")


class _BadRepr:
    def __repr__(self):
        raise RuntimeError("no")


@pytest.mark.parametrize("kwargs", [
    {"loss": None}, {"loss": [[0.5, 1], [1, 0]]}, {"loss": [[float("nan"), 1], [1, 0]]}, {"loss": _BadRepr()},
    {"surrogate": "hinge"}, {"link": object()}, {"link": b"argmax"}, {"noise": 5}, {"timeout": "10"},
    {"timeout": float("nan")}, {"timeout": float("inf")}, {"name": 5}, {"progress": 5}, {"cross_check": "yes"},
])
def test_the_python_api_raises_a_symcal_error_for_every_bad_argument(kwargs):
    args = {"loss": WW["loss"], "surrogate": WW["surrogate"], "link": "argmax", **kwargs}
    with pytest.raises(SymcalError) as e:
        check_calibration(args.pop("loss"), args.pop("surrogate"), args.pop("link"), **args)
    assert "\n" not in str(e.value)


def test_the_python_api_with_good_arguments_decides():
    assert check_calibration(surrogates.zero_one(3), surrogates.crammer_singer(3), "argmax", timeout=30).status \
        is Status.REFUTED


@pytest.mark.parametrize("path", [None, 123, "/dev/zero", "/"])
def test_check_file_refuses_what_is_not_a_json_file(path):
    with pytest.raises(SymcalError, match="file="):
        check_file(path)
