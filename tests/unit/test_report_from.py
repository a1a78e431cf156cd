"""`symcal report --from RUN.json`: a report a coauthor can read, built from a saved `check --json`
run without deciding anything again -- each claim's hypotheses and conclusion as mathematics
(LaTeX, MathML), counterexamples, findings, a header with versions; and `symcal show ID --latex`
as mathematics."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from symcal import check_many
from symcal.cli import main
from symcal.library import load_bundled, select
from symcal.report import to_json
from symcal.report.latex import sanity_problems
from symcal.report.mathematics import claim_math, to_latex, value_math

ROOT = Path(__file__).resolve().parents[2]
IDS = ["duchi2010.lemma14.converse", "duchi2010.lemma14.proof.case_tie", "duchi2010.lemma10.proof.cond1_form"]


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    """A real run of three claims (a node claim refuted as the paper says, an erratum, a proved
    implication) and one user claim, written as `symcal check --json` writes it."""
    claims = select(load_bundled(("duchi2010",)), IDS)
    elems = to_json(list(zip(claims, check_many(claims, timeout=60), strict=True)))
    elems.append({"id": "mine2026.my_conjecture", "status": "proved", "expected": "proved", "agrees": True,
                  "erratum": False, "scope": "all real x", "seconds": 0.1, "backend": "z3", "evidence": None,
                  "finding": None, "statement": "x^2 >= 0", "warnings": []})
    path = tmp_path_factory.mktemp("run") / "run.json"
    path.write_text(json.dumps(elems, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def nothing_decided(monkeypatch):
    """Any decision raises: a report --from that decides would fail loudly."""
    import symcal.runner

    def refuse(*args, **kwargs):
        raise AssertionError("report --from decided a claim again")

    monkeypatch.setattr(symcal.runner, "decide", refuse)
    monkeypatch.setattr(symcal.runner, "check_many", refuse)


def report(run, fmt, tmp_path, *extra):
    out = tmp_path / f"report.{fmt}"
    code = main(["report", "--from", str(run), "--format", fmt, "--out", str(out), *extra])
    return code, out.read_text(encoding="utf-8")


def test_a_saved_run_becomes_markdown_html_and_latex_without_deciding_anything(run_file, tmp_path, nothing_decided):
    code, md = report(run_file, "md", tmp_path)
    assert code == 0
    assert "$$" in md and "a_{12} = 1" in md and "Hypothesis ordering at (1, 2)" in md
    code, page = report(run_file, "html", tmp_path)
    assert code == 0
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/1998/Math/MathML"', "")
    assert page.count("<math") > 10 and "<msub><mi>a</mi><mi>12</mi></msub>" in page
    code, tex = report(run_file, "latex", tmp_path)
    assert code == 0
    assert tex.rstrip().endswith(r"\end{document}") and r"\[" in tex and "a_{12} = 1" in tex
    assert sanity_problems(tex, columns=2) == []


def test_the_report_says_where_its_mathematics_comes_from_and_which_claims_have_none(run_file, tmp_path):
    code, md = report(run_file, "md", tmp_path)
    assert "built at m = 3 on the weights a_ij >= 0" in md  # the node claim, at the size it was built
    assert "not in the library: reported from the JSON alone" in md  # the user's claim
    assert "x^2 >= 0" in md


def test_the_header_names_symcal_the_commit_the_date_and_the_solvers(run_file, tmp_path):
    import symcal

    code, md = report(run_file, "md", tmp_path)
    head = md.split("##", 1)[0]
    assert f"**symcal**: {symcal.__version__}" in head
    assert re.search(r"\*\*git commit\*\*: ([0-9a-f]{12}|unknown)", head)
    assert re.search(r"\*\*date\*\*: \d{4}-\d\d-\d\d", head)
    for solver in ("sympy", "z3", "cvc5"):
        assert f"**{solver}**: " in head
    assert "nothing was decided again" in head


def test_a_git_commit_is_read_outside_a_checkout_as_unknown(tmp_path):
    from symcal.report.from_run import git_commit

    assert git_commit(tmp_path / "x.py") == "unknown"
    (tmp_path / ".git" / "refs" / "heads").mkdir(parents=True)
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text("0123456789abcdef0123456789abcdef01234567\n")
    assert git_commit(tmp_path / "x.py") == "0123456789ab"


def test_a_run_whose_element_disagrees_shows_it_as_disagreeing(run_file, tmp_path, nothing_decided):
    elems = json.loads(run_file.read_text())
    bad = next(e for e in elems if e["id"] == "duchi2010.lemma10.proof.cond1_form")
    bad.update(status="refuted", agrees=False, erratum=False)
    run = tmp_path / "bad.json"
    run.write_text(json.dumps(elems))
    code, md = report(run, "md", tmp_path)
    assert code == 1
    assert "## Disagreements" in md and "refuted (the source: proved; DISAGREES)" in md
    assert md.index("## Disagreements") < md.index("## Errata")
    code, page = report(run, "html", tmp_path)
    assert code == 1 and 'class="claim DISAGREES"' in page
    code, tex = report(run, "latex", tmp_path)
    assert code == 1 and r"\textbf{refuted (the source: proved; DISAGREES)}" in tex


def test_the_same_run_as_saved_shows_no_disagreement(run_file, tmp_path):
    code, md = report(run_file, "md", tmp_path)
    assert code == 0 and "## Disagreements" not in md and "DISAGREES" not in md


def test_a_findings_class_is_shown_from_the_run_else_from_the_library_claim(run_file, tmp_path):
    elems = json.loads(run_file.read_text())
    next(e for e in elems if e["id"] == "duchi2010.lemma14.proof.case_tie")["finding_class"] = "clarification"
    user = next(e for e in elems if e["id"] == "mine2026.my_conjecture")
    user["finding"] = "the printed bound is off by one."
    run = tmp_path / "classed.json"
    run.write_text(json.dumps(elems))
    md = report(run, "md", tmp_path)[1]
    assert "**Finding** [clarification]: Lemma 14's proof" in md  # the run's class comes first
    assert "**Finding**: the printed bound is off by one." in md  # no class in the run nor a library claim


@pytest.mark.parametrize("content, why", [
    (None, "no such file"),
    ("{not json", "it is not JSON"),
    ('{"id": "x", "status": "proved"}', "holds a JSON dict, not an array"),
    ('[1, 2]', "element 0 is not an object"),
    ('[{"id": "x"}]', "element 0 has no string 'status'"),
    ('[{"id": "x", "status": "maybe"}]', "has status 'maybe'"),
])
def test_a_malformed_run_is_refused_in_one_line(tmp_path, capsys, content, why, nothing_decided):
    run = tmp_path / "run.json"
    if content is not None:
        run.write_text(content)
    assert main(["report", "--from", str(run)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(run) in err and "symcal check --json" in err and why in err


def test_a_directory_is_not_a_run(tmp_path, capsys):
    assert main(["report", "--from", str(tmp_path)]) == 2
    assert "it is not a file" in capsys.readouterr().err


def test_patterns_keep_the_matching_claims_of_the_run_and_a_pattern_matching_none_is_refused(run_file, tmp_path,
                                                                                              capsys):
    code, md = report(run_file, "md", tmp_path, "duchi2010.lemma14.*")
    assert code == 0 and "lemma14.converse" in md and "cond1_form" not in md
    assert main(["report", "--from", str(run_file), "duchi2010.nothing"]) == 2
    assert "pattern='duchi2010.nothing'" in capsys.readouterr().err


def test_pdflatex_compiles_the_report_from_a_run(run_file, tmp_path):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed: the LaTeX was checked by the Python sanity check only")
    _, tex = report(run_file, "latex", tmp_path)
    (tmp_path / "r.tex").write_text(tex, encoding="utf-8")
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "r.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout[-2000:]
    assert (tmp_path / "r.pdf").stat().st_size > 10_000


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def test_the_html_report_renders_in_a_headless_browser(run_file, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed: the HTML report was not rendered to a picture")
    _, page = report(run_file, "html", tmp_path)
    html_file = tmp_path / "r.html"
    html_file.write_text(page, encoding="utf-8")
    png = tmp_path / "r.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={png}",
                    "--window-size=1200,1600", html_file.as_uri()], capture_output=True, timeout=120)
    assert png.exists()
    try:
        from PIL import Image
    except ImportError:
        assert png.stat().st_size > 30_000  # a blank page is a few KB
        return
    histogram = Image.open(png).convert("L").histogram()
    assert sum(histogram[:128]) > 5_000, "the page rendered (nearly) blank"


def test_show_latex_prints_mathematics_not_escaped_prose():
    r = subprocess.run([sys.executable, "-m", "symcal", "show", "duchi2010.lemma14.proof.case_tie", "--latex"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r"\[ \left(a_{12} - a_{21} > 0 \wedge a_{23} - a_{32} > 0\right) \Rightarrow" in r.stdout
    assert r"d\_ij \textgreater{} 0" not in r.stdout  # the hypothesis is not the escaped prose


def test_a_claim_without_a_formula_says_its_statement_text_stands_in():
    finite = next(c for c in load_bundled(("duchi2010",)) if c.kind == "finite")
    cm = claim_math(finite)
    assert not cm.rendered and cm.note.startswith("statement text")


def test_witness_values_are_mathematics_and_never_evaluated():
    assert to_latex(value_math("a[1,2]", "3/4").expr) == r"a_{12} = \frac{3}{4}"
    assert to_latex(value_math("a12_G1", "1").expr) == "a^{G1}_{12} = 1"
    odd = value_math("x", "__import__('os').getcwd()")
    assert odd.expr is None and odd.text == "x = __import__('os').getcwd()"
