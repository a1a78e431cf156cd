"""The engine's backends: proofs carry evidence, refutations carry re-checked witnesses,
time limits really stop the work, and nothing unsupported is reported as proved."""

import time
from fractions import Fraction

import pytest
import sympy

from symcal import Citation, InvalidInput, Local, exists, finite_check, identity, implies, node_implies, reals
from symcal.backends.nodes import recheck
from symcal.backends.smt_claims import check_assignment
from symcal.runner import check, check_many
from symcal.verdicts import Composite, SmtResult, Status
from tests.common.known_claims import LOW_NOISE, ORDERING

C = Citation("test2026", "Lemma 1", "q")
x, y, p, q = reals("x y p q")


def test_binomial_square_is_proved_and_its_perturbation_refuted():
    claim = identity("test2026.sq", (x + y) ** 2, x**2 + 2 * x * y + y**2, cite=C)
    assert check(claim).status is Status.PROVED
    wrong = identity("test2026.sq2", (x + y) ** 2, x**2 + x * y + y**2, cite=C)
    v = check(wrong)
    assert v.status is Status.REFUTED and v.witness.rechecked
    pt = {sympy.Symbol(k, real=True): sympy.Rational(str(val)) for k, val in v.witness.values.items()}
    assert ((x + y) ** 2 - (x**2 + x * y + y**2)).subs(pt) != 0


def test_an_identity_with_a_root_is_not_refuted_by_a_residual_that_merely_fails_to_simplify():
    c = identity("test2026.root", sympy.sqrt(x**2), sympy.Abs(x), cite=C)
    assert check(c).status in (Status.PROVED, Status.UNKNOWN)


def test_an_identity_refuted_through_a_logarithm_uses_an_interval_enclosure():
    c = identity("test2026.log", sympy.log(x * y), sympy.log(x) + sympy.log(y) + sympy.Rational(1, 10**6),
                 cite=C, conditions=[x > 0, y > 0])
    v = check(c)
    assert v.status is Status.REFUTED and v.witness.rechecked


def test_implication_proof_carries_smtlib_of_the_negated_query():
    c = implies("test2026.amgm", hypotheses={"s": [p >= 0, q >= 0, sympy.Eq(p + q, 1)]},
                conclusion=p * q <= sympy.Rational(1, 4), cite=C)
    v = check(c)
    assert v.status is Status.PROVED
    assert isinstance(v.evidence, SmtResult) and "(check-sat)" in v.evidence.smtlib


def test_a_refuted_implication_has_small_exact_numbers_that_satisfy_the_hypotheses():
    c = implies("test2026.big", hypotheses={"pos": [x > 0]}, conclusion=x > 3, cite=C)
    v = check(c)
    assert v.status is Status.REFUTED
    val = Fraction(v.witness.values["x"])
    assert 0 < val <= 3 and val.denominator <= 6


def test_exp_under_z3_is_unknown_with_the_reason_never_proved():
    c = implies("test2026.exp", hypotheses={}, conclusion=sympy.exp(x) >= 1 + x, cite=C)
    v = check(c)
    assert v.status is Status.UNKNOWN and "exp" in v.reason


def test_exists_with_a_printed_witness_is_checked_exactly_and_a_wrong_one_does_not_refute_the_existence():
    good = exists("test2026.w", constraints={"c": [x > 1, x < 2]}, witness={x: Fraction(3, 2)}, cite=C)
    assert check(good).status is Status.WITNESSED
    # a failing printed point says nothing about the existence: the search decides it (issue 23)
    bad = exists("test2026.w2", constraints={"c": [x > 1, x < 2]}, witness={x: 2}, cite=C)
    v = check(bad)
    assert v.status is Status.WITNESSED and any("the given witness x = 2 fails" in w for w in v.warnings)
    empty = exists("test2026.w3", constraints={"c": [x > 2, x < 1]}, witness={x: 2}, cite=C)
    v = check(empty)
    assert v.status is Status.REFUTED and any("the given witness x = 2 fails" in w for w in v.warnings)


def test_exists_without_a_witness_searches_and_proves_emptiness():
    found = check(exists("test2026.s", constraints={"c": [sympy.Eq(x * x, 2)]}, cite=C))
    # x*x = 2 has only irrational solutions: no rounding passes the exact re-check, but z3's
    # algebraic model itself does, re-checked in exact algebraic arithmetic (issue 12, item 2)
    assert found.status is Status.WITNESSED
    assert sympy.minimal_polynomial(found.witness.values["x"], x) == x**2 - 2  # -sqrt(2) or sqrt(2)
    assert "algebraic arithmetic" in found.witness.detail
    easy = check(exists("test2026.s2", constraints={"c": [sympy.Eq(x * x, 4), x < 0]}, cite=C))
    assert easy.status is Status.WITNESSED and easy.witness.values == {"x": Fraction(-2)}
    none = check(exists("test2026.s3", constraints={"c": [x * x < 0]}, cite=C))
    assert none.status is Status.REFUTED


def test_python_equality_in_a_constraint_is_an_error_not_a_vacuous_answer():
    with pytest.raises(InvalidInput, match="sympy.Eq"):  # refused when the claim is built (issue 13)
        exists("test2026.eq", constraints={"c": [x * x == 4]}, cite=C)
    v = check(exists("test2026.eq", constraints={"c": [sympy.Eq(x * x, 4)]}, cite=C))
    assert v.status is Status.WITNESSED


def test_a_witness_that_does_not_satisfy_the_claim_is_rejected_by_the_exact_recheck():
    # node claims: a candidate where the conclusion holds is not a counterexample
    from symcal.claims.core import NodeSpec

    spec = NodeSpec({"low_noise": LOW_NOISE}, ORDERING)
    ok, why = recheck(spec, 3, {(1, 2): Fraction(1), (2, 3): Fraction(1), (1, 3): Fraction(2)})
    assert not ok and "holds" in why
    ok2, why2 = recheck(spec, 3, {(1, 2): Fraction(1), (2, 3): Fraction(1)})
    assert not ok2 and "low_noise fails" in why2
    # symbolic claims: the exact evaluator says which part fails
    st, note = check_assignment({"pos": [x > 0]}, {x: Fraction(-1)})
    assert st["pos"] is False and "pos fails" in note


def test_lemma14_is_proved_per_size_and_for_all_sizes_by_local_lemma():
    c = node_implies("test2026.l14", hypotheses={"low_noise": LOW_NOISE}, conclusion=ORDERING, cite=C,
                     sizes=(3, 6))
    v = check(c)
    assert v.status is Status.PROVED and [s.size for s in v.sizes] == [3, 4, 5, 6]
    from symcal import all_sizes

    lv = check(all_sizes(c, "test2026.l14.all_m"))
    assert lv.status is Status.PROVED and lv.scope.startswith("all m >= 3, for functions that use node labels")
    assert isinstance(lv.evidence, Composite)


def test_a_node_claim_that_compares_labels_is_checked_one_case_at_a_time():
    by_label = Local(2, lambda a, i, j: a.d(i, j) >= 0 if i < j else a.d(i, j) <= 0)
    c = node_implies("test2026.labels", hypotheses={"sorted": by_label},
                     conclusion=Local(2, lambda a, i, k: a(i, k) >= 0), cite=C, sizes=(3, 3), symmetric=False)
    assert check(c).status is Status.PROVED


def test_a_local_lemma_that_does_not_apply_is_unknown_not_refuted():
    from symcal import Implies, all_sizes

    pair = Local(2, lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j) * a.d(k, j)) >= 0))
    c = node_implies("test2026.nonlocal", hypotheses={}, conclusion=pair, cite=C, sizes=(3, 4))
    v = check(all_sizes(c, "test2026.nonlocal.all_m"))
    assert v.status is Status.UNKNOWN


def test_a_solver_timeout_is_unknown_after_its_cpu_budget():
    # Fermat for cubes over positive integers: true, and far beyond z3's nonlinear integer reasoning
    a, b, c = sympy.symbols("fa fb fc", integer=True)
    claim = implies("test2026.fermat3", hypotheses={"pos": [a > 0, b > 0, c > 0]},
                    conclusion=sympy.Ne(a**3 + b**3, c**3), cite=C)
    from symcal.limits import WALL_FACTOR

    t = time.monotonic()
    v = check(claim, timeout=1.0)
    # 1 CPU second: on an idle machine about 1 s of wall time, on a busy one more, never past the backstop
    assert time.monotonic() - t < WALL_FACTOR * 1.0 + 5
    assert v.status is Status.UNKNOWN and "CPU seconds" in v.reason


def test_a_check_that_ignores_its_time_limit_is_killed_and_reported_unknown():
    def forever(_case):
        while True:
            time.sleep(0.05)

    from symcal.limits import WALL_FACTOR

    c = finite_check("test2026.hang", cases=[1], holds=forever, domain="one case", cite=C)
    t = time.monotonic()
    v = check(c, timeout=1.0)
    # it sleeps (no CPU), so the wall-clock backstop WALL_FACTOR x budget + 5 s stops it
    assert time.monotonic() - t < WALL_FACTOR * 1.0 + 5 + 1.0
    assert v.status is Status.UNKNOWN and "killed" in v.reason


def test_parallel_jobs_keep_each_verdict_with_its_claim():
    claims = [implies(f"test2026.c{k}", hypotheses={"h": [x > k]}, conclusion=x > k + (1 if k % 2 else -1),
                      cite=C) for k in range(6)]
    vs = check_many(claims, jobs=3, timeout=20)
    assert [v.claim_id for v in vs] == [c.id for c in claims]
    assert [v.status for v in vs] == [Status.PROVED if k % 2 == 0 else Status.REFUTED for k in range(6)]


def test_a_sweep_states_the_largest_size_decided_when_time_runs_out():
    def slow_from_5(m):
        if m >= 5:
            while True:
                time.sleep(0.05)
        return [m]

    c = finite_check("test2026.sweep", cases=slow_from_5, holds=lambda m: True, domain="sizes", cite=C,
                     sizes=(3, 7))
    v = check(c, timeout=0.5)
    assert v.status is Status.UNKNOWN
    assert "decided for m = 3..4 (largest 4)" in v.reason
    assert [s.status for s in v.sizes][:2] == [Status.PROVED, Status.PROVED]


def test_sign_assumptions_on_symbols_are_kept_as_hypotheses():
    nu = sympy.Symbol("nu", positive=True)
    c = implies("test2026.nu", hypotheses={}, conclusion=1 / nu > 0, cite=C)
    assert check(c).status is Status.PROVED
    t = sympy.Symbol("t", positive=True)
    wrong = implies("test2026.t", hypotheses={}, conclusion=t > 1, cite=C)
    v = check(wrong)
    assert v.status is Status.REFUTED and 0 < Fraction(v.witness.values["t"]) <= 1


def test_a_rounded_model_that_divides_by_zero_is_skipped_not_an_error():
    from symcal.backends.translate import UNDECIDED, truth_at

    assert truth_at(1 / x > 0, {x: Fraction(0)}) is UNDECIDED
