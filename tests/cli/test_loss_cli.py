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
