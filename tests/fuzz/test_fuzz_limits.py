"""Every verb total and bounded (issue 13): Hypothesis attacks on sizes, numbers, expressions
and files.  Each class of reported failure has a strategy here, so that the suite grows with
the failures it has seen:

* sizes: an m, r or matrix beyond the machine is refused up front naming the parameter and the
  size, never a MemoryError, OverflowError or hang;
* numbers: huge, tiny and oddly scaled exact numbers give exact answers (checked against a
  Fraction oracle) or a one-line error;
* expressions: a bounded inequality undefined on part of its box is never decided;
* files: a ``--theorems`` file that exits, crashes, kills itself or loops at import, and a loss
  file with repeated labels, are one-line errors (exit 2);
* hangs: a hard preference report or loss rank stops at ``--timeout`` with "gave up" or
  ``unknown``.

In-process through ``cli.main`` (the time-limited work runs in forked children) and
derandomized for CI; attacks that need minutes are marked ``slow``.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcal.cli import main
from symcal.errors import InvalidInput
from tests.common.timing import within

FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FEW = settings(FUZZ, max_examples=8)


def run(argv, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 2
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, (argv, err)
    return code, out, err


def one_error(argv, capsys, *names: str) -> str:
    code, out, err = run(argv, capsys)
    lines = [ln for ln in err.splitlines() if ln.startswith("symcal: error:")]
    assert code == 2 and len(lines) == 1, (argv, code, err)
    assert all(n in lines[0] for n in names), (lines[0], names)
    return lines[0]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("limits")


def write(d: Path, name: str, data: object) -> Path:
    p = d / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return p


# --------------------------------------------------------------------------- sizes

huge_m = st.one_of(st.integers(5001, 10**6), st.integers(10**6, 10**40), st.sampled_from([10**9, 2**63, 2**64 + 1]))


@FUZZ
@given(m=huge_m)
def test_a_preference_file_with_an_m_beyond_the_machine_is_refused_naming_m(m, scratch, capsys):
    p = write(scratch, "huge_m.json", {"m": m, "weights": [[1, 2, 1]]})
    line = one_error(["preference", p], capsys, "m=", "entries; at most 2.5e7")
    assert str(m)[:20] in line or "too large" in line


@FUZZ
@given(name=st.sampled_from(["precision", "wta", "eru", "map", "pd", "dcg", "ndcg"]), r=st.integers(2, 8),
       labels=st.sampled_from([None, "unit_dags", "total_orders", "weighted_dags"]),
       s=st.one_of(st.none(), st.integers(1, 6), st.sampled_from([10**6, 10**30])))
def test_a_named_loss_is_refused_before_it_is_built_or_fits_in_memory(name, r, labels, s):
    from symcal.ranking.loss_matrix import MAX_ENTRIES
    from symcal.ranking.subset_losses import _check_named_size, named_size

    params: dict[str, object] = {}
    if name == "pd" and labels:
        params["labels"] = labels
    if name in ("eru", "dcg", "ndcg") and s is not None:
        params["s"] = s
    size = named_size(name, r, params)
    try:
        _check_named_size(name, r, params)
    except InvalidInput as e:
        assert e.param == "r" and "entries; at most 5e7" in str(e)
        assert size is not None and size[0] * size[1] > MAX_ENTRIES
        return
    assert size is None or size[0] * size[1] <= MAX_ENTRIES


@FEW
@given(r=st.integers(8, 9), labels=st.sampled_from(["total_orders", "unit_dags", "weighted_dags"]))
def test_the_command_line_refuses_an_oversized_pd_loss_in_one_line_and_at_once(r, labels, capsys):
    t = time.monotonic()
    one_error(["loss", "pd", "--r", r, "--labels", labels], capsys, "r=")
    assert time.monotonic() - t < within(5)


# --------------------------------------------------------------------------- numbers

exact_weights = st.one_of(
    st.integers(0, 9).map(str),
    st.sampled_from(["1e300", "1e-300", "10/3", "0/7", "123456789012345678901234567890/7", "1e4000"]),
    st.builds(lambda p, q: f"{p}/{q}", st.integers(0, 10**40), st.integers(1, 10**40)),
    st.integers(0, 10**200),
)


@FUZZ
@given(m=st.integers(2, 6), data=st.data())
def test_huge_and_tiny_exact_weights_get_the_exact_low_noise_verdict(m, data, scratch, capsys):
    w = {(i, j): data.draw(exact_weights) for i in range(1, m + 1) for j in range(1, m + 1)
         if i != j and data.draw(st.booleans())}
    if not w:
        w = {(1, 2): "1"}
    p = write(scratch, "numbers.json", {"m": m, "weights": [[i, j, v] for (i, j), v in w.items()]})
    code, out, _err = run(["preference", p, "--json", "--timeout", "20"], capsys)
    assert code in (0, 1)
    rep = json.loads(out)
    a = {k: Fraction(v) for k, v in w.items()}

    def d(i: int, j: int) -> Fraction:
        return a.get((i, j), Fraction(0)) - a.get((j, i), Fraction(0))

    bad = [(i, j, k) for i in range(1, m + 1) for j in range(1, m + 1) for k in range(1, m + 1)
           if len({i, j, k}) == 3 and d(i, j) > 0 and d(j, k) > 0 and d(i, k) < d(i, j) + d(j, k)]
    assert rep["low_noise"]["holds"] == (not bad)
    if bad:
        assert rep["low_noise"]["violating_triple"] == list(bad[0])


@FUZZ
@given(n=st.integers(1, 4), k=st.integers(1, 4), data=st.data())
def test_loss_matrices_with_huge_entries_get_the_exact_rank(n, k, data, scratch, capsys):
    big = st.one_of(st.integers(-(10**60), 10**60), st.sampled_from([0, 1, 2**63, -(2**63), 10**300]))
    rows = [[data.draw(big) for _ in range(k)] for _ in range(n)]
    p = write(scratch, "bigloss.json", {"matrix": rows})
    code, out, _err = run(["loss", p, "--json", "--timeout", "20"], capsys)
    assert code == 0
    assert json.loads(out)["rank"]["value"] == sympy.Matrix(rows).rank()


# --------------------------------------------------------------------------- expressions

x = sympy.Symbol("x", real=True)
OPS = {
    "sqrt": (sympy.sqrt, ">="),
    "log": (sympy.log, ">"),
    "inverse": (lambda g: 1 / g, "!="),
    "inverse sqrt": (lambda g: 1 / sympy.sqrt(g), ">"),
}


@FUZZ
@given(op=st.sampled_from(sorted(OPS)), a=st.integers(-3, 3).filter(bool), b=st.integers(-6, 6),
       lo=st.integers(-5, 4), width=st.integers(0, 5), rel=st.sampled_from([">=", ">", "<=", "<"]),
       rhs=st.integers(-2, 2))
def test_an_expression_undefined_on_part_of_its_box_is_never_decided(op, a, b, lo, width, rel, rhs):
    from symcal import Citation, Status, bounded_inequality, check

    fn, need = OPS[op]
    g = a * x + b
    hi = lo + width
    ends = [a * lo + b, a * hi + b]  # g is linear: its extremes are at the ends of the box
    if need == ">=":
        defined = min(ends) >= 0
    elif need == ">":
        defined = min(ends) > 0
    else:
        defined = min(ends) > 0 or max(ends) < 0
    claim = bounded_inequality("fuzz2026.domain", fn(g), rel, rhs, box={x: (lo, hi)},
                               cite=Citation("fuzz2026", "Eq. (1)", "domain"))
    v = check(claim, isolate=False, timeout=10)
    if not defined:
        assert v.status is Status.UNKNOWN, (op, g, (lo, hi), rel, rhs, v.status)
        assert "undefined" in v.reason, v.reason
    elif v.status is Status.REFUTED:  # decisive only where defined, and re-checked exactly
        assert v.witness is not None and v.witness.rechecked


# --------------------------------------------------------------------------- files

IMPORT_ATTACKS = {
    "os_exit": "import os\nos._exit({n})\n",
    "sys_exit_thread": "import threading, sys\nt = threading.Thread(target=lambda: sys.exit({n}))\nt.start()\n"
                       "t.join()\nimport os\nos._exit(0)\n",
    "self_kill": "import os, signal\nos.kill(os.getpid(), signal.{sig})\n",
    "abort": "import os\nos.abort()\n",
    "segfault": "import ctypes\nctypes.string_at(0)\n",
    "keyboard": "raise KeyboardInterrupt\n",
    "generator_exit": "raise GeneratorExit\n",
}
DEEP_RECURSION = "import sys\nsys.setrecursionlimit(10**6)\ndef f(n): return f(n + 1)\nf(0)\n"  # ~10 s to crash


@pytest.fixture()
def quiet_crashes():
    """A child that crashes would print pytest's faulthandler dump: not this test's business."""
    import faulthandler
    import sys

    was = faulthandler.is_enabled()
    faulthandler.disable()
    yield
    if was:
        try:
            faulthandler.enable(file=sys.__stderr__)
        except (ValueError, OSError, AttributeError):  # no real stderr under this runner
            pass


@settings(FUZZ, max_examples=6)
@given(kind=st.sampled_from(sorted(IMPORT_ATTACKS)), n=st.integers(0, 3),
       sig=st.sampled_from(["SIGKILL", "SIGTERM", "SIGSEGV", "SIGXCPU", "SIGUSR1"]),
       verb=st.sampled_from(["list", "check", "show"]))
def test_a_theorems_file_that_ends_the_process_at_import_is_a_one_line_error(kind, n, sig, verb, scratch, capsys,
                                                                          quiet_crashes):
    p = write(scratch, f"attack_{kind}.py", IMPORT_ATTACKS[kind].format(n=n, sig=sig))
    argv = [verb, *(["fuzz2026.x"] if verb == "show" else []), "--theorems", p]
    if verb == "check":
        argv += ["--timeout", "5"]
    one_error(argv, capsys, "--theorems", str(p))


@pytest.mark.parametrize("body", [
    "while True:\n    pass\n",
    pytest.param("import time\nwhile True:\n    time.sleep(0.01)\n", marks=pytest.mark.slow),  # the wall backstop
    pytest.param("x = 2\nwhile True:\n    x = x * x % 1000003\n", marks=pytest.mark.slow),
])
def test_a_theorems_file_that_loops_at_import_is_stopped_at_the_timeout(body, scratch, capsys):
    p = write(scratch, "loops.py", body)
    t = time.monotonic()
    one_error(["check", "--theorems", p, "--timeout", "1"], capsys, "--theorems", "did not finish")
    assert time.monotonic() - t < 4 * 1 + 5  # the wall-clock backstop of a 1 s budget


@FUZZ
@given(n=st.integers(2, 5), data=st.data())
def test_a_loss_file_with_repeated_labels_or_predictions_is_refused(n, data, scratch, capsys):
    names = st.one_of(st.sampled_from(["a", "b", "c"]), st.lists(st.integers(0, 1), min_size=2, max_size=2),
                      st.integers(0, 2))
    labels = [data.draw(names) for _ in range(n)]
    preds = [data.draw(names) for _ in range(2)]
    p = write(scratch, "labels.json", {"matrix": [[i, i + 1] for i in range(n)], "labels": labels,
                                       "predictions": preds})

    def key(v: object) -> str:
        return json.dumps(v)

    dup_labels = len({key(v) for v in labels}) < n
    dup_preds = len({key(v) for v in preds}) < 2
    if dup_labels or dup_preds:
        one_error(["loss", p], capsys, "labels[" if dup_labels else "predictions[", "repeats")
    else:
        code, _out, _err = run(["loss", p], capsys)
        assert code in (0, 1)


# --------------------------------------------------------------------------- hangs

def dense(m: int, seed: int) -> dict:
    import random

    rng = random.Random(seed)
    return {"m": m, "weights": [[i, j, f"{rng.randint(0, 9)}/{rng.randint(1, 5)}"] for i in range(1, m + 1)
                                for j in range(1, m + 1) if i != j and rng.random() < 0.5]}


@settings(FUZZ, max_examples=3)
@given(m=st.integers(30, 60), seed=st.integers(0, 10**6))
def test_a_hard_preference_report_stops_at_its_timeout_with_an_honest_minimum(m, seed, scratch, capsys):
    p = write(scratch, "hard.json", dense(m, seed))
    t = time.monotonic()
    code, out, _err = run(["preference", p, "--json", "--timeout", "2"], capsys)
    assert time.monotonic() - t < 4 * 2 + 5
    rep = json.loads(out)
    if "min_conditional_risk" not in rep:  # the whole report gave up
        assert code == 1 and rep["status"] == "unknown" and rep["reason"].startswith("gave up after 2 s")
        return
    risk = rep["min_conditional_risk"]
    assert (code == 0) == (risk["status"] == "exact")
    if risk["status"] == "unknown":
        assert risk["value"] is None and Fraction(risk["lower_bound"]) <= Fraction(risk["best_value"])


@pytest.mark.slow
def test_a_theorems_file_that_overflows_the_c_stack_at_import_is_a_one_line_error(scratch, capsys, quiet_crashes):
    p = write(scratch, "deep.py", DEEP_RECURSION)
    one_error(["list", "--theorems", p], capsys, "--theorems")


@pytest.mark.slow
@pytest.mark.parametrize("m", [300, 600])
def test_a_dense_preference_report_of_hundreds_of_nodes_answers_within_the_default_limit(m, scratch, capsys):
    p = write(scratch, f"dense{m}.json", dense(m, 0))
    t = time.process_time()
    code, out, _err = run(["preference", p, "--json"], capsys)
    assert code in (0, 1) and time.process_time() - t < 60
    assert json.loads(out)["m"] == m


@pytest.mark.slow
@pytest.mark.parametrize("n", [1000, 2000])
def test_large_random_loss_matrices_answer_within_the_default_limit(n, scratch, capsys):
    pytest.importorskip("flint")
    import numpy as np

    p = write(scratch, f"loss{n}.json", {"matrix": np.random.default_rng(n).integers(-5, 6, (n, n)).tolist()})
    code, out, _err = run(["loss", p, "--json"], capsys)
    assert code == 0 and json.loads(out)["rank"]["value"] == n
