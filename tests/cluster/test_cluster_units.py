"""symcal.cluster without a scheduler: what travels to a worker (a query, not a claim), the
fingerprint that proves the worker rebuilt the same claim, the cache, the in-order hand-over of
results, and the worker's batch runner called directly."""

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from symcal import cluster
from symcal.backends import Outcome
from symcal.claims.constructors import all_sizes
from symcal.cluster import (
    Batch,
    DecisionCache,
    Sources,
    _InOrder,
    cacheable,
    claim_fingerprint,
    decision_key,
    from_cache,
    local_environment,
    resolve,
    run_batch,
)
from symcal.errors import InvalidClaim, InvalidInput
from symcal.explore.mutants import mutants_of
from symcal.library import load_bundled
from symcal.runner import Task, stops_sweep
from symcal.verdicts import Status

QUICK = "duchi2010.lemma10.cond1"  # an implication z3 proves in a tenth of a second


@pytest.fixture(scope="module")
def library():
    return {c.id: c for c in load_bundled()}


@pytest.fixture(scope="module")
def sources():
    return Sources()


def test_a_bundled_claim_travels_as_its_module_its_text_hash_and_its_id(library, sources):
    claim = library["duchi2010.lemma14"]
    ref, fp = sources.ref_of(claim)
    assert ref.source == "bundled:duchi2010" and ref.id == claim.id and len(ref.digest) == 64
    assert ref.steps == (("default_sizes", *claim.sizes.default),)
    assert fp == claim_fingerprint(claim) == claim_fingerprint(resolve(ref))


def test_a_dropped_hypothesis_and_the_all_sizes_lemma_are_rebuilt_from_their_steps(library, sources):
    claim = library["duchi2010.lemma14"]
    weakened = claim.without(claim.hypothesis_names[0])
    ref, fp = sources.ref_of(weakened)
    assert ("without", claim.hypothesis_names[0]) in ref.steps
    assert claim_fingerprint(resolve(ref)) == fp
    lemma = all_sizes(weakened, weakened.id + ".all_m")
    ref2, fp2 = sources.ref_of(lemma)
    assert ("all_sizes",) in ref2.steps and claim_fingerprint(resolve(ref2)) == fp2 != fp


def test_a_mutant_is_rebuilt_from_its_original_with_the_same_fingerprint(library, sources):
    mutant = mutants_of(library[QUICK])[0][0].claim
    ref, fp = sources.ref_of(mutant)
    assert ref.id == QUICK and ref.steps[0] == ("mutant", mutant.id)
    assert claim_fingerprint(resolve(ref)) == fp


def test_a_claim_changed_in_memory_under_its_id_is_refused_and_so_is_one_no_source_defines(library, sources):
    claim = library["duchi2010.lemma14"]
    changed = claim.without(claim.hypothesis_names[0]).replace(id=claim.id)  # same id, weaker claim
    with pytest.raises(InvalidInput, match="changed in memory"):
        sources.ref_of(changed)
    with pytest.raises(InvalidInput, match="--theorems"):
        sources.ref_of(claim.replace(id="mine2026.not_in_any_file"))


def test_fingerprints_do_not_depend_on_the_process():
    code = ("from symcal.library import load_paper; from symcal.cluster import claim_fingerprint; "
            "import json; print(json.dumps({c.id: claim_fingerprint(c) for c in load_paper('duchi2010', 'fp').CLAIMS "
            "if c.id.startswith('duchi2010.lemma1')}))")
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                      env={**os.environ, "PYTHONHASHSEED": seed}).stdout) for seed in ("1", "2")]
    assert runs[0] == runs[1] and len(runs[0]) > 10 and len(set(runs[0].values())) == len(runs[0])


def test_a_user_file_travels_by_path_and_a_changed_file_is_noticed(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(textwrap.dedent("""
        from symcal import Citation, identity, reals
        x, y = reals("x y")
        CLAIMS = [identity("mine2026.square", (x + y) ** 2, x**2 + 2*x*y + y**2, cite=Citation("mine2026", "p. 1"))]
    """))
    from symcal.library import load_file

    claim = load_file(f)[0]
    sources = Sources([f])
    ref, fp = sources.ref_of(claim)
    assert ref.source == f"file:{f.resolve()}" and ref.content()[0] == "file"  # the key holds no path
    f.write_text(f.read_text() + "\n# edited\n")
    cluster._RESOLVED.clear()  # a worker that has not read the file yet
    with pytest.raises(InvalidClaim, match="changed since the client read it"):
        resolve(ref)


def test_a_decision_key_changes_with_every_input_it_depends_on(library, sources):
    ref, fp = sources.ref_of(library[QUICK])
    env = local_environment(False)
    base = decision_key(env, ref, fp, None, 10.0, "auto", False)
    assert base == decision_key(dict(env), ref, fp, None, 10, "auto", False)
    others = [decision_key({**env, "symcal": "other"}, ref, fp, None, 10.0, "auto", False),
              decision_key(env, ref, "0" * 64, None, 10.0, "auto", False),
              decision_key(env, ref, fp, 3, 10.0, "auto", False),
              decision_key(env, ref, fp, None, 11.0, "auto", False),
              decision_key(env, ref, fp, None, 10.0, "naive", False),
              decision_key(env, ref, fp, None, 10.0, "auto", True),
              decision_key(env, ref, fp, None, 10.0, "auto", False, True)]
    assert len({base, *others}) == 8


def test_the_cache_returns_what_it_stored_and_never_stores_load_dependent_outcomes(tmp_path):
    cache = DecisionCache(tmp_path / "c")
    cpu = Outcome(Status.UNKNOWN, "", "z3", reason="CPU limit reached: the worker used its 1 CPU seconds")
    cache.put("a" * 64, cpu, 1.5, {})
    assert cache.get("a" * 64) == (cpu, 1.5)
    assert from_cache(cpu).backend == "z3 (from cache)"
    wall = Outcome(Status.UNKNOWN, "", "none", reason="wall-clock backstop 9 s reached (budget 1 CPU seconds)")
    error = Outcome(Status.ERROR, "", "none", reason="worker died (exit code -9)")
    assert not cacheable(wall) and not cacheable(error) and cacheable(cpu)
    for k, out in (("b", wall), ("c", error)):
        cache.put(k * 64, out, 1.0, {})
        assert cache.get(k * 64) is None
    (tmp_path / "c" / "dd").mkdir()
    (tmp_path / "c" / "dd" / f"{'d' * 64}.pickle").write_bytes(b"not a pickle")
    assert cache.get("d" * 64) is None


def test_results_are_handed_over_in_size_order_exactly_once_and_a_sweep_stops_at_its_refutation(library):
    claim, other = library["duchi2010.lemma14"], library[QUICK]
    tasks = [Task(0, claim, 3), Task(0, claim, 4), Task(0, claim, 5), Task(1, other, None)]
    got = []

    def on_result(t, out, secs):
        got.append((t.index, t.size, out.status))
        return not stops_sweep(out)

    proved = Outcome(Status.PROVED, "", "z3")
    refuted = Outcome(Status.REFUTED, "", "z3")
    order = _InOrder(tasks, on_result)
    order.put(2, proved, 0.1)  # m = 5 first: held back
    order.put(1, refuted, 0.1)  # m = 4: still waiting for m = 3
    assert got == []
    order.put(1, proved, 0.1)  # a second result for m = 4 is ignored
    order.put(0, proved, 0.1)
    order.put(3, proved, 0.1)
    assert got == [(0, 3, Status.PROVED), (0, 4, Status.REFUTED), (1, None, Status.PROVED)]
    assert order.missing() == []


def test_the_worker_decides_in_limited_children_and_refuses_a_claim_it_rebuilds_differently(library, sources):
    ref, fp = sources.ref_of(library[QUICK])
    env = local_environment(False)
    results = run_batch(Batch(((ref, fp, None), (ref, "0" * 64, None)), 20.0, "auto", False, env))
    assert results[0][0].status is Status.PROVED and results[0][0].evidence is not None
    assert results[1][0].status is Status.ERROR and "fingerprint differs" in results[1][0].reason


def test_a_worker_with_other_code_refuses_every_decision(library, sources):
    ref, fp = sources.ref_of(library[QUICK])
    env = {**local_environment(False), "symcal": "0.0.0+other"}
    results = run_batch(Batch(((ref, fp, None),), 20.0, "auto", False, env))
    assert results[0][0].status is Status.ERROR and "different environment: symcal" in results[0][0].reason


def test_a_sweep_in_one_batch_stops_at_its_first_refutation(tmp_path):
    mine = Path(__file__).resolve().parents[2] / "examples" / "my_claims.py"
    from symcal.library import load_file

    claim = next(c for c in load_file(mine) if c.id == "mine2026.transitive_is_enough")
    ref, fp = Sources([mine]).ref_of(claim)
    items = tuple((ref, fp, m) for m in (3, 4, 5))
    results = run_batch(Batch(items, 20.0, "auto", False, local_environment(False)))
    first = next(i for i, r in enumerate(results) if r is not None and r[0].status is Status.REFUTED)
    assert all(r is None for r in results[first + 1:])


def test_cluster_without_dask_says_how_to_install_it_and_exits_2():
    code = ("import sys; sys.modules['distributed'] = None; from symcal.cli import main; "
            f"sys.exit(main(['check', '{QUICK}', '--cluster', 'local']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "pip install 'symcal[cluster]'" in r.stderr


def test_cache_without_cluster_is_a_usage_error(tmp_path, capsys):
    from symcal.cli import main

    assert main(["check", QUICK, "--cache", str(tmp_path)]) == 2
    assert "--cluster as well" in capsys.readouterr().err


def test_selftest_and_necessity_accept_a_cluster_and_default_to_the_local_runner():
    import inspect

    from symcal.explore import necessity
    from symcal.explore.mutants import run_selftest
    from symcal.runner import check_many

    for fn in (check_many, necessity, run_selftest):
        assert inspect.signature(fn).parameters["cluster"].default is None


def test_a_mutant_travels_with_its_original_not_with_the_pickled_claim(library):
    # claims hold lambdas: the reason queries travel instead
    import pickle

    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(library[QUICK])
    assert dataclasses.is_dataclass(Batch)


def _claim_reading_a_global(threshold: int):
    """Functions of a theorems-like module reading its global ``TH`` (directly, and through a helper), not a closure."""
    import types

    mod = types.ModuleType("user_theorems_fp")
    exec(textwrap.dedent(f"""
        import sympy
        x = sympy.Symbol("x", real=True)
        TH = {threshold}
        def helper():
            return TH
        BOUND = lambda: x + TH > x
        VIA_HELPER = lambda: x + helper() > x
    """), mod.__dict__)
    return mod


def test_a_module_global_read_by_a_claim_function_changes_the_fingerprint_when_edited():
    import hashlib

    from symcal.cluster import _feed

    def fp(fn):
        h = hashlib.sha256()
        _feed(h, fn, set(), 0)
        return h.hexdigest()

    zero, one, zero_again = _claim_reading_a_global(0), _claim_reading_a_global(1), _claim_reading_a_global(0)
    assert fp(zero.BOUND) != fp(one.BOUND)  # TH = 0 edited to TH = 1: another claim, another key
    assert fp(zero.VIA_HELPER) != fp(one.VIA_HELPER)  # read through a function of the same module
    assert fp(zero.BOUND) == fp(zero_again.BOUND)  # the twin: the same file built twice, the same key
    assert fp(zero.VIA_HELPER) == fp(zero_again.VIA_HELPER)
