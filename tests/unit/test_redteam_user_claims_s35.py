"""Red team of a user's own claims (session 35, helper 47): conditions and connectives that are
undefined at a point, and scopes of identities sympy built into one expression.  Each case was
decided by hand (exact arithmetic); each test is a false verdict or a misstated scope that was
found and fixed, with its negative twin."""

from __future__ import annotations

from fractions import Fraction

import sympy
from sympy import Eq, Ne, Piecewise, log, sqrt

from symcal import Citation, Status, check, finite_check, identity
from symcal.exact.assumptions import definedness

C = Citation("mine2026", "p. 1")
x = sympy.Symbol("x", real=True)
a = sympy.Symbol("a", real=True)


def ident(lhs: object, rhs: object, conditions: object = ()) -> object:
    return check(identity("mine2026.i", lhs, rhs, conditions=conditions, cite=C))


def formula_at(case: object, conditions: list[object]) -> object:
    return check(finite_check("mine2026.f", cases=[case], domain="one value of a", cite=C,
                              formula=lambda c: (conditions, {a: c})))


def test_an_identity_is_never_refuted_where_one_of_its_conditions_is_undefined() -> None:
    # x = 2 wherever x = 1 and 1/(x - 1) != 5: no real x satisfies both (1/(x - 1) is undefined at
    # x = 1), so the identity holds vacuously; sympy reads Ne(zoo, 5) as True, and the test point
    # x = 1 refuted it (lhs - rhs = -1); the same with a root, a log and a taken Piecewise branch
    for undefined_at_one in (Ne(1 / (x - 1), 5), Ne(sqrt(x - 2), 5), Ne(log(x - 1), 5),
                             Ne(Piecewise((1 / (x - 1), x > 0), (0, True)), 5)):
        v = ident(x, 2, conditions=[Eq(x, 1), undefined_at_one])
        assert v.status is not Status.REFUTED, undefined_at_one
    # a condition sympy built as True (1/(x - 1) is never 0, so Ne(1/(x - 1), 0) arrives as True) restricts
    # nothing: refuted at x = 1 as built, and the scope says so (it said "identity for all real values of x")
    b = ident(x, 2, conditions=[Eq(x, 1), Ne(1 / (x - 1), 0)])
    assert b.status is Status.REFUTED and "a condition as built: True" in b.scope
    # twin: a condition defined at x = 1 (the Piecewise branch with 1/(x - 1) is not taken there) refutes it
    w = ident(x, 2, conditions=[Eq(x, 1), Ne(Piecewise((1 / (x - 1), x > 1), (0, True)), 5)])
    assert w.status is Status.REFUTED and w.evidence.values == {"x": Fraction(1)} and "as built" not in w.scope


def test_a_finite_formula_with_an_undefined_operand_of_a_connective_is_undecided() -> None:
    # And(a > 0, 1/a > 0) and Or(a >= 0, 1/a > 0) at a = 0 divide by zero; the compiled rational
    # evaluator short-circuited them to False (refuted) and True (proved)
    assert formula_at(0, [sympy.And(a > 0, 1 / a > 0)]).status is Status.UNKNOWN
    assert formula_at(0, [sympy.Or(a >= 0, 1 / a > 0)]).status is Status.UNKNOWN
    # an undefined case does not hide a failing one after it, nor make the claim hold
    v = check(finite_check("mine2026.f2", cases=[0, -1], domain="a in {0, -1}", cite=C,
                           formula=lambda c: ([sympy.And(a > 0, 1 / a > 0)], {a: c})))
    assert v.status is Status.REFUTED and v.evidence.values == {"case": "-1"}
    u = check(finite_check("mine2026.f3", cases=[0, 1], domain="a in {0, 1}", cite=C,
                           formula=lambda c: ([sympy.Or(a >= 0, 1 / a > 0)], {a: c})))
    assert u.status is Status.UNKNOWN and "case 1" in u.reason
    # twins: where every operand is defined the connectives are decided
    assert formula_at(-1, [sympy.And(a > 0, 1 / a > 0)]).status is Status.REFUTED
    assert formula_at(1, [sympy.Or(a >= 0, 1 / a > 0)]).status is Status.PROVED


def test_an_identity_built_into_one_partial_expression_says_where_it_is_defined() -> None:
    # (x - 1)/(x - 1)**2 = 1/(x - 1) arrives as 1/(x - 1) on both sides: the scope said "identity as
    # built: both sides are the expression 1/(x - 1)" without the point x = 1 where it is undefined
    v = ident((x - 1) / (x - 1) ** 2, 1 / (x - 1))
    assert v.status is Status.PROVED and v.scope.startswith("identity as built")
    assert "where it is defined (x != 1)" in v.scope
    # twin: an expression built total (|x|**2 arrives as x**2) names no domain
    w = ident(sympy.Abs(x) ** 2, x ** 2)
    assert w.status is Status.PROVED and "defined" not in w.scope


def test_a_piecewise_inside_a_condition_is_read_branch_by_branch() -> None:
    # sympy writes Piecewise((1/x, x > 0), (0, True)) > 1, a condition of another Piecewise, as
    # ITE(x > 0, 1/x > 1, False): its 1/x is evaluated only where x > 0, so the expression is
    # defined at every real x (the scope said "where every expression is defined (x != 0)")
    inner = Piecewise((1 / x, x > 0), (0, True))
    outer = Piecewise((1, inner > 1), (2, True))
    assert definedness(outer) == []
    assert formula_at(Fraction(1, 2), [Eq(outer.subs(x, a), 1)]).status is Status.PROVED
    assert formula_at(-1, [Eq(outer.subs(x, a), 2)]).status is Status.PROVED
    # twin: a branch taken where it is undefined keeps its requirement (1/x at x = 0)
    taken = Piecewise((1, Piecewise((1 / x, x >= 0), (0, True)) > 1), (2, True))
    (req,) = definedness(taken)
    assert req.subs(x, 0) is sympy.false and req.subs(x, 1) is sympy.true



def test_a_guard_on_the_divisor_itself_makes_a_branch_defined_in_several_symbols() -> None:
    from symcal import implies, reals

    u, w = reals("u w")
    # u/(u + w) taken only where u + w > 0 is defined at every real (u, w); the requirement
    # "u + w <= 0 or u + w != 0" was kept (two symbols) and the scope named it as a restriction
    share = Piecewise((u / (u + w), u + w > 0), (0, True))
    assert definedness(share) == []
    v = check(implies("mine2026.share", hypotheses={"h": [u >= 0, w >= 0]}, conclusion=share >= 0, cite=C))
    assert v.status is Status.PROVED and v.scope == "all real values of u, w"
    # twins: the branch taken at u + w = 0 keeps its requirement, and the point u = w = 0 refutes a strict bound
    (req,) = definedness(Piecewise((u / (u + w), u + w >= 0), (0, True)))
    assert req.subs({u: 0, w: 0}) is sympy.false and req.subs({u: 1, w: 0}) is sympy.true
    s = check(implies("mine2026.share_pos", hypotheses={"h": [u >= 0, w >= 0]}, conclusion=share > 0, cite=C))
    assert s.status is Status.REFUTED and s.evidence.values == {"u": Fraction(0), "w": Fraction(0)}

def test_a_local_that_gives_sympy_true_for_an_unconstrained_tuple_is_decided_not_an_error() -> None:
    from symcal import Local, node_implies

    # node 1 beats every other node => node 1's net score is >= 0 (true at every m); the functions
    # give sympy.true for the tuples they do not constrain: proved at m = 2, then the vacuity query
    # handed sympy.true to z3 (Z3Exception) and the verdict was an error
    beats = Local(2, lambda a, i, j: a.d(i, j) > 0 if i == 1 else sympy.true)
    net = Local(1, lambda a, i: a.sum(lambda j: a.d(i, j)) >= 0 if i == 1 else sympy.true)
    v = check(node_implies("mine2026.n", hypotheses={"one": beats}, conclusion=net, cite=C, sizes=(2, 4)))
    assert v.status is Status.PROVED and not v.warnings
    # twin: a hypothesis sympy.false everywhere else is proved vacuously, and flagged
    never = Local(2, lambda a, i, j: a.d(i, j) > 0 if i == 1 else sympy.false)
    w = check(node_implies("mine2026.n", hypotheses={"one": never}, conclusion=net, cite=C, sizes=(2, 4)))
    assert w.status is Status.PROVED and any("vacuous" in x for x in w.warnings)
