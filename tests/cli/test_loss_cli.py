"""``symcal loss``: rank certificate, decomposition, surrogate and pred map in one command."""

import json
from pathlib import Path

import pytest

from symcal.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "loss.json"


def test_a_users_matrix_file_gets_rank_decomposition_and_pred_map(capsys):
    assert main(["loss", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rank"]["value"] == 3 and out["rank"]["certified"]
    assert out["affine_dimension"]["value"] == 2
    assert out["decomposition"]["d"] == 2 and "equals all 9 entries" in out["decomposition"]["check"]
    assert "argmin_t u^T beta_t" in out["pred_map"]


def test_a_named_loss_prints_the_papers_bound_beside_the_certified_rank(capsys):
    assert main(["loss", "map", "--r", "4"]) == 0
    text = capsys.readouterr().out
    assert "value: 9" in text and "value: 10" in text and "quadratic assignment" in text


def test_pd_over_unit_dags_breaks_the_papers_rank_bound(capsys):
    assert main(["loss", "pd", "--r", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rank"]["value"] == 4 and out["paper_bound"]["value"] == 3 and out["paper_bound"]["holds"] is False


@pytest.mark.parametrize("content, message", [
    ('{"matrix": [[1, 2], [3]]}', "ragged"),
    ('{"matrix": []}', "at least one row"),
    ('{"matrix": [[1, "x"]]}', "matrix[0][1]"),
    ('{"matrix": [[1, 0.5]]}', "float"),
    ('{"matrix": [[1, 2]], "labels": ["a", "b"]}', "one per row"),
    ('not json', "valid JSON"),
])
def test_bad_matrix_files_get_one_line_errors_and_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["loss", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_names_and_options_exit_2(capsys):
    assert main(["loss", "nope"]) == 2
    assert main(["loss", "map", "--r", "1"]) == 2
    assert main(["loss", "map", "--empty", "nan"]) == 2
    assert main(["loss", str(EXAMPLE), "--r", "3"]) == 2
    assert main(["loss"]) == 2
    assert "symcal: error" in capsys.readouterr().err


@pytest.mark.slow
def test_the_rank_table_covers_r_3_to_6_with_the_papers_bounds(capsys):
    assert main(["loss", "--table", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["loss"], r["r"]) for r in rows} >= {("map", 6), ("eru", 6), ("precision", 6), ("pd", 6)}
    assert all(r["certified"] for r in rows)
    assert [r["bound_holds"] for r in rows if r["loss"] == "pd" and r["params"]["labels"] == "unit_dags"] == [False] * 3


# --------------------------------------------------------------------------- issue 13: bounded, sized, strict


def one_error_line(capsys, code, argv):
    assert main(argv) == code
    captured = capsys.readouterr()
    lines = [ln for ln in captured.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in captured.err + captured.out, captured
    return lines[0]


def test_a_named_loss_beyond_the_machine_is_refused_up_front_with_its_size(capsys):
    line = one_error_line(capsys, 2, ["loss", "pd", "--r", "8", "--labels", "total_orders"])
    assert "r=8" in line and "40,320 x 40,320 = 1.6e9 entries; at most 5e7" in line


def test_duplicate_labels_in_a_loss_file_are_an_input_error(tmp_path, capsys):
    p = tmp_path / "dup.json"
    p.write_text(json.dumps({"matrix": [[0, 1], [1, 0]], "labels": ["relevant", "relevant"]}))
    line = one_error_line(capsys, 2, ["loss", str(p)])
    assert "labels[1]" in line and "repeats labels[0]" in line


def test_a_300_by_300_random_matrix_gets_its_certified_rank_within_the_default_limit(tmp_path, capsys):
    pytest.importorskip("flint")
    import numpy as np

    p = tmp_path / "big.json"
    p.write_text(json.dumps({"matrix": np.random.default_rng(1).integers(0, 10, size=(300, 300)).tolist()}))
    assert main(["loss", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rank"]["value"] == 300 and out["rank"]["certified"] and out["affine_dimension"]["value"] == 299


def test_a_rank_that_does_not_finish_gives_up_at_the_timeout_in_one_line(tmp_path, capsys, monkeypatch):
    import time

    import numpy as np

    import symcal.ranking.loss_matrix as lm

    monkeypatch.setattr(lm, "USE_FLINT", False)  # the fallback needs minutes here
    p = tmp_path / "big.json"
    p.write_text(json.dumps({"matrix": np.random.default_rng(1).integers(0, 10, size=(300, 300)).tolist()}))
    t = time.monotonic()
    code = main(["loss", str(p), "--timeout", "1"])
    out = capsys.readouterr()
    assert code == 1 and time.monotonic() - t < 4 * 1 + 6
    assert out.out.strip().startswith("symcal: gave up after 1 s") and out.out.strip().endswith("unknown")
    assert len(out.out.strip().splitlines()) == 1 and "Traceback" not in out.err
    assert main(["loss", str(p), "--timeout", "1", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "unknown"


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "x", "1e9"])
def test_a_bad_loss_timeout_is_a_usage_error(bad, capsys):
    with pytest.raises(SystemExit) as e:
        main(["loss", "map", "--timeout", bad])
    assert e.value.code == 2 and "--timeout" in capsys.readouterr().err


@pytest.mark.slow
def test_a_2000_by_2000_random_matrix_gets_its_certified_rank_within_the_default_limit(tmp_path, capsys):
    pytest.importorskip("flint")
    import time

    import numpy as np

    p = tmp_path / "big.json"
    p.write_text(json.dumps({"matrix": np.random.default_rng(1).integers(0, 10, size=(2000, 2000)).tolist()}))
    t = time.process_time()
    assert main(["loss", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rank"]["value"] == 2000 and out["affine_dimension"]["value"] == 1999
    assert out["rank"]["minor_determinant"].startswith("nonzero")
    assert time.process_time() - t < 60
