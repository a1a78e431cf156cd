"""A user's own claims, checked with `symcal check --theorems examples/my_claims.py`."""

import sympy

from symcal import And, Citation, Implies, Local, all_sizes, identity, implies, node_implies, reals

mine = Citation("mine2026", "Notebook, p. 3", "my conjectures about pairwise weights")

p, q = reals("p q")

# A true inequality: z3 proves it (the negated query is unsat).
am_gm_half = implies(
    "mine2026.am_gm_half",
    hypotheses={"simplex": [p >= 0, q >= 0, sympy.Eq(p + q, 1)]},
    conclusion=p * q <= sympy.Rational(1, 4),
    cite=mine,
    statement="p, q >= 0 and p + q = 1 imply pq <= 1/4",
)

# An identity: sympy expands the residual to 0.
square = identity("mine2026.square", (p + q) ** 2, p**2 + 2 * p * q + q**2, cite=mine)

# A conjecture about edge weights on m nodes: if the difference graph is transitive
# (i->j and j->k edges imply an i->k edge), is every node's net out-weight ordered along
# each edge?  symcal finds the smallest counterexample and re-checks it exactly.
TRANSITIVE = Local(
    3,
    lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) > 0),
    "d_ij > 0 and d_jk > 0 -> d_ik > 0",
)
NET_ORDERED = Local(
    2,
    lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j))),
    "d_ik > 0 -> sum_j d_ij > sum_j d_kj",
)
transitive_is_enough = node_implies(
    "mine2026.transitive_is_enough",
    hypotheses={"transitive": TRANSITIVE},
    conclusion=NET_ORDERED,
    cite=mine,
    statement="a transitive difference graph orders the net out-weights (conjecture)",
    sizes=(3, 6),
    expected="proved",
)

# The same conclusion from a stronger, reinforcing hypothesis, proved for every m at once.
REINFORCING = Local(
    3,
    lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) >= a.d(i, j) + a.d(j, k)),
    "d_ij > 0 and d_jk > 0 -> d_ik >= d_ij + d_jk",
)
reinforcing_is_enough = all_sizes(
    node_implies("mine2026.reinforcing", hypotheses={"reinforcing": REINFORCING}, conclusion=NET_ORDERED,
                 cite=mine, sizes=(3, 8)),
    "mine2026.reinforcing.all_m",
)

CLAIMS = [am_gm_half, square, transitive_is_enough, reinforcing_is_enough]
