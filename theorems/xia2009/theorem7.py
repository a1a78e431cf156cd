"""Section 4.1, Theorem 7 and its proof: the swap identity, its regrouping by top-k subgroups
(Proposition 4), the stationarity equation at a tie g_1 = g_2, and the theorem itself numerically
for top-k ListMLE."""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from typing import Any

import sympy

from symcal import NumericOutcome, identity, numeric
from symcal.errors import BackendFailure

from .common import before, changes_subgroup, cite, perms, phi_vars, subgroup_prob, swap


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
        scope="symbolic p_y and symbolic values phi_G per subgroup, every k = 1..n",
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


# --- Theorem 7 numerically, for top-k ListMLE ------------------------------------------------


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


def theorem7_numeric_claim(id: str, n: int, k: int, seed: int, *, check_pair: tuple[int, int] = (1, 2)) -> Any:
    """Theorem 7, Section 4.1: "if the top-k subgroup probability space is order preserving with respect
    to them, and g is a vector which minimizes Q(p, g) in Eq.(8), then g_i > g_j" -- numerically."""
    return numeric(
        id, run=lambda: theorem7_numeric(n, k, seed, check_pair=check_pair),
        cite=cite("Theorem 7, Section 4.1", "if the top-k subgroup probability space is order preserving with "
                                            "respect to them, and g is a vector which minimizes Q(p, g) in Eq.(8), "
                                            "then g_i > g_j"),
        statement=f"n = {n}, top-{k} ListMLE, p order preserving w.r.t. (1, 2): the minimiser of Q has g_1 > g_2",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

theorem7_identity = theorem7_identity_claim("xia2009.theorem7.swap_identity")
theorem7_regrouping = regrouping_claim("xia2009.theorem7.proof.subgroup_regrouping")
theorem7_stationarity = stationarity_claim("xia2009.theorem7.proof.stationarity")
theorem7_listmle_numeric = [
    theorem7_numeric_claim("xia2009.theorem7.listmle_top1_n3", 3, 1, 1),
    theorem7_numeric_claim("xia2009.theorem7.listmle_top2_n4", 4, 2, 2),
]
