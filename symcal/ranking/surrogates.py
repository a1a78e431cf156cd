"""Surrogate losses for ranking and their conditional risks ``W(p, alpha)``.

Duchi, Mackey & Jordan (2010):

* Eq. (9)   pairwise  ``phi(alpha, G) = sum_{(i->j) in G} h(a_ij^G) phi(alpha_i - alpha_j)``,
  so ``W = sum_{i != j} h_ij phi(alpha_i - alpha_j)`` with ``h_ij = sum_G h(a_ij^G) p_G``
  (only edges present in ``G`` contribute);
* Eq. (13)  margin    ``phi(alpha, G) = sum_{(i->j) in G} phi(alpha_i - alpha_j - h(a_ij^G))``;
* Eq. (14)  linear    ``phi(alpha, G) = sum_{(i->j) in G} a_ij^G (alpha_j - alpha_i) + nu sum_i r(alpha_i)``,
  so ``W = sum_i alpha_i sum_j (a_ji - a_ij) + nu sum_i r(alpha_i)``;
* Eq. (15)  for ``r(alpha) = alpha^2`` the unique minimiser is
  ``alpha_i* = sum_j (a_ij - a_ji) / (2 nu)``.

The exact risks return sympy expressions (``phi`` may be ``exp`` or ``log``; scores may be
exact numbers or sympy symbols).  The numeric minimiser uses floats and says so: its
results are numeric evidence, never proof.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction, to_sympy_rational
from symcal.ranking.difference import difference_cycle
from symcal.ranking.losses import _lemma16_constraints, _risk, min_conditional_risk
from symcal.ranking.preference import (
    PreferenceDistribution,
    PreferenceGraph,
    as_weights,
    check_m,
)

__all__ = [
    "x",
    "Phi",
    "PHI_EXP",
    "PHI_LOGISTIC",
    "PHI_SQUARED_HINGE",
    "pairwise_surrogate_risk",
    "margin_surrogate_risk",
    "linear_surrogate_risk",
    "linear_surrogate_minimiser",
    "NumericRisk",
    "NumericMinimum",
    "numeric_pairwise_risk",
    "numeric_margin_risk",
    "minimise_surrogate_risk",
    "order_of",
    "GapReport",
    "numeric_gap_outside_optimal_set",
]

x = sympy.Symbol("x", real=True)


@dataclass(frozen=True)
class Phi:
    """A convex margin function ``phi`` (Duchi et al. 2010, Eq. (9)): its exact sympy
    expression in :data:`x`, and numpy callables for its value and derivative."""

    name: str
    expr: sympy.Expr
    func: Callable[[np.ndarray], np.ndarray]
    derivative: Callable[[np.ndarray], np.ndarray]

    def at(self, value: Any) -> sympy.Expr:
        """``phi(value)`` exactly (a sympy expression)."""
        return self.expr.subs(x, value)

    def __repr__(self) -> str:
        return f"Phi({self.name!r}, {self.expr})"


def _expit(t: np.ndarray) -> np.ndarray:
    from scipy.special import expit

    return expit(t)


PHI_EXP = Phi("exp", sympy.exp(-x), lambda t: np.exp(-t), lambda t: -np.exp(-t))
"""``phi(x) = e^{-x}`` (boosting, Freund et al. 2003)."""

PHI_LOGISTIC = Phi(
    "logistic",
    sympy.log(1 + sympy.exp(-x)),
    lambda t: np.logaddexp(0.0, -t),
    lambda t: -_expit(-t),
)
"""``phi(x) = log(1 + e^{-x})`` (Dekel et al. 2004)."""

PHI_SQUARED_HINGE = Phi(
    "squared_hinge",
    sympy.Max(1 - x, 0) ** 2,
    lambda t: np.maximum(1.0 - t, 0.0) ** 2,
    lambda t: -2.0 * np.maximum(1.0 - t, 0.0),
)
"""``phi(x) = max(1 - x, 0)^2``."""


def _check_phi(phi: Any) -> Phi:
    if not isinstance(phi, Phi):
        raise invalid("phi", phi, "a Phi such as PHI_EXP, PHI_LOGISTIC or PHI_SQUARED_HINGE")
    return phi


def _identity(a: Fraction) -> Fraction:
    return a


def _exact_value(value: Any, param: str) -> sympy.Expr:
    """An exact number or sympy expression (floats refused) as a sympy object."""
    if isinstance(value, sympy.Basic):
        if value.has(sympy.Float):
            raise invalid(param, value, "an exact value (no floats)", "use sympy.Rational")
        return value
    return to_sympy_rational(to_fraction(value, param))


def _h_of(h: Callable[[Fraction], Any] | None, a: Fraction, i: int, j: int) -> sympy.Expr:
    if h is None:
        return to_sympy_rational(a)
    if not callable(h):
        raise invalid("h", h, "a function of the edge weight, e.g. lambda a: a")
    return _exact_value(h(a), f"h(a[{i},{j}]={fraction_str(a)})")


def _scores(alpha: Any, m: int) -> tuple[sympy.Expr, ...]:
    """Exact or symbolic scores; ``alpha[0] = alpha_1``."""
    if isinstance(alpha, (str, bytes)) or not hasattr(alpha, "__len__"):
        raise invalid("alpha", alpha, f"a sequence of {m} scores")
    if len(alpha) != m:
        raise invalid("alpha", list(alpha), f"a sequence of {m} scores (one per result)")
    return tuple(_exact_value(v, f"alpha[{k}]") for k, v in enumerate(alpha, start=1))


def _distribution(dist: Any, param: str = "dist") -> PreferenceDistribution:
    if isinstance(dist, PreferenceGraph):
        return PreferenceDistribution([(dist, 1)])
    if not isinstance(dist, PreferenceDistribution):
        raise invalid(param, dist, "a PreferenceDistribution (or a single PreferenceGraph)")
    return dist


def _h_weights(dist: Any, h: Callable[[Fraction], Any] | None) -> tuple[int, dict]:
    """``h_ij = sum_G h(a_ij^G) p_G`` over graphs containing ``i -> j`` (Eq. (9))."""
    if h is None and not isinstance(dist, (PreferenceDistribution, PreferenceGraph)):
        m, a = as_weights(dist, param="dist")
        return m, {e: to_sympy_rational(w) for e, w in a.items() if w}
    d = _distribution(dist)
    out: dict[tuple[int, int], sympy.Expr] = {}
    for graph, p in d:
        for (i, j), a in graph.edges.items():
            out[(i, j)] = out.get((i, j), sympy.Integer(0)) + _h_of(h, a, i, j) * to_sympy_rational(p)
    return d.m, {e: v for e, v in out.items() if v != 0}


def pairwise_surrogate_risk(dist: Any, alpha: Any, phi: Phi, h: Callable[[Fraction], Any] | None = None) -> sympy.Expr:
    """``W(p, alpha) = sum_{i != j} h_ij phi(alpha_i - alpha_j)`` for the pairwise surrogate
    of Duchi et al. 2010, Eq. (9) (``h`` defaults to the identity; then plain weights
    ``{(i, j): a_ij}`` are accepted too).  Exact sympy expression."""
    phi = _check_phi(phi)
    m, hw = _h_weights(dist, h)
    s = _scores(alpha, m)
    return sympy.Add(*[c * phi.at(s[i - 1] - s[j - 1]) for (i, j), c in sorted(hw.items())])


def margin_surrogate_risk(dist: Any, alpha: Any, phi: Phi, h: Callable[[Fraction], Any] | None = None) -> sympy.Expr:
    """``W(p, alpha) = sum_G p_G sum_{(i->j) in G} phi(alpha_i - alpha_j - h(a_ij^G))`` for
    the margin surrogate of Duchi et al. 2010, Eq. (13) (``h`` defaults to the identity).
    Exact sympy expression."""
    phi = _check_phi(phi)
    d = _distribution(dist)
    s = _scores(alpha, d.m)
    terms = []
    for graph, p in d:
        if not p:
            continue
        for (i, j), a in graph.edges.items():
            terms.append(to_sympy_rational(p) * phi.at(s[i - 1] - s[j - 1] - _h_of(h, a, i, j)))
    return sympy.Add(*terms)


def _nu(nu: Any) -> Fraction:
    value = to_fraction(nu, "nu")
    if value <= 0:
        raise invalid("nu", fraction_str(value), "a regularisation weight nu > 0 (Eq. (14))")
    return value


def linear_surrogate_risk(
    dist_or_weights: Any,
    alpha: Any,
    nu: Any,
    r: Callable[[sympy.Expr], Any] | None = None,
) -> sympy.Expr:
    """``W(p, alpha) = sum_i alpha_i sum_j (a_ji - a_ij) + nu sum_i r(alpha_i)`` for the
    value-regularised linear surrogate of Duchi et al. 2010, Eq. (14) (proof of
    Theorem 13).  ``r`` defaults to ``alpha^2``; ``nu > 0``.  Exact sympy expression."""
    m, a = as_weights(dist_or_weights, param="dist_or_weights")
    s = _scores(alpha, m)
    nu_ = to_sympy_rational(_nu(nu))
    if r is None:

        def r(t: sympy.Expr) -> sympy.Expr:
            return t**2
    elif not callable(r):
        raise invalid("r", r, "a strictly convex function, e.g. lambda t: t**2")
    linear = sympy.Add(
        *[
            s[i - 1] * to_sympy_rational(sum((a[(j, i)] - a[(i, j)] for j in range(1, m + 1) if j != i), Fraction(0)))
            for i in range(1, m + 1)
        ]
    )
    reg = sympy.Add(*[_exact_value(r(s[i]), f"r(alpha[{i + 1}])") for i in range(m)])
    return linear + nu_ * reg


def linear_surrogate_minimiser(weights: Any, nu: Any = 1, m: int | None = None) -> tuple[Fraction, ...]:
    """The unique minimiser of the linear surrogate risk (14) with ``r(alpha) = alpha^2``:
    ``alpha_i* = sum_j (a_ij - a_ji) / (2 nu)`` (Duchi et al. 2010, Eq. (15) with
    ``s(g) = g / 2``).  Exact."""
    m, a = as_weights(weights, m)
    nu_ = _nu(nu)
    return tuple(
        sum((a[(i, j)] - a[(j, i)] for j in range(1, m + 1) if j != i), Fraction(0)) / (2 * nu_)
        for i in range(1, m + 1)
    )


# --- numeric ----------------------------------------------------------------------------


@dataclass(frozen=True)
class NumericRisk:
    """A surrogate risk ``W(p, .)`` (Duchi et al. 2010, Eq. (6)) as float functions of a
    length-``m`` score vector (numeric; built by :func:`numeric_pairwise_risk` / :func:`numeric_margin_risk`)."""

    m: int
    value: Callable[[np.ndarray], float]
    gradient: Callable[[np.ndarray], np.ndarray]
    shift_invariant: bool
    description: str


def _numeric_terms(rows: list[tuple[int, int, float, float]], m: int, phi: Phi, description: str) -> NumericRisk:
    """``W(alpha) = sum_t c_t phi(alpha_i - alpha_j - shift_t)`` over rows (i, j, c, shift)."""
    ii = np.array([r[0] - 1 for r in rows], dtype=np.int64)
    jj = np.array([r[1] - 1 for r in rows], dtype=np.int64)
    cc = np.array([r[2] for r in rows], dtype=np.float64)
    sh = np.array([r[3] for r in rows], dtype=np.float64)

    def value(alpha: np.ndarray) -> float:
        alpha = np.asarray(alpha, dtype=np.float64)
        with np.errstate(over="ignore"):
            return float(np.sum(cc * phi.func(alpha[ii] - alpha[jj] - sh)))

    def gradient(alpha: np.ndarray) -> np.ndarray:
        alpha = np.asarray(alpha, dtype=np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            g = cc * phi.derivative(alpha[ii] - alpha[jj] - sh)
        out = np.zeros(m)
        np.add.at(out, ii, g)
        np.subtract.at(out, jj, g)
        return out

    return NumericRisk(m, value, gradient, True, description)


def numeric_pairwise_risk(dist: Any, phi: Phi, h: Callable[[Fraction], Any] | None = None) -> NumericRisk:
    """Float version of the pairwise risk of Duchi et al. 2010, Eq. (9), with gradient
    ``dW/dalpha_k = sum_j h_kj phi'(alpha_k - alpha_j) - sum_i h_ik phi'(alpha_i - alpha_k)``.
    Numeric."""
    phi = _check_phi(phi)
    m, hw = _h_weights(dist, h)
    rows = [(i, j, float(c), 0.0) for (i, j), c in sorted(hw.items())]
    return _numeric_terms(rows, m, phi, f"pairwise surrogate risk (9) with phi={phi.name}")


def numeric_margin_risk(dist: Any, phi: Phi, h: Callable[[Fraction], Any] | None = None) -> NumericRisk:
    """Float version of the margin risk of Duchi et al. 2010, Eq. (13).  Numeric."""
    phi = _check_phi(phi)
    d = _distribution(dist)
    rows = []
    for graph, p in d:
        if not p:
            continue
        for (i, j), a in graph.edges.items():
            rows.append((i, j, float(p), float(_h_of(h, a, i, j))))
    return _numeric_terms(rows, d.m, phi, f"margin surrogate risk (13) with phi={phi.name}")


@dataclass(frozen=True)
class NumericMinimum:
    """A numeric (floating-point) minimiser of a surrogate risk ``W(p, .)`` (Duchi et al.
    2010, Definition 2) -- evidence, not proof.

    ``converged`` means scipy reported success or the final gradient norm is below the
    requested tolerance; it does not show that a finite minimiser exists (a risk that
    decreases forever along a direction also ends with a small gradient).
    """

    alpha: tuple[float, ...]
    value: float
    gradient_norm: float
    converged: bool
    method: str
    message: str
    numeric: bool = True


def _risk_function(
    W_numeric: Any, m: int | None, gradient: Any, shift_invariant: bool | None
) -> tuple[int, Callable[[np.ndarray], float], Any, bool | None]:
    """``(m, value, gradient, shift_invariant)`` of a :class:`NumericRisk` or a plain function of alpha."""
    if isinstance(W_numeric, NumericRisk):
        if m is not None and check_m(m) != W_numeric.m:
            raise invalid("m", m, f"the m of the NumericRisk (m={W_numeric.m})")
        gradient = W_numeric.gradient if gradient is None else gradient  # not `or`: an array has no truth
        if shift_invariant is None:
            shift_invariant = W_numeric.shift_invariant
        return W_numeric.m, W_numeric.value, gradient, shift_invariant
    if not callable(W_numeric):
        raise invalid("W_numeric", W_numeric, "a NumericRisk or a function of alpha")
    if m is None:
        raise invalid("m", m, "the number of scores m when W_numeric is a plain function")
    return check_m(m), W_numeric, gradient, shift_invariant


def _check_bfgs_options(m: int, gradient: Any, shift_invariant: Any, x0: Any, gtol: Any, maxiter: Any) -> np.ndarray:
    """Refuse bad options of :func:`minimise_surrogate_risk`; the starting scores."""
    if not (isinstance(gtol, (int, float)) and not isinstance(gtol, bool) and 0 < gtol <= 1e300):
        raise invalid("gtol", gtol, "a finite tolerance > 0")
    if isinstance(maxiter, bool) or not isinstance(maxiter, int) or maxiter < 1:
        raise invalid("maxiter", maxiter, "an iteration limit >= 1")
    if gradient is not None and not callable(gradient):
        raise invalid("gradient", gradient, "a function of alpha returning the gradient, or None")
    if shift_invariant is not None and not isinstance(shift_invariant, bool):
        raise invalid("shift_invariant", shift_invariant, "True, False or None")
    try:
        start = np.zeros(m) if x0 is None else np.asarray(x0, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise invalid("x0", x0, f"{m} finite starting scores") from None
    if start.shape != (m,) or not np.all(np.isfinite(start)):
        raise invalid("x0", x0, f"{m} finite starting scores")
    return start


def minimise_surrogate_risk(
    W_numeric: NumericRisk | Callable[[np.ndarray], float],
    m: int | None = None,
    *,
    gradient: Callable[[np.ndarray], np.ndarray] | None = None,
    shift_invariant: bool | None = None,
    x0: Sequence[float] | None = None,
    gtol: float = 1e-9,
    maxiter: int = 10_000,
) -> NumericMinimum:
    """Minimise a surrogate risk ``W(p, .)`` numerically with scipy's BFGS (Duchi et al.
    2010, Definition 2: ``W*(p) = inf_alpha W(p, alpha)``).

    The risks of Eq. (9) and (13) depend on ``alpha`` only through differences
    ``alpha_i - alpha_j``: they are shift-invariant (proof of Lemma 9), so ``alpha_m`` is
    fixed at 0 and the other ``m - 1`` scores are optimised; pass
    ``shift_invariant=False`` for a risk such as (14) that is not.  ``gradient`` is the
    analytic gradient (length ``m``); without it BFGS uses finite differences.
    The result is numeric (floats), never proof.
    """
    from scipy.optimize import minimize

    m, value, gradient, shift_invariant = _risk_function(W_numeric, m, gradient, shift_invariant)
    if shift_invariant is None:
        shift_invariant = True
    start = _check_bfgs_options(m, gradient, shift_invariant, x0, gtol, maxiter)
    free = m - 1 if shift_invariant else m

    def full(z: np.ndarray) -> np.ndarray:
        return np.append(z, 0.0) if shift_invariant else np.asarray(z, dtype=np.float64)

    def f(z: np.ndarray) -> float:
        return float(value(full(z)))

    jac = None
    if gradient is not None:
        grad_fn = gradient

        def jac(z: np.ndarray) -> np.ndarray:
            return np.asarray(grad_fn(full(z)), dtype=np.float64)[:free]

    z0 = (start - start[-1])[:free] if shift_invariant else start
    method = "scipy BFGS (numeric" + (", alpha_m fixed at 0" if shift_invariant else "")
    method += ", analytic gradient)" if gradient is not None else ", finite-difference gradient)"
    if free == 0:
        v = f(z0)
        return NumericMinimum((0.0,) * m, v, 0.0, True, method, "nothing to optimise (m = 1)")
    with np.errstate(over="ignore", invalid="ignore"):
        res = minimize(f, z0, jac=jac, method="BFGS", options={"gtol": gtol, "maxiter": maxiter})
    alpha = full(res.x)
    if gradient is not None:
        gnorm = float(np.linalg.norm(np.asarray(gradient(alpha))[:free]))
    else:
        gnorm = float(np.linalg.norm(res.jac))
    converged = bool(res.success) or gnorm <= gtol
    return NumericMinimum(
        alpha=tuple(float(v) for v in alpha),
        value=float(res.fun),
        gradient_norm=gnorm,
        converged=converged,
        method=method,
        message=str(res.message),
    )


def _float_scores(alpha: Any, m: int | None, param: str = "alpha") -> np.ndarray:
    try:
        arr = np.asarray(alpha, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise invalid(param, alpha, "a sequence of finite numbers") from None
    if arr.ndim != 1 or arr.size == 0 or (m is not None and arr.size != m):
        expect = f"{m} scores" if m is not None else "a non-empty sequence of scores"
        raise invalid(param, alpha, expect)
    if not np.all(np.isfinite(arr)):
        raise invalid(param, alpha, "finite scores")
    return arr


def _check_tol(tol: Any) -> float:
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 0 <= tol <= 1e300:
        raise invalid("tol", tol, "a finite tolerance >= 0")
    return float(tol)


def order_of(alpha_floats: Any, tol: float = 1e-6) -> tuple[tuple[int, ...], ...]:
    """The weak order of numeric scores, best first: nodes sorted by score (ties by
    label), consecutive nodes whose scores differ by at most ``tol`` merged into one block
    (listed by label).
    A strict order is one where every block is a single node.  (Duchi et al. 2010, Eq. (8):
    the loss depends only on this order.)"""
    arr = _float_scores(alpha_floats, None, "alpha_floats")
    tol = _check_tol(tol)
    nodes = sorted(range(1, arr.size + 1), key=lambda v: (-arr[v - 1], v))
    blocks: list[list[int]] = [[nodes[0]]]
    for prev, v in zip(nodes, nodes[1:], strict=False):
        if arr[prev - 1] - arr[v - 1] <= tol:
            blocks[-1].append(v)
        else:
            blocks.append([v])
    return tuple(tuple(sorted(b)) for b in blocks)


@dataclass(frozen=True)
class GapReport:
    """Where a numeric minimiser lies relative to ``A(p)`` of Duchi et al. 2010, Eq. (5)
    (numeric evidence).

    ``status`` is ``"outside"``, ``"inside"`` or ``"undecided"``; ``margin`` is the gap that
    decides it (the largest violation when outside, the smallest required gap when
    inside, the closest call when undecided); ``excess_risk`` is ``l(p, order) - min l``
    for the strict order of the scores (None when some gap is within ``tol``).
    """

    status: str
    margin: float
    excess_risk: Fraction | None
    order: tuple[int, ...] | None
    witness: dict[str, Any]
    reason: str
    numeric: bool = True


def _excess_of_order(m: int, a: Any, order: tuple[int, ...], best: Any) -> Fraction:
    """``l(p, order) - min l`` (Duchi et al. 2010, Eq. (8)) for a strict order, best first."""
    alpha_exact = tuple(Fraction(m - k) for k in range(m))
    ranks = [Fraction(0)] * m
    for k, v in enumerate(order):
        ranks[v - 1] = alpha_exact[k]
    return _risk(m, a, tuple(ranks)) - best.value


def _gap_by_lemma16(
    a: Any, arr: np.ndarray, tol: float, excess: Fraction | None, order: tuple[int, ...] | None
) -> GapReport:
    """On a DAG difference graph: decide each Lemma 16 constraint by its gap ``alpha_i - alpha_j``."""
    gaps = []
    for c in _lemma16_constraints(a):
        gaps.append((float(arr[c.i - 1] - arr[c.j - 1]), c))
    if not gaps:
        return GapReport(
            "inside",
            float("inf"),
            excess,
            order,
            {"constraints": 0},
            "A(p) is all of R^m (no pair is preferred), so alpha_star is inside",
        )
    broken = [(g, c) for g, c in gaps if g < -tol]
    close = [(g, c) for g, c in gaps if abs(g) <= tol]
    if broken:
        g, c = min(broken, key=lambda t: t[0])
        return GapReport(
            "outside",
            -g,
            excess,
            order,
            {"constraint": str(c), "gap": g, "broken": [str(cc) for _g, cc in broken]},
            f"alpha_star is outside A(p): it breaks {c} by {-g:.3g} (> tol={tol:g}); numeric, Lemma 16 constraints",
        )
    if close:
        g, c = min(close, key=lambda t: abs(t[0]))
        return GapReport(
            "undecided",
            abs(g),
            excess,
            order,
            {"constraint": str(c), "gap": g, "within_tol": [str(cc) for _g, cc in close]},
            f"undecided: the gap for {c} is {g:.3g}, within tol={tol:g}",
        )
    g, c = min(gaps, key=lambda t: t[0])
    return GapReport(
        "inside",
        g,
        excess,
        order,
        {"constraint": str(c), "gap": g},
        f"alpha_star is inside A(p): every Lemma 16 constraint holds with gap >= {g:.3g} (tightest: {c}); numeric",
    )


def _gap_by_order(
    arr: np.ndarray, tol: float, blocks: tuple[tuple[int, ...], ...], excess: Fraction | None,
    order: tuple[int, ...] | None,
) -> GapReport:
    """On a difference graph with a cycle: decide by the strict order of the scores."""
    diffs = np.diff(np.sort(arr)[::-1])
    min_gap = float(-diffs.max()) if diffs.size else float("inf")
    if order is None:
        return GapReport(
            "undecided",
            min_gap,
            None,
            None,
            {"weak_order": blocks},
            f"undecided: scores within tol={tol:g} of each other in {blocks}",
        )
    assert excess is not None
    status = "outside" if excess > 0 else "inside"
    return GapReport(
        status,
        min_gap,
        excess,
        order,
        {"order": order, "excess_risk": excess},
        f"alpha_star orders the results {order}: l(p, alpha) - min l = {fraction_str(excess)}; "
        f"smallest gap between adjacent scores {min_gap:.3g}; numeric",
    )


def numeric_gap_outside_optimal_set(
    weights: Any, alpha_star: Any, tol: float = 1e-6, m: int | None = None
) -> GapReport:
    """Does a numeric minimiser ``alpha_star`` of a surrogate risk lie outside ``A(p)``
    (Duchi et al. 2010, Eq. (5); the failure of Definition 2 that Lemma 10 predicts)?

    When the difference graph is a DAG, each Lemma 16 constraint ``alpha_i > alpha_j`` /
    ``alpha_i >= alpha_j`` is decided by its gap ``alpha_i - alpha_j``: below ``-tol`` it is
    violated, within ``tol`` of 0 it is undecided.  Otherwise the strict order of the
    scores (all adjacent gaps above ``tol``) is compared with ``min l``.  Numeric.
    """
    m, a = as_weights(weights, m)
    arr = _float_scores(alpha_star, m, "alpha_star")
    tol = _check_tol(tol)
    blocks = order_of(arr, tol)
    strict = all(len(b) == 1 for b in blocks)
    order = tuple(b[0] for b in blocks) if strict else None
    best = min_conditional_risk(a, m)
    excess = None if order is None else _excess_of_order(m, a, order, best)
    if difference_cycle(a, m) is None:
        return _gap_by_lemma16(a, arr, tol, excess, order)
    return _gap_by_order(arr, tol, blocks, excess, order)
