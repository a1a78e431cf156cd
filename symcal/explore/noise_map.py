"""The map of the papers' noise conditions: which contains which, proved or separated exactly.

A *noise condition* is a set of distributions over labels.  The registry :data:`CONDITIONS`
holds each one with its paper and location, its definition as a formula builder (a sympy
boolean in the variables of its *space*, for ``n`` items) and an exact membership check on a
label distribution (the :mod:`symcal.ranking.noise_sets` / :mod:`symcal.ranking.difference`
checks where the repository has one).

Three spaces of distributions occur in the papers:

* ``dag`` -- distributions ``p`` over DAG labels on ``n`` items (Duchi, Mackey & Jordan 2010,
  Section 1: weighted preference graphs; Ramaswamy, Agarwal & Tewari 2013, Section 7: DAGs over
  ``[r]``).  Every condition here is, by its definition, a predicate of the expected weights
  ``a_ij = E[Y_ij]`` alone: Definition 8 and Theorem 13 of Duchi et al. are stated on
  ``a_ij = sum_G a_ij^G p_G``; ``P_DAG`` on ``E[Y_ij] > E[Y_ji]``; ``P_f`` on ``E[Y_ij]`` and
  ``E[f(Y)]``, which is linear in ``E[Y]`` for the two score functions used here.  Every
  ``a >= 0`` is the expectation of some distribution (the single-edge graph ``i -> j`` of weight
  ``N a_ij`` with probability ``1/N``, ``N = n(n-1)``), so ``A subset B`` over distributions iff
  over ``a in R_+^{n(n-1)}`` -- the space of the proofs (variables ``a_i_j``).  A separation
  is an explicit distribution over unit single-edge DAG labels (so it is a distribution of both
  papers' label sets), re-checked by the conditions' own checks.
* ``perm`` -- distributions over permutations of ``n`` objects (Xia, Liu & Li 2009), variables
  ``p_<permutation>`` on the simplex; Definition 2 reads the top-k subgroup probabilities.
* ``binary`` -- distributions over binary relevance vectors ``{0,1}^r`` (Ramaswamy et al.,
  Section 6, ``P_reinforce`` through ``u^p_ij = E[Y_i Y_j / sum_g Y_g]``).

Two conditions on different spaces are *not comparable* (different objects: no inclusion is
meaningful without an embedding the papers do not fix; Duchi et al., Section 3.1, show that
no fixed edge weighting of permutations carries Xia et al.'s order-preserving spaces into
low-noise ones).  Uematsu & Lee (2013) and Calauzenes et al. (2013) state no condition on the
distribution of labels (their conditions are on misranking costs and on losses), so they
have no node.

A cell ``A subset B`` at size ``n`` is decided by :func:`symcal.claims.implies` (z3 on the
negated query, models re-checked exactly): ``proved`` when the query is unsat,
``separated`` when the counterexample, turned into an exact label distribution, is shown by
the membership checks to lie in ``A`` and not in ``B``; anything else is ``unknown``.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import invalid
from symcal.exact import fraction_str
from symcal.ranking._check import CheckResult

__all__ = [
    "NoiseCondition",
    "Statement",
    "Cell",
    "NoiseMap",
    "CONDITIONS",
    "STATEMENTS",
    "SIZES",
    "condition",
    "out_weight_f",
    "theorem13_check",
    "order_preserving_check",
    "dag_distribution",
    "perm_distribution",
    "decide_cell",
    "inclusion_claim",
    "recheck_separation",
    "inclusion_graph",
    "noise_map",
    "noise_maps",
    "confirmations",
    "format_maps",
]

SIZES = (3, 5)  # the default sizes, n = 3..5
MAX_N = 6  # the largest size accepted (the perm space has n! variables)
CELL_TIMEOUT = 60.0  # seconds per cell; an undecided cell is 'unknown'

SPACES = {
    "dag": "distributions over DAG labels on n items (through the expected weights a_ij = E[Y_ij])",
    "perm": "distributions over permutations of n objects (through the top-k subgroup probabilities)",
    "binary": "distributions over binary relevance vectors in {0,1}^n (through u^p_ij = E[Y_i Y_j / sum_g Y_g])",
}


# ---------------------------------------------------------------------------------------
# variables and definitions
# ---------------------------------------------------------------------------------------


@functools.cache
def _a(i: int, j: int) -> sympy.Symbol:
    return sympy.Symbol(f"a_{i}_{j}", real=True)


def _d(i: int, j: int) -> Any:
    """``a_ij - a_ji``: the weight of ``i -> j`` in Duchi et al.'s difference graph when positive."""
    return _a(i, j) - _a(j, i)


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]


@functools.cache
def _cycles(n: int) -> tuple[tuple[int, ...], ...]:
    """Every directed simple cycle of length >= 3 of the complete digraph on 1..n (a 2-cycle
    i -> j -> i would need a_ij > a_ji > a_ij)."""
    import networkx as nx

    g = nx.complete_graph(range(1, n + 1), create_using=nx.DiGraph)
    return tuple(sorted(tuple(c) for c in nx.simple_cycles(g) if len(c) > 2))


def _acyclic(n: int) -> Any:
    return sympy.And(*[sympy.Not(sympy.And(*[_d(c[t], c[(t + 1) % len(c)]) > 0 for t in range(len(c))]))
                       for c in _cycles(n)])


def _low_noise(n: int) -> Any:
    return sympy.And(*[sympy.Implies(sympy.And(_d(i, j) > 0, _d(j, k) > 0), _d(i, k) >= _d(i, j) + _d(j, k))
                       for i, j, k in itertools.permutations(range(1, n + 1), 3)])


def _order_by(n: int, score: Callable[[int], Any]) -> Any:
    """``a_ij > a_ji  =>  score_i > score_j`` for every ordered pair."""
    return sympy.And(*[sympy.Implies(_d(i, j) > 0, score(i) > score(j)) for i, j in _pairs(n)])


def _net(n: int) -> Callable[[int], Any]:
    """``sum_j (a_ij - a_ji)``: Eq. (16)'s score and ``E[f_i(Y)]`` for Duchi et al.'s ``f``."""
    return lambda i: sympy.Add(*[_d(i, j) for j in range(1, n + 1) if j != i])


def _out(n: int) -> Callable[[int], Any]:
    """``sum_j a_ij = E[f_i(Y)]`` for ``f_i(y) = sum_j y_ij``."""
    return lambda i: sympy.Add(*[_a(i, j) for j in range(1, n + 1) if j != i])


def _dag_space(n: int) -> list[Any]:
    return [_a(i, j) >= 0 for i, j in _pairs(n)]


@functools.cache
def _perms(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(1, n + 1)))


@functools.cache
def _p(y: tuple[int, ...]) -> sympy.Symbol:
    return sympy.Symbol("p_" + "_".join(map(str, y)), real=True)


def _perm_space(n: int) -> list[Any]:
    ps = [_p(y) for y in _perms(n)]
    return [v >= 0 for v in ps] + [sympy.Eq(sympy.Add(*ps), 1)]


def _swap(y: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    return tuple(j if x == i else i if x == j else x for x in y)


def _op_pairs(n: int, k: int, i: int, j: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Definition 2 of Xia et al.: for every ``y`` ranking ``i`` before ``j`` whose top-k
    subgroup changes when ``i`` and ``j`` are exchanged, ``(G_k(y), G_k(swap y))`` -- the first
    must be strictly more probable (each pair once)."""
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for y in _perms(n):
        if y.index(i) < y.index(j) and (y.index(i) < k or y.index(j) < k):
            pair = (y[:k], _swap(y, i, j)[:k])
            if pair not in out:
                out.append(pair)
    return out


def _subgroup(prob: Callable[[tuple[int, ...]], Any], n: int, key: tuple[int, ...]) -> Any:
    return sum((prob(y) for y in _perms(n) if y[:len(key)] == key), sympy.Integer(0))


def _order_preserving(k: int, i: int = 1, j: int = 2) -> Callable[[int], Any]:
    def build(n: int) -> Any:
        return sympy.And(*[_subgroup(_p, n, a) > _subgroup(_p, n, b) for a, b in _op_pairs(n, k, i, j)])
    return build


@functools.cache
def _u(i: int, j: int) -> sympy.Symbol:
    return sympy.Symbol(f"u_{max(i, j)}_{min(i, j)}", real=True)


def _reinforce(n: int) -> Any:
    """``u_ii >= u_jj  =>  u_ii >= u_jj + sum_{g != i, j} (u_jg - u_ig)_+`` (Section 6)."""
    return sympy.And(*[sympy.Implies(_u(i, i) >= _u(j, j), _u(i, i) >= _u(j, j) + sympy.Add(
        *[sympy.Max(0, _u(j, g) - _u(i, g)) for g in range(1, n + 1) if g not in (i, j)])) for i, j in _pairs(n)])


# ---------------------------------------------------------------------------------------
# exact membership checks
# ---------------------------------------------------------------------------------------


def out_weight_f(y: Any) -> tuple[Fraction, ...]:
    """``f_i(y) = sum_{j != i} y_ij`` (the out-weight of ``i``): a second score function for
    Ramaswamy et al.'s Theorem 6."""
    from symcal.ranking.loss_matrix import DagLabel

    if not isinstance(y, DagLabel):
        raise invalid("y", y, "a DagLabel")
    f = [Fraction(0)] * y.r
    for i, _j, w in y.edges:
        f[i - 1] += w
    return tuple(f)


def theorem13_check(weights: Any, m: int | None = None) -> CheckResult:
    """Duchi et al. (2010), Theorem 13's condition on the expected weights: the difference graph
    is a DAG and Eq. (16) holds, ``a_ik > a_ki  =>  sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk)``.
    The witness is the cycle, or the first pair ``(i, k)`` breaking (16), with exact sums."""
    from symcal.ranking.difference import difference_cycle
    from symcal.ranking.preference import as_weights

    m, a = as_weights(weights, m)
    cycle = difference_cycle(a, m)
    if cycle is not None:
        return CheckResult(False, "the difference graph has the cycle " + " -> ".join(map(str, [*cycle, cycle[0]])),
                           {"cycle": cycle}, (tuple(cycle),))
    s = {i: sum((a[(i, j)] - a[(j, i)] for j in range(1, m + 1) if j != i), Fraction(0)) for i in range(1, m + 1)}
    bad = [(i, k) for i, k in _pairs(m) if a[(i, k)] > a[(k, i)] and not s[i] > s[k]]
    if not bad:
        return CheckResult(True, "the difference graph is a DAG and every a_ik > a_ki has "
                                 "sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk) (Eq. (16))",
                           {"net": [s[i] for i in range(1, m + 1)]})
    i, k = bad[0]
    return CheckResult(False, f"a_{i}{k} = {fraction_str(a[(i, k)])} > a_{k}{i} = {fraction_str(a[(k, i)])} but "
                              f"sum_j (a_{i}j - a_j{i}) = {fraction_str(s[i])} <= sum_j (a_{k}j - a_j{k}) = "
                              f"{fraction_str(s[k])} (Eq. (16) fails)",
                       {"i": i, "k": k, "net": [s[v] for v in range(1, m + 1)]}, tuple(bad))


def order_preserving_check(dist: Any, k: int, i: int = 1, j: int = 2) -> CheckResult:
    """Xia, Liu & Li (2009), Definition 2 on a distribution ``[(permutation, probability), ...]``
    (permutations as tuples of objects, best first): the top-k subgroup probability space is
    order preserving with respect to ``i`` and ``j``.  The check is
    :func:`symcal.ranking.listwise.is_order_preserving` (written apart from the formula
    builder of this module, so a separation is re-decided by independent code)."""
    from symcal.ranking.listwise import PermutationDistribution, is_order_preserving
    from symcal.ranking.noise_sets import label_distribution

    pairs = label_distribution(dist)
    return is_order_preserving(PermutationDistribution(dict(pairs)), k, i, j)


def _expected(dist: Any) -> tuple[dict[tuple[int, int], Fraction], int]:
    """``E[Y_ij]`` of a distribution over DAG labels, and the number of items."""
    from symcal.ranking.noise_sets import expected_preferences

    a = expected_preferences(dist)
    return a, max(i for i, _j in a)


def _low_noise_member(dist: Any) -> CheckResult:
    from symcal.ranking.difference import is_low_noise

    a, r = _expected(dist)
    return is_low_noise(a, r)


def _theorem13_member(dist: Any) -> CheckResult:
    a, r = _expected(dist)
    return theorem13_check(a, r)


def _p_dag_member(dist: Any) -> CheckResult:
    from symcal.ranking.noise_sets import in_p_dag

    return in_p_dag(dist)


def _p_f_dmj_member(dist: Any) -> CheckResult:
    from symcal.ranking.noise_sets import duchi_f, in_p_f

    return in_p_f(dist, duchi_f)


def _p_f_out_member(dist: Any) -> CheckResult:
    from symcal.ranking.noise_sets import in_p_f

    return in_p_f(dist, out_weight_f)


def _reinforce_member(dist: Any) -> CheckResult:
    from symcal.ranking.noise_sets import in_p_reinforce

    return in_p_reinforce(dist)


# ---------------------------------------------------------------------------------------
# the registry
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NoiseCondition:
    """One paper's noise condition: ``formula(n)`` is its definition in the variables of its
    ``space`` (see the module docstring), ``member(dist)`` the exact check on a label
    distribution ``[(label, probability), ...]``."""

    key: str
    name: str
    paper: str
    location: str
    quote: str
    space: str
    formula: Callable[[int], Any]
    member: Callable[[Any], CheckResult]
    short: str = ""

    def __str__(self) -> str:
        return f"{self.name} ({self.paper}, {self.location})"


CONDITIONS: tuple[NoiseCondition, ...] = (
    NoiseCondition(
        "low_noise", "low noise", "duchi2010", "Definition 8",
        "whenever there is an edge (i -> j) and an edge (j -> k) in G~, then the weight a_ik - a_ki on (i -> k) is "
        "greater than or equal to the path weight a_ij - a_ji + a_jk - a_kj", "dag", _low_noise, _low_noise_member,
        "LN"),
    NoiseCondition(
        "theorem13", "DAG and Eq. (16)", "duchi2010", "Theorem 13, Eq. (16)",
        "If the pair (G, p) induces a difference graph G~ that is a DAG, then [edge-consistent iff] "
        "sum_j a_ij - a_ji > sum_j a_kj - a_jk when a_ik > a_ki",
        "dag", lambda n: sympy.And(_acyclic(n), _order_by(n, _net(n))), _theorem13_member, "T13"),
    NoiseCondition(
        "p_f_dmj", "P_f, Duchi's f", "ramaswamy2013", "Theorem 6 (f_i(y) = sum_j (y_ij - y_ji), Section 7.1)",
        "P_f = {p : E[Y_ij] > E[Y_ji] => E[f_i(Y)] > E[f_j(Y)]}",
        "dag", lambda n: _order_by(n, _net(n)), _p_f_dmj_member, "Pf-DMJ"),
    NoiseCondition(
        "p_f_out", "P_f, out-weight f", "ramaswamy2013", "Theorem 6 (f_i(y) = sum_j y_ij)",
        "P_f = {p : E[Y_ij] > E[Y_ji] => E[f_i(Y)] > E[f_j(Y)]}",
        "dag", lambda n: _order_by(n, _out(n)), _p_f_out_member, "Pf-out"),
    NoiseCondition(
        "p_dag", "P_DAG", "ramaswamy2013", "Section 7.2",
        "P_DAG = {p : ([r], E^p) is a DAG}, E^p = {(i, j) : E[Y_ij] > E[Y_ji]}",
        "dag", _acyclic, _p_dag_member, "P_DAG"),
    NoiseCondition(
        "op_top1", "top-1 order preserving (1, 2)", "xia2009", "Definition 2 (k = 1, objects 1 and 2)",
        "order preserving with respect to objects i and j, if for all y in Y_ij [whose top-k subgroup changes] "
        "p_G_k(y) > p_G_k(swap_ij y)", "perm", _order_preserving(1), lambda d: order_preserving_check(d, 1), "OP1"),
    NoiseCondition(
        "op_top2", "top-2 order preserving (1, 2)", "xia2009", "Definition 2 (k = 2, objects 1 and 2)",
        "order preserving with respect to objects i and j, if for all y in Y_ij [whose top-k subgroup changes] "
        "p_G_k(y) > p_G_k(swap_ij y)", "perm", _order_preserving(2), lambda d: order_preserving_check(d, 2), "OP2"),
    NoiseCondition(
        "p_reinforce", "P_reinforce", "ramaswamy2013", "Section 6",
        "u_ii >= u_jj => u_ii >= u_jj + sum_{g != i, j} (u_jg - u_ig)_+", "binary", _reinforce, _reinforce_member,
        "P_rein"),
)

_BY_KEY = {c.key: c for c in CONDITIONS}
_SPACE_CONSTRAINTS: dict[str, Callable[[int], list[Any]]] = {"dag": _dag_space, "perm": _perm_space}


def condition(key: str) -> NoiseCondition:
    """The registered condition named ``key`` (one of :data:`CONDITIONS`)."""
    if not isinstance(key, str) or key not in _BY_KEY:
        raise invalid("condition", key, "one of " + ", ".join(_BY_KEY))
    return _BY_KEY[key]


@dataclass(frozen=True)
class Statement:
    """A relation a paper states between two of the conditions: ``kind`` is ``subset``
    (``a subset b``) or ``not_subset`` (``a`` is not contained in ``b``)."""

    a: str
    b: str
    kind: str
    paper: str
    location: str
    quote: str


STATEMENTS: tuple[Statement, ...] = (
    Statement("low_noise", "p_dag", "subset", "duchi2010", "after Definition 8",
              "if (G, p) satisfies Def. 8, its difference graph G~ is a DAG"),
    Statement("low_noise", "theorem13", "subset", "duchi2010", "Lemma 14",
              "low-noise settings satisfy the conditions of Theorem 13"),
    Statement("theorem13", "low_noise", "not_subset", "duchi2010", "after Lemma 14",
              "The converse of the lemma is, in general, false."),
    Statement("p_f_dmj", "theorem13", "subset", "ramaswamy2013", "Section 7.1",
              "the set of noise conditions under which the surrogate psi_DMJ is shown to be calibrated ... in Duchi "
              "et al. is exactly the set P_f above with this choice of f"),
    Statement("theorem13", "p_f_dmj", "subset", "ramaswamy2013", "Section 7.1",
              "the set of noise conditions under which the surrogate psi_DMJ is shown to be calibrated ... in Duchi "
              "et al. is exactly the set P_f above with this choice of f"),
    Statement("p_f_dmj", "p_dag", "subset", "ramaswamy2013", "Section 7.2",
              "It is easy to see that P_DAG contains P_f for all f"),
    Statement("p_f_out", "p_dag", "subset", "ramaswamy2013", "Section 7.2",
              "It is easy to see that P_DAG contains P_f for all f"),
    Statement("p_dag", "p_f_dmj", "not_subset", "ramaswamy2013", "Section 7.2",
              "calibrated for the PD loss under a broader set of conditions than the previous surrogates"),
    Statement("op_top2", "op_top1", "subset", "xia2009", "Proposition 8",
              "If the top-k subgroup probability space is order preserving with respect to object i and j, the "
              "top-(k-1) subgroup probability space is also order preserving with respect to i and j."),
    Statement("op_top1", "op_top2", "not_subset", "xia2009", "after Proposition 8",
              "it is easy to verify that Proposition 8 holds for this case while the opposite does not"),
)


# ---------------------------------------------------------------------------------------
# deciding a cell
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """Is ``a`` contained in ``b`` at size ``n``?  ``status`` is ``proved`` (the negated query
    is unsat), ``separated`` (``witness`` is an exact label distribution in ``a`` and not in
    ``b``, re-checked by both membership checks), ``unknown``, ``not comparable`` (different
    spaces) or ``same`` (the diagonal)."""

    a: str
    b: str
    n: int
    status: str
    evidence: str
    seconds: float = 0.0
    claim_id: str | None = None
    witness: tuple[tuple[Any, Fraction], ...] | None = None
    smtlib: str | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"a": self.a, "b": self.b, "n": self.n, "status": self.status,
                               "evidence": self.evidence, "seconds": round(self.seconds, 4),
                               "claim": self.claim_id}
        if self.witness is not None:
            out["witness"] = [[str(y), fraction_str(pr)] for y, pr in self.witness]
        if self.smtlib is not None:
            out["smtlib"] = self.smtlib
        return out


def dag_distribution(values: dict[str, Any], n: int) -> list[tuple[Any, Fraction]]:
    """The distribution over unit single-edge DAG labels whose expected weights are a positive
    multiple ``c a`` of the ``a_i_j`` in ``values``: the label ``{i -> j}`` with probability
    ``a_ij / sum a`` (the empty DAG with probability 1 when every ``a_ij`` is 0).  Every
    condition of the ``dag`` space is positively homogeneous in ``a``, and the membership
    checks re-decide the result anyway."""
    from symcal.exact import to_fraction
    from symcal.ranking.loss_matrix import dag_label

    n = _check_n(n)
    values = _values(values, n, "a_i_j")
    a = {(i, j): to_fraction(values.get(f"a_{i}_{j}", 0), f"values['a_{i}_{j}']") for i, j in _pairs(n)}
    if any(v < 0 for v in a.values()):
        raise invalid("values", {k: fraction_str(v) for k, v in a.items() if v < 0}, "expected weights a_ij >= 0")
    total = sum(a.values(), Fraction(0))
    if total == 0:
        return [(dag_label(n, []), Fraction(1))]
    return [(dag_label(n, [e]), w / total) for e, w in sorted(a.items()) if w > 0]


def perm_distribution(values: dict[str, Any], n: int) -> list[tuple[Any, Fraction]]:
    """The distribution over permutations with ``P(y) = values['p_<y>']`` (zero entries dropped):
    exact probabilities ``>= 0`` summing to 1, else :class:`~symcal.errors.InvalidInput`."""
    from symcal.exact import to_fraction
    from symcal.ranking.noise_sets import label_distribution

    n = _check_n(n)
    values = _values(values, n, "p_<permutation>")
    out = [(y, to_fraction(values.get(_p(y).name, 0), f"values['{_p(y).name}']")) for y in _perms(n)]
    if any(pr < 0 for _y, pr in out):
        raise invalid("values", {_p(y).name: fraction_str(pr) for y, pr in out if pr < 0}, "probabilities >= 0")
    return label_distribution([(y, pr) for y, pr in out if pr != 0] or out)


def _values(values: Any, n: int, what: str) -> dict[str, Any]:
    """``values``: a mapping from the variable names of the size-``n`` space to exact numbers."""
    from collections.abc import Mapping

    if not isinstance(values, Mapping):
        raise invalid("values", values, f"a mapping from variable names ({what}, n = {n}) to exact numbers")
    return dict(values)


_DISTRIBUTIONS = {"dag": dag_distribution, "perm": perm_distribution}


def _cite_for(a: NoiseCondition, b: NoiseCondition) -> Any:
    from symcal.claims import Citation

    for s in STATEMENTS:
        if (s.a, s.b) == (a.key, b.key):
            return Citation(s.paper, s.location, s.quote)
    return Citation(a.paper, a.location, a.quote)


def _claim(a: NoiseCondition, b: NoiseCondition, n: int) -> Any:
    from symcal.claims import implies

    return implies(
        f"{a.paper}.noise_map.{a.key}_in_{b.key}.n{n}",
        hypotheses={"space": _SPACE_CONSTRAINTS[a.space](n), a.key: [a.formula(n)]},
        conclusion=b.formula(n), cite=_cite_for(a, b),
        statement=f"n = {n}: every distribution in {a} is in {b}",
        scope=f"{SPACES[a.space]}; every expectation is attained by a distribution",
    )


def inclusion_claim(a: str, b: str, sizes: tuple[int, int] = SIZES, *, id: str | None = None,
                    expected: str | None = None) -> Any:
    """``a subset b`` as one :func:`symcal.claims.implies` claim over the sizes ``n`` in
    ``sizes`` (for a theorem library: ``expected="refuted"`` for a stated non-inclusion, whose
    counterexample the runner re-checks on the formulas; :func:`decide_cell` re-checks it on the
    label distribution as well).  Only conditions on the same labels can be compared."""
    from symcal.claims import implies

    ca, cb = condition(a), condition(b)
    if ca.space != cb.space:
        raise invalid("b", b, f"a condition on the same labels as {a} ({ca.space}); {b} is on {cb.space} labels")
    if ca.space not in _SPACE_CONSTRAINTS:
        provable = ", ".join(c.key for c in CONDITIONS if c.space in _SPACE_CONSTRAINTS)
        raise invalid("a", a, f"a condition on DAG or permutation labels ({provable}); {a} is the only one on "
                      f"{ca.space} labels")
    if not isinstance(sizes, tuple | list) or len(sizes) != 2:
        raise invalid("sizes", sizes, f"a pair (low, high) of whole numbers from 3 to {MAX_N}")
    lo, hi = (_check_n(v, "sizes") for v in sizes)
    if lo > hi:
        raise invalid("sizes", sizes, "a pair (low, high) with low <= high")
    return implies(
        id or f"{ca.paper}.noise_map.{ca.key}_in_{cb.key}",
        hypotheses={"space": _SPACE_CONSTRAINTS[ca.space], ca.key: lambda n: [ca.formula(n)]},
        conclusion=cb.formula, cite=_cite_for(ca, cb), sizes=(lo, hi), expected=expected,
        statement=f"every distribution in {ca} is in {cb}",
        scope=f"{SPACES[ca.space]}; every expectation is attained by a distribution",
    )


def _check_n(n: Any, param: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= MAX_N:
        raise invalid(param, n, f"a whole number from 3 to {MAX_N}")
    return n


def decide_cell(a: str | NoiseCondition, b: str | NoiseCondition, n: int, *,
                timeout: float = CELL_TIMEOUT) -> Cell:
    """Decide ``a subset b`` at size ``n`` (see :class:`Cell`)."""
    ca = a if isinstance(a, NoiseCondition) else condition(a)
    cb = b if isinstance(b, NoiseCondition) else condition(b)
    n = _check_n(n)
    if ca.key == cb.key:
        return Cell(ca.key, cb.key, n, "same", "the same condition")
    if ca.space != cb.space:
        return Cell(ca.key, cb.key, n, "not comparable",
                    f"different objects: {ca.short} is a set of {SPACES[ca.space]}, {cb.short} of {SPACES[cb.space]}")
    if ca.space not in _SPACE_CONSTRAINTS:  # pragma: no cover - one condition on binary labels: only 'same'
        return Cell(ca.key, cb.key, n, "unknown", f"no prover for conditions on {ca.space} labels")
    from symcal.runner import check

    claim = _claim(ca, cb, n)
    t0 = time.perf_counter()
    v = check(claim, timeout=timeout, isolate=False)
    seconds = time.perf_counter() - t0
    status = v.status.value
    if status == "proved" and not v.vacuous:
        ev = v.evidence
        return Cell(ca.key, cb.key, n, "proved", f"{ev.summary()} ({claim.id})" if ev else claim.id, seconds,
                    claim.id, smtlib=getattr(ev, "smtlib", None))
    if status == "refuted" and v.witness is not None:
        from symcal.errors import SymcalError

        try:  # the model is re-checked on the formulas (so it is a distribution); never trusted blindly
            dist = _DISTRIBUTIONS[ca.space](v.witness.values, n)
        except SymcalError as e:  # pragma: no cover - a re-checked model always gives a distribution
            return Cell(ca.key, cb.key, n, "unknown", f"the solver's counterexample is not a distribution: {e}",
                        seconds, claim.id)
        in_a, in_b = ca.member(dist), cb.member(dist)
        if in_a.holds and not in_b.holds:
            return Cell(ca.key, cb.key, n, "separated",
                        f"in {ca.short}: {in_a.reason}; not in {cb.short}: {in_b.reason}", seconds, claim.id,
                        tuple(dist))
        return Cell(ca.key, cb.key, n, "unknown",
                    f"the solver's counterexample did not survive the re-check on the definitions "
                    f"(in {ca.short}: {in_a.holds}, in {cb.short}: {in_b.holds})", seconds, claim.id)
    why = v.reason or ("vacuous: the hypotheses cannot hold" if v.vacuous else status)
    return Cell(ca.key, cb.key, n, "unknown", f"{status}: {why}", seconds, claim.id)


def recheck_separation(cell: Cell) -> bool:
    """Re-decide a separated cell's witness by the two membership checks (True iff it is in
    ``a`` and not in ``b``)."""
    if not isinstance(cell, Cell):
        raise invalid("cell", cell, "a Cell of a noise map (m.cells[(a, b)])")
    if cell.status != "separated" or cell.witness is None:
        return False
    dist = list(cell.witness)
    return condition(cell.a).member(dist).holds and not condition(cell.b).member(dist).holds


@dataclass(frozen=True)
class NoiseMap:
    """The cells of one size ``n``: ``cells[(a, b)]`` for every ordered pair of conditions."""

    n: int
    keys: tuple[str, ...]
    cells: dict[tuple[str, str], Cell]
    seconds: float

    def status(self, a: str, b: str) -> str:
        return self.cells[(a, b)].status

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "seconds": round(self.seconds, 3), "conditions": list(self.keys),
                "cells": [c.to_json() for c in self.cells.values()]}


def noise_map(n: int, *, keys: Sequence[str] | None = None, timeout: float = CELL_TIMEOUT) -> NoiseMap:
    """Every ordered pair of the registered conditions (or of ``keys``) decided at size ``n``.
    A map with every cell decided is kept for the rest of the process (the decisions do not
    change; a map with an unknown cell is decided again next time)."""
    n = _check_n(n)
    if keys is not None and (isinstance(keys, str) or not isinstance(keys, Sequence)):
        raise invalid("keys", keys, "a list of condition names (" + ", ".join(_BY_KEY) + ")")
    conds = [condition(k) for k in keys] if keys is not None else list(CONDITIONS)
    if not conds or len({c.key for c in conds}) != len(conds):
        raise invalid("keys", keys, "at least one condition name, each once")
    memo = (n, tuple(c.key for c in conds), timeout)
    if memo in _DECIDED:
        return _DECIDED[memo]
    t0 = time.perf_counter()
    cells = {(a.key, b.key): decide_cell(a, b, n, timeout=timeout) for a in conds for b in conds}
    out = NoiseMap(n, tuple(c.key for c in conds), cells, time.perf_counter() - t0)
    if not any(c.status == "unknown" for c in cells.values()):
        _DECIDED[memo] = out
    return out


_DECIDED: dict[tuple[int, tuple[str, ...], float], NoiseMap] = {}


def noise_maps(sizes: Sequence[int] = tuple(range(SIZES[0], SIZES[1] + 1)), **kw: Any) -> list[NoiseMap]:
    """:func:`noise_map` at each size."""
    if isinstance(sizes, str) or not isinstance(sizes, Sequence) or not sizes:
        raise invalid("sizes", sizes, f"a non-empty list of sizes n (whole numbers from 3 to {MAX_N})")
    return [noise_map(n, **kw) for n in sizes]


def confirmations(maps: Sequence[NoiseMap]) -> list[tuple[Statement, str, str]]:
    """Each stated relation with ``confirmed`` / ``contradicted`` / ``undecided`` over the
    sizes of ``maps`` and a one-line reason."""
    out = []
    for s in STATEMENTS:
        got = {m.n: m.cells[(s.a, s.b)].status for m in maps if (s.a, s.b) in m.cells}
        if not got:
            continue
        want = "proved" if s.kind == "subset" else "separated"
        other = "separated" if s.kind == "subset" else "proved"
        sizes = ", ".join(f"n = {n}: {st}" for n, st in got.items())
        if s.kind == "subset" and all(v == want for v in got.values()):
            out.append((s, "confirmed", sizes))
        elif s.kind == "not_subset" and any(v == want for v in got.values()):
            out.append((s, "confirmed", sizes))
        elif any(v == other for v in got.values()):
            out.append((s, "contradicted", sizes))
        else:
            out.append((s, "undecided", sizes))
    return out


# ---------------------------------------------------------------------------------------
# printing and drawing
# ---------------------------------------------------------------------------------------

_MARK = {"proved": "⊆", "separated": "⊄", "unknown": "?", "not comparable": "·", "same": "="}


def sizes_text(maps: Sequence[NoiseMap]) -> str:
    ns = [m.n for m in maps]
    return f"n = {ns[0]}" if len(ns) == 1 else f"n = {ns[0]}..{ns[-1]}"


def _check_maps(maps: Any) -> None:
    """``maps``: a non-empty list of :class:`NoiseMap` over the same conditions."""
    if isinstance(maps, str) or not isinstance(maps, Sequence) or not maps \
            or not all(isinstance(m, NoiseMap) for m in maps) or len({m.keys for m in maps}) != 1:
        raise invalid("maps", maps, "a non-empty list of NoiseMap over the same conditions (from noise_maps)")


def format_maps(maps: Sequence[NoiseMap]) -> str:
    """The tables (row A, column B: ``⊆`` proved A subset B, ``⊄`` separated, ``?`` unknown,
    ``·`` not comparable), the papers' stated relations and one separating distribution per
    separated pair (at the smallest size)."""
    _check_maps(maps)
    lines = []
    keys = maps[0].keys
    width = max(len(condition(k).short) for k in keys) + 1
    lines.append("conditions:")
    for k in keys:
        c = condition(k)
        lines.append(f"  {c.short:<{width}} {c.name} -- {c.paper}, {c.location} [{c.space}]")
    lines.append("spaces: " + "; ".join(f"{s}: {t}" for s, t in SPACES.items()))
    lines.append("cell (row A, column B): ⊆ proved A subset B, ⊄ separated by an exact distribution, ? unknown, "
                 "· not comparable (different objects)")
    for m in maps:
        decided = sum(c.status in ("proved", "separated") for c in m.cells.values())
        comparable = sum(c.status not in ("not comparable", "same") for c in m.cells.values())
        lines.append("")
        lines.append(f"n = {m.n} ({decided} of {comparable} comparable cells decided, {m.seconds:.1f} s)")
        lines.append(" " * (width + 2) + " ".join(f"{condition(k).short:>{width}}" for k in keys))
        for a in keys:
            row = " ".join(f"{_MARK[m.cells[(a, b)].status]:>{width}}" for b in keys)
            lines.append(f"  {condition(a).short:<{width}}{row}")
    lines.append("")
    lines.append(f"the papers' stated relations ({sizes_text(maps)}):")
    for s, verdict, sizes in confirmations(maps):
        rel = "⊆" if s.kind == "subset" else "⊄"
        lines.append(f"  {verdict:<12} {condition(s.a).short} {rel} {condition(s.b).short} -- {s.paper}, "
                     f"{s.location}: \"{s.quote}\" ({sizes})")
    lines.append("")
    lines.append("separating distributions (smallest n):")
    shown = set()
    for m in maps:
        for (a, b), c in m.cells.items():
            if c.status == "separated" and (a, b) not in shown:
                shown.add((a, b))
                dist = ", ".join(f"{y}: {fraction_str(pr)}" for y, pr in c.witness or ())
                lines.append(f"  {condition(a).short} ⊄ {condition(b).short} (n = {m.n}): p = {{{dist}}}")
    unknown = [c for m in maps for c in m.cells.values() if c.status == "unknown"]
    if unknown:
        lines.append("")
        lines.append("unknown cells:")
        lines.extend(f"  {condition(c.a).short} ⊆ {condition(c.b).short} (n = {c.n}): {c.evidence}" for c in unknown)
    return "\n".join(lines)


def inclusion_graph(maps: Sequence[NoiseMap]) -> Any:
    """networkx DiGraph: nodes = conditions, an edge ``A -> B`` when ``A subset B`` is proved at
    every size of ``maps`` (the transitive reduction, equivalent conditions kept both ways)."""
    import networkx as nx

    _check_maps(maps)
    keys = maps[0].keys
    g = nx.DiGraph()
    g.add_nodes_from(keys)
    for a in keys:
        for b in keys:
            if a != b and all(m.cells[(a, b)].status == "proved" for m in maps):
                g.add_edge(a, b)
    # transitive reduction on the classes of equivalent conditions
    cond = nx.condensation(g)
    red = nx.transitive_reduction(cond)
    members = nx.get_node_attributes(cond, "members")
    out = nx.DiGraph()
    out.add_nodes_from(keys)
    for cls in cond.nodes:
        ms = sorted(members[cls], key=keys.index)
        for x in ms:
            out.nodes[x]["equivalent"] = tuple(ms)
        for x, y in itertools.permutations(ms, 2):
            out.add_edge(x, y, equal=True)
    for u, v in red.edges:
        x = min(members[u], key=keys.index)
        y = min(members[v], key=keys.index)
        out.add_edge(x, y, equal=False)
    return out
