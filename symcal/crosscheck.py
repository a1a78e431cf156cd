"""Second opinion: re-decide every SMT answer of a decision with cvc5 from its SMT-LIB2 text.

The runner calls :func:`second_opinion` in the worker right after a decision that rests on
SMT answers (``proved``, or ``refuted`` by an unsat existence query), in a phase of its own
with its own wall-clock limit: the decision is already with the parent, so a cvc5 that runs
past its limit costs the confirmation, never the decision.  A disagreement turns the decision
into ``unknown``: both answers stay in the evidence and the reason says ``SOLVERS DISAGREE``
(ARCHITECTURE.md, rule 1).  A cvc5
``unknown`` (timeout, unsupported logic) is recorded as "no answer", never as agreement.

A refutation (or witness) found by a solver carries the satisfiable query its model came from
(``Witness.query``): cvc5 re-decides that text too (expected ``sat``).  The witness itself was
already re-checked on the claim's own expressions in exact arithmetic; the second opinion checks
the exported encoding, and a disagreement still turns the verdict into ``unknown``.
"""

from __future__ import annotations

import time
from dataclasses import replace

from symcal.backends import cvc5_backend
from symcal.backends.base import Outcome
from symcal.verdicts import Composite, CrossCheck, Evidence, SmtResult, Status, Witness

__all__ = ["second_opinion", "smt_parts", "PER_QUERY_CAP"]

# seconds cvc5 may spend on one SMT answer (it also never exceeds the decision's budget)
PER_QUERY_CAP = 10.0


def smt_parts(ev: Evidence | None, label: str = "") -> list[tuple[str, SmtResult]]:
    """Every SMT answer inside ``ev`` with a label saying where it sits."""
    if ev is None:
        return []
    if isinstance(ev, SmtResult):
        return [(label, ev)]
    if isinstance(ev, Witness):
        return [(f"{label}/witness query" if label else "witness query", ev.query)] if ev.query is not None else []
    if isinstance(ev, Composite):
        out = []
        for lab, part in ev.parts:
            out += smt_parts(part, f"{label}/{lab}" if label else lab)
        return out
    return []


def _annotate(ev: Evidence | None, notes: dict[int, str]) -> Evidence | None:
    """The same evidence with each SMT answer's ``cross_check`` text filled in."""
    if ev is None:
        return None
    if isinstance(ev, SmtResult):
        return replace(ev, cross_check=notes.get(id(ev), ev.cross_check))
    if isinstance(ev, Witness) and ev.query is not None:
        return replace(ev, query=_annotate(ev.query, notes))
    if isinstance(ev, Composite):
        return replace(ev, parts=tuple((lab, _annotate(p, notes)) for lab, p in ev.parts))
    return ev


def second_opinion(out: Outcome, seconds: float) -> Outcome:
    """``out`` with cvc5's opinion on each of its SMT answers (at most ``seconds`` in all)."""
    if out.status not in (Status.PROVED, Status.REFUTED, Status.WITNESSED):
        return out
    parts = smt_parts(out.evidence)
    if not parts:
        return out
    if not cvc5_backend.available():
        return replace(out, cross_check=CrossCheck("cvc5", skipped="cvc5 not installed (pip install 'symcal[cvc5]')"))
    solver = f"cvc5 {cvc5_backend.version()}"
    deadline = time.monotonic() + seconds
    agreed, unknown, disagree = 0, [], []
    notes: dict[int, str] = {}
    for label, p in parts:
        left = min(deadline - time.monotonic(), PER_QUERY_CAP)
        where = label or "query"
        if left <= 0.05:
            unknown.append(f"{where}: no time left in the budget")
            notes[id(p)] = f"{solver}: not asked (no time left)"
            continue
        ans = cvc5_backend.decide_smtlib(p.smtlib, left)
        if ans == p.answer:
            agreed += 1
            notes[id(p)] = f"{solver} agrees ({ans})"
        elif ans.startswith("unknown"):
            unknown.append(f"{where}: {ans}")
            notes[id(p)] = f"{solver}: {ans}"
        else:
            disagree.append(f"{where}: {p.solver} says {p.answer}, cvc5 says {ans}")
            notes[id(p)] = f"{solver} DISAGREES ({ans})"
    cc = CrossCheck(solver, len(parts), agreed, tuple(unknown), tuple(disagree))
    evidence = _annotate(out.evidence, notes)
    if disagree:
        return Outcome(Status.UNKNOWN, out.scope, out.backend, evidence,
                       "SOLVERS DISAGREE: " + "; ".join(disagree), cc)
    return replace(out, evidence=evidence, cross_check=cc)
