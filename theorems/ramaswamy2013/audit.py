"""Audit of the coverage map of Ramaswamy, Agarwal & Tewari (2013) (issue 26, "coverage without blind spots"): the
checkable steps that the map had listed as "definition" or "prose", or only under a theorem-level claim.

Each claim cites the sentence it checks; each has its negative twin in ``TWINS`` (an erratum is its own twin, its
``.corrected`` claim has one).  Finding of this audit:

* Section 7.1: "the surrogate given by Duchi et al. [11] can be written in our notation as psi_DMJ(y, u) = ...";
  Section 2's notation is a surrogate psi : Y x R^d -> R_+, but psi_DMJ takes negative values (lambda(z) = z^2,
  nu = 1/2, r = 2, y_12 = 1, u = (1, 0): psi_DMJ = -1/2) (clarification: psi_DMJ + sum_i f_i(y)^2 / 2 =
  psi_f / 2 >= 0, a label-only shift that changes no minimiser, so Theorem 6's special case stands).

Checked steps without a finding: the label and prediction counts (n = 2^r, (s + 1)^r, k = r!) and the surrogate
dimensions r(r+1)/2 and r(r-1); every loss of Sections 4, 6 and 7 maps into R_+ as Section 2 asks; the least z that
keeps l_ERU >= 0 ("z is a constant to ensure the positivity of the loss") is (s - v) sum_k 2^((1-k)/(w-1)); the
sorting sets of pred-bar_MAP are exactly the decreasing sorts of the diagonal; Lemma 8's "there must exist an adjacent
pair ... not ordered according to the scores"; the equality chain of Lemma 8's swap step (Eq. (2) to the fifth line)
for every symmetric u; and the "This clearly gives sigma in Pi*(p)" of the proofs of Theorems 6 and 7 (a sigma that
agrees with every strict pair minimises the pairwise form, termwise).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import factorial
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies
from symcal.claims.core import Claim
from symcal.ranking.loss_matrix import order_of, permutations

from .common import F, _named_loss, cite, indicator, r_sizes, twin_id
from .section7_1 import dmj_sides

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}


def _with_twin(build: Callable[..., Claim], **twin: Any) -> Claim:
    """``build()`` (the claim under its default id), with its negative twin ``build(<id>.twin, **twin)`` declared."""
    claim = build()
    TWINS[claim.id] = lambda: build(twin_id(claim.id), **twin)
    return claim


# ---------------------------------------------------------------------------------------
# Section 7.1: psi_DMJ is not a surrogate into R_+ (Section 2's notation)
# ---------------------------------------------------------------------------------------

DMJ_QUOTE = ("We note that the surrogate given by Duchi et al. [11] can be written in our notation as psi_DMJ(y, u) = "
             "sum_i sum_{j != i} y_ij (u_j - u_i) + nu sum_i lambda(u_i)")


def dmj_lower_bound_claim(id: str, *, factor: Any, sizes: tuple[int, int] = (2, 3),
                          finding: Finding | None = None) -> Claim:
    """Section 7.1 with Section 2's psi : Y x R^d -> R_+: psi_DMJ(y, u) (lambda(z) = z^2, nu = 1/2) >= -factor *
    sum_i f_i(y)^2 with f_i(y) = sum_{j != i} (y_ij - y_ji), for every label y (y_ij >= 0, at least one of y_ij,
    y_ji zero) and every real u.  ``factor`` 0 is "psi_DMJ maps into R_+" (the printed reading), 1/2 the corrected
    bound (psi_DMJ + sum_i f_i^2 / 2 = psi_f / 2), 1/4 its twin."""

    def parts(r: int) -> tuple[dict[tuple[int, int], sympy.Symbol], Any]:
        dmj, _ = dmj_sides(r, sympy.Rational(1, 2))
        y = {(i, j): sympy.Symbol(f"y_{i}_{j}", real=True) for i in range(1, r + 1) for j in range(1, r + 1) if i != j}
        return y, dmj

    def hypotheses(r: int) -> list[Any]:
        y, _ = parts(r)
        return ([w >= 0 for w in y.values()]
                + [sympy.Or(sympy.Eq(y[(i, j)], 0), sympy.Eq(y[(j, i)], 0))
                   for i, j in itertools.combinations(range(1, r + 1), 2)])

    def conclusion(r: int) -> Any:
        y, dmj = parts(r)
        f = [sum(y[(i, j)] - y[(j, i)] for j in range(1, r + 1) if j != i) for i in range(1, r + 1)]
        return dmj >= -sympy.sympify(factor) * sum(x**2 for x in f)

    bound = "0" if factor == 0 else f"-{factor} sum_i f_i(y)^2"
    return implies(
        id, hypotheses={"label_of_y": hypotheses}, conclusion=conclusion,
        cite=cite("Section 7.1", DMJ_QUOTE),
        statement=(f"psi_DMJ(y, u) with lambda(z) = z^2, nu = 1/2 is >= {bound} (f_i(y) = sum_{{j != i}} (y_ij - y_ji)) "
                   "for every label y (y_ij >= 0, y_ij y_ji = 0; acyclicity not needed) and every real u"
                   + (" -- Section 2's psi : Y x R^d -> R_+" if factor == 0 else "")),
        sizes=r_sizes(*sizes), finding=finding,
    )


dmj_nonnegative = dmj_lower_bound_claim(
    "ramaswamy2013.audit.section7_1.dmj_nonnegative", factor=0,
    finding=Finding(
        what=("Section 7.1 says Duchi et al.'s surrogate 'can be written in our notation' as psi_DMJ(y, u) = "
              "sum_i sum_{j != i} y_ij (u_j - u_i) + nu sum_i lambda(u_i); Section 2's notation is a surrogate "
              "psi : Y x R^d -> R_+, but psi_DMJ takes negative values: on a label with an edge (i -> j) the "
              "linear term y_ij (u_j - u_i) is negative whenever u orders the edge, and near u = 0 the regulariser "
              "nu lambda(u) is of second order. With lambda(z) = z^2, nu = 1/2, psi_DMJ + sum_i f_i(y)^2 / 2 = "
              "psi_f / 2 >= 0: a shift by a function of the label alone, which changes no minimiser, so the 'special "
              "case' of Theorem 6 and its calibration stand."),
        counterexample=("r = 2, y_12 = 1, y_21 = 0, lambda(z) = z^2, nu = 1/2, u = (1, 0): psi_DMJ = (u_2 - u_1) + "
                        "(u_1^2 + u_2^2)/2 = -1 + 1/2 = -1/2 < 0 (minimum -1 at u = (1, -1)); the solver's model is "
                        "re-checked exactly."),
        corrected="ramaswamy2013.audit.section7_1.dmj_nonnegative.corrected",
        finding_class="clarification",
    ),
)
dmj_nonnegative_corrected = dmj_lower_bound_claim(dmj_nonnegative.finding.corrected, factor=sympy.Rational(1, 2))
TWINS[dmj_nonnegative_corrected.id] = lambda: dmj_lower_bound_claim(
    twin_id(dmj_nonnegative_corrected.id), factor=sympy.Rational(1, 4), sizes=(2, 2))


# ---------------------------------------------------------------------------------------
# Sections 4-7: the sizes n, k and d the paper states
# ---------------------------------------------------------------------------------------

SIZES_QUOTE = ("Y = {0, 1}^r with n = 2^r. The prediction space is T = S_r ... with k = r!; Y = {0, 1, ..., s}^r ... "
               "with n = (s + 1)^r; the r(r+1)/2-dimensional surrogate psi*_MAP; the r(r-1)-dimensional surrogate "
               "psi*_PD")


def _loss_case(c: tuple[Any, ...]) -> dict[str, Any]:
    """A case (loss, r[, q or s]) as the witness shows it."""
    return {"loss": c[0], "r": c[1], **({"q" if c[0] == "precision" else "s": c[2]} if len(c) > 2 else {})}


def _size_cases(r: int) -> list[tuple[Any, ...]]:
    return ([("precision", r, q) for q in range(1, r + 1)] + [("eru", r, s) for s in (1, 2, 3)]
            + [("map", r), ("pd", r)])


def sizes_holds(case: tuple[Any, ...], *, n_shift: int = 0) -> tuple[bool, str]:
    """The named loss matrix's shape (n labels x k predictions) against the printed counts, the surrogate dimension
    (the paper's decomposition's d) against r(r+1)/2 (MAP) and r(r-1) (PD), each counted independently
    (``n_shift`` is added to the printed n: the twin)."""
    loss, r = case[0], case[1]
    params: dict[str, Any] = {"q": case[2]} if loss == "precision" else {"s": case[2]} if loss == "eru" else {}
    nl = _named_loss(loss, r, tuple(sorted(params.items())))
    n, k = nl.matrix.shape
    pairs_ge = sum(1 for i in range(1, r + 1) for j in range(1, i + 1))
    pairs_ne = sum(1 for i in range(1, r + 1) for j in range(1, r + 1) if i != j)
    ok = k == factorial(r) == len(set(nl.matrix.predictions))
    if loss in ("precision", "map"):
        ok = ok and n == 2**r + n_shift
    if loss == "eru":
        ok = ok and n == (case[2] + 1) ** r + n_shift
    if loss == "map":
        ok = ok and nl.decomposition.d == pairs_ge == r * (r + 1) // 2
    if loss == "pd":
        ok = ok and nl.decomposition.d == pairs_ne == r * (r - 1)
    return ok, f"{nl.matrix.name}: n = {n}, k = {k}, d = {nl.decomposition.d}"


def sizes_claim(id: str = "ramaswamy2013.audit.sizes", *, n_shift: int = 0, sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Sections 4-7: n = 2^r (P@q, MAP), n = (s + 1)^r (ERU), k = r!, d = r(r+1)/2 (MAP), d = r(r-1) (PD)."""
    return finite_check(
        id, cases=_size_cases, holds=lambda c: sizes_holds(c, n_shift=n_shift),
        describe=_loss_case,
        domain="P@q for every q in [r], ERU for s = 1, 2, 3, MAP and PD (unit DAGs): the loss matrices symcal builds",
        cite=cite("Sections 4-7", SIZES_QUOTE),
        statement=("the loss matrices have n = 2^r (P@q, MAP) or (s + 1)^r (ERU) rows and k = r! columns; the "
                   "surrogate dimensions are r(r+1)/2 = #{(i, j) : i >= j} (MAP) and r(r-1) = #{(i, j) : i != j} (PD)"
                   + (f" [twin: n shifted by {n_shift}]" if n_shift else "")),
        sizes=r_sizes(*sizes),
    )


loss_sizes = _with_twin(sizes_claim, n_shift=-1, sizes=(2, 2))


# ---------------------------------------------------------------------------------------
# Section 2: a loss maps into R_+ (P@q, MAP, PD), and the ERU constant z
# ---------------------------------------------------------------------------------------

LOSS_RANGE_QUOTE = "The performance of a prediction model h : X -> T is measured via a loss function l : Y x T -> R_+"


def _range_cases(r: int) -> list[tuple[Any, ...]]:
    return [("precision", r, q) for q in range(1, r + 1)] + [("map", r), ("pd", r)]


def range_holds(case: tuple[Any, ...], *, strict: bool = False) -> tuple[bool, str]:
    """Every entry of the loss matrix is >= 0 (``strict``: > 0, the twin); P@q and MAP also <= 1."""
    loss, r = case[0], case[1]
    params = (("q", case[2]),) if loss == "precision" else ()
    m = _named_loss(loss, r, params).matrix
    rows = m.rows()
    for a, row in enumerate(rows):
        for t, v in enumerate(row):
            low_ok = v > 0 if strict else v >= 0
            if not low_ok or (loss != "pd" and v > 1):
                return False, f"{m.name}: l({m.labels[a]}, {m.predictions[t]}) = {v}"
    lo = min(min(row) for row in rows)
    hi = max(max(row) for row in rows)
    return True, f"{m.name}: {m.shape[0]} x {m.shape[1]} entries in [{lo}, {hi}]"


def loss_range_claim(id: str = "ramaswamy2013.audit.section2.losses_in_r_plus", *, strict: bool = False,
                     sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Section 2: l : Y x T -> R_+, for the losses of Sections 4, 6 and 7 (ERU: the next claim)."""
    return finite_check(
        id, cases=_range_cases, holds=lambda c: range_holds(c, strict=strict),
        describe=_loss_case,
        domain="every entry of the P@q (q in [r]), MAP (l_MAP(0, .) := 1) and PD (unit DAGs) loss matrices",
        cite=cite("Section 2, Setup", LOSS_RANGE_QUOTE),
        statement=("l_P@q, l_MAP take values in [0, 1] and l_PD in R_+ on every (y, sigma)"
                   + (" [twin: every value > 0]" if strict else "")),
        sizes=r_sizes(*sizes),
    )


losses_in_r_plus = _with_twin(loss_range_claim, strict=True, sizes=(2, 2))

ERU_Z_QUOTE = "where z is a constant to ensure the positivity of the loss, v in [s] is a constant that indicates a neutral score"
# exponents e = 1/(w - 1) for which the discounts 2^((1 - k) e) are rational: w = 2, 3/2, 0, 1/2
ERU_EXPONENTS = (1, 2, -1, -2)


def eru_utility_max(r: int, s: int, v: int, e: int) -> Fraction:
    """max over y in {0..s}^r and sigma in S_r of sum_i max(y_i - v, 0) 2^((1 - sigma(i)) e), by enumeration."""
    disc = [F(2) ** ((1 - k) * e) for k in range(1, r + 1)]
    return max(sum((F(max(y[i] - v, 0)) * disc[sg[i] - 1] for i in range(r)), F(0))
               for y in itertools.product(range(s + 1), repeat=r) for sg in permutations(r))


def eru_z_holds(case: tuple[int, int, int, int], *, neutral: bool = True) -> tuple[bool, str]:
    r, s, v, e = case
    zstar = (s - v if neutral else s) * sum(F(2) ** ((1 - k) * e) for k in range(1, r + 1))
    top = eru_utility_max(r, s, v, e)
    return top == zstar, (f"r = {r}, s = {s}, v = {v}, w = {1 + F(1, e)}: max utility {top}, formula {zstar}; "
                          f"l_ERU >= 0 everywhere iff z >= {top}")


def eru_z_claim(id: str = "ramaswamy2013.audit.section5.eru_z_least", *, neutral: bool = True,
                sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Section 5: the least z with l_ERU(y, sigma) = z - sum_i max(y_i - v, 0) 2^((1 - sigma(i))/(w - 1)) >= 0 on
    all of Y x S_r is the largest utility, (s - v) sum_{k=1}^r 2^((1 - k)/(w - 1)) (every position filled by a
    document of relevance s; every w != 1).  ``neutral`` False drops v (the twin)."""
    return finite_check(
        id, cases=lambda r: [(r, s, v, e) for s in (1, 2, 3) for v in range(1, s + 1) for e in ERU_EXPONENTS],
        holds=lambda c: eru_z_holds(c, neutral=neutral),
        describe=lambda c: {"r": c[0], "s": c[1], "v": c[2], "w": str(1 + F(1, c[3]))},
        domain="s = 1, 2, 3, v in [s], w in {2, 3/2, 0, 1/2} (1/(w - 1) an integer: rational discounts); every "
               "y in {0..s}^r and sigma in S_r enumerated",
        cite=cite("Section 5", ERU_Z_QUOTE),
        statement=("l_ERU >= 0 on Y x S_r iff z >= " + ("(s - v)" if neutral else "s")
                   + " sum_{k=1}^r 2^((1-k)/(w-1)) (the largest utility, attained at y = (s, ..., s))"),
        sizes=r_sizes(*sizes),
    )


eru_z_least = _with_twin(eru_z_claim, neutral=False, sizes=(2, 2))


# ---------------------------------------------------------------------------------------
# Section 6: pred-bar_MAP is "simply sorting the diagonal elements"
# ---------------------------------------------------------------------------------------

SORT_QUOTE = ("Clearly, pred-bar_MAP(u) can be implemented efficiently by simply sorting the 'diagonal' elements u_ii "
              "for i in [r]")


def respecting(u: Sequence[int], r: int) -> set[tuple[int, ...]]:
    """{sigma in S_r : u_i > u_j => sigma(i) < sigma(j)} (sigma as positions)."""
    return {sg for sg in permutations(r)
            if all(sg[i] < sg[j] for i in range(r) for j in range(r) if u[i] > u[j])}


def sorts(u: Sequence[int], r: int, *, ascending: bool = False) -> set[tuple[int, ...]]:
    """The sigma whose documents, read by position, have non-increasing (``ascending``: non-decreasing) scores."""
    out = set()
    for sg in permutations(r):
        seq = [u[d - 1] for d in order_of(sg)]
        pairs = zip(seq, seq[1:], strict=False)
        if all((a <= b) if ascending else (a >= b) for a, b in pairs):
            out.add(sg)
    return out


def sort_holds(case: tuple[int, tuple[int, ...]], *, ascending: bool = False) -> tuple[bool, str]:
    r, u = case
    a, b = respecting(u, r), sorts(u, r, ascending=ascending)
    return a == b and bool(a), f"u_ii = {u}: {len(a)} respecting, {len(b)} sorts"


def order_type_claim(id: str, holds: Callable[[tuple[int, tuple[int, ...]]], tuple[bool, str]], *, location: str,
                     quote: str, statement: str, sizes: tuple[int, int]) -> Claim:
    """A statement about the diagonal scores u_11..u_rr and the permutations of S_r, checked on every order type of r
    scores: {0..r-1}^r realises each (ties included), and the statements depend on u only through its order type."""
    return finite_check(
        id, cases=lambda r: [(r, u) for u in itertools.product(range(r), repeat=r)], holds=holds,
        describe=lambda c: {"r": c[0], "u_ii": list(c[1])},
        domain="every order type of r diagonal scores (u in {0..r-1}^r, ties included), every sigma in S_r",
        cite=cite(location, quote), statement=statement, sizes=r_sizes(*sizes),
    )


def sort_claim(id: str = "ramaswamy2013.audit.section6.pred_bar_is_sorting", *, ascending: bool = False,
               sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Section 6: {sigma : u_ii > u_jj => sigma(i) < sigma(j)} is non-empty and is exactly the set of orders that
    sort the diagonal decreasingly (ties in any order).  ``ascending`` sorts increasingly (the twin)."""
    return order_type_claim(
        id, lambda c: sort_holds(c, ascending=ascending), location="Section 6", quote=SORT_QUOTE,
        statement=("{sigma : u_ii > u_jj => sigma(i) < sigma(j)} is non-empty and equals the set of sigma with "
                   + ("u non-decreasing" if ascending else "u non-increasing") + " along positions 1..r"),
        sizes=sizes,
    )


pred_bar_is_sorting = _with_twin(sort_claim, ascending=True, sizes=(2, 2))


# ---------------------------------------------------------------------------------------
# Lemma 8, proof: a permutation outside Pi(p) has an adjacent misordered pair
# ---------------------------------------------------------------------------------------

ADJACENT_QUOTE = ("If sigma^0 in Pi(p), we are done, so let us assume sigma^0 not in Pi(p). Thus there must exist an "
                  "adjacent pair of elements in sigma^0 that are not ordered according to the scores u^p_ii")


def adjacent_holds(case: tuple[int, tuple[int, ...]], *, first_only: bool = False) -> tuple[bool, str]:
    r, u = case
    pi_set = respecting(u, r)
    for sg in permutations(r):
        seq = [u[d - 1] for d in order_of(sg)]
        cs = [c for c in range(1, r) if seq[c - 1] < seq[c]]
        if first_only:
            cs = [c for c in cs if c == 1]
        if (sg not in pi_set) != bool(cs):
            return False, f"u_ii = {u}, sigma^0 = {sg} (in Pi: {sg in pi_set}): scores along it {seq}, pairs c = {cs}"
    return True, f"u_ii = {u}: {factorial(r)} permutations, {factorial(r) - len(pi_set)} outside Pi"


def adjacent_claim(id: str = "ramaswamy2013.audit.lemma8.adjacent_misordered_pair", *, first_only: bool = False,
                   sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Lemma 8, proof: sigma^0 not in Pi(p) iff some c has sigma^0(a) = c, sigma^0(b) = c + 1 and u_aa < u_bb.
    ``first_only`` asks the pair at c = 1 (the twin)."""
    return order_type_claim(
        id, lambda c: adjacent_holds(c, first_only=first_only), location="Appendix, proof of Lemma 8",
        quote=ADJACENT_QUOTE,
        statement=("sigma^0 is outside Pi(p) iff there are a, b, c with sigma^0(a) = c, sigma^0(b) = c + 1 and "
                   "u_aa < u_bb" + (" [twin: with c = 1]" if first_only else "")),
        sizes=sizes,
    )


adjacent_misordered_pair = _with_twin(adjacent_claim, first_only=True, sizes=(3, 3))


# ---------------------------------------------------------------------------------------
# Lemma 8, proof: the equality chain from Eq. (2) to the fifth line, for every symmetric u
# ---------------------------------------------------------------------------------------

CHAIN_QUOTE = ("p^T l_sigma0 - p^T l_sigma1 = (1/c)(sum_{j=1}^c (u_pi1(c)pi1(j) - u_pi0(c)pi0(j))) + ... = "
               "(1/c - 1/(c+1)) (u_bb - (u_aa + sum_{j=1}^{c-1} (u_a pi1(j) - u_b pi1(j))))")


def _sym_u(r: int) -> Callable[[int, int], sympy.Symbol]:
    syms = {(i, j): sympy.Symbol(f"u_{i}_{j}", real=True) for i in range(1, r + 1) for j in range(1, i + 1)}
    return lambda i, j: syms[(max(i, j), min(i, j))]


def eq2_risk(u: Callable[[int, int], Any], pi: Sequence[int]) -> Any:
    """Eq. (2): p^T l_sigma = 1 - sum_i (1/i) sum_{j <= i} u_{pi(i) pi(j)}, pi = sigma^-1 (1-based documents)."""
    r = len(pi)
    return 1 - sum(sympy.Rational(1, i) * sum(u(pi[i - 1], pi[j - 1]) for j in range(1, i + 1))
                   for i in range(1, r + 1))


def chain_sides(r: int, *, upto: int = 0) -> tuple[sympy.Matrix, sympy.Matrix]:
    """For every sigma^0 in S_r and c in [r - 1]: the risk difference by Eq. (2), three times, against the chain's
    first, third and fifth lines (a = pi0(c), b = pi0(c+1)); ``upto`` 1 runs the fifth line's sum to j = c (the
    twin)."""
    u = _sym_u(r)
    lhs, rhs = [], []
    for sg in permutations(r):
        pi0 = list(order_of(sg))
        for c in range(1, r):
            pi1 = pi0.copy()
            pi1[c - 1], pi1[c] = pi1[c], pi1[c - 1]
            a, b = pi0[c - 1], pi0[c]
            P0 = lambda j: pi0[j - 1]  # noqa: E731
            P1 = lambda j: pi1[j - 1]  # noqa: E731
            k, k1 = sympy.Rational(1, c), sympy.Rational(1, c + 1)
            diff = eq2_risk(u, pi0) - eq2_risk(u, pi1)
            line1 = (k * sum(u(P1(c), P1(j)) - u(P0(c), P0(j)) for j in range(1, c + 1))
                     + k1 * sum(u(P1(c + 1), P1(j)) - u(P0(c + 1), P0(j)) for j in range(1, c + 2)))
            line3 = ((k - k1) * sum((u(b, P1(j)) - u(a, P1(j)) for j in range(1, c)), sympy.Integer(0))
                     + k * (u(b, b) - u(a, a)) + k1 * (u(a, b) + u(a, a) - u(b, a) - u(b, b)))
            line5 = (k - k1) * (u(b, b) - (u(a, a) + sum((u(a, P1(j)) - u(b, P1(j)) for j in range(1, c + upto)),
                                                         sympy.Integer(0))))
            lhs += [diff, diff, diff]
            rhs += [line1, line3, line5]
    return sympy.Matrix(lhs), sympy.Matrix(rhs)


def chain_claim(id: str = "ramaswamy2013.audit.lemma8.swap_difference_chain", *, upto: int = 0,
                sizes: tuple[int, int] = (3, 4)) -> Claim:
    """Lemma 8, proof: the displayed equalities (Eq. (2) through the fifth line), for every symmetric u."""
    return identity(
        id, lambda r: chain_sides(r, upto=upto)[0], lambda r: chain_sides(r, upto=upto)[1],
        cite=cite("Appendix, proof of Lemma 8", CHAIN_QUOTE),
        statement=("for every sigma^0 in S_r, c in [r - 1] and every symmetric u (u_ij = u_ji, symbols): p^T l_sigma0 "
                   "- p^T l_sigma1 by Eq. (2) equals the chain's first, third and fifth lines, the last (1/c - 1/(c+1))"
                   f"(u_bb - u_aa - sum_{{j=1}}^{{c{'' if upto else '-1'}}} (u_a pi1(j) - u_b pi1(j)))"
                   + (" [twin: the sum to j = c]" if upto else "")),
        sizes=r_sizes(*sizes),
    )


swap_difference_chain = _with_twin(chain_claim, upto=1, sizes=(3, 3))


# ---------------------------------------------------------------------------------------
# Proofs of Theorems 6 and 7: "This clearly gives sigma in Pi*(p)" (termwise minimum of the pairwise form)
# ---------------------------------------------------------------------------------------

TERMWISE_QUOTE = ("y^p_ij > y^p_ji => u^p_i > u^p_j => sigma(i) < sigma(j), y^p_ij < y^p_ji => u^p_i < u^p_j => "
                  "sigma(i) > sigma(j). This clearly gives sigma in Pi*(p).")


def termwise_claim(id: str = "ramaswamy2013.audit.theorem6_7.agreeing_sigma_is_optimal", *, both: bool = True,
                   sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Proofs of Theorems 6 and 7: a sigma with d_ij > 0 => sigma(i) < sigma(j) and d_ij < 0 => sigma(i) > sigma(j)
    (d_ij = y^p_ij - y^p_ji, every real d) minimises sum_{i > j} d_ij 1(sigma(i) > sigma(j)) over S_r.  Positions
    are distinct reals s_i (sigma) and t_i (sigma'): only their order enters.  ``both`` False drops the second
    implication (the twin)."""

    def syms(r: int) -> tuple[dict[tuple[int, int], Any], list[Any], list[Any]]:
        d = {(i, j): sympy.Symbol(f"d_{i}_{j}", real=True) for i in range(1, r + 1) for j in range(1, i)}
        return d, list(sympy.symbols(f"s1:{r + 1}", real=True)), list(sympy.symbols(f"t1:{r + 1}", real=True))

    def hyps(r: int) -> dict[str, list[Any]]:
        d, s, t = syms(r)
        out = {
            "sigma_permutation": [sympy.Ne(s[i], s[j]) for i, j in itertools.combinations(range(r), 2)],
            "sigma_prime_permutation": [sympy.Ne(t[i], t[j]) for i, j in itertools.combinations(range(r), 2)],
            "agrees_on_positive": [sympy.Implies(w > 0, s[i - 1] < s[j - 1]) for (i, j), w in d.items()],
        }
        if both:
            out["agrees_on_negative"] = [sympy.Implies(w < 0, s[i - 1] > s[j - 1]) for (i, j), w in d.items()]
        return out

    def conclusion(r: int) -> Any:
        d, s, t = syms(r)
        return (sum(w * indicator(s[i - 1] > s[j - 1]) for (i, j), w in d.items())
                <= sum(w * indicator(t[i - 1] > t[j - 1]) for (i, j), w in d.items()))

    names = ["sigma_permutation", "sigma_prime_permutation", "agrees_on_positive"] + (["agrees_on_negative"] if both
                                                                                       else [])
    return implies(
        id, hypotheses={n: (lambda r, n=n: hyps(r)[n]) for n in names}, conclusion=conclusion,
        cite=cite("Appendix, proofs of Theorems 6 and 7", TERMWISE_QUOTE),
        statement=("d_ij > 0 => sigma(i) < sigma(j)" + (" and d_ij < 0 => sigma(i) > sigma(j)" if both else "")
                   + " for all i > j (every real d_ij) => sum_{i>j} d_ij 1(sigma(i) > sigma(j)) <= the same sum at "
                   "every sigma' in S_r, i.e. sigma in Pi*(p)"
                   + ("" if both else " [twin: without the second implication]")),
        sizes=r_sizes(*sizes),
    )


agreeing_sigma_is_optimal = _with_twin(termwise_claim, both=False, sizes=(2, 2))


# ---------------------------------------------------------------------------------------
# Section 1 (outline) and the abstract: the surrogate's dimension is at most the rank
# ---------------------------------------------------------------------------------------

RANK_QUOTE = ("Section 3 gives our primary result, namely an explicit convex surrogate calibrated for low-rank loss "
              "matrices, defined on a surrogate space of dimension at most the rank of the matrix")


def _rank_cases(r: int) -> list[tuple[Any, ...]]:
    return [("precision", r, (("q", q),)) for q in range(1, r + 1)] + [("eru", r, ()), ("map", r, ()), ("pd", r, ())]


def dimension_rank_holds(case: tuple[Any, ...], *, slack: int = 0) -> tuple[bool, str]:
    """Theorem 3's least d (the certified affine dimension, min{d : L = A B^T + c 1 1^T}) <= rank(L) - ``slack``."""
    loss, r, params = case
    m = _named_loss(loss, r, params).matrix
    aff, rk = m.affine_dimension(), m.rank()
    if not (aff.certified and rk.certified):
        return False, f"{m.name}: not certified ({aff.summary()}; {rk.summary()})"
    return aff.value <= rk.value - slack, f"{m.name}: certified affine dimension {aff.value}, certified rank {rk.value}"


def dimension_rank_claim(id: str = "ramaswamy2013.audit.section1.dimension_at_most_rank", *, slack: int = 0,
                         sizes: tuple[int, int] = (2, 4)) -> Claim:
    """Section 1 (outline): Theorem 3's surrogate space has dimension at most rank(L) -- take c = 0 in l = alpha
    beta^T + c; on the paper's losses the least d (certified) against the certified rank.  ``slack`` 1 asks for
    rank - 1 (the twin)."""
    return finite_check(
        id, cases=_rank_cases, holds=lambda c: dimension_rank_holds(c, slack=slack),
        describe=lambda c: {"loss": c[0], "r": c[1], **dict(c[2])},
        domain="P@q (q in [r]), ERU (s = 2, v = 1, w = 2, z = r), MAP (l_MAP(0, .) := 1), PD (unit DAGs): certified "
               "affine dimension and rank",
        cite=cite("Section 1, Paper outline", RANK_QUOTE),
        statement=("Theorem 3's least surrogate dimension d = min{d : L = A B^T + c 1 1^T} is at most rank(L)"
                   + (" - 1 [twin]" if slack else "")),
        sizes=r_sizes(*sizes),
    )


dimension_at_most_rank = _with_twin(dimension_rank_claim, slack=1, sizes=(2, 2))


# ---------------------------------------------------------------------------------------
# Theorem 3, proof: "pred*(u) not in argmin" is "regret >= eps" is "regret >= regret(pred*(u^p)) + eps"
# ---------------------------------------------------------------------------------------

THRESHOLD_QUOTE = ("eps = min_{t : regret(t) > 0} regret(t). Then inf_{u : pred*(u) not in argmin_t p^T l_t} = "
                   "inf_{u : regret(pred*(u)) >= eps} = inf_{u : regret(pred*(u)) >= regret(pred*(u^p)) + eps}")
R_ = sympy.symbols("R1:4", real=True)
EPS = sympy.Symbol("eps", real=True)


def threshold_claim(id: str = "ramaswamy2013.audit.theorem3.regret_threshold", *, least: bool = True) -> Claim:
    """Theorem 3, proof: with regrets R_1, R_2, R_3 >= 0 (R_1 = 0: t = 1 is pred*(u^p) after relabelling; R_t = 0
    iff t is optimal) and eps > 0 at most every positive regret, R_t > 0 iff R_t >= eps iff R_t >= R_1 + eps, for
    every t: the three infima range over the same u.  ``least`` False drops "eps <= every positive regret" (the
    twin)."""
    hyps: dict[str, Any] = {"regrets": [*(x >= 0 for x in R_), sympy.Eq(R_[0], 0)], "eps_positive": [EPS > 0]}
    if least:
        hyps["eps_least_positive"] = [sympy.Implies(x > 0, EPS <= x) for x in R_]
    return implies(
        id, hypotheses=hyps,
        conclusion=sympy.And(*[sympy.And(sympy.Equivalent(x > 0, x >= EPS), sympy.Equivalent(x >= EPS, x >= R_[0] + EPS))
                               for x in R_]),
        cite=cite("Theorem 3, proof", THRESHOLD_QUOTE),
        statement=("k = 3 predictions, regrets R_t >= 0 with R_1 = regret(pred*(u^p)) = 0, eps > 0"
                   + (" and eps <= every positive R_t" if least else "")
                   + ": R_t > 0 <=> R_t >= eps <=> R_t >= R_1 + eps for every t"),
        scope="k = 3 (any k: the statement is one t at a time); t = 1 stands for pred*(u^p) after relabelling",
    )


regret_threshold = _with_twin(threshold_claim, least=False)


# ---------------------------------------------------------------------------------------
# Section 7.1: lambda(z) = z^2 is strictly convex and 1-coercive
# ---------------------------------------------------------------------------------------

LAMBDA_QUOTE = ("where lambda is a strictly convex and 1-coercive function and nu > 0. Taking lambda(z) = z^2 and "
                "nu = 1/2 gives a special case")
XL, YL, TH, ZL, ML = sympy.symbols("x y theta z M", real=True)


def lambda_claim(id: str = "ramaswamy2013.audit.section7_1.square_is_admissible", *,
                 lam: Callable[[Any], Any] = lambda z: z**2, name: str = "z^2") -> Claim:
    """Section 7.1: lambda(z) = z^2 is an admissible lambda of psi_DMJ: strictly convex (x != y, 0 < theta < 1 =>
    lambda(theta x + (1 - theta) y) < theta lambda(x) + (1 - theta) lambda(y)) and 1-coercive (lambda(z)/|z| -> oo:
    |z| > M + 1, M >= 0 => lambda(z) > M |z|).  ``lam`` = |z| is the twin."""
    return implies(
        id, hypotheses={"distinct_points": [sympy.Ne(XL, YL)], "theta_open": [TH > 0, TH < 1],
                        "far_out": [ML >= 0, sympy.Abs(ZL) > ML + 1]},
        conclusion=sympy.And(lam(TH * XL + (1 - TH) * YL) < TH * lam(XL) + (1 - TH) * lam(YL),
                             lam(ZL) > ML * sympy.Abs(ZL)),
        cite=cite("Section 7.1", LAMBDA_QUOTE),
        statement=(f"lambda(z) = {name}: strictly convex on every segment, and lambda(z) > M |z| once |z| > M + 1 "
                   "(1-coercive)"),
    )


square_is_admissible = _with_twin(lambda_claim, lam=sympy.Abs, name="|z|")


CLAIMS: list[Claim] = [
    dimension_at_most_rank,
    regret_threshold,
    square_is_admissible,
    losses_in_r_plus,
    loss_sizes,
    eru_z_least,
    pred_bar_is_sorting,
    dmj_nonnegative,
    dmj_nonnegative_corrected,
    agreeing_sigma_is_optimal,
    adjacent_misordered_pair,
    swap_difference_chain,
]
