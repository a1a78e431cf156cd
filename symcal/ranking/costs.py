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
(symbols for a symbolic family, ``exp(...)`` for the costs implied by ORBoost thresholds), or a
formula in i and j (:func:`formula_costs`: ``c_ji = log(i/j)``).  Python floats are refused
unless converted explicitly (``allow_float=True``); a cost must be *shown* >= 0.

Every sign and zero decision goes through :mod:`symcal.exact` (``sign`` / ``zero_test``, the one
zero test of symcal): the condition *holds* only when every residual is formally zero, *fails*
only when a residual is proved non-zero, and is undecided otherwise (ARCHITECTURE.md, *Rules of
trust*, rule 2).  Checks of non-rational schemes run under a CPU-seconds limit (``timeout=``) that
really stops them.
"""

from __future__ import annotations

import itertools
import multiprocessing
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal import display
from symcal.errors import invalid
from symcal.exact import CpuBudget, check_size, expr_str, fraction_str, normal_form, sign, to_fraction, zero_test
from symcal.verdicts import Status

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
    "sweep_formula",
    "is_formula",
    "parse_formula",
    "formula_costs",
    "formula_identity",
    "DEFAULT_TIMEOUT",
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
        if not isinstance(expr, sympy.Expr) or expr.has(sympy.I) or expr.is_real is False:
            raise invalid(where, _short(expr), "a real number or expression")
        if not expr.free_symbols:
            s = _cost_sign(expr)
            if s.value == -1:
                raise invalid(where, _short(expr), f"a cost >= 0 (misranking costs are non-negative); it is {s}")
            if s.value is None:
                raise invalid(
                    where, _short(expr), f"a cost that symcal can show to be >= 0 (its sign is undecided: {s.reason})"
                )
        elif expr.is_negative:
            raise invalid(where, _short(expr), "a cost >= 0 (misranking costs are non-negative)")
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
        if len(text) > _MAX_TEXT:
            raise invalid(where, value, f"an expression of at most {_MAX_TEXT:,} characters")
        expr = _parse_exact(text, where, value, _EXPR_NAMES, "a number or an expression in exp, log, sqrt, pi, E",
                            "a number or a valid expression such as exp(103/50)")
        return _cost_value(expr, where)
    return _nonneg(to_fraction(value, where, allow_float=allow_float), where)


_MAX_EXPONENT = 10_000
_MAX_TEXT = 10_000  # characters of a cost or a formula: beyond, Python's parser may run out of stack


def _parse_exact(text: str, where: str, value: Any, names: set[str], in_words: str, parses: str,
                 local: dict[str, Any] | None = None) -> Any:
    """``text`` (its characters and length already checked; ``^`` is ``**``) as an exact sympy
    expression: its names among ``names`` (else ``in_words``, naming the first other one); parsed
    unevaluated first, so that huge exponents and sizes are refused before anything is evaluated,
    then evaluated (``parses``: what is expected when it does not parse)."""
    found = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    if not found <= names:
        raise invalid(where, value, f"{in_words} (not {sorted(found - names)[0]!r})")

    def parse(evaluate: bool | None) -> Any:
        try:
            return sympy.sympify(text.replace("^", "**"), locals=local, rational=True, evaluate=evaluate)
        except (sympy.SympifyError, SyntaxError, TypeError, ValueError, RecursionError, MemoryError):
            raise invalid(where, value, parses) from None

    raw = parse(False)
    _check_exponents(raw, where, value)
    check_size(raw, where)
    return parse(None)  # None: sympy's evaluation setting


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


COST_SIGN_SECONDS = 10.0


_COST_SIGNS: dict[sympy.Expr, Any] = {}


def _cost_sign(expr: sympy.Expr) -> Any:
    """The exact sign of a closed cost (:func:`symcal.exact.sign`), remembered when decided:
    a scheme is re-validated each time it is built."""
    s = _COST_SIGNS.get(expr)
    if s is None:
        s = sign(expr, deadline=time.monotonic() + COST_SIGN_SECONDS)
        if s.value is not None:
            if len(_COST_SIGNS) > 4096:
                _COST_SIGNS.clear()
            _COST_SIGNS[expr] = s
    return s


def _short(x: Any) -> str:
    text = _show(x)
    return text if len(text) <= 200 else text[:197] + "..."


def _show(x: Any) -> str:
    if isinstance(x, Fraction | int):
        return fraction_str(Fraction(x))
    return expr_str(x)


def _jsonable(x: Any) -> Any:
    return _show(x)


def _check_K(K: Any, param: str = "K") -> int:
    if isinstance(K, bool) or not isinstance(K, int):
        raise invalid(param, K, "an integer number of categories K >= 2")
    if K < 2:
        raise invalid(param, K, "K >= 2 categories (ranking needs at least two ordered labels)")
    if K > MAX_K:  # refused before any work: the condition has K(K-1)/2 pairs, each an exact residual
        pairs = f"{K * (K - 1) // 2:,}" if K.bit_length() < 3000 else "more than 10**900"  # str() of a huge int fails
        raise invalid(param, K, f"at most K = {MAX_K:,} categories: this K gives {pairs} pairs "
                                f"to decide exactly, at most {MAX_K * (MAX_K - 1) // 2:,}")
    return K


MAX_K = 500


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

    def _repr_html_(self) -> str | None:
        return display.render("cost_scheme", "html", self)


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


def _bounded(values: Any, param: str, expected: str) -> list[Any]:
    """``values`` (an iterable, not a string) as a list of at most ``MAX_K + 1`` items: an endless
    or huge iterable is refused after that many, never run to its end."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise invalid(param, values, expected)
    out = list(itertools.islice(values, MAX_K + 2))
    if len(out) > MAX_K + 1:
        raise invalid(param, values, f"{expected}, at most {MAX_K + 1} of them")
    return out


def _seq(values: Any, param: str) -> list[Any]:
    values = _bounded(values, param, "a sequence of exact numbers or sympy expressions")
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
    counts = _bounded(counts, "counts", "category counts n_1..n_K (positive integers)")
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
    """A pair ``(j, i)`` where ``c_1K c_ji != c_1i c_jK - c_1j c_iK`` (or, in
    ``ConditionResult.undecided``, where it could not be decided); ``residual`` is
    ``c_1K c_ji - (c_1i c_jK - c_1j c_iK)`` (exact, logs written over a coprime base) and
    ``shown_by`` says how it was shown non-zero (or why it is undecided)."""

    j: int
    i: int
    lhs: Any
    rhs: Any
    residual: Any
    shown_by: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "j": self.j,
            "i": self.i,
            "lhs": _jsonable(self.lhs),
            "rhs": _jsonable(self.rhs),
            "residual": _jsonable(self.residual),
            "shown_by": self.shown_by,
        }

    def __str__(self) -> str:
        return (
            f"(j, i) = ({self.j}, {self.i}): c_1K c_ji = {_show(self.lhs)} but "
            f"c_1i c_jK - c_1j c_iK = {_show(self.rhs)} (residual {_show(self.residual)})"
        )


@dataclass(frozen=True)
class ConditionResult:
    """Whether a cost scheme satisfies Theorem 3's condition, why, and where it fails.

    ``holds`` is True only when every residual is formally zero, False only when some
    residual is proved non-zero (exactly, or by a rigorous enclosure), and None otherwise
    (``undecided`` lists those pairs; a time limit also gives None).  ``status`` is the
    engine's word for it (``proved`` / ``refuted`` / ``unknown``) and ``evidence`` the text a
    sceptic can re-check.  ``violations`` lists every failing ``(j, i)`` with its exact
    residual, in order.  ``bool(result)`` is ``result.holds is True``.
    """

    holds: bool | None
    K: int
    reason: str
    violations: tuple[Violation, ...] = ()
    undecided: tuple[Violation, ...] = ()
    pairs_checked: int = 0
    scope: str = ""
    c1K_positive: bool | None = None
    evidence: str = ""
    seconds: float = 0.0

    def __bool__(self) -> bool:
        return self.holds is True

    @property
    def status(self) -> Status:
        return {True: Status.PROVED, False: Status.REFUTED, None: Status.UNKNOWN}[self.holds]

    @property
    def witness(self) -> Violation | None:
        return self.violations[0] if self.violations else None

    def _repr_html_(self) -> str | None:
        return display.render("condition", "html", self)

    def to_json(self) -> dict[str, Any]:
        return {
            "holds": self.holds,
            "status": self.status.value,
            "K": self.K,
            "reason": self.reason,
            "scope": self.scope,
            "evidence": self.evidence,
            "seconds": round(self.seconds, 3),
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


DEFAULT_TIMEOUT = 60.0


def _check_timeout(timeout: Any) -> float | None:
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 1e9:
        raise invalid("timeout", timeout, "a positive number of seconds (or None for no limit)")
    return float(timeout)


def _limited(fn: Callable[..., Any], *args: Any, timeout: float | None, what: str) -> Any:
    """``fn(*args)`` under :func:`symcal.limits.run_limited` (a forked child with a CPU-seconds
    budget); inline when there is no limit, or when this process is itself a daemonic worker
    (the runner's, which already runs under a limit and may not fork children of its own)."""
    if timeout is None or multiprocessing.current_process().daemon:
        return fn(*args)
    from symcal.limits import run_limited

    return run_limited(fn, *args, timeout=timeout, what=what)


def satisfies_theorem3_condition(costs: CostScheme, *, timeout: float | None = DEFAULT_TIMEOUT) -> ConditionResult:
    """Decide Uematsu & Lee (2013), Theorem 3 (ii)'s condition
    ``c_1K c_ji = c_1i c_jK - c_1j c_iK`` for all ``1 <= j < i <= K``.

    Pairs with ``j = 1`` or ``i = K`` hold identically (``c_11 = c_KK = 0``); for K <= 3 the
    condition is void (Theorem 3 (i)).  Rational schemes are decided exactly.  Otherwise each
    residual goes through :func:`symcal.exact.sign` (symbolic schemes: :func:`symcal.exact.zero_test`):
    ``holds`` is True only when every residual is formally zero, False only when one is
    proved non-zero (exactly, or by a rigorous interval enclosure), None otherwise.

    ``timeout`` (seconds of CPU, default 60; None for no limit) really stops the check: it
    runs in a forked child (:func:`symcal.limits.run_limited`), and a check that does not
    finish is undecided ("gave up after S s").
    """
    if not isinstance(costs, CostScheme):
        raise invalid("costs", costs, "a CostScheme (see symcal.ranking.costs)")
    timeout = _check_timeout(timeout)
    start = time.monotonic()
    if costs.is_rational:  # exact Fractions: no sign test, nothing that can hang
        return _decide_condition(costs, None)
    from symcal.limits import TimeLimitReached

    try:
        return _limited(_decide_condition, costs, timeout, timeout=timeout, what="the Theorem 3 condition check")
    except TimeLimitReached:
        K = costs.K
        n = K * (K - 1) // 2
        return ConditionResult(
            None,
            K,
            f"gave up after {timeout:g} s: the check did not finish within the time limit",
            (),
            (),
            0,
            f"K = {K}, {n} pairs 1 <= j < i <= {K}; not finished",
            None,
            f"gave up after {timeout:g} s (CPU budget; nothing decided)",
            time.monotonic() - start,
        )


def _decide_condition(costs: CostScheme, timeout: float | None) -> ConditionResult:
    start = time.monotonic()
    budget = CpuBudget(0.95 * timeout) if timeout else None
    K = costs.K
    bad: list[Violation] = []
    undecided: list[Violation] = []
    methods: dict[str, int] = {}
    pairs = [(j, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)]
    for j, i in pairs:
        lhs, rhs, r = condition_residual(costs, j, i)
        if isinstance(r, Fraction):
            if r != 0:
                bad.append(Violation(j, i, lhs, rhs, r, "exact rational arithmetic"))
            else:
                methods["exact rational arithmetic"] = methods.get("exact rational arithmetic", 0) + 1
            continue
        if budget is not None and budget.expired():
            undecided.append(Violation(j, i, lhs, rhs, r, f"not reached: gave up after {timeout:g} s"))
            continue
        z = zero_test(r, deadline=budget)
        if z.zero is True:
            how = "formal zero" + (" (identically in the symbols)" if r.free_symbols else "")
            methods[how] = methods.get(how, 0) + 1
            continue
        shown = normal_form(r, deadline=budget)
        (bad if z.zero is False else undecided).append(Violation(j, i, lhs, rhs, shown, z.reason))
    c1k = costs.c(1, K)
    if isinstance(c1k, Fraction):
        c1k_pos: bool | None = c1k > 0
    elif c1k.free_symbols:
        c1k_pos = c1k.is_positive
    else:
        v = sign(c1k, deadline=budget).value
        c1k_pos = None if v is None else v > 0
    symbolic = bool(costs.symbols)
    what = "identically in the symbols " + ", ".join(sorted(map(str, costs.symbols))) if symbolic else "exactly"
    scope = f"K = {K}, all {len(pairs)} pairs 1 <= j < i <= {K}, {what}"
    seconds = time.monotonic() - start
    if bad:
        first = bad[0]
        reason = f"fails at {len(bad)} of {len(pairs)} pairs; first {first}"
        evidence = f"residual at (j, i) = ({first.j}, {first.i}) is {_show(first.residual)}; {first.shown_by}"
        return ConditionResult(
            False, K, reason, tuple(bad), tuple(undecided), len(pairs), scope, c1k_pos, evidence, seconds
        )
    if undecided:
        u = undecided[0]
        gave_up = f"gave up after {timeout:g} s; " if budget is not None and budget.expired() else ""
        return ConditionResult(
            None,
            K,
            f"{gave_up}{len(undecided)} residual(s) neither formally zero nor shown non-zero; "
            f"first at (j, i) = ({u.j}, {u.i}): {u.shown_by}",
            (),
            tuple(undecided),
            len(pairs),
            scope,
            c1k_pos,
            f"undecided at {len(undecided)} of {len(pairs)} pairs; first residual {_show(u.residual)}",
            seconds,
        )
    note = " (void for K <= 3: only pairs with j = 1 or i = K, which hold since c_11 = c_KK = 0)" if K <= 3 else ""
    warn = "" if c1k_pos is not False else "; note c_1K = 0: Theorem 3 then fails (f_0^* need not be optimal)"
    evidence = "every residual c_1K c_ji - c_1i c_jK + c_1j c_iK is 0: " + ", ".join(
        f"{n} by {m}" for m, n in sorted(methods.items())
    )
    return ConditionResult(
        True,
        K,
        f"c_1K c_ji = c_1i c_jK - c_1j c_iK at every pair{note}{warn}",
        (),
        (),
        len(pairs),
        scope,
        c1k_pos,
        evidence,
        seconds,
    )


def _tidy(x: Any) -> Any:
    """A readable exact form (logs over a coprime base, expanded, common factors out);
    never ``simplify``, which may build ``log(3**1000000/2**1000000)``."""
    if isinstance(x, Fraction | int):
        return sympy.Rational(Fraction(x).numerator, Fraction(x).denominator)
    x = sympy.sympify(x)
    if x.is_Rational:
        return x
    return normal_form(x, deadline=time.monotonic() + COST_SIGN_SECONDS)


def _is_zero(x: Any) -> bool:
    if isinstance(x, Fraction | int):
        return x == 0
    return zero_test(x, deadline=time.monotonic() + COST_SIGN_SECONDS).zero is True


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
            if any(_is_zero(x) for x in (c1k, cjk, cik)):
                row.update(lhs=None, rhs=None, note="a denominator c_1K, c_jK or c_iK is 0")
            else:
                row["lhs"] = _tidy(sympy.sympify(c(j, i)) / c1k)
                row["rhs"] = _tidy(
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
        out.append(None if _is_zero(cik) else _tidy(sympy.sympify(costs.c(1, i)) / cik))
    return out


def posterior_symbols(K: int) -> tuple[sympy.Symbol, ...]:
    """``p_1..p_K``: the posteriors P(Y = k | x)."""
    return tuple(sympy.Symbol(f"p_{k}", nonnegative=True) for k in range(1, _check_K(K) + 1))


def optimal_ranking_function(costs: CostScheme, p: Sequence[Any] | None = None) -> sympy.Expr:
    """``f_0^* = sum_{i=2}^K c_1i p_i / sum_{j=1}^{K-1} c_jK p_j`` (Theorem 3), a sympy
    expression in ``p`` (default the symbols ``p_1..p_K``)."""
    if not isinstance(costs, CostScheme):
        raise invalid("costs", costs, "a CostScheme (see symcal.ranking.costs)")
    K = costs.K
    ps = _seq(p, "p") if p is not None else list(posterior_symbols(K))
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


# ---------------------------------------------------------------------------------------
# Cost schemes given by a formula c_ji = f(i, j), and sweeps over K
# ---------------------------------------------------------------------------------------

_FORMULA_NAMES = _EXPR_NAMES | {"i", "j"}
_INDEX_I = sympy.Symbol("i", integer=True, positive=True)
_INDEX_J = sympy.Symbol("j", integer=True, positive=True)
_INDEX_K = sympy.Symbol("K", integer=True, positive=True)


def is_formula(text: Any) -> bool:
    """Does ``text`` read as a cost formula in ``i`` and ``j`` (e.g. ``"log(i/j)"``)?"""
    if not isinstance(text, str) or not _EXPR_CHARS.match(text) or "__" in text:
        return False
    names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    return names <= _FORMULA_NAMES


def parse_formula(formula: str, param: str = "formula") -> sympy.Expr:
    """``c_ji = f(i, j)`` (for j < i) from text such as ``"log(i/j)"``, ``"i - j"``,
    ``"(i-j)*(i+j)"``: a sympy expression in the positive integer symbols ``i`` and ``j``."""
    if not isinstance(formula, str) or not formula.strip():
        raise invalid(param, formula, "a formula in i and j such as log(i/j) or i - j")
    text = formula.strip()
    if not _EXPR_CHARS.match(text) or "__" in text:
        raise invalid(param, formula, "a formula in i and j with + - * / ^ ( ) and exp, log, sqrt, pi, E")
    if len(text) > _MAX_TEXT:
        raise invalid(param, formula, f"a formula of at most {_MAX_TEXT:,} characters")
    expr = _parse_exact(text, param, formula, _FORMULA_NAMES, "a formula in i, j and exp, log, sqrt, pi, E",
                        "a valid formula in i and j such as log(i/j)",
                        {"i": _INDEX_I, "j": _INDEX_J, "E": sympy.E, "pi": sympy.pi})
    if not isinstance(expr, sympy.Expr) or expr.atoms(sympy.Float):
        raise invalid(param, formula, "an exact formula in i and j")
    return expr


def formula_costs(formula: str | sympy.Expr, K: int) -> CostScheme:
    """The scheme ``c_ji = f(i, j)`` for ``1 <= j < i <= K``; each cost is validated (finite,
    exactly >= 0)."""
    f = parse_formula(formula) if isinstance(formula, str) else formula
    K = _check_K(K)
    costs = {}
    for j in range(1, K + 1):
        for i in range(j + 1, K + 1):
            v = f.xreplace({_INDEX_I: sympy.Integer(i), _INDEX_J: sympy.Integer(j)})
            costs[(j, i)] = v
    name = formula if isinstance(formula, str) else sympy.sstr(formula)
    return CostScheme(K, costs, f"c_ji = {name}")


def formula_identity(formula: str | sympy.Expr) -> tuple[bool | None, str, sympy.Expr]:
    """Try to prove Theorem 3's condition for ``c_ji = f(i, j)`` for every K at once.

    Only the pairs ``1 < j < i < K`` matter (those with ``j = 1`` or ``i = K`` hold since
    ``c_11 = c_KK = 0``), and there all six costs ``c_1K, c_ji, c_1i, c_jK, c_1j, c_iK`` are
    ``f`` at index pairs ``a < b``.  So substitute ``f`` with symbolic positive integers
    ``j, i, K``; logs are split (``log(i/j) = log i - log j``, true for positive reals), and
    the residual ``f(K,1) f(i,j) - f(i,1) f(K,j) + f(j,1) f(K,i)`` is decided by
    :func:`symcal.exact.zero_test`: formally zero -> ``(True, how, residual)``.  A residual
    that is not formally zero is *not* a refutation here (``(None, ...)``): the caller sweeps
    concrete K."""
    f = parse_formula(formula) if isinstance(formula, str) else formula

    def c(a: Any, b: Any) -> sympy.Expr:
        return f.xreplace({_INDEX_J: a, _INDEX_I: b})

    one, j, i, K = sympy.Integer(1), _INDEX_J, _INDEX_I, _INDEX_K
    residual = c(one, K) * c(j, i) - (c(one, i) * c(j, K) - c(one, j) * c(i, K))
    residual = sympy.expand_log(residual, force=False)  # i, j, K are positive: log(i/j) = log i - log j
    z = zero_test(residual, deadline=time.monotonic() + COST_SIGN_SECONDS, points=0)
    if z.zero is True:
        return True, f"holds for all K >= 2 (identity in symbolic j < i < K: {z.reason})", residual
    return None, "not an identity in symbolic j < i < K (" + z.reason + ")", residual


def condition_sweep(
    build: Callable[[int], CostScheme], Ks: Iterable[int], *, timeout: float | None = DEFAULT_TIMEOUT
) -> list[tuple[int, ConditionResult]]:
    """The condition for ``build(K)`` at each K: ``[(K, result), ...]``; ``timeout`` CPU
    seconds per K cover building (validating) the scheme and checking it."""
    from symcal.limits import TimeLimitReached

    timeout = _check_timeout(timeout)
    out = []
    for K in Ks:
        try:
            r = _limited(_build_and_check, build, K, timeout, timeout=timeout, what=f"the condition at K = {K}")
        except TimeLimitReached:
            r = ConditionResult(
                None, K, f"gave up after {timeout:g} s building or checking the scheme", evidence="nothing decided"
            )
        out.append((K, r))
    return out


def _build_and_check(build: Callable[[int], CostScheme], K: int, timeout: float | None) -> ConditionResult:
    return satisfies_theorem3_condition(build(K), timeout=timeout)


def _sweep_report(name: str, rows: list[tuple[int, ConditionResult]]) -> dict[str, Any]:
    if not rows:
        raise invalid("Ks", [], "at least one K >= 2")
    holds = [K for K, r in rows if r.holds is True]
    fails = {K: str(r.witness) for K, r in rows if r.holds is False}
    unknown = {K: r.reason for K, r in rows if r.holds is None}
    return {
        "scheme": name,
        "K": [K for K, _ in rows],
        "holds_for": holds,
        "fails_for": sorted(fails),
        "undecided_for": sorted(unknown),
        "first_violation": fails,
        "undecided": unknown,
    }


def sweep_named(name: str, Ks: Iterable[int], *, timeout: float | None = DEFAULT_TIMEOUT) -> dict[str, Any]:
    """For a named scheme (``zero_one``, ``linear``, ``dcg``) or a formula in ``i`` and ``j``
    (``"log(i/j)"``): for which K it satisfies the condition, with the first violation at
    each failing K.  For a formula, the condition is first tried for all K at once
    (:func:`formula_identity`); ``all_K`` then says so."""
    if name not in NAMED_SCHEMES:
        if is_formula(name):
            return sweep_formula(name, Ks, timeout=timeout)
        raise invalid("scheme", name, f"one of {', '.join(sorted(NAMED_SCHEMES))} or a formula in i and j")
    report = _sweep_report(name, condition_sweep(NAMED_SCHEMES[name], Ks, timeout=timeout))
    report["all_K"] = None
    return report


def sweep_formula(formula: str, Ks: Iterable[int], *, timeout: float | None = DEFAULT_TIMEOUT) -> dict[str, Any]:
    """:func:`sweep_named` for ``c_ji = formula`` (in ``i`` and ``j``, for ``j < i``)."""
    f = parse_formula(formula, "formula")
    Ks = list(Ks)
    if not Ks:
        raise invalid("Ks", [], "at least one K >= 2")
    proved, how, residual = _limited_identity(f, timeout)
    if proved:
        # the identity covers every K; the costs are still validated (finite, exactly >= 0):
        # c_ji = f(i, j) does not depend on K, so the largest K's table contains every other
        from symcal.limits import TimeLimitReached

        unknown = {}
        try:
            _limited(formula_costs, f, max(Ks), timeout=timeout, what=f"validating the costs up to K = {max(Ks)}")
        except TimeLimitReached:
            unknown = {K: f"gave up after {timeout:g} s validating the costs" for K in Ks}
        return {
            "scheme": f"c_ji = {formula}",
            "K": Ks,
            "holds_for": [K for K in Ks if K not in unknown],
            "fails_for": [],
            "undecided_for": sorted(unknown),
            "first_violation": {},
            "undecided": unknown,
            "all_K": how,
        }
    report = _sweep_report(f"c_ji = {formula}", condition_sweep(lambda K: formula_costs(f, K), Ks, timeout=timeout))
    report["all_K"] = None
    report["identity"] = how
    return report


def _limited_identity(f: sympy.Expr, timeout: float | None) -> tuple[bool | None, str, Any]:
    from symcal.limits import TimeLimitReached

    try:
        return _limited(formula_identity, f, timeout=timeout, what="the all-K identity")  # type: ignore[no-any-return]
    except TimeLimitReached:
        return None, f"gave up after {timeout:g} s on the all-K identity", None
