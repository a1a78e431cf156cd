"""Rational witnesses from algebraic models (issue 12, item 2): when z3's model is algebraic and
no rounding of it satisfies the query, pinning the variables to nearby rationals one at a time
finds a rational model, which the caller re-checks exactly."""

from __future__ import annotations

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
