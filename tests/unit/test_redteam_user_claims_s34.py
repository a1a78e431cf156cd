"""Red team of a user's own claims (session 34): the identity's fallback, roots in queries, symbol
assumptions, node label tests and undefined expressions, tried with the README's constructors on
claims of known truth.  Each test is one false verdict that was found, fixed, with its twin."""

import sympy

from symcal import Citation, check, exists, identity, implies, reals
from symcal.verdicts import Status

C = Citation("mine2026", "p. 1")
x, y = reals("x y")


def ident(lhs, rhs, conditions=()):
    return check(identity("mine2026.i", lhs, rhs, conditions=conditions, cite=C))


def imp(hyps, conclusion):
    return check(implies("mine2026.i", hypotheses=hyps, conclusion=conclusion, cite=C))


def ex(constraints):
    return check(exists("mine2026.e", constraints=constraints, cite=C))


def test_an_identity_is_never_refuted_at_a_point_where_a_division_by_zero_leaves_no_zoo():
    # acot(1/x) = atan(x) for every x != 0; at x = 0 sympy evaluates acot(zoo) to 0, so the residual
    # there was the right side's 1 and the identity was refuted at x = 0, where its left side is undefined
    at_zero = sympy.Piecewise((1, sympy.Eq(x, 0)), (0, True))
    v = ident(sympy.acot(1 / x), sympy.atan(x) + at_zero)
    assert v.status is not Status.REFUTED
    assert "x != 0" in v.scope
    # twin: the same jump at x = 1, where both sides are defined, is refuted there
    w = ident(sympy.acot(1 / x), sympy.atan(x) + sympy.Piecewise((1, sympy.Eq(x, 1)), (0, True)))
    assert w.status is Status.REFUTED and w.witness.values["x"] == 1


def test_a_max_with_a_division_is_decided_not_an_error_when_a_test_point_divides_by_zero():
    # Max(0, zoo) raises "the argument 'zoo' is not comparable" in sympy: the point is skipped
    v = ident(sympy.Max(x, 1 / x), x, conditions=[x >= -1])
    assert v.status is Status.REFUTED and v.witness.values["x"] != 0
    # twin: where the identity holds it is never refuted (and never an error)
    w = ident(sympy.Max(x, 1 / x), x, conditions=[x >= 1])
    assert w.status is Status.PROVED and "x >= 1" in w.scope


def test_a_nested_square_root_gets_its_own_variable_so_its_strict_bound_is_refuted_at_zero():
    # sqrt(1 - sqrt(x)) < 1 fails at x = 0; both roots were named symcal_root_1, one z3 variable
    v = imp({}, sympy.sqrt(1 - sympy.sqrt(x)) < 1)
    assert v.status is Status.REFUTED and v.witness.values["x"] == 0
    # twin: the non-strict bound holds wherever the roots are defined
    assert imp({}, sympy.sqrt(1 - sympy.sqrt(x)) <= 1).status is Status.PROVED


def test_a_symbol_with_the_name_of_a_roots_variable_is_not_merged_with_the_root():
    s = sympy.Symbol("symcal_root_1", real=True)
    # x = 4 does not make an arbitrary s equal to sqrt(x): proved when s and sqrt(x) were one z3 variable
    v = imp({"h": [sympy.Eq(x, 4)]}, sympy.Eq(sympy.sqrt(x), s))
    assert v.status is not Status.PROVED
    # twin: the same claim over a symbol of another name is refuted
    w = imp({"h": [sympy.Eq(x, 4)]}, sympy.Eq(sympy.sqrt(x), y))
    assert w.status is Status.REFUTED and w.witness.values["y"] != 2


def test_a_root_in_a_piecewise_branch_is_defined_only_where_that_branch_is_taken():
    # the signed square root is defined at every real x: its branches' roots restricted the query to x = 0
    signed = sympy.Piecewise((sympy.sqrt(x), x >= 0), (-sympy.sqrt(-x), True))
    assert ex({"c": [sympy.Eq(signed, -1)]}).status is not Status.REFUTED  # x = -1 is a witness
    assert imp({}, signed >= 0).status is not Status.PROVED  # false at x = -1
    # twin: a true bound on the unsigned version is still proved
    unsigned = sympy.Piecewise((sympy.sqrt(x), x >= 0), (sympy.sqrt(-x), True))
    assert imp({}, unsigned >= 0).status is Status.PROVED


def test_an_identity_with_a_python_number_as_a_side_reaches_z3_like_a_sympy_number():
    k = sympy.Symbol("k", integer=True)
    # Max(k, 0) = 0 for the integers with k**2 < 1 (only k = 0): no test point satisfies the condition,
    # and the side 0 (a Python int) kept the claim from z3
    v = ident(sympy.Max(k, 0), 0, conditions=[k**2 < 1])
    assert v.status is Status.PROVED and "only where the conditions hold (k**2 < 1)" in v.scope
    # twin: with k**2 < 2, k = 1 is a counterexample
    w = ident(sympy.Max(k, 0), 0, conditions=[k**2 < 2])
    assert w.status is Status.REFUTED and w.witness.values["k"] == 1


def test_a_node_claim_that_divides_by_a_weight_difference_is_unknown_never_an_error():
    from symcal import Local, node_implies

    def node(fn):
        return check(node_implies("mine2026.n", hypotheses={}, conclusion=Local(2, fn, "f"), cite=C, sizes=(3, 3)))

    # 1 / d_12 is undefined at a tie: the candidate a = 0 is no counterexample (it was a ZeroDivisionError)
    v = node(lambda a, i, j: 1 / a.d(i, j) > 0)
    assert v.status is Status.UNKNOWN
    # twin: without the division the false claim is refuted at exact weights
    w = node(lambda a, i, j: a.d(i, j) > 0)
    assert w.status is Status.REFUTED and w.witness.rechecked


def test_an_identity_that_sympy_built_into_two_equal_constants_says_as_built_not_as_written():
    # x/x is built as 1: "the expressions as written (no free symbols)" would claim x/x = 1 at x = 0 too
    v = ident(x / x, 1)
    assert v.status is Status.PROVED
    assert v.scope.startswith("identity as built") and "as written" not in v.scope
    # twin: two different constants are refuted, and that scope is about the constants themselves
    w = ident(sympy.Integer(2), 3)
    assert w.status is Status.REFUTED and "as built" not in w.scope


def test_a_rational_power_of_a_negative_constant_is_real_nowhere_and_is_not_decided():
    # (-1)**(2/3) is complex in sympy; its root equation t**3 = (-1)**2 gave it the value 1, and
    # "x * (-1)**(2/3) = x for every real x" was proved, with the scope "where ... defined (False)"
    c = sympy.Rational(-1) ** sympy.Rational(2, 3)
    v = ident(x * c, x)
    assert v.status is Status.UNKNOWN and "real at no point" in v.reason
    assert imp({}, sympy.Eq(x * c, x)).status is Status.UNKNOWN
    assert ex({"c": [sympy.Eq(x * c, 2)]}).status is Status.UNKNOWN
    # twin: a rational power of a positive constant is real and decided
    d = sympy.Integer(2) ** sympy.Rational(2, 3)
    assert imp({"h": [x >= 2]}, x * d > x).status is Status.PROVED
    assert imp({"h": [x >= 0]}, x * d > x).status is Status.REFUTED


def test_a_finite_formula_undefined_at_a_case_is_undecided_there_never_proved():
    from symcal import finite_check

    a = sympy.Symbol("a", real=True)

    def formula_check(case, conditions):
        return check(finite_check("mine2026.f", cases=[case], domain="one value of a", cite=C,
                                  formula=lambda c: (conditions, {a: c})))

    # acot(1/0) is 0 to sympy, and a complex cube root of -1 is "not 5": both were proved at a = 2
    assert formula_check(2, [sympy.Eq(sympy.acot(1 / (a - 2)), 0)]).status is Status.UNKNOWN
    assert formula_check(2, [sympy.Ne((a - 3) ** sympy.Rational(1, 3), 5)]).status is Status.UNKNOWN
    # twins: where the expressions are defined the same formulas are decided
    assert formula_check(3, [sympy.Eq(sympy.acot(1 / (a - 2)), 0)]).status is Status.REFUTED
    assert formula_check(4, [sympy.Ne((a - 3) ** sympy.Rational(1, 3), 5)]).status is Status.PROVED


def test_a_numpy_truth_value_from_holds_is_read_as_a_bool_both_ways():
    import numpy as np

    from symcal import finite_check

    cite = Citation("numpy2026", "1")
    square = finite_check("numpy2026.square_nonnegative", cases=lambda m: range(5), domain="k = 0..4", cite=cite,
                          holds=lambda k: np.int64(k) ** 2 >= 0)
    assert check(square).status.value == "proved"
    above_one = finite_check("numpy2026.square_at_least_one", cases=lambda m: range(5), domain="k = 0..4",
                             cite=cite, holds=lambda k: np.int64(k) ** 2 >= 1)
    v = check(above_one)
    assert v.status.value == "refuted" and v.witness.values == {"case": "0"}
