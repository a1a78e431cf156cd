"""Preference graphs, distributions and expected weights (Duchi et al. 2010, Sections 1-2)."""

from fractions import Fraction as F

import networkx as nx
import pytest

from symcal.errors import InvalidInput
from symcal.ranking import (
    PreferenceDistribution,
    PreferenceGraph,
    as_weights,
    expected_weights,
    single_edge_distribution,
    unit_weights,
)


def figure1():
    g1 = PreferenceGraph(3, {(1, 2): 1, (1, 3): 3})
    g2 = PreferenceGraph(3, {(2, 3): "1/4", (3, 1): 1})
    return PreferenceDistribution([(g1, F(1, 2)), (g2, "1/2")])


def test_expected_weights_average_each_edge_over_graphs_and_fill_absent_pairs_with_zero():
    a = expected_weights(figure1())
    assert a == {
        (1, 2): F(1, 2),
        (1, 3): F(3, 2),
        (2, 3): F(1, 8),
        (3, 1): F(1, 2),
        (2, 1): 0,
        (3, 2): 0,
    }
    assert all(isinstance(v, F) for v in a.values())


def test_expected_weights_change_when_a_probability_moves():
    g1 = PreferenceGraph(3, {(1, 2): 1})
    g2 = PreferenceGraph(3, {(2, 1): 1})
    a = expected_weights(PreferenceDistribution([(g1, F(3, 4)), (g2, F(1, 4))]))
    assert (a[(1, 2)], a[(2, 1)]) == (F(3, 4), F(1, 4))
    b = expected_weights(PreferenceDistribution([(g1, F(1, 4)), (g2, F(3, 4))]))
    assert (b[(1, 2)], b[(2, 1)]) == (F(1, 4), F(3, 4))


def test_preference_graph_exports_to_networkx_with_exact_weights():
    g = PreferenceGraph(4, {(1, 2): "1/3", (2, 4): 0})
    nxg = g.to_networkx()
    assert sorted(nxg.nodes) == [1, 2, 3, 4]
    assert nxg[1][2]["weight"] == F(1, 3) and nxg[2][4]["weight"] == 0
    assert nx.is_directed_acyclic_graph(nxg)


def test_a_cyclic_graph_is_refused_and_the_cycle_is_named():
    with pytest.raises(InvalidInput, match=r"cycle 1 -> 2 -> 3 -> 1") as err:
        PreferenceGraph(3, {(1, 2): 1, (2, 3): 1, (3, 1): 1})
    assert err.value.param == "edges"
    # its acyclic twin (one edge reversed) is accepted
    PreferenceGraph(3, {(1, 2): 1, (2, 3): 1, (1, 3): 1})


def test_two_opposite_edges_are_a_cycle():
    with pytest.raises(InvalidInput, match="cycle"):
        PreferenceGraph(2, {(1, 2): 1, (2, 1): 1})


def test_negative_weight_is_refused_naming_the_edge():
    with pytest.raises(InvalidInput, match=r"weight a\[2,1\]='-1/2': expected a weight >= 0"):
        PreferenceGraph(2, {(2, 1): F(-1, 2)})


def test_float_weight_is_refused_with_the_exact_fix():
    with pytest.raises(InvalidInput, match=r"Fraction\(3, 10\)") as err:
        PreferenceGraph(2, {(1, 2): 0.3})
    assert err.value.param == "weight a[1,2]"


@pytest.mark.parametrize(
    "m, edges, param",
    [
        (0, {}, "m"),
        (True, {}, "m"),
        (2, {(1, 3): 1}, "edges"),
        (2, {(1, 1): 1}, "edges"),
        (2, {(0, 1): 1}, "edges"),
        (2, [(1, 2)], "edges"),
        (2, {1: 1}, "edges"),
    ],
)
def test_bad_graph_inputs_name_the_parameter(m, edges, param):
    with pytest.raises(InvalidInput) as err:
        PreferenceGraph(m, edges)
    assert err.value.param == param


def test_probabilities_must_sum_exactly_to_one_and_the_message_says_the_sum():
    g = PreferenceGraph(2, {(1, 2): 1})
    with pytest.raises(InvalidInput, match=r"expected probabilities summing to 1 \(they sum to 9/10\)"):
        PreferenceDistribution([(g, "1/2"), (g, "2/5")])
    assert len(PreferenceDistribution([(g, "1/2"), (g, "1/2")])) == 2


def test_bad_distributions_are_refused():
    g2 = PreferenceGraph(2, {(1, 2): 1})
    g3 = PreferenceGraph(3, {(1, 2): 1})
    with pytest.raises(InvalidInput, match="at least one"):
        PreferenceDistribution([])
    with pytest.raises(InvalidInput, match=r"probabilities\[1\]") as err:
        PreferenceDistribution([(g2, F(3, 2)), (g2, F(-1, 2))])
    assert err.value.param == "probabilities[1]"
    with pytest.raises(InvalidInput) as err:
        PreferenceDistribution([(g2, F(1, 2)), (g3, F(1, 2))])
    assert err.value.param == "graphs_with_probs[1].m"
    with pytest.raises(InvalidInput, match="float"):
        PreferenceDistribution([(g2, 1.0)])
    with pytest.raises(InvalidInput, match="PreferenceGraph"):
        PreferenceDistribution([({(1, 2): 1}, 1)])


def test_as_weights_accepts_distributions_graphs_and_plain_mappings_alike():
    dist = figure1()
    m, a = as_weights(dist)
    assert m == 3
    assert as_weights(dict(a)) == (3, a)
    m1, g = as_weights(PreferenceGraph(3, {(1, 2): 2}))
    assert m1 == 3 and g[(1, 2)] == 2 and g[(2, 1)] == 0
    # m is inferred from the largest node named, or given for trailing empty nodes
    assert as_weights({(1, 2): 1})[0] == 2
    assert as_weights({(1, 2): 1}, m=4)[0] == 4
    assert len(as_weights({(1, 2): 1}, m=4)[1]) == 12


@pytest.mark.parametrize(
    "obj, m, param",
    [
        ({}, None, "weights"),
        ({(1, 2): -1}, None, "weight a[1,2]"),
        ({(1, 2): 0.5}, None, "weight a[1,2]"),
        ({(1, 5): 1}, 3, "weights"),
        ({(2, 2): 1}, None, "weights"),
        ([1, 2], None, "weights"),
        ({(1, 2): 1}, 0, "m"),
    ],
)
def test_as_weights_refuses_bad_input_naming_the_parameter(obj, m, param):
    with pytest.raises(InvalidInput) as err:
        as_weights(obj, m)
    assert err.value.param == param


def test_as_weights_refuses_an_m_that_contradicts_the_distribution():
    with pytest.raises(InvalidInput, match="m=3"):
        as_weights(figure1(), m=4)


def test_lemma7_single_edge_construction_gives_the_unit_indicator_weights():
    edges = [(1, 2), (2, 3), (3, 1), (3, 4)]
    dist = single_edge_distribution(4, edges)
    assert len(dist) == 4 and set(dist.probabilities) == {F(1, 4)}
    assert all(w == 4 for g in dist.graphs for w in g.edges.values())
    assert expected_weights(dist) == unit_weights(4, edges)
    # twin: dropping an edge changes the indicator
    assert expected_weights(dist) != unit_weights(4, edges[:-1])
    with pytest.raises(InvalidInput):
        single_edge_distribution(4, [])


# --------------------------------------------------------------------------- issue 13: sparse weights, sizes

import pickle  # noqa: E402

import numpy as np  # noqa: E402

from symcal.ranking.preference import MAX_M, SparseWeights, check_m, sparse_weights, weight_matrix  # noqa: E402


def test_sparse_weights_read_exactly_like_the_dense_mapping_of_as_weights():
    dense = as_weights({(1, 2): "1/2", (3, 1): 2}, m=4)[1]
    sw = SparseWeights(4, {(1, 2): "1/2", (3, 1): 2, (2, 3): 0})
    assert len(sw) == len(dense) == 12 and list(sw) == list(dense) and sw == dense
    assert dict(sw.nonzero) == {(1, 2): F(1, 2), (3, 1): F(2)} and sw[(2, 1)] == 0
    assert as_weights(sw) == (4, sw) and pickle.loads(pickle.dumps(sw)) == sw
    for missing in [(1, 1), (0, 2), (1, 5), "12", (1.5, 2)]:
        with pytest.raises(KeyError):
            sw[missing]
    with pytest.raises(InvalidInput, match="m"):
        as_weights(sw, m=5)
    assert sparse_weights(figure1()) == as_weights(figure1())[1]


def test_sparse_weights_refuse_what_as_weights_refuses():
    for bad, param in [({(1, 1): 1}, "weights"), ({(1, 2): -1}, "a[1,2]"), ({(1, 2): 0.5}, "a[1,2]"),
                       ({(1, 9): 1}, "weights"), ([(1, 2)], "weights")]:
        with pytest.raises(InvalidInput, match=param.replace("[", r"\[")):
            SparseWeights(3, bad)


@pytest.mark.parametrize("build", [
    lambda m: check_m(m),
    lambda m: PreferenceGraph(m, {}),
    lambda m: as_weights({(1, 2): 1}, m=m),
    lambda m: SparseWeights(m, {}),
])
def test_a_number_of_results_beyond_the_machine_is_refused_up_front_with_the_sizes(build):
    for m in (MAX_M + 1, 10**9, 10**40):
        with pytest.raises(InvalidInput) as err:
            build(m)
        assert err.value.param == "m" and "at most 2.5e7" in str(err.value) and "entries" in str(err.value)
    build(3)  # the twin: a small m is fine


def test_the_weight_matrix_is_exact_over_the_common_denominator_and_python_ints_when_huge():
    w, scale = weight_matrix({(1, 2): F(1, 2), (2, 3): F(1, 3)}, 3)
    assert scale == 6 and w.dtype == np.int64 and w[0, 1] == 3 and w[1, 2] == 2 and w.sum() == 5
    w, scale = weight_matrix({(1, 2): 10**30, (2, 1): 1}, 2)
    assert w.dtype == object and w[0, 1] == 10**30 and scale == 1
