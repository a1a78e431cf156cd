"""Red team of a user's own claims (session 36, helper 51): floats in a finite formula's conditions and
symbols that stand as truth values, tried with the README's constructors on claims decided by hand
(exact arithmetic).  Each test is a false verdict or a raw exception that was found and fixed, with
its negative twin."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from sympy import And, Eq, Float, Not, Or, Piecewise, Rational

from symcal import Citation, Status, bounded_inequality, check, exists, finite_check, identity, implies, reals
from symcal.errors import InvalidClaim
from symcal.exact.zero import truth

C = Citation("mine2026", "p. 1")
x, = reals("x")
a = sympy.Symbol("a", real=True)
BINARY_TENTH = Rational(3602879701896397, 36028797018963968)  # the double nearest 1/10, exactly


def formula_at(case: object, conditions: list[object]) -> object:
    return check(finite_check("mine2026.f", cases=[case], domain="one value of a", cite=C,
                              formula=lambda c: (conditions, {a: c})), isolate=False)


def test_a_float_in_a_finite_formula_is_refused_like_in_every_other_claim() -> None:
    # Eq(a, 0.1) was proved at a = 1/10 and at a = the double nearest 0.1 (two different numbers both
    # "equal" to one float: sympy subtracts in doubles); implies/identity/exists refuse the float
    for case in (Fraction(1, 10), Fraction(3602879701896397, 36028797018963968)):
        v = formula_at(case, [Eq(a, Float(0.1))])
        assert v.status is Status.ERROR and "without the float" in v.reason and "Rational(1, 10)" in v.reason
    # twin: the same condition with the exact tenth is decided, both ways
    assert formula_at(Fraction(1, 10), [Eq(a, Rational(1, 10))]).status is Status.PROVED
    assert formula_at(Fraction(3602879701896397, 36028797018963968), [Eq(a, Rational(1, 10))]).status is Status.REFUTED


def test_the_exact_truth_of_a_relation_takes_a_float_at_its_binary_value_as_sign_does() -> None:
    # truth(1/10 = 0.1) was True (sympy's 1/10 - 0.1 is the double 0) and so was truth(binary 0.1 = 0.1)
    tenth, f = Rational(1, 10), Float(0.1)
    assert truth(Eq(tenth, f, evaluate=False)) is False and truth(sympy.Lt(tenth, f, evaluate=False)) is True
    # twin: the float's own binary value is equal to it, and a float that is exactly a dyadic is too
    assert truth(Eq(BINARY_TENTH, f, evaluate=False)) is True
    assert truth(Eq(Rational(1, 2), Float(0.5), evaluate=False)) is True


@pytest.mark.parametrize("make", [
    lambda b: implies("mine2026.b1", hypotheses={}, conclusion=Or(b, Not(b)), cite=C),
    lambda b: exists("mine2026.b2", constraints={"c": [And(b, x > 0)]}, cite=C),
    lambda b: implies("mine2026.b3", hypotheses={"h": [Or(b, x > 0)]}, conclusion=x > -1, cite=C),
    lambda b: identity("mine2026.b4", Piecewise((1, b), (0, True)), 1, cite=C),
    lambda b: bounded_inequality("mine2026.b5", Piecewise((x, b), (0, True)), "<=", 1, box={x: (0, 1)}, cite=C),
])
def test_a_symbol_that_stands_as_a_truth_value_is_refused_in_one_line(make) -> None:
    # Or(b, Not(b)) with a sympy Symbol b reached z3 and the verdict was an error (Z3Exception: Value
    # cannot be converted into a Z3 Boolean value)
    with pytest.raises(InvalidClaim, match="the symbol b stands as a truth value") as e:
        make(sympy.Symbol("b"))
    assert "\n" not in str(e.value)


def test_a_relation_on_that_symbol_as_a_number_is_decided() -> None:
    b = sympy.Symbol("b", real=True)
    v = check(implies("mine2026.b6", hypotheses={}, conclusion=Or(Eq(b, 1), Not(Eq(b, 1))), cite=C), isolate=False)
    assert v.status is Status.PROVED
    w = check(exists("mine2026.b7", constraints={"c": [And(Eq(b, 1), Eq(b, 2))]}, cite=C), isolate=False)
    assert w.status is Status.REFUTED


def test_an_exp_bound_on_a_wide_box_is_decided_within_its_budget_not_an_error() -> None:
    import time

    # exp(x) > x on [-10**6, 10**6] spent 110 CPU seconds against an 8 s budget (every n/d of the side
    # was built looking for tight points), and on [-10**12, 10**12] the proof's worst bound was turned
    # into a Fraction with 10**12 bits: MemoryError, an error verdict
    for width in (10**6, 10**12, 10**100):
        t = time.process_time()
        v = check(bounded_inequality("mine2026.e", sympy.exp(x), ">", x, box={x: (-width, width)}, cite=C),
                  timeout=8, isolate=False)
        assert v.status is Status.PROVED and time.process_time() - t < 8, width
    # twin: a false bound on a wide box is refuted at an exact point (exp(x) >= x**3 fails at x = 2)
    w = check(bounded_inequality("mine2026.e2", sympy.exp(x), ">=", x**3, box={x: (0, 10**6)}, cite=C),
              timeout=8, isolate=False)
    assert w.status is Status.REFUTED and w.evidence.rechecked


def test_a_conclusion_sympy_builds_as_false_is_said_so_and_its_twin_is_not():
    """Issue 23 item 0: a relation sympy evaluates to False when built (``p > p``) makes the claim "the
    hypotheses cannot all hold": proved here (they contradict each other), with the warning that says
    so; a conclusion that is not False as built carries no such warning."""
    from symcal.backends.smt_claims import FALSE_CONCLUSION, FALSE_CONCLUSION_SCOPE

    p = sympy.Symbol("p", real=True)
    v = check(implies("mine2026.false_as_built", hypotheses={"h": [p > 1, p < 0]}, conclusion=p > p,
                      cite=C, statement="p > p"))
    assert v.status is Status.PROVED and FALSE_CONCLUSION in v.warnings
    w = check(implies("mine2026.false_as_built.twin", hypotheses={"h": [p > 1]}, conclusion=p > 0,
                      cite=C, statement="p > 0"))
    assert w.status is Status.PROVED and FALSE_CONCLUSION not in w.warnings
    u = check(implies("mine2026.false_as_built.refuted", hypotheses={"h": [p > 1]}, conclusion=p > p,
                      cite=C, statement="p > p"))
    assert u.status is Status.REFUTED and FALSE_CONCLUSION_SCOPE in u.scope  # a refutation says it in its scope
