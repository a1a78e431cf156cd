"""Red team s35 (helper 42): the calibration engine on smooth, listwise, non-convex and boundary
cases whose truth was derived by hand (or by an independent convex minimisation), never by symcal.

No wrong verdict was found; these pin the independently derived answers, each with its twin.
Every refutation is checked here against the hand-derived failure set, not only against the
engine's own re-check.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest

from symcal.calibration import check_calibration, recheck_witness

Z2 = [[0, 1], [1, 0]]
SIGN = {"linear": [[-1], [1]]}
LSE3 = "log(exp(u1) + exp(u2) + exp(u3))"


def _run(loss, sur, link, noise=None):
    return check_calibration(loss, sur, link, noise=noise, timeout=60, cross_check=False)


def _p(v, n):
    return [Fraction(v.witness.values[f"p{i}"]) for i in range(1, n + 1)]


# ---------------------------------------------------------------- ListNet top-1 with q = 2^rel / sum


def test_listnet_top1_with_base_two_targets_fails_for_precision_at_one_on_three_items():
    """Labels 101 and 010, q(101) = (2, 1, 2)/5, q(010) = (1, 2, 1)/4; the risk's minimiser has
    softmax(u) = E q, which ranks item 2 first exactly when p1 < 5 p2 / 4 (hand).  So for
    1/2 < p1 < 5/9 items 1 and 3 are optimal (loss p2) and item 2 is predicted (loss p1)."""
    loss = [[0, 1, 0], [1, 0, 1]]
    sur = {"dim": 3, "per_label": [f"{LSE3} - (2*u1 + u2 + 2*u3)/5", f"{LSE3} - (u1 + 2*u2 + u3)/4"]}
    v = _run(loss, sur, "argmax")
    assert v.status.value == "refuted"
    p1, p2 = _p(v, 2)
    assert Fraction(1, 2) < p1 < Fraction(5, 9) and v.witness.values["pred"] == "2"
    assert recheck_witness(loss, sur, "argmax", v.witness)[0]


def test_listnet_top1_with_base_two_targets_is_calibrated_on_two_items():
    """Twin: labels 10, 01, 11: E q1 - E q2 = (P(10) - P(01)) / 3, the sign of P(y1 = 1) - P(y2 = 1)."""
    loss = [[0, 1], [1, 0], [0, 0]]
    lse = "log(exp(u1) + exp(u2))"
    sur = {"dim": 2, "per_label": [f"{lse} - (2*u1 + u2)/3", f"{lse} - (u1 + 2*u2)/3", f"{lse} - (u1 + u2)/2"]}
    assert _run(loss, sur, "argmax").status.value == "proved"


# ---------------------------------------------------------------- ListMLE (Xia et al. 2008/2009)

PERMS3 = list(permutations((1, 2, 3)))


def _listmle(sigma, k):
    order = sorted(range(3), key=lambda i: sigma[i])
    return " + ".join("log(" + " + ".join(f"exp(u{order[j] + 1})" for j in range(i, 3)) + f") - u{order[i] + 1}"
                      for i in range(k))


def test_top1_listmle_is_calibrated_for_the_top1_error():
    """Top-1 ListMLE is the softmax loss on the top item: calibrated for the top-1 error (Xia 2009)."""
    loss = [[0 if sorted(range(3), key=lambda i: y[i])[0] == t else 1 for t in range(3)] for y in PERMS3]
    sur = {"dim": 3, "per_label": [_listmle(y, 1) for y in PERMS3]}
    assert _run(loss, sur, "argmax").status.value == "proved"


@pytest.mark.slow
def test_full_listmle_is_not_calibrated_for_the_permutation_zero_one_loss():
    """Twin: over the whole simplex of 3! rankings the Plackett-Luce fit need not sort like the
    mode (numerically, at p((1,2,3)) = 2/5, p((2,3,1)) = 3/5 it ranks doc 1, doc 3, doc 2; gap 1/2).
    The witness's prediction must be a ranking whose probability is below the mode's."""
    loss = [[0 if y == t else 1 for t in PERMS3] for y in PERMS3]
    sur = {"dim": 3, "per_label": [_listmle(y, 2) for y in PERMS3]}
    v = _run(loss, sur, "sort-desc")
    assert v.status.value == "refuted"
    p = _p(v, 6)
    pred = PERMS3[[str(s) for s in PERMS3].index(v.witness.values["pred"])]
    assert p[PERMS3.index(pred)] < max(p)


# ---------------------------------------------------------------- ordinal threshold surrogates

ORD_LINK = {"regions": [["u1 >= 0", "u2 >= 0"], ["u1 <= 0", "u2 >= 0"], ["u1 <= 0", "u2 <= 0"]]}
ABS3 = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]


def _lg(x):
    return f"log(1 + exp(-({x})))"


def test_all_threshold_exponential_is_calibrated_for_the_absolute_loss():
    """u_i = logit(P(y <= i)) / 2 is increasing in i, pred = a median (Pedregosa et al. 2017)."""
    ex = ["exp(-u1) + exp(-u2)", "exp(u1) + exp(-u2)", "exp(u1) + exp(u2)"]
    assert _run(ABS3, {"dim": 2, "per_label": ex, "domain": ["u1 <= u2"]}, ORD_LINK).status.value == "proved"


def test_all_threshold_logistic_is_not_calibrated_for_the_squared_ordinal_loss():
    """Twin: the median is not the rounded mean (p = (1/2 + e, 0, 1/2 - e): median 1, optimum 2)."""
    sq = [[0, 1, 4], [1, 0, 1], [4, 1, 0]]
    at = [f"{_lg('u1')} + {_lg('u2')}", f"{_lg('-u1')} + {_lg('u2')}", f"{_lg('-u1')} + {_lg('-u2')}"]
    v = _run(sq, {"dim": 2, "per_label": at, "domain": ["u1 <= u2"]}, ORD_LINK)
    assert v.status.value == "refuted"
    p = _p(v, 3)
    cond = [sum(p[y] * sq[y][t] for y in range(3)) for t in range(3)]
    assert cond[int(v.witness.values["pred"]) - 1] > min(cond)


# ---------------------------------------------------------------- non-convex and discontinuous pieces


@pytest.mark.parametrize("piece", [
    "Piecewise((exp(-{x}), {x} <= 0), (exp(-{x}) + 5, True))",   # slopes match, jumps up: NOT calibrated
    "Piecewise((1 - {x}, {x} <= 0), (1 - {x}/2 + 3, True))",     # jumps up 3 at 0+: NOT calibrated
])
def test_a_piecewise_margin_loss_with_matching_slopes_but_a_jump_is_never_proved(piece):
    """At p = (3/5, 2/5) the wrong side u < 0 has the smaller risk (hand), so a proof would be wrong."""
    sur = {"dim": 1, "per_label": [piece.format(x="u1"), piece.format(x="(-u1)")]}
    assert _run(Z2, sur, SIGN).status.value != "proved"


def test_the_sigmoid_and_ramp_losses_are_never_refuted():
    """Twin: both are classification-calibrated (Bartlett, Jordan & McAuliffe 2006), not convex."""
    for phi in ("1/(1 + exp({x}))", "Min(1, Max(0, 1 - {x}))"):
        sur = {"dim": 1, "per_label": [phi.format(x="u1"), phi.format(x="(-u1)")]}
        assert _run(Z2, sur, SIGN).status.value != "refuted"


# ---------------------------------------------------------------- boundary: infima at infinity, kinks, noise


def test_an_unattained_failure_at_a_vertex_is_not_proved():
    """P = {e1}, argmin link: u = (t, -t, 0) lies in the cell of 2 and its risk tends to 0 = inf,
    so the softmax loss is NOT calibrated there; no minimiser exists, so unknown is the sound answer."""
    sur = {"dim": 3, "per_label": [f"{LSE3} - u{y}" for y in (1, 2, 3)]}
    zo3 = [[0 if i == j else 1 for j in range(3)] for i in range(3)]
    assert _run(zo3, sur, "argmin", noise=["p1 = 1"]).status.value != "proved"


def test_the_same_vertex_with_argmax_is_proved():
    """Twin: with argmax the wrong cells keep the risk >= log 2 > 0 = inf at e1."""
    sur = {"dim": 3, "per_label": [f"{LSE3} - u{y}" for y in (1, 2, 3)]}
    zo3 = [[0 if i == j else 1 for j in range(3)] for i in range(3)]
    assert _run(zo3, sur, "argmax", noise=["p1 = 1"]).status.value == "proved"


def test_logistic_with_threshold_one_is_calibrated_exactly_where_the_noise_keeps_p1_above_e_over_1_plus_e():
    """u* = log(p1/p2) > 1 iff p1 > e/(1+e) = 0.731...: proved over p1 >= 3/4, refuted over p1 >= 7/10
    (at p1 = 7/10, u* = log(7/3) < 1 predicts 2)."""
    sur = {"dim": 1, "per_label": ["log(1 + exp(-u1))", "log(1 + exp(u1))"]}
    link = {"linear": [[-1], [1]], "offset": [1, -1]}
    assert _run(Z2, sur, link, noise=["p1 >= 3/4"]).status.value == "proved"
    v = _run(Z2, sur, link, noise=["p1 >= 7/10"])
    assert v.status.value == "refuted"
    p1, _ = _p(v, 2)
    assert Fraction(7, 10) <= p1 < Fraction(731, 1000)  # below e/(1+e) = 0.7310...


def test_a_margin_loss_with_a_kink_at_zero_is_refuted_at_a_tie():
    """phi = Max(0, 1 - u, 1 - 2u) has subgradient [-2, -1] at 0: for eta in (1/2, 2/3) the minimiser
    is a = 0, and at eta = 2/3 every a in [0, 1] minimises (Bartlett, Jordan & McAuliffe 2006, Theorem 6:
    differentiability at 0 is needed); the failure set is 1/2 < max(p) <= 2/3."""
    sur = {"dim": 1, "per_label": ["Max(0, 1 - u1, 1 - 2*u1)", "Max(0, 1 + u1, 1 + 2*u1)"]}
    v = _run(Z2, sur, SIGN)
    assert v.status.value == "refuted"
    p1, p2 = _p(v, 2)
    assert Fraction(1, 2) < max(p1, p2) <= Fraction(2, 3)
