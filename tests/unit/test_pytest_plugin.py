"""Claims inside a researcher's own test suite: `assert_proved` / `assert_refuted` and the
`@pytest.mark.symcal(timeout=...)` marker, run as a user would run them (pytester)."""

from importlib.metadata import entry_points

import pytest

from symcal.testing import falsifying_example

pytest_plugins = ["pytester"]

CLAIMS = '''
import sympy
from symcal import Citation, implies, reals

p, q = reals("p q")
mine = Citation("mine2026", "Notebook, p. 3")
true_claim = implies("mine2026.am_gm_half", hypotheses={"simplex": [p >= 0, q >= 0, sympy.Eq(p + q, 1)]},
                     conclusion=p * q <= sympy.Rational(1, 4), cite=mine, statement="pq <= 1/4 on the simplex")
false_claim = implies("mine2026.am_gm_everywhere", hypotheses={"nonneg": [p >= 0, q >= 0]},
                      conclusion=p * q <= sympy.Rational(1, 4), cite=mine, statement="pq <= 1/4 for p, q >= 0")
'''

USER_TESTS = '''
import pytest
from claims import false_claim, true_claim
from symcal.testing import assert_proved, assert_refuted


def test_a_true_claim_is_proved():
    v = assert_proved(true_claim)
    assert v.status.value == "proved"


def test_a_false_claim_fails_with_its_counterexample():
    assert_proved(false_claim)


def test_a_false_claim_is_refuted():
    v = assert_refuted(false_claim)
    assert v.witness.rechecked


def test_a_true_claim_is_not_refuted():
    assert_refuted(true_claim)


@pytest.mark.symcal(timeout=7)
def test_the_marker_sets_the_timeout():
    assert_proved(false_claim)


@pytest.mark.symcal(timeout=7)
def test_an_explicit_timeout_wins_over_the_marker():
    assert_proved(false_claim, timeout=9)


@pytest.mark.symcal(30)
def test_a_positional_marker_argument_is_refused():
    assert_proved(true_claim)
'''


def _plugin_args() -> list[str]:
    """``-p symcal.testing`` unless the installed package already registers the plugin."""
    registered = any(ep.value == "symcal.testing" for ep in entry_points(group="pytest11"))
    return [] if registered else ["-p", "symcal.testing"]


@pytest.fixture(scope="module", autouse=True)
def _imported_outside_pytester():
    """pytester's in-process runs restore ``sys.modules`` after each run, so a module first imported
    inside one run is imported afresh by the next, and objects of the two imports do not mix (sympy:
    "Can only compare inequalities with Expr"; symcal: "expected a Claim built by a constructor").
    Whether it happens depended on which test files the worker ran before this one: deciding the
    user's claims once here imports everything the runs use, outside every run."""
    from symcal.testing import assert_proved, assert_refuted

    ns: dict = {}
    exec(CLAIMS, ns)
    assert_proved(ns["true_claim"], timeout=30)
    assert_refuted(ns["false_claim"], timeout=30)
    with pytest.raises(AssertionError):
        assert_proved(ns["false_claim"], timeout=30)


@pytest.fixture
def run(pytester):
    pytester.makepyfile(claims=CLAIMS, test_user=USER_TESTS)
    # -p no:benchmark: where pytest-benchmark is installed it warns at start-up when xdist is loaded,
    # and the outer run's filterwarnings=error would turn that into an internal error of the inner run
    # and -p no:hypothesispytest: the user's suite needs no Hypothesis, and when the outer run imported
    # hypothesis before its plugin, loading the plugin here warns (an error under filterwarnings=error)
    result = pytester.runpytest(*_plugin_args(), "--strict-markers", "-p", "no:cacheprovider", "-p", "no:benchmark",
                                "-p", "no:hypothesispytest")
    return result, result.stdout.str()


def test_a_users_suite_passes_for_true_claims_and_fails_for_false_ones(run):
    result, _ = run
    result.assert_outcomes(passed=2, failed=5)
    assert {r.nodeid.split("::")[1] for r in result.reprec.getreports("pytest_runtest_logreport")
            if r.when == "call" and r.passed} == {"test_a_true_claim_is_proved", "test_a_false_claim_is_refuted"}


def test_the_failure_shows_the_counterexample_like_a_falsifying_example(run):
    _, out = run
    assert "mine2026.am_gm_everywhere is refuted, not proved: pq <= 1/4 for p, q >= 0" in out
    assert "Falsifying example: p=1, q=1 (re-checked exactly)" in out
    assert "mine2026.am_gm_half is proved, not refuted" in out and "negated query unsat" in out


def test_the_marker_sets_the_default_timeout_and_an_argument_wins(run):
    _, out = run
    assert "timeout 7 s per decision" in out and "timeout 9 s per decision" in out
    assert "timeout 60 s per decision" in out  # unmarked tests keep the default
    assert "expected keyword arguments only" in out


def test_falsifying_example_names_every_value_and_the_size():
    from fractions import Fraction

    from symcal.verdicts import Status, Verdict, Witness

    w = Witness({"a[1,2]": Fraction(1, 2), "a[2,1]": Fraction(0)}, rechecked=True, size=2,
                detail="the conclusion fails at (1, 2)", found_by="z3")
    text = falsifying_example(Verdict("mine2026.x", Status.REFUTED, "m = 2", "z3", 0.1, w))
    assert text.splitlines()[0] == "Falsifying example: m=2, a[1,2]=1/2, a[2,1]=0 (re-checked exactly)"
    assert "the conclusion fails at (1, 2)" in text and "found by z3" in text
