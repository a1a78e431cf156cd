"""LaTeX for an appendix: every special character escaped, a complete document that a plain
pdflatex compiles, one claim per table row, and `symcal show ID --latex`."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from symcal import check_many
from symcal.library import load_bundled, load_file, select
from symcal.report.latex import claim_latex, claim_row, escape, latex_report, sanity_problems

ROOT = Path(__file__).resolve().parents[2]
MY_CLAIMS = ROOT / "examples" / "my_claims.py"
NASTY = r"a_ij & 50% #1 $x$ {y} ^ ~ \ < > | α ≤ β → ℝ x² p₁ é – “q” 日"


def wrap(body: str) -> str:
    return "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n" \
           "\\usepackage{amsmath,amssymb}\n\\begin{document}\n" + body + "\n\\end{document}\n"


def test_every_special_character_is_escaped_and_unicode_mapped():
    text = escape(NASTY)
    assert sanity_problems(wrap(text)) == []
    for raw, escaped in (("_", r"\_"), ("&", r"\&"), ("%", r"\%"), ("#", r"\#"), ("$", r"\$"), ("{", r"\{"),
                         ("α", r"\ensuremath{\alpha}"), ("≤", r"\ensuremath{\leq}"), ("₁", r"\ensuremath{_{1}}")):
        assert escaped in escape(raw)
    assert "$" not in text.replace(r"\$", "")
    assert "[U+65E5]" in text  # a character without a mapping is shown, never passed through


def test_the_sanity_check_finds_what_pdflatex_would_trip_on():
    assert any("unescaped '_'" in p for p in sanity_problems(wrap("a_ij")))
    assert any("'&'" in p for p in sanity_problems(wrap("a & b")))
    assert any("'%'" in p or "'$'" in p for p in sanity_problems(wrap("50% of $x")))
    assert any("unclosed" in p for p in sanity_problems(wrap(r"\textbf{open")))
    assert any("does not match" in p for p in sanity_problems(wrap(r"\begin{itemize}\end{enumerate}")))
    assert sanity_problems(wrap(r"\[ x_{1} \leq y^{2} \]")) == []  # math is math


def test_the_bundled_library_needs_no_unmapped_character():
    for c in load_bundled():
        texts = [c.id, c.statement, c.citation.paper, c.citation.location, c.citation.quote]
        if c.finding:
            texts += [c.finding.what, c.finding.counterexample, c.finding.corrected]
        for t in texts:
            assert "[U+" not in escape(t), (c.id, t)


@pytest.fixture(scope="module")
def pairs():
    claims = select(load_bundled(), ["duchi2010.lemma14.all_m", "duchi2010.lemma14.proof.case_tie",
                                     "uematsu2013.corollary1.condition.all_k"])
    claims += [c for c in load_file(MY_CLAIMS) if c.id == "mine2026.transitive_is_enough"]
    return list(zip(claims, check_many(claims, timeout=60), strict=True))


def test_the_report_is_a_complete_document_with_one_row_per_claim(pairs):
    tex = latex_report(pairs)
    assert tex.startswith("% Written by symcal") and r"\documentclass" in tex and tex.rstrip().endswith(
        r"\end{document}")
    assert sanity_problems(tex) == []
    rows = [line for line in tex.splitlines() if line.startswith(r"\texttt{")]
    assert len(rows) == len(pairs)
    assert r"\subsection*{Errata}" in tex and "refuted (erratum)" in tex
    assert r"\textbf{refuted} (disagrees; the source: proved)" in tex  # the user's false conjecture
    assert tex.index(r"\subsection*{Errata}") < tex.index(r"\subsection*{duchi2010}")
    assert "% symcal table: begin duchi2010" in tex and "% symcal table: end duchi2010" in tex


def test_a_table_row_has_five_cells_and_ends_the_row(pairs):
    c, v = pairs[1]
    row = claim_row(c, v)
    assert row.endswith(r"\\") and row.replace(r"\&", "").count("&") == 4
    assert r"duchi2010.\allowbreak{}lemma14" in row and "m = 3..4" in row


def test_pdflatex_compiles_the_report(pairs, tmp_path):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed: the LaTeX report was checked by the Python sanity check only")
    tex = tmp_path / "report.tex"
    tex.write_text(latex_report(pairs), encoding="utf-8")
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tmp_path,
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout[-2000:]
    assert (tmp_path / "report.pdf").stat().st_size > 1000
    nasty = tmp_path / "nasty.tex"
    nasty.write_text(wrap(escape(NASTY) + "\n\n" + "\n\n".join(claim_latex(c) for c, _ in pairs)), encoding="utf-8")
    r2 = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", nasty.name], cwd=tmp_path,
                        capture_output=True, text=True, timeout=180)
    assert r2.returncode == 0, r2.stdout[-2000:]


def test_a_claims_latex_has_its_statement_citation_and_formula():
    c = select(load_bundled(), ["uematsu2013.corollary1.condition.all_k"])[0]
    tex = claim_latex(c)
    assert tex.startswith("% symcal claim uematsu2013.corollary1.condition.all_k")
    assert r"\paragraph{\texttt{uematsu2013." in tex
    assert r"\emph{Identity:}\begin{flushleft}\ensuremath{" in tex  # a long formula: inline, so that it breaks
    assert "w_{1}" in tex
    assert sanity_problems(wrap(tex)) == []
    node = [c for c in load_file(MY_CLAIMS) if c.id == "mine2026.transitive_is_enough"][0]
    node_tex = claim_latex(node)
    assert r"\emph{Hypothesis transitive at (1, 2, 3):}\[" in node_tex  # mathematics, built at m = 3
    assert sanity_problems(wrap(node_tex)) == []


def test_symcal_show_latex_and_report_latex_from_the_command_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "symcal", "show", "duchi2010.lemma14.proof.case_tie", "--latex"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("% symcal claim duchi2010.lemma14.proof.case_tie") and r"\emph{Erratum:}" in r.stdout
    assert sanity_problems(wrap(r.stdout)) == []
    out = tmp_path / "claims.tex"
    r2 = subprocess.run([sys.executable, "-m", "symcal", "report", "duchi2010.lemma14.all_m", "--out", str(out)],
                        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r2.returncode == 0, r2.stderr
    tex = out.read_text()
    assert r"\begin{longtable}" in tex and sanity_problems(tex) == []
