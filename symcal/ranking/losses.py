"""The pairwise disagreement loss, its conditional risk, and the optimal set ``A(p)``.

Duchi, Mackey & Jordan (2010):

* Eq. (7)  ``L(alpha, G) = sum_{i<j} a_ij^G 1(alpha_i <= alpha_j) + sum_{i>j} a_ij^G 1(alpha_i < alpha_j)``
  (ties between ``i < j`` are charged to ``a_ij`` only, never twice);
* Eq. (8)  ``l(p, alpha)``, the same with the expected weights ``a_ij``;
* Eq. (5)  ``A(p)``, the scores attaining ``inf_alpha l(p, alpha)``;
* Lemma 7  minimising ``l`` is minimum weighted feedback arc set;
* Lemma 16 when the difference graph is a DAG, ``A(p)`` is cut out by the constraints
  ``alpha_i > alpha_j`` (``i < j``, ``a_ij > a_ji``) and ``alpha_i >= alpha_j``
  (``i > j``, ``a_ij > a_ji``).

``l`` depends only on the weak order of ``alpha``, and a tie between ``i < j`` costs the
same as placing ``j`` strictly before ``i``; so the infimum is a minimum over the ``m!``
strict orders.  Scores ``alpha`` are sequences with ``alpha[0] = alpha_1``; entries are
exact (floats refused).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from symcal.errors import BackendFailure, invalid
from symcal.exact import fraction_str, to_fraction
from symcal.ranking._check import CheckResult
from symcal.ranking.difference import difference_cycle
from symcal.ranking.feedback_arc_set import (
    _brute_force,
    _check_order,
    _integer_matrix,
    min_feedback_arc_set,
)
from symcal.ranking.preference import MAX_M, Weights, as_weights, format_cycle

__all__ = [
    "MinRisk",
    "OrderConstraint",
    "pairwise_loss",
    "conditional_risk",
    "min_conditional_risk",
    "in_optimal_set",
    "optimal_set_description",
    "in_lemma16_set",
    "scores_from_order",
    "exact_scores",
    "BRUTE_FORCE_RISK_MAX_M",
]

BRUTE_FORCE_RISK_MAX_M = 7


class MinRisk(NamedTuple):
    """``min_alpha l(p, alpha)`` (Duchi et al. 2010, Eq. (8)) and one order attaining it
    (best first)."""

    value: Fraction
    order: tuple[int, ...]


@dataclass(frozen=True)
class OrderConstraint:
    """One constraint of Lemma 16's description of ``A(p)``: ``alpha_i > alpha_j`` when
    ``strict`` (``i < j``), else ``alpha_i >= alpha_j`` (``i > j``)."""

    i: int
    j: int
    strict: bool

    def holds(self, alpha: Sequence[Fraction]) -> bool:
        x, y = alpha[self.i - 1], alpha[self.j - 1]
        return x > y if self.strict else x >= y

    def __str__(self) -> str:
        return f"alpha_{self.i} {'>' if self.strict else '>='} alpha_{self.j}"


def exact_scores(alpha: Any, m: int, param: str = "alpha") -> tuple[Fraction, ...]:
    """Validate scores ``alpha`` (length ``m``, ``alpha[0] = alpha_1``) as exact numbers
    (the score vector of Duchi et al. 2010, Section 1)."""
    if isinstance(alpha, (str, bytes)) or not hasattr(alpha, "__len__"):
        raise invalid(param, alpha, f"a sequence of {m} exact scores")
    if len(alpha) != m:
        raise invalid(param, list(alpha), f"a sequence of {m} scores (one per result), got {len(alpha)}")
    return tuple(to_fraction(v, f"{param}[{k}]") for k, v in enumerate(alpha, start=1))


def _risk(m: int, a: Weights, alpha: tuple[Fraction, ...]) -> Fraction:
    total = Fraction(0)
    for (i, j), w in a.items():
        if not w:
            continue
        if i < j:
            if alpha[i - 1] <= alpha[j - 1]:
                total += w
        elif alpha[i - 1] < alpha[j - 1]:
            total += w
    return total


def pairwise_loss(alpha: Any, graph: Any) -> Fraction:
    """``L(alpha, G)`` of Duchi et al. 2010, Eq. (7), exactly.  ``graph`` is a
    :class:`PreferenceGraph` (or any weights :func:`as_weights` takes)."""
    m, a = as_weights(graph, param="graph")
    return _risk(m, a, exact_scores(alpha, m))


def conditional_risk(weights: Any, alpha: Any, m: int | None = None) -> Fraction:
    """``l(p, alpha)`` of Duchi et al. 2010, Eq. (8), exactly."""
    m, a = as_weights(weights, m)
    return _risk(m, a, exact_scores(alpha, m))


def min_conditional_risk(weights: Any, m: int | None = None) -> MinRisk:
    """``min_alpha l(p, alpha)`` of Eq. (8) and an optimal order (Duchi et al. 2010,
    Eq. (5) and Lemma 7).

    Ties never help (a tie costs what one strict order costs), so the minimum is over
    permutations: exhaustive search for ``m <= 7`` (the lexicographically first optimal
    order), the exact feedback arc set solver beyond; an uncertified solver answer
    raises :class:`~symcal.errors.BackendFailure` rather than being returned as a minimum.
    """
    m, a = as_weights(weights, m)
    if m <= BRUTE_FORCE_RISK_MAX_M:
        mat, scale = _integer_matrix(m, a)
        best, cost = _brute_force(mat, list(range(m)))
        return MinRisk(Fraction(cost, scale), tuple(v + 1 for v in best))
    fas = min_feedback_arc_set(a, m)
    if not fas.certified:
        raise BackendFailure(f"minimum of l(p, alpha) not certified for m={m}: {fas.method}")
    return MinRisk(fas.weight, fas.order)


def _lemma16_constraints(a: Weights) -> tuple[OrderConstraint, ...]:
    out = [OrderConstraint(i, j, i < j) for (i, j), w in sorted(a.items()) if w > a[(j, i)]]
    return tuple(out)


def optimal_set_description(weights: Any, m: int | None = None) -> tuple[OrderConstraint, ...]:
    """Lemma 16 of Duchi et al. 2010: when the difference graph is a DAG,
    ``A(p) = {alpha : alpha_i > alpha_j for i < j with a_ij > a_ji,
    alpha_i >= alpha_j for i > j with a_ij > a_ji}``; returns those constraints.
    A difference graph with a cycle is refused, naming the cycle (then ``A(p)`` is not
    this set, which is empty)."""
    m, a = as_weights(weights, m)
    cycle = difference_cycle(a, m)
    if cycle is not None:
        raise invalid(
            "weights",
            {f"a[{i},{j}]": fraction_str(w) for (i, j), w in sorted(a.items()) if w},
            f"weights whose difference graph is a DAG (Lemma 16); it has the cycle {format_cycle(cycle)}",
            "use in_optimal_set, which compares l(p, alpha) with its minimum",
        )
    return _lemma16_constraints(a)


def in_lemma16_set(weights: Any, alpha: Any, m: int | None = None) -> bool:
    """Whether ``alpha`` satisfies every constraint of Lemma 16's set (Duchi et al. 2010,
    Lemma 16); the set equals ``A(p)`` exactly when the difference graph is a DAG and is
    empty otherwise."""
    m, a = as_weights(weights, m)
    x = exact_scores(alpha, m)
    return all(c.holds(x) for c in _lemma16_constraints(a))


def in_optimal_set(weights: Any, alpha: Any, m: int | None = None) -> CheckResult:
    """Is ``alpha`` in ``A(p)`` of Duchi et al. 2010, Eq. (5), i.e. does it attain
    ``min l(p, alpha)``?  The witness gives both risks and an optimal order; when the
    difference graph is a DAG, ``violations`` lists the broken Lemma 16 constraints."""
    m, a = as_weights(weights, m)
    x = exact_scores(alpha, m)
    risk = _risk(m, a, x)
    best = min_conditional_risk(a, m)
    witness = {
        "risk": risk,
        "min_risk": best.value,
        "excess": risk - best.value,
        "optimal_order": best.order,
    }
    if risk == best.value:
        return CheckResult(True, f"alpha is in A(p): l(p, alpha) = {fraction_str(risk)} is the minimum", witness)
    broken: tuple[OrderConstraint, ...] = ()
    if difference_cycle(a, m) is None:
        broken = tuple(c for c in _lemma16_constraints(a) if not c.holds(x))
    reason = (
        f"alpha is not in A(p): l(p, alpha) = {fraction_str(risk)} > "
        f"min = {fraction_str(best.value)} (attained by the order {best.order})"
    )
    if broken:
        reason += "; it breaks " + ", ".join(str(c) for c in broken)
    return CheckResult(False, reason, witness, broken)


def scores_from_order(order: Any) -> tuple[Fraction, ...]:
    """Exact scores realising ``order`` (best first): the first node gets ``m``, the last
    ``1``; ``alpha[v - 1]`` is node ``v``'s score.  (Duchi et al. 2010, Eq. (8): the loss
    depends only on the order of ``alpha``.)"""
    try:
        seq = list(itertools.islice(order, MAX_M + 1))  # an endless iterator stops here
    except TypeError:
        raise invalid("order", order, "a permutation of 1..m (best first)") from None
    if len(seq) > MAX_M:
        raise invalid("order", order, f"a permutation of 1..m with m <= {MAX_M:,}")
    if not seq:
        raise invalid("order", seq, "a non-empty permutation of 1..m (best first)")
    seq = list(_check_order(seq, len(seq)))
    m = len(seq)
    alpha = [Fraction(0)] * m
    for pos, v in enumerate(seq):
        alpha[v - 1] = Fraction(m - pos)
    return tuple(alpha)
