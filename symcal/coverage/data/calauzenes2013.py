# ruff: noqa: E501  (one-line quotes from the papers)
"""Coverage map of Calauzenes, Usunier & Gallinari (2013), "Calibration and regret bounds for
order-preserving surrogate losses in learning to rank" (Machine Learning 93), read from start to
end; appendices A and B come last, as printed."""

from symcal.coverage.entry import E

PAPER = "calauzenes2013"
SOURCE = "calauzenes-usunier-gallinari-2013-order-preserving-losses.txt"

EXTERNAL_LABELS = {
    "Definition 2.6": "Steinwart (2007) [28]",
    "Definition 2.7": "Steinwart (2007) [28]",
    "Definition 2.15": "Steinwart (2007) [28]",
    "Theorem 2.8": "Steinwart (2007) [28]",
    "Theorem 2.18": "Steinwart (2007) [28]",
    "Lemma 2.14": "Lee (2003) [24], proper maps",
    "Lemma 27": "Zhang (2004) [35], restated as Lemma 4.4",
    "Lemma 3": "Ravikumar et al. (2011) [26]",
    "Lemma 4": "Ravikumar et al. (2011) [26]",
    "Theorem 10": "Ravikumar et al. (2011) [26]",
    "Theorem 2": "Cossock and Zhang (2008) [14]",
    "Theorem 5": "Zhang (2004) [35]",
}

_GENERAL = "not checkable: quantifies over every scoring loss and every set of distributions (an abstract calibration statement)"

ENTRIES = [
    E(
        "Section 2.1",
        "arg sort : s in R^n -> {sigma in S_n | for all 0 < k < n, s_sigma(k) >= s_sigma(k+1)}",
        reason="definition",
    ),
    E("Section 2.1", "a ranking performance measure ... r : Y x S_n -> R_+", reason="definition"),
    E("Section 2.1", "r(y, s) = 1/|arg sort(s)| sum_{sigma in arg sort(s)} r(y, sigma)", reason="definition"),
    E(
        "Definition 2.1",
        "r is a (u, phi)-GPPM if phi(1) > 0 and phi(k) >= phi(k+1) >= 0 ... r(y, sigma) = b(y) + sum_k phi(k) u_sigma(k)(y)",
        reason="definition",
    ),
    E(
        "Section 2.1, after Definition 2.1",
        "The most popular example of a GPPM is the DCG, for which phi(i) = 1{i<=k}/log(1+i) and u_i(y) = 2^{y_i} - 1",
        "calauzenes2013.table1.dcg.gppm_form",
    ),
    E(
        "Table 1, caption",
        "The function b is equal to zero for all measures except for the AUC (b(y) = (||y||_1 - 1)/(2(n - ||y||_1))) and for Spearman (b(y) = -3(n-1)/(n+1))",
        "calauzenes2013.table1.auc.gppm_form",
        "calauzenes2013.table1.spearman.gppm_form",
    ),
    E(
        "Table 1, row 1 (DCG@k)",
        "DCG@k: sum_{i<=k} (2^{y_sigma(i)} - 1)/log(1+i); phi(i) = 1{i<=k}/log(1+i); u_i(y) = 2^{y_i} - 1",
        "calauzenes2013.table1.dcg.gppm_form",
    ),
    E(
        "Table 1, row 2 (NDCG@k)",
        "NDCG@k = DCG@k(y, sigma) / max DCG(y, sigma'); u_i(y) = (2^{y_i} - 1) / max DCG@k(y, sigma')",
        "calauzenes2013.table1.ndcg.gppm_form",
        "calauzenes2013.table1.ndcg.gppm_form.corrected",
    ),
    E(
        "Table 1, row 3 (ERR)",
        "ERR: sum_i R_i/i prod_{k<i} (1 - R_k) with R_i = (2^{y_sigma(i)} - 1)/2^p; phi and u: x",
        reason="definition",
    ),
    E(
        "Table 1, row 4 (Prec@k)",
        "Prec@k = sum_{i<=k} y_sigma(i)/k; phi(i) = 1{i<=k}/k; u_i = y_i",
        "calauzenes2013.table1.prec.gppm_form",
    ),
    E(
        "Table 1, row 5 (Rec@k)",
        "Rec@k = sum_{i<=k} y_sigma(i)/||y||_1; phi(i) = 1{i<=k}; u_i = y_i/||y||_1",
        "calauzenes2013.table1.rec.gppm_form",
        "calauzenes2013.table1.edge_cases",
    ),
    E("Table 1, row 6 (AP)", "AP = 1/||y||_1 sum_{i: y_i = 1} Prec@sigma^-1(i); phi and u: x", reason="definition"),
    E(
        "Table 1, row 7 (AUC)",
        "AUC = sum_{i: y_i = 1, j: y_j = 0} 1{sigma^-1(i) < sigma^-1(j)} / (||y||_1 (n - ||y||_1)); phi(i) = n - i; u_i = y_i/(||y||_1 (n - ||y||_1))",
        "calauzenes2013.table1.auc.gppm_form",
        "calauzenes2013.table1.auc.gppm_form.corrected",
        "calauzenes2013.table1.edge_cases",
    ),
    E(
        "Table 1, row 8 (Spearman)",
        "Spearman = 1 - Z_n sum (sigma^-1(i) - y^-1(i))^2, Z_n = 6/(n(n^2 - 1)); phi(i) = 12(n-i)/(n(n^2-1)); u_i = n - y^-1(i)",
        "calauzenes2013.table1.spearman.gppm_form",
    ),
    E(
        "Section 2.1",
        "R(P, f) = int r(y, f(x)) dP(x, y) ... a scoring loss as a measurable function l : Y x R^n_+ -> R_+",
        reason="definition",
    ),
    E("Definition 2.2", "the u-instance of l, denoted l^u, is defined by l^u(y, s) = l(u(y), s)", reason="definition"),
    E("Section 2.2, Eq. (1)", "L(P, f_k) -> L(P) => R(P, f_k) -> R-bar(P)", reason="definition"),
    E(
        "Section 2.2",
        "[28, Theorem 2.8] shows that (1) hold for any distribution of type Delta ... if and only if l is r-calibrated on Delta",
        reason="out of scope: Steinwart (2007)'s theorem, quoted",
    ),
    E(
        "Definition 2.3",
        "l is r-calibrated on Delta if for any eps > 0 and any Delta ... there exists delta > 0 such that L(Delta, s) - L(Delta) < delta => R-bar(Delta) - R(Delta, s) < eps",
        reason="definition",
    ),
    E(
        "Remark 1",
        "the best possible performance can be achieved asymptotically ... using the method of sieves",
        reason="prose",
    ),
    E(
        "Section 2.2",
        "[28, Theorems 2.13 and 2.17] show that the existence of such a surrogate regret bound is equivalent to ... uniform calibration",
        reason="out of scope: Steinwart (2007)'s theorems, quoted",
    ),
    E(
        "Definition 2.4",
        "l is uniformly r-calibrated on Delta if, for any eps > 0, there exists delta > 0 such that for any Delta and any s ...",
        reason="definition",
    ),
    E(
        "Section 3, Notation",
        "D_r = {Delta | for all s, R(Delta, s) < +oo} ... One may notice that D_r = {Delta | ||U(Delta)||_oo < +oo}",
        "calauzenes2013.audit.section3.d_r_is_bounded_utility",
    ),
    E(
        "Section 3.1, Eq. (2)",
        "arg sort(s) subset arg sort(U(Delta)) => R(Delta, s) = R-bar(Delta). Moreover, the reverse implication holds when phi is strictly decreasing",
        "calauzenes2013.eq2",
        "calauzenes2013.eq2.converse_strict",
        "calauzenes2013.eq2.converse_non_strict",
    ),
    E(
        "Footnote 1",
        "for any real numbers x_1 >= ... >= x_n >= 0 and y_1 >= ... >= y_n ... x_1 y_sigma(1) + ... + x_n y_sigma(n) <= x_1 y_1 + ... + x_n y_n",
        "calauzenes2013.footnote1.rearrangement",
        "calauzenes2013.footnote1.equality_case",
    ),
    E(
        "Definition 3.1",
        "l is order-preserving w.r.t. u on Delta if ... L(Delta) < inf {L(Delta, s) | arg sort(s) not subset arg sort(U(Delta))}",
        reason="definition",
    ),
    E(
        "Section 3.1",
        "if a loss is order-preserving w.r.t. some function u, then it is not be order-preserving w.r.t. another utility function u' unless ...",
        reason="prose",
    ),
    E("Section 3.1, Eq. (3)", "l(v, s) = sum_i lambda(v_i, s_i)", reason="definition"),
    E(
        "Section 3.1",
        "This template loss is obviously order-preserving since the optimal value of the scores is precisely the expected value of v",
        "calauzenes2013.section3_1.pointwise_squared_minimiser",
    ),
    E(
        "Section 3.1",
        "lambda(v_i, s_i) = v_i varphi(s_i) + (eta - v_i) varphi(-s_i), which is convex with respect to s ... if varphi is convex",
        reason="prose",
    ),
    E("Section 3.1, Eq. (4)", "l(v, s) = sum_{i<j} lambda(v_i, v_j, s_i - s_j)", reason="definition"),
    E(
        "Section 3.1",
        "taking lambda(v_i, v_j, s_i - s_j) = (s_i - s_j - v_i + v_j)^2 also obviously leads to an order-preserving template loss",
        "calauzenes2013.section3_1.pairwise_squared_minimiser",
    ),
    E(
        "Section 3.1",
        "lambda = v_i varphi(s_i - s_j) + v_j varphi(s_j - s_i) ... leads to an order preserving template loss whenever varphi is non-increasing, differentiable with varphi'(0) < 0 and the infimum ... is achieved",
        "calauzenes2013.remark2.proposed_pairwise_order_preserving",
    ),
    E(
        "Section 3.1, Eq. (5)",
        "l(v, s) = B_psi(v || g(s)) ... which is an order-preserving template loss [26] as soon as the closure of g(R^n) contains Gamma",
        reason="out of scope: rests on Banerjee et al. (2005) [1]'s characterisation of Bregman divergences",
    ),
    E(
        "Remark 2",
        "the latter can be written as l(v, s) = sum_{i,j} 1{v_i > v_j} varphi(s_i - s_j) ... the loss is not order-preserving in general",
        "calauzenes2013.remark2.usual_pairwise_not_order_preserving",
    ),
    E(
        "Remark 2",
        "the inner risk for the u-instance of l can be written as L^u(Delta, s) = sum_i U_i(Delta) sum_{j != i} varphi(s_i - s_j)",
        "calauzenes2013.remark2.inner_risk_form",
    ),
    E(
        "Remark 2",
        "is order-preserving under the appropriate assumptions [35, Theorem 5]",
        "calauzenes2013.remark2.proposed_pairwise_order_preserving",
    ),
    E(
        "Remark 3",
        "We use the qualifier order-preserving for scoring losses in a sense similar to ... [35]",
        reason="prose",
    ),
    E(
        "Theorem 3.2",
        "1. If l is order-preserving w.r.t. u on Delta, then l is r-calibrated on Delta. 2. If phi is strictly decreasing and l is r-calibrated on Delta, then l is order-preserving",
        reason=_GENERAL + "; every finite step of its proof is a claim of the entries below (the misordered pair, Eq. (6), the regret lower bound)",
    ),
    E(
        "Theorem 3.2, proof, step 1",
        "if arg sort(s) not subset arg sort(U(Delta)), then there is a pair (i,j) with U_i(Delta) > U_j(Delta) but s_i <= s_j. Then, there is at least one permutation sigma in arg sort(s) with sigma^-1(i) > sigma^-1(j)",
        "calauzenes2013.theorem3_2.proof_pair_step",
    ),
    E(
        "Theorem 3.2, proof, Eq. (6)",
        "R-bar - R(Delta, sigma) = [R-bar - R(Delta, tau_ij o sigma)] + (U_i - U_j)(phi(sigma^-1(j)) - phi(sigma^-1(i)))",
        "calauzenes2013.eq6",
        "calauzenes2013.eq6.two_terms",
    ),
    E(
        "Theorem 3.2, proof, step 2",
        "R-bar(Delta) - R(Delta, s) >= min_{k<n} |phi(k) - phi(k+1)| x min_{U_i != U_j} |U_i - U_j| / n!",
        "calauzenes2013.theorem3_2.regret_lower_bound",
    ),
    E(
        "Section 3.2, after Theorem 3.2",
        "if a scoring loss is order-preserving w.r.t. u, then it is calibrated with any ranking performance measure such that arg sort(U(Delta)) subset arg min ...",
        reason="prose",
    ),
    E(
        "Theorem 3.3",
        "Let Y = {0,1}^n, u : Y -> R^n_+ and l an order-preserving loss w.r.t. u on D. Then l is not calibrated with the ERR and the AP",
        "calauzenes2013.theorem3_3.err_not_all_optimal",
        "calauzenes2013.theorem3_3.ap_not_all_optimal",
        "calauzenes2013.theorem3_3.err_family_not_all_equal",
        "calauzenes2013.theorem3_3.ap_family_not_all_equal",
    ),
    E(
        "Section 3.2, after Theorem 3.3",
        "a regression approach is necessarily not calibrated with the ERR or the AP",
        reason="prose",
    ),
    E(
        "Lemma 4.1",
        "there is a set C_sigma of non-overlapping pairs with U_i > U_j, sigma^-1(i) > sigma^-1(j) and R-bar - R(Delta, sigma) <= sum (U_i - U_j)(phi(nu^-1(i)) - phi(nu^-1(j)))",
        "calauzenes2013.lemma4_1",
    ),
    E(
        "Lemma 4.1, proof, step 1",
        "R(Delta, sigma) >= R(Delta, sigma o tau_1p) ... R(Delta, sigma) >= R(Delta, sigma o tau_1p o tau_{d nu^-1(sigma(p))})",
        "calauzenes2013.lemma4_1.proof_exchanges",
    ),
    E(
        "Lemma 4.1, proof, step 2",
        "R(Delta, nu) - R(Delta, sigma) <= ... = (U_i - U_j)(phi(1) - phi(nu^-1(j))) + R'(Delta, nu') - R'(Delta, sigma')",
        "calauzenes2013.lemma4_1.proof_split",
        "calauzenes2013.lemma4_1.proof_split.corrected",
    ),
    E("Figure 1", "Pictorial representation of sigma o tau_1p o tau_{d nu^-1(sigma(p))}", reason="prose"),
    E(
        "Section 4, Eqs. (7) and (8)",
        "Delta_ij(eps) = {Delta | U_i - U_j >= eps}; Omega_ij = {s | s_i <= s_j}",
        reason="definition",
    ),
    E(
        "Theorem 4.2",
        "(a) There is a function delta ... (b) l is uniformly r-calibrated on Delta. We have (a) => (b) and, if phi(i) > phi(i+1), then (b) => (a)",
        reason=_GENERAL,
    ),
    E(
        "Theorem 4.2, proof, step 1",
        "By Lemma 4.1, we obtain R-bar(Delta) - R(Delta, s) < n/2 phi(1) eps, since there are less than n/2 non-overlapping pairs",
        "calauzenes2013.theorem4_2.proof_pair_count",
        "calauzenes2013.theorem4_2.proof_pair_count.corrected",
        "calauzenes2013.theorem4_2.proof_regret_bound",
    ),
    E(
        "Theorem 4.2, proof, step 2",
        "R-bar(Delta) - R(Delta, sigma) >= eps min_{j <= n} |phi(j) - phi(j+1)|",
        "calauzenes2013.theorem4_2.proof_lower_bound",
        "calauzenes2013.theorem4_2.proof_lower_bound.corrected",
    ),
    E(
        "Corollary 4.3",
        "Assume Delta can be given a topology such that: 1. Delta is compact; 2. ... Then, l is r-calibrated on Delta if and only if it is uniformly r-calibrated",
        reason="not checkable: a topological statement over arbitrary distribution sets and losses",
    ),
    E(
        "Lemma 4.4",
        "Let psi_k : R -> R_+ be K continuous functions ... the function q -> inf_{s in Omega} sum_k q_k psi_k(s) is continuous",
        reason="out of scope: Zhang (2004) [35, Lemma 27], quoted",
    ),
    E(
        "Corollary 4.5",
        "Suppose that Y is finite ... 1. l is r-calibrated on Delta iff it is uniformly calibrated ... 3. If phi(i) > phi(i+1) ... order-preserving iff uniformly r-calibrated",
        reason=_GENERAL,
    ),
    E(
        "Section 5.1, Eq. (9)",
        "R-bar(P) - R(P, f) <= c C_phi(2) sqrt(L^u(P, f) - L^u(P)), with C_phi(p) = (sum_{i<=n/2} (phi(i) - phi(n-i+1))^p)^{1/p}",
        reason="not checkable: an integrated bound over all distributions P; its inner form is checked per loss (Table 2 rows, Lemma 5.1)",
    ),
    E(
        "Section 5.1",
        "C_phi(p) is generally strictly lower than ||phi||_p",
        "calauzenes2013.section5_1.c_phi_below_norm",
    ),
    E(
        "Table 2, caption",
        "eta > max_i U_i(Delta) ... varphi_alpha(x) = 0 if x <= 0, x^2/(2 alpha) if x in [0, alpha], x - alpha/2 otherwise",
        reason="definition",
    ),
    E(
        "Table 2, row 1 (pointwise Squared Error)",
        "(v_i - s_i)^2, c = sqrt(2)",
        "calauzenes2013.table2.pointwise.squared",
    ),
    E(
        "Table 2, row 2 (pointwise Logistic)",
        "v_i log(1 + e^{-s_i}) + (eta - v_i) log(1 + e^{s_i}), c = sqrt(eta)",
        "calauzenes2013.table2.pointwise.logistic",
    ),
    E(
        "Table 2, row 3 (pointwise Exponential)",
        "v_i e^{-s_i} + (eta - v_i) e^{s_i}, c = sqrt(eta)",
        "calauzenes2013.table2.pointwise.exponential",
    ),
    E(
        "Table 2, row 4 (pointwise Square Hinge)",
        "v_i max(0, t - s_i)^2 + (eta - v_i) max(0, s_i)^2, c = sqrt(eta)/sqrt(2 eta)",
        "calauzenes2013.table2.pointwise.square_hinge",
        "calauzenes2013.table2.pointwise.square_hinge.corrected",
        "calauzenes2013.table2.pointwise.square_hinge.best_constant",
        "calauzenes2013.table2.pointwise.square_hinge.scaling",
    ),
    E(
        "Table 2, row 5 (pointwise Differentiable Hinge)",
        "v_i varphi_alpha(1 - s_i) + (eta - v_i) varphi_alpha(s_i), c = 4 sqrt(eta/alpha)",
        "calauzenes2013.table2.pointwise.differentiable_hinge",
        "calauzenes2013.table2.pointwise.differentiable_hinge.corrected",
        "calauzenes2013.table2.pointwise.differentiable_hinge.scaling",
    ),
    E(
        "Table 2, row 6 (pairwise Squared Error)",
        "(v_i - v_j - d_ij)^2, c = 1",
        "calauzenes2013.table2.pairwise.squared",
    ),
    E(
        "Table 2, row 7 (pairwise Logistic)",
        "v_i log(1 + e^{-d_ij}) + v_j log(1 + e^{d_ij}), c = 2 sqrt(||U(Delta)||_oo)",
        "calauzenes2013.table2.pairwise.logistic",
    ),
    E(
        "Table 2, row 8 (pairwise Exponential)",
        "v_i e^{-d_ij} + v_j e^{d_ij}, c = 2 sqrt(||U(Delta)||_oo)",
        "calauzenes2013.table2.pairwise.exponential",
    ),
    E(
        "Table 2, row 9 (Bregman divergence)",
        "psi mu-strongly convex (12), c = 2/sqrt(mu)",
        reason="not checkable: Theorem 5.3's bound for every mu-strongly convex psi; its instances are the pointwise Logistic and Exponential rows",
    ),
    E("Lemma 5.1, Eq. (10)", "C_phi(p) = (sum_{i=1}^{floor(n/2)} (phi(i) - phi(n-i+1))^p)^{1/p}", reason="definition"),
    E(
        "Lemma 5.1",
        "R-bar(Delta) - R(Delta, s) <= C_phi(p) (sum_{(i,j) in C_s} (U_i - U_j)^q)^{1/q}",
        "calauzenes2013.lemma5_1",
        "calauzenes2013.lemma5_1.p3",
        "calauzenes2013.lemma5_1.p3_2",
    ),
    E(
        "Section 5.2",
        "H_ij(u, Delta) = Lambda_i + Lambda_j (infima); H^-_ij(u, Delta) = inf over (s_i - s_j)(U_i - U_j) <= 0 of Lambda(s_i) + Lambda(s_j)",
        reason="definition",
    ),
    E(
        "Theorem 5.2, Eq. (11)",
        "If there exists c > 0 and q >= 1 such that c^q (H^-_ij - H_ij) >= |U_i - U_j|^q, then ... R-bar(P) - R(P, f) <= c C_phi(p) (L^u(P, f) - L^u(P))^{1/q}",
        reason="not checkable: quantifies over every pointwise template loss and all distributions; its instances are the Table 2 pointwise rows",
    ),
    E(
        "Theorem 5.2, proof",
        "L^u(Delta, s) - L^u(Delta) >= ... = sum_{(i,j) in C_s} (H^-_ij(u, Delta) - H_ij(u, Delta))",
        "calauzenes2013.theorem5_2.proof_split",
    ),
    E("Section 5.2, Eq. (12)", "f(tx + (1-t)y) <= t f(x) + (1-t) f(y) - mu/2 t(1-t) ||x - y||^2", reason="definition"),
    E(
        "Section 5.2",
        "if psi is mu-strongly convex, we have B_psi(u||v) >= mu/2 ||u - v||^2",
        "calauzenes2013.audit.section5_2.bregman_strong_convexity_step",
        "calauzenes2013.audit.section5_2.bregman_strong_convexity_limit",
    ),
    E(
        "Theorem 5.3",
        "R-bar(P) - R(P, f) <= 2 C_phi(2)/sqrt(mu) sqrt(L^u(P, f) - L^u(P))",
        reason="not checkable: quantifies over every mu-strongly convex psi and invertible order-preserving g",
    ),
    E(
        "Theorem 5.3, proof, step 1",
        "Since L^u(Delta) = 0, we have: L^u(Delta, s') - L^u(Delta) = int B_psi(y || g(s')) dDelta(y) >= mu/2 int ||u(y) - g(s')||^2",
        "calauzenes2013.theorem5_3.proof_first_step",
        "calauzenes2013.theorem5_3.proof_first_step.corrected",
    ),
    E("Section 5.2", "D = {d in R^n x R^n / for all i, j, k, d_ij = d_ik + d_kj}", reason="definition"),
    E(
        "Theorem 5.4, Eq. (13)",
        "if l^u satisfies: 1. L^u(Delta) = inf_{d in D} ... = inf_d ...; 2. inf_{d_ij <= 0} Lambda - inf Lambda >= |U_i - U_j|^q / c^q. Then ... (13)",
        reason="not checkable: quantifies over every pairwise template loss and all distributions; its instances are the Table 2 pairwise rows (Appendix B.5)",
    ),
    E(
        "Theorem 5.4, proof",
        "L^u(Delta, s) - L^u(Delta) >= inf_{d in Gamma(C_s)} sum_{i<j} Lambda - inf_d sum_{i<j} Lambda >= sum_{(i,j) in C_s} inf_{d_ij <= 0} Lambda - inf Lambda >= 1/c^q sum |U_i - U_j|^q",
        "calauzenes2013.theorem5_4.proof_split",
    ),
    E(
        "Section 6",
        "such losses are not order-preserving when varphi is convex ... we propose an alternative formulation l(v, s) = sum_{i<j} (v_i varphi(s_i - s_j) + v_j varphi(s_j - s_i))",
        "calauzenes2013.remark2.usual_pairwise_not_order_preserving",
        "calauzenes2013.remark2.proposed_pairwise_order_preserving",
    ),
    E(
        "Section 6",
        "Spearman's correlation coefficient (see Table 1), which considers total orders as supervision, is actually a GPPM",
        "calauzenes2013.table1.spearman.gppm_form",
    ),
    E(
        "Appendix A, Eq. (14)",
        "l(v, s) = sum_{i=k}^n v_k varphi_i(s)",
        "calauzenes2013.eq14.pairwise_form",
        "calauzenes2013.eq14.pairwise_form.corrected",
    ),
    E(
        "Appendix A",
        "The pairwise losses described in (4) with lambda = v_i varphi(s_i - s_j) + v_j varphi(s_j - s_i) have this form (take varphi_i(s) = sum_{j != i} varphi(s_i - s_j))",
        "calauzenes2013.remark2.inner_risk_form",
    ),
    E(
        "Footnote 2",
        "There is no loss in generality here. If u does not satisfy this assumption, we can simply increase Y and extend u so that the assumption is satisfied",
        reason="prose",
    ),
    E(
        "Footnote 3",
        "The only thing that has to be verified is that Delta = {Delta in D : ||U(Delta)||_oo <= B} is closed, which is the case ... since {U(Delta), Delta in Delta} = [min K, min(sup K, B)]^n",
        "calauzenes2013.footnote3.u_range",
    ),
    E(
        "Corollary A.1",
        "assume u(Y) = K^n for some closed set K subset R^n",
        "calauzenes2013.corollary_a1.k_dimension",
        "calauzenes2013.corollary_a1.k_dimension.corrected",
    ),
    E(
        "Corollary A.1",
        "the u-instance of l is r-calibrated on Delta if and only if it is uniformly r-calibrated",
        reason="not checkable: a topological statement on an infinite supervision space",
    ),
    E(
        "Appendix A, Eq. (15)",
        "R-bar(Delta) - R(Delta, s) <= c sqrt(B) sqrt(L(Delta, s) - L(Delta))",
        "calauzenes2013.table2.pairwise.logistic",
        "calauzenes2013.table2.pairwise.exponential",
    ),
    E(
        "Footnote 4",
        "if the regret bound for some loss l does not depend on B, as for squared-loss-based scoring losses, then we can directly have a regret bound using Jensen's inequality",
        reason="prose",
    ),
    E(
        "Corollary A.2",
        "R-bar(P) - R(P, f) <= c sqrt(R-bar(P)/phi(1)) sqrt(L(P, f) - L(P))",
        reason="not checkable: an integrated bound over every distribution P on X x Y and every loss satisfying (15); its two finite steps (Cauchy-Schwarz over P_X, R-bar >= phi(1) ||U||_oo) are the entries of its proof below",
    ),
    E(
        "Appendix A, proof of Corollary A.2",
        "Integrating (15) over P_X with B = ||U(Delta)||_oo and Delta = P(.|x) and using Cauchy-Schwarz inequality, we obtain: R-bar(P) - R(P, f) <= c sqrt(int ||U(P(.|x))||_oo dP_X) sqrt(L(P, f) - L(P))",
        "calauzenes2013.corollary_a2.proof_cauchy_schwarz",
    ),
    E(
        "Appendix A, proof of Corollary A.2",
        "for any P(.|x), we have R-bar(P(.|x)) >= phi(1) max_i U_i(P(.|x)) = phi(1) ||U(P(.|x))||_oo",
        "calauzenes2013.corollary_a2.proof_top_term",
    ),
    E(
        "Appendix B.1",
        "Spearman(y, sigma) = ... = sum_k 12(n-k)(n - y^-1(sigma(k)))/(n(n^2-1)) - 3(n-1)/(n+1)",
        "calauzenes2013.table1.spearman.gppm_form",
    ),
    E(
        "Appendix B.1",
        "AUC(y, sigma) = ... = sum_k y_sigma(k)(n-k)/(||y||_1 (n - ||y||_1)) - (||y||_1 - 1)/(2(n - ||y||_1))",
        "calauzenes2013.table1.auc.gppm_form",
        "calauzenes2013.table1.auc.gppm_form.corrected",
    ),
    E(
        "Definition B.1",
        "A standardization function of Y for r is a function u : Y -> R^n_+ which ... satisfies U(Delta) in arg max_s R(Delta, s)",
        reason="definition",
    ),
    E(
        "Lemma B.2, hypotheses 1-2",
        "r(y, sigma) = r(tau_ij(y), tau_ij o sigma) (symmetry) ... (y_i > y_j and sigma^-1(i) > sigma^-1(j)) => r(y, sigma) < r(y, tau_ij o sigma)",
        "calauzenes2013.lemma_b2.ap_hypotheses",
        "calauzenes2013.lemma_b2.err_hypotheses",
    ),
    E(
        "Lemma B.2, conclusions 1-3",
        "Then, for any standardization function u for r: 1. y_i > y_j => u_i(y) > u_j(y), 2. ..., 3. ... u_i(y) + u_i(y') = u_j(y) + u_j(y')",
        reason="not checkable: quantifies over every measure r with hypotheses 1-2 and every standardization function u (u : {0,1}^n -> R^n_+ with U(Delta) in arg max for every distribution, an infinite family of conditions); the finite steps of its proof are the entries below, three of them errata of the proof of point 3 (findings proof_labels, proof_mixture, proof_no_constraint)",
    ),
    E(
        "Lemma B.2, proof of point 2",
        "Delta^alpha = alpha delta_{y^j} + (1 - alpha) delta_y for alpha > 0 such that (1 - alpha)u_i(y) + alpha u_i(y^j) > (1 - alpha)u_j(y) + alpha u_j(y^j)",
        "calauzenes2013.lemma_b2.proof_point2_mixture",
    ),
    E(
        "Lemma B.2, proof of point 2",
        "By strict monotonicity (y^j requires j ranked before i) and symmetry (the relative ordering of i and j does not matter for y), the small probability alpha implies U_j(Delta^alpha) > U_i(Delta^alpha)",
        "calauzenes2013.lemma_b2.proof_point2_swap",
    ),
    E(
        "Lemma B.2, proof of point 3",
        "Without loss of generality, assume y_i = 1 (thus, y_j = y_i' = 1 and y_i' = 0)",
        "calauzenes2013.lemma_b2.proof_labels",
        "calauzenes2013.lemma_b2.proof_labels.corrected",
    ),
    E(
        "Lemma B.2, proof of point 3",
        "Delta^beta = beta delta_{y^j} + (1-beta)/2 delta_{y^j} + (1-beta)/2 delta_{y^j}, and beta > 0 small enough so that U_i(Delta^beta) > U_j(Delta^beta)",
        "calauzenes2013.lemma_b2.proof_mixture",
        "calauzenes2013.lemma_b2.proof_mixture.corrected",
    ),
    E(
        "Lemma B.2, proof of point 3",
        "Since sum_k y_k = sum_k y_k' and using the symmetry of the ranking performance measure, we can claim that y and y' do not impose any constraint on the relative ordering of any two items for which y_i + y_i' = y_j + y_j'",
        "calauzenes2013.lemma_b2.proof_no_constraint",
        "calauzenes2013.lemma_b2.proof_no_constraint.corrected",
    ),
    E(
        "Appendix B.2, proof of Theorem 3.3",
        "ERR(Delta, 1>3>2>4) = ERR(Delta, 1>2>3>4) + 1/24; AP(Delta, 1>3>2>4) = AP(Delta, 1>2>3>4) - 1/12",
        "calauzenes2013.theorem3_3.err_gap",
        "calauzenes2013.theorem3_3.err_gap.corrected",
        "calauzenes2013.theorem3_3.ap_gap",
        "calauzenes2013.theorem3_3.ap_gap.corrected",
    ),
    E(
        "Appendix B.2, proof of Theorem 3.3",
        "Thus, some permutations are suboptimal, which contradicts the existence of a standardization function",
        "calauzenes2013.theorem3_3.err_not_all_optimal",
        "calauzenes2013.theorem3_3.ap_not_all_optimal",
        "calauzenes2013.theorem3_3.err_family_not_all_equal",
        "calauzenes2013.theorem3_3.ap_family_not_all_equal",
    ),
    E(
        "Appendix B.3, proof of Lemma 5.1, step 1",
        "<= (sum_{C_s} (phi(nu^-1(i)) - phi(nu^-1(j)))^q)^{1/p} (sum_{C_s} (U_i - U_j)^q)^{1/q}",
        "calauzenes2013.lemma5_1.proof_first_step",
        "calauzenes2013.lemma5_1.proof_first_step.corrected",
    ),
    E(
        "Appendix B.3, proof of Lemma 5.1, step 2",
        "<= (sum_{i=1}^{(n+1)/2} (phi(i) - phi(n-i+1))^q)^{1/p} (...)^{1/q}",
        "calauzenes2013.lemma5_1.proof_second_step",
        "calauzenes2013.lemma5_1.proof_second_step.corrected",
    ),
    E(
        "Appendix B.4, Eq. (16)",
        "H^-_ij - H_ij = 2 lambda((U_i + U_j)/2) - lambda(U_i) - lambda(U_j)",
        "calauzenes2013.eq16",
    ),
    E(
        "Appendix B.4, Proof Squared Error",
        "H^-_ij - H_ij = 1/2 (U_i - U_j)^2",
        "calauzenes2013.table2.pointwise.squared",
        "calauzenes2013.theorem5_2.proof_split",
    ),
    E(
        "Appendix B.4, Proof Square Hinge",
        "lambda(x) = t^2/eta x (eta - x) which is 2t^2/eta-strongly concave ... H^- - H >= mu/8 (U_i - U_j)^2",
        "calauzenes2013.table2.pointwise.square_hinge.inner_minimum",
        "calauzenes2013.table2.pointwise.square_hinge",
        "calauzenes2013.table2.pointwise.square_hinge.corrected",
    ),
    E(
        "Appendix B.4, Proof Hinge Differentiable",
        "H^-_ij - H_ij > lambda((U_i + U_j)/2) - lambda(U_i) >= alpha/(16n) (U_i - U_j)^2",
        "calauzenes2013.table2.pointwise.differentiable_hinge.inner_minimum",
        "calauzenes2013.table2.pointwise.differentiable_hinge.corrected",
    ),
    E(
        "Appendix B.4, Proof Logistic",
        "psi(x) = x log(x) + (1-x) log(1-x) which is 4-strongly convex, h(u) = log(u/(eta - u))",
        "calauzenes2013.table2.pointwise.logistic",
    ),
    E(
        "Appendix B.4, Proof Logistic, step 2",
        "lambda(v_i, s_i) = eta B_psi(v_i/eta || h^-1(s_i)) - eta psi(v_i/eta)",
        "calauzenes2013.table2.pointwise.logistic.bregman_form",
        "calauzenes2013.table2.pointwise.logistic.bregman_form.corrected",
    ),
    E(
        "Appendix B.4, Proof Exponential",
        "psi(x) = -2 sqrt(x(eta - x)) which is 4/eta-strongly convex, h(u) = log(sqrt(u/(eta - u)))",
        "calauzenes2013.table2.pointwise.exponential",
    ),
    E(
        "Appendix B.4, Proof Exponential, step 2",
        "lambda(v_i, s_i) = B_psi(v_i || h^-1(s_i)) - psi(v_i)",
        "calauzenes2013.table2.pointwise.exponential.bregman_form",
    ),
    E(
        "Appendix B.5, Proof Squared Error",
        "d*_ij = U_i - U_j, so d* in D ... inf_{d_ij <= 0} Lambda - inf Lambda = (U_i - U_j)^2",
        "calauzenes2013.table2.pairwise.squared",
    ),
    E(
        "Appendix B.5, Proof Logistic",
        "d*_ij = log(U_i/U_j) ... = U_i log U_i + U_j log U_j - (U_i + U_j) log((U_i + U_j)/2) >= 1/(4||U||_oo) (U_i - U_j)^2",
        "calauzenes2013.table2.pairwise.logistic_reduction",
        "calauzenes2013.table2.pairwise.logistic",
    ),
    E(
        "Appendix B.5, Proof Exponential",
        "d*_ij = log(sqrt(U_i/U_j)) ... = (sqrt U_i - sqrt U_j)^2 >= 1/(4||U||_oo) (U_i - U_j)^2",
        "calauzenes2013.table2.pairwise.exponential_form",
        "calauzenes2013.table2.pairwise.exponential",
    ),
]
