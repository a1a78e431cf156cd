"""The kernel re-derives a node claim at one size from its statement (issue 23, item 2).

A ``node`` certificate carries the claim's formulas, the node-symmetry reduction (or one query
per tuple) and the Farkas-certified queries; the kernel checks that the relabellings map the
hypotheses onto themselves, that every conclusion is the fixed tuple's one relabelled, that each
query asserts nothing but hypotheses, signs and its negated goal, and (for the per-node split)
that the terms add up to the conclusion's sum.  Each tampering below must be rejected.
"""

from __future__ import annotations

import copy

import pytest

from symcal import certify
from symcal.backends import decide
from symcal.backends.base import Budget
from symcal.claims import Citation, Local, node_implies
from symcal.kernel import check
from symcal.library import load_bundled
from symcal.logic import Implies

C = Citation("Mine 2026", "Lemma 1")


def _node_cert(claim, m):
    out = decide(claim, m, Budget(60))
    built = certify.build(out, claim, m, 60)
    assert len(built) == 1, [label for label, _, _ in built]
    label, cert, why = built[0]
    assert cert is not None and cert["kind"] == "node", why
    return cert


@pytest.fixture(scope="module")
def lemma14_m4():
    claim = next(c for c in load_bundled() if c.id == "duchi2010.lemma14")
    return _node_cert(claim, 4)


@pytest.fixture(scope="module")
def per_tuple_m3():
    # a conclusion that reads a label: no symmetry, one query per conclusion tuple
    hyp = Local(2, lambda a, i, j: a.d(i, j) >= 0 if i == 1 else True, "node 1 never loses")
    claim = node_implies("mine2026.kernel_per_tuple", hypotheses={"h": hyp}, conclusion=hyp, cite=C, sizes=(3, 3))
    return _node_cert(claim, 3)


def test_lemma14_at_m4_is_re_derived_by_the_kernel_with_its_symmetry_and_its_split(lemma14_m4):
    assert lemma14_m4["fixed"] == [1, 2] and lemma14_m4["split"]
    assert check(lemma14_m4) == {"checked": True, "reason": ""}


def test_a_claim_without_symmetry_is_re_derived_from_one_query_per_tuple(per_tuple_m3):
    assert per_tuple_m3["fixed"] is None and len(per_tuple_m3["queries"]) == 6
    assert check(per_tuple_m3)["checked"]


def test_a_hypothesis_missing_from_the_statement_is_rejected(lemma14_m4):
    bad = copy.deepcopy(lemma14_m4)
    bad["hypotheses"] = bad["hypotheses"][1:]
    assert not check(bad)["checked"]


def test_a_changed_conclusion_is_rejected(lemma14_m4):
    bad = copy.deepcopy(lemma14_m4)
    bad["conclusions"][3][1] = bad["conclusions"][3][1].replace("(>", "(>=", 1)
    res = check(bad)
    assert not res["checked"] and "relabelled" in res["reason"]


def test_a_statement_whose_hypotheses_are_not_symmetric_cannot_fix_the_tuple(lemma14_m4):
    bad = copy.deepcopy(lemma14_m4)
    bad["hypotheses"][0] = "(>= d_1_2 0.0)"
    res = check(bad)
    assert not res["checked"] and "invariant" in res["reason"]


def test_a_per_tuple_certificate_missing_a_tuple_is_rejected(per_tuple_m3):
    bad = copy.deepcopy(per_tuple_m3)
    bad["queries"] = bad["queries"][:-1]
    assert not check(bad)["checked"]
    fixed = copy.deepcopy(per_tuple_m3)  # claiming the symmetry that the formulas do not have
    fixed["fixed"] = [1, 2]
    fixed["queries"] = [[[1, 2], per_tuple_m3["queries"][0][1]]]
    assert not check(fixed)["checked"]


def test_a_query_that_asserts_more_than_the_statement_gives_is_rejected(lemma14_m4):
    bad = copy.deepcopy(lemma14_m4)
    body = bad["queries"][0][1]
    body["smtlib"] = body["smtlib"].replace("(check-sat)", "(assert (> d_1_2 5.0))\n(check-sat)")
    res = check(bad)
    assert not res["checked"] and "neither" in res["reason"]


def test_split_terms_that_do_not_add_up_to_the_conclusion_are_rejected(lemma14_m4):
    bad = copy.deepcopy(lemma14_m4)
    bad["queries"] = [q for q in bad["queries"] if q[0] != 4]  # drop the term of node 4
    res = check(bad)
    assert not res["checked"] and "add up" in res["reason"]


def test_a_label_claim_that_is_false_gets_no_node_certificate_but_a_rechecked_refutation():
    concl = Local(2, lambda a, i, j: Implies(a.d(i, j) > 0, a.d(i, j) >= 0) if i != 1 else a.d(i, j) >= 0, "")
    claim = node_implies("mine2026.kernel_false", hypotheses={}, conclusion=concl, cite=C, sizes=(3, 3))
    out = decide(claim, 3, Budget(30))
    assert out.status.value == "refuted"
    assert certify.build(out, claim, 3, 30)[0][1] is None
