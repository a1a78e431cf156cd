"""The kernel stands alone: ``symcal check --certificates DIR`` writes one certificate file per decision,
and ``python -m symcal.kernel DIR`` re-checks the folder in a process that imports no sympy and no solver."""

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from symcal.kernel.record import statement_of

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("sympy", "z3", "cvc5", "numpy", "scipy", "symcal.backends")
# two identities and Lemma 14 at m = 3 (a node certificate: the kernel re-derives node symmetry) are
# checked end to end; Lemma 14 for all m rests on the local lemma, which the kernel does not re-check;
# the refuted converse's witness is re-checked by symcal's exact evaluator, not by the kernel
CLAIMS = ("duchi2010.section2_2.eq11", "duchi2010.theorem12.w_form", "duchi2010.lemma14", "duchi2010.lemma14.all_m",
          "duchi2010.lemma14.converse")
FILES = ["duchi2010.lemma14.all_m.json", "duchi2010.lemma14.converse@m3.json", "duchi2010.lemma14@m3.json",
         "duchi2010.section2_2.eq11.json", "duchi2010.theorem12.w_form.json"]
LEMMA, CONVERSE, NODE, EQ11, W_FORM = FILES
SUMMARY = ("symcal-kernel: 5 files: 3 accepted end to end, 1 accepted with a trusted reduction, 0 not checkable "
           "here (no python-flint), 1 without a certificate, 0 rejected")


def run(*args: str, python: str = sys.executable, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([python, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)


def kernel(*args: str, **kw) -> subprocess.CompletedProcess:
    return run("-m", "symcal.kernel", *args, **kw)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("certificates")
    r = run("-m", "symcal", "check", *CLAIMS, "--size", "3", "--jobs", "2", "--no-cross-check",
            "--certificates", str(folder), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"wrote 5 certificate files to {folder}" in r.stderr
    return folder


@pytest.fixture
def folder(written, tmp_path) -> Path:
    """A copy of the written folder a test may tamper with."""
    return Path(shutil.copytree(written, tmp_path / "certs"))


def load(folder: Path, name: str) -> dict:
    return json.loads((folder / name).read_text())


def save(folder: Path, name: str, data: dict) -> None:
    (folder / name).write_text(json.dumps(data))


# ------------------------------------------------------------------------------- writing


def test_check_writes_one_file_per_decision_named_by_claim_and_size(written):
    assert sorted(p.name for p in written.iterdir()) == FILES
    node = load(written, NODE)
    assert node["format"] == "symcal-certificate 1" and node["claim"] == "duchi2010.lemma14" and node["size"] == 3
    assert node["status"] == "proved" and node["scope"] == "m = 3" and "low noise" in node["text"]
    assert node["certificate"]["checked"] is True and node["certificate"]["kind"] == "node"
    assert node["statement"]["m"] == 3 and node["statement"]["hypotheses"]  # the node claim's own formulas
    assert node["reduction"] == "checked"
    assert any(s["kind"].startswith("node symmetry") and s["checked_by_kernel"] for s in node["reductions"])


def test_a_reduction_the_kernel_does_not_recheck_is_recorded_as_trusted(written):
    lemma = load(written, LEMMA)
    assert lemma["size"] is None and lemma["scope"].startswith("all m >= 3") and lemma["reduction"] == "trusted"
    assert lemma["certificate"]["checked"] is True
    assert lemma["statement"] == statement_of(lemma["certificate"]["body"])  # what the body states, no proof
    assert [s["kind"] for s in lemma["reductions"] if not s["checked_by_kernel"]][0].startswith("local lemma")


def test_an_identity_file_covers_the_query_directly_with_exact_numbers_as_strings(written):
    ident = load(written, EQ11)
    assert ident["size"] is None and ident["reduction"] == "none" and ident["reductions"] == []
    assert ident["statement"]["pairs"] == ident["certificate"]["body"]["pairs"]
    body = ident["certificate"]["body"]
    assert body["kind"] == "identity" and body["pairs"] and ident["certificate"]["missing"] == []
    assert not re.search(r"\d\.\d|\de-?\d", json.dumps(body))  # exact numbers, as strings or in s-expressions


def test_a_verdict_without_a_certificate_gets_a_file_that_says_why(written):
    converse = load(written, CONVERSE)
    assert converse["status"] == "refuted" and converse["certificate"]["body"] is None
    assert converse["certificate"]["checked"] is False and converse["certificate"]["missing"][0][1]


def test_certificates_are_refused_with_a_cluster_and_an_unwritable_folder(tmp_path):
    r = run("-m", "symcal", "check", "duchi2010.section2_2.eq11", "--certificates", str(tmp_path / "c"),
            "--cluster", "local")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "--certificates" in r.stderr
    (tmp_path / "file").write_text("")
    r = run("-m", "symcal", "check", "duchi2010.section2_2.eq11", "--certificates", str(tmp_path / "file" / "c"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "certificates" in r.stderr


def test_the_python_api_writes_certificates_too_and_refuses_them_with_a_cluster(tmp_path):
    import sympy

    from symcal import Citation, InvalidInput, check, check_many, identity

    x, y = sympy.symbols("x y", real=True)
    square = identity("mine2024.square", (x + y) ** 2, x**2 + 2 * x * y + y**2, cite=Citation("test", "files"))
    v = check(square, isolate=False, certificates=tmp_path)
    assert v.certificate.checked and [p.name for p in tmp_path.iterdir()] == ["mine2024.square.json"]
    assert kernel(str(tmp_path)).stdout.startswith("symcal-kernel: 1 files: 1 accepted end to end,")
    with pytest.raises(InvalidInput, match="certificates="):
        check_many([square], isolate=False, certificates=tmp_path / "x", cluster="local")


# ------------------------------------------------------------------------------- the kernel's CLI


def test_the_kernel_accepts_the_folder_with_one_summary_line(written):
    r = kernel(str(written))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [SUMMARY]


def test_the_kernel_json_gives_one_result_per_file(written):
    r = kernel(str(written), "--json")
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["summary"] == SUMMARY and out["files"] == 5 and out["rejected"] == 0
    by = {row["file"]: row["result"] for row in out["results"]}
    assert by == {LEMMA: "trusted", CONVERSE: "uncertified", NODE: "accepted", EQ11: "accepted", W_FORM: "accepted"}


def _first_farkas_leaf(tree):
    if isinstance(tree, dict):
        if len(tree.get("farkas") or []) >= 2:
            return tree["farkas"]
        for v in tree.values():
            found = _first_farkas_leaf(v)
            if found is not None:
                return found
    elif isinstance(tree, list):
        for v in tree:
            found = _first_farkas_leaf(v)
            if found is not None:
                return found
    return None


def test_a_tampered_farkas_multiplier_is_rejected_and_the_file_named(folder):
    data = load(folder, NODE)
    leaf = _first_farkas_leaf(data["certificate"]["body"])
    leaf[0][1] = "7"  # one multiplier changed: the combination no longer cancels
    save(folder, NODE, data)
    r = kernel(str(folder))
    assert r.returncode == 1
    assert r.stdout.splitlines()[0] == SUMMARY.replace("3 accepted", "2 accepted").replace("0 rejected", "1 rejected")
    assert r.stdout.splitlines()[1].startswith(f"  REJECTED {NODE}: the kernel rejects the certificate")


def test_a_tampered_identity_pair_is_rejected(folder):
    data = load(folder, EQ11)
    lhs, rhs = data["certificate"]["body"]["pairs"][0]
    data["certificate"]["body"]["pairs"][0] = [lhs, f"(+ {rhs} 1)"]
    save(folder, EQ11, data)
    r = kernel(str(folder))
    assert r.returncode == 1 and f"REJECTED {EQ11}: the kernel rejects" in r.stdout


def test_a_file_whose_record_disagrees_with_the_kernel_is_rejected(folder):
    data = load(folder, W_FORM)
    data["certificate"]["checked"] = False  # the kernel accepts it: the record is wrong
    save(folder, W_FORM, data)
    converse = load(folder, CONVERSE)
    converse["certificate"]["checked"] = True  # "checked" with nothing to check
    save(folder, CONVERSE, converse)
    lemma = load(folder, LEMMA)
    lemma["reduction"] = "none"  # hiding the local lemma
    save(folder, LEMMA, lemma)
    ident = load(folder, EQ11)
    ident["status"] = "unknown"  # a status that disagrees with a certificate the kernel accepts
    save(folder, EQ11, ident)
    r = kernel(str(folder), "--json")
    assert r.returncode == 1
    results = {row["file"]: row for row in json.loads(r.stdout)["results"]}
    assert {f for f, row in results.items() if row["result"] == "rejected"} == {W_FORM, CONVERSE, LEMMA, EQ11}
    assert "disagrees with its steps" in results[LEMMA]["reason"] and results[NODE]["result"] == "accepted"


def test_an_unreadable_file_counts_as_rejected_and_a_hidden_one_is_skipped(folder):
    (folder / "broken.json").write_text('{"format": "symcal-certificate 1", ')
    (folder / ".partial.json.tmp").write_text("{")
    r = kernel(str(folder))
    assert r.returncode == 1
    assert r.stdout.splitlines()[0].startswith("symcal-kernel: 6 files:") and "1 rejected" in r.stdout
    assert "REJECTED broken.json: unreadable" in r.stdout


def test_usage_errors_exit_2_with_one_line(tmp_path):
    (tmp_path / "a.json").write_text("{}")
    (tmp_path / "empty").mkdir()
    for args, what in (((str(tmp_path / "missing"),), "no such folder"), ((str(tmp_path / "a.json"),), "not a folder"),
                       ((str(tmp_path / "empty"),), "no files"), ((), "DIR")):
        r = kernel(*args)
        assert r.returncode == 2 and r.stdout == "", (args, r.stdout, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and what in r.stderr, r.stderr


# ------------------------------------------------------------------------------- standing alone


def test_the_kernel_process_never_imports_sympy_a_solver_numpy_or_the_backends(written):
    code = f"""
import runpy, sys
sys.argv = ["symcal.kernel", {str(written)!r}]
try:
    runpy.run_module("symcal.kernel", run_name="__main__", alter_sys=True)
except SystemExit as e:
    rc = e.code
bad = [m for m in {FORBIDDEN!r} if m in sys.modules]
print("imported:", bad)
sys.exit(rc if not bad else 5)
"""
    r = run("-c", code)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "imported: []" in r.stdout and SUMMARY in r.stdout


def test_the_front_door_still_imports_everything_it_names_loading_sympy_only_then():
    code = ("import symcal, sys; assert 'sympy' not in sys.modules; "
            "names = [getattr(symcal, n) for n in symcal.__all__]; assert 'sympy' in sys.modules; "
            "from symcal import check, implies, Status; import symcal.runner, symcal.verdicts; "
            "assert check is symcal.runner.check and Status is symcal.verdicts.Status; "
            "print(len(names) == len(symcal.__all__) == 31, symcal.runner.__name__)")
    r = run("-c", code)
    assert r.returncode == 0 and r.stdout.split() == ["True", "symcal.runner"], r.stderr
    r = run("-c", "import symcal; symcal.no_such_name")
    assert r.returncode == 1 and "AttributeError: module 'symcal' has no attribute 'no_such_name'" in r.stderr


def _bare_venv(where: Path) -> Path:
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(where)
    python = where / "bin" / "python"
    assert run("-c", "import sympy", python=str(python)).returncode != 0  # nothing installed there
    return python


def test_a_bare_venv_without_sympy_or_solvers_runs_the_kernel(written, tmp_path):
    python = _bare_venv(tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    r = kernel(str(written), python=str(python), env={**env, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [SUMMARY]


@pytest.mark.slow
def test_a_fresh_venv_with_symcal_installed_without_dependencies_has_the_symcal_kernel_script(written, tmp_path):
    src = tmp_path / "src"  # a copy: building a wheel writes build/ next to the sources
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", "tests", "bench", "examples", "*.egg-info",
                                                             "__pycache__", "build", "dist", ".*cache"))
    wheels = tmp_path / "wheels"
    built = run("-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(src),
                timeout=600)
    if built.returncode != 0:  # no `wheel` or too old a setuptools here: let pip fetch them for an isolated build
        built = run("-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src), timeout=600)
        if built.returncode != 0 and re.search(r"No matching distribution|NewConnectionError|Network is unreachable",
                                               built.stderr):
            pytest.skip("offline, and no setuptools >= 68 with `wheel` installed to build symcal's wheel")
    assert built.returncode == 0, built.stderr
    python = _bare_venv(tmp_path / "venv")
    wheel = next(wheels.glob("symcal-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True, capture_output=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    r = subprocess.run([str(tmp_path / "venv" / "bin" / "symcal-kernel"), str(written)], capture_output=True,
                       text=True, timeout=120, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [SUMMARY]
    assert run("-c", "import symcal.kernel, sys; assert 'sympy' not in sys.modules; import symcal.runner",
               python=str(python), env=env).returncode != 0  # no sympy there: only the kernel can run
