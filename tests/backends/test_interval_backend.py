"""The interval backend: bounded inequalities with exp/log/sqrt are proved only by z3 (when
algebraic) or rigorous mpmath iv branch-and-bound, refuted only at an exact rational point
re-checked at a higher precision, and unknown when the budget runs out.  Each positive case
has a negative twin."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy

from symcal import Citation, Status, bounded_inequality, check
from symcal.backends.interval_backend import enclosure, is_algebraic
from symcal.errors import InvalidInput
from symcal.verdicts import IntervalProof, SmtResult, Verdict

C = Citation("mine2026", "Notebook", "test inequalities")
x, y, a, b = sympy.symbols("x y a b", real=True)


def decide(lhs, rel, rhs, box, **kw) -> Verdict:
    return check(bounded_inequality("mine2026.t", lhs, rel, rhs, box=box, cite=C, **kw), isolate=False, timeout=30)


def reevaluate_violation(v: Verdict, expr, rel) -> bool:
    """Independent re-check of a refutation: exact sympy value or a 300-bit mpmath value."""
    import mpmath

    sub = {s: sympy.Rational(val.numerator, val.denominator) for s, val in
           ((sympy.Symbol(k, real=True), val) for k, val in v.witness.values.items())}
    val = sympy.sympify(expr).xreplace(sub)
    with mpmath.workdps(90):
        num = mpmath.mpf(sympy.N(val, 80))
    return {">=": num < 0, ">": num <= 0, "<=": num > 0, "<": num >= 0}[rel] or val == 0 and rel in (">", "<")


def test_exp_above_its_tangent_is_proved_by_intervals_and_the_strict_form_refuted_at_the_touch_point():
    v = decide(sympy.exp(x), ">=", 1 + x, {x: (-2, 2)})
    assert v.status is Status.PROVED and isinstance(v.evidence, IntervalProof)
    assert v.evidence.boxes > 0 and v.evidence.precision_bits == 53 and "[-2, 2]" in v.scope
    twin = decide(sympy.exp(x), ">", 1 + x, {x: (-2, 2)})
    assert twin.status is Status.REFUTED and twin.witness.values == {"x": F(0)}
    assert twin.witness.rechecked and "bits" in twin.witness.detail


def test_log_below_its_tangent_with_an_interior_touch_point_is_proved_and_a_nudged_constant_refuted():
    v = decide(sympy.log(x), "<=", x - 1, {x: (F(1, 10), 3)})
    assert v.status is Status.PROVED and v.evidence.face_reductions > 0
    twin = decide(sympy.log(x), "<=", x - 1 - F(1, 1000), {x: (F(1, 10), 3)})
    assert twin.status is Status.REFUTED
    assert reevaluate_violation(twin, sympy.log(x) - (x - 1 - F(1, 1000)), "<=")


def test_a_second_order_tight_inequality_is_closed_by_derivative_sub_proofs():
    # x log x - (1+x) log((1+x)/2) >= (1-x)^2/4 on [1/100, 1]: tight at x = 1 to second order
    h = x * sympy.log(x) - (1 + x) * sympy.log((1 + x) / 2)
    v = decide(h, ">=", (1 - x) ** 2 / 4, {x: (F(1, 100), 1)})
    assert v.status is Status.PROVED and isinstance(v.evidence, IntervalProof)
    twin = decide(h, ">=", (1 - x) ** 2 * F(26, 100), {x: (F(1, 100), 1)})
    assert twin.status is Status.REFUTED
    assert reevaluate_violation(twin, h - (1 - x) ** 2 * F(26, 100), ">=")


def test_a_curve_of_tight_points_stays_unknown_when_the_box_budget_runs_out():
    lhs = a * sympy.log(a) + b * sympy.log(b) - (a + b) * sympy.log((a + b) / 2)
    v = decide(lhs, ">=", (a - b) ** 2 / 4, {a: (F(1, 100), 1), b: (F(1, 100), 1)}, max_boxes=300)
    assert v.status is Status.UNKNOWN and "box limit 300" in v.reason
    # away from the diagonal the same inequality closes
    v2 = decide(lhs, ">=", (a - b) ** 2 / 4, {a: (F(1, 100), 1), b: (F(1, 100), 1)},
                conditions=[a >= b + F(1, 10)], max_boxes=5000)
    assert v2.status is Status.PROVED


def test_side_conditions_restrict_the_box_and_dropping_them_refutes():
    v = decide(sympy.exp(x), ">=", F(3, 2), {x: (0, 1)}, conditions=[x >= F(1, 2)])
    assert v.status is Status.PROVED
    twin = decide(sympy.exp(x), ">=", F(3, 2), {x: (0, 1)})
    assert twin.status is Status.REFUTED and twin.witness.values["x"] < F(1, 2)


def test_algebraic_inequalities_go_to_z3_including_square_roots_by_auxiliary_variables():
    v = decide((sympy.sqrt(a) - sympy.sqrt(b)) ** 2, ">=", (a - b) ** 2 / 4, {a: (0, 1), b: (0, 1)})
    assert v.status is Status.PROVED and isinstance(v.evidence, SmtResult) and v.backend == "z3"
    twin = decide(x**2, ">=", x, {x: (-2, 2)})
    assert twin.status is Status.REFUTED and twin.witness.rechecked
    assert 0 < twin.witness.values["x"] < 1
    assert is_algebraic(sympy.sqrt(a) + 1 / a) and not is_algebraic(sympy.exp(a))


def test_pi_and_e_are_enclosed_rigorously():
    v = decide(sympy.pi, ">", F(314159, 100000), {x: (0, 1)})  # x unused; a box is still required
    assert v.status is Status.PROVED
    twin = decide(sympy.pi, "<", F(314159, 100000), {x: (0, 1)})
    assert twin.status is Status.REFUTED
    lo, hi = enclosure(sympy.E, {x: (0, 1)}, precision=200)
    e70 = F("2.7182818284590452353602874713526624977572470936999595749669676277240766")  # e truncated
    assert lo <= e70 + F(1, 10**70) and e70 <= hi and hi - lo < F(1, 10**50)


def test_an_expression_undefined_on_part_of_the_box_is_never_proved():
    v = decide(sympy.log(x), ">=", -100, {x: (0, 1)}, max_depth=12)
    assert v.status is Status.UNKNOWN
    ok = decide(sympy.log(x), ">=", -100, {x: (F(1, 10**6), 1)})
    assert ok.status is Status.PROVED


@pytest.mark.parametrize(
    "box, param",
    [
        ({x: (0.5, 1)}, "box[x] lower bound"),
        ({x: (2, 1)}, "box[x]"),
        ({x: (0,)}, "box[x]"),
        ({}, "box"),
        ({"x": (0, 1)}, "box"),
        ({y: (0, 1)}, "box"),
    ],
)
def test_bad_boxes_are_clear_errors(box, param):
    with pytest.raises(InvalidInput) as e:
        bounded_inequality("mine2026.bad", sympy.exp(x), ">=", 1, box=box, cite=C)
    assert e.value.param == param


def test_bad_relations_and_budgets_are_clear_errors():
    with pytest.raises(InvalidInput, match="relation"):
        bounded_inequality("mine2026.bad", sympy.exp(x), "==", 1, box={x: (0, 1)}, cite=C)
    with pytest.raises(InvalidInput, match="max_boxes"):
        bounded_inequality("mine2026.bad", sympy.exp(x), ">=", 1, box={x: (0, 1)}, cite=C, max_boxes=0)
    v = decide(sympy.exp(x), ">=", sympy.Float(0.5), {x: (0, 1)})
    assert v.status is Status.UNKNOWN and "float" in v.reason
