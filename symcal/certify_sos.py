"""Sum-of-squares leaves for the certificate producer (issue 12, item 1): untrusted, like all of
:mod:`symcal.certify`; whatever it builds, the kernel re-checks with its own rule.

A nonlinear leaf that no non-negative combination of products of its literals closes may still
be closed with a sum of squares: find non-negative rationals ``lambda_k`` (on the products
``G_k >= 0`` of up to two literals), ``t >= 0`` and a positive semidefinite Gram matrix ``Q``
over the monomials ``z`` of degree at most ``d`` such that

    sum_k lambda_k G_k + z^T Q z = -t,     t + (sum of the lambdas on strict products) = 1,

a Positivstellensatz certificate: at a point of the leaf the left side is ``>= 0`` (``> 0`` when
a strict product carries weight), the right side ``-t <= 0`` -- a contradiction.  The
semidefinite program is solved in floating point (cvxopt, an optional dependency: without it no
such leaf is attempted), then made exact in the usual way (Peyrl and Parrilo 2008): the
multipliers and the Gram matrix are rounded to rationals, the Gram matrix is projected exactly
onto the coefficient equations (each monomial's residual spread over the Gram entries that
produce it, the minimum-norm correction), and its semidefiniteness is decided exactly by an
``L D L^T`` factorisation over the rationals.  The leaf's certificate then lists the products
with their multipliers and ``d_i * (L_i . z)^2`` as ``["sq", L_i . z]`` entries -- which the
kernel's Farkas rule already accepts (:func:`symcal.kernel.lra.check_farkas`).
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from symcal.kernel.poly import Poly, frac_str

__all__ = ["available", "rref", "sos_leaf"]

MAX_GRAM = 36  # monomials in the Gram basis (a 36 x 36 matrix: 666 unknowns)


def available() -> bool:
    try:
        import cvxopt  # noqa: F401
    except ImportError:
        return False
    return True


def _monomials(names: list[str], degree: int) -> list[tuple[tuple[str, int], ...]]:
    out: list[tuple[tuple[str, int], ...]] = [()]
    for d in range(1, degree + 1):
        for combo in itertools.combinations_with_replacement(names, d):
            mono: dict[str, int] = {}
            for v in combo:
                mono[v] = mono.get(v, 0) + 1
            out.append(tuple(sorted(mono.items())))
    return out


def _mul(a: tuple[tuple[str, int], ...], b: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    mono = dict(a)
    for v, e in b:
        mono[v] = mono.get(v, 0) + e
    return tuple(sorted(mono.items()))


def _ldl(q: list[list[Fraction]]) -> tuple[list[list[Fraction]], list[Fraction]] | None:
    """``Q = L D L^T`` over the rationals (``L`` unit lower triangular, ``D >= 0``), or None when
    ``Q`` is not positive semidefinite (a negative pivot, or a zero pivot over a non-zero column)."""
    n = len(q)
    a = [row[:] for row in q]
    low = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    diag = [Fraction(0)] * n
    for k in range(n):
        p = a[k][k]
        if p < 0:
            return None
        if p == 0:
            if any(a[i][k] != 0 for i in range(k + 1, n)):
                return None
            continue
        diag[k] = p
        for i in range(k + 1, n):
            low[i][k] = a[i][k] / p
        for i in range(k + 1, n):
            if a[i][k] == 0:
                continue
            f = a[i][k] / p
            for j in range(k + 1, n):
                a[i][j] -= f * a[k][j]
    return low, diag


def _round(x: float, den: int) -> Fraction:
    return Fraction(x).limit_denominator(den)


def _equalities(cons: list[tuple[Poly, bool, list[Any]]]) -> list[tuple[Poly, list[Any], list[Any], set[int]]]:
    """The leaf's equalities ``p = 0``: both ``p <= 0`` and ``-p <= 0`` are literals.  Each as
    ``(p, literal contributing -p, literal contributing p, their indices in cons)``."""
    nonstrict = {p.key(): (p, js, i) for i, (p, strict, js) in enumerate(cons) if not strict}
    out = []
    for key, (p, js, i) in nonstrict.items():
        other = nonstrict.get((-p).key())
        if other is not None and key < other[0].key():
            out.append((p, js, other[1], {i, other[2]}))
    return out


def rref(a: list[list[Fraction]], ncols: int, deadline: float = float("inf")) -> list[int] | None:
    """Reduced row echelon form of ``a`` in place over the rationals, pivoting on the first
    ``ncols`` columns (the others, e.g. a right-hand side, are carried along); the pivot columns,
    in order, or None when the CPU-time ``deadline`` passes."""
    piv: list[int] = []
    r = 0
    for c in range(ncols):
        if r == len(a):
            break
        if time.process_time() > deadline:
            return None
        pr = next((i for i in range(r, len(a)) if a[i][c] != 0), None)
        if pr is None:
            continue
        a[r], a[pr] = a[pr], a[r]
        inv = 1 / a[r][c]
        a[r] = [v * inv for v in a[r]]
        for i in range(len(a)):
            if i != r and a[i][c] != 0:
                f = a[i][c]
                a[i] = [u - f * v for u, v in zip(a[i], a[r], strict=True)]
        piv.append(c)
        r += 1
    return piv


def _solve(rows: list[list[Fraction]], rhs: list[Fraction], deadline: float) -> list[Fraction] | None:
    """A solution of ``rows y = rhs`` over the rationals (free unknowns 0), or None (also when the
    CPU-time ``deadline`` passes)."""
    a = [r[:] + [b] for r, b in zip(rows, rhs, strict=True)]
    n = len(rows[0]) if rows else 0
    piv = rref(a, n, deadline)
    if piv is None or any(row[-1] != 0 for row in a[len(piv):]):
        return None
    y = [Fraction(0)] * n
    for i, c in enumerate(piv):
        y[c] = a[i][-1]
    return y


MAX_MONOMIALS = 400


def sos_leaf(cons: list[tuple[Poly, bool, list[Any]]], kcons: dict[Any, Poly],
             cols: list[tuple[list[Any], Poly, bool, dict[Any, float], tuple[int, ...]]], deadline: float
             ) -> tuple[list[Any], set[int]] | None:
    """Entries closing the leaf (verified with the kernel's own rule) and the indices of the
    literals they use, or None.  ``cols``: the candidate products (see ``certify._columns``);
    ``deadline``: a ``time.process_time()`` instant after which it gives up.

    Besides the products and the Gram matrix, each equality ``p = 0`` of the leaf gets a free
    polynomial multiplier ``h p`` (``h`` of low degree, any sign), written for the kernel as
    ``c/4 ((m + 1)^2 p + (m - 1)^2 (-p))`` per monomial ``m`` of ``h`` (= ``c m p``)."""
    names = sorted({v for p, _, _ in cons for m in p.terms for v, _ in m})
    cap = max(p.degree() for p, _, _ in cons) + 1  # the degree of the certificate's terms
    cols = [col for col in cols if col[1].degree() <= cap]
    if not cols:
        return None
    small = math.comb(len(names) + cap // 2, cap // 2) <= MAX_GRAM  # counted before any is built:
    z = _monomials(names, cap // 2) if small else []  # a leaf of many variables and high degree has millions
    # first a linear programme over the products and the ideal multipliers (exact when it
    # succeeds, and it needs no interior point), then with the Gram matrix
    for gram in ([], z) if small and cap // 2 and available() else ([],):
        found = _leaf(cons, kcons, cols, names, cap, gram, deadline)
        if found is not None:
            return found
    return None


def _leaf(cons: list[tuple[Poly, bool, list[Any]]], kcons: dict[Any, Poly], cols: list[Any], names: list[str],
          cap: int, z: list[Any], deadline: float) -> tuple[list[Any], set[int]] | None:
    """:func:`sos_leaf` with the Gram basis ``z`` (empty: no sum of squares)."""
    import numpy as np

    from symcal.kernel.lra import check_farkas

    eqs = _equalities(cons)
    if sum(math.comb(len(names) + cap - p.degree(), len(names)) for p, *_ in eqs) > MAX_MONOMIALS:
        return None
    ideal = [(e, m) for e in range(len(eqs)) for m in _monomials(names, cap - eqs[e][0].degree())]
    polys: list[Poly] = [g for _, g, _, _, _ in cols] + [eqs[e][0] * Poly({m: Fraction(1)}) for e, m in ideal]
    n, ni, nz = len(cols), len(ideal), len(z)
    pairs = [(a, b) for a in range(nz) for b in range(a, nz)]
    monos: dict[Any, int] = {(): 0}
    for g in polys:
        for m in g.terms:
            monos.setdefault(m, len(monos))
    for a, b in pairs:
        monos.setdefault(_mul(z[a], z[b]), len(monos))
    if len(monos) > MAX_MONOMIALS or time.process_time() > deadline:
        return None
    nv = n + ni + 1 + len(pairs)  # lambdas (>= 0), ideal multipliers (free), t (>= 0), Gram entries
    it, iq = n + ni, n + ni + 1
    rows = np.zeros((len(monos) + 1, nv))
    for k, g in enumerate(polys):
        for m, c in g.terms.items():
            rows[monos[m], k] = float(c)
    rows[0, it] = 1.0  # + t in the constant term
    for j, (a, b) in enumerate(pairs):
        rows[monos[_mul(z[a], z[b])], iq + j] = 1.0 if a == b else 2.0
    rows[len(monos), it] = 1.0  # normalisation: t + strict lambdas = 1
    for k, col in enumerate(cols):
        if col[2]:
            rows[len(monos), k] = 1.0
    rhs = np.zeros(len(monos) + 1)
    rhs[len(monos)] = 1.0
    x = _solve_float(rows, rhs, n, it, nz, pairs, iq)
    if x is None or time.process_time() > deadline:
        return None
    for den in (10**3, 10**6, 10**9):
        got = _exact(cols, eqs, ideal, polys, z, pairs, monos, x, den, deadline)
        if got is None:
            continue
        entries, used = got
        if check_farkas(kcons, entries) is None:
            return entries, used
    return None


def _solve_float(rows: Any, rhs: Any, n: int, it: int, nz: int, pairs: list[tuple[int, int]], iq: int
                 ) -> list[float] | None:
    """The programme in floating point: ``rows x = rhs``, the lambdas and t non-negative, the
    ideal multipliers free, the Gram matrix (if any) positive semidefinite; maximise t."""
    import numpy as np

    nv = rows.shape[1]
    cost = np.zeros(nv)
    cost[it] = -1.0  # prefer c = -t < 0
    if not nz:
        from scipy.optimize import linprog

        bounds = [(0, None)] * n + [(None, None)] * (it - n) + [(0, None)]
        res = linprog(cost, A_eq=rows, b_eq=rhs, bounds=bounds, method="highs")
        return [float(v) for v in res.x] if res.status == 0 else None
    import cvxopt

    keep: list[int] = []  # a full-row-rank subset of the equations (cvxopt needs one)
    for i in range(len(rows)):
        if np.linalg.matrix_rank(rows[keep + [i]]) == len(keep) + 1:
            keep.append(i)
    if np.linalg.matrix_rank(np.c_[rows, rhs]) != len(keep):
        return None  # the coefficient equations are inconsistent: no certificate of this shape
    gl = np.zeros((n + 1, nv))
    for k in range(n):
        gl[k, k] = -1.0  # lambda >= 0
    gl[n, it] = -1.0  # t >= 0
    gs = np.zeros((nz * nz, nv))
    for j, (a, b) in enumerate(pairs):
        gs[a * nz + b, iq + j] = -1.0
        gs[b * nz + a, iq + j] = -1.0
    cvxopt.solvers.options.update({"show_progress": False, "maxiters": 60})
    try:
        sol = cvxopt.solvers.sdp(cvxopt.matrix(cost), Gl=cvxopt.matrix(gl), hl=cvxopt.matrix(np.zeros(n + 1)),
                                 Gs=[cvxopt.matrix(gs)], hs=[cvxopt.matrix(np.zeros((nz, nz)))],
                                 A=cvxopt.matrix(rows[keep]), b=cvxopt.matrix(rhs[keep]))
    except (ValueError, ArithmeticError, TypeError):
        return None
    if sol.get("x") is None or sol.get("status") not in ("optimal", "unknown"):
        return None
    return [float(v) for v in sol["x"]]


@dataclass
class _Rounded:
    """A floating-point solution rounded to rationals: the lambdas and t (kept ``>= 0``), the ideal
    multipliers on their support (by index) and the Gram entries (one per pair of ``z``)."""

    lam: list[Fraction]
    t: Fraction
    mu: dict[int, Fraction]
    qv: list[Fraction]

    @classmethod
    def of(cls, x: list[float], n: int, ni: int, den: int) -> _Rounded:
        """``x`` (``n`` lambdas, ``ni`` ideal multipliers, t, the Gram entries) rounded to denominator ``den``."""
        support = [k for k in range(ni) if abs(x[n + k]) > 1e-9]
        return cls([max(Fraction(0), _round(v, den)) for v in x[:n]], max(Fraction(0), _round(x[n + ni], den)),
                   {k: _round(x[n + k], den) for k in support}, [_round(v, den) for v in x[n + ni + 1:]])

    def residual(self, polys: list[Poly], z: list[Any], pairs: list[tuple[int, int]],
                 monos: dict[Any, int]) -> dict[Any, Fraction]:
        """``-t`` minus the certificate's left side, monomial by monomial (all 0 when it is exact)."""
        n = len(self.lam)
        r = dict.fromkeys(monos, Fraction(0))
        r[()] = -self.t
        for k in range(n):
            if self.lam[k]:
                for m, c in polys[k].terms.items():
                    r[m] -= self.lam[k] * c
        for k, v in self.mu.items():
            for m, c in polys[n + k].terms.items():
                r[m] -= v * c
        for j, (a, b) in enumerate(pairs):
            r[_mul(z[a], z[b])] -= self.qv[j] * (1 if a == b else 2)
        return r

    def spread(self, r: dict[Any, Fraction], by_mono: dict[Any, list[int]], pairs: list[tuple[int, int]]) -> None:
        """Correct the Gram entries monomial by monomial: each monomial's residual spread over the
        entries producing it (the minimum-norm correction)."""
        for m, js in by_mono.items():
            if r[m]:
                weights = [1 if pairs[j][0] == pairs[j][1] else 2 for j in js]
                norm = sum(w * w for w in weights)
                for j, w in zip(js, weights, strict=True):
                    self.qv[j] += r[m] * w / norm


def _multiplier_entries(cols: list[Any], eqs: list[Any], ideal: list[tuple[int, Any]],
                        rd: _Rounded) -> tuple[list[Any], set[int]]:
    """The certificate's entries of the products (``lambda_k G_k``) and of the ideal multipliers
    (``c m p`` as ``c/4 ((m + 1)^2 p + (m - 1)^2 (-p))``), and the literals they use."""
    entries: list[Any] = []
    used: set[int] = set()
    for k, v in enumerate(rd.lam):
        if v:
            entries.append([cols[k][0], frac_str(v)])
            used |= set(cols[k][4])
    for k, c in rd.mu.items():
        e, m = ideal[k]
        if not c:
            continue
        _, neg_p, pos_p, idx = eqs[e]  # literal factors contributing -p and p
        used |= idx
        up, down = (pos_p, neg_p) if c > 0 else (neg_p, pos_p)
        if not m:  # c p = |c| (sign p)
            entries.append([[up], frac_str(abs(c))])
            continue
        mono = Poly({m: Fraction(1)})
        plus, minus = mono + Poly.const(1), mono - Poly.const(1)
        entries.append([[["sq", plus.to_json()], up], frac_str(abs(c) / 4)])
        entries.append([[["sq", minus.to_json()], down], frac_str(abs(c) / 4)])
    return entries, used


def _square_entries(z: list[Any], low: list[list[Fraction]], diag: list[Fraction]) -> list[Any]:
    """The Gram matrix ``L D L^T`` as entries ``d_i * (L_i . z)^2``."""
    entries: list[Any] = []
    for i, d in enumerate(diag):
        if d:
            s = Poly()
            for j in range(i, len(z)):
                if low[j][i]:
                    s = s + Poly({z[j]: low[j][i]})
            entries.append([[["sq", s.to_json()]], frac_str(d)])
    return entries


def _exact(cols: list[Any], eqs: list[Any], ideal: list[tuple[int, Any]], polys: list[Poly], z: list[Any],
           pairs: list[tuple[int, int]], monos: dict[Any, int], x: list[float], den: int, deadline: float
           ) -> tuple[list[Any], set[int]] | None:
    """The floating-point solution made exact (see the module docstring), or None: the
    multipliers ``lambda >= 0`` and ``t >= 0`` rounded and kept; the ideal multipliers on their
    support rounded, then corrected by an exact solution of the equations of the monomials no
    Gram entry produces; last the Gram entries corrected monomial by monomial (each monomial's
    residual spread over the entries producing it).  The Gram matrix must then be positive
    semidefinite exactly."""
    n, ni = len(cols), len(ideal)
    rd = _Rounded.of(x, n, ni, den)
    support = list(rd.mu)
    by_mono: dict[Any, list[int]] = {}
    for j, (a, b) in enumerate(pairs):
        by_mono.setdefault(_mul(z[a], z[b]), []).append(j)
    r = rd.residual(polys, z, pairs, monos)
    uncovered = [m for m in monos if m not in by_mono and (r[m] or any(m in polys[n + k].terms for k in support))]
    if any(r[m] for m in uncovered):
        if not support:
            return None
        rows = [[polys[n + k].terms.get(m, Fraction(0)) for k in support] for m in uncovered]
        delta = _solve(rows, [r[m] for m in uncovered], deadline)
        if delta is None:
            return None
        for k, d in zip(support, delta, strict=True):
            rd.mu[k] += d
        r = rd.residual(polys, z, pairs, monos)
    rd.spread(r, by_mono, pairs)
    if any(r[m] for m in monos if m not in by_mono):
        return None
    nz = len(z)
    q = dict(zip(pairs, rd.qv, strict=True))
    ldl = _ldl([[q[(min(i, j), max(i, j))] for j in range(nz)] for i in range(nz)])
    if ldl is None:
        return None
    entries, used = _multiplier_entries(cols, eqs, ideal, rd)
    entries += _square_entries(z, *ldl)
    if not entries:
        return None
    return entries, used
