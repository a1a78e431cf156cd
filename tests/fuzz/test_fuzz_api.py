"""Property-based fuzzing of the public API (Hypothesis).

Malformed input must raise :class:`symcal.errors.SymcalError` (an ``InvalidInput`` naming
the parameter), never a bare TypeError/ValueError/KeyError/ZeroDivisionError; valid random
input must give the answer of a small independent oracle.  Derandomized for CI.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcal.errors import InvalidClaim, InvalidInput, SymcalError

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
FEW = settings(FUZZ, max_examples=15)

# --------------------------------------------------------------------------- strategies

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=8),
    st.sampled_from([10**40, -(10**40), 2**63, -1, 0]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["nan", "NaN", "inf", "-inf", "1/0", "0/0", "", " ", "-1", "1/2", "3", "x", "1e999", "2.5",
                     "__import__('os')", "exp(1)", "\x00", "é"]),
    st.text(max_size=6),
    st.fractions(max_denominator=5),
    st.builds(object),
)
junk = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.integers(-2, 5), st.text(max_size=3), st.tuples(_scalars, _scalars)), inner,
                        max_size=3),
    ),
    max_leaves=8,
)


def exact(lo: int = 0, hi: int = 4, den: int = 3) -> st.SearchStrategy[Fraction]:
    return st.builds(Fraction, st.integers(lo * den, hi * den), st.just(den))


def raises_symcal(fn, *args, **kwargs) -> BaseException | None:
    """Call ``fn``; return None on success, the SymcalError on a deliberate refusal; anything
    else (an uncaught TypeError, KeyError, ...) fails the test."""
    try:
        fn(*args, **kwargs)
    except SymcalError as e:
        assert str(e).strip(), "an error must carry a message"
        if isinstance(e, InvalidInput):
            assert e.param, f"InvalidInput without a parameter name: {e}"
            assert str(e).startswith(str(e.param)), f"message must start with the parameter: {e}"
        return e
    return None


def must_refuse(fn, *args, param: str | None = None, **kwargs) -> SymcalError:
    try:
        out = fn(*args, **kwargs)
    except SymcalError as e:
        if param is not None:
            assert param in str(e), f"expected the message to name {param!r}: {e}"
        return e
    raise AssertionError(f"{getattr(fn, '__name__', fn)} accepted malformed input and returned {out!r}")


# --------------------------------------------------------------------------- preference graphs

from symcal.ranking import (  # noqa: E402
    PreferenceDistribution,
    PreferenceGraph,
    as_weights,
    expected_weights,
    is_low_noise,
    min_feedback_arc_set,
    order_cost,
    parse_preferences,
)


@FUZZ
@given(m=junk, edges=junk)
def test_preference_graph_junk(m, edges):
    raises_symcal(PreferenceGraph, m, edges)


@FUZZ
@given(m=st.integers(2, 6), data=st.data())
def test_cyclic_graph_is_refused_with_the_cycle(m, data):
    k = data.draw(st.integers(2, m))
    nodes = data.draw(st.permutations(range(1, m + 1)))[:k]
    edges = {(nodes[t], nodes[(t + 1) % k]): data.draw(exact()) for t in range(k)}
    e = must_refuse(PreferenceGraph, m, edges, param="edges")
    assert "cycle" in str(e)


@FUZZ
@given(m=st.integers(2, 5), bad=st.one_of(st.integers(-9, -1).map(Fraction), st.just(float("nan")),
                                           st.just(float("inf")), st.just("nan"), st.just(0.5), st.just(True)))
def test_bad_weight_is_refused(m, bad):
    must_refuse(PreferenceGraph, m, {(1, 2): bad}, param="a[1,2]")


@FUZZ
@given(data=st.data())
def test_bad_edge_labels_are_refused(data):
    m = data.draw(st.integers(1, 5))
    i = data.draw(st.one_of(st.integers(-3, 0), st.integers(m + 1, m + 4), st.just(True), st.just(1.0)))
    j = data.draw(st.integers(1, m))
    must_refuse(PreferenceGraph, m, {(i, j): 1}, param="edges")
    must_refuse(PreferenceGraph, m, {(j, j): 1}, param="edges")


@st.composite
def distributions(draw, m_max: int = 5):
    m = draw(st.integers(2, m_max))
    n = draw(st.integers(1, 3))
    graphs = []
    for _ in range(n):
        order = draw(st.permutations(range(1, m + 1)))  # edges follow a random order: a DAG
        pos = {v: t for t, v in enumerate(order)}
        edges = {}
        for i, j in itertools.permutations(range(1, m + 1), 2):
            if pos[i] < pos[j] and draw(st.booleans()):
                edges[(i, j)] = draw(exact())
        graphs.append(PreferenceGraph(m, edges))
    cuts = sorted(draw(st.lists(exact(0, 1, 6), min_size=n - 1, max_size=n - 1)))
    probs = [b - a for a, b in zip([Fraction(0), *cuts], [*cuts, Fraction(1)], strict=True)]
    return PreferenceDistribution(list(zip(graphs, probs, strict=True)))


@FUZZ
@given(dist=distributions(), scale=st.sampled_from([Fraction(1, 2), Fraction(3, 2), Fraction(0), Fraction(-1)]))
def test_non_normalised_probabilities_are_refused(dist, scale):
    items = [(g, p * scale) for g, p in dist.items]
    must_refuse(PreferenceDistribution, items, param="probabilities")


@FUZZ
@given(items=junk)
def test_distribution_junk(items):
    raises_symcal(PreferenceDistribution, items)
    raises_symcal(expected_weights, items)


@FUZZ
@given(dist=distributions())
def test_expected_weights_oracle(dist):
    a = expected_weights(dist)
    for i, j in itertools.permutations(range(1, dist.m + 1), 2):
        assert a[(i, j)] == sum((p * g.edges.get((i, j), 0) for g, p in dist.items), Fraction(0))


def _brute_low_noise(a, m):
    def d(i, j):
        return a[(i, j)] - a[(j, i)]
    bad = []
    for i, j, k in itertools.permutations(range(1, m + 1), 3):
        if d(i, j) > 0 and d(j, k) > 0 and d(i, k) < d(i, j) + d(j, k):
            bad.append((i, j, k))
    return bad


@st.composite
def weight_maps(draw, m_min: int = 2, m_max: int = 5, hi: int = 4):
    m = draw(st.integers(m_min, m_max))
    a = {(i, j): draw(exact(0, hi, 2)) for i, j in itertools.permutations(range(1, m + 1), 2)}
    return m, a


@FUZZ
@given(ma=weight_maps())
def test_low_noise_against_brute_force(ma):
    m, a = ma
    res = is_low_noise(a, m)
    bad = _brute_low_noise(a, m)
    assert res.holds == (not bad)
    if bad:
        assert res.witness["triple"] == min(bad)
        assert sorted(res.violations) == sorted(bad)


@FUZZ
@given(dist=distributions())
def test_low_noise_of_a_distribution(dist):
    a = expected_weights(dist)
    assert is_low_noise(dist).holds == (not _brute_low_noise(a, dist.m))


@FUZZ
@given(w=junk, m=junk)
def test_weight_map_junk(w, m):
    raises_symcal(as_weights, w, m)
    raises_symcal(is_low_noise, w, m)


@FUZZ
@given(ma=weight_maps(m_max=6))
def test_min_feedback_arc_set_against_permutations(ma):
    m, a = ma
    res = min_feedback_arc_set(a, m)
    best = min(sum(a[(o[q], o[p])] for p in range(m) for q in range(p + 1, m))
               for o in itertools.permutations(range(1, m + 1)))
    assert res.certified
    assert res.weight == best == order_cost(a, res.order, m)
    assert sorted(res.order) == list(range(1, m + 1))


@FUZZ
@given(ma=weight_maps(m_max=3), time_limit=junk, bf=junk, order=junk)
def test_feedback_arc_set_bad_options(ma, time_limit, bf, order):
    m, a = ma
    raises_symcal(min_feedback_arc_set, a, m, time_limit=time_limit)
    raises_symcal(min_feedback_arc_set, a, m, brute_force_nodes=bf)
    raises_symcal(order_cost, a, order, m)


# --------------------------------------------------------------------------- io (decoded JSON)

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 6), st.floats(allow_nan=True),
              st.sampled_from(["1/2", "-1", "x", "1/0", "nan", ""]), st.text(max_size=4)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["m", "graphs", "weights", "p", "edges", "x"]), inner,
                                            max_size=4)),
    max_leaves=12,
)


@FUZZ
@given(data=json_values)
def test_parse_preferences_junk(data):
    raises_symcal(parse_preferences, data, "f.json")


@FUZZ
@given(m=st.integers(1, 4), data=st.data())
def test_parse_preferences_structured_junk(m, data):
    triple = st.lists(st.one_of(st.integers(-1, m + 1), json_values), min_size=0, max_size=4)
    graphs = st.lists(st.fixed_dictionaries({"p": st.one_of(st.sampled_from(["1", "1/2", "-1/2", "0"]), json_values),
                                             "edges": st.lists(triple, max_size=3)}), max_size=3)
    raises_symcal(parse_preferences, {"m": m, "graphs": data.draw(graphs)}, "f.json")
    raises_symcal(parse_preferences, {"m": m, "weights": data.draw(st.lists(triple, max_size=4))}, "f.json")


@FUZZ
@given(dist=distributions(m_max=4))
def test_parse_preferences_roundtrip(dist):
    from symcal.exact import fraction_str

    data = {"m": dist.m, "graphs": [{"p": fraction_str(p), "edges": [[i, j, fraction_str(w)]
                                                                     for (i, j), w in g.edges.items()]}
                                    for g, p in dist.items]}
    out = parse_preferences(data)
    assert expected_weights(out) == expected_weights(dist)


# --------------------------------------------------------------------------- costs (Uematsu & Lee 2013)

from symcal.ranking.costs import (  # noqa: E402
    CostScheme,
    cons_costs,
    dcg_costs,
    linear_costs,
    orboost_costs,
    ovo_costs,
    pairs_costs,
    satisfies_theorem3_condition,
    weighted_scale_costs,
    zero_one_costs,
)


@FUZZ
@given(rows=junk)
def test_cost_matrix_junk(rows):
    raises_symcal(CostScheme.from_matrix, rows)
    raises_symcal(satisfies_theorem3_condition, rows)


@FUZZ
@given(K=st.integers(2, 5), data=st.data())
def test_cost_matrix_with_a_bad_entry(K, data):
    rows = [[None if c <= r else "1" for c in range(K)] for r in range(K)]
    r, c = data.draw(st.tuples(st.integers(0, K - 1), st.integers(0, K - 1)).filter(lambda t: t[0] < t[1]))
    rows[r][c] = data.draw(st.sampled_from(["-1", "nan", "inf", "x", "", "1/0", -2, float("nan"), 0.5, True,
                                            "exp(", "log(0)", "-exp(1)", "__import__('os')"]))
    must_refuse(CostScheme.from_matrix, rows, param=f"c_{r + 1}{c + 1}")


@FUZZ
@given(K=st.integers(2, 5), data=st.data())
def test_cost_matrix_ragged_or_lower_triangle(K, data):
    rows = [[None if c <= r else "1" for c in range(K)] for r in range(K)]
    r = data.draw(st.integers(0, K - 1))
    if data.draw(st.booleans()):
        rows[r] = rows[r] + ["1"]
        must_refuse(CostScheme.from_matrix, rows, param=f"row {r + 1}")
    else:
        c = data.draw(st.integers(0, r))
        rows[r][c] = "2"
        must_refuse(CostScheme.from_matrix, rows, param=f"c_{r + 1}{c + 1}")


@FUZZ
@given(K=st.integers(2, 6), data=st.data())
def test_theorem3_condition_against_direct_evaluation(K, data):
    c = {(j, i): data.draw(exact(0, 3, 2)) for j in range(1, K + 1) for i in range(j + 1, K + 1)}

    def cc(j, i):
        return Fraction(0) if j == i else c[(j, i)]

    res = satisfies_theorem3_condition(CostScheme(K, c))
    bad = [(j, i) for j in range(1, K + 1) for i in range(j + 1, K + 1)
           if cc(1, K) * cc(j, i) - cc(1, i) * cc(j, K) + cc(1, j) * cc(i, K) != 0]
    assert res.holds is (not bad)
    assert [(v.j, v.i) for v in res.violations] == bad
    assert res.c1K_positive == (c[(1, K)] > 0)


@FUZZ
@given(K=st.integers(4, 6), w=st.lists(exact(0, 3), min_size=6, max_size=6),
       steps=st.lists(exact(1, 3), min_size=6, max_size=6))
def test_corollary1_family_satisfies_the_condition(K, w, steps):
    s = list(itertools.accumulate(steps[:K]))
    assert satisfies_theorem3_condition(weighted_scale_costs(w[:K], s)).holds is True


@FUZZ
@given(arg=junk)
def test_cost_constructors_junk(arg):
    for fn in (zero_one_costs, linear_costs, dcg_costs):
        if isinstance(arg, int) and not isinstance(arg, bool) and arg > 40:
            continue  # valid but large
        raises_symcal(fn, arg)
    for fn in (pairs_costs, ovo_costs, cons_costs, orboost_costs):
        raises_symcal(fn, arg)
    raises_symcal(weighted_scale_costs, arg, arg)


# --------------------------------------------------------------------------- loss matrices (Ramaswamy et al. 2013)

from symcal.ranking.loss_matrix import LossMatrix, analyse  # noqa: E402


@FUZZ
@given(rows=junk, labels=junk, preds=junk)
def test_loss_matrix_junk(rows, labels, preds):
    raises_symcal(LossMatrix.from_rows, rows)
    raises_symcal(LossMatrix.from_rows, [[1, 2], [3, 4]], labels=labels, predictions=preds)


@FUZZ
@given(n=st.integers(1, 4), k=st.integers(1, 4), data=st.data())
def test_loss_matrix_bad_entry_named(n, k, data):
    rows = [["1"] * k for _ in range(n)]
    a, b = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, k - 1))
    rows[a][b] = data.draw(st.sampled_from([float("nan"), float("inf"), 0.5, "x", "1/0", None, True, [1], "nan"]))
    must_refuse(LossMatrix.from_rows, rows, param=f"matrix[{a}][{b}]")
    rows[a] = rows[a] + ["1"] if n > 1 else rows[a]
    if n > 1:
        must_refuse(LossMatrix.from_rows, [["1"] * k, *rows[1:]] if a else rows, param="matrix[")


@FUZZ
@given(n=st.integers(1, 5), k=st.integers(1, 5), data=st.data())
def test_rank_against_sympy(n, k, data):
    rows = [[data.draw(st.sampled_from([Fraction(0), Fraction(1), Fraction(-2), Fraction(1, 3), Fraction(5)]))
             for _ in range(k)] for _ in range(n)]
    if data.draw(st.booleans()) and n > 1:  # make a row dependent now and then
        rows[-1] = [x + 2 * y for x, y in zip(rows[0], rows[1 % n], strict=True)]
    an = analyse(rows)
    want = sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in r] for r in rows]).rank()
    assert an.rank.certified and an.rank.value == want
    # affine dimension min_c rank(M - c 1 1^T): the certificate's c attains it, it is rank or
    # rank - 1, and no entry value of M (nor 0) does better
    M = sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in r] for r in rows])
    J = sympy.ones(n, k)
    d = an.affine.value
    assert an.affine.certified and d in (want, max(want - 1, 0))
    c = an.affine.decomposition.c
    assert (M - sympy.Rational(c.numerator, c.denominator) * J).rank() == d
    for t in {Fraction(0), *(x for r in rows for x in r)}:
        assert (M - sympy.Rational(t.numerator, t.denominator) * J).rank() >= d
    # the decomposition reproduces the matrix exactly
    assert an.decomposition.check(an.matrix).holds


# --------------------------------------------------------------------------- multipartite, permutations, listwise

from symcal.ranking.multipartite import FiniteInstanceSpace  # noqa: E402
from symcal.ranking.permutations import Permutation, as_permutation, order_of_scores, swap_scores  # noqa: E402


@FUZZ
@given(marg=junk, post=junk)
def test_instance_space_junk(marg, post):
    raises_symcal(FiniteInstanceSpace, marg, post)
    raises_symcal(FiniteInstanceSpace.from_joint, marg)


@FUZZ
@given(data=st.data())
def test_instance_space_not_normalised(data):
    m = data.draw(st.integers(1, 3))
    marg = [Fraction(1, m)] * m
    post = [[Fraction(1, 2), Fraction(1, 2)] for _ in range(m)]
    a = data.draw(st.integers(0, m - 1))
    post[a] = [Fraction(1, 2), data.draw(st.sampled_from([Fraction(1), Fraction(-1, 2), Fraction(0)]))]
    must_refuse(FiniteInstanceSpace, tuple(marg), tuple(tuple(r) for r in post), param="posteriors")
    must_refuse(FiniteInstanceSpace, (Fraction(2),) + tuple(marg[1:]), tuple(tuple(r) for r in post))


@FUZZ
@given(x=junk, n=junk)
def test_permutation_junk(x, n):
    raises_symcal(Permutation, x)
    raises_symcal(Permutation.from_positions, x)
    raises_symcal(as_permutation, x, n)
    raises_symcal(order_of_scores, x)
    raises_symcal(swap_scores, x, 1, 2)


@FUZZ
@given(p=st.permutations(range(1, 6)))
def test_permutation_inverse_oracle(p):
    y = Permutation.from_order(tuple(p))
    assert y.inverse().inverse() == y
    assert all(y.item_at(y.position_of(o)) == o for o in range(1, 6))


@FUZZ
@given(probs=junk, n=junk, k=junk)
def test_listwise_junk(probs, n, k):
    from symcal.ranking.listwise import PermutationDistribution, listmle, topk_loss

    raises_symcal(PermutationDistribution, probs)
    raises_symcal(listmle, n, k)
    raises_symcal(topk_loss, probs, n, k)


@FUZZ
@given(n=st.integers(2, 4), data=st.data())
def test_permutation_distribution_not_normalised(n, data):
    from symcal.ranking.listwise import PermutationDistribution

    perms = data.draw(st.lists(st.permutations(range(1, n + 1)).map(tuple), min_size=1, max_size=3, unique=True))
    probs = data.draw(st.lists(exact(0, 1, 4), min_size=len(perms), max_size=len(perms)))
    p = dict(zip(perms, probs, strict=True))
    if sum(probs) == 1:
        PermutationDistribution(p)
    else:
        must_refuse(PermutationDistribution, p, param="probabilities")


@FUZZ
@given(sigma=junk, y=junk, dist=junk, n=junk)
def test_measures_junk(sigma, y, dist, n):
    from symcal.ranking import measures

    raises_symcal(measures.check_ranking, sigma)
    raises_symcal(measures.check_labels, y)
    raises_symcal(measures.check_distribution, dist)
    for build in (measures.dcg, measures.err, measures.spearman, measures.average_precision):
        raises_symcal(build, n)
    raises_symcal(measures.precision_at, n, n)


@FEW
@given(name=st.sampled_from(["precision", "wta", "eru", "map", "pd", "dcg", "ndcg", "nope", ""]),
       r=st.one_of(junk, st.integers(-1, 4)), q=junk)
def test_named_loss_junk(name, r, q):
    from symcal.ranking.subset_losses import named_loss

    if isinstance(r, int) and not isinstance(r, bool) and r > 3:
        r = 3  # keep the valid ones cheap
    if name == "precision":
        raises_symcal(named_loss, name, r, q=q)
    elif name == "map":
        raises_symcal(named_loss, name, r, empty=q)
    elif name == "pd":
        raises_symcal(named_loss, name, r, labels=q)
    else:
        raises_symcal(named_loss, name, r)


# --------------------------------------------------------------------------- claims, runner, library

from symcal import Citation, Local, exists, finite_check, identity, implies, node_implies, reals  # noqa: E402
from symcal.claims.constructors import bounded_inequality  # noqa: E402

CITE = Citation("fuzz2026", "Eq. (1)", "x = x")
X, Y = reals("fuzzx fuzzy")
good_ids = st.from_regex(r"\Afuzz20[0-9]{2}(\.[a-z][a-z0-9_]{0,5}){1,2}\Z")
bad_ids = st.one_of(
    st.none(), st.integers(), st.sampled_from(["", "fuzz", "Fuzz2026.x", "fuzz2026", "fuzz2026.", "fuzz26.x",
                                               "2026.x", "fuzz2026..x", "fuzz2026.x y", "fuzz2026.x\n"]),
    st.text(max_size=8).filter(lambda s: not __import__("re").match(r"^[a-z][a-z0-9_]*\d{4}(\.[A-Za-z0-9_]+)+$", s)),
)
bad_sizes = st.one_of(st.just(()), st.just((3,)), st.just((0, 2)), st.just((5, 3)), st.just((-1, 4)),
                      st.just((1.5, 3)), st.just("3..5"), st.just((None, 3)), st.just(7), st.just((3, 4, 5)))


def _constructors(cid, cite=CITE, sizes=None):
    yield lambda: identity(cid, X + Y, Y + X, cite=cite, sizes=sizes)
    yield lambda: implies(cid, hypotheses={"h": [X > 0]}, conclusion=X >= 0, cite=cite, sizes=sizes)
    yield lambda: exists(cid, constraints={"c": [X > 0]}, cite=cite, sizes=sizes)
    yield lambda: finite_check(cid, cases=[1, 2], holds=lambda c: True, domain="d", cite=cite, sizes=sizes)
    yield lambda: bounded_inequality(cid, X, ">=", 0, box={X: (0, 1)}, cite=cite, sizes=sizes)
    yield lambda: node_implies(cid, hypotheses={}, conclusion=Local(2, lambda a, i, j: a(i, j) >= 0), cite=cite,
                               sizes=sizes if sizes is not None else (2, 3))


@FEW
@given(cid=bad_ids)
def test_claims_bad_ids(cid):
    for make in _constructors(cid):
        e = must_refuse(make)
        assert isinstance(e, InvalidClaim | InvalidInput)


@FEW
@given(cid=good_ids, sizes=bad_sizes)
def test_claims_bad_sizes(cid, sizes):
    for make in _constructors(cid, sizes=sizes):
        must_refuse(make, param="sizes")


@FEW
@given(cid=good_ids, cite=st.one_of(junk, st.builds(Citation, st.one_of(st.none(), st.integers(), st.just("")),
                                                      st.one_of(st.none(), st.just("")))))
def test_claims_bad_citations(cid, cite):
    for make in _constructors(cid, cite=cite):
        e = must_refuse(make)
        assert "cite" in str(e) or "paper" in str(e) or "location" in str(e)


@FEW
@given(cid=good_ids, hyps=junk, box=junk, rel=junk)
def test_claims_bad_parts(cid, hyps, box, rel):
    raises_symcal(implies, cid, hypotheses=hyps, conclusion=X >= 0, cite=CITE)
    raises_symcal(exists, cid, constraints=hyps, cite=CITE)
    raises_symcal(node_implies, cid, hypotheses=hyps, conclusion=Local(2, lambda a, i, j: a(i, j) >= 0), cite=CITE)
    raises_symcal(bounded_inequality, cid, X, rel, 0, box={X: (0, 1)}, cite=CITE)
    raises_symcal(bounded_inequality, cid, X, ">=", 0, box=box, cite=CITE)
    raises_symcal(identity, cid, X, X, cite=CITE, expected=rel)


@FEW
@given(timeout=st.one_of(junk, st.sampled_from([0, -1, float("nan"), float("inf"), True])),
       jobs=st.one_of(junk, st.sampled_from([0, -2, 1.5, True])))
def test_runner_bad_options(timeout, jobs):
    from symcal.runner import check_many

    claim = identity("fuzz2026.trivial", X, X, cite=CITE)
    ok_t = isinstance(timeout, int | float) and not isinstance(timeout, bool) and 0 < timeout < math.inf
    ok_j = isinstance(jobs, int) and not isinstance(jobs, bool) and 1 <= jobs <= 8
    if ok_t and ok_j:
        return  # a valid combination: not what this property is about
    must_refuse(check_many, [claim], timeout=timeout if not ok_t else 5, jobs=jobs if not ok_j else 1, isolate=False)


@FEW
@given(sizes=st.sampled_from([(0, 3), (5, 3), (-1, 2), (2, 2)]))
def test_runner_bad_sizes(sizes):
    from symcal.runner import check_many

    claim = node_implies("fuzz2026.sized", hypotheses={}, conclusion=Local(2, lambda a, i, j: a(i, j) >= 0),
                         cite=CITE, sizes=(2, 3))
    if sizes == (2, 2):
        [v] = check_many([claim], sizes=sizes, timeout=20, isolate=False)
        assert v.status.value == "proved"
    else:
        must_refuse(check_many, [claim], sizes=sizes, timeout=5, isolate=False, param="size")


@FUZZ
@given(patterns=st.lists(st.one_of(st.text(max_size=10), st.sampled_from(["[", "*[", "]", "fuzz2026", "**", "?"])),
                         min_size=1, max_size=3))
def test_library_select_patterns(patterns):
    from symcal.library import select

    claims = [identity("fuzz2026.a", X, X, cite=CITE), identity("fuzz2026.b.c", Y, Y, cite=CITE)]
    try:
        out = select(claims, patterns)
    except SymcalError as e:
        assert str(e).startswith("pattern=")
        return
    assert out and all(c in claims for c in out)


def test_numpy_inputs_are_handled():
    """numpy scalars and arrays are common in user code: exact ints pass, floats are refused."""
    a = {(1, 2): np.int64(2), (2, 1): np.int64(1)}
    assert is_low_noise(a, 2).holds
    must_refuse(is_low_noise, {(1, 2): np.float64(0.5)}, 2, param="a[1,2]")
    assert LossMatrix.from_rows(np.array([[1, 2], [3, 4]])).shape == (2, 2)
    must_refuse(LossMatrix.from_rows, np.array([[1.5, 2.0]]), param="matrix[0][0]")


@pytest.mark.parametrize("value", [10**5000, -(10**5000), Fraction(1, 10**3000)], ids=["big", "neg", "tiny"])
def test_huge_numbers(value):
    """Huge exact numbers are valid input: they are kept exactly or refused, never overflow."""
    raises_symcal(is_low_noise, {(1, 2): value, (2, 3): 1}, 3)
    raises_symcal(LossMatrix.from_rows, [[value, 1], [1, 0]])
