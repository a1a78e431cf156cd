"""Section 4.2, Proposition 10 -- an erratum of scope: as printed it fails for ListMLE, which meets
every hypothesis, for p_1 above c ~ 0.52610; the corrected range (1/3, c), the range (c, 1) where
ListMLE is consistent, and why the stationary points are the minimisers (Q is strictly convex
modulo the shift, and coercive)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies, implies_cases
from symcal.claims import described

from .common import cite, luce_parts, t_symbols

X, Z, P1 = sympy.symbols("x z p1", real=True)  # t = (x, 1, z) = exp(g - g_2); p1 = p_123


def prop10_q(t: Sequence[Any], p1: Any) -> Any:
    """Q(p, g) of ListMLE for Proposition 10's family, with weights t = exp(g)."""
    from symcal.ranking.listwise import luce_probability

    p2 = (1 - p1) / 2
    return (-p1 * sympy.log(luce_probability(t, (1, 2, 3))) - p2 * sympy.log(luce_probability(t, (2, 1, 3)))
            - p2 * sympy.log(luce_probability(t, (3, 2, 1))))


@functools.cache
def prop10_stationarity() -> tuple[Any, Any]:
    """Numerators of x dQ/dx and z dQ/dz for ListMLE and p = (p1, 0, p2, 0, 0, p2),
    p2 = (1 - p1)/2, computed from the Luce probabilities (denominators are positive)."""
    xs, zs = sympy.symbols("x z", positive=True)
    q = prop10_q((xs, sympy.Integer(1), zs), P1)
    nx = sympy.numer(sympy.together(sympy.diff(q, xs) * xs))
    nz = sympy.numer(sympy.together(sympy.diff(q, zs) * zs))
    return sympy.expand(nx).subs({xs: X, zs: Z}), sympy.expand(nz).subs({xs: X, zs: Z})


NX, NZ = prop10_stationarity()
C_POLY = 7 * P1 ** 3 + 10 * P1 ** 2 - 11 * P1 + 2  # its root c in (1/3, 1) is the boundary
PROP10_WITNESS = {"x": Fraction(487, 210), "z": Fraction(17, 140), "p1": Fraction(628, 833)}
PROP10_CITE = cite("Proposition 10, Section 4.2", "p_123 = p_1, p_132 = 0, p_213 = p_2, p_231 = 0, p_312 = 0, "
                                                  "p_321 = p_2 respectively, where p_1 > p_2. Then phi is not "
                                                  "consistent with the top-1 true loss.")
FAMILY = [P1 > sympy.Rational(1, 3), P1 < 1]  # p1 > p2 = (1 - p1)/2 and p2 > 0


def prop10_holds(case: dict[str, Fraction], *, first: int = 1) -> tuple[bool, str]:
    """At a stationary point of Q (= the unique minimiser by convexity), is object ``first``
    NOT strictly ranked first?  (As printed: the minimiser is never a top-1 Bayes ranker.)"""
    x, z, p1 = case["x"], case["z"], case["p1"]
    vals = {X: sympy.Rational(x.numerator, x.denominator), Z: sympy.Rational(z.numerator, z.denominator),
            P1: sympy.Rational(p1.numerator, p1.denominator)}
    if not (NX.subs(vals) == 0 and NZ.subs(vals) == 0 and 1 < 3 * p1 < 3 and x > 0 and z > 0):
        return True, "not a stationary point of the family (no information)"
    t = {1: x, 2: Fraction(1), 3: z}
    top = max(t, key=lambda o: t[o])
    strictly_first = all(t[first] > t[o] for o in t if o != first)
    return not strictly_first, (f"p1 = {p1} (p2 = {(1 - p1) / 2}): N_x = N_z = 0 exactly at t = exp(g - g_2) = "
                                f"({x}, 1, {z}); the unique minimiser ranks object {top} first; the top-1 Bayes "
                                f"ranker puts object 1 first (p1 > p2)")


def prop10_claim(id: str, witness: dict[str, Fraction], *, finding: Finding | None = None, first: int = 1) -> Any:
    """Proposition 10, Section 4.2: "p_123 = p_1, p_132 = 0, p_213 = p_2, p_231 = 0, p_312 = 0, p_321 = p_2
    respectively, where p_1 > p_2. Then phi is not consistent with the top-1 true loss." -- as printed, for
    phi = ListMLE at an exact stationary point."""
    return finite_check(
        id, cases=[witness], holds=lambda c: prop10_holds(c, first=first),
        describe=lambda c: {k: v for k, v in c.items()},
        domain="ListMLE (which meets Proposition 10's hypotheses) at exact stationary points of Q for the family",
        cite=PROP10_CITE,
        statement="for every p_1 > p_2 in Proposition 10's family, the minimiser of Q (here phi = ListMLE) does not "
                  "rank object 1 first, i.e. is not a top-1 Bayes ranker",
        finding=finding,
    )


def _prop10_range_cases(*, below: bool, flip: bool, drop_range: bool, pin: dict[str, Fraction] | None
                        ) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """below: c-polynomial < 0 (p1 in (1/3, c)) => object 2 above object 1 (x < 1).
    not below: c-polynomial > 0 (p1 in (c, 1)) => object 1 first (x > 1; x > z holds on the
    whole family).  Twins: ``flip`` negates the conclusion, ``drop_range`` drops the range of
    p_1, ``pin`` fixes (x, z) to exact values (so z3's counterexample is rational)."""
    base = {"family": FAMILY, "positive": [X > 0, Z > 0], "stationary": [sympy.Eq(NX, 0), sympy.Eq(NZ, 0)]}
    if pin is not None:
        base["pinned"] = [sympy.Eq(X, sympy.Rational(pin["x"].numerator, pin["x"].denominator)),
                          sympy.Eq(Z, sympy.Rational(pin["z"].numerator, pin["z"].denominator))]
    rng = {} if drop_range else {"p1_below_c" if below else "p1_above_c": [C_POLY < 0 if below else C_POLY > 0]}
    if below:
        return [("x < 1", {**base, **rng}, X > 1 if flip else X < 1)]
    return [("x > 1", {**base, **rng}, X < 1 if flip else X > 1), ("x > z", base, X > Z)]


def prop10_range_claim(id: str, *, below: bool = True, flip: bool = False, drop_range: bool = False,
                       pin: dict[str, Fraction] | None = None) -> Any:
    """Proposition 10, corrected: for ListMLE the minimiser ranks object 2 above object 1 for p_1 in
    (1/3, c) (``below``), and object 1 first for p_1 in (c, 1)."""
    cases = _prop10_range_cases(below=below, flip=flip, drop_range=drop_range, pin=pin)
    statement = ("for ListMLE on Proposition 10's family with p_1 in (1/3, c), c the root of "
                 "7p^3 + 10p^2 - 11p + 2 in (1/3, 1) (~0.52610), the minimiser of Q (its unique stationary "
                 "point) ranks object 2 above object 1: not a top-1 Bayes ranker") if below else \
                ("for ListMLE on Proposition 10's family with p_1 in (c, 1) the minimiser of Q (its unique "
                 "stationary point) ranks object 1 first (the top-1 Bayes ranker): Proposition 10's conclusion "
                 "fails there")
    return implies_cases(
        id, cases=lambda m: cases, sizes=None,
        domain="every stationary point of Q (zeros of its stationarity polynomials, t = (x, 1, z) = exp(g - g_2)) "
               "for p_1 in the range; by xia2009.proposition10.q_strictly_convex and .q_coercive there is exactly "
               "one, the minimiser",
        cite=PROP10_CITE, statement=statement,
    )


def prop10_hypothesis_claim(id: str, *, flip: bool = False) -> Any:
    """Proposition 10's hypothesis: "the strict inequality phi(g, (3, 1, 2)) < phi(g, (3, 2, 1)) holds when
    g_1 > g_2" -- for ListMLE (``flip`` reverses it: a twin)."""
    t = t_symbols(3)
    ny, dy = luce_parts(t, (3, 1, 2), 3)
    nz, dz = luce_parts(t, (3, 2, 1), 3)
    # phi(g,(3,1,2)) < phi(g,(3,2,1)) iff P(3,1,2) > P(3,2,1) iff N_y D_z > N_z D_y
    concl = ny * dz < nz * dy if flip else ny * dz > nz * dy
    return implies(id, hypotheses={"g1_above_g2": [t[0] > t[1]]}, conclusion=concl, cite=PROP10_CITE,
                   statement="ListMLE meets Proposition 10's strict hypothesis: phi(g,(3,1,2)) < phi(g,(3,2,1)) "
                             "whenever g_1 > g_2 (via t = exp(g))")


# Proposition 10: the argument behind the range claims -- Q is strictly convex modulo the
# shift (positive definite Hessian in (g_1, g_3) at g_2 = 0) and coercive, so it has exactly
# one stationary point, its unique minimiser.

@functools.cache
def prop10_hessian() -> tuple[Any, Any, Any]:
    """The Hessian of Q in (g_1, g_3) at g_2 = 0, as rational functions of (x, z) = (exp g_1,
    exp g_3): d/dg_1 = x d/dx and d/dg_3 = z d/dz (chain rule), computed by sympy from Q (once: cached)."""
    xs, zs = sympy.symbols("x z", positive=True)
    q = prop10_q((xs, sympy.Integer(1), zs), P1)
    dx, dz = xs * sympy.diff(q, xs), zs * sympy.diff(q, zs)
    h11 = sympy.together(xs * sympy.diff(dx, xs))
    h13 = sympy.together(zs * sympy.diff(dx, zs))
    h33 = sympy.together(zs * sympy.diff(dz, zs))
    back = {xs: X, zs: Z}
    return h11.subs(back), h13.subs(back), h33.subs(back)


def prop10_hessian_parts() -> tuple[Any, Any, Any, Any]:
    """-log P(y) = -(g_{y1} + g_{y2}) + log T + log(t_{y2} + t_{y3}) (T = t_1 + t_2 + t_3), so the
    Hessian of Q in (g_1, g_3) at t = (x, 1, z) is H_T + p_1 A + p_2 B + p_2 C: the Hessians of
    log T, log(t_2 + t_3) (y = 123), log(t_1 + t_3) (y = 213) and log(t_1 + t_2) (y = 321)."""
    x, z = X, Z
    t_sum = x + 1 + z
    h_t = sympy.Matrix([[x * (1 + z), -x * z], [-x * z, z * (x + 1)]]) / t_sum ** 2
    a = sympy.Matrix([[0, 0], [0, z / (1 + z) ** 2]])
    b = sympy.Matrix([[x * z, -x * z], [-x * z, x * z]]) / (x + z) ** 2
    c = sympy.Matrix([[x / (x + 1) ** 2, 0], [0, 0]])
    return h_t, a, b, c


def prop10_decomposition_claim(id: str, *, drop_c: bool = False) -> Any:
    """Proposition 10 for ListMLE: Q's Hessian in (g_1, g_3) is H_T + p_1 A + p_2 B + p_2 C (``drop_c``: a twin)."""
    def lhs(m: int | None) -> Any:  # built when checked or shown, not when the library is loaded
        h11, h13, h33 = prop10_hessian()
        return sympy.Matrix([[h11, h13], [h13, h33]])

    def rhs(m: int | None) -> Any:
        h_t, a, b, c = prop10_hessian_parts()
        p2 = (1 - P1) / 2
        return h_t + P1 * a + p2 * b + (0 if drop_c else p2) * c

    return identity(
        id, lhs, rhs,
        cite=PROP10_CITE,
        statement="for ListMLE on Proposition 10's family, the Hessian of Q(p, g) in (g_1, g_3) at g_2 = 0 "
                  "(computed by sympy from Q, t = exp(g) = (x, 1, z)) is H_T + p_1 A + p_2 B + p_2 C, the "
                  "Hessians of log T, log(t_2 + t_3), log(t_1 + t_3), log(t_1 + t_2)",
        scope=described("every entry, as rational functions of x = exp g_1, z = exp g_3 and p_1 (symbolic)"),
    )


def prop10_convex_cases(*, drop_family: bool = False) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """v^T H_T v > 0 and v^T A v, v^T B v, v^T C v >= 0 for v != 0 and x, z > 0; then
    q_T + p_1 q_A + p_2 q_B + p_2 q_C > 0 for q_T > 0, q_A, q_B, q_C >= 0 on the family.
    ``drop_family`` (a twin) lets p_1 be any real."""
    v1, v3 = sympy.symbols("v1 v3", real=True)
    vec = sympy.Matrix([v1, v3])
    pos_xz = {"positive": [X > 0, Z > 0], "v_nonzero": [sympy.Or(sympy.Ne(v1, 0), sympy.Ne(v3, 0))]}
    h_t, a, b, c = prop10_hessian_parts()
    cases: list[tuple[str, dict[str, list[Any]], Any]] = [
        ("H_T positive definite", pos_xz, (vec.T * h_t * vec)[0] > 0)]
    for name, m in (("A", a), ("B", b), ("C", c)):
        cases.append((f"{name} positive semidefinite", pos_xz, (vec.T * m * vec)[0] >= 0))
    q_t, q_a, q_b, q_c = sympy.symbols("q_T q_A q_B q_C", real=True)
    hyps = {"parts": [q_t > 0, q_a >= 0, q_b >= 0, q_c >= 0]}
    if not drop_family:
        hyps["family"] = FAMILY
    cases.append(("H = H_T + p_1 A + p_2 B + p_2 C positive definite", hyps,
                  q_t + P1 * q_a + (1 - P1) / 2 * (q_b + q_c) > 0))
    return cases


def prop10_convex_claim(id: str, *, drop_family: bool = False) -> Any:
    """Proposition 10 for ListMLE: Q is strictly convex modulo the shift (``drop_family``: any p_1, a twin)."""
    return implies_cases(
        id, cases=lambda m: prop10_convex_cases(drop_family=drop_family), sizes=None,
        domain="quadratic forms v^T M v of the Hessian parts for every v != 0, x = exp g_1 > 0, z = exp g_3 > 0; "
               "p_1 in (1/3, 1); with xia2009.proposition10.q_hessian_decomposition (sympy)",
        cite=PROP10_CITE,
        statement="for ListMLE on Proposition 10's family, the Hessian of Q(p, g) in (g_1, g_3) at g_2 = 0 is "
                  "positive definite at every g: Q is strictly convex modulo the shift, so it has at most one "
                  "stationary point (mod shift), and a stationary point is the unique minimiser",
    )


def prop10_coercive_cases(*, drop_family: bool = False) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """(a) P(y) <= min(1, t_{y1}/t_{y2}) min(1, t_{y2}/t_{y3}) for the three orderings of the
    family, i.e. -log P(y) >= (g_{y2} - g_{y1})^+ + (g_{y3} - g_{y2})^+; (b) the p-weighted sum of
    these bounds is >= p_2 (|g_1 - g_2| + |g_3 - g_2|).  ``drop_family`` (a twin) lets p_1 be any real."""
    t = t_symbols(3)
    cases: list[tuple[str, dict[str, list[Any]], Any]] = []
    for y in ((1, 2, 3), (2, 1, 3), (3, 2, 1)):
        num, den = luce_parts(t, y, 3)
        a, b, c = (t[o - 1] for o in y)
        cases.append((f"P{y} <= min(1, t_{y[0]}/t_{y[1]}) min(1, t_{y[1]}/t_{y[2]})", {},
                      num / den <= sympy.Min(1, a / b) * sympy.Min(1, b / c)))
    g = list(sympy.symbols("g1 g2 g3", real=True))

    def hinge(y: tuple[int, ...]) -> Any:
        return sum(sympy.Max(0, g[y[s + 1] - 1] - g[y[s] - 1]) for s in range(2))

    p2 = (1 - P1) / 2
    lower = P1 * hinge((1, 2, 3)) + p2 * hinge((2, 1, 3)) + p2 * hinge((3, 2, 1))
    hyps = {} if drop_family else {"family": FAMILY}
    cases.append(("sum_y p_y (hinge bounds) >= p_2 (|g_1 - g_2| + |g_3 - g_2|)", hyps,
                  lower >= p2 * (sympy.Abs(g[0] - g[1]) + sympy.Abs(g[2] - g[1]))))
    return cases


def prop10_coercive_claim(id: str, *, drop_family: bool = False) -> Any:
    """Proposition 10 for ListMLE: Q >= p_2 (|g_1 - g_2| + |g_3 - g_2|) (``drop_family``: any p_1, a twin)."""
    return implies_cases(
        id, cases=lambda m: prop10_coercive_cases(drop_family=drop_family), sizes=None,
        domain="the three orderings of the family (t = exp(g) > 0) and one piecewise-linear bound in g, p_1 in "
               "(1/3, 1)",
        cite=PROP10_CITE,
        statement="for ListMLE on Proposition 10's family, Q(p, g) >= p_2 (|g_1 - g_2| + |g_3 - g_2|) (p_2 > 0): Q "
                  "is coercive modulo the shift, so it attains its minimum and a stationary point exists for "
                  "every p_1 in (1/3, 1)",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

proposition10 = prop10_claim(
    "xia2009.proposition10", PROP10_WITNESS,
    finding=Finding(
        what=("Proposition 10 holds only for part of its family. ListMLE meets every hypothesis (it is top-3 "
              "subgroup order sensitive and phi(g,(3,1,2)) < phi(g,(3,2,1)) when g_1 > g_2), but for p_1 above "
              "c ~ 0.52610 (the root of 7p^3 + 10p^2 - 11p + 2 in (1/3, 1)) the minimiser of Q ranks object 1 "
              "first, which is the top-1 Bayes ranker. The conclusion 'phi is not consistent' survives as an "
              "existence statement (some p in the family defeats phi), not for every p_1 > p_2."),
        counterexample=("p_1 = 628/833, p_2 = 205/1666: the stationarity polynomials of Q vanish exactly at "
                        "t = exp(g) = (487/210, 1, 17/140), so the unique minimiser is g = (log(487/210), 0, "
                        "log(17/140)) and ranks object 1 first."),
        corrected="xia2009.proposition10.corrected",
        finding_class="hypothesis",
    ),
)

proposition10_corrected = prop10_range_claim(proposition10.finding.corrected, below=True)
proposition10_consistent_above_c = prop10_range_claim("xia2009.proposition10.listmle_consistent_above_c",
                                                      below=False)

proposition10_listmle_hypothesis = prop10_hypothesis_claim("xia2009.proposition10.listmle_meets_hypothesis")

proposition10_q_hessian = prop10_decomposition_claim("xia2009.proposition10.q_hessian_decomposition")

proposition10_q_strictly_convex = prop10_convex_claim("xia2009.proposition10.q_strictly_convex")

proposition10_q_coercive = prop10_coercive_claim("xia2009.proposition10.q_coercive")
