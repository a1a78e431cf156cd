"""Rational witnesses from algebraic models (issue 12, item 2): when z3's model is algebraic and
no rounding of it satisfies the query, pinning the variables to nearby rationals one at a time
finds a rational model, which the caller re-checks exactly."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import sympy

from symcal import Citation, Status, check, implies
from symcal.backends import z3_backend
from symcal.backends.base import Budget


def test_an_algebraic_model_is_replaced_by_a_pinned_rational_one():
    import z3

    x, z = z3.Real("x"), z3.Real("z")
    cons = [x * x == 2 * z, z >= 1]
    algebraic = {"x": Fraction(14142135623730951, 10**16), "z": Fraction(1)}  # x = sqrt(2), no rational rounding
    assert not (algebraic["x"] ** 2 == 2 * algebraic["z"])
    m = z3_backend.pinned_model(cons, [x, z], algebraic, Budget(5))
    assert m is not None
    assert m["x"] ** 2 == 2 * m["z"] and m["z"] >= 1  # exact


def test_an_isolated_irrational_point_gives_no_pinned_model():
    import z3

    x = z3.Real("x")
    cons = [x * x == 2]  # only +-sqrt(2): no rational model exists
    assert z3_backend.pinned_model(cons, [x], {"x": Fraction(14142, 10000)}, Budget(2)) is None


def test_a_refutation_through_an_algebraic_boundary_gets_an_exact_witness():
    x, z = sympy.symbols("x z", real=True)
    c = implies("mine2026.alg", hypotheses={"h": [sympy.Eq(x**2, 2 * z), z >= 1]}, conclusion=x**2 > 100,
                cite=Citation("Mine 2026", "L1"))
    v = check(c)
    assert v.status is Status.REFUTED and v.witness.rechecked
    w = v.witness.values
    assert w["x"] ** 2 == 2 * w["z"] and w["x"] ** 2 <= 100


def test_divisors_are_the_non_constant_denominators_once_each():
    import z3

    x, y = z3.Real("x"), z3.Real("y")
    assert [str(d) for d in z3_backend.divisors([x / y > 1, (x + 1) / y < 3, x / 2 > 0])] == ["y"]


def test_a_model_that_divides_by_zero_is_replaced_by_a_defined_one():
    import z3

    x, y = z3.Real("x"), z3.Real("y")
    cons = [x / y == 2, x >= 1]
    undefined = {"x": Fraction(1), "y": Fraction(0)}  # z3's division is total: x / 0 may be 2
    m = z3_backend.pinned_model(cons, [x, y], undefined, Budget(5))
    assert m is not None and m["y"] != 0 and m["x"] / m["y"] == 2 and m["x"] >= 1  # exact


def test_a_refutation_is_found_where_the_statement_is_defined():
    a, b = sympy.symbols("a b", real=True)
    # without b > 0: b = -1, a = -2 has a / b = 2 > 1 and a < b; a point with b = 0 proves nothing
    c = implies("mine2026.div", hypotheses={}, conclusion=sympy.Implies(a / b > 1, a > b),
                cite=Citation("Mine 2026", "L2"))
    v = check(c)
    assert v.status is Status.REFUTED and v.witness.rechecked
    w = v.witness.values
    assert w["b"] != 0 and w["a"] / w["b"] > 1 and not w["a"] > w["b"]
    # negative twin: with b > 0 the implication holds
    assert check(c.replace(id="mine2026.div_pos", spec=dataclasses.replace(
        c.spec, hypotheses={"pos": lambda m: [b > 0]}), hypothesis_names=("pos",))).status is Status.PROVED
