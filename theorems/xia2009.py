"""Xia, Liu & Li (2009), "Statistical Consistency of Top-k Ranking", NIPS.

Main claims
-----------
* Eq. (5): the top-n true loss is the permutation-level 0-1 loss (2), and so is top-(n-1).
* Eq. (7): a permutation minimises the conditional top-k risk iff its top-k subgroup has the
  highest probability (z3, p_y real variables on the simplex, n = 3..5, every k).
* Proposition 4 (equal losses inside a subgroup), Proposition 5 (derivative ordering at ties,
  via difference quotients), Proposition 9 (top-k order sensitive => top-(k+1)), and the
  "two inequalities are strict" step of its example: z3 over the loss values phi(g, y) of an
  arbitrary surrogate, n = 3..5, every k and every tie pattern of g.
* Proposition 8 (order preserving at k => at k - 1): z3, n = 3..5; its converse fails (the
  paper says so): an exact witness.
* Theorem 6's pair set: n - 1 pairs forming a spanning tree whose orientation puts
  j_1 > ... > j_k above every other object (n = 3..6, every choice of s_i); order preserving
  w.r.t. those pairs makes G_k(j_1..j_k) the unique most probable subgroup (z3, n = 3, 4).
* Theorem 7: the swap identity of its proof (sympy), and the theorem itself numerically for
  top-k ListMLE (labelled numeric).
* Proposition 10: **erratum** (scope).  Read as printed -- for the given family with any
  p_1 > p_2 the Q-minimiser of phi is not a top-1 Bayes ranker -- it fails for ListMLE (which
  meets every hypothesis) at p_1 = 628/833: the minimiser is exactly g = log(487/210, 1,
  17/140), object 1 first.  Corrected: for ListMLE the minimiser ranks object 2 first for
  p_1 in (1/3, c) and object 1 first for p_1 in (c, 1), c ~ 0.52610 the root of
  7p^3 + 10p^2 - 11p + 2 in (1/3, 1) (z3 on the stationarity polynomials).  That these
  stationary points are the minimisers is itself proved: Q's Hessian in (g_1, g_3) is
  positive definite at every g (sympy decomposition + z3), and Q >= p_2 (|g_1 - g_2| +
  |g_3 - g_2|) (z3), so Q has exactly one stationary point (mod shift), its minimiser.
* Section 4.3 / footnote 4: top-k ListMLE (10) and the modified cosine loss are top-k
  subgroup order sensitive (exact polynomial reductions, z3, n = 3..5); so is the modified
  ListNet (12) (a sympy difference identity with the real exp/log, then termwise polynomial
  signs by z3, n = 3, 4; symbolic psi); Cao et al.'s ListNet at k = n numerically; the
  original ListMLE, RankCosine, ListNet and Cao et al.'s top-k ListNet are not (rigorous
  interval witnesses at exact points).

Encoding notes
--------------
* Conventions (``symcal.ranking.permutations``): ``y(t)`` is the object at position t;
  ``sigma_{i,j}^{-1} y`` exchanges the positions of objects i and j; ``Y_{i,j}`` = i ranked
  before j.  The swap changes the top-k subgroup iff i or j is among the top k.
* Definition 3 is a conjunction over g of conditions on the vector (phi(g, y))_y, except (1),
  which links g and sigma g.  Propositions 4 and 9 follow pointwise in g: at a fixed g with
  a given tie pattern (WLOG g_1 <= ... <= g_n, by relabelling objects), the values phi(g, y)
  are free real variables constrained by (2) for each pair with g_i < g_j, by (1)'s
  consequence phi(g, y) = phi(g, sigma y) for ties, and (Prop. 9) by (3) with the partial
  derivatives as free variables.  One z3 query per (k, tie pattern); every case must be
  unsat (any z3 unknown makes the claim unknown, never proved; each case keeps its SMT-LIB2 query).
* Proposition 5 is encoded through the difference quotient: with g- = g - t e_i (t > 0,
  so g-_i < g-_j), t (q(sigma y) - q(y)) = (phi(g, sigma y) - phi(g-, sigma y)) - (phi(g, y)
  - phi(g-, y)) >= 0 (= 0 when the subgroup does not change); non-strict relations survive
  the limit t -> 0+, which gives the derivatives.
* exp/log are never given to a solver.  ListMLE: phi(g, y) >= phi(g, sigma y) iff the Luce
  probabilities satisfy P(sigma y) >= P(y) (log is increasing); with t_i = exp(g_i) > 0 both
  are products of fractions with positive denominators, so the comparison is the polynomial
  N(sigma y) D(y) >= N(y) D(sigma y), decided by z3 (nonlinear real arithmetic).  WLOG the
  pair is (1, 2) and the other objects fill the remaining positions in increasing order (the
  t of objects 3..n are free, so every y is a relabelling of one such pattern).
* Cosine loss: phi(g, y) - phi(g, sigma y) = (psi_{sigma y} . g - psi_y . g) / (2 |psi| |g|)
  (|psi_y| does not depend on y); the numerator's sign is decided by z3 for symbolic psi
  (psi_1 > ... > psi_k > eps, the rest eps) and g != 0.  The identity itself is a claim.
* Non-order-sensitivity witnesses are evaluated with mpmath interval arithmetic at exact
  rational g: a comparison counts only when the enclosures are disjoint (an undecided
  enclosure raises, giving error, never a verdict).
* Modified ListNet (12): phi(g, y) = D(P_psi_y || P_g), full Luce model on both sides, psi_y
  the modified mapping.  With tau = the swap of labels 1, 2 on orderings, P_{psi_{sigma y}}(pi)
  = P_psi_y(tau pi), so the entropy terms cancel and, pairing pi with tau pi,
  phi(g, y) - phi(g, sigma y) = sum_{pi in Y_12} a_pi log(P_g(tau pi) / P_g(pi)),
  a_pi = P_psi_y(pi) - P_psi_y(tau pi); the g_1-derivative gap of condition (3) is the same
  sum with log P_g replaced by -G_1 (G_1 = d(-log P_g)/dg_1, ListMLE's gradient), and
  phi(sigma g, sigma y) = phi(g, y).  These three identities are one sympy claim
  (``xia2009.listnet.difference_identity``) over symbolic real psi and g, with sympy's exp
  and log (residual expands and cancels to 0; n = 3, 4).  The signs are then termwise and
  polynomial, with u = exp(psi) (u_1 > ... > u_k > u_0 = exp(eps) > 0: exp is an increasing
  bijection onto the positive reals, so this is every admissible psi) and t = exp(g): a_pi > 0
  when the subgroup changes (object 1 carries a larger weight than 2), a_pi = 0 identically
  when it does not (both carry u_0); g_1 < g_2 gives P_g(tau pi) > P_g(pi) (log factor > 0);
  at g_1 = g_2, G_1(tau pi) > G_1(pi).  So (2) holds, strictly for every y whose subgroup
  changes (y = identity always does), and (3) holds at y = identity.  Non-negativity: both
  Luce families sum to 1 (z3), and a KL divergence is >= 0 (Gibbs' inequality, log x <= x - 1,
  the one analytic fact not machine-checked).  n = 5 does not fit (z3 needs > 60 s per case).
  The sampled claim ``.library_at_points`` cross-checks symcal's concrete ListNet code.
* Proposition 10: Q(p, g) of ListMLE is invariant under g -> g + c 1 (Luce is), so take
  g_2 = 0, t = exp(g) = (x, 1, z).  -log P(y) = -(g_{y1} + g_{y2}) + log T + log(t_{y2} +
  t_{y3}), so the Hessian in (g_1, g_3) is H_T + p_1 A + p_2 B + p_2 C (sympy identity against
  the Hessian computed from Q by the chain rule d/dg_1 = x d/dx); z3 shows v^T H_T v > 0 and
  v^T A v, v^T B v, v^T C v >= 0 for v != 0, hence the Hessian is positive definite (p_1, p_2
  > 0): Q is strictly convex in (g_1, g_3), so a stationary point is the unique minimiser.
  Coercivity: P(y) <= min(1, t_{y1}/t_{y2}) min(1, t_{y2}/t_{y3}) (z3), i.e. -log P(y) >=
  (g_{y2} - g_{y1})^+ + (g_{y3} - g_{y2})^+, and the p-weighted sum of these is >= p_2
  (|g_1 - g_2| + |g_3 - g_2|) (z3), so Q attains its minimum and a stationary point exists.
  The stationarity conditions are two polynomials N_x = N_z = 0 (numerators of x dQ/dx and
  z dQ/dz, positive denominators); they are linear in p_1, and the rational point (x, z, p_1)
  = (487/210, 17/140, 628/833) solves both.
* Numeric claims (Theorem 7 for ListMLE, the library's modified ListNet at sampled points,
  Cao at k = n) are labelled numeric and never proved; their margins are certified-by-interval
  gaps at sampled points.

References
----------
../shared/papers/xia-liu-li-2009-top-k-consistency.txt
F. Xia, T.-Y. Liu, H. Li, Top-k consistency of learning to rank methods, MSR-TR-2009-139 ([15]).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation, Finding, NumericOutcome, exists, finite_check, identity, implies, implies_cases, numeric
from symcal.claims.core import Claim
from symcal.errors import BackendFailure

PAPER = "xia2009"


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


# ---------------------------------------------------------------------------------------
# Small combinatorial helpers (objects 1..n, orderings as tuples)
# ---------------------------------------------------------------------------------------


def perms(n: int) -> list[tuple[int, ...]]:
    return list(itertools.permutations(range(1, n + 1)))


def pos(y: tuple[int, ...], obj: int) -> int:
    return y.index(obj) + 1


def swap(y: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    return tuple(j if x == i else i if x == j else x for x in y)


def before(y: tuple[int, ...], i: int, j: int) -> bool:
    return pos(y, i) < pos(y, j)


def changes_subgroup(y: tuple[int, ...], i: int, j: int, k: int) -> bool:
    return pos(y, i) <= k or pos(y, j) <= k


def tie_patterns(n: int) -> list[tuple[int, ...]]:
    """Weak orders of g up to relabelling: g_1 <= ... <= g_n given by block labels
    (block[i] = index of the tie block of object i+1), one per composition of n."""
    out = []
    for cuts in itertools.product((0, 1), repeat=n - 1):
        blocks, b = [0], 0
        for c in cuts:
            b += c
            blocks.append(b)
        out.append(tuple(blocks))
    return out


class UndecidedCase(BackendFailure):
    """A z3 case came back unknown: the claim must not be proved."""


def simplex(n: int) -> tuple[dict[tuple[int, ...], sympy.Symbol], list[Any]]:
    p = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(n)}
    return p, [v >= 0 for v in p.values()] + [sympy.Eq(sum(p.values()), 1)]


def subgroup_prob(p: dict[tuple[int, ...], Any], key: tuple[int, ...]) -> Any:
    k = len(key)
    return sum(v for y, v in p.items() if y[:k] == key)


def order_preserving(p: dict[tuple[int, ...], Any], n: int, k: int, i: int, j: int) -> list[Any]:
    """Definition 2 as a list of strict inequalities between subgroup probabilities."""
    out, seen = [], set()
    for y in perms(n):
        if before(y, i, j) and changes_subgroup(y, i, j, k):
            a, b = y[:k], swap(y, i, j)[:k]
            if (a, b) not in seen:
                seen.add((a, b))
                out.append(subgroup_prob(p, a) > subgroup_prob(p, b))
    return out


# ---------------------------------------------------------------------------------------
# Eq. (5) and Eq. (7)
# ---------------------------------------------------------------------------------------


def topk_loss(yhat: tuple[int, ...], y: tuple[int, ...], k: int) -> int:
    return 0 if yhat[:k] == y[:k] else 1


def eq5_claim(id: str, *, depth: Callable[[int], int], sizes: tuple[int, int] = (2, 6)) -> Any:
    def holds(n: int) -> tuple[bool, str]:
        k = depth(n)
        from symcal.ranking.listwise import topk_loss as library_loss

        for yhat in perms(n):
            for y in perms(n):
                zero_one = 0 if yhat == y else 1
                if topk_loss(yhat, y, k) != zero_one or library_loss(yhat, y, k) != zero_one:
                    return False, f"n = {n}, k = {k}: yhat = {yhat}, y = {y}"
        return True, f"n = {n}, k = {k}: {len(perms(n)) ** 2} pairs"

    return finite_check(
        id, cases=lambda m: [m], holds=holds, describe=lambda n: {"n": n, "k": depth(n)},
        domain="all pairs (yhat, y) of permutations of n objects",
        cite=cite("Eq. (5), Section 3.2", "When k equals the length of the entire ranked list, the top-k true loss "
                                         "will become exactly the permutation-level 0-1 loss."),
        statement="the top-k true loss (5) at this k equals the permutation-level 0-1 loss (2) for every pair",
        sizes=sizes,
    )


eq5_top_n = eq5_claim("xia2009.eq5.top_n_is_permutation_level", depth=lambda n: n, sizes=(2, 5))
eq5_top_n_minus_1 = eq5_claim("xia2009.eq5.top_n_minus_1_is_permutation_level", depth=lambda n: n - 1,
                              sizes=(2, 5))


def bayes_cases(n: int, *, strict_argmax: bool = False) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """For each k: (R_k(id) <= R_k(yhat) for all yhat) <=> (P(G_k(1..k)) >= P(G) for all G).
    ``strict_argmax`` (a twin) replaces >= by > on the right."""
    p, simp = simplex(n)
    cases = []
    for k in range(1, n + 1):
        ident = tuple(range(1, n + 1))

        def risk(yhat: tuple[int, ...], k: int = k) -> Any:
            return sum(v * topk_loss(yhat, y, k) for y, v in p.items())

        top = subgroup_prob(p, ident[:k])
        others = [key for key in itertools.permutations(range(1, n + 1), k) if key != ident[:k]]
        minimal = sympy.And(*[risk(ident) <= risk(yh) for yh in perms(n) if yh != ident])
        rel = (lambda a, b: a > b) if strict_argmax else (lambda a, b: a >= b)
        argmax = sympy.And(*[rel(top, subgroup_prob(p, key)) for key in others])
        cases.append((f"n={n}, k={k}", {"simplex": simp}, sympy.Equivalent(minimal, argmax)))
    return cases


eq7_bayes_ranker = implies_cases(
    "xia2009.eq7.bayes_ranker",
    cases=bayes_cases, sizes=(3, 4),
    domain="k = 1..n, p_y real variables on the simplex",
    cite=cite("Eq. (7), Section 3.2", "the top-k Bayes ranker is any permutation in the top-k subgroup having "
                                          "the highest probability"),
    statement="a permutation minimises the conditional top-k risk iff its top-k subgroup has maximal probability",
)


# ---------------------------------------------------------------------------------------
# Definition 3 over abstract loss values: Propositions 4, 5 and 9
# ---------------------------------------------------------------------------------------


def phi_vars(n: int, name: str = "phi") -> dict[tuple[int, ...], sympy.Symbol]:
    return {y: sympy.Symbol(f"{name}_" + "".join(map(str, y)), real=True) for y in perms(n)}


def condition2(v: dict[tuple[int, ...], Any], n: int, k: int, blocks: tuple[int, ...], *,
               with_strict: bool = True) -> list[Any]:
    """Definition 3 (2) at a g with tie pattern ``blocks`` (for every pair with g_i < g_j),
    plus (1)'s consequence phi(g, y) = phi(g, sigma y) for tied pairs."""
    out: list[Any] = []
    for i, j in itertools.permutations(range(1, n + 1), 2):
        bi, bj = blocks[i - 1], blocks[j - 1]
        ys = [y for y in perms(n) if before(y, i, j)]
        if bi < bj:
            strict = []
            for y in ys:
                z = swap(y, i, j)
                if changes_subgroup(y, i, j, k):
                    out.append(v[y] >= v[z])
                    strict.append(v[y] > v[z])
                else:
                    out.append(sympy.Eq(v[y], v[z]))
            if with_strict and strict:
                out.append(sympy.Or(*strict))
        elif bi == bj and i < j:
            out.extend(sympy.Eq(v[y], v[swap(y, i, j)]) for y in ys)
    return out


def proposition4_cases(n: int, *, k_shift: int = 0) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Def. 3 at depth k => equal values inside every top-(k + k_shift) subgroup
    (k_shift = -1 is a twin)."""
    v = phi_vars(n)
    cases = []
    for k in range(1, n + 1):
        kk = k + k_shift
        if kk < 1:
            continue
        concl = [sympy.Eq(v[y], v[z]) for y in perms(n) for z in perms(n) if y < z and y[:kk] == z[:kk]]
        if not concl:
            continue
        for blocks in tie_patterns(n):
            cases.append((f"n={n}, k={k}, ties={blocks}", {"definition3": condition2(v, n, k, blocks)},
                          sympy.And(*concl)))
    return cases


proposition4 = implies_cases(
    "xia2009.proposition4",
    cases=proposition4_cases, sizes=(3, 4),
    domain="k = 1..n and every tie pattern of g; phi(g, y) real variables",
    cite=cite("Proposition 4, Section 4.1", "for all y, for all pi in G_k(y(1), ..., y(k)), we have "
                                                "phi(g, pi) = phi(g, y)"),
    statement="a top-k subgroup order sensitive loss takes one value on each top-k subgroup",
)


def proposition5_cases(n: int, *, flip: bool = False) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """At a tie g_1 = g_2 and g- = g - t e_1 (t > 0): Def. 3 at g- and (1) at g give
    t (q(sigma y) - q(y)) >= 0 (= 0 when the subgroup is unchanged), q the difference
    quotient of phi(., y) in g_1.  ``flip`` (a twin) claims <= instead."""
    u, w = phi_vars(n, "phi_g"), phi_vars(n, "phi_gminus")
    cases = []
    for k in range(1, n + 1):
        tie = [sympy.Eq(u[y], u[swap(y, 1, 2)]) for y in perms(n) if before(y, 1, 2)]
        at_minus = []
        concl = []
        for y in perms(n):
            if not before(y, 1, 2):
                continue
            z = swap(y, 1, 2)
            quotient_gap = (u[z] - w[z]) - (u[y] - w[y])  # = t (q(sigma y) - q(y))
            if changes_subgroup(y, 1, 2, k):
                at_minus.append(w[y] >= w[z])
                concl.append(quotient_gap <= 0 if flip else quotient_gap >= 0)
            else:
                at_minus.append(sympy.Eq(w[y], w[z]))
                concl.append(sympy.Eq(quotient_gap, 0))
        cases.append((f"n={n}, k={k}", {"symmetry_at_tie": tie, "definition3_at_g_minus": at_minus},
                      sympy.And(*concl)))
    return cases


proposition5 = implies_cases(
    "xia2009.proposition5",
    cases=proposition5_cases, sizes=(3, 5),
    domain="k = 1..n, pair (1, 2) tied; phi at g and at g - t e_1 real variables",
    cite=cite("Proposition 5, Section 4.1", "for all objects i and j with g_i = g_j ... then "
                                                "d phi(g, sigma y)/d g_i >= d phi(g, y)/d g_i. Otherwise, ... ="),
    statement="at a tie g_i = g_j the derivative in g_i is ordered like the losses (difference-quotient form)",
)


def condition3(d: dict[tuple[int, ...], Any], n: int, k: int, blocks: tuple[int, ...]) -> list[Any]:
    """Definition 3 (3) at tied pairs: some y with a changed subgroup has d(sigma y) > d(y)
    (d = the partial derivative in g_i, free variables per pair)."""
    out = []
    for i, j in itertools.permutations(range(1, n + 1), 2):
        if blocks[i - 1] != blocks[j - 1]:
            continue
        opts = [d[(i, j, y)] < d[(i, j, swap(y, i, j))] for y in perms(n)
                if before(y, i, j) and changes_subgroup(y, i, j, k)]
        out.append(sympy.Or(*opts) if opts else sympy.false)
    return out


def proposition9_cases(n: int, *, step: int = 1) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Def. 3 at depth k => Def. 3 at depth k + step (step = -1 is a twin)."""
    v = phi_vars(n)
    d = {(i, j, y): sympy.Symbol(f"d{i}{j}_" + "".join(map(str, y)), real=True)
         for i, j in itertools.permutations(range(1, n + 1), 2) for y in perms(n)}
    cases = []
    for k in range(1, n + 1):
        k2 = k + step
        if not 1 <= k2 <= n:
            continue
        for blocks in tie_patterns(n):
            hyp = condition2(v, n, k, blocks) + condition3(d, n, k, blocks)
            concl = condition2(v, n, k2, blocks) + condition3(d, n, k2, blocks)
            cases.append((f"n={n}, k={k}->{k2}, ties={blocks}", {"definition3_at_k": hyp}, sympy.And(*concl)))
    return cases


proposition9 = implies_cases(
    "xia2009.proposition9",
    cases=proposition9_cases, sizes=(3, 4),
    domain="k = 1..n-1 and every tie pattern of g; phi(g, y) and its partial derivatives real variables",
    cite=cite("Proposition 9, Section 4.2", "If the surrogate loss function phi is top-k subgroup order sensitive "
                                                "..., then it is also top-(k+1) subgroup order sensitive"),
    statement="top-k subgroup order sensitivity implies top-(k+1) subgroup order sensitivity",
)


def proposition9_example_claim(id: str, *, drop_prop4: bool = False) -> Any:
    """n = 3, g_1 < g_2, top-1 order sensitive: both inequalities are strict (Prop. 4 used)."""
    v = phi_vars(3)
    blocks = (0, 1, 2)
    hyps = {"definition3": condition2(v, 3, 1, blocks)}
    if drop_prop4:  # the twin forgets condition (2)'s equality part, i.e. Proposition 4
        hyps = {"definition3": [h for h in hyps["definition3"] if not isinstance(h, sympy.Eq)]}
    return implies(
        id, hypotheses=hyps,
        conclusion=sympy.And(v[(1, 2, 3)] > v[(2, 1, 3)], v[(1, 3, 2)] > v[(2, 3, 1)]),
        cite=cite("Proposition 9's example, Section 4.2", "From Proposition 4, we know that the two inequalities "
                                                          "are strict."),
        statement="n = 3, g_1 < g_2, top-1 order sensitive: phi(g,(1,2,3)) > phi(g,(2,1,3)) and "
                  "phi(g,(1,3,2)) > phi(g,(2,3,1))",
    )


proposition9_example = proposition9_example_claim("xia2009.proposition9.example_strict")


# ---------------------------------------------------------------------------------------
# Proposition 8 and its converse
# ---------------------------------------------------------------------------------------


def proposition8_cases(n: int, *, down: int = 1) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Order preserving w.r.t. (1, 2) at k => at k - down (down = -1 is a twin: k => k + 1)."""
    p, simp = simplex(n)
    cases = []
    for k in range(1, n + 1):
        k2 = k - down
        if not 1 <= k2 <= n:
            continue
        cases.append((f"n={n}, k={k}->{k2}", {"simplex": simp, "order_preserving_k": order_preserving(p, n, k, 1, 2)},
                      sympy.And(*order_preserving(p, n, k2, 1, 2))))
    return cases


proposition8 = implies_cases(
    "xia2009.proposition8",
    cases=proposition8_cases, sizes=(3, 5),
    domain="k = 2..n, pair (1, 2) (WLOG by relabelling), p_y real variables on the simplex",
    cite=cite("Proposition 8, Section 4.2", "If the top-k subgroup probability space is order preserving with "
                                                "respect to object i and j, the top-(k-1) subgroup probability space "
                                                "is also order preserving"),
    statement="order preserving w.r.t. (i, j) at depth k implies order preserving at depth k - 1",
)

P3 = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(3)}
CONVERSE_WITNESS = {"p_123": Fraction(1, 2), "p_132": Fraction(0), "p_213": Fraction(0), "p_231": Fraction(1, 4),
                    "p_312": Fraction(0), "p_321": Fraction(1, 4)}


def proposition8_converse_claim(id: str, witness: dict[str, Fraction]) -> Any:
    p = P3
    return exists(
        id,
        constraints={
            "simplex": [v >= 0 for v in p.values()] + [sympy.Eq(sum(p.values()), 1)],
            "top1_order_preserving": order_preserving(p, 3, 1, 1, 2),
            "top2_not_order_preserving": [sympy.Not(sympy.And(*order_preserving(p, 3, 2, 1, 2)))],
        },
        witness=witness,
        cite=cite("Proposition 8's example, Section 4.2", "it is easy to verify that Proposition 8 holds for this case "
                                                          "while the opposite does not"),
        statement="n = 3: a distribution that is top-1 but not top-2 order preserving w.r.t. (1, 2)",
    )


proposition8_converse = proposition8_converse_claim("xia2009.proposition8.converse_fails", CONVERSE_WITNESS)


# ---------------------------------------------------------------------------------------
# Theorem 6: the pair set, and the most probable subgroup
# ---------------------------------------------------------------------------------------


def theorem6_pairs(n: int, k: int, s: Sequence[int]) -> list[tuple[int, int]]:
    """{(j_i, j_{i+1})}_{i=1}^k and {(j_{k+s_i}, j_{k+i})}_{i=2}^{n-k} with j_t = t; s[i-2] = s_i."""
    pairs = [(i, i + 1) for i in range(1, k + 1) if i + 1 <= n]
    for i in range(2, n - k + 1):
        si = s[i - 2]
        pairs.append((k + si, k + i))
    return pairs


def s_choices(n: int, k: int) -> list[tuple[int, ...]]:
    return list(itertools.product(*[range(0, i) for i in range(2, n - k + 1)]))


def theorem6_pairs_holds(case: tuple[int, int, tuple[int, ...]], *, drop_last: bool = False) -> tuple[bool, str]:
    import networkx as nx

    n, k, s = case
    pairs = theorem6_pairs(n, k, s)
    if drop_last:
        pairs = pairs[:-1]
    g = nx.DiGraph()
    g.add_nodes_from(range(1, n + 1))
    g.add_edges_from(pairs)
    if len(pairs) != n - 1:
        return False, f"{len(pairs)} pairs, not n - 1 = {n - 1}"
    if not nx.is_tree(g.to_undirected()):
        return False, f"pairs {pairs} do not form a spanning tree"
    reach = {v: nx.descendants(g, v) for v in g}
    chain = all(t + 1 in reach[t] for t in range(1, k))
    above = all(x in reach[k] for x in range(k + 1, n + 1))
    return chain and above, f"pairs {pairs}: j_1 > ... > j_k {'ok' if chain else 'fails'}, j_k above the rest " \
                            f"{'ok' if above else 'fails'}"


def theorem6_pairs_claim(id: str, *, drop_last: bool = False, sizes: tuple[int, int] = (3, 6)) -> Any:
    return finite_check(
        id,
        cases=lambda n: [(n, k, s) for k in range(1, n) for s in s_choices(n, k)],
        holds=lambda case: theorem6_pairs_holds(case, drop_last=drop_last),
        describe=lambda case: {"n": case[0], "k": case[1], "s": list(case[2])},
        domain="k = 1..n-1 and every choice of 0 <= s_i < i",
        cite=cite("Theorem 6, Section 4.1",
                  "order preserving with respect to n - 1 object pairs {(j_i, j_{i+1})}_{i=1}^k and "
                  "{(j_{k+s_i}, j_{k+i}) : 0 <= s_i < i}_{i=2}^{n-k}"),
        statement="Theorem 6's pairs are n - 1 pairs forming a spanning tree; with Theorem 7 they force "
                  "g_{j_1} > ... > g_{j_k} > every other score",
        sizes=sizes,
    )


theorem6_pair_set = theorem6_pairs_claim("xia2009.theorem6.pair_set")


def theorem6_bayes_cases(n: int, *, weaken: bool = False) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Order preserving w.r.t. the pair set => G_k(1..k) is the unique most probable subgroup.
    ``weaken`` (a twin) drops the first pair."""
    p, simp = simplex(n)
    cases = []
    for k in range(1, n):
        for s in s_choices(n, k):
            pairs = theorem6_pairs(n, k, s)
            if weaken:
                pairs = pairs[1:]
            op = [c for (i, j) in pairs for c in order_preserving(p, n, k, i, j)]
            top = subgroup_prob(p, tuple(range(1, k + 1)))
            concl = sympy.And(*[top > subgroup_prob(p, key) for key in itertools.permutations(range(1, n + 1), k)
                                if key != tuple(range(1, k + 1))])
            cases.append((f"n={n}, k={k}, s={s}", {"simplex": simp, "order_preserving": op}, concl))
    return cases


theorem6_bayes = implies_cases(
    "xia2009.theorem6.most_probable_subgroup",
    cases=theorem6_bayes_cases, sizes=(3, 4),
    domain="k = 1..n-1, every choice of s_i, p_y real variables on the simplex",
    cite=cite("Theorem 6, Section 4.1", "if its top-k subgroup probability space is order preserving with respect "
                                            "to n - 1 object pairs ... then the loss is consistent"),
    statement="order preserving w.r.t. Theorem 6's pairs makes G_k(j_1, ..., j_k) the unique most probable "
              "subgroup (the Bayes ranker Theorem 7's score order points to)",
)


# ---------------------------------------------------------------------------------------
# Theorem 7: the swap identity of its proof, and the theorem numerically for ListMLE
# ---------------------------------------------------------------------------------------


def theorem7_identity_sides(n: int, *, sign: int = 1) -> tuple[Any, Any]:
    """Q(p, g') - Q(p, g) with phi(g', y) = phi(g, sigma y) (condition (1), g' = sigma g), and
    the proof's sum over Y_{1,2}."""
    p = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(n)}
    v = phi_vars(n)
    lhs = sum(p[y] * v[swap(y, 1, 2)] for y in perms(n)) - sum(p[y] * v[y] for y in perms(n))
    rhs = sum(sign * (p[swap(y, 1, 2)] - p[y]) * (v[y] - v[swap(y, 1, 2)]) for y in perms(n) if before(y, 1, 2))
    return lhs, rhs


def theorem7_identity_claim(id: str, *, sign: int = 1, sizes: tuple[int, int] = (3, 5)) -> Any:
    return identity(
        id,
        lambda n: theorem7_identity_sides(n, sign=sign)[0],
        lambda n: theorem7_identity_sides(n, sign=sign)[1],
        cite=cite("Theorem 7's proof, Section 4.1", "Q(p, g') - Q(p, g) = sum_{y in Y_{1,2}} (p_{sigma y} - p_y)"
                                                    "(phi(g, y) - phi(g, sigma y))"),
        statement="the swap identity of Theorem 7's proof, for arbitrary loss values phi(g, y) and probabilities p_y",
        sizes=sizes,
    )


theorem7_identity = theorem7_identity_claim("xia2009.theorem7.swap_identity")


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
    return numeric(
        id, run=lambda: theorem7_numeric(n, k, seed, check_pair=check_pair),
        cite=cite("Theorem 7, Section 4.1", "if the top-k subgroup probability space is order preserving with "
                                            "respect to them, and g is a vector which minimizes Q(p, g) in Eq.(8), "
                                            "then g_i > g_j"),
        statement=f"n = {n}, top-{k} ListMLE, p order preserving w.r.t. (1, 2): the minimiser of Q has g_1 > g_2",
    )


theorem7_listmle_numeric = [
    theorem7_numeric_claim("xia2009.theorem7.listmle_top1_n3", 3, 1, 1),
    theorem7_numeric_claim("xia2009.theorem7.listmle_top2_n4", 4, 2, 2),
]


# ---------------------------------------------------------------------------------------
# Top-k ListMLE (10) is top-k order sensitive: exact reduction to polynomials in t = exp(g)
# ---------------------------------------------------------------------------------------


def t_symbols(n: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(" ".join(f"t{i}" for i in range(1, n + 1)), positive=True))


def luce_parts(t: Sequence[Any], y: tuple[int, ...], m: int) -> tuple[Any, Any]:
    """Numerator and denominator of the Luce top-m probability (as products, unexpanded)."""
    n = len(y)
    num, den = sympy.Integer(1), sympy.Integer(1)
    for s in range(m):
        num = num * t[y[s] - 1]
        den = den * sum(t[y[r] - 1] for r in range(s, n))
    return num, den


def listmle_gradient(t: Sequence[Any], y: tuple[int, ...], m: int, i: int) -> Any:
    """d/dg_i of -log Luce_m(y) = -[pos(i) <= m] + sum_{s <= min(pos(i), m)} t_i / D_s."""
    n, a = len(y), pos(y, i)
    out: Any = -1 if a <= m else 0
    for s in range(min(a, m)):
        out = out + t[i - 1] / sum(t[y[r] - 1] for r in range(s, n))
    return out


def position_patterns(n: int) -> list[tuple[int, ...]]:
    """Orderings with object 1 at position a < position b of object 2, the others 3..n in
    increasing order: every y in Y_{1,2} up to relabelling objects 3..n."""
    out = []
    for a, b in itertools.combinations(range(1, n + 1), 2):
        rest = iter(range(3, n + 1))
        out.append(tuple(1 if q == a else 2 if q == b else next(rest) for q in range(1, n + 1)))
    return out


def listmle_os_cases(n: int, *, depth: Callable[[int], int] | None = None, strict_all: bool = False,
                     ) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Cases of Definition 3 for the Luce top-m loss (m = depth(k), default k) judged at depth k."""
    t = t_symbols(n)
    cases: list[tuple[str, dict[str, list[Any]], Any]] = []
    for k in range(1, n + 1):
        m = depth(k) if depth else k
        ident = tuple(range(1, n + 1))
        # non-negativity: P <= 1, i.e. N <= D (every y is a relabelling of the identity)
        num, den = luce_parts(t, ident, m)
        cases.append((f"n={n}, k={k}: phi >= 0", {}, num <= den))
        for y in position_patterns(n):
            z = swap(y, 1, 2)
            ny, dy = luce_parts(t, y, m)
            nz, dz = luce_parts(t, z, m)
            # phi(g, y) - phi(g, sigma y) = log(P(sigma y) / P(y)) ; P = N / D, D > 0
            if changes_subgroup(y, 1, 2, k) or strict_all:
                concl = nz * dy > ny * dz
            else:
                concl = sympy.Eq(sympy.expand(nz * dy - ny * dz), 0)
            cases.append((f"n={n}, k={k}, y={y}: condition (2)", {"g1_below_g2": [t[0] < t[1]]}, concl))
            # condition (1): phi(g, y) = phi(sigma g, sigma y), an exact identity in t
            st = [t[1], t[0], *t[2:]]
            ns, ds = luce_parts(st, z, m)
            cases.append((f"n={n}, k={k}, y={y}: condition (1)", {}, sympy.Eq(sympy.expand(ny * ds - ns * dy), 0)))
        # condition (3) at g_1 = g_2, witnessed by y = (1, 2, 3, ..., n)
        y = ident
        gap = listmle_gradient(t, swap(y, 1, 2), m, 1) - listmle_gradient(t, y, m, 1)
        cases.append((f"n={n}, k={k}: condition (3) at y={y}", {"tie": [sympy.Eq(t[0], t[1])]},
                      sympy.together(gap) > 0))
    return cases


def listmle_os_claim(id: str, *, depth: Callable[[int], int] | None = None, strict_all: bool = False,
                     sizes: tuple[int, int] = (3, 5), expected: str | None = None, statement: str = "",
                     citation: Citation | None = None) -> Any:
    return implies_cases(
        id, cases=lambda n: listmle_os_cases(n, depth=depth, strict_all=strict_all), sizes=sizes,
        domain="k = 1..n; pair (1, 2) WLOG, positions (a, b) of objects 1, 2; t_i = exp(g_i) > 0",
        cite=citation or cite("Section 4.3.1, Eq. (10)", "It can be proved that the modified loss is top-k "
                                                             "subgroup order sensitive"),
        statement=statement or "top-k ListMLE (10) is top-k subgroup order sensitive: non-negative, (1), (2) with "
                               "strict inequality whenever the subgroup changes, (3)",
        expected=expected,
    )


listmle_topk_order_sensitive = listmle_os_claim("xia2009.listmle_topk.order_sensitive")


# ---------------------------------------------------------------------------------------
# The modified cosine loss is top-k order sensitive: exact reduction to polynomials
# ---------------------------------------------------------------------------------------


def cosine_sides(n: int, y: tuple[int, ...]) -> tuple[Any, Any, list[sympy.Symbol], list[sympy.Symbol]]:
    """phi(g, y) - phi(g, sigma_{1,2} y) for symbolic psi (per position) and g, and the
    claimed reduced form (psi_{sigma y} . g - psi_y . g) / (2 |psi| |g|)."""
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    psi = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, n + 1)), real=True))
    z = swap(y, 1, 2)

    def vec(order: tuple[int, ...]) -> list[Any]:
        out: list[Any] = [0] * n
        for s, obj in enumerate(order):
            out[obj - 1] = psi[s]
        return out

    npsi = sympy.sqrt(sum(v ** 2 for v in psi))
    ng = sympy.sqrt(sum(v ** 2 for v in g))

    def phi(order: tuple[int, ...]) -> Any:
        return (1 - sum(a * b for a, b in zip(vec(order), g, strict=True)) / (npsi * ng)) / 2

    lhs = phi(y) - phi(z)
    dot = sum(a * b for a, b in zip(vec(z), g, strict=True)) - sum(a * b for a, b in zip(vec(y), g, strict=True))
    return lhs, dot / (2 * npsi * ng), g, psi


def cosine_identity_claim(id: str, *, factor: Any = 1) -> Any:
    y = (3, 1, 2)
    lhs, rhs, g, psi = cosine_sides(3, y)
    return identity(
        id, lhs, factor * rhs,
        conditions=[sympy.Ne(sum(v ** 2 for v in g), 0), sympy.Ne(sum(v ** 2 for v in psi), 0)],
        cite=cite("Eq. (11), Section 4.3.2", "phi(g(x), y) = 1/2 (1 - psi_y(x)^T g(x) / (||psi_y(x)|| ||g(x)||))"),
        statement="n = 3: phi(g, y) - phi(g, sigma y) = (psi_{sigma y} . g - psi_y . g) / (2 |psi| |g|) "
                  "(the reduction used for the cosine loss; |psi_y| does not depend on y)",
    )


cosine_difference_identity = cosine_identity_claim("xia2009.cosine.difference_identity")


def cosine_os_cases(n: int, *, modified: bool = True, loose_eps: bool = False
                    ) -> list[tuple[str, dict[str, list[Any]], Any]]:
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    cases = []
    for k in range(1, n + 1):
        psi = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, k + 1)), real=True, seq=True))
        eps = sympy.Symbol("eps", real=True)
        scores = psi + [eps] * (n - k) if modified else list(
            sympy.symbols(" ".join(f"psi{s}" for s in range(1, n + 1)), real=True, seq=True))
        order = [scores[s] > scores[s + 1] for s in range(k - 1)]
        if modified and k < n:
            order.append(psi[-1] >= eps if loose_eps else psi[-1] > eps)
        if not modified:
            order = [scores[s] > scores[s + 1] for s in range(n - 1)]
        hyp_psi = {"psi_order": order}

        def vec(y: tuple[int, ...], scores: list[Any] = scores) -> list[Any]:
            out: list[Any] = [0] * n
            for s, obj in enumerate(y):
                out[obj - 1] = scores[s]
            return out

        nonzero = sympy.Or(*[v > 0 for v in g], *[v < 0 for v in g])
        for y in position_patterns(n):
            z = swap(y, 1, 2)
            numer = (sum(a * b for a, b in zip(vec(z), g, strict=True))
                     - sum(a * b for a, b in zip(vec(y), g, strict=True)))
            concl = numer > 0 if changes_subgroup(y, 1, 2, k) else sympy.Eq(numer, 0)
            cases.append((f"n={n}, k={k}, y={y}: condition (2)", {**hyp_psi, "g1_below_g2": [g[0] < g[1]]}, concl))
        # (3) at g_1 = g_2, y = identity: d phi(sigma y)/d g_1 - d phi(y)/d g_1 times 2 |psi| |g|^3 equals
        # -[(psi_{sigma y})_1 |g|^2 - (psi_{sigma y} . g) g_1] + [(psi_y)_1 |g|^2 - (psi_y . g) g_1]
        y = tuple(range(1, n + 1))
        z = swap(y, 1, 2)
        g2 = sum(v ** 2 for v in g)
        dz = vec(z)[0] * g2 - sum(a * b for a, b in zip(vec(z), g, strict=True)) * g[0]
        dy = vec(y)[0] * g2 - sum(a * b for a, b in zip(vec(y), g, strict=True)) * g[0]
        cases.append((f"n={n}, k={k}: condition (3)",
                      {**hyp_psi, "tie": [sympy.Eq(g[0], g[1])], "g_nonzero": [nonzero]}, dy - dz > 0))
    return cases


def cosine_os_claim(id: str, *, modified: bool = True, loose_eps: bool = False, sizes: tuple[int, int] = (3, 5),
                    expected: str | None = None, statement: str = "") -> Any:
    return implies_cases(
        id, cases=lambda n: cosine_os_cases(n, modified=modified, loose_eps=loose_eps), sizes=sizes,
        domain="k = 1..n; pair (1, 2) WLOG; symbolic psi and g; reduced numerators (see the difference identity)",
        cite=cite("Section 4.3.2", "It can be proved that after the modification, the cosine loss becomes top-k "
                                       "subgroup order sensitive"),
        statement=statement or "the cosine loss with the modified psi (top k decreasing, the rest eps) is top-k "
                               "subgroup order sensitive: (2) with strict inequality iff the subgroup changes, and (3)",
        expected=expected,
    )


cosine_modified_order_sensitive = cosine_os_claim("xia2009.cosine_modified.order_sensitive")


# ---------------------------------------------------------------------------------------
# The modified ListNet (12) is top-k order sensitive: a difference identity (sympy, with the
# real exp/log) and termwise polynomial signs (z3)
# ---------------------------------------------------------------------------------------


def log_luce_expr(scores: Sequence[Any], pi: tuple[int, ...]) -> Any:
    """log of the Luce probability of ordering ``pi`` under real scores (per object):
    sum_s [s_{pi(s)} - log sum_{r >= s} exp(s_{pi(r)})] (Eq. (9)), with sympy's exp and log."""
    n = len(pi)
    return sum(scores[pi[a] - 1] - sympy.log(sum(sympy.exp(scores[pi[r] - 1]) for r in range(a, n)))
               for a in range(n))


def cross_entropy_expr(psi_scores: Sequence[Any], g: Sequence[Any]) -> Any:
    """ListNet's loss (12): D(P(.; psi_y) || P(.; g)) = sum_pi P_psi(pi) (log P_psi(pi) - log P_g(pi))
    over the n! orderings (full Luce model on both sides, as in the paper)."""
    out: Any = 0
    for pi in perms(len(g)):
        lp = log_luce_expr(psi_scores, pi)
        out += sympy.exp(lp) * (lp - log_luce_expr(g, pi))
    return out


def position_scores(psi: Sequence[Any], y: tuple[int, ...]) -> list[Any]:
    """psi_y as a vector per object: the object at position s gets psi[s - 1]."""
    out: list[Any] = [0] * len(y)
    for s, obj in enumerate(y):
        out[obj - 1] = psi[s]
    return out


@functools.lru_cache(maxsize=8)
def listnet_difference_sides(n: int, *, factor: Any = 1, flip_derivative: bool = False) -> tuple[Any, Any]:
    """For every position pattern y (objects 1 before 2) and tau = the swap of labels 1, 2:
    (a) phi(g, y) - phi(g, sigma y) = sum_{pi in Y_12} a_pi (log P_g(tau pi) - log P_g(pi)),
    (b) d phi(g, sigma y)/d g_1 - d phi(g, y)/d g_1 = sum_{pi in Y_12} a_pi (G_1(tau pi) - G_1(pi)),
    (c) phi(sigma g, sigma y) = phi(g, y)  (condition (1)),
    with a_pi = P_psi_y(pi) - P_psi_y(tau pi) (Luce probabilities with weights exp(psi)) and
    G_1 = ``listmle_gradient``, the derivative of -log P_g in g_1 used by the z3 cases.
    psi and g are symbolic reals (any psi, so every modified mapping is covered).
    ``factor`` / ``flip_derivative`` nudge the right-hand sides (twins)."""
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    psi = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, n + 1)), real=True))
    e = [sympy.exp(v) for v in g]
    sg = [g[1], g[0], *g[2:]]
    y12 = [pi for pi in perms(n) if before(pi, 1, 2)]
    lhs, rhs = [], []
    for y in position_patterns(n):
        z = swap(y, 1, 2)
        sy, sz = position_scores(psi, y), position_scores(psi, z)
        w = [sympy.exp(v) for v in sy]
        a = {}
        for pi in y12:
            (n1, d1), (n2, d2) = luce_parts(w, pi, n), luce_parts(w, swap(pi, 1, 2), n)
            a[pi] = n1 / d1 - n2 / d2
        phi_y, phi_z = cross_entropy_expr(sy, g), cross_entropy_expr(sz, g)
        lhs.append(phi_y - phi_z)
        rhs.append(factor * sum(a[pi] * (log_luce_expr(g, swap(pi, 1, 2)) - log_luce_expr(g, pi)) for pi in y12))
        lhs.append(sympy.diff(phi_z, g[0]) - sympy.diff(phi_y, g[0]))
        sign = -1 if flip_derivative else 1
        rhs.append(sign * sum(a[pi] * (listmle_gradient(e, swap(pi, 1, 2), n, 1) - listmle_gradient(e, pi, n, 1))
                              for pi in y12))
        lhs.append(cross_entropy_expr(sz, sg))
        rhs.append(phi_y)
    return sympy.Matrix(lhs), sympy.Matrix(rhs)


def listnet_identity_claim(id: str, *, factor: Any = 1, flip_derivative: bool = False,
                           sizes: tuple[int, int] = (3, 4)) -> Any:
    return identity(
        id,
        lambda n: listnet_difference_sides(n, factor=factor, flip_derivative=flip_derivative)[0],
        lambda n: listnet_difference_sides(n, factor=factor, flip_derivative=flip_derivative)[1],
        cite=cite("Eq. (12), Section 4.3.3", "phi(g(x), y) = D(P(pi|x; psi_y) || P(pi|x; g))"),
        statement="ListNet's cross entropy (12), any psi: phi(g, y) - phi(g, sigma y) = sum_{pi in Y_12} "
                  "(P_psi_y(pi) - P_psi_y(tau pi)) log(P_g(tau pi) / P_g(pi)), the same pairing for the "
                  "g_1-derivative, and phi(sigma g, sigma y) = phi(g, y) (condition (1)); every y in Y_12",
        sizes=sizes,
        scope="every position pattern y of objects 1, 2 (the others relabelled), symbolic real psi and g",
    )


listnet_difference_identity = listnet_identity_claim("xia2009.listnet.difference_identity")


def listnet_os_cases(n: int, *, modified: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """The polynomial signs behind Definition 3 for ListNet with the modified psi (u = exp(psi):
    u_1 > ... > u_k > u_0 = exp(eps), positions below k get u_0); ``modified=False`` (a twin)
    uses the original strictly decreasing psi at every position, judged at depth k."""
    t = t_symbols(n)
    u = list(sympy.symbols(" ".join(f"u{s}" for s in range(n + 1)), positive=True))
    y12 = [pi for pi in perms(n) if before(pi, 1, 2)]
    cases: list[tuple[str, dict[str, list[Any]], Any]] = []
    total = sum(num / den for num, den in (luce_parts(t, pi, n) for pi in perms(n)))
    cases.append((f"n={n}: Luce probabilities sum to 1 (phi = KL >= 0 by Gibbs' inequality)", {},
                  sympy.Eq(sympy.together(total), 1)))
    g_side = []
    for pi in y12:
        (n1, d1), (n2, d2) = luce_parts(t, pi, n), luce_parts(t, swap(pi, 1, 2), n)
        g_side.append(n2 * d1 > n1 * d2)  # P_g(tau pi) > P_g(pi): the log factor is > 0
    cases.append((f"n={n}: g_1 < g_2 => P_g(tau pi) > P_g(pi) for every pi in Y_12", {"g1_below_g2": [t[0] < t[1]]},
                  sympy.And(*g_side)))
    tie_side = [sympy.together(listmle_gradient(t, swap(pi, 1, 2), n, 1) - listmle_gradient(t, pi, n, 1)) > 0
                for pi in y12]
    cases.append((f"n={n}: g_1 = g_2 => G_1(tau pi) > G_1(pi) for every pi in Y_12", {"tie": [sympy.Eq(t[0], t[1])]},
                  sympy.And(*tie_side)))
    for k in range(1, n + 1):
        top = k if modified else n
        order = [u[s] > u[s + 1] for s in range(1, top)] + ([u[top] > u[0]] if top < n else [])
        for y in position_patterns(n):
            w = [u[pos(y, obj)] if pos(y, obj) <= top else u[0] for obj in range(1, n + 1)]
            parts = []
            for pi in y12:
                (n1, d1), (n2, d2) = luce_parts(w, pi, n), luce_parts(w, swap(pi, 1, 2), n)
                if changes_subgroup(y, 1, 2, k):
                    parts.append(n1 * d2 > n2 * d1)  # a_pi > 0
                else:
                    parts.append(sympy.Eq(sympy.expand(n1 * d2 - n2 * d1), 0))  # a_pi = 0
            what = "a_pi > 0" if changes_subgroup(y, 1, 2, k) else "a_pi = 0"
            cases.append((f"n={n}, k={k}, y={y}: {what} for every pi in Y_12", {"psi_order": order},
                          sympy.And(*parts)))
    return cases


def listnet_os_claim(id: str, *, modified: bool = True, sizes: tuple[int, int] = (3, 4)) -> Any:
    return implies_cases(
        id, cases=lambda n: listnet_os_cases(n, modified=modified), sizes=sizes,
        domain="k = 1..n; pair (1, 2) WLOG, positions (a, b) of objects 1, 2; t = exp(g) > 0, u = exp(psi) > 0 "
               "symbolic with u_1 > ... > u_k > u_0 = exp(eps); with xia2009.listnet.difference_identity (sympy)",
        cite=cite("Section 4.3.3", "It can be proved that such a modification can make the surrogate loss "
                                       "function top-k subgroup order sensitive"),
        statement="ListNet (12) with the modified psi (top k decreasing, the rest eps) is top-k subgroup order "
                  "sensitive: phi = KL >= 0, (1), (2) strict whenever the subgroup changes and = otherwise, (3)",
    )


listnet_modified_order_sensitive = listnet_os_claim("xia2009.listnet_modified.order_sensitive")


# ---------------------------------------------------------------------------------------
# Witnesses of non-order-sensitivity: rigorous interval enclosures at exact points
# ---------------------------------------------------------------------------------------

WITNESS_G = (Fraction(0), Fraction(1), Fraction(1, 2))
WITNESS_Y = (3, 1, 2)  # objects 1 and 2 both outside the top 1: (2) demands equal losses


def surrogate(name: str, n: int, k: int) -> Any:
    from symcal.ranking import listwise as lw

    return {
        "listmle": lambda: lw.listmle(n),
        "listmle_topk": lambda: lw.listmle(n, k),
        "cosine": lambda: lw.rank_cosine(n),
        "cosine_modified": lambda: lw.rank_cosine(n, k),
        "listnet": lambda: lw.listnet(n),
        "listnet_modified": lambda: lw.listnet(n, k),
        "listnet_cao": lambda: lw.listnet_topk_cao(n, k),
    }[name]()


def certified_sign(name: str, n: int, k: int, g: Sequence[Fraction], y: tuple[int, ...], sign: int) -> tuple[bool, str]:
    """Is sign(phi(g, y) - phi(g, sigma_{1,2} y)) = ``sign``, certified by disjoint interval
    enclosures?  Undecided enclosures raise (never a verdict)."""
    from symcal.ranking.listwise import _iv_dps, interval_difference

    phi = surrogate(name, n, k)
    with _iv_dps(40):
        a = phi.value(list(g), y, arithmetic="interval")
        b = phi.value(list(g), swap(y, 1, 2), arithmetic="interval")
        got, text = interval_difference(a, b)
    detail = f"{phi.name}: phi(g, {y}) - phi(g, {swap(y, 1, 2)}) in {text} at g = {[str(v) for v in g]}"
    if got is None:
        raise UndecidedCase(f"{detail}: the enclosure contains 0")
    return got == sign, detail


def not_os_claim(id: str, name: str, *, n: int = 3, k: int = 1, sign: int = 1, location: str, quote: str,
                 what: str, g: Sequence[Fraction] = WITNESS_G, y: tuple[int, ...] = WITNESS_Y) -> Any:
    return finite_check(
        id,
        cases=[(name, n, k, tuple(g), y, sign)],
        holds=lambda c: certified_sign(*c),
        describe=lambda c: {"surrogate": c[0], "n": c[1], "k": c[2], "g": [str(v) for v in c[3]], "y": list(c[4]),
                            "claimed sign": c[5]},
        domain="one exact witness point, rigorous mpmath interval enclosures of both losses",
        cite=cite(location, quote),
        statement=f"{what} is not top-{k} subgroup order sensitive (n = {n}): at g = {[str(v) for v in g]} "
                  f"(g_1 < g_2), y = {y} and sigma_(1,2) y have the same top-{k} subgroup but "
                  f"phi(g, y) {'>' if sign > 0 else '<'} phi(g, sigma y), certified",
    )


NOT_OS_QUOTE_43 = ("In [16], the surrogate loss functions in ListNet, RankCosine, and ListMLE have been proved to be "
                   "permutation-level order sensitive ... they may not be top-k subgroup order sensitive")
listmle_not_os = not_os_claim("xia2009.listmle.not_top_k_order_sensitive", "listmle", location="Section 4.3",
                              quote=NOT_OS_QUOTE_43, what="ListMLE (9)")
cosine_not_os = not_os_claim("xia2009.cosine.not_top_k_order_sensitive", "cosine", location="Section 4.3",
                             quote=NOT_OS_QUOTE_43, what="the cosine loss with the original psi")
listnet_not_os = not_os_claim("xia2009.listnet.not_top_k_order_sensitive", "listnet", location="Section 4.3",
                              quote=NOT_OS_QUOTE_43, what="ListNet with the original psi")
listnet_cao_not_os = not_os_claim(
    "xia2009.listnet_cao.not_top_k_order_sensitive", "listnet_cao", location="Footnote 4, Section 4.3.3",
    quote="the so-defined top-k cross entropy loss is still permutation-level order sensitive, but not top-k subgroup "
          "order sensitive", what="Cao et al.'s top-k ListNet")


# ---------------------------------------------------------------------------------------
# Numeric evidence: modified ListNet is top-k order sensitive; Cao et al. at k = n
# ---------------------------------------------------------------------------------------


def random_points(n: int, count: int, seed: int) -> list[tuple[Fraction, ...]]:
    rng = random.Random(seed)
    pts = []
    for c in range(count):
        g = [Fraction(rng.randint(-6, 6), rng.choice((1, 2, 3))) for _ in range(n)]
        if c % 3 == 0:  # include ties for condition (3)
            g[1] = g[0]
        pts.append(tuple(g))
    return pts


def sensitivity_numeric(name: str, n: int, k: int, depth: int, count: int, seed: int) -> NumericOutcome:
    """Definition 3 at depth ``depth`` for surrogate ``name`` at random exact points, with
    interval arithmetic; the margin is 1 when no violation and no undecided comparison
    occurred (a certified violation gives ok = False).  Never a proof for all g."""
    from symcal.ranking.listwise import check_order_sensitivity

    phi = surrogate(name, n, k)
    res = check_order_sensitivity(phi, depth, random_points(n, count, seed))
    ok = res.holds and not res.undecided
    return NumericOutcome(
        ok=ok, method="Definition 3 at random exact points, mpmath interval enclosures",
        values={"surrogate": phi.name, "depth": depth, "points": res.points, "comparisons": res.comparisons,
                "undecided": len(res.undecided), "witness": res.witness, "reason": res.reason[:300]},
        tolerance=0.5, margin=1.0 if ok else 0.0,
        note="sampled points only: evidence, not a proof for all g",
    )


def sensitivity_numeric_claim(id: str, name: str, n: int, k: int, depth: int, *, location: str, quote: str,
                              what: str, count: int = 12, seed: int = 7) -> Any:
    return numeric(
        id, run=lambda: sensitivity_numeric(name, n, k, depth, count, seed),
        cite=cite(location, quote),
        statement=f"{what} (n = {n}) satisfies Definition 3 at depth {depth} at {count} random exact points (numeric)",
    )


listnet_modified_os = sensitivity_numeric_claim(
    "xia2009.listnet_modified.order_sensitive.library_at_points", "listnet_modified", 3, 1, 1,
    location="Section 4.3.3",
    quote="It can be proved that such a modification can make the surrogate loss function top-k subgroup order "
          "sensitive", what="symcal's concrete ListNet with the top-1 modified psi (3, 0, 0), a cross-check of the "
                            "library code against the exact proof,")
listnet_cao_permutation_level = sensitivity_numeric_claim(
    "xia2009.listnet_cao.permutation_level_order_sensitive", "listnet_cao", 3, 1, 3, location="Footnote 4",
    quote="the so-defined top-k cross entropy loss is still permutation-level order sensitive",
    what="Cao et al.'s top-1 ListNet")


# ---------------------------------------------------------------------------------------
# Proposition 10
# ---------------------------------------------------------------------------------------

X, Z, P1 = sympy.symbols("x z p1", real=True)  # t = (x, 1, z) = exp(g - g_2); p1 = p_123


def prop10_stationarity() -> tuple[Any, Any]:
    """Numerators of x dQ/dx and z dQ/dz for ListMLE and p = (p1, 0, p2, 0, 0, p2),
    p2 = (1 - p1)/2, computed from the Luce probabilities (denominators are positive)."""
    from symcal.ranking.listwise import luce_probability

    xs, zs = sympy.symbols("x z", positive=True)
    t = (xs, sympy.Integer(1), zs)
    p2 = (1 - P1) / 2
    q = (-P1 * sympy.log(luce_probability(t, (1, 2, 3))) - p2 * sympy.log(luce_probability(t, (2, 1, 3)))
         - p2 * sympy.log(luce_probability(t, (3, 2, 1))))
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
    return finite_check(
        id, cases=[witness], holds=lambda c: prop10_holds(c, first=first),
        describe=lambda c: {k: v for k, v in c.items()},
        domain="ListMLE (which meets Proposition 10's hypotheses) at exact stationary points of Q for the family",
        cite=PROP10_CITE,
        statement="for every p_1 > p_2 in Proposition 10's family, the minimiser of Q (here phi = ListMLE) does not "
                  "rank object 1 first, i.e. is not a top-1 Bayes ranker",
        finding=finding,
    )


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
    ),
)


def prop10_range_claim(id: str, *, below: bool = True, flip: bool = False, drop_range: bool = False,
                       pin: dict[str, Fraction] | None = None) -> Any:
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
        cases = [("x < 1", {**base, **rng}, X > 1 if flip else X < 1)]
        statement = ("for ListMLE on Proposition 10's family with p_1 in (1/3, c), c the root of "
                     "7p^3 + 10p^2 - 11p + 2 in (1/3, 1) (~0.52610), the minimiser of Q (its unique stationary "
                     "point) ranks object 2 above object 1: not a top-1 Bayes ranker")
    else:
        cases = [("x > 1", {**base, **rng}, X < 1 if flip else X > 1), ("x > z", base, X > Z)]
        statement = ("for ListMLE on Proposition 10's family with p_1 in (c, 1) the minimiser of Q (its unique "
                     "stationary point) ranks object 1 first (the top-1 Bayes ranker): Proposition 10's conclusion "
                     "fails there")
    return implies_cases(
        id, cases=lambda m: cases, sizes=None,
        domain="every stationary point of Q (zeros of its stationarity polynomials, t = (x, 1, z) = exp(g - g_2)) "
               "for p_1 in the range; by xia2009.proposition10.q_strictly_convex and .q_coercive there is exactly "
               "one, the minimiser",
        cite=PROP10_CITE, statement=statement,
    )


proposition10_corrected = prop10_range_claim("xia2009.proposition10.corrected", below=True)
proposition10_consistent_above_c = prop10_range_claim("xia2009.proposition10.listmle_consistent_above_c", below=False)


def prop10_hypothesis_claim(id: str, *, flip: bool = False) -> Any:
    t = t_symbols(3)
    ny, dy = luce_parts(t, (3, 1, 2), 3)
    nz, dz = luce_parts(t, (3, 2, 1), 3)
    # phi(g,(3,1,2)) < phi(g,(3,2,1)) iff P(3,1,2) > P(3,2,1) iff N_y D_z > N_z D_y
    concl = ny * dz < nz * dy if flip else ny * dz > nz * dy
    return implies(id, hypotheses={"g1_above_g2": [t[0] > t[1]]}, conclusion=concl, cite=PROP10_CITE,
                   statement="ListMLE meets Proposition 10's strict hypothesis: phi(g,(3,1,2)) < phi(g,(3,2,1)) "
                             "whenever g_1 > g_2 (via t = exp(g))")


proposition10_listmle_hypothesis = prop10_hypothesis_claim("xia2009.proposition10.listmle_meets_hypothesis")


# Proposition 10: the argument behind the range claims -- Q is strictly convex modulo the
# shift (positive definite Hessian in (g_1, g_3) at g_2 = 0) and coercive, so it has exactly
# one stationary point, its unique minimiser.

def prop10_q(t: Sequence[Any], p1: Any) -> Any:
    """Q(p, g) of ListMLE for Proposition 10's family, with weights t = exp(g)."""
    from symcal.ranking.listwise import luce_probability

    p2 = (1 - p1) / 2
    return (-p1 * sympy.log(luce_probability(t, (1, 2, 3))) - p2 * sympy.log(luce_probability(t, (2, 1, 3)))
            - p2 * sympy.log(luce_probability(t, (3, 2, 1))))


def prop10_hessian() -> tuple[Any, Any, Any]:
    """The Hessian of Q in (g_1, g_3) at g_2 = 0, as rational functions of (x, z) = (exp g_1,
    exp g_3): d/dg_1 = x d/dx and d/dg_3 = z d/dz (chain rule), computed by sympy from Q."""
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
    h11, h13, h33 = prop10_hessian()
    h_t, a, b, c = prop10_hessian_parts()
    p2 = (1 - P1) / 2
    rhs = h_t + P1 * a + p2 * b + (0 if drop_c else p2) * c
    return identity(
        id, sympy.Matrix([[h11, h13], [h13, h33]]), rhs,
        cite=PROP10_CITE,
        statement="for ListMLE on Proposition 10's family, the Hessian of Q(p, g) in (g_1, g_3) at g_2 = 0 "
                  "(computed by sympy from Q, t = exp(g) = (x, 1, z)) is H_T + p_1 A + p_2 B + p_2 C, the "
                  "Hessians of log T, log(t_2 + t_3), log(t_1 + t_3), log(t_1 + t_2)",
        scope="every entry, as rational functions of x = exp g_1, z = exp g_3 and p_1",
    )


proposition10_q_hessian = prop10_decomposition_claim("xia2009.proposition10.q_hessian_decomposition")


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
    return implies_cases(
        id, cases=lambda m: prop10_convex_cases(drop_family=drop_family), sizes=None,
        domain="quadratic forms v^T M v of the Hessian parts for every v != 0, x = exp g_1 > 0, z = exp g_3 > 0; "
               "p_1 in (1/3, 1); with xia2009.proposition10.q_hessian_decomposition (sympy)",
        cite=PROP10_CITE,
        statement="for ListMLE on Proposition 10's family, the Hessian of Q(p, g) in (g_1, g_3) at g_2 = 0 is "
                  "positive definite at every g: Q is strictly convex modulo the shift, so it has at most one "
                  "stationary point (mod shift), and a stationary point is the unique minimiser",
    )


proposition10_q_strictly_convex = prop10_convex_claim("xia2009.proposition10.q_strictly_convex")


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
    return implies_cases(
        id, cases=lambda m: prop10_coercive_cases(drop_family=drop_family), sizes=None,
        domain="the three orderings of the family (t = exp(g) > 0) and one piecewise-linear bound in g, p_1 in "
               "(1/3, 1)",
        cite=PROP10_CITE,
        statement="for ListMLE on Proposition 10's family, Q(p, g) >= p_2 (|g_1 - g_2| + |g_3 - g_2|) (p_2 > 0): Q "
                  "is coercive modulo the shift, so it attains its minimum and a stationary point exists for "
                  "every p_1 in (1/3, 1)",
    )


proposition10_q_coercive = prop10_coercive_claim("xia2009.proposition10.q_coercive")


CLAIMS = [
    eq5_top_n,
    eq5_top_n_minus_1,
    eq7_bayes_ranker,
    proposition4,
    proposition5,
    proposition8,
    proposition8_converse,
    proposition9,
    proposition9_example,
    theorem6_pair_set,
    theorem6_bayes,
    theorem7_identity,
    *theorem7_listmle_numeric,
    listmle_topk_order_sensitive,
    cosine_difference_identity,
    cosine_modified_order_sensitive,
    listnet_difference_identity,
    listnet_modified_order_sensitive,
    listmle_not_os,
    cosine_not_os,
    listnet_not_os,
    listnet_cao_not_os,
    listnet_modified_os,
    listnet_cao_permutation_level,
    proposition10,
    proposition10_corrected,
    proposition10_consistent_above_c,
    proposition10_listmle_hypothesis,
    proposition10_q_hessian,
    proposition10_q_strictly_convex,
    proposition10_q_coercive,
]


# ---------------------------------------------------------------------------------------
# Negative twins (DESIGN.md, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with this module's own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says otherwise ("unknown": the twin of a numeric claim, which a
# numeric check cannot refute but must not confirm).  The erratum (Proposition 10 as printed)
# is its own twin.  `symcal selftest --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


_BY_ID = {c.id: c for c in CLAIMS}
TOP2_ORDER_PRESERVING = {"p_123": Fraction(1, 2), "p_132": Fraction(1, 4), "p_213": Fraction(0), "p_231": Fraction(0),
                         "p_312": Fraction(1, 4), "p_321": Fraction(0)}
_NOT_OS = [("xia2009.listmle.not_top_k_order_sensitive", "listmle"),
           ("xia2009.cosine.not_top_k_order_sensitive", "cosine"),
           ("xia2009.listnet.not_top_k_order_sensitive", "listnet"),
           ("xia2009.listnet_cao.not_top_k_order_sensitive", "listnet_cao")]

TWINS: dict[str, Callable[[], Claim]] = {
    "xia2009.eq5.top_n_is_permutation_level": lambda: eq5_claim(
        twin_id("xia2009.eq5.top_n"), depth=lambda n: n - 2, sizes=(3, 3)),
    "xia2009.eq5.top_n_minus_1_is_permutation_level": lambda: eq5_claim(
        twin_id("xia2009.eq5.top_n_minus_1"), depth=lambda n: max(1, n - 2), sizes=(3, 3)),
    "xia2009.eq7.bayes_ranker": lambda: implies_cases(
        twin_id("xia2009.eq7"), cases=lambda n: bayes_cases(n, strict_argmax=True), sizes=(3, 3), domain="twin",
        cite=_BY_ID["xia2009.eq7.bayes_ranker"].citation, statement="twin: strict argmax"),
    "xia2009.proposition4": lambda: implies_cases(
        twin_id("xia2009.proposition4"), cases=lambda n: proposition4_cases(n, k_shift=-1), sizes=(3, 3),
        domain="twin", cite=_BY_ID["xia2009.proposition4"].citation, statement="twin: equal on top-(k-1) subgroups"),
    "xia2009.proposition5": lambda: implies_cases(
        twin_id("xia2009.proposition5"), cases=lambda n: proposition5_cases(n, flip=True), sizes=(3, 3),
        domain="twin", cite=_BY_ID["xia2009.proposition5"].citation, statement="twin: derivative order flipped"),
    "xia2009.proposition8": lambda: implies_cases(
        twin_id("xia2009.proposition8"), cases=lambda n: proposition8_cases(n, down=-1), sizes=(3, 3), domain="twin",
        cite=_BY_ID["xia2009.proposition8"].citation, statement="twin: k => k + 1"),
    "xia2009.proposition8.converse_fails": lambda: proposition8_converse_claim(
        twin_id("xia2009.proposition8.converse"), TOP2_ORDER_PRESERVING),
    "xia2009.proposition9": lambda: implies_cases(
        twin_id("xia2009.proposition9"), cases=lambda n: proposition9_cases(n, step=-1), sizes=(3, 3), domain="twin",
        cite=_BY_ID["xia2009.proposition9"].citation, statement="twin: k => k - 1"),
    "xia2009.proposition9.example_strict": lambda: proposition9_example_claim(
        twin_id("xia2009.proposition9.example"), drop_prop4=True),
    "xia2009.theorem6.pair_set": lambda: theorem6_pairs_claim(twin_id("xia2009.theorem6.pairs"), drop_last=True,
                                                              sizes=(3, 3)),
    "xia2009.theorem6.most_probable_subgroup": lambda: implies_cases(
        twin_id("xia2009.theorem6.bayes"), cases=lambda n: theorem6_bayes_cases(n, weaken=True), sizes=(3, 3),
        domain="twin", cite=_BY_ID["xia2009.theorem6.most_probable_subgroup"].citation,
        statement="twin: the first pair dropped"),
    "xia2009.theorem7.swap_identity": lambda: theorem7_identity_claim(twin_id("xia2009.theorem7.identity"), sign=-1,
                                                                      sizes=(3, 3)),
    "xia2009.listmle_topk.order_sensitive": lambda: listmle_os_claim(
        twin_id("xia2009.listmle_topk"), strict_all=True, sizes=(3, 3)),
    "xia2009.cosine.difference_identity": lambda: cosine_identity_claim(twin_id("xia2009.cosine.identity"), factor=2),
    "xia2009.cosine_modified.order_sensitive": lambda: cosine_os_claim(
        twin_id("xia2009.cosine_modified"), modified=False, sizes=(3, 3)),
    **{cid: (lambda cid=cid, name=name: not_os_claim(twin_id(cid), name, sign=-1, location="twin", quote="twin",
                                                     what="twin"))
       for cid, name in _NOT_OS},
    "xia2009.proposition10.corrected": lambda: prop10_range_claim(
        twin_id("xia2009.proposition10.corrected"), below=True, drop_range=True, pin=PROP10_WITNESS),
    "xia2009.proposition10.listmle_consistent_above_c": lambda: prop10_range_claim(
        twin_id("xia2009.proposition10.above_c"), below=False, flip=True, pin=PROP10_WITNESS),
    "xia2009.proposition10.listmle_meets_hypothesis": lambda: prop10_hypothesis_claim(
        twin_id("xia2009.proposition10.hypothesis"), flip=True),
    "xia2009.listnet.difference_identity": lambda: listnet_identity_claim(
        twin_id("xia2009.listnet.identity"), factor=2, sizes=(3, 3)),
    "xia2009.listnet_modified.order_sensitive": lambda: listnet_os_claim(
        twin_id("xia2009.listnet_modified"), modified=False, sizes=(3, 3)),
    "xia2009.proposition10.q_hessian_decomposition": lambda: prop10_decomposition_claim(
        twin_id("xia2009.proposition10.hessian"), drop_c=True),
    "xia2009.proposition10.q_strictly_convex": lambda: prop10_convex_claim(
        twin_id("xia2009.proposition10.convex"), drop_family=True),
    "xia2009.proposition10.q_coercive": lambda: prop10_coercive_claim(
        twin_id("xia2009.proposition10.coercive"), drop_family=True),
    # numeric claims: the twin checks a pair the theorem does not cover, or a loss that is not order sensitive
    "xia2009.theorem7.listmle_top1_n3": lambda: theorem7_numeric_claim(twin_id("xia2009.theorem7.n3"), 3, 1, 1,
                                                                       check_pair=(2, 1)),
    "xia2009.theorem7.listmle_top2_n4": lambda: theorem7_numeric_claim(twin_id("xia2009.theorem7.n4"), 4, 2, 2,
                                                                       check_pair=(2, 1)),
    "xia2009.listnet_modified.order_sensitive.library_at_points": lambda: sensitivity_numeric_claim(
        twin_id("xia2009.listnet_modified.library"), "listnet", 3, 1, 1, location="twin", quote="twin",
        what="original ListNet"),
    "xia2009.listnet_cao.permutation_level_order_sensitive": lambda: sensitivity_numeric_claim(
        twin_id("xia2009.listnet_cao"), "listnet_cao", 3, 1, 1, location="twin", quote="twin",
        what="Cao at depth 1"),
}

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {
    "xia2009.theorem7.listmle_top1_n3": "unknown",
    "xia2009.theorem7.listmle_top2_n4": "unknown",
    "xia2009.listnet_modified.order_sensitive.library_at_points": "unknown",
    "xia2009.listnet_cao.permutation_level_order_sensitive": "unknown",
}

# further twins of a claim (description -> (claim id, builder)); each must be refuted too
EXTRA_TWINS: dict[str, tuple[str, Callable[[], Claim]]] = {
    "listnet derivative pairing with the sign flipped": ("xia2009.listnet.difference_identity", lambda: (
        listnet_identity_claim(twin_id("xia2009.listnet.identity_derivative"), flip_derivative=True, sizes=(3, 3)))),
}
