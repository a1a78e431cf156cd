"""Uematsu & Lee (2013), "Statistical Optimality in Multipartite Ranking and Ordinal
Regression", Technical Report No. 873, Department of Statistics, The Ohio State University.

Main claims
-----------
* Section 2: E[Y|x] = 1 - 2{1 + p_1/(1 - p_1)}^{-1} (regression in the bipartite case).
* Section 3: the cost schemes that turn R^_0 into R^_pairs, R^_ovo and R^_cons (every ranking
  of small samples, K = 2..4); f_0^* = E(c_1Y|x)/E(c_YK|x) under c_11 = c_KK = 0.
* Theorem 3 (i) and (ii), exhaustively over every weak order of m points (m = 2..6) on
  seeded finite instance spaces with exact rational posteriors.  **Erratum** (hypotheses):
  as printed ("non-negative" costs) both parts fail when c_1K = 0 (f_0^* is then constant
  where defined); corrected with c_1K > 0.  **Erratum** (proof): "R_0(f) - R_0(f_0^*) > 0
  unless f is an order-preserving transformation of f_0^*" fails when f_0^* has ties:
  breaking them is free; corrected: the minimisers are exactly the weak orders that keep
  every strict order of f_0^*.  Without the condition, f_0^* stops being optimal (0-1 costs,
  K = 4, m = 2).
* Identities (10) and (11) of the proof (K = 3..6), C(x,x')/C(x',x) = f_0^*(x)/f_0^*(x'), the
  symmetry of R_ji under the condition, the normalised restatement, its void case i = K and
  the additivity of the relative spacing; every scheme satisfying the condition (positive
  c_1i) is a Corollary 1 scheme (explicit w, s; K = 3..6).
* Corollary 1: the condition for c_ji = w_i w_j (s_i - s_j) as ONE identity (proved for all
  K), the identities of its proof, monotonicity, exhaustive optimality, E[Y|x] for linear
  costs; the linear and DCG schemes satisfy the condition for K = 2..12.
* Theorem 4 (i), (ii): the extra-term identities; on finite spaces the modified weights are
  exactly rank one, and for l(s) = e^{-s} the minimiser is (1/2) log f_0^* + const; without
  the extra term the exponential risk misorders (numeric witness).
* Section 4: Eq. (6) -- **erratum**: the first sum has l'(theta_j - t*) where the derivative
  gives l'(t* - theta_j); corrected form proved for every differentiable l; (7); the ORBoost
  <-> Corollary 1 mapping (s_j, w_j, implied c_ji, the displayed relation, c_ji >= 0, the
  condition); the proportional-odds likelihood, population equation, its K = 3 form and (8);
  both SVOR case tables and r(x) tables (z3 over the simplex), the median table; Section 4.4
  (indicator risk 1 - p_i; no cost scheme makes f_0^* a monotone function of argmax p).
* Section 5.2: Table 1 (AUC, P@m, MRR -- **erratum**: D(i) = 1/i gives MRR only with one
  relevant item), the optimal ranking for (9), DCG <-> c_ji = 2^i - 2^j, the AP swap formula
  and that sorting by P(Y = 2|x) maximises E[AP].
* Section 6: the normal-mixture f_0^*, ORBoost and proportional-odds f*, the SVOR step
  locations -1.02/0/1.02, c_13 = e^{2.06} = 7.846, e^{0.183} = 1.201, the SVOR thresholds,
  PAIRRANK2 <-> REG, ORBoost's K = 3 costs, the MovieLens proportions (**erratum**: 5039/97139
  is 5.19 %, printed 5.18 %), and Table 2 recomputed from the printed thresholds to the
  printed three decimals (interval enclosures decide every rounding).

Encoding notes
--------------
* Costs are ``symcal.ranking.costs.CostScheme`` objects; c_jj = 0 (the paper's c_11 = c_KK
  = 0), so the condition's pairs with j = 1 or i = K hold identically.  Densities g_k(x),
  g_k(x') are the symbols gx_k, gy_k and P(Y = k) is pi_k; P(Y > Y') is the symbol Z.
* Theorem 3 is checked on finite instance spaces (symcal.ranking.multipartite): R_0 is exact
  (Fractions, ties 1/2, including a point paired with itself) and minimised over all
  Fubini(m) weak orders.  Schemes satisfying the condition are drawn from the Corollary 1
  family with small integer w, s (which covers every scheme with positive c_1i satisfying
  the condition, claim ``theorem3.condition.is_corollary1_family``).  Instances where f_0^*
  is 0/0 at some point are outside the statement and skipped.
* Corollary 1 for all K: the condition at a pair (j, i) involves only w_1, w_j, w_i, w_K,
  s_1, s_j, s_i, s_K, so one polynomial identity in these eight symbols covers every pair of
  every K (for j = 1 or i = K symbols coincide, and a polynomial identity survives any
  substitution).
* ORBoost: theta_j = log u_j (u_j > 0), theta_0 = -inf, theta_K = +inf; s_1 = 0, w_1 =
  e^{-theta_1}, s_K = 1, w_K = e^{theta_{K-1}} are the limits of the printed s_j, w_j.
* Eq. (6) as printed is refuted with l(s) = e^{-s}, the loss the paper applies it to; the
  corrected derivative is proved for an arbitrary differentiable l (a sympy Function).
* SVOR: l(s) = (1 - s)_+ as Max(0, 1 - s); "f* in the r-table" is encoded as: for every real
  g, risk(f*) <= risk(g).  Version 2 assumes theta_1 <= theta_2 (Chu & Keerthi show the
  thresholds are ordered).  The median table's probability row is misaligned in the text
  extraction; encoded as r < 0 <=> p_1 > 1/2 (median 1), etc.
* Section 4.4: "monotone transformation of argmax_j p_j" means f_0^* = h(argmax p) with h
  strictly increasing; the witnesses (1/2,1/4,1/4), (2/3,1/3,0), (1/4,1/4,1/2) refute it
  for every scheme with c_13 + c_23 > 0 (where f_0^* is defined at them).
* Table 1's p-Norm Push row is not encoded: Rudin's objective sums powers of each negative's
  height, which is not of the form (9); at p = 1 the row is the AUC row.
* Numbers with exp/log/sqrt are enclosed by mpmath interval arithmetic (``iv``, 60 digits);
  a rounding counts as reproduced only when both ends of the enclosure round to the printed
  digits, else the check raises (an error, never a pass).
* Theorem 4's misordering witness is numeric (BFGS on the exponential risk), labelled so.

References
----------
../shared/papers/uematsu-lee-2013-multipartite-ranking.txt
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation, Finding, NumericOutcome, finite_check, identity, implies, numeric
from symcal.claims.core import Claim
from symcal.errors import BackendFailure
from symcal.ranking.costs import (
    CostScheme,
    corollary1_condition_identity,
    dcg_costs,
    linear_costs,
    orboost_costs,
    satisfies_theorem3_condition,
    zero_one_costs,
)
from symcal.ranking.multipartite import (
    FiniteInstanceSpace,
    check_theorem3,
    optimal_scores,
    random_space,
    respects_strict_order,
    surrogate_pair_weights,
    weak_orders,
)

PAPER = "uematsu2013"
F = Fraction
R = sympy.Rational
HALF = R(1, 2)
MINUS_HALF = R(-1, 2)
E_SQUARED = sympy.exp(2)


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


# ---------------------------------------------------------------------------------------
# Symbols
# ---------------------------------------------------------------------------------------


@functools.cache
def sym(name: str, **assumptions: Any) -> sympy.Symbol:
    return sympy.Symbol(name, **assumptions)


def P(k: int) -> sympy.Symbol:
    return sym(f"p_{k}", real=True)


def pvec(K: int) -> list[sympy.Symbol]:
    return [P(k) for k in range(1, K + 1)]


def on_simplex(e: Any, K: int) -> Any:
    """Substitute p_K = 1 - p_1 - ... - p_{K-1}."""
    return sympy.sympify(e).subs(P(K), 1 - sum(pvec(K - 1)))


def cs(j: int, i: int) -> Any:
    """Generic positive cost c_ji (c_jj = 0)."""
    return sympy.Integer(0) if j == i else sym(f"c_{j}_{i}", positive=True)


def condition_costs(K: int) -> Callable[[int, int], Any]:
    """Costs satisfying Theorem 3's condition: c_ji for 2 <= j < i <= K-1 replaced by
    (c_1i c_jK - c_1j c_iK) / c_1K."""

    def c(j: int, i: int) -> Any:
        if j == i:
            return sympy.Integer(0)
        if j >= 2 and i <= K - 1:
            return (cs(1, i) * cs(j, K) - cs(1, j) * cs(i, K)) / cs(1, K)
        return cs(j, i)

    return c


def pi(k: int) -> sympy.Symbol:
    return sym(f"pi_{k}", positive=True)


def gx(k: int) -> sympy.Symbol:
    return sym(f"gx_{k}", positive=True)


def gy(k: int) -> sympy.Symbol:
    return sym(f"gy_{k}", positive=True)


ZS = sym("Z", positive=True)  # P(Y > Y')


def pairs(K: int) -> list[tuple[int, int]]:
    return [(j, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)]


# ---------------------------------------------------------------------------------------
# Section 2
# ---------------------------------------------------------------------------------------


def regression_claim(id: str = "uematsu2013.section2.regression_identity", *, two: Any = 2) -> Any:
    p1 = P(1)
    return identity(
        id,
        p1 - (1 - p1),
        1 - two / (1 + p1 / (1 - p1)),
        conditions=[p1 >= 0, p1 < 1],
        cite=cite("Section 2", "E[Y|x] = P(Y=1|x) - P(Y=-1|x) ... 1 - 2{1 + p1(x)/(1 - p1(x))}^{-1}"),
        statement="E[Y|x] = p_1 - (1 - p_1) equals 1 - 2{1 + p_1/(1 - p_1)}^{-1}",
    )


# ---------------------------------------------------------------------------------------
# Section 3: R^_pairs, R^_ovo, R^_cons as R^_0 with costs
# ---------------------------------------------------------------------------------------


def empirical_costs(which: str, n: Sequence[int], variant: str = "") -> dict[tuple[int, int], Fraction]:
    """The printed cost schemes (``variant`` perturbs them for negative twins)."""
    K = len(n)
    N = sum(n[a] * n[b] for a in range(K) for b in range(a + 1, K))
    out = {}
    for j, i in pairs(K):
        if which == "pairs":
            out[(j, i)] = F(1, 2) if variant == "half" else F(1)
        elif which == "ovo":
            factor = F(1, K * (K - 1)) if variant == "half" else F(2, K * (K - 1))
            out[(j, i)] = factor * F(N, n[i - 1] * n[j - 1])
        else:
            top = i if variant == "to_i" else i - 1
            out[(j, i)] = F(N, K - 1) * sum((F(1, sum(n[:l]) * sum(n[l:])) for l in range(j, top + 1) if l < K), F(0))
    return out


def empirical_risks(
    labels: Sequence[int], scores: Sequence[int], K: int, which: str, variant: str
) -> tuple[Fraction, Fraction]:
    """(R^_0(f; c), 1 - U^_which(f)) for a sample without ties (Eqs. (2)-(4))."""
    n = [labels.count(k) for k in range(1, K + 1)]
    N = sum(n[a] * n[b] for a in range(K) for b in range(a + 1, K))
    mis = {(a, b): 0 for a, b in pairs(K)}  # pairs y_i = a < b = y_j with f(x_i) > f(x_j)
    for s in range(len(labels)):
        for t in range(len(labels)):
            if labels[s] < labels[t] and scores[s] > scores[t]:
                mis[(labels[s], labels[t])] += 1
    c = empirical_costs(which, n, variant)
    r0 = sum((c[k] * mis[k] for k in mis), F(0)) / N
    correct = {k: n[k[0] - 1] * n[k[1] - 1] - mis[k] for k in mis}
    if which == "pairs":
        u = F(sum(correct.values()), N)
    elif which == "ovo":
        u = F(2, K * (K - 1)) * sum((F(correct[(a, b)], n[a - 1] * n[b - 1]) for a, b in mis), F(0))
    else:
        u = F(0)
        for l in range(1, K):
            below, above = sum(n[:l]), sum(n[l:])
            ok = sum(correct[(a, b)] for a, b in mis if a <= l < b)
            u += F(ok, below * above)
        u /= K - 1
    return r0, 1 - u


def empirical_cases(K: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    rng = random.Random(K)
    for counts in itertools.product((1, 2), repeat=K):
        labels = tuple(k for k in range(1, K + 1) for _ in range(counts[k - 1]))
        n = len(labels)
        perms: Any = itertools.permutations(range(n)) if n <= 6 else (tuple(rng.sample(range(n), n)) for _ in range(60))
        for perm in perms:
            yield labels, tuple(perm)


def empirical_claim(id: str, which: str, *, variant: str = "", sizes: tuple[int, int] = (2, 4)) -> Any:
    quotes = {
        "pairs": "When c_ji = I(j < i), R^_0(f; c) = R^_pairs(f)",
        "ovo": "if c_ji = 2/(K(K-1)) (sum n_l' n_l / (n_i n_j)), R^_0(f; c) = R^_ovo(f)",
        "cons": "if c_ji = 1/(K-1) (sum n_l' n_l) sum_{l=j}^{i-1} (...)^{-1}, R^_0(f; c) = R^_cons(f)",
    }

    def holds(case: Any) -> Any:
        labels, scores = case
        K = max(labels)
        a, b = empirical_risks(labels, scores, K, which, variant)
        return a == b, f"R^_0 = {a}, 1 - U^_{which} = {b}"

    return finite_check(
        id,
        cases=empirical_cases,
        holds=holds,
        describe=lambda case: {"labels": list(case[0]), "scores": list(case[1])},
        sample='seeded rankings for n > 6',
        domain="samples with n_k in {1, 2} per category and every ranking without ties (60 seeded rankings when n > 6)",
        cite=cite("Section 3, after Eq. (5)", quotes[which]),
        statement=f"R^_0(f; c) = R^_{which}(f) for the printed {which} costs, every untied ranking",
        sizes=sizes,
    )


def expected_cost_claim(
    id: str = "uematsu2013.section3.f0_expected_costs", *, c11: Any = 0, sizes: tuple[int, int] = (2, 6)
) -> Any:
    def c(j: int, i: int) -> Any:
        if j == i:
            return c11 if j == 1 else sympy.Integer(0)
        return cs(j, i) if j < i else sympy.Integer(0)

    def lhs(K: int) -> Any:
        p = pvec(K)
        return sum(cs(1, i) * p[i - 1] for i in range(2, K + 1)) / sum(cs(j, K) * p[j - 1] for j in range(1, K))

    def rhs(K: int) -> Any:
        p = pvec(K)
        return sum(c(1, y) * p[y - 1] for y in range(1, K + 1)) / sum(
            (c(y, K) if y <= K else 0) * p[y - 1] for y in range(1, K + 1)
        )

    return identity(
        id,
        lhs,
        rhs,
        sizes=sizes,
        conditions=lambda K: [P(k) > 0 for k in range(1, K + 1)],
        cite=cite("Section 3, after Theorem 3", "f_0^*(x) = E(c_1Y | X = x) / E(c_YK | X = x)"),
        statement="under c_11 = c_KK = 0, f_0^* = E(c_1Y|x) / E(c_YK|x)",
    )


# ---------------------------------------------------------------------------------------
# The condition: sweeps, normalised form, Corollary 1 for all K
# ---------------------------------------------------------------------------------------


def sweep_claim(
    id: str,
    scheme: str,
    *,
    sizes: tuple[int, int] = (2, 12),
    quote: str = "",
    location: str = "Section 3, after Theorem 3",
) -> Any:
    build = {"linear": linear_costs, "dcg": dcg_costs, "zero_one": zero_one_costs}[scheme]

    def holds(K: int) -> Any:
        r = satisfies_theorem3_condition(build(K))
        return r.holds is True, r.reason

    return finite_check(
        id,
        cases=lambda K: [K],
        holds=holds,
        describe=lambda K: {"K": K, "scheme": scheme},
        domain=f"the {scheme} cost scheme, every pair (j, i), exact",
        cite=cite(location, quote or "c_ji = (i - j) I(i > j) ... meets the condition"),
        statement=f"the {scheme} scheme satisfies c_1K c_ji = c_1i c_jK - c_1j c_iK for every K in the sweep",
        sizes=sizes,
    )


def corollary1_all_k_claim(id: str = "uematsu2013.corollary1.condition.all_k", *, power: int = 1) -> Any:
    lhs, rhs, syms = corollary1_condition_identity()
    if power != 1:  # a twin: c_ji = w_i w_j (s_i - s_j)^power
        w1, wj, wi, wK, s1, sj, si, sK = syms

        def cc(wa: Any, sa: Any, wb: Any, sb: Any) -> Any:
            return wa * wb * (sb - sa) ** power

        lhs = cc(w1, s1, wK, sK) * cc(wj, sj, wi, si)
        rhs = cc(w1, s1, wi, si) * cc(wj, sj, wK, sK) - cc(w1, s1, wj, sj) * cc(wi, si, wK, sK)
    return identity(
        id,
        lhs,
        rhs,
        cite=cite(
            "Proof of Corollary 1",
            "c_{y'y} = c_1K (s_y - s_y') t_y t_y' I(y > y') satisfies the condition in Theorem 3",
        ),
        statement="c_ji = w_i w_j (s_i - s_j) satisfies c_1K c_ji = c_1i c_jK - c_1j c_iK at every pair",
        scope=(
            "all K >= 2: the condition at any pair (j, i) of any K is this identity in w_1, w_j, w_i, "
            "w_K, s_1, s_j, s_i, s_K (symbols coincide when j = 1 or i = K)"
        ),
    )


def normalised_claim(id: str = "uematsu2013.theorem3.condition.normalised", *, sign: int = 1) -> Any:
    c1K, cjK, ciK, c1i, c1j = (sym(n, positive=True) for n in ("c_1_K", "c_j_K", "c_i_K", "c_1_i", "c_1_j"))
    normalised_rhs = (cjK / c1K) * (ciK / c1K) * (c1i / ciK - sign * c1j / cjK)
    return identity(
        id,
        c1K * normalised_rhs,
        (c1i * cjK - c1j * ciK) / c1K,
        cite=cite("Section 3, after Theorem 3", "c_ji/c_1K = (c_jK/c_1K)(c_iK/c_1K)(c_1i/c_iK - c_1j/c_jK)"),
        statement="c_1K x the normalised right side = (c_1i c_jK - c_1j c_iK)/c_1K, so the two forms are equivalent",
    )


def void_claim(id: str = "uematsu2013.theorem3.condition.void_at_i_eq_k", *, cKK: Any = 0, c11: Any = 0) -> Any:
    c1K, cjK, c1j, ciK = (sym(n, positive=True) for n in ("c_1_K", "c_j_K", "c_1_j", "c_i_K"))
    # i = K: c_1K c_jK = c_1K c_jK - c_1j c_KK ; j = 1: c_1K c_1i = c_1i c_1K - c_11 c_iK
    c1i = sym("c_1_i", positive=True)
    return identity(
        id,
        sympy.Matrix([c1K * cjK, c1K * c1i]),
        sympy.Matrix([c1K * cjK - c1j * cKK, c1i * c1K - c11 * ciK]),
        cite=cite("Section 3, after Theorem 3", "the restriction in the theorem becomes void when i = K"),
        statement="with c_11 = c_KK = 0 the condition holds identically at i = K and at j = 1",
    )


def additivity_claim(id: str = "uematsu2013.theorem3.condition.additive_spacing", *, drop: bool = False) -> Any:
    r = [sym(f"r_{n}", real=True) for n in ("i", "j", "k")]  # r_a = c_1a / c_aK
    lhs = (r[0] - r[1]) + (0 if drop else (r[1] - r[2]))
    return identity(
        id,
        lhs,
        r[0] - r[2],
        cite=cite("Section 3, after Theorem 3", "the relative spacing induced in the cost space is additive"),
        statement="(c_1i/c_iK - c_1j/c_jK) + (c_1j/c_jK - c_1k/c_kK) = c_1i/c_iK - c_1k/c_kK",
    )


def corollary1_form_claim(
    id: str = "uematsu2013.theorem3.condition.is_corollary1_family",
    *,
    with_condition: bool = True,
    sizes: tuple[int, int] = (3, 6),
) -> Any:
    """Every scheme with the condition (c_1i > 0) is w_i w_j (s_i - s_j) with w_1 = 1, s_1 = 0,
    w_i = c_1i (1 + u_i), s_i = 1/(1 + u_i), u_i = c_iK/(c_1K c_1i), u_K = 0."""

    def parts(K: int) -> tuple[Any, Any]:
        c = condition_costs(K) if with_condition else (lambda j, i: cs(j, i))
        u = {i: (c(i, K) / (c(1, K) * c(1, i)) if i < K else 0) for i in range(2, K + 1)}
        w = {1: sympy.Integer(1), **{i: c(1, i) * (1 + u[i]) for i in range(2, K + 1)}}
        s = {1: sympy.Integer(0), **{i: 1 / (1 + u[i]) for i in range(2, K + 1)}}
        return (
            sympy.Matrix([w[i] * w[j] * (s[i] - s[j]) for j, i in pairs(K)]),
            sympy.Matrix([c(j, i) for j, i in pairs(K)]),
        )

    return identity(
        id,
        lambda K: parts(K)[0],
        lambda K: parts(K)[1],
        sizes=sizes,
        cite=cite(
            "Section 3, before Corollary 1",
            "we can treat the cost scheme in Theorem 3 generally given in the form of c_ji = w_i w_j (s_i - s_j)",
        ),
        statement="a scheme satisfying the condition (c_1i > 0) equals w_i w_j (s_i - s_j) for explicit w >= 0 "
        "and increasing s",
    )


# ---------------------------------------------------------------------------------------
# Theorem 3 on finite instance spaces
# ---------------------------------------------------------------------------------------


def simple_posteriors(K: int) -> list[tuple[Fraction, ...]]:
    """Posterior vectors with denominators 1 and 2."""
    out = []
    for a in range(K):
        out.append(tuple(F(1) if k == a else F(0) for k in range(K)))
    for a, b in itertools.combinations(range(K), 2):
        out.append(tuple(F(1, 2) if k in (a, b) else F(0) for k in range(K)))
    return out


def defined(space: FiniteInstanceSpace, costs: CostScheme) -> bool:
    """f_0^* is not 0/0 at any point."""
    return all(N != 0 or M != 0 for N, M in optimal_scores(space, costs))


def instances(K: int, m: int, n_random: int, seed: int) -> Iterator[FiniteInstanceSpace]:
    """Small structured instances first (posteriors with denominators 1, 2, uniform marginal),
    then seeded random ones with small denominators."""
    if m == 2 and K <= 4:
        for a, b in itertools.combinations(simple_posteriors(K), 2):
            try:
                yield FiniteInstanceSpace((F(1, 2), F(1, 2)), (a, b))
            except Exception:
                continue
    rng = random.Random(seed * 1000 + m * 10 + K)
    for t in range(n_random):
        yield random_space(m, K, rng, den=3 + t % 4, positive=t % 3 != 0)


def corollary1_schemes(K: int, count: int, seed: int, *, w_min: int = 0) -> list[CostScheme]:
    rng = random.Random(seed + K)
    out = []
    for _ in range(count):
        w = [rng.randint(w_min, 2) for _ in range(K)]
        s = sorted(rng.sample(range(0, 3 * K), K))
        out.append(
            CostScheme(K, {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)}, f"w={w}, s={s}")
        )
    return out


def k3_schemes(*, positive_c13: bool) -> list[CostScheme]:
    grid = sorted(itertools.product(range(3), repeat=3), key=lambda c: (sum(c), c))
    return [
        CostScheme(3, {(1, 2): a, (1, 3): b, (2, 3): c}, f"c=({a},{b},{c})")
        for a, b, c in grid
        if (b > 0 or not positive_c13) and (a, b, c) != (0, 0, 0)
    ]


# instances per size m
N_RANDOM = {2: 6, 3: 6, 4: 4, 5: 2, 6: 1}


def theorem3_cases(
    part: str, *, c1K_positive: bool, twin_costs: CostScheme | None = None
) -> Callable[[int], Iterator[Any]]:
    def cases(m: int) -> Iterator[Any]:
        if twin_costs is not None:
            schemes = [twin_costs]
        elif part == "i":
            schemes = k3_schemes(positive_c13=c1K_positive)
        else:
            schemes = [s for K in (4, 5) for s in corollary1_schemes(K, 12, 11, w_min=1 if c1K_positive else 0)]
            if not c1K_positive:  # the edge c_1K = 0 (w_1 = 0) first
                schemes.sort(key=lambda s: s.c(1, s.K) != 0)
        n = N_RANDOM.get(m, 1)
        for costs in schemes:
            for space in instances(costs.K, m, n, seed=7):
                if defined(space, costs):
                    yield costs, space

    return cases


def describe_case(case: Any) -> dict[str, Any]:
    costs, space = case
    return {"costs": str(costs), **space.to_json()}


def theorem3_claim(
    id: str,
    part: str,
    *,
    c1K_positive: bool,
    sizes: tuple[int, int],
    twin_costs: CostScheme | None = None,
    finding: Finding | None = None,
    expected: str | None = None,
) -> Any:
    quote = {
        "i": "When K = 3, let f_0^*(x) := (c12 P(Y=2|x) + c13 P(Y=3|x)) / (c13 P(Y=1|x) + c23 P(Y=2|x)). "
        "Then for any ranking function f, R_0(f_0^*; c) <= R_0(f; c).",
        "ii": "If c_1K c_ji = c_1i c_jK - c_1j c_iK for all 1 <= j < i <= K, then for any ranking function f, "
        "R_0(f_0^*; c) <= R_0(f; c).",
    }[part]

    def holds(case: Any) -> Any:
        costs, space = case
        cond = satisfies_theorem3_condition(costs)
        if part == "ii" and twin_costs is None and cond.holds is not True:
            raise BackendFailure(f"generated scheme {costs} violates the condition")
        r = check_theorem3(space, costs)
        return r.f0_optimal, (
            f"R_0(f_0^*) = {r.f0_risk}, min over {r.orders} weak orders = {r.min_risk}; "
            f"f_0^* levels {list(r.f0_levels)}, minimisers {[list(x) for x in r.minimisers[:3]]}"
        )

    hyp = "c_1K > 0" if c1K_positive else "non-negative costs (c_1K = 0 allowed)"
    dom = (
        "K = 3, costs in {0,1,2}^3"
        if part == "i"
        else "K = 4, 5, Corollary 1 schemes with w in {0..2}, s increasing integers"
    )
    return finite_check(
        id,
        cases=theorem3_cases(part, c1K_positive=c1K_positive, twin_costs=twin_costs),
        holds=holds,
        describe=describe_case,
        sample='a grid of cost schemes and seeded finite instance spaces',
        domain=f"{dom} ({hyp}) x instance spaces of m points x every weak order of the m points",
        cite=cite(f"Theorem 3 ({part})", quote),
        statement=f"Theorem 3 ({part}) with {hyp}: R_0(f_0^*) = min over all weak orders of m points",
        sizes=sizes,
        finding=finding,
        expected=expected,
    )


def strictness_claim(
    id: str,
    *,
    corrected: bool,
    sizes: tuple[int, int],
    finding: Finding | None = None,
    twin_costs: CostScheme | None = None,
) -> Any:
    def holds(case: Any) -> Any:
        costs, space = case
        r = check_theorem3(space, costs)
        if corrected:
            want = {lv for lv in weak_orders(space.m) if respects_strict_order(lv, r.f0_levels)}
            ok = want == set(r.minimisers)
            what = "the weak orders keeping every strict order of f_0^*"
        else:
            ok = set(r.minimisers) == {r.f0_levels}
            what = "f_0^*'s own weak order"
        return ok, f"minimisers {[list(x) for x in r.minimisers]}; f_0^* levels {list(r.f0_levels)}; claimed: {what}"

    def cases(m: int) -> Iterator[Any]:
        schemes = [twin_costs] if twin_costs else [s for K in (3, 4) for s in corollary1_schemes(K, 6, 23, w_min=1)]
        for costs in schemes:
            for space in instances(costs.K, m, N_RANDOM.get(m, 1), seed=5):
                if defined(space, costs):
                    yield costs, space

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=describe_case,
        sample='a grid of cost schemes and seeded finite instance spaces',
        domain="K = 3, 4 Corollary 1 schemes with w >= 1 x instance spaces (positive marginal) x every weak order",
        cite=cite(
            "Appendix, proof of Theorem 3",
            "Hence, R_0(f) - R_0(f_0^*) > 0 unless f is an order-preserving transformation of f_0^*.",
        ),
        statement=(
            "the minimisers of R_0 are exactly the weak orders that keep every strict order of f_0^*"
            if corrected
            else "R_0(f) > R_0(f_0^*) unless f induces f_0^*'s weak order"
        ),
        sizes=sizes,
        finding=finding,
    )


def condition_needed_claim(
    id: str = "uematsu2013.theorem3.ii.condition_needed",
    *,
    costs: CostScheme | None = None,
    sizes: tuple[int, int] = (2, 3),
) -> Any:
    scheme = costs or zero_one_costs(4)

    def holds(case: Any) -> Any:
        c, space = case
        r = check_theorem3(space, c)
        return (
            r.f0_optimal,
            f"R_0(f_0^*) = {r.f0_risk}, minimum = {r.min_risk}, minimisers {list(map(list, r.minimisers))}",
        )

    def cases(m: int) -> Iterator[Any]:
        for space in instances(scheme.K, m, 20, seed=3):
            if defined(space, scheme):
                yield scheme, space

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=describe_case,
        sample='seeded finite instance spaces',
        domain=f"{scheme.name} costs (K = {scheme.K}) x instance spaces x every weak order",
        cite=cite("Theorem 3 (ii)", "If c_1K c_ji = c_1i c_jK - c_1j c_iK for all 1 <= j < i <= K, then ..."),
        statement=f"f_0^* minimises R_0 also for the {scheme.name} costs at K = {scheme.K}, which violate the "
        "condition "
        "(the condition is needed: expected refuted)",
        sizes=sizes,
        expected="refuted" if costs is None else "proved",
    )


# ---------------------------------------------------------------------------------------
# Identities (10), (11) and steps of the proof
# ---------------------------------------------------------------------------------------


def lhs_pairs(K: int, c: Callable[[int, int], Any], x: Callable[[int], Any] = gx, y: Callable[[int], Any] = gy) -> Any:
    return sum(c(j, i) * pi(i) * pi(j) / ZS * x(i) * y(j) for j, i in pairs(K))


def eq10_claim(id: str = "uematsu2013.theorem3.proof.eq10", *, d_sign: int = -1) -> Any:
    c = cs
    rhs = d_sign * c(1, 2) * c(2, 3) / c(1, 3) * pi(2) * pi(2) / ZS * gx(2) * gy(2) + 1 / (c(1, 3) * ZS) * (
        c(1, 3) * gx(3) * pi(3) + c(1, 2) * gx(2) * pi(2)
    ) * (c(1, 3) * gy(1) * pi(1) + c(2, 3) * gy(2) * pi(2))
    return identity(
        id,
        lhs_pairs(3, c),
        rhs,
        cite=cite(
            "Appendix, proof of Theorem 3 (i), Eq. (10)",
            "sum c_ji P(Y=i,Y'=j|Y>Y') g_i(x) g_j(x') = -c12 c23/c13 ... + 1/(c13 P(Y>Y')) [...][...]",
        ),
        statement="identity (10): the K = 3 pair mass = D(x, x') + C(x, x')",
    )


def eq11_rhs(K: int, c: Callable[[int, int], Any], *, r_sign: int = -1) -> Any:
    D = -sum(c(1, i) * c(i, K) / c(1, K) * pi(i) ** 2 / ZS * gx(i) * gy(i) for i in range(2, K))
    C = (
        1
        / (c(1, K) * ZS)
        * sum(c(1, i) * gx(i) * pi(i) for i in range(2, K + 1))
        * sum(c(j, K) * gy(j) * pi(j) for j in range(1, K))
    )
    Rs = sum(
        pi(j)
        * pi(i)
        / ZS
        * (
            (c(j, i) * c(1, K) - c(1, i) * c(j, K)) / c(1, K) * gx(i) * gy(j)
            + r_sign * c(1, j) * c(i, K) / c(1, K) * gy(i) * gx(j)
        )
        for j, i in pairs(K)
    )
    return D + C + Rs


def eq11_claim(
    id: str = "uematsu2013.theorem3.proof.eq11", *, r_sign: int = -1, sizes: tuple[int, int] = (3, 6)
) -> Any:
    return identity(
        id,
        lambda K: lhs_pairs(K, cs),
        lambda K: eq11_rhs(K, cs, r_sign=r_sign),
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Theorem 3 (ii), Eq. (11)",
            "= D(x, x') + C(x, x') + sum P(Y'=j)P(Y=i)/P(Y>Y') R_ji(x, x')",
        ),
        statement="identity (11) with c_11 = c_KK = 0, for generic costs (no condition needed)",
    )


def posterior(k: int, K: int) -> Any:
    return gx(k) * pi(k) / sum(gx(a) * pi(a) for a in range(1, K + 1))


def c_ratio_claim(
    id: str = "uematsu2013.theorem3.proof.c_ratio", *, sizes: tuple[int, int] = (3, 6), swap: bool = False
) -> Any:
    def lhs(K: int) -> Any:
        def Cxy(x: Callable[[int], Any], y: Callable[[int], Any]) -> Any:
            return (
                sum(cs(1, i) * x(i) * pi(i) for i in range(2, K + 1))
                * sum(cs(j, K) * y(j) * pi(j) for j in range(1, K))
                / (cs(1, K) * ZS)
            )

        return Cxy(gx, gy) / Cxy(gy, gx)

    def f0(g: Callable[[int], Any], K: int) -> Any:
        # P(Y = k | x) = g_k(x) pi_k / S(x); the normaliser S(x) > 0 is a symbol of its own
        norm = sym("S_x" if g is gx else "S_y", positive=True)
        post = [g(k) * pi(k) / norm for k in range(1, K + 1)]
        return sum(cs(1, i) * post[i - 1] for i in range(2, K + 1)) / sum(cs(j, K) * post[j - 1] for j in range(1, K))

    def rhs(K: int) -> Any:
        return f0(gx, K) / f0(gy, K) if not swap else f0(gy, K) / f0(gx, K)

    return identity(
        id,
        lhs,
        rhs,
        sizes=sizes,
        cite=cite("Appendix, proof of Theorem 3", "From C(x, x')/C(x', x) = f_0^*(x)/f_0^*(x')"),
        statement="C(x, x')/C(x', x) = f_0^*(x)/f_0^*(x') with f_0^* written in the posteriors",
    )


def rji_claim(
    id: str = "uematsu2013.theorem3.proof.rji_symmetric",
    *,
    with_condition: bool = True,
    sizes: tuple[int, int] = (4, 6),
) -> Any:
    def side(K: int, flip: bool) -> Any:
        c = condition_costs(K) if with_condition else cs
        x, y = (gy, gx) if flip else (gx, gy)
        return sympy.Matrix(
            [
                (c(j, i) * c(1, K) - c(1, i) * c(j, K)) / c(1, K) * x(i) * y(j)
                - c(1, j) * c(i, K) / c(1, K) * y(i) * x(j)
                for j, i in pairs(K)
            ]
        )

    return identity(
        id,
        lambda K: side(K, False),
        lambda K: side(K, True),
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Theorem 3 (ii)",
            "the condition on the misranking costs implies that ... (c_ji c_1K - c_1i c_jK + c_1j c_iK)/c_1K (...) = 0",
        ),
        statement="under the condition every R_ji(x, x') is symmetric in x, x' (its antisymmetric part vanishes)",
    )


# ---------------------------------------------------------------------------------------
# Corollary 1
# ---------------------------------------------------------------------------------------


def ws(K: int) -> tuple[list[Any], list[Any]]:
    return (
        [sym(f"w_{k}", positive=True) for k in range(1, K + 1)],
        [sym(f"s_{k}", real=True) for k in range(1, K + 1)],
    )


def corollary1_f0_claim(
    id: str = "uematsu2013.corollary1.proof.f0_forms", *, sizes: tuple[int, int] = (3, 6), drop_weights: bool = False
) -> Any:
    """Both forms of the proof, cross-multiplied (all denominators are positive)."""

    def residuals(K: int) -> Any:
        w, s = ws(K)
        p = pvec(K)
        c = {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)}
        num = sum(c[(1, i)] * p[i - 1] for i in range(2, K + 1))  # f_0^* = num / den (Theorem 3)
        den = sum(c[(j, K)] * p[j - 1] for j in range(1, K))
        num2 = w[0] * sum((s[i - 1] - s[0]) * w[i - 1] * p[i - 1] for i in range(2, K + 1))
        den2 = w[K - 1] * sum((s[K - 1] - s[j - 1]) * w[j - 1] * p[j - 1] for j in range(1, K))
        wt = [1] * K if drop_weights else w
        sw = sum(s[i] * wt[i] * p[i] for i in range(K))  # E = sw / tot
        tot = sum(wt[j] * p[j] for j in range(K))
        num3, den3 = w[0] * (sw - s[0] * tot), w[K - 1] * (s[K - 1] * tot - sw)
        return sympy.Matrix([sympy.expand(num * den2 - num2 * den), sympy.expand(num * den3 - num3 * den)])

    return identity(
        id,
        residuals,
        lambda K: sympy.zeros(2, 1),
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Corollary 1",
            "f_0^*(x) = t_1 sum (s_i - s_1) w_i P(Y=i|x) / (t_K sum (s_K - s_j) w_j P(Y=j|x)) = ... (E - "
            "s_1)/(s_K - E)",
        ),
        statement=(
            "for c_ji = w_i w_j (s_i - s_j): f_0^* = w_1 sum (s_i - s_1) w_i p_i / (w_K sum (s_K - s_j) w_j p_j) "
            "= (w_1/w_K)(E - s_1)/(s_K - E), E = sum s w p / sum w p (cross-multiplied)"
        ),
    )


def corollary1_monotone_claim(id: str = "uematsu2013.corollary1.proof.monotone", *, flip: bool = False) -> Any:
    s1, sK, e1, e2 = (sym(n, real=True) for n in ("s_1", "s_K", "E_1", "E_2"))
    lhs = (e1 - s1) * (sK - e2)
    rhs = (e2 - s1) * (sK - e1)
    concl = lhs > rhs if flip else lhs < rhs
    return implies(
        id,
        hypotheses={"ordered": [s1 < e1, e1 < e2, e2 < sK]},
        conclusion=concl,
        cite=cite("Appendix, proof of Corollary 1", "It is clearly a monotonic transformation of f_0^*(x)"),
        statement="E -> (E - s_1)/(s_K - E) is increasing on (s_1, s_K) (compared by cross-multiplication)",
    )


def corollary1_optimal_claim(
    id: str = "uematsu2013.corollary1", *, sizes: tuple[int, int] = (2, 5), unweighted_denominator: bool = False
) -> Any:
    def holds(case: Any) -> Any:
        (w, s), space = case
        K = len(w)
        costs = CostScheme(K, {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)})
        scores = []
        for row in space.posteriors:
            den = sum((F(1) if unweighted_denominator else w[k]) * row[k] for k in range(K))
            scores.append(sum(s[k] * w[k] * row[k] for k in range(K)) / den)
        from symcal.ranking.multipartite import levels_from_scores, pair_table

        lv = levels_from_scores(scores)
        table = pair_table(space, costs)
        r = check_theorem3(space, costs)
        risk = table.risk(lv)
        return risk == r.min_risk, f"R_0(Corollary 1's f_0^*) = {risk}, minimum = {r.min_risk}"

    def cases(m: int) -> Iterator[Any]:
        rng = random.Random(31)
        for K in (3, 4, 5):
            for _ in range(6):
                w = [rng.randint(0, 3) for _ in range(K)]
                if sum(w) == 0:
                    continue
                s = sorted(rng.sample(range(0, 4 * K), K))
                for space in instances(K, m, N_RANDOM.get(m, 1), seed=13):
                    if all(sum(w[k] * row[k] for k in range(K)) > 0 for row in space.posteriors):
                        yield (w, s), space

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=lambda case: {"w": case[0][0], "s": case[0][1], **case[1].to_json()},
        sample='a grid of weights and scales and seeded finite instance spaces',
        domain="K = 3..5, w in {0..3}^K, increasing integer s, instance spaces x every weak order",
        cite=cite(
            "Corollary 1",
            "Suppose that c_ji = w_i w_j (s_i - s_j) I(i > j) ... Then for any ranking "
            "function f, R_0(f_0^*; c) <= R_0(f; c).",
        ),
        statement="f_0^* = sum s_i w_i p_i / sum w_j p_j minimises R_0 for c_ji = w_i w_j (s_i - s_j) (w >= 0, "
        "s increasing)",
        sizes=sizes,
    )


def expected_relevance_claim(
    id: str = "uematsu2013.corollary1.expected_relevance", *, square: bool = False, sizes: tuple[int, int] = (2, 6)
) -> Any:
    def parts(K: int) -> tuple[Any, Any]:
        p = pvec(K)
        s = [k * k if square else k for k in range(1, K + 1)]
        costs = {(j, i): (s[i - 1] - s[j - 1]) for j, i in pairs(K)}
        same = all(costs[(j, i)] == i - j for j, i in pairs(K))
        E = on_simplex(sum(k * p[k - 1] for k in range(1, K + 1)), K)
        cor_f0 = on_simplex(sum(s[k - 1] * p[k - 1] for k in range(1, K + 1)) / sum(p), K)
        return sympy.Matrix([cor_f0, int(same)]), sympy.Matrix([E, 1])

    return identity(
        id,
        lambda K: parts(K)[0],
        lambda K: parts(K)[1],
        sizes=sizes,
        cite=cite(
            "Section 3, after Corollary 1",
            "when s_j = j and w_j = 1, c_ji = (i - j) I(i > j) and hence f_0^*(x) = E[Y|X = x]",
        ),
        statement="s_j = j, w_j = 1 give c_ji = i - j and Corollary 1's f_0^* = E[Y|x]",
    )


# ---------------------------------------------------------------------------------------
# Theorem 4
# ---------------------------------------------------------------------------------------


def theorem4_i_claim(id: str = "uematsu2013.theorem4.i.identity", *, divide: bool = True) -> Any:
    c = cs
    extra = c(1, 2) * c(2, 3) / (c(1, 3) if divide else 1) * pi(2) * pi(2) / ZS * gx(2) * gy(2)
    lhs = lhs_pairs(3, c) + extra
    a = c(1, 3) * pi(3) + c(1, 2) * pi(2)
    b = c(1, 3) * pi(1) + c(2, 3) * pi(2)
    hp = (c(1, 2) * gx(2) * pi(2) + c(1, 3) * gx(3) * pi(3)) / (c(1, 2) * pi(2) + c(1, 3) * pi(3))
    hm = (c(1, 3) * gy(1) * pi(1) + c(2, 3) * gy(2) * pi(2)) / (c(1, 3) * pi(1) + c(2, 3) * pi(2))
    return identity(
        id,
        lhs,
        a * b / (c(1, 3) * ZS) * hp * hm,
        cite=cite(
            "Appendix, proof of Theorem 4 (i)",
            "R_l(f) + c12 c23/c13 E[l|Y=2,Y'=2] P(Y=2,Y'=2)/P(Y>Y') = [...][...]/(c13 P(Y>Y')) int int l h_+ h_-",
        ),
        statement="Theorem 4 (i): pair weight + the extra term = const x h_+(x) h_-(x') (the integrands agree)",
    )


def theorem4_ii_claim(
    id: str = "uematsu2013.theorem4.ii.identity", *, with_condition: bool = True, sizes: tuple[int, int] = (4, 6)
) -> Any:
    def sides(K: int) -> tuple[Any, Any]:
        c = condition_costs(K) if with_condition else cs
        lhs = lhs_pairs(K, c)
        lhs += sum(c(1, j) * c(i, K) / c(1, K) * pi(i) * pi(j) / ZS * gx(i) * gy(j) for j, i in pairs(K))
        lhs += sum(c(1, i) * c(i, K) / c(1, K) * pi(i) ** 2 / ZS * gx(i) * gy(i) for i in range(2, K))
        lhs += sum(c(1, j) * c(i, K) / c(1, K) * pi(j) * pi(i) / ZS * gx(j) * gy(i) for j, i in pairs(K))
        A = sum(c(1, i) * pi(i) for i in range(2, K + 1))
        B = sum(c(j, K) * pi(j) for j in range(1, K))
        hp = sum(c(1, i) * gx(i) * pi(i) for i in range(2, K + 1)) / A
        hm = sum(c(j, K) * gy(j) * pi(j) for j in range(1, K)) / B
        return lhs, A * B / (c(1, K) * ZS) * hp * hm

    return identity(
        id,
        lambda K: sides(K)[0],
        lambda K: sides(K)[1],
        sizes=sizes,
        cite=cite(
            "Appendix, proof of Theorem 4 (ii)",
            "R_l(f) + sum c_1j c_iK/c_1K E[l|Y=i,Y'=j] ... = [...][...]/(c_1K P(Y>Y')) int int l h_+ h_-",
        ),
        statement="Theorem 4 (ii): under the condition, pair weight + the three extra terms = const x h_+(x) h_-(x')",
    )


def rank_one_claim(
    id: str = "uematsu2013.theorem4.finite.rank_one",
    *,
    costs: CostScheme | None = None,
    sizes: tuple[int, int] = (2, 4),
) -> Any:
    def holds(case: Any) -> Any:
        c, space = case
        W = surrogate_pair_weights(space, c, extra=True)
        K = space.K
        q = [[space.joint(a, k) for k in range(1, K + 1)] for a in range(space.m)]
        N = [sum((c.c(1, i) * q[a][i - 1] for i in range(2, K + 1)), F(0)) for a in range(space.m)]
        M = [sum((c.c(j, K) * q[a][j - 1] for j in range(1, K)), F(0)) for a in range(space.m)]
        bad = [(a, b) for a in range(space.m) for b in range(space.m) if W[a][b] != N[a] * M[b] / c.c(1, K)]
        return not bad, f"entries differing from N_a M_b / c_1K: {bad[:3]}"

    def cases(m: int) -> Iterator[Any]:
        schemes = [costs] if costs else [s for K in (3, 4, 5) for s in corollary1_schemes(K, 4, 41, w_min=1)]
        for c in schemes:
            for space in instances(c.K, m, 3, seed=17):
                yield c, space

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=describe_case,
        sample='a grid of cost schemes and seeded finite instance spaces',
        domain="schemes with the condition (Corollary 1, w >= 1), K = 3..5 x instance spaces, exact",
        cite=cite("Theorem 4", "f^* minimizing R_l(f) + [extra terms] is a monotonic transformation of f_0^*"),
        statement="on a finite space the weights of l(f(x_a) - f(x_b)) in Theorem 4's modified risk are N_a "
        "M_b / c_1K (rank one)",
        sizes=sizes,
    )


def exp_minimiser_claim(
    id: str = "uematsu2013.theorem4.exp_minimiser", *, half: Any = HALF, sizes: tuple[int, int] = (2, 4)
) -> Any:
    def grad(m: int) -> Any:
        Ns = [sym(f"N_{a}", positive=True) for a in range(m)]
        Ms = [sym(f"M_{a}", positive=True) for a in range(m)]
        fs = [sym(f"f_{a}", real=True) for a in range(m)]
        risk = sum(Ns[a] * Ms[b] * sympy.exp(-(fs[a] - fs[b])) for a in range(m) for b in range(m))
        at = {fs[a]: half * sympy.log(Ns[a] / Ms[a]) for a in range(m)}
        return sympy.Matrix([sympy.diff(risk, fs[k]).subs(at) for k in range(m)])

    return identity(
        id,
        grad,
        lambda m: sympy.zeros(m, 1),
        sizes=sizes,
        cite=cite(
            "Theorem 4 and Section 6.1",
            "f^* for pairwise ranking risk minimization under exponential loss is "
            "given by 1/2 log f_0^* up to a constant",
        ),
        statement="for rank-one weights N_a M_b and l(s) = e^{-s}, f_a = (1/2) log(N_a/M_a) zeroes the gradient "
        "(the risk is convex, so it is the minimiser)",
    )


MISORDER_SPACE = FiniteInstanceSpace(
    (F(1, 7), F(5, 7), F(1, 7)),
    ((F(3, 8), F(1, 8), F(1, 2)), (F(2, 5), F(2, 5), F(1, 5)), (F(1, 7), F(4, 7), F(2, 7))),
)


def minimise_exp_risk(W: Sequence[Sequence[Fraction]]) -> tuple[Any, Any]:
    import numpy as np
    from scipy.optimize import minimize

    Wf = np.array([[float(x) for x in r] for r in W])

    def obj(g: Any) -> Any:
        f = np.concatenate([[0.0], g])
        return float((Wf * np.exp(-(f[:, None] - f[None, :]))).sum())

    def grad(g: Any) -> Any:
        f = np.concatenate([[0.0], g])
        E = Wf * np.exp(-(f[:, None] - f[None, :]))
        return (-E.sum(1) + E.sum(0))[1:]

    r = minimize(obj, np.zeros(len(Wf) - 1), jac=grad, method="BFGS", options={"gtol": 1e-12})
    return np.concatenate([[0.0], r.x]), r


def misorder_claim(id: str = "uematsu2013.theorem4.without_extra_term_misorders", *, extra: bool = False) -> Any:
    costs = zero_one_costs(3)

    def run() -> NumericOutcome:
        import numpy as np

        W = surrogate_pair_weights(MISORDER_SPACE, costs, extra=extra)
        f, res = minimise_exp_risk(W)
        sc = optimal_scores(MISORDER_SPACE, costs)
        f0 = [N / M for N, M in sc]
        worst = 0.0
        pair = None
        for a in range(3):
            for b in range(3):
                if f0[a] > f0[b] and f[b] - f[a] > worst:
                    worst, pair = float(f[b] - f[a]), (a + 1, b + 1)
        grad_norm = float(np.linalg.norm(res.jac))
        return NumericOutcome(
            ok=bool(res.success) and pair is not None,
            method="scipy BFGS (analytic gradient, gtol 1e-12) on sum W_ab exp(-(f_a - f_b)), f_1 = 0",
            values={
                "f*": [round(float(v), 8) for v in f],
                "f0*": [str(v) for v in f0],
                "misordered pair (a, b) with f0(a) > f0(b)": pair,
                "grad norm": grad_norm,
            },
            tolerance=1e-6,
            margin=worst,
            note="margin = f*(x_b) - f*(x_a) for a pair that f_0^* orders x_a above x_b (positive = misordered)",
        )

    return numeric(
        id,
        run=run,
        cite=cite(
            "Section 5.1", "minimizing the convex risk above alone does not lead to the best ranking function f_0^*"
        ),
        statement=(
            "K = 3, 0-1 costs, a 3-point space: the minimiser of the exponential pairwise risk R_l "
            + ("with Theorem 4's extra term" if extra else "without the extra term")
            + " misorders a pair of f_0^*"
        ),
    )


# ---------------------------------------------------------------------------------------
# Eq. (6), (7) and ORBoost <-> Corollary 1
# ---------------------------------------------------------------------------------------


TT = sym("t", real=True)


def theta(j: int) -> sympy.Symbol:
    return sym(f"theta_{j}", real=True)


def eq6_sum(K: int, l: Callable[[Any], Any]) -> Any:
    p = pvec(K)
    return sum(p[j - 1] * l(theta(j) - TT) + p[j] * l(TT - theta(j)) for j in range(1, K))


def eq6_claim(
    id: str,
    *,
    corrected: bool,
    sizes: tuple[int, int] = (2, 4),
    finding: Finding | None = None,
    generic: bool = True,
    second_flipped: bool = False,
) -> Any:
    s = sym("s_", real=True)
    if generic:
        lf = sympy.Function("l")

        def loss(a: Any) -> Any:
            return lf(a)

        def dl(a: Any) -> Any:
            return sympy.Subs(sympy.Derivative(lf(s), s), s, a)
    else:

        def loss(a: Any) -> Any:
            return sympy.exp(-a)

        def dl(a: Any) -> Any:
            return -sympy.exp(-a)

    def rhs(K: int) -> Any:
        p = pvec(K)
        first = sum(p[j] * dl((TT - theta(j)) if corrected else (theta(j) - TT)) for j in range(1, K))
        second = sum(p[j - 1] * dl((TT - theta(j)) if second_flipped else (theta(j) - TT)) for j in range(1, K))
        return first - second

    which = "an arbitrary differentiable l" if generic else "l(s) = e^{-s}"
    return identity(
        id,
        lambda K: sympy.diff(eq6_sum(K, loss), TT),
        rhs,
        sizes=sizes,
        cite=cite(
            "Section 4, Eq. (6)",
            "d/dt (sum p_j l(theta_j - t) + p_{j+1} l(t - theta_j)) = sum p_{j+1} "
            "l'(theta_j - t*) - sum p_j l'(theta_j - t*)",
        ),
        statement=(f"Eq. (6) {'corrected (first sum l(t - theta_j))' if corrected else 'as printed'}, for {which}"),
        finding=finding,
    )


def u(j: int) -> sympy.Symbol:
    return sym(f"u_{j}", positive=True)  # u_j = exp(theta_j)


def eq7_claim(id: str = "uematsu2013.section4_1.eq7", *, half: Any = HALF, sizes: tuple[int, int] = (2, 5)) -> Any:
    def deriv(K: int) -> Any:
        p = [sym(f"q_{k}", positive=True) for k in range(1, K + 1)]
        th = {j: sympy.log(u(j)) for j in range(1, K)}
        A = sum(p[i - 1] * sympy.exp(th[i - 1]) for i in range(2, K + 1))
        B = sum(p[j - 1] * sympy.exp(-th[j]) for j in range(1, K))
        tstar = half * sympy.log(A / B)
        d = sum(p[j] * (-sympy.exp(-(tstar - th[j]))) for j in range(1, K)) - sum(
            p[j - 1] * (-sympy.exp(-(th[j] - tstar))) for j in range(1, K)
        )
        return d

    return identity(
        id,
        deriv,
        lambda K: sympy.Integer(0),
        sizes=sizes,
        cite=cite(
            "Section 4.1, Eq. (7)", "f^*(x) = 1/2 log (sum P(Y=i|x) exp(theta_{i-1}^*) / sum P(Y=j|x) exp(-theta_j^*))"
        ),
        statement="with l(s) = e^{-s}, t* of (7) zeroes the (corrected) derivative of (6) (strictly convex in "
        "t, so the minimiser)",
    )


def orboost_sw(K: int) -> tuple[dict[int, Any], dict[int, Any]]:
    """The printed s_j, w_j with theta_j = log u_j; j = 1 and j = K are the limits."""
    th = {j: sympy.log(u(j)) for j in range(1, K)}
    s, w = {}, {}
    for j in range(1, K + 1):
        if j == 1:
            s[j], w[j] = sympy.Integer(0), sympy.exp(-th[1])
        elif j == K:
            s[j], w[j] = sympy.Integer(1), sympy.exp(th[K - 1])
        else:
            s[j] = 1 / (1 + sympy.exp(-th[j] - th[j - 1]))
            w[j] = sympy.exp(th[j - 1]) * (1 + sympy.exp(-th[j] - th[j - 1]))
    return s, w


def orboost_costs_claim(
    id: str = "uematsu2013.section4_1.orboost_costs", *, sign: int = -1, sizes: tuple[int, int] = (2, 6)
) -> Any:
    def ex(a: int, b: int, K: int) -> Any:  # exp(theta_a - theta_b); 0 when theta_a = -inf or theta_b = +inf
        return 0 if a == 0 or b == K else sympy.exp(sympy.log(u(a)) - sympy.log(u(b)))

    def sides(K: int) -> tuple[Any, Any]:
        s, w = orboost_sw(K)
        implied = sympy.Matrix([w[i] * w[j] * (s[i] - s[j]) for j, i in pairs(K)])
        printed = sympy.Matrix([ex(i - 1, j, K) + sign * ex(j - 1, i, K) for j, i in pairs(K)])
        return implied, printed

    return identity(
        id,
        lambda K: sides(K)[0],
        lambda K: sides(K)[1],
        sizes=sizes,
        cite=cite(
            "Section 4.1",
            "let s_j = [1 + exp(-theta_j - theta_{j-1})]^{-1} and w_j = exp(theta_{j-1})(1 + "
            "exp(-theta_j - theta_{j-1})) ... Then c_ji = exp(theta_{i-1} - theta_j) - exp(theta_{j-1} - theta_i)",
        ),
        statement="w_i w_j (s_i - s_j) = exp(theta_{i-1} - theta_j) - exp(theta_{j-1} - theta_i) for the printed s, w",
    )


def orboost_relation_claim(
    id: str = "uematsu2013.section4_1.orboost_relation", *, plus_one: int = 1, sizes: tuple[int, int] = (2, 5)
) -> Any:
    def sides(K: int) -> tuple[Any, Any]:
        s, w = orboost_sw(K)
        p = [sym(f"q_{k}", positive=True) for k in range(1, K + 1)]
        left = sum(s[i] * w[i] * p[i - 1] for i in range(1, K + 1)) / sum(w[j] * p[j - 1] for j in range(1, K + 1))
        B = sum(p[j - 1] / u(j) for j in range(1, K))
        A = sum(p[i - 1] * u(i - 1) for i in range(2, K + 1))
        return left, 1 / (B / A + plus_one)

    return identity(
        id,
        lambda K: sides(K)[0],
        lambda K: sides(K)[1],
        sizes=sizes,
        cite=cite(
            "Section 4.1",
            "sum s_i w_i P(Y=i|x) / sum w_j P(Y=j|x) = (sum exp(-theta_j^*) P(Y=j|x) / "
            "sum exp(theta_{i-1}^*) P(Y=i|x) + 1)^{-1}",
        ),
        statement="Corollary 1's f_0^* for the ORBoost weights equals (B/A + 1)^{-1}, a monotone transform of (7)",
    )


def orboost_nonneg_claim(
    id: str = "uematsu2013.section4_1.orboost_costs_nonnegative",
    *,
    ordered: bool = True,
    sizes: tuple[int, int] = (2, 5),
) -> Any:
    def hyps(K: int) -> list[Any]:
        return [u(j) <= u(j + 1) for j in range(1, K - 1)] if ordered else [u(1) >= 0]

    def concl(K: int) -> Any:
        terms = []
        for j, i in pairs(K):
            a = u(i - 1) / u(j) if i - 1 >= 1 else 0
            b = (u(j - 1) / u(i) if i < K else 0) if j > 1 else 0
            terms.append(a - b >= 0)
        return sympy.And(*terms)

    return implies(
        id,
        hypotheses={"ordered_thresholds": hyps},
        conclusion=concl,
        sizes=sizes,
        cite=cite(
            "Section 4.1",
            "The ordering restriction on the thresholds (theta_i^* >= theta_j^*) yields non-negative ranking costs",
        ),
        statement="theta_1 <= ... <= theta_{K-1} => every ORBoost cost c_ji >= 0 (u_j = e^{theta_j} > 0)",
    )


def orboost_condition_claim(
    id: str = "uematsu2013.section4_1.orboost_condition", *, bump: Any = 0, sizes: tuple[int, int] = (2, 6)
) -> Any:
    def holds(K: int) -> Any:
        c = orboost_costs([sympy.log(u(j)) for j in range(1, K)])
        if bump:
            c = CostScheme(K, {k: (v + bump if k == (2, 3) else v) for k, v in c.sympy_costs().items()}, "bumped")
        r = satisfies_theorem3_condition(c)
        return r.holds is True, r.reason

    return finite_check(
        id,
        cases=lambda K: [K],
        holds=holds,
        describe=lambda K: {"K": K},
        domain="the ORBoost cost scheme with symbolic thresholds, every pair, identically in u_j = e^{theta_j}",
        cite=cite("Section 4.1", "the optimal ranking by ORBoost provides a solution to pairwise ranking risk"),
        statement="the costs implied by any ORBoost thresholds satisfy Theorem 3's condition",
        sizes=sizes,
    )


# ---------------------------------------------------------------------------------------
# Proportional odds
# ---------------------------------------------------------------------------------------


def likelihood_claim(id: str = "uematsu2013.section4_2.likelihood", *, sign: int = 1) -> Any:
    U, V, Fv = (sym(n, positive=True) for n in ("U", "V", "E_f"))  # e^{theta_{y-1}}, e^{theta_y}, e^{f}
    a, b, f = sympy.log(U), sympy.log(V), sympy.log(Fv)
    inside = 1 / (1 + sympy.exp(a - f)) - 1 / (1 + sympy.exp(b - f))
    rhs = sympy.exp(
        sympy.log(1 - sympy.exp(a - b)) - (sympy.log(1 + sympy.exp(-f + a)) + sympy.log(1 + sign * sympy.exp(-b + f)))
    )
    return identity(
        id,
        inside,
        rhs,
        conditions=[U < V],
        cite=cite(
            "Section 4.2",
            "log(1/(1 + exp(theta_{y-1} - f)) - 1/(1 + exp(theta_y - f))) = log(1 - exp(theta_{y-1} - "
            "theta_y)) - [log(1 + exp(-f + theta_{y-1})) + log(1 + exp(-theta_y + f))]",
        ),
        statement="the proportional-odds log likelihood splits as printed (checked on the arguments of log, "
        "which is injective)",
    )


def population_claim(
    id: str = "uematsu2013.section4_2.population_equation", *, use_pK: bool = False, sizes: tuple[int, int] = (2, 5)
) -> Any:
    def sides(K: int) -> tuple[Any, Any]:
        p = pvec(K)
        obj = sum(
            p[j] * sympy.log(1 + sympy.exp(theta(j) - TT)) + p[j - 1] * sympy.log(1 + sympy.exp(TT - theta(j)))
            for j in range(1, K)
        )
        d = on_simplex(sympy.diff(obj, TT), K)
        eq = sum((p[j - 1] + p[j]) / (1 + sympy.exp(theta(j) - TT)) for j in range(1, K)) - (
            1 - p[K - 1 if use_pK else 0]
        )
        return d, on_simplex(eq, K)

    return identity(
        id,
        lambda K: sides(K)[0],
        lambda K: sides(K)[1],
        sizes=sizes,
        cite=cite(
            "Section 4.2",
            "This is equivalent to the condition: sum (p_j(x) + p_{j+1}(x)) / (1 + exp(theta_j - t^*)) = 1 - p_1(x)",
        ),
        statement="d/dt of the population log-likelihood = sum (p_j + p_{j+1})/(1 + e^{theta_j - t}) - (1 - p_1)",
    )


def k3_form_claim(id: str = "uematsu2013.section4_2.k3_form", *, with_factor: bool = True) -> Any:
    p1, p2 = P(1), P(2)
    p3 = 1 - p1 - p2
    t1, t2 = theta(1), theta(2)
    eq = (p1 + p2) / (1 + sympy.exp(t1 - TT)) + (p2 + p3) / (1 + sympy.exp(t2 - TT)) - (1 - p1)
    printed = (1 - p3) * (1 + sympy.exp(TT - t2)) - (1 - p1) * (1 + sympy.exp(t1 - TT))
    factor = (1 + sympy.exp(t1 - TT)) * (1 + sympy.exp(TT - t2)) if with_factor else 1
    return identity(
        id,
        printed,
        eq * factor,
        cite=cite("Section 4.2", "(1 - p3(x))(1 + exp(f^*(x) - theta_2)) = (1 - p1(x))(1 + exp(theta_1 - f^*(x)))"),
        statement="K = 3: printed form residual = equation residual x (1 + e^{theta_1 - t})(1 + e^{t - "
        "theta_2}) > 0, so equivalent",
    )


def eq8_claim(id: str = "uematsu2013.section4_2.eq8", *, four: Any = 4) -> Any:
    q, U, V = (sym(n, positive=True) for n in ("q", "U", "V"))  # U = e^{theta_1}, V = e^{theta_2}
    Fv = (q - 1 + sympy.sqrt((q - 1) ** 2 + four * (U / V) * q)) / (2 / V)
    return identity(
        id,
        Fv + Fv**2 / V,
        q * Fv + q * U,
        cite=cite(
            "Section 4.2, Eq. (8)",
            "e^{f^*(x)} = (q(x) - 1 + sqrt((q(x) - 1)^2 + 4 e^{theta_1 - theta_2} q(x))) / (2 e^{-theta_2})",
        ),
        statement="F = e^{f*} of (8) solves (1 + F e^{-theta_2}) = q (1 + e^{theta_1}/F), multiplied by F > 0",
    )


def q_is_f0_claim(id: str = "uematsu2013.section4_2.q_is_unit_cost_f0", *, c13: int = 1) -> Any:
    from symcal.ranking.costs import optimal_ranking_function

    costs = CostScheme(3, {(1, 2): 1, (1, 3): c13, (2, 3): 1})
    return identity(
        id,
        optimal_ranking_function(costs, pvec(3)),
        (P(2) + P(3)) / (P(1) + P(2)),
        conditions=[P(1) > 0, P(2) > 0, P(3) > 0],
        cite=cite("Section 4.2", "q is the ranking function minimizing pairwise ranking risk when c12 = c13 = c23 = 1"),
        statement="f_0^* for c12 = c13 = c23 = 1 is q = (p2 + p3)/(p1 + p2)",
    )


def q_monotone_claim(id: str = "uematsu2013.section4_2.f_star_increasing_in_q", *, flip: bool = False,
                     pin: bool = False) -> Any:
    """``pin`` (for twins) fixes q_1 = 1, q_2 = 2, r = 1, where both square roots are rational
    (2 and 3): otherwise z3 may answer with an algebraic model that no rounding turns into an
    exact witness, and a refutable twin comes back unknown."""
    q1, q2, r, S1, S2 = (sym(n, real=True) for n in ("q_1", "q_2", "r", "S_1", "S_2"))
    hyps = {
        "order": [q1 > 0, q2 > q1, r > 0],
        "roots": [
            S1 >= 0,
            S2 >= 0,
            sympy.Eq(S1**2, (q1 - 1) ** 2 + 4 * r * q1),
            sympy.Eq(S2**2, (q2 - 1) ** 2 + 4 * r * q2),
        ],
    }
    if pin:
        hyps["pinned"] = [sympy.Eq(q1, 1), sympy.Eq(q2, 2), sympy.Eq(r, 1)]
    a, b = q1 - 1 + S1, q2 - 1 + S2
    return implies(
        id,
        hypotheses=hyps,
        conclusion=(a > b) if flip else (a < b),
        cite=cite("Section 4.2", "This implies that f^* for the proportional odds model preserves the ordering of q"),
        statement="e^{f*} of (8) is strictly increasing in q (r = e^{theta_1 - theta_2} > 0; S = the square root)",
    )


# ---------------------------------------------------------------------------------------
# SVOR (Section 4.3)
# ---------------------------------------------------------------------------------------


FV = sym("f", real=True)
GV = sym("g", real=True)


def hinge(s: Any) -> Any:
    return sympy.Max(0, 1 - s)


def svor_risk(version: int, f: Any) -> Any:
    p1, p2, p3, t1, t2 = P(1), P(2), P(3), theta(1), theta(2)
    if version == 1:
        return p1 * hinge(t1 - f) + p2 * (hinge(f - t1) + hinge(t2 - f)) + p3 * hinge(f - t2)
    return (
        p1 * (hinge(t1 - f) + hinge(t2 - f))
        + p2 * (hinge(f - t1) + hinge(t2 - f))
        + p3 * (hinge(f - t1) + hinge(f - t2))
    )


SIMPLEX3 = [P(1) >= 0, P(2) >= 0, P(3) >= 0, sympy.Eq(P(1) + P(2) + P(3), 1)]


def svor_tables() -> dict[tuple[int, int], tuple[list[Any], list[tuple[Any, Any, Any]]]]:
    """(version, case) -> (case condition, [(lo, hi, printed expression)]) as printed."""
    p1, p2, p3, t1, t2, f = P(1), P(2), P(3), theta(1), theta(2), FV
    inf = None
    v1_left = (inf, t1 - 1, p2 * (1 + t1) + p3 * (1 + t2) - (p2 + p3) * f)
    v1_right = (t2 + 1, inf, p1 * (1 - t1) + p2 * (1 - t2) + (p1 + p2) * f)
    return {
        (1, 1): (
            [t1 <= t2, t1 + 1 >= t2 - 1],
            [
                v1_left,
                (t1 - 1, t2 - 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (1 + t2) + (p1 - p2 - p3) * f),
                (t2 - 1, t1 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p3 * (1 + t2) + (p1 - p3) * f),
                (t1 + 1, t2 + 1, p1 * (1 - t1) + p2 * (1 - t2) + p3 * (1 + t2) + (p1 + p2 - p3) * f),
                v1_right,
            ],
        ),
        (1, 2): (
            [t1 <= t2, t1 + 1 <= t2 - 1],
            [
                v1_left,
                (t1 - 1, t1 + 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (1 + t2) + (p1 - p2 - p3) * f),
                (t1 + 1, t2 - 1, p1 * (1 - t1) + p3 * (1 + t2) + (p1 - p3) * f),
                (t2 - 1, t2 + 1, p1 * (1 - t1) + p2 * (1 - t2) + p3 * (1 + t2) + (p1 + p2 - p3) * f),
                v1_right,
            ],
        ),
        (1, 3): (
            [t2 <= t1, t2 + 1 >= t1 - 1],
            [
                (inf, t2 - 1, p2 * (1 + t1) + p3 * (1 + t2) - (p2 + p3) * f),
                (t2 - 1, t1 - 1, p2 * (2 + t1 - t2) + p3 * (1 + t2) - p3 * f),
                (t1 - 1, t2 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p3 * (1 + t2) + (p1 - p3) * f),
                (t2 + 1, t1 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p1 * f),
                (t1 + 1, inf, p1 * (1 - t1) + p2 * (1 - t2) + (p1 + p2) * f),
            ],
        ),
        (1, 4): (
            [t2 <= t1, t2 + 1 <= t1 - 1],
            [
                (inf, t2 - 1, p2 * (1 + t1) + p3 * (1 + t2) - (p2 + p3) * f),
                (t2 - 1, t2 + 1, p2 * (2 + t1 - t2) + p3 * (1 + t2) - p3 * f),
                (t2 + 1, t1 - 1, p2 * (2 + t1 - t2)),
                (t1 - 1, t1 + 1, p1 * (1 - t1) + p2 * (2 + t1 - t2) + p1 * f),
                (t1 + 1, inf, p1 * (1 - t1) + p2 * (1 - t2) + (p1 + p2) * f),
            ],
        ),
        (2, 1): (
            [t1 <= t2, t1 + 1 >= t2 - 1],
            [
                (inf, t1 - 1, p2 * (1 + t1) + p3 * (2 + t1 + t2) - (p2 + 2 * p3) * f),
                (t1 - 1, t2 - 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (2 + t1 + t2) + (p1 - p2 - 2 * p3) * f),
                (t2 - 1, t1 + 1, p1 * (2 - t1 - t2) + p2 * (2 + t1 - t2) + p3 * (2 + t1 + t2) + (2 * p1 - 2 * p3) * f),
                (t1 + 1, t2 + 1, p1 * (2 - t1 - t2) + p2 * (1 - t2) + p3 * (1 + t2) + (2 * p1 + p2 - p3) * f),
                (t2 + 1, inf, p1 * (2 - t1 - t2) + p2 * (1 - t2) + (2 * p1 + p2) * f),
            ],
        ),
        (2, 2): (
            [t1 <= t2, t1 + 1 <= t2 - 1],
            [
                (inf, t1 - 1, p2 * (1 + t1) + p3 * (2 + t1 + t2) - (p2 + 2 * p3) * f),
                (t1 - 1, t1 + 1, p1 * (1 - t1) + p2 * (1 + t1) + p3 * (2 + t1 + t2) + (p1 - p2 - 2 * p3) * f),
                (t1 + 1, t2 - 1, p1 * (1 - t1) + p3 * (1 + t2) + (p1 - p3) * f),
                (t2 - 1, t2 + 1, p1 * (2 - t1 - t2) + p2 * (1 - t2) + p3 * (1 + t2) + (2 * p1 + p2 - p3) * f),
                (t2 + 1, inf, p1 * (2 - t1 - t2) + p2 * (1 - t2) + (2 * p1 + p2) * f),
            ],
        ),
    }


def svor_case_claim(version: int, case: int, id: str | None = None, *, nudge: Any = 0) -> Any:
    cond, pieces = svor_tables()[(version, case)]
    f = FV
    parts = []
    for k, (lo, hi, expr) in enumerate(pieces):
        where = [
            x for x in ((lo <= f) if lo is not None else None, (f <= hi) if hi is not None else None) if x is not None
        ]
        e = expr + (nudge * P(2) if k == 2 else 0)
        parts.append(sympy.Implies(sympy.And(*where), sympy.Eq(svor_risk(version, f), e)))
    name = {1: "Shashua & Levin", 2: "Chu & Keerthi (implicit constraints)"}[version]
    return implies(
        id or f"uematsu2013.section4_3.svor{version}.case{case}",
        hypotheses={"simplex": SIMPLEX3, "case": cond},
        conclusion=sympy.And(*parts),
        cite=cite(
            "Section 4.3",
            f"Case {case}: ... the conditional risk is represented as follows"
            if version == 1
            else f"[implicit constraints] Case {case}: the conditional risk is represented as follows",
        ),
        statement=f"SVOR ({name}), Case {case}: the hinge conditional risk equals the printed linear piece on "
        "each interval",
    )


def svor_rtable_claim(id: str, version: int, which: str, *, swap: bool = False) -> Any:
    p1, p2, p3, t1, t2 = P(1), P(2), P(3), theta(1), theta(2)
    if version == 1:
        r = (1 - 2 * p1) / p2
        domain = [p2 > 0]
        if which == "cases12":
            cond = [t1 <= t2]
            table = [
                (None, 0, t1 - 1),
                (0, 1, sympy.Min(t1 + 1, t2 - 1)),
                (1, 2, sympy.Max(t1 + 1, t2 - 1)),
                (2, None, t2 + 1),
            ]
        else:
            cond = [t2 <= t1, t1 - t2 <= 2]
            table = [(None, 1, t1 - 1), (1, None, t2 + 1)]
    else:
        r = (1 - p1) / (1 - p3)
        domain = [p3 < 1]
        cond = [t1 <= t2]
        table = [
            (0, R(1, 2), t1 - 1),
            (R(1, 2), 1, sympy.Min(t1 + 1, t2 - 1)),
            (1, 2, sympy.Max(t1 + 1, t2 - 1)),
            (2, None, t2 + 1),
        ]
    if swap:
        table[0], table[-1] = (table[0][0], table[0][1], table[-1][2]), (table[-1][0], table[-1][1], table[0][2])
    parts = []
    for lo, hi, fstar in table:
        inside = [
            x for x in ((r > lo) if lo is not None else None, (r < hi) if hi is not None else None) if x is not None
        ]
        parts.append(sympy.Implies(sympy.And(*inside), svor_risk(version, fstar) <= svor_risk(version, GV)))
    label = {("cases12", 1): "Cases 1 and 2", ("case3", 1): "Case 3"}.get((which, version), "Cases 1 and 2")
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3, "r_defined": domain, "case": cond},
        conclusion=sympy.And(*parts),
        cite=cite(
            "Section 4.3",
            "there is the following correspondence between f^* and r"
            if version == 1
            else "we can express the relation between the optimal ranking function f^* and r as follows",
        ),
        statement=f"SVOR version {version} ({label}): on each r-range of the printed table, the printed f* "
        "minimises the "
        "conditional hinge risk over every real g",
    )


def svor_equiv_claim(id: str, version: int, *, nudge: Any = 0) -> Any:
    p1, p2, p3 = P(1), P(2), P(3)
    if version == 1:
        r = (1 - 2 * p1) / p2
        dom = [p2 > 0]
        rows = [(p1 - p2 - p3, 0), (p1 - p3, 1), (p1 + p2 - p3, 2 + nudge)]
    else:
        r = (1 - p1) / (1 - p3)
        dom = [p3 < 1]
        rows = [(p1 - p2 - 2 * p3, R(1, 2)), (p1 - p3, 1 + nudge), (2 * p1 + p2 - p3, 2)]
    concl = sympy.And(*[sympy.And(sympy.Implies(e <= 0, r >= b), sympy.Implies(r >= b, e <= 0)) for e, b in rows])
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3, "r_defined": dom},
        conclusion=concl,
        cite=cite(
            "Section 4.3",
            "p1 - p2 - p3 = 2p1 - 1 <= 0 <=> r(x) >= 0, p1 - p3 <= 0 <=> r(x) >= 1, ..."
            if version == 1
            else "p1 - p2 - 2p3 <= 0 <=> r(x) >= 1/2, p1 - p3 <= 0 <=> r(x) >= 1, 2p1 + p2 - p3 <= 0 <=> r(x) >= 2",
        ),
        statement=f"SVOR version {version}: the sign of each slope coefficient is a threshold on r(x)",
    )


def median_claim(id: str = "uematsu2013.section4_3.svor1.median", *, upper: Any = 2) -> Any:
    p1, p2 = P(1), P(2)
    r = (1 - 2 * p1) / p2
    concl = sympy.And(
        sympy.Implies(r < 0, p1 > R(1, 2)),
        sympy.Implies(sympy.And(r > 0, r < upper), sympy.And(p1 < R(1, 2), p1 + p2 >= R(1, 2))),
        sympy.Implies(r > 2, p1 + p2 < R(1, 2)),
    )
    return implies(
        id,
        hypotheses={"simplex": SIMPLEX3, "r_defined": [p2 > 0]},
        conclusion=concl,
        cite=cite("Section 4.3", "when theta_1 <= theta_2, r corresponds to the median of Y given x"),
        statement="r < 0 => median 1 (p1 > 1/2); 0 < r < 2 => median 2; r > 2 => median 3 (p1 + p2 < 1/2)",
    )


def svor2_function_claim(id: str = "uematsu2013.section4_3.svor2.same_function", *, swap: bool = False) -> Any:
    p1, p2 = P(1), P(2)
    p3 = 1 - p1 - p2
    rhs = (p2 + p3) / (p1 + p2) if not swap else (p1 + p2) / (p2 + p3)
    return identity(
        id,
        (1 - p1) / (1 - p3),
        rhs,
        cite=cite("Section 4.3", "(1 - p1)/(1 - p3) = (p2 + p3)/(p1 + p2)"),
        statement="SVOR-IMC's r(x) = (1 - p1)/(1 - p3) equals q = (p2 + p3)/(p1 + p2) on the simplex",
    )


# ---------------------------------------------------------------------------------------
# Section 4.4
# ---------------------------------------------------------------------------------------


def indicator_claim(
    id: str = "uematsu2013.section4_4.indicator_risk", *, shift: Any = MINUS_HALF, sizes: tuple[int, int] = (2, 5)
) -> Any:
    def lhs(K: int) -> Any:
        p = pvec(K)
        rows = []
        for i in range(1, K + 1):
            f = i + shift  # thresholds theta_j = j, so f in (theta_{i-1}, theta_i) when shift = -1/2
            risk = sum(p[j - 1] * (1 if j < f else 0) for j in range(1, K)) + sum(
                p[j - 1] * (1 if f < j - 1 else 0) for j in range(2, K + 1)
            )
            rows.append(on_simplex(risk, K))
        return sympy.Matrix(rows)

    return identity(
        id,
        lhs,
        lambda K: sympy.Matrix([on_simplex(1 - P(i), K) for i in range(1, K + 1)]),
        sizes=sizes,
        cite=cite("Section 4.4", "If theta_{i-1} < f(x) < theta_i, the conditional risk above is ... = 1 - p_i"),
        statement="with the indicator loss, the conditional risk at f in (theta_{i-1}, theta_i) is 1 - p_i "
        "(theta_j = j)",
    )


def argmax_claim(id: str = "uematsu2013.section4_4.no_cost_gives_argmax", *, only_first: bool = False) -> Any:
    c12, c13, c23 = (sym(n, real=True) for n in ("c_12", "c_13", "c_23"))

    def f0(p: tuple[Any, Any, Any]) -> tuple[Any, Any]:
        return c12 * p[1] + c13 * p[2], c13 * p[0] + c23 * p[1]

    A, A2, B = (R(1, 2), R(1, 4), R(1, 4)), (R(2, 3), R(1, 3), 0), (R(1, 4), R(1, 4), R(1, 2))
    (na, da), (na2, da2), (nb, db) = f0(A), f0(A2), f0(B)
    differs = sympy.Ne(na * da2, na2 * da)  # f0(A) != f0(A'): both have argmax 1
    not_below = na * db >= nb * da  # f0(A) >= f0(B): argmax 1 < argmax 3 but not ranked lower
    concl = differs if only_first else sympy.Or(differs, not_below)
    return implies(
        id,
        hypotheses={"costs": [c12 >= 0, c13 >= 0, c23 >= 0, c13 + c23 > 0]},
        conclusion=concl,
        cite=cite(
            "Section 4.4",
            "When K = 3, there is no {c_ji} such that f_0^*(x) ... is a monotonic transformation of argmax_j p_j(x)",
        ),
        statement="for every K = 3 scheme, f_0^* is not h(argmax p) with h increasing: f_0^* differs at two "
        "argmax-1 points "
        "or does not rank an argmax-1 point below an argmax-3 point",
    )


# ---------------------------------------------------------------------------------------
# Section 5.2
# ---------------------------------------------------------------------------------------


def bipartite_rankings(n_max: int) -> Iterator[tuple[int, ...]]:
    """Label sequences in ranked order (position 1 first), labels in {1, 2}."""
    for n in range(2, n_max + 1):
        yield from itertools.product((1, 2), repeat=n)


def table1_claim(
    id: str, measure: str, *, offset: int = 0, n_max: int = 6, any_relevant: bool = True, finding: Finding | None = None
) -> Any:
    def holds(ys: tuple[int, ...]) -> Any:
        n = len(ys)
        G = [1 if y == 2 else 0 for y in ys]
        pos = [i for i in range(1, n + 1) if G[i - 1]]
        if measure == "auc":
            if not pos or len(pos) == n:
                return True, "only one label"
            D = [n - i + offset for i in range(1, n + 1)]
            val = sum(g * d for g, d in zip(G, D, strict=True))
            npos, nneg = len(pos), n - len(pos)
            above = sum(1 for i in pos for k in range(i + 1, n + 1) if not G[k - 1])
            want = npos * nneg * F(above, npos * nneg) + F(npos * (npos - 1), 2)
            return val == want, f"sum G D = {val}, n+ n- AUC + C(n+, 2) = {want}"
        if measure == "p_at_m":
            out = []
            for m in range(1, n + 1):
                val = sum(F(G[i - 1] * (1 if i <= m - offset else 0), m) for i in range(1, n + 1))
                out.append(val == F(sum(G[:m]), m))
            return all(out), f"P@m for m = 1..{n}: {out}"
        # MRR: reciprocal rank of the first relevant item
        if not pos:
            return True, "no relevant item"
        val = sum(F(G[i - 1], i + offset) for i in range(1, n + 1))
        return val == F(1, pos[0]), f"sum G(y_i)/i = {val}, reciprocal rank = 1/{pos[0]}"

    def cases(_: Any) -> Iterator[Any]:
        for ys in bipartite_rankings(n_max):
            if any_relevant or ys.count(2) == 1:
                yield ys

    quotes = {
        "auc": "AUC: G(y) = I(y = 2), D(i) = n - i",
        "p_at_m": "Precision at m: G(y) = I(y = 2), D(i) = I(i <= m)/m",
        "mrr": "Mean Reciprocal Rank: G(y) = I(y = 2), D(i) = 1/i",
    }
    which = "" if any_relevant else " (exactly one relevant item)"
    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=lambda ys: {"ranked labels": list(ys)},
        domain=f"every ranked list of n = 2..{n_max} bipartite labels{which}",
        cite=cite("Section 5.2, Table 1", quotes[measure]),
        statement=f"Table 1: {measure} is sum_i G(y_pi(i)) D(i) of Eq. (9){which}",
        finding=finding,
    )


def rearrangement_claim(
    id: str = "uematsu2013.section5_2.optimal_by_expected_gain", *, increasing_d: bool = False
) -> Any:
    def cases(_: Any) -> Iterator[Any]:
        rng = random.Random(52)
        for n in range(2, 6):
            for _ in range(12):
                C = [F(rng.randint(0, 9), rng.randint(1, 4)) for _ in range(n)]
                D = sorted((F(rng.randint(0, 9), rng.randint(1, 3)) for _ in range(n)), reverse=not increasing_d)
                yield C, D

    def holds(case: Any) -> Any:
        C, D = case
        best = max(
            sum(C[p] * d for p, d in zip(perm, D, strict=True)) for perm in itertools.permutations(range(len(C)))
        )
        srt = sorted(C, reverse=True)
        val = sum(c * d for c, d in zip(srt, D, strict=True))
        return val == best, f"sorted = {val}, best = {best}"

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=lambda c: {"C": c[0], "D": c[1]},
        sample='seeded expected gains and discounts',
        domain="seeded expected gains C(1..n), non-negative decreasing discounts D, n = 2..5, every permutation",
        cite=cite("Section 5.2", "f must be a function such that C_f(1) >= C_f(2) >= ... >= C_f(n)"),
        statement="sum_i C_f(i) D(i) is maximised by sorting the expected gains E[G(Y)|x] decreasingly",
    )


def dcg_claim(id: str = "uematsu2013.section5_2.dcg_costs", *, base: int = 2, sizes: tuple[int, int] = (2, 6)) -> Any:
    def sides(K: int) -> tuple[Any, Any]:
        s = [base**i - 1 for i in range(1, K + 1)]
        costs = sympy.Matrix([(s[i - 1] - s[j - 1]) for j, i in pairs(K)])
        return costs, sympy.Matrix([2**i - 2**j for j, i in pairs(K)])

    return identity(
        id,
        lambda K: sides(K)[0],
        lambda K: sides(K)[1],
        sizes=sizes,
        cite=cite(
            "Section 5.2",
            "the optimal ranking with respect to DCG is equivalent to pairwise ranking with c_ji = (2^i - 2^j) "
            "I(i > j)",
        ),
        statement="Corollary 1 with s_i = 2^i - 1, w = 1 gives c_ji = 2^i - 2^j",
    )


def dcg_f0_claim(id: str = "uematsu2013.section5_2.dcg_f0", *, base: int = 2, sizes: tuple[int, int] = (2, 6)) -> Any:
    from symcal.ranking.costs import optimal_ranking_function

    def sides(K: int) -> tuple[Any, Any]:
        p = pvec(K)
        f0 = on_simplex(optimal_ranking_function(dcg_costs(K), p), K)
        E = on_simplex(sum((base**j - 1) * p[j - 1] for j in range(1, K + 1)), K)
        s1, sK = 1, 2**K - 1
        return f0, (E - s1) / (sK - E)

    return identity(
        id,
        lambda K: sides(K)[0],
        lambda K: sides(K)[1],
        sizes=sizes,
        conditions=lambda K: [P(k) > 0 for k in range(1, K)],
        cite=cite(
            "Section 5.2",
            "the optimal ranking function for DCG preserves the ordering of sum (2^j - 1) P(Y = j|X = x), "
            "which is the same as f_0^* in Corollary 1",
        ),
        statement="f_0^* for c_ji = 2^i - 2^j equals (E - 1)/(2^K - 1 - E), E = sum (2^j - 1) p_j: increasing in E",
    )


def ap_expected(ps: Sequence[Any]) -> Any:
    return sum(ps[i] / (i + 1) * (1 + sum(ps[:i])) for i in range(len(ps)))


def ap_swap_claim(
    id: str = "uematsu2013.section5_2.ap_swap", *, square: bool = False, sizes: tuple[int, int] = (2, 6)
) -> Any:
    def sides(k: int) -> tuple[Any, Any]:
        p = [sym(f"p_{i}", real=True) for i in range(1, k + 1)]
        tail = [sym("t_1", real=True), sym("t_2", real=True)]
        lhs, rhs = [], []
        for l in range(1, k):
            pl = p[: l - 1] + [p[k - 1]] + p[l - 1 : k - 1]
            pl1 = p[:l] + [p[k - 1]] + p[l : k - 1]
            lhs.append(sympy.expand(ap_expected(pl1 + tail) - ap_expected(pl + tail)))
            den = l * l if square else l * (l + 1)
            rhs.append((p[l - 1] - p[k - 1]) * (1 + sum(p[: l - 1])) / den)
        return sympy.Matrix(lhs), sympy.Matrix(rhs)

    return identity(
        id,
        lambda k: sides(k)[0],
        lambda k: sides(k)[1],
        sizes=sizes,
        cite=cite("Section 5.2", "AP_k(p_{l+1}) - AP_k(p_l) = (p_l - p_k)(1 + sum_{i=1}^{l-1} p_i) 1/(l(l+1))"),
        statement="moving p_k from position l to l + 1 changes E[AP] by (p_l - p_k)(1 + sum_{i<l} "
        "p_i)/(l(l+1)) (two tail items)",
    )


def ap_sorted_claim(id: str = "uematsu2013.section5_2.ap_sorted_optimal", *, ascending: bool = False) -> Any:
    def cases(_: Any) -> Iterator[Any]:
        rng = random.Random(5)
        for n in range(2, 7):
            for _ in range(10):
                yield [F(rng.randint(0, 8), 8) for _ in range(n)]

    def holds(ps: list[Fraction]) -> Any:
        best = max(ap_expected([ps[i] for i in perm]) for perm in itertools.permutations(range(len(ps))))
        val = ap_expected(sorted(ps, reverse=not ascending))
        return val == best, f"sorted = {val}, best = {best}"

    return finite_check(
        id,
        cases=cases,
        holds=holds,
        describe=lambda ps: {"p": ps},
        sample='seeded posteriors on a grid',
        domain="seeded P(Y=2|x_i) in {0, 1/8, ..., 1}, n = 2..6, every permutation",
        cite=cite(
            "Section 5.2", "a ranking function f with p_f(1) >= p_f(2) >= ... >= p_f(n) maximizes E[AP(f)|{X_i}]"
        ),
        statement="sorting by P(Y = 2|x) decreasingly maximises the conditional expected AP",
    )


# ---------------------------------------------------------------------------------------
# Section 6: worked numbers (interval enclosures decide every rounding)
# ---------------------------------------------------------------------------------------


def enclosure(expr: Any) -> tuple[Fraction, Fraction]:
    """A rigorous enclosure [lo, hi] of a closed expression: symcal's interval compiler
    (mpmath ``iv``, every constant and operation outward-rounded, 200 bits)."""
    from symcal.backends.interval_backend import enclosure as iv_enclosure

    return iv_enclosure(sympy.sympify(expr), {}, precision=200)


def round_half_up(x: Fraction, digits: int) -> Fraction:
    scale = 10**digits
    return Fraction(int((x * scale + Fraction(1, 2)) // 1), scale)


def rounds_to(expr: Any, printed: str) -> tuple[bool, str]:
    """Does ``expr`` round to ``printed`` (as many decimals as printed)?  Raises when the
    enclosure straddles a rounding boundary (undecided: never a pass)."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    lo, hi = enclosure(expr)
    a, b = round_half_up(lo, digits), round_half_up(hi, digits)
    if a != b:
        raise BackendFailure(
            f"the enclosure [{float(lo)}, {float(hi)}] of {expr} does not decide the rounding to {digits} digits"
        )
    want = Fraction(printed)
    return a == want, f"{sympy.sstr(expr)} in [{float(lo):.12g}, {float(hi):.12g}] rounds to {float(a):.{digits}f}"


def number_claim(id: str, items: list[tuple[str, Any, str]], *, location: str, quote: str, statement: str) -> Any:
    def holds(item: Any) -> Any:
        name, expr, printed = item
        ok, detail = rounds_to(expr, printed)
        return ok, f"{name}: {detail} (printed {printed})"

    return finite_check(
        id,
        cases=items,
        holds=holds,
        describe=lambda it: {"entry": it[0], "printed": it[2]},
        domain="printed numbers, each enclosed by mpmath interval arithmetic (60 digits) and rounded",
        cite=cite(location, quote),
        statement=statement,
    )


XS = sym("x", real=True)


def mixture_posteriors(means: Sequence[Any]) -> list[Any]:
    g = [sympy.exp(-((XS - mu) ** 2) / 2) for mu in means]
    return [gk / sum(g) for gk in g]


def mixture_f0_claim(id: str = "uematsu2013.section6_1.normal_mixture_f0", *, e2: Any = E_SQUARED) -> Any:
    p = mixture_posteriors((-2, 0, 2))
    return identity(
        id,
        (p[1] + p[2]) / (p[0] + p[1]),
        (sympy.exp(2 * XS) + e2) / (sympy.exp(-2 * XS) + e2),
        cite=cite(
            "Section 6.1", "f_0^*(x) = (P(Y=2|x) + P(Y=3|x)) / (P(Y=1|x) + P(Y=2|x)) = (e^{2x} + e^2)/(e^{-2x} + e^2)"
        ),
        statement="balanced N(-2,1), N(0,1), N(2,1) mixture: f_0^* for unit costs = (e^{2x} + e^2)/(e^{-2x} + e^2)",
    )


def mixture_orboost_claim(id: str = "uematsu2013.section6_1.orboost_f_star", *, sign: int = 1) -> Any:
    p = mixture_posteriors((-2, 0, 2))
    t1 = theta(1)
    th = {1: t1, 2: sympy.Integer(0)}
    inside7 = (p[1] * sympy.exp(th[1]) + p[2] * sympy.exp(th[2])) / (
        p[0] * sympy.exp(-th[1]) + p[1] * sympy.exp(-th[2])
    )
    printed = (sympy.exp(2 * XS) + sympy.exp(2 + sign * t1)) / (sympy.exp(-2 * XS - t1) + sympy.exp(2))
    return identity(
        id,
        inside7,
        printed,
        cite=cite(
            "Section 6.1",
            "f^* for ORBoost is approximately given as 1/2 log((e^{2x} + e^{2 + theta_1})/(e^{-2x - theta_1} + e^2))",
        ),
        statement="(7) with theta_2 = 0 on the normal mixture: the argument of (1/2) log is as printed",
    )


def mixture_propodds_claim(id: str = "uematsu2013.section6_1.propodds_f_star", *, four: Any = 4) -> Any:
    q = sym("q", positive=True)
    t1 = theta(1)
    eq8 = (q - 1 + sympy.sqrt((q - 1) ** 2 + 4 * sympy.exp(t1 - 0) * q)) / (2 * sympy.exp(-0))
    printed = (q - 1 + sympy.sqrt((q - 1) ** 2 + four * sympy.exp(t1) * q)) / 2
    return identity(
        id,
        eq8,
        printed,
        cite=cite("Section 6.1", "log((f_0^*(x) - 1 + sqrt((f_0^*(x) - 1)^2 + 4 e^{theta_1} f_0^*(x)))/2)"),
        statement="(8) with theta_2 = 0 and q = f_0^* is the printed proportional-odds f* (inside the log)",
    )


def svor_steps_claim(id: str = "uematsu2013.section6_1.svor_steps", *, printed: str = "1.02") -> Any:
    e2 = sympy.exp(2)
    ustar = (e2 + sympy.sqrt(e2**2 + 8)) / 2  # e^{2x*}: root of u^2 - e^2 u - 2 = 0
    xstar = sympy.log(ustar) / 2

    def f0_of_u(uu: Any) -> Any:  # f_0^* with e^{2x} = uu
        return (uu + e2) / (1 / uu + e2)

    def holds(item: Any) -> Any:
        name = item
        if name == "x*: f_0^* = 2":
            r = sympy.simplify(sympy.radsimp(f0_of_u(ustar) - 2))
            ok, detail = rounds_to(xstar, printed)
            return r == 0 and ok, f"f_0^*(x*) - 2 simplifies to {r}; {detail}"
        if name == "-x*: f_0^* = 1/2":
            r = sympy.simplify(sympy.radsimp(f0_of_u(1 / ustar) - R(1, 2)))
            ok, detail = rounds_to(-xstar, "-" + printed)
            return r == 0 and ok, f"f_0^*(-x*) - 1/2 simplifies to {r}; {detail}"
        r = sympy.simplify(f0_of_u(sympy.Integer(1)) - 1)
        return r == 0, f"f_0^*(0) - 1 = {r}"

    return finite_check(
        id,
        cases=["x*: f_0^* = 2", "-x*: f_0^* = 1/2", "0: f_0^* = 1"],
        holds=holds,
        describe=lambda it: {"step": it},
        domain="the three step locations: exact algebra (e^{2x} solves u^2 - e^2 u - 2 = 0) and interval rounding",
        cite=cite("Section 6.1", "the theoretical values of -1.02, 0 and 1.02 that yield f_0^*(x) = 1/2, 1 and 2"),
        statement="f_0^* = 2, 1, 1/2 exactly at x = x*, 0, -x* with x* = (1/2) log((e^2 + sqrt(e^4 + 8))/2), "
        f"and x* rounds to {printed}",
    )


def svor_thresholds_claim(id: str = "uematsu2013.section6_2.svor_thresholds", *, theta2: str = "0.61") -> Any:
    t1, t2 = F("-1.39"), F(theta2)
    s1, s2 = F("-1.2"), F("1.1")
    checks = [
        ("theta_1 + 1 = theta_2 - 1 (MovieLens)", t1 + 1 == t2 - 1),
        ("clusters (-2.39, -0.39, 1.61)", (t1 - 1, t1 + 1, t2 + 1) == (F("-2.39"), F("-0.39"), F("1.61"))),
        ("simulation (-1.2, 1.1) in Case 2: theta_1 + 1 <= theta_2 - 1", s1 + 1 <= s2 - 1),
    ]
    return finite_check(
        id,
        cases=checks,
        holds=lambda c: (c[1], c[0]),
        describe=lambda c: {"check": c[0]},
        domain="the printed SVOR thresholds, exact decimals",
        cite=cite(
            "Sections 6.1 and 6.2",
            "the estimates of theta_1 and theta_2 are -1.39 and 0.61 and satisfy the relation "
            "theta_1 + 1 = theta_2 - 1 ... (-2.39, -0.39, 1.61)",
        ),
        statement="SVOR thresholds: -1.39 + 1 = 0.61 - 1, clusters at (-2.39, -0.39, 1.61); (-1.2, 1.1) fall "
        "into Case 2",
    )


def pairrank2_claim(id: str = "uematsu2013.section6_2.pairrank2_regression", *, c13: int = 2) -> Any:
    from symcal.ranking.costs import optimal_ranking_function

    f0 = optimal_ranking_function(CostScheme(3, {(1, 2): 1, (1, 3): c13, (2, 3): 1}), pvec(3))
    E = sum(k * P(k) for k in (1, 2, 3))
    return identity(
        id,
        on_simplex(f0, 3),
        on_simplex((E - 1) / (3 - E), 3),
        cite=cite(
            "Section 6.2", "1/2 log((sum j P(Y=j|x) - 1)/(3 - sum j P(Y=j|x))) = 1/2 log((s_r(x) - 1)/(3 - s_r(x)))"
        ),
        statement="PAIRRANK2 (c = (1, 2, 1)): f_0^* = (E[Y|x] - 1)/(3 - E[Y|x])",
    )


def orboost_k3_claim(id: str = "uematsu2013.section6_2.orboost_k3_costs", *, theta2: Any = 0) -> Any:
    t1 = theta(1)
    c = orboost_costs([t1, theta2])
    return identity(
        id,
        sympy.Matrix([c.c(1, 2), c.c(1, 3), c.c(2, 3)]),
        sympy.Matrix([1, sympy.exp(-t1), 1]),
        cite=cite("Section 6.2", "This yields the cost scheme of c12 = c23 = 1 and c13 = e^{-theta_1} for ORBoost"),
        statement="ORBoost with theta_2 = 0 implies c12 = c23 = 1, c13 = e^{-theta_1}",
    )


MOVIELENS_COUNTS = (5039, 10846, 26448, 33842, 20964)
PRINTED_PERCENT = ("5.18", "11.17", "27.23", "34.84", "21.58")
CORRECTED_PERCENT = ("5.19", "11.17", "27.23", "34.84", "21.58")


def proportions_claim(id: str, printed: Sequence[str], *, finding: Finding | None = None) -> Any:
    total = sum(MOVIELENS_COUNTS)

    def holds(k: int) -> Any:
        pct = F(100 * MOVIELENS_COUNTS[k], total)
        rounded = round_half_up(pct, 2)
        return total == 97139 and rounded == F(printed[k]), (
            f"rating {k + 1}: 100 x {MOVIELENS_COUNTS[k]}/{total} = {float(pct):.5f} % rounds to {float(rounded):.2f} "
            f"(printed {printed[k]})"
        )

    return finite_check(
        id,
        cases=range(5),
        holds=holds,
        describe=lambda k: {"rating": k + 1, "count": MOVIELENS_COUNTS[k]},
        domain="the five MovieLens ratings, exact rational percentages rounded half-up to 2 decimals",
        cite=cite(
            "Section 6.2", "5,039, 10,846, 26,448, 33,842 and 20,964 cases ... (5.18%, 11.17%, 27.23%, 34.84%, 21.58%)"
        ),
        statement="the rating proportions of the 97,139 ratings, rounded to 2 decimals, are "
        + ", ".join(printed)
        + " %",
        finding=finding,
    )


def unbalanced_claim(id: str = "uematsu2013.section6_2.unbalanced_sample", *, tol: str = "0.1") -> Any:
    sample = (130, 280, 680, 870, 540)
    total = sum(MOVIELENS_COUNTS)

    def holds(k: int) -> Any:
        a, b = F(100 * sample[k], 2500), F(100 * MOVIELENS_COUNTS[k], total)
        return sum(sample) == 2500 and abs(a - b) <= F(tol), f"{float(a):.3f} % vs {float(b):.3f} %"

    return finite_check(
        id,
        cases=range(5),
        holds=holds,
        describe=lambda k: {"rating": k + 1},
        domain="the five ratings of the unbalanced sample of 2,500",
        cite=cite(
            "Section 6.2",
            "an unbalanced sample ... contains 130, 280, 680, 870, and 540 cases ... approximately "
            "reflecting the proportions",
        ),
        statement=f"130 + 280 + 680 + 870 + 540 = 2500 and each share is within {tol} percentage points of the data's",
    )


TABLE2_THETAS = {
    "balanced": ("-0.0932", "-0.0656", "-0.0386", "0"),
    "unbalanced": ("-0.7742", "-0.7742", "-0.4183", "0"),
}
TABLE2 = {
    "balanced": {
        (1, 2): "1",
        (1, 3): "1.028",
        (1, 4): "1.056",
        (1, 5): "1.098",
        (2, 3): "0.053",
        (2, 4): "0.116",
        (2, 5): "1.068",
        (3, 4): "0.063",
        (3, 5): "1.039",
        (4, 5): "1",
    },
    "unbalanced": {
        (1, 2): "1",
        (1, 3): "1",
        (1, 4): "1.427",
        (1, 5): "2.169",
        (2, 3): "0.299",
        (2, 4): "0.966",
        (2, 5): "2.169",
        (3, 4): "0.539",
        (3, 5): "1.519",
        (4, 5): "1",
    },
}


def table2_claim(id: str, case: str, *, printed: dict[tuple[int, int], str] | None = None) -> Any:
    costs = orboost_costs(list(TABLE2_THETAS[case]))
    table = printed or TABLE2[case]

    def holds(key: tuple[int, int]) -> Any:
        value, shown = costs.c(*key), table[key]
        if "." not in shown:  # printed as an integer: must be exactly that integer
            v = sympy.sympify(value)
            return v == int(shown), f"c_{key[0]}{key[1]} = {v} exactly (printed {shown})"
        ok, detail = rounds_to(value, shown)
        return ok, f"c_{key[0]}{key[1]}: {detail} (printed {shown})"

    return finite_check(
        id,
        cases=sorted(table),
        holds=holds,
        describe=lambda k: {"(j, i)": list(k), "printed": table[k]},
        domain=f"the 10 entries of Table 2 ({case}), from the printed thresholds {', '.join(TABLE2_THETAS[case])}, "
        "interval enclosures rounded to the printed digits",
        cite=cite(
            "Section 6.2, Table 2",
            "Implicit cost schemes for ORBoost in the balanced (left) and unbalanced (right) cases",
        ),
        statement=f"Table 2 ({case}) = c_ji = exp(theta_(i-1) - theta_j) - exp(theta_(j-1) - theta_i) at the "
        "printed thresholds, "
        "to the printed precision",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------


def build_claims() -> list[Any]:
    c: list[Any] = [regression_claim()]
    c += [empirical_claim(f"uematsu2013.section3.{w}_costs", w) for w in ("pairs", "ovo", "cons")]
    c.append(expected_cost_claim())
    c.append(sweep_claim("uematsu2013.theorem3.condition.linear", "linear"))
    c.append(
        sweep_claim(
            "uematsu2013.theorem3.condition.dcg",
            "dcg",
            location="Section 5.2",
            quote="the optimal ranking with respect to DCG is equivalent to pairwise ranking with c_ji = 2^i - 2^j",
        )
    )
    c += [normalised_claim(), void_claim(), additivity_claim(), corollary1_form_claim()]

    # Theorem 3 as printed (errata on c_1K = 0) and corrected
    f_i = Finding(
        what=(
            "Theorem 3 (i) allows non-negative costs, but with c_13 = 0 its f_0^* = c12 p2/(c23 p2) is constant where "
            "defined and not optimal (the proof divides by c_13)."
        ),
        counterexample=(
            "K = 3, (c12, c13, c23) = (0, 0, 1), two points of mass 1/2 with posteriors (0, 1, 0) and "
            "(0, 1/2, 1/2): f_0^* = 0 ties them (R_0 = 1/2); ranking the second higher gives R_0 = 1/6."
        ),
        corrected="uematsu2013.theorem3.i.corrected",
    )
    f_ii = Finding(
        what=(
            "Theorem 3 (ii) with c_1K = 0: the condition can hold (e.g. c_1i = 0 for all i) while f_0^* = 0 is "
            "constant and not optimal; the proof divides by c_1K."
        ),
        counterexample=(
            "K = 4, c_34 = 32 and every other c_ji = 0 (w = (0, 0, 2, 2), s = (0, 2, 3, 11)); two points of "
            "mass 1/2 with posteriors (0, 0, 1, 0) and (0, 0, 1/2, 1/2): f_0^* = 0 ties them (R_0 = 16); "
            "ranking the second higher gives R_0 = 16/3."
        ),
        corrected="uematsu2013.theorem3.ii.corrected",
    )
    c.append(theorem3_claim("uematsu2013.theorem3.i", "i", c1K_positive=False, sizes=(2, 3), finding=f_i))
    c.append(theorem3_claim("uematsu2013.theorem3.i.corrected", "i", c1K_positive=True, sizes=(2, 5)))
    c.append(theorem3_claim("uematsu2013.theorem3.ii", "ii", c1K_positive=False, sizes=(2, 3), finding=f_ii))
    c.append(theorem3_claim("uematsu2013.theorem3.ii.corrected", "ii", c1K_positive=True, sizes=(2, 6)))
    c.append(condition_needed_claim())
    f_strict = Finding(
        what=(
            "The proof's 'R_0(f) - R_0(f_0^*) > 0 unless f is an order-preserving transformation of f_0^*' is false "
            "when f_0^* has ties: breaking a tie of f_0^* leaves R_0 unchanged (the A_2 and A_8 terms cancel)."
        ),
        counterexample="two points with the same posterior: f_0^* ties them, and either strict order has the same R_0.",
        corrected="uematsu2013.theorem3.proof.strict.corrected",
    )
    c.append(strictness_claim("uematsu2013.theorem3.proof.strict", corrected=False, sizes=(2, 3), finding=f_strict))
    c.append(strictness_claim("uematsu2013.theorem3.proof.strict.corrected", corrected=True, sizes=(2, 4)))
    c += [eq10_claim(), eq11_claim(), c_ratio_claim(), rji_claim()]
    c += [
        corollary1_all_k_claim(),
        corollary1_f0_claim(),
        corollary1_monotone_claim(),
        corollary1_optimal_claim(),
        expected_relevance_claim(),
    ]
    c += [theorem4_i_claim(), theorem4_ii_claim(), rank_one_claim(), exp_minimiser_claim(), misorder_claim()]
    f_eq6 = Finding(
        what=(
            "Eq. (6) writes the derivative of p_{j+1} l(t - theta_j) as p_{j+1} l'(theta_j - t*); it is "
            "p_{j+1} l'(t* - theta_j).  As printed, (6) with l(s) = e^{-s} does not depend on t and cannot give (7)."
        ),
        counterexample="K = 2, l(s) = e^{-s}, p = (1/2, 1/2), theta_1 = 0, t = 1: the derivative is (e - 1/e)/2, "
        "the printed right side is 0.",
        corrected="uematsu2013.section4.eq6.corrected",
    )
    c.append(eq6_claim("uematsu2013.section4.eq6", corrected=False, generic=False, finding=f_eq6))
    c.append(eq6_claim("uematsu2013.section4.eq6.corrected", corrected=True, generic=True))
    c += [
        eq7_claim(),
        orboost_costs_claim(),
        orboost_relation_claim(),
        orboost_nonneg_claim(),
        orboost_condition_claim(),
    ]
    c += [likelihood_claim(), population_claim(), k3_form_claim(), eq8_claim(), q_is_f0_claim(), q_monotone_claim()]
    c += [svor_case_claim(1, k) for k in (1, 2, 3, 4)] + [svor_case_claim(2, k) for k in (1, 2)]
    c += [
        svor_rtable_claim("uematsu2013.section4_3.svor1.r_table.cases12", 1, "cases12"),
        svor_rtable_claim("uematsu2013.section4_3.svor1.r_table.case3", 1, "case3"),
        svor_rtable_claim("uematsu2013.section4_3.svor2.r_table", 2, "cases12"),
        svor_equiv_claim("uematsu2013.section4_3.svor1.r_equivalences", 1),
        svor_equiv_claim("uematsu2013.section4_3.svor2.r_equivalences", 2),
        median_claim(),
        svor2_function_claim(),
    ]
    c += [indicator_claim(), argmax_claim()]
    f_mrr = Finding(
        what=(
            "Table 1's MRR row (G = I(y = 2), D(i) = 1/i) sums 1/position over every relevant item; the reciprocal "
            "rank is 1/(position of the first relevant item).  They agree only when exactly one item is relevant."
        ),
        counterexample="n = 2, both items relevant: sum G D = 1 + 1/2 = 3/2, reciprocal rank 1.",
        corrected="uematsu2013.section5_2.table1.mrr.corrected",
    )
    c += [
        table1_claim("uematsu2013.section5_2.table1.auc", "auc"),
        table1_claim("uematsu2013.section5_2.table1.p_at_m", "p_at_m"),
        table1_claim("uematsu2013.section5_2.table1.mrr", "mrr", finding=f_mrr),
        table1_claim("uematsu2013.section5_2.table1.mrr.corrected", "mrr", any_relevant=False),
        rearrangement_claim(),
        dcg_claim(),
        dcg_f0_claim(),
        ap_swap_claim(),
        ap_sorted_claim(),
    ]
    c += [
        mixture_f0_claim(),
        mixture_orboost_claim(),
        mixture_propodds_claim(),
        svor_steps_claim(),
        number_claim(
            "uematsu2013.section6_1.c13_orboost",
            [("e^{2.06}", sympy.exp(R(206, 100)), "7.846")],
            location="Section 6.1",
            quote="c_13 = e^{-theta_1} = e^{2.06} = 7.846",
            statement="e^{2.06} rounds to 7.846",
        ),
        number_claim(
            "uematsu2013.section6_2.c13_orboost",
            [("e^{0.183}", sympy.exp(R(183, 1000)), "1.201")],
            location="Section 6.2",
            quote="which amounts to e^{-theta_1} = 1.201",
            statement="e^{0.183} rounds to 1.201",
        ),
        svor_thresholds_claim(),
        pairrank2_claim(),
        orboost_k3_claim(),
    ]
    f_prop = Finding(
        what="The proportion of rating 1 is printed 5.18 %; 5039/97139 = 5.1874 % rounds to 5.19 % (the other four "
        "are rounded, not truncated).",
        counterexample="100 x 5039/97139 = 5.18741...",
        corrected="uematsu2013.section6_2.proportions.corrected",
    )
    c += [
        proportions_claim("uematsu2013.section6_2.proportions", PRINTED_PERCENT, finding=f_prop),
        proportions_claim("uematsu2013.section6_2.proportions.corrected", CORRECTED_PERCENT),
        unbalanced_claim(),
        table2_claim("uematsu2013.section6_2.table2.balanced", "balanced"),
        table2_claim("uematsu2013.section6_2.table2.unbalanced", "unbalanced"),
    ]
    return c


CLAIMS = build_claims()


# ---------------------------------------------------------------------------------------
# Negative twins (DESIGN.md, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with this module's own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says otherwise: "proved" (proved or confirmed on samples) for the
# paper's own "false" statement -- the twin adds the condition; "unknown" for the twin of the
# numeric claim (a numeric check never refutes; it must not confirm).  Errata are their own
# twins.  `symcal selftest --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


C13_ZERO = CostScheme(3, {(1, 2): 1, (1, 3): 0, (2, 3): 1})
BAL = {**TABLE2["balanced"], (3, 4): "0.064"}
UNBAL = {**TABLE2["unbalanced"], (2, 4): "0.967"}
S = "uematsu2013."

TWINS: dict[str, Callable[[], Claim]] = {
    S + "section2.regression_identity": lambda: regression_claim(twin_id("uematsu2013.s2"), two=3),
    S + "section3.pairs_costs": lambda: empirical_claim(
        twin_id("uematsu2013.pairs"), "pairs", variant="half", sizes=(2, 3)
    ),
    S + "section3.ovo_costs": lambda: empirical_claim(twin_id("uematsu2013.ovo"), "ovo", variant="half", sizes=(2, 3)),
    S + "section3.cons_costs": lambda: empirical_claim(
        twin_id("uematsu2013.cons"), "cons", variant="to_i", sizes=(2, 3)),
    S + "section3.f0_expected_costs": lambda: expected_cost_claim(twin_id("uematsu2013.ec"), c11=1, sizes=(3, 3)),
    S + "theorem3.condition.linear": lambda: sweep_claim(twin_id("uematsu2013.lin"), "zero_one", sizes=(2, 5)),
    S + "theorem3.condition.dcg": lambda: sweep_claim(twin_id("uematsu2013.dcg"), "zero_one", sizes=(4, 4)),
    S + "theorem3.condition.normalised": lambda: normalised_claim(twin_id("uematsu2013.norm"), sign=-1),
    S + "theorem3.condition.void_at_i_eq_k": lambda: void_claim(twin_id("uematsu2013.void"), cKK=1),
    S + "theorem3.condition.additive_spacing": lambda: additivity_claim(twin_id("uematsu2013.add"), drop=True),
    S + "theorem3.condition.is_corollary1_family": lambda: corollary1_form_claim(
        twin_id("uematsu2013.fam"), with_condition=False, sizes=(4, 4)
    ),
    S + "theorem3.i.corrected": lambda: theorem3_claim(
        twin_id("uematsu2013.t3i"), "i", c1K_positive=True, sizes=(2, 3), twin_costs=C13_ZERO
    ),
    S + "theorem3.ii.corrected": lambda: theorem3_claim(
        twin_id("uematsu2013.t3ii"), "ii", c1K_positive=True, sizes=(2, 3), twin_costs=zero_one_costs(4)
    ),
    S + "theorem3.proof.strict.corrected": lambda: strictness_claim(
        twin_id("uematsu2013.strict"), corrected=True, sizes=(2, 3), twin_costs=zero_one_costs(4)
    ),
    S + "theorem3.proof.eq10": lambda: eq10_claim(twin_id("uematsu2013.eq10"), d_sign=1),
    S + "theorem3.proof.eq11": lambda: eq11_claim(twin_id("uematsu2013.eq11"), r_sign=1, sizes=(4, 4)),
    S + "theorem3.proof.c_ratio": lambda: c_ratio_claim(twin_id("uematsu2013.cratio"), swap=True, sizes=(3, 3)),
    S + "theorem3.proof.rji_symmetric": lambda: rji_claim(
        twin_id("uematsu2013.rji"), with_condition=False, sizes=(4, 4)),
    S + "corollary1.condition.all_k": lambda: corollary1_all_k_claim(twin_id("uematsu2013.allk"), power=2),
    S + "corollary1.proof.f0_forms": lambda: corollary1_f0_claim(
        twin_id("uematsu2013.f0f"), drop_weights=True, sizes=(3, 3)
    ),
    S + "corollary1.proof.monotone": lambda: corollary1_monotone_claim(twin_id("uematsu2013.mono"), flip=True),
    S + "corollary1": lambda: corollary1_optimal_claim(
        twin_id("uematsu2013.cor1"), sizes=(2, 3), unweighted_denominator=True
    ),
    S + "corollary1.expected_relevance": lambda: expected_relevance_claim(
        twin_id("uematsu2013.er"), square=True, sizes=(3, 3)
    ),
    S + "theorem4.i.identity": lambda: theorem4_i_claim(twin_id("uematsu2013.t4i"), divide=False),
    S + "theorem4.ii.identity": lambda: theorem4_ii_claim(
        twin_id("uematsu2013.t4ii"), with_condition=False, sizes=(4, 4)),
    S + "theorem4.finite.rank_one": lambda: rank_one_claim(
        twin_id("uematsu2013.r1"), costs=zero_one_costs(4), sizes=(2, 2)
    ),
    S + "theorem4.exp_minimiser": lambda: exp_minimiser_claim(twin_id("uematsu2013.expmin"), half=1, sizes=(2, 2)),
    S + "section4.eq6.corrected": lambda: eq6_claim(
        twin_id("uematsu2013.eq6"), corrected=True, generic=False, second_flipped=True, sizes=(2, 2)
    ),
    S + "section4_1.eq7": lambda: eq7_claim(twin_id("uematsu2013.eq7"), half=1, sizes=(2, 2)),
    S + "section4_1.orboost_costs": lambda: orboost_costs_claim(twin_id("uematsu2013.orc"), sign=1, sizes=(4, 4)),
    S + "section4_1.orboost_relation": lambda: orboost_relation_claim(
        twin_id("uematsu2013.orr"), plus_one=2, sizes=(3, 3)
    ),
    S + "section4_1.orboost_costs_nonnegative": lambda: orboost_nonneg_claim(
        twin_id("uematsu2013.orn"), ordered=False, sizes=(4, 4)
    ),
    S + "section4_1.orboost_condition": lambda: orboost_condition_claim(
        twin_id("uematsu2013.orcond"), bump=1, sizes=(4, 4)
    ),
    S + "section4_2.likelihood": lambda: likelihood_claim(twin_id("uematsu2013.lik"), sign=-1),
    S + "section4_2.population_equation": lambda: population_claim(
        twin_id("uematsu2013.pop"), use_pK=True, sizes=(3, 3)),
    S + "section4_2.k3_form": lambda: k3_form_claim(twin_id("uematsu2013.k3"), with_factor=False),
    S + "section4_2.eq8": lambda: eq8_claim(twin_id("uematsu2013.eq8"), four=2),
    S + "section4_2.q_is_unit_cost_f0": lambda: q_is_f0_claim(twin_id("uematsu2013.q"), c13=2),
    S + "section4_2.f_star_increasing_in_q": lambda: q_monotone_claim(
        twin_id("uematsu2013.qmono"), flip=True, pin=True),
    **{
        f"{S}section4_3.svor{v}.case{k}": (
            lambda v=v, k=k: svor_case_claim(v, k, twin_id(f"uematsu2013.svor{v}c{k}"), nudge=1)
        )
        for v, k in ((1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2))
    },
    S + "section4_3.svor1.r_table.cases12": lambda: svor_rtable_claim(
        twin_id("uematsu2013.rt1"), 1, "cases12", swap=True),
    S + "section4_3.svor1.r_table.case3": lambda: svor_rtable_claim(twin_id("uematsu2013.rt3"), 1, "case3", swap=True),
    S + "section4_3.svor2.r_table": lambda: svor_rtable_claim(twin_id("uematsu2013.rt2"), 2, "cases12", swap=True),
    S + "section4_3.svor1.r_equivalences": lambda: svor_equiv_claim(twin_id("uematsu2013.req1"), 1, nudge=1),
    S + "section4_3.svor2.r_equivalences": lambda: svor_equiv_claim(twin_id("uematsu2013.req2"), 2, nudge=1),
    S + "section4_3.svor1.median": lambda: median_claim(twin_id("uematsu2013.median"), upper=3),
    S + "section4_3.svor2.same_function": lambda: svor2_function_claim(twin_id("uematsu2013.same"), swap=True),
    S + "section4_4.indicator_risk": lambda: indicator_claim(
        twin_id("uematsu2013.ind"), shift=sympy.Rational(1, 2), sizes=(3, 3)
    ),
    S + "section4_4.no_cost_gives_argmax": lambda: argmax_claim(twin_id("uematsu2013.argmax"), only_first=True),
    S + "section5_2.table1.auc": lambda: table1_claim(twin_id("uematsu2013.auc"), "auc", offset=1, n_max=4),
    S + "section5_2.table1.p_at_m": lambda: table1_claim(twin_id("uematsu2013.pm"), "p_at_m", offset=1, n_max=4),
    S + "section5_2.table1.mrr.corrected": lambda: table1_claim(
        twin_id("uematsu2013.mrr"), "mrr", any_relevant=False, offset=1, n_max=4
    ),
    S + "section5_2.optimal_by_expected_gain": lambda: rearrangement_claim(
        twin_id("uematsu2013.rearr"), increasing_d=True
    ),
    S + "section5_2.dcg_costs": lambda: dcg_claim(twin_id("uematsu2013.dcgc"), base=3, sizes=(2, 2)),
    S + "section5_2.dcg_f0": lambda: dcg_f0_claim(twin_id("uematsu2013.dcgf"), base=3, sizes=(2, 2)),
    S + "section5_2.ap_swap": lambda: ap_swap_claim(twin_id("uematsu2013.ap"), square=True, sizes=(3, 3)),
    S + "section5_2.ap_sorted_optimal": lambda: ap_sorted_claim(twin_id("uematsu2013.aps"), ascending=True),
    S + "section6_1.normal_mixture_f0": lambda: mixture_f0_claim(twin_id("uematsu2013.mix"), e2=sympy.exp(1)),
    S + "section6_1.orboost_f_star": lambda: mixture_orboost_claim(twin_id("uematsu2013.mixor"), sign=-1),
    S + "section6_1.propodds_f_star": lambda: mixture_propodds_claim(twin_id("uematsu2013.mixpo"), four=2),
    S + "section6_1.svor_steps": lambda: svor_steps_claim(twin_id("uematsu2013.steps"), printed="1.03"),
    S + "section6_1.c13_orboost": lambda: number_claim(
        twin_id("uematsu2013.c13a"),
        [("e^{2.06}", sympy.exp(sympy.Rational(206, 100)), "7.847")],
        location="Section 6.1",
        quote="q",
        statement="twin: 7.847",
    ),
    S + "section6_2.c13_orboost": lambda: number_claim(
        twin_id("uematsu2013.c13b"),
        [("e^{0.183}", sympy.exp(sympy.Rational(183, 1000)), "1.202")],
        location="Section 6.2",
        quote="q",
        statement="twin: 1.202",
    ),
    S + "section6_2.svor_thresholds": lambda: svor_thresholds_claim(twin_id("uematsu2013.svt"), theta2="0.62"),
    S + "section6_2.pairrank2_regression": lambda: pairrank2_claim(twin_id("uematsu2013.pr2"), c13=1),
    S + "section6_2.orboost_k3_costs": lambda: orboost_k3_claim(twin_id("uematsu2013.ork3"), theta2=1),
    S + "section6_2.proportions.corrected": lambda: proportions_claim(
        twin_id("uematsu2013.prop"), ("5.19", "11.16", "27.23", "34.84", "21.58")
    ),
    S + "section6_2.unbalanced_sample": lambda: unbalanced_claim(twin_id("uematsu2013.unbal"), tol="0.01"),
    S + "section6_2.table2.balanced": lambda: table2_claim(twin_id("uematsu2013.t2b"), "balanced", printed=BAL),
    S + "section6_2.table2.unbalanced": lambda: table2_claim(twin_id("uematsu2013.t2u"), "unbalanced", printed=UNBAL),
    # the paper's own "false" statement: the condition is needed; the twin adds the condition
    S + "theorem3.ii.condition_needed": lambda: condition_needed_claim(
        twin_id("uematsu2013.needed"), costs=linear_costs(4), sizes=(2, 3)
    ),
    # the numeric claim: with the extra term the misordering goes away
    S + "theorem4.without_extra_term_misorders": lambda: misorder_claim(twin_id("uematsu2013.misorder"), extra=True),
}

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {
    S + "theorem3.ii.condition_needed": "proved",
    S + "theorem4.without_extra_term_misorders": "unknown",
}
