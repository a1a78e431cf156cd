"""Exact arithmetic, in one place.

* :mod:`symcal.exact.numbers` -- user values become Fractions (floats refused with the fix),
  exact numbers printed (``fraction_str``, ``expr_str``).
* :mod:`symcal.exact.zero` -- THE sign / zero test of the code base: :func:`sign` answers
  -1, 0, +1 or undecided, 0 only for a formal zero, +-1 only by exact evaluation or a
  rigorous interval enclosure.
* :mod:`symcal.exact.intervals` -- rigorous enclosures of closed expressions (mpmath ``iv``,
  outward rounding), used by :func:`sign`.
"""

from symcal.exact.numbers import expr_str, fraction_str, to_fraction, to_sympy_rational
from symcal.exact.zero import CpuBudget, Sign, ZeroTest, check_size, normal_form, sign, truth, zero_test

__all__ = [
    "to_fraction",
    "fraction_str",
    "to_sympy_rational",
    "expr_str",
    "Sign",
    "sign",
    "truth",
    "zero_test",
    "ZeroTest",
    "normal_form",
    "check_size",
    "CpuBudget",
]
