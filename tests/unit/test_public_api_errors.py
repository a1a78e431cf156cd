"""Every public callable of symcal refuses bad arguments in one line, as a SymcalError.

The list of callables is ``symcal.__all__`` and ``symcal.testing.__all__``: a public name added
without an entry in ``GOOD`` below (or ``NOT_CALLED``, with the reason) fails
``test_every_public_name_is_covered``.  For every callable:

* its *good* call is accepted (the negative twin of everything else);
* each of its *curated* bad calls raises a :class:`~symcal.errors.SymcalError` whose one-line message
  names the parameter (``param=value: expected ...``);
* each of its parameters, in turn, gets every *generic* bad value (None, a wrong type, an empty
  string, NaN / inf / negative numbers, a 100,000-digit integer, an endless iterator): the call
  is accepted or refused with a SymcalError -- never another exception, never a hang.

Each callable runs in a forked child with a time limit per call, so a hang fails the test
instead of stalling it.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import pytest
import sympy

import symcal
import symcal.testing
from symcal import (
    Citation,
    Claim,
    Local,
    NumericOutcome,
    Status,
    SymcalError,
    Verdict,
    check_many,
    identity,
    implies,
    node_implies,
    reals,
)
from tests.common.public_api import HUGE, ApiTable

pytestmark = pytest.mark.skipif(os.name != "posix", reason="forked children")

x, y = reals("x y")
C = Citation("test2026", "Lemma 1")
PER_CALL_SECONDS = 20.0
CHECK_SECONDS = 5  # the timeout= of the good checks

DEEP: list = [x > 0]
for _ in range(5000):  # lists nested 5000 deep: deeper than Python's recursion limit
    DEEP = [DEEP]


def _claim() -> Claim:
    return implies("test2026.api", hypotheses={"h": [x > 0]}, conclusion=x >= 0, cite=C)


def _node() -> Claim:
    return node_implies("test2026.node", hypotheses={}, conclusion=Local(2, lambda a, i, j: a(i, j) >= 0),
                        cite=C, sizes=(3, 3))


def _verdict() -> Verdict:
    return Verdict("test2026.api", Status.UNKNOWN, "all x", "z3", 0.1, reason="timeout")


# name -> (positional arguments, keyword arguments) of a call that must be accepted
GOOD: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "reals": (("p q",), {}),
    "Citation": (("test2026", "Lemma 1"), {"quote": "a sentence"}),
    "Finding": (("what", "at x = 0", "test2026.api.corrected"), {"finding_class": "statement"}),
    "Local": ((2, lambda a, i, j: a(i, j) >= 0), {}),
    "NumericOutcome": ((True, "scipy", {"x": 1}, 1e-9, 0.5), {}),
    "Claim": ((), {"id": "test2026.raw", "citation": C, "kind": "implies", "statement": "s", "spec": None,
                   "expected": Status.PROVED}),
    "identity": (("test2026.id", (x + 1) ** 2, x**2 + 2 * x + 1), {"cite": C}),
    "implies": (("test2026.imp",), {"hypotheses": {"h": [x > 0]}, "conclusion": x >= 0, "cite": C}),
    "implies_cases": (("test2026.cases",), {"cases": [("x > 0", {"h": [x > 0]}, x >= 0)], "cite": C}),
    "exists": (("test2026.ex",), {"constraints": {"c": [x > 1]}, "cite": C, "witness": {x: 2}}),
    "unique_minimiser": (("test2026.argmin",), {"risk": {"a": x, "b": 1 - x}, "over": ["a", "b"], "best": "a",
                                                "family": {"h": [x >= 0, x < sympy.Rational(1, 2)]}, "cite": C}),
    "node_implies": (("test2026.node",), {"hypotheses": {}, "conclusion": Local(2, lambda a, i, j: a(i, j) >= 0),
                                          "cite": C, "sizes": (3, 4)}),
    "all_sizes": ((_node(), "test2026.node.all"), {}),
    "finite_check": (("test2026.fin",), {"cases": range(5), "holds": lambda k: k >= 0, "domain": "0..4", "cite": C}),
    "numeric": (("test2026.num",), {"run": lambda: NumericOutcome(True, "m", {}, 0.0, 1.0), "cite": C}),
    "bounded_inequality": (("test2026.box", x * (1 - x), "<=", sympy.Rational(1, 4)), {"box": {x: (0, 1)}, "cite": C}),
    "calibrated": (("test2026.cal",), {"loss": [[0, 1], [1, 0]], "surrogate": {"name": "x"}, "link": "argmax",
                                       "cite": C}),
    "check": ((_claim(),), {"timeout": CHECK_SECONDS}),
    "check_many": (([_claim()],), {"timeout": CHECK_SECONDS, "jobs": 1}),
    "Status": (("proved",), {}),
    "Verdict": (("test2026.api", Status.UNKNOWN, "all x", "z3", 0.1), {"reason": "timeout"}),
    "And": ((True, x > 0), {}),
    "Or": ((False, True), {}),
    "Not": ((False,), {}),
    "Implies": ((x > 1, x > 0), {}),
    "Iff": ((True, True), {}),
    # symcal.testing
    "assert_proved": ((_claim(),), {"timeout": CHECK_SECONDS}),
    "assert_refuted": ((implies("test2026.no", hypotheses={}, conclusion=x > 0, cite=C),), {"timeout": CHECK_SECONDS}),
    "assert_status": ((_claim(), "proved"), {"timeout": CHECK_SECONDS}),
    "falsifying_example": ((_verdict(),), {}),
}

# public names that are not called here, and why
NOT_CALLED = {
    "__version__": "a string",
    "SymcalError": "an exception class: any message builds one",
    "InvalidClaim": "an exception class: any message builds one",
    "InvalidInput": "an exception class: any message builds one",
    "NoBackendAvailable": "an exception class: any message builds one",
    "DEFAULT_TIMEOUT": "a number",
}

# name -> [(parameter the message must name, positional, keyword)] that must be refused
BAD: dict[str, list[tuple[str, tuple[Any, ...], dict[str, Any]]]] = {
    "reals": [("names", ("",), {}), ("names", (None,), {}), ("names", (3,), {}), ("names", ("x,,",), {}),
              ("names", ("1 x",), {}), ("names", ("x:100000000",), {})],
    "Finding": [("what", (None, "c", "d"), {"finding_class": "proof"}), ("finding_class", ("b", "c", "d"), {}),
                ("finding_class", ("b", "c", "d"), {"finding_class": "typo"})],
    "Local": [("arity", (None, lambda a: True), {}), ("arity", (True, lambda a: True), {}),
              ("fn", (2, None), {})],
    "NumericOutcome": [("ok", (None, "m", {}, 0.0, 1.0), {}), ("margin", (True, "m", {}, 0.0, float("nan")), {})],
    "Claim": [("id", (), {"id": None, "citation": C, "kind": "implies", "statement": "", "spec": None,
                          "expected": None}),
              ("expected", (), {"id": "test2026.raw", "citation": C, "kind": "implies", "statement": "",
                                "spec": None, "expected": "proved"})],
    "identity": [("id", (None, x, x), {"cite": C}), ("lhs", ("test2026.id", "x", x), {"cite": C}),
                 ("lhs", ("test2026.id", x + HUGE, x + HUGE), {"cite": C}),
                 ("rhs", ("test2026.id", x, 0.1), {"cite": C}),
                 ("cite", ("test2026.id", x, x), {"cite": None}),
                 ("cite", ("test2026.id", x, x), {"cite": Citation(None, "")}),  # plain data, refused where used
                 ("statement", ("test2026.id", x, x), {"cite": C, "statement": 3})],
    "implies": [("hypotheses", ("test2026.imp",), {"hypotheses": [x > 0], "conclusion": x > 0, "cite": C}),
                ("conclusion", ("test2026.imp",), {"hypotheses": {}, "conclusion": None, "cite": C}),
                ("conclusion", ("test2026.imp",), {"hypotheses": {}, "conclusion": x > sympy.Float(0.1), "cite": C}),
                ("expected", ("test2026.imp",), {"hypotheses": {}, "conclusion": x > 0, "cite": C, "expected": 3}),
                ("sizes", ("test2026.imp",), {"hypotheses": {}, "conclusion": x > 0, "cite": C,
                                              "sizes": (1, 10**10)}),
                ("hypotheses['h']", ("test2026.imp",), {"hypotheses": {"h": DEEP}, "conclusion": x > 0, "cite": C}),
                ("id", ("test2026." + "a" * 10**5,), {"hypotheses": {}, "conclusion": x > 0, "cite": C})],
    "implies_cases": [("cases", ("test2026.cases",), {"cases": None, "cite": C}),
                      ("cases", ("test2026.cases",), {"cases": itertools.count(), "cite": C})],
    "unique_minimiser": [
        ("over", ("test2026.argmin",), {"risk": {"a": x}, "over": ["a"], "family": {}, "cite": C}),
        ("over", ("test2026.argmin",), {"risk": {"a": x}, "over": ["a", "a"], "family": {}, "cite": C}),
        ("over", ("test2026.argmin",), {"risk": lambda t: x, "over": [[1], [2]], "family": {}, "cite": C}),
        ("over", ("test2026.argmin",), {"risk": lambda t: x, "over": itertools.count(), "family": {}, "cite": C}),
        ("best", ("test2026.argmin",), {"risk": {"a": x, "b": y}, "over": ["a", "b"], "best": "c", "family": {},
                                        "cite": C}),
        ("risk", ("test2026.argmin",), {"risk": {"a": x}, "over": ["a", "b"], "family": {}, "cite": C}),
        ("risk('b')", ("test2026.argmin",), {"risk": {"a": x, "b": 0.5}, "over": ["a", "b"], "family": {},
                                             "cite": C}),
        ("risk", ("test2026.argmin",), {"risk": x, "over": ["a", "b"], "family": {}, "cite": C}),
        ("family", ("test2026.argmin",), {"risk": {"a": x, "b": y}, "over": ["a", "b"], "family": [x > 0],
                                          "cite": C}),
        ("hypotheses", ("test2026.argmin",), {"risk": {"a": x, "b": y}, "over": ["a", "b"], "family": {"1h": [x > 0]},
                                              "cite": C})],
    "exists": [("constraints", ("test2026.ex",), {"constraints": None, "cite": C}),
               ("witness", ("test2026.ex",), {"constraints": {"c": [x > 1]}, "cite": C, "witness": [2]})],
    "node_implies": [("sizes", ("test2026.node",), {"hypotheses": {}, "cite": C, "sizes": None,
                                                    "conclusion": Local(2, lambda a, i, j: a(i, j) >= 0)}),
                     ("symmetric", ("test2026.node",), {"hypotheses": {}, "cite": C, "symmetric": "yes",
                                                        "conclusion": Local(2, lambda a, i, j: a(i, j) >= 0)})],
    "all_sizes": [("claim", (None, "test2026.node.all"), {}), ("id", (_node(), None), {})],
    "finite_check": [("cases", ("test2026.fin",), {"cases": None, "holds": bool, "domain": "d", "cite": C}),
                     ("cases", ("test2026.fin",), {"cases": itertools.count(), "holds": bool, "domain": "d",
                                                   "cite": C}),
                     ("cases", ("test2026.fin",), {"cases": range(10**30), "holds": bool, "domain": "d", "cite": C}),
                     ("domain", ("test2026.fin",), {"cases": [1], "holds": bool, "domain": None, "cite": C})],
    "numeric": [("run", ("test2026.num",), {"run": None, "cite": C})],
    "bounded_inequality": [("box", ("test2026.box", x, ">=", 0), {"box": None, "cite": C}),
                           ("relation", ("test2026.box", x, ["<="], 0), {"box": {x: (0, 1)}, "cite": C})],
    "calibrated": [("loss", ("test2026.cal",), {"loss": None, "surrogate": {}, "link": "argmax", "cite": C})],
    "check": [("claim", (None,), {}), ("claim", ("test2026.api",), {}), ("claim", ([_claim()],), {}),
              ("timeout", (_claim(),), {"timeout": float("inf")}), ("timeout", (_claim(),), {"timeout": -1}),
              ("timeout", (_claim(),), {"timeout": float("nan")}), ("timeout", (_claim(),), {"timeout": True}),
              ("sizes", (_claim(),), {"sizes": "3..5"}), ("certify", (_claim(),), {"certify": "yes"})],
    "check_many": [("claims", (_claim(),), {}), ("claims", (None,), {}), ("claims[0]", ([None],), {}),
                   ("claims", (itertools.repeat(_claim()),), {}), ("jobs", ([_claim()],), {"jobs": 0}),
                   ("progress", ([_claim()],), {"progress": 3}), ("sizes", ([_claim()],), {"sizes": (1, 10**9)})],
    "Status": [("status", ("bogus",), {}), ("status", (None,), {})],
    "Verdict": [("status", ("test2026.api", None, "", "", 0.0), {})],
    "And": [("argument", (None,), {})],
    "Or": [("argument", ("x",), {})],
    "Not": [("argument", (None,), {})],
    "Implies": [("argument", (None, 3), {})],
    "Iff": [("argument", (None, 3), {})],
    "assert_proved": [("claim", (None,), {}), ("timeout", (_claim(),), {"timeout": float("inf")})],
    "assert_refuted": [("claim", ("test2026.api",), {}), ("sizes", (_claim(),), {"sizes": (True, 3)})],
    "assert_status": [("status", (_claim(), "bogus"), {})],
    "falsifying_example": [("v", (None,), {}), ("limit", (_verdict(),), {"limit": -1})],
}


# the parameters fuzzed where not all of them are symcal's (an Enum's call also builds new enums)
FUZZED = {"Status": ("value",)}
# calls that may raise a plain exception, and why symcal cannot refuse them first
KNOWN = {"Status(value=10**100000)": "ValueError: the Enum machinery formats the value before Status._missing_ runs"}


def _public() -> dict[str, Any]:
    out = {name: getattr(symcal, name) for name in symcal.__all__}
    out.update({name: getattr(symcal.testing, name) for name in symcal.testing.__all__})
    return out


TABLE = ApiTable(_public(), GOOD, BAD, fuzzed=FUZZED, known=KNOWN, per_call_seconds=PER_CALL_SECONDS)


def test_every_public_name_is_covered():
    TABLE.check_coverage(NOT_CALLED)
    # its twin: a name that is not public is noticed
    with pytest.raises(AssertionError, match="not_public"):
        ApiTable({**TABLE.public, "not_public": len}, GOOD, BAD).check_coverage(NOT_CALLED)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_a_public_callable_refuses_bad_arguments_with_a_one_line_symcal_error(name):
    TABLE.check(name)


def test_a_refusal_message_shows_a_huge_value_shortened():
    with pytest.raises(SymcalError) as e:
        identity("test2026.id", x + HUGE, x, cite=C)
    assert len(str(e.value)) < 300 and "100,000 digits" in str(e.value)
    # its twin: a 4000-digit integer is an ordinary exact number
    assert identity("test2026.id", x + 10**4000, x + 10**4000, cite=C).kind == "identity"


def test_the_float_advice_is_the_exact_rational_not_the_double():
    with pytest.raises(SymcalError, match=r"sympy\.Rational\(1, 10\)"):
        implies("test2026.float", hypotheses={}, conclusion=x > sympy.Float(0.1), cite=C)
    with pytest.raises(SymcalError, match=r"sympy\.Rational\(1, 4\)"):
        identity("test2026.float", x, 0.25, cite=C)
    # its twin: what it advises is accepted, and is 1/10 exactly
    assert sympy.Rational(1, 10) * 10 == 1
    assert implies("test2026.exact", hypotheses={}, conclusion=x**2 >= -sympy.Rational(1, 10), cite=C)


def test_two_different_claims_with_one_id_are_refused_by_check_many():
    a = implies("test2026.same", hypotheses={}, conclusion=x**2 >= 0, cite=C)
    b = implies("test2026.same", hypotheses={}, conclusion=x**2 >= -1, cite=C)
    with pytest.raises(SymcalError, match="test2026.same"):
        check_many([a, b], timeout=CHECK_SECONDS)
    # its twin: one claim given twice is one claim with one id
    assert [v.status for v in check_many([a, a], timeout=CHECK_SECONDS)] == [Status.PROVED, Status.PROVED]

