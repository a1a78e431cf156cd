"""The independent kernel (symcal.kernel) alone: good certificates are accepted, and each has a
tampered twin that is rejected; the kernel imports no solver, no sympy and nothing from
symcal.backends."""

from __future__ import annotations

import ast
import copy
import subprocess
import sys
from pathlib import Path

import pytest

from symcal.kernel import check

KERNEL = Path(__file__).resolve().parents[2] / "symcal" / "kernel"


def poly(*terms: tuple[str, dict[str, int]]) -> list:
    return [[c, [[v, e] for v, e in mono.items()]] for c, mono in terms]


# x > 0, y > 0, x + y < 0: 1*(x + y < 0) + 1*(-x < 0) + 1*(-y < 0) sums to 0 < 0.
LINEAR = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (> x 0.0))
(assert (> y 0.0))
(assert (< (+ x y) 0.0))
(check-sat)"""

X = poly(("1", {"x": 1}))
Y = poly(("1", {"y": 1}))
NEG_X = poly(("-1", {"x": 1}))
NEG_Y = poly(("-1", {"y": 1}))
X_PLUS_Y = poly(("1", {"x": 1}), ("1", {"y": 1}))


def linear_certificate() -> dict:
    return {"kind": "farkas", "smtlib": LINEAR, "tree": {"farkas": [
        [[["<", NEG_X]], "1"], [[["<", NEG_Y]], "1"], [[["<", X_PLUS_Y]], "1"]]}}


def test_a_farkas_leaf_that_sums_to_zero_below_zero_is_accepted():
    assert check(linear_certificate()) == {"checked": True, "reason": ""}


def test_a_changed_multiplier_is_rejected():
    cert = linear_certificate()
    cert["tree"]["farkas"][0][1] = "2"
    res = check(cert)
    assert not res["checked"] and "not a constant" in res["reason"]


def test_a_negative_multiplier_is_rejected():
    cert = linear_certificate()
    cert["tree"]["farkas"].append([[["<", NEG_X]], "-1"])
    res = check(cert)
    assert not res["checked"] and "negative multiplier" in res["reason"]


def test_a_constraint_the_query_does_not_state_cannot_be_smuggled_in():
    cert = linear_certificate()  # x < 0 is not a literal of the query: the kernel derives them itself
    cert["tree"]["farkas"][0][0] = [["<", X]]
    res = check(cert)
    assert not res["checked"] and "not a literal" in res["reason"]


def test_a_certificate_for_a_different_query_is_rejected():
    cert = linear_certificate()
    cert["smtlib"] = LINEAR.replace("(> y 0.0)", "(>= y 0.0)")  # the same multipliers name -y < 0
    res = check(cert)
    assert not res["checked"] and "not a literal" in res["reason"]


def test_a_non_strict_combination_to_zero_is_no_contradiction():
    text = "(declare-fun x () Real)(assert (>= x 0.0))(assert (<= x 0.0))"
    cert = {"kind": "farkas", "smtlib": text, "tree": {"farkas": [[[["<=", NEG_X]], "1"], [[["<=", X]], "1"]]}}
    res = check(cert)
    assert not res["checked"] and "no contradiction" in res["reason"]


# 0 <= x <= 1 and (x < -1 or x > 2): split on x + 1 < 0; the then-branch is closed by
# x + 1 < 0 and 0 <= x; on the else-branch unit propagation leaves x > 2, closed with x <= 1.
CASES = """(declare-fun x () Real)
(assert (<= 0.0 x))
(assert (<= x 1.0))
(assert (or (< x (- 1.0)) (> x 2.0)))"""
X_PLUS_ONE = poly(("1", {}), ("1", {"x": 1}))
TWO_MINUS_X = poly(("2", {}), ("-1", {"x": 1}))
X_MINUS_ONE = poly(("-1", {}), ("1", {"x": 1}))


def cases_certificate() -> dict:
    return {"kind": "farkas", "smtlib": CASES, "tree": {
        "split": ["<", X_PLUS_ONE],
        "then": {"farkas": [[[["<", X_PLUS_ONE]], "1"], [[["<=", NEG_X]], "1"]]},
        "else": {"farkas": [[[["<", TWO_MINUS_X]], "1"], [[["<=", X_MINUS_ONE]], "1"]]},
    }}


def test_a_case_tree_covering_both_branches_is_accepted():
    assert check(cases_certificate())["checked"]


def test_a_case_tree_with_a_dropped_branch_is_rejected():
    cert = cases_certificate()
    cert["tree"] = cert["tree"]["then"]  # the branch x >= 0 is no longer covered
    res = check(cert)
    assert not res["checked"] and "not a literal" in res["reason"]


def test_a_split_without_its_else_branch_is_rejected():
    cert = cases_certificate()
    del cert["tree"]["else"]
    assert not check(cert)["checked"]


def test_a_leaf_closed_by_the_query_alone_needs_no_multipliers_and_an_open_one_does():
    closed = {"kind": "farkas", "smtlib": "(declare-fun p () Bool)(assert p)(assert (not p))", "tree": {"farkas": []}}
    assert check(closed)["checked"]
    open_ = {"kind": "farkas", "smtlib": "(declare-fun p () Bool)(assert p)", "tree": {"farkas": []}}
    assert not check(open_)["checked"]


HINGE = """(declare-fun x () Real)
(assert (let ((h (ite (< 0.0 x) x 0.0))) (not (>= h x))))"""


def test_an_if_then_else_term_is_split_on_its_condition():
    # the kernel lifts ite to v with (0 < x => v = x) and (not 0 < x => v = 0); goal: v < x
    from symcal.kernel.lra import read_query

    (v,) = read_query(HINGE).lifted
    v_minus_x = poly(("1", {v: 1}), ("-1", {"x": 1}))
    x_minus_v = poly(("-1", {v: 1}), ("1", {"x": 1}))
    neg_v = poly(("-1", {v: 1}))
    tree = {"split": ["<", NEG_X],
            "then": {"farkas": [[[["<", v_minus_x]], "1"], [[["<=", x_minus_v]], "1"]]},
            "else": {"farkas": [[[["<", v_minus_x]], "1"], [[["<=", X]], "1"], [[["<=", neg_v]], "1"]]}}
    cert = {"kind": "farkas", "smtlib": HINGE, "tree": tree}
    assert check(cert)["checked"], check(cert)
    tampered = copy.deepcopy(cert)
    tampered["tree"]["else"]["farkas"].pop()
    assert not check(tampered)["checked"]


NONLINEAR = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (> x 0.0))
(assert (> y 0.0))
(assert (<= (* x y) 0.0))"""


def test_a_product_of_two_strict_literals_closes_a_nonlinear_leaf():
    xy = poly(("1", {"x": 1, "y": 1}))
    cert = {"kind": "farkas", "smtlib": NONLINEAR, "tree": {"farkas": [
        [[["<", NEG_X], ["<", NEG_Y]], "1"], [[["<=", xy]], "1"]]}}
    assert check(cert)["checked"]
    cert["tree"]["farkas"][0][0] = [["<", NEG_X]]  # without the product: no contradiction
    assert not check(cert)["checked"]


def test_a_square_is_non_negative_but_not_strictly():
    text = "(declare-fun x () Real)(assert (< (* x x) 0.0))"
    sq = poly(("1", {"x": 2}))
    good = {"kind": "farkas", "smtlib": text, "tree": {"farkas": [[[["sq", X]], "1"], [[["<", sq]], "1"]]}}
    assert check(good)["checked"]
    text2 = "(declare-fun x () Real)(assert (<= (* x x) 0.0))"
    bad = {"kind": "farkas", "smtlib": text2, "tree": {"farkas": [[[["sq", X]], "1"], [[["<=", sq]], "1"]]}}
    assert not check(bad)["checked"]  # x = 0 satisfies x*x <= 0


def test_a_division_by_a_variable_is_lifted_with_its_side_condition():
    text = "(declare-fun x () Real)(assert (> x 0.0))(assert (< (/ 1.0 x) 0.0))"
    from symcal.kernel.lra import read_query

    q = read_query(text)
    assert len(q.lifted) == 1 and q.lifted[0].startswith("div!")  # v with x = 0 or v*x = 1


def test_a_polynomial_identity_is_expanded_by_the_kernel():
    good = {"kind": "identity", "pairs": [["(^ (+ x y) 2)", "(+ (^ x 2) (* 2 x y) (^ y 2))"]]}
    assert check(good)["checked"]
    bad = {"kind": "identity", "pairs": [["(^ (+ x y) 2)", "(+ (^ x 2) (* 3 x y) (^ y 2))"]]}
    res = check(bad)
    assert not res["checked"] and "non-zero numerator" in res["reason"]


def test_a_rational_function_identity_is_checked_after_cross_multiplication():
    good = {"kind": "identity", "pairs": [["(+ (/ 1 x) (/ 1 y))", "(/ (+ x y) (* x y))"]]}
    assert check(good)["checked"]
    bad = {"kind": "identity", "pairs": [["(+ (/ 1 x) (/ 1 y))", "(/ (+ x y 1) (* x y))"]]}
    assert not check(bad)["checked"]


def test_logs_are_opaque_atoms_so_log_rules_are_not_assumed():
    same = {"kind": "identity", "pairs": [["(* 2 (log (+ x 1)))", "(+ (log (+ x 1)) (log (+ x 1)))"]]}
    assert check(same)["checked"]
    rule = {"kind": "identity", "pairs": [["(log (* x y))", "(+ (log x) (log y))"]]}
    assert not check(rule)["checked"]


def test_a_division_by_the_zero_polynomial_is_refused():
    assert not check({"kind": "identity", "pairs": [["(/ 1 (- x x))", "0"]]})["checked"]


def test_a_counterexample_is_evaluated_exactly():
    cert = {"kind": "witness", "values": {"x": "1/3", "y": "-2"},
            "holds": ["(>= (* 3 x) 1)", "(< y 0)"], "fails": ["(>= (+ x y) 0)"]}
    assert check(cert)["checked"]
    cert["values"]["y"] = "2"  # now the conclusion holds: no counterexample
    res = check(cert)
    assert not res["checked"] and "holds[1]" in res["reason"]


def test_a_witness_needs_every_value():
    cert = {"kind": "witness", "values": {"x": "1"}, "holds": ["(> (+ x y) 0)"]}
    assert not check(cert)["checked"]


def test_a_float_value_is_not_an_exact_witness():
    cert = {"kind": "witness", "values": {"x": 0.5}, "holds": ["(> x 0)"]}
    assert not check(cert)["checked"]


def test_all_parts_must_check():
    good = {"kind": "all", "parts": [["a", linear_certificate()], ["b", cases_certificate()]]}
    assert check(good)["checked"]
    bad = copy.deepcopy(good)
    bad["parts"][1][1]["tree"] = bad["parts"][1][1]["tree"]["else"]
    res = check(bad)
    assert not res["checked"] and res["reason"].startswith("b:")


def test_an_unknown_kind_or_malformed_text_is_rejected_not_crashed():
    assert not check({"kind": "trust-me"})["checked"]
    assert not check({"kind": "farkas", "smtlib": "(assert (< x", "tree": {"farkas": []}})["checked"]
    assert not check({"kind": "farkas", "smtlib": "(assert (< (sin x) 0))", "tree": {"farkas": []}})["checked"]


# -------------------------------------------------------------------------------------------
# interval covers (python-flint)
# -------------------------------------------------------------------------------------------

# x - 1 - log x >= 0 on [1/2, 2]: tight at x = 1.  Split at 1; on [1/2, 1] the derivative
# 1 - 1/x is <= 0 (so the minimum is at x = 1), on [1, 2] it is >= 0 (minimum at x = 1);
# at x = 1 the value is exactly 0.
def interval_certificate(tree: object) -> dict:
    return {"kind": "interval", "lhs": "(- x 1 (log x))", "rhs": "0", "relation": ">=", "box": {"x": ["1/2", "2"]},
            "conditions": [], "precision": 64, "tree": tree}


def _monotone(sign: str, derivative: object) -> dict:
    return {"monotone": "x", "sign": sign, "derivative": derivative, "face": "enclosure"}


def test_an_interval_cover_with_monotone_faces_is_replayed_with_arb():
    pytest.importorskip("flint")
    from symcal.kernel.interval import check_cover

    # the derivative 1 - 1/x is itself tight at x = 1: its sign comes from its own derivative
    tree = {"split": "x", "at": "1", "lo": _monotone("-", _monotone("-", "enclosure")),
            "hi": _monotone("+", _monotone("+", "enclosure"))}
    assert check_cover(interval_certificate(tree)) is None
    assert check(interval_certificate(tree))["checked"]


def test_an_interval_cover_that_skips_the_tight_point_is_rejected():
    pytest.importorskip("flint")
    # no monotone reduction: the enclosure on a box around x = 1 cannot show >= 0
    tree = {"split": "x", "at": "1", "lo": "enclosure", "hi": "enclosure"}
    res = check(interval_certificate(tree))
    assert not res["checked"] and "enclosure" in res["reason"]


def test_a_monotone_reduction_with_the_wrong_sign_is_rejected():
    pytest.importorskip("flint")
    tree = {"split": "x", "at": "1", "lo": _monotone("+", "enclosure"), "hi": _monotone("+", "enclosure")}
    assert not check(interval_certificate(tree))["checked"]


def test_without_python_flint_an_interval_certificate_is_not_checked_and_says_why(monkeypatch):
    from symcal.kernel import interval

    monkeypatch.setattr(interval, "flint", None)
    res = check(interval_certificate("enclosure"))
    assert res == {"checked": False, "reason": "python-flint not installed", "unavailable": True}


# -------------------------------------------------------------------------------------------
# independence
# -------------------------------------------------------------------------------------------

FORBIDDEN = ("z3", "cvc5", "sympy", "mpmath", "scipy", "numpy", "symcal.backends")


def test_the_kernel_imports_only_the_standard_library_flint_and_itself():
    allowed_top = set(sys.stdlib_module_names) | {"flint", "symcal"}
    for path in sorted(KERNEL.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in allowed_top, f"{path.name} imports {name}"
                if name.startswith("symcal"):
                    assert name == "symcal.kernel" or name.startswith("symcal.kernel."), f"{path.name} imports {name}"


def test_the_kernel_runs_with_solvers_sympy_and_backends_blocked():
    # symcal/__init__ imports sympy, so the package is stood in for by an empty module whose
    # path is symcal/: only symcal.kernel itself is executed
    code = f"""
import sys, types
for name in {FORBIDDEN!r}:
    sys.modules[name] = None
pkg = types.ModuleType("symcal")
pkg.__path__ = [{str(KERNEL.parent)!r}]
sys.modules["symcal"] = pkg
import symcal.kernel, symcal.kernel.lra, symcal.kernel.interval, symcal.kernel.terms
from symcal.kernel import check
cert = {linear_certificate()!r}
assert check(cert)["checked"], check(cert)
bad = [m for m in sys.modules if m.split(".")[0] in ("z3", "cvc5", "sympy", "mpmath", "scipy", "numpy")
       and sys.modules[m] is not None]
assert not bad, bad
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_kernel_is_small_enough_to_read_in_an_afternoon():
    lines = sum(len(p.read_text().splitlines()) for p in KERNEL.glob("*.py"))
    # the checking logic was 1,495 lines; node.py adds the re-derivation of node reductions (issue 23)
    # and cli.py the standalone command that re-checks a folder, record.py the check of what a file records
    # against its certificate (a status, statement, size or reduction that says more), polyhedral.py the
    # re-derivation of the calibration engine's reduction (B) (239 lines), and cli.py a child per folder that
    # checks each file under a CPU limit (a tampered exponent hung the kernel; 131 lines), and calibration.py /
    # polyhedral.py the check of a refutation by (A) or (B) (p in P, u a minimiser by KKT, the failure near u;
    # about 130 lines): still one afternoon
    assert lines < 2900, lines


# -------------------------------------------------------------------------------------------
# cases: one tree per disjunct of a disjunction of cubes the branch asserts
# -------------------------------------------------------------------------------------------

# 0 <= x <= 1 and ((x < -1 and y > 0) or (x > 2 and y > 0)): one tree per cube
CUBES = """(declare-fun x () Real)
(declare-fun y () Real)
(assert (<= 0.0 x))
(assert (<= x 1.0))
(assert (or (and (< x (- 1.0)) (> y 0.0)) (and (> x 2.0) (> y 0.0))))"""


def cubes_certificate() -> dict:
    return {"kind": "farkas", "smtlib": CUBES, "tree": {
        "cases": [[["<", X_PLUS_ONE], ["<", NEG_Y]], [["<", TWO_MINUS_X], ["<", NEG_Y]]],
        "trees": [{"farkas": [[[["<", X_PLUS_ONE]], "1"], [[["<=", NEG_X]], "1"]]},
                  {"farkas": [[[["<", TWO_MINUS_X]], "1"], [[["<=", X_MINUS_ONE]], "1"]]}]}}


def test_one_tree_per_disjunct_of_an_asserted_disjunction_is_accepted():
    assert check(cubes_certificate()) == {"checked": True, "reason": ""}


def test_cases_that_leave_out_a_disjunct_are_rejected():
    cert = cubes_certificate()
    del cert["tree"]["cases"][1], cert["tree"]["trees"][1]
    res = check(cert)
    assert not res["checked"] and "do not cover" in res["reason"]


def test_cases_with_a_literal_changed_are_rejected():
    cert = cubes_certificate()
    cert["tree"]["cases"][1][1] = ["<=", NEG_Y]  # y >= 0 is not the disjunct's y > 0
    res = check(cert)
    assert not res["checked"] and "do not cover" in res["reason"]


def test_cases_the_query_does_not_assert_are_rejected():
    cert = cases_certificate()  # x < -1 or x > 2, written as cubes of one literal each: accepted
    cert["tree"] = {"cases": [[["<", X_PLUS_ONE]], [["<", TWO_MINUS_X]]],
                    "trees": [cert["tree"]["then"], cert["tree"]["else"]]}
    assert check(cert)["checked"]
    cert["smtlib"] = CASES.replace("(> x 2.0)", "(> x 3.0)")  # now the second case is not a disjunct
    res = check(cert)
    assert not res["checked"] and "do not cover" in res["reason"]


def test_cases_need_one_tree_each():
    cert = cubes_certificate()
    cert["tree"]["trees"].pop()
    res = check(cert)
    assert not res["checked"] and "one tree per case" in res["reason"]


# -------------------------------------------------------------------------------------------
# identities with uninterpreted functions
# -------------------------------------------------------------------------------------------


def test_applications_of_an_uninterpreted_function_are_opaque_atoms():
    good = {"kind": "identity", "functions": ["f"], "pairs": [["(+ (f x) (* 2 (f (+ x 1))))",
                                                               "(+ (f (+ x 1)) (f x) (f (+ x 1)))"]]}
    assert check(good)["checked"]
    bad = copy.deepcopy(good)  # f(x + 1) and f(1 + x) are different texts: not assumed equal
    bad["pairs"][0][1] = "(+ (f (+ 1 x)) (f x) (f (+ x 1)))"
    assert not check(bad)["checked"]
    wrong = copy.deepcopy(good)  # f is not linear: f(2x) is not 2 f(x)
    wrong["pairs"] = [["(f (* 2 x))", "(* 2 (f x))"]]
    assert not check(wrong)["checked"]


def test_a_built_in_operator_cannot_be_declared_uninterpreted():
    cert = {"kind": "identity", "functions": ["+"], "pairs": [["(+ x 1)", "(+ 1 x)"]]}
    res = check(cert)
    assert not res["checked"] and "built-in" in res["reason"]
    undeclared = {"kind": "identity", "pairs": [["(f x)", "(f x)"]]}  # f unknown without "functions"
    assert not check(undeclared)["checked"]


# -------------------------------------------------------------------------------------------
# quadratic: the calibration engine's reduction (A)
# -------------------------------------------------------------------------------------------


def quadratic_certificate() -> dict:
    # psi_y(u) = |u|^2 - 2 u_y on the line u1 + u2 = 1: minimisers e_1 and e_2
    return {"kind": "quadratic", "vars": ["u1", "u2"], "domain": ["(= (+ u1 u2) 1)"],
            "psi": ["(+ (* u1 u1) (* u2 u2) (* -2 u1))", "(+ (* u1 u1) (* u2 u2) (* -2 u2))"],
            "minimisers": [["1", "0"], ["0", "1"]]}


def test_a_strongly_convex_quadratic_with_its_minimisers_is_accepted():
    assert check(quadratic_certificate()) == {"checked": True, "reason": ""}


def test_a_wrong_minimiser_is_rejected():
    cert = quadratic_certificate()
    cert["minimisers"][0] = ["3/2", "-1/2"]  # on the line, but not stationary
    res = check(cert)
    assert not res["checked"] and "not a stationary point" in res["reason"]
    cert["minimisers"][0] = ["1", "1/2"]  # off the line
    res = check(cert)
    assert not res["checked"] and "not in the domain" in res["reason"]


def test_a_quadratic_that_is_not_positive_definite_on_the_domain_is_rejected():
    cert = quadratic_certificate()  # (u1 - u2)^2 is flat along u1 = u2
    cert["domain"] = ["(= u1 u2)"]
    cert["psi"] = ["(+ (* u1 u1) (* u2 u2) (* -2 u1 u2))"] * 2
    cert["minimisers"] = [["0", "0"], ["0", "0"]]
    res = check(cert)
    assert not res["checked"] and "not positive definite" in res["reason"]
    indefinite = quadratic_certificate()
    indefinite["psi"] = ["(+ (* u1 u1) (* -1 u2 u2) (* 2 u1 u2) (* -2 u1))",
                         "(+ (* u1 u1) (* -1 u2 u2) (* 2 u1 u2) (* -2 u2))"]
    assert not check(indefinite)["checked"]


def test_quadratic_parts_that_differ_or_an_inequality_domain_are_rejected():
    cert = quadratic_certificate()
    cert["psi"][1] = "(+ (* 2 u1 u1) (* u2 u2) (* -2 u2))"
    res = check(cert)
    assert not res["checked"] and "quadratic part" in res["reason"]
    cert = quadratic_certificate()
    cert["domain"] = ["(<= (+ u1 u2) 1)"]
    res = check(cert)
    assert not res["checked"] and "not an equality" in res["reason"]
    cert = quadratic_certificate()
    cert["vars"] = ["u1", "u1"]
    assert not check(cert)["checked"]
    cert = quadratic_certificate()
    cert["psi"][0] = "(+ (* u1 u1) (* u2 u2) (* -2 w))"  # a variable that is not among vars
    assert not check(cert)["checked"]


def test_a_string_literal_is_never_read_as_a_parenthesis():
    from symcal.kernel.sexpr import Quoted, parse

    got = parse('(set-info :source ")") (set-info :x "((") (assert (< x 1))')
    assert got[0] == ["set-info", ":source", ")"] and isinstance(got[0][2], Quoted)
    assert got[1][2] == "((" and len(got) == 3


# -------------------------------------------------------------------------------------------
# lemmas: a cube refuted once, its clause assumed afterwards
# -------------------------------------------------------------------------------------------


def lemma_certificate() -> dict:
    """0 <= x <= 1 and (x < -1 or x > 2): the lemma "not x < -1", then x > 2 is forced."""
    return {"kind": "farkas", "smtlib": CASES, "tree": {
        "lemmas": [[[["<", X_PLUS_ONE]], {"farkas": [[[["<", X_PLUS_ONE]], "1"], [[["<=", NEG_X]], "1"]]}]],
        "then": {"farkas": [[[["<", TWO_MINUS_X]], "1"], [[["<=", X_MINUS_ONE]], "1"]]}}}


def test_a_lemma_proved_once_and_then_assumed_is_accepted():
    assert check(lemma_certificate()) == {"checked": True, "reason": ""}


def test_a_lemma_without_a_proof_is_rejected():
    cert = lemma_certificate()
    cert["tree"]["lemmas"][0][1] = {"farkas": []}
    res = check(cert)
    assert not res["checked"] and "lemma0" in res["reason"]


def test_a_tree_that_uses_a_clause_no_lemma_proves_is_rejected():
    cert = lemma_certificate()
    cert["tree"] = cert["tree"]["then"]  # x > 2 is not forced without the lemma
    res = check(cert)
    assert not res["checked"] and "not a literal of this branch" in res["reason"]


def test_a_lemma_whose_cube_is_changed_is_rejected():
    cert = lemma_certificate()
    cert["tree"]["lemmas"][0][0] = [["<=", X_PLUS_ONE]]  # x <= -1 is not what the proof refutes... nor forces x > 2
    assert not check(cert)["checked"]


def test_a_later_lemma_may_use_an_earlier_one_but_not_the_reverse():
    first = [[["<", X_PLUS_ONE]], {"farkas": [[[["<", X_PLUS_ONE]], "1"], [[["<=", NEG_X]], "1"]]}]
    second = [[["<=", X_MINUS_ONE]], {"farkas": [[[["<", TWO_MINUS_X]], "1"], [[["<=", X_MINUS_ONE]], "1"]]}]
    cert = {"kind": "farkas", "smtlib": CASES, "tree": {"lemmas": [first, second], "then": {"farkas": []}}}
    assert check(cert)["checked"]  # the second (x <= 1 is refuted: x > 2 forced) needs the first
    cert["tree"]["lemmas"] = [second, first]
    assert not check(cert)["checked"]


def test_cases_written_as_the_whole_cubes_are_covered_where_the_branch_made_part_true():
    t1 = {"farkas": [[[["<", X_PLUS_ONE]], "1"], [[["<=", NEG_X]], "1"]]}
    t2 = {"farkas": [[[["<", TWO_MINUS_X]], "1"], [[["<=", X_MINUS_ONE]], "1"]]}
    cert = {"kind": "farkas", "smtlib": CUBES, "tree": {"split": ["<", NEG_Y], "else": {"farkas": []}, "then": {
        "cases": [[["<", X_PLUS_ONE], ["<", NEG_Y]], [["<", TWO_MINUS_X], ["<", NEG_Y]]], "trees": [t1, t2]}}}
    assert check(cert)["checked"]  # on y > 0 the disjuncts are x < -1 and x > 2: each, with y > 0, a cube
    cert["tree"]["then"]["cases"][1] = [["<", TWO_MINUS_X], ["<", Y]]  # y < 0 is not true on the branch
    res = check(cert)
    assert not res["checked"] and "do not cover" in res["reason"]
