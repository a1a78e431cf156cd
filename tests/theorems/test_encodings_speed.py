"""Faster encodings of slow library claims build the same statements: ListNet's g_1-derivative
(xia2009.listnet.difference_identity) is the very expression ``sympy.diff`` builds; the positive factors
cancelled from xia2009.listnet_modified.order_sensitive's products leave an equivalent inequality and
nothing that is not positive is cancelled, and top-k ListMLE's condition (2) (xia2009.listmle_topk.order_sensitive)
keeps its sign; duchi2010.lemma16.all_weights' cyclic case is the disjunction of the per-order cases' conclusions;
Proposition 9's cases share Definition 3 at each depth (issue 25, item 6)."""

from __future__ import annotations

import pytest
import sympy

from symcal.errors import InvalidInput
from symcal.library import load_paper

X = load_paper("xia2009", "symcal_test_encodings_xia2009")
D = load_paper("duchi2010", "symcal_test_encodings_duchi2010")
S433 = X.S433


def _scores(n: int) -> tuple[list[sympy.Symbol], list[sympy.Symbol]]:
    g = list(sympy.symbols(" ".join(f"g{i}" for i in range(1, n + 1)), real=True))
    psi = list(sympy.symbols(" ".join(f"psi{s}" for s in range(1, n + 1)), real=True))
    return g, psi


@pytest.mark.parametrize("n", [3, 4])
def test_listnet_derivative_is_the_expression_sympy_diff_builds(n):
    g, psi = _scores(n)
    for y in S433.position_patterns(n):
        for pattern in (y, S433.swap(y, 1, 2)):
            sy = S433.position_scores(psi, pattern)
            assert S433.cross_entropy_derivative(sy, g, g[0]) == sympy.diff(S433.cross_entropy_expr(sy, g), g[0])


def test_listnet_derivative_in_a_symbol_of_psi_is_refused():
    g, psi = _scores(3)
    with pytest.raises(InvalidInput, match="x=psi1"):
        S433.cross_entropy_derivative(S433.position_scores(psi, (1, 2, 3)), g, psi[0])


def test_cancel_positive_removes_the_shared_positive_factors_and_keeps_the_order():
    u0, u1, u2 = sympy.symbols("u0 u1 u2", positive=True)
    left, right = u1 * (u1 + u0) ** 2 * (u2 + u0), u1 * (u1 + u0) * (u2 + 2 * u0)
    lo, ro = S433.cancel_positive(left, right)
    assert (lo, ro) == ((u1 + u0) * (u2 + u0), u2 + 2 * u0)
    assert sympy.cancel(left / right - lo / ro) == 0


def test_cancel_positive_keeps_a_shared_factor_whose_sign_is_unknown():
    x = sympy.Symbol("x", real=True)  # x may be negative: x a > x b does not give a > b
    a, b = sympy.symbols("a b", positive=True)
    assert S433.cancel_positive(x * a, x * b) == (x * a, x * b)
    assert S433.cancel_positive(-a * (a + b), -b * (a + b)) == (-a, -b)  # -1 is not cancelled, a + b is


@pytest.mark.parametrize("modified", [True, False])
def test_listnet_psi_cases_state_each_a_pi_sign_as_the_uncancelled_products_do(modified):
    """Every relation of the n = 3 psi-side cases is the uncancelled n1 d2 vs n2 d1 one divided by a
    positive common factor: the two agree at seeded positive points (and both are polynomial)."""
    import random

    n = 3
    u = list(sympy.symbols(" ".join(f"u{s}" for s in range(n + 1)), positive=True))
    rng = random.Random(7)
    for k in range(1, n + 1):
        top = k if modified else n
        for y in S433.position_patterns(n):
            w = [u[S433.pos(y, o)] if S433.pos(y, o) <= top else u[0] for o in range(1, n + 1)]
            for pi in (p for p in S433.perms(n) if S433.before(p, 1, 2)):
                (n1, d1), (n2, d2) = S433.luce_parts(w, pi, n), S433.luce_parts(w, S433.swap(pi, 1, 2), n)
                lo, ro = S433.cancel_positive(n1 * d2, n2 * d1)
                assert sympy.cancel(n1 * d2 * ro - n2 * d1 * lo) == 0  # the same ratio
                for _ in range(5):
                    pt = {s: sympy.Rational(rng.randint(1, 50), rng.randint(1, 50)) for s in u}
                    full = (n1 * d2 - n2 * d1).xreplace(pt)
                    assert sympy.sign((lo - ro).xreplace(pt)) == sympy.sign(full)


def test_lemma16_cyclic_case_is_the_disjunction_of_the_per_order_conclusions():
    cases = D.appendix.lemma16_symbolic_cases(3)
    *per_order, (label, _, cyclic) = cases
    assert label == "m=3, cyclic"
    assert cyclic == sympy.Or(*[sympy.Not(concl) for _, _, concl in per_order])


def test_lemma16_cyclic_case_is_not_the_conjunction_of_the_per_order_conclusions():
    *per_order, (_, _, cyclic) = D.appendix.lemma16_symbolic_cases(3)
    assert cyclic != sympy.And(*[concl for _, _, concl in per_order])


def test_listmle_condition2_keeps_the_sign_of_the_uncancelled_products():
    n = 4
    t = X.t_symbols(n)
    for k in range(1, n + 1):
        for y in S433.position_patterns(n):
            z = S433.swap(y, 1, 2)
            (ny, dy), (nz, dz) = S433.luce_parts(t, y, k), S433.luce_parts(t, z, k)
            lo, ro = S433.cancel_positive(nz * dy, ny * dz)
            assert sympy.cancel(nz * dy * ro - ny * dz * lo) == 0
            assert sympy.total_degree(sympy.expand(lo - ro)) <= sympy.total_degree(sympy.expand(nz * dy - ny * dz))


def test_listmle_twin_demanding_strictness_everywhere_is_still_refuted():
    from symcal.runner import check

    twin = X.TWINS["xia2009.listmle_topk.order_sensitive"]()
    assert check(twin, sizes=(3, 3), timeout=60).status.value == "refuted"


def test_proposition9_conclusion_at_k_is_the_hypothesis_at_k_plus_one():
    cases = X.S42.proposition9_cases(3)
    by_label = {label: (hyps, concl) for label, hyps, concl in cases}
    hyp_2 = by_label["n=3, k=2->3, ties=(0, 1, 2)"][0]["definition3_at_k"]
    concl_1 = by_label["n=3, k=1->2, ties=(0, 1, 2)"][1]
    assert concl_1 == sympy.And(*hyp_2)
    assert concl_1 != sympy.And(*by_label["n=3, k=1->2, ties=(0, 1, 2)"][0]["definition3_at_k"])
