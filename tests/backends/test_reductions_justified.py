"""Every reduction the engine applies is justified, never assumed (issue 12, item 0).

A user's node claim whose functions compare node labels must not be "proved" by fixing the
failing tuple through a node symmetry it does not have; a vacuous implication is flagged.
"""

from __future__ import annotations

import sympy

from symcal import Status, check
from symcal.claims import Citation, Local, all_sizes, implies, implies_cases, node_implies
from symcal.logic import And, Implies

C = Citation("Mine 2026", "Lemma 1")

UP = Local(2, lambda a, i, j: Implies(i < j, a.d(i, j) >= 0), "i < j -> d_ij >= 0")
DOWN = Local(2, lambda a, i, k: Implies(i > k, a.d(i, k) >= 0), "i > k -> d_ik >= 0")


def label_claim(**kw):
    return node_implies("mine2026.label", hypotheses={"up": UP}, conclusion=DOWN, cite=C, sizes=(3, 6), **kw)


def test_a_claim_that_compares_labels_is_refuted_with_the_smallest_counterexample():
    v = check(label_claim())
    assert v.status is Status.REFUTED
    w = v.witness
    assert w is not None and w.rechecked and w.size == 3
    assert w.values["a[1,2]"] == 1 and sum(w.values.values()) == 1


def test_the_same_claim_without_symmetry_gives_the_same_refutation():
    v = check(label_claim(symmetric=False))
    assert v.status is Status.REFUTED and v.witness is not None and v.witness.size == 3


def test_all_sizes_of_a_label_comparing_claim_is_unknown_with_the_reason_never_proved():
    v = check(all_sizes(label_claim(), "mine2026.label.all_m"))
    assert v.status is Status.UNKNOWN
    assert "node labels" in v.reason


def test_a_symmetric_claim_records_its_symmetry_justification_in_the_evidence():
    same = Local(2, lambda a, i, j: a.d(i, j) >= 0, "d_ij >= 0")
    c = node_implies("mine2026.sym", hypotheses={"h": same}, conclusion=Local(2, lambda a, i, j: a.d(i, j) <= 0),
                     cite=C, sizes=(3, 3))
    v = check(c)
    assert v.status is Status.PROVED
    assert "node symmetry justified" in str(v.evidence.to_json())


def test_a_label_comparing_but_symmetric_claim_is_justified_per_size_by_the_structural_check():
    both = Local(2, lambda a, i, j: And(Implies(i < j, a.d(i, j) >= 0), Implies(i > j, a.d(i, j) >= 0)), "d_ij >= 0")
    c = node_implies("mine2026.both", hypotheses={"h": both}, conclusion=Local(2, lambda a, i, j: a.d(i, j) <= 0),
                     cite=C, sizes=(3, 4))
    v = check(c)
    assert v.status is Status.PROVED
    assert "justified on the formulas" in str(v.evidence.to_json())
    # its negative twin: a strict conclusion is refuted (d = 0 everywhere satisfies the hypothesis)
    twin = node_implies("mine2026.both_twin", hypotheses={"h": both},
                        conclusion=Local(2, lambda a, i, j: a.d(i, j) < 0), cite=C, sizes=(3, 4))
    assert check(twin).status is Status.REFUTED


def test_a_label_comparing_conclusion_is_not_fixed_by_symmetry():
    # the hypothesis is symmetric, the conclusion is not: "i < j -> d_ij >= 0" fails at a_21 = 1
    h = Local(2, lambda a, i, j: a(i, j) >= 0, "a_ij >= 0")
    c = node_implies("mine2026.concl", hypotheses={"h": h}, conclusion=UP, cite=C, sizes=(3, 3))
    v = check(c)
    assert v.status is Status.REFUTED and v.witness is not None


def test_a_vacuous_node_claim_is_flagged():
    impossible = Local(2, lambda a, i, j: a.d(i, j) > 0, "d_ij > 0 for every ordered pair (impossible)")
    c = node_implies("mine2026.vacuous", hypotheses={"h": impossible},
                     conclusion=Local(2, lambda a, i, j: a.d(i, j) < -1), cite=C, sizes=(3, 3))
    v = check(c)
    assert v.status is Status.PROVED and v.vacuous


def test_a_vacuous_implication_is_flagged_and_a_satisfiable_one_is_not():
    x = sympy.Symbol("x", real=True)
    vac = implies("mine2026.vac", hypotheses={"a": [x > 1], "b": [x < 0]}, conclusion=x > 5, cite=C)
    v = check(vac)
    assert v.status is Status.PROVED and v.vacuous
    fine = implies("mine2026.fine", hypotheses={"a": [x > 1]}, conclusion=x > 0, cite=C)
    v2 = check(fine)
    assert v2.status is Status.PROVED and not v2.vacuous


def test_a_family_with_every_case_vacuous_is_flagged():
    x = sympy.Symbol("x", real=True)
    cases = [(f"k={k}", {"h": [x > k, x < -k]}, x > 100) for k in (1, 2)]
    v = check(implies_cases("mine2026.vac_cases", cases=cases, cite=C))
    assert v.status is Status.PROVED and v.vacuous


def test_the_vacuity_warning_reaches_the_json_report():
    from symcal.report.render import element

    x = sympy.Symbol("x", real=True)
    vac = implies("mine2026.vac", hypotheses={"a": [x > 1], "b": [x < 0]}, conclusion=x > 5, cite=C)
    row = element(vac, check(vac))
    assert row["warnings"] and row["warnings"][0].startswith("vacuous")
