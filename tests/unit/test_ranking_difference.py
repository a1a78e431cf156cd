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


# --------------------------------------------------------------------------- issue 13: exact arrays, any size

import random  # noqa: E402
import time  # noqa: E402


def naive_violations(a, m):
    """Definition 8 one triple at a time, in Fractions: the oracle the array version must match."""
    def d(i, j):
        return a.get((i, j), F(0)) - a.get((j, i), F(0))

    return [(i, j, k) for i in range(1, m + 1) for j in range(1, m + 1) for k in range(1, m + 1)
            if len({i, j, k}) == 3 and d(i, j) > 0 and d(j, k) > 0 and d(i, k) < d(i, j) + d(j, k)]


def test_low_noise_on_integer_arrays_agrees_with_the_fraction_triple_loop_on_random_weights():
    rng = random.Random(13)
    decided = {True: 0, False: 0}
    for _ in range(80):
        m = rng.randint(2, 7)
        a = {(i, j): F(rng.randint(0, 6), rng.randint(1, 3)) for i in range(1, m + 1) for j in range(1, m + 1)
             if i != j and rng.random() < 0.6}
        bad = naive_violations(a, m)
        res = is_low_noise(a, m)
        assert res.holds == (not bad) and res.violations == tuple(bad)
        decided[res.holds] += 1
        if bad:
            few = is_low_noise(a, m, max_listed=2)
            assert few.violations == tuple(bad[:2]) and few.witness["violations"] == len(bad)
            assert few.witness["triple"] == bad[0]
    assert decided[True] and decided[False]  # both outcomes were exercised


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3"])
def test_max_listed_must_be_a_positive_whole_number(bad):
    with pytest.raises(InvalidInput, match="max_listed"):
        is_low_noise({(1, 2): 1}, 3, max_listed=bad)


def test_large_graphs_get_their_cycle_from_a_search_inside_a_strongly_connected_component(monkeypatch):
    import symcal.ranking.difference as dmod

    rng = random.Random(5)
    for _ in range(30):
        m = rng.randint(2, 9)
        a = {(i, j): rng.randint(0, 3) for i in range(1, m + 1) for j in range(1, m + 1) if i != j}
        monkeypatch.setattr(dmod, "_NX_CYCLE_EDGES", 10**9)
        by_networkx = difference_cycle(a, m)
        monkeypatch.setattr(dmod, "_NX_CYCLE_EDGES", 0)
        by_search = difference_cycle(a, m)
        assert (by_search is None) == (by_networkx is None)
        if by_search is not None:
            g = difference_graph(a, m)
            assert all(g.has_edge(u, v) for u, v in zip(by_search, by_search[1:] + by_search[:1], strict=True))


def test_a_2000_node_chain_is_checked_in_a_moment_and_every_two_edge_path_breaks_low_noise():
    from symcal.ranking.preference import SparseWeights

    chain = SparseWeights(2000, {(i, i + 1): 1 for i in range(1, 2000)})
    t = time.process_time()
    res = is_low_noise(chain, max_listed=5)
    assert time.process_time() - t < 10
    assert not res.holds and res.witness["violations"] == res.witness["paths_checked"] == 1998
    assert res.violations == ((1, 2, 3), (2, 3, 4), (3, 4, 5), (4, 5, 6), (5, 6, 7))
    assert difference_cycle(chain) is None
