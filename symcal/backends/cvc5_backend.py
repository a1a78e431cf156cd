"""cvc5: a second opinion on SMT verdicts, re-decided from the same SMT-LIB2 text.

Optional: ``pip install 'symcal[cvc5]'``.  Imported only when used.
"""

from __future__ import annotations

import time

from symcal.backends.base import children_cpu
from symcal.errors import NoBackendAvailable

__all__ = ["NAME", "available", "version", "decide_smtlib"]

NAME = "cvc5"


def available() -> bool:
    try:
        import cvc5  # noqa: F401
    except ImportError:
        return False
    return True


def version() -> str:
    try:
        import cvc5
    except ImportError:
        raise NoBackendAvailable("cvc5: not installed; pip install 'symcal[cvc5]'") from None
    return getattr(cvc5, "__version__", "unknown")


# Nonlinear real arithmetic: cvc5's default (incremental linearisation) is incomplete and
# times out on symcal's polynomial queries; cylindrical algebraic coverings alone decide them
# (e.g. Duchi et al.'s Lemma 10 in 0.03 s instead of "unknown" after 20 s).  Tried first; the
# default configuration second, for what coverings cannot do (integers).
CONFIGURATIONS: tuple[dict[str, str], ...] = ({"nl-cov": "true", "nl-ext": "none"}, {})


def decide_smtlib(text: str, timeout: float) -> str:
    """'sat', 'unsat' or 'unknown ...' for the SMT-LIB2 script ``text`` within ``timeout`` CPU
    seconds (ARCHITECTURE.md, rule 5: the configurations share them; each runs in a child whose CPU
    seconds are counted, so a busy machine does not shorten the search)."""
    try:
        import cvc5  # noqa: F401
    except ImportError:
        raise NoBackendAvailable("cvc5: not installed; pip install 'symcal[cvc5]'") from None
    left = timeout
    answer = "unknown"
    for options in CONFIGURATIONS:
        if left <= 0.05:
            break
        before = children_cpu()
        answer = _run_killable(text, left, options)
        if answer in ("sat", "unsat"):
            return answer
        left -= max(0.0, children_cpu() - before)
    return answer


# cvc5's own limit (tlimit-per) counts wall-clock time and is not honoured by every procedure: with
# nl-cov some polynomial queries run on for minutes (seen on Xia et al.'s Proposition 10 stationarity
# system).  On POSIX each run is therefore a forked child whose CPU seconds the parent reads from
# /proc every CPU_POLL seconds and kills at the limit (RLIMIT_CPU, in whole seconds, is a coarser
# guard where /proc is missing), with tlimit-per and a kill at WALL_FACTOR times the limit only as
# the wall-clock backstop (ARCHITECTURE.md, rule 5).
KILL_GRACE = 0.25
CPU_POLL = 0.05  # seconds between two readings of the child's CPU time


def _cpu_of(pid: int) -> float | None:
    """CPU seconds (user + system) the process ``pid`` has spent, from /proc; None without it."""
    import os

    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _run_killable(text: str, timeout: float, options: dict[str, str]) -> str:
    import os
    import select
    import signal

    if os.name != "posix" or not hasattr(os, "fork"):  # pragma: no cover - the runner's kill still applies
        return _run(text, timeout, options)
    import math
    import resource

    from symcal.limits import WALL_FACTOR

    backstop = WALL_FACTOR * timeout + 1.0
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: decide, write the answer, leave without cleanup
        code = 0
        try:
            os.close(r)
            cpu = math.ceil(timeout) + 1  # coarse (whole seconds): the parent's reading below is the limit
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))  # a forked child's CPU clock starts at 0
            os.write(w, _run(text, backstop, options).encode()[:2000])
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    chunks: list[bytes] = []
    try:
        end = time.monotonic() + backstop + KILL_GRACE
        while True:
            ready, _, _ = select.select([r], [], [], max(0.0, min(CPU_POLL, end - time.monotonic())))
            if not ready:
                spent = _cpu_of(pid)
                if spent is not None and spent >= timeout:
                    os.kill(pid, signal.SIGKILL)
                    return f"unknown (cvc5 spent its {timeout:.3g} CPU seconds)"
                if time.monotonic() < end:
                    continue
                os.kill(pid, signal.SIGKILL)
                return f"unknown (cvc5 ran past its wall-clock backstop of {backstop:.3g} s and was killed)"
            chunk = os.read(r, 4096)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
        _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL) and not chunks:
        return f"unknown (cvc5 spent its {timeout:.3g} CPU seconds)"
    return b"".join(chunks).decode() or "unknown (the cvc5 child process died)"


def _run(text: str, timeout: float, options: dict[str, str]) -> str:
    import cvc5

    tm = cvc5.TermManager()
    slv = cvc5.Solver(tm)
    slv.setOption("tlimit-per", str(max(1, int(timeout * 1000))))
    for k, v in options.items():
        slv.setOption(k, v)
    ip = cvc5.InputParser(slv)
    ip.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "symcal")
    sm = ip.getSymbolManager()
    answer = "unknown"
    try:
        while True:
            cmd = ip.nextCommand()
            if cmd.isNull():
                break
            out = cmd.invoke(slv, sm)
            word = (out or "").strip()
            if word in ("sat", "unsat", "unknown"):
                answer = word
    except Exception as e:  # parse errors and the like: no opinion
        return f"unknown ({type(e).__name__}: {e})"
    return answer
