"""Cost schemes of Uematsu & Lee (2013) and the Theorem 3 condition: constructors, exact
validation, violations with residuals, symbolic families, sweeps."""

from fractions import Fraction as F

import pytest
import sympy

from symcal.errors import InvalidInput
from symcal.ranking.costs import (
    CostScheme,
    cons_costs,
    dcg_costs,
    linear_costs,
    normalised_condition,
    optimal_ranking_function,
    orboost_costs,
    ovo_costs,
    pairs_costs,
    relative_scale,
    satisfies_theorem3_condition,
    sweep_named,
    symbolic_costs,
    weighted_scale_costs,
    zero_one_costs,
)


@pytest.mark.parametrize("K", range(2, 13))
def test_linear_and_dcg_schemes_satisfy_the_condition_for_every_k_tried(K):
    assert satisfies_theorem3_condition(linear_costs(K)).holds is True
    assert satisfies_theorem3_condition(dcg_costs(K)).holds is True


def test_zero_one_costs_violate_the_condition_from_k4_at_pair_2_3_with_residual_1():
    assert satisfies_theorem3_condition(zero_one_costs(3)).holds is True  # void for K <= 3
    r = satisfies_theorem3_condition(zero_one_costs(4))
    assert r.holds is False and not r
    assert [(v.j, v.i, v.residual) for v in r.violations] == [(2, 3, F(1))]
    assert len(satisfies_theorem3_condition(zero_one_costs(6)).violations) == 6


def test_every_violating_pair_of_a_user_table_is_listed_with_its_exact_residual():
    c = CostScheme.from_matrix([[None, 1, 2, 4], [None, None, 1, 2], [None, None, None, 1], [None] * 4])
    r = satisfies_theorem3_condition(c)
    assert r.witness.j == 2 and r.witness.i == 3 and r.witness.lhs == 4 and r.witness.rhs == 3
    assert r.to_json()["violations"][0]["residual"] == "1"


def test_the_corollary1_family_holds_identically_and_a_squared_scale_does_not():
    w = sympy.symbols("w1:6", positive=True)
    s = sympy.symbols("s1:6", real=True)
    r = satisfies_theorem3_condition(weighted_scale_costs(w, s))
    assert r.holds is True and "identically" in r.scope
    bad = CostScheme(4, {(j, i): (s[i - 1] - s[j - 1]) ** 2 for j in range(1, 5) for i in range(j + 1, 5)})
    assert satisfies_theorem3_condition(bad).holds is False


def test_orboost_costs_from_thresholds_satisfy_the_condition_symbolically_and_numerically():
    t = sympy.symbols("t1:5", real=True)
    assert satisfies_theorem3_condition(orboost_costs(t)).holds is True
    table2 = orboost_costs(["-0.0932", "-0.0656", "-0.0386", 0])
    assert satisfies_theorem3_condition(table2).holds is True
    assert table2.c(1, 2) == 1 and table2.c(4, 5) == 1


def test_a_perturbed_exp_scheme_is_shown_to_violate_by_an_interval_enclosure():
    t = orboost_costs(["-0.0932", "-0.0656", "-0.0386", 0])
    bumped = CostScheme(
        5, {k: (v + sympy.Rational(1, 10**6) if k == (2, 3) else v) for k, v in t.sympy_costs().items()}
    )
    r = satisfies_theorem3_condition(bumped)
    assert r.holds is False and (r.witness.j, r.witness.i) == (2, 3)


def test_cons_costs_satisfy_the_condition_but_ovo_costs_do_not_at_k4():
    assert satisfies_theorem3_condition(cons_costs([1, 2, 3, 4])).holds is True
    assert satisfies_theorem3_condition(ovo_costs([1, 2, 3, 4])).holds is False
    assert pairs_costs([2, 2, 2]).costs == zero_one_costs(3).costs


def test_f0_is_the_printed_ratio_and_linear_normalised_rows_agree():
    p = sympy.symbols("p_1:5", nonnegative=True)
    f0 = optimal_ranking_function(linear_costs(4), p)
    assert sympy.simplify(f0 - (p[1] + 2 * p[2] + 3 * p[3]) / (3 * p[0] + 2 * p[1] + p[2])) == 0
    assert all(sympy.simplify(r["lhs"] - r["rhs"]) == 0 for r in normalised_condition(linear_costs(5)))
    assert relative_scale(linear_costs(4)) == [0, sympy.Rational(1, 2), 2]


def test_c1k_zero_is_flagged_even_when_the_condition_holds():
    c = CostScheme(4, {(1, 2): 0, (1, 3): 0, (1, 4): 0, (2, 3): 1, (2, 4): 1, (3, 4): 1})
    r = satisfies_theorem3_condition(c)
    assert r.holds is True and r.c1K_positive is False and "c_1K = 0" in r.reason


def test_a_k_sweep_says_for_which_k_a_named_scheme_holds():
    assert sweep_named("zero_one", range(2, 7))["holds_for"] == [2, 3]
    with pytest.raises(InvalidInput, match="scheme"):
        sweep_named("cubic", range(2, 4))


@pytest.mark.parametrize(
    "build,match",
    [
        (lambda: CostScheme.from_matrix([[None, -1], [None, None]]), "non-negative"),
        (lambda: CostScheme.from_matrix([[None]]), "K >= 2"),
        (lambda: CostScheme.from_matrix([[None, 1, 2], [None, None, 1]]), "row 1"),
        (lambda: CostScheme.from_matrix([[None, "abc"], [None, None]]), "not 'abc'"),
        (lambda: CostScheme.from_matrix([[None, float("nan")], [None, None]]), "finite"),
        (lambda: CostScheme.from_matrix([[None, 0.3], [None, None]]), "Fraction"),
        (lambda: CostScheme.from_pairs(3, {(1, 2): 1, (2, 3): 1}), "missing"),
        (lambda: CostScheme.from_pairs(2, {(1, 2): 1, (2, 1): 1}), r"1 <= j < i"),
        (lambda: CostScheme.from_pairs(2, {(1, 2): sympy.Float(0.5)}), "exact"),
        (lambda: CostScheme.from_pairs(2, {(1, 2): 1 - sympy.exp(1)}), "non-negative"),
        (lambda: linear_costs(1), "K >= 2"),
        (lambda: weighted_scale_costs([1, 1], [2, 1]), "increasing"),
        (lambda: weighted_scale_costs([1, -1], [1, 2]), "weight >= 0"),
        (lambda: orboost_costs([0, -1]), "ordered thresholds"),
        (lambda: ovo_costs([1, 0, 2]), "positive integer"),
    ],
)
def test_bad_inputs_get_clear_errors(build, match):
    with pytest.raises(InvalidInput, match=match):
        build()


def test_floats_are_accepted_only_when_converted_explicitly_and_decimal_strings_are_exact():
    c = CostScheme.from_matrix([[None, 0.25], [None, None]], allow_float=True)
    assert c.c(1, 2) == F(1, 4)
    assert CostScheme.from_matrix([[None, "0.1"], [None, None]]).c(1, 2) == F(1, 10)
    assert CostScheme.from_matrix([[None, "exp(103/50)"], [None, None]]).c(1, 2) == sympy.exp(sympy.Rational(103, 50))


def test_symbolic_costs_give_an_undecided_or_failing_generic_condition_not_a_pass():
    r = satisfies_theorem3_condition(symbolic_costs(4))
    assert r.holds is False and (r.witness.j, r.witness.i) == (2, 3)
