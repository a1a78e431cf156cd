"""Library integrity: every bundled module is cited and documented; ids are unique and
well-formed; every claim carries an expected outcome; every finding has its corrected claim."""

import ast
from pathlib import Path

import pytest

from symcal.claims.core import ID_PATTERN
from symcal.library import PAPERS, bundled_dir, load_bundled, load_module, paper_path, select, source_digest

CLAIMS = load_bundled()
IDS = {c.id for c in CLAIMS}


def test_the_bundled_library_is_found_and_not_empty():
    assert bundled_dir().is_dir()
    assert len(CLAIMS) > 0


@pytest.mark.parametrize("paper", PAPERS)
def test_each_theorem_module_has_the_docstring_sections(paper):
    doc = ast.get_docstring(ast.parse(paper_path(paper).read_text()))
    assert doc, paper
    for section in ("Main claims", "Encoding notes", "References"):
        assert section in doc, (paper, section)


def test_ids_are_well_formed_unique_and_prefixed_by_their_paper():
    assert len(IDS) == len(CLAIMS)
    for c in CLAIMS:
        assert ID_PATTERN.match(c.id)
        assert c.id.split(".")[0] == c.citation.paper, c.id


def test_every_claim_has_a_citation_location_quote_and_expected_outcome():
    for c in CLAIMS:
        assert c.citation.location and c.citation.quote, c.id
        assert c.expected is not None, c.id
        assert c.statement and c.statement != c.id, c.id


def test_every_finding_names_a_corrected_claim_that_exists():
    for c in CLAIMS:
        if c.finding is not None:
            assert c.finding.corrected == c.id + ".corrected" or c.finding.corrected in IDS, c.id
            assert c.finding.corrected in IDS, c.id
            assert c.finding.counterexample and c.finding.what


def test_patterns_select_by_id_prefix_and_glob():
    assert [c.id for c in select(CLAIMS, ["duchi2010.lemma14"])] == ["duchi2010.lemma14"]
    assert {c.id for c in select(CLAIMS, ["duchi2010.lemma14*"])} >= {"duchi2010.lemma14", "duchi2010.lemma14.all_m"}
    assert len(select(CLAIMS, ["duchi2010"])) == len([c for c in CLAIMS if c.id.startswith("duchi2010.")])


def test_a_paper_split_into_a_package_loads_with_relative_imports(tmp_path):
    pkg = tmp_path / "mine2026"
    pkg.mkdir()
    (pkg / "section2.py").write_text(
        "from symcal import Citation, identity\n"
        "A = identity('mine2026.a', lhs=1, rhs=1, cite=Citation('mine2026', 'Eq. 1', 'one'))\n")
    (pkg / "__init__.py").write_text('"""Mine."""\nfrom .section2 import A\nCLAIMS = [A]\n')
    mod = load_module(pkg / "__init__.py", "symcal_test_pkg_mine2026")
    assert [c.id for c in mod.CLAIMS] == ["mine2026.a"]
    before = source_digest(pkg / "__init__.py")
    (pkg / "section2.py").write_text((pkg / "section2.py").read_text() + "# edited\n")
    assert source_digest(pkg / "__init__.py") != before  # a section's edit changes the module's digest


def test_the_library_ships_in_the_wheel_config():
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"symcal._theorems" = "theorems"' in text


def test_a_command_loads_only_the_papers_its_patterns_can_match():
    # issue 25, item 6: `symcal show ID` and a one-claim check start without building all five papers
    from symcal.library import PAPERS, papers_for

    assert papers_for(["duchi2010.lemma14"]) == ("duchi2010",)
    assert papers_for(["xia2009.*", "duchi2010.lemma14"]) == ("duchi2010", "xia2009")
    # a glob before the first dot, a bare word or no pattern at all: every paper (suggestions need every id)
    assert papers_for(["*lemma14"]) == PAPERS and papers_for(["lemma14"]) == PAPERS
    # a paper key that is no paper's: the nearest paper for the suggestions, or none at all
    assert papers_for(["duchi201.lemma14"]) == ("duchi2010",)
    assert papers_for(["nosuch2026.claim"]) == () and papers_for(["nosuch2026.claim", "xia2009.x"]) == ("xia2009",)
    assert papers_for(None) == PAPERS and papers_for([]) == PAPERS
