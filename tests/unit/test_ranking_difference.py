"""The difference graph (Fig. 1) and the low-noise condition (Definition 8)."""

from fractions import Fraction as F

import networkx as nx
import pytest

from symcal.errors import InvalidInput
from symcal.ranking import (
    PreferenceDistribution,
    PreferenceGraph,
    difference_cycle,
    difference_graph,
    is_low_noise,
)


def figure1(a12=F(1), a13=F(3), a23=F(1, 4), a31=F(1)):
    """Figure 1: G1 = {1->2, 1->3}, G2 = {2->3, 3->1}, each with probability 1/2."""
    g1 = PreferenceGraph(3, {(1, 2): a12, (1, 3): a13})
    g2 = PreferenceGraph(3, {(2, 3): a23, (3, 1): a31})
    return PreferenceDistribution([(g1, F(1, 2)), (g2, F(1, 2))])


def test_difference_graph_keeps_the_heavier_direction_with_the_exact_difference():
    g = difference_graph({(1, 2): F(3, 4), (2, 1): F(1, 4), (2, 3): 1, (3, 2): 1})
    assert sorted(g.edges) == [(1, 2)]
    assert g[1][2]["weight"] == F(1, 2)
    assert sorted(g.nodes) == [1, 2, 3]


def test_figure1_difference_graph_is_the_transitive_tournament_when_a13_exceeds_a31():
    g = difference_graph(figure1())
    assert sorted(g.edges) == [(1, 2), (1, 3), (2, 3)]
    assert g[1][3]["weight"] == F(1)  # (3 - 1) / 2
    assert difference_cycle(figure1()) is None
    # twin: a31 > a13 reverses 1 -> 3 into 3 -> 1 and closes the cycle 1 -> 2 -> 3 -> 1
    h = difference_graph(figure1(a31=F(4)))
    assert (3, 1) in h.edges and not nx.is_directed_acyclic_graph(h)
    assert difference_cycle(figure1(a31=F(4))) == [1, 2, 3]


def test_figure1_is_low_noise_when_a13_minus_a31_covers_a12_plus_a23():
    # expected a13 - a31 = (3 - 1)/2 = 1 >= a12 + a23 = 1/2 + 1/8
    result = is_low_noise(figure1())
    assert result and result.holds and result.violations == ()


def test_figure1_at_equality_is_low_noise_and_nudging_a13_down_breaks_it_at_1_2_3():
    # a13 - a31 = a12 + a23 exactly: a13^G1 = 1 + 1 + 1/4 ... expected 9/8 - 1/2 = 5/8 = 1/2 + 1/8
    at_equality = figure1(a13=F(9, 4))
    assert is_low_noise(at_equality).holds
    nudged = figure1(a13=F(9, 4) - F(1, 50))  # expected a13 down by 1/100
    result = is_low_noise(nudged)
    assert not result
    assert result.witness["triple"] == (1, 2, 3)
    assert result.witness["lhs"] == F(5, 8) - F(1, 100)
    assert result.witness["rhs"] == F(5, 8)
    assert result.violations == ((1, 2, 3),)
    assert "(1, 2, 3)" in result.reason


def test_low_noise_fails_when_the_shortcut_edge_is_missing_as_printed_in_definition8():
    # 1 -> 2 -> 3 in the difference graph, a13 = a31: i -> k is no edge, weight 0 < path weight
    a = {(1, 2): 1, (2, 3): 1, (1, 3): 1, (3, 1): 1}
    result = is_low_noise(a)
    assert not result and result.witness["triple"] == (1, 2, 3)
    assert result.witness["a_ik - a_ki"] == 0


def test_the_first_violation_is_lexicographic_and_all_are_listed():
    # a 4-node chain 1 -> 2 -> 3 -> 4 with no shortcuts: violations at (1,2,3) and (2,3,4)
    a = {(1, 2): 1, (2, 3): 1, (3, 4): 1}
    result = is_low_noise(a)
    assert result.witness["triple"] == (1, 2, 3)
    assert result.violations == ((1, 2, 3), (2, 3, 4))
    # its twin with the shortcuts weighted as the paths is low-noise
    a.update({(1, 3): 2, (2, 4): 2, (1, 4): 3})
    assert is_low_noise(a)


def test_cossock_zhang_scores_are_low_noise_and_a_cyclic_difference_graph_is_not():
    # Section 3.1: a_ij = y_i - y_j for y_i > y_j makes a_ik = a_ij + a_jk
    y = {1: 5, 2: 3, 3: 2, 4: 0}
    a = {(i, j): y[i] - y[j] for i in y for j in y if y[i] > y[j]}
    assert is_low_noise(a)
    cyclic = {(1, 2): 1, (2, 3): 1, (3, 1): 1}
    assert not is_low_noise(cyclic)


def test_no_two_edge_path_holds_vacuously_and_says_so():
    result = is_low_noise({(1, 2): 1, (1, 3): 1})
    assert result and "vacuously" in result.reason


def test_difference_functions_refuse_bad_weights():
    with pytest.raises(InvalidInput) as err:
        is_low_noise({(1, 2): -1})
    assert err.value.param == "weight a[1,2]"
    with pytest.raises(InvalidInput):
        difference_graph({})
