"""Section 3 of Uematsu & Lee (2013): the empirical metrics as R^_0 with costs, Theorem 3 (checked on
finite instance spaces), the condition on the costs, and Corollary 1."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity
from symcal.claims.core import Claim
from symcal.errors import BackendFailure
from symcal.ranking.costs import (
    CostScheme,
    linear_costs,
    satisfies_theorem3_condition,
    zero_one_costs,
)
from symcal.ranking.multipartite import check_theorem3

from .common import (
    N_RANDOM,
    F,
    P,
    cite,
    condition_costs,
    corollary1_schemes,
    cs,
    defined_cases,
    describe_case,
    identity_of_sides,
    instances,
    on_simplex,
    pairs,
    pvec,
    sym,
    twin_id,
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
    """Samples with n_k in {1, 2} per category and every ranking of them (60 seeded rankings when n > 6)."""
    rng = random.Random(K)
    for counts in itertools.product((1, 2), repeat=K):
        labels = tuple(k for k in range(1, K + 1) for _ in range(counts[k - 1]))
        n = len(labels)
        perms: Any = itertools.permutations(range(n)) if n <= 6 else (tuple(rng.sample(range(n), n)) for _ in range(60))
        for perm in perms:
            yield labels, tuple(perm)


def empirical_claim(id: str, which: str, *, variant: str = "", sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Section 3: "When c_ji = I(j < i), R^_0(f; c) = R^_pairs(f). Similarly, if c_ji = ..., R^_0 = R^_ovo,
    and if c_ji = ..., R^_0 = R^_cons" (``which``; ``variant`` perturbs the printed costs: the twins)."""
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
) -> Claim:
    """Section 3, after Theorem 3: "Under the natural assumption of c_11 = c_KK = 0, ... f_0^*(x) =
    E(c_1Y | X = x) / E(c_YK | X = x)" (``c11`` = 1 breaks the assumption: the twin)."""
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
# The condition: sweeps, normalised form, the Corollary 1 family
# ---------------------------------------------------------------------------------------


# The named schemes as formulas: each category k carries a value v(k) (its index k, or DCG's gain 2^k) and
# c(a, b) is a formula of the two categories' values (c_kk = 0 follows from the formula itself).
SCHEME_FORMULAS: dict[str, tuple[Callable[[int], int], Callable[[Any, Any], Any], str]] = {
    "linear": (lambda k: k, lambda a, b: b - a, "c_ji = i - j"),
    "dcg": (lambda k: 2**k, lambda a, b: b - a, "c_ji = g_i - g_j, g_k = 2^k"),
    "zero_one": (lambda k: k, lambda a, b: sympy.Piecewise((1, a < b), (0, True)), "c_ji = I(j < i)"),
}


def condition_formula(scheme: str, K: int) -> tuple[list[Any], dict[Any, int]]:
    """Theorem 3's condition c_1K c_ji = c_1i c_jK - c_1j c_iK at every pair 1 <= j < i <= K, the costs written
    by the scheme's formula over the categories' values: v(1), v(K) (symbols y_1, y_K) and, per pair, v(j),
    v(i) (symbols yj_j_i, yi_j_i, so that j = 1 or i = K is a value, not a simplification sympy makes)."""
    value, c, _ = SCHEME_FORMULAS[scheme]
    y1, yK = sympy.Symbol("y_1"), sympy.Symbol("y_K")
    conds, values = [], {y1: value(1), yK: value(K)}
    for j, i in pairs(K):
        yj, yi = sympy.Symbol(f"yj_{j}_{i}"), sympy.Symbol(f"yi_{j}_{i}")
        values |= {yj: value(j), yi: value(i)}
        conds.append(sympy.Eq(c(y1, yK) * c(yj, yi), c(y1, yi) * c(yj, yK) - c(y1, yj) * c(yi, yK), evaluate=False))
    return conds, values


def sweep_claim(
    id: str,
    scheme: str,
    *,
    sizes: tuple[int, int] = (2, 12),
    quote: str = "",
    location: str = "Section 3, after Theorem 3",
) -> Claim:
    """A cost scheme satisfies Theorem 3's condition c_1K c_ji = c_1i c_jK - c_1j c_iK at every pair, for each K
    of ``sizes`` (Section 3: "c_ji = (i - j) I(i > j) ... meets the condition"; Section 5.2: DCG).  Each K is a
    formula (``condition_formula``): the scheme's costs written over the categories' values, decided exactly."""
    return finite_check(
        id,
        cases=lambda K: [K],
        formula=lambda K: condition_formula(scheme, K),
        describe=lambda K: {"K": K, "scheme": scheme},
        domain=f"the {scheme} cost scheme ({SCHEME_FORMULAS[scheme][2]}), every pair (j, i), exact",
        cite=cite(location, quote or "c_ji = (i - j) I(i > j) ... meets the condition"),
        statement=f"the {scheme} scheme satisfies c_1K c_ji = c_1i c_jK - c_1j c_iK for every K in the sweep",
        sizes=sizes,
    )


def normalised_claim(id: str = "uematsu2013.theorem3.condition.normalised", *, sign: int = 1) -> Claim:
    """Section 3, after Theorem 3: "the condition above is equivalent to ... c_ji/c_1K = (c_jK/c_1K)(c_iK/c_1K)
    (c_1i/c_iK - c_1j/c_jK)" (``sign`` = -1 flips the spacing: the twin)."""
    c1K, cjK, ciK, c1i, c1j = (sym(n, positive=True) for n in ("c_1_K", "c_j_K", "c_i_K", "c_1_i", "c_1_j"))
    normalised_rhs = (cjK / c1K) * (ciK / c1K) * (c1i / ciK - sign * c1j / cjK)
    return identity(
        id,
        c1K * normalised_rhs,
        (c1i * cjK - c1j * ciK) / c1K,
        cite=cite("Section 3, after Theorem 3", "c_ji/c_1K = (c_jK/c_1K)(c_iK/c_1K)(c_1i/c_iK - c_1j/c_jK)"),
        statement="c_1K x the normalised right side = (c_1i c_jK - c_1j c_iK)/c_1K, so the two forms are equivalent",
    )


def void_claim(id: str = "uematsu2013.theorem3.condition.void_at_i_eq_k", *, cKK: Any = 0, c11: Any = 0) -> Claim:
    """Section 3, after Theorem 3: "the restriction in the theorem becomes void when i = K" (and at j = 1),
    given c_11 = c_KK = 0 (``cKK`` = 1: the twin)."""
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


def additivity_claim(id: str = "uematsu2013.theorem3.condition.additive_spacing", *, drop: bool = False) -> Claim:
    """Section 3, after Theorem 3: "the relative spacing induced in the cost space is additive"
    (``drop`` leaves out the middle spacing: the twin)."""
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
) -> Claim:
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

    return identity_of_sides(
        id,
        parts,
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


def k3_schemes(*, positive_c13: bool) -> list[CostScheme]:
    """Every K = 3 scheme with costs in {0, 1, 2}, cheapest first (c_13 > 0 when ``positive_c13``)."""
    grid = sorted(itertools.product(range(3), repeat=3), key=lambda c: (sum(c), c))
    return [
        CostScheme(3, {(1, 2): a, (1, 3): b, (2, 3): c}, f"c=({a},{b},{c})")
        for a, b, c in grid
        if (b > 0 or not positive_c13) and (a, b, c) != (0, 0, 0)
    ]



def theorem3_cases(
    part: str, *, c1K_positive: bool, twin_costs: CostScheme | None = None
) -> Callable[[int], Iterator[Any]]:
    """The (costs, instance space) cases of Theorem 3 (``part`` i or ii) for m points."""
    if twin_costs is not None:
        schemes = [twin_costs]
    elif part == "i":
        schemes = k3_schemes(positive_c13=c1K_positive)
    else:
        schemes = [s for K in (4, 5) for s in corollary1_schemes(K, 12, 11, w_min=1 if c1K_positive else 0)]
        if not c1K_positive:  # the edge c_1K = 0 (w_1 = 0) first
            schemes.sort(key=lambda s: s.c(1, s.K) != 0)
    return lambda m: defined_cases(schemes, m, N_RANDOM.get(m, 1), seed=7)


THEOREM3_QUOTES = {
    "i": "When K = 3, let f_0^*(x) := (c12 P(Y=2|x) + c13 P(Y=3|x)) / (c13 P(Y=1|x) + c23 P(Y=2|x)). "
    "Then for any ranking function f, R_0(f_0^*; c) <= R_0(f; c).",
    "ii": "If c_1K c_ji = c_1i c_jK - c_1j c_iK for all 1 <= j < i <= K, then for any ranking function f, "
    "R_0(f_0^*; c) <= R_0(f; c).",
}


def f0_is_optimal(case: Any, *, need_condition: bool = False) -> tuple[bool, str]:
    """Whether f_0^* minimises R_0 over every weak order of a (costs, instance space) case; a generated scheme
    that should meet the condition (``need_condition``) and does not is an error, not a counterexample."""
    costs, space = case
    if need_condition and satisfies_theorem3_condition(costs).holds is not True:
        raise BackendFailure(f"generated scheme {costs} violates the condition")
    r = check_theorem3(space, costs)
    return r.f0_optimal, (
        f"R_0(f_0^*) = {r.f0_risk}, min over {r.orders} weak orders = {r.min_risk}; "
        f"f_0^* levels {list(r.f0_levels)}, minimisers {[list(x) for x in r.minimisers[:3]]}"
    )


def theorem3_claim(
    id: str,
    part: str,
    *,
    c1K_positive: bool,
    sizes: tuple[int, int],
    twin_costs: CostScheme | None = None,
    finding: Finding | None = None,
    expected: str | None = None,
) -> Claim:
    """Theorem 3 (i) and (ii): "for any ranking function f, R_0(f_0^*; c) <= R_0(f; c)", on finite instance
    spaces, minimised over every weak order of the m points; ``c1K_positive`` adds the corrected hypothesis."""
    hyp = "c_1K > 0" if c1K_positive else "non-negative costs (c_1K = 0 allowed)"
    dom = {"i": "K = 3, costs in {0,1,2}^3",
           "ii": "K = 4, 5, Corollary 1 schemes with w in {0..2}, s increasing integers"}
    return finite_check(
        id,
        cases=theorem3_cases(part, c1K_positive=c1K_positive, twin_costs=twin_costs),
        holds=lambda case: f0_is_optimal(case, need_condition=part == "ii" and twin_costs is None),
        describe=describe_case,
        sample="a grid of cost schemes and seeded finite instance spaces",
        domain=f"{dom[part]} ({hyp}) x instance spaces of m points x every weak order of the m points",
        cite=cite(f"Theorem 3 ({part})", THEOREM3_QUOTES[part]),
        statement=f"Theorem 3 ({part}) with {hyp}: R_0(f_0^*) = min over all weak orders of m points",
        sizes=sizes,
        finding=finding,
        expected=expected,
    )


def condition_needed_claim(
    id: str = "uematsu2013.theorem3.ii.condition_needed",
    *,
    costs: CostScheme | None = None,
    sizes: tuple[int, int] = (2, 3),
) -> Claim:
    """Theorem 3 (ii) without its condition: the 0-1 costs at K = 4 violate it, and f_0^* is then not optimal
    (expected refuted; ``costs`` = the linear scheme, which meets it, is the twin: proved)."""
    scheme = costs or zero_one_costs(4)
    return finite_check(
        id,
        cases=lambda m: defined_cases([scheme], m, 20, seed=3),
        holds=f0_is_optimal,
        describe=describe_case,
        sample="seeded finite instance spaces",
        domain=f"{scheme.name} costs (K = {scheme.K}) x instance spaces x every weak order",
        cite=cite("Theorem 3 (ii)", "If c_1K c_ji = c_1i c_jK - c_1j c_iK for all 1 <= j < i <= K, then ..."),
        statement=f"f_0^* minimises R_0 also for the {scheme.name} costs at K = {scheme.K}, which violate the "
        "condition (the condition is needed: expected refuted)",
        sizes=sizes,
        expected="refuted" if costs is None else "proved",
    )


# ---------------------------------------------------------------------------------------
# Corollary 1
# ---------------------------------------------------------------------------------------


def corollary1_risk_is_minimal(case: Any, *, unweighted_denominator: bool = False) -> tuple[bool, str]:
    """Whether Corollary 1's f_0^* = sum s_k w_k p_k / sum w_k p_k attains the minimum of R_0 over every weak
    order, for c_ji = w_i w_j (s_i - s_j) on a finite instance space."""
    from symcal.ranking.multipartite import levels_from_scores, pair_table

    (w, s), space = case
    K = len(w)
    costs = CostScheme(K, {(j, i): w[i - 1] * w[j - 1] * (s[i - 1] - s[j - 1]) for j, i in pairs(K)})
    scores = [sum(s[k] * w[k] * row[k] for k in range(K))
              / sum((F(1) if unweighted_denominator else w[k]) * row[k] for k in range(K)) for row in space.posteriors]
    risk, r = pair_table(space, costs).risk(levels_from_scores(scores)), check_theorem3(space, costs)
    return risk == r.min_risk, f"R_0(Corollary 1's f_0^*) = {risk}, minimum = {r.min_risk}"


def corollary1_cases(m: int) -> Iterator[Any]:
    """Seeded weights w in {0..3}^K (not all 0) and increasing integer scales s, K = 3..5, x instance spaces
    of m points on which every weighted mass sum w_k p_k is positive."""
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


def corollary1_optimal_claim(
    id: str = "uematsu2013.corollary1", *, sizes: tuple[int, int] = (2, 5), unweighted_denominator: bool = False
) -> Claim:
    """Corollary 1: "Suppose that c_ji = w_i w_j (s_i - s_j) I(i > j) ... Then for any ranking function f,
    R_0(f_0^*; c) <= R_0(f; c)" (``unweighted_denominator`` drops the weights below: the twin)."""
    return finite_check(
        id,
        cases=corollary1_cases,
        holds=lambda case: corollary1_risk_is_minimal(case, unweighted_denominator=unweighted_denominator),
        describe=lambda case: {"w": case[0][0], "s": case[0][1], **case[1].to_json()},
        sample="a grid of weights and scales and seeded finite instance spaces",
        domain="K = 3..5, w in {0..3}^K, increasing integer s, instance spaces x every weak order",
        cite=cite("Corollary 1", "Suppose that c_ji = w_i w_j (s_i - s_j) I(i > j) ... Then for any ranking "
                                 "function f, R_0(f_0^*; c) <= R_0(f; c)."),
        statement="f_0^* = sum s_i w_i p_i / sum w_j p_j minimises R_0 for c_ji = w_i w_j (s_i - s_j) (w >= 0, "
        "s increasing)",
        sizes=sizes,
    )


def expected_relevance_claim(
    id: str = "uematsu2013.corollary1.expected_relevance", *, square: bool = False, sizes: tuple[int, int] = (2, 6)
) -> Claim:
    """Section 3, after Corollary 1: "when s_j = j and w_j = 1, c_ji = (i - j) I(i > j) and hence f_0^*(x) =
    E[Y|X = x]" (``square`` takes s_j = j^2: the twin)."""
    def parts(K: int) -> tuple[Any, Any]:
        p = pvec(K)
        s = [k * k if square else k for k in range(1, K + 1)]
        costs = {(j, i): (s[i - 1] - s[j - 1]) for j, i in pairs(K)}
        same = all(costs[(j, i)] == i - j for j, i in pairs(K))
        E = on_simplex(sum(k * p[k - 1] for k in range(1, K + 1)), K)
        cor_f0 = on_simplex(sum(s[k - 1] * p[k - 1] for k in range(1, K + 1)) / sum(p), K)
        return sympy.Matrix([cor_f0, int(same)]), sympy.Matrix([E, 1])

    return identity_of_sides(
        id,
        parts,
        sizes=sizes,
        cite=cite(
            "Section 3, after Corollary 1",
            "when s_j = j and w_j = 1, c_ji = (i - j) I(i > j) and hence f_0^*(x) = E[Y|X = x]",
        ),
        statement="s_j = j, w_j = 1 give c_ji = i - j and Corollary 1's f_0^* = E[Y|x]",
    )


# ---------------------------------------------------------------------------------------
# The claims of Section 3, in reading order
# ---------------------------------------------------------------------------------------

pairs_costs = empirical_claim("uematsu2013.section3.pairs_costs", "pairs")
ovo_costs = empirical_claim("uematsu2013.section3.ovo_costs", "ovo")
cons_costs = empirical_claim("uematsu2013.section3.cons_costs", "cons")

# Theorem 3 as printed (errata on c_1K = 0) and corrected
theorem3_i_corrected = theorem3_claim("uematsu2013.theorem3.i.corrected", "i", c1K_positive=True, sizes=(2, 5))
theorem3_i = theorem3_claim(
    "uematsu2013.theorem3.i", "i", c1K_positive=False, sizes=(2, 3),
    finding=Finding(
        what=(
            "Theorem 3 (i) allows non-negative costs, but with c_13 = 0 its f_0^* = c12 p2/(c23 p2) is constant where "
            "defined and not optimal (the proof divides by c_13)."
        ),
        counterexample=(
            "K = 3, (c12, c13, c23) = (0, 0, 1), two points of mass 1/2 with posteriors (0, 1, 0) and "
            "(0, 1/2, 1/2): f_0^* = 0 ties them (R_0 = 1/2); ranking the second higher gives R_0 = 1/6."
        ),
        corrected=theorem3_i_corrected.id,
        finding_class="hypothesis",
    ),
)
theorem3_ii_corrected = theorem3_claim("uematsu2013.theorem3.ii.corrected", "ii", c1K_positive=True, sizes=(2, 6))
theorem3_ii = theorem3_claim(
    "uematsu2013.theorem3.ii", "ii", c1K_positive=False, sizes=(2, 3),
    finding=Finding(
        what=(
            "Theorem 3 (ii) with c_1K = 0: the condition can hold (e.g. c_1i = 0 for all i) while f_0^* = 0 is "
            "constant and not optimal; the proof divides by c_1K."
        ),
        counterexample=(
            "K = 4, c_34 = 32 and every other c_ji = 0 (w = (0, 0, 2, 2), s = (0, 2, 3, 11)); two points of "
            "mass 1/2 with posteriors (0, 0, 1, 0) and (0, 0, 1/2, 1/2): f_0^* = 0 ties them (R_0 = 16); "
            "ranking the second higher gives R_0 = 16/3."
        ),
        corrected=theorem3_ii_corrected.id,
        finding_class="hypothesis",
    ),
)
condition_needed = condition_needed_claim()
f0_expected_costs = expected_cost_claim()
condition_linear = sweep_claim("uematsu2013.theorem3.condition.linear", "linear")
normalised = normalised_claim()
void_at_i_eq_k = void_claim()
additive_spacing = additivity_claim()
is_corollary1_family = corollary1_form_claim()
corollary1 = corollary1_optimal_claim()
expected_relevance = expected_relevance_claim()

C13_ZERO = CostScheme(3, {(1, 2): 1, (1, 3): 0, (2, 3): 1})

TWINS: dict[str, Callable[[], Claim]] = {
    pairs_costs.id: lambda: empirical_claim(twin_id("uematsu2013.pairs"), "pairs", variant="half", sizes=(2, 3)),
    ovo_costs.id: lambda: empirical_claim(twin_id("uematsu2013.ovo"), "ovo", variant="half", sizes=(2, 3)),
    cons_costs.id: lambda: empirical_claim(twin_id("uematsu2013.cons"), "cons", variant="to_i", sizes=(2, 3)),
    theorem3_i_corrected.id: lambda: theorem3_claim(
        twin_id("uematsu2013.t3i"), "i", c1K_positive=True, sizes=(2, 3), twin_costs=C13_ZERO
    ),
    theorem3_ii_corrected.id: lambda: theorem3_claim(
        twin_id("uematsu2013.t3ii"), "ii", c1K_positive=True, sizes=(2, 3), twin_costs=zero_one_costs(4)
    ),
    # the paper's own "false" statement: the condition is needed; the twin adds the condition (proved)
    condition_needed.id: lambda: condition_needed_claim(
        twin_id("uematsu2013.needed"), costs=linear_costs(4), sizes=(2, 3)
    ),
    f0_expected_costs.id: lambda: expected_cost_claim(twin_id("uematsu2013.ec"), c11=1, sizes=(3, 3)),
    condition_linear.id: lambda: sweep_claim(twin_id("uematsu2013.lin"), "zero_one", sizes=(2, 5)),
    normalised.id: lambda: normalised_claim(twin_id("uematsu2013.norm"), sign=-1),
    void_at_i_eq_k.id: lambda: void_claim(twin_id("uematsu2013.void"), cKK=1),
    additive_spacing.id: lambda: additivity_claim(twin_id("uematsu2013.add"), drop=True),
    is_corollary1_family.id: lambda: corollary1_form_claim(
        twin_id("uematsu2013.fam"), with_condition=False, sizes=(4, 4)
    ),
    corollary1.id: lambda: corollary1_optimal_claim(
        twin_id("uematsu2013.cor1"), sizes=(2, 3), unweighted_denominator=True
    ),
    expected_relevance.id: lambda: expected_relevance_claim(twin_id("uematsu2013.er"), square=True, sizes=(3, 3)),
}
TWIN_EXPECT = {condition_needed.id: "proved"}
