"""``symcal costs``: a user's cost table (JSON or CSV) gets the Theorem 3 verdict with every
violating (j, i) and its residual, the normalised form and f_0^*; bad input exits 2 with one line."""

import json
from pathlib import Path

import pytest

from symcal.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args):
    code = main(["costs", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_example_json_fails_at_pair_2_3_with_residual_1(capsys):
    code, out, _ = run(capsys, str(ROOT / "examples" / "costs.json"), "--json")
    rep = json.loads(out)
    assert code == 0 and rep["verdict"] == "fails" and rep["holds"] is False
    assert rep["violations"] == [{"j": 2, "i": 3, "lhs": "4", "rhs": "3", "residual": "1"}]
    assert rep["f0_star"] == "(p_2 + 2*p_3 + 4*p_4)/(4*p_1 + 2*p_2 + p_3)" and rep["f0_star_valid"] is False


def test_the_example_csv_of_rounded_table2_fails_by_tiny_rounding_residuals(capsys):
    code, out, _ = run(capsys, str(ROOT / "examples" / "costs.csv"), "--json")
    rep = json.loads(out)
    assert code == 0 and rep["K"] == 5 and rep["holds"] is False
    assert [(v["j"], v["i"]) for v in rep["violations"]] == [(2, 3), (2, 4), (3, 4)]
    assert rep["violations"][0]["residual"] == "-71/100000"


def test_a_linear_table_holds_and_prints_f0(tmp_path, capsys):
    f = tmp_path / "lin.csv"
    f.write_text(",1,2,3\n,,1,2\n,,,1\n,,,\n")
    code, out, _ = run(capsys, str(f))
    assert code == 0 and "HOLDS" in out and "f_0^* = (p_2 + 2*p_3 + 3*p_4)/(3*p_1 + 2*p_2 + p_3)" in out
    assert "NOT guaranteed" not in out


def test_posteriors_rank_the_points_and_check_optimality_exhaustively(tmp_path, capsys):
    post = tmp_path / "post.json"
    post.write_text(json.dumps({"marginal": ["1/2", "1/2"], "posteriors": [[0, 1, 0, 0], [0, 0, 1, 0]]}))
    code, out, _ = run(capsys, "zero_one", "--K", "4", "--posteriors", str(post), "--json")
    rank = json.loads(out)["ranking"]
    assert code == 0 and rank["f0_star optimal"] is False and rank["min risk over all weak orders"] == "0"
    code, out, _ = run(capsys, "linear", "--K", "4", "--posteriors", str(post), "--json")
    assert json.loads(out)["ranking"]["f0_star optimal"] is True


def test_a_k_sweep_reports_for_which_k_the_scheme_holds(capsys):
    code, out, _ = run(capsys, "zero_one", "--K-sweep", "2..6", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["holds_for"] == [2, 3] and rep["fails_for"] == [4, 5, 6]
    code, out, _ = run(capsys, "dcg", "--K-sweep", "2..9", "--json")
    assert json.loads(out)["holds_for"] == list(range(2, 10))


@pytest.mark.parametrize(
    "content,suffix,needle",
    [
        (",1,-2\n,,1\n,,\n", ".csv", "c_13"),  # negative cost
        (",1,2\n,,1\n", ".csv", "row 1"),  # not square
        ("1\n", ".csv", "K >= 2"),  # K < 2
        (",1,x\n,,1\n,,\n", ".csv", "not 'x'"),  # non-numeric
        (",1,nan\n,,1\n,,\n", ".csv", "finite"),  # NaN
        (",1,2\n3,,1\n,,\n", ".csv", "below the diagonal"),
        ('{"costs": [[null, 0.5], [null, null]]}', ".json", "not a JSON float"),
        ('{"costs": [[null, "1"], [null, null]], "extra": 1}', ".json", "extra"),
        ("{not json", ".json", "valid JSON"),
    ],
)
def test_bad_tables_exit_2_with_one_line_naming_the_problem(tmp_path, capsys, content, suffix, needle):
    f = tmp_path / f"bad{suffix}"
    f.write_text(content)
    code, out, err = run(capsys, str(f))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err, err


def test_a_missing_file_a_named_scheme_without_k_and_a_bad_sweep_are_usage_errors(capsys):
    assert run(capsys, "no/such/file.json")[0] == 2
    code, _, err = run(capsys, "linear")
    assert code == 2 and "--K" in err
    with pytest.raises(SystemExit) as e:
        main(["costs", "linear", "--K-sweep", "5..2"])
    assert e.value.code == 2
    capsys.readouterr()
    code, _, err = run(capsys, "examples/costs.json", "--K-sweep", "2..4")
    assert code == 2 and "scheme name" in err


def test_posteriors_that_do_not_sum_to_one_are_refused(tmp_path, capsys):
    post = tmp_path / "post.json"
    post.write_text(json.dumps({"marginal": ["1/2", "1/3"], "posteriors": [[1, 0, 0], [0, 0, 1]]}))
    code, _, err = run(capsys, "linear", "--K", "3", "--posteriors", str(post))
    assert code == 2 and "summing to 1" in err
