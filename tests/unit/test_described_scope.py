"""A claim's ``scope=`` string argues that a proof covers more than its queries, a step the kernel
does not re-check ("reduction": "trusted" in the certificate file); ``described(...)`` marks a scope
that only restates the queries' own domain, which is no step."""

from __future__ import annotations

import json

import pytest
import sympy

from symcal import Citation, implies, reals
from symcal.claims import Described, described
from symcal.errors import SymcalError
from symcal.runner import check_many

x, y = reals("x y")
CITE = Citation("mine2026", "eq. 1")


def _certificate(tmp_path, scope):
    claim = implies("mine2026.shift", hypotheses={"h": [x >= 0, y >= 0]}, conclusion=x + y + 1 > 0, cite=CITE,
                    statement="x + y + 1 > 0 for x, y >= 0", scope=scope)
    (v,) = check_many([claim], certificates=tmp_path, timeout=30)
    assert v.status.value == "proved"
    return json.loads((tmp_path / "mine2026.shift.json").read_text())


def test_a_described_scope_is_shown_but_is_no_step_of_the_certificate(tmp_path):
    rec = _certificate(tmp_path, described("all real x, y >= 0"))
    assert rec["reduction"] == "none" and not [s for s in rec["reductions"] if s["kind"] == "scope"]
    assert rec["scope"].startswith("all real x, y >= 0")


def test_a_plain_scope_argues_beyond_the_queries_and_stays_a_trusted_step(tmp_path):
    rec = _certificate(tmp_path, "every translate of x and y: the statement is invariant under shifts")
    assert rec["reduction"] == "trusted"
    assert [s["checked_by_kernel"] for s in rec["reductions"] if s["kind"] == "scope"] == [False]


def test_described_takes_text_only():
    assert isinstance(described("n = 2..5"), Described) and described("n = 2..5") == "n = 2..5"
    with pytest.raises(SymcalError):
        described(sympy.Integer(3))
