"""Certificate files: one JSON file per decision, for ``python -m symcal.kernel DIR`` to re-check.

``symcal check --certificates DIR`` (:func:`symcal.runner.check_many` with ``certificates=DIR``)
writes, for every decision (a claim, at one size for a sized claim) whose verdict is decisive --
or was decisive until the kernel rejected its certificate -- one file::

    DIR/<claim id>.json          an unsized claim
    DIR/<claim id>@m<size>.json  a sized claim at one size

(claim ids are ``[A-Za-z0-9_.]`` and never contain ``@``: the names are unique and safe on every
file system).  Verdicts without a decisive status (unknown, error, confirmed on samples or
numerically) get no file.  Files of earlier runs in DIR are left alone.

A file is JSON with every exact number a string (``"-3/4"``)::

    format       "symcal-certificate 1"
    claim, size  the claim id; the size (null when unsized)
    status       the decision's status (proved, refuted, witnessed; unknown after a rejection)
    scope        its scope
    text         the claim's statement in words
    statement    what the certificate states, in the kernel's term language (its body without the
                 proof parts; null without a body): symcal/kernel/record.py, which the kernel
                 checks against the body
    reductions   the steps between the claim and what the certificate proves, each
                 {"kind", "checked_by_kernel", "note", "where"} (node symmetry, difference
                 variables, one query per conjunct, a local lemma, a claim's wider scope, ...)
    reduction    "none" (the certificate covers the query directly), "checked" (every step is
                 re-checked by the kernel) or "trusted" (some step is not)
    certificate  {"kind", "checked" (the producing run's kernel verdict), "reason",
                  "body" (what symcal.kernel.check accepts; several pieces as kind "all"; null
                  when no piece has a certificate), "missing" ([[label, why], ...]: pieces of
                  the evidence without a certificate)}

Reductions are read from the notes the backends attach to their evidence, conservatively: a note
that is not known to describe the query itself counts as a trusted step.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcal.certify import CertifiedOutcome
from symcal.claims.core import Described

__all__ = ["FORMAT", "CarriedOutcome", "QUESTION_PREFIX", "file_name", "question_id", "reductions", "record", "write"]

FORMAT = "symcal-certificate 1"

# notes that describe the query itself (no step between the claim and the certificate)
_DIRECT = re.compile(r"(|naive encoding|unsat|\d+ cases, each negated query unsat|no values satisfy the constraints)")

# (pattern in a note, kind of step, the certificate kinds whose kernel check covers the step): the
# reductions the backends describe in their notes; a ``node`` certificate states the node claim at
# its size and the kernel re-derives its reduction (symcal/kernel/node.py)
_NODE = frozenset({"node"})
_KNOWN = (
    (re.compile(r"by node symmetry|node symmetry justified"), "node symmetry (the failing tuple fixed)", _NODE),
    (re.compile(r"difference variables"), "difference variables (weights read only as a_ij - a_ji)", _NODE),
    (re.compile(r"conjuncts?\b"), "conclusion split into its conjuncts, one query each", frozenset()),
    (re.compile(r"one query per conclusion tuple"), "one query per conclusion tuple", _NODE),
    (re.compile(r"hypothesis instances"), "a subset of the hypothesis instances (a weakening)", _NODE),
    (re.compile(r"base term"), "conclusion split into a base term and one term per other node", _NODE),
    (re.compile(r"lemmas cover all m|local lemma"), "local lemma (every size from a few nodes)", frozenset()),
)


@dataclass(frozen=True)
class CarriedOutcome(CertifiedOutcome):
    """A certified outcome that carries its certificates' bodies from the worker to the parent
    (only when they are to be written: they can be large)."""

    built: tuple[tuple[str, Any, str], ...] = ()


def file_name(claim_id: str, size: int | None) -> str:
    """``<claim id>.json`` or ``<claim id>@m<size>.json``."""
    return f"{claim_id}.json" if size is None else f"{claim_id}@m{size}.json"


QUESTION_PREFIX = "calibration0000"  # the id prefix of a user's own question (no paper, no year)


def question_id(name: str) -> str:
    """The claim id under which a user's own question is certified (``symcal calibration FILE
    --certificates DIR`` writes ``DIR/<id>.json``): ``name`` (the file's ``"name"``, by default its
    stem) itself when it is already a claim id (``mine2026.llw``), else ``calibration0000.<name>``
    with every character other than a letter, digit or ``_`` made ``_`` (``weston_watkins_3`` ->
    ``calibration0000.weston_watkins_3``).  Stable: the same name always gives the same id, so a
    second run replaces the file of the first."""
    from symcal.claims.core import ID_PATTERN, MAX_ID

    if not isinstance(name, str):
        raise TypeError(f"name={name!r}: expected a string")
    if len(name) <= MAX_ID and ID_PATTERN.fullmatch(name):
        return name
    label = re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_") or "question"
    return f"{QUESTION_PREFIX}.{label[:MAX_ID - len(QUESTION_PREFIX) - 1]}"


def _notes(ev: Any, label: str = "") -> list[tuple[str, str]]:
    """(where, note) of every Composite and SmtResult behind a proof (not a witness's query)."""
    from symcal.verdicts import Composite, SmtResult

    if isinstance(ev, Composite):
        out = [(label or "evidence", ev.note)] if ev.note else []
        for lab, part in ev.parts:
            out += _notes(part, f"{label}/{lab}" if label else lab)
        return out
    if isinstance(ev, SmtResult) and ev.note:
        return [(label or "evidence", ev.note)]
    return []


def reductions(claim: Any, out: Any, built: list[tuple[str, Any, str]] | tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """The steps between ``claim`` and what the certificates of ``out`` prove, conservatively:
    every step the kernel does not re-check is ``checked_by_kernel: False``."""
    from symcal.verdicts import Status

    steps: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()

    def add(kind: str, note: str, where: str, checked: bool = False) -> None:
        if (kind, note) not in seen:
            seen.add((kind, note))
            steps.append({"kind": kind, "checked_by_kernel": checked, "note": note[:1000], "where": where})

    if claim.kind == "calibration":
        # a ``calibration-a`` certificate states the claim (loss, link, noise, surrogate) and the kernel
        # writes reduction (A)'s pair queries itself (symcal/kernel/calibration.py); only then is it checked
        # (the same for (B) with a ``calibration-b`` certificate, symcal/kernel/polyhedral.py)
        whole = [(label, cert["kind"]) for label, cert, _ in built
                 if cert is not None and cert.get("kind") in ("calibration-a", "calibration-b")]
        # a refutation (one calibration-a / -b certificate with ``refutation``) states the claim and the kernel
        # checks its failure at p against the definition itself: no step between them
        refutation = len(built) == 1 and built[0][1] is not None and built[0][1].get("refutation") is not None
        if whole and all(cert is not None for _, cert, _ in built) and not refutation:
            add("calibration reduction", ("reduction (A): the claim's statement, the quadratic precondition and every "
                                          "pair query, re-derived by the kernel") if whole[0][1] == "calibration-a"
                else ("reduction (B): the claim's statement, the polyhedral surrogate, each psi_y bounded below "
                      "and every pair query (KKT conditions), re-derived by the kernel"), whole[0][0], checked=True)
        elif not refutation:
            add("calibration reduction", "calibration follows from the decision method's theorem (precondition (A) or "
                "(B) and the pair queries; for (S) / (Q) the convexity proof and the minimiser map), not re-checked "
                "by the kernel", "evidence")
        for label, cert, _ in built:
            if cert is not None and cert.get("kind") == "quadratic":
                add("calibration precondition (A)", "the quadratic precondition, re-checked by the kernel", label,
                    checked=True)
    if out.backend == "local-lemma" or getattr(claim, "strategy", "") == "local_lemma":
        add("local lemma (every size from a few nodes)", "the sizes are covered by the lemmas' argument", "evidence")
    # a ``scope=`` string argues that a proof covers more than its queries (a trusted step); a
    # ``described(...)`` scope only restates the queries' own domain (symcal.claims.core.Described)
    if claim.scope and out.status is Status.PROVED and not isinstance(claim.scope, Described):
        add("scope", f"the claim's scope: {claim.scope}", "claim")
    # the kinds of certificate behind the whole decision (none when a piece has no certificate)
    kinds = {cert.get("kind") for _, cert, _ in built if cert is not None}
    complete = bool(built) and all(cert is not None for _, cert, _ in built)
    if not _is_witness(out.evidence):  # a witness's certificate states the claim's own expressions
        for where, note in _notes(out.evidence):
            if _DIRECT.fullmatch(note.strip()) or claim.kind == "calibration":
                continue
            found = [(kind, covers) for pattern, kind, covers in _KNOWN if pattern.search(note)]
            for kind, covers in found or [("unclassified step", frozenset())]:
                add(kind, note, where, checked=complete and bool(kinds) and kinds <= covers)
    return steps


def _is_witness(ev: Any) -> bool:
    from symcal.verdicts import Witness

    return isinstance(ev, Witness)


def record(claim: Any, size: int | None, out: Any) -> dict[str, Any]:
    """The JSON-able content of one certificate file (see the module docstring)."""
    from symcal.verdicts import Status
    from symcal.version import __version__

    built = list(getattr(out, "built", ()))
    check = getattr(out, "certificate", None)
    pieces = [[label, cert] for label, cert, _ in built if cert is not None]
    missing = [[label, why] for label, cert, why in built if cert is None]
    if not built:  # nothing came back: the certification was cut short, or found nothing to certify
        missing = [["evidence", (check.reason if check is not None else "") or "no certificate"]]
    body = None if not pieces else pieces[0][1] if len(pieces) == 1 else {"kind": "all", "parts": pieces}
    steps = reductions(claim, out, built)
    scope = out.scope or (f"m = {size}" if size is not None else "")
    if size is None and claim.scope and out.status is Status.PROVED:  # as the verdict shows it
        scope = f"{claim.scope} ({out.scope})" if out.scope else claim.scope
    return {
        "format": FORMAT,
        "claim": claim.id,
        "size": size,
        "status": out.status.value,
        "scope": scope,
        "text": claim.statement,
        "statement": statement(pieces),
        "reductions": steps,
        "reduction": ("none" if not steps else "checked" if all(s["checked_by_kernel"] for s in steps)
                      else "trusted"),
        "certificate": {
            "kind": check.kind if check is not None else "none",
            "checked": bool(check is not None and check.checked),
            "reason": (check.reason if check is not None else "") or "",
            "body": body,
            "missing": missing,
        },
        "symcal": __version__,
    }


def statement(pieces: list[list[Any]]) -> dict[str, Any] | None:
    """What the certificate body states, in the kernel's term language, the proof parts left out
    (:func:`symcal.kernel.record.statement_of`; an identity's, a node claim's and a calibration claim's
    keep their first shape, :func:`symcal.kernel.record.legacy_statement`); None without a body.  The
    kernel rejects a file whose statement differs from its body's."""
    from symcal.kernel.record import legacy_statement, statement_of

    if not pieces:
        return None
    body = pieces[0][1] if len(pieces) == 1 else {"kind": "all", "parts": pieces}
    return legacy_statement(body) or statement_of(body)


def wanted(out: Any) -> bool:
    """Whether a decision gets a file: decisive, or made unknown by a rejected certificate."""
    from symcal.verdicts import Status

    check = getattr(out, "certificate", None)
    return out.status in (Status.PROVED, Status.REFUTED, Status.WITNESSED) or bool(check is not None and
                                                                                     check.rejected)


def write(directory: str | os.PathLike[str], claim: Any, size: int | None, out: Any) -> Path | None:
    """Write the certificate file of one decision into ``directory`` (atomically); None when the
    decision gets no file (:func:`wanted`)."""
    if not wanted(out):
        return None
    directory = Path(directory)
    path = directory / file_name(claim.id, size)
    text = json.dumps(record(claim, size, out), separators=(",", ":"))
    tmp = directory / f".{path.name}.{os.getpid()}.tmp"  # hidden: the kernel's CLI skips it
    try:
        tmp.write_text(text + "\n")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
