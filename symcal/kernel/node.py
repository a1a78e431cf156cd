"""Node claims at one size m: the statement, the node-symmetry reduction and the queries.

A ``node`` certificate states, as SMT-LIB formulas over the weight variables (``a_i_j``, read
with ``a_i_j >= 0``, or ``d_i_j`` for i < j, which stands for a_ij - a_ji and ranges over the
reals -- a stronger statement), the claim at size m:

    for every assignment:  (and of the ``hypotheses``)  implies  (and of the ``conclusions``)

with one conclusion per ordered tuple of distinct nodes.  The kernel re-derives it:

* ``fixed`` (node symmetry): the set of hypothesis formulas is mapped onto itself by the
  relabellings of (1 2) and (1 2 ... m), hence by all of S_m, and each conclusion is the fixed
  tuple's conclusion relabelled; then one query, for the fixed tuple, covers every tuple;
* without ``fixed``: one query per conclusion tuple;
* each query asserts only hypothesis formulas (any subset: fewer only weakens them), the
  weights' signs, and the negated conclusion of its tuple; its Farkas tree proves it unsat.

Formulas are compared in the kernel's own negation normal form (:mod:`.lra`), with the
arguments of ``and``/``or`` as sets.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from symcal.kernel.lra import Query, check_tree, free_names, literal, read_query
from symcal.kernel.poly import Poly
from symcal.kernel.terms import Unsupported, expand_lets, read_one

_VAR = re.compile(r"^([ad])_(\d+)_(\d+)$")


def _canon(f: Any) -> Any:
    if isinstance(f, tuple) and f[0] in ("and", "or"):
        return (f[0], frozenset(_canon(g) for g in f[1]))
    return f


def _relabel(e: Any, perm: dict[int, int], names: set[str]) -> Any:
    if isinstance(e, str):
        if e not in names:
            return e
        kind, i, j = _VAR.match(e).groups()  # type: ignore[union-attr]
        pi, pj = perm[int(i)], perm[int(j)]
        if kind == "a" or pi < pj:
            return f"{kind}_{pi}_{pj}"
        return ["-", f"d_{pj}_{pi}"]
    if isinstance(e, list):
        return [e[0]] + [_relabel(x, perm, names) for x in e[1:]]
    return e


class _Reader:
    def __init__(self, names: set[str]) -> None:
        self.q = Query(sorts={n: "Real" for n in names})
        self.names = names

    def formula(self, e: Any) -> Any:
        f = _canon(self.q.nnf(e, True))
        if self.q.side:
            raise Unsupported("a node formula with if-then-else or a quotient")
        return f


def _tuple(t: Any) -> tuple[int, ...] | None:
    """A tuple of node numbers (ints, never bools or floats), or None."""
    if not isinstance(t, list) or not all(type(i) is int for i in t):
        return None
    return tuple(t)


def _shape_problem(cert: dict[str, Any]) -> str | None:
    """Why the statement's parts are malformed (None when they are lists of the right items)."""
    for key in ("variables", "hypotheses", "conclusions", "queries"):
        if not isinstance(cert.get(key), list):
            return f"{key} is not a list"
    if not all(isinstance(v, str) for v in cert["variables"] + cert["hypotheses"]):
        return "variables and hypotheses must be strings"
    if len(set(cert["variables"])) != len(cert["variables"]):
        return "a variable is listed twice"
    for key in ("conclusions", "queries"):
        if not all(isinstance(e, list) and len(e) == 2 for e in cert[key]):
            return f"{key} is not a list of [tuple, ...] pairs"
    if not cert["conclusions"]:
        return "no conclusions"
    if not all(_tuple(t) is not None and isinstance(text, str) for t, text in cert["conclusions"]):
        return "a conclusion is not [[node, ...], formula]"
    return None


def check_node(cert: dict[str, Any]) -> str | None:
    """None when the certificate proves its node claim at size m (see the module docstring)."""
    m = cert.get("m")
    why = _shape_problem(cert)
    if why is not None:
        return why
    names = set(cert["variables"])
    if type(m) is not int or m < 1 or not names:
        return "no size or no variables"
    raw = None
    for n in names:
        hit = _VAR.match(n)
        if not hit or not (1 <= int(hit[2]) <= m and 1 <= int(hit[3]) <= m) or hit[2] == hit[3] \
                or n != f"{hit[1]}_{int(hit[2])}_{int(hit[3])}":
            return f"{n!r} is not a weight variable on nodes 1..{m}"
        if raw is None:
            raw = hit[1] == "a"
        if (hit[1] == "a") != raw or (hit[1] == "d" and int(hit[2]) > int(hit[3])):
            return "mixed or unordered weight variables"
    pairs = itertools.permutations(range(1, m + 1), 2)
    every = {f"a_{i}_{j}" for i, j in pairs} if raw else {f"d_{i}_{j}" for i, j in pairs if i < j}
    if names != every:
        return f"the variables are not every weight variable on nodes 1..{m}"
    rd = _Reader(names)
    hyps = [expand_lets(read_one(t)) for t in cert["hypotheses"]]
    concl_list = [(_tuple(t), expand_lets(read_one(text))) for t, text in cert["conclusions"]]
    for f in hyps + [c for _, c in concl_list]:
        if set(free_names(f)) - names:
            return f"a formula uses {sorted(set(free_names(f)) - names)[0]!r}, not a weight variable at m = {m}"
    hyp_set = {rd.formula(h) for h in hyps}
    concl = dict(concl_list)
    if len(concl) != len(concl_list):
        return "a conclusion tuple is listed twice"
    arity = len(next(iter(concl)))  # type: ignore[arg-type]
    if set(concl) != set(itertools.permutations(range(1, m + 1), arity)):
        return f"the conclusions are not one per ordered {arity}-tuple of distinct nodes of 1..{m}"
    fixed = cert.get("fixed")
    if fixed is not None:
        fixed = _tuple(fixed)
        if fixed != tuple(range(1, arity + 1)):
            return "the fixed tuple is not (1, ..., s)"
        nodes = range(1, m + 1)
        gens = [{**{i: i for i in nodes}, 1: 2, 2: 1}] + ([{i: i % m + 1 for i in nodes}] if m >= 3 else [])
        for perm in gens if m >= 2 else []:
            for h in hyps:
                if rd.formula(_relabel(h, perm, names)) not in hyp_set:
                    return "the hypotheses are not invariant under relabelling nodes"
        for t, f in concl.items():
            perm = {**dict(zip(fixed, t, strict=True)),
                    **dict(zip(range(arity + 1, m + 1), [i for i in nodes if i not in t], strict=True))}
            if rd.formula(_relabel(concl[fixed], perm, names)) != rd.formula(f):
                return f"the conclusion at {t} is not the fixed tuple's conclusion relabelled"
    signs = {_canon(literal(-Poly.var(n), False)) for n in names} if raw else set()
    if cert.get("split"):
        return _check_split(cert, rd, concl, fixed, hyp_set | signs | {True})
    want = [fixed] if fixed is not None else list(concl)
    queries = {_tuple(t): body for t, body in cert["queries"]}
    if len(queries) != len(cert["queries"]) or None in queries:
        return "a query's tuple is malformed or listed twice"
    if set(queries) != set(want):
        return f"queries for {sorted(queries)}, expected {sorted(want)}"
    for t, body in queries.items():
        q = _query(body, t)
        allowed = hyp_set | signs | {_canon(rd.q.nnf(concl[t], False))}
        for k, a in enumerate(q.assertions):
            if _canon(q.nnf(a, True)) not in allowed:
                return f"assertion {k} of the query for {t} is neither a hypothesis, a sign nor the negated conclusion"
        why, _ = check_tree(q, body.get("tree"))
        if why is not None:
            return f"the query for {t}: {why}"
    return None


def _query(body: Any, what: Any) -> Query:
    if not isinstance(body, dict) or body.get("kind") != "farkas":
        raise Unsupported(f"the query for {what} is not a farkas certificate")
    q = read_query(body["smtlib"])
    if q.side:
        raise Unsupported(f"the query for {what} lifts if-then-else or quotient terms")
    return q


def _check_split(cert: dict[str, Any], rd: _Reader, concl: dict[tuple[int, ...], Any], fixed: Any,
                 allowed: set[Any]) -> str | None:
    """The fixed tuple's conclusion ``guard -> E rel 0`` split into a base term and one term per
    other node: each query refutes ``guard``, some hypotheses and signs, and ``not (T > 0)`` (the
    base, when rel is strict) or ``not (T >= 0)``; the terms T must add up to E exactly."""
    if fixed is None:
        return "a split without the node symmetry"
    goal = concl[fixed]
    guard: Any = "true"
    if isinstance(goal, list) and goal[0] == "=>" and len(goal) == 3:
        guard, goal = goal[1], goal[2]
    if not (isinstance(goal, list) and len(goal) == 3 and goal[0] in (">", ">=", "<", "<=")):
        return "the fixed tuple's conclusion is not 'guard -> S rel T'"
    lhs, rhs = rd.q.poly(goal[1]), rd.q.poly(goal[2])
    e, strict = (lhs - rhs, goal[0] == ">") if goal[0] in (">", ">=") else (rhs - lhs, goal[0] == "<")
    allowed = allowed | {_canon(rd.q.nnf(guard, True))}
    total = Poly.const(0)
    parts = cert["queries"]
    if [p[0] for p in parts].count("base") != 1:
        return "a split needs exactly one base query"
    for what, body in parts:
        q = _query(body, what)
        terms = []
        for a in q.assertions:
            if _canon(q.nnf(a, True)) in allowed:
                continue
            rel = a[1] if isinstance(a, list) and a[0] == "not" and len(a) == 2 else None
            if rel == "true":  # the goal 0 >= 0 of a term that is zero
                terms.append((Poly.const(0), False))
                continue
            if isinstance(rel, list) and len(rel) == 3 and rel[0] in (">", ">=", "<", "<="):
                x, y = q.poly(rel[1]), q.poly(rel[2])
                terms.append((x - y if rel[0] in (">", ">=") else y - x, rel[0] in (">", "<")))
                continue
            return f"the {what} query asserts {a!r}, which is neither a hypothesis, a sign, the guard nor its goal"
        if len(terms) != 1 or terms[0][1] != (what == "base" and strict):
            return f"the {what} query has no goal of the right strictness"
        why, _ = check_tree(q, body.get("tree"))
        if why is not None:
            return f"the {what} query: {why}"
        total = total + terms[0][0]
    if (total - e).constant() != 0:
        return "the terms do not add up to the conclusion's sum"
    return None
