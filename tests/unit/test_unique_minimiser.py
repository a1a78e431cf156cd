"""Claims over argmin sets: ``unique_minimiser`` says that for every distribution of a family the
minimisers of a risk over a finite prediction set are exactly {best} (or one prediction, whichever).
It compiles to an ``implies_cases`` family, so a proof has one query per case, ``--certify`` has the
kernel re-derive every case, and a refutation names the distribution and a second minimiser, both
re-checked exactly."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy

from symcal import Citation, check, reals, unique_minimiser
from symcal.errors import InvalidInput
from symcal.verdicts import Status

C = Citation("Mine 2026", "Prop. 1")
HALF = sympy.Rational(1, 2)
w12, w13, w23 = reals("w12 w13 w23")
W = {(1, 2): w12, (2, 1): 1 - w12, (1, 3): w13, (3, 1): 1 - w13, (2, 3): w23, (3, 2): 1 - w23}
ORDERS = list(itertools.permutations((1, 2, 3)))
PROBS = [0 <= w for w in (w12, w13, w23)] + [w <= 1 for w in (w12, w13, w23)]


def risk(order: tuple[int, ...]) -> sympy.Expr:
    """Expected pairwise disagreement: item i ranked below item j costs P(i preferred to j)."""
    pos = {item: k for k, item in enumerate(order)}
    return sum(W[i, j] for (i, j) in W if pos[i] > pos[j])


def minimisers_at(values: dict[str, Fraction]) -> list[tuple[int, ...]]:
    """The argmin set at an exact point, computed here independently of the claim."""
    sub = {sympy.Symbol(k, real=True): sympy.Rational(v.numerator, v.denominator) for k, v in values.items()}
    r = {t: sympy.nsimplify(risk(t).xreplace(sub)) for t in ORDERS}
    low = min(r.values())
    return [t for t in ORDERS if r[t] == low]


def test_low_noise_makes_the_sorted_order_the_unique_minimiser_and_the_kernel_re_derives_it():
    c = unique_minimiser("mine2026.argmin", risk=risk, over=ORDERS, best=(1, 2, 3), cite=C,
                         family={"probabilities": PROBS, "low_noise": [w12 > HALF, w23 > HALF, w13 > HALF]})
    v = check(c, certify=True)
    assert v.status is Status.PROVED and "5 cases" in v.scope
    assert v.certificate is not None and v.certificate.checked and v.certificate.pieces == 5
    # its twin: without w13 > 1/2 (a cycle is allowed) a second minimiser is named, at an exact p
    d = unique_minimiser("mine2026.argmin_cycle", risk=risk, over=ORDERS, best=(1, 2, 3), cite=C,
                         family={"probabilities": PROBS, "two_pairs": [w12 > HALF, w23 > HALF]})
    w = check(d)
    assert w.status is Status.REFUTED and w.evidence.rechecked
    second = w.evidence.detail.split("second minimiser ", 1)[1].split("'", 1)[0]
    assert second != "(1, 2, 3)" and tuple(int(k) for k in second.strip("()").split(", ")) in \
        minimisers_at(w.evidence.values)


def test_one_minimiser_whichever_is_refuted_by_naming_two_minimisers_at_one_p():
    fam = {"probabilities": PROBS, "two_pairs": [w12 > HALF, w23 > HALF]}
    c = unique_minimiser("mine2026.single", risk=risk, over=ORDERS, family=fam, cite=C)
    v = check(c)
    assert v.status is Status.REFUTED and "15 pairs" in v.scope
    names = v.evidence.detail.split("two minimisers ", 1)[1].split("'", 1)[0].split(" and ")
    named = [tuple(int(k) for k in n.strip("()").split(", ")) for n in names]
    assert len(named) == 2 and set(named) <= set(minimisers_at(v.evidence.values))
    # its twin: with a strict preference on every pair, the argmin has one element (proved)
    ok = unique_minimiser("mine2026.single_ok", risk=risk, over=ORDERS, cite=C,
                          family={"probabilities": PROBS, "strict": [w12 > HALF, w23 > HALF, w13 > HALF]})
    assert check(ok).status is Status.PROVED


def test_a_finite_family_of_distributions_names_the_distribution_that_fails():
    points = [("p1", {"at": [sympy.Eq(w12, sympy.Rational(3, 4)), sympy.Eq(w23, sympy.Rational(2, 3)),
                             sympy.Eq(w13, sympy.Rational(4, 5))]}),
              ("p2", {"at": [sympy.Eq(w12, sympy.Rational(3, 4)), sympy.Eq(w23, HALF),
                             sympy.Eq(w13, sympy.Rational(4, 5))]})]
    c = unique_minimiser("mine2026.points", risk=risk, over=ORDERS, best=(1, 2, 3), family=points, cite=C)
    v = check(c)
    # at p2 items 2 and 3 are tied: (1, 3, 2) is a second minimiser
    assert v.status is Status.REFUTED and "case 'p2: second minimiser (1, 3, 2)'" in v.evidence.detail
    # its twin: p1 alone is proved
    p1 = unique_minimiser("mine2026.p1", risk=risk, over=ORDERS, best=(1, 2, 3), family=points[:1], cite=C)
    assert check(p1).status is Status.PROVED


def test_necessity_drops_a_family_hypothesis_from_every_case():
    c = unique_minimiser("mine2026.argmin_n", risk=risk, over=ORDERS, best=(1, 2, 3), cite=C,
                         family={"probabilities": PROBS, "low_noise": [w12 > HALF, w23 > HALF, w13 > HALF]})
    assert c.hypothesis_names == ("probabilities", "low_noise")
    assert check(c.without("low_noise")).status is Status.REFUTED
    # its twin: the probabilities are not needed for uniqueness here (the low-noise half-planes suffice)
    assert check(c.without("probabilities")).status is Status.PROVED


def test_bad_arguments_are_refused_naming_the_parameter():
    with pytest.raises(InvalidInput, match="best="):
        unique_minimiser("mine2026.bad", risk=risk, over=ORDERS, best=(3, 3, 3), family={}, cite=C)
    with pytest.raises(InvalidInput, match="risk="):
        unique_minimiser("mine2026.bad", risk=lambda t: 1 / 0, over=ORDERS, family={}, cite=C)
    # its twin: the same call with a real prediction is accepted
    assert unique_minimiser("mine2026.ok", risk=risk, over=ORDERS, best=(3, 2, 1), family={}, cite=C).id == \
        "mine2026.ok"
