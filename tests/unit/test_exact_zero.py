"""symcal.exact.sign, the one sign / zero test: 0 only for a formal zero, +-1 only by exact
evaluation or a rigorous enclosure, None (never a guess) otherwise -- each positive case with
its negative twin, and every call bounded in time."""

import time
from fractions import Fraction as F

import pytest
import sympy
from sympy import Rational as R
from sympy import cos, exp, log, pi, sqrt

from symcal.backends.sympy_backend import residual_excludes_zero
from symcal.errors import InvalidInput
from symcal.exact import Sign, check_size, normal_form, sign, zero_test
from symcal.exact.intervals import enclosure
from tests.common.timing import within

TINY = R(1, 10**120)
A = sympy.Integer(10) ** 200


def timed_sign(expr, limit=10.0, **kw):
    t = time.monotonic()
    s = sign(expr, **kw)
    assert time.monotonic() - t < within(limit), f"sign({expr}) took too long"
    return s


# --- formal zeros, each with a twin that is shown non-zero -----------------------------


def test_a_denestable_radical_is_formally_zero_and_its_nudge_is_positive():
    s = timed_sign(sqrt(3 + 2 * sqrt(2)) - 1 - sqrt(2))
    assert s.value == 0 and "annihilating polynomial" in s.reason
    nudged = timed_sign(sqrt(3 + 2 * sqrt(2)) - 1 - sqrt(2) + R(1, 10**300))
    assert nudged.value == 1


def test_logs_over_a_coprime_base_cancel_and_a_tiny_remainder_is_shown():
    assert timed_sign(log(6) - log(2) - log(3)).value == 0
    assert timed_sign(log(4) - 2 * log(2)).value == 0
    assert timed_sign(log(12) + log(18) - 3 * log(6)).value == 0  # base {2, 3} found by gcds
    assert timed_sign(log(6) - log(2) - log(3) - R(1, 10**200)).value == -1
    s = timed_sign(log(4) - 2 * log(2) + R(1, 10**300) * log(3))
    assert s.value == 1 and "Baker" in s.reason


def test_exps_of_rationals_combine_formally_and_differ_by_lindemann_weierstrass():
    assert timed_sign(exp(R(1, 3)) * exp(R(2, 3)) - sympy.E).value == 0
    s = timed_sign(exp(R(1, 3)) * exp(R(2, 3)) - sympy.E + exp(-R(1, 10**150)) - 1)
    assert s.value == -1 and "Lindemann" in s.reason


def test_a_symbolic_identity_is_zero_identically_and_a_non_identity_is_nonzero_at_a_point():
    t1, t2 = sympy.symbols("t1 t2", real=True)
    assert zero_test(exp(t1 - t2) * exp(t2) - exp(t1)).zero is True
    x = sympy.Symbol("x", positive=True)
    z = zero_test(x**2 - x)
    assert z.zero is False and "non-zero at x=" in z.reason


# --- non-zeros that floating point and 200-bit enclosures miss ---------------------------


def test_a_log_times_ten_to_the_minus_120_is_positive_and_its_negation_negative():
    assert timed_sign(TINY * log(6)).value == 1
    assert timed_sign(-TINY * log(6)).value == -1
    lo, hi = enclosure(TINY * log(6), precision=128)
    assert lo > 0 and hi < 2 * TINY


def test_the_reported_residual_of_about_7e200_is_positive_and_without_the_plus_one_it_is_zero():
    t = 1 + sqrt(2)
    s = sqrt(3 + 2 * sqrt(2))
    residual = 3 * A * t * (A * s + 1) - (2 * A * t * 2 * A * t - A * s * A * t)  # c14 c23 - (c13 c24 - c12 c34)
    got = timed_sign(residual)
    assert got.value == 1 and "excludes 0" in got.reason
    lo, hi = enclosure(sympy.expand(residual), precision=4096)
    assert 7 * A < lo and hi < F(73, 10) * int(A)
    twin = 3 * A * t * (A * s) - (2 * A * t * 2 * A * t - A * s * A * t)
    assert timed_sign(twin).value == 0


def test_costs_that_are_negative_by_ten_to_the_minus_150_are_negative():
    for e in (exp(-R(1, 10**150)) - 1, sqrt(2) - sqrt(2 + R(1, 10**150)), log(R(3, 2)) - log(R(3, 2) + R(1, 10**150))):
        assert timed_sign(e).value == -1, e
        assert timed_sign(-e).value == 1, e


# --- undecided: None with a reason, never a guess -------------------------------------------


def test_a_tower_of_exponentials_is_undecided_quickly_but_a_small_one_is_decided():
    s = timed_sign(exp(exp(exp(exp(10)))) - 1, limit=5)
    assert s.value is None and s.nonzero is None and "exp of an argument" in s.reason
    assert timed_sign(exp(exp(2)) - 1).value == 1


def test_a_zero_that_is_not_formal_is_undecided_not_called_zero_or_nonzero():
    hidden = cos(2 * pi / 7) + cos(4 * pi / 7) + cos(6 * pi / 7) + R(1, 2)  # = 0 (roots of unity)
    s = timed_sign(hidden, limit=20)
    assert s.value is None and s.nonzero is None
    assert residual_excludes_zero(hidden) is None
    assert timed_sign(hidden + TINY).value == 1  # its twin: visibly positive


def test_sympy_simplify_is_the_last_formal_step_of_the_one_zero_test():
    hidden = log(1 + sqrt(2)) + log(sqrt(2) - 1)  # log((sqrt 2 + 1)(sqrt 2 - 1)) = log 1 = 0
    s = timed_sign(hidden, limit=20)
    assert s.value == 0 and "simplify" in s.reason
    assert timed_sign(hidden + TINY).value == 1


def test_a_passed_deadline_gives_up_and_a_generous_one_decides():
    s = sign(sqrt(3 + 2 * sqrt(2)) - 1 - sqrt(2), deadline=time.monotonic() - 1)
    assert s.value is None and "gave up" in s.reason
    assert sign(sqrt(3 + 2 * sqrt(2)) - 1 - sqrt(2), deadline=time.monotonic() + 30).value == 0


def test_absurd_sizes_are_refused_naming_the_parameter_and_a_large_but_sane_power_is_fine():
    huge = sympy.Pow(sympy.Pow(2, 9999, evaluate=False), 9999, evaluate=False)
    with pytest.raises(InvalidInput, match="expr="):
        sign(huge)
    with pytest.raises(InvalidInput, match="c_12"):
        check_size(huge, "c_12")
    assert sign(sympy.Pow(2, 9999, evaluate=False) - 1).value == 1


# --- the old entry point delegates, and small guarantees --------------------------------------


def test_residual_excludes_zero_keeps_its_meaning_true_false_none():
    assert residual_excludes_zero(TINY * log(6)) is True
    assert residual_excludes_zero(log(6) - log(2) - log(3)) is False
    assert residual_excludes_zero(exp(exp(exp(exp(10)))) - 1) is None


def test_floats_are_taken_at_their_exact_binary_value():
    # (sympy itself would round Float(0.1) - 1/10 to 0 when evaluating)
    assert sign(sympy.Add(sympy.Float(0.1), -R(1, 10), evaluate=False)).value == 1  # 0.1000000000000000055...
    assert sign(sympy.Add(sympy.Float(0.5), -R(1, 2), evaluate=False)).value == 0


def test_normal_form_shows_logs_over_the_coprime_base_without_giant_integers():
    nf = normal_form(1000 * log(R(3, 2)) * 1000 * log(R(3, 2)))
    assert nf.free_symbols == set() and sympy.expand(nf - 10**6 * (log(3) - log(2)) ** 2) == 0
    assert normal_form(log(6) - log(2) - log(3)) == 0


def test_a_sign_must_be_minus_one_zero_one_or_none():
    with pytest.raises(ValueError):
        Sign(2, "no")
    assert Sign(None, "unknown", True).is_zero is False and Sign(0, "zero").is_zero is True


def test_a_quotient_gets_the_sign_of_its_value_not_of_its_numerator():
    assert sign(1 / (log(2) - log(3))).value == -1
    assert sign(1 / (log(3) - log(2))).value == 1
    assert sign(1 / (exp(R(1, 3)) - exp(R(1, 2)))).value == -1
    assert sign((log(6) - log(2) - log(3)) / log(5)).value == 0


def test_non_ascii_digits_are_refused_and_ascii_ones_read():
    from symcal.errors import InvalidInput
    from symcal.exact import to_fraction

    for text in ("٣", "３", "3/٤"):
        with pytest.raises(InvalidInput, match="ASCII digits"):
            to_fraction(text, "weight")
    assert to_fraction("3/4", "weight") == F(3, 4)


def test_truth_decides_closed_relations_and_their_connectives_through_sign():
    from symcal.exact import truth

    x = sympy.Symbol("x")
    assert truth(sympy.sqrt(2) + sympy.sqrt(3) > sympy.sqrt(5 + 2 * sympy.sqrt(6)) - R(1, 10**30)) is True
    assert truth(sympy.Eq(sympy.sqrt(2) * sympy.sqrt(3), sympy.sqrt(6))) is True
    assert truth(sympy.And(sympy.sqrt(2) < 1, x > 0)) is False  # one false part decides an And
    assert truth(sympy.And(sympy.sqrt(2) > 1, x > 0)) is None  # ... an undecided part leaves it open
    hidden = cos(2 * pi / 7) + cos(4 * pi / 7) + cos(6 * pi / 7) + R(1, 2)
    assert truth(hidden >= 0) is None and truth(sympy.Ne(hidden, 0)) is None  # never a guess


def test_real_roots_of_polynomials_are_algebraic_numbers_for_the_zero_test():
    # z3's algebraic models reach the re-check as CRootOf (issue 12, item 2): zero is proved by
    # an annihilating polynomial and Cauchy's bound, non-zero by a rigorous enclosure of the root
    t = sympy.Symbol("t")
    c = sympy.CRootOf(sympy.Poly([7, 10, -11, 2], t), 2)  # ~0.52610 (Xia et al.'s constant c)
    z = sympy.CRootOf(sympy.Poly([2, 9, 7, -2], t), 2)  # ~0.22028
    stationary = -10 * c - 11 * z * c - 3 * z**2 * c - z**2 + 3 * z + 6  # 0 at (c, z), exactly
    assert sign(stationary).value == 0
    assert sign(stationary + sympy.Rational(1, 10**30)).value == 1
    assert sign(7 * c**3 + 10 * c**2 - 11 * c + 2).value == 0
    assert sign(c - sympy.Rational(1, 2)).value == 1 and sign(z - sympy.Rational(1, 4)).value == -1
    from symcal.exact import truth

    assert truth(z < c) is True


def test_an_algebraic_counterexample_refutes_an_implication_exactly():
    from symcal import Citation, implies
    from symcal.runner import check
    from symcal.verdicts import Status

    x = sympy.Symbol("x", real=True)
    c = implies("test2026.cube_root", hypotheses={"cube": [sympy.Eq(x**3, 2)]}, conclusion=x < 1,
                cite=Citation("test2026", "eq. 1", "x^3 = 2 => x < 1"))
    v = check(c)
    assert v.status is Status.REFUTED and v.witness.rechecked
    assert sympy.minimal_polynomial(v.witness.values["x"], x) == x**3 - 2
    assert "algebraic arithmetic: x ~ 1.2599" in v.witness.detail
