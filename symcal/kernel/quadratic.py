"""Reduction (A) of the calibration engine: a strongly convex quadratic surrogate's minimisers.

Certificate ``{"kind": "quadratic", "vars": [U, ...], "psi": [S, ...], "domain": [S, ...],
"minimisers": [[Q, ...], ...]}`` (S an s-expression, Q an exact number).  Checked: every ``psi_y``
is a polynomial of degree <= 2 in ``vars``, all with one quadratic part ``q(u) = u^T H u``; the
domain is affine equalities, ``C = {u : A u = b}``; ``q`` is positive definite on ``{w : A w = 0}``
(a basis ``Z`` by exact elimination; symmetric elimination of ``Z^T H Z`` meets positive pivots
only); each ``v_y`` is in ``C`` with ``psi_y(v_y + w) = psi_y(v_y - w)``, i.e. ``grad psi_y(v_y) .
w = 0``, for ``w`` in ``Z``.  So ``v_y`` is the unique minimiser of ``psi_y`` on ``C``, and
``sum_y p_y v_y`` that of ``risk_p`` (p in the simplex: the same quadratic part), as the engine
assumes.  Inside a ``calibration-a`` certificate (:mod:`symcal.kernel.calibration`) the kernel
builds the pair queries about that point itself from the claim's statement; on its own, a
``quadratic`` piece leaves them to the engine's encoding.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcal.kernel.poly import Poly, frac
from symcal.kernel.terms import Evaluator, PolyAlgebra, Unsupported, read_one

__all__ = ["check_quadratic", "null_basis"]


def _poly(e: Any, names: set[str]) -> Poly:
    p = Evaluator(PolyAlgebra()).term(read_one(e) if isinstance(e, str) else e)
    if {v for m in p.terms for v, _ in m} - names:
        raise Unsupported(f"{p!r} has variables other than {sorted(names)}")
    return p


def null_basis(rows: list[list[Fraction]], d: int) -> list[list[Fraction]]:
    """A basis of ``{w : row . w = 0 for every row}`` (reduced row echelon form, exact)."""
    rows, pivots = [list(r) for r in rows], list[int]()
    for c in range(d):
        pr = next((i for i in range(len(pivots), len(rows)) if rows[i][c] != 0), None)
        if pr is None:
            continue
        r = len(pivots)
        rows[r], rows[pr] = rows[pr], rows[r]
        rows[r] = [x / rows[r][c] for x in rows[r]]
        rows = [row if i == r else [x - row[c] * y for x, y in zip(row, rows[r], strict=True)]
                for i, row in enumerate(rows)]
        pivots.append(c)
    basis = []
    for f in (c for c in range(d) if c not in pivots):
        w = [Fraction(int(c == f)) for c in range(d)]
        for i, c in enumerate(pivots):
            w[c] = -rows[i][f]
        basis.append(w)
    return basis


def check_quadratic(cert: dict[str, Any]) -> str | None:
    """None when the certificate proves precondition (A) with its minimisers, else why not."""
    names = cert.get("vars")
    if not (isinstance(names, list) and names and all(isinstance(v, str) for v in names)
            and len(set(names)) == len(names)):
        return "vars is not a non-empty list of distinct names"
    psis, mins = [_poly(t, set(names)) for t in cert.get("psi") or []], cert.get("minimisers")
    if not psis or not isinstance(mins, list) or len(mins) != len(psis):
        return "psi and minimisers must be non-empty lists of the same length"
    quad = [Poly({m: c for m, c in p.terms.items() if sum(e for _, e in m) == 2}) for p in psis]
    if any(p.degree() > 2 or qd.key() != quad[0].key() for p, qd in zip(psis, quad, strict=True)):
        return "some psi_y has degree > 2 or a quadratic part other than psi_1's"
    rows, b = [], []
    for k, rel in enumerate(cert.get("domain") or []):
        e = read_one(rel)
        if not (isinstance(e, list) and len(e) == 3 and e[0] == "="):
            return f"domain[{k}] is not an equality (= lhs rhs)"
        diff = _poly(e[1], set(names)) - _poly(e[2], set(names))
        if diff.degree() > 1:
            return f"domain[{k}] is not affine"
        rows.append([diff.terms.get(((v, 1),), Fraction(0)) for v in names])
        b.append(-diff.terms.get((), Fraction(0)))

    def at(p: Poly, x: list[Fraction]) -> Fraction:
        return p.at(dict(zip(names, x, strict=True)))

    z = null_basis(rows, len(names))
    g = [[(at(quad[0], [s + t for s, t in zip(x, w, strict=True)]) - at(quad[0], x) - at(quad[0], w)) / 2
          for w in z] for x in z]
    for k in range(len(z)):  # symmetric elimination: positive definite iff every pivot is > 0
        if g[k][k] <= 0:
            return f"the quadratic part is not positive definite on the domain (pivot {k + 1} is {g[k][k]})"
        g = [row if i <= k else [x - row[k] / g[k][k] * y for x, y in zip(row, g[k], strict=True)]
             for i, row in enumerate(g)]
    for y, (p, v) in enumerate(zip(psis, mins, strict=True)):
        if not (isinstance(v, list) and len(v) == len(names)):
            return f"minimiser {y + 1} does not have {len(names)} coordinates"
        v = [frac(x) for x in v]
        if any(sum((c * x for c, x in zip(row, v, strict=True)), Fraction(0)) != rhs
               for row, rhs in zip(rows, b, strict=True)):
            return f"minimiser {y + 1} is not in the domain"
        if any(at(p, [s + t for s, t in zip(v, w, strict=True)]) != at(p, [s - t for s, t in zip(v, w, strict=True)])
               for w in z):
            return f"minimiser {y + 1} is not a stationary point of psi_{y + 1} on the domain"
    return None
