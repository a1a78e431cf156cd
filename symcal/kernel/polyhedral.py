"""Calibration by the engine's reduction (B), re-derived end to end: polyhedral surrogates.

Certificate ``{"kind": "calibration-b", "loss": [[Q, ...], ...], "predictions": [NAME, ...], "link": LINK,
"noise": [S, ...], "surrogate": SURR, "point": [Q, ...], "bounded": [TREE, ...], "pairs": [[T, S_OR_NULL,
TREE], ...]}``; ``loss``, ``predictions``, ``link`` (closed cells, :func:`.calibration.cells`) and
``noise`` (``P = {p : p >= 0, sum p = 1, every noise relation}``) as in a ``calibration-a`` certificate
(:mod:`.calibration`).  SURR is ``{"vars": [U, ...], "domain": [S, ...], "psi": [{"affine": S, "max":
[[W, [S, ...]], ...]}, ...]}``: the surrogate's variables u, the domain ``C`` (relations ``=``, ``<=``,
``>=`` between affine terms in u: a closed polyhedron) and for each label y (one row of the loss matrix)
``psi_y(u) = affine_y(u) + sum_i W_yi max(piece_yi1(u), ...)``, every piece affine, every ``W_yi >= 0``.
Claimed, as in :mod:`.calibration` (Tewari & Bartlett 2007; Ramaswamy et al. 2013, Def. 1): for every p in
P, ``inf{risk_p(u) : u in C, pred(u) not in argmin_t <p, L_t>} > inf_C risk_p``, ``risk_p = sum p_y
psi_y``.  The link's cells must be polyhedral too (affine relations in u).

The theorem (the engine's reduction (B), symcal/calibration/engine.py; proved here in full from the
definition and linear programming duality).  Max-terms with the same set of pieces are merged: ``psi_y =
a_y.u + b_y + sum_T c_yT max_j l_Tj(u)``, ``c_yT >= 0``, ``l_Tj(u) = a_Tj.u + b_Tj``; for p in the
simplex ``risk_p = a_p.u + b_p + sum_T w_T max_j l_Tj``, ``w_T = sum_y c_yT p_y >= 0``, ``a_p = sum_y
p_y a_y``.  Write ``C = {u : e_k(u) = 0, g_k(u) <= 0}`` (each ``e_k``, ``g_k`` affine; ``point`` is a
point of C, checked exactly, so C is not empty).

1. Attainment.  Each ``psi_y`` is bounded below on C: the kernel's *recession query* for y -- a direction
   r with ``grad e_k . r = 0``, ``grad g_k . r <= 0`` (r in the recession cone of C), numbers
   ``m_T >= a_Tj . r`` for every piece of every max-term of psi_y and ``a_y . r + sum_T c_yT m_T < 0`` --
   must be refuted by ``bounded[y]``.  Then every LP ``min a.u + sum_T c_T m_T`` subject to ``m_T >=
   l_Tj(u)``, u in a polyhedron Q inside C, has no improving ray, so it is bounded, and a feasible
   bounded LP attains its optimum: a polyhedral convex function bounded below on C (``risk_p``, a
   non-negative combination of the psi_y) attains its infimum on every non-empty polyhedron in C.
2. Optimality is linear.  u in C minimises risk_p on C iff there are ``mu_Tj >= 0`` with ``sum_j mu_Tj =
   w_T``, ``mu_Tj = 0`` unless piece j is active (``l_Tj(u) >= l_Ti(u)`` for all i), ``nu_k`` and ``eta_k >=
   0`` with ``eta_k = 0`` unless ``g_k(u) = 0``, and ``a_p + sum_Tj mu_Tj a_Tj + sum_k nu_k grad e_k + sum_k
   eta_k grad g_k = 0``: the KKT conditions of the LP above with ``m_T = max_j l_Tj(u)``, necessary by LP
   strong duality (the direction needed here: a minimiser has such multipliers).
3. Calibration.  Fix p in P, ``B_p = {t : <p, L_t - L_s> > 0 for some s}``, and suppose no minimiser of
   risk_p on C lies in ``cell_t``, t in ``B_p``.  Each ``cell_t and C`` is a closed polyhedron, so by 1
   risk_p attains its infimum over it (when not empty) at a non-minimiser: that infimum exceeds ``min_C
   risk_p``; every u of C with ``pred(u) = t`` lies in ``cell_t``, and there are finitely many t, so the
   infimum over ``{u in C : pred(u) in B_p}`` exceeds the minimum (+inf when that set is empty):
   calibrated at p.  So psi is calibrated over P when, for every ordered pair (t, s) of predictions whose
   columns differ, no ``(p, u, mu, nu, eta)`` satisfies p in P, the conditions of 2, ``u in cell_t`` and
   ``<p, L_t - L_s> > 0``: the *pair query*, written by the kernel itself from the statement (``[t, null,
   TREE]``: with the disjunction over every s).  Each TREE must refute its query (:mod:`.lra`) and every
   pair must be covered.

Refutation (status ``refuted``): ``"refutation": {"p", "u", "mu": [[Q, ...], ...], "nu", "eta", "c", "pred"}``
instead of ``bounded`` and ``pairs`` (:mod:`.calibration` for the rest): u in C with the conditions of 2 (``mu[T]``
by the kernel's sorted terms and pieces, nu and eta by the domain's relations), which suffice: for v in C,
``w_T max_j l_Tj(v) >= sum_j mu_Tj l_Tj(v)``, equal at u, so ``risk_p(v) - risk_p(u) >= -sum_k eta_k g_k(v) >= 0``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from symcal.kernel.calibration import (
    _lin,
    cells,
    check_pairs,
    distribution,
    exact_list,
    fails_near,
    refuted_pairs,
    script,
    simplex_and_noise,
    statement,
    worse,
)
from symcal.kernel.lra import check_tree, free_names, read_query
from symcal.kernel.poly import Poly, frac
from symcal.kernel.terms import Evaluator, PolyAlgebra, Unsupported, read_one, show

__all__ = ["Polyhedral", "read_surrogate", "recession_query", "pair_query_b", "pair_queries_b", "refute_b",
           "check_calibration_b"]

_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
Affine = tuple[tuple[Fraction, ...], Fraction]  # (a, b): a.u + b


class Polyhedral:
    """A polyhedral surrogate as the certificate states it, read exactly: ``names`` (u), the domain's
    affine ``eqs`` (``= 0``) and ``les`` (``<= 0``), per label its affine part, and the merged max-terms
    ``terms[T]`` (a sorted tuple of distinct pieces) with their weights ``weight[T][y] >= 0``."""

    def __init__(self, names: list[str], eqs: list[Affine], les: list[Affine], affine: list[Affine],
                 terms: list[tuple[Affine, ...]], weight: list[list[Fraction]]) -> None:
        self.names, self.eqs, self.les, self.affine, self.terms, self.weight = names, eqs, les, affine, terms, weight


def _affine(e: Any, names: list[str], what: str) -> Affine:
    """An s-expression (text or read) as ``(a, b)`` with ``a.u + b`` its value; Unsupported unless affine in u."""
    p: Poly = Evaluator(PolyAlgebra()).term(read_one(e) if isinstance(e, str) else e)
    if p.degree() > 1 or {v for m in p.terms for v, _ in m} - set(names):
        raise Unsupported(f"{what}: {show(read_one(e) if isinstance(e, str) else e)} is not affine in {names}")
    return tuple(p.terms.get(((x, 1),), Fraction(0)) for x in names), p.terms.get((), Fraction(0))


def read_surrogate(surr: Any) -> Polyhedral:
    """The certificate's ``surrogate`` (see the module docstring); ValueError / Unsupported when malformed."""
    if not isinstance(surr, dict):
        raise ValueError("surrogate is not an object {vars, domain, psi}")
    names = surr.get("vars")
    if not (isinstance(names, list) and names and all(isinstance(x, str) and _SYMBOL.fullmatch(x) for x in names)
            and len(set(names)) == len(names)):
        raise ValueError("vars is not a non-empty list of distinct plain names")
    eqs, les = [], []
    domain = surr.get("domain", [])
    if not isinstance(domain, list):
        raise ValueError("domain is not a list of relations")
    for k, rel in enumerate(domain):
        e = read_one(rel)
        if not (isinstance(e, list) and len(e) == 3 and e[0] in ("=", "<=", ">=")):
            raise Unsupported(f"domain[{k}] is not a closed relation (=, <=, >=)")
        lhs, rhs = (e[1], e[2]) if e[0] != ">=" else (e[2], e[1])
        a, b = _affine(["-", lhs, rhs], names, f"domain[{k}]")
        (eqs if e[0] == "=" else les).append((a, b))
    psi = surr.get("psi")
    if not (isinstance(psi, list) and psi and all(isinstance(row, dict) for row in psi)):
        raise ValueError("psi is not a non-empty list of {affine, max}, one per label")
    affine, merged = [], dict[tuple[Affine, ...], list[Fraction]]()
    for y, row in enumerate(psi):
        affine.append(_affine(row.get("affine", "0"), names, f"psi_{y + 1}"))
        terms = row.get("max", [])
        if not isinstance(terms, list):
            raise ValueError(f"psi_{y + 1}: max is not a list of [weight, [piece, ...]]")
        for i, term in enumerate(terms):
            if not (isinstance(term, list) and len(term) == 2 and isinstance(term[1], list) and term[1]):
                raise ValueError(f"psi_{y + 1}: max-term {i + 1} is not [weight, [piece, ...]]")
            w = frac(term[0])
            if w < 0:
                raise Unsupported(f"psi_{y + 1}: max-term {i + 1} has the weight {w} < 0 (not convex)")
            key = tuple(sorted({_affine(s, names, f"psi_{y + 1} max-term {i + 1}") for s in term[1]}))
            merged.setdefault(key, [Fraction(0)] * len(psi))[y] += w
    keys = sorted(merged)
    return Polyhedral(names, eqs, les, affine, keys, [merged[key] for key in keys])


def _term(a: tuple[Fraction, ...], names: list[str], b: Fraction = Fraction(0)) -> list[Any]:
    return _lin(list(a), names, b)


def _reserved(n: int, surr: Polyhedral) -> list[str]:
    """The kernel's own variable names in the queries, which the surrogate's names must not reuse."""
    mu = [f"mu_{T + 1}_{j + 1}" for T, pieces in enumerate(surr.terms) for j in range(len(pieces))]
    return ([f"p{y + 1}" for y in range(n)] + mu + [f"nu{k + 1}" for k in range(len(surr.eqs))]
            + [f"eta{k + 1}" for k in range(len(surr.les))] + [f"dd{i + 1}" for i in range(len(surr.names))]
            + [f"m{T + 1}" for T in range(len(surr.terms))])


def recession_query(surr: Polyhedral, y: int) -> str:
    """The SMT-LIB2 text of label y's recession query (unsat: psi_y is bounded below on C)."""
    r, zero = [f"dd{i + 1}" for i in range(len(surr.names))], Fraction(0)
    body: list[Any] = [["=", _term(a, r), zero] for a, _ in surr.eqs] + [["<=", _term(a, r), zero] for a, _ in surr.les]
    slope, used = [_term(surr.affine[y][0], r)], []
    for T, pieces in enumerate(surr.terms):
        if surr.weight[T][y]:
            used.append(f"m{T + 1}")
            body += [[">=", f"m{T + 1}", _term(a, r)] for a, _ in pieces]
            slope.append(["*", surr.weight[T][y], f"m{T + 1}"])
    return script(r + used, body + [["<", ["+", zero] + slope, zero]])


def pair_query_b(surr: Polyhedral, loss: list[list[Fraction]], cell: list[Any], noise: list[Any], t: int,
                 s: int | None) -> str:
    """The SMT-LIB2 text of the pair query (t, s): p in P, u a minimiser of risk_p on C (the conditions of
    step 2), u in ``cell`` (of t), ``<p, L_t - L_s> > 0`` (s None: for some other column)."""
    n, u, zero = len(loss), surr.names, Fraction(0)
    p = [f"p{y + 1}" for y in range(n)]
    nu, eta = [f"nu{k + 1}" for k in range(len(surr.eqs))], [f"eta{k + 1}" for k in range(len(surr.les))]
    body = simplex_and_noise(p, noise)
    body += [["=", _term(a, u, b), zero] for a, b in surr.eqs] + [["<=", _term(a, u, b), zero] for a, b in surr.les]
    grad: list[list[Any]] = [[["*", surr.affine[y][0][i], p[y]] for y in range(n) if surr.affine[y][0][i]]
                             for i in range(len(u))]
    mus: list[str] = []
    for T, pieces in enumerate(surr.terms):
        mu = [f"mu_{T + 1}_{j + 1}" for j in range(len(pieces))]
        mus += mu
        body += [[">=", m, zero] for m in mu] + [["=", ["+", zero] + mu, _lin(surr.weight[T], p)]]
        vals = [_term(a, u, b) for a, b in pieces]
        for j, m in enumerate(mu):
            if len(pieces) > 1:  # mu_Tj > 0 only on an active piece
                active = ["and"] + [[">=", vals[j], v] for i, v in enumerate(vals) if i != j]
                body.append(["or", ["=", m, zero], active])
            for i in range(len(u)):
                if pieces[j][0][i]:
                    grad[i].append(["*", pieces[j][0][i], m])
    for (a, _), x in zip(surr.eqs, nu, strict=True):
        for i in range(len(u)):
            if a[i]:
                grad[i].append(["*", a[i], x])
    for (a, b), x in zip(surr.les, eta, strict=True):
        body += [[">=", x, zero], ["or", ["=", x, zero], ["=", _term(a, u, b), zero]]]
        for i in range(len(u)):
            if a[i]:
                grad[i].append(["*", a[i], x])
    body += [["=", ["+", zero] + g, zero] for g in grad]  # stationarity, coordinate by coordinate
    body += list(cell) + [worse(loss, p, t, s)]
    return script(p + u + mus + nu + eta, body)


def _statement_b(cert: dict[str, Any]) -> tuple[Polyhedral, list[list[Fraction]], list[Any], list[list[Any]]]:
    """The surrogate, loss matrix, noise and (polyhedral) cells of a ``calibration-b`` statement (ValueError /
    Unsupported when it is malformed or a cell is not polyhedral)."""
    surr = read_surrogate(cert.get("surrogate"))
    loss, noise, _ = statement(cert, len(surr.affine))
    clash = set(surr.names) & set(_reserved(len(loss), surr))
    if clash:
        raise ValueError(f"the surrogate's variables {sorted(clash)} are names the kernel's queries use")
    k, cell = len(loss[0]), cells(cert.get("link"), surr.names)
    if len(cell) != k:
        raise ValueError(f"the link has {len(cell)} predictions, the loss matrix {k} columns")
    for t, rels in enumerate(cell):  # polyhedral cells: the minimum over cell_t and C is attained
        for rel in rels:
            if not (isinstance(rel, list) and len(rel) == 3 and rel[0] in ("<=", ">=", "=")):
                raise Unsupported(f"cell {t}: {show(rel)} is not a closed relation")
            _affine(["-", rel[1], rel[2]], surr.names, f"cell {t}")
            if set(free_names(rel)) - set(surr.names):
                raise Unsupported(f"cell {t}: {show(rel)} uses variables other than {surr.names}")
    return surr, loss, noise, cell


def _at(f: Affine, x: list[Fraction]) -> Fraction:
    return sum((c * v for c, v in zip(f[0], x, strict=True)), f[1])


def _in_domain(surr: Polyhedral, x: list[Fraction]) -> bool:
    return all(_at(f, x) == 0 for f in surr.eqs) and all(_at(f, x) <= 0 for f in surr.les)


def pair_queries_b(cert: dict[str, Any], pairs: list[tuple[int, int | None]]) -> tuple[
        Polyhedral, list[list[Fraction]], list[str], list[str]]:
    """The surrogate, the loss matrix, the recession query of each label and the pair query of each
    pair, all written by the kernel from the certificate's statement (ValueError / Unsupported when it is
    malformed, its point is not in C or a cell is not polyhedral)."""
    surr, loss, noise, cell = _statement_b(cert)
    point = cert.get("point")
    if not (isinstance(point, list) and len(point) == len(surr.names)):
        raise ValueError(f"point is not a list of {len(surr.names)} exact numbers (a point of C)")
    if not _in_domain(surr, [frac(v) for v in point]):
        raise ValueError("point is not in the domain C (C must not be empty)")
    check_pairs(pairs, len(loss[0]))
    bounded = [recession_query(surr, y) for y in range(len(loss))]
    return surr, loss, bounded, [pair_query_b(surr, loss, cell[t], noise, t, s) for t, s in pairs]


def refute_b(cert: dict[str, Any]) -> str | None:
    """None when the certificate's ``refutation`` shows that the stated surrogate is not calibrated (see the
    module docstring), else why not."""
    surr, loss, noise, cell = _statement_b(cert)
    ref, d = cert["refutation"], len(surr.names)
    p, u, c = distribution(ref, noise, len(loss)), exact_list(ref, "u", d), exact_list(ref, "c", d)
    if not (_in_domain(surr, u) and _in_domain(surr, c)):
        return "refutation: u or c is not in the domain C"
    mu = ref.get("mu")
    if not (isinstance(mu, list) and len(mu) == len(surr.terms)):
        return f"refutation: mu is not a list of {len(surr.terms)} lists, one per max-term"
    grad = [sum((py * a[0][i] for py, a in zip(p, surr.affine, strict=True)), Fraction(0)) for i in range(d)]
    for T, pieces in enumerate(surr.terms):  # mu_T: w_T times a convex combination of the active pieces
        m, vals = exact_list({"mu": mu[T]}, "mu", len(pieces)), [_at(f, u) for f in pieces]
        if any(x < 0 for x in m) or sum(m) != sum((w * py for w, py in zip(surr.weight[T], p, strict=True)), 0):
            return f"refutation: mu of max-term {T + 1} is not >= 0 with sum w_T(p)"
        if any(x and v != max(vals) for x, v in zip(m, vals, strict=True)):
            return f"refutation: max-term {T + 1} has a multiplier on a piece not active at u"
        grad = [g + sum((x * f[0][i] for x, f in zip(m, pieces, strict=True)), 0) for i, g in enumerate(grad)]
    nu, eta = exact_list(ref, "nu", len(surr.eqs)), exact_list(ref, "eta", len(surr.les))
    if any(x < 0 or (x and _at(f, u) != 0) for x, f in zip(eta, surr.les, strict=True)):
        return "refutation: an eta is negative or on an inequality not active at u"
    for x, f in zip(nu + eta, surr.eqs + surr.les, strict=True):
        grad = [g + x * a for g, a in zip(grad, f[0], strict=True)]
    if any(grad):
        return "refutation: the multipliers do not make the subgradient of risk_p at u vanish (u not shown a minimiser)"
    return fails_near(loss, p, cell, surr.names, u, c, ref.get("pred"))


def check_calibration_b(cert: dict[str, Any]) -> str | None:
    """None when the certificate proves its calibration statement through reduction (B), or with
    ``refutation`` refutes it (see the module docstring), else why not."""
    pairs, trees = cert.get("pairs"), cert.get("bounded")
    if cert.get("refutation") is not None:
        return refute_b(cert) if pairs is None and trees is None else "a certificate proves (pairs) or refutes"
    if not (isinstance(pairs, list) and all(isinstance(e, list) and len(e) == 3 for e in pairs)):
        return "pairs is not a list of [t, s or null, tree]"
    _, loss, bounded, texts = pair_queries_b(cert, [(t, s) for t, s, _ in pairs])
    if not (isinstance(trees, list) and len(trees) == len(bounded)):
        return f"bounded is not a list of {len(bounded)} trees, one per label (psi_y bounded below on C)"
    for y, (text, tree) in enumerate(zip(bounded, trees, strict=True)):
        why, _ = check_tree(read_query(text), tree)
        if why is not None:
            return f"psi_{y + 1} bounded below: {why}"
    return refuted_pairs(pairs, loss, texts)
