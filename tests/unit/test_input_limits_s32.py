"""Input limits found by the robustness red team: a JSON key given twice, ``jobs`` beyond any machine and an
expression nested too deep are refused with one clear error (a negative twin beside each refusal)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from symcal import Citation, identity
from symcal.errors import InvalidInput, SymcalError
from symcal.runner import check_many

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _with_duplicate(text: str, key: str) -> str:
    """The JSON text with its first ``"key":`` given twice (the copy first, with the same value)."""
    data = json.loads(text)
    first = json.dumps({key: data[key]})[1:-1]
    return text.replace("{", "{" + first + ",", 1)


@pytest.mark.parametrize(("verb", "example", "key"), [
    (["loss"], "loss.json", "matrix"),
    (["preference"], "preferences.json", "m"),
    (["calibration"], "calibration/logistic_3.json", "loss"),
    (["costs", "--K", "4"], "costs.json", "name"),
])
def test_a_json_key_given_twice_is_refused_in_one_line_and_the_file_without_it_is_read(tmp_path, verb, example, key):
    text = (EXAMPLES / example).read_text()
    twice = tmp_path / "twice.json"
    twice.write_text(_with_duplicate(text, key))
    cmd = [sys.executable, "-m", "symcal", *verb[:1], str(twice), *verb[1:], "--timeout", "5"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "appears twice" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    once = tmp_path / "once.json"
    once.write_text(text)
    r = subprocess.run([*cmd[:4], str(once), *cmd[5:]], capture_output=True, text=True, timeout=120)
    assert "appears twice" not in r.stderr and r.returncode in (0, 1), r.stderr


def test_jobs_beyond_4096_are_refused_and_4096_is_accepted():
    with pytest.raises(InvalidInput, match="jobs"):
        check_many([], jobs=10**100)
    assert check_many([], jobs=4096) == []


def _nested(depth: int) -> sympy.Expr:
    x = sympy.Symbol("x")
    e: sympy.Expr = x
    for i in range(depth):
        e = sympy.Add(e, sympy.Integer(1), evaluate=False) if i % 2 else sympy.Mul(e, 2, evaluate=False)
    return e


def test_an_expression_nested_thousands_deep_is_refused_and_a_shallow_one_is_a_claim():
    cite = Citation("mine2026", "p. 1", "q")
    with pytest.raises(SymcalError, match="nested at most"):
        identity("mine2026.deep", _nested(5000), _nested(5000), cite=cite)
    assert identity("mine2026.shallow", _nested(40), _nested(40), cite=cite).id == "mine2026.shallow"


def test_the_version_has_one_home_and_pyproject_says_the_same():
    import tomllib

    import symcal
    from symcal.version import __version__

    project = tomllib.loads((EXAMPLES.parent / "pyproject.toml").read_text())["project"]
    assert symcal.__version__ == __version__ == project["version"]
