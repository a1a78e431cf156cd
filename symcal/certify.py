"""Certificates for verdicts, built here and checked by :mod:`symcal.kernel`.

This module is *outside* the trusted kernel: it may use z3, sympy and scipy, make mistakes
and give up.  What it builds is plain data that :func:`symcal.kernel.check` re-checks on its
own; a certificate the kernel rejects turns the verdict into ``unknown`` with a reason
starting ``CERTIFICATE REJECTED`` (a producer bug, a kernel bug or a wrong solver answer:
either way the proof is not trusted).  A verdict for which no certificate could be built
stays as it is, counted as *solver-trusted*.

Producers:

* ``farkas``: an SMT answer ``unsat`` (proved implications, node claims, their cases and
  sizes).  The kernel's own reading of the SMT-LIB2 text gives the atoms; the case tree is
  built DPLL-style (split on an atom of a shortest open clause, unit propagation by the
  kernel's rules), and each leaf's multipliers come from an LP (scipy HiGHS) over the
  leaf's literals -- and, when the literals are not linear, their pairwise (then triple)
  products -- made exact by solving for the LP's support in rational arithmetic.
* ``identity``: a sympy ``proved`` identity whose sides are rational functions: the sides
  are written as s-expressions; the kernel expands lhs - rhs itself.
* ``interval``: an interval proof: a bisection tree with enclosure leaves and
  derivative-sign (monotone) nodes, searched here with the kernel's own ball arithmetic.
* ``witness``: an exact counterexample or example of an implication, existence or identity
  claim whose expressions are polynomial: the claim's own expressions, written as
  s-expressions, and the witness values.

Anything else (exhaustive enumeration, nonlinear SMT answers without a certificate) has no
certificate and is reported as such.
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcal.backends.base import Outcome
from symcal.kernel import check as kernel_check
from symcal.kernel.lra import Query, check_tree, constraint_of, leaf_constraints, propagate, read_query, simplify
from symcal.kernel.poly import Poly, frac_str
from symcal.kernel.terms import Unsupported

__all__ = ["CertificateCheck", "CertifiedOutcome", "farkas_certificate", "build", "judge", "certify",
           "REJECTED", "SECONDS"]

REJECTED = "CERTIFICATE REJECTED"
SECONDS = 30.0  # default time for building the certificates of one decision


class GiveUp(Exception):
    """No certificate within the limits (the verdict stands, solver-trusted)."""


@contextlib.contextmanager
def _time_limit(seconds: float, what: str) -> Iterator[None]:
    """Raise GiveUp in the main thread after ``seconds`` of wall clock (sympy and long
    expansions cannot otherwise be stopped); elsewhere, no limit."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise GiveUp(f"time limit of {seconds:.3g} s reached while {what}")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, max(0.01, seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------------------
# farkas: case tree + Positivstellensatz leaves for an unsat SMT-LIB2 query
# ---------------------------------------------------------------------------------------


# products of literals (exact, and as floats for the LP), shared by the leaves of a search
_PRODUCTS: dict[tuple[int, ...], tuple[Poly, dict[Any, float]]] = {}
_INTERN: dict[tuple[Any, bool], int] = {}


def _columns(cons: list[tuple[Poly, bool, list[Any]]],
             degree: int) -> list[tuple[list[Any], Poly, bool, dict[Any, float]]]:
    """Candidate products (factors, G, strict, G as floats) of up to ``degree`` leaf literals."""
    if len(_PRODUCTS) > 200_000:
        _PRODUCTS.clear()
        _INTERN.clear()
    keys = [_INTERN.setdefault((p.key(), strict), len(_INTERN)) for p, strict, _ in cons]
    out = []
    for d in range(1, degree + 1):
        for combo in itertools.combinations_with_replacement(range(len(cons)), d):
            key = tuple(keys[i] for i in combo)
            hit = _PRODUCTS.get(key)
            if hit is None:
                g = -cons[combo[0]][0] if d == 1 else _PRODUCTS[key[:-1]][0] * (-cons[combo[-1]][0])
                hit = _PRODUCTS[key] = (g, {m: float(c) for m, c in g.terms.items()})
            out.append(([cons[i][2] for i in combo], hit[0], all(cons[i][1] for i in combo), hit[1]))
    return out


def _nullspace_solution(cols: list[Poly], support: list[int], approx: list[float]) -> list[Fraction] | None:
    """Exact lambdas on ``support`` with sum lambda_j * G_j constant: the free variables of the
    linear system fixed to rationalised LP values, the pivots solved exactly."""
    monos = sorted({m for j in support for m in cols[j].terms if m})
    rows = [[cols[j].terms.get(m, Fraction(0)) for j in support] for m in monos]
    n = len(support)
    pivots: list[int] = []
    r = 0
    for c in range(n):  # reduced row echelon form over the rationals
        pr = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if pr is None:
            continue
        rows[r], rows[pr] = rows[pr], rows[r]
        inv = 1 / rows[r][c]
        rows[r] = [x * inv for x in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r], strict=True)]
        pivots.append(c)
        r += 1
        if r == len(rows):
            break
    free = [c for c in range(n) if c not in pivots]
    if not free:
        return None
    lam = [Fraction(0)] * n
    scale = max(approx) or 1.0
    for c in free:
        lam[c] = Fraction(approx[c] / scale).limit_denominator(10**6)
    for i, c in enumerate(pivots):
        lam[c] = -sum((rows[i][f] * lam[f] for f in free), Fraction(0))
    return lam


def _lp_leaf(cons: list[tuple[Poly, bool, list[Any]]], degree: int, kcons: dict[Any, Poly]) -> list[Any] | None:
    """Multipliers closing a leaf, verified with the kernel's own rule, or None."""
    import numpy as np
    from scipy.optimize import linprog

    from symcal.kernel.lra import check_farkas

    cols = _columns(cons, degree)
    if not cols:
        return None
    index: dict[Any, int] = {}
    for col in cols:
        for m in col[3]:
            if m and m not in index:
                index[m] = len(index)
    monos = list(index)
    n = len(cols)
    a_eq = np.zeros((len(monos), n))
    const = np.zeros(n)
    strict = np.array([1.0 if col[2] else 0.0 for col in cols])
    for j, col in enumerate(cols):
        for m, c in col[3].items():
            if m:
                a_eq[index[m], j] = c
            else:
                const[j] = c
    # maximise -c + (strict mass) with c = sum lambda_j G_j(0) <= 0, sum lambda <= 1
    res = linprog(-(-const + strict), A_ub=np.vstack([const, np.ones(n)]), b_ub=np.array([0.0, 1.0]),
                  A_eq=a_eq if len(monos) else None, b_eq=np.zeros(len(monos)) if len(monos) else None,
                  bounds=[(0, None)] * n, method="highs")
    if res.status != 0 or -res.fun < 1e-9:
        return None
    x = [max(0.0, float(v)) for v in res.x]
    support = [j for j in range(n) if x[j] > 1e-12]
    tries: list[list[Fraction]] = []
    top = max(x[j] for j in support)
    for den in (1, 10, 1000, 10**6):
        tries.append([Fraction(x[j] / top).limit_denominator(den) for j in support])
    exact = _nullspace_solution([cols[j][1] for j in range(n)], support, [x[j] for j in support])
    if exact is not None:
        tries.append(exact)
    for lam in tries:
        if any(v < 0 for v in lam):
            continue
        entries = [[cols[j][0], frac_str(v)] for j, v in zip(support, lam, strict=True) if v]
        if entries and check_farkas(kcons, entries) is None:
            return entries
    return None


@dataclass
class _Search:
    q: Query
    deadline: float
    max_leaves: int
    leaves: int = 0
    seen: dict[Any, Any] = field(default_factory=dict)

    def tree(self, assign: dict[Any, bool], depth: int = 0) -> dict[str, Any]:
        if time.monotonic() > self.deadline:
            raise GiveUp("time limit reached while building the case tree")
        closed, full = propagate(self.q, assign)
        self.leaves += 1
        if self.leaves > self.max_leaves:
            raise GiveUp(f"the case tree needs more than {self.max_leaves} leaves")
        if closed:
            return {"farkas": []}
        _, kcons = leaf_constraints(self.q, assign)
        cons = []
        for key, pol in full.items():
            if key[0] == "lin":
                p, strict = constraint_of(key, pol)
                cons.append((p, strict, ["<" if strict else "<=", p.to_json()]))
        linear = all(p.degree() <= 1 for p, _, _ in cons)
        for degree in (1,) if linear else (1, 2):
            entries = _lp_leaf(cons, degree, kcons) if cons else None
            if entries is not None:
                return {"farkas": entries}
        point = _lp_point(cons)
        atom = self._choose(full, point)
        if atom is None and not linear and len(cons) <= 14:  # nothing left to split on: cubic products
            entries = _lp_leaf(cons, 3, kcons)
            if entries is not None:
                return {"farkas": entries}
        if atom is None:
            raise GiveUp("a branch is consistent as far as the LP relaxation can tell (nonlinear, or the query "
                         "is satisfiable)")
        key, pol = atom
        p, strict = constraint_of(key, pol)
        split = ["<" if strict else "<=", p.to_json()]
        then = self.tree({**assign, key: pol}, depth + 1)
        if check_tree(self.q, then, start=assign)[0] is None:
            return then  # the branch did not need the literal: no split
        other = self.tree({**assign, key: not pol}, depth + 1)
        return {"split": split, "then": then, "else": other}

    def _choose(self, full: dict[Any, bool], point: dict[str, float] | None) -> tuple[Any, bool] | None:
        """A literal to split on: false at the LP point, in a shortest conjunct the point
        falsifies; else an unassigned literal of a shortest conjunct."""
        f = simplify(self.q.formula, full)
        if isinstance(f, bool):
            return None
        clauses = [f] if f[0] != "and" else list(f[1])
        best: tuple[int, int, tuple[Any, bool]] | None = None
        for c in clauses:
            lits = [(k, p) for k, p in _literals(c) if k[0] == "lin" and k not in full]
            if not lits:
                continue
            false_here = [lit for lit in lits if point is not None and _value(lit, point) is False]
            falsified = point is not None and _value_formula(c, point) is False
            rank = (0 if falsified and false_here else 1, len(lits))
            pick = false_here[0] if falsified and false_here else lits[0]
            if best is None or rank < best[:2]:
                best = (rank[0], rank[1], pick)
        return best[2] if best else None


def _value(lit: tuple[Any, bool], point: dict[str, float]) -> bool | None:
    key, pol = lit
    if key[0] != "lin":
        return None
    total = 0.0
    for m, c in key[1]:
        t = float(c)
        for v, e in m:
            if v not in point:
                return None
            t *= point[v] ** e
        total += t
    holds = total < -1e-9 if key[2] else total <= 1e-9
    return holds == pol


def _value_formula(f: Any, point: dict[str, float]) -> bool | None:
    if isinstance(f, bool):
        return f
    if f[0] == "lit":
        return _value((f[1], f[2]), point)
    vals = [_value_formula(g, point) for g in f[1]]
    if f[0] == "and":
        return False if False in vals else (True if all(v is True for v in vals) else None)
    return True if True in vals else (False if all(v is False for v in vals) else None)


def _lp_point(cons: list[tuple[Poly, bool, list[Any]]]) -> dict[str, float] | None:
    """A point satisfying the linear literals (strict ones with the largest margin up to 1)."""
    import numpy as np
    from scipy.optimize import linprog

    lin = [(p, s) for p, s, _ in cons if p.degree() <= 1]
    names = sorted({v for p, _ in lin for m in p.terms for v, _ in m})
    if not names:
        return {}
    idx = {v: i for i, v in enumerate(names)}
    n = len(names)
    a = np.zeros((len(lin), n + 1))
    b = np.zeros(len(lin))
    for r, (p, strict) in enumerate(lin):
        for m, c in p.terms.items():
            if m:
                a[r, idx[m[0][0]]] = float(c)
            else:
                b[r] = -float(c)
        a[r, n] = 1.0 if strict else 0.0
    cost = np.zeros(n + 1)
    cost[n] = -1.0
    res = linprog(cost, A_ub=a if len(lin) else None, b_ub=b if len(lin) else None,
                  bounds=[(None, None)] * n + [(None, 1.0)], method="highs")
    if res.status != 0:
        return None
    return {v: float(res.x[i]) for v, i in idx.items()}


def _literals(f: Any) -> list[tuple[Any, bool]]:
    out: list[tuple[Any, bool]] = []
    stack = [f]
    while stack:
        g = stack.pop()
        if isinstance(g, bool):
            continue
        if g[0] == "lit":
            out.append((g[1], g[2]))
        else:
            stack.extend(reversed(g[1]))
    return out


def farkas_certificate(smtlib: str, seconds: float = 10.0, max_leaves: int = 4000) -> dict[str, Any]:
    """A ``farkas`` certificate that the SMT-LIB2 query is unsat; raises GiveUp."""
    start = time.monotonic()
    try:
        q = read_query(smtlib)
    except Unsupported as e:
        raise GiveUp(f"the kernel cannot read the query: {e}") from None
    tree = _Search(q, start + seconds, max_leaves).tree({})
    return {"kind": "farkas", "smtlib": smtlib, "tree": tree}


# ---------------------------------------------------------------------------------------
# sympy expressions as the kernel's s-expressions
# ---------------------------------------------------------------------------------------

_RESERVED = {"true", "false", "and", "or", "not", "ite", "let", "exp", "log", "sqrt", "distinct", "xor", "to_real"}


def _name(s: Any) -> str:
    import re

    n = str(s)
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.'!]*", n) and n not in _RESERVED:
        return n
    if "|" in n or "\\" in n:
        raise GiveUp(f"the symbol name {n!r} cannot be written in the kernel's syntax")
    return f"|{n}|"


def sexpr(e: Any, *, transcendental: bool = False) -> str:
    """``e`` (a sympy expression or relation) in the kernel's syntax; GiveUp when it has a part
    the kernel cannot read (transcendental functions only when ``transcendental``)."""
    import sympy

    def go(x: Any) -> str:
        if isinstance(x, bool) or x is sympy.true or x is sympy.false:
            return "true" if bool(x) else "false"
        if isinstance(x, int | Fraction):
            return frac_str(Fraction(x))
        if isinstance(x, sympy.Rational):
            return frac_str(Fraction(int(x.p), int(x.q)))
        if isinstance(x, sympy.Symbol):
            return _name(x)
        if isinstance(x, sympy.Add):
            return "(+ " + " ".join(go(a) for a in x.args) + ")"
        if isinstance(x, sympy.Mul):
            return "(* " + " ".join(go(a) for a in x.args) + ")"
        if isinstance(x, sympy.Pow):
            base, ex = x.args
            if isinstance(ex, sympy.Rational) and (ex.q == 1 or transcendental):
                return f"(^ {go(base)} {frac_str(Fraction(int(ex.p), int(ex.q)))})"
            raise GiveUp(f"the power {x} is not an integer power")
        if transcendental and isinstance(x, sympy.exp):
            return f"(exp {go(x.args[0])})"
        if transcendental and isinstance(x, sympy.log) and len(x.args) == 1:
            return f"(log {go(x.args[0])})"
        rel = {sympy.StrictLessThan: "<", sympy.LessThan: "<=", sympy.StrictGreaterThan: ">",
               sympy.GreaterThan: ">=", sympy.Equality: "=", sympy.Unequality: "distinct"}
        for cls, op in rel.items():
            if isinstance(x, cls):
                return f"({op} {go(x.lhs)} {go(x.rhs)})"
        logic = {sympy.And: "and", sympy.Or: "or", sympy.Not: "not", sympy.Implies: "=>"}
        for cls, op in logic.items():
            if isinstance(x, cls):
                return f"({op} " + " ".join(go(a) for a in x.args) + ")"
        if isinstance(x, sympy.Abs):
            a = go(x.args[0])
            return f"(ite (>= {a} 0) {a} (- {a}))"
        if isinstance(x, sympy.Max | sympy.Min):
            out = go(x.args[0])
            for a in x.args[1:]:
                b = go(a)
                out = f"(ite ({'>=' if isinstance(x, sympy.Max) else '<='} {out} {b}) {out} {b})"
            return out
        if isinstance(x, sympy.Piecewise):
            *branches, (last, cond) = x.args
            if cond is not sympy.true:
                raise GiveUp("a Piecewise without an otherwise branch")
            out = go(last)
            for ex, c in reversed(branches):
                out = f"(ite {go(c)} {go(ex)} {out})"
            return out
        raise GiveUp(f"{type(x).__name__} ({sympy.sstr(x)[:60]}) has no meaning in the kernel")

    return go(sympy.sympify(e))


def _rational_function(e: Any) -> bool:
    import sympy

    for x in sympy.preorder_traversal(sympy.sympify(e)):
        if isinstance(x, sympy.Pow) and not (isinstance(x.args[1], sympy.Integer)):
            return False
        if not isinstance(x, sympy.Add | sympy.Mul | sympy.Pow | sympy.Symbol | sympy.Rational):
            return False
    return True


def _opaque(e: Any) -> bool:
    import sympy

    return isinstance(e, sympy.exp | sympy.log) or (isinstance(e, sympy.Pow) and not isinstance(e.args[1],
                                                                                               sympy.Integer))


def identity_certificate(lhs: Any, rhs: Any) -> dict[str, Any]:
    """The sides as s-expressions.  With logs, exps or roots, the kernel reads each as an opaque
    atom; the identity is sent only when it also holds with the atoms replaced by fresh symbols
    (a sympy pre-check: an identity that needs log or root rules has no certificate)."""
    import sympy

    lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    if isinstance(lhs, sympy.MatrixBase) or isinstance(rhs, sympy.MatrixBase):
        lm, rm = sympy.Matrix(lhs), sympy.Matrix(rhs)
        pairs = list(zip(list(lm), list(rm), strict=True))
    else:
        pairs = [(lhs, rhs)]
    out = []
    for a, b in pairs:
        if not (_rational_function(a) and _rational_function(b)):
            atoms = {x for side in (a, b) for x in sympy.preorder_traversal(side) if _opaque(x)}
            fresh = {x: sympy.Dummy(f"atom{k}") for k, x in enumerate(sorted(atoms, key=sympy.default_sort_key))}
            a2, b2 = a.xreplace(fresh), b.xreplace(fresh)
            if not (_rational_function(a2) and _rational_function(b2)):
                raise GiveUp("the identity has a part the kernel cannot read (not a rational function of its "
                             "variables and exp/log/root atoms)")
            if sympy.cancel(sympy.expand(a2 - b2)) != 0:
                raise GiveUp("the identity needs log, exp or root rules (it does not hold with those terms taken "
                             "as independent atoms): the kernel only expands polynomials")
        out.append([sexpr(a, transcendental=True), sexpr(b, transcendental=True)])
    return {"kind": "identity", "pairs": out}


def _values(w: Any) -> dict[str, str]:
    out = {}
    for k, v in w.values.items():
        if not isinstance(v, Fraction | int) or isinstance(v, bool):
            raise GiveUp(f"the witness value {k}={v!r} is not an exact rational")
        out[_name(k).strip("|")] = frac_str(Fraction(v))
    return out


def witness_certificate(claim: Any, m: int | None, w: Any) -> dict[str, Any]:
    """The claim's own expressions at the witness, for the kernel to evaluate exactly."""
    import sympy

    from symcal.backends.translate import assumption_constraints

    def flat(x: Any) -> list[Any]:
        return [y for z in x for y in flat(z)] if isinstance(x, list | tuple) else [x]

    spec, kind = claim.spec, claim.kind
    values = _values(w)

    def with_assumptions(exprs: list[Any]) -> list[Any]:
        syms = set().union(*[sympy.sympify(e).free_symbols for e in exprs])
        return exprs + assumption_constraints(syms)

    if kind == "implies":
        hyps = [e for b in spec.hypotheses.values() for e in flat(b(m))]
        concl = spec.conclusion(m)
        return {"kind": "witness", "values": values, "holds": [sexpr(h) for h in with_assumptions(hyps + [concl])
                                                                 if h is not concl], "fails": [sexpr(concl)]}
    if kind == "implies_cases":
        from symcal.claims.core import validate_cases
        from symcal.kernel import check

        for _, hyps_d, concl in validate_cases(spec.cases(m), claim.id, m):
            hyps = [e for v in hyps_d.values() for e in flat(v)]
            try:
                cert = {"kind": "witness", "values": values,
                        "holds": [sexpr(h) for h in with_assumptions(hyps + [concl]) if h is not concl],
                        "fails": [sexpr(concl)]}
            except GiveUp:
                continue
            if check(cert)["checked"]:
                return cert
        raise GiveUp("no case of the family is refuted by the witness in the kernel's evaluation")
    if kind == "exists":
        cons = [e for b in spec.constraints.values() for e in flat(b(m))]
        return {"kind": "witness", "values": values, "holds": [sexpr(c) for c in with_assumptions(cons)]}
    if kind == "identity":
        lhs, rhs = sympy.sympify(spec.lhs(m)), sympy.sympify(spec.rhs(m))
        if isinstance(lhs, sympy.MatrixBase) or not (_rational_function(lhs) and _rational_function(rhs)):
            raise GiveUp("the identity is not between rational functions")
        return {"kind": "witness", "values": values, "fails": [sexpr(sympy.Eq(lhs, rhs, evaluate=False))]}
    raise GiveUp(f"a {kind} claim's witness is re-checked by symcal's exact evaluator (its functions are "
                 "Python code), not by the kernel")


# ---------------------------------------------------------------------------------------
# interval: a box cover searched with the kernel's own ball arithmetic
# ---------------------------------------------------------------------------------------


@dataclass
class _CoverSearch:
    deadline: float
    max_boxes: int = 4000
    boxes: int = 0

    def run(self, g: Any, strict: bool, box: dict[str, tuple[Fraction, Fraction]], conds: list[Any],
            depth: int, level: int) -> Any:
        from symcal.kernel.interval import ArbAlgebra, Evaluator, _enclosure_ok, _env, ball_truth, derivative

        self.boxes += 1
        if self.boxes > self.max_boxes or time.monotonic() > self.deadline:
            raise GiveUp(f"no interval cover within {self.max_boxes} boxes and the time limit")
        env = _env(box)
        if _enclosure_ok(g, strict, env):
            return "enclosure"
        ev = Evaluator(ArbAlgebra(env))
        truths = [ball_truth(c, ev) for c in conds]
        if False in truths:
            return "enclosure"
        wide = [v for v, (lo, hi) in box.items() if lo < hi]
        try:
            defined = Evaluator(ArbAlgebra(env)).term(g).is_finite()
        except Unsupported:
            defined = False
        if level < 3 and defined and all(t is True for t in truths) and depth >= 2:
            for var in wide:
                try:
                    d = derivative(g, var)
                except Unsupported:
                    break
                mid = {v: ((lo + hi) / 2,) * 2 for v, (lo, hi) in box.items()}
                for sign, dd in (("+", d), ("-", ["-", d])):
                    try:  # skip a sign the derivative visibly does not have at the centre
                        if Evaluator(ArbAlgebra(_env(mid))).term(dd) < 0:
                            continue
                    except Unsupported:
                        continue
                    sub = _CoverSearch(min(self.deadline, time.monotonic() + 1.0), 200)
                    try:
                        dtree = sub.run(dd, False, box, [], depth, level + 1)
                    except GiveUp:
                        continue
                    self.boxes += sub.boxes
                    face = dict(box)
                    end = box[var][0] if sign == "+" else box[var][1]
                    face[var] = (end, end)
                    return {"monotone": var, "sign": sign, "derivative": dtree,
                            "face": self.run(g, strict, face, conds, depth + 1, level)}
        if not wide or depth > 40:
            raise GiveUp("an interval box cannot be closed (a tight point the cover does not reach)")
        var = max(wide, key=lambda v: box[v][1] - box[v][0])
        lo, hi = box[var]
        at = (lo + hi) / 2
        lo_box, hi_box = dict(box), dict(box)
        lo_box[var], hi_box[var] = (lo, at), (at, hi)
        return {"split": var, "at": frac_str(at), "lo": self.run(g, strict, lo_box, conds, depth + 1, level),
                "hi": self.run(g, strict, hi_box, conds, depth + 1, level)}


def interval_certificate(claim: Any, m: int | None, seconds: float) -> dict[str, Any]:
    """A box cover of a bounded inequality claim, found with the kernel's own arithmetic."""
    import sympy

    from symcal.claims.core import validate_box
    from symcal.kernel import interval

    if not interval.available():
        raise GiveUp("python-flint not installed (pip install python-flint): interval proofs are not replayed")
    spec = claim.spec
    lhs, rhs = sympy.sympify(spec.lhs(m)), sympy.sympify(spec.rhs(m))
    conds = spec.conditions(m)
    conds = [c for c in (list(conds) if isinstance(conds, list | tuple) else [conds])
             if c is not sympy.true and c is not True]
    box = validate_box(spec.box(m), [lhs, rhs, *conds], claim.id)
    cert: dict[str, Any] = {
        "kind": "interval", "lhs": sexpr(lhs, transcendental=True), "rhs": sexpr(rhs, transcendental=True),
        "relation": spec.relation, "conditions": [sexpr(c) for c in conds],
        "box": {_name(s).strip("|"): [frac_str(Fraction(lo)), frac_str(Fraction(hi))] for s, (lo, hi) in box.items()},
        "precision": max(53, int(spec.precision)),
    }
    from symcal.kernel.interval import _read

    g_l, g_r = _read(cert["lhs"]), _read(cert["rhs"])
    g = ["-", g_l, g_r] if spec.relation in (">", ">=") else ["-", g_r, g_l]
    kbox = {v: (Fraction(lo), Fraction(hi)) for v, (lo, hi) in cert["box"].items()}
    old = interval.flint.ctx.prec
    interval.flint.ctx.prec = cert["precision"]
    try:
        cert["tree"] = _CoverSearch(time.monotonic() + seconds).run(
            g, spec.relation in ("<", ">"), kbox, [_read(c) for c in cert["conditions"]], 0, 0)
    finally:
        interval.flint.ctx.prec = old
    return cert


# ---------------------------------------------------------------------------------------
# certifying an outcome
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CertificateCheck:
    """What the kernel established about a verdict's certificates.

    ``checked``: every piece of evidence behind the verdict has a certificate and the kernel
    accepted each; ``kernel``/``pieces`` count them; ``reason`` says what is missing or what
    was rejected; ``kind`` names the certificate kinds used."""

    kind: str
    checked: bool
    reason: str = ""
    kernel: int = 0
    pieces: int = 0
    rejected: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "checked": self.checked, "reason": self.reason or None,
                "kernel_checked": self.kernel, "pieces": self.pieces}

    def __add__(self, other: CertificateCheck) -> CertificateCheck:
        kinds = sorted(set(self.kind.split("+")) | set(other.kind.split("+")) - {"none"}) or ["none"]
        return CertificateCheck("+".join(kinds), self.checked and other.checked,
                                "; ".join(r for r in (self.reason, other.reason) if r)[:2000],
                                self.kernel + other.kernel, self.pieces + other.pieces,
                                self.rejected or other.rejected)


@dataclass(frozen=True)
class CertifiedOutcome(Outcome):
    """An outcome with the kernel's check of its certificates."""

    certificate: CertificateCheck | None = None


def _pieces(ev: Any, label: str = "") -> list[tuple[str, Any]]:
    from symcal.verdicts import Composite

    if isinstance(ev, Composite):
        out = []
        for lab, part in ev.parts:
            out += _pieces(part, f"{label}/{lab}" if label else lab)
        return out
    return [(label or "evidence", ev)]


def build(out: Outcome, claim: Any, m: int | None, seconds: float = SECONDS,
          part_seconds: float = 5.0) -> list[tuple[str, dict[str, Any] | None, str]]:
    """(label, certificate or None, why none) for every piece of evidence behind ``out``."""
    from symcal.verdicts import Exhaustive, IntervalProof, Residual, SmtResult, Status, Witness

    deadline = time.monotonic() + seconds
    result: list[tuple[str, dict[str, Any] | None, str]] = []
    if out.status not in (Status.PROVED, Status.REFUTED, Status.WITNESSED) or out.evidence is None:
        return result
    for label, ev in _pieces(out.evidence):
        left = deadline - time.monotonic()
        cert: dict[str, Any] | None = None
        why = ""
        try:
            if left <= 0.05:
                raise GiveUp("no time left for certification")
            if isinstance(ev, SmtResult):
                if ev.answer != "unsat":
                    raise GiveUp(f"an SMT answer {ev.answer} has no unsat certificate")
                cert = farkas_certificate(ev.smtlib, min(left, part_seconds))
            elif isinstance(ev, Residual):
                if claim.kind != "identity":
                    raise GiveUp("a residual of a non-identity claim")
                with _time_limit(min(left, part_seconds), "writing the identity's certificate"):
                    cert = identity_certificate(claim.spec.lhs(m), claim.spec.rhs(m))
            elif isinstance(ev, IntervalProof):
                cert = interval_certificate(claim, m, min(left, part_seconds))
            elif isinstance(ev, Witness):
                with _time_limit(min(left, part_seconds), "writing the witness's certificate"):
                    cert = witness_certificate(claim, m, ev)
            elif isinstance(ev, Exhaustive):
                raise GiveUp("exhaustive enumeration runs the claim's own Python code: no certificate (no "
                             "solver is involved either)")
            else:
                raise GiveUp(f"{type(ev).__name__} evidence has no certificate")
        except GiveUp as e:
            why = str(e)
        except Exception as e:  # noqa: BLE001 - the producer is untrusted and best effort
            why = f"the certificate producer failed: {type(e).__name__}: {e}"
        result.append((label, cert, why))
    return result


def judge(out: Outcome, built: list[tuple[str, dict[str, Any] | None, str]]) -> CertifiedOutcome:
    """Run the kernel on every certificate; a rejected one turns the verdict into unknown."""
    from symcal.verdicts import Status

    base = {f.name: getattr(out, f.name) for f in Outcome.__dataclass_fields__.values()}
    if not built:
        why = ("no decisive verdict to certify" if out.status not in (Status.PROVED, Status.REFUTED,
                                                                       Status.WITNESSED) else "no evidence")
        return CertifiedOutcome(**base, certificate=CertificateCheck("none", False, why))
    kinds, missing, rejected, ok = set(), [], [], 0
    for label, cert, why in built:
        if cert is None:
            missing.append(f"{label}: {why}" if label != "evidence" else why)
            continue
        kinds.add(cert["kind"])
        res = kernel_check(cert)
        if res["checked"]:
            ok += 1
        elif res.get("unavailable"):
            missing.append(f"{label}: {res['reason']}" if label != "evidence" else res["reason"])
        else:
            rejected.append(f"{label}: {res['reason']}" if label != "evidence" else res["reason"])
    kind = "+".join(sorted(kinds)) or "none"
    if rejected:
        reason = f"{REJECTED} by the kernel ({len(rejected)} of {len(built)}): " + "; ".join(rejected[:3])
        base.update(status=Status.UNKNOWN, reason=reason)
        return CertifiedOutcome(**base, certificate=CertificateCheck(kind, False, reason, ok, len(built), True))
    reason = "" if not missing else (f"{len(missing)} of {len(built)} pieces without a certificate: "
                                     + "; ".join(missing[:3]))[:2000]
    return CertifiedOutcome(**base, certificate=CertificateCheck(kind, not missing, reason, ok, len(built)))


def certify(out: Outcome, claim: Any, m: int | None, seconds: float = SECONDS) -> CertifiedOutcome:
    """``out`` with its certificates built and checked by the kernel (at most ``seconds``)."""
    return judge(out, build(out, claim, m, seconds))


def with_certificate(out: Outcome, check: CertificateCheck) -> CertifiedOutcome:
    base = {f.name: getattr(out, f.name) for f in Outcome.__dataclass_fields__.values()}
    return CertifiedOutcome(**base, certificate=check)

