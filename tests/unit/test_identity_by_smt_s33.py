"""An identity that is zero without being formally zero -- Min, Max, Abs, Piecewise -- is decided
by z3 as the implication "conditions => lhs = rhs" after the residual test leaves it undecided:
proved for every real value (or only where the conditions hold, and the scope says so), refuted
only at a point re-checked exactly on the claim's own sides, unknown where a side is undefined
or a function is one z3 cannot read."""

import sympy

from symcal import Citation, check, identity, reals
from symcal.verdicts import Status

C = Citation("mine2026", "p. 1")
x, y = reals("x y")


def decide(lhs, rhs, conditions=(), certify=False):
    return check(identity("mine2026.i", lhs, rhs, conditions=conditions, cite=C), certify=certify)


def test_max_plus_min_is_the_sum_for_every_real_pair_and_the_proof_is_kernel_checked():
    v = decide(sympy.Max(x, y) + sympy.Min(x, y), x + y, certify=True)
    assert v.status is Status.PROVED and v.backend == "z3"
    assert v.scope == "identity for all real values of x, y"
    assert v.certificate.checked and v.certificate.kind == "farkas"
    # its twin: max minus min is not the sum; the counterexample is re-checked on the sides themselves
    w = decide(sympy.Max(x, y) - sympy.Min(x, y), x + y)
    assert w.status is Status.REFUTED and w.witness.rechecked
    at = {sympy.Symbol(k, real=True): sympy.Rational(v.numerator, v.denominator) for k, v in w.witness.values.items()}
    assert (sympy.Max(x, y) - sympy.Min(x, y)).subs(at) != (x + y).subs(at)


def test_abs_is_the_larger_of_x_and_minus_x_and_a_piecewise_with_a_default_is_max():
    assert decide(sympy.Abs(x), sympy.Max(x, -x)).status is Status.PROVED
    assert decide(sympy.Piecewise((x, x > 0), (0, True)), sympy.Max(x, 0)).status is Status.PROVED
    # twin: the triangle inequality is no identity (sympy's points or z3 refute it)
    assert decide(sympy.Abs(x + y), sympy.Abs(x) + sympy.Abs(y)).status is Status.REFUTED


def test_under_conditions_the_proof_covers_only_where_they_hold_and_says_so():
    v = decide(sympy.Abs(x), x, conditions=[x > 0])
    assert v.status is Status.PROVED
    assert "only where the conditions hold (x > 0)" in v.scope
    # twin: a condition that lets x be negative gives a counterexample inside it
    w = decide(sympy.Abs(x), x, conditions=[x > -1])
    assert w.status is Status.REFUTED and -1 < w.witness.values["x"] < 0


def test_a_piecewise_without_a_default_and_an_exponential_stay_unknown_with_both_reasons():
    v = decide(sympy.Piecewise((x, x > 0)), sympy.Max(x, 0))
    assert v.status is Status.UNKNOWN
    assert "not formally zero" in v.reason and "z3 on the implication" in v.reason
    w = decide(sympy.exp(sympy.Max(x, 0)), sympy.Max(sympy.exp(x), 1))
    assert w.status is Status.UNKNOWN
    # twin: the same exponential identity with Max on both sides as built is one expression
    assert decide(sympy.exp(sympy.Max(x, 0)), sympy.exp(sympy.Max(0, x))).status is Status.PROVED


def test_a_division_keeps_its_definedness_in_the_scope():
    v = decide(sympy.Max(x, 1 / x), x, conditions=[x >= 1])
    assert v.status is Status.PROVED and "x != 0" in v.scope and "x >= 1" in v.scope
    # twin: below 1 the reciprocal is larger
    assert decide(sympy.Max(x, 1 / x), x, conditions=[x > 0]).status is Status.REFUTED
