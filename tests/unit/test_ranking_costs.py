"""Cost schemes of Uematsu & Lee (2013) and the Theorem 3 condition: constructors, exact
validation, violations with residuals, symbolic families, sweeps."""

import random
import time
from fractions import Fraction as F

import pytest
import sympy

from symcal.errors import InvalidInput
from symcal.exact import sign
from symcal.exact.intervals import enclosure
from symcal.ranking.costs import (
    CostScheme,
    cons_costs,
    dcg_costs,
    formula_costs,
    formula_identity,
    linear_costs,
    normalised_condition,
    optimal_ranking_function,
    orboost_costs,
    ovo_costs,
    pairs_costs,
    relative_scale,
    satisfies_theorem3_condition,
    sweep_formula,
    sweep_named,
    symbolic_costs,
    weighted_scale_costs,
    zero_one_costs,
)
from symcal.verdicts import Status
from tests.common.timing import within


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


# ---------------------------------------------------------------------------------------
# Issue 11 (items 5, 6): no false "holds" from an enclosure that merely contains 0, no hang
# ---------------------------------------------------------------------------------------

BIG_TABLE = [
    [None, "10^200*sqrt(3 + 2*sqrt(2))", "2*10^200*(1 + sqrt(2))", "3*10^200*(1 + sqrt(2))"],
    [None, None, "10^200*sqrt(3 + 2*sqrt(2)) + 1", "2*10^200*(1 + sqrt(2))"],
    [None, None, None, "10^200*(1 + sqrt(2))"],
    [None, None, None, None],
]


def log_scheme(K, bump=None, scale=1):
    """c_ji = scale * log(i/j), with bump = ((j, i), delta) added to one cost."""
    costs = {(j, i): scale * sympy.log(sympy.Rational(i, j)) for j in range(1, K + 1) for i in range(j + 1, K + 1)}
    if bump:
        costs[bump[0]] += bump[1]
    return CostScheme(K, costs)


def decided_within(seconds, costs, **kw):
    t = time.monotonic()
    r = satisfies_theorem3_condition(costs, **kw)
    assert time.monotonic() - t < within(seconds), f"took {time.monotonic() - t:.1f} s"
    return r


def test_the_10e200_radical_table_fails_at_2_3_with_a_residual_of_about_7e200_and_holds_without_the_plus_one():
    r = decided_within(60, CostScheme.from_matrix(BIG_TABLE))
    assert r.holds is False and r.status is Status.REFUTED and (r.witness.j, r.witness.i) == (2, 3)
    lo, hi = enclosure(r.witness.residual, precision=4096)
    assert 7 * 10**200 < lo and hi < 73 * 10**199
    assert "excludes 0" in r.evidence
    twin = [row[:] for row in BIG_TABLE]
    twin[1][2] = "10^200*sqrt(3 + 2*sqrt(2))"
    t = decided_within(60, CostScheme.from_matrix(twin))
    assert t.holds is True and t.status is Status.PROVED and "formal zero" in t.evidence


def test_the_log_scheme_at_k6_holds_and_with_1e_minus_120_on_c23_fails_by_log6_times_1e_minus_120():
    assert decided_within(60, log_scheme(6)).status is Status.PROVED
    r = decided_within(60, log_scheme(6, ((2, 3), sympy.Rational(1, 10**120))))
    assert r.holds is False and (r.witness.j, r.witness.i) == (2, 3)
    assert sign(r.witness.residual - sympy.log(6) / 10**120).value == 0


def test_forty_randomly_perturbed_log_schemes_all_fail_and_their_unperturbed_twins_hold():
    rng = random.Random(11)
    for _ in range(40):
        K = rng.randint(4, 6)
        pair = rng.choice([(j, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)])
        delta = sympy.Rational(rng.choice([1, -1]), 10 ** rng.randint(20, 160))
        r = decided_within(60, log_scheme(K, (pair, delta)))
        assert r.holds is False, (K, pair, delta, r.reason)
    for K in (4, 5, 6):
        assert satisfies_theorem3_condition(log_scheme(K)).holds is True


def test_the_k4_log_scheme_with_1e_minus_100_and_log_costs_times_1000_are_decided_in_seconds():
    assert decided_within(20, log_scheme(4, ((2, 3), sympy.Rational(1, 10**100)))).holds is False
    assert decided_within(20, log_scheme(4, scale=1000)).holds is True
    assert decided_within(20, log_scheme(6, ((1, 6), sympy.Rational(1, 10**100)), scale=1000)).holds is False


def test_a_cost_100_log_3_2_plus_1_is_decided_and_the_normalised_form_prints():
    x = "100*log(3/2) + 1"
    c = CostScheme.from_matrix([[None, 1, 2, x], [None, None, x, 2], [None, None, None, x], [None] * 4])
    r = decided_within(60, c)
    assert r.holds is False and (r.witness.j, r.witness.i) == (2, 3)  # residual X^2 + X - 4 with X ~ 41.5
    assert len(normalised_condition(c)) == 3 and relative_scale(c)[0] == 0
    assert "log(3)" in str(r.witness) and len(str(r.to_json())) < 5000


@pytest.mark.parametrize(
    "cost", ["-10^-150", "exp(-10^-150) - 1", "sqrt(2) - sqrt(2 + 10^-150)", "log(3/2) - log(3/2 + 10^-150)"]
)
def test_a_cost_of_minus_1e_minus_150_is_refused_exactly_and_its_positive_twin_accepted(cost):
    with pytest.raises(InvalidInput, match="non-negative"):
        CostScheme.from_matrix([[None, cost], [None, None]])
    twin = cost.replace("-10^-150", "10^-150") if cost == "-10^-150" else f"-({cost})"
    assert CostScheme.from_matrix([[None, twin], [None, None]]).K == 2


def test_a_cost_that_is_formally_zero_is_accepted_and_an_undecidable_one_refused_with_the_reason():
    assert CostScheme.from_matrix([[None, "sqrt(3 + 2*sqrt(2)) - 1 - sqrt(2)"], [None, None]]).K == 2
    with pytest.raises(InvalidInput, match="undecided"):
        CostScheme.from_matrix([[None, "exp(exp(exp(exp(10))))"], [None, None]])
    with pytest.raises(InvalidInput, match="c_12"):
        CostScheme.from_matrix([[None, "(2^9999)^9999"], [None, None]])


HIDDEN_ZERO = 3 * sympy.log(1 + sympy.sqrt(2)) - sympy.log(7 + 5 * sympy.sqrt(2))  # = 0, but not formally


def test_a_small_timeout_stops_the_check_as_undecided_and_without_it_the_check_is_still_undecided_not_holds():
    slow = CostScheme(12, {(j, i): (i - j) + HIDDEN_ZERO for j in range(1, 13) for i in range(j + 1, 13)})
    r = decided_within(15, slow, timeout=2)
    assert r.holds is None and r.status is Status.UNKNOWN and "gave up after 2 s" in r.reason
    small = CostScheme(4, {(j, i): (i - j) + HIDDEN_ZERO for j in range(1, 5) for i in range(j + 1, 5)})
    assert decided_within(30, small).holds is None  # never "holds" on an enclosure containing 0
    assert decided_within(30, linear_costs(4), timeout=2).holds is True


def test_a_check_that_never_finishes_is_killed_and_reported_as_gave_up(monkeypatch):
    import symcal.ranking.costs as costs_module

    def spin(costs, timeout):
        while True:
            pass

    monkeypatch.setattr(costs_module, "_decide_condition", spin)
    r = decided_within(15, log_scheme(4), timeout=1)
    assert r.holds is None and r.status is Status.UNKNOWN and r.reason.startswith("gave up after 1 s")


def test_bad_timeouts_are_refused():
    for bad in (0, -1, "10", float("nan"), True):
        with pytest.raises(InvalidInput, match="timeout"):
            satisfies_theorem3_condition(linear_costs(3), timeout=bad)


@pytest.mark.parametrize("formula", ["log(i/j)", "i - j", "(i-j)*(i+j)", "2^i - 2^j", "sqrt(i) - sqrt(j)"])
def test_a_formula_of_the_corollary1_shape_is_proved_for_all_k_by_an_identity(formula):
    proved, how, _ = formula_identity(formula)
    assert proved is True and "all K >= 2" in how
    rep = sweep_formula(formula, range(2, 9))
    assert rep["all_K"] and rep["holds_for"] == list(range(2, 9))
    assert satisfies_theorem3_condition(formula_costs(formula, 6)).holds is True  # an instance agrees


@pytest.mark.parametrize("formula,fails_from", [("i*j", 4), ("log(i/j)^2", 4), ("1", 4), ("(i-j)^2", 4)])
def test_a_formula_that_is_no_identity_is_swept_per_k_and_fails_from_k4(formula, fails_from):
    proved, _, _ = formula_identity(formula)
    assert proved is None
    rep = sweep_named(formula, range(2, 8))
    assert rep["all_K"] is None and rep["holds_for"] == list(range(2, fails_from))
    assert rep["fails_for"] == list(range(fails_from, 8))


def test_bad_formulas_get_clear_errors():
    with pytest.raises(InvalidInput, match="not 'k'"):
        sweep_formula("log(k/j)", range(2, 4))
    with pytest.raises(InvalidInput, match="non-negative"):
        formula_costs("j - i", 3)


def test_a_number_of_categories_beyond_the_limit_is_refused_before_any_work():
    import pytest

    from symcal.errors import InvalidInput
    from symcal.ranking.costs import MAX_K, zero_one_costs

    with pytest.raises(InvalidInput, match="at most K = 500"):
        zero_one_costs(100_000)
    assert zero_one_costs(MAX_K).K == MAX_K
