"""Identities over undefined functions (``phi = sympy.Function("phi")``) are claimed for every
function: a false one is refuted by a concrete polynomial in place of ``phi`` at an exact point.

Found by the mutation self-test (issue 12): 17 mutants of identities such as Duchi et al.'s
Lemma 9 shift invariance stayed undecided because a residual that applies ``phi`` is no number at
any rational point.  A true identity over ``phi`` is still proved formally, never by instances.
"""

from __future__ import annotations

import sympy

from symcal import Citation, identity
from symcal.runner import check
from symcal.verdicts import Status

CITE = Citation("duchi2010", "test", "an identity for every phi")
x, y = sympy.symbols("x y", real=True)
phi = sympy.Function("phi")
psi = sympy.Function("psi")


def test_a_false_identity_over_phi_is_refuted_with_the_function_and_the_point():
    v = check(identity("duchi2010.test.phi_swap", phi(x) - phi(y), phi(y) - phi(x), cite=CITE))
    assert v.status is Status.REFUTED
    w = v.witness
    assert w.rechecked and "Lambda" in str(w.values["phi"]) and set(w.values) == {"phi", "x", "y"}
    # re-check it here, independently: the function and the point make lhs - rhs non-zero
    lam = sympy.sympify(w.values["phi"])
    at = {x: sympy.Rational(str(w.values["x"])), y: sympy.Rational(str(w.values["y"]))}
    assert (2 * (lam(at[x]) - lam(at[y]))) != 0


def test_a_true_identity_over_phi_is_proved_formally():
    v = check(identity("duchi2010.test.phi_chain", sympy.diff(phi(x) ** 2, x), 2 * phi(x) * sympy.diff(phi(x), x),
                       cite=CITE))
    assert v.status is Status.PROVED


def test_derivatives_of_phi_are_evaluated_for_the_instance():
    v = check(identity("duchi2010.test.phi_chain_wrong", sympy.diff(phi(x) ** 2, x),
                       3 * phi(x) * sympy.diff(phi(x), x), cite=CITE))
    assert v.status is Status.REFUTED


def test_two_argument_functions_are_instantiated_asymmetrically():
    v = check(identity("duchi2010.test.psi_swap", psi(x, y), psi(y, x), cite=CITE))
    assert v.status is Status.REFUTED


def test_an_identity_that_holds_only_for_special_functions_is_refuted():
    # phi(x) = phi(-x) holds for even phi only; the identity claims it for every phi
    v = check(identity("duchi2010.test.phi_even", phi(x), phi(-x), cite=CITE))
    assert v.status is Status.REFUTED
