"""All labelled DAGs (Duchi et al. 2010, Section 1: |G(m)| <= 3^C(m,2))."""

from math import comb

import networkx as nx
import pytest

from symcal.errors import InvalidInput
from symcal.ranking import count_dags, dags


@pytest.mark.parametrize("m, expected", [(1, 1), (2, 3), (3, 25), (4, 543), (5, 29281)])
def test_enumeration_and_robinsons_recurrence_agree_on_the_known_counts(m, expected):
    listed = list(dags(m))
    assert len(listed) == len(set(listed)) == count_dags(m) == expected


def test_every_enumerated_graph_is_acyclic_and_all_edge_subsets_that_are_acyclic_appear():
    listed = set(dags(3))
    for edges in listed:
        g = nx.DiGraph(list(edges))
        g.add_nodes_from([1, 2, 3])
        assert nx.is_directed_acyclic_graph(g)
    # the 3-cycle and a 2-cycle are absent; the transitive tournament is present
    assert frozenset({(1, 2), (2, 3), (3, 1)}) not in listed
    assert frozenset({(1, 2), (2, 1)}) not in listed
    assert frozenset({(1, 2), (2, 3), (1, 3)}) in listed


def test_counts_respect_the_papers_bound_and_it_is_not_tight_beyond_two_nodes():
    for m in range(1, 12):
        assert count_dags(m) <= 3 ** comb(m, 2)
    assert count_dags(2) == 3 ** comb(2, 2)
    assert count_dags(3) < 3 ** comb(3, 2)


def test_count_dags_is_exact_for_large_m():
    assert count_dags(6) == 3781503
    assert count_dags(10) == 4175098976430598143
    assert isinstance(count_dags(60), int)


@pytest.mark.parametrize("m", [0, -1, 7, 2.0, True, "3"])
def test_dags_refuses_bad_m(m):
    with pytest.raises(InvalidInput) as err:
        next(dags(m))
    assert err.value.param == "m"


@pytest.mark.parametrize("m", [0, 61, 1.5, None])
def test_count_dags_refuses_bad_m(m):
    with pytest.raises(InvalidInput) as err:
        count_dags(m)
    assert err.value.param == "m"
