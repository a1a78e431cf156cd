"""Permutations as orderings (Xia et al. 2009, Section 2): both views, the swap
sigma_{i,j}^{-1} y, and clear errors for things that are not permutations."""

import pytest

from symcal.errors import InvalidInput
from symcal.ranking.permutations import Permutation, as_permutation, order_of_scores, permutations, swap_scores


def test_order_and_positions_are_inverse_views():
    y = Permutation.from_order((3, 1, 2))
    assert y.item_at(1) == 3 and y.position_of(3) == 1
    assert y.positions == (2, 3, 1)
    assert Permutation.from_positions(y.positions) == y
    assert y.inverse().inverse() == y


def test_swap_exchanges_the_positions_of_two_objects_and_is_an_involution():
    y = Permutation.from_order((3, 1, 2))
    z = y.swap_objects(1, 2)
    assert z.order == (3, 2, 1) and z.swap_objects(1, 2) == y
    assert y.ranks_before(1, 2) and not z.ranks_before(1, 2)
    assert y.top(1) == (3,) and z.top(1) == (3,)


def test_strings_and_sequences_parse_the_same():
    assert as_permutation("312") == as_permutation("(3, 1, 2)") == as_permutation([3, 1, 2])


@pytest.mark.parametrize(("bad", "words"), [((1, 1, 3), "appears twice"), ((1, 2, 4), "out of range"),
                                            ((0, 1, 2), "out of range"), ("31x", "permutation such as"),
                                            ((1.0, 2, 3), "integer object labels"), ((), "non-empty")])
def test_a_sequence_that_is_not_a_permutation_is_refused_with_the_reason(bad, words):
    with pytest.raises(InvalidInput, match=words):
        as_permutation(bad)


def test_positions_with_a_repeat_are_refused():
    with pytest.raises(InvalidInput, match="position 2 appears twice"):
        Permutation.from_positions((2, 2, 1))


def test_objects_and_k_out_of_range_are_refused():
    y = Permutation.identity(3)
    with pytest.raises(InvalidInput, match="object label in 1..3"):
        y.position_of(4)
    with pytest.raises(InvalidInput, match="k=0"):
        y.top(0)
    with pytest.raises(InvalidInput, match="different from i"):
        y.ranks_before(2, 2)


def test_enumeration_scores_and_sorting():
    assert len(list(permutations(4))) == 24
    assert swap_scores((1, 2, 3), 1, 3) == (3, 2, 1)
    assert order_of_scores((0, 5, 2)) == (Permutation((2, 3, 1)), False)
    assert order_of_scores((1, 1, 0))[1] is True
