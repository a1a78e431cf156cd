"""Red team of user claims (session 31): false verdicts found by writing claims with the README's
constructors, each pinned with its negative twin.

* A node claim's ``Local`` written with Python's ``==`` / ``!=`` on the accessor's values: on symbolic
  weights they compare expressions by structure (``d_1_2 == 0`` is the Python False), on exact weights
  by value, so the formulas the query was built from were another claim (a vacuous hypothesis, a
  conclusion that is always True) and false claims were proved.  Now the formulas must agree with the
  functions (z3 on the functions, exact points with ties) before they decide anything, and a
  refutation is sought on the functions themselves.
* A node function whose closure changed after an earlier decision: its formula remembered from then
  (built once for every size) decided the changed claim.  Now a formula that disagrees with its
  function is rebuilt.
* A hypothesis or constraint that sympy evaluated to True when it was built (a relation over a
  Piecewise without an otherwise branch) let a counterexample or witness sit where what was typed is
  undefined.  Now such a point is no refutation or witness (unknown, with the reason); proofs stand.
"""

from __future__ import annotations

import sympy

from symcal import Citation, Local, Or, Status, all_sizes, check, exists, implies, node_implies, reals

CITE = Citation("rt2026", "session 31 red team")
x, = reals("x")


def node(id: str, hyps: dict, concl: Local, sizes: tuple[int, int] = (2, 3)):
    return node_implies(id, hypotheses=hyps, conclusion=concl, cite=CITE, sizes=sizes)


# --------------------------------------------------------------------------- Python == / != in a Local


def test_a_hypothesis_written_with_python_eq_is_refuted_at_zero_weights_not_proved_vacuously():
    c = node("rt2026.eq_hyp", {"zero": Local(2, lambda a, i, j: a.d(i, j) == 0)},
             Local(2, lambda a, i, j: a.d(i, j) > 0))
    v = check(c, isolate=False)
    assert v.status is Status.REFUTED
    assert v.evidence.values == {"a[1,2]": 0, "a[2,1]": 0}


def test_the_same_hypothesis_written_with_sympy_eq_proves_a_true_conclusion():
    c = node("rt2026.eq_hyp_twin", {"zero": Local(2, lambda a, i, j: sympy.Eq(a.d(i, j), 0))},
             Local(2, lambda a, i, j: a.d(i, j) >= 0))
    assert check(c, isolate=False).status is Status.PROVED


def test_a_true_claim_with_a_python_eq_hypothesis_is_unknown_with_the_reason_not_proved():
    c = node("rt2026.eq_hyp_true", {"zero": Local(2, lambda a, i, j: a.d(i, j) == 0)},
             Local(2, lambda a, i, j: a.d(i, j) >= 0))
    v = check(c, isolate=False)
    assert v.status is Status.UNKNOWN
    assert "the formula is not the function" in v.reason and "sympy.Eq" in v.reason


def test_a_conclusion_written_with_python_ne_is_refuted_not_proved_as_always_true():
    c = node("rt2026.ne_concl", {}, Local(2, lambda a, i, j: a.d(i, j) != 0))
    assert check(c, isolate=False).status is Status.REFUTED


def test_the_same_conclusion_written_with_sympy_ne_under_a_strict_hypothesis_is_proved():
    c = node("rt2026.ne_concl_twin", {"pos": Local(2, lambda a, i, j: sympy.Or(a.d(i, j) > 0, a.d(j, i) > 0))},
             Local(2, lambda a, i, j: sympy.Ne(a.d(i, j), 0)))
    assert check(c, isolate=False).status is Status.PROVED


def test_python_eq_inside_symcal_or_is_caught_and_refuted_on_the_functions():
    hyp = Local(2, lambda a, i, j: Or(a.d(i, j) > 0, a(i, j) == a(j, i)))  # ties meant to be allowed
    c = node("rt2026.eq_in_or", {"h": hyp}, Local(2, lambda a, i, j: a.d(i, j) > 0))
    assert check(c, isolate=False).status is Status.REFUTED


def test_python_eq_inside_sympy_or_which_z3_cannot_run_is_unknown_not_proved():
    hyp = Local(2, lambda a, i, j: sympy.Or(a.d(i, j) > 0, a(i, j) == a(j, i)))
    v = check(node("rt2026.eq_in_sympy_or", {"h": hyp}, Local(2, lambda a, i, j: a.d(i, j) > 0)), isolate=False)
    assert v.status is Status.UNKNOWN and "the formula is not the function" in v.reason


def test_the_tie_written_with_sympy_eq_inside_the_or_is_refuted():
    hyp = Local(2, lambda a, i, j: sympy.Or(a.d(i, j) > 0, sympy.Eq(a(i, j), a(j, i))))
    c = node("rt2026.eq_in_or_twin", {"h": hyp}, Local(2, lambda a, i, j: a.d(i, j) > 0))
    assert check(c, isolate=False).status is Status.REFUTED


def test_an_all_size_claim_with_python_ne_is_not_proved_by_the_local_lemma():
    c = all_sizes(node("rt2026.ne_all", {}, Local(1, lambda a, i: a.sum(lambda j: a(i, j)) != 0)), "rt2026.ne_all.m")
    v = check(c, isolate=False)
    assert v.status is Status.UNKNOWN and "the formula is not the function" in v.reason


def test_the_all_size_claim_written_as_a_relation_is_proved_by_the_local_lemma():
    c = all_sizes(node("rt2026.ge_all", {}, Local(1, lambda a, i: a.sum(lambda j: a(i, j)) >= 0)), "rt2026.ge_all.m")
    assert check(c, isolate=False).status is Status.PROVED


def test_a_proved_node_claim_whose_hypothesis_z3_cannot_run_gets_its_vacuity_check_from_the_formulas():
    # sympy.Or does not take z3 terms: the vacuity check after the proof used to raise (an error verdict)
    hyp = Local(2, lambda a, i, j: sympy.Or(a.d(i, j) > 0, a.d(j, i) > 0))
    v = check(node("rt2026.vacuity_formulas", {"h": hyp}, Local(2, lambda a, i, j: sympy.Ne(a.d(i, j), 0))),
              isolate=False)
    assert v.status is Status.PROVED and not v.warnings


def test_a_vacuous_node_claim_whose_hypothesis_z3_cannot_run_is_flagged_vacuous():
    hyp = Local(2, lambda a, i, j: sympy.And(a.d(i, j) > 0, a.d(j, i) > 0))  # no weights satisfy it
    v = check(node("rt2026.vacuity_formulas_twin", {"h": hyp}, Local(2, lambda a, i, j: a.d(i, j) > 5)),
              isolate=False)
    assert v.status is Status.PROVED and any("vacuous" in w for w in v.warnings)


# --------------------------------------------------------------------------- a closure changed between decisions


def test_a_node_function_whose_closure_changed_since_an_earlier_decision_is_decided_anew():
    threshold = [0]
    concl = Local(2, lambda a, i, j: a.d(i, j) + a.d(j, i) >= threshold[0])
    assert check(node("rt2026.closure_before", {}, concl), isolate=False).status is Status.PROVED
    threshold[0] = 1  # now 0 >= 1 at every tuple: false
    assert check(node("rt2026.closure_after", {}, concl), isolate=False).status is Status.REFUTED


def test_a_changed_closure_is_caught_at_a_size_beyond_the_z3_check_too():
    threshold = [0]
    concl = Local(2, lambda a, i, j: a.d(i, j) + a.d(j, i) >= threshold[0])
    assert check(node("rt2026.closure_big_before", {}, concl, sizes=(7, 7)), isolate=False).status is Status.PROVED
    threshold[0] = 1
    assert check(node("rt2026.closure_big_after", {}, concl, sizes=(7, 7)), isolate=False).status is Status.REFUTED


def test_a_node_function_whose_closure_did_not_change_is_proved_again():
    threshold = [0]
    concl = Local(2, lambda a, i, j: a.d(i, j) + a.d(j, i) >= threshold[0])
    assert check(node("rt2026.closure_same1", {}, concl), isolate=False).status is Status.PROVED
    assert check(node("rt2026.closure_same2", {}, concl), isolate=False).status is Status.PROVED


# --------------------------------------------------------------------------- relations True as built

NO_DEFAULT = sympy.Piecewise((1, x > 0))  # undefined for x <= 0; sympy builds NO_DEFAULT > 0 as True


def test_an_implication_with_a_hypothesis_true_as_built_is_not_refuted_where_it_was_undefined():
    assert (NO_DEFAULT > 0) is sympy.true
    c = implies("rt2026.pw_hyp", hypotheses={"h": [x < 0, NO_DEFAULT > 0]}, conclusion=x > 0, cite=CITE)
    v = check(c, isolate=False)
    assert v.status is Status.UNKNOWN and "True as built" in v.reason


def test_the_implication_without_that_relation_is_refuted():
    c = implies("rt2026.pw_hyp_twin", hypotheses={"h": [x < 0]}, conclusion=x > 0, cite=CITE)
    assert check(c, isolate=False).status is Status.REFUTED


def test_an_implication_with_a_hypothesis_true_as_built_is_still_proved_when_it_holds():
    c = implies("rt2026.pw_hyp_proved", hypotheses={"h": [x > 1, NO_DEFAULT > 0]}, conclusion=x > 0, cite=CITE)
    assert check(c, isolate=False).status is Status.PROVED


def test_an_existence_with_a_constraint_true_as_built_is_not_witnessed_where_it_was_undefined():
    c = exists("rt2026.pw_exists", constraints={"h": [NO_DEFAULT > 0, x < 0]}, cite=CITE)
    v = check(c, isolate=False)
    assert v.status is Status.UNKNOWN and "True as built" in v.reason


def test_a_given_witness_where_a_constraint_true_as_built_was_undefined_is_no_witness():
    c = exists("rt2026.pw_exists_given", constraints={"h": [NO_DEFAULT > 0, x < 0]}, witness={x: -1}, cite=CITE)
    assert check(c, isolate=False).status is Status.UNKNOWN


def test_the_existence_without_that_constraint_is_witnessed():
    c = exists("rt2026.pw_exists_twin", constraints={"h": [x < 0]}, cite=CITE)
    assert check(c, isolate=False).status is Status.WITNESSED
