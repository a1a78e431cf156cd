"""Uematsu & Lee (2013), "Statistical Optimality in Multipartite Ranking and Ordinal
Regression", Technical Report No. 873, Department of Statistics, The Ohio State University.

Main claims
-----------
* Section 2: Theorem 1 (f_0^* = g_+/g_- is optimal) on every finite instance space, by a
  two-point lemma; p_1/(1 - p_1) = (pi_+/pi_-) g_+/g_- (Bayes); E[Y|x] = 1 - 2{1 + p_1/(1 -
  p_1)}^{-1}; e^{-s} and log(1 + e^{-s}) meet Theorem 2's conditions, the hinge is not
  differentiable at s = 1; the quoted Bayes classifier sign[log{p_1/(1 - p_1)}] predicts the label with
  the smaller conditional error (z3).
* Definitions read for checkable steps: the normalisers and index ranges of the metrics (2)-(4) (the
  perfect ranking scores exactly 1, every n_k in {1, 2, 3}, K = 2..4), the linear cost table of
  Section 6.2 (every cell i - j above the diagonal), the partition A_1..A_9 of the proof of Theorem 3 and
  the cells that switching x and x' pairs (A_3 ~ A_7, A_6 ~ A_4, A_2 ~ A_8).  No new erratum.
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
* Identities (10) and (11) of the proof (K = 3..6), the risks written over the partition
  A_1..A_9 (pointwise, 9 cells), C(x,x')/C(x',x) = f_0^*(x)/f_0^*(x'), D symmetric, the
  symmetry of R_ji under the condition, the normalised restatement, its void case i = K and
  the additivity of the relative spacing; every scheme satisfying the condition (positive
  c_1i) is a Corollary 1 scheme (explicit w, s; K = 3..6).
* Corollary 1: the condition for c_ji = w_i w_j (s_i - s_j) as ONE identity (proved for all
  K), the identities of its proof, monotonicity, exhaustive optimality, E[Y|x] for linear
  costs; the linear and DCG schemes satisfy the condition for K = 2..12.  **Erratum** (proof): the
  proof applies Theorem 3, which needs c_1K = w_1 w_K (s_K - s_1) > 0, while the corollary allows
  w_1 = 0 (then Theorem 3's f_0^* is identically 0: K = 3, w = (0, 1, 1)); corrected: the pairwise cost
  difference is (sum w u)(sum s w v) - (sum s w u)(sum w v) for every w (identity, K = 3..6), so the
  corollary holds for all non-negative w.
* Theorem 4 (i), (ii): the extra-term identities and h_+/h_- as f_0^* (Bayes); on finite
  spaces the modified weights are exactly rank one, and for l(s) = e^{-s} the minimiser is
  (1/2) log f_0^* + const; without the extra term every minimiser of the exponential risk
  misorders a pair of f_0^* on a 3-point space, and one exists (z3, two polynomial implications in
  x = exp(f)).
* Section 4: the conditional risk regrouped by threshold (any l, K = 2..6); Eq. (6) --
  **erratum**: the first sum has l'(theta_j - t*) where the derivative gives
  l'(t* - theta_j); corrected form proved for every differentiable l; (7); the ORBoost
  <-> Corollary 1 mapping (s_j, w_j, implied c_ji, the displayed relation, c_ji >= 0, the
  condition); the proportional-odds likelihood, population equation, its K = 3 form and (8);
  both SVOR case tables and r(x) tables (z3 over the simplex), the median table, Case 4's
  interval of minimisers.  **Finding** (domain): both r(x) have a zero denominator on the
  simplex (p_2 = 0 for Shashua and Levin's, p_3 = 1 for the implicit constraints'), where the
  text gives r no value; corrected: r's ranges read cross-multiplied (r's limits +-oo there)
  make every table hold on the closed simplex, and at p = (1/2, 0, 1/2), where r = 0/0,
  every value of the table minimises.  Section 4.4
  (indicator risk 1 - p_i; no cost scheme makes f_0^* a monotone function of argmax p).
* Section 5.2: Table 1 (AUC, P@m, MRR -- **erratum**: D(i) = 1/i gives MRR only with one
  relevant item; p-norm push -- **erratum**: D(i) = (n - i)^p orders ranked lists unlike
  Rudin's push for p = 2, first at n = 6; it agrees at p = 1, the AUC row), the optimal
  ranking for (9), DCG <-> c_ji = 2^i - 2^j, the two forms of AP and E[AP] (exact, n <= 8
  and n <= 5), the AP swap formula and that sorting by P(Y = 2|x) maximises E[AP].  **Erratum**
  (hypothesis): "f must be a function such that C_f(1) >= ... >= C_f(n)" -- sorting is sufficient, but
  necessary only for a strictly decreasing D; P@1 at n = 3 has the unsorted maximiser C_f = (1/2, 0,
  1/2); corrected: with D(1) > ... > D(n) >= 0 every maximiser is sorted (z3, n = 2..4).
* Section 6: the normal-mixture f_0^*, ORBoost and proportional-odds f*, the SVOR step
  locations -1.02/0/1.02, c_13 = e^{2.06} = 7.846, e^{0.183} = 1.201, the SVOR thresholds,
  PAIRRANK2 <-> REG, ORBoost's K = 3 costs, the MovieLens proportions (**erratum**: 5039/97139
  is 5.19 %, printed 5.18 %), and Table 2 recomputed from the printed thresholds to the
  printed three decimals (interval enclosures decide every rounding); one threshold may be
  fixed (shift invariance), the c_13 contour function, Figure 2's parallel level sets, the
  printed arithmetic of Section 6.2, and Table 3's balanced-vs-unbalanced comparison
  (**erratum**: with "high ratings" = 4 and 5, 3 vs 5 for ORBoost is one more exception).

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
* Theorem 1 on finite spaces: R_0(f) = (1/2) sum_a g_+(a) g_-(a) + one term per pair {a, b}
  that depends only on how f orders a and b; the two-point lemma (z3 over positive g) shows
  f_0^*'s order is the cheapest of the three at every pair, which covers every size.
* Theorem 2's conditions for e^{-s}, log(1 + e^{-s}): sympy's derivatives written in
  t = e^{-s} > 0 (rational, so z3 decides l' < 0 < l''); the hinge's one-sided difference
  quotients at s = 1 (z3 with Max).
* Table 1's p-norm push row is compared with Rudin (2009)'s objective with the 0-1 loss
  (sum over negatives of (positives ranked below)^p), which the paper does not restate: as
  "(9) with this D orders every two ranked lists as the push does"; exhaustive over the
  pairs of lists with n <= 6 (p = 2) and n <= 8 (p = 1).
* Table 3: "pairs of high ratings" read as the pair of ratings 4 and 5 (the printed claim);
  the corrected claim gives the exact set of exceptions in the 30 printed cells.
* SVOR r(x): where the denominator d of r vanishes, the printed statements are undefined;
  the corrected claims read "r > a" as numerator > a d and "r < b" as numerator < b d, which
  is r itself where d > 0 and r's limit +-oo (the numerator's sign) where d = 0.
* Printed numbers are ``finite_check(formula=...)`` conditions over the printed decimals:
  "x rounds to the printed r (d decimals)" is r - 5 10^-(d+1) <= x < r + 5 10^-(d+1) (half
  up), decided by ``symcal.exact`` (rationals exactly, exp by enclosures that exclude the
  boundary; undecided is unknown, never a pass) and re-evaluated by the kernel (``--certify``,
  arb balls).  Table 2 writes exp(theta_a - theta_b) as "1 if theta_a = theta_b" (the same
  function), so that the unbalanced c_13 = 1 (theta_1 = theta_2 printed) is exact for the
  kernel too, whose balls around a decimal cannot see exp(0).  The SVOR step locations keep
  their own check: mpmath interval enclosures (``iv``) for the rounding, the zero test for
  f_0^* = 2 at x* -- an equality between numbers built from e^2 and sqrt(e^4 + 8), which no
  enclosure decides and the kernel's identity check (rational functions) cannot read, so
  that claim has no kernel certificate.
* Kernel certificates of the exhaustive checks: Table 1's AUC, P@m and MRR rows and the two
  forms of AP are formulas over a ranked list's labels y_i (G(y) = I(y = 2) an if-then-else,
  positions the literal indices, m a symbol); the Theorem 3 condition sweeps write the
  scheme's costs over the categories' values (k, or DCG's gain 2^k), with per-pair symbols
  so that j = 1 or i = K is data, not a simplification; the partition of the proof is a
  formula of the two signs; ORBoost's condition (Section 4.1) is stated for the kernel as a
  polynomial identity in the u_j for each K.  The p = 1 p-norm push row (8,533 pairs of
  lists) keeps its Python check: as formulas (~17 ms a pair at n = 8, both in symcal and in
  the kernel) it would take minutes.
* Theorem 4's misordering: R(f) = sum W_ab exp(-(f_a - f_b)) depends on differences only (f_1 = 0);
  in x = exp(f) > 0, times x_2 x_3, it is a polynomial.  z3 shows R(x) > R(w) wherever x orders no pair
  against f_0^* (w a rational point near the BFGS minimiser, only a bound) and that R(x) <= R(w) confines
  x to [1/4, 4]^2 (so a minimiser exists); with the extra term the same query is refuted (the twin).
* Zeros of closed expressions (the SVOR step locations) are decided by ``symcal.exact.zero_test``:
  0 only when formally zero, non-zero only by exact evaluation or an enclosure; undecided raises.
* ``symcal selftest --mutants`` on the claims added for the coverage map kills every twin; the
  symbolic survivors are equivalent statements: exchanging two symbols of a symmetric domain
  (the simplex's p_i, Theorem 1's points a and b, Figure 2's two points), Theorem 1's "<=" made
  strict (a strict order of f_0^* is strictly cheaper), and Figure 2's simplex hypothesis (the
  score depends on 2p_1 + p_2 alone on the whole plane).
* Layout: this package is split by the paper's sections -- ``section2`` .. ``section6``
  (``section4_3`` is the SVOR), ``appendix`` (the proofs), ``common`` (citation, symbols,
  finite instance spaces).  Each section builds its claims at its end and declares their
  twins beside them (its ``TWINS``); ``CLAIMS`` below lists every claim in reading order.

References
----------
uematsu-lee-2013-multipartite-ranking.txt
(the paper's plain text, not in the repository: SYMCAL_PAPERS names its folder)
Rudin, C. (2009), "The P-Norm Push", JMLR 10 (cited by the paper; its objective for Table 1's row)
"""

from __future__ import annotations

from collections.abc import Callable

from symcal.claims.core import Claim

from . import appendix, definitions, section2, section3, section4, section4_3, section5, section6
from .section5 import MISORDER_SPACE

__all__ = ["CLAIMS", "TWINS", "TWIN_EXPECT", "MISORDER_SPACE"]

CLAIMS: list[Claim] = [
    # Section 2: bipartite ranking
    section2.theorem1,
    section2.odds,
    section2.regression,
    section2.theorem2_losses,
    section2.hinge_not_differentiable,
    definitions.bayes_classifier,
    # Section 3: the empirical metrics, Theorem 3, the condition, Corollary 1
    definitions.eq2_normaliser,
    definitions.eq3_normaliser,
    definitions.eq4_normaliser,
    section3.pairs_costs,
    section3.ovo_costs,
    section3.cons_costs,
    section3.theorem3_i,
    section3.theorem3_i_corrected,
    section3.theorem3_ii,
    section3.theorem3_ii_corrected,
    section3.condition_needed,
    section3.f0_expected_costs,
    section3.condition_linear,
    section3.normalised,
    section3.void_at_i_eq_k,
    section3.additive_spacing,
    section3.is_corollary1_family,
    section3.corollary1,
    section3.expected_relevance,
    # Section 4: the ordinal-regression risk, Eq. (6), ORBoost (4.1), proportional odds (4.2)
    section4.conditional_risk_reindexed,
    section4.eq6,
    section4.eq6_corrected,
    section4.eq7,
    section4.orboost_costs_identity,
    section4.orboost_costs_nonnegative,
    section4.orboost_relation,
    section4.orboost_condition,
    section4.likelihood,
    section4.population_equation,
    section4.k3_form,
    section4.eq8,
    section4.f_star_increasing_in_q,
    section4.q_is_unit_cost_f0,
    # Section 4.3: SVOR
    *section4_3.svor1_cases.values(),
    section4_3.svor1_case4_minimisers,
    section4_3.svor1_r_defined,
    section4_3.svor1_r_extended,
    section4_3.svor1_r_equivalences,
    section4_3.svor1_r_table_cases12,
    section4_3.svor1_r_table_case3,
    section4_3.svor1_median,
    *section4_3.svor2_cases.values(),
    section4_3.svor2_r_defined,
    section4_3.svor2_r_extended,
    section4_3.svor2_r_equivalences,
    section4_3.svor2_r_table,
    section4_3.svor2_same_function,
    # Section 4.4: the indicator loss
    section4.indicator_risk,
    section4.no_cost_gives_argmax,
    # Section 5.1: convex risk minimisation, Theorem 4
    section5.without_extra_term_misorders,
    section5.rank_one,
    section5.exp_minimiser,
    # Section 5.2: non-smooth ranking measures
    section5.table1_auc,
    section5.table1_p_norm_push,
    section5.table1_p_norm_push_corrected,
    section5.table1_p_at_m,
    section5.table1_mrr,
    section5.table1_mrr_corrected,
    section5.optimal_by_expected_gain,
    section5.necessity,
    section5.necessity_corrected,
    section5.dcg_f0,
    section5.dcg_costs_identity,
    section5.condition_dcg,
    section5.ap_identity,
    section5.ap_expectation,
    section5.ap_swap,
    section5.ap_sorted_optimal,
    # Section 6.1: the simulation
    section6.threshold_shift,
    section6.normal_mixture_f0,
    section6.orboost_f_star,
    section6.propodds_f_star,
    section6.svor_steps,
    section6.c13_orboost_6_1,
    section6.c13_contours,
    section6.figure2_parallel_contours,
    # Section 6.2: MovieLens
    section6.pairrank2_regression,
    section6.orboost_k3_costs,
    section6.c13_orboost_6_2,
    section6.svor_thresholds,
    section6.proportions,
    section6.proportions_corrected,
    section6.unbalanced_sample,
    definitions.linear_table,
    section6.table2_balanced,
    section6.table2_unbalanced,
    section6.printed_arithmetic,
    section6.table3,
    section6.table3_corrected,
    # Appendix: the proofs of Theorem 3, Corollary 1 and Theorem 4
    definitions.partition_cells,
    appendix.eq10,
    appendix.partition_risks,
    definitions.switch_cells,
    appendix.c_ratio,
    appendix.d_symmetric,
    appendix.strict,
    appendix.strict_corrected,
    appendix.eq11,
    appendix.rji_symmetric,
    appendix.corollary1_all_k,
    appendix.corollary1_f0_forms,
    appendix.corollary1_monotone,
    appendix.corollary1_via_theorem3,
    appendix.corollary1_via_theorem3_corrected,
    appendix.theorem4_i,
    appendix.theorem4_modified_ratio,
    appendix.theorem4_ii,
]

# ---------------------------------------------------------------------------------------
# Negative twins (ARCHITECTURE.md, *Rules of trust*, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with the section's own builders and declared at the end of each section, beside its
# claims.  A twin must come back refuted with a re-checked witness, unless TWIN_EXPECT says
# otherwise: "proved" (proved or confirmed on samples) for the paper's own "false" statement --
# the twin adds the condition; "unknown" for the twin of the numeric claim (a numeric check never
# refutes; it must not confirm).  Errata are their own twins.  `symcal selftest --mutants`
# decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------

_SECTIONS = (section2, section3, section4, section4_3, section5, section6, appendix, definitions)

TWINS: dict[str, Callable[[], Claim]] = {cid: t for s in _SECTIONS for cid, t in s.TWINS.items()}

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {cid: e for s in _SECTIONS for cid, e in getattr(s, "TWIN_EXPECT", {}).items()}
