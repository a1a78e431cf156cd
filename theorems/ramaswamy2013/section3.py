"""Section 3, Theorem 3: the risk identity p^T l_t = (u^p)^T beta_t + c, the least-squares
minimiser u^p, and calibration of (psi*, pred*) -- on seeded distributions and decided over the
whole simplex by :mod:`symcal.calibration`."""

from __future__ import annotations

import functools
import random
import zlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import calibrated, finite_check, identity
from symcal.calibration import surrogates as calibration_surrogates
from symcal.ranking.loss_matrix import LossMatrix
from symcal.ranking.pred_maps import argmin_linear

from .common import ONE, F, _named_loss, cite, describe_dist, expected_row, fs, random_dist, risk_argmin

N_LAB, K_PRED, D_DIM = 3, 2, 2
_P = sympy.symbols(f"p1:{N_LAB}", real=True)
_C = sympy.Symbol("c", real=True)
_A = sympy.Matrix(N_LAB, D_DIM, lambda y, i: sympy.Symbol(f"alpha_{y + 1}_{i + 1}", real=True))
_B = sympy.Matrix(K_PRED, D_DIM, lambda t, i: sympy.Symbol(f"beta_{t + 1}_{i + 1}", real=True))
_U = sympy.symbols(f"u1:{D_DIM + 1}", real=True)


def _probs() -> list[Any]:
    return [*_P, 1 - sum(_P)]


def theorem3_identity_claim(id: str, *, extra: Any = 0) -> Any:
    """Theorem 3, proof: "p^T l_t = sum_y p_y (sum_i alpha_yi beta_ti + c) = (u^p)^T beta_t + c"
    (``extra`` nudges the right-hand side: a twin)."""
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
        scope="n = 3, k = 2, d = 2 decided; every n, k, d: entry t of both sides is sum_y sum_i p_y alpha_yi "
              "beta_ti + c with sum_y p_y = 1, the same terms over longer index ranges",
    )


def least_squares_sides(p: Sequence[Any], alpha: Sequence[Sequence[Any]], u: Sequence[Any], *,
                        scale: Any = 1) -> tuple[Any, Any]:
    """p^T psi(u) for psi(y, u) = sum_i (u_i - alpha_yi)^2, and |u - u^p|^2 + (sum_y p_y |alpha_y|^2 -
    |u^p|^2) with u^p = sum_y p_y alpha_y (``scale`` multiplies |u - u^p|^2: a twin)."""
    labels, d = range(len(p)), range(len(u))
    up = [sum(p[y] * alpha[y][i] for y in labels) for i in d]
    lhs = sum(p[y] * sum((u[i] - alpha[y][i]) ** 2 for i in d) for y in labels)
    const = sum(p[y] * sum(alpha[y][i] ** 2 for i in d) for y in labels) - sum(x**2 for x in up)
    return lhs, scale * sum((u[i] - up[i]) ** 2 for i in d) + const


def theorem3_surrogate_claim(id: str, *, scale: Any = 1) -> Any:
    """Theorem 3, proof: "Minimizing this over u yields that u^p is the unique minimizer of
    p^T psi*(u)" (symbolic alpha, u and p)."""
    lhs, rhs = least_squares_sides(_probs(), _A.tolist(), _U, scale=scale)
    return identity(
        id, lhs, rhs,
        cite=cite("Theorem 3, proof", "Minimizing this over u yields that u^p is the unique minimizer of p^T psi*(u)"),
        statement="p^T psi*(u) = |u - u^p|^2 + (sum_y p_y |alpha_y|^2 - |u^p|^2) on the simplex: u^p is the unique "
                  "minimiser and the risk grows as |u - u^p|^2",
    )


# --- Theorem 3 on seeded distributions -----------------------------------------------------


@functools.cache
def _generic_loss() -> tuple[LossMatrix, Any]:
    user = LossMatrix.from_rows([[0, 1, 2], [1, 0, 2], [2, 2, 0], [1, 1, 1]], name="a 4 x 3 matrix")
    return user, user.rank().decomposition


def _theorem3_cases(seed: int = 3) -> list[tuple[str, Any, list, tuple[Fraction, ...]]]:
    """Six seeded distributions for each of P@2, ERU, MAP, PD (r = 3) and a generic 4 x 3 matrix."""
    rng = random.Random(seed)
    losses = [("precision@2, r = 3", _named_loss("precision", 3, (("q", 2),))), ("ERU, r = 3", _named_loss("eru", 3)),
              ("MAP, r = 3", _named_loss("map", 3)), ("PD, r = 3, unit DAGs", _named_loss("pd", 3))]
    cases = []
    for name, nl in losses:
        for _ in range(6):
            p = random_dist(nl.matrix.labels, rng)
            cases.append((name, (nl.matrix, nl.decomposition), p, ()))
    user, user_dec = _generic_loss()  # an arbitrary 4 x 3 loss matrix with its generic exact decomposition
    for _ in range(6):
        cases.append(("a 4 x 3 matrix (generic decomposition)", (user, user_dec), random_dist(user.labels, rng), ()))
    return cases


def _theorem3_radius(dec: Any, risks: Sequence[Fraction], best: Fraction) -> Fraction | None:
    """(min positive regret) / max_s,t |beta_s - beta_t|_1: regret(pred(u)) <= |u - u^p|_inf * spread;
    None when every prediction is optimal."""
    regrets = [v - best for v in risks if v > best]
    if not regrets:
        return None
    spread = max(sum(abs(a - b) for a, b in zip(dec.beta_of(s), dec.beta_of(t), strict=True))
                 for s in range(dec.beta.shape[0]) for t in range(dec.beta.shape[0]))
    return min(regrets) / spread


def _theorem3_perturbations(case: Any, up: list[Fraction], delta: Fraction, opt: set[int],
                            risks: Sequence[Fraction], best: Fraction) -> tuple[bool, str]:
    """pred*(u) is optimal for 12 seeded u with |u - u^p|_inf < delta."""
    name, (mat, dec), p, _ = case
    d = dec.d
    rng = random.Random(zlib.crc32(name.encode()) % 1000 + len(p))  # not hash(): salted per process
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


def theorem3_calibration_holds(case: Any, *, radius_factor: Fraction = ONE) -> tuple[bool, str]:
    """The identity p^T l_t = (u^p)^T beta_t + c, pred*(u^p) optimal, and pred*(u) optimal near u^p."""
    name, (mat, dec), p, _ = case
    idx = {y: a for a, y in enumerate(mat.labels)}
    risks = expected_row(mat, p)
    opt, best = risk_argmin(risks)
    up = [sum((pr * dec.alpha_of(idx[y])[i] for y, pr in p), F(0)) for i in range(dec.d)]
    for t in range(mat.shape[1]):
        if risks[t] != sum((a * b for a, b in zip(up, dec.beta_of(t), strict=True)), F(0)) + dec.c:
            return False, f"{name}: p^T l_t != (u^p)^T beta_t + c at t = {mat.predictions[t]}"
    arg, _v = argmin_linear(up, dec)
    if not set(arg) <= opt:
        return False, f"{name}: pred*(u^p) = {mat.predictions[arg[0]]} is not optimal"
    radius = _theorem3_radius(dec, risks, best)
    if radius is None:
        return True, f"{name}: every prediction is optimal"
    return _theorem3_perturbations(case, up, radius * radius_factor, opt, risks, best)


def theorem3_calibration_claim(id: str, *, radius_factor: Fraction = ONE) -> Any:
    """Theorem 3: "Then (psi*_l, pred*_l) is l-calibrated." -- on seeded distributions
    (``radius_factor`` widens the perturbation radius: a twin)."""
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


# --- Theorem 3 over the whole simplex (symcal.calibration) ----------------------------------
# Each calibration claim hands the engine the loss matrix, the surrogate (one expression per label
# y, in u1..ud), the pred map as a link and (Sections 6-7) the noise set as relations in p1..pn
# (p_a is the probability of the a-th label of the loss matrix, in the matrix's label order).  The
# surrogates are quadratic with the shared quadratic part |u|^2, so the engine's reduction (A)
# applies: u*(p) = sum_y p_y alpha_y is the unique minimiser and the claim is proved iff no p in P
# puts u*(p) in the closed cell of a suboptimal prediction (one z3 query per pair).

THEOREM3_LOSSES: dict[str, tuple[str, tuple[tuple[str, Any], ...], str]] = {
    "precision": ("precision", (("q", 2),), "P@2"),
    "eru": ("eru", (), "ERU (s = 2, v = 1, w = 2, z = r)"),
    "map": ("map", (), "MAP (l(0, sigma) = 1)"),
    "pd": ("pd", (), "PD over all unit DAGs"),
}
WHOLE = "whole_simplex"
THEOREM3_WHOLE_CASES = (("precision", 3), ("precision", 4), ("eru", 3), ("eru", 4), ("map", 3), ("map", 4),
                        ("pd", 3), ("generic", 0))


def theorem3_whole_id(key: str, r: int) -> str:
    return f"ramaswamy2013.theorem3.calibration.{WHOLE}.{key}" + (f"_r{r}" if r else "_4x3")


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
    """Theorem 3: "Then (psi*_l, pred*_l) is l-calibrated." -- decided over the whole simplex."""
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


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

theorem3_identity = theorem3_identity_claim("ramaswamy2013.theorem3.risk_identity")
theorem3_surrogate = theorem3_surrogate_claim("ramaswamy2013.theorem3.surrogate_minimiser")
theorem3_calibration = theorem3_calibration_claim("ramaswamy2013.theorem3.calibration")
theorem3_whole = [theorem3_whole_claim(theorem3_whole_id(key, r), key, r) for key, r in THEOREM3_WHOLE_CASES]
