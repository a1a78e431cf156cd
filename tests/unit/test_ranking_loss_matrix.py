"""Loss matrices, label sets, decompositions and certified ranks (Ramaswamy et al. 2013)."""

from fractions import Fraction as F

import numpy as np
import pytest

from symcal.errors import InvalidInput
from symcal.ranking.loss_matrix import (
    Decomposition,
    LossMatrix,
    bareiss_det,
    binary_relevance,
    dag_label,
    exact_matmul_equals,
    graded_relevance,
    order_of,
    permutations,
    total_orders,
    unit_dags,
)
from symcal.ranking.subset_losses import (
    eru_discounts,
    eru_loss,
    map_loss,
    named_loss,
    ndcg_loss,
    pd_half_decomposition,
    pd_loss,
    precision_at_q_loss,
    rank_row,
)


def test_label_and_prediction_sets_have_the_paper_sizes():
    assert len(binary_relevance(4)) == 16 and len(binary_relevance(4, nonzero=True)) == 15
    assert len(graded_relevance(3, 2)) == 27
    assert [len(unit_dags(r)) for r in (1, 2, 3, 4)] == [1, 3, 25, 543]
    assert len(total_orders(3)) == 6 and len(permutations(4)) == 24
    assert order_of((2, 3, 1)) == (3, 1, 2)


def test_bareiss_determinant_is_exact_and_detects_singular_minors():
    assert bareiss_det([[2, 1], [1, 3]]) == 5
    assert bareiss_det([[1, 2], [2, 4]]) == 0
    assert bareiss_det([[0, 1], [1, 0]]) == -1


def test_modular_matmul_check_agrees_with_exact_arithmetic_on_huge_integers():
    big = 10**30
    a = np.array([[big, 1], [2, big]], dtype=object)
    b = np.array([[1, big], [3, 1]], dtype=object)
    target = np.array(a.dot(b), dtype=object)
    assert exact_matmul_equals(a, b, 1, 0, target, 1)[0]
    target[1, 0] += 1
    ok, where, _how = exact_matmul_equals(a, b, 1, 0, target, 1)
    assert not ok and where == (1, 0)


def test_a_permutation_matrix_has_rank_two_and_affine_dimension_one():
    loss = LossMatrix.from_rows([[0, 1], [1, 0]])
    assert loss.rank().value == 2
    aff = loss.affine_dimension()
    assert aff.value == 1 and aff.decomposition.c == F(1, 2) and aff.decomposition.check(loss).holds


def test_the_rank_certificate_has_a_nonsingular_minor_and_an_exact_decomposition():
    loss = LossMatrix.from_rows([[1, 2, 3], [2, 4, 6], [1, 0, "1/2"]])
    cert = loss.rank()
    rows, cols, det = cert.minors[0]
    assert cert.value == 2 and det != 0 and len(rows) == len(cols) == 2
    assert cert.decomposition.check(loss).holds


def test_a_wrong_decomposition_is_caught_at_its_entry():
    loss = LossMatrix.from_rows([[0, 1], [1, 0]])
    dec = Decomposition.from_fractions([[0], [1]], [[0], [1]], 0)
    res = dec.check(loss)
    assert not res.holds and res.witness["loss"] == 1


def test_bad_matrices_get_clear_errors():
    with pytest.raises(InvalidInput, match="ragged"):
        LossMatrix.from_rows([[1, 2], [3]])
    with pytest.raises(InvalidInput, match="at least one row"):
        LossMatrix.from_rows([])
    with pytest.raises(InvalidInput, match="non-empty row"):
        LossMatrix.from_rows([[]])
    with pytest.raises(InvalidInput, match=r"matrix\[0\]\[1\]"):
        LossMatrix.from_rows([[1, "abc"]])
    with pytest.raises(InvalidInput, match="not a float"):
        LossMatrix.from_rows([[1, 0.5]])
    with pytest.raises(InvalidInput, match="one per row"):
        LossMatrix.from_rows([[1, 2]], labels=["a", "b"])


def test_a_loss_that_does_not_match_its_label_set_is_refused():
    with pytest.raises(InvalidInput, match="binary relevance"):
        LossMatrix.from_loss(lambda y, s: precision_at_q_loss(y, s, 1), graded_relevance(2, 2), permutations(2))
    with pytest.raises(InvalidInput, match="DagLabel"):
        pd_loss((0, 1), (1, 2))


def test_map_is_undefined_at_the_empty_label_and_says_so():
    assert map_loss((0, 0, 0), (1, 2, 3)) == 1
    assert map_loss((0, 0, 0), (1, 2, 3), empty="zero") == 0
    with pytest.raises(InvalidInput, match="0/0"):
        map_loss((0, 0, 0), (1, 2, 3), empty="error")
    with pytest.raises(InvalidInput, match="empty"):
        map_loss((1, 0), (1, 2), empty="nan")
    assert map_loss((0, 1, 1), (1, 2, 3)) == 1 - (F(1, 2) + F(2, 3)) / 2


def test_eru_needs_rational_discounts_and_w_not_one():
    assert eru_discounts(3, 2) == (1, F(1, 2), F(1, 4))
    assert eru_discounts(2, 0) == (1, 2)
    with pytest.raises(InvalidInput, match="w != 1"):
        eru_discounts(3, 1)
    with pytest.raises(InvalidInput, match="rational"):
        eru_discounts(3, 3)
    assert eru_loss((2, 0, 1), (1, 2, 3), z=3, v=1, w=2) == 2


def test_ndcg_needs_exact_discounts():
    with pytest.raises(InvalidInput, match="irrational"):
        ndcg_loss((1, 0), (1, 2), discounts="log2")
    assert ndcg_loss((0, 1), (1, 2), discounts=(1, F(1, 2))) == F(1, 2)


def test_the_pd_loss_matrix_has_rank_one_more_than_the_papers_bound():
    nl = named_loss("pd", 3)
    assert nl.matrix.shape == (25, 6)
    assert nl.matrix.rank().value == 4 and nl.bound == 3
    assert pd_half_decomposition(nl.matrix, 3, with_offset=True).check(nl.matrix).holds
    assert not pd_half_decomposition(nl.matrix, 3, with_offset=False).check(nl.matrix).holds


def test_fast_matrices_agree_with_the_scalar_definitions():
    nl = named_loss("map", 3)
    ref = LossMatrix.from_loss(map_loss, binary_relevance(3), permutations(3))
    assert nl.matrix.rows() == ref.rows()
    pd = named_loss("pd", 3)
    ref_pd = LossMatrix.from_loss(pd_loss, unit_dags(3), permutations(3))
    assert pd.matrix.rows() == ref_pd.rows()


def test_a_rank_row_reports_the_paper_bound_and_whether_it_holds():
    row = rank_row("map", 4)
    assert row["rank"] == row["affine_dimension"] == 9 and row["paper_bound"] == 10
    assert row["bound_holds"] and not row["tight"] and row["certified"]


def test_dag_labels_are_validated():
    with pytest.raises(InvalidInput, match="cycle"):
        dag_label(3, [(1, 2), (2, 1)])
    assert dag_label(3, {(1, 2): 2}).weight(1, 2) == 2


def test_a_json_file_is_read_with_exact_numbers(tmp_path):
    path = tmp_path / "loss.json"
    path.write_text('{"matrix": [[0, "1/2"], [1, 0]], "labels": ["a", "b"], "predictions": ["s", "t"]}')
    loss = LossMatrix.from_file(path)
    assert loss.value("a", "t") == F(1, 2)
    path.write_text('{"matrix": [[0, 0.5]]}')
    with pytest.raises(InvalidInput, match="float"):
        LossMatrix.from_file(path)
