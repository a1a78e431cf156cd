"""Calauzènes, Usunier & Gallinari (2013), "Calibration and regret bounds for order-preserving
surrogate losses in learning to rank", Machine Learning 93(2-3).

Main claims
-----------
* Table 1 / Definition 2.1: DCG@k, NDCG@k, Prec@k, Rec@k, AUC and Spearman written as
  (u, phi)-GPPMs, checked exhaustively against their formulas (every label vector, every
  ranking, every k) for small n, and where the printed u and b are defined.
  **Erratum**: the AUC's b(y) is printed without its minus sign (Appendix B.1 has it).
  **Erratum**: NDCG@k's formula divides by max DCG while its u divides by max DCG@k; they
  agree only for k = n.
* Eq. (2) and its converse for strictly decreasing phi (with the twin: the converse fails for a
  phi with a tie); footnote 1's rearrangement inequality and its equality case (z3 per sigma,
  n <= 5); the swap identity (6) and the regret lower bound in the proof of Theorem 3.2.
* Section 3.1: the squared template losses are minimised exactly at s = U (pointwise) and
  s = U + c (pairwise), as polynomial identities in the distribution.
* Theorem 3.3's counterexample (n = 4, y = (1,1,0,0), y' = (0,0,1,1), probability 1/2 each):
  **Erratum**: the printed gaps +1/24 (ERR) and -1/12 (AP) are twice the true gaps +1/48 and
  -1/24 (the two labels' values were added, not averaged).  The theorem survives: the gaps
  are non-zero.  Lemma B.2's hypotheses (symmetry, strict monotonicity) hold for ERR and AP.
  **Erratum** (proof only): the proof of Lemma B.2's point 3 puts all three Dirac masses of its
  mixture Delta^beta at y^j (so no beta gives U_i > U_j), and writes "y_j = y_i' = 1 and y_i' = 0"
  for y_j = y_i' = 0 and y_j' = 1; the intended mixture beta delta_{y^j} + (1-beta)/2 (delta_y +
  delta_{y'}) and the intended labels are proved (z3).
  **Erratum** (proof only): the same proof's "y and y' do not impose any constraint on the relative ordering
  of any two items for which y_i + y_i' = y_j + y_j'" fails for ERR (and AP) at n = 4, on Theorem 3.3's own
  labels (the printed gaps are exactly these sums); symmetry gives it only for y' = tau_ij(y) (proved for
  every symmetric measure).  Point 3 is left without a proof; Theorem 3.3 survives without it: along
  t delta_y + (1-t) delta_{y'}, points 1-2 make U constant at some t in (0, 1), and for every such t not
  all 24 rankings have the same ERR (AP) (z3 in t).  Point 2's two steps (the mixture weight alpha_0 and
  the swap that beats every ranking with i above j) are proved.  Theorem 3.2's first step (a misordered
  pair and one ranking of arg sort(s) that keeps it misordered) is proved over every order type, n <= 4;
  Eq. (6) is also proved for every real phi and U as an identity in the two terms the exchange changes.
  Proof of Corollary A.2: its Cauchy-Schwarz step over P_X with three atoms (z3).
* Lemma 4.1 (a set of non-overlapping misordered pairs bounding the regret) and Lemma 5.1's
  bound with C_phi(p) for p = 2, 3 and 3/2, for every pair set Lemma 4.1 allows, exhaustively for
  small n.  **Erratum** (proof only): the first inequality of Lemma 5.1's proof raises the
  phi-differences to the power q where Hoelder needs p; as printed it fails for p = 3 at n = 2.
  **Erratum** (proof only): its second inequality sums up to (n+1)/2 (not an integer for even n:
  undefined at n = 2) with exponent q; with exponent p and upper limit floor(n/2) it is proved
  for every set of non-overlapping pairs (z3, n <= 5, p = 2, 3).
* Proof of Lemma 4.1: both exchanges never increase R (z3 per sigma, n <= 5).  **Erratum**
  (notation): the split of R(nu) - R(exchanged ranking) writes its second sum over sigma, the
  ranking before the exchanges (fails at n = 3); over the exchanged ranking it is proved.
* Proof of Theorem 4.2.  **Erratum**: "less than n/2 non-overlapping pairs" fails for even n
  (n = 2, one pair); at most floor(n/2), and the bound R-bar - R(s) < n/2 phi(1) eps survives
  (z3).  **Erratum**: the lower bound eps min_{j <= n} |phi(j) - phi(j+1)| needs phi(n+1),
  undefined; with j < n it is proved (z3, n <= 4).
* Section 5.1: C_phi(p) <= ||phi||_p, equal only when phi vanishes beyond rank floor(n/2)
  (p = 1, 2, 3, n <= 6).  Appendix A: R-bar >= phi(1) ||U||_oo (proof of Corollary A.2); footnote 3's
  range [min K, min(sup K, B)] of each U_i on ||U||_oo <= B (z3; needs K subset R_+).
  **Erratum** (notation): Eq. (14) sums v_k varphi_i(s) over i from a free k; the pairwise loss (4) is
  sum_{k=1}^n v_k varphi_k(s) (identity for every varphi, n <= 4), not the printed sum (fails at n = 2).
  **Erratum** (notation): Corollary A.1's K subset R^n makes K^n a subset of R^{n^2}; K is a set of
  reals, K subset R_+, as the paragraph before it says (fails at n = 2).
* Proofs of Theorems 5.2 and 5.4: for the pointwise (pairwise) squared loss the infimum over
  scores misordering every pair of C_s is the sum of the per-pair gaps, attained (z3 per C).
* Proof of Theorem 5.3.  **Erratum**: "since underline-L^u(Delta) = 0" holds only for a point
  mass (psi(x) = x^2, a two-point Delta refutes it); the repaired step E B_psi(u || g) - min =
  B_psi(U || g) is a polynomial identity for every differentiable psi (psi and its gradient as
  undefined functions).
* Eq. (16) for every pointwise loss v f(s) + (eta - v) g(s) with f non-increasing and g
  non-decreasing (Logistic, Exponential, Square Hinge, Differentiable Hinge): H^- is reached at
  s_i = s_j.
* Table 2 (Appendix B.4, B.5): the inequality behind each constant c -- pointwise squared
  error, logistic and exponential (strong convexity of the conjugate psi), Square Hinge and
  Differentiable Hinge (inner minimum, then H^- - H against |U_i - U_j|^2; z3 per linear piece),
  pairwise squared error, logistic (interval branch-and-bound after an exact reduction to one
  variable) and exponential (z3 with square roots as auxiliary variables).
  **Erratum**: the Square Hinge's printed c = sqrt(eta)/sqrt(2 eta) fails (H^- - H =
  t^2 (U_i - U_j)^2/(2 eta)); the proof's mu/8 bound gives c = 2 sqrt(eta)/t, the best is sqrt(2 eta)/t.
  **Erratum**: the Differentiable Hinge's bound c = 4 sqrt(eta/alpha) needs alpha <= 2, not just
  alpha in (0, eta/2) (counterexample eta = 8, alpha = 3); proved for alpha in (0, 2].
* Remark 2: the inner risk of the proposed pairwise loss is sum_i U_i sum_{j != i} phi(s_i - s_j);
  the usual pairwise loss sum 1[v_i > v_j] phi(s_i - s_j) with the hinge is not
  order-preserving on an explicit distribution (exact LP optimum by z3), where the proposed
  loss is.

Encoding notes
--------------
* Rankings are tuples of items in rank order (sigma[k-1] = sigma(k)); symcal.ranking.measures
  implements the measures with exact Fractions and random tie breaking.  Exhaustive checks
  take labels in {0..2}^n (binary for Prec/Rec/AUC/AP), utilities in {0,1,2}^n and every
  non-increasing phi with values in {0..3}, phi(1) > 0 (strictly decreasing where required).
* Exhaustive checks whose cases are labels and rankings state each case as a formula
  (``finite_check(formula=...)``), so that ``--certify`` has the kernel re-evaluate it: the case's
  inputs are the data (labels y_i; a ranking as its positions s_i = sigma^-1(i), or for ERR and AP
  as its permutation matrix P_i_r = [sigma(r) = i], which keeps their rank-indexed products
  polynomial; k, n; Delta's labels and probabilities; the paper's printed numbers) and each
  measure and its GPPM form b(y) + sum_k phi(k) u_sigma(k)(y) (summed over the items, k = s_i) are
  sympy expressions of them, indicators as Piecewise.  ERR's R_i = (2^{y_i} - 1)/2 is written
  y_i/2 (binary labels); Lemma B.2's tau_ij exchanges symbols (y_i with y_j, rows i and j of P);
  "not every ranking maximises" (Theorem 3.3) is: one of the 24 rankings has an expected value
  other than 1>2>3>4's, every ranking's matrix being data; the pair count of Theorem 4.2's proof
  re-checks that the data are pairwise distinct items of {1..n} and reads |C| <= floor(n/2) as
  2|C| <= n.
* The DCG discount 1/log(1+i) is irrational; the GPPM identities are linear in phi, so they are
  checked with phi(1..n) as sympy symbols (an identity for every discount).
* NDCG's normalisation, AUC's b and Spearman's b are undefined where ||y||_1 = 0 (NDCG, Rec,
  AP), ||y||_1 in {0, n} (AUC); Table 1 rows are checked on the labels where they are defined
  and the edge-case claim checks exactly where the printed forms divide by zero.
* Table 2 is checked through the inequality each proof uses: H^- - H (or the pairwise
  constrained-minus-unconstrained infimum) >= |U_i - U_j|^2 / c^2 on a bounded box stated in the
  scope.  The pairwise logistic bound is reduced exactly (b = a x, a = max, a <= B) to
  x log x - (1+x) log((1+x)/2) >= (1-x)^2/4 on [1/100, 1], proved by rigorous mpmath
  interval branch-and-bound (tight at x = 1 to second order; closed by derivative-sign faces).
  The pointwise logistic/exponential bounds are the strong convexity of psi used in the proof
  (Theorem 5.3); their gap form 2 lambda((a+b)/2) - lambda(a) - lambda(b) >= (a-b)^2 reduces to
  the same second-derivative bound, so it is not encoded twice.
* Square Hinge: s = t s', v = eta v' scale the loss by t^2 eta (a z3 claim), so t = eta = 1; the
  inner minimum x(1 - x) is a z3 claim (lower bound for every s, attained at s = x), and the gap
  bound is one z3 query per pair of linear pieces of the max terms (implies_cases): a single
  query with Max did not finish in 30 s.
* Differentiable Hinge: Lambda(eta x, s) = eta Lambda(x, s) at eta = 1 with alpha unchanged, so
  the printed range alpha in (0, eta/2) over all eta is every alpha > 0 at eta = 1.  The inner
  minimum L is piecewise (three regimes, z3 per piece: lower bound and attained).  The printed
  bound is refuted directly; the corrected one is proved through strong concavity: L'' <= -alpha/4
  on each piece, L continuous with slopes not jumping up where pieces meet (z3 per piece and
  join), then (16) (the claim calauzenes2013.eq16, for every loss of this form) gives
  H^- - H >= alpha/16 (U_i - U_j)^2.  The proof's
  "alpha/(16n)" is read as alpha/(16 eta), which Table 2's c = 4 sqrt(eta/alpha) requires.  A
  direct z3 query for the corrected bound did not finish in 120 s.
* Lemma 5.1 for p = r/s: both sides are raised to the power r, leaving integer powers of sums
  of radicals (here only sqrt 2 occurs), which sympy expands to a canonical form (zero only if
  exactly zero) and a rigorous interval enclosure signs; an undecided sign raises (error, never a
  verdict).  p = 3 and 3/2 run at n <= 3 within the budget (n = 4 takes about 5 s each).
* Proof steps over rankings take nu = id WLOG (relabel the items by their true rank): U_1 >= ...
  >= U_n >= 0, the true rank of an item is its label, and R-bar = R(id) by footnote 1.  They are
  z3 queries over real phi and U, one per sigma (or per set C of non-overlapping pairs), so a
  proof covers every real phi and U at the sizes in the scope.  Sums over a matching use
  difference variables (phi(k) - phi(n) = g_k + ... + g_{n-1}, g >= 0; U_i = U_j + e, s_j = s_i + d
  with e, d >= 0 for a misordered pair): the plain encoding of Appendix B.3's second step took
  110 s at n = 6 and Theorem 5.2's split 15 s at n = 4; with them n = 5 takes about 1 s.
* A printed statement that is undefined somewhere (phi(n+1), a sum up to 3/2) is evaluated as
  printed by an exact finite check that reports the undefined term as its counterexample; the
  corrected statement is a claim of its own.  Theorem 5.2's proof writes "L^u(Delta, s) =
  underline-L^u(Delta) >= ..." where "-" is meant; it is read with "-".
* Eq. (16) is checked with the values f(s_i), f(s_j), g(s_i), g(s_j) and the inner minimum as real
  variables: s_i <= s_j gives f(s_i) >= f(s_j) and g(s_i) <= g(s_j), and the inner minimum is
  below lambda(m, s) for every s.  The squared error is not of this form (its expected loss is not
  linear in v) and (16) does not hold for it; its H^- - H = (U_i - U_j)^2/2 is the n = 2 case of
  the Theorem 5.2 split claim.
* Lemma B.2, proof of point 3: U(Delta) = int u dDelta, so U of the mixture Delta^beta is the
  mixture of u(y^j), u(y), u(y') (six real variables).  "beta > 0 small enough so that U_i > U_j"
  is encoded as: beta_0 = S/(S + 2(u_j(y^j) - u_i(y^j))) lies in (0, 1) and every beta in
  (0, beta_0) gives U_i > U_j (S = u_i(y) + u_i(y') - u_j(y) - u_j(y') > 0, the assumption for a
  contradiction); as printed (all masses at y^j) no beta does.  Mutation survivors of the
  corrected claim: u >= 0 (Definition B.1's R^n_+) is not needed; the 2 in beta_0 and the bound
  beta > 0 are not tight (a smaller beta_0 also works, and so does a beta slightly below 0).  The
  labels step is over integer labels in {0, 1}.

References
----------
calauzenes-usunier-gallinari-2013-order-preserving-losses.txt
(the paper's plain text, not in the repository: SYMCAL_PAPERS names its folder)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy

from symcal.claims.core import Claim
from symcal.ranking.measures import rank_of

from . import appendix_a as AA
from . import audit as AU
from . import section2 as S2
from . import section3 as S3
from . import section4 as S4
from . import section5 as S5
from . import table2 as T2
from . import theorem3_3 as S33
from .common import perf, twin_id
from .section4 import lemma41_case, lemma41_cases
from .section5 import c_phi_power, holder_bound, printed_bregman_step_claim
from .table2 import diff_hinge_curvature_claim

# names the tests and bench/calauzenes.py use from this module
__all__ = ["CLAIMS", "TWINS", "TWIN_EXPECT", "c_phi_power", "diff_hinge_curvature_claim", "holder_bound",
           "lemma41_case", "lemma41_cases", "perf", "printed_bregman_step_claim", "rank_of"]

# ---------------------------------------------------------------------------------------
# the claims, in reading order (Table 2's rows are read with their proofs, Appendices B.4-B.5)
# ---------------------------------------------------------------------------------------

CLAIMS = [
    # Section 2.1, Table 1 (with Appendix B.1)
    S2.dcg, S2.ndcg, S2.ndcg_corrected, S2.prec, S2.rec, S2.auc_printed, S2.auc_corrected, S2.spearman_gppm,
    S2.edge_cases,
    # Section 3.1
    S3.eq2, S3.eq2_converse_strict, S3.eq2_converse_non_strict, S3.rearrangement, S3.rearrangement_equality,
    S3.pointwise_squared_risk, S3.pairwise_squared_risk, S3.remark2_form, S3.remark2_usual, S3.remark2_proposed,
    # Section 3.2: Theorem 3.2's proof, Theorem 3.3 with Appendix B.2
    S3.thm32_pair_step, S3.eq6, S3.eq6_two_terms, S3.thm32,
    S33.err_gap, S33.err_gap_corrected, S33.ap_gap, S33.ap_gap_corrected, S33.err_not_all_optimal,
    S33.ap_not_all_optimal, S33.err_family, S33.ap_family,
    S33.lemma_b2_err, S33.lemma_b2_ap, S33.point2_mixture, S33.point2_swap,
    S33.lemma_b2_labels, S33.lemma_b2_labels_corrected,
    S33.lemma_b2_mixture, S33.lemma_b2_mixture_corrected, S33.no_constraint, S33.no_constraint_corrected,
    # Section 4: Lemma 4.1 and its proof, the proof of Theorem 4.2
    S4.lemma41, S4.lemma41_exchanges_step, S4.lemma41_split, S4.lemma41_split_corrected,
    S4.pair_count, S4.pair_count_corrected, S4.regret_bound, S4.lower_bound_printed, S4.lower_bound_corrected,
    # Section 5.1, Table 2 (with Appendices B.4 and B.5), C_phi(p)
    T2.eq16, T2.pointwise_squared, T2.pointwise_logistic, T2.logistic_bregman_printed, T2.logistic_bregman_corrected,
    T2.pointwise_exponential, T2.exponential_bregman, T2.square_hinge_scaling,
    T2.square_hinge_minimum, T2.square_hinge_printed, T2.square_hinge_corrected, T2.square_hinge_best,
    T2.diff_hinge_minimum, T2.diff_hinge_scaling, T2.diff_hinge_printed, T2.diff_hinge_corrected,
    T2.pairwise_squared, T2.pairwise_logistic_reduction, T2.pairwise_logistic, T2.pairwise_exponential_form,
    T2.pairwise_exponential, S5.c_phi_norm,
    # Section 5.2: Lemma 5.1 with Appendix B.3, the proofs of Theorems 5.2 and 5.3
    S5.lemma51, S5.lemma51_p3, S5.lemma51_p3_2, S5.lemma51_first_step, S5.lemma51_first_step_corrected,
    S5.second_step, S5.second_step_corrected, S5.theorem52_split, S5.bregman_step, S5.bregman_step_corrected,
    S5.theorem54_split,
    # Appendix A
    AA.eq14_printed, AA.eq14_corrected, AA.k_dimension_printed, AA.k_dimension_corrected, AA.u_range,
    AA.cauchy_schwarz, S4.top_term,
    # the audit of the coverage map (issue 26): finite steps inside entries the map had called not checkable
    *AU.CLAIMS,
]


# ---------------------------------------------------------------------------------------
# Negative twins (ARCHITECTURE.md, *Rules of trust*, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with the sections' own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says "proved" (proved or confirmed on samples): the twin of a
# claim the paper says is false restores the missing condition.  Errata are their own twins.
# `symcal selftest --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------

ALL_ONES = [((1, 1, 1, 1), Fraction(1))]
PROPOSED_FAILS = [((0, 0, 1), Fraction(1, 3)), ((2, 1, 0), Fraction(2, 3))]  # hinge is not differentiable
TWINS: dict[str, Callable[[], Claim]] = {
    S2.dcg.id: lambda: S2.table1_dcg_claim(twin_id("calauzenes2013.dcg"), gain_offset=0),
    S2.ndcg_corrected.id: lambda: S2.table1_ndcg_claim(twin_id("calauzenes2013.ndcg"), u_norm="dcg", f_norm="dcgk"),
    S2.prec.id: lambda: S2.table1_binary_claim(twin_id("calauzenes2013.prec"), "prec", phi_scale=Fraction(2)),
    S2.rec.id: lambda: S2.table1_binary_claim(twin_id("calauzenes2013.rec"), "rec", phi_scale=Fraction(2)),
    S2.auc_corrected.id: lambda: S2.table1_binary_claim(twin_id("calauzenes2013.auc"), "auc", phi_scale=Fraction(2)),
    S2.spearman_gppm.id: lambda: S2.spearman_claim(twin_id("calauzenes2013.spearman"), b_sign=1),
    S2.edge_cases.id: lambda: S2.edge_claim(twin_id("calauzenes2013.edge"), widen=True),
    S3.eq2.id: lambda: S3.eq2_claim(twin_id("calauzenes2013.eq2"), overlap=True),
    S3.eq2_converse_strict.id: lambda: S3.eq2_claim(twin_id("calauzenes2013.eq2c"), converse=True, strict=False),
    S3.eq6.id: lambda: S3.eq6_claim(twin_id("calauzenes2013.eq6"), swap_sign=-1),
    S3.thm32.id: lambda: S3.thm32_claim(twin_id("calauzenes2013.thm32"), factor=Fraction(12)),
    S3.eq6_two_terms.id: lambda: S3.eq6_two_terms_claim(twin_id(S3.eq6_two_terms.id), swap_sign=-1),
    S3.thm32_pair_step.id: lambda: S3.pair_step_claim(twin_id(S3.thm32_pair_step.id), every=True),
    S33.err_family.id: lambda: S33.family_not_all_equal_claim(
        twin_id(S33.err_family.id), "err", dist=((1, 1, 1, 1), (1, 1, 1, 1))),
    S33.ap_family.id: lambda: S33.family_not_all_equal_claim(
        twin_id(S33.ap_family.id), "ap", dist=((1, 1, 1, 1), (1, 1, 1, 1))),
    S33.point2_mixture.id: lambda: S33.point2_mixture_claim(twin_id(S33.point2_mixture.id), small_strict=False),
    S33.point2_swap.id: lambda: S33.point2_swap_claim(twin_id(S33.point2_swap.id), monotone=False),
    S33.no_constraint_corrected.id: lambda: S33.no_constraint_symmetric_claim(
        twin_id(S33.no_constraint_corrected.id), symmetry=False),
    S33.err_gap_corrected.id: lambda: S33.thm33_claim(twin_id("calauzenes2013.err"), "err", Fraction(1, 96)),
    S33.ap_gap_corrected.id: lambda: S33.thm33_claim(twin_id("calauzenes2013.ap"), "ap", Fraction(-1, 48)),
    S33.err_not_all_optimal.id: lambda: S33.thm33_not_all_optimal_claim(
        twin_id("calauzenes2013.err_all"), "err", dist=ALL_ONES),
    S33.ap_not_all_optimal.id: lambda: S33.thm33_not_all_optimal_claim(
        twin_id("calauzenes2013.ap_all"), "ap", dist=ALL_ONES),
    S33.lemma_b2_err.id: lambda: S33.lemma_b2_claim(twin_id("calauzenes2013.b2err"), "err", strict=False),
    S33.lemma_b2_ap.id: lambda: S33.lemma_b2_claim(twin_id("calauzenes2013.b2ap"), "ap", strict=False),
    S33.lemma_b2_labels_corrected.id: lambda: S33.lemma_b2_labels_claim(twin_id("calauzenes2013.b2labels"),
                                                                        distinct=False),
    S33.lemma_b2_mixture_corrected.id: lambda: S33.lemma_b2_mixture_claim(twin_id("calauzenes2013.b2mixture"),
                                                                          small_strict=False),
    S4.lemma41.id: lambda: S4.lemma41_claim(twin_id("calauzenes2013.lemma41"), scale=Fraction(1, 2)),
    S5.lemma51.id: lambda: S5.lemma51_claim(twin_id("calauzenes2013.lemma51"), c_terms=0),
    S5.lemma51_p3.id: lambda: S5.lemma51_claim(twin_id("calauzenes2013.lemma51p3"), p=Fraction(3), c_terms=0),
    S5.lemma51_p3_2.id: lambda: S5.lemma51_claim(twin_id("calauzenes2013.lemma51p32"), p=Fraction(3, 2), c_terms=0),
    S5.lemma51_first_step_corrected.id: lambda: S5.lemma51_proof_claim(
        twin_id("calauzenes2013.lemma51proof"), printed=False, regret_scale=Fraction(11, 10)),
    T2.square_hinge_scaling.id: lambda: T2.square_hinge_scaling_claim(twin_id("calauzenes2013.sqhscale"), power=3),
    T2.square_hinge_minimum.id: lambda: T2.square_hinge_minimum_claim(
        twin_id("calauzenes2013.sqhmin"), extra=Fraction(1, 100)),
    T2.square_hinge_corrected.id: lambda: T2.square_hinge_claim(
        twin_id("calauzenes2013.sqhc"), Fraction(100, 51), statement="twin: c^2 just below the best constant 2"),
    T2.square_hinge_best.id: lambda: T2.square_hinge_claim(
        twin_id("calauzenes2013.sqhb"), Fraction(199, 100), statement="twin: c^2 = 1.99 < 2"),
    T2.pointwise_squared.id: lambda: T2.pointwise_squared_claim(twin_id("calauzenes2013.psq"), c2=1),
    T2.pointwise_logistic.id: lambda: T2.pointwise_logistic_claim(twin_id("calauzenes2013.plog"), mu=5),
    T2.logistic_bregman_corrected.id: lambda: T2.logistic_bregman_claim(
        twin_id("calauzenes2013.logbregman"), printed=False, extra=Fraction(1, 10)),
    T2.exponential_bregman.id: lambda: T2.exponential_bregman_claim(
        twin_id("calauzenes2013.expbregman"), extra=Fraction(1, 10)),
    T2.pointwise_exponential.id: lambda: T2.pointwise_exponential_claim(twin_id("calauzenes2013.pexp"), mu=5),
    T2.diff_hinge_scaling.id: lambda: T2.diff_hinge_scaling_claim(twin_id("calauzenes2013.dhscale"), power=2),
    T2.diff_hinge_minimum.id: lambda: T2.diff_hinge_minimum_claim(
        twin_id("calauzenes2013.dhmin"), extra=Fraction(1, 100)),
    T2.diff_hinge_corrected.id: lambda: T2.diff_hinge_curvature_claim(
        twin_id("calauzenes2013.dhc"), alpha_max=Fraction(5, 2)),
    T2.pairwise_squared.id: lambda: T2.pairwise_squared_claim(twin_id("calauzenes2013.qsq"), c2=Fraction(1, 2)),
    T2.pairwise_logistic_reduction.id: lambda: T2.pairwise_logistic_reduction_claim(
        twin_id("calauzenes2013.qlogr"), extra=Fraction(1, 10)),
    T2.pairwise_logistic.id: lambda: T2.pairwise_logistic_claim(
        twin_id("calauzenes2013.qlog"), const=sympy.Rational(26, 100)),
    T2.pairwise_exponential_form.id: lambda: T2.pairwise_exponential_form_claim(
        twin_id("calauzenes2013.qexpf"), extra=Fraction(1, 10)),
    T2.pairwise_exponential.id: lambda: T2.pairwise_exponential_claim(twin_id("calauzenes2013.qexp"), const=3),
    S3.remark2_form.id: lambda: S3.remark2_form_claim(
        twin_id("calauzenes2013.r2form"), swap=True, phi=lambda t: t**3 + t),
    S3.remark2_proposed.id: lambda: S3.remark2_claim(
        twin_id("calauzenes2013.r2prop"), "proposed", dist=PROPOSED_FAILS),
    S3.rearrangement.id: lambda: S3.rearrangement_claim(twin_id("calauzenes2013.rearr"), sorted_y=False),
    S3.rearrangement_equality.id: lambda: S3.rearrangement_equality_claim(
        twin_id("calauzenes2013.rearreq"), strict=False),
    S3.pointwise_squared_risk.id: lambda: S3.pointwise_squared_risk_claim(twin_id("calauzenes2013.sq31"), sign=-1),
    S3.pairwise_squared_risk.id: lambda: S3.pairwise_squared_risk_claim(twin_id("calauzenes2013.pq31"), sign=-1),
    S4.lemma41_exchanges_step.id: lambda: S4.lemma41_exchange_claim(twin_id("calauzenes2013.lemma41ex"), worst=False),
    S4.lemma41_split_corrected.id: lambda: S4.lemma41_split_claim(twin_id("calauzenes2013.lemma41split"), over="first"),
    S4.pair_count_corrected.id: lambda: S4.pair_count_claim(twin_id("calauzenes2013.pairs"), printed=False, odd=True),
    S4.regret_bound.id: lambda: S4.regret_bound_claim(twin_id("calauzenes2013.thm42ub"), strict=False),
    S4.lower_bound_corrected.id: lambda: S4.lower_bound_claim(twin_id("calauzenes2013.thm42lb"), every_gap=False),
    S4.top_term.id: lambda: S4.top_term_claim(twin_id("calauzenes2013.a2top"), nonnegative_u=False),
    AA.eq14_corrected.id: lambda: AA.eq14_claim(twin_id("calauzenes2013.eq14"), form="from2"),
    AA.k_dimension_corrected.id: lambda: AA.k_dimension_claim(twin_id("calauzenes2013.a1dim"), k_dim="2"),
    AA.u_range.id: lambda: AA.u_range_claim(twin_id("calauzenes2013.fn3"), nonnegative_k=False),
    # one atom keeps the twin fast (about 5 s with three): (a h)^2 <= 9/10 a^2 h^2 fails for a = h = 1
    AA.cauchy_schwarz.id: lambda: AA.cauchy_schwarz_claim(twin_id(AA.cauchy_schwarz.id), points=1,
                                                          factor=sympy.Rational(9, 10)),
    T2.eq16.id: lambda: T2.eq16_claim(twin_id("calauzenes2013.eq16"), misordered=False),
    S5.c_phi_norm.id: lambda: S5.c_phi_norm_claim(twin_id("calauzenes2013.cphi"), always_strict=True),
    S5.second_step_corrected.id: lambda: S5.matching_claim(twin_id("calauzenes2013.b3second"), dropped=1),
    S5.theorem52_split.id: lambda: S5.split_claim(twin_id("calauzenes2013.thm52"), constrained=False),
    S5.theorem54_split.id: lambda: S5.pairwise_split_claim(twin_id("calauzenes2013.thm54"), constrained=False),
    S5.bregman_step_corrected.id: lambda: S5.bregman_step_claim(
        twin_id("calauzenes2013.thm53"), psi=lambda a, b: a**4 + b**2, swap=True),
    # claims the paper says are false: the twin restores the missing condition and is proved
    S3.eq2_converse_non_strict.id: lambda: S3.eq2_claim(twin_id("calauzenes2013.eq2n"), converse=True, strict=True),
    S3.remark2_usual.id: lambda: S3.remark2_claim(
        twin_id("calauzenes2013.r2usual"), "usual", dist=[((0, 1, 0), Fraction(1))]),
}
TWINS.update(AU.TWINS)

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {
    S3.eq2_converse_non_strict.id: "proved",
    S3.remark2_usual.id: "proved",
    **AU.TWIN_EXPECT,
}
