"""Node symmetry is decided on the claim's formulas, never on how Python objects behave (issue 23).

Each conclusion below tests a node label in a different way; each is false at m = 3.  Before,
the opaque-node check let `==` against an integer answer False and let hashing work, the
reduction fixed the failing tuple to (1, 2), and the query became `(assert (not true))`:
eight false `proved`.  Now the per-size reduction is justified only when the formulas
themselves are equivariant, and an all-size proof needs functions that run on opaque nodes
which refuse every label read.
"""

from __future__ import annotations

import pytest

from symcal import Status, check
from symcal.claims import Citation, Local, all_sizes, node_implies
from symcal.logic import And, Implies

C = Citation("Mine 2026", "Lemma 1")
W = {1: 2, 2: 1, 3: 1}
S = {2, 3}


def _when(test):
    return lambda a, i, j: (a.d(i, j) >= 0) if test(i, j) else True


LABEL_TESTS = {
    "eq": _when(lambda i, j: i == 3),
    "tuple_eq": _when(lambda i, j: (i, j) == (2, 3)),
    "in_tuple": _when(lambda i, j: i in (2, 3)),
    "set_member": _when(lambda i, j: i in S),
    "hash": _when(lambda i, j: hash(i) % 2 == 0),
    "int": _when(lambda i, j: int(i) == 2),
    "index": _when(lambda i, j: [0, 0, 1, 0][i] == 1),
    "str": _when(lambda i, j: str(i) == "2"),
    "format": _when(lambda i, j: f"{i}" == "2"),
    "bool_arith": _when(lambda i, j: bool(i - 1)),
    "isinstance": _when(lambda i, j: isinstance(i, int)),
    "dict_get": lambda a, i, j: Implies(a.d(i, j) > 0, W.get(i, 1) * a.d(i, j) >= W.get(j, 1) * a.d(i, j)),
}


def _claim(name, fn, **kw):
    return node_implies(f"mine2026.label_{name}", hypotheses={}, cite=C, sizes=(3, 4),
                        conclusion=Local(2, fn, name), **kw)


@pytest.mark.parametrize("name", sorted(LABEL_TESTS))
def test_a_conclusion_that_reads_a_label_is_refuted_at_m3_with_a_rechecked_witness(name):
    v = check(_claim(name, LABEL_TESTS[name]))
    if name == "isinstance":  # reads no label: d_ij >= 0 for every ordered pair, false at once
        assert v.status is Status.REFUTED
        return
    assert v.status is Status.REFUTED, (v.status, v.reason)
    assert v.witness is not None and v.witness.rechecked and v.witness.size == 3


@pytest.mark.parametrize("name", sorted(LABEL_TESTS))
def test_all_sizes_of_a_label_reading_conclusion_is_never_proved(name):
    v = check(all_sizes(_claim(name, LABEL_TESTS[name]), f"mine2026.label_{name}.all_m"))
    assert v.status is Status.UNKNOWN
    assert "node" in v.reason


NET_ORDERED = Local(
    2, lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j))), "net")
REINFORCING = Local(
    3, lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) >= a.d(i, j) + a.d(j, k)), "reinf")
NET_ORDERED_BUT_2 = Local(
    2, lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j))
                                + (100 if i == 2 else 0) > a.sum(lambda j: a.d(k, j))), "net, +100 at node 2")
NET_ORDERED_BUT_NOT_2 = Local(
    2, lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j))
                                > a.sum(lambda j: a.d(k, j)) + (100 if i == 2 else 0)), "net, -100 at node 2")


def test_the_readme_reinforcing_claim_is_still_proved_for_every_size_with_the_justification_in_the_evidence():
    c = node_implies("mine2026.reinforcing", hypotheses={"r": REINFORCING}, conclusion=NET_ORDERED, cite=C,
                     sizes=(3, 5))
    v = check(all_sizes(c, "mine2026.reinforcing.all_m"))
    assert v.status is Status.PROVED
    assert "node equality" in v.scope
    assert "opaque nodes" in str(v.evidence.to_json())
    assert check(c).status is Status.PROVED


def test_a_label_test_added_to_the_reinforcing_claim_is_not_proved_for_every_size_and_refuted_per_size():
    # the right side grows by 100 at node 2: false at m = 3 (d_23 = 1, sums 1 vs -1 + 100)
    bad = node_implies("mine2026.reinforcing_bad", hypotheses={"r": REINFORCING}, conclusion=NET_ORDERED_BUT_NOT_2,
                       cite=C, sizes=(3, 4))
    assert check(all_sizes(bad, "mine2026.reinforcing_bad.all_m")).status is Status.UNKNOWN
    v = check(bad)
    assert v.status is Status.REFUTED and v.witness.rechecked
    # its twin: the label test on the weak side keeps the claim true, proved per size without the symmetry
    good = node_implies("mine2026.reinforcing_good", hypotheses={"r": REINFORCING}, conclusion=NET_ORDERED_BUT_2,
                        cite=C, sizes=(3, 4))
    v = check(good)
    assert v.status is Status.PROVED
    assert "node symmetry NOT used" in str(v.evidence.to_json())


def test_a_label_test_in_a_hypothesis_stops_the_reduction_and_the_claim_is_refuted():
    # hypothesis: node 1 never loses; conclusion: nobody loses -- false (a_23 = 1)
    hyp = Local(2, lambda a, i, j: (a.d(i, j) >= 0) if i == 1 else True, "node 1 never loses")
    c = node_implies("mine2026.hyp_label", hypotheses={"h": hyp}, cite=C, sizes=(3, 3),
                     conclusion=Local(2, lambda a, i, j: a.d(i, j) >= 0, "no one loses"))
    v = check(c)
    assert v.status is Status.REFUTED and v.witness.rechecked
    # twin: the conclusion restricted to node 1 the same way holds (checked without the symmetry)
    twin = node_implies("mine2026.hyp_label_twin", hypotheses={"h": hyp}, cite=C, sizes=(3, 3), conclusion=hyp)
    assert check(twin).status is Status.PROVED


def test_a_function_that_tells_opaque_nodes_from_integers_gets_no_all_size_proof():
    sneaky = Local(2, lambda a, i, j: (a.d(i, j) >= 0) if isinstance(i, int) else (a.d(i, j) >= -a.d(i, j) - 1),
                   "different on opaque nodes")
    c = node_implies("mine2026.sneaky", hypotheses={}, conclusion=sneaky, cite=C, sizes=(3, 3))
    v = check(all_sizes(c, "mine2026.sneaky.all_m"))
    assert v.status is Status.UNKNOWN and "opaque" in v.reason
