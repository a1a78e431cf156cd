"""One table of known claims, true and false, that every backend must respect.

A backend may answer ``unknown`` on a row; it may never contradict one.
"""

from __future__ import annotations

import sympy

from symcal import And, Citation, Implies, Local, identity, implies, node_implies, reals
from symcal.verdicts import Status

C = Citation("known2026", "test table", "rows with a known truth value")
x, y, p, q = reals("x y p q")

LOW_NOISE = Local(3, lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0),
                                                 a.d(i, k) >= a.d(i, j) + a.d(j, k)))
ORDERING = Local(2, lambda a, i, k: Implies(a.d(i, k) > 0,
                                            a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j))))
TRANSITIVE = Local(3, lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) > 0))

# (claim, True if the statement is true)
ROWS = [
    (identity("known2026.square", (x + y) ** 2, x**2 + 2 * x * y + y**2, cite=C), True),
    (identity("known2026.square_wrong", (x + y) ** 2, x**2 + x * y + y**2, cite=C), False),
    (identity("known2026.rational", (x**2 - 1) / (x - 1), x + 1, cite=C), True),
    (implies("known2026.am_gm", hypotheses={"s": [p >= 0, q >= 0, sympy.Eq(p + q, 1)]},
             conclusion=p * q <= sympy.Rational(1, 4), cite=C), True),
    (implies("known2026.am_gm_wrong", hypotheses={"s": [p >= 0, q >= 0, sympy.Eq(p + q, 1)]},
             conclusion=p * q < sympy.Rational(1, 4), cite=C), False),
    (implies("known2026.square_nonneg", hypotheses={}, conclusion=x**2 >= 0, cite=C), True),
    (implies("known2026.square_positive", hypotheses={}, conclusion=x**2 > 0, cite=C), False),
    (node_implies("known2026.lemma14", hypotheses={"low_noise": LOW_NOISE}, conclusion=ORDERING,
                  cite=C, sizes=(3, 5)), True),
    (node_implies("known2026.transitive", hypotheses={"t": TRANSITIVE}, conclusion=ORDERING,
                  cite=C, sizes=(3, 5)), False),
    (node_implies("known2026.converse", hypotheses={"o": ORDERING}, conclusion=LOW_NOISE,
                  cite=C, sizes=(3, 4)), False),
]


def respects(status: Status, truth: bool) -> bool:
    if status in (Status.UNKNOWN,):
        return True
    return (status is Status.PROVED) == truth and status in (Status.PROVED, Status.REFUTED)
