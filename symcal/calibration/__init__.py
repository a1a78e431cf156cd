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
:class:`~symcal.verdicts.SmtResult`); when cvc5 is installed, :func:`check_calibration` has it
re-decide every one of them (:mod:`symcal.crosscheck`, as ``symcal check`` does): a disagreement
turns the verdict into ``unknown`` ("SOLVERS DISAGREE").  ``refuted`` carries a
:class:`CalibrationWitness` re-checked in exact arithmetic without z3.

Inputs are validated before anything is decided (:mod:`symcal.calibration.problem`,
:mod:`symcal.calibration.parse`): every refusal is one :class:`~symcal.errors.InvalidInput` line
naming the parameter, the value and what was expected.  A link given as a Python file is imported
in a child process under the limits of a ``--theorems`` file (CPU time, memory; what it prints
goes to stderr), and only its ``REGIONS``/``NAMES`` data come back.

    >>> from symcal.calibration import check_calibration, surrogates
    >>> v = check_calibration(surrogates.zero_one(3), surrogates.crammer_singer(3), "argmax")
    >>> v.status.value
    'refuted'
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

from symcal.calibration import decider as _decider  # noqa: F401 - registers the calibration claims' decider

# the methods after (A) and (B), in the order they are tried (each registers itself on import): (Q) takes the
# strongly convex quadratics over a domain with inequalities, (S) the other smooth convex surrogates
from symcal.calibration import quadratic_domain as _quadratic_domain  # noqa: F401 - (Q), before (S)
from symcal.calibration import smooth as _smooth  # noqa: F401 - (S)
from symcal.calibration.dimension import cc_dimension
from symcal.calibration.engine import (
    DEFINITION,
    CalibrationWitness,
    Precondition,
    Setup,
    decide,
)
from symcal.calibration.engine import recheck_witness as _recheck
from symcal.calibration.parse import parse_time_limit
from symcal.calibration.problem import Link, Surrogate, invalid, loss_rows, parse_noise, read_problem_file
from symcal.calibration.region import CalibratedRegion
from symcal.limits import TimeLimitReached, run_limited
from symcal.verdicts import CrossCheck, Status, Verdict

__all__ = ["check_calibration", "calibrated_region", "check_file", "setup", "recheck_witness", "regret", "Surrogate",
           "Link", "cc_dimension",
           "CalibrationWitness", "CalibratedRegion", "Precondition", "DEFINITION"]


def _seconds(timeout: Any) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0 or timeout > 86400 \
            or (isinstance(timeout, float) and math.isnan(timeout)):
        raise invalid("timeout", timeout, "a number of seconds > 0 (at most 86400)")
    return float(timeout)


def _cross(cross_check: Any) -> bool:
    """Whether to ask cvc5 for a second opinion: ``None`` means when it is installed."""
    from symcal.backends import cvc5_backend

    if cross_check is None:
        return cvc5_backend.available()
    if not isinstance(cross_check, bool):
        raise invalid("cross_check", cross_check, "True, False or None (when cvc5 is installed)")
    if cross_check and not cvc5_backend.available():
        raise invalid("cross_check", True, "cvc5 installed for a second opinion", "pip install 'symcal[cvc5]'")
    return cross_check


def setup(loss: Any, surrogate: Any, link: Any, *, noise: Any = None, name: str = "",
          base: Path | None = None, timeout: float = 60) -> Setup:
    """Validate the inputs and put them in exact form (raises InvalidInput on bad input).  Reading
    them may take ``timeout`` CPU seconds (a link file is imported in a child under that limit,
    :func:`symcal.library.import_limited`); the names a link gives its predictions (``"names"``,
    a link file's ``NAMES``) name them in the verdict."""
    seconds = _seconds(timeout)
    if not isinstance(name, str):
        raise invalid("name", name, "a string")
    with parse_time_limit(seconds):
        spec = loss_rows(loss)
        sur = Surrogate.parse(surrogate)
        n, k = len(spec.rows), len(spec.rows[0])
        if sur.labels != n:
            raise invalid("surrogate.per_label", f"{sur.labels} expressions",
                          f"one expression per label: the loss has n = {n} rows")
        lk = Link.parse(link, sur.dim, base=base, timeout=seconds)
        rows = spec.rows
        if lk.k != k:
            raise invalid("link", lk.kind if lk.kind != "linear" else f"linear with {lk.k} rows",
                          f"a link with k = {k} predictions (the loss has {k} columns); it has {lk.k}")
        if lk.kind == "sort-desc" and all(isinstance(t, tuple) for t in spec.predictions) \
                and set(spec.predictions) == set(lk.permutations):
            # the loss's predictions are permutations (position vectors): match by value
            col = {t: b for b, t in enumerate(spec.predictions)}
            rows = tuple(tuple(r[col[sigma]] for sigma in lk.permutations) for r in rows)
        if lk.user_names:
            spec = dataclasses.replace(spec, prediction_names=lk.prediction_names)
        return Setup(spec, rows, sur, lk, parse_noise(noise, n), name=name or sur.name)


def check_calibration(loss: Any, surrogate: Any, link: Any, *, noise: Any = None, timeout: float = 60,
                      name: str = "", progress: Any = None, cross_check: bool | None = None) -> Verdict:
    """Decide whether ``surrogate`` with ``link`` is calibrated for ``loss`` over ``P`` (the simplex,
    cut by the ``noise`` relations in ``p1..pn``).  Returns a :class:`~symcal.verdicts.Verdict`:
    ``proved``, ``refuted`` (with an exactly re-checked counterexample distribution) or ``unknown``
    (with the reason: a failed precondition, a solver ``unknown``, or ``gave up after S s``).

    ``loss``: a :class:`~symcal.ranking.loss_matrix.LossMatrix`, a list of rows of exact numbers, or
    ``{"name": "precision", "r": 3, "q": 2}``; ``surrogate``: a :class:`Surrogate` or its dict;
    ``link``: ``"argmax"``, ``"argmin"``, ``"sort-desc"``, ``{"linear": B, "offset": c}``,
    ``{"regions": [[relations in u], ...]}`` (either with ``"names": [...]`` for the predictions)
    or a Python file defining ``REGIONS`` (and ``NAMES``).  ``progress``: called with
    ``"[done/total] pair ..."`` before each query (e.g. a :class:`symcal.progress.ProgressBar`).
    ``cross_check``: have cvc5 re-decide every SMT answer behind a decisive verdict (``None``, the
    default: when cvc5 is installed); a disagreement makes it ``unknown``."""
    seconds = _seconds(timeout)
    cross = _cross(cross_check)
    _progress(progress)
    s = setup(loss, surrogate, link, noise=noise, name=name, timeout=seconds)
    return _decide(s, seconds, cross, progress)


def _progress(progress: Any) -> None:
    if progress is not None and not callable(progress):
        raise invalid("progress", progress, "None or a callable taking one line of text (e.g. a ProgressBar)")


def _decide(s: Setup, seconds: float, cross: bool, progress: Any = None) -> Verdict:
    s.progress = progress
    try:
        v = run_limited(decide, s, seconds, timeout=seconds, what="the calibration check")
    except TimeLimitReached as e:
        return Verdict(f"calibration:{s.name}" if s.name else "calibration", Status.UNKNOWN,
                       f"calibration of the surrogate over {s.p_text()}", "z3+exact", seconds,
                       None, f"gave up after {e.seconds:g} s")
    finally:
        s.progress = None
    return _second_opinion(v, seconds) if cross else v


def _second_opinion(v: Verdict, seconds: float) -> Verdict:
    """``v`` with cvc5's opinion on each of its SMT answers (:func:`symcal.crosscheck.second_opinion`,
    in a child of its own limited to ``min(seconds, 30)``, as ``symcal check`` does): a disagreement
    turns it into ``unknown``; a cvc5 without an answer leaves it standing, unconfirmed."""
    from symcal.backends.base import Outcome
    from symcal.crosscheck import second_opinion, smt_parts

    if not v.status.decisive or not smt_parts(v.evidence):
        return v
    budget = min(seconds, 30.0)
    out = Outcome(v.status, v.scope, v.backend, v.evidence, v.reason, v.cross_check, v.warnings)
    try:
        out = run_limited(second_opinion, out, budget, timeout=budget, what="cvc5's second opinion")
    except TimeLimitReached as e:
        return dataclasses.replace(v, cross_check=CrossCheck("cvc5", len(smt_parts(v.evidence)), unknown=(
            f"no answer within {e.seconds:g} s",)))
    except Exception as e:  # noqa: BLE001 - the second opinion failed: the decision stands, unconfirmed
        return dataclasses.replace(v, cross_check=CrossCheck("cvc5", unknown=(f"cvc5 failed: {e}",)))
    return dataclasses.replace(v, status=out.status, evidence=out.evidence, reason=out.reason,
                               cross_check=out.cross_check)


def calibrated_region(loss: Any, surrogate: Any, link: Any, *, noise: Any = None, timeout: float = 60,
                      name: str = "") -> CalibratedRegion:
    """The largest subset of P (the simplex, or the ``noise`` subset) on which ``surrogate`` with
    ``link`` is calibrated for ``loss``, exactly: the pieces where it fails, each with an exact
    counterexample, and calibration over the rest proved (:mod:`symcal.calibration.region`).
    ``proved`` when both inclusions are shown, else ``unknown`` with the reason."""
    from symcal.calibration.region import region

    seconds = _seconds(timeout)
    s = setup(loss, surrogate, link, noise=noise, name=name, timeout=seconds)
    try:
        return run_limited(region, s, seconds, timeout=seconds, what="the calibration region")
    except TimeLimitReached as e:
        return CalibratedRegion(s.name, Status.UNKNOWN, s.p_text(), (), None, None, seconds,
                                f"gave up after {e.seconds:g} s")


def check_file(path: str | Path, *, timeout: float = 60, progress: Any = None,
               cross_check: bool | None = None) -> tuple[Setup, Verdict]:
    """Read a JSON calibration file and decide it (the inputs are read once)."""
    seconds = _seconds(timeout)
    cross = _cross(cross_check)
    _progress(progress)
    kw = read_problem_file(path)
    if kw.get("parameters"):
        raise invalid("path", str(path), "a file without \"parameters\" for check_file",
                      "decide it with symcal.calibration.parameters.decide_parameters or `symcal calibration FILE`")
    s = setup(kw["loss"], kw["surrogate"], kw["link"], noise=kw["noise"], name=kw["name"], timeout=seconds)
    return s, _decide(s, seconds, cross, progress)


def regret(loss: Any, surrogate: Any, link: Any, *, noise: Any = None, timeout: float = 60,
           cross_check: bool | None = None) -> Any:
    """How much regret the surrogate transfers (:func:`symcal.calibration.transfer.bound`): for a
    binary margin loss its psi-transform (Bartlett, Jordan & McAuliffe 2006), else, when method (A)
    or (B) proves the problem calibrated, ``excess target <= constant * excess surrogate ** exponent``
    (exponent 1/2 for (A), 1 for (B), Frongillo & Waggoner 2021) with its calibration function;
    every step checked exactly, ``unknown`` with the reason otherwise.  Runs in a child limited to
    ``timeout`` CPU seconds; ``cross_check`` (None: when cvc5 is installed) has cvc5 re-decide the
    SMT answers behind the bound."""
    from symcal.calibration.transfer import Regret, bound

    seconds = _seconds(timeout)
    cross = _cross(cross_check)
    s = setup(loss, surrogate, link, noise=noise, timeout=seconds)
    try:
        return run_limited(bound, s, None, seconds, cross, timeout=seconds, what="the regret bound")
    except TimeLimitReached as e:
        return Regret(Status.UNKNOWN, reason=f"gave up after {e.seconds:g} s")


def recheck_witness(loss: Any, surrogate: Any, link: Any, witness: CalibrationWitness, *,
                    noise: Any = None) -> tuple[bool, str]:
    """Re-check a refutation's witness from its own values, in exact arithmetic (no solver)."""
    if not isinstance(witness, CalibrationWitness):
        raise invalid("witness", witness, "a CalibrationWitness (the witness of a refuted calibration verdict)")
    return _recheck(setup(loss, surrogate, link, noise=noise), witness)
