"""Section 4.1, Theorem 7 and its proof: the swap identity, its regrouping by top-k subgroups
(Proposition 4), the stationarity equation at a tie g_1 = g_2, and the theorem itself for top-k ListMLE
at two exact order-preserving distributions (z3: strict convexity, a Poincare-Miranda box, the box's order)."""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from typing import Any

import sympy

from symcal import NumericOutcome, identity, implies_cases
from symcal.claims import described
from symcal.errors import BackendFailure

from .common import before, changes_subgroup, cite, listmle_gradient, perms, phi_vars, subgroup_prob, swap


def theorem7_identity_sides(n: int, *, sign: int = 1) -> tuple[Any, Any]:
    """Q(p, g') - Q(p, g) with phi(g', y) = phi(g, sigma y) (condition (1), g' = sigma g), and
    the proof's sum over Y_{1,2}."""
    p = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(n)}
    v = phi_vars(n)
    lhs = sum(p[y] * v[swap(y, 1, 2)] for y in perms(n)) - sum(p[y] * v[y] for y in perms(n))
    rhs = sum(sign * (p[swap(y, 1, 2)] - p[y]) * (v[y] - v[swap(y, 1, 2)]) for y in perms(n) if before(y, 1, 2))
    return lhs, rhs


def theorem7_identity_claim(id: str, *, sign: int = 1, sizes: tuple[int, int] = (3, 5)) -> Any:
    """Theorem 7's proof, Section 4.1: "Q(p, g') - Q(p, g) = sum_{y in Y_{1,2}} (p_{sigma y} - p_y)
    (phi(g, y) - phi(g, sigma y))" (``sign`` = -1 is a twin)."""
    return identity(
        id,
        lambda n: theorem7_identity_sides(n, sign=sign)[0],
        lambda n: theorem7_identity_sides(n, sign=sign)[1],
        cite=cite("Theorem 7's proof, Section 4.1", "Q(p, g') - Q(p, g) = sum_{y in Y_{1,2}} (p_{sigma y} - p_y)"
                                                    "(phi(g, y) - phi(g, sigma y))"),
        statement="the swap identity of Theorem 7's proof, for arbitrary loss values phi(g, y) and probabilities p_y",
        sizes=sizes,
    )


@functools.cache
def regrouping_sides(n: int, *, prop4: bool = True) -> tuple[Any, Any]:
    """For k = 1..n: sum_{y in Y_12} (p_{sigma y} - p_y)(phi(y) - phi(sigma y)) and its regrouping
    sum over the subgroups G = G_k(y), y in Y_12, G != sigma G, of (p_{sigma G} - p_G)(phi_G - phi_{sigma G}).
    phi is constant on top-k subgroups (Proposition 4); ``prop4=False`` (a twin) gives every
    permutation its own value and reads phi_G at one member of G."""
    p = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(n)}
    lhs, rhs = [], []
    for k in range(1, n + 1):
        groups = {key: sympy.Symbol(f"phi{k}_G" + "".join(map(str, key)), real=True)
                  for key in itertools.permutations(range(1, n + 1), k)}
        phi = {y: groups[y[:k]] for y in perms(n)} if prop4 else phi_vars(n, f"phi{k}")
        y12 = [y for y in perms(n) if before(y, 1, 2)]
        lhs.append(sum((p[swap(y, 1, 2)] - p[y]) * (phi[y] - phi[swap(y, 1, 2)]) for y in y12))
        first = {}
        for y in (y for y in y12 if changes_subgroup(y, 1, 2, k)):
            first.setdefault(y[:k], y)
        rhs.append(sum((subgroup_prob(p, swap(key, 1, 2)) - subgroup_prob(p, key)) * (phi[y] - phi[swap(y, 1, 2)])
                       for key, y in first.items()))
    return sympy.Matrix(lhs), sympy.Matrix(rhs)


def regrouping_claim(id: str, *, prop4: bool = True, sizes: tuple[int, int] = (3, 5)) -> Any:
    """Theorem 7's proof: "After some algebra, by using Proposition 4, we have, Q(p, g') - Q(p, g) =
    sum_{G_k(y) : G_k(y) != G_k(sigma y), y in Y_12} (p_{G_k(sigma y)} - p_{G_k(y)})(phi(g, y) - phi(g, sigma y))"."""
    return identity(
        id, lambda n: regrouping_sides(n, prop4=prop4)[0], lambda n: regrouping_sides(n, prop4=prop4)[1],
        cite=cite("Theorem 7, proof, step 2", "After some algebra, by using Proposition 4, we have, Q(p, g') - Q(p, g) "
                                              "= sum_{G_k(y) in {G_k : G_k(y) != G_k(sigma y)} : y in Y_12} "
                                              "(p_{G_k(sigma y)} - p_{G_k(y)}) (phi(g, y) - phi(g, sigma y))"),
        statement="for every k, with phi(g, .) constant on each top-k subgroup (Proposition 4), the sum over Y_12 "
                  "regroups into one term per subgroup G_k(y) != G_k(sigma y), y in Y_12, weighted by subgroup "
                  "probabilities (the unchanged subgroups cancel); the same identity, with the values replaced by "
                  "d phi/d g_1 (constant on subgroups by Proposition 4 at every g), is the proof's regrouped "
                  "derivative equation",
        sizes=sizes,
        scope=described("symbolic p_y and symbolic values phi_G per subgroup, every k = 1..n, at each n decided"),
    )


def _generic_quadratic(name: str, g: list[sympy.Symbol]) -> Any:
    """a + sum_i b_i g_i + sum_{i <= j} c_ij g_i g_j with symbolic coefficients."""
    n = len(g)
    terms = [sympy.Symbol(f"{name}_0", real=True)]
    terms += [sympy.Symbol(f"{name}_{i}", real=True) * g[i] for i in range(n)]
    terms += [sympy.Symbol(f"{name}_{i}{j}", real=True) * g[i] * g[j] for i in range(n) for j in range(i, n)]
    return sum(terms)


@functools.cache
def stationarity_sides(n: int, *, tie: bool = True) -> tuple[Any, Any]:
    """dQ/dg_1 - dQ/dg_2 and sum_{y in Y_12} (p_y - p_{sigma y})(d phi(g, y)/dg_1 - d phi(g, sigma y)/dg_1),
    both at g_2 = g_1 (``tie=False`` keeps g_2 free: a twin), for phi(g, y) = F_y(g) and
    phi(g, sigma y) = F_y(sigma g) -- every phi satisfying Definition 3 (1) for the pair (1, 2) --
    with F_y a generic quadratic."""
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    sg = [g[1], g[0], *g[2:]]
    p = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(n)}
    phi = {}
    for y in (y for y in perms(n) if before(y, 1, 2)):
        f = _generic_quadratic("c" + "".join(map(str, y)), g)
        phi[y], phi[swap(y, 1, 2)] = f, f.subs(dict(zip(g, sg, strict=True)), simultaneous=True)
    q = sum(p[y] * phi[y] for y in perms(n))
    at = {g[1]: g[0]} if tie else {}
    lhs = (sympy.diff(q, g[0]) - sympy.diff(q, g[1])).subs(at)
    rhs = sum((p[y] - p[swap(y, 1, 2)]) * (sympy.diff(phi[y], g[0]) - sympy.diff(phi[swap(y, 1, 2)], g[0]))
              for y in perms(n) if before(y, 1, 2)).subs(at)
    return lhs, rhs


def stationarity_claim(id: str, *, tie: bool = True, sizes: tuple[int, int] = (3, 4)) -> Any:
    """Theorem 7's proof: "Assume g_1 = g_2. By setting the derivative of Q(p, g) with respect to g_1 and
    g_2 to zero and compare them, we have, sum_{y in Y_12} (p_y - p_{sigma y})(d phi(g, y)/d g_1 -
    d phi(g, sigma y)/d g_1) = 0"."""
    return identity(
        id, lambda n: stationarity_sides(n, tie=tie)[0], lambda n: stationarity_sides(n, tie=tie)[1],
        cite=cite("Theorem 7, proof, step 4", "By setting the derivative of Q(p, g) with respect to g_1 and g_2 to "
                                              "zero and compare them, we have, sum_{y in Y_12} (p_y - p_{sigma y}) "
                                              "(d phi(g, y)/d g_1 - d phi(g, sigma y)/d g_1) = 0"),
        statement="at g_1 = g_2, for every phi satisfying Definition 3 (1) (phi(g, y) = phi(sigma g, sigma y)): "
                  "dQ/dg_1 - dQ/dg_2 = sum_{y in Y_12} (p_y - p_{sigma y})(d phi(g, y)/dg_1 - d phi(g, sigma y)/dg_1), "
                  "so the sum is 0 where both derivatives vanish",
        sizes=sizes,
        scope=("every differentiable phi with (1) for the pair (1, 2): such a phi is phi(g, y) = F_y(g), "
               "phi(g, sigma y) = F_y(sigma g) for y in Y_12, and both sides are linear in the first derivatives of "
               "F_y at the point g (= sigma g at the tie), which a quadratic F_y with symbolic coefficients takes to "
               "any values; symbolic p_y and g"),
    )


# --- Theorem 7 for top-k ListMLE at one p: BFGS (a cross-check) and the exact claim -----------------------------------------------


def random_order_preserving(n: int, k: int, seed: int, pair: tuple[int, int] = (1, 2)) -> Any:
    """A full-support distribution, order preserving w.r.t. ``pair`` at depth k (rejection
    sampling over small integer weights; exact)."""
    from symcal.ranking.listwise import PermutationDistribution, is_order_preserving

    rng = random.Random(seed)
    for _ in range(10000):
        w = {y: rng.randint(1, 9) for y in perms(n)}
        tot = sum(w.values())
        p = PermutationDistribution({y: Fraction(v, tot) for y, v in w.items()})
        if is_order_preserving(p, k, *pair).holds:
            return p
    raise BackendFailure(f"no order-preserving distribution found for n={n}, k={k}")  # pragma: no cover


def theorem7_numeric(n: int, k: int, seed: int, *, pair: tuple[int, int] = (1, 2), check_pair: tuple[int, int] = (1, 2)
                     ) -> NumericOutcome:
    """The numeric minimiser of Q for top-k ListMLE on a seeded order-preserving p has g_i > g_j."""
    from symcal.ranking.listwise import listmle, minimise_conditional_risk

    p = random_order_preserving(n, k, seed, pair)
    res = minimise_conditional_risk(p, listmle(n, k))
    i, j = check_pair
    gap = res.gap(i, j)
    return NumericOutcome(
        ok=res.success and res.gradient_norm < 1e-6 and gap > 0,
        method=res.method,
        values={"n": n, "k": k, "p": {y.key(): str(v) for y, v in p.support()},
                "argmin g": [round(x, 8) for x in res.g],
                "gradient norm": res.gradient_norm, "g_i - g_j": gap, "pair": list(check_pair)},
        tolerance=1e-6, margin=gap,
        note=f"top-{k} ListMLE; p order preserving w.r.t. {pair} at depth {k}; margin = g_i - g_j at the minimiser",
    )


# rational points near the BFGS minimisers (t = exp(g), g_2 = 0) of the two instances; the proof only uses them as
# the centres of Poincare-Miranda boxes, so a wrong centre can make a face case fail, never a wrong proof
LISTMLE_CENTRES: dict[tuple[int, int, int], tuple[Fraction, ...]] = {
    (3, 1, 1): (Fraction(5, 2), Fraction(1), Fraction(3, 2)),
    (4, 2, 2): (Fraction(519, 250), Fraction(1), Fraction(1899, 1000), Fraction(417, 250)),
}
LISTMLE_BOX = Fraction(1, 50)  # the box: t_i in centre_i * [1 - 1/50, 1 + 1/50], i != 2


def _rat(q: Fraction) -> Any:
    return sympy.Rational(q.numerator, q.denominator)


def lse_form(m: int, *, pinned: bool) -> tuple[Any, list[Any]]:
    """(sum t)^2 v^T H v for H the Hessian in g of log sum_{i <= m} exp(g_i), computed by sympy and written in
    t = exp(g) > 0 (a polynomial); ``pinned`` sets v_2 = 0 (the direction g_2 = 0 of the normalised risk)."""
    g = sympy.symbols(" ".join(f"g_{i}" for i in range(1, m + 1)), real=True)
    t = sympy.symbols(" ".join(f"t_{i}" for i in range(1, m + 1)), positive=True)
    v = list(sympy.symbols(" ".join(f"v_{i}" for i in range(1, m + 1)), real=True))
    if pinned:
        v[1] = sympy.Integer(0)
    lse = sympy.log(sum(sympy.exp(x) for x in g))
    form = sum(v[i] * v[j] * sympy.diff(lse, g[i], g[j]) for i in range(m) for j in range(m))
    form = form.subs({sympy.exp(x): y for x, y in zip(g, t, strict=True)}) * sum(t) ** 2
    return sympy.expand(sympy.cancel(form)), [x for x in v if x != 0]


def listmle_minimiser_cases(n: int, k: int, seed: int, *, check_pair: tuple[int, int] = (1, 2)
                            ) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Theorem 7 for top-k ListMLE at the seeded order-preserving p (``random_order_preserving``), exactly.
    Q(p, g) = sum_y p_y (-log Luce_k(y; g)) is invariant under g -> g + c 1, so g_2 = 0, t = exp(g) > 0, and
    -log Luce_k(y) = -sum_{s <= k} g_{y(s)} + sum_{s <= k} log sum_{r >= s} exp(g_{y(r)}): linear plus a
    p-weighted sum of log-sum-exps over tails, the s = 1 tail being all n objects (weight sum_y p_y = 1).
    Cases: (i) every log-sum-exp is convex (its Hessian form >= 0, m = 2..n-1) and the full one strictly on
    v_2 = 0, v != 0, so Q is strictly convex on g_2 = 0 and has at most one stationary point, its minimiser;
    (ii) the numerator of dQ/dg_i (positive denominator) is <= 0 on the face t_i = lo_i and >= 0 on t_i =
    hi_i of the box B around LISTMLE_CENTRES: by Poincare-Miranda the gradient vanishes in B, so the
    minimiser exists and lies in B; (iii) B lies in {g_i > g_j} for ``check_pair`` (i, j) ((2, 1): the twin)."""
    p = random_order_preserving(n, k, seed)
    t: list[Any] = list(sympy.symbols(" ".join(f"t_{i}" for i in range(1, n + 1)), positive=True))
    t[1] = sympy.Integer(1)
    free = [i for i in range(n) if i != 1]
    centre = LISTMLE_CENTRES[(n, k, seed)]
    box = {i: (_rat(centre[i] * (1 - LISTMLE_BOX)), _rat(centre[i] * (1 + LISTMLE_BOX))) for i in free}
    cases: list[tuple[str, dict[str, list[Any]], Any]] = []
    for m in range(2, n + 1):
        form, v = lse_form(m, pinned=m == n)
        if m == n:
            cases.append((f"log-sum-exp of all {n} scores strictly convex on v_2 = 0",
                          {"direction": [sympy.Or(*[sympy.Ne(x, 0) for x in v])]}, form > 0))
        else:
            cases.append((f"log-sum-exp of {m} scores convex", {}, form >= 0))
    for i in free:
        grad = sum(_rat(q) * listmle_gradient(t, y.order, k, i + 1) for y, q in p.support())
        num, den = sympy.fraction(sympy.together(grad))
        if not den.is_positive:  # a product of sums of positive t  # pragma: no cover
            raise BackendFailure(f"dQ/dg_{i + 1}: denominator {den} not evidently positive")
        num = sympy.expand(num)
        rest = [c for j in free if j != i for c in (t[j] >= box[j][0], t[j] <= box[j][1])]
        for side, word in ((0, "<="), (1, ">=")):
            face = num.subs(t[i], box[i][side])
            cases.append((f"dQ/dg_{i + 1} {word} 0 on the face t_{i + 1} = {box[i][side]}", {"box": rest},
                          face <= 0 if side == 0 else face >= 0))
    a, b = check_pair
    inside = [c for j in free for c in (t[j] >= box[j][0], t[j] <= box[j][1])]
    cases.append((f"the box lies in g_{a} > g_{b}", {"box": inside}, t[a - 1] > t[b - 1]))
    return cases


def theorem7_listmle_claim(id: str, n: int, k: int, seed: int, *, check_pair: tuple[int, int] = (1, 2)) -> Any:
    """Theorem 7, Section 4.1: "if the top-k subgroup probability space is order preserving with respect
    to them, and g is a vector which minimizes Q(p, g) in Eq.(8), then g_i > g_j" -- for top-k ListMLE at one
    exact order-preserving p, decided by z3 (``listmle_minimiser_cases``)."""
    return implies_cases(
        id, cases=listmle_minimiser_cases(n, k, seed, check_pair=check_pair),
        domain=f"t = exp(g) > 0 with g_2 = 0; the Hessian forms of log-sum-exp over 2..{n} scores; the faces of a "
               f"box around the minimiser (Poincare-Miranda)",
        cite=cite("Theorem 7, Section 4.1", "if the top-k subgroup probability space is order preserving with "
                                            "respect to them, and g is a vector which minimizes Q(p, g) in Eq.(8), "
                                            "then g_i > g_j"),
        statement=f"n = {n}, top-{k} ListMLE, p order preserving w.r.t. (1, 2): the minimiser of Q has "
                  f"g_{check_pair[0]} > g_{check_pair[1]}",
        scope="the minimiser exists and is unique up to g -> g + c 1; uses Poincare-Miranda and that a stationary "
              "point of a convex function is its minimiser (not machine-checked)",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

theorem7_identity = theorem7_identity_claim("xia2009.theorem7.swap_identity")
theorem7_regrouping = regrouping_claim("xia2009.theorem7.proof.subgroup_regrouping")
theorem7_stationarity = stationarity_claim("xia2009.theorem7.proof.stationarity")
theorem7_listmle = [
    theorem7_listmle_claim("xia2009.theorem7.listmle_top1_n3", 3, 1, 1),
    theorem7_listmle_claim("xia2009.theorem7.listmle_top2_n4", 4, 2, 2),
]
