"""Noise sets P_reinforce, P_f and P_DAG (Ramaswamy et al. 2013) with witnesses."""

from fractions import Fraction as F

import pytest

from symcal.errors import InvalidInput
from symcal.ranking.loss_matrix import dag_label
from symcal.ranking.noise_sets import (
    duchi_f,
    in_p_dag,
    in_p_f,
    in_p_reinforce,
    label_distribution,
    map_u,
    map_u_tilde,
)


def test_a_point_mass_is_in_p_reinforce_and_a_mixed_one_is_not():
    assert in_p_reinforce([((1, 1, 0), 1)]).holds
    p = [((1, 0, 1), F(5, 14)), ((1, 0, 0), F(3, 7)), ((0, 1, 0), F(3, 14))]
    res = in_p_reinforce(p)
    assert not res.holds and {"i", "j"} <= set(res.witness)


def test_u_tilde_is_the_diagonal_of_u():
    p = [((1, 1, 0), F(1, 2)), ((0, 0, 1), F(1, 4)), ((0, 0, 0), F(1, 4))]
    u = map_u(p)
    assert list(map_u_tilde(p)) == [u[(i, i)] for i in (1, 2, 3)] == [F(1, 4), F(1, 4), F(1, 4)]


def test_duchi_f_is_the_net_out_weight():
    assert duchi_f(dag_label(3, {(1, 2): 2, (3, 2): 1})) == (2, -3, 1)


def test_p_dag_strictly_contains_p_f_for_duchis_f():
    p = [(dag_label(3, [(1, 2)]), F(1, 4)), (dag_label(3, [(2, 3)]), F(3, 4))]
    assert in_p_dag(p).holds
    res = in_p_f(p)
    assert not res.holds and (res.witness["i"], res.witness["j"]) == (1, 2)


def test_a_cycle_of_expected_preferences_is_the_witness_against_p_dag():
    p = [(dag_label(3, [(1, 2)]), F(1, 3)), (dag_label(3, [(2, 3)]), F(1, 3)), (dag_label(3, [(3, 1)]), F(1, 3))]
    res = in_p_dag(p)
    assert not res.holds and sorted(res.witness["cycle"]) == [1, 2, 3]


def test_bad_distributions_are_refused():
    with pytest.raises(InvalidInput, match="summing to 1"):
        label_distribution([((1, 0), F(1, 2))])
    with pytest.raises(InvalidInput, match=">= 0"):
        label_distribution([((1, 0), F(3, 2)), ((0, 1), F(-1, 2))])
    with pytest.raises(InvalidInput, match="binary relevance"):
        map_u([((2, 0), 1)])
    with pytest.raises(InvalidInput, match="DAG labels"):
        in_p_dag([((1, 0), 1)])
