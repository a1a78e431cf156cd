"""The command line keeps the interface contract: verbs, JSON fields, exit codes, errors."""

import json
import re
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "my_claims.py"


def symcal(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symcal", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def test_check_json_has_the_contract_fields_for_lemma14_at_every_size():
    r = symcal("check", "duchi2010.lemma14", "--size", "3..6", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [row["id"] for row in rows] == ["duchi2010.lemma14"]
    row = rows[0]
    for field in ("id", "status", "expected", "agrees", "scope", "seconds", "backend", "evidence", "finding"):
        assert field in row
    assert row["status"] == "proved" and row["agrees"] is True
    assert [(s["size"], s["status"]) for s in row["sizes"]] == [(m, "proved") for m in range(3, 7)]


def test_the_converse_is_refuted_with_an_exact_witness_in_json():
    r = symcal("check", "duchi2010.lemma14.converse", "--json")
    row = json.loads(r.stdout)[0]
    assert row["status"] == "refuted" and row["agrees"] is True
    assert row["evidence"]["kind"] == "witness" and row["evidence"]["rechecked"] is True
    assert r.returncode == 0


def test_necessity_reports_low_noise_as_needed_with_a_counterexample():
    r = symcal("necessity", "duchi2010.lemma14", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert rows[0]["hypothesis"] == "low_noise" and rows[0]["answer"] == "needed"
    assert rows[0]["evidence"]["rechecked"] is True


def test_a_users_claims_file_is_checked_and_a_disagreement_exits_1():
    r = symcal("check", "--theorems", str(EXAMPLE))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "mine2026.transitive_is_enough" in r.stdout and "DISAGREES" in r.stdout
    assert "mine2026.am_gm_half" in r.stdout
    r2 = symcal("check", "mine2026.am_gm_half", "mine2026.reinforcing.all_m", "--theorems", str(EXAMPLE))
    assert r2.returncode == 0, r2.stdout


def test_smtlib_files_are_written(tmp_path):
    r = symcal("check", "duchi2010.lemma14", "--size", "3..4", "--smtlib", str(tmp_path))
    assert r.returncode == 0, r.stderr
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files and all(f.endswith(".smt2") for f in files)
    assert "(check-sat)" in (tmp_path / files[0]).read_text()


def test_cross_check_with_cvc5_reports_agreement():
    pytest.importorskip("cvc5")
    r = symcal("check", "duchi2010.lemma14", "--size", "3..4", "--cross-check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"re-decided \d+ SMT answers of 1 verdicts: 1 verdicts fully confirmed", r.stdout)
    assert "0 disagreements" in r.stdout


def test_no_cross_check_skips_the_second_opinion():
    r = symcal("check", "duchi2010.lemma14", "--size", "3..4", "--no-cross-check", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)[0]["cross_check"] is None


def test_show_prints_statement_hypotheses_and_citation():
    r = symcal("show", "duchi2010.lemma14")
    assert r.returncode == 0
    for word in ("statement", "low_noise", "Lemma 14", "checked by"):
        assert word in r.stdout


@pytest.mark.parametrize(
    "args,needle",
    [
        (["check", "nosuch2026.claim"], "pattern='nosuch2026.claim'"),
        (["check", "duchi2010.lemma14", "--size", "2..5"], "sizes >= 3"),
        (["check", "duchi2010.lemma14", "--size", "5..3"], "A <= B"),
        (["check", "duchi2010.lemma14", "--size", "three"], "--size='three'"),
        (["check", "--timeout", "-1"], "--timeout='-1'"),
        (["check", "--timeout", "nan"], "--timeout='nan'"),
        (["check", "--jobs", "0"], "--jobs='0'"),
        (["check", "--theorems", "does/not/exist.py"], "an existing Python file"),
        (["show", "duchi2010.lemma99"], "did you mean"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_gets_a_one_line_error_and_exit_2(args, needle):
    r = symcal(*args)
    assert r.returncode == 2, (args, r.returncode, r.stdout, r.stderr)
    assert needle in r.stderr
    assert "Traceback" not in r.stderr


def test_a_theorems_file_that_defines_no_claims_is_an_error(tmp_path):
    f = tmp_path / "empty.py"
    f.write_text("x = 1\n")
    r = symcal("check", "--theorems", str(f))
    assert r.returncode == 2 and "defines claims" in r.stderr
    g = tmp_path / "broken.py"
    g.write_text("def (:\n")
    r2 = symcal("check", "--theorems", str(g))
    assert r2.returncode == 2 and "valid Python" in r2.stderr and "Traceback" not in r2.stderr
    h = tmp_path / "raises.py"
    h.write_text("raise RuntimeError('boom')\n")
    r3 = symcal("check", "--theorems", str(h))
    assert r3.returncode == 2 and "boom" in r3.stderr


def test_report_writes_markdown(tmp_path):
    out = tmp_path / "report.md"
    r = symcal("report", "duchi2010.lemma14.all_m", "--out", str(out))
    assert r.returncode == 0
    text = out.read_text()
    assert text.startswith("# symcal report") and "duchi2010.lemma14.all_m" in text and "z3" in text


def test_a_users_preference_file_is_checked_for_low_noise(tmp_path):
    r = symcal("preference", str(ROOT / "examples" / "preferences.json"), "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["low_noise"]["holds"] is True
    # nudge a_23 up: the path 1 -> 2 -> 3 now outweighs 1 -> 3, and the triple is named
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"m": 3, "graphs": [
        {"p": "1/2", "edges": [[1, 2, "1"], [1, 3, "3"]]},
        {"p": "1/2", "edges": [[2, 3, "3/2"], [3, 1, "1"]]}]}))
    r2 = symcal("preference", str(bad), "--json")
    rep2 = json.loads(r2.stdout)
    assert rep2["low_noise"]["holds"] is False
    assert rep2["low_noise"]["violating_triple"] == [1, 2, 3]


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"m": 3, "graphs": [{"p": 0.5, "edges": [[1, 2, 1]]}, {"p": "1/2", "edges": []}]}', "float"),
        ('{"m": 3, "graphs": [{"p": "1/2", "edges": [[1, 2, "-1"]]}, {"p": "1/2", "edges": []}]}', ">= 0"),
        ('{"m": 3, "graphs": [{"p": "1/3", "edges": [[1, 2, "1"]]}, {"p": "1/3", "edges": []}]}', "sum"),
        ('{"m": 3, "graphs": [{"p": "1", "edges": [[1, 2, "1"], [2, 1, "1"]]}]}', "cycle"),
        ('{"m": 3, "graphs": [{"p": "1", "edges": [[1, 2, "NaN"]]}]}', "finite"),
        ("not json", "JSON"),
    ],
)
def test_bad_preference_files_get_a_clear_error_and_exit_2(tmp_path, content, needle):
    f = tmp_path / "p.json"
    f.write_text(content)
    r = symcal("preference", str(f))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert needle.lower() in r.stderr.lower() and "Traceback" not in r.stderr


# --------------------------------------------------------------------------- issue 13: symcal preference, bounded


def dense_preferences(m: int, seed: int = 0) -> dict:
    import random

    rng = random.Random(seed)
    return {"m": m, "weights": [[i, j, f"{rng.randint(0, 9)}/{rng.randint(1, 5)}"] for i in range(1, m + 1)
                                for j in range(1, m + 1) if i != j and rng.random() < 0.5]}


def test_a_preference_file_with_a_huge_m_is_refused_in_one_line(tmp_path):
    f = tmp_path / "huge.json"
    f.write_text(json.dumps({"m": 10**9, "weights": [[1, 2, 1]]}))
    r = symcal("preference", str(f))
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "m=1000000000" in r.stderr and "1e18 entries; at most 2.5e7" in r.stderr


def test_a_hard_minimum_is_reported_unknown_with_its_bounds_within_the_timeout(tmp_path):
    import time

    f = tmp_path / "dense60.json"
    f.write_text(json.dumps(dense_preferences(60)))
    t = time.monotonic()
    r = symcal("preference", str(f), "--json", "--timeout", "3")
    assert time.monotonic() - t < 4 * 3 + 10
    assert r.returncode == 1, r.stderr
    rep = json.loads(r.stdout)
    risk = rep["min_conditional_risk"]
    assert risk["status"] == "unknown" and risk["value"] is None
    assert F(risk["lower_bound"]) < F(risk["best_value"]) and sorted(risk["best_order"]) == list(range(1, 61))
    assert rep["low_noise"]["holds"] is False and rep["low_noise"]["violation_count"] >= 20


def test_a_2000_node_chain_is_answered_exactly_and_fast(tmp_path):
    f = tmp_path / "chain.json"
    f.write_text(json.dumps({"m": 2000, "weights": [[i, i + 1, 1] for i in range(1, 2000)]}))
    r = symcal("preference", str(f), "--json", "--timeout", "30")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["min_conditional_risk"]["value"] == "0" and rep["low_noise"]["violation_count"] == 1998


def test_a_preference_report_that_cannot_finish_gives_up_in_one_line(tmp_path):
    f = tmp_path / "dense1500.json"  # reading 1.1 million weights alone takes longer than the budget
    f.write_text(json.dumps(dense_preferences(1500)))
    r = symcal("preference", str(f), "--timeout", "0.5")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stdout.strip() == ("symcal: gave up after 0.5 s: the preference report did not finish within "
                                "--timeout 0.5: unknown")


@pytest.mark.parametrize("bad", ["0", "-2", "nan", "soon"])
def test_a_bad_preference_timeout_is_a_usage_error(bad):
    r = symcal("preference", str(ROOT / "examples" / "preferences.json"), "--timeout", bad)
    assert r.returncode == 2 and "--timeout" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_a_300_node_dense_distribution_is_answered_within_the_default_limit(tmp_path):
    f = tmp_path / "dense300.json"
    f.write_text(json.dumps(dense_preferences(300)))
    r = symcal("preference", str(f), "--json")
    assert r.returncode in (0, 1), r.stderr
    rep = json.loads(r.stdout)
    assert rep["m"] == 300 and rep["min_conditional_risk"]["status"] in ("exact", "unknown")


@pytest.mark.parametrize("argv", [["export"], ["nosuch"], ["check", "--timeout", "abc"], ["loss", "--r", "x", "map"]])
def test_argparse_refusals_are_one_line_and_exit_2(argv, capsys):
    from symcal.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("symcal: error: ") and "--help" in err, err
