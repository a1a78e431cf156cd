"""``symcal calibration FILE``: exit 0 when decided, 1 when unknown, 2 on bad input (one line)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symcal.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "calibration"

WW = {"loss": [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
      "surrogate": {"dim": 3, "per_label": ["Max(0, 1 + u2 - u1) + Max(0, 1 + u3 - u1)",
                                            "Max(0, 1 + u1 - u2) + Max(0, 1 + u3 - u2)",
                                            "Max(0, 1 + u1 - u3) + Max(0, 1 + u2 - u3)"]},
      "link": "argmax"}


def write(tmp_path, data, name="c.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_the_calibrated_example_is_proved_with_exit_code_zero(capsys):
    assert main(["calibration", str(EXAMPLES / "lee_lin_wahba_3.json")]) == 0
    out = capsys.readouterr().out
    assert "proved" in out and "pair (1, 2)" in out


def test_the_uncalibrated_example_is_refuted_and_prints_p_u_and_both_losses(capsys):
    assert main(["calibration", str(EXAMPLES / "weston_watkins_3.json")]) == 0
    out = capsys.readouterr().out
    assert "refuted" in out and "p = (" in out and "u = (" in out
    assert "conditional loss" in out and "optimal" in out


def test_json_output_has_status_scope_evidence_and_an_exact_counterexample(capsys):
    assert main(["calibration", str(EXAMPLES / "weston_watkins_3.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "refuted" and "Def. 1" in out["scope"]
    ce = out["counterexample"]
    assert ce["rechecked"] is True and len(ce["p"]) == 3 and "/" in "".join(ce["p"]) + "/"
    assert out["evidence"]["kind"] == "calibration-witness"


def test_json_output_of_a_proof_carries_every_smtlib_query(capsys):
    assert main(["calibration", str(EXAMPLES / "weston_watkins_3_dominant.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "proved" and out["counterexample"] is None
    smt = [p for p in out["evidence"]["parts"] if p["kind"] == "smt"]
    assert len(smt) >= 6 and all("(check-sat)" in p["smtlib"] and p["answer"] == "unsat" for p in smt)


def test_an_exp_log_surrogate_is_decided_by_the_smooth_method(capsys):
    # was unknown (exit 1) before method (S); the multinomial logistic loss is calibrated for 0-1
    assert main(["calibration", str(EXAMPLES / "logistic_3.json")]) == 0
    assert "(S) smooth convex" in capsys.readouterr().out


@pytest.mark.parametrize("change, message", [
    ({"loss": [[0, 0.5, 1], [1, 0, 1], [1, 1, 0]]}, "not floats"),
    ({"surrogate": {"dim": 3, "per_label": ["u1", "u2"]}}, "one expression per label"),
    ({"surrogate": {"dim": 3, "per_label": ["Max(0, u4)", "u2", "u3"]}}, "unknown name 'u4'"),
    ({"surrogate": {"dim": 3, "per_label": ["__import__('os')", "u2", "u3"]}}, "unknown function"),
    ({"link": "argmedian"}, "link="),
    ({"noise": ["p1 >= 2"]}, "non-empty subset of the simplex"),
    ({"noise": ["q1 >= 0"]}, "unknown name 'q1'"),
])
def test_bad_input_is_one_line_on_stderr_with_exit_code_two(tmp_path, capsys, change, message):
    path = write(tmp_path, {**WW, **change})
    assert main(["calibration", path]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("symcal: error: ") and "\n" not in err and message in err


def test_a_missing_file_and_broken_json_are_errors_not_tracebacks(tmp_path, capsys):
    assert main(["calibration", str(tmp_path / "none.json")]) == 2
    assert main(["calibration", write(tmp_path, "{not json")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("symcal: error:") == 2


def test_a_tiny_timeout_on_the_command_line_gives_unknown_quickly():
    from symcal.calibration import surrogates

    _, dec = surrogates.paper_loss("precision", 5, q=2)  # 32 labels, 120 predictions: about 10 s to prove
    sur, _ = surrogates.ramaswamy_quadratic(dec)
    data = {"loss": {"name": "precision", "r": 5, "q": 2},
            "surrogate": {"dim": 5, "per_label": sur.to_json()["per_label"]}, "link": "sort-desc"}
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.json"
        path.write_text(json.dumps(data))
        r = subprocess.run([sys.executable, "-m", "symcal", "calibration", str(path), "--timeout", "0.5"],
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stderr
    assert "gave up after" in r.stdout


def test_region_prints_the_failing_pieces_and_exits_0_when_exact(capsys):
    code = main(["calibration", str(EXAMPLES / "weston_watkins_3.json"), "--region", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert code == 0 and rep["status"] == "proved" and len(rep["fails_on"]) == 6
    assert all(pc["status"] == "refuted" and pc["counterexample"] for pc in rep["fails_on"])
    assert rep["calibrated_on_proof"]["status"] == "proved"
    code = main(["calibration", str(EXAMPLES / "logistic_3.json"), "--region"])
    assert code == 1 and "unknown" in capsys.readouterr().out
