"""The kernel re-derives calibration's reduction (A): a ``calibration-a`` certificate states the claim
(loss matrix, link, noise, quadratic surrogate) and the kernel writes every pair query itself; each
test has a tampered twin that the kernel rejects."""

from __future__ import annotations

import copy
import json

import pytest

from symcal.kernel import check
from symcal.kernel.calibration import cells, pair_query
from symcal.kernel.terms import Unsupported, read_one


def _with_trees(cert: dict) -> dict:
    """Every needed pair refuted by a tree the (untrusted) producer finds for the kernel's own query."""
    from symcal.certify import farkas_certificate
    from symcal.kernel.calibration import _lin

    loss = [[int(x) for x in row] for row in cert["loss"]]
    names = cert["quadratic"]["vars"]
    mins = cert["quadratic"]["minimisers"]
    p = [f"p{y + 1}" for y in range(len(loss))]
    ustar = {x: _lin([v[i] for v in mins], p) for i, x in enumerate(names)}
    cell = cells(cert["link"], names)
    noise = [read_one(r) for r in cert["noise"]]
    k = len(loss[0])
    cert["pairs"] = [[t, s, farkas_certificate(pair_query(loss, cell[t], ustar, noise, t, s))["tree"]]
                     for t in range(k) for s in range(k) if t != s and any(r[t] != r[s] for r in loss)]
    return cert


@pytest.fixture(scope="module")
def low_noise() -> dict:
    # psi_y(u) = |u - e_y|^2, argmax link, so u*(p) = p; L = [[0, 1], [3, 0]]: predicting 1 costs
    # 3 p2 - p1 more than 2, which is > 0 for p2 > 1/4 while p1 >= p2.  Calibrated over p2 <= 1/4 only.
    return _with_trees({
        "kind": "calibration-a", "loss": [["0", "1"], ["3", "0"]], "link": {"kind": "argmax"},
        "noise": ["(<= p2 1/4)"],
        "quadratic": {"kind": "quadratic", "vars": ["u1", "u2"], "domain": [],
                      "psi": ["(+ (^ (- u1 1) 2) (^ u2 2))", "(+ (^ u1 2) (^ (- u2 1) 2))"],
                      "minimisers": [["1", "0"], ["0", "1"]]}})


def test_a_calibration_claim_with_its_statement_and_every_pair_refuted_is_accepted(low_noise):
    assert check(low_noise) == {"checked": True, "reason": ""}
    assert json.loads(json.dumps(low_noise)) == low_noise  # plain JSON


def test_a_changed_loss_matrix_is_rejected(low_noise):
    cert = copy.deepcopy(low_noise)
    cert["loss"][1][0] = "5"  # now predicting 1 is worse already for p2 > 1/6: not calibrated over P
    res = check(cert)
    assert not res["checked"] and "pair (0, 1)" in res["reason"]


def test_a_dropped_pair_is_rejected(low_noise):
    cert = copy.deepcopy(low_noise)
    cert["pairs"] = cert["pairs"][1:]
    res = check(cert)
    assert not res["checked"] and "without a refuted query" in res["reason"]


def test_a_weakened_noise_set_is_rejected(low_noise):
    cert = copy.deepcopy(low_noise)
    cert["noise"] = ["(<= p2 1/2)"]  # the trees used p2 <= 1/4, which the kernel no longer asserts
    res = check(cert)
    assert not res["checked"]
    cert["noise"] = []
    assert not check(cert)["checked"]


def test_an_altered_minimiser_is_rejected(low_noise):
    cert = copy.deepcopy(low_noise)
    cert["quadratic"]["minimisers"][1] = ["0", "1/2"]
    res = check(cert)
    assert not res["checked"] and "quadratic: minimiser 2" in res["reason"]


def test_another_link_or_a_malformed_entry_is_rejected(low_noise):
    cert = copy.deepcopy(low_noise)
    cert["link"] = {"kind": "argmin"}
    assert not check(cert)["checked"]
    cert = copy.deepcopy(low_noise)
    cert["pairs"][0][0] = 2  # no prediction 2
    assert "malformed pair" in check(cert)["reason"]
    cert = copy.deepcopy(low_noise)
    cert["noise"] = ["(<= q 1/4)"]
    assert "other than" in check(cert)["reason"]


def test_the_kernel_writes_each_links_cells_itself():
    names = ["u1", "u2"]
    assert cells({"kind": "argmax"}, names) == [[[">=", "u1", "u2"]], [[">=", "u2", "u1"]]]
    assert cells({"kind": "sort-desc", "permutations": [[2, 1], [1, 2]]}, names) == [[[">=", "u2", "u1"]],
                                                                                  [[">=", "u1", "u2"]]]
    assert len(cells({"kind": "linear", "matrix": [[1, 0], [0, 1], [1, 1]], "offset": [0, 0, 0]}, names)[2]) == 2
    assert cells({"kind": "regions", "regions": [["(<= u1 0)"], ["(>= u1 0)"]]}, names)[1] == [[">=", "u1", 0]]


def test_links_that_are_not_closed_or_complete_are_rejected():
    names = ["u1", "u2"]
    with pytest.raises(Unsupported, match="every permutation"):
        cells({"kind": "sort-desc", "permutations": [[1, 2]]}, names)
    with pytest.raises(Unsupported, match="not a closed relation"):
        cells({"kind": "regions", "regions": [["(< u1 0)"], ["(>= u1 0)"]]}, names)
    with pytest.raises(Unsupported, match="other than"):
        cells({"kind": "regions", "regions": [["(<= w 0)"]]}, names)
    with pytest.raises(Unsupported):  # an if-then-else is not continuous: its region need not be closed
        cells({"kind": "regions", "regions": [["(<= (ite (> u1 0) 1 0) 0)"]]}, names)
    with pytest.raises(Unsupported, match="unknown link kind"):
        cells({"kind": "sort"}, names)


@pytest.mark.parametrize("claim_id, link", [
    ("ramaswamy2013.theorem3.calibration.whole_simplex.generic_4x3", "linear"),
    ("ramaswamy2013.lemma8.p_reinforce.r3", "sort-desc"),  # its noise has Max: an if-then-else in the query
])
def test_a_library_claim_decided_by_a_is_checked_end_to_end_and_its_pieces_alone_are_not(claim_id, link):
    from symcal import certify
    from symcal.certificate_files import reductions, statement
    from symcal.library import load_bundled
    from symcal.runner import Task, _decide

    claim = next(c for c in load_bundled(["ramaswamy2013"]) if c.id == claim_id)
    out, _ = _decide(Task(0, claim, None), 60, "naive")
    built = certify.build(out, claim, None)
    assert [cert["kind"] for _, cert, _ in built] == ["calibration-a"]
    assert check(built[0][1])["checked"]
    assert all(step["checked_by_kernel"] for step in reductions(claim, out, built))
    assert statement([["evidence", built[0][1]]])["link"]["kind"] == link
    # the same decision without the folded certificate: the engine's theorem stays trusted
    pieces = [("(A) quadratic, strongly convex on C", built[0][1]["quadratic"], "")]
    assert not all(step["checked_by_kernel"] for step in reductions(claim, out, pieces))
