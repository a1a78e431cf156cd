"""Order preservation on a user's small distribution (Calauzènes, Usunier & Gallinari 2013).

* :func:`measure_order_check` -- is every ranking that sorts the items by expected utility
  ``U(Delta)`` optimal for the measure (``arg sort(U(Delta)) subset arg max R(Delta, .)``,
  the condition after Theorem 3.2; Eq. (2) for GPPMs)?  Exact, by enumerating rankings; the
  witness is a sorted-by-U ranking that is not optimal, with a better ranking.
* the surrogates of Remark 2 and the inner risk ``L(Delta, s)``; whether a surrogate is
  order-preserving (Definition 3.1) is a calibration question decided with a solver, in
  :func:`symcal.calibration.order.surrogate_order_check` (this package imports no solver).

A loss is a function ``loss(v, s)`` of the utility vector ``v`` (exact numbers) and a tuple
``s`` of sympy symbols, returning a sympy expression; :func:`pairwise_usual` (RankBoost /
Ranking SVM form, Remark 2) and :func:`pairwise_proposed` (Eq. (4) with
``lambda = v_i phi(s_i - s_j) + v_j phi(s_j - s_i)``) build the two pairwise losses of
Remark 2 from a scalar ``phi`` given as a function of a sympy expression.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import invalid
from symcal.ranking.measures import (
    Measure,
    arg_sort,
    check_distribution,
    expected_utility,
    rankings,
)

__all__ = [
    "MeasureOrderResult",
    "measure_order_check",
    "inner_risk",
    "pairwise_usual",
    "pairwise_proposed",
    "hinge",
    "exp_phi",
    "logistic_phi",
]

Loss = Callable[[tuple[Any, ...], tuple[sympy.Symbol, ...]], Any]


@dataclass(frozen=True)
class MeasureOrderResult:
    """Whether sorting by ``U(Delta)`` is optimal for the measure, with the witness."""

    holds: bool
    reason: str
    utility: tuple[Any, ...]
    best_value: Any
    witness: dict[str, Any] | None = None

    def __bool__(self) -> bool:
        return self.holds


def measure_order_check(measure: Measure, distribution: Any,
                        utility: Callable[[Any], Sequence[Any]] | None = None) -> MeasureOrderResult:
    """Exact: is every ranking in ``arg sort(U(Delta))`` a maximiser of ``R(Delta, .)``?

    ``utility`` defaults to the measure's GPPM utility ``u`` (Table 1); pass one for a
    non-GPPM measure (ERR, AP) to test a candidate standardisation (Definition B.1).
    """
    pairs = check_distribution(distribution)
    if utility is None:
        if measure.gppm is None:
            raise invalid("utility", None, f"a utility function for {measure.name}, which is not a GPPM "
                          "(Table 1 gives it no u)")
        g = measure.gppm
        U = expected_utility(g, pairs, measure.check_y)
    else:
        total: list[Any] = [Fraction(0)] * measure.n
        for y, p in pairs:
            uy = tuple(utility(measure.check_y(y)))
            if len(uy) != measure.n:
                raise invalid("utility", uy, f"{measure.n} utilities (one per item)")
            total = [t + p * v for t, v in zip(total, uy, strict=True)]
        U = tuple(total)
    values = {s: measure.expected(pairs, s) for s in rankings(measure.n)}
    best = max(values.values())
    for s in arg_sort(U):
        if values[s] != best:
            better = next(t for t, v in values.items() if v == best)
            return MeasureOrderResult(
                False, f"the ranking {s} sorts the items by U(Delta) = {_fmt(U)} but R = {values[s]} < "
                       f"max R = {best} (attained by {better})",
                U, best, {"sorted_by_U": s, "value": values[s], "better": better, "best_value": best},
            )
    return MeasureOrderResult(True, f"all {len(arg_sort(U))} rankings sorting by U(Delta) = {_fmt(U)} attain "
                              f"max R = {best}", U, best, None)


def _fmt(U: Sequence[Any]) -> str:
    return "(" + ", ".join(str(u) for u in U) + ")"


# ---------------------------------------------------------------------------------------
# surrogates
# ---------------------------------------------------------------------------------------


def hinge(t: Any) -> Any:
    """``phi(t) = max(0, 1 - t)`` (convex, non-increasing, phi'(0) = -1)."""
    return sympy.Max(0, 1 - t)


def exp_phi(t: Any) -> Any:
    """``phi(t) = exp(-t)``."""
    return sympy.exp(-t)


def logistic_phi(t: Any) -> Any:
    """``phi(t) = log(1 + exp(-t))``."""
    return sympy.log(1 + sympy.exp(-t))


def pairwise_usual(phi: Callable[[Any], Any]) -> Loss:
    """Remark 2: ``l(v, s) = sum_{i, j} 1[v_i > v_j] phi(s_i - s_j)`` (RankBoost, Ranking SVM)."""
    def loss(v: tuple[Any, ...], s: tuple[sympy.Symbol, ...]) -> Any:
        n = len(s)
        return sympy.Add(*[phi(s[i] - s[j]) for i in range(n) for j in range(n) if i != j and v[i] > v[j]])
    return loss


def pairwise_proposed(phi: Callable[[Any], Any]) -> Loss:
    """Eq. (4) with ``lambda(v_i, v_j, d) = v_i phi(d) + v_j phi(-d)`` (Remark 2)."""
    def loss(v: tuple[Any, ...], s: tuple[sympy.Symbol, ...]) -> Any:
        n = len(s)
        return sympy.Add(*[_rat(v[i]) * phi(s[i] - s[j]) + _rat(v[j]) * phi(s[j] - s[i])
                           for i in range(n) for j in range(i + 1, n)])
    return loss


def _rat(x: Any) -> Any:
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    return sympy.sympify(x)


def inner_risk(loss: Loss, distribution: Any, n: int, utility: Callable[[Any], Sequence[Any]] | None = None,
               ) -> tuple[Any, tuple[sympy.Symbol, ...]]:
    """``L(Delta, s) = sum_y Delta(y) loss(u(y), s)`` as a sympy expression in s_1..s_n."""
    pairs = check_distribution(distribution)
    s = tuple(sympy.Symbol(f"s{i}", real=True) for i in range(1, n + 1))
    terms = []
    for y, p in pairs:
        v = tuple(utility(y)) if utility else tuple(y)
        if len(v) != n:
            raise invalid("distribution", y, f"supervision with {n} utilities (one per item)")
        terms.append(_rat(p) * loss(v, s))
    return sympy.Add(*terms), s
