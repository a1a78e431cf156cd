"""Appendix A: the template loss (14) (its summation indices), Corollary A.1's set K (its dimension)
and footnote 3's range of U on the bounded set Delta."""

from __future__ import annotations

from typing import Any

import sympy

from symcal import Finding, finite_check, identity, implies
from symcal.claims import described

from .common import cite

PHI14 = sympy.Function("varphi")
EQ14 = "Appendix A, Eq. (14)"
EQ14_QUOTE = "l(v, s) = sum_{i=k}^n v_k varphi_i(s)"


def _pairwise14(n: int) -> tuple[tuple[Any, ...], list[Any], Any]:
    """The pairwise loss (4) with lambda = v_i varphi(s_i - s_j) + v_j varphi(s_j - s_i), its
    varphi_i(s) = sum_{j != i} varphi(s_i - s_j) (Appendix A) and the labels v_1..v_n."""
    v = sympy.symbols(f"v1:{n + 1}", real=True)
    s = sympy.symbols(f"s1:{n + 1}", real=True)
    loss = sum(v[i] * PHI14(s[i] - s[j]) + v[j] * PHI14(s[j] - s[i]) for i in range(n) for j in range(i + 1, n))
    phis = [sum(PHI14(s[i] - s[j]) for j in range(n) if j != i) for i in range(n)]
    return v, phis, loss


def eq14_claim(id: str, *, form: str = "corrected", finding: Finding | None = None) -> Any:
    """Appendix A, Eq. (14): "l(v, s) = sum_{i=k}^n v_k varphi_i(s)", and "the pairwise losses described in
    (4) ... have this form (take varphi_i(s) = sum_{j != i} varphi(s_i - s_j))".  ``form``: "printed" (the
    sum over i from k, k = 1: v_1 sum_i varphi_i(s)), "corrected" (sum_{k=1}^n v_k varphi_k(s)) or "from2"
    (sum_{k=2}^n v_k varphi_k(s): the twin), each against the pairwise loss, for every varphi."""
    def sides(n: int | None) -> tuple[Any, Any]:
        assert n is not None
        v, phis, loss = _pairwise14(n)
        if form == "printed":
            k = 1
            rhs = sum(v[k - 1] * phis[i - 1] for i in range(k, n + 1))
        else:
            rhs = sum(v[k - 1] * phis[k - 1] for k in range(2 if form == "from2" else 1, n + 1))
        return loss, rhs
    shown = {"printed": "sum_{i=k}^n v_k varphi_i(s) (k = 1)", "corrected": "sum_{k=1}^n v_k varphi_k(s)",
             "from2": "sum_{k=2}^n v_k varphi_k(s)"}[form]
    return identity(
        id, lambda n: sides(n)[0], lambda n: sides(n)[1], sizes=(2, 4),
        cite=cite(EQ14, EQ14_QUOTE),
        statement=f"the pairwise loss sum_{{i<j}} v_i varphi(s_i - s_j) + v_j varphi(s_j - s_i) equals {shown} with "
                  "varphi_i(s) = sum_{j != i} varphi(s_i - s_j), for every function varphi",
        scope=described("n = 2..4, every varphi (an undefined function)"), finding=finding,
    )


eq14_corrected = eq14_claim("calauzenes2013.eq14.pairwise_form.corrected")
eq14_printed = eq14_claim(
    "calauzenes2013.eq14.pairwise_form", form="printed",
    finding=Finding(
        what="Eq. (14) prints l(v, s) = sum_{i=k}^n v_k varphi_i(s): k is free and v_k does not depend on the "
             "summation index i, so for every k the sum is v_k (varphi_k(s) + ... + varphi_n(s)), and the pairwise "
             "loss (4) the next sentence names is not of this form.  The intended template is "
             "sum_{k=1}^n v_k varphi_k(s) (the inner risk sum_i U_i sum_{j != i} varphi(s_i - s_j) of Remark 2).",
        counterexample="n = 2, k = 1, v = (0, 1), varphi = 1 (constant): the pairwise loss is v_1 + v_2 = 1, the "
                       "printed sum v_1 (varphi_1 + varphi_2) = 0 (k = 2: v = (1, 0) gives the printed "
                       "v_2 varphi_2 = 0 against the loss 1).",
        corrected="calauzenes2013.eq14.pairwise_form.corrected",
        finding_class="clarification",
    ),
)

# --- Corollary A.1: K is a set of reals, K subset of R_+ -----------------------------------------------

COR_A1 = "Corollary A.1"
COR_A1_QUOTE = "assume u(Y) = K^n for some closed set K subset R^n"


def k_dimension_claim(id: str, *, k_dim: str = "1", finding: Finding | None = None) -> Any:
    """Corollary A.1: "u(Y) = K^n for some closed set K subset R^n", with u: Y -> R^n_+ (Definition 2.1).
    The product K^n of a set of R^d lies in R^{d n}; it can equal a subset of u's range R^n only if
    d n = n.  ``k_dim`` is the dimension of K's elements: "n" as printed, "1" (K subset R_+, as the paragraph
    before the corollary says), "2" (the twin)."""
    def formula(n: int) -> tuple[Any, dict[Any, int]]:
        N, D = sympy.symbols("n d", integer=True, positive=True)
        return [sympy.Eq(D * N, N)], {N: n, D: {"n": n, "1": 1, "2": 2}[k_dim]}
    where = {"n": "R^n", "1": "R_+ (a set of reals)", "2": "R^2"}[k_dim]
    return finite_check(
        id, cases=range(1, 6), formula=formula, describe=lambda n: {"n": n, "dim K": n if k_dim == "n" else int(k_dim)},
        domain="n = 1..5", cite=cite(COR_A1, COR_A1_QUOTE),
        statement=f"for K subset {where}, K^n lies in R^n, the space of u(y) (the dimension of K's elements times n "
                  "equals n)",
        finding=finding,
    )


k_dimension_corrected = k_dimension_claim("calauzenes2013.corollary_a1.k_dimension.corrected")
k_dimension_printed = k_dimension_claim(
    "calauzenes2013.corollary_a1.k_dimension", k_dim="n",
    finding=Finding(
        what="Corollary A.1 assumes u(Y) = K^n for a closed K subset R^n; then K^n lies in R^{n^2}, not in u's "
             "range R^n_+, and footnote 3 uses min K and sup K as numbers.  K is a closed set of reals, "
             "K subset R_+, as the paragraph before the corollary states (u maps into R^n_+, Definition 2.1); "
             "the corollary stands with it.",
        counterexample="n = 2: K subset R^2 gives K^2 subset R^4, not a subset of R^2.",
        corrected="calauzenes2013.corollary_a1.k_dimension.corrected",
        finding_class="clarification",
    ),
)


def u_range_claim(id: str, *, nonnegative_k: bool = True) -> Any:
    """Footnote 3: "{U(Delta), Delta in Delta} = [min K, min(sup K, B)]^n" for Delta = {||U(Delta)||_oo <= B}
    and u(Y) = K^n, coordinate by coordinate: U ranges over the convex hull [min K, sup K] of K (a = min K,
    b = sup K), and |x| <= B there iff a <= x <= min(b, B) -- with K subset R_+ (``nonnegative_k=False``
    drops a >= 0: the twin, refuted by a K below -B)."""
    a, b, B, x = sympy.symbols("a b B x", real=True)
    hyps = {"k_ordered": [a <= b], "b_positive": [B > 0]}
    if nonnegative_k:
        hyps["k_nonnegative"] = [a >= 0]
    return implies(
        id, hypotheses=hyps,
        conclusion=sympy.Equivalent(sympy.And(a <= x, x <= b, -B <= x, x <= B), sympy.And(a <= x, x <= b, x <= B)),
        cite=cite("Footnote 3", "{U(Delta), Delta in Delta} = [min K, min(sup K, B)]^n"),
        statement="for a closed K subset R_+ with a = min K, b = sup K (finite) and B > 0: x in [a, b] has |x| <= B "
                  "iff x in [a, min(b, B)] (one coordinate of U; the set is a product)",
        scope="all real a, b, B, x; sup K = +oo (no real b) is not a query: there the same equivalence loses "
              "x <= b on both sides, a <= x, |x| <= B iff a <= x <= B, which a >= 0 > -B gives",
    )


u_range = u_range_claim("calauzenes2013.footnote3.u_range")


def cauchy_schwarz_claim(id: str, *, points: int = 3, factor: Any = 1) -> Any:
    """Appendix A, proof of Corollary A.2: "Integrating (15) over P_X with B = ||U(Delta)||_oo and Delta = P(.|x) and
    using Cauchy-Schwarz inequality": int c sqrt(B(x)) sqrt(g(x)) dP_X <= c sqrt(int B dP_X) sqrt(int g dP_X), for
    P_X on ``points`` points (weights p_k >= 0 summing to 1) with a_k = sqrt(B(x_k)), h_k = sqrt(g(x_k)) >= 0 (g the
    inner regret of the loss), squared: (sum p a h)^2 <= (sum p a^2)(sum p h^2).  ``factor`` scales the right-hand
    side (the twin: 9/10)."""
    p = sympy.symbols(f"p1:{points + 1}", real=True)
    a = sympy.symbols(f"a1:{points + 1}", real=True)
    h = sympy.symbols(f"h1:{points + 1}", real=True)

    def mean(terms: list[Any]) -> Any:
        return sympy.Add(*[w * t for w, t in zip(p, terms, strict=True)])

    return implies(
        id,
        hypotheses={"p_x_distribution": [w >= 0 for w in p] + [sympy.Eq(sympy.Add(*p), 1)],
                    "square_roots": [x >= 0 for x in a + h]},
        conclusion=mean([x * y for x, y in zip(a, h, strict=True)]) ** 2
        <= factor * mean([x ** 2 for x in a]) * mean([y ** 2 for y in h]),
        cite=cite("Appendix A, proof of Corollary A.2", "Integrating (15) over P_X with B = ||U(Delta)||_oo and "
                  "Delta = P(.|x) and using Cauchy-Schwarz inequality"),
        statement=f"P_X on {points} points: (E sqrt(B) sqrt(g))^2 <= "
                  + ("" if factor == 1 else f"{factor} ") + "E[B] E[g] (Cauchy-Schwarz, squared; both sides >= 0)",
        scope=described(f"P_X with {points} atoms: every weight p_k >= 0 summing to 1, every real a_k, h_k >= 0 "
                        "(every B, g >= 0 through a_k, h_k their square roots)"),
    )


cauchy_schwarz = cauchy_schwarz_claim("calauzenes2013.corollary_a2.proof_cauchy_schwarz")
