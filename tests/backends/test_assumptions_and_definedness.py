"""Every sympy assumption a symbol carries is encoded in the query or checked on the witness, or the
claim is refused; an expression undefined somewhere in the claimed domain is never decided as if it
were defined; a verdict's scope says what was shown (integers, signs, where both sides are defined).

Each test has its negative twin: the same claim without the assumption (or with a defined
expression) decided the other way.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from sympy import Eq, Ne, Piecewise, Rational, Symbol, exp, log, sqrt

from symcal import Citation, InvalidClaim, bounded_inequality, exists, finite_check, identity, implies, implies_cases
from symcal.backends import Budget, decide
from symcal.backends.smt_claims import TRIVIAL_CONCLUSION
from symcal.backends.sympy_backend import IDENTICAL_SIDES
from symcal.backends.translate import assumptions_hold, symbol_domain
from symcal.errors import InvalidInput
from symcal.verdicts import Status, Witness

CITE = Citation("user2024", "a user's own objects")
x = Symbol("x", real=True)
q = Symbol("q", rational=True)
ne = Symbol("ne", even=True)
no = Symbol("no", odd=True)
n = Symbol("n", integer=True)
p = Symbol("p", positive=True)
pr = Symbol("pr", prime=True)


def run(claim, seconds: float = 20.0):
    return decide(claim, None, Budget(seconds))


def refuted_within_assumptions(out) -> dict:
    """A refutation whose witness satisfies every assumption of every symbol (checked here again)."""
    assert out.status is Status.REFUTED, (out.status, out.reason)
    w = out.evidence
    assert isinstance(w, Witness) and w.rechecked
    values = {sym: w.values[str(sym)] for sym in (x, q, ne, no, n, p, pr) if str(sym) in w.values}
    assert assumptions_hold(values)[0] is True, values
    return w.values


# --- the user's false verdicts ------------------------------------------------------------------


def test_a_rational_symbol_is_never_refuted_by_an_irrational_model():
    out = run(implies("user2024.rational_cube", hypotheses={"h": [Eq(q**3, 2)]}, conclusion=q > 10, cite=CITE))
    assert out.status is Status.UNKNOWN
    assert "rational=True" in out.reason and "CRootOf" in out.reason


def test_without_the_rational_assumption_the_cube_root_of_two_refutes_it():
    out = run(implies("user2024.real_cube", hypotheses={"h": [Eq(x**3, 2)]}, conclusion=x > 10, cite=CITE))
    assert out.status is Status.REFUTED and "CRootOf" in str(out.evidence.values["x"])


def test_there_is_no_rational_cube_root_of_two_so_none_is_witnessed():
    out = run(exists("user2024.rational_cube_exists", constraints={"h": [Eq(q**3, 2)]}, cite=CITE))
    assert out.status is not Status.WITNESSED
    assert "rational=True" in out.reason


def test_a_rational_square_root_of_four_ninths_is_witnessed_by_a_rational():
    out = run(exists("user2024.rational_square_exists", constraints={"h": [Eq(q**2, Rational(4, 9))]}, cite=CITE))
    assert out.status is Status.WITNESSED and abs(out.evidence.values["q"]) == Fraction(2, 3)


def test_an_even_symbol_is_never_refuted_by_an_odd_value():
    out = run(implies("user2024.even_gap", hypotheses={"h": [ne > 0, ne < 2]}, conclusion=ne > 5, cite=CITE))
    assert out.status is Status.PROVED  # no even integer lies in (0, 2)


def test_an_integer_symbol_is_refuted_by_one_in_the_gap():
    out = run(implies("user2024.integer_gap", hypotheses={"h": [n > 0, n < 2]}, conclusion=n > 5, cite=CITE))
    assert refuted_within_assumptions(out) == {"n": 1}


def test_a_piecewise_undefined_on_part_of_the_box_is_not_decided():
    out = run(bounded_inequality("user2024.piecewise_gap", Piecewise((1, x > 0)), ">", 0, box={x: (-1, 1)},
                                 cite=CITE))
    assert out.status is Status.UNKNOWN and "no otherwise branch" in out.reason and "x = 0" in out.reason


def test_a_piecewise_whose_conditions_cover_the_box_is_decided():
    out = run(bounded_inequality("user2024.piecewise_covered", Piecewise((1, x > 0), (2, x < 0)), ">", 0,
                                 box={x: (-1, -Rational(1, 2))}, cite=CITE))
    assert out.status is Status.PROVED


def test_a_piecewise_with_a_gap_between_its_branches_is_not_decided():
    out = run(bounded_inequality("user2024.piecewise_two_gap", Piecewise((1, x > 0), (2, x < 0)), ">", 0,
                                 box={x: (-1, 1)}, cite=CITE))
    assert out.status is Status.UNKNOWN and "no otherwise branch" in out.reason


def test_a_conclusion_sympy_evaluated_to_true_is_proved_with_a_warning():
    claim = implies("user2024.evaluated", hypotheses={"h": [x > -1]}, conclusion=Piecewise((1, x > 0)) > 0, cite=CITE)
    out = run(claim)
    assert out.status is Status.PROVED and TRIVIAL_CONCLUSION in out.warnings


def test_a_conclusion_that_states_something_has_no_such_warning():
    out = run(implies("user2024.states", hypotheses={"h": [x > 1]}, conclusion=x > 0, cite=CITE))
    assert out.status is Status.PROVED and TRIVIAL_CONCLUSION not in out.warnings


def test_a_family_whose_every_conclusion_is_true_as_built_says_so():
    cases = [("a", {"h": [x > 0]}, sympy.true), ("b", {"h": [x < 0]}, sympy.true)]
    out = run(implies_cases("user2024.trivial_family", cases=cases, cite=CITE))
    assert out.status is Status.PROVED and any("every one of the 2 cases" in w for w in out.warnings)


def test_a_family_with_one_stated_conclusion_has_no_such_warning():
    cases = [("a", {"h": [x > 0]}, sympy.true), ("b", {"h": [x < 0]}, x < 1)]
    out = run(implies_cases("user2024.stated_family", cases=cases, cite=CITE))
    assert out.status is Status.PROVED and not any("every one" in w for w in out.warnings)


# --- scopes say what was shown --------------------------------------------------------------------


def test_a_rational_function_identity_is_proved_where_both_sides_are_defined():
    out = run(identity("user2024.removable", (x**2 - 1) / (x - 1), x + 1, cite=CITE))
    assert out.status is Status.PROVED
    assert out.scope == "identity for all real values of x where both sides are defined (x != 1)"


def test_a_polynomial_identity_is_proved_for_all_real_values():
    out = run(identity("user2024.polynomial", x**2 - 1, (x - 1) * (x + 1), cite=CITE))
    assert out.status is Status.PROVED and out.scope == "identity for all real values of x"


def test_an_identity_sympy_decided_when_it_built_it_says_so():
    out = run(identity("user2024.exp_log", exp(log(x)), x, cite=CITE))  # sympy builds exp(log(x)) as x
    assert out.status is Status.PROVED and IDENTICAL_SIDES in out.warnings


def test_an_identity_symcal_decided_has_no_such_warning():
    out = run(identity("user2024.square", (x + 1)**2, x**2 + 2 * x + 1, cite=CITE))
    assert out.status is Status.PROVED and not out.warnings


def test_a_log_identity_is_not_refuted_where_the_logs_are_undefined():
    out = run(identity("user2024.log_square", log(x**2), 2 * log(x), cite=CITE))  # holds wherever log(x) is
    assert out.status is not Status.REFUTED


def test_a_false_log_identity_is_refuted_where_the_logs_are_defined():
    out = run(identity("user2024.log_cube", log(x**2), 3 * log(x), cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values["x"] > 0


def test_a_proof_over_a_positive_symbol_says_so_in_its_scope():
    out = run(implies("user2024.positive_scope", hypotheses={"h": [p < 1]}, conclusion=p**2 < p, cite=CITE))
    assert out.status is Status.PROVED and out.scope == "all real values of p with p > 0"


def test_a_proof_over_an_integer_symbol_says_all_integers():
    out = run(implies("user2024.integer_scope", hypotheses={"h": [n > 0]}, conclusion=n >= 1, cite=CITE))
    assert out.status is Status.PROVED and out.scope == "all integer values of n"


def test_the_same_claim_over_a_real_symbol_is_refuted_between_the_integers():
    out = run(implies("user2024.real_scope", hypotheses={"h": [x > 0]}, conclusion=x >= 1, cite=CITE))
    assert out.status is Status.REFUTED and 0 < out.evidence.values["x"] < 1 and out.scope == "all real values of x"


# --- every assumption, on every kind of claim: encoded (proved / refuted within it) or refused -------

# (symbol, a true implication that needs its assumption, a false one) -- the false one's counterexample must
# satisfy the assumption; without the assumption the true one is refuted
SYMBOLS = {
    "integer": (Symbol("v", integer=True), lambda v: ({"h": [v > 0]}, v >= 1), lambda v: ({"h": [v > 0]}, v >= 2)),
    "even": (Symbol("v", even=True), lambda v: ({"h": [v > 0]}, v >= 2), lambda v: ({"h": [v > 0]}, v >= 4)),
    "odd": (Symbol("v", odd=True), lambda v: ({"h": [v > -2]}, v**2 >= v), lambda v: ({"h": [v > 0]}, v >= 3)),
    "positive": (Symbol("v", positive=True), lambda v: ({"h": [v < 1]}, v**2 < v), lambda v: ({}, v > 1)),
    "nonnegative": (Symbol("v", nonnegative=True), lambda v: ({"h": [v < 1]}, v**2 <= v), lambda v: ({}, v > 0)),
    "negative": (Symbol("v", negative=True), lambda v: ({"h": [v > -1]}, v**2 < -v), lambda v: ({}, v < -1)),
    "nonpositive": (Symbol("v", nonpositive=True), lambda v: ({"h": [v > -1]}, v**2 <= -v),
                    lambda v: ({}, v < 0)),
    "nonzero": (Symbol("v", nonzero=True), lambda v: ({}, Ne(v**3 + v, 0)), lambda v: ({}, v**2 > 1)),
    "rational": (Symbol("v", rational=True), None, lambda v: ({"h": [Eq(v**2, Rational(1, 4))]}, v > 0)),
    "prime": (Symbol("v", prime=True), None, lambda v: ({"h": [v < 4]}, v < 3)),
    "finite": (Symbol("v", finite=True), None, lambda v: ({}, v**2 > 0)),
    "real": (Symbol("v", real=True), None, lambda v: ({}, v**2 > 0)),
}
PLAIN = Symbol("v", real=True)


@pytest.mark.parametrize("kind", [k for k, (_, true, _) in SYMBOLS.items() if true is not None])
def test_an_implication_that_needs_the_assumption_is_proved(kind):
    v, true, _ = SYMBOLS[kind]
    hyps, concl = true(v)
    out = run(implies(f"user2024.needs_{kind}", hypotheses=hyps, conclusion=concl, cite=CITE))
    assert out.status is Status.PROVED, (kind, out.reason)


@pytest.mark.parametrize("kind", [k for k, (_, true, _) in SYMBOLS.items() if true is not None])
def test_without_the_assumption_the_same_implication_is_refuted(kind):
    v, true, _ = SYMBOLS[kind]
    hyps, concl = true(PLAIN)
    out = run(implies(f"user2024.lacks_{kind}", hypotheses=hyps, conclusion=concl, cite=CITE))
    assert out.status is Status.REFUTED, kind


@pytest.mark.parametrize("kind", list(SYMBOLS))
def test_a_false_implication_is_refuted_by_a_counterexample_within_the_assumption(kind):
    v, _, false = SYMBOLS[kind]
    hyps, concl = false(v)
    out = run(implies(f"user2024.false_{kind}", hypotheses=hyps, conclusion=concl, cite=CITE))
    assert out.status is Status.REFUTED, (kind, out.reason)
    value = out.evidence.values["v"]
    assert assumptions_hold({v: value})[0] is True, (kind, value)


OUTSIDE = {"integer": Fraction(1, 2), "even": Fraction(1), "odd": Fraction(2), "positive": Fraction(0),
           "nonnegative": Fraction(-1), "negative": Fraction(0), "nonpositive": Fraction(1), "nonzero": Fraction(0),
           "rational": sympy.CRootOf(sympy.Poly([1, 0, 0, -2], Symbol("t")), 0), "prime": Fraction(4)}
INSIDE = {"integer": Fraction(-3), "even": Fraction(-4), "odd": Fraction(-3), "positive": Fraction(1, 3),
          "nonnegative": Fraction(0), "negative": Fraction(-1, 3), "nonpositive": Fraction(0), "nonzero": Fraction(-2),
          "rational": Fraction(1, 3), "prime": Fraction(5)}


@pytest.mark.parametrize("kind", list(OUTSIDE))
def test_a_value_outside_the_assumption_is_never_a_witness(kind):
    assert assumptions_hold({SYMBOLS[kind][0]: OUTSIDE[kind]})[0] is False


@pytest.mark.parametrize("kind", list(INSIDE))
def test_a_value_within_the_assumption_is_one(kind):
    assert assumptions_hold({SYMBOLS[kind][0]: INSIDE[kind]})[0] is True


@pytest.mark.parametrize("assumption", [{"complex": True}, {"imaginary": True}, {"real": False},
                                        {"extended_real": True}, {"infinite": True}, {"commutative": False}])
def test_a_symbol_that_is_not_real_is_refused_by_every_constructor(assumption):
    z = Symbol("z", **assumption)
    key = next(iter(assumption))
    makers = [
        lambda: identity("user2024.c1", z + 1, 1 + z, cite=CITE),
        lambda: implies("user2024.c2", hypotheses={"h": [Eq(z * x, 1)]}, conclusion=Eq(z * x, 1), cite=CITE),
        lambda: implies_cases("user2024.c3", cases=[("a", {"h": [Eq(z * x, 1)]}, Eq(z * x, 1))], cite=CITE),
        lambda: exists("user2024.c4", constraints={"h": [Eq(z * x, 1)]}, cite=CITE),
        lambda: bounded_inequality("user2024.c5", z, ">=", 0, box={z: (0, 1)}, cite=CITE),
    ]
    for make in makers:
        with pytest.raises(InvalidClaim) as e:
            make()
        assert f"symbol z has assumption {key}=" in str(e.value) and "\n" not in str(e.value)


def test_a_real_symbol_is_accepted_by_every_constructor():
    z = Symbol("z", real=True)
    identity("user2024.r1", z + 1, 1 + z, cite=CITE)
    implies("user2024.r2", hypotheses={"h": [Eq(z, 1)]}, conclusion=Eq(z, 1), cite=CITE)
    implies_cases("user2024.r3", cases=[("a", {"h": [Eq(z, 1)]}, Eq(z, 1))], cite=CITE)
    exists("user2024.r4", constraints={"h": [Eq(z, 1)]}, cite=CITE)
    bounded_inequality("user2024.r5", z, ">=", 0, box={z: (0, 1)}, cite=CITE)


def test_a_complex_symbol_built_by_a_function_of_the_size_is_refused_when_decided():
    z = Symbol("z", complex=True)
    claim = implies("user2024.sized", hypotheses={"h": lambda m: [Eq(z, m)]}, conclusion=lambda m: Eq(z, m),
                    sizes=(1, 2), cite=CITE)
    with pytest.raises(InvalidClaim, match="symbol z has assumption complex=True"):
        decide(claim, 1, Budget(5))


def test_the_same_claim_over_a_real_symbol_is_decided():
    z = Symbol("z", real=True)
    claim = implies("user2024.sized_real", hypotheses={"h": lambda m: [Eq(z, m)]}, conclusion=lambda m: Eq(z, m),
                    sizes=(1, 2), cite=CITE)
    assert decide(claim, 1, Budget(5)).status is Status.PROVED


def test_a_symbol_declared_without_assumptions_is_taken_as_real():
    assert symbol_domain(Symbol("w")).plain and symbol_domain(Symbol("w", finite=True)).plain


def test_a_symbol_declared_nonzero_without_real_is_refused():
    with pytest.raises(InvalidClaim, match="zero=False"):
        symbol_domain(Symbol("w", zero=False))


# identity: a witness of a false identity satisfies the assumption; a true one that needs it is proved


def test_an_identity_over_an_even_symbol_is_proved():
    assert run(identity("user2024.even_power", (-1)**ne, 1, cite=CITE)).status is Status.PROVED


def test_the_identity_over_an_integer_symbol_is_refuted_at_an_odd_integer():
    out = run(identity("user2024.integer_power", (-1)**n, 1, cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values["n"] % 2 == 1


def test_an_identity_over_a_positive_symbol_is_proved():
    assert run(identity("user2024.root_square", sqrt(p**2), p, cite=CITE)).status is Status.PROVED


def test_the_identity_over_a_real_symbol_is_refuted_at_a_negative_value():
    out = run(identity("user2024.root_square_real", sqrt(x**2), x, cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values["x"] < 0


def test_a_false_identity_over_a_prime_symbol_is_refuted_at_a_prime():
    out = run(identity("user2024.prime_square", pr**2, pr, cite=CITE))
    assert out.status is Status.REFUTED and sympy.isprime(int(out.evidence.values["pr"]))


def test_a_false_identity_over_an_odd_symbol_is_refuted_at_an_odd_integer():
    out = run(identity("user2024.odd_square", no**2, no, cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values["no"] % 2 == 1


# exists: encoded parity makes an odd-only solution set empty; a witness satisfies every assumption


def test_no_even_integer_solves_an_equation_whose_roots_are_odd():
    out = run(exists("user2024.even_roots", constraints={"h": [Eq(ne**2 - 2 * ne, 3)]}, cite=CITE))
    assert out.status is Status.REFUTED


def test_an_integer_solves_it():
    out = run(exists("user2024.integer_roots", constraints={"h": [Eq(n**2 - 2 * n, 3)]}, cite=CITE))
    assert out.status is Status.WITNESSED and out.evidence.values["n"] in (-1, 3)


def test_a_given_witness_outside_its_symbols_assumption_does_not_witness():
    # n = 1/2 is no witness (n is an integer); the search finds one that respects the assumption
    out = run(exists("user2024.bad_witness", constraints={"h": [n > 0]}, witness={n: Rational(1, 2)}, cite=CITE))
    assert out.status is Status.WITNESSED and out.evidence.values["n"] != Rational(1, 2)
    assert any("integer=True" in w for w in out.warnings)
    # its twin: no integer in (0, 1), so the existence itself is refuted
    out = run(exists("user2024.bad_witness2", constraints={"h": [n > 0, n < 1]}, witness={n: Rational(1, 2)},
                     cite=CITE))
    assert out.status is Status.REFUTED


def test_a_given_witness_within_it_witnesses():
    out = run(exists("user2024.good_witness", constraints={"h": [n > 0]}, witness={n: 1}, cite=CITE))
    assert out.status is Status.WITNESSED


# bounded inequalities: an integer symbol's claim is decided on the integers, a positive one on its sign


def test_a_bounded_inequality_over_an_integer_symbol_is_proved():
    out = run(bounded_inequality("user2024.int_box", n * (n - 1), ">=", 0, box={n: (-3, 3)}, cite=CITE))
    assert out.status is Status.PROVED and "integer values of n" in out.scope


def test_the_same_inequality_over_a_real_symbol_is_refuted_between_the_integers():
    out = run(bounded_inequality("user2024.real_box", x * (x - 1), ">=", 0, box={x: (-3, 3)}, cite=CITE))
    assert out.status is Status.REFUTED and 0 < out.evidence.values["x"] < 1


def test_a_bounded_inequality_over_a_positive_symbol_holds_on_its_sign():
    out = run(bounded_inequality("user2024.pos_box", p, ">", 0, box={p: (-1, 1)}, cite=CITE))
    assert out.status is Status.PROVED and "p > 0" in out.scope


def test_the_same_inequality_over_a_real_symbol_is_refuted():
    out = run(bounded_inequality("user2024.real_pos_box", x, ">", 0, box={x: (-1, 1)}, cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values["x"] <= 0


# implies_cases: each case's symbols keep their assumptions


def test_a_family_over_an_even_symbol_is_proved():
    out = run(implies_cases("user2024.even_family", cases=[("one", {"h": [ne > 0]}, ne >= 2)], cite=CITE))
    assert out.status is Status.PROVED and "ne even" in out.scope


def test_the_family_over_an_integer_symbol_is_refuted():
    out = run(implies_cases("user2024.int_family", cases=[("one", {"h": [n > 0]}, n >= 2)], cite=CITE))
    assert out.status is Status.REFUTED and out.evidence.values["n"] == 1


# finite_check formulas: a value must satisfy its symbol's assumptions


def test_a_formula_value_outside_its_symbols_assumption_is_refused():
    claim = finite_check("user2024.formula_bad", cases=[1], formula=lambda c: ([n >= 0], {n: Rational(1, 2)}),
                         domain="one case", cite=CITE)
    with pytest.raises(InvalidInput, match="integer=True"):
        run(claim)


def test_a_formula_value_within_it_is_decided():
    claim = finite_check("user2024.formula_good", cases=[1], formula=lambda c: ([n >= 0], {n: 2}),
                         domain="one case", cite=CITE)
    assert run(claim).status is Status.PROVED
