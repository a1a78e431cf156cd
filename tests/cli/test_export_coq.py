"""``symcal export --coq``: certified claims become Coq files that coqc compiles, a tampered
statement makes coqc fail, claims without a certificate are listed with the reason, and the
s-expression -> Coq translation is right on small terms (that part needs no coqc)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from symcal.certify import farkas_certificate
from symcal.cli import main
from symcal.export_coq import (
    PRELUDE,
    CoqTerms,
    Untranslatable,
    farkas_lemma,
    identity_lemma,
    lemma_name,
    run_coqc,
    witness_lemma,
)
from symcal.kernel import check
from symcal.kernel.sexpr import parse
from symcal.kernel.terms import expand_lets

needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None,
                                reason="coqc is not on PATH (install Coq to compile the exported files)")

# x > 0  ->  2 x > 0, as symcal writes it: the negated claim's query
QUERY = """(declare-fun x () Real)
(assert (< 0.0 x))
(assert (not (< 0.0 (* 2.0 x))))
(check-sat)"""
QUERY_CERT = {"kind": "farkas", "smtlib": QUERY, "tree": {"farkas": [
    [[["<", [["-1", [["x", 1]]]]]], "2"], [[["<=", [["2", [["x", 1]]]]]], "1"]]}}


def sexpr(text: str):
    return expand_lets(parse(text)[0])


# --- the translation, without coqc ------------------------------------------------------------

def test_terms_become_coq_real_arithmetic_with_exact_rationals():
    t = CoqTerms()
    assert t.term(sexpr("(+ x (* 2 y) (- z))")) == "(x + (2 * y) + (- z))"
    assert t.term(sexpr("(/ (- 3) 4)")) == "((- 3) / 4)"
    assert t.term(Fraction(-1, 3)) == "(- (1/3))"
    assert t.term(sexpr("(^ x 3)")) == "(x ^ 3)"
    assert t.term(sexpr("(log (exp x))")) == "(ln (exp x))"
    assert t.term(sexpr("(let ((a (+ x 1))) (* a a))")) == "((x + 1) * (x + 1))"


def test_formulas_become_coq_propositions_and_chains_are_split():
    t = CoqTerms()
    assert t.formula(sexpr("(=> (and (< 0 x) (<= x y)) (not (= x y)))")) == \
        "(((0 < x) /\\ (x <= y)) -> (~ (x = y)))"
    assert t.formula(sexpr("(< 0 x 1)")) == "((0 < x) /\\ (x < 1))"
    assert t.formula(sexpr("(distinct x y)")) == "(x <> y)"


def test_names_that_are_not_coq_identifiers_are_renamed_apart_and_integers_use_IZR():
    t = CoqTerms(sorts={"n": "Int"})
    assert t.term(sexpr("(+ |a[1,2]| |a[1 2]| n exp)")) == "(a_1_2_ + a_1_2__2 + (IZR n) + v_exp)"
    assert t.binders(["a[1,2]", "n"]) == "(a_1_2_ : R) (n : Z)"
    assert lemma_name("duchi2010.lemma14.m3") == "duchi2010_lemma14_m3"


def test_what_has_no_faithful_translation_is_refused_not_guessed():
    t = CoqTerms(sorts={"b": "Bool"})
    with pytest.raises(Untranslatable):
        t.formula(sexpr("(and b (< 0 x))"))
    with pytest.raises(Untranslatable):
        t.term(sexpr("(ite (and (< 0 x) (< x 1)) 1 0)"))  # a condition that is not one comparison
    with pytest.raises(Untranslatable):
        t.term(sexpr("(mod x 2)"))


def test_a_query_lemma_states_the_claim_and_keeps_the_query_itself():
    text = farkas_lemma("twice_positive", QUERY_CERT)
    query = "Lemma twice_positive_query :\n  forall (x : R),\n    (0 < x)\n    -> (~ (0 < (2 * x)))\n    -> False."
    assert query in text
    assert "Lemma twice_positive :\n  forall (x : R),\n    (0 < x)\n    -> (0 < (2 * x))." in text
    assert "Admitted" not in text and "admit" not in text


def test_a_replay_too_large_for_coqc_is_skipped_with_the_reason(monkeypatch):
    # duchi2010.definition8 at m = 6 gave a 4.4 MB lemma that made coqc exhaust 24 GB
    import symcal.export_coq as E

    size = len(farkas_lemma("twice_positive", QUERY_CERT))
    monkeypatch.setattr(E, "MAX_LEMMA_CHARS", size - 1)
    with pytest.raises(Untranslatable, match="KB per lemma that coqc compiles in bounded memory"):
        farkas_lemma("twice_positive", QUERY_CERT)


# --- coqc --------------------------------------------------------------------------------------

def write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.v"
    path.write_text(PRELUDE + "\n" + body + "\n")
    return path


@needs_coqc
def test_a_farkas_lemma_compiles_and_its_flipped_twin_does_not(tmp_path):
    good = farkas_lemma("twice_positive", QUERY_CERT)
    assert run_coqc(write(tmp_path, "good", good))[0]
    flipped = good.replace("-> (0 < (2 * x)).", "-> ((2 * x) < 0).")
    assert flipped != good
    ok, _, err = run_coqc(write(tmp_path, "flipped", flipped))
    assert not ok and "Error" in err


@needs_coqc
def test_a_case_tree_with_an_ite_and_a_quotient_is_replayed_split_by_split(tmp_path):
    from symcal.certify import farkas_certificate
    from symcal.export_coq import _ITE_LEMMAS

    query = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (< 0.0 x))
(assert (= y (ite (<= x 1.0) 1.0 x)))
(assert (not (and (< 0.0 y) (< 1.0 (* x (/ 2.0 x))))))
(check-sat)"""
    cert = farkas_certificate(query, 10.0)
    assert "split" in cert["tree"]
    text = farkas_lemma("ite_and_quotient", cert)
    assert "destruct (Rlt_le_dec" in text and "pose proof (symcal_div 2 x)" in text
    assert "-> (y = (if Rle_dec x 1 then 1 else x))" in text
    path = tmp_path / "ite.v"
    path.write_text(PRELUDE + _ITE_LEMMAS["Rle_dec"] + "\n" + text + "\n")
    assert run_coqc(path)[0]
    good = path.read_text()
    assert good.count("(1 < (x * (2 / x)))") == 2
    path.write_text(good.replace("(1 < (x * (2 / x)))", "(3 < (x * (2 / x)))"))
    assert not run_coqc(path)[0]  # x * (2 / x) = 2 is not > 3


@needs_coqc
def test_a_cases_node_destructs_the_disjunction_one_subtree_per_cube(tmp_path):
    query = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (= (+ x y) 0.5))
(assert (or (and (< x 0.0) (< y 0.0)) (and (> x 1.0) (> y 1.0))))
(check-sat)"""
    x, y = [["1", [["x", 1]]]], [["1", [["y", 1]]]]
    one_minus_x, one_minus_y = [["1", []], ["-1", [["x", 1]]]], [["1", []], ["-1", [["y", 1]]]]
    sum_le, sum_ge = [["-1/2", []], ["1", [["x", 1]]], ["1", [["y", 1]]]], [["1/2", []], ["-1", [["x", 1]]],
                                                                         ["-1", [["y", 1]]]]
    cert = {"kind": "farkas", "smtlib": query, "tree": {
        "cases": [[["<", x], ["<", y]], [["<", one_minus_x], ["<", one_minus_y]]],
        "trees": [{"farkas": [[[["<", x]], "1"], [[["<", y]], "1"], [[["<=", sum_ge]], "1"]]},
                  {"farkas": [[[["<", one_minus_x]], "1"], [[["<", one_minus_y]], "1"], [[["<=", sum_le]], "1"]]}]}}
    text = farkas_lemma("two_cubes", cert)
    assert text.count("destruct C'3 as [C'3|C'3].") == 1 and "destruct C'3 as [K'4 K'5]." in text
    assert run_coqc(write(tmp_path, "cases", text))[0]
    twisted = text.replace("((x > 1) /\\ (y > 1))", "((x > 0) /\\ (y > 0))")  # false: x = y = 1/4
    assert twisted != text
    assert not run_coqc(write(tmp_path, "cases_twisted", twisted))[0]


@needs_coqc
def test_lemmas_are_stated_as_negated_cubes_of_their_own_and_then_used_like_the_query(tmp_path):
    query = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (or (< x 0.0) (> y 1.0)))
(assert (or (> x 1.0) (> y 1.0)))
(assert (or (< y 0.0) (< x 0.5)))
(assert (or (> x 3.0) (< y 0.5)))
(check-sat)"""
    cert = farkas_certificate(query, plain_first=False)
    assert cert["tree"]["lemmas"]
    text = farkas_lemma("learnt", cert)
    n = len(cert["tree"]["lemmas"])
    assert text.count("-> (~ (") == n and all(f"Lemma learnt_lem{k + 1} :" in text for k in range(n))
    assert run_coqc(write(tmp_path, "lemmas", text))[0]
    twisted = text.replace("-> (~ (", "-> (~ ~ (", 1)  # the first lemma's cube claimed instead of refuted
    assert not run_coqc(write(tmp_path, "lemmas_twisted", twisted))[0]


@needs_coqc
def test_a_witness_lemma_compiles_and_a_nudged_point_does_not(tmp_path):
    cert = {"kind": "witness", "values": {"x": "1/2", "y": "3"}, "holds": ["(< 0 x)"], "fails": ["(< y (/ 1 x))"]}
    good = witness_lemma("not_always_below", cert)
    assert good.count("~ (forall (x y : R)") == 1
    assert run_coqc(write(tmp_path, "witness", good))[0]
    nudged = good.replace("(1/2) 3", "(1/4) 3")  # y = 3 < 1/x = 4: the point no longer refutes
    assert nudged != good and not run_coqc(write(tmp_path, "nudged", nudged))[0]


@needs_coqc
def test_an_example_of_an_existence_claim_compiles_and_a_wrong_example_does_not(tmp_path):
    cert = {"kind": "witness", "values": {"x": "1/2", "y": "3"},
            "holds": ["(= (* 2 x) 1)", "(or (< y 0) (> y 2))", "(distinct x y)"]}
    good = witness_lemma("an_example", cert)
    assert "exists (x y : R)" in good and "exists (1/2), 3." in good
    assert run_coqc(write(tmp_path, "example", good))[0]
    wrong = good.replace("exists (1/2), 3.", "exists (1/2), 2.")  # y = 2 is neither < 0 nor > 2
    assert not run_coqc(write(tmp_path, "wrong_example", wrong))[0]


@needs_coqc
def test_an_identity_lemma_needs_its_divisors_non_zero_and_a_wrong_identity_fails(tmp_path):
    cert = {"kind": "identity", "pairs": [["(+ (/ 1 x) (/ 1 y))", "(/ (+ x y) (* x y))"]]}
    good = identity_lemma("sum_of_inverses", cert)
    assert "x <> 0" in good and "((x * y)) <> 0" not in good
    assert run_coqc(write(tmp_path, "identity", good))[0]
    wrong = good.replace("= ((x + y) / (x * y))", "= ((x - y) / (x * y))")
    assert wrong != good and not run_coqc(write(tmp_path, "wrong", wrong))[0]
    shifted = identity_lemma("shifted", {"kind": "identity", "functions": ["phi"],
                                         "pairs": [["(* h (phi (- (+ x t) t)))", "(* (phi x) h)"]]})
    assert "forall (phi : R -> R) (h x t : R)" in shifted
    assert not run_coqc(write(tmp_path, "shifted", shifted))[0]  # phi (x + t - t) and phi x: two atoms
    swapped = identity_lemma("swapped", {"kind": "identity", "functions": ["phi"],
                                         "pairs": [["(* h (+ (phi x) t))", "(+ (* t h) (* (phi x) h))"]]})
    assert run_coqc(write(tmp_path, "swapped", swapped))[0]
    halves = identity_lemma("halves", {"kind": "identity", "pairs": [["(* (/ x 2) (/ x 2))", "(* (/ 1 4) (^ x 2))"]]})
    assert "<> 0" not in halves and run_coqc(write(tmp_path, "halves", halves))[0]  # constants need field, not ring


# Uematsu & Lee (2013), Section 2: 2 p - 1 = 1 - 2 / (1 + p / (1 - p)) and the odds
# (g pi / S) / (1 - g pi / S) = g pi / (g' pi') with S = g pi + g' pi'. field's side conditions
# are 1 - p + p <> 0 (a constant) and g pi + g' pi' - g pi <> 0 (a product of two hypotheses).
NESTED_QUOTIENTS = {
    "regression": ["(- (* 2 p) 1)", "(- 1 (/ 2 (+ 1 (/ p (- 1 p)))))"],
    "odds": ["(/ (/ (* g pi) (- 1 (/ (* g pi) (+ (* g pi) (* h rho))))) (+ (* g pi) (* h rho)))",
             "(/ (/ (* g pi) h) rho)"],
}


@needs_coqc
@pytest.mark.parametrize("shape", sorted(NESTED_QUOTIENTS))
def test_an_identity_whose_side_conditions_are_constants_or_products_of_hypotheses_compiles(tmp_path, shape):
    cert = {"kind": "identity", "pairs": [NESTED_QUOTIENTS[shape]]}
    assert check(cert)["checked"]
    text = identity_lemma(shape, cert)
    ok, _, err = run_coqc(write(tmp_path, shape, text))
    assert ok, err


@needs_coqc
@pytest.mark.parametrize("shape", sorted(NESTED_QUOTIENTS))
def test_a_wrong_identity_of_the_same_shape_is_rejected_by_the_kernel_and_does_not_compile(tmp_path, shape):
    lhs, rhs = NESTED_QUOTIENTS[shape]
    cert = {"kind": "identity", "pairs": [[lhs, rhs.replace("rho", "h").replace("(- 1 (/ 2", "(- 1 (/ 3")]]}
    assert cert["pairs"][0][1] != rhs and not check(cert)["checked"]  # never exported
    assert not run_coqc(write(tmp_path, f"wrong_{shape}", identity_lemma(f"wrong_{shape}", cert)))[0]


@needs_coqc
def test_a_side_condition_no_hypothesis_gives_is_not_closed(tmp_path):
    # 1 / (x - x + y) * y = 1 needs y <> 0, which no divisor of the statement provides
    text = "Lemma unguarded : forall x y : R, x <> 0 -> 1 / (x - x + y) * y = 1.\nProof.\n  intros x y H'1.\n" \
           "  field; repeat split; first [assumption | symcal_nonzero].\nQed."
    assert not run_coqc(write(tmp_path, "unguarded", text))[0]
    guarded = text.replace("x <> 0 ->", "x <> 0 -> y <> 0 ->").replace("H'1.", "H'1 H'2.")
    assert run_coqc(write(tmp_path, "guarded", guarded))[0]


@needs_coqc
def test_admitted_never_counts_as_compiled(tmp_path):
    path = write(tmp_path, "cheat", "Lemma cheat : 1 < 0.\nProof.\nAdmitted.")
    ok, _, err = run_coqc(path)
    assert not ok and "Admitted" in err


@pytest.mark.slow  # 75 files through coqc: about 2 minutes; the smaller Coq tests stay in the default run
@needs_coqc
def test_exported_duchi2010_claims_compile_with_coqc(tmp_path, capsys):
    out = tmp_path / "coq"
    ids = ["duchi2010.theorem11.low_noise", "duchi2010.theorem11.low_noise.corrected",
           "duchi2010.theorem12.low_noise_tight", "duchi2010.lemma10.proof.cond1_form",
           "duchi2010.theorem11.minimiser_outside_a.exp"]
    assert main(["export", "--coq", str(out), *ids, "--check", "--jobs", "1", "--timeout", "20"]) == 0
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("wrote 4 Coq files") and "skipped 1 claims" in summary and "coqc: 4 of 4" in summary
    files = sorted(p.name for p in out.glob("*.v"))
    assert files == ["duchi2010_lemma10_proof_cond1_form.v", "duchi2010_theorem11_low_noise.v",
                     "duchi2010_theorem11_low_noise_corrected.v", "duchi2010_theorem12_low_noise_tight.v"]
    refuted = (out / "duchi2010_theorem11_low_noise.v").read_text()
    assert "claim     : duchi2010.theorem11.low_noise\n" in refuted and "citation  : duchi2010, Theorem 11" in refuted
    assert "Lemma duchi2010_theorem11_low_noise :\n  ~ (forall" in refuted
    index = (out / "README.md").read_text()
    # listed with its reason (no certificate: a numerical confirmation, or a convexity precondition
    # the kernel does not re-check, depending on how the calibration engine decides it)
    assert "| duchi2010.theorem11.minimiser_outside_a.exp | " in index
    for p in out.glob("*.v"):
        assert "Admitted" not in p.read_text()
    # the negative twin: the same file with one inequality of the statement flipped does not compile
    path = out / "duchi2010_lemma10_proof_cond1_form.v"
    atom = "(h23 < ((h12 * h31) * (1 / (h12 + h13))))"
    text = path.read_text()
    assert text.count(atom) == 2  # in the query and in the claim's own form
    path.write_text(text.replace(atom, "(h23 > ((h12 * h31) * (1 / (h12 + h13))))"))
    ok, _, err = run_coqc(path)
    assert not ok and "Error" in err


# --- bad input ---------------------------------------------------------------------------------

def test_check_without_coqc_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["export", "--coq", str(tmp_path / "out"), "duchi2010.theorem12.low_noise_tight", "--check"]) == 2
    err = capsys.readouterr().err
    assert "--check=True: expected coqc on PATH" in err and len(err.strip().splitlines()) == 1


def test_a_file_in_place_of_the_directory_is_a_one_line_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["export", "--coq", str(blocker), "duchi2010.theorem12.low_noise_tight", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "--coq=" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_an_unknown_pattern_is_a_one_line_error(tmp_path, capsys):
    assert main(["export", "--coq", str(tmp_path / "out"), "duchi2010.no_such_claim"]) == 2
    err = capsys.readouterr().err
    assert "pattern='duchi2010.no_such_claim'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
