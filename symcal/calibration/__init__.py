"""Is a surrogate with a link calibrated for a target loss, over the whole simplex or a subset P?

Definition
----------
Labels ``y = 1..n``, predictions ``t = 1..k``, an exact loss matrix ``L`` (n x k), a surrogate
``psi(y, u)`` for ``u`` in a domain ``C ⊆ R^d`` and a link ``pred : C -> {1..k}``.  For ``p`` in the
simplex ``Δ_n``, ``risk_p(u) = Σ_y p_y psi(y, u)``.  ``psi`` is **L-calibrated over P ⊆ Δ_n**
(Tewari & Bartlett 2007; Ramaswamy, Agarwal & Tewari 2013, Definition 1) iff for every ``p ∈ P``::

    inf{ risk_p(u) : u ∈ C, pred(u) ∉ argmin_t <p, L[:, t]> }  >  inf{ risk_p(u) : u ∈ C }.

How it is decided
-----------------
The link is described by its closed cells ``cell_t = closure{u : pred(u) = t}`` (polyhedral for the
built-in links ``argmax``, ``argmin``, ``{"linear": B, "offset": c}``, ``sort-desc``; a user's
case split gives them directly).  Since ``{pred = t} ⊆ cell_t``, a proof over the cells covers every
tie-breaking rule; a refutation exhibits a sequence in the strict interior of a cell, where ``pred``
is determined.

* (A) quadratic surrogates with a shared, positive-definite quadratic part on an affine domain:
  the minimiser is affine in p; one z3 LRA query per pair of predictions.
* (B) polyhedral convex surrogates (nonnegative combinations of ``Max`` of affine pieces, ``Abs``,
  ``-Min``, plus affine), each bounded below on ``C``: optimality by exact linearised KKT
  conditions; one z3 query per pair.
* (C) anything else: ``unknown`` with the failed precondition.

``proved`` carries every query's SMT-LIB2 text (a :class:`~symcal.verdicts.Composite` of
:class:`~symcal.verdicts.SmtResult`, re-decidable by cvc5 through :mod:`symcal.crosscheck`);
``refuted`` carries a :class:`CalibrationWitness` re-checked in exact arithmetic without z3.

    >>> from symcal.calibration import check_calibration, surrogates
    >>> v = check_calibration(surrogates.zero_one(3), surrogates.crammer_singer(3), "argmax")
    >>> v.status.value
    'refuted'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from symcal.calibration.engine import (
    DEFINITION,
    CalibrationWitness,
    Precondition,
    Setup,
    decide,
)
from symcal.calibration.engine import recheck_witness as _recheck
from symcal.calibration.problem import Link, Surrogate, loss_rows, parse_noise, read_problem_file
from symcal.calibration.region import CalibratedRegion
from symcal.errors import invalid
from symcal.limits import TimeLimitReached, run_limited
from symcal.verdicts import Status, Verdict

__all__ = ["check_calibration", "calibrated_region", "check_file", "setup", "recheck_witness", "Surrogate", "Link",
           "CalibrationWitness", "CalibratedRegion", "Precondition", "DEFINITION"]


def setup(loss: Any, surrogate: Any, link: Any, *, noise: Any = None, name: str = "",
          base: Path | None = None) -> Setup:
    """Validate the inputs and put them in exact form (raises InvalidInput on bad input)."""
    spec = loss_rows(loss)
    sur = Surrogate.parse(surrogate)
    n, k = len(spec.rows), len(spec.rows[0])
    if sur.labels != n:
        raise invalid("surrogate.per_label", f"{sur.labels} expressions",
                      f"one expression per label: the loss has n = {n} rows")
    lk = Link.parse(link, sur.dim, base=base)
    rows = spec.rows
    if lk.k != k:
        raise invalid("link", lk.kind if lk.kind != "linear" else f"linear with {lk.k} rows",
                      f"a link with k = {k} predictions (the loss has {k} columns); it has {lk.k}")
    if lk.kind == "sort-desc" and all(isinstance(t, tuple) for t in spec.predictions) \
            and set(spec.predictions) == set(lk.permutations):
        # the loss's predictions are permutations (position vectors): match by value
        col = {t: b for b, t in enumerate(spec.predictions)}
        rows = tuple(tuple(r[col[sigma]] for sigma in lk.permutations) for r in rows)
    return Setup(spec, rows, sur, lk, parse_noise(noise, n), name=name or sur.name)


def check_calibration(loss: Any, surrogate: Any, link: Any, *, noise: Any = None, timeout: float = 60,
                      name: str = "", progress: Any = None) -> Verdict:
    """Decide whether ``surrogate`` with ``link`` is calibrated for ``loss`` over ``P`` (the simplex,
    cut by the ``noise`` relations in ``p1..pn``).  Returns a :class:`~symcal.verdicts.Verdict`:
    ``proved``, ``refuted`` (with an exactly re-checked counterexample distribution) or ``unknown``
    (with the reason: a failed precondition, a solver ``unknown``, or ``gave up after S s``).

    ``loss``: a :class:`~symcal.ranking.loss_matrix.LossMatrix`, a list of rows of exact numbers, or
    ``{"name": "precision", "r": 3, "q": 2}``; ``surrogate``: a :class:`Surrogate` or its dict;
    ``link``: ``"argmax"``, ``"argmin"``, ``"sort-desc"``, ``{"linear": B, "offset": c}``,
    ``{"regions": [[relations in u], ...]}`` or a Python file defining ``REGIONS``.  ``progress``:
    called with ``"[done/total] pair ..."`` before each query (e.g. a
    :class:`symcal.progress.ProgressBar`)."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0 or timeout > 86400:
        raise invalid("timeout", timeout, "a number of seconds > 0 (at most 86400)")
    s = setup(loss, surrogate, link, noise=noise, name=name)
    s.progress = progress
    try:
        return run_limited(decide, s, float(timeout), timeout=float(timeout), what="the calibration check")
    except TimeLimitReached as e:
        return Verdict(f"calibration:{s.name}" if s.name else "calibration", Status.UNKNOWN,
                       f"calibration of the surrogate over {s.p_text()}", "z3+exact", float(timeout),
                       None, f"gave up after {e.seconds:g} s")


def calibrated_region(loss: Any, surrogate: Any, link: Any, *, noise: Any = None, timeout: float = 60,
                      name: str = "") -> CalibratedRegion:
    """The largest subset of P (the simplex, or the ``noise`` subset) on which ``surrogate`` with
    ``link`` is calibrated for ``loss``, exactly: the pieces where it fails, each with an exact
    counterexample, and calibration over the rest proved (:mod:`symcal.calibration.region`).
    ``proved`` when both inclusions are shown, else ``unknown`` with the reason."""
    from symcal.calibration.region import region

    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0 or timeout > 86400:
        raise invalid("timeout", timeout, "a number of seconds > 0 (at most 86400)")
    s = setup(loss, surrogate, link, noise=noise, name=name)
    try:
        return run_limited(region, s, float(timeout), timeout=float(timeout), what="the calibration region")
    except TimeLimitReached as e:
        return CalibratedRegion(s.name, Status.UNKNOWN, s.p_text(), (), None, None, float(timeout),
                                f"gave up after {e.seconds:g} s")


def check_file(path: str | Path, *, timeout: float = 60, progress: Any = None) -> tuple[Setup, Verdict]:
    """Read a JSON calibration file and decide it."""
    kw = read_problem_file(path)
    name = kw.pop("name")
    v = check_calibration(kw["loss"], kw["surrogate"], kw["link"], noise=kw["noise"], timeout=timeout, name=name,
                          progress=progress)
    return setup(kw["loss"], kw["surrogate"], kw["link"], noise=kw["noise"], name=name), v


def recheck_witness(loss: Any, surrogate: Any, link: Any, witness: CalibrationWitness, *,
                    noise: Any = None) -> tuple[bool, str]:
    """Re-check a refutation's witness from its own values, in exact arithmetic (no solver)."""
    return _recheck(setup(loss, surrogate, link, noise=noise), witness)
