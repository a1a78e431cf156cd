"""Run decisions with limits that really stop the solver, and do not depend on the load.

Each decision (one claim at one size) runs in a forked worker process.  Its budget is CPU
seconds of that worker (``Budget``; a watchdog interrupts z3 when they are spent), so a busy
machine slows a decision down but does not change its verdict.  Backstops stop a worker that
ignores its budget: ``RLIMIT_CPU`` (the kernel ends it a few CPU seconds later) and the parent's
:class:`symcal.limits.Backstop`, which kills a worker that spent its CPU budget, one that made no
CPU progress for a while (hung or sleeping -- never one merely starved by a busy machine), and,
as the last resort, one past an absolute wall-clock cap ``WALL_FACTOR`` times the budget; each
gives ``unknown`` with a reason that says which.  ``jobs`` workers run at once; results are
matched to their task, never mixed up.
"""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing as mp
import os
import re
import signal
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from symcal.backends import Budget, Outcome, decide
from symcal.claims import arguments
from symcal.claims.core import Claim
from symcal.errors import invalid
from symcal.limits import POLL_SECONDS, Backstop, Stop, one_blas_thread, worker_blas_env
from symcal.verdicts import Composite, CrossCheck, SizeResult, Status, Verdict, Verdicts

__all__ = ["Task", "check", "check_many", "size_range"]


@dataclass(frozen=True)
class Task:
    index: int  # which claim
    claim: Claim
    size: int | None


def size_range(claim: Claim, sizes: tuple[int, int] | None) -> list[int | None]:
    """The sizes to decide for ``claim`` (validated against its minimum)."""
    if claim.sizes is None or claim.strategy == "local_lemma":
        return [None]
    lo, hi = sizes if sizes is not None else claim.sizes.default
    claim.sizes.validate(lo, hi, claim.id)
    return list(range(lo, hi + 1))


def _decide(task: Task, timeout: float, encoding: str) -> tuple[Outcome, float]:
    start = time.perf_counter()
    try:
        if task.claim.kind == "calibration":  # a worker that did not inherit it (a Dask worker)
            import symcal.calibration  # noqa: F401  (registers its decider with the backends)
        out = decide(task.claim, task.size, Budget(timeout), encoding=encoding)
    except Exception as e:  # a bug or a bad claim: report it as an error verdict
        out = _error(e)
    return out, time.perf_counter() - start


def _error(e: Exception) -> Outcome:
    tb = traceback.extract_tb(e.__traceback__)
    where = f" at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else ""
    return Outcome(Status.ERROR, "", "none", reason=f"{type(e).__name__}: {e}{where}")


def _wants_second_opinion(out: Outcome) -> bool:
    from symcal.crosscheck import smt_parts

    return out.status in (Status.PROVED, Status.REFUTED, Status.WITNESSED) and bool(smt_parts(out.evidence))


def _second_opinion(out: Outcome, timeout: float) -> Outcome:
    from symcal.crosscheck import second_opinion

    try:
        return second_opinion(out, _cross_budget(timeout))
    except Exception as e:  # the second opinion failed: the decision stands, unconfirmed
        return dataclasses.replace(out, cross_check=CrossCheck("cvc5", unknown=(f"cvc5 failed: {e}",)))


def _cross_budget(timeout: float) -> float:
    """Seconds the second opinion may take after a decision (its own phase, own kill)."""
    return min(timeout, 30.0)


def _certify_budget(timeout: float, out: Outcome | None = None) -> float:
    """CPU seconds for building one decision's certificates (its own phase, own kill): as long
    as the decision's own budget, at most 30, or 8 per piece of its evidence when that is more
    (``certify.budget``: at most 300, at most 10 times the first figure); without the decision,
    the most it may be.  (With 30 for every claim, the 25 cells of Ramaswamy's r = 4 calibration
    claims could not all be certified.)"""
    from symcal import certify

    base = min(timeout, 30.0)
    return min(10 * base, certify.MAX_SECONDS) if out is None else certify.budget(out, base)


def _certify_phase(timeout: float, out: Outcome | None = None) -> float:
    """The backstops' allowance for the certificate phase: building (``_certify_budget``) and half
    as much again for the kernel's checks of what was built."""
    return 1.5 * _certify_budget(timeout, out)


KEEP_BODIES = "keep bodies"  # the value of ``certify`` that also sends the certificates' bodies back


def _certify(task: Task, out: Outcome, timeout: float, keep: bool = False) -> Outcome:
    """The outcome with its certificates built and checked by symcal.kernel (its own phase);
    ``keep``: carrying the certificates themselves (``certificate_files.CarriedOutcome``)."""
    from symcal import certify

    try:
        if not keep:
            return certify.certify(out, task.claim, task.size, _certify_budget(timeout, out))
        from symcal.certificate_files import CarriedOutcome

        built = certify.build(out, task.claim, task.size, _certify_budget(timeout, out))
        judged = certify.judge(out, built)
        fields = {f: getattr(judged, f) for f in certify.CertifiedOutcome.__dataclass_fields__}
        return CarriedOutcome(**fields, built=tuple(built))
    except Exception as e:  # the producer failed: the decision stands, not certified
        return certify.with_certificate(out, certify.CertificateCheck("none", False, f"certification failed: {e}"))


def _run_task(task: Task, timeout: float, encoding: str, cross: bool = False,
              certify: bool = False) -> tuple[Outcome, float]:
    out, secs = _decide(task, timeout, encoding)
    if cross and _wants_second_opinion(out):
        out = _second_opinion(out, timeout)
    if certify:
        out = _certify(task, out, timeout, keep=certify == KEEP_BODIES)
    return out, secs


def _cpu_allowance(timeout: float, cross: bool, certify: bool = False) -> int:
    """CPU seconds a worker may spend in its whole life: the decision's budget, its second opinion's
    and its certificates' (if asked), and 5 s to spare."""
    return int(timeout + (_cross_budget(timeout) if cross else 0) + (_certify_phase(timeout) if certify else 0) + 5)


def _cpu_backstop(timeout: float, cross: bool, certify: bool = False) -> None:
    """The kernel ends this worker a few CPU seconds after its budget (and its second
    opinion's) is spent, whatever it is doing."""
    import resource

    limit = _cpu_allowance(timeout, cross, certify)
    used = int(resource.getrusage(resource.RUSAGE_SELF).ru_utime) + 1
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (limit + used, limit + used + 2))
    except (ValueError, OSError):  # pragma: no cover - no RLIMIT_CPU here: the wall backstop stays
        pass


def _child(conn: Connection, task: Task, timeout: float, encoding: str, cross: bool, certify: bool = False) -> None:
    """Send the decision; then, if asked, the decision with cvc5's second opinion; then, if
    asked, with its certificates checked by the kernel.  The third item of each message names
    the phase that follows (False: none)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    worker_blas_env()
    _cpu_backstop(timeout, cross, certify)
    try:
        out, secs = _decide(task, timeout, encoding)
        more = cross and _wants_second_opinion(out)
        cert = certify and out.status in (Status.PROVED, Status.REFUTED, Status.WITNESSED)
        conn.send((out, secs, "second opinion" if more else ("certificate" if cert else False)))
        if more:
            out = _second_opinion(out, timeout)
            conn.send((out, secs, "certificate" if cert else False))
        if cert:
            conn.send((_certify(task, out, timeout, keep=certify == KEEP_BODIES), secs, False))
    except (Exception, KeyboardInterrupt, SystemExit) as e:  # user code raising anything: an error verdict
        conn.send((Outcome(Status.ERROR, "", "none", reason=f"worker failed: {type(e).__name__}: {e}"), 0.0, False))
    finally:
        conn.close()


def _watch(pid: int, timeout: float, cross: bool, certify: bool) -> Backstop:
    """The parent's backstop of a worker: killed past its whole life's CPU allowance (a little after
    ``RLIMIT_CPU`` would have ended it), when it makes no CPU progress, or past the wall cap."""
    return Backstop(pid, timeout, _cpu_allowance(timeout, cross, bool(certify)) + 3.0)


def _backstop_reason(stop: Stop, timeout: float) -> str:
    """The reason of the ``unknown`` of a decision whose worker the backstop killed: which case
    fired.  A CPU budget spent says "CPU limit" (the remaining sizes are skipped, and it is cached:
    it does not depend on the load); the others say "wall-clock backstop" (neither)."""
    if stop.case == "cpu":
        return f"CPU limit reached: {stop.text}; the worker (budget {timeout:g} CPU seconds) was killed"
    return f"wall-clock backstop: {stop.text}; the worker (budget {timeout:g} CPU seconds) was killed"


@dataclass
class _Running:
    task: Task
    process: Any
    started: float
    watch: Backstop
    decided: tuple[Outcome, float] | None = None  # the decision, while its second opinion runs
    phase: str = ""  # the phase after the decision: "second opinion" or "certificate"


def _execute(
    tasks: Sequence[Task], timeout: float, jobs: int, encoding: str,
    on_result: Callable[[Task, Outcome, float], bool], isolate: bool, cross: bool = False, certify: bool = False,
) -> None:
    """Run tasks; ``on_result`` returns False to cancel the claim's remaining sizes.

    A worker that outlives its limit is killed: during the decision that gives ``unknown``;
    during cvc5's second opinion the decision stands, recorded as not confirmed.  BLAS runs on one
    thread meanwhile (its spinning threads would count against the CPU budgets).

    Before each fork the parent's objects are frozen (``gc.freeze``): a worker's full garbage
    collections then skip the objects it inherited, instead of walking them and so copying every page
    of the parent's heap (copy-on-write).  Unfrozen at the end; nothing is decided differently."""
    with one_blas_thread():
        try:
            _execute_tasks(tasks, timeout, jobs, encoding, on_result, isolate, cross, certify)
        finally:
            gc.unfreeze()


def _execute_tasks(
    tasks: Sequence[Task], timeout: float, jobs: int, encoding: str,
    on_result: Callable[[Task, Outcome, float], bool], isolate: bool, cross: bool, certify: bool,
) -> None:
    cancelled: set[int] = set()
    if not isolate:
        for t in tasks:
            if t.index in cancelled:
                continue
            out, secs = _run_task(t, timeout, encoding, cross, certify)
            if not on_result(t, out, secs):
                cancelled.add(t.index)
        return
    ctx = mp.get_context("fork")
    pending = list(tasks)
    running: dict[Connection, _Running] = {}

    exiting: list[Any] = []  # workers that sent their last answer, reaped without waiting for their exit

    def finish(conn: Connection, r: _Running, out: Outcome, secs: float) -> None:
        # not ``join``: a worker's exit (its heap's teardown) took 18 ms on average, during which its slot
        # stayed empty; the next worker starts now and this one is reaped once it is gone
        conn.close()
        exiting.append(r.process)
        running.pop(conn)
        if not on_result(r.task, out, secs):
            cancelled.add(r.task.index)

    try:
        while pending or running:
            exiting[:] = [p for p in exiting if p.exitcode is None]  # ``exitcode`` reaps an exited worker
            while pending and len(running) < jobs:
                t = pending.pop(0)
                if t.index in cancelled:
                    continue
                parent, child = ctx.Pipe(duplex=False)
                p = ctx.Process(target=_child, args=(child, t, timeout, encoding, cross, certify), daemon=True)
                gc.freeze()  # the parent's objects out of the worker's collections (see _execute)
                p.start()
                child.close()
                assert p.pid is not None
                running[parent] = _Running(t, p, time.monotonic(), _watch(p.pid, timeout, cross, certify))
            if not running:
                continue
            ready = wait(list(running), timeout=POLL_SECONDS)
            for conn in ready:
                r = running[conn]  # type: ignore[index]
                try:
                    out, secs, more = conn.recv()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    r.process.join(2)  # its pipe closes a moment before its exit code is known
                    if r.decided is not None and r.phase == "certificate":  # keep the decision, uncertified
                        out, secs = r.decided
                        out = _uncertified(out, f"the certification's worker died (exit code {r.process.exitcode})")
                    elif r.decided is not None:  # died during the second opinion: keep the decision
                        out, secs = r.decided
                        out = dataclasses.replace(out, cross_check=CrossCheck(
                            "cvc5", unknown=(f"the second opinion's worker died (exit code {r.process.exitcode})",)))
                    elif r.process.exitcode == -signal.SIGXCPU or (r.process.exitcode == -signal.SIGKILL
                                                                   and r.watch.cpu >= timeout - 1):
                        out, secs = Outcome(Status.UNKNOWN, "", "none", reason=(
                            f"CPU limit reached: CPU budget of {timeout:g} s spent (RLIMIT_CPU stopped the "
                            f"worker a few CPU seconds later)")), time.monotonic() - r.started
                    elif r.process.exitcode == -signal.SIGKILL:  # not by symcal: out of memory?
                        out, secs = Outcome(Status.UNKNOWN, "", "none", reason=(
                            f"worker died (killed by SIGKILL after {r.watch.cpu:.1f} CPU s, within its CPU "
                            f"budget of {timeout:g} s)")), time.monotonic() - r.started
                    else:
                        out, secs = Outcome(Status.ERROR, "", "none", reason=f"worker died (exit code "
                                            f"{r.process.exitcode})"), time.monotonic() - r.started
                    more = False
                if more:
                    r.decided, r.phase = (out, secs), str(more)
                    r.watch.phase(_certify_phase(timeout, out) if more == "certificate" else _cross_budget(timeout))
                    continue
                finish(conn, r, out, secs)  # type: ignore[arg-type]
            for conn, r in list(running.items()):
                stop = r.watch.poll()
                if stop is None:
                    continue
                r.process.kill()
                if r.decided is not None and r.phase == "certificate":
                    out, secs = r.decided
                    out = _uncertified(out, f"certification ran past its time limit and was killed: {stop.text}")
                elif r.decided is not None:
                    out, secs = r.decided
                    out = dataclasses.replace(out, cross_check=CrossCheck(
                        "cvc5", unknown=(f"cvc5 ran past its time limit; the second opinion was killed: {stop.text}",)))
                else:
                    out = Outcome(Status.UNKNOWN, "", "none", reason=_backstop_reason(stop, timeout))
                    secs = time.monotonic() - r.started
                finish(conn, r, out, secs)
    finally:
        for conn, r in running.items():
            r.process.kill()
            r.process.join(1)
            conn.close()
        for p in exiting:  # each has sent its answer and is ending
            p.join(1)
            if p.exitcode is None:
                p.kill()
                p.join(1)


def _uncertified(out: Outcome, why: str) -> Outcome:
    from symcal import certify

    return certify.with_certificate(out, certify.CertificateCheck("none", False, why))


def _size_text(sizes: list[int]) -> str:
    if not sizes:
        return ""
    if len(sizes) == 1:
        return str(sizes[0])
    runs, start, prev = [], sizes[0], sizes[0]
    for s in sizes[1:]:
        if s == prev + 1:
            prev = s
            continue
        runs.append((start, prev))
        start = prev = s
    runs.append((start, prev))
    return ", ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in runs)


def _sized_scope(name: str, rows: list[SizeResult]) -> str:
    """``m = 3..6`` followed by what each size's decision says it covered (its domain, assumptions,
    definedness), the size itself left out: one text when the sizes agree, else one per size."""
    texts: dict[str, list[int]] = {}
    for r in rows:
        size = rf"({re.escape(name)}|m) = {r.size}"
        t = re.sub(rf"^{size}\s*[;,]\s*|(^|[;,]?\s*){size}$", "", r.scope.strip()).strip(" ;,")
        if t:
            texts.setdefault(t, []).append(r.size)
    head = f"{name} = {_size_text([r.size for r in rows])}"
    if not texts:
        return head
    if len(texts) == 1:
        return f"{head}; {next(iter(texts))}"
    return head + "; " + "; ".join(f"at {name} = {_size_text(ms)}: {t}" for t, ms in texts.items())


def _aggregate(claim: Claim, results: dict[int | None, tuple[Outcome, float]], planned: list[int | None]) -> Verdict:
    v = _aggregate_sizes(claim, results, planned)
    certs = [c for m in planned if m in results and (c := getattr(results[m][0], "certificate", None)) is not None]
    if certs:
        total_cert = certs[0]
        for c in certs[1:]:
            total_cert = total_cert + c
        rejected = total_cert.rejected and not v.reason.startswith(total_cert.reason)
        v = dataclasses.replace(v, certificate=total_cert,
                                reason=f"{total_cert.reason}; {v.reason}" if rejected else v.reason)
    ccs = [out.cross_check for m in planned if m in results and (out := results[m][0]).cross_check is not None]
    if not ccs or planned == [None]:
        return v
    total_cc = ccs[0]
    for cc in ccs[1:]:
        total_cc = total_cc + cc
    return dataclasses.replace(v, cross_check=total_cc)


def _aggregate_sizes(claim: Claim, results: dict[int | None, tuple[Outcome, float]],
                     planned: list[int | None]) -> Verdict:
    total = sum(s for _, s in results.values())
    if planned == [None]:
        out, secs = results.get(None, (Outcome(Status.UNKNOWN, "", "none", reason="not run"), 0.0))
        scope = out.scope
        if claim.scope and out.status is Status.PROVED:
            scope = f"{claim.scope} ({out.scope})" if out.scope else claim.scope
        return Verdict(claim.id, out.status, scope, out.backend, secs, out.evidence, out.reason,
                       cross_check=out.cross_check, warnings=out.warnings)
    rows: list[SizeResult] = []
    for m in planned:
        assert m is not None
        if m in results:
            out, secs = results[m]
            rows.append(SizeResult(m, out.status, secs, out.scope or f"m = {m}", out.reason, out.evidence))
        else:
            rows.append(SizeResult(m, Status.UNKNOWN, 0.0, f"m = {m}", "not attempted (an earlier size "
                                   "was refuted or ran out of time)"))
    name = claim.sizes.name if claim.sizes else "m"
    by = {s: [r.size for r in rows if r.status is s] for s in Status}
    backend = next((results[m][0].backend for m in planned if m in results), "none")
    refuted = by[Status.REFUTED]
    if refuted:
        first = next(r for r in rows if r.status is Status.REFUTED)
        return Verdict(claim.id, Status.REFUTED, f"{name} = {_size_text([r.size for r in rows])}; "
                       f"refuted at {name} = {first.size} (smallest size first)",
                       backend, total, first.evidence, first.reason, tuple(rows))
    errors = [r for r in rows if r.status is Status.ERROR]
    if errors:
        return Verdict(claim.id, Status.ERROR, f"{name} = {_size_text([r.size for r in rows])}", backend,
                       total, None, f"{name} = {errors[0].size}: {errors[0].reason}", tuple(rows))
    for st in (Status.PROVED, Status.WITNESSED, Status.CONFIRMED_ON_SAMPLES, Status.CONFIRMED_NUMERICALLY):
        if len(by[st]) == len(rows):
            parts = tuple((f"{name} = {r.size}", r.evidence) for r in rows if r.evidence is not None)
            ev = rows[0].evidence if st is Status.WITNESSED else Composite(parts, note=f"{len(parts)} sizes")
            warns = tuple(dict.fromkeys(w for m in planned if m in results for w in results[m][0].warnings))
            return Verdict(claim.id, st, _sized_scope(name, rows), backend, total, ev, "", tuple(rows),
                           warnings=warns)
    decided = [r.size for r in rows if r.status.decisive]
    undecided = [r for r in rows if not r.status.decisive]
    largest = max(decided) if decided else None
    reason = (f"decided for {name} = {_size_text(decided) or 'none'}"
              + (f" (largest {largest})" if largest is not None else "")
              + f"; unknown at {name} = {_size_text([r.size for r in undecided])}: {undecided[0].reason}")
    return Verdict(claim.id, Status.UNKNOWN, f"{name} = {_size_text([r.size for r in rows])}", backend,
                   total, None, reason, tuple(rows))


# the modules a worker's decider imports for each claim kind (``symcal.backends.decide`` imports them inside
# its functions); :func:`preload` imports them once in the parent, so that every forked worker inherits them
_DECIDER_MODULES: dict[str, tuple[str, ...]] = {
    "identity": ("symcal.backends.sympy_backend", "symcal.backends.smt_claims", "symcal.exact.rational_eval",
                 "sympy.physics.units"),  # sympy's simplify imports sympy.physics.units (0.15 s)
    "implies": ("symcal.backends.smt_claims", "sympy.physics.units"),
    "implies_cases": ("symcal.backends.smt_claims",),
    "exists": ("symcal.backends.smt_claims",),
    "node": ("symcal.backends.nodes", "symcal.backends.smt_claims"),
    "finite": ("symcal.backends.enumerate_backend", "symcal.exact.rational_eval", "sympy.physics.units"),
    "interval": ("symcal.backends.interval_backend",),
    "numeric": ("symcal.backends.numeric_backend",),
}


def preload(claims: Sequence[Claim]) -> None:
    """Import, once in the parent, the backend modules the workers deciding ``claims`` will import.

    Each decision runs in a freshly forked worker, which would otherwise import (and, without
    bytecode files -- ``PYTHONDONTWRITEBYTECODE`` -- compile) them again: measured on the whole
    library, 1,293 imports in 847 workers.  Importing a module decides nothing; verdicts are the same."""
    import importlib

    for kind in sorted({c.kind for c in claims}):
        for name in _DECIDER_MODULES.get(kind, ()):
            importlib.import_module(name)


def stops_sweep(out: Outcome) -> bool:
    """Whether a claim's remaining sizes are skipped after this outcome: refuted, or out of time."""
    ran_out = out.status is Status.UNKNOWN and ("limit" in out.reason or "timeout" in out.reason)
    return out.status is Status.REFUTED or ran_out


def check_many(
    claims: Sequence[Claim],
    *,
    sizes: tuple[int, int] | None = None,
    timeout: float = 60.0,
    jobs: int = 1,
    encoding: str = "auto",
    isolate: bool = True,
    progress: Callable[[str], None] | None = None,
    cross_check: bool | None = False,
    certify: bool = False,
    cluster: Any = None,
    certificates: str | os.PathLike[str] | None = None,
) -> Verdicts:
    """Decide every claim; one :class:`Verdict` per claim, in the order given (a
    :class:`~symcal.verdicts.Verdicts`: a list that shows itself as a table in a notebook).

    ``cross_check``: re-decide every SMT answer behind a ``proved``/``refuted`` with cvc5
    inside the same budget (:mod:`symcal.crosscheck`); ``None`` means "when cvc5 is
    installed"; ``True`` without cvc5 is an error.

    ``certify``: build a certificate for every decisive verdict and check it with the
    independent kernel (:mod:`symcal.certify`, :mod:`symcal.kernel`) in a phase of its own;
    each verdict then carries ``certificate``, and a rejected certificate makes it unknown.

    ``cluster``: a :class:`symcal.cluster.Cluster` (or a scheduler address, or ``"local"``) to
    decide on Dask workers instead of ``jobs`` local ones; the verdicts are the same.

    ``certificates``: a folder to write one certificate file per decisive decision into
    (:mod:`symcal.certificate_files`; implies ``certify``; not with ``cluster``), for
    ``python -m symcal.kernel`` to re-check in a process without sympy or a solver.
    """
    claims = arguments.claim_list(claims)
    sizes, timeout = arguments.run_options(sizes=sizes, timeout=timeout, jobs=jobs, encoding=encoding,
                                           isolate=isolate, progress=progress, certify=certify)
    if certificates is not None:
        certify = _certificate_folder(certificates, cluster)
    from symcal.backends import cvc5_backend

    if cross_check is not None and not isinstance(cross_check, bool):  # first: an array has no truth value
        raise invalid("cross_check", cross_check, "True, False or None (when cvc5 is installed)")
    if cross_check is None:
        cross_check = cvc5_backend.available()
    elif cross_check and not cvc5_backend.available():
        raise invalid("cross_check", True, "cvc5 installed for a second opinion", "pip install 'symcal[cvc5]'")
    if cross_check:
        import cvc5  # noqa: F401  (imported once here, inherited by every forked worker)
    plans = [size_range(c, sizes if c.sized else None) for c in claims]
    if any(c.kind == "numeric" for c in claims):
        import scipy.optimize  # noqa: F401  (imported once here, inherited by every forked worker)
    if any(c.kind == "calibration" for c in claims):
        import symcal.calibration  # noqa: F401  (registers the calibration decider; inherited by every worker)
    preload(claims)
    tasks = [Task(i, c, m) for i, c in enumerate(claims) for m in plans[i]]
    results: list[dict[int | None, tuple[Outcome, float]]] = [{} for _ in claims]
    done = [0]

    def on_result(t: Task, out: Outcome, secs: float) -> bool:
        if certify and getattr(out, "certificate", None) is None:
            out = _uncertified(out, "no decisive verdict to certify" if not out.status.decisive
                               or out.status.value.startswith("confirmed") else "not certified")
        if certificates is not None:
            out = _write_certificate(certificates, t, out)
        results[t.index][t.size] = (out, secs)
        done[0] += 1
        if progress:
            at = f" m={t.size}" if t.size is not None else ""
            progress(f"[{done[0]}/{len(tasks)}] {t.claim.id}{at}: {out.status.value} ({secs:.2f} s)")
        return not stops_sweep(out)

    if certify:
        import scipy.optimize  # noqa: F401  (the certificate producer's LP, imported once for every worker)
    if cluster is not None:  # on Dask workers, each decision in its own limited child (symcal.cluster)
        _on_cluster(cluster, lambda c: c.execute(tasks, timeout=timeout, encoding=encoding, cross=cross_check,
                                                 on_result=on_result, certify=certify))
    else:
        _execute(tasks, timeout, jobs, encoding, on_result, isolate and os.name == "posix", cross_check,
                 KEEP_BODIES if certificates is not None else certify)
    return Verdicts([_aggregate(c, results[i], plans[i]) for i, c in enumerate(claims)], claims)


# how ``check_many(cluster=ADDRESS)`` opens a cluster for one run: set by :mod:`symcal.cluster` when it is
# imported (the front door imports it), so that the runner never imports the layer above it
cluster_opener: Callable[[str], Any] | None = None


def _on_cluster(cluster: Any, run: Callable[[Any], None]) -> None:
    """``run(executor)`` with ``cluster``: an object with ``execute(tasks, ...)`` (a
    :class:`symcal.cluster.Cluster`), or an address (``"local"``) opened and closed around it."""
    if isinstance(cluster, str):
        if cluster_opener is None:
            raise invalid("cluster", cluster, "a symcal.cluster.Cluster, or an address once symcal.cluster is "
                          "imported (loading the front door, `from symcal import check`, does it)")
        with cluster_opener(cluster) as c:
            run(c)
    elif callable(getattr(cluster, "execute", None)):
        run(cluster)
    else:
        raise invalid("cluster", cluster, "a symcal.cluster.Cluster, a scheduler address or 'local'")


def _certificate_folder(folder: Any, cluster: Any) -> bool:
    """Validate ``certificates=`` (a folder symcal can create and write; not with a cluster); True."""
    from pathlib import Path

    if not isinstance(folder, str | os.PathLike) or not str(folder):
        raise invalid("certificates", folder, "a folder path")
    if cluster is not None:
        raise invalid("certificates", str(folder), "local workers: certificate files are not written with a cluster")
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise OSError("not writable")
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the name
        raise invalid("certificates", str(folder), "a folder symcal can create and write", str(e)) from None
    return True


def _write_certificate(folder: Any, t: Task, out: Outcome) -> Outcome:
    """Write the decision's certificate file (``certificate_files.write``); the outcome without
    the certificates' bodies (they are not kept in memory)."""
    from symcal import certificate_files, certify

    try:
        certificate_files.write(folder, t.claim, t.size, out)
    except OSError as e:
        raise invalid("certificates", str(folder), "a folder symcal can write", str(e)) from None
    check_ = getattr(out, "certificate", None)
    return certify.with_certificate(out, check_) if isinstance(out, certificate_files.CarriedOutcome) else out


def check(claim: Claim, *, sizes: tuple[int, int] | None = None, timeout: float = 60.0,
          encoding: str = "auto", isolate: bool = True, cross_check: bool | None = False,
          certify: bool = False, certificates: str | os.PathLike[str] | None = None) -> Verdict:
    """Decide one claim (see :func:`check_many`)."""
    return check_many([arguments.one_claim(claim)], sizes=sizes, timeout=timeout, encoding=encoding,
                      isolate=isolate, cross_check=cross_check, certify=certify, certificates=certificates)[0]
