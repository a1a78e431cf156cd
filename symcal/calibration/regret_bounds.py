"""Surrogate regret bounds for multiclass problems decided by method (A) or (B), exactly.

For ``p`` in P and ``u`` in C write the target regret ``N = <p, L_pred(u)> - min_t <p, L_t>`` and
the surrogate regret ``D = risk_p(u) - inf_C risk_p``.  A bound ``N <= C * D**e`` for every p and u
is what is computed here; the link's closed cells cover every tie-breaking (``u`` in ``cell_t``
may be predicted ``t``), so the bound holds whatever ``pred`` does on cell boundaries.

(B) polyhedral (Frongillo & Waggoner 2021, *Surrogate regret bounds for polyhedral losses*: a
    calibrated polyhedral surrogate has a linear bound, ``e = 1``).  For each prediction t,
    ``D >= f_t(p) - g(p)`` with ``f_t(p) = min {risk_p(u) : u in C, u in cell_t}`` and
    ``g(p) = min_C risk_p``; both minima are written exactly by their KKT conditions made linear
    (``mu_Tj = w_T(p) lambda_Tj``, complementarity as disjunctions) and the value of each is its
    dual objective ``sum mu_Tj b_Tj + sum p_y b_y - nu.b - eta.h``, linear in the variables (strong
    duality at a KKT point).  So ``sup N / D`` is a linear-fractional programme over a finite union
    of polyhedra: Dinkelbach's iteration ``rho <- N(x)/D(x)`` at ``x = argmax N - rho D`` (z3's
    exact optimisation over linear real arithmetic, over the closure of P) reaches it in finitely
    many steps; then one z3 query per t, ``p in P, N > rho D``, unsat, proves ``N <= rho D``.
(A) quadratic (``e = 1/2``): ``D = (u - u*(p))^T H (u - u*(p))`` on C.  For a row ``a.u <= b`` of
    ``cell_t`` with ``c = Z^T a != 0`` and ``delta(p) = a.u*(p) - b``, Cauchy-Schwarz in the metric
    ``G = Z^T H Z`` gives ``D >= delta^2 / kappa`` with ``kappa = c^T G^-1 c`` for every u in the
    cell; so ``sqrt(D) >= max_rows delta / sqrt(kappa_max)``.  ``rho = sup N / max(0, max delta)``
    is again linear-fractional (Dinkelbach, z3), proved by an unsat LRA query, and
    ``C = rho sqrt(kappa_max)``; the bound ``N**2 <= C**2 D`` is then re-decided by one z3 nonlinear
    query over (p, u) per t (unsat confirms it; a timeout leaves the LRA proof standing, noted).

``tight`` is claimed only for an exhibited ``(p, u)`` whose ratio, recomputed in Fractions from
the user's expressions (the minimiser certified by its multipliers or by the exact gradient), is
the constant, with ``u`` on the closed cell of a suboptimal t and an interior point of that cell
reached along a segment where ``pred = t`` (so the ratio is approached by real predictions).

The calibration function (Osokin, Bach & Lacoste-Julien 2017) ``H(eps) = inf {D : N >= eps}``:
the bound gives ``H(eps) >= eps / C`` (B) or ``eps**2 / C**2`` (A).  When the tight point
``(p*, u*)`` has a partner ``p0`` in the simplex (P the whole simplex) with ``<p0, L_t - L_t'> = 0``
and (B) ``u`` a minimiser of ``risk_p0`` / (A) ``u*(p0)`` in ``cell_t`` (found by z3, checked
exactly), the segment ``p0 -> p*`` attains it: (B) ``D <= s D*`` since ``inf risk`` is concave in p;
(A) ``D = s**2 D*``; so ``H`` equals the lower bound on ``[0, N*]``, reported with that range.
For (B), when that range stops short of the largest target regret, H is computed on the whole range
as a piecewise-linear function, each piece proved by two z3 queries (one with a universal
quantifier over linear arithmetic): :func:`_whole_calibration_function`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.backends.base import Budget
from symcal.calibration.engine import (
    F0,
    Polyhedral,
    Quadratic,
    Setup,
    _interior_point,
    _proper_rows,
    _q,
    _sequence_check,
    _simplex_and_noise,
    _smt,
    _solve,
    _zlin,
    _zvars,
    dot,
    subgradient_check,
)
from symcal.exact import fraction_str
from symcal.verdicts import Evidence

EPS = sympy.Symbol("eps", nonnegative=True)
MAX_STEPS = 40  # Dinkelbach iterations per prediction before giving up
NONLINEAR_SECONDS = 3.0  # per cell for the (A) re-decision over (p, u); the linear proof does not need it


class NotFound(Exception):
    """The bound was not established; the message says why."""


@dataclass
class Bound:
    """What :func:`polyhedral_bound` / :func:`quadratic_bound` found."""

    exponent: str
    constant: sympy.Expr
    tight: bool
    calibration_function: sympy.Expr | None = None
    calibration_range: str = ""
    evidence: list[tuple[str, Evidence]] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    attained: dict[str, Any] = field(default_factory=dict)
    n_star: Fraction = F0  # the calibration function is exact on [0, n_star]


def _best_of(b: Bound, tries: list[Bound]) -> None:
    """Merge into ``b`` the try that is tight with the widest calibration range (else the first)."""
    good = [x for x in tries if x.tight]
    pick = max(good, key=lambda x: (x.calibration_function is not None, x.n_star)) if good else tries[0]
    b.tight, b.attained, b.n_star = pick.tight, pick.attained, pick.n_star
    b.calibration_function, b.calibration_range = pick.calibration_function, pick.calibration_range
    b.steps += pick.steps


# --------------------------------------------------------------------------- shared


def _closure(s: Setup, pz: list[Any]) -> list[Any]:
    """The simplex and the noise relations with strict inequalities made non-strict (a superset of
    the closure of P: the supremum over it bounds the one over P)."""
    from symcal.backends.translate import Translator

    def loosen(e: Any) -> Any:
        e = e.replace(lambda x: isinstance(x, sympy.StrictGreaterThan), lambda x: sympy.Ge(*x.args))
        e = e.replace(lambda x: isinstance(x, sympy.StrictLessThan), lambda x: sympy.Le(*x.args))
        return e.replace(lambda x: isinstance(x, sympy.Unequality), lambda x: sympy.true)

    import z3

    cons = [x >= 0 for x in pz] + [z3.Sum(pz) == 1 if len(pz) > 1 else pz[0] == 1]
    tr = Translator()
    for rel in s.noise:
        r = loosen(rel)
        if r is not sympy.true:
            cons.append(tr(r))
    return cons


def _frac(v: Any) -> Fraction:
    import z3

    if z3.is_int_value(v):
        return Fraction(v.as_long())
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    raise NotFound(f"z3's optimum is not a rational number ({v})")


def _maximise(cons: list[Any], objective: Any, budget: Budget, what: str) -> tuple[Fraction, Any] | None:
    """max objective over cons with z3's exact optimisation (LRA): (value, model), None when infeasible."""
    import z3

    from symcal.backends.z3_backend import cpu_watchdog

    if budget.expired():
        raise NotFound(f"gave up after {budget.seconds:g} s ({what})")
    opt = z3.Optimize()
    opt.set("timeout", budget.wall_ms())
    opt.add(*cons)
    h = opt.maximize(objective)
    with cpu_watchdog(budget, opt.ctx):
        r = opt.check()
    if r == z3.unsat:
        return None
    if r != z3.sat:
        raise NotFound(f"z3's optimisation gave no answer ({what}: {opt.reason_unknown()})")
    val = h.value()
    if not (z3.is_int_value(val) or z3.is_rational_value(val)):
        raise NotFound(f"the supremum is not attained or unbounded ({what}: z3 says {val})")
    return _frac(val), opt.model()


def _dinkelbach(cons: list[Any], N: Any, D: Any, budget: Budget, what: str, pz: list[Any] | None = None,
                ) -> tuple[Fraction, Any] | None:
    """sup N/D over the feasible points with N > 0 (D >= 0 there): Dinkelbach's iteration with exact
    optimisation; (rho, a model with N/D = rho), or None when N <= 0 everywhere."""
    rho = F0
    best = None
    for _ in range(MAX_STEPS):
        got = _maximise(cons, N - _q(rho) * D, budget, what)
        if got is None:
            return None
        val, m = got
        if val <= 0:
            return (rho, best) if best is not None else None
        n, d = _frac(m.eval(N, model_completion=True)), _frac(m.eval(D, model_completion=True))
        if d <= 0:
            at = "" if pz is None else " p = (" + ", ".join(fraction_str(_frac(m.eval(x, True))) for x in pz) + ")"
            raise NotFound(f"{what}: at{at or ' a point'} (P's relations made non-strict) the target regret is "
                           f"{fraction_str(n)} > 0 with surrogate regret {fraction_str(d)}: the ratio is unbounded "
                           "near it, so no bound N <= C D**e holds on P if P comes arbitrarily close to it")
        rho, best = n / d, m
    raise NotFound(f"{what}: the ratio did not settle in {MAX_STEPS} steps (last {fraction_str(rho)})")


def _min_var(s: Setup, pz: list[Any], t: int, tag: str) -> tuple[Any, list[Any]]:
    """A variable m equal to min_t' <p, L_t'> (below every column, equal to one)."""
    import z3

    m = z3.Real(f"minloss_{tag}")
    cols = [_zlin([s.L[y][tt] for y in range(s.n)], pz) for tt in range(s.k)]
    return m, [m <= c for c in cols] + [z3.Or(*[m == c for c in cols])]


def _target(s: Setup, pz: list[Any], t: int, m: Any) -> Any:
    return _zlin([s.L[y][t] for y in range(s.n)], pz) - m


def _regret_exact(s: Setup, p: list[Fraction], t: int) -> tuple[Fraction, int]:
    ls = s.losses(p)
    best = min(ls)
    return ls[t] - best, ls.index(best)


def _predictable(s: Setup, t: int, p: list[Fraction], u: list[Fraction], budget: Budget) -> tuple[list | None, str]:
    """An interior point c of cell_t with pred = t on the segment from u to c (exact), or (None, why)."""
    why = _tie(s, t)
    if why:
        return None, why
    c, _extra, why = _interior_point(s, t, budget)
    if c is None:
        return None, why
    why = _sequence_check(s, p, u, c, t)
    return (c, "") if not why else (None, why)


def _attained(s: Setup, b: Bound, t: int, p: list[Fraction], u: list[Fraction], n_ex: Fraction, d_ex: Fraction,
              minimiser: list[Fraction], c: list[Fraction], how: str) -> None:
    """Record that ``b`` is tight at ``(p, u)``, u in the cell of ``t``: the point, its exact target
    and surrogate regrets, the minimiser of risk_p and the interior point ``c``, and the step saying
    so, ``how`` following the target regret."""
    b.tight = True
    b.attained = {"p": [fraction_str(x) for x in p], "u": [fraction_str(x) for x in u], "pred": s.pname(t),
                  "target_regret": fraction_str(n_ex), "surrogate_regret": fraction_str(d_ex),
                  "minimiser": [fraction_str(x) for x in minimiser], "interior_point": [fraction_str(x) for x in c]}
    b.steps.append(f"tight: at p = ({', '.join(b.attained['p'])}), u = ({', '.join(b.attained['u'])}) in the cell of "
                   f"{s.pname(t)}: target regret {fraction_str(n_ex)}{how}")


def _tie(s: Setup, t: int) -> str:
    """Why the link's own prediction on the interior of cell_t may not be t ('' when it is, up to
    predictions with the same loss column)."""
    other = [x for x in s.link.tied(t) if any(s.L[y][x] != s.L[y][t] for y in range(s.n))]
    if other:
        return (f"the link ties {s.pname(t)} with {', '.join(s.pname(x) for x in other)} on its whole cell: which "
                "one it predicts there is its tie-breaking")
    return ""


def _verify_unsat(cons: list[Any], variables: list[Any], budget: Budget, label: str, comment: str,
                  ) -> tuple[str, Evidence]:
    res = _solve(cons, budget, variables, comment)
    if res.answer != "unsat":
        raise NotFound(f"{label}: the bound's query is {res.answer} ({res.reason or 'a counterexample'})")
    return label, _smt(res, "unsat")


# --------------------------------------------------------------------------- (B) polyhedral


@dataclass
class _Kkt:
    u: list[Any]
    mu: list[list[Any]]
    nu: list[Any]
    eta: list[Any]
    cons: list[Any]
    value: Any  # the minimum, as the (linear) dual objective


def _kkt(s: Setup, poly: Polyhedral, pz: list[Any], extra: tuple, tag: str) -> _Kkt:
    """u minimises risk_p over C and the rows ``extra`` (a.u <= b): KKT with mu_Tj = w_T(p) lambda_Tj."""
    import z3

    u = _zvars(f"u{tag}_", s.d)
    les = list(s.les) + list(extra)
    mu = [[z3.Real(f"mu{tag}_{T + 1}_{j + 1}") for j in range(len(pc))] for T, pc in enumerate(poly.terms)]
    nu = _zvars(f"nu{tag}_", len(s.eqs))
    eta = _zvars(f"eta{tag}_", len(les))
    cons = [_zlin(a, u) == _q(b) for a, b in s.eqs] + [_zlin(a, u) <= _q(b) for a, b in les]
    grad = [_q(F0)] * s.d
    value = _zlin([poly.affine[y][1] for y in range(s.n)], pz)
    for T, pieces in enumerate(poly.terms):
        cons += [x >= 0 for x in mu[T]]
        cons.append(z3.Sum(mu[T]) == _zlin(poly.weight[T], pz))
        vals = [_zlin(pa, u) + _q(pb) for pa, pb in pieces]
        for j, x in enumerate(mu[T]):
            cons.append(z3.Or(x == 0, z3.And(*[vals[j] >= vals[i] for i in range(len(pieces)) if i != j])))
        for i in range(s.d):
            grad[i] = grad[i] + _zlin([pa[i] for pa, _ in pieces], mu[T])
        value = value + _zlin([pb for _, pb in pieces], mu[T])
    for i in range(s.d):
        grad[i] = grad[i] + _zlin([poly.affine[y][0][i] for y in range(s.n)], pz)
        grad[i] = grad[i] + _zlin([a[i] for a, _ in s.eqs], nu) + _zlin([a[i] for a, _ in les], eta)
    for e, (a, b) in zip(eta, les, strict=True):
        cons += [e >= 0, z3.Or(e == 0, _zlin(a, u) == _q(b))]
    cons += [g == 0 for g in grad]
    value = value - _zlin([b for _, b in s.eqs], nu) - _zlin([b for _, b in les], eta)
    return _Kkt(u, mu, nu, eta, cons, value)


def _certified_minimiser(s: Setup, poly: Polyhedral, p: list[Fraction], k: _Kkt, m: Any) -> tuple[list, str]:
    """u of the model and whether its multipliers certify it minimises risk_p over C (exact)."""
    val = [_frac(m.eval(x, model_completion=True)) for x in k.u]
    mu = [[_frac(m.eval(x, model_completion=True)) for x in row] for row in k.mu]
    nu = [_frac(m.eval(x, model_completion=True)) for x in k.nu]
    eta = [_frac(m.eval(x, model_completion=True)) for x in k.eta[:len(s.les)]]
    if any(e for e in (_frac(m.eval(x, model_completion=True)) for x in k.eta[len(s.les):])):
        return val, "not a minimiser over C (a cell multiplier is non-zero)"
    return val, subgradient_check(s, poly, p, val, mu, nu, eta)


def polyhedral_bound(s: Setup, poly: Polyhedral, budget: Budget) -> Bound:
    """The smallest C with N <= C D over P (method (B)), proved by z3 unsat; raises NotFound."""
    best: tuple[Fraction, int] | None = None
    rhos: dict[int, Fraction] = {}
    per_t: dict[int, tuple[list[Any], Any, Any, list[Any], _Kkt, _Kkt]] = {}
    steps = []
    for t in range(s.k):
        if not any(s.L[y][t] != s.L[y][tt] for tt in range(s.k) for y in range(s.n)):
            continue
        pz = _zvars("p", s.n)
        k1 = _kkt(s, poly, pz, s.link.cells[t], "c")
        k2 = _kkt(s, poly, pz, (), "g")
        m, mcons = _min_var(s, pz, t, "b")
        N, D = _target(s, pz, t, m), k1.value - k2.value
        base = k1.cons + k2.cons + mcons
        per_t[t] = (pz, N, D, base, k1, k2)
        got = _dinkelbach(_closure(s, pz) + base, N, D, budget, f"the cell of {s.pname(t)}", pz)
        if got is None:
            steps.append(f"cell of {s.pname(t)}: never suboptimal where it can be predicted")
            continue
        rho = rhos[t] = got[0]
        steps.append(f"cell of {s.pname(t)}: sup N / D = {fraction_str(rho)} (Dinkelbach, z3 exact optimisation)")
        if best is None or rho > best[0]:
            best = (rho, t)
    if best is None:
        raise NotFound("the target regret is 0 wherever the surrogate can lead: nothing to bound")
    rho, t_star = best
    evidence = []
    for t, (pz, N, D, base, _k1, _k2) in per_t.items():
        cons = _simplex_and_noise(s, pz) + base + [N > _q(rho) * D]
        evidence.append(_verify_unsat(cons, pz, budget, f"N <= {fraction_str(rho)} D on the cell of {s.pname(t)}",
                                      f"regret bound (B): p in P, u1 minimises risk_p on the cell of {s.pname(t)}, "
                                      f"u2 on C, target regret > {fraction_str(rho)} (risk_p(u1) - risk_p(u2))? "
                                      "unsat = the bound holds"))
    steps.append(f"N <= {fraction_str(rho)} D proved for every cell (z3 LRA, unsat)")
    b = Bound("1", sympy.Rational(rho.numerator, rho.denominator), False, evidence=evidence, steps=steps)
    tries = []
    for t in (t for t in per_t if rhos.get(t) == rho):
        tries.append(Bound("1", b.constant, False))
        _tight_polyhedral(s, poly, tries[-1], rho, t, *per_t[t], budget)
    _best_of(b, tries)
    if b.calibration_function is not None and "not computed beyond" in b.calibration_range:
        _whole_calibration_function(s, b, per_t, budget)
    lo = sympy.Rational(rho.denominator, rho.numerator) * EPS
    if b.calibration_function is None:
        b.steps.append(f"calibration function: H(eps) >= {sympy.sstr(lo)} (from the bound); equality not shown")
    return b


def _tight_polyhedral(s: Setup, poly: Polyhedral, b: Bound, rho: Fraction, t: int, pz: list[Any], N: Any, D: Any,
                      base: list[Any], k1: _Kkt, k2: _Kkt, budget: Budget) -> None:
    """Exhibit (p, u) with N / D = rho exactly (the largest N among them), then the calibration function."""
    got = _maximise(_closure(s, pz) + base + [N >= _q(rho) * D, N >= 0], N, budget, "the largest regret at ratio rho")
    if got is None:
        b.steps.append("not tight: no point at the ratio found again")
        return
    _, m = got
    p = [_frac(m.eval(x, model_completion=True)) for x in pz]
    u1 = [_frac(m.eval(x, model_completion=True)) for x in k1.u]
    u2, why = _certified_minimiser(s, poly, p, k2, m)
    n_ex, t_opt = _regret_exact(s, p, t)
    if not why and not (sum(p) == 1 and all(x >= 0 for x in p) and s.noise_holds(p)):
        why = "the point is on the boundary of P, not in it"
    if not why and not (s.in_domain(u1) and s.in_cell(t, u1)):
        why = "u is not in the closed cell"
    d_ex = s.risk(p, u1) - s.risk(p, u2) if not why else F0
    if not why and not (d_ex > 0 and n_ex == rho * d_ex):
        why = f"the exact ratio is {fraction_str(n_ex)} / {fraction_str(d_ex)}"
    c = None
    if not why:
        c, why = _predictable(s, t, p, u1, budget)
    if why:
        b.steps.append(f"not shown tight ({why})")
        return
    _attained(s, b, t, p, u1, n_ex, d_ex, u2, c,
              f" = {fraction_str(rho)} x surrogate regret {fraction_str(d_ex)} (exact; min risk_p certified by "
              f"multipliers; pred = {s.pname(t)} on the segment to an interior point)")
    if s.noise:
        return
    # the calibration function on [0, N*]: p0 with <p0, L_t - L_t'> = 0 and u1 minimising risk_p0
    p0 = _zvars("q", s.n)
    k0 = _kkt(s, poly, p0, (), "z")
    cons = _closure(s, p0) + k0.cons + [x == _q(v) for x, v in zip(k0.u, u1, strict=True)]
    cons.append(_zlin([s.L[y][t] - s.L[y][t_opt] for y in range(s.n)], p0) == 0)
    res = _solve(cons, budget, p0 + k0.u + [x for r in k0.mu for x in r] + k0.nu + k0.eta, "partner p0")
    if res.answer != "sat":
        b.steps.append(f"calibration function: no partner p0 ({res.answer})")
        return
    q0 = [res.model[str(x)] for x in p0]
    mu = [[res.model[str(x)] for x in r] for r in k0.mu]
    why = subgradient_check(s, poly, q0, u1, mu, [res.model[str(x)] for x in k0.nu],
                            [res.model[str(x)] for x in k0.eta])
    ls = s.losses(q0)
    if why or sum(q0) != 1 or any(x < 0 for x in q0) or ls[t] != ls[t_opt]:
        b.steps.append(f"calibration function: the partner p0 failed the exact check ({why or 'p0'})")
        return
    _calibration(b, s, t, sympy.Rational(rho.denominator, rho.numerator) * EPS, n_ex, q0, p, budget)


def _calibration(b: Bound, s: Setup, t: int, expr: sympy.Expr, n_star: Fraction, q0: list[Fraction],
                 p: list[Fraction], budget: Budget) -> None:
    top = _max_regret(s, budget)
    b.calibration_function, b.n_star = expr, n_star
    b.calibration_range = (f"0 <= eps <= {fraction_str(n_star)}" + ("" if top is not None and top <= n_star else
                           f" (the largest target regret is {fraction_str(top) if top is not None else '?'}: "
                           "not computed beyond)"))
    b.steps.append(f"calibration function H(eps) = {sympy.sstr(expr)} for {b.calibration_range}: >= by the bound; "
                   f"<= along p0 -> p* with p0 = ({', '.join(map(fraction_str, q0))}) (t ties with the optimum at p0)")


# --------------------------------------------------------------------------- (B): H on the whole range

Line = tuple[Fraction, Fraction]  # (slope, intercept)
PIECE_EVALUATIONS = 60  # optimisations per cell before the whole-range calibration function is given up


def _whole_calibration_function(s: Setup, b: Bound, per_t: dict, budget: Budget) -> None:
    """H(eps) on [0, largest target regret], exactly, piecewise linear; left as it is when not shown.

    Per cell t, ``V_t(eps) = min {D : x feasible, N(x) >= eps}`` (x = p with the two KKT systems) is
    piecewise linear.  A candidate piece ``l`` on [a, b], through the exact values at a and b (z3's
    optimisation), is accepted when two z3 queries are unsat: no feasible x and eps in [a, b] with
    N >= eps and D < l(eps) (so V_t >= l), and no eps in [a, b] with every feasible x having N < eps or
    D > l(eps) (quantified linear arithmetic, decidable: so V_t <= l).  Otherwise [a, b] is split where
    the lines through the values next to its ends cross (or at its middle).  H = min_t V_t; every cell
    has interior points, so the closed cells give the same infimum as the link's own cells."""
    t0_budget = budget.left()
    evidence: list[tuple[str, Evidence]] = []
    try:
        lines: dict[int, list[tuple[Fraction, Fraction, Line]]] = {}
        top = F0
        for t, (pz, N, D, base, _k1, _k2) in per_t.items():
            c, _extra, why = _interior_point(s, t, budget) if not _tie(s, t) else (None, [], _tie(s, t))
            if c is None:
                b.steps.append(f"calibration function beyond the bound's range: not computed ({why})")
                return
            feas = _closure(s, pz) + base
            got = _maximise(feas, N, budget, "the largest target regret in a cell")
            if got is None or got[0] <= 0:
                continue
            top = max(top, got[0])
            pcs = _pieces_of_value(feas, N, D, got[0], budget, evidence)
            if pcs is None:
                b.steps.append(f"calibration function beyond the bound's range: the pieces on the cell of "
                               f"{s.pname(t)} were not all shown (after {PIECE_EVALUATIONS} optimisations)")
                return
            lines[t] = pcs
    except NotFound as exc:
        b.steps.append(f"calibration function beyond the bound's range: not computed ({exc})")
        return
    merged = _lower_envelope(list(lines.values()), top)
    expr = sympy.Piecewise(*[(sl * EPS + ic, EPS <= hi) for _lo, hi, (sl, ic) in merged[:-1]],
                           (merged[-1][2][0] * EPS + merged[-1][2][1], True))
    b.calibration_function = sympy.piecewise_fold(expr)
    b.calibration_range = f"0 <= eps <= {fraction_str(top)}"
    b.evidence += evidence
    b.steps.append(f"calibration function on the whole range: H(eps) = {sympy.sstr(b.calibration_function)} for "
                   f"{b.calibration_range} (per cell: each linear piece proved below by an unsat LRA query and above "
                   f"by an unsat quantified LRA query; {t0_budget - budget.left():.1f} s)")


def _pieces_of_value(feas: list[Any], N: Any, D: Any, top: Fraction, budget: Budget,
                     evidence: list[tuple[str, Evidence]]) -> list[tuple[Fraction, Fraction, Line]] | None:
    import z3

    calls = [0]
    xs = z3.z3util.get_vars(z3.And(*feas))
    e = z3.Real("eps_")

    def value(eps: Fraction) -> tuple[Fraction, Any] | None:
        calls[0] += 1
        got = _maximise(feas + [N >= _q(eps)], -D, budget, "the calibration function")
        return None if got is None else (-got[0], got[1])

    def segment(a: Fraction, va: Fraction, bb: Fraction, vb: Fraction) -> bool:
        line = _q(va) + _q((vb - va) / (bb - a)) * (e - _q(a))
        below = _solve(feas + [e >= _q(a), e <= _q(bb), N >= e, D < line], budget, [e],
                       "calibration function: is it below the line somewhere on [a, b]? (unsat = no)")
        if below.answer != "unsat":
            return False
        above = _solve([e >= _q(a), e <= _q(bb), z3.ForAll(xs, z3.Not(z3.And(*feas, N >= e, D <= line)))], budget,
                       [e], "calibration function: is it above the line somewhere on [a, b]? (unsat = no)")
        if above.answer != "unsat":
            return False
        evidence.append((f"H on [{fraction_str(a)}, {fraction_str(bb)}] >= the line", _smt(below, "unsat")))
        evidence.append((f"H on [{fraction_str(a)}, {fraction_str(bb)}] <= the line (quantified LRA)",
                         _smt(above, "unsat")))
        return True

    ends = {F0: value(F0), top: value(top)}
    if any(v is None for v in ends.values()):
        return None
    todo = [(F0, top)]
    out = []
    while todo:
        if calls[0] > PIECE_EVALUATIONS:
            return None
        a, bb = todo.pop()
        va, vb = ends[a][0], ends[bb][0]
        if segment(a, va, bb, vb):
            out.append((a, bb, ((vb - va) / (bb - a), va - a * (vb - va) / (bb - a))))
            continue
        d = (bb - a) / 64
        near_a, near_b = value(a + d), value(bb - d)
        c = (a + bb) / 2
        if near_a is not None and near_b is not None:
            sa, sb = (near_a[0] - va) / d, (vb - near_b[0]) / d
            if sa != sb:
                x = (vb - va - sb * bb + sa * a) / (sa - sb)  # va + sa (x - a) = vb + sb (x - b)
                if a < x < bb:
                    c = x
        got = value(c)
        if got is None:
            return None
        ends[c] = got
        todo += [(a, c), (c, bb)]
    return sorted(out)


def _lower_envelope(per_cell: list[list[tuple[Fraction, Fraction, Line]]], top: Fraction,
                    ) -> list[tuple[Fraction, Fraction, Line]]:
    """min over cells of piecewise-linear functions on [0, top] (a cell's function is +inf beyond its pieces)."""
    cuts = sorted({F0, top} | {x for pcs in per_cell for lo, hi, _ in pcs for x in (lo, hi)})
    out: list[tuple[Fraction, Fraction, Line]] = []
    for lo, hi in zip(cuts, cuts[1:], strict=False):
        here = [ln for pcs in per_cell for a, bb, ln in pcs if a <= lo and hi <= bb]
        pts = {lo, hi}
        for i, (s1, c1) in enumerate(here):
            for s2, c2 in here[i + 1:]:
                if s1 != s2 and lo < (c2 - c1) / (s1 - s2) < hi:
                    pts.add((c2 - c1) / (s1 - s2))
        xs = sorted(pts)
        for x0, x1 in zip(xs, xs[1:], strict=False):
            mid = (x0 + x1) / 2
            ln = min(here, key=lambda q: q[0] * mid + q[1])
            if out and out[-1][2] == ln and out[-1][1] == x0:
                out[-1] = (out[-1][0], x1, ln)
            else:
                out.append((x0, x1, ln))
    return out


def _max_regret(s: Setup, budget: Budget) -> Fraction | None:
    top = F0
    for t in range(s.k):
        pz = _zvars("p", s.n)
        m, mcons = _min_var(s, pz, t, "r")
        try:
            got = _maximise(_closure(s, pz) + mcons, _target(s, pz, t, m), budget, "the largest target regret")
        except NotFound:
            return None
        if got is not None:
            top = max(top, got[0])
    return top


# --------------------------------------------------------------------------- (A) quadratic


def _matrix(rows: list[list[Fraction]]) -> sympy.Matrix:
    return sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in r] for r in rows])


def _fr(x: sympy.Expr) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def quadratic_bound(s: Setup, q: Quadratic, budget: Budget) -> Bound:
    """C with N <= C sqrt(D) over P (method (A)); raises NotFound."""
    import z3

    r = len(q.Z[0]) if q.Z and q.Z[0] else 0
    if r == 0:
        raise NotFound("C is a single point: the surrogate regret is always 0")
    Zm = _matrix(q.Z)
    G = Zm.T * _matrix(q.H) * Zm
    Ginv = G.inv()
    best = None  # (K = rho^2 kappa, t)
    Ks: dict[int, Fraction] = {}
    per_t = {}
    steps = []
    for t in range(s.k):
        if not any(s.L[y][t] != s.L[y][tt] for tt in range(s.k) for y in range(s.n)):
            continue
        rows = []
        empty = False
        for a, bb in _proper_rows(s, t):
            c = Zm.T * sympy.Matrix([sympy.Rational(x.numerator, x.denominator) for x in a])
            if all(x == 0 for x in c):
                if dot(a, q.u0) > bb:
                    empty = True
                continue
            rows.append((a, bb, _fr((c.T * Ginv * c)[0, 0])))
        if empty or not rows:
            steps.append(f"cell of {s.pname(t)}: {'empty on C' if empty else 'the whole of C'}")
            continue
        kappa = max(k for _, _, k in rows)
        pz = _zvars("p", s.n)
        ustar = [sum((_q(v[i]) * pz[y] for y, v in enumerate(q.minimisers) if v[i] != 0), _q(F0)) for i in range(s.d)]
        M = z3.Real("M")
        m, mcons = _min_var(s, pz, t, "a")
        N = _target(s, pz, t, m)
        base = mcons + [M >= 0] + [M >= _zlin(a, ustar) - _q(bb) for a, bb, _ in rows]
        per_t[t] = (pz, N, M, base, ustar, kappa, rows, mcons)
        got = _dinkelbach(_closure(s, pz) + base, N, M, budget, f"the cell of {s.pname(t)}", pz)
        if got is None:
            steps.append(f"cell of {s.pname(t)}: never suboptimal where it can be predicted")
            continue
        rho = got[0]
        K = Ks[t] = rho * rho * kappa
        steps.append(f"cell of {s.pname(t)}: sup N / max(0, a.u*(p) - b) = {fraction_str(rho)}, "
                     f"kappa_max = {fraction_str(kappa)}, so C^2 <= {fraction_str(K)}")
        if best is None or K > best[0]:
            best = (K, t)
    if best is None:
        raise NotFound("the target regret is 0 wherever the surrogate can lead: nothing to bound")
    K = best[0]
    evidence: list[tuple[str, Evidence]] = []
    for t, (pz, N, M, base, _ustar, kappa, _rows, _mcons) in per_t.items():
        rho_t = _ratio_for(K, kappa)
        if rho_t is not None:
            cons = _simplex_and_noise(s, pz) + base + [N > _q(rho_t) * M]
            label = f"N <= {fraction_str(rho_t)} max(0, a.u* - b) on the cell of {s.pname(t)}"
        else:  # K / kappa is not a rational square: the nonlinear form N^2 <= (K / kappa) M^2, N >= 0
            cons = _simplex_and_noise(s, pz) + base + [N > 0, N * N > _q(K / kappa) * M * M]
            label = f"N^2 <= {fraction_str(K / kappa)} max(0, a.u* - b)^2 on the cell of {s.pname(t)}"
        evidence.append(_verify_unsat(cons, pz, budget, label,
                                      f"regret bound (A), cell of {s.pname(t)}: p in P with target regret above the "
                                      "bound by the distance of u*(p) to the cell's rows? unsat = no"))
    steps.append("D >= (a.u*(p) - b)^2 / kappa for every u of the cell and every row a.u <= b (Cauchy-Schwarz in "
                 "the metric G = Z^T H Z, kappa = (Z^T a)^T G^-1 (Z^T a), exact), so N <= C sqrt(D)")
    C = sympy.sqrt(sympy.Rational(K.numerator, K.denominator))
    b = Bound("1/2", C, False, evidence=evidence, steps=steps)
    _confirm_quadratic(s, q, b, K, per_t, budget)
    tries = []
    for t in (t for t in per_t if Ks.get(t) == K):
        tries.append(Bound("1/2", C, False))
        _tight_quadratic(s, q, tries[-1], K, t, per_t[t], Zm, Ginv, budget)
    _best_of(b, tries)
    if b.calibration_function is None:
        b.steps.append(f"calibration function: H(eps) >= eps**2 / {fraction_str(K)} (from the bound); equality "
                       "not shown")
    return b


def _ratio_for(K: Fraction, kappa: Fraction) -> Fraction | None:
    """sqrt(K / kappa) when it is rational."""
    x = K / kappa
    import math

    a, c = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return Fraction(a, c) if a * a == x.numerator and c * c == x.denominator else None


def _confirm_quadratic(s: Setup, q: Quadratic, b: Bound, K: Fraction, per_t: dict, budget: Budget) -> None:
    """Re-decide N^2 <= K D over (p, u) by one z3 nonlinear query per cell (independent of the rows lemma)."""
    for t, (pz, N, _M, _base, ustar, _kappa, _rows, mcons) in per_t.items():
        uz = _zvars("u", s.d)
        diff = [uz[i] - ustar[i] for i in range(s.d)]
        D = sum((_q(q.H[i][j]) * diff[i] * diff[j] for i in range(s.d) for j in range(s.d) if q.H[i][j]), _q(F0))
        cons = _simplex_and_noise(s, pz) + mcons
        cons += [_zlin(a, uz) == _q(bb) for a, bb in s.eqs] + [_zlin(a, uz) <= _q(bb) for a, bb in s.link.cells[t]]
        cons += [N > 0, N * N > _q(K) * D]
        res = _solve(cons, budget.share(min(NONLINEAR_SECONDS, budget.left() / 4), floor=0.5), pz + uz,
                     f"regret bound (A), cell of {s.pname(t)}: p in P, u in the cell, target regret^2 > "
                     f"{fraction_str(K)} (u - u*(p))^T H (u - u*(p))? unsat = the bound holds")
        if res.answer == "sat":
            raise NotFound(f"the nonlinear re-check found a counterexample on the cell of {s.pname(t)} (internal)")
        if res.answer == "unsat":
            b.evidence.append((f"N^2 <= {fraction_str(K)} D on the cell of {s.pname(t)} (nonlinear, over p and u)",
                               _smt(res, "unsat")))
        else:
            b.steps.append(f"the nonlinear re-check on the cell of {s.pname(t)} gave no answer ({res.reason}); the "
                           "linear proof stands")
    if all(lab.startswith("N^2 <=") for lab, _ in b.evidence[len(per_t):]) and len(b.evidence) == 2 * len(per_t):
        b.steps.append("re-decided directly: z3's nonlinear query over (p, u) is unsat for every cell")


def _tight_quadratic(s: Setup, q: Quadratic, b: Bound, K: Fraction, t: int, data: tuple, Zm: sympy.Matrix,
                     Ginv: sympy.Matrix, budget: Budget) -> None:
    """Exhibit (p, u) with N^2 = K D: the projection of u*(p) onto the row that attains the bound."""
    pz, N, M, base, ustar, kappa, rows, _mcons = data  # ustar: u*(p) as z3 terms in pz
    rho = _ratio_for(K, kappa)
    if rho is None:
        b.steps.append("not shown tight (the constant is not attained by a single row)")
        return
    got = _maximise(_closure(s, pz) + base + [N >= _q(rho) * M], N, budget, "the largest regret at the ratio")
    if got is None:
        b.steps.append("not shown tight: no point at the ratio found again")
        return
    proj = _Projection(s, q, t, rows, kappa, Zm, Ginv)
    p = [_frac(got[1].eval(x, model_completion=True)) for x in pz]
    cand, why = proj.candidate(p)
    if cand is None and not why:
        # the point with the largest regret has two binding rows (u*(p) beyond a corner of the cell, where the
        # nearest point of the cell is not a single row's projection): look again with one row binding and its
        # projection, affine in p, inside the cell (squared loss with argmin: p = e_1 vs p = (1/2, 1/2, 0))
        p, cand, why = _one_row_binding(proj, data, rho, budget, p)
    if cand is None:
        b.steps.append(f"not shown tight ({why or 'the projection of u*(p) onto the binding row leaves the cell'})")
        return
    n_ex, t_opt = _regret_exact(s, p, t)
    us = q.u_star(p)
    d_ex = s.risk(p, cand) - s.risk(p, us)
    if not (d_ex > 0 and n_ex * n_ex == K * d_ex):
        b.steps.append(f"not shown tight (exact ratio N^2 / D = {fraction_str(n_ex * n_ex / d_ex) if d_ex else 'inf'})")
        return
    c, why = _predictable(s, t, p, cand, budget)
    if c is None:
        b.steps.append(f"not shown tight ({why})")
        return
    _attained(s, b, t, p, cand, n_ex, d_ex, us, c,
              f", surrogate regret {fraction_str(d_ex)} (exact, from the expressions), N^2 = {fraction_str(K)} D")
    if s.noise:
        return
    _quadratic_partner(s, q, b, K, t, t_opt, n_ex, p, budget)


@dataclass(frozen=True)
class _Projection:
    """Projections of u*(p) onto the rows ``a.u <= b`` of the cell of ``t`` with ``kappa`` the largest, in the
    metric ``G = Z^T H Z`` (``Ginv`` its exact inverse)."""

    s: Setup
    q: Quadratic
    t: int
    rows: list[tuple[Any, Fraction, Fraction]]
    kappa: Fraction
    Zm: sympy.Matrix
    Ginv: sympy.Matrix

    def shift(self, a: Any, k: Fraction) -> sympy.Matrix:
        """The step from u*(p) to its projection onto the row a.u = b, per unit of a.u*(p) - b."""
        c = self.Zm.T * sympy.Matrix([sympy.Rational(x.numerator, x.denominator) for x in a])
        return -(self.Zm * (self.Ginv * c)) / sympy.Rational(k.numerator, k.denominator)

    def candidate(self, p: list[Fraction]) -> tuple[list[Fraction] | None, str]:
        """The projection of u*(p) onto a violated row of largest kappa when it lies in the cell (and C)."""
        s = self.s
        if not (sum(p) == 1 and all(x >= 0 for x in p) and s.noise_holds(p)):
            return None, "the point is on the boundary of P, not in it"
        us = self.q.u_star(p)
        for a, bb, k in self.rows:
            delta = dot(a, us) - bb
            if k != self.kappa or delta <= 0:
                continue
            step = self.shift(a, k)
            u = [us[i] + _fr(step[i]) * delta for i in range(s.d)]
            if s.in_domain(u) and s.in_cell(self.t, u):
                return u, ""
        return None, ""


def _one_row_binding(proj: _Projection, data: tuple, rho: Fraction, budget: Budget, p: list[Fraction]
                     ) -> tuple[list[Fraction], list[Fraction] | None, str]:
    """Look again for the largest regret at the ratio with one row of largest kappa binding and the projection
    onto it inside the cell: (p, candidate or None, why not)."""
    s, t = proj.s, proj.t
    pz, N, M, base, ustar, _kappa, _rows, _mcons = data
    cand: list[Fraction] | None = None
    why = ""
    for a, bb, k in proj.rows:
        if k != proj.kappa or cand is not None:
            continue
        step = proj.shift(a, k)
        delta_z = _zlin(a, ustar) - _q(bb)
        projected = [ustar[i] + _q(_fr(step[i])) * delta_z for i in range(s.d)]
        inside = [_zlin(a2, projected) <= _q(b2) for a2, b2 in s.link.cells[t]]
        inside += [_zlin(a2, projected) <= _q(b2) for a2, b2 in s.les]
        try:  # a candidate only: candidate() and the checks of _tight_quadratic decide, exactly
            again = _maximise(_closure(s, pz) + base + [N >= _q(rho) * M, delta_z == M] + inside, N, budget,
                              "the largest regret at the ratio, one row binding")
        except NotFound:
            again = None
        if again is not None:
            p = [_frac(again[1].eval(x, model_completion=True)) for x in pz]
            cand, why = proj.candidate(p)
    return p, cand, why


def _quadratic_partner(s: Setup, q: Quadratic, b: Bound, K: Fraction, t: int, t_opt: int, n_ex: Fraction,
                       p: list[Fraction], budget: Budget) -> None:
    """The calibration function ``eps^2 / K`` from a partner ``p0`` where ``t`` ties with ``t_opt`` and u*(p0) lies
    in the cell of ``t`` (found by z3, checked exactly; :func:`_calibration`)."""
    p0 = _zvars("q", s.n)
    u0 = [sum((_q(v[i]) * p0[y] for y, v in enumerate(q.minimisers) if v[i] != 0), _q(F0)) for i in range(s.d)]
    cons = _closure(s, p0) + [_zlin(a, u0) <= _q(bb) for a, bb in s.link.cells[t]]
    cons.append(_zlin([s.L[y][t] - s.L[y][t_opt] for y in range(s.n)], p0) == 0)
    res = _solve(cons, budget, p0, "partner p0")
    if res.answer != "sat":
        b.steps.append(f"calibration function: no partner p0 ({res.answer})")
        return
    q0 = [res.model[str(x)] for x in p0]
    ls = s.losses(q0)
    if sum(q0) != 1 or any(x < 0 for x in q0) or ls[t] != ls[t_opt] or not s.in_cell(t, q.u_star(q0)):
        b.steps.append("calibration function: the partner p0 failed the exact check")
        return
    _calibration(b, s, t, EPS**2 / sympy.Rational(K.numerator, K.denominator), n_ex, q0, p, budget)
