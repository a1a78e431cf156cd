"""Section 5: C_phi(p) against ||phi||_p (Section 5.1), Lemma 5.1 (the regret bound with C_phi(p)) and the
two steps of its proof (Appendix B.3), the split of the constrained infimum in the proof of Theorem 5.2,
and the first step of the proof of Theorem 5.3."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies, implies_cases
from symcal.claims import described

from .common import ONE, THREE, TWO, F, cite, matchings, non_increasing, phis, reals
from .section4 import all_pairs, lemma41_sets, pair_set_check


def _power_sum(terms: tuple[int, ...], p: Fraction) -> Any:
    return sum((sympy.Integer(t) ** sympy.Rational(p.numerator, p.denominator) for t in terms), sympy.Integer(0))


@functools.cache
def holder_bound(regret: Fraction, w_terms: tuple[int, ...], p: Fraction, a_terms: tuple[int, ...],
                 w_exponent: Fraction | None = None) -> bool:
    """Exactly: regret <= (sum w^e)^(1/p) (sum a^q)^(1/q), 1/p + 1/q = 1, e = p unless
    ``w_exponent`` is given (the proof of Lemma 5.1 prints e = q).  With p = r/s both sides are
    raised to the power r, which leaves integer powers of sums of radicals: sympy expands them
    to a canonical form (zero only if exactly zero) and a rigorous interval enclosure signs the
    rest; an undecided sign raises, so the claim errs instead of passing."""
    if regret <= 0:
        return True
    q = p / (p - 1)
    e = p if w_exponent is None else w_exponent
    r = p.numerator  # 1/p = s/r, 1/q = (r - s)/r
    s_ = p.denominator
    X, Y = _power_sum(w_terms, e), _power_sum(a_terms, q)
    diff = sympy.expand(X ** s_ * Y ** (r - s_) - sympy.Rational(regret.numerator, regret.denominator) ** r)
    if diff == 0:
        return True
    from symcal.backends.sympy_backend import residual_excludes_zero

    if residual_excludes_zero(diff) is not True:
        raise ArithmeticError(f"could not sign {diff} exactly")
    return bool(sympy.N(diff, 50) > 0)


def lemma51_case(case: tuple[Any, ...], p: Fraction, c_terms: int | None = None, proof_step: str = "",
                 regret_scale: Fraction = ONE) -> tuple[bool, str]:
    """Every pair set C of Lemma 4.1 satisfies Lemma 5.1's bound R-bar - R <= C_phi(p) (sum_C
    (U_i - U_j)^q)^(1/q) (``proof_step="printed"``: the first line of the proof in Appendix B.3,
    (sum_C (phi(nu^-1(i)) - phi(nu^-1(j)))^q)^(1/p) (sum_C (U_i - U_j)^q)^(1/q); ``"holder"``: the
    same with exponent p, i.e. Hoelder's inequality).  Twins scale the regret by ``regret_scale``."""
    phi, U = case[0], case[1]
    n = len(U)
    regret, sets = lemma41_sets(case)
    scaled = F(regret) * regret_scale
    terms = n // 2 if c_terms is None else c_terms
    d_terms = tuple(phi[i - 1] - phi[n - i] for i in range(1, terms + 1))  # eq. (10)
    found = False
    for C in sets:
        found = True
        a_terms = tuple(du for _, _, du, _ in C)
        if proof_step:
            w_terms = tuple(dphi for _, _, _, dphi in C)
            ok = holder_bound(scaled, w_terms, p, a_terms, p / (p - 1) if proof_step == "printed" else None)
            what = f"the proof's bound with phi-differences {w_terms}"
        else:
            ok = holder_bound(scaled, d_terms, p, a_terms)
            what = f"C_phi({p}) from (phi(i) - phi(n-i+1)) = {d_terms}"
        if not ok:
            return False, (f"regret {scaled} exceeds {what} and U-differences {a_terms} (C = "
                           f"{[(i, j) for i, j, _, _ in C]}, p = {p})")
    return found, f"regret {regret}: Lemma 4.1 gives no pair set"


def lemma51_claim(id: str, *, p: Fraction = TWO, c_terms: int | None = None, sizes: tuple[int, int] = (2, 3)) -> Any:
    """Lemma 5.1, eq. (10): "R-bar - R(s) <= C_phi(p) (sum_{C_s} (U_i - U_j)^q)^(1/q)"."""
    return pair_set_check(
        id, lambda c: lemma51_case(c, p, c_terms), sizes=sizes, every_set=True,
        cite=cite(f"Lemma 5.1, eq. (10), p = {p}", "R-bar - R(s) <= C_phi(p) (sum_{C_s} (U_i - U_j)^q)^(1/q)"),
        statement=(f"Lemma 5.1 with p = {p}, q = {p / (p - 1)} for every pair set given by Lemma 4.1 "
                   "(both sides raised to a common integer power, exact)"),
    )


def lemma51_proof_claim(id: str, *, p: Fraction = THREE, printed: bool = True, finding: Finding | None = None,
                        sizes: tuple[int, int] = (2, 3), regret_scale: Fraction = ONE) -> Any:
    """Appendix B.3, first inequality: "<= (sum_{C_s} (phi(nu^-1(i)) - phi(nu^-1(j)))^q)^(1/p) (sum_{C_s}
    (U_i - U_j)^q)^(1/q)"."""
    q = p / (p - 1)
    return pair_set_check(
        id, lambda c: lemma51_case(c, p, proof_step="printed" if printed else "holder", regret_scale=regret_scale),
        sizes=sizes, every_set=True, finding=finding,
        cite=cite("Proof of Lemma 5.1 (Appendix B.3), first inequality",
                  "<= (sum_{C_s} (phi(nu^-1(i)) - phi(nu^-1(j)))^q)^(1/p) (sum_{C_s} (U_i - U_j)^q)^(1/q)"),
        statement=(f"the first line of Lemma 5.1's proof as printed (phi-differences to the power q = {q}, the sum "
                   f"to the power 1/p, p = {p})" if printed else
                   f"Hoelder's inequality as the proof needs it: (sum_C (phi(nu^-1(i)) - phi(nu^-1(j)))^p)^(1/p) "
                   f"(sum_C (U_i - U_j)^q)^(1/q) bounds the regret (p = {p}, q = {q})"),
    )


lemma51 = lemma51_claim("calauzenes2013.lemma5_1")
lemma51_p3 = lemma51_claim("calauzenes2013.lemma5_1.p3", p=F(3))
lemma51_p3_2 = lemma51_claim("calauzenes2013.lemma5_1.p3_2", p=F(3, 2))
lemma51_first_step_corrected = lemma51_proof_claim("calauzenes2013.lemma5_1.proof_first_step.corrected",
                                                   printed=False)
lemma51_first_step = lemma51_proof_claim(
    "calauzenes2013.lemma5_1.proof_first_step",
    finding=Finding(
        what="The first inequality of Lemma 5.1's proof (Appendix B.3) raises the phi-differences to the power q "
             "where Hoelder's inequality needs p: (sum w^q)^(1/p) (sum a^q)^(1/q) does not bound the regret "
             "unless p = q = 2. The lemma itself survives: its statement uses C_phi(p) with exponent p.",
        counterexample="n = 2, phi = (2, 0), U = (0, 1), nu = (2, 1), sigma = (1, 2), p = 3 (q = 3/2): regret 2, "
                       "C = {(2, 1)}, printed bound (2^(3/2))^(1/3) * 1^(2/3) = sqrt 2 < 2.",
        corrected=lemma51_first_step_corrected.id,
        finding_class="proof",
    ),
)


# ---------------------------------------------------------------------------------------
# Section 5.1: C_phi(p) and ||phi||_p
# ---------------------------------------------------------------------------------------


def c_phi_power(phi: Any, p: int, terms: int | None = None) -> Any:
    """C_phi(p)^p = sum_{i <= floor(n/2)} (phi(i) - phi(n-i+1))^p (eq. (10)); ``terms`` overrides floor(n/2)."""
    n = len(phi)
    return sum(((phi[i - 1] - phi[n - i]) ** p for i in range(1, (n // 2 if terms is None else terms) + 1)),
               sympy.Integer(0))


def c_phi_norm_claim(id: str, *, always_strict: bool = False) -> Any:
    """Section 5.1: "C_phi(p) is generally strictly lower than ||phi||_p" -- C_phi(p) <= ||phi||_p, with
    equality only when phi(k) = 0 for every k > floor(n/2) (``always_strict``: "<" always, the twin)."""
    def cases(n: int | None) -> list[tuple[str, dict[str, list[Any]], Any]]:
        assert n is not None
        phi = reals("phi", n)
        vanish = sympy.And(*[sympy.Eq(phi[k], 0) for k in range(n // 2, n)])
        parts = []
        for p in (1, 2, 3):
            c, norm = c_phi_power(phi, p), sum(f ** p for f in phi)
            parts += [c < norm] if always_strict else [c <= norm, sympy.Implies(sympy.Eq(c, norm), vanish)]
        return [(f"n={n}", {"phi": non_increasing(phi) + [phi[-1] >= 0, phi[0] > 0]}, sympy.And(*parts))]
    return implies_cases(
        id, cases=cases, sizes=(2, 6),
        cite=cite("Section 5.1, after Table 2", "C_phi(p) is generally strictly lower than ||phi||_p"),
        statement="C_phi(p)^p <= ||phi||_p^p for p = 1, 2, 3, with equality only if phi vanishes beyond rank "
                  "floor(n/2) (real phi non-increasing >= 0, phi(1) > 0)",
        domain="one query per n", scope=described("n = 2..6, p in {1, 2, 3}, all real phi"),
    )


# ---------------------------------------------------------------------------------------
# Appendix B.3, second inequality: a matching's phi-differences against C_phi
# ---------------------------------------------------------------------------------------

B3 = "Appendix B.3, proof of Lemma 5.1, second inequality"
THREE_HALVES = F(3, 2)


def printed_second_step_cases(m: int | None) -> Iterator[tuple[Any, ...]]:
    assert m is not None
    for phi in phis(m, top=2):
        for C in matchings(all_pairs(m)):
            yield phi, C


def printed_second_step_case(case: tuple[Any, ...], p: Fraction = THREE_HALVES) -> tuple[bool, str]:
    """sum_C (phi(a) - phi(b))^q <= sum_{i=1}^{(n+1)/2} (phi(i) - phi(n-i+1))^q as printed (q = p/(p-1) = 3
    for p = 3/2, so the sums are integers); a sum whose upper limit is not an integer is undefined."""
    phi, C = case
    n, q = len(phi), int(p / (p - 1))
    top = F(n + 1, 2)
    if top.denominator != 1:
        return False, f"the upper limit (n+1)/2 = {top} is not an integer: the sum is undefined"
    left = sum((phi[a - 1] - phi[b - 1]) ** q for a, b in C)
    right = sum((phi[i - 1] - phi[n - i]) ** q for i in range(1, int(top) + 1))
    return left <= right, f"sum over C = {left} > {right}"


def printed_second_step_claim(id: str, *, finding: Finding | None = None) -> Any:
    """Appendix B.3, second inequality: "<= (sum_{i=1}^{(n+1)/2} (phi(i) - phi(n-i+1))^q)^{1/p} (...)^{1/q}"."""
    return finite_check(
        id, cases=printed_second_step_cases, holds=printed_second_step_case, sizes=(2, 3), finding=finding,
        sample="a small integer grid of the real phi", describe=lambda c: {"phi": c[0], "C": c[1]},
        domain="phi in {0..2}^n non-increasing, every set C of non-overlapping rank pairs (a, b), a < b; p = 3/2",
        cite=cite(B3, "<= (sum_{i=1}^{(n+1)/2} (phi(i) - phi(n-i+1))^q)^{1/p} (sum_{C_s} (U_i - U_j)^q)^{1/q}"),
        statement="the second inequality of the proof as printed: exponent q, upper limit (n+1)/2",
    )


def matching_cases(n: int | None, *, dropped: int = 0) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Per set C of non-overlapping rank pairs a < b: sum_C (phi(a) - phi(b))^p <= C_phi(p)^p for p = 2, 3;
    phi in difference variables phi(k) - phi(n) = g_k + ... + g_{n-1}, g >= 0 (``dropped``: C_phi loses
    its last terms, the twin)."""
    assert n is not None
    g = reals("g", n - 1)
    phi = [sum(g[k - 1:], sympy.Integer(0)) for k in range(1, n + 1)]
    out = []
    for C in matchings(all_pairs(n)):
        if C:
            bound = [sum((phi[a - 1] - phi[b - 1]) ** p for a, b in C) <= c_phi_power(phi, p, n // 2 - dropped)
                     for p in (2, 3)]
            out.append((f"C={C}", {"phi_non_increasing": [gk >= 0 for gk in g]}, sympy.And(*bound)))
    return out


def matching_claim(id: str, *, dropped: int = 0) -> Any:
    """Appendix B.3, second inequality with exponent p and upper limit floor(n/2): sum_{C_s} (phi(nu^-1(i)) -
    phi(nu^-1(j)))^p <= sum_{i=1}^{floor(n/2)} (phi(i) - phi(n-i+1))^p = C_phi(p)^p."""
    return implies_cases(
        id, cases=lambda n: matching_cases(n, dropped=dropped), sizes=(2, 5),
        cite=cite(B3, "<= (sum_{i=1}^{(n+1)/2} (phi(i) - phi(n-i+1))^q)^{1/p} [exponent p, upper limit floor(n/2)]"),
        statement="for every set of non-overlapping rank pairs, sum (phi(a) - phi(b))^p <= C_phi(p)^p (p = 2, 3; one "
                  "z3 query per set, real phi non-increasing in difference variables)",
        domain="every non-empty set C of non-overlapping rank pairs (a, b), a < b",
        scope=described("n = 2..5, p in {2, 3}"),
    )


# ---------------------------------------------------------------------------------------
# Proof of Theorem 5.2: the constrained infimum splits over the pairs of C_s (pointwise squared loss)
# ---------------------------------------------------------------------------------------


def misordered_utilities(U: list[Any], C: list[tuple[int, int]]) -> tuple[list[Any], tuple[Any, ...]]:
    """U with U_i = U_j + e_k (e_k >= 0 a new variable) on the k-th pair (i, j) of C, and the e's."""
    e = reals("e", len(C)) if C else ()
    Uc = list(U)
    for (i, j), ek in zip(C, e, strict=True):
        Uc[i - 1] = U[j - 1] + ek
    return Uc, e


def split_cases(n: int | None, *, constrained: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Per set C of non-overlapping pairs (i, j): with U_i = U_j + e, s_j = s_i + d (e, d >= 0: the pair is
    misordered; ``constrained=False`` frees d, the twin), sum_k (U_k - s_k)^2 >= sum_C (U_i - U_j)^2 / 2, with
    equality at s_i = s_j = (U_i + U_j)/2 on the pairs and s_k = U_k elsewhere."""
    assert n is not None
    U, s = list(reals("U", n)), list(reals("s", n))
    out = []
    for C in matchings(all_pairs(n)):
        Uc, e = misordered_utilities(U, C)
        d, sc = (reals("d", len(C)) if C else ()), list(s)
        for (i, j), dk in zip(C, d, strict=True):
            sc[j - 1] = s[i - 1] + dk
        star = list(Uc)
        for i, j in C:
            star[i - 1] = star[j - 1] = (Uc[i - 1] + Uc[j - 1]) / 2
        h = sum(((Uc[i - 1] - Uc[j - 1]) ** 2 for i, j in C), sympy.Integer(0)) / 2

        def regret(t: list[Any], Uc: list[Any] = Uc) -> Any:
            return sum((Uc[k] - t[k]) ** 2 for k in range(n))
        hyps = {"misordered": [ek >= 0 for ek in e] + ([dk >= 0 for dk in d] if constrained else [])}
        out.append((f"C={C}", hyps, sympy.And(regret(sc) >= h, sympy.Eq(regret(star), h))))
    return out


def split_claim(id: str, *, constrained: bool = True) -> Any:
    """Proof of Theorem 5.2: "inf_{s' in S_u(C_s)} sum_i (Lambda^{u_i}(Delta, s'_i) - underline-Lambda^{u_i}(Delta)) =
    sum_{(i,j) in C_s} (H^-_ij(u, Delta) - H_ij(u, Delta))", for the pointwise squared loss."""
    return implies_cases(
        id, cases=lambda n: split_cases(n, constrained=constrained), sizes=(2, 5),
        cite=cite("Theorem 5.2, proof", "inf_{s' in S_u(C_s)} L^u(Delta, s') - underline-L^u(Delta) = sum_{(i,j) in "
                                        "C_s} (H^-_ij(u, Delta) - H_ij(u, Delta))"),
        statement="pointwise squared loss (Lambda^{u_i}(Delta, s) - underline-Lambda^{u_i} = (U_i - s)^2): the infimum "
                  "over scores misordering every pair of C is sum_C (U_i - U_j)^2/2 = sum_C (H^- - H), attained "
                  "(one z3 query per C; difference variables for the misordered pairs)",
        domain="every set C of non-overlapping pairs i < j", scope=described("n = 2..5, every C, all real U and s"),
    )


def pairwise_split_cases(n: int | None, *, constrained: bool = True) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Per set C of non-overlapping pairs (i, j): with U_i = U_j + e and d_ij = -t on C (e, t >= 0; ``constrained=
    False`` frees t, the twin) and every other d_kl free, sum_{k<l} (U_k - U_l - d_kl)^2 >= sum_C (U_i - U_j)^2,
    with equality at d = 0 on C and d_kl = U_k - U_l elsewhere."""
    assert n is not None
    U = list(reals("U", n))
    out = []
    for C in matchings(all_pairs(n)):
        Uc, e = misordered_utilities(U, C)
        t = reals("t", len(C)) if C else ()
        free = {(k, m): sympy.Symbol(f"d{k}{m}", real=True) for k, m in all_pairs(n)}
        d = {**free, **{pair: -tk for pair, tk in zip(C, t, strict=True)}}
        star = {(k, m): (0 if (k, m) in C else Uc[k - 1] - Uc[m - 1]) for k, m in all_pairs(n)}

        def regret(dd: dict[tuple[int, int], Any], Uc: list[Any] = Uc) -> Any:
            return sum((Uc[k - 1] - Uc[m - 1] - dd[k, m]) ** 2 for k, m in all_pairs(n))
        h = sum(((Uc[i - 1] - Uc[j - 1]) ** 2 for i, j in C), sympy.Integer(0))
        hyps = {"misordered": [ek >= 0 for ek in e] + ([tk >= 0 for tk in t] if constrained else [])}
        out.append((f"C={C}", hyps, sympy.And(regret(d) >= h, sympy.Eq(regret(star), h))))
    return out


def pairwise_split_claim(id: str, *, constrained: bool = True) -> Any:
    """Proof of Theorem 5.4: "inf_{d in Gamma(C_s)} sum_{i<j} Lambda^{u_i,u_j}(Delta, d_ij) - inf_{d} sum_{i<j}
    Lambda^{u_i,u_j}(Delta, d_ij) >= sum_{(i,j) in C_s} inf_{d_ij <= 0} Lambda - inf Lambda", for the pairwise
    squared loss."""
    return implies_cases(
        id, cases=lambda n: pairwise_split_cases(n, constrained=constrained), sizes=(2, 4),
        cite=cite("Theorem 5.4, proof", "inf_{d in Gamma(C_s)} sum_{i<j} Lambda(d_ij) - inf_d sum_{i<j} Lambda(d_ij) "
                                        ">= sum_{(i,j) in C_s} inf_{d_ij <= 0} Lambda - inf Lambda"),
        statement="pairwise squared loss (Lambda^{u_i,u_j}(Delta, d) - inf = (U_i - U_j - d)^2): over d with d_ij <= 0 "
                  "on the pairs of C, the excess is at least sum_C (U_i - U_j)^2 = sum_C (inf_{d <= 0} - inf), "
                  "attained (one z3 query per C; difference variables for the misordered pairs)",
        domain="every set C of non-overlapping pairs i < j", scope=described("n = 2..4, every C, all real U and d"),
    )


# ---------------------------------------------------------------------------------------
# Proof of Theorem 5.3, first step: psi = x^2 refutes "underline-L^u(Delta) = 0"; the repaired identity
# E B_psi(u || g) - min_g E B_psi(u || g) = B_psi(U || g) holds for every differentiable psi.
# ---------------------------------------------------------------------------------------

T53 = "Theorem 5.3, proof"


def printed_bregman_step_claim(id: str, *, finding: Finding | None = None, point_mass: bool = False) -> Any:
    """Proof of Theorem 5.3: "Since underline-L^u(Delta) = 0, we have: L^u(Delta, s') - underline-L^u(Delta) =
    int B_psi(y || g(s')) dDelta(y)", at psi(x) = x^2 (B_psi(v || w) = (v - w)^2, mu = 2), n = 1, a two-point Delta;
    underline-L^u(Delta) = L^u(Delta, U) (the repaired identity; ``point_mass``: v1 = v2, the twin)."""
    p, v1, v2, g = sympy.symbols("p v1 v2 g", real=True)

    def risk(w: Any) -> Any:  # L^u(Delta, w) = E B_psi(v || w)
        return p * (v1 - w) ** 2 + (1 - p) * (v2 - w) ** 2
    hyps = {"distribution": [p >= 0, p <= 1], "utilities": [v1 >= 0, v2 >= 0],
            "point_mass": [sympy.Eq(v1, v2)] if point_mass else []}
    return implies(
        id, hypotheses=hyps, conclusion=sympy.Eq(risk(g) - risk(p * v1 + (1 - p) * v2), risk(g)),
        cite=cite(T53, "Since underline-L^u(Delta) = 0, we have: L^u(Delta, s') - underline-L^u(Delta) = int "
                       "B_psi(y || g(s')) dDelta(y)"),
        statement="psi(x) = x^2, Delta = p delta_v1 + (1 - p) delta_v2: L^u(Delta, g) - min_w L^u(Delta, w) = "
                  "E B_psi(v || g) for every g, i.e. the minimum (at w = U) is 0",
        finding=finding,
    )


def bregman(v: tuple[Any, ...], w: tuple[Any, ...], psi: Callable[..., Any] | None) -> Any:
    """B_psi(v || w) = psi(v) - psi(w) - <grad psi(w), v - w>; ``psi=None``: psi and its two partial
    derivatives are arbitrary (undefined) functions, so an identity holds for every differentiable psi."""
    if psi is None:
        value: Callable[..., Any] = sympy.Function("psi")
        grad = [sympy.Function(f"psi_{c + 1}")(*w) for c in range(len(w))]
    else:
        value, x = psi, reals("X", len(w))
        grad = [sympy.diff(psi(*x), xc).subs(dict(zip(x, w, strict=True))) for xc in x]
    return value(*v) - value(*w) - sum(gc * (vc - wc) for gc, vc, wc in zip(grad, v, w, strict=True))


def bregman_step_claim(id: str, *, psi: Callable[..., Any] | None = None, swap: bool = False) -> Any:
    """The repaired first step of Theorem 5.3's proof: int B_psi(u || g) dDelta - min_w int B_psi(u || w) dDelta
    = B_psi(U || g) (``swap``: B_psi(g || U), the twin, with a concrete psi)."""
    p1, p2 = sympy.symbols("p1 p2", real=True)
    probs, vs, g = (p1, p2, 1 - p1 - p2), [reals(f"v{k}_", 2) for k in range(1, 4)], reals("g", 2)
    U = tuple(sum(q * v[c] for q, v in zip(probs, vs, strict=True)) for c in range(2))

    def risk(w: tuple[Any, ...]) -> Any:
        return sum(q * bregman(v, w, psi) for q, v in zip(probs, vs, strict=True))
    return identity(
        id, risk(g) - risk(U), bregman(g, U, psi) if swap else bregman(U, g, psi),
        cite=cite(T53, "L^u(Delta, s') - underline-L^u(Delta) = int B_psi(y || g(s')) dDelta(y) [repaired: = "
                       "B_psi(U || g(s'))]"),
        statement="for every differentiable psi on R^2 and a three-point Delta (a polynomial identity in the "
                  "probabilities): E B_psi(v || g) - E B_psi(v || U) = B_psi(U || g), so the minimum over g is at "
                  "g = U when psi is convex, and the excess risk is B_psi(U || g) >= mu/2 ||U - g||^2",
    )



c_phi_norm = c_phi_norm_claim("calauzenes2013.section5_1.c_phi_below_norm")
second_step_corrected = matching_claim("calauzenes2013.lemma5_1.proof_second_step.corrected")
second_step = printed_second_step_claim(
    "calauzenes2013.lemma5_1.proof_second_step",
    finding=Finding(
        what="The second inequality of Lemma 5.1's proof (Appendix B.3) sums up to (n+1)/2, not an integer for even n, "
             "and keeps the exponent q of the first line where C_phi(p) of eq. (10) needs p: with q the last line is "
             "(sum_i (phi(i) - phi(n-i+1))^q)^(1/p), which is not C_phi(p) (for p = 3/2, n = 3, phi = (2, 0, 0) "
             "it is 8^(2/3) = 4 > C_phi(3/2) = 2). With exponent p and upper limit floor(n/2) the step holds.",
        counterexample="n = 2: the upper limit (n+1)/2 = 3/2 is not an integer, so the printed sum is undefined "
                       "(phi = (1, 0), C = {})",
        corrected=second_step_corrected.id,
        finding_class="proof",
    ),
)
theorem52_split = split_claim("calauzenes2013.theorem5_2.proof_split")
bregman_step_corrected = bregman_step_claim("calauzenes2013.theorem5_3.proof_first_step.corrected")
bregman_step = printed_bregman_step_claim(
    "calauzenes2013.theorem5_3.proof_first_step",
    finding=Finding(
        what="The proof of Theorem 5.3 starts from underline-L^u(Delta) = 0, which holds only when Delta is a point "
             "mass: the minimum of E B_psi(u || g) is E B_psi(u || U) (for psi(x) = x^2 the variance). The step is "
             "repaired by E B_psi(u || g) - min = B_psi(U || g) >= mu/2 ||U - g||^2, which is what the rest of the "
             "proof uses.",
        counterexample="psi(x) = x^2, Delta = 1/2 delta_0 + 1/2 delta_(1/2), g = 0: L^u(Delta, 0) = 1/8, its minimum "
                       "L^u(Delta, U = 1/4) = 1/16 (not 0), so L^u(Delta, 0) - min = 1/16 while E B_psi(v || 0) = 1/8.",
        corrected=bregman_step_corrected.id,
        finding_class="proof",
    ),
)
theorem54_split = pairwise_split_claim("calauzenes2013.theorem5_4.proof_split")
