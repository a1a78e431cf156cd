"""Misranking cost schemes for K-partite ranking and the condition of Theorem 3.

Uematsu & Lee (2013), *Statistical Optimality in Multipartite Ranking and Ordinal
Regression*: a pair ``(x, y), (x', y')`` with ``y > y'`` that ``f`` misorders costs
``c_{y'y}`` (Eq. (5)); a cost scheme is the set ``c = {c_ji : 1 <= j < i <= K}`` of
non-negative costs.  Theorem 3 (ii) asks

    c_1K c_ji = c_1i c_jK - c_1j c_iK      for all 1 <= j < i <= K

(with ``c_11 = c_KK = 0``, the paper's "natural assumption", so that the pairs with
``j = 1`` or ``i = K`` hold trivially), and then ``f_0^* = sum_{i>=2} c_1i p_i /
sum_{j<=K-1} c_jK p_j`` minimises the ranking risk.

Costs are exact: ints, Fractions, ``"p/q"`` or exact decimal strings, or sympy expressions
(symbols for a symbolic family, ``exp(...)`` for the costs implied by ORBoost thresholds).
Python floats are refused unless converted explicitly (``allow_float=True``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction

__all__ = [
    "CostScheme",
    "Violation",
    "ConditionResult",
    "satisfies_theorem3_condition",
    "condition_residual",
    "normalised_condition",
    "relative_scale",
    "optimal_ranking_function",
    "posterior_symbols",
    "zero_one_costs",
    "linear_costs",
    "weighted_scale_costs",
    "dcg_costs",
    "orboost_costs",
    "pairs_costs",
    "ovo_costs",
    "cons_costs",
    "symbolic_costs",
    "corollary1_condition_identity",
    "NAMED_SCHEMES",
    "condition_sweep",
    "sweep_named",
]

_EXPR_CHARS = re.compile(r"^[0-9a-zA-Z+\-*/^(). ]+$")
_EXPR_NAMES = {"exp", "log", "sqrt", "pi", "E"}


def _cost_value(value: Any, where: str, *, allow_float: bool = False) -> Fraction | sympy.Expr:
    """One cost: an exact Fraction when rational, else a sympy expression; refuses floats,
    NaN, non-numbers and provably negative values."""
    if isinstance(value, sympy.Basic):
        expr = value
        if expr.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            raise invalid(where, str(expr), "a finite cost")
        if expr.atoms(sympy.Float):
            raise invalid(
                where,
                str(expr),
                "an exact expression (no floating-point numbers)",
                "write decimals as rationals, e.g. Rational(103, 50) for 2.06",
            )
        if expr.is_Rational:
            return _nonneg(Fraction(int(expr.p), int(expr.q)), where)
        if not isinstance(expr, sympy.Expr) or expr.is_real is False:
            raise invalid(where, str(expr), "a real number or expression")
        if not expr.free_symbols:
            sign = _constant_sign(expr)
            if sign is not None and sign < 0:
                raise invalid(where, str(expr), "a cost >= 0 (misranking costs are non-negative)")
        elif expr.is_negative:
            raise invalid(where, str(expr), "a cost >= 0 (misranking costs are non-negative)")
        return expr
    if isinstance(value, str):
        text = value.strip()
        if text.lower().lstrip("+-") in {"nan", "inf", "infinity", "oo"}:
            raise invalid(where, value, "a finite cost")
        try:
            return _nonneg(to_fraction(text, where), where)
        except Exception:
            pass
        if not text or not _EXPR_CHARS.match(text) or "__" in text:
            raise invalid(where, value, "a number (3, 3/10, 0.25) or an expression such as exp(103/50) - 1")
        names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
        if not names <= _EXPR_NAMES:
            bad = sorted(names - _EXPR_NAMES)[0]
            raise invalid(where, value, f"a number or an expression in exp, log, sqrt, pi, E (not {bad!r})")
        try:
            raw = sympy.sympify(text.replace("^", "**"), rational=True, evaluate=False)
        except (sympy.SympifyError, SyntaxError, TypeError, ValueError):
            raise invalid(where, value, "a number or a valid expression such as exp(103/50)") from None
        _check_exponents(raw, where, value)
        try:
            expr = sympy.sympify(text.replace("^", "**"), rational=True)
        except (sympy.SympifyError, SyntaxError, TypeError):
            raise invalid(where, value, "a number or a valid expression such as exp(103/50)") from None
        return _cost_value(expr, where)
    return _nonneg(to_fraction(value, where, allow_float=allow_float), where)


_MAX_EXPONENT = 10_000


def _check_exponents(expr: sympy.Basic, where: str, value: Any) -> None:
    """Refuse integer powers with an exponent beyond ``_MAX_EXPONENT`` (``9^9^9`` would
    otherwise be expanded exactly and never finish); innermost powers are checked first."""
    for node in sympy.postorder_traversal(expr):
        if isinstance(node, sympy.Pow):
            e = node.exp.doit() if isinstance(node.exp, sympy.Basic) else node.exp
            if getattr(e, "is_Rational", False) and abs(e) > _MAX_EXPONENT:
                raise invalid(where, value, f"an expression whose exponents are at most {_MAX_EXPONENT}")


def _nonneg(x: Fraction, where: str) -> Fraction:
    if x < 0:
        raise invalid(where, fraction_str(x), "a cost >= 0 (misranking costs are non-negative)")
    return x


def _constant_sign(expr: sympy.Expr) -> int | None:
    """The sign of a closed real expression, by exact evaluation or a rigorous interval
    enclosure (mpmath ``iv``); None when neither decides."""
    if expr.is_zero:
        return 0
    if expr.is_positive:
        return 1
    if expr.is_negative:
        return -1
    from symcal.backends.sympy_backend import residual_excludes_zero

    nz = residual_excludes_zero(expr)
    if nz is False:
        return 0
    if nz is None:
        return None
    enc = _enclosure(expr)
    if enc is None:
        return None
    lo, hi = enc
    return 1 if lo > 0 else -1 if hi < 0 else None


def _enclosure(expr: sympy.Expr) -> tuple[Fraction, Fraction] | None:
    """A rigorous enclosure (every constant and operation outward-rounded), or None."""
    try:
        from symcal.backends.interval_backend import enclosure

        return enclosure(expr, {}, precision=200)
    except Exception:
        return None


def _is_exact_zero(x: Any) -> bool | None:
    """True if ``x`` is exactly 0, False if certainly not, None if undecided."""
    if isinstance(x, Fraction | int):
        return x == 0
    e = sympy.sympify(x)
    if e.is_Rational:
        return e == 0
    r = sympy.cancel(sympy.expand(e))
    if r == 0:
        return True
    if not r.free_symbols:
        s = _constant_sign(r)
        if s is None:
            r2 = sympy.simplify(r)
            return True if r2 == 0 else None
        return s == 0
    r2 = sympy.simplify(r)
    if r2 == 0:
        return True
    return False if _generic_nonzero(r2) else None


def _generic_nonzero(r: sympy.Expr) -> bool:
    """A residual with free symbols is not identically zero if it is non-zero at some exact
    rational point (the point is evaluated exactly or enclosed by intervals)."""
    syms = sorted(r.free_symbols, key=str)
    rng = random.Random(7)
    for _ in range(20):
        pt = {s: sympy.Rational(rng.randint(1, 40), rng.randint(1, 7)) for s in syms}
        try:
            v = r.xreplace(pt)
        except (ZeroDivisionError, TypeError):
            continue
        if v.has(sympy.zoo, sympy.nan, sympy.oo):
            continue
        if v.is_Rational:
            if v != 0:
                return True
            continue
        s = _constant_sign(v)
        if s not in (None, 0):
            return True
    return False


def _show(x: Any) -> str:
    if isinstance(x, Fraction | int):
        return fraction_str(Fraction(x))
    return sympy.sstr(x)


def _jsonable(x: Any) -> Any:
    if isinstance(x, Fraction | int):
        return fraction_str(Fraction(x))
    return sympy.sstr(x)


def _check_K(K: Any, param: str = "K") -> int:
    if isinstance(K, bool) or not isinstance(K, int):
        raise invalid(param, K, "an integer number of categories K >= 2")
    if K < 2:
        raise invalid(param, K, "K >= 2 categories (ranking needs at least two ordered labels)")
    return K


@dataclass(frozen=True)
class CostScheme:
    """Misranking costs ``c_ji`` (``1 <= j < i <= K``) of Uematsu & Lee (2013), Eq. (5):
    misordering a pair with labels ``i > j`` costs ``c_ji``.

    Build one with a constructor (:func:`linear_costs`, :func:`weighted_scale_costs`, ...),
    :meth:`from_matrix` (a K x K table, row j, column i, upper triangle; the paper's layout
    of Table 2) or :meth:`from_pairs`.  ``c(j, i)`` returns ``c_ji``; ``c(j, j)`` is 0.
    """

    K: int
    costs: Mapping[tuple[int, int], Any]
    name: str = ""
    _frozen: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        K = _check_K(self.K)
        if not isinstance(self.costs, Mapping):
            raise invalid("costs", self.costs, "a mapping (j, i) -> c_ji")
        want = {(j, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)}
        got = set(self.costs)
        for key in sorted(got - want, key=str):
            raise invalid(f"costs[{key}]", self.costs[key], f"only pairs (j, i) with 1 <= j < i <= {K}")
        missing = sorted(want - got)
        if missing:
            j, i = missing[0]
            raise invalid(f"c_{j}{i}", None, f"a cost for every pair 1 <= j < i <= {K} ({len(missing)} missing)")
        clean = {k: _cost_value(self.costs[k], f"c_{k[0]}{k[1]}") for k in sorted(want)}
        object.__setattr__(self, "costs", clean)

    @classmethod
    def from_pairs(
        cls, K: int, costs: Mapping[tuple[int, int], Any], *, name: str = "", allow_float: bool = False
    ) -> CostScheme:
        """From a mapping ``(j, i) -> c_ji``; ``allow_float=True`` converts floats exactly."""
        K = _check_K(K)
        if not isinstance(costs, Mapping):
            raise invalid("costs", costs, "a mapping (j, i) -> c_ji")
        conv = {}
        for k, v in costs.items():
            if not (isinstance(k, tuple) and len(k) == 2 and all(isinstance(t, int) for t in k)):
                raise invalid("costs", k, "keys (j, i) with integers 1 <= j < i <= K")
            conv[k] = _cost_value(v, f"c_{k[0]}{k[1]}", allow_float=allow_float)
        return cls(K, conv, name)

    @classmethod
    def from_matrix(
        cls, rows: Sequence[Sequence[Any]], *, name: str = "", allow_float: bool = False, source: str = "costs"
    ) -> CostScheme:
        """From a K x K table: row ``j``, column ``i``, ``c_ji`` in the upper triangle; the
        diagonal and lower triangle must be empty (None, ``""``, ``"-"``) or 0."""
        if isinstance(rows, str | bytes) or not isinstance(rows, Sequence) or not rows:
            raise invalid(source, rows, "a non-empty K x K table (list of rows)")
        K = len(rows)
        if K < 2:
            raise invalid(source, f"{K} row", "a K x K table with K >= 2")
        conv: dict[tuple[int, int], Any] = {}
        for r, row in enumerate(rows, start=1):
            if isinstance(row, str | bytes) or not isinstance(row, Sequence):
                raise invalid(f"{source} row {r}", row, f"a row of {K} entries")
            if len(row) != K:
                raise invalid(f"{source} row {r}", f"{len(row)} entries", f"{K} entries (a K x K table, K = {K})")
            for col, v in enumerate(row, start=1):
                where = f"{source}[{r}][{col}] (c_{r}{col})"
                if col <= r:
                    if v is None or (isinstance(v, str) and v.strip() in {"", "-"}):
                        continue
                    val = _cost_value(v, where, allow_float=allow_float)
                    if not (isinstance(val, Fraction) and val == 0):
                        side = "on the diagonal" if col == r else "below the diagonal"
                        raise invalid(
                            where, _show(val), f"0 or empty {side}", "only c_ji with j < i (row j, column i) are costs"
                        )
                    continue
                if v is None or (isinstance(v, str) and v.strip() in {"", "-"}):
                    raise invalid(where, v, "a cost above the diagonal (row j < column i)")
                conv[(r, col)] = _cost_value(v, where, allow_float=allow_float)
        return cls(K, conv, name)

    def c(self, j: int, i: int) -> Any:
        """``c_ji``; ``c(j, j) = 0`` (the paper's ``c_11 = c_KK = 0``)."""
        if not (1 <= j <= self.K and 1 <= i <= self.K):
            raise invalid("(j, i)", (j, i), f"labels in 1..{self.K}")
        if j == i:
            return Fraction(0)
        if j > i:
            raise invalid("(j, i)", (j, i), "j <= i (c_ji is the cost of ranking j above i > j)")
        return self.costs[(j, i)]

    @property
    def is_rational(self) -> bool:
        """Every cost is an exact rational number."""
        return all(isinstance(v, Fraction) for v in self.costs.values())

    @property
    def symbols(self) -> set[sympy.Symbol]:
        out: set[sympy.Symbol] = set()
        for v in self.costs.values():
            if not isinstance(v, Fraction):
                out |= v.free_symbols
        return out

    def matrix(self) -> list[list[Any]]:
        """The K x K table (zeros on and below the diagonal)."""
        return [
            [self.costs[(j, i)] if i > j else Fraction(0) for i in range(1, self.K + 1)] for j in range(1, self.K + 1)
        ]

    def sympy_costs(self) -> dict[tuple[int, int], sympy.Expr]:
        return {
            k: (sympy.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v)
            for k, v in self.costs.items()
        }

    def substitute(self, values: Mapping[Any, Any], *, name: str = "") -> CostScheme:
        """The scheme with symbols replaced by exact values."""
        sub = {s: sympy.sympify(v) for s, v in values.items()}
        return CostScheme(
            self.K, {k: sympy.sympify(v).xreplace(sub) for k, v in self.sympy_costs().items()}, name or self.name
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "K": self.K,
            "name": self.name,
            "costs": [
                [_jsonable(x) if i > j else None for i, x in enumerate(row, start=1)]
                for j, row in enumerate(self.matrix(), start=1)
            ],
        }

    def __str__(self) -> str:
        body = ", ".join(f"c{j}{i}={_show(v)}" for (j, i), v in self.costs.items())
        return f"{self.name or 'costs'} (K={self.K}): {body}"


# ---------------------------------------------------------------------------------------
# Constructors for the schemes the paper uses
# ---------------------------------------------------------------------------------------


def zero_one_costs(K: int) -> CostScheme:
    """``c_ji = I(j < i)``: R_0 is the probability of misranking a pair (Section 3)."""
    K = _check_K(K)
    return CostScheme(K, {(j, i): 1 for j in range(1, K + 1) for i in range(j + 1, K + 1)}, "zero_one")


def linear_costs(K: int) -> CostScheme:
    """``c_ji = i - j`` (Agarwal & Niyogi's |y - y'|; Section 3 and the five-category
    experiment of Section 6.2)."""
    K = _check_K(K)
    return CostScheme(K, {(j, i): i - j for j in range(1, K + 1) for i in range(j + 1, K + 1)}, "linear")


def dcg_costs(K: int) -> CostScheme:
    """``c_ji = 2^i - 2^j``: DCG's gain 2^y - 1 as a cost scheme (Section 5.2)."""
    K = _check_K(K)
    return CostScheme(K, {(j, i): 2**i - 2**j for j in range(1, K + 1) for i in range(j + 1, K + 1)}, "dcg")


def _seq(values: Any, param: str) -> list[Any]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise invalid(param, values, "a sequence of exact numbers or sympy expressions")
    out = []
    for k, v in enumerate(values, start=1):
        if isinstance(v, sympy.Basic):
            if v.atoms(sympy.Float):
                raise invalid(f"{param}[{k}]", str(v), "an exact value, not a float")
            out.append(v)
        else:
            f = to_fraction(v, f"{param}[{k}]")
            out.append(sympy.Rational(f.numerator, f.denominator))
    return out


def weighted_scale_costs(w: Sequence[Any], s: Sequence[Any], *, name: str = "corollary1") -> CostScheme:
    """``c_ji = w_i w_j (s_i - s_j)`` for ``i > j``: the family of Corollary 1 (weights
    ``w >= 0``, an increasing scale ``s``); values may be symbols."""
    ws, ss = _seq(w, "w"), _seq(s, "s")
    if len(ws) != len(ss):
        raise invalid("s", f"{len(ss)} values", f"as many scale values as weights ({len(ws)})")
    K = _check_K(len(ws), "len(w)")
    for k, v in enumerate(ws, start=1):
        if v.is_negative:
            raise invalid(f"w[{k}]", str(v), "a weight >= 0")
    for k in range(1, K):
        d = ss[k] - ss[k - 1]
        if d.is_positive is False:
            raise invalid(f"s[{k + 1}]", str(ss[k]), f"an increasing scale: s_{k + 1} > s_{k} = {ss[k - 1]}")
    return CostScheme(
        K,
        {
            (j, i): sympy.expand(ws[i - 1] * ws[j - 1] * (ss[i - 1] - ss[j - 1]))
            for j in range(1, K + 1)
            for i in range(j + 1, K + 1)
        },
        name,
    )


def orboost_costs(thresholds: Sequence[Any], *, name: str = "orboost") -> CostScheme:
    """The costs implied by ORBoost thresholds ``theta_1 <= ... <= theta_{K-1}`` (Section 4.1
    and Table 2): ``c_ji = exp(theta_{i-1} - theta_j) - exp(theta_{j-1} - theta_i)`` with
    ``theta_0 = -inf`` and ``theta_K = +inf`` (so the second term vanishes when j = 1 or
    i = K).  Thresholds are exact (``"-0.0932"`` is the exact decimal) or symbols."""
    th = _seq(thresholds, "thresholds")
    K = _check_K(len(th) + 1, "len(thresholds) + 1")
    for k in range(1, len(th)):
        if (th[k] - th[k - 1]).is_negative:
            raise invalid(
                f"thresholds[{k + 1}]",
                str(th[k]),
                f"ordered thresholds theta_{k + 1} >= theta_{k} = {th[k - 1]} (else some c_ji < 0)",
            )

    def e_minus(a: int, b: int) -> sympy.Expr:  # exp(theta_a - theta_b), 0 when theta_a = -inf or theta_b = +inf
        if a == 0 or b == K:
            return sympy.Integer(0)
        return sympy.exp(th[a - 1] - th[b - 1])

    return CostScheme(
        K, {(j, i): e_minus(i - 1, j) - e_minus(j - 1, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)}, name
    )


def _counts(counts: Any) -> list[int]:
    if isinstance(counts, str | bytes) or not isinstance(counts, Iterable):
        raise invalid("counts", counts, "category counts n_1..n_K (positive integers)")
    out = []
    for k, n in enumerate(counts, start=1):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise invalid(f"counts[{k}]", n, "a positive integer count n_k")
        out.append(n)
    _check_K(len(out), "len(counts)")
    return out


def _n_pairs(n: list[int]) -> int:
    return sum(n[a] * n[b] for a in range(len(n)) for b in range(a + 1, len(n)))


def pairs_costs(counts: Sequence[int]) -> CostScheme:
    """Costs with R^_0(f; c) = R^_pairs(f): ``c_ji = I(j < i)`` (Section 3, after (5))."""
    n = _counts(counts)
    return CostScheme(len(n), zero_one_costs(len(n)).costs, "pairs")


def ovo_costs(counts: Sequence[int]) -> CostScheme:
    """Costs with R^_0 = R^_ovo: ``c_ji = 2/(K(K-1)) * sum_{l'<l} n_l' n_l / (n_i n_j)``."""
    n = _counts(counts)
    K, N = len(n), _n_pairs(n)
    return CostScheme(
        K,
        {
            (j, i): Fraction(2, K * (K - 1)) * Fraction(N, n[i - 1] * n[j - 1])
            for j in range(1, K + 1)
            for i in range(j + 1, K + 1)
        },
        "ovo",
    )


def cons_costs(counts: Sequence[int]) -> CostScheme:
    """Costs with R^_0 = R^_cons: ``c_ji = 1/(K-1) * N * sum_{l=j}^{i-1} (sum_{k<=l} n_k
    sum_{k'>l} n_k')^{-1}`` with ``N = sum_{l'<l} n_l' n_l``."""
    n = _counts(counts)
    K, N = len(n), _n_pairs(n)

    def split(l: int) -> int:
        return sum(n[:l]) * sum(n[l:])

    return CostScheme(
        K,
        {
            (j, i): Fraction(N, K - 1) * sum((Fraction(1, split(l)) for l in range(j, i)), Fraction(0))
            for j in range(1, K + 1)
            for i in range(j + 1, K + 1)
        },
        "cons",
    )


def symbolic_costs(K: int, prefix: str = "c") -> CostScheme:
    """A generic scheme with non-negative symbols ``c_j_i``."""
    K = _check_K(K)
    return CostScheme(
        K,
        {
            (j, i): sympy.Symbol(f"{prefix}_{j}_{i}", nonnegative=True)
            for j in range(1, K + 1)
            for i in range(j + 1, K + 1)
        },
        f"symbolic {prefix}",
    )


NAMED_SCHEMES: dict[str, Callable[[int], CostScheme]] = {
    "zero_one": zero_one_costs,
    "linear": linear_costs,
    "dcg": dcg_costs,
}


# ---------------------------------------------------------------------------------------
# The condition of Theorem 3 (ii)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    """A pair ``(j, i)`` where ``c_1K c_ji != c_1i c_jK - c_1j c_iK``; ``residual`` is
    ``c_1K c_ji - (c_1i c_jK - c_1j c_iK)`` (exact)."""

    j: int
    i: int
    lhs: Any
    rhs: Any
    residual: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "j": self.j,
            "i": self.i,
            "lhs": _jsonable(self.lhs),
            "rhs": _jsonable(self.rhs),
            "residual": _jsonable(self.residual),
        }

    def __str__(self) -> str:
        return (
            f"(j, i) = ({self.j}, {self.i}): c_1K c_ji = {_show(self.lhs)} but "
            f"c_1i c_jK - c_1j c_iK = {_show(self.rhs)} (residual {_show(self.residual)})"
        )


@dataclass(frozen=True)
class ConditionResult:
    """Whether a cost scheme satisfies Theorem 3's condition, why, and where it fails.

    ``holds`` is True / False, or None when some residual could be neither shown to vanish
    nor shown non-zero (``undecided`` lists those pairs).  ``violations`` lists every
    failing ``(j, i)`` with its exact residual, in order.  ``bool(result)`` is
    ``result.holds is True``.
    """

    holds: bool | None
    K: int
    reason: str
    violations: tuple[Violation, ...] = ()
    undecided: tuple[Violation, ...] = ()
    pairs_checked: int = 0
    scope: str = ""
    c1K_positive: bool | None = None

    def __bool__(self) -> bool:
        return self.holds is True

    @property
    def witness(self) -> Violation | None:
        return self.violations[0] if self.violations else None

    def to_json(self) -> dict[str, Any]:
        return {
            "holds": self.holds,
            "K": self.K,
            "reason": self.reason,
            "scope": self.scope,
            "pairs_checked": self.pairs_checked,
            "c1K_positive": self.c1K_positive,
            "violations": [v.to_json() for v in self.violations],
            "undecided": [v.to_json() for v in self.undecided],
        }


def condition_residual(costs: CostScheme, j: int, i: int) -> tuple[Any, Any, Any]:
    """``(lhs, rhs, lhs - rhs)`` of Theorem 3's condition at ``(j, i)``:
    ``lhs = c_1K c_ji``, ``rhs = c_1i c_jK - c_1j c_iK`` (with ``c_11 = c_KK = 0``)."""
    K, c = costs.K, costs.c
    lhs = c(1, K) * c(j, i)
    rhs = c(1, i) * c(j, K) - c(1, j) * c(i, K)
    if isinstance(lhs, Fraction) and isinstance(rhs, Fraction):
        return lhs, rhs, lhs - rhs
    lhs, rhs = sympy.expand(sympy.sympify(lhs)), sympy.expand(sympy.sympify(rhs))
    return lhs, rhs, sympy.expand(lhs - rhs)


def satisfies_theorem3_condition(costs: CostScheme) -> ConditionResult:
    """Decide Uematsu & Lee (2013), Theorem 3 (ii)'s condition
    ``c_1K c_ji = c_1i c_jK - c_1j c_iK`` for all ``1 <= j < i <= K``.

    Pairs with ``j = 1`` or ``i = K`` hold identically (``c_11 = c_KK = 0``), so the pairs
    ``2 <= j < i <= K - 1`` decide it; for K <= 3 the condition is void (Theorem 3 (i)).
    Rational schemes are decided exactly; for sympy costs each residual is cancelled
    symbolically, and a residual that does not cancel counts as a violation only when it is
    non-zero at an exact point (exact arithmetic or an interval enclosure), otherwise it is
    ``undecided``.  Every violating ``(j, i)`` is listed with its residual.
    """
    if not isinstance(costs, CostScheme):
        raise invalid("costs", costs, "a CostScheme (see symcal.ranking.costs)")
    K = costs.K
    bad, undecided = [], []
    pairs = [(j, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)]
    for j, i in pairs:
        lhs, rhs, r = condition_residual(costs, j, i)
        z = _is_exact_zero(r)
        if z is True:
            continue
        v = Violation(j, i, lhs, rhs, r if isinstance(r, Fraction) else sympy.simplify(r))
        (bad if z is False else undecided).append(v)
    c1k = costs.c(1, K)
    c1k_pos = (c1k > 0) if isinstance(c1k, Fraction) else (sympy.sympify(c1k).is_positive)
    symbolic = bool(costs.symbols)
    what = "identically in the symbols " + ", ".join(sorted(map(str, costs.symbols))) if symbolic else "exactly"
    scope = f"K = {K}, all {len(pairs)} pairs 1 <= j < i <= {K}, {what}"
    if bad:
        first = bad[0]
        reason = f"fails at {len(bad)} of {len(pairs)} pairs; first {first}"
        return ConditionResult(False, K, reason, tuple(bad), tuple(undecided), len(pairs), scope, c1k_pos)
    if undecided:
        return ConditionResult(
            None,
            K,
            f"{len(undecided)} residual(s) neither cancel nor evaluate to non-zero; "
            f"first at (j, i) = ({undecided[0].j}, {undecided[0].i})",
            (),
            tuple(undecided),
            len(pairs),
            scope,
            c1k_pos,
        )
    note = " (void for K <= 3: only pairs with j = 1 or i = K, which hold since c_11 = c_KK = 0)" if K <= 3 else ""
    warn = "" if c1k_pos is not False else "; note c_1K = 0: Theorem 3 then fails (f_0^* need not be optimal)"
    return ConditionResult(
        True, K, f"c_1K c_ji = c_1i c_jK - c_1j c_iK at every pair{note}{warn}", (), (), len(pairs), scope, c1k_pos
    )


def normalised_condition(costs: CostScheme) -> list[dict[str, Any]]:
    """The paper's normalised restatement (after Theorem 3): for ``1 <= j < i <= K - 1``,
    ``c_ji/c_1K = (c_jK/c_1K)(c_iK/c_1K)(c_1i/c_iK - c_1j/c_jK)``.  One row per pair with
    both sides (sympy, exact), or ``None`` sides when a denominator vanishes."""
    K, c = costs.K, costs.c
    rows = []
    for j in range(1, K):
        for i in range(j + 1, K):
            c1k, cjk, cik = (sympy.sympify(c(1, K)), sympy.sympify(c(j, K)), sympy.sympify(c(i, K)))
            row: dict[str, Any] = {"j": j, "i": i}
            if any(_is_exact_zero(x) is True for x in (c1k, cjk, cik)):
                row.update(lhs=None, rhs=None, note="a denominator c_1K, c_jK or c_iK is 0")
            else:
                row["lhs"] = sympy.simplify(sympy.sympify(c(j, i)) / c1k)
                row["rhs"] = sympy.simplify(
                    (cjk / c1k) * (cik / c1k) * (sympy.sympify(c(1, i)) / cik - sympy.sympify(c(1, j)) / cjk)
                )
            rows.append(row)
    return rows


def relative_scale(costs: CostScheme) -> list[Any]:
    """The scale ``c_1i / c_iK`` (i = 1..K-1) on the label space (after Theorem 3); None
    where ``c_iK = 0``."""
    out = []
    for i in range(1, costs.K):
        cik = sympy.sympify(costs.c(i, costs.K))
        out.append(None if _is_exact_zero(cik) is True else sympy.simplify(sympy.sympify(costs.c(1, i)) / cik))
    return out


def posterior_symbols(K: int) -> tuple[sympy.Symbol, ...]:
    """``p_1..p_K``: the posteriors P(Y = k | x)."""
    return tuple(sympy.Symbol(f"p_{k}", nonnegative=True) for k in range(1, _check_K(K) + 1))


def optimal_ranking_function(costs: CostScheme, p: Sequence[Any] | None = None) -> sympy.Expr:
    """``f_0^* = sum_{i=2}^K c_1i p_i / sum_{j=1}^{K-1} c_jK p_j`` (Theorem 3), a sympy
    expression in ``p`` (default the symbols ``p_1..p_K``)."""
    K = costs.K
    ps = list(p) if p is not None else list(posterior_symbols(K))
    if len(ps) != K:
        raise invalid("p", f"{len(ps)} values", f"K = {K} posteriors")
    c = costs.sympy_costs()
    num = sum((c[(1, i)] * ps[i - 1] for i in range(2, K + 1)), sympy.Integer(0))
    den = sum((c[(j, K)] * ps[j - 1] for j in range(1, K)), sympy.Integer(0))
    return num / den


def corollary1_condition_identity() -> tuple[sympy.Expr, sympy.Expr, tuple[sympy.Symbol, ...]]:
    """Theorem 3's condition for ``c_ji = w_i w_j (s_i - s_j)`` at a generic pair (j, i),
    as one identity in ``w_1, w_j, w_i, w_K, s_1, s_j, s_i, s_K``: ``(lhs, rhs, symbols)``.

    Every pair of every K >= 2 is an instance (for j = 1 or i = K the symbols coincide and
    the identity still holds, as a polynomial identity holds under any substitution), so
    proving it proves the condition for the whole family for all K."""
    w1, wj, wi, wK, s1, sj, si, sK = sympy.symbols("w_1 w_j w_i w_K s_1 s_j s_i s_K", real=True)

    def cc(wa: Any, sa: Any, wb: Any, sb: Any) -> Any:  # c_ab for a < b
        return wa * wb * (sb - sa)

    lhs = cc(w1, s1, wK, sK) * cc(wj, sj, wi, si)
    rhs = cc(w1, s1, wi, si) * cc(wj, sj, wK, sK) - cc(w1, s1, wj, sj) * cc(wi, si, wK, sK)
    return lhs, rhs, (w1, wj, wi, wK, s1, sj, si, sK)


def condition_sweep(build: Callable[[int], CostScheme], Ks: Iterable[int]) -> list[tuple[int, ConditionResult]]:
    """The condition for ``build(K)`` at each K: ``[(K, result), ...]``."""
    out = []
    for K in Ks:
        out.append((K, satisfies_theorem3_condition(build(K))))
    return out


def sweep_named(name: str, Ks: Iterable[int]) -> dict[str, Any]:
    """For a named scheme (``zero_one``, ``linear``, ``dcg``): for which K it satisfies the
    condition, with the first violation at each failing K."""
    if name not in NAMED_SCHEMES:
        raise invalid("scheme", name, f"one of {', '.join(sorted(NAMED_SCHEMES))}")
    rows = condition_sweep(NAMED_SCHEMES[name], Ks)
    if not rows:
        raise invalid("Ks", [], "at least one K >= 2")
    holds = [K for K, r in rows if r.holds is True]
    fails = {K: str(r.witness) for K, r in rows if r.holds is False}
    return {
        "scheme": name,
        "K": [K for K, _ in rows],
        "holds_for": holds,
        "fails_for": sorted(fails),
        "first_violation": fails,
    }
