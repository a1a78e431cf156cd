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


# --------------------------------------------------------------------------- issue 13: strict, sized, fast

import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

import sympy  # noqa: E402

import symcal.ranking.loss_matrix as lm  # noqa: E402


@pytest.mark.parametrize("labels, preds, param", [
    (["a", "b", "a"], None, "labels[2]"),
    (None, [(1, 2), (1, 2)], "predictions[1]"),
    ([[0, 1], [1, 0], [0, 1]], None, "labels[2]"),  # unhashable, compared by value
])
def test_duplicate_labels_or_predictions_are_refused_naming_the_repeat(labels, preds, param):
    rows = [[1, 2], [3, 4], [5, 6]]
    if preds is not None:
        rows = [[1, 2], [3, 4]]
    with pytest.raises(InvalidInput) as err:
        LossMatrix.from_rows(rows, labels=labels, predictions=preds)
    assert err.value.param == param and "repeats" in str(err.value)
    LossMatrix.from_rows(rows)  # the twin: default names are distinct


def test_duplicate_labels_in_a_file_are_refused(tmp_path):
    p = tmp_path / "dup.json"
    p.write_text(json.dumps({"matrix": [[0, 1], [1, 0]], "labels": [[1, 0], [1, 0]]}))
    with pytest.raises(InvalidInput, match=r"labels\[1\]"):
        LossMatrix.from_file(p)


def test_a_matrix_beyond_the_entry_limit_is_refused_with_its_size(monkeypatch):
    monkeypatch.setattr(lm, "MAX_ENTRIES", 5)
    with pytest.raises(InvalidInput, match=r"2 x 3 = 6 entries; at most 5"):
        LossMatrix.from_rows([[1, 2, 3], [4, 5, 6]])
    LossMatrix.from_rows([[1, 2], [3, 4]])


def test_a_named_loss_too_large_for_the_machine_is_refused_before_it_is_built():
    t = time.process_time()
    with pytest.raises(InvalidInput) as err:
        named_loss("pd", 8, labels="total_orders")
    assert time.process_time() - t < 1
    assert err.value.param == "r" and "40,320 x 40,320 = 1.6e9 entries; at most 5e7" in str(err.value)
    with pytest.raises(InvalidInput, match="6,561 x 40,320"):
        named_loss("eru", 8)
    assert named_loss("pd", 4, labels="total_orders").matrix.shape == (24, 24)


def random_low_rank(rng, n, k, r, c=0):
    a = [[rng.randint(-3, 3) for _ in range(r)] for _ in range(n)]
    b = [[rng.randint(-3, 3) for _ in range(k)] for _ in range(r)]
    return [[sum(a[i][t] * b[t][j] for t in range(r)) + c for j in range(k)] for i in range(n)]


def test_the_flint_engine_and_the_fallback_certify_the_same_ranks_and_affine_dimensions(monkeypatch):
    pytest.importorskip("flint")
    rng = random.Random(17)
    for _ in range(60):
        n, k = rng.randint(1, 7), rng.randint(1, 7)
        rows = random_low_rank(rng, n, k, rng.randint(0, min(n, k)), rng.choice([0, 1, F(1, 2)]))
        mat = LossMatrix.from_rows(rows)
        monkeypatch.setattr(lm, "USE_FLINT", None)
        rk, af = mat.rank(), None
        af = mat.affine_dimension(base=rk)
        monkeypatch.setattr(lm, "USE_FLINT", False)
        rk0 = mat.rank()
        af0 = mat.affine_dimension(base=rk0)
        assert rk.certified and af.certified and rk0.certified and af0.certified
        assert rk.value == rk0.value == sympy.Matrix(rows).rank() and af.value == af0.value
        assert rk.decomposition.check(mat).holds
        if af.decomposition is not None:
            assert af.decomposition.d == af.value and af.decomposition.check(mat).holds


@pytest.mark.parametrize("rows, rank, affine, why", [
    ([[0, 1], [1, 0]], 2, 1, "column and row spaces"),
    ([[1, 2], [3, 4]], 2, 2, "1^T M^-1 1 = 0"),
    ([[1, 0], [0, 1], [1, 1]], 2, 2, "not in the column space"),
    ([[1, 0, 1], [0, 1, 1]], 2, 2, "not in the row space"),
])
def test_the_affine_dimension_is_certified_by_the_column_and_row_spaces_of_one(rows, rank, affine, why):
    pytest.importorskip("flint")
    mat = LossMatrix.from_rows(rows)
    af = mat.affine_dimension()
    assert mat.rank().value == rank and af.value == affine and af.certified
    assert any(why in note for note in af.notes), af.notes


def test_large_minors_are_certified_by_a_determinant_modulo_a_prime(monkeypatch):
    pytest.importorskip("flint")
    monkeypatch.setattr(lm, "EXACT_DET_MAX", 2)
    rows = [[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8], [9, 7, 9, 3]]
    cert = LossMatrix.from_rows(rows).rank()
    det = cert.minors[0][2]
    assert cert.value == 4 and isinstance(det, lm.ModularDeterminant)
    assert det.residue == int(sympy.Matrix(rows).det()) % det.modulus != 0
    af = LossMatrix.from_rows(rows).affine_dimension(base=cert)
    assert af.value == 3 and af.certified


def test_a_300_by_300_random_matrix_is_certified_in_seconds():
    pytest.importorskip("flint")
    rows = np.random.default_rng(1).integers(0, 10, size=(300, 300)).tolist()
    t = time.process_time()
    mat = LossMatrix.from_rows(rows)
    rk = mat.rank()
    af = mat.affine_dimension(base=rk)
    assert time.process_time() - t < 30
    assert rk.value == 300 and af.value == 299 and af.decomposition.check(mat).holds


def test_a_wrong_entry_is_still_caught_where_the_check_compares_unit_rows_directly():
    rows = [[1, 2, 3], [4, 5, 6]]
    mat = LossMatrix.from_rows(rows)
    eye = Decomposition(np.eye(2, dtype=np.int64), 1, np.array([[1, 4], [2, 5], [3, 7]]), 1, F(0), ("a", "b"))
    res = eye.check(mat)
    assert not res.holds and res.witness["prediction"] == "t3" and res.witness["label"] == "y2"
    right = Decomposition(np.eye(2, dtype=np.int64), 1, np.array([[1, 4], [2, 5], [3, 6]]), 1, F(0), ("a", "b"))
    assert right.check(mat).holds
