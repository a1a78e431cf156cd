"""Loading preference files and the JSON report (Duchi et al. 2010, Sections 1-3)."""

import json
from fractions import Fraction as F

import pytest

from symcal.errors import InvalidInput
from symcal.ranking import PreferenceDistribution, describe_preferences, load_preferences


def write(tmp_path, data, name="prefs.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


FIGURE1 = {
    "m": 3,
    "graphs": [
        {"p": "1/2", "edges": [[1, 2, "1"], [1, 3, 3]]},
        {"p": "1/2", "edges": [[2, 3, "1/4"], [3, 1, "1"]]},
    ],
}


def test_a_graphs_file_loads_as_an_exact_distribution(tmp_path):
    dist = load_preferences(write(tmp_path, FIGURE1))
    assert isinstance(dist, PreferenceDistribution) and dist.m == 3
    assert dist.probabilities == (F(1, 2), F(1, 2))
    assert dist.graphs[1].edges[(2, 3)] == F(1, 4)


def test_a_weights_file_loads_as_expected_weights_on_every_pair(tmp_path):
    a = load_preferences(write(tmp_path, {"m": 3, "weights": [[1, 2, "3/4"], [2, 1, "1/4"]]}))
    assert a[(1, 2)] == F(3, 4) and a[(2, 1)] == F(1, 4) and a[(3, 1)] == 0
    assert len(a) == 6


def test_a_json_float_is_refused_with_the_fraction_to_write_instead(tmp_path):
    path = write(tmp_path, '{"m": 2, "weights": [[1, 2, 0.3]]}')
    with pytest.raises(InvalidInput, match=r'write "3/10"') as err:
        load_preferences(path)
    assert err.value.param == f"{path}: weights[0][2]"
    # its twin with the string "3/10" loads
    assert load_preferences(write(tmp_path, '{"m": 2, "weights": [[1, 2, "3/10"]]}'))[(1, 2)] == F(3, 10)


@pytest.mark.parametrize(
    "text, field",
    [
        ('{"m": 3, "weights": [[1, 4, "1"]]}', "weights[0][1]"),
        ('{"m": 3, "weights": [[1, 1, "1"]]}', "weights[0]"),
        ('{"m": 3, "weights": [[1, 2]]}', "weights[0]"),
        ('{"m": 3, "weights": [[1, 2, "-1"]]}', "weights[0][2]"),
        ('{"m": 3, "weights": [[1, 2, "1"], [1, 2, "2"]]}', "weights[1]"),
        ('{"m": 3, "weights": []}', "weights"),
        ('{"m": 3, "weights": {"1": 2}}', "weights"),
        ('{"m": 0, "weights": [[1, 2, "1"]]}', "m"),
        ('{"m": 2.0, "weights": [[1, 2, "1"]]}', "m"),
        ('{"weights": [[1, 2, "1"]]}', "m"),
        ('{"m": 2}', ""),
        ('{"m": 2, "weights": [[1, 2, "1"]], "graphs": []}', ""),
        ('{"m": 2, "weights": [[1, 2, "1"]], "extra": 1}', "extra"),
        ('{"m": 3, "graphs": []}', "graphs"),
        ('{"m": 3, "graphs": [{"p": "1", "edges": [[1, 2, "1"], [2, 1, "1"]]}]}', "graphs[0].edges"),
        ('{"m": 3, "graphs": [{"p": "1/2", "edges": []}, {"p": "2/5", "edges": []}]}', "graphs[*].p"),
        ('{"m": 3, "graphs": [{"p": 0.5, "edges": []}, {"p": "1/2", "edges": []}]}', "graphs[0].p"),
        ('{"m": 3, "graphs": [{"p": "1", "edge": []}]}', "graphs[0]"),
        ("[1, 2]", ""),
    ],
)
def test_bad_files_are_refused_naming_the_path_and_field(tmp_path, text, field):
    path = write(tmp_path, text)
    with pytest.raises(InvalidInput) as err:
        load_preferences(path)
    assert err.value.param == (f"{path}: {field}" if field else str(path))


def test_the_probability_sum_error_says_what_they_sum_to(tmp_path):
    path = write(tmp_path, '{"m": 2, "graphs": [{"p": "1/2", "edges": []}, {"p": "2/5", "edges": []}]}')
    with pytest.raises(InvalidInput, match=r"they sum to 9/10"):
        load_preferences(path)


def test_missing_files_and_invalid_json_name_the_path(tmp_path):
    with pytest.raises(InvalidInput, match="an existing JSON file") as err:
        load_preferences(tmp_path / "nope.json")
    assert err.value.param == "path"
    with pytest.raises(InvalidInput, match="valid JSON.*line 1") as err:
        load_preferences(write(tmp_path, '{"m": 3,'))
    assert err.value.param == "path"
    with pytest.raises(InvalidInput, match="NaN"):
        load_preferences(write(tmp_path, '{"m": 2, "weights": [[1, 2, NaN]]}'))


def test_describe_reports_figure1_as_low_noise_with_the_linear_minimiser_in_the_optimal_set(tmp_path):
    report = describe_preferences(load_preferences(write(tmp_path, FIGURE1)))
    json.dumps(report)  # JSON-ready
    assert report["m"] == 3
    assert report["difference_graph"] == {
        "edges": [[1, 2, "1/2"], [1, 3, "1"], [2, 3, "1/8"]],
        "is_dag": True,
        "cycle": None,
    }
    assert report["low_noise"]["holds"] and report["low_noise"]["violating_triple"] is None
    assert report["min_conditional_risk"] == {"status": "exact", "value": "1/2", "optimal_order": [1, 2, 3]}
    assert report["linear_surrogate"]["alpha_star"] == ["3/4", "-3/16", "-9/16"]
    assert report["linear_surrogate"]["in_optimal_set"] is True


def test_describe_reports_the_violating_triple_and_a_cycle():
    # Theorem 11's printed weights with a31 close to a13: not low-noise at (1, 2, 3)
    report = describe_preferences({(1, 2): F(1, 2), (1, 3): 1, (3, 1): F(3, 4), (2, 3): F(1, 4)})
    assert report["low_noise"]["violating_triple"] == [1, 2, 3]
    assert report["low_noise"]["lhs"] == "1/4" and report["low_noise"]["rhs"] == "3/4"
    cyclic = describe_preferences({(1, 2): 1, (2, 3): 1, (3, 1): 1})
    assert cyclic["difference_graph"]["is_dag"] is False
    assert cyclic["difference_graph"]["cycle"] == "1 -> 2 -> 3 -> 1"
    assert cyclic["min_conditional_risk"]["value"] == "1"
    # all net scores are 0, so alpha* = 0 ties everything and breaks the strict 1 > 2
    assert cyclic["linear_surrogate"]["in_optimal_set"] is False


# --------------------------------------------------------------------------- issue 13: exact arrays, bounded minimum

import random  # noqa: E402
import time  # noqa: E402

from symcal.ranking import (  # noqa: E402
    difference_cycle,
    difference_graph,
    in_optimal_set,
    is_low_noise,
    min_conditional_risk,
)
from symcal.ranking.preference import SparseWeights  # noqa: E402
from symcal.ranking.surrogates import linear_surrogate_minimiser  # noqa: E402


def test_the_report_agrees_with_the_reference_functions_on_random_instances():
    rng = random.Random(21)
    for _ in range(25):
        m = rng.randint(2, 9)
        a = {(i, j): F(rng.randint(0, 5), rng.randint(1, 3)) for i in range(1, m + 1) for j in range(1, m + 1)
             if i != j and rng.random() < 0.5}
        rep = describe_preferences(a, m)
        low = is_low_noise(a, m)
        best = min_conditional_risk(a, m)
        alpha = linear_surrogate_minimiser(a, 1, m)
        inside = in_optimal_set(a, alpha, m)
        assert rep["low_noise"]["holds"] == low.holds and rep["low_noise"]["reason"] == low.reason
        assert rep["difference_graph"]["edges"] == [[i, j, str(d["weight"])] for i, j, d in
                                                     sorted(difference_graph(a, m).edges(data=True))]
        assert rep["difference_graph"]["is_dag"] == (difference_cycle(a, m) is None)
        assert rep["min_conditional_risk"] == {"status": "exact", "value": str(best.value),
                                               "optimal_order": list(best.order)}
        assert rep["linear_surrogate"]["alpha_star"] == [str(v) for v in alpha]
        assert rep["linear_surrogate"]["in_optimal_set"] == inside.holds
        assert rep["linear_surrogate"]["reason"] == inside.reason


def dense(m, seed=0):
    rng = random.Random(seed)
    return SparseWeights(m, {(i, j): F(rng.randint(0, 9), rng.randint(1, 5)) for i in range(1, m + 1)
                             for j in range(1, m + 1) if i != j and rng.random() < 0.5})


def test_a_300_node_dense_distribution_is_reported_in_seconds_with_an_honest_minimum():
    t = time.process_time()
    rep = describe_preferences(dense(300), time_limit=20)
    assert time.process_time() - t < 20
    assert rep["low_noise"]["holds"] is False and len(rep["low_noise"]["violations"]) == 20
    assert rep["low_noise"]["violation_count"] > 20
    risk = rep["min_conditional_risk"]
    if risk["status"] == "unknown":  # NP-hard: the interval, never a made-up minimum
        assert risk["value"] is None and F(risk["lower_bound"]) <= F(risk["best_value"])
        assert sorted(risk["best_order"]) == list(range(1, 301))
        inside = rep["linear_surrogate"]["in_optimal_set"]
        r = F(rep["linear_surrogate"]["risk_at_alpha_star"])
        assert inside is (None if F(risk["lower_bound"]) < r <= F(risk["best_value"]) else r <= F(risk["lower_bound"]))


def test_a_weights_file_loads_sparsely_and_a_huge_m_is_refused(tmp_path):
    a = load_preferences(write(tmp_path, {"m": 2000, "weights": [[i, i + 1, 1] for i in range(1, 2000)]}))
    assert isinstance(a, SparseWeights) and len(a.nonzero) == 1999 and a[(5, 6)] == 1 and a[(6, 5)] == 0
    rep = describe_preferences(a, time_limit=30)
    assert rep["min_conditional_risk"] == {"status": "exact", "value": "0", "optimal_order": list(range(1, 2001))}
    with pytest.raises(InvalidInput, match="m=1000000000.*1e18 entries"):
        load_preferences(write(tmp_path, {"m": 10**9, "weights": [[1, 2, 1]]}))
