"""Every backend respects the table of known claims: it may say unknown, never contradict."""

import pytest

from symcal import all_sizes, check
from symcal.verdicts import Status
from tests.common.known_claims import ROWS, respects


@pytest.mark.parametrize("claim,truth", ROWS, ids=[c.id for c, _ in ROWS])
def test_the_verdict_never_contradicts_a_known_row(claim, truth):
    v = check(claim, timeout=30)
    assert respects(v.status, truth), (claim.id, v.status, v.reason)
    assert v.status is not Status.UNKNOWN, v.reason  # these rows are all easy: decide them
    if v.status is Status.REFUTED:
        assert v.witness is not None and v.witness.rechecked


@pytest.mark.parametrize("encoding", ["auto", "naive"])
def test_both_node_encodings_agree_on_the_node_rows(encoding):
    for claim, truth in ROWS:
        if claim.kind != "node":
            continue
        v = check(claim, sizes=(3, 4), timeout=30, encoding=encoding)
        assert respects(v.status, truth) and v.status is not Status.UNKNOWN, (claim.id, encoding, v.reason)


def test_the_local_lemma_proves_a_true_node_row_and_never_a_false_one():
    for claim, truth in ROWS:
        if claim.kind != "node":
            continue
        v = check(all_sizes(claim, claim.id + ".all_m"), timeout=30)
        if truth:
            assert v.status is Status.PROVED and v.scope.startswith("all m >= 3, for functions that use node labels")
        else:
            assert v.status is not Status.PROVED
