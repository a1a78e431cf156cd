"""Ramaswamy, Agarwal & Tewari (2013), "Convex Calibrated Surrogates for Low-Rank Loss Matrices
with Applications to Subset Ranking Losses", NIPS.

Main claims
-----------
* Theorem 3: ``p^T l_t = (u^p)^T beta_t + c`` (symbolic), ``p^T psi*(u) = |u - u^p|^2 + const``
  (so ``u^p`` is the unique minimiser), and calibration of ``(psi*, pred*)`` on seeded ``p``
  for P@2, ERU, MAP, PD and an arbitrary matrix (exact argmin over T, exact perturbation radius).
* Section 4: the two printed forms of P@q agree; the decomposition ``alpha_y = y``; the
  certified affine dimension is at most (and equals) ``r``; top-q selection attains
  ``pred*_P@q``; WTA = P@1.
* Section 5: the ERU decomposition and rank ``r``; the sorting pred map.  **Erratum**: the paper
  lets ``w`` range over R, but sorting in decreasing order is right only for ``w > 1``
  (``w < 1`` makes the discounts increase; ``w = 1`` divides by 0).
* Section 6: both rewritten MAP forms, the decomposition, the bound ``r(r+1)/2`` (certified:
  the affine dimension and the rank are exactly ``r(r+1)/2 - 1``), the QAP form of
  ``pred*_MAP``, Eq. (2); Theorem 4 and Lemma 8 exhaustively over ``S_r`` (r = 3, 4) on seeded
  ``p`` in ``P_reinforce``, the necessity of ``P_reinforce`` (a refuting ``p`` outside it);
  Corollary 5.  **Erratum (proof step)**: Lemma 8's displayed inequality replacing
  ``sum_{j < c}`` by the sum over every ``j not in {c, c+1}`` without positive parts is false
  (even for an optimal sigma^0); with ``(.)_+`` it holds and the lemma survives.
* Section 7: Eq. (1)'s decomposition, ``pred*_PD`` = exact MWFAS.  **Erratum**: "l_PD has rank
  at most r(r-1)/2" is false; the rank (and Theorem 3's ``d``) is ``r(r-1)/2 + 1`` over unit
  DAGs (corrected claim certified for r = 2..4; r = 5 in bench/rank.py); an
  ``r(r-1)/2``-dimensional surrogate still exists because the extra coordinate has a constant
  beta.  Theorem 6 for three score functions; psi_DMJ (lambda = z^2, nu = 1/2) as the
  special case ``f_i = sum_j (y_ij - y_ji)`` (exact identity up to a label-only term);
  Theorem 7 with Algorithm 1 and perturbed ``u^p``; ``P_DAG ⊇ P_f`` (z3, r = 3..6) and its
  strictness.
* Calibration decided over the whole simplex, or the paper's noise set, by the engine
  :mod:`symcal.calibration` (claims of kind ``calibration``; the seeded checks above stay as extra
  sampled checks): Theorem 3 for P@2, ERU and MAP at r = 3, 4, PD at r = 3 and the 4 x 3 matrix;
  Theorem 4, Corollary 5 and Lemma 8 over ``P_reinforce`` at r = 3, 4; Theorem 6 over ``P_f`` for two
  score functions (r = 3 on all unit DAGs, r = 4 on total orders); Theorem 7 over ``P_DAG`` at r = 3
  with Algorithm 1's exact regions (and, beyond the paper, over the whole simplex at r = 3).

Encoding notes
--------------
* Permutations are position vectors (``sigma[i-1] = sigma(i)``, the paper's convention); loss
  matrices, decompositions and rank certificates come from ``symcal.ranking.loss_matrix`` and
  ``symcal.ranking.subset_losses``: ranks are certified by an exact non-singular minor
  (lower bound) and an exactly checked decomposition (upper bound).  "Rank" is the rank of L;
  Theorem 3's ``d`` is the affine dimension ``min{d : L = A B^T + c 1 1^T}``; the Section 4-6
  surrogate dimensions bound the latter, the Section 7 remark the former.
* MAP is 0/0 at ``y = 0``; the paper's decomposition (``y_i y_j / |y|``, ``c = 1``) and ``u^p``
  hold on all of ``{0,1}^r`` exactly when ``l_MAP(0, sigma) = 1`` (the ``empty="one"``
  convention, used throughout); the rewritten forms are checked for ``y != 0``.
* ERU needs rational discounts: ``w`` with ``1/(w - 1)`` an integer (2, 3/2, 0, 1/2, ...).
* Calibration (Definition 1) is checked through the exact facts its proofs rest on: the
  unique minimiser ``u^p`` and a neighbourhood of it in which the pred map returns an optimal
  prediction; the radius is exact (Theorem 3: regret <= |u - u^p|_inf max |beta_s - beta_t|_1;
  Theorems 4, 6: half the smallest positive score gap; Theorem 7: a quarter of the smallest
  positive difference u_ij - u_ji).  Seeded distributions and perturbations; exact arithmetic.
* Theorem 6's ``psi_DMJ`` and ``psi_f`` differ by a factor 2 and a term depending only on the
  label: ``psi_DMJ = psi_f / 2 - sum_i f_i(y)^2 / 2`` -- the same minimisers, so "special case"
  holds up to this (calibration-preserving) change.
* Algorithm 1 keeps only edges of positive weight (weight-0 edges would be deleted first).
* Whole-simplex calibration (``symcal.calibration``): labels = the rows of the loss matrix, ``p_a``
  = the probability of its a-th label; noise sets are relations in ``p1..pn`` built from the same
  exact linear forms the paper uses: ``u^p_ij = sum_y p_y alpha_y,ij`` (the MAP decomposition) for
  ``P_reinforce`` (``Implies`` and ``Max``, i.e. ``(.)_+``), ``E[Y_ij]`` and ``E[f(Y)]`` for ``P_f``,
  and "no directed cycle of E^p" for ``P_DAG``.  Every surrogate is quadratic with quadratic part
  ``|u|^2``, so the engine's reduction (A) applies: ``u*(p) = sum_y p_y alpha_y`` and the claim is
  proved iff no ``p`` in the set puts ``u*(p)`` in the closed cell of a suboptimal prediction.
  Links: ``pred*`` = ``{"linear": beta, "offset": c}``; ``pred-bar_MAP`` (sort the diagonal) = the
  linear link ``argmin_sigma sum_i sigma(i) u_ii`` (rearrangement inequality: the same argmin sets,
  ties included); the score sorts of Corollary 5 and Theorem 6 = ``"sort-desc"``; Algorithm 1 at r = 3
  = one closed polyhedral region per order (i, j, k): ``d_ij >= 0, d_jk >= 0, d_ki <= d_ij, d_ki <=
  d_jk`` with ``d_ab = u_ab - u_ba`` (acyclic graph, or a 3-cycle whose lightest edge k -> i is
  deleted), checked equal to Algorithm 1's outputs (every tie) on a grid realising every order type
  (``ramaswamy2013.theorem7.algorithm1_regions``).  Lemma 8 is decided as the calibration of
  ``sum_i (u_i - y_i y_i / |y|)^2`` with the sorting link over ``P_reinforce``: its minimiser is the
  diagonal ``(u^p_ii)``, and reduction (A)'s query for a pair is literally "sigma' in Pi(p) and sigma'
  not in Pi*(p)".
* The NP-hard maps ``pred*_MAP`` (a QAP) and ``pred*_PD`` (an MWFAS) need no special treatment at
  these sizes: they are Theorem 3's linear link, an exact argmin over the r! permutations.
* Not decided over the whole set, and why: Theorem 3 and Theorem 6 for PD at r = 4 over all 543 unit
  DAGs (about 21-26 s per decision, most of it building the z3 terms, over the ~15 s budget; Theorem 6
  at r = 4 is decided on the 24 total orders instead); Theorem 7 at r = 4 stays sampled
  (``ramaswamy2013.theorem7``): Algorithm 1's output regions are no longer convex there (they depend on
  the order of the edge weights across several cycles), so they are not one closed polyhedron per
  order.  The P@q twin breaks the ties of its repeated beta rows by 1/100 sigma(i): the engine finds
  no interior point of a cell whose linear-link row is repeated, so it could not exhibit a refuting
  sequence for the plain reversed link (unknown, not refuted).

References
----------
../shared/papers/ramaswamy-agarwal-tewari-2013-low-rank-loss-matrices.txt
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation, Finding, calibrated, finite_check, identity, implies
from symcal.calibration import surrogates as calibration_surrogates
from symcal.claims.core import Claim, Sizes
from symcal.ranking.loss_matrix import (
    LossMatrix,
    binary_relevance,
    order_of,
    permutations,
    unit_dags,
)
from symcal.ranking.noise_sets import (
    duchi_f,
    expected_preferences,
    expected_scores,
    in_p_dag,
    in_p_f,
    in_p_reinforce,
    map_u,
    map_u_tilde,
    reinforce_slack,
)
from symcal.ranking.pred_maps import (
    algorithm1,
    algorithm1_orders,
    argmin_linear,
    eru_objective,
    map_objective,
    map_pred_diagonal,
    map_pred_qap,
    pd_objective,
    pd_pred_brute,
    pd_pred_fas,
    precision_objective,
    qap_objective,
    respects_scores,
    sort_by_scores,
    top_q,
)
from symcal.ranking.subset_losses import (
    map_loss,
    map_loss_rewritten,
    map_pairs,
    named_loss,
    ordered_pairs,
    pd_half_decomposition,
    precision_at_q_loss,
    precision_at_q_loss_by_positions,
    wta_loss,
)

PAPER = "ramaswamy2013"
F = Fraction
ONE, ZERO = Fraction(1), Fraction(0)
HALF = sympy.Rational(1, 2)


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


def r_sizes(lo: int, hi: int, maximum: int | None = None) -> Sizes:
    return Sizes(minimum=lo, default=(lo, hi), maximum=maximum, name="r")


def fs(x: Any) -> str:
    x = F(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# ---------------------------------------------------------------------------------------
# Seeded distributions and scores
# ---------------------------------------------------------------------------------------


def random_dist(labels: Sequence[Any], rng: random.Random, *, max_support: int = 4, den: int = 6) -> list:
    k = rng.randint(1, min(max_support, len(labels)))
    ys = rng.sample(list(labels), k)
    ws = [rng.randint(1, den) for _ in ys]
    total = sum(ws)
    return [(y, F(w, total)) for y, w in zip(ys, ws, strict=True)]


def random_scores(n: int, rng: random.Random, lo: int = -4, hi: int = 4, den: int = 3) -> tuple[Fraction, ...]:
    return tuple(F(rng.randint(lo * den, hi * den), den) for _ in range(n))


def expected_row(mat: LossMatrix, p: list) -> list[Fraction]:
    idx = {y: a for a, y in enumerate(mat.labels)}
    probs = [F(0)] * mat.shape[0]
    for y, pr in p:
        probs[idx[y]] += pr
    return mat.expected_losses(probs)


def risk_argmin(values: Sequence[Fraction]) -> tuple[set[int], Fraction]:
    best = min(values)
    return {t for t, v in enumerate(values) if v == best}, best


def describe_dist(p: list) -> dict[str, Any]:
    return {f"p[{y}]": pr for y, pr in p}


# ---------------------------------------------------------------------------------------
# Theorem 3
# ---------------------------------------------------------------------------------------

N_LAB, K_PRED, D_DIM = 3, 2, 2
_P = sympy.symbols(f"p1:{N_LAB}", real=True)
_C = sympy.Symbol("c", real=True)
_A = sympy.Matrix(N_LAB, D_DIM, lambda y, i: sympy.Symbol(f"alpha_{y + 1}_{i + 1}", real=True))
_B = sympy.Matrix(K_PRED, D_DIM, lambda t, i: sympy.Symbol(f"beta_{t + 1}_{i + 1}", real=True))
_U = sympy.symbols(f"u1:{D_DIM + 1}", real=True)


def _probs() -> list[Any]:
    return [*_P, 1 - sum(_P)]


def theorem3_identity_claim(id: str = "ramaswamy2013.theorem3.risk_identity", *, extra: Any = 0) -> Any:
    p = _probs()
    ell = _A * _B.T + _C * sympy.ones(N_LAB, K_PRED)
    up = [sum(p[y] * _A[y, i] for y in range(N_LAB)) for i in range(D_DIM)]
    lhs = sympy.Matrix([[sum(p[y] * ell[y, t] for y in range(N_LAB)) for t in range(K_PRED)]])
    rhs = sympy.Matrix([[sum(up[i] * _B[t, i] for i in range(D_DIM)) + _C + extra for t in range(K_PRED)]])
    return identity(
        id, lhs, rhs,
        cite=cite("Theorem 3, proof", "p^T l_t = sum_y p_y (sum_i alpha_yi beta_ti + c) = (u^p)^T beta_t + c"),
        statement=f"for l = alpha beta^T + c (n = {N_LAB}, k = {K_PRED}, d = {D_DIM}, symbolic) and p on the simplex, "
                  "p^T l_t = (u^p)^T beta_t + c with u^p = sum_y p_y alpha_y",
        scope="the general case: the identity is linear in each alpha_y and beta_t, so n, k, d symbolic sizes "
              "only repeat the same terms",
    )


def theorem3_surrogate_claim(id: str = "ramaswamy2013.theorem3.surrogate_minimiser", *, scale: Any = 1) -> Any:
    p = _probs()
    up = [sum(p[y] * _A[y, i] for y in range(N_LAB)) for i in range(D_DIM)]
    lhs = sum(p[y] * sum((_U[i] - _A[y, i]) ** 2 for i in range(D_DIM)) for y in range(N_LAB))
    const = sum(p[y] * sum(_A[y, i] ** 2 for i in range(D_DIM)) for y in range(N_LAB)) - sum(x**2 for x in up)
    rhs = scale * sum((_U[i] - up[i]) ** 2 for i in range(D_DIM)) + const
    return identity(
        id, lhs, rhs,
        cite=cite("Theorem 3, proof", "Minimizing this over u yields that u^p is the unique minimizer of p^T psi*(u)"),
        statement="p^T psi*(u) = |u - u^p|^2 + (sum_y p_y |alpha_y|^2 - |u^p|^2) on the simplex: u^p is the unique "
                  "minimiser and the risk grows as |u - u^p|^2",
    )


def _theorem3_cases(seed: int = 3) -> list[tuple[str, Any, list, tuple[Fraction, ...]]]:
    rng = random.Random(seed)
    losses = [("precision@2, r = 3", named_loss("precision", 3, q=2)), ("ERU, r = 3", named_loss("eru", 3)),
              ("MAP, r = 3", named_loss("map", 3)), ("PD, r = 3, unit DAGs", named_loss("pd", 3))]
    # an arbitrary 4 x 3 loss matrix with its generic exact decomposition
    user = LossMatrix.from_rows([[0, 1, 2], [1, 0, 2], [2, 2, 0], [1, 1, 1]], name="a 4 x 3 matrix")
    cases = []
    for name, nl in losses:
        for _ in range(6):
            p = random_dist(nl.matrix.labels, rng)
            cases.append((name, (nl.matrix, nl.decomposition), p, ()))
    user_dec = user.rank().decomposition
    for _ in range(6):
        cases.append(("a 4 x 3 matrix (generic decomposition)", (user, user_dec), random_dist(user.labels, rng), ()))
    return cases


def theorem3_calibration_holds(case: Any, *, radius_factor: Fraction = ONE) -> tuple[bool, str]:
    name, (mat, dec), p, _ = case
    idx = {y: a for a, y in enumerate(mat.labels)}
    risks = expected_row(mat, p)
    opt, best = risk_argmin(risks)
    d = dec.d
    up = [sum((pr * dec.alpha_of(idx[y])[i] for y, pr in p), F(0)) for i in range(d)]
    for t in range(mat.shape[1]):  # the identity p^T l_t = (u^p)^T beta_t + c
        if risks[t] != sum((a * b for a, b in zip(up, dec.beta_of(t), strict=True)), F(0)) + dec.c:
            return False, f"{name}: p^T l_t != (u^p)^T beta_t + c at t = {mat.predictions[t]}"
    arg, _v = argmin_linear(up, dec)
    if not set(arg) <= opt:
        return False, f"{name}: pred*(u^p) = {mat.predictions[arg[0]]} is not optimal"
    regrets = [v - best for v in risks if v > best]
    if not regrets:
        return True, f"{name}: every prediction is optimal"
    eps = min(regrets)
    spread = max(sum(abs(a - b) for a, b in zip(dec.beta_of(s), dec.beta_of(t), strict=True))
                 for s in range(dec.beta.shape[0]) for t in range(dec.beta.shape[0]))
    delta = eps / spread * radius_factor  # regret(pred(u)) <= |u - u^p|_inf * spread
    rng = random.Random(hash(name) % 1000 + len(p))
    for k in range(12):
        if k < 4 and d <= 12:
            signs = [rng.choice((-1, 1)) for _ in range(d)]
        else:
            signs = [F(rng.randint(-99, 99), 100) for _ in range(d)]
        u = [x + s * delta * F(99, 100) for x, s in zip(up, signs, strict=True)]
        arg_u, _ = argmin_linear(u, dec)
        if arg_u[0] not in opt:
            return False, (f"{name}: u = u^p + delta with |delta|_inf < {fs(delta)} gives pred*(u) = "
                           f"{mat.predictions[arg_u[0]]}, regret {fs(risks[arg_u[0]] - best)}")
    return True, f"{name}: pred*(u^p) optimal; pred*(u) optimal for 12 u with |u - u^p|_inf < {fs(delta)}"


def theorem3_calibration_claim(id: str = "ramaswamy2013.theorem3.calibration", *,
                               radius_factor: Fraction = ONE) -> Any:
    return finite_check(
        id,
        cases=lambda m: _theorem3_cases(),
        holds=lambda c: theorem3_calibration_holds(c, radius_factor=radius_factor),
        describe=lambda c: {"loss": c[0], **describe_dist(c[2])},
        sample='seeded distributions and seeded perturbations of u',
        domain="30 seeded distributions (seed 3): P@2, ERU, MAP, PD at r = 3 and a 4 x 3 matrix; 12 perturbed u each",
        cite=cite("Theorem 3", "Then (psi*_l, pred*_l) is l-calibrated."),
        statement="p^T l_t = (u^p)^T beta_t + c, pred*(u^p) is optimal, and pred*(u) stays optimal for "
                  "|u - u^p|_inf < (min positive regret) / max_s,t |beta_s - beta_t|_1",
    )


# ---------------------------------------------------------------------------------------
# Rank and decomposition claims (shared builders)
# ---------------------------------------------------------------------------------------


def decomposition_claim(id: str, loss: str, params: dict[str, Any], sizes: Sizes, location: str, quote: str,
                        *, c_shift: Fraction = ZERO) -> Any:
    def holds(r: int) -> tuple[bool, str]:
        nl = named_loss(loss, r, **params)
        dec = nl.decomposition
        if c_shift:
            dec = type(dec)(dec.alpha, dec.alpha_den, dec.beta, dec.beta_den, dec.c + c_shift, dec.coords, dec.source)
        chk = dec.check(nl.matrix)
        return chk.holds, f"{nl.matrix.name}: d = {dec.d}, c = {fs(dec.c)}: {chk.reason}"

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r, **params},
        domain=f"every entry of the {loss} loss matrix (exact)", cite=cite(location, quote),
        statement=f"the paper's decomposition l = alpha beta^T + c of the {loss} loss is exact in every entry",
        sizes=sizes,
    )


def rank_claim(id: str, loss: str, params: dict[str, Any], sizes: Sizes, location: str, quote: str, *,
               kind: str, bound: Callable[[int], int], exact: bool = False, statement: str,
               finding: Finding | None = None) -> Any:
    def holds(r: int) -> tuple[bool, str]:
        nl = named_loss(loss, r, **params)
        cert = nl.matrix.rank() if kind == "rank" else nl.matrix.affine_dimension()
        if not cert.certified:
            return False, f"{kind} not certified: {cert.summary()}"
        b = bound(r)
        ok = cert.value == b if exact else cert.value <= b
        return ok, (f"{nl.matrix.name} ({nl.matrix.shape[0]} x {nl.matrix.shape[1]}): certified {kind} "
                    f"{cert.value} (minor of size {len(cert.minors[0][0])} with exact determinant; decomposition with "
                    f"d = {cert.decomposition.d if cert.decomposition else '?'} checked exactly); "
                    f"{'claimed' if exact else 'bound'} {b}")

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r, **params},
        domain=f"the {loss} loss matrix (certified exact {kind})", cite=cite(location, quote),
        statement=statement, sizes=sizes, finding=finding,
    )


# ---------------------------------------------------------------------------------------
# Section 4: Precision@q and WTA
# ---------------------------------------------------------------------------------------


def precision_forms_claim(id: str = "ramaswamy2013.precision.two_forms", *, q_shift: int = 0) -> Any:
    def holds(r: int) -> tuple[bool, str]:
        n = 0
        for q in range(1, r + 1):
            for y in binary_relevance(r):
                for s in permutations(r):
                    n += 1
                    a = precision_at_q_loss_by_positions(y, s, q)
                    b = precision_at_q_loss(y, s, min(max(q + q_shift, 1), r))
                    if a != b:
                        return False, f"q = {q}, y = {y}, sigma = {s}: {fs(a)} != {fs(b)}"
        return True, f"{n} (q, y, sigma) triples agree"

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r}, domain="q in 1..r, y in {0,1}^r, S_r",
        cite=cite("Section 4", "l_P@q(y, sigma) = 1 - (1/q) sum_{i<=q} y_{sigma^-1(i)} "
                               "= 1 - (1/q) sum_i y_i 1(sigma(i) <= q)"),
        statement="the two printed forms of Precision@q agree on every label and permutation", sizes=r_sizes(2, 5),
    )


def top_q_claim(id: str = "ramaswamy2013.precision.pred_top_q", *, bottom: bool = False) -> Any:
    def holds(r: int) -> tuple[bool, str]:
        rng = random.Random(40 + r)
        n = 0
        for _ in range(25):
            u = random_scores(r, rng, den=1, lo=-2, hi=2)  # small integers: ties are common
            for q in range(1, r + 1):
                sigma = top_q([-x for x in u] if bottom else u, q)
                best = max(precision_objective(u, s, q) for s in permutations(r))
                n += 1
                if precision_objective(u, sigma, q) != best:
                    got = precision_objective(u, sigma, q)
                    return False, f"u = {[fs(x) for x in u]}, q = {q}: top-q gives {fs(got)}, max {fs(best)}"
        return True, f"{n} (u, q) pairs: top-q selection attains the maximum over S_r"

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r},
        sample='seeded score vectors',
        domain="25 seeded integer score vectors in [-2, 2]^r per r, every q, exhaustive over S_r",
        cite=cite("Section 4", "any permutation sigma which places the top q documents ... in the top q positions "
                               "achieves the maximum in pred*_P@q(u)"),
        statement="top-q selection maximises sum_i u_i 1(sigma(i) <= q) over S_r", sizes=r_sizes(2, 5),
    )


def wta_claim(id: str = "ramaswamy2013.wta.is_precision_at_1", *, q: int = 1) -> Any:
    def holds(r: int) -> tuple[bool, str]:
        n = 0
        for y in binary_relevance(r):
            for s in permutations(r):
                n += 1
                if wta_loss(y, s) != precision_at_q_loss(y, s, min(q, r)):
                    return False, f"y = {y}, sigma = {s}: WTA {wta_loss(y, s)} != P@{q} {precision_at_q_loss(y, s, q)}"
        return True, f"{n} (y, sigma) pairs"

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r}, domain="{0,1}^r x S_r",
        cite=cite("Section 4", "the popular winner-take-all (WTA) loss ... is simply a special case of the above "
                               "loss with q = 1"),
        statement=f"the WTA loss equals Precision@{q} on every label and permutation", sizes=r_sizes(2, 5),
    )


# ---------------------------------------------------------------------------------------
# Section 5: ERU
# ---------------------------------------------------------------------------------------

ERU_WS_PRINTED = (F(2), F(3, 2), F(0), F(1, 2))  # w in R: includes w < 1
ERU_WS_ABOVE_1 = (F(2), F(3, 2), F(4, 3), F(5, 4))


def eru_sorting_holds(r: int, ws: Sequence[Fraction], *, reverse_below_1: bool) -> tuple[bool, str]:
    n = 0
    grid = [F(v) for v in (-1, 0, 1)]
    for w in ws:
        for u in itertools.product(grid, repeat=r):
            best = max(eru_objective(u, s, w) for s in permutations(r))
            descending = w > 1 or not reverse_below_1
            for s in permutations(r):
                if respects_scores(s, u if descending else [-x for x in u]):
                    n += 1
                    if eru_objective(u, s, w) != best:
                        return False, (f"w = {fs(w)}, u = {[fs(x) for x in u]}: sigma = {s} sorts u "
                                       f"{'decreasingly' if descending else 'increasingly'} but gives "
                                       f"{fs(eru_objective(u, s, w))} < max {fs(best)}")
    return True, f"{n} (w, u, sigma) triples with sigma sorted as claimed attain the maximum"


def eru_sorting_claim(id: str, ws: Sequence[Fraction], *, reverse_below_1: bool, statement: str,
                      finding: Finding | None = None) -> Any:
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: eru_sorting_holds(r, ws, reverse_below_1=reverse_below_1),
        describe=lambda r: {"r": r, "w": [fs(w) for w in ws]},
        sample='a grid of u and a few w, of a statement for all real u and w',
        domain=f"u in {{-1, 0, 1}}^r, w in {{{', '.join(fs(w) for w in ws)}}}, exhaustive over S_r",
        cite=cite("Section 5", "w in R is a constant indicating the viewing half-life ... any permutation sigma "
                               "satisfying u_i > u_j => sigma(i) < sigma(j) achieves the maximum in pred*_ERU(u)"),
        statement=statement, sizes=r_sizes(2, 4), finding=finding,
    )


# ---------------------------------------------------------------------------------------
# Section 6: MAP
# ---------------------------------------------------------------------------------------


def map_forms_claim(id: str, *, form: int, shift: Fraction = ZERO) -> Any:
    def holds(r: int) -> tuple[bool, str]:
        n = 0
        for y in binary_relevance(r, nonzero=True):
            for s in permutations(r):
                n += 1
                a, b = map_loss(y, s), map_loss_rewritten(y, s, form=form) + shift
                if a != b:
                    return False, f"y = {y}, sigma = {s}: definition {fs(a)}, form {form} gives {fs(b)}"
        return True, f"{n} (y != 0, sigma) pairs agree"

    quote = ("l_MAP(y, sigma) = 1 - 1/sum y_g sum_{i=1}^r sum_{j=1}^i y_{sigma^-1(i)} y_{sigma^-1(j)} / i"
             if form == 1 else "= 1 - 1/sum y_g sum_{i=1}^r sum_{j=1}^i y_i y_j / max(sigma(i), sigma(j))")
    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r},
        domain="y in {0,1}^r \\ {0} (MAP is 0/0 at y = 0), every sigma in S_r", cite=cite("Section 6", quote),
        statement=f"MAP's rewritten form {form} equals its definition on every nonzero label and permutation",
        sizes=r_sizes(2, 5),
    )


def map_qap_holds(r: int, *, diagonal_only: bool = False) -> tuple[bool, str]:
    rng = random.Random(60 + r)
    pairs = [(i, j) for i in range(1, r + 1) for j in range(1, i + 1)]
    for _ in range(8):
        u = dict(zip(pairs, random_scores(len(pairs), rng, den=2), strict=True))
        for s in permutations(r):
            if map_objective(u, s, r) != qap_objective(u, s, r):
                return False, f"sigma = {s}: objective {map_objective(u, s, r)} != QAP {qap_objective(u, s, r)}"
        arg, best = map_pred_qap(u, r)
        chosen = map_pred_diagonal(u, r) if diagonal_only else arg[0]
        if map_objective(u, chosen, r) != best:
            return False, f"u = { {f'u_{i}{j}': fs(v) for (i, j), v in u.items()} }: {chosen} is not a maximiser"
    return True, "8 seeded u: the objective equals the QAP trace form at every sigma; the exact argmax attains it"


def map_qap_claim(id: str = "ramaswamy2013.map.pred_is_qap", *, diagonal_only: bool = False) -> Any:
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: map_qap_holds(r, diagonal_only=diagonal_only),
        describe=lambda r: {"r": r}, sample="seeded score vectors",
        domain="8 seeded u in R^{r(r+1)/2} per r, exhaustive over S_r",
        cite=cite("Section 6", "the optimization problem associated with computing pred*_MAP(u) above can be "
                               "written as a quadratic assignment problem (QAP)"),
        statement="sum_{i>=j} u_ij / max(sigma(i), sigma(j)) = sum_{i,j} W_ij C_{sigma(i) sigma(j)} (W_ij = u_ij/2 off "
                  "the diagonal, C_ab = 1/max(a, b)), and its exact maximiser over S_r is pred*_MAP",
        sizes=r_sizes(3, 4),
    )


def _map_dists(r: int, seed: int, count: int, *, inside: bool | None) -> list[list]:
    rng = random.Random(seed)
    labels = binary_relevance(r)
    out = []
    tries = 0
    while len(out) < count and tries < 100 * count:
        tries += 1
        p = random_dist(labels, rng, max_support=4, den=5)
        if inside is None or in_p_reinforce(p).holds == inside:
            out.append(p)
    return out


@functools.cache
def _map_risks(r: int) -> Any:
    return {s: None for s in permutations(r)}


def map_risk(p: list, sigma: tuple[int, ...]) -> Fraction:
    return sum((pr * map_loss(y, sigma) for y, pr in p), F(0))


def eq2_holds(case: Any, *, shift: Fraction = ZERO) -> tuple[bool, str]:
    r, p = case
    u = map_u(p)
    for s in permutations(r):
        pos = order_of(s)
        a = map_risk(p, s)
        b = 1 - sum((u[(i, j)] / max(s[i - 1], s[j - 1]) for i in range(1, r + 1) for j in range(1, i + 1)), F(0))
        c = 1 - sum((F(1, i) * sum((u[(pos[i - 1], pos[j - 1])] for j in range(1, i + 1)), F(0))
                     for i in range(1, r + 1)), F(0)) + shift
        if not a == b == c:
            return False, f"sigma = {s}: p^T l = {fs(a)}, pair form {fs(b)}, position form {fs(c)}"
    return True, f"all {len(permutations(r))} sigma"


def eq2_claim(id: str = "ramaswamy2013.theorem4.eq2", *, shift: Fraction = ZERO) -> Any:
    return finite_check(
        id, cases=lambda m: [(r, p) for r in (3, 4) for p in _map_dists(r, 21, 8, inside=None)],
        holds=lambda c: eq2_holds(c, shift=shift), describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions',
        domain="16 seeded distributions on {0,1}^r (r = 3, 4; y = 0 allowed, l(0, .) = 1), every sigma",
        cite=cite("Appendix, proof of Theorem 4, Eq. (2)",
                  "p^T l_sigma = 1 - sum_i sum_{j<=i} u_ij / max(sigma(i), sigma(j)) = 1 - sum_i (1/i) sum_{j<=i} "
                  "u_{sigma^-1(i) sigma^-1(j)}"),
        statement="Eq. (2): the expected MAP loss in both u^p forms",
    )


def lemma8_holds(case: Any, *, pred: str = "diagonal") -> tuple[bool, str]:
    r, p = case
    u = map_u(p)
    diag = [u[(i, i)] for i in range(1, r + 1)]
    risks = {s: map_risk(p, s) for s in permutations(r)}
    best = min(risks.values())
    pi = [s for s in permutations(r) if respects_scores(s, diag)]
    if pred == "reverse":
        pi = [s for s in permutations(r) if respects_scores(s, [-x for x in diag])]
    bad = [s for s in pi if risks[s] != best]
    if bad:
        return False, (f"sigma = {bad[0]} sorts the diagonal u_ii = {[fs(x) for x in diag]} but has risk "
                       f"{fs(risks[bad[0]])} > min {fs(best)}")
    return True, f"|Pi(p)| = {len(pi)}, all optimal (min risk {fs(best)})"


def lemma8_claim(id: str = "ramaswamy2013.lemma8", *, pred: str = "diagonal", inside: bool | None = True,
                 expected: str | None = None, statement: str = "", quote: str = "") -> Any:
    return finite_check(
        id,
        cases=lambda m: [(r, p) for r in (3, 4) for p in _map_dists(r, 8, 10, inside=inside)],
        holds=lambda c: lemma8_holds(c, pred=pred), describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions',
        domain=("20 seeded distributions on {0,1}^r, r = 3, 4 (seed 8)"
                + {True: " in P_reinforce", False: " outside P_reinforce", None: ""}[inside]
                + ", exhaustive over S_r"),
        cite=cite("Lemma 8", quote or "Let p in P_reinforce. ... Then Pi(p) subset of Pi*(p)."),
        statement=statement or "for p in P_reinforce every sigma sorting the diagonal u^p_ii is optimal for l_MAP",
        expected=expected,
    )


def theorem4_holds(case: Any, *, radius_factor: Fraction = ONE, tilde: bool = False) -> tuple[bool, str]:
    r, p = case
    u = map_u(p)
    diag = [u[(i, i)] for i in range(1, r + 1)]
    if tilde:
        ut = map_u_tilde(p)
        if list(ut) != diag:
            return False, f"u-tilde^p = {[fs(x) for x in ut]} differs from the diagonal {[fs(x) for x in diag]}"
    risks = {s: map_risk(p, s) for s in permutations(r)}
    best = min(risks.values())
    gaps = [abs(a - b) for a in diag for b in diag if a != b]
    eps = (min(gaps) / 2 if gaps else F(1)) * radius_factor
    rng = random.Random(len(p) * 7 + r)
    pairs = [(i, j) for i in range(1, r + 1) for j in range(1, i + 1)]
    for _ in range(10):
        pert = {k: u[k] + eps * F(rng.randint(-99, 99), 100) for k in pairs}
        sigma = sort_by_scores([pert[(i, i)] for i in range(1, r + 1)]) if tilde else map_pred_diagonal(pert, r)
        if risks[sigma] != best:
            return False, (f"a perturbation within {fs(eps)} of u^p gives sigma = {sigma}, risk {fs(risks[sigma])} >"
                          f" {fs(best)}")
    return True, f"10 perturbations within {fs(eps)} of u^p: the diagonal sort stays optimal"


def theorem4_claim(id: str = "ramaswamy2013.theorem4", *, radius_factor: Fraction = ONE, tilde: bool = False) -> Any:
    return finite_check(
        id,
        cases=lambda m: [(r, p) for r in (3, 4) for p in _map_dists(r, 14, 8, inside=True)],
        holds=lambda c: theorem4_holds(c, radius_factor=radius_factor, tilde=tilde),
        describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions and seeded perturbations of u',
        domain="16 seeded distributions in P_reinforce (r = 3, 4; seed 14), 10 perturbations of u^p each",
        cite=cite("Corollary 5" if tilde else "Theorem 4",
                  "(psi-tilde_MAP, pred-tilde_MAP) is (l_MAP, P_reinforce)-calibrated" if tilde else
                  "(psi*_MAP, pred-bar_MAP) is (l_MAP, P_reinforce)-calibrated"),
        statement=("u-tilde^p = (u^p_ii) and sorting any u-tilde within half the smallest diagonal gap of u-tilde^p "
                   "gives an optimal sigma for p in P_reinforce") if tilde else
                  ("for p in P_reinforce, the diagonal sort of any u within half the smallest diagonal gap of u^p "
                   "is optimal for l_MAP"),
    )


def corollary5_identity_claim(id: str = "ramaswamy2013.corollary5.u_tilde_is_diagonal", *, extra: Any = 0) -> Any:
    r = 3
    labels = binary_relevance(r, nonzero=True)
    ps = sympy.symbols(f"q1:{len(labels)}", real=True)
    probs = [*ps, 1 - sum(ps)]
    lhs = sympy.Matrix([sum(pr * sympy.Rational(y[i], sum(y)) for y, pr in zip(labels, probs, strict=True))
                        for i in range(r)])
    rhs = sympy.Matrix([sum(pr * sympy.Rational(y[i] * y[i], sum(y)) for y, pr in zip(labels, probs, strict=True))
                        + (extra if i == 0 else 0) for i in range(r)])
    return identity(
        id, lhs, rhs,
        cite=cite("Corollary 5", "psi-tilde_MAP(y, u) = sum_i (u_i - y_i / sum_g y_g)^2 ... since pred-bar_MAP depends "
                                 "on only the diagonal elements of u"),
        statement="the minimiser of E psi-tilde_MAP, E[Y_i / |Y|], is the diagonal u^p_ii = E[Y_i Y_i / |Y|] "
                  "(r = 3, symbolic p on the 7 nonzero labels)",
    )


# --- Lemma 8's proof step ------------------------------------------------------------------------

LEMMA8_FOUND = (4, [((0, 0, 0, 1), F(1, 10)), ((1, 1, 0, 1), F(3, 10)), ((1, 0, 0, 0), F(1, 5)),
                    ((0, 0, 1, 1), F(2, 5))])  # found by a seeded search (seed 2); sigma^0 = (3, 4, 2, 1) is optimal


def _lemma8_step_cases() -> list[Any]:
    return [LEMMA8_FOUND] + [(r, p) for r in (3, 4) for p in _map_dists(r, 30, 10, inside=True)]


def lemma8_step_holds(case: Any, *, printed: bool, slack: Fraction = ZERO) -> tuple[bool, str]:
    """For every optimal sigma^0 and adjacent pair a (at c) before b (at c+1) with u_aa < u_bb:
    the printed step  A >= (1/c - 1/(c+1)) (u_bb - u_aa - sum_{j not in {c,c+1}} (u_a pi(j) - u_b pi(j)))
    or (corrected) A >= (1/c - 1/(c+1)) (u_bb - u_aa - sum_{g != a,b} (u_ag - u_bg)_+) >= 0,
    where A = p^T l_{sigma0} - p^T l_{sigma1} (computed exactly from the loss)."""
    r, p = case
    u = map_u(p)
    risks = {s: map_risk(p, s) for s in permutations(r)}
    best = min(risks.values())
    n = 0
    for s0 in permutations(r):
        if risks[s0] != best:
            continue
        pi = order_of(s0)
        for c in range(1, r):
            a, b = pi[c - 1], pi[c]
            if not u[(a, a)] < u[(b, b)]:
                continue
            s1 = list(s0)
            s1[a - 1], s1[b - 1] = c + 1, c
            diff = risks[s0] - risks[tuple(s1)]
            factor = F(1, c) - F(1, c + 1)
            if printed:
                rest = sum((u[(a, pi[j - 1])] - u[(b, pi[j - 1])] for j in range(1, r + 1) if j not in (c, c + 1)),
                           F(0))
                bound = factor * (u[(b, b)] - u[(a, a)] - rest)
            else:
                bound = factor * reinforce_slack(u, r, b, a)
            n += 1
            if not (diff >= bound + slack and (printed or bound + slack >= 0)):
                return False, (f"sigma^0 = {s0} (optimal), a = {a} at c = {c}, b = {b}: p^T l_sigma0 - p^T l_sigma1 = "
                               f"{fs(diff)} but the {'printed' if printed else 'corrected'} bound is "
                               f"{fs(bound + slack)}")
    return True, f"{n} (optimal sigma^0, misordered adjacent pair) cases"


def lemma8_step_claim(id: str, *, printed: bool, slack: Fraction = ZERO, finding: Finding | None = None) -> Any:
    return finite_check(
        id, cases=lambda m: _lemma8_step_cases(), holds=lambda c: lemma8_step_holds(c, printed=printed, slack=slack),
        describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions',
        domain="a distribution found by a seeded search (r = 4) and 20 seeded ones in P_reinforce (r = 3, 4); every "
               "optimal sigma^0 and adjacent misordered pair",
        cite=cite("Appendix, proof of Lemma 8",
                  ">= (1/c - 1/(c+1)) (u_bb - (u_aa + sum_{j in [r], j not in {c,c+1}} (u_a pi1(j) - u_b pi1(j)))) "
                  ">= 0"),
        statement=("Lemma 8's step: p^T l_sigma0 - p^T l_sigma1 >= (1/c - 1/(c+1))(u_bb - u_aa - sum over all "
                   "j not in {c, c+1} of (u_a pi1(j) - u_b pi1(j)))") if printed else
                  ("Lemma 8's step with positive parts: p^T l_sigma0 - p^T l_sigma1 >= (1/c - 1/(c+1))(u_bb - u_aa - "
                   "sum_{g != a, b} (u_ag - u_bg)_+) >= 0 for p in P_reinforce"),
        finding=finding,
    )


# ---------------------------------------------------------------------------------------
# Section 7: PD
# ---------------------------------------------------------------------------------------


def pd_offset_claim(id: str = "ramaswamy2013.pd.half_dimensional_surrogate", *, with_offset: bool = False,
                    labels: str = "unit_dags", sign: int = 1) -> Any:
    """l_PD = sum_{i<j} y_ji + sum_{i<j} (y_ij - y_ji) 1(sigma(i) > sigma(j)): the r(r-1)/2
    coordinates (y_ij - y_ji) carry every difference between predictions."""

    def holds(r: int) -> tuple[bool, str]:
        nl = named_loss("pd", r, labels=labels)
        full = pd_half_decomposition(nl.matrix, r, with_offset=True)
        if not full.check(nl.matrix).holds:
            return False, "the offset decomposition is not exact"
        dec = pd_half_decomposition(nl.matrix, r, with_offset=with_offset)
        rng = random.Random(70 + r)
        n = 0
        for _ in range(10):
            p = random_dist(nl.matrix.labels, rng, max_support=5)
            risks = expected_row(nl.matrix, p)
            opt, _best = risk_argmin(risks)
            idx = {y: a for a, y in enumerate(nl.matrix.labels)}
            up = [sign * sum((pr * dec.alpha_of(idx[y])[i] for y, pr in p), F(0)) for i in range(dec.d)]
            arg, _v = argmin_linear(up, dec)
            n += 1
            if not set(arg) <= opt:
                return False, (f"p = {describe_dist(p)}: argmin u^T beta = {nl.matrix.predictions[arg[0]]} is not"
                              f" optimal")
            if not with_offset:
                # differences between predictions are reproduced exactly
                base = sum((a * b for a, b in zip(up, dec.beta_of(0), strict=True)), F(0))
                for t in range(nl.matrix.shape[1]):
                    val = sum((a * b for a, b in zip(up, dec.beta_of(t), strict=True)), F(0))
                    if risks[t] - risks[0] != val - base:
                        return False, "p^T l_t - p^T l_0 differs from (u^p)^T (beta_t - beta_0)"
        return True, (f"{nl.matrix.name}: l = offset(y) + sum_{{i<j}} (y_ij - y_ji) 1(sigma(i) > sigma(j)) exactly; "
                      f"the d = {dec.d} surrogate's argmin is optimal for {n} seeded p")

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda r: {"r": r, "labels": labels},
        sample='seeded distributions',
        domain=f"PD over {labels.replace('_', ' ')}: every entry, 10 seeded p",
        cite=cite("Section 7", "allowing for an r(r-1)/2-dimensional surrogate"),
        statement="an r(r-1)/2-dimensional least-squares surrogate (alpha_y = (y_ij - y_ji)_{i<j}, beta = 1(sigma(i) > "
                  "sigma(j))) is calibrated for PD: the dropped term sum_{i<j} y_ji does not depend on sigma",
        sizes=r_sizes(2, 4),
    )


def pd_fas_holds(r: int, *, wrong_constant: bool = False) -> tuple[bool, str]:
    rng = random.Random(80 + r)
    pairs = [(i, j) for i in range(1, r + 1) for j in range(1, r + 1) if i != j]
    for _ in range(10):
        u = dict(zip(pairs, random_scores(len(pairs), rng, lo=-2, hi=3, den=2), strict=True))
        arg, best = pd_pred_brute(u, r)
        sigma, value, certified = pd_pred_fas(u, r)
        if wrong_constant:
            value -= sum((min(u[(i, j)], u[(j, i)]) for i, j in pairs if i < j), F(0))
        if not certified or value != best or pd_objective(u, sigma, r) != best or sigma not in arg:
            return False, f"MWFAS gives {sigma} with value {fs(value)}, the exact minimum is {fs(best)}"
    return True, "10 seeded u (entries of both signs): the exact MWFAS order attains min over S_r"


def pd_fas_claim(id: str = "ramaswamy2013.pd.pred_is_mwfas", *, wrong_constant: bool = False) -> Any:
    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: pd_fas_holds(r, wrong_constant=wrong_constant),
        describe=lambda r: {"r": r}, sample="seeded score vectors",
        domain="10 seeded u in [-2, 3]^{r(r-1)} per r, exhaustive over S_r",
        cite=cite("Section 7", "the optimization problem associated with computing pred*_PD(u) above is a minimum "
                               "weighted feedback arc set (MWFAS) problem"),
        statement="min_sigma sum u_ij 1(sigma(i) > sigma(j)) = MWFAS of the graph (u_ij - u_ji)_+ plus "
                  "sum_{i<j} min(u_ij, u_ji), and the MWFAS order attains it",
        sizes=r_sizes(3, 5),
    )


# --- Theorem 6 ---------------------------------------------------------------------------------------


def out_weight_f(y: Any) -> tuple[Fraction, ...]:
    """f_i(y) = sum_j y_ij (another score function for Theorem 6)."""
    f = [F(0)] * y.r
    for i, _j, w in y.edges:
        f[i - 1] += w
    return tuple(f)


def reversed_f(y: Any) -> tuple[Fraction, ...]:
    """A deliberately wrong score function (the negative of Duchi's): a twin."""
    return tuple(-x for x in duchi_f(y))


F_FUNCTIONS: dict[str, Callable[[Any], tuple[Fraction, ...]]] = {
    "duchi": duchi_f, "out_weight": out_weight_f, "reversed": reversed_f,
}


def _pd_dists(r: int, seed: int, count: int, accept: Callable[[list], bool]) -> list[list]:
    rng = random.Random(seed)
    labels = unit_dags(r)
    out = []
    tries = 0
    while len(out) < count and tries < 200 * count:
        tries += 1
        p = random_dist(labels, rng, max_support=4, den=5)
        if accept(p):
            out.append(p)
    return out


def pd_risks(p: list, r: int) -> dict[tuple[int, ...], Fraction]:
    a = expected_preferences(p)
    return {s: pd_objective(a, s, r) for s in permutations(r)}


def theorem6_holds(case: Any, *, radius_factor: Fraction = ONE, use_f: str | None = None) -> tuple[bool, str]:
    r, fname, p = case
    f = F_FUNCTIONS[use_f or fname]
    u = expected_scores(p, f)
    risks = pd_risks(p, r)
    best = min(risks.values())
    for s in permutations(r):
        if respects_scores(s, u) and risks[s] != best:
            return False, (f"f = {fname}: sigma = {s} sorts E f = {[fs(x) for x in u]} but has risk {fs(risks[s])} >"
                          f" {fs(best)}")
    gaps = [abs(a - b) for a in u for b in u if a != b]
    eps = (min(gaps) / 2 if gaps else F(1)) * radius_factor
    rng = random.Random(r * 100 + len(p))
    for _ in range(8):
        pert = [x + eps * F(rng.randint(-99, 99), 100) for x in u]
        s = sort_by_scores(pert)
        if risks[s] != best:
            return False, (f"f = {fname}: sorting a perturbation within {fs(eps)} of E f gives {s}, "
                           f"risk {fs(risks[s])} > {fs(best)}")
    return True, "Pi(p) subset of Pi*(p); 8 perturbed scores stay optimal"


def theorem6_claim(id: str = "ramaswamy2013.theorem6", *, radius_factor: Fraction = ONE, use_f: str | None = None,
                   fnames: Sequence[str] = ("duchi", "out_weight")) -> Any:
    def cases(m: Any) -> list[Any]:
        out = []
        for fname in fnames:
            for r in (3, 4):
                f = F_FUNCTIONS[fname]
                out += [(r, fname, p) for p in _pd_dists(r, 6, 6, lambda p, f=f: in_p_f(p, f).holds)]
        return out

    return finite_check(
        id, cases=cases, holds=lambda c: theorem6_holds(c, radius_factor=radius_factor, use_f=use_f),
        describe=lambda c: {"r": c[0], "f": c[1], **{k: v for k, v in describe_dist(c[2]).items()}},
        sample='seeded distributions and seeded perturbations of the scores',
        domain=f"6 seeded distributions in P_f on unit DAGs per (f, r), f in {{{', '.join(fnames)}}}, r = 3, 4, "
               "exhaustive over S_r, 8 perturbed scores each",
        cite=cite("Theorem 6", "Then (psi_f, pred) is (l_PD, P_f)-calibrated."),
        statement="for p in P_f every sigma sorting E f(Y) is optimal for l_PD, and so is the sort of any score "
                  "vector within half the smallest gap of E f(Y)",
    )


def dmj_claim(id: str = "ramaswamy2013.theorem6.dmj_special_case", *, nu: Any = HALF) -> Any:
    def build(r: int) -> tuple[Any, Any]:
        y = {(i, j): sympy.Symbol(f"y_{i}_{j}", real=True) for i in range(1, r + 1) for j in range(1, r + 1) if i != j}
        u = sympy.symbols(f"u1:{r + 1}", real=True)
        f = [sum(y[(i, j)] - y[(j, i)] for j in range(1, r + 1) if j != i) for i in range(1, r + 1)]
        dmj = sum(w * (u[j - 1] - u[i - 1]) for (i, j), w in y.items()) + nu * sum(x**2 for x in u)
        psi_f = sum((u[i] - f[i]) ** 2 for i in range(r))
        return dmj, psi_f / 2 - sum(x**2 for x in f) / 2

    return identity(
        id, lambda r: build(r)[0], lambda r: build(r)[1],
        cite=cite("Section 7.1", "Taking lambda(z) = z^2 and nu = 1/2 gives a special case ... obtained by taking f "
                                 "as f_i(y) = sum_{j != i} (y_ij - y_ji)"),
        statement="psi_DMJ(y, u) with lambda(z) = z^2, nu = 1/2 equals psi_f(y, u)/2 - sum_i f_i(y)^2/2 with "
                  "f_i(y) = sum_{j != i} (y_ij - y_ji): the same minimisers, so the same calibration",
        sizes=r_sizes(3, 4),
    )


def dmj_noise_claim(id: str = "ramaswamy2013.theorem6.dmj_noise_set", *, extra: Any = 0) -> Any:
    r = 3
    pairs = [(i, j) for i in range(1, r + 1) for j in range(1, r + 1) if i != j]
    ys = [{e: sympy.Symbol(f"w{g}_{e[0]}{e[1]}", real=True) for e in pairs} for g in range(3)]
    ps = sympy.symbols("q1:3", real=True)
    probs = [*ps, 1 - sum(ps)]
    a = {e: sum(pr * y[e] for pr, y in zip(probs, ys, strict=True)) for e in pairs}
    lhs = sympy.Matrix([sum(pr * sum(y[(i, j)] - y[(j, i)] for j in range(1, r + 1) if j != i)
                            for pr, y in zip(probs, ys, strict=True)) for i in range(1, r + 1)])
    rhs = sympy.Matrix([sum(a[(i, j)] - a[(j, i)] for j in range(1, r + 1) if j != i) + (extra if i == 1 else 0)
                        for i in range(1, r + 1)])
    return identity(
        id, lhs, rhs,
        cite=cite("Section 7.1", "the set of noise conditions under which the surrogate psi_DMJ is shown to be "
                                 "calibrated ... in Duchi et al. [11] is exactly the set P_f above with this choice "
                                 "of f"),
        statement="E[f_i(Y)] = sum_j (a_ij - a_ji) with a_ij = E[Y_ij], so P_f for Duchi's f is Duchi et al.'s "
                  "condition (16) (r = 3, three symbolic weighted labels, symbolic p)",
    )


# --- Theorem 7 --------------------------------------------------------------------------------------


def theorem7_holds(case: Any, *, radius_factor: Fraction = ONE) -> tuple[bool, str]:
    r, p = case
    a = expected_preferences(p)
    risks = pd_risks(p, r)
    best = min(risks.values())
    for s in algorithm1_orders(a, r):
        if risks[s] != best:
            return False, f"Algorithm 1 on u^p can return {s} with risk {fs(risks[s])} > {fs(best)}"
    diffs = [a[(i, j)] - a[(j, i)] for (i, j) in a if a[(i, j)] > a[(j, i)]]
    eps = min(diffs) if diffs else F(1)
    rad = eps / 4 * radius_factor
    rng = random.Random(r * 31 + len(p))
    for _ in range(10):
        pert = {e: v + rad * F(rng.randint(-99, 99), 100) for e, v in a.items()}
        s = algorithm1(pert, r)
        if risks[s] != best:
            return False, (f"Algorithm 1 on a perturbation within {fs(rad)} of u^p returns {s}, risk {fs(risks[s])} >"
                          f" {fs(best)}")
    return True, f"every order Algorithm 1 may return on u^p, and on 10 perturbations within {fs(rad)}, is optimal"


def theorem7_claim(id: str = "ramaswamy2013.theorem7", *, radius_factor: Fraction = ONE) -> Any:
    return finite_check(
        id,
        cases=lambda m: [(r, p) for r in (3, 4) for p in _pd_dists(r, 7, 10, lambda p: in_p_dag(p).holds)],
        holds=lambda c: theorem7_holds(c, radius_factor=radius_factor),
        describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions and seeded perturbations of u',
        domain="10 seeded distributions in P_DAG on unit DAGs per r = 3, 4 (seed 7), exhaustive over S_r, "
               "10 perturbed u^p each",
        cite=cite("Theorem 7", "(psi*_PD, pred-bar_PD) is (l_PD, P_DAG)-calibrated."),
        statement="for p in P_DAG every order Algorithm 1 may return on u^p = E[Y] is optimal for l_PD, and so is "
                  "its output on any u within a quarter of the smallest positive u_ij - u_ji",
    )


@functools.cache
def _dsym(i: int, j: int) -> sympy.Symbol:
    return sympy.Symbol(f"d_{i}_{j}", real=True)


def _d(i: int, j: int) -> Any:
    return _dsym(i, j) if i < j else -_dsym(j, i)


@functools.cache
def _cycles(r: int) -> tuple[tuple[int, ...], ...]:
    import networkx as nx

    g = nx.complete_graph(range(1, r + 1), create_using=nx.DiGraph)
    return tuple(sorted(tuple(c) for c in nx.simple_cycles(g) if len(c) > 2))


def p_dag_contains_p_f_claim(id: str = "ramaswamy2013.theorem7.p_dag_contains_p_f", *, strict: bool = True) -> Any:
    def hyp(r: int) -> list[Any]:
        s = sympy.symbols(f"s1:{r + 1}", real=True)
        return [sympy.Implies(_d(i, j) > 0, s[i - 1] > s[j - 1] if strict else s[i - 1] >= s[j - 1])
                for i in range(1, r + 1) for j in range(1, r + 1) if i != j]

    def concl(r: int) -> Any:
        return sympy.And(*[sympy.Not(sympy.And(*[_d(c[t], c[(t + 1) % len(c)]) > 0 for t in range(len(c))]))
                           for c in _cycles(r)])

    return implies(
        id, hypotheses={"p_in_p_f": hyp}, conclusion=concl,
        cite=cite("Section 7.2", "It is easy to see that P_DAG contains P_f for all f"),
        statement="if E[Y_ij] > E[Y_ji] implies E f_i > E f_j (d_ij = E[Y_ij] - E[Y_ji], s = E f), the graph of "
                  "positive d_ij has no directed cycle",
        sizes=r_sizes(3, 6),
        scope="every f and every p: the hypothesis only involves d = E[Y_ij] - E[Y_ji] and s = E f(Y)",
    )


def inclusion_strict_claim(id: str = "ramaswamy2013.theorem7.inclusion_strict", *, only_p_f: bool = False) -> Any:
    def cases(m: Any) -> list[Any]:
        accept = (lambda p: in_p_dag(p).holds and in_p_f(p).holds) if only_p_f else (lambda p: in_p_dag(p).holds)
        return [(r, p) for r in (3, 4) for p in _pd_dists(r, 9, 12, accept)]

    def holds(case: Any) -> tuple[bool, str]:
        r, p = case
        res = in_p_f(p, duchi_f)
        return res.holds, res.reason

    return finite_check(
        id, cases=cases, holds=holds, describe=lambda c: {"r": c[0], **describe_dist(c[1])},
        sample='seeded distributions',
        domain="12 seeded distributions in P_DAG" + (" and P_f" if only_p_f else "") + " on unit DAGs per r = 3, 4",
        cite=cite("Section 7.2", "calibrated for the PD loss under a broader set of conditions than the previous "
                                 "surrogates"),
        statement="every seeded p in P_DAG is also in P_f for Duchi et al.'s f (false: P_DAG is strictly larger)",
        expected=None if only_p_f else "refuted",
    )


# ---------------------------------------------------------------------------------------
# Calibration over the whole simplex, or over the paper's noise set (symcal.calibration)
# ---------------------------------------------------------------------------------------
# Each claim below hands the engine the loss matrix, the surrogate (one expression per label
# y, in u1..ud), the pred map as a link and the noise set as relations in p1..pn (p_a is the
# probability of the a-th label of the loss matrix, in the matrix's label order).  The
# surrogates are quadratic with the shared quadratic part |u|^2, so the engine's reduction (A)
# applies: u*(p) = sum_y p_y alpha_y is the unique minimiser and the claim is proved iff no
# p in P puts u*(p) in the closed cell of a suboptimal prediction (one z3 query per pair).


@functools.cache
def _named_loss(loss: str, r: int, params: tuple[tuple[str, Any], ...] = ()) -> Any:
    return named_loss(loss, r, **dict(params))


@functools.cache
def _generic_loss() -> tuple[LossMatrix, Any]:
    user = LossMatrix.from_rows([[0, 1, 2], [1, 0, 2], [2, 2, 0], [1, 1, 1]], name="a 4 x 3 matrix")
    return user, user.rank().decomposition


THEOREM3_LOSSES: dict[str, tuple[str, tuple[tuple[str, Any], ...], str]] = {
    "precision": ("precision", (("q", 2),), "P@2"),
    "eru": ("eru", (), "ERU (s = 2, v = 1, w = 2, z = r)"),
    "map": ("map", (), "MAP (l(0, sigma) = 1)"),
    "pd": ("pd", (), "PD over all unit DAGs"),
}


def _theorem3_setting(key: str, r: int) -> tuple[LossMatrix, Any]:
    if key == "generic":
        return _generic_loss()
    loss, params, _text = THEOREM3_LOSSES[key]
    nl = _named_loss(loss, r, params)
    return nl.matrix, nl.decomposition


@functools.cache
def theorem3_calibration_problem(key: str, r: int, *, reversed_link: bool = False) -> tuple[LossMatrix, Any, Any]:
    """(loss matrix, psi*, pred* as the linear link argmin_t <u, beta_t> + c) for Theorem 3;
    ``reversed_link`` uses argmax_t instead (a twin)."""
    mat, dec = _theorem3_setting(key, r)
    sur, _link = calibration_surrogates.ramaswamy_quadratic(dec)
    k = mat.shape[1]
    rows = [list(dec.beta_of(t)) for t in range(k)]
    if reversed_link:
        rows = [[-x for x in row] for row in rows]
        if key == "precision":
            # P@q's beta rows repeat (only the top-q set matters), so no cell of the reversed link has
            # an interior and the engine cannot exhibit a refuting sequence (see the module notes);
            # break the ties by a small multiple of the positions sigma(i) (d = r coordinates)
            rows = [[x + F(s[i], 100) for i, x in enumerate(row)] for row, s in zip(rows, mat.predictions, strict=True)]
    link = {"linear": rows, "offset": [dec.c] * k, "names": [str(t) for t in mat.predictions]}
    return mat, sur, link


def theorem3_whole_claim(id: str, key: str, r: int, *, reversed_link: bool = False) -> Any:
    what = "a 4 x 3 matrix with its generic exact decomposition" if key == "generic" else \
        f"{THEOREM3_LOSSES[key][2]} at r = {r}"

    def part(i: int) -> Callable[[Any], Any]:
        return lambda m: theorem3_calibration_problem(key, r, reversed_link=reversed_link)[i]

    return calibrated(
        id, loss=part(0), surrogate=part(1), link=part(2),
        cite=cite("Theorem 3", "Then (psi*_l, pred*_l) is l-calibrated."),
        statement=(f"{what}: psi*(y, u) = sum_i (u_i - alpha_yi)^2 with pred*(u) in "
                   f"{'argmax' if reversed_link else 'argmin'}_t <u, beta_t> + c is calibrated over the whole "
                   "simplex of the labels (the engine decides against the loss matrix itself; the paper's "
                   "decomposition l = alpha beta^T + c only defines psi* and pred*)"),
    )


# --- Section 6: P_reinforce as relations in p ----------------------------------------------


def _psym(n: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(f"p1:{n + 1}"))


def _rat(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


def map_u_of_p(r: int) -> dict[tuple[int, int], Any]:
    """u^p_ij = sum_y p_y y_i y_j / |y| (i >= j, and u_ij = u_ji) as linear forms in p1..pn,
    p_a the probability of the a-th label of the MAP matrix; read off the paper's
    decomposition alpha_y,ij (exact, checked by ramaswamy2013.map.decomposition)."""
    nl = _named_loss("map", r)
    mat, dec = nl.matrix, nl.decomposition
    p = _psym(mat.shape[0])
    col = {pair: c for c, pair in enumerate(map_pairs(r))}
    out = {}
    for i in range(1, r + 1):
        for j in range(1, r + 1):
            c = col[(max(i, j), min(i, j))]
            out[(i, j)] = sum((p[a] * _rat(dec.alpha_of(a)[c]) for a in range(mat.shape[0]) if dec.alpha_of(a)[c]),
                              sympy.Integer(0))
    return out


@functools.cache
def p_reinforce_relations(r: int) -> tuple[Any, ...]:
    """P_reinforce (Section 6): u_ii >= u_jj => u_ii >= u_jj + sum_{g != i, j} (u_jg - u_ig)_+ for
    every ordered pair i != j, in p1..pn."""
    u = map_u_of_p(r)
    rels = []
    for i, j in itertools.permutations(range(1, r + 1), 2):
        pos = sum((sympy.Max(u[(j, g)] - u[(i, g)], 0) for g in range(1, r + 1) if g not in (i, j)),
                  sympy.Integer(0))
        rels.append(sympy.Implies(u[(i, i)] >= u[(j, j)], u[(i, i)] >= u[(j, j)] + pos))
    return tuple(rels)


def map_noise(r: int, *, outside: bool) -> list[Any]:
    rels = list(p_reinforce_relations(r))
    return [sympy.Not(sympy.And(*rels))] if outside else rels


@functools.cache
def diagonal_sort_link(r: int) -> dict[str, Any]:
    """pred-bar_MAP (sort the diagonal u_ii decreasingly) as a linear link on R^{r(r+1)/2}:
    argmin_sigma sum_i sigma(i) u_ii.  By the rearrangement inequality its argmin is exactly
    {sigma : u_ii > u_jj => sigma(i) < sigma(j)} (ties included), the paper's map."""
    pairs = map_pairs(r)
    perms = _named_loss("map", r).matrix.predictions
    return {"linear": [[F(s[i - 1]) if i == j else ZERO for i, j in pairs] for s in perms],
            "names": [str(s) for s in perms]}


@functools.cache
def sort_link(r: int, *, ascending: bool) -> Any:
    """Sorting scores on R^r: "sort-desc", or (a twin) increasing order as the linear link
    argmin_sigma -sum_i sigma(i) u_i."""
    if not ascending:
        return "sort-desc"
    perms = permutations(r)
    return {"linear": [[F(-s[i]) for i in range(r)] for s in perms], "names": [str(s) for s in perms]}


@functools.cache
def diagonal_surrogate(r: int) -> Any:
    """sum_i (u_i - alpha_y,ii)^2 with alpha_y,ii = y_i y_i / |y| (0 at y = 0): the minimiser is
    the diagonal (u^p_ii), the scores Lemma 8's Pi(p) sorts; equal to Corollary 5's
    psi-tilde_MAP (y_i y_i = y_i; ramaswamy2013.corollary5.u_tilde_is_diagonal)."""
    nl = _named_loss("map", r)
    mat, dec = nl.matrix, nl.decomposition
    col = {pair: c for c, pair in enumerate(map_pairs(r))}
    rows = [" + ".join(f"(u{i} - ({fs(dec.alpha_of(a)[col[(i, i)]])}))**2" for i in range(1, r + 1))
            for a in range(mat.shape[0])]
    return {"dim": r, "per_label": rows, "name": "psi_map_diagonal"}


@functools.cache
def corollary5_surrogate(r: int) -> Any:
    """psi-tilde_MAP(y, u) = sum_i (u_i - y_i / |y|)^2 (0/0 read as 0 at y = 0)."""
    mat = _named_loss("map", r).matrix
    rows = [" + ".join(f"(u{i + 1} - ({fs(F(y[i], sum(y)) if sum(y) else 0)}))**2" for i in range(r))
            for y in mat.labels]
    return {"dim": r, "per_label": rows, "name": "psi_tilde_map"}


def theorem4_whole_claim(id: str, r: int, *, outside: bool = False) -> Any:
    def parts(m: Any) -> tuple[Any, Any]:
        nl = _named_loss("map", r)
        return nl.matrix, calibration_surrogates.ramaswamy_quadratic(nl.decomposition)[0]

    return calibrated(
        id, loss=lambda m: parts(m)[0], surrogate=lambda m: parts(m)[1], link=lambda m: diagonal_sort_link(r),
        noise=lambda m: map_noise(r, outside=outside),
        cite=cite("Theorem 4", "(psi*_MAP, pred-bar_MAP) is (l_MAP, P_reinforce)-calibrated."),
        statement=(f"r = {r}: psi*_MAP (r(r+1)/2 coordinates u_ij, i >= j) with pred-bar_MAP (sort the diagonal "
                   f"u_ii) is calibrated for l_MAP over every p {'outside' if outside else 'in'} P_reinforce "
                   "(the relations u_ii >= u_jj => u_ii >= u_jj + sum_g (u_jg - u_ig)_+ in p)"),
    )


def corollary5_whole_claim(id: str, r: int, *, ascending: bool = False) -> Any:
    return calibrated(
        id, loss=lambda m: _named_loss("map", r).matrix, surrogate=lambda m: corollary5_surrogate(r),
        link=lambda m: sort_link(r, ascending=ascending), noise=lambda m: map_noise(r, outside=False),
        cite=cite("Corollary 5", "Then (psi-tilde_MAP, pred-tilde_MAP) is (l_MAP, P_reinforce)-calibrated."),
        statement=(f"r = {r}: psi-tilde_MAP(y, u) = sum_i (u_i - y_i/|y|)^2 on R^r with pred-tilde_MAP = sort "
                   f"{'increasingly' if ascending else 'decreasingly'} is calibrated for l_MAP over P_reinforce"),
    )


def lemma8_whole_claim(id: str, r: int, *, outside: bool = False) -> Any:
    return calibrated(
        id, loss=lambda m: _named_loss("map", r).matrix, surrogate=lambda m: diagonal_surrogate(r),
        link=lambda m: "sort-desc", noise=lambda m: map_noise(r, outside=outside),
        cite=cite("Lemma 8", "Let p in P_reinforce. ... Then Pi(p) subset of Pi*(p)."),
        statement=(f"r = {r}: for every p {'outside' if outside else 'in'} P_reinforce, every sigma sorting the "
                   "diagonal u^p_ii is optimal for l_MAP.  Decided as the calibration of sum_i (u_i - y_i y_i/|y|)^2 "
                   "with the sorting link: its minimiser is (u^p_ii), reduction (A)'s query for a pair (sigma', "
                   "sigma'') is 'p in P, (u^p_ii) in the closed cell of sigma' (i.e. sigma' in Pi(p)), sigma' worse "
                   "than sigma''', so 'proved' is exactly Pi(p) subset of Pi*(p)"),
    )


# --- Section 7: P_f, P_DAG and Algorithm 1 ---------------------------------------------


def expected_preference_of_p(mat: LossMatrix, i: int, j: int) -> Any:
    """E[Y_ij] as a linear form in p1..pn (labels = the DAGs of the PD matrix)."""
    p = _psym(mat.shape[0])
    return sum((p[a] * _rat(y.weight(i, j)) for a, y in enumerate(mat.labels) if y.weight(i, j)), sympy.Integer(0))


def pd_matrix_of(r: int, labels: str) -> LossMatrix:
    return _named_loss("pd", r, (("labels", labels),)).matrix


@functools.cache
def p_f_relations(r: int, labels: str, fname: str) -> tuple[Any, ...]:
    """P_f (Theorem 6): E[Y_ij] > E[Y_ji] => E[f_i(Y)] > E[f_j(Y)] for every i != j, in p."""
    mat = pd_matrix_of(r, labels)
    f = F_FUNCTIONS[fname]
    p = _psym(mat.shape[0])
    vals = [f(y) for y in mat.labels]
    ef = [sum((p[a] * _rat(vals[a][i]) for a in range(len(vals)) if vals[a][i]), sympy.Integer(0)) for i in range(r)]
    return tuple(sympy.Implies(expected_preference_of_p(mat, i, j) > expected_preference_of_p(mat, j, i),
                               ef[i - 1] > ef[j - 1])
                 for i, j in itertools.permutations(range(1, r + 1), 2))


@functools.cache
def psi_f_surrogate(r: int, labels: str, fname: str) -> Any:
    """psi_f(y, u) = sum_i (u_i - f_i(y))^2 on R^r."""
    mat = pd_matrix_of(r, labels)
    f = F_FUNCTIONS[fname]
    rows = []
    for y in mat.labels:
        fy = f(y)
        rows.append(" + ".join(f"(u{i + 1} - ({fs(fy[i])}))**2" for i in range(r)))
    return {"dim": r, "per_label": rows, "name": f"psi_f_{fname}"}


def theorem6_whole_claim(id: str, r: int, fname: str, *, labels: str = "unit_dags", use_f: str | None = None) -> Any:
    surrogate_f = use_f or fname
    return calibrated(
        id, loss=lambda m: pd_matrix_of(r, labels), surrogate=lambda m: psi_f_surrogate(r, labels, surrogate_f),
        link=lambda m: "sort-desc", noise=lambda m: list(p_f_relations(r, labels, fname)),
        cite=cite("Theorem 6", "Then (psi_f, pred) is (l_PD, P_f)-calibrated."),
        statement=(f"r = {r}, labels = {labels.replace('_', ' ')}, f = {fname}: psi_{surrogate_f}(y, u) = "
                   f"sum_i (u_i - f_i(y))^2 with pred = sort decreasingly is calibrated for l_PD over P_f (the "
                   "relations E[Y_ij] > E[Y_ji] => E[f_i(Y)] > E[f_j(Y)] in p)"),
    )


@functools.cache
def p_dag_relations(r: int, *, outside: bool = False) -> tuple[Any, ...]:
    """P_DAG (Section 7.2): the graph E^p = {(i, j) : E[Y_ij] > E[Y_ji]} has no directed cycle."""
    mat = pd_matrix_of(r, "unit_dags")

    def dd(i: int, j: int) -> Any:
        return expected_preference_of_p(mat, i, j) - expected_preference_of_p(mat, j, i)

    rels = [sympy.Not(sympy.And(*[dd(c[t], c[(t + 1) % len(c)]) > 0 for t in range(len(c))])) for c in _cycles(r)]
    return (sympy.Not(sympy.And(*rels)),) if outside else tuple(rels)


def algorithm1_region(order: Sequence[int], r: int) -> list[str]:
    """Algorithm 1's closed region of the order (i, j, k) (r = 3), in u1..u6 (the coordinates u_ab
    in ordered_pairs order) with d_ab = u_ab - u_ba:  d_ij >= 0, d_jk >= 0, d_ki <= d_ij, d_ki <= d_jk.
    Either the graph is acyclic and (i, j, k) is a topological order of it (d_ij, d_jk, d_ik >= 0),
    or it is the 3-cycle i -> j -> k -> i whose lightest edge k -> i (ties: any lightest) is deleted."""
    if r != 3:
        raise ValueError("Algorithm 1's regions are encoded for r = 3 only")
    idx = {pair: c + 1 for c, pair in enumerate(ordered_pairs(r))}

    def d(a: int, b: int) -> str:
        return f"(u{idx[(a, b)]} - u{idx[(b, a)]})"

    i, j, k = order
    return [f"{d(i, j)} >= 0", f"{d(j, k)} >= 0", f"{d(k, i)} <= {d(i, j)}", f"{d(k, i)} <= {d(j, k)}"]


@functools.cache
def algorithm1_link(r: int, *, reverse: bool = False) -> dict[str, Any]:
    """pred-bar_PD (Algorithm 1) at r = 3 as closed regions, one per sigma (``reverse``: the
    reversed order's region, a twin)."""
    perms = pd_matrix_of(r, "unit_dags").predictions
    regions = [algorithm1_region(tuple(reversed(order_of(s))) if reverse else order_of(s), r) for s in perms]
    return {"regions": regions}


def algorithm1_outputs(dvals: dict[tuple[int, int], Fraction], r: int) -> set[tuple[int, ...]]:
    """Every sigma Algorithm 1 may return when d_ab = u_ab - u_ba: every deletion order that sorts
    the positive edges ascending (ties in any order), then every topological order."""
    import networkx as nx

    from symcal.ranking.pred_maps import sigma_from_order

    edges = [(a, b, w) for (a, b), w in dvals.items() if w > 0]
    out: set[tuple[int, ...]] = set()
    for seq in itertools.permutations(edges):
        if any(seq[t][2] > seq[t + 1][2] for t in range(len(seq) - 1)):
            continue
        g = nx.DiGraph()
        g.add_nodes_from(range(1, r + 1))
        g.add_edges_from((a, b) for a, b, _w in seq)
        for a, b, _w in seq:
            if nx.is_directed_acyclic_graph(g):
                break
            g.remove_edge(a, b)
        out |= {sigma_from_order(list(o)) for o in nx.all_topological_sorts(g)}
    return out


def algorithm1_regions_holds(r: int, *, reverse: bool = False) -> tuple[bool, str]:
    idx = {pair: c for c, pair in enumerate(ordered_pairs(r))}
    perms = pd_matrix_of(r, "unit_dags").predictions
    link = algorithm1_link(r, reverse=reverse)
    from symcal.backends.translate import truth_at
    from symcal.calibration.parse import parse_relation, variables

    u_syms = variables("u", len(idx))
    rels = [[parse_relation(t, "region", u_syms) for t in reg] for reg in link["regions"]]
    n = 0
    grid = range(-3, 4)
    for d12, d23, d31 in itertools.product(grid, repeat=3):
        dv = {(1, 2): F(d12), (2, 1): F(-d12), (2, 3): F(d23), (3, 2): F(-d23), (3, 1): F(d31), (1, 3): F(-d31)}
        u = [ZERO] * len(idx)
        for (a, b), w in dv.items():  # u_ab = max(d_ab, 0): any u with these differences will do
            u[idx[(a, b)]] = max(w, ZERO)
        values = dict(zip(u_syms, u, strict=True))
        inside = {s for s, reg in zip(perms, rels, strict=True) if all(truth_at(rel, values) is True for rel in reg)}
        outputs = algorithm1_outputs(dv, r)
        library = set(algorithm1_orders({pair: u[c] for pair, c in idx.items()}, r))
        n += 1
        if inside != outputs or not library <= outputs:
            return False, (f"d = (d12, d23, d31) = ({d12}, {d23}, {d31}): Algorithm 1 may return "
                           f"{sorted(outputs)}, the regions contain {sorted(inside)}"
                           + ("" if library <= outputs else f", symcal.ranking's algorithm1_orders gives {library}"))
    return True, f"{n} difference vectors: the regions containing u are exactly the orders Algorithm 1 may return"


def algorithm1_regions_claim(id: str = "ramaswamy2013.theorem7.algorithm1_regions", *, reverse: bool = False) -> Any:
    return finite_check(
        id, cases=lambda m: [3], holds=lambda r: algorithm1_regions_holds(r, reverse=reverse),
        describe=lambda r: {"r": r},
        domain=("r = 3, every (d12, d23, d31) in {-3..3}^3: both Algorithm 1's outputs (signs of d, order of the "
                "positive weights) and region membership (comparisons among +-d) depend only on the order type of "
                "{+-d12, +-d23, +-d31, 0}, and this grid realises every order type (up to 3 distinct magnitudes)"),
        cite=cite("Section 7.2, Algorithm 1",
                  "sort the edges in ascending order by weight and delete them one by one (smallest weight first) "
                  "until the graph becomes acyclic; return any topological sorted order"),
        statement=("the link of ramaswamy2013.theorem7.calibration.p_dag.r3 is Algorithm 1 exactly: at every u the "
                   "closed regions containing u are the orders Algorithm 1 may return (every tie in the deletion "
                   "order and in the topological order)" + (" [twin: reversed regions]" if reverse else "")),
    )


def theorem7_whole_claim(id: str, *, reverse: bool = False, whole_simplex: bool = False) -> Any:
    r = 3

    def parts(m: Any) -> tuple[Any, Any]:
        nl = _named_loss("pd", r)
        return nl.matrix, calibration_surrogates.ramaswamy_quadratic(nl.decomposition)[0]

    over = ("the whole simplex (not asserted by the paper: on 3 nodes Algorithm 1 deletes the lightest edge of "
            "a 3-cycle, an exact minimum weighted feedback arc set, so P_DAG is not needed at r = 3)"
            if whole_simplex else "P_DAG (E^p acyclic, as relations in p)")
    return calibrated(
        id, loss=lambda m: parts(m)[0], surrogate=lambda m: parts(m)[1],
        link=lambda m: algorithm1_link(r, reverse=reverse),
        noise=None if whole_simplex else (lambda m: list(p_dag_relations(r))),
        cite=cite("Theorem 7", "(psi*_PD, pred-bar_PD) is (l_PD, P_DAG)-calibrated."),
        statement=("r = 3, all unit DAGs: psi*_PD(y, u) = sum_{i != j} (u_ij - y_ij)^2 with pred-bar_PD = "
                   f"{'the reverse of ' if reverse else ''}Algorithm 1 (its exact closed regions, "
                   f"ramaswamy2013.theorem7.algorithm1_regions) is calibrated for l_PD over {over}"),
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

theorem3_identity = theorem3_identity_claim()
theorem3_surrogate = theorem3_surrogate_claim()
theorem3_calibration = theorem3_calibration_claim()

precision_two_forms = precision_forms_claim()
precision_decomposition = decomposition_claim(
    "ramaswamy2013.precision.decomposition", "precision", {"q": 2}, r_sizes(3, 6), "Section 4",
    "l_P@q(y, sigma) = 1 - (1/q) sum_i y_i 1(sigma(i) <= q); therefore, by Theorem 3, ... psi*_P@q(y, u) = "
    "sum_i (u_i - y_i)^2")


def precision_rank_claim(id: str = "ramaswamy2013.precision.rank", *, offset: int = 0) -> Any:
    return rank_claim(
        id, "precision", {"q": 2}, r_sizes(3, 5), "Section 4", "for the r-dimensional surrogate psi*_P@q ...",
        kind="affine dimension", bound=lambda r: r + offset, exact=True,
        statement="the P@2 loss matrix has certified affine dimension (Theorem 3's d) exactly r: the paper's r "
                  "dimensions are needed and enough")


precision_rank = precision_rank_claim()
precision_top_q = top_q_claim()
wta_is_p1 = wta_claim()

eru_decomposition = decomposition_claim(
    "ramaswamy2013.eru.decomposition", "eru", {"s": 2, "v": 1, "w": 2}, r_sizes(3, 5), "Section 5",
    "l_ERU(y, sigma) = z - sum_i max(y_i - v, 0) 2^((1 - sigma(i))/(w - 1))")


def eru_rank_claim(id: str = "ramaswamy2013.eru.rank", *, offset: int = 0) -> Any:
    return rank_claim(
        id, "eru", {"s": 2, "v": 1, "w": 2}, r_sizes(3, 4), "Section 5", "for the r-dimensional surrogate psi*_ERU ...",
        kind="affine dimension", bound=lambda r: r + offset, exact=True,
        statement="the ERU loss matrix (s = 2, v = 1, w = 2, z = r) has certified affine dimension exactly r")


eru_rank = eru_rank_claim()
eru_sorting = eru_sorting_claim(
    "ramaswamy2013.eru.pred_sorting", ERU_WS_PRINTED, reverse_below_1=False,
    statement="for every w in R (w != 1) and u, every sigma with u_i > u_j => sigma(i) < sigma(j) maximises "
              "sum_i u_i 2^((1 - sigma(i))/(w - 1))",
    finding=Finding(
        what="The paper lets the half-life w range over R, but the sorting pred map is right only for w > 1: for "
             "w < 1 the discounts 2^((1 - k)/(w - 1)) increase with the position k, so the maximiser sorts the scores "
             "in increasing order (and w = 1 divides by zero).",
        counterexample="r = 2, w = 0 (discounts 2^0 = 1 at position 1, 2^1 = 2 at position 2), u = (-1, 0): the "
                       "decreasing sort sigma = (2, 1) gives 0*1 + (-1)*2 = -2 < -1 = (-1)*1 + 0*2.",
        corrected="ramaswamy2013.eru.pred_sorting.corrected",
    ),
)
eru_sorting_corrected = eru_sorting_claim(
    "ramaswamy2013.eru.pred_sorting.corrected", ERU_WS_PRINTED + ERU_WS_ABOVE_1[2:], reverse_below_1=True,
    statement="for w > 1 every sigma sorting u decreasingly maximises the ERU objective; for w < 1 every sigma "
              "sorting u increasingly does",
)

map_form_positions = map_forms_claim("ramaswamy2013.map.rewrite.positions", form=1)
map_form_pairs = map_forms_claim("ramaswamy2013.map.rewrite.pairs", form=2)
map_decomposition = decomposition_claim(
    "ramaswamy2013.map.decomposition", "map", {}, r_sizes(3, 6), "Section 6",
    "psi*_MAP(y, u) = sum_i sum_{j<=i} (u_ij - y_i y_j / sum_g y_g)^2 ... by Theorem 3")


def map_rank_bound_claim(id: str = "ramaswamy2013.map.rank_bound", *, offset: int = 0, exact: bool = False,
                         statement: str = "") -> Any:
    return rank_claim(
        id, "map", {}, r_sizes(3, 5), "Section 6", "for the r(r+1)/2-dimensional surrogate psi*_MAP ...",
        kind="affine dimension", bound=lambda r: r * (r + 1) // 2 + offset, exact=exact,
        statement=statement or "the MAP loss matrix has certified affine dimension (Theorem 3's d) at most r(r+1)/2")


map_rank_bound = map_rank_bound_claim()
map_rank_exact = map_rank_bound_claim(
    "ramaswamy2013.map.rank_exact", offset=-1, exact=True,
    statement="the MAP loss matrix has certified affine dimension exactly r(r+1)/2 - 1 (the bound is one too large: "
              "sum_i alpha_y,ii = 1 and sum of beta_sigma = -r make one coordinate redundant)")
map_qap = map_qap_claim()
theorem4_eq2 = eq2_claim()
lemma8 = lemma8_claim()
theorem4 = theorem4_claim()
theorem4_without_p_reinforce = lemma8_claim(
    "ramaswamy2013.theorem4.without_p_reinforce", inside=False, expected="refuted",
    statement="without P_reinforce, every sigma sorting the diagonal u^p_ii is optimal for l_MAP (false: the "
              "condition is not vacuous)",
    quote="under certain conditions on the probability distribution, the surrogate psi*_MAP together with this mapping "
          "is still calibrated")
lemma8_step = lemma8_step_claim(
    "ramaswamy2013.lemma8.proof.swap_step", printed=True,
    finding=Finding(
        what="In the proof of Lemma 8 the step that replaces sum_{j=1}^{c-1} (u_a pi1(j) - u_b pi1(j)) by the sum over "
             "every j not in {c, c+1} (no positive parts) is false: documents placed after b can have u_bg > u_ag. "
             "The lemma survives: bound the sum by sum_{g != a, b} (u_ag - u_bg)_+, which P_reinforce controls.",
        counterexample="r = 4, p = 1/10 on (0,0,0,1), 3/10 on (1,1,0,1), 1/5 on (1,0,0,0), 2/5 on (0,0,1,1) (in "
                       "P_reinforce); sigma^0 = (3, 4, 2, 1) (order 4 > 3 > 1 > 2) is optimal, a = 3 at c = 2 and "
                       "b = 1 at c + 1 = 3 have u_33 = 1/5 < u_11 = 3/10; p^T l_sigma0 - p^T l_sigma1 = 0 but the "
                       "printed bound is 1/60 (u_32 - u_12 = -1/10 for document 2 placed after b).",
        corrected="ramaswamy2013.lemma8.proof.swap_step.corrected",
    ),
)
lemma8_step_corrected = lemma8_step_claim("ramaswamy2013.lemma8.proof.swap_step.corrected", printed=False)
corollary5_u_tilde = corollary5_identity_claim()
corollary5 = theorem4_claim("ramaswamy2013.corollary5", tilde=True)

pd_decomposition = decomposition_claim(
    "ramaswamy2013.pd.decomposition", "pd", {}, r_sizes(2, 4), "Section 7, Eq. (1)",
    "psi*_PD(y, u) = sum_i sum_{j != i} (u_ij - y_ij)^2, pred*_PD(u) in argmin sum u_ij 1(sigma(i) > sigma(j))")


def pd_rank_claim(id: str = "ramaswamy2013.pd.rank_bound", *, offset: int = 0, exact: bool = False,
                  kind: str = "rank", sizes: Sizes | None = None, statement: str = "",
                  finding: Finding | None = None, labels: str = "unit_dags") -> Any:
    return rank_claim(
        id, "pd", {"labels": labels}, sizes or r_sizes(2, 4), "Section 7",
        "in fact the loss matrix l_PD has rank at most r(r-1)/2, allowing for an r(r-1)/2-dimensional surrogate",
        kind=kind, bound=lambda r: r * (r - 1) // 2 + offset, exact=exact,
        statement=statement or f"the PD loss matrix over {labels.replace('_', ' ')} has rank at most r(r-1)/2",
        finding=finding)


pd_rank_bound = pd_rank_claim(finding=Finding(
    what="The PD loss matrix does not have rank at most r(r-1)/2: l_PD = sum_{i<j} y_ji + sum_{i<j} (y_ij - y_ji) "
         "1(sigma(i) > sigma(j)) has a label-dependent offset, and over all unit DAGs both the rank and Theorem 3's "
         "d are r(r-1)/2 + 1 (certified for r = 2..5). An r(r-1)/2-dimensional calibrated surrogate still exists, "
         "because the offset does not depend on sigma.",
    counterexample="r = 2, labels {}, {1->2}, {2->1}: L = [[0, 0], [0, 1], [1, 0]] has rank 2 > 1 (and no constant c "
                   "gives rank(L - c J) = 1).",
    corrected="ramaswamy2013.pd.rank_bound.corrected",
))
pd_rank_corrected = pd_rank_claim(
    "ramaswamy2013.pd.rank_bound.corrected", offset=1, exact=True,
    statement="over all unit DAGs the PD loss matrix has certified rank exactly r(r-1)/2 + 1")
pd_affine_corrected = pd_rank_claim(
    "ramaswamy2013.pd.affine_dimension", offset=1, exact=True, kind="affine dimension",
    statement="over all unit DAGs the PD loss matrix has certified affine dimension (Theorem 3's d) exactly "
              "r(r-1)/2 + 1")
pd_total_orders = pd_rank_claim(
    "ramaswamy2013.pd.total_orders_affine", exact=True, kind="affine dimension", labels="total_orders",
    sizes=r_sizes(3, 4),
    statement="over total orders (constant total weight) the PD loss matrix has affine dimension exactly r(r-1)/2: "
              "the bound holds for Theorem 3's d there")
pd_half_surrogate = pd_offset_claim()
pd_mwfas = pd_fas_claim()

theorem6 = theorem6_claim()
theorem6_dmj = dmj_claim()
theorem6_dmj_noise = dmj_noise_claim()
theorem7 = theorem7_claim()
theorem7_p_dag_contains_p_f = p_dag_contains_p_f_claim()
theorem7_inclusion_strict = inclusion_strict_claim()

# calibration decided over the whole simplex (Theorem 3) or the paper's noise set (Theorems 4, 6, 7)
WHOLE = "whole_simplex"
THEOREM3_WHOLE_CASES = (("precision", 3), ("precision", 4), ("eru", 3), ("eru", 4), ("map", 3), ("map", 4),
                        ("pd", 3), ("generic", 0))


def theorem3_whole_id(key: str, r: int) -> str:
    return f"ramaswamy2013.theorem3.calibration.{WHOLE}.{key}" + (f"_r{r}" if r else "_4x3")


theorem3_whole = [theorem3_whole_claim(theorem3_whole_id(key, r), key, r) for key, r in THEOREM3_WHOLE_CASES]
theorem4_whole = [theorem4_whole_claim(f"ramaswamy2013.theorem4.calibration.p_reinforce.r{r}", r) for r in (3, 4)]
corollary5_whole = [corollary5_whole_claim(f"ramaswamy2013.corollary5.calibration.p_reinforce.r{r}", r)
                    for r in (3, 4)]
lemma8_whole = [lemma8_whole_claim(f"ramaswamy2013.lemma8.p_reinforce.r{r}", r) for r in (3, 4)]
THEOREM6_WHOLE_CASES = ((3, "unit_dags"), (4, "total_orders"))
theorem6_whole = [
    theorem6_whole_claim(f"ramaswamy2013.theorem6.calibration.p_f.{fname}_r{r}"
                         + ("" if labels == "unit_dags" else f"_{labels}"), r, fname, labels=labels)
    for r, labels in THEOREM6_WHOLE_CASES for fname in ("duchi", "out_weight")
]
theorem7_algorithm1_regions = algorithm1_regions_claim()
theorem7_whole = theorem7_whole_claim("ramaswamy2013.theorem7.calibration.p_dag.r3")
theorem7_whole_simplex = theorem7_whole_claim(f"ramaswamy2013.theorem7.calibration.{WHOLE}.r3", whole_simplex=True)

CLAIMS = [
    theorem3_identity,
    theorem3_surrogate,
    theorem3_calibration,
    precision_two_forms,
    precision_decomposition,
    precision_rank,
    precision_top_q,
    wta_is_p1,
    eru_decomposition,
    eru_rank,
    eru_sorting,
    eru_sorting_corrected,
    map_form_positions,
    map_form_pairs,
    map_decomposition,
    map_rank_bound,
    map_rank_exact,
    map_qap,
    theorem4_eq2,
    lemma8,
    lemma8_step,
    lemma8_step_corrected,
    theorem4,
    theorem4_without_p_reinforce,
    corollary5_u_tilde,
    corollary5,
    pd_decomposition,
    pd_rank_bound,
    pd_rank_corrected,
    pd_affine_corrected,
    pd_total_orders,
    pd_half_surrogate,
    pd_mwfas,
    theorem6,
    theorem6_dmj,
    theorem6_dmj_noise,
    theorem7,
    theorem7_p_dag_contains_p_f,
    theorem7_inclusion_strict,
    *theorem3_whole,
    *theorem4_whole,
    *corollary5_whole,
    *lemma8_whole,
    *theorem6_whole,
    theorem7_algorithm1_regions,
    theorem7_whole,
    theorem7_whole_simplex,
]


# ---------------------------------------------------------------------------------------
# Negative twins (DESIGN.md, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with this module's own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says "proved" (proved or confirmed on samples): the twin of a
# claim the paper implies is false adds the missing hypothesis.  Errata are their own twins.
# `symcal selftest --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


# Theorem 6's whole-simplex claims: id -> (r, f, labels) of the builder
THEOREM6_ARGS = {
    f"ramaswamy2013.theorem6.calibration.p_f.{fname}_r{r}" + ("" if labels == "unit_dags" else f"_{labels}"):
        (r, fname, labels)
    for r, labels in THEOREM6_WHOLE_CASES for fname in ("duchi", "out_weight")
}

TWINS: dict[str, Callable[[], Claim]] = {
    "ramaswamy2013.theorem3.risk_identity": lambda: theorem3_identity_claim(
        twin_id("ramaswamy2013.theorem3.risk_identity"), extra=_P[0] / 7),
    "ramaswamy2013.theorem3.surrogate_minimiser": lambda: theorem3_surrogate_claim(
        twin_id("ramaswamy2013.theorem3.surrogate_minimiser"), scale=2),
    "ramaswamy2013.theorem3.calibration": lambda: theorem3_calibration_claim(
        twin_id("ramaswamy2013.theorem3.calibration"), radius_factor=Fraction(200)),
    "ramaswamy2013.precision.two_forms": lambda: precision_forms_claim(
        twin_id("ramaswamy2013.precision.two_forms"), q_shift=1).replace(sizes=r_sizes(2, 3)),
    "ramaswamy2013.precision.decomposition": lambda: decomposition_claim(
        twin_id("ramaswamy2013.precision.decomposition"), "precision", {"q": 2}, r_sizes(3, 3), "Section 4", "q",
        c_shift=Fraction(1, 7)),
    "ramaswamy2013.precision.rank": lambda: precision_rank_claim(twin_id("ramaswamy2013.precision.rank"), offset=-1)
    .replace(sizes=r_sizes(3, 3)),
    "ramaswamy2013.precision.pred_top_q": lambda: top_q_claim(twin_id("ramaswamy2013.precision.pred_top_q"),
                                                              bottom=True).replace(sizes=r_sizes(2, 3)),
    "ramaswamy2013.wta.is_precision_at_1": lambda: wta_claim(twin_id("ramaswamy2013.wta"), q=2)
    .replace(sizes=r_sizes(2, 3)),
    "ramaswamy2013.eru.decomposition": lambda: decomposition_claim(
        twin_id("ramaswamy2013.eru.decomposition"), "eru", {"s": 2, "v": 1, "w": 2}, r_sizes(3, 3), "Section 5", "q",
        c_shift=Fraction(-1, 3)),
    "ramaswamy2013.eru.rank": lambda: eru_rank_claim(twin_id("ramaswamy2013.eru.rank"), offset=1)
    .replace(sizes=r_sizes(3, 3)),
    "ramaswamy2013.eru.pred_sorting.corrected": lambda: eru_sorting_claim(
        twin_id("ramaswamy2013.eru.corrected"), (Fraction(2), Fraction(1, 2)), reverse_below_1=False,
        statement="twin: no reversal"),
    "ramaswamy2013.map.rewrite.positions": lambda: map_forms_claim(
        twin_id("ramaswamy2013.map.positions"), form=1, shift=Fraction(1, 100)).replace(sizes=r_sizes(2, 3)),
    "ramaswamy2013.map.rewrite.pairs": lambda: map_forms_claim(
        twin_id("ramaswamy2013.map.pairs"), form=2, shift=Fraction(-1, 100)).replace(sizes=r_sizes(2, 3)),
    "ramaswamy2013.map.decomposition": lambda: decomposition_claim(
        twin_id("ramaswamy2013.map.decomposition"), "map", {"empty": "zero"}, r_sizes(3, 3), "Section 6", "q"),
    "ramaswamy2013.map.rank_bound": lambda: map_rank_bound_claim(twin_id("ramaswamy2013.map.rank_bound"), offset=-2)
    .replace(sizes=r_sizes(3, 3)),
    "ramaswamy2013.map.rank_exact": lambda: map_rank_bound_claim(
        twin_id("ramaswamy2013.map.rank_exact"), offset=0, exact=True).replace(sizes=r_sizes(3, 3)),
    "ramaswamy2013.map.pred_is_qap": lambda: map_qap_claim(twin_id("ramaswamy2013.map.qap"), diagonal_only=True)
    .replace(sizes=r_sizes(3, 3)),
    "ramaswamy2013.theorem4.eq2": lambda: eq2_claim(twin_id("ramaswamy2013.theorem4.eq2"), shift=Fraction(1, 1000)),
    "ramaswamy2013.lemma8": lambda: lemma8_claim(twin_id("ramaswamy2013.lemma8"), pred="reverse"),
    "ramaswamy2013.lemma8.proof.swap_step.corrected": lambda: lemma8_step_claim(
        twin_id("ramaswamy2013.lemma8.step"), printed=False, slack=Fraction(1, 1000)),
    "ramaswamy2013.theorem4": lambda: theorem4_claim(twin_id("ramaswamy2013.theorem4"), radius_factor=Fraction(400)),
    "ramaswamy2013.corollary5.u_tilde_is_diagonal": lambda: corollary5_identity_claim(
        twin_id("ramaswamy2013.corollary5.u_tilde"), extra=sympy.Rational(1, 9)),
    "ramaswamy2013.corollary5": lambda: theorem4_claim(twin_id("ramaswamy2013.corollary5"), tilde=True,
                                                       radius_factor=Fraction(400)),
    "ramaswamy2013.pd.decomposition": lambda: decomposition_claim(
        twin_id("ramaswamy2013.pd.decomposition"), "pd", {}, r_sizes(2, 3), "Section 7", "q", c_shift=Fraction(1, 2)),
    "ramaswamy2013.pd.rank_bound.corrected": lambda: pd_rank_claim(
        twin_id("ramaswamy2013.pd.rank_bound.corrected"), offset=0, exact=True, sizes=r_sizes(2, 3)),
    "ramaswamy2013.pd.affine_dimension": lambda: pd_rank_claim(
        twin_id("ramaswamy2013.pd.affine_dimension"), offset=0, exact=True, kind="affine dimension",
        sizes=r_sizes(2, 3)),
    "ramaswamy2013.pd.total_orders_affine": lambda: pd_rank_claim(
        twin_id("ramaswamy2013.pd.total_orders"), offset=-1, kind="affine dimension", labels="total_orders",
        sizes=r_sizes(3, 3)),
    # the surrogate with the sign of alpha flipped (alpha_y = y_ji - y_ij) is not calibrated
    "ramaswamy2013.pd.half_dimensional_surrogate": lambda: pd_offset_claim(
        twin_id("ramaswamy2013.pd.half"), sign=-1).replace(sizes=r_sizes(2, 3)),
    "ramaswamy2013.pd.pred_is_mwfas": lambda: pd_fas_claim(twin_id("ramaswamy2013.pd.mwfas"), wrong_constant=True)
    .replace(sizes=r_sizes(3, 3)),
    "ramaswamy2013.theorem6": lambda: theorem6_claim(twin_id("ramaswamy2013.theorem6"), use_f="reversed"),
    "ramaswamy2013.theorem6.dmj_special_case": lambda: dmj_claim(twin_id("ramaswamy2013.theorem6.dmj"), nu=1)
    .replace(sizes=r_sizes(3, 3)),
    "ramaswamy2013.theorem6.dmj_noise_set": lambda: dmj_noise_claim(twin_id("ramaswamy2013.theorem6.noise"),
                                                                    extra=sympy.Rational(1, 5)),
    "ramaswamy2013.theorem7": lambda: theorem7_claim(twin_id("ramaswamy2013.theorem7"), radius_factor=Fraction(400)),
    "ramaswamy2013.theorem7.p_dag_contains_p_f": lambda: p_dag_contains_p_f_claim(
        twin_id("ramaswamy2013.theorem7.p_dag"), strict=False).replace(sizes=r_sizes(3, 3)),
    # the whole-simplex / noise-set calibration claims: a wrong link, a wrong surrogate or a noise set the
    # theorem excludes must be refuted by an exactly re-checked counterexample distribution
    **{theorem3_whole_id(key, r): (lambda key=key, r=r: theorem3_whole_claim(
        twin_id(theorem3_whole_id(key, r)), key, r, reversed_link=True)) for key, r in THEOREM3_WHOLE_CASES},
    **{f"ramaswamy2013.theorem4.calibration.p_reinforce.r{r}": (lambda r=r: theorem4_whole_claim(
        twin_id(f"ramaswamy2013.theorem4.calibration.p_reinforce.r{r}"), r, outside=True)) for r in (3, 4)},
    **{f"ramaswamy2013.corollary5.calibration.p_reinforce.r{r}": (lambda r=r: corollary5_whole_claim(
        twin_id(f"ramaswamy2013.corollary5.calibration.p_reinforce.r{r}"), r, ascending=True)) for r in (3, 4)},
    **{f"ramaswamy2013.lemma8.p_reinforce.r{r}": (lambda r=r: lemma8_whole_claim(
        twin_id(f"ramaswamy2013.lemma8.p_reinforce.r{r}"), r, outside=True)) for r in (3, 4)},
    **{cid: (lambda cid=cid, r=r, f=f, labels=labels: theorem6_whole_claim(
        twin_id(cid), r, f, labels=labels, use_f="reversed")) for cid, (r, f, labels) in THEOREM6_ARGS.items()},
    "ramaswamy2013.theorem7.algorithm1_regions": lambda: algorithm1_regions_claim(
        twin_id("ramaswamy2013.theorem7.algorithm1_regions"), reverse=True),
    "ramaswamy2013.theorem7.calibration.p_dag.r3": lambda: theorem7_whole_claim(
        twin_id("ramaswamy2013.theorem7.calibration.p_dag.r3"), reverse=True),
    "ramaswamy2013.theorem7.calibration.whole_simplex.r3": lambda: theorem7_whole_claim(
        twin_id("ramaswamy2013.theorem7.calibration.whole_simplex.r3"), reverse=True, whole_simplex=True),
    # claims the paper implies are false: the twin adds the missing hypothesis and is proved
    "ramaswamy2013.theorem4.without_p_reinforce": lambda: lemma8_claim(
        twin_id("ramaswamy2013.theorem4.without"), inside=True, expected="proved"),
    "ramaswamy2013.theorem7.inclusion_strict": lambda: inclusion_strict_claim(
        twin_id("ramaswamy2013.theorem7.strict"), only_p_f=True),
}

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {
    "ramaswamy2013.theorem4.without_p_reinforce": "proved",
    "ramaswamy2013.theorem7.inclusion_strict": "proved",
}
