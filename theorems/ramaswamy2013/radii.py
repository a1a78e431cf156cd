"""The finite steps inside the continuity, openness and limit arguments of the proofs of Theorems 3, 4,
6 and 7: each "there is a radius" is given its explicit value and checked on symbolic variables (z3), so
that only the purely topological wrapping ("a strictly convex function with a unique minimiser has a
strictly larger infimum outside a ball") is left to the reader.

* Theorem 3, proof, step 3: the displayed chain regret_p(pred*(u_m)) = (u^p - u_m)^T beta_{pred*(u_m)} +
  min_t' u_m^T beta_t' - min_t' (u^p)^T beta_t' (k = 3 predictions, d = 2: t = 1 is pred*(u_m) WLOG by
  relabelling), and its quantitative form: with |u - u^p|_inf < delta and delta |beta_1 - beta_t|_1 <= eps
  (the radius eps / max_s,t |beta_s - beta_t|_1 the sampled check ``ramaswamy2013.theorem3.calibration``
  uses), eps the smallest positive regret, pred*(u) has regret 0.  |.|_inf <= |.|_2, so the box is the
  weaker hypothesis: the claim covers the Euclidean ball of the paper.
* Proofs of Theorems 4 and 6, "there exists eps > 0 such that ||u - u^p|| < eps => pred(u) in Pi(p)": eps
  = half the smallest positive gap g between the scores of u^p that the pred map sorts (the diagonal
  u_ii for pred-bar_MAP, u_i for Theorem 6's pred), with the Euclidean norm (the coordinates outside the
  pair enter as a term rest >= 0).  Pi(p) is defined pair by pair, so one pair (i, j) is every pair.
* Proof of Theorem 7, step 3: "for large enough m" is |u^m_ab - u^p_ab| <= eps/8 on every coordinate,
  which gives both displayed implications (>= eps/2 on the DAG's edges, <= eps/4 where u^p_ij = u^p_ji);
  and Algorithm 1, which deletes edges in ascending order of weight until the graph is acyclic, reaches
  every other edge before any edge of the DAG (whose edges alone are acyclic), so it deletes none of them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sympy

from symcal import implies, implies_cases
from symcal.claims.core import Claim

from .common import cite, r_sizes, twin_id

HALF, QUARTER, EIGHTH = sympy.Rational(1, 2), sympy.Rational(1, 4), sympy.Rational(1, 8)
EPS, DELTA = sympy.symbols("epsilon delta", real=True)

# ---------------------------------------------------------------------------------------
# Theorem 3, proof, step 3
# ---------------------------------------------------------------------------------------

T3_STEP3 = "Theorem 3, proof, step 3"


def _t3_symbols(k: int, d: int) -> tuple[tuple[Any, ...], tuple[Any, ...], list[list[Any]]]:
    """u_m (or u) as v1..vd, u^p as q1..qd, beta_t as beta_t_i (t = 1..k)."""
    v = sympy.symbols(f"v1:{d + 1}", real=True)
    q = sympy.symbols(f"q1:{d + 1}", real=True)
    beta = [[sympy.Symbol(f"beta_{t}_{i}", real=True) for i in range(1, d + 1)] for t in range(1, k + 1)]
    return v, q, beta


def _dot(x: tuple[Any, ...], row: list[Any]) -> Any:
    return sympy.Add(*[a * b for a, b in zip(x, row, strict=True)])


@functools.cache
def _regret_chain_conclusion(k: int, d: int) -> Any:
    """(u^p)^T beta_1 - min_t (u^p)^T beta_t = (u^p - u_m)^T beta_1 + min_t u_m^T beta_t - min_t (u^p)^T beta_t: built
    when the claim is checked or shown, not when the library is loaded (sympy's Min compares its arguments)."""
    v, q, beta = _t3_symbols(k, d)
    min_q = sympy.Min(*[_dot(q, b) for b in beta])
    min_v = sympy.Min(*[_dot(v, b) for b in beta])
    lhs = _dot(q, beta[0]) - min_q
    rhs = _dot(tuple(a - b for a, b in zip(q, v, strict=True)), beta[0]) + min_v - min_q
    return sympy.Eq(lhs, rhs)


def regret_chain_claim(id: str, *, k: int = 3, d: int = 2, pred_hypothesis: bool = True) -> Claim:
    """Theorem 3, proof, step 3: "regret_p(pred*(u_m)) = (u^p)^T beta_{pred*(u_m)} - min_t' (u^p)^T beta_t' = ...
    = (u^p - u_m)^T beta_{pred*(u_m)} + min_t' u_m^T beta_t' - min_t' (u^p)^T beta_t'"; t = 1 is pred*(u_m)
    (relabel the predictions).  ``pred_hypothesis=False`` drops "t = 1 is pred*(u_m)" (the twin)."""
    v, q, beta = _t3_symbols(k, d)
    return implies(
        id,
        hypotheses={"pred_star_of_u_m": [_dot(v, beta[0]) <= _dot(v, b) for b in beta[1:]] if pred_hypothesis else []},
        conclusion=lambda m: _regret_chain_conclusion(k, d),
        cite=cite(T3_STEP3, "regret_p(pred*(u_m)) = (u^p - u_m)^T beta_{pred*(u_m)} + min_t' u_m^T beta_t' - "
                            "min_t' (u^p)^T beta_t'. The last equality holds by definition of pred*"),
        statement=f"k = {k} predictions, d = {d}, every real u_m, u^p, beta: with t = 1 = pred*(u_m) (argmin_t u_m^T "
                  "beta_t), (u^p)^T beta_1 - min_t (u^p)^T beta_t = (u^p - u_m)^T beta_1 + min_t u_m^T beta_t - "
                  "min_t (u^p)^T beta_t" + ("" if pred_hypothesis else " (twin: t = 1 any prediction)"),
        scope="t = 1 stands for pred*(u_m) after relabelling the predictions; k = 3, d = 2",
    )


@functools.cache
def _regret_form_conclusion(n: int, k: int, d: int, nudge: Any) -> Any:
    """p^T l_1 - min_t p^T l_t = (u^p)^T beta_1 - min_t (u^p)^T beta_t + nudge (l = alpha beta^T + c, p_n = 1 - p_1 -
    ... - p_{n-1}): built when the claim is checked or shown, not when the library is loaded."""
    p = list(sympy.symbols(f"p1:{n}", real=True))
    probs = [*p, 1 - sympy.Add(*p)]
    alpha = [[sympy.Symbol(f"alpha_{y}_{i}", real=True) for i in range(1, d + 1)] for y in range(1, n + 1)]
    _v, _q, beta = _t3_symbols(k, d)
    c = sympy.Symbol("c", real=True)
    risk = [sympy.Add(*[probs[y] * (_dot(tuple(alpha[y]), beta[t]) + c) for y in range(n)]) for t in range(k)]
    up = tuple(sympy.Add(*[probs[y] * alpha[y][i] for y in range(n)]) for i in range(d))
    lhs = risk[0] - sympy.Min(*risk)
    rhs = _dot(up, beta[0]) - sympy.Min(*[_dot(up, b) for b in beta]) + nudge
    return sympy.Eq(lhs, rhs)


def regret_form_claim(id: str, *, n: int = 3, k: int = 3, d: int = 2, nudge: Any = 0) -> Claim:
    """Theorem 3, proof: "regret_p(t) = p^T l_t - min_t' p^T l_t' = (u^p)^T beta_t - min_t' (u^p)^T beta_t'" for
    l = alpha beta^T + c, p on the simplex (p_n = 1 - p_1 - ... - p_{n-1}) and u^p = sum_y p_y alpha_y, at t = 1
    (every t after relabelling); ``nudge`` is added to the right-hand side (the twin)."""
    return implies(
        id, hypotheses={}, conclusion=lambda m: _regret_form_conclusion(n, k, d, nudge),
        cite=cite("Theorem 3, proof", "regret_p(t) = p^T l_t - min_t' p^T l_t' = (u^p)^T beta_t - min_t' (u^p)^T "
                                      "beta_t'"),
        statement=f"n = {n} labels, k = {k} predictions, d = {d}, every real alpha, beta, c and p summing to 1: "
                  "p^T l_1 - min_t p^T l_t = (u^p)^T beta_1 - min_t (u^p)^T beta_t"
                  + ("" if nudge == 0 else f" + {nudge} (twin)"),
        scope="t = 1 stands for any prediction after relabelling; n = k = 3, d = 2",
    )


def regret_radius_claim(id: str, *, k: int = 3, d: int = 2, factor: Any = 1) -> Claim:
    """Theorem 3, proof, step 3: "this implies there exists delta > 0 such that ||u - u^p|| < delta =>
    regret_p(pred*(u)) - regret_p(pred*(u^p)) < eps", with delta = eps / max_t |beta_1 - beta_t|_1 and eps the
    smallest positive regret: then regret_p(pred*(u)) = 0.  ``factor`` widens the radius (the twin: 2)."""
    v, q, beta = _t3_symbols(k, d)
    min_q = sympy.Min(*[_dot(q, b) for b in beta])
    regret = [_dot(q, b) - min_q for b in beta]
    spread = [sympy.Add(*[sympy.Abs(a - b) for a, b in zip(beta[0], row, strict=True)]) for row in beta[1:]]
    return implies(
        id,
        hypotheses={
            "pred_star_of_u": [_dot(v, beta[0]) <= _dot(v, b) for b in beta[1:]],
            "u_within_delta": [DELTA > 0] + [sympy.Abs(a - b) < DELTA for a, b in zip(v, q, strict=True)],
            "delta_radius": [DELTA * w <= factor * EPS for w in spread],
            "eps_smallest_positive_regret": [EPS > 0] + [sympy.Or(sympy.Eq(g, 0), g >= EPS) for g in regret],
        },
        conclusion=sympy.Eq(regret[0], 0),
        cite=cite(T3_STEP3, "In particular, this implies there exists delta > 0 such that ||u - u^p|| < delta => "
                            "regret_p(pred*(u)) - regret_p(pred*(u^p)) < eps"),
        statement=f"k = {k} predictions, d = {d}: t = 1 = pred*(u), |u - u^p|_inf < delta, delta |beta_1 - beta_t|_1 "
                  + ("<= eps" if factor == 1 else f"<= {factor} eps (twin)")
                  + ", every regret 0 or >= eps > 0: regret_p(pred*(u)) = 0",
        scope="t = 1 stands for pred*(u) after relabelling; |.|_inf <= |.|_2, so the box covers the paper's "
              "Euclidean ball; k = 3, d = 2",
    )


# ---------------------------------------------------------------------------------------
# Proofs of Theorems 4 and 6: the radius that keeps the sorted order
# ---------------------------------------------------------------------------------------


def sort_radius_claim(id: str, *, theorem: str = "4", fraction: Any = HALF) -> Claim:
    """Appendix, proofs of Theorems 4 and 6: "there exists eps > 0 such that for any u, ||u - u^p|| < eps =>
    pred(u) in Pi(p)", with eps = g/2 (g the smallest positive gap between the sorted scores of u^p);
    ``fraction`` replaces 1/2 (the twin: 2; at 1 the witness is a tie u_ii = u_jj, found in about 2 s)."""
    a_i, a_j, b_i, b_j, g, rest = sympy.symbols("a_i a_j b_i b_j g rest", real=True)
    s_i, s_j = sympy.symbols("s_i s_j", integer=True)
    if theorem == "4":
        location, what = "Appendix, proof of Theorem 4, step 2", "the diagonal scores u_ii, u_jj (a = u^p, b = u)"
        quote = "there exists eps > 0 such that for any u, ||u - u^p|| < eps => pred-bar_MAP(u) in Pi(p)"
    else:
        location, what = "Appendix, proof of Theorem 6, step 4", "the scores u_i, u_j (a = u^p, b = u)"
        quote = "there exists eps > 0 such that for any u in R^r, ||u - u^p|| < eps => pred(u) in Pi(p)"
    return implies(
        id,
        hypotheses={
            "g_smallest_positive_gap": [g > 0, sympy.Implies(a_i > a_j, a_i - a_j >= g)],
            "u_within_eps": [rest >= 0, EPS > 0, EPS <= fraction * g,
                             (b_i - a_i) ** 2 + (b_j - a_j) ** 2 + rest < EPS ** 2],
            "pred_sorts_u": [sympy.Implies(b_i > b_j, s_i < s_j), sympy.Implies(b_j > b_i, s_j < s_i),
                             sympy.Ne(s_i, s_j)],
        },
        conclusion=sympy.Implies(a_i > a_j, s_i < s_j),
        cite=cite(location, quote),
        statement=f"{what}: with g the smallest positive gap of u^p, ||u - u^p||_2 < eps <= "
                  + ("g/2" if fraction == HALF else f"{fraction} g (twin)")
                  + " and sigma = pred(u) sorting u (s = sigma(i), sigma(j)), a_i > a_j => sigma(i) < sigma(j): "
                    "sigma is in Pi(p)",
        scope="Pi(p) is defined pair by pair, so the pair (i, j) is every pair; the other coordinates of u - u^p "
              "enter the Euclidean norm as rest >= 0",
    )


# ---------------------------------------------------------------------------------------
# Proof of Theorem 7, step 3
# ---------------------------------------------------------------------------------------

T7_STEP3 = "Appendix, proof of Theorem 7, step 3"


def t7_margins_claim(id: str, *, radius: Any = EIGHTH) -> Claim:
    """Appendix, proof of Theorem 7, step 3: "for large enough m: u^p_ij - u^p_ji > 0 => u^m_ij - u^m_ji >=
    eps/2, u^p_ij - u^p_ji = 0 => u^m_ij - u^m_ji <= eps/4", "large enough" being |u^m - u^p|_inf <= eps/8
    (``radius`` replaces 1/8: the twin, 1/4)."""
    p_ij, p_ji, m_ij, m_ji = sympy.symbols("up_ij up_ji um_ij um_ji", real=True)
    dp, dm = p_ij - p_ji, m_ij - m_ji
    return implies(
        id,
        hypotheses={
            "eps_smallest_positive_difference": [EPS > 0, sympy.Implies(dp > 0, dp >= EPS)],
            "u_m_within_eps_over_8": [sympy.Abs(m_ij - p_ij) <= radius * EPS, sympy.Abs(m_ji - p_ji) <= radius * EPS],
        },
        conclusion=sympy.And(sympy.Implies(dp > 0, dm >= EPS / 2), sympy.Implies(sympy.Eq(dp, 0), dm <= EPS / 4)),
        cite=cite(T7_STEP3, "for large enough m: u^p_ij - u^p_ji > 0 => u^m_ij - u^m_ji >= eps/2, u^p_ij - u^p_ji = "
                            "0 => u^m_ij - u^m_ji <= eps/4"),
        statement="eps the smallest positive u^p_ij - u^p_ji and |u^m_ab - u^p_ab| <= "
                  + ("eps/8" if radius == EIGHTH else f"{radius} eps (twin)")
                  + " on the two coordinates of a pair: both displayed implications hold",
        scope="every ordered pair (i, j) is such a pair: 'for large enough m' is |u_m - u^p|_inf <= eps/8",
    )


def _t7_deletion_cases(r: int | None, *, other_max: Any) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """One case per split of the r(r-1)/2 pairs into k edges of the DAG of u^p and m other edges (k, m >= 1):
    the DAG's edges weigh >= eps/2 in the graph of u_m, the others at most ``other_max`` eps."""
    assert r is not None
    total = r * (r - 1) // 2
    cases = []
    for k in range(1, total):
        m = total - k
        dag = sympy.symbols(f"w_dag1:{k + 1}", real=True)
        other = sympy.symbols(f"w_other1:{m + 1}", real=True)
        hyps = {
            "eps_positive": [EPS > 0],
            "dag_edges_heavy": [w >= EPS / 2 for w in dag],
            "other_edges_light": [w <= other_max * EPS for w in other] + [w >= 0 for w in other],
        }
        cases.append((f"r={r}, {k} DAG edges, {m} other edges", hyps, sympy.Max(*other) < sympy.Min(*dag)))
    return cases


def t7_no_deletion_claim(id: str, *, other_max: Any = QUARTER) -> Claim:
    """Appendix, proof of Theorem 7, step 3: "the directed graph induced by u_m contains the DAG induced by u^p,
    and any edge (i, j) such that u^p_ij - u^p_ji > 0 will not be deleted by the algorithm": every other edge
    is lighter than every DAG edge, so Algorithm 1 (ascending order, stop once acyclic) reaches all of them
    first, and the graph left after deleting all of them is the DAG, acyclic.  ``other_max`` replaces 1/4
    (the twin: 1/2, where a tie lets Algorithm 1 delete a DAG edge first)."""
    return implies_cases(
        id, cases=lambda r: _t7_deletion_cases(r, other_max=other_max), sizes=r_sizes(3, 4),
        domain="r = 3, 4: every split of the r(r-1)/2 pairs into k >= 1 DAG edges and m >= 1 other edges",
        cite=cite(T7_STEP3, "the directed graph induced by u_m contains the DAG induced by u^p, and any edge (i, j) "
                            "such that u^p_ij - u^p_ji > 0 will not be deleted by the algorithm"),
        statement="DAG edges weigh >= eps/2, the others <= "
                  + ("eps/4" if other_max == QUARTER else f"{other_max} eps (twin)")
                  + ": the heaviest other edge is lighter than the lightest DAG edge, so Algorithm 1's ascending "
                    "deletions (which stop once the graph is acyclic, at the latest when only the DAG is left) "
                    "delete no DAG edge",
    )


# ---------------------------------------------------------------------------------------
# The claims, their twins
# ---------------------------------------------------------------------------------------

theorem3_regret_form = regret_form_claim("ramaswamy2013.theorem3.proof.regret_form")
theorem3_regret_chain = regret_chain_claim("ramaswamy2013.theorem3.proof.regret_chain")
theorem3_regret_radius = regret_radius_claim("ramaswamy2013.theorem3.proof.regret_radius")
theorem4_sort_radius = sort_radius_claim("ramaswamy2013.theorem4.proof.sort_radius", theorem="4")
theorem6_sort_radius = sort_radius_claim("ramaswamy2013.theorem6.proof.sort_radius", theorem="6")
theorem7_margins = t7_margins_claim("ramaswamy2013.theorem7.proof.limit_margins")
theorem7_no_deletion = t7_no_deletion_claim("ramaswamy2013.theorem7.proof.dag_edges_kept")

SECTION3_CLAIMS = [theorem3_regret_form, theorem3_regret_chain, theorem3_regret_radius]
APPENDIX_THEOREM4_CLAIMS = [theorem4_sort_radius]
APPENDIX_THEOREM6_CLAIMS = [theorem6_sort_radius]
APPENDIX_THEOREM7_CLAIMS = [theorem7_margins, theorem7_no_deletion]
CLAIMS = SECTION3_CLAIMS + APPENDIX_THEOREM4_CLAIMS + APPENDIX_THEOREM6_CLAIMS + APPENDIX_THEOREM7_CLAIMS

TWINS: dict[str, Callable[[], Claim]] = {}
TWINS[theorem3_regret_form.id] = lambda: regret_form_claim(twin_id(theorem3_regret_form.id), nudge=EPS)
TWINS[theorem3_regret_chain.id] = lambda: regret_chain_claim(twin_id(theorem3_regret_chain.id), pred_hypothesis=False)
# k = 2, d = 1 keeps the twin under a second (at k = 3, d = 2 z3 takes about 7 s to find the witness)
TWINS[theorem3_regret_radius.id] = lambda: regret_radius_claim(twin_id(theorem3_regret_radius.id), k=2, d=1, factor=2)
TWINS[theorem4_sort_radius.id] = lambda: sort_radius_claim(twin_id(theorem4_sort_radius.id), theorem="4", fraction=2)
TWINS[theorem6_sort_radius.id] = lambda: sort_radius_claim(twin_id(theorem6_sort_radius.id), theorem="6", fraction=2)
TWINS[theorem7_margins.id] = lambda: t7_margins_claim(twin_id(theorem7_margins.id), radius=QUARTER)
TWINS[theorem7_no_deletion.id] = lambda: t7_no_deletion_claim(twin_id(theorem7_no_deletion.id), other_max=HALF)
