"""Render verdicts: a terminal table, the JSON array of the interface contract, Markdown.

JSON elements carry at least ``id, status, expected, agrees, scope, seconds, backend,
evidence`` and ``finding`` (ARCHITECTURE.md, *Interface contract*); reports are sorted by id and
stamped with backend versions so that their diffs mean something.
"""

from __future__ import annotations

import platform
from typing import Any

from symcal.claims.core import Claim, finding_class_counts
from symcal.verdicts import Status, Verdict, Witness

__all__ = ["agrees", "is_erratum", "outcome_counts", "by_paper_sorted", "to_json", "table", "markdown_report",
           "versions", "second_opinion_summary", "certificate_summary", "status_counts"]


def agrees(claim: Claim, verdict: Verdict) -> bool:
    return claim.expected is not None and verdict.status is claim.expected


def is_erratum(claim: Claim, verdict: Verdict) -> bool:
    """A recorded finding that the verdict reproduces (the printed statement is refuted)."""
    return claim.finding is not None and verdict.status is Status.REFUTED and not agrees(claim, verdict)


def outcome_counts(pairs: list[tuple[Claim, Verdict]]) -> tuple[int, int, int]:
    """How many verdicts agree with the source, reproduce a recorded erratum, and disagree."""
    n_ok = sum(agrees(c, v) for c, v in pairs)
    n_err = sum(is_erratum(c, v) for c, v in pairs)
    return n_ok, n_err, len(pairs) - n_ok - n_err


def by_paper_sorted(pairs: list[tuple[Claim, Verdict]]) -> dict[str, list[tuple[Claim, Verdict]]]:
    """The pairs in the order of their claim ids, grouped by paper (papers in the order of their
    first claim id)."""
    out: dict[str, list[tuple[Claim, Verdict]]] = {}
    for c, v in sorted(pairs, key=lambda p: p[0].id):
        out.setdefault(c.citation.paper, []).append((c, v))
    return out


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for mod, attr in (("sympy", "__version__"), ("networkx", "__version__"), ("numpy", "__version__"),
                      ("scipy", "__version__")):
        try:
            out[mod] = getattr(__import__(mod), attr)
        except ImportError:  # pragma: no cover
            out[mod] = "missing"
    try:
        import z3

        out["z3"] = z3.get_version_string()
    except ImportError:  # pragma: no cover
        out["z3"] = "missing"
    try:
        import cvc5

        out["cvc5"] = getattr(cvc5, "__version__", "installed")
    except ImportError:
        out["cvc5"] = "not installed"
    return out


def element(claim: Claim, v: Verdict) -> dict[str, Any]:
    return {
        "id": claim.id,
        "status": v.status.value,
        "expected": claim.expected.value if claim.expected else None,
        "agrees": agrees(claim, v),
        "erratum": is_erratum(claim, v),
        "scope": v.scope,
        "seconds": round(v.seconds, 4),
        "backend": v.backend,
        "evidence": v.evidence.to_json() if v.evidence is not None else None,
        "reason": v.reason,
        "finding": claim.finding.text() if claim.finding else None,
        "finding_class": claim.finding.finding_class if claim.finding else None,
        "statement": claim.statement,
        "citation": {"paper": claim.citation.paper, "location": claim.citation.location,
                     "quote": claim.citation.quote},
        "sizes": [s.to_json() for s in v.sizes],
        "cross_check": v.cross_check.to_json() if v.cross_check is not None else None,
        "warnings": list(v.warnings),
        **({"certificate": v.certificate.to_json()} if v.certificate is not None else {}),
    }


def to_json(pairs: list[tuple[Claim, Verdict]]) -> list[dict[str, Any]]:
    return [element(c, v) for c, v in sorted(pairs, key=lambda p: p[0].id)]


def _mark(claim: Claim, v: Verdict) -> str:
    if agrees(claim, v):
        return "ok (VACUOUS)" if v.vacuous else "ok"
    if is_erratum(claim, v):
        return "ERRATUM"
    return "DISAGREES"


def _short(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def table(pairs: list[tuple[Claim, Verdict]], *, verbose: bool = False) -> str:
    rows = [("id", "status", "expected", "", "scope", "seconds")]
    for c, v in sorted(pairs, key=lambda p: p[0].id):
        rows.append((c.id, v.status.value, c.expected.value if c.expected else "-", _mark(c, v),
                     _short(v.scope, 46), f"{v.seconds:.2f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    details = []
    for c, v in sorted(pairs, key=lambda p: p[0].id):
        show = verbose or not agrees(c, v) or v.status in (Status.REFUTED, Status.WITNESSED) or bool(v.warnings)
        if not show:
            continue
        for w in v.warnings:
            details.append(f"  {c.id}: WARNING {_short(w, 300)}")
        if v.evidence is not None and v.status in (Status.REFUTED, Status.WITNESSED):
            details.append(f"  {c.id}: {v.status.value} — {_short(v.evidence.summary(), 300)}")
        elif v.reason:
            details.append(f"  {c.id}: {_short(v.reason, 300)}")
        elif verbose and v.evidence is not None:
            details.append(f"  {c.id}: {_short(v.evidence.summary(), 300)}")
        if c.finding and is_erratum(c, v):
            details.append(f"    finding ({c.finding.finding_class}): {_short(c.finding.what, 300)}")
            details.append(f"    corrected: {c.finding.corrected}")
    n_ok, n_err, n_bad = outcome_counts(pairs)
    total = sum(v.seconds for _, v in pairs)
    classes = [c.finding.finding_class for c, v in pairs if c.finding is not None and is_erratum(c, v)]
    by_class = f" ({finding_class_counts(classes)})" if classes else ""
    summary = (f"{len(pairs)} claims: {n_ok} agree with the source, {n_err} recorded errata{by_class}, "
               f"{n_bad} disagree; {status_counts(pairs)}; {total:.1f} s of checking")
    return "\n".join(lines + ([""] + details if details else []) + ["", summary])


def status_counts(pairs: list[tuple[Claim, Verdict]]) -> str:
    """How many verdicts of each status, proofs first; samples and numerics counted apart
    (an exact check on sampled instances is never a proof)."""
    counts = {s: 0 for s in Status}
    for _, v in pairs:
        counts[v.status] += 1
    return ", ".join(f"{n} {s.value}" for s, n in counts.items() if n)


def second_opinion_summary(pairs: list[tuple[Claim, Verdict]]) -> str:
    """One line: how many verdicts cvc5 re-decided, and every disagreement (loudly)."""
    ccs = [(c, v.cross_check) for c, v in pairs if v.cross_check is not None]
    asked = [(c, cc) for c, cc in ccs if not cc.skipped]
    if not asked:
        skipped = next((cc.skipped for _, cc in ccs if cc.skipped), "")
        return "second opinion: none" + (f" ({skipped})" if skipped else " (no SMT answers, or not asked)")
    solver = asked[0][1].solver
    answers = sum(cc.answers for _, cc in asked)
    agreed = sum(cc.agreed for _, cc in asked)
    confirmed = sum(cc.confirmed for _, cc in asked)
    dis = [(c, d) for c, cc in asked for d in cc.disagreements]
    unk = [(c, u) for c, cc in asked for u in cc.unknown]
    line = (f"second opinion: {solver} re-decided {answers} SMT answers of {len(asked)} verdicts: "
            f"{confirmed} verdicts fully confirmed ({agreed} answers agree), {len(unk)} answers without a "
            f"cvc5 answer, {len(dis)} disagreements")
    lines = [line]
    lines += [f"  SOLVERS DISAGREE on {c.id}: {d}" for c, d in dis]
    lines += [f"  no cvc5 answer for {c.id}: {_short(u, 160)}" for c, u in unk[:10]]
    if len(unk) > 10:
        lines.append(f"  ... and {len(unk) - 10} more without a cvc5 answer")
    return "\n".join(lines)


def certificate_summary(pairs: list[tuple[Claim, Verdict]]) -> str:
    """One line (with --certify): how many decisive verdicts the independent kernel re-checked,
    how many rest on a solver (with or without cvc5's second opinion), how many on symcal's
    exact enumeration, and every rejected certificate (loudly)."""
    decisive = [(c, v) for c, v in pairs if v.status in (Status.PROVED, Status.REFUTED, Status.WITNESSED)]
    kernel = [v for _, v in decisive if v.certificate is not None and v.certificate.checked]
    rest = [v for _, v in decisive if not (v.certificate is not None and v.certificate.checked)]
    enum = [v for v in rest if v.backend == "enumerate" or isinstance(v.evidence, Witness)]
    solver = [v for v in rest if not (v.backend == "enumerate" or isinstance(v.evidence, Witness))]
    second = [v for v in solver if v.cross_check is not None and v.cross_check.confirmed]
    proved = [v for _, v in decisive if v.status is Status.PROVED]
    proved_k = [v for v in proved if v.certificate is not None and v.certificate.checked]
    rejected = [(c, v) for c, v in pairs if v.certificate is not None and v.certificate.rejected]
    line = (f"certificates: {len(kernel)} of {len(decisive)} decisive verdicts kernel-checked ({len(proved_k)} of "
            f"{len(proved)} proved); solver-trusted: {len(second)} with a second opinion, {len(solver) - len(second)} "
            f"without; {len(enum)} rest on symcal's exact evaluation (enumeration, re-checked witness); "
            f"{len(rejected)} REJECTED")
    return "\n".join([line] + [f"  CERTIFICATE REJECTED for {c.id}: {_short(v.reason, 200)}" for c, v in rejected])


def markdown_report(pairs: list[tuple[Claim, Verdict]], title: str = "symcal report") -> str:
    vers = versions()
    out = [f"# {title}", "", "Backends: " + ", ".join(f"{k} {v}" for k, v in vers.items()), ""]
    for paper, rows in by_paper_sorted(pairs).items():
        out += [f"## {paper}", "", "| id | location | status | expected | scope | backend | seconds |",
                "|---|---|---|---|---|---|---|"]
        for c, v in rows:
            mark = "" if agrees(c, v) else (" (erratum)" if is_erratum(c, v) else " **(disagrees)**")
            out.append(f"| `{c.id}` | {c.citation.location} | {v.status.value}{mark} | "
                       f"{c.expected.value if c.expected else '-'} | {_short(v.scope, 60)} | {v.backend} | "
                       f"{v.seconds:.2f} |")
        out.append("")
        for c, v in rows:
            extra = []
            if v.status in (Status.REFUTED, Status.WITNESSED) and v.evidence is not None:
                extra.append(f"- `{c.id}` {v.status.value}: {_short(v.evidence.summary(), 400)}")
            if v.reason and v.status is not Status.PROVED:
                extra.append(f"- `{c.id}`: {_short(v.reason, 400)}")
            if c.finding:
                extra.append(f"- **Finding** `{c.id}`: {c.finding.what} Counterexample: "
                             f"{c.finding.counterexample} Corrected claim: `{c.finding.corrected}`.")
            out += extra
        out.append("")
    return "\n".join(out)
