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
  built DPLL-style (split on an atom of an open clause, unit propagation by the kernel's
  rules, recording which decisions each literal rests on so that a split a branch's proof
  does not use is dropped), first with splits only, then also with ``cases`` nodes (one
  subtree per disjunct of an asserted disjunction of cubes), and last with lemmas: a lemma from
  every closed branch, the cubes of a wide disjunction refuted one by one at the root, and the
  resolution proof of the ordering principle when the query rules out, for each term of a family,
  that it is the least (about n**3 / 3 leaves where a tree needs exponentially many).  Each
  leaf's multipliers come from an LP (scipy HiGHS) over the leaf's literals -- and, when they
  are not linear, their products of two, and (once nothing is left to split on) of more
  literals -- made exact by solving for the LP's support in rational arithmetic.  A nonlinear leaf that none of these
  closes gets a last try in :mod:`symcal.certify_sos`: free polynomial multipliers of its
  equalities and a sum of squares from a semidefinite program (cvxopt, optional), made exact.
  The finished tree is checked by the kernel before it is returned: one it rejects is a
  producer bug, reported as such.
* ``identity``: a sympy ``proved`` identity whose sides are rational functions: the sides
  are written as s-expressions; the kernel expands lhs - rhs itself (exp/log/root terms and
  applications of undefined functions, a derivative ``f'(a)`` named as a function ``f'``,
  are opaque atoms).
* ``quadratic``: the calibration engine's precondition (A), from the claim's own surrogate
  expressions and domain and the minimisers the engine computed (its pair queries are
  ``farkas`` certificates).  A proved (A) claim's pieces are then folded into one
  ``calibration-a`` certificate: the claim's loss matrix, link and noise with the quadratic piece
  and each pair query's Farkas tree; the kernel writes the pair queries itself from that statement.
  A proved (B) claim (polyhedral surrogates) is folded likewise into a ``calibration-b`` certificate:
  the claim's loss, link, noise and polyhedral surrogate (affine pieces per label), a point of the
  domain and a Farkas tree for each bounded-below and each pair query the kernel writes from them.
  A refuted (A) or (B) claim's witness becomes the same certificate with a ``refutation`` instead of the
  pair trees (:func:`calibration_refutation_certificate`): p, the minimiser u (for (B) with the engine's exact
  KKT multipliers, read in the kernel's order of terms, pieces and domain rows), the point c and the
  prediction; the kernel checks that calibration fails at p from the definition.
* ``interval``: an interval proof: a bisection tree with enclosure leaves and
  derivative-sign (monotone) nodes, searched here with the kernel's own ball arithmetic.
* ``witness``: an exact counterexample or example of an implication, existence or identity
  claim whose expressions are polynomial: the claim's own expressions, written as
  s-expressions, and the witness values.

Anything else (exhaustive enumeration, which runs the claim's own Python; nonlinear SMT
answers without a certificate; the polyhedral precondition (B) of calibration outside its
``calibration-b`` certificate; a calibration refutation by (S) or (Q)) has no certificate and is
reported as such, with the reason.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcal.backends.base import Outcome
from symcal.kernel import check as kernel_check
from symcal.kernel.lra import Query, check_tree, constraint_of, literal, propagate, read_query, simplify
from symcal.kernel.poly import Poly, frac_str
from symcal.kernel.terms import RatAlgebra, Unsupported

__all__ = ["CertificateCheck", "CertifiedOutcome", "farkas_certificate", "build", "judge", "certify",
           "literals", "REJECTED", "SECONDS", "budget"]

REJECTED = "CERTIFICATE REJECTED"
SECONDS = 30.0  # default time for building the certificates of one decision
PIECE_SECONDS = 8.0  # ... or this much per piece of its evidence, when that is more
MAX_SECONDS = 300.0  # ... but never more than this
MAX_PRODUCTS = 2500  # products of literals a Positivstellensatz leaf may try
MAX_ORDERED = 40  # the largest family whose ordering principle is proved (about n**3 / 3 leaves)


def budget(out: Outcome, seconds: float = SECONDS) -> float:
    """CPU seconds for building the certificates of ``out``: ``seconds``, or ``PIECE_SECONDS`` per
    piece of its evidence when that is more (the 25 cells of an r = 4 calibration claim take 2 to
    5 s each), at most ``MAX_SECONDS`` (and never more than 10 times ``seconds``)."""
    pieces = len(_pieces(out.evidence)) if out.evidence is not None else 1
    return min(max(seconds, PIECE_SECONDS * pieces), MAX_SECONDS, 10 * seconds)


class GiveUp(Exception):
    """No certificate within the limits (the verdict stands, solver-trusted)."""


@contextlib.contextmanager
def _time_limit(seconds: float, what: str) -> Iterator[None]:
    """Raise GiveUp in the main thread after ``seconds`` of this process's CPU time (sympy and
    long expansions cannot otherwise be stopped; CPU time, so that what gets certified does not
    depend on the machine's load -- the worker's wall-clock backstop still ends a sleeping one);
    elsewhere, no limit."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise GiveUp(f"time limit of {seconds:.3g} s reached while {what}")

    old = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, max(0.01, seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


# ---------------------------------------------------------------------------------------
# farkas: case tree + Positivstellensatz leaves for an unsat SMT-LIB2 query
# ---------------------------------------------------------------------------------------


# products of literals (exact, and as floats for the LP), shared by the leaves of a search
_PRODUCTS: dict[tuple[int, ...], tuple[Poly, dict[Any, float]]] = {}
_INTERN: dict[tuple[Any, bool], int] = {}


def _columns(cons: list[tuple[Poly, bool, list[Any]]],
             degree: int) -> list[tuple[list[Any], Poly, bool, dict[Any, float], tuple[int, ...]]]:
    """Candidate products (factors, G, strict, G as floats, indices into ``cons``) of up to
    ``degree`` leaf literals."""
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
            out.append(([cons[i][2] for i in combo], hit[0], all(cons[i][1] for i in combo), hit[1], combo))
    return out


def _nullspace_solution(cols: list[Poly], support: list[int], approx: list[float]) -> list[Fraction] | None:
    """Exact lambdas on ``support`` with sum lambda_j * G_j constant: the free variables of the
    linear system fixed to rationalised LP values, the pivots solved exactly."""
    from symcal.certify_sos import rref

    monos = sorted({m for j in support for m in cols[j].terms if m})
    rows = [[cols[j].terms.get(m, Fraction(0)) for j in support] for m in monos]
    n = len(support)
    pivots = rref(rows, n) or []
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


def _lp_leaf(cons: list[tuple[Poly, bool, list[Any]]], degree: int,
             kcons: dict[Any, Poly]) -> tuple[list[Any], set[int]] | None:
    """Multipliers closing a leaf, verified with the kernel's own rule, and the indices of the
    literals they use; or None."""
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
            return entries, {i for j, v in zip(support, lam, strict=True) if v for i in cols[j][4]}
    return None


def _atom_json(key: Any, pol: bool) -> list[Any]:
    """The certificate's atom for a literal: ``[op, p]`` meaning ``p op 0``."""
    p, strict = constraint_of(key, pol)
    return ["<" if strict else "<=", p.to_json()]


def _conjuncts(f: Any) -> list[Any]:
    return [] if f is True else (list(f[1]) if isinstance(f, tuple) and f[0] == "and" else [f])


@dataclass
class _Node:
    """A branch of the search: the open conjuncts of the query (index into the query's top-level
    conjuncts, simplified form), every assigned literal, and for each the decisions it rests on."""

    open: list[tuple[int, Any]]
    assign: dict[Any, bool]
    reason: dict[Any, frozenset[Any]]
    learned: int = 0  # how many of the search's lemma clauses ``open`` holds


@dataclass
class _Search:
    """Case tree by DPLL with backjumping.  Unit propagation follows the kernel's rules exactly
    (conjunct by conjunct, to a fixed point), but also records which decisions each literal rests
    on: a conjunct's unit rests on the decisions behind every assigned atom of that conjunct (an
    over-approximation).  A branch whose proof does not rest on its split literal is a proof of
    the parent: the split is dropped, and so is the other branch."""

    q: Query
    deadline: float
    max_leaves: int
    widest: bool = True
    cubes: bool = True  # case nodes over disjunctions of cubes (else only splits on single atoms)
    learn: bool = False  # every closed subtree becomes a lemma (its cube of decisions is refuted once)
    leaves: int = 0
    conj: list[Any] = field(default_factory=list)
    atoms: list[frozenset[Any]] = field(default_factory=list)
    lemmas: list[list[Any]] = field(default_factory=list)  # [cube, proof], in the order they were proved
    clauses: list[Any] = field(default_factory=list)  # their clauses, not cube
    known: dict[Any, Any] = field(default_factory=dict)  # literal -> (constraint, strict, atom, key)

    def __post_init__(self) -> None:
        self.conj = _conjuncts(self.q.formula)
        self.atoms = [frozenset(k for k, _ in literals(c)) for c in self.conj]

    def root(self) -> dict[str, Any]:
        if self.q.formula is False:
            return {"farkas": []}
        tree = (self._ordering() or self._disjuncts()) if self.learn else None
        if tree is None:
            tree = self.tree(_Node(list(enumerate(self.conj)), {}, {}), None)[0]
        return {"lemmas": self.lemmas, "then": tree} if self.lemmas else tree

    def _disjuncts(self) -> dict[str, Any] | None:
        """The widest disjunction of the query (at least 4 disjuncts, each of at most 8 cubes when
        written in disjunctive normal form) refuted cube by cube, each refutation a lemma proved at
        the root (so that no branch carries the refutations of the earlier disjuncts); then the
        root's tree, searched with their clauses.  None when the query has no such disjunction."""
        best: tuple[Any, list[dict[Any, bool]]] | None = None
        for f in self.conj:
            if not (isinstance(f, tuple) and f[0] == "or" and len(f[1]) >= 4):
                continue
            if best is None or len(f[1]) > len(best[0][1]):
                cubes = [_dnf(d, 8) for d in f[1]]
                if all(c is not None for c in cubes):
                    best = (f, [c for cs in cubes if cs is not None for c in cs])
        if best is None:
            return None
        for cube in best[1]:
            reason = {k: frozenset([k]) for k in cube}
            sub, on = self.tree(_Node(list(enumerate(self.conj)), dict(cube), reason), None)
            if not on:
                return sub  # a proof of the root that did not use the cube
        return self.tree(_Node(list(enumerate(self.conj)), {}, {}), None)[0]

    def tree(self, node: _Node, decided: Any) -> tuple[dict[str, Any], frozenset[Any]]:
        """(subtree, the decisions it rests on) for the branch ``node``; when learning, a subtree
        that rests on decisions is proved once as a lemma, and its place taken by a leaf the lemma's
        clause closes (as it closes every later branch with the same decisions)."""
        sub, on = self._tree(node, decided)
        if not self.learn or not on or sub == {"farkas": []}:
            return sub, on
        self._lemma({k: node.assign[k] for k in on}, sub)
        return {"farkas": []}, on

    def _lemma(self, cube: dict[Any, bool], proof: dict[str, Any]) -> None:
        """Record ``proof`` (a refutation of ``cube`` with the earlier clauses) as the next lemma;
        its clause ``not cube`` joins the query of every later branch."""
        self.lemmas.append([[_atom_json(k, v) for k, v in cube.items()], proof])
        self.clauses.append(("or", tuple(("lit", k, not v) for k, v in cube.items())) if len(cube) > 1
                            else ("lit", *next((k, not v) for k, v in cube.items())))
        self.atoms.append(frozenset(cube))

    def _ordering(self) -> dict[str, Any] | None:
        """A refutation by the ordering principle (a finite family has a least member), for a query
        that has, for each term c_j of a family c_0 .. c_{n-1}, the conjunction "c_j <= c_i for every
        i" and refutes each of them: e.g. Duchi et al.'s Lemma 16 at m = 4, where the family is the
        24 permutations' costs and a cyclic graph rules out every permutation, so no cost may be
        least.  Tree-like proofs need exponentially many leaves (the n = 24 piece was never closed);
        as a chain of lemmas about n**3 / 3 (the resolution proof of the principle): first "c_j is
        least" is refuted for every j by the search (with at most 50 leaves per member in all);
        then, for k = n - 1 down to 2 and every j < k, "c_j is least of c_0 .. c_{k-1}" -- the clause
        for k + 1 gives c_k < c_j, and the clause "c_k is not least of c_0 .. c_k" has k disjuncts
        c_i < c_k, each closed by c_i < c_k < c_j <= c_i; last, the two clauses for k = 2 say
        c_1 < c_0 < c_1.  None when no family of at most MAX_ORDERED terms gets this far (the
        lemmas of a family given up are dropped)."""
        for c in _least_families(self.q):
            if len(c) > MAX_ORDERED:
                continue
            lits = {(j, i): literal(c[j] - c[i], False) for j in range(len(c)) for i in range(len(c)) if i != j}
            if any(isinstance(f, bool) for f in lits.values()):
                continue
            saved, leaves = len(self.lemmas), self.max_leaves
            self.max_leaves = self.leaves + 50 * len(c)
            try:
                tree = self._least(c, {ji: (f[1], f[2]) for ji, f in lits.items()})
            except GiveUp:
                if time.process_time() > self.deadline:
                    raise
                tree = None
            finally:
                self.max_leaves = leaves
            if tree is not None:
                return tree
            del self.lemmas[saved:], self.clauses[saved:], self.atoms[len(self.conj) + saved:]
        return None

    def _least(self, c: list[Poly], lit: dict[tuple[int, int], tuple[Any, bool]]) -> dict[str, Any] | None:
        """The chain of lemmas of :meth:`_ordering` for the family ``c`` (``lit[j, i]``: the literal
        c_j <= c_i); the root's final tree, or None when a cube is not a consistent set of literals."""
        n = len(c)

        def cube(k: int, j: int) -> dict[Any, bool] | None:
            out = {lit[j, i][0]: lit[j, i][1] for i in range(k) if i != j}
            return out if len(out) == k - 1 else None  # two of its literals on one atom

        for j in range(n):
            want = cube(n, j)
            if want is None:
                return None
            node = _Node(list(enumerate(self.conj)), dict(want), {k: frozenset([k]) for k in want}, 0)
            sub, on = self._tree(node, None)
            if not on:
                return sub  # the root is refuted without the family
            self._lemma({k: node.assign[k] for k in on}, sub)
        for k in range(n - 1, 1, -1):
            for j in range(k):
                want = cube(k, j)
                if want is None:
                    return None
                if time.process_time() > self.deadline:
                    raise GiveUp("time limit reached while building the ordering lemmas")
                # what the kernel will know on the branch: a disjunct c_i < c_k it knows false needs
                # no case (and one it knows true closes the branch alone)
                closed, full = propagate(("and", (*self.conj, *self.clauses)), want)
                below = lit[j, k][0], not lit[j, k][1]  # c_k < c_j, from the clause for k + 1
                if not closed and full.get(below[0]) != below[1]:
                    return None
                leaf = {i: {"farkas": _zero_sum([(c[i] - c[k], True), (c[k] - c[j], True)]
                                                + ([(c[j] - c[i], False)] if i != j else []))} for i in range(k)}
                known = {i: full.get(lit[k, i][0]) for i in range(k)}  # c_k <= c_i (so False: c_i < c_k)
                if closed:
                    proof: dict[str, Any] = {"farkas": []}
                elif any(known[i] is (not lit[k, i][1]) for i in range(k)):
                    proof = leaf[next(i for i in range(k) if known[i] is (not lit[k, i][1]))]
                else:
                    open_ = [i for i in range(k) if known[i] is None]
                    proof = {"cases": [[_atom_json(lit[k, i][0], not lit[k, i][1])] for i in open_],
                             "trees": [leaf[i] for i in open_]}
                self._lemma(want, proof)
        return {"farkas": _zero_sum([(c[1] - c[0], True), (c[0] - c[1], True)])}

    def _rests_on(self, node: _Node, i: int) -> frozenset[Any]:
        out: set[Any] = set()
        for k in self.atoms[i]:
            if k in node.assign:
                out |= node.reason[k]
        return frozenset(out)

    def propagate(self, node: _Node) -> frozenset[Any] | None:
        """Unit propagation in place; the decisions behind a conflict, or None."""
        for k in range(node.learned, len(self.clauses)):
            node.open.append((len(self.conj) + k, self.clauses[k]))
        node.learned = len(self.clauses)
        while True:
            memo: dict[int, Any] = {}
            still, units = [], []
            for i, f in node.open:
                g = simplify(f, node.assign, memo)
                if g is True:
                    continue
                if g is False:
                    return self._rests_on(node, i)
                still.append((i, g))
                units += [(u, i) for u in ([g] if g[0] == "lit" else g[1] if g[0] == "and" else []) if u[0] == "lit"]
            node.open = still
            new = False
            for (_, key, pol), i in units:
                if key in node.assign:
                    if node.assign[key] != pol:
                        return self._rests_on(node, i) | node.reason[key]
                    continue
                node.reason[key] = self._rests_on(node, i)
                node.assign[key] = pol
                new = True
            if not new:
                return None

    def _tree(self, node: _Node, decided: Any) -> tuple[dict[str, Any], frozenset[Any]]:
        """(subtree, the decisions it rests on) for the branch ``node`` (``decided``: its last
        decision, already in ``node.assign``)."""
        if time.process_time() > self.deadline:
            raise GiveUp("time limit reached while building the case tree")
        self.leaves += 1
        if self.leaves > self.max_leaves:
            raise GiveUp(f"the case tree needs more than {self.max_leaves} leaves")
        if decided is not None:
            node.reason[decided] = frozenset([decided])
        conflict = self.propagate(node)
        if conflict is not None:
            return {"farkas": []}, conflict
        cons, keys, kcons = [], [], {}
        for key, pol in node.assign.items():
            if key[0] == "lin":
                hit = self.known.get((key, pol))
                if hit is None:
                    p, strict = constraint_of(key, pol)
                    hit = self.known[(key, pol)] = (p, strict, ["<" if strict else "<=", p.to_json()], p.key())
                cons.append(hit[:3])
                keys.append(key)
                kcons[(hit[3], hit[1])] = hit[0]
        linear = all(p.degree() <= 1 for p, _, _ in cons)
        for degree in (1,) if linear else (1, 2):
            found = _lp_leaf(cons, degree, kcons) if cons else None
            if found is not None:
                return {"farkas": found[0]}, frozenset().union(*(node.reason[keys[i]] for i in found[1]))
        cubes = self._cubes(node) if self.cubes else None
        if cubes is not None:
            return self._cases(node, *cubes)
        point = _lp_point(cons)
        atom = self._choose(node, point)
        if atom is None and not linear:  # nothing to split on: a sum of squares from an SDP (cvxopt, optional)
            from symcal.certify_sos import sos_leaf

            found = sos_leaf(cons, kcons, _columns(cons, 2), self.deadline)
            if found is not None:
                return {"farkas": found[0]}, frozenset().union(*(node.reason[keys[i]] for i in found[1]))
        if atom is None and not linear:  # nothing left to split on, no square: products of more literals
            for degree in range(3, max(p.degree() for p, _, _ in cons) + 4):
                if sum(math.comb(len(cons) + d - 1, d) for d in range(1, degree + 1)) > MAX_PRODUCTS:
                    break
                found = _lp_leaf(cons, degree, kcons)
                if found is not None:
                    return {"farkas": found[0]}, frozenset().union(*(node.reason[keys[i]] for i in found[1]))
        if atom is None:
            raise GiveUp("a branch is consistent as far as the LP relaxation and a sum of squares of degree 2 "
                         "can tell (nonlinear, or the query is satisfiable)")
        key, pol = atom
        then, then_on = self.tree(_Node(list(node.open), {**node.assign, key: pol}, dict(node.reason), node.learned),
                                  key)
        if key not in then_on:
            return then, then_on  # the branch did not need the literal: no split
        other, other_on = self.tree(_Node(list(node.open), {**node.assign, key: not pol}, dict(node.reason),
                                          node.learned), key)
        if key not in other_on:
            return other, other_on
        return ({"split": _atom_json(key, pol), "then": then, "else": other},
                (then_on | other_on) - {key})

    def _cubes(self, node: _Node) -> tuple[int, list[dict[Any, bool]]] | None:
        """The widest open disjunction of cubes (conjunctions of linear literals) with two cubes of
        two literals or more: (its conjunct's index, the cubes); else None.  (With one such cube,
        splitting on the single literals is better: each branch also knows the others false.)"""
        best: tuple[int, list[dict[Any, bool]]] | None = None
        for i, g in node.open:
            for f in _conjuncts(g):
                if f[0] != "or" or not all(d[0] == "lit" or all(x[0] == "lit" for x in d[1]) for d in f[1]):
                    continue
                lits = [d[1] if d[0] == "and" else [d] for d in f[1]]
                cubes = [{k: p for _, k, p in ls} for ls in lits]
                if any(len(c) != len(set(ls)) for c, ls in zip(cubes, lits, strict=True)):
                    continue  # a disjunct with an atom and its negation: the kernel's cubes are literal sets
                if all(k[0] == "lin" for c in cubes for k in c) and sum(len(c) > 1 for c in cubes) > 1 \
                        and (best is None or len(cubes) > len(best[1])):
                    best = (i, cubes)
        return best

    def _cases(self, node: _Node, i: int, cubes: list[dict[Any, bool]]) -> tuple[dict[str, Any], frozenset[Any]]:
        """One tree per cube of a disjunction the branch asserts."""
        trees, atoms, rests = [], [], self._rests_on(node, i)
        for cube in cubes:
            reason = {**node.reason, **{k: frozenset([k]) for k in cube}}
            sub, on = self.tree(_Node(list(node.open), {**node.assign, **cube}, reason, node.learned), None)
            if not on & set(cube):
                return sub, on  # the cube was not needed: a proof of the whole branch
            trees.append(sub)
            atoms.append([_atom_json(k, v) for k, v in cube.items()])
            rests |= on - set(cube)
        return {"cases": atoms, "trees": trees}, rests

    def _choose(self, node: _Node, point: dict[str, float] | None) -> tuple[Any, bool] | None:
        """A literal to split on: false at the LP point, in a shortest conjunct the point
        falsifies; else an unassigned literal of a shortest conjunct."""
        best: tuple[int, int, tuple[Any, bool]] | None = None
        for _, f in node.open:
            for c in _conjuncts(f):
                lits = [(k, p) for k, p in literals(c) if k[0] == "lin" and k not in node.assign]
                if not lits:
                    continue
                false_here = [lit for lit in lits if point is not None and _value(lit, point) is False]
                falsified = point is not None and _value_formula(c, point) is False
                rank = (0 if falsified and false_here else 1, -len(lits) if self.widest else len(lits))
                pick = false_here[0] if falsified and false_here else lits[0]
                if best is None or rank < best[:2]:
                    best = (rank[0], rank[1], pick)
        return best[2] if best else None


def _zero_sum(parts: list[tuple[Poly, bool]]) -> list[Any]:
    """Farkas entries for the literals ``p < 0`` (True) / ``p <= 0`` whose ``p`` sum to zero, each
    named as the kernel's canonical constraint (``p`` scaled by a positive number)."""
    out = []
    for p, strict in parts:
        f = literal(p, strict)
        q, s = constraint_of(f[1], f[2])
        lead_p, lead_q = p.leading(), q.leading()
        assert lead_p is not None and lead_q is not None, "a literal on a non-constant p"
        out.append([[["<" if s else "<=", q.to_json()]], frac_str(lead_p / lead_q)])
    return out


def _least_families(q: Query) -> list[list[Poly]]:
    """Families of terms ``c_0 .. c_{n-1}`` (n >= 3) such that the query has, for every j, a
    conjunction saying that c_j is a least one: ``(and (<= c_j c_i) ...)`` over every i != j (with
    ``(>= c_j c_i)``, a greatest one: the family is then ``-c``).  Read from the assertions' terms,
    in the order they are met; largest family first."""
    found: dict[tuple[int, frozenset[Any]], dict[Any, Poly]] = {}
    seen: set[int] = set()
    stack = list(q.assertions)
    while stack:
        e = stack.pop()
        if not isinstance(e, list) or id(e) in seen:
            continue
        seen.add(id(e))
        stack.extend(reversed(e[1:]))
        if e[0] != "and" or len(e) < 3 or not all(isinstance(a, list) and len(a) == 3 and a[0] in ("<=", ">=")
                                                  for a in e[1:]):
            continue
        if not all(a[0] == e[1][0] for a in e[1:]):
            continue
        try:
            sides = [(q.poly(a[1]), q.poly(a[2])) for a in e[1:]]
        except (Unsupported, ValueError, ZeroDivisionError):
            continue
        if e[1][0] != "<=":
            sides = [(-a, -b) for a, b in sides]
        if len({a.key() for a, _ in sides}) != 1:
            continue
        members = {a.key(): a for a, _ in sides[:1]} | {b.key(): b for _, b in sides}
        if len(members) == len(sides) + 1:
            found.setdefault((int(e[1][0] == "<="), frozenset(members)), {})[sides[0][0].key()] = sides[0][0]
    families = [list(m.values()) for (_, keys), m in found.items() if len(m) == len(keys)]
    return sorted(families, key=len, reverse=True)


def _dnf(f: Any, most: int) -> list[dict[Any, bool]] | None:
    """A formula of linear literals as at most ``most`` cubes (each a consistent assignment);
    None when it has more, or a literal that is not linear."""
    if f[0] == "lit":
        return [{f[1]: f[2]}] if f[1][0] == "lin" else None
    parts = [_dnf(g, most) for g in f[1]]
    if any(p is None for p in parts):
        return None
    if f[0] == "or":
        out = [c for p in parts for c in p]  # type: ignore[union-attr]
        return out if len(out) <= most else None
    out = [{}]
    for p in parts:
        out = [{**a, **b} for a in out for b in p if all(a.get(k, v) == v for k, v in b.items())]  # type: ignore[union-attr]
        if len(out) > most:
            return None
    return out


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


def literals(f: Any) -> list[tuple[Any, bool]]:
    """The (atom key, polarity) of every literal of a kernel formula, left to right."""
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


def farkas_certificate(smtlib: str, seconds: float = 10.0, max_leaves: int = 4000,
                       plain_first: bool = True) -> dict[str, Any]:
    """A ``farkas`` certificate that the SMT-LIB2 query is unsat; raises GiveUp.  With
    ``plain_first``, a tenth of the time goes to a tree of splits only; then a search that learns a
    lemma from every closed branch (the chain of lemmas the kernel checks in order)."""
    start = time.process_time()
    try:
        q = read_query(smtlib)
    except Unsupported as e:
        raise GiveUp(f"the kernel cannot read the query: {e}") from None
    tree, limit = None, sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))  # a branch is as deep as the query has atoms
    try:
        if plain_first:  # the simplest trees (which symcal.export_coq replays), then with lemmas and case nodes
            with contextlib.suppress(GiveUp):
                tree = _Search(q, start + seconds / 10, min(max_leaves, 200), cubes=False).root()
        if tree is None:
            tree = _Search(q, start + seconds, max_leaves, learn=True).root()
    except RecursionError:
        raise GiveUp("the case tree is deeper than the producer can recurse") from None
    finally:
        sys.setrecursionlimit(limit)
    with _time_limit(max(start + seconds - time.process_time(), seconds / 2), "checking the case tree"):
        why, _ = check_tree(q, tree)  # the search is untrusted: a tree the kernel rejects is a producer bug,
    if why is not None:  # reported as such rather than turning a proof into "unknown"
        raise GiveUp(f"the producer built a case tree the kernel rejects (a producer bug): {why}")
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
    from sympy.core.function import AppliedUndef

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
        if transcendental and x is sympy.E:
            return "(exp 1)"
        if transcendental and isinstance(x, sympy.exp):
            return f"(exp {go(x.args[0])})"
        if transcendental and isinstance(x, sympy.log) and len(x.args) == 1:
            return f"(log {go(x.args[0])})"
        if transcendental and isinstance(x, AppliedUndef):
            return f"({_name(x.func)} " + " ".join(go(a) for a in x.args) + ")"
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
    from sympy.core.function import AppliedUndef

    return isinstance(e, sympy.exp | sympy.log | AppliedUndef) or (
        isinstance(e, sympy.Pow) and not isinstance(e.args[1], sympy.Integer))


def _named_derivatives(e: Any) -> Any:
    """``e`` with each derivative of an undefined function of one variable, ``f'(a)`` (sympy's
    ``Subs(Derivative(f(x), x), x, a)`` or ``Derivative(f(x), x)``), written as an application
    of the undefined function named ``f'`` (so equal derivatives are equal atoms, whatever their
    bound variable is called)."""
    import sympy
    from sympy.core.function import AppliedUndef

    def named(d: Any) -> Any:
        if isinstance(d, sympy.Derivative) and isinstance(d.expr, AppliedUndef) and len(d.expr.args) == 1 \
                and len(d.variable_count) == 1 and d.variable_count[0][0] == d.expr.args[0]:
            return sympy.Function(str(d.expr.func) + "'" * int(d.variable_count[0][1]))
        return None

    def go(x: Any) -> Any:
        if isinstance(x, sympy.Subs) and len(x.variables) == 1 and (f := named(x.expr)) is not None \
                and x.variables[0] == x.expr.expr.args[0]:
            return f(go(x.point[0]))
        if isinstance(x, sympy.Derivative) and (f := named(x)) is not None:
            return f(x.expr.args[0])
        return x.func(*[go(a) for a in x.args]) if x.args else x

    return go(sympy.sympify(e))


def identity_certificate(lhs: Any, rhs: Any) -> dict[str, Any]:
    """The sides as s-expressions.  With logs, exps or roots, the kernel reads each as an opaque
    atom; the identity is sent only when it also holds with the atoms replaced by fresh symbols
    (a sympy pre-check: an identity that needs log or root rules has no certificate)."""
    import sympy
    from sympy.core.function import AppliedUndef

    lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    if isinstance(lhs, sympy.MatrixBase) or isinstance(rhs, sympy.MatrixBase):
        lm, rm = sympy.Matrix(lhs), sympy.Matrix(rhs)
        pairs = list(zip(list(lm), list(rm), strict=True))
    else:
        pairs = [(lhs, rhs)]
    out, functions = [], set()
    for a, b in pairs:
        a, b = _named_derivatives(a), _named_derivatives(b)
        for x in sympy.preorder_traversal(sympy.Tuple(a, b)):
            if isinstance(x, AppliedUndef):
                functions.add(_name(x.func).strip("|"))
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
    try:  # a function named like a built-in operator (exp, +, ...) cannot be declared uninterpreted
        RatAlgebra(sorted(functions))
    except Unsupported as e:
        raise GiveUp(f"the kernel cannot read the identity's functions: {e}") from None
    return {"kind": "identity", "pairs": out, **({"functions": sorted(functions)} if functions else {})}


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
    if kind == "finite" and spec.formula is not None:
        from symcal.claims.core import formula_truth

        for case in spec.cases(m):  # the first failing case, as the enumeration found it
            if formula_truth(spec.formula, case)[0] is False:
                return formula_witness(claim, case, fails=True)
        raise GiveUp("no case of the formula fails in a second enumeration")
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


def formula_witness(claim: Any, case: Any, fails: bool = False) -> dict[str, Any]:
    """One case of a ``finite_check`` formula for the kernel: its conditions at its values (all
    ``holds``; with ``fails``, their conjunction as the one formula that is false there)."""
    import sympy

    from symcal.claims.core import formula_parts

    conds, values = formula_parts(claim.spec.formula, case, f"formula of {claim.id}")
    named = {_name(s).strip("|"): frac_str(v) for s, v in values.items()}  # the names the kernel reads
    if fails:
        return {"kind": "witness", "values": named,
                "fails": [sexpr(sympy.And(*conds, evaluate=False), transcendental=True)]}
    return {"kind": "witness", "values": named, "holds": [sexpr(c, transcendental=True) for c in conds]}


def enumeration_certificate(claim: Any, m: int | None) -> dict[str, Any]:
    """Every case of an exhaustive ``finite_check``, stated for the kernel: its formula's
    conditions at the case's values (``witness`` parts), or the case's ``kernel`` statement."""

    spec = claim.spec
    if spec.formula is None and spec.kernel is None:
        raise GiveUp("exhaustive enumeration runs the claim's own Python code (no formula or kernel statement "
                     "for its cases): no certificate (no solver is involved either)")
    parts: list[Any] = []
    for n, case in enumerate(spec.cases(m), 1):
        label = f"case {n}: {spec.describe(case) if spec.describe else repr(case)}"[:200]
        if spec.formula is not None:
            part = formula_witness(claim, case)
        else:
            part = spec.kernel(case)
            if not isinstance(part, dict):
                raise GiveUp(f"{label}: the kernel statement is not a certificate")
        parts.append([label, part])
    if not parts:
        raise GiveUp("the domain has no cases")
    # always an ``all``, even of one case: a bare witness of formulas that hold is an existence claim's
    # certificate (status witnessed), and the kernel reads the status from the kind (symcal/kernel/record.py)
    return {"kind": "all", "parts": parts}


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
        if self.boxes > self.max_boxes or time.process_time() > self.deadline:
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
                    sub = _CoverSearch(min(self.deadline, time.process_time() + 1.0), 200)
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
    from symcal.kernel.terms import read_one as _read

    g_l, g_r = _read(cert["lhs"]), _read(cert["rhs"])
    g = ["-", g_l, g_r] if spec.relation in (">", ">=") else ["-", g_r, g_l]
    kbox = {v: (Fraction(lo), Fraction(hi)) for v, (lo, hi) in cert["box"].items()}
    old = interval.flint.ctx.prec
    interval.flint.ctx.prec = cert["precision"]
    try:
        cert["tree"] = _CoverSearch(time.process_time() + seconds).run(
            g, spec.relation in ("<", ">"), kbox, [_read(c) for c in cert["conditions"]], 0, 0)
    finally:
        interval.flint.ctx.prec = old
    return cert


# ---------------------------------------------------------------------------------------
# calibration: the reduction's precondition
# ---------------------------------------------------------------------------------------


def precondition_certificate(claim: Any, m: int | None, ev: Any) -> dict[str, Any]:
    """A ``quadratic`` certificate of the calibration engine's precondition (A): the user's own
    surrogate expressions and domain, with the minimisers the engine computed from them."""
    from symcal.calibration import setup
    from symcal.calibration.engine import Quadratic, quadratic_form

    if not ev.name.startswith("(A)"):
        raise GiveUp(f"the precondition {ev.name} has no certificate (only (A) quadratic is re-checked)")
    spec = claim.spec
    s = setup(spec.loss(m), spec.surrogate(m), spec.link(m), noise=spec.noise(m), name=claim.id)
    q = quadratic_form(s)
    if not isinstance(q, Quadratic):
        raise GiveUp(f"precondition (A) does not hold when recomputed: {q}")
    return _quadratic_piece(s, q)


def _quadratic_piece(s: Any, q: Any) -> dict[str, Any]:
    """The ``quadratic`` certificate of set-up ``s`` with the engine's form ``q`` (its minimisers)."""
    return {"kind": "quadratic", "vars": [_name(u).strip("|") for u in s.u],
            "psi": [sexpr(e) for e in s.surrogate.per_label], "domain": [sexpr(r) for r in s.surrogate.domain],
            "minimisers": [[frac_str(x) for x in v] for v in q.minimisers]}


def _link_statement(s: Any) -> dict[str, Any]:
    """The engine's link in the terms of :mod:`symcal.kernel.calibration` (the kernel writes the cells)."""
    lk = s.link
    if lk.kind in ("argmax", "argmin"):
        return {"kind": lk.kind}
    if lk.kind == "linear":
        return {"kind": "linear", "matrix": [[frac_str(x) for x in row] for row in lk.matrix],
                "offset": [frac_str(x) for x in lk.offset]}
    if lk.kind == "sort-desc":
        return {"kind": "sort-desc", "permutations": [list(sigma) for sigma in lk.permutations]}
    if lk.kind == "regions":  # the user's closed regions as parsed: rows a.u <= b (an equality gave two rows)
        u = [_name(x) for x in s.u]

        def row(a: Any, b: Fraction) -> str:
            terms = " ".join(f"(* {frac_str(c)} {x})" for c, x in zip(a, u, strict=True) if c)
            return f"(<= (+ 0 {terms}) {frac_str(b)})"

        return {"kind": "regions", "regions": [[row(a, b) for a, b in cell] for cell in lk.cells]}
    raise GiveUp(f"the link {lk.kind} has no statement in the kernel's terms")


def calibration_certificate(claim: Any, m: int | None, quadratic: dict[str, Any],
                            trees: dict[tuple[int, int | None], Any]) -> dict[str, Any]:
    """A ``calibration-a`` certificate (:mod:`symcal.kernel.calibration`): the claim's loss matrix (columns
    in the link's order), link, noise relations and quadratic precondition, and for every pair query of
    the engine its Farkas tree (the kernel writes the queries again from that statement)."""
    from symcal.calibration import setup

    spec = claim.spec
    s = setup(spec.loss(m), spec.surrogate(m), spec.link(m), noise=spec.noise(m), name=claim.id)
    return {"kind": "calibration-a", "loss": [[frac_str(x) for x in row] for row in s.L],
            "predictions": [s.pname(t) for t in range(s.k)], "link": _link_statement(s),
            "noise": [sexpr(r) for r in s.noise], "quadratic": quadratic,
            "pairs": [[t, o, tree] for (t, o), tree in trees.items()]}


def _ite_forms(q: Query) -> dict[Any, str]:
    """The lifted if-then-else variables of a query by their meaning: (condition, then, else) as the
    kernel reads them, also as (not condition, else, then); nested ones (an ite inside) are left out."""
    from symcal.kernel.sexpr import parse

    out: dict[Any, str] = {}
    for name in q.lifted:
        if not name.startswith("ite!") or q.texts[name].count("|ite|") != 1:
            continue
        node = parse(q.texts[name])[0]
        c, t, e = node[1], q.poly(node[2]).key(), q.poly(node[3]).key()
        out[frozenset({(q.nnf(c, True), t, e), (q.nnf(c, False), e, t)})] = name
    return out


def _refit(cert: dict[str, Any], smtlib: dict[tuple[int, int | None], str], deadline: float) -> None:
    """Each pair's tree for the query the kernel writes from the statement.  The engine's tree was found
    for z3's text of the same query; an if-then-else (of the noise) is lifted to a variable named by its
    text, so the names are matched by meaning and renamed; a tree that still does not fit is searched
    again on the kernel's text."""
    import json

    from symcal.kernel.calibration import pair_queries

    _, texts = pair_queries(cert, [(t, s) for t, s, _ in cert["pairs"]])
    for entry, text in zip(cert["pairs"], texts, strict=True):
        q = read_query(text)
        if check_tree(q, entry[2])[0] is None:
            continue
        ours = _ite_forms(q)
        theirs = _ite_forms(read_query(smtlib[(entry[0], entry[1])]))
        tree = json.dumps(entry[2])
        for form, name in theirs.items():
            if form in ours:
                tree = tree.replace(f'"{name}"', f'"{ours[form]}"')
        entry[2] = json.loads(tree)
        if check_tree(q, entry[2])[0] is None:
            continue
        left = deadline - time.process_time()
        if left < 0.5:
            raise GiveUp("no time left to fit the pair trees to the kernel's queries")
        entry[2] = farkas_certificate(text, min(10.0, left))["tree"]


def _affine_sexpr(a: Any, b: Fraction, names: list[str]) -> str:
    terms = " ".join(f"(* {frac_str(c)} {x})" for c, x in zip(a, names, strict=True) if c)
    return f"(+ {frac_str(b)} {terms})" if terms else frac_str(b)


def _renamed(tree: Any, names: dict[str, str]) -> Any:
    """A Farkas tree (JSON) with its variable names mapped by ``names`` (all at once)."""
    if isinstance(tree, str):
        return names.get(tree, tree)
    if isinstance(tree, list):
        return [_renamed(x, names) for x in tree]
    if isinstance(tree, dict):
        return {k: _renamed(v, names) for k, v in tree.items()}
    return tree


def _fitted_tree(text: str, tree: Any, names: dict[str, str], deadline: float) -> Any:
    """A tree refuting the kernel's query ``text``: the engine's own (its variables renamed to the
    statement's) when it fits, else one searched again on ``text``."""
    if tree is not None:
        tree = _renamed(tree, names)
        if check_tree(read_query(text), tree)[0] is None:
            return tree
    left = deadline - time.process_time()
    if left < 0.5:
        raise GiveUp("no time left to fit the trees to the kernel's queries")
    return farkas_certificate(text, min(10.0, left))["tree"]


def calibration_b_certificate(claim: Any, m: int | None, trees: dict[str, Any], deadline: float) -> dict[str, Any]:
    """A ``calibration-b`` certificate (:mod:`symcal.kernel.polyhedral`): the claim's loss matrix (columns
    in the link's order), link, noise relations and polyhedral surrogate as the engine parsed it (per
    label its affine part and its weighted max-terms), a point of the domain, and a Farkas tree for each
    label's recession query and each pair query, which the kernel writes again from that statement.
    ``trees``: the engine's trees by evidence label (``psi_y bounded below on C``, the pair labels), used
    where they fit the kernel's text; the others are searched again (GiveUp when one is not found)."""
    from symcal.backends.base import Budget
    from symcal.calibration import setup
    from symcal.calibration.engine import Polyhedral, _domain, _label, _pairs, _solve, _zvars, polyhedral_form
    from symcal.kernel.polyhedral import pair_queries_b

    spec = claim.spec
    s = setup(spec.loss(m), spec.surrogate(m), spec.link(m), noise=spec.noise(m), name=claim.id)
    poly = polyhedral_form(s)
    if not isinstance(poly, Polyhedral):
        raise GiveUp(f"precondition (B) does not hold when recomputed: {poly}")
    cert, names = _statement_b(s, poly)
    point = [Fraction(0)] * s.d
    if s.eqs or s.les:
        uz = _zvars("u", s.d)
        res = _solve(_domain(s, uz), Budget(max(0.5, min(5.0, deadline - time.process_time()))), uz,
                     "a point of C")
        if res.answer != "sat":
            raise GiveUp(f"no point of the domain found ({res.answer})")
        point = [res.model[f"u{i + 1}"] for i in range(s.d)]
    pairs = _pairs(s)
    cert["point"] = [frac_str(x) for x in point]
    _, _, bounded, texts = pair_queries_b(cert, pairs)
    rename = {f"u{i + 1}": x.strip("|") for i, x in enumerate(names)}
    cert["bounded"] = [_fitted_tree(text, trees.get(f"psi_{y + 1} bounded below on C"), rename, deadline)
                       for y, text in enumerate(bounded)]
    cert["pairs"] = [[t, o, _fitted_tree(text, trees.get(_label(s, t, o)), rename, deadline)]
                     for (t, o), text in zip(pairs, texts, strict=True)]
    return cert


def _statement_b(s: Any, poly: Any) -> tuple[dict[str, Any], list[str]]:
    """A ``calibration-b`` certificate's statement (loss, predictions, link, noise, surrogate) for set-up ``s``
    with the engine's polyhedral form ``poly``, and the surrogate's variable names as written in it."""
    names = [_name(x) for x in s.u]
    psi = [{"affine": _affine_sexpr(poly.affine[y][0], poly.affine[y][1], names),
            "max": [[frac_str(poly.weight[T][y]), [_affine_sexpr(a, b, names) for a, b in pieces]]
                    for T, pieces in enumerate(poly.terms) if poly.weight[T][y]]} for y in range(s.n)]
    return {"kind": "calibration-b", "loss": [[frac_str(x) for x in row] for row in s.L],
            "predictions": [s.pname(t) for t in range(s.k)], "link": _link_statement(s),
            "noise": [sexpr(r) for r in s.noise],
            "surrogate": {"vars": [x.strip("|") for x in names], "domain": [sexpr(r) for r in s.surrogate.domain],
                          "psi": psi}}, names


def _scaled(kernel_rows: list[Any], engine_rows: list[Any], values: list[Fraction], what: str,
            positive: bool) -> list[Fraction]:
    """The engine's multipliers of its domain rows ``a.u (= or <=) b`` for the kernel's rows ``a'.u + b'``
    read from the same relations: ``a' = lam a`` (``lam > 0`` for an inequality), multiplier / lam."""
    if len(kernel_rows) != len(engine_rows) or len(values) != len(engine_rows):
        raise GiveUp(f"the kernel reads {len(kernel_rows)} domain {what}, the engine {len(engine_rows)}")
    out = []
    for (ka, _), (ea, _), x in zip(kernel_rows, engine_rows, values, strict=True):
        j = next((i for i, c in enumerate(ea) if c), None)
        lam = Fraction(1) if j is None else ka[j] / ea[j]
        if list(ka) != [lam * c for c in ea] or (positive and lam <= 0) or lam == 0:
            raise GiveUp(f"a domain {what[:-1]} reads differently in the kernel and in the engine")
        out.append(x / lam if j is not None else Fraction(0))
    return out


def calibration_refutation_certificate(claim: Any, m: int | None, w: Any) -> dict[str, Any]:
    """A ``calibration-a`` / ``calibration-b`` certificate with a ``refutation`` (:mod:`symcal.kernel.calibration`,
    :mod:`symcal.kernel.polyhedral`): the claim's statement as for a proof, and the engine's witness of a
    refuted (A) or (B) calibration claim -- p, the minimiser u (for (B) with its exact KKT multipliers), the
    interior point c and the prediction -- for the kernel to check that calibration fails at p."""
    from symcal.calibration import setup
    from symcal.calibration.engine import Polyhedral, Quadratic, polyhedral_form, quadratic_form
    from symcal.kernel.polyhedral import read_surrogate

    if w.certificate.get("method"):
        raise GiveUp(f"a refutation by {w.certificate['method']} has no kernel certificate (only (A) and (B) have)")
    spec = claim.spec
    s = setup(spec.loss(m), spec.surrogate(m), spec.link(m), noise=spec.noise(m), name=claim.id)
    try:
        p = [Fraction(w.values[f"p{i + 1}"]) for i in range(s.n)]
        u = [Fraction(w.values[f"u{i + 1}"]) for i in range(s.d)]
        tp = [s.pname(t) for t in range(s.k)].index(w.values["pred"])
        c = [Fraction(x) for x in w.certificate["interior point c"]]
    except (KeyError, ValueError, TypeError) as e:
        raise GiveUp(f"the witness is incomplete ({type(e).__name__}: {e})") from None
    ref: dict[str, Any] = {"p": [frac_str(x) for x in p], "u": [frac_str(x) for x in u],
                           "c": [frac_str(x) for x in c], "pred": tp}
    q = quadratic_form(s)
    if isinstance(q, Quadratic):  # (A): the kernel computes u = sum_y p_y v_y itself
        cert = calibration_certificate(claim, m, _quadratic_piece(s, q), {})
        del cert["pairs"]
    else:
        poly = polyhedral_form(s)
        if not isinstance(poly, Polyhedral) or "mu" not in w.certificate:
            raise GiveUp(f"neither (A) nor (B) applies when recomputed: {poly}")
        cert, _ = _statement_b(s, poly)
        surr = read_surrogate(cert["surrogate"])
        by_term = {tuple(sorted(set(pieces))): dict(zip(pieces, row, strict=True))
                   for pieces, row in zip(poly.terms, w.certificate["mu"], strict=True)}
        try:
            ref["mu"] = [[frac_str(Fraction(by_term[pieces][f])) for f in pieces] for pieces in surr.terms]
        except KeyError:
            raise GiveUp("a max-term of the kernel's reading is not one of the engine's") from None
        ref["nu"] = [frac_str(x) for x in _scaled(surr.eqs, s.eqs, [Fraction(x) for x in w.certificate["nu"]],
                                                  "equalities", False)]
        ref["eta"] = [frac_str(x) for x in _scaled(surr.les, s.les, [Fraction(x) for x in w.certificate["eta"]],
                                                   "inequalities", True)]
    cert["refutation"] = ref
    res = kernel_check(cert)
    if not res["checked"]:
        raise GiveUp(f"the kernel rejects the refutation certificate built here (a producer bug, or a witness the "
                     f"engine re-checked wrongly): {res['reason']}")
    return cert


def _calibration_b_statement(claim: Any, m: int | None, built: Built, deadline: float) -> Built:
    """A proved (B) calibration claim's pieces (the polyhedral precondition, each label's bounded-below
    query, each pair query) folded into one ``calibration-b`` certificate when the kernel accepts it;
    otherwise the pieces as they were (the reduction then stays trusted)."""
    from symcal.calibration import setup
    from symcal.calibration.engine import _label, _pairs

    try:
        spec = claim.spec
        s = setup(spec.loss(m), spec.surrogate(m), spec.link(m), noise=spec.noise(m), name=claim.id)
        labels = {"(B) polyhedral convex"} | {f"psi_{y + 1} bounded below on C" for y in range(s.n)} | {
            _label(s, t, o) for t, o in _pairs(s)}
        trees = {label: cert["tree"] for label, cert, _ in built
                 if label in labels and cert is not None and cert.get("kind") == "farkas"}
        cert = calibration_b_certificate(claim, m, trees, deadline)
    except Exception:  # noqa: BLE001 - best effort: the plain pieces stand
        return built
    if not kernel_check(cert)["checked"]:
        return built
    rest = [item for item in built if item[0] not in labels]
    return [("evidence" if not rest else "calibration (B): statement, reduction, pair queries", cert, "")] + rest


def _calibration_statement(claim: Any, m: int | None, built: Built, deadline: float) -> Built:
    """A proved (A) calibration claim's ``quadratic`` and pair ``farkas`` pieces folded into one
    ``calibration-a`` certificate, when every one has a certificate and the kernel accepts the
    result; otherwise the pieces as they were (the reduction then stays trusted)."""
    from symcal.calibration import setup
    from symcal.calibration.engine import _label, _pairs

    if any(label == "(B) polyhedral convex" for label, _, _ in built):
        return _calibration_b_statement(claim, m, built, deadline)
    quad = [k for k, (_, cert, _) in enumerate(built) if cert is not None and cert.get("kind") == "quadratic"]
    if len(quad) != 1:
        return built
    try:
        spec = claim.spec
        s = setup(spec.loss(m), spec.surrogate(m), spec.link(m), noise=spec.noise(m), name=claim.id)
        labels = {_label(s, t, o): (t, o) for t, o in _pairs(s)}
        idx = [k for k, (label, _, _) in enumerate(built) if label in labels]
        if any(built[k][1] is None or built[k][1].get("kind") != "farkas" for k in idx):
            return built
        trees = {labels[built[k][0]]: built[k][1]["tree"] for k in idx}  # type: ignore[index]
        cert = calibration_certificate(claim, m, built[quad[0]][1], trees)  # type: ignore[arg-type]
        _refit(cert, {labels[built[k][0]]: built[k][1]["smtlib"] for k in idx}, deadline)  # type: ignore[index]
    except Exception:  # noqa: BLE001 - best effort: the plain pieces stand
        return built
    if not kernel_check(cert)["checked"]:
        return built
    rest = [item for k, item in enumerate(built) if k not in set(idx) | set(quad)]
    return [("evidence" if not rest else "calibration (A): statement, reduction, pair queries", cert, "")] + rest


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
    """(label, certificate or None, why none) for every piece of evidence behind ``out``.  Each
    piece may spend its fair share of what is left of ``seconds`` (CPU), at least ``part_seconds``."""
    from symcal.verdicts import Exhaustive, IntervalProof, Residual, SmtResult, Status, Witness

    deadline = time.process_time() + seconds
    result: list[tuple[str, dict[str, Any] | None, str]] = []
    if out.status not in (Status.PROVED, Status.REFUTED, Status.WITNESSED) or out.evidence is None:
        return result
    pieces = _pieces(out.evidence)
    base = part_seconds
    for k, (label, ev) in enumerate(pieces):
        left = deadline - time.process_time()
        part_seconds = max(base, left / (len(pieces) - k))
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
            elif isinstance(ev, Witness) and claim.kind == "calibration":
                with _time_limit(min(left, part_seconds), "writing the refutation's certificate"):
                    cert = calibration_refutation_certificate(claim, m, ev)
            elif isinstance(ev, Witness):
                with _time_limit(min(left, part_seconds), "writing the witness's certificate"):
                    cert = witness_certificate(claim, m, ev)
            elif getattr(ev, "kind", "") == "precondition" and claim.kind == "calibration":
                with _time_limit(min(left, part_seconds), "writing the precondition's certificate"):
                    cert = precondition_certificate(claim, m, ev)
            elif isinstance(ev, Exhaustive):
                with _time_limit(min(left, max(4 * base, part_seconds)), "writing the enumeration's certificate"):
                    cert = enumeration_certificate(claim, m)
            else:
                raise GiveUp(f"{type(ev).__name__} evidence has no certificate")
        except GiveUp as e:
            why = str(e)
        except Exception as e:  # noqa: BLE001 - the producer is untrusted and best effort
            why = f"the certificate producer failed: {type(e).__name__}: {e}"
        result.append((label, cert, why))
    if claim.kind == "node" and getattr(claim, "strategy", "") != "local_lemma" and out.status is Status.PROVED:
        result = _node_statements(claim, m, result)
    if claim.kind == "calibration" and out.status is Status.PROVED:
        result = _calibration_statement(claim, m, result, deadline)
    return result


def _size_of(label: str, m: int | None) -> tuple[int | None, str]:
    """(the size, the rest of the label) of a piece of a node claim's evidence."""
    head, _, rest = label.partition("/")
    if head.startswith("m = ") and head[4:].isdigit():
        return int(head[4:]), rest
    return m, label if label != "evidence" else ""


def node_certificate(claim: Any, m: int, queries: list[tuple[Any, dict[str, Any]]],
                     split: bool = False) -> dict[str, Any]:
    """A node claim at size m as one ``node`` certificate (:mod:`symcal.kernel.node`): its formulas
    (the statement), the tuple fixed by node symmetry (``queries`` has one entry with tuple None;
    with ``split``, entries "base" and j for the fixed tuple's sum split per other node) or one
    query per conclusion tuple, and each query's Farkas certificate."""
    from symcal.backends.nodes import NodeFormulas
    from symcal.backends.translate import Translator

    fs = NodeFormulas(claim.spec, m)
    tr = Translator()
    s = claim.spec.conclusion.arity
    fixed = tuple(range(1, s + 1))
    return {
        "kind": "node", "m": m, "variables": [str(v) for v in fs.variables()],
        "hypotheses": [tr(f).sexpr() for f in dict.fromkeys(fs.hyps.values())],
        "conclusions": [[list(t), tr(f).sexpr()] for t, f in fs.concl.items()],
        "fixed": list(fixed) if split or (queries and queries[0][0] is None) else None,
        "split": split,
        "queries": ([[t, body] for t, body in queries] if split
                    else [[list(fixed if t is None else t), body] for t, body in queries]),
    }


Built = list[tuple[str, dict[str, Any] | None, str]]


def _node_statements(claim: Any, m: int | None, built: Built) -> Built:
    """A node claim's per-size Farkas certificates, each size folded into one ``node`` certificate
    that also carries the statement and the reduction, when the kernel accepts it; otherwise the
    pieces as they were (their reduction then stays trusted)."""
    import ast

    groups: dict[int | None, list[int]] = {}
    for k, (label, _, _) in enumerate(built):
        groups.setdefault(_size_of(label, m)[0], []).append(k)
    out = list(built)
    folded: dict[int, tuple[str, dict[str, Any], str]] = {}
    for size, idx in groups.items():
        pieces = [built[k] for k in idx]
        if size is None or any(c is None or c.get("kind") != "farkas" for _, c, _ in pieces):
            continue
        queries: list[tuple[Any, dict[str, Any]]] = []
        split = False
        for label, cert, _ in pieces:
            rest = _size_of(label, m)[1]
            if rest == "":
                queries.append((None, cert))  # type: ignore[arg-type]
            elif rest.startswith("tuple ("):
                queries.append((tuple(ast.literal_eval(rest[len("tuple "):])), cert))  # type: ignore[arg-type]
            elif rest == "base term on the fixed nodes" or rest.startswith("term of node "):
                split = True
                queries.append(("base" if rest.startswith("base") else int(rest.rsplit(" ", 1)[1]), cert))
            else:
                queries = []
                break
        if not queries or (len(queries) > 1 and any(t is None for t, _ in queries)):
            continue
        try:
            cert = node_certificate(claim, size, queries, split)
        except Exception:  # noqa: BLE001 - best effort: the plain pieces stand
            continue
        if kernel_check(cert)["checked"]:
            folded[idx[0]] = (f"m = {size}" if m is None else "evidence", cert, "")
            for k in idx[1:]:
                folded[k] = None  # type: ignore[assignment]
    if not folded:
        return out
    return [folded.get(k, item) for k, item in enumerate(out) if folded.get(k, item) is not None]


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

