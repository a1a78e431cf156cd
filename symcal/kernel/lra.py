"""Unsatisfiability of an SMT-LIB2 query, certified by a case tree with Farkas leaves.

Reading the query.  The kernel reads the SMT-LIB2 text itself (the very text kept in the evidence and
re-decided by cvc5), so a certificate cannot change the question:

* ``declare-fun``/``declare-const`` of sort ``Real``, ``Int`` or ``Bool``; an ``Int`` is read as a real
  (the real relaxation: unsat over the reals implies unsat over the integers, all a proof needs);
* every ``assert`` is put in negation normal form; an atom ``a REL b`` becomes a *literal* on a
  canonical atom ``p < 0`` or ``p <= 0`` (``p`` is ``a - b`` or ``b - a``, scaled by a positive number
  so that its first non-constant coefficient is 1; an atom and its negation share the canonical atom
  with opposite polarity); ``a = b`` is read as ``a - b <= 0 and b - a <= 0``;
* an if-then-else term ``(ite c t e)`` is replaced by a fresh variable ``v`` with the side conditions
  ``(c => v = t) and (not c => v = e)``, and a quotient ``(/ a b)`` by a non-constant ``b`` by a fresh
  ``v`` with ``b = 0 or v * b = a`` (SMT-LIB leaves ``a / 0`` unspecified): every model of the text
  extends to a model of the new query, so unsat of the new one proves unsat of the text.

The certificate.  A tree: ``{"split": ATOM, "then": TREE, "else": TREE}`` branches on an atom
(``[op, poly]`` means ``poly op 0``, op ``<`` or ``<=``; any atom may be split on, since every point
satisfies it or not); ``{"cases": [CUBE, ...], "trees": [TREE, ...]}`` (a CUBE a list of atoms) needs
a conjunct ``(or D1 ... Dk)`` of the branch's simplified query each of whose disjuncts, with the
branch's true literals, contains a cube (or a cube of true literals): each TREE refutes the branch
with its cube added (one tree per disjunct, not per choice of literals); ``{"lemmas": [[CUBE, TREE],
...], "then": TREE}`` is a chain of cuts: each TREE refutes the branch with its CUBE added and the
earlier lemmas' clauses ``not CUBE`` added to the query, and the last TREE refutes the branch with
every clause added (a lemma may be proved once and used on many branches); and a leaf
``{"farkas": [[FACTORS, LAMBDA], ...]}`` closes a branch.  There the kernel itself assigns the
branch's literals, simplifies the query and propagates the literals it forces (unit propagation)
until nothing changes.  The leaf is closed when the query simplifies to
false; otherwise each entry names a product ``G`` of factors -- a true literal ``p < 0`` / ``p <= 0``
of the leaf contributes ``-p`` (``> 0`` / ``>= 0``), ``["sq", s]`` contributes ``s**2 >= 0`` -- and a
rational ``LAMBDA >= 0``, and ``sum LAMBDA * G`` must be a constant ``c < 0``, or ``c = 0`` with a
positive multiplier on a product of strict literals.  No point satisfies the leaf's literals, since
there that sum is ``>= 0`` (``> 0``).  With one literal per entry this is Farkas' lemma (complete for
linear constraints); with products and squares, a Positivstellensatz certificate (sound for
polynomial constraints).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from symcal.kernel.poly import Poly, frac
from symcal.kernel.sexpr import _TOKEN, number, parse
from symcal.kernel.terms import RELATIONS, Evaluator, PolyAlgebra, Unsupported, expand_lets, is_bool, show

__all__ = ["Query", "read_query", "literal", "propagate", "leaf_constraints", "check_farkas", "check_tree",
           "constraint_of", "free_names", "covers"]

_SMT_NUMERAL = re.compile(r"[0-9]+(\.[0-9]+)?")
Formula = Any  # True | False | ("lit", key, polarity) | ("and", tuple) | ("or", tuple)


class _Key(tuple):
    """An atom's key, one object per atom, its hash computed once (hashing Fractions is slow)."""

    def __hash__(self) -> int:
        if "h" not in self.__dict__:
            self.h = tuple.__hash__(self)
        return self.h


_KEYS: dict[Any, _Key] = {}


def literal(p: Poly, strict: bool) -> Formula:
    """The formula ``p < 0`` (strict) or ``p <= 0`` on its canonical atom."""
    c = p.constant()
    if c is not None:
        return c < 0 if strict else c <= 0
    lead = p.leading()
    assert lead is not None
    q = p.scale(1 / lead)
    key = ("lin", q.key(), strict if lead > 0 else not strict)  # q REL 0  <=>  not (-q REL' 0)
    if len(_KEYS) > 100_000:
        _KEYS.clear()
    return ("lit", _KEYS.setdefault(key, _Key(key)), lead > 0)


def constraint_of(key: Any, polarity: bool) -> tuple[Poly, bool]:
    """A true literal on a linear atom as the constraint ``p < 0`` (True) or ``p <= 0``."""
    p, strict = Poly(dict(key[1])), key[2]
    return (p, strict) if polarity else (-p, not strict)


def _mk(op: str, parts: list[Formula]) -> Formula:
    absorbing, neutral = (False, True) if op == "and" else (True, False)
    out: list[Formula] = []
    for f in parts:
        if f is absorbing:
            return absorbing
        if f is neutral:
            continue
        if isinstance(f, tuple) and f[0] == op:
            out.extend(f[1])
        else:
            out.append(f)
    if not out:
        return neutral
    return out[0] if len(out) == 1 else (op, tuple(out))


def _eq(p: Poly, equal: bool = True) -> Formula:
    """``p = 0`` (``p != 0`` when not ``equal``)."""
    return _mk("and" if equal else "or", [literal(p, not equal), literal(-p, not equal)])


@dataclass
class Query(PolyAlgebra):
    """The conjunction of a script's assertions, in negation normal form; as the algebra its terms
    are read in, it lifts if-then-else terms and quotients to fresh variables (``lifted``)."""

    sorts: dict[str, str] = field(default_factory=dict)
    assertions: list[Any] = field(default_factory=list)
    side: list[Formula] = field(default_factory=list)
    lifted: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    formula: Formula = True

    def __post_init__(self) -> None:
        self._ev = Evaluator(self)
        self._memo: dict[tuple[int, bool], tuple[Any, Formula]] = {}

    def poly(self, e: Any) -> Poly:
        return self._ev.term(e)

    def ite(self, node: list[Any], ev: Evaluator) -> Poly:
        v, new = self._fresh("ite", show(node))
        if new:
            t, e = ev.term(node[2]), ev.term(node[3])
            self.side.append(_mk("and", [_mk("or", [self.nnf(node[1], False), _eq(v - t)]),
                                         _mk("or", [self.nnf(node[1], True), _eq(v - e)])]))
        return v

    def div(self, a: Poly, b: Poly) -> Poly:
        if b.constant() is not None:
            return super().div(a, b)
        v, new = self._fresh("div", f"{a.key()}/{b.key()}")
        if new:  # v = a / b where b != 0 (SMT-LIB leaves a / 0 unspecified)
            self.side.append(_mk("or", [_eq(b), _eq(v * b - a)]))
        return v

    def _fresh(self, what: str, text: str) -> tuple[Poly, bool]:
        """The variable standing for the term with this text (named by a hash of it, so equal
        terms share one variable, whatever order the assertions are read in); True if new."""
        name = f"{what}!{hashlib.sha256(text.encode()).hexdigest()[:12]}"
        if name in self.texts:
            if self.texts[name] != text:
                raise Unsupported(f"two lifted terms share the name {name}")
            return Poly.var(name), False
        if name in self.sorts:
            raise Unsupported(f"the lifted name {name} is a declared variable")
        self.sorts[name] = "Real"
        self.texts[name] = text
        self.lifted.append(name)
        return Poly.var(name), True

    def nnf(self, e: Any, pol: bool) -> Formula:
        hit = self._memo.get((id(e), pol))
        if hit is None or hit[0] is not e:
            hit = self._memo[(id(e), pol)] = (e, self._nnf(e, pol))
        return hit[1]

    def _nnf(self, e: Any, pol: bool) -> Formula:
        if e in ("true", "false"):
            return (e == "true") == pol
        if isinstance(e, str):
            if self.sorts.get(e) != "Bool":
                raise Unsupported(f"{e} is not a Boolean")
            return ("lit", ("bool", e), pol)
        if not isinstance(e, list):
            raise Unsupported(f"not a formula: {e!r}")
        op, args = e[0], e[1:]
        both = ("and", "or") if pol else ("or", "and")
        if op in ("and", "or"):
            return _mk(both[op == "or"], [self.nnf(a, pol) for a in args])
        if op == "not" and len(args) == 1:
            return self.nnf(args[0], not pol)
        if op == "=>" and len(args) >= 2:  # (=> a b c) is (=> a (=> b c))
            return _mk(both[1], [self.nnf(a, not pol) for a in args[:-1]] + [self.nnf(args[-1], pol)])
        if op == "ite" and len(args) == 3:
            c, t, f = args
            return _mk("or", [_mk("and", [self.nnf(c, True), self.nnf(t, pol)]),
                              _mk("and", [self.nnf(c, False), self.nnf(f, pol)])])
        if op in ("=", "distinct") and len(args) >= 2 or op == "xor" and len(args) == 2:
            if op == "distinct" and len(args) > 2:
                pairs = [["distinct", a, b] for i, a in enumerate(args) for b in args[i + 1:]]
                return _mk(both[0], [self.nnf(x, pol) for x in pairs])
            want_equal = (op == "=") == pol
            if is_bool(args[0], self.sorts):
                parts = [_mk("or", [_mk("and", [self.nnf(a, True), self.nnf(b, want_equal)]),
                                    _mk("and", [self.nnf(a, False), self.nnf(b, not want_equal)])])
                         for a, b in zip(args, args[1:], strict=False)]
            else:
                parts = [_eq(self.poly(a) - self.poly(b), want_equal) for a, b in zip(args, args[1:], strict=False)]
            return _mk("and" if want_equal else "or", parts)
        if op in RELATIONS and len(args) >= 2:
            parts = []
            for a, b in zip(args, args[1:], strict=False):
                pa, pb = self.poly(a), self.poly(b)
                p, strict = (pa - pb, op == "<") if op in ("<", "<=") else (pb - pa, op == ">")
                parts.append(literal(p, strict) if pol else literal(-p, not strict))
            return _mk("and" if pol else "or", parts)
        raise Unsupported(f"the connective {op!r} is not understood by the kernel")


def read_query(text: str) -> Query:
    """The conjunction of the assertions of an SMT-LIB2 script.  A token the kernel's term syntax
    reads as ``p/q`` or ``-3`` -- a symbol in SMT-LIB, not a number -- is refused, so that the kernel
    never reads a query differently from a solver."""
    for tok in _TOKEN.findall(text):
        if tok[0] not in "|\";" and number(tok) is not None and not _SMT_NUMERAL.fullmatch(tok):
            raise Unsupported(f"{tok} is not an SMT-LIB numeral (write (/ p q) or (- n))")
    q = Query()
    defined: dict[str, Any] = {}
    checked = ended = False
    for cmd in parse(text):
        if not (isinstance(cmd, list) and cmd and isinstance(cmd[0], str)):
            raise Unsupported(f"not a command: {cmd!r}")
        head = cmd[0]
        if ended:  # a solver reads nothing after (exit)
            raise Unsupported(f"the command {head!r} after (exit)")
        if checked and head not in ("get-model", "exit", "set-info"):  # the answer is the first check-sat's
            raise Unsupported(f"the command {head!r} after (check-sat)")
        if head in ("set-logic", "set-info", "set-option", "check-sat", "exit", "get-model"):
            checked, ended = checked or head == "check-sat", head == "exit"
            continue
        if head in ("declare-fun", "declare-const"):
            sort = cmd[3] if head == "declare-fun" and len(cmd) == 4 and cmd[2] == [] else (
                cmd[2] if head == "declare-const" and len(cmd) == 3 else None)
            if sort not in ("Real", "Int", "Bool") or not isinstance(cmd[1], str) or cmd[1] in q.sorts \
                    or cmd[1] in defined:
                raise Unsupported(f"declaration {cmd!r}: only fresh constants of sort Real, Int or Bool")
            q.sorts[cmd[1]] = sort  # as declared; the kernel reads Int as Real (tests only "Bool")
        elif head == "define-fun" and len(cmd) == 5 and cmd[2] == [] and isinstance(cmd[1], str):
            if cmd[1] in q.sorts or cmd[1] in defined:
                raise Unsupported(f"{cmd[1]} is defined twice")
            defined[cmd[1]] = expand_lets(cmd[4], defined)
        elif head == "assert" and len(cmd) == 2:
            q.assertions.append(expand_lets(cmd[1], defined))
        else:
            raise Unsupported(f"the command {head!r} is not understood by the kernel")
    undeclared = [name for e in q.assertions for name in free_names(e) if name not in q.sorts]
    if undeclared:
        raise Unsupported(f"{undeclared[0]} is used but not declared")
    parts = [q.nnf(e, True) for e in q.assertions]  # reading them lifts terms, adding side conditions
    q.formula = _mk("and", parts + q.side)
    return q


def free_names(e: Any) -> dict[str, None]:
    """The names an s-expression uses (operators excluded), in order of first occurrence."""
    out: dict[str, None] = {}
    seen: set[int] = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, str) and x not in ("true", "false"):
            out.setdefault(x)
        elif isinstance(x, list) and id(x) not in seen:
            seen.add(id(x))
            stack.extend(reversed(x[1:]))
    return out


def simplify(f: Formula, assign: dict[Any, bool], memo: dict[int, Formula] | None = None) -> Formula:
    """``f`` with the assigned atoms replaced by their truth values."""
    if isinstance(f, bool):
        return f
    if f[0] == "lit":
        v = assign.get(f[1])
        return f if v is None else v == f[2]
    memo = {} if memo is None else memo
    if id(f) not in memo:
        memo[id(f)] = _mk(f[0], [simplify(g, assign, memo) for g in f[1]])
    return memo[id(f)]


def propagate(f: Formula, assign: dict[Any, bool]) -> tuple[bool, dict[Any, bool]]:
    """Unit propagation: (closed, assignment) where closed means the formula is false under the
    assignment; otherwise the assignment is extended by every literal the formula forces."""
    assign, whole = dict(assign), f
    while True:
        f = simplify(whole, assign)
        if f is False or f is True:
            return f is False, assign
        units = [f] if f[0] == "lit" else [g for g in f[1] if f[0] == "and" and g[0] == "lit"]
        before = len(assign)
        for _, key, pol in units:
            if assign.setdefault(key, pol) != pol:  # the formula forces both a literal and its negation
                return True, assign
        if len(assign) == before:  # nothing new is forced
            return False, assign


def leaf_constraints(f: Formula, assign: dict[Any, bool]) -> tuple[bool, dict[tuple[Any, bool], Poly]]:
    """(closed, constraints): the leaf's true literals on linear atoms, keyed by (polynomial key, strict)."""
    closed, full = propagate(f, assign)
    pairs = [constraint_of(key, pol) for key, pol in full.items() if key[0] == "lin"]
    return closed, {(p.key(), strict): p for p, strict in pairs}


def check_farkas(constraints: dict[tuple[Any, bool], Poly], items: Any) -> str | None:
    """None when the entries ``[FACTORS, LAMBDA]`` combine into a contradiction (see the module
    docstring); else why not."""
    if not isinstance(items, list):
        return "the farkas entry is not a list"
    total, strict_used = Poly(), False
    for item in items:
        if not (isinstance(item, list) and len(item) == 2):
            return f"malformed multiplier entry {item!r}"
        lam = frac(item[1])
        if lam < 0:
            return f"negative multiplier {lam}"
        if not (isinstance(item[0], list) and item[0]):
            raise ValueError("an entry needs a non-empty list of factors")
        g, strict = Poly.const(1), True  # the product G of the factors: G >= 0 on the branch, G > 0 if strict
        for fac in item[0]:
            if not (isinstance(fac, list) and len(fac) == 2):
                raise ValueError(f"malformed factor {fac!r}")
            op, p = fac[0], Poly.from_json(fac[1])
            if op == "sq":
                g, strict = g * p * p, False
            elif op not in ("<", "<="):
                raise ValueError(f"factor operator {op!r} (expected <, <= or sq)")
            elif (p.key(), op == "<") not in constraints:
                return f"the constraint {p!r} {op} 0 is not a literal of this branch"
            else:
                g, strict = g * (-p), strict and op == "<"
        if lam:
            total = total + g.scale(lam)
            strict_used = strict_used or strict
    c = total.constant()
    if c is None:
        return f"the combination is not a constant: {total!r}"
    if c < 0 or (c == 0 and strict_used):
        return None
    return f"the combination is the constant {c} with{'' if strict_used else 'out'} a strict part: no contradiction"


def _atom(a: Any) -> tuple[Any, bool]:
    """The (key, polarity) of a certificate's atom ``[op, poly]``: ``poly op 0``, op ``<``/``<=``."""
    op, pj = a
    f = literal(Poly.from_json(pj), op == "<")
    if op not in ("<", "<=") or isinstance(f, bool):
        raise ValueError("not a non-constant < or <= atom")
    return f[1], f[2]


def covers(f: Formula, true: set[Any], want: list[frozenset[Any]]) -> bool:
    """Whether ``f`` (simplified on a branch whose true literals are ``true``) has a disjunction
    each disjunct of which, with ``true``, contains one of the cubes ``want``."""
    conjuncts = [] if isinstance(f, bool) else list(f[1]) if f[0] == "and" else [f]
    return any(g[0] == "or" and all(any(c <= true | frozenset(d[1] if d[0] == "and" else [d]) for c in want)
                                    for d in g[1]) for g in conjuncts)


def check_tree(q: Query, tree: Any, max_nodes: int = 1_000_000) -> tuple[str | None, int]:
    """(None, leaves) when every branch of the tree is closed; else (why not, leaves seen)."""
    stack: list[tuple[Any, dict[Any, bool], str, Formula]] = [(tree, {}, "root", q.formula)]
    leaves = nodes = 0
    while stack:
        node, assign, where, whole = stack.pop()  # whole: the query and the lemmas' clauses in scope
        nodes += 1
        if nodes > max_nodes:
            return f"more than {max_nodes} nodes", leaves
        if not isinstance(node, dict):
            return f"{where}: a node is not an object", leaves
        try:
            if "split" in node:
                key, pol = _atom(node["split"])
                if key in assign:
                    return f"{where}: splits twice on the same atom", leaves
                stack += [(node[b], {**assign, key: pol == (b == "then")}, f"{where}/{b}", whole)
                          for b in ("then", "else")]
            elif "cases" in node:  # one tree per cube; every disjunct of a disjunction of the branch implies a cube
                closed, full = propagate(whole, assign)
                if closed:
                    continue
                f = simplify(whole, full)
                cubes = [dict(_atom(a) for a in cube) for cube in node["cases"]]
                want = [frozenset(("lit", k, p) for k, p in c.items()) for c in cubes]
                true = {("lit", k, p) for k, p in full.items()}  # the branch implies a cube of true literals
                if not any(c <= true for c in want) and not covers(f, true, want):  # or a disjunction does
                    return f"{where}: the cases do not cover a disjunction of the branch", leaves
                if not isinstance(node.get("trees"), list) or len(node["trees"]) != len(cubes):
                    return f"{where}: not one tree per case", leaves
                stack += [(sub, {**assign, **c}, f"{where}/case{k}", whole)
                          for k, (c, sub) in enumerate(zip(cubes, node["trees"], strict=True))]
            elif "lemmas" in node:  # cuts: each cube refuted with the earlier clauses, then all clauses assumed
                for k, (cube, proof) in enumerate(node["lemmas"]):
                    c = dict(_atom(a) for a in cube)
                    stack.append((proof, {**assign, **c}, f"{where}/lemma{k}", whole))
                    whole = _mk("and", [whole, _mk("or", [("lit", key, not pol) for key, pol in c.items()])])
                stack.append((node.get("then"), assign, f"{where}/then", whole))
            elif "farkas" in node:
                leaves += 1
                closed, cons = leaf_constraints(whole, assign)
                why = None if closed else check_farkas(cons, node["farkas"])
                if why is not None:
                    return f"{where}: {why}", leaves
            else:
                return f"{where}: a node is neither a split, cases, lemmas nor a farkas leaf", leaves
        except (ValueError, TypeError, KeyError, ZeroDivisionError) as e:
            return f"{where}: malformed node ({type(e).__name__}: {e})", leaves
    return None, leaves
