"""``symcal costs``: a user's cost table (JSON or CSV) gets the Theorem 3 verdict with every
violating (j, i) and its residual, the normalised form and f_0^*; bad input exits 2 with one line."""

import json
import time
from pathlib import Path

import pytest

from symcal.cli import main
from tests.common.timing import within

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args):
    code = main(["costs", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_example_json_fails_at_pair_2_3_with_residual_1(capsys):
    code, out, _ = run(capsys, str(ROOT / "examples" / "costs.json"), "--json")
    rep = json.loads(out)
    assert code == 0 and rep["verdict"] == "fails" and rep["holds"] is False
    assert rep["status"] == "refuted"
    assert rep["violations"] == [
        {"j": 2, "i": 3, "lhs": "4", "rhs": "3", "residual": "1", "shown_by": "exact rational arithmetic"}
    ]
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


# ---------------------------------------------------------------------------------------
# Issue 11 (items 5, 6): the reported cases, each answered correctly and within a time bound
# ---------------------------------------------------------------------------------------

BIG_TABLE = [
    [None, "10^200*sqrt(3 + 2*sqrt(2))", "2*10^200*(1 + sqrt(2))", "3*10^200*(1 + sqrt(2))"],
    [None, None, "10^200*sqrt(3 + 2*sqrt(2)) + 1", "2*10^200*(1 + sqrt(2))"],
    [None, None, None, "10^200*(1 + sqrt(2))"],
    [None, None, None, None],
]


def table_file(tmp_path, rows, name="t.json"):
    f = tmp_path / name
    f.write_text(json.dumps({"costs": rows}))
    return str(f)


def log_rows(K, bump=None):
    rows = [[None] * K for _ in range(K)]
    for j in range(1, K + 1):
        for i in range(j + 1, K + 1):
            rows[j - 1][i - 1] = f"log({i}/{j})" + (f" + {bump[1]}" if bump and bump[0] == (j, i) else "")
    return rows


def timed(capsys, seconds, *args):
    t = time.monotonic()
    code, out, err = run(capsys, *args)
    assert time.monotonic() - t < within(seconds), f"symcal costs {args} took {time.monotonic() - t:.1f} s"
    return code, out, err


def test_the_10e200_radical_table_fails_at_2_3_within_90_s_and_exits_0(tmp_path, capsys):
    code, out, _ = timed(capsys, 90, table_file(tmp_path, BIG_TABLE), "--json")
    rep = json.loads(out)
    assert code == 0 and rep["verdict"] == "fails" and rep["status"] == "refuted"
    assert (rep["violations"][0]["j"], rep["violations"][0]["i"]) == (2, 3)
    twin = [row[:] for row in BIG_TABLE]
    twin[1][2] = "10^200*sqrt(3 + 2*sqrt(2))"
    code, out, _ = timed(capsys, 90, table_file(tmp_path, twin, "twin.json"), "--json")
    assert code == 0 and json.loads(out)["verdict"] == "holds"


def test_the_k4_log_scheme_with_1e_minus_100_fails_within_90_s_and_the_plain_one_holds(tmp_path, capsys):
    code, out, _ = timed(capsys, 90, table_file(tmp_path, log_rows(4, ((2, 3), "10^-100"))))
    assert code == 0 and "FAILS (refuted)" in out and "violated at (j, i) = (2, 3)" in out
    code, out, _ = timed(capsys, 90, table_file(tmp_path, log_rows(6, ((2, 3), "10^-120")), "k6.json"), "--json")
    assert code == 0 and json.loads(out)["holds"] is False
    code, out, _ = timed(capsys, 90, table_file(tmp_path, log_rows(4), "plain.json"))
    assert code == 0 and "HOLDS (proved)" in out


def test_a_cost_100_log_3_2_plus_1_gives_a_verdict_not_an_internal_error(tmp_path, capsys):
    x = "100*log(3/2) + 1"
    rows = [[None, "1", "2", x], [None, None, x, "2"], [None, None, None, x], [None] * 4]
    code, out, err = timed(capsys, 90, table_file(tmp_path, rows))
    assert code == 0 and err == "" and "FAILS" in out and "relative scale" in out


def test_a_cost_of_minus_1e_minus_150_exits_2_with_one_line_and_its_positive_twin_is_checked(tmp_path, capsys):
    for cost in ("-10^-150", "exp(-10^-150) - 1"):
        code, out, err = timed(capsys, 30, table_file(tmp_path, [[None, cost], [None, None]]))
        assert code == 2 and out == "" and err.count("\n") == 1 and "non-negative" in err, err
    code, out, _ = timed(capsys, 30, table_file(tmp_path, [[None, "1 - exp(-10^-150)"], [None, None]]))
    assert code == 0 and "HOLDS" in out


HIDDEN = "3*log(1 + sqrt(2)) - log(7 + 5*sqrt(2))"  # = 0 ((1 + sqrt 2)^3 = 7 + 5 sqrt 2); no formal step shows it


def test_a_small_timeout_stops_the_check_within_seconds_and_exits_1(tmp_path, capsys):
    K = 12
    rows = [[None] * K for _ in range(K)]
    for j in range(1, K + 1):
        for i in range(j + 1, K + 1):
            rows[j - 1][i - 1] = f"{i - j} + {HIDDEN}"
    code, out, _ = timed(capsys, 20, table_file(tmp_path, rows), "--timeout", "2", "--json")
    rep = json.loads(out)
    assert code == 1 and rep["verdict"] == "undecided" and rep["status"] == "unknown"
    assert "gave up after 2 s" in rep["reason"]
    code, out, _ = timed(capsys, 20, "linear", "--K", "12", "--timeout", "2")
    assert code == 0 and "HOLDS" in out


def test_an_undecided_table_exits_1_and_says_why(tmp_path, capsys):
    rows = [[None, f"1 + {HIDDEN}", "2", "3"], [None, None, "1", "2"], [None, None, None, "1"], [None] * 4]
    code, out, _ = timed(capsys, 60, table_file(tmp_path, rows))
    assert code == 1 and "UNDECIDED (unknown)" in out and "undecided at (j, i) = (2, 3)" in out


def test_bad_timeouts_are_usage_errors(capsys):
    for bad in ("0", "-3", "soon", "inf"):
        with pytest.raises(SystemExit) as e:
            main(["costs", "linear", "--K", "4", "--timeout", bad])
        assert e.value.code == 2
    capsys.readouterr()


def test_a_formula_sweep_is_proved_for_all_k_by_an_identity_and_a_non_identity_fails_from_k4(capsys):
    code, out, _ = timed(capsys, 60, "log(i/j)", "--K-sweep", "2..12", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["all_K"].startswith("holds for all K >= 2") and rep["holds_for"] == list(range(2, 13))
    code, out, _ = timed(capsys, 60, "(i-j)*(i+j)", "--K-sweep", "2..6")
    assert code == 0 and "holds for all K >= 2" in out
    code, out, _ = timed(capsys, 60, "i*j", "--K-sweep", "2..6", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["all_K"] is None and rep["holds_for"] == [2, 3] and rep["fails_for"] == [4, 5, 6]


def test_a_formula_with_k_is_one_scheme_and_a_bad_formula_is_a_usage_error(capsys):
    code, out, _ = timed(capsys, 60, "log(i/j)", "--K", "5")
    assert code == 0 and "HOLDS" in out
    code, _, err = run(capsys, "log(k/j)", "--K-sweep", "2..4")
    assert code == 2 and "formula in i and j" in err
    code, _, err = run(capsys, "j - i", "--K", "3")
    assert code == 2 and "non-negative" in err and err.count("\n") == 1
