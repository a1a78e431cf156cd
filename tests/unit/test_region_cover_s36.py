"""``--region``'s failure set as a cover by prime implicants (symcal.calibration.region._pieces).

The pieces must describe Q exactly inside P: each lies in Q, and no point of Q is outside them --
checked here by z3 independently of how the pieces were found -- and an undecided step is never a
partial answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import z3

from symcal.backends.base import Budget
from symcal.calibration import calibrated_region
from symcal.calibration.region import MAX_PIECES, _pieces
from symcal.verdicts import Status

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "calibration"


def _simplex(p: list[z3.ArithRef]) -> list[z3.BoolRef]:
    return [*(x >= 0 for x in p), z3.Sum(p) == 1]


def _same_set(pieces: list[z3.BoolRef], Q: z3.BoolRef, domain: list[z3.BoolRef]) -> bool:
    s = z3.Solver()
    s.add(*domain, z3.Xor(Q, z3.Or(*pieces)))
    return s.check() == z3.unsat


def test_a_messy_union_of_two_triangles_gives_two_pieces_that_are_exactly_q():
    p = list(z3.Reals("p1 p2 p3"))
    a = z3.And(p[0] >= 1 / z3.RealVal(2), p[1] >= p[2])
    b = z3.And(p[1] > 1 / z3.RealVal(2), z3.Not(p[0] < 1 / z3.RealVal(10)))
    # the same set written with redundant clauses and a negated equation
    Q = z3.Or(a, b, z3.And(a, p[2] != 1 / z3.RealVal(7)), z3.And(b, p[0] + p[1] >= 1 / z3.RealVal(2)))
    domain = _simplex(p)
    pieces = _pieces(Q, domain, Budget(20))
    assert pieces is not None and len(pieces) == 2
    assert _same_set(pieces, Q, domain)
    for pc in pieces:  # each piece is convex: a conjunction of relations, none of them a disjunction
        assert all(not z3.is_or(c) for c in (pc.children() if z3.is_and(pc) else [pc]))


def test_an_empty_failure_set_has_no_pieces_and_a_full_one_is_one_piece():
    p = list(z3.Reals("p1 p2 p3"))
    domain = _simplex(p)
    assert _pieces(z3.And(p[0] > 1, p[1] >= 0), domain, Budget(10)) == []
    whole = _pieces(z3.Or(p[0] >= 1 / z3.RealVal(3), p[0] < 1 / z3.RealVal(3)), domain, Budget(10))
    assert whole is not None and len(whole) == 1 and _same_set(whole, z3.BoolVal(True), domain)


def test_more_pieces_than_the_cap_is_none_not_a_partial_cover():
    p = list(z3.Reals("p1 p2"))
    domain = _simplex(p)
    # MAX_PIECES + 1 disjoint points on the edge p1 + p2 = 1: no two share a convex piece inside Q
    Q = z3.Or(*(p[0] == z3.RealVal(i) / (MAX_PIECES + 2) for i in range(MAX_PIECES + 1)))
    assert _pieces(Q, domain, Budget(60)) is None


def test_weston_watkins_at_three_labels_fails_on_six_prime_pieces_each_refuted_exactly():
    data = json.loads((EXAMPLES / "weston_watkins_3.json").read_text())
    r = calibrated_region(data["loss"], data["surrogate"], data["link"], timeout=60)
    assert r.status is Status.PROVED
    assert len(r.pieces) == 6
    for pc in r.pieces:
        assert len(pc.relations) == 3  # a prime implicant: three half-planes (was five relations per piece)
        assert pc.verdict is not None and pc.verdict.status is Status.REFUTED


@pytest.mark.slow
def test_weston_watkins_at_four_labels_is_decided_not_too_many_pieces():
    n = 4
    loss = [[0 if i == j else 1 for j in range(n)] for i in range(n)]
    per = [" + ".join(f"Max(0, 1 - (u{y + 1} - u{j + 1}))" for j in range(n) if j != y) for y in range(n)]
    r = calibrated_region(loss, {"dim": n, "per_label": per}, "argmax", timeout=400)
    assert r.status is Status.PROVED, r.reason
    assert 0 < len(r.pieces) <= MAX_PIECES
