"""A small, independent checker of certificates (the de Bruijn criterion).

A sceptic need not trust z3, cvc5, sympy or the code that built a certificate: only this
package, which imports no solver, no sympy and nothing else from symcal (only the
standard library, and python-flint's ball arithmetic for interval certificates).  Read it
in this order: :mod:`.sexpr` (syntax), :mod:`.poly` (exact polynomials), :mod:`.terms`
(meanings of terms), :mod:`.lra` (case trees with Farkas / Positivstellensatz leaves),
:mod:`.interval` (box covers), :mod:`.quadratic` (calibration's reduction (A)), :mod:`.calibration`
(a calibration claim through (A), end to end), :mod:`.polyhedral` (through (B), end to end), :mod:`.matrix`, and
:func:`check` below (identities, witnesses, dispatch); :mod:`.record` checks what a certificate file
records about its certificate (status, statement, size, kind, reductions) against the certificate.

A certificate is plain JSON-able data with a ``kind``:

``farkas``    ``{"smtlib": TEXT, "tree": TREE}``: the SMT-LIB2 query is unsat (see :mod:`.lra`).
``identity``  ``{"pairs": [[LHS, RHS], ...], "functions": [NAME, ...]}``: each LHS - RHS,
              s-expressions read as rational functions (applications of the optional
              uninterpreted ``functions`` as opaque atoms), has numerator the zero polynomial.
``witness``   ``{"values": {VAR: "p/q"}, "holds": [F, ...], "fails": [F, ...]}``: at the point
              (exact), the ``holds`` formulas are true and the ``fails`` formulas false (a
              formula with exp / log / a root: decided by arb balls that exclude the boundary).
``interval``  see :mod:`.interval` (needs python-flint; without it: ``unavailable: true``).
``quadratic`` see :mod:`.quadratic` (the calibration engine's reduction (A)).
``calibration-a``  see :mod:`.calibration` (a calibration claim: its statement, reduction (A) and the
              pair queries, re-derived end to end; or, with ``refutation``, a distribution p in P
              whose minimiser u*(p) the kernel computes, and a failure next to it).
``calibration-b``  see :mod:`.polyhedral` (the same through reduction (B), polyhedral surrogates: the
              statement, the bounded-below and KKT pair queries, re-derived end to end; or a
              refutation: p in P, a minimiser u shown by KKT multipliers, a failure next to it).
``matrix``    see :mod:`.matrix` (rank, affine dimension, a decomposition of a rational matrix).
``node``      see :mod:`.node` (a node claim at one size: its statement, the node-symmetry reduction
              and its Farkas-certified queries, re-derived end to end).
``all``       ``{"parts": [[LABEL, CERT], ...]}``: every part checks.

:func:`check` answers ``{"checked": bool, "reason": str}``; ``checked`` is True only when the
certificate proves its statement.
"""

from __future__ import annotations

import sys
from typing import Any

from symcal.kernel.calibration import check_calibration
from symcal.kernel.interval import UNAVAILABLE, ArbAlgebra, available, ball_of, ball_truth, check_cover
from symcal.kernel.lra import check_tree, read_query
from symcal.kernel.matrix import check_matrix
from symcal.kernel.node import check_node
from symcal.kernel.poly import frac
from symcal.kernel.polyhedral import check_calibration_b
from symcal.kernel.quadratic import check_quadratic
from symcal.kernel.sexpr import SyntaxProblem
from symcal.kernel.terms import Evaluator, RatAlgebra, Unsupported, ValueAlgebra, read_one, truth

__all__ = ["check", "Unsupported"]


def _identity(cert: dict[str, Any]) -> str | None:
    pairs = cert.get("pairs")
    if not isinstance(pairs, list) or not pairs:
        return "no pairs [lhs, rhs] to check"
    for k, pair in enumerate(pairs):
        if not (isinstance(pair, list) and len(pair) == 2):
            return f"pair {k} is not [lhs, rhs]"
        ev = Evaluator(RatAlgebra(cert.get("functions", [])))
        diff = ev.term(read_one(pair[0])) - ev.term(read_one(pair[1]))
        if not diff.num.is_zero():
            return f"pair {k}: lhs - rhs has the non-zero numerator {diff.num!r}"
    return None


def _witness(cert: dict[str, Any]) -> str | None:
    values = cert.get("values")
    if not isinstance(values, dict):
        return "no values"
    point: dict[str, Any] = {name: v if isinstance(v, bool) else frac(v) for name, v in values.items()}
    sorts = {name: "Bool" for name, v in values.items() if isinstance(v, bool)}
    holds, fails = cert.get("holds", []), cert.get("fails", [])
    if not isinstance(holds, list) or not isinstance(fails, list) or not (holds or fails):
        return "nothing to evaluate (holds / fails)"
    ev = Evaluator(ValueAlgebra(point, sorts))
    for want, what in ((True, "holds"), (False, "fails")):
        for k, f in enumerate(holds if want else fails):
            e = read_one(f)
            try:
                value = truth(e, ev)
            except Unsupported:  # not rational at the point: a ball excluding the boundary decides it
                value = _ball_truth(e, point, sorts)
            if value is not want:
                return f"{what}[{k}] is {'undecided' if value is None else not want} at the point"
    return None


def _ball_truth(e: Any, point: dict[str, Any], sorts: dict[str, str]) -> bool | None:
    if sorts or not available():
        return None
    import flint

    old = flint.ctx.prec
    try:
        for bits in (128, 1024, 8192):
            flint.ctx.prec = bits
            try:
                value = ball_truth(e, Evaluator(ArbAlgebra({n: ball_of(q, q) for n, q in point.items()})))
            except Unsupported:
                return None
            if value is not None:
                return value
    finally:
        flint.ctx.prec = old
    return None


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


_KINDS = {"farkas": lambda cert: check_tree(read_query(cert["smtlib"]), cert.get("tree"))[0], "identity": _identity,
          "witness": _witness, "interval": check_cover, "quadratic": check_quadratic, "matrix": check_matrix,
          "node": check_node, "calibration-a": check_calibration, "calibration-b": check_calibration_b, "all": _all}


def check(cert: Any) -> dict[str, Any]:
    """Check one certificate: ``{"checked": True, "reason": ""}`` or ``checked`` False and why."""
    if not isinstance(cert, dict) or cert.get("kind") not in _KINDS:
        kind = cert.get("kind") if isinstance(cert, dict) else type(cert).__name__
        return {"checked": False, "reason": f"unknown certificate kind {kind!r}"}
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        why = _KINDS[cert["kind"]](cert)
    except RecursionError:
        why = "the certificate is nested too deeply"
    except (Unsupported, SyntaxProblem, ValueError, TypeError, KeyError, ZeroDivisionError, ArithmeticError) as e:
        why = f"{type(e).__name__}: {e}"
    except Exception as e:  # noqa: BLE001 - a malformed certificate the kernel trips over is rejected, never a crash
        why = f"malformed certificate ({type(e).__name__}: {e})"
    finally:
        sys.setrecursionlimit(old)
    if why == UNAVAILABLE:  # not a rejection: this kernel cannot replay it here
        return {"checked": False, "reason": why, "unavailable": True}
    return {"checked": why is None, "reason": why or ""}
