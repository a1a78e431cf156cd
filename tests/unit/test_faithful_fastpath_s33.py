"""The check that a node claim's formulas are its functions (symcal/backends/nodes.py) settles a
formula written differently from its function's z3 value by a normal form, without a query, and
spends at most FAITHFUL_SECONDS on an equivalence z3 cannot settle quickly -- and it still refuses
a formula that is not its function."""

import z3

from symcal import Citation, Implies, Local, all_sizes, check, node_implies
from symcal.backends import nodes
from symcal.verdicts import Status

C = Citation("test2026", "p. 1")


def test_the_same_comparison_written_two_ways_has_one_normal_form_and_a_different_one_not():
    a, b, c = z3.Reals("a b c")
    p = a * b - c
    assert nodes._same_normal_form(p >= 0, 0 <= p)
    assert nodes._same_normal_form(z3.Or(a - b <= 0, p >= 0), z3.Or(b >= a, 0 <= a * b - c))
    assert nodes._same_normal_form(a + b == c, c - b == a)
    # twins: a strict and a non-strict comparison, another polynomial, another connective
    assert not nodes._same_normal_form(p >= 0, p > 0)
    assert not nodes._same_normal_form(p >= 0, a * b + c >= 0)
    assert not nodes._same_normal_form(z3.Or(a >= 0, b >= 0), z3.And(a >= 0, b >= 0))


def test_a_local_lemma_that_does_not_apply_is_answered_without_spending_the_budget_on_the_check():
    pair = Local(2, lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j) * a.d(k, j)) >= 0))
    c = node_implies("test2026.nonlocal", hypotheses={}, conclusion=pair, cite=C, sizes=(3, 4))
    v = check(all_sizes(c, "test2026.nonlocal.all_m"))
    assert v.status is Status.UNKNOWN and "does not apply" in v.reason
    # the equivalence checks of its instances z3 cannot settle stop at FAITHFUL_SECONDS each (it took
    # 4 x 8 CPU-s before, a quarter of the claim's budget per size); timing lives in bench/, not here
    assert nodes.FAITHFUL_SECONDS <= 2.0


def test_a_formula_that_is_not_its_function_is_still_refused():
    # Python's == on symbolic weights is False: the formula is not the function
    c = node_implies("test2026.eq", hypotheses={"z": Local(2, lambda a, i, j: a.d(i, j) == 0)},
                     conclusion=Local(2, lambda a, i, j: a.d(i, j) > 0), cite=C, sizes=(3, 3))
    assert check(c).status is not Status.PROVED
