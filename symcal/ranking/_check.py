"""The answer a domain check gives: a verdict, the reason, and the objects that decide it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symcal import display

__all__ = ["CheckResult"]


@dataclass(frozen=True)
class CheckResult:
    """Whether a check holds, why, and the evidence.

    ``witness`` names the first (canonical) violating object when the check fails, or the
    data that certify it when it holds; ``violations`` lists every violating object.
    ``bool(result)`` is ``result.holds``.
    """

    holds: bool
    reason: str
    witness: dict[str, Any] | None = None
    violations: tuple[Any, ...] = field(default=())

    def __bool__(self) -> bool:
        return self.holds

    def _repr_html_(self) -> str | None:
        return display.render("check_result", "html", self)
