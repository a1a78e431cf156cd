"""One statement of a paper in the coverage map: where it is, what it says, and either the
claim ids that check it or the reason it has none."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Entry", "E", "REASON_KINDS", "reason_kind"]

# A reason is one of these words, the last three followed by ": <why>".
REASON_KINDS = ("definition", "prose", "not checkable", "out of scope", "unchecked")
_NEEDS_WHY = ("not checkable", "out of scope", "unchecked")


@dataclass(frozen=True)
class Entry:
    """A numbered statement, displayed equation, table row or proof step of a paper.

    ``claims`` are bundled claim ids (``duchi2010.lemma14``) whose citation covers it; when
    there are none, ``reason`` says why: ``definition``, ``prose``, ``not checkable: <why>``,
    ``out of scope: <why>`` or ``unchecked: <what a claim would need>`` (an honest gap)."""

    location: str
    quote: str
    claims: tuple[str, ...] = ()
    reason: str = ""

    def problems(self) -> list[str]:
        """What is wrong with this entry (empty when it is well formed)."""
        out = []
        where = f"entry {self.location!r}"
        if not self.location.strip():
            out.append(f"{where}: location is empty")
        if not self.quote.strip():
            out.append(f"{where}: quote is empty")
        if not self.claims and not self.reason:
            out.append(f"{where}: has neither claim ids nor a reason")
        if self.claims and self.reason:
            out.append(f"{where}: has both claim ids and a reason ({self.reason!r}); give one")
        if len(set(self.claims)) != len(self.claims):
            out.append(f"{where}: repeats a claim id")
        if self.reason and reason_kind(self.reason) is None:
            out.append(
                f"{where}: reason {self.reason!r} should start with one of "
                + ", ".join(REASON_KINDS)
                + " (the last three followed by ': <why>')"
            )
        return out


def reason_kind(reason: str) -> str | None:
    """``'unchecked'`` for ``'unchecked: needs ...'``; None for an ill-formed reason."""
    for kind in REASON_KINDS:
        if kind in _NEEDS_WHY:
            if reason.startswith(kind + ":") and reason[len(kind) + 1 :].strip():
                return kind
        elif reason == kind:
            return kind
    return None


def E(location: str, quote: str, *claims: str, reason: str = "") -> Entry:
    """Shorthand used by the data modules: ``E("Lemma 14", "...", "duchi2010.lemma14")``."""
    return Entry(location, quote, tuple(claims), reason)
