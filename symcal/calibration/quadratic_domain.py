"""(Q) Calibration of strongly convex quadratic surrogates over a polyhedral domain, decided exactly.

Method (Q) takes the quadratic surrogates that (A) and (S) leave because the domain
``C = {u : E u = e, A u <= b}`` has inequalities (the minimiser ``u*(p)`` is then piecewise affine
in p, not affine), and quadratic surrogates whose quadratic parts differ from label to label over
any polyhedral domain.  Every step is a checked fact:

1. **Precondition, exact.**  Every ``psi_y = u^T H_y u + l_y.u + c_y`` is a polynomial of degree
   <= 2 with rational coefficients (rebuilt and compared with the user's expression), and every
   ``Z^T H_y Z`` is positive definite (exact Sylvester minors in Fractions; ``Z`` a basis of the
   directions of ``{E u = e}``).  So for every p in the simplex ``risk_p = sum_y p_y psi_y`` has the
   Hessian ``2 sum_y p_y H_y``, positive definite on those directions: ``risk_p`` is strongly convex
   on the affine hull of C with some modulus ``lambda_p > 0``.  C is non-empty: z3 finds a point of
   it, re-checked exactly.  A strongly convex continuous function on a non-empty closed convex set
   has exactly one minimiser ``u*(p)``.
2. **Minimisers are KKT points.**  C is a polyhedron, so no constraint qualification is needed
   (linear constraints): ``u`` minimises the convex differentiable ``risk_p`` over C iff ``u in C``
   and there are ``mu >= 0`` (one per inequality) and ``nu`` (one per equality) with
   ``sum_y p_y (2 H_y u + l_y) + A^T mu + E^T nu = 0`` and ``mu_i (a_i.u - b_i) = 0``
   (Rockafellar, *Convex Analysis*, Thm 28.2: with affine constraints only, a Kuhn-Tucker vector
   exists without a Slater point; Thm 28.3: the KKT conditions characterise the optimal solutions).
3. **Proof** (``proved``): for each pair ``(t', t'')`` of :func:`symcal.calibration.engine._pairs`,
   z3 finds no ``p in P``, ``u``, ``mu >= 0``, ``nu`` with the KKT conditions (complementarity as the
   disjunction ``mu_i = 0 or a_i.u = b_i``), ``u`` in the closed cell of ``t'`` and
   ``<p, L_t' - L_t''> > 0``.  The stationarity is linear when all ``H_y`` are equal (``sum p = 1``)
   and bilinear in ``(p, u)`` otherwise, which z3 decides by its complete procedure for non-linear
   real arithmetic (nlsat).  Unsat for every pair means: for every ``p in P`` and every prediction
   ``t'`` worse than another at p, ``u*(p)`` is not in the closed set ``K = C cap cell_t'``.  Since
   ``grad risk_p(u*).(u - u*) >= 0`` on C (first-order optimality), strong convexity gives
   ``risk_p(u) - risk_p(u*) >= lambda_p |u - u*|^2 >= lambda_p dist(u*, K)^2 > 0`` on K, and
   ``dist(u*, K) > 0`` because K is closed and misses ``u*``.  Every u with ``pred(u) = t'`` lies
   in the closed cell of t', so the infimum over the u of C with a suboptimal prediction -- a finite
   union of such K -- exceeds ``min risk_p``: calibrated over P.
4. **Refutation** (``refuted``): from a sat query, a rational p (z3's model or a simpler nearby
   one) and, at that p fixed, the KKT system again (now linear: exact rational u, mu, nu from z3),
   re-checked in Fractions without z3 by :func:`verify_quadratic_domain`: ``p in P``, ``u in C``,
   ``mu >= 0`` and zero off the active rows, stationarity with the gradient differentiated from the
   user's own expressions -- so ``u`` minimises ``risk_p`` over C (convexity from step 1) -- ``u``
   in the closed cell of t', t' (and every prediction the link ties with it) suboptimal at p, and an
   interior point ``c`` of the cell that is also in C, with ``pred = t'`` along
   ``u + eps (c - u)`` (in C by convexity) for ``eps in (0, 1]`` while
   ``risk_p(u + eps (c - u)) - min risk_p``, a polynomial in eps without constant term, tends to 0.
   So the infimum over a wrong cell equals the minimum, at an interior point of the cell or at a
   tie alike.  No such c (the cell has no interior in C): ``unknown``, never ``refuted``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget
from symcal.calibration import engine as E
from symcal.exact import fraction_str
from symcal.verdicts import Evidence, Status, Verdict

__all__ = ["QuadraticDomain", "quadratic_domain_form", "decide_quadratic_domain", "verify_quadratic_domain",
           "recheck_quadratic_domain"]

F0 = Fraction(0)
NAME = "(Q) quadratic over a polyhedral domain"


@dataclass
class QuadraticDomain:
    """``psi_y(u) = u^T H[y] u + lin[y].u + const[y]``; ``minors[y]``: the leading principal minors
    of ``Z^T H[y] Z`` (all positive); ``shared``: every ``H[y]`` is the same matrix."""

    H: list[list[list[Fraction]]]
    lin: list[list[Fraction]]
    const: list[Fraction]
    minors: list[list[Fraction]]
    shared: bool


def _r(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


def _coefficients(e: sympy.Expr, u: list[sympy.Symbol], y: int) -> tuple[list[list[Fraction]], list[Fraction],
                                                                          Fraction] | str:
    """``(H, l, c)`` with ``e = u^T H u + l.u + c`` (:func:`engine.quadratic_coefficients`), rebuilt and
    compared with ``e``, or why ``e`` is not of that form."""
    got = E.quadratic_coefficients(e, u, y)
    if isinstance(got, str):
        return got
    H, lin, const = got
    d = len(u)
    rebuilt = (sum((_r(H[i][j]) * u[i] * u[j] for i in range(d) for j in range(d)), sympy.Integer(0))
               + sum((_r(lin[i]) * u[i] for i in range(d)), sympy.Integer(0)) + _r(const))
    if sympy.expand(e - rebuilt) != 0:
        return f"psi_{y + 1}: the quadratic form disagrees with the expression (internal)"
    return H, lin, const


def quadratic_domain_form(s: E.Setup) -> QuadraticDomain | str:
    """Method (Q)'s precondition, decided exactly: every ``psi_y`` a quadratic polynomial whose
    Hessian is positive definite on the directions of C's equalities, over a domain with inequalities
    (over an affine domain, (A) decides shared Hessians and (S) the others); or the reason it fails."""
    if not s.les:
        return "the domain C has no inequalities (method (Q) is for domains with inequalities; (S) decides these)"
    Hs, lins, consts = [], [], []
    for y, e in enumerate(s.surrogate.per_label):
        got = _coefficients(e, s.u, y)
        if isinstance(got, str):
            return got
        Hs.append(got[0])
        lins.append(got[1])
        consts.append(got[2])
    aff = E._affine_solution(s)
    if aff is None:
        return "the equalities of the domain are inconsistent"
    _, Z = aff
    d = s.d
    r = len(Z[0]) if Z and Z[0] else 0
    minors = []
    for y, H in enumerate(Hs):
        G = [[sum((Z[a][i] * H[a][b] * Z[b][j] for a in range(d) for b in range(d)), F0) for j in range(r)]
             for i in range(r)]
        m = E._sylvester(G)
        if any(x <= 0 for x in m):
            return (f"the Hessian of psi_{y + 1} is not positive definite on the directions of C (leading principal "
                    f"minors of Z^T H_{y + 1} Z: {', '.join(map(fraction_str, m))}): risk_p need not be strongly "
                    f"convex")
        minors.append(m)
    return QuadraticDomain(Hs, lins, consts, minors, all(H == Hs[0] for H in Hs))


# --------------------------------------------------------------------------- the KKT constraints


@dataclass
class _Vars:
    p: list[Any]
    u: list[Any]
    mu: list[Any]
    nu: list[Any]

    def all(self) -> list[Any]:
        return self.p + self.u + self.mu + self.nu


def _vars(s: E.Setup) -> _Vars:
    return _Vars(E._zvars("p", s.n), E._zvars("u", s.d), E._zvars("mu", len(s.les)), E._zvars("nu", len(s.eqs)))


def _sum(terms: list[Any]) -> Any:
    """z3 sum with no 1-ary or 0-ary node (cvc5 refuses both when it re-decides the query)."""
    import z3

    return z3.RealVal(0) if not terms else terms[0] if len(terms) == 1 else z3.Sum(*terms)


def _kkt(s: E.Setup, form: QuadraticDomain, v: _Vars, p: list[Fraction] | None = None) -> list[Any]:
    """u minimises risk_p over C: u in C, stationarity, mu >= 0, complementarity as disjunctions.
    With ``p`` given (exact), the stationarity is linear in u; else with the variables ``v.p``: linear
    when the Hessians are shared (sum p = 1 is among the simplex constraints), bilinear otherwise."""
    import z3

    cons = E._domain(s, v.u)
    for i in range(s.d):
        terms = []
        if p is not None:
            row = [sum((2 * p[y] * form.H[y][i][j] for y in range(s.n)), F0) for j in range(s.d)]
            terms.append(E._zlin(row, v.u))
            const = sum((p[y] * form.lin[y][i] for y in range(s.n)), F0)
            if const:
                terms.append(E._q(const))
        elif form.shared:
            terms.append(E._zlin([2 * h for h in form.H[0][i]], v.u))
            terms.append(E._zlin([form.lin[y][i] for y in range(s.n)], v.p))
        else:
            for y in range(s.n):
                g = [E._zlin([2 * h for h in form.H[y][i]], v.u)]
                if form.lin[y][i]:
                    g.append(E._q(form.lin[y][i]))
                terms.append(v.p[y] * _sum(g))
        if s.les:
            terms.append(E._zlin([a[i] for a, _ in s.les], v.mu))
        if s.eqs:
            terms.append(E._zlin([a[i] for a, _ in s.eqs], v.nu))
        cons.append(_sum(terms) == 0)
    for m, (a, b) in zip(v.mu, s.les, strict=True):
        cons += [m >= 0, z3.Or(m == 0, E._zlin(a, v.u) == E._q(b))]
    return cons


def _pair_constraints(s: E.Setup, form: QuadraticDomain, v: _Vars, tp: int, tpp: int | None) -> list[Any]:
    cons = E._simplex_and_noise(s, v.p) + _kkt(s, form, v)
    cons += [E._zlin(a, v.u) <= E._q(b) for a, b in s.link.cells[tp]]
    cons.append(E._worse(s, v.p, tp, tpp))
    return cons


# --------------------------------------------------------------------------- the exact re-check


def _gradient(s: E.Setup, p: list[Fraction], u: list[Fraction]) -> list[Fraction] | None:
    """grad risk_p(u), differentiated from the user's expressions, in exact arithmetic."""
    sub = {sym: _r(x) for sym, x in zip(s.u, u, strict=True)}
    out = []
    for sym in s.u:
        tot = sympy.Integer(0)
        for y in range(s.n):
            if p[y]:
                tot += _r(p[y]) * sympy.diff(s.surrogate.per_label[y], sym).xreplace(sub)
        if not tot.is_Rational:
            return None
        out.append(Fraction(int(tot.p), int(tot.q)))
    return out


def kkt_check(s: E.Setup, p: list[Fraction], u: list[Fraction], mu: list[Fraction], nu: list[Fraction]) -> str:
    """Why ``(u, mu, nu)`` is not a KKT point of ``risk_p`` over C, or "" when it is (exact)."""
    if len(u) != s.d or len(mu) != len(s.les) or len(nu) != len(s.eqs):
        return "u or the multipliers have the wrong shape"
    if not s.in_domain(u):
        return "u is not in C"
    for m, (a, b) in zip(mu, s.les, strict=True):
        if m < 0 or (m > 0 and E.dot(a, u) != b):
            return "a multiplier of an inequality of C is negative or its row is not active at u"
    grad = _gradient(s, p, u)
    if grad is None:
        return "the gradient of risk_p at u is not rational (internal)"
    for i in range(s.d):
        grad[i] += sum((m * a[i] for m, (a, _) in zip(mu, s.les, strict=True)), F0)
        grad[i] += sum((x * a[i] for x, (a, _) in zip(nu, s.eqs, strict=True)), F0)
    return "grad risk_p(u) + A^T mu + E^T nu is not 0" if any(grad) else ""


def verify_quadratic_domain(s: E.Setup, form: QuadraticDomain, p: list[Fraction], u: list[Fraction],
                            mu: list[Fraction], nu: list[Fraction], tp: int,
                            c: list[Fraction]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Exact re-check of a (Q) refutation, with no solver: ``p in P``; ``(u, mu, nu)`` a KKT point of
    the convex ``risk_p`` over C (so u minimises it; convexity is ``form``'s checked precondition);
    u in the closed cell of t', t' suboptimal at p, and ``pred = t'`` along ``u + eps (c - u)`` with
    ``risk_p`` there minus the minimum a polynomial in eps vanishing at 0.  Returns (failure reason or
    '', values, certificate)."""
    why = E._check_p(s, p)
    if why:
        return why, {}, {}
    why = kkt_check(s, p, u, mu, nu)
    if why:
        return why, {}, {}
    values, why = E._suboptimal_at(s, p, u, c, tp, "u")
    if why:
        return why, {}, {}
    eps = sympy.Symbol("eps")
    sub = {sym: _r(ui) + eps * _r(ci - ui) for sym, ui, ci in zip(s.u, u, c, strict=True)}
    r_u = s.risk(p, u)
    r_eps = sum((_r(py) * s.surrogate.per_label[y].xreplace(sub) for y, py in enumerate(p) if py), sympy.Integer(0))
    gap = sympy.Poly(sympy.expand(r_eps - _r(r_u)), eps)
    if gap.eval(0) != 0 or not all(cf.is_Rational for cf in gap.coeffs()):
        return f"risk_p(u + eps (c - u)) - risk_p(u) = {gap.as_expr()} does not vanish at eps = 0", {}, {}
    at = "inside" if s.in_cell(tp, u, strict=True, proper=True) else "on the boundary (a tie) of"
    values = {**values, "min risk_p": r_u}
    cert = {"method": f"{NAME}: u is a KKT point of the strongly convex risk_p over C, so its minimiser",
            "interior point c": [fraction_str(x) for x in c],
            "mu": [fraction_str(x) for x in mu], "nu": [fraction_str(x) for x in nu],
            "risk_p(u + eps (c - u)) - min risk_p": sympy.sstr(gap.as_expr()),
            "u": f"{at} the closed cell of {s.pname(tp)}",
            "minimiser": "grad risk_p(u) + A^T mu + E^T nu = 0, mu >= 0 only on active rows of C, u in C (exact)"}
    return "", values, cert


def recheck_quadratic_domain(s: E.Setup, w: E.CalibrationWitness) -> tuple[bool, str]:
    """Re-check a witness of (Q) from its own values (p, u, prediction, interior point, multipliers)."""
    form = quadratic_domain_form(s)
    if isinstance(form, str):
        return False, form
    try:
        p = [Fraction(str(w.values[f"p{i}"])) for i in range(1, s.n + 1)]
        u = [Fraction(str(w.values[f"u{i}"])) for i in range(1, s.d + 1)]
        tp = [s.pname(t) for t in range(s.k)].index(w.values["pred"])
        c = [Fraction(x) for x in w.certificate["interior point c"]]
        mu = [Fraction(x) for x in w.certificate["mu"]]
        nu = [Fraction(x) for x in w.certificate["nu"]]
    except (KeyError, ValueError, TypeError, ZeroDivisionError) as e:
        return False, f"the witness is incomplete ({e})"
    why, _, _ = verify_quadratic_domain(s, form, p, u, mu, nu, tp, c)
    return (not why), why or "re-checked exactly"


# --------------------------------------------------------------------------- the decision


def _minimiser_at(s: E.Setup, form: QuadraticDomain, p: list[Fraction],
                  budget: Budget) -> tuple[list[Fraction], list[Fraction], list[Fraction], str]:
    """The KKT point at the exact p (linear arithmetic: z3's model is rational), or why not."""
    v = _vars(s)
    names = [str(x) for x in v.u + v.mu + v.nu]
    res = E._solve(_kkt(s, form, v, p), budget.share(min(5.0, budget.left()), floor=0.1), v.u + v.mu + v.nu,
                   "the minimiser of risk_p over C at a fixed p (KKT)")
    if res.answer != "sat":
        return [], [], [], f"no KKT point found at p ({res.answer})"
    vals = E._fractions(res.model, names)
    return vals[:s.d], vals[s.d:s.d + len(s.les)], vals[s.d + len(s.les):], ""


def _c_nonempty(s: E.Setup, budget: Budget) -> tuple[Evidence | None, str]:
    uz = E._zvars("u", s.d)
    res = E._solve(E._domain(s, uz), budget.share(min(5.0, budget.left()), floor=0.1), uz, "is C non-empty?")
    if res.answer != "sat":
        return None, f"C is not shown non-empty (z3 {res.answer})"
    pt = E._fractions(res.model, [str(x) for x in uz])
    if not s.in_domain(pt):
        return None, "z3's point of C failed the exact check"
    return E.Precondition("C non-empty", True, f"u = ({', '.join(map(fraction_str, pt))}) is in C (exact)"), ""


def decide_quadratic_domain(s: E.Setup, form: QuadraticDomain, pre: list[tuple[str, Evidence]], budget: Budget,
                            t0: float) -> Verdict:
    """Method (Q): see the module docstring."""
    kind = "linear (shared Hessian)" if form.shared else "bilinear in (p, u) (z3 non-linear real arithmetic)"
    method = (f"{NAME}: strongly convex risk_p, unique minimiser over C = the KKT point; one z3 query per pair "
              f"(t', t'') (per cell t' with the disjunction over t'' when k > {E.PAIR_LIMIT}): p in P, KKT with "
              f"complementarity as disjunctions, stationarity {kind}, u in cell_t', <p, L_t' - L_t''> > 0")
    ev, why = _c_nonempty(s, budget)
    if ev is None:
        return E._verdict(s, Status.UNKNOWN, E._scope(s, method), t0, reason=why)
    minors = "; ".join(f"H_{y + 1}: {', '.join(map(fraction_str, m)) or 'none (C is a point)'}"
                       for y, m in enumerate(form.minors[:12]))
    parts = list(pre) + [("C non-empty", ev), ("(Q) strongly convex quadratic", E.Precondition(
        "(Q) quadratic, strongly convex", True,
        f"every psi_y is a polynomial of degree <= 2 with Z^T H_y Z positive definite (leading minors {minors}); "
        f"Hessians {'shared' if form.shared else 'differ between labels'}"))]

    def answer(tp: int, tpp: int | None, label: str, i: int, total: int) -> E.PairAnswer:
        # each remaining pair gets an equal share of what is left (a hard pair cannot starve the rest)
        share = budget.share(budget.left() / (total - i + 1), floor=0.5)

        def witness(p: list[Fraction], c: list[Fraction]) -> E.Recheck:
            why = E._check_p(s, p)
            if why:
                return why, {}, {}
            u, mu, nu, why = _minimiser_at(s, form, p, share)
            if why:
                return why, {}, {}
            return verify_quadratic_domain(s, form, p, u, mu, nu, tp, c)

        def describe(values: dict[str, Any], cert: dict[str, Any]) -> str:
            return (f"at p the unique minimiser u of risk_p over C (an exact KKT point) lies {cert['u']}, "
                    f"which is suboptimal (loss {fraction_str(values['loss of pred'])} > "
                    f"{fraction_str(values['optimal loss'])}); u + eps (c - u) lies in C, has pred = {s.pname(tp)} "
                    f"for eps in (0, 1] and risk gap {cert['risk_p(u + eps (c - u)) - min risk_p']} -> 0")

        v = _vars(s)
        cons = _pair_constraints(s, form, v, tp, tpp)
        comment = (f"calibration (Q): is there p in P whose minimiser of risk_p over C (KKT) lies in the cell of "
                   f"{s.pname(tp)} while {s.pname(tp)} is worse than "
                   f"{s.pname(tpp) if tpp is not None else 'another prediction'}? unsat = no")
        return E._answer_exact(s, method, t0, share, tp, label, cons, v.p, v.all(), comment, witness, describe)

    return E._query_pairs(s, method, t0, parts, budget, answer)


def _register() -> None:
    E.METHODS.append(E.Method(NAME, quadratic_domain_form, QuadraticDomain, decide_quadratic_domain,
                              recheck_quadratic_domain))


_register()
