"""Claims: immutable statements with a stable id, a citation and an expected outcome.

A claim is plain data built by the constructor functions in
:mod:`symcal.claims.constructors`; what kind of mathematics it is (``kind``) picks the
backend.  Free variables are universally quantified; hypotheses are named so that each can
be dropped in turn (``symcal necessity``).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import re
from fractions import Fraction
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from symcal import display
from symcal.errors import InvalidClaim, invalid, shown, wrong_type
from symcal.verdicts import Status

__all__ = [
    "Citation",
    "Described",
    "described",
    "Finding",
    "FINDING_CLASSES",
    "finding_class_counts",
    "Claim",
    "Sizes",
    "Local",
    "IdentitySpec",
    "ImpliesSpec",
    "ExistsSpec",
    "NodeSpec",
    "FiniteSpec",
    "CasesSpec",
    "validate_cases",
    "case_hypothesis_names",
    "NumericSpec",
    "NumericOutcome",
    "BoxSpec",
    "validate_box",
    "ID_PATTERN",
    "MAX_CASES",
    "finite_items",
]

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*\d{4}(\.[A-Za-z0-9_]+)+$")

MAX_ID = 200  # characters of a claim id (it names SMT-LIB and certificate files)
MAX_CASES = 1_000_000  # the cases of a finite_check / implies_cases given as a fixed iterable


def finite_items(cases: Any, param: str, claim_id: str, limit: int) -> list[Any]:
    """A finite iterable's items as a list, at most ``limit`` of them: an endless iterator
    (``itertools.count()``) or a huge range is refused instead of never returning."""
    if isinstance(cases, str | bytes | Mapping) or not isinstance(cases, Iterable):
        raise wrong_type(param, cases, f"a list of cases (or a function of the size m returning them) for {claim_id}")
    try:
        n = len(cases)  # type: ignore[arg-type]
    except (TypeError, OverflowError, ValueError):
        n = None if not hasattr(cases, "__len__") else limit + 1
    if n is not None and n > limit:
        raise invalid(param, cases, f"at most {limit:,} cases for {claim_id}")
    # the repr only for the message, taken before an iterator is consumed; a sized family is not
    # printed (printing every case of a large family costs seconds at import)
    shown = _short_repr(cases) if n is None else f"<{type(cases).__name__} of {n:,} items>"
    items = list(itertools.islice(iter(cases), limit + 1))
    if len(items) > limit:
        raise invalid(param, shown, f"a finite iterable of at most {limit:,} cases for {claim_id}",
                      "an endless iterator such as itertools.count() never ends")
    return items


def _short_repr(value: Any) -> str:
    """``repr(value)`` cut to 80 characters, or its type's name when the repr fails."""
    try:
        return repr(value)[:80]
    except Exception:  # noqa: BLE001 - a repr that fails: its type names it
        return f"<{type(value).__name__}>"


@dataclass(frozen=True)
class Citation:
    """Where a statement is printed: the paper key, its location and a one-line quote.  Plain data:
    the constructors refuse one without a non-empty paper and location (``cite=``)."""

    paper: str
    location: str
    quote: str = ""

    def __str__(self) -> str:
        return f"{self.paper}, {self.location}"


FINDING_CLASSES: tuple[str, ...] = ("statement", "hypothesis", "proof", "clarification")
"""The kinds of a finding, in this order: ``statement`` (the printed statement is false),
``hypothesis`` (a missing hypothesis or an edge case), ``proof`` (a slip or typo in a proof; the
result stands), ``clarification`` (a convention or a reading)."""

_FINDING_CLASS_EXPECTED = (
    "one of " + ", ".join(repr(c) for c in FINDING_CLASSES)
    + " (the printed statement is false / a missing hypothesis or edge case / a slip in a proof whose result "
    "stands / a convention or reading)"
)


def finding_class_counts(classes: Iterable[str]) -> str:
    """How many findings of each class, in the order of :data:`FINDING_CLASSES`, the empty classes left out:
    ``'7 statement, 7 hypothesis, 17 proof, 5 clarification'`` (``'none'`` for no finding)."""
    counts = dict.fromkeys(FINDING_CLASSES, 0)
    for c in classes:
        if c not in counts:
            raise invalid("finding_class", c, _FINDING_CLASS_EXPECTED)
        counts[c] += 1
    return ", ".join(f"{n} {c}" for c, n in counts.items() if n) or "none"


@dataclass(frozen=True)
class Finding:
    """A printed statement that symcal refutes (an erratum).

    ``what`` says what is wrong, ``counterexample`` gives the smallest counterexample in
    words and exact numbers, ``corrected`` is the id of the corrected claim (encoded as a
    claim of its own, ``<id>.corrected``), and ``finding_class`` (a keyword, required) its kind,
    one of :data:`FINDING_CLASSES`.  A finding without a class is refused, so that every erratum
    says whether the paper's statement, a hypothesis, a proof or a reading is at fault.
    """

    what: str
    counterexample: str
    corrected: str
    finding_class: str | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        for name in ("what", "counterexample", "corrected"):
            if not isinstance(getattr(self, name), str):
                raise wrong_type(name, getattr(self, name),
                                 "a string (Finding(what, counterexample, corrected, finding_class=...))")
        fc = self.finding_class
        if not isinstance(fc, str):
            raise wrong_type("finding_class", fc, _FINDING_CLASS_EXPECTED)
        if fc not in FINDING_CLASSES:
            raise invalid("finding_class", fc, _FINDING_CLASS_EXPECTED)

    def text(self) -> str:
        return f"{self.what} Counterexample: {self.counterexample} Corrected: {self.corrected}."


@dataclass(frozen=True)
class Sizes:
    """The sizes a sized claim is stated for: ``m >= minimum``; ``default`` is the sweep
    ``symcal check`` runs when no ``--size`` is given."""

    minimum: int
    default: tuple[int, int]
    maximum: int | None = None
    name: str = "m"

    def validate(self, lo: int, hi: int, claim_id: str) -> None:
        if lo > hi:
            raise invalid("--size", f"{lo}..{hi}", "a range A..B with A <= B")
        if lo < self.minimum:
            raise invalid(
                "--size", f"{lo}..{hi}",
                f"sizes >= {self.minimum} for {claim_id} (its statement needs "
                f"{self.name} >= {self.minimum})",
            )
        if self.maximum is not None and hi > self.maximum:
            raise invalid(
                "--size", f"{lo}..{hi}",
                f"sizes <= {self.maximum} for {claim_id} (beyond that its check is not practical)",
            )


@dataclass(frozen=True)
class Local:
    """A constraint on an ordered tuple of ``arity`` distinct nodes.

    ``fn(a, *nodes)`` returns a truth value built with :mod:`symcal.logic` from the
    accessor ``a``: ``a(i, j)`` is the weight a_ij >= 0, ``a.d(i, j)`` the difference
    a_ij - a_ji, ``a.sum(lambda j: ...)`` a sum over all nodes j = 1..m, ``a.nodes`` the
    nodes.  As a hypothesis it is required for every ordered tuple; as a conclusion it is
    claimed for every ordered tuple.
    """

    arity: int
    fn: Callable[..., Any]
    text: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.arity, int) or isinstance(self.arity, bool) or self.arity < 1:
            raise invalid("arity", self.arity, "an integer >= 1")
        if not isinstance(self.text, str):
            raise wrong_type("text", self.text, "a string")
        if not callable(self.fn):
            raise invalid("fn", self.fn, "a function of the accessor and the nodes")


# A builder is either a fixed value or a function of the size m.
Builder = Callable[[int | None], Any]


def as_builder(x: Any) -> Builder:
    if callable(x) and not hasattr(x, "free_symbols"):
        return x
    return lambda m: x


@dataclass(frozen=True)
class IdentitySpec:
    lhs: Builder
    rhs: Builder
    conditions: Builder  # relations the random refutation points must satisfy


@dataclass(frozen=True)
class ImpliesSpec:
    hypotheses: Mapping[str, Builder]  # name -> (m -> list of sympy relations)
    conclusion: Builder  # m -> sympy boolean


@dataclass(frozen=True)
class ExistsSpec:
    constraints: Mapping[str, Builder]
    witness: Builder | None  # m -> {symbol: exact value} or None to search


@dataclass(frozen=True)
class NodeSpec:
    hypotheses: Mapping[str, Local]
    conclusion: Local
    symmetric: bool = True


@dataclass(frozen=True)
class FiniteSpec:
    cases: Callable[[int | None], Iterable[Any]]
    holds: Callable[[Any], Any]  # bool, (bool, detail), or (None, why) when undecided
    domain: str
    describe: Callable[[Any], Any] | None = None
    sample: str = ""  # non-empty: the cases are a sample of the statement's domain (how drawn)
    formula: Callable[[Any], Any] | None = None  # case -> (conditions, values); ``holds`` derives from it
    kernel: Callable[[Any], Any] | None = None  # case -> the case's statement as a kernel certificate


@functools.lru_cache(maxsize=1024)
def _free_symbols(c: Any) -> frozenset[Any]:
    return frozenset(c.free_symbols)


@functools.lru_cache(maxsize=1024)
def _has_float(c: Any) -> bool:
    import sympy

    return c.has(sympy.Float)


def formula_parts(formula: Callable[[Any], Any], case: Any, where: str,
                  allow_constant: bool = False) -> tuple[list[Any], dict[Any, Any]]:
    """A ``finite_check`` formula's ``(conditions, values)`` for one case, validated: conditions
    are sympy relations / boolean combinations (a list is their conjunction) whose free symbols
    all have exact rational ``values``; a condition sympy already evaluated to True/False is
    refused (it would state nothing a checker could re-check) -- unless ``allow_constant``, for
    a mutant whose edit collapsed a condition to a constant (a statement all the same)."""
    import sympy

    from symcal.exact import to_fraction

    out = formula(case)
    if not (isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], Mapping)):
        raise invalid(where, out, "a pair (conditions, {symbol: exact value})")
    conds = list(out[0]) if isinstance(out[0], list | tuple) else [out[0]]
    if not conds:
        raise invalid(where, out[0], "at least one condition")
    values: dict[Any, Any] = {}
    for k, v in out[1].items():
        sym = sympy.Symbol(k) if isinstance(k, str) else k
        if not isinstance(sym, sympy.Symbol):
            raise invalid(f"{where} values", k, "a sympy Symbol or a name")
        t = type(v)  # the common exact kinds directly: the error text below prints the symbol (slow, per value)
        values[sym] = v if t is Fraction else Fraction(v) if t is int else to_fraction(v, f"{where} value of {sym}")
    _within_assumptions(values, where)
    for k, c in enumerate(conds):
        if allow_constant and (isinstance(c, bool) or c in (sympy.true, sympy.false)):
            conds[k] = sympy.true if c else sympy.false
            continue
        if isinstance(c, bool) or c in (sympy.true, sympy.false) or not isinstance(c, sympy.Basic) \
                or not (isinstance(c, sympy.Rel) or c.is_Boolean):
            raise invalid(where, c, "a sympy relation over symbols bound in values (a True/False here was "
                                    "evaluated before it was stated: use symbols for the data)")
        missing = _free_symbols(c) - set(values)
        if missing:
            raise invalid(where, c, f"values for {', '.join(sorted(map(str, missing)))}")
        if _has_float(c):  # as in every other claim: 0.1 is not 1/10, and sympy compares it in doubles
            from symcal.exact.numbers import rational_hint

            f0 = next(iter(c.atoms(sympy.Float)))
            raise invalid(where, sympy.sstr(c), f"an exact condition, without the float {f0}",
                          f"write {rational_hint(f0)}")
    return conds, values


@functools.lru_cache(maxsize=4096)
def _constrained(s: Any) -> bool:
    """The symbol carries an assumption beyond being real (integer, even, positive, rational, ...);
    one symcal cannot encode (complex, ...) raises InvalidClaim."""
    from symcal.exact.assumptions import symbol_domain

    d = symbol_domain(s)
    return bool(d.integer or d.parity or d.sign or d.relaxed)


def _within_assumptions(values: dict[Any, Any], where: str) -> None:
    """A formula's value for a symbol must satisfy the symbol's assumptions (sympy may have
    simplified the conditions with them: ``(-1)**(2*n)`` is 1 for an integer n)."""
    from symcal.exact.assumptions import assumptions_hold

    constrained = {s: v for s, v in values.items() if _constrained(s)}
    if constrained:
        ok, why = assumptions_hold(constrained)
        if ok is not True:
            raise invalid(f"{where} values", {str(s): str(v) for s, v in constrained.items()},
                          f"values within their symbols' assumptions ({why})")


def formula_truth(formula: Callable[[Any], Any], case: Any, where: str = "formula",
                  allow_constant: bool = False) -> tuple[bool | None, str]:
    """Whether every condition holds at the values, decided exactly (rational conditions with
    Fractions, others by ``symcal.exact.truth``: rigorous enclosures that exclude the boundary);
    None when a condition is undecided or undefined at the case, never a guess.
    ``allow_constant``: see :func:`formula_parts`."""
    import sympy

    from symcal.exact.rational_eval import compile_condition
    from symcal.exact.zero import truth

    conds, values = formula_parts(formula, case, where, allow_constant=allow_constant)
    sub = {s: sympy.Rational(v.numerator, v.denominator) for s, v in values.items()}
    def put(c: Any) -> Any:  # relations stay unevaluated: sympy's own numeric comparison is not rigorous
        if isinstance(c, sympy.Rel):
            return type(c)(c.lhs.xreplace(sub), c.rhs.xreplace(sub), evaluate=False)
        if isinstance(c, sympy.And | sympy.Or | sympy.Not | sympy.Implies | sympy.Equivalent):
            return type(c)(*[put(a) for a in c.args], evaluate=False)
        return c.xreplace(sub)

    exact = {k: int(v) if v.denominator == 1 else v for k, v in values.items()}  # ints where exact: faster
    undecided = None
    for c in conds:
        fast = compile_condition(c)  # rational: exact Fractions, compiled once per condition
        if fast is not None:
            try:
                t = bool(fast(exact))
            except ZeroDivisionError:
                t = None  # undefined at this case
        elif not _defined_at_case(c, values):  # acot(1/0) is 0 and Ne((-1)**(1/3), 5) True to sympy: undefined here
            t = None
        else:
            try:
                t = truth(put(c))
            except (TypeError, ZeroDivisionError):  # sympy compared zoo while substituting (an ITE's untaken branch)
                t = None
        if t is False:
            return False, f"fails: {c}"
        if t is None and undecided is None:
            undecided = f"undecided: {c}"
    return (None, undecided) if undecided else (True, f"{len(conds)} condition(s) hold at {len(values)} value(s)")


def _defined_at_case(condition: Any, values: dict[Any, Any]) -> bool:
    """Whether every expression of ``condition`` is certainly defined over the reals at ``values``
    (:func:`symcal.exact.assumptions.definedness`: no division by zero, no root or log of a negative
    number, ...): sympy evaluates some undefined expressions to numbers (``acot(zoo)`` is 0), and
    compares a complex power with a number (``Ne((-1)**(1/3), 5)`` is True)."""
    from symcal.exact.assumptions import defined_at

    try:
        requirements = _requirements(condition)
    except TypeError:  # an unhashable condition: its requirements computed each time
        from symcal.exact.assumptions import definedness

        requirements = tuple(definedness([condition]))
    return not requirements or defined_at(list(requirements), values)


@functools.lru_cache(maxsize=4096)
def _requirements(condition: Any) -> tuple[Any, ...]:
    from symcal.exact.assumptions import definedness

    return tuple(definedness([condition]))


@dataclass(frozen=True)
class CasesSpec:
    """A finite family of implications: ``cases(m)`` is a list of
    ``(label, {hypothesis name: [sympy relations]}, conclusion)``; the claim holds iff every
    case's implication holds (each decided by its own SMT query)."""

    cases: Callable[[int | None], Any]
    domain: str = ""


def _is_python_bool(e: Any) -> bool:
    return isinstance(e, bool)


def _check_formula(e: Any, where: str) -> None:
    import sympy

    if isinstance(e, list | tuple):
        for k, x in enumerate(e):
            _check_formula(x, f"{where}[{k}]")
        return
    if _is_python_bool(e):
        raise invalid(where, e, "a sympy relation or boolean (a Python bool here usually means == was written "
                      "where sympy.Eq(lhs, rhs) was meant)")
    if not isinstance(e, sympy.Basic):
        raise invalid(where, shown(e, 80), "a sympy relation or boolean")


def validate_cases(cases: Any, claim_id: str, m: int | None = None) -> list[tuple[str, dict[str, list[Any]], Any]]:
    """Check a family of cases and return it as a list of ``(label, {name: [relations]}, conclusion)``.

    Labels are non-empty distinct strings (each labels its evidence); hypotheses a dict of
    identifier names to a relation or a list of relations; the conclusion a sympy boolean.
    An empty family is an error, never a vacuous pass (ARCHITECTURE.md, convention 9).
    """
    from collections.abc import Mapping as _Mapping

    at = f" at m = {m}" if m is not None else ""
    if isinstance(cases, str | bytes | _Mapping) or not isinstance(cases, Iterable):
        raise wrong_type("cases", cases, f"a list of (label, hypotheses, conclusion) triples for {claim_id}")
    items = finite_items(cases, "cases", claim_id, MAX_CASES)
    if not items:
        raise invalid("cases", "[]", f"at least one case for {claim_id}{at} (an empty family proves nothing)")
    out: list[tuple[str, dict[str, list[Any]], Any]] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        if not isinstance(item, list | tuple) or len(item) != 3:
            raise invalid(f"cases[{i}]", shown(item, 80), f"a triple (label, hypotheses, conclusion) for {claim_id}")
        label, hyps, concl = item
        if not isinstance(label, str) or not label.strip():
            raise invalid(f"cases[{i}] label", label, "a non-empty string naming the case, e.g. 'n=3, k=1'")
        if label in seen:
            raise invalid(f"cases[{i}] label", label, f"distinct case labels for {claim_id}{at} (each labels its "
                          "evidence)")
        seen.add(label)
        if not isinstance(hyps, _Mapping):
            raise invalid(f"cases[{label!r}] hypotheses", shown(hyps, 80),
                          "a dict hypothesis name -> list of sympy relations")
        norm: dict[str, list[Any]] = {}
        for name, rels in hyps.items():
            if not isinstance(name, str) or not name.isidentifier():
                raise invalid(f"cases[{label!r}] hypotheses", name, "hypothesis names that are identifiers")
            rels = list(rels) if isinstance(rels, list | tuple) else [rels]
            _check_formula(rels, f"cases[{label!r}] hypotheses[{name!r}]")
            norm[name] = rels
        _check_formula(concl, f"cases[{label!r}] conclusion")
        out.append((label, norm, concl))
    return out


def case_hypothesis_names(cases: list[tuple[str, dict[str, list[Any]], Any]]) -> tuple[str, ...]:
    """Every hypothesis name used by some case, in order of first appearance."""
    names: list[str] = []
    for _, hyps, _ in cases:
        names += [k for k in hyps if k not in names]
    return tuple(names)


@dataclass(frozen=True)
class NumericOutcome:
    """What a numeric confirmation measured. ``ok`` means the margin exceeds the tolerance
    in the direction the claim asserts.  Never a proof."""

    ok: bool
    method: str
    values: dict[str, Any]
    tolerance: float
    margin: float
    note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.ok, bool):
            raise wrong_type("ok", self.ok, "True or False (whether the margin exceeds the tolerance)")
        for name in ("method", "note"):
            if not isinstance(getattr(self, name), str):
                raise wrong_type(name, getattr(self, name), "a string")
        if not isinstance(self.values, Mapping):
            raise wrong_type("values", self.values, "a dict name -> value")
        for name in ("tolerance", "margin"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) and not hasattr(v, "__float__"):
                raise wrong_type(name, v, "a number")
            try:
                nan = math.isnan(float(v))
            except (OverflowError, ValueError, TypeError):
                raise invalid(name, v, "a number that fits a float") from None
            if nan:
                raise invalid(name, v, "a number, not nan")


@dataclass(frozen=True)
class NumericSpec:
    run: Callable[[], NumericOutcome]


class Described(str):
    """A ``scope=`` text that only restates what the claim's queries decide (the sizes, cases and
    real variables they range over), made with :func:`described`.  It is shown in a proved verdict's
    scope like any other, but it is no step between the claim and its certificate; a plain string
    says what a proof covers *beyond* its queries (a relabelling, a scaling, a symbolic
    generalisation), a reduction the kernel does not re-check (``symcal.certificate_files``)."""

    __slots__ = ()


def described(text: str) -> Described:
    """``text`` marked as a description of the queries' own domain, not a widening argument."""
    if not isinstance(text, str):
        raise invalid("scope", text, "a string describing the domain the queries decide")
    return Described(text)


@dataclass(frozen=True)
class Claim:
    """A statement with a stable id, a citation, named hypotheses and the outcome the
    paper asserts (``expected``).  Build claims with the constructors, not directly."""

    id: str
    citation: Citation
    kind: str
    statement: str
    spec: Any
    expected: Status | None
    hypothesis_names: tuple[str, ...] = ()
    sizes: Sizes | None = None
    finding: Finding | None = None
    method: str = ""
    strategy: str = "per_size"
    tags: tuple[str, ...] = field(default=())
    # what a proof of this claim covers beyond the query itself, e.g. "all K >= 2: the
    # condition at every (j, i) is an instance of this one identity"; shown in the scope of
    # a proved verdict only
    scope: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or len(self.id) > MAX_ID or not ID_PATTERN.fullmatch(self.id):
            raise InvalidClaim(
                f"id={shown(self.id)}: expected '<firstauthor><year>.<label>' in lower case (at most {MAX_ID} "
                f"characters: it names files), "
                f"e.g. 'duchi2010.lemma14'"
            )
        if not isinstance(self.citation, Citation):
            raise InvalidClaim(f"{self.id}: citation={shown(self.citation)}: expected a Citation")
        for name, ok, expected in (
            ("kind", isinstance(self.kind, str) and bool(self.kind), "a claim kind (build claims with constructors)"),
            ("statement", isinstance(self.statement, str), "a string"),
            ("expected", self.expected is None or isinstance(self.expected, Status), "a Status or None"),
            ("hypothesis_names", isinstance(self.hypothesis_names, tuple)
             and all(isinstance(h, str) for h in self.hypothesis_names), "a tuple of names"),
            ("sizes", self.sizes is None or isinstance(self.sizes, Sizes), "Sizes or None"),
            ("finding", self.finding is None or isinstance(self.finding, Finding), "a Finding or None"),
            ("method", isinstance(self.method, str), "a string"),
            ("strategy", isinstance(self.strategy, str) and self.strategy in ("per_size", "local_lemma"),
             "'per_size' or 'local_lemma'"),
            ("tags", isinstance(self.tags, tuple), "a tuple of strings"),
            ("scope", isinstance(self.scope, str), "a string"),
        ):
            if not ok:
                raise InvalidClaim(f"{self.id}: {name}={shown(getattr(self, name), 80)}: expected {expected}")

    def replace(self, **changes: Any) -> Claim:
        """A copy with some fields changed (used for negative twins and necessity)."""
        return dataclasses.replace(self, **changes)

    def without(self, name: str) -> Claim:
        """The same claim with hypothesis ``name`` dropped (expected outcome unknown)."""
        if name not in self.hypothesis_names:
            raise invalid(
                "hypothesis", name,
                f"one of {', '.join(self.hypothesis_names) or '(none)'} for {self.id}",
            )
        spec = self.spec
        if isinstance(spec, ImpliesSpec):
            hyps = {k: v for k, v in spec.hypotheses.items() if k != name}
            new_spec: Any = dataclasses.replace(spec, hypotheses=hyps)
        elif isinstance(spec, NodeSpec):
            hyps2 = {k: v for k, v in spec.hypotheses.items() if k != name}
            new_spec = dataclasses.replace(spec, hypotheses=hyps2)
        elif isinstance(spec, ExistsSpec):
            cons = {k: v for k, v in spec.constraints.items() if k != name}
            new_spec = dataclasses.replace(spec, constraints=cons)
        elif isinstance(spec, CasesSpec):  # drop it from every case that has it
            build = spec.cases

            def dropped(m: int | None) -> Any:
                return [(label, {k: v for k, v in hyps.items() if k != name}, concl)
                        for label, hyps, concl in validate_cases(build(m), self.id, m)]

            new_spec = dataclasses.replace(spec, cases=dropped)
        else:  # pragma: no cover - other kinds have no hypothesis names
            raise invalid("hypothesis", name, f"a claim with named hypotheses, not a {self.kind}")
        return dataclasses.replace(
            self,
            id=f"{self.id}.without_{name}",
            spec=new_spec,
            hypothesis_names=tuple(h for h in self.hypothesis_names if h != name),
            expected=None,
            finding=None,
            strategy="per_size",
        )

    @property
    def sized(self) -> bool:
        return self.sizes is not None

    def _repr_html_(self) -> str | None:
        return display.render("claim", "html", self)

    def _repr_latex_(self) -> str | None:
        return display.render("claim", "latex", self)


@dataclass(frozen=True)
class CalibrationSpec:
    """``surrogate`` with ``link`` is calibrated for ``loss`` over the simplex cut by ``noise``
    (each a fixed value or a function of the size m); decided by :mod:`symcal.calibration`."""

    loss: Builder
    surrogate: Builder
    link: Builder
    noise: Builder


# --- bounded inequalities (kind "interval"): symcal.backends.interval_backend ---------------

RELATIONS = (">=", ">", "<=", "<")  # the relations of a bounded inequality


@dataclass(frozen=True)
class BoxSpec:
    """``lhs REL rhs`` for every point of a bounded box where the conditions hold.

    ``box`` builds a dict symbol -> (lo, hi) of exact bounds; ``relation`` is one of
    ``>=``, ``>``, ``<=``, ``<``; the budget fields bound the interval branch-and-bound.
    """

    lhs: Builder
    rhs: Builder
    relation: str
    box: Builder
    conditions: Builder
    max_boxes: int = 20000
    max_depth: int = 40
    precision: int = 53


def validate_box(box: Any, exprs: Iterable[Any], label: str = "") -> dict[Any, tuple[Any, Any]]:
    """Check a box {symbol: (lo, hi)}: exact rational bounds, lo <= hi, and every free
    symbol of ``exprs`` bounded.  Returns {symbol: (Fraction lo, Fraction hi)}."""
    import sympy

    from symcal.exact import to_fraction

    if not isinstance(box, Mapping) or not box:
        raise invalid("box", box, f"a non-empty dict symbol -> (lo, hi) of exact bounds for {label}")
    out: dict[Any, tuple[Any, Any]] = {}
    for s, bounds in box.items():
        if not isinstance(s, sympy.Symbol):
            raise invalid("box", s, f"sympy Symbols as keys for {label}")
        try:
            lo, hi = bounds
        except (TypeError, ValueError):
            raise invalid(f"box[{s}]", bounds, "a pair (lo, hi) of exact numbers") from None
        flo, fhi = to_fraction(lo, f"box[{s}] lower bound"), to_fraction(hi, f"box[{s}] upper bound")
        if flo > fhi:
            raise invalid(f"box[{s}]", (str(flo), str(fhi)), "lo <= hi (an empty box proves nothing)")
        out[s] = (flo, fhi)
    free: set[Any] = set()
    for e in exprs:
        if isinstance(e, sympy.Basic):
            free |= e.free_symbols
    missing = sorted(free - set(out), key=str)
    if missing:
        raise invalid("box", {str(k): v for k, v in out.items()},
                      f"bounds for every free symbol; missing {', '.join(map(str, missing))} for {label}")
    return dict(sorted(out.items(), key=lambda kv: str(kv[0])))
