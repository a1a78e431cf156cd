"""The order the test files are handed out in.

With ``-n auto --dist loadfile`` pytest-xdist gives each worker one whole file at a time, in
collection order.  The per-paper files of ``tests/theorems/`` are the longest (each decides its
paper's claims and twins, one to two minutes); started last, one of them would run alone at the
end while the other core idles.  They go first, the rest keeps its order (longest first is the
classic rule for spreading jobs over machines).

Issue 25: pytest-xdist's ``loadfile`` hands each worker a first batch of files round-robin (a quarter of
all files between the two workers) and the rest one at a time, so the order decides the balance: the
files measured costliest (``COST``, seconds of one full run, ``--durations=0`` summed per file) go
first, longest first, so that both workers end on small files and finish together; files not listed
are cheap and keep their collection order after them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

FIRST = ("tests/theorems/",)

# seconds per file, measured (2 workers, the default run of 2026-11-28); refresh when a file's cost changes a lot
COST: dict[str, int] = {
    "tests/cli/test_cli.py": 200,
    "tests/fuzz/test_fuzz_cli.py": 186,
    "tests/theorems/test_calauzenes2013.py": 140,
    "tests/theorems/test_duchi2010.py": 110,
    "tests/theorems/test_ramaswamy2013.py": 105,
    "tests/theorems/test_xia2009.py": 95,
    "tests/theorems/test_uematsu2013.py": 93,
    "tests/cli/test_calibration_robustness.py": 81,
    "tests/unit/test_calibration.py": 78,
    "tests/unit/test_ranking_costs.py": 76,
    "tests/unit/test_readme_blocks.py": 66,
    "tests/fuzz/test_fuzz_api.py": 64,
    "tests/unit/test_calibration_regret.py": 63,
    "tests/unit/test_calibration_parameters.py": 56,
    "tests/backends/test_certify.py": 54,
    "tests/unit/test_backstop.py": 53,
    "tests/cli/test_export_coq_papers.py": 50,
    "tests/cli/test_export_coq.py": 47,
    "tests/cli/test_costs_cli.py": 47,
    "tests/unit/test_mutants.py": 44,
    "tests/fuzz/test_robust_s31.py": 42,
    "tests/unit/test_redteam_regret_s33.py": 33,
    "tests/cli/test_loss_cli.py": 32,
    "tests/backends/test_engine.py": 28,
    "tests/cli/test_timeouts_and_interrupts.py": 28,
    "tests/unit/test_calibration_smooth.py": 27,
    "tests/fuzz/test_fuzz_limits.py": 26,
    "tests/unit/test_ranking_io.py": 22,
    "tests/backends/test_second_opinion.py": 22,
    "tests/cluster/test_dask.py": 21,
    "tests/backends/test_implies_cases.py": 21,
    "tests/unit/test_exact_zero.py": 19,
    "tests/theorems/test_twins.py": 18,
    "tests/backends/test_node_labels.py": 16,
    "tests/unit/test_input_limits_s32.py": 16,
    "tests/unit/test_ranking_fas.py": 15,
    "tests/unit/test_finding_class.py": 15,
    "tests/unit/test_redteam_research_s33.py": 15,
    "tests/unit/test_public_api_errors_subpackages.py": 14,
    "tests/fuzz/test_differential.py": 14,
    "tests/unit/test_redteam_claims_s31.py": 13,
    "tests/unit/test_calibration_parse_limits.py": 13,
    "tests/unit/test_notebook.py": 12,
    "tests/cli/test_user_files_and_output.py": 11,
    "tests/unit/test_redteam_user_claims_s34.py": 11,
}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def key(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::", 1)[0]
        if path in COST:
            return (0, -COST[path])
        return (1 if path.startswith(FIRST) else 2, 0)

    items.sort(key=key)  # stable: a file's tests keep their order, unlisted files their collection order


@pytest.fixture(autouse=True)
def _sigint_kept() -> Iterator[None]:
    """Each test leaves this worker's SIGINT handler as it found it: a handler set to SIG_IGN in-process (a
    worker's own setting, run in the test process) would be inherited by every later subprocess of the worker,
    whose Ctrl-C would then be ignored."""
    import signal

    before = signal.getsignal(signal.SIGINT)
    yield
    if signal.getsignal(signal.SIGINT) is not before and before is not None:
        signal.signal(signal.SIGINT, before)
