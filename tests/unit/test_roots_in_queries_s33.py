"""A rational power (``sqrt(x)``, ``x**(2/3)``, ``1/sqrt(x)``) in an implication or an existence
is a fresh variable t >= 0 with t**q = x**p: the query ranges exactly over where the power is
defined, which the scope states; counterexamples and witnesses are re-checked on the claim's own
expressions."""

import sympy

from symcal import Citation, check, exists, implies, reals
from symcal.verdicts import Status

C = Citation("mine2026", "p. 1")
x, y = reals("x y")


def decide(hyps, conclusion, **kw):
    return check(implies("mine2026.r", hypotheses=hyps, conclusion=conclusion, cite=C), **kw)


def test_the_root_of_a_number_at_least_one_is_at_most_the_number_and_below_one_it_is_not():
    v = decide({"h": [x >= 1]}, sympy.sqrt(x) <= x, certify=True)
    assert v.status is Status.PROVED and "(x >= 0)" in v.scope
    assert v.certificate.checked
    w = decide({"h": [x >= 0]}, sympy.sqrt(x) <= x)
    assert w.status is Status.REFUTED and w.witness.rechecked
    at = w.witness.values["x"]
    assert 0 < at < 1 and sympy.sqrt(sympy.Rational(at.numerator, at.denominator)) > sympy.Rational(at.numerator,
                                                                                                     at.denominator)


def test_the_mean_inequality_and_negative_and_fractional_powers():
    assert decide({"h": [x > 0, y > 0]}, sympy.sqrt(x * y) <= (x + y) / 2).status is Status.PROVED
    assert decide({"h": [x > 0]}, 1 / sympy.sqrt(x) > 0).status is Status.PROVED
    assert decide({"h": [x > 1]}, x ** sympy.Rational(2, 3) <= x).status is Status.PROVED
    # twins: the mean inequality reversed, and the fractional power below 1
    assert decide({"h": [x > 0, y > 0]}, sympy.sqrt(x * y) >= (x + y) / 2).status is Status.REFUTED
    assert decide({"h": [x > 0]}, x ** sympy.Rational(2, 3) <= x).status is Status.REFUTED


def test_a_root_defined_everywhere_has_no_domain_in_the_scope():
    v = decide({}, sympy.sqrt(x ** 2 + 1) >= 1)
    assert v.status is Status.PROVED and v.scope == "all real values of x"
    assert decide({}, sympy.sqrt(x ** 2 + 1) >= 2).status is Status.REFUTED


def test_an_existence_with_a_root_is_witnessed_at_a_rechecked_point_or_refuted_when_none_is_defined():
    v = check(exists("mine2026.e", constraints={"c": [sympy.sqrt(x) > 3, x < 10]}, cite=C))
    assert v.status is Status.WITNESSED and 9 < v.witness.values["x"] < 10
    # twins: no x below 9 has a root above 3, and no root is negative
    assert check(exists("mine2026.f", constraints={"c": [sympy.sqrt(x) > 3, x < 9]}, cite=C,
                        expected="refuted")).status is Status.REFUTED
    assert check(exists("mine2026.g", constraints={"c": [sympy.Eq(sympy.sqrt(x), -1)]}, cite=C,
                        expected="refuted")).status is Status.REFUTED


def test_a_root_of_high_degree_is_not_sent_to_z3_and_a_cube_root_is():
    v = decide({"h": [x > 1]}, x ** sympy.Rational(999, 1000) < x, timeout=5)
    assert v.status is Status.UNKNOWN and "degree above 12" in v.reason
    # twin: the cube root is a cubic equation, decided
    assert decide({"h": [x > 1]}, x ** sympy.Rational(1, 3) < x).status is Status.PROVED
