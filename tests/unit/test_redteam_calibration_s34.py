"""Red team, session 34: the calibration engine on textbook cases of known truth, each with its twin.

The one false statement found: method (S) stopped at the first pair that failed *at a tie* and
called the witness "only at a tie", although another cell failed strictly inside.  The
immediate-threshold logistic loss (ordered thresholds ``u1 <= u2``, decoded 1 + #{i : u_i < 0}) with
the 0-1 loss except ``L[3][3] = 1/2`` fails at the tie p = (1/2, 0, 1/2), u = (0, 0) (cell of 2),
and also strictly inside the cell of 3: at p = (1/20, 7/20, 3/5) the unconstrained minimiser
``sigma(u1) = p1 / (p1 + p2) = 1/8``, ``sigma(u2) = p2 / (p2 + p3) = 7/19`` has u1 = log(1/7) <
u2 = log(7/12) < 0, so 3 is predicted with loss 1 - p3/2 = 7/10 > p1 + p3 = 13/20 (prediction 2).
Now a tie witness waits while the remaining pairs are searched for a failure strictly inside a cell
(issue 24: such a witness is preferred), and its words say whether one is excluded.
"""

from __future__ import annotations

from fractions import Fraction as F

from symcal.calibration import check_calibration, recheck_witness
from symcal.calibration.smooth import _tie_words
from symcal.verdicts import Status

ZERO_ONE_3 = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
HALF_AT_3 = [[0, 1, 1], [1, 0, 1], [1, 1, "1/2"]]
THRESHOLDS = {"regions": [["u1 >= 0"], ["u1 <= 0", "u2 >= 0"], ["u2 <= 0"]]}
IMMEDIATE = {"dim": 2, "domain": ["u1 <= u2"],
             "per_label": ["log(1 + exp(-u1))", "log(1 + exp(u1)) + log(1 + exp(-u2))", "log(1 + exp(u2))"]}


def _check(loss, surrogate, link=THRESHOLDS, **kw):
    return check_calibration(loss, surrogate, link, timeout=60, cross_check=False, **kw)


def test_a_failure_strictly_inside_a_later_cell_is_preferred_to_a_tie_of_an_earlier_one():
    v = _check(HALF_AT_3, IMMEDIATE)
    assert v.status is Status.REFUTED, v.reason
    w = v.witness
    assert w.values["pred"] == "3" and "strictly inside the cell of 3" in w.detail
    assert "tie" not in w.detail
    assert recheck_witness(HALF_AT_3, IMMEDIATE, THRESHOLDS, w) == (True, "re-checked exactly")


def test_a_failure_only_at_ties_says_every_pair_was_searched_and_no_more():
    # the 0-1 loss: the failure at p = (1/2, 0, 1/2) is at a tie, and no pair has a failing stationary
    # point strictly inside its cell; a non-attained failure inside a cell is not claimed away
    v = _check(ZERO_ONE_3, IMMEDIATE)
    assert v.status is Status.REFUTED, v.reason
    w = v.witness
    assert w.detail.startswith("at a tie") and "only at a tie" not in w.detail
    assert "z3 unsat for all 6" in w.detail and "is not excluded" in w.detail
    assert recheck_witness(ZERO_ONE_3, IMMEDIATE, THRESHOLDS, w) == (True, "re-checked exactly")


def test_the_words_of_a_tie_claim_exclusion_only_when_every_pair_was_shown_free():
    assert "z3 unsat for all 6" in _tie_words(6, 6)
    assert "not found but is not excluded (1 of 6 pairs" in _tie_words(6, 5)
    assert "unsat for all" not in _tie_words(6, 0)


def test_the_one_vs_all_hinge_with_the_abstain_decoder_at_zero_is_proved_for_abstain_one_half():
    # Ramaswamy, Tewari & Agarwal (2018): argmax u if max u > tau else abstain, tau in (-1, 1)
    loss = [[0, 1, 1, "1/2"], [1, 0, 1, "1/2"], [1, 1, 0, "1/2"]]
    link = {"regions": [["u1 >= u2", "u1 >= u3", "u1 >= 0"], ["u2 >= u1", "u2 >= u3", "u2 >= 0"],
                        ["u3 >= u1", "u3 >= u2", "u3 >= 0"], ["u1 <= 0", "u2 <= 0", "u3 <= 0"]]}
    ova = {"dim": 3, "per_label": ["Max(0, 1 - u1) + Max(0, 1 + u2) + Max(0, 1 + u3)",
                                   "Max(0, 1 + u1) + Max(0, 1 - u2) + Max(0, 1 + u3)",
                                   "Max(0, 1 + u1) + Max(0, 1 + u2) + Max(0, 1 - u3)"]}
    assert _check(loss, ova, link).status is Status.PROVED


def test_the_one_vs_all_logistic_loss_with_the_abstain_threshold_one_half_is_refuted_not_proved():
    # sigma(u_j) = p_j: the threshold u > 1/2 abstains for 1/2 < p_max < e^(1/2) / (1 + e^(1/2))
    loss = [[0, 1, 1, "1/2"], [1, 0, 1, "1/2"], [1, 1, 0, "1/2"]]
    link = {"regions": [["u1 >= u2", "u1 >= u3", "u1 >= 1/2"], ["u2 >= u1", "u2 >= u3", "u2 >= 1/2"],
                        ["u3 >= u1", "u3 >= u2", "u3 >= 1/2"], ["u1 <= 1/2", "u2 <= 1/2", "u3 <= 1/2"]]}
    logistic = {"dim": 3, "per_label": [
        " + ".join(f"log(1 + exp({'-' if j == y else ''}u{j}))" for j in range(1, 4)) for y in range(1, 4)]}
    v = _check(loss, logistic, link)
    assert v.status is Status.REFUTED, v.reason
    assert v.witness.values["pred"] == "4" and v.witness.values["optimal loss"] < v.witness.values["loss of pred"]
    assert recheck_witness(loss, logistic, link, v.witness) == (True, "re-checked exactly")


SQUARED_3 = {"dim": 3, "per_label": ["(u1 - 1)**2 + u2**2 + u3**2", "u1**2 + (u2 - 1)**2 + u3**2",
                                     "u1**2 + u2**2 + (u3 - 1)**2"]}


def _strictly_inside_argmax(w) -> bool:
    """The witness's u has its predicted coordinate strictly the largest: inside argmax's cell, not on a tie."""
    from fractions import Fraction

    u = {i: Fraction(str(w.values[f"u{i}"])) for i in range(1, 4)}
    t = int(w.values["pred"])
    return all(u[t] > u[o] for o in u if o != t)


def test_a_quadratic_refutation_prefers_a_minimiser_strictly_inside_the_wrong_cell():
    # (A): the squared loss with argmax for the absolute loss failed at p = (1/3, 1/3, 1/3), a three-way tie of
    # u*; a failure strictly inside the cell of 1 exists (the red team's p = (23/50, 1/10, 22/50)) and is returned
    absolute = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    v = _check(absolute, SQUARED_3, "argmax")
    assert v.status is Status.REFUTED, v.reason
    assert _strictly_inside_argmax(v.witness), v.witness.values
    assert recheck_witness(absolute, SQUARED_3, "argmax", v.witness) == (True, "re-checked exactly")


def test_the_search_for_an_inside_failure_never_turns_a_calibrated_quadratic_into_a_refutation():
    assert _check(ZERO_ONE_3, SQUARED_3, "argmax").status is Status.PROVED


def test_a_polyhedral_refutation_strictly_inside_a_cell_says_the_interior():
    # (B): absolute-value regression with thresholds 3/2, 5/2 for the squared ordinal loss fails
    # at minimisers strictly inside a cell: the witness is one of them, and its words say so
    squared_ordinal = [[0, 1, 4], [1, 0, 1], [4, 1, 0]]
    regression = {"dim": 1, "per_label": ["Abs(u1 - 1)", "Abs(u1 - 2)", "Abs(u1 - 3)"]}
    thresholds = {"regions": [["u1 <= 3/2"], ["u1 >= 3/2", "u1 <= 5/2"], ["u1 >= 5/2"]]}
    v = _check(squared_ordinal, regression, thresholds)
    assert v.status is Status.REFUTED, v.reason
    w = v.witness
    u1, t = F(str(w.values["u1"])), w.values["pred"]
    assert (t == "1" and u1 < F(3, 2)) or (t == "2" and F(3, 2) < u1 < F(5, 2)) or (t == "3" and u1 > F(5, 2)), w.values
    assert "lies in the interior of the cell of" in w.detail
    assert recheck_witness(squared_ordinal, regression, thresholds, w) == (True, "re-checked exactly")


def test_a_polyhedral_failure_only_on_a_boundary_is_still_called_the_closed_cell():
    # Crammer-Singer for 0-1 at n = 3: its witness is u = 0 mod shifts, a tie of every prediction
    from symcal.calibration import surrogates as S

    v = _check(ZERO_ONE_3, S.crammer_singer(3), "argmax")
    assert v.status is Status.REFUTED and "the closed cell of" in v.witness.detail
