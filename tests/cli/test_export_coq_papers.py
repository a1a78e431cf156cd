"""``symcal export --coq DIR --from-certificates CERTS``, one paper at a time: a small claim of each
paper, certified by ``symcal check --certificates``, becomes a Coq file that coqc compiles; its
negative twin is a tampered copy that coqc rejects, or a claim without a certificate that the index
lists with the reason.  Also: a lemma chain becomes lemmas of their own, a long replay several
files that import each other, and a missing certificate folder is a one-line error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from symcal.cli import main
from symcal.export_coq import PRELUDE, farkas_lemmas, run_coqc

needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None,
                                reason="coqc is not on PATH (install Coq to compile the exported files)")


def certify_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str], *ids: str, size: str = "") -> Path:
    """Certificates of ``ids`` into tmp_path/certs, then their Coq export (compiled) into tmp_path/coq."""
    certs, out = tmp_path / "certs", tmp_path / "coq"
    args = ["check", *ids, "--certificates", str(certs), "--jobs", "1", "--no-cross-check", "--timeout", "30"]
    main([*args, *(["--size", size] if size else [])])
    capsys.readouterr()
    assert main(["export", "--coq", str(out), "--from-certificates", str(certs), *ids, "--check"]) == 0
    return out


def tampered_fails(path: Path, old: str, new: str) -> None:
    """``path`` with ``old`` replaced by ``new`` (it must occur) does not compile."""
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    ok, _, err = run_coqc(path)
    assert not ok and "Error" in err


@needs_coqc
def test_a_duchi2010_farkas_claim_compiles_and_its_flipped_twin_does_not(tmp_path, capsys):
    out = certify_and_export(tmp_path, capsys, "duchi2010.lemma10.proof.cond1_form")
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("wrote 1 Coq files") and "coqc: 1 of 1 compile" in summary
    path = out / "duchi2010_lemma10_proof_cond1_form.v"
    assert "from duchi2010.lemma10.proof.cond1_form.json" in path.read_text()
    atom = "(h23 < ((h12 * h31) * (1 / (h12 + h13))))"
    tampered_fails(path, atom, "(h23 > ((h12 * h31) * (1 / (h12 + h13))))")


@needs_coqc
def test_a_ramaswamy2013_identity_compiles_and_a_claim_without_certificate_is_listed(tmp_path, capsys):
    out = certify_and_export(tmp_path, capsys, "ramaswamy2013.corollary5.u_tilde_is_diagonal",
                             "ramaswamy2013.lemma8.proof.swap_step")
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("wrote 1 Coq files") and "skipped 1 claims" in summary
    index = (out / "README.md").read_text()
    assert "| ramaswamy2013.lemma8.proof.swap_step | no certificate (" in index
    assert (out / "ramaswamy2013_corollary5_u_tilde_is_diagonal.v").exists()


@needs_coqc
def test_a_xia2009_identity_compiles_and_a_changed_side_does_not(tmp_path, capsys):
    out = certify_and_export(tmp_path, capsys, "xia2009.cosine.difference_identity")
    path = out / "xia2009_cosine_difference_identity.v"
    text = path.read_text()
    assert "field" in text and "Admitted" not in text
    statement = text[text.index("Lemma "):text.index("Proof.")]
    lhs = statement.rsplit(" = ", 1)[0].rsplit("\n", 1)[-1]
    tampered_fails(path, statement, statement.replace(lhs, lhs.replace("(", "(2 * ", 1), 1))


@needs_coqc
def test_a_xia2009_example_with_powers_at_a_rational_point_compiles_and_a_reversed_one_does_not(tmp_path, capsys):
    """The cosine loss's example: its inequality between terms with Rpower at the point needs the
    powers' signs (symcal_atoms: exp/Rpower/sqrt as positive atoms, then nra), not only lra."""
    out = certify_and_export(tmp_path, capsys, "xia2009.cosine.not_top_k_order_sensitive")
    path = out / "xia2009_cosine_not_top_k_order_sensitive.v"
    text = path.read_text()
    assert "symcal_atoms; nra" in text and "Rpower" in text
    # the twin: the claimed strict inequality reversed is false at the point, so no tactic proves it
    start = text.index("Lemma xia2009")
    statement = text[start:text.index("Proof.", start)]
    assert statement.count(")))) > ((1/2)") == 1
    tampered_fails(path, statement, statement.replace(")))) > ((1/2)", ")))) < ((1/2)"))


@needs_coqc
def test_a_uematsu2013_farkas_claim_compiles_and_an_unfinished_proof_does_not(tmp_path, capsys):
    out = certify_and_export(tmp_path, capsys, "uematsu2013.corollary1.proof.monotone")
    path = out / "uematsu2013_corollary1_proof_monotone.v"
    text = path.read_text()
    lemma = text.index("Lemma uematsu2013")
    tampered_fails(path, text[lemma:], text[lemma:].replace("lra.", "idtac.", 1))


@needs_coqc
def test_uematsu2013s_section2_identities_with_nested_quotients_compile_and_changed_sides_do_not(tmp_path, capsys):
    # Uematsu & Lee (2013), Section 2: field leaves 1 - p + p <> 0 and g pi + g' pi' - g pi <> 0,
    # which symcal_nonzero closes from e = 0 (ring-simplified) and the divisors' hypotheses
    ids = ("uematsu2013.section2.regression_identity", "uematsu2013.section2.odds_proportional_to_likelihood_ratio")
    out = certify_and_export(tmp_path, capsys, *ids)
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("wrote 2 Coq files") and "coqc: 2 of 2 compile" in summary
    for claim in ids:
        path = out / f"{claim.replace('.', '_')}.v"
        text = path.read_text()
        statement = text[text.index("Lemma "):text.index("Proof.")]
        lhs = statement.rsplit(" = ", 1)[0].rsplit("\n", 1)[-1]
        tampered_fails(path, statement, statement.replace(lhs, lhs.replace("(", "(2 * ", 1), 1))


@needs_coqc
def test_a_calauzenes2013_sized_claim_compiles_per_size_and_an_inexact_witness_is_listed(tmp_path, capsys):
    out = certify_and_export(tmp_path, capsys, "calauzenes2013.footnote1.equality_case",
                             "calauzenes2013.eq2.converse_non_strict", size="2..2")
    path = out / "calauzenes2013_footnote1_equality_case_m2.v"
    assert path.exists() and "claim     : calauzenes2013.footnote1.equality_case at m = 2" in path.read_text()
    index = (out / "README.md").read_text()
    assert "| calauzenes2013.eq2.converse_non_strict at m = 2 | no certificate (evidence: the witness" in index
    text = path.read_text()
    lemma = text.index("Lemma ")
    tampered_fails(path, text[lemma:], text[lemma:].replace("lra.", "idtac.", 1))


# --- splitting, without a paper ------------------------------------------------------------------

CHAIN = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (or (< x 0.0) (> y 1.0)))
(assert (or (> x 1.0) (> y 1.0)))
(assert (or (< y 0.0) (< x 0.5)))
(assert (or (> x 3.0) (< y 0.5)))
(check-sat)"""


@needs_coqc
def test_a_chain_of_lemmas_becomes_lemmas_of_their_own_and_a_wrong_one_fails(tmp_path):
    from symcal.certify import farkas_certificate

    cert = farkas_certificate(CHAIN, plain_first=False)
    n = len(cert["tree"]["lemmas"])
    blocks = farkas_lemmas("chain", cert)
    assert len(blocks) == n + 1 and all(f"Lemma chain_lem{k + 1} :" in blocks[k] for k in range(n))
    path = tmp_path / "chain.v"
    path.write_text(PRELUDE + "\n" + "\n\n".join(blocks) + "\n")
    assert run_coqc(path)[0]
    tampered_fails(path, "-> (~ (", "-> (~ ~ (")  # the first lemma's cube claimed instead of refuted


@needs_coqc
def test_a_long_replay_is_written_as_files_that_import_each_other(tmp_path, monkeypatch):
    import symcal.export_coq as E
    from symcal.certify import farkas_certificate

    monkeypatch.setattr(E, "MAX_FILE_CHARS", 1)  # one lemma per file
    blocks = farkas_lemmas("chain", farkas_certificate(CHAIN, plain_first=False))
    paths = E._files_of("chain", blocks, tmp_path, "(* test *)\n")
    assert len(paths) == len(blocks) and "Require Import chain chain_2." in paths[2].read_text()
    results = [run_coqc(p, keep=k + 1 < len(paths)) for k, p in enumerate(paths)]
    assert all(ok for ok, _, _ in results), [e for _, _, e in results]
    for p in paths:
        E._clean(p)
    # the negative twin: a part compiled without the one it imports fails
    ok, _, err = run_coqc(paths[1])
    assert not ok and "chain" in err


def test_a_missing_certificate_folder_is_a_one_line_error(tmp_path, capsys):
    code = main(["export", "--coq", str(tmp_path / "out"), "--from-certificates", str(tmp_path / "nope"),
                 "duchi2010.lemma10.proof.cond1_form"])
    err = capsys.readouterr().err
    assert code == 2 and "--from-certificates=" in err and len(err.strip().splitlines()) == 1
