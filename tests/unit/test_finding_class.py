"""Every finding has a class: ``statement`` (the printed statement is false), ``hypothesis`` (a
missing hypothesis or an edge case), ``proof`` (a slip in a proof whose result stands) or
``clarification`` (a convention or a reading); the class is shown by ``symcal check`` (table and
JSON), ``symcal show``, ``symcal list`` and ``symcal coverage``."""

from __future__ import annotations

import functools
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import sympy

from symcal import Citation, Finding, SymcalError, check, implies
from symcal import coverage as cv
from symcal.claims.core import FINDING_CLASSES, finding_class_counts
from symcal.coverage.entry import E
from symcal.library import load_bundled
from symcal.report import table, to_json
from symcal.verdicts import Status, Verdict

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = {c.id: c for c in load_bundled()}
ERRATA = {cid: c for cid, c in LIBRARY.items() if c.finding is not None}
C = Citation("test2026", "Lemma 1", "x > 0")
x = sympy.Symbol("x", real=True)


def _finding(cls: str | None = "proof") -> Finding:
    return Finding("what", "at x = 0", "test2026.fc.corrected", finding_class=cls)


def test_the_four_classes_have_one_home_in_this_order():
    assert FINDING_CLASSES == ("statement", "hypothesis", "proof", "clarification")


def test_every_bundled_finding_has_one_of_the_four_classes():
    assert ERRATA
    for cid, c in ERRATA.items():
        assert c.finding.finding_class in FINDING_CLASSES, cid


def test_the_library_counts_errata_per_class_as_reviewed():
    counts = Counter(c.finding.finding_class for c in ERRATA.values())
    # session 35's audit of Duchi et al.'s coverage map: 2 proof slips (Lemma 7's "< k", Lemma 16's paths of one
    # length k) and 2 clarifications (Eq. (7)'s tie on edges i > j, Eq. (9)'s h(0) = 0); session 36's audit of
    # Ramaswamy et al.'s: 1 clarification (Section 7.1's psi_DMJ "in our notation" takes negative values)
    assert counts == {"proof": 25, "statement": 7, "hypothesis": 11, "clarification": 15}
    assert len(ERRATA) == 58


def test_a_proof_slip_is_classed_proof_and_a_zero_denominator_clarification():
    assert ERRATA["duchi2010.lemma14.proof.case_tie"].finding.finding_class == "proof"
    assert ERRATA["calauzenes2013.lemma_b2.proof_mixture"].finding.finding_class == "proof"
    assert ERRATA["uematsu2013.section4_3.svor1.r_defined"].finding.finding_class == "clarification"
    assert ERRATA["uematsu2013.theorem3.i"].finding.finding_class == "hypothesis"
    assert ERRATA["ramaswamy2013.pd.rank_bound"].finding.finding_class == "statement"
    assert ERRATA["ramaswamy2013.theorem7.proof.inf_space"].finding.finding_class == "proof"
    assert ERRATA["calauzenes2013.eq14.pairwise_form"].finding.finding_class == "clarification"
    assert ERRATA["calauzenes2013.corollary_a1.k_dimension"].finding.finding_class == "clarification"


@pytest.mark.parametrize("cls", FINDING_CLASSES)
def test_a_finding_accepts_each_class_as_a_keyword(cls):
    assert _finding(cls).finding_class == cls


def test_a_finding_without_a_class_is_refused_naming_the_parameter_and_the_four_words():
    with pytest.raises(SymcalError) as e:
        Finding("what", "at x = 0", "test2026.fc.corrected")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("finding_class=None: expected one of")
    for cls in FINDING_CLASSES:
        assert repr(cls) in msg


@pytest.mark.parametrize("bad", ["typo", "Proof", "", 3, ("proof",)])
def test_a_finding_with_a_class_outside_the_four_is_refused(bad):
    with pytest.raises(SymcalError, match=r"^finding_class=.*: expected one of 'statement', 'hypothesis'"):
        _finding(bad)


def test_the_counts_line_lists_classes_in_order_and_leaves_out_empty_ones():
    assert finding_class_counts(["proof", "statement", "proof"]) == "1 statement, 2 proof"
    assert finding_class_counts([]) == "none"
    with pytest.raises(SymcalError, match="finding_class='lemma'"):
        finding_class_counts(["lemma"])


@functools.cache
def _pairs() -> list[tuple]:
    """A claim that holds (no finding) and a printed one refuted with its finding (an erratum)."""
    good = implies("test2026.fc.ok", hypotheses={"h": [x > 0]}, conclusion=x >= 0, cite=C)
    wrong = implies("test2026.fc", hypotheses={"h": [x > 0]}, conclusion=x > 1, cite=C, finding=_finding("hypothesis"))
    pairs = [(c, check(c, timeout=30)) for c in (good, wrong)]
    assert [v.status for _, v in pairs] == [Status.PROVED, Status.REFUTED]
    return pairs


def test_each_json_element_carries_its_finding_class_after_finding_and_null_without_one():
    rows = {r["id"]: r for r in to_json(_pairs())}
    keys = list(rows["test2026.fc"])
    assert keys[keys.index("finding") + 1] == "finding_class"
    assert rows["test2026.fc"]["finding_class"] == "hypothesis"
    assert "finding_class" in rows["test2026.fc.ok"] and rows["test2026.fc.ok"]["finding_class"] is None


def test_the_check_table_counts_errata_by_class_on_its_summary_line_and_names_each_class():
    pairs = list(_pairs())
    text = table(pairs)
    assert "1 recorded errata (1 hypothesis), 0 disagree" in text
    assert "finding (hypothesis):" in text
    assert "recorded errata (" not in table(pairs[:1])


def test_a_finding_whose_verdict_is_not_refuted_is_not_counted_as_an_erratum():
    claim, v = _pairs()[1]
    unknown = Verdict(claim.id, Status.UNKNOWN, "all x", "z3", 0.1, reason="timeout")
    assert "recorded errata (" not in table([(claim, unknown)])


def test_coverage_lists_the_classes_of_an_entrys_findings_and_none_for_an_entry_without():
    entry = E("Lemma 14, proof, step 5", "q", "duchi2010.lemma14.proof.case_tie",
              "duchi2010.lemma14.proof.case_tie.corrected")
    assert cv.entry_finding_classes(entry, LIBRARY) == ["proof"]
    assert cv.entry_finding_classes(E("Lemma 14", "q", "duchi2010.lemma14"), LIBRARY) == []


def test_coverage_counts_each_papers_findings_by_class():
    summary = cv.summarise()
    total = Counter()
    for data in summary.values():
        total.update({k: n for k, n in data["findings_by_class"].items() if n})
    mapped = {cid for d in summary.values() for r in d["entries"] for cid in r["claims"]}
    assert total == Counter(c.finding.finding_class for cid, c in ERRATA.items() if cid in mapped)
    assert "(findings: " in cv.render_text({"calauzenes2013": summary["calauzenes2013"]}).splitlines()[0]


def _symcal(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symcal", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_show_prints_the_class_of_a_finding_and_list_flags_it():
    r = _symcal("show", "calauzenes2013.lemma_b2.proof_mixture")
    assert r.returncode == 0, r.stderr
    assert "  class     : proof" in r.stdout.splitlines()
    r = _symcal("list", "calauzenes2013.lemma_b2")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("calauzenes2013.lemma_b2.proof_mixture "))
    assert line.endswith("[finding: proof]")
    corrected = next(ln for ln in r.stdout.splitlines() if ln.startswith("calauzenes2013.lemma_b2.proof_mixture.c"))
    assert "[finding" not in corrected


def test_a_theorems_file_whose_finding_has_no_class_is_a_one_line_error(tmp_path):
    f = tmp_path / "noclass.py"
    f.write_text(
        "import sympy\n"
        "from symcal import Citation, Finding, implies\n"
        "x = sympy.Symbol('x', real=True)\n"
        "c = implies('mine2026.noclass', hypotheses={}, conclusion=x > 0, cite=Citation('mine2026', 'Lemma 1'),\n"
        "            finding=Finding('x can be 0', 'x = 0', 'mine2026.noclass.corrected'))\n"
        "CLAIMS = [c]\n"
    )
    r = _symcal("list", "--theorems", str(f))
    assert r.returncode == 2
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and "finding_class=None" in err and "'clarification'" in err
