"""The map of the papers' noise conditions: cells proved by unsat queries, separated by exact
distributions that the conditions' own checks re-decide, and the ``noise-map`` verb."""

import dataclasses
import json
from fractions import Fraction as F

import pytest

from symcal.cli import main
from symcal.errors import SymcalError
from symcal.explore.noise_map import (
    CONDITIONS,
    condition,
    confirmations,
    dag_distribution,
    decide_cell,
    format_maps,
    inclusion_claim,
    noise_map,
    order_preserving_check,
    recheck_separation,
    theorem13_check,
)
from symcal.ranking.loss_matrix import dag_label
from symcal.ranking.noise_sets import duchi_f, in_p_dag, in_p_f


@pytest.fixture(scope="module")
def map3():
    return noise_map(3)


def test_at_n3_every_comparable_cell_is_proved_or_separated(map3):
    for (a, b), cell in map3.cells.items():
        same_space = condition(a).space == condition(b).space
        if a == b:
            assert cell.status == "same"
        elif same_space:
            assert cell.status in ("proved", "separated"), (a, b, cell.evidence)
        else:
            assert cell.status == "not comparable" and "different objects" in cell.evidence


def test_lemma14_is_proved_and_its_converse_separated_at_n3(map3):
    assert map3.status("low_noise", "theorem13") == "proved"
    assert map3.cells[("low_noise", "theorem13")].smtlib  # the negated query, answered unsat
    assert map3.status("theorem13", "low_noise") == "separated"


def test_p_f_with_duchis_f_is_theorem13s_condition_and_p_dag_is_strictly_larger(map3):
    assert map3.status("p_f_dmj", "theorem13") == map3.status("theorem13", "p_f_dmj") == "proved"
    assert map3.status("p_f_dmj", "p_dag") == map3.status("p_f_out", "p_dag") == "proved"
    assert map3.status("p_dag", "p_f_dmj") == "separated"


def test_proposition8_top2_is_inside_top1_but_not_conversely(map3):
    assert map3.status("op_top2", "op_top1") == "proved"
    assert map3.status("op_top1", "op_top2") == "separated"


def test_every_stated_relation_is_confirmed_at_n3(map3):
    verdicts = {(s.a, s.b): v for s, v, _ in confirmations([map3])}
    assert verdicts and set(verdicts.values()) == {"confirmed"}


def test_a_separating_witness_is_an_exact_distribution_the_definitions_re_decide(map3):
    cell = map3.cells[("p_dag", "p_f_dmj")]
    p = list(cell.witness)
    assert sum(pr for _y, pr in p) == 1 and all(isinstance(pr, F) for _y, pr in p)
    assert in_p_dag(p).holds and not in_p_f(p, duchi_f).holds
    assert recheck_separation(cell)


def test_a_tampered_witness_is_rejected(map3):
    cell = map3.cells[("p_dag", "p_f_dmj")]
    # a point mass on one edge is in P_f too: no longer a separation
    tampered = dataclasses.replace(cell, witness=((dag_label(3, [(1, 2)]), F(1)),))
    assert not recheck_separation(tampered)
    # a cycle is not in P_DAG: not in A either
    cycle = tuple((dag_label(3, [e]), F(1, 3)) for e in [(1, 2), (2, 3), (3, 1)])
    assert not recheck_separation(dataclasses.replace(cell, witness=cycle))
    assert not recheck_separation(map3.cells[("low_noise", "theorem13")])  # a proof has no witness


def test_the_witness_distribution_has_the_solvers_expected_weights_up_to_scale():
    p = dag_distribution({"a_1_2": F(2), "a_3_1": F(1)}, 3)
    assert [(str(y), pr) for y, pr in p] == [("{1->2}", F(2, 3)), ("{3->1}", F(1, 3))]
    with pytest.raises(SymcalError):
        dag_distribution({"a_1_2": F(-1)}, 3)


def test_theorem13_check_names_the_failing_pair_and_holds_on_a_chain_with_a_shortcut():
    held = theorem13_check({(1, 2): 1, (2, 3): 1, (1, 3): 3}, 3)
    assert held.holds
    failed = theorem13_check({(1, 2): 1, (2, 3): 2}, 3)  # net scores 1, 1, -2: 1 -> 2 but not 1 > 2
    assert not failed.holds and (failed.witness["i"], failed.witness["k"]) == (1, 2)
    assert not theorem13_check({(1, 2): 1, (2, 3): 1, (3, 1): 1}, 3).holds  # a cycle


def test_order_preserving_check_counts_subgroups_and_rejects_a_tie():
    p = [((1, 2, 3), F(1, 2)), ((1, 3, 2), F(1, 4)), ((3, 1, 2), F(1, 4))]
    assert order_preserving_check(p, 1).holds and order_preserving_check(p, 2).holds
    tie = [((1, 2, 3), F(1, 2)), ((2, 1, 3), F(1, 2))]
    res = order_preserving_check(tie, 1)
    assert not res.holds and res.witness["P(G_k(y))"] == res.witness["P(G_k(swapped))"] == "1/2"


def test_bad_arguments_are_one_line_errors():
    with pytest.raises(SymcalError, match="n=2"):
        noise_map(2)
    with pytest.raises(SymcalError, match="condition='nope'"):
        decide_cell("nope", "p_dag", 3)
    with pytest.raises(SymcalError):
        order_preserving_check([((1, 1, 2), F(1))], 1)
    with pytest.raises(SymcalError, match="same labels"):
        inclusion_claim("low_noise", "op_top1")  # different objects: no claim


def test_an_inclusion_is_one_claim_over_the_sizes_for_a_theorem_library():
    from symcal import check

    assert check(inclusion_claim("op_top2", "op_top1", (3, 3)), isolate=False).status.value == "proved"
    twin = check(inclusion_claim("op_top1", "op_top2", (3, 3), expected="refuted"), isolate=False)
    assert twin.status.value == "refuted" and twin.witness.rechecked


def test_every_condition_has_a_formula_and_a_citation():
    for c in CONDITIONS:
        assert c.paper and c.location and c.quote and c.formula(3) is not None


def test_the_table_prints_marks_and_the_stated_relations(map3):
    text = format_maps([map3])
    assert "n = 3 (22 of 22 comparable cells decided" in text
    assert "confirmed    LN ⊆ T13 -- duchi2010, Lemma 14" in text


def test_the_drawing_is_written(map3, tmp_path):
    pytest.importorskip("matplotlib")
    from symcal.explore.noise_map import inclusion_graph
    from symcal.report.noise_map import draw

    g = inclusion_graph([map3])
    assert g.has_edge("op_top2", "op_top1") and not g.has_edge("op_top1", "op_top2")
    assert g.has_edge("theorem13", "p_f_dmj") and g.has_edge("p_f_dmj", "theorem13")
    assert not g.has_edge("low_noise", "p_dag")  # implied through T13: the transitive reduction
    out = draw([map3]).save(tmp_path / "map.png")
    assert out.stat().st_size > 10_000


@pytest.mark.parametrize("args, needle", [
    (["--n", "7"], "--n='7': expected a whole number from 3 to 6"),
    (["--n", "x"], "--n='x'"),
    (["--n", "3", "--draw", "map.jpg"], "--draw='map.jpg'"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, args, needle):
    with pytest.raises(SystemExit) as e:
        main(["noise-map", *args])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1


def test_cli_json_is_only_json(capsys):
    assert main(["noise-map", "--n", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cells = {(c["a"], c["b"]): c for c in data["maps"][0]["cells"]}
    assert cells[("p_dag", "p_f_dmj")]["status"] == "separated" and cells[("p_dag", "p_f_dmj")]["witness"]
    assert {s["verdict"] for s in data["statements"]} == {"confirmed"}


@pytest.mark.slow
def test_every_cell_is_decided_at_n3_to_n5():
    from symcal.explore.noise_map import noise_maps

    maps = noise_maps((3, 4, 5))
    assert not [c for m in maps for c in m.cells.values() if c.status == "unknown"]
    assert {v for _s, v, _d in confirmations(maps)} == {"confirmed"}
    assert all(recheck_separation(c) for m in maps for c in m.cells.values() if c.status == "separated")


def test_each_formula_agrees_with_its_membership_check_on_seeded_distributions():
    """What the proofs decide (the formulas) is what the checks decide on label distributions."""
    import random

    import sympy

    from symcal.explore.noise_map import perm_distribution

    rng = random.Random(26)
    n = 3
    for c in CONDITIONS:
        if c.space == "binary":
            continue
        formula = c.formula(n)
        free = sorted(formula.free_symbols, key=str)
        agree = {True: 0, False: 0}
        for _ in range(40):
            if c.space == "dag":
                values = {s: F(rng.choice([0, 0, 1, 2, 3])) for s in free}
                if not any(values.values()):
                    continue
                dist = dag_distribution({str(s): v for s, v in values.items()}, n)
                total = sum(values.values())
                values = {s: v / total for s, v in values.items()}  # the expectations of dist
            else:
                weights = {s: rng.choice([0, 0, 1, 2, 5]) for s in free} | {free[0]: 1}
                total = sum(weights.values())
                values = {s: F(w, total) for s, w in weights.items()}
                dist = perm_distribution({str(s): v for s, v in values.items()}, n)
            truth = bool(formula.xreplace({s: sympy.Rational(v.numerator, v.denominator) for s, v in values.items()}))
            assert truth == c.member(dist).holds, (c.key, values)
            agree[truth] += 1
        assert agree[True] and agree[False], (c.key, agree)  # both outcomes exercised
