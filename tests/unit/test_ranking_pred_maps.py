"""Pred maps of Ramaswamy et al. (2013): top-q, sorting, QAP, diagonal sort, MWFAS, Algorithm 1."""

from fractions import Fraction as F

import pytest

from symcal.errors import InvalidInput
from symcal.ranking.loss_matrix import permutations
from symcal.ranking.pred_maps import (
    algorithm1,
    algorithm1_orders,
    argmin_linear,
    eru_objective,
    eru_pred,
    map_objective,
    map_pred_diagonal,
    map_pred_qap,
    pd_objective,
    pd_pred_brute,
    pd_pred_fas,
    precision_objective,
    qap_objective,
    sort_by_scores,
    top_q,
)
from symcal.ranking.subset_losses import named_loss


def test_top_q_maximises_the_precision_objective_and_bottom_q_does_not():
    u = (F(1), F(3), F(2), F(0))
    best = max(precision_objective(u, s, 2) for s in permutations(4))
    assert precision_objective(u, top_q(u, 2), 2) == best == 5
    assert precision_objective(u, top_q([-x for x in u], 2), 2) < best


def test_eru_sorting_depends_on_the_half_life():
    u = (F(-1), F(0))
    best_w0 = max(eru_objective(u, s, 0) for s in permutations(2))
    assert eru_objective(u, sort_by_scores(u), 0) < best_w0  # decreasing sort fails for w < 1
    assert eru_objective(u, eru_pred(u, 0), 0) == best_w0
    assert eru_objective(u, eru_pred(u, 2), 2) == max(eru_objective(u, s, 2) for s in permutations(2))
    with pytest.raises(InvalidInput, match="w != 1"):
        eru_pred(u, 1)


def test_the_qap_form_equals_the_map_objective_and_the_diagonal_sort_can_differ():
    u = {(1, 1): F(1), (2, 1): F(6), (2, 2): F(0), (3, 1): F(0), (3, 2): F(0), (3, 3): F(2)}
    for s in permutations(3):
        assert map_objective(u, s, 3) == qap_objective(u, s, 3)
    arg, best = map_pred_qap(u, 3)
    assert map_objective(u, map_pred_diagonal(u, 3), 3) < best


def test_pred_star_is_the_exact_argmin_of_u_beta():
    nl = named_loss("precision", 3, q=1)
    arg, val = argmin_linear((F(0), F(1), F(0)), nl.decomposition)
    assert all(nl.matrix.predictions[t][1] == 1 for t in arg) and val == -1


def test_mwfas_and_brute_force_agree_with_negative_entries():
    u = {(1, 2): F(-1), (2, 1): F(2), (1, 3): F(1), (3, 1): F(0), (2, 3): F(3), (3, 2): F(-2)}
    sigma, value, certified = pd_pred_fas(u, 3)
    arg, best = pd_pred_brute(u, 3)
    assert certified and value == best and sigma in arg and pd_objective(u, sigma, 3) == best


def test_algorithm1_drops_the_lightest_edge_of_a_cycle():
    u = {(1, 2): F(3), (2, 3): F(2), (3, 1): F(1)}
    assert algorithm1(u, 3) == (1, 2, 3)  # 3 -> 1 is deleted, order 1 > 2 > 3
    assert algorithm1_orders({(1, 2): F(1)}, 3) == [(1, 2, 3), (1, 3, 2), (2, 3, 1)]


def test_bad_scores_are_refused():
    with pytest.raises(InvalidInput, match="float"):
        top_q([0.5, 1], 1)
    with pytest.raises(InvalidInput, match="q"):
        top_q([1, 2], 3)
    with pytest.raises(InvalidInput, match="coordinates"):
        map_pred_diagonal([1, 2], 3)
