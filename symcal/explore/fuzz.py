"""Differential fuzzing: random small claims decided by symcal and by independent oracles.

Every generated claim is Python source text (the reproducer of a false verdict): the claim is
built by executing that text with sympy and symcal's constructors, and decided with
:func:`symcal.check_many` (forked workers, a small CPU budget each).  Each decisive verdict is
then judged by an oracle that uses none of symcal's backends:

* **brute force** over the admissible values of bounded integer symbols (``integer``, ``even``,
  ``odd``, positive, non-negative, negative, non-zero): the hypotheses bound every symbol, so
  the finite enumeration decides the statement exactly;
* **Fourier-Motzkin** elimination in Fractions for linear and piecewise-linear statements
  (``Max``/``Min``/``Abs``/``Piecewise`` split into their branches) over real symbols, with
  the sign assumptions as constraints; a feasible system gives an exact rational point;
* **by construction** for polynomial statements over the reals and the rationals: a sum of
  squares plus a constant is non-negative, a planted point violates a bound placed just above
  its value, a planted rational root makes ``(x - r) q(x)`` change sign, ``q**2 = c`` has a
  rational solution exactly when c is the square of a rational;
* **linear programming** (scipy's HiGHS) for node claims (``node_implies`` and ``all_sizes``)
  whose local functions are linear in the weights ``a(i, j)``/``a.d(i, j)``/``a.sum``: per
  conclusion tuple and size m, the negated statement is an LP with a_ij >= 0; a point it finds is
  rounded to rationals and re-checked exactly (an LP answer alone is never a counterexample).

A **false verdict** is reported only with an exact certificate, evaluated by this module with
Python Fractions on the claim's own source text: ``proved`` while the oracle holds a re-checked
counterexample (or a point of the domain where the statement is undefined, unless the verdict's
scope says it covers only the points where it is defined); ``refuted`` while symcal's
counterexample does not violate the statement (or violates a symbol's assumption: a rational
symbol at an irrational value, an even one at an odd value); ``witnessed`` while the witness
fails a constraint or an assumption; a ``refuted`` existence while the oracle holds a point.
``unknown`` and refusals (a :class:`~symcal.errors.SymcalError` while building, or an ``error``
verdict) are counted, not judged.

The node claims' local functions may test node labels in many Python spellings (``i == 3``,
``(i, j) == (2, 3)``, ``i in (2, 3)``, ``W.get(i, 1)``, ``hash(i) % 2``, ``int(i)``,
``str(i) == "2"``, f-strings, set membership, ``bool``): the oracle evaluates them on the real
labels 1..m, so a reduction that assumes all nodes alike is caught.

:func:`run_fuzz` returns a :class:`FuzzReport` with per-family counts and every false verdict's
reproducer (the Python source that builds and checks the claim).
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = ["FAMILIES", "Case", "FalseVerdict", "FamilyStats", "FuzzReport", "generate", "judge", "run_fuzz"]

HEADER = (
    "import sympy\n"
    "from sympy import Abs, And, Eq, Implies, Max, Min, Ne, Not, Or, Piecewise, Rational, Symbol, log\n"
    "import symcal.logic as L\n"
    "from symcal import Citation, Local, all_sizes, check, exists, implies, node_implies\n"
    "CITE = Citation('fuzz2026', 'generated claim')\n"
)

# --------------------------------------------------------------------------- symbols and assumptions

# kind -> (sympy assumptions as source text, integer-valued?, admissible(v) for an exact rational v)
KINDS: dict[str, tuple[str, bool, Callable[[Fraction], bool]]] = {
    "real": ("real=True", False, lambda v: True),
    "rational": ("rational=True", False, lambda v: True),
    "positive": ("positive=True", False, lambda v: v > 0),
    "negative": ("negative=True", False, lambda v: v < 0),
    "nonnegative": ("nonnegative=True", False, lambda v: v >= 0),
    "nonzero": ("real=True, nonzero=True", False, lambda v: v != 0),
    "integer": ("integer=True", True, lambda v: v.denominator == 1),
    "even": ("even=True", True, lambda v: v.denominator == 1 and v.numerator % 2 == 0),
    "odd": ("odd=True", True, lambda v: v.denominator == 1 and v.numerator % 2 == 1),
    "posint": ("integer=True, positive=True", True, lambda v: v.denominator == 1 and v > 0),
    "nonnegint": ("integer=True, nonnegative=True", True, lambda v: v.denominator == 1 and v >= 0),
    "negint": ("integer=True, negative=True", True, lambda v: v.denominator == 1 and v < 0),
    "nonzeroint": ("integer=True, nonzero=True", True, lambda v: v.denominator == 1 and v != 0),
}


class Undefined(Exception):
    """The statement is undefined at this point (division by 0, a Piecewise with no branch, log
    of a non-positive number)."""


class Undecidable(Exception):
    """The oracle cannot decide this (it then says nothing about the verdict)."""


# --------------------------------------------------------------------------- exact evaluation of source text

class _Log:
    """log(v) for an exact v > 0, comparable with 0 only (log v >= 0 iff v >= 1)."""

    def __init__(self, v: Fraction) -> None:
        self.v = v

    def _cmp(self, other: Any, op: Callable[[Any, Any], bool]) -> bool:
        if other != 0:
            raise Undecidable("log compared with a non-zero constant")
        return op(self.v, 1)

    def __ge__(self, o: Any) -> bool:
        return self._cmp(o, operator.ge)

    def __gt__(self, o: Any) -> bool:
        return self._cmp(o, operator.gt)

    def __le__(self, o: Any) -> bool:
        return self._cmp(o, operator.le)

    def __lt__(self, o: Any) -> bool:
        return self._cmp(o, operator.lt)


def _py_log(v: Any) -> _Log:
    if v <= 0:
        raise Undefined(f"log({v})")
    return _Log(Fraction(v))


def _py_piecewise(*pairs: tuple[Any, Any]) -> Any:
    for value, cond in pairs:
        if cond is True or cond:
            return value
    raise Undefined("Piecewise: no condition holds")


def _py_bool(x: Any) -> bool:
    if isinstance(x, bool):
        return x
    raise Undecidable(f"not a truth value: {x!r}")


PY_NAMESPACE: dict[str, Any] = {
    "Rational": Fraction, "Max": max, "Min": min, "Abs": abs, "Eq": operator.eq, "Ne": operator.ne,
    "And": lambda *a: all(_py_bool(x) for x in a), "Or": lambda *a: any(_py_bool(x) for x in a),
    "Not": lambda a: not _py_bool(a), "Implies": lambda p, q: (not _py_bool(p)) or _py_bool(q),
    "Piecewise": _py_piecewise, "log": _py_log, "True": True, "False": False,
}


@functools.lru_cache(maxsize=4096)
def _code(text: str) -> Any:
    return compile(text, "<statement>", "eval")


def py_eval(code: Any, values: dict[str, Fraction]) -> bool:
    """The truth value of a compiled statement at exact values (Python Fractions, no sympy);
    raises :class:`Undefined` where it is undefined."""
    if isinstance(code, str):
        code = _code(code)
    try:
        out = eval(code, {"__builtins__": {}, **PY_NAMESPACE}, dict(values))  # noqa: S307 - our own generated text
    except ZeroDivisionError as e:
        raise Undefined("division by 0") from e
    return _py_bool(out)


# --------------------------------------------------------------------------- linear expressions, atoms, formulas

class NonLinear(Exception):
    pass


class Lin:
    """An exact linear form sum c_v v + const over named variables."""

    __slots__ = ("c", "k")

    def __init__(self, c: dict[str, Fraction] | None = None, k: Any = 0) -> None:
        self.c = {v: x for v, x in (c or {}).items() if x != 0}
        self.k = Fraction(k)

    @staticmethod
    def var(name: str) -> Lin:
        return Lin({name: Fraction(1)})

    @staticmethod
    def of(x: Any) -> Lin:
        if isinstance(x, Lin):
            return x
        if isinstance(x, bool | int | Fraction):
            return Lin({}, x)
        raise NonLinear(f"not a linear term: {x!r}")

    def __add__(self, o: Any) -> Lin:
        o = Lin.of(o)
        c = dict(self.c)
        for v, x in o.c.items():
            c[v] = c.get(v, Fraction(0)) + x
        return Lin(c, self.k + o.k)

    __radd__ = __add__

    def __neg__(self) -> Lin:
        return Lin({v: -x for v, x in self.c.items()}, -self.k)

    def __sub__(self, o: Any) -> Lin:
        return self + (-Lin.of(o))

    def __rsub__(self, o: Any) -> Lin:
        return Lin.of(o) - self

    def __mul__(self, o: Any) -> Lin:
        o = Lin.of(o)
        if o.c and self.c:
            raise NonLinear("product of two non-constant terms")
        s, f = (self, o.k) if not o.c else (o, self.k)
        return Lin({v: x * f for v, x in s.c.items()}, s.k * f)

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Lin:
        o = Lin.of(o)
        if o.c:
            raise NonLinear("division by a non-constant term")
        if o.k == 0:
            raise Undefined("division by 0")
        return self * (1 / o.k)

    def __pow__(self, n: Any) -> Lin:
        if n == 1:
            return self
        if not self.c:
            return Lin({}, self.k ** n)
        raise NonLinear("power of a non-constant term")

    def value(self, point: dict[str, Fraction]) -> Fraction:
        return self.k + sum((x * point.get(v, Fraction(0)) for v, x in self.c.items()), Fraction(0))

    def __ge__(self, o: Any) -> Any:
        return atom(self - o, False)

    def __gt__(self, o: Any) -> Any:
        return atom(self - o, True)

    def __le__(self, o: Any) -> Any:
        return atom(Lin.of(o) - self, False)

    def __lt__(self, o: Any) -> Any:
        return atom(Lin.of(o) - self, True)

    def __bool__(self) -> bool:
        raise Undecidable("a linear form used as a Python truth value")

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.c.items())), self.k))


@dataclass(frozen=True)
class Atom:
    """``e > 0`` (strict) or ``e >= 0``."""

    e: Lin
    strict: bool

    def negate(self) -> Atom:
        return Atom(-self.e, not self.strict)

    def holds(self, point: dict[str, Fraction]) -> bool:
        v = self.e.value(point)
        return v > 0 if self.strict else v >= 0

    def __bool__(self) -> bool:
        raise Undecidable("a linear inequality used as a Python truth value")


def atom(e: Lin, strict: bool) -> Any:
    if not e.c:
        return e.k > 0 if strict else e.k >= 0
    return Atom(e, strict)


# formulas: bool | Atom | ("and", [..]) | ("or", [..]) | ("not", f)

def _fold(op: str, absorbing: bool, a: tuple[Any, ...]) -> Any:
    """``op`` of the formulas ``a``: the absorbing truth value wins, the neutral one drops out."""
    items = []
    for x in a:
        if x is absorbing:
            return absorbing
        if x is not (not absorbing):
            items.append(x)
    return (op, items) if items else not absorbing


def f_and(*a: Any) -> Any:
    return _fold("and", False, a)


def f_or(*a: Any) -> Any:
    return _fold("or", True, a)


def f_not(a: Any) -> Any:
    if isinstance(a, bool):
        return not a
    return ("not", a)


def f_implies(p: Any, q: Any) -> Any:
    return f_or(f_not(p), q)


def f_eq(a: Any, b: Any) -> Any:
    if not isinstance(a, Lin) and not isinstance(b, Lin):
        return a == b
    return f_and(Lin.of(a) >= b, Lin.of(a) <= b)


def f_ne(a: Any, b: Any) -> Any:
    return f_not(f_eq(a, b))


MAX_DISJUNCTS = 512


def dnf(f: Any, neg: bool = False) -> list[list[Atom]]:
    """The disjunctive normal form of f (of not f with ``neg``) as lists of atoms; an empty
    conjunction is true, an empty list false."""
    if isinstance(f, bool):
        return [[]] if f != neg else []
    if isinstance(f, Atom):
        return [[f.negate() if neg else f]]
    tag = f[0]
    if tag == "not":
        return dnf(f[1], not neg)
    conj = (tag == "and") != neg
    parts = [dnf(x, neg) for x in f[1]]
    if not conj:
        return [c for p in parts for c in p]
    out: list[list[Atom]] = [[]]
    for p in parts:
        out = [a + b for a in out for b in p]
        if len(out) > MAX_DISJUNCTS:
            raise Undecidable("too many disjuncts")
    return out


def fm_point(atoms: Sequence[Atom]) -> dict[str, Fraction] | None:
    """An exact rational point satisfying every atom (Fourier-Motzkin elimination with strict
    inequalities, then back-substitution), or None when there is none."""
    variables = sorted({v for a in atoms for v in a.e.c})
    systems = [list(dict.fromkeys(atoms))]
    for v in variables:
        cur = systems[-1]
        pos = [a for a in cur if a.e.c.get(v, 0) > 0]
        neg = [a for a in cur if a.e.c.get(v, 0) < 0]
        nxt = [a for a in cur if a.e.c.get(v, 0) == 0]
        for p in pos:
            for n in neg:
                e = p.e * (-n.e.c[v]) + n.e * p.e.c[v]
                r = atom(Lin({w: x for w, x in e.c.items() if w != v}, e.k), p.strict or n.strict)
                if r is False:
                    return None
                if r is not True:
                    nxt.append(r)
        systems.append(list(dict.fromkeys(nxt)))
    if any(not a.holds({}) for a in systems[-1]):
        return None
    point: dict[str, Fraction] = {}
    for idx in range(len(variables) - 1, -1, -1):
        v = variables[idx]
        lo: tuple[Fraction, bool] | None = None
        hi: tuple[Fraction, bool] | None = None
        for a in systems[idx]:
            cv = a.e.c.get(v, Fraction(0))
            if cv == 0:
                continue
            rest = Lin({w: x for w, x in a.e.c.items() if w != v}, a.e.k).value(point)
            bound = -rest / cv
            if cv > 0 and (lo is None or bound > lo[0] or (bound == lo[0] and a.strict)):
                lo = (bound, a.strict)
            if cv < 0 and (hi is None or bound < hi[0] or (bound == hi[0] and a.strict)):
                hi = (bound, a.strict)
        if lo and hi:
            x = lo[0] if lo[0] == hi[0] else (lo[0] + hi[0]) / 2
        elif lo:
            x = lo[0] + 1
        elif hi:
            x = hi[0] - 1
        else:
            x = Fraction(0)
        point[v] = x
    if not all(a.holds(point) for a in atoms):  # pragma: no cover - would be a bug of this module
        raise Undecidable("Fourier-Motzkin back-substitution failed")
    return point


class _Chooser:
    """Branch choices of Max/Min/Abs/Piecewise for one evaluation (enumerated by :func:`branches`)."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.arities: list[int] = []
        self.taken: list[int] = []
        self.path: list[Any] = []

    def choose(self, n: int) -> int:
        k = self.prefix[len(self.taken)] if len(self.taken) < len(self.prefix) else 0
        self.arities.append(n)
        self.taken.append(k)
        return k


def _lin_namespace(ch: _Chooser) -> dict[str, Any]:
    def mx(*args: Any, sign: int = 1) -> Any:
        if not any(isinstance(a, Lin) for a in args):
            return max(args) if sign > 0 else min(args)
        k = ch.choose(len(args))
        for n, b in enumerate(args):
            if n != k:
                ch.path.append(Lin.of(args[k]) >= b if sign > 0 else Lin.of(args[k]) <= b)
        return args[k]

    def ab(e: Any) -> Any:
        if not isinstance(e, Lin):
            return abs(e)
        if ch.choose(2) == 0:
            ch.path.append(e >= 0)
            return e
        ch.path.append(e < 0)
        return -e

    def pw(*pairs: tuple[Any, Any]) -> Any:
        k = ch.choose(len(pairs) + 1)
        for _, cond in pairs[:k]:
            ch.path.append(f_not(cond))
        if k == len(pairs):
            raise Undefined("Piecewise: no condition holds")
        ch.path.append(pairs[k][1])
        return pairs[k][0]

    return {"Rational": Fraction, "Max": mx, "Min": lambda *a: mx(*a, sign=-1), "Abs": ab, "Eq": f_eq, "Ne": f_ne,
            "And": f_and, "Or": f_or, "Not": f_not, "Implies": f_implies, "Piecewise": pw, "True": True,
            "False": False}


MAX_BRANCHES = 256


def linear_search(hyps: Sequence[str], concl: str, symbols: dict[str, str],
                  exists: bool = False) -> tuple[dict[str, Fraction], str] | None:
    """An exact point where the universal statement hyps => concl fails or is undefined (or, with
    ``exists``, where every constraint holds), over the real symbols with their sign assumptions;
    None when there is none.  Raises :class:`Undecidable` on a non-linear statement."""
    sign = {"positive": lambda x: x > 0, "negative": lambda x: x < 0, "nonnegative": lambda x: x >= 0,
            "nonzero": lambda x: f_or(x > 0, x < 0)}
    prefix: list[int] = []
    for _ in range(MAX_BRANCHES):
        ch = _Chooser(prefix)
        ns = {"__builtins__": {}, **_lin_namespace(ch), **{s: Lin.var(s) for s in symbols}}
        assume = [sign[k](Lin.var(s)) for s, k in symbols.items() if k in sign]
        hs = [eval(h, ns) for h in hyps]  # noqa: S307 - our own generated text
        undefined = False
        try:
            c = eval(concl, ns)  # noqa: S307
        except Undefined:
            undefined, c = True, True
        if exists:
            goal = f_and(*ch.path, *assume, *hs, c) if not undefined else False
        else:
            goal = f_and(*ch.path, *assume, *hs, True if undefined else f_not(c))
        for conj in dnf(goal):
            p = fm_point(conj)
            if p is not None:
                point = {s: p.get(s, Fraction(0)) for s in symbols}
                return point, ("undefined" if undefined else "fails")
        taken = ch.taken
        t = len(taken) - 1
        while t >= 0 and taken[t] + 1 >= ch.arities[t]:
            t -= 1
        if t < 0:
            return None
        prefix = taken[:t] + [taken[t] + 1]
    raise Undecidable("too many branches")


# --------------------------------------------------------------------------- cases

@dataclass
class Case:
    """One generated claim: its source text, and what the oracle needs to judge a verdict."""

    family: str
    cid: str
    source: str  # Python source after HEADER; defines ``claim``
    kind: str  # "implies" | "exists" | "node"
    symbols: dict[str, str] = field(default_factory=dict)  # name -> kind (KINDS)
    hyps: list[str] = field(default_factory=list)  # statement text (sympy claims)
    concl: str = ""
    box: dict[str, tuple[int, int]] = field(default_factory=dict)  # integer symbols' ranges
    oracle: str = "brute"  # brute | linear | construction | node
    truth: bool | None = None  # by construction
    planted: dict[str, Fraction] | None = None  # a counterexample (false) or witness (exists)
    node: dict[str, Any] = field(default_factory=dict)  # node claims: locals, data, sizes

    def reproducer(self, timeout: float = 3.0) -> str:
        return f"{HEADER}{self.source}print(check(claim, timeout={timeout:g}))\n"


def _rat(x: Fraction) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"Rational({x.numerator}, {x.denominator})"


def _sym_source(symbols: dict[str, str]) -> str:
    return "".join(f'{s} = Symbol("{s}", {KINDS[k][0]})\n' for s, k in symbols.items())


def _implies_source(cid: str, symbols: dict[str, str], hyps: list[str], concl: str) -> str:
    h = "{" + (f'"h": [{", ".join(hyps)}]' if hyps else "") + "}"
    return (f"{_sym_source(symbols)}claim = implies(\"{cid}\", hypotheses={h},\n"
            f"                conclusion={concl}, cite=CITE)\n")


def _exists_source(cid: str, symbols: dict[str, str], cons: list[str], witness: dict[str, Fraction] | None) -> str:
    w = "" if witness is None else ", witness={" + ", ".join(f"{s}: {_rat(v)}" for s, v in witness.items()) + "}"
    return (f"{_sym_source(symbols)}claim = exists(\"{cid}\", constraints={{\"c\": [{', '.join(cons)}]}},\n"
            f"               cite=CITE{w})\n")


def _lin_text(rng: random.Random, names: Sequence[str], nterms: int = 2, coef: int = 3) -> str:
    chosen = rng.sample(list(names), min(nterms, len(names)))
    parts = []
    for s in chosen:
        c = rng.choice([x for x in range(-coef, coef + 1) if x])
        parts.append(s if c == 1 else (f"-{s}" if c == -1 else f"{c}*{s}"))
    k = rng.randint(-3, 3)
    text = " + ".join(parts).replace("+ -", "- ")
    return text + (f" + {k}" if k > 0 else (f" - {-k}" if k < 0 else ""))


def _poly_text(rng: random.Random, names: Sequence[str], degree: int = 3, nterms: int = 3) -> str:
    terms = []
    for _ in range(nterms):
        mono = [rng.choice(list(names)) for _ in range(rng.randint(1, degree))]
        c = rng.choice([-3, -2, -1, 1, 2, 3])
        body = "*".join(f"{s}**{mono.count(s)}" if mono.count(s) > 1 else s for s in dict.fromkeys(mono))
        terms.append(body if c == 1 else (f"-{body}" if c == -1 else f"{c}*{body}"))
    return " + ".join(terms).replace("+ -", "- ")


REL = [">=", ">", "<=", "<"]


def _box_hyps(box: dict[str, tuple[int, int]]) -> list[str]:
    return [t for s, (lo, hi) in box.items() for t in (f"{s} >= {lo}", f"{s} <= {hi}")]


def _admissible(kind: str, lo: int, hi: int) -> list[Fraction]:
    return [Fraction(v) for v in range(lo, hi + 1) if KINDS[kind][2](Fraction(v))]


def _points(case: Case) -> list[dict[str, Fraction]]:
    ranges = [_admissible(case.symbols[s], *case.box[s]) for s in case.symbols]
    return [dict(zip(case.symbols, p, strict=True)) for p in itertools.product(*ranges)]


def _values_of(case: Case, text: str, only_admissible: bool = False) -> list[Fraction]:
    """The term's values at the case's integer points (where the hypotheses hold, with
    ``only_admissible``)."""
    code = compile(text, "<term>", "eval")
    out = []
    for p in _points(case):
        if only_admissible and not _hyps_hold(case, p):
            continue
        try:
            out.append(Fraction(eval(code, {"__builtins__": {}, **PY_NAMESPACE}, dict(p))))  # noqa: S307
        except (ZeroDivisionError, Undefined, TypeError):
            continue
    return out


def _threshold(rng: random.Random, values: list[Fraction]) -> tuple[str, str]:
    """A relation and a constant that make ``term REL constant`` true or false about equally often."""
    rel = rng.choice(REL)
    lo, hi = (min(values), max(values)) if values else (Fraction(0), Fraction(0))
    pick = {">=": [lo, lo + 1, lo - 1], ">": [lo - 1, lo, lo + Fraction(1, 2)],
            "<=": [hi, hi - 1, hi + 1], "<": [hi + 1, hi, hi - Fraction(1, 2)]}[rel]
    return rel, _rat(rng.choice(pick))


_INT_KINDS = ["integer"] * 4 + ["even", "odd", "posint", "nonnegint", "negint", "nonzeroint"]


def _int_symbols(rng: random.Random, n: int, kinds: Sequence[str]) -> tuple[dict[str, str], dict[str, tuple[int, int]]]:
    names = ["x", "y", "z"][:n]
    symbols = {s: rng.choice(list(kinds)) for s in names}
    box = {}
    for s, k in symbols.items():
        lo, hi = sorted(rng.sample(range(-4, 5), 2))
        if k in ("posint",):
            lo, hi = 1, max(hi, 2)
        if k in ("nonnegint",):
            lo, hi = 0, max(hi, 1)
        if k in ("negint",):
            lo, hi = min(lo, -2), -1
        if not _admissible(k, lo, hi):
            lo, hi = lo - 2, hi + 2
        box[s] = (lo, hi)
    return symbols, box


def _gen_int(rng: random.Random, cid: str, family: str) -> Case:
    """A polynomial (``int_poly``), piecewise-linear (``int_pwl``) or assumption-laden
    (``assume``) statement over bounded integer symbols: brute force decides it."""
    n = rng.randint(1, 3)
    kinds = _INT_KINDS if family == "assume" else ["integer"]
    symbols, box = _int_symbols(rng, n, kinds)
    if family == "assume" and all(k == "integer" for k in symbols.values()):
        symbols[next(iter(symbols))] = rng.choice(["even", "odd", "nonzeroint"])
        box = {s: (lo - 1, hi + 1) for s, (lo, hi) in box.items()}
    names = list(symbols)
    case = Case(family, cid, "", "implies", symbols, box=box)
    hyps = _box_hyps(box)
    if family == "int_pwl":
        f = rng.choice(["Max", "Min", "Abs"])
        inner = [_lin_text(rng, names, 2) for _ in range(1 if f == "Abs" else 2)]
        term = f"{f}({', '.join(inner)})"
        if rng.random() < 0.5:
            term += f" + {_lin_text(rng, names, 1)}"
    elif family == "assume" and rng.random() < 0.5:
        term = _lin_text(rng, names, 2) if rng.random() < 0.5 else f"{names[0]}"
    else:
        term = _poly_text(rng, names, degree=2 if family == "assume" else 3)
    if rng.random() < 0.3:
        hyps.append(f"{_lin_text(rng, names, 2)} >= 0")
    case.hyps = hyps
    rel, c = _threshold(rng, _values_of(case, term, only_admissible=True) or _values_of(case, term))
    if family == "assume" and rng.random() < 0.35:  # a statement only the assumption makes true
        fn, c = rng.choice(["Ne", "Eq"]), _rat(Fraction(rng.randint(-3, 3)))
        concl = f"{fn}({term}, {c})"
    else:
        concl = f"{term} {rel} {c}"
    if rng.random() < 0.25:
        other = f"{_lin_text(rng, names, 1)} {rng.choice(REL)} {rng.randint(-2, 2)}"
        concl = f"{rng.choice(['Or', 'And'])}({concl}, {other})" if rng.random() < 0.7 else f"Implies({other}, {concl})"
    case.concl = concl
    case.source = _implies_source(cid, symbols, hyps, concl)
    return case


def _hyps_hold(case: Case, p: dict[str, Fraction]) -> bool:
    try:
        return all(py_eval(h, p) for h in case.hyps)
    except (Undefined, Undecidable):
        return False


def _gen_int_exists(rng: random.Random, cid: str, family: str) -> Case:
    """An existence statement over bounded integer symbols (brute force), sometimes with a
    planted witness, sometimes with a wrong one."""
    symbols, box = _int_symbols(rng, rng.randint(1, 3), _INT_KINDS)
    names = list(symbols)
    case = Case(family, cid, "", "exists", symbols, box=box)
    pts = _points(case)
    x0 = rng.choice(pts)
    cons = _box_hyps(box)
    for _ in range(rng.randint(1, 2)):
        t = _poly_text(rng, names, degree=2, nterms=2) if rng.random() < 0.5 else _lin_text(rng, names, 2)
        v = Fraction(eval(compile(t, "<t>", "eval"), {"__builtins__": {}, **PY_NAMESPACE}, dict(x0)))  # noqa: S307
        r = rng.random()
        if r < 0.3:
            cons.append(f"Eq({t}, {_rat(v + rng.choice([0, 0, 1]))})")
        elif r < 0.6:
            cons.append(f"{t} >= {_rat(v + rng.choice([0, 1, 5]))}")
        else:
            cons.append(f"{t} < {_rat(v + rng.choice([1, 0, -3]))}")
    witness = None
    if rng.random() < 0.35:
        witness = x0 if rng.random() < 0.6 else rng.choice(pts)
    case.hyps = cons
    case.source = _exists_source(cid, symbols, cons, witness)
    return case


_REAL_KINDS = ["real"] * 4 + ["positive", "negative", "nonnegative", "nonzero", "rational"]


def _gen_real_linear(rng: random.Random, cid: str, family: str) -> Case:
    """Linear and piecewise-linear statements over real symbols with sign assumptions
    (``real_linear``), and Piecewise terms without a default (``partial``): Fourier-Motzkin."""
    names = ["x", "y", "z"][:rng.randint(1, 3)]
    # a sign assumption would let sympy decide a Piecewise condition while the claim is built
    symbols = {s: rng.choice(_REAL_KINDS) if family != "partial" else "real" for s in names}
    hyps = [f"{_lin_text(rng, names, 2)} {rng.choice(REL)} 0" for _ in range(rng.randint(0, 2))]
    if family == "partial":
        s = rng.choice(names)
        branches = [f"({_lin_text(rng, names, 1)}, {s} {rng.choice(['>', '>=', '<'])} {rng.randint(-2, 2)})"
                    for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.3:
            branches.append(f"({rng.randint(-2, 2)}, True)")
        term = f"Piecewise({', '.join(branches)})"
        if rng.random() < 0.4:  # a hypothesis that may keep the statement inside the Piecewise's domain
            hyps.append(f"{s} {rng.choice(['>', '>=', '<'])} {rng.randint(-2, 2)}")
    else:
        r = rng.random()
        if r < 0.4:
            term = _lin_text(rng, names, 3)
        elif r < 0.8:
            f = rng.choice(["Max", "Min"])
            term = f"{f}({_lin_text(rng, names, 2)}, {_lin_text(rng, names, 2)})"
        else:
            term = f"Abs({_lin_text(rng, names, 2)}) - {_lin_text(rng, names, 1)}"
    concl = f"{term} {rng.choice(REL)} {rng.randint(-2, 2)}"
    if rng.random() < 0.3:
        concl = f"{rng.choice(['Or', 'And'])}({concl}, {_lin_text(rng, names, 2)} {rng.choice(REL)} 0)"
    case = Case(family, cid, _implies_source(cid, symbols, hyps, concl), "implies", symbols, hyps, concl,
                oracle="linear")
    return case


def _gen_real_exists(rng: random.Random, cid: str, family: str) -> Case:
    """A linear existence statement over real symbols (Fourier-Motzkin decides it)."""
    names = ["x", "y", "z"][:rng.randint(1, 3)]
    symbols = {s: rng.choice(_REAL_KINDS) for s in names}
    cons = [f"{_lin_text(rng, names, 2)} {rng.choice(REL)} 0" for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        cons.append(f"Eq({_lin_text(rng, names, 2)}, {rng.randint(-2, 2)})")
    return Case(family, cid, _exists_source(cid, symbols, cons, None), "exists", symbols, cons, oracle="linear")


def _square_text(rng: random.Random, names: Sequence[str]) -> str:
    lin = _lin_text(rng, names, rng.randint(1, len(names)), coef=2)
    if rng.random() < 0.25 and len(names) >= 1:
        a, b = rng.choice(names), rng.choice(names)
        lin = f"{a}*{b} + {rng.randint(-2, 2)}"
    w = rng.choice([1, 1, 2, Fraction(1, 2)])
    return f"{_rat(w)}*({lin})**2"


def _gen_real_poly(rng: random.Random, cid: str, family: str) -> Case:
    """Polynomial statements over the reals whose truth is known by construction: a sum of
    squares plus a constant (true), a bound just above a planted point's value (false at it), a
    planted rational root (true from it on, false just before it)."""
    import sympy

    names = ["x", "y", "z"][:rng.randint(1, 3)]
    symbols = {s: "real" for s in names}
    syms = {s: sympy.Symbol(s, real=True) for s in names}
    ns = {**syms, "Rational": sympy.Rational}
    kind = rng.choice(["sos", "sos", "planted", "root"])
    if kind == "root":
        s = names[0]
        symbols = {s: "real"}
        r = Fraction(rng.randint(-4, 4), rng.choice([1, 2, 3]))
        q = " + ".join([_square_text(rng, [s]) for _ in range(rng.randint(1, 2))])
        q += f" + {_rat(Fraction(rng.randint(1, 3), rng.choice([1, 2])))}"  # q > 0 everywhere
        poly = sympy.expand(sympy.sympify(f"({s} - ({_rat(r)}))*({q})",
                                          locals={s: syms[s], "Rational": sympy.Rational}))
        text = _sympy_text(poly)
        true = rng.random() < 0.5
        hyp = f"{s} >= {_rat(r)}" if true else f"{s} >= {_rat(r - Fraction(1, 2))}"
        case = Case(family, cid, "", "implies", symbols, [hyp], f"{text} >= 0", oracle="construction",
                    truth=true, planted=None if true else {s: r - Fraction(1, 4)})
    else:
        squares = " + ".join(_square_text(rng, names) for _ in range(rng.randint(1, 3)))
        c = Fraction(rng.randint(0, 3), rng.choice([1, 2]))
        poly = sympy.expand(sympy.sympify(f"{squares} + {_rat(c)}", locals=ns))
        text = _sympy_text(poly)
        if kind == "sos":
            rel = ">" if c > 0 and rng.random() < 0.5 else ">="
            case = Case(family, cid, "", "implies", symbols, [], f"{text} {rel} 0", oracle="construction", truth=True)
        else:
            x0 = {s: Fraction(rng.randint(-4, 4), rng.choice([1, 2])) for s in names}
            v = Fraction(str(poly.xreplace({syms[s]: sympy.Rational(x0[s].numerator, x0[s].denominator)
                                           for s in names})))
            rel, bound = rng.choice([(">", v), (">=", v + Fraction(1, 3))])
            case = Case(family, cid, "", "implies", symbols, [], f"{text} {rel} {_rat(bound)}", oracle="construction",
                        truth=False, planted=x0)
    case.source = _implies_source(cid, case.symbols, case.hyps, case.concl)
    return case


def _sympy_text(poly: Any) -> str:
    """Source text of an expanded polynomial with exact coefficients (Rational(p, q), never p/q)."""
    import sympy

    gens = sorted(poly.free_symbols, key=lambda s: s.name)
    p = sympy.Poly(poly, *gens)
    terms = []
    for mon, coeff in p.terms():
        body = "*".join(f"{g.name}**{e}" if e > 1 else g.name for g, e in zip(gens, mon, strict=True) if e)
        c = Fraction(int(coeff.p), int(coeff.q))
        ctext = _rat(c) if c >= 0 else f"-{_rat(-c)}"
        terms.append(body if c == 1 and body else (f"-{body}" if c == -1 and body else
                                                   (f"{ctext}*{body}" if body else ctext)))
    return " + ".join(terms).replace("+ -", "- ") or "0"


_SQUARES = [Fraction(4), Fraction(9, 4), Fraction(1, 4), Fraction(16, 9), Fraction(1)]
_NON_SQUARES = [Fraction(2), Fraction(3), Fraction(1, 2), Fraction(5, 4), Fraction(8, 9), Fraction(6)]


def _is_rational_square(c: Fraction) -> bool:
    return c >= 0 and math.isqrt(c.numerator) ** 2 == c.numerator and math.isqrt(c.denominator) ** 2 == c.denominator


def _rational_sqrt(c: Fraction) -> Fraction:
    return Fraction(math.isqrt(c.numerator), math.isqrt(c.denominator))


def _gen_rational(rng: random.Random, cid: str, family: str) -> Case:
    """``q**2 != c`` and ``exists q: q**2 = c`` for a rational q (true exactly when c is, resp. is
    not, a rational square), with a real control symbol now and then."""
    kind = rng.choice(["rational", "rational", "real"])
    c = rng.choice(_SQUARES + _NON_SQUARES)
    square = _is_rational_square(c)
    symbols = {"q": kind}
    bounds = [] if rng.random() < 0.5 else ["q >= 0", "q <= 3"]
    if rng.random() < 0.5:
        concl = f"Ne(q**2, {_rat(c)})"
        truth = not square if kind == "rational" else False
        planted = {"q": _rational_sqrt(c)} if square else None
        if not square and kind == "real":
            truth = None  # the counterexample is irrational: no exact rational one to plant (the oracle abstains)
        case = Case(family, cid, _implies_source(cid, symbols, bounds, concl), "implies", symbols, bounds, concl,
                    oracle="construction", truth=truth, planted=planted)
    else:
        cons = [*bounds, f"Eq(q**2, {_rat(c)})"]
        truth = square if kind == "rational" else None
        case = Case(family, cid, _exists_source(cid, symbols, cons, None), "exists", symbols, cons,
                    oracle="construction", truth=truth, planted={"q": _rational_sqrt(c)} if square else None)
    return case


def _gen_int_partial(rng: random.Random, cid: str, family: str) -> Case:
    """Division by a term that may be 0, log of a term that may be <= 0, a Piecewise without
    default, over bounded integers: brute force finds where the statement is undefined."""
    symbols, box = _int_symbols(rng, rng.randint(1, 2), ["integer"])
    names = list(symbols)
    hyps = _box_hyps(box)
    lin = _lin_text(rng, names, 2)
    r = rng.random()
    if r < 0.4:
        concl = f"{_lin_text(rng, names, 1)} / ({lin}) {rng.choice(REL)} {rng.randint(-1, 1)}"
        if rng.random() < 0.4:
            hyps.append(f"Ne({lin}, 0)")
    elif r < 0.7:
        concl = f"log({lin}) {rng.choice(REL)} 0"
        if rng.random() < 0.4:
            hyps.append(f"{lin} > 0")
    else:
        s = names[0]
        concl = (f"Piecewise(({_lin_text(rng, names, 1)}, {s} > {rng.randint(-2, 1)}), "
                 f"({_lin_text(rng, names, 1)}, {s} < {rng.randint(-3, 0)})) {rng.choice(REL)} {rng.randint(-2, 2)}")
    return Case(family, cid, _implies_source(cid, symbols, hyps, concl), "implies", symbols, hyps, concl, box=box)


# --------------------------------------------------------------------------- node claims

_TUPLE = ["i", "j", "k"]


def _node_term(rng: random.Random, t: Sequence[str], label_coef: bool) -> str:
    a, b = rng.sample(list(t), 2) if len(t) >= 2 else (t[0], t[0])
    kinds = [f"a({a}, {b})", f"a.d({a}, {b})", f"a({b}, {a})", f"a.sum(lambda l: a({a}, l))",
             f"a.sum(lambda l: a.d({a}, l))", f"a.sum(lambda l: a(l, {b}))"]
    if label_coef:
        kinds += [f"W.get({a}, 1) * a({a}, {b})", f"a.sum(lambda l: W.get(l, 1) * a({a}, l))"]
    term = rng.choice(kinds)
    c = rng.choice([1, 1, 2, -1, 3])
    return term if c == 1 else f"{c} * {term}"


def _node_atom(rng: random.Random, t: Sequence[str], label_coef: bool) -> str:
    lhs = " + ".join(_node_term(rng, t, label_coef) for _ in range(rng.randint(1, 2)))
    rhs = rng.choice(["0", "0", "1", _node_term(rng, t, label_coef)])
    return f"{lhs} {rng.choice(REL)} {rhs}"


def _label_test(rng: random.Random, t: Sequence[str]) -> str:
    a = rng.choice(list(t))
    b = rng.choice([x for x in t if x != a] or [a])
    c, d = rng.sample(range(1, 5), 2)
    return rng.choice([
        f"{a} == {c}", f"({a}, {b}) == ({c}, {d})", f"{a} in ({c}, {d})", f"{a} in {{{c}, {d}}}",
        f"hash({a}) % 2 == 0", f"int({a}) == {c}", f'str({a}) == "{c}"', f"bool({a} - {c})",
        f'f"{{{a}}}" == "{c}"', f"{a} < {b}", f"W.get({a}, 0) > 1", f"{a} + {b} == {c + d}",
        f"{a} % 2 == 1", f"max({a}, {b}) == {max(c, d)}",
    ])


def _node_local(rng: random.Random, arity: int, role: str, labels: bool) -> str:
    t = _TUPLE[:arity]
    coef = labels and rng.random() < 0.3
    body = _node_atom(rng, t, coef)
    if role == "hyp":
        if labels and rng.random() < 0.5:
            body = (f"L.Implies({_label_test(rng, t)}, {body})" if rng.random() < 0.5
                    else f"({body}) if {_label_test(rng, t)} else ({_node_atom(rng, t, coef)})")
    else:
        r = rng.random()
        if r < 0.35:
            body = f"L.Implies({_node_atom(rng, t, coef)}, {body})"
        elif r < 0.5:
            body = f"L.{rng.choice(['And', 'Or'])}({body}, {_node_atom(rng, t, coef)})"
        if labels:
            r = rng.random()
            if r < 0.4:
                body = f"L.Implies({_label_test(rng, t)}, {body})"
            elif r < 0.7:
                body = f"({body}) if {_label_test(rng, t)} else ({_node_atom(rng, t, coef)})"
            elif r < 0.85:
                body = f"L.Or({_label_test(rng, t)}, {body})"
    return f"lambda a, {', '.join(t)}: {body}"


def _gen_node(rng: random.Random, cid: str, family: str) -> Case:
    """A node claim with linear local functions, with label tests in ``node_labels``; decided
    at sizes up to 4 (``all_sizes`` now and then)."""
    labels = family == "node_labels"
    arity = rng.choice([2, 2, 3])
    hyps = {f"h{n}": (2, _node_local(rng, 2, "hyp", labels)) for n in range(rng.randint(0, 2))}
    concl = _node_local(rng, arity, "concl", labels)
    if not labels and rng.random() < 0.3:  # a sum conclusion, the shape the local lemma is for
        concl = (f"lambda a, i, k: L.Implies(a.d(i, k) > 0, a.sum(lambda j: {rng.choice(['a.d(i, j)', 'a(i, j)'])}) "
                 f"{rng.choice(['>=', '>'])} a.sum(lambda j: {rng.choice(['a.d(k, j)', 'a(k, j)'])}))")
        arity = 2
    w = {n: rng.choice([0, 1, 2]) for n in range(1, 5)}
    symmetric = rng.random() < 0.6
    lo = max(arity, 2)
    hi = rng.choice([lo, min(lo + 1, 4), 4])
    every = rng.random() < 0.2
    h_src = "{" + ", ".join(f'"{k}": Local(2, {v})' for k, (_, v) in hyps.items()) + "}"
    src = (f"W = {w!r}\nbase = node_implies(\"{cid}\", hypotheses={h_src},\n"
           f"                    conclusion=Local({arity}, {concl}), cite=CITE, sizes=({lo}, {hi}),"
           f" symmetric={symmetric})\n")
    src += f"claim = all_sizes(base, \"{cid}.all_m\")\n" if every else "claim = base\n"
    sizes = (lo, 4) if every else (lo, hi)
    node = {"hyps": [v for _, v in hyps.values()], "concl": concl, "arity": arity, "W": w, "sizes": sizes,
            "all_sizes": every}
    return Case(family, cid + (".all_m" if every else ""), src, "node", oracle="node", node=node)


class _NodeLin:
    """The oracle's accessor: a_ij as LP variables ``a[i,j]`` (a_ii = 0)."""

    def __init__(self, m: int) -> None:
        self.m = m
        self.nodes = tuple(range(1, m + 1))

    def __call__(self, i: int, j: int) -> Any:
        return Lin() if i == j else Lin.var(f"a[{i},{j}]")

    def d(self, i: int, j: int) -> Any:
        return self(i, j) - self(j, i)

    def sum(self, f: Callable[[int], Any]) -> Any:
        return sum((f(j) for j in self.nodes), Lin())


class _NodeExact:
    """The oracle's accessor over exact weights (Fractions)."""

    def __init__(self, m: int, a: dict[str, Fraction]) -> None:
        self.m = m
        self.nodes = tuple(range(1, m + 1))
        self.a = a

    def __call__(self, i: int, j: int) -> Fraction:
        return Fraction(0) if i == j else Fraction(self.a.get(f"a[{i},{j}]", 0))

    def d(self, i: int, j: int) -> Fraction:
        return self(i, j) - self(j, i)

    def sum(self, f: Callable[[int], Any]) -> Any:
        return sum((f(j) for j in self.nodes), Fraction(0))


class _Logic:
    """symcal.logic's connectives, for the oracle's formulas and plain bools."""

    And = staticmethod(f_and)
    Or = staticmethod(f_or)
    Not = staticmethod(f_not)
    Implies = staticmethod(f_implies)

    @staticmethod
    def Iff(p: Any, q: Any) -> Any:  # noqa: N802 - symcal.logic's name
        return f_or(f_and(p, q), f_and(f_not(p), f_not(q)))


def _node_fns(case: Case) -> tuple[list[Callable[..., Any]], Callable[..., Any]]:
    ns = {"L": _Logic, "W": dict(case.node["W"])}
    hyps = [eval(h, ns) for h in case.node["hyps"]]  # noqa: S307 - our own generated text
    return hyps, eval(case.node["concl"], ns)  # noqa: S307


def _node_truth_at(case: Case, m: int, weights: dict[str, Fraction]) -> tuple[bool, str]:
    """(statement holds, detail) at size m and exact weights: every hypothesis instance holds
    and some conclusion instance fails -> False."""
    hyps, concl = _node_fns(case)
    acc = _NodeExact(m, weights)
    if any(v < 0 for v in weights.values()):
        return True, "a negative weight"
    for h in hyps:
        for t in itertools.permutations(acc.nodes, 2):
            if not _py_bool(h(acc, *t)):
                return True, f"hypothesis fails at {t}"
    for t in itertools.permutations(acc.nodes, case.node["arity"]):
        if not _py_bool(concl(acc, *t)):
            return False, f"conclusion fails at {t}"
    return True, "the conclusion holds at every tuple"


def _node_search(case: Case) -> tuple[int, dict[str, Fraction], str] | None:
    """An exact counterexample (size, weights) at the claim's sizes by LP; None when every LP is
    infeasible.  Raises Undecidable when a hypothesis is not a conjunction of linear atoms or an
    LP point does not survive the exact re-check."""
    import numpy as np
    from scipy.optimize import linprog

    hyps, concl = _node_fns(case)
    lo, hi = case.node["sizes"]
    for m in range(lo, hi + 1):
        acc = _NodeLin(m)
        var = [f"a[{i},{j}]" for i in acc.nodes for j in acc.nodes if i != j]
        idx = {v: n for n, v in enumerate(var)}
        hyp_atoms: list[Atom] = []
        vacuous = False
        for h in hyps:
            for t in itertools.permutations(acc.nodes, 2):
                d = dnf(h(acc, *t))
                if not d:  # an instance that is false for all weights: the statement holds at this size
                    vacuous = True
                elif len(d) != 1:
                    raise Undecidable("a disjunctive hypothesis")
                else:
                    hyp_atoms += d[0]
        if vacuous:
            continue
        for t in itertools.permutations(acc.nodes, case.node["arity"]):
            for conj in dnf(concl(acc, *t), neg=True):
                atoms = hyp_atoms + conj
                n = len(var) + 1
                rows, rhs = [], []
                for a in atoms:  # e >= 0 (or e - s >= 0):  -coef.x (+ s) <= k
                    row = np.zeros(n)
                    for v, x in a.e.c.items():
                        row[idx[v]] = -float(x)
                    if a.strict:
                        row[-1] = 1.0
                    rows.append(row)
                    rhs.append(float(a.e.k))
                cost = np.zeros(n)
                cost[-1] = -1.0
                res = linprog(cost, A_ub=np.array(rows) if rows else None, b_ub=np.array(rhs) if rows else None,
                              bounds=[(0, None)] * len(var) + [(0, 1)], method="highs")
                if res.status != 0 or (any(a.strict for a in atoms) and -res.fun <= 1e-9):
                    continue
                for den in (1, 2, 6, 12, 60, 1000, 10**6):
                    w = {v: max(Fraction(round(x * den), den), Fraction(0)) for v, x in zip(var, res.x, strict=False)}
                    ok, detail = _node_truth_at(case, m, w)
                    if not ok:
                        return m, w, detail
                raise Undecidable("an LP point did not survive the exact re-check")
    return None


# --------------------------------------------------------------------------- judging

def _witness_values(case: Case, values: dict[str, Any]) -> tuple[dict[str, Fraction], str]:
    """Exact rational values of a sympy claim's witness, or an explanation of why not."""
    import sympy

    out: dict[str, Fraction] = {}
    for s, k in case.symbols.items():
        if s not in values:
            return {}, f"{s} has no value"
        v = values[s]
        if isinstance(v, int | Fraction):
            out[s] = Fraction(v)
            continue
        try:
            e = sympy.nsimplify(v) if isinstance(v, str) else sympy.sympify(v)
        except (sympy.SympifyError, TypeError):
            return {}, f"{s}={v!r} is not a number"
        if not e.is_Rational and e.is_rational is None and e.is_algebraic is not False:
            try:  # an algebraic number of degree 1 is rational; of degree > 1 it is not
                poly = sympy.Poly(sympy.minimal_polynomial(e, sympy.Dummy("t")))
                if poly.degree() == 1:
                    e = sympy.Rational(-poly.all_coeffs()[1], poly.all_coeffs()[0])
                elif poly.degree() > 1 and e.is_real is not False:
                    e = sympy.Symbol("irrational", irrational=True) if k == "rational" or KINDS[k][1] else e
            except (NotImplementedError, ValueError, sympy.polys.polyerrors.PolynomialError):
                pass
        if e.is_Rational:
            out[s] = Fraction(int(e.p), int(e.q))
        elif e.is_rational is False and (k == "rational" or KINDS[k][1]):
            return {}, f"ASSUMPTION: {s}={v} is irrational but {s} is {k}"
        else:
            return {}, f"{s}={v} is not rational"
    return out, ""


def _completed(case: Case, values: dict[str, Any]) -> dict[str, Any]:
    """The witness with a value for each symbol it leaves out (a symbol the statement does not
    need): the first small admissible value that makes the witness do its job, else 0."""
    missing = [s for s in case.symbols if s not in values]
    if not missing:
        return values
    try:
        given = {s: Fraction(v) if isinstance(v, int | Fraction) else Fraction(str(v)) for s, v in values.items()}
    except (ValueError, TypeError):
        return values
    small = [Fraction(v, d) for v in range(-4, 5) for d in (1, 2)]
    options = [[v for v in small if KINDS[case.symbols[s]][2](v)] for s in missing]
    want = "holds" if case.kind == "exists" else "fails"
    first = None
    for combo in itertools.product(*options):
        p = {**given, **dict(zip(missing, combo, strict=True))}
        first = first or p
        try:
            if _at(case, p) == want:
                return p
        except Undecidable:
            continue
    return first or values


def _sympy_statement_at(case: Case, values: dict[str, Any]) -> bool | None:
    """The statement (hyps and not concl, or every constraint for exists) at algebraic values,
    decided by sympy where it can (None otherwise); for irrational witnesses only."""
    import sympy

    ns = {**{n: getattr(sympy, n) for n in ("Abs", "And", "Eq", "Implies", "Max", "Min", "Ne", "Not", "Or",
                                            "Piecewise", "Rational", "log")}}
    syms = {s: sympy.Symbol(s, real=True) for s in case.symbols}
    sub = {syms[s]: sympy.sympify(values[s]) for s in case.symbols if s in values}
    try:
        parts = [sympy.sympify(eval(t, {**ns, **syms})).xreplace(sub)  # noqa: S307
                 for t in case.hyps + ([case.concl] if case.concl else [])]
        parts = [sympy.simplify(p) for p in parts]
    except Exception:  # noqa: BLE001 - an oracle abstains
        return None
    if not all(p in (sympy.true, sympy.false) for p in parts):
        return None
    hs = all(p is sympy.true for p in parts[:len(case.hyps)])
    if case.kind == "exists":
        return hs
    return hs and parts[-1] is sympy.false


def _search(case: Case) -> tuple[dict[str, Fraction], str] | None:
    """A point where the universal statement fails or is undefined (for exists: where every
    constraint holds), re-checked exactly; None when the oracle shows there is none."""
    if case.oracle == "construction":
        if case.truth is None:
            raise Undecidable("truth not known by construction")
        if case.kind == "exists":
            if not case.truth:
                return None
        elif case.truth:
            return None
        p = case.planted
        if p is None:  # pragma: no cover - a generator's mistake
            raise Undecidable("no planted point")
        res = _at(case, p)
        want = "holds" if case.kind == "exists" else ("fails", "undefined")
        if res not in want:
            raise Undecidable(f"the planted point does not do what it should ({res})")
        return p, res
    if case.oracle == "linear":
        found = linear_search(case.hyps if case.kind == "implies" else [], case.concl if case.kind == "implies"
                              else "And(" + ", ".join(case.hyps) + ")", case.symbols, exists=case.kind == "exists")
        if found is None:
            return None
        res = _at(case, found[0])
        want = "holds" if case.kind == "exists" else ("fails", "undefined")
        if res not in want:
            raise Undecidable(f"the oracle's point does not re-check ({res})")
        return found[0], res
    for p in _points(case):
        res = _at(case, p)
        if (case.kind == "exists" and res == "holds") or (case.kind != "exists" and res in ("fails", "undefined")):
            return p, res
    return None


def _at(case: Case, p: dict[str, Fraction]) -> str:
    """At exact values: for implies 'fails' / 'holds' / 'vacuous' / 'undefined'; for exists
    'holds' / 'fails' / 'undefined'; 'inadmissible: ...' when a value breaks its symbol's assumption."""
    for s, k in case.symbols.items():
        if not KINDS[k][2](p[s]):
            return f"inadmissible: {s}={p[s]} but {s} is declared {KINDS[k][0]}"
    try:
        hs = all(py_eval(h, p) for h in case.hyps)
    except Undefined:
        return "undefined"
    if case.kind == "exists":
        return "holds" if hs else "fails"
    if not hs:
        return "vacuous"
    try:
        return "holds" if py_eval(case.concl, p) else "fails"
    except Undefined:
        return "undefined"


def _show(p: dict[str, Fraction]) -> str:
    return ", ".join(f"{k}={v}" for k, v in p.items())


def judge(case: Case, verdict: Any) -> tuple[str, str]:
    """(``"ok"`` | ``"false"`` | ``"abstain"``, detail) for a verdict on the case: ``false`` only
    with an exact certificate (see the module docstring), ``abstain`` when the oracle cannot
    decide what it would need to."""
    from symcal.verdicts import Status

    st = verdict.status
    if st not in (Status.PROVED, Status.REFUTED, Status.WITNESSED):
        return "ok", ""
    try:
        if case.kind == "node":
            return _judge_node(case, verdict)
        w = verdict.witness
        if st is Status.PROVED:
            if case.kind == "exists":
                return "false", "an existence claim came back proved"
            found = _search(case)
            if found is None:
                return "ok", ""
            p, res = found
            if res == "undefined" and "defined" in (verdict.scope or ""):
                return "ok", ""  # the scope excludes where it is undefined, or says it covers the claim as built
            return "false", (f"proved, but at {_show(p)} the hypotheses hold and the conclusion "
                             + ("is undefined" if res == "undefined" else "fails") + " (exact re-check)")
        if w is not None and not (case.kind == "exists" and st is Status.REFUTED):
            vals, why = _witness_values(case, _completed(case, w.values))
            if why.startswith("ASSUMPTION"):
                return "false", f"{st.value} with a witness that breaks an assumption: {why[12:]}"
            if not vals:
                ok = _sympy_statement_at(case, w.values)
                if ok is None:
                    return "abstain", f"witness not exact rational ({why}) and sympy cannot decide it"
                return ("ok", "") if ok else ("false", f"{st.value}, but the witness {w.values} does not "
                                              "do it (sympy, exactly)")
            res = _at(case, vals)
            want = "holds" if case.kind == "exists" else "fails"
            if res == want:
                return "ok", ""
            shown = _show(vals) + (f" (values of {', '.join(sorted(set(vals) - set(w.values)))} not given: "
                                   "none of the small admissible ones works)" if set(vals) - set(w.values) else "")
            if res.startswith("inadmissible"):
                return "false", f"{st.value} with witness {shown}, which breaks an assumption ({res[14:]})"
            return "false", f"{st.value} with witness {shown}, but there the statement {res} (exact)"
        if st is Status.WITNESSED:
            return "false", "witnessed without a witness"
        found = _search(case)  # a refuted existence (an unsat query) or a refutation without witness
        if found is None:
            return "ok", ""
        p, res = found
        if case.kind == "exists":
            return "false", f"refuted, but {_show(p)} satisfies every constraint (exact re-check)"
        return "ok", ""
    except (Undecidable, NonLinear) as e:
        return "abstain", str(e)


def _judge_node(case: Case, verdict: Any) -> tuple[str, str]:
    from symcal.verdicts import Status

    if verdict.status is Status.PROVED:
        found = _node_search(case)
        if found is None:
            return "ok", ""
        m, w, detail = found
        shown = ", ".join(f"{k}={v}" for k, v in w.items() if v) + " (others 0)" if any(w.values()) \
            else "all weights 0"
        return "false", f"proved, but at m={m} with {shown} every hypothesis holds and the {detail} (exact re-check)"
    if verdict.status is Status.REFUTED:
        w = verdict.witness
        if w is None:
            found = _node_search(case)
            return ("ok", "") if found is not None else ("abstain", "refuted without a witness; LP finds none")
        m = w.size or _size_of(w.values)
        try:
            vals = {k: Fraction(v) if isinstance(v, int | Fraction) else Fraction(str(v)) for k, v in w.values.items()}
        except (ValueError, TypeError):
            return "abstain", f"witness values not exact: {w.values}"
        ok, detail = _node_truth_at(case, m, vals)
        if not ok:
            return "ok", ""
        return "false", f"refuted with witness m={m} {w.values}, but there {detail} (exact)"
    return "false", f"a node claim came back {verdict.status.value}"


def _size_of(values: dict[str, Any]) -> int:
    nodes = [int(x) for k in values for x in k[2:-1].split(",")]
    return max(nodes) if nodes else 2


# --------------------------------------------------------------------------- families and the run

FAMILIES: dict[str, tuple[Callable[[random.Random, str, str], Case], int]] = {
    # family -> (generator, weight in the mix)
    "int_poly": (_gen_int, 3),
    "int_pwl": (_gen_int, 2),
    "assume": (_gen_int, 3),
    "exists_int": (_gen_int_exists, 2),
    "real_linear": (_gen_real_linear, 3),
    "exists_real": (_gen_real_exists, 1),
    "real_poly": (_gen_real_poly, 2),
    "rational": (_gen_rational, 2),
    "partial": (_gen_real_linear, 1),
    "partial_int": (_gen_int_partial, 2),
    "node": (_gen_node, 2),
    "node_labels": (_gen_node, 3),
}


def generate(n: int, seed: int = 0, families: Sequence[str] | None = None) -> list[Case]:
    """``n`` cases from a seeded ``random.Random``, families mixed by their weights."""
    from symcal.errors import invalid

    names = list(families) if families else list(FAMILIES)
    for f in names:
        if f not in FAMILIES:
            raise invalid("families", f, f"one of {', '.join(FAMILIES)}")
    rng = random.Random(seed)
    weights = [FAMILIES[f][1] for f in names]
    out = []
    for k in range(n):
        fam = rng.choices(names, weights)[0]
        out.append(FAMILIES[fam][0](rng, f"fuzz2026.s{seed}_{k}", fam))
    return out


def build(case: Case) -> Any:
    """The claim the case's source builds (a SymcalError propagates: a refusal)."""
    ns: dict[str, Any] = {}
    exec(compile(HEADER + case.source, f"<{case.cid}>", "exec"), ns)  # noqa: S102 - our own generated text
    return ns["claim"]


@dataclass
class FalseVerdict:
    family: str
    claim_id: str
    status: str
    why: str
    reproducer: str

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class FamilyStats:
    claims: int = 0
    proved: int = 0
    refuted: int = 0
    witnessed: int = 0
    unknown: int = 0
    refused: int = 0  # a SymcalError while building the claim
    error: int = 0  # an error verdict (or another exception while building)
    abstained: int = 0  # decisive verdicts the oracle could not judge
    false: int = 0

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class FuzzReport:
    families: dict[str, FamilyStats] = field(default_factory=dict)
    false_verdicts: list[FalseVerdict] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (claim id, message)
    abstentions: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    seed: int = 0

    def total(self, key: str) -> int:
        return sum(getattr(s, key) for s in self.families.values())

    @property
    def claims(self) -> int:
        return self.total("claims")

    def summary(self) -> str:
        n = self.claims
        lines = [f"{'family':<12} {'claims':>6} {'proved':>6} {'refuted':>7} {'witn.':>5} {'unknown':>7} "
                 f"{'refused':>7} {'error':>5} {'abst.':>5} {'FALSE':>5}"]
        for f, s in sorted(self.families.items()):
            lines.append(f"{f:<12} {s.claims:>6} {s.proved:>6} {s.refuted:>7} {s.witnessed:>5} {s.unknown:>7} "
                         f"{s.refused:>7} {s.error:>5} {s.abstained:>5} {s.false:>5}")
        rate = n / self.seconds if self.seconds else 0.0
        lines.append(f"{n} claims (seed {self.seed}), {len(self.false_verdicts)} false verdicts, unknown "
                     f"{100 * self.total('unknown') / max(n, 1):.1f}%, {self.seconds:.1f} s ({rate:.1f} claims/s)")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"claims": self.claims, "seed": self.seed, "seconds": round(self.seconds, 2),
                "false_verdicts": [f.to_json() for f in self.false_verdicts],
                "families": {f: s.to_json() for f, s in sorted(self.families.items())},
                "errors": [list(e) for e in self.errors], "abstentions": [list(a) for a in self.abstentions]}


def run_fuzz(n: int = 300, *, seed: int = 0, timeout: float = 2.0, families: Sequence[str] | None = None,
             jobs: int = 1, isolate: bool = True, progress: Callable[[str], None] | None = None) -> FuzzReport:
    """Generate ``n`` claims (seeded), decide them with :func:`symcal.check_many` (``timeout``
    CPU seconds each, ``jobs`` workers; ``isolate=False`` decides in this process, which saves
    the fork of a worker per claim but has no backstop beyond the solver's own budget) and
    judge every decisive verdict with the oracles."""
    from symcal.errors import SymcalError
    from symcal.runner import check_many
    from symcal.verdicts import Status

    start = time.monotonic()
    report = FuzzReport(seed=seed)
    cases = generate(n, seed, families)
    built: list[tuple[Case, Any]] = []
    for case in cases:
        stats = report.families.setdefault(case.family, FamilyStats())
        stats.claims += 1
        try:
            built.append((case, build(case)))
        except SymcalError:
            stats.refused += 1
        except Exception as e:  # noqa: BLE001 - counted and listed, never a verdict
            stats.error += 1
            report.errors.append((case.cid, f"building: {type(e).__name__}: {e}"))
    verdicts = check_many([c for _, c in built], timeout=timeout, jobs=jobs, isolate=isolate, progress=progress)
    for (case, _), v in zip(built, verdicts, strict=True):
        stats = report.families[case.family]
        if v.status is Status.ERROR:
            stats.error += 1
            report.errors.append((case.cid, v.reason))
            continue
        key = v.status.value if v.status.value in ("proved", "refuted", "witnessed") else "unknown"
        setattr(stats, key, getattr(stats, key) + 1)
        outcome, why = judge(case, v)
        if outcome == "false":
            stats.false += 1
            report.false_verdicts.append(FalseVerdict(case.family, case.cid, v.status.value, why,
                                                      case.reproducer(timeout)))
        elif outcome == "abstain":
            stats.abstained += 1
            report.abstentions.append((case.cid, why))
    report.seconds = time.monotonic() - start
    return report
