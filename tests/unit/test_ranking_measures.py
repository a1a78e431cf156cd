"""symcal.ranking.measures: Table 1 measures, exact, with random tie breaking and clear errors."""

from fractions import Fraction as F

import pytest
import sympy

from symcal.errors import InvalidInput
from symcal.ranking.measures import (
    arg_sort,
    auc,
    average_precision,
    check_distribution,
    dcg,
    err,
    ndcg,
    precision_at,
    rankings,
    recall_at,
    spearman,
)

THM33 = [((1, 1, 0, 0), F(1, 2)), ((0, 0, 1, 1), F(1, 2))]


def test_err_and_ap_gaps_of_theorem_3_3_are_half_the_printed_numbers():
    e, ap = err(4), average_precision(4)
    assert e.expected(THM33, (1, 3, 2, 4)) - e.expected(THM33, (1, 2, 3, 4)) == F(1, 48)
    assert ap.expected(THM33, (1, 3, 2, 4)) - ap.expected(THM33, (1, 2, 3, 4)) == F(-1, 24)
    assert e.expected(THM33, (1, 3, 2, 4)) != e.expected(THM33, (1, 2, 3, 4)) + F(1, 24)


def test_every_gppm_form_matches_its_measure_exhaustively_at_four_items():
    n = 4
    for y in [(1, 0, 1, 0), (0, 1, 1, 1), (1, 0, 0, 0)]:
        for m in (precision_at(n, 2), recall_at(n, 3), auc(n)):
            for s in rankings(n):
                assert m(y, s) == m.gppm(y, s), (m.name, y, s)
    for y in rankings(n):
        for s in rankings(n):
            assert spearman(n)(y, s) == spearman(n).gppm(y, s)


def test_dcg_with_a_rational_discount_is_exact_and_ndcg_is_one_at_the_ideal_ranking():
    d = dcg(3, 2, grades=2, discount=lambda i: F(1, i))
    assert d((2, 0, 1), (1, 3, 2)) == 3 + F(1, 2)
    nd = ndcg(3, 2, grades=2, discount=lambda i: F(1, i))
    assert nd((2, 0, 1), (1, 3, 2)) == 1 and nd((2, 0, 1), (2, 3, 1)) < 1
    assert dcg(2)((1, 1), (1, 2)) == 1 + sympy.log(2) / sympy.log(3)


def test_ties_are_broken_at_random_in_expectation():
    p = precision_at(3, 1)
    assert p.score((1, 0, 0), (5, 5, 0)) == F(1, 2)
    assert p.score((1, 0, 0), (5, 4, 0)) == 1
    assert arg_sort([1, 1, 0]) == [(1, 2, 3), (2, 1, 3)]


def test_undefined_measures_raise_or_follow_the_documented_convention():
    with pytest.raises(InvalidInput, match="at least one relevant"):
        recall_at(3, 1)((0, 0, 0), (1, 2, 3))
    with pytest.raises(InvalidInput, match="relevant and one irrelevant"):
        auc(3)((1, 1, 1), (1, 2, 3))
    with pytest.raises(InvalidInput, match="ideal DCG"):
        ndcg(3)((0, 0, 0), (1, 2, 3))
    assert average_precision(3, empty="zero")((0, 0, 0), (1, 2, 3)) == 0
    with pytest.raises(InvalidInput, match="empty"):
        auc(3, empty="nan")


@pytest.mark.parametrize("call, param", [
    (lambda: precision_at(3, 4), "k"),
    (lambda: precision_at(3, 0), "k"),
    (lambda: precision_at(3, 1)((1, 0, 0), (1, 1, 3)), "sigma"),
    (lambda: precision_at(3, 1)((1, 0, 0), (1, 2)), "sigma"),
    (lambda: precision_at(3, 1)((2, 0, 0), (1, 2, 3)), "y"),
    (lambda: spearman(3)((1, 1, 2), (1, 2, 3)), "y"),
    (lambda: check_distribution([((1, 0), F(1, 2)), ((0, 1), F(1, 3))]), "distribution probabilities"),
    (lambda: check_distribution([((1, 0), 0.5), ((0, 1), 0.5)]), "distribution probability of (1, 0)"),
    (lambda: spearman(1), "n"),
])
def test_bad_inputs_are_clear_errors(call, param):
    with pytest.raises(InvalidInput) as e:
        call()
    assert e.value.param == param
