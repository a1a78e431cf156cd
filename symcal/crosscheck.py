"""Second opinion: re-decide every SMT answer of a verdict with cvc5 from its SMT-LIB2 text.

A disagreement turns the verdict into ``unknown`` with both answers in the reason
(DESIGN.md, rule 1: no decisive verdict without evidence both solvers accept).
"""

from __future__ import annotations

from dataclasses import replace

from symcal.backends import cvc5_backend
from symcal.verdicts import Composite, Evidence, SmtResult, Status, Verdict

__all__ = ["cross_check", "smt_parts"]


def smt_parts(ev: Evidence | None, label: str = "") -> list[tuple[str, SmtResult]]:
    if ev is None:
        return []
    if isinstance(ev, SmtResult):
        return [(label, ev)]
    if isinstance(ev, Composite):
        out = []
        for lab, part in ev.parts:
            out += smt_parts(part, f"{label}/{lab}" if label else lab)
        return out
    return []


def cross_check(v: Verdict, timeout: float = 30.0) -> tuple[Verdict, int, list[str]]:
    """Returns the (possibly downgraded) verdict, how many SMT answers cvc5 re-decided,
    and the disagreements."""
    parts = smt_parts(v.evidence)
    for s in v.sizes:
        parts += smt_parts(s.evidence, f"m = {s.size}")
    if not parts:
        return v, 0, []
    disagreements = []
    agreed = 0
    notes = []
    for label, p in parts:
        ans = cvc5_backend.decide_smtlib(p.smtlib, timeout)
        if ans == p.answer:
            agreed += 1
        elif ans.startswith("unknown"):
            notes.append(f"{label or 'query'}: cvc5 {ans}")
        else:
            disagreements.append(f"{label or 'query'}: z3 says {p.answer}, cvc5 says {ans}")
    if disagreements:
        return (replace(v, status=Status.UNKNOWN, evidence=None,
                        reason="SOLVERS DISAGREE: " + "; ".join(disagreements)), agreed, disagreements)
    note = f"cvc5 {cvc5_backend.version()} agrees on {agreed} of {len(parts)} SMT answers"
    if notes:
        note += " (" + "; ".join(notes[:3]) + ")"
    return replace(v, reason=(v.reason + "; " if v.reason else "") + note), agreed, []
