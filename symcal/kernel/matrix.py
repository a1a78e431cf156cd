"""Exact statements about one matrix of rationals: rank, affine dimension, a decomposition.

Certificate ``{"kind": "matrix", "rows": [[Q, ...], ...], "decomposition": {"alpha": [[Q, ...]],
"beta": [[Q, ...]], "c": Q}, "rank": {"of": "rank" | "affine", "relation": "<=" | "=" | ">=",
"bound": N}}`` (Q an exact number "p/q"; either part may be absent, not both).  Checked by this
module's own elimination, with no hint to trust:

* ``decomposition``: ``rows[i][j] = sum_k alpha[i][k] beta[j][k] + c`` in every entry;
* ``rank``: ``rank L`` by Gaussian elimination; the affine dimension ``min_c rank(L - c J)``
  (``J`` all ones; Ramaswamy et al. 2013, Theorem 3's ``d``) from a non-singular ``r x r``
  minor ``M`` of ``L`` (the elimination's pivots): ``det(M - c J) = det M - c 1^T adj(M) 1`` is
  affine in ``c`` (rank-one update), so for every ``c`` but at most one root ``c0`` it is non-zero and
  ``rank(L - c J) >= r``; at ``c0`` the rank of ``L - c0 J`` is computed.  ``bound`` is compared
  with the value by ``relation``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcal.kernel.poly import frac

__all__ = ["check_matrix", "rank", "det", "affine_dimension"]


def _eliminate(rows: list[list[Fraction]]) -> tuple[list[int], list[int], Fraction]:
    """Gaussian elimination: pivot rows, pivot columns (``rows`` restricted to them is
    non-singular) and the determinant of that minor (the pivots' product, sign of the swaps)."""
    m, order, prow, pcol, d = [list(r) for r in rows], list(range(len(rows))), [], [], Fraction(1)
    for c in range(len(m[0]) if m else 0):
        k = len(prow)
        p = next((i for i in range(k, len(m)) if m[i][c] != 0), None)
        if p is None:
            continue
        m[k], m[p], order[k], order[p], d = m[p], m[k], order[p], order[k], d * (1 if p == k else -1) * m[p][c]
        for i in range(k + 1, len(m)):
            f = m[i][c] / m[k][c]
            m[i] = [x - f * y for x, y in zip(m[i], m[k], strict=True)] if f else m[i]
        prow.append(order[k])
        pcol.append(c)
    return prow, pcol, d


def rank(rows: list[list[Fraction]]) -> int:
    return len(_eliminate(rows)[0])


def det(m: list[list[Fraction]]) -> Fraction:
    """The determinant of a square matrix."""
    prow, _, d = _eliminate(m)
    return d if len(prow) == len(m) else Fraction(0)


def affine_dimension(rows: list[list[Fraction]]) -> int:
    """``min over c of rank(L - c J)``, exactly (see the module's docstring)."""
    prow, pcol, _ = _eliminate(rows)
    if not prow:
        return 0
    d0, d1 = (det([[rows[i][j] - s for j in pcol] for i in prow]) for s in (0, 1))
    if d0 == d1:  # det(M - cJ) = d0 for every c: no constant lowers the rank
        return len(prow)
    c0 = d0 / (d0 - d1)
    return min(len(prow), rank([[x - c0 for x in row] for row in rows]))


def _matrix(x: Any, what: str) -> list[list[Fraction]]:
    if not (isinstance(x, list) and x and all(isinstance(r, list) and r for r in x)):
        raise ValueError(f"{what} is not a non-empty list of non-empty rows")
    if len({len(r) for r in x}) != 1:
        raise ValueError(f"the rows of {what} differ in length")
    return [[frac(v) for v in r] for r in x]


def check_matrix(cert: dict[str, Any]) -> str | None:
    """None when every statement of the certificate holds of ``rows``, else why not."""
    rows = _matrix(cert.get("rows"), "rows")
    dec, rk = cert.get("decomposition"), cert.get("rank")
    if dec is None and rk is None:
        return "nothing to check (decomposition / rank)"
    if dec is not None:
        alpha, beta, c = _matrix(dec["alpha"], "alpha"), _matrix(dec["beta"], "beta"), frac(dec["c"])
        if len(alpha) != len(rows) or len(beta) != len(rows[0]) or len(alpha[0]) != len(beta[0]):
            return "the shapes of alpha, beta and rows do not fit"
        for i, (row, a) in enumerate(zip(rows, alpha, strict=True)):
            for j, (v, b) in enumerate(zip(row, beta, strict=True)):
                if v != sum((x * y for x, y in zip(a, b, strict=True)), c):
                    return f"entry ({i}, {j}) is {v}, not alpha_i . beta_j + c"
    if rk is not None:
        of, rel, bound = rk.get("of"), rk.get("relation"), rk.get("bound")
        if of not in ("rank", "affine") or rel not in ("<=", "=", ">=") or type(bound) is not int:
            return "rank needs of in (rank, affine), relation in (<=, =, >=) and an integer bound"
        value = rank(rows) if of == "rank" else affine_dimension(rows)
        if not {"<=": value <= bound, "=": value == bound, ">=": value >= bound}[rel]:
            return f"the {of} is {value}, not {rel} {bound}"
    return None
