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
  **Erratum** (clarification): at k = n, the permutation-level case the framework includes, the
  first family {(j_i, j_{i+1})}_{i=1}^k ends with (j_n, j_{n+1}), naming no object (n = 3, k = 3);
  corrected: run it to i = min(k, n - 1), and the pairs form the spanning chain for every k = 1..n.
* Theorem 7: the swap identity of its proof, its regrouping by top-k subgroups (Proposition 4) and
  the stationarity equation at a tie g_1 = g_2 (sympy identities, n = 3..5 and 3..4), and the
  theorem itself for top-k ListMLE at two exact order-preserving p (n = 3, k = 1; n = 4, k = 2): z3 on
  strict convexity (log-sum-exp Hessian forms), a Poincare-Miranda box around the minimiser and its order.
* Proposition 10: **erratum** (scope).  Read as printed -- for the given family with any
  p_1 > p_2 the Q-minimiser of phi is not a top-1 Bayes ranker -- it fails for ListMLE (which
  meets every hypothesis) at p_1 = 628/833: the minimiser is exactly g = log(487/210, 1,
  17/140), object 1 first.  Corrected: for ListMLE the minimiser ranks object 2 first for
  p_1 in (1/3, c) and object 1 first for p_1 in (c, 1), c ~ 0.52610 the root of
  7p^3 + 10p^2 - 11p + 2 in (1/3, 1) (z3 on the stationarity polynomials).  That these
  stationary points are the minimisers is itself proved: Q's Hessian in (g_1, g_3) is
  positive definite at every g (sympy decomposition + z3), and Q >= p_2 (|g_1 - g_2| +
  |g_3 - g_2|) (z3), so Q has exactly one stationary point (mod shift), its minimiser.
* Eq. (10) is the Luce probability of the top-k subgroup: the sum of (9) over its permutations
  (sympy identity in t = exp(g), n = 3, 4, every k).
* Section 4.3 / footnote 4: top-k ListMLE (10) and the modified cosine loss are top-k
  subgroup order sensitive (exact polynomial reductions, z3, n = 3..5); so is the modified
  ListNet (12) (a sympy difference identity with the real exp/log, then termwise polynomial
  signs by z3, n = 3, 4; symbolic psi); Cao et al.'s ListNet at k = n at sampled exact points; the
  original ListMLE, RankCosine, ListNet and Cao et al.'s top-k ListNet are not (rigorous
  interval witnesses at exact points).
* Section 5: footnote 5, **erratum** (a 0/0): N@1 = P@1 holds on every query with a relevant
  document (exhaustive, n = 1..5) but N@1 is undefined on a query without one (n = 1, y = (0));
  corrected: equal there only under the convention NDCG := 0.  The comparisons the text draws from
  Tables 1-6 (Top-k ListMLE beats ListMLE on TD2003/TD2004 in every column; Top-10 ListMLE is best
  at N@1 and P@1 everywhere and in all but one TD column; the bold marks are the column maxima; the
  Top-10 rows of Tables 4-6 repeat Tables 1-3), as exact comparisons of the printed decimals.

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
* Non-order-sensitivity witnesses: the four losses are written from Eqs. (9), (11), (12) and
  footnote 4 as sympy expressions of g_1..g_n and psi_1 > ... > psi_n (``section4_3.loss_expression``;
  the permutation y enters as the concrete order of the terms) and compared at the exact point by
  rigorous enclosures (``finite_check(formula=...)``); ``--certify`` has the kernel re-decide the same
  strict inequality with arb balls.  symcal.ranking's surrogates give the same differences
  (``certified_sign``, mpmath intervals).
* Exhaustive checks stated for the kernel (``finite_check(formula=...)``): the values are only the
  case's inputs or the paper's printed numbers, never a result the statement rests on.  Eq. (5):
  one case per pair (yhat, y), over the entries yhat_t, y_t and k.  Footnote 5 (corrected): one
  case per (y, ranking), over the labels y_i, the ranks r_i and the depth k (gain 2^y - 1 on
  y in {0, 1}; the discount of position 1 is 1 / log2 2 = 1).  In both, symcal.ranking's value
  sits in the middle of the equation chain ((5) = library = (2); N@1 = library N@1 = library P@k =
  P@k): a cross-check of the library that each formula pins, not a datum the statement trusts.
  Tables 1-6: each printed entry is a symbol (``table4.listnet.N3``) bound to its decimal, the
  bold typography a 0/1 flag per entry.
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
* Theorem 7's stationarity step: every phi with Definition 3 (1) for the pair (1, 2) is
  phi(g, y) = F_y(g), phi(g, sigma y) = F_y(sigma g) (y in Y_12); both sides of the step are linear in
  the first derivatives of F_y at g (= sigma g at the tie), which a quadratic F_y with symbolic
  coefficients takes to any values, so the polynomial identity covers every differentiable phi.
* The package follows the paper: ``section3``, ``section4_1`` (Definition 3, Propositions 4, 5,
  Theorem 6), ``theorem7``, ``section4_2`` (Propositions 8, 9), ``proposition10``, ``section4_3``
  (the non-order-sensitive witnesses and sampled builders), ``section4_3_1`` .. ``section4_3_3``,
  ``section5``; ``common`` holds the orderings, Definition 2 and the Luce model in t = exp(g).
* Sampled claims (the library's modified ListNet, Cao at k = n): Definition 3 decided exactly at
  12 seeded points each (interval enclosures, exact zero tests; undecided = unknown), so
  confirmed-on-samples, never proved; no claim is numeric (BFGS only picks the centres of
  Theorem 7's boxes, and a wrong centre can only make a face case fail).

References
----------
xia-liu-li-2009-top-k-consistency.txt
(the paper's plain text, not in the repository: SYMCAL_PAPERS names its folder)
F. Xia, T.-Y. Liu, H. Li, Top-k consistency of learning to rank methods, MSR-TR-2009-139 ([15]).
"""

from __future__ import annotations

from collections.abc import Callable

from symcal.claims.core import Claim

from . import proposition10 as P10
from . import section3 as S3
from . import section4_1 as S41
from . import section4_2 as S42
from . import section4_3 as S43
from . import section4_3_1 as S431
from . import section4_3_2 as S432
from . import section4_3_3 as S433
from . import section5 as S5
from . import theorem7 as T7
from .common import (
    before,
    changes_subgroup,
    listmle_gradient,
    luce_parts,
    perms,
    pos,
    position_scores,
    swap,
    t_symbols,
    twin_id,
)
from .proposition10 import C_POLY, P1, PROP10_WITNESS, X, Z, prop10_hessian
from .section4_3_1 import listmle_os_cases
from .section4_3_3 import cross_entropy_expr, listnet_difference_sides, listnet_os_cases

# names the tests and bench/xia.py use from this module
__all__ = ["CLAIMS", "TWINS", "TWIN_EXPECT", "EXTRA_TWINS", "C_POLY", "P1", "PROP10_WITNESS", "X", "Z",
           "before", "changes_subgroup", "cross_entropy_expr", "listmle_gradient", "listmle_os_cases",
           "listnet_difference_sides", "listnet_os_cases", "luce_parts", "perms", "pos", "position_scores",
           "prop10_hessian", "swap", "t_symbols"]

# ---------------------------------------------------------------------------------------
# the claims, in reading order
# ---------------------------------------------------------------------------------------

CLAIMS = [
    S3.eq5_top_n, S3.eq5_top_n_minus_1, S3.eq7_bayes_ranker,
    S41.proposition4, S41.proposition5, S41.theorem6_pair_set, S41.theorem6_pair_set_all_k,
    S41.theorem6_pair_set_all_k_corrected, S41.theorem6_bayes,
    *T7.theorem7_listmle, T7.theorem7_identity, T7.theorem7_regrouping, T7.theorem7_stationarity,
    S42.proposition8, S42.proposition8_converse, S42.proposition9, S42.proposition9_example,
    P10.proposition10, P10.proposition10_corrected, P10.proposition10_consistent_above_c,
    P10.proposition10_listmle_hypothesis, P10.proposition10_q_hessian, P10.proposition10_q_strictly_convex,
    P10.proposition10_q_coercive,
    S43.listmle_not_os, S43.cosine_not_os, S43.listnet_not_os,
    S431.listmle_topk_order_sensitive,
    S431.eq10_subgroup_marginal,
    S432.cosine_difference_identity, S432.cosine_modified_order_sensitive,
    S433.listnet_difference_identity, S433.listnet_modified_order_sensitive, S433.listnet_modified_os,
    S43.listnet_cao_not_os, S43.listnet_cao_permutation_level,
    S5.footnote5, S5.footnote5_corrected,
    S5.tables_boosted, S5.tables_best_at_1, S5.tables_best_td, S5.tables_bold, S5.tables_repeat,
]


# ---------------------------------------------------------------------------------------
# Negative twins (ARCHITECTURE.md, *Rules of trust*, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with the sections' own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says otherwise ("unknown": the twin of a numeric claim, which a
# numeric check cannot refute but must not confirm; none today).  The errata (Proposition 10 and footnote 5
# as printed) are their own twins.  `symcal selftest --mutants` decides every twin as the operator
# `twin`.
# ---------------------------------------------------------------------------------------


def _twin(claim: Claim, build: Callable[[str], Claim]) -> tuple[str, Callable[[], Claim]]:
    """claim id -> the builder of its twin, which gets the twin's id."""
    return claim.id, lambda: build(twin_id(claim.id))


def _not_os_twin(claim: Claim, name: str) -> tuple[str, Callable[[], Claim]]:
    return _twin(claim, lambda t: S43.not_os_claim(t, name, sign=-1, location="twin", quote="twin", what="twin"))


TWINS: dict[str, Callable[[], Claim]] = dict([
    _twin(S3.eq5_top_n, lambda t: S3.eq5_claim(t, depth=lambda n: n - 2, sizes=(3, 3))),
    _twin(S3.eq5_top_n_minus_1, lambda t: S3.eq5_claim(t, depth=lambda n: max(1, n - 2), sizes=(3, 3))),
    _twin(S3.eq7_bayes_ranker, lambda t: S3.bayes_claim(t, strict_argmax=True, sizes=(3, 3))),
    _twin(S41.proposition4, lambda t: S41.proposition4_claim(t, k_shift=-1, sizes=(3, 3))),
    _twin(S41.proposition5, lambda t: S41.proposition5_claim(t, flip=True, sizes=(3, 3))),
    _twin(S41.theorem6_pair_set, lambda t: S41.theorem6_pairs_claim(t, drop_last=True, sizes=(3, 3))),
    _twin(S41.theorem6_pair_set_all_k_corrected, lambda t: S41.theorem6_all_k_claim(
        t, printed=False, drop_last=True, sizes=(3, 4))),
    _twin(S41.theorem6_bayes, lambda t: S41.theorem6_bayes_claim(t, weaken=True, sizes=(3, 3))),
    # the twin claims the reverse order g_2 > g_1 of the same minimiser (refuted inside the box)
    *[_twin(c, lambda t, args=args: T7.theorem7_listmle_claim(t, *args, check_pair=(2, 1)))
      for c, args in zip(T7.theorem7_listmle, ((3, 1, 1), (4, 2, 2)), strict=True)],
    _twin(T7.theorem7_identity, lambda t: T7.theorem7_identity_claim(t, sign=-1, sizes=(3, 3))),
    # without Proposition 4 (a value per permutation) the sum does not regroup by subgroups
    _twin(T7.theorem7_regrouping, lambda t: T7.regrouping_claim(t, prop4=False, sizes=(3, 3))),
    # away from the tie g_1 = g_2 the derivatives do not pair up
    _twin(T7.theorem7_stationarity, lambda t: T7.stationarity_claim(t, tie=False, sizes=(3, 3))),
    _twin(S42.proposition8, lambda t: S42.proposition8_claim(t, down=-1, sizes=(3, 3))),
    # a wrong witness does not refute an existence (issue 23): the twin asks for what Proposition 8 rules out
    _twin(S42.proposition8_converse, lambda t: S42.proposition8_converse_claim(t, None, swapped=True)),
    _twin(S42.proposition9, lambda t: S42.proposition9_claim(t, step=-1, sizes=(3, 3))),
    _twin(S42.proposition9_example, lambda t: S42.proposition9_example_claim(t, drop_prop4=True)),
    _twin(P10.proposition10_corrected, lambda t: P10.prop10_range_claim(
        t, below=True, drop_range=True, pin=PROP10_WITNESS)),
    _twin(P10.proposition10_consistent_above_c, lambda t: P10.prop10_range_claim(
        t, below=False, flip=True, pin=PROP10_WITNESS)),
    _twin(P10.proposition10_listmle_hypothesis, lambda t: P10.prop10_hypothesis_claim(t, flip=True)),
    _twin(P10.proposition10_q_hessian, lambda t: P10.prop10_decomposition_claim(t, drop_c=True)),
    _twin(P10.proposition10_q_strictly_convex, lambda t: P10.prop10_convex_claim(t, drop_family=True)),
    _twin(P10.proposition10_q_coercive, lambda t: P10.prop10_coercive_claim(t, drop_family=True)),
    _not_os_twin(S43.listmle_not_os, "listmle"),
    _not_os_twin(S43.cosine_not_os, "cosine"),
    _not_os_twin(S43.listnet_not_os, "listnet"),
    _twin(S431.eq10_subgroup_marginal, lambda t: S431.subgroup_marginal_claim(t, truncate=True, sizes=(3, 3))),
    _twin(S431.listmle_topk_order_sensitive, lambda t: S431.listmle_os_claim(t, strict_all=True, sizes=(3, 3))),
    _twin(S432.cosine_difference_identity, lambda t: S432.cosine_identity_claim(t, factor=2)),
    _twin(S432.cosine_modified_order_sensitive, lambda t: S432.cosine_os_claim(t, modified=False, sizes=(3, 3))),
    _twin(S433.listnet_difference_identity, lambda t: S433.listnet_identity_claim(t, factor=2, sizes=(3, 3))),
    _twin(S433.listnet_modified_order_sensitive, lambda t: S433.listnet_os_claim(t, modified=False, sizes=(3, 3))),
    # sampled: a loss that is not order sensitive, or a depth the claim does not cover
    _twin(S433.listnet_modified_os, lambda t: S43.sensitivity_sampled_claim(
        t, "listnet", 3, 1, 1, location="twin", quote="twin", what="original ListNet")),
    _not_os_twin(S43.listnet_cao_not_os, "listnet_cao"),
    _twin(S43.listnet_cao_permutation_level, lambda t: S43.sensitivity_sampled_claim(
        t, "listnet_cao", 3, 1, 1, location="twin", quote="twin", what="Cao at depth 1")),
    # N@1 against P@2
    _twin(S5.footnote5_corrected, lambda t: S5.n_at_1_claim(t, corrected=True, p_depth=2, sizes=(2, 3))),
    # with OHSUMED (Table 1), where Top-1 ListMLE's N@1 0.529 is below ListMLE's 0.548
    _twin(S5.tables_boosted, lambda t: S5.boosted_claim(t, tables=(1, 2, 3))),
    # with N@3, where ListNet's 0.477 beats Top-10 ListMLE's 0.473 in Table 4
    _twin(S5.tables_best_at_1, lambda t: S5.best_at_1_claim(t, columns=("N@1", "P@1", "N/P@1", "N@3"))),
    _twin(S5.tables_best_td, lambda t: S5.best_td_claim(t, allowed=0)),
    _twin(S5.tables_bold, lambda t: S5.bold_claim(t, strict=True)),
    _twin(S5.tables_repeat, lambda t: S5.repeat_claim(t, row="Top-3 ListMLE")),
])

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {c.id: "unknown" for c in CLAIMS if c.kind == "numeric"}

# further twins of a claim (description -> (claim id, builder)); each must be refuted too
EXTRA_TWINS: dict[str, tuple[str, Callable[[], Claim]]] = {
    "listnet derivative pairing with the sign flipped": (S433.listnet_difference_identity.id, lambda: (
        S433.listnet_identity_claim(twin_id(S433.listnet_difference_identity.id + ".derivative"),
                                    flip_derivative=True, sizes=(3, 3)))),
}
