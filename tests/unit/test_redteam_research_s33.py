"""Red team of the research features with the least scrutiny: cc-dim brackets, the noise-condition
map and argmin / two-family claims, each checked against known truths by code written here (exact
Fractions and brute force), not by symcal's own functions.

Known truths used (Ramaswamy & Agarwal, "Convex calibration dimension for multiclass loss matrices",
JMLR 2016): CCdim(0-1, n classes) = n - 1, CCdim(Hamming on {0,1}^m) = m, CCdim(ordinal squared)
= 1; for every loss, the lower end is the feasible-subspace bound rank[1; (l_t - l_t')^T, t' tied]
- 1 at a relative-interior point and the upper end the rank of the double differences (at most
n - 1).  The noise conditions are re-implemented from Duchi, Mackey & Jordan (2010), Definition 8
and Theorem 13, Ramaswamy, Agarwal & Tewari (2013), Theorem 6 and Section 7.2, and Xia, Liu & Li
(2009), Definition 2.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import pytest
import sympy

from symcal import Citation, check, implies, reals, unique_minimiser
from symcal.calibration import cc_dimension
from symcal.calibration.dimension import known_surrogates, multiclass_loss
from symcal.errors import SymcalError
from symcal.explore import noise_map as nm

# --------------------------------------------------------------------------- independent helpers


def _rank(rows: list[list[F]]) -> int:
    """Exact rank by Gaussian elimination in Fractions (written apart from symcal's)."""
    a = [list(map(F, r)) for r in rows]
    rank, col, width = 0, 0, len(a[0]) if a else 0
    while rank < len(a) and col < width:
        piv = next((i for i in range(rank, len(a)) if a[i][col] != 0), None)
        if piv is None:
            col += 1
            continue
        a[rank], a[piv] = a[piv], a[rank]
        for i in range(len(a)):
            if i != rank and a[i][col] != 0:
                f = a[i][col] / a[rank][col]
                a[i] = [x - f * y for x, y in zip(a[i], a[rank], strict=True)]
        rank += 1
        col += 1
    return rank


def _matrix(mat) -> list[list[F]]:
    n, k = mat.shape
    return [[F(int(mat.numerators[y, t]), mat.denominator) for t in range(k)] for y in range(n)]


def _upper(L: list[list[F]]) -> int:
    """0 with an entrywise-minimal column, else min(rank D, n - 1)."""
    n, k = len(L), len(L[0])
    if any(all(L[y][t] <= L[y][s] for s in range(k) for y in range(n)) for t in range(k)):
        return 0
    d = [[L[y][t] - L[y][k - 1] - L[n - 1][t] + L[n - 1][k - 1] for t in range(k - 1)] for y in range(n - 1)]
    return min(_rank(d), n - 1)


def _certificate_bound(L: list[list[F]], p: list[str]) -> int:
    """The feasible-subspace bound proved by a point ``p`` (re-derived: p > 0, sums to 1, tied set, rank)."""
    q = [F(x) for x in p]
    assert sum(q) == 1 and all(x > 0 for x in q)
    n, k = len(L), len(L[0])
    v = [sum(q[y] * L[y][t] for y in range(n)) for t in range(k)]
    tied = [t for t in range(k) if v[t] == min(v)]
    return _rank([[F(1)] * n] + [[L[y][tied[0]] - L[y][t] for y in range(n)] for t in tied[1:]]) - 1


# --------------------------------------------------------------------------- cc-dim


@pytest.mark.parametrize(("name", "n", "truth"), [("zero-one", 3, 2), ("zero-one", 5, 4), ("hamming", 2, 2),
                                                   ("ordinal-sq", 4, 1), ("subset-zero-one", 2, 3)])
def test_cc_dim_of_a_loss_with_a_known_value_is_exactly_that_value(name, n, truth):
    mat = multiclass_loss(name, n)
    cc = cc_dimension(mat, cpu_seconds=30)
    L = _matrix(mat)
    assert (cc.lower, cc.upper, cc.exact) == (truth, truth, True)
    assert _upper(L) == truth
    assert _certificate_bound(L, cc.evidence["lower"]["p"]) == truth


def test_cc_dim_of_the_abstain_loss_is_an_honest_bracket_not_an_exact_value():
    cc = cc_dimension({"name": "abstain", "n": 3}, cpu_seconds=30)
    assert (cc.lower, cc.upper, cc.exact) == (1, 2, False)  # ceil(log2 3) = 2; no relint point gives more than 1
    assert _certificate_bound(_matrix(multiclass_loss("abstain", 3)), cc.evidence["lower"]["p"]) == 1


def test_cc_dim_brackets_of_random_matrices_agree_with_an_independent_rank_and_certificate_check():
    rng = random.Random(33)
    for _ in range(40):
        n, k = rng.randint(2, 4), rng.randint(2, 5)
        L = [[F(rng.randint(0, rng.choice([1, 2, 4])), rng.choice([1, 1, 2, 3])) for _ in range(k)] for _ in range(n)]
        cc = cc_dimension([[str(x) for x in row] for row in L], cpu_seconds=20)
        assert cc.upper == _upper(L), L
        assert cc.lower <= cc.upper and cc.exact == (cc.lower == cc.upper)
        if "p" in cc.evidence["lower"]:
            assert _certificate_bound(L, cc.evidence["lower"]["p"]) == cc.lower, L


def _constant_abstain(n: int, columns: list[int]) -> dict:
    return {"name": "always abstain", "dim": 1, "surrogate": {"dim": 1, "per_label": ["u1**2"] * n},
            "link": {"regions": [["u1 >= 0"], ["u1 <= 0"]]}, "columns": columns}


def test_a_candidate_surrogate_whose_columns_leave_out_a_prediction_is_refused_not_proved():
    # Before: the engine decided calibration for L[:, [abstain, abstain]] (trivially calibrated: one
    # column) and cc_dimension reported the abstain loss at n = 4 as "CCdim = 1 (exact)".
    with pytest.raises(SymcalError, match="surrogates.columns.*missing: 1, 2, 3, 4"):
        cc_dimension({"name": "abstain", "n": 4}, surrogates=[_constant_abstain(4, [4, 4])], cpu_seconds=30)
    with pytest.raises(SymcalError, match="surrogates.columns"):  # zero-one: it used to end in an AssertionError
        cc_dimension(multiclass_loss("zero-one", 3), surrogates=[{**_constant_abstain(3, [0, 0])}], cpu_seconds=30)


def test_a_candidate_whose_columns_cover_every_column_up_to_repeats_still_lowers_the_upper_end():
    mat = multiclass_loss("abstain", 4)
    L = _matrix(mat)
    wide = [[str(x) for x in row] + [str(row[-1])] for row in L]  # the abstain column twice: column 5 = column 4
    cc = cc_dimension(wide, surrogates=known_surrogates("abstain", 4), cpu_seconds=60)
    assert cc.upper == 2 and "binary-encoded" in cc.evidence["upper"]["by"]  # ceil(log2 4), not rank D = 3
    assert cc.lower == 1 and not cc.exact


# --------------------------------------------------------------------------- the noise map, re-decided


def _a_of(dist, n: int) -> dict:
    a = {(i, j): F(0) for i in range(1, n + 1) for j in range(1, n + 1) if i != j}
    for y, pr in dist:
        for i, j, w in y.edges:
            a[(i, j)] += pr * w
    return a


def _edges(a, n):
    return [(i, j) for (i, j) in a if a[(i, j)] > a[(j, i)]]


def _acyclic(a, n) -> bool:
    left, edges = set(range(1, n + 1)), _edges(a, n)
    while left:
        src = [v for v in left if not any(j == v and i in left for i, j in edges)]
        if not src:
            return False
        left -= set(src)
    return True


def _d(a, i, j):
    return a[(i, j)] - a[(j, i)]


def _low_noise(a, n) -> bool:  # Duchi et al., Definition 8
    return all(not (_d(a, i, j) > 0 and _d(a, j, k) > 0) or _d(a, i, k) >= _d(a, i, j) + _d(a, j, k)
               for i, j, k in itertools.permutations(range(1, n + 1), 3))


def _p_f(a, n, score) -> bool:  # Ramaswamy et al., Theorem 6
    return all(score(a, n, i) > score(a, n, j) for i, j in _edges(a, n))


def _net(a, n, i):
    return sum(_d(a, i, j) for j in range(1, n + 1) if j != i)


def _out(a, n, i):
    return sum(a[(i, j)] for j in range(1, n + 1) if j != i)


DAG = {"low_noise": _low_noise, "theorem13": lambda a, n: _acyclic(a, n) and _p_f(a, n, _net),
       "p_f_dmj": lambda a, n: _p_f(a, n, _net), "p_f_out": lambda a, n: _p_f(a, n, _out), "p_dag": _acyclic}


def _order_preserving(P: dict, n: int, k: int) -> bool:  # Xia et al., Definition 2, objects 1 and 2
    def sub(prefix):
        return sum((pr for y, pr in P.items() if y[:len(prefix)] == prefix), F(0))
    for y in itertools.permutations(range(1, n + 1)):
        s = tuple(2 if x == 1 else 1 if x == 2 else x for x in y)
        if y.index(1) < y.index(2) and y[:k] != s[:k] and not sub(y[:k]) > sub(s[:k]):
            return False
    return True


PERM = {"op_top1": lambda P, n: _order_preserving(P, n, 1), "op_top2": lambda P, n: _order_preserving(P, n, 2)}


@pytest.fixture(scope="module")
def map3():
    return nm.noise_map(3)


def test_every_separating_distribution_at_n3_is_in_the_first_set_and_not_the_second_by_independent_code(map3):
    checked = 0
    for (a, b), cell in map3.cells.items():
        if cell.status != "separated":
            continue
        dist = list(cell.witness)
        assert sum(pr for _y, pr in dist) == 1 and all(pr >= 0 for _y, pr in dist)
        if a in DAG:
            x = _a_of(dist, 3)
            assert DAG[a](x, 3) and not DAG[b](x, 3), (a, b, dist)
        else:
            P = dict(dist)
            assert PERM[a](P, 3) and not PERM[b](P, 3), (a, b, dist)
        checked += 1
    assert checked == 13  # 12 on DAG labels (8 of the 20 pairs are proved), 1 on permutations


def test_no_small_integer_expectation_breaks_a_proved_inclusion_at_n3_and_every_separation_is_found(map3):
    pairs = [(i, j) for i in range(1, 4) for j in range(1, 4) if i != j]
    broken = set()
    for vals in itertools.product(range(4), repeat=6):  # every a in {0..3}^6 (the conditions are homogeneous)
        a = dict(zip(pairs, map(F, vals), strict=True))
        member = {k: f(a, 3) for k, f in DAG.items()}
        broken |= {(x, y) for x in DAG for y in DAG if member[x] and not member[y]}
    for x in DAG:
        for y in DAG:
            if x != y:
                assert map3.status(x, y) == ("separated" if (x, y) in broken else "proved"), (x, y)


def test_no_small_weight_distribution_over_permutations_breaks_proposition8_at_n3(map3):
    perms = list(itertools.permutations((1, 2, 3)))
    top1_not_top2 = False
    for ws in itertools.product(range(3), repeat=6):
        if sum(ws):
            P = {y: F(w, sum(ws)) for y, w in zip(perms, ws, strict=True)}
            one, two = _order_preserving(P, 3, 1), _order_preserving(P, 3, 2)
            assert one or not two, P  # top-2 order preserving => top-1 (Xia et al., Proposition 8)
            top1_not_top2 |= one and not two
    assert top1_not_top2 and map3.status("op_top1", "op_top2") == "separated"
    assert map3.status("op_top2", "op_top1") == "proved"


@pytest.mark.parametrize("call", [
    lambda: nm.inclusion_claim("low_noise", "p_dag", sizes=3),
    lambda: nm.inclusion_claim("low_noise", "p_dag", sizes=(3, 4, 5)),
    lambda: nm.inclusion_claim("p_reinforce", "p_reinforce"),
    lambda: nm.recheck_separation(None),
    lambda: nm.dag_distribution({"a_1_2": 0.5}, 3),
    lambda: nm.dag_distribution({"a_1_2": "x"}, 3),
    lambda: nm.dag_distribution(None, 3),
    lambda: nm.perm_distribution({}, 3),
    lambda: nm.perm_distribution({"p_1_2_3": 2, "p_1_3_2": -1}, 3),
    lambda: nm.noise_map(3, keys=[]),
    lambda: nm.noise_map(3, keys=["low_noise", "low_noise"]),
    lambda: nm.noise_maps(3),
    lambda: nm.format_maps([]),
    lambda: nm.inclusion_graph([]),
])
def test_bad_input_to_the_noise_map_api_is_a_symcal_error(call):
    with pytest.raises(SymcalError):
        call()


def test_good_input_to_the_same_noise_map_api_is_accepted():
    assert nm.perm_distribution({"p_1_2_3": F(1, 2), "p_2_1_3": "1/2"}, 3) == [((1, 2, 3), F(1, 2)),
                                                                                ((2, 1, 3), F(1, 2))]
    assert [pr for _y, pr in nm.dag_distribution({"a_1_2": F(2), "a_3_1": 1}, 3)] == [F(2, 3), F(1, 3)]
    assert nm.inclusion_claim("low_noise", "p_dag", sizes=[3, 4]).id.endswith("low_noise_in_p_dag")


# --------------------------------------------------------------------------- argmin and two families

W12, W13, W23 = reals("w12 w13 w23")
HALF = sympy.Rational(1, 2)
PROBS = [0 <= w for w in (W12, W13, W23)] + [w <= 1 for w in (W12, W13, W23)]
ORDERS = list(itertools.permutations((1, 2, 3)))
CITE = Citation("mine2026", "Prop. 1")


def _pd_risk(order):
    w = {(1, 2): W12, (2, 1): 1 - W12, (1, 3): W13, (3, 1): 1 - W13, (2, 3): W23, (3, 2): 1 - W23}
    pos = {item: k for k, item in enumerate(order)}
    return sum(w[i, j] for (i, j) in w if pos[i] > pos[j])


def _pd_value(order, w12, w13, w23):
    return _pd_risk(order).subs({W12: w12, W13: w13, W23: w23})


def test_a_unique_optimal_order_under_strict_low_noise_is_proved():
    c = unique_minimiser("mine2026.strict", risk=_pd_risk, over=ORDERS, best=(1, 2, 3), cite=CITE,
                         family={"p": PROBS, "ln": [W12 > HALF, W13 > HALF, W23 > HALF]})
    assert check(c).status.value == "proved"


def test_a_unique_optimum_claim_with_non_strict_noise_is_refuted_at_a_real_tie():
    c = unique_minimiser("mine2026.weak", risk=_pd_risk, over=ORDERS, best=(1, 2, 3), cite=CITE,
                         family={"p": PROBS, "ln": [W12 >= HALF, W13 > HALF, W23 > HALF]})
    v = check(c)
    assert v.status.value == "refuted"
    w = v.evidence.values
    values = {o: _pd_value(o, w["w12"], w["w13"], w["w23"]) for o in ORDERS}
    best = min(values.values())
    assert values[(1, 2, 3)] == best and sum(x == best for x in values.values()) >= 2  # a tie, re-derived


def test_a_degenerate_family_of_one_distribution_with_a_tie_is_refuted_and_without_one_proved():
    tie = {"point": [sympy.Eq(W12, HALF), sympy.Eq(W13, 1), sympy.Eq(W23, 1)]}
    clear = {"point": [sympy.Eq(W12, F(3, 4)), sympy.Eq(W13, 1), sympy.Eq(W23, 1)]}
    assert check(unique_minimiser("mine2026.tie", risk=_pd_risk, over=ORDERS, best=None, family=tie,
                                  cite=CITE)).status.value == "refuted"
    assert check(unique_minimiser("mine2026.clear", risk=_pd_risk, over=ORDERS, best=None, family=clear,
                                  cite=CITE)).status.value == "proved"


def test_a_zero_weight_pair_makes_ties_and_the_claim_is_refuted():
    w = {(1, 2): W12, (2, 1): 1 - W12, (1, 3): W13, (3, 1): 1 - W13}  # the pair {2, 3} carries weight 0

    def risk(order):
        pos = {item: k for k, item in enumerate(order)}
        return sympy.Add(*[wt for (i, j), wt in w.items() if pos[i] > pos[j]])

    family = {"p": PROBS, "ln": [W12 > HALF, W13 > HALF, W23 > HALF]}
    c = unique_minimiser("mine2026.zero", risk=risk, over=ORDERS, best=(1, 2, 3), cite=CITE, family=family)
    v = check(c)
    assert v.status.value == "refuted" and "(1, 3, 2)" in v.evidence.detail  # swapping 2 and 3 is free
    assert check(unique_minimiser("mine2026.zero_first", risk=risk, over=[(1, 2, 3), (2, 1, 3)], best=(1, 2, 3),
                                  cite=CITE, family=family)).status.value == "proved"


def test_strict_family_is_inside_the_non_strict_one_but_not_conversely_with_an_exact_boundary_witness():
    a_in_b = implies("mine2026.a_in_b", hypotheses={"p": PROBS, "A": [W12 > HALF]}, conclusion=W12 >= HALF,
                     cite=CITE)
    b_in_a = implies("mine2026.b_in_a", hypotheses={"p": PROBS, "B": [W12 >= HALF]}, conclusion=W12 > HALF,
                     cite=CITE)
    assert check(a_in_b).status.value == "proved"
    v = check(b_in_a)
    assert v.status.value == "refuted" and v.evidence.values["w12"] == F(1, 2)
