"""Edge-consistency decided over every distribution of a noise set (symcal.calibration):
Corollary 15 and Theorem 13 (<=) for the linear loss (14), Theorems 11 and 12 as refutations
with exact low-noise counterexample distributions for the hinge.

The reduction (module notes, "Calibration"): labels = the DAGs G of the support, loss
L(G, sigma) = sum_{(i -> j) in G} a_ij^G 1(sigma(i) > sigma(j)) (Eq. (7) on strict orders),
predictions = the m! permutations (position vectors), link = "sort-desc", surrogate
phi(alpha, G) in the scores alpha in R^m, noise = relations in the probabilities p1..pn of
the DAGs.  Edge-consistency (Definition 2) is then exactly the engine's calibration."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from symcal import calibrated
from symcal.claims.core import Claim

from .common import (
    NOT_EDGE_CONSISTENT,
    Weights,
    acyclic,
    cite,
    expected_weights,
    low_noise_relations,
    pairs,
    twin_id,
    weights_diff,
)
from .section2_2 import theorem11_graphs
from .section2_3 import THEOREM12_P, theorem12_graphs

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}


@functools.cache
def score_permutations(m: int) -> tuple[tuple[int, ...], ...]:
    """The m! permutations as position vectors, in the sort-desc link's order."""
    return tuple(itertools.permutations(range(1, m + 1)))


def graph_name(g: Mapping[tuple[int, int], Any]) -> str:
    return "{" + ", ".join(f"{i}->{j}" + ("" if w == 1 else f":{w}") for (i, j), w in sorted(g.items())) + "}"


def disagreement_matrix(graphs: list[Weights], m: int) -> Any:
    """L(G, sigma) = sum_{(i -> j) in G} a_ij^G 1(sigma(i) > sigma(j)) for every graph and permutation."""
    from symcal.ranking.loss_matrix import LossMatrix

    perms = score_permutations(m)
    rows = [[sum((Fraction(w) for (i, j), w in g.items() if s[i - 1] > s[j - 1]), Fraction(0)) for s in perms]
            for g in graphs]
    return LossMatrix.from_rows(rows, labels=[graph_name(g) for g in graphs], predictions=list(perms),
                                name=f"disagreement loss, m = {m}")


def single_edge_graphs(m: int) -> list[Weights]:
    """One graph per ordered pair: (i -> j) with weight 1 (the family of Lemma 7's proof)."""
    return [{e: Fraction(1)} for e in pairs(m)]


def _sum(terms: Iterable[str]) -> str:
    text = " + ".join(terms)
    return text or "0"


def linear_surrogate(graphs: list[Weights], m: int, nu: Fraction = Fraction(1, 2)) -> dict[str, Any]:
    """Eq. (14) with r(a) = a^2: phi(a, G) = sum_{(i -> j) in G} a_ij^G (a_j - a_i) + nu sum_k a_k^2."""
    reg = f"{nu}*(" + " + ".join(f"u{k}**2" for k in range(1, m + 1)) + ")"
    rows = [_sum(f"{w}*(u{j} - u{i})" for (i, j), w in sorted(g.items())) + " + " + reg for g in graphs]
    return {"dim": m, "per_label": rows, "name": "linear_value_regularised"}


def hinge_pairwise_surrogate(graphs: list[Weights], m: int) -> dict[str, Any]:
    """Eq. (9) with h(x) = x and the hinge phi(x) = max(0, 1 - x): sum_{(i -> j) in G} a_ij^G (1 - (a_i - a_j))_+."""
    rows = [_sum(f"{w}*Max(0, 1 - u{i} + u{j})" for (i, j), w in sorted(g.items())) for g in graphs]
    return {"dim": m, "per_label": rows, "name": "pairwise_hinge"}


def hinge_margin_surrogate(graphs: list[Weights], m: int) -> dict[str, Any]:
    """Eq. (13) with h(x) = x and the hinge: sum_{(i -> j) in G} (1 - (a_i - a_j - a_ij^G))_+."""
    rows = [_sum(f"Max(0, 1 + {w} - u{i} + u{j})" for (i, j), w in sorted(g.items())) for g in graphs]
    return {"dim": m, "per_label": rows, "name": "margin_hinge"}


def p_symbols(n: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(f"p1:{n + 1}"))


def differences_of_p(graphs: list[Weights]) -> Callable[[int, int], Any]:
    """d_ij = a_ij - a_ji with a_ij = sum_G a_ij^G p_G, linear in p1..pn."""
    return weights_diff(expected_weights(graphs, p_symbols(len(graphs))))


def eq16_relations(dd: Callable[[int, int], Any], m: int) -> list[Any]:
    """(16) with nu cancelled: a_ik > a_ki  =>  sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk)."""
    def s(i: int) -> Any:
        return sum((dd(i, j) for j in range(1, m + 1) if j != i), sympy.Integer(0))

    return [sympy.Implies(dd(i, k) > 0, s(i) > s(k)) for i, k in itertools.permutations(range(1, m + 1), 2)]


def duchi_noise(graphs: list[Weights], m: int, kind: str) -> list[Any]:
    dd = differences_of_p(graphs)
    if kind == "low_noise":
        return low_noise_relations(dd, m)
    if kind == "dag":
        return [acyclic(dd, m)]
    if kind == "dag_and_eq16":
        return [acyclic(dd, m), *eq16_relations(dd, m)]
    raise ValueError(kind)


EDGE_CONSISTENCY = ("edge-consistency (Definition 2) = the engine's calibration with the sort-desc link: "
                    "labels = the graphs, L(G, sigma) = sum a_ij^G 1(sigma(i) > sigma(j))")


def linear_whole_claim(id: str, m: int, noise: str, *, location: str, quote: str, statement: str) -> Claim:
    """The linear loss (14) with r = a^2, nu = 1/2 on the m(m-1) single-edge graphs, over the noise set."""
    graphs = single_edge_graphs(m)
    return calibrated(
        id, loss=lambda mm: disagreement_matrix(graphs, m), surrogate=lambda mm: linear_surrogate(graphs, m),
        link="sort-desc", noise=lambda mm: duchi_noise(graphs, m, noise),
        cite=cite(location, quote),
        statement=(f"m = {m}: {statement}; the labels are the m(m-1) single-edge graphs of unit weight, so p "
                   "ranges over every expected weight vector up to scale (W and l depend on (G, p) only through "
                   "a_ij = sum_G a_ij^G p_G, and scaling a is scaling nu); " + EDGE_CONSISTENCY),
    )


def corollary15_whole_claim(id: str, m: int, *, noise: str = "low_noise") -> Claim:
    """Corollary 15: "The linear loss of Eq. (14) is edge-consistent if (G, p) is low noise for all query-result
    pairs."  ``noise`` "dag" drops low noise (the twin)."""
    what = {"low_noise": "over every low-noise p (Definition 8 as relations in p)",
            "dag": "over every p whose difference graph is a DAG (low noise dropped)"}[noise]
    return linear_whole_claim(
        id, m, noise, location="Corollary 15",
        quote="The linear loss of Eq. (14) is edge-consistent if (G, p) is low noise for all query-result pairs.",
        statement=f"the linear loss of Eq. (14) with r(a) = a^2, nu = 1/2 is edge-consistent {what}")


def theorem13_whole_claim(id: str, m: int, *, noise: str = "dag_and_eq16") -> Claim:
    """Theorem 13 (<=): "If (G, p) induces a difference graph that is a DAG, then W*(p) < inf{W(p, a) : a not in
    A(p)} <=> (16)".  ``noise`` "dag" drops (16) (the twin)."""
    what = {"dag_and_eq16": "over every p whose difference graph is a DAG and which satisfies (16)",
            "dag": "over every p whose difference graph is a DAG ((16) dropped)"}[noise]
    return linear_whole_claim(
        id, m, noise, location="Theorem 13",
        quote="If (G, p) induces a difference graph that is a DAG, then W*(p) < inf{W(p, a) : a not in A(p)} <=> "
              "sum_j a_ij - a_ji > sum_j a_kj - a_jk for i, k s.t. a_ik > a_ki.",
        statement=f"(<=) the linear loss of Eq. (14) with r(a) = a^2, nu = 1/2 is edge-consistent {what}")


THEOREM11_GRAPHS: list[Weights] = theorem11_graphs(Fraction(1), Fraction(4), Fraction(1, 10), Fraction(1))
THEOREM12_GRAPHS: list[Weights] = theorem12_graphs(Fraction(1))
THEOREM12_PAPER_P = [f"p{t + 1} = {fr}" for t, fr in enumerate(THEOREM12_P[:3])]


def theorem11_whole_claim(id: str, *, linear: bool = False) -> Claim:
    """Theorem 11: "Even in the low-noise setting, ... phi is not edge-consistent", for the pairwise hinge on
    Theorem 11's graphs over every low-noise p.  ``linear`` swaps in the linear loss (14) (the twin)."""
    g = THEOREM11_GRAPHS
    return calibrated(
        id, loss=lambda m: disagreement_matrix(g, 3),
        surrogate=lambda m: linear_surrogate(g, 3) if linear else hinge_pairwise_surrogate(g, 3),
        link="sort-desc", noise=lambda m: duchi_noise(g, 3, "low_noise"),
        cite=cite("Theorem 11", NOT_EDGE_CONSISTENT),
        statement=(("twin: the value-regularised linear loss (14) (r = a^2, nu = 1/2) instead of the pairwise "
                    "hinge is edge-consistent" if linear else
                    "the pairwise surrogate of Eq. (9) with h(x) = x and the hinge phi(x) = max(0, 1 - x) (convex, "
                    "phi'(0) = -1 < 0, bounded below so Assumption A holds) is edge-consistent")
                   + " over every low-noise p on Theorem 11's graphs G1 = {1->2: 1, 1->3: 4}, G2 = {2->3: 1/10, "
                   "3->1: 1} (the construction with the corrected a31 <= (a13 - a12)/2, eps = 1/10); "
                   + ("" if linear else "false: the paper asserts inconsistency, so a refutation with an exact p "
                      "agrees with it; ") + EDGE_CONSISTENCY),
        expected=None if linear else "refuted",
    )


def theorem12_whole_claim(id: str, *, paper_p: bool = False, linear: bool = False) -> Claim:
    """Theorem 12: "Even in the low-noise setting, ... phi is not edge-consistent", for the margin hinge on
    Theorem 12's graphs (over every low-noise p, or at the printed p).  ``linear`` swaps in (14) (the twin)."""
    g = THEOREM12_GRAPHS
    where = ("at the paper's p = (.25, .01, .5, .24)" if paper_p else "over every low-noise p")
    return calibrated(
        id, loss=lambda m: disagreement_matrix(g, 3),
        surrogate=lambda m: linear_surrogate(g, 3) if linear else hinge_margin_surrogate(g, 3),
        link="sort-desc", noise=lambda m: THEOREM12_PAPER_P if paper_p else duchi_noise(g, 3, "low_noise"),
        cite=cite("Theorem 12", NOT_EDGE_CONSISTENT),
        statement=(("twin: the value-regularised linear loss (14) (r = a^2, nu = 1/2) instead of the margin hinge "
                    "is edge-consistent" if linear else
                    "the margin-based surrogate of Eq. (13) with h(x) = x and the hinge phi(x) = max(0, 1 - x) "
                    "(phi~(x) = phi(x - c), c = h(1) = 1, differentiable at -c) is edge-consistent")
                   + f" {where} on Theorem 12's graphs G1 = {{1->2}}, G2 = {{2->3}}, G3 = {{1->3}}, G4 = {{3->1}} of "
                   "weight h^-1(c) = 1; " + ("" if linear else "false: the paper asserts inconsistency; ")
                   + EDGE_CONSISTENCY),
        expected=None if linear else "refuted",
    )


# edge-consistency over every p with a DAG difference graph: low noise, resp. (16), dropped
corollary15_whole = [corollary15_whole_claim(f"duchi2010.corollary15.calibration.low_noise.m{m}", m) for m in (3, 4)]
for _c, _m in zip(corollary15_whole, (3, 4), strict=True):
    TWINS[_c.id] = lambda cid=_c.id, m=_m: corollary15_whole_claim(twin_id(cid), m, noise="dag")
theorem13_whole = [theorem13_whole_claim(f"duchi2010.theorem13.calibration.dag_and_eq16.m{m}", m) for m in (3, 4)]
for _c, _m in zip(theorem13_whole, (3, 4), strict=True):
    TWINS[_c.id] = lambda cid=_c.id, m=_m: theorem13_whole_claim(twin_id(cid), m, noise="dag")

# the hinge replaced by the value-regularised linear loss (14): edge-consistent on the same graphs and
# distributions (the paper calls the hinge claims false, so their twins must hold)
theorem11_whole = theorem11_whole_claim("duchi2010.theorem11.calibration.hinge")
TWINS[theorem11_whole.id] = lambda: theorem11_whole_claim(twin_id(theorem11_whole.id), linear=True)
theorem12_whole = theorem12_whole_claim("duchi2010.theorem12.calibration.margin_hinge")
TWINS[theorem12_whole.id] = lambda: theorem12_whole_claim(twin_id(theorem12_whole.id), linear=True)
theorem12_whole_paper_p = theorem12_whole_claim("duchi2010.theorem12.calibration.margin_hinge.paper_p", paper_p=True)
TWINS[theorem12_whole_paper_p.id] = lambda: theorem12_whole_claim(
    twin_id(theorem12_whole_paper_p.id), linear=True, paper_p=True
)
for _c in (theorem11_whole, theorem12_whole, theorem12_whole_paper_p):
    TWIN_EXPECT[_c.id] = "proved"
