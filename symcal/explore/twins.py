"""Negative twins: for every claim, a claim one edit away whose verdict must differ.

Each theorem module declares its twins beside its claims (``theorems/README.md``)::

    TWINS: dict[str, Callable[[], Claim]]     # claim id -> builds the twin
    TWIN_EXPECT: dict[str, str]               # claim id -> "proved" / "unknown" where not "refuted"
    EXTRA_TWINS: dict[str, tuple[str, Callable[[], Claim]]]   # optional: more twins of a claim

What a twin must come back as:

``refuted``  the default: the edit (an inequality flipped, a hypothesis dropped, a constant
             nudged) makes the statement false, and symcal must refute it with evidence;
``proved``   the twin of a claim the paper calls false adds what makes it true; it must come
             back proved (or, for a sampled check, confirmed on samples);
``unknown``  the twin of a numeric claim: a numeric check never refutes, but it must not
             confirm the twin.

A recorded erratum is its own twin in the tests; for mutation testing its twin is its corrected
statement (``Finding.corrected``), which must hold.  A user's ``--theorems`` file may declare
twins the same way.  :func:`twins_for` collects them; :mod:`symcal.explore.mutants` decides each
as the mutation operator ``twin``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from symcal.claims.core import Claim
from symcal.errors import InvalidClaim
from symcal.verdicts import Status, Verdict

__all__ = ["EXPECT", "Twin", "twins_of_module", "bundled_twins", "file_twins", "twins_for", "meets"]

EXPECT = ("refuted", "proved", "unknown")

# the statuses that count as "holds" for a twin expected proved (the per-paper tests ask for
# proved or confirmed-on-samples; an existence twin is witnessed)
_HOLDS = (Status.PROVED, Status.CONFIRMED_ON_SAMPLES, Status.WITNESSED)
_NUMERIC_NOT_CONFIRMED = "does not confirm"  # the numeric backend's reason when the margin fails


@dataclass(frozen=True)
class Twin:
    of: str  # the claim id
    build: Callable[[], Claim]
    expect: str = "refuted"
    what: str = "the declared negative twin"
    claim: Claim | None = None  # already built (an erratum's corrected claim)

    def make(self) -> Claim:
        return self.claim if self.claim is not None else self.build()


def meets(expect: str, v: Verdict) -> bool:
    """Whether verdict ``v`` is what a twin declared ``expect`` must come back as."""
    if expect == "refuted":
        return v.status is Status.REFUTED
    if expect == "proved":
        return v.status in _HOLDS
    if expect == "unknown":  # a numeric check that did not confirm -- not one that ran out of time
        return v.status is Status.UNKNOWN and _NUMERIC_NOT_CONFIRMED in (v.reason or "")
    raise InvalidClaim(f"twin expectation {expect!r}: expected one of {', '.join(EXPECT)}")


def twins_of_module(module: ModuleType, where: str, claim_ids: Iterable[str] | None = None) -> dict[str, list[Twin]]:
    """The twins a theorem module declares, keyed by claim id, checked for shape: every key of
    TWINS / TWIN_EXPECT / EXTRA_TWINS names a claim of the module, every value is callable,
    every expectation is one of EXPECT."""
    twins = getattr(module, "TWINS", None) or {}
    expect = getattr(module, "TWIN_EXPECT", None) or {}
    extra = getattr(module, "EXTRA_TWINS", None) or {}
    for name, value in (("TWINS", twins), ("TWIN_EXPECT", expect), ("EXTRA_TWINS", extra)):
        if not isinstance(value, Mapping):
            raise InvalidClaim(f"{where}: {name} is a {type(value).__name__}, not a dict keyed by claim id")
    ids = set(claim_ids) if claim_ids is not None else {c.id for c in getattr(module, "CLAIMS", [])}
    out: dict[str, list[Twin]] = {}
    for cid, build in twins.items():
        if ids and cid not in ids:
            raise InvalidClaim(f"{where}: TWINS names {cid!r}, which is not a claim of this module")
        if not callable(build):
            raise InvalidClaim(f"{where}: TWINS[{cid!r}] is a {type(build).__name__}, not a function building the twin")
        e = expect.get(cid, "refuted")
        if e not in EXPECT:
            raise InvalidClaim(f"{where}: TWIN_EXPECT[{cid!r}] = {e!r}; expected one of {', '.join(EXPECT)}")
        out.setdefault(cid, []).append(Twin(cid, build, e))
    stray = set(expect) - set(twins)
    if stray:
        raise InvalidClaim(f"{where}: TWIN_EXPECT names {sorted(stray)[0]!r}, which has no entry in TWINS")
    for what, pair in extra.items():
        if not (isinstance(pair, tuple) and len(pair) == 2 and callable(pair[1])):
            raise InvalidClaim(f"{where}: EXTRA_TWINS[{what!r}] is not a (claim id, builder) pair")
        cid, build = pair
        if ids and cid not in ids:
            raise InvalidClaim(f"{where}: EXTRA_TWINS[{what!r}] names {cid!r}, which is not a claim of this module")
        out.setdefault(cid, []).append(Twin(cid, build, "refuted", f"a further twin: {what}"))
    return out


def _loaded(path: Path, name: str | None) -> ModuleType:
    """The module at ``path``: the copy :mod:`symcal.library` already loaded, else a fresh load."""
    from symcal.library import load_module

    if name is not None:
        mod = sys.modules.get(name)
        if mod is not None and Path(getattr(mod, "__file__", "") or "").resolve() == path.resolve():
            return mod
    return load_module(path, name)


def bundled_twins() -> dict[str, list[Twin]]:
    """Every twin the bundled theorem modules declare, keyed by claim id."""
    from symcal.library import PAPERS, paper_path

    out: dict[str, list[Twin]] = {}
    for paper in PAPERS:
        p = paper_path(paper)
        out.update(twins_of_module(_loaded(p, f"symcal_theorems_{paper}"), str(p)))
    return out


def file_twins(path: str | Path) -> dict[str, list[Twin]]:
    """The twins a user's ``--theorems`` file declares (none when it defines no TWINS)."""
    p = Path(path)
    name = f"symcal_user_theorems_{abs(hash(str(p.resolve())))}"  # the name symcal.library gives it
    mod = _loaded(p, name)
    claims = getattr(mod, "CLAIMS", None)
    ids = [c.id for c in claims] if claims is not None else [v.id for v in vars(mod).values() if isinstance(v, Claim)]
    return twins_of_module(mod, str(p), ids)


def twins_for(claims: Sequence[Claim], files: Iterable[str | Path] = ()) -> dict[str, list[Twin]]:
    """The twins of ``claims``: declared in the bundled library or in ``files``, plus, for each
    recorded erratum, its corrected statement (expected to hold)."""
    declared: dict[str, list[Twin]] = {}
    wanted = {c.id for c in claims}
    if any(c.citation.paper in _bundled_papers() for c in claims):
        declared.update(bundled_twins())
    for f in files:
        declared.update(file_twins(f))
    out = {cid: ts for cid, ts in declared.items() if cid in wanted}
    by_id = {c.id: c for c in claims}
    for c in claims:
        if c.finding is None or c.id in out:
            continue
        corrected = by_id.get(c.finding.corrected)
        if corrected is None:
            corrected = _find_bundled(c.finding.corrected)
        if corrected is not None:
            out[c.id] = [Twin(c.id, _returning(corrected), "proved",
                              f"the corrected statement {corrected.id} (the erratum repaired) must hold",
                              claim=corrected)]
    return out


def _returning(claim: Claim) -> Callable[[], Claim]:
    return lambda: claim


def _bundled_papers() -> tuple[str, ...]:
    from symcal.library import PAPERS

    return PAPERS


def _find_bundled(claim_id: str) -> Claim | None:
    from symcal.library import load_bundled

    if claim_id.split(".")[0] not in _bundled_papers():
        return None
    return next((c for c in load_bundled() if c.id == claim_id), None)
