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
    assert report["min_conditional_risk"] == {"value": "1/2", "optimal_order": [1, 2, 3]}
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
