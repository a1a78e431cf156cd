"""Every bundled claim has a negative twin declared beside it in its theorem module (TWINS), or
is a recorded erratum (its own twin; for mutation testing its twin is its corrected statement).
The twins are decided by each paper's test module and by `symcal selftest --mutants` (operator
`twin`); here they are only declared, built and checked for shape, so the default run decides
no twin twice."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from symcal.explore import mutants as M
from symcal.explore.twins import EXPECT, bundled_twins, file_twins, twins_for
from symcal.library import load_bundled
from symcal.verdicts import Status

CLAIMS = load_bundled()
BY_ID = {c.id: c for c in CLAIMS}
TWINS = bundled_twins()  # raises on a malformed TWINS / TWIN_EXPECT / EXTRA_TWINS

# claims with neither a twin nor a finding, each with the reason (none today)
WITHOUT_TWIN: dict[str, str] = {}


@pytest.mark.parametrize("cid", sorted(BY_ID))
def test_every_claim_declares_a_negative_twin_or_is_a_recorded_erratum(cid):
    c = BY_ID[cid]
    assert cid in TWINS or c.finding is not None or cid in WITHOUT_TWIN, f"{cid}: no twin in its module's TWINS"


def test_an_erratum_declares_no_twin_of_its_own_and_the_exemption_list_is_empty():
    errata = {c.id for c in CLAIMS if c.finding is not None}
    assert not errata & set(TWINS)
    assert not WITHOUT_TWIN


def test_twins_name_only_claims_of_the_library():
    assert set(TWINS) <= set(BY_ID)


def test_each_twin_builds_a_claim_of_its_own_id_beside_no_library_claim():
    seen: set[str] = set()
    for cid, twins in TWINS.items():
        for t in twins:
            built = t.make()
            assert ".twin" in built.id and built.id not in BY_ID, (cid, built.id)
            assert built.id not in seen, f"two twins share the id {built.id}"
            seen.add(built.id)


def test_the_expected_outcome_follows_what_the_paper_says():
    # a claim the paper calls false has a twin that holds; a numeric claim's twin is not confirmed
    for cid, twins in TWINS.items():
        c = BY_ID[cid]
        for t in twins:
            assert t.expect in EXPECT
            if c.expected is Status.REFUTED:
                assert t.expect == "proved", cid
            elif c.kind == "numeric":
                assert t.expect == "unknown", cid
            else:
                assert t.expect == "refuted", cid


def test_every_erratum_gets_its_corrected_statement_as_its_mutation_twin():
    twins = twins_for(CLAIMS)
    for c in CLAIMS:
        if c.finding is not None:
            (t,) = twins[c.id]
            assert t.expect == "proved" and t.make() is BY_ID[c.finding.corrected]
    assert set(twins) == set(BY_ID)


def test_every_claim_of_the_library_has_at_least_one_mutant():
    # the symbolic operators where they apply, the twin everywhere
    twins = twins_for(CLAIMS)
    without = [c.id for c in CLAIMS if not (twins.get(c.id) or M.mutants_of(c)[0])]
    assert not without


USER_FILE = textwrap.dedent('''
    import sympy
    from symcal import Citation, finite_check, implies

    x = sympy.Symbol("x", real=True)
    C = Citation("mine2026", "Lemma 1", "x >= 2 implies x >= 1")

    def step(cid, bound):
        return implies(cid, hypotheses={"big": [x >= 2]}, conclusion=x >= bound, cite=C, statement="a step")

    def table(cid, limit):
        return finite_check(cid, cases=range(1, 6), holds=lambda k: k * k <= limit, domain="k = 1..5", cite=C,
                            statement="k^2 <= 25")

    CLAIMS = [step("mine2026.step", 1), table("mine2026.table", 25)]
    TWINS = {
        "mine2026.step": lambda: step("mine2026.step.twin", 3),           # x >= 3 fails at x = 2: refuted
        "mine2026.table": lambda: table("mine2026.table.twin", 24),        # 5^2 > 24: refuted
    }
''')


@pytest.fixture()
def user_file(tmp_path):
    p = tmp_path / "mine.py"
    p.write_text(USER_FILE)
    return p


def test_a_users_file_declares_twins_the_same_way(user_file):
    twins = file_twins(user_file)
    assert set(twins) == {"mine2026.step", "mine2026.table"}
    assert [t.expect for t in twins["mine2026.table"]] == ["refuted"]


def test_a_twin_naming_no_claim_of_the_file_is_an_error(tmp_path):
    from symcal.errors import InvalidClaim

    p = tmp_path / "bad.py"
    p.write_text(USER_FILE + '\nTWINS["mine2026.nope"] = TWINS["mine2026.step"]\n')
    with pytest.raises(InvalidClaim, match="mine2026.nope"):
        file_twins(p)


def test_the_twin_operator_kills_a_refuted_twin_and_reports_a_twin_that_holds(user_file, tmp_path):
    from symcal.library import load_file

    claims = load_file(user_file)
    report = M.run_selftest(claims, timeout=10, jobs=1, twins=file_twins(user_file))
    twin_rows = {r.mutant.original.id: r for r in report.results if r.mutant.operator == "twin"}
    assert twin_rows["mine2026.table"].outcome == "killed"  # the finite_check had no operator before
    assert twin_rows["mine2026.step"].outcome == "killed"
    assert report.claims_mutated == report.claims == 2

    holds = tmp_path / "holds.py"
    holds.write_text(USER_FILE.replace('table("mine2026.table.twin", 24)', 'table("mine2026.table.twin", 26)'))
    claims = load_file(holds)
    report = M.run_selftest(claims, timeout=10, jobs=1, twins=file_twins(holds))
    (row,) = [r for r in report.results if r.mutant.operator == "twin" and r.mutant.original.id == "mine2026.table"]
    assert row.outcome == "survived" and row.why.startswith("FINDING")


def test_selftest_json_reports_coverage_kill_rate_and_time_for_a_users_file(user_file):
    out = subprocess.run([sys.executable, "-m", "symcal", "selftest", "--mutants", "--theorems", str(user_file),
                          "--json", "--jobs", "1"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["claims"] == 2 and data["claims_mutated"] == 2 and data["unsound"] == 0
    assert data["by_operator"]["twin"]["killed"] == 2
    assert data["seconds"] > 0 and data["slowest"]
