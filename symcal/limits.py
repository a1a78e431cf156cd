"""Time limits that really stop a computation (DESIGN.md, rule 5; issue 11 item 5).

:func:`run_limited` runs a function in a forked child process.  The child's budget is CPU
seconds (``RLIMIT_CPU``), so an answer does not depend on what else the machine is doing;
a wall-clock backstop (a few times the CPU budget) still kills a child that sleeps or waits.
A child that runs out of either gets :class:`TimeLimitReached` in the parent: the caller
turns it into ``unknown`` ("gave up after S s"), never into a decisive answer.

Exceptions raised by the function (e.g. :class:`symcal.errors.InvalidInput`) are re-raised
in the parent, so bad input still gives its one-line error.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import resource
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from symcal.errors import SymcalError

__all__ = ["TimeLimitReached", "run_limited", "WALL_FACTOR", "one_blas_thread", "worker_blas_env"]

T = TypeVar("T")

# The wall-clock backstop is this many times the CPU budget (plus a second of slack): a
# busy machine may give the child half a core, but never one tenth of it.
WALL_FACTOR = 4.0


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread while the block runs (forked workers inherit it; the caller's setting
    is restored after).  OpenBLAS's idle threads spin, and their time counts against a worker's
    CPU budget although it buys no speed on the small matrices symcal uses: measured on 2 cores,
    a certificate that takes 6.8 CPU seconds on one thread took 8.0 to 12.9 with two (7.0 s of
    wall time), so that a budget of 8 s gave different answers on different runs.  Libraries
    loaded later (cvxopt's, in a worker) read the environment, which a worker sets itself."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a base dependency
        yield
        return
    with threadpool_limits(1):
        yield


def worker_blas_env() -> None:
    """In a forked worker: BLAS libraries it loads itself start with one thread too."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"


class TimeLimitReached(SymcalError):
    """The computation used up its budget and was stopped."""

    def __init__(self, seconds: float, what: str = "the computation") -> None:
        super().__init__(f"gave up after {seconds:g} s: {what} did not finish within --timeout {seconds:g}")
        self.seconds = seconds


def _child(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], cpu: float) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    worker_blas_env()
    try:
        soft = max(1, int(cpu + 0.999))
        used = int(resource.getrusage(resource.RUSAGE_SELF).ru_utime + 1)
        resource.setrlimit(resource.RLIMIT_CPU, (soft + used, soft + used + 2))
    except (ValueError, OSError):  # pragma: no cover - a platform without RLIMIT_CPU: wall only
        pass
    try:
        result: tuple[str, Any] = ("ok", fn(*args, **kwargs))
    except BaseException as e:  # sent back and re-raised by the parent
        result = ("raise", e)
    try:
        conn.send(result)
    except (pickle.PicklingError, TypeError, AttributeError) as e:
        conn.send(("raise", RuntimeError(f"the result could not be sent back: {type(e).__name__}: {e}")))
    finally:
        conn.close()
        os._exit(0)


def run_limited(fn: Callable[..., T], *args: Any, timeout: float = 60.0, what: str = "the computation",
                **kwargs: Any) -> T:
    """Return ``fn(*args, **kwargs)`` computed in a child limited to ``timeout`` CPU seconds
    (wall-clock backstop ``WALL_FACTOR * timeout + 1``); raise :class:`TimeLimitReached`
    when it does not finish.  ``timeout <= 0`` or ``None`` is refused by the callers'
    validation; here it means "no child" (used by tests that need a traceback)."""
    if not timeout or timeout <= 0:
        return fn(*args, **kwargs)
    if mp.current_process().daemon:
        # inside one of the runner's workers (daemonic: no children allowed), whose own CPU
        # budget, RLIMIT_CPU and wall-clock backstop already bound this computation
        return fn(*args, **kwargs)
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(child, fn, args, kwargs, timeout), daemon=True)
    with one_blas_thread():
        p.start()
    child.close()
    deadline = time.monotonic() + WALL_FACTOR * timeout + 1.0
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeLimitReached(timeout, what)
            if parent.poll(min(left, 0.5)):
                try:
                    kind, value = parent.recv()
                except (EOFError, OSError):
                    raise TimeLimitReached(timeout, what) from None
                if kind == "raise":
                    raise value
                return value  # type: ignore[no-any-return]
            if not p.is_alive() and not parent.poll(0):
                # killed by RLIMIT_CPU (SIGXCPU/SIGKILL) or died without an answer
                if p.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
                    raise TimeLimitReached(timeout, what)
                raise RuntimeError(f"{what}: the worker process died (exit code {p.exitcode})")
    finally:
        if p.is_alive():
            p.kill()
        p.join(1)
        parent.close()
