"""Time limits that really stop a computation, and do not depend on the load (ARCHITECTURE.md).

:func:`run_limited` runs a function in a forked child process.  The child's budget is CPU
seconds (``RLIMIT_CPU``), so an answer does not depend on what else the machine is doing.
The parent watches the child with a :class:`Backstop` (the runner's workers use the same one),
which kills it in three cases only, each reported in its own words:

* ``cpu``: the CPU budget is spent (plus a margin): the CPU limit, seen from outside, which also
  counts the child's own children;
* ``stall``: no CPU progress for a window of wall time -- a hang, a sleep, a deadlock.  A worker
  that is merely starved by a busy machine is never taken for one: what is measured is how much
  of the window the worker *wanted* the CPU -- the CPU time and run-queue wait of its runnable
  threads (``/proc/<pid>/task/<tid>/schedstat`` and ``stat``), which stays near 100 % however busy
  the machine is, while a sleeping or hung worker wants ~0 %;
* ``cap``: an absolute wall-clock cap, ``WALL_FACTOR`` times the budget, the last resort.

A child that is stopped gets :class:`TimeLimitReached` in the parent: the caller turns it into
``unknown`` ("gave up after S s"), never into a decisive answer.

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
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from symcal.errors import SymcalError

__all__ = ["TimeLimitReached", "run_limited", "WALL_FACTOR", "one_blas_thread", "worker_blas_env", "Backstop", "Stop",
           "stall_window", "wall_cap", "STALL_SHARE", "CPU_MARGIN"]

T = TypeVar("T")

# The absolute wall-clock cap is this many times the CPU budget (``wall_cap``; ``Budget`` gives a
# solver's own wall-clock timeout the same factor).  Only a last resort: a load of 20 on 2 cores
# gives a worker a tenth of a core, so a cap of 4 x the budget (as before) turned a starved
# worker's verdict into ``unknown``.  Hangs and sleeps are caught long before by the stall rule.
WALL_FACTOR = 50.0
# CPU seconds a watched child may spend beyond its budget before the parent kills it (the child's
# own ``RLIMIT_CPU`` usually ends it first; this also counts the child's children).
CPU_MARGIN = 3.0
# The stall rule: a worker that wanted the CPU (``_wanted``) for less than this share of the stall
# window made no progress.  A busy worker wants it all the time however busy the machine, a
# sleeping one almost never.  Measured on 2 cores, a busy loop at nice 19 pinned beside two busy
# loops (it got about 0.3 % of that CPU, far less than the tenth of a core a load of 20 leaves)
# counted as wanting the CPU 171 % of the time (run-queue wait booked late is counted twice, which
# errs on the safe side); a 20 Hz sleep loop on the same CPU 0.1 %.  A quarter leaves a wide gap.
STALL_SHARE = 0.25
# How often the parent reads the worker's counters.
POLL_SECONDS = 0.25


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


def stall_window(budget: float) -> float:
    """Seconds of wall time without CPU progress after which a worker with ``budget`` CPU seconds
    counts as hung: twice the budget, at least 3 s (a window of 12 samples), at most 10 s."""
    return min(10.0, max(3.0, 2.0 * budget))


def wall_cap(budget: float) -> float:
    """The absolute wall-clock cap of a worker with ``budget`` CPU seconds: ``WALL_FACTOR`` times the
    budget plus 30 s (the last resort; a hang is stopped by the stall rule long before)."""
    return WALL_FACTOR * budget + 30.0


@dataclass(frozen=True)
class Stop:
    """Why a :class:`Backstop` stops its worker: ``case`` is ``"cpu"``, ``"stall"`` or ``"cap"``;
    ``text`` says so in words for the reason of the ``unknown`` (e.g. "CPU budget of 60 s spent")."""

    case: str
    text: str


_TICK = float(os.sysconf("SC_CLK_TCK")) if hasattr(os, "sysconf") else 100.0


@dataclass
class _Reading:
    cpu: float  # CPU seconds of the process tree (threads, live children, reaped children)
    # each thread of the tree: (cumulative CPU time, cumulative run-queue wait) in seconds from
    # schedstat (None without it), and whether it is running, runnable or in uninterruptible
    # (disk, paging) wait
    threads: dict[str, tuple[tuple[float, float] | None, bool]]


def _read_tree(pid: int) -> _Reading | None:
    """The counters of ``pid`` and its descendants from /proc (None: gone, or no /proc)."""
    cpu = 0.0
    threads: dict[str, tuple[tuple[float, float] | None, bool]] = {}
    todo, seen = [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            if p == pid:
                return None
            continue  # a child that ended meanwhile: its time is in the parent's cutime once reaped
        if p == pid and fields[0] in ("Z", "X"):
            return None
        cpu += sum(int(f) for f in fields[11:15]) / _TICK  # utime stime cutime cstime
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            base = f"/proc/{p}/task/{tid}"
            try:
                wants = Path(f"{base}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("R", "D")
            except (OSError, IndexError):
                continue
            sched: tuple[float, float] | None
            try:
                run_ns, wait_ns = Path(f"{base}/schedstat").read_text().split()[:2]
                sched = (int(run_ns) / 1e9, int(wait_ns) / 1e9)
            except (OSError, ValueError):
                sched = None
            threads[f"{p}/{tid}"] = (sched, wants)
            try:
                todo.extend(int(c) for c in Path(f"{base}/children").read_text().split())
            except (OSError, ValueError):
                pass
    return _Reading(cpu, threads)


def _wanted(last: _Reading, now: _Reading, dt: float) -> float:
    """Seconds of the last ``dt`` the worker's threads wanted the CPU (schedstat): a thread seen
    runnable wanted it for its CPU time and its run-queue wait -- or for all of ``dt`` if it has
    not run since the last reading, since the kernel books a starved thread's wait only when it
    runs again; a thread seen sleeping only for its CPU time (not the latency of its wake-ups,
    which a busy machine lengthens: 3.5 % of the time for a 20 Hz sleep loop beside 3 busy loops).
    Without schedstat: the tree's CPU time, or all of ``dt`` if some thread is runnable."""
    total = 0.0
    for key, (sched, wants) in now.threads.items():
        if sched is None:
            return max(now.cpu - last.cpu, dt if any(w for _, w in now.threads.values()) else 0.0, 0.0)
        run0, wait0 = last.threads.get(key, ((0.0, 0.0), False))[0] or (0.0, 0.0)
        ran, waited = max(sched[0] - run0, 0.0), max(sched[1] - wait0, 0.0)
        if not wants:
            total += ran
        else:
            total += dt if ran + waited == 0.0 else ran + waited
    return total


class Backstop:
    """Watch one worker process from its parent and say when to kill it (see the module's
    docstring): its CPU budget spent (``cpu_limit`` CPU seconds of the worker and its children,
    by default ``budget + CPU_MARGIN``), no CPU progress for ``window`` seconds of wall time
    (the worker wanted the CPU less than ``STALL_SHARE`` of the window: hung or sleeping, not
    starved), or the absolute wall cap (``wall_cap``).  Call :meth:`poll` often (it reads /proc at
    most every ``POLL_SECONDS``); it returns a :class:`Stop` once the worker should be killed.

    Without /proc (not Linux) CPU progress cannot be read: the stall rule is then the old
    wall-clock backstop, 4 x the budget + 5 s, and its text says so.
    """

    def __init__(self, pid: int, budget: float, cpu_limit: float | None = None, *, window: float | None = None,
                 share: float = STALL_SHARE, clock: Callable[[], float] = time.monotonic) -> None:
        self.pid = pid
        self.budget = budget
        self.cpu_limit = budget + CPU_MARGIN if cpu_limit is None else cpu_limit
        self.window = stall_window(budget) if window is None else window
        self.share = share
        self._clock = clock
        now = clock()
        self.started = now
        self.cap_at = now + wall_cap(budget)
        self.cap_seconds = wall_cap(budget)
        self.cpu = 0.0  # the worker's CPU seconds at the last reading
        self.measurable = Path(f"/proc/{pid}/stat").exists()
        self._last: tuple[float, _Reading] | None = None
        self._history: deque[tuple[float, float]] = deque()  # (time, cumulative demand)
        self._demand = 0.0

    def phase(self, budget: float) -> None:
        """A new phase of the worker (a second opinion, certificates) with ``budget`` CPU seconds:
        its own absolute wall cap from now (the CPU limit is the worker's whole life's)."""
        self.budget = budget
        self.cap_seconds = wall_cap(budget)
        self.cap_at = self._clock() + self.cap_seconds

    def poll(self) -> Stop | None:
        """Read the worker's counters (at most every ``POLL_SECONDS``) and say whether to kill it."""
        now = self._clock()
        if now >= self.cap_at:
            return Stop("cap", f"absolute wall-clock cap of {self.cap_seconds:g} s reached ({WALL_FACTOR:g} x the "
                               f"budget of {self.budget:g} CPU s + 30 s; the worker used {self.cpu:.1f} CPU s)")
        if not self.measurable:
            legacy = 4.0 * self.budget + 5.0
            if now - self.started >= legacy:
                return Stop("stall", f"no CPU reading on this platform: wall-clock limit of {legacy:g} s reached")
            return None
        if self._last is not None and now - self._last[0] < POLL_SECONDS:
            return None
        r = _read_tree(self.pid)
        if r is None:  # ended (its exit is the caller's business)
            return None
        self.cpu = r.cpu
        if r.cpu > self.cpu_limit:
            return Stop("cpu", f"CPU budget of {self.budget:g} s spent (the worker used {r.cpu:.1f} CPU s)")
        return self._stalled(now, r)

    def _stalled(self, now: float, r: _Reading) -> Stop | None:
        last, self._last = self._last, (now, r)
        if last is None:
            self._history.append((now, self._demand))
            return None
        dt = now - last[0]
        if dt > max(2.5, 10 * POLL_SECONDS):
            # the parent itself did not run (stopped with Ctrl-Z, or starved): it cannot tell
            # what the worker did meanwhile, so the window starts again
            self._history.clear()
            self._history.append((now, self._demand))
            return None
        self._demand += _wanted(last[1], r, dt)
        self._history.append((now, self._demand))
        while len(self._history) >= 2 and self._history[1][0] <= now - self.window:
            self._history.popleft()
        t0, d0 = self._history[0]
        if now - t0 >= self.window and self._demand - d0 < self.share * (now - t0):
            return Stop("stall", f"no CPU progress for {self.window:g} s (the worker was hung or sleeping: it "
                                 f"wanted the CPU {100 * (self._demand - d0) / (now - t0):.0f} % of the time)")
        return None


class TimeLimitReached(SymcalError):
    """The computation used up its budget and was stopped; ``why`` says which backstop fired
    (e.g. "no CPU progress for 3 s (the worker was hung or sleeping ...)"), when one did."""

    def __init__(self, seconds: float, what: str = "the computation", why: str = "") -> None:
        super().__init__(f"gave up after {seconds:g} s: {what} did not finish within --timeout {seconds:g}"
                         + (f" ({why})" if why else ""))
        self.seconds = seconds
        self.why = why


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
    (``RLIMIT_CPU``, and a :class:`Backstop` in this process: the CPU budget, no CPU progress,
    the absolute wall cap); raise :class:`TimeLimitReached` when it does not finish.
    ``timeout <= 0`` or ``None`` is refused by the callers' validation; here it means "no child"
    (used by tests that need a traceback)."""
    if not timeout or timeout <= 0:
        return fn(*args, **kwargs)
    if mp.current_process().daemon:
        # inside one of the runner's workers (daemonic: no children allowed), whose own CPU
        # budget, RLIMIT_CPU and backstop already bound this computation
        return fn(*args, **kwargs)
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(child, fn, args, kwargs, timeout), daemon=True)
    with one_blas_thread():
        p.start()
    child.close()
    assert p.pid is not None
    watch = Backstop(p.pid, timeout, max(1, int(timeout + 0.999)) + CPU_MARGIN)
    try:
        while True:
            if parent.poll(POLL_SECONDS):
                try:
                    kind, value = parent.recv()
                except (EOFError, OSError):
                    raise TimeLimitReached(timeout, what, _exit_why(p, watch)) from None
                if kind == "raise":
                    raise value
                return value  # type: ignore[no-any-return]
            if not p.is_alive() and not parent.poll(0):
                # killed by RLIMIT_CPU (SIGXCPU/SIGKILL) or died without an answer
                if p.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
                    raise TimeLimitReached(timeout, what, _exit_why(p, watch))
                raise RuntimeError(f"{what}: the worker process died (exit code {p.exitcode})")
            stop = watch.poll()
            if stop is not None:
                raise TimeLimitReached(timeout, what, stop.text)
    finally:
        if p.is_alive():
            p.kill()
        p.join(1)
        parent.close()


def _exit_why(p: Any, watch: Backstop) -> str:
    """Why a child ended without an answer, as far as its parent can tell."""
    p.join(1)
    if p.exitcode == -signal.SIGXCPU or (p.exitcode == -signal.SIGKILL and watch.cpu >= watch.budget - 1):
        return f"CPU budget of {watch.budget:g} s spent"
    if p.exitcode == -signal.SIGKILL:
        return f"the worker was killed (SIGKILL) after {watch.cpu:.1f} CPU s"
    return f"the worker ended without an answer (exit code {p.exitcode})"
