"""symcal on a real Dask cluster: a scheduler and two workers on 127.0.0.1, started as
subprocesses.  The verdicts are those of a local run; a worker killed mid-run costs no verdict
and duplicates none; a re-run comes from the cache."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
# 20 claims, 29 decisions (proved and refuted ones, sized and unsized), a few seconds; not Lemma 14 itself,
# whose default sweep to m = 12 alone costs a minute of CPU per run
CLAIMS = ["duchi2010.lemma10*", "duchi2010.lemma14.[cp]*"]
OPTIONS = ["--timeout", "20", "--no-cross-check", "--json"]
MINE = str(ROOT / "examples" / "my_claims.py")


def _symcal(*args, **kw):
    return subprocess.run([sys.executable, "-m", "symcal", *args], capture_output=True, text=True, timeout=300, **kw)


def _same(x):
    """A verdict without what may differ between two correct runs: seconds, the backend's cache
    mark, and the SMT-LIB text (z3 numbers its let-bindings by how many terms the process made)."""
    if isinstance(x, dict):
        return {k: _same(v) for k, v in x.items() if k not in ("seconds", "backend", "smtlib")}
    if isinstance(x, list):
        return [_same(v) for v in x]
    return x


def _start(args, log, **kw):
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=log,
                            start_new_session=True, cwd=log.name.rsplit("/", 1)[0], **kw)


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    d = tmp_path_factory.mktemp("dask")
    scheduler_file = d / "scheduler.json"
    log = open(d / "dask.log", "w")  # noqa: SIM115 - closed below
    procs = {"scheduler": _start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--dashboard-address", "127.0.0.1:0", "--no-dashboard",
                                  "--scheduler-file", str(scheduler_file), "--idle-timeout", "600"], log)}
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for name in ("w1", "w2"):
            procs[name] = _start(["distributed.cli.dask_worker", address, "--nworkers", "1", "--nthreads", "1",
                                  "--host", "127.0.0.1", "--no-dashboard", "--name", name, "--death-timeout", "60"],
                                 log)
        wait = ("import sys; from distributed import Client; c = Client(sys.argv[1], timeout='30s'); "
                "c.wait_for_workers(2, timeout=60); c.close()")
        subprocess.run([sys.executable, "-c", wait, address], check=True, timeout=120, capture_output=True)
        yield {"address": address, "procs": procs, "dir": d}
    finally:
        for p in procs.values():
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(10)
        log.close()


@pytest.fixture(scope="module")
def local_run():
    # one local job: a claim's sizes in order, stopping at the first refuted one, as on a cluster (with
    # more local jobs a larger size may already be decided when a smaller one is refuted)
    started = time.perf_counter()
    r = _symcal("check", *CLAIMS, *OPTIONS, "--jobs", "1")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), time.perf_counter() - started


def test_check_on_the_cluster_gives_the_local_verdicts_and_a_rerun_comes_from_the_cache(
        dask_cluster, local_run, tmp_path):
    local, local_seconds = local_run
    cache = str(tmp_path / "cache")
    started = time.perf_counter()
    first = _symcal("check", *CLAIMS, *OPTIONS, "--cluster", dask_cluster["address"], "--cache", cache)
    first_seconds = time.perf_counter() - started
    assert first.returncode == 0, first.stderr
    on_cluster = json.loads(first.stdout)
    assert [v["id"] for v in on_cluster] == [v["id"] for v in local]
    assert [v["status"] for v in on_cluster] == [v["status"] for v in local]
    assert _same(on_cluster) == _same(local)
    assert "0 from the cache" in first.stderr and "lost" not in first.stderr

    started = time.perf_counter()
    again = _symcal("check", *CLAIMS, *OPTIONS, "--cluster", dask_cluster["address"], "--cache", cache)
    again_seconds = time.perf_counter() - started
    assert again.returncode == 0, again.stderr
    cached = json.loads(again.stdout)
    assert "0 sent in 0 Dask tasks" in again.stderr  # nothing was decided again
    assert all(v["backend"].endswith(" (from cache)") for v in cached)
    assert [{k: v for k, v in x.items() if k != "backend"} for x in cached] == \
           [{k: v for k, v in x.items() if k != "backend"} for x in on_cluster]  # identical, seconds too
    print(f"\n{len(local)} claims: local {local_seconds:.1f} s, cluster {first_seconds:.1f} s, "
          f"cached re-run {again_seconds:.1f} s")


def test_a_sweep_of_a_users_own_claim_file_on_the_cluster_matches_the_local_run(dask_cluster, tmp_path):
    args = ["check", "mine2026.transitive_is_enough", "--theorems", MINE, "--size", "3..6", *OPTIONS]
    local = _symcal(*args, "--jobs", "1")
    remote = _symcal(*args, "--cluster", dask_cluster["address"], "--cache", str(tmp_path / "cache"))
    assert local.returncode == remote.returncode, remote.stderr
    lv, rv = json.loads(local.stdout), json.loads(remote.stdout)
    assert rv[0]["status"] == lv[0]["status"] == "refuted"
    assert _same(rv) == _same(lv)


@pytest.mark.slow  # kills a Dask worker and waits for the retry: 40 s and more
def test_a_worker_killed_mid_run_loses_no_verdict_and_duplicates_none(dask_cluster, local_run, tmp_path):
    local, _ = local_run
    cache = tmp_path / "cache"
    run = subprocess.Popen([sys.executable, "-m", "symcal", "check", *CLAIMS, *OPTIONS, "--cluster",
                            dask_cluster["address"], "--cache", str(cache)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(cache.glob("*/*.pickle")) and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)
    assert run.poll() is None, "the run ended before a worker could be killed"
    worker = dask_cluster["procs"]["w1"]
    os.killpg(worker.pid, signal.SIGKILL)  # the worker, its nanny and the decision it was running
    worker.wait(10)
    out, err = run.communicate(timeout=240)
    assert run.returncode == 0, err
    verdicts = json.loads(out)
    ids = [v["id"] for v in verdicts]
    assert ids == [v["id"] for v in local] and len(set(ids)) == len(ids)
    assert [v["status"] for v in verdicts] == [v["status"] for v in local]
    assert "lost for good" not in err
