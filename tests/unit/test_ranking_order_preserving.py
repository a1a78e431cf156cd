"""symcal.ranking.order_preserving: measures and surrogates checked on small distributions."""

from fractions import Fraction as F

import pytest

from symcal.calibration.order import surrogate_order_check
from symcal.errors import InvalidInput
from symcal.ranking.measures import average_precision, dcg, err, precision_at
from symcal.ranking.order_preserving import (
    exp_phi,
    hinge,
    measure_order_check,
    pairwise_proposed,
    pairwise_usual,
)

THM33 = [((1, 1, 0, 0), F(1, 2)), ((0, 0, 1, 1), F(1, 2))]
REMARK2 = [((0, 0, 1), F(1, 2)), ((0, 2, 0), F(1, 2))]


def test_a_gppm_is_maximised_by_sorting_by_expected_utility_and_err_is_not():
    d = dcg(3, grades=2, discount=lambda i: F(1, i))
    r = measure_order_check(d, [((2, 0, 1), F(1, 3)), ((0, 1, 1), F(2, 3))])
    assert r.holds and r.utility == (1, F(2, 3), 1)
    bad = measure_order_check(err(4), THM33, utility=lambda y: (1, 1, 1, 1))
    assert not bad.holds and bad.witness["value"] < bad.witness["best_value"]
    with pytest.raises(InvalidInput, match="utility"):
        measure_order_check(average_precision(4), THM33)
    assert measure_order_check(precision_at(4, 2), THM33).holds


def test_the_usual_pairwise_hinge_is_not_order_preserving_and_the_proposed_one_is_exactly():
    usual = surrogate_order_check(pairwise_usual(hinge), REMARK2, 3)
    assert usual.holds is False and usual.exact and usual.witness["pair"] == (2, 3)
    assert usual.witness["risk"] == usual.min_risk == 1
    proposed = surrogate_order_check(pairwise_proposed(hinge), REMARK2, 3)
    assert proposed.holds is True and proposed.exact and min(proposed.pair_minima.values()) == F(3, 2)


def test_a_smooth_surrogate_is_only_checked_numerically_and_stays_undecided():
    # a local optimiser's gap never decides a user's check (issue 11, item 5): holds is None
    r = surrogate_order_check(pairwise_proposed(exp_phi), REMARK2, 3)
    assert r.exact is False and r.holds is None and "never a proof" in r.reason
    assert "suggests order-preserving" in r.reason


def test_bad_distributions_are_refused():
    with pytest.raises(InvalidInput, match="sum"):
        surrogate_order_check(pairwise_usual(hinge), [((0, 0, 1), F(1, 2))], 3)
    with pytest.raises(InvalidInput, match="3 utilities"):
        surrogate_order_check(pairwise_usual(hinge), [((0, 1), F(1))], 3)


def test_the_ranking_package_imports_no_solver_and_no_backend():
    # the domain layer (issue 11, item 6): solver work lives in symcal.calibration / symcal.backends
    import ast
    from pathlib import Path

    import symcal.ranking as ranking

    bad = []
    for f in Path(ranking.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            bad += [f"{f.name}: {n}" for n in names if n.split(".")[0] in ("z3", "cvc5")
                    or n.startswith("symcal.backends") or n.startswith("symcal.calibration")]
    assert not bad, bad
