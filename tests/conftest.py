"""The order the test files are handed out in.

With ``-n auto --dist loadfile`` pytest-xdist gives each worker one whole file at a time, in
collection order.  The per-paper files of ``tests/theorems/`` are the longest (each decides its
paper's claims and twins, one to two minutes); started last, one of them would run alone at the
end while the other core idles.  They go first, the rest keeps its order (longest first is the
classic rule for spreading jobs over machines)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

FIRST = ("tests/theorems/",)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def first(item: pytest.Item) -> bool:
        return item.nodeid.startswith(FIRST)

    items[:] = [i for i in items if first(i)] + [i for i in items if not first(i)]


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
