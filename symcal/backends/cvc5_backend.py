"""cvc5: a second opinion on SMT verdicts, re-decided from the same SMT-LIB2 text.

Optional: ``pip install 'symcal[cvc5]'``.  Imported only when used.
"""

from __future__ import annotations

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


def decide_smtlib(text: str, timeout: float) -> str:
    """'sat', 'unsat' or 'unknown' for the SMT-LIB2 script ``text``."""
    try:
        import cvc5
    except ImportError:
        raise NoBackendAvailable("cvc5: not installed; pip install 'symcal[cvc5]'") from None
    tm = cvc5.TermManager()
    slv = cvc5.Solver(tm)
    slv.setOption("tlimit-per", str(max(1, int(timeout * 1000))))
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
