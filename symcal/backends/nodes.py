"""Node claims: statements about edge weights a_ij >= 0 on m nodes (``node_implies``).

The engine, not the user, writes the fast query (ARCHITECTURE.md, *Encoding for speed*):

* **difference variables**: when the claim only uses ``a.d(i, j) = a_ij - a_ji``, one real
  variable per unordered pair replaces two non-negative ones (any real difference is
  realised by a_ij = max(d, 0), a_ji = max(-d, 0));
* **symmetry breaking**: hypotheses and conclusion are conjunctions over all ordered
  tuples of the same local constraint; when the claim is invariant under relabelling nodes,
  the failing tuple of a counterexample can be taken to be (1, ..., s).  This precondition is
  decided on the claim's formulas, never on how the user's Python behaves (issue 23): at
  size m every instance is built once on symbolic weights (:class:`NodeFormulas`), and
  :func:`formula_symmetry` checks exactly that the relabellings of the generators (1 2) and
  (1 2 ... m) of S_m map the hypothesis formulas onto themselves and that every conclusion
  formula is the fixed tuple's one relabelled.  The query is built from those same formulas.
  For all sizes (the local lemma), :func:`label_free_failure` adds opaque nodes that carry no
  label.  When a check fails the engine falls back to one query per conclusion tuple, and the
  evidence says which reduction was used and why;
* **lazy hypothesis instances**: the query starts with the instances on the fixed nodes
  plus one other node; a model is checked exactly against *all* instances and the
  violated ones are added.  Unsat with a subset of the hypotheses implies unsat with all;
* **one query per case** when the claim is not symmetric;
* **all sizes by a local lemma**: when the conclusion is ``guard -> S REL 0`` with sums over
  nodes, S splits into a base term on the fixed nodes and one term per other node;
  proving base REL 0 and term >= 0 from the hypotheses on those few nodes covers every m.

Every counterexample is re-checked by evaluating the claim's own functions on the exact
a_ij (Fractions), independently of the encoding.
"""

from __future__ import annotations

import collections
import itertools
import weakref
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends import z3_backend
from symcal.backends.base import Budget, Outcome
from symcal.backends.translate import Translator
from symcal.claims.core import Local, NodeSpec
from symcal.errors import NoBackendAvailable
from symcal.verdicts import Composite, SmtResult, Status, Witness

__all__ = [
    "ExactWeights",
    "recheck",
    "decide_node",
    "decide_local_lemma",
    "naive_constraints",
    "uses_raw_weights",
]


class _RawUsed(Exception):
    pass


class ExactWeights:
    """Accessor over exact weights a_ij (Fractions): the independent evaluator."""

    def __init__(self, m: int, a: dict[tuple[int, int], Fraction]) -> None:
        self.m = m
        self.a = a
        self.nodes = tuple(range(1, m + 1))

    def __call__(self, i: int, j: int) -> Fraction:
        return self.a.get((i, j), Fraction(0))

    def d(self, i: int, j: int) -> Fraction:
        return self(i, j) - self(j, i)

    def sum(self, f: Callable[[int], Any]) -> Any:
        return sum((f(j) for j in self.nodes), Fraction(0))


class _Z3Weights:
    def __init__(self, m: int, raw: bool) -> None:
        import z3

        self.z3 = z3
        self.m = m
        self.raw = raw
        self.nodes = tuple(range(1, m + 1))
        if raw:
            self.vars = {(i, j): z3.Real(f"a_{i}_{j}") for i in self.nodes for j in self.nodes if i != j}
        else:
            self.vars = {(i, j): z3.Real(f"d_{i}_{j}") for i in self.nodes for j in self.nodes if i < j}

    def __call__(self, i: int, j: int) -> Any:
        if not self.raw:
            raise _RawUsed
        return self.vars[(i, j)] if i != j else self.z3.RealVal(0)

    def d(self, i: int, j: int) -> Any:
        if i == j:
            return self.z3.RealVal(0)
        if self.raw:
            return self.vars[(i, j)] - self.vars[(j, i)]
        return self.vars[(i, j)] if i < j else -self.vars[(j, i)]

    def sum(self, f: Callable[[int], Any]) -> Any:
        return self.z3.Sum([f(j) for j in self.nodes])

    def nonneg(self) -> list[Any]:
        return [v >= 0 for v in self.vars.values()] if self.raw else []

    def weights_from(self, values: dict[str, Fraction]) -> dict[tuple[int, int], Fraction]:
        a: dict[tuple[int, int], Fraction] = {}
        for (i, j), v in self.vars.items():
            x = values.get(str(v), Fraction(0))
            if self.raw:
                a[(i, j)] = x
            else:  # realise the difference with non-negative weights
                a[(i, j)] = max(x, Fraction(0))
                a[(j, i)] = max(-x, Fraction(0))
        return a


class _Generic(int):
    """The generic 'other node' J of a local lemma (prints as J, sorts last)."""

    def __new__(cls) -> _Generic:
        return super().__new__(cls, 10**9)

    def __str__(self) -> str:
        return "J"

    def __format__(self, spec: str) -> str:
        return "J"

    __repr__ = __str__


OTHERS = sympy.Function("OTHERS")  # sum over all nodes outside the fixed tuple


class _SympyWeights:
    def __init__(self, fixed: tuple[int, ...], generic: bool, real: bool = True) -> None:
        self.real = real
        self.fixed = fixed
        self.J = _Generic() if generic else None
        self.nodes = fixed + ((self.J,) if self.J is not None else ())
        self.raw_symbols: set[sympy.Symbol] = set()
        self.symbol_nodes: dict[sympy.Symbol, tuple[int, int]] = {}

    def _sym(self, prefix: str, i: int, j: int) -> sympy.Symbol:
        s = sympy.Symbol(f"{prefix}_{i}_{j}", real=True) if self.real else sympy.Symbol(f"{prefix}_{i}_{j}")
        self.symbol_nodes[s] = (i, j)
        return s

    def __call__(self, i: int, j: int) -> Any:
        if i == j:
            return sympy.Integer(0)
        s = self._sym("a", i, j)
        self.raw_symbols.add(s)
        return s

    def d(self, i: int, j: int) -> Any:
        if i == j:
            return sympy.Integer(0)
        if i < j:
            return self._sym("d", i, j)
        return -self._sym("d", j, i)

    def sum(self, f: Callable[[int], Any]) -> Any:
        base = sum((f(j) for j in self.fixed), sympy.Integer(0))
        if self.J is None:
            return base
        return base + OTHERS(sympy.expand(f(self.J)))


def _instances(local: Local, nodes: Iterable[int]) -> Iterable[tuple[int, ...]]:
    return itertools.permutations(tuple(nodes), local.arity)


# --------------------------------------------------------------------------- the claim's formulas
#
# Every reduction below is decided on these formulas, and the solver query is built from the
# same formulas (translated to z3), never from a second run of the user's functions: what was
# checked is what was asked (issue 23).  A counterexample is still re-checked by running the
# user's own functions on exact weights (:func:`recheck`).


def _truth_value(x: Any, what: str) -> Any:
    """A Local's value as a sympy Boolean (a Python bool becomes true/false)."""
    if isinstance(x, bool):
        return sympy.true if x else sympy.false
    if isinstance(x, sympy.logic.boolalg.Boolean):
        return x
    raise NoBackendAvailable(f"{what} evaluated to {x!r} ({type(x).__name__}), not a truth value")


def _fvar(name: str) -> sympy.Symbol:
    """A weight variable of the claim's formulas.  Without sympy assumptions: building a
    relation on real symbols re-derives assumptions and is four times slower, and every
    simplification sympy makes for unrestricted symbols also holds for real ones."""
    return sympy.Symbol(name)


class _Tracking:
    """The formula accessor, noting whether a function read anything that depends on the size
    (a sum over nodes, ``a.nodes``, ``a.m``)."""

    def __init__(self, inner: _SympyWeights) -> None:
        self._inner = inner
        self.touched = False

    def __call__(self, i: int, j: int) -> Any:
        return self._inner(i, j)

    def d(self, i: int, j: int) -> Any:
        return self._inner.d(i, j)

    def sum(self, f: Callable[[int], Any]) -> Any:
        self.touched = True
        return self._inner.sum(f)

    @property
    def nodes(self) -> tuple[int, ...]:
        self.touched = True
        return self._inner.nodes

    @property
    def m(self) -> int:
        self.touched = True
        return len(self._inner.nodes)


_FORMULAS: weakref.WeakKeyDictionary[Callable[..., Any], dict[tuple[int, ...], Any]] = weakref.WeakKeyDictionary()


class NodeFormulas:
    """The claim at size m as formulas on symbolic weights: one sympy Boolean per hypothesis
    instance ``hyps[(name, t)]`` and per conclusion tuple ``concl[t]``.

    Variables: ``d_i_j`` (i < j, real) when the functions read only differences, else the
    non-negative ``a_i_j`` (a difference read beside raw weights is substituted by
    ``a_i_j - a_j_i``).  Which of the two is decided on the formulas themselves."""

    def __init__(self, spec: NodeSpec, m: int, acc: Any = None, nodes: tuple[Any, ...] | None = None) -> None:
        self.m = m
        self.spec = spec
        cached = acc is None
        acc = _Tracking(_SympyWeights(tuple(range(1, m + 1)), generic=False, real=False)) if acc is None else acc
        nodes = tuple(range(1, m + 1)) if nodes is None else nodes
        self.labels = {id(n): k + 1 for k, n in enumerate(nodes)}  # by identity: opaque nodes refuse hashing

        def value(loc: Local, t: tuple[Any, ...], what: str) -> Any:
            # a function that read no sum, a.nodes or a.m at a tuple gives the same formula there at
            # every size: it is built once (the formulas are still checked at each size)
            memo = _FORMULAS.setdefault(loc.fn, {}) if cached else None
            lab = self._lab(t)
            if memo is not None and lab in memo:
                return memo[lab]
            if cached:
                acc.touched = False
            f = _truth_value(loc.fn(acc, *t), f"{what} at {lab}")
            if memo is not None and not acc.touched:
                memo[lab] = f
            return f

        hyps: dict[tuple[str, tuple[int, ...]], Any] = {}
        for name, h in spec.hypotheses.items():
            for t in _instances(h, nodes):
                hyps[(name, self._lab(t))] = value(h, t, f"hypothesis {name!r}")
        concl = {self._lab(t): value(spec.conclusion, t, "the conclusion")
                 for t in _instances(spec.conclusion, nodes)}
        names = {s.name for f in itertools.chain(hyps.values(), concl.values()) for s in f.free_symbols}
        self.raw = any(n.startswith("a_") for n in names)
        if self.raw:  # d_ij = a_ij - a_ji, exactly
            sub = {_fvar(n): _fvar(f"a_{i}_{j}") - _fvar(f"a_{j}_{i}")
                   for n in names if n.startswith("d_") for _, i, j in [n.split("_")]}
            if sub:
                hyps = {k: v.xreplace(sub) for k, v in hyps.items()}
                concl = {k: v.xreplace(sub) for k, v in concl.items()}
        self.hyps = hyps
        self.concl = concl

    def _lab(self, t: tuple[Any, ...]) -> tuple[int, ...]:
        return tuple(self.labels[id(n)] for n in t)

    def variables(self) -> list[sympy.Symbol]:
        nodes = range(1, self.m + 1)
        if self.raw:
            return [_fvar(f"a_{i}_{j}") for i in nodes for j in nodes if i != j]
        return [_fvar(f"d_{i}_{j}") for i in nodes for j in nodes if i < j]

    def relabel_names(self, perm: dict[int, int]) -> dict[str, tuple[int, str]]:
        """The relabelling on variable names: name -> (sign, image)."""
        out: dict[str, tuple[int, str]] = {}
        for s in self.variables():
            prefix, i, j = s.name.split("_")
            pi, pj = perm[int(i)], perm[int(j)]
            if self.raw or pi < pj:
                out[s.name] = (1, f"{prefix}_{pi}_{pj}")
            else:
                out[s.name] = (-1, f"d_{pj}_{pi}")
        return out

    def relabelling(self, perm: dict[int, int]) -> dict[sympy.Symbol, Any]:
        """The same relabelling as a substitution x -> x∘π on the formulas' symbols."""
        return {_fvar(name): sign * _fvar(image) for name, (sign, image) in self.relabel_names(perm).items()}


_REL_NORMAL = {sympy.StrictGreaterThan: (">", 1), sympy.GreaterThan: (">=", 1),
               sympy.StrictLessThan: (">", -1), sympy.LessThan: (">=", -1), sympy.Eq: ("=", 0), sympy.Ne: ("!=", 0)}

# A formula's key: a canonical nested tuple, so that equal keys mean equal formulas and a
# relabelling acts on keys without rebuilding sympy objects (which re-derives assumptions and
# is slow).  A polynomial is a frozenset of (monomial, coefficient), a monomial a sorted tuple
# of (variable name, exponent); a relation p > 0, p >= 0, p = 0 or p != 0 (the sign of p for
# = and != chosen canonically); connectives with their arguments as a frozenset where the
# connective is symmetric.  None: not of this shape (the caller compares sympy forms instead).
Key = Any


def _poly_key(e: Any, expanded: bool = False) -> frozenset[Any] | None:
    """A polynomial's key; None when ``e`` is not a polynomial with rational coefficients.  An
    expression that is already a sum of monomials is read as it is; otherwise expanded first."""
    e = sympy.sympify(e)
    if expanded and not e.is_polynomial():
        return None
    out = []
    for term, coeff in e.as_coefficients_dict().items():
        if not isinstance(coeff, sympy.Rational):
            return None if expanded else _poly_key(sympy.expand(e), expanded=True)
        mono = []
        if term != 1:
            for base, ex in term.as_powers_dict().items():
                if not (isinstance(base, sympy.Symbol) and isinstance(ex, sympy.Integer) and ex > 0):
                    return None if expanded else _poly_key(sympy.expand(e), expanded=True)
                mono.append((base.name, int(ex)))
        if coeff != 0:
            out.append((tuple(sorted(mono)), Fraction(int(coeff.p), int(coeff.q))))
    return frozenset(out)


def _signed(op: str, poly: frozenset[Any]) -> Key:
    if op in ("=", "!="):
        neg = frozenset((mono, -c) for mono, c in poly)
        poly = min(poly, neg, key=lambda p: sorted(p))
    return (op, poly)


_CONNECTIVES = {sympy.And: "and", sympy.Or: "or", sympy.Xor: "xor", sympy.Equivalent: "iff"}


_KEY_CACHE: dict[Any, Key | None] = {}
KEY_CACHE_SIZE = 200_000  # formulas whose key is kept (the cache is emptied when full)


def formula_key(f: Any) -> Key | None:
    """The canonical key of a Boolean formula of polynomial relations (see ``Key``); remembered for the
    formulas seen last (equal formulas have equal keys: the symmetry and the faithfulness checks share them)."""
    try:
        return _KEY_CACHE[f]
    except (KeyError, TypeError):
        pass
    k = _formula_key(f)
    if len(_KEY_CACHE) >= KEY_CACHE_SIZE:
        _KEY_CACHE.clear()
    try:
        _KEY_CACHE[f] = k
    except TypeError:
        pass
    return k


def _formula_key(f: Any) -> Key | None:
    if f is sympy.true or f is sympy.false:
        return ("T",) if f is sympy.true else ("F",)
    if isinstance(f, sympy.Rel):
        op, sign = _REL_NORMAL.get(type(f), (None, 0))
        poly = _poly_key((f.lhs - f.rhs) * (sign or 1)) if op else None
        return None if poly is None else _signed(op, poly)
    if isinstance(f, sympy.Not):
        k = formula_key(f.args[0])
        return None if k is None else ("not", k)
    if isinstance(f, sympy.Implies):
        k1, k2 = formula_key(f.args[0]), formula_key(f.args[1])
        return None if k1 is None or k2 is None else ("=>", k1, k2)
    name = _CONNECTIVES.get(type(f))
    if name is not None:
        ks = [formula_key(g) for g in f.args]
        if any(k is None for k in ks):
            return None
        # xor counts repeated arguments: its key is a multiset (and, or, iff: a set)
        return (name, frozenset(collections.Counter(ks).items()) if name == "xor" else frozenset(ks))
    return None


def _relabel_key(k: Key, var: dict[str, tuple[int, str]]) -> Key:
    """The key of the relabelled formula; ``var`` maps a variable to (sign, its image)."""
    head = k[0]
    if head in ("T", "F"):
        return k
    if head in (">", ">=", "=", "!="):
        out = []
        for mono, c in k[1]:
            sign = 1
            new = []
            for name, ex in mono:
                s, image = var[name]
                sign *= s**ex
                new.append((image, ex))
            out.append((tuple(sorted(new)), c * sign))
        return _signed(head, frozenset(out))
    if head == "not":
        return ("not", _relabel_key(k[1], var))
    if head == "=>":
        return ("=>", _relabel_key(k[1], var), _relabel_key(k[2], var))
    if head == "xor":
        return (head, frozenset((_relabel_key(g, var), n) for g, n in k[1]))
    return (head, frozenset(_relabel_key(g, var) for g in k[1]))


def _normal(f: Any) -> Any:
    """A sympy normal form for formulas without a key: each relation as
    ``expand(lhs - rhs) > 0`` / ``>= 0`` (``=``/``!=`` with a canonical sign)."""
    if isinstance(f, sympy.Rel) and type(f) in _REL_NORMAL:
        op, sign = _REL_NORMAL[type(f)]
        e = sympy.expand(f.lhs - f.rhs)
        if op in ("=", "!="):
            return type(f)(min(e, sympy.expand(-e), key=sympy.default_sort_key), 0)
        return (sympy.StrictGreaterThan if op == ">" else sympy.GreaterThan)(sign * e, 0)
    if isinstance(f, sympy.logic.boolalg.BooleanFunction):
        return f.func(*(_normal(a) for a in f.args))
    return f


def _same(f: Any, g: Any) -> bool:
    return f == g or _normal(f) == _normal(g)


def formula_symmetry(fs: NodeFormulas) -> tuple[bool, str]:
    """Decide exactly, on the claim's formulas at size m, whether the failing tuple may be fixed
    to (1, ..., s):

    * the set of hypothesis formulas is mapped onto itself by the relabellings of the
      generators (1 2) and (1 2 ... m) of S_m, hence by every relabelling; and
    * every conclusion formula is the fixed tuple's formula relabelled: concl[t] equals
      concl[(1..s)] under a permutation sending (1..s) to t.

    Then a counterexample failing concl[t], relabelled, satisfies every hypothesis formula and
    fails concl[(1..s)].  Equality of canonical keys (:func:`formula_key`; sympy normal forms
    for formulas without one) is a sufficient test: a failure only means the reduction is not
    used.  Returns (passed, the evidence text)."""
    m = fs.m
    s = fs.spec.conclusion.arity
    nodes = tuple(range(1, m + 1))
    gens = [{**{i: i for i in nodes}, 1: 2, 2: 1}] if m >= 2 else []
    if m >= 3:
        gens.append({i: i % m + 1 for i in nodes})
    keys = {k: formula_key(f) for k, f in fs.hyps.items()}
    key_set = {k for k in keys.values() if k is not None}
    hyp_normal: set[Any] | None = None
    for perm in gens:
        var = fs.relabel_names(perm)
        sub: dict[sympy.Symbol, Any] | None = None
        for key, f in fs.hyps.items():
            k = keys[key]
            if k is not None:
                if _relabel_key(k, var) in key_set:
                    continue
                g_text = "a formula"
            else:
                sub = sub or fs.relabelling(perm)
                g = f.xreplace(sub)
                if hyp_normal is None:
                    hyp_normal = {_normal(h) for h in fs.hyps.values()}
                if _normal(g) in hyp_normal:
                    continue
                g_text = sympy.sstr(g)
            return False, (f"hypothesis {key[0]!r} at {key[1]} ({sympy.sstr(f)}) relabelled by {_cycle_text(perm)} "
                           f"is {g_text} not among the hypothesis formulas at m = {m} "
                           f"(does a function test node labels?)")
    fixed = tuple(range(1, s + 1))
    c0 = fs.concl[fixed]
    k0 = formula_key(c0)
    for t, f in fs.concl.items():
        rest = [i for i in nodes if i not in t]
        perm = {**dict(zip(fixed, t, strict=True)), **dict(zip(range(s + 1, m + 1), rest, strict=True))}
        kt = formula_key(f) if k0 is not None else None
        if kt is not None and _relabel_key(k0, fs.relabel_names(perm)) == kt:
            continue
        g = c0.xreplace(fs.relabelling(perm))
        if not _same(g, f):
            return False, (f"the conclusion at {t} is {sympy.sstr(f)} but the conclusion at {fixed} relabelled to "
                           f"{t} is {sympy.sstr(g)} at m = {m} (does a function test node labels?)")
    return True, (f"node symmetry justified on the formulas at m = {m}: the {len(fs.hyps)} hypothesis formulas are "
                  f"mapped onto themselves by the relabellings (1 2) and (1 2 ... {m}), and each of the "
                  f"{len(fs.concl)} conclusion formulas is the fixed tuple's formula relabelled (exact check)")


def _cycle_text(perm: dict[int, int]) -> str:
    moved = [i for i in sorted(perm) if perm[i] != i]
    return "(1 2)" if len(moved) == 2 else f"(1 2 ... {len(perm)})"


class _LabelUsed(Exception):
    pass


class _Opaque:
    """A node that carries no label: it can be compared with another node (by identity) and
    passed to the accessor, nothing else.  Comparing it with anything that is not a node,
    hashing, ordering, arithmetic, conversion, truth testing and printing raise, so a
    function that runs on opaque nodes reads no label through Python's operators."""

    __slots__ = ("__weakref__",)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Opaque):
            return self is other
        raise _LabelUsed(f"a node was compared with {type(other).__name__} {other!r}")

    def __ne__(self, other: object) -> bool:
        return not self == other

    def _refuse(self, *args: Any) -> Any:
        raise _LabelUsed("a node label was hashed, ordered, converted, tested or printed")

    __hash__ = __bool__ = __len__ = __iter__ = __contains__ = __getitem__ = _refuse  # type: ignore[assignment]
    __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __mod__ = __rmod__ = __neg__ = __pos__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __pow__ = __rpow__ = __abs__ = _refuse
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = __invert__ = _refuse
    __int__ = __index__ = __float__ = __complex__ = __round__ = __trunc__ = __floor__ = __ceil__ = _refuse
    __str__ = __repr__ = __format__ = __bytes__ = _refuse  # type: ignore[assignment]


class _OpaqueWeights:
    """The sympy accessor on opaque nodes; ``a.nodes`` (whose order is the labels' order) and
    ``a.m`` are refused; ``a.sum`` and the weights are allowed.  The labels live here, not in
    the nodes."""

    def __init__(self, inner: _SympyWeights) -> None:
        self._inner = inner
        self._node = {lab: _Opaque() for lab in inner.nodes}
        self._label = {id(n): lab for lab, n in self._node.items()}

    def node(self, label: int) -> _Opaque:
        return self._node[label]

    def _lab(self, i: Any) -> int:
        if not isinstance(i, _Opaque) or id(i) not in self._label:
            raise _LabelUsed(f"the accessor was given {type(i).__name__}, not a node")
        return self._label[id(i)]

    def __call__(self, i: Any, j: Any) -> Any:
        return self._inner(self._lab(i), self._lab(j))

    def d(self, i: Any, j: Any) -> Any:
        return self._inner.d(self._lab(i), self._lab(j))

    def sum(self, f: Callable[[Any], Any]) -> Any:
        inner = self._inner
        base = sum((f(self._node[j]) for j in inner.fixed), sympy.Integer(0))
        if inner.J is None:
            return base
        return base + OTHERS(sympy.expand(f(self._node[inner.J])))

    @property
    def nodes(self) -> Any:
        raise _LabelUsed("a.nodes was read (its order is the order of the labels)")

    @property
    def m(self) -> Any:
        raise _LabelUsed("a.m was read (a function may behave differently at other sizes)")


LABEL_CHECK_SIZES = 3  # integer-label sizes checked exactly for an all-size proof: minimum .. minimum + 2


def label_free_failure(spec: NodeSpec, minimum: int, budget: Budget | None = None,
                       label: str = "") -> tuple[str | None, str]:
    """Whether node symmetry can be used at *every* size (the all-size local lemma), and the
    evidence: (None, what passed) or (the reason, "").

    Python cannot be inspected for every label, so three exact tests are combined, and the
    evidence says so: (1) every function runs on opaque nodes (node == node only; comparing a
    node with anything else, hashing, ordering, arithmetic, conversion, truth tests and
    printing are refused); (2) on a symbolic set of opaque nodes its formulas are equivariant
    under relabelling (:func:`formula_symmetry`); (3) at integer labels its formulas are
    equivariant at the sizes minimum .. minimum + 2."""
    s = max([spec.conclusion.arity] + [h.arity for h in spec.hypotheses.values()])
    n = max(s + 1, 3)
    acc = _OpaqueWeights(_SympyWeights(tuple(range(1, n + 1)), generic=False, real=False))
    try:
        fs = NodeFormulas(spec, n, acc, tuple(acc.node(i) for i in range(1, n + 1)))
    except _LabelUsed as e:
        return f"a function uses node labels beyond node equality ({e})", ""
    except Exception as e:  # noqa: BLE001 - any failure: no all-size symmetry
        return f"a function could not be run on opaque nodes ({type(e).__name__}: {e})", ""
    ok, why = formula_symmetry(fs)
    if not ok:
        return f"on {n} opaque nodes: {why}", ""
    try:
        plain, faithless = faithful_formulas(spec, n, budget or Budget(5.0), label)
    except Exception as e:  # noqa: BLE001
        return f"a function could not be evaluated at m = {n} ({type(e).__name__}: {e})", ""
    if faithless is not None:
        return faithless, ""
    for what, mine, theirs in (("hypothesis", fs.hyps, plain.hyps), ("conclusion", fs.concl, plain.concl)):
        for key, f in mine.items():
            if key not in theirs or not _same(f, theirs[key]):
                return (f"the {what} formula at {key} on opaque nodes, {sympy.sstr(f)}, differs from the one at "
                        f"integer labels, {sympy.sstr(theirs.get(key))} (does a function test the type of a node?)"), ""
    # from the smallest size the claim covers: a hypothesis wider than m holds vacuously there (m = 2 with a
    # hypothesis on triples), but the conclusion's formulas at m must still be equivariant
    low = max(minimum, spec.conclusion.arity)
    sizes = range(low, low + LABEL_CHECK_SIZES)
    for m in sizes:
        try:
            at_m, faithless = faithful_formulas(spec, m, budget or Budget(5.0), label)
            ok, why = formula_symmetry(at_m)
        except Exception as e:  # noqa: BLE001
            return f"a function could not be evaluated at m = {m} ({type(e).__name__}: {e})", ""
        if faithless is not None:
            return faithless, ""
        if not ok:
            return f"at integer labels: {why}", ""
    return None, (f"node symmetry for every m, as far as Python can be checked: every function runs on opaque "
                  f"nodes (node == node only; comparing a node with anything else, hashing, ordering, arithmetic, "
                  f"conversion and printing refused), its formulas on {n} opaque nodes equal those at integer "
                  f"labels and are equivariant under relabelling, and at integer labels its formulas are "
                  f"equivariant at m = {sizes[0]}..{sizes[-1]} "
                  f"(exact checks); a function that tells labels apart only at larger labels, by object identity "
                  f"or by type, is beyond these checks")


# ------------------------------------------------------------------ are the formulas the functions?
#
# The query is built from the formulas the functions give on *symbolic* weights, the re-check runs them
# on exact ones.  Python's ``==`` / ``!=`` on sympy expressions compare structure, not value: a Local
# ``a.d(i, j) == 0`` is the Python False on symbols but True at zero weights, so its formula (false)
# is not the function, and a proof on it proves another claim (a vacuous hypothesis, a conclusion
# ``!= 0`` that is always True).  Before a formula is used, it must agree with the function:
# exactly on z3 weights (where ``==`` is z3's equality), or, for functions that only run on sympy
# and exact weights, at exact sample points with ties (zero, equal and small random weights).

FAITHFUL_POINTS = 2  # seeded random points with weights in {0, 1/2, 1, 2} (besides the all-0, all-1/2, all-1 ones)
FAITHFUL_SHARE = 0.25  # of the size's budget for the z3 equivalence query ...
FAITHFUL_QUICK = 0.25  # CPU seconds of a first query on every instance, before the normal forms
FAITHFUL_SECONDS = 2.0  # ... and at most this many CPU seconds: an equivalence z3 cannot settle quickly
# (products of weights against their signs) leaves the exact points as the check, not a spent budget
FAITHFUL_Z3_SIZE = 6  # up to this m every instance not yet shown faithful is also checked by z3


def _sample_points(m: int) -> list[dict[tuple[int, int], Fraction]]:
    """All-0, all-1/2, all-1 and ``FAITHFUL_POINTS`` seeded points with weights in {0, 1/2, 1, 2}: each has
    ties (equal weights, zero differences, a_ij + a_ji = 1), where a structural ``==`` and the value's differ."""
    import random

    pairs = [(i, j) for i in range(1, m + 1) for j in range(1, m + 1) if i != j]
    rng = random.Random(7919 * m + 31)
    pts: list[dict[tuple[int, int], Fraction]] = [{}] + [{p: c for p in pairs} for c in (Fraction(1, 2), Fraction(1))]
    choices = (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(2))
    pts += [{p: rng.choice(choices) for p in pairs} for _ in range(FAITHFUL_POINTS)]
    return pts


def _key_at(k: Key, x: dict[str, Fraction]) -> bool:
    """A formula key's truth value at exact values ``x`` of its variables (see ``Key``)."""
    head = k[0]
    if head in ("T", "F"):
        return head == "T"
    if head in (">", ">=", "=", "!="):
        p = Fraction(0)
        for mono, c in k[1]:
            t = c
            for name, ex in mono:
                t *= x[name] ** ex
            p += t
        return p > 0 if head == ">" else p >= 0 if head == ">=" else p == 0 if head == "=" else p != 0
    if head == "not":
        return not _key_at(k[1], x)
    if head == "=>":
        return (not _key_at(k[1], x)) or _key_at(k[2], x)
    if head == "xor":
        return sum(n for g, n in k[1] if _key_at(g, x)) % 2 == 1
    vals = [_key_at(g, x) for g in k[1]]
    return all(vals) if head == "and" else any(vals) if head == "or" else len(set(vals)) <= 1


def _values_at(fs: NodeFormulas, a: dict[tuple[int, int], Fraction]) -> dict[str, Fraction]:
    """The formulas' variables (``a_i_j``, or ``d_i_j = a_ij - a_ji``) at exact weights ``a``."""
    x: dict[str, Fraction] = {}
    for s in fs.variables():
        prefix, i, j = s.name.split("_")
        v = a.get((int(i), int(j)), Fraction(0))
        x[s.name] = v - a.get((int(j), int(i)), Fraction(0)) if prefix == "d" else v
    return x


def _formula_at(f: Any, key: Key | None, x: dict[str, Fraction]) -> bool | None:
    """The formula's truth at exact values ``x`` of its variables (None: sympy leaves it undecided
    there); by its key (:func:`formula_key`) when it has one."""
    if key is not None:
        return _key_at(key, x)
    v = f.xreplace({s: sympy.Rational(x[s.name].numerator, x[s.name].denominator) for s in f.free_symbols})
    return bool(v) if v is sympy.true or v is sympy.false else None


def _z3_values(items: list[tuple[str, Callable[..., Any], tuple[int, ...], Any]],
               acc: _Z3Weights) -> list[Any] | None:
    """Each item's function on z3 weights (a z3 Boolean), or None when a function does not run on z3
    terms (sympy.Eq, Python's ``and``, ...) or gives something else."""
    import z3

    out = []
    for _, fn, t, _ in items:
        try:
            v = fn(acc, *t)
        except Exception:  # noqa: BLE001 - the user's function on z3 terms
            return None
        if isinstance(v, bool):
            v = z3.BoolVal(v)
        elif not z3.is_bool(v):
            return None
        out.append(v)
    return out


# instances whose formula is the same at every size (memoised in _FORMULAS) and was shown faithful once
_FAITHFUL: weakref.WeakKeyDictionary[Callable[..., Any], set[tuple[int, ...]]] = weakref.WeakKeyDictionary()


def _z3_faithful(items: list[tuple[str, Callable[..., Any], tuple[int, ...], Any]], fs: NodeFormulas,
                 budget: Budget, label: str, hint: str) -> tuple[bool | None, str]:
    """(True, '') when z3 shows every item's formula equal to its function on all non-negative z3 weights;
    (False, why) when z3 finds weights where one differs; (None, '') when a function does not run on z3
    terms, a formula does not translate, or z3 does not answer."""
    import z3

    m = fs.m
    acc3 = _Z3Weights(m, raw=True)
    values = _z3_values(items, acc3)
    if values is None:
        return None, ""
    tr = Translator()
    for s in fs.variables():
        _, i, j = s.name.split("_")
        tr.vars[s] = acc3.d(int(i), int(j)) if not fs.raw else acc3(int(i), int(j))
    try:
        pairs = [(v, tr(f)) for v, (_, _, _, f) in zip(values, items, strict=True)]
    except NoBackendAvailable:
        return None, ""
    # a check, not evidence: z3 directly (no SMT-LIB text), within a CPU share of the size's budget --
    # first briefly on every instance; when z3 cannot settle that quickly (products of weights against
    # their signs), only on the instances whose formula and value differ in normal form (comparisons as
    # "polynomial REL 0", sums of monomials: most are the same term written differently, p >= 0 and
    # 0 <= p), for the rest of at most FAITHFUL_SECONDS
    cap = min(FAITHFUL_SHARE * max(budget.left(), 0.0), FAITHFUL_SECONDS)
    differ = [v != f for v, f in pairs]
    answer, model = _differ_query(differ, acc3, budget.share(min(cap, FAITHFUL_QUICK), floor=0.05))
    if answer is None:
        differ = [v != f for v, f in pairs if not _same_normal_form(v, f)]
        if not differ:
            return True, ""
        answer, model = _differ_query(differ, acc3, budget.share(max(cap - FAITHFUL_QUICK, 0.05), floor=0.05))
    if answer is True:
        return True, ""
    if answer is False:
        shown = ", ".join(f"{v}={model.eval(v, model_completion=True)}" for v in acc3.vars.values()
                          if not z3.is_true(model.eval(v == 0, model_completion=True)))[:160]
        return False, (f"at m = {m} a formula differs from its function's value on z3 weights (z3: "
                       f"{shown or 'all weights 0'}): the formula is not the function ({hint})")
    return None, ""


def _differ_query(differ: list[Any], acc3: Any, share: Budget) -> tuple[bool | None, Any]:
    """z3 on "some instance's formula differs from its value" over non-negative weights, within ``share``:
    (True, None) when unsat (all equal), (False, model) when sat, (None, None) when z3 does not answer."""
    import z3

    solver = z3.Solver()
    solver.set("timeout", share.wall_ms())
    solver.add(*acc3.nonneg(), z3.Or(differ))
    try:
        with z3_backend.cpu_watchdog(share, solver.ctx):
            answer = solver.check()
    except z3.Z3Exception:  # pragma: no cover - z3 internals
        return None, None
    if answer == z3.unsat:
        return True, None
    if answer == z3.sat:
        return False, solver.model()
    return None, None


def _normal_form(e: Any) -> Any:
    """``e`` (a z3 term) with every arithmetic comparison written ``d REL 0`` (``REL`` one of ``>=``, ``>``,
    ``=``; ``a <= b`` as ``b - a >= 0``) and every polynomial as a sum of monomials (z3's ``som``); the
    Boolean structure is kept.  Two terms with the same normal form are equal (a sufficient test)."""
    import z3

    def ordered(t: Any) -> Any:  # a sum of monomials with its terms (and each term's factors) in one order
        if z3.is_add(t) or z3.is_mul(t):
            parts = sorted((ordered(t.arg(i)) for i in range(t.num_args())), key=lambda u: u.sexpr())
            out = parts[0]
            for u in parts[1:]:
                out = out + u if z3.is_add(t) else out * u
            return out
        return t

    def poly(d: Any) -> Any:
        return ordered(z3.simplify(d, som=True))

    def walk(t: Any) -> Any:
        if not z3.is_app(t):
            return t
        k = t.decl().kind()
        kids = [t.arg(i) for i in range(t.num_args())]
        if k in (z3.Z3_OP_LE, z3.Z3_OP_GE, z3.Z3_OP_LT, z3.Z3_OP_GT) or (
                k == z3.Z3_OP_EQ and kids and z3.is_arith(kids[0])):
            a, b = kids
            if k == z3.Z3_OP_LE:
                return poly(b - a) >= 0
            if k == z3.Z3_OP_LT:
                return poly(b - a) > 0
            if k == z3.Z3_OP_GE:
                return poly(a - b) >= 0
            if k == z3.Z3_OP_GT:
                return poly(a - b) > 0
            return min(poly(a - b), poly(b - a), key=lambda u: u.sexpr()) == 0  # d = 0 and -d = 0 alike
        if z3.is_bool(t) and kids:
            return t.decl()(*[walk(c) for c in kids])
        return t

    return walk(z3.simplify(e))


def _same_normal_form(a: Any, b: Any) -> bool:
    """Whether the z3 terms ``a`` and ``b`` have the same :func:`_normal_form` (False when unsure)."""
    try:
        return bool(_normal_form(a).eq(_normal_form(b)))
    except Exception:  # noqa: BLE001 - a term this normaliser does not know: the query decides
        return False


def formulas_faithful(spec: NodeSpec, fs: NodeFormulas, budget: Budget, label: str) -> str | None:
    """None when the formulas ``fs`` are the claim's functions at size m as far as checked; else why not
    (the formulas then decide nothing).  (1) At exact sample points with ties (:func:`_sample_points`)
    every instance's formula has the function's truth value (a function that raises on exact weights is
    refused: no re-check could run).  (2) When the functions run on z3 weights, z3 shows that no
    non-negative weights make an instance's formula differ from the function's z3 value (z3's ``==`` is
    equality of values), up to m = ``FAITHFUL_Z3_SIZE`` (beyond it, (1) only: an instance whose formula is
    the same at every size was covered at a smaller m, unless its labels are new).  sat is a disagreement, reported
    with z3's point; unknown, or functions that do not run on z3 terms (sympy.Eq), leave (1) as the check.
    An instance whose formula is the same at every size is checked by z3 once, at the points every time (beyond
    m = ``FAITHFUL_Z3_SIZE`` at the first two), so that a formula remembered from an earlier decision whose
    function has changed since, through a closure, is caught there."""
    m = fs.m
    items: list[tuple[str, Callable[..., Any], tuple[int, ...], Any]] = [
        (f"hypothesis {name!r} at {t}", spec.hypotheses[name].fn, t, f) for (name, t), f in fs.hyps.items()]
    items += [(f"the conclusion at {t}", spec.conclusion.fn, t, f) for t, f in fs.concl.items()]

    def size_free(fn: Callable[..., Any], t: tuple[int, ...], f: Any) -> bool:
        memo = _FORMULAS.get(fn)
        return memo is not None and memo.get(t) is f

    hint = ("Python's == and != compare sympy expressions by structure, not value: write sympy.Eq / sympy.Ne "
            "(or build the value with symcal.logic)")
    keys = [formula_key(f) for _, _, _, f in items]
    # an instance already shown faithful (its formula the same at every size) is re-checked at the first two
    # points only beyond FAITHFUL_Z3_SIZE: enough to notice a changed closure, at a third of the cost
    known = [size_free(fn, t, f) and t in _FAITHFUL.get(fn, ()) for _, fn, t, f in items]
    for n, a in enumerate(_sample_points(m)):
        acc = ExactWeights(m, a)
        x = _values_at(fs, a)
        for (what, fn, t, f), key, seen in zip(items, keys, known, strict=True):
            if seen and n >= 2 and m > FAITHFUL_Z3_SIZE:
                continue
            try:
                py = _holds(fn(acc, *t))
            except Exception as e:  # noqa: BLE001 - the user's function on exact weights
                return f"{what} does not evaluate on exact weights at m = {m} ({type(e).__name__}: {e})"
            got = _formula_at(f, key, x)
            if got is not None and got != py:
                pts = ", ".join(f"a[{i},{j}]={v}" for (i, j), v in sorted(a.items()) if v) or "all weights 0"
                return (f"{what} at m = {m} is {py} on exact weights ({pts[:120]}) but its formula on symbolic "
                        f"weights, {sympy.sstr(f)[:80]}, is {got} there: the formula is not the function ({hint})")
    # z3: the instances not yet shown faithful (a memoised formula shown once stays checked at the points)
    items = [it for it, seen in zip(items, known, strict=True) if not seen]
    if m <= FAITHFUL_Z3_SIZE and items:
        shown_by_z3, why = _z3_faithful(items, fs, budget, label, hint)
        if shown_by_z3 is False:
            return why
    for _, fn, t, f in items:
        if size_free(fn, t, f):
            try:
                _FAITHFUL.setdefault(fn, set()).add(t)
            except TypeError:  # a callable that takes no weak reference: checked again next time
                pass
    return None


def symmetry_reduction(spec: NodeSpec, fs: NodeFormulas) -> tuple[bool, str]:
    """Whether the failing tuple may be fixed at size m, and the justification (or why not)
    as it appears in the evidence -- decided on the formulas (:func:`formula_symmetry`)."""
    if not spec.symmetric:
        return False, "node symmetry not used (symmetric=False)"
    ok, why = formula_symmetry(fs)
    return ok, why if ok else f"node symmetry NOT used: {why}"


def uses_raw_weights(spec: NodeSpec, m: int) -> bool:
    """True when the claim's formulas at size m read a_ij itself, not only the differences."""
    return NodeFormulas(spec, m).raw


def _holds(x: Any) -> bool:
    if isinstance(x, bool):
        return x
    if x is sympy.true or x is sympy.false:
        return bool(x)
    raise NoBackendAvailable(f"a node constraint evaluated to {x!r}, not a truth value")


def recheck(spec: NodeSpec, m: int, a: dict[tuple[int, int], Fraction]) -> tuple[bool, str]:
    """Exact re-check of a counterexample on the claim's own functions.

    True when every hypothesis instance holds and some conclusion instance fails; the
    string says which instance fails (or which hypothesis instance breaks the candidate).
    """
    if any(v < 0 for v in a.values()):
        return False, "a weight is negative"
    try:
        return _recheck(spec, m, a)
    except ArithmeticError as e:  # 1 / a.d(i, j) at a tie: the functions are undefined there, no counterexample
        return False, f"a function is undefined at these weights ({type(e).__name__}: {e})"


def _recheck(spec: NodeSpec, m: int, a: dict[tuple[int, int], Fraction]) -> tuple[bool, str]:
    acc = ExactWeights(m, a)
    for name, h in spec.hypotheses.items():
        for t in _instances(h, acc.nodes):
            if not _holds(h.fn(acc, *t)):
                return False, f"hypothesis {name} fails at {t}"
    for t in _instances(spec.conclusion, acc.nodes):
        if not _holds(spec.conclusion.fn(acc, *t)):
            n = len(spec.hypotheses)
            return True, (
                f"all {n} hypotheses hold on every tuple; the conclusion fails at "
                f"{t} (exact re-check on the claim's own functions)"
            )
    return False, "the conclusion holds on every tuple"


def _witness(m: int, a: dict[tuple[int, int], Fraction], detail: str, found_by: str,
             query: SmtResult | None = None) -> Witness:
    values = {f"a[{i},{j}]": a.get((i, j), Fraction(0)) for i in range(1, m + 1) for j in range(1, m + 1) if i != j}
    return Witness(values, rechecked=True, detail=detail, size=m, found_by=found_by, query=query)


def _minimised(spec: NodeSpec, m: int, acc: _Z3Weights, constraints: list[Any], budget: Budget,
               fallback: dict[tuple[int, int], Fraction]) -> tuple[dict[tuple[int, int], Fraction], str]:
    """Try smaller numbers for the counterexample; keep the first that re-checks."""
    try:
        cands = z3_backend.small_models(constraints, list(acc.vars.values()),
                                        Budget(min(3.0, max(0.2, budget.left() / 3))))
    except Exception:  # pragma: no cover - best effort
        cands = []
    for c in cands:
        a = acc.weights_from(c)
        ok, detail = recheck(spec, m, a)
        if ok:
            return a, detail
    ok, detail = recheck(spec, m, fallback)
    return fallback, detail


def naive_constraints(spec: NodeSpec, m: int) -> list[Any]:
    """The naive query (for benchmarks): a_ij >= 0 for every ordered pair, every hypothesis
    instance, and the negation of the whole conclusion at once."""
    import z3

    acc = _Z3Weights(m, raw=True)
    cons = acc.nonneg()
    for h in spec.hypotheses.values():
        cons += [h.fn(acc, *t) for t in _instances(h, acc.nodes)]
    cons.append(z3.Not(z3.And([spec.conclusion.fn(acc, *t) for t in _instances(spec.conclusion, acc.nodes)])))
    return cons


def decide_node(spec: NodeSpec, m: int, budget: Budget, label: str, *, encoding: str = "auto") -> Outcome:
    """Decide the node claim at size m (see the module docstring for the encoding)."""
    import z3

    scope = f"m = {m}"
    ver = z3_backend.version()
    if encoding == "naive":
        cons = naive_constraints(spec, m)
        res = z3_backend.solve(cons, budget, comment=f"{label} at m={m}: naive encoding")
        if res.answer == "unsat":
            return Outcome(Status.PROVED, scope, "z3", SmtResult("z3", ver, "unsat", res.smtlib, note="naive encoding"))
        if res.answer == "unknown":
            return Outcome(Status.UNKNOWN, scope, "z3", reason=res.reason)
        acc0 = _Z3Weights(m, raw=True)
        a = acc0.weights_from(res.model or {})
        ok, detail = recheck(spec, m, a)
        if ok:
            return Outcome(Status.REFUTED, scope, "z3", _witness(m, a, detail, f"z3 {ver}",
                                                                 SmtResult("z3", ver, "sat", res.smtlib)))
        return Outcome(Status.UNKNOWN, scope, "z3", reason=f"model failed the exact re-check: {detail}")

    try:
        fs, why = faithful_formulas(spec, m, budget, label)
    except NoBackendAvailable as e:
        return Outcome(Status.UNKNOWN, scope, "z3", reason=str(e))
    except Exception as e:  # noqa: BLE001 - a user's function that fails on symbolic weights
        return Outcome(Status.UNKNOWN, scope, "z3", reason=(
            f"the claim's functions could not be evaluated on symbolic weights at m = {m} "
            f"({type(e).__name__}: {e}); a function must build its value with symcal.logic from the accessor"))
    if why is not None:
        return _refute_on_functions(spec, m, budget, label, scope, why)
    symmetric, sym_note = symmetry_reduction(spec, fs)
    if symmetric and encoding == "auto":
        split = _split_by_node(spec, fs, budget, label, sym_note)
        if split is not None:
            return split
    raw = fs.raw
    acc = _Z3Weights(m, raw=raw)
    tr = Translator()
    for v in fs.variables():  # the query's variables are the accessor's (same names, Real)
        tr.vars[v] = acc.vars[tuple(int(x) for x in v.name.split("_")[1:])]
    s = spec.conclusion.arity
    notes = ["difference variables (the claim's formulas read only a_ij - a_ji; any real difference is realised "
             "by non-negative weights)" if not raw else "non-negative weight variables", sym_note,
             "the query is built from the same formulas the reduction was checked on"]
    if symmetric:
        cases = [tuple(range(1, s + 1))]
        notes.append(f"failing tuple fixed to {cases[0]} by node symmetry")
    else:
        cases = list(fs.concl)
        notes.append(f"one query per conclusion tuple ({len(cases)} cases)")
    all_inst = list(fs.hyps)
    z3_hyp: dict[tuple[str, tuple[int, ...]], Any] = {}

    def hyp(key: tuple[str, tuple[int, ...]]) -> Any:
        if key not in z3_hyp:
            z3_hyp[key] = tr(fs.hyps[key])
        return z3_hyp[key]

    proofs: list[tuple[str, SmtResult]] = []
    for case in cases:
        if symmetric:
            fixed = set(case)
            active = {k for k in all_inst if len(set(k[1]) - fixed) <= 1}
        else:
            active = set(all_inst)
        try:
            goal = z3.Not(tr(fs.concl[case]))
        except NoBackendAvailable as e:
            return Outcome(Status.UNKNOWN, scope, "z3", reason=str(e))
        rounds = 0
        while True:
            rounds += 1
            if budget.expired():
                return Outcome(Status.UNKNOWN, scope, "z3", reason=f"budget of {budget.seconds:g} CPU seconds spent")
            try:
                cons = acc.nonneg() + [hyp(k) for k in sorted(active)] + [goal]
            except NoBackendAvailable as e:
                return Outcome(Status.UNKNOWN, scope, "z3", reason=str(e))
            res = z3_backend.solve(
                cons, budget, list(acc.vars.values()),
                comment=(f"{label} at m={m}, conclusion tuple {case}: negated claim, unsat = proved\n"
                         f"{len(active)} of {len(all_inst)} hypothesis instances; dropping instances "
                         f"only weakens the hypotheses, so unsat here implies unsat of the full query"),
            )
            if res.answer == "unknown":
                return Outcome(Status.UNKNOWN, scope, "z3", reason=res.reason)
            if res.answer == "unsat":
                proofs.append((f"tuple {case}", SmtResult(
                    "z3", ver, "unsat", res.smtlib,
                    note=f"{len(active)} of {len(all_inst)} hypothesis instances, {rounds} round(s)")))
                break
            a = acc.weights_from(res.model or {})
            point = {v: sympy.Rational(a.get((i, j), Fraction(0)) - (0 if raw else a.get((j, i), Fraction(0))))
                     for v in fs.variables() for i, j in [tuple(int(x) for x in v.name.split("_")[1:])]}
            violated = []
            for k in all_inst:
                if k in active:
                    continue
                if fs.hyps[k].xreplace(point) is not sympy.true:
                    violated.append(k)
                    if len(violated) >= 400:
                        break
            if violated:
                active.update(violated)
                continue
            ok, detail = recheck(spec, m, a)
            if not ok:
                return Outcome(Status.UNKNOWN, scope, "z3", reason=f"solver model failed the exact re-check: {detail}")
            a2, detail2 = _minimised(spec, m, acc, cons, budget, a)
            return Outcome(Status.REFUTED, scope, "z3", _witness(
                m, a2, detail2, f"z3 {ver}",
                SmtResult("z3", ver, "sat", res.smtlib,
                          note=f"conclusion tuple {case}; {len(active)} of {len(all_inst)} hypothesis instances")))
    note = "; ".join(notes)
    warn = node_vacuity(spec, m, budget, label)
    if len(proofs) == 1:
        p = proofs[0][1]
        return Outcome(Status.PROVED, scope, "z3",
                       SmtResult(p.solver, p.version, p.answer, p.smtlib, note=f"{note}; {p.note}"), warnings=warn)
    return Outcome(Status.PROVED, scope, "z3", Composite(tuple(proofs), note=note), warnings=warn)


def faithful_formulas(spec: NodeSpec, m: int, budget: Budget, label: str) -> tuple[NodeFormulas, str | None]:
    """The claim's formulas at size m and None, or the formulas and why they are not the functions
    (:func:`formulas_faithful`).  Formulas remembered from an earlier decision (a function's formula at a
    tuple is built once for every size) are dropped and rebuilt once before the formulas are given up:
    a function whose closure changed since gives another formula now."""
    fs = NodeFormulas(spec, m)
    why = formulas_faithful(spec, fs, budget, label)
    if why is None:
        return fs, None
    for loc in [*spec.hypotheses.values(), spec.conclusion]:
        _FORMULAS.pop(loc.fn, None)
        _FAITHFUL.pop(loc.fn, None)
    fs = NodeFormulas(spec, m)
    return fs, formulas_faithful(spec, fs, budget, label)


def _refute_on_functions(spec: NodeSpec, m: int, budget: Budget, label: str, scope: str, why: str) -> Outcome:
    """The formulas are not the functions (``why``): no proof from them.  A refutation is still sought
    on the functions themselves, evaluated on z3 weights (the naive encoding, where ``==`` is z3's
    equality), and counts only once the exact re-check on the claim's own functions passes."""
    ver = z3_backend.version()
    try:
        cons = naive_constraints(spec, m)
    except Exception:  # noqa: BLE001 - a function that does not run on z3 terms
        return Outcome(Status.UNKNOWN, scope, "z3", reason=why)
    res = z3_backend.solve(cons, budget, comment=f"{label} at m={m}: naive encoding on the functions themselves "
                                                 f"(their formulas are not the functions); sat = a candidate")
    if res.answer == "sat":
        a = _Z3Weights(m, raw=True).weights_from(res.model or {})
        ok, detail = recheck(spec, m, a)
        if ok:
            return Outcome(Status.REFUTED, scope, "z3", _witness(
                m, a, detail, f"z3 {ver} on the functions (naive encoding)",
                SmtResult("z3", ver, "sat", res.smtlib, note=f"naive encoding: {why}")))
    return Outcome(Status.UNKNOWN, scope, "z3", reason=why)


def node_vacuity(spec: NodeSpec, m: int, budget: Budget, label: str) -> tuple[str, ...]:
    """Flag a proved node claim whose hypotheses no weights satisfy at size m (rule 7).
    All-zero weights are tried exactly first (they satisfy most hypotheses); otherwise a
    short z3 query on the hypotheses alone: unsat flags the claim as vacuous."""
    from symcal.backends.smt_claims import VACUOUS

    zero = ExactWeights(m, {})
    try:
        if all(_holds(h.fn(zero, *t)) for h in spec.hypotheses.values() for t in _instances(h, zero.nodes)):
            return ()
    except NoBackendAvailable:
        pass
    acc = _Z3Weights(m, raw=True)
    try:
        cons = acc.nonneg() + [h.fn(acc, *t) for h in spec.hypotheses.values() for t in _instances(h, acc.nodes)]
        import z3

        # a Local may give a Python or sympy Boolean for a tuple it does not constrain
        cons = [z3.BoolVal(bool(c)) if isinstance(c, bool) or c is sympy.true or c is sympy.false else c
                for c in cons]
        if not all(isinstance(c, z3.BoolRef) for c in cons):
            raise TypeError("a hypothesis is not a z3 Boolean on z3 weights")
    except Exception:  # noqa: BLE001 - a function that does not run on z3 terms (sympy.Or): its formulas
        try:
            fs = NodeFormulas(spec, m)
            tr = Translator()
            for v in fs.variables():
                _, i, j = v.name.split("_")
                tr.vars[v] = acc.d(int(i), int(j)) if not fs.raw else acc(int(i), int(j))
            cons = acc.nonneg() + [tr(f) for f in fs.hyps.values()]
        except Exception:  # noqa: BLE001 - no query: the proof stands, without the vacuity flag
            return ()
    res = z3_backend.solve(cons, Budget(max(0.1, min(2.0, budget.left()))), list(acc.vars.values()),
                           comment=f"{label} at m={m}: hypotheses alone; unsat = vacuous")
    return (VACUOUS + f" (at m = {m})",) if res.answer == "unsat" else ()


def _split_sum(e: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr] | None:
    """E = B + sum of c * OTHERS(t): return (B, sum of c * t), or None if not of that shape."""
    e = sympy.expand(e)
    atoms = e.atoms(OTHERS)
    term = sympy.Integer(0)
    base = e
    for at in atoms:
        c = e.coeff(at)
        if not c.is_number:
            return None
        term += c * at.args[0]
        base = base - c * at
    base = sympy.expand(base)
    if base.has(OTHERS):
        return None
    return base, sympy.expand(term)


_RELS = {sympy.StrictGreaterThan: ">", sympy.GreaterThan: ">=", sympy.StrictLessThan: "<",
         sympy.LessThan: "<="}


def _shape(concl: Any) -> tuple[Any, sympy.Expr, bool] | str:
    """'guard -> S rel T' as (guard, E, strict) with the claim E > 0 (or E >= 0)."""
    guard: Any = sympy.true
    if isinstance(concl, sympy.Implies):
        guard, concl = concl.args
    op = next((v for k, v in _RELS.items() if isinstance(concl, k)), None)
    if op is None:
        return "the conclusion is not 'guard -> S rel T' with rel in <, <=, >, >="
    e = concl.lhs - concl.rhs if op in (">", ">=") else concl.rhs - concl.lhs
    return guard, sympy.expand(e), op in (">", "<")


def _split_by_node(spec: NodeSpec, fs: NodeFormulas, budget: Budget, label: str, sym_note: str) -> Outcome | None:
    """Per-size proof split into one query per other node ("one query per case").

    At size m the conclusion at the fixed tuple is guard -> E REL 0 with E a polynomial in
    the weights.  Its monomials are partitioned by the set of non-fixed nodes they touch:
    none (the base) or exactly one node j (the term of j) — an exact identity
    E = base + sum_j term_j.  Then guard -> base REL 0 from the hypotheses on the fixed
    nodes, and guard -> term_j >= 0 from the hypotheses on the fixed nodes plus j, give
    the conclusion.  Works on the claim's formulas (``fs``), the ones the symmetry was
    checked on.  Returns None when the shape does not fit or a part fails (the caller
    then runs the whole query, which also finds counterexamples).
    """
    import z3

    m = fs.m
    s = spec.conclusion.arity
    fixed = tuple(range(1, s + 1))
    shape = _shape(fs.concl[fixed])
    if isinstance(shape, str):
        return None
    guard, e, strict = shape

    def nodes_of(x: sympy.Symbol) -> set[int]:
        return {int(k) for k in x.name.split("_")[1:]}

    if any(len(nodes_of(x) - set(fixed)) > 1 for x in guard.free_symbols):
        return None
    if any(h.arity > s + 1 for h in spec.hypotheses.values()):
        return None
    groups: dict[int | None, sympy.Expr] = {}
    for mono in sympy.Add.make_args(e):
        outside: set[int] = set()
        for x in mono.free_symbols:
            outside |= nodes_of(x) - set(fixed)
        if len(outside) > 1:
            return None
        key = next(iter(outside)) if outside else None
        groups[key] = groups.get(key, sympy.Integer(0)) + mono
    tr = Translator()
    ver = z3_backend.version()
    parts = []
    nodes = [None] + [j for j in range(s + 1, m + 1)]
    for j in nodes:
        local_nodes = set(fixed + ((j,) if j is not None else ()))
        term = groups.get(j, sympy.Integer(0))
        goal = (term > 0) if (j is None and strict) else (term >= 0)
        hyps = [f for (_, t), f in fs.hyps.items() if set(t) <= local_nodes]
        used = set().union(*(f.free_symbols for f in [*hyps, guard, goal]))
        nonneg = [x >= 0 for x in sorted(used, key=str)] if fs.raw else []
        try:
            cons = [tr(h) for h in hyps] + [tr(n) for n in nonneg] + [tr(guard), z3.Not(tr(goal))]
        except NoBackendAvailable:
            return None
        what = "base term on the fixed nodes" if j is None else f"term of node {j}"
        res = z3_backend.solve(cons, budget, comment=f"{label} at m={m}: {what}: guard -> {goal}")
        if res.answer != "unsat":
            return None
        parts.append((what, SmtResult("z3", ver, "unsat", res.smtlib)))
    note = (f"{'non-negative weight' if fs.raw else 'difference'} variables; {sym_note}; failing tuple fixed to "
            f"{fixed} by node symmetry; conclusion split exactly into a base term and one term per other node: "
            f"{len(parts)} queries, all unsat")
    return Outcome(Status.PROVED, f"m = {m}", "z3", Composite(tuple(parts), note=note),
                   warnings=node_vacuity(spec, m, budget, label))


def decide_local_lemma(spec: NodeSpec, minimum: int, budget: Budget, label: str) -> Outcome:
    """Prove the node claim for every m >= minimum by a local lemma, or say why not."""
    import z3

    scope = f"all m >= {minimum}"
    if not spec.symmetric:
        return Outcome(Status.UNKNOWN, scope, "local-lemma", reason="the claim is declared symmetric=False")
    why, label_note = label_free_failure(spec, minimum, budget, label)
    if why is not None:
        return Outcome(Status.UNKNOWN, scope, "local-lemma",
                       reason=f"node symmetry cannot be justified for all sizes: {why}; check sizes one by one")
    s = spec.conclusion.arity
    fixed = tuple(range(1, s + 1))
    too_wide = [n for n, h in spec.hypotheses.items() if h.arity > s + 1]
    if too_wide:
        return Outcome(Status.UNKNOWN, scope, "local-lemma",
                       reason=(f"hypotheses {too_wide} have arity > {s + 1}; "
                               f"no local lemma on {s + 1} nodes covers them"))
    # the lemma's formulas are built on opaque nodes (the fixed ones and a generic other node J)
    inner = _SympyWeights(fixed, generic=True)
    acc = _OpaqueWeights(inner)
    node = acc.node
    try:
        shape = _shape(_truth_value(spec.conclusion.fn(acc, *(node(i) for i in fixed)), "the conclusion"))
    except Exception as exc:  # noqa: BLE001 - checked above to run on opaque nodes
        return Outcome(Status.UNKNOWN, scope, "local-lemma", reason=f"the conclusion failed on opaque nodes: {exc}")
    if isinstance(shape, str):
        return Outcome(Status.UNKNOWN, scope, "local-lemma", reason=shape)
    guard, e, strict = shape
    if guard.has(OTHERS):
        return Outcome(Status.UNKNOWN, scope, "local-lemma", reason="the guard of the conclusion sums over nodes")
    split = _split_sum(e)
    if split is None:
        return Outcome(Status.UNKNOWN, scope, "local-lemma", reason="the conclusion is not a sum of local terms")
    base, term = split
    hyp_local = []
    hyp_fixed = []
    for name, h in spec.hypotheses.items():
        for t in _instances(h, inner.nodes):
            try:
                v = _truth_value(h.fn(acc, *(node(i) for i in t)), f"hypothesis {name!r}")
            except Exception as exc:  # noqa: BLE001
                return Outcome(Status.UNKNOWN, scope, "local-lemma",
                               reason=f"hypothesis {name!r} failed on opaque nodes: {exc}")
            if isinstance(v, sympy.Basic) and v.has(OTHERS):
                return Outcome(Status.UNKNOWN, scope, "local-lemma", reason=f"hypothesis {name} sums over nodes")
            hyp_local.append(v)
            if inner.J not in t:
                hyp_fixed.append(v)
    nonneg = [sym >= 0 for sym in sorted(inner.raw_symbols, key=str)]
    tr = Translator()
    ver = z3_backend.version()
    lemmas = [
        (f"base term on the fixed nodes {fixed}: guard -> base {'>' if strict else '>='} 0",
         hyp_fixed, (base > 0) if strict else (base >= 0)),
        (f"term of any other node J: guard -> term >= 0 (hypotheses on {fixed + ('J',)})",
         hyp_local, term >= 0),
    ]
    parts = []
    for text, hyps, goal in lemmas:
        try:
            cons = [tr(h) for h in hyps] + [tr(n) for n in nonneg] + [tr(guard), z3.Not(tr(goal))]
        except NoBackendAvailable as exc:
            return Outcome(Status.UNKNOWN, scope, "local-lemma", reason=str(exc))
        res = z3_backend.solve(cons, budget, comment=f"{label}: local lemma: {text}")
        if res.answer == "unknown":
            return Outcome(Status.UNKNOWN, scope, "local-lemma", reason=f"{text}: {res.reason}")
        if res.answer == "sat":
            return Outcome(
                Status.UNKNOWN, scope, "local-lemma",
                reason=(f"the local argument does not apply: '{text}' fails under the local hypotheses "
                        f"(model {res.model}); this is not a refutation — check sizes one by one"),
            )
        parts.append((text, SmtResult("z3", ver, "unsat", res.smtlib,
                                       note=f"base = {sympy.sstr(base)}; term = {sympy.sstr(term)}")))
    note = (f"for every m, the conclusion at the fixed tuple is base + sum over other nodes j of term(j) "
            f"{'>' if strict else '>='} 0; hypotheses restricted to a few nodes are implied by the full "
            f"conjunction, so the {len(parts)} lemmas cover all m >= {minimum}; the failing tuple is fixed by "
            f"{label_note}; the lemmas' formulas were built on opaque nodes")
    scope = f"{scope}, for functions that use node labels only through node equality (checked: see evidence)"
    return Outcome(Status.PROVED, scope, "local-lemma", Composite(tuple(parts), note=note))
