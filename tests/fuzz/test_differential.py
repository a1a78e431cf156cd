"""Differential fuzzing: symcal's decisive verdicts on random claims agree with independent
oracles (brute force over bounded integers, Fourier-Motzkin for linear statements, truth by
construction for polynomials and rational squares, LP with an exact re-check for node claims).

A false verdict is reported only with an exact certificate; ``unknown`` and refusals are
counted, never judged.  The oracles themselves are tested first, each with its negative twin.
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from symcal.explore import fuzz as F
from symcal.verdicts import Composite, Status, Verdict, Witness


def _report(r: F.FuzzReport) -> str:
    lines = [r.summary()]
    for f in r.false_verdicts:
        lines += [f"--- {f.family} {f.claim_id}: {f.status}: {f.why}", f.reproducer]
    return "\n".join(lines)


# --------------------------------------------------------------------------- the oracles


def test_fourier_motzkin_finds_an_exact_point_of_a_feasible_strict_system():
    x, y = F.Lin.var("x"), F.Lin.var("y")
    atoms = [F.atom(x - y, True), F.atom(y, False), F.atom(1 - x, False)]  # 0 <= y < x <= 1
    p = F.fm_point(atoms)
    assert p is not None and 0 <= p["y"] < p["x"] <= 1


def test_fourier_motzkin_finds_no_point_of_an_infeasible_system():
    x = F.Lin.var("x")
    assert F.fm_point([F.atom(x, True), F.atom(-x, False)]) is None  # x > 0 and x <= 0


def test_the_linear_oracle_splits_max_and_finds_the_counterexample():
    found = F.linear_search(["x >= -1"], "Max(x, 2*x) >= 0", {"x": "real"})
    assert found is not None and found[1] == "fails" and -1 <= found[0]["x"] < 0


def test_the_linear_oracle_proves_a_true_piecewise_linear_statement():
    assert F.linear_search([], "Max(x, -x) >= 0", {"x": "real"}) is None
    assert F.linear_search([], "x >= 0", {"x": "nonnegative"}) is None  # the assumption is a constraint


def test_the_linear_oracle_finds_where_a_piecewise_without_default_is_undefined():
    found = F.linear_search([], "Piecewise((x, x > 0)) >= 0", {"x": "real"})
    assert found is not None and found[1] == "undefined" and found[0]["x"] <= 0
    assert F.linear_search(["x > 0"], "Piecewise((x, x > 0)) >= 0", {"x": "real"}) is None


def _case(source_symbols: dict[str, str], hyps: list[str], concl: str, box: dict[str, tuple[int, int]]) -> F.Case:
    return F.Case("assume", "fuzz2026.t", "", "implies", source_symbols, hyps, concl, box=box)


def _verdict(status: Status, values: dict | None = None, scope: str = "") -> Verdict:
    ev = Witness(values, True) if values is not None else Composite((), note="a test's stand-in")
    return Verdict("fuzz2026.t", status, scope, "test", 0.0, ev)


def test_a_refutation_at_a_value_its_assumption_forbids_is_a_false_verdict():
    c = _case({"x": "even"}, ["x >= 0", "x <= 3"], "Ne(x, 1)", {"x": (0, 3)})
    outcome, why = F.judge(c, _verdict(Status.REFUTED, {"x": Fraction(1)}))
    assert outcome == "false" and "breaks an assumption" in why
    # negative twin: a refutation at an admissible value where the statement fails is fine
    c2 = _case({"x": "even"}, ["x >= 0", "x <= 3"], "Ne(x, 2)", {"x": (0, 3)})
    assert F.judge(c2, _verdict(Status.REFUTED, {"x": Fraction(2)}))[0] == "ok"


def test_a_proof_with_an_exact_counterexample_is_a_false_verdict():
    c = _case({"x": "odd"}, ["x >= -3", "x <= 3"], "x**2 >= 2", {"x": (-3, 3)})
    outcome, why = F.judge(c, _verdict(Status.PROVED))
    assert outcome == "false" and "x=-1" in why
    c2 = _case({"x": "odd"}, ["x >= -3", "x <= 3"], "x**2 >= 1", {"x": (-3, 3)})
    assert F.judge(c2, _verdict(Status.PROVED)) == ("ok", "")


def test_a_proof_where_the_statement_is_undefined_is_false_unless_its_scope_excludes_those_points():
    c = _case({"x": "integer"}, ["x >= -1", "x <= 1"], "1 / x >= -1", {"x": (-1, 1)})
    outcome, why = F.judge(c, _verdict(Status.PROVED))
    assert outcome == "false" and "undefined" in why
    assert F.judge(c, _verdict(Status.PROVED, scope="where every denominator is defined"))[0] == "ok"


def test_a_rational_symbol_refuted_at_an_irrational_point_is_a_false_verdict():
    import sympy

    c = F.Case("rational", "fuzz2026.t", "", "implies", {"q": "rational"}, [], "Ne(q**2, 2)",
               oracle="construction", truth=True)
    root = sympy.CRootOf(sympy.Symbol("t") ** 2 - 2, 1)
    outcome, why = F.judge(c, _verdict(Status.REFUTED, {"q": root}))
    assert outcome == "false" and "irrational" in why
    # negative twin: the same point refutes it for a real symbol
    c.symbols = {"q": "real"}
    assert F.judge(c, _verdict(Status.REFUTED, {"q": root}))[0] == "ok"


def _node_case(concl: str, arity: int = 2, sizes: tuple[int, int] = (3, 3), hyps: list[str] | None = None) -> F.Case:
    return F.Case("node_labels", "fuzz2026.t", "", "node", oracle="node",
                  node={"hyps": hyps or [], "concl": concl, "arity": arity, "W": {}, "sizes": sizes})


def test_the_node_oracle_finds_the_counterexample_behind_a_label_test():
    c = _node_case("lambda a, i, j: L.Implies(i == 3, a(i, j) <= 0)")
    outcome, why = F.judge(c, _verdict(Status.PROVED))
    assert outcome == "false" and "m=3" in why and "(3," in why
    # negative twin: the statement with the label test is true when the bound is on the label's tuple too
    ok = _node_case("lambda a, i, j: L.Implies(i == 3, a(i, j) >= 0)")
    assert F.judge(ok, _verdict(Status.PROVED)) == ("ok", "")


def test_a_node_refutation_is_checked_on_its_own_weights():
    c = _node_case("lambda a, i, j: a.d(i, j) >= 0", sizes=(2, 2))
    assert F.judge(c, Verdict("fuzz2026.t", Status.REFUTED, "", "t", 0.0,
                              Witness({"a[1,2]": Fraction(0), "a[2,1]": Fraction(1)}, True, size=2)))[0] == "ok"
    outcome, _ = F.judge(c, Verdict("fuzz2026.t", Status.REFUTED, "", "t", 0.0,
                                    Witness({"a[1,2]": Fraction(1), "a[2,1]": Fraction(1)}, True, size=2)))
    assert outcome == "false"


def test_generation_is_seeded_and_every_case_builds_a_claim():
    a, b = F.generate(40, seed=7), F.generate(40, seed=7)
    assert [c.source for c in a] == [c.source for c in b]
    assert [c.source for c in F.generate(40, seed=8)] != [c.source for c in a]
    for c in a:
        assert F.build(c).id == c.cid
        assert "/" not in c.concl.replace(" / (", "")  # exact constants only: Rational(p, q), never p/q


def test_an_unknown_family_is_refused_with_a_one_line_message():
    from symcal.errors import SymcalError

    with pytest.raises(SymcalError, match="families"):
        F.generate(3, families=["nope"])


# --------------------------------------------------------------------------- the differential runs


def test_300_seeded_random_claims_get_no_false_verdict():
    start = time.monotonic()
    r = F.run_fuzz(300, seed=0, timeout=2.0, isolate=False)
    took = time.monotonic() - start
    assert r.claims == 300
    assert not r.false_verdicts, _report(r)
    assert took < 90, f"the default-run fuzz took {took:.0f} s"


@pytest.mark.slow
def test_10000_seeded_random_claims_get_no_false_verdict():
    r = F.run_fuzz(10_000, seed=1, timeout=3.0, isolate=False)
    assert r.claims == 10_000
    assert not r.false_verdicts, _report(r)
