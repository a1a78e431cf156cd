"""Claims inside a researcher's own test suite: asserts and a pytest plugin.

    import pytest
    from symcal.testing import assert_proved, assert_refuted
    from my_claims import am_gm_half, conjecture

    def test_am_gm_half_is_proved():
        assert_proved(am_gm_half)

    @pytest.mark.symcal(timeout=30)          # the default timeout of every assert in this test
    def test_the_conjecture_fails_at_three_nodes():
        v = assert_refuted(conjecture)
        assert v.witness.size == 3

``assert_proved(claim)`` passes only on ``proved``: a refutation fails the test with its exact
counterexample, shown the way Hypothesis shows a falsifying example
(``Falsifying example: p=-1, q=-1 (re-checked exactly)``), and ``unknown`` (a timeout, an undecided
solver), ``confirmed-on-samples`` and ``confirmed-numerically`` fail with their reason, since
none of them is a proof.  ``assert_refuted(claim)`` passes only on a refutation with its exact
witness.  Both return the :class:`~symcal.verdicts.Verdict`.

The plugin (entry point ``pytest11: symcal = "symcal.testing"``; without it ``-p symcal.testing`` or
``pytest_plugins = ["symcal.testing"]`` in a ``conftest.py``) registers the marker
``@pytest.mark.symcal(timeout=S, sizes=(A, B), cross_check=False)``, which sets the defaults of
these asserts inside the marked test (or class or module); an argument given to the assert wins.
"""

from __future__ import annotations

import contextvars
from collections.abc import Generator
from typing import Any

import pytest

from symcal.errors import invalid
from symcal.verdicts import Status, Verdict

__all__ = ["assert_proved", "assert_refuted", "assert_status", "falsifying_example", "DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 60.0
MARKER = ("symcal(timeout=60, sizes=None, cross_check=False): defaults of symcal.testing.assert_proved / "
          "assert_refuted in this test (seconds per decision, a size range (A, B) for sized claims, "
          "cvc5's second opinion)")
_OPTIONS = ("timeout", "sizes", "cross_check")
_marker: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("symcal_marker", default=None)


# --------------------------------------------------------------------------- the plugin


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", MARKER)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: Any) -> Generator[None, None, None]:
    marker = item.get_closest_marker("symcal")
    token = _marker.set(_marker_options(marker) if marker is not None else None)
    try:
        yield
    finally:
        _marker.reset(token)


def _marker_options(marker: Any) -> dict[str, Any]:
    if marker.args:
        return {"error": f"@pytest.mark.symcal{marker.args!r}: expected keyword arguments only, e.g. "
                         "@pytest.mark.symcal(timeout=30)"}
    unknown = sorted(set(marker.kwargs) - set(_OPTIONS))
    if unknown:
        return {"error": f"@pytest.mark.symcal({unknown[0]}=...): expected only {', '.join(_OPTIONS)}"}
    return dict(marker.kwargs)


# --------------------------------------------------------------------------- the asserts


def _options(timeout: Any, sizes: Any, cross_check: Any) -> tuple[float, Any, bool]:
    marked = _marker.get() or {}
    if "error" in marked:
        raise invalid("@pytest.mark.symcal", marked["error"], "keyword arguments timeout, sizes, cross_check")
    timeout = timeout if timeout is not None else marked.get("timeout", DEFAULT_TIMEOUT)
    sizes = sizes if sizes is not None else marked.get("sizes")
    cross_check = cross_check if cross_check is not None else marked.get("cross_check", False)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 86400:
        raise invalid("timeout", timeout, "a number of seconds > 0 (at most 86400)")
    if sizes is not None:
        if not (isinstance(sizes, tuple | list) and len(sizes) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in sizes)) or sizes[0] > sizes[1]:
            raise invalid("sizes", sizes, "a pair (A, B) of whole numbers, A <= B")
        sizes = (int(sizes[0]), int(sizes[1]))
    if not isinstance(cross_check, bool):
        raise invalid("cross_check", cross_check, "True or False")
    return float(timeout), sizes, cross_check


def _check(claim: Any, timeout: Any, sizes: Any, cross_check: Any) -> tuple[Verdict, float]:
    from symcal.claims.core import Claim
    from symcal.runner import check

    if not isinstance(claim, Claim):
        raise invalid("claim", claim,
                      "a Claim built by a constructor (implies, identity, node_implies, ...)")
    t, s, cc = _options(timeout, sizes, cross_check)
    if s is not None and claim.sizes is not None:
        claim.sizes.validate(s[0], s[1], claim.id)
    return check(claim, sizes=s if claim.sized else None, timeout=t, cross_check=cc), t


def _value(x: Any) -> str:
    from fractions import Fraction

    from symcal.exact import fraction_str

    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction | int):
        return fraction_str(x)
    if isinstance(x, list | tuple):
        return "(" + ", ".join(_value(v) for v in x) + ")"
    return str(x)


def falsifying_example(v: Verdict, *, limit: int = 60) -> str:
    """The exact counterexample of a refuted verdict as Hypothesis prints a falsifying example:
    ``Falsifying example: m=3, a[1,2]=1, ... (re-checked exactly)`` and what the re-check found."""
    if not isinstance(v, Verdict):
        raise invalid("v", v, "a Verdict (what symcal.check returns)")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise invalid("limit", limit, "a whole number >= 1 of values to show")
    w = v.witness
    if w is None:
        ev = v.evidence.summary() if v.evidence is not None else "no evidence"
        return f"No falsifying example (refuted without a point: {ev})"
    items = list(w.values.items())
    shown = ", ".join(f"{k}={_value(x)}" for k, x in items[:limit])
    if len(items) > limit:
        shown += f", ... ({len(items)} values)"
    size = f"m={w.size}, " if w.size is not None and "m" not in w.values else ""
    lines = [f"Falsifying example: {size}{shown} ({'re-checked exactly' if w.rechecked else 'NOT re-checked'})"]
    if w.detail:
        lines.append(f"  {w.detail}")
    if w.found_by:
        lines.append(f"  found by {w.found_by}")
    return "\n".join(lines)


def _message(claim: Any, v: Verdict, wanted: Status, timeout: float) -> str:
    head = f"{claim.id} is {v.status.value}, not {wanted.value}"
    if claim.statement:
        head += f": {claim.statement}"
    lines = [head]
    if v.status is Status.REFUTED:
        lines.append(falsifying_example(v))
    elif v.status is Status.WITNESSED and v.witness is not None:
        lines.append(falsifying_example(v).replace("Falsifying example", "Witness", 1))
    elif v.status is Status.CONFIRMED_ON_SAMPLES:
        lines.append("  an exact check on sampled instances holds, which is never a proof")
    elif v.status is Status.CONFIRMED_NUMERICALLY:
        lines.append("  a numeric optimiser agrees, which is never a proof")
    elif v.status is Status.PROVED and v.evidence is not None:
        lines.append(f"  evidence: {v.evidence.summary()}")
    if v.reason:
        lines.append(f"  reason: {v.reason}")
    for w in v.warnings:
        lines.append(f"  warning: {w}")
    lines.append(f"  scope: {v.scope}")
    hint = ""
    if v.status is Status.UNKNOWN and ("limit" in v.reason or "gave up" in v.reason or "timeout" in v.reason):
        hint = "; raise it with @pytest.mark.symcal(timeout=...) or timeout=..."
    lines.append(f"  (symcal: {v.backend}, {v.seconds:.2f} s; timeout {timeout:g} s per decision{hint})")
    return "\n".join(lines)


def assert_status(claim: Any, status: Status | str, *, timeout: float | None = None,
                  sizes: tuple[int, int] | None = None, cross_check: bool | None = None) -> Verdict:
    """Check ``claim`` and fail (``AssertionError``) unless its status is ``status``; the failure
    shows the counterexample, the reason or the evidence.  Returns the verdict."""
    __tracebackhide__ = True
    try:
        wanted = Status.parse(status)
    except (ValueError, TypeError):
        raise invalid("status", status, f"one of {', '.join(s.value for s in Status)}") from None
    v, t = _check(claim, timeout, sizes, cross_check)
    if v.status is not wanted:
        raise AssertionError(_message(claim, v, wanted, t))
    return v


def assert_proved(claim: Any, *, timeout: float | None = None, sizes: tuple[int, int] | None = None,
                  cross_check: bool | None = None) -> Verdict:
    """Pass only when symcal proves ``claim`` (within ``timeout`` seconds per decision; the
    default comes from ``@pytest.mark.symcal(timeout=...)``, else 60).  A refutation fails with
    its exact counterexample ("Falsifying example: ..."); unknown, samples and numerics fail with
    their reason."""
    __tracebackhide__ = True
    return assert_status(claim, Status.PROVED, timeout=timeout, sizes=sizes, cross_check=cross_check)


def assert_refuted(claim: Any, *, timeout: float | None = None, sizes: tuple[int, int] | None = None,
                   cross_check: bool | None = None) -> Verdict:
    """Pass only when symcal refutes ``claim`` with an exact re-checked counterexample (the
    verdict's ``witness``); a proof fails with its evidence, unknown with its reason."""
    __tracebackhide__ = True
    return assert_status(claim, Status.REFUTED, timeout=timeout, sizes=sizes, cross_check=cross_check)
