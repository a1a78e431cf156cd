"""Section 4.1: Definition 3 over abstract loss values, Propositions 4 and 5, and Theorem 6 (its
pair set, and the most probable subgroup it singles out)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import sympy

from symcal import Finding, finite_check, implies_cases

from .common import (
    before,
    changes_subgroup,
    cite,
    order_preserving,
    perms,
    phi_vars,
    simplex,
    subgroup_prob,
    swap,
    tie_patterns,
)

# ---------------------------------------------------------------------------------------
# Definition 3 over abstract loss values: Propositions 4 and 5
# ---------------------------------------------------------------------------------------


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


def proposition4_claim(id: str, *, k_shift: int = 0, sizes: tuple[int, int] = (3, 4)) -> Any:
    """Proposition 4, Section 4.1: "for all y, for all pi in G_k(y(1), ..., y(k)), we have
    phi(g, pi) = phi(g, y)"."""
    return implies_cases(
        id, cases=lambda n: proposition4_cases(n, k_shift=k_shift), sizes=sizes,
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
        for y in (y for y in perms(n) if before(y, 1, 2)):
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


def proposition5_claim(id: str, *, flip: bool = False, sizes: tuple[int, int] = (3, 5)) -> Any:
    """Proposition 5, Section 4.1: "for all objects i and j with g_i = g_j ... then d phi(g, sigma y)/d g_i
    >= d phi(g, y)/d g_i. Otherwise, ... ="."""
    return implies_cases(
        id, cases=lambda n: proposition5_cases(n, flip=flip), sizes=sizes,
        domain="k = 1..n, pair (1, 2) tied; phi at g and at g - t e_1 real variables",
        cite=cite("Proposition 5, Section 4.1", "for all objects i and j with g_i = g_j ... then "
                                                    "d phi(g, sigma y)/d g_i >= d phi(g, y)/d g_i. Otherwise, ... ="),
        statement="at a tie g_i = g_j the derivative in g_i is ordered like the losses (difference-quotient form)",
    )


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
    """The pairs are n - 1 edges of a spanning tree whose orientation puts j_1 > ... > j_k above the
    rest (``drop_last`` drops one pair: a twin)."""
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
    """Theorem 6, Section 4.1: "order preserving with respect to n - 1 object pairs {(j_i, j_{i+1})}_{i=1}^k
    and {(j_{k+s_i}, j_{k+i}) : 0 <= s_i < i}_{i=2}^{n-k}"."""
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


def theorem6_bayes_claim(id: str, *, weaken: bool = False, sizes: tuple[int, int] = (3, 4)) -> Any:
    """Theorem 6, Section 4.1: "if its top-k subgroup probability space is order preserving with respect
    to n - 1 object pairs ... then the loss is consistent"."""
    return implies_cases(
        id, cases=lambda n: theorem6_bayes_cases(n, weaken=weaken), sizes=sizes,
        domain="k = 1..n-1, every choice of s_i, p_y real variables on the simplex",
        cite=cite("Theorem 6, Section 4.1", "if its top-k subgroup probability space is order preserving with respect "
                                                "to n - 1 object pairs ... then the loss is consistent"),
        statement="order preserving w.r.t. Theorem 6's pairs makes G_k(j_1, ..., j_k) the unique most probable "
                  "subgroup (the Bayes ranker Theorem 7's score order points to)",
    )


# ---------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------

proposition4 = proposition4_claim("xia2009.proposition4")
proposition5 = proposition5_claim("xia2009.proposition5")
theorem6_pair_set = theorem6_pairs_claim("xia2009.theorem6.pair_set")
theorem6_bayes = theorem6_bayes_claim("xia2009.theorem6.most_probable_subgroup")


# ---------------------------------------------------------------------------------------
# Theorem 6 at k = n (the permutation-level case the framework includes, Section 3.2)
# ---------------------------------------------------------------------------------------


def theorem6_pairs_printed(n: int, k: int, s: Sequence[int]) -> list[tuple[int, int]]:
    """The pair families exactly as printed, {(j_i, j_{i+1})}_{i=1}^k and {(j_{k+s_i}, j_{k+i})}_{i=2}^{n-k},
    j_t = t: at k = n the first family names j_{n+1}."""
    return [(i, i + 1) for i in range(1, k + 1)] + [(k + s[i - 2], k + i) for i in range(2, n - k + 1)]


def theorem6_all_k_holds(case: tuple[int, int, tuple[int, ...]], *, printed: bool,
                         drop_last: bool = False) -> tuple[bool, str]:
    """The printed pairs (``printed``) name only the n objects; the pairs with the first family cut at
    i <= n - 1 (``theorem6_pairs``) are n - 1 edges of a spanning tree ordering j_1 > ... > j_k above the rest
    (``drop_last`` drops one pair: the twin)."""
    n, k, s = case
    if printed:
        outside = [p for p in theorem6_pairs_printed(n, k, s) if max(p) > n]
        if outside:
            i = outside[0][0]
            return False, (f"k = n = {n}: the first family {{(j_i, j_{{i+1}})}}_{{i=1}}^{k} has {k} pairs and its "
                           f"pair i = {i} is (j_{i}, j_{i + 1}), not a pair of the {n} objects (the second family "
                           f"is empty)")
    return theorem6_pairs_holds(case, drop_last=drop_last)


def theorem6_all_k_claim(id: str, *, printed: bool, drop_last: bool = False, sizes: tuple[int, int] = (3, 6),
                         finding: Finding | None = None) -> Any:
    """Theorem 6, Section 4.1, for every k = 1..n, k = n included ("When k equals the length of the entire ranked
    list, the top-k true loss will become exactly the permutation-level 0-1 loss", Section 3.2): the printed
    families (``printed``), or with the first family's index cut at min(k, n - 1) (the correction)."""
    return finite_check(
        id,
        cases=lambda n: [(n, k, s) for k in range(1, n + 1) for s in s_choices(n, k)],
        holds=lambda case: theorem6_all_k_holds(case, printed=printed, drop_last=drop_last),
        describe=lambda case: {"n": case[0], "k": case[1], "s": list(case[2])},
        domain="k = 1..n (k = n included) and every choice of 0 <= s_i < i",
        cite=cite("Theorem 6, Section 4.1",
                  "order preserving with respect to n - 1 object pairs {(j_i, j_{i+1})}_{i=1}^k and "
                  "{(j_{k+s_i}, j_{k+i}) : 0 <= s_i < i}_{i=2}^{n-k}"),
        statement=("for every k = 1..n, Theorem 6's printed families are n - 1 pairs of the n objects forming a "
                   "spanning tree that orders j_1 > ... > j_k above the rest" if printed else
                   "for every k = 1..n, with the first family {(j_i, j_{i+1})}_{i=1}^{min(k, n-1)}, Theorem 6's "
                   "pairs are n - 1 pairs forming a spanning tree that orders j_1 > ... > j_k above the rest")
                  + (" [twin: one pair dropped]" if drop_last else ""),
        sizes=sizes,
        finding=finding,
    )


theorem6_pair_set_all_k_corrected = theorem6_all_k_claim("xia2009.theorem6.pair_set.k_eq_n.corrected", printed=False)
theorem6_pair_set_all_k = theorem6_all_k_claim(
    "xia2009.theorem6.pair_set.k_eq_n", printed=True,
    finding=Finding(
        what="Theorem 6's first pair family {(j_i, j_{i+1})}_{i=1}^k runs to i = k; at k = n -- the permutation-level "
             "case the top-k framework includes (Section 3.2) -- its last pair is (j_n, j_{n+1}), which names no "
             "object, and the second family {...}_{i=2}^{n-k} is empty, so the printed families are not n - 1 pairs "
             "of the n objects.  For k <= n - 1 they are.",
        counterexample="n = 3, k = 3: the first family is (j_1, j_2), (j_2, j_3), (j_3, j_4); there is no j_4.",
        corrected="xia2009.theorem6.pair_set.k_eq_n.corrected",
        finding_class="clarification",
    ))
