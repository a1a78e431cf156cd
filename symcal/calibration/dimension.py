"""Brackets on the convex calibration dimension of a loss matrix, each end with a certificate.

Ramaswamy & Agarwal, "Classification calibration dimension for general multiclass losses"
(NIPS 2012; journal version "Convex calibration dimension for multiclass loss matrices", JMLR
2016): ``CCdim(L)`` is the least ``d`` such that some convex surrogate ``psi : C -> R_+^n`` on a
convex set ``C ⊆ R^d`` is L-calibrated (Definition 1 of Ramaswamy, Agarwal & Tewari 2013).  It
depends on ``L`` only through the trigger sets ``Q_t = {p in Δ_n : p.l_t <= p.l_t' for all t'}``.

Lower bound (the feasible subspace dimension theorem)
    For ``p`` in the relative interior of ``Δ_n`` (every ``p_y > 0``) and ``t`` with ``p in Q_t``:
    ``CCdim(L) >= n - mu_{Q_t}(p) - 1``, where ``mu_C(p)`` is the dimension of the largest subspace
    ``V`` with ``p ± eps v in C`` for small ``eps`` (the lineality space of the cone of feasible
    directions).  At such ``p`` only the inequalities ``(l_t - l_t').p <= 0`` of the predictions
    ``t'`` tied with ``t`` are tight, so ``mu = n - rank[1; (l_t - l_t')^T for every tied t']`` and
    the bound is ``rank - 1``.  The certificate is ``(p, t)``; :func:`check_lower_certificate`
    re-checks it exactly (``p`` in the relative interior, ``p in Q_t``, the tied set, the rank).
    Points are searched exactly: the uniform distribution, then a depth-first search over sets
    of predictions required to tie (one z3 LRA query each, an exact rational model re-checked in
    Fractions); a set whose extra column is affinely dependent on the tied ones is skipped (it
    cannot tie: its difference is constant and non-zero on the face).  The search is capped in
    CPU seconds and queries; what it covered is in the evidence.  A point it missed can only make
    the lower end smaller, never wrong.  Besides, ``CCdim >= 1`` whenever no single prediction is
    optimal for every ``p`` (a 0-dimensional surrogate has a constant ``pred``: at the vertex
    ``e_y`` where that prediction is not optimal, calibration fails).

Upper bound (Theorem 3 of Ramaswamy, Agarwal & Tewari 2013, in its affine form)
    Let ``D`` be the ``(n-1) x (k-1)`` double-difference matrix
    ``D_yt = l_yt - l_yk - l_nt + l_nk``; ``rank D = rank(P_n L P_k)`` (``P`` the centring
    projections).  A certified factorisation ``D = alpha beta^T`` with ``d`` columns gives
    ``L = alpha beta^T + a 1^T + 1 b^T`` (``alpha_n = 0``, ``beta_k = 0``, ``a_y = l_yk``,
    ``b_t = l_nt - l_nk``).  The label-only term ``a`` changes no ``argmin_t p.l_t``, so
    calibration for ``L`` is calibration for ``alpha beta^T + 1 b^T`` (plus a constant, to be
    non-negative).  Theorem 3 applied to it with ``alpha' = [alpha, 1]``, ``beta' = [beta, b]``
    gives a calibrated least-squares surrogate on ``R^(d+1)`` whose minimiser ``u^p`` always has
    last coordinate ``sum_y p_y = 1``; restricted to the slice ``{u_(d+1) = 1}`` (a copy of
    ``R^d`` containing every minimiser, so infima over it are no smaller off the optimum and equal
    at it) it stays calibrated: ``psi(y, u) = |u - alpha_y|^2`` on ``R^d`` with
    ``pred(u) in argmin_t u.beta_t + b_t``.  Hence ``CCdim(L) <= rank D``.  ``rank D <= n - 1``
    (Ramaswamy & Agarwal's (n-1)-dimensional surrogate is the case ``alpha = identity``) and
    ``rank D <=`` Theorem 3's affine dimension ``min{d : L = A B^T + c 1 1^T}``, so this one number
    is the best of the three.  When some prediction ``t*`` is optimal for every ``p``
    (``l_t* <= l_t`` entrywise for every ``t``), a constant ``pred`` is calibrated and
    ``CCdim = 0``.

A named loss may also have a lower-dimensional candidate surrogate (:func:`known_surrogates`:
``|u - y|`` for the ordinal absolute loss, binary-encoded predictions for the abstain loss); the
calibration engine (:mod:`symcal.calibration`) decides it over the whole simplex, and only a
``proved`` verdict lowers the upper end.  ``confirm=True`` has the engine decide the rank-``D``
surrogate itself too (:func:`rank_surrogate`), a second proof of the upper end.

``exact`` is true only when the two ends meet.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from symcal.errors import invalid
from symcal.exact import fraction_str
from symcal.ranking._check import CheckResult

__all__ = ["CCDimension", "cc_dimension", "check_lower_certificate", "MULTICLASS_LOSSES", "multiclass_loss",
           "known_surrogates", "rank_surrogate", "REFERENCE"]

REFERENCE = ("Ramaswamy & Agarwal, 'Classification calibration dimension for general multiclass losses', NIPS 2012; "
             "'Convex calibration dimension for multiclass loss matrices', JMLR 2016")

# Multiclass losses by name (``symcal loss NAME --n N``): name -> (what, default size, size word)
MULTICLASS_LOSSES: dict[str, tuple[str, int, str]] = {
    "zero-one": ("the n-class 0-1 loss 1(y != t)", 3, "classes"),
    "top-k": ("1(y not in T) over the k-subsets T of the n classes", 3, "classes"),
    "abstain": ("the abstain(1/2) loss: 0 if t = y, 1/2 if t = abstain, else 1 (n classes, n + 1 predictions)", 3,
                "classes"),
    "ordinal-abs": ("the ordinal absolute loss |y - t| on 1..n", 3, "classes"),
    "ordinal-sq": ("the ordinal squared loss (y - t)^2 on 1..n", 3, "classes"),
    "hamming": ("the Hamming loss sum_i 1(y_i != t_i) on {0,1}^m (n = 2^m labels)", 2, "tags"),
    "subset-zero-one": ("the subset 0-1 loss 1(y != t) on {0,1}^m (n = 2^m labels)", 2, "tags"),
}
_MAX_CLASSES = 64
QUERY_SECONDS = 20.0  # CPU seconds for one z3 query of the lower-bound search (a share of the budget)
_MAX_TAGS = 6


def _check_size(name: str, n: Any, at_most: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= at_most:
        word = MULTICLASS_LOSSES[name][2]
        raise invalid("n", n, f"an integer number of {word} 2 <= n <= {at_most} for {name}")
    return n


def multiclass_loss(name: str, n: int | None = None, *, k: int | None = None) -> Any:
    """The loss matrix of a classical multiclass loss by name (see :data:`MULTICLASS_LOSSES`):
    ``n`` classes (``hamming``/``subset-zero-one``: ``n`` tags, ``2^n`` labels); ``k``: the
    set size of ``top-k`` (default 2, ``1 <= k < n``).  Entries are exact."""
    from symcal.ranking.loss_matrix import LossMatrix

    if not isinstance(name, str) or name not in MULTICLASS_LOSSES:
        raise invalid("loss", name, "one of " + ", ".join(MULTICLASS_LOSSES))
    if n is None:
        n = MULTICLASS_LOSSES[name][1]
    if k is not None and name != "top-k":
        raise invalid("k", k, "no set size: --k is for top-k only")
    if name in ("hamming", "subset-zero-one"):
        m = _check_size(name, n, _MAX_TAGS)
        ys = list(itertools.product((0, 1), repeat=m))
        if name == "hamming":
            return LossMatrix.from_loss(lambda y, t: sum(a != b for a, b in zip(y, t, strict=True)), ys, ys,
                                        name=f"Hamming, m = {m}")
        return LossMatrix.from_loss(lambda y, t: int(y != t), ys, ys, name=f"subset 0-1, m = {m}")
    n = _check_size(name, n, _MAX_CLASSES)
    classes = list(range(1, n + 1))
    if name == "zero-one":
        return LossMatrix.from_loss(lambda y, t: int(y != t), classes, classes, name=f"0-1, n = {n}")
    if name == "top-k":
        kk = 2 if k is None else k
        if isinstance(kk, bool) or not isinstance(kk, int) or not 1 <= kk < n:
            raise invalid("k", kk, f"an integer set size 1 <= k < n = {n}")
        if math.comb(n, kk) > 5000:
            raise invalid("k", kk, f"at most 5,000 subsets (C({n}, {kk}) = {math.comb(n, kk):,})")
        sets = [tuple(s) for s in itertools.combinations(classes, kk)]
        return LossMatrix.from_loss(lambda y, t: int(y not in t), classes, sets, name=f"top-{kk}, n = {n}")
    if name == "abstain":
        preds: list[Any] = [*classes, "abstain"]
        return LossMatrix.from_loss(lambda y, t: Fraction(1, 2) if t == "abstain" else int(y != t), classes, preds,
                                    name=f"abstain(1/2), n = {n}")
    if name == "ordinal-abs":
        return LossMatrix.from_loss(lambda y, t: abs(y - t), classes, classes, name=f"ordinal absolute, n = {n}")
    return LossMatrix.from_loss(lambda y, t: (y - t) ** 2, classes, classes, name=f"ordinal squared, n = {n}")


def known_surrogates(name: str, n: int | None = None) -> list[dict[str, Any]]:
    """Low-dimensional convex surrogates worth trying for a named loss, each to be *decided* by the
    calibration engine (:func:`symcal.calibration.check_calibration`) before it bounds anything:
    ``ordinal-abs``: ``psi(y, u) = |u - y|`` on ``R`` with ``pred(u)`` the nearest class (cells
    ``[t - 1/2, t + 1/2]``), a 1-dimensional candidate; ``abstain``: the binary-encoded-predictions
    surrogate of Ramaswamy, Tewari & Agarwal (abstain option; ``d = ceil(log2 n)``):
    ``psi(y, u) = max(0, 1 + B_1(y) u_1, ..., 1 + B_d(y) u_d)`` with ``B(y)`` the first ``n`` sign
    vectors, ``pred(u) = abstain`` when some ``|u_j| <= 1/2``, else the class coded ``-sign(u)``
    (an unused code: abstain).  Its abstain cell is a union of ``d`` slabs, so the candidate gives
    the engine one region per slab and per code, with ``columns`` naming the loss column each region
    predicts (a loss with repeated columns has the same calibrated surrogates, the repeats merged)."""
    if name == "abstain":
        return _bep_candidate(MULTICLASS_LOSSES[name][1] if n is None else _check_size(name, n, _MAX_CLASSES))
    if name != "ordinal-abs":
        return []
    n = MULTICLASS_LOSSES[name][1] if n is None else _check_size(name, n, _MAX_CLASSES)
    regions = [[*([f"u1 >= {2 * t - 1}/2"] if t > 1 else []), *([f"u1 <= {2 * t + 1}/2"] if t < n else [])]
               for t in range(1, n + 1)]
    return [{"name": "|u - y| with the nearest class", "dim": 1,
             "surrogate": {"dim": 1, "per_label": [f"Abs(u1 - {y})" for y in range(1, n + 1)]},
             "link": {"regions": regions}}]


def _bep_candidate(n: int) -> list[dict[str, Any]]:
    d = max(1, math.ceil(math.log2(n)))
    if d >= n - 1 or n > 16:
        return []
    codes = list(itertools.product((1, -1), repeat=d))
    per_label = [f"Max(0, {', '.join(('1 + ' if codes[y][j] == 1 else '1 - ') + f'u{j + 1}' for j in range(d))})"
                 for y in range(n)]
    regions = [[f"{'-' if c[j] == 1 else ''}u{j + 1} >= 1/2" for j in range(d)] for c in codes]
    columns = [y if y < n else n for y in range(len(codes))]
    regions += [[f"u{j + 1} <= 1/2", f"u{j + 1} >= -1/2"] for j in range(d)]
    columns += [n] * d
    return [{"name": f"binary-encoded predictions (d = ceil(log2 {n}), threshold 1/2)", "dim": d,
             "surrogate": {"dim": d, "per_label": per_label}, "link": {"regions": regions}, "columns": columns}]


# --------------------------------------------------------------------------- exact helpers


def _rank(rows: Sequence[Sequence[Fraction | int]]) -> int:
    """Exact rank of a matrix of rationals (Gaussian elimination in Fractions)."""
    a = [[Fraction(x) for x in row] for row in rows]
    if not a:
        return 0
    width = len(a[0])
    r = 0
    for col in range(width):
        piv = next((i for i in range(r, len(a)) if a[i][col] != 0), None)
        if piv is None:
            continue
        a[r], a[piv] = a[piv], a[r]
        inv = 1 / a[r][col]
        for i in range(r + 1, len(a)):
            if a[i][col] != 0:
                f = a[i][col] * inv
                a[i] = [x - f * y for x, y in zip(a[i], a[r], strict=True)]
        r += 1
        if r == len(a):
            break
    return r


def _label(x: Any) -> Any:
    if isinstance(x, tuple):
        return "(" + ",".join(str(v) for v in x) + ")"
    return x if isinstance(x, (int, str)) else str(x)


def _as_matrix(loss: Any) -> Any:
    from symcal.ranking.loss_matrix import LossMatrix

    if isinstance(loss, LossMatrix):
        return loss
    if isinstance(loss, (str, Path)):
        if isinstance(loss, str) and loss in MULTICLASS_LOSSES:
            return multiclass_loss(loss)
        return LossMatrix.from_file(loss)
    if isinstance(loss, dict):
        unknown = set(loss) - {"name", "n", "k"}
        if "name" not in loss or unknown:
            raise invalid("loss", loss, "a dict {\"name\": one of " + ", ".join(MULTICLASS_LOSSES)
                          + ", \"n\": size[, \"k\": set size]}")
        return multiclass_loss(loss["name"], loss.get("n"), k=loss.get("k"))
    matrix = getattr(loss, "matrix", None)  # a NamedLoss or LossAnalysis
    if isinstance(matrix, LossMatrix):
        return matrix
    return LossMatrix.from_rows(loss)


# --------------------------------------------------------------------------- the certificate check


def _tied(num: Any, p: Sequence[Fraction], k: int) -> tuple[list[Fraction], Fraction]:
    n = len(p)
    values = [sum((p[y] * int(num[y, t]) for y in range(n)), Fraction(0)) for t in range(k)]
    return values, min(values)


def _tight_rank(num: Any, t: int, tied: Sequence[int]) -> int:
    n = num.shape[0]
    rows: list[list[Fraction | int]] = [[1] * n]
    rows += [[int(num[y, t]) - int(num[y, s]) for y in range(n)] for s in tied if s != t]
    return _rank(rows)


def check_lower_certificate(loss: Any, p: Sequence[Any], t: Any, bound: int | None = None) -> CheckResult:
    """Re-check a lower-bound certificate exactly (Fractions only, no solver): ``p`` is a
    distribution with every ``p_y > 0`` (the relative interior of the simplex), prediction ``t``
    (a name, or a 0-based column index) is optimal at ``p`` (``p in Q_t``), and
    ``n - mu_{Q_t}(p) - 1 = rank[1; (l_t - l_t')^T, t' tied with t] - 1`` is at least ``bound``
    (when given).  ``witness`` holds the tied set, the rank and the bound it proves."""
    from symcal.exact import to_fraction

    mat = _as_matrix(loss)
    n, k = mat.shape
    if isinstance(p, (str, bytes)) or not isinstance(p, Sequence):
        raise invalid("p", p, f"a sequence of {n} exact probabilities")
    probs = [to_fraction(x, f"p[{i}]") for i, x in enumerate(p)]
    if len(probs) != n:
        raise invalid("p", f"{len(probs)} probabilities", f"one per label ({n})")
    names = [_label(x) for x in mat.predictions]
    if isinstance(t, bool):
        raise invalid("t", t, "a prediction of the loss (its name, or a 0-based column index), not a bool")
    if t in names:
        col = names.index(t)
    elif t in mat.predictions:
        col = mat.predictions.index(t)
    elif isinstance(t, int) and not isinstance(t, bool) and 0 <= t < k:
        col = t
    else:
        raise invalid("t", t, "a prediction of the loss (its name, or a 0-based column index)")
    shown = [fraction_str(x) for x in probs]
    if sum(probs) != 1:
        return CheckResult(False, f"p is not a distribution: its entries sum to {fraction_str(sum(probs))}",
                           {"p": shown})
    zero = [_label(mat.labels[y]) for y in range(n) if probs[y] <= 0]
    if zero:
        return CheckResult(False, f"p is not in the relative interior of the simplex: p_y <= 0 at {zero}",
                           {"p": shown}, tuple(zero))
    values, best = _tied(mat.numerators, probs, k)
    if values[col] != best:
        better = next(s for s in range(k) if values[s] == best)
        return CheckResult(False, f"p is not in Q_{names[col]}: p.l_{names[better]} = "
                           f"{fraction_str(best / mat.denominator)} < p.l_{names[col]} = "
                           f"{fraction_str(values[col] / mat.denominator)}", {"p": shown}, (names[better],))
    tied = [s for s in range(k) if values[s] == best]
    rank = _tight_rank(mat.numerators, col, tied)
    got = rank - 1
    witness = {"p": shown, "t": names[col], "tied": [names[s] for s in tied], "rank": rank, "mu": n - rank,
               "bound": got}
    if bound is not None and got < bound:
        return CheckResult(False, f"the certificate proves CCdim >= {got}, not >= {bound} (rank {rank})", witness)
    return CheckResult(True, f"p in relint(simplex), p in Q_{names[col]}, {len(tied)} predictions tied, rank {rank}: "
                       f"CCdim >= n - mu - 1 = {got}", witness)


# --------------------------------------------------------------------------- the bracket


@dataclass(frozen=True)
class CCDimension:
    """``lower <= CCdim(L) <= upper`` with the evidence for each end (see the module docstring);
    ``exact`` when they meet."""

    loss: str
    labels: int
    predictions: int
    lower: int
    upper: int
    evidence: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    def to_json(self) -> dict[str, Any]:
        """``{"lower", "upper", "exact", "evidence"}`` (exact numbers as strings)."""
        return {"lower": self.lower, "upper": self.upper, "exact": self.exact, "evidence": self.evidence}

    def summary(self) -> str:
        if self.exact:
            return f"CCdim = {self.lower} (exact)"
        return f"{self.lower} <= CCdim <= {self.upper}"


def _affine_form(mat: Any, dec: Any) -> dict[str, Any]:
    """The surrogate of the upper end from a factorisation ``D = alpha beta^T`` of the double
    differences: ``psi(y, u) = |u - alpha_y / den|^2``, ``pred(u) in argmin_t u.beta_t + b_t``, and
    an exact check of ``L = alpha beta^T / den + a 1^T + 1 b^T`` in every entry (when small)."""
    num, den = mat.numerators, mat.denominator
    n, k = mat.shape
    d = dec.d
    alpha = [[x / den for x in dec.alpha_of(y)] for y in range(n - 1)] + [[Fraction(0)] * d]
    beta = [list(dec.beta_of(t)) for t in range(k - 1)] + [[Fraction(0)] * d]
    a = [Fraction(int(num[y, k - 1]), den) for y in range(n)]
    b = [Fraction(int(num[n - 1, t]) - int(num[n - 1, k - 1]), den) for t in range(k)]
    if n * k * max(d, 1) <= 2_000_000:
        bad = next(((y, t) for y in range(n) for t in range(k)
                    if sum((x * z for x, z in zip(alpha[y], beta[t], strict=True)), Fraction(0)) + a[y] + b[t]
                    != Fraction(int(num[y, t]), den)), None)
        if bad is not None:  # pragma: no cover - certify_rank checked D = alpha beta^T
            raise AssertionError(f"L != alpha beta^T + a 1^T + 1 b^T at entry {bad}")
        check = f"L = alpha beta^T + a 1^T + 1 b^T holds in all {n * k} entries (exact)"
    else:
        check = "not re-checked entry by entry (large); D = alpha beta^T is checked by the rank certificate"
    return {"check": check, "d": d,
            "alpha": [[fraction_str(x) for x in row] for row in alpha],
            "beta": [[fraction_str(x) for x in row] for row in beta], "b": [fraction_str(x) for x in b]}


def rank_surrogate(loss: Any) -> tuple[int, dict[str, Any], dict[str, Any]] | None:
    """The upper end's least-squares surrogate as the calibration engine reads it:
    ``(d, {"dim", "per_label"}, {"linear": beta, "offset": b})``, or None when ``d = 0`` or ``D``
    has no checked factorisation."""
    from symcal.ranking.loss_matrix import LossMatrix, certify_rank

    mat = _as_matrix(loss)
    num = mat.numerators
    n, k = mat.shape
    if n < 2 or k < 2:
        return None
    d_rows = [[int(num[y, t]) - int(num[y, k - 1]) - int(num[n - 1, t]) + int(num[n - 1, k - 1])
               for t in range(k - 1)] for y in range(n - 1)]
    if all(v == 0 for row in d_rows for v in row):
        return None
    cert = certify_rank(LossMatrix(d_rows, 1, [f"y{y + 1}" for y in range(n - 1)],
                                   [f"t{t + 1}" for t in range(k - 1)]))
    dec = cert.decomposition
    if dec is None or dec.c != 0:
        return None
    form = _affine_form(mat, dec)
    d = form["d"]
    per_label = [" + ".join(f"(u{i + 1} - ({x}))**2" for i, x in enumerate(row)) for row in form["alpha"]]
    return d, {"dim": d, "per_label": per_label}, {"linear": form["beta"], "offset": form["b"]}


def _upper(mat: Any) -> tuple[int, dict[str, Any]]:
    """``rank D`` certified (see the module docstring), or the constant-surrogate 0."""
    from symcal.ranking.loss_matrix import LossMatrix, certify_rank

    num = mat.numerators
    n, k = mat.shape
    names = [_label(x) for x in mat.predictions]
    dominant = next((t for t in range(k) if all(int(num[y, t]) <= int(num[y, s]) for s in range(k)
                                                for y in range(n))), None)
    if dominant is not None:
        return 0, {"value": 0, "by": "a constant surrogate",
                   "why": f"prediction {names[dominant]} has l_t <= l_t' entrywise for every t', so it is optimal "
                          "for every p: pred = that prediction on C = R^0 is calibrated (d = 0)"}
    if n == 1 or k == 1:  # pragma: no cover - one label or one prediction always has a dominant column
        return 0, {"value": 0, "by": "trivial"}
    d_rows = [[int(num[y, t]) - int(num[y, k - 1]) - int(num[n - 1, t]) + int(num[n - 1, k - 1])
               for t in range(k - 1)] for y in range(n - 1)]
    if all(v == 0 for row in d_rows for v in row):
        value, cert_text = 0, {"rank": 0, "certified": True}
    else:
        dm = LossMatrix(d_rows, 1, [f"y{y + 1}" for y in range(n - 1)], [f"t{t + 1}" for t in range(k - 1)],
                        name="double differences")
        cert = certify_rank(dm)
        value = min(cert.upper, n - 1)
        cert_text = {"rank": cert.value, "certified": cert.certified, "upper_by_checked_decomposition": cert.upper,
                     "minor_size": len(cert.minors[0][0]) if cert.minors else 0, "method": cert.method}
        dec = cert.decomposition
        if dec is not None and dec.c == 0 and dec.d == value:
            form = _affine_form(mat, dec)
            cert_text["surrogate_check"] = form.pop("check")
            if n * k <= 400:
                cert_text["surrogate"] = form
    why = ("L = alpha beta^T + a 1^T + 1 b^T with d = rank D columns (D_yt = l_yt - l_yk - l_nt + l_nk, its rank "
           "certified by an exact minor and a checked decomposition); Theorem 3 of Ramaswamy, Agarwal & Tewari "
           "(2013) with alpha' = [alpha, 1], beta' = [beta, b], restricted to the slice u_(d+1) = 1 that holds "
           "every minimiser, gives the calibrated psi(y, u) = |u - alpha_y|^2 on R^d with pred(u) in "
           "argmin_t u.beta_t + b_t (the label-only a_y changes no argmin)")
    return value, {"value": value, "by": f"rank of the double-difference matrix D ({n - 1} x {k - 1})",
                   "why": why, "rank_certificate": cert_text,
                   "at_most": f"n - 1 = {n - 1} (Ramaswamy & Agarwal 2012) and Theorem 3's affine dimension "
                              "min{d : L = A B^T + c 1 1^T}; rank D is at most both"}


def _uncovered_columns(mat: Any, cols: Sequence[int]) -> list[int]:
    """The columns ``t`` of ``L`` equal to no predicted column ``l_c`` (``c`` in ``cols``).  Merging
    repeated columns keeps the calibrated surrogates only when every column of ``L`` is, as a vector,
    one of the predicted ones: then ``min_c p.l_c = min_t p.l_t`` for every ``p`` and a region's column
    is optimal for ``L[:, cols]`` iff it is optimal for ``L``.  A column left out changes the minimum
    (a surrogate that always predicts one column is calibrated for ``L[:, [c]]``, never for ``L``)."""
    num = mat.numerators
    n, k = mat.shape
    shown = {tuple(int(num[y, c]) for y in range(n)) for c in set(cols)}
    return [t for t in range(k) if tuple(int(num[y, t]) for y in range(n)) not in shown]


def _engine_upper(mat: Any, upper: int, up_ev: dict[str, Any], surrogates: Sequence[dict[str, Any]], budget: Any,
                  notes: list[str]) -> tuple[int, dict[str, Any]]:
    """Lower the upper end by a candidate surrogate the calibration engine *proves* calibrated."""
    from symcal.calibration import check_calibration

    tried = []
    names_ = [_label(x) for x in mat.predictions]
    for cand in surrogates:
        if not isinstance(cand, dict) or not {"name", "dim", "surrogate", "link"} <= set(cand) \
                or not set(cand) <= {"name", "dim", "surrogate", "link", "columns"}:
            raise invalid("surrogates", cand, "dicts with the keys name, dim, surrogate, link (and columns)")
        dim = cand["dim"]
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 0:
            raise invalid("surrogates.dim", dim, "an integer dimension >= 0")
        if dim >= upper:
            continue
        left = budget.left()
        if left < 1:
            notes.append(f"no CPU time left to decide the candidate surrogate {cand['name']}")
            break
        own = cand["surrogate"].get("dim") if isinstance(cand["surrogate"], dict) else getattr(cand["surrogate"],
                                                                                               "dim", None)
        if own != dim:
            raise invalid("surrogates.dim", dim, f"the surrogate's own dimension ({own})")
        target = mat
        if "columns" in cand:  # regions predicting repeated columns: the same calibration, the repeats merged
            from symcal.ranking.loss_matrix import LossMatrix

            cols = cand["columns"]
            if not isinstance(cols, list) or not cols or any(isinstance(c, bool) or not isinstance(c, int)
                                                             or not 0 <= c < mat.shape[1] for c in cols):
                raise invalid("surrogates.columns", cols, f"a list of column indices 0..{mat.shape[1] - 1}")
            missing = _uncovered_columns(mat, cols)
            if missing:  # the engine would decide calibration for another loss (fewer columns, other trigger sets)
                raise invalid("surrogates.columns", cols, "every column of L predicted by some region (or equal to "
                              "a predicted column); missing: " + ", ".join(str(names_[t]) for t in missing[:10])
                              + (" ..." if len(missing) > 10 else ""))
            target = LossMatrix(mat.numerators[:, cols], mat.denominator, mat.labels,
                                [f"{_label(mat.predictions[c])}#{i}" for i, c in enumerate(cols)], name=mat.name)
        # the engine decides in a child process: the budget (a FamilyBudget) counts that child's CPU seconds
        v = check_calibration(target, cand["surrogate"], cand["link"], timeout=min(left, 120.0))
        tried.append({"name": cand["name"], "dim": dim, "status": v.status.value, "reason": v.reason or ""})
        if v.status.value == "proved":
            cross = v.cross_check
            upper = dim
            up_ev = {"value": dim, "by": f"a {dim}-dimensional surrogate proved calibrated: {cand['name']}",
                     "why": "decided over the whole simplex by the calibration engine (symcal.calibration, "
                            f"{v.backend}); {v.scope}",
                     "cross_check": None if cross is None else
                     f"{cross.solver}: {cross.agreed} of {cross.answers} answers agreed",
                     "surrogate": cand["surrogate"], "link": cand["link"], "before": up_ev}
            if "columns" in cand:
                up_ev["columns"] = [names_[c] for c in cand["columns"]]
                up_ev["why"] += ("; region i predicts column columns[i] (repeated columns of L change no calibration: "
                                 "pred(u) is optimal for L' iff its merged prediction is optimal for L)")
    if tried:
        up_ev = {**up_ev, "candidates_tried": tried}
    return upper, up_ev


class _Search:
    """Exact search for relative-interior points with many tied optimal predictions."""

    def __init__(self, mat: Any, target: int, budget: Any, max_queries: int) -> None:
        self.mat = mat
        self.num = mat.numerators
        self.n, self.k = mat.shape
        self.target = target
        self.budget = budget
        self.max_queries = max_queries
        self.queries = 0
        self.unknown = 0
        self.infeasible = 0
        self.skipped = 0
        self.points = 0
        self.best: tuple[int, list[Fraction], int, list[int]] | None = None
        self.cut: str | None = None
        self.seen: set[frozenset[int]] = set()
        self.asked: set[frozenset[int]] = set()
        self._z3: Any = None

    def _col(self, t: int) -> list[int]:
        return [int(self.num[y, t]) for y in range(self.n)]

    def consider(self, p: list[Fraction]) -> frozenset[int] | None:
        """Record the point ``p`` (relint, exact): its tied optimal set and the bound it proves."""
        values, best = _tied(self.num, p, self.k)
        tied = [s for s in range(self.k) if values[s] == best]
        key = frozenset(tied)
        self.points += 1
        rank = _tight_rank(self.num, tied[0], tied)
        if self.best is None or rank - 1 > self.best[0]:
            self.best = (rank - 1, p, tied[0], tied)
        if key in self.seen:
            return None
        self.seen.add(key)
        return key

    def _stop(self) -> bool:
        if self.best is not None and self.best[0] >= self.target:
            return True
        if self.budget.expired():
            self.cut = f"CPU budget of {self.budget.seconds:g} s spent"
            return True
        if self.queries >= self.max_queries:
            self.cut = f"query cap of {self.max_queries} reached"
            return True
        return False

    def query(self, required: frozenset[int]) -> list[Fraction] | None:
        """A point ``p`` with every ``p_y > 0`` at which every prediction in ``required`` is
        optimal (z3, linear real arithmetic, exact rational model), or None."""
        import z3

        from symcal.backends.z3_backend import cpu_watchdog

        if self._z3 is None:
            self._z3 = [z3.Real(f"p{y}") for y in range(self.n)]
        q = self._z3
        self.queries += 1
        a0 = min(required)
        base = self._col(a0)
        sub = self.budget.share(QUERY_SECONDS, floor=1.0)
        s = z3.Solver()
        s.set("timeout", sub.wall_ms())
        s.add(*[x > 0 for x in q], z3.Sum(q) == 1)
        for t in range(self.k):
            if t == a0:
                continue
            col = self._col(t)
            expr = z3.Sum([(c - b) * x for c, b, x in zip(col, base, q, strict=True) if c != b]) \
                if any(c != b for c, b in zip(col, base, strict=True)) else z3.RealVal(0)
            s.add(expr == 0 if t in required else expr >= 0)
        with cpu_watchdog(sub, s.ctx):
            res = s.check()
        if res == z3.unsat:
            self.infeasible += 1
            return None
        if res != z3.sat:
            self.unknown += 1
            return None
        m = s.model()
        p = []
        for x in q:
            v = m.eval(x, model_completion=True)
            if not z3.is_rational_value(v):  # pragma: no cover - LRA models are rational
                self.unknown += 1
                return None
            p.append(Fraction(v.as_fraction()))
        if any(x <= 0 for x in p) or sum(p) != 1:  # pragma: no cover - the model satisfies the query
            self.unknown += 1
            return None
        return p

    def children(self, key: frozenset[int]) -> list[frozenset[int]]:
        """Predictions that may join the tie: their difference to the tied ones is not in the
        span of ``1`` and the tied differences (else it is constant, and non-zero, on the face)."""
        tied = sorted(key)
        a0 = tied[0]
        base = [[1] * self.n] + [[int(self.num[y, a0]) - int(self.num[y, s]) for y in range(self.n)]
                                 for s in tied[1:]]
        r0 = _rank(base)
        out = []
        for t in range(self.k):
            if t in key:
                continue
            row = [int(self.num[y, a0]) - int(self.num[y, t]) for y in range(self.n)]
            if _rank([*base, row]) == r0:
                self.skipped += 1
                continue
            out.append(key | {t})
        return out

    def run(self) -> None:
        uniform = [Fraction(1, self.n)] * self.n
        stack: list[frozenset[int]] = [frozenset({t}) for t in reversed(range(self.k))]
        key = self.consider(uniform)
        if key is not None:
            stack.extend(reversed(self.children(key)))
        while stack:
            if self._stop():
                return
            req = stack.pop()
            if req in self.asked or req in self.seen:
                continue
            self.asked.add(req)
            p = self.query(req)
            if p is None:
                continue
            key = self.consider(p)
            if key is not None:
                stack.extend(reversed(self.children(key)))
        self._stop()


def cc_dimension(matrix_or_loss: Any, *, cpu_seconds: float = 30.0, max_queries: int = 5000,
                 surrogates: Sequence[dict[str, Any]] | None = None, confirm: bool = False) -> CCDimension:
    """Bracket ``CCdim(L)`` (Ramaswamy & Agarwal 2012/2016) with certificates.

    ``matrix_or_loss``: a :class:`~symcal.ranking.loss_matrix.LossMatrix`, a list of rows of exact
    numbers, a JSON file path, a multiclass loss name (:data:`MULTICLASS_LOSSES`) or
    ``{"name": ..., "n": ..., "k": ...}``, or an object with a ``.matrix`` (a named ranking loss).
    The upper end is certified first (module docstring); then the lower end's search for a
    relative-interior point runs for at most ``cpu_seconds`` CPU seconds (of this process and of the
    calibration engine's child processes, which confirming a surrogate spends first) and
    ``max_queries`` z3 queries, each at most ``QUERY_SECONDS`` of them; when cut short, the evidence
    says so and the lower end is the best certificate found (still a valid bound).  The lower
    certificate is re-checked by :func:`check_lower_certificate` before it is reported.

    ``surrogates``: candidate surrogates (dicts with ``name, dim, surrogate, link`` and optionally
    ``columns``, the loss column each link region predicts; :func:`known_surrogates` gives the
    built-in ones); only a ``proved`` verdict of the calibration engine lowers the upper end, and
    ``columns`` must name every column of ``L`` (or one equal to it), else the engine would decide
    calibration for a different loss (:class:`~symcal.errors.InvalidInput`)."""
    from symcal.backends.base import FamilyBudget

    _check_options(cpu_seconds, max_queries, surrogates, confirm)
    t0 = time.perf_counter()
    mat = _as_matrix(matrix_or_loss)
    n, k = mat.shape
    budget = FamilyBudget(float(cpu_seconds))
    upper, up_ev = _upper(mat)
    notes: list[str] = []
    if any(int(v) < 0 for v in mat.numerators.flat):
        notes.append("L has negative entries: read as L + c J for a constant c making it non-negative (the same "
                     "trigger sets, so the same calibrated surrogates and the same CCdim)")
    if surrogates is None:
        surrogates = _default_surrogates(matrix_or_loss)
    if confirm and upper > 0:
        _confirm_rank_surrogate(mat, upper, up_ev, budget)
    upper, up_ev = _engine_upper(mat, upper, up_ev, surrogates or (), budget, notes)
    if upper == 0:
        evidence = {"lower": {"value": 0, "by": "CCdim >= 0"}, "upper": up_ev, "reference": REFERENCE, "notes": notes}
        return CCDimension(mat.name, n, k, 0, 0, evidence, time.perf_counter() - t0)
    search = _Search(mat, upper, budget, max_queries)
    search.run()
    lower, lower_ev = _lower_end(mat, search)
    if lower > upper:  # pragma: no cover - two theorems cannot disagree; a bug if they seem to
        raise AssertionError(f"lower end {lower} above upper end {upper} for {mat.name}")
    evidence = {"lower": lower_ev, "upper": up_ev, "search": _search_evidence(search, upper),
                "reference": REFERENCE, "notes": notes}
    if search.cut:
        notes.append("the lower-bound search was cut short: a larger lower end may exist; the bracket is valid")
    if search.unknown:
        notes.append(f"{search.unknown} solver queries were undecided (treated as 'no point found')")
    best = search.best
    finished = search.cut is None and (best is None or best[0] < upper)
    if finished and lower < upper:
        notes.append("the search finished without meeting the upper end: the feasible-subspace bound at the points "
                     "found gives no more; the true value is unproven in between")
    return CCDimension(mat.name, n, k, lower, upper, evidence, time.perf_counter() - t0)


def _check_options(cpu_seconds: Any, max_queries: Any, surrogates: Any, confirm: Any) -> None:
    """Refuse a bad option of :func:`cc_dimension` with one line naming it."""
    if isinstance(cpu_seconds, bool) or not isinstance(cpu_seconds, int | float) or not 0 < cpu_seconds <= 86400 \
            or cpu_seconds != cpu_seconds:
        raise invalid("cpu_seconds", cpu_seconds, "a number of CPU seconds > 0 (at most 86400)")
    if isinstance(max_queries, bool) or not isinstance(max_queries, int) or not 0 <= max_queries <= 10**7:
        raise invalid("max_queries", max_queries, "an integer number of solver queries between 0 and 10^7")
    if surrogates is not None and not isinstance(surrogates, list | tuple):
        raise invalid("surrogates", surrogates,
                      "None or a list of dicts with the keys name, dim, surrogate, link (and columns)")
    if not isinstance(confirm, bool):
        raise invalid("confirm", confirm, "True or False")


def _default_surrogates(matrix_or_loss: Any) -> list[dict[str, Any]] | None:
    """The built-in candidate surrogates of a named multiclass loss (:func:`known_surrogates`), else None."""
    if isinstance(matrix_or_loss, str) and matrix_or_loss in MULTICLASS_LOSSES:
        return known_surrogates(matrix_or_loss)
    if isinstance(matrix_or_loss, dict):
        return known_surrogates(matrix_or_loss["name"], matrix_or_loss.get("n"))
    return None


def _confirm_rank_surrogate(mat: Any, upper: int, up_ev: dict[str, Any], budget: Any) -> None:
    """Have the calibration engine decide the rank-``D`` surrogate (Theorem 3 of Ramaswamy, Agarwal &
    Tewari 2013) and record its answer in ``up_ev["engine_confirmation"]``."""
    from symcal.calibration import check_calibration

    rs = rank_surrogate(mat)
    if rs is not None and rs[0] == upper:
        v = check_calibration(mat, rs[1], rs[2], timeout=max(1.0, min(budget.left(), 300.0)))
        up_ev["engine_confirmation"] = {"status": v.status.value, "reason": v.reason or "",
                                        "cross_check": None if v.cross_check is None else
                                        f"{v.cross_check.solver}: {v.cross_check.agreed} of "
                                        f"{v.cross_check.answers} answers agreed"}
        if v.status.value == "refuted":  # pragma: no cover - Theorem 3 says it cannot be
            raise AssertionError(f"the rank-D surrogate of {mat.name} was refuted: {v.reason}")


def _lower_end(mat: Any, search: _Search) -> tuple[int, dict[str, Any]]:
    """The lower end and its evidence: the search's best point, re-checked by
    :func:`check_lower_certificate` (feasible subspace dimension), or ``CCdim >= 1``."""
    n = mat.shape[0]
    trivial = {"value": 1, "by": "no prediction is optimal for every p (no column is entrywise minimal), so a "
               "0-dimensional surrogate (a constant pred) fails at some vertex e_y"}
    best = search.best
    if best is None or best[0] < 1:
        return 1, trivial  # no prediction is optimal everywhere (else upper = 0)
    names = [_label(x) for x in mat.predictions]
    value, p, t, tied = best
    chk = check_lower_certificate(mat, p, names[t], value)
    if not chk.holds:  # pragma: no cover - the search records exact points
        raise AssertionError(f"lower-bound certificate failed its re-check: {chk.reason}")
    lower_ev: dict[str, Any] = {
        "value": value, "by": "feasible subspace dimension: CCdim >= n - mu_{Q_t}(p) - 1 for p in relint(simplex), "
        "p in Q_t", "p": [fraction_str(x) for x in p], "t": names[t], "tied": [names[s] for s in tied],
        "rank": value + 1, "mu": n - value - 1, "recheck": chk.reason}
    if value == 1:
        lower_ev["also"] = trivial["by"]
    return value, lower_ev


def _search_evidence(search: _Search, upper: int) -> dict[str, Any]:
    """What the lower-bound search covered and why it stopped."""
    best = search.best
    return {"points": search.points, "tie_sets": len(search.seen), "queries": search.queries,
            "infeasible": search.infeasible, "solver_unknown": search.unknown,
            "skipped_dependent": search.skipped,
            "stopped": "the lower end met the upper end" if best is not None and best[0] >= upper
            else (f"cut short: {search.cut}" if search.cut else "every extension of every point found was "
                  "tried"),
            "what": "the uniform distribution, then depth-first over sets of predictions required to be "
                    "tied and optimal at some p > 0 (z3 LRA, exact rational models)"}
