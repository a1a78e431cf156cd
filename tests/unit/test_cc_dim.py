"""Brackets on the convex calibration dimension (Ramaswamy & Agarwal 2012/2016), each end certified."""

import json
from fractions import Fraction

import pytest

from symcal.calibration import cc_dimension, check_calibration
from symcal.calibration.dimension import check_lower_certificate, known_surrogates, multiclass_loss, rank_surrogate
from symcal.cli import main
from symcal.errors import InvalidInput

ORDINAL_SQUARED_4 = [[0, 1, 4, 9], [1, 0, 1, 4], [4, 1, 0, 1], [9, 4, 1, 0]]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_n_class_zero_one_loss_has_dimension_exactly_n_minus_1(n):
    cc = cc_dimension(multiclass_loss("zero-one", n), cpu_seconds=20)
    assert (cc.lower, cc.upper, cc.exact) == (n - 1, n - 1, True)
    assert cc.evidence["lower"]["p"] == [f"1/{n}"] * n  # every class tied at the uniform distribution


def test_a_matrix_of_smaller_dimension_gets_a_smaller_exact_value():
    cc = cc_dimension(ORDINAL_SQUARED_4, cpu_seconds=20)  # (y - t)^2 = y^2 - 2yt + t^2: rank D = 1
    assert (cc.lower, cc.upper, cc.exact) == (1, 1, True)
    hamming = cc_dimension(multiclass_loss("hamming", 3), cpu_seconds=20)
    assert (hamming.lower, hamming.upper, hamming.labels) == (3, 3, 8)


def test_a_loss_whose_ends_do_not_meet_is_reported_as_a_bracket_not_exact():
    cc = cc_dimension(multiclass_loss("abstain", 4), cpu_seconds=20)
    assert (cc.lower, cc.upper, cc.exact) == (1, 3, False)
    assert cc.to_json()["exact"] is False
    assert "every extension" in cc.evidence["search"]["stopped"]


def test_the_evidence_point_is_rechecked_exactly_from_its_own_values():
    mat = multiclass_loss("ordinal-abs", 5)
    cc = cc_dimension(mat, cpu_seconds=20, surrogates=[])
    low = cc.evidence["lower"]
    chk = check_lower_certificate(mat, low["p"], low["t"], cc.lower)
    assert chk.holds and chk.witness["rank"] == cc.lower + 1 and set(chk.witness["tied"]) == set(low["tied"])


def test_a_tampered_evidence_point_is_rejected_by_the_checker():
    mat = multiclass_loss("zero-one", 3)
    assert check_lower_certificate(mat, ["1/3", "1/3", "1/3"], 1, 2).holds
    on_the_boundary = check_lower_certificate(mat, ["1/2", "1/2", "0"], 1, 1)
    assert not on_the_boundary.holds and "relative interior" in on_the_boundary.reason
    not_optimal = check_lower_certificate(mat, ["1/2", "1/4", "1/4"], 2)
    assert not not_optimal.holds and "not in Q_2" in not_optimal.reason
    overclaimed = check_lower_certificate(mat, ["1/2", "1/4", "1/4"], 1, 1)
    assert not overclaimed.holds and "CCdim >= 0" in overclaimed.reason
    assert not check_lower_certificate(mat, ["1/2", "1/4", "1/3"], 1).holds  # not a distribution


def test_the_upper_ends_surrogate_is_proved_calibrated_by_the_engine_and_a_wrong_offset_is_not():
    mat = multiclass_loss("abstain", 3)
    d, surrogate, link = rank_surrogate(mat)
    assert d == 2
    assert check_calibration(mat, surrogate, link, timeout=60).status.value == "proved"
    wrong = {"linear": link["linear"], "offset": ["0"] * len(link["offset"])}  # drop the prediction-only term b
    assert check_calibration(mat, surrogate, wrong, timeout=60).status.value == "refuted"


def test_a_known_one_dimensional_surrogate_proved_by_the_engine_closes_the_ordinal_absolute_bracket():
    cc = cc_dimension({"name": "ordinal-abs", "n": 3}, cpu_seconds=60)
    assert (cc.lower, cc.upper, cc.exact) == (1, 1, True)
    assert "proved calibrated" in cc.evidence["upper"]["by"]
    without = cc_dimension(multiclass_loss("ordinal-abs", 3), cpu_seconds=20)  # no candidate: an honest bracket
    assert (without.lower, without.upper) == (1, 2)


def test_the_binary_encoded_surrogate_proved_by_the_engine_brings_the_abstain_upper_end_to_log2_n():
    cc = cc_dimension({"name": "abstain", "n": 4}, cpu_seconds=120)
    assert (cc.lower, cc.upper, cc.exact) == (1, 2, False)
    assert "binary-encoded" in cc.evidence["upper"]["by"]


def test_the_same_surrogate_does_not_lower_the_upper_end_of_a_costlier_abstain_loss():
    rows = [[int(t != y) for t in range(4)] + [Fraction(3, 5)] for y in range(4)]  # abstaining costs 3/5, not 1/2
    cc = cc_dimension(rows, cpu_seconds=120, surrogates=known_surrogates("abstain", 4))
    assert cc.upper == 3 and cc.evidence["upper"]["candidates_tried"][0]["status"] != "proved"
    assert cc.lower == 2


def test_a_search_cut_short_still_gives_a_valid_bracket_and_says_so():
    cc = cc_dimension(multiclass_loss("ordinal-abs", 5), cpu_seconds=20, max_queries=0)
    assert cc.lower == 1 and cc.upper == 4 and not cc.exact
    assert "cut short" in cc.evidence["search"]["stopped"] and any("cut short" in x for x in cc.evidence["notes"])


def test_a_loss_with_an_everywhere_optimal_prediction_has_dimension_zero():
    cc = cc_dimension([[0, 1], [0, 2]], cpu_seconds=5)
    assert (cc.lower, cc.upper, cc.exact) == (0, 0, True)
    assert (cc_dimension([[0, 1], [1, 0]], cpu_seconds=5).lower) == 1  # its twin: no column dominates


@pytest.mark.parametrize("bad, param", [
    ([[0, 1], [1]], "matrix[1]"),
    ([], "matrix"),
    ([[0, "x"], [1, 0]], "matrix[0][1]"),
    ([[0, 0.5], [1, 0]], "matrix[0][1]"),
    ("no-such-file.json", "file"),
])
def test_bad_matrices_are_refused_with_a_one_line_error(bad, param):
    with pytest.raises(InvalidInput) as e:
        cc_dimension(bad)
    assert str(e.value).startswith(param) and "\n" not in str(e.value)


@pytest.mark.parametrize("kwargs", [{"cpu_seconds": 0}, {"cpu_seconds": float("nan")}, {"max_queries": -1},
                                    {"confirm": "yes"}, {"surrogates": [{"name": "x"}]}])
def test_bad_options_are_refused(kwargs):
    with pytest.raises(InvalidInput):
        cc_dimension(multiclass_loss("ordinal-abs", 4), **kwargs)


def test_the_cli_gives_n_minus_1_for_the_zero_one_loss(capsys):
    assert main(["loss", "zero-one", "--n", "4", "--cc-dim", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cc_dimension"]["lower"] == out["cc_dimension"]["upper"] == 3 and out["cc_dimension"]["exact"]


def test_the_cli_brackets_a_named_ranking_loss_and_a_file(capsys, tmp_path):
    assert main(["loss", "precision", "--r", "3", "--q", "2", "--cc-dim", "--json"]) == 0
    cc = json.loads(capsys.readouterr().out)["cc_dimension"]
    assert cc["lower"] <= cc["upper"] <= 3
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"matrix": ORDINAL_SQUARED_4}))
    assert main(["loss", str(f), "--cc-dim", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cc_dimension"]["upper"] == 1


@pytest.mark.parametrize("argv, message", [
    (["loss", "FILE", "--cc-dim"], "float"),
    (["loss", "zero-one", "--n", "1", "--cc-dim"], "n=1"),
    (["loss", "map", "--n", "3", "--cc-dim"], "--n/--k"),
    (["loss", "--table", "--cc-dim"], "--cc-dim"),
])
def test_bad_cli_input_is_one_line_and_exit_2(argv, message, capsys, tmp_path):
    f = tmp_path / "float.json"
    f.write_text('{"matrix": [[0, 0.5], [1, 0]]}')
    argv = [str(f) if a == "FILE" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_the_lower_end_is_never_above_the_upper_end_on_small_random_matrices():
    import random

    rng = random.Random(7)
    for _ in range(12):
        n, k = rng.randint(2, 4), rng.randint(2, 4)
        rows = [[Fraction(rng.randint(0, 4), rng.randint(1, 2)) for _ in range(k)] for _ in range(n)]
        cc = cc_dimension(rows, cpu_seconds=10)
        assert 0 <= cc.lower <= cc.upper <= n - 1
        if "p" in cc.evidence["lower"]:
            low = cc.evidence["lower"]
            assert check_lower_certificate(rows, low["p"], low["t"], cc.lower).holds


def test_a_tight_timeout_gives_a_valid_bracket_or_unknown_never_a_wrong_one(capsys):
    code = main(["loss", "ordinal-abs", "--n", "8", "--cc-dim", "--timeout", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    if "status" in out:
        assert code == 1 and out["status"] == "unknown"
    else:  # the true value is 1 (the |u - y| surrogate); a cut-short run may only widen the bracket
        assert out["cc_dimension"]["lower"] <= 1 <= out["cc_dimension"]["upper"]
