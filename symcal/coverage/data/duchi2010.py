# ruff: noqa: E501  (one-line quotes from the papers)
"""Coverage map of Duchi, Mackey & Jordan (2010), "On the Consistency of Ranking Algorithms"
(ICML), read from start to end; appendix proofs come where the appendix prints them."""

from symcal.coverage.entry import E

PAPER = "duchi2010"
SOURCE = "duchi-mackey-jordan-2010-consistency-of-ranking-algorithms.txt"

# Numbered labels the text cites from other works (not statements of this paper).
EXTERNAL_LABELS = {
    "Corollary 26": "Zhang (2004), cited for Eq. (4)",
    "Theorem 24": "Zhang (2004), cited in the proof of Lemma 1",
    "Theorem 24.1": "Rockafellar (1970), monotone subgradients",
    "Theorem 25.3": "Rockafellar (1970), a.e. differentiability",
    "Theorem 5": "Xia et al. (2008), order-preserving probability spaces",
}

ENTRIES = [
    E(
        "Introduction",
        "a general graph-based loss L(f(x, q), G) which is equal to zero if f(q, x) obeys the order specified by G -- that is, f_i > f_j for each edge (i -> j) in G -- and is positive otherwise",
        "duchi2010.audit.eq7.zero_iff_obeys",
        "duchi2010.audit.eq7.zero_iff_obeys.corrected",
    ),
    E("Section 1, Eq. (1)", "R(f) = E_{X,Q,G} L(f(X, Q), G)", reason="definition"),
    E("Section 1, Eq. (2)", "l(p, f(x, q)) = sum_{G in G} p_G L(f(x, q), G)", reason="definition"),
    E("Section 1", "R* = inf_f R(f) = E_{X,Q} inf_alpha l(p, alpha)", reason="definition"),
    E(
        "Section 1",
        "noting that |G(m)| <= 3^(m choose 2)",
        "duchi2010.dag_count_bound",
        "duchi2010.dag_count_bound.large_m",
    ),
    E(
        "Section 1, Eq. (3)",
        "H_m(eps) = inf_p { sum p_G phi(alpha, G) - inf_alpha' ... : l(p, alpha) - inf l >= eps }",
        reason="definition",
    ),
    E(
        "Section 1",
        "We immediately have H >= 0, H(0) = 0",
        reason="not checkable: a property of an infimum over the simplex and all score vectors for an arbitrary surrogate phi (Eq. (3) leaves alpha free; Lemma 1's proof reads H_m as an infimum over alpha too)",
    ),
    E(
        "Section 1",
        "H(eps) is non-decreasing on 0 <= eps < oo, since individual H_m(eps) are non-decreasing in eps",
        "duchi2010.audit.section1.h_min_nondecreasing",
    ),
    E(
        "Lemma 1",
        "Let zeta be a convex function such that zeta(eps) <= H(eps). Then for all f, zeta(R(f) - R*) <= R_phi(f) - R_phi*",
        reason="not checkable: Jensen's inequality over arbitrary distributions and scoring functions (measure theory)",
    ),
    E(
        "Section 1, Eq. (4)",
        "R(f) - R* <= xi(R_phi(f) - R_phi*)",
        reason="out of scope: consequence of Zhang (2004), Corollary 26, quoted without proof",
    ),
    E("Section 1, Eq. (5)", "A(p) = {alpha : l(p, alpha) = inf_alpha' l(p, alpha')}", reason="definition"),
    E(
        "Section 1, after Eq. (5)",
        "The infimum is attained since l is edgewise ... so A(p) is not empty",
        "duchi2010.section1.infimum_attained",
    ),
    E("Section 1, Eq. (6)", "W(p, alpha) = sum_{G in G} p_G phi(alpha, G)", reason="definition"),
    E(
        "Definition 2",
        "phi is edge-consistent with respect to the loss L if for all p, W*(p) < inf {W(p, alpha) : alpha not in A(p)}",
        reason="definition",
    ),
    E(
        "Lemma 3",
        "W*(p) is continuous on Delta",
        reason="not checkable: continuity of an infimum for an arbitrary continuous bounded-below surrogate",
    ),
    E(
        "Lemma 4",
        "Let phi be edge-consistent. Then W(p, alpha^(n)) -> W*(p) implies that l(p, alpha^(n)) -> inf l and alpha^(n) in A(p) eventually",
        reason="not checkable: a limit statement over sequences, for an arbitrary edge-consistent surrogate",
    ),
    E(
        "Lemma 5",
        "For every eps > 0 there exists a delta > 0 such that ... l(p, alpha) - inf l >= eps implies W(p, alpha) - W*(p) >= delta",
        reason="not checkable: uniformity over the simplex by compactness, for an arbitrary edge-consistent surrogate",
    ),
    E(
        "Theorem 6",
        "phi is edge-consistent if and only the following holds: ... R_phi(f_n) ->P R_phi*, then R(f_n) ->P R*",
        reason="not checkable: convergence in probability over sequences of scoring functions (asymptotic, measure-theoretic)",
    ),
    E(
        "Theorem 6, proof",
        "By Lemma 5 and the definition of H_m ... H(eps) > 0 ... Now suppose that phi is not edge-consistent ... R(f_n) does not converge in probability to R*",
        reason="not checkable: Lemma 5 and Eq. (4) applied to sequences of scoring functions (asymptotic, measure-theoretic); the uniform eps of its second half is checked (Theorem 6, proof, step 2)",
    ),
    E(
        "Theorem 6, proof, step 2",
        "Further, by assumption there is some eps > 0 such that l(p, alpha^(n)) >= inf_alpha l(p, alpha) + eps for all n",
        "duchi2010.audit.theorem6.finitely_many_values",
    ),
    E(
        "Section 2, Eq. (7)",
        "L(alpha, G) = sum_{i<j} a_ij^G 1(alpha_i <= alpha_j) + sum_{i>j} a_ij^G 1(alpha_i < alpha_j)",
        reason="definition",
    ),
    E(
        "Section 2, after Eq. (7)",
        "We distinguish the cases i < j and i > j to avoid minor technical issues created by doubly penalizing 1(alpha_i = alpha_j)",
        "duchi2010.audit.eq7.tie_charged_once",
    ),
    E(
        "Section 2, Eq. (8)",
        "If we define a_ij = sum_G a_ij^G p_G, then l(p, alpha) = sum_{i<j} a_ij 1(alpha_i <= alpha_j) + ...",
        "duchi2010.section2.eq8",
    ),
    E(
        "Lemma 7",
        "Define l(p, alpha) as in Eq. (8). Finding an alpha minimizing l is NP-hard",
        reason="not checkable: NP-hardness is a complexity statement; the reduction in its proof is checked (Appendix A, proof of Lemma 7)",
    ),
    E("Section 2.1", "most convex surrogates are inconsistent unless P = NP", reason="prose"),
    E(
        "Section 2.2, Eq. (9)",
        "phi(alpha, G) = sum_{(i->j) in G} h(a_ij^G) phi(alpha_i - alpha_j)",
        reason="definition",
    ),
    E(
        "Section 2.2, after Eq. (9)",
        "the conditional surrogate risk is W(p, alpha) = sum_{i != j} h_ij phi(alpha_i - alpha_j), where we define h_ij = sum_{G in G} h(a_ij^G) p_G",
        "duchi2010.audit.eq9.w_from_h_ij",
        "duchi2010.audit.eq9.w_from_h_ij.corrected",
    ),
    E(
        "Section 2.2",
        "If phi from Eq. (9) is edge-consistent, then phi must be differentiable at 0 with phi'(0) < 0",
        "duchi2010.section2_2.ramp_edge_consistent_m2",
        "duchi2010.section2_2.derivative_at_0",
        "duchi2010.section2_2.derivative_at_0.corrected",
    ),
    E(
        "Section 2.2",
        "Similarly, we must have h >= 0 on R+ and strictly increasing",
        "duchi2010.audit.section2_2.h_strictly_increasing_needed",
    ),
    E(
        "Section 2.2",
        "phi'_oo(d) = sup_{t>0} (phi(td) - phi(0))/t = lim_{t -> oo} (phi(td) - phi(0))/t (recession function)",
        "duchi2010.audit.recession.quotient_nondecreasing",
    ),
    E(
        "Section 2.2, Assumption A",
        "phi'_oo(1) >= 0 or phi'_oo(-1) = oo ... satisfied for bounded below phi",
        "duchi2010.audit.assumption_a.bounded_below",
    ),
    E(
        "Section 2.2",
        "the difference graph, that is, the graph with edge weights max{a_ij - a_ji, 0}",
        reason="definition",
    ),
    E(
        "Definition 8",
        "whenever there is an edge (i -> j) and an edge (j -> k) in G~, then the weight a_ik - a_ki ... is greater than or equal to the path weight",
        reason="definition",
    ),
    E(
        "Section 2.2, after Definition 8",
        "if (G, p) satisfies Def. 8, its difference graph G~ is a DAG",
        "duchi2010.definition8.difference_graph_is_dag",
    ),
    E(
        "Section 2.2",
        "if a13 > a31, any alpha minimizing l(p, alpha) clearly will have alpha1 > alpha2 > alpha3",
        "duchi2010.section2_2.minimisers_ordered",
    ),
    E(
        "Section 2.2, Eq. (10)",
        "W(p, alpha) = h12 phi(alpha1 - alpha2) + h13 phi(alpha1 - alpha3) + h23 phi(alpha2 - alpha3) + h31 phi(alpha3 - alpha1)",
        reason="definition",
    ),
    E(
        "Figure 1",
        "The two DAGs above occur with probability 1/2, giving the difference graph G~ on the left",
        reason="not checkable: the figure's graphs are not in the text",
    ),
    E(
        "Section 2.2, Eq. (11)",
        "0 = h12 phi'(alpha1 - alpha2) + h13 phi'(alpha1 - alpha3) - h31 phi'(alpha3 - alpha1); 0 = -h12 phi'(alpha1 - alpha2) + h23 phi'(alpha2 - alpha3)",
        "duchi2010.section2_2.eq11",
    ),
    E(
        "Lemma 9",
        "There is a constant C < oo and a vector alpha* minimizing W(p, alpha) with ||alpha*||_oo <= C",
        reason="not checkable: existence of a bounded minimiser for every convex phi satisfying Assumption A",
    ),
    E(
        "Lemma 10",
        "For convex phi with phi'(0) < 0, W*(p) = inf {W(p, alpha) : alpha not in A(p)} whenever either of the following conditions is satisfied",
        "duchi2010.lemma10.cond1",
        "duchi2010.lemma10.cond2",
    ),
    E("Lemma 10, proof, Eq. (12a)", "g13 - g12 = (h31/h13) g31 - (1 + h12/h13) g12", "duchi2010.lemma10.eq12a"),
    E("Lemma 10, proof, Eq. (12b)", "g13 - g23 = (h31/h13) g31 - (1 + h23/h13) g23", "duchi2010.lemma10.eq12b"),
    E(
        "Lemma 10, proof, step 1",
        "If g12 >= 0, we thus have that g13 >= 0 and by Eq. (11), g31 >= 0 ... Hence, g12 < 0",
        "duchi2010.lemma10.proof.g12_negative",
    ),
    E(
        "Lemma 10, proof, step 2",
        "By identical reasoning, we also have that g23 < 0",
        "duchi2010.lemma10.proof.g23_negative",
    ),
    E(
        "Lemma 10, proof, step 3",
        "g13 - g12 <= (h31/h13) g23 - (1 + h12/h13) g12 = (h31 h12/h23 - h13 - h12) g12/h13",
        "duchi2010.lemma10.proof.bound_cond1",
    ),
    E(
        "Lemma 10, proof, step 4",
        "g13 - g12 < 0 whenever h31 h12/h23 > h13 + h12 ... a contradiction under CONDITION 1",
        "duchi2010.lemma10.proof.sign_cond1",
        "duchi2010.lemma10.proof.cond1_form",
    ),
    E(
        "Lemma 10, proof, step 5",
        "g13 - g23 <= (h31/h13) g12 - (1 + h23/h13) g23 = (h31 h23/h12 - h13 - h23) g23/h13",
        "duchi2010.lemma10.proof.bound_cond2",
    ),
    E(
        "Lemma 10, proof, step 6",
        "g13 - g23 < 0 whenever h31 h23/h12 > h13 + h23. This contradicts delta13 > delta23 under CONDITION 2",
        "duchi2010.lemma10.proof.sign_cond2",
        "duchi2010.lemma10.proof.cond2_form",
    ),
    E(
        "Section 2.2, after Lemma 10",
        "Assumption A only to specify an optimal alpha ... can be weakened to W(p, alpha) -> oo",
        reason="prose",
    ),
    E(
        "Theorem 11",
        "Even in the low-noise setting, for phi convex and satisfying Assumption A, phi is not edge-consistent",
        "duchi2010.theorem11.instance",
        "duchi2010.theorem11.minimiser_outside_a.exp",
        "duchi2010.theorem11.minimiser_outside_a.logistic",
        "duchi2010.theorem11.minimiser_outside_a.squared_hinge",
        "duchi2010.theorem11.calibration.hinge",
    ),
    E(
        "Theorem 11, proof, step 1",
        "Then we have h23 = h(a23^G2)/2 <= h(eps)/2 < h31 h12/(h13 + h12). Hence CONDITION 1 of Lemma 10 is satisfied",
        "duchi2010.theorem11.cond1",
    ),
    E(
        "Theorem 11, proof, step 2",
        "a23^G2 <= (a13^G1 - a12^G1)/2 < a13^G1 - a12^G1 implies that G~ is a DAG satisfying the low-noise condition",
        "duchi2010.theorem11.low_noise",
        "duchi2010.theorem11.low_noise.corrected",
    ),
    E(
        "Section 2.3, Eq. (13)",
        "phi(alpha, G) = sum_{(i->j) in G} phi(alpha_i - alpha_j - h(a_ij^G))",
        reason="definition",
    ),
    E(
        "Section 2.3",
        "It is clear from the reduction to binary classification that h must be increasing for the loss in Eq. (13) to be edge-consistent",
        reason="out of scope: rests on the binary-classification reduction of Bartlett et al. (2006), not spelled out",
    ),
    E(
        "Theorem 12",
        "for h continuous and increasing with h(0) = 0. Even in the low-noise setting, for phi convex and satisfying Assumption A, phi is not edge-consistent",
        "duchi2010.theorem12.minimiser_outside_a.exp",
        "duchi2010.theorem12.minimiser_outside_a.logistic",
        "duchi2010.theorem12.minimiser_outside_a.squared_hinge",
        "duchi2010.theorem12.calibration.margin_hinge",
        "duchi2010.theorem12.calibration.margin_hinge.paper_p",
    ),
    E(
        "Theorem 12, proof, step 0",
        "since phi is differentiable almost everywhere (Rockafellar, 1970, Theorem 25.3), phi is differentiable at -c for some c > 0 in the range of h",
        reason="out of scope: a.e. differentiability of convex functions, quoted from Rockafellar (1970)",
    ),
    E(
        "Theorem 12, proof, weights",
        "choose constant edge weights a_12^G1 = a_13^G2 = a_23^G3 = a_31^G4 = h^-1(c) > 0",
        "duchi2010.theorem12.weight_names",
        "duchi2010.theorem12.weight_names.corrected",
    ),
    E(
        "Theorem 12, proof, step 1",
        "W(p, alpha) = p_G1 phi~(alpha1 - alpha2) + p_G2 phi~(alpha2 - alpha3) + p_G3 phi~(alpha1 - alpha3) + p_G4 phi~(alpha3 - alpha1) ... phi~'(0) = phi'(-c) < 0",
        "duchi2010.theorem12.w_form",
        "duchi2010.audit.theorem12.shifted_slope_negative",
    ),
    E(
        "Theorem 12, proof, step 2",
        "a13 - a31 = h^-1(c)(p_G3 - p_G4) >= h^-1(c)(p_G1 + p_G2) = a12 + a23 > 0, so G~ is a DAG satisfying the low-noise condition",
        "duchi2010.theorem12.low_noise",
        "duchi2010.theorem12.low_noise_tight",
    ),
    E("Theorem 12, proof, step 3", "However, p_G2 < p_G4 p_G1/(p_G3 + p_G1)", "duchi2010.theorem12.cond1"),
    E(
        "Section 3, Eq. (14)",
        "phi(alpha, G) = sum_{(i->j) in G} a_ij^G (alpha_j - alpha_i) + nu sum_i r(alpha_i)",
        reason="definition",
    ),
    E(
        "Section 3, after Eq. (14)",
        "These conditions imply that the loss of Eq. (14) is bounded below",
        reason="not checkable: a statement about every strictly convex 1-coercive r",
    ),
    E(
        "Theorem 13",
        "If the pair (G, p) induces a difference graph G~ that is a DAG, then W*(p) < inf {...} <=> sum_j a_ij - a_ji > sum_j a_kj - a_jk for i, k s.t. a_ik > a_ki",
        "duchi2010.theorem13.strictly_convex_r",
        "duchi2010.theorem13.strictly_convex_r.corrected",
        "duchi2010.theorem13.calibration.dag_and_eq16.m3",
        "duchi2010.theorem13.calibration.dag_and_eq16.m4",
    ),
    E(
        "Theorem 13, proof, step 1",
        "G~ is a DAG if and only if A(p) = {alpha : alpha_i > alpha_j for i < j with a_ij > a_ji, ...} (For a proof see Lemma 16",
        "duchi2010.lemma16",
    ),
    E(
        "Theorem 13, proof, step 2",
        "W(p, alpha) = sum_i (alpha_i sum_j (a_ji - a_ij) + nu r(alpha_i))",
        "duchi2010.theorem13.w_form",
    ),
    E(
        "Theorem 13, proof, Eq. (15)",
        "r'(alpha_i) = (sum_j a_ij - a_ji)/nu ... Optimality is therefore attained uniquely at alpha_i* = s((sum_j a_ij - a_ji)/nu)",
        "duchi2010.theorem13.eq15",
    ),
    E(
        "Theorem 13, proof, Eq. (16)",
        "the optimal alpha* of Eq. (15) is in A(p) if and only if (sum_j a_ij - a_ji)/nu > (sum_j a_kj - a_jk)/nu when a_ik > a_ki",
        "duchi2010.theorem13.eq16_iff_alpha_star_in_a",
        "duchi2010.theorem13.eq16_iff_alpha_star_in_a.corrected",
    ),
    E(
        "Theorem 13, proof, step 3",
        "for all alpha satisfying ||alpha - alpha*||_oo < min_{i,k: a_ik > a_ki} (alpha_i* - alpha_k*)/2, we have alpha in A(p)",
        "duchi2010.theorem13.neighbourhood",
    ),
    E(
        "Theorem 13, proof, step 4",
        "inf {W(p, alpha) : alpha not in A(p)} > W*(p) since alpha* is the unique global minimum",
        "duchi2010.theorem13.eq15.unique_minimum",
    ),
    E(
        "Section 3, before Lemma 14",
        "We now prove a simple lemma showing that low-noise settings satisfy the conditions of Theorem 13",
        "duchi2010.noise_map.low_noise_in_theorem13",
    ),
    E(
        "Lemma 14",
        "If (G, p) is low noise, then ... whenever a_ik > a_ki, sum_j a_ij - a_ji > sum_j a_kj - a_jk",
        "duchi2010.lemma14",
        "duchi2010.lemma14.all_m",
    ),
    E(
        "Lemma 14, proof, step 1",
        "There are two cases for a third node j: either a_ij - a_ji > 0 or a_ij - a_ji <= 0",
        "duchi2010.lemma14.proof.per_node",
    ),
    E(
        "Lemma 14, proof, step 2",
        "If (k -> j) in G~, the low-noise condition implies a_ij - a_ji >= a_kj - a_jk + a_ik - a_ki > a_kj - a_jk",
        "duchi2010.lemma14.proof.case_both_edges",
    ),
    E(
        "Lemma 14, proof, step 3",
        "Otherwise, a_kj - a_jk <= 0 < a_ij - a_ji",
        "duchi2010.lemma14.proof.case_edge_ij_only",
    ),
    E(
        "Lemma 14, proof, step 4",
        "If the inequality is strict, then (j -> i) in G~, so ... a_kj - a_jk < a_ij - a_ji",
        "duchi2010.lemma14.proof.case_reverse_edge",
    ),
    E(
        "Lemma 14, proof, step 5",
        "Otherwise, a_ij = a_ji, and the low-noise condition guarantees that (j -> k) not in G~, so a_kj - a_jk <= 0 = a_ij - a_ji",
        "duchi2010.lemma14.proof.case_tie",
        "duchi2010.lemma14.proof.case_tie.corrected",
    ),
    E(
        "Lemma 14, proof, step 6",
        "The inequality in the statement of the lemma is strict, because a_ik - a_ki > 0 = a_kk - a_kk",
        "duchi2010.lemma14.proof.strict",
    ),
    E("Section 3, after Lemma 14", "The converse of the lemma is, in general, false", "duchi2010.lemma14.converse"),
    E(
        "Corollary 15",
        "The linear loss of Eq. (14) is edge-consistent if (G, p) is low noise for all query-result pairs",
        "duchi2010.corollary15",
        "duchi2010.corollary15.all_m",
        "duchi2010.corollary15.calibration.low_noise.m3",
        "duchi2010.corollary15.calibration.low_noise.m4",
    ),
    E(
        "Section 3, after Corollary 15",
        "if r is not in the objective in Eq. (14), then phi(., G) can be sent to -oo with alpha not in A(p)",
        "duchi2010.section3.regulariser_needed",
        "duchi2010.section3.regulariser_every_p",
        "duchi2010.section3.regulariser_every_p.corrected",
    ),
    E(
        "Section 3.1",
        "we can construct a graph G = ({x_i, x_j}, {(i -> j)}) and set a_ij^G = y_i - y_j ... so that G~ satisfies the low-noise condition",
        "duchi2010.section3_1.cossock_zhang",
        "duchi2010.section3_1.cossock_zhang.printed_penalty",
        "duchi2010.section3_1.cossock_zhang.printed_penalty.corrected",
    ),
    E(
        "Section 3.1",
        "a low-noise setting in which the difference graph G~ consists of edges (1 -> 2) and (1 -> 3). Our losses are indifferent to whether we order result 2 ahead of or behind 3",
        "duchi2010.section3_1.indifferent_2_3",
    ),
    E(
        "Section 3.1",
        "and this cannot be captured by an order-preserving probability space",
        reason="out of scope: needs the order-preserving probability spaces of Xia et al. (2008), Def. 3, which this paper cites without stating",
    ),
    E(
        "Section 3.1",
        "The associated difference graph G~ will have edge weights a12 = p_pi - w2 p_pihat, a13 = w2 p_pi - p_pihat, and a23 = p_pi + p_pihat",
        "duchi2010.section3_1.order_preserving.weights",
    ),
    E(
        "Section 3.1",
        "we must have w2 p_pi - p_pihat = a13 >= a12 + a23 ... That is, w2 >= 2",
        "duchi2010.section3_1.order_preserving.w2_at_least_2",
    ),
    E(
        "Section 3.1",
        "taking p_pi -> .5 and p_pihat -> .5, we have w2 <= 1. Thus no construction that assigns a fixed weight ...",
        "duchi2010.section3_1.order_preserving.no_fixed_w2",
    ),
    E(
        "Section 3.1",
        "our general consistency result, Theorem 6, implicitly handles order-preserving probability spaces",
        reason="prose",
    ),
    E(
        "Section 4",
        "Each sampled pair of rated movies then gets a per-user weight a_ij^u ... the difference in their ratings. As discussed in Sec. 3.1, this guarantees that (G, p) is low noise",
        "duchi2010.section3_1.cossock_zhang",
    ),
    E(
        "Section 4",
        "the surrogates are sum a_ij^u w^T(d(x_j, u) - d(x_i, u)) + theta sum (w^T d(x_i, u))^2, ... hinge ..., ... logistic",
        reason="definition",
    ),
    E(
        "Table 1, rows 1-5",
        "Train pairs 20000 ... 160000: Hinge, Logistic, Linear test losses (standard errors)",
        reason="out of scope: experimental measurements on MovieLens",
    ),
    E(
        "Section 4, after Table 1",
        "the linear loss always achieves the lowest test loss averaged across all tests",
        "duchi2010.section4.table1_linear_lowest",
    ),
    E(
        "Section 4, after Table 1",
        "In fact, it achieved the lowest test loss of all three methods in all but one of our experimental runs",
        reason="out of scope: the losses of the individual runs are not printed",
    ),
    E("Section 4", "there is a closed form for the minimizer of the linear loss", reason="prose"),
    E(
        "Appendix A, proof of Lemma 1",
        "zeta(E(l(p, f) - inf l)) <= E zeta(l(p, f) - inf l) <= E H(...) <= ... = R_phi(f) - R_phi*",
        reason="not checkable: Jensen's inequality over arbitrary distributions (measure theory)",
    ),
    E(
        "Appendix A, proof of Lemma 3",
        "limsup_n W*(p^(n)) <= W*(p) ... liminf_n W*(p^(n)) >= W*(p)",
        reason="not checkable: uniform convergence on balls for an arbitrary continuous surrogate",
    ),
    E(
        "Appendix A, proof of Lemma 3, step 1",
        "Since sum_G p_G^(n) phi(alpha, G) -> sum_G phi(alpha, G) uniformly in alpha in B_r (we have equicontinuity)",
        "duchi2010.lemma3.proof.limit",
        "duchi2010.lemma3.proof.limit.corrected",
    ),
    E(
        "Appendix A, proof of Lemma 4",
        "there is a subsequence alpha^(n_j) and eps > 0 such that l(p, alpha^(n_j)) >= l(p, alpha) + eps ... The W(p, alpha^(n_j)) are thus bounded uniformly away from W*(p), a contradiction",
        reason="not checkable: a limit argument for an arbitrary edge-consistent surrogate",
    ),
    E(
        "Appendix A, proof of Lemma 4, step 2",
        "W(p, alpha^(n_j)) > inf {W(p, alpha) : alpha not in A(p)} > W*(p)",
        "duchi2010.lemma4.proof.strict",
        "duchi2010.lemma4.proof.strict.corrected",
    ),
    E(
        "Appendix A, proof of Lemma 5",
        "Because Delta is compact, we choose a convergent subsequence ...",
        reason="not checkable: a compactness argument for an arbitrary surrogate",
    ),
    E(
        "Appendix A, proof of Lemma 7, step 1",
        "finding an ordering of the nodes i_1, ..., i_n ... such that the sum of the back edges is less than k, i.e., sum_{i >= j} a_ij <= k",
        "duchi2010.audit.lemma7.less_than_k",
        "duchi2010.audit.lemma7.less_than_k.corrected",
    ),
    E(
        "Appendix A, proof of Lemma 7",
        "there is a alpha such that l(p, alpha) <= k if and only if there is a feedback arc set E' with |E'| <= k",
        "duchi2010.lemma7.reduction",
        "duchi2010.lemma7.min_risk_is_feedback_arc_set",
        "duchi2010.lemma7.all_weights",
    ),
    E(
        "Appendix A, proof of Lemma 9, step 1",
        "Let (alpha^(n)) be a sequence with alpha^(n) in A(p) = {alpha : alpha_1 > alpha_2 > alpha_3} such that W(p, alpha^(n)) -> W*(p)",
        "duchi2010.lemma9.proof.inf_over_a",
        "duchi2010.lemma9.proof.sequence_in_a",
        "duchi2010.lemma9.proof.sequence_in_a.corrected",
    ),
    E(
        "Appendix A, proof of Lemma 9, step 2",
        "suppose that limsup_n (alpha_i^(n) - alpha_j^(n)) = oo ... there must be some C with |alpha_i^(n) - alpha_j^(n)| <= C for all i, j, n",
        reason="not checkable: a limit argument for every convex phi satisfying Assumption A; its algebraic steps are checked (steps 2a, 2b) and its use of Assumption A in step 3",
    ),
    E(
        "Appendix A, proof of Lemma 9, step 2a",
        "Since alpha^(n) in A(p), this implies limsup_n (alpha_1^(n) - alpha_3^(n)) = oo",
        "duchi2010.audit.lemma9.largest_gap",
    ),
    E(
        "Appendix A, proof of Lemma 9, step 2b",
        "But phi is convex with phi'(0) < 0 and so is unbounded above",
        "duchi2010.audit.lemma9.unbounded_above",
    ),
    E(
        "Appendix A, proof of Lemma 9, step 3",
        "The assumption that phi'_oo(1) = 0 or phi'_oo(-1) = -oo then implies that limsup_n W(p, alpha^(n)) = oo",
        "duchi2010.lemma9.proof.assumption_a",
        "duchi2010.lemma9.proof.assumption_a.corrected",
    ),
    E(
        "Appendix A, proof of Lemma 9, step 4",
        "W(p, alpha) is shift invariant with respect to alpha, so without loss of generality we can let alpha_3^(n) = 0",
        "duchi2010.lemma9.proof.shift_invariance",
    ),
    E(
        "Appendix A, proof of Lemma 9, step 5",
        "Convex functions are continuous on compact domains (Rockafellar, 1970, Chapter 10), and inf_{alpha: ||alpha||_oo <= C} W(p, alpha) = W*(p)",
        reason="out of scope: continuity of convex functions, quoted from Rockafellar (1970)",
    ),
    E(
        "Lemma 16",
        "G~ is a DAG if and only if A(p) = {alpha : alpha_i > alpha_j for i < j with a_ij > a_ji, alpha_i >= alpha_j for i > j with a_ij > a_ji}",
        "duchi2010.lemma16",
        "duchi2010.lemma16.all_weights",
    ),
    E(
        "Lemma 16, proof, step 1",
        "l(p, alpha) = sum_{i=1}^m sum_{j=i+1}^m (a_ij - a_ji) 1(alpha_i <= alpha_j) + a_ji",
        "duchi2010.lemma16.proof.rewrite",
    ),
    E(
        "Lemma 16, proof, step 2",
        "Clearly, if a_ij > a_ji for some i < j, then any minimizing alpha must satisfy alpha_i > alpha_j. If a_ij - a_ji = 0 ..., then the relative order ... does not affect l",
        "duchi2010.lemma16.proof.sorted_minimisers",
    ),
    E(
        "Lemma 16, proof, step 3",
        "Let the nodes on the path from i to j be l_1, ..., l_k and from j to i be l'_1, ..., l'_k. ... alpha_i >= alpha_l1 >= ... >= alpha_j >= ... >= alpha_i. One of the inequalities must be strict",
        "duchi2010.lemma16",
        "duchi2010.audit.lemma16.path_lengths",
        "duchi2010.audit.lemma16.path_lengths.corrected",
        "duchi2010.audit.lemma16.cycle_has_ascending_edge",
    ),
]
