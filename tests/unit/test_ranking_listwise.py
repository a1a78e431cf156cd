"""Top-k subgroups, the top-k true loss and Bayes ranker, Definitions 2 and 3, and the
listwise surrogates of Xia, Liu & Li (2009)."""

import math
from fractions import Fraction as F

import pytest

from symcal.errors import InvalidInput
from symcal.ranking.listwise import (
    PermutationDistribution,
    bayes_ranker,
    check_order_sensitivity,
    conditional_risk,
    is_order_preserving,
    listmle,
    listnet,
    listnet_topk_cao,
    luce_probability,
    minimise_conditional_risk,
    rank_cosine,
    subgroup_probabilities,
    subgroup_probability,
    topk_loss,
    topk_risk,
)

# Proposition 10's family with p1 = 1/2
P10 = PermutationDistribution({"123": F(1, 2), "213": F(1, 4), "321": F(1, 4)})


def test_subgroup_probabilities_sum_the_permutations_of_each_subgroup():
    probs = subgroup_probabilities(P10, 1)
    assert probs == {(1,): F(1, 2), (2,): F(1, 4), (3,): F(1, 4)}
    assert subgroup_probability(P10, (2, 1)) == F(1, 4)
    assert sum(subgroup_probabilities(P10, 2).values()) == 1


def test_the_topk_loss_compares_the_first_k_positions_only():
    assert topk_loss("123", "132", 1) == 0 and topk_loss("123", "132", 2) == 1
    assert topk_risk(P10, "132", 1) == F(1, 2)


def test_the_bayes_ranker_is_in_the_most_probable_subgroup_and_its_risk_is_one_minus_that():
    b = bayes_ranker(P10, 1)
    assert b.subgroups == ((1,),) and b.unique and b.risk == F(1, 2)
    assert topk_risk(P10, b.ranker, 1) == b.risk
    assert not bayes_ranker(P10, 2).unique or bayes_ranker(P10, 2).subgroups == ((1, 2),)


def test_order_preserving_holds_for_1_2_and_fails_for_2_3_with_the_tied_pair():
    assert is_order_preserving(P10, 1, 1, 2).holds
    r = is_order_preserving(P10, 1, 2, 3)
    assert not r.holds and r.witness["P(G_k(y))"] == "1/4" == r.witness["P(G_k(swapped))"]


@pytest.mark.parametrize(("probs", "words"), [
    ({"123": F(1, 2)}, "sum to 1"),
    ({"123": F(3, 2), "213": F(-1, 2)}, ">= 0"),
    ({"123": 0.5, "213": F(1, 2)}, "not a float"),
    ({"113": 1}, "appears twice"),
    ({"123": F(1, 2), "2134": F(1, 2)}, "3 objects"),
])
def test_bad_distributions_are_refused_with_the_reason(probs, words):
    with pytest.raises(InvalidInput, match=words):
        PermutationDistribution(probs)


def test_k_out_of_range_is_refused():
    with pytest.raises(InvalidInput, match="k=4"):
        subgroup_probabilities(P10, 4)
    with pytest.raises(InvalidInput, match="k=0"):
        listmle(3, 0)


def test_luce_probability_is_exact_and_sums_to_one_over_subgroups():
    t = (F(1), F(2), F(3))
    assert luce_probability(t, "321") == F(3, 6) * F(2, 3)
    assert sum(luce_probability(t, key + tuple(x for x in (1, 2, 3) if x not in key), 1)
               for key in [(1,), (2,), (3,)]) == 1
    with pytest.raises(InvalidInput, match="not a float"):
        luce_probability((0.5, 1, 1), "123")
    with pytest.raises(InvalidInput, match="positive"):
        luce_probability((0, 1, 1), "123")


def test_listmle_is_minus_log_of_the_luce_probability_and_its_gradient_matches_differences():
    phi = listmle(3, 2)
    g = [0.3, -0.2, 0.5]
    t = [F(math.exp(v)).limit_denominator(10**12) for v in g]
    assert phi.value(g, "213") == pytest.approx(-math.log(float(luce_probability(t, "213", 2))), rel=1e-9)
    for surrogate in (phi, rank_cosine(3, 1), listnet(3, 1), listnet_topk_cao(3, 1)):
        grad = surrogate.gradient(g, "312")
        for i in range(3):
            e = [0.0] * 3
            e[i] = 1e-6
            up = surrogate.value([a + b for a, b in zip(g, e, strict=True)], "312")
            down = surrogate.value([a - b for a, b in zip(g, e, strict=True)], "312")
            assert grad[i] == pytest.approx((up - down) / 2e-6, abs=1e-6)


def test_interval_values_enclose_the_float_values():
    for surrogate in (listmle(3), rank_cosine(3), listnet(3, 1)):
        iv = surrogate.value([0, 1, F(1, 2)], "312", arithmetic="interval")
        assert iv.a <= surrogate.value([0, 1, 0.5], "312") <= iv.b


def test_interval_arithmetic_refuses_floats():
    with pytest.raises(InvalidInput, match="not a float"):
        listmle(3).value([0.1, 0, 0], "123", arithmetic="interval")


def test_conditional_risk_is_the_expected_loss():
    phi = listmle(3)
    g = [1.0, 0.0, 0.5]
    assert conditional_risk(P10, g, phi) == pytest.approx(
        0.5 * phi.value(g, "123") + 0.25 * phi.value(g, "213") + 0.25 * phi.value(g, "321"))


def test_order_sensitivity_of_topk_listmle_and_a_certified_violation_for_the_original():
    points = [(0, 1, F(1, 2)), (2, 0, 1), (F(1, 3), F(1, 3), 0)]
    assert check_order_sensitivity(listmle(3, 1), 1, points).holds
    r = check_order_sensitivity(listmle(3), 1, points)
    assert not r.holds and r.witness["condition"] == "(2) equality within a subgroup"
    assert not check_order_sensitivity(rank_cosine(3), 1, points).holds
    assert check_order_sensitivity(rank_cosine(3, 1), 1, points).holds
    assert not check_order_sensitivity(listnet_topk_cao(3, 1), 1, points).holds


def test_order_sensitivity_needs_points_of_the_right_length():
    with pytest.raises(InvalidInput, match="length n = 3"):
        check_order_sensitivity(listmle(3), 1, [(0, 1)])
    with pytest.raises(InvalidInput, match="at least one"):
        check_order_sensitivity(listmle(3), 1, [])


def test_the_numeric_minimiser_of_listmle_ranks_object_2_first_for_p1_one_half():
    res = minimise_conditional_risk(P10, listmle(3))
    assert res.top(1) == (2,) and res.gradient_norm < 1e-6


def test_an_equality_of_the_order_sensitivity_check_is_decided_by_the_exact_zero_test():
    # the equalities within a subgroup hold formally for top-1 ListMLE: no interval "contains 0"
    # shortcut, and none is left undecided; ListMLE (k = n) breaks one exactly
    from fractions import Fraction as F

    pts = [(F(0), F(1), F(2)), (F(1), F(1), F(0)), (F(1, 2), F(-1), F(3))]
    ok = check_order_sensitivity(listmle(3, 1), 1, pts)
    assert ok.holds and ok.undecided == ()
    bad = check_order_sensitivity(listmle(3), 1, pts)
    assert not bad.holds and bad.witness["condition"] == "(2) equality within a subgroup"
