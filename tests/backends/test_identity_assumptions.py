"""An identity's refutation points respect the symbols' declared assumptions.

Found while encoding Calauzenes et al.'s Square Hinge: max(0, t (1 - s)) = t max(0, 1 - s) holds
for every positive t, but the test points used to ignore ``positive=True`` and "refuted" it at
t = -2 (an exact re-check of a point outside the claim's domain proves nothing).
"""

from __future__ import annotations

import random
from fractions import Fraction

import sympy

from symcal import Citation, identity
from symcal.backends.sympy_backend import _points
from symcal.runner import check
from symcal.verdicts import Status

CITE = Citation("calauzenes2013", "test", "max(0, t s) = t max(0, s) for t > 0")


def test_a_true_identity_over_positive_symbols_is_never_refuted():
    t = sympy.Symbol("t", positive=True)
    s = sympy.Symbol("s", real=True)
    v = check(identity("calauzenes2013.test.positive_scaling", sympy.Max(0, t * s), t * sympy.Max(0, s), cite=CITE))
    assert v.status is not Status.REFUTED


def test_the_same_identity_over_real_symbols_is_refuted_at_a_negative_t():
    t, s = sympy.symbols("t s", real=True)
    v = check(identity("calauzenes2013.test.real_scaling", sympy.Max(0, t * s), t * sympy.Max(0, s), cite=CITE))
    assert v.status is Status.REFUTED and v.witness.values["t"] < 0


def test_points_follow_every_declared_assumption():
    syms = [sympy.Symbol("p", positive=True), sympy.Symbol("q", nonnegative=True, integer=True),
            sympy.Symbol("r", negative=True), sympy.Symbol("u", real=True)]
    pts = _points(syms, random.Random(1), 60)
    assert len(pts) == 60
    for pt in pts:
        p, q, r, _ = (pt[x] for x in syms)
        assert p > 0 and q >= 0 and q.denominator == 1 and r < 0
        assert all(isinstance(x, Fraction) for x in pt.values())


def test_positive_integer_symbols_get_positive_integer_points():
    w = sympy.Symbol("w", positive=True, integer=True)
    pts = _points([w], random.Random(1), 20)
    assert len(pts) == 20 and all(pt[w] >= 1 and pt[w].denominator == 1 for pt in pts)
