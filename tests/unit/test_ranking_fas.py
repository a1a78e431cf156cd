"""Exact minimum weighted feedback arc set (Duchi et al. 2010, proof of Lemma 7)."""

import itertools
import random
from fractions import Fraction as F

import networkx as nx
import pytest

from symcal.errors import InvalidInput
from symcal.ranking import (
    brute_force_feedback_arc_set,
    conditional_risk,
    min_conditional_risk,
    min_feedback_arc_set,
    order_cost,
    scores_from_order,
    unit_weights,
)


def random_weights(rng, m, density, values):
    return {
        (i, j): rng.choice(values)
        for i in range(1, m + 1)
        for j in range(1, m + 1)
        if i != j and rng.random() < density
    }


def min_fas_by_edge_subsets(m, edges):
    """Smallest |E'| with E minus E' acyclic, by trying subsets (independent of orders)."""
    for k in range(len(edges) + 1):
        for removed in itertools.combinations(edges, k):
            g = nx.DiGraph([e for e in edges if e not in removed])
            if nx.is_directed_acyclic_graph(g):
                return k
    raise AssertionError("unreachable")


def test_milp_agrees_with_brute_force_on_fifty_seeded_random_graphs():
    rng = random.Random(2010)
    values = [0, 1, 2, F(1, 2), F(3, 4)]
    for _ in range(50):
        m = rng.randint(3, 7)
        a = random_weights(rng, m, rng.choice([0.3, 0.6, 1.0]), values)
        brute = brute_force_feedback_arc_set(a, m)
        milp = min_feedback_arc_set(a, m, brute_force_nodes=1)  # every component by MILP
        assert milp.certified, milp.method
        assert milp.weight == brute.weight == order_cost(a, milp.order, m)
        assert milp.weight == sum((a.get(e, 0) for e in milp.removed), F(0))


def test_a_milp_that_is_given_a_wrong_answer_to_match_is_caught():
    # negative twin of the cross-check: a deliberately suboptimal order costs more
    a = {(1, 2): 2, (2, 3): 2, (3, 1): 1}
    best = min_feedback_arc_set(a, brute_force_nodes=1)
    assert best.weight == 1 and best.removed == ((3, 1),)
    assert order_cost(a, (3, 1, 2)) == 2 > best.weight


def test_lemma7_reduction_unit_weights_min_risk_equals_min_feedback_arc_set_size():
    rng = random.Random(7)
    for _ in range(12):
        m = rng.randint(3, 5)
        edges = sorted(e for e in itertools.permutations(range(1, m + 1), 2) if rng.random() < 0.4)
        if not edges:
            continue
        a = unit_weights(m, edges)
        size = min_fas_by_edge_subsets(m, edges)
        assert min_conditional_risk(a, m).value == size
        assert min_feedback_arc_set(a, m, brute_force_nodes=1).weight == size
        # removing the reported edges leaves a DAG
        fas = min_feedback_arc_set(a, m)
        assert nx.is_directed_acyclic_graph(nx.DiGraph([e for e in edges if e not in fas.removed]))


def test_components_are_split_and_ordered_topologically():
    # two 3-cycles joined by 3 -> 4: the order keeps {1,2,3} before {4,5,6}
    a = {(1, 2): 1, (2, 3): 1, (3, 1): 1, (3, 4): 5, (4, 5): 1, (5, 6): 1, (6, 4): 1}
    res = min_feedback_arc_set(a)
    assert res.weight == 2 and res.certified
    assert set(res.order[:3]) == {1, 2, 3} and set(res.order[3:]) == {4, 5, 6}
    assert "2 strongly connected component" in res.method


def test_a_dense_twelve_node_instance_is_certified_and_matches_its_risk():
    rng = random.Random(12)
    a = {(i, j): rng.randint(0, 9) for i in range(1, 13) for j in range(1, 13) if i != j}
    res = min_feedback_arc_set(a)
    assert res.certified and ("HiGHS" in res.method or "LP bound" in res.method)
    assert conditional_risk(a, scores_from_order(res.order)) == res.weight
    # no single insertion move improves the certified order
    for k in range(12):
        for t in range(12):
            order = list(res.order)
            v = order.pop(k)
            order.insert(t, v)
            assert order_cost(a, order) >= res.weight


def tournament(n, seed, top):
    rng = random.Random(seed)
    a = {}
    for i, j in itertools.combinations(range(1, n + 1), 2):
        w = rng.randint(1, top)
        a[(i, j) if rng.random() < 0.5 else (j, i)] = w
    return a


@pytest.mark.parametrize("n, seed, top", [(8, 228, 1000), (9, 210, 20)])
def test_instances_with_a_triangle_lp_gap_go_through_the_milp_and_match_brute_force(n, seed, top):
    # the triangle LP bound is below opt - 1 here, so the heuristic alone is not certified
    a = tournament(n, seed, top)
    res = min_feedback_arc_set(a, n, brute_force_nodes=1)
    assert "MILP rounds" in res.method and res.certified
    assert res.weight == brute_force_feedback_arc_set(a, n).weight


def test_lazy_triangles_are_added_until_the_integer_solution_is_an_order(monkeypatch):
    import symcal.ranking.feedback_arc_set as fas

    # no triangle from the LP loop: every one the MILP needs is added lazily
    monkeypatch.setattr(fas, "_SEP_TOL", 10.0)
    monkeypatch.setattr(fas, "_NEAR_TIGHT", -1.0)
    rounds = []
    for seed in range(5):
        rng = random.Random(seed)
        a = {(i, j): rng.randint(0, 5) for i in range(1, 9) for j in range(1, 9) if i != j}
        res = min_feedback_arc_set(a, 8, brute_force_nodes=1)
        assert res.certified and res.weight == brute_force_feedback_arc_set(a, 8).weight
        rounds.append(res.method)
    assert any("+ 2 MILP rounds" in r for r in rounds)


def test_a_time_limit_leaves_the_result_uncertified_but_exactly_costed():
    rng = random.Random(3)
    a = {(i, j): rng.randint(0, 9) for i in range(1, 26) for j in range(1, 26) if i != j}
    res = min_feedback_arc_set(a, time_limit=0.01)
    assert not res.certified and "NOT certified" in res.method and "time limit" in res.method.lower()
    assert res.weight == order_cost(a, res.order)
    # its twin without the limit is certified
    assert min_feedback_arc_set(a).certified


def test_brute_force_returns_the_lexicographically_first_optimal_order():
    res = brute_force_feedback_arc_set({(1, 2): 1, (2, 1): 1}, 3)
    assert res.order == (1, 2, 3) and res.weight == 1


def test_brute_force_refuses_more_than_nine_nodes():
    with pytest.raises(InvalidInput, match="at most 9") as err:
        brute_force_feedback_arc_set({(1, 10): 1})
    assert err.value.param == "m"


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": "5"}, "time_limit"),
        ({"brute_force_nodes": 0}, "brute_force_nodes"),
        ({"brute_force_nodes": 10}, "brute_force_nodes"),
    ],
)
def test_bad_solver_options_are_refused(kwargs, param):
    with pytest.raises(InvalidInput) as err:
        min_feedback_arc_set({(1, 2): 1}, **kwargs)
    assert err.value.param == param


def test_order_cost_refuses_an_order_that_is_not_a_permutation():
    with pytest.raises(InvalidInput) as err:
        order_cost({(1, 2): 1}, (1, 1))
    assert err.value.param == "order"


# --------------------------------------------------------------------------- issue 13: bounded, with a lower bound

import time  # noqa: E402

import numpy as np  # noqa: E402

from symcal.ranking.feedback_arc_set import _packing_bound, _pairwise_bound  # noqa: E402


def test_the_cycle_packing_bound_never_exceeds_the_minimum_and_beats_the_pairwise_bound():
    rng = random.Random(8)
    better = 0
    for _ in range(40):
        m = rng.randint(3, 7)
        a = random_weights(rng, m, 0.7, [0, 1, 2, 3, 5])
        w = np.zeros((m, m), dtype=np.int64)
        for (i, j), v in a.items():
            w[i - 1, j - 1] = v
        best = brute_force_feedback_arc_set(a, m).weight
        pair, pack = _pairwise_bound(w), _packing_bound(w, None)
        assert pair <= pack <= best
        better += pack > pair
    assert better  # the packing adds something on some instances


def dense_instance(m, seed):
    rng = np.random.default_rng(seed)
    return {(i + 1, j + 1): int(rng.integers(0, 10)) for i in range(m) for j in range(m) if i != j}


def test_a_hard_dense_instance_stops_at_its_time_limit_with_the_best_order_and_a_proved_lower_bound():
    a = dense_instance(60, 0)
    t = time.process_time()
    res = min_feedback_arc_set(a, 60, time_limit=2)
    assert time.process_time() - t < 2 + 3  # the limit plus setting up the model
    assert not res.certified and "NOT certified" in res.method
    assert res.lower_bound is not None and 0 < res.lower_bound < res.weight == order_cost(a, res.order, 60)
    # the twin: a small instance is solved, and its lower bound is the minimum itself
    small = min_feedback_arc_set(dense_instance(6, 1), 6, time_limit=2)
    assert small.certified and small.lower_bound == small.weight == brute_force_feedback_arc_set(
        dense_instance(6, 1), 6).weight


def test_components_beyond_the_lp_size_get_the_local_search_order_and_the_packing_bound(monkeypatch):
    import symcal.ranking.feedback_arc_set as fas

    monkeypatch.setattr(fas, "LP_MAX_NODES", 10)
    a = dense_instance(14, 2)
    res = min_feedback_arc_set(a, 14)
    assert "no triangle LP" in res.method or res.certified
    assert res.lower_bound <= res.weight == order_cost(a, res.order, 14)
    exact = min_feedback_arc_set(a, 14, brute_force_nodes=9)
    assert res.lower_bound <= exact.weight <= res.weight


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1, 0, "5", True])
def test_a_time_limit_must_be_a_finite_positive_number(bad):
    with pytest.raises(InvalidInput, match="time_limit"):
        min_feedback_arc_set({(1, 2): 1}, 2, time_limit=bad)
