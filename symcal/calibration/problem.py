"""The inputs of a calibration check, validated and put in exact form.

* :class:`Surrogate` -- ``psi(y, u)`` for labels ``y = 1..n`` as sympy expressions in ``u1..ud``,
  with a domain ``C`` given by relations in ``u`` (affine equalities, linear inequalities).
* :class:`Link` -- ``pred : C -> {1..k}`` given by its closed *cells*
  ``cell_t = closure{u : pred(u) = t}``, each a list of linear inequalities ``a.u <= b``.
  ``exclusive`` says whether a point satisfying every inequality of ``cell_t`` *strictly* is
  known to have ``pred = t`` (true for the built-in links by construction; for a user's regions
  it is checked before a refutation relies on it).
* :func:`loss_rows` -- the loss matrix as exact Fractions (floats refused).

A linear constraint is a pair ``(a, b)`` of a tuple of Fractions and a Fraction.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from symcal.calibration.parse import MAX_BITS, MAX_LEN, parse_expression, parse_relation, variables
from symcal.errors import DuplicateKey, InvalidInput, unique_keys
from symcal.errors import invalid as _invalid
from symcal.exact import fraction_str, to_fraction

__all__ = ["Surrogate", "Link", "LossSpec", "loss_rows", "linear_form", "parse_noise", "read_problem_file", "invalid",
           "one_line", "prediction_names", "exact_number", "MAX_DIM",
           "MAX_LABELS", "MAX_PREDICTIONS", "MAX_ENTRIES", "MAX_RELATIONS", "MAX_FILE_BYTES", "MAX_JSON_DEPTH"]

MAX_DIM = 24
MAX_LABELS = 30000
MAX_PREDICTIONS = 720
MAX_ENTRIES = 200_000  # entries of the loss matrix (n x k)
MAX_RELATIONS = 1_000  # relations in one list (a domain, a noise set, one region)
MAX_NAME = 80  # characters of a prediction's name or a problem's name
MAX_FILE_BYTES = 64 * 1024**2
MAX_JSON_DEPTH = 32

Lin = tuple[tuple[Fraction, ...], Fraction]


def linear_form(expr: Any, syms: Sequence[sympy.Symbol]) -> tuple[tuple[Fraction, ...], Fraction] | None:
    """``expr = a.x + b`` with exact rational ``a, b``, or None when ``expr`` is not affine
    with rational coefficients in ``syms``."""
    expr = sympy.sympify(expr)
    if expr.free_symbols - set(syms):
        return None
    try:
        poly = sympy.Poly(expr, *syms, domain="QQ") if syms else None
    except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsNeeded, ValueError, TypeError):
        return None
    if poly is None:
        if expr.is_Rational:
            return (), Fraction(int(expr.p), int(expr.q))
        return None
    if poly.total_degree() > 1:
        return None
    a = []
    for s in syms:
        c = poly.coeff_monomial(s)
        a.append(Fraction(int(c.p), int(c.q)))
    c0 = poly.coeff_monomial(1)
    return tuple(a), Fraction(int(c0.p), int(c0.q))


def one_line(value: Any) -> Any:
    """``value`` itself when its ``repr`` is one line, else a one-line stand-in naming its type
    (a numpy array or a user's object may print over several lines, or fail to print)."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - e.g. an int past Python's digit limit, or a user's __repr__
        return f"<{type(value).__name__}>"
    if "\n" in text or "\r" in text:
        return f"<{type(value).__name__}: {' '.join(text.split())[:100]}>"
    return value


def invalid(param: str, value: Any, expected: str, fix: str | None = None) -> InvalidInput:
    """:func:`symcal.errors.invalid` with the value shown on one line (:func:`one_line`)."""
    return _invalid(param, one_line(value), expected, fix)


def exact_number(x: Any, param: str) -> Fraction:
    """An exact number of the input (:func:`symcal.exact.to_fraction`) of at most ``MAX_BITS`` bits
    in its numerator and denominator."""
    v = to_fraction(x, param)
    if v.numerator.bit_length() > MAX_BITS or v.denominator.bit_length() > MAX_BITS:
        raise invalid(param, f"<a number of {max(v.numerator.bit_length(), v.denominator.bit_length())} bits>",
                      f"an exact number of at most {MAX_BITS} bits")
    return v


def _is_list(x: Any) -> bool:
    return not isinstance(x, str | bytes | bytearray | dict) and isinstance(x, Sequence)


def prediction_names(names: Any, k: int, param: str) -> tuple[str, ...]:
    """The names of the k predictions: distinct non-empty strings (or integers) of one line."""
    if not _is_list(names) or len(names) != k:
        raise invalid(param, names, f"a list of {k} names, one per prediction")
    out = []
    for i, nm in enumerate(names):
        if isinstance(nm, bool) or not isinstance(nm, str | int):
            raise invalid(f"{param}[{i}]", nm, "a name: a string or an integer")
        text = str(nm) if isinstance(nm, str) else f"{nm}"
        if not text.strip() or len(text) > MAX_NAME or not text.isprintable():
            raise invalid(f"{param}[{i}]", nm, f"a name of 1 to {MAX_NAME} printable characters on one line")
        out.append(text)
    dup = sorted({x for x in out if out.count(x) > 1}) if len(set(out)) != len(out) else []
    if dup:
        raise invalid(param, names, "distinct names (the verdict names predictions by them)", f"{dup[0]!r} repeats")
    return tuple(out)


def _relations(data: Any, param: str, what: str) -> Sequence[Any]:
    """A list of relations, bounded in length (each one is parsed later)."""
    if not _is_list(data):
        raise invalid(param, data, what)
    if len(data) > MAX_RELATIONS:
        raise invalid(param, f"<{len(data)} relations>", f"at most {MAX_RELATIONS} relations")
    return data


def _lin_text(a: Sequence[Fraction], b: Fraction, names: Sequence[str], op: str = "<=") -> str:
    terms = []
    for c, nm in zip(a, names, strict=True):
        if c == 0:
            continue
        if c == 1:
            terms.append(f"+ {nm}")
        elif c == -1:
            terms.append(f"- {nm}")
        else:
            terms.append(f"{'-' if c < 0 else '+'} {fraction_str(abs(c))}*{nm}")
    lhs = " ".join(terms).lstrip("+ ") or "0"
    if lhs.startswith("- "):
        lhs = "-" + lhs[2:]
    return f"{lhs} {op} {fraction_str(b)}"


# --------------------------------------------------------------------------- surrogate


@dataclass(frozen=True)
class Surrogate:
    """``psi(y, u)`` for ``y = 1..n``: ``per_label[y-1]`` is a sympy expression (or a string in
    sympy syntax) in ``u1..u<dim>``; ``domain`` is a list of relations in ``u`` (default: all of
    ``R^dim``).  Strings are parsed safely (:mod:`symcal.calibration.parse`)."""

    dim: int
    per_label: tuple[Any, ...]
    domain: tuple[Any, ...] = ()
    name: str = ""
    u: tuple[sympy.Symbol, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.dim, bool) or not isinstance(self.dim, int) or not 1 <= self.dim <= MAX_DIM:
            raise invalid("surrogate.dim", self.dim, f"a whole number 1 <= dim <= {MAX_DIM}")
        u = variables("u", self.dim)
        if not _is_list(self.per_label):
            raise invalid("surrogate.per_label", self.per_label, "a list of expressions, one per label")
        if not 1 <= len(self.per_label) <= MAX_LABELS:
            raise invalid("surrogate.per_label", f"{len(self.per_label)} expressions",
                          f"between 1 and {MAX_LABELS} expressions, one per label")
        exprs = tuple(parse_expression(e, f"surrogate.per_label[{i}]", u) for i, e in enumerate(self.per_label))
        dom = self.domain
        if dom is None:
            dom = ()
        dom = _relations(dom, "surrogate.domain", "a list of relations in u1..ud, e.g. ['u1 + u2 + u3 = 0']")
        rels = tuple(parse_relation(r, f"surrogate.domain[{i}]", u) for i, r in enumerate(dom))
        object.__setattr__(self, "per_label", exprs)
        object.__setattr__(self, "domain", rels)
        object.__setattr__(self, "u", tuple(u))

    @classmethod
    def parse(cls, data: Any, param: str = "surrogate") -> Surrogate:
        """From a JSON-like dict ``{"dim": d, "per_label": [...], "domain": [...], "name": ...}``."""
        if isinstance(data, Surrogate):
            return data
        if not isinstance(data, dict):
            raise invalid(param, data, 'an object {"dim": d, "per_label": [...], "domain": [...]}')
        extra = set(data) - {"dim", "per_label", "domain", "name"}
        if extra:
            raise invalid(param, sorted(extra), "only the keys dim, per_label, domain, name")
        if "dim" not in data or "per_label" not in data:
            raise invalid(param, sorted(data), "the keys dim and per_label")
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > MAX_NAME or not name.isprintable():
            raise invalid(f"{param}.name", name, f"a name of at most {MAX_NAME} printable characters")
        domain = data.get("domain")
        return cls(data["dim"], data["per_label"], () if domain is None else domain, name)

    @property
    def labels(self) -> int:
        return len(self.per_label)

    def domain_constraints(self) -> tuple[list[Lin], list[Lin], list[str]]:
        """``(equalities a.u = b, inequalities a.u <= b, unsupported relations as text)``."""
        eqs: list[Lin] = []
        les: list[Lin] = []
        bad: list[str] = []
        for rel in self.domain:
            if isinstance(rel, sympy.Eq):
                lf = linear_form(rel.lhs - rel.rhs, self.u)
                if lf is None:
                    bad.append(f"{rel} (not affine)")
                else:
                    eqs.append((lf[0], -lf[1]))
            elif isinstance(rel, sympy.LessThan | sympy.GreaterThan):
                diff = rel.lhs - rel.rhs if isinstance(rel, sympy.LessThan) else rel.rhs - rel.lhs
                lf = linear_form(diff, self.u)
                if lf is None:
                    bad.append(f"{rel} (not linear)")
                else:
                    les.append((lf[0], -lf[1]))
            else:
                bad.append(f"{rel} (only closed linear constraints: =, <=, >=)")
        return eqs, les, bad

    def to_json(self) -> dict[str, Any]:
        return {"dim": self.dim, "per_label": [sympy.sstr(e) for e in self.per_label],
                "domain": [sympy.sstr(r) for r in self.domain], "name": self.name}


# --------------------------------------------------------------------------- link


@dataclass(frozen=True)
class Link:
    """``pred : C -> {1..k}`` through its closed cells (lists of ``a.u <= b``).

    ``kind`` is ``argmax``, ``argmin``, ``linear``, ``sort-desc`` or ``regions``;
    ``prediction_names`` label the k predictions (``user_names``: the user gave them, with
    ``"names"`` or a link file's ``NAMES``, and the verdict names predictions by them);
    ``matrix``/``offset`` keep a linear link's data.
    """

    kind: str
    dim: int
    cells: tuple[tuple[Lin, ...], ...]
    prediction_names: tuple[str, ...]
    exclusive: bool
    matrix: tuple[tuple[Fraction, ...], ...] = ()
    offset: tuple[Fraction, ...] = ()
    permutations: tuple[tuple[int, ...], ...] = ()
    user_names: bool = False

    @property
    def k(self) -> int:
        return len(self.cells)

    def describe(self) -> str:
        return {"argmax": "pred(u) = argmax_j u_j", "argmin": "pred(u) = argmin_j u_j",
                "linear": "pred(u) = argmin_t <u, B_t> + c_t",
                "sort-desc": "pred(u) = a permutation sorting u decreasingly (sigma(i) = position of i)",
                "regions": "pred(u) = t only where u lies in the user's closed region R_t"}[self.kind]

    def cell_text(self, t: int) -> list[str]:
        names = [f"u{i}" for i in range(1, self.dim + 1)]
        return [_lin_text(a, b, names) for a, b in self.cells[t]]

    def score(self, u: Sequence[Fraction]) -> list[Fraction] | None:
        """The built-in link's score of each prediction at ``u`` (smaller is preferred)."""
        if self.kind == "argmax":
            return [-x for x in u]
        if self.kind == "argmin":
            return list(u)
        if self.kind == "linear":
            return [sum((b * x for b, x in zip(row, u, strict=True)), Fraction(0)) + c
                    for row, c in zip(self.matrix, self.offset, strict=True)]
        return None

    def tied(self, t: int) -> frozenset[int]:
        """The predictions the link can never tell apart from ``t`` (0-based, ``t`` included): a
        linear link's rows with the same ``(B_t, c_t)``.  On the whole cell of ``t`` they are all
        tied best, so which one ``pred`` returns is the link's tie-breaking, not the scores."""
        if self.kind != "linear":
            return frozenset({t})
        key = (self.matrix[t], self.offset[t])
        return frozenset(s for s in range(self.k) if (self.matrix[s], self.offset[s]) == key)

    def predictions_at(self, u: Sequence[Fraction]) -> set[int]:
        """Every prediction ``pred`` may give at ``u`` (all tied best ones; 0-based), computed from
        the link's own definition, independently of the cells (regions: the regions containing u)."""
        sc = self.score(u)
        if sc is not None:
            best = min(sc)
            return {t for t, s in enumerate(sc) if s == best}
        if self.kind == "sort-desc":
            out = set()
            for t, sigma in enumerate(self.permutations):
                # sigma(i) < sigma(j)  =>  u_i >= u_j
                if all(u[i] >= u[j] for i in range(self.dim) for j in range(self.dim) if sigma[i] < sigma[j]):
                    out.add(t)
            return out
        return {t for t, cell in enumerate(self.cells)
                if all(sum((a * x for a, x in zip(ai, u, strict=True)), Fraction(0)) <= b for ai, b in cell)}

    @classmethod
    def parse(cls, spec: Any, dim: int, k: int | None = None, param: str = "link",
              base: Path | None = None, timeout: float = 60.0) -> Link:
        """``"argmax"``, ``"argmin"``, ``"sort-desc"``, ``{"linear": B, "offset": c, "names": [...]}``,
        ``{"regions": [[relations], ...], "names": [...]}`` or the path of a Python file defining
        ``REGIONS`` (and optionally ``NAMES``).  The file is imported in a child process limited to
        ``timeout`` CPU seconds (:func:`symcal.library.import_limited`), what it prints goes to
        stderr, and only its ``REGIONS``/``NAMES`` data come back."""
        if isinstance(spec, Link):
            if spec.dim != dim:
                raise invalid(param, spec.kind, f"a link on R^{dim} (it is on R^{spec.dim})")
            return spec
        if isinstance(spec, str) and spec in ("argmax", "argmin"):
            return cls._argmax(spec, dim)
        if isinstance(spec, str) and spec in ("sort-desc", "sort"):
            return cls._sort_desc(spec, dim, param)
        if isinstance(spec, dict) and "linear" in spec:
            return cls._linear(spec, dim, param)
        regions, given_names = _region_spec(spec, param, base, timeout)
        if not _is_list(regions) or not regions or len(regions) > MAX_PREDICTIONS:
            raise invalid(f"{param}.regions", regions if not _is_list(regions) or len(regions) <= 20
                          else f"<{len(regions)} regions>",
                          f"a non-empty list: one list of relations per prediction (at most {MAX_PREDICTIONS})")
        names = (prediction_names(given_names, len(regions), f"{param}.names") if given_names is not None
                 else tuple(f"{t + 1}" for t in range(len(regions))))
        u = variables("u", dim)
        cells = [_region_rows(reg, f"{param}.regions[{t}]", u) for t, reg in enumerate(regions)]
        return cls("regions", dim, tuple(cells), names, False, user_names=given_names is not None)

    @classmethod
    def _argmax(cls, spec: str, dim: int) -> Link:
        """``argmax`` / ``argmin``: cell t is ``u_j - u_t <= 0`` (argmax; the reverse for argmin) for every j != t."""
        sgn = Fraction(1) if spec == "argmax" else Fraction(-1)
        cells = []
        for t in range(dim):
            rows = []
            for j in range(dim):
                if j != t:
                    a = [Fraction(0)] * dim
                    a[j], a[t] = sgn, -sgn
                    rows.append((tuple(a), Fraction(0)))
            cells.append(tuple(rows))
        return cls(spec, dim, tuple(cells), tuple(f"{i + 1}" for i in range(dim)), True)

    @classmethod
    def _sort_desc(cls, spec: str, dim: int, param: str) -> Link:
        """``sort-desc``: one prediction per permutation sigma, its cell ``u_b <= u_a`` for consecutive documents."""
        if dim > 6:
            raise invalid(param, spec, "sort-desc with dim <= 6 (dim! predictions)")
        perms = tuple(itertools.permutations(range(1, dim + 1)))
        cells = []
        for sigma in perms:
            order = sorted(range(dim), key=lambda i, s=sigma: s[i])  # documents best first
            rows = []
            for a_doc, b_doc in zip(order, order[1:], strict=False):
                v = [Fraction(0)] * dim
                v[b_doc], v[a_doc] = Fraction(1), Fraction(-1)  # u_b - u_a <= 0
                rows.append((tuple(v), Fraction(0)))
            cells.append(tuple(rows))
        return cls("sort-desc", dim, tuple(cells), tuple(str(s) for s in perms), True, permutations=perms)

    @classmethod
    def _linear(cls, spec: dict[str, Any], dim: int, param: str) -> Link:
        """``{"linear": B, "offset": c, "names": [...]}``: ``pred(u) = argmin_t <u, B_t> + c_t``."""
        extra = set(spec) - {"linear", "offset", "names"}
        if extra:
            raise invalid(param, sorted(extra), "only the keys linear, offset, names")
        B = spec["linear"]
        if not _is_list(B) or not B or len(B) > MAX_PREDICTIONS:
            raise invalid(f"{param}.linear", B if not _is_list(B) or len(B) <= 20 else f"<{len(B)} rows>",
                          f"a non-empty k x {dim} matrix (one row per prediction, k <= {MAX_PREDICTIONS})")
        rows_b = []
        for t, row in enumerate(B):
            if not _is_list(row) or len(row) != dim:
                raise invalid(f"{param}.linear[{t}]", row, f"a row of {dim} exact numbers")
            rows_b.append(tuple(exact_number(x, f"{param}.linear[{t}][{i}]") for i, x in enumerate(row)))
        off = spec.get("offset")
        if off is None:
            offs = tuple(Fraction(0) for _ in rows_b)
        elif not _is_list(off) or len(off) != len(rows_b):
            raise invalid(f"{param}.offset", off, f"a list of {len(rows_b)} exact numbers, one per row")
        else:
            offs = tuple(exact_number(x, f"{param}.offset[{t}]") for t, x in enumerate(off))
        cells = []
        for t in range(len(rows_b)):
            rows = []
            for s in range(len(rows_b)):
                if s != t:
                    a = tuple(x - y for x, y in zip(rows_b[t], rows_b[s], strict=True))
                    rows.append((a, offs[s] - offs[t]))
            cells.append(tuple(rows))
        given = spec.get("names")
        names = (prediction_names(given, len(rows_b), f"{param}.names") if given is not None
                 else tuple(f"{t + 1}" for t in range(len(rows_b))))
        return cls("linear", dim, tuple(cells), names, True, tuple(rows_b), offs, user_names=given is not None)


def _region_spec(spec: Any, param: str, base: Path | None, timeout: float) -> tuple[Any, Any]:
    """The regions and the given names (or None) of ``{"regions": ..., "names": ...}`` or of a link file."""
    regions = None
    given_names: Any = None
    if isinstance(spec, dict) and "regions" in spec:
        extra = set(spec) - {"regions", "names"}
        if extra:
            raise invalid(param, sorted(extra), "only the keys regions, names")
        regions, given_names = spec["regions"], spec.get("names")
    elif isinstance(spec, str | Path) and str(spec).endswith(".py"):
        path = Path(spec)
        if not path.is_absolute() and base is not None:
            path = base / path
        regions, given_names = _link_file(path, param, timeout)
    if regions is None:
        raise invalid(param, spec, '"argmax", "argmin", "sort-desc", {"linear": B, "offset": c}, '
                                   '{"regions": [[...], ...]} or a Python file defining REGIONS')
    return regions, given_names


def _region_rows(reg: Any, where: str, u: Sequence[sympy.Symbol]) -> tuple[Lin, ...]:
    """One region's closed linear relations as rows ``a.u <= b`` (an equation gives two)."""
    reg = _relations(reg, where, "a list of linear relations in u1..ud")
    rows = []
    for i, text in enumerate(reg):
        rel = parse_relation(text, f"{where}[{i}]", u)
        if isinstance(rel, sympy.LessThan | sympy.GreaterThan):
            diff = rel.lhs - rel.rhs if isinstance(rel, sympy.LessThan) else rel.rhs - rel.lhs
            lf = linear_form(diff, u)
            if lf is not None:
                rows.append((lf[0], -lf[1]))
                continue
        elif isinstance(rel, sympy.Eq):
            lf = linear_form(rel.lhs - rel.rhs, u)
            if lf is not None:
                rows.append((lf[0], -lf[1]))
                rows.append((tuple(-x for x in lf[0]), lf[1]))
                continue
        raise invalid(f"{where}[{i}]", text,
                      "a closed linear relation in u (<=, >= or =) describing the closed region")
    return tuple(rows)


def _link_file(path: Path, param: str, timeout: float) -> tuple[Any, Any]:
    """``REGIONS`` and ``NAMES`` (or None) of a link file, imported in a child under the limits of a
    ``--theorems`` file (:func:`symcal.library.import_limited`); what it prints goes to stderr."""
    from symcal.library import import_limited

    expected = "a Python file defining REGIONS: one list of linear relations in u1..ud per prediction"
    if not path.is_file():
        what = "a directory" if path.is_dir() else "missing" if not path.exists() else "not a regular file"
        raise invalid(param, str(path), f"an existing Python file defining REGIONS ({what})")
    return import_limited(path, _regions_of, timeout, param=param, expected=expected, quiet=True)  # type: ignore


def _regions_of(module: Any) -> tuple[list[list[str]], list[str] | None]:
    """In the child that imported a link file: its ``REGIONS`` as lists of relation texts, and its
    ``NAMES`` (plain data only, bounded, so that nothing of the file's runs in symcal itself)."""
    where = getattr(module, "__file__", "") or "link"
    regions = getattr(module, "REGIONS", None)
    if regions is None:
        raise invalid("link", where, "a Python file defining REGIONS: one list of linear relations in u1..ud "
                                     "per prediction")
    if not _is_list(regions) or len(regions) > MAX_PREDICTIONS:
        raise invalid("link.REGIONS", f"<{type(regions).__name__}>",
                      f"a list of at most {MAX_PREDICTIONS} lists of relations, one per prediction")
    out = []
    for t, reg in enumerate(regions):
        if not _is_list(reg) or len(reg) > MAX_RELATIONS:
            raise invalid(f"link.REGIONS[{t}]", f"<{type(reg).__name__}>",
                          f"a list of at most {MAX_RELATIONS} linear relations in u1..ud")
        out.append([_relation_text(r, f"link.REGIONS[{t}][{i}]") for i, r in enumerate(reg)])
    names = getattr(module, "NAMES", None)
    if names is not None:
        if not _is_list(names) or len(names) > MAX_PREDICTIONS:
            raise invalid("link.NAMES", f"<{type(names).__name__}>", "a list of names, one per prediction")
        names = [str.__str__(n)[:MAX_NAME + 1] if isinstance(n, str)
                 else int.__int__(n) if isinstance(n, int) and not isinstance(n, bool)
                 else f"<{type(n).__name__}>" for n in names]  # plain str / int: nothing of the file's travels back
    return out, names


def _relation_text(r: Any, param: str) -> str:
    """A relation of a link file as text (a string as it is; a sympy relation printed)."""
    if isinstance(r, str):
        r = str.__str__(r)  # a plain copy of a str subclass, whose class could not travel back
        if len(r) > MAX_LEN:
            raise invalid(param, f"<{len(r)} characters>", f"a relation of at most {MAX_LEN} characters")
        return r
    if isinstance(r, sympy.Eq):
        return str.__str__(f"{sympy.sstr(r.lhs)} == {sympy.sstr(r.rhs)}")
    if isinstance(r, sympy.core.relational.Relational):
        text = sympy.sstr(r)
        if isinstance(text, str):
            return str.__str__(text)
    raise invalid(param, f"<{type(r).__name__}>", "a relation: a string such as 'u1 >= u2' or a sympy relation")


# --------------------------------------------------------------------------- loss, noise


@dataclass(frozen=True)
class LossSpec:
    rows: tuple[tuple[Fraction, ...], ...]
    label_names: tuple[str, ...]
    prediction_names: tuple[str, ...]
    predictions: tuple[Any, ...]
    name: str = ""


def loss_rows(loss: Any, param: str = "loss") -> LossSpec:
    """A :class:`LossMatrix`, a list of rows of exact numbers, or ``{"name": <paper loss>, "r": r, ...}``."""
    from symcal.ranking.loss_matrix import LossMatrix

    if isinstance(loss, dict):
        from symcal.ranking.subset_losses import named_loss

        params = {k: v for k, v in loss.items() if k not in ("name", "r")}
        if "name" not in loss or not isinstance(loss["name"], str) or not all(isinstance(k, str) for k in params):
            raise invalid(param, loss, 'a matrix (list of rows) or {"name": "precision", "r": 3, "q": 2}')
        loss = named_loss(loss["name"], loss.get("r", 3), **params).matrix
    if hasattr(loss, "tolist") and not isinstance(loss, str | bytes):  # a numpy array: its rows as lists
        try:
            loss = loss.tolist()
        except Exception:  # noqa: BLE001 - not an array after all; refused below
            pass
    if isinstance(loss, LossMatrix):
        n, k = loss.shape
        rows = tuple(tuple(loss.entry(a, b) for b in range(k)) for a in range(n))
        return LossSpec(rows, tuple(str(x) for x in loss.labels), tuple(str(x) for x in loss.predictions),
                        tuple(loss.predictions), loss.name)
    if not _is_list(loss) or not loss:
        raise invalid(param, loss, "a non-empty n x k matrix: a list of rows of exact numbers")
    out = []
    width = None
    limits = (f"at most {MAX_LABELS} labels, {MAX_PREDICTIONS} predictions and {MAX_ENTRIES:,} entries "
              "(a list of rows of exact numbers)")
    if len(loss) > MAX_LABELS:
        raise invalid(param, f"<{len(loss)} rows>", limits)
    for a, row in enumerate(loss):
        if not _is_list(row) or not row:
            raise invalid(f"{param}[{a}]", row, "a non-empty row of exact numbers")
        if width is None:
            width = len(row)
            if width > MAX_PREDICTIONS or width * len(loss) > MAX_ENTRIES:
                raise invalid(param, f"<{len(loss)} x {width}>", limits)
        elif len(row) != width:
            raise invalid(f"{param}[{a}]", f"{len(row)} entries", f"{width} entries like row 0")
        out.append(tuple(exact_number(x, f"{param}[{a}][{b}]") for b, x in enumerate(row)))
    assert width is not None
    return LossSpec(tuple(out), tuple(f"{a + 1}" for a in range(len(out))), tuple(f"{b + 1}" for b in range(width)),
                    tuple(range(1, width + 1)))


def parse_noise(noise: Any, n: int, param: str = "noise") -> tuple[Any, ...]:
    if noise is None:
        return ()
    noise = _relations(noise, param, "a list of relations in p1..pn, e.g. ['p1 >= p2']")
    p = variables("p", n)
    return tuple(parse_relation(r, f"{param}[{i}]", p) for i, r in enumerate(noise))


def read_problem_file(path: str | Path) -> dict[str, Any]:
    """The JSON calibration file as a dict of the keyword arguments of ``check_calibration``.

    Refused in one line each: a path that is not a regular file (missing, a directory, a FIFO),
    a file over ``MAX_FILE_BYTES``, unreadable, not UTF-8 (binary), not JSON, JSON nested deeper
    than ``MAX_JSON_DEPTH``, floats, ``NaN``/``Infinity``, unknown keys, a name that is not text."""
    if isinstance(path, bool) or not isinstance(path, str | Path):
        raise invalid("file", path, "the path of a JSON file (a string)")
    p = Path(path)
    try:
        if not p.exists():
            raise invalid("file", str(path), "an existing JSON file with loss, surrogate and link", "check the path")
        if p.is_dir():
            raise invalid("file", str(path), "a JSON file with loss, surrogate and link, not a directory")
        if not p.is_file():
            raise invalid("file", str(path), "a regular JSON file (not a device, FIFO or socket)")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise invalid("file", str(path), f"a JSON file of at most {MAX_FILE_BYTES // 1024**2} MB ({size:,} bytes)")
        raw = p.read_bytes()
    except OSError as e:
        raise invalid("file", str(path), "a readable JSON file", e.strerror or type(e).__name__) from None
    except ValueError as e:  # e.g. a NUL character in the path
        if isinstance(e, InvalidInput):
            raise
        raise invalid("file", str(path), "a valid file path", str(e)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise invalid("file", str(path), "a UTF-8 text file with JSON (it looks binary)",
                      f"byte {e.start} is not UTF-8") from None
    try:
        data = json.loads(text, parse_float=_refuse_float, parse_constant=_refuse_constant,
                          object_pairs_hook=unique_keys("file", str(path)))
    except DuplicateKey:
        raise
    except json.JSONDecodeError as e:
        raise invalid("file", str(path), f"valid JSON ({e.msg} at line {e.lineno})") from None
    except _FloatSeen as e:
        fix = "write it as a string such as \"1/2\""
        if len(e.text) <= 30 and "e" not in e.text.lower():
            fr = Fraction(e.text)
            fix = f"write \"{fr.numerator}/{fr.denominator}\""
        raise invalid("file", f"{path}: {e.text}", "exact numbers (integers or \"p/q\" strings), not floats",
                      fix) from None
    except _ConstantSeen as e:
        raise invalid("file", f"{path}: {e.text}", "finite exact numbers; JSON has no NaN or Infinity") from None
    except RecursionError:
        raise invalid("file", str(path), f"JSON nested at most {MAX_JSON_DEPTH} deep") from None
    except ValueError as e:  # e.g. an integer of more than 4,300 digits
        raise invalid("file", str(path), "valid JSON with numbers of sensible size", str(e).split(";")[0]) from None
    depth = _depth(data)
    if depth > MAX_JSON_DEPTH:
        raise invalid("file", str(path), f"JSON nested at most {MAX_JSON_DEPTH} deep (it is {depth} deep)")
    if not isinstance(data, dict):
        raise invalid("file", str(path), "a JSON object with loss, surrogate, link (and optional noise)")
    extra = set(data) - {"loss", "surrogate", "link", "noise", "name", "comment", "expected", "parameters"}
    if extra:
        raise invalid("file", sorted(extra), "only the keys loss, surrogate, link, noise, name, comment, expected, "
                                             "parameters")
    for key in ("loss", "surrogate", "link"):
        if key not in data:
            raise invalid("file", str(path), f"the key {key!r}")
    name = data.get("name", p.stem)
    if not isinstance(name, str) or not name or len(name) > MAX_NAME or not name.isprintable():
        raise invalid("file.name", name, f"a name of 1 to {MAX_NAME} printable characters")
    link = data["link"]
    if isinstance(link, str) and link.endswith(".py") and not Path(link).is_absolute():
        link = str(p.parent / link)
    out = {"loss": data["loss"], "surrogate": data["surrogate"], "link": link, "noise": data.get("noise"),
           "name": name}
    if "parameters" in data:  # {"tau": ["-1", "1"]}: read and decided by symcal.calibration.parameters
        out["parameters"] = data["parameters"]
    return out


def _depth(data: Any) -> int:
    """How deep JSON data nests (counted without recursion)."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        x, d = todo.pop()
        if isinstance(x, dict | list):
            deepest = max(deepest, d)
            if d <= MAX_JSON_DEPTH:
                todo.extend((v, d + 1) for v in (x.values() if isinstance(x, dict) else x))
    return deepest


class _FloatSeen(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(f"float {text}")
        self.text = text


def _refuse_float(text: str) -> Any:
    raise _FloatSeen(text)


class _ConstantSeen(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(f"constant {text}")
        self.text = text


def _refuse_constant(text: str) -> Any:
    raise _ConstantSeen(text)
