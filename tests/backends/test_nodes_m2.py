"""Node claims at m = 2: sizes start at the conclusion's arity, a hypothesis on more nodes than m
holds vacuously there (transitivity on two nodes), the symmetry reduction is justified on the
formulas (at m = 2 the transposition (1 2) generates every relabelling), and the kernel re-derives
the ``node`` certificate at m = 2.  A false claim at m = 2 comes back refuted with an exact witness."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symcal import certify, check
from symcal.backends import decide
from symcal.backends.base import Budget
from symcal.claims import Citation, Local, all_sizes, node_implies
from symcal.errors import InvalidInput
from symcal.kernel import check as kernel_check
from symcal.logic import And, Implies
from symcal.verdicts import Status

C = Citation("Mine 2026", "Lemma 2")
TRANSITIVE = Local(3, lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) > 0))
NET_ORDERED = Local(2, lambda a, i, k: Implies(a.d(i, k) > 0,
                                               a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j))))
BOTH_WIN = Local(2, lambda a, i, j: a.d(i, j) >= 0, "every node beats or ties every other")


def test_a_claim_with_a_hypothesis_on_triples_is_accepted_from_m_2_and_proved_there():
    c = node_implies("mine2026.m2.net", hypotheses={"transitive": TRANSITIVE}, conclusion=NET_ORDERED, cite=C,
                     sizes=(2, 2))
    v = check(c)
    assert v.status is Status.PROVED and v.sizes[0].size == 2
    assert "(1 2)" in v.sizes[0].evidence.note  # the reduction is justified on the formulas at m = 2
    # its twin: a conclusion on three nodes claims nothing at m = 2 and is refused
    with pytest.raises(InvalidInput, match="sizes"):
        node_implies("mine2026.m2.wide", hypotheses={}, conclusion=TRANSITIVE, cite=C, sizes=(2, 3))


def test_a_false_claim_at_m_2_is_refuted_with_an_exact_witness():
    c = node_implies("mine2026.m2.both_win", hypotheses={}, conclusion=BOTH_WIN, cite=C, sizes=(2, 4))
    v = check(c)
    assert v.status is Status.REFUTED and v.evidence.size == 2 and v.evidence.rechecked
    assert v.evidence.values == {"a[1,2]": Fraction(0), "a[2,1]": Fraction(1)}  # exact: d_12 = -1 < 0
    assert "refuted at m = 2" in v.scope and "fails at (1, 2)" in v.evidence.detail
    # its twin: with the hypothesis that the pair is tied the same conclusion is proved at m = 2
    tied = Local(2, lambda a, i, j: a.d(i, j) <= 0, "never beats")
    ok = node_implies("mine2026.m2.tied", hypotheses={"tied": tied}, conclusion=BOTH_WIN, cite=C, sizes=(2, 2))
    assert check(ok).status is Status.PROVED


def test_without_symmetry_the_unreduced_query_at_m_2_is_decided_and_refuted_exactly():
    # a conclusion that reads a label: no reduction, one query per ordered pair
    labelled = Local(2, lambda a, i, j: a.d(i, j) >= 0 if i == 1 else True, "node 1 never loses")
    c = node_implies("mine2026.m2.labelled", hypotheses={}, conclusion=labelled, cite=C, sizes=(2, 2),
                     symmetric=False)
    v = check(c)
    assert v.status is Status.REFUTED and v.evidence.rechecked and v.evidence.size == 2
    assert v.evidence.values == {"a[1,2]": Fraction(0), "a[2,1]": Fraction(1)}
    # its twin: assumed as a hypothesis, it is proved at m = 2 without the reduction
    ok = node_implies("mine2026.m2.labelled_ok", hypotheses={"h": labelled}, conclusion=labelled, cite=C,
                      sizes=(2, 2), symmetric=False)
    assert check(ok).status is Status.PROVED


def _cert(claim, m):
    out = decide(claim, m, Budget(60))
    built = certify.build(out, claim, m, 60)
    assert len(built) == 1
    _, cert, why = built[0]
    assert cert is not None and cert["kind"] == "node", why
    return cert


def test_the_kernel_re_derives_a_node_certificate_at_m_2_and_rejects_a_tampered_one():
    c = node_implies("mine2026.m2.cert", hypotheses={"transitive": TRANSITIVE}, conclusion=NET_ORDERED, cite=C,
                     sizes=(2, 2))
    cert = _cert(c, 2)
    assert cert["m"] == 2 and cert["fixed"] == [1, 2]
    assert kernel_check(cert) == {"checked": True, "reason": ""}
    # its twin: a conclusion relabelled wrongly is rejected
    bad = {**cert, "conclusions": [[t, text] for t, text in cert["conclusions"]]}
    (t0, f0), (t1, f1) = bad["conclusions"]
    bad["conclusions"] = [[t0, f0], [t1, f0]]
    assert not kernel_check(bad)["checked"]


def test_the_all_size_lemma_from_m_2_checks_label_freedom_from_m_2():
    c = node_implies("mine2026.m2.net_all", hypotheses={"transitive": TRANSITIVE}, conclusion=NET_ORDERED, cite=C,
                     sizes=(2, 4))
    v = check(all_sizes(c, "mine2026.m2.net_all.all_m"))
    # the net-ordering conclusion does not follow from transitivity for m >= 3, so no local lemma proves it
    assert v.status is not Status.PROVED
    # its twin: a per-node sum the hypotheses sign is proved for all m >= 2
    beats = Local(2, lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j) - a.d(k, j)) > 0))
    dominant = Local(3, lambda a, i, k, j: Implies(a.d(i, k) > 0, a.d(i, j) >= a.d(k, j)))
    ok = node_implies("mine2026.m2.dom", hypotheses={"dominant": dominant}, conclusion=beats, cite=C, sizes=(2, 4))
    w = check(all_sizes(ok, "mine2026.m2.dom.all_m"))
    assert w.status is Status.PROVED and "all m >= 2" in w.scope and "m = 2..4" in w.evidence.note
