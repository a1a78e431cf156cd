"""What symcal established about a claim: a status, its scope, and evidence.

The status vocabulary is closed (ARCHITECTURE.md, *Interface contract*).  A decisive status
(``proved``, ``refuted``, ``witnessed``, ``confirmed-numerically``) cannot be built without
evidence of the matching kind: :class:`Verdict` refuses it (ARCHITECTURE.md, convention 6).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcal import display
from symcal.errors import BackendFailure, invalid, shown

__all__ = [
    "Status",
    "Evidence",
    "Witness",
    "SmtResult",
    "Residual",
    "Exhaustive",
    "Sampled",
    "NumericEvidence",
    "Composite",
    "CrossCheck",
    "IntervalProof",
    "Verdict",
    "Verdicts",
    "SizeResult",
]


class _StatusType(enum.EnumMeta):
    """``Status(value)`` of anything but a status or its text is a one-line :class:`~symcal.errors.InvalidInput`
    before enum formats the value (its ``%r`` of a 3,000-deep list or a 100,000-digit int raises)."""

    def __call__(cls, value: Any, *args: Any, **kw: Any) -> Any:
        if not args and not kw and not isinstance(value, str | enum.Enum):
            raise invalid("status", value, f"one of {', '.join(s.value for s in cls)}")  # type: ignore[attr-defined]
        return super().__call__(value, *args, **kw)


class Status(enum.Enum, metaclass=_StatusType):
    PROVED = "proved"
    REFUTED = "refuted"
    WITNESSED = "witnessed"
    CONFIRMED_ON_SAMPLES = "confirmed-on-samples"  # an exact check on sampled instances: never a proof
    CONFIRMED_NUMERICALLY = "confirmed-numerically"
    UNKNOWN = "unknown"
    ERROR = "error"

    @classmethod
    def parse(cls, text: str | Status) -> Status:
        if isinstance(text, Status):
            return text
        for s in cls:
            if s.value == text:
                return s
        words = ", ".join(s.value for s in cls)
        raise invalid("status", text, f"one of {words}")

    @classmethod
    def _missing_(cls, value: object) -> Status:
        """``Status("bogus")``: a one-line :class:`~symcal.errors.InvalidInput` (a ValueError)."""
        raise invalid("status", value, f"one of {', '.join(s.value for s in cls)}")

    @property
    def decisive(self) -> bool:
        return self not in (Status.UNKNOWN, Status.ERROR)

    def __str__(self) -> str:
        return self.value


def _jsonable(x: Any) -> Any:
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonable(v) for v in x]
    if isinstance(x, bool | int | str | float) or x is None:
        return x
    return str(x)


class Evidence:
    """Something a sceptic can re-check without trusting symcal's code paths."""

    kind: str = "evidence"

    def to_json(self) -> dict[str, Any]:
        data = {k: _jsonable(v) for k, v in self.__dict__.items()}
        return {"kind": self.kind, **data}

    def summary(self) -> str:  # pragma: no cover - overridden
        return self.kind


@dataclass(frozen=True)
class Witness(Evidence):
    """Exact values at which a statement fails (``refuted``) or holds (``witnessed``).

    ``rechecked`` is True only when the values were substituted into the claim's own
    expressions in exact arithmetic, independently of the solver that found them, and the
    outcome was confirmed.  ``detail`` says what the re-check found (which hypothesis
    holds, which conclusion part fails, with exact values).
    """

    values: dict[str, Any]
    rechecked: bool
    detail: str = ""
    size: int | None = None
    found_by: str = ""
    query: SmtResult | None = None  # the satisfiable SMT query the solver's model came from
    kind = "witness"

    def to_json(self) -> dict[str, Any]:
        data = {k: _jsonable(v) for k, v in self.__dict__.items() if k != "query"}
        data["query"] = self.query.to_json() if self.query is not None else None
        return {"kind": self.kind, **data}

    def summary(self) -> str:
        shown = ", ".join(f"{k}={_jsonable(v)}" for k, v in list(self.values.items())[:8])
        if len(self.values) > 8:
            shown += f", ... ({len(self.values)} values)"
        at = f"m={self.size}: " if self.size is not None else ""
        return f"{at}{shown}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class SmtResult(Evidence):
    """The SMT-LIB2 text of the negated query and what the solver answered."""

    solver: str
    version: str
    answer: str
    smtlib: str
    note: str = ""
    cross_check: str = ""
    kind = "smt"

    def summary(self) -> str:
        cc = f"; {self.cross_check}" if self.cross_check else ""
        note = f"; {self.note}" if self.note else ""
        return f"{self.solver} {self.version}: negated query {self.answer}{note}{cc}"


@dataclass(frozen=True)
class Residual(Evidence):
    """lhs - rhs simplified to ``residual`` (``"0"`` for a proved identity)."""

    residual: str
    method: str
    kind = "residual"

    def summary(self) -> str:
        return f"lhs - rhs -> {self.residual} by {self.method}"


@dataclass(frozen=True)
class Exhaustive(Evidence):
    """Every case of a finite domain was evaluated in exact arithmetic."""

    domain: str
    cases: int
    kind = "exhaustive"

    def __post_init__(self) -> None:
        if self.cases <= 0:
            raise BackendFailure(f"exhaustive check over {self.domain} saw {self.cases} cases")

    def summary(self) -> str:
        return f"{self.cases} cases of {self.domain}, exact"


@dataclass(frozen=True)
class Sampled(Evidence):
    """Every sampled instance was evaluated in exact arithmetic and held.

    The instances are a sample (seeded draws, or a grid) of the statement's domain, not the
    whole of it: this supports ``confirmed-on-samples``, never ``proved`` (issue 11)."""

    domain: str
    cases: int
    sample: str
    kind = "sampled"

    def __post_init__(self) -> None:
        if self.cases <= 0:
            raise BackendFailure(f"sampled check over {self.domain} saw {self.cases} cases")

    def summary(self) -> str:
        return f"{self.cases} sampled cases ({self.sample}) of {self.domain}, each exact; not a proof"


@dataclass(frozen=True)
class NumericEvidence(Evidence):
    """Numeric optimiser output: never a proof, always labelled numeric."""

    method: str
    values: dict[str, Any]
    tolerance: float
    margin: float
    kind = "numeric"

    def summary(self) -> str:
        return f"numeric ({self.method}): margin {self.margin:.3g} vs tolerance {self.tolerance:.1g}"


@dataclass(frozen=True)
class Composite(Evidence):
    """Several pieces of evidence, each with a label (cases, sizes, local lemmas)."""

    parts: tuple[tuple[str, Evidence], ...]
    note: str = ""
    kind = "composite"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "note": self.note,
            "parts": [{"label": label, **ev.to_json()} for label, ev in self.parts],
        }

    def summary(self) -> str:
        return self.note or f"{len(self.parts)} parts"


@dataclass(frozen=True)
class IntervalProof(Evidence):
    """Rigorous interval branch-and-bound (mpmath ``iv``, outward rounding): every sub-box's
    enclosure of lhs - rhs satisfies the relation (or the box was reduced to a face by a
    derivative of constant sign, or to an exact point).  Never built from samples."""

    boxes: int
    max_depth: int
    worst_bound: str
    precision_bits: int
    relation: str
    box: dict[str, Any]
    face_reductions: int = 0
    exact_points: int = 0
    method: str = ""
    seconds: float = 0.0
    kind = "interval"

    def summary(self) -> str:
        return (f"interval b&b: {self.boxes} boxes, depth {self.max_depth}, worst bound {self.worst_bound}, "
                f"{self.face_reductions} face reductions, {self.precision_bits}-bit mpmath iv")


_ALLOWED: dict[Status, tuple[type, ...]] = {
    Status.PROVED: (SmtResult, Residual, Exhaustive, Composite, IntervalProof),
    # a universal claim is refuted by a witness; an existence claim by a proof that none exists
    Status.REFUTED: (Witness, SmtResult, Exhaustive),
    Status.WITNESSED: (Witness,),
    Status.CONFIRMED_ON_SAMPLES: (Sampled, Composite),
    Status.CONFIRMED_NUMERICALLY: (NumericEvidence, Composite),
}

# Evidence that may never stand behind ``proved``, not even as a part of a Composite.
_NOT_A_PROOF: tuple[type, ...] = (Sampled, NumericEvidence)


def _parts(ev: Evidence) -> list[Evidence]:
    if isinstance(ev, Composite):
        return [x for _, part in ev.parts for x in _parts(part)]
    return [ev]


@dataclass(frozen=True)
class CrossCheck:
    """The second opinion on a verdict's SMT answers: how many cvc5 re-decided from the same
    SMT-LIB2 text, how many it confirmed, where it had no answer and where it disagreed."""

    solver: str
    answers: int = 0
    agreed: int = 0
    unknown: tuple[str, ...] = ()
    disagreements: tuple[str, ...] = ()
    skipped: str = ""  # why no second opinion was asked (e.g. cvc5 not installed)

    @property
    def confirmed(self) -> bool:
        """Every SMT answer of the verdict was re-decided and confirmed."""
        return self.answers > 0 and self.agreed == self.answers

    def __add__(self, other: CrossCheck) -> CrossCheck:
        return CrossCheck(self.solver or other.solver, self.answers + other.answers, self.agreed + other.agreed,
                          self.unknown + other.unknown, self.disagreements + other.disagreements,
                          self.skipped or other.skipped)

    def summary(self) -> str:
        if self.skipped:
            return f"no second opinion: {self.skipped}"
        text = f"{self.solver}: {self.agreed} of {self.answers} SMT answers confirmed"
        if self.unknown:
            text += f", {len(self.unknown)} without an answer ({self.unknown[0]})"
        if self.disagreements:
            text += f"; SOLVERS DISAGREE: {'; '.join(self.disagreements)}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"solver": self.solver, "answers": self.answers, "agreed": self.agreed,
                "unknown": list(self.unknown), "disagreements": list(self.disagreements),
                "skipped": self.skipped or None}


@dataclass(frozen=True)
class SizeResult:
    """One size of a sweep: its status, scope, seconds and evidence."""

    size: int
    status: Status
    seconds: float
    scope: str
    reason: str = ""
    evidence: Evidence | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "status": self.status.value,
            "seconds": round(self.seconds, 4),
            "scope": self.scope,
            "reason": self.reason,
            "evidence": self.evidence.to_json() if self.evidence else None,
        }


@dataclass(frozen=True)
class Verdict:
    """What symcal established about one claim.

    A decisive status needs evidence of the matching kind; a refutation or witness needs a
    :class:`Witness` whose exact re-check succeeded.  ``reason`` explains ``unknown`` and
    ``error``.
    """

    claim_id: str
    status: Status
    scope: str
    backend: str
    seconds: float
    evidence: Evidence | None = None
    reason: str = ""
    sizes: tuple[SizeResult, ...] = field(default=())
    cross_check: CrossCheck | None = None  # cvc5's second opinion on the SMT answers, if asked
    warnings: tuple[str, ...] = ()  # e.g. a vacuous implication: its hypotheses cannot all hold
    certificate: Any = None  # symcal.certify.CertificateCheck: the kernel's check, with --certify

    @property
    def vacuous(self) -> bool:
        return any(w.startswith("vacuous") for w in self.warnings)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):
            raise BackendFailure(f"status={shown(self.status)}: expected a Status")
        allowed = _ALLOWED.get(self.status)
        if allowed is None:
            return
        if self.evidence is None:
            raise BackendFailure(
                f"{self.claim_id}: a '{self.status.value}' verdict needs evidence; "
                f"a backend gave none"
            )
        if not isinstance(self.evidence, allowed):
            raise BackendFailure(
                f"{self.claim_id}: '{self.status.value}' cannot rest on "
                f"{type(self.evidence).__name__} evidence"
            )
        if self.status in (Status.PROVED, Status.WITNESSED):
            weak = [type(e).__name__ for e in _parts(self.evidence) if isinstance(e, _NOT_A_PROOF)]
            if weak:
                raise BackendFailure(
                    f"{self.claim_id}: '{self.status.value}' cannot rest on {weak[0]} evidence "
                    f"(a sample or a numeric result is never a proof)"
                )
        if self.status is Status.CONFIRMED_ON_SAMPLES and not any(
                isinstance(e, Sampled) for e in _parts(self.evidence)):
            raise BackendFailure(f"{self.claim_id}: 'confirmed-on-samples' needs Sampled evidence")
        if isinstance(self.evidence, Witness) and not self.evidence.rechecked:
            raise BackendFailure(
                f"{self.claim_id}: a witness that was not re-checked exactly cannot "
                f"support '{self.status.value}'"
            )

    @property
    def witness(self) -> Witness | None:
        return self.evidence if isinstance(self.evidence, Witness) else None

    def with_time(self, seconds: float) -> Verdict:
        return Verdict(
            self.claim_id, self.status, self.scope, self.backend, seconds,
            self.evidence, self.reason, self.sizes, self.cross_check, self.warnings, self.certificate,
        )

    def _repr_html_(self) -> str | None:
        return display.render("verdict", "html", self)

    def __getstate__(self) -> dict[str, Any]:
        # the claim a notebook shows beside the verdict (set by Verdicts) is not part of it
        state = dict(self.__dict__)
        state.pop("_claim", None)
        return state


class Verdicts(list):  # type: ignore[type-arg]
    """The verdicts of :func:`symcal.check_many`, in the order of its claims: a plain list (so
    existing code keeps working) that remembers the claims and shows itself as a table in a
    notebook."""

    def __init__(self, verdicts: Any = (), claims: Any = None) -> None:
        super().__init__(verdicts)
        self.claims = list(claims) if claims is not None else None
        if self.claims is not None and len(self.claims) == len(self):
            for c, v in zip(self.claims, self, strict=True):
                if isinstance(v, Verdict) and getattr(c, "id", None) == v.claim_id:
                    object.__setattr__(v, "_claim", c)  # shown beside the verdict; never compared or pickled

    def __reduce__(self) -> Any:
        return (Verdicts, (list(self),))  # the claims hold functions; a pickled list keeps the verdicts

    def _repr_html_(self) -> str | None:
        return display.render("verdicts", "html", self)
