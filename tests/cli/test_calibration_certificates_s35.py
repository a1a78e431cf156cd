"""``symcal calibration FILE --certify`` / ``--certificates DIR``: a user's own calibration question gets
the kernel certificate a library claim gets (``symcal check --certify --certificates DIR``), and
``python -m symcal.kernel DIR`` re-checks it standalone.

Methods (A) and (B) have kernel kinds (``calibration-a``, ``calibration-b``) for proofs and refutations;
(S), (Q) and parametric answers say ``no certificate: ...``.  The module's folder is written once for
every file of ``examples/calibration/`` without ``"parameters"`` (13 files: 2 (A) proofs, 6 (B) proofs,
3 (B) refutations, 2 (S) proofs)."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from symcal.cli import main
from symcal.kernel.record import statement_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "calibration"
PARAMETRIC = {"cost_sensitive_hinge_c", "ordinal_threshold_tau", "squared_threshold_tau",
              "weighted_hinge_threshold_tau", "weston_watkins_3_dominance_tau"}
SMOOTH = {"logistic_3", "logistic_binary"}  # proved by (S): no kernel certificate kind
QUADRATIC = {"squared_3", "regret_cost_sensitive_squared"}  # proved by (A)
REFUTED = {"weston_watkins_3", "lovasz_hinge_2", "topk_hinge_alpha_4_2"}  # refuted by (B)
FILES = sorted(p.stem for p in EXAMPLES.glob("*.json") if p.stem not in PARAMETRIC)
CHECK_KEYS = {"kind", "checked", "reason", "kernel_checked", "pieces"}  # symcal check --json --certify's field


def name(stem: str) -> str:
    return f"calibration0000.{stem}.json"


def kernel(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symcal.kernel", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    """Every non-parametric example decided with ``--certificates DIR --json``: the folder and each JSON."""
    folder = tmp_path_factory.mktemp("calibration_certificates")
    reports = {}
    for stem in FILES:
        r = subprocess.run([sys.executable, "-m", "symcal", "calibration", str(EXAMPLES / f"{stem}.json"), "--json",
                            "--no-cross-check", "--certificates", str(folder)],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (stem, r.stdout, r.stderr)
        reports[stem] = json.loads(r.stdout)  # stdout stays one JSON object
    return folder, reports


@pytest.fixture
def folder(written, tmp_path) -> Path:
    """A copy of the written folder a test may tamper with."""
    return Path(shutil.copytree(written[0], tmp_path / "certs"))


def load(folder: Path, stem: str) -> dict:
    return json.loads((folder / name(stem)).read_text())


def save(folder: Path, stem: str, data: dict) -> None:
    (folder / name(stem)).write_text(json.dumps(data))


# ------------------------------------------------------------------------------- end to end


def test_every_example_gets_one_file_named_after_the_question(written):
    folder, _ = written
    assert sorted(p.name for p in folder.iterdir()) == sorted(name(s) for s in FILES)
    assert len(FILES) == 13


def test_the_standalone_kernel_accepts_every_a_and_b_verdict_end_to_end_and_rejects_nothing(written):
    r = kernel(str(written[0]), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    results = {row["file"]: row["result"] for row in json.loads(r.stdout)["results"]}
    assert results == {name(s): "uncertified" if s in SMOOTH else "accepted" for s in FILES}
    line = kernel(str(written[0])).stdout.splitlines()[0]
    assert line == ("symcal-kernel: 13 files: 11 accepted end to end, 0 accepted with a trusted reduction, 0 not "
                    "checkable here (no python-flint), 2 without a certificate, 0 rejected")


def test_the_json_certificate_field_has_check_s_shape_and_names_the_file(written):
    folder, reports = written
    for stem, rep in reports.items():
        cert = rep["certificate"]
        assert set(cert) == CHECK_KEYS, stem
        assert rep["certificate_file"] == str(folder / name(stem))
        if stem in SMOOTH:
            assert cert["checked"] is False and cert["kind"] == "none"
            assert cert["reason"].startswith("no certificate: method (S) (smooth convex) has no kernel certificate")
        else:
            kind = "calibration-a" if stem in QUADRATIC else "calibration-b"
            assert cert == {"kind": kind, "checked": True, "reason": None, "kernel_checked": 1, "pieces": 1}, stem
            assert rep["status"] == ("refuted" if stem in REFUTED else "proved")


def test_a_proof_file_states_the_claim_and_a_reduction_the_kernel_rederives(written):
    data = load(written[0], "squared_3")
    assert data["claim"] == "calibration0000.squared_3" and data["size"] is None and data["status"] == "proved"
    assert data["certificate"]["body"]["kind"] == "calibration-a" and data["reduction"] == "checked"
    assert data["statement"] == statement_of(data["certificate"]["body"])
    assert data["certificate"]["body"]["loss"] == [["0", "1", "1"], ["1", "0", "1"], ["1", "1", "0"]]


def test_a_refutation_file_carries_the_counterexample_and_no_reduction(written):
    folder, reports = written
    data = load(folder, "weston_watkins_3")
    ref = data["certificate"]["body"]["refutation"]
    assert data["status"] == "refuted" and data["reduction"] == "none"
    assert ref["p"] == reports["weston_watkins_3"]["counterexample"]["p"]


# ------------------------------------------------------------------------------- tampering


def test_a_tampered_refutation_and_a_tampered_proof_are_rejected(folder):
    ww = load(folder, "weston_watkins_3")
    ww["certificate"]["body"]["refutation"]["p"] = ["1/3", "1/3", "1/3"]  # a point where it does not fail
    ww["statement"] = statement_of(ww["certificate"]["body"])
    save(folder, "weston_watkins_3", ww)
    sq = load(folder, "squared_3")
    sq["certificate"]["body"]["loss"][1][0] = "1/2"  # another loss: the pair trees no longer prove it
    sq["statement"] = statement_of(sq["certificate"]["body"])
    save(folder, "squared_3", sq)
    llw = load(folder, "lee_lin_wahba_3")
    llw["status"] = "refuted"  # a record that says more than its certificate
    save(folder, "lee_lin_wahba_3", llw)
    r = kernel(str(folder), "--json")
    assert r.returncode == 1
    results = {row["file"]: row for row in json.loads(r.stdout)["results"]}
    rejected = {f for f, row in results.items() if row["result"] == "rejected"}
    assert rejected == {name("weston_watkins_3"), name("squared_3"), name("lee_lin_wahba_3")}
    assert "the kernel rejects the certificate" in results[name("weston_watkins_3")]["reason"]
    assert "the kernel rejects the certificate" in results[name("squared_3")]["reason"]


def test_a_certificate_the_kernel_rejects_makes_the_verdict_unknown_with_exit_1(tmp_path, capsys, monkeypatch):
    from symcal import certify

    real = certify.build

    def tampered(out, claim, m, seconds=certify.SECONDS, part_seconds=5.0):
        built = real(out, claim, m, seconds, part_seconds)
        built[0][1]["refutation"]["p"] = ["1/3", "1/3", "1/3"]  # a producer bug, caught by the kernel
        return built

    monkeypatch.setattr(certify, "build", tampered)  # inherited by the forked certificate child
    out = tmp_path / "certs"
    assert main(["calibration", str(EXAMPLES / "weston_watkins_3.json"), "--json", "--no-cross-check",
                 "--certificates", str(out)]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert rep["status"] == "unknown" and rep["reason"].startswith(certify.REJECTED)
    assert rep["certificate"]["checked"] is False
    r = kernel(str(out))
    assert r.returncode == 1 and "1 rejected" in r.stdout.splitlines()[0]


# ------------------------------------------------------------------------------- text, methods, budgets


def test_the_text_output_has_a_certificate_line_and_the_file(tmp_path, capsys):
    out = tmp_path / "certs"
    assert main(["calibration", str(EXAMPLES / "lee_lin_wahba_3.json"), "--no-cross-check",
                 "--certificates", str(out)]) == 0
    text = capsys.readouterr().out
    assert "certificate: calibration-b, checked by symcal's kernel (1 of 1 piece)" in text
    assert f"certificate file: {out / name('lee_lin_wahba_3')} (re-check: python -m symcal.kernel {out})" in text


def test_certify_without_a_folder_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["calibration", str(EXAMPLES / "squared_3.json"), "--certify", "--json", "--no-cross-check"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["certificate"]["kind"] == "calibration-a" and rep["certificate"]["checked"] is True
    assert "certificate_file" not in rep and list(tmp_path.iterdir()) == []


SMOOTH_REFUTED = {"loss": [[0, 1], [1, 0]], "surrogate": {"dim": 1, "per_label": ["log(1 + exp(-u1))",
                                                                                  "log(1 + exp(u1))"]},
                  "link": {"linear": [[-1], [1]], "offset": [1, -1]}}
QUADRATIC_FLOOR = {"loss": [[0, 1], [1, 0]], "surrogate": {"dim": 1, "domain": ["u1 >= 0"],
                                                           "per_label": ["(u1 - 1)**2", "(u1 + 1)**2"]},
                   "link": {"linear": [[-1], [1]]}}


@pytest.mark.parametrize("problem, method", [(SMOOTH_REFUTED, "(S) (smooth convex)"),
                                             (QUADRATIC_FLOOR, "(Q) (quadratic over a polyhedral domain)")])
def test_refutations_by_s_and_q_say_no_certificate_and_the_file_says_why(tmp_path, capsys, problem, method):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(problem))
    out = tmp_path / "certs"
    assert main(["calibration", str(path), "--json", "--no-cross-check", "--certificates", str(out)]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["status"] == "refuted" and rep["counterexample"]["rechecked"] is True
    assert rep["certificate"]["checked"] is False
    assert rep["certificate"]["reason"].startswith(f"no certificate: method {method} has no kernel certificate kind")
    data = json.loads((out / name("mine")).read_text())
    assert data["certificate"]["body"] is None and data["certificate"]["missing"][0][1].startswith("no certificate")
    r = kernel(str(out))
    assert r.returncode == 0 and "1 without a certificate, 0 rejected" in r.stdout


def test_an_unknown_verdict_gets_no_file_and_says_so(tmp_path, capsys):
    path = tmp_path / "nonconvex.json"
    path.write_text(json.dumps({"loss": [[0, 1], [1, 0]], "link": {"linear": [[-1], [1]]},
                                "surrogate": {"dim": 1, "per_label": ["-u1**2 + Max(0, 1 - u1)", "Max(0, 1 + u1)"]}}))
    out = tmp_path / "certs"
    assert main(["calibration", str(path), "--json", "--no-cross-check", "--certificates", str(out)]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert rep["status"] == "unknown" and rep["certificate_file"] is None
    assert rep["certificate"]["reason"] == "no decisive verdict to certify" and list(out.iterdir()) == []


def test_a_name_that_is_a_claim_id_is_kept_and_a_python_link_file_is_certified(tmp_path, capsys):
    (tmp_path / "regions.py").write_text('REGIONS = [["u1 >= 0"], ["u1 <= 0"]]\n')
    path = tmp_path / "hinge.json"
    path.write_text(json.dumps({"loss": [[0, 1], [1, 0]], "link": "regions.py", "name": "mine2026.hinge",
                                "surrogate": {"dim": 1, "per_label": ["Max(0, 1 - u1)", "Max(0, 1 + u1)"]}}))
    out = tmp_path / "certs"
    assert main(["calibration", str(path), "--no-cross-check", "--certificates", str(out)]) == 0
    capsys.readouterr()
    assert [p.name for p in out.iterdir()] == ["mine2026.hinge.json"]
    r = kernel(str(out))
    assert r.returncode == 0 and "1 accepted end to end" in r.stdout


def test_the_certificate_budget_running_out_leaves_the_verdict_standing(tmp_path, capsys, monkeypatch):
    from symcal import certify

    monkeypatch.setattr(certify, "budget", lambda out, seconds=certify.SECONDS: 0.001)
    assert main(["calibration", str(EXAMPLES / "weston_watkins_3.json"), "--json", "--no-cross-check",
                 "--certify"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["status"] == "refuted" and rep["certificate"]["checked"] is False
    assert rep["certificate"]["reason"]


def test_question_ids_are_stable_and_valid_claim_ids():
    from symcal.certificate_files import question_id
    from symcal.claims.core import ID_PATTERN

    assert question_id("weston_watkins_3") == "calibration0000.weston_watkins_3"
    assert question_id("mine2026.llw") == "mine2026.llw"
    assert question_id("my hinge (v2)!") == "calibration0000.my_hinge_v2"
    assert question_id("...") == "calibration0000.question"
    long = question_id("x" * 500)
    assert ID_PATTERN.fullmatch(long) and len(long) <= 200 and question_id("x" * 500) == long


# ------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("extra, message", [
    (["--region", "--certify"], "--certify='with --region': expected --certify without --region"),
    (["--region", "--certificates", "{dir}"], "--certificates='with --region': expected --certificates without"),
    (["--certificates", "{file}"], "expected a folder symcal can create and write"),
    (["--certificates", "{file}/sub"], "expected a folder symcal can create and write"),
    (["--certificates", ""], "--certificates='': expected a folder name"),
])
def test_bad_folders_and_combinations_are_one_line_with_exit_2(tmp_path, capsys, extra, message):
    afile = tmp_path / "afile"
    afile.write_text("x")
    args = [a.format(dir=tmp_path / "new", file=afile) for a in extra]
    assert main(["calibration", str(EXAMPLES / "weston_watkins_3.json"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("symcal: error: ") and "\n" not in err and message in err
    assert not (tmp_path / "new").exists()  # refused before anything was created or decided


def test_a_parametric_file_says_no_certificate_and_refuses_a_folder(tmp_path, capsys):
    path = str(EXAMPLES / "squared_threshold_tau.json")
    assert main(["calibration", path, "--certificates", str(tmp_path / "new")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and 'expected a file without "parameters"' in err and not (tmp_path / "new").exists()
    assert main(["calibration", path, "--certify", "--json", "--no-cross-check"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert set(rep["certificate"]) == CHECK_KEYS and rep["certificate"]["checked"] is False
    assert rep["certificate"]["reason"].startswith("no certificate: a parametric answer")
