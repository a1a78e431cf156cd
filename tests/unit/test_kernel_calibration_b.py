"""The kernel re-derives calibration's reduction (B): a ``calibration-b`` certificate states the claim
(loss matrix, link, noise, polyhedral surrogate) and the kernel writes every bounded-below and pair
query itself; each test has a tampered twin that the kernel rejects."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from symcal import Citation, calibrated
from symcal.kernel import check
from symcal.kernel.polyhedral import pair_queries_b, read_surrogate
from symcal.kernel.record import record_problem, statement_of
from symcal.kernel.terms import Unsupported

C = Citation("Mine 2026", "Notebook")
# the Weston-Watkins hinge for the 0-1 loss at n = 3: not calibrated over the whole simplex, calibrated
# where some label has probability above 1/2 (examples/calibration/weston_watkins_3_dominant.json)
WW = {"loss": [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
      "surrogate": {"dim": 3, "per_label": ["Max(0, 1 + u2 - u1) + Max(0, 1 + u3 - u1)",
                                            "Max(0, 1 + u1 - u2) + Max(0, 1 + u3 - u2)",
                                            "Max(0, 1 + u1 - u3) + Max(0, 1 + u2 - u3)"]},
      "link": "argmax", "noise": ["Max(p1, p2, p3) > 1/2"]}


def _claim():
    return calibrated("mine2026.ww_dominant", loss=WW["loss"], surrogate=WW["surrogate"], link=WW["link"],
                      noise=WW["noise"], cite=C)


@pytest.fixture(scope="module")
def decided():
    """The claim, its (B) verdict and the certificates built for it."""
    from symcal import certify
    from symcal.runner import Task, _decide

    claim = _claim()
    out, _ = _decide(Task(0, claim, None), 60, "naive")
    assert "(B) polyhedral" in out.scope
    return claim, out, certify.build(out, claim, None)


@pytest.fixture
def cert(decided) -> dict:
    return copy.deepcopy(decided[2][0][1])


def test_a_proved_b_claim_is_folded_into_one_calibration_b_certificate_the_kernel_accepts(decided):
    from symcal.certificate_files import reductions

    claim, out, built = decided
    assert [c["kind"] for _, c, _ in built] == ["calibration-b"]
    assert check(built[0][1]) == {"checked": True, "reason": ""}
    assert json.loads(json.dumps(built[0][1])) == built[0][1]  # plain JSON
    steps = reductions(claim, out, built)
    assert steps and all(s["checked_by_kernel"] for s in steps) and "reduction (B)" in steps[0]["note"]


def test_the_same_decision_without_the_folded_certificate_keeps_the_reduction_trusted(decided):
    from symcal.certificate_files import reductions

    claim, out, _ = decided
    pieces = [("pair (0, 1)", {"kind": "farkas", "smtlib": "", "tree": {}}, "")]
    assert not all(s["checked_by_kernel"] for s in reductions(claim, out, pieces))


def test_a_dropped_pair_is_rejected(cert):
    cert["pairs"] = cert["pairs"][1:]
    res = check(cert)
    assert not res["checked"] and "without a refuted query" in res["reason"]


def test_a_dropped_or_wrong_bounded_below_tree_is_rejected(cert):
    trees = cert["bounded"]
    cert["bounded"] = trees[1:]
    assert "one per label" in check(cert)["reason"]
    cert["bounded"] = trees[:2] + [{"farkas": []}]
    assert "psi_3 bounded below" in check(cert)["reason"]


def test_a_changed_loss_entry_is_rejected(cert):
    cert["loss"][0][1] = "3"  # predicting 2 under label 1 now costs 3
    assert not check(cert)["checked"]


def test_a_changed_surrogate_piece_is_rejected(cert):
    pieces = cert["surrogate"]["psi"][0]["max"][0][1]
    k = next(i for i, s in enumerate(pieces) if s.startswith("(+ 1 "))
    pieces[k] = pieces[k].replace("(+ 1 ", "(+ 2 ", 1)  # a hinge at margin 2 instead of 1
    assert not check(cert)["checked"]


def test_a_surrogate_not_bounded_below_is_rejected(cert):
    cert["surrogate"]["psi"][0]["affine"] = "(- u1)"  # psi_1 - u1: unbounded below along u1
    res = check(cert)
    assert not res["checked"] and "psi_1 bounded below" in res["reason"]


def test_a_changed_link_cell_is_rejected(cert):
    cert["link"] = {"kind": "argmin"}
    assert not check(cert)["checked"]
    cert["link"] = {"kind": "linear", "matrix": [["-1", "0", "0"], ["0", "-1", "0"], ["0", "0", "-2"]],
                    "offset": ["0", "0", "0"]}  # argmax with u3 counted twice
    assert not check(cert)["checked"]


def test_a_weakened_noise_set_is_rejected(cert):
    cert["noise"] = []  # the hinge is not calibrated over the whole simplex
    assert not check(cert)["checked"]
    cert["noise"] = ["(> p1 1/3)"]
    assert not check(cert)["checked"]


def test_an_empty_domain_or_a_point_outside_it_is_rejected(cert):
    cert["surrogate"]["domain"] = ["(>= u1 1)"]
    assert "point is not in the domain" in check(cert)["reason"]


def test_the_kernel_reads_only_convex_polyhedral_surrogates_and_cells():
    surr = {"vars": ["u1"], "domain": [], "psi": [{"affine": "0", "max": [["1", ["0", "(- 1 u1)"]]]}]}
    assert read_surrogate(surr).terms == [(((-1,), 1), ((0,), 0))]
    with pytest.raises(Unsupported, match="not convex"):
        read_surrogate({**surr, "psi": [{"affine": "0", "max": [["-1", ["0", "(- 1 u1)"]]]}]})
    with pytest.raises(Unsupported, match="not affine"):
        read_surrogate({**surr, "psi": [{"affine": "(* u1 u1)", "max": []}]})
    with pytest.raises(Unsupported, match="closed relation"):
        read_surrogate({**surr, "domain": ["(< u1 1)"]})
    base = {"loss": [["0", "1"], ["1", "0"]], "noise": [], "point": ["0"],
            "surrogate": {**surr, "psi": surr["psi"] * 2}}
    assert len(pair_queries_b({**base, "link": {"kind": "regions", "regions": [["(>= u1 0)"], ["(<= u1 0)"]]}},
                              [(0, 1)])[3]) == 1
    with pytest.raises(Unsupported, match="not affine"):  # a curved cell: the minimum over it need not be attained
        pair_queries_b({**base, "link": {"kind": "regions", "regions": [["(>= (* u1 u1) 1)"], ["(<= u1 1)"]]}}, [])
    with pytest.raises(ValueError, match="names the kernel's queries use"):
        pair_queries_b({**base, "link": {"kind": "argmax"}, "surrogate": {**base["surrogate"], "vars": ["p1"],
                        "psi": [{"affine": "p1", "max": []}] * 2}}, [])


def test_the_record_states_the_claim_and_a_missing_or_edited_statement_is_rejected(decided, tmp_path):
    from symcal.certificate_files import CarriedOutcome, record
    from symcal.certify import judge

    claim, out, built = decided
    judged = judge(out, built)
    fields = {f: getattr(judged, f) for f in judged.__dataclass_fields__}
    data = record(claim, None, CarriedOutcome(**fields, built=tuple(built)))
    assert data["reduction"] == "checked" and record_problem(data) is None
    assert data["statement"] == statement_of(data["certificate"]["body"])
    assert "pairs" not in data["statement"] and data["statement"]["surrogate"]["vars"] == ["u1", "u2", "u3"]
    for edit in ({"statement": None}, {"statement": {**data["statement"], "noise": []}}):
        assert record_problem({**data, **edit}) is not None
    # the folder check: accepted end to end; a changed loss entry in the body (and its statement) rejected
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.mkdir(), bad.mkdir()
    (good / "mine2026.ww_dominant.json").write_text(json.dumps(data))
    tampered = copy.deepcopy(data)
    for where in (tampered["certificate"]["body"], tampered["statement"]):
        where["loss"][0][1] = "3"
    (bad / "mine2026.ww_dominant.json").write_text(json.dumps(tampered))
    run = [sys.executable, "-m", "symcal.kernel"]
    res = subprocess.run(run + [str(good)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "1 accepted end to end" in res.stdout
    res = subprocess.run(run + [str(bad)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 1 and "1 rejected" in res.stdout
