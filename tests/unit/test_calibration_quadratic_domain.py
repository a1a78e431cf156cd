"""Method (Q): strongly convex quadratic surrogates over a domain with inequalities, each case with its twin.

The binary squared loss clipped to ``u1 <= 1/2`` still predicts the right sign (proved); clipped to
``u1 >= 0`` its minimiser sits at the tie ``u1 = 0`` whenever ``p1 <= 1/2`` (refuted through the
sequence ``u + eps (c - u)``); label-weighted quadratics (Hessians that differ) are decided through
a bilinear KKT query; a Hessian that is only semidefinite falls through to ``unknown``."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from symcal.calibration import check_calibration, recheck_witness
from symcal.calibration.engine import methods
from symcal.verdicts import Status

SIGN = {"linear": [[-1], [1]]}  # predict 1 iff u1 > 0
REVERSED = {"linear": [[1], [-1]]}  # predict 1 iff u1 < 0
ZERO_ONE_2 = [[0, 1], [1, 0]]


def _squared(domain: list[str], weight: str = "1") -> dict:
    return {"dim": 1, "per_label": ["(1 - u1)**2", f"{weight}*(1 + u1)**2"], "domain": domain}


def _refuted(loss, surrogate, link, **kw):
    v = check_calibration(loss, surrogate, link, timeout=30, cross_check=False, **kw)
    assert v.status is Status.REFUTED, v.reason
    assert v.witness.certificate["method"].startswith("(Q)")
    assert recheck_witness(loss, surrogate, link, v.witness, noise=kw.get("noise")) == (True, "re-checked exactly")
    return v


def test_q_is_tried_before_the_smooth_method_which_also_takes_inequality_domains():
    names = [m.name.split()[0] for m in methods()]
    assert names.index("(Q)") < names.index("(S)") and names.count("(Q)") == 1


def test_the_squared_loss_clipped_at_one_half_is_proved_calibrated_with_a_second_opinion():
    v = check_calibration(ZERO_ONE_2, _squared(["u1 <= 1/2"]), SIGN, timeout=30)
    assert v.status is Status.PROVED, v.reason
    assert "(Q) quadratic over a polyhedral domain" in v.scope


def test_the_squared_loss_clipped_at_minus_one_half_is_refuted_inside_the_wrong_cell():
    v = _refuted(ZERO_ONE_2, _squared(["u1 <= -1/2"]), SIGN)
    assert v.witness.values["u1"] == Fraction(-1, 2) and v.witness.values["pred"] == "2"
    assert v.witness.certificate["u"].startswith("inside")


def test_the_squared_loss_clipped_at_zero_is_refuted_at_the_tie_with_the_sequence_argument():
    v = _refuted(ZERO_ONE_2, _squared(["u1 >= 0"]), SIGN)
    w = v.witness
    assert w.values["u1"] == 0 and w.values["pred"] == "1"
    assert w.certificate["u"].startswith("on the boundary (a tie)")
    assert Fraction(w.certificate["interior point c"][0]) > 0  # inside the cell of 1 and inside C


def test_the_squared_loss_clipped_at_minus_one_half_from_below_is_proved():
    v = check_calibration(ZERO_ONE_2, _squared(["u1 >= -1/2"]), SIGN, timeout=30, cross_check=False)
    assert v.status is Status.PROVED, v.reason


def test_the_clipped_squared_loss_with_the_reversed_link_is_refuted():
    v = _refuted(ZERO_ONE_2, _squared(["u1 <= 1/2"]), REVERSED)
    assert v.witness.values["pred"] == "1" and v.witness.values["optimal predictions"] == ["2"]


def test_a_tampered_witness_fails_the_exact_recheck():
    loss, sur = ZERO_ONE_2, _squared(["u1 >= 0"])
    w = check_calibration(loss, sur, SIGN, timeout=30, cross_check=False).witness
    for values, cert in (({**w.values, "u1": Fraction(1, 10)}, w.certificate),
                         (w.values, {**w.certificate, "mu": ["-1"]}),
                         (w.values, {**w.certificate, "interior point c": ["-1"]}),
                         ({**w.values, "p1": Fraction(3, 4), "p2": Fraction(1, 4)}, w.certificate)):
        ok, why = recheck_witness(loss, sur, SIGN, dataclasses.replace(w, values=values, certificate=cert))
        assert not ok, why


def test_a_hessian_that_is_only_semidefinite_is_not_taken_by_q_and_the_smooth_method_proves_it():
    # u2 appears nowhere, so the Hessian is singular and (Q) refuses; the truth: u1* = min(2 p1 - 1, 1/2) has
    # the sign of p1 - 1/2, so the surrogate is calibrated, and (S) (which takes inequality domains) proves it
    sur = {"dim": 2, "per_label": ["(1 - u1)**2", "(1 + u1)**2"], "domain": ["u1 <= 1/2"]}
    v = check_calibration(ZERO_ONE_2, sur, {"linear": [[-1, 0], [1, 0]]}, timeout=30, cross_check=False)
    assert v.status is Status.PROVED, v.reason
    assert "(S) smooth" in v.scope


def test_a_definite_hessian_on_the_same_problem_is_decided():
    sur = {"dim": 2, "per_label": ["(1 - u1)**2 + u2**2", "(1 + u1)**2 + u2**2"], "domain": ["u1 <= 1/2"]}
    v = check_calibration(ZERO_ONE_2, sur, {"linear": [[-1, 0], [1, 0]]}, timeout=30, cross_check=False)
    assert v.status is Status.PROVED, v.reason


def test_label_weights_matching_the_costs_are_proved_with_different_hessians():
    # u*(p) = (p1 - 3 p2) / (p1 + 3 p2) clipped at 1/2: its sign is that of p1 - 3 p2, the cost-sensitive rule
    v = check_calibration([[0, 1], [3, 0]], _squared(["u1 <= 1/2"], "3"), SIGN, timeout=30, cross_check=False)
    assert v.status is Status.PROVED, v.reason
    assert "bilinear" in v.scope


def test_label_weights_against_the_zero_one_loss_are_refuted_with_different_hessians():
    v = _refuted(ZERO_ONE_2, _squared(["u1 <= 1/2"], "3"), SIGN)
    p1 = v.witness.values["p1"]
    assert Fraction(1, 2) < p1 < Fraction(3, 4)


WEIGHTED = {"dim": 3, "per_label": [f"{w}*(" + " + ".join(f"(u{j + 1} - {int(j == y)})**2" for j in range(3)) + ")"
                                    for y, w in enumerate((1, 2, 3))], "domain": ["u1 + u2 + u3 <= 1/2"]}


def test_weighted_squared_losses_over_a_halfspace_are_proved_for_the_matching_costs_with_a_second_opinion():
    loss = [[0 if y == t else w for t in range(3)] for y, w in enumerate((1, 2, 3))]
    v = check_calibration(loss, WEIGHTED, "argmax", timeout=60)
    assert v.status is Status.PROVED, v.reason


def test_weighted_squared_losses_over_a_halfspace_are_refuted_for_the_zero_one_loss():
    loss = [[int(y != t) for t in range(3)] for y in range(3)]
    v = _refuted(loss, WEIGHTED, "argmax")
    w = v.witness
    assert sum(w.values[f"u{i}"] for i in (1, 2, 3)) == Fraction(1, 2)  # the constraint is active
    assert Fraction(w.certificate["mu"][0]) > 0


SQ3_WEDGE = {"dim": 3, "per_label": [" + ".join(f"(u{j + 1} - {int(j == y)})**2" for j in range(3)) for y in range(3)],
             "domain": ["u1 <= u2"]}


def test_the_squared_loss_over_a_wedge_is_refuted_at_a_tie_of_argmax():
    loss = [[int(y != t) for t in range(3)] for y in range(3)]
    v = _refuted(loss, SQ3_WEDGE, "argmax")
    assert v.witness.certificate["u"].startswith("on the boundary (a tie)")


def test_the_squared_loss_over_the_wedge_is_proved_where_the_noise_keeps_the_minimiser_inside():
    # with p1 <= p2 the unconstrained minimiser u = p already lies in the wedge u1 <= u2
    loss = [[int(y != t) for t in range(3)] for y in range(3)]
    v = check_calibration(loss, SQ3_WEDGE, "argmax", noise=["p1 <= p2"], timeout=30, cross_check=False)
    assert v.status is Status.PROVED, v.reason


def test_a_noise_set_that_keeps_p_away_from_the_tie_makes_the_clipped_loss_calibrated():
    v = check_calibration(ZERO_ONE_2, _squared(["u1 >= 0"]), SIGN, noise=["p1 >= 3/5"], timeout=30,
                          cross_check=False)
    assert v.status is Status.PROVED, v.reason


def test_a_noise_set_that_reaches_the_tie_refutes_the_clipped_loss():
    v = _refuted(ZERO_ONE_2, _squared(["u1 >= 0"]), SIGN, noise=["p1 >= 2/5"])
    assert v.witness.values["p1"] >= Fraction(2, 5)


def test_an_affine_domain_is_still_method_a():
    v = check_calibration(ZERO_ONE_2, _squared(["u1 = 1/4"]), SIGN, timeout=30, cross_check=False)
    assert "(A) quadratic" in v.scope and "(Q)" not in v.scope
