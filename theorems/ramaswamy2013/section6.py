"""Section 6: MAP -- the two rewritten forms, the decomposition and its affine dimension, pred*_MAP
as a QAP, Theorem 4 (pred-bar_MAP is calibrated over P_reinforce) and Corollary 5, on seeded
distributions and decided over P_reinforce by :mod:`symcal.calibration`."""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, calibrated, finite_check, identity
from symcal.calibration import surrogates as calibration_surrogates
from symcal.errors import InvalidInput
from symcal.ranking.loss_matrix import binary_relevance, permutations
from symcal.ranking.noise_sets import in_p_reinforce, map_u, map_u_tilde
from symcal.ranking.pred_maps import (
    map_objective,
    map_pred_diagonal,
    map_pred_qap,
    qap_objective,
    respects_scores,
    sort_by_scores,
)
from symcal.ranking.subset_losses import map_loss, map_pairs

from .common import (
    ONE,
    ZERO,
    F,
    _named_loss,
    _psym,
    _rat,
    at_position,
    cite,
    decomposition_claim,
    describe_dist,
    fs,
    indicator,
    label_permutation_cases,
    label_symbols,
    position_symbols,
    r_sizes,
    random_dist,
    random_scores,
    rank_claim,
    ranking_values,
)


@functools.cache
def _map_definition(sigma: tuple[int, ...]) -> tuple[Any, tuple[Any, ...]]:
    """l_MAP(y, sigma) = 1 - 1/|{g : y_g = 1}| sum_{i : y_i = 1} (1/sigma(i)) sum_{j=1}^{sigma(i)} y_{sigma^-1(j)}
    in the symbols y_i, s_i = sigma(i): the inner sum by cases on the value of s_i (its last case s_i = r is
    the otherwise branch: the conditions below make s a permutation of 1..r), y_{sigma^-1(j)} as y_{doc[j]},
    with the conditions s_{doc[j]} = j that make doc the inverse of s."""
    r = len(sigma)
    y, s = label_symbols(r), position_symbols(r)
    doc, inverse = at_position(sigma)
    prefix = [sum(y[doc[j]] for j in range(1, k + 1)) for k in range(r + 1)]  # prefix[k]: positions 1..k

    def up_to_own_position(i: int) -> Any:  # sum_{j=1}^{sigma(i)} y_{sigma^-1(j)}
        return sympy.Piecewise(*[(prefix[k], sympy.Eq(s[i], k)) for k in range(1, r)], (prefix[r], True))

    relevant = sum(indicator(sympy.Eq(y[g], 1)) for g in range(r))
    precision_sum = sum(sympy.Piecewise((up_to_own_position(i) / s[i], sympy.Eq(y[i], 1)), (0, True))
                        for i in range(r))
    return 1 - precision_sum / relevant, tuple(inverse)


def _max(a: Any, b: Any) -> Any:
    """max(a, b) as the Piecewise the kernel reads it as (sympy's Max is slow to evaluate)."""
    return a if a == b else sympy.Piecewise((a, a >= b), (b, True))


@functools.cache
def _map_form(sigma: tuple[int, ...], form: int) -> Any:
    """Section 6's rewritten forms, 1 - (1/sum_g y_g) sum_{i=1}^r sum_{j=1}^i y_{sigma^-1(i)} y_{sigma^-1(j)} / i
    (form 1) and 1 - (1/sum_g y_g) sum_{i=1}^r sum_{j=1}^i y_i y_j / max(sigma(i), sigma(j)) (form 2)."""
    r = len(sigma)
    y, s = label_symbols(r), position_symbols(r)
    doc, _ = at_position(sigma)
    if form == 1:
        total = sum(y[doc[i]] * y[doc[j]] / sympy.Integer(i) for i in range(1, r + 1) for j in range(1, i + 1))
    else:
        total = sum(y[i - 1] * y[j - 1] / _max(s[i - 1], s[j - 1]) for i in range(1, r + 1) for j in range(1, i + 1))
    return 1 - total / sum(y)


def map_forms_formula(case: Any, *, form: int, shift: Fraction = ZERO) -> tuple[list[Any], dict[Any, Any]]:
    """The rewritten form equals the definition at the case's y != 0 and sigma (``shift``: a twin)."""
    r, y, sigma = case
    definition, inverse = _map_definition(tuple(sigma))
    rewritten = _map_form(tuple(sigma), form) + _rat(F(shift))
    return [*inverse, sympy.Eq(definition, rewritten, evaluate=False)], ranking_values(y, sigma)


def map_forms_claim(id: str, *, form: int, shift: Fraction = ZERO) -> Any:
    """Section 6: "l_MAP(y, sigma) = 1 - 1/sum y_g sum_i sum_{j<=i} y_{sigma^-1(i)} y_{sigma^-1(j)} / i
    = 1 - 1/sum y_g sum_i sum_{j<=i} y_i y_j / max(sigma(i), sigma(j))" (form 1, form 2)."""
    quote = ("l_MAP(y, sigma) = 1 - 1/sum y_g sum_{i=1}^r sum_{j=1}^i y_{sigma^-1(i)} y_{sigma^-1(j)} / i"
             if form == 1 else "= 1 - 1/sum y_g sum_{i=1}^r sum_{j=1}^i y_i y_j / max(sigma(i), sigma(j))")
    return finite_check(
        id, cases=lambda r: label_permutation_cases(r, nonzero=True),
        formula=lambda c: map_forms_formula(c, form=form, shift=shift),
        describe=lambda c: {"r": c[0], "y": c[1], "sigma": c[2]},
        domain="y in {0,1}^r \\ {0} (MAP is 0/0 at y = 0), every sigma in S_r", cite=cite("Section 6", quote),
        statement=f"MAP's rewritten form {form} equals its definition on every nonzero label and permutation",
        sizes=r_sizes(2, 5),
    )


def map_rank_bound_claim(id: str, *, offset: int = 0, exact: bool = False, statement: str = "") -> Any:
    """Section 6: "for the r(r+1)/2-dimensional surrogate psi*_MAP ..."."""
    return rank_claim(
        id, "map", {}, r_sizes(3, 5), "Section 6", "for the r(r+1)/2-dimensional surrogate psi*_MAP ...",
        kind="affine dimension", bound=lambda r: r * (r + 1) // 2 + offset, exact=exact,
        statement=statement or "the MAP loss matrix has certified affine dimension (Theorem 3's d) at most r(r+1)/2")


def map_zero_label_holds(r: int, *, corrected: bool = False, value: Fraction = ONE) -> tuple[bool, str]:
    """As printed: l_MAP (symcal's map_loss with empty="error") is defined at every y in {0,1}^r.
    Corrected: the decomposition l = alpha beta^T + c is exact at every y != 0, and at y = 0, with
    alpha_0 = 0 (y_i y_j / |y| read as 0), it gives l(0, sigma) = c, which must be ``value``."""
    nl = _named_loss("map", r)
    mat, dec = nl.matrix, nl.decomposition
    for a, y in enumerate(mat.labels):
        for t, s in enumerate(mat.predictions):
            rhs = sum((x * b for x, b in zip(dec.alpha_of(a), dec.beta_of(t), strict=True)), F(0)) + dec.c
            try:
                lhs = value if corrected and not any(y) else map_loss(y, s, empty="error")
            except InvalidInput:
                return False, (f"r = {r}, y = {y}: l_MAP(y, sigma) = 1 - (1/|{{g : y_g = 1}}|) ... has 1/0, and "
                               f"psi*_MAP's y_i y_j / sum_g y_g is 0/0")
            if lhs != rhs:
                return False, f"r = {r}, y = {y}, sigma = {s}: l = {fs(lhs)}, alpha_y . beta_sigma + c = {fs(rhs)}"
    return True, f"r = {r}: {len(mat.labels)} labels x {len(mat.predictions)} sigma, exact"


def map_zero_label_formula(case: Any, *, value: Fraction = ONE) -> tuple[list[Any], dict[Any, Any]]:
    """The corrected statement at the case's y (0 included) and sigma, in the symbols y_i, s_i:
    l(y, sigma) = sum_{i>=j} alpha_y,ij beta_sigma,ij + c with alpha_y,ij = y_i y_j / sum_g y_g (0 at y = 0),
    beta_sigma,ij = -1/max(sigma(i), sigma(j)), c = 1 (Section 6), where l is the definition of l_MAP
    at y != 0 and ``value`` at y = 0."""
    r, y, sigma = case
    ys, s = label_symbols(r), position_symbols(r)
    definition, inverse = _map_definition(tuple(sigma))
    empty = sympy.And(*[sympy.Eq(v, 0) for v in ys])
    loss = sympy.Piecewise((_rat(F(value)), empty), (definition, True))
    alpha = {(i, j): sympy.Piecewise((0, empty), (ys[i - 1] * ys[j - 1] / sum(ys), True))
             for i in range(1, r + 1) for j in range(1, i + 1)}
    beta = {(i, j): -1 / _max(s[i - 1], s[j - 1]) for (i, j) in alpha}
    decomposition = sum(alpha[k] * beta[k] for k in alpha) + 1
    return [*inverse, sympy.Eq(loss, decomposition, evaluate=False)], ranking_values(y, sigma)


def map_zero_label_claim(id: str, *, corrected: bool = False, value: Fraction = ONE,
                         finding: Finding | None = None) -> Any:
    """Section 6: "for the r(r+1)/2-dimensional surrogate psi*_MAP : {0,1}^r x R^{r(r+1)/2} -> R+ ...
    psi*_MAP(y, u) = sum_i sum_{j<=i} (u_ij - y_i y_j / sum_gamma y_gamma)^2" -- defined on all of
    {0,1}^r as printed; corrected, on y != 0 and extended to y = 0 by l_MAP(0, sigma) = ``value``
    (stated per (y, sigma) as a formula the kernel re-evaluates)."""
    check: dict[str, Any] = (
        {"cases": label_permutation_cases,
         "formula": lambda c: map_zero_label_formula(c, value=value),
         "describe": lambda c: {"r": c[0], "y": c[1], "sigma": c[2]}} if corrected else
        {"cases": lambda m: [m], "holds": lambda r: map_zero_label_holds(r, corrected=corrected, value=value),
         "describe": lambda r: {"r": r}})
    return finite_check(
        id, **check,
        domain="every label y in {0,1}^r (y = 0 first) and every sigma in S_r",
        cite=cite("Section 6", "for the r(r+1)/2-dimensional surrogate psi*_MAP : {0,1}^r x R^{r(r+1)/2} -> R+ ... "
                               "psi*_MAP(y, u) = sum_i sum_{j<=i} (u_ij - y_i y_j / sum_gamma y_gamma)^2"),
        statement=("l_MAP and psi*_MAP are defined on all of Y = {0,1}^r" if not corrected else
                   f"l_MAP(y, sigma) = alpha_y . beta_sigma + 1 at every y != 0 (alpha_y = (y_i y_j / |y|)_{{i>=j}}); "
                   f"with alpha_0 = 0 the decomposition extends to y = 0 with l_MAP(0, sigma) := {fs(value)}"),
        sizes=r_sizes(2, 4), finding=finding,
    )


def map_qap_holds(r: int, *, diagonal_only: bool = False) -> tuple[bool, str]:
    """On 8 seeded u: the MAP objective equals the QAP trace form at every sigma, and the exact argmax
    attains it (``diagonal_only`` uses the diagonal sort instead: a twin)."""
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


def map_qap_claim(id: str, *, diagonal_only: bool = False) -> Any:
    """Section 6: "the optimization problem associated with computing pred*_MAP(u) above can be
    written as a quadratic assignment problem (QAP)"."""
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


# --- Theorem 4, Lemma 8 and Corollary 5 on seeded distributions ------------------------------


def _map_dists(r: int, seed: int, count: int, *, inside: bool | None) -> list[list]:
    """``count`` seeded distributions on {0,1}^r, inside (or outside, or regardless of) P_reinforce."""
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


def map_risk(p: list, sigma: tuple[int, ...]) -> Fraction:
    return sum((pr * map_loss(y, sigma) for y, pr in p), F(0))


def lemma8_holds(case: Any, *, pred: str = "diagonal") -> tuple[bool, str]:
    """Every sigma sorting the diagonal u^p_ii decreasingly is optimal (``pred="reverse"`` sorts it
    increasingly: a twin)."""
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


def lemma8_claim(id: str, *, pred: str = "diagonal", inside: bool | None = True,
                 expected: str | None = None, statement: str = "", quote: str = "") -> Any:
    """Lemma 8: "Let p in P_reinforce. ... Then Pi(p) subset of Pi*(p)." -- on seeded distributions
    (``inside=False``: outside P_reinforce, where Section 6 implies it fails)."""
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
    """The diagonal sort of 10 seeded u within half the smallest diagonal gap of u^p is optimal
    (``tilde``: Corollary 5's u-tilde^p, which must equal the diagonal)."""
    r, p = case
    u = map_u(p)
    diag = [u[(i, i)] for i in range(1, r + 1)]
    if tilde and list(map_u_tilde(p)) != diag:
        return False, f"u-tilde^p = {[fs(x) for x in map_u_tilde(p)]} differs from the diagonal {[fs(x) for x in diag]}"
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


def theorem4_claim(id: str, *, radius_factor: Fraction = ONE, tilde: bool = False) -> Any:
    """Theorem 4: "(psi*_MAP, pred-bar_MAP) is (l_MAP, P_reinforce)-calibrated"; Corollary 5 (``tilde``):
    "(psi-tilde_MAP, pred-tilde_MAP) is (l_MAP, P_reinforce)-calibrated" -- on seeded distributions."""
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


def corollary5_identity_claim(id: str, *, extra: Any = 0) -> Any:
    """Corollary 5: "psi-tilde_MAP(y, u) = sum_i (u_i - y_i / sum_g y_g)^2 ... since pred-bar_MAP
    depends on only the diagonal elements of u" (``extra`` nudges one entry: a twin)."""
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


# --- P_reinforce as relations in p, and the links and surrogates of Theorem 4, Corollary 5 -----


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


def reinforce_relations(u: dict[tuple[int, int], Any], r: int) -> list[Any]:
    """P_reinforce (Section 6): u_ii >= u_jj => u_ii >= u_jj + sum_{g != i, j} (u_jg - u_ig)_+ for
    every ordered pair i != j, in the entries of u (symmetric)."""
    rels = []
    for i, j in itertools.permutations(range(1, r + 1), 2):
        pos = sum((sympy.Max(u[(j, g)] - u[(i, g)], 0) for g in range(1, r + 1) if g not in (i, j)),
                  sympy.Integer(0))
        rels.append(sympy.Implies(u[(i, i)] >= u[(j, j)], u[(i, i)] >= u[(j, j)] + pos))
    return rels


@functools.cache
def p_reinforce_relations(r: int) -> tuple[Any, ...]:
    """P_reinforce as relations in p1..pn, through u^p = map_u_of_p(r)."""
    return tuple(reinforce_relations(map_u_of_p(r), r))


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
    """Theorem 4: "(psi*_MAP, pred-bar_MAP) is (l_MAP, P_reinforce)-calibrated." -- decided over
    P_reinforce (``outside``: over its complement, a twin)."""
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
    """Corollary 5: "Then (psi-tilde_MAP, pred-tilde_MAP) is (l_MAP, P_reinforce)-calibrated." --
    decided over P_reinforce (``ascending`` sorts increasingly: a twin)."""
    return calibrated(
        id, loss=lambda m: _named_loss("map", r).matrix, surrogate=lambda m: corollary5_surrogate(r),
        link=lambda m: sort_link(r, ascending=ascending), noise=lambda m: map_noise(r, outside=False),
        cite=cite("Corollary 5", "Then (psi-tilde_MAP, pred-tilde_MAP) is (l_MAP, P_reinforce)-calibrated."),
        statement=(f"r = {r}: psi-tilde_MAP(y, u) = sum_i (u_i - y_i/|y|)^2 on R^r with pred-tilde_MAP = sort "
                   f"{'increasingly' if ascending else 'decreasingly'} is calibrated for l_MAP over P_reinforce"),
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

map_form_positions = map_forms_claim("ramaswamy2013.map.rewrite.positions", form=1)
map_form_pairs = map_forms_claim("ramaswamy2013.map.rewrite.pairs", form=2)
map_decomposition = decomposition_claim(
    "ramaswamy2013.map.decomposition", "map", {}, r_sizes(3, 6), "Section 6",
    "psi*_MAP(y, u) = sum_i sum_{j<=i} (u_ij - y_i y_j / sum_g y_g)^2 ... by Theorem 3")
map_zero_label = map_zero_label_claim("ramaswamy2013.map.zero_label", finding=Finding(
    what="Section 6 takes Y = {0,1}^r, but at y = 0 l_MAP (1/|{g : y_g = 1}| = 1/0) and psi*_MAP (y_i y_j / "
         "sum_g y_g = 0/0) are undefined, and so is u^p (Theorem 4's proof) when p puts mass on y = 0. The "
         "decomposition, and Theorem 3's conclusion, hold on {0,1}^r without 0; reading y_i y_j / |y| as 0 there, "
         "they extend to y = 0 exactly when l_MAP(0, sigma) := 1 for every sigma (average precision 0), the "
         "convention the other MAP claims use; l_MAP(0, sigma) := 0 breaks the decomposition.",
    counterexample="r = 2, y = (0, 0): l_MAP(y, sigma) divides by |{g : y_g = 1}| = 0, and psi*_MAP's "
                   "y_i y_j / (y_1 + y_2) is 0/0.",
    corrected="ramaswamy2013.map.zero_label.corrected",
    finding_class="clarification",
))
map_zero_label_corrected = map_zero_label_claim(map_zero_label.finding.corrected, corrected=True)
map_rank_bound = map_rank_bound_claim("ramaswamy2013.map.rank_bound")
map_rank_exact = map_rank_bound_claim(
    "ramaswamy2013.map.rank_exact", offset=-1, exact=True,
    statement="the MAP loss matrix has certified affine dimension exactly r(r+1)/2 - 1 (the bound is one too large: "
              "sum_i alpha_y,ii = 1 and sum of beta_sigma = -r make one coordinate redundant)")
map_qap = map_qap_claim("ramaswamy2013.map.pred_is_qap")
theorem4_without_p_reinforce = lemma8_claim(
    "ramaswamy2013.theorem4.without_p_reinforce", inside=False, expected="refuted",
    statement="without P_reinforce, every sigma sorting the diagonal u^p_ii is optimal for l_MAP (false: the "
              "condition is not vacuous)",
    quote="under certain conditions on the probability distribution, the surrogate psi*_MAP together with this mapping "
          "is still calibrated")
theorem4 = theorem4_claim("ramaswamy2013.theorem4")
theorem4_whole = [theorem4_whole_claim(f"ramaswamy2013.theorem4.calibration.p_reinforce.r{r}", r) for r in (3, 4)]
corollary5_u_tilde = corollary5_identity_claim("ramaswamy2013.corollary5.u_tilde_is_diagonal")
corollary5 = theorem4_claim("ramaswamy2013.corollary5", tilde=True)
corollary5_whole = [corollary5_whole_claim(f"ramaswamy2013.corollary5.calibration.p_reinforce.r{r}", r)
                    for r in (3, 4)]
