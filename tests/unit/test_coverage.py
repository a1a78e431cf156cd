"""The coverage map of the five papers: every entry has claim ids or a reason, every id is in
the library, every bundled claim is placed, every numbered statement of a paper's text has an
entry, and ``symcal coverage`` prints, emits JSON and refuses an unknown paper in one line."""

import argparse
import json
import sys
from types import SimpleNamespace

import pytest

from symcal import coverage as cv
from symcal.commands import coverage as coverage_cmd
from symcal.coverage.entry import E, Entry, reason_kind
from symcal.errors import SymcalError
from symcal.library import load_bundled
from symcal.verdicts import Status

LIBRARY = {c.id: c for c in load_bundled()}
MAPS = cv.load_map()

# Bundled claims no entry of the map references, each with the reason it has no place.
UNREFERENCED: dict[str, str] = {}


@pytest.fixture(scope="module")
def summary():
    return cv.summarise(claims=LIBRARY)


def test_the_map_has_all_five_papers_in_the_library_order():
    assert tuple(MAPS) == cv.PAPERS
    for paper, pm in MAPS.items():
        assert pm.paper == paper
        assert len(pm.entries) >= 40, paper


@pytest.mark.parametrize("paper", cv.PAPERS)
def test_every_entry_has_claims_or_a_reason_and_every_claim_id_is_in_the_library(paper):
    assert cv.validate(MAPS[paper].entries, LIBRARY.keys(), paper=paper) == []


@pytest.mark.parametrize("paper", cv.PAPERS)
def test_every_entry_has_exactly_one_of_claims_and_reason(paper):
    for e in MAPS[paper].entries:
        assert bool(e.claims) != bool(e.reason), e.location
        if e.reason:
            assert reason_kind(e.reason) is not None, (e.location, e.reason)


def test_every_bundled_claim_is_referenced_by_some_entry():
    used = {c for pm in MAPS.values() for e in pm.entries for c in e.claims}
    assert set(LIBRARY) - used == set(UNREFERENCED)
    assert not (set(UNREFERENCED) & used)


@pytest.mark.parametrize("paper", cv.PAPERS)
def test_every_numbered_label_in_the_paper_text_is_a_location_of_the_map(paper):
    pm = MAPS[paper]
    labels = _labels_of(pm)
    locations = [e.location for e in pm.entries]
    missing = sorted(
        lab for lab in labels if not cv.label_in_locations(lab, locations) and lab not in pm.external_labels
    )
    assert missing == []
    # labels cited from other works are in the text and are not statements of this paper
    assert set(pm.external_labels) <= labels
    assert not [lab for lab in pm.external_labels if cv.label_in_locations(lab, locations)]


def test_dropping_a_numbered_statement_from_the_map_is_caught_by_the_label_check():
    pm = MAPS["duchi2010"]
    labels = _labels_of(pm)
    kept = [e.location for e in pm.entries if "Lemma 14" not in e.location]
    assert "Lemma 14" in labels
    assert not cv.label_in_locations("Lemma 14", kept)
    assert cv.label_in_locations("Lemma 14", [e.location for e in pm.entries])


def test_labels_match_whole_numbers_only():
    assert cv.label_in_locations("Lemma 1", ["Appendix A, proof of Lemma 1"])
    assert not cv.label_in_locations("Lemma 1", ["Lemma 14", "Lemma 10, proof"])
    assert not cv.label_in_locations("Theorem 3", ["Theorem 3.3"])
    assert cv.label_in_locations("Theorem 3", ["Theorem 3 (ii)"])
    assert cv.numbered_labels("see Lemma B.2 and Theorem 3.3, not Theorems 2.13") == {"Lemma B.2", "Theorem 3.3"}


def test_an_entry_lacking_both_claims_and_reason_makes_the_validator_fail():
    bad = [E("Lemma 14", "If (G, p) is low noise ..."), E("Lemma 16", "G~ is a DAG iff ...", "duchi2010.lemma16")]
    problems = cv.validate(bad, LIBRARY.keys(), paper="duchi2010")
    assert len(problems) == 1 and "neither claim ids nor a reason" in problems[0]


def test_unknown_ids_foreign_ids_and_bare_reasons_make_the_validator_fail():
    bad = [
        E("Lemma 14", "...", "duchi2010.lemma99"),
        E("Lemma 16", "...", "xia2009.proposition4"),
        E("Eq. (8)", "...", reason="unchecked"),
        Entry("Eq. (9)", "...", ("duchi2010.lemma16",), "prose"),
    ]
    problems = "\n".join(cv.validate(bad, LIBRARY.keys(), paper="duchi2010"))
    assert "'duchi2010.lemma99' is not in the library" in problems
    assert "not a duchi2010 claim" in problems
    assert "should start with one of" in problems
    assert "has both claim ids and a reason" in problems


def test_a_map_that_does_not_validate_is_refused_by_summarise(monkeypatch):
    from symcal.coverage.data import duchi2010

    monkeypatch.setattr(duchi2010, "ENTRIES", [*duchi2010.ENTRIES, E("Lemma 99", "no claims, no reason")])
    with pytest.raises(SymcalError, match="neither claim ids nor a reason"):
        cv.summarise(["duchi2010"], claims=LIBRARY)


def test_the_status_word_is_the_strongest_expected_outcome_and_errata_come_from_findings():
    claims = {
        "p.a": SimpleNamespace(expected=Status.CONFIRMED_ON_SAMPLES, finding=None),
        "p.b": SimpleNamespace(expected=Status.REFUTED, finding=None),
        "p.c": SimpleNamespace(expected=Status.CONFIRMED_NUMERICALLY, finding="wrong constant"),
    }
    assert cv.entry_status(E("x", "q", "p.a", "p.b"), claims) == ("proof", False)
    assert cv.entry_status(E("x", "q", "p.a"), claims) == ("samples", False)
    assert cv.entry_status(E("x", "q", "p.c"), claims) == ("numeric", True)
    assert cv.entry_status(E("x", "q", "p.a", "p.c"), claims) == ("samples", True)
    assert cv.entry_status(E("x", "q", reason="unchecked: needs a claim"), claims) == ("unchecked", False)


def test_the_counts_add_up_per_paper(summary):
    for paper, d in summary.items():
        assert d["by_proof"] + d["on_samples"] + d["numeric"] == d["checked"], paper
        rest = d["definition"] + d["prose"] + d["not_checkable"] + d["out_of_scope"] + d["gaps"]
        assert d["checked"] + rest == d["statements"] == len(d["entries"]) == len(MAPS[paper].entries), paper
        assert d["errata"] == sum(r["erratum"] for r in d["entries"]), paper
        assert d["errata"] <= d["checked"]


def test_an_erratum_claim_marks_its_entry(summary):
    rows = {r["location"]: r for r in summary["duchi2010"]["entries"]}
    assert rows["Lemma 14, proof, step 5"]["erratum"] is True  # duchi2010.lemma14.proof.case_tie
    assert rows["Lemma 14"]["status"] == "proof" and rows["Lemma 14"]["erratum"] is False


def test_the_readme_table_has_a_row_per_paper_and_a_total(summary):
    table = cv.readme_table(summary)
    lines = table.splitlines()
    assert lines[0].startswith("| paper | statements | checked | by proof | on samples | numeric | errata |")
    assert len(lines) == 2 + len(cv.PAPERS) + 1
    total = sum(d["statements"] for d in summary.values())
    assert lines[-1].startswith(f"| **total** | **{total}** |")


# -- the command line ------------------------------------------------------------------------


def _labels_of(pm):
    where = cv.papers_dir()
    if where is None or not (where / pm.source).exists():
        pytest.skip("the papers' text (shared/papers) is not beside this checkout; set SYMCAL_PAPERS")
    return cv.numbered_labels((where / pm.source).read_text(encoding="utf-8"))


def _run(argv, capsys):
    """``symcal coverage ARGV``: through ``symcal.cli`` once the verb is registered, else through a
    throwaway parser that handles errors as ``cli.main`` does."""
    from symcal.commands import VERBS

    if "coverage" in VERBS:
        from symcal import cli

        code = cli.main(["coverage", *argv])
    else:
        parser = argparse.ArgumentParser(prog="symcal")
        coverage_cmd.register(parser.add_subparsers(dest="verb", required=True))
        args = parser.parse_args(["coverage", *argv])
        try:
            code = args.fn(args)
        except SymcalError as e:
            print(f"symcal: error: {e}", file=sys.stderr)
            code = 2
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_command_prints_counts_and_one_line_per_statement(capsys):
    code, out, err = _run(["duchi2010"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"duchi2010: {len(MAPS['duchi2010'].entries)} statements: ")
    assert "checked" in lines[0] and "gaps" in lines[0]
    assert len(lines) == 1 + len(MAPS["duchi2010"].entries)
    assert any("Lemma 14 " in ln and "duchi2010.lemma14" in ln and "proof" in ln for ln in lines)
    assert any("Lemma 7 " in ln and "not checkable" in ln and "NP-hardness" in ln for ln in lines)
    assert any(ln.split()[-1] == "definition" for ln in lines)


def test_the_command_json_parses_and_has_counts_and_entries(capsys):
    code, out, err = _run(["--json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == list(cv.PAPERS)
    for paper, d in data.items():
        for key in cv.COUNT_KEYS:
            assert isinstance(d[key], int), (paper, key)
        assert len(d["entries"]) == d["statements"]
        first = d["entries"][0]
        assert set(first) == {"location", "quote", "status", "erratum", "finding_classes", "claims", "reason"}


def test_an_unknown_paper_is_a_one_line_error_naming_it_and_the_accepted_names(capsys):
    code, out, err = _run(["duchi2011"], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "duchi2011" in err
    for paper in cv.PAPERS:
        assert paper in err


def test_the_readme_coverage_table_is_generated_from_the_map():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- coverage-table:start -->\n", 1)[1].split("\n<!-- coverage-table:end -->", 1)[0]
    assert block == cv.readme_table(), "regenerate the README table with symcal.coverage.readme_table()"
