"""Node claims: statements about edge weights a_ij >= 0 on m nodes (``node_implies``).

The engine, not the user, writes the fast query (DESIGN.md, *Encoding for speed*):

* **difference variables**: when the claim only uses ``a.d(i, j) = a_ij - a_ji``, one real
  variable per unordered pair replaces two non-negative ones (any real difference is
  realised by a_ij = max(d, 0), a_ji = max(-d, 0));
* **symmetry breaking**: hypotheses and conclusion are conjunctions over all ordered
  tuples of the same local constraint; *when each local function is equivariant under
  relabelling nodes* (f(a∘π, t) = f(a, π t)), the claim is invariant and the failing tuple
  of a counterexample can be taken to be (1, ..., s).  This precondition is checked, never
  assumed from ``symmetric=True`` (issue 12): at size m, every instance is evaluated on
  symbolic weights and compared with its relabelled form for the generators (1 2) and
  (1 2 ... m) of the symmetric group; for all sizes (the local lemma), every function is
  run on opaque nodes that refuse ordering, arithmetic and conversion, so a function that
  compares labels (``i < j``) is detected.  When the check fails the engine falls back to
  one query per conclusion tuple, and the evidence says which reduction was used and why;
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

import itertools
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
    def __init__(self, fixed: tuple[int, ...], generic: bool) -> None:
        self.fixed = fixed
        self.J = _Generic() if generic else None
        self.nodes = fixed + ((self.J,) if self.J is not None else ())
        self.raw_symbols: set[sympy.Symbol] = set()
        self.symbol_nodes: dict[sympy.Symbol, tuple[int, int]] = {}

    def _sym(self, prefix: str, i: int, j: int) -> sympy.Symbol:
        s = sympy.Symbol(f"{prefix}_{i}_{j}", real=True)
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


class _Relabelled:
    """The accessor of the relabelled weights a^π, a^π(i, j) = a(π(i), π(j))."""

    def __init__(self, base: _SympyWeights, perm: dict[int, int]) -> None:
        self.base = base
        self.perm = perm
        self.nodes = base.nodes
        self.m = len(base.nodes)

    def __call__(self, i: int, j: int) -> Any:
        return self.base(self.perm[i], self.perm[j])

    def d(self, i: int, j: int) -> Any:
        return self.base.d(self.perm[i], self.perm[j])

    def sum(self, f: Callable[[int], Any]) -> Any:
        return self.base.sum(f)  # f reads the weights through this accessor: sum_j f(j)


def _equivariance_failure(spec: NodeSpec, m: int) -> str | None:
    """None when every local function is equivariant under relabelling at size m:
    ``f(a^π, t) == f(a, π(t))`` structurally (sympy canonical forms) for every ordered tuple
    t and the generators π = (1 2) and (1 2 ... m) of S_m.  Structural equality implies
    equality, so a pass is a proof that the hypotheses and the conclusion are invariant and
    that the conclusion's failing tuple may be fixed; a failure (or an evaluation error)
    only means the reduction is not used.  Returns the reason otherwise."""
    nodes = tuple(range(1, m + 1))
    base = _SympyWeights(nodes, generic=False)
    gens = [{**{i: i for i in nodes}, 1: 2, 2: 1}, {i: i % m + 1 for i in nodes}]
    locals_ = [(f"hypothesis {name!r}", h) for name, h in spec.hypotheses.items()]
    locals_.append(("the conclusion", spec.conclusion))
    for what, loc in locals_:
        try:
            plain = {t: loc.fn(base, *t) for t in _instances(loc, nodes)}
        except Exception as e:  # noqa: BLE001 - any failure: do not reduce
            return f"{what} could not be evaluated on symbolic weights ({type(e).__name__}: {e})"
        for perm in gens:
            rel = _Relabelled(base, perm)
            for t in plain:
                try:
                    lhs = loc.fn(rel, *t)
                except Exception as e:  # noqa: BLE001
                    return f"{what} could not be evaluated on symbolic weights ({type(e).__name__}: {e})"
                rhs = plain[tuple(perm[i] for i in t)]
                if lhs != rhs and sympy.sympify(lhs) != sympy.sympify(rhs):
                    return (f"{what} is not invariant under relabelling nodes: at m = {m}, tuple {t} under "
                            f"{_cycle_text(perm)} gives {sympy.sstr(lhs)} but the relabelled tuple gives "
                            f"{sympy.sstr(rhs)} (does it compare node labels?)")
    return None


def _cycle_text(perm: dict[int, int]) -> str:
    moved = [i for i in sorted(perm) if perm[i] != i]
    return "(1 2)" if len(moved) == 2 else f"(1 2 ... {len(perm)})"


class _LabelUsed(Exception):
    pass


class _Opaque:
    """A node whose label can be tested for equality and passed to the accessor, nothing
    else: ordering, arithmetic, conversion and printing raise, so a function that runs on
    opaque nodes cannot depend on how the nodes are numbered."""

    __slots__ = ("label",)

    def __init__(self, label: int) -> None:
        self.label = label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Opaque) and other.label == self.label

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("node", self.label))

    def _refuse(self, *args: Any) -> Any:
        raise _LabelUsed("a node label was compared, converted or printed")

    __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __mod__ = __neg__ = _refuse
    __truediv__ = __floordiv__ = __pow__ = _refuse
    __int__ = __index__ = __float__ = __str__ = __repr__ = __format__ = _refuse


class _OpaqueWeights:
    """The sympy accessor on opaque nodes; ``a.nodes`` (whose order is the labels' order) is
    refused, ``a.sum`` and the weights are allowed."""

    def __init__(self, inner: _SympyWeights) -> None:
        self._inner = inner

    @staticmethod
    def _lab(i: Any) -> int:
        if not isinstance(i, _Opaque):
            raise _LabelUsed(f"the accessor was given {type(i).__name__}, not a node")
        return i.label

    def __call__(self, i: Any, j: Any) -> Any:
        return self._inner(self._lab(i), self._lab(j))

    def d(self, i: Any, j: Any) -> Any:
        return self._inner.d(self._lab(i), self._lab(j))

    def sum(self, f: Callable[[Any], Any]) -> Any:
        return sum((f(_Opaque(j)) for j in self._inner.nodes), sympy.Integer(0))

    @property
    def nodes(self) -> Any:
        raise _LabelUsed("a.nodes was read (its order is the order of the labels)")

    @property
    def m(self) -> Any:
        raise _LabelUsed("a.m was read (a function may behave differently at other sizes)")


def label_free_failure(spec: NodeSpec) -> str | None:
    """None when every local function, run on opaque nodes, uses node labels only through
    equality and the accessor: then it is equivariant under relabelling at *every* size
    (it cannot tell a relabelled graph from the original), which the all-size local lemma
    needs.  Otherwise the reason."""
    for what, loc in [*((f"hypothesis {n!r}", h) for n, h in spec.hypotheses.items()),
                      ("the conclusion", spec.conclusion)]:
        nodes = tuple(range(1, loc.arity + 2))
        acc = _OpaqueWeights(_SympyWeights(nodes, generic=False))
        try:
            loc.fn(acc, *(_Opaque(i) for i in nodes[: loc.arity]))
        except _LabelUsed as e:
            return f"{what} uses node labels beyond equality ({e})"
        except Exception as e:  # noqa: BLE001
            return f"{what} could not be run on opaque nodes ({type(e).__name__}: {e})"
    return None


def symmetry_reduction(spec: NodeSpec, m: int) -> tuple[bool, str]:
    """Whether the failing tuple may be fixed at size m, and the justification (or why not)
    as it appears in the evidence."""
    if not spec.symmetric:
        return False, "node symmetry not used (symmetric=False)"
    opaque = label_free_failure(spec)
    if opaque is None:
        return True, ("node symmetry justified: every local function runs on opaque nodes that refuse ordering, "
                      "arithmetic, printing, a.nodes and a.m, so it cannot tell a relabelled graph from the original")
    why = _equivariance_failure(spec, m)
    if why is not None:
        return False, f"node symmetry NOT used: {why}"
    return True, (f"node symmetry justified at m = {m} (the functions read labels: {opaque}; but each is "
                  f"equivariant under the generators (1 2) and (1 2 ... {m}) of S_{m}: structural check on "
                  f"symbolic weights)")


def uses_raw_weights(spec: NodeSpec, m: int) -> bool:
    """True when the claim reads a_ij itself, not only the differences a_ij - a_ji."""
    acc = _Z3Weights(m, raw=False)
    try:
        for h in spec.hypotheses.values():
            for t in _instances(h, acc.nodes):
                h.fn(acc, *t)
        for t in _instances(spec.conclusion, acc.nodes):
            spec.conclusion.fn(acc, *t)
    except _RawUsed:
        return True
    return False


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

    symmetric, sym_note = symmetry_reduction(spec, m)
    if symmetric and encoding == "auto":
        split = _split_by_node(spec, m, budget, label, sym_note)
        if split is not None:
            return split
    raw = uses_raw_weights(spec, m)
    acc = _Z3Weights(m, raw=raw)
    s = spec.conclusion.arity
    notes = ["difference variables (the claim reads only a_ij - a_ji; any real difference is realised by "
             "non-negative weights)" if not raw else "non-negative weight variables", sym_note]
    if symmetric:
        cases = [tuple(range(1, s + 1))]
        notes.append(f"failing tuple fixed to {cases[0]} by node symmetry")
    else:
        cases = list(_instances(spec.conclusion, acc.nodes))
        notes.append(f"one query per conclusion tuple ({len(cases)} cases)")
    all_inst = [(name, t) for name, h in spec.hypotheses.items() for t in _instances(h, acc.nodes)]
    z3_hyp: dict[tuple[str, tuple[int, ...]], Any] = {}

    def hyp(key: tuple[str, tuple[int, ...]]) -> Any:
        if key not in z3_hyp:
            z3_hyp[key] = spec.hypotheses[key[0]].fn(acc, *key[1])
        return z3_hyp[key]

    proofs: list[tuple[str, SmtResult]] = []
    for case in cases:
        if symmetric:
            fixed = set(case)
            active = {k for k in all_inst if len(set(k[1]) - fixed) <= 1}
        else:
            active = set(all_inst)
        goal = z3.Not(spec.conclusion.fn(acc, *case))
        rounds = 0
        while True:
            rounds += 1
            if budget.expired():
                return Outcome(Status.UNKNOWN, scope, "z3", reason=f"budget of {budget.seconds:g} CPU seconds spent")
            cons = acc.nonneg() + [hyp(k) for k in sorted(active)] + [goal]
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
            ex = ExactWeights(m, a)
            violated = []
            for k in all_inst:
                if k in active:
                    continue
                if not _holds(spec.hypotheses[k[0]].fn(ex, *k[1])):
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
    cons = acc.nonneg() + [h.fn(acc, *t) for h in spec.hypotheses.values() for t in _instances(h, acc.nodes)]
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


def _split_by_node(spec: NodeSpec, m: int, budget: Budget, label: str, sym_note: str) -> Outcome | None:
    """Per-size proof split into one query per other node ("one query per case").

    At size m the conclusion at the fixed tuple is guard -> E REL 0 with E a polynomial in
    the weights.  Its monomials are partitioned by the set of non-fixed nodes they touch:
    none (the base) or exactly one node j (the term of j) — an exact identity
    E = base + sum_j term_j.  Then guard -> base REL 0 from the hypotheses on the fixed
    nodes, and guard -> term_j >= 0 from the hypotheses on the fixed nodes plus j, give
    the conclusion.  Returns None when the shape does not fit or a part fails (the caller
    then runs the whole query, which also finds counterexamples).
    """
    import z3

    s = spec.conclusion.arity
    fixed = tuple(range(1, s + 1))
    acc = _SympyWeights(tuple(range(1, m + 1)), generic=False)
    try:
        shape = _shape(spec.conclusion.fn(acc, *fixed))
    except (TypeError, NoBackendAvailable):
        return None
    if isinstance(shape, str):
        return None
    guard, e, strict = shape
    if any(len(set(acc.symbol_nodes.get(x, ())) - set(fixed)) > 1 for x in guard.free_symbols):
        return None
    if any(h.arity > s + 1 for h in spec.hypotheses.values()):
        return None
    groups: dict[int | None, sympy.Expr] = {}
    for mono in sympy.Add.make_args(e):
        outside = set()
        for x in mono.free_symbols:
            outside |= set(acc.symbol_nodes.get(x, ())) - set(fixed)
        if len(outside) > 1:
            return None
        key = next(iter(outside)) if outside else None
        groups[key] = groups.get(key, sympy.Integer(0)) + mono
    tr = Translator()
    ver = z3_backend.version()
    parts = []
    nodes = [None] + [j for j in range(s + 1, m + 1)]
    for j in nodes:
        local_nodes = fixed + ((j,) if j is not None else ())
        term = groups.get(j, sympy.Integer(0))
        goal = (term > 0) if (j is None and strict) else (term >= 0)
        hyps = [h.fn(acc, *t) for h in spec.hypotheses.values() for t in _instances(h, local_nodes)]
        nonneg = [x >= 0 for x in acc.raw_symbols]
        try:
            cons = [tr(h) for h in hyps] + [tr(n) for n in nonneg] + [tr(guard), z3.Not(tr(goal))]
        except NoBackendAvailable:
            return None
        what = "base term on the fixed nodes" if j is None else f"term of node {j}"
        res = z3_backend.solve(cons, budget, comment=f"{label} at m={m}: {what}: guard -> {goal}")
        if res.answer != "unsat":
            return None
        parts.append((what, SmtResult("z3", ver, "unsat", res.smtlib)))
    note = (f"difference variables; {sym_note}; failing tuple fixed to {fixed} by node symmetry; conclusion "
            f"split exactly into a base term and one term per other node: {len(parts)} queries, all unsat")
    return Outcome(Status.PROVED, f"m = {m}", "z3", Composite(tuple(parts), note=note),
                   warnings=node_vacuity(spec, m, budget, label))


def decide_local_lemma(spec: NodeSpec, minimum: int, budget: Budget, label: str) -> Outcome:
    """Prove the node claim for every m >= minimum by a local lemma, or say why not."""
    import z3

    scope = f"all m >= {minimum}"
    if not spec.symmetric:
        return Outcome(Status.UNKNOWN, scope, "local-lemma", reason="the claim is declared symmetric=False")
    why = label_free_failure(spec)
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
    acc = _SympyWeights(fixed, generic=True)
    shape = _shape(spec.conclusion.fn(acc, *fixed))
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
        for t in _instances(h, acc.nodes):
            v = h.fn(acc, *t)
            if isinstance(v, sympy.Basic) and v.has(OTHERS):
                return Outcome(Status.UNKNOWN, scope, "local-lemma", reason=f"hypothesis {name} sums over nodes")
            hyp_local.append(v)
            if acc.J not in t:
                hyp_fixed.append(v)
    nonneg = [sym >= 0 for sym in acc.raw_symbols]
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
            f"node symmetry, justified for every m: each local function runs on opaque nodes that refuse "
            f"ordering, arithmetic and printing, so it cannot tell a relabelled graph from the original")
    return Outcome(Status.PROVED, scope, "local-lemma", Composite(tuple(parts), note=note))
