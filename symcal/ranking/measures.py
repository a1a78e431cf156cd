"""Ranking performance measures of Calauzènes, Usunier & Gallinari (2013), exact.

Conventions (Section 2.1):

* items are ``1..n``; a *ranking* ``sigma`` is a tuple of the items in rank order,
  ``sigma[k-1] = sigma(k)`` is the item at rank ``k`` (rank 1 is best), ``rank_of(sigma)[i]``
  is ``sigma^{-1}(i)``;
* ``arg_sort(s)`` is the set of rankings with ``s_sigma(k) >= s_sigma(k+1)``;
* a *scoring* measure breaks ties at random: ``r(y, s)`` is the average of ``r(y, sigma)``
  over ``arg_sort(s)`` (exact Fractions), Section 2.1;
* a ``(u, phi)``-GPPM (Definition 2.1) is ``r(y, sigma) = b(y) + sum_k phi(k) u_sigma(k)(y)``
  with ``phi(1) > 0`` and ``phi`` non-increasing and non-negative (:class:`GPPM`).

Measures (Table 1): :func:`dcg`, :func:`ndcg`, :func:`err`, :func:`precision_at`,
:func:`recall_at`, :func:`average_precision`, :func:`auc`, :func:`spearman`.  Each knows
its GPPM form where it has one (``Measure.gppm``, with the b(y) derived in Appendix B.1 --
note the sign of the AUC's b) and says where it is undefined: labels with no relevant item
(NDCG, Rec@k, AP) or with all or no relevant items (AUC) raise :class:`InvalidInput` by
default; ``empty="zero"`` chooses the value 0 there instead (a documented convention, never
NaN).

The DCG discount ``phi(i) = 1/log(1+i)`` is irrational; ``discount="log2"`` (default) uses
the exact sympy value ``log(2)/log(1+i)`` (sympy expressions), and ``discount=`` any function
of the rank returning exact numbers (e.g. ``lambda i: Fraction(1, i)``) keeps everything in
Fractions.  The GPPM identities hold for every discount, so the exhaustive checks use exact
rational (or symbolic) discounts.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import invalid
from symcal.exact import to_fraction

__all__ = [
    "MAX_N",
    "check_ranking",
    "check_labels",
    "check_distribution",
    "rankings",
    "rank_of",
    "arg_sort",
    "GPPM",
    "Measure",
    "dcg",
    "ndcg",
    "err",
    "precision_at",
    "recall_at",
    "average_precision",
    "auc",
    "spearman",
    "expected_utility",
    "log2_discount",
    "MEASURES",
]

MAX_N = 8
Ranking = tuple[int, ...]
Number = Any  # Fraction, or a sympy expression for symbolic discounts


# ---------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------


def _check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_N:
        raise invalid("n", n, f"an integer number of items in 1..{MAX_N}")
    return n


def check_ranking(sigma: Any, n: int | None = None, param: str = "sigma") -> Ranking:
    """``sigma`` as a tuple of the items 1..n in rank order; repeats, gaps and non-integers
    are refused (``sigma=(1, 1, 3): item 1 appears twice``)."""
    if isinstance(sigma, str) or not isinstance(sigma, Sequence):
        raise invalid(param, sigma, "a ranking: the items 1..n in rank order, e.g. (2, 1, 3)")
    items = tuple(sigma)
    for x in items:
        if isinstance(x, bool) or not isinstance(x, int):
            raise invalid(param, items, "integer item labels 1..n")
    size = len(items) if n is None else n
    if len(items) != size:
        raise invalid(param, items, f"a ranking of {size} items")
    seen: set[int] = set()
    for x in items:
        if not 1 <= x <= size:
            raise invalid(param, items, f"items in 1..{size}", f"item {x} is out of range")
        if x in seen:
            raise invalid(param, items, "a permutation (each item exactly once)", f"item {x} appears twice")
        seen.add(x)
    return items


def check_labels(y: Any, n: int | None = None, *, grades: int | None = None, param: str = "y") -> tuple[int, ...]:
    """Relevance labels ``y in {0..grades}^n`` as a tuple of ints (``grades=1``: binary)."""
    if isinstance(y, str) or not isinstance(y, Sequence):
        raise invalid(param, y, "a sequence of integer relevance labels")
    out = []
    for v in y:
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise invalid(param, tuple(y), "non-negative integer relevance labels")
        if grades is not None and v > grades:
            raise invalid(param, tuple(y), f"labels in 0..{grades}")
        out.append(v)
    if n is not None and len(out) != n:
        raise invalid(param, tuple(out), f"{n} labels (one per item)")
    if not out:
        raise invalid(param, tuple(out), "at least one item")
    return tuple(out)


def check_distribution(dist: Any, param: str = "distribution") -> list[tuple[Any, Fraction]]:
    """A finite distribution: pairs (supervision, probability) with exact probabilities
    >= 0 summing to exactly 1 (floats refused)."""
    if isinstance(dist, dict):
        dist = list(dist.items())
    try:
        pairs = [(y, to_fraction(p, f"{param} probability of {y!r}")) for y, p in dist]
    except (TypeError, ValueError) as e:
        if isinstance(e, ValueError) and hasattr(e, "param"):
            raise
        raise invalid(param, dist, "pairs (supervision, probability)") from None
    if not pairs:
        raise invalid(param, dist, "at least one supervision with its probability")
    for y, p in pairs:
        if p < 0:
            raise invalid(f"{param} probability of {y!r}", str(p), "a probability >= 0")
    total = sum((p for _, p in pairs), Fraction(0))
    if total != 1:
        raise invalid(f"{param} probabilities", str(total), "probabilities summing to exactly 1",
                      f"they sum to {total}")
    return pairs


# ---------------------------------------------------------------------------------------
# rankings, arg sort
# ---------------------------------------------------------------------------------------


def rankings(n: int) -> Iterator[Ranking]:
    """Every ranking of items 1..n (``n!`` of them), in lexicographic order."""
    return itertools.permutations(range(1, _check_n(n) + 1))


def rank_of(sigma: Ranking) -> dict[int, int]:
    """``sigma^{-1}``: item -> its rank (1-based)."""
    return {item: k for k, item in enumerate(sigma, start=1)}


def arg_sort(scores: Sequence[Any]) -> list[Ranking]:
    """Section 2.1: every ranking sorting ``scores`` by decreasing value (ties in any order)."""
    s = [to_fraction(v, f"scores[{i + 1}]") for i, v in enumerate(scores)]
    n = len(s)
    if n == 0:
        raise invalid("scores", tuple(scores), "at least one score")
    levels = sorted(set(s), reverse=True)
    groups = [[i + 1 for i in range(n) if s[i] == v] for v in levels]
    out: list[Ranking] = [()]
    for g in groups:
        out = [r + p for r in out for p in itertools.permutations(g)]
    return out


def _sum(values: Iterable[Number]) -> Number:
    total: Number = Fraction(0)
    for v in values:
        total = total + v
    return total


# ---------------------------------------------------------------------------------------
# GPPM and measures
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GPPM:
    """A ``(u, phi)``-generalised positional performance measure (Definition 2.1):
    ``r(y, sigma) = b(y) + sum_{k=1}^n phi(k) u_{sigma(k)}(y)``."""

    n: int
    phi: tuple[Number, ...]
    u: Callable[[Any], tuple[Number, ...]]
    b: Callable[[Any], Number]
    name: str = "gppm"

    def __post_init__(self) -> None:
        if len(self.phi) != self.n:
            raise invalid("phi", self.phi, f"{self.n} discounts phi(1..n)")
        if _numeric(self.phi[0]) and not self.phi[0] > 0:
            raise invalid("phi(1)", self.phi[0], "phi(1) > 0 (Definition 2.1)")
        for k in range(self.n - 1):
            a, c = self.phi[k], self.phi[k + 1]
            if _numeric(a) and _numeric(c) and not (a >= c >= 0):
                raise invalid(f"phi({k + 2})", c, f"0 <= phi({k + 2}) <= phi({k + 1}) = {a} (Definition 2.1)")

    def __call__(self, y: Any, sigma: Ranking) -> Number:
        uy = self.u(y)
        return self.b(y) + _sum(self.phi[k] * uy[sigma[k] - 1] for k in range(self.n))


def _numeric(x: Any) -> bool:
    return isinstance(x, Fraction | int) or (isinstance(x, sympy.Basic) and x.is_number)


@dataclass(frozen=True)
class Measure:
    """A ranking performance measure ``r(y, sigma)`` on ``n`` items, its supervision space,
    and its GPPM form (Table 1) when it has one."""

    name: str
    n: int
    supervision: str
    fn: Callable[[Any, Ranking], Number]
    check_y: Callable[[Any], Any]
    gppm: GPPM | None = None

    def __call__(self, y: Any, sigma: Any) -> Number:
        """``r(y, sigma)`` for a ranking sigma (items in rank order)."""
        return self.fn(self.check_y(y), check_ranking(sigma, self.n))

    def score(self, y: Any, scores: Sequence[Any]) -> Number:
        """The scoring measure ``r(y, s)``: expectation over uniformly random tie breaks."""
        if len(scores) != self.n:
            raise invalid("scores", tuple(scores), f"{self.n} scores (one per item)")
        yy = self.check_y(y)
        sig = arg_sort(scores)
        return _sum(self.fn(yy, s) for s in sig) / len(sig)

    def expected(self, distribution: Any, sigma: Any) -> Number:
        """``R(Delta, sigma) = E_{y ~ Delta} r(y, sigma)``."""
        sigma = check_ranking(sigma, self.n)
        return _sum(p * self.fn(self.check_y(y), sigma) for y, p in check_distribution(distribution))

    def expected_score(self, distribution: Any, scores: Sequence[Any]) -> Number:
        """``R(Delta, s)`` with random tie breaking."""
        if len(scores) != self.n:
            raise invalid("scores", tuple(scores), f"{self.n} scores (one per item)")
        sig = arg_sort(scores)
        pairs = check_distribution(distribution)
        ys = [(self.check_y(y), p) for y, p in pairs]
        return _sum(p * self.fn(y, s) for s in sig for y, p in ys) / len(sig)

    def best(self, distribution: Any) -> tuple[Number, list[Ranking]]:
        """``max_sigma R(Delta, sigma)`` and every ranking attaining it (exhaustive; needs
        exact comparable values, i.e. a rational discount for DCG-like measures)."""
        pairs = [(self.check_y(y), p) for y, p in check_distribution(distribution)]
        vals = {s: _sum(p * self.fn(y, s) for y, p in pairs) for s in rankings(self.n)}
        top = max(vals.values())
        return top, [s for s, v in vals.items() if v == top]


def _check_k(k: Any, n: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
        raise invalid("k", k, f"a cut-off rank in 1..{n}")
    return k


def _check_empty(empty: str) -> str:
    if empty not in ("error", "zero"):
        raise invalid("empty", empty, "'error' (raise where the measure is undefined) or 'zero' (define it as 0)")
    return empty


def log2_discount(i: int) -> Number:
    """``1/log2(1+i)`` as an exact sympy value (``log(2)/log(1+i)``)."""
    return sympy.Integer(1) if i == 1 else sympy.log(2) / sympy.log(i + 1)


def _discount(discount: Any) -> Callable[[int], Number]:
    if discount == "log2":
        return log2_discount
    if callable(discount):
        def d(i: int) -> Number:
            v = discount(i)
            return v if isinstance(v, sympy.Basic) else to_fraction(v, f"discount({i})")
        return d
    raise invalid("discount", discount, "'log2' or a function of the rank returning an exact number")


def _grade_labels(n: int, grades: int) -> Callable[[Any], tuple[int, ...]]:
    return lambda y: check_labels(y, n, grades=grades)


def dcg(n: int, k: int | None = None, *, grades: int = 4, discount: Any = "log2") -> Measure:
    """DCG@k (Table 1): ``sum_{i<=k} (2^{y_sigma(i)} - 1) phi(i)``, ``phi(i) = 1/log(1+i)``."""
    n = _check_n(n)
    k = n if k is None else _check_k(k, n)
    d = _discount(discount)
    phi = tuple(d(i) if i <= k else Fraction(0) for i in range(1, n + 1))

    def fn(y: tuple[int, ...], sigma: Ranking) -> Number:
        return _sum((2 ** y[sigma[i - 1] - 1] - 1) * phi[i - 1] for i in range(1, k + 1))
    g = GPPM(n, phi, lambda y: tuple(Fraction(2**v - 1) for v in y), lambda y: Fraction(0), f"DCG@{k}")
    return Measure(f"DCG@{k}", n, f"y in {{0..{grades}}}^{n}", fn, _grade_labels(n, grades), g)


def _max_value(fn: Callable[[Any, Ranking], Number], y: Any, n: int) -> Number:
    """max over rankings; sorting items by decreasing label attains it for DCG-like sums."""
    best = tuple(sorted(range(1, n + 1), key=lambda i: (-y[i - 1], i)))
    return fn(y, best)


def ndcg(n: int, k: int | None = None, *, grades: int = 4, discount: Any = "log2",
         empty: str = "error") -> Measure:
    """NDCG@k = DCG@k / max_sigma' DCG@k (the usual normalisation by the ideal DCG@k).
    Undefined when every label is 0 (``empty``)."""
    n = _check_n(n)
    k = n if k is None else _check_k(k, n)
    empty = _check_empty(empty)
    base = dcg(n, k, grades=grades, discount=discount)

    def norm(y: tuple[int, ...]) -> Number | None:
        if not any(y):
            if empty == "error":
                raise invalid("y", y, "labels with at least one relevant item (NDCG divides by the ideal DCG, "
                              "which is 0 here)", "pass empty='zero' to define NDCG = 0 there")
            return None
        return _max_value(base.fn, y, n)

    def fn(y: tuple[int, ...], sigma: Ranking) -> Number:
        z = norm(y)
        return Fraction(0) if z is None else base.fn(y, sigma) / z

    def u(y: tuple[int, ...]) -> tuple[Number, ...]:
        z = norm(y)
        return tuple(Fraction(0) if z is None else Fraction(2**v - 1) / z for v in y)
    g = GPPM(n, base.gppm.phi, u, lambda y: Fraction(0), f"NDCG@{k}")  # type: ignore[union-attr]
    return Measure(f"NDCG@{k}", n, f"y in {{0..{grades}}}^{n}", fn, _grade_labels(n, grades), g)


def err(n: int, *, grades: int = 1) -> Measure:
    """ERR (Table 1): ``sum_i R_i / i prod_{k<i} (1 - R_k)``, ``R_i = (2^{y_sigma(i)} - 1) / 2^p``
    with ``p = grades``.  Not a GPPM."""
    n = _check_n(n)

    def fn(y: tuple[int, ...], sigma: Ranking) -> Number:
        total, stay = Fraction(0), Fraction(1)
        for i in range(1, n + 1):
            r = Fraction(2 ** y[sigma[i - 1] - 1] - 1, 2**grades)
            total += stay * r / i
            stay *= 1 - r
        return total
    return Measure("ERR", n, f"y in {{0..{grades}}}^{n}", fn, _grade_labels(n, grades), None)


def precision_at(n: int, k: int) -> Measure:
    """Prec@k (Table 1): ``sum_{i<=k} y_sigma(i) / k``; GPPM with phi(i) = 1{i<=k}/k, u = y."""
    n = _check_n(n)
    k = _check_k(k, n)

    def fn(y: tuple[int, ...], sigma: Ranking) -> Number:
        return Fraction(sum(y[sigma[i] - 1] for i in range(k)), k)
    phi = tuple(Fraction(1, k) if i <= k else Fraction(0) for i in range(1, n + 1))
    g = GPPM(n, phi, lambda y: tuple(Fraction(v) for v in y), lambda y: Fraction(0), f"Prec@{k}")
    return Measure(f"Prec@{k}", n, f"y in {{0,1}}^{n}", fn, _grade_labels(n, 1), g)


def _relevant(y: tuple[int, ...], empty: str, what: str) -> int | None:
    m = sum(y)
    if m == 0:
        if empty == "error":
            raise invalid("y", y, f"labels with at least one relevant item ({what} divides by ||y||_1 = 0)",
                          "pass empty='zero' to define it as 0 there")
        return None
    return m


def recall_at(n: int, k: int, *, empty: str = "error") -> Measure:
    """Rec@k (Table 1): ``sum_{i<=k} y_sigma(i) / ||y||_1``; undefined when ``||y||_1 = 0``."""
    n = _check_n(n)
    k = _check_k(k, n)
    empty = _check_empty(empty)

    def fn(y: tuple[int, ...], sigma: Ranking) -> Number:
        m = _relevant(y, empty, "Rec@k")
        return Fraction(0) if m is None else Fraction(sum(y[sigma[i] - 1] for i in range(k)), m)

    def u(y: tuple[int, ...]) -> tuple[Number, ...]:
        m = _relevant(y, empty, "Rec@k")
        return tuple(Fraction(0) if m is None else Fraction(v, m) for v in y)
    phi = tuple(Fraction(1) if i <= k else Fraction(0) for i in range(1, n + 1))
    g = GPPM(n, phi, u, lambda y: Fraction(0), f"Rec@{k}")
    return Measure(f"Rec@{k}", n, f"y in {{0,1}}^{n}", fn, _grade_labels(n, 1), g)


def average_precision(n: int, *, empty: str = "error") -> Measure:
    """AP (Table 1): ``(1/||y||_1) sum_{i: y_i = 1} Prec@sigma^{-1}(i)``.  Not a GPPM."""
    n = _check_n(n)
    empty = _check_empty(empty)

    def fn(y: tuple[int, ...], sigma: Ranking) -> Number:
        m = _relevant(y, empty, "AP")
        if m is None:
            return Fraction(0)
        total, hits = Fraction(0), 0
        for k in range(1, n + 1):
            if y[sigma[k - 1] - 1]:
                hits += 1
                total += Fraction(hits, k)
        return total / m
    return Measure("AP", n, f"y in {{0,1}}^{n}", fn, _grade_labels(n, 1), None)


def auc(n: int, *, empty: str = "error") -> Measure:
    """AUC (Table 1): the fraction of (relevant, irrelevant) pairs ranked in that order.
    GPPM with phi(i) = n - i, u_i = y_i / (|y| (n - |y|)) and b(y) = -(|y| - 1) / (2 (n - |y|))
    (Appendix B.1; note the minus sign).  Undefined when |y| is 0 or n."""
    n = _check_n(n)
    empty = _check_empty(empty)

    def size(y: tuple[int, ...]) -> int | None:
        m = sum(y)
        if m in (0, n):
            if empty == "error":
                raise invalid("y", y, "labels with at least one relevant and one irrelevant item (AUC "
                              "divides by |y| (n - |y|) = 0)", "pass empty='zero' to define it as 0 there")
            return None
        return m

    def fn(y: tuple[int, ...], sigma: Ranking) -> Number:
        m = size(y)
        if m is None:
            return Fraction(0)
        pos = rank_of(sigma)
        good = sum(1 for i in range(1, n + 1) for j in range(1, n + 1)
                   if y[i - 1] == 1 and y[j - 1] == 0 and pos[i] < pos[j])
        return Fraction(good, m * (n - m))

    def u(y: tuple[int, ...]) -> tuple[Number, ...]:
        m = size(y)
        return tuple(Fraction(0) if m is None else Fraction(v, m * (n - m)) for v in y)

    def b(y: tuple[int, ...]) -> Number:
        m = size(y)
        return Fraction(0) if m is None else -Fraction(m - 1, 2 * (n - m))
    g = GPPM(n, tuple(Fraction(n - i) for i in range(1, n + 1)), u, b, "AUC") if n >= 2 else None
    return Measure("AUC", n, f"y in {{0,1}}^{n}", fn, _grade_labels(n, 1), g)


def spearman(n: int) -> Measure:
    """Spearman's rank correlation (Table 1): ``1 - Z_n sum_i (sigma^{-1}(i) - y^{-1}(i))^2``,
    ``Z_n = 6 / (n (n^2 - 1))``; the supervision y is itself a ranking.  GPPM with
    phi(i) = 12 (n - i) / (n (n^2 - 1)), u_i = n - y^{-1}(i), b = -3 (n - 1) / (n + 1).
    Needs n >= 2."""
    n = _check_n(n)
    if n < 2:
        raise invalid("n", n, "n >= 2 (Z_n = 6 / (n (n^2 - 1)) is undefined for n = 1)")
    z = Fraction(6, n * (n * n - 1))

    def fn(y: Ranking, sigma: Ranking) -> Number:
        ps, py = rank_of(sigma), rank_of(y)
        return 1 - z * sum((ps[i] - py[i]) ** 2 for i in range(1, n + 1))

    def u(y: Ranking) -> tuple[Number, ...]:
        py = rank_of(y)
        return tuple(Fraction(n - py[i]) for i in range(1, n + 1))
    phi = tuple(Fraction(12 * (n - i), n * (n * n - 1)) for i in range(1, n + 1))
    g = GPPM(n, phi, u, lambda y: Fraction(-3 * (n - 1), n + 1), "Spearman")
    return Measure("Spearman", n, f"y a ranking of {n} items", fn, lambda y: check_ranking(y, n, "y"), g)


def expected_utility(g: GPPM, distribution: Any, check_y: Callable[[Any], Any] | None = None) -> tuple[Number, ...]:
    """``U(Delta) = E_{y ~ Delta} u(y)`` (Section 3)."""
    pairs = check_distribution(distribution)
    total: list[Number] = [Fraction(0)] * g.n
    for y, p in pairs:
        uy = g.u(check_y(y) if check_y else y)
        total = [t + p * v for t, v in zip(total, uy, strict=True)]
    return tuple(total)


MEASURES: dict[str, Callable[..., Measure]] = {
    "dcg": dcg, "ndcg": ndcg, "err": err, "prec": precision_at, "rec": recall_at,
    "ap": average_precision, "auc": auc, "spearman": spearman,
}
