"""Finite instance spaces: exact R_0 with ties 1/2, weak orders (Fubini numbers), f_0^* and the
exhaustive check of Uematsu & Lee (2013)'s Theorem 3."""

import random
from fractions import Fraction as F

import pytest

from symcal.errors import InvalidInput
from symcal.ranking.costs import CostScheme, dcg_costs, linear_costs, zero_one_costs
from symcal.ranking.multipartite import (
    FiniteInstanceSpace,
    check_theorem3,
    fubini,
    optimal_levels,
    pair_table,
    random_space,
    ranking_risk,
    search_counterexample,
    surrogate_pair_weights,
    weak_orders,
)


@pytest.mark.parametrize("m,count", [(1, 1), (2, 3), (3, 13), (4, 75), (5, 541), (6, 4683)])
def test_weak_orders_are_the_fubini_many_distinct_ordered_partitions(m, count):
    orders = list(weak_orders(m))
    assert len(orders) == len(set(orders)) == fubini(m) == count
    assert all(set(lv) == set(range(max(lv) + 1)) for lv in orders)


def test_the_risk_counts_ties_as_one_half_and_a_correct_order_as_zero():
    space = FiniteInstanceSpace((F(1, 2), F(1, 2)), ((1, 0), (0, 1)))
    c = zero_one_costs(2)
    assert ranking_risk(space, c, (0, 1)) == 0
    assert ranking_risk(space, c, (1, 0)) == 1
    assert ranking_risk(space, c, (0, 0)) == F(1, 2)


def test_the_integer_form_reproduces_the_exact_risk_of_every_weak_order():
    rng = random.Random(3)
    space = random_space(4, 3, rng)
    table = pair_table(space, linear_costs(3))
    scale, terms, const = table.integer_form()
    for lv in weak_orders(4):
        s = const + sum(b if lv[a_] < lv[c_] else ab if lv[a_] > lv[c_] else t for a_, c_, b, ab, t in terms)
        assert F(s, 2 * scale) / table.Z == table.risk(lv)


def test_f0_is_optimal_for_schemes_with_the_condition_on_random_instances():
    rng = random.Random(11)
    for _ in range(10):
        space = random_space(4, 4, rng)
        r = check_theorem3(space, dcg_costs(4))
        assert r.f0_optimal and r.minimisers_are_strict_refinements and r.orders == 75


def test_zero_one_costs_at_k4_have_a_two_point_counterexample():
    space = FiniteInstanceSpace((F(1, 2), F(1, 2)), ((0, 1, 0, 0), (0, 0, 1, 0)))
    r = check_theorem3(space, zero_one_costs(4))
    assert not r.f0_optimal and r.f0_levels == (0, 0) and r.minimisers == ((0, 1),)
    found = search_counterexample(zero_one_costs(4))
    assert found is not None and found[0].m == 2 and not found[1].f0_optimal
    assert search_counterexample(linear_costs(4), m_max=3, tries=30) is None


def test_f0_levels_treat_a_zero_denominator_as_plus_infinity():
    space = FiniteInstanceSpace((F(1, 2), F(1, 2)), ((0, 0, 1), (F(1, 2), F(1, 2), 0)))
    assert optimal_levels(space, linear_costs(3)) == (1, 0)


def test_theorem4_extra_terms_make_the_surrogate_weights_rank_one():
    rng = random.Random(5)
    space = random_space(3, 4, rng)
    c = linear_costs(4)
    W = surrogate_pair_weights(space, c, extra=True)
    q = [[space.joint(a, k) for k in range(1, 5)] for a in range(3)]
    N = [sum(c.c(1, i) * q[a][i - 1] for i in range(2, 5)) for a in range(3)]
    M = [sum(c.c(j, 4) * q[a][j - 1] for j in range(1, 4)) for a in range(3)]
    assert all(W[a][b] == N[a] * M[b] / c.c(1, 4) for a in range(3) for b in range(3))


@pytest.mark.parametrize(
    "build,match",
    [
        (lambda: FiniteInstanceSpace((F(1, 2), F(1, 3)), ((1, 0), (0, 1))), "summing to 1"),
        (lambda: FiniteInstanceSpace((1,), ((F(1, 2), F(1, 3)),)), "summing to 1"),
        (lambda: FiniteInstanceSpace((1,), ((1,),)), "K >= 2"),
        (lambda: FiniteInstanceSpace((1,), ((0.5, 0.5),)), "Fraction"),
        (lambda: FiniteInstanceSpace((F(1, 2), F(1, 2)), ((1, 0),)), "one row per point"),
        (lambda: FiniteInstanceSpace((1,), ((1, 0),)), "two labels"),
        (lambda: FiniteInstanceSpace((F(3, 2), F(-1, 2)), ((1, 0), (0, 1))), ">= 0"),
        (lambda: list(weak_orders(0)), "m >= 1"),
    ],
)
def test_bad_spaces_get_clear_errors(build, match):
    with pytest.raises(InvalidInput, match=match):
        build()


def test_symbolic_or_mismatched_costs_are_refused_for_the_exact_risk():
    import sympy

    space = FiniteInstanceSpace((1,), ((F(1, 2), F(1, 2)),))
    with pytest.raises(InvalidInput, match="rational costs"):
        ranking_risk(space, CostScheme(2, {(1, 2): sympy.exp(1)}), (0,))
    with pytest.raises(InvalidInput, match="K = 2"):
        ranking_risk(space, linear_costs(3), (0,))
