"""Duchi, Mackey & Jordan (2010), "On the Consistency of Ranking Algorithms", ICML.

Main claims
-----------
(SEED — to be completed) Lemma 14 (low noise => the ordering condition of Theorem 13) for
m = 3..12 by SMT and for all m by a local lemma; its converse is false.

Encoding notes
--------------
Node claims use edge weights a_ij >= 0 on nodes 1..m; ``a.d(i, j)`` is a_ij - a_ji, the
weight of the difference graph when positive.

References
----------
../shared/papers/duchi-mackey-jordan-2010-consistency-of-ranking-algorithms.txt
"""

from __future__ import annotations

from symcal import And, Citation, Implies, Local, all_sizes, node_implies

PAPER = "duchi2010"


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


# Definition 8: whenever i->j and j->k are edges of the difference graph,
# a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj).
LOW_NOISE = Local(
    3,
    lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) >= a.d(i, j) + a.d(j, k)),
    "d_ij > 0 and d_jk > 0  ->  d_ik >= d_ij + d_jk",
)

# Theorem 13 / Lemma 14: whenever a_ik > a_ki, sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk).
ORDERING = Local(
    2,
    lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j))),
    "d_ik > 0  ->  sum_j d_ij > sum_j d_kj",
)

lemma14 = node_implies(
    "duchi2010.lemma14",
    hypotheses={"low_noise": LOW_NOISE},
    conclusion=ORDERING,
    cite=cite("Lemma 14", "If (G, p) is low noise, then whenever a_ik > a_ki, sum_j a_ij - a_ji > sum_j a_kj - a_jk."),
    statement="low noise (Def. 8) => for every pair with a_ik > a_ki: sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk)",
    sizes=(3, 12),
)

lemma14_all_m = all_sizes(lemma14, "duchi2010.lemma14.all_m")

lemma14_converse = node_implies(
    "duchi2010.lemma14.converse",
    hypotheses={"ordering": ORDERING},
    conclusion=LOW_NOISE,
    cite=cite("Section 3, after Lemma 14", "The converse of the lemma is, in general, false."),
    statement="the ordering condition of Lemma 14 => low noise (the paper says: false in general)",
    sizes=(3, 6),
    expected="refuted",
)

CLAIMS = [lemma14, lemma14_all_m, lemma14_converse]
