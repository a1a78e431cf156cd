"""Notebook displays: how the objects of the low layers show themselves in Jupyter.

A :class:`~symcal.verdicts.Verdict`, a :class:`~symcal.claims.core.Claim` or a loss matrix has
``_repr_html_`` / ``_repr_latex_`` methods, but the renderers live in :mod:`symcal.report`, a layer
above them.  So the objects ask this registry, and :mod:`symcal.report.html` and
:mod:`symcal.report.latex` register their renderers when they are imported (the front door,
``from symcal import ...``, imports both).  Until then :func:`render` answers ``None``, which
Jupyter reads as "no such display": the object shows its plain ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register", "render"]

_RENDERERS: dict[tuple[str, str], Callable[[Any], str | None]] = {}


def register(kind: str, fmt: str, renderer: Callable[[Any], str | None]) -> None:
    """Show objects of ``kind`` (``"verdict"``, ``"claim"``, ``"loss_matrix"``, ...) in ``fmt``
    (``"html"`` or ``"latex"``) with ``renderer``; a later registration replaces an earlier one."""
    _RENDERERS[(kind, fmt)] = renderer


def render(kind: str, fmt: str, obj: Any) -> str | None:
    """``obj`` rendered in ``fmt`` by the registered renderer, or None when there is none."""
    renderer = _RENDERERS.get((kind, fmt))
    return None if renderer is None else renderer(obj)
