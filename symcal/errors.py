"""Errors symcal raises on purpose.

Every error names the parameter, the value it got and what was expected, so that the
command line can print it as one line and exit with code 2 (ARCHITECTURE.md, rule 6).
"""

from __future__ import annotations

import re
from typing import Any


class SymcalError(Exception):
    """Base class of every error symcal raises on purpose."""


class InvalidInput(SymcalError, ValueError):
    """A value given to symcal is not what the parameter accepts.

    Build it with :func:`invalid` so the message always has the same three parts.
    """

    def __init__(self, message: str, *, param: str | None = None, value: Any = None) -> None:
        super().__init__(message)
        self.param = param
        self.value = value


class InvalidClaim(SymcalError, ValueError):
    """A claim is malformed (bad id, missing citation, unknown hypothesis name, ...)."""


class NoBackendAvailable(SymcalError):
    """No installed backend can decide this claim (e.g. exp/log under z3)."""


class BackendFailure(SymcalError):
    """A backend crashed or answered something it should not have."""


def invalid(param: str, value: Any, expected: str, fix: str | None = None) -> InvalidInput:
    """Return an :class:`InvalidInput` whose message reads
    ``param=value is ...; expected ...`` (and the nearby fix, when there is one)."""
    msg = f"{param}={shown(value)}: expected {expected}"
    if fix:
        msg += f"; {fix}"
    return InvalidInput(msg, param=param, value=value)


class InvalidType(InvalidInput, TypeError):
    """A value of the wrong type given to symcal: an :class:`InvalidInput` that is also a
    ``TypeError`` (what Python itself raises there), so that either ``except`` catches it."""


def wrong_type(param: str, value: Any, expected: str, fix: str | None = None) -> InvalidType:
    """:func:`invalid` for a value of the wrong type: the same one-line message, as an :class:`InvalidType`."""
    e = invalid(param, value, expected, fix)
    return InvalidType(str(e), param=param, value=value)


def shown(value: Any, width: int = 120) -> str:
    """``repr(value)`` for a one-line message: at most ``width`` characters, and a placeholder for a
    value whose repr fails (an int beyond Python's int-to-str digit limit)."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - e.g. ValueError for a 100,000-digit int
        text = f"<{type(value).__name__} too large to show>"
    text = _one_line(text)  # a numpy array's repr runs over several lines
    return text if len(text) <= width else text[: width - 3] + "..."


def _one_line(text: str) -> str:
    """``text`` with each line break (and the indentation around it) made one space: a message stays
    one line whatever a value's ``repr`` looks like."""
    return re.sub(r"\s*[\r\n]+\s*", " ", text) if ("\n" in text or "\r" in text) else text


class DuplicateKey(InvalidInput):
    """A JSON object of a user's file gives a key twice (:func:`unique_keys`)."""


def unique_keys(param: str, value: Any) -> Any:
    """A ``json.loads`` ``object_pairs_hook`` for user files: a key given twice in one object is refused
    (JSON keeps the last silently, so ``{"m": 3, "m": 4}`` would be read as m = 4 without a word)."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                e = invalid(param, value, "JSON objects with each key once", f"the key {shown(k, 60)} appears twice")
                raise DuplicateKey(str(e), param=param, value=value)
            out[k] = v
        return out

    return hook

