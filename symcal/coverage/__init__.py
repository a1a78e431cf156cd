"""Coverage of the five papers: every numbered statement, displayed equation, table row and main
proof step, in reading order, with the claim ids that check it or the reason it has none.

The map itself is data (``symcal.coverage.data.<paper>``); this module loads it, validates it,
joins it with the bundled claim library and counts, per paper:

* ``statements`` -- entries in the map;
* ``checked`` -- entries with claim ids, split by the strongest evidence a claim's *expected*
  outcome carries: ``by_proof`` (proved / refuted / witnessed), ``on_samples``
  (confirmed-on-samples), ``numeric`` (confirmed-numerically) -- these three add up to
  ``checked``;
* ``errata`` -- checked entries with some claim carrying a recorded finding, and
  ``findings_by_class`` -- those findings (each claim once) by class (``statement``, ``hypothesis``,
  ``proof``, ``clarification``; each entry lists its own as ``finding_classes``);
* ``definition``, ``prose``, ``not_checkable``, ``out_of_scope``, ``gaps`` (``unchecked: ...``).

No solver runs here: the status of an entry is read from ``claim.expected`` and
``claim.finding``, so ``symcal coverage`` is as quick as loading the library.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcal.claims.core import FINDING_CLASSES, finding_class_counts
from symcal.coverage.data import PAPERS
from symcal.coverage.entry import REASON_KINDS, Entry, reason_kind
from symcal.errors import invalid
from symcal.verdicts import Status

__all__ = [
    "PAPERS",
    "Entry",
    "PaperMap",
    "load_map",
    "validate",
    "entry_status",
    "entry_finding_classes",
    "summarise",
    "to_json",
    "render_text",
    "readme_table",
    "numbered_labels",
    "papers_dir",
    "label_in_locations",
]

PROOF = frozenset({Status.PROVED, Status.REFUTED, Status.WITNESSED})
SAMPLES = frozenset({Status.CONFIRMED_ON_SAMPLES})
NUMERIC = frozenset({Status.CONFIRMED_NUMERICALLY})

# Counts in the order they are printed; the reason kinds map to these keys.
COUNT_KEYS = (
    "statements",
    "checked",
    "by_proof",
    "on_samples",
    "numeric",
    "errata",
    "definition",
    "prose",
    "not_checkable",
    "out_of_scope",
    "gaps",
)
_REASON_KEY = {
    "definition": "definition",
    "prose": "prose",
    "not checkable": "not_checkable",
    "out of scope": "out_of_scope",
    "unchecked": "gaps",
}


def papers_dir() -> Path | None:
    """Where the papers' plain text lives (``$SYMCAL_PAPERS``, else the first ``shared/papers``
    beside a parent of this package, as in the project checkout); None when absent."""
    env = os.environ.get("SYMCAL_PAPERS")
    if env:
        return Path(env)
    for parent in Path(__file__).resolve().parents:
        cand = parent / "shared" / "papers"
        if cand.is_dir():
            return cand
    return None


# A numbered Theorem / Lemma / Corollary / Proposition / Definition label, appendix ones included.
LABEL_RE = re.compile(r"\b(Theorem|Lemma|Corollary|Proposition|Definition) ([A-Z]\.\d+|\d+(?:\.\d+)?)\b")


@dataclass(frozen=True)
class PaperMap:
    """One paper's map: its id, its text file's name, the labels it cites from other works,
    and its entries in reading order."""

    paper: str
    source: str
    entries: tuple[Entry, ...]
    external_labels: Mapping[str, str] = field(default_factory=dict)


def load_map(papers: Iterable[str] = PAPERS) -> dict[str, PaperMap]:
    """The coverage map of the given papers (all five by default), keyed by paper id."""
    out = {}
    for paper in papers:
        if paper not in PAPERS:
            raise invalid("PAPER", paper, "one of " + ", ".join(PAPERS))
        module = importlib.import_module(f"symcal.coverage.data.{paper}")
        out[paper] = PaperMap(
            paper=module.PAPER,
            source=module.SOURCE,
            entries=tuple(module.ENTRIES),
            external_labels=dict(getattr(module, "EXTERNAL_LABELS", {})),
        )
    return out


def validate(
    entries: Sequence[Entry], claim_ids: Iterable[str] | None = None, *, paper: str | None = None
) -> list[str]:
    """Every problem of a map: an entry with neither claims nor a reason (or both), an ill-formed
    reason, an empty location or quote, a repeated (location, quote), and -- when ``claim_ids`` is
    given -- a claim id that is not in the library or belongs to another paper."""
    problems: list[str] = []
    known = None if claim_ids is None else set(claim_ids)
    seen: set[tuple[str, str]] = set()
    for e in entries:
        if not isinstance(e, Entry):
            problems.append(f"{e!r} is not a coverage Entry")
            continue
        problems += e.problems()
        key = (e.location, e.quote)
        if key in seen:
            problems.append(f"entry {e.location!r}: listed twice with the same quote")
        seen.add(key)
        for cid in e.claims:
            if known is not None and cid not in known:
                problems.append(f"entry {e.location!r}: claim id {cid!r} is not in the library")
            if paper is not None and not cid.startswith(paper + "."):
                problems.append(f"entry {e.location!r}: claim id {cid!r} is not a {paper} claim")
    return problems


def entry_status(entry: Entry, claims: Mapping[str, Any]) -> tuple[str, bool]:
    """(status word, erratum?) of an entry: ``proof`` / ``samples`` / ``numeric`` for a checked
    entry (its strongest claim evidence, read from ``claim.expected``), else its reason kind."""
    if not entry.claims:
        return reason_kind(entry.reason) or "invalid", False
    objs = [claims[c] for c in entry.claims]
    expected = {c.expected for c in objs}
    erratum = any(getattr(c, "finding", None) is not None for c in objs)
    if expected & PROOF:
        word = "proof"
    elif expected & SAMPLES:
        word = "samples"
    elif expected & NUMERIC:
        word = "numeric"
    else:  # pragma: no cover - the library only asserts the outcomes above
        word = "unknown"
    return word, erratum


def entry_finding_classes(entry: Entry, claims: Mapping[str, Any]) -> list[str]:
    """The classes of the findings its claims carry, each once, in the order of ``FINDING_CLASSES``."""
    found = {getattr(getattr(claims[c], "finding", None), "finding_class", None) for c in entry.claims}
    return [c for c in FINDING_CLASSES if c in found]


def _library() -> dict[str, Any]:
    from symcal import library

    return {c.id: c for c in library.load_bundled()}


def summarise(papers: Iterable[str] = PAPERS, claims: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Per paper: the counts (``COUNT_KEYS``) and the entries with their status words.

    ``claims`` maps claim id -> Claim (the bundled library when omitted). A map that does not
    validate against it raises ``InvalidInput`` naming the first problem."""
    maps = load_map(papers)
    lib = _library() if claims is None else dict(claims)
    out: dict[str, dict[str, Any]] = {}
    for paper, pm in maps.items():
        problems = validate(pm.entries, lib.keys(), paper=paper)
        if problems:
            raise invalid(
                f"coverage map {paper}",
                problems[0],
                "entries with claim ids from the library or a reason",
                f"{len(problems)} problem(s); fix symcal/coverage/data/{paper}.py",
            )
        counts = dict.fromkeys(COUNT_KEYS, 0)
        by_class = dict.fromkeys(FINDING_CLASSES, 0)
        counted: set[str] = set()
        rows = []
        for e in pm.entries:
            word, erratum = entry_status(e, lib)
            counts["statements"] += 1
            if e.claims:
                counts["checked"] += 1
                counts[{"proof": "by_proof", "samples": "on_samples", "numeric": "numeric"}.get(word, "numeric")] += 1
                counts["errata"] += erratum
                for cid in e.claims:
                    fc = getattr(getattr(lib[cid], "finding", None), "finding_class", None)
                    if fc in by_class and cid not in counted:
                        counted.add(cid)
                        by_class[fc] += 1
            else:
                counts[_REASON_KEY[word]] += 1
            rows.append(
                {
                    "location": e.location,
                    "quote": e.quote,
                    "status": word,
                    "erratum": erratum,
                    "finding_classes": entry_finding_classes(e, lib),
                    "claims": list(e.claims),
                    "reason": e.reason,
                }
            )
        out[paper] = {**counts, "findings_by_class": by_class, "entries": rows}
    return out


def to_json(summary: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The ``--json`` object: ``{paper: {counts..., "entries": [...]}}`` (already JSON-ready)."""
    return {paper: dict(data) for paper, data in summary.items()}


def _classes_text(data: Mapping[str, Any]) -> str:
    """``' (findings: 2 statement, 3 proof)'``, or nothing when the paper has no finding."""
    by_class = data.get("findings_by_class") or {}
    if not any(by_class.values()):
        return ""
    return " (findings: " + finding_class_counts(c for c, n in by_class.items() for _ in range(n)) + ")"


def _counts_line(data: Mapping[str, Any]) -> str:
    return (
        f"{data['statements']} statements: {data['checked']} checked "
        f"({data['by_proof']} by proof, {data['on_samples']} on samples, {data['numeric']} numeric; "
        f"{data['errata']} with errata{_classes_text(data)}), {data['definition']} definitions, {data['prose']} prose, "
        f"{data['not_checkable']} not checkable, {data['out_of_scope']} out of scope, {data['gaps']} gaps"
    )


def render_text(summary: Mapping[str, Mapping[str, Any]]) -> str:
    """The terminal listing: per paper the counts, then one line per entry (location, status
    word, claim ids or reason)."""
    lines: list[str] = []
    for paper, data in summary.items():
        if lines:
            lines.append("")
        lines.append(f"{paper}: {_counts_line(data)}")
        width = max((len(r["location"]) for r in data["entries"]), default=0)
        for r in data["entries"]:
            word = r["status"] + (" + erratum" if r["erratum"] else "")
            if r.get("finding_classes"):
                word += " (" + ", ".join(r["finding_classes"]) + ")"
            # a reason's kind is already the status word; print only its "why"
            what = ", ".join(r["claims"]) if r["claims"] else r["reason"].partition(":")[2].strip()
            lines.append(f"  {r['location']:<{width}}  {word:<17}  {what}".rstrip())
    return "\n".join(lines)


def readme_table(summary: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """A Markdown table of the counts for the README, one row per paper and a total row.

    "not checkable" counts statements outside any finite or symbolic check (``not checkable``
    reasons); "out of scope" those resting on another work or on experiments; definitions and
    prose make up the rest of "statements"."""
    summary = summarise() if summary is None else summary
    cols = [
        ("statements", "statements"),
        ("checked", "checked"),
        ("by proof", "by_proof"),
        ("on samples", "on_samples"),
        ("numeric", "numeric"),
        ("errata", "errata"),
        ("not checkable", "not_checkable"),
        ("out of scope", "out_of_scope"),
        ("gaps", "gaps"),
    ]
    head = "| paper | " + " | ".join(c for c, _ in cols) + " |"
    rule = "|---|" + "---:|" * len(cols)
    rows = [head, rule]
    total = dict.fromkeys((k for _, k in cols), 0)
    for paper, data in summary.items():
        rows.append(f"| {paper} | " + " | ".join(str(data[k]) for _, k in cols) + " |")
        for _, k in cols:
            total[k] += data[k]
    rows.append("| **total** | " + " | ".join(f"**{total[k]}**" for _, k in cols) + " |")
    return "\n".join(rows)


def numbered_labels(text: str) -> set[str]:
    """Every numbered Theorem / Lemma / Corollary / Proposition / Definition label in a text
    (``Lemma 14``, ``Theorem 3.3``, ``Lemma B.2``)."""
    return {f"{m.group(1)} {m.group(2)}" for m in LABEL_RE.finditer(text)}


def label_in_locations(label: str, locations: Iterable[str]) -> bool:
    """Whether ``label`` (``Lemma 1``) names some location -- as a whole label, so ``Lemma 1``
    is not found in ``Lemma 14`` nor ``Theorem 3`` in ``Theorem 3.3``."""
    pat = re.compile(r"\b" + re.escape(label) + r"(?![\d.]*\d)")
    return any(pat.search(loc) for loc in locations)


REASONS = REASON_KINDS
