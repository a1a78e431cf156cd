"""The pairwise loss (7), its risk (8), A(p) (5), Lemma 7 and Lemma 16."""

import itertools
import random
from fractions import Fraction as F

import pytest

from symcal.errors import InvalidInput
from symcal.ranking import (
    OrderConstraint,
    PreferenceDistribution,
    PreferenceGraph,
    conditional_risk,
    difference_cycle,
    in_lemma16_set,
    in_optimal_set,
    min_conditional_risk,
    optimal_set_description,
    pairwise_loss,
    scores_from_order,
)


def weak_orders(m):
    """All score vectors with values in 0..m-1 (every weak order of m items appears)."""
    return itertools.product(range(m), repeat=m)


def test_pairwise_loss_charges_a_tie_to_the_smaller_index_only():
    g = PreferenceGraph(2, {(1, 2): 3})
    assert pairwise_loss([0, 0], g) == 3  # i < j: 1(alpha_1 <= alpha_2) is charged
    g21 = PreferenceGraph(2, {(2, 1): 3})
    assert pairwise_loss([0, 0], g21) == 0  # i > j: 1(alpha_2 < alpha_1) is not
    assert pairwise_loss([1, 0], g) == 0 and pairwise_loss([0, 1], g) == 3
    assert pairwise_loss([1, 0], g21) == 3


def test_conditional_risk_is_the_probability_weighted_graph_loss():
    g1 = PreferenceGraph(3, {(1, 2): 1, (1, 3): 3})
    g2 = PreferenceGraph(3, {(2, 3): F(1, 4), (3, 1): 1})
    dist = PreferenceDistribution([(g1, F(1, 3)), (g2, F(2, 3))])
    for alpha in weak_orders(3):
        expected = F(1, 3) * pairwise_loss(alpha, g1) + F(2, 3) * pairwise_loss(alpha, g2)
        assert conditional_risk(dist, alpha) == expected


def test_min_conditional_risk_over_permutations_equals_the_minimum_over_all_weak_orders():
    rng = random.Random(7)
    for _ in range(20):
        m = rng.randint(2, 4)
        a = {
            (i, j): F(rng.randint(0, 4), rng.randint(1, 3)) for i in range(1, m + 1) for j in range(1, m + 1) if i != j
        }
        best = min(conditional_risk(a, alpha) for alpha in weak_orders(m))
        value, order = min_conditional_risk(a)
        assert value == best
        assert conditional_risk(a, scores_from_order(order)) == value


def test_min_conditional_risk_uses_the_exact_solver_beyond_seven_nodes():
    # a 9-cycle with unit weights: one edge must go back
    m = 9
    a = {(i, i % m + 1): 1 for i in range(1, m + 1)}
    value, order = min_conditional_risk(a)
    assert value == 1 and conditional_risk(a, scores_from_order(order)) == 1
    # twin: the 9-path (cycle with one edge removed) costs nothing
    del a[(m, 1)]
    assert min_conditional_risk(a).value == 0


def test_lemma7_min_risk_of_unit_weights_is_the_minimum_feedback_arc_set_size():
    # two disjoint directed triangles need two removed edges; a DAG needs none
    edges = [(1, 2), (2, 3), (3, 1), (4, 5), (5, 6), (6, 4)]
    a = {e: 1 for e in edges}
    assert min_conditional_risk(a).value == 2
    assert min_conditional_risk({(1, 2): 1, (2, 3): 1, (1, 3): 1}).value == 0


def test_scores_from_order_realise_the_order_and_refuse_non_permutations():
    assert scores_from_order([2, 3, 1]) == (F(1), F(3), F(2))
    for bad in ([], [1, 1], [0, 1], [1, 3], "12"):
        with pytest.raises(InvalidInput) as err:
            scores_from_order(bad)
        assert err.value.param == "order"


def figure1_weights():
    return {(1, 2): F(1, 2), (1, 3): F(3, 2), (2, 3): F(1, 8), (3, 1): F(1, 2)}


def test_alpha_ordering_1_2_3_is_optimal_for_figure1_and_any_other_order_is_not():
    a = figure1_weights()
    ok = in_optimal_set(a, [3, 2, 1])
    assert ok and ok.witness["risk"] == ok.witness["min_risk"] == F(1, 2)
    bad = in_optimal_set(a, [3, 1, 2])
    assert not bad and bad.witness["excess"] == F(1, 8)
    assert bad.violations == (OrderConstraint(2, 3, True),)
    assert "alpha_2 > alpha_3" in bad.reason


def test_lemma16_description_lists_strict_constraints_for_i_below_j_and_weak_above():
    a = {(1, 2): 2, (2, 1): 1, (3, 1): 1}
    constraints = optimal_set_description(a)
    assert [str(c) for c in constraints] == ["alpha_1 > alpha_2", "alpha_3 >= alpha_1"]
    # a tie alpha_3 = alpha_1 is allowed (i > j), a tie alpha_1 = alpha_2 is not
    assert in_lemma16_set(a, [1, 0, 1]) and in_optimal_set(a, [1, 0, 1])
    assert not in_lemma16_set(a, [1, 1, 1]) and not in_optimal_set(a, [1, 1, 1])


def test_lemma16_set_equals_the_optimal_set_on_every_weak_order_when_the_difference_graph_is_a_dag():
    rng = random.Random(16)
    checked = 0
    while checked < 12:
        a = {(i, j): rng.randint(0, 2) for i in range(1, 4) for j in range(1, 4) if i != j}
        if difference_cycle(a, 3) is not None:
            continue
        checked += 1
        for alpha in weak_orders(3):
            assert in_lemma16_set(a, alpha) == in_optimal_set(a, alpha).holds


def test_with_a_cyclic_difference_graph_the_lemma16_set_is_empty_and_description_is_refused():
    a = {(1, 2): 1, (2, 3): 1, (3, 1): 1}
    assert not any(in_lemma16_set(a, alpha) for alpha in weak_orders(3))
    assert any(in_optimal_set(a, alpha) for alpha in weak_orders(3))  # A(p) is not empty
    with pytest.raises(InvalidInput, match=r"cycle 1 -> 2 -> 3 -> 1"):
        optimal_set_description(a)


@pytest.mark.parametrize(
    "alpha, param",
    [([0.5, 0, 0], "alpha[1]"), ([0, 0], "alpha"), ("abc", "alpha"), ([0, "x", 0], "alpha[2]")],
)
def test_scores_must_be_exact_and_of_length_m(alpha, param):
    with pytest.raises(InvalidInput) as err:
        conditional_risk(figure1_weights(), alpha)
    assert err.value.param == param


def test_float_scores_are_refused_with_the_fix():
    with pytest.raises(InvalidInput, match=r"use Fraction\(1, 2\)"):
        in_optimal_set(figure1_weights(), [F(1), 0.5, 0])
