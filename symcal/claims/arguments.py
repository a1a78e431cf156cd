"""The arguments of :func:`symcal.check` and :func:`symcal.check_many` (:mod:`symcal.runner`), refused in one line.

Every refusal is a :class:`~symcal.errors.SymcalError` naming the parameter, the value (shortened)
and what was expected (ARCHITECTURE.md, rule 6) -- never a Python error from deep inside the runner,
and never a run that cannot end (an endless iterator of claims, an infinite timeout, a sweep of a
billion sizes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from symcal.errors import InvalidClaim, invalid, wrong_type

__all__ = ["MAX_SECONDS", "MAX_SIZES", "one_claim", "claim_list", "run_options"]

MAX_SECONDS = 86_400.0  # one day per decision: beyond that a number of seconds is a typo (and overflows timers)
MAX_SIZES = 10_000  # sizes in one sweep (as --size allows)

_CLAIM = "a Claim built by a constructor (implies, identity, node_implies, ...)"


def one_claim(claim: Any) -> Any:
    """``check``'s ``claim``: one :class:`~symcal.claims.core.Claim`."""
    from symcal.claims.core import Claim

    if isinstance(claim, Claim):
        return claim
    if isinstance(claim, list | tuple):
        raise wrong_type("claim", claim, _CLAIM, "for several claims use check_many(claims)")
    if isinstance(claim, str):
        raise wrong_type("claim", claim, _CLAIM, "to select claims of the library by id use 'symcal check ID' or "
                         "symcal.library.select(symcal.library.load_bundled(), [ID])")
    raise wrong_type("claim", claim, _CLAIM)


def claim_list(claims: Any) -> list[Any]:
    """``check_many``'s ``claims``: a list (or tuple) of claims, no two different claims with one id
    (their verdicts, SMT-LIB and certificate files are named by id)."""
    from symcal.claims.core import Claim

    if isinstance(claims, Claim):
        raise wrong_type("claims", claims, "a list of claims", "for one claim use check(claim) or check_many([claim])")
    if isinstance(claims, str | bytes) or not isinstance(claims, Sequence):
        raise wrong_type("claims", claims, "a list of claims (an iterator is read once and may never end: pass "
                         "list(...) of a finite one)")
    out = list(claims)
    by_id: dict[str, Any] = {}
    for k, c in enumerate(out):
        if not isinstance(c, Claim):
            raise wrong_type(f"claims[{k}]", c, _CLAIM)
        other = by_id.setdefault(c.id, c)
        if other is not c:
            raise InvalidClaim(f"claims: two different claims have the id {c.id!r}; ids must be unique "
                               "(verdicts and files are named by id)")
    return out


def seconds(param: str, value: Any) -> float:
    """A number of seconds: > 0, finite, at most one day."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise wrong_type(param, value, "a positive number of seconds")
    if value > MAX_SECONDS and (isinstance(value, int) or not math.isinf(value)):  # a huge int fits no float
        raise invalid(param, value, f"at most {MAX_SECONDS:g} seconds (one day) per decision")
    if not (value > 0 and math.isfinite(value)):  # also nan
        raise invalid(param, value, f"a positive number of seconds (at most {MAX_SECONDS:g})")
    return float(value)


def sizes_pair(param: str, value: Any) -> tuple[int, int] | None:
    """None, or a pair (A, B) of whole numbers 1 <= A <= B, at most MAX_SIZES sizes."""
    if value is None:
        return None
    expected = "None or a pair (A, B) of whole numbers 1 <= A <= B"
    if not (isinstance(value, tuple | list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise wrong_type(param, value, expected)
    lo, hi = value
    if not 1 <= lo <= hi:
        raise invalid(param, value, expected)
    if hi - lo + 1 > MAX_SIZES:
        raise invalid(param, value, f"at most {MAX_SIZES:,} sizes in one sweep")
    return int(lo), int(hi)


MAX_JOBS = 4096  # parallel workers at most (each a forked process): the one bound of ``jobs=`` and ``--jobs``


def run_options(*, sizes: Any, timeout: Any, jobs: Any, encoding: Any, isolate: Any,
                progress: Any, certify: Any) -> tuple[tuple[int, int] | None, float]:
    """Validate ``check_many``'s options; return ``(sizes, timeout)`` normalised."""
    s = sizes_pair("sizes", sizes)
    t = seconds("timeout", timeout)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise invalid("jobs", jobs, f"an integer from 1 to {MAX_JOBS}")
    if not isinstance(encoding, str) or encoding not in ("auto", "naive"):
        raise invalid("encoding", encoding, "'auto' or 'naive'")
    for name, v in (("isolate", isolate), ("certify", certify)):
        if not isinstance(v, bool):
            raise wrong_type(name, v, "True or False")
    if progress is not None and not callable(progress):
        raise wrong_type("progress", progress, "None or a function taking one line of text")
    return s, t

