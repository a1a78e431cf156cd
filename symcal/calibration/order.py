"""Order-preserving surrogates on a user's small distribution (Calauzènes, Usunier & Gallinari
2013, Definition 3.1 and the proof of Theorem 3.2).

:func:`surrogate_order_check` -- is a surrogate loss order-preserving w.r.t. ``u`` on ``Delta``:
``inf L < inf {L(s) : arg sort(s) not in arg sort(U)}``?  The set on the right is the union over
pairs with ``U_i > U_j`` of ``{s_i <= s_j}``, so the check minimises the inner risk globally and on
each such half-space.  Piecewise-linear risks (hinge-type phi) are minimised *exactly* by z3's
optimiser: the rational optimum and minimiser are re-evaluated exactly, and each minimum is proved
by an unsat query "no score vector has a smaller risk" before the answer is given.  Other risks
are minimised numerically with scipy, and the result then says ``exact=False`` and ``holds=None``:
a numeric check is never a proof.

The losses (:func:`~symcal.ranking.order_preserving.pairwise_usual`,
:func:`~symcal.ranking.order_preserving.pairwise_proposed`) and the inner risk live in
:mod:`symcal.ranking.order_preserving`, which imports no solver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget
from symcal.ranking.measures import check_distribution
from symcal.ranking.order_preserving import Loss, inner_risk

__all__ = ["SurrogateOrderResult", "surrogate_order_check", "z3_minimum"]


@dataclass(frozen=True)
class SurrogateOrderResult:
    """Definition 3.1 on one distribution.  ``holds`` is None when undecided; ``exact`` says
    whether the minima are exact (z3 optimiser on a piecewise-linear risk) or numeric."""

    holds: bool | None
    exact: bool
    reason: str
    utility: tuple[Any, ...]
    min_risk: Any
    pair_minima: dict[tuple[int, int], Any] = field(default_factory=dict)
    witness: dict[str, Any] | None = None
    method: str = ""

    def __bool__(self) -> bool:
        return bool(self.holds)


def _is_piecewise_linear(expr: Any, s: tuple[sympy.Symbol, ...]) -> bool:
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Function) and not isinstance(node, sympy.Max | sympy.Min | sympy.Abs):
            return False
        if isinstance(node, sympy.Pow):
            return False
        if isinstance(node, sympy.Mul) and sum(1 for a in node.args if a.free_symbols) > 1:
            return False
    return True


def z3_minimum(expr: Any, s: tuple[sympy.Symbol, ...], extra: list[Any], timeout_s: float
                ) -> tuple[str, Fraction | None, dict[str, Fraction] | None]:
    """z3's optimiser on ``expr`` under ``extra``, within ``timeout_s`` CPU seconds (a watchdog on
    the CPU clock; z3's own wall-clock ``timeout`` is only the backstop): ("optimal", the minimum,
    a minimiser), ("unbounded", None, None) or ("unknown", None, None)."""
    import z3

    from symcal.backends.translate import Translator, model_fraction
    from symcal.backends.z3_backend import cpu_watchdog

    tr = Translator()
    budget = Budget(timeout_s)
    opt = z3.Optimize()
    opt.set("timeout", budget.wall_ms())
    for c in extra:
        opt.add(tr(c))
    obj = tr(expr)
    h = opt.minimize(obj)
    with cpu_watchdog(budget, opt.ctx):
        r = opt.check()
    if r != z3.sat:
        return "unknown", None, None
    val = h.value()
    if not (z3.is_rational_value(val) or z3.is_int_value(val)):
        return "unbounded", None, None  # -oo or an epsilon value: the infimum is not attained
    m = opt.model()
    point = {str(x): model_fraction(m.eval(tr.var(x), model_completion=True)) for x in s}
    return "optimal", model_fraction(val), point


def _z3_none_below(expr: Any, s: tuple[sympy.Symbol, ...], extra: list[Any], bound: Fraction, strict: bool,
                   timeout_s: float) -> bool:
    """True when z3 answers ``unsat`` to "some s with ``extra`` has risk < bound" (``<=`` when
    not ``strict``): the optimiser's value is then proved, not taken on its word."""
    import z3

    from symcal.backends.translate import Translator
    from symcal.backends.z3_backend import cpu_watchdog

    tr = Translator()
    budget = Budget(timeout_s)
    solver = z3.Solver()
    solver.set("timeout", budget.wall_ms())
    for c in extra:
        solver.add(tr(c))
    b = sympy.Rational(bound.numerator, bound.denominator)
    solver.add(tr(expr < b if strict else expr <= b))
    with cpu_watchdog(budget, solver.ctx):
        return solver.check() == z3.unsat


def _exact_value(expr: Any, s: tuple[sympy.Symbol, ...], point: dict[str, Fraction]) -> Fraction | None:
    """The risk at a rational point, evaluated exactly (a piecewise-linear risk with rational
    coefficients is rational there); None when it does not evaluate to a rational -- never a
    guessed one (no nsimplify)."""
    v = expr.xreplace({x: sympy.Rational(point[str(x)].numerator, point[str(x)].denominator) for x in s})
    if not v.is_Rational:
        return None
    return Fraction(int(v.p), int(v.q))


def surrogate_order_check(loss: Loss, distribution: Any, n: int, *,
                          utility: Callable[[Any], Sequence[Any]] | None = None,
                          timeout_s: float = 10.0) -> SurrogateOrderResult:
    """Definition 3.1 on a finite distribution of supervisions (exact for piecewise-linear
    risks, numeric otherwise).  ``utility`` maps a supervision to utilities (default: the
    supervision itself, i.e. a template loss with u = identity).  Each z3 query may take
    ``timeout_s`` CPU seconds."""
    pairs = check_distribution(distribution)
    expr, s = inner_risk(loss, pairs, n, utility)
    U: list[Any] = [Fraction(0)] * n
    for y, p in pairs:
        v = tuple(utility(y)) if utility else tuple(y)
        U = [a + p * Fraction(b) for a, b in zip(U, v, strict=True)]
    Ut = tuple(U)
    bad_pairs = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if Ut[i - 1] > Ut[j - 1]]
    if not bad_pairs:
        return SurrogateOrderResult(True, True, "U(Delta) is constant: every ranking sorts by U", Ut, None)
    if _is_piecewise_linear(expr, s):
        st, m, pt = z3_minimum(expr, s, [], timeout_s)
        if st != "optimal" or m is None or pt is None:
            return SurrogateOrderResult(None, True, f"the global minimum is {st}", Ut, None, method="z3 Optimize")
        if _exact_value(expr, s, pt) != m:  # independent exact re-evaluation
            return SurrogateOrderResult(None, True, "z3's global minimiser failed the exact re-evaluation", Ut, None,
                                        method="z3 Optimize")
        if not _z3_none_below(expr, s, [], m, True, timeout_s):  # the minimum itself, proved
            return SurrogateOrderResult(None, True, f"z3 could not prove that no score vector has risk < {m}", Ut,
                                        None, method="z3 Optimize")
        minima: dict[tuple[int, int], Any] = {}
        for i, j in bad_pairs:
            st2, mij, ptij = z3_minimum(expr, s, [s[i - 1] <= s[j - 1]], timeout_s)
            if st2 != "optimal" or mij is None or ptij is None:
                return SurrogateOrderResult(None, True, f"the minimum on s_{i} <= s_{j} is {st2}", Ut, m,
                                            minima, method="z3 Optimize")
            if _exact_value(expr, s, ptij) != mij:  # independent exact re-evaluation
                return SurrogateOrderResult(None, True, "z3's minimiser failed the exact re-evaluation", Ut, m,
                                            minima, method="z3 Optimize")
            minima[(i, j)] = mij
            if mij <= m:
                return SurrogateOrderResult(
                    False, True,
                    f"U_{i} = {Ut[i - 1]} > U_{j} = {Ut[j - 1]}, yet s with s_{i} <= s_{j} attains the minimum "
                    f"inner risk {m}", Ut, m, minima,
                    {"pair": (i, j), "scores": ptij, "risk": mij, "min_risk": m}, "z3 Optimize (exact)",
                )
        for i, j in bad_pairs:  # each half-space's minimum above m, proved by an unsat query
            if not _z3_none_below(expr, s, [s[i - 1] <= s[j - 1]], m, False, timeout_s):
                return SurrogateOrderResult(None, True, f"z3 could not prove that s_{i} <= s_{j} forces risk > {m}",
                                            Ut, m, minima, method="z3 Optimize")
        gap = min(minima.values()) - m
        return SurrogateOrderResult(True, True, f"every misordered half-space has inner risk >= {m} + {gap} "
                                    f"(each bound proved by an unsat query)", Ut, m, minima, None,
                                    "z3 Optimize, each bound proved unsat (exact)")
    return _numeric_check(expr, s, Ut, bad_pairs)


def _numeric_check(expr: Any, s: tuple[sympy.Symbol, ...], U: tuple[Any, ...],
                   bad_pairs: list[tuple[int, int]]) -> SurrogateOrderResult:
    import numpy as np
    from scipy.optimize import minimize

    f = sympy.lambdify([s], expr, "numpy")
    n = len(s)

    def run(cons: list[dict[str, Any]]) -> tuple[float, list[float]]:
        best = (float("inf"), [0.0] * n)
        for x0 in (np.zeros(n), np.linspace(1, -1, n), np.array([float(u) for u in U])):
            r = minimize(lambda x: float(f(x)), x0, method="SLSQP", constraints=cons, options={"maxiter": 500})
            if r.fun < best[0]:
                best = (float(r.fun), list(map(float, r.x)))
        return best
    m, x = run([])
    minima: dict[tuple[int, int], Any] = {}
    for i, j in bad_pairs:
        mij, _ = run([{"type": "ineq", "fun": lambda x, i=i, j=j: x[j - 1] - x[i - 1]}])
        minima[(i, j)] = mij
    gap = min(minima.values()) - m
    tol = 1e-6
    # a local optimiser's gap is evidence, not a decision: the answer stays undecided (None) either
    # way (ARCHITECTURE.md, *Rules of trust*, rules 1-2), and the reason says which way the numbers point
    leaning = "order-preserving" if gap > tol else ("not order-preserving" if gap < -tol else "inconclusive")
    return SurrogateOrderResult(None, False, f"undecided: numeric only (scipy SLSQP), smallest gap {gap:.3g} "
                                f"(tolerance {tol:g}) suggests {leaning}; never a proof", U, m, minima,
                                {"minimiser": x}, "scipy SLSQP (numeric)")
