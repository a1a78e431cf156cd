"""Section 4: Lemma 4.1 (a set of non-overlapping misordered pairs bounds the regret), the two
exchanges and the split of its proof, and the two steps of the proof of Theorem 4.2."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import Citation, Finding, finite_check, implies_cases
from symcal.claims import described
from symcal.ranking.measures import arg_sort, rank_of, rankings

from .common import ONE, best, cite, matchings, non_increasing, perf, phis, reals, swap_positions, utilities


def lemma41_cases(m: int | None, top: int = 2) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for phi in phis(m, top=top):
        for U in utilities(m):
            for nu in arg_sort(U):
                for sigma in rankings(m):
                    yield phi, U, nu, sigma


def lemma41_sets(case: tuple[Any, ...], scale: Fraction = ONE) -> tuple[int, Iterator[list[tuple[int, ...]]]]:
    """The regret R-bar - R(sigma) and, lazily, every set C of Lemma 4.1: non-overlapping pairs
    (i, j) with U_i > U_j and sigma^-1(i) > sigma^-1(j) whose bound sum (U_i - U_j)(phi(nu^-1(i)) -
    phi(nu^-1(j))) (times ``scale``) is at least the regret.  Each pair is given with its two
    factors: (i, j, U_i - U_j, phi(nu^-1(i)) - phi(nu^-1(j))).  Integers throughout (the
    exhaustive domain is integral), so no Fraction arithmetic in the inner loop."""
    phi, U, nu, sigma = case
    n = len(U)
    regret = perf(phi, U, nu) - perf(phi, U, sigma)
    if regret <= 0:  # the empty set already bounds it
        return regret, iter([[]])
    ps, pn = rank_of(sigma), rank_of(nu)
    valid = [(i, j, U[i - 1] - U[j - 1], phi[pn[i] - 1] - phi[pn[j] - 1])
             for i in range(1, n + 1) for j in range(1, n + 1) if U[i - 1] > U[j - 1] and ps[i] > ps[j]]

    def sets() -> Iterator[list[tuple[int, ...]]]:
        for C in matchings(valid):
            if regret <= scale * sum(du * dphi for _, _, du, dphi in C):
                yield C
    return regret, sets()


def lemma41_case(case: tuple[Any, ...], scale: Fraction = ONE) -> tuple[bool, str]:
    regret, sets = lemma41_sets(case, scale)
    return next(sets, None) is not None, f"regret {regret}: no non-overlapping misordered pair set satisfies the bound"


LEMMA41_DOMAIN = "phi in {0..2}^n non-increasing, U in {0,1,2}^n, every nu in arg sort(U), every sigma"


def pair_set_check(id: str, holds: Any, *, sizes: tuple[int, int], cite: Citation, statement: str,
                   every_set: bool = False, finding: Finding | None = None) -> Any:
    """An exhaustive check over Lemma 4.1's domain (``every_set``: and every pair set it allows)."""
    return finite_check(
        id, cases=lemma41_cases, holds=holds,
        sample='a small integer grid of the real phi and U',
        domain=LEMMA41_DOMAIN + (", every pair set C that Lemma 4.1 allows" if every_set else ""),
        describe=lambda c: dict(zip(("phi", "U", "nu", "sigma"), c, strict=True)), sizes=sizes,
        cite=cite, statement=statement, finding=finding,
    )


def lemma41_claim(id: str, *, scale: Fraction = ONE) -> Any:
    """Lemma 4.1: "there is C_sigma of non-overlapping pairs with U_i > U_j, sigma^-1(i) > sigma^-1(j) and
    R-bar - R(sigma) <= sum (U_i - U_j)(phi(nu^-1(i)) - phi(nu^-1(j)))"."""
    return pair_set_check(
        id, lambda c: lemma41_case(c, scale), sizes=(2, 4),
        cite=cite("Lemma 4.1", "there is C_sigma of non-overlapping pairs with U_i > U_j, sigma^-1(i) > "
                  "sigma^-1(j) and R-bar - R(sigma) <= sum (U_i - U_j)(phi(nu^-1(i)) - phi(nu^-1(j)))"),
        statement="Lemma 4.1: a non-overlapping set of misordered pairs bounds the regret",
    )


lemma41 = lemma41_claim("calauzenes2013.lemma4_1")


# ---------------------------------------------------------------------------------------
# Proof of Lemma 4.1: the two exchanges and the split into the pair (i, j) and a smaller GPPM.
# WLOG nu = id (relabel the items by their true rank): U_1 >= ... >= U_n, i = nu(1) = 1, and the
# true rank of an item is its label.
# ---------------------------------------------------------------------------------------

LEMMA41_PROOF = "Lemma 4.1, proof"


def lemma41_exchanges(sigma: tuple[int, ...], *, worst: bool = True) -> tuple[int, int, tuple[int, ...], tuple[int,
                                                                                                       ...]]:
    """(d, j, sigma o tau_1p, sigma o tau_1p o tau_{d nu^-1(sigma(p))}) at nu = id: d = sigma^-1(i), j the item
    of worst true rank among the top-d predicted ones (``worst=False``: of best true rank other than i, the
    twin's wrong choice), p = sigma^-1(j); nu^-1(sigma(p)) = j."""
    d = sigma.index(1) + 1
    top = sigma[:d]
    others = [q for q in top if q != 1]
    j = max(top) if worst else (min(others) if others else 1)
    first = swap_positions(sigma, 1, sigma.index(j) + 1)
    return d, j, first, swap_positions(first, d, j)


def gppm_symbols(n: int) -> tuple[tuple[Any, ...], tuple[Any, ...], dict[str, list[Any]]]:
    """phi(1..n), U_1..U_n and the hypotheses phi non-increasing >= 0, U sorted (nu = id) and >= 0 (u maps
    into R^n_+)."""
    phi, U = reals("phi", n), reals("U", n)
    return phi, U, {"phi": non_increasing(phi) + [phi[-1] >= 0], "U_sorted_by_nu": non_increasing(U),
                    "u_nonnegative": [U[-1] >= 0]}


def lemma41_exchange_cases(n: int | None, *, worst: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    assert n is not None
    phi, U, hyps = gppm_symbols(n)
    out = []
    for sigma in rankings(n):
        _, _, first, second = lemma41_exchanges(sigma, worst=worst)
        out.append((f"sigma={sigma}", hyps, sympy.And(perf(phi, U, sigma) >= perf(phi, U, first),
                                                     perf(phi, U, sigma) >= perf(phi, U, second))))
    return out


def lemma41_exchange_claim(id: str, *, worst: bool = True) -> Any:
    """Proof of Lemma 4.1: "R(Delta, sigma) >= R(Delta, sigma o tau_1p) ... R(Delta, sigma) >= R(Delta, sigma o
    tau_1p o tau_{d nu^-1(sigma(p))})" -- both exchanges only decrease the performance."""
    return implies_cases(
        id, cases=lambda n: lemma41_exchange_cases(n, worst=worst), sizes=(2, 5),
        cite=cite(LEMMA41_PROOF, "R(Delta, sigma) >= R(Delta, sigma o tau_1p) ... R(Delta, sigma) >= R(Delta, sigma o "
                                 "tau_1p o tau_{d nu^-1(sigma(p))})"),
        statement="the two exchanges of the proof never increase R(Delta, .): for every sigma, real phi "
                  "non-increasing >= 0 and real U sorted by nu = id (one z3 query per sigma)",
        domain="every sigma in S_n (nu = id by relabelling)",
        scope=described("n = 2..5, every sigma, all real phi non-increasing >= 0 and U non-increasing >= 0 "
                        "(sorted by nu = id)"),
    )


def lemma41_split_cases(n: int | None, *, over: str) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """R(nu) - R(sigma'') = (U_i - U_j)(phi(1) - phi(nu^-1(j))) + sum_{k not in {1, j}} phi(k)(U_k - U_r(k)),
    sigma'' the exchanged ranking and r = sigma'' (``over="exchanged"``), sigma as printed (``"sigma"``) or the
    ranking after the first exchange only (``"first"``, the twin); with the exchanged positions of i and j (j
    first, i at rank nu^-1(j) = j) as a finite fact of the case."""
    assert n is not None
    phi, U, hyps = gppm_symbols(n)
    ident = tuple(range(1, n + 1))
    out = []
    for sigma in rankings(n):
        _, j, first, second = lemma41_exchanges(sigma)
        r = {"exchanged": second, "sigma": sigma, "first": first}[over]
        rest = sum((phi[k - 1] * (U[k - 1] - U[r[k - 1] - 1]) for k in ident if k not in (1, j)), sympy.Integer(0))
        split = sympy.Eq(perf(phi, U, ident) - perf(phi, U, second), (U[0] - U[j - 1]) * (phi[0] - phi[j - 1]) + rest)
        exchanged = sympy.true if (second[0], second[j - 1]) == (j, 1) else sympy.false
        out.append((f"sigma={sigma}", hyps, sympy.And(exchanged, split)))
    return out


def lemma41_split_claim(id: str, *, over: str = "exchanged", finding: Finding | None = None) -> Any:
    """Proof of Lemma 4.1: "R(Delta, nu) - R(Delta, sigma o tau_1p o tau_{d nu^-1(sigma(p))}) = (U_i - U_j)(phi(1) -
    phi(nu^-1(j))) + sum_{k not in {i,j}} U_nu(k) phi(k) - sum_{k not in {i,j}} U_sigma(k) phi(k)"."""
    which = {"sigma": "sigma (as printed)", "exchanged": "the exchanged ranking sigma o tau_1p o tau_{d j}",
             "first": "sigma o tau_1p"}[over]
    return implies_cases(
        id, cases=lambda n: lemma41_split_cases(n, over=over), sizes=(2, 5), finding=finding,
        cite=cite(LEMMA41_PROOF, "= (U_i - U_j)(phi(1) - phi(nu^-1(j))) + sum_{k not in {i,j}} U_nu(k) phi(k) - "
                                 "sum_{k not in {i,j}} U_sigma(k) phi(k)"),
        statement=f"the split of R(nu) - R(exchanged ranking) into the pair (i, j) and the other ranks, the second "
                  f"sum taken over {which}; i and j have exchanged their positions (one z3 query per sigma)",
        domain="every sigma in S_n (nu = id by relabelling)",
        scope=described("n = 2..5, every sigma, all real phi non-increasing >= 0 and U non-increasing >= 0 "
                        "(sorted by nu = id)"),
    )


# ---------------------------------------------------------------------------------------
# Proof of Theorem 4.2
# ---------------------------------------------------------------------------------------

THM42_PROOF = "Theorem 4.2, proof"


def all_pairs(n: int | None) -> list[tuple[int, int]]:
    assert n is not None
    return list(itertools.combinations(range(1, n + 1), 2))


def pair_count_formula(case: tuple[int, list[tuple[int, int]]], printed: bool, odd: bool = False) -> tuple[list[Any],
                                                                                                        dict[Any, Any]]:
    """A set C = {(a_1, b_1), ..., (a_c, b_c)} of pairs as data (the items a_k, b_k and n): the 2c items are
    pairwise distinct and in {1..n} (C is a set of non-overlapping pairs of n items, re-checked) and the bound
    holds: printed |C| < n/2, i.e. 2c < n; corrected |C| <= floor(n/2), i.e. 2c <= n (n an integer); ``odd``
    (the twin) |C| <= floor((n-1)/2), i.e. 2c <= n - 1.  The count c is the number of pairs in the data."""
    n, C = case
    N = sympy.Symbol("n")
    items = [sympy.Symbol(f"{ab}{k}") for k in range(1, len(C) + 1) for ab in "ab"]
    values = {N: n, **dict(zip(items, [x for pair in C for x in pair], strict=True))}
    non_overlapping = [sympy.Ne(x, z, evaluate=False) for x, z in itertools.combinations(items, 2)]
    in_range = [c for x in items for c in (x >= 1, x <= N)]
    twice = 2 * len(C)
    bound = (twice < N) if printed else (twice <= N - int(odd))
    return non_overlapping + in_range + [bound], values


def pair_count_claim(id: str, *, printed: bool, odd: bool = False, finding: Finding | None = None) -> Any:
    """Proof of Theorem 4.2, (a) => (b): "there are less than n/2 non-overlapping pairs of indexes (i, j),
    i != j in {1, ..., n}^n" (printed: |C| < n/2; corrected: |C| <= floor(n/2); ``odd``: |C| <= floor((n-1)/2),
    the twin)."""
    return finite_check(
        id, cases=lambda n: ((n, C) for C in matchings(all_pairs(n))),
        formula=lambda c: pair_count_formula(c, printed, odd), sizes=(2, 8), finding=finding,
        domain="every set of non-overlapping pairs of {1..n}", describe=lambda c: {"n": c[0], "C": c[1]},
        cite=cite(THM42_PROOF, "there are less than n/2 non-overlapping pairs of indexes (i, j), i != j in "
                               "{1, ..., n}^n"),
        statement="a set of non-overlapping pairs of n items has " + (
            "fewer than n/2 pairs (as printed)" if printed else f"at most floor({'n - 1' if odd else 'n'}/2) pairs"),
    )


def regret_bound_cases(n: int | None, *, strict: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Per set C of non-overlapping rank pairs a < b: R <= sum_C x_k (phi(a) - phi(b)) (Lemma 4.1) and 0 < x_k
    < eps (``strict=False``: <= eps, the twin) => R < n/2 phi(1) eps."""
    assert n is not None
    phi = reals("phi", n)
    eps, R = sympy.symbols("epsilon R", real=True)
    out = []
    for C in matchings(all_pairs(n)):
        x = reals("x", len(C)) if C else ()
        near = [xk > 0 for xk in x] + [(xk < eps) if strict else (xk <= eps) for xk in x]
        bound = sum((xk * (phi[a - 1] - phi[b - 1]) for xk, (a, b) in zip(x, C, strict=True)), sympy.Integer(0))
        hyps = {"phi": non_increasing(phi) + [phi[-1] >= 0, phi[0] > 0], "near": near + [eps > 0],
                "lemma41": [R <= bound]}
        out.append((f"C={C}", hyps, R < sympy.Rational(n, 2) * phi[0] * eps))
    return out


def regret_bound_claim(id: str, *, strict: bool = True) -> Any:
    """Proof of Theorem 4.2, (a) => (b): "By Lemma 4.1, we obtain R-bar(Delta) - R(Delta, s) < n/2 phi(1) eps"."""
    return implies_cases(
        id, cases=lambda n: regret_bound_cases(n, strict=strict), sizes=(2, 5),
        cite=cite(THM42_PROOF, "By Lemma 4.1, we obtain R-bar(Delta) - R(Delta, s) < n/2 phi(1) eps"),
        statement="if every pair of C_s has 0 < U_i - U_j < eps, Lemma 4.1's bound gives R-bar - R(s) < n/2 phi(1) "
                  "eps (one z3 query per set C of non-overlapping rank pairs, real phi, eps and U-differences)",
        domain="every set C of non-overlapping rank pairs (a, b), a < b", scope=described("n = 2..5, every C"),
    )


def lower_bound_cases(m: int | None) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for phi in phis(m, strict=True, top=m):
        for U in utilities(m):
            for sigma in rankings(m):
                pos = rank_of(sigma)
                for i, j in itertools.permutations(range(1, m + 1), 2):
                    if U[i - 1] > U[j - 1] and pos[i] > pos[j]:
                        yield phi, U, sigma, i, j


def phi_at(phi: tuple[int, ...], k: int) -> int:
    """phi(k), defined for k in 1..n only."""
    if not 1 <= k <= len(phi):
        raise IndexError(f"phi({k}) is undefined (phi is defined on 1..{len(phi)})")
    return phi[k - 1]


def printed_lower_bound_case(case: tuple[Any, ...]) -> tuple[bool, str]:
    """R-bar - R(sigma) >= eps min_{j <= n} |phi(j) - phi(j+1)| at eps = U_i - U_j, evaluated as printed."""
    phi, U, sigma, i, j = case
    try:
        gap = min(abs(phi_at(phi, k) - phi_at(phi, k + 1)) for k in range(1, len(phi) + 1))
    except IndexError as e:
        return False, f"{e}: the minimum over j <= n includes j = n"
    regret, bound = best(phi, U) - perf(phi, U, sigma), (U[i - 1] - U[j - 1]) * gap
    return regret >= bound, f"regret {regret} < bound {bound}"


def printed_lower_bound_claim(id: str, *, finding: Finding | None = None) -> Any:
    """Proof of Theorem 4.2, (b) => (a): "R-bar(Delta) - R(Delta, sigma) >= eps min_{j <= n} |phi(j) -
    phi(j+1)|" as printed."""
    return finite_check(
        id, cases=lower_bound_cases, holds=printed_lower_bound_case, sizes=(2, 3), finding=finding,
        sample="a small integer grid of the real phi (strictly decreasing) and U",
        domain="phi strictly decreasing in {0..n}^n, U in {0,1,2}^n, every sigma, every pair with U_i > U_j and "
               "sigma^-1(i) > sigma^-1(j), eps = U_i - U_j",
        describe=lambda c: dict(zip(("phi", "U", "sigma", "i", "j"), c, strict=True)),
        cite=cite(THM42_PROOF, "R-bar(Delta) - R(Delta, sigma) >= eps min_{j <= n} |phi(j) - phi(j+1)|"),
        statement="the lower bound of the proof of (b) => (a) with the minimum over j <= n, as printed",
    )


def lower_bound_cases_z3(n: int | None, *, every_gap: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Per sigma and misordered pair i < j (U_i >= U_j, sigma^-1(i) > sigma^-1(j)): U_i - U_j >= eps > 0 and g <=
    phi(k) - phi(k+1) for every k < n (``every_gap=False``: only g <= phi(1) - phi(n), the twin) =>
    R-bar - R(sigma) >= eps g, with R-bar = R(id) (U sorted; footnote 1)."""
    assert n is not None
    phi, U, hyps0 = gppm_symbols(n)
    eps, g = sympy.symbols("epsilon g", real=True)
    gaps = [g <= phi[k] - phi[k + 1] for k in range(n - 1)] if every_gap else [g <= phi[0] - phi[-1]]
    ident = tuple(range(1, n + 1))
    out = []
    for sigma in rankings(n):
        pos = rank_of(sigma)
        for i, j in all_pairs(n):
            if pos[i] > pos[j]:
                hyps = {**hyps0, "gap": [U[i - 1] - U[j - 1] >= eps, eps > 0], "g_below_every_gap": gaps}
                out.append((f"sigma={sigma}, (i, j)=({i}, {j})", hyps,
                            perf(phi, U, ident) - perf(phi, U, sigma) >= eps * g))
    return out


def lower_bound_claim(id: str, *, every_gap: bool = True) -> Any:
    """Proof of Theorem 4.2 with the minimum over j < n (as in (6) and the next line of the proof):
    "R-bar(Delta) - R(Delta, sigma) >= eps min_{j < n} |phi(j) - phi(j+1)|"."""
    return implies_cases(
        id, cases=lambda n: lower_bound_cases_z3(n, every_gap=every_gap), sizes=(2, 4),
        cite=cite(THM42_PROOF, "R-bar(Delta) - R(Delta, sigma) >= eps min_{j <= n} |phi(j) - phi(j+1)| [j < n]"),
        statement="for sigma ranking j before i with U_i - U_j >= eps: R-bar - R(sigma) >= eps min_{j < n} |phi(j) "
                  "- phi(j+1)| (one z3 query per sigma and pair; real phi non-increasing, U sorted by nu = id)",
        domain="every sigma in S_n and pair i < j with sigma^-1(i) > sigma^-1(j)",
        scope=described("n = 2..4, all real phi, U"),
    )


# ---------------------------------------------------------------------------------------
# Appendix A, proof of Corollary A.2
# ---------------------------------------------------------------------------------------


def top_term_claim(id: str, *, nonnegative_u: bool = True) -> Any:
    """Appendix A, proof of Corollary A.2: "for any P(.|x), we have R-bar(P(.|x)) >= phi(1) max_{i=1..n}
    U_i(P(.|x)) = phi(1) ||U(P(.|x))||_oo" (``nonnegative_u=False`` drops u >= 0: the twin)."""
    def cases(n: int | None) -> list[tuple[str, dict[str, list[Any]], Any]]:
        assert n is not None
        phi, U, hyps = gppm_symbols(n)
        hyps = {**hyps, "u_nonnegative": hyps["u_nonnegative"] if nonnegative_u else []}
        return [(f"n={n}", hyps, perf(phi, U, tuple(range(1, n + 1))) >= phi[0] * U[0])]
    return implies_cases(
        id, cases=cases, sizes=(2, 6),
        cite=cite("Appendix A, proof of Corollary A.2", "R-bar(P(.|x)) >= phi(1) max_{i=1..n} U_i(P(.|x)) = phi(1) "
                                                        "||U(P(.|x))||_oo"),
        statement="for a GPPM with b = 0: R-bar = sum_k phi(k) U_nu(k) >= phi(1) max_i U_i, U >= 0 (u maps into "
                  "R^n_+) and sorted by nu = id, phi non-increasing >= 0",
        domain="one query per n", scope=described("n = 2..6, all real phi and U"),
    )
lemma41_exchanges_step = lemma41_exchange_claim("calauzenes2013.lemma4_1.proof_exchanges")
lemma41_split_corrected = lemma41_split_claim("calauzenes2013.lemma4_1.proof_split.corrected")
lemma41_split = lemma41_split_claim(
    "calauzenes2013.lemma4_1.proof_split", over="sigma",
    finding=Finding(
        what="The display in the proof of Lemma 4.1 writes the second sum over U_sigma(k), the ranking before the "
             "two exchanges; the equality holds for the exchanged ranking sigma o tau_1p o tau_{d nu^-1(sigma(p))} "
             "(the one on its left side, and the one the induction continues with).",
        counterexample="n = 3, sigma = (2, 3, 1) (d = 3, j = 3, p = 2, exchanged ranking (3, 2, 1)), phi = (1, 1, 0), "
                       "U = (1, 1, 0): R(nu) - R(exchanged) = 1, the printed right side (U_1 - U_3)(phi(1) - phi(3)) + "
                       "phi(2)(U_2 - U_sigma(2)) = 1 + 1 = 2.",
        corrected=lemma41_split_corrected.id,
        finding_class="proof",
    ),
)
pair_count_corrected = pair_count_claim("calauzenes2013.theorem4_2.proof_pair_count.corrected", printed=False)
pair_count = pair_count_claim(
    "calauzenes2013.theorem4_2.proof_pair_count", printed=True,
    finding=Finding(
        what="The proof of Theorem 4.2 says there are less than n/2 non-overlapping pairs; for even n a set of n/2 "
             "disjoint pairs exists (the text also writes {1, ..., n}^n for {1, ..., n}^2). There are at most "
             "floor(n/2) <= n/2, and the bound R-bar - R(s) < n/2 phi(1) eps survives: each term is below "
             "eps phi(1) because U_i - U_j < eps strictly.",
        counterexample="n = 2, C = {(1, 2)}: 1 pair, not fewer than n/2 = 1.",
        corrected=pair_count_corrected.id,
        finding_class="proof",
    ),
)
regret_bound = regret_bound_claim("calauzenes2013.theorem4_2.proof_regret_bound")
lower_bound_corrected = lower_bound_claim("calauzenes2013.theorem4_2.proof_lower_bound.corrected")
lower_bound_printed = printed_lower_bound_claim(
    "calauzenes2013.theorem4_2.proof_lower_bound",
    finding=Finding(
        what="The proof of (b) => (a) in Theorem 4.2 bounds the regret by eps min_{j <= n} |phi(j) - phi(j+1)|; the "
             "term j = n needs phi(n+1), which is undefined (phi is defined on {1..n}). The minimum is over j < n, "
             "as in Theorem 3.2's bound and the next line of the same proof.",
        counterexample="n = 2, phi = (1, 0), U = (0, 1), sigma = (1, 2), (i, j) = (2, 1): the term j = 2 needs phi(3).",
        corrected=lower_bound_corrected.id,
        finding_class="proof",
    ),
)
top_term = top_term_claim("calauzenes2013.corollary_a2.proof_top_term")
