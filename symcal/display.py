"""Notebook displays: how the objects of the low layers show themselves in Jupyter.

A :class:`~symcal.verdicts.Verdict`, a :class:`~symcal.claims.core.Claim` or a loss matrix has
``_repr_html_`` / ``_repr_latex_`` methods, but the renderers live in :mod:`symcal.report`, a layer
above them.  So the objects ask this registry, and :mod:`symcal.report.html` and
:mod:`symcal.report.latex` register their renderers when they are imported.  The package's
``__init__`` (the top layer, which runs before any symcal module) sets :data:`loader` to a
function that imports them, so the first display loads them; without a renderer :func:`render`
answers ``None``, which Jupyter reads as "no such display": the object shows its plain ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register", "render"]

_RENDERERS: dict[tuple[str, str], Callable[[Any], str | None]] = {}

# imports the renderers on the first display; set by symcal/__init__.py (the layer above report/)
loader: Callable[[], None] | None = None


def register(kind: str, fmt: str, renderer: Callable[[Any], str | None]) -> None:
    """Show objects of ``kind`` (``"verdict"``, ``"claim"``, ``"loss_matrix"``, ...) in ``fmt``
    (``"html"`` or ``"latex"``) with ``renderer``; a later registration replaces an earlier one."""
    _RENDERERS[(kind, fmt)] = renderer


def render(kind: str, fmt: str, obj: Any) -> str | None:
    """``obj`` rendered in ``fmt`` by the registered renderer, or None when there is none."""
    global loader
    if (kind, fmt) not in _RENDERERS and loader is not None:
        load, loader = loader, None
        load()
    renderer = _RENDERERS.get((kind, fmt))
    return None if renderer is None else renderer(obj)
