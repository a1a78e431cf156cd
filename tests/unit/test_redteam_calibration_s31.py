"""Red team, session 31: method (S) over a domain with inequalities, each case with its twin.

The ordinal threshold surrogates of Pedregosa, Bach & Gramfort (2017) keep their thresholds ordered,
``u1 <= u2``.  (S) used to stop at such a domain ("needs an affine domain"); it now proves a pair by
the approximate KKT conditions of C (Ekeland's point minimises ``risk_p + eps |. - v|`` over C, so the
gradient is within eps of minus the normal cone) and refutes with an exact KKT point (multipliers
>= 0 on the active rows, re-checked in exact arithmetic).  The all-threshold logistic loss is
calibrated for the absolute loss and not for the 0-1 loss; the immediate-threshold logistic loss is
*not* calibrated for the 0-1 loss: at p = (1/2, 0, 1/2) the minimiser is u = (0, 0) with the order
constraint active (multiplier 1/4), on the boundary of the cell of 2, which both 1 and 3 beat.
(Fisher consistency with the decoder's tie rule holds there; calibration, a statement about the
infimum over the cell, does not.)
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from symcal.calibration import check_calibration, recheck_witness
from symcal.verdicts import Status

ZERO_ONE_3 = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
ABSOLUTE_3 = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
THRESHOLDS = {"regions": [["u1 >= 0"], ["u1 <= 0", "u2 >= 0"], ["u2 <= 0"]]}  # 1 + #{i : u_i < 0}
ORDERED = ["u1 <= u2"]
ALL_THRESHOLD = {"dim": 2, "domain": ORDERED,
                 "per_label": ["log(1 + exp(-u1)) + log(1 + exp(-u2))", "log(1 + exp(u1)) + log(1 + exp(-u2))",
                               "log(1 + exp(u1)) + log(1 + exp(u2))"]}
IMMEDIATE = {"dim": 2, "domain": ORDERED,
             "per_label": ["log(1 + exp(-u1))", "log(1 + exp(u1)) + log(1 + exp(-u2))", "log(1 + exp(u2))"]}


def _check(loss, surrogate, link=THRESHOLDS, **kw):
    return check_calibration(loss, surrogate, link, timeout=60, cross_check=False, **kw)


def test_the_all_threshold_logistic_loss_with_ordered_thresholds_is_proved_for_the_absolute_loss():
    v = _check(ABSOLUTE_3, ALL_THRESHOLD)
    assert v.status is Status.PROVED, v.reason
    assert "(S) smooth" in v.scope and "u1 <= u2" in v.scope


def test_its_twin_for_the_zero_one_loss_is_refuted_at_an_interior_minimiser():
    # sigma(u1) = p1, sigma(u2) = p1 + p2: the decoder returns the median, which the 0-1 loss does not want
    v = _check(ZERO_ONE_3, ALL_THRESHOLD)
    assert v.status is Status.REFUTED, v.reason
    assert "multipliers" not in v.witness.certificate
    assert recheck_witness(ZERO_ONE_3, ALL_THRESHOLD, THRESHOLDS, v.witness) == (True, "re-checked exactly")


def test_the_immediate_threshold_logistic_loss_is_refuted_where_the_order_constraint_is_active():
    v = _check(ZERO_ONE_3, IMMEDIATE)
    assert v.status is Status.REFUTED, v.reason
    w = v.witness
    assert w.certificate["method"].startswith("(S)") and "KKT" in w.certificate["method"]
    assert [Fraction(x) for x in w.certificate["multipliers"]] != [0]
    assert w.values["pred"] == "2" and w.values["u1"] == w.values["u2"]  # on the line u1 = u2
    assert recheck_witness(ZERO_ONE_3, IMMEDIATE, THRESHOLDS, w) == (True, "re-checked exactly")


def test_a_tampered_multiplier_or_a_point_outside_the_domain_fails_the_re_check():
    w = _check(ZERO_ONE_3, IMMEDIATE).witness
    for values, cert in ((w.values, {**w.certificate, "multipliers": ["-1/4"]}),
                         (w.values, {**w.certificate, "multipliers": ["1/2"]}),
                         (w.values, {k: x for k, x in w.certificate.items() if k != "multipliers"}),
                         ({**w.values, "u1": "1", "u2": "0"}, w.certificate)):
        tampered = dataclasses.replace(w, values=values, certificate=cert)
        ok, why = recheck_witness(ZERO_ONE_3, IMMEDIATE, THRESHOLDS, tampered)
        assert not ok, why


def test_the_immediate_threshold_loss_is_proved_where_one_class_dominates():
    # max p >= 3/5: the minimiser stays away from the ties of the refutation (a closed P, so the
    # Ekeland queries' delta = eta m^k is uniform over it)
    v = _check(ZERO_ONE_3, IMMEDIATE, noise=["Max(p1, p2, p3) >= 3/5"])
    assert v.status is Status.PROVED, v.reason


def test_strongly_convex_quadratics_over_inequalities_are_still_left_to_method_q():
    sur = {"dim": 1, "per_label": ["(1 - u1)**2", "(1 + u1)**2"], "domain": ["u1 <= 1/2"]}
    v = _check([[0, 1], [1, 0]], sur, {"linear": [[-1], [1]]})
    assert v.status is Status.PROVED and "(Q) quadratic over a polyhedral domain" in v.scope


def test_a_semidefinite_quadratic_over_inequalities_is_now_decided_by_s():
    # u2 does not appear: (Q) needs a definite Hessian; (S) proves it (u1* = min(2 p1 - 1, 1/2))
    sur = {"dim": 2, "per_label": ["(1 - u1)**2", "(1 + u1)**2"], "domain": ["u1 <= 1/2"]}
    v = _check([[0, 1], [1, 0]], sur, {"linear": [[-1, 0], [1, 0]]})
    assert v.status is Status.PROVED and "(S) smooth" in v.scope
    # twin: clipped at u1 >= 0 the minimiser is the tie u1 = 0 for p1 <= 1/2 (multiplier 1 - 2 p1 ... >= 0)
    sur = {"dim": 2, "per_label": ["(1 - u1)**2", "(1 + u1)**2"], "domain": ["u1 >= 0"]}
    v = _check([[0, 1], [1, 0]], sur, {"linear": [[-1, 0], [1, 0]]})
    assert v.status is Status.REFUTED, v.reason
    assert recheck_witness([[0, 1], [1, 0]], sur, {"linear": [[-1, 0], [1, 0]]}, v.witness)[0]


LOGISTIC = ["log(1 + exp(-u1))", "log(1 + exp(u1))"]
SIGN = {"linear": [[-1], [1]]}


def test_the_logistic_loss_floored_at_one_is_refuted_with_an_irrational_multiplier():
    # u* = max(log(p1/p2), 1) >= 1 always predicts 1; at the floor the multiplier is the slope there,
    # which involves e: the point is snapped onto u1 = 1 and the multiplier solved exactly
    sur = {"dim": 1, "per_label": LOGISTIC, "domain": ["u1 >= 1"]}
    v = _check([[0, 1], [1, 0]], sur, SIGN)
    assert v.status is Status.REFUTED, v.reason
    assert v.witness.values["u1"] == 1 and "exp(1)" in v.witness.certificate["multipliers"][0]
    assert recheck_witness([[0, 1], [1, 0]], sur, SIGN, v.witness) == (True, "re-checked exactly")
    flipped = {**v.witness.certificate, "multipliers": ["(1 - 3*exp(1))/(4*(1 + exp(1)))"]}
    assert not recheck_witness([[0, 1], [1, 0]], sur, SIGN, dataclasses.replace(v.witness, certificate=flipped))[0]


def test_its_twin_capped_at_one_keeps_the_sign_and_is_proved():
    v = _check([[0, 1], [1, 0]], {"dim": 1, "per_label": LOGISTIC, "domain": ["u1 <= 1"]}, SIGN)
    assert v.status is Status.PROVED, v.reason
