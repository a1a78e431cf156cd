"""symcal: check the theory of surrogate losses for learning to rank.

The front door: claim constructors, :func:`check`, :class:`Status`, :class:`Verdict`.

The names below are loaded on first use (module ``__getattr__``), each with the other names of its
module, so that ``import symcal.kernel`` -- the independent certificate checker, run as
``python -m symcal.kernel`` -- does not import sympy, z3 or symcal's backends, and a theorem module
importing ``Finding`` or ``implies`` does not import the runner (``symcal show ID`` starts faster).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from symcal import display as _display
from symcal.version import __version__

# every public name and the module it comes from
_FRONT_DOOR = {
    "symcal.claims": ("Citation", "Claim", "Finding", "Local", "NumericOutcome", "all_sizes", "bounded_inequality",
                      "calibrated", "exists", "finite_check", "identity", "implies", "implies_cases", "node_implies",
                      "numeric", "reals", "unique_minimiser"),
    "symcal.errors": ("InvalidClaim", "InvalidInput", "NoBackendAvailable", "SymcalError"),
    "symcal.logic": ("And", "Iff", "Implies", "Not", "Or"),
    "symcal.runner": ("check", "check_many"),
    "symcal.verdicts": ("Status", "Verdict"),
}
# modules imported with a module of the front door: symcal.cluster has no names, it tells the runner how
# to open check_many(cluster="local" or an address)
_WITH = {"symcal.runner": ("symcal.cluster",)}

__all__ = [
    "And", "Citation", "Claim", "Finding", "Iff", "Implies", "InvalidClaim", "InvalidInput",
    "Local", "NoBackendAvailable", "Not", "NumericOutcome", "Or", "Status", "SymcalError",
    "Verdict", "all_sizes", "bounded_inequality", "calibrated", "check", "check_many", "exists", "finite_check",
    "identity", "implies", "implies_cases", "node_implies", "numeric", "reals", "unique_minimiser",
    "__version__",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs: the names as if imported eagerly
    from symcal.claims import (
        Citation,
        Claim,
        Finding,
        Local,
        NumericOutcome,
        all_sizes,
        bounded_inequality,
        calibrated,
        exists,
        finite_check,
        identity,
        implies,
        implies_cases,
        node_implies,
        numeric,
        reals,
        unique_minimiser,
    )
    from symcal.errors import InvalidClaim, InvalidInput, NoBackendAvailable, SymcalError
    from symcal.logic import And, Iff, Implies, Not, Or
    from symcal.runner import check, check_many
    from symcal.verdicts import Status, Verdict


def _load_displays() -> None:
    """The renderers of the notebook displays (:mod:`symcal.display`), imported on the first display."""
    import symcal.report.html  # noqa: F401
    import symcal.report.latex  # noqa: F401


_display.loader = _load_displays


def _load_front_door(module: str) -> None:
    """Import ``module`` of the front door (and those of :data:`_WITH`) and bind its public names here."""
    mod = importlib.import_module(module)
    for other in _WITH.get(module, ()):
        importlib.import_module(other)
    for name in _FRONT_DOOR[module]:
        globals()[name] = getattr(mod, name)


def __getattr__(name: str) -> Any:
    """A public name loads its module of the front door, with the other names of that module; any
    other name is tried as a submodule (``symcal.runner`` after a bare ``import symcal``)."""
    for module, names in _FRONT_DOOR.items():
        if name in names:
            _load_front_door(module)
            return globals()[name]
    if not name.startswith("_"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
