# ruff: noqa: E501  (one-line quotes from the papers)
"""Coverage map of Ramaswamy, Agarwal & Tewari (2013), "Convex Calibrated Surrogates for Low-Rank
Loss Matrices with Applications to Subset Ranking Losses" (NIPS), read from start to end; the
appendix proofs come last, as printed."""

from symcal.coverage.entry import E

PAPER = "ramaswamy2013"
SOURCE = "ramaswamy-agarwal-tewari-2013-low-rank-loss-matrices.txt"

EXTERNAL_LABELS: dict[str, str] = {}

ENTRIES = [
    E(
        "Section 1",
        "We also give a family of convex score-based surrogates calibrated with the PD loss under certain noise conditions, generalizing the surrogate and conditions of Duchi et al. [11]",
        "ramaswamy2013.noise_map.low_noise_in_p_f_dmj",
    ),
    E(
        "Section 2, Setup",
        "er_D^l[h] = E_(X,Y)~D [l(Y, h(X))] ... said to be consistent w.r.t. l if ... er_D^l[h_m] ->P er_D^{l,*}",
        reason="definition",
    ),
    E("Section 2, Setup", "a surrogate loss function psi : Y x R^d -> R_+ ... h(x) = pred(f(x))", reason="definition"),
    E(
        "Section 2",
        "Delta_n = {p in R_+^n : sum_i p_i = 1} ... an n x k matrix with elements l_yt = l(y, t)",
        reason="definition",
    ),
    E(
        "Definition 1",
        "A surrogate loss psi ... is said to be calibrated w.r.t. l over P if there exists a function pred ...",
        reason="definition",
    ),
    E(
        "Theorem 2",
        "psi is calibrated w.r.t. l over Delta_n iff there exists a function pred ... er_D^psi[f_m] ->P er_D^{psi,*} implies er_D^l[pred o f_m] ->P er_D^{l,*}",
        reason="out of scope: result of [6, 7, 16] quoted without proof; convergence in probability over all distributions",
    ),
    E(
        "Section 2, after Theorem 2",
        "one can extend the above result to show that for P subset Delta_n, psi is calibrated w.r.t. l over P iff ...",
        reason="not checkable: an asymptotic equivalence over all distributions, stated without proof",
    ),
    E(
        "Section 2, Subset ranking",
        "labels consist of binary or multi-level relevance judgements ... T = S_r",
        reason="definition",
    ),
    E(
        "Theorem 3",
        "Let l(y, t) = sum_i alpha_yi beta_ti + c ... psi*(y, u) = sum_i (u_i - alpha_yi)^2 ... Then (psi*_l, pred*_l) is l-calibrated",
        "ramaswamy2013.theorem3.calibration",
        "ramaswamy2013.theorem3.calibration.whole_simplex.precision_r3",
        "ramaswamy2013.theorem3.calibration.whole_simplex.precision_r4",
        "ramaswamy2013.theorem3.calibration.whole_simplex.eru_r3",
        "ramaswamy2013.theorem3.calibration.whole_simplex.eru_r4",
        "ramaswamy2013.theorem3.calibration.whole_simplex.map_r3",
        "ramaswamy2013.theorem3.calibration.whole_simplex.map_r4",
        "ramaswamy2013.theorem3.calibration.whole_simplex.pd_r3",
        "ramaswamy2013.theorem3.calibration.whole_simplex.generic_4x3",
    ),
    E(
        "Theorem 3, proof, step 1",
        "Minimizing this over u yields that u^p is the unique minimizer of p^T psi*(u)",
        "ramaswamy2013.theorem3.surrogate_minimiser",
    ),
    E(
        "Theorem 3, proof, step 2",
        "p^T l_t = sum_y p_y (sum_i alpha_yi beta_ti + c) = (u^p)^T beta_t + c",
        "ramaswamy2013.theorem3.risk_identity",
    ),
    E(
        "Theorem 3, proof",
        "regret_p(t) = p^T l_t - min_t' p^T l_t' = (u^p)^T beta_t - min_t' (u^p)^T beta_t'",
        reason="definition",
    ),
    E(
        "Theorem 3, proof, step 3",
        "the mapping u -> regret_p(pred*(u)) is continuous at u = u^p",
        reason="not checkable: a continuity argument over sequences u_m -> u^p for arbitrary beta",
    ),
    E(
        "Theorem 3, proof, step 4",
        "the last inequality holds since p^T psi*(u) is a strictly convex function of u and u^p is its unique minimizer",
        "ramaswamy2013.theorem3.surrogate_minimiser",
    ),
    E(
        "Section 3, after Theorem 3",
        "the surrogate they gave was defined on a surrogate space of dimension n - 1 ... any loss matrix of rank d has a d-dimensional convex calibrated surrogate",
        reason="out of scope: results of Ramaswamy and Agarwal [16], quoted",
    ),
    E(
        "Section 4",
        "l_P@q(y, sigma) = 1 - (1/q) sum_{i<=q} y_{sigma^-1(i)} = 1 - (1/q) sum_i y_i 1(sigma(i) <= q)",
        "ramaswamy2013.precision.two_forms",
    ),
    E(
        "Section 4",
        "Therefore, by Theorem 3, for the r-dimensional surrogate psi*_P@q ... (psi*_P@q, pred*_P@q) is l_P@q-calibrated",
        "ramaswamy2013.precision.decomposition",
        "ramaswamy2013.precision.rank",
        "ramaswamy2013.precision.cc_dim_upper",
        "ramaswamy2013.precision.cc_dim_exact",
    ),
    E(
        "Section 4",
        "any permutation sigma which places the top q documents sorted in decreasing order of scores u_i in the top q positions achieves the maximum",
        "ramaswamy2013.precision.pred_top_q",
        "ramaswamy2013.precision.pred_top_q.all_u",
    ),
    E(
        "Section 4",
        "the popular winner-take-all (WTA) loss ... is simply a special case of the above loss with q = 1",
        "ramaswamy2013.wta.is_precision_at_1",
    ),
    E("Section 5", "l_ERU(y, sigma) = z - sum_i max(y_i - v, 0) 2^((1 - sigma(i))/(w - 1))", reason="definition"),
    E(
        "Section 5",
        "Thus, by Theorem 3, for the r-dimensional surrogate psi*_ERU ... (psi*_ERU, pred*_ERU) is l_ERU-calibrated",
        "ramaswamy2013.eru.decomposition",
        "ramaswamy2013.eru.rank",
        "ramaswamy2013.eru.cc_dim_upper",
        "ramaswamy2013.eru.cc_dim_exact",
    ),
    E(
        "Section 5",
        "any permutation sigma satisfying the condition u_i > u_j => sigma(i) < sigma(j) achieves the maximum in pred*_ERU(u)",
        "ramaswamy2013.eru.pred_sorting",
        "ramaswamy2013.eru.pred_sorting.corrected",
        "ramaswamy2013.eru.pred_sorting.corrected.all_u",
    ),
    E(
        "Section 6",
        "l_MAP(y, sigma) = 1 - 1/|{gamma : y_gamma = 1}| sum_{i: y_i = 1} 1/sigma(i) sum_{j <= sigma(i)} y_{sigma^-1(j)}",
        reason="definition",
    ),
    E(
        "Section 6",
        "It was recently shown that there cannot exist any r-dimensional convex, calibrated surrogates for the MAP loss [15]",
        "ramaswamy2013.map.no_r_dimensional_surrogate",
        "ramaswamy2013.map.no_r_dimensional_surrogate.corrected",
    ),
    E(
        "Section 6",
        "l_MAP(y, sigma) = 1 - 1/sum y_gamma sum_i sum_{j<=i} y_{sigma^-1(i)} y_{sigma^-1(j)}/i = 1 - ... y_i y_j / max(sigma(i), sigma(j))",
        "ramaswamy2013.map.rewrite.positions",
        "ramaswamy2013.map.rewrite.pairs",
    ),
    E(
        "Section 6",
        "Thus, by Theorem 3, for the r(r+1)/2-dimensional surrogate psi*_MAP ... (psi*_MAP, pred*_MAP) is l_MAP-calibrated",
        "ramaswamy2013.map.decomposition",
        "ramaswamy2013.map.zero_label",
        "ramaswamy2013.map.zero_label.corrected",
        "ramaswamy2013.map.rank_bound",
        "ramaswamy2013.map.rank_exact",
        "ramaswamy2013.map.cc_dim_upper",
        "ramaswamy2013.map.cc_dim_exact",
    ),
    E(
        "Section 6",
        "the optimization problem associated with computing pred*_MAP(u) above can be written as a quadratic assignment problem (QAP)",
        "ramaswamy2013.map.pred_is_qap",
    ),
    E(
        "Section 6",
        "We conjecture that the QAP associated with the mapping pred*_MAP above is also NP-hard",
        reason="not checkable: a complexity conjecture",
    ),
    E(
        "Section 6",
        "under certain conditions on the probability distribution, the surrogate psi*_MAP together with this mapping is still calibrated",
        "ramaswamy2013.theorem4.without_p_reinforce",
    ),
    E("Section 6", "pred-bar_MAP(u) in {sigma in S_r : u_ii > u_jj => sigma(i) < sigma(j)}", reason="definition"),
    E(
        "Section 6",
        "u^p_ij = E_{Y~p}[Y_i Y_j / sum_gamma Y_gamma] ... P_reinforce = {p : u_ii >= u_jj => u_ii >= u_jj + sum_gamma (u_j gamma - u_i gamma)_+}",
        reason="definition",
    ),
    E("Theorem 4", "(psi*_MAP, pred-bar_MAP) is (l_MAP, P_reinforce)-calibrated", "ramaswamy2013.theorem4",
      "ramaswamy2013.theorem4.calibration.p_reinforce.r3", "ramaswamy2013.theorem4.calibration.p_reinforce.r4"),
    E(
        "Section 6, after Theorem 4",
        "The noise conditions P_reinforce can be viewed as basically enforcing that the diagonal elements dominate",
        reason="prose",
    ),
    E(
        "Corollary 5",
        "Let psi~_MAP(y, u~) = sum_i (u~_i - y_i / sum_gamma y_gamma)^2 ... Then (psi~_MAP, pred~_MAP) is (l_MAP, P_reinforce)-calibrated",
        "ramaswamy2013.corollary5",
        "ramaswamy2013.corollary5.u_tilde_is_diagonal",
        "ramaswamy2013.corollary5.calibration.p_reinforce.r3",
        "ramaswamy2013.corollary5.calibration.p_reinforce.r4",
    ),
    E(
        "Section 6, after Corollary 5",
        "s_i(y) = y_i / (sum_gamma y_gamma) is a 'standardization function' for the MAP loss over P_reinforce, and therefore ... any 'order-preserving surrogate' ... is also calibrated",
        reason="out of scope: rests on Buffoni et al. (2011) [13]'s standardization result, not restated here",
    ),
    E("Section 7", "l_PD(y, sigma) = sum_i sum_{j != i} y_ij 1(sigma(i) > sigma(j))", reason="definition"),
    E(
        "Section 7",
        "there cannot exist any r-dimensional convex, calibrated surrogates for the PD loss [15, 16]",
        "ramaswamy2013.pd.no_r_dimensional_surrogate",
        "ramaswamy2013.pd.no_r_dimensional_surrogate.corrected",
    ),
    E(
        "Section 7, Eq. (1)",
        "psi*_PD(y, u) = sum_i sum_{j != i} (u_ij - y_ij)^2; pred*_PD(u) in argmin sum u_ij 1(sigma(i) > sigma(j))",
        "ramaswamy2013.pd.decomposition",
    ),
    E(
        "Section 7",
        "in fact the loss matrix l_PD has rank at most r(r-1)/2, allowing for an r(r-1)/2-dimensional surrogate",
        "ramaswamy2013.pd.rank_bound",
        "ramaswamy2013.pd.rank_bound.corrected",
        "ramaswamy2013.pd.affine_dimension",
        "ramaswamy2013.pd.total_orders_affine",
        "ramaswamy2013.pd.half_dimensional_surrogate",
        "ramaswamy2013.pd.cc_dim_upper",
        "ramaswamy2013.pd.cc_dim_exact",
    ),
    E(
        "Section 7",
        "the optimization problem associated with computing pred*_PD(u) above is a minimum weighted feedback arc set (MWFAS) problem",
        "ramaswamy2013.pd.pred_is_mwfas",
    ),
    E(
        "Section 7",
        "This condition is more general (i.e. encompasses a larger set of probability distributions) than those associated with the score-based surrogates",
        "ramaswamy2013.noise_map.p_dag_in_p_f_dmj",
        "ramaswamy2013.noise_map.p_dag_in_p_f_out",
    ),
    E(
        "Theorem 6",
        "psi_f(y, u) = sum_i (u_i - f_i(y))^2 ... P_f = {p : E[Y_ij] > E[Y_ji] => E[f_i(Y)] > E[f_j(Y)]}. Then (psi_f, pred) is (l_PD, P_f)-calibrated",
        "ramaswamy2013.theorem6",
        "ramaswamy2013.theorem6.calibration.p_f.duchi_r3",
        "ramaswamy2013.theorem6.calibration.p_f.out_weight_r3",
        "ramaswamy2013.theorem6.calibration.p_f.duchi_r4_total_orders",
        "ramaswamy2013.theorem6.calibration.p_f.out_weight_r4_total_orders",
    ),
    E("Section 7.1", "psi_DMJ(y, u) = sum_i sum_{j != i} y_ij (u_j - u_i) + nu sum_i lambda(u_i)", reason="definition"),
    E(
        "Section 7.1",
        "Taking lambda(z) = z^2 and nu = 1/2 gives a special case ... f_i(y) = sum_{j != i} (y_ij - y_ji)",
        "ramaswamy2013.theorem6.dmj_special_case",
    ),
    E(
        "Section 7.1",
        "the set of noise conditions under which the surrogate psi_DMJ is shown to be calibrated ... in Duchi et al. [11] is exactly the set P_f",
        "ramaswamy2013.theorem6.dmj_noise_set",
        "ramaswamy2013.noise_map.p_f_dmj_in_theorem13",
        "ramaswamy2013.noise_map.theorem13_in_p_f_dmj",
    ),
    E("Section 7.1", "f can be viewed as a 'standardization function' [13] for the PD loss over P_f", reason="prose"),
    E(
        "Section 7.2, Algorithm 1",
        "Construct a directed graph over [r] with edge (i, j) having weight (u_ij - u_ji)_+ ... delete them one by one (smallest weight first)",
        reason="definition",
    ),
    E("Section 7.2", "E^p = {(i, j) : E[Y_ij] > E[Y_ji]} ... P_DAG = {p : ([r], E^p) is a DAG}", reason="definition"),
    E("Theorem 7", "(psi*_PD, pred-bar_PD) is (l_PD, P_DAG)-calibrated", "ramaswamy2013.theorem7",
      "ramaswamy2013.theorem7.calibration.p_dag.r3", "ramaswamy2013.theorem7.algorithm1_regions",
      "ramaswamy2013.theorem7.calibration.whole_simplex.r3"),
    E(
        "Section 7.2, after Theorem 7",
        "It is easy to see that P_DAG contains P_f for all f",
        "ramaswamy2013.theorem7.p_dag_contains_p_f",
    ),
    E(
        "Section 7.2, after Theorem 7",
        "calibrated for the PD loss under a broader set of conditions than the previous surrogates",
        "ramaswamy2013.theorem7.inclusion_strict",
    ),
    E(
        "Appendix, proof of Theorem 4, step 1",
        "u^p is the unique minimizer of p^T psi*_MAP(u) over u in R^{r(r+1)/2}",
        "ramaswamy2013.theorem4.proof.minimiser",
    ),
    E(
        "Appendix, proof of Theorem 4, Eq. (2)",
        "p^T l_sigma = 1 - sum_i sum_{j<=i} u^p_ij / max(sigma(i), sigma(j)) = 1 - sum_i (1/i) sum_{j<=i} u^p_{sigma^-1(i) sigma^-1(j)}",
        "ramaswamy2013.theorem4.eq2",
    ),
    E(
        "Appendix, proof of Theorem 4",
        "Pi*(p) = argmin_sigma p^T l_sigma; Pi(p) = {sigma : u^p_ii > u^p_jj => sigma(i) < sigma(j)}",
        reason="definition",
    ),
    E(
        "Appendix, proof of Theorem 4, step 2",
        "there exists eps > 0 such that ... ||u - u^p|| < eps => pred-bar_MAP(u) in Pi(p)",
        reason="not checkable: an openness argument over all u near u^p",
    ),
    E(
        "Appendix, proof of Theorem 4, step 3",
        "inf_{u : pred-bar(u) not in argmin} p^T psi*_MAP(u) >= ... > inf_u p^T psi*_MAP(u)",
        "ramaswamy2013.theorem4",
    ),
    E("Lemma 8", "Let p in P_reinforce ... Then Pi(p) subset of Pi*(p)", "ramaswamy2013.lemma8",
      "ramaswamy2013.lemma8.p_reinforce.r3", "ramaswamy2013.lemma8.p_reinforce.r4"),
    E(
        "Appendix, proof of Lemma 8, step 1",
        "all permutations sigma in Pi(p) have the same value of p^T l_sigma",
        "ramaswamy2013.lemma8.proof.equal_risk_on_pi",
    ),
    E(
        "Appendix, proof of Lemma 8, step 2",
        "p^T l_sigma0 - p^T l_sigma1 = ... >= (1/c - 1/(c+1)) (u_bb - (u_aa + sum_{j not in {c, c+1}} (u_a pi1(j) - u_b pi1(j)))) >= 0",
        "ramaswamy2013.lemma8.proof.swap_step",
        "ramaswamy2013.lemma8.proof.swap_step.corrected",
    ),
    E(
        "Appendix, proof of Lemma 8, step 3",
        "the number of adjacent pairs in sigma1 that disagree with the ordering according to u_ii is one less than that in sigma0 ... (with M <= (r choose 2))",
        "ramaswamy2013.lemma8.proof.adjacent_count",
        "ramaswamy2013.lemma8.proof.adjacent_count.corrected",
    ),
    E(
        "Appendix, proof of Theorem 6, step 1",
        "u^p = E_{Y~p}[f(Y)] ... is the unique minimizer of p^T psi_f(u)",
        "ramaswamy2013.theorem6.proof.minimiser",
    ),
    E(
        "Appendix, proof of Theorem 6, step 2",
        "argmin_sigma p^T l_sigma = argmin_sigma sum_i sum_{j<i} (y^p_ij - y^p_ji) 1(sigma(i) > sigma(j))",
        "ramaswamy2013.theorem6.proof.pairwise_form",
    ),
    E(
        "Appendix, proof of Theorem 6, step 3",
        "y^p_ij > y^p_ji => u^p_i > u^p_j => sigma(i) < sigma(j) ... This clearly gives sigma in Pi*(p)",
        "ramaswamy2013.theorem6",
    ),
    E(
        "Appendix, proof of Theorem 7, step 1",
        "u^p = E_{Y~p}[Y_ij] ... is the unique minimizer of p^T psi*_PD(u)",
        "ramaswamy2013.theorem7.proof.minimiser",
    ),
    E(
        "Appendix, proof of Theorem 7",
        "Pi*(p) = argmin_sigma p^T l_sigma = argmin_sigma sum_i sum_{j<i} (u^p_ij - u^p_ji) 1(sigma(i) > sigma(j))",
        "ramaswamy2013.theorem6.proof.pairwise_form",
    ),
    E(
        "Appendix, proof of Theorem 7, step 2",
        "the graph with edge weights (u^p_ij - u^p_ji)_+ ... is a DAG, and therefore sigma must agree with the edges in this graph ... sigma in Pi*(p)",
        "ramaswamy2013.theorem7",
    ),
    E(
        "Appendix, proof of Theorem 7",
        "In order to show that inf_{u in A(p)} p^T psi*_PD(u) > inf_{u in R^r} p^T psi*_PD(u)",
        "ramaswamy2013.theorem7.proof.inf_space",
        "ramaswamy2013.theorem7.proof.inf_space.corrected",
    ),
    E(
        "Appendix, proof of Theorem 7, step 3",
        "for large enough m, the directed graph induced by u_m contains the DAG induced by u^p, and any edge ... will not be deleted by the algorithm",
        reason="not checkable: a limit argument over sequences u_m -> u^p",
    ),
]
