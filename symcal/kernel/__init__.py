"""A small, independent checker of certificates (the de Bruijn criterion).

A sceptic need not trust z3, cvc5, sympy or the code that built a certificate: only this
package, which imports no solver, no sympy and nothing else from symcal (only the
standard library, and python-flint's ball arithmetic for interval certificates).  Read it
in this order: :mod:`.sexpr` (syntax), :mod:`.poly` (exact polynomials), :mod:`.terms`
(meanings of terms), :mod:`.lra` (case trees with Farkas / Positivstellensatz leaves),
:mod:`.interval` (box covers), and :func:`check` below (identities, witnesses, dispatch).

A certificate is plain JSON-able data with a ``kind``:

``farkas``    ``{"smtlib": TEXT, "tree": TREE}``: the SMT-LIB2 query is unsat (see :mod:`.lra`).
``identity``  ``{"pairs": [[LHS, RHS], ...]}``: each LHS - RHS, s-expressions read as rational
              functions, has numerator the zero polynomial after expansion.
``witness``   ``{"values": {VAR: "p/q"}, "holds": [F, ...], "fails": [F, ...]}``: at the point,
              every formula in ``holds`` is true and every formula in ``fails`` is false
              (exact rational evaluation).
``interval``  see :mod:`.interval` (needs python-flint; without it the answer is ``checked:
              false``, ``reason: python-flint not installed``, ``unavailable: true``).
``all``       ``{"parts": [[LABEL, CERT], ...]}``: every part checks.

:func:`check` answers ``{"checked": bool, "reason": str}``; ``checked`` is True only when the
certificate proves its statement.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from symcal.kernel.lra import check_tree, read_query
from symcal.kernel.poly import frac
from symcal.kernel.sexpr import SyntaxProblem, parse
from symcal.kernel.terms import Evaluator, RatAlgebra, Unsupported, ValueAlgebra, expand_lets, truth

__all__ = ["check", "Unsupported"]


def _one(text: Any) -> Any:
    if not isinstance(text, str):
        raise Unsupported(f"expected an s-expression string, got {type(text).__name__}")
    items = parse(text)
    if len(items) != 1:
        raise Unsupported(f"expected one s-expression, got {len(items)}")
    return expand_lets(items[0])


def _identity(cert: dict[str, Any]) -> str | None:
    pairs = cert.get("pairs")
    if not isinstance(pairs, list) or not pairs:
        return "no pairs [lhs, rhs] to check"
    for k, pair in enumerate(pairs):
        if not (isinstance(pair, list) and len(pair) == 2):
            return f"pair {k} is not [lhs, rhs]"
        ev = Evaluator(RatAlgebra())
        diff = ev.term(_one(pair[0])) - ev.term(_one(pair[1]))
        if not diff.num.is_zero():
            return f"pair {k}: lhs - rhs has the non-zero numerator {diff.num!r}"
    return None


def _witness(cert: dict[str, Any]) -> str | None:
    values = cert.get("values")
    if not isinstance(values, dict):
        return "no values"
    point: dict[str, Fraction] = {}
    sorts: dict[str, str] = {}
    for name, v in values.items():
        if isinstance(v, bool):
            point[name], sorts[name] = v, "Bool"  # type: ignore[assignment]
        else:
            point[name] = frac(v)
    holds, fails = cert.get("holds", []), cert.get("fails", [])
    if not isinstance(holds, list) or not isinstance(fails, list) or not (holds or fails):
        return "nothing to evaluate (holds / fails)"
    ev = Evaluator(ValueAlgebra(point, sorts))
    for k, f in enumerate(holds):
        if not truth(_one(f), ev):
            return f"holds[{k}] is false at the point"
    for k, f in enumerate(fails):
        if truth(_one(f), ev):
            return f"fails[{k}] is true at the point"
    return None


def _farkas(cert: dict[str, Any]) -> str | None:
    why, _ = check_tree(read_query(cert["smtlib"]), cert.get("tree"))
    return why


def _interval(cert: dict[str, Any]) -> str | None:
    from symcal.kernel import interval

    return interval.check_cover(cert)


def _all(cert: dict[str, Any]) -> str | None:
    parts = cert.get("parts")
    if not isinstance(parts, list) or not parts:
        return "no parts"
    for item in parts:
        if not (isinstance(item, list) and len(item) == 2):
            return "a part is not [label, certificate]"
        res = check(item[1])
        if not res["checked"]:
            return f"{item[0]}: {res['reason']}"
    return None


_KINDS = {"farkas": _farkas, "identity": _identity, "witness": _witness, "interval": _interval, "all": _all}


def check(cert: Any) -> dict[str, Any]:
    """Check one certificate: ``{"checked": True, "reason": ""}`` or ``checked`` False and why."""
    if not isinstance(cert, dict) or cert.get("kind") not in _KINDS:
        kind = cert.get("kind") if isinstance(cert, dict) else type(cert).__name__
        return {"checked": False, "reason": f"unknown certificate kind {kind!r}"}
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        why = _KINDS[cert["kind"]](cert)
    except (Unsupported, SyntaxProblem, ValueError, TypeError, KeyError, ZeroDivisionError, ArithmeticError) as e:
        why = f"{type(e).__name__}: {e}"
    except RecursionError:
        why = "the certificate is nested too deeply"
    finally:
        sys.setrecursionlimit(old)
    from symcal.kernel.interval import UNAVAILABLE

    if why == UNAVAILABLE:  # not a rejection: this kernel cannot replay it here
        return {"checked": False, "reason": why, "unavailable": True}
    return {"checked": why is None, "reason": why or ""}
