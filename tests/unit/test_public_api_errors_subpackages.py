"""Every public callable of symcal's sub-packages refuses bad arguments in one line, as a SymcalError.

The list of callables is ``symcal.ranking.__all__``, ``symcal.calibration.__all__``,
``symcal.exact.__all__`` and ``symcal.explore.__all__``: a public name added without an entry in
``GOOD`` below (or ``NOT_CALLED``, with the reason) fails ``test_every_subpackage_public_name_is_covered``.
As in ``test_public_api_errors.py`` (whose machinery, ``tests/common/public_api.py``, this reuses),
for every callable:

* its *good* call is accepted (the negative twin of everything else);
* each of its *curated* bad calls raises a :class:`~symcal.errors.SymcalError` whose one-line message
  names the parameter;
* each of its parameters gets generic bad values: the call is accepted or refused with a SymcalError --
  never another exception, never a hang.  By default the values are the ones that found problems
  (None, a wrong type, NaN, -1, a 100,000-digit integer, an endless iterator); the ``slow`` variant
  gives every parameter every generic value.

Each callable runs in a forked child with a time limit per call.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
import sympy

import symcal.calibration
import symcal.exact
import symcal.explore
import symcal.ranking
from symcal import Citation, Status, Verdict, implies, reals
from symcal.calibration import CalibrationWitness, Link, check_calibration
from symcal.ranking import (
    PHI_EXP,
    PreferenceDistribution,
    PreferenceGraph,
    linear_costs,
    numeric_pairwise_risk,
    zero_one_costs,
)
from tests.common.public_api import HUGE, ApiTable

pytestmark = pytest.mark.skipif(os.name != "posix", reason="forked children")

ROOT = Path(__file__).resolve().parents[2]
x, y = reals("x y")
C = Citation("test2026", "Lemma 1")
PER_CALL_SECONDS = 20.0
T = 5  # the timeout= of the good checks

G1 = PreferenceGraph(3, {(1, 2): F(1), (1, 3): F(3)})
G2 = PreferenceGraph(3, {(2, 3): F(1, 4), (3, 1): F(1)})
DIST = PreferenceDistribution([(G1, F(1, 2)), (G2, F(1, 2))])
W = {(1, 2): F(1), (2, 3): F(1), (1, 3): F(1, 2)}  # a low-noise weight map on 3 nodes
ALPHA = [F(1), F(1, 2), F(0)]

Z1 = [[0, 1], [1, 0]]
LOGISTIC = {"dim": 1, "per_label": ["log(1 + exp(-u1))", "log(1 + exp(u1))"]}
SQUARE = {"dim": 1, "per_label": ["u1**2", "u1**2"]}  # not calibrated: u1 = 0 whatever p
SQUARED = {"dim": 1, "per_label": ["(1 - u1)**2", "(1 + u1)**2"]}  # the quickest regret bound to derive
SIGN = {"linear": [[-1], [1]]}
NOT_CAL = (Z1, SQUARE, SIGN)


@functools.cache
def _witness() -> CalibrationWitness:
    v = check_calibration(*NOT_CAL, timeout=T, cross_check=False)
    assert v.status is Status.REFUTED
    return v.witness


def _link() -> Link:
    return symcal.calibration.setup(*NOT_CAL).link


def _claim():
    return implies("test2026.nec", hypotheses={"pos": [x > 0], "big": [y > 1]}, conclusion=x * y > 0, cite=C)


def _verdict() -> Verdict:
    return Verdict("test2026.nec", Status.UNKNOWN, "all x, y", "z3", 0.1, reason="timeout")


def _listed(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A generator function, called and run to its end (``list(fn(...))``): what a caller does with it."""
    @functools.wraps(fn)
    def run(*a: Any, **k: Any) -> list[Any]:
        return list(fn(*a, **k))
    return run


def _public() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for module in (symcal.ranking, symcal.calibration, symcal.exact, symcal.explore):
        for name in module.__all__:
            assert name not in out, f"{name} is public in two sub-packages"
            out[name] = getattr(module, name)
    out["dags"] = _listed(out["dags"])
    return out


# name -> (positional arguments, keyword arguments) of a call that must be accepted (or a function making it)
GOOD: dict[str, Any] = {
    # symcal.ranking: costs
    "CheckResult": ((True, "ok"), {}),
    "CostScheme": ((3, {(1, 2): 1, (1, 3): 2, (2, 3): 1}), {"name": "c"}),
    "ConditionResult": ((True, 3, "ok"), {}),
    "satisfies_theorem3_condition": ((zero_one_costs(3),), {"timeout": T}),
    "optimal_ranking_function": ((linear_costs(3),), {}),
    "zero_one_costs": ((3,), {}),
    "linear_costs": ((3,), {}),
    "dcg_costs": ((3,), {}),
    "weighted_scale_costs": (([1, 1, 1], [0, 1, 2]), {}),
    "orboost_costs": (([0, 1],), {}),
    "pairs_costs": (([1, 1, 1],), {}),
    "ovo_costs": (([1, 1, 1],), {}),
    "cons_costs": (([1, 1, 1],), {}),
    # preference graphs and weights
    "PreferenceGraph": ((3, {(1, 2): 1}), {}),
    "PreferenceDistribution": (([(G1, F(1, 2)), (G2, F(1, 2))],), {}),
    "expected_weights": ((DIST,), {}),
    "as_weights": ((DIST,), {}),
    "unit_weights": ((3, [(1, 2)]), {}),
    "single_edge_distribution": ((3, [(1, 2)]), {}),
    "dags": ((3,), {}),
    "count_dags": ((3,), {}),
    "difference_graph": ((W,), {}),
    "difference_cycle": ((W,), {}),
    "is_low_noise": ((W,), {}),
    # losses
    "pairwise_loss": ((ALPHA, G1), {}),
    "conditional_risk": ((W, ALPHA), {}),
    "MinRisk": ((F(1), (1, 2, 3)), {}),
    "min_conditional_risk": ((W,), {}),
    "in_optimal_set": ((W, ALPHA), {}),
    "OrderConstraint": ((1, 2, True), {}),
    "optimal_set_description": ((W,), {}),
    "in_lemma16_set": ((W, ALPHA), {}),
    "scores_from_order": (((1, 2, 3),), {}),
    # surrogates
    "Phi": ((PHI_EXP.name, PHI_EXP.expr, PHI_EXP.func, PHI_EXP.derivative), {}),
    "pairwise_surrogate_risk": ((DIST, ALPHA, PHI_EXP), {}),
    "margin_surrogate_risk": ((DIST, ALPHA, PHI_EXP), {}),
    "linear_surrogate_risk": ((DIST, ALPHA, 1), {}),
    "linear_surrogate_minimiser": ((W,), {}),
    "NumericRisk": ((3, lambda a: 0.0, lambda a: a, True, "d"), {}),
    "NumericMinimum": (((0.0, 1.0), 0.0, 0.0, True, "bfgs", "ok"), {}),
    "numeric_pairwise_risk": ((DIST, PHI_EXP), {}),
    "numeric_margin_risk": ((DIST, PHI_EXP), {}),
    "minimise_surrogate_risk": ((numeric_pairwise_risk(DIST, PHI_EXP),), {"maxiter": 200}),
    "order_of": (([1.0, 0.5, 0.0],), {}),
    "GapReport": (("ok", 0.1, None, None, {}, "r"), {}),
    "numeric_gap_outside_optimal_set": ((W, [1.0, 0.5, 0.0]), {}),
    # feedback arc sets
    "FasResult": (((1, 2, 3), (), F(0), True, "exact", 0.0), {}),
    "min_feedback_arc_set": ((W,), {"time_limit": T}),
    "brute_force_feedback_arc_set": ((W,), {}),
    "order_cost": ((W, (1, 2, 3)), {}),
    # files
    "load_preferences": ((str(ROOT / "examples" / "preferences.json"),), {}),
    "parse_preferences": (({"m": 3, "weights": [[1, 2, "3/4"], [2, 1, "1/4"]]},), {}),
    "describe_preferences": ((DIST,), {"time_limit": T}),
    # symcal.calibration
    "check_calibration": ((Z1, LOGISTIC, SIGN), {"timeout": T, "cross_check": False}),
    "calibrated_region": ((Z1, LOGISTIC, SIGN), {"timeout": T}),
    "check_file": ((str(ROOT / "examples" / "calibration" / "logistic_binary.json"),),
                   {"timeout": T, "cross_check": False}),
    "setup": ((Z1, LOGISTIC, SIGN), {"timeout": T}),
    "recheck_witness": lambda: (NOT_CAL + (_witness(),), {}),
    "regret": ((Z1, SQUARED, SIGN), {"timeout": T, "cross_check": False}),
    "Surrogate": ((1, ("exp(-u1)", "exp(u1)")), {}),
    "Link": lambda: ((), {k: getattr(_link(), k) for k in Link.__dataclass_fields__}),
    "cc_dimension": ((Z1,), {"cpu_seconds": T}),
    "CalibrationWitness": (({"p1": F(1, 2)}, True), {}),
    "CalibratedRegion": (("n", Status.PROVED, "P", (), None, None, 0.0), {}),
    "Precondition": (("n", True, "d"), {}),
    # symcal.exact
    "to_fraction": (("1/2",), {}),
    "fraction_str": ((F(1, 2),), {}),
    "to_sympy_rational": ((F(1, 2),), {}),
    "expr_str": ((x + 1,), {}),
    "Sign": ((1, "r"), {}),
    "sign": ((sympy.sqrt(2) - 1,), {}),
    "truth": ((sympy.sqrt(2) > 1,), {}),
    "zero_test": ((sympy.sin(x) ** 2 + sympy.cos(x) ** 2 - 1,), {}),
    "ZeroTest": ((True, "r"), {}),
    "normal_form": ((x + x,), {}),
    "check_size": ((x + 1,), {}),
    "CpuBudget": ((5.0,), {}),
    # symcal.explore
    "NecessityRow": (("pos", None, _verdict(), "all x, y"), {}),
    "necessity": ((_claim(),), {"timeout": T}),
}

# public names that are not called here, and why
NOT_CALLED = {
    "PHI_EXP": "a Phi instance (Phi itself is called)",
    "PHI_LOGISTIC": "a Phi instance (Phi itself is called)",
    "PHI_SQUARED_HINGE": "a Phi instance (Phi itself is called)",
    "DEFINITION": "a string",
}

# name -> [(parameter the message must name, positional, keyword)] that must be refused
BAD: dict[str, list[tuple[str, tuple[Any, ...], dict[str, Any]]]] = {
    "CostScheme": [("K", (True, {}), {}), ("costs", (3, None), {})],
    "satisfies_theorem3_condition": [("costs", (None,), {}), ("timeout", (zero_one_costs(3),), {"timeout": -1})],
    "zero_one_costs": [("K", (HUGE,), {}), ("K", (None,), {})],
    "weighted_scale_costs": [("w", (None, [0, 1]), {})],
    "pairs_costs": [("counts", (itertools.count(),), {})],
    "PreferenceGraph": [("m", (None, {}), {}), ("edges", (3, None), {})],
    "PreferenceDistribution": [("graphs_with_probs", (None,), {})],
    "unit_weights": [("m", (HUGE, [(1, 2)]), {})],
    "dags": [("m", (HUGE,), {}), ("m", (-1,), {})],
    "count_dags": [("m", (HUGE,), {})],
    "is_low_noise": [("weights", (None,), {})],
    "pairwise_loss": [("alpha", (None, G1), {})],
    "scores_from_order": [("order", (itertools.count(),), {})],
    "pairwise_surrogate_risk": [("phi", (DIST, ALPHA, None), {})],
    "minimise_surrogate_risk": [("gtol", (numeric_pairwise_risk(DIST, PHI_EXP),), {"gtol": float("nan")})],
    "order_of": [("alpha_floats", (None,), {})],
    "min_feedback_arc_set": [("time_limit", (W,), {"time_limit": -1})],
    "load_preferences": [("path", (None,), {})],
    # the data is named by its source, "<data>" by default
    "parse_preferences": [("<data>", (None,), {}), ("source", ({"m": 2, "weights": []},), {"source": None})],
    "check_calibration": [("loss", (None, LOGISTIC, SIGN), {}), ("timeout", (Z1, LOGISTIC, SIGN), {"timeout": -1})],
    "check_file": [("file", (None,), {})],  # named as the command line names it
    "recheck_witness": [("witness", (Z1, SQUARE, SIGN, None), {})],
    "Surrogate": [("dim", (None, ("u1",)), {})],
    "cc_dimension": [("cpu_seconds", (Z1,), {"cpu_seconds": -1})],
    "to_fraction": [("value", (None,), {}), ("value", (float("nan"),), {})],
    "sign": [("expr", (None,), {})],
    "CpuBudget": [("seconds", (-1,), {})],
    "necessity": [("claim", (None,), {}), ("timeout", (_claim(),), {"timeout": -1})],
}

# the parameters fuzzed where not all of them are symcal's
FUZZED: dict[str, tuple[str, ...]] = {}
# calls that may raise a plain exception, and why symcal cannot refuse them first
KNOWN: dict[str, str] = {}


def _quick_values() -> list[tuple[str, Callable[[], Any]]]:
    """The generic bad values of the default run: one of each kind (no value, a wrong type, a
    non-finite number, a negative one, a huge integer, an endless iterator)."""
    return [
        ("None", lambda: None),
        ("object()", object),
        ("nan", lambda: float("nan")),
        ("-1", lambda: -1),
        ("10**100000", lambda: HUGE),
        ("itertools.count()", itertools.count),
    ]


TABLE = ApiTable(_public(), GOOD, BAD, fuzzed=FUZZED, known=KNOWN, values=_quick_values,
                 per_call_seconds=PER_CALL_SECONDS, skip_defaults=True)
FULL = ApiTable(_public(), GOOD, BAD, fuzzed=FUZZED, known=KNOWN, per_call_seconds=PER_CALL_SECONDS)


def test_every_subpackage_public_name_is_covered():
    TABLE.check_coverage(NOT_CALLED)
    assert len(TABLE.public) == 83
    # its twin: a public name without an entry is noticed
    with pytest.raises(AssertionError, match="not_listed"):
        ApiTable({**TABLE.public, "not_listed": len}, GOOD, BAD).check_coverage(NOT_CALLED)


@pytest.mark.parametrize("name", sorted(n for n in GOOD))
def test_a_subpackage_callable_refuses_bad_arguments_with_a_one_line_symcal_error(name):
    TABLE.check(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(n for n in GOOD))
def test_a_subpackage_callable_refuses_every_generic_bad_value(name):
    FULL.check(name)
