"""residual_excludes_zero decides closed expressions with e and rationals rigorously
(the engine fix made for Uematsu & Lee 2013's exp-valued refutations)."""

import sympy

from symcal.backends.sympy_backend import residual_excludes_zero


def test_e_minus_its_inverse_is_certainly_nonzero():
    assert residual_excludes_zero(sympy.exp(1) - sympy.exp(-1)) is True


def test_exp_of_a_rational_minus_one_is_certainly_nonzero_and_an_exact_zero_is_zero():
    assert residual_excludes_zero(sympy.exp(sympy.Rational(1, 3)) - 1) is True
    assert residual_excludes_zero(sympy.exp(sympy.Rational(1, 3)) - sympy.exp(sympy.Rational(2, 6))) is False


def test_a_tiny_but_nonzero_residual_is_decided_and_a_hidden_zero_is_not_called_nonzero():
    assert residual_excludes_zero(sympy.exp(sympy.Rational(1, 10**12)) - 1) is True
    hidden_zero = sympy.log(sympy.exp(sympy.Rational(1, 7))) - sympy.Rational(1, 7)
    assert residual_excludes_zero(sympy.Add(hidden_zero, 0, evaluate=False)) is not True
