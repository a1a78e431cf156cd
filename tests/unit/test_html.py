"""Notebook reprs and the HTML report: status coloured, statement, scope, evidence folded, and a
refuted node claim's counterexample drawn as inline SVG; the report is one self-contained file."""

import pickle
import subprocess
import sys
from fractions import Fraction as F
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from symcal import check, check_many
from symcal.library import load_bundled, load_file, select
from symcal.report.html import (
    HIGHLIGHT,
    STATUS_COLOURS,
    node_counterexample,
    report_html,
    svg_graph,
    verdict_html,
)
from symcal.verdicts import Status, Verdict, Verdicts, Witness

ROOT = Path(__file__).resolve().parents[2]
MY_CLAIMS = ROOT / "examples" / "my_claims.py"

VOID = {"br", "meta", "img", "hr", "input", "link", "col", "area", "base", "source", "wbr", "path", "line",
        "circle", "polyline", "rect"}


class _Balance(HTMLParser):
    """Every opened element is closed in order (void and self-closed SVG elements aside)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def balanced(html: str) -> list[str]:
    p = _Balance()
    p.feed(html)
    p.close()
    return p.problems + [f"<{t}> never closed" for t in p.stack]


@pytest.fixture(scope="module")
def mine():
    claims = {c.id: c for c in load_file(MY_CLAIMS)}
    chosen = [claims["mine2026.am_gm_half"], claims["mine2026.transitive_is_enough"]]
    return chosen, check_many(chosen, timeout=60)


def test_check_many_returns_a_list_of_verdicts_that_shows_itself_as_a_table(mine):
    claims, verdicts = mine
    assert isinstance(verdicts, Verdicts) and isinstance(verdicts, list)
    assert verdicts == list(verdicts) and len(verdicts) == 2 and verdicts[0].claim_id == "mine2026.am_gm_half"
    html = verdicts._repr_html_()
    assert all(c.id in html for c in claims)
    assert "<table" in html and STATUS_COLOURS["refuted"][0] in html and STATUS_COLOURS["proved"][0] in html
    assert balanced(html) == []
    again = pickle.loads(pickle.dumps(verdicts))  # the claims hold lambdas; the verdicts pickle alone
    assert again == verdicts and again.claims is None


def test_a_refuted_node_claim_draws_its_counterexample_with_the_failing_pair_in_red(mine):
    claims, verdicts = mine
    refuted = verdicts[1]
    assert refuted.status is Status.REFUTED
    html = refuted._repr_html_()
    assert "<svg" in html and "difference graph, m = 3" in html
    assert claims[1].statement in html and refuted.scope in html and "<details" in html
    assert f'stroke="{HIGHLIGHT}"' in html  # the failing pair's edge
    cx = node_counterexample(refuted, claims[1])
    assert cx is not None and cx.failing == (1, 2) and cx.highlighted_edges() == [(1, 2)]
    assert balanced(html) == []


def test_a_proved_claim_shows_its_evidence_folded_and_draws_no_graph(mine):
    claims, verdicts = mine
    html = verdicts[0]._repr_html_()
    assert ">proved<" in html and escape(claims[0].statement) in html and "all real values" in html
    assert "<svg" not in html and "SMT-LIB2 of the query" in html and "<details" in html
    assert node_counterexample(verdicts[0], claims[0]) is None


def test_a_witness_without_node_weights_is_not_drawn_as_a_graph():
    w = Witness({"p": F(1), "q": F(1)}, rechecked=True, detail="the conclusion fails")
    v = Verdict("mine2026.x", Status.REFUTED, "all reals", "z3", 0.1, w)
    assert node_counterexample(v) is None
    html = verdict_html(v)
    assert "p = 1" in html and "<svg" not in html
    node = Witness({"a[1,2]": F(2), "a[2,1]": F(0)}, rechecked=True, size=2,
                   detail="all 1 hypotheses hold on every tuple; the conclusion fails at (1, 2) (exact)")
    drawn = verdict_html(Verdict("mine2026.y", Status.REFUTED, "m = 2", "z3", 0.1, node))
    assert "<svg" in drawn and ">2</text>" in drawn


def test_a_claim_shows_its_statement_citation_and_formula():
    c = {c.id: c for c in load_file(MY_CLAIMS)}["mine2026.am_gm_half"]
    html = c._repr_html_()
    assert c.id in html and "Notebook, p. 3" in html and "p*q &lt;= 1/4" in html and "expected proved" in html
    assert c._repr_latex_().startswith("$$") and r"\frac{1}{4}" in c._repr_latex_()
    node = {c.id: c for c in load_file(MY_CLAIMS)}["mine2026.transitive_is_enough"]
    assert node._repr_latex_() is None and "d_ij &gt; 0" in node._repr_html_()


def test_a_single_check_shows_the_claims_statement():
    c = {c.id: c for c in load_file(MY_CLAIMS)}["mine2026.square"]
    v = check(c)
    assert c.statement in v._repr_html_() and pickle.loads(pickle.dumps(v)) == v


def test_preference_distributions_show_the_low_noise_verdict_and_the_violating_triple():
    from symcal.ranking import PreferenceDistribution, PreferenceGraph

    low = PreferenceDistribution([(PreferenceGraph(3, {(1, 2): 1, (1, 3): 3}), F(1, 2)),
                                  (PreferenceGraph(3, {(2, 3): F(1, 4), (3, 1): 1}), F(1, 2))])
    bad = PreferenceDistribution([(PreferenceGraph(3, {(1, 2): 2, (1, 3): 6, (2, 3): 2}), F(1, 2)),
                                  (PreferenceGraph(3, {(3, 1): 4}), F(1, 2))])
    good_html, bad_html = low._repr_html_(), bad._repr_html_()
    assert ">holds<" in good_html and "(i, j, k)" not in good_html
    assert ">fails<" in bad_html and "(i, j, k) = (1, 2, 3)" in bad_html
    assert good_html.count("<svg") == 2 and bad_html.count("<svg") == 2  # difference graph, optimal order
    assert "min risk" in bad_html and "back edges 3→1" in bad_html
    assert balanced(bad_html) == []


def test_cost_schemes_and_the_theorem3_condition_show_where_it_fails():
    from symcal.ranking import CostScheme, linear_costs, satisfies_theorem3_condition

    c = CostScheme.from_matrix([[None, 1, 2, 4], [None, None, 1, 2], [None, None, None, 1], [None] * 4], name="mine")
    assert "c<sub>ji</sub>" in c._repr_html_() and ">4<" in c._repr_html_()
    fails = satisfies_theorem3_condition(c)._repr_html_()
    assert ">fails<" in fails and "(2, 3)" in fails and "violations" in fails
    holds = satisfies_theorem3_condition(linear_costs(4))._repr_html_()
    assert ">holds<" in holds and "violations" not in holds


def test_a_loss_analysis_shows_its_certified_rank_and_decomposition():
    from symcal.ranking.loss_matrix import analyse

    an = analyse([[0, 1, 3], [1, 0, 1], [3, 1, 0]], name="ordinal")
    html = an._repr_html_()
    assert "rank = 3 (certified" in html and "affine dimension = 2" in html and "ψ*(y, u)" in html
    assert an.matrix._repr_html_().count("<tr>") == 4 and balanced(html) == []


def test_a_calibration_counterexample_shows_the_distribution_p_as_a_vector():
    from symcal.calibration import check_calibration
    from symcal.calibration import surrogates as S

    v = check_calibration(S.zero_one(3), S.crammer_singer(3), "argmax")
    html = v._repr_html_()
    assert ">refuted<" in html and "p = (0, 1/2, 1/2)" in html and "re-checked exactly" in html


def test_an_svg_graph_marks_highlighted_and_dashed_edges_only():
    plain = svg_graph([1, 2, 3], [(1, 2, "1"), (2, 3, "1/2")])
    assert f'stroke="{HIGHLIGHT}"' not in plain and plain.startswith("<svg") and plain.endswith("</svg>")
    marked = svg_graph([1, 2, 3], [(1, 2, "1"), (2, 3, "1/2")], highlight_edges=[(1, 2)],
                       dashed_edges=[(1, 3, "d = 0")])
    assert marked.count(f'stroke="{HIGHLIGHT}"') == 2 and 'stroke-dasharray="5,4"' in marked


@pytest.fixture(scope="module")
def lemma14_pairs():
    claims = select(load_bundled(), ["duchi2010.lemma14.all_m", "duchi2010.lemma14.converse",
                                     "duchi2010.lemma14.proof.case_tie"])
    return list(zip(claims, check_many(claims, timeout=60), strict=True))


def test_the_html_report_is_one_self_contained_file_with_the_errata_first(lemma14_pairs):
    html = report_html(lemma14_pairs)
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    for forbidden in ("<script", "<link", "src=", "@import", "url(http", "https://"):
        assert forbidden not in html
    assert html.replace('xmlns="http://www.w3.org/2000/svg"', "").count("http://") == 0
    assert html.index('id="errata"') < html.index('id="paper-duchi2010"')
    assert 'id="erratum-duchi2010.lemma14.proof.case_tie"' in html and "Finding (erratum)" in html
    assert html.count("<svg") >= 2  # the erratum's and the converse's counterexamples
    assert balanced(html) == []


def test_symcal_report_writes_html_and_guesses_the_format_from_the_suffix(tmp_path):
    out = tmp_path / "r.html"
    r = subprocess.run([sys.executable, "-m", "symcal", "report", "duchi2010.lemma14.proof.case_tie",
                        "--out", str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "ERRATUM" in text and "<svg" in text
    md = tmp_path / "r.md"
    r2 = subprocess.run([sys.executable, "-m", "symcal", "report", "duchi2010.lemma14.all_m", "--format", "md",
                         "--out", str(md)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r2.returncode == 0 and md.read_text().startswith("# symcal report")
    bad = subprocess.run([sys.executable, "-m", "symcal", "report", "--format", "pdf"], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
