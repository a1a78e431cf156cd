"""The calibration decision: quadratic surrogates (A), polyhedral surrogates (B), else unknown (C).

See :mod:`symcal.calibration` for the definition.  Every reduction below states its
precondition, checks it exactly, and records it in the evidence (ARCHITECTURE.md, *Rules of
trust*, rule 7):

(A) every ``psi_y`` is a polynomial of degree <= 2 with one shared quadratic part ``u^T H u``,
    ``H`` positive definite on the domain's direction space (exact Sylvester minors of
    ``Z^T H Z``), domain = affine equalities.  Then ``risk_p`` is strongly convex on ``C`` with
    the unique minimiser ``u*(p) = sum_y p_y v_y`` (``v_y`` = the minimiser of ``psi_y`` alone;
    affine in p because the quadratic part of ``risk_p`` is ``H`` whenever ``sum p = 1``), and
    ``risk_p(u) - risk_p(u*) >= lambda_min |u - u*|^2`` on ``C``; so the infimum over a closed cell
    exceeds the minimum iff ``u*(p)`` is outside the cell.  Calibrated over P iff no
    ``(p, t', t'')`` with ``p in P``, ``u*(p) in cell_t'``, ``<p, L_t' - L_t''> > 0``.
(B) every ``psi_y = sum_T c_T max_j(a_Tj.u + b_Tj) + affine`` with ``c_T >= 0`` (so convex and
    polyhedral), each ``psi_y`` bounded below on ``C`` (an unsat recession query), so every
    ``risk_p`` attains its minimum, and the minimum over a closed polyhedral cell is attained too.
    Then calibrated over P iff no ``(p, u, t', t'')`` with u a minimiser of ``risk_p`` in
    ``cell_t'`` and ``<p, L_t' - L_t''> > 0``.  Minimality is encoded exactly by the KKT /
    subgradient conditions made linear by ``mu_Tj = (sum_y c_yT p_y) lambda_Tj``.

A ``sat`` answer becomes ``refuted`` only after an exact re-check in Fractions that does not use
z3: the minimiser (A: recomputed and its projected gradient is 0; B: the multipliers form a valid
subgradient certificate), its cell membership, the suboptimality of ``t'``, and an interior point
``c`` of ``cell_t'`` (strict inequalities) such that ``u_eps = u + eps (c - u)`` has ``pred = t'``
for every ``eps in (0, 1]`` while ``risk_p(u_eps) -> min risk_p``.  Otherwise the answer is unknown.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget
from symcal.calibration.problem import Lin, Link, LossSpec, Surrogate, linear_form
from symcal.errors import NoBackendAvailable, invalid
from symcal.exact import fraction_str
from symcal.verdicts import Composite, Evidence, SmtResult, Status, Verdict, Witness

__all__ = ["Setup", "Precondition", "CalibrationWitness", "decide", "recheck_witness", "DEFINITION"]

DEFINITION = ("psi is L-calibrated over P (Tewari & Bartlett 2007; Ramaswamy et al. 2013, Def. 1) iff for every "
              "p in P: inf{risk_p(u) : u in C, pred(u) not in argmin_t <p, L[:,t]>} > inf{risk_p(u) : u in C}, "
              "where risk_p(u) = sum_y p_y psi(y, u)")

F0 = Fraction(0)


# --------------------------------------------------------------------------- evidence


@dataclass(frozen=True)
class Precondition(Evidence):
    """A checked precondition of a reduction, with what the exact check found."""

    name: str
    holds: bool
    detail: str
    kind = "precondition"

    def summary(self) -> str:
        return f"{self.name}: {'holds' if self.holds else 'FAILS'} ({self.detail})"


@dataclass(frozen=True)
class CalibrationWitness(Witness):
    """A distribution p at which calibration fails, re-checked exactly: ``values`` has p, the
    minimiser u, the link's prediction, its conditional loss and the optimal one; ``certificate``
    has what the re-check used (interior point, multipliers, the gap along the sequence)."""

    certificate: dict[str, Any] = field(default_factory=dict)
    kind = "calibration-witness"


# --------------------------------------------------------------------------- the set-up


@dataclass
class Setup:
    loss: LossSpec
    L: tuple[tuple[Fraction, ...], ...]  # n x k, columns in the link's prediction order
    surrogate: Surrogate
    link: Link
    noise: tuple[Any, ...]
    name: str = ""
    progress: Any = field(default=None, repr=False, compare=False)  # called with "[i/n] pair ..." lines

    def __post_init__(self) -> None:
        self.n = len(self.L)
        self.k = len(self.L[0])
        self.d = self.surrogate.dim
        self.u = list(self.surrogate.u)
        self.p = [sympy.Symbol(f"p{i}") for i in range(1, self.n + 1)]
        self.eqs, self.les, self.bad_domain = self.surrogate.domain_constraints()

    # exact helpers ----------------------------------------------------------------
    def losses(self, p: list[Fraction]) -> list[Fraction]:
        return [sum((p[y] * self.L[y][t] for y in range(self.n)), F0) for t in range(self.k)]

    def risk(self, p: list[Fraction], u: list[Fraction]) -> Fraction:
        """``sum_y p_y psi_y(u)`` from the user's own expressions, in exact arithmetic."""
        sub = {s: sympy.Rational(x.numerator, x.denominator) for s, x in zip(self.u, u, strict=True)}
        total = sympy.Integer(0)
        for y in range(self.n):
            if p[y] == 0:
                continue
            val = self.surrogate.per_label[y].xreplace(sub)
            if not val.is_Rational:
                raise NoBackendAvailable(f"psi_{y + 1}(u) is not rational at u: {val}")
            total += sympy.Rational(p[y].numerator, p[y].denominator) * val
        return Fraction(int(total.p), int(total.q))

    def noise_holds(self, p: list[Fraction]) -> bool:
        from symcal.backends.translate import truth_at

        values = dict(zip(self.p, p, strict=True))
        return all(truth_at(rel, values) is True for rel in self.noise)

    def in_domain(self, u: list[Fraction]) -> bool:
        return (all(dot(a, u) == b for a, b in self.eqs) and all(dot(a, u) <= b for a, b in self.les))

    def in_cell(self, t: int, u: list[Fraction], strict: bool = False, proper: bool = False) -> bool:
        """u in the closed cell of t; ``strict``: in its interior (``proper``: ignoring the rows
        ``0.u <= 0`` of predictions the link ties with t everywhere)."""
        if strict:
            return all(dot(a, u) < b for a, b in self.link.cells[t] if not proper or any(a) or b != 0)
        return all(dot(a, u) <= b for a, b in self.link.cells[t])

    def pname(self, t: int) -> str:
        return self.loss.prediction_names[t] if self.link.kind != "sort-desc" else self.link.prediction_names[t]

    def p_text(self) -> str:
        if not self.noise:
            return f"P = the whole simplex Delta_{self.n}"
        return f"P = {{p in Delta_{self.n} : {', '.join(sympy.sstr(r) for r in self.noise)}}}"

    def c_text(self) -> str:
        if not self.surrogate.domain:
            return f"C = R^{self.d}"
        return f"C = {{u in R^{self.d} : {', '.join(sympy.sstr(r) for r in self.surrogate.domain)}}}"


def dot(a: Any, x: Any) -> Fraction:
    return sum((ai * xi for ai, xi in zip(a, x, strict=True)), F0)


# --------------------------------------------------------------------------- z3 helpers


def _q(x: Fraction) -> Any:
    import z3

    return z3.Q(x.numerator, x.denominator)


def _zlin(a: Any, xs: list[Any]) -> Any:
    import z3

    terms = [_q(c) * x for c, x in zip(a, xs, strict=True) if c != 0]
    if not terms:
        return z3.RealVal(0)
    return z3.Sum(terms) if len(terms) > 1 else terms[0]


def _zvars(prefix: str, count: int) -> list[Any]:
    import z3

    return [z3.Real(f"{prefix}{i}") for i in range(1, count + 1)]


def _simplex_and_noise(s: Setup, pz: list[Any]) -> list[Any]:
    import z3

    from symcal.backends.translate import Translator

    cons = [x >= 0 for x in pz] + [z3.Sum(pz) == 1 if len(pz) > 1 else pz[0] == 1]
    tr = Translator()
    for rel in s.noise:
        cons.append(tr(rel))
    return cons


def _domain(s: Setup, uz: list[Any]) -> list[Any]:
    return [_zlin(a, uz) == _q(b) for a, b in s.eqs] + [_zlin(a, uz) <= _q(b) for a, b in s.les]


def _version() -> str:
    from symcal.backends import z3_backend

    return z3_backend.version()


def _solve(cons: list[Any], budget: Budget, variables: list[Any], comment: str) -> Any:
    from symcal.backends import z3_backend

    return z3_backend.solve(cons, budget, variables, comment)


def _smt(res: Any, note: str) -> SmtResult:
    return SmtResult("z3", _version(), res.answer, res.smtlib, note=note)


def _fractions(model: dict[str, Fraction], names: list[str]) -> list[Fraction]:
    return [model[nm] for nm in names]


# --------------------------------------------------------------------------- exact linear algebra


def _affine_solution(s: Setup) -> tuple[list[Fraction], list[list[Fraction]]] | None:
    """A point u0 of {A u = b} and a basis Z (columns) of its direction space; None if empty."""
    d = s.d
    if not s.eqs:
        return [F0] * d, [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]
    A = sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in a] for a, _ in s.eqs])
    b = sympy.Matrix([sympy.Rational(x.numerator, x.denominator) for _, x in s.eqs])
    try:
        sol, params = A.gauss_jordan_solve(b)
    except ValueError:
        return None
    sol = sol.subs({t: 0 for t in params})
    u0 = [Fraction(int(x.p), int(x.q)) for x in sol]
    ns = A.nullspace()
    Z = [[Fraction(int(v[i].p), int(v[i].q)) for v in ns] for i in range(d)]
    return u0, Z


def _sylvester(G: list[list[Fraction]]) -> list[Fraction]:
    """Leading principal minors of G (exact Fractions, fraction-free elimination)."""
    out = []
    for m in range(1, len(G) + 1):
        M = sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in row[:m]] for row in G[:m]])
        det = M.det(method="bareiss")
        out.append(Fraction(int(det.p), int(det.q)))
    return out


# --------------------------------------------------------------------------- (A) quadratic


@dataclass
class Quadratic:
    H: list[list[Fraction]]
    lin: list[tuple[Fraction, ...]]
    u0: list[Fraction]
    Z: list[list[Fraction]]  # d x r
    minors: list[Fraction]
    minimisers: list[list[Fraction]]  # v_y

    def u_star(self, p: list[Fraction]) -> list[Fraction]:
        d = len(self.u0)
        return [sum((p[y] * v[i] for y, v in enumerate(self.minimisers)), F0) for i in range(d)]


def quadratic_coefficients(e: sympy.Expr, u: list[sympy.Symbol], y: int
                           ) -> tuple[list[list[Fraction]], list[Fraction], Fraction] | str:
    """``(H, l, c)`` with ``psi_y = e = u^T H u + l.u + c`` (H symmetric, exact), or why ``e`` is not a
    polynomial of degree <= 2 with rational coefficients (methods (A) and (Q))."""
    d = len(u)
    if not e.is_polynomial(*u):
        return f"psi_{y + 1} is not a polynomial in u"
    try:
        poly = sympy.Poly(e, *u, domain="QQ")
    except (sympy.PolynomialError, sympy.CoercionFailed, ValueError, TypeError):
        return f"psi_{y + 1} does not have rational coefficients"
    if poly.total_degree() > 2:
        return f"psi_{y + 1} has degree {poly.total_degree()} > 2"
    H = [[F0] * d for _ in range(d)]
    lin = [F0] * d
    const = F0
    for mon, cf in poly.terms():
        c = Fraction(int(cf.numerator), int(cf.denominator))
        idx = [i for i in range(d) for _ in range(mon[i])]
        if len(idx) == 2:
            i, j = idx
            if i == j:
                H[i][i] += c
            else:
                H[i][j] += c / 2
                H[j][i] += c / 2
        elif len(idx) == 1:
            lin[idx[0]] += c
        else:
            const += c
    return H, lin, const


def quadratic_form(s: Setup) -> Quadratic | str:
    """Reduction (A)'s preconditions, checked exactly; a reason string when one fails."""
    d, u = s.d, s.u
    H0: list[list[Fraction]] | None = None
    lins = []
    for y, e in enumerate(s.surrogate.per_label):
        got = quadratic_coefficients(e, u, y)
        if isinstance(got, str):
            return got
        H, lin, _ = got
        if H0 is None:
            H0 = H
        elif H != H0:
            return (f"the quadratic parts of psi_1 and psi_{y + 1} differ (the minimiser would not be affine "
                    f"in p)")
        lins.append(tuple(lin))
    assert H0 is not None
    if s.les:
        return "the domain has inequalities (the minimiser would not be affine in p)"
    aff = _affine_solution(s)
    if aff is None:
        raise invalid("surrogate.domain", [sympy.sstr(r) for r in s.surrogate.domain], "a non-empty domain",
                      "the equalities are inconsistent")
    u0, Z = aff
    r = len(Z[0]) if Z and Z[0] else 0
    G = [[sum((Z[a][i] * H0[a][b] * Z[b][j] for a in range(d) for b in range(d)), F0) for j in range(r)]
         for i in range(r)]
    minors = _sylvester(G)
    if any(m <= 0 for m in minors):
        return (f"the quadratic part is not positive definite on the domain (leading principal minors of "
                f"Z^T H Z: {', '.join(map(fraction_str, minors))})")
    # v_y = u0 + Z w_y, w_y = -G^{-1} Z^T (2 H u0 + l_y) / 2
    Gs = sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in row] for row in G]) if r else None
    Ginv = Gs.inv() if Gs is not None else None
    mins = []
    for y in range(s.n):
        if r == 0:
            mins.append(list(u0))
            continue
        g = [2 * dot(H0[i], u0) + lins[y][i] for i in range(d)]
        zg = [sum((Z[a][i] * g[a] for a in range(d)), F0) for i in range(r)]
        zgs = sympy.Matrix([sympy.Rational(x.numerator, x.denominator) for x in zg])
        w = -(Ginv * zgs) / 2  # type: ignore[operator]
        wf = [Fraction(int(x.p), int(x.q)) for x in w]
        mins.append([u0[i] + sum((Z[i][j] * wf[j] for j in range(r)), F0) for i in range(d)])
    q = Quadratic(H0, lins, u0, Z, minors, mins)
    # self-checks against the user's own expressions: psi_y - (u^T H u + l_y.u) is a constant, and
    # v_y is a stationary point of psi_y on C (exact)
    for y, e in enumerate(s.surrogate.per_label):
        rebuilt = sum((sympy.Rational(*_nd(H0[i][j])) * u[i] * u[j] for i in range(d) for j in range(d)),
                      sympy.Integer(0)) + sum((sympy.Rational(*_nd(lins[y][i])) * u[i] for i in range(d)),
                                              sympy.Integer(0))
        if sympy.expand(e - rebuilt).free_symbols:
            return f"psi_{y + 1}: the quadratic form disagrees with the expression (internal)"
        onehot = [Fraction(int(i == y)) for i in range(s.n)]
        if not s.in_domain(mins[y]) or any(_grad_on_domain(s, q, onehot, mins[y])):
            return f"psi_{y + 1}: the computed minimiser is not stationary on C (internal)"
    return q


def _grad_on_domain(s: Setup, q: Quadratic, p: list[Fraction], u: list[Fraction]) -> list[Fraction]:
    """Z^T grad risk_p(u), the gradient differentiated from the user's expressions (exact)."""
    sub = {sym: sympy.Rational(x.numerator, x.denominator) for sym, x in zip(s.u, u, strict=True)}
    grad = []
    for sym in s.u:
        tot = sympy.Integer(0)
        for y in range(s.n):
            if p[y]:
                tot += sympy.Rational(p[y].numerator, p[y].denominator) * sympy.diff(s.surrogate.per_label[y],
                                                                                   sym).xreplace(sub)
        grad.append(Fraction(int(tot.p), int(tot.q)))
    r = len(q.Z[0]) if q.Z and q.Z[0] else 0
    return [sum((q.Z[a][j] * grad[a] for a in range(s.d)), F0) for j in range(r)]


# --------------------------------------------------------------------------- (B) polyhedral


@dataclass
class Polyhedral:
    terms: list[tuple[Lin, ...]]  # unique max-terms (>= 2 pieces each)
    weight: list[list[Fraction]]  # weight[T][y] >= 0
    affine: list[Lin]  # per label: (a, b) of the affine part

    def value(self, y: int, u: list[Fraction]) -> Fraction:
        a, b = self.affine[y]
        tot = dot(a, u) + b
        for T, pieces in enumerate(self.terms):
            if self.weight[T][y]:
                tot += self.weight[T][y] * max(dot(pa, u) + pb for pa, pb in pieces)
        return tot

    def w(self, T: int, p: list[Fraction]) -> Fraction:
        return sum((c * py for c, py in zip(self.weight[T], p, strict=True)), F0)


def _pieces(args: Any, u: list[sympy.Symbol], sign: int) -> tuple[Lin, ...] | None:
    out = []
    for a in args:
        lf = linear_form(sign * a, u)
        if lf is None:
            return None
        out.append(lf)
    return tuple(sorted(set(out)))


def polyhedral_form(s: Setup) -> Polyhedral | str:
    """Reduction (B)'s form ``sum_T c_T max_j(affine) + affine`` with ``c_T >= 0``, or a reason."""
    u, d = s.u, s.d
    terms: dict[tuple[Lin, ...], list[Fraction]] = {}
    affine = []
    for y, e in enumerate(s.surrogate.per_label):
        a_tot, b_tot = [F0] * d, F0
        for term in sympy.Add.make_args(sympy.expand(e)):
            lf = linear_form(term, u)
            if lf is not None:
                a_tot = [x + y_ for x, y_ in zip(a_tot, lf[0], strict=True)]
                b_tot += lf[1]
                continue
            coeff, rest = term.as_coeff_Mul()
            if not coeff.is_Rational:
                return f"psi_{y + 1}: the coefficient {coeff} of {rest} is not rational"
            c = Fraction(int(coeff.p), int(coeff.q))
            if isinstance(rest, sympy.Max):
                if c < 0:
                    return f"psi_{y + 1} has a concave part {sympy.sstr(term)} (a negative multiple of Max)"
                pieces = _pieces(rest.args, u, 1)
                if pieces is None:  # nested: Max(0, Abs(u1 - 1) - 1/4) is Max(0, u1 - 5/4, 3/4 - u1)
                    from symcal.calibration.convexity import max_of_affine

                    flat = max_of_affine(rest, u)
                    pieces = tuple(flat) if flat is not None else None
            elif isinstance(rest, sympy.Min):
                if c > 0:
                    return f"psi_{y + 1} has a concave part {sympy.sstr(term)} (a positive multiple of Min)"
                pieces, c = _pieces(rest.args, u, -1), -c
            elif isinstance(rest, sympy.Abs):
                if c < 0:
                    return f"psi_{y + 1} has a concave part {sympy.sstr(term)} (a negative multiple of Abs)"
                pieces = _pieces((rest.args[0], -rest.args[0]), u, 1)
            else:
                return f"psi_{y + 1} has the term {sympy.sstr(term)}, not a nonnegative multiple of a Max of affine " \
                       f"pieces"
            if pieces is None:
                return f"psi_{y + 1}: {sympy.sstr(rest)} has a piece that is not affine with rational coefficients"
            if len(pieces) == 1:
                (pa, pb), = pieces
                a_tot = [x + c * y_ for x, y_ in zip(a_tot, pa, strict=True)]
                b_tot += c * pb
                continue
            row = terms.setdefault(pieces, [F0] * s.n)
            row[y] += c
        affine.append((tuple(a_tot), b_tot))
    keys = sorted(terms)
    out = Polyhedral(keys, [terms[t] for t in keys], affine)
    # self-check of the parse against the user's expressions: a symbolic identity after writing
    # Abs(x) = Max(x, -x) and Min(a, ..) = -Max(-a, ..); then exact values at random points
    for y, e in enumerate(s.surrogate.per_label):
        a, b = out.affine[y]
        rebuilt = sum((sympy.Rational(*_nd(c)) * x for c, x in zip(a, u, strict=True)), sympy.Rational(*_nd(b)))
        for T, pieces in enumerate(out.terms):
            if out.weight[T][y]:
                mx = sympy.Max(*[sum((sympy.Rational(*_nd(c)) * x for c, x in zip(pa, u, strict=True)),
                                     sympy.Rational(*_nd(pb))) for pa, pb in pieces], evaluate=False)
                rebuilt += sympy.Rational(*_nd(out.weight[T][y])) * mx
        orig = sympy.expand(e).replace(sympy.Abs, lambda x: sympy.Max(x, -x, evaluate=False))
        orig = orig.replace(sympy.Min, lambda *xs: -sympy.Max(*[-x for x in xs], evaluate=False))
        if sympy.expand(orig - rebuilt) != 0 and not _same_values(e, out, y, u, d):
            return f"psi_{y + 1}: the polyhedral form disagrees with the expression (internal)"
    rng = random.Random(2013)
    for _ in range(6):
        pt = [Fraction(rng.randint(-40, 40), rng.randint(1, 7)) for _ in range(d)]
        sub = {sym: sympy.Rational(x.numerator, x.denominator) for sym, x in zip(u, pt, strict=True)}
        for y, e in enumerate(s.surrogate.per_label):
            val = e.xreplace(sub)
            if not val.is_Rational or Fraction(int(val.p), int(val.q)) != out.value(y, pt):
                return f"psi_{y + 1}: the polyhedral form disagrees with the expression at u = {pt} (internal)"
    return out


# --------------------------------------------------------------------------- queries


def _same_values(e: Any, poly: Polyhedral, y: int, u: list[sympy.Symbol], d: int) -> bool:
    """psi_y equals its polyhedral form everywhere, decided exactly: z3 (linear arithmetic with
    Max / Abs / Min as if-then-else) finds no u where they differ.  Undecided counts as different."""
    import z3

    from symcal.backends.translate import Translator

    tr = Translator()
    try:
        lhs = tr(e)
    except Exception:  # noqa: BLE001 - not translatable: not shown equal
        return False
    uz = [tr.var(x) for x in u]
    rhs = _zlin(list(poly.affine[y][0]), uz) + _q(poly.affine[y][1])
    for T, pieces in enumerate(poly.terms):
        if poly.weight[T][y]:
            vals = [_zlin(list(pa), uz) + _q(pb) for pa, pb in pieces]
            mx = vals[0]
            for v in vals[1:]:
                mx = z3.If(v > mx, v, mx)
            rhs = rhs + _q(poly.weight[T][y]) * mx
    res = _solve([lhs != rhs], Budget(5.0), uz, "does psi_y differ from its polyhedral form somewhere?")
    return res.answer == "unsat"


def _pair_constraints_quadratic(s: Setup, q: Quadratic, tp: int, tpp: int | None,
                                strict: bool = False) -> tuple[list[Any], list[Any]]:
    """p in P, u*(p) in the cell of ``tp`` (``strict``: in its interior, every proper row strict) and ``tp``
    worse than ``tpp`` (or than some prediction)."""
    pz = _zvars("p", s.n)
    ustar = [sum((_q(v[i]) * pz[y] for y, v in enumerate(q.minimisers) if v[i] != 0), _q(F0))
             for i in range(s.d)]
    cons = _simplex_and_noise(s, pz)
    for a, b in s.link.cells[tp]:
        row = sum((_q(c) * ustar[i] for i, c in enumerate(a) if c != 0), _q(F0))
        cons.append(row < _q(b) if strict and (any(a) or b != 0) else row <= _q(b))
    cons.append(_worse(s, pz, tp, tpp))
    return cons, pz


@dataclass
class PolyVars:
    p: list[Any]
    u: list[Any]
    mu: list[list[Any]]
    nu: list[Any]
    eta: list[Any]

    def all(self) -> list[Any]:
        return self.p + self.u + [m for row in self.mu for m in row] + self.nu + self.eta


def _minimiser_constraints(s: Setup, poly: Polyhedral, v: PolyVars) -> list[Any]:
    """u minimises risk_p over C: KKT with mu_Tj = w_T(p) lambda_Tj (exact, linear + disjunctions)."""
    import z3

    cons = _domain(s, v.u)
    grad = [_q(F0)] * s.d
    for T, pieces in enumerate(poly.terms):
        wT = _zlin(poly.weight[T], v.p)
        mus = v.mu[T]
        cons += [m >= 0 for m in mus]
        cons.append(z3.Sum(mus) == wT)
        vals = [_zlin(pa, v.u) + _q(pb) for pa, pb in pieces]
        for j, m in enumerate(mus):
            active = z3.And(*[vals[j] >= vals[i] for i in range(len(pieces)) if i != j])
            cons.append(z3.Or(m == 0, active))
        for i in range(s.d):
            grad[i] = grad[i] + _zlin([pa[i] for pa, _ in pieces], mus)
    for i in range(s.d):
        grad[i] = grad[i] + _zlin([poly.affine[y][0][i] for y in range(s.n)], v.p)
        grad[i] = grad[i] + _zlin([a[i] for a, _ in s.eqs], v.nu) + _zlin([a[i] for a, _ in s.les], v.eta)
    for e, (a, b) in zip(v.eta, s.les, strict=True):
        cons += [e >= 0, z3.Or(e == 0, _zlin(a, v.u) == _q(b))]
    cons += [g == 0 for g in grad]
    return cons


def _poly_vars(s: Setup, poly: Polyhedral) -> PolyVars:
    import z3

    mu = [[z3.Real(f"mu_{T + 1}_{j + 1}") for j in range(len(pc))] for T, pc in enumerate(poly.terms)]
    return PolyVars(_zvars("p", s.n), _zvars("u", s.d), mu, _zvars("nu", len(s.eqs)), _zvars("eta", len(s.les)))


def _pair_constraints_polyhedral(s: Setup, poly: Polyhedral, v: PolyVars, tp: int, tpp: int | None,
                                 strict: bool = False) -> list[Any]:
    """p in P, u a minimiser of risk_p in the cell of ``tp`` (``strict``: in its interior, every proper row
    strict) and ``tp`` worse than ``tpp`` (or than some prediction)."""
    cons = _simplex_and_noise(s, v.p) + _minimiser_constraints(s, poly, v)
    cons += [_zlin(a, v.u) < _q(b) if strict and (any(a) or b != 0) else _zlin(a, v.u) <= _q(b)
             for a, b in s.link.cells[tp]]
    cons.append(_worse(s, v.p, tp, tpp))
    return cons


def _bounded_below(s: Setup, poly: Polyhedral, budget: Budget) -> tuple[list[tuple[str, Evidence]], str]:
    """psi_y bounded below on C for every y: no direction dd with A dd = 0, G dd <= 0 and recession
    slope sum_T c_yT max_j a_Tj.dd + a_y.dd < 0 (a polyhedral function is bounded below on a polyhedron
    iff no such direction exists).  Returns evidence parts and a failure reason ('' when all hold)."""
    import z3

    parts: list[tuple[str, Evidence]] = []
    for y in range(s.n):
        dz = _zvars("dd", s.d)
        cons = [_zlin(a, dz) == 0 for a, _ in s.eqs] + [_zlin(a, dz) <= 0 for a, _ in s.les]
        slope = _zlin(poly.affine[y][0], dz)
        for T, pieces in enumerate(poly.terms):
            c = poly.weight[T][y]
            if c:
                m = z3.Real(f"m{T + 1}")
                cons += [m >= _zlin(pa, dz) for pa, _ in pieces]
                slope = slope + _q(c) * m
        cons.append(slope < 0)
        res = _solve(cons, budget, dz, f"psi_{y + 1} bounded below on C: is there a direction of recession "
                                       f"with negative slope? (unsat = bounded below)")
        if res.answer != "unsat":
            why = ("a direction of recession with negative slope exists" if res.answer == "sat"
                   else f"z3: {res.reason}")
            return parts, f"psi_{y + 1} is not shown bounded below on C ({why}); the minimum may not be attained"
        parts.append((f"psi_{y + 1} bounded below on C", _smt(res, "no recession direction of negative slope")))
    return parts, ""


def _proper_rows(s: Setup, t: int) -> list[Lin]:
    """The rows of cell_t that cut something: ``0.u <= 0`` (against a prediction with the same
    link row, see :meth:`Link.tied`) holds everywhere and can never be made strict."""
    return [(a, b) for a, b in s.link.cells[t] if any(a) or b != 0]


def _interior_point(s: Setup, t: int, budget: Budget) -> tuple[list[Fraction] | None, list[tuple[str, Evidence]], str]:
    """A point c of C with every inequality of cell_t strict, checked exactly; and, for a user's
    regions, the unsat queries showing no other region meets that strict interior."""
    from symcal.backends import z3_backend

    uz = _zvars("u", s.d)
    cons = _domain(s, uz) + [_zlin(a, uz) < _q(b) for a, b in _proper_rows(s, t)]
    cands = z3_backend.small_models(cons, uz, budget.share(2.0, floor=0.1), attempts=3)
    if not cands:
        res = _solve(cons, budget, uz, "interior point")
        if res.answer != "sat":
            return None, [], (f"cell of {s.pname(t)} has an empty interior in C" if res.answer == "unsat"
                              else f"interior point of the cell of {s.pname(t)}: z3 {res.reason}")
        cands = [res.model]
    c = _fractions(cands[0], [f"u{i}" for i in range(1, s.d + 1)])
    if not (s.in_domain(c) and s.in_cell(t, c, strict=True, proper=True)):
        return None, [], f"interior point of the cell of {s.pname(t)} failed the exact check"
    parts: list[tuple[str, Evidence]] = []
    if not s.link.exclusive:
        for other in range(s.k):
            if other == t:
                continue
            q = _domain(s, uz) + [_zlin(a, uz) < _q(b) for a, b in _proper_rows(s, t)]
            q += [_zlin(a, uz) <= _q(b) for a, b in s.link.cells[other]]
            res = _solve(q, budget, uz, f"does region {other + 1} meet the strict interior of region {t + 1}?")
            if res.answer != "unsat":
                return None, [], (f"region {other + 1} meets the interior of region {t + 1}: pred is not "
                                  f"determined there, so no sequence with pred = {t + 1} is certain")
            parts.append((f"region {other + 1} misses interior of region {t + 1}",
                          _smt(res, "unsat: strict interior of the region has pred = t")))
    return c, parts, ""


# --------------------------------------------------------------------------- exact re-checks


def _check_p(s: Setup, p: list[Fraction]) -> str:
    if len(p) != s.n or any(x < 0 for x in p) or sum(p) != 1:
        return "p is not in the simplex"
    if not s.noise_holds(p):
        return "p is not in the noise set P"
    return ""


def _loss_report(s: Setup, p: list[Fraction], tp: int) -> tuple[dict[str, Any], str]:
    ls = s.losses(p)
    best = min(ls)
    if not ls[tp] > best:
        return {}, f"prediction {s.pname(tp)} is optimal at p (loss {fraction_str(ls[tp])})"
    good = [t for t in sorted(s.link.tied(tp)) if not ls[t] > best]
    if good:
        return {}, (f"the link ties {', '.join(s.pname(t) for t in sorted(s.link.tied(tp)))} on the whole cell and "
                    f"{s.pname(good[0])} is optimal at p: the failure depends on how the link breaks that tie")
    opt = [s.pname(t) for t in range(s.k) if ls[t] == best]
    return {"pred": s.pname(tp), "loss of pred": ls[tp], "optimal loss": best, "optimal predictions": opt}, ""


def _sequence_check(s: Setup, p: list[Fraction], u: list[Fraction], c: list[Fraction], tp: int) -> str:
    """pred = tp at c and along u + eps (c - u) (checked at two eps), from the link's own definition."""
    if not (s.in_domain(c) and s.in_cell(tp, c, strict=True, proper=True)):
        return "c is not a strict interior point of the cell in C"
    if s.link.exclusive:
        group = set(s.link.tied(tp))
        for eps in (Fraction(1), Fraction(1, 2), Fraction(1, 10**6)):
            pt = [ui + eps * (ci - ui) for ui, ci in zip(u, c, strict=True)]
            if s.link.predictions_at(pt) != group:
                names = ", ".join(s.pname(t) for t in sorted(group))
                return f"pred at u + {eps}(c - u) is not {names} alone"
    return ""


def _suboptimal_at(s: Setup, p: list[Fraction], u: list[Fraction], c: list[Fraction], tp: int,
                   name: str) -> tuple[dict[str, Any], str]:
    """The part of the re-checks of (A) and (B) they share: the minimiser ``u`` (called ``name``) is
    in the closed cell of t', t' is suboptimal at p (:func:`_loss_report`), and pred = t' from u
    towards the interior point c (:func:`_sequence_check`).  Returns (the values p, u and the losses,
    '') or ({}, why not)."""
    if not s.in_cell(tp, u):
        return {}, f"{name} is not in the closed cell of {s.pname(tp)}"
    rep, why = _loss_report(s, p, tp)
    if why:
        return {}, why
    why = _sequence_check(s, p, u, c, tp)
    if why:
        return {}, why
    return {**{f"p{i + 1}": x for i, x in enumerate(p)}, **{f"u{i + 1}": x for i, x in enumerate(u)}, **rep}, ""


def verify_quadratic(s: Setup, q: Quadratic, p: list[Fraction], tp: int, c: list[Fraction],
                     u_claimed: list[Fraction] | None = None) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Exact re-check of a quadratic refutation; returns (failure reason or '', values, certificate)."""
    why = _check_p(s, p)
    if why:
        return why, {}, {}
    u = q.u_star(p)
    if u_claimed is not None and list(u_claimed) != u:
        return "u is not the minimiser of risk_p", {}, {}
    if not s.in_domain(u):
        return "u* is not in C", {}, {}
    if any(_grad_on_domain(s, q, p, u)):
        return "the gradient of risk_p at u* is not 0 on C", {}, {}
    values, why = _suboptimal_at(s, p, u, c, tp, "u*")
    if why:
        return why, {}, {}
    eps = sympy.Symbol("eps")
    sub = {sym: sympy.Rational(ui.numerator, ui.denominator) + eps * sympy.Rational((ci - ui).numerator,
                                                                                   (ci - ui).denominator)
           for sym, ui, ci in zip(s.u, u, c, strict=True)}
    r_eps = sum((sympy.Rational(py.numerator, py.denominator) * s.surrogate.per_label[y].xreplace(sub)
                 for y, py in enumerate(p) if py), sympy.Integer(0))
    gap = sympy.Poly(sympy.expand(r_eps - sympy.Rational(*_nd(s.risk(p, u)))), eps)
    coeffs = {m[0]: cf for m, cf in gap.terms() if cf != 0}  # Poly(0).terms() is [((0,), 0)]
    if set(coeffs) - {2}:
        return f"risk_p(u + eps (c - u)) - risk_p(u) = {gap.as_expr()} is not a multiple of eps^2", {}, {}
    cert = {"interior point c": [fraction_str(x) for x in c],
            "risk_p(u + eps (c - u)) - min risk_p": sympy.sstr(gap.as_expr()),
            "minimiser": "u* = sum_y p_y v_y; Z^T grad risk_p(u*) = 0 exactly; Z^T H Z positive definite"}
    return "", values, cert


def _affine_text(a: Any, b: Fraction) -> str:
    terms = []
    for i, c in enumerate(a):
        if c:
            coef = "" if abs(c) == 1 else f"{fraction_str(abs(c))}*"
            terms.append(("- " if c < 0 else "+ ") + f"{coef}u{i + 1}")
    if b or not terms:
        terms.append(("- " if b < 0 else "+ ") + fraction_str(abs(b)))
    text = " ".join(terms)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


def _nd(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


def subgradient_check(s: Setup, poly: Polyhedral, p: list[Fraction], u: list[Fraction], mu: list[list[Fraction]],
                      nu: list[Fraction], eta: list[Fraction]) -> str:
    """Why the multipliers do not certify that ``u`` minimises ``risk_p`` over C, or "" when they do
    (exact): ``0 = sum_T sum_j mu_Tj a_Tj + sum_y p_y a_y + A^T nu + G^T eta`` with ``mu_Tj >= 0``
    only on active pieces, ``sum_j mu_Tj = sum_y c_yT p_y``, ``eta >= 0`` only on active rows."""
    if not s.in_domain(u):
        return "u is not in C"
    grad = [F0] * s.d
    for T, pieces in enumerate(poly.terms):
        if len(mu[T]) != len(pieces) or any(m < 0 for m in mu[T]) or sum(mu[T]) != poly.w(T, p):
            return f"the multipliers of max-term {T + 1} are not a scaled convex combination"
        vals = [dot(pa, u) + pb for pa, pb in pieces]
        top = max(vals)
        for j, m in enumerate(mu[T]):
            if m > 0 and vals[j] != top:
                return f"max-term {T + 1}: piece {j + 1} has a multiplier but is not active at u"
            for i in range(s.d):
                grad[i] += m * pieces[j][0][i]
    for y in range(s.n):
        for i in range(s.d):
            grad[i] += p[y] * poly.affine[y][0][i]
    for (a, _), x in zip(s.eqs, nu, strict=True):
        for i in range(s.d):
            grad[i] += x * a[i]
    for (a, b), x in zip(s.les, eta, strict=True):
        if x < 0 or (x > 0 and dot(a, u) != b):
            return "a domain multiplier is negative or its constraint is not active"
        for i in range(s.d):
            grad[i] += x * a[i]
    return "the subgradient certificate does not sum to 0" if any(grad) else ""


def verify_polyhedral(s: Setup, poly: Polyhedral, p: list[Fraction], u: list[Fraction],
                      mu: list[list[Fraction]], nu: list[Fraction], eta: list[Fraction], tp: int,
                      c: list[Fraction]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Exact re-check of a polyhedral refutation: the multipliers certify that u minimises risk_p on C."""
    why = _check_p(s, p)
    if why:
        return why, {}, {}
    if len(u) != s.d:
        return "u is not in C", {}, {}
    if len(mu) != len(poly.terms) or len(nu) != len(s.eqs) or len(eta) != len(s.les):
        return "the multipliers have the wrong shape", {}, {}
    why = subgradient_check(s, poly, p, u, mu, nu, eta)
    if why:
        return why, {}, {}
    r_u = s.risk(p, u)
    if r_u != sum((p[y] * poly.value(y, u) for y in range(s.n)), F0):
        return "risk_p(u) from the expressions disagrees with the polyhedral form", {}, {}
    values, why = _suboptimal_at(s, p, u, c, tp, "u")
    if why:
        return why, {}, {}
    r_c = s.risk(p, c)
    eps = Fraction(1, 10**6)
    pt = [ui + eps * (ci - ui) for ui, ci in zip(u, c, strict=True)]
    if not r_u <= s.risk(p, pt) <= r_u + eps * (r_c - r_u):
        return "risk along the sequence violates the convexity bound", {}, {}
    values = {**values, "min risk_p": r_u}
    cert = {"interior point c": [fraction_str(x) for x in c],
            "risk_p(u + eps (c - u)) - min risk_p <=": f"eps * {fraction_str(r_c - r_u)} (convexity)",
            "mu": [[fraction_str(m) for m in row] for row in mu], "nu": [fraction_str(x) for x in nu],
            "eta": [fraction_str(x) for x in eta],
            "max-terms": [f"max({', '.join(_affine_text(pa, pb) for pa, pb in pc)})" for pc in poly.terms],
            "minimiser": "0 = sum_T sum_j mu_Tj a_Tj + sum_y p_y a_y + A^T nu + G^T eta, mu_Tj >= 0 on active "
                         "pieces, sum_j mu_Tj = sum_y c_yT p_y (a subgradient certificate, exact)"}
    return "", values, cert


def recheck_witness(s: Setup, w: CalibrationWitness) -> tuple[bool, str]:
    """Re-check a witness from its own values (p, u, prediction, interior point, multipliers), by the
    method that produced it (``certificate["method"]`` names (S); (A) and (B) are told apart by form)."""
    scaled = normalise_constant(s)
    if scaled is not None:  # decided on phi = psi / c (same minimisers): re-checked on phi too
        s = scaled[1]
    method = str(w.certificate.get("method", ""))
    for m in methods():
        if m.recheck is not None and method.startswith(m.name.split()[0]):
            return m.recheck(s, w)
    try:
        p = [Fraction(w.values[f"p{i}"]) for i in range(1, s.n + 1)]
        u = [Fraction(w.values[f"u{i}"]) for i in range(1, s.d + 1)]
        tp = [s.pname(t) for t in range(s.k)].index(w.values["pred"])
        c = [Fraction(x) for x in w.certificate["interior point c"]]
    except (KeyError, ValueError, TypeError) as e:
        return False, f"the witness is incomplete ({e})"
    q = quadratic_form(s)
    if isinstance(q, Quadratic):
        why, _, _ = verify_quadratic(s, q, p, tp, c, u_claimed=u)
        return (not why), why or "re-checked exactly"
    poly = polyhedral_form(s)
    if not isinstance(poly, Polyhedral):
        return False, poly
    return _recheck_polyhedral(s, poly, w, p, u, tp, c)


def _recheck_polyhedral(s: Setup, poly: Polyhedral, w: CalibrationWitness, p: list[Fraction], u: list[Fraction],
                        tp: int, c: list[Fraction]) -> tuple[bool, str]:
    try:
        mu = [[Fraction(x) for x in row] for row in w.certificate["mu"]]
        nu = [Fraction(x) for x in w.certificate["nu"]]
        eta = [Fraction(x) for x in w.certificate["eta"]]
    except (KeyError, ValueError, TypeError) as e:
        return False, f"the witness has no multipliers ({e})"
    why, _, _ = verify_polyhedral(s, poly, p, u, mu, nu, eta, tp, c)
    return (not why), why or "re-checked exactly"


# --------------------------------------------------------------------------- the decision


def _scope(s: Setup, method: str) -> str:
    c = getattr(s, "scaled_by", None)
    scaled = "" if c is None else (f"; decided on phi_y = psi_y / {sympy.sstr(c)}: a positive constant factor "
                                   f"{sympy.sstr(c)} > 0 (exact sign test) removed, same minimisers and calibration")
    return (f"{DEFINITION}; {s.p_text()}; {s.c_text()}; link {s.link.describe()}; "
            f"n = {s.n} labels, k = {s.k} predictions, d = {s.d}; {method}{scaled}")


def _verdict(s: Setup, status: Status, scope: str, t0: float, evidence: Evidence | None = None,
             reason: str = "") -> Verdict:
    cid = f"calibration:{s.name}" if s.name else "calibration"
    return Verdict(cid, status, scope, "z3+exact", time.monotonic() - t0, evidence, reason)


PAIR_LIMIT = 12  # up to this many predictions: one query per pair (t', t''); beyond: one per t'


def _pairs(s: Setup) -> list[tuple[int, int | None]]:
    """The queries: pairs (t', t'') with different loss columns, or (t', None) = 't' is worse than
    some other prediction' (the disjunction over t'') when k > PAIR_LIMIT."""
    if s.k > PAIR_LIMIT:
        return [(tp, None) for tp in range(s.k)
                if any(s.L[y][tp] != s.L[y][t] for t in range(s.k) for y in range(s.n))]
    return [(tp, tpp) for tp in range(s.k) for tpp in range(s.k)
            if tp != tpp and any(s.L[y][tp] != s.L[y][tpp] for y in range(s.n))]


def _worse(s: Setup, pz: list[Any], tp: int, tpp: int | None) -> Any:
    """<p, L_t' - L_t''> > 0, or its disjunction over every t'' with a different column."""
    import z3

    others = [tpp] if tpp is not None else [t for t in range(s.k) if t != tp]
    alts = []
    for t in others:
        diff = [s.L[y][tp] - s.L[y][t] for y in range(s.n)]
        if any(diff):
            alts.append(_zlin(diff, pz) > 0)
    return z3.Or(*alts) if len(alts) != 1 else alts[0]


def _ties_resolved(s: Setup, cons: list[Any], pz: list[Any], tp: int, budget: Budget, comment: str,
                   label: str) -> tuple[list[Any] | None, str]:
    """A sat pair query for a prediction the link ties with others (:meth:`Link.tied`) refutes
    calibration for *every* tie-breaking only where all of them are suboptimal: the query again
    with that added.  Returns (the constraints to take the witness from, or None; why not)."""
    group = sorted(s.link.tied(tp))
    if len(group) == 1:
        return cons, ""
    import z3

    names = ", ".join(s.pname(t) for t in group)
    more = cons + [z3.And(*[_worse(s, pz, t, None) for t in group])]
    res = _solve(more, budget, pz, comment + f" (and every prediction the link ties with it, {names}, is worse)")
    if res.answer == "sat":
        return more, ""
    if res.answer == "unsat":
        return None, (f"{label}: the link ties {names} on the whole cell and one of them is always optimal there: "
                      f"calibrated or not depending on how the link breaks that tie (z3 unsat for all of them worse)")
    return None, f"{label}: with the tie between {names}: {res.reason}"


def _step(s: Setup, i: int, total: int, tp: int, tpp: int | None) -> None:
    """Report the query about to run to ``s.progress`` (a progress bar on a terminal), if any."""
    if s.progress is not None:
        s.progress(f"[{i - 1}/{total}] {_label(s, tp, tpp)}")


def _label(s: Setup, tp: int, tpp: int | None) -> str:
    if tpp is None:
        return f"cell {s.pname(tp)} (worse than some prediction)"
    return f"pair ({s.pname(tp)}, {s.pname(tpp)})"


def _simplify_p(cons: list[Any], pz: list[Any], budget: Budget) -> list[dict[str, Fraction]]:
    from symcal.backends import z3_backend

    try:
        return z3_backend.small_models(cons, pz, budget.share(min(3.0, budget.left() / 4), floor=0.1), attempts=3)
    except Exception:  # noqa: BLE001 - a nicer witness is optional; the plain model still follows
        return []


def _p_candidates(model: dict[str, Fraction], simple: list[dict[str, Fraction]], n: int) -> list[list[Fraction]]:
    out = []
    for m in simple + [model]:
        p = [m[f"p{i}"] for i in range(1, n + 1)]
        if p not in out:
            out.append(p)
        # an algebraic model (polynomial noise) is a close rational: also try simple nearby ones
        for den in (10, 100, 1000):
            r = [Fraction(x).limit_denominator(den) for x in p[:-1]]
            r.append(1 - sum(r))
            if r not in out:
                out.append(r)
    return out


def decide(s: Setup, timeout: float) -> Verdict:
    t0 = time.monotonic()
    budget = Budget(timeout)
    import z3  # noqa: F401 - fail early if missing

    pre: list[tuple[str, Evidence]] = []
    # P must be a non-empty subset of the simplex (an empty P is an error, never a vacuous pass)
    if s.noise:
        pz = _zvars("p", s.n)
        try:
            res = _solve(_simplex_and_noise(s, pz), budget, pz, "is P non-empty?")
        except NoBackendAvailable as e:
            return _verdict(s, Status.UNKNOWN, _scope(s, "no method"), t0, reason=f"noise set not translatable: {e}")
        if res.answer == "unsat":
            raise invalid("noise", [sympy.sstr(r) for r in s.noise], "a non-empty subset of the simplex",
                          "no distribution satisfies these relations")
    if s.bad_domain:
        return _verdict(s, Status.UNKNOWN, _scope(s, "no method"), t0,
                        reason=f"unsupported domain relations: {'; '.join(s.bad_domain)}")
    uz = _zvars("u", s.d)
    res = _solve(_domain(s, uz), budget, uz, "is C non-empty?")
    if res.answer == "unsat":
        raise invalid("surrogate.domain", [sympy.sstr(r) for r in s.surrogate.domain], "a non-empty domain")
    if not s.link.exclusive:
        # the user's regions must cover C (pred(u) = t only inside R_t, and pred is defined everywhere)
        import z3

        cover = _domain(s, uz) + [z3.Or(*[_zlin(a, uz) > _q(b) for a, b in cell]) if cell else z3.BoolVal(False)
                                  for cell in s.link.cells]
        res = _solve(cover, budget, uz, "is some u of C in no region?")
        if res.answer == "sat":
            pt = ", ".join(f"u{i}={fraction_str(res.model[f'u{i}'])}" for i in range(1, s.d + 1))
            raise invalid("link.regions", f"{s.k} regions", "regions covering the domain C", f"{pt} is in none")
        if res.answer == "unsat":
            pre.append(("regions cover C", _smt(res, "unsat: every u of C lies in some region")))

    trivial = _trivially_calibrated(s, budget, t0, pre)
    if trivial is not None:
        return trivial
    scaled = normalise_constant(s)
    if scaled is not None:
        c, s = scaled
        pre.append(("positive constant factor removed", Precondition(
            "positive constant factor", True,
            f"psi_y = {sympy.sstr(c)} * phi_y for every y with {sympy.sstr(c)} > 0 (exact sign test); risk_p = "
            f"{sympy.sstr(c)} * risk_p(phi) has the same minimisers and the same strict inequalities between "
            "infima for every p, so psi is calibrated iff phi is: phi is decided")))
    reasons = []
    for m in methods():
        form = m.form(s)
        if isinstance(form, m.kind):
            return m.decide(s, form, pre, budget, t0)
        reasons.append(f"not {m.name}: {form}")
    return _verdict(s, Status.UNKNOWN, _scope(s, "no exact method applies"), t0,
                    reason="(C) " + "; ".join(reasons))


def normalise_constant(s: Setup) -> tuple[sympy.Expr, Setup] | None:
    """``(c, the set-up with phi_y = psi_y / c)`` when every ``psi_y`` is ``c * phi_y`` for one closed
    irrational constant ``c > 0`` (``log(1 + exp(-u))/log(2)``, ``sqrt(2) * ...``; its sign decided by the one
    sign test of :mod:`symcal.exact`) and the ``phi_y`` have rational data; None otherwise.  A positive
    multiple of the whole surrogate has the same minimiser map and the same calibration (every infimum is
    multiplied by c > 0), so the methods decide phi, whose data they can use exactly."""
    from symcal.calibration.convexity import _constant, _split_constant, const_sign

    first = next((t for e in s.surrogate.per_label for t in sympy.Add.make_args(e) if t.free_symbols), None)
    if first is None or not isinstance(first, sympy.Mul):
        return None
    c, _ = _split_constant(first)
    _, c = c.as_coeff_Mul()  # its irrational part
    if c.is_Rational or not _constant(c) or const_sign(c) != 1:
        return None
    phis = [sympy.Add(*[t / c for t in sympy.Add.make_args(e)]) for e in s.surrogate.per_label]

    def rational_data(e: sympy.Expr) -> bool:
        return not any(_constant(a) for a in sympy.preorder_traversal(e) if isinstance(a, sympy.Expr))

    if not all(rational_data(ph) for ph in phis):
        return None
    sur = Surrogate(s.surrogate.dim, tuple(phis), tuple(s.surrogate.domain), s.surrogate.name)
    s2 = Setup(s.loss, s.L, sur, s.link, s.noise, s.name, s.progress)
    s2.scaled_by = c  # type: ignore[attr-defined] - said in every verdict's scope (:func:`_scope`)
    return c, s2


def _trivially_calibrated(s: Setup, budget: Budget, t0: float, pre: list[tuple[str, Evidence]]) -> Verdict | None:
    """Every column of the loss equal (exact Fraction comparison): every prediction is optimal at every p,
    so the set {u in C : pred(u) not optimal} is empty and its infimum is +inf, above ``inf risk_p``
    whenever that is < +inf, i.e. some u of C has every psi_y finite -- shown at one exact point of C.
    Then psi is calibrated over P whatever psi and the link are (convex or not).  None otherwise."""
    if any(s.L[y][t] != s.L[y][0] for y in range(s.n) for t in range(s.k)):
        return None
    from symcal.exact import sign

    uz = _zvars("u", s.d)
    res = _solve(_domain(s, uz), budget, uz, "a point of C")
    if res.answer != "sat":
        return None
    pt = _fractions(res.model, [f"u{i}" for i in range(1, s.d + 1)])
    if not s.in_domain(pt):
        return None
    sub = {x: sympy.Rational(v.numerator, v.denominator) for x, v in zip(s.u, pt, strict=True)}
    for e in s.surrogate.per_label:
        val = e.xreplace(sub)
        if val.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I) or sign(val).value is None:
            return None
    cols = ", ".join(f"({', '.join(fraction_str(s.L[y][t]) for y in range(s.n))})" for t in range(min(s.k, 3)))
    pre.append(("every prediction optimal at every p", Precondition(
        "all loss columns equal", True,
        f"the {s.k} columns of the loss are equal (exact): {cols}{', ...' if s.k > 3 else ''}; so "
        "argmin_t <p, L_t> is every prediction for every p, the set of u with a non-optimal prediction is empty "
        f"(infimum +inf), and risk_p is finite at u = ({', '.join(map(fraction_str, pt))}) in C (every psi_y "
        "evaluated exactly there): the inequality of the definition holds for every p, for any surrogate and link")))
    return _verdict(s, Status.PROVED, _scope(s, "trivial: every prediction is optimal at every p"), t0,
                    Composite(tuple(pre), note="calibration holds trivially: every column of the loss is equal"))


def _refuted(s: Setup, method: str, t0: float, label: str, extra: list[tuple[str, Evidence]],
             values: dict[str, Any], cert: dict[str, Any], detail: str) -> Verdict:
    """The refuted verdict of a witness that passed its exact re-check (A and B alike)."""
    if extra:
        cert["regions missing the interior (z3 unsat)"] = [lab for lab, _ in extra]
    cert["found by"] = f"z3 on the query of {label}, re-checked in exact arithmetic"
    if getattr(s, "scaled_by", None) is not None:
        cert["positive constant factor"] = (f"psi = {sympy.sstr(s.scaled_by)} * phi with {sympy.sstr(s.scaled_by)} > 0: "
                                            "decided and re-checked on phi (the same minimisers)")
    w = CalibrationWitness(values, True, detail, found_by="z3 + exact re-check", certificate=cert)
    return _verdict(s, Status.REFUTED, _scope(s, method), t0, w)


def _proved_or_unknown(s: Setup, method: str, t0: float, parts: list[tuple[str, Evidence]], unknowns: list[str],
                       n_pairs: int) -> Verdict:
    """Proved when every pair query was unsat; unknown (with the partial evidence) otherwise."""
    if unknowns:
        return _verdict(s, Status.UNKNOWN, _scope(s, method), t0, Composite(tuple(parts), note="partial"),
                        reason="; ".join(unknowns[:5]) + (f" (+{len(unknowns) - 5} more)" if len(unknowns) > 5 else ""))
    return _verdict(s, Status.PROVED, _scope(s, method), t0,
                    Composite(tuple(parts), note=f"{n_pairs} pair queries unsat, preconditions checked"))


PairAnswer = tuple[str, Any]  # ("proved", evidence), ("verdict", verdict), ("unknown" or "blocked", reason)


def _query_pairs(s: Setup, method: str, t0: float, parts: list[tuple[str, Evidence]], budget: Budget,
                 answer: Callable[[int, int | None, str, int, int], PairAnswer], first_unknown: str = "") -> Verdict:
    """The per-pair query loop of every method ((A), (B), (S)): for each query (t', t'') of :func:`_pairs`,
    progress reported and the budget checked first, ``answer(t', t'', label, i, total)`` says
    ``("proved", evidence)`` (appended to ``parts``, which holds the preconditions on entry),
    ``("verdict", verdict)`` (returned at once: a refutation, or an unknown that ends the decision),
    ``("unknown", reason)``, or ``("blocked", reason)``: unknown, and the other queries of t' are
    skipped (its cell has no interior point).  Proved when every query was proved, else unknown with
    ``first_unknown`` (if any) as the first reason."""
    n_pre = len(parts)
    unknowns: list[str] = []
    blocked: set[int] = set()
    pairs = _pairs(s)
    for i, (tp, tpp) in enumerate(pairs, 1):
        _step(s, i, len(pairs), tp, tpp)
        if tp in blocked:
            continue
        if budget.expired():
            unknowns.insert(0, f"gave up after {budget.seconds:g} s ({len(parts) - n_pre} queries answered)")
            break
        label = _label(s, tp, tpp)
        kind, payload = answer(tp, tpp, label, i, len(pairs))
        if kind == "proved":
            parts.append((label, payload))
        elif kind == "verdict":
            return payload
        else:
            unknowns.append(payload)
            if kind == "blocked":
                blocked.add(tp)
    if first_unknown:
        unknowns.insert(0, first_unknown)
    return _proved_or_unknown(s, method, t0, parts, unknowns, len(parts) - n_pre)


Recheck = tuple[str, dict[str, Any], dict[str, Any]]  # (what failed, or ""; the values; the certificate)


def _suboptimal_cell(s: Setup, tp: int, values: dict[str, Any]) -> str:
    """The words of a refutation's detail on the cell its minimiser lies in: its interior when the minimiser
    u (``values['u1']``, ...) is strictly inside, checked exactly, else the closed cell (a tie of predictions)."""
    try:
        u = [Fraction(str(values[f"u{i}"])) for i in range(1, s.d + 1)]
        inside = s.in_cell(tp, u, strict=True, proper=True)
    except (KeyError, ValueError, ZeroDivisionError):
        inside = False
    where = "the interior of the cell" if inside else "the closed cell"
    return (f"{where} of {s.pname(tp)}, which is suboptimal (loss {fraction_str(values['loss of pred'])} > "
            f"{fraction_str(values['optimal loss'])})")


def _inside_preferred(out: PairAnswer, budget: Budget, inside: Callable[[], PairAnswer]) -> PairAnswer:
    """(A) and (B): a pair refuted by ``out`` is searched again by ``inside()`` (the same query with the cell's
    proper rows strict): a failure strictly inside the wrong cell is preferred to one on its boundary (a tie of
    predictions, which a reader may take for tie-breaking; issue 24, item 4).  Only after a refutation, so a
    proof costs nothing more; ``out`` stands when the second search finds nothing."""
    if out[0] != "verdict" or out[1].status is not Status.REFUTED or budget.expired():
        return out
    better = inside()
    return better if better[0] == "verdict" and better[1].status is Status.REFUTED else out


def _strictly(comment: str) -> str:
    return comment.replace("in the cell", "strictly inside the cell")


def _answer_exact(s: Setup, method: str, t0: float, budget: Budget, tp: int, label: str, cons: list[Any],
                  pz: list[Any], variables: list[Any], comment: str,
                  witness: Callable[[list[Fraction], list[Fraction]], Recheck],
                  describe: Callable[[dict[str, Any], dict[str, Any]], str]) -> PairAnswer:
    """The answer of (A) and (B) to one pair query ``cons`` (noise ``pz``, all of its ``variables``):
    unsat proves the pair; sat refutes only when ``witness(p, c)`` passes its exact re-check at one of
    the candidate p (c an interior point of the cell of t'), the refutation's detail
    ``describe(values, certificate)``; anything else is unknown."""
    res = _solve(cons, budget, variables, comment)
    if res.answer == "unsat":
        return "proved", _smt(res, "unsat")
    if res.answer == "unknown":
        return "unknown", f"{label}: {res.reason}"
    tied_cons, why = _ties_resolved(s, cons, pz, tp, budget, comment, label)
    if tied_cons is None:
        return "unknown", why
    c, extra, why = _interior_point(s, tp, budget)
    if c is None:
        return "blocked", f"{label}: sat, but {why}"
    last = why
    for p in _p_candidates(res.model, _simplify_p(tied_cons, pz, budget), s.n):
        last, values, cert = witness(p, c)
        if not last:
            return "verdict", _refuted(s, method, t0, label, extra, values, cert, describe(values, cert))
    return "unknown", f"{label}: sat, but no exact witness passed the re-check ({last})"


def _decide_quadratic(s: Setup, q: Quadratic, pre: list[tuple[str, Evidence]], budget: Budget,
                      t0: float) -> Verdict:
    mins_txt = "; ".join(f"v_{y + 1} = ({', '.join(map(fraction_str, v))})" for y, v in enumerate(q.minimisers[:12]))
    pre.append(("(A) quadratic, strongly convex on C", Precondition(
        "(A) quadratic", True,
        f"every psi_y has degree <= 2 and the same quadratic part u^T H u; Z^T H Z positive definite "
        f"(leading minors {', '.join(map(fraction_str, q.minors)) or 'none: C is a point'}); unique minimiser "
        f"u*(p) = sum_y p_y v_y with {mins_txt}")))
    method = ("(A) quadratic: u*(p) affine in p, strongly convex risk; one z3 query per pair (t', t'') "
              f"(per cell t' with the disjunction over t'' when k > {PAIR_LIMIT}): "
              "p in P, u*(p) in cell_t', <p, L_t' - L_t''> > 0")

    def answer(tp: int, tpp: int | None, label: str, i: int, total: int) -> PairAnswer:
        def describe(values: dict[str, Any], cert: dict[str, Any]) -> str:
            return (f"at p the unique minimiser u* of risk_p lies in {_suboptimal_cell(s, tp, values)}; "
                    f"u* + eps (c - u*) has pred = {s.pname(tp)} for eps in (0, 1] and risk gap "
                    f"{cert['risk_p(u + eps (c - u)) - min risk_p']} -> 0")

        cons, pz = _pair_constraints_quadratic(s, q, tp, tpp)
        comment = (f"calibration (A): is there p in P with u*(p) in the cell of {s.pname(tp)} while "
                   f"{s.pname(tp)} is worse than {s.pname(tpp) if tpp is not None else 'another prediction'}? "
                   f"unsat = no")
        out = _answer_exact(s, method, t0, budget, tp, label, cons, pz, pz, comment,
                            lambda p, c: verify_quadratic(s, q, p, tp, c), describe)

        def inside() -> PairAnswer:
            cons2, pz2 = _pair_constraints_quadratic(s, q, tp, tpp, strict=True)
            return _answer_exact(s, method, t0, budget, tp, label, cons2, pz2, pz2, _strictly(comment),
                                 lambda p, c: verify_quadratic(s, q, p, tp, c), describe)

        return _inside_preferred(out, budget, inside)

    return _query_pairs(s, method, t0, list(pre), budget, answer)


def _decide_polyhedral(s: Setup, poly: Polyhedral, pre: list[tuple[str, Evidence]], budget: Budget,
                       t0: float) -> Verdict:
    method = ("(B) polyhedral: minimum attained (each psi_y bounded below); one z3 LRA query per pair (t', t'') "
              f"(per cell t' with the disjunction over t'' when k > {PAIR_LIMIT}): p in P, u a minimiser of risk_p "
              "(KKT with mu = p * lambda, complementarity as disjunctions) in "
              "cell_t', <p, L_t' - L_t''> > 0")
    bparts, why = _bounded_below(s, poly, budget)
    pre.append(("(B) polyhedral convex", Precondition(
        "(B) polyhedral", True,
        f"every psi_y = sum_T c_yT max_j(affine) + affine with c_yT >= 0; {len(poly.terms)} distinct max-terms")))
    if why:
        return _verdict(s, Status.UNKNOWN, _scope(s, method), t0, Composite(tuple(pre + bparts), note="partial"),
                        reason=why)

    def answer(tp: int, tpp: int | None, label: str, i: int, total: int) -> PairAnswer:
        def witness(p: list[Fraction], c: list[Fraction], strict: bool = False) -> Recheck:
            v2 = _poly_vars(s, poly)
            fixed = _pair_constraints_polyhedral(s, poly, v2, tp, tpp, strict)
            fixed += [x == _q(val) for x, val in zip(v2.p, p, strict=True)]
            r2 = _solve(fixed, budget, v2.all(), "fixed p")
            if r2.answer != "sat":
                return f"no minimiser in the cell at the rounded p ({r2.answer})", {}, {}
            m = r2.model
            u = [m[str(x)] for x in v2.u]
            mu = [[m[str(x)] for x in row] for row in v2.mu]
            nu = [m[str(x)] for x in v2.nu]
            eta = [m[str(x)] for x in v2.eta]
            return verify_polyhedral(s, poly, p, u, mu, nu, eta, tp, c)

        def describe(values: dict[str, Any], cert: dict[str, Any]) -> str:
            return (f"at p, u minimises risk_p (exact subgradient certificate) and lies in "
                    f"{_suboptimal_cell(s, tp, values)}; u + eps (c - u) has pred = {s.pname(tp)} for "
                    f"eps in (0, 1] and risk -> min risk_p")

        v = _poly_vars(s, poly)
        cons = _pair_constraints_polyhedral(s, poly, v, tp, tpp)
        comment = (f"calibration (B): is there p in P and a minimiser u of risk_p in the cell of {s.pname(tp)} "
                   f"while {s.pname(tp)} is worse than "
                   f"{s.pname(tpp) if tpp is not None else 'another prediction'}? unsat = no")
        out = _answer_exact(s, method, t0, budget, tp, label, cons, v.p, v.all(), comment, witness, describe)

        def inside() -> PairAnswer:
            v3 = _poly_vars(s, poly)
            cons3 = _pair_constraints_polyhedral(s, poly, v3, tp, tpp, strict=True)
            return _answer_exact(s, method, t0, budget, tp, label, cons3, v3.p, v3.all(), _strictly(comment),
                                 lambda p, c: witness(p, c, True), describe)

        return _inside_preferred(out, budget, inside)

    return _query_pairs(s, method, t0, list(pre) + bparts, budget, answer)


# --------------------------------------------------------------------------- the registry of methods


@dataclass(frozen=True)
class Method:
    """A decision method: ``form(setup)`` checks its preconditions and returns an object of type
    ``kind`` (or a string saying which precondition fails); ``decide(setup, form, pre, budget, t0)``
    answers; ``recheck(setup, witness)`` re-checks one of its refutations (None: the built-in one).
    The first method whose preconditions hold decides; each one states what it decides in its
    module's docstring."""

    name: str
    form: Any
    kind: type
    decide: Any
    recheck: Any = None


METHODS: list[Method] = [
    Method("(A) quadratic", quadratic_form, Quadratic, _decide_quadratic),
    Method("(B) polyhedral", polyhedral_form, Polyhedral, _decide_polyhedral),
]


def methods() -> list[Method]:
    """The registered methods, in the order they are tried: (A), (B), then (Q)
    (:mod:`symcal.calibration.quadratic_domain`) and (S) (:mod:`symcal.calibration.smooth`), which register
    themselves on import, in the order the package imports them (``symcal/calibration/__init__.py``: the one
    place that names the order; importing this module imports the package first)."""
    return METHODS
