# ruff: noqa: E501  (one-line quotes from the papers)
"""Coverage map of Xia, Liu & Li (2009), "Statistical Consistency of Top-k Ranking" (NIPS), read
from start to end.  Proofs of Propositions 4, 5, 8, 9, 10 and of Theorem 6 are deferred by the
paper to a technical report [15] and are not in the text."""

from symcal.coverage.entry import E

PAPER = "xia2009"
SOURCE = "xia-liu-li-2009-top-k-consistency.txt"

EXTERNAL_LABELS: dict[str, str] = {}

_EXPERIMENT = "out of scope: experimental measurements on LETOR"

ENTRIES = [
    E("Section 2, Eq. (1)", "R(h) = int_{X x Y} l(h(x), y) dP(x, y)", reason="definition"),
    E("Section 2, Eq. (2)", "l(h(x), y) = 1 if h(x) != y, 0 if h(x) = y", reason="definition"),
    E(
        "Section 2, Eq. (3)",
        "h*(x) = arg max_{y in Y} P(y|x)",
        "xia2009.eq7.bayes_ranker",
    ),
    E("Section 2, Eq. (4)", "R^phi(g) = int_{X x Y} phi(g(x), y) dP(x, y)", reason="definition"),
    E(
        "Section 3.1",
        "62% of search engine users only click on the results within the first page",
        reason="out of scope: a user study, cited",
    ),
    E(
        "Section 3.2, Eq. (5)",
        "When k equals the length of the entire ranked list, the top-k true loss will become exactly the permutation-level 0-1 loss",
        "xia2009.eq5.top_n_is_permutation_level",
        "xia2009.eq5.top_n_minus_1_is_permutation_level",
    ),
    E("Section 3.2, Eq. (6)", "R_k(h) = int_{X x Y} l_k(h(x), y) dP(x, y)", reason="definition"),
    E(
        "Section 3.2, Eq. (7)",
        "the top-k Bayes ranker is any permutation in the top-k subgroup having the highest probability",
        "xia2009.eq7.bayes_ranker",
    ),
    E("Section 4.1, Eq. (8)", "Q(P(y|x), g(x)) = sum_{y in Y} P(y|x) phi(g(x), y)", reason="definition"),
    E(
        "Section 4.1",
        "According to [1], the above condition is the weakest condition to guarantee that optimizing a surrogate loss function will lead to ... the Bayes risk",
        reason="out of scope: cites Bartlett et al. (2006)",
    ),
    E("Section 4.1", "Y_{i,j} = {y in Y : y^-1(i) < y^-1(j)}", reason="definition"),
    E("Definition 1", "Lambda_{G_k} = {p in R^{|G_k|} : sum p_{G_k(j_1, ..., j_k)} = 1, p >= 0}", reason="definition"),
    E(
        "Definition 2",
        "order preserving with respect to objects i and j, if for all y in Y_{i,j} and G_k(y) != G_k(sigma_ij^-1 y), p_{G_k(y)} > p_{G_k(sigma_ij^-1 y)}",
        reason="definition",
    ),
    E(
        "Definition 3",
        "phi is top-k subgroup order sensitive on a set Omega ... (1) phi(g, y) = phi(sigma g, sigma y); (2) ...; (3) ...",
        reason="definition",
    ),
    E(
        "Section 4.1, after Definition 3",
        "The order preserving property ... indicates that if the top-k subgroup probability on a permutation y in Y_{i,j} is larger ...",
        reason="prose",
    ),
    E(
        "Proposition 4",
        "for all y, for all pi in G_k(y(1), ..., y(k)), we have phi(g, pi) = phi(g, y)",
        "xia2009.proposition4",
    ),
    E(
        "Proposition 5",
        "for all objects i and j with g_i = g_j ... d phi(g, sigma y)/d g_i >= d phi(g, y)/d g_i. Otherwise, ... =",
        "xia2009.proposition5",
    ),
    E(
        "Theorem 6",
        "if its top-k subgroup probability space is order preserving with respect to n - 1 object pairs {(j_i, j_{i+1})}_{i=1}^k and {(j_{k+s_i}, j_{k+i})}, then the loss phi(g, y) is consistent with the top-k true loss",
        "xia2009.theorem6.pair_set",
        "xia2009.theorem6.pair_set.k_eq_n",
        "xia2009.theorem6.pair_set.k_eq_n.corrected",
        "xia2009.theorem6.most_probable_subgroup",
    ),
    E(
        "Theorem 7",
        "if the top-k subgroup probability space is order preserving with respect to them, and g is a vector which minimizes Q(p, g) in Eq. (8), then g_i > g_j",
        "xia2009.theorem7.listmle_top1_n3",
        "xia2009.theorem7.listmle_top2_n4",
    ),
    E(
        "Theorem 7, proof, step 1",
        "Q(p, g') - Q(p, g) = sum_{y in Y} (p_{sigma y} - p_y) phi(g, y) = sum_{y in Y_{1,2}} (p_{sigma y} - p_y)(phi(g, y) - phi(g, sigma y))",
        "xia2009.theorem7.swap_identity",
    ),
    E(
        "Theorem 7, proof, step 2",
        "After some algebra, by using Proposition 4, Q(p, g') - Q(p, g) = sum over subgroups (p_{G_k(sigma y)} - p_{G_k(y)})(phi(g, y) - phi(g, sigma y))",
        "xia2009.theorem7.proof.subgroup_regrouping",
    ),
    E(
        "Theorem 7, proof, step 3",
        "Thus each component in the sum is non-positive and at least one of them is negative, which means Q(p, g') < Q(p, g)",
        reason="prose",
    ),
    E(
        "Theorem 7, proof, step 4",
        "sum_{y in Y_{1,2}} (p_y - p_{sigma y}) (d phi(g, y)/d g_1 - d phi(g, sigma y)/d g_1) = 0",
        "xia2009.theorem7.proof.stationarity",
    ),
    E(
        "Theorem 7, proof, step 5",
        "After some algebra, we obtain, sum over subgroups G_k(y) != G_k(sigma y), y in Y_{1,2}, of (p_{G_k(y)} - p_{G_k(sigma y)}) (d phi(g, y)/d g_1 - d phi(g, sigma y)/d g_1) = 0",
        "xia2009.theorem7.proof.subgroup_regrouping",
    ),
    E(
        "Theorem 7, proof, step 6",
        "According to Proposition 5 ... the above equation cannot hold since at least one of components in the sum is negative according to Definition 3",
        reason="prose",
    ),
    E(
        "Proposition 8",
        "If the top-k subgroup probability space is order preserving with respect to object i and j, the top-(k-1) subgroup probability space is also order preserving",
        "xia2009.proposition8",
    ),
    E(
        "Proposition 8's example",
        "p_{G_1(1)} = p_{G_2(1,2)} + p_{G_2(1,3)} ... it is easy to verify that Proposition 8 holds for this case while the opposite does not",
        "xia2009.proposition8.converse_fails",
    ),
    E(
        "Proposition 9",
        "If the surrogate loss function phi is top-k subgroup order sensitive on a set Omega, then it is also top-(k + 1) subgroup order sensitive",
        "xia2009.proposition9",
    ),
    E(
        "Proposition 9's example",
        "From Proposition 4, we know that the two inequalities are strict",
        "xia2009.proposition9.example_strict",
    ),
    E(
        "Section 4.2, conclusions",
        "a top-1 subgroup order sensitive surrogate loss function may be consistent with any top-k true loss, but a permutation-level order sensitive surrogate loss function may not be",
        reason="prose",
    ),
    E(
        "Proposition 10",
        "p_123 = p_1, p_132 = 0, p_213 = p_2, p_231 = 0, p_312 = 0, p_321 = p_2 respectively, where p_1 > p_2. Then phi is not consistent with the top-1 true loss",
        "xia2009.proposition10",
        "xia2009.proposition10.corrected",
        "xia2009.proposition10.listmle_consistent_above_c",
        "xia2009.proposition10.listmle_meets_hypothesis",
        "xia2009.proposition10.q_coercive",
        "xia2009.proposition10.q_hessian_decomposition",
        "xia2009.proposition10.q_strictly_convex",
    ),
    E(
        "Section 4.3",
        "In [16], the surrogate loss functions in ListNet, RankCosine, and ListMLE have been proved to be permutation-level order sensitive ... they may not be top-k subgroup order sensitive",
        "xia2009.listmle.not_top_k_order_sensitive",
        "xia2009.cosine.not_top_k_order_sensitive",
        "xia2009.listnet.not_top_k_order_sensitive",
    ),
    E(
        "Section 4.3.1, Eq. (9)",
        "phi(g(x), y) = -log P(y|x; g), P(y|x; g) = prod_{i=1}^n exp(g(x_y(i))) / sum_{t=i}^n exp(g(x_y(t)))",
        reason="definition",
    ),
    E(
        "Section 4.3.1, Eq. (10)",
        "P(y|x; g) = prod_{i=1}^k ... It can be proved that the modified loss is top-k subgroup order sensitive",
        "xia2009.eq10.subgroup_probability",
        "xia2009.listmle_topk.order_sensitive",
    ),
    E(
        "Section 4.3.2, Eq. (11)",
        "phi(g(x), y) = 1/2 (1 - psi_y(x)^T g(x) / (||psi_y(x)|| ||g(x)||))",
        "xia2009.cosine.difference_identity",
    ),
    E(
        "Section 4.3.2",
        "It can be proved that after the modification, the cosine loss becomes top-k subgroup order sensitive",
        "xia2009.cosine_modified.order_sensitive",
    ),
    E(
        "Section 4.3.3, Eq. (12)",
        "phi(g(x), y) = D(P(pi|x; psi_y) || P(pi|x; g))",
        "xia2009.listnet.difference_identity",
    ),
    E(
        "Section 4.3.3",
        "It can be proved that such a modification can make the surrogate loss function top-k subgroup order sensitive",
        "xia2009.listnet_modified.order_sensitive",
        "xia2009.listnet_modified.order_sensitive.library_at_points",
    ),
    E(
        "Footnote 4",
        "the so-defined top-k cross entropy loss is still permutation-level order sensitive, but not top-k subgroup order sensitive",
        "xia2009.listnet_cao.permutation_level_order_sensitive",
        "xia2009.listnet_cao.not_top_k_order_sensitive",
    ),
    E(
        "Footnote 5",
        "On datasets with only two ratings such as TD2003 and TD2004, N@1 equals P@1",
        "xia2009.footnote5.n_at_1_is_p_at_1",
        "xia2009.footnote5.n_at_1_is_p_at_1.corrected",
    ),
    E(
        "Table 1",
        "Ranking accuracies on OHSUMED: ListMLE, Top-1/3/10 ListMLE x N@1, N@3, N@10, P@1, P@3, P@10",
        reason=_EXPERIMENT,
    ),
    E("Table 2", "Ranking accuracies on TD2003: ListMLE, Top-1/3/10 ListMLE", reason=_EXPERIMENT),
    E("Table 3", "Ranking accuracies on TD2004: ListMLE, Top-1/3/10 ListMLE", reason=_EXPERIMENT),
    E(
        "Section 5, after Tables 1-3",
        "with the modifications the ranking accuracies of ListMLE can be significantly boosted, in terms of all measures, on both TD2003 and TD2004",
        "xia2009.tables.top_k_listmle_boosted",
    ),
    E(
        "Section 5, after Tables 1-3",
        "On OHSUMED, all the loss functions achieve comparable performances ... the probability space in OHSUMED is well formed such that it is order preserving for many different k values",
        reason="not checkable: 'comparable' has no stated criterion, and the OHSUMED probability space is unknown",
    ),
    E(
        "Table 4",
        "Ranking accuracies on OHSUMED: RankBoost, Ranking SVM, ListNet, RankCosine, Top-10 ListMLE",
        reason=_EXPERIMENT,
    ),
    E(
        "Table 5",
        "Ranking accuracies on TD2003: RankBoost, Ranking SVM, ListNet, RankCosine, Top-10 ListMLE",
        reason=_EXPERIMENT,
    ),
    E(
        "Table 6",
        "Ranking accuracies on TD2004: RankBoost, Ranking SVM, ListNet, RankCosine, Top-10 ListMLE",
        reason=_EXPERIMENT,
    ),
    E(
        "Section 5, before Tables 4-6",
        "Next, we take Top-10 ListMLE as an example to make comparison with some other baseline methods ... The results are listed in Tables 4-6",
        "xia2009.tables.top10_rows_repeat",
        "xia2009.tables.bold_marks_column_maxima",
    ),
    E(
        "Section 5, after Tables 4-6",
        "Top-10 ListMLE achieves the best performance among all the methods on the TD2003 and TD2004 datasets in terms of almost all measures",
        "xia2009.tables.top10_listmle_best_on_td",
    ),
    E(
        "Section 5, after Tables 4-6",
        "Especially for N@1 and P@1, it significantly outperforms all the other methods on all the datasets",
        "xia2009.tables.top10_listmle_best_at_1",
    ),
]
