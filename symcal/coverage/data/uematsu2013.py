# ruff: noqa: E501  (one-line quotes from the papers)
"""Coverage map of Uematsu & Lee (2013), "Statistical Optimality in Multipartite Ranking and
Ordinal Regression" (OSU Technical Report 873), read from start to end; the appendix proofs come
last, as printed."""

from symcal.coverage.entry import E

PAPER = "uematsu2013"
SOURCE = "uematsu-lee-2013-multipartite-ranking.txt"

EXTERNAL_LABELS = {
    "Lemma 10": "Duchi et al. (2010), cited in Section 5.1",
    "Proposition 7": "Clemencon and Vayatis (2008), cited in Section 5.2",
}

_EXPERIMENT = "out of scope: experimental measurements (MovieLens)"

ENTRIES = [
    E("Section 2, Eq. (1)", "L_0(f; x, x') = I(f(x) < f(x')) + 1/2 I(f(x) = f(x'))", reason="definition"),
    E(
        "Section 2",
        "R_0(f) = P(f(X) < f(X') | Y = 1, Y' = -1) + 1/2 P(f(X) = f(X') | Y = 1, Y' = -1)",
        reason="definition",
    ),
    E(
        "Theorem 1",
        "Let f_0^*(x) = g_+(x)/g_-(x). For any ranking function f, R_0(f_0^*) <= R_0(f)",
        "uematsu2013.theorem1",
    ),
    E(
        "Section 2, after Theorem 1",
        "the optimal ranking function can be represented by p_1(x)/(1 - p_1(x)), which is proportional to g_+(x)/g_-(x)",
        "uematsu2013.section2.odds_proportional_to_likelihood_ratio",
    ),
    E(
        "Section 2",
        "c^*(x) = sign[log{p_1(x)/(1 - p_1(x))}] achieves the Bayes risk in classification",
        "uematsu2013.section2.bayes_classifier",
    ),
    E(
        "Section 2",
        "E[Y|x] = P(Y = 1|x) - P(Y = -1|x), which can be expressed as 1 - 2{1 + p_1(x)/(1 - p_1(x))}^{-1}",
        "uematsu2013.section2.regression_identity",
    ),
    E("Section 2.1", "R_{n+,n-}(f) = 1/(n+ n-) sum_i sum_j l_0(f(x_i) - f(x'_j))", reason="definition"),
    E(
        "Theorem 2",
        "Suppose that l is convex, non-increasing, differentiable, and l'(0) < 0 ... g_+(x)/g_-(x) > g_+(z)/g_-(z) implies f^*(x) > f^*(z)",
        reason="out of scope: result of Uematsu and Lee (2011), quoted without proof",
    ),
    E(
        "Section 2.1, after Theorem 2",
        "l(s) = exp(-s) and l(s) = log(1 + exp(-s)) satisfy the conditions above ... the hinge loss ... does not satisfy the conditions",
        "uematsu2013.section2_1.exp_logistic_meet_theorem2",
        "uematsu2013.section2_1.hinge_not_differentiable",
    ),
    E("Section 3, Eq. (2)", "U_pairs(f) = 1/sum n_l' n_l sum_{y_i < y_j} I(f(x_i) < f(x_j))", "uematsu2013.section3.eq2.normaliser"),
    E("Section 3, Eq. (3)", "U_ovo(f) = 2/(K(K-1)) sum_{l' < l} A_l'l", "uematsu2013.section3.eq3.normaliser"),
    E("Section 3, Eq. (4)", "U_cons(f) = 1/(K-1) sum_l B_l", "uematsu2013.section3.eq4.normaliser"),
    E(
        "Section 3, Eq. (5)",
        "L_0(f; (x, y), (x', y')) = c_y'y [I(f(x) < f(x')) + 1/2 I(f(x) = f(x'))]",
        reason="definition",
    ),
    E(
        "Section 3",
        "R_0(f; c) = E[L_0 | Y > Y'] = sum c_ji P(f(X) < f(X') | Y = i, Y' = j) P(Y = i, Y' = j)/P(Y > Y') + ...",
        reason="definition",
    ),
    E("Section 3", "When c_ji = I(j < i), R^_0(f; c) = R^_pairs(f)", "uematsu2013.section3.pairs_costs"),
    E(
        "Section 3",
        "if c_ji = 2/(K(K-1)) (sum n_l' n_l / (n_i n_j)), R^_0(f; c) = R^_ovo(f)",
        "uematsu2013.section3.ovo_costs",
    ),
    E(
        "Section 3",
        "if c_ji = 1/(K-1) (sum n_l' n_l) sum_{l=j}^{i-1} (...)^{-1}, R^_0(f; c) = R^_cons(f)",
        "uematsu2013.section3.cons_costs",
    ),
    E("Section 3", "used |y - y'| as the preference. This corresponds to the cost of c_y'y = y - y'", reason="prose"),
    E(
        "Theorem 3 (i)",
        "When K = 3, let f_0^*(x) := (c12 P(Y=2|x) + c13 P(Y=3|x)) / (c13 P(Y=1|x) + c23 P(Y=2|x)). Then for any ranking function f, R_0(f_0^*; c) <= R_0(f; c)",
        "uematsu2013.theorem3.i",
        "uematsu2013.theorem3.i.corrected",
    ),
    E(
        "Theorem 3 (ii)",
        "If c_1K c_ji = c_1i c_jK - c_1j c_iK for all 1 <= j < i <= K, then for any ranking function f, R_0(f_0^*; c) <= R_0(f; c)",
        "uematsu2013.theorem3.ii",
        "uematsu2013.theorem3.ii.corrected",
        "uematsu2013.theorem3.ii.condition_needed",
    ),
    E(
        "Section 3, after Theorem 3",
        "Under the natural assumption of c_11 = c_KK = 0 ... f_0^*(x) = E(c_1Y | X = x) / E(c_YK | X = x)",
        "uematsu2013.section3.f0_expected_costs",
    ),
    E(
        "Section 3, after Theorem 3",
        "For example, c_ji = (i - j) I(i > j) considered by Agarwal and Niyogi (2009) meets the condition",
        "uematsu2013.theorem3.condition.linear",
    ),
    E(
        "Section 3, after Theorem 3",
        "c_ji/c_1K = (c_jK/c_1K)(c_iK/c_1K)(c_1i/c_iK - c_1j/c_jK)",
        "uematsu2013.theorem3.condition.normalised",
    ),
    E(
        "Section 3, after Theorem 3",
        "the restriction in the theorem becomes void when i = K",
        "uematsu2013.theorem3.condition.void_at_i_eq_k",
    ),
    E(
        "Section 3, after Theorem 3",
        "the relative spacing induced in the cost space is additive",
        "uematsu2013.theorem3.condition.additive_spacing",
    ),
    E(
        "Section 3, before Corollary 1",
        "we can treat the cost scheme in Theorem 3 generally given in the form of c_ji = w_i w_j (s_i - s_j) I(i > j)",
        "uematsu2013.theorem3.condition.is_corollary1_family",
    ),
    E(
        "Corollary 1",
        "Suppose that c_ji = w_i w_j (s_i - s_j) I(i > j) for some increasing {s_j} and non-negative {w_j} ... R_0(f_0^*; c) <= R_0(f; c)",
        "uematsu2013.corollary1",
    ),
    E(
        "Section 3, after Corollary 1",
        "when s_j = j (a linear scale) and w_j = 1, c_ji = (i - j) I(i > j) and hence f_0^*(x) = E[Y|X = x]",
        "uematsu2013.corollary1.expected_relevance",
    ),
    E(
        "Section 3, after Corollary 1",
        "the weights w_j have the effect of adjusting the conditional probability of each category",
        reason="prose",
    ),
    E("Section 4", "l(f, {theta_i}; x, y) = l(f(x) - theta_{y-1}) + l(theta_y - f(x))", reason="definition"),
    E(
        "Section 4",
        "sum_j p_j(x){l(theta_j - f(x)) + l(f(x) - theta_{j-1})} = p_1 l(f(x) + oo) + p_K l(oo - f(x)) + sum_{j=1}^{K-1} p_j l(theta_j - f(x)) + p_{j+1} l(f(x) - theta_j)",
        "uematsu2013.section4.conditional_risk_reindexed",
    ),
    E(
        "Section 4, Eq. (6)",
        "d/dt (sum p_j l(theta_j - t) + p_{j+1} l(t - theta_j)) at t = t* = sum p_{j+1} l'(theta_j - t*) - sum p_j l'(theta_j - t*) = 0",
        "uematsu2013.section4.eq6",
        "uematsu2013.section4.eq6.corrected",
    ),
    E(
        "Section 4.1, Eq. (7)",
        "f^*(x) = 1/2 log (sum_{i=2}^K P(Y = i|x) exp(theta_{i-1}^*) / sum_{j=1}^{K-1} P(Y = j|x) exp(-theta_j^*))",
        "uematsu2013.section4_1.eq7",
    ),
    E(
        "Section 4.1",
        "let s_j = [1 + exp(-theta_j^* - theta_{j-1}^*)]^{-1} and w_j = ... Then c_ji = exp(theta_{i-1}^* - theta_j^*) - exp(theta_{j-1}^* - theta_i^*)",
        "uematsu2013.section4_1.orboost_costs",
    ),
    E(
        "Section 4.1",
        "The ordering restriction on the thresholds (theta_i^* >= theta_j^*) yields non-negative ranking costs (c_ji >= 0)",
        "uematsu2013.section4_1.orboost_costs_nonnegative",
    ),
    E(
        "Section 4.1",
        "sum s_i w_i P(Y=i|x) / sum w_j P(Y=j|x) = (sum exp(-theta_j^*) P(Y=j|x) / sum exp(theta_{i-1}^*) P(Y=i|x) + 1)^{-1}",
        "uematsu2013.section4_1.orboost_relation",
    ),
    E(
        "Section 4.1",
        "f^* in (7) is a monotonic transformation of the function f_0^* in Corollary 1, and hence the optimal ranking by ORBoost provides a solution to pairwise ranking risk",
        "uematsu2013.section4_1.orboost_condition",
    ),
    E(
        "Section 4.1",
        "At least it is guaranteed that there exist {theta_i^*} such that the ranking function in (7) is well-defined",
        reason="prose",
    ),
    E("Section 4.2", "log P(Y > j|x)/P(Y <= j|x) = f(x) - theta_j", reason="definition"),
    E(
        "Section 4.2",
        "log(1/(1 + exp(theta_{y-1} - f)) - 1/(1 + exp(theta_y - f))) = log(1 - exp(theta_{y-1} - theta_y)) - [...]",
        "uematsu2013.section4_2.likelihood",
    ),
    E(
        "Section 4.2",
        "This is equivalent to the condition: sum (p_j(x) + p_{j+1}(x)) / (1 + exp(theta_j - t^*)) = 1 - p_1(x)",
        "uematsu2013.section4_2.population_equation",
    ),
    E(
        "Section 4.2",
        "(1 - p_3(x))(1 + exp(f^*(x) - theta_2)) = (1 - p_1(x))(1 + exp(theta_1 - f^*(x)))",
        "uematsu2013.section4_2.k3_form",
    ),
    E(
        "Section 4.2, Eq. (8)",
        "e^{f^*(x)} = (q(x) - 1 + sqrt((q(x) - 1)^2 + 4 e^{theta_1 - theta_2} q(x))) / (2 e^{-theta_2})",
        "uematsu2013.section4_2.eq8",
    ),
    E(
        "Section 4.2",
        "This implies that f^* for the proportional odds model preserves the ordering of q",
        "uematsu2013.section4_2.f_star_increasing_in_q",
    ),
    E(
        "Section 4.2",
        "q is the ranking function minimizing pairwise ranking risk when c12 = c13 = c23 = 1",
        "uematsu2013.section4_2.q_is_unit_cost_f0",
    ),
    E(
        "Section 4.3",
        "l(f, {theta_j}; x, y) = (1 - (f(x) - theta_{y-1}))_+ + (1 - (theta_y - f(x)))_+",
        reason="definition",
    ),
    E(
        "Section 4.3",
        "Note that this loss function does not always guarantee the monotonicity of {theta_j}",
        reason="out of scope: refers to Chu and Keerthi (2007)'s numerical experiment",
    ),
    E(
        "Section 4.3, SVOR Case 1",
        "Case 1: theta_1 <= theta_2 and theta_1 + 1 >= theta_2 - 1",
        "uematsu2013.section4_3.svor1.case1",
    ),
    E(
        "Section 4.3, SVOR Case 2",
        "Case 2: theta_1 <= theta_2 and theta_1 + 1 <= theta_2 - 1",
        "uematsu2013.section4_3.svor1.case2",
    ),
    E(
        "Section 4.3, SVOR Cases 1 and 2",
        "Hence the minimum is achieved when f(x) is either theta_1 - 1, theta_2 - 1, theta_1 + 1 or theta_2 + 1 according to the sign of ...",
        "uematsu2013.section4_3.svor1.r_table.cases12",
    ),
    E(
        "Section 4.3, SVOR Case 3",
        "Case 3: theta_2 <= theta_1 and theta_2 + 1 >= theta_1 - 1 ... the minimum is attained when f(x) is either theta_1 - 1 or theta_2 + 1",
        "uematsu2013.section4_3.svor1.case3",
        "uematsu2013.section4_3.svor1.r_table.case3",
    ),
    E(
        "Section 4.3, SVOR Case 4",
        "Case 4: theta_2 <= theta_1 and theta_2 + 1 <= theta_1 - 1",
        "uematsu2013.section4_3.svor1.case4",
    ),
    E(
        "Section 4.3, SVOR Case 4",
        "Hence the minimum risk is achieved as long as f(x) is between theta_2 + 1 and theta_1 - 1",
        "uematsu2013.section4_3.svor1.case4_minimisers",
    ),
    E(
        "Section 4.3, definition of r(x)",
        "Define r(x) = (1 - 2p_1(x))/p_2(x), thresholding of which is very conducive to expressing the signs of the coefficients",
        "uematsu2013.section4_3.svor1.r_defined",
        "uematsu2013.section4_3.svor1.r_defined.corrected",
    ),
    E(
        "Section 4.3",
        "p_1 - p_2 - p_3 = 2p_1 - 1 <= 0 <=> r(x) >= 0, p_1 - p_3 ... <=> r(x) >= 1, p_1 + p_2 - p_3 ... <=> r(x) >= 2",
        "uematsu2013.section4_3.svor1.r_equivalences",
    ),
    E(
        "Section 4.3, table for Cases 1 and 2",
        "r(x): (-oo, 0), (0, 1), (1, 2), (2, oo); f^*(x): theta_1 - 1, min(theta_1 + 1, theta_2 - 1), max(...), theta_2 + 1",
        "uematsu2013.section4_3.svor1.r_table.cases12",
    ),
    E(
        "Section 4.3, table for Case 3",
        "r(x): (-oo, 1), (1, oo); f^*(x): theta_1 - 1, theta_2 + 1",
        "uematsu2013.section4_3.svor1.r_table.case3",
    ),
    E(
        "Section 4.3, median table",
        "when theta_1 <= theta_2, r corresponds to the median of Y given x",
        "uematsu2013.section4_3.svor1.median",
    ),
    E(
        "Section 4.3",
        "The loss function does not have the 'typical' form of ordinal regression, but it is shown that the monotonicity of {theta_j} is always satisfied",
        reason="out of scope: a property of Chu and Keerthi (2007)'s empirical solutions, quoted",
    ),
    E(
        "Section 4.3, implicit constraints, Case 1",
        "Case 1: theta_1 + 1 >= theta_2 - 1",
        "uematsu2013.section4_3.svor2.case1",
    ),
    E(
        "Section 4.3, implicit constraints, Case 1",
        "Hence the minimum is achieved when f(x) is either theta_1 - 1, theta_2 - 1, theta_1 + 1 or theta_2 + 1 depending on the sign of p_1 - p_2 - 2p_3, 2p_1 - 2p_3 and 2p_1 + p_2 - p_3",
        "uematsu2013.section4_3.svor2.r_table",
    ),
    E(
        "Section 4.3, implicit constraints, Case 2",
        "Case 2: theta_1 + 1 <= theta_2 - 1",
        "uematsu2013.section4_3.svor2.case2",
    ),
    E(
        "Section 4.3, implicit constraints, Case 2",
        "In this case the minimum risk is achieved when f(x) is either theta_1 - 1, theta_1 + 1, theta_2 - 1 or theta_2 + 1 according to the sign of p_1 - p_2 - 2p_3, p_1 - p_3 and 2p_1 + p_2 - p_3",
        "uematsu2013.section4_3.svor2.r_table",
    ),
    E(
        "Section 4.3, implicit constraints, definition of r(x)",
        "Consider r(x) = {1 - p_1(x)}/{1 - p_3(x)} for succinct expressions of the signs of linear coefficients",
        "uematsu2013.section4_3.svor2.r_defined",
        "uematsu2013.section4_3.svor2.r_defined.corrected",
    ),
    E(
        "Section 4.3, implicit constraints",
        "p_1 - p_2 - 2p_3 <= 0 <=> r(x) >= 1/2, p_1 - p_3 <= 0 <=> r(x) >= 1, 2p_1 + p_2 - p_3 <= 0 <=> r(x) >= 2",
        "uematsu2013.section4_3.svor2.r_equivalences",
    ),
    E(
        "Section 4.3, implicit constraints table",
        "we can express the relation between the optimal ranking function f^* and r as follows",
        "uematsu2013.section4_3.svor2.r_table",
    ),
    E(
        "Section 4.3, implicit constraints",
        "(1 - p_1)/(1 - p_3) = (p_2 + p_3)/(p_1 + p_2)",
        "uematsu2013.section4_3.svor2.same_function",
    ),
    E(
        "Section 4.3",
        "The ranking function from implicit constraints method is a step function that produces many ties among instances",
        reason="prose",
    ),
    E(
        "Section 4.3",
        "On the other hand, the ranking function from proportional odds model is a strictly increasing function of (p_2 + p_3)/(p_1 + p_2)",
        "uematsu2013.section4_2.f_star_increasing_in_q",
    ),
    E(
        "Section 4.4",
        "If theta_{i-1} < f(x) < theta_i, the conditional risk above is sum_{j<i} p_j + sum_{j>i} p_j = 1 - p_i",
        "uematsu2013.section4_4.indicator_risk",
    ),
    E(
        "Section 4.4",
        "Hence f^*(x) can be any value in (theta_{j*-1}, theta_{j*}) for j* = argmax_j p_j(x)",
        "uematsu2013.section4_4.indicator_risk",
    ),
    E(
        "Section 4.4",
        "When K = 3, there is no {c_ji} such that f_0^*(x) ... is a monotonic transformation of argmax_j p_j(x)",
        "uematsu2013.section4_4.no_cost_gives_argmax",
    ),
    E(
        "Section 5.1",
        "L(f; (x, y), (x', y')) = c_y'y l(f(x) - f(x')) ... R_l(f) = sum c_ji E[l(f(X) - f(X'))|Y = i, Y' = j] P(Y = i, Y' = j)/P(Y > Y')",
        reason="definition",
    ),
    E(
        "Section 5.1",
        "minimizing the convex risk above alone does not lead to the best ranking function f_0^*",
        "uematsu2013.theorem4.without_extra_term_misorders",
    ),
    E(
        "Theorem 4 (i)",
        "When K = 3, f^* minimizing R_l(f) + c12 c23/c13 E[l(f(X) - f(X'))|Y = 2, Y' = 2] P(Y = 2, Y' = 2)/P(Y > Y') is a monotonic transformation of f_0^*",
        "uematsu2013.theorem4.finite.rank_one",
    ),
    E(
        "Theorem 4 (ii)",
        "When K > 3 and c_1K c_ji = c_1i c_jK - c_1j c_iK ..., f^* minimizing R_l(f) + [three extra sums] is a monotonic transformation of f_0^*",
        "uematsu2013.theorem4.finite.rank_one",
    ),
    E(
        "Section 5.1, after Theorem 4",
        "an extra term ... is necessary to guarantee consistency under ranking-calibrated loss l in the pairwise framework",
        "uematsu2013.theorem4.without_extra_term_misorders",
    ),
    E("Table 1, row 1 (AUC)", "AUC: G(y) = I(y = 2), D(i) = n - i", "uematsu2013.section5_2.table1.auc"),
    E(
        "Table 1, row 2 (p-Norm Push)",
        "p-Norm Push: G(y) = I(y = 2), D(i) = (n - i)^p",
        "uematsu2013.section5_2.table1.p_norm_push",
        "uematsu2013.section5_2.table1.p_norm_push.corrected",
    ),
    E(
        "Table 1, row 3 (P@m)",
        "Precision at m: G(y) = I(y = 2), D(i) = I(i <= m)/m",
        "uematsu2013.section5_2.table1.p_at_m",
    ),
    E(
        "Table 1, row 4 (MRR)",
        "Mean Reciprocal Rank: G(y) = I(y = 2), D(i) = 1/i",
        "uematsu2013.section5_2.table1.mrr",
        "uematsu2013.section5_2.table1.mrr.corrected",
    ),
    E("Section 5.2, Eq. (9)", "R_n^{G,D}(f) = sum_i G(y_{pi_f(i)}) D(i)", reason="definition"),
    E(
        "Section 5.2",
        "to maximize the conditional measure as a weighted sum of D(i)'s, f must be a function such that C_f(1) >= C_f(2) >= ... >= C_f(n)",
        "uematsu2013.section5_2.optimal_by_expected_gain",
        "uematsu2013.section5_2.sorted_is_necessary",
        "uematsu2013.section5_2.sorted_is_necessary.corrected",
    ),
    E(
        "Section 5.2",
        "Consequently, the optimal ranking function should be based on f^*(x) = sum_j G(j) P(Y = j|X = x)",
        "uematsu2013.section5_2.optimal_by_expected_gain",
    ),
    E(
        "Section 5.2",
        "Note that the discount component D(i) does not affect f^* at all as long as it is decreasing and non-negative",
        "uematsu2013.section5_2.optimal_by_expected_gain",
    ),
    E(
        "Section 5.2",
        "the optimal ranking function for DCG preserves the ordering of sum (2^j - 1) P(Y = j|X = x), which is the same as f_0^* in Corollary 1 with s_i = 2^i - 1 and w_j = 1",
        "uematsu2013.section5_2.dcg_f0",
    ),
    E(
        "Section 5.2",
        "the optimal ranking with respect to DCG is equivalent to pairwise ranking with c_ji = (2^i - 2^j) I(i > j)",
        "uematsu2013.section5_2.dcg_costs",
        "uematsu2013.theorem3.condition.dcg",
    ),
    E(
        "Section 5.2",
        "AP(f) = sum_i I(y_{pi_f(i)} = 2) 1/i sum_{j<=i} I(y_{pi_f(j)} = 2) = sum_i 1/i I(y_{pi_f(i)} = 2)(1 + sum_{j<i} I(y_{pi_f(j)} = 2))",
        "uematsu2013.section5_2.ap_identity",
    ),
    E(
        "Section 5.2",
        "E[AP(f)|{X_i}] = sum_i p_f(i)/i (1 + sum_{j<i} p_f(j))",
        "uematsu2013.section5_2.ap_expectation",
    ),
    E(
        "Section 5.2",
        "AP_k(p_{l+1}) - AP_k(p_l) = (p_l - p_k)(1 + sum_{i=1}^{l-1} p_i) 1/(l(l+1))",
        "uematsu2013.section5_2.ap_swap",
    ),
    E(
        "Section 5.2",
        "a ranking function f with p_f(1) >= p_f(2) >= ... >= p_f(n) maximizes E[AP(f)|{X_i}]",
        "uematsu2013.section5_2.ap_sorted_optimal",
    ),
    E(
        "Section 6.1",
        "When K = 3, there are two thresholds theta_1 and theta_2 (theta_1 <= theta_2), but without loss of generality we can fix one of them",
        "uematsu2013.section6_1.threshold_shift",
    ),
    E(
        "Section 6.1",
        "The estimated thresholds in this case were theta_1 = -1.2 and theta_2 = 1.1, which fall into Case 2 in Section 4.3",
        "uematsu2013.section6_2.svor_thresholds",
    ),
    E(
        "Section 6.1",
        "f_0^*(x) = (P(Y=2|x) + P(Y=3|x)) / (P(Y=1|x) + P(Y=2|x)) = (e^{2x} + e^2)/(e^{-2x} + e^2)",
        "uematsu2013.section6_1.normal_mixture_f0",
    ),
    E(
        "Section 6.1",
        "f^* for pairwise ranking risk minimization under exponential loss is given by 1/2 log f_0^* up to a constant",
        "uematsu2013.theorem4.exp_minimiser",
    ),
    E(
        "Section 6.1",
        "f^* for ORBoost is approximately given as 1/2 log((e^{2x} + e^{2 + theta_1})/(e^{-2x - theta_1} + e^2))",
        "uematsu2013.section6_1.orboost_f_star",
    ),
    E(
        "Section 6.1",
        "log((f_0^*(x) - 1 + sqrt((f_0^*(x) - 1)^2 + 4 e^{theta_1} f_0^*(x)))/2)",
        "uematsu2013.section6_1.propodds_f_star",
    ),
    E(
        "Section 6.1",
        "the theoretical values of -1.02, 0 and 1.02 that yield f_0^*(x) = 1/2, 1 and 2",
        "uematsu2013.section6_1.svor_steps",
    ),
    E(
        "Figure 1",
        "Theoretical ranking function (dotted line) and estimated ranking function (solid line)",
        reason=_EXPERIMENT.replace("(MovieLens)", "(simulation)"),
    ),
    E("Section 6.1", "c_13 = e^{-theta_1} = e^{2.06} = 7.846", "uematsu2013.section6_1.c13_orboost"),
    E(
        "Section 6.1",
        "(P(Y = 2|x) + c13 P(Y = 3|x)) / (c13 P(Y = 1|x) + P(Y = 2|x)) = (p_2(x) + c13(1 - p_1(x) - p_2(x))) / (c13 p_1(x) + p_2(x))",
        "uematsu2013.section6_1.c13_contours",
    ),
    E(
        "Figure 2",
        "(p_2 + 2p_3)/(2p_1 + p_2) for expected relevance (middle) ... where the equivalence sets form parallel lines",
        "uematsu2013.section6_1.figure2_parallel_contours",
    ),
    E(
        "Figure 2, right panel",
        "the right panel shows the contours of (1 - 2p_1(x))/p_2(x), the underlying function for support vector ordinal regression in Shashua and Levin (2003)",
        "uematsu2013.section4_3.svor1.r_defined",
        "uematsu2013.section4_3.svor1.r_defined.corrected",
    ),
    E(
        "Section 6.2",
        "there are 5,039, 10,846, 26,448, 33,842 and 20,964 cases ... (5.18%, 11.17%, 27.23%, 34.84%, 21.58%)",
        "uematsu2013.section6_2.proportions",
        "uematsu2013.section6_2.proportions.corrected",
    ),
    E(
        "Section 6.2",
        "We set the bandwidth of the multivariate Gaussian kernel to sigma^2 = 44 x 0.5 = 22 with 44 standardized variables",
        "uematsu2013.section6_2.printed_arithmetic",
    ),
    E(
        "Section 6.2",
        "1/2 log((sum j P(Y=j|x) - 1)/(3 - sum j P(Y=j|x))) = 1/2 log((s_r(x) - 1)/(3 - s_r(x)))",
        "uematsu2013.section6_2.pairrank2_regression",
    ),
    E(
        "Section 6.2",
        "This yields the cost scheme of c12 = c23 = 1 and c13 = e^{-theta_1} for ORBoost",
        "uematsu2013.section6_2.orboost_k3_costs",
    ),
    E(
        "Section 6.2",
        "a ranking function of PAIRRANK1 converges to 1/2 log((p_2(x) + p_3(x))/(p_1(x) + p_2(x))) up to a constant",
        "uematsu2013.theorem4.exp_minimiser",
    ),
    E(
        "Section 6.2",
        "which amounts to e^{-theta_1} = 1.201 as the corresponding ranking cost c13 for ORBoost",
        "uematsu2013.section6_2.c13_orboost",
    ),
    E(
        "Section 6.2",
        "the estimates of theta_1 and theta_2 are -1.39 and 0.61 and satisfy the relation theta_1 + 1 = theta_2 - 1 ... (-2.39, -0.39, 1.61)",
        "uematsu2013.section6_2.svor_thresholds",
    ),
    E("Figures 3 and 4", "Scatter plots of ranking scores ... for MovieLens data", reason=_EXPERIMENT),
    E(
        "Section 6.2",
        "an unbalanced sample ... contains 130, 280, 680, 870, and 540 cases ... approximately reflecting the proportions",
        "uematsu2013.section6_2.unbalanced_sample",
    ),
    E(
        "Section 6.2, linear cost table",
        "a linear cost scheme of c_ji = i - j for i > j was used as given below",
        "uematsu2013.section6_2.linear_cost_table",
    ),
    E(
        "Table 2 (balanced), rows j = 1..4",
        "1.028 1.056 1.098 / 0.053 0.116 1.068 / 0.063 1.039 / 1",
        "uematsu2013.section6_2.table2.balanced",
    ),
    E(
        "Table 2 (unbalanced), rows j = 1..4",
        "1 1.427 2.169 / 0.299 0.966 2.169 / 0.539 1.519 / 1",
        "uematsu2013.section6_2.table2.unbalanced",
    ),
    E(
        "Section 6.2, after Table 2",
        "ORBoost induces an exponential scale in general ... the estimated thresholds for ORBoost have a rather narrow range, which actually results in the opposite effect",
        reason="prose",
    ),
    E(
        "Section 6.2",
        "Since c12 pi_2 = 0.1117 < 0.2 while c45 pi_4 = 0.3484 > 0.2, more ranking errors are expected for (1, 2) pair",
        "uematsu2013.section6_2.printed_arithmetic",
    ),
    E("Table 3, rows 1-10", "Mean ranking error rates for a pair of ratings ... 1 vs 2 ... 4 vs 5", reason=_EXPERIMENT),
    E(
        "Section 6.2, about Table 3",
        "The balanced case gave lower error rates than the unbalanced case except for pairs of high ratings",
        "uematsu2013.section6_2.table3.balanced_lower",
        "uematsu2013.section6_2.table3.balanced_lower.corrected",
    ),
    E(
        "Appendix, proof of Theorem 3",
        "consider the following partition of X x X ... A_1, ..., A_9; X x X = u_{j=1}^9 A_j",
        "uematsu2013.theorem3.proof.partition_cells",
    ),
    E(
        "Appendix, proof of Theorem 3 (i), Eq. (10)",
        "sum c_ji P(Y=i,Y'=j|Y>Y') g_i(x) g_j(x') = -c12 c23/c13 ... + 1/(c13 P(Y>Y')) [...][...] = D(x, x') + C(x, x')",
        "uematsu2013.theorem3.proof.eq10",
    ),
    E(
        "Appendix, proof of Theorem 3 (i), step 2",
        "R_0(f) = int_{A1 u A2 u A3} [D + C] + 1/2 int_{A4 u A5 u A6} [D + C]; R_0(f_0^*) = ...",
        "uematsu2013.theorem3.proof.partition_risks",
    ),
    E(
        "Appendix, proof of Theorem 3, step 3",
        "From C(x, x')/C(x', x) = f_0^*(x)/f_0^*(x')",
        "uematsu2013.theorem3.proof.c_ratio",
    ),
    E(
        "Appendix, proof of Theorem 3, step 3",
        "By switching x and x', we can show that int_A3 C(x', x) = int_A7 C(x, x') ... Similarly int_A6 C > int_A4 C and int_A2 C = int_A8 C",
        "uematsu2013.theorem3.proof.switch_cells",
    ),
    E(
        "Appendix, proof of Theorem 3, step 3",
        "Since D(x, x') = D(x', x), int_A3 D(x, x') = int_A3 D(x', x) = int_A7 D(x, x')",
        "uematsu2013.theorem3.proof.d_symmetric",
    ),
    E(
        "Appendix, proof of Theorem 3, step 4",
        "Hence, R_0(f) - R_0(f_0^*) > 0 unless f is an order-preserving transformation of f_0^*",
        "uematsu2013.theorem3.proof.strict",
        "uematsu2013.theorem3.proof.strict.corrected",
    ),
    E(
        "Appendix, proof of Theorem 3 (ii), Eq. (11)",
        "= D(x, x') + C(x, x') + sum P(Y'=j)P(Y=i)/P(Y>Y') R_ji(x, x')",
        "uematsu2013.theorem3.proof.eq11",
    ),
    E(
        "Appendix, proof of Theorem 3 (ii), step 2",
        "the condition on the misranking costs implies that int_A3 R_ji - int_A7 R_ji = (c_ji c_1K - c_1i c_jK + c_1j c_iK)/c_1K (...) = 0",
        "uematsu2013.theorem3.proof.rji_symmetric",
    ),
    E(
        "Appendix, proof of Corollary 1",
        "It is easy to check that c_y'y = c_1K (s_y - s_y') t_y t_y' I(y > y') satisfies the condition in Theorem 3",
        "uematsu2013.corollary1.condition.all_k",
    ),
    E(
        "Appendix, proof of Corollary 1",
        "f_0^*(x) = t_1 sum (s_i - s_1) w_i P(Y=i|x) / (t_K sum (s_K - s_j) w_j P(Y=j|x)) = ... (E - s_1)/(s_K - E)",
        "uematsu2013.corollary1.proof.f0_forms",
    ),
    E(
        "Appendix, proof of Corollary 1",
        "It is clearly a monotonic transformation of f_0^*(x), and thus it also minimizes the risk",
        "uematsu2013.corollary1.proof.monotone",
        "uematsu2013.corollary1.proof.via_theorem3",
        "uematsu2013.corollary1.proof.via_theorem3.corrected",
    ),
    E(
        "Appendix, proof of Theorem 4 (i)",
        "R_l(f) + c12 c23/c13 E[l|Y=2,Y'=2] P(Y=2,Y'=2)/P(Y>Y') = [...][...]/(c13 P(Y>Y')) int int l h_+ h_-",
        "uematsu2013.theorem4.i.identity",
    ),
    E(
        "Appendix, proof of Theorem 4 (i), step 2",
        "h_+(x)/h_-(x) proportional to (c12 g_2(x) P(Y=2) + c13 g_3(x) P(Y=3)) / (...) = (c12 P(Y=2|x) + c13 P(Y=3|x)) / (c13 P(Y'=1|x) + c23 P(Y'=2|x))",
        "uematsu2013.theorem4.proof.modified_ratio",
    ),
    E(
        "Appendix, proof of Theorem 4 (ii)",
        "R_l(f) + sum c_1j c_iK/c_1K E[l|Y=i,Y'=j] ... = [...][...]/(c_1K P(Y>Y')) int int l h_+ h_-",
        "uematsu2013.theorem4.ii.identity",
    ),
]
