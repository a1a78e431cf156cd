"""Claims a new user writes with the README's constructors, of known truth, that symcal once decided
wrongly or scoped too widely; each test has a negative twin (the neighbouring claim that must still be
decided the other way, or accepted).

Found by a red team of user claims: integer division in the z3 translation (1/n <= 0 proved for n >= 2),
two different sympy symbols with one name merged into one solver variable, a square root's auxiliary
variable named like a user's symbol, a finite check whose ``holds`` returned a truthy list, partial
functions (gamma, tan, asin, factorial) scoped "for all real values", an ``irrational=True`` symbol
(sympy builds ``Eq(v**2, 2)`` as False for it), and an existence refuted on a constraint sympy built as
False without saying so.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from sympy import Eq, Rational, Symbol, gamma, sqrt

from symcal import (
    Citation,
    InvalidClaim,
    InvalidInput,
    bounded_inequality,
    exists,
    finite_check,
    identity,
    implies,
    implies_cases,
    reals,
)
from symcal.backends import Budget, decide
from symcal.backends.smt_claims import FALSE_CONSTRAINT_SCOPE
from symcal.verdicts import Status

CITE = Citation("user2026", "a user's own claims")
n = Symbol("n", integer=True)
k = Symbol("k", integer=True)
x, y = reals("x y")


def run(claim, seconds: float = 20.0):
    return decide(claim, None, Budget(seconds))


# --- integer symbols: division is real division -----------------------------------------------------


def test_one_over_an_integer_at_least_two_is_not_proved_non_positive():
    out = run(implies("user2026.int_div", hypotheses={"h": [n >= 2]}, conclusion=1 / n <= 0, cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values == {"n": Fraction(2)}


def test_one_over_an_integer_at_least_two_is_proved_positive():
    out = run(implies("user2026.int_div_pos", hypotheses={"h": [n >= 2]}, conclusion=1 / n > 0, cite=CITE))
    assert out.status is Status.PROVED and "integer values of n" in out.scope


def test_a_ratio_of_integers_below_one_is_not_proved_zero():
    out = run(implies("user2026.int_ratio", hypotheses={"h": [n >= 2, k >= 1, k < n]}, conclusion=Eq(k / n, 0),
                      cite=CITE))
    assert out.status is Status.REFUTED


def test_a_ratio_of_integers_below_one_is_proved_below_one():
    out = run(implies("user2026.int_ratio_below", hypotheses={"h": [n >= 2, k >= 1, k < n]}, conclusion=k / n < 1,
                      cite=CITE))
    assert out.status is Status.PROVED


def test_a_bounded_inequality_over_an_integer_box_divides_exactly():
    out = run(bounded_inequality("user2026.int_box", 1 / n, "<=", 0, box={n: (2, 5)}, cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values == {"n": Fraction(2)}


def test_a_true_bounded_inequality_over_an_integer_box_is_proved():
    out = run(bounded_inequality("user2026.int_box_true", 1 / n, "<=", Rational(1, 2), box={n: (2, 5)}, cite=CITE))
    assert out.status is Status.PROVED


# --- one name, one variable ----------------------------------------------------------------------------

X_REAL, X_POSITIVE, X_PLAIN = Symbol("x", real=True), Symbol("x", positive=True), Symbol("x")


@pytest.mark.parametrize("make", [
    lambda: implies("user2026.clash1", hypotheses={"h": [X_REAL < 0]}, conclusion=X_POSITIVE > 5, cite=CITE),
    lambda: implies("user2026.clash2", hypotheses={}, conclusion=Eq(X_REAL, X_PLAIN), cite=CITE),
    lambda: exists("user2026.clash3", constraints={"h": [X_REAL > 0], "g": [X_PLAIN < 0]}, cite=CITE),
    lambda: identity("user2026.clash4", X_REAL, X_PLAIN, cite=CITE),
    lambda: bounded_inequality("user2026.clash5", X_REAL, "<=", X_PLAIN, box={X_REAL: (0, 1), X_PLAIN: (0, 1)},
                               cite=CITE),
    lambda: implies_cases("user2026.clash6", cases=[("a", {"h": [X_REAL > 0]}, X_PLAIN > 0)], cite=CITE),
])
def test_two_different_symbols_with_one_name_are_refused_in_one_line(make):
    with pytest.raises(InvalidClaim) as e:
        make()
    assert "two different symbols are named 'x'" in str(e.value) and "\n" not in str(e.value)


def test_one_symbol_used_throughout_a_claim_is_accepted_and_decided():
    out = run(implies("user2026.one_x", hypotheses={"h": [X_REAL < 0]}, conclusion=X_REAL < 5, cite=CITE))
    assert out.status is Status.PROVED


def test_two_dummies_with_one_name_are_refused_when_decided():
    d1, d2 = sympy.Dummy("u", real=True), sympy.Dummy("u", real=True)
    claim = implies("user2026.dummies", hypotheses={"h": lambda m: [d1 > 0]}, conclusion=lambda m: d2 > 0,
                    sizes=(1, 1), cite=CITE)
    with pytest.raises(InvalidClaim, match="two different symbols are named '_u'"):
        decide(claim, 1, Budget(5))


def test_one_dummy_used_throughout_is_decided():
    d = sympy.Dummy("u", real=True)
    claim = implies("user2026.dummy", hypotheses={"h": lambda m: [d > m]}, conclusion=lambda m: d > 0,
                    sizes=(1, 1), cite=CITE)
    assert decide(claim, 1, Budget(5)).status is Status.PROVED


def test_a_symbol_named_like_an_undefined_function_is_refused():
    phi = sympy.Function("phi")
    with pytest.raises(InvalidClaim, match="a symbol and a function are both named 'phi'"):
        identity("user2026.phi_clash", phi(x), Symbol("phi", real=True), cite=CITE)


def test_an_undefined_function_beside_differently_named_symbols_is_decided():
    phi = sympy.Function("phi")
    out = run(identity("user2026.phi", phi(x), Symbol("c", real=True), cite=CITE))
    assert out.status is Status.REFUTED and "phi" in out.evidence.values and "c" in out.evidence.values


def test_a_square_root_variable_is_never_a_users_symbol_of_the_same_name():
    t = Symbol("sqrt_aux_0", real=True)  # sqrt(y) >= t fails at y = 0, t = 1
    out = run(bounded_inequality("user2026.aux_name", sqrt(y), ">=", t, box={y: (0, 1), t: (0, 1)}, cite=CITE))
    assert out.status is Status.REFUTED


def test_a_true_square_root_bound_beside_such_a_symbol_is_proved():
    t = Symbol("sqrt_aux_0", real=True)
    out = run(bounded_inequality("user2026.aux_name_true", sqrt(y) + 1, ">=", t, box={y: (0, 1), t: (0, 1)},
                                 cite=CITE))
    assert out.status is Status.PROVED


# --- a finite check's holds gives a truth value ------------------------------------------------------


@pytest.mark.parametrize("value", [[False], "no", sympy.Integer(1), x > 1, 0.5])
def test_holds_returning_anything_but_a_truth_value_is_an_error_not_a_pass(value):
    claim = finite_check("user2026.holds_list", cases=[1, 2, 3], holds=lambda c: value, domain="1..3", cite=CITE)
    with pytest.raises(InvalidInput, match="holds=.*expected True, False or None"):
        run(claim)


@pytest.mark.parametrize("value, status", [(True, Status.PROVED), (False, Status.REFUTED),
                                           (sympy.false, Status.REFUTED), ((True, "fine"), Status.PROVED),
                                           (1, Status.PROVED)])
def test_holds_returning_a_truth_value_is_decided(value, status):
    claim = finite_check("user2026.holds_bool", cases=[1, 2, 3], holds=lambda c: value, domain="1..3", cite=CITE)
    assert run(claim).status is status


# --- partial functions: a scope never says "all real values" of them ----------------------------------


@pytest.mark.parametrize("lhs, rhs, where", [
    (gamma(x + 1), x * gamma(x), "x not an integer"),
    (sympy.cot(x) * sympy.tan(x), 1, "sin(x) != 0"),
    (sympy.factorial(n), gamma(n + 1), "n > -1"),
])
def test_an_identity_of_partial_functions_is_scoped_where_both_sides_are_defined(lhs, rhs, where):
    out = run(identity("user2026.partial", lhs, rhs, cite=CITE))
    assert out.status is Status.PROVED and "where both sides are defined" in out.scope and where in out.scope


def test_an_identity_of_total_functions_is_scoped_for_all_real_values():
    out = run(identity("user2026.total", sympy.sin(x)**2 + sympy.cos(x)**2, 1, cite=CITE))
    assert out.status is Status.PROVED and out.scope == "identity for all real values of x"


def test_an_arcsine_identity_names_its_domain():
    out = run(identity("user2026.asin", sympy.asin(x) + sympy.acos(x), sympy.pi / 2, cite=CITE), seconds=5)
    assert out.status is not Status.REFUTED and "x <= 1" in out.scope and "x >= -1" in out.scope


# --- assumptions sympy reasons about wrongly are refused ---------------------------------------------


@pytest.mark.parametrize("assumption", [{"irrational": True}, {"real": True, "rational": False}])
def test_an_irrational_symbol_is_refused_because_sympy_mis_evaluates_its_powers(assumption):
    v = Symbol("v", **assumption)
    with pytest.raises(InvalidClaim, match="sympy derives false facts"):
        implies("user2026.irrational", hypotheses={"h": [v > 1, v < 2]}, conclusion=v**3 > 1, cite=CITE)


def test_a_rational_symbol_is_still_accepted():
    q = Symbol("q", rational=True)
    out = run(implies("user2026.rational", hypotheses={"h": [q > 1, q < 2]}, conclusion=q**3 > 1, cite=CITE))
    assert out.status is Status.PROVED


def test_an_existence_refuted_on_a_constraint_sympy_built_as_false_says_so():
    e = Symbol("e", even=True)
    out = run(exists("user2026.even_three", constraints={"h": [Eq(e, 3)]}, cite=CITE))
    assert out.status is Status.REFUTED and FALSE_CONSTRAINT_SCOPE in out.scope


def test_an_existence_refuted_by_the_solver_has_no_such_note():
    out = run(exists("user2026.square_negative", constraints={"h": [x > y, y > x]}, cite=CITE))
    assert out.status is Status.REFUTED and FALSE_CONSTRAINT_SCOPE not in out.scope


def test_a_conclusion_given_as_a_list_is_refused_with_the_conjunction_to_write():
    with pytest.raises(InvalidInput, match=r"conclusion=.*sympy.And\(\*conditions\)"):
        implies("user2026.list_conclusion", hypotheses={"h": [x > 1]}, conclusion=[x > 0, x < 0], cite=CITE)


def test_the_same_conclusion_as_a_conjunction_is_refuted():
    out = run(implies("user2026.and_conclusion", hypotheses={"h": [x > 1]}, conclusion=sympy.And(x > 0, x < 0),
                      cite=CITE))
    assert out.status is Status.REFUTED
