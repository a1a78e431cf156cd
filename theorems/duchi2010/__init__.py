"""Duchi, Mackey & Jordan (2010), "On the Consistency of Ranking Algorithms", ICML.

Main claims
-----------
The package follows the paper: ``section1`` .. ``section4``, ``appendix`` (Appendix A), and
``calibration`` (edge-consistency decided over whole noise sets); ``common`` holds the citation
helper and the helpers the sections share.  Each section declares its claims' negative twins
beside them; this file gathers the one ``CLAIMS`` list in reading order and the twins.

* Section 1: |G(m)| <= 3^C(m,2), with the exact number of labelled DAGs (Robinson's
  recurrence = two independent enumerations) for m = 1..5, and the recurrence for m = 6..25;
  the infimum of l(p, .) is attained (one score vector per weak order is as good as any a;
  every a_ij >= 0, m = 3, 4).
* Section 2: Eq. (8) is sum_G p_G L(a, G) with L of Eq. (7) (identity for every real a).
* Section 2.2's "an edge-consistent phi of Eq. (9) is differentiable at 0 with phi'(0) < 0":
  **erratum** (hypothesis) -- it needs phi convex (Bartlett et al.); the ramp min(1, max(0, 1 - x))
  is edge-consistent on two items (proved) with phi'(0-) = 0 != phi'(0+) = -1; for convex phi proved.
* Definition 8: a low-noise pair has an acyclic difference graph (z3, m = 3..6).
* Eq. (11) is the gradient of Eq. (10) for every differentiable phi, and d/da3 is implied.
* Lemma 10: identities (12a)/(12b), every inequality step, and the whole contradiction under
  COND 1 and under COND 2; the Section 2.2 remark that every minimiser has a1 > a2 > a3.
* Theorem 11's construction: **erratum** -- the printed weights need not be low-noise (a31
  is ignored); corrected construction proved; COND 1 proved for every increasing h; an
  exact low-noise instance; numeric confirmation for three convex phi that the minimiser of
  W lies outside A(p).
* Theorem 12's construction: its W from Eq. (13) and phi~'(0) = phi'(-c) (every phi), low noise
  (with equality 0.26 = 0.26), COND 1, and numeric confirmation for phi~(x) = phi(x - 1).
* Theorem 13 with r(a) = a^2: the closed form (15), W(a) - W* = nu |a - a*|^2, the
  neighbourhood step, and "a* strictly respects every edge <=> (16)".  **Erratum** (proof
  step): "a* of (15) is in A(p) iff (16)" is false when a* lies on the boundary of A(p).
  **Erratum**: for a strictly convex r with a kink (r(a) = a^2 + |a|), (16) can hold while a*
  ties an edge; the corrected statement asks r differentiable too (on a grid).
* Lemma 14 (low noise => ordering condition of Theorem 13) for m = 3..12 and for all m by a
  local lemma; its converse is false; each case of its proof as a 3-node claim.
  **Erratum**: in the tie case the proof says "(j -> k) is not in G~"; that is false, the
  argument needs (k -> j) not in G~ (recorded finding, corrected step proved).
* Section 3's lead to Lemma 14, "low-noise settings satisfy the conditions of Theorem 13", as one
  inclusion of noise sets (low noise ⊆ {G~ a DAG and Eq. (16)}) decided by the noise-condition map
  (``noise_inclusions``: z3 over every a_ij >= 0, m = 3..5); its twin, the reverse inclusion, is
  separated by an exact distribution at m = 3.
* Corollary 15 for m = 3..8 and all m.  Section 3: without the regulariser r the linear loss
  is sent to -oo outside A(p); **erratum** (clarification): not when the DAG G~ has a single edge
  (W = d_ik (a_k - a_i) >= 0 outside A(p)); with two or more edges on a grid at m = 3, 4.
* Section 3.1: Cossock-Zhang scores are low-noise (m = 3..8).  **Erratum**: the printed
  penalty a_ij^G = y_i - y_j is negative when y_i < y_j (Section 2 assumes non-negative
  penalties); with each pair oriented from its higher score, a_ij - a_ji = y~_i - y~_j and low
  noise are proved for averages of 3 score vectors (m = 3, 4).  With G~ = {1 -> 2, 1 -> 3} both
  orders of 2 and 3 minimise l; the order-preserving example (printed weights, w2 >= 2, no fixed
  w2 works).
* Section 4: in every row of Table 1 as printed, the linear loss has the lowest test loss.
* Appendix A: Lemma 7's reduction on seeded random instances (brute force and MILP agree) and
  for every real weight vector at m = 3; the shift invariance in Lemma 9's proof (every phi);
  **errata** in the proofs of Lemma 3 (the limit drops the weights p_G: clarification), Lemma 4
  (a point outside A(p) can attain inf{W : a not in A(p)}, so ">" is ">="), and Lemma 9 (its
  minimising sequence is taken inside A(p), which fails exactly where Lemma 10 applies: at Theorem
  11's instance with the squared hinge inf over A(p) = 103/60 > 27/16 = W*; and it restates
  Assumption A as "phi'_oo(1) = 0 or phi'_oo(-1) = -oo": clarification);
  Lemma 16 exhaustively on a grid at m = 3 and for every real weight vector at m = 3, 4, the
  rewriting of Eq. (8) in its proof (m = 3..5) and its "clearly" step for sorted labels.
* Edge-consistency decided over every distribution of a noise set by the calibration engine
  (:mod:`symcal.calibration`): Corollary 15 (low noise) and Theorem 13 (<=: a DAG G~ and (16)) for the
  linear loss (14) with r = a^2 at m = 3, 4; Theorems 11 and 12 as refutations with exact low-noise
  counterexample distributions for the hinge (Theorem 12 also at the printed p).

Encoding notes
--------------
* Node claims use edge weights a_ij >= 0 on nodes 1..m; ``a.d(i, j)`` is a_ij - a_ji, the
  weight of the difference graph when positive.  Ties are written as ``d >= 0 and d <= 0``
  (never ``==``, which sympy would turn into a Python bool).
* ``implies`` claims over m nodes use difference variables d_i_j (i < j) with
  d_ji = -d_ij; acyclicity of G~ is "no directed simple cycle of the complete digraph has
  all its differences > 0" (cycles from networkx).
* Theorem 13 is encoded with r(a) = a^2, so a*_i = sum_j (a_ij - a_ji) / (2 nu) and
  W(a) - W* = nu |a - a*|^2 (an exact identity).  Hence W* < inf{W : a not in A(p)} iff a*
  is in the interior of A(p), i.e. strictly respects every edge of G~; that is the
  equivalence encoded.  Corollary 15 fixes nu = 1/2 so that a*_i = sum_j d_ij.
* Lemma 10's subgradients are free reals g12, g13, g23, g31 and g0 = phi'(0) < 0;
  "monotone subgradients" is the family delta_a > delta_b -> g_a >= g_b over the points
  delta12, delta13, delta23, delta31, 0.  This covers every convex phi.
* Theorem 11 (b) treats h only through its values (H12 = h(a12^G1), ...): positive at
  positive arguments and monotone, so it covers every continuous increasing h, h(0) = 0.
  (c) and the numeric claims take h(x) = x and the corrected construction.
* Theorem 12 prints the weights as a_12^G1 = a_13^G2 = a_23^G3 = a_31^G4 although G2 has the
  edge 2 -> 3 and G3 the edge 1 -> 3: a notation slip recorded as a clarification finding
  (theorem12.weight_names; each graph's single edge gets weight h^-1(c)); encoded with the
  graphs' own edges.  The printed a13 - a31 >= a12 + a23 holds with equality (0.26 c0 = 0.26 c0), still low noise.
* Numeric claims minimise W over (delta12, delta23) = (a1 - a2, a2 - a3) with a3 = 0
  (shift invariance), globally and over the closure of A(p) = {delta12, delta23 >= 0}; the
  margin is the gap between the two minima.  Never a proof.
* symcal.ranking supplies count_dags / dags (Section 1), expected weights and is_low_noise
  (Theorem 11's instance), min_feedback_arc_set and single_edge_distribution (Lemma 7).
  Symbolic claims need weights as sympy expressions, and Eq. (8), Lemma 16's set and the
  edge-subset feedback arc set were not in symcal.ranking when this was written, so small
  exact helpers for those live here; where both exist they are cross-checked.
* The Section 3 sentence "phi can be sent to -oo with a not in A(p)" needs more than one edge
  in G~: with a single edge i -> j the unregularised W = d_ij (a_j - a_i) is >= 0 outside A(p)
  (section3.regulariser_every_p, a clarification finding).  The instance claim has G~ =
  {1 -> 2, 1 -> 3} (the paper's own example in Section 3.1).

* Calibration (edge-consistency by the engine).  Labels = the DAGs G of the support, with
  probabilities p1..pn; loss L(G, sigma) = sum_{(i -> j) in G} a_ij^G 1(sigma(i) > sigma(j)) (Eq. (7)
  on strict orders); predictions = the m! permutations; link = "sort-desc"; surrogate phi(a, G) in
  the scores a in R^m; noise = Definition 8 / acyclicity / (16) written in d_ij = a_ij - a_ji with
  a_ij = sum_G a_ij^G p_G (linear in p).  This is Definition 2 exactly: Eq. (8) gives a score vector
  with ties the loss of one permutation sorting it (ties: the larger index first), which lies in the
  closed cell the engine covers, and a refutation's sequence stays in an open cell (no ties).
  Theorem 13 / Corollary 15 use the m(m-1) single-edge graphs of unit weight: W(p, .) and l(p, .)
  depend on (G, p) only through a, every a >= 0 (a != 0) is s a' with a' the expected weights of that
  family under p' = a / s, and with r = a^2 scaling a by s is scaling nu by 1/s, which moves
  a* = sum_j d_ij / (2 nu) along a ray and keeps edge-consistency.  So m = 3, 4 cover every (G, p).
  m = 5 (20 labels, 120 orders) takes about 17 s and is left out.  The (=>) half of Theorem 13 (each
  p violating (16) fails) is a statement per p, not calibration over a set; it stays with the
  symbolic claims (theorem13.eq16_iff_alpha_star_in_a.corrected).
* Theorems 11 and 12 use the hinge phi(x) = max(0, 1 - x): convex, phi'(0) = -1 < 0, bounded below
  (Assumption A), differentiable at -c for every c > 0 -- both theorems cover it -- and polyhedral,
  which the engine decides exactly (the exponential and logistic phi stay numeric).  h(x) = x.
  Theorem 11 uses its own graphs with the corrected instance (a12 = 1, a13 = 4, a31 = 1, a23 = 1/10);
  Theorem 12 its four single-edge graphs of weight h^-1(c) = 1 (margin c = 1).  Expected "refuted":
  the paper asserts inconsistency.  The engine's counterexample for Theorem 12 over all low-noise p,
  p = (1/6, 1/6, 1/2, 1/6), meets neither COND 1 nor COND 2: the hinge is not strictly convex and has
  a minimiser on the boundary of A(p) there (a tie a2 = a3); Lemma 10's mechanism is one way to fail,
  not the only one.  The twins swap in the linear loss (14), which is proved edge-consistent on the
  same graphs and distributions.
* Identities "for every phi" (Eq. (11), Theorem 12's W, Lemma 9's shift invariance) take phi as an
  undefined sympy function: expand + cancel proves them for every (differentiable) phi.  A twin
  of such a claim is refuted at one phi, (1 - x)^2, since an undefined function has no value at
  a test point.  Indicators 1(a_i <= a_j) are sympy Piecewise terms (z3: if-then-else), so Eq. (8)
  is an identity in the weights with the indicators as atoms, and the z3 claims over score vectors
  (the infimum, Section 3.1's indifference, Lemma 16's proof steps) range over every real a.
* Lemma 16's proof assumes "without loss of generality" that the labels are topologically sorted.
  Eq. (8) breaks ties by label (a tie a_i = a_j with i < j costs a_ij), so relabelling is not a
  symmetry of l(p, .) or of Lemma 16's set; the sorted case is proved as the proof states it
  (lemma16.proof.sorted_minimisers), and the lemma itself for every labelling (lemma16.all_weights).
* Section 3.1's averages: 3 equally likely score vectors stand for the limit (a rational
  distribution is a uniform one over repeated draws); z3 decides the Max terms exactly.
* Table 1 is read as printed (three decimals, exact Fractions); the sentence is checked row by row,
  each row stated over its printed means (``finite_check(formula=...)``, re-checked by the kernel).
* Exact instances stated for the kernel: Theorem 12's COND 1 over p_G1..p_G4, Theorem 11's
  instance over its weights (a23 = min(eps, (a13 - a12)/2), the expected weights, DAG, low noise
  and COND 1 as sympy relations; symcal.ranking's expected weights and verdicts must equal them).
  |G(m)| <= 3^C(m,2): over the sequence of Robinson's recurrence, every term pinned by the recurrence
  (the kernel re-derives them; symcal.ranking's count_dags only supplies the values it then checks),
  and for m <= 5 the two enumerations' counts must equal the recurrence's number.
* ``symcal selftest --mutants`` on the claims added with the coverage map kills every declared
  twin.  Its survivors are explained: ``weights_nonnegative`` is not needed where the statement
  holds for all real weights (the identities of Eq. (8) and Lemma 16's rewriting, the infimum,
  the sorted minimisers); exchanging two weights survives where the statement is symmetric in
  them; reversed or shifted low-noise relations in a conclusion survive where their premises
  cannot hold (G~ has no two-edge path, or d_ij = y~_i - y~_j makes them equalities); exchanges
  of the h's in Lemma 9's identity stay undecided (an undefined phi has no value at a test point).
* Lemma 16 and Lemma 7's reduction over every real weight vector: Eq. (8) depends on a score vector
  only through its weak order, so one representative per weak order (13 at m = 3, 75 at m = 4) and,
  for Lemma 7, every edge set whose complement is acyclic make the statements finite families of
  linear implications over all real a_ij >= 0 (implies_cases, one z3 query each).

References
----------
duchi-mackey-jordan-2010-consistency-of-ranking-algorithms.txt
(the paper's plain text, not in the repository: SYMCAL_PAPERS names its folder)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from symcal.claims.core import Claim

# The sections in reading order; each declares its claims' negative twins beside them.  A section is
# imported (and its claims built) when one of its claims is asked for: ``symcal show duchi2010.lemma14``
# builds Section 3 only (symcal.library.load_selected), not the whole paper.
_SECTION_NAMES = ("section1", "section2", "section2_2", "section2_3", "section3", "noise_inclusions", "section3_1",
                  "section4", "appendix", "calibration", "audit")

# CLAIMS in reading order: "section.attribute" holding a claim, "section.attribute*" a list of claims spliced in
_ORDER: tuple[str, ...] = (
    "section1.dag_count_bound", "section1.dag_count_bound_large", "section1.infimum_attained",
    "section2.eq8",
    "section2_2.ramp_edge_consistent", "section2_2.derivative_needs_convexity",
    "section2_2.derivative_corrected", "section2_2.definition8_dag", "section2_2.section2_2_minimisers",
    "section2_2.eq11", "section2_2.lemma10_eq12a", "section2_2.lemma10_eq12b",
    "section2_2.lemma10_g12_negative", "section2_2.lemma10_g23_negative", "section2_2.lemma10_bound1",
    "section2_2.lemma10_bound2", "section2_2.lemma10_sign1", "section2_2.lemma10_sign2",
    "section2_2.lemma10_cond1_form", "section2_2.lemma10_cond2_form", "section2_2.lemma10_cond1",
    "section2_2.lemma10_cond2", "section2_2.theorem11_low_noise", "section2_2.theorem11_low_noise_corrected",
    "section2_2.theorem11_cond1", "section2_2.theorem11_instance", "section2_2.theorem11_minimiser*",
    "section2_3.theorem12_weight_names", "section2_3.theorem12_weight_names_corrected",
    "section2_3.theorem12_w", "section2_3.theorem12_low_noise", "section2_3.theorem12_tight",
    "section2_3.theorem12_cond1", "section2_3.theorem12_minimiser*",
    "section3.theorem13_w_form", "section3.theorem13_eq15", "section3.theorem13_iff",
    "section3.theorem13_iff_corrected", "section3.theorem13_neighbourhood", "section3.theorem13_unique",
    "section3.theorem13_strictly_convex_r", "section3.theorem13_strictly_convex_r_corrected",
    "noise_inclusions.low_noise_in_theorem13",
    "section3.lemma14", "section3.lemma14_all_m", "section3.lemma14_per_node", "section3.lemma14_case_both",
    "section3.lemma14_case_ij_only", "section3.lemma14_case_reverse", "section3.lemma14_case_tie",
    "section3.lemma14_case_tie_corrected", "section3.lemma14_strict", "section3.lemma14_converse",
    "section3.corollary15", "section3.corollary15_all_m", "section3.regulariser_needed",
    "section3.regulariser_every_p", "section3.regulariser_every_p_corrected",
    "section3_1.cossock_zhang", "section3_1.cossock_zhang_printed", "section3_1.cossock_zhang_corrected",
    "section3_1.indifferent_2_3", "section3_1.order_preserving_weights_c", "section3_1.w2_at_least_2",
    "section3_1.no_fixed_w2",
    "section4.table1_linear_lowest",
    "appendix.lemma7", "appendix.lemma7_reduction", "appendix.lemma7_all_weights", "appendix.lemma3_limit",
    "appendix.lemma3_limit_corrected", "appendix.lemma4_strict", "appendix.lemma4_corrected",
    "appendix.shift_invariance", "appendix.lemma9_inf_over_a", "appendix.lemma9_sequence_in_a",
    "appendix.lemma9_sequence_corrected", "appendix.lemma9_assumption", "appendix.lemma9_assumption_corrected",
    "appendix.lemma16", "appendix.lemma16_all_weights", "appendix.lemma16_rewrite", "appendix.lemma16_sorted",
    "calibration.corollary15_whole*", "calibration.theorem13_whole*", "calibration.theorem11_whole",
    "calibration.theorem12_whole", "calibration.theorem12_whole_paper_p",
    "audit.CLAIMS*",
)

# a cheap index: every claim's id by the section defining it, so that one claim is built without the
# rest; checked against the sections whenever a section's claims are built (a stale entry is an error)
_SECTION_IDS: dict[str, tuple[str, ...]] = {
    "section1": (
        "duchi2010.dag_count_bound", "duchi2010.dag_count_bound.large_m",
        "duchi2010.section1.infimum_attained",
    ),
    "section2": (
        "duchi2010.section2.eq8",
    ),
    "section2_2": (
        "duchi2010.section2_2.ramp_edge_consistent_m2", "duchi2010.section2_2.derivative_at_0",
        "duchi2010.section2_2.derivative_at_0.corrected", "duchi2010.definition8.difference_graph_is_dag",
        "duchi2010.section2_2.minimisers_ordered", "duchi2010.section2_2.eq11", "duchi2010.lemma10.eq12a",
        "duchi2010.lemma10.eq12b", "duchi2010.lemma10.proof.g12_negative",
        "duchi2010.lemma10.proof.g23_negative", "duchi2010.lemma10.proof.bound_cond1",
        "duchi2010.lemma10.proof.bound_cond2", "duchi2010.lemma10.proof.sign_cond1",
        "duchi2010.lemma10.proof.sign_cond2", "duchi2010.lemma10.proof.cond1_form",
        "duchi2010.lemma10.proof.cond2_form", "duchi2010.lemma10.cond1", "duchi2010.lemma10.cond2",
        "duchi2010.theorem11.low_noise", "duchi2010.theorem11.low_noise.corrected",
        "duchi2010.theorem11.cond1", "duchi2010.theorem11.instance",
        "duchi2010.theorem11.minimiser_outside_a.exp", "duchi2010.theorem11.minimiser_outside_a.logistic",
        "duchi2010.theorem11.minimiser_outside_a.squared_hinge",
    ),
    "section2_3": (
        "duchi2010.theorem12.weight_names", "duchi2010.theorem12.weight_names.corrected",
        "duchi2010.theorem12.w_form", "duchi2010.theorem12.low_noise",
        "duchi2010.theorem12.low_noise_tight", "duchi2010.theorem12.cond1",
        "duchi2010.theorem12.minimiser_outside_a.exp", "duchi2010.theorem12.minimiser_outside_a.logistic",
        "duchi2010.theorem12.minimiser_outside_a.squared_hinge",
    ),
    "section3": (
        "duchi2010.theorem13.w_form", "duchi2010.theorem13.eq15",
        "duchi2010.theorem13.eq16_iff_alpha_star_in_a",
        "duchi2010.theorem13.eq16_iff_alpha_star_in_a.corrected", "duchi2010.theorem13.neighbourhood",
        "duchi2010.theorem13.eq15.unique_minimum", "duchi2010.theorem13.strictly_convex_r",
        "duchi2010.theorem13.strictly_convex_r.corrected", "duchi2010.lemma14", "duchi2010.lemma14.all_m",
        "duchi2010.lemma14.proof.per_node", "duchi2010.lemma14.proof.case_both_edges",
        "duchi2010.lemma14.proof.case_edge_ij_only", "duchi2010.lemma14.proof.case_reverse_edge",
        "duchi2010.lemma14.proof.case_tie", "duchi2010.lemma14.proof.case_tie.corrected",
        "duchi2010.lemma14.proof.strict", "duchi2010.lemma14.converse", "duchi2010.corollary15",
        "duchi2010.corollary15.all_m", "duchi2010.section3.regulariser_needed",
        "duchi2010.section3.regulariser_every_p", "duchi2010.section3.regulariser_every_p.corrected",
    ),
    "noise_inclusions": (
        "duchi2010.noise_map.low_noise_in_theorem13",
    ),
    "section3_1": (
        "duchi2010.section3_1.cossock_zhang", "duchi2010.section3_1.cossock_zhang.printed_penalty",
        "duchi2010.section3_1.cossock_zhang.printed_penalty.corrected",
        "duchi2010.section3_1.indifferent_2_3", "duchi2010.section3_1.order_preserving.weights",
        "duchi2010.section3_1.order_preserving.w2_at_least_2",
        "duchi2010.section3_1.order_preserving.no_fixed_w2",
    ),
    "section4": (
        "duchi2010.section4.table1_linear_lowest",
    ),
    "appendix": (
        "duchi2010.lemma7.min_risk_is_feedback_arc_set", "duchi2010.lemma7.reduction",
        "duchi2010.lemma7.all_weights", "duchi2010.lemma3.proof.limit",
        "duchi2010.lemma3.proof.limit.corrected", "duchi2010.lemma4.proof.strict",
        "duchi2010.lemma4.proof.strict.corrected", "duchi2010.lemma9.proof.shift_invariance",
        "duchi2010.lemma9.proof.inf_over_a", "duchi2010.lemma9.proof.sequence_in_a",
        "duchi2010.lemma9.proof.sequence_in_a.corrected", "duchi2010.lemma9.proof.assumption_a",
        "duchi2010.lemma9.proof.assumption_a.corrected", "duchi2010.lemma16",
        "duchi2010.lemma16.all_weights", "duchi2010.lemma16.proof.rewrite",
        "duchi2010.lemma16.proof.sorted_minimisers",
    ),
    "calibration": (
        "duchi2010.corollary15.calibration.low_noise.m3", "duchi2010.corollary15.calibration.low_noise.m4",
        "duchi2010.theorem13.calibration.dag_and_eq16.m3",
        "duchi2010.theorem13.calibration.dag_and_eq16.m4", "duchi2010.theorem11.calibration.hinge",
        "duchi2010.theorem12.calibration.margin_hinge",
        "duchi2010.theorem12.calibration.margin_hinge.paper_p",
    ),
    "audit": (
        "duchi2010.audit.section1.h_min_nondecreasing", "duchi2010.audit.theorem6.finitely_many_values",
        "duchi2010.audit.eq7.zero_iff_obeys", "duchi2010.audit.eq7.zero_iff_obeys.corrected",
        "duchi2010.audit.eq7.tie_charged_once", "duchi2010.audit.eq9.w_from_h_ij",
        "duchi2010.audit.eq9.w_from_h_ij.corrected",
        "duchi2010.audit.section2_2.h_strictly_increasing_needed",
        "duchi2010.audit.recession.quotient_nondecreasing", "duchi2010.audit.assumption_a.bounded_below",
        "duchi2010.audit.lemma9.largest_gap", "duchi2010.audit.lemma9.unbounded_above",
        "duchi2010.audit.theorem12.shifted_slope_negative", "duchi2010.audit.lemma7.less_than_k",
        "duchi2010.audit.lemma7.less_than_k.corrected", "duchi2010.audit.lemma16.path_lengths",
        "duchi2010.audit.lemma16.path_lengths.corrected", "duchi2010.audit.lemma16.cycle_has_ascending_edge",
    ),
}
CLAIM_IDS: dict[str, str] = {cid: section for section, ids in _SECTION_IDS.items() for cid in ids}

# names this package offers, from the section that defines them (imported on first use)
_FROM_SECTION = {
    "PAPER": "common", "cite": "common", "twin_id": "common", "difference_edges": "common",
    "expected_weights": "common", "has_cycle": "common", "low_noise_violations": "common",
    "enumerated_dag_count": "section1", "theorem11_graphs": "section2_2", "THEOREM12_P": "section2_3",
    "theorem12_cond1_holds": "section2_3", "theorem12_graphs": "section2_3", "THEOREM11_GRAPHS": "calibration",
    "THEOREM12_GRAPHS": "calibration", "corollary15_whole": "calibration", "theorem13_whole": "calibration",
}


def _section(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def _entry_claims(entry: str) -> list[Claim]:
    """The claims of one entry of :data:`_ORDER`."""
    section, attribute = entry.rstrip("*").split(".")
    value = getattr(_section(section), attribute)
    return list(value) if entry.endswith("*") else [value]


def _section_claims(name: str) -> list[Claim]:
    """The claims of section ``name`` in reading order, checked against the index (:data:`CLAIM_IDS`)."""
    out = [c for entry in _ORDER if entry.split(".")[0] == name for c in _entry_claims(entry)]
    indexed = _SECTION_IDS.get(name, ())
    if [c.id for c in out] != list(indexed):
        missing = sorted(set(indexed) - {c.id for c in out})
        extra = sorted({c.id for c in out} - set(indexed))
        raise ValueError(f"duchi2010 CLAIM_IDS of {name} is out of date: not built {missing}, not indexed {extra} "
                         "(or out of reading order)")
    return out


def claims_named(ids: Iterable[str]) -> list[Claim]:
    """The claims with these ids (each a key of :data:`CLAIM_IDS`), building only their sections."""
    wanted = set(ids)
    unknown = sorted(wanted - set(CLAIM_IDS))
    if unknown:
        raise KeyError(f"not claims of duchi2010: {unknown}")
    sections = [s for s in _SECTION_IDS if any(CLAIM_IDS[i] == s for i in wanted)]
    return [c for s in sections for c in _section_claims(s) if c.id in wanted]


def _claims() -> list[Claim]:
    """CLAIMS: every section built and checked against the index, in reading order."""
    for s in _SECTION_IDS:
        _section_claims(s)
    return [c for entry in _ORDER for c in _entry_claims(entry)]


# ---------------------------------------------------------------------------------------
# Negative twins (ARCHITECTURE.md, *Rules of trust*, rule 4; theorems/README.md): claim id -> a claim one edit away,
# declared beside the claim in its section with that section's builders.  A twin must come back
# refuted with a re-checked witness, unless TWIN_EXPECT says otherwise: "proved" (proved or
# confirmed on samples) for a claim the paper itself calls false -- the twin adds what makes it
# true; "unknown" for the twin of a numeric claim (a numeric check never refutes; it must not
# confirm).  The twin of an all-sizes claim (ALL_SIZE_TWINS) is the perturbed node claim: refuted
# per size, and not proved for all sizes by the local lemma.  Errata are their own twins.
# `symcal selftest --mutants` decides every twin as the operator `twin`.
# ---------------------------------------------------------------------------------------


def _twins(claims: list[Claim], sections: tuple[ModuleType, ...]) -> dict[str, Callable[[], Claim]]:
    pending = {cid: build for s in sections for cid, build in s.TWINS.items()}
    twins = {c.id: pending.pop(c.id) for c in claims if c.id in pending}
    if pending:  # a twin whose claim is missing from CLAIMS would never be decided
        raise ValueError(f"twins of claims not in CLAIMS: {sorted(pending)}")
    return twins


def _lazy(name: str) -> Any:
    """The value of the package attribute ``name``, computed on first use: CLAIMS (every section
    built), SECTIONS, TWINS, TWIN_EXPECT (what each twin must come back as, where it is not
    "refuted"), ALL_SIZE_TWINS (twins of all-size claims: refuted per size, and all_sizes(twin)
    must not be proved), a section module, or a helper of a section."""
    if name == "SECTIONS":
        return tuple(_section(s) for s in _SECTION_NAMES)
    if name == "CLAIMS":
        return _claims()
    if name == "TWINS":
        return _twins(__getattr__("CLAIMS"), __getattr__("SECTIONS"))
    if name == "TWIN_EXPECT":
        return {cid: e for s in __getattr__("SECTIONS") for cid, e in s.TWIN_EXPECT.items()}
    if name == "ALL_SIZE_TWINS":
        section3 = _section("section3")
        return (section3.lemma14_all_m.id, section3.corollary15_all_m.id)
    if name in _SECTION_NAMES or name == "common":
        return _section(name)
    if name in _FROM_SECTION:
        return getattr(_section(_FROM_SECTION[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __getattr__(name: str) -> Any:
    value = _lazy(name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "PAPER", "CLAIMS", "TWINS", "TWIN_EXPECT", "ALL_SIZE_TWINS", "SECTIONS", "CLAIM_IDS", "claims_named", "cite",
    "twin_id",
    # used by tests/theorems/test_duchi2010.py
    "expected_weights", "difference_edges", "has_cycle", "low_noise_violations",
    "enumerated_dag_count", "theorem11_graphs", "theorem12_graphs", "theorem12_cond1_holds", "THEOREM12_P",
    "THEOREM11_GRAPHS", "THEOREM12_GRAPHS", "corollary15_whole", "theorem13_whole",
]
