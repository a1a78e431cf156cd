"""Loss matrices over finite label and prediction sets, with certified exact ranks.

Ramaswamy, Agarwal & Tewari (2013), Section 2: a loss ``l : Y x T -> R_+`` on finite sets is an
``n x k`` matrix with entries ``l_yt``; Theorem 3 turns any decomposition
``l(y, t) = sum_{i=1..d} alpha_yi beta_ti + c`` into a ``d``-dimensional calibrated
least-squares surrogate.  This module holds

* label and prediction sets: binary relevance ``{0,1}^r``, graded relevance ``{0..s}^r``,
  unit / weighted DAGs over ``r`` nodes (the DAG enumeration of :mod:`symcal.ranking.dags`),
  total orders, and permutations ``S_r`` (``sigma[i-1]`` is the *position* of document ``i``,
  as in the paper);
* :class:`LossMatrix`: exact entries (integer numerators over one common denominator);
* :class:`Decomposition`: ``L = alpha beta^T + c 1 1^T`` checked entry by entry in exact
  integer arithmetic (directly in int64 when an overflow bound allows, else modulo several
  primes whose product exceeds a bound on the residual -- a Chinese-remainder certificate);
* :class:`RankCertificate`: the **rank of L** and the **affine dimension**
  ``min{d : L = A B^T + c 1 1^T}`` (the ``d`` of Theorem 3), each certified by an upper
  bound (a checked decomposition) and a lower bound (a non-singular minor with its exact
  integer determinant; for the affine dimension, minors whose determinants, affine in ``c``,
  have no common root).  A floating QR with column pivoting only *guesses* which rows and
  columns to use; the certificate is the exact minor and the exact decomposition check.

The two notions differ by at most one: ``rank(L) - 1 <= affine dimension <= rank(L)``.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from symcal import display
from symcal.errors import DuplicateKey, invalid, unique_keys
from symcal.exact import fraction_str, to_fraction
from symcal.ranking._check import CheckResult

__all__ = [
    "permutations",
    "order_of",
    "binary_relevance",
    "graded_relevance",
    "DagLabel",
    "unit_dags",
    "weighted_dags",
    "total_orders",
    "LossMatrix",
    "Decomposition",
    "RankCertificate",
    "bareiss_det",
    "certify_rank",
    "certify_affine_dimension",
    "generic_decomposition",
    "MAX_R",
    "LossAnalysis",
    "analyse",
    "MAX_ENTRIES",
    "ModularDeterminant",
]

MAX_R = 9  # 9! = 362880 permutations


# --------------------------------------------------------------------------- label sets


def _check_r(r: Any, param: str = "r", *, at_most: int = MAX_R, at_least: int = 1) -> int:
    if isinstance(r, bool) or not isinstance(r, int):
        raise invalid(param, r, f"an integer number of documents between {at_least} and {at_most}")
    if not at_least <= r <= at_most:
        raise invalid(param, r, f"an integer number of documents between {at_least} and {at_most}")
    return r


def permutations(r: int) -> list[tuple[int, ...]]:
    """``S_r`` as position vectors: ``sigma[i-1] = sigma(i)``, the position of document ``i``
    (Ramaswamy et al. 2013, Section 4: "sigma(i) denotes the position of document i").
    Lexicographic order; the identity (document 1 first) comes first."""
    r = _check_r(r)
    return list(itertools.permutations(range(1, r + 1)))


def order_of(sigma: Sequence[int]) -> tuple[int, ...]:
    """``sigma^{-1}`` as a list: the documents best first."""
    r = len(sigma)
    out = [0] * r
    for doc, pos in enumerate(sigma, start=1):
        out[pos - 1] = doc
    return tuple(out)


def check_permutation(sigma: Any, r: int, param: str = "sigma") -> tuple[int, ...]:
    try:
        seq = tuple(sigma)
    except TypeError:
        raise invalid(param, sigma, f"a permutation of 1..{r} (positions of documents 1..{r})") from None
    if any(isinstance(v, bool) or not isinstance(v, int) for v in seq) or sorted(seq) != list(range(1, r + 1)):
        raise invalid(param, seq, f"a permutation of 1..{r} (sigma[i-1] = position of document i)")
    return seq


def binary_relevance(r: int, *, nonzero: bool = False) -> list[tuple[int, ...]]:
    """``{0,1}^r`` (Section 4), lexicographic; ``nonzero=True`` leaves out the all-zero vector
    (where MAP is 0/0)."""
    r = _check_r(r, at_most=16)
    out = list(itertools.product((0, 1), repeat=r))
    return out[1:] if nonzero else out


def graded_relevance(r: int, s: int) -> list[tuple[int, ...]]:
    """``{0, 1, ..., s}^r`` (Section 5), lexicographic."""
    r = _check_r(r, at_most=12)
    if isinstance(s, bool) or not isinstance(s, int) or s < 1:
        raise invalid("s", s, "an integer number of relevance levels s >= 1")
    if (s + 1) ** r > 2_000_000:
        raise invalid("s", s, f"(s+1)^r <= 2,000,000 labels; got {(s + 1) ** r}")
    return list(itertools.product(range(s + 1), repeat=r))


@dataclass(frozen=True, order=True)
class DagLabel:
    """A weighted DAG over documents ``1..r`` (Section 7): ``y_ij = w > 0`` for each edge
    ``(i, j, w)`` ("a preference for document i over document j"), 0 otherwise."""

    r: int
    edges: tuple[tuple[int, int, Fraction], ...]

    def weight(self, i: int, j: int) -> Fraction:
        for a, b, w in self.edges:
            if a == i and b == j:
                return w
        return Fraction(0)

    def vector(self) -> dict[tuple[int, int], Fraction]:
        """``y in R_+^{r(r-1)}`` as ``{(i, j): y_ij}`` for all ordered pairs ``i != j``."""
        out = {(i, j): Fraction(0) for i in range(1, self.r + 1) for j in range(1, self.r + 1) if i != j}
        for a, b, w in self.edges:
            out[(a, b)] = w
        return out

    def __str__(self) -> str:
        if not self.edges:
            return "{}"
        return "{" + ", ".join(f"{a}->{b}" + ("" if w == 1 else f":{fraction_str(w)}") for a, b, w in self.edges) + "}"


def dag_label(r: int, edges: Any) -> DagLabel:
    """A validated :class:`DagLabel` from ``{(i, j): w}`` or ``[(i, j), ...]`` (weight 1)."""
    from symcal.ranking.preference import PreferenceGraph

    if isinstance(edges, dict):
        g = PreferenceGraph(r, edges)
    else:
        g = PreferenceGraph(r, {tuple(e): 1 for e in edges})
    for (i, j), w in g.edges.items():
        if w <= 0:
            raise invalid(f"edges[{i},{j}]", fraction_str(w), "a weight > 0 (leave absent edges out)")
    return DagLabel(r, tuple((i, j, w) for (i, j), w in sorted(g.edges.items())))


def unit_dags(r: int) -> list[DagLabel]:
    """Every DAG over ``r`` nodes with unit weights (``|G(r)|`` = 1, 3, 25, 543, 29281 for
    r = 1..5), enumerated by :func:`symcal.ranking.dags.dags`; sorted."""
    from symcal.ranking.dags import dags

    r = _check_r(r, at_most=5)
    return sorted(DagLabel(r, tuple((i, j, Fraction(1)) for i, j in sorted(g))) for g in dags(r))


def weighted_dags(r: int, weights: Iterable[Any] = (1, 2)) -> list[DagLabel]:
    """Every DAG over ``r`` nodes with each edge weight taken from ``weights`` (exact, > 0)."""
    from symcal.ranking.dags import dags

    r = _check_r(r, at_most=4)
    ws = sorted({to_fraction(w, "weights") for w in weights})
    if not ws or any(w <= 0 for w in ws):
        raise invalid("weights", [fraction_str(w) for w in ws], "at least one weight, all > 0")
    out = []
    for g in dags(r):
        es = sorted(g)
        for choice in itertools.product(ws, repeat=len(es)):
            out.append(DagLabel(r, tuple((i, j, w) for (i, j), w in zip(es, choice, strict=True))))
    return sorted(out)


def total_orders(r: int) -> list[DagLabel]:
    """The ``r!`` total orders as complete unit DAGs (``i -> j`` when ``i`` is ranked above ``j``)."""
    out = []
    for sigma in permutations(r):
        order = order_of(sigma)
        out.append(DagLabel(r, tuple(sorted((order[a], order[b], Fraction(1))
                                            for a in range(r) for b in range(a + 1, r)))))
    return sorted(out)


# --------------------------------------------------------------------------- exact integer helpers


def bareiss_det(rows: Sequence[Sequence[int]]) -> int:
    """Exact determinant of an integer matrix by fraction-free (Bareiss) elimination."""
    a = [[int(x) for x in row] for row in rows]
    n = len(a)
    if n == 0:
        return 1
    if any(len(row) != n for row in a):
        raise invalid("rows", f"{n} rows of lengths {[len(r) for r in a]}", "a square matrix")
    sign, prev = 1, 1
    for k in range(n - 1):
        if a[k][k] == 0:
            for i in range(k + 1, n):
                if a[i][k] != 0:
                    a[k], a[i] = a[i], a[k]
                    sign = -sign
                    break
            else:
                return 0
        akk = a[k][k]
        for i in range(k + 1, n):
            aik = a[i][k]
            row_i, row_k = a[i], a[k]
            for j in range(k + 1, n):
                row_i[j] = (row_i[j] * akk - aik * row_k[j]) // prev
            row_i[k] = 0
        prev = akk
    return sign * a[n - 1][n - 1]


def _exact_inverse(rows: Sequence[Sequence[int]]) -> list[list[Fraction]]:
    """Gauss-Jordan inverse in Fractions (the matrix must be non-singular)."""
    n = len(rows)
    a = [[Fraction(int(x)) for x in row] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(rows)]
    for col in range(n):
        piv = next(i for i in range(col, n) if a[i][col] != 0)
        a[col], a[piv] = a[piv], a[col]
        inv = 1 / a[col][col]
        a[col] = [x * inv for x in a[col]]
        for i in range(n):
            if i != col and a[i][col] != 0:
                f = a[i][col]
                a[i] = [x - f * y for x, y in zip(a[i], a[col], strict=True)]
    return [row[n:] for row in a]


def _as_int_array(x: Any) -> np.ndarray:
    """An integer array: int64 when every entry fits comfortably, else Python ints (object)."""
    arr = np.asarray(x, dtype=object)
    if arr.size == 0:
        return arr.astype(np.int64)
    big = max(abs(int(v)) for v in arr.flat)
    if big < 2**62:
        return arr.astype(np.int64)
    return arr


def _max_abs(arr: np.ndarray) -> int:
    if arr.size == 0:
        return 0
    if arr.dtype == object:
        return max(abs(int(v)) for v in arr.flat)
    return int(np.abs(arr).max())


_PRIMES: list[int] = []


def _primes(count: int) -> list[int]:
    """The ``count`` largest primes below 2^26 (so that products of residues fit in int64)."""
    import sympy

    while len(_PRIMES) < count:
        start = _PRIMES[-1] if _PRIMES else 2**26
        _PRIMES.append(int(sympy.prevprime(start)))
    return _PRIMES[:count]


def _mod(arr: np.ndarray, p: int) -> np.ndarray:
    if arr.dtype == object:
        return np.array([[int(v) % p for v in row] for row in arr], dtype=np.int64).reshape(arr.shape)
    return np.mod(arr, p).astype(np.int64)


def exact_matmul_equals(
    left: np.ndarray, right: np.ndarray, scale: int, offset: int, target: np.ndarray, target_scale: int
) -> tuple[bool, tuple[int, int] | None, str]:
    """Decide ``scale * (left @ right) + offset == target_scale * target`` entry by entry,
    exactly, for integer arrays.  Returns (holds, first failing (row, col), method).

    When ``|residual|`` is provably below 2^62 the check runs in int64; otherwise it runs
    modulo primes ``p < 2^26`` until their product exceeds a bound on ``|residual|``: an
    integer that is 0 modulo that product and smaller than it in absolute value is 0.
    """
    n, d = left.shape
    d2, k = right.shape
    if d != d2 or target.shape != (n, k):
        raise invalid("decomposition", f"{left.shape} @ {right.shape} vs {target.shape}", "matching shapes")
    fl = _flint()
    if fl is not None and d and n * d * k > 1_000_000:
        # FLINT's multimodular integer product, then the exact difference
        diff = _fmpz_mat(fl, left) * _fmpz_mat(fl, right) * scale - _fmpz_mat(fl, target) * target_scale
        if offset:
            diff = diff + fl.fmpz_mat(n, k, [offset] * (n * k))
        if diff.is_zero():
            return True, None, "python-flint integer product, exact"
        for a in range(n):
            for b in range(k):
                if diff[a, b] != 0:
                    return False, (a, b), "python-flint integer product, exact"
    bound = abs(scale) * d * _max_abs(left) * _max_abs(right) + abs(offset) + abs(target_scale) * _max_abs(target)
    fits = (left.dtype != object and right.dtype != object and target.dtype != object
            and abs(scale) * d * _max_abs(left) * _max_abs(right) < 2**61
            and abs(target_scale) * _max_abs(target) + abs(offset) < 2**61)
    if fits:
        lhs = left @ right if d else np.zeros((n, k), dtype=np.int64)
        diff = scale * lhs + offset - target_scale * target
        bad = np.argwhere(diff != 0)
        return (bad.size == 0, None if bad.size == 0 else (int(bad[0][0]), int(bad[0][1])), "int64, exact")
    count = 1
    while math.prod(_primes(count)) <= bound:
        count += 1
    for p in _primes(count):
        lp, rp, tp = _mod(left, p), _mod(right, p), _mod(target, p)
        prod = np.zeros((n, k), dtype=np.int64)
        for j in range(d):  # column by column keeps every partial sum below 2^63
            prod = (prod + np.outer(lp[:, j], rp[j, :])) % p
        diff = ((scale % p) * prod + offset % p - (target_scale % p) * tp) % p
        bad = np.argwhere(diff != 0)
        if bad.size:
            return False, (int(bad[0][0]), int(bad[0][1])), f"modulo {p}"
    return True, None, f"modulo {count} primes near 2^26 (product > residual bound 2^{bound.bit_length()})"


# --------------------------------------------------------------------------- loss matrices


# A loss matrix has at most this many entries (5e7: 400 MB as int64); a larger one, or a named
# loss that would build one, is refused up front with its size (issue 13)
MAX_ENTRIES = 50_000_000


def _sci(x: int | float) -> str:
    from symcal.ranking.preference import sci

    return sci(x)


def check_entries(param: str, n: int, k: int, what: str = "the loss matrix", value: Any = None) -> None:
    """Refuse an ``n x k`` matrix beyond :data:`MAX_ENTRIES` entries, saying its size."""
    if n * k > MAX_ENTRIES:
        def count(x: int) -> str:
            return f"{x:,}" if x < 10**9 else _sci(x)

        raise invalid(param, f"{count(n)} x {count(k)}" if value is None else value,
                      f"{what} within {_sci(MAX_ENTRIES)} entries",
                      f"{count(n)} x {count(k)} = {_sci(n * k)} entries; at most {_sci(MAX_ENTRIES)}")


def _check_distinct(param: str, items: Sequence[Any]) -> None:
    """Labels (predictions) name rows (columns): each once, or ``value(label, ...)`` is ambiguous."""
    seen: dict[Any, int] = {}
    try:
        for idx, v in enumerate(items):
            if v in seen:
                raise invalid(f"{param}[{idx}]", v, f"distinct {param}; it repeats {param}[{seen[v]}]",
                              f"each row (column) of the matrix needs its own {param[:-1]}")
            seen[v] = idx
    except TypeError:  # unhashable labels: compare their texts
        texts: dict[str, int] = {}
        for idx, v in enumerate(items):
            t = repr(v)
            if t in texts and items[texts[t]] == v:
                raise invalid(f"{param}[{idx}]", v, f"distinct {param}; it repeats {param}[{texts[t]}]") from None
            texts.setdefault(t, idx)


def _unit_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows of ``x`` with exactly one non-zero entry: (row indices, the column of that entry)."""
    if x.shape[1] == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    nz = np.asarray(x != 0, dtype=bool)
    idx = np.flatnonzero(nz.sum(axis=1) == 1)
    return idx, nz[idx].argmax(axis=1)


def _check_product(alpha: np.ndarray, beta: np.ndarray, scale: int, offset: int, target: np.ndarray,
                   t_scale: int) -> tuple[bool, tuple[int, int] | None, str]:
    """``scale * alpha beta^T + offset == t_scale * target`` entry by entry, exactly.

    A row of ``beta`` (or of ``alpha``) with a single non-zero entry -- the identity block of a
    trivial or pivot decomposition -- gives its column (row) of the product directly, so only
    the other columns go through :func:`exact_matmul_equals`."""
    flipped = False
    ua, _ = _unit_rows(alpha)
    ub, _ = _unit_rows(beta)
    if ua.size > ub.size:  # check the transpose: L^T = beta alpha^T
        alpha, beta, target = beta, alpha, target.T
        flipped = True
    units, coord = _unit_rows(beta)
    n, k = target.shape
    first: tuple[int, int] | None = None
    hows: list[str] = []
    if units.size:
        a_obj = np.asarray(alpha[:, coord], dtype=object)
        v = np.asarray(beta[units, coord], dtype=object)
        lhs = a_obj * (v * scale)[None, :] + offset
        rhs = np.asarray(target[:, units], dtype=object) * t_scale
        bad = np.argwhere(lhs != rhs)
        if bad.size:
            first = (int(bad[0][0]), int(units[bad[0][1]]))
        what = ("row" if flipped else "column") + ("s" if units.size != 1 else "")
        hows.append(f"{units.size} {what} with a single coordinate compared directly")
    rest = np.setdiff1d(np.arange(k), units)
    if rest.size:
        ok, where, how = exact_matmul_equals(alpha, np.ascontiguousarray(beta[rest].T), scale, offset,
                                             np.ascontiguousarray(target[:, rest]), t_scale)
        if not ok and where is not None:
            cand = (where[0], int(rest[where[1]]))
            first = cand if first is None or cand < first else first
        hows.append(how if not units.size else f"the other {rest.size}: {how}")
    if first is not None and flipped:
        first = (first[1], first[0])
    return first is None, first, "; ".join(hows) or "empty"


def _label_text(x: Any) -> str:
    if isinstance(x, tuple) and all(isinstance(v, int) for v in x):
        return "(" + ",".join(str(v) for v in x) + ")"
    return str(x)


class LossMatrix:
    """A loss ``l : Y x T -> R`` on finite sets as an exact ``n x k`` matrix (Ramaswamy et al.
    2013, Section 2: "view the loss function ... as an n x k matrix with elements
    l_yt = l(y, t)").  Entries are ``numerators / denominator`` with integer numerators.

    Build with :meth:`from_loss` (a Python function of ``(label, prediction)``),
    :meth:`from_rows` (exact numbers) or :meth:`from_file` (JSON).
    """

    def __init__(self, numerators: Any, denominator: int, labels: Sequence[Any], predictions: Sequence[Any],
                 *, name: str = "") -> None:
        num = _as_int_array(numerators)
        if num.ndim != 2 or num.shape[0] == 0 or num.shape[1] == 0:
            raise invalid("matrix", f"shape {num.shape}", "a non-empty n x k matrix (n, k >= 1)")
        check_entries("matrix", int(num.shape[0]), int(num.shape[1]))
        if not isinstance(denominator, int) or denominator <= 0:
            raise invalid("denominator", denominator, "an integer >= 1")
        if len(labels) != num.shape[0]:
            raise invalid("labels", f"{len(labels)} labels", f"one label per row ({num.shape[0]} rows)")
        if len(predictions) != num.shape[1]:
            raise invalid("predictions", f"{len(predictions)} predictions", f"one per column ({num.shape[1]} columns)")
        _check_distinct("labels", labels)
        _check_distinct("predictions", predictions)
        self.numerators = num
        self.denominator = denominator
        self.labels = tuple(labels)
        self.predictions = tuple(predictions)
        self.name = name

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_loss(cls, loss: Callable[[Any, Any], Any], labels: Iterable[Any], predictions: Iterable[Any],
                  *, name: str = "") -> LossMatrix:
        """``l_yt = loss(y, t)`` for every label and prediction, in exact arithmetic (a float
        value is refused with the fix; an error raised by ``loss`` names the entry)."""
        if not callable(loss):
            raise invalid("loss", loss, "a function loss(label, prediction) returning an exact number")
        ys, ts = list(labels), list(predictions)
        if not ys:
            raise invalid("labels", ys, "at least one label")
        if not ts:
            raise invalid("predictions", ts, "at least one prediction")
        rows = []
        for y in ys:
            row = []
            for t in ts:
                value = loss(y, t)
                row.append(to_fraction(value, f"loss({_label_text(y)}, {_label_text(t)})"))
            rows.append(row)
        return cls._from_fractions(rows, ys, ts, name=name)

    @classmethod
    def _from_fractions(cls, rows: Sequence[Sequence[Fraction | int]], labels: Sequence[Any],
                        predictions: Sequence[Any],
                        *, name: str = "") -> LossMatrix:
        """Rows of exact numbers (ints or Fractions) over their common denominator; rows of
        plain ints (the usual file) are taken as they are."""
        den = 1
        for row in rows:
            for v in row:
                if type(v) is not int:
                    den = math.lcm(den, v.denominator)
        if den == 1:
            nums = [[v if type(v) is int else v.numerator for v in row] for row in rows]
        else:
            nums = [[v * den if type(v) is int else v.numerator * (den // v.denominator) for v in row] for row in rows]
        return cls(nums, den, labels, predictions, name=name)

    @classmethod
    def from_rows(cls, rows: Any, *, labels: Sequence[Any] | None = None, predictions: Sequence[Any] | None = None,
                  name: str = "") -> LossMatrix:
        """An exact matrix from a list of rows (ints, Fractions or ``"p/q"`` strings).  Ragged,
        empty or non-numeric input is refused with the offending row/entry named."""
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) and not isinstance(rows, np.ndarray):
            raise invalid("matrix", rows, "a list of rows, each a list of exact numbers")
        rows = list(rows)
        if not rows:
            raise invalid("matrix", rows, "at least one row (an n x k matrix with n, k >= 1)")
        width = None
        parsed: list[list[Fraction | int]] = []
        for a, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
                raise invalid(f"matrix[{a}]", row, "a row: a list of exact numbers")
            row = list(row)
            if not row:
                raise invalid(f"matrix[{a}]", row, "a non-empty row")
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise invalid(f"matrix[{a}]", f"{len(row)} entries",
                              f"{width} entries like row 0 (the matrix is ragged)")
            if all(type(v) is int for v in row):  # plain ints (not bools): exact already
                parsed.append(row)
            else:
                parsed.append([v if type(v) is int else to_fraction(v, f"matrix[{a}][{b}]")
                               for b, v in enumerate(row)])
        assert width is not None
        for key, val in (("labels", labels), ("predictions", predictions)):
            if val is not None and (isinstance(val, (str, bytes)) or not isinstance(val, Iterable)):
                raise invalid(key, val, "a list with one entry per row (labels) or column (predictions)")
        ys = list(labels) if labels is not None else [f"y{a + 1}" for a in range(len(parsed))]
        ts = list(predictions) if predictions is not None else [f"t{b + 1}" for b in range(width)]
        if len(ys) != len(parsed):
            raise invalid("labels", ys, f"{len(parsed)} labels, one per row")
        if len(ts) != width:
            raise invalid("predictions", ts, f"{width} predictions, one per column")
        return cls._from_fractions(parsed, ys, ts, name=name)

    @classmethod
    def from_file(cls, path: str | Path) -> LossMatrix:
        """Read ``{"matrix": [[...], ...], "labels": [...], "predictions": [...], "name": ...}``
        (JSON; labels/predictions optional; numbers as ints or ``"p/q"`` strings -- JSON
        floats are refused with the fix)."""
        if not isinstance(path, str | Path) or len(str(path)) > 4096 or "\0" in str(path):
            raise invalid("file", path, "the path (at most 4096 characters) of a JSON file with a \"matrix\" entry")
        p = Path(path)
        try:
            is_file = p.is_file()
        except OSError:  # a name the file system refuses (too long a component, ...)
            is_file = False
        if not is_file:
            raise invalid("file", str(path), "an existing JSON file with a \"matrix\" entry")
        if p.stat().st_size > 2_000_000_000:  # 5e7 entries of a few digits each fit in far less
            raise invalid("file", str(path), "a JSON file of at most 2,000 MB",
                          f"it has {p.stat().st_size // 10**6:,} MB; a loss matrix has at most {_sci(MAX_ENTRIES)} "
                          "entries")
        try:
            data = json.loads(p.read_text(encoding="utf-8"), object_pairs_hook=unique_keys("file", str(path)))
        except DuplicateKey:
            raise
        except json.JSONDecodeError as e:
            raise invalid("file", str(path), f"valid JSON ({e.msg} at line {e.lineno})") from None
        except (OSError, ValueError, RecursionError) as e:  # unreadable, not UTF-8, huge ints, absurd nesting
            raise invalid("file", str(path), "a readable UTF-8 JSON file of a sensible size",
                          str(e).split(";")[0]) from None
        if isinstance(data, list):
            data = {"matrix": data}
        if not isinstance(data, dict) or "matrix" not in data:
            raise invalid("file", str(path), "a JSON object with a \"matrix\" entry (a list of rows)")
        unknown = set(data) - {"matrix", "labels", "predictions", "name"}
        if unknown:
            raise invalid("file", sorted(unknown), "only the keys matrix, labels, predictions, name")
        labels = data.get("labels")
        preds = data.get("predictions")
        for key, val in (("labels", labels), ("predictions", preds)):
            if val is not None and not isinstance(val, list):
                raise invalid(key, val, "a list")
        return cls.from_rows(data["matrix"], labels=[_hashable(v) for v in labels] if labels is not None else None,
                             predictions=[_hashable(v) for v in preds] if preds is not None else None,
                             name=str(data.get("name", p.stem)))

    # -- access ---------------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.numerators.shape[0]), int(self.numerators.shape[1]))

    def entry(self, a: int, b: int) -> Fraction:
        """``l(y_a, t_b)`` (0-based indices)."""
        return Fraction(int(self.numerators[a, b]), self.denominator)

    def value(self, label: Any, prediction: Any) -> Fraction:
        return self.entry(self.labels.index(label), self.predictions.index(prediction))

    def column(self, b: int) -> list[Fraction]:
        return [self.entry(a, b) for a in range(self.shape[0])]

    def rows(self) -> list[list[Fraction]]:
        return [[self.entry(a, b) for b in range(self.shape[1])] for a in range(self.shape[0])]

    def expected_losses(self, p: Sequence[Any]) -> list[Fraction]:
        """``p^T l_t`` for every prediction ``t`` (exact)."""
        probs = [to_fraction(x, f"p[{a}]") for a, x in enumerate(p)]
        if len(probs) != self.shape[0]:
            raise invalid("p", f"{len(probs)} probabilities", f"one per label ({self.shape[0]})")
        if any(x < 0 for x in probs) or sum(probs) != 1:
            raise invalid("p", [fraction_str(x) for x in probs], "a probability vector (>= 0, summing to 1)")
        out = []
        for b in range(self.shape[1]):
            out.append(sum((probs[a] * int(self.numerators[a, b]) for a in range(self.shape[0]) if probs[a]),
                           Fraction(0)) / self.denominator)
        return out

    def to_float(self) -> np.ndarray:
        num = self.numerators.astype(np.float64) if self.numerators.dtype != object else np.array(
            [[float(v) for v in row] for row in self.numerators])
        return num / float(self.denominator)

    def shifted(self, c: Fraction) -> LossMatrix:
        """``L - c 1 1^T`` (exact)."""
        c = to_fraction(c, "c")
        den = math.lcm(self.denominator, c.denominator)
        factor, shift = den // self.denominator, int(c * den)
        if self.numerators.dtype != object and _max_abs(self.numerators) * factor + abs(shift) < 2**62:
            num = self.numerators * factor - shift
        else:
            num = _as_int_array(np.asarray(self.numerators, dtype=object) * factor - shift)
        return LossMatrix(num, den, self.labels, self.predictions, name=f"{self.name} - {fraction_str(c)}")

    def kernel_statement(self, *, rank: tuple[str, str, int] | None = None,
                         decomposition: Decomposition | None = None) -> dict[str, Any]:
        """This matrix and what is claimed of it, as a certificate for :mod:`symcal.kernel.matrix`
        (which recomputes it with its own elimination): ``rank=(of, relation, bound)`` with ``of``
        ``"rank"`` or ``"affine"`` (Theorem 3's ``d``) and ``relation`` one of ``<=``, ``=``, ``>=``;
        ``decomposition``: ``L = alpha beta^T + c`` in every entry."""
        if rank is None and decomposition is None:
            raise invalid("rank", rank, "a (of, relation, bound) triple, or a decomposition")
        cert: dict[str, Any] = {"kind": "matrix", "rows": [[fraction_str(Fraction(int(v), self.denominator))
                                                             for v in row] for row in self.numerators]}
        if rank is not None:
            of, relation, bound = rank
            if of not in ("rank", "affine") or relation not in ("<=", "=", ">=") or not isinstance(bound, int):
                raise invalid("rank", rank, "(of in rank/affine, relation in <=/=/>=, an integer bound)")
            cert["rank"] = {"of": of, "relation": relation, "bound": bound}
        if decomposition is not None:
            dec = decomposition
            cert["decomposition"] = {
                "alpha": [[fraction_str(x) for x in dec.alpha_of(a)] for a in range(dec.alpha.shape[0])],
                "beta": [[fraction_str(x) for x in dec.beta_of(b)] for b in range(dec.beta.shape[0])],
                "c": fraction_str(dec.c)}
        return cert

    def __repr__(self) -> str:
        n, k = self.shape
        return f"LossMatrix({self.name or 'unnamed'}, {n} labels x {k} predictions)"

    def _repr_html_(self) -> str | None:
        return display.render("loss_matrix", "html", self)

    # -- rank ---------------------------------------------------------------------------------

    def rank(self) -> RankCertificate:
        """The certified rank of L (see :func:`certify_rank`)."""
        return certify_rank(self)

    def affine_dimension(self, *, base: RankCertificate | None = None) -> RankCertificate:
        """The certified ``min{d : L = A B^T + c 1 1^T}``: Theorem 3's surrogate dimension
        (``base``: a rank certificate of this matrix to reuse)."""
        return certify_affine_dimension(self, base=base)


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    return v


# --------------------------------------------------------------------------- decompositions


@dataclass(frozen=True)
class Decomposition:
    """``l(y, t) = sum_i alpha_yi beta_ti + c`` (Ramaswamy et al. 2013, Theorem 3's
    hypothesis), stored as integer numerators over common denominators.

    ``alpha`` is ``n x d`` (one row per label), ``beta`` is ``k x d`` (one row per
    prediction); ``coords`` names the ``d`` coordinates; ``source`` says where it comes from.
    """

    alpha: np.ndarray
    alpha_den: int
    beta: np.ndarray
    beta_den: int
    c: Fraction
    coords: tuple[str, ...]
    source: str = ""

    @classmethod
    def from_fractions(cls, alpha: Sequence[Sequence[Any]], beta: Sequence[Sequence[Any]], c: Any,
                       coords: Sequence[str] | None = None, source: str = "") -> Decomposition:
        a = [[to_fraction(x, "alpha") for x in row] for row in alpha]
        b = [[to_fraction(x, "beta") for x in row] for row in beta]
        d = len(a[0]) if a else 0
        if any(len(row) != d for row in a) or any(len(row) != d for row in b):
            raise invalid("alpha/beta", f"rows of lengths {sorted({len(r) for r in a + b})}",
                          "every row of alpha and beta with the same length d")
        aden = math.lcm(1, *[x.denominator for row in a for x in row])
        bden = math.lcm(1, *[x.denominator for row in b for x in row])
        an = _as_int_array([[int(x * aden) for x in row] for row in a]) if d else np.zeros((len(a), 0), np.int64)
        bn = _as_int_array([[int(x * bden) for x in row] for row in b]) if d else np.zeros((len(b), 0), np.int64)
        names = tuple(coords) if coords is not None else tuple(f"u{i + 1}" for i in range(d))
        if len(names) != d:
            raise invalid("coords", names, f"{d} coordinate names")
        return cls(an, aden, bn, bden, to_fraction(c, "c"), names, source)

    @property
    def d(self) -> int:
        return int(self.alpha.shape[1])

    def alpha_of(self, a: int) -> tuple[Fraction, ...]:
        return tuple(Fraction(int(x), self.alpha_den) for x in self.alpha[a])

    def beta_of(self, b: int) -> tuple[Fraction, ...]:
        return tuple(Fraction(int(x), self.beta_den) for x in self.beta[b])

    def check(self, loss: LossMatrix) -> CheckResult:
        """Whether ``alpha beta^T + c`` equals the loss matrix in every entry (exact)."""
        n, k = loss.shape
        if self.alpha.shape[0] != n or self.beta.shape[0] != k:
            return CheckResult(False, f"shape mismatch: alpha has {self.alpha.shape[0]} rows, beta "
                                      f"{self.beta.shape[0]}, the matrix is {n} x {k}")
        # L = num / D;  alpha beta^T + c = (A B^T) / (ad bd) + p / q
        # <=>  q D (A B^T) + p D ad bd  ==  q ad bd num
        q, p = self.c.denominator, self.c.numerator
        scale = q * loss.denominator
        offset = p * loss.denominator * self.alpha_den * self.beta_den
        t_scale = q * self.alpha_den * self.beta_den
        ok, where, how = _check_product(self.alpha, self.beta, scale, offset, loss.numerators, t_scale)
        if ok:
            return CheckResult(True, f"alpha beta^T + c equals all {n * k} entries ({how})",
                               {"d": self.d, "c": self.c, "method": how})
        a, b = where  # type: ignore[misc]
        got = sum((x * y for x, y in zip(self.alpha_of(a), self.beta_of(b), strict=True)), Fraction(0)) + self.c
        want = loss.entry(a, b)
        return CheckResult(False, f"entry ({_label_text(loss.labels[a])}, {_label_text(loss.predictions[b])}): "
                                  f"decomposition gives {fraction_str(got)}, the loss is {fraction_str(want)}",
                           {"label": _label_text(loss.labels[a]), "prediction": _label_text(loss.predictions[b]),
                            "decomposition": got, "loss": want})


# --------------------------------------------------------------------------- certificates


@dataclass(frozen=True)
class RankCertificate:
    """An exact rank (``kind="rank"``) or affine dimension (``kind="affine dimension"``,
    ``min{d : L = A B^T + c 1 1^T}``) with its certificate.

    ``lower`` is certified by the minors (``minors``: (rows, cols, det) -- for the affine
    dimension ``det`` is the pair (det at c = 0, slope) of ``det(M - c J)``, an affine
    function of ``c``); ``upper`` by ``decomposition`` (checked exactly).  ``value`` is set
    only when the two meet.
    """

    kind: str
    lower: int
    upper: int
    minors: tuple[tuple[tuple[int, ...], tuple[int, ...], Any], ...]
    decomposition: Decomposition | None
    method: str
    seconds: float
    notes: tuple[str, ...] = field(default=())

    @property
    def certified(self) -> bool:
        return self.lower == self.upper

    @property
    def value(self) -> int | None:
        return self.lower if self.certified else None

    def summary(self) -> str:
        if self.certified:
            return f"{self.kind} = {self.lower} (certified: minor and checked decomposition)"
        return f"{self.lower} <= {self.kind} <= {self.upper} (NOT certified)"

    def _repr_html_(self) -> str | None:
        return display.render("rank_certificate", "html", self)


def _guess_basis(f: np.ndarray) -> tuple[list[int], list[int]]:
    """Floating guess of a maximal set of independent rows and columns (pivoted QR)."""
    import scipy.linalg

    if not np.any(f):
        return [], []
    f = f / np.abs(f).max()
    _q, r, piv = scipy.linalg.qr(f, mode="economic", pivoting=True)
    diag = np.abs(np.diag(r))
    tol = diag[0] * max(f.shape) * 1e-11
    rank = int((diag > tol).sum())
    cols = sorted(int(c) for c in piv[:rank])
    # rows: LU with partial pivoting of the chosen columns (LAPACK getrf row interchanges)
    _lu, swaps = scipy.linalg.lu_factor(f[:, cols], check_finite=False)
    perm = list(range(f.shape[0]))
    for i, j in enumerate(swaps[:rank]):
        perm[i], perm[int(j)] = perm[int(j)], perm[i]
    rows = sorted(perm[:rank])
    return rows, cols


def _exact_pivot_cols(num: Any) -> list[int]:
    """Exact pivot columns of an integer matrix by fraction-free elimination (the fallback
    when the floating guess is not confirmed)."""
    a = [[int(x) for x in row] for row in num]
    if not a:
        return []
    n, k = len(a), len(a[0])
    pivot_cols: list[int] = []
    r = 0
    for col in range(k):
        piv = next((i for i in range(r, n) if a[i][col] != 0), None)
        if piv is None:
            continue
        a[r], a[piv] = a[piv], a[r]
        for i in range(r + 1, n):
            if a[i][col]:
                f, g = a[i][col], a[r][col]
                a[i] = [x * g - y * f for x, y in zip(a[i], a[r], strict=True)]
                h = math.gcd(*a[i])
                if h > 1:
                    a[i] = [x // h for x in a[i]]
        pivot_cols.append(col)
        r += 1
        if r == n:
            break
    return pivot_cols


def generic_decomposition(loss: LossMatrix, rows: Sequence[int], cols: Sequence[int]) -> Decomposition:
    """``L = L[:, C] M^{-1} L[R, :]`` for a non-singular ``M = L[R, C]``: exact, with
    ``alpha = L[:, C] adj(M) / det(M)`` (scaled) and ``beta = L[R, :]^T``, ``c = 0``."""
    num = loss.numerators
    n, k = loss.shape
    if not rows:
        return Decomposition(np.zeros((n, 0), np.int64), 1, np.zeros((k, 0), np.int64), 1, Fraction(0), (),
                             "generic (zero matrix)")
    m = [[int(num[i, j]) for j in cols] for i in rows]
    det = bareiss_det(m)
    if det == 0:
        raise invalid("rows/cols", (tuple(rows), tuple(cols)), "a non-singular minor")
    inv = _exact_inverse(m)
    adj = np.array([[int(x * det) for x in row] for row in inv], dtype=object)
    left = np.asarray(num[:, list(cols)], dtype=object)
    alpha = _as_int_array(left @ adj)
    sign = 1 if det > 0 else -1
    if sign < 0:
        alpha = _as_int_array(-np.asarray(alpha, dtype=object))
    beta = _as_int_array(np.asarray(num[list(rows), :], dtype=object).T)
    # L = num / D = (alpha / (|det| D)) @ (beta^T)   (beta den 1)
    coords = tuple(f"row {_label_text(loss.labels[i])}" for i in rows)
    return Decomposition(alpha, abs(det) * loss.denominator, beta, 1, Fraction(0), coords,
                         "generic: L = L[:,C] M^-1 L[R,:] on a non-singular minor M = L[R,C]")


def certify_rank(loss: LossMatrix, *, decomposition: Decomposition | None = None) -> RankCertificate:
    """The exact rank of ``L``: a floating pivoted QR guesses independent rows ``R`` and
    columns ``C``; ``det L[R, C] != 0`` (exact, Bareiss) certifies ``rank >= |R|`` and the
    generic decomposition through ``L[R, C]``, checked exactly in every entry, certifies
    ``rank <= |R|``.  A given ``decomposition`` with ``c = 0`` also bounds the rank.  If the
    guess fails, an exact fraction-free elimination picks the pivots (small matrices only)."""
    t0 = time.perf_counter()
    fl = _flint()
    if fl is not None:
        found = _rank_flint(fl, loss)
        if found is not None:
            return _with_given(found, loss, decomposition)
    notes: list[str] = []
    rows, cols = _guess_basis(loss.to_float())
    method = "floating pivoted QR guess, exact Bareiss minor, exact decomposition check"
    cert = _certify_at(loss, rows, cols)
    if cert is None:
        n, k = loss.shape
        if n * k > 400_000:
            return RankCertificate("rank", 0, min(n, k), (), None, "floating guess failed; matrix too large for "
                                   "the exact fallback", time.perf_counter() - t0, ("NOT certified",))
        cols = _exact_pivot_cols(loss.numerators)
        rows = sorted(_exact_pivot_cols([[int(loss.numerators[i, c]) for i in range(n)] for c in cols]))
        notes.append("the floating guess was not confirmed; pivots from exact elimination")
        method = "exact fraction-free elimination, exact Bareiss minor, exact decomposition check"
        cert = _certify_at(loss, rows, cols)
        if cert is None:  # pragma: no cover - exact pivots always certify
            raise AssertionError("exact pivots failed to certify the rank")
    det, dec = cert
    upper = dec.d
    if decomposition is not None and decomposition.c == 0:
        chk = decomposition.check(loss)
        if chk.holds and decomposition.d < upper:  # pragma: no cover - the generic one is minimal
            upper, dec = decomposition.d, decomposition
        notes.append(f"given decomposition (d = {decomposition.d}): {chk.reason}")
    return RankCertificate("rank", len(rows), upper, ((tuple(rows), tuple(cols), det),), dec, method,
                           time.perf_counter() - t0, tuple(notes))


def _with_given(cert: RankCertificate, loss: LossMatrix, decomposition: Decomposition | None) -> RankCertificate:
    """A given decomposition with ``c = 0`` is checked and noted (it bounds the rank too)."""
    if decomposition is None or decomposition.c != 0:
        return cert
    chk = decomposition.check(loss)
    upper, dec = cert.upper, cert.decomposition
    if chk.holds and decomposition.d < upper:  # pragma: no cover - the certified one is minimal
        upper, dec = decomposition.d, decomposition
    return RankCertificate(cert.kind, cert.lower, upper, cert.minors, dec, cert.method, cert.seconds,
                           (*cert.notes, f"given decomposition (d = {decomposition.d}): {chk.reason}"))


def _certify_at(loss: LossMatrix, rows: list[int], cols: list[int]) -> tuple[int, Decomposition] | None:
    if len(rows) != len(cols):
        return None
    m = [[int(loss.numerators[i, j]) for j in cols] for i in rows]
    det = bareiss_det(m)
    if det == 0:
        return None
    dec = generic_decomposition(loss, rows, cols)
    if not dec.check(loss).holds:
        return None
    return det, dec


def certify_affine_dimension(loss: LossMatrix, *, decomposition: Decomposition | None = None,
                             base: RankCertificate | None = None) -> RankCertificate:
    """``min{d : L = A B^T + c 1 1^T}`` -- the ``d`` of Ramaswamy et al. (2013), Theorem 3.

    With ``r = rank L`` certified by a minor ``M``: ``det(M - c J)`` is affine in ``c``
    (``det M - c 1^T adj(M) 1``).  If it never vanishes the affine dimension is ``r``;
    otherwise it vanishes only at ``c0``, and the affine dimension is ``rank(L - c0 J)`` when
    that is ``r - 1`` (decomposition of ``L - c0 J`` plus ``c0``), else ``r`` (a minor of
    ``L - c0 J`` covers ``c0``, ``M`` every other ``c``).  A given decomposition is checked and
    reported as an upper bound.  ``base`` reuses a rank certificate of the same matrix."""
    t0 = time.perf_counter()
    if base is None or base.kind != "rank":
        base = certify_rank(loss)
    notes = list(base.notes)
    if not base.certified:
        return RankCertificate("affine dimension", max(base.lower - 1, 0), base.upper, base.minors,
                               base.decomposition, base.method, time.perf_counter() - t0,
                               (*notes, "rank not certified"))
    r = base.lower
    rows, cols, det = base.minors[0]
    if r == 0:
        return RankCertificate("affine dimension", 0, 0, base.minors, base.decomposition, base.method,
                               time.perf_counter() - t0, tuple(notes))
    fl = _flint()
    if fl is not None:
        found = _affine_flint(fl, loss, base)
        if decomposition is not None:
            chk = decomposition.check(loss)
            found = RankCertificate(found.kind, found.lower, found.upper, found.minors, found.decomposition,
                                    found.method, found.seconds,
                                    (*found.notes, f"given decomposition (d = {decomposition.d}, c = "
                                                   f"{fraction_str(decomposition.c)}): {chk.reason}"))
        return found
    m = [[int(loss.numerators[i, j]) for j in cols] for i in rows]
    # det(M - x J) = det - x * slope in the scaled integers (x = c * denominator)
    slope = det - bareiss_det([[v - 1 for v in row] for row in m])
    minors: list[Any] = [(rows, cols, (det, slope))]
    if slope == 0:
        dec = base.decomposition
        lower, upper = r, r
        notes.append(f"det(M - cJ) = {det} for every c: no constant lowers the rank")
    else:
        c0 = Fraction(det, slope) / loss.denominator
        shifted = loss.shifted(c0)
        sub = certify_rank(shifted)
        notes.append(f"det(M - cJ) vanishes only at c0 = {fraction_str(c0)}; rank(L - c0 J) = "
                     f"{sub.lower if sub.certified else '?'}")
        if not sub.certified:
            return RankCertificate("affine dimension", r - 1, r, tuple(minors), base.decomposition, base.method,
                                   time.perf_counter() - t0, (*notes, "rank of L - c0 J not certified"))
        if sub.lower < r:
            assert sub.decomposition is not None
            sd = sub.decomposition
            dec = Decomposition(sd.alpha, sd.alpha_den, sd.beta, sd.beta_den, c0, sd.coords,
                                f"{sd.source}, plus c = {fraction_str(c0)}")
            lower = upper = sub.lower  # rank(L - cJ) >= r - 1 for every c (rank-one update)
            minors.append((sub.minors[0][0], sub.minors[0][1], ("at c0", sub.minors[0][2])))
            notes.append("lower bound: rank(L - cJ) >= rank(L) - 1 for every c, and a minor of L - c0 J of size "
                         f"{sub.lower}")
        else:
            dec = base.decomposition
            lower = upper = r
            minors.append((sub.minors[0][0], sub.minors[0][1], ("at c0", sub.minors[0][2])))
    if decomposition is not None:
        chk = decomposition.check(loss)
        notes.append(f"given decomposition (d = {decomposition.d}, c = {fraction_str(decomposition.c)}): "
                     f"{chk.reason}")
    return RankCertificate("affine dimension", lower, upper, tuple(minors), dec,
                           base.method + "; affine determinant in c", time.perf_counter() - t0, tuple(notes))


# --------------------------------------------------------------------------- python-flint engine
#
# With python-flint installed (pip install 'symcal[flint]') ranks are certified by the same kind
# of certificate, found by exact linear algebra instead of a floating guess and Python loops:
#
# * pivots: reduced row echelon form modulo a prime p < 2^62 (FLINT nmod_mat) picks columns C
#   and rows R with det L[R, C] != 0 mod p -- hence != 0 over the integers: the lower bound.
#   Minors up to EXACT_DET_MAX rows also get their exact determinant (FLINT fmpz_mat.det).
# * upper bound: rank L = min(n, k) needs none (the trivial decomposition L = I L is still
#   checked); otherwise Z = M^-1 L[R, F] is solved exactly (F: the other columns) and the
#   decomposition L = L[:, C] [I | Z] is checked in every entry, exactly.
# A prime for which the rank drops (p divides every r-minor) fails the check; the next one is
# tried.  2,000 x 2,000 random integer matrices take seconds (bench/research_sizes.py).

USE_FLINT: bool | None = None  # None: whenever python-flint is installed; False forces the fallback
EXACT_DET_MAX = 400  # exact determinants of minors up to this size (0.1 s at 300 with FLINT)


def _flint() -> Any:
    """The python-flint module when it is installed and enabled, else None."""
    if USE_FLINT is False:
        return None
    try:
        import flint
    except ImportError:
        return None
    return flint


def flint_available() -> bool:
    return _flint() is not None


_BIG_PRIMES: list[int] = []


def _big_primes(count: int) -> list[int]:
    """The ``count`` largest primes below 2^62 (machine words for FLINT's nmod_mat)."""
    import sympy

    while len(_BIG_PRIMES) < count:
        _BIG_PRIMES.append(int(sympy.prevprime(_BIG_PRIMES[-1] if _BIG_PRIMES else 2**62)))
    return _BIG_PRIMES[:count]


@dataclass(frozen=True)
class ModularDeterminant:
    """``det(M) = residue (mod modulus)`` with ``residue != 0``: an exact proof that the minor is
    non-singular (an integer that is not 0 modulo a prime is not 0), without its value -- which
    for a 2,000 x 2,000 minor has some 12,000 bits.  Re-check: reduce the minor modulo
    ``modulus`` and take its determinant."""

    residue: int
    modulus: int

    def __str__(self) -> str:
        return f"nonzero (= {self.residue} mod {self.modulus})"


def _short(q: Fraction) -> str:
    """An exact number as text, or -- beyond 60 characters -- its size and value to 6 digits."""
    text = fraction_str(q)
    if len(text) <= 60:
        return text
    try:
        approx = f"{q.numerator / q.denominator:.6g}"
    except OverflowError:
        approx = "beyond floating range"
    return f"~{approx} (exact: {q.numerator.bit_length()}-bit / {q.denominator.bit_length()}-bit fraction)"


def _nmod_mat(fl: Any, arr: np.ndarray, p: int) -> Any:
    red = np.mod(arr, p)
    if red.dtype == object:
        red = red.astype(np.int64)
    n, k = red.shape
    return fl.nmod_mat(int(n), int(k), red.ravel().tolist(), p)


def _fmpz_mat(fl: Any, arr: np.ndarray) -> Any:
    n, k = arr.shape
    return fl.fmpz_mat(int(n), int(k), [int(v) for v in np.asarray(arr).ravel().tolist()])


def _fmpz_to_array(mat: Any) -> np.ndarray:
    rows = [[int(v) for v in row] for row in mat.tolist()]
    return _as_int_array(rows) if rows and rows[0] else np.zeros((mat.nrows(), mat.ncols()), np.int64)


def _pivots(rref: Any, rank: int) -> list[int]:
    """Pivot columns of a matrix in reduced row echelon form."""
    out: list[int] = []
    c = 0
    for i in range(rank):
        while int(rref[i, c]) == 0:
            c += 1
        out.append(c)
        c += 1
    return out


def _solve(fl: Any, m: np.ndarray, rhs: np.ndarray) -> tuple[np.ndarray, int]:
    """``X = M^-1 rhs`` exactly, as integer numerators over one positive denominator."""
    q = _fmpz_mat(fl, m).solve(_fmpz_mat(fl, rhs))
    num, den = q.numer_denom()
    out, d = _fmpz_to_array(num), int(den)
    if d < 0:
        out, d = _as_int_array(-np.asarray(out, dtype=object)), -d
    return out, d


def _trivial_decomposition(loss: LossMatrix) -> Decomposition:
    """``L = I L`` (``n <= k``) or ``L = L I`` (``k < n``): ``d = min(n, k)``, the rank bound
    every matrix has; checked like any other decomposition (its unit rows directly)."""
    n, k = loss.shape
    num = loss.numerators
    if n <= k:
        return Decomposition(np.eye(n, dtype=np.int64), loss.denominator, np.ascontiguousarray(num.T), 1,
                             Fraction(0), tuple(f"1(y = {_label_text(y)})" for y in loss.labels),
                             "trivial: alpha = identity (one coordinate per label), beta = L^T")
    return Decomposition(num, loss.denominator, np.eye(k, dtype=np.int64), 1, Fraction(0),
                         tuple(f"l(y, {_label_text(t)})" for t in loss.predictions),
                         "trivial: alpha = L, beta = identity (one coordinate per prediction)")


def _pivot_decomposition(fl: Any, loss: LossMatrix, rows: list[int], cols: list[int]) -> Decomposition:
    """``L = L[:, C] [I | Z]`` with ``Z = M^-1 L[R, F]`` solved exactly (``M = L[R, C]``)."""
    num = loss.numerators
    k = loss.shape[1]
    in_c = set(cols)
    free = [j for j in range(k) if j not in in_c]
    zn, zden = _solve(fl, num[np.ix_(rows, cols)], num[np.ix_(rows, free)])
    r = len(cols)
    beta = np.zeros((k, r), dtype=object)
    beta[...] = 0
    beta[cols, list(range(r))] = zden
    if free:
        beta[free, :] = np.asarray(zn, dtype=object).T
    return Decomposition(np.ascontiguousarray(num[:, cols]), loss.denominator, _as_int_array(beta), zden,
                         Fraction(0), tuple(f"l(y, {_label_text(loss.predictions[j])})" for j in cols),
                         "generic: L = L[:,C] [I | M^-1 L[R,F]] on a non-singular minor M = L[R,C] "
                         "(python-flint exact solve)")


def _rank_flint(fl: Any, loss: LossMatrix) -> RankCertificate | None:
    t0 = time.perf_counter()
    num = loss.numerators
    n, k = loss.shape
    notes: list[str] = []
    for p in _big_primes(3):
        rref, r = _nmod_mat(fl, num, p).rref()
        r = int(r)
        if r == 0:
            zero = Decomposition(np.zeros((n, 0), np.int64), 1, np.zeros((k, 0), np.int64), 1, Fraction(0), (),
                                 "generic (zero matrix)")
            if zero.check(loss).holds:
                return RankCertificate("rank", 0, 0, (((), (), 1),), zero, "zero matrix",
                                       time.perf_counter() - t0, tuple(notes))
            notes.append(f"every entry is divisible by {p}; next prime")
            continue
        cols = _pivots(rref, r)
        if r == n:
            rows = list(range(n))
        else:
            rref2, r2 = _nmod_mat(fl, np.ascontiguousarray(num[:, cols].T), p).rref()
            rows = _pivots(rref2, int(r2))
        minor = num[np.ix_(rows, cols)]
        det: Any
        if r <= EXACT_DET_MAX:
            det = int(_fmpz_mat(fl, minor).det())
            how = "exact determinant"
        else:
            det = ModularDeterminant(int(_nmod_mat(fl, minor, p).det()), p)
            how = f"determinant nonzero modulo p = {p}"
        if det == 0 or (isinstance(det, ModularDeterminant) and det.residue == 0):  # pragma: no cover
            notes.append(f"the minor found modulo {p} is singular; next prime")
            continue
        dec = _trivial_decomposition(loss) if r == min(n, k) else _pivot_decomposition(fl, loss, rows, cols)
        if not dec.check(loss).holds:
            notes.append(f"the rank modulo {p} ({r}) is below the rank (p divides every {r + 1}-minor); next prime")
            continue
        method = (f"exact elimination modulo p = {p} (python-flint) picks a {r} x {r} minor, {how}; "
                  f"exact decomposition check ({dec.source.split(':')[0]})")
        return RankCertificate("rank", r, dec.d, ((tuple(rows), tuple(cols), det),), dec, method,
                               time.perf_counter() - t0, tuple(notes))
    return None


@dataclass
class _OnesSolve:
    """``x = M^-1 1`` and ``u = M^-T 1`` as integer numerators over a denominator (None when not
    solved) and ``s = 1^T M^-1 1`` when known."""

    x_num: Any = None
    x_den: Any = None
    u_num: Any = None
    u_den: Any = None
    s: Fraction | None = None

    def solve_x(self, fl: Any, m: np.ndarray) -> None:
        """Solve ``x = M^-1 1`` exactly and take ``s`` from it."""
        self.x_num, self.x_den = _solve(fl, m, np.ones((m.shape[0], 1), dtype=np.int64))
        self.s = Fraction(int(np.asarray(self.x_num, dtype=object).sum()), self.x_den)

    def solve_u(self, fl: Any, m: np.ndarray) -> None:
        """Solve ``u = M^-T 1`` exactly and take ``s`` from it."""
        self.u_num, self.u_den = _solve(fl, np.ascontiguousarray(m.T), np.ones((m.shape[0], 1), dtype=np.int64))
        self.s = Fraction(int(np.asarray(self.u_num, dtype=object).sum()), self.u_den)


def _affine_slope(fl: Any, m: np.ndarray, det: Any, sol: _OnesSolve) -> Any:
    """The slope of ``det(M - x J) = det(M) - x * slope`` in the scaled integers (``x = c *
    denominator``, ``slope = det(M) s``): an int, a :class:`ModularDeterminant`, or text when a
    prime divides it but ``s != 0`` is exact.  May solve ``x = M^-1 1`` into ``sol``."""
    s = sol.s
    slope: Any
    if s is not None and isinstance(det, int):
        slope = int(det * s)
    elif s is not None:
        slope = 0 if s == 0 else ModularDeterminant(int(det.residue * (s.numerator % det.modulus)
                                                         * pow(s.denominator, -1, det.modulus) % det.modulus),
                                                    det.modulus)
    else:  # a large invertible L (r = n = k): is det(M) != det(M - J), modulo a prime?
        slope = None
        for p in _big_primes(3):
            diff = (int(_nmod_mat(fl, m, p).det()) - int(_nmod_mat(fl, m - 1, p).det())) % p
            if diff:
                slope = ModularDeterminant(diff, p)
                break
        if slope is None:  # every prime divides det(M) - det(M - J): decide it exactly
            sol.solve_x(fl, m)
            slope = 0 if sol.s == 0 else ModularDeterminant(0, 0)
    if isinstance(slope, ModularDeterminant) and slope.residue == 0 and sol.s is not None and sol.s != 0:
        slope = f"det(M) * {_short(sol.s)}"  # p divides the slope; s != 0 is exact
    return slope


def _ones_products(loss: LossMatrix, rows: list[int], cols: list[int], r: int,
                   sol: _OnesSolve) -> Iterable[tuple[str, str, Sequence[Any], str, Any, int]]:
    """Whether 1 is in the column / row space of L: (space, what, names, product, its values, its
    denominator), the row space computed only when asked for."""
    num = loss.numerators
    n, k = loss.shape
    if sol.x_num is not None and r < n:
        yield ("column", "label", loss.labels, "L[a, C] M^-1 1",
               np.asarray(num[:, cols], dtype=object) @ np.asarray(sol.x_num, dtype=object).ravel(), sol.x_den)
    if sol.u_num is not None and r < k:
        yield ("row", "prediction", loss.predictions, "(M^-T 1)^T L[R, b]",
               np.asarray(sol.u_num, dtype=object).ravel() @ np.asarray(num[rows, :], dtype=object), sol.u_den)


def _ones_missing(loss: LossMatrix, rows: list[int], cols: list[int], r: int, sol: _OnesSolve,
                  c0_text: str) -> str | None:
    """Why no constant lowers the rank when 1 is missing from the column or row space of L, else None."""
    for space, what, names, product, got, den in _ones_products(loss, rows, cols, r, sol):
        bad = np.flatnonzero(got != den)
        if bad.size:
            a = int(bad[0])
            return (f"det(M - cJ) vanishes only at {c0_text}, but 1 is not in the {space} space of L "
                    f"({what} {_label_text(names[a])}: {product} = {_short(Fraction(int(got[a]), den))} "
                    f"!= 1), so rank(L - c0 J) >= {r} too")
    return None


def _affine_flint(fl: Any, loss: LossMatrix, base: RankCertificate) -> RankCertificate:
    """``min_c rank(L - cJ)`` from a certified rank ``r`` with minor ``M = L[R, C]``.

    ``L = Y M Z`` with ``Y = L[:, C] M^-1`` (identity on ``R``) and ``Z = M^-1 L[R, :]``
    (identity on ``C``).  ``rank(L - cJ) < r`` needs ``1_n`` in the column space of ``L`` --
    exactly when ``L[:, C] x = 1`` with ``x = M^-1 1`` (automatic when ``r = n``) -- and ``1_k``
    in its row space -- exactly when ``u^T L[R, :] = 1^T`` with ``u = M^-T 1`` (automatic when
    ``r = k``); then ``L - cJ = Y (M - cJ) Z`` has rank ``r - 1`` exactly at
    ``c0 = 1 / (1^T M^-1 1)`` (matrix determinant lemma; ``1^T M^-1 1 != 0`` is decided
    exactly, or by ``det M != det(M - J)`` modulo a prime), and ``rank(L - cJ) >= r - 1``
    for every ``c`` (a rank-one update).  Otherwise ``rank(L - cJ) >= r`` for every ``c``:
    ``M - cJ`` is non-singular for ``c != c0``, and at ``c0`` the missing ``1`` keeps the rank
    (``col(L) + span(1)`` has dimension ``r + 1``).  Each test is exact integer arithmetic."""
    t0 = time.perf_counter()
    n, k = loss.shape
    r = base.lower
    rows_, cols_, det = base.minors[0]
    rows, cols = list(rows_), list(cols_)
    notes = list(base.notes)
    m = loss.numerators[np.ix_(rows, cols)]
    sol = _OnesSolve()
    if r < n or r <= EXACT_DET_MAX:
        sol.solve_x(fl, m)
    if r < k:
        sol.solve_u(fl, m)
    slope = _affine_slope(fl, m, det, sol)
    minors: list[Any] = [(tuple(rows), tuple(cols), (det, slope))]
    method = base.method + "; affine: 1 in the column and row spaces, 1^T M^-1 1 (exact)"

    def rank_r(note: str) -> RankCertificate:
        """No constant lowers the rank: ``note`` says why."""
        notes.append(note)
        return RankCertificate("affine dimension", r, r, tuple(minors), base.decomposition, method,
                               time.perf_counter() - t0, tuple(notes))

    if slope == 0:
        return rank_r("det(M - cJ) = det(M) for every c (1^T M^-1 1 = 0): no constant lowers the rank")
    c0 = None if sol.s is None else 1 / (sol.s * loss.denominator)
    c0_text = "c0 = 1/(1^T L^-1 1)" if c0 is None else f"c0 = {_short(c0)}"
    missing = _ones_missing(loss, rows, cols, r, sol, c0_text)
    if missing is not None:
        return rank_r(missing)
    notes.append(f"1 is in the column and row spaces of L and det(M - cJ) vanishes at {c0_text}: "
                 f"rank(L - c0 J) = rank(M - c0 J) = {r - 1}; lower bound: rank(L - cJ) >= rank(L) - 1 for every c")
    dec = None
    if c0 is not None and sol.x_num is not None and sol.x_den is not None and (r - 1) * k <= 4_000_000:
        dec = _affine_decomposition(fl, loss, rows, cols, sol.x_num, sol.x_den, c0, base)
        chk = dec.check(loss)
        if not chk.holds:  # pragma: no cover - the algebra above says it holds
            raise AssertionError(f"affine decomposition failed its check: {chk.reason}")
    else:
        notes.append("no explicit decomposition of L - c0 J (its entries are too large to list); the upper "
                     "bound is the exact identity L - c0 J = L[:,C] M^-1 (M - c0 J) M^-1 L[R,:]")
    return RankCertificate("affine dimension", r - 1, r - 1, tuple(minors), dec, method,
                           time.perf_counter() - t0, tuple(notes))


def _affine_decomposition(fl: Any, loss: LossMatrix, rows: list[int], cols: list[int], x_num: np.ndarray,
                          x_den: int, c0: Fraction, base: RankCertificate) -> Decomposition:
    """``L = alpha beta^T + c0 J`` with ``d = r - 1``: ``L - c0 J = L[:, C] W`` (scaled) with
    ``W = Z - x0 x 1^T``, whose rows sum to 0; so ``alpha = L[:, C[1:]] - L[:, C[0]] 1^T`` and
    ``beta^T = W[1:, :]``."""
    num = loss.numerators
    k = loss.shape[1]
    r = len(cols)
    in_c = set(cols)
    free = [j for j in range(k) if j not in in_c]
    z = np.zeros((r, k), dtype=object)
    z[...] = 0
    if free:
        zn, zden = _solve(fl, num[np.ix_(rows, cols)], num[np.ix_(rows, free)])
        z[:, free] = np.asarray(zn, dtype=object)
    else:
        zden = 1
    z[list(range(r)), cols] = zden
    xs = np.asarray(x_num, dtype=object).ravel()
    big_s = int(xs.sum())  # 1^T M^-1 1 = big_s / x_den;  x0 = x_den / big_s
    # W = z / zden - (x_den / big_s) (xs / x_den) 1^T = (big_s z - zden xs 1^T) / (big_s zden)
    w = big_s * z - zden * xs[:, None]
    w_den = big_s * zden
    if w_den < 0:
        w, w_den = -w, -w_den
    first = np.asarray(num[:, cols[0]], dtype=object)
    alpha = _as_int_array(np.asarray(num[:, cols[1:]], dtype=object) - first[:, None])
    return Decomposition(alpha, loss.denominator, _as_int_array(np.ascontiguousarray(w[1:, :].T)), int(w_den), c0,
                         tuple(f"l(y, {_label_text(loss.predictions[j])}) - l(y, "
                               f"{_label_text(loss.predictions[cols[0]])})" for j in cols[1:]),
                         f"L - c0 J = L[:,C] (M^-1 L[R,:] - c0 M^-1 1 1^T) with rows summing to 0, c0 = "
                         f"{_short(c0)} (python-flint exact solves)")


# --------------------------------------------------------------------------- one-call analysis


@dataclass(frozen=True)
class LossAnalysis:
    """Everything Ramaswamy et al. (2013), Theorem 3 gives for a loss: the certified rank, the
    certified affine dimension ``d``, a checked decomposition ``l = alpha beta^T + c`` with that
    ``d``, the least-squares surrogate ``psi*(y, u) = sum_i (u_i - alpha_yi)^2`` and the pred map
    ``pred*(u) in argmin_t u^T beta_t``."""

    matrix: LossMatrix
    rank: RankCertificate
    affine: RankCertificate
    decomposition: Decomposition

    @property
    def surrogate_dimension(self) -> int:
        return self.decomposition.d

    def surrogate(self, label: Any, u: Sequence[Any]) -> Fraction:
        """``psi*(y, u) = sum_i (u_i - alpha_yi)^2`` (Theorem 3), exact."""
        a = self.decomposition.alpha_of(self.matrix.labels.index(label))
        uu = [to_fraction(x, f"u[{i}]") for i, x in enumerate(u)]
        if len(uu) != len(a):
            raise invalid("u", f"{len(uu)} coordinates", f"{len(a)} coordinates")
        return sum(((x - y) ** 2 for x, y in zip(uu, a, strict=True)), Fraction(0))

    def minimiser(self, p: Sequence[Any]) -> tuple[Fraction, ...]:
        """``u^p = sum_y p_y alpha_y``, the unique minimiser of ``p^T psi*(u)``."""
        probs = [to_fraction(x, f"p[{i}]") for i, x in enumerate(p)]
        if len(probs) != self.matrix.shape[0] or sum(probs) != 1 or any(x < 0 for x in probs):
            raise invalid("p", [fraction_str(x) for x in probs],
                          f"a distribution over the {self.matrix.shape[0]} labels")
        d = self.decomposition.d
        return tuple(sum((probs[a] * self.decomposition.alpha_of(a)[i] for a in range(len(probs)) if probs[a]),
                         Fraction(0)) for i in range(d))

    def pred(self, u: Sequence[Any]) -> Any:
        """``pred*(u)``: the first prediction in ``argmin_t u^T beta_t`` (exact)."""
        uu = [to_fraction(x, f"u[{i}]") for i, x in enumerate(u)]
        d = self.decomposition.d
        if len(uu) != d:
            raise invalid("u", f"{len(uu)} coordinates", f"{d} coordinates")
        vals = [sum((x * b for x, b in zip(uu, self.decomposition.beta_of(t), strict=True)), Fraction(0))
                for t in range(self.matrix.shape[1])]
        return self.matrix.predictions[min(range(len(vals)), key=lambda t: (vals[t], t))]

    def _repr_html_(self) -> str | None:
        return display.render("loss_analysis", "html", self)


def analyse(loss: Any, labels: Iterable[Any] | None = None, predictions: Iterable[Any] | None = None,
            *, name: str = "") -> LossAnalysis:
    """One call: a :class:`LossMatrix`, a matrix (list of rows), a JSON file path, or a Python
    function ``loss(label, prediction)`` with ``labels`` and ``predictions`` -> its certified
    rank, affine dimension, decomposition, surrogate and pred map (Theorem 3)."""
    if isinstance(loss, LossMatrix):
        mat = loss
    elif isinstance(loss, (str, Path)):
        mat = LossMatrix.from_file(loss)
    elif callable(loss):
        if labels is None or predictions is None:
            raise invalid("labels/predictions", None, "the label set and prediction set of the loss function")
        mat = LossMatrix.from_loss(loss, labels, predictions, name=name)
    else:
        mat = LossMatrix.from_rows(loss, labels=list(labels) if labels is not None else None,
                                   predictions=list(predictions) if predictions is not None else None, name=name)
    rank = mat.rank()
    affine = mat.affine_dimension(base=rank)
    dec = affine.decomposition if affine.certified and affine.decomposition is not None else rank.decomposition
    assert dec is not None
    return LossAnalysis(mat, rank, affine, dec)
