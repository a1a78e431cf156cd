"""Section 7.1, Theorem 6: score-based surrogates psi_f calibrated for PD over P_f -- on seeded
distributions and decided over P_f by :mod:`symcal.calibration` -- with psi_DMJ as the special
case f_i(y) = sum_j (y_ij - y_ji) and its noise set as P_f."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import calibrated, finite_check, identity
from symcal.ranking.loss_matrix import permutations
from symcal.ranking.noise_sets import duchi_f, expected_scores, in_p_f
from symcal.ranking.pred_maps import respects_scores, sort_by_scores

from .common import HALF, ONE, F, _psym, _rat, cite, describe_dist, fs, r_sizes
from .section7 import _pd_dists, expected_preference_of_p, pd_matrix_of, pd_risks


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


def _theorem6_perturbations(case: Any, u: Sequence[Fraction], risks: dict, best: Fraction,
                            radius_factor: Fraction) -> tuple[bool, str]:
    """Sorting 8 seeded score vectors within half the smallest gap of E f(Y) stays optimal."""
    r, fname, p = case
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


def theorem6_holds(case: Any, *, radius_factor: Fraction = ONE, use_f: str | None = None) -> tuple[bool, str]:
    """Every sigma sorting E f(Y) is optimal for l_PD, and so is the sort of nearby scores
    (``use_f`` sorts by another f than the one defining P_f: a twin)."""
    r, fname, p = case
    u = expected_scores(p, F_FUNCTIONS[use_f or fname])
    risks = pd_risks(p, r)
    best = min(risks.values())
    for s in permutations(r):
        if respects_scores(s, u) and risks[s] != best:
            return False, (f"f = {fname}: sigma = {s} sorts E f = {[fs(x) for x in u]} but has risk {fs(risks[s])} >"
                          f" {fs(best)}")
    return _theorem6_perturbations(case, u, risks, best, radius_factor)


def theorem6_claim(id: str, *, radius_factor: Fraction = ONE, use_f: str | None = None,
                   fnames: Sequence[str] = ("duchi", "out_weight")) -> Any:
    """Theorem 6: "Then (psi_f, pred) is (l_PD, P_f)-calibrated." -- on seeded distributions."""
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


def dmj_sides(r: int, nu: Any) -> tuple[Any, Any]:
    """psi_DMJ(y, u) (lambda(z) = z^2) and psi_f(y, u)/2 - sum_i f_i(y)^2/2, f_i(y) = sum_j (y_ij - y_ji)."""
    y = {(i, j): sympy.Symbol(f"y_{i}_{j}", real=True) for i in range(1, r + 1) for j in range(1, r + 1) if i != j}
    u = sympy.symbols(f"u1:{r + 1}", real=True)
    f = [sum(y[(i, j)] - y[(j, i)] for j in range(1, r + 1) if j != i) for i in range(1, r + 1)]
    dmj = sum(w * (u[j - 1] - u[i - 1]) for (i, j), w in y.items()) + nu * sum(x**2 for x in u)
    psi_f = sum((u[i] - f[i]) ** 2 for i in range(r))
    return dmj, psi_f / 2 - sum(x**2 for x in f) / 2


def dmj_claim(id: str, *, nu: Any = HALF) -> Any:
    """Section 7.1: "Taking lambda(z) = z^2 and nu = 1/2 gives a special case ... obtained by taking f
    as f_i(y) = sum_{j != i} (y_ij - y_ji)" (``nu`` = 1 is a twin)."""
    return identity(
        id, lambda r: dmj_sides(r, nu)[0], lambda r: dmj_sides(r, nu)[1],
        cite=cite("Section 7.1", "Taking lambda(z) = z^2 and nu = 1/2 gives a special case ... obtained by taking f "
                                 "as f_i(y) = sum_{j != i} (y_ij - y_ji)"),
        statement="psi_DMJ(y, u) with lambda(z) = z^2, nu = 1/2 equals psi_f(y, u)/2 - sum_i f_i(y)^2/2 with "
                  "f_i(y) = sum_{j != i} (y_ij - y_ji): the same minimisers, so the same calibration",
        sizes=r_sizes(3, 4),
    )


def dmj_noise_claim(id: str, *, extra: Any = 0) -> Any:
    """Section 7.1: "the set of noise conditions under which the surrogate psi_DMJ is shown to be
    calibrated ... in Duchi et al. [11] is exactly the set P_f above with this choice of f"."""
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


# --- Theorem 6 over P_f (symcal.calibration) ------------------------------------------------


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
    """Theorem 6: "Then (psi_f, pred) is (l_PD, P_f)-calibrated." -- decided over P_f (``use_f``: the
    surrogate of another f, a twin)."""
    surrogate_f = use_f or fname
    return calibrated(
        id, loss=lambda m: pd_matrix_of(r, labels), surrogate=lambda m: psi_f_surrogate(r, labels, surrogate_f),
        link=lambda m: "sort-desc", noise=lambda m: list(p_f_relations(r, labels, fname)),
        cite=cite("Theorem 6", "Then (psi_f, pred) is (l_PD, P_f)-calibrated."),
        statement=(f"r = {r}, labels = {labels.replace('_', ' ')}, f = {fname}: psi_{surrogate_f}(y, u) = "
                   f"sum_i (u_i - f_i(y))^2 with pred = sort decreasingly is calibrated for l_PD over P_f (the "
                   "relations E[Y_ij] > E[Y_ji] => E[f_i(Y)] > E[f_j(Y)] in p)"),
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

theorem6 = theorem6_claim("ramaswamy2013.theorem6")
THEOREM6_WHOLE_CASES = ((3, "unit_dags"), (4, "total_orders"))
# Theorem 6's whole-simplex claims: id -> (r, f, labels) of the builder
THEOREM6_ARGS = {
    f"ramaswamy2013.theorem6.calibration.p_f.{fname}_r{r}" + ("" if labels == "unit_dags" else f"_{labels}"):
        (r, fname, labels)
    for r, labels in THEOREM6_WHOLE_CASES for fname in ("duchi", "out_weight")
}
theorem6_whole = [theorem6_whole_claim(cid, r, fname, labels=labels)
                  for cid, (r, fname, labels) in THEOREM6_ARGS.items()]
theorem6_dmj = dmj_claim("ramaswamy2013.theorem6.dmj_special_case")
theorem6_dmj_noise = dmj_noise_claim("ramaswamy2013.theorem6.dmj_noise_set")
