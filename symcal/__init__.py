"""symcal: check the theory of surrogate losses for learning to rank.

The front door: claim constructors, :func:`check`, :class:`Status`, :class:`Verdict`.
"""

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
)
from symcal.errors import InvalidClaim, InvalidInput, NoBackendAvailable, SymcalError
from symcal.logic import And, Iff, Implies, Not, Or
from symcal.runner import check, check_many
from symcal.verdicts import Status, Verdict

__version__ = "0.1.0"

__all__ = [
    "And", "Citation", "Claim", "Finding", "Iff", "Implies", "InvalidClaim", "InvalidInput",
    "Local", "NoBackendAvailable", "Not", "NumericOutcome", "Or", "Status", "SymcalError",
    "Verdict", "all_sizes", "bounded_inequality", "calibrated", "check", "check_many", "exists", "finite_check",
    "identity", "implies", "implies_cases", "node_implies", "numeric", "reals", "__version__",
]
