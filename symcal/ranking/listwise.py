"""The top-k ranking framework of Xia, Liu & Li (2009) and its listwise surrogates.

* distributions over permutations (exact Fractions): :class:`PermutationDistribution`;
* top-k subgroups ``G_k(j_1..j_k) = {y : y(t) = j_t, t = 1..k}`` (Section 3.2) and their
  probabilities (footnote 2: the sum over the subgroup): :func:`subgroup_probabilities`;
* the top-k true loss (5), its conditional risk (6) and the top-k Bayes ranker (7):
  :func:`topk_loss`, :func:`topk_risk`, :func:`bayes_ranker`;
* Definition 2 (order-preserving top-k subgroup probability space) as a verdict with the
  violating pair: :func:`is_order_preserving`;
* the listwise surrogates of Section 4.3 -- ListMLE (9), top-k ListMLE (10), RankCosine (11)
  with the original and the modified mapping psi_y, ListNet (12) with the original and the
  modified mapping and Cao et al.'s top-k Luce version (footnote 4) -- their values,
  gradients, conditional risks Q(p, g) (8) and numeric minimisers (labelled numeric);
* Definition 3 (top-k subgroup order sensitivity) checked at given score vectors with
  rigorous interval arithmetic (mpmath ``iv``): a violation is certified when the enclosures
  are disjoint; "no violation at these points" is evidence, never a proof for all g:
  :func:`check_order_sensitivity`.

Conventions: objects and positions are 1-based; ``g[0]`` is ``g_1``; a permutation is an
ordering ``(y(1), ..., y(n))`` (see :mod:`symcal.ranking.permutations`).  The mapping
``psi`` of RankCosine/ListNet is given per *position*: the object at position s gets score
``psi[s - 1]``.  Luce (Plackett-Luce) top-m probability of an ordering ``y`` under scores g:
``prod_{s=1}^{m} exp(g_{y(s)}) / sum_{r >= s} exp(g_{y(r)})``; with ``t_i = exp(g_i)`` it is a
rational function of t (:func:`luce_probability` evaluates it exactly).
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction
from symcal.ranking._check import CheckResult
from symcal.ranking.permutations import (
    Permutation,
    as_permutation,
    check_n,
    check_object,
    permutations,
    swap_scores,
)

__all__ = [
    "PermutationDistribution",
    "check_k",
    "subgroups",
    "subgroup_of",
    "subgroup_probabilities",
    "subgroup_probability",
    "same_subgroup_after_swap",
    "topk_loss",
    "topk_risk",
    "BayesRanker",
    "bayes_ranker",
    "is_order_preserving",
    "order_preserving_pairs",
    "luce_probability",
    "Surrogate",
    "listmle",
    "rank_cosine",
    "listnet",
    "listnet_topk_cao",
    "original_psi",
    "modified_psi",
    "conditional_risk",
    "conditional_risk_gradient",
    "NumericMinimiser",
    "minimise_conditional_risk",
    "SensitivityResult",
    "check_order_sensitivity",
    "interval_difference",
]


# ---------------------------------------------------------------------------------------
# Distributions over permutations, top-k subgroups, the true loss and the Bayes ranker
# ---------------------------------------------------------------------------------------


def check_k(k: Any, n: int, param: str = "k") -> int:
    """``k`` as an int in ``1..n``."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
        raise invalid(param, k, f"an integer in 1..{n} (the number of objects n = {n})")
    return k


class PermutationDistribution:
    """``P(y | x)`` over the permutations of ``1..n``, exact.

    Built from a mapping ``permutation -> probability`` (permutations as orderings, tuples or
    strings such as ``'312'``; probabilities as ints, Fractions or ``'p/q'`` strings).
    Permutations not listed have probability 0.  Probabilities must be >= 0 and sum to 1.
    """

    def __init__(self, probabilities: Mapping[Any, Any], n: int | None = None) -> None:
        if not isinstance(probabilities, Mapping) or not probabilities:
            raise invalid("probabilities", probabilities, "a non-empty mapping permutation -> probability")
        probs: dict[Permutation, Fraction] = {}
        for key, value in probabilities.items():
            y = as_permutation(key, n, "permutation")
            if n is None:
                n = y.n
            if y in probs:
                raise invalid("permutation", key, "each permutation listed once")
            p = to_fraction(value, f"p[{y.key()}]")
            if p < 0:
                raise invalid(f"p[{y.key()}]", fraction_str(p), "a probability >= 0")
            probs[y] = p
        total = sum(probs.values(), Fraction(0))
        if total != 1:
            raise invalid("probabilities", f"sum = {fraction_str(total)}", "probabilities that sum to 1",
                          "rescale them or add the missing permutations")
        assert n is not None
        self.n: int = n
        self._p = {y: p for y, p in probs.items() if p != 0}

    @classmethod
    def uniform(cls, n: int) -> PermutationDistribution:
        perms = list(permutations(n))
        return cls({y: Fraction(1, len(perms)) for y in perms})

    def __getitem__(self, y: Any) -> Fraction:
        return self._p.get(as_permutation(y, self.n), Fraction(0))

    def support(self) -> list[tuple[Permutation, Fraction]]:
        """The permutations with positive probability, in lexicographic order."""
        return sorted(self._p.items())

    def items(self) -> list[tuple[Permutation, Fraction]]:
        """Every permutation of ``1..n`` with its probability (zeros included)."""
        return [(y, self._p.get(y, Fraction(0))) for y in permutations(self.n)]

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "permutations": [{"order": list(y.order), "p": fraction_str(p)}
                                              for y, p in self.support()]}

    def __repr__(self) -> str:
        body = ", ".join(f"{y.key()}: {fraction_str(p)}" for y, p in self.support())
        return f"PermutationDistribution({{{body}}})"


def subgroups(n: int, k: int) -> list[tuple[int, ...]]:
    """The keys ``(j_1, ..., j_k)`` of all top-k subgroups ``G_k`` of ``S_n`` (lexicographic)."""
    check_n(n)
    check_k(k, n)
    return list(itertools.permutations(range(1, n + 1), k))


def subgroup_of(y: Any, k: int) -> tuple[int, ...]:
    """The key ``(y(1), ..., y(k))`` of the top-k subgroup containing ``y``."""
    perm = as_permutation(y)
    return perm.top(check_k(k, perm.n))


def subgroup_probabilities(p: PermutationDistribution, k: int) -> dict[tuple[int, ...], Fraction]:
    """``P(G_k(j_1..j_k))`` for every subgroup: the sum of the probabilities of its
    permutations (footnote 2 of Xia et al. 2009)."""
    _check_distribution(p)
    check_k(k, p.n)
    out = {key: Fraction(0) for key in subgroups(p.n, k)}
    for y, prob in p.support():
        out[y.order[:k]] += prob
    return out


def subgroup_probability(p: PermutationDistribution, key: Sequence[int]) -> Fraction:
    """``P(G_k(j_1, ..., j_k))`` for ``key = (j_1, ..., j_k)`` with distinct objects."""
    _check_distribution(p)
    key = tuple(key)
    k = check_k(len(key), p.n, "len(key)")
    for x in key:
        check_object(x, p.n, "key")
    if len(set(key)) != k:
        raise invalid("key", key, "distinct objects (a top-k subgroup lists k different objects)")
    return subgroup_probabilities(p, k)[key]


def same_subgroup_after_swap(y: Permutation, i: int, j: int, k: int) -> bool:
    """``G_k(y) = G_k(sigma_{i,j}^{-1} y)``: true exactly when neither i nor j is in the top k."""
    return y.position_of(i) > k and y.position_of(j) > k


def topk_loss(predicted: Any, truth: Any, k: int) -> int:
    """Eq. (5): 0 when ``predicted(t) = truth(t)`` for every t = 1..k, else 1."""
    yhat = as_permutation(predicted, None, "predicted")
    y = as_permutation(truth, yhat.n, "truth")
    check_k(k, y.n)
    return 0 if yhat.order[:k] == y.order[:k] else 1


def topk_risk(p: PermutationDistribution, predicted: Any, k: int) -> Fraction:
    """The conditional top-k risk (6) of predicting ``predicted``: ``sum_y p_y l_k(predicted, y)``."""
    _check_distribution(p)
    yhat = as_permutation(predicted, p.n, "predicted")
    check_k(k, p.n)
    return sum((prob * topk_loss(yhat, y, k) for y, prob in p.support()), Fraction(0))


@dataclass(frozen=True)
class BayesRanker:
    """Eq. (7): the most probable top-k subgroups, their probability, and one permutation
    of the first (lexicographically smallest) of them."""

    k: int
    subgroups: tuple[tuple[int, ...], ...]
    probability: Fraction
    ranker: Permutation
    risk: Fraction

    @property
    def unique(self) -> bool:
        return len(self.subgroups) == 1


def bayes_ranker(p: PermutationDistribution, k: int) -> BayesRanker:
    """The top-k Bayes ranker (7): any permutation in a top-k subgroup of highest probability.
    Its risk is ``1 - max_G P(G)``."""
    probs = subgroup_probabilities(p, k)
    best = max(probs.values())
    keys = tuple(key for key, v in probs.items() if v == best)
    rest = [x for x in range(1, p.n + 1) if x not in keys[0]]
    ranker = Permutation(keys[0] + tuple(rest))
    return BayesRanker(k, keys, best, ranker, 1 - best)


def is_order_preserving(p: PermutationDistribution, k: int, i: int, j: int) -> CheckResult:
    """Definition 2: the top-k subgroup probability space is order preserving with respect
    to objects i and j when ``P(G_k(y)) > P(G_k(sigma_{i,j}^{-1} y))`` for every ``y`` in
    ``Y_{i,j}`` whose subgroup changes under the swap.  The witness is the first violating
    pair (lexicographic) with both probabilities."""
    _check_distribution(p)
    check_k(k, p.n)
    check_object(i, p.n, "i")
    check_object(j, p.n, "j")
    if i == j:
        raise invalid("j", j, f"an object different from i = {i}")
    probs = subgroup_probabilities(p, k)
    violations = []
    compared = 0
    for y in permutations(p.n):
        if not y.ranks_before(i, j) or same_subgroup_after_swap(y, i, j, k):
            continue
        compared += 1
        z = y.swap_objects(i, j)
        a, b = probs[y.order[:k]], probs[z.order[:k]]
        if not a > b:
            violations.append({"y": str(y), "swapped": str(z), "G_k(y)": y.order[:k], "G_k(swapped)": z.order[:k],
                               "P(G_k(y))": fraction_str(a), "P(G_k(swapped))": fraction_str(b)})
    if violations:
        w = violations[0]
        ga = f"G_{k}({', '.join(map(str, w['G_k(y)']))})"
        gb = f"G_{k}({', '.join(map(str, w['G_k(swapped)']))})"
        return CheckResult(False, f"not order preserving w.r.t. ({i}, {j}) at k = {k}: P({ga}) = "
                                  f"{w['P(G_k(y))']} is not > P({gb}) = {w['P(G_k(swapped))']} "
                                  f"(y = {w['y']})", w, tuple(violations))
    return CheckResult(True, f"order preserving w.r.t. ({i}, {j}) at k = {k}: {compared} subgroup pairs compared",
                       {"pairs_compared": compared})


def order_preserving_pairs(p: PermutationDistribution, k: int) -> list[tuple[int, int]]:
    """Every ordered pair (i, j) w.r.t. which the top-k space is order preserving."""
    return [(i, j) for i in range(1, p.n + 1) for j in range(1, p.n + 1)
            if i != j and is_order_preserving(p, k, i, j).holds]


def _check_distribution(p: Any) -> None:
    if not isinstance(p, PermutationDistribution):
        raise invalid("p", p, "a PermutationDistribution (build one from {permutation: probability})")


# ---------------------------------------------------------------------------------------
# Arithmetic: floats (numeric) or rigorous intervals (mpmath iv) at exact points
# ---------------------------------------------------------------------------------------


class _FloatArith:
    name = "float"

    @staticmethod
    def num(x: Any) -> float:
        return float(x)

    exp = staticmethod(math.exp)
    log = staticmethod(math.log)
    sqrt = staticmethod(math.sqrt)


class _IntervalArith:
    name = "interval"

    def __init__(self) -> None:
        from mpmath import iv

        self.iv = iv

    def num(self, x: Any) -> Any:
        q = to_fraction(x, "g")
        return self.iv.mpf(q.numerator) / self.iv.mpf(q.denominator)

    def exp(self, x: Any) -> Any:
        return self.iv.exp(x)

    def log(self, x: Any) -> Any:
        return self.iv.log(x)

    def sqrt(self, x: Any) -> Any:
        return self.iv.sqrt(x)


class _SympyArith:
    """Exact symbolic values (for the zero test of an equality an enclosure cannot decide)."""

    name = "sympy"

    @staticmethod
    def num(x: Any) -> Any:
        import sympy

        q = to_fraction(x, "g")
        return sympy.Rational(q.numerator, q.denominator)

    @staticmethod
    def exp(x: Any) -> Any:
        import sympy

        return sympy.exp(x)

    @staticmethod
    def log(x: Any) -> Any:
        import sympy

        return sympy.log(x)

    @staticmethod
    def sqrt(x: Any) -> Any:
        import sympy

        return sympy.sqrt(x)


def _exact_equal(phi: Any, g: Sequence[Fraction], left: tuple[Sequence[Fraction], Sequence[int]],
                 right: tuple[Sequence[Fraction], Sequence[int]]) -> tuple[int | None, str]:
    """The sign of phi(left) - phi(right) by the one exact zero test (symcal.exact.sign): 0 only
    for a formal zero, +-1 only by exact evaluation or a rigorous enclosure, else None."""
    from symcal.exact import CpuBudget, sign

    ar = _SympyArith()
    a = phi._value(ar, [ar.num(v) for v in left[0]], left[1])
    b = phi._value(ar, [ar.num(v) for v in right[0]], right[1])
    res = sign(a - b, deadline=CpuBudget(10.0))
    return res.value, str(res)


def _arith(arithmetic: str) -> Any:
    if arithmetic == "float":
        return _FloatArith()
    if arithmetic == "interval":
        return _IntervalArith()
    raise invalid("arithmetic", arithmetic, "'float' (numeric) or 'interval' (rigorous, exact inputs)")


def luce_probability(t: Sequence[Any], y: Any, m: int | None = None) -> Any:
    """The Luce top-m probability of ordering ``y`` with positive weights ``t_i = exp(g_i)``:
    ``prod_{s=1}^{m} t_{y(s)} / sum_{r >= s} t_{y(r)}`` (Eq. (9) for m = n, Eq. (10) for
    m = k).  Exact for Fractions (floats refused) and symbolic for sympy expressions."""
    perm = as_permutation(y)
    if len(t) != perm.n:
        raise invalid("t", tuple(t), f"{perm.n} positive weights t_i = exp(g_i)")
    m = perm.n if m is None else check_k(m, perm.n, "m")
    ts: list[Any] = []
    for idx, v in enumerate(t, start=1):
        if hasattr(v, "free_symbols") and v.free_symbols:
            ts.append(v)
            continue
        q = to_fraction(v, f"t[{idx}]")
        if q <= 0:
            raise invalid(f"t[{idx}]", fraction_str(q), "a positive weight t_i = exp(g_i) > 0")
        ts.append(q)
    prob: Any = Fraction(1)
    for s in range(m):
        denom = sum((ts[perm.order[r] - 1] for r in range(s, perm.n)), Fraction(0))
        prob = prob * ts[perm.order[s] - 1] / denom
    return prob


def _log_luce(ar: Any, e: Sequence[Any], order: Sequence[int], m: int) -> Any:
    """log of the Luce top-m probability with weights e (already exponentiated)."""
    total: Any = 0
    n = len(order)
    for s in range(m):
        denom = e[order[s] - 1]
        for r in range(s + 1, n):
            denom = denom + e[order[r] - 1]
        total = total + ar.log(e[order[s] - 1]) - ar.log(denom)
    return total


def _grad_neg_log_luce(e: Sequence[Any], order: Sequence[int], m: int) -> list[Any]:
    """Gradient in g of ``-log`` Luce top-m probability: ``-[pos(i) <= m] + sum_{s <= min(pos(i), m)}
    t_i / D_s`` with ``D_s = sum_{r >= s} t_{y(r)}``."""
    n = len(order)
    grad: list[Any] = [0] * n
    suffix: list[Any] = [0] * (n + 1)
    acc: Any = 0
    for s in range(n - 1, -1, -1):
        acc = e[order[s] - 1] + acc
        suffix[s] = acc
    for s in range(m):
        grad[order[s] - 1] = grad[order[s] - 1] - 1
        for r in range(s, n):
            obj = order[r]
            grad[obj - 1] = grad[obj - 1] + e[obj - 1] / suffix[s]
    return grad


# ---------------------------------------------------------------------------------------
# Surrogates
# ---------------------------------------------------------------------------------------


def original_psi(n: int) -> tuple[Fraction, ...]:
    """A strictly decreasing mapping psi (Eq. (11)): the object at position s gets n + 1 - s."""
    check_n(n)
    return tuple(Fraction(n + 1 - s) for s in range(1, n + 1))


def modified_psi(n: int, k: int, eps: Any = 0) -> tuple[Fraction, ...]:
    """Section 4.3.2's modified mapping: the top k positions keep decreasing scores
    (n + 1 - s), the remaining positions all get ``eps`` (smaller than every top-k score)."""
    check_n(n)
    check_k(k, n)
    e = to_fraction(eps, "eps")
    if not e < n + 1 - k:
        raise invalid("eps", fraction_str(e), f"a value smaller than the top-k scores (< {n + 1 - k})")
    return tuple(Fraction(n + 1 - s) if s <= k else e for s in range(1, n + 1))


def _check_psi(psi: Any, n: int) -> tuple[Fraction, ...]:
    if not isinstance(psi, Sequence) or len(psi) != n:
        raise invalid("psi", psi, f"{n} scores, one per position (best first)")
    vals = tuple(to_fraction(v, f"psi[{s}]") for s, v in enumerate(psi, start=1))
    if any(vals[s] < vals[s + 1] for s in range(n - 1)):
        raise invalid("psi", tuple(fraction_str(v) for v in vals), "scores that do not increase with the position")
    return vals


@dataclass(frozen=True)
class Surrogate:
    """A listwise surrogate ``phi(g, y)`` on n objects.

    ``family`` is one of ``listmle`` (Luce top-``m`` likelihood, Eqs. (9)/(10)), ``cosine``
    (Eq. (11)), ``listnet`` (KL divergence between full Luce distributions, Eq. (12)) and
    ``listnet_cao`` (KL divergence between top-``m`` Luce subgroup distributions, footnote 4).
    ``m`` is the depth of the Luce model (n for full); ``psi`` the per-position mapping.
    """

    name: str
    family: str
    n: int
    m: int
    psi: tuple[Fraction, ...] | None = None
    note: str = ""
    _perms: tuple[tuple[int, ...], ...] = field(default=(), repr=False, compare=False)

    # -- values ---------------------------------------------------------------------
    def value(self, g: Sequence[Any], y: Any, *, arithmetic: str = "float") -> Any:
        """``phi(g, y)``; ``arithmetic='interval'`` gives a rigorous enclosure at exact g."""
        ar = _arith(arithmetic)
        gv = self._scores(g, ar)
        order = as_permutation(y, self.n).order
        return self._value(ar, gv, order)

    def gradient(self, g: Sequence[Any], y: Any, *, arithmetic: str = "float") -> list[Any]:
        """``(d phi(g, y) / d g_i)_i``."""
        ar = _arith(arithmetic)
        gv = self._scores(g, ar)
        order = as_permutation(y, self.n).order
        return self._gradient(ar, gv, order)

    def _scores(self, g: Sequence[Any], ar: Any) -> list[Any]:
        if isinstance(g, str | bytes) or not isinstance(g, Sequence) or len(g) != self.n:
            raise invalid("g", g, f"a score vector of length n = {self.n}")
        if ar.name == "interval":
            return [ar.num(to_fraction(v, f"g[{i}]")) for i, v in enumerate(g, start=1)]
        out = []
        for i, v in enumerate(g, start=1):
            x = float(to_fraction(v, f"g[{i}]", allow_float=True))
            out.append(x)
        return out

    def _exp_shifted(self, ar: Any, gv: list[Any]) -> list[Any]:
        if ar.name == "float":
            top = max(gv)
            return [math.exp(v - top) for v in gv]
        return [ar.exp(v) for v in gv]

    def _psi_scores(self, order: Sequence[int]) -> list[Fraction]:
        assert self.psi is not None
        s = [Fraction(0)] * self.n
        for pos, obj in enumerate(order):
            s[obj - 1] = self.psi[pos]
        return s

    def _value(self, ar: Any, gv: list[Any], order: Sequence[int]) -> Any:
        if self.family == "listmle":
            return -_log_luce(ar, self._exp_shifted(ar, gv), order, self.m)
        if self.family == "cosine":
            psi = [ar.num(v) for v in self._psi_scores(order)]
            dot = sum((a * b for a, b in zip(psi, gv, strict=True)), ar.num(0))
            npsi = ar.sqrt(sum((a * a for a in psi), ar.num(0)))
            ng2 = sum((b * b for b in gv), ar.num(0))
            if ar.name == "float" and ng2 == 0:
                raise invalid("g", tuple(gv), "a non-zero score vector (the cosine loss is undefined at g = 0)")
            return (1 - dot / (npsi * ar.sqrt(ng2))) / 2
        # listnet / listnet_cao: KL(P_psi || P_g) over orderings (m = n) or top-m subgroups
        psi_e = [ar.exp(ar.num(v)) for v in self._psi_scores(order)]
        ge = self._exp_shifted(ar, gv)
        total: Any = ar.num(0)
        for pi in self._orderings():
            lp = _log_luce(ar, psi_e, pi, self.m)
            lq = _log_luce(ar, ge, pi, self.m)
            total = total + ar.exp(lp) * (lp - lq)
        return total

    def _orderings(self) -> Iterable[tuple[int, ...]]:
        """Representatives of the outcomes of the Luce model of depth m: one ordering per
        top-m subgroup (the remaining objects in increasing order)."""
        if self.m >= self.n - 1:
            return itertools.permutations(range(1, self.n + 1))
        reps = []
        for key in itertools.permutations(range(1, self.n + 1), self.m):
            rest = tuple(x for x in range(1, self.n + 1) if x not in key)
            reps.append(key + rest)
        return reps

    def _gradient(self, ar: Any, gv: list[Any], order: Sequence[int]) -> list[Any]:
        if self.family == "listmle":
            return _grad_neg_log_luce(self._exp_shifted(ar, gv), order, self.m)
        if self.family == "cosine":
            psi = [ar.num(v) for v in self._psi_scores(order)]
            dot = sum((a * b for a, b in zip(psi, gv, strict=True)), ar.num(0))
            npsi = ar.sqrt(sum((a * a for a in psi), ar.num(0)))
            ng2 = sum((b * b for b in gv), ar.num(0))
            ng = ar.sqrt(ng2)
            # d/dg_i of -(1/2) psi.g / (|psi| |g|) = -(1/2) (psi_i |g|^2 - (psi.g) g_i) / (|psi| |g|^3)
            return [-(psi[i] * ng2 - dot * gv[i]) / (2 * npsi * ng2 * ng) for i in range(self.n)]
        psi_e = [ar.exp(ar.num(v)) for v in self._psi_scores(order)]
        ge = self._exp_shifted(ar, gv)
        grad: list[Any] = [ar.num(0)] * self.n
        for pi in self._orderings():
            w = ar.exp(_log_luce(ar, psi_e, pi, self.m))
            gpi = _grad_neg_log_luce(ge, pi, self.m)
            grad = [a + w * b for a, b in zip(grad, gpi, strict=True)]
        return grad


def listmle(n: int, k: int | None = None) -> Surrogate:
    """ListMLE's likelihood loss (9) (``k=None``: the full Luce model) or top-k ListMLE (10):
    ``phi(g, y) = -log prod_{i=1}^{k} exp(g_{y(i)}) / sum_{t=i}^{n} exp(g_{y(t)})``."""
    check_n(n, at_least=2)
    m = n if k is None else check_k(k, n)
    name = "ListMLE (9)" if k is None or k >= n else f"top-{k} ListMLE (10)"
    return Surrogate(name, "listmle", n, m)


def rank_cosine(n: int, k: int | None = None, *, psi: Sequence[Any] | None = None, eps: Any = 0) -> Surrogate:
    """RankCosine's cosine loss (11) ``(1/2)(1 - psi_y . g / (|psi_y| |g|))``: ``k=None`` with
    the original strictly decreasing mapping (:func:`original_psi` unless ``psi`` is given),
    or the modified mapping of Section 4.3.2 (:func:`modified_psi` with ``eps``)."""
    return _psi_surrogate("RankCosine (11)", "cosine", n, k, psi, eps)


def _psi_surrogate(name: str, kind: str, n: int, k: int | None, psi: Sequence[Any] | None, eps: Any) -> Surrogate:
    """A surrogate built on a mapping psi: ``psi`` if given, else the original mapping
    (``k=None``) or the modified top-``k`` mapping with ``eps``; its name says which."""
    check_n(n, at_least=2)
    if k is None:
        vals = _check_psi(psi if psi is not None else original_psi(n), n)
        return Surrogate(f"{name}, original psi", kind, n, n, vals)
    check_k(k, n)
    vals = _check_psi(psi if psi is not None else modified_psi(n, k, eps), n)
    return Surrogate(f"{name}, top-{k} modified psi", kind, n, n, vals)


def listnet(n: int, k: int | None = None, *, psi: Sequence[Any] | None = None, eps: Any = 0) -> Surrogate:
    """ListNet's cross-entropy loss (12) as ``KL(P(pi; psi_y) || P(pi; g))`` over full Luce
    permutation probabilities, with the original mapping (``k=None``) or the modified mapping
    of Section 4.3.3 (top k ordered, the rest ``eps``)."""
    return _psi_surrogate("ListNet (12)", "listnet", n, k, psi, eps)


def listnet_topk_cao(n: int, k: int, *, psi: Sequence[Any] | None = None) -> Surrogate:
    """Cao et al.'s top-k cross entropy (footnote 4): KL between the top-k Luce subgroup
    distributions of ``psi_y`` (original mapping) and of ``g``."""
    check_n(n, at_least=2)
    check_k(k, n)
    vals = _check_psi(psi if psi is not None else original_psi(n), n)
    return Surrogate(f"Cao et al. top-{k} ListNet (footnote 4)", "listnet_cao", n, k, vals)


# ---------------------------------------------------------------------------------------
# Conditional risk (8) and its numeric minimiser
# ---------------------------------------------------------------------------------------


def _check_pair(p: Any, phi: Any) -> None:
    _check_distribution(p)
    if not isinstance(phi, Surrogate):
        raise invalid("phi", phi, "a Surrogate (listmle(n, k), rank_cosine(...), listnet(...), listnet_topk_cao(...))")
    if phi.n != p.n:
        raise invalid("phi", phi.name, f"a surrogate on n = {p.n} objects (it has n = {phi.n})")


def conditional_risk(p: PermutationDistribution, g: Sequence[Any], phi: Surrogate, *,
                     arithmetic: str = "float") -> Any:
    """Eq. (8): ``Q(p, g) = sum_y p_y phi(g, y)``; ``arithmetic='interval'`` encloses it
    rigorously at exact g (floats refused there)."""
    _check_pair(p, phi)
    ar = _arith(arithmetic)
    gv = phi._scores(g, ar)
    total: Any = ar.num(0)
    for y, prob in p.support():
        total = total + ar.num(prob) * phi._value(ar, gv, y.order)
    return total


def conditional_risk_gradient(p: PermutationDistribution, g: Sequence[Any], phi: Surrogate) -> list[float]:
    """``grad_g Q(p, g)`` (floats)."""
    _check_pair(p, phi)
    ar = _FloatArith()
    gv = phi._scores(g, ar)
    grad = [0.0] * phi.n
    for y, prob in p.support():
        gy = phi._gradient(ar, gv, y.order)
        grad = [a + float(prob) * b for a, b in zip(grad, gy, strict=True)]
    return grad


@dataclass(frozen=True)
class NumericMinimiser:
    """A numeric minimiser of ``Q(p, .)`` (never a proof).  ``g`` is normalised (shifted so
    that min g = 0 for Luce-type losses, scaled to unit norm for the cosine loss);
    ``order`` sorts it (best first); ``top_k_gap`` is the smallest gap between consecutive
    scores among the top k + 1 (the margin by which the top-k order is determined)."""

    g: tuple[float, ...]
    value: float
    gradient_norm: float
    order: Permutation
    success: bool
    method: str

    def top(self, k: int) -> tuple[int, ...]:
        return self.order.order[:k]

    def gap(self, i: int, j: int) -> float:
        """``g_i - g_j``."""
        return self.g[i - 1] - self.g[j - 1]


def minimise_conditional_risk(p: PermutationDistribution, phi: Surrogate, *, starts: int = 3,
                              seed: int = 0) -> NumericMinimiser:
    """Minimise ``Q(p, g)`` numerically (scipy BFGS with the analytic gradient, several
    starts).  Labelled numeric: the result is evidence, not a proof."""
    import numpy as np
    from scipy.optimize import minimize

    _check_pair(p, phi)
    rng = np.random.default_rng(seed)

    def f(x: Any) -> float:
        return float(conditional_risk(p, list(map(float, x)), phi))

    def df(x: Any) -> Any:
        return np.array(conditional_risk_gradient(p, list(map(float, x)), phi))

    best = None
    for s in range(max(1, starts)):
        x0 = rng.normal(size=phi.n) if s else np.linspace(1.0, 0.0, phi.n) + 0.1
        with np.errstate(all="ignore"):
            res = minimize(f, x0, jac=df, method="BFGS", options={"gtol": 1e-10, "maxiter": 5000})
        if best is None or res.fun < best.fun:
            best = res
    assert best is not None
    x = np.array(best.x, dtype=float)
    if phi.family == "cosine":
        x = x / np.linalg.norm(x)
    else:
        x = x - x.min()
    order = sorted(range(1, phi.n + 1), key=lambda obj: (-x[obj - 1], obj))
    gn = float(np.linalg.norm(df(x)))
    return NumericMinimiser(tuple(float(v) for v in x), float(best.fun), gn, Permutation(tuple(order)),
                            bool(best.success) or gn < 1e-7, "scipy BFGS, analytic gradient, gtol 1e-10")


# ---------------------------------------------------------------------------------------
# Definition 3 at given points, with rigorous interval arithmetic
# ---------------------------------------------------------------------------------------


@contextlib.contextmanager
def _iv_dps(dps: int) -> Iterator[None]:
    """Work with mpmath intervals at ``dps`` decimal digits, restoring the previous setting."""
    from mpmath import iv

    old = iv.dps
    iv.dps = max(old, dps)
    try:
        yield
    finally:
        iv.dps = old


def interval_difference(a: Any, b: Any) -> tuple[int | None, str]:
    """The certified sign of ``a - b`` for two mpmath intervals: +1, -1, or None when the
    enclosure of the difference contains 0; and the enclosure as text."""
    d = a - b
    text = str(d)
    if d.a > 0:
        return 1, text
    if d.b < 0:
        return -1, text
    return None, text


@dataclass(frozen=True)
class SensitivityResult:
    """Definition 3 checked at given score vectors.

    ``holds`` is False only for a *certified* violation (disjoint interval enclosures; the
    ``witness`` names the condition, the point g, the pair (i, j), the permutation y and the
    two enclosures).  ``holds`` True means no violation at these points: evidence, never a
    proof for all g.  ``undecided`` lists comparisons the enclosures could not decide.
    """

    holds: bool
    reason: str
    witness: dict[str, Any] | None
    points: int
    comparisons: int
    undecided: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.holds


def _sensitivity_inputs(phi: Any, k: Any, points: Iterable[Sequence[Any]],
                        pairs: Iterable[tuple[int, int]] | None) -> tuple[list[tuple[Fraction, ...]], list[Any]]:
    """Validate the arguments of :func:`check_order_sensitivity`: the exact score vectors and the pairs."""
    if not isinstance(phi, Surrogate):
        raise invalid("phi", phi, "a Surrogate")
    n = phi.n
    check_k(k, n)
    pts = [tuple(to_fraction(v, f"g[{i}]") for i, v in enumerate(g, start=1)) for g in points]
    if not pts:
        raise invalid("points", [], "at least one score vector")
    for g in pts:
        if len(g) != n:
            raise invalid("points", g, f"score vectors of length n = {n}")
    every_pair = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    pair_list = list(pairs) if pairs is not None else every_pair
    for i, j in pair_list:
        check_object(i, n, "i")
        check_object(j, n, "j")
    return pts, pair_list


def _g_text(g: Sequence[Fraction]) -> list[str]:
    """A score vector as exact strings, for messages."""
    return [fraction_str(v) for v in g]


# a violation of Definition 3: the condition and its details
_Violation = tuple[str, dict[str, Any]]


@dataclass
class _Definition3:
    """The conditions of Definition 3 (top-k subgroup order sensitivity) at one score vector at a
    time, in interval arithmetic; counts the comparisons and collects the undecided ones."""

    phi: Surrogate
    k: int
    perms: list[Permutation]
    ar: Any = field(default_factory=_IntervalArith)
    comparisons: int = 0
    undecided: list[str] = field(default_factory=list)

    def at_point(self, g: tuple[Fraction, ...], pair_list: list[Any]) -> _Violation | None:
        """Non-negativity, then conditions (1) to (3) for each pair, at ``g``: the first violation."""
        phi, ar = self.phi, self.ar
        if phi.family == "cosine" and all(v == 0 for v in g):
            raise invalid("points", _g_text(g), "non-zero score vectors for the cosine loss")
        gv = [ar.num(v) for v in g]
        vals = {y: phi._value(ar, gv, y.order) for y in self.perms}
        for y, v in vals.items():
            self.comparisons += 1
            if v.b < 0:
                return "non-negativity", {"y": str(y), "phi": f"[{v.a}, {v.b}]"}
        for i, j in pair_list:
            bad = self.symmetry(g, vals, i, j)
            if bad is None and g[i - 1] < g[j - 1]:
                bad = self.ordering(g, vals, i, j)
            elif bad is None and g[i - 1] == g[j - 1]:
                bad = self.tie(g, gv, i, j)
            if bad is not None:
                return bad
        return None

    def _exact_or_undecided(self, label: str, g: tuple[Fraction, ...], pair: tuple[int, int], y: Permutation,
                            right: tuple[Sequence[Fraction], Sequence[int]]) -> tuple[int | None, str]:
        """An equality ``phi(g, y) = phi(right)`` the enclosure left open, decided by the exact zero
        test; an undecided one is listed under ``label`` and comes back as None."""
        sign, text = _exact_equal(self.phi, g, (g, y.order), right)
        if sign is None:
            self.undecided.append(f"{label} at g={_g_text(g)}, pair {pair}, y={y}: {text[:120]}")
        return sign, text

    def symmetry(self, g: tuple[Fraction, ...], vals: dict[Permutation, Any], i: int, j: int) -> _Violation | None:
        """(1) phi(g, y) = phi(sigma g, sigma y)."""
        sg_exact = swap_scores(g, i, j)
        sg = [self.ar.num(v) for v in sg_exact]
        for y in self.perms:
            if not y.ranks_before(i, j):
                continue
            z = y.swap_objects(i, j)
            self.comparisons += 1
            sign, text = interval_difference(vals[y], self.phi._value(self.ar, sg, z.order))
            if sign is None:  # equality needs an exact zero test: an enclosure cannot show it
                sign, text = self._exact_or_undecided("(1)", g, (i, j), y, (sg_exact, z.order))
                if sign is None:
                    continue
            if sign != 0:
                return "(1) symmetry", {"pair": (i, j), "y": str(y), "phi(g,y) - phi(sg,sy)": text}
        return None

    def ordering(self, g: tuple[Fraction, ...], vals: dict[Permutation, Any], i: int, j: int) -> _Violation | None:
        """(2) for ``g_i < g_j``: ``phi(g, y) >= phi(g, swapped)`` when the swap changes the top-k
        subgroup, ``=`` otherwise, and strict for at least one y."""
        strict = False
        for y in self.perms:
            if not y.ranks_before(i, j):
                continue
            z = y.swap_objects(i, j)
            self.comparisons += 1
            sign, text = interval_difference(vals[y], vals[z])
            detail = {"pair": (i, j), "y": str(y), "swapped": str(z), "phi(g,y) - phi(g,swapped)": text}
            if same_subgroup_after_swap(y, i, j, self.k):
                if sign is None:  # equality: decided only by the exact zero test
                    sign, text = self._exact_or_undecided("(2) equality", g, (i, j), y, (g, z.order))
                    if sign is None:
                        continue
                    detail["phi(g,y) - phi(g,swapped)"] = text
                if sign != 0:
                    return "(2) equality within a subgroup", detail
            elif sign == -1:
                return "(2) phi(g,y) >= phi(g,swapped)", detail
            elif sign == 1:
                strict = True
            elif sign is None:
                self.undecided.append(f"(2) at g={_g_text(g)}, pair {(i, j)}, y={y}")
        if not strict:
            self.undecided.append(f"(2) strictness at g={_g_text(g)}, pair {(i, j)}")
        return None

    def tie(self, g: tuple[Fraction, ...], gv: list[Any], i: int, j: int) -> _Violation | None:
        """(3) at a tie ``g_i = g_j``: a strict derivative inequality for some y whose subgroup changes."""
        all_fail = True
        for y in self.perms:
            if not y.ranks_before(i, j) or same_subgroup_after_swap(y, i, j, self.k):
                continue
            z = y.swap_objects(i, j)
            self.comparisons += 1
            sign, _ = interval_difference(self.phi._gradient(self.ar, gv, z.order)[i - 1],
                                          self.phi._gradient(self.ar, gv, y.order)[i - 1])
            if sign == 1:
                return None
            if sign is None:
                all_fail = False
        if all_fail:
            return "(3) strict derivative inequality at a tie", {"pair": (i, j)}
        self.undecided.append(f"(3) at g={_g_text(g)}, pair {(i, j)}")
        return None


def check_order_sensitivity(phi: Surrogate, k: int, points: Iterable[Sequence[Any]], *,
                            pairs: Iterable[tuple[int, int]] | None = None, dps: int = 30) -> SensitivityResult:
    """Check Definition 3 (top-k subgroup order sensitivity) for ``phi`` at each exact score
    vector in ``points``: non-negativity, (1) symmetry, (2) the ordering of losses for each
    pair with ``g_i < g_j`` (``>=`` when the swap changes the top-k subgroup, ``=`` otherwise,
    and strict for at least one y), and (3) at ties ``g_i = g_j``, a strict derivative
    inequality for some y whose subgroup changes.  Every inequality uses mpmath interval
    arithmetic, so a reported violation is rigorous; an equality whose enclosure contains 0 goes
    to the exact zero test (:func:`symcal.exact.sign`: equal only when formally zero), and one it
    cannot decide is listed in ``undecided``, never counted as holding."""
    pts, pair_list = _sensitivity_inputs(phi, k, points, pairs)
    d3 = _Definition3(phi, k, list(permutations(phi.n)))
    with _iv_dps(dps):
        for g in pts:
            bad = d3.at_point(g, pair_list)
            if bad is not None:
                cond, detail = bad
                w = {"condition": cond, "g": _g_text(g), **detail}
                return SensitivityResult(False, f"{phi.name} is not top-{k} order sensitive: {cond} fails at g = "
                                                f"{w['g']} ({', '.join(f'{a}={b}' for a, b in detail.items())})",
                                         w, len(pts), d3.comparisons, tuple(d3.undecided))
    reason = (f"no violation of Definition 3 (top-{k}) for {phi.name} at {len(pts)} point(s), {d3.comparisons} "
              f"interval comparisons; evidence at these points only, not a proof for all g")
    if d3.undecided:
        reason += f"; {len(d3.undecided)} comparison(s) undecided by the enclosures"
    return SensitivityResult(True, reason, None, len(pts), d3.comparisons, tuple(d3.undecided))
