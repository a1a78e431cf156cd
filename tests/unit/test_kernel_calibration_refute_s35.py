"""The kernel checks a refuted calibration claim end to end: a ``calibration-b`` (polyhedral surrogate) or
``calibration-a`` (quadratic surrogate) certificate with a ``refutation`` states the claim (loss, link, noise,
surrogate) and the failure -- p in P, a minimiser u of risk_p (for (B) with exact KKT multipliers; for (A)
computed by the kernel), a point c, the prediction -- and the kernel re-derives every inequality; each accepted
certificate has tampered twins that the kernel rejects."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from symcal import Citation, calibrated
from symcal.kernel import check
from symcal.kernel.record import record_problem

C = Citation("Mine 2026", "Notebook")
ZERO_ONE = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
# the Weston-Watkins hinge for the 0-1 loss at n = 3: not calibrated over the whole simplex
WW = ["Max(0, 1 + u2 - u1) + Max(0, 1 + u3 - u1)", "Max(0, 1 + u1 - u2) + Max(0, 1 + u3 - u2)",
      "Max(0, 1 + u1 - u3) + Max(0, 1 + u2 - u3)"]
# the squared loss u -> |u - e_y|^2 (minimiser u*(p) = p) with argmax, for the absolute (ordinal) loss:
# argmax p is not the median, so (A) refutes it
SQUARED = [" + ".join(f"(u{j} - {int(j == y)})**2" for j in (1, 2, 3)) for y in (1, 2, 3)]
ABSOLUTE = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]


def _decided(claim):
    from symcal import certify
    from symcal.runner import Task, _decide

    out, _ = _decide(Task(0, claim, None), 60, "naive")
    assert out.status.value == "refuted", out
    return claim, out, certify.build(out, claim, None)


@pytest.fixture(scope="module")
def ww():
    return _decided(calibrated("mine2026.ww_whole_simplex", loss=ZERO_ONE, surrogate={"dim": 3, "per_label": WW},
                               link="argmax", cite=C))


@pytest.fixture(scope="module")
def ww_domain():
    """The same surrogate on a domain with an equality and inequalities (multipliers nu and eta)."""
    return _decided(calibrated("mine2026.ww_domain", loss=ZERO_ONE, link="argmax", cite=C, surrogate={
        "dim": 3, "per_label": WW, "domain": ["2*u1 + 2*u2 + 2*u3 = 0", "u1 <= 0", "-u2 >= 0"]}))


@pytest.fixture(scope="module")
def squared():
    return _decided(calibrated("mine2026.squared_absolute", loss=ABSOLUTE, surrogate={"dim": 3, "per_label": SQUARED},
                               link="argmax", cite=C))


def _cert(decided) -> dict:
    built = decided[2]
    assert [c["kind"] if c else why for _, c, why in built] in (["calibration-b"], ["calibration-a"]), built
    return copy.deepcopy(built[0][1])


def _rejected(cert: dict) -> str:
    res = check(cert)
    assert not res["checked"], "a tampered certificate was accepted"
    return res["reason"]


# ------------------------------------------------------------------------------------ (B) accepted


def test_a_refuted_b_claim_gets_a_calibration_b_refutation_the_kernel_accepts(ww):
    from symcal.certificate_files import reductions

    claim, out, built = ww
    cert = _cert(ww)
    assert "(B) polyhedral" in out.scope
    assert set(cert["refutation"]) == {"p", "u", "mu", "nu", "eta", "c", "pred"}
    assert "pairs" not in cert and "bounded" not in cert
    assert check(cert) == {"checked": True, "reason": ""}
    assert json.loads(json.dumps(cert)) == cert  # plain JSON, exact numbers as strings
    assert reductions(claim, out, built) == []  # the kernel checks the definition's failure itself: no step


def test_a_refutation_with_equality_and_inequality_multipliers_is_accepted(ww_domain):
    cert = _cert(ww_domain)
    ref = cert["refutation"]
    assert len(ref["nu"]) == 1 and len(ref["eta"]) == 2
    assert any(Fraction(x) != 0 for x in ref["nu"] + ref["eta"])  # the domain's multipliers are used
    assert check(cert) == {"checked": True, "reason": ""}


# ------------------------------------------------------------------------------------ (B) tampered


def _bump(xs: list, k: int, by: Fraction) -> None:
    xs[k] = str(Fraction(xs[k]) + by)


def _first_nonzero_mu(ref: dict) -> tuple[int, int]:
    return next((T, j) for T, row in enumerate(ref["mu"]) for j, x in enumerate(row) if Fraction(x))


def _optimal_prediction(cert: dict) -> int:
    p = [Fraction(x) for x in cert["refutation"]["p"]]
    risk = [sum(py * Fraction(row[t]) for py, row in zip(p, cert["loss"], strict=True))
            for t in range(len(cert["loss"][0]))]
    return risk.index(min(risk))


def _tamper_p(c: dict) -> None:  # another point of the simplex
    p = c["refutation"]["p"]
    _bump(p, 0, Fraction(1, 100))
    _bump(p, 1 if Fraction(p[1]) >= Fraction(1, 100) else 2, Fraction(-1, 100))


def _tamper_mu(c: dict) -> None:
    T, j = _first_nonzero_mu(c["refutation"])
    _bump(c["refutation"]["mu"][T], j, Fraction(1, 5))


def _tamper_mu_moved(c: dict) -> None:  # the same sum, on another piece
    T, j = _first_nonzero_mu(c["refutation"])
    row = c["refutation"]["mu"][T]
    row[j], row[1 - j] = row[1 - j], row[j]


def _tamper_loss(c: dict) -> None:  # the predicted column made the cheapest
    t = c["refutation"]["pred"]
    for row in c["loss"]:
        row[t] = "-1"


def _tamper_piece(c: dict) -> None:  # one piece of psi_1 doubled: u no longer stationary
    piece = c["surrogate"]["psi"][0]["max"][0][1]
    piece[0] = f"(* 2 {piece[0]})"


def _tamper_weight(c: dict) -> None:
    c["surrogate"]["psi"][0]["max"][0][0] = "3"


def _tamper_pred(c: dict) -> None:  # claims the failure at an optimal prediction
    c["refutation"]["pred"] = _optimal_prediction(c)


def _tamper_c(c: dict) -> None:  # a point inside an optimal prediction's cell: the sequence never reaches t
    t = _optimal_prediction(c)
    c["refutation"]["c"] = ["1" if i == t else "-1" for i in range(len(c["refutation"]["c"]))]


def _tamper_both(c: dict) -> None:
    c["pairs"] = []


TAMPER_B = {
    "p moved": _tamper_p,
    "p outside the simplex": lambda c: _bump(c["refutation"]["p"], 0, Fraction(1)),
    "u moved": lambda c: _bump(c["refutation"]["u"], 0, Fraction(1, 7)),
    "a multiplier changed": _tamper_mu,
    "a multiplier moved to an inactive piece": _tamper_mu_moved,
    "a loss entry changed": _tamper_loss,
    "a piece changed": _tamper_piece,
    "a weight changed": _tamper_weight,
    "the failure claimed at an optimal prediction": _tamper_pred,
    "c in the optimal cell": _tamper_c,
    "a proof and a refutation at once": _tamper_both,
    "mu of the wrong shape": lambda c: c["refutation"]["mu"].pop(),
    "a noise relation p excludes": lambda c: c.__setitem__("noise", ["(> p1 1)"]),
}


@pytest.mark.parametrize("what", sorted(TAMPER_B))
def test_a_tampered_b_refutation_is_rejected(ww, what):
    cert = _cert(ww)
    TAMPER_B[what](cert)
    _rejected(cert)


@pytest.mark.parametrize("what", ["nu", "eta", "eta negative"])
def test_a_tampered_domain_multiplier_is_rejected(ww_domain, what):
    cert = _cert(ww_domain)
    ref = cert["refutation"]
    if what == "eta negative":
        ref["eta"] = [str(-abs(Fraction(x)) - 1) for x in ref["eta"]]
    else:
        _bump(ref[what], 0, Fraction(1, 2))
    _rejected(cert)


def test_a_point_c_outside_the_domain_is_rejected(ww_domain):
    cert = _cert(ww_domain)
    cert["refutation"]["c"] = ["1", "1", "-2"]  # u1 <= 0 fails
    assert "domain" in _rejected(cert)


# ------------------------------------------------------------------------------------ (A)


def test_a_refuted_a_claim_gets_a_calibration_a_refutation_the_kernel_accepts(squared):
    claim, out, _ = squared
    cert = _cert(squared)
    assert "(A) quadratic" in out.scope
    assert cert["kind"] == "calibration-a" and "pairs" not in cert
    assert check(cert) == {"checked": True, "reason": ""}


TAMPER_A = {
    "p moved": _tamper_p,
    "u not the minimiser": lambda c: _bump(c["refutation"]["u"], 0, Fraction(1, 7)),
    "a minimiser changed": lambda c: _bump(c["quadratic"]["minimisers"][0], 0, Fraction(1, 3)),
    "a loss entry changed": _tamper_loss,
    "the failure claimed at an optimal prediction": _tamper_pred,
    # u*(p) = p is strictly inside the cell of 1, which is optimal there (a tie with 2): no failure
    "p where the prediction is optimal": lambda c: c["refutation"].update(p=["1/2", "1/4", "1/4"],
                                                                          u=["1/2", "1/4", "1/4"], pred=0),
    "a surrogate term changed": lambda c: c["quadratic"]["psi"].__setitem__(0, f"(+ {c['quadratic']['psi'][0]} u1)"),
}


@pytest.mark.parametrize("what", sorted(TAMPER_A))
def test_a_tampered_a_refutation_is_rejected(squared, what):
    cert = _cert(squared)
    TAMPER_A[what](cert)
    _rejected(cert)


# ------------------------------------------------------------------------------------ files


def _carried(decided):
    from symcal.certificate_files import CarriedOutcome
    from symcal.certify import judge

    _, out, built = decided
    judged = judge(out, built)
    return CarriedOutcome(**{f: getattr(judged, f) for f in judged.__dataclass_fields__}, built=tuple(built))


def _record(decided) -> dict:
    from symcal.certificate_files import record

    return record(decided[0], None, _carried(decided))


def test_a_file_that_calls_a_refutation_proved_is_rejected(ww):
    data = _record(ww)
    assert data["status"] == "refuted" and data["reduction"] == "none" and data["certificate"]["checked"]
    assert record_problem(data) is None
    forged = copy.deepcopy(data)
    forged["status"] = "proved"
    assert "refutes calibration" in record_problem(forged)
    wrapped = copy.deepcopy(forged)
    body = wrapped["certificate"]["body"]
    wrapped["certificate"]["body"] = {"kind": "all", "parts": [["evidence", body]]}
    wrapped["certificate"]["kind"] = "calibration-b"
    wrapped["statement"] = {"kind": "all", "parts": [["evidence", data["statement"]]]}
    assert "refutation" in record_problem(wrapped)


@pytest.fixture(scope="module")
def hinge():
    from symcal.library import load_bundled

    claim = next(c for c in load_bundled() if c.id == "duchi2010.theorem11.calibration.hinge")
    return _decided(claim)


def test_the_library_hinge_refutation_is_accepted_end_to_end_by_the_standalone_kernel(hinge, tmp_path):
    from symcal.certificate_files import write

    claim = hinge[0]
    cert = _cert(hinge)
    assert cert["kind"] == "calibration-b" and cert["link"]["kind"] == "sort-desc"
    assert check(cert) == {"checked": True, "reason": ""}
    data = _record(hinge)
    assert data["statement"] == {k: cert[k] for k in ("kind", "loss", "predictions", "link", "noise", "surrogate")}
    assert data["reduction"] == "none" and record_problem(data) is None
    write(tmp_path, claim, None, _carried(hinge))
    proc = subprocess.run([sys.executable, "-m", "symcal.kernel", str(tmp_path), "--json"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["accepted"] == 1 and report["results"][0]["status"] == "refuted", report
    # the same file with the hinge's p moved off the witness: rejected by the standalone kernel
    path = tmp_path / f"{claim.id}.json"
    forged = json.loads(path.read_text())
    _tamper_p(forged["certificate"]["body"])
    path.write_text(json.dumps(forged))
    proc = subprocess.run([sys.executable, "-m", "symcal.kernel", str(tmp_path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1 and "1 rejected" in proc.stdout, proc.stdout
