"""The certificate producer (symcal.certify) with the kernel, on real claims: certificates are
built for linear proofs, identities and witnesses and pass the kernel; a tampered one is
rejected and the verdict becomes unknown; a nonlinear proof without one stays solver-trusted."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy

from symcal import Citation, identity, implies, reals
from symcal.backends import Budget, decide
from symcal.certify import REJECTED, _least_families, _pieces, build, certify, farkas_certificate, judge
from symcal.kernel import check as kernel_check
from symcal.kernel.lra import read_query
from symcal.kernel.poly import frac_str
from symcal.library import load_bundled
from symcal.runner import check
from symcal.verdicts import Status

pytest.importorskip("scipy")

LIBRARY = {c.id: c for c in load_bundled()}
CITE = Citation("test", "certificates")


def _decided(claim, m=None):
    return decide(claim, m, Budget(30.0))


def _leaves(tree):
    if "split" in tree:
        yield from _leaves(tree["then"])
        yield from _leaves(tree["else"])
    else:
        yield tree


def test_lemma14_at_sizes_3_to_5_is_kernel_checked():
    v = check(LIBRARY["duchi2010.lemma14"], sizes=(3, 5), isolate=False, certify=True)
    assert v.status is Status.PROVED
    assert v.certificate.checked, v.certificate.reason
    # one node certificate per size: the statement, the symmetry, the per-node split and its 2 + 3 + 4 queries
    assert v.certificate.kind == "node"
    assert v.certificate.kernel == v.certificate.pieces == 3


def test_a_linear_implication_with_hinge_terms_is_kernel_checked():
    claim = LIBRARY["calauzenes2013.remark2.proposed_pairwise_order_preserving"]
    v = check(claim, isolate=False, certify=True)
    assert v.status is Status.PROVED and v.certificate.checked, v.certificate


def test_a_linear_implication_of_ones_own_is_kernel_checked_and_its_twin_refuted():
    x, y = reals("x y")
    claim = implies("mine2024.max_bound", hypotheses={"h": [x >= 0, y >= x]}, conclusion=sympy.Max(x, y) <= y,
                    cite=CITE)
    v = check(claim, isolate=False, certify=True)
    assert v.status is Status.PROVED and v.certificate.checked and v.certificate.kind == "farkas"
    twin = implies("mine2024.max_bound.twin", hypotheses={"h": [x >= 0, y >= x]}, conclusion=sympy.Max(x, y) < y,
                   cite=CITE)
    w = check(twin, isolate=False, certify=True)
    assert w.status is Status.REFUTED  # at x = y; its witness is evaluated by the kernel
    assert w.certificate.checked and w.certificate.kind == "witness", w.certificate


def test_a_polynomial_identity_is_kernel_checked_and_its_perturbation_refuted():
    x, y = reals("x y")
    v = check(identity("mine2024.square", (x + y) ** 2, x**2 + 2 * x * y + y**2, cite=CITE), isolate=False,
              certify=True)
    assert v.status is Status.PROVED and v.certificate.checked and v.certificate.kind == "identity"
    w = check(identity("mine2024.square.twin", (x + y) ** 2, x**2 + x * y + y**2, cite=CITE), isolate=False,
              certify=True)
    assert w.status is Status.REFUTED and w.certificate.checked and w.certificate.kind == "witness"


def test_a_library_rational_identity_is_kernel_checked():
    ids = [c for c in LIBRARY.values() if c.kind == "identity" and c.sizes is None]
    for claim in ids:
        out = _decided(claim)
        if out.status is not Status.PROVED:
            continue
        built = build(out, claim, None, 10.0)
        if built[0][1] is not None:
            assert judge(out, built).certificate.checked
            return
    pytest.fail("no library identity got a certificate")


def test_a_tampered_multiplier_makes_the_verdict_unknown_with_certificate_rejected():
    claim = LIBRARY["duchi2010.lemma14"]
    out = _decided(claim, 3)
    built = build(out, claim, 3)
    assert all(cert is not None for _, cert, _ in built)
    tampered = copy.deepcopy(built)
    trees = [q[1]["tree"] for _, cert, _ in tampered for q in cert.get("queries", [])] or [
        cert["tree"] for _, cert, _ in tampered]  # a node certificate holds its queries' trees
    leaf = next(leaf for tree in trees for leaf in _leaves(tree) if leaf["farkas"])
    leaf["farkas"][0][1] = str(int(leaf["farkas"][0][1].split("/")[0]) + 1)
    res = judge(out, tampered)
    assert res.status is Status.UNKNOWN and res.reason.startswith(REJECTED)
    assert res.certificate.rejected and not res.certificate.checked
    assert judge(out, built).status is Status.PROVED  # the untouched twin


def test_a_dropped_branch_is_rejected():
    claim = LIBRARY["calauzenes2013.remark2.proposed_pairwise_order_preserving"]  # hinge terms: case splits
    out = _decided(claim)
    built = build(out, claim, None)
    cert = built[0][1]
    assert cert is not None and "split" in cert["tree"]
    assert judge(out, built).certificate.checked
    dropped = copy.deepcopy(built)
    dropped[0][1]["tree"] = dropped[0][1]["tree"]["then"]
    res = judge(out, dropped)
    assert res.status is Status.UNKNOWN and res.reason.startswith(REJECTED)


def test_an_altered_residual_is_rejected():
    x, y = reals("x y")
    claim = identity("mine2024.diff_squares", x**2 - y**2, (x - y) * (x + y), cite=CITE)
    out = _decided(claim)
    built = build(out, claim, None)
    assert judge(out, built).certificate.checked
    altered = copy.deepcopy(built)
    altered[0][1]["pairs"][0][1] = altered[0][1]["pairs"][0][1].replace("x", "(+ x 1)", 1)
    res = judge(out, altered)
    assert res.status is Status.UNKNOWN and res.reason.startswith(REJECTED)


def test_a_square_found_by_a_semidefinite_program_is_made_exact_and_kernel_checked():
    pytest.importorskip("cvxopt")
    x, y = reals("x y")
    # (x - y)^2 >= 0: no product of literals closes the leaf, a Gram matrix over (1, x, y) does
    claim = implies("mine2024.sos", hypotheses={}, conclusion=x**2 + y**2 >= 2 * x * y, cite=CITE)
    out = certify(_decided(claim), claim, None, 10.0)
    assert out.status is Status.PROVED and out.certificate.checked, out.certificate.reason
    cert = build(_decided(claim), claim, None, 10.0)[0][1]
    assert any(f[0] == "sq" for leaf in _leaves(cert["tree"]) for entry in leaf["farkas"] for f in entry[0])


def test_an_equality_times_a_free_multiplier_closes_a_leaf():
    x, y, z = reals("x y z")
    # x y = 1 => x y z = z: the equality multiplied by z, of either sign (no semidefinite
    # programme needed: a linear one over the products and the ideal multipliers)
    claim = implies("mine2024.ideal", hypotheses={"xy": [sympy.Eq(x * y, 1)]}, conclusion=sympy.Eq(x * y * z, z),
                    cite=CITE)
    out = certify(_decided(claim), claim, None, 10.0)
    assert out.status is Status.PROVED and out.certificate.checked, out.certificate.reason


def test_a_tampered_square_is_rejected():
    pytest.importorskip("cvxopt")
    x, y = reals("x y")
    claim = implies("mine2024.sos2", hypotheses={}, conclusion=x**2 + y**2 >= 2 * x * y, cite=CITE)
    built = build(_decided(claim), claim, None, 10.0)
    cert = copy.deepcopy(built[0][1])
    for leaf in _leaves(cert["tree"]):
        for entry in leaf["farkas"]:
            if entry[0][0][0] == "sq":
                entry[0][0][1] = [["1", [["x", 1]]], ["1", [["y", 1]]]]  # (x + y)^2 instead of (x - y)^2
    assert kernel_check(cert)["checked"] is False
    out = judge(_decided(claim), [(built[0][0], cert, "")])
    assert out.status is Status.UNKNOWN and REJECTED in out.reason


def test_a_nonlinear_proof_without_a_certificate_stays_proved_and_solver_trusted():
    x, y = reals("x y")
    # Motzkin's polynomial is non-negative but no sum of squares: no certificate of the shapes the
    # producer searches (products of literals, squares of degree 2, ideal multipliers) exists
    claim = implies("mine2024.motzkin", hypotheses={},
                    conclusion=x**4 * y**2 + x**2 * y**4 - 3 * x**2 * y**2 + 1 >= 0, cite=CITE)
    decided = _decided(claim)
    if decided.status is not Status.PROVED:
        pytest.skip(f"z3 did not prove Motzkin's inequality here: {decided.reason}")
    out = certify(decided, claim, None, 5.0)
    assert out.status is Status.PROVED
    assert not out.certificate.checked and not out.certificate.rejected and out.certificate.reason


def test_an_unsat_query_certificate_round_trips_through_json():
    claim = LIBRARY["duchi2010.lemma14"]
    out = _decided(claim, 4)
    smt = out.evidence.parts[0][1].smtlib
    cert = json.loads(json.dumps(farkas_certificate(smt)))
    assert kernel_check(cert)["checked"]


def test_the_cli_reports_certificates_in_json_and_in_the_summary():
    args = [sys.executable, "-m", "symcal", "check", "duchi2010.lemma14", "--size", "3..4", "--certify",
            "--no-cross-check"]
    out = subprocess.run(args + ["--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    (elem,) = json.loads(out.stdout)
    assert elem["certificate"]["checked"] is True and elem["certificate"]["kind"] == "node"
    table = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert "certificates: 1 of 1 decisive verdicts kernel-checked" in table.stdout


def _nodes(tree):
    yield tree
    for sub in [tree.get("then"), tree.get("else"), *tree.get("trees", []), *(p for _, p in tree.get("lemmas", []))]:
        if sub is not None:
            yield from _nodes(sub)


def test_a_disjunction_of_cubes_gets_one_case_per_disjunct_and_a_dropped_case_is_rejected():
    claim = LIBRARY["duchi2010.theorem13.neighbourhood"]
    out = _decided(claim, 3)
    built = [("evidence", farkas_certificate(out.evidence.smtlib, plain_first=False), "")]
    assert any("cases" in node for _, cert, _ in built for node in _nodes(cert["tree"]))
    assert judge(out, built).certificate.checked
    dropped = copy.deepcopy(built)
    node = next(node for _, cert, _ in dropped for node in _nodes(cert["tree"]) if "cases" in node)
    node["cases"].pop()
    node["trees"].pop()
    res = judge(out, dropped)
    assert res.status is Status.UNKNOWN and res.reason.startswith(REJECTED)


def test_a_disjunct_with_an_atom_and_its_negation_still_gets_a_tree_the_kernel_accepts():
    text = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (<= 0.0 x))
(assert (<= x 1.0))
(assert (or (and (<= y 0.0) (not (<= y 0.0))) (and (< x (- 1.0)) (> y 0.0)) (and (> x 2.0) (> y 0.0))))"""
    cert = farkas_certificate(text, plain_first=False)  # case nodes allowed: the producer must not use them here
    assert kernel_check(cert)["checked"]


def test_a_quadratic_calibration_claim_is_kernel_checked_and_a_wrong_minimiser_is_rejected():
    claim = LIBRARY["ramaswamy2013.lemma8.p_reinforce.r3"]
    out = _decided(claim)
    built = build(out, claim, None)
    assert all(cert is not None for _, cert, _ in built)
    assert {cert["kind"] for _, cert, _ in built} == {"calibration-a"}  # the statement, (A) and the pair trees
    assert judge(out, built).certificate.checked
    tampered = copy.deepcopy(built)
    quad = next(cert for _, cert, _ in tampered if cert["kind"] == "calibration-a")["quadratic"]
    quad["minimisers"][0][0] = frac_str(Fraction(quad["minimisers"][0][0]) + 1)
    res = judge(out, tampered)
    assert res.status is Status.UNKNOWN and res.reason.startswith(REJECTED)


def test_an_identity_between_values_of_an_undefined_function_is_kernel_checked():
    x = sympy.Symbol("x", real=True)
    f = sympy.Function("f")
    claim = identity("mine2024.undefined", f(x) + 2 * f(x + 1), 3 * f(x + 1) + f(x) - f(x + 1), cite=CITE)
    out = _decided(claim)
    assert out.status is Status.PROVED
    built = build(out, claim, None)
    assert built[0][1]["functions"] == ["f"] and judge(out, built).certificate.checked
    altered = copy.deepcopy(built)
    altered[0][1]["pairs"][0][1] = altered[0][1]["pairs"][0][1].replace("(f (+ 1 x))", "(f x)", 1)
    res = judge(out, altered)
    assert res.status is Status.UNKNOWN and res.reason.startswith(REJECTED)


def test_a_wide_disjunction_is_refuted_cube_by_cube_as_lemmas_and_an_unproved_lemma_is_rejected():
    claim = LIBRARY["ramaswamy2013.lemma8.proof.equal_risk_on_pi"]  # "some permutation breaks the equality"
    out = _decided(claim, 3)
    cert = farkas_certificate(out.evidence.smtlib, plain_first=False)
    assert cert["tree"]["lemmas"]
    assert judge(out, [("evidence", cert, "")]).certificate.checked
    tampered = copy.deepcopy(cert)
    tampered["tree"]["lemmas"][0][1] = {"farkas": []}  # a lemma is never one that propagation alone proves
    res = judge(out, [("evidence", tampered, "")])
    assert res.status is Status.UNKNOWN and res.reason.startswith(REJECTED) and "lemma0" in res.reason


def test_lemma_trees_stay_shallow_where_the_case_tree_was_deep():
    """Every closed branch becomes a lemma whose proof is a split between two lemmas' clauses, so
    the certificate's nesting stays small however deep the search went (JSON and pickle recurse)."""
    claim = LIBRARY["duchi2010.section3_1.cossock_zhang"]
    cert = farkas_certificate(_decided(claim, 4).evidence.smtlib, plain_first=False)

    def depth(t):
        subs = [t.get("then"), t.get("else"), *t.get("trees", []), *(p for _, p in t.get("lemmas", []))]
        return 1 + max((depth(s) for s in subs if s is not None), default=0)

    assert kernel_check(cert)["checked"] and depth(cert["tree"]) < 50


def test_a_leaf_of_many_variables_and_high_degree_gets_no_monomial_basis_it_cannot_hold(monkeypatch):
    """xia2009.listnet_modified.order_sensitive at n = 4 has such a leaf: building every monomial
    up to its degree took 18 GB in two minutes before the count was checked first."""
    import time

    from symcal import certify_sos
    from symcal.certify import _columns
    from symcal.kernel.poly import Poly

    names = [f"x{i}" for i in range(12)]
    p = Poly({((v, 8),): Fraction(1) for v in names}) + Poly.const(1)  # p = 0: an equality of degree 8
    cons = [(p, False, ["<=", p.to_json()]), (-p, False, ["<=", (-p).to_json()])]
    sizes = []
    real = certify_sos._monomials
    monkeypatch.setattr(certify_sos, "_monomials", lambda ns, d: sizes.append(len(real(ns, d))) or real(ns, d))
    kcons = {(q.key(), False): q for q, _, _ in cons}
    certify_sos.sos_leaf(cons, kcons, _columns(cons, 2), time.process_time() + 30)
    assert all(n <= max(certify_sos.MAX_GRAM, certify_sos.MAX_MONOMIALS) for n in sizes), sizes


def _ordering_query(n, op="<=", extra=""):
    """For every j: not (x_j op x_i for every i != j) -- unsat by the ordering principle."""
    xs = [f"x{i}" for i in range(n)]
    lines = [f"(declare-fun {x} () Real)" for x in xs]
    lines += [f"(assert (not (and {' '.join(f'({op} {xs[j]} {xs[i]})' for i in range(n) if i != j)})))"
              for j in range(n)]
    return "\n".join([*lines, extra, "(check-sat)"])


@pytest.mark.parametrize("op", ["<=", ">="])
def test_the_ordering_principle_is_a_chain_of_ordering_lemmas_and_a_dropped_case_is_rejected(op):
    """n "is not a least one" clauses: refuted by n + (2 + ... + n-1) lemmas (the resolution proof
    of the ordering principle), where a tree needs about n! leaves; with ">=", a greatest one."""
    n = 7
    cert = farkas_certificate(_ordering_query(n, op), 30.0)
    assert len(cert["tree"]["lemmas"]) == n + sum(range(2, n))
    assert kernel_check(cert)["checked"]
    tampered = copy.deepcopy(cert)
    proof = next(p for _, p in tampered["tree"]["lemmas"] if len(p.get("cases", [])) > 1)
    proof["cases"].pop()
    proof["trees"].pop()
    res = kernel_check(tampered)
    assert not res["checked"] and "do not cover" in res["reason"]


def test_a_family_of_least_terms_the_query_refutes_without_them_gets_no_ordering_lemmas():
    xs = ["x0", "x1", "x2", "x3"]
    text = "\n".join([f"(declare-fun {x} () Real)" for x in xs]
                     + [f"(assert (=> (and {' '.join(f'(<= {a} {b})' for b in xs if b != a)}) (< {a} 0)))" for a in xs]
                     + ["(assert (< x0 0))", "(assert (> x0 1))", "(check-sat)"])
    assert [len(f) for f in _least_families(read_query(text))] == [4]
    cert = farkas_certificate(text, 10.0, plain_first=False)
    assert kernel_check(cert)["checked"] and not cert["tree"].get("lemmas")


@pytest.mark.slow
def test_lemma16_at_m4_with_a_cycle_is_kernel_checked_through_the_ordering_principle():
    """Its last piece says: no permutation agrees with a cyclic graph, yet one of the 24
    permutations' costs is least (about 40 s: 299 lemmas, 4,036 leaves)."""
    out = _decided(LIBRARY["duchi2010.lemma16.all_weights"], 4)
    text = next(ev.smtlib for label, ev in _pieces(out.evidence) if label.endswith("cyclic"))
    cert = farkas_certificate(text, 120.0)
    assert len(cert["tree"]["lemmas"]) >= 24 + sum(range(2, 24)) and kernel_check(cert)["checked"]
