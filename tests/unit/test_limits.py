"""BLAS on one thread in budgeted workers: OpenBLAS's spinning threads would count against a
worker's CPU budget (measured: 6.8 CPU seconds of work read as 8.0 to 12.9), and the caller's own
setting comes back afterwards."""

from __future__ import annotations

import numpy  # noqa: F401 - loads OpenBLAS
import pytest

from symcal import Citation, check, finite_check
from symcal.limits import one_blas_thread, run_limited

pytest.importorskip("threadpoolctl")


def _threads() -> list[int]:
    from threadpoolctl import threadpool_info

    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


def test_a_limited_child_runs_blas_on_one_thread_and_the_callers_setting_is_restored():
    before = _threads()
    assert before, "numpy's BLAS is loaded"
    assert run_limited(_threads, timeout=20) == [1] * len(before)
    with one_blas_thread():
        assert _threads() == [1] * len(before)
    assert _threads() == before


def test_the_runners_workers_run_blas_on_one_thread():
    claim = finite_check("test2026.one_blas_thread", cases=[0], holds=lambda case: set(_threads()) == {1},
                         domain="one case", cite=Citation("test2026", "limits"), statement="BLAS on one thread")
    assert check(claim, timeout=20).status.value == "proved"
