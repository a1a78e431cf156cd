"""Calibration by the engine's reduction (A), re-derived end to end: statement, queries, refutations.

Certificate ``{"kind": "calibration-a", "loss": [[Q, ...], ...], "link": LINK, "noise": [S, ...],
"quadratic": QUAD, "pairs": [[T, S_OR_NULL, TREE], ...]}`` (Q an exact number, S an s-expression,
predictions numbered from 0).  The statement: labels ``y = 1..n``, predictions ``t``, the loss matrix
``L`` (``loss[y][t]``, n x k), the surrogate ``psi_y`` on ``C = {u : A u = b}`` (QUAD's ``psi``,
``vars``, ``domain``: a ``quadratic`` certificate, :mod:`.quadratic`), the link ``pred : C -> {0..k-1}``
(LINK) and ``P = {p : p >= 0, sum p = 1, every noise relation}`` (relations in ``p1..pn``).  Claimed:
psi is L-calibrated over P (Tewari & Bartlett 2007; Ramaswamy et al. 2013, Def. 1): for every p in P,
``inf{risk_p(u) : u in C, pred(u) not in argmin_t <p, L_t>} > inf_C risk_p``, ``risk_p = sum p_y psi_y``.

LINK, from which the kernel writes a closed ``cell_t`` containing ``{u : pred(u) = t}``:
``{"kind": "argmax"}`` / ``"argmin"`` (k = d; cell_t: ``u_t >= u_j`` / ``<=`` for all j);
``{"kind": "linear", "matrix": B, "offset": c}`` (pred(u) in argmin_t ``B_t.u + c_t``);
``{"kind": "sort-desc", "permutations": [SIGMA, ...]}`` (each permutation of 1..d once; pred(u) = sigma
only if ``u_i >= u_j`` whenever ``sigma(i) < sigma(j)``); ``{"kind": "regions", "regions": [[S, ...],
...]}`` (pred(u) = t only in region t: relations ``<=``, ``>=``, ``=`` of polynomials in u, closed).

The theorem (the engine's reduction (A), symcal/calibration/engine.py; proved here in full, from the
definition above and elementary convexity).  By the quadratic certificate ``psi_y = q + l_y.u + c_y``
with ``q(u) = u^T H u`` positive definite on ``W = {w : A w = 0}``,
``v_y`` the minimiser of ``psi_y`` on C.  For p in the simplex, ``u*(p) = sum p_y v_y`` is in C (an
affine combination) and ``grad risk_p(u*) = sum p_y (2 H v_y + l_y)`` (as ``sum p = 1``) is orthogonal
to W, so ``risk_p(u) - risk_p(u*) = q(u - u*) >= lambda |u - u*|^2`` on C, ``lambda > 0`` the least
eigenvalue of q on W.  Fix p in P and let ``B_p = {t : <p, L_t - L_s> > 0 for some s}`` (the
suboptimal predictions; then the columns t, s differ).  Suppose ``u*(p)`` lies in no ``cell_t``, t in
``B_p``.  Each ``cell_t`` is closed (the closure of ``pred^-1(t)`` or larger: this is why the cells are
closed, non-strict relations of continuous functions), so ``delta = min_{t in B_p} dist(u*(p),
cell_t and C) > 0`` (+inf for an empty one), and every u in C with ``pred(u)`` in ``B_p`` lies in
``cell_pred(u)``: ``risk_p(u) >= min risk_p + lambda delta^2``.  The infimum over such u is therefore
above the minimum: calibrated at p.  (The converse, the engine's limit argument for a refutation --
``u* + eps (c - u*)`` with c inside the cell has ``pred = t`` and risk tending to the minimum -- is not
needed for a proof.)  So psi is calibrated over P when, for every ordered pair (t, s)
of predictions whose columns differ, no p satisfies ``p >= 0, sum p = 1``, the noise relations,
``u*(p) in cell_t`` and ``<p, L_t - L_s> > 0``: the pair query.  (An empty P makes the claim vacuous;
the engine refuses one before deciding.)  The entry ``[t, s, TREE]`` is that query, ``[t, null,
TREE]`` the query for t with the disjunction over every such s; the kernel writes each query itself
from the statement, and each TREE must refute it (:mod:`.lra`); every pair must be covered.

Refutation (status ``refuted``): ``"refutation": {"p": [Q, ...], "c": [Q, ...], "pred": T}`` instead of
``pairs``.  Checked: p in P; ``u = u*(p)``, the minimiser of risk_p on C, computed here; c in C; then
(:func:`fails_near`) on ``u_eps = u + eps (c - u)`` (in C) each relation of each cell is a polynomial in eps, and
a cell with one false for every small ``eps > 0`` (the sign of its lowest coefficient) misses ``u_eps``: there
``pred(u_eps)`` is in G, the other cells.  With T in G and every prediction of G suboptimal at p, those ``u_eps``
have ``pred`` not optimal and ``risk_p(u_eps) -> min_C risk_p`` (continuity): not calibrated at p.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from symcal.kernel.lra import check_tree, free_names, read_query
from symcal.kernel.poly import frac
from symcal.kernel.quadratic import check_quadratic
from symcal.kernel.terms import Evaluator, PolyAlgebra, Unsupported, ValueAlgebra, read_one, show, truth

__all__ = ["check_calibration", "cells", "pair_query", "pair_queries", "statement", "simplex_and_noise", "worse",
           "script", "check_pairs", "refuted_pairs", "exact_list", "distribution", "fails_near"]


def _lin(coeffs: list[Any], names: list[str], const: Any = 0) -> list[Any]:
    return ["+", frac(const)] + [["*", frac(c), x] for c, x in zip(coeffs, names, strict=True) if frac(c)]


def cells(link: Any, names: list[str]) -> list[list[Any]]:
    """For each prediction t, the relations (s-expressions in ``names``) of its closed cell."""
    kind, d = link.get("kind") if isinstance(link, dict) else None, len(names)
    if kind in ("argmax", "argmin"):
        op = ">=" if kind == "argmax" else "<="
        return [[[op, names[t], names[j]] for j in range(d) if j != t] for t in range(d)]
    if kind == "linear":
        rows, off = link.get("matrix"), link.get("offset")
        if not (isinstance(rows, list) and rows and isinstance(off, list) and len(off) == len(rows)
                and all(isinstance(r, list) and len(r) == d for r in rows)):
            raise Unsupported(f"a linear link needs a k x {d} matrix and k offsets")
        score = [_lin(r, names, c) for r, c in zip(rows, off, strict=True)]
        return [[["<=", score[t], score[s]] for s in range(len(rows)) if s != t] for t in range(len(rows))]
    if kind == "sort-desc":
        perms = link.get("permutations")
        if not isinstance(perms, list) or sorted(map(tuple, perms)) != sorted(itertools.permutations(range(1, d + 1))):
            raise Unsupported(f"sort-desc needs every permutation of 1..{d} once")
        out = []
        for sigma in perms:  # the documents best first; each one's score >= the next one's
            order = sorted(range(d), key=lambda i, s=sigma: s[i])
            out.append([[">=", names[a], names[b]] for a, b in zip(order, order[1:], strict=False)])
        return out
    if kind == "regions":
        regions = link.get("regions")
        if not (isinstance(regions, list) and regions and all(isinstance(r, list) for r in regions)):
            raise Unsupported("regions needs a non-empty list of lists of relations")
        out = []
        for t, region in enumerate(regions):
            rels = [read_one(r) for r in region]
            for r in rels:  # closed: a non-strict relation between polynomials (continuous) in the vars
                if not (isinstance(r, list) and len(r) == 3 and r[0] in ("<=", ">=", "=")):
                    raise Unsupported(f"region {t}: {show(r)} is not a closed relation (<=, >=, =)")
                for side in r[1:]:
                    Evaluator(PolyAlgebra()).term(side)
                if set(free_names(r)) - set(names):
                    raise Unsupported(f"region {t}: {show(r)} uses variables other than {names}")
            out.append(rels)
        return out
    raise Unsupported(f"unknown link kind {kind!r} (argmax, argmin, linear, sort-desc, regions)")


def _subst(e: Any, env: dict[str, Any]) -> Any:
    if isinstance(e, str):
        return env.get(e, e)
    return [e[0]] + [_subst(x, env) for x in e[1:]] if isinstance(e, list) else e


def _smt(e: Any) -> str:
    """A term as SMT-LIB2 text: ``show`` with each rational as an SMT-LIB numeral term (``(/ 1 4)``,
    ``(- 3)``), so that a solver reads the pair query exactly as the kernel does."""
    if isinstance(e, Fraction):
        n, d = abs(e.numerator), e.denominator
        text = str(n) if d == 1 else f"(/ {n} {d})"
        return f"(- {text})" if e < 0 else text
    if isinstance(e, list):
        return "(" + " ".join(_smt(x) for x in e) + ")"
    return show(e)


def simplex_and_noise(p: list[str], noise: list[Any]) -> list[Any]:
    """``p >= 0``, ``sum p = 1`` and the noise relations: ``p in P`` (shared by reductions (A) and (B))."""
    zero = Fraction(0)
    return [[">=", x, zero] for x in p] + [["=", ["+", zero] + p, Fraction(1)]] + list(noise)


def worse(loss: list[list[Fraction]], p: list[str], t: int, s: int | None) -> list[Any]:
    """``<p, L_t - L_s> > 0`` as a disjunction over s (every other column when s is None; a column
    equal to t's is left out: it is never better)."""
    others = [s] if s is not None else range(len(loss[0]))
    return ["or"] + [[">", _lin([row[t] - row[o] for row in loss], p), Fraction(0)] for o in others
                     if any(row[t] != row[o] for row in loss)]


def script(names: list[str], body: list[Any]) -> str:
    """The SMT-LIB2 text declaring ``names`` as reals and asserting each formula of ``body``."""
    return "".join(f"(declare-const {x} Real)" for x in names) + "".join(f"(assert {_smt(e)})" for e in body)


def pair_query(loss: list[list[Any]], cell: list[Any], ustar: dict[str, Any], noise: list[Any], t: int,
               s: int | None) -> str:
    """The SMT-LIB2 text of the pair query (t, s) (s None: the disjunction over every other column)."""
    p = [f"p{y + 1}" for y in range(len(loss))]
    body = simplex_and_noise(p, noise) + [_subst(r, ustar) for r in cell] + [worse(loss, p, t, s)]
    return script(p, body)


def statement(cert: dict[str, Any], n: int) -> tuple[list[list[Fraction]], list[Any], list[str]]:
    """The claim's loss matrix (n x k, exact), noise relations and distribution variables ``p1..pn``
    as a certificate states them (shared by reductions (A) and (B)); ValueError when malformed."""
    loss = cert.get("loss")
    if not (isinstance(loss, list) and len(loss) == n and all(isinstance(r, list) for r in loss)
            and loss[0] and all(len(r) == len(loss[0]) for r in loss)):
        raise ValueError(f"loss is not an n x k matrix with n = {n} rows (one per psi_y)")
    loss = [[frac(x) for x in row] for row in loss]
    k = len(loss[0])
    labels = cert.get("predictions", [str(t) for t in range(k)])  # the columns' names, as the statement shows them
    if not (isinstance(labels, list) and len(labels) == k and all(isinstance(x, str) for x in labels)
            and len(set(labels)) == k):
        raise ValueError(f"predictions is not a list of {k} distinct names, one per column of the loss matrix")
    if not isinstance(cert.get("noise", []), list):
        raise ValueError("noise is not a list of relations in p1..pn")
    noise, p = [read_one(r) for r in cert.get("noise", [])], [f"p{y + 1}" for y in range(n)]
    if any(set(free_names(r)) - set(p) for r in noise):
        raise ValueError(f"a noise relation uses variables other than {p}")
    return loss, noise, p


def check_pairs(pairs: list[tuple[int, int | None]], k: int) -> None:
    """ValueError unless every pair is (t, s) or (t, None) of predictions ``0..k-1``."""
    for t, s in pairs:
        if not all(type(x) is int and 0 <= x < k for x in (t, s) if x is not None) or t is None:
            raise ValueError(f"malformed pair ({t}, {s}) of {k} predictions")


def _statement_a(cert: dict[str, Any]) -> tuple[list[str], list[list[Fraction]], list[list[Fraction]], list[Any],
                                                 list[str], list[list[Any]]]:
    """(vars, minimisers, loss matrix, noise, p names, cells) of a ``calibration-a`` statement, after checking
    its quadratic piece (ValueError / Unsupported when malformed)."""
    quad = cert.get("quadratic")
    why = check_quadratic(quad) if isinstance(quad, dict) else "no quadratic certificate"
    if why is not None:
        raise ValueError(f"quadratic: {why}")
    names, mins = quad["vars"], [[frac(x) for x in v] for v in quad["minimisers"]]
    loss, noise, p = statement(cert, len(mins))
    cell = cells(cert.get("link"), names)
    if len(cell) != len(loss[0]):
        raise ValueError(f"the link has {len(cell)} predictions, the loss matrix {len(loss[0])} columns")
    return names, mins, loss, noise, p, cell


def pair_queries(cert: dict[str, Any], pairs: list[tuple[int, int | None]]) -> tuple[list[list[Fraction]], list[str]]:
    """The loss matrix and the kernel's SMT-LIB2 text of each pair query (t, s) of the statement
    (raises ValueError / Unsupported on a malformed one, after checking its quadratic piece)."""
    names, mins, loss, noise, p, cell = _statement_a(cert)
    ustar = {x: _lin([v[i] for v in mins], p) for i, x in enumerate(names)}  # u*(p) = sum_y p_y v_y
    check_pairs(pairs, len(loss[0]))
    return loss, [pair_query(loss, cell[t], ustar, noise, t, s) for t, s in pairs]


def refuted_pairs(entries: Any, loss: list[list[Fraction]], texts: list[str]) -> str | None:
    """None when each entry's tree refutes its query text and the entries cover every ordered pair of
    predictions whose loss columns differ, else why not (shared by reductions (A) and (B))."""
    k, covered = len(loss[0]), set()
    for (t, s, tree), text in zip(entries, texts, strict=True):
        why, _ = check_tree(read_query(text), tree)
        if why is not None:
            return f"pair ({t}, {s}): {why}"
        covered |= {(t, o) for o in range(k)} if s is None else {(t, s)}
    missing = [(t, s) for t in range(k) for s in range(k)
               if t != s and any(row[t] != row[s] for row in loss) and (t, s) not in covered]
    if missing:
        return f"{len(missing)} pair(s) without a refuted query, e.g. {missing[0]}"
    return None


def exact_list(ref: Any, key: str, size: int) -> list[Fraction]:
    """``ref[key]``, a list of ``size`` exact numbers (ValueError otherwise)."""
    v = ref.get(key) if isinstance(ref, dict) else None
    if not (isinstance(v, list) and len(v) == size):
        raise ValueError(f"refutation: {key} is not a list of {size} exact numbers")
    return [frac(x) for x in v]


def distribution(ref: Any, noise: list[Any], n: int) -> list[Fraction]:
    """The refutation's p, checked to be in P (simplex and every noise relation, exactly)."""
    p = exact_list(ref, "p", n)
    ev = Evaluator(ValueAlgebra({f"p{y + 1}": x for y, x in enumerate(p)}))
    if any(x < 0 for x in p) or sum(p) != 1 or not all(truth(r, ev) for r in noise):
        raise ValueError("refutation: p is not in P (the simplex and the noise relations)")
    return p


def _leaves(rel: Any, env: dict[str, Any], eps: str) -> bool:
    """Whether the closed relation ``rel`` is false at ``u_eps`` (``env``) for every small ``eps > 0``."""
    if not (isinstance(rel, list) and len(rel) == 3 and rel[0] in ("<=", ">=", "=")):
        raise Unsupported(f"{show(rel)} is not a closed relation (<=, >=, =)")
    f = Evaluator(PolyAlgebra()).term(_subst(["-", rel[1], rel[2]], env))  # lhs - rhs, a polynomial in eps
    if {v for m in f.terms for v, _ in m} - {eps}:
        raise Unsupported(f"{show(rel)} has variables other than the surrogate's")
    low = f.terms[min(f.terms)] if f.terms else Fraction(0)  # the sign for small eps > 0
    return low != 0 and (rel[0] == "=" or (low > 0) == (rel[0] == "<="))


def fails_near(loss: list[list[Fraction]], p: list[Fraction], cell: list[list[Any]], names: list[str],
               u: list[Fraction], c: list[Fraction], t: Any) -> str | None:
    """None when the cells G that may hold ``u + eps (c - u)`` for small ``eps > 0`` include t and are all
    suboptimal at p (u a minimiser of risk_p on C and c a point of C, shown by the caller), else why not."""
    eps = "eps" + "_" * max(map(len, names))  # longer than every name: not one of them
    env = {x: ["+", a, ["*", b - a, eps]] for x, a, b in zip(names, u, c, strict=True)}
    near = [s for s, rels in enumerate(cell) if not any(_leaves(r, env, eps) for r in rels)]
    risk = [sum((py * row[s] for py, row in zip(p, loss, strict=True)), Fraction(0)) for s in range(len(loss[0]))]
    if not (type(t) is int and t in near):
        return f"refutation: prediction {t!r} is not predicted on u + eps (c - u) (the cells near it: {near})"
    good = [s for s in near if risk[s] == min(risk)]
    return f"refutation: prediction {good[0]} may be predicted near u and is optimal at p" if good else None


def check_calibration(cert: dict[str, Any]) -> str | None:
    """None when the certificate proves its calibration statement, or with ``refutation`` refutes it (see the
    module docstring)."""
    pairs, ref = cert.get("pairs"), cert.get("refutation")
    if ref is not None:
        if pairs is not None:
            return "a certificate has pairs (a proof) or a refutation, not both"
        names, mins, loss, noise, _, cell = _statement_a(cert)
        p = distribution(ref, noise, len(loss))
        u = [sum((py * v[i] for py, v in zip(p, mins, strict=True)), Fraction(0)) for i in range(len(names))]
        c = exact_list(ref, "c", len(names))
        if not all(truth(read_one(r), Evaluator(ValueAlgebra(dict(zip(names, c, strict=True)))))
                   for r in cert["quadratic"].get("domain") or []):
            return "refutation: c is not in the domain C"
        if "u" in ref and exact_list(ref, "u", len(names)) != u:  # optional: the kernel computes u
            return "refutation: u is not the minimiser sum_y p_y v_y of risk_p"
        return fails_near(loss, p, cell, names, u, c, ref.get("pred"))
    if not (isinstance(pairs, list) and all(isinstance(e, list) and len(e) == 3 for e in pairs)):
        return "pairs is not a list of [t, s or null, tree]"
    loss, texts = pair_queries(cert, [(t, s) for t, s, _ in pairs])
    return refuted_pairs(pairs, loss, texts)
