"""Subset ranking losses of Ramaswamy, Agarwal & Tewari (2013), with the paper's conventions,
their loss matrices, and the explicit low-rank decompositions the paper uses.

A prediction is a permutation ``sigma`` of ``1..r`` given as positions: ``sigma[i-1] =
sigma(i)`` is the position of document ``i`` (the paper's convention).  Losses:

* Precision@q (Section 4): ``1 - (1/q) sum_i y_i 1(sigma(i) <= q)`` on ``{0,1}^r``;
  WTA (winner-take-all) ``1 - y_{sigma^-1(1)}`` is the case ``q = 1``.
* ERU (Section 5): ``z - sum_i max(y_i - v, 0) 2^((1 - sigma(i))/(w - 1))`` on
  ``{0..s}^r``.  The discounts ``2^((1-k)/(w-1))`` are rational exactly when ``1/(w-1)`` is
  an integer; other ``w`` are refused in exact computations (and ``w = 1`` always).
* MAP (Section 6): ``1 - (1/|y|) sum_{i: y_i = 1} (1/sigma(i)) sum_{j <= sigma(i)} y_{sigma^-1(j)}``.
  **Undefined at y = 0** (0/0).  ``empty=`` chooses: ``"one"`` (default) -- read the 0/0
  average precision as 0, so ``l(0, sigma) = 1``; this is the convention under which the
  paper's decomposition (``alpha_0 = 0``, ``c = 1``) and ``u^p`` hold on all of ``{0,1}^r``;
  ``"zero"`` -- ``l(0, sigma) = 0`` (drop the query); ``"error"`` -- refuse ``y = 0``.
* PD (Section 7): ``sum_{i != j} y_ij 1(sigma(i) > sigma(j))`` on weighted DAGs.
* DCG / NDCG (not in the paper; users ask): ``z - sum_i G(y_i) D(sigma(i))`` and
  ``1 - DCG / max DCG`` with exact discounts ``D`` (the usual ``1/log2(1+k)`` is irrational
  and refused); NDCG is 0/0 when every gain is 0 and takes the same ``empty=`` choice.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction
from symcal.ranking.loss_matrix import (
    DagLabel,
    Decomposition,
    LossMatrix,
    binary_relevance,
    check_permutation,
    graded_relevance,
    order_of,
    permutations,
    total_orders,
    unit_dags,
    weighted_dags,
)

__all__ = [
    "precision_at_q_loss",
    "wta_loss",
    "eru_loss",
    "eru_discounts",
    "map_loss",
    "pd_loss",
    "dcg_loss",
    "ndcg_loss",
    "NamedLoss",
    "named_loss",
    "LOSS_NAMES",
    "EMPTY_CHOICES",
]

EMPTY_CHOICES = ("one", "zero", "error")


def _binary(y: Any, param: str = "y") -> tuple[int, ...]:
    try:
        t = tuple(y)
    except TypeError:
        raise invalid(param, y, "a binary relevance vector in {0,1}^r") from None
    if not t or any(isinstance(v, bool) or v not in (0, 1) for v in t):
        raise invalid(param, y, "a binary relevance vector in {0,1}^r (entries 0 or 1)")
    return tuple(int(v) for v in t)


def _graded(y: Any, param: str = "y") -> tuple[int, ...]:
    try:
        t = tuple(y)
    except TypeError:
        raise invalid(param, y, "a graded relevance vector in {0..s}^r") from None
    if not t or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in t):
        raise invalid(param, y, "a graded relevance vector of integers >= 0")
    return t


def _check_q(q: Any, r: int) -> int:
    if isinstance(q, bool) or not isinstance(q, int) or not 1 <= q <= r:
        raise invalid("q", q, f"an integer 1 <= q <= r = {r}")
    return q


def _check_empty(empty: Any) -> str:
    if empty not in EMPTY_CHOICES:
        raise invalid("empty", empty, f"one of {', '.join(EMPTY_CHOICES)} (what the loss is where it is 0/0)")
    return empty


# --------------------------------------------------------------------------- scalar losses


def precision_at_q_loss(y: Any, sigma: Any, q: int) -> Fraction:
    """``l_P@q(y, sigma) = 1 - (1/q) sum_{i=1..r} y_i 1(sigma(i) <= q)`` (Section 4, second form)."""
    y = _binary(y)
    sigma = check_permutation(sigma, len(y))
    q = _check_q(q, len(y))
    return 1 - Fraction(sum(yi for yi, s in zip(y, sigma, strict=True) if s <= q), q)


def precision_at_q_loss_by_positions(y: Any, sigma: Any, q: int) -> Fraction:
    """``1 - (1/q) sum_{i=1..q} y_{sigma^-1(i)}`` (Section 4, first form)."""
    y = _binary(y)
    order = order_of(check_permutation(sigma, len(y)))
    q = _check_q(q, len(y))
    return 1 - Fraction(sum(y[order[i] - 1] for i in range(q)), q)


def wta_loss(y: Any, sigma: Any) -> Fraction:
    """Winner-take-all (Section 4): 0 if the top-ranked document is relevant, else 1."""
    y = _binary(y)
    order = order_of(check_permutation(sigma, len(y)))
    return Fraction(1 - y[order[0] - 1])


def eru_discounts(r: int, w: Any) -> tuple[Fraction, ...]:
    """``2^((1 - k)/(w - 1))`` for positions ``k = 1..r`` (Section 5), exactly.  Needs
    ``1/(w - 1)`` to be an integer (e.g. w = 2, 3/2, 4/3, or w = 1/2, 0 for w < 1)."""
    w = to_fraction(w, "w")
    if w == 1:
        raise invalid("w", "1", "w != 1 (the ERU exponent (1 - sigma(i))/(w - 1) divides by w - 1)")
    m = 1 / (w - 1)
    if m.denominator != 1:
        raise invalid("w", fraction_str(w), "w = 1 + 1/m for a nonzero integer m, so that the discounts "
                      "2^((1-k)/(w-1)) are rational (other w give irrational losses, which exact checks refuse)")
    e = int(m)
    return tuple(Fraction(2) ** ((1 - k) * e) for k in range(1, r + 1))


def _check_eru(v: Any, z: Any) -> tuple[int, Fraction]:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise invalid("v", v, "an integer neutral score v >= 0 (the paper takes v in [s])")
    return v, to_fraction(z, "z")


def eru_loss(y: Any, sigma: Any, *, z: Any, v: int, w: Any) -> Fraction:
    """``l_ERU(y, sigma) = z - sum_i max(y_i - v, 0) 2^((1 - sigma(i))/(w - 1))`` (Section 5)."""
    y = _graded(y)
    sigma = check_permutation(sigma, len(y))
    v, z = _check_eru(v, z)
    disc = eru_discounts(len(y), w)
    return z - sum((max(yi - v, 0) * disc[s - 1] for yi, s in zip(y, sigma, strict=True)), Fraction(0))


def map_loss(y: Any, sigma: Any, *, empty: str = "one") -> Fraction:
    """``l_MAP(y, sigma) = 1 - (1/|{g: y_g = 1}|) sum_{i: y_i=1} (1/sigma(i)) sum_{j<=sigma(i)} y_{sigma^-1(j)}``
    (Section 6, the definition).  At ``y = 0`` it is 0/0: ``empty`` = ``"one"`` (default;
    average precision 0, loss 1), ``"zero"`` (loss 0) or ``"error"``."""
    y = _binary(y)
    sigma = check_permutation(sigma, len(y))
    empty = _check_empty(empty)
    total = sum(y)
    if total == 0:
        if empty == "error":
            raise invalid("y", y, "a relevance vector with at least one relevant document (MAP is 0/0 at y = 0)",
                          "pass empty='one' or empty='zero' to choose a value")
        return Fraction(1) if empty == "one" else Fraction(0)
    order = order_of(sigma)
    ap = Fraction(0)
    for i in range(1, len(y) + 1):
        if y[i - 1]:
            pos = sigma[i - 1]
            ap += Fraction(sum(y[order[j] - 1] for j in range(pos)), pos)
    return 1 - ap / total


def map_loss_rewritten(y: Any, sigma: Any, *, form: int = 2) -> Fraction:
    """The two rewritten forms of Section 6 (for ``y != 0``):
    ``1 - (1/|y|) sum_{i=1..r} sum_{j=1..i} y_{sigma^-1(i)} y_{sigma^-1(j)} / i`` (form 1) and
    ``1 - (1/|y|) sum_{i=1..r} sum_{j=1..i} y_i y_j / max(sigma(i), sigma(j))`` (form 2)."""
    y = _binary(y)
    sigma = check_permutation(sigma, len(y))
    total = sum(y)
    if total == 0:
        raise invalid("y", y, "a relevance vector with at least one relevant document (the forms divide by |y|)")
    r = len(y)
    order = order_of(sigma)
    s = Fraction(0)
    for i in range(1, r + 1):
        for j in range(1, i + 1):
            if form == 1:
                s += Fraction(y[order[i - 1] - 1] * y[order[j - 1] - 1], i)
            else:
                s += Fraction(y[i - 1] * y[j - 1], max(sigma[i - 1], sigma[j - 1]))
    return 1 - s / total


def pd_loss(y: DagLabel, sigma: Any) -> Fraction:
    """``l_PD(y, sigma) = sum_i sum_{j != i} y_ij 1(sigma(i) > sigma(j))`` (Section 7)."""
    if not isinstance(y, DagLabel):
        raise invalid("y", y, "a DagLabel (a weighted DAG over the r documents)")
    sigma = check_permutation(sigma, y.r)
    return sum((w for i, j, w in y.edges if sigma[i - 1] > sigma[j - 1]), Fraction(0))


def _gains(y: tuple[int, ...], gains: str) -> list[int]:
    if gains == "linear":
        return list(y)
    if gains == "exponential":
        return [2**v - 1 for v in y]
    raise invalid("gains", gains, "'linear' (G(y) = y) or 'exponential' (G(y) = 2^y - 1)")


def _discounts(discounts: Any, r: int) -> tuple[Fraction, ...]:
    if isinstance(discounts, str):
        raise invalid("discounts", discounts, "exact discounts D(1..r), e.g. (1, 1/2, 1/3)",
                      "1/log2(1+k) is irrational for k = 2, so exact checks cannot use it")
    try:
        ds = tuple(to_fraction(d, f"discounts[{k}]") for k, d in enumerate(discounts))
    except TypeError:
        raise invalid("discounts", discounts, "a sequence of r exact discounts") from None
    if len(ds) != r:
        raise invalid("discounts", [fraction_str(d) for d in ds], f"{r} discounts, one per position")
    return ds


def dcg_loss(y: Any, sigma: Any, *, discounts: Sequence[Any], gains: str = "exponential", z: Any = 0) -> Fraction:
    """``z - sum_i G(y_i) D(sigma(i))``: DCG as a loss (positions discounted by ``D``)."""
    y = _graded(y)
    sigma = check_permutation(sigma, len(y))
    ds = _discounts(discounts, len(y))
    g = _gains(y, gains)
    return to_fraction(z, "z") - sum((gi * ds[s - 1] for gi, s in zip(g, sigma, strict=True)), Fraction(0))


def ndcg_loss(y: Any, sigma: Any, *, discounts: Sequence[Any], gains: str = "exponential",
              empty: str = "one") -> Fraction:
    """``1 - DCG(y, sigma) / max_sigma' DCG(y, sigma')``; 0/0 when every gain is 0 (``empty``
    as for MAP: ``"one"`` gives loss 1, ``"zero"`` loss 0, ``"error"`` refuses)."""
    y = _graded(y)
    sigma = check_permutation(sigma, len(y))
    ds = _discounts(discounts, len(y))
    empty = _check_empty(empty)
    g = _gains(y, gains)
    best = sum((gi * d for gi, d in zip(sorted(g, reverse=True), sorted(ds, reverse=True), strict=True)),
               Fraction(0))
    if best == 0:
        if empty == "error":
            raise invalid("y", y, "a label with a positive gain (NDCG is 0/0 when every gain is 0)",
                          "pass empty='one' or empty='zero'")
        return Fraction(1) if empty == "one" else Fraction(0)
    dcg = sum((gi * ds[s - 1] for gi, s in zip(g, sigma, strict=True)), Fraction(0))
    return 1 - dcg / best


# --------------------------------------------------------------------------- named losses


@dataclass(frozen=True)
class NamedLoss:
    """A paper loss at a size: its matrix, the paper's decomposition and the paper's bound.

    ``bound`` is the dimension the paper states; ``bound_kind`` says whether it bounds the
    rank of L (``"rank"``) or the ``d`` of Theorem 3 (``"affine dimension"``);
    ``bound_text`` quotes it with its location."""

    name: str
    r: int
    matrix: LossMatrix
    decomposition: Decomposition | None
    bound: int
    bound_kind: str
    bound_text: str
    params: dict[str, Any]


LOSS_NAMES = ("precision", "wta", "eru", "map", "pd", "dcg", "ndcg")


def _perm_array(r: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    perms = permutations(r)
    return perms, np.array(perms, dtype=np.int64)  # [t, i] = position of document i+1


def precision_matrix(r: int, q: int) -> tuple[LossMatrix, Decomposition]:
    """The P@q loss matrix on ``{0,1}^r x S_r`` and the paper's decomposition
    ``alpha_y = y``, ``beta_sigma,i = -(1/q) 1(sigma(i) <= q)``, ``c = 1`` (Section 4)."""
    q = _check_q(q, r)
    ys = binary_relevance(r)
    perms, pa = _perm_array(r)
    y = np.array(ys, dtype=np.int64)
    top = (pa <= q).astype(np.int64)  # k x r
    num = q - y @ top.T  # l * q
    mat = LossMatrix(num, q, ys, perms, name=f"precision@{q}, r = {r}")
    dec = Decomposition(y, 1, -top, q, Fraction(1), tuple(f"y_{i}" for i in range(1, r + 1)),
                        "Ramaswamy et al. 2013, Section 4: alpha_y = y, beta_sigma,i = -1(sigma(i) <= q)/q, c = 1")
    return mat, dec


def eru_matrix(r: int, s: int, *, z: Any, v: int, w: Any) -> tuple[LossMatrix, Decomposition]:
    """The ERU loss matrix on ``{0..s}^r x S_r`` and the paper's decomposition
    ``alpha_y,i = max(y_i - v, 0)``, ``beta_sigma,i = -2^((1-sigma(i))/(w-1))``, ``c = z``."""
    v, zf = _check_eru(v, z)
    disc = eru_discounts(r, w)
    ys = graded_relevance(r, s)
    perms, pa = _perm_array(r)
    den = math.lcm(zf.denominator, *[d.denominator for d in disc])
    dnum = np.array([int(d * den) for d in disc], dtype=object)
    g = np.array([[max(v_ - v, 0) for v_ in yy] for yy in ys], dtype=object)
    b = dnum[pa - 1]  # k x r discounts of each document's position
    num = int(zf * den) - g @ b.T
    mat = LossMatrix(num, den, ys, perms, name=f"ERU, r = {r}, s = {s}, z = {fraction_str(zf)}, v = {v}, "
                                               f"w = {fraction_str(to_fraction(w, 'w'))}")
    dec = Decomposition(_int(g), 1, _int(-b), den, zf, tuple(f"max(y_{i} - v, 0)" for i in range(1, r + 1)),
                        "Ramaswamy et al. 2013, Section 5: alpha_y,i = max(y_i - v, 0), "
                        "beta_sigma,i = -2^((1-sigma(i))/(w-1)), c = z")
    return mat, dec


def _int(a: Any) -> np.ndarray:
    from symcal.ranking.loss_matrix import _as_int_array

    return _as_int_array(a)


def map_pairs(r: int) -> list[tuple[int, int]]:
    """The ``r(r+1)/2`` coordinates ``(i, j)``, ``i >= j``, of the MAP surrogate (Section 6)."""
    return [(i, j) for i in range(1, r + 1) for j in range(1, i + 1)]


def map_matrix(r: int, *, empty: str = "one") -> tuple[LossMatrix, Decomposition]:
    """The MAP loss matrix on ``{0,1}^r x S_r`` (``empty="error"`` leaves ``y = 0`` out) and the
    paper's decomposition ``alpha_y,ij = y_i y_j / |y|`` (0 at y = 0), ``beta_sigma,ij =
    -1/max(sigma(i), sigma(j))``, ``c = 1``, ``i >= j`` (Section 6)."""
    empty = _check_empty(empty)
    ys = binary_relevance(r, nonzero=(empty == "error"))
    perms, pa = _perm_array(r)
    y = np.array(ys, dtype=np.int64)
    lr = math.lcm(*range(1, r + 1))
    den = lr * lr
    sizes = y.sum(axis=1)
    num = np.empty((len(ys), len(perms)), dtype=np.int64)
    pos_weight = np.array([lr // k for k in range(1, r + 1)], dtype=np.int64)  # lr / position
    row_scale = np.where(sizes > 0, lr // np.maximum(sizes, 1), 0)  # lr / |y|
    for t, sigma in enumerate(perms):
        order = np.array(order_of(sigma), dtype=np.int64) - 1
        ordered = y[:, order]  # relevance by position
        cums = np.cumsum(ordered, axis=1)  # relevant documents in the top k
        ap_num = (ordered * cums * pos_weight).sum(axis=1)  # sum_k y_(k) prec@k * lr
        num[:, t] = den - ap_num * row_scale
    if empty == "zero":
        num[sizes == 0, :] = 0
    mat = LossMatrix(num, den, ys, perms, name=f"MAP, r = {r}" + ("" if empty == "one" else f", empty = {empty}"))
    pairs = map_pairs(r)
    alpha = np.array([[(yy[i - 1] * yy[j - 1]) * (lr // sum(yy)) if sum(yy) else 0 for i, j in pairs]
                      for yy in ys], dtype=np.int64)
    beta = np.array([[-(lr // max(sg[i - 1], sg[j - 1])) for i, j in pairs] for sg in perms], dtype=np.int64)
    dec = Decomposition(alpha, lr, beta, lr, Fraction(1), tuple(f"u_{i}{j}" for i, j in pairs),
                        "Ramaswamy et al. 2013, Section 6: alpha_y,ij = y_i y_j / |y|, "
                        "beta_sigma,ij = -1/max(sigma(i), sigma(j)), c = 1 (i >= j)")
    return mat, dec


def pd_label_set(r: int, labels: str = "unit_dags") -> list[DagLabel]:
    if labels == "unit_dags":
        return unit_dags(r)
    if labels == "total_orders":
        return total_orders(r)
    if labels == "weighted_dags":
        return weighted_dags(r, (1, 2))
    raise invalid("labels", labels, "unit_dags, total_orders or weighted_dags")


def ordered_pairs(r: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(1, r + 1) for j in range(1, r + 1) if i != j]


def pd_matrix(r: int, labels: str = "unit_dags") -> tuple[LossMatrix, Decomposition]:
    """The PD loss matrix on DAG labels x ``S_r`` and the paper's ``r(r-1)``-dimensional
    decomposition ``alpha_y = (y_ij)``, ``beta_sigma,ij = 1(sigma(i) > sigma(j))``, ``c = 0``
    (Section 7, Eq. (1))."""
    ys = pd_label_set(r, labels)
    perms, pa = _perm_array(r)
    pairs = ordered_pairs(r)
    den = math.lcm(1, *[w.denominator for y in ys for _i, _j, w in y.edges])
    index = {p: k for k, p in enumerate(pairs)}
    yv = np.zeros((len(ys), len(pairs)), dtype=np.int64)
    for a, y in enumerate(ys):
        for i, j, w in y.edges:
            yv[a, index[(i, j)]] = int(w * den)
    ind = np.array([[int(sg[i - 1] > sg[j - 1]) for i, j in pairs] for sg in perms], dtype=np.int64)
    num = yv @ ind.T  # sum over edges of y_ij 1(sigma(i) > sigma(j))
    mat = LossMatrix(num, den, ys, perms, name=f"PD, r = {r}, {labels.replace('_', ' ')}")
    dec = Decomposition(yv, den, ind, 1, Fraction(0), tuple(f"y_{i}{j}" for i, j in pairs),
                        "Ramaswamy et al. 2013, Section 7, Eq. (1): alpha_y = (y_ij)_{i != j}, "
                        "beta_sigma,ij = 1(sigma(i) > sigma(j)), c = 0")
    return mat, dec


def pd_half_decomposition(mat: LossMatrix, r: int, *, with_offset: bool) -> Decomposition:
    """PD in ``r(r-1)/2`` coordinates: ``alpha_y,ij = y_ij - y_ji``, ``beta_sigma,ij =
    1(sigma(i) > sigma(j))`` for ``i < j``, since ``l = sum_{i<j} y_ji + sum_{i<j} (y_ij - y_ji)
    1(sigma(i) > sigma(j))``.  ``with_offset`` adds the coordinate ``sum_{i<j} y_ji`` with
    ``beta = 1`` (``r(r-1)/2 + 1`` coordinates, exact for every label set); without it the
    label-dependent offset is dropped (exact only when ``sum_{i<j} y_ji`` is constant)."""
    pairs = [(i, j) for i in range(1, r + 1) for j in range(i + 1, r + 1)]
    ys = mat.labels
    den = math.lcm(1, *[w.denominator for y in ys for _i, _j, w in y.edges])
    rows = []
    for y in ys:
        vec = y.vector()
        row = [int((vec[(i, j)] - vec[(j, i)]) * den) for i, j in pairs]
        if with_offset:
            row.append(int(sum((vec[(j, i)] for i, j in pairs), Fraction(0)) * den))
        rows.append(row)
    beta = [[int(sg[i - 1] > sg[j - 1]) for i, j in pairs] + ([1] if with_offset else []) for sg in mat.predictions]
    coords = tuple(f"y_{i}{j} - y_{j}{i}" for i, j in pairs) + (("sum_{i<j} y_ji",) if with_offset else ())
    return Decomposition(np.array(rows, dtype=np.int64).reshape(len(ys), len(coords)), den,
                         np.array(beta, dtype=np.int64).reshape(len(mat.predictions), len(coords)), 1,
                         Fraction(0), coords,
                         "PD with r(r-1)/2 pair coordinates" + (" plus the offset sum_{i<j} y_ji" if with_offset
                                                               else " (no offset)"))


def dcg_matrix(r: int, s: int, *, discounts: Sequence[Any], gains: str = "exponential", z: Any = 0,
               normalised: bool = False, empty: str = "one") -> tuple[LossMatrix, Decomposition]:
    """DCG (``z - DCG``) or NDCG (``1 - DCG/max DCG``) on ``{0..s}^r x S_r`` with the
    decomposition ``alpha_y,i = G(y_i)`` (over max DCG for NDCG), ``beta_sigma,i = -D(sigma(i))``."""
    ds = _discounts(discounts, r)
    empty = _check_empty(empty)
    ys = graded_relevance(r, s)
    if normalised and empty == "error":
        ys = [y for y in ys if any(_gains(y, gains))]
    perms = permutations(r)
    alpha: list[list[Fraction]] = []
    for y in ys:
        g = _gains(y, gains)
        if normalised:
            best = sum((gi * d for gi, d in zip(sorted(g, reverse=True), sorted(ds, reverse=True), strict=True)),
                       Fraction(0))
            alpha.append([Fraction(gi) / best if best else Fraction(0) for gi in g])
        else:
            alpha.append([Fraction(gi) for gi in g])
    beta = [[-ds[sg[i] - 1] for i in range(r)] for sg in perms]
    c = Fraction(1) if normalised else to_fraction(z, "z")
    dec = Decomposition.from_fractions(alpha, beta, c, tuple(f"G(y_{i})" for i in range(1, r + 1)),
                                       "alpha_y,i = G(y_i)" + (" / max DCG(y)" if normalised else "")
                                       + ", beta_sigma,i = -D(sigma(i))")
    if normalised:
        mat = LossMatrix.from_loss(lambda y, sg: ndcg_loss(y, sg, discounts=ds, gains=gains, empty=empty), ys, perms,
                                   name=f"NDCG, r = {r}, s = {s}")
    else:
        mat = LossMatrix.from_loss(lambda y, sg: dcg_loss(y, sg, discounts=ds, gains=gains, z=z), ys, perms,
                                   name=f"DCG, r = {r}, s = {s}")
    return mat, dec


def named_size(name: str, r: int, params: dict[str, Any]) -> tuple[int, int] | None:
    """``(labels, predictions)`` of the named loss's matrix, counted without building it
    (None when a parameter is malformed: its own check then names it)."""
    perms = math.factorial(r)
    s = params.get("s", 2 if name == "eru" else 1)
    if name in ("eru", "dcg", "ndcg"):
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            return None
        return (s + 1) ** r, perms
    if name in ("precision", "wta", "map"):
        return 2**r, perms
    if name == "pd":
        labels = params.get("labels", "unit_dags")
        if labels == "total_orders":
            return perms, perms
        if labels == "unit_dags" and r <= 5:
            from symcal.ranking.dags import count_dags

            return count_dags(r), perms
        if labels == "weighted_dags" and r <= 4:
            return len(weighted_dags(r, (1, 2))), perms
    return None


def _check_named_size(name: str, r: int, params: dict[str, Any]) -> None:
    """Refuse, before building it, a named loss whose matrix exceeds MAX_ENTRIES (issue 13)."""
    from symcal.ranking.loss_matrix import check_entries

    size = named_size(name, r, params)
    if size is not None:
        labels = params.get("labels")
        what = f"{name}{' over ' + labels if name == 'pd' and labels else ''} at r = {r}: a loss matrix"
        check_entries("r", size[0], size[1], what, value=r)


def named_loss(name: str, r: int, **params: Any) -> NamedLoss:
    """The loss ``name`` (one of :data:`LOSS_NAMES`) at ``r`` documents, with its matrix, the
    paper's decomposition and the paper's stated dimension.

    Parameters: ``precision``: ``q`` (default 1); ``eru``: ``s`` (2), ``z`` (r), ``v`` (1),
    ``w`` (2); ``map``: ``empty`` ("one"); ``pd``: ``labels`` ("unit_dags", "total_orders",
    "weighted_dags"); ``dcg``/``ndcg``: ``s`` (1), ``discounts`` (1/k), ``gains``."""
    if name not in LOSS_NAMES:
        raise invalid("loss", name, f"one of {', '.join(LOSS_NAMES)}, or a JSON matrix file")
    if isinstance(r, bool) or not isinstance(r, int) or not 2 <= r <= 8:
        raise invalid("r", r, "an integer number of documents 2 <= r <= 8")
    allowed = {"precision": {"q"}, "wta": set(), "eru": {"s", "z", "v", "w"}, "map": {"empty"}, "pd": {"labels"},
               "dcg": {"s", "discounts", "gains", "z"}, "ndcg": {"s", "discounts", "gains", "empty"}}[name]
    extra = set(params) - allowed
    if extra:
        raise invalid("params", sorted(extra), f"parameters of {name}: {', '.join(sorted(allowed)) or 'none'}")
    _check_named_size(name, r, params)
    if name in ("precision", "wta"):
        q = 1 if name == "wta" else params.get("q", 1)
        mat, dec = precision_matrix(r, q)
        return NamedLoss(name, r, mat, dec, r, "affine dimension",
                         "Section 4: 'the r-dimensional surrogate psi*_P@q' (d = r in Theorem 3)", {"q": q})
    if name == "eru":
        s, z, v, w = params.get("s", 2), params.get("z", r), params.get("v", 1), params.get("w", 2)
        mat, dec = eru_matrix(r, s, z=z, v=v, w=w)
        return NamedLoss(name, r, mat, dec, r, "affine dimension",
                         "Section 5: 'the r-dimensional surrogate psi*_ERU' (d = r in Theorem 3)",
                         {"s": s, "z": z, "v": v, "w": w})
    if name == "map":
        empty = params.get("empty", "one")
        mat, dec = map_matrix(r, empty=empty)
        return NamedLoss(name, r, mat, dec, r * (r + 1) // 2, "affine dimension",
                         "Section 6: 'the r(r+1)/2-dimensional surrogate psi*_MAP' (d = r(r+1)/2 in Theorem 3)",
                         {"empty": empty})
    if name == "pd":
        labels = params.get("labels", "unit_dags")
        if labels == "unit_dags" and r > 5:
            raise invalid("r", r, "r <= 5 for PD over all unit DAGs (29,281 labels at r = 5)")
        mat, dec = pd_matrix(r, labels)
        return NamedLoss(name, r, mat, dec, r * (r - 1) // 2, "rank",
                         "Section 7: 'the loss matrix l_PD has rank at most r(r-1)/2'", {"labels": labels})
    s = params.get("s", 1)
    discounts = params.get("discounts", tuple(Fraction(1, k) for k in range(1, r + 1)))
    gains = params.get("gains", "exponential")
    if name == "dcg":
        mat, dec = dcg_matrix(r, s, discounts=discounts, gains=gains, z=params.get("z", 0))
    else:
        mat, dec = dcg_matrix(r, s, discounts=discounts, gains=gains, normalised=True,
                              empty=params.get("empty", "one"))
    return NamedLoss(name, r, mat, dec, r, "affine dimension", "not in the paper: d = r from alpha_y,i = G(y_i)",
                     {"s": s, "gains": gains})


def all_permutations_agree(fn_a: Any, fn_b: Any, labels: Sequence[Any], r: int) -> tuple[bool, str]:
    """Whether two loss functions agree on every (label, permutation) pair (exact)."""
    n = 0
    for y, sigma in itertools.product(labels, permutations(r)):
        n += 1
        a, b = fn_a(y, sigma), fn_b(y, sigma)
        if a != b:
            return False, f"y = {y}, sigma = {sigma}: {fraction_str(a)} != {fraction_str(b)}"
    return True, f"{n} (label, permutation) pairs agree"


def rank_row(name: str, r: int, **params: Any) -> dict[str, Any]:
    """One row of the rank table: certified rank of L, certified affine dimension (Theorem 3's
    ``d``), the paper's bound and which notion it bounds, the paper decomposition's check,
    and whether the paper's bound holds for its notion."""
    import time

    t0 = time.perf_counter()
    nl = named_loss(name, r, **params)
    rk = nl.matrix.rank()
    af = nl.matrix.affine_dimension(base=rk)
    chk = nl.decomposition.check(nl.matrix) if nl.decomposition is not None else None
    certified = rk.certified and af.certified
    value = rk.value if nl.bound_kind == "rank" else af.value
    return {
        "loss": name,
        "r": r,
        "params": {k: (fraction_str(v) if isinstance(v, Fraction) else v) for k, v in nl.params.items()},
        "labels": nl.matrix.shape[0],
        "predictions": nl.matrix.shape[1],
        "rank": rk.value,
        "affine_dimension": af.value,
        "certified": certified,
        "paper_bound": nl.bound,
        "paper_bound_kind": nl.bound_kind,
        "paper_bound_text": nl.bound_text,
        "paper_decomposition_d": nl.decomposition.d if nl.decomposition is not None else None,
        "paper_decomposition_exact": chk.holds if chk is not None else None,
        "bound_holds": (value is not None and value <= nl.bound),
        "tight": value == nl.bound,
        "rank_minor": {"rows": len(rk.minors[0][0]),
                       "det_bits": abs(rk.minors[0][2]).bit_length() if isinstance(rk.minors[0][2], int) else None}
        if rk.minors else None,
        "seconds": round(time.perf_counter() - t0, 3),
    }


DEFAULT_TABLE: tuple[tuple[str, dict[str, Any], tuple[int, ...]], ...] = (
    ("precision", {"q": 2}, (3, 4, 5, 6)),
    ("wta", {}, (3, 4, 5, 6)),
    ("eru", {}, (3, 4, 5, 6)),
    ("map", {}, (3, 4, 5, 6)),
    ("pd", {"labels": "unit_dags"}, (3, 4, 5)),
    ("pd", {"labels": "total_orders"}, (3, 4, 5, 6)),
)


def rank_table(spec: Sequence[tuple[str, dict[str, Any], Sequence[int]]] = DEFAULT_TABLE) -> list[dict[str, Any]]:
    """The certified ranks of the paper's losses beside the paper's bounds (default: P@2, WTA,
    ERU, MAP for r = 3..6, PD over unit DAGs for r = 3..5 and over total orders for r = 3..6)."""
    return [rank_row(name, r, **params) for name, params, rs in spec for r in rs]
