"""Method (S): smooth convex surrogates decided exactly (symcal.calibration.smooth).

Proofs rest on checked facts only (convexity and C^1 by rules, bounded below by rules, and one
z3 query per pair); refutations carry an exact p and u re-checked with the one sign test."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symcal.calibration import check_calibration, recheck_witness, surrogates
from symcal.calibration.convexity import NotShown, analyse, bounded_below
from symcal.verdicts import Status

Z1_3 = surrogates.zero_one(3)
Z1_2 = [[0, 1], [1, 0]]
U = ["u1", "u2", "u3"]
SOFTMAX = {"dim": 3, "per_label": [f"log(exp(u1) + exp(u2) + exp(u3)) - u{y}" for y in (1, 2, 3)]}
LOGISTIC = {"dim": 1, "per_label": ["log(1 + exp(-u1))", "log(1 + exp(u1))"]}
SIGN = {"linear": [[-1], [1]]}  # prediction 1 when u1 >= 0 (the link is the argmin of B u + offset)


def ova(phi):
    return {"dim": 3, "per_label": [" + ".join(phi(U[j]) if j == y else phi("-" + U[j]) for j in range(3))
                                    for y in range(3)]}


def test_the_multinomial_logistic_loss_is_proved_calibrated_on_the_whole_simplex():
    v = check_calibration(Z1_3, SOFTMAX, "argmax", timeout=60)
    assert v.status is Status.PROVED, v.reason
    assert "(S) smooth convex" in v.scope and "whole simplex" in v.scope


def test_one_vs_all_logistic_and_squared_hinge_are_proved():
    for phi in (lambda x: f"log(1 + exp(-({x})))", lambda x: f"Max(0, 1 - ({x}))**2"):
        v = check_calibration(Z1_3, ova(phi), "argmax", timeout=60)
        assert v.status is Status.PROVED, v.reason


@pytest.mark.slow  # about 40 s: the heaviest of the (S) proofs here
def test_weston_watkins_squared_hinge_is_proved():
    per = [" + ".join(f"Max(0, 1 + u{j} - u{y})**2" for j in (1, 2, 3) if j != y) for y in (1, 2, 3)]
    v = check_calibration(Z1_3, {"dim": 3, "per_label": per}, "argmax", timeout=60)
    assert v.status is Status.PROVED, v.reason


def test_a_label_weighted_squared_loss_is_refuted_with_an_exact_interior_witness():
    # psi_y = y |u - e_y|^2: a different quadratic part per label, so (A) does not apply
    per = [f"{y + 1}*((u1 - {int(y == 0)})**2 + (u2 - {int(y == 1)})**2 + (u3 - {int(y == 2)})**2)" for y in range(3)]
    sur = {"dim": 3, "per_label": per}
    v = check_calibration(Z1_3, sur, "argmax", timeout=60)
    assert v.status is Status.REFUTED
    w = v.witness
    assert w.rechecked and "strictly inside" in w.detail
    assert recheck_witness(Z1_3, sur, "argmax", w)[0]
    bad = type(w)({**w.values, "p1": Fraction(1, 2), "p2": Fraction(1, 2)}, True, w.detail, certificate=w.certificate)
    assert not recheck_witness(Z1_3, sur, "argmax", bad)[0]


def test_logistic_with_the_sign_link_is_proved_and_with_a_shifted_threshold_refuted():
    assert check_calibration(Z1_2, LOGISTIC, SIGN, timeout=60).status is Status.PROVED
    shifted = {"linear": [[-1], [1]], "offset": [1, -1]}  # prediction 1 only when u1 >= 1
    v = check_calibration(Z1_2, LOGISTIC, shifted, timeout=60)
    assert v.status is Status.REFUTED
    assert "log" in str(v.witness.values["u1"])  # u = log(z) with z rational: exact, every exp rational
    assert recheck_witness(Z1_2, LOGISTIC, shifted, v.witness)[0]


def test_a_cost_sensitive_loss_refutes_the_plain_logistic_decoder_and_the_shifted_one_is_proved():
    cost = [[0, 3], [1, 0]]  # predicting 2 costs 3 when the label is 1: predict 1 iff p1 >= 1/4
    assert check_calibration(cost, LOGISTIC, SIGN, timeout=60).status is Status.REFUTED
    # u* = log(p1 / p2), so the right threshold is u1 >= log(1/3): not a rational offset; -1.1 < log(1/3)
    # is wrong, and so is -1 (log(1/3) = -1.0986...)
    assert check_calibration(cost, LOGISTIC, {"linear": [[-1], [1]], "offset": [-1, 1]}, timeout=60).status \
        is Status.REFUTED


def test_a_non_convex_surrogate_is_unknown_and_says_why():
    v = check_calibration(Z1_3, {"dim": 3, "per_label": ["-u1**2", "-u2**2", "-u3**2"]}, "argmax", timeout=30)
    assert v.status is Status.UNKNOWN and "not convex" in v.reason


def test_a_surrogate_no_rule_covers_is_unknown_never_treated_as_convex():
    v = check_calibration(Z1_3, {"dim": 3, "per_label": ["exp(u1**3)", "exp(u2**3)", "exp(u3**3)"]},
                          "argmax", timeout=30)
    assert v.status is Status.UNKNOWN and "not shown convex" in v.reason


def test_a_kink_blocks_a_proof_but_not_the_search_for_a_counterexample():
    # Crammer-Singer's squared hinge: Max(0, a, b)**2 has a kink where a = b > 0
    per = ["Max(0, " + ", ".join(f"1 + u{j} - u{y}" for j in (1, 2, 3) if j != y) + ")**2" for y in (1, 2, 3)]
    v = check_calibration(Z1_3, {"dim": 3, "per_label": per}, "argmax", timeout=20)
    assert v.status is not Status.PROVED and "C^1" in v.reason


@pytest.mark.parametrize("text, convex, c1", [
    ("log(exp(u1) + exp(u2)) - u1", True, True),
    ("log(1 + exp(-u1))", True, True),
    ("Max(0, 1 - u1)**2", True, True),
    ("Piecewise(((u1 - 1)**2/2, Abs(u1 - 1) <= 1), (Abs(u1 - 1) - 1/2, True))", True, True),
    ("Max(0, 1 - u1)", True, False),
    ("Max(0, u1, u2)**2", True, False),
])
def test_the_convexity_rules(text, convex, c1):
    import sympy

    u = sympy.symbols("u1 u2")
    e = sympy.sympify(text, locals={"u1": u[0], "u2": u[1]})
    shape = analyse(e, u)
    assert (shape.curvature in ("convex", "affine")) == convex and shape.c1 == c1


@pytest.mark.parametrize("text", ["u1**2 - u2**2", "u1*u2", "log(u1)", "-Max(0, u1)",
                                  "Piecewise((u1, u1 <= 0), (0, True))",
                                  "Piecewise((0, u1 < 0), (5, Eq(u1, 0)), (u1, True))"])
def test_what_the_rules_do_not_show_convex(text):
    import sympy

    u = sympy.symbols("u1 u2")
    with pytest.raises(NotShown):
        analyse(sympy.sympify(text, locals={"u1": u[0], "u2": u[1]}), u)


@pytest.mark.parametrize("text, bounded", [
    ("log(exp(u1) + exp(u2)) - u1", True), ("2*log(exp(u1) + exp(u2)) - 2*u2", True),
    ("log(exp(u1) + exp(u2))", False), ("2*log(exp(u1) + exp(u2)) - u2", False),
    ("(u1 - 1)**2 + u2", False), ("(u1 - 1)**2 + (u2 + 1)**2", True),
])
def test_bounded_below_by_rules(text, bounded):
    import sympy

    u = sympy.symbols("u1 u2")
    assert (bounded_below(sympy.sympify(text, locals={"u1": u[0], "u2": u[1]}), u) == "") == bounded


def test_a_nested_polyhedral_surrogate_is_decided_like_its_flat_form():
    # issue 24: Max(0, Abs(u1 - y) - 1/4) was unknown while Max(0, u1 - y - 1/4, y - 1/4 - u1) was proved
    loss = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    link = {"regions": [["u1 <= 3/2"], ["u1 >= 3/2", "u1 <= 5/2"], ["u1 >= 5/2"]]}
    nested = {"dim": 1, "per_label": [f"Max(0, Abs(u1 - {y}) - 1/4)" for y in (1, 2, 3)]}
    flat = {"dim": 1, "per_label": [f"Max(0, u1 - {y} - 1/4, {y} - 1/4 - u1)" for y in (1, 2, 3)]}
    a, b = check_calibration(loss, nested, link, timeout=60), check_calibration(loss, flat, link, timeout=60)
    assert a.status is b.status is Status.PROVED
    assert "(B) polyhedral" in a.scope
    # negative twin: thresholds in the wrong place refute both forms alike
    wrong = {"regions": [["u1 <= 1"], ["u1 >= 1", "u1 <= 5/2"], ["u1 >= 5/2"]]}
    assert check_calibration(loss, nested, wrong, timeout=60).status is Status.REFUTED
