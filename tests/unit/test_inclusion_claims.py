"""The library claims decided by symcal's own machinery: the papers' stated inclusions between noise
conditions (the noise-condition map, ``symcal.explore.noise_map``) and the papers' stated surrogate
dimensions (the convex-calibration-dimension bracket, ``symcal.calibration.dimension``).

Each noise-map claim must agree with the map's own cell at the smallest size, where a separation
is an exact label distribution that the conditions' membership checks (code written apart from the
formulas) re-decide; every stated relation of the map is a library claim; a dimension claim's kernel
statement is accepted by the kernel for the claim and rejected for its twin."""

from __future__ import annotations

import pytest

from symcal.explore.noise_map import CONDITIONS, STATEMENTS, condition, decide_cell, recheck_separation
from symcal.kernel import check as kernel_check
from symcal.library import load_bundled, load_paper
from symcal.verdicts import Status

LIBRARY = {c.id: c for c in load_bundled()}
D = load_paper("duchi2010", "symcal_test_inclusion_claims_duchi2010")
R = load_paper("ramaswamy2013", "symcal_test_inclusion_claims_ramaswamy2013")
TWINS = {**D.TWINS, **R.TWINS}
NOISE_MAP = sorted(cid for cid in LIBRARY if ".noise_map." in cid)
DIMENSION = sorted(c.id for c in R.SD.CLAIMS)

# the map's stated relations and the library claims that decide them (the older ones encode the same
# statement through their own formulas; the noise_map ones through the map's)
STATED = {
    ("low_noise", "p_dag"): "duchi2010.definition8.difference_graph_is_dag",
    ("low_noise", "theorem13"): "duchi2010.noise_map.low_noise_in_theorem13",
    ("theorem13", "low_noise"): "duchi2010.lemma14.converse",
    ("p_f_dmj", "theorem13"): "ramaswamy2013.noise_map.p_f_dmj_in_theorem13",
    ("theorem13", "p_f_dmj"): "ramaswamy2013.noise_map.theorem13_in_p_f_dmj",
    ("p_f_dmj", "p_dag"): "ramaswamy2013.theorem7.p_dag_contains_p_f",
    ("p_f_out", "p_dag"): "ramaswamy2013.theorem7.p_dag_contains_p_f",
    ("p_dag", "p_f_dmj"): "ramaswamy2013.noise_map.p_dag_in_p_f_dmj",
    ("op_top2", "op_top1"): "xia2009.proposition8",
    ("op_top1", "op_top2"): "xia2009.proposition8.converse_fails",
}


def pair_of(claim) -> tuple[str, str]:
    """``(a, b)`` of an inclusion claim built by the map: ``a`` is its hypothesis beside ``space``, ``b``
    the condition whose formula is its conclusion (read off the claim, not its id: a twin keeps the id
    of its claim)."""
    (a,) = [h for h in claim.hypothesis_names if h != "space"]
    conclusion = claim.spec.conclusion(3)
    (b,) = [c.key for c in CONDITIONS if c.space == "dag" and c.formula(3) == conclusion]
    return a, b


def test_the_library_has_the_six_new_noise_map_claims_and_each_names_two_conditions_on_the_same_labels():
    assert NOISE_MAP == sorted([
        "duchi2010.noise_map.low_noise_in_theorem13",
        "ramaswamy2013.noise_map.low_noise_in_p_f_dmj",
        "ramaswamy2013.noise_map.p_dag_in_p_f_dmj",
        "ramaswamy2013.noise_map.p_dag_in_p_f_out",
        "ramaswamy2013.noise_map.p_f_dmj_in_theorem13",
        "ramaswamy2013.noise_map.theorem13_in_p_f_dmj",
    ])
    for cid in NOISE_MAP:
        a, b = pair_of(LIBRARY[cid])
        assert cid.endswith(f".noise_map.{a}_in_{b}"), cid
        assert condition(a).space == condition(b).space == "dag", cid
        assert LIBRARY[cid].kind == "implies" and a in LIBRARY[cid].hypothesis_names, cid


def test_every_relation_the_map_records_as_stated_by_a_paper_is_a_library_claim():
    for s in STATEMENTS:
        cid = STATED[(s.a, s.b)]
        assert cid in LIBRARY, (s.a, s.b)
        want = Status.PROVED if s.kind == "subset" else (Status.REFUTED, Status.WITNESSED)
        assert LIBRARY[cid].expected in (want if isinstance(want, tuple) else (want,)), cid


def test_a_pair_the_map_never_stated_has_no_entry_in_the_stated_table():
    assert ("p_f_out", "theorem13") not in STATED and ("p_dag", "low_noise") not in STATED


@pytest.mark.parametrize("cid", NOISE_MAP)
def test_a_noise_map_claim_agrees_with_the_maps_cell_at_three_items(cid):
    a, b = pair_of(LIBRARY[cid])
    cell = decide_cell(a, b, 3, timeout=30)
    if LIBRARY[cid].expected is Status.PROVED:
        assert cell.status == "proved", cell.evidence
    else:
        assert cell.status == "separated" and recheck_separation(cell), cell.evidence


@pytest.mark.parametrize("cid", NOISE_MAP)
def test_its_negative_twin_is_decided_the_other_way_by_the_map_at_three_items(cid):
    twin = TWINS[cid]()
    a, b = pair_of(twin)
    assert (a, b) != pair_of(LIBRARY[cid])
    cell = decide_cell(a, b, 3, timeout=30)
    if LIBRARY[cid].expected is Status.PROVED:  # the twin must be separated by an exact distribution
        assert cell.status == "separated" and recheck_separation(cell), (twin.id, cell.evidence)
    else:  # a stated non-inclusion's twin is the true reverse inclusion
        assert cell.status == "proved", (twin.id, cell.evidence)


def test_a_separating_distribution_read_against_the_reverse_pair_fails_the_recheck():
    cell = decide_cell("theorem13", "low_noise", 3, timeout=30)
    assert cell.status == "separated" and recheck_separation(cell)
    swapped = type(cell)(cell.b, cell.a, cell.n, cell.status, cell.evidence, witness=cell.witness)
    assert not recheck_separation(swapped)


def test_the_dimension_claims_cover_the_four_losses_and_their_stated_and_quoted_dimensions():
    assert len(DIMENSION) == 12
    for loss in ("precision", "eru", "map", "pd"):
        assert f"ramaswamy2013.{loss}.cc_dim_upper" in DIMENSION and f"ramaswamy2013.{loss}.cc_dim_exact" in DIMENSION
    for loss in ("map", "pd"):
        assert LIBRARY[f"ramaswamy2013.{loss}.no_r_dimensional_surrogate"].finding is not None
    for cid in DIMENSION:
        if cid.endswith("cc_dim_exact"):
            assert LIBRARY[cid].statement.startswith("exploration beyond the paper"), cid


@pytest.mark.parametrize("cid", ["ramaswamy2013.precision.cc_dim_upper", "ramaswamy2013.map.cc_dim_upper",
                                 "ramaswamy2013.pd.cc_dim_upper"])
def test_the_kernel_recomputes_the_rank_of_the_double_differences_for_the_claim_and_rejects_its_twin(cid):
    claim, twin = LIBRARY[cid], TWINS[cid]()
    r = 3
    assert kernel_check(claim.spec.kernel(r))["checked"], cid
    got = kernel_check(twin.spec.kernel(r))
    assert not got["checked"] and got["reason"], cid


def test_the_upper_end_of_pd_at_three_documents_is_the_rank_of_its_double_differences():
    d = R.SD.double_differences("pd", 3)
    assert d.shape == (24, 5) and d.rank().value == 3
    assert R.SD.bracket("pd", 3).upper == 3
