"""Claims and their constructors."""

from symcal.claims.constructors import (
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
from symcal.claims.core import FINDING_CLASSES, Citation, Claim, Finding, Local, NumericOutcome, Sizes

__all__ = [
    "calibrated",
    "Citation",
    "Claim",
    "Finding",
    "FINDING_CLASSES",
    "Local",
    "NumericOutcome",
    "Sizes",
    "all_sizes",
    "bounded_inequality",
    "exists",
    "finite_check",
    "identity",
    "implies",
    "implies_cases",
    "node_implies",
    "numeric",
    "reals",
    "unique_minimiser",
]
