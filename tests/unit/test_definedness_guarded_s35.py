"""Definedness inside Piecewise branches, and queries that range over the scope's own domain
(issue 23, item 0: "a Piecewise without a default", "an undefined expression is never decided").

Before: a requirement of a sub-expression of a Piecewise branch (``1/x`` in
``Piecewise((1/x, x > 0), (x, True))``) was required everywhere, so the scope said "where every
expression is defined (x != 0)" of an expression defined at every real x, and a claim false only
at x = 0 came back ``unknown`` (z3's counterexample x = 0 was rejected as "not defined"); and the
z3 query did not state the definedness requirements its scope names, so ``1/x > 0 => x > 0`` was
``unknown`` (z3 gives 1/0 a value).  Each case below was decided by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from symcal import Citation, Status, check, exists, identity, implies
from symcal.exact.assumptions import definedness, guarded

x = sympy.Symbol("x", real=True)
y = sympy.Symbol("y", real=True)
C = Citation("a user 2026", "p. 1")
RECIP_OR_X = sympy.Piecewise((1 / x, x > 0), (x, True))  # defined at every real x; 0 at x = 0
RECIP_OR_ONE = sympy.Piecewise((1 / x, x > 0), (x, x < 0), (1, True))  # equals it except at x = 0 (1 there)


def test_a_requirement_holds_only_where_its_branch_is_taken() -> None:
    assert definedness(RECIP_OR_X) == []
    signed_root = sympy.Piecewise((sympy.sqrt(x), x >= 0), (-sympy.sqrt(-x), True))
    assert definedness(signed_root) == []
    nested = sympy.Piecewise((sympy.Piecewise((1 / (x - 1), x > 2), (0, True)), x > 0), (sympy.log(-x), x < 0),
                             (5, True))
    assert definedness(nested) == []
    # the twins: a branch that is taken where its expression is undefined keeps its requirement
    at_zero = sympy.Piecewise((1 / x, x >= 0), (0, True))
    (req,) = definedness(at_zero)
    assert req.subs(x, 0) is sympy.false and req.subs(x, 1) is sympy.true and req.subs(x, -1) is sympy.true
    assert definedness(sympy.Piecewise((1, sympy.sqrt(x) > 1), (2, True))) == [x >= 0]  # a condition is read
    other = definedness(sympy.Piecewise((1 / x, y > 0), (0, True)))  # a guard on another symbol is kept
    assert len(other) == 1 and other[0].subs({x: 0, y: 1}) is sympy.false and other[0].subs({x: 0, y: -1})


def test_guarded_is_true_only_when_shown_for_every_real() -> None:
    assert guarded(x >= 0, (x >= 1,)) is sympy.true
    assert guarded(sympy.Ne(x, 0), (x > 0,)) is sympy.true
    assert guarded(sympy.Ne(x, 0), (x >= 0,)) is not sympy.true
    assert guarded(x > 0, ()) == (x > 0)


def test_claims_false_only_where_a_branch_is_not_taken_are_refuted() -> None:
    v = check(identity("mine2026.pw_identity", RECIP_OR_X, RECIP_OR_ONE, cite=C))
    assert v.status is Status.REFUTED and v.evidence.values == {"x": Fraction(0)}
    assert "(x != 0)" not in v.scope
    v = check(implies("mine2026.pw_eq", hypotheses={}, conclusion=sympy.Eq(RECIP_OR_X, RECIP_OR_ONE), cite=C))
    assert v.status is Status.REFUTED and v.evidence.values == {"x": Fraction(0)}
    root_or_one = sympy.Piecewise((sympy.sqrt(x), x >= 0), (1, True))
    v = check(implies("mine2026.pw_root", hypotheses={"h": root_or_one >= 0}, conclusion=x >= 0, cite=C))
    assert v.status is Status.REFUTED and v.evidence.values["x"] < 0
    v = check(exists("mine2026.pw_zero", constraints={"z": sympy.Eq(RECIP_OR_X, 0)}, cite=C))
    assert v.status is Status.WITNESSED and v.evidence.values == {"x": Fraction(0)}


def test_true_claims_stay_proved_over_the_right_domain() -> None:
    v = check(implies("mine2026.pw_nonneg", hypotheses={},
                      conclusion=sympy.Piecewise((1 / x, x > 0), (0, True)) >= 0, cite=C))
    assert v.status is Status.PROVED and v.scope == "all real values of x"
    at_zero = sympy.Piecewise((1 / x, x >= 0), (0, True))  # undefined at x = 0: the scope says where it holds
    v = check(implies("mine2026.pw_nonneg0", hypotheses={}, conclusion=at_zero >= 0, cite=C))
    assert v.status is Status.PROVED and "where every expression is defined" in v.scope
    v = check(implies("mine2026.pw_pos0", hypotheses={}, conclusion=at_zero > 0, cite=C))
    assert v.status is Status.REFUTED and v.evidence.values["x"] < 0  # never x = 0, where it is undefined
    v = check(implies("mine2026.pw_sqrt", hypotheses={"h": x >= -1},
                      conclusion=sympy.Piecewise((sympy.sqrt(x + 1), x >= 0), (x, True))
                      <= sympy.Piecewise((x + 1, x >= 0), (x, True)), cite=C))
    assert v.status is Status.PROVED and v.scope == "all real values of x"


@pytest.mark.parametrize(("hyp", "concl", "want"), [
    (1 / x > 0, x > 0, Status.PROVED),  # was unknown: z3's model x = 0 (1/0 = 1) is outside the scope's domain
    (1 / x > 0, x > 1, Status.REFUTED),
    (x / y > 1, x > y, Status.REFUTED),  # y < 0
    (1 / x > 1, x < 1, Status.PROVED),
])
def test_the_query_ranges_over_the_scope_domain(hyp: object, concl: object, want: Status) -> None:
    v = check(implies(f"mine2026.div_{want.value}_{abs(hash(str((hyp, concl)))) % 1000}", hypotheses={"h": hyp},
                      conclusion=concl, cite=C))
    assert v.status is want
    assert "where every expression is defined" in v.scope
    if want is Status.REFUTED:
        vals = {sympy.Symbol(k, real=True): val for k, val in v.evidence.values.items()}
        assert sympy.sympify(hyp).subs(vals) is sympy.true and sympy.sympify(concl).subs(vals) is sympy.false


def test_no_free_existence_outside_the_domain() -> None:
    # y/x = 0 with y = 1 has no real solution; z3 alone takes x = 0 with 1/0 = 0 (it was unknown)
    v = check(exists("mine2026.recip_zero", constraints={"z": sympy.Eq(y / x, 0), "one": sympy.Eq(y, 1)}, cite=C))
    assert v.status is Status.REFUTED
    v = check(exists("mine2026.recip_half", constraints={"z": sympy.Eq(1 / x, 2)}, cite=C))
    assert v.status is Status.WITNESSED and v.evidence.values == {"x": Fraction(1, 2)}
