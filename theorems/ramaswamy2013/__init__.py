"""Ramaswamy, Agarwal & Tewari (2013), "Convex Calibrated Surrogates for Low-Rank Loss Matrices
with Applications to Subset Ranking Losses", NIPS.

Main claims
-----------
* Theorem 3: ``p^T l_t = (u^p)^T beta_t + c`` (symbolic), ``p^T psi*(u) = |u - u^p|^2 + const``
  (so ``u^p`` is the unique minimiser), and calibration of ``(psi*, pred*)`` on seeded ``p``
  for P@2, ERU, MAP, PD and an arbitrary matrix (exact argmin over T, exact perturbation radius).
* Section 4: the two printed forms of P@q agree; the decomposition ``alpha_y = y``; the
  certified affine dimension is at most (and equals) ``r``; top-q selection attains
  ``pred*_P@q``; WTA = P@1.
* Section 5: the ERU decomposition and rank ``r``; the sorting pred map.  **Erratum**: the paper
  lets ``w`` range over R, but sorting in decreasing order is right only for ``w > 1``
  (``w < 1`` makes the discounts increase; ``w = 1`` divides by 0).
* Section 6: **erratum (domain)**: l_MAP and psi*_MAP are 0/0 at y = 0, which Y = {0,1}^r includes;
  corrected: the decomposition holds on y != 0 and extends to y = 0 exactly with l_MAP(0, .) := 1.
  Both rewritten MAP forms, the decomposition, the bound ``r(r+1)/2`` (certified:
  the affine dimension and the rank are exactly ``r(r+1)/2 - 1``), the QAP form of
  ``pred*_MAP``, Eq. (2); Theorem 4 and Lemma 8 exhaustively over ``S_r`` (r = 3, 4) on seeded
  ``p`` in ``P_reinforce``, the necessity of ``P_reinforce`` (a refuting ``p`` outside it);
  Corollary 5.  **Erratum (proof step)**: Lemma 8's displayed inequality replacing
  ``sum_{j < c}`` by the sum over every ``j not in {c, c+1}`` without positive parts is false
  (even for an optimal sigma^0); with ``(.)_+`` it holds and the lemma survives.
* Section 7: Eq. (1)'s decomposition, ``pred*_PD`` = exact MWFAS.  **Erratum**: "l_PD has rank
  at most r(r-1)/2" is false; the rank (and Theorem 3's ``d``) is ``r(r-1)/2 + 1`` over unit
  DAGs (corrected claim certified for r = 2..4; r = 5 in bench/rank.py); an
  ``r(r-1)/2``-dimensional surrogate still exists because the extra coordinate has a constant
  beta.  Theorem 6 for three score functions; psi_DMJ (lambda = z^2, nu = 1/2) as the
  special case ``f_i = sum_j (y_ij - y_ji)`` (exact identity up to a label-only term);
  Theorem 7 with Algorithm 1 and perturbed ``u^p``; ``P_DAG ⊇ P_f`` (z3, r = 3..6) and its
  strictness.
* Noise-set inclusions (``noise_inclusions``), each decided by symcal's noise-condition map
  (:mod:`symcal.explore.noise_map`: z3 over every E[Y_ij] >= 0, r = 3..5): Section 1's "generalizing
  the ... conditions of Duchi et al." (low noise ⊆ P_f for Duchi's f), Section 7.1's "exactly the set
  P_f" (both inclusions with Duchi et al.'s Theorem 13 set), Section 7's "more general ... than those
  associated with the score-based surrogates" (P_DAG ⊄ P_f for Duchi's and the out-weight f, each
  separated by an exact distribution at r = 3).
* Surrogate dimensions (``surrogate_dimensions``), decided by the certified bracket on the convex
  calibration dimension (:func:`symcal.calibration.dimension.cc_dimension`): a convex calibrated
  surrogate of the stated dimension exists for P@2 and ERU (r), MAP (r(r+1)/2) and PD (r(r-1)/2, the
  Section 7 remark, now proved); **errata** (hypothesis): the quoted "there cannot exist any
  r-dimensional convex, calibrated surrogates" fails for MAP at r = 2 and for PD at r = 2 and r = 3
  (CCdim(PD) = 3 = r at r = 3); corrected for MAP at r = 3..5 and PD at r = 4.  Beyond the paper
  (exploration, symcal's own lower end): CCdim is exactly r - 1 (P@2, ERU), r(r+1)/2 - 2 (MAP) and
  r(r-1)/2 (PD).
* Appendix (the proofs): the minimiser u^p of Theorems 4, 6, 7 as Theorem 3's least-squares identity
  for the surrogate's own alpha_y (sympy, symbolic p on every label); Lemma 8's first step (every
  sigma in Pi(p) has the same p^T l_sigma: z3 over every symmetric u satisfying P_reinforce, r = 3, 4);
  Theorem 6's pairwise form of Pi*(p) (a sigma-independent offset; sympy, r = 2..5).  **Erratum (proof
  step)**: Lemma 8's "the number of adjacent pairs that disagree ... is one less" is false (it can stay
  or grow: r = 3, scores (0, 0, 1) along sigma^0); the number of all disagreeing pairs drops by exactly
  one, is at most r(r-1)/2 and vanishes exactly on Pi(p), which bounds M (exhaustive, r = 2..5).
  **Erratum (proof step)**: the proof of Theorem 7 takes the unconstrained infimum over u in R^r (copied
  from Theorem 6's psi_f); psi*_PD's argument has r(r-1) coordinates (they differ from r = 3 on).
* The finite steps inside the continuity, openness and limit arguments (``radii``), each "there is a
  radius" with its explicit value, z3 over symbolic variables: Theorem 3's regret form and the displayed
  chain of step 3, and delta = eps / max_t |beta_1 - beta_t|_1 (the radius of the sampled check) puts the
  regret at 0; the proofs of Theorems 4 and 6: eps = half the smallest positive score gap keeps the sorted
  order (Euclidean norm); Theorem 7, step 3: |u_m - u^p|_inf <= eps/8 gives both displayed margins, and
  Algorithm 1's ascending deletions then never reach an edge of the DAG of u^p (r = 3, 4, every split of
  the pairs).  Only the topological wrapping (a strictly convex function with a unique minimiser is larger
  off a ball, the Theorem 3 step 4 identity |u - u^p|^2 + const) is left to the reader.
* Calibration decided over the whole simplex, or the paper's noise set, by the engine
  :mod:`symcal.calibration` (claims of kind ``calibration``; the seeded checks above stay as extra
  sampled checks): Theorem 3 for P@2, ERU and MAP at r = 3, 4, PD at r = 3 and the 4 x 3 matrix;
  Theorem 4, Corollary 5 and Lemma 8 over ``P_reinforce`` at r = 3, 4; Theorem 6 over ``P_f`` for two
  score functions (r = 3 on all unit DAGs, r = 4 on total orders); Theorem 7 over ``P_DAG`` at r = 3
  with Algorithm 1's exact regions (and, beyond the paper, over the whole simplex at r = 3).

Encoding notes
--------------
* Permutations are position vectors (``sigma[i-1] = sigma(i)``, the paper's convention); loss
  matrices, decompositions and rank certificates come from ``symcal.ranking.loss_matrix`` and
  ``symcal.ranking.subset_losses``: ranks are certified by an exact non-singular minor
  (lower bound) and an exactly checked decomposition (upper bound).  "Rank" is the rank of L;
  Theorem 3's ``d`` is the affine dimension ``min{d : L = A B^T + c 1 1^T}``; the Section 4-6
  surrogate dimensions bound the latter, the Section 7 remark the former.
* MAP is 0/0 at ``y = 0`` (an **erratum of domain**, ``ramaswamy2013.map.zero_label``); the paper's
  decomposition (``y_i y_j / |y|``, ``c = 1``) and ``u^p`` hold on all of ``{0,1}^r`` exactly when
  ``l_MAP(0, sigma) = 1`` (the ``empty="one"`` convention, used throughout, proved to be the one
  that keeps the decomposition by ``ramaswamy2013.map.zero_label.corrected``); the rewritten forms
  are checked for ``y != 0``.
* ERU needs rational discounts: ``w`` with ``1/(w - 1)`` an integer (2, 3/2, 0, 1/2, ...).
* Calibration (Definition 1) is checked through the exact facts its proofs rest on: the
  unique minimiser ``u^p`` and a neighbourhood of it in which the pred map returns an optimal
  prediction; the radius is exact (Theorem 3: regret <= |u - u^p|_inf max |beta_s - beta_t|_1;
  Theorems 4, 6: half the smallest positive score gap; Theorem 7: a quarter of the smallest
  positive difference u_ij - u_ji).  Seeded distributions and perturbations; exact arithmetic.
* Theorem 6's ``psi_DMJ`` and ``psi_f`` differ by a factor 2 and a term depending only on the
  label: ``psi_DMJ = psi_f / 2 - sum_i f_i(y)^2 / 2`` -- the same minimisers, so "special case"
  holds up to this (calibration-preserving) change.
* Algorithm 1 keeps only edges of positive weight (weight-0 edges would be deleted first).
* The package follows the paper: ``section3`` .. ``section7_2`` and ``appendix`` (the proofs), with
  ``common`` for the citation helper, seeded distributions and the decomposition / rank builders;
  ``noise_inclusions`` and ``surrogate_dimensions`` gather the claims decided by the noise-condition
  map and by the convex-calibration-dimension bracket (their module docstrings say how).
* CCdim claims: "a d-dimensional convex calibrated surrogate exists" iff CCdim <= d (pad a smaller
  one with |v|^2).  Proved by the bracket's upper end (rank of the double differences D, certified;
  Theorem 3 in its affine form, a trusted reduction; ``--certify`` has the kernel recompute rank D),
  refuted by its lower end (the feasible subspace dimension at an exact relative-interior p,
  re-checked in Fractions; the theorem is trusted); a bound strictly inside the bracket is unknown.
* Lemma 8's count of misordered pairs depends on sigma^0 and u^p only through the sequence of
  diagonal scores along sigma^0; {0..r-1}^r realises every order type of r scores (ties included),
  so enumerating it is exhaustive (a proof for each r = 2..5).  Lemma 8's first step is decided for
  free symmetric u (not only u^p): a stronger statement, one z3 query per r.
* Whole-simplex calibration (``symcal.calibration``): labels = the rows of the loss matrix, ``p_a``
  = the probability of its a-th label; noise sets are relations in ``p1..pn`` built from the same
  exact linear forms the paper uses: ``u^p_ij = sum_y p_y alpha_y,ij`` (the MAP decomposition) for
  ``P_reinforce`` (``Implies`` and ``Max``, i.e. ``(.)_+``), ``E[Y_ij]`` and ``E[f(Y)]`` for ``P_f``,
  and "no directed cycle of E^p" for ``P_DAG``.  Every surrogate is quadratic with quadratic part
  ``|u|^2``, so the engine's reduction (A) applies: ``u*(p) = sum_y p_y alpha_y`` and the claim is
  proved iff no ``p`` in the set puts ``u*(p)`` in the closed cell of a suboptimal prediction.
  Links: ``pred*`` = ``{"linear": beta, "offset": c}``; ``pred-bar_MAP`` (sort the diagonal) = the
  linear link ``argmin_sigma sum_i sigma(i) u_ii`` (rearrangement inequality: the same argmin sets,
  ties included); the score sorts of Corollary 5 and Theorem 6 = ``"sort-desc"``; Algorithm 1 at r = 3
  = one closed polyhedral region per order (i, j, k): ``d_ij >= 0, d_jk >= 0, d_ki <= d_ij, d_ki <=
  d_jk`` with ``d_ab = u_ab - u_ba`` (acyclic graph, or a 3-cycle whose lightest edge k -> i is
  deleted), checked equal to Algorithm 1's outputs (every tie) on a grid realising every order type
  (``ramaswamy2013.theorem7.algorithm1_regions``).  Lemma 8 is decided as the calibration of
  ``sum_i (u_i - y_i y_i / |y|)^2`` with the sorting link over ``P_reinforce``: its minimiser is the
  diagonal ``(u^p_ii)``, and reduction (A)'s query for a pair is literally "sigma' in Pi(p) and sigma'
  not in Pi*(p)".
* Kernel certificates of the exhaustive checks (``symcal check --certify``): every rank, affine-dimension
  and decomposition claim states its exact loss matrix (and the paper's alpha, beta, c) for the kernel's
  ``matrix`` kind, which recomputes the rank / affine dimension, or checks every entry, with its own
  elimination.  The identities between printed forms (P@q's two forms, WTA = P@1, MAP's two rewritten
  forms, the corrected MAP decomposition at y = 0) are stated per case ``(y, sigma)`` as formulas in the
  symbols ``y_i`` and ``s_i = sigma(i)``, bound to the case's label and permutation: indicators such as
  ``1(sigma(i) <= q)`` are Piecewise terms in ``s_i``, and ``y_{sigma^-1(j)}`` is the ``y`` of the document
  read off at position ``j``, with the conditions ``s_{sigma^-1(j)} = j`` among the case's conditions so the
  kernel checks that reading.  Lemma 8's count of disagreeing pairs is stated per score sequence over its
  symbols ``x_c`` (each "if" branch the sequence takes is stated with its own condition).  Not certified:
  Algorithm 1's regions (``ramaswamy2013.theorem7.algorithm1_regions`` compares them with a simulation of
  Algorithm 1, whose outputs cannot be written as a formula of ``d`` without writing the regions
  themselves), and the seeded (sampled) checks.
* The NP-hard maps ``pred*_MAP`` (a QAP) and ``pred*_PD`` (an MWFAS) need no special treatment at
  these sizes: they are Theorem 3's linear link, an exact argmin over the r! permutations.
* Not decided over the whole set, and why: Theorem 3 and Theorem 6 for PD at r = 4 over all 543 unit
  DAGs (about 21-26 s per decision, most of it building the z3 terms, over the ~15 s budget; Theorem 6
  at r = 4 is decided on the 24 total orders instead); Theorem 7 at r = 4 stays sampled
  (``ramaswamy2013.theorem7``): Algorithm 1's output regions are no longer convex there (they depend on
  the order of the edge weights across several cycles), so they are not one closed polyhedron per
  order.  The P@q twin breaks the ties of its repeated beta rows by 1/100 sigma(i): the engine finds
  no interior point of a cell whose linear-link row is repeated, so it could not exhibit a refuting
  sequence for the plain reversed link (unknown, not refuted).

References
----------
ramaswamy-agarwal-tewari-2013-low-rank-loss-matrices.txt
(the paper's plain text, not in the repository: SYMCAL_PAPERS names its folder)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy

from symcal.calibration import surrogates as calibration_surrogates
from symcal.claims.core import Claim
from symcal.ranking.noise_sets import in_p_reinforce

from . import appendix as A
from . import audit as AU
from . import noise_inclusions as NI
from . import radii as RD
from . import section3 as S3
from . import section4 as S4
from . import section5 as S5
from . import section6 as S6
from . import section7 as S7
from . import section7_1 as S71
from . import section7_2 as S72
from . import surrogate_dimensions as SD
from .common import _named_loss, decomposition_claim, r_sizes, twin_id
from .section6 import diagonal_sort_link, map_noise
from .section7_1 import THEOREM6_ARGS

# names the tests use from this module
__all__ = ["CLAIMS", "TWINS", "TWIN_EXPECT", "THEOREM6_ARGS", "_named_loss", "calibration_surrogates",
           "diagonal_sort_link", "in_p_reinforce", "map_noise"]

# ---------------------------------------------------------------------------------------
# the claims, in reading order (the appendix proofs last, as printed)
# ---------------------------------------------------------------------------------------

CLAIMS = [
    NI.low_noise_in_p_f_dmj,
    S3.theorem3_identity, S3.theorem3_surrogate, S3.theorem3_calibration, *S3.theorem3_whole, *RD.SECTION3_CLAIMS,
    S4.precision_two_forms, S4.precision_decomposition, S4.precision_rank, S4.precision_top_q, S4.precision_top_q_all_u,
    S4.wta_is_p1, SD.precision_dim, SD.precision_exact,
    S5.eru_decomposition, S5.eru_rank, S5.eru_sorting, S5.eru_sorting_corrected, S5.eru_sorting_all_u,
    SD.eru_dim, SD.eru_exact,
    S6.map_form_positions, S6.map_form_pairs, S6.map_decomposition, S6.map_zero_label, S6.map_zero_label_corrected,
    S6.map_rank_bound, S6.map_rank_exact, S6.map_qap,
    SD.map_none, SD.map_none_corrected, SD.map_dim, SD.map_exact,
    S6.theorem4_without_p_reinforce, S6.theorem4, *S6.theorem4_whole,
    S6.corollary5_u_tilde, S6.corollary5, *S6.corollary5_whole,
    S7.pd_decomposition, S7.pd_rank_bound, S7.pd_rank_corrected, S7.pd_affine_corrected, S7.pd_total_orders,
    S7.pd_half_surrogate, S7.pd_mwfas,
    SD.pd_none, SD.pd_none_corrected, SD.pd_dim, SD.pd_exact,
    NI.p_dag_in_p_f_dmj, NI.p_dag_in_p_f_out,
    S71.theorem6, *S71.theorem6_whole, S71.theorem6_dmj, S71.theorem6_dmj_noise,
    NI.p_f_dmj_in_theorem13, NI.theorem13_in_p_f_dmj,
    S72.theorem7_algorithm1_regions, S72.theorem7, S72.theorem7_whole, S72.theorem7_whole_simplex,
    S72.theorem7_p_dag_contains_p_f, S72.theorem7_inclusion_strict,
    A.theorem4_eq2, A.theorem4_minimiser, *RD.APPENDIX_THEOREM4_CLAIMS,
    A.lemma8, *A.lemma8_whole, A.lemma8_equal_risk, A.lemma8_step, A.lemma8_step_corrected,
    A.lemma8_adjacent_count, A.lemma8_adjacent_count_corrected,
    A.theorem6_minimiser, A.theorem6_pairwise, *RD.APPENDIX_THEOREM6_CLAIMS, A.theorem7_minimiser,
    A.theorem7_inf_space, A.theorem7_inf_space_corrected, *RD.APPENDIX_THEOREM7_CLAIMS,
    # the audit of the coverage map (issue 26): proof steps and counts the map had left unbacked
    *AU.CLAIMS,
]


# ---------------------------------------------------------------------------------------
# Negative twins (ARCHITECTURE.md, *Rules of trust*, rule 4; theorems/README.md): claim id -> a claim one edit away,
# built with the sections' own builders.  A twin must come back refuted with a re-checked
# witness, unless TWIN_EXPECT says "proved" (proved or confirmed on samples): the twin of a
# claim the paper implies is false adds the missing hypothesis.  Errata are their own twins.
# `symcal selftest --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------


def _twin(claim: Claim, build: Callable[[str], Claim]) -> tuple[str, Callable[[], Claim]]:
    """claim id -> the builder of its twin, which gets the twin's id."""
    return claim.id, lambda: build(twin_id(claim.id))


F = Fraction
TWINS: dict[str, Callable[[], Claim]] = dict([
    _twin(S3.theorem3_identity, lambda t: S3.theorem3_identity_claim(t, extra=S3._P[0] / 7)),
    _twin(S3.theorem3_surrogate, lambda t: S3.theorem3_surrogate_claim(t, scale=2)),
    _twin(S3.theorem3_calibration, lambda t: S3.theorem3_calibration_claim(t, radius_factor=F(200))),
    # a reversed link (argmax) must be refuted by an exactly re-checked counterexample distribution
    *[_twin(c, lambda t, key=key, r=r: S3.theorem3_whole_claim(t, key, r, reversed_link=True))
      for c, (key, r) in zip(S3.theorem3_whole, S3.THEOREM3_WHOLE_CASES, strict=True)],
    _twin(S4.precision_two_forms, lambda t: S4.precision_forms_claim(t, q_shift=1).replace(sizes=r_sizes(2, 3))),
    _twin(S4.precision_decomposition, lambda t: decomposition_claim(
        t, "precision", {"q": 2}, r_sizes(3, 3), "Section 4", "q", c_shift=F(1, 7))),
    _twin(S4.precision_rank, lambda t: S4.precision_rank_claim(t, offset=-1).replace(sizes=r_sizes(3, 3))),
    _twin(S4.precision_top_q, lambda t: S4.top_q_claim(t, bottom=True).replace(sizes=r_sizes(2, 3))),
    _twin(S4.precision_top_q_all_u, lambda t: S4.top_q_all_u_claim(t, first=1)),
    _twin(S4.wta_is_p1, lambda t: S4.wta_claim(t, q=2).replace(sizes=r_sizes(2, 3))),
    _twin(S5.eru_decomposition, lambda t: decomposition_claim(
        t, "eru", {"s": 2, "v": 1, "w": 2}, r_sizes(3, 3), "Section 5", "q", c_shift=F(-1, 3))),
    _twin(S5.eru_rank, lambda t: S5.eru_rank_claim(t, offset=1).replace(sizes=r_sizes(3, 3))),
    _twin(S5.eru_sorting_corrected, lambda t: S5.eru_sorting_claim(
        t, (F(2), F(1, 2)), reverse_below_1=False, statement="twin: no reversal")),
    _twin(S5.eru_sorting_all_u, lambda t: S5.eru_rearrangement_claim(t, opposite=True)),
    _twin(S6.map_form_positions, lambda t: S6.map_forms_claim(t, form=1, shift=F(1, 100)).replace(sizes=r_sizes(2, 3))),
    _twin(S6.map_form_pairs, lambda t: S6.map_forms_claim(t, form=2, shift=F(-1, 100)).replace(sizes=r_sizes(2, 3))),
    _twin(S6.map_decomposition, lambda t: decomposition_claim(
        t, "map", {"empty": "zero"}, r_sizes(3, 3), "Section 6", "q")),
    # l_MAP(0, sigma) := 0 (the other reading of 0/0) breaks the decomposition at y = 0
    _twin(S6.map_zero_label_corrected, lambda t: S6.map_zero_label_claim(t, corrected=True, value=F(0))),
    _twin(S6.map_rank_bound, lambda t: S6.map_rank_bound_claim(t, offset=-2).replace(sizes=r_sizes(3, 3))),
    _twin(S6.map_rank_exact, lambda t: S6.map_rank_bound_claim(t, offset=0, exact=True).replace(sizes=r_sizes(3, 3))),
    _twin(S6.map_qap, lambda t: S6.map_qap_claim(t, diagonal_only=True).replace(sizes=r_sizes(3, 3))),
    _twin(S6.theorem4, lambda t: S6.theorem4_claim(t, radius_factor=F(400))),
    # a noise set the theorem excludes, or a wrong link, must be refuted by an exactly re-checked distribution
    *[_twin(c, lambda t, r=r: S6.theorem4_whole_claim(t, r, outside=True)) for c, r in zip(S6.theorem4_whole, (3, 4),
                                                                                            strict=True)],
    _twin(S6.corollary5_u_tilde, lambda t: S6.corollary5_identity_claim(t, extra=sympy.Rational(1, 9))),
    _twin(S6.corollary5, lambda t: S6.theorem4_claim(t, tilde=True, radius_factor=F(400))),
    *[_twin(c, lambda t, r=r: S6.corollary5_whole_claim(t, r, ascending=True))
      for c, r in zip(S6.corollary5_whole, (3, 4), strict=True)],
    _twin(S7.pd_decomposition, lambda t: decomposition_claim(
        t, "pd", {}, r_sizes(2, 3), "Section 7", "q", c_shift=F(1, 2))),
    _twin(S7.pd_rank_corrected, lambda t: S7.pd_rank_claim(t, offset=0, exact=True, sizes=r_sizes(2, 3))),
    _twin(S7.pd_affine_corrected, lambda t: S7.pd_rank_claim(
        t, offset=0, exact=True, kind="affine dimension", sizes=r_sizes(2, 3))),
    _twin(S7.pd_total_orders, lambda t: S7.pd_rank_claim(
        t, offset=-1, kind="affine dimension", labels="total_orders", sizes=r_sizes(3, 3))),
    # the surrogate with the sign of alpha flipped (alpha_y = y_ji - y_ij) is not calibrated
    _twin(S7.pd_half_surrogate, lambda t: S7.pd_offset_claim(t, sign=-1).replace(sizes=r_sizes(2, 3))),
    _twin(S7.pd_mwfas, lambda t: S7.pd_fas_claim(t, wrong_constant=True).replace(sizes=r_sizes(3, 3))),
    _twin(S71.theorem6, lambda t: S71.theorem6_claim(t, use_f="reversed")),
    *[_twin(c, lambda t, args=args: S71.theorem6_whole_claim(t, args[0], args[1], labels=args[2], use_f="reversed"))
      for c, args in zip(S71.theorem6_whole, S71.THEOREM6_ARGS.values(), strict=True)],
    _twin(S71.theorem6_dmj, lambda t: S71.dmj_claim(t, nu=1).replace(sizes=r_sizes(3, 3))),
    _twin(S71.theorem6_dmj_noise, lambda t: S71.dmj_noise_claim(t, extra=sympy.Rational(1, 5))),
    _twin(S72.theorem7_algorithm1_regions, lambda t: S72.algorithm1_regions_claim(t, reverse=True)),
    _twin(S72.theorem7, lambda t: S72.theorem7_claim(t, radius_factor=F(400))),
    _twin(S72.theorem7_whole, lambda t: S72.theorem7_whole_claim(t, reverse=True)),
    _twin(S72.theorem7_whole_simplex, lambda t: S72.theorem7_whole_claim(t, reverse=True, whole_simplex=True)),
    _twin(S72.theorem7_p_dag_contains_p_f, lambda t: S72.p_dag_contains_p_f_claim(t, strict=False)
          .replace(sizes=r_sizes(3, 3))),
    _twin(A.theorem4_eq2, lambda t: A.eq2_claim(t, shift=F(1, 1000))),
    _twin(A.theorem4_minimiser, lambda t: A.theorem4_minimiser_claim(t, scale=2, sizes=r_sizes(2, 2))),
    _twin(A.lemma8, lambda t: S6.lemma8_claim(t, pred="reverse")),
    *[_twin(c, lambda t, r=r: A.lemma8_whole_claim(t, r, outside=True)) for c, r in zip(A.lemma8_whole, (3, 4),
                                                                                        strict=True)],
    # without P_reinforce two sigma in Pi(u) can differ (u_ii = u_jj but u_ig != u_jg)
    _twin(A.lemma8_equal_risk, lambda t: A.lemma8_equal_risk_claim(t, reinforce=False, sizes=r_sizes(3, 3))),
    _twin(A.lemma8_step_corrected, lambda t: A.lemma8_step_claim(t, printed=False, slack=F(1, 1000))),
    _twin(A.lemma8_adjacent_count_corrected, lambda t: A.swap_count_claim(
        t, count=A.all_disagreements, drop=2, statement="twin: the disagreeing pairs drop by two")),
    _twin(A.theorem6_minimiser, lambda t: A.theorem6_minimiser_claim(t, scale=2, sizes=r_sizes(2, 2))),
    _twin(A.theorem6_pairwise, lambda t: A.pairwise_form_claim(t, offset=False, sizes=r_sizes(2, 3))),
    _twin(A.theorem7_minimiser, lambda t: A.theorem7_minimiser_claim(t, scale=2, sizes=r_sizes(2, 2))),
    _twin(A.theorem7_inf_space_corrected, lambda t: A.inf_dimension_claim(t, printed="r(r-1)/2")),
    # claims the paper implies are false: the twin adds the missing hypothesis and is proved
    _twin(S6.theorem4_without_p_reinforce, lambda t: S6.lemma8_claim(t, inside=True, expected="proved")),
    _twin(S72.theorem7_inclusion_strict, lambda t: S72.inclusion_strict_claim(t, only_p_f=True)),
])

# the new section modules declare their twins beside their claims
TWINS.update(NI.TWINS)
TWINS.update(SD.TWINS)
TWINS.update(RD.TWINS)
TWINS.update(AU.TWINS)
# a claim left out of CLAIMS would never be decided
if {c.id for c in NI.CLAIMS + SD.CLAIMS + RD.CLAIMS + AU.CLAIMS} - {c.id for c in CLAIMS}:  # pragma: no cover
    raise ValueError("a claim of noise_inclusions, surrogate_dimensions, radii or audit is missing from CLAIMS")

# what each twin must come back as, where it is not "refuted"
TWIN_EXPECT: dict[str, str] = {
    S6.theorem4_without_p_reinforce.id: "proved",
    S72.theorem7_inclusion_strict.id: "proved",
    **NI.TWIN_EXPECT,
    **SD.TWIN_EXPECT,
    **AU.TWIN_EXPECT,
}
