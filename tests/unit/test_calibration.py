"""The calibration engine: proofs, exact refutations, unknowns, and the checks that can fail."""

from __future__ import annotations

import dataclasses
import time
from fractions import Fraction

import pytest

from symcal.calibration import Surrogate, check_calibration, recheck_witness, surrogates
from symcal.errors import InvalidInput
from symcal.verdicts import Composite, SmtResult, Status
from tests.common.timing import within

Z1_3 = surrogates.zero_one(3)


def dominant(n: int, strict: bool = True) -> list[str]:
    return [f"Max({', '.join(f'p{i}' for i in range(1, n + 1))}) {'>' if strict else '>='} 1/2"]


def assert_refuted_with_exact_witness(v, loss, sur, link, noise=None):
    assert v.status is Status.REFUTED, v.reason
    w = v.witness
    assert w is not None and w.rechecked
    n = len(loss) if isinstance(loss, list) else loss.shape[0]
    p = [Fraction(w.values[f"p{i}"]) for i in range(1, n + 1)]
    assert sum(p) == 1 and all(x >= 0 for x in p)
    assert w.values["loss of pred"] > w.values["optimal loss"]
    ok, why = recheck_witness(loss, sur, link, w, noise=noise)
    assert ok, why
    return w


# --------------------------------------------------------------------------- polyhedral (B)


def test_weston_watkins_is_refuted_for_zero_one_at_three_labels_with_an_exact_distribution():
    sur = surrogates.weston_watkins(3)
    v = check_calibration(Z1_3, sur, "argmax", timeout=30)
    assert_refuted_with_exact_witness(v, Z1_3, sur, "argmax")


def test_crammer_singer_is_refuted_for_zero_one_at_three_labels_with_an_exact_distribution():
    sur = surrogates.crammer_singer(3)
    v = check_calibration(Z1_3, sur, "argmax", timeout=30)
    w = assert_refuted_with_exact_witness(v, Z1_3, sur, "argmax")
    # no dominant class at the counterexample (Zhang 2004)
    assert max(Fraction(w.values[f"p{i}"]) for i in (1, 2, 3)) <= Fraction(1, 2)


def test_one_vs_all_hinge_is_refuted_and_calibrated_with_a_dominant_class():
    sur = surrogates.one_vs_all_hinge(3)
    assert_refuted_with_exact_witness(check_calibration(Z1_3, sur, "argmax", timeout=30), Z1_3, sur, "argmax")
    assert check_calibration(Z1_3, sur, "argmax", noise=dominant(3), timeout=30).status is Status.PROVED


def test_lee_lin_wahba_is_proved_at_three_and_four_labels_with_smt_evidence():
    for n in (3, 4):
        v = check_calibration(surrogates.zero_one(n), surrogates.lee_lin_wahba(n), "argmax", timeout=30)
        assert v.status is Status.PROVED, v.reason
        assert isinstance(v.evidence, Composite)
        smt = [ev for _, ev in v.evidence.parts if isinstance(ev, SmtResult)]
        assert smt and all(ev.answer == "unsat" and "(check-sat)" in ev.smtlib for ev in smt)
        assert any(label.startswith("psi_1 bounded below") for label, _ in v.evidence.parts)


def test_lee_lin_wahba_without_its_sum_to_zero_constraint_is_refuted():
    llw = surrogates.lee_lin_wahba(3)
    free = Surrogate(3, llw.per_label)  # same losses on all of R^3
    assert_refuted_with_exact_witness(check_calibration(Z1_3, free, "argmax", timeout=30), Z1_3, free, "argmax")


def test_weston_watkins_is_proved_where_a_class_has_probability_above_one_half():
    v = check_calibration(Z1_3, surrogates.weston_watkins(3), "argmax", noise=dominant(3), timeout=30)
    assert v.status is Status.PROVED, v.reason


def test_weston_watkins_is_refuted_where_the_top_class_may_have_exactly_one_half():
    sur = surrogates.weston_watkins(3)
    noise = dominant(3, strict=False)
    v = check_calibration(Z1_3, sur, "argmax", noise=noise, timeout=30)
    w = assert_refuted_with_exact_witness(v, Z1_3, sur, "argmax", noise=noise)
    assert max(Fraction(w.values[f"p{i}"]) for i in (1, 2, 3)) == Fraction(1, 2)


def test_crammer_singer_is_proved_with_a_dominant_class_at_four_labels():
    v = check_calibration(surrogates.zero_one(4), surrogates.crammer_singer(4), "argmax", noise=dominant(4),
                          timeout=30)
    assert v.status is Status.PROVED, v.reason


# --------------------------------------------------------------------------- quadratic (A)


def test_squared_loss_is_proved_with_argmax_and_refuted_with_argmin():
    sq = surrogates.squared(3)
    assert check_calibration(Z1_3, sq, "argmax", timeout=30).status is Status.PROVED
    assert_refuted_with_exact_witness(check_calibration(Z1_3, sq, "argmin", timeout=30), Z1_3, sq, "argmin")


def test_squared_loss_is_proved_at_four_labels():
    v = check_calibration(surrogates.zero_one(4), surrogates.squared(4), "argmax", timeout=30)
    assert v.status is Status.PROVED and "(A) quadratic" in v.scope


def test_ramaswamy_theorem3_surrogate_is_proved_for_pd_and_refuted_with_the_link_reversed():
    loss, dec = surrogates.paper_loss("pd", 3)
    sur, link = surrogates.ramaswamy_quadratic(dec)
    assert check_calibration(loss, sur, link, timeout=60).status is Status.PROVED
    reversed_link = {"linear": [[str(-Fraction(x)) for x in row] for row in link["linear"]], "offset": link["offset"]}
    v = check_calibration(loss, sur, reversed_link, timeout=60)
    assert_refuted_with_exact_witness(v, loss, sur, reversed_link)


def test_ramaswamy_theorem3_surrogate_is_proved_for_precision_at_two_with_its_linear_link_and_by_sorting():
    loss, dec = surrogates.paper_loss("precision", 3, q=2)
    sur, link = surrogates.ramaswamy_quadratic(dec)
    assert check_calibration(loss, sur, link, timeout=60).status is Status.PROVED
    assert check_calibration(loss, sur, "sort-desc", timeout=60).status is Status.PROVED


def test_precision_at_two_with_ascending_sort_is_not_proved():
    loss, dec = surrogates.paper_loss("precision", 3, q=2)
    sur, _ = surrogates.ramaswamy_quadratic(dec)
    flipped = Surrogate(3, [e.subs({s: -s for s in sur.u}, simultaneous=True) for e in sur.per_label])
    assert check_calibration(loss, flipped, "sort-desc", timeout=60).status is Status.REFUTED


# --------------------------------------------------------------------------- unknown, and the re-check


def test_logistic_surrogate_goes_past_a_and_b_to_the_smooth_method():
    per = [f"log(exp(u1) + exp(u2) + exp(u3)) - u{y}" for y in (1, 2, 3)]
    v = check_calibration(Z1_3, Surrogate(3, per), "argmax", timeout=30)
    assert v.status is Status.PROVED and "(S) smooth convex" in v.scope


def test_a_surrogate_no_method_covers_names_every_failed_precondition():
    per = ["-u1**2", "-u2**2", "-u3**2"]
    v = check_calibration(Z1_3, Surrogate(3, per), "argmax", timeout=30)
    assert v.status is Status.UNKNOWN
    assert "not (A) quadratic" in v.reason and "not (B) polyhedral" in v.reason and "not (S) smooth" in v.reason


def test_a_concave_part_is_unknown_not_decided():
    per = ["Min(u1, u2) + u1**0", "Min(u2, u3)", "Min(u1, u3)"]
    v = check_calibration(Z1_3, Surrogate(3, per), "argmax", timeout=30)
    assert v.status is Status.UNKNOWN and "concave" in v.reason


def test_a_tampered_witness_fails_the_exact_recheck_and_the_untouched_one_passes():
    sur = surrogates.weston_watkins(3)
    w = check_calibration(Z1_3, sur, "argmax", timeout=30).witness
    assert recheck_witness(Z1_3, sur, "argmax", w)[0]
    values = dict(w.values)
    values["p1"], values["p2"] = w.values["p2"], w.values["p1"]
    if values == w.values:  # symmetric p: tamper a coordinate of u instead
        values["u1"] = Fraction(w.values["u1"]) + 1
    ok, why = recheck_witness(Z1_3, sur, "argmax", dataclasses.replace(w, values=values))
    assert not ok and why
    moved = dataclasses.replace(w, values={**w.values, "u1": Fraction(w.values["u1"]) + Fraction(1, 7)})
    assert not recheck_witness(Z1_3, sur, "argmax", moved)[0]


def test_a_tampered_quadratic_witness_fails_the_exact_recheck():
    sq = surrogates.squared(3)
    w = check_calibration(Z1_3, sq, "argmin", timeout=30).witness
    assert recheck_witness(Z1_3, sq, "argmin", w)[0]
    bad = dataclasses.replace(w, values={**w.values, "u2": Fraction(w.values["u2"]) + Fraction(1, 3)})
    assert not recheck_witness(Z1_3, sq, "argmin", bad)[0]


# --------------------------------------------------------------------------- input and limits


def test_float_entries_are_refused_naming_the_parameter_and_exact_strings_accepted():
    with pytest.raises(InvalidInput, match=r"loss\[0\]\[1\]=0.5"):
        check_calibration([[0, 0.5], [1, 0]], surrogates.squared(2), "argmax")
    assert check_calibration([["0", "2/2"], [1, 0]], surrogates.squared(2), "argmax", timeout=30).status \
        is Status.PROVED
    # the cost-sensitive matrix (an error on label 1 costs 1/2): argmax of u* = p is the wrong threshold
    v = check_calibration([[0, "1/2"], [1, 0]], surrogates.squared(2), "argmax", timeout=30)
    assert v.status is Status.REFUTED


def test_float_literals_and_unknown_names_in_expressions_are_refused_with_a_fix():
    with pytest.raises(InvalidInput, match="write 1/2"):
        Surrogate(2, ["0.5*u1", "u2"])
    with pytest.raises(InvalidInput, match="unknown name"):
        Surrogate(2, ["u1 + v", "u2"])
    with pytest.raises(InvalidInput, match="attribute"):
        Surrogate(2, ["u1.__class__", "u2"])


def test_mismatched_sizes_and_an_empty_noise_set_are_errors_not_vacuous_proofs():
    with pytest.raises(InvalidInput, match="one expression per label"):
        check_calibration(Z1_3, surrogates.squared(2), "argmax")
    with pytest.raises(InvalidInput, match="non-empty subset of the simplex"):
        check_calibration(Z1_3, surrogates.squared(3), "argmax", noise=["p1 >= 2"], timeout=30)


def test_a_tiny_timeout_really_stops_the_decision():
    loss, dec = surrogates.paper_loss("precision", 5, q=2)  # 32 labels, 120 permutations: 14,280 pair queries
    sur, _ = surrogates.ramaswamy_quadratic(dec)
    t0 = time.monotonic()
    v = check_calibration(loss, sur, "sort-desc", timeout=0.5)
    assert time.monotonic() - t0 < within(8)
    assert v.status is Status.UNKNOWN and v.reason.startswith("gave up after")


def argmax_regions(n: int) -> dict:
    return {"regions": [[f"u{t} >= u{j}" for j in range(1, n + 1) if j != t] for t in range(1, n + 1)]}


def test_a_users_case_split_equal_to_argmax_gives_the_same_verdicts():
    regions = argmax_regions(3)
    assert check_calibration(Z1_3, surrogates.lee_lin_wahba(3), regions, timeout=30).status is Status.PROVED
    sur = surrogates.weston_watkins(3)
    assert_refuted_with_exact_witness(check_calibration(Z1_3, sur, regions, timeout=30), Z1_3, sur, regions)


def test_overlapping_regions_never_give_a_refutation_and_gaps_are_an_error():
    overlapping = {"regions": [["u1 >= u2 - 1", "u1 >= u3 - 1"], ["u2 >= u1 - 1", "u2 >= u3 - 1"],
                               ["u3 >= u1 - 1", "u3 >= u2 - 1"]]}
    v = check_calibration(Z1_3, surrogates.weston_watkins(3), overlapping, timeout=30)
    assert v.status is Status.UNKNOWN and "meets the interior" in v.reason
    gap = {"regions": [["u1 >= u2 + 1", "u1 >= u3 + 1"], ["u2 >= u1", "u2 >= u3"], ["u3 >= u1", "u3 >= u2"]]}
    with pytest.raises(InvalidInput, match="covering the domain"):
        check_calibration(Z1_3, surrogates.weston_watkins(3), gap, timeout=30)


def test_cvc5_re_decides_every_smt_query_of_a_proof_from_its_smtlib_text():
    pytest.importorskip("cvc5")
    from symcal.backends.base import Outcome
    from symcal.crosscheck import second_opinion

    v = check_calibration(Z1_3, surrogates.lee_lin_wahba(3), "argmax", timeout=30)
    out = second_opinion(Outcome(v.status, v.scope, v.backend, v.evidence), 60)
    assert out.status is Status.PROVED and out.cross_check.confirmed, out.cross_check.summary()


def test_a_witness_whose_interior_point_is_the_minimiser_is_accepted():
    # regression: a zero risk gap along the sequence (c = u*) was read as "not a multiple of eps^2"
    from fractions import Fraction as F

    from symcal.calibration import engine as E
    from symcal.calibration import setup

    s = setup([[1, 0], [0, 1]], {"dim": 1, "per_label": ["(u1-1)**2", "(u1+1)**2"]}, {"linear": [["-1"], ["1"]]})
    q = E.quadratic_form(s)
    why, values, _ = E.verify_quadratic(s, q, [F(1, 4), F(3, 4)], 1, [F(-1, 2)])
    assert why == "" and values
    # its twin: at p = (3/4, 1/4) the minimiser 1/2 lies in the cell of the optimal prediction
    why2, _, _ = E.verify_quadratic(s, q, [F(3, 4), F(1, 4)], 1, [F(-1, 2)])
    assert why2 != ""


# --------------------------------------------------------------------------- rediscovered inconsistencies


def test_top_k_hinges_are_refuted_for_the_top_k_error_with_exact_distributions():
    # Lapin, Hein & Schiele (2015) proposed them; Yang & Koyejo (2020) showed they are not top-k calibrated
    loss, link = surrogates.topk_error(4, 2), surrogates.topk_link(4, 2)
    for sur in (surrogates.topk_hinge_alpha(4, 2), surrogates.topk_hinge_beta(4, 2)):
        v = check_calibration(loss, sur, link, timeout=60)
        assert_refuted_with_exact_witness(v, loss, sur, link)
    loss3, link3 = surrogates.topk_error(3, 2), surrogates.topk_link(3, 2)
    sur = surrogates.topk_hinge_beta(3, 2)
    assert_refuted_with_exact_witness(check_calibration(loss3, sur, link3, timeout=60), loss3, sur, link3)
    # measured, not assumed: alpha at n = 3, k = 2 has no failing distribution (every pair query unsat)
    assert check_calibration(loss3, surrogates.topk_hinge_alpha(3, 2), link3, timeout=60).status is Status.PROVED


def test_the_lovasz_hinge_is_calibrated_for_a_modular_loss_and_refuted_for_a_submodular_one():
    # Finocchiaro, Frongillo & Nueve (2022): consistent for its target only when ell is modular
    loss, sur, link = surrogates.lovasz_hinge(2, lambda S: len(S))  # Hamming: modular
    assert check_calibration(loss, sur, link, timeout=60).status is Status.PROVED
    loss, sur, link = surrogates.lovasz_hinge(2, lambda S: min(len(S), 1))  # any mistake: submodular, not modular
    w = assert_refuted_with_exact_witness(check_calibration(loss, sur, link, timeout=60), loss, sur, link)
    assert w.values["optimal loss"] == Fraction(1, 2)


def test_the_lovasz_hinge_refuses_a_set_function_that_is_not_submodular():
    with pytest.raises(InvalidInput, match="submodular"):
        surrogates.lovasz_hinge(2, lambda S: len(S) ** 2)
    with pytest.raises(InvalidInput, match="ell\\(empty set\\)"):
        surrogates.lovasz_hinge(2, lambda S: len(S) + 1)
    with pytest.raises(InvalidInput, match="k"):
        surrogates.topk_error(4, 4)


def test_a_linear_link_with_repeated_rows_is_refuted_only_when_every_tied_prediction_is_suboptimal():
    sur = surrogates.squared(3)
    # argmin of u* = p with costs p1, p2 for predictions 1, 2 (right in their cells); 3 and 4 share u3's
    # cell, where both are always beaten by 1: refuted whatever the tie-breaking
    bad = [[1, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1]]
    argmin = {"linear": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]]}
    w = assert_refuted_with_exact_witness(check_calibration(bad, sur, argmin, timeout=30), bad, sur, argmin)
    assert w.values["pred"] in ("3", "4")
    loss = [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1]]  # prediction 4: never better than 3, same link row
    argmax = {"linear": [[-1, 0, 0], [0, -1, 0], [0, 0, -1], [0, 0, -1]]}  # 3 optimal on the cell, 4 never
    v = check_calibration(loss, sur, argmax, timeout=30)
    assert v.status is Status.UNKNOWN and "tie" in v.reason  # it depends on the link's tie-breaking
    dup = [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 0]]  # 4 a copy of 3: the tie is harmless
    assert check_calibration(dup, sur, argmax, timeout=30).status is Status.PROVED


# --------------------------------------------------------------------------- the largest calibrated subset


def test_the_region_of_weston_watkins_is_exact_each_failing_piece_has_an_exact_counterexample():
    from symcal.calibration import calibrated_region

    sur = surrogates.weston_watkins(3)
    r = calibrated_region(Z1_3, sur, "argmax", timeout=60)
    assert r.status is Status.PROVED and len(r.pieces) == 6, r.describe()
    assert r.good is not None and r.good.status is Status.PROVED  # calibration over P minus the pieces
    assert r.maximal is not None and r.maximal.answer == "unsat"  # every point of the pieces fails
    for pc in r.pieces:
        w = assert_refuted_with_exact_witness(pc.verdict, Z1_3, sur, "argmax")
        assert max(Fraction(w.values[f"p{i}"]) for i in (1, 2, 3)) <= Fraction(1, 2)  # no dominant class fails
        assert Fraction(1, 3) in {v[0] for v in pc.vertices}  # every piece touches the centre
    assert "calibrated exactly on P minus these 6 pieces" in r.describe()


def test_a_calibrated_surrogate_has_no_failing_piece_and_a_smooth_one_is_unknown():
    from symcal.calibration import calibrated_region

    r = calibrated_region(Z1_3, surrogates.lee_lin_wahba(3), "argmax", timeout=60)
    assert r.status is Status.PROVED and r.pieces == () and r.calibrated_everywhere
    ww = calibrated_region(Z1_3, surrogates.weston_watkins(3), "argmax", noise=dominant(3), timeout=60)
    assert ww.status is Status.PROVED and ww.pieces == ()  # inside max p_y > 1/2 nothing fails
    logistic = Surrogate.parse({"dim": 3, "per_label": [f"log(exp(u1) + exp(u2) + exp(u3)) - u{y}"
                                                         for y in (1, 2, 3)]})
    r = calibrated_region(Z1_3, logistic, "argmax", timeout=30)
    assert r.status is Status.UNKNOWN and "polyhedral" in r.reason
