"""How much regret does a surrogate transfer?  The psi-transform of a binary margin loss.

Bartlett, Jordan & McAuliffe (2006), *Convexity, classification, and risk bounds*, JASA 101:
for a margin loss ``phi`` (the surrogate ``psi_1(u) = phi(u)`` for label 1, ``psi_2(u) = phi(-u)``
for label 2, the 0-1 loss and the sign link), with ``eta = p_1``,

    C_eta(a) = eta phi(a) + (1 - eta) phi(-a),     H(eta) = inf_a C_eta(a),
    H^-(eta) = inf { C_eta(a) : a (2 eta - 1) <= 0 },
    psi~(theta) = H^-((1 + theta)/2) - H((1 + theta)/2),   psi = the convex hull of psi~,

and every f satisfies ``psi(R_01(f) - R_01*) <= R_phi(f) - R_phi*`` (their Theorem 1), with psi
the best such function.  For convex ``phi``, phi is classification-calibrated iff it is
differentiable at 0 with ``phi'(0) < 0`` (Theorem 2 / Theorem 6), and then
``psi(theta) = phi(0) - H((1 + theta)/2)``.

What is checked here, exactly (nothing is taken from the textbook):

* the problem is a binary margin loss: ``psi_2(u) - psi_1(-u)`` is formally 0, the loss is
  ``[[0, 1], [1, 0]]`` and the link predicts 1 exactly on ``u >= 0`` (or ``u > 0``);
* ``phi`` is convex by the rules of :mod:`symcal.calibration.convexity`, differentiable at 0
  (no kink active there), and ``phi'(0) < 0`` (the one sign test);
* ``H``: when ``phi`` is C^1, the stationary point ``a*(eta)`` of ``C_eta`` solved by sympy and the
  identity ``d C_eta / da (a*(eta)) = 0`` for ``0 < eta < 1`` shown by simplification to 0; when
  ``phi`` is C^1 piecewise polynomial and no one piece holds the minimiser for every eta (the
  Huberized hinge, the cubic hinge), eta is split at 1/2 (``H(1 - eta) = H(eta)``) and the minimiser
  found on [1/2, 1) after ``eta = v^2/(1 + v^2)``, its piece shown by z3 for every ``v >= 1``; when
  ``phi`` is piecewise linear, the minimum of ``C_eta`` over its breakpoints, which is the infimum
  because the outer slopes of ``C_eta`` point up for every ``eta`` in (0, 1);
* then ``psi(theta) = phi(0) - H((1 + theta)/2)``, simplified; it is convex (``H`` is concave, an
  infimum of functions affine in ``eta``), so it is its own convex hull.

From psi, the power bound ``excess_01 <= C * excess_phi ** e``: when ``psi'(0+) = L > 0``, ``e = 1``
and ``C = 1/L`` (psi convex with ``psi(0) = 0``, so ``psi(theta)/theta`` does not decrease); when
``psi'(0+) = 0`` and ``psi(theta)/theta^2 -> L2 > 0``, ``e = 1/2`` and ``C = 1/sqrt(L2)``, valid when
``psi'' >= 2 L2`` on (0, 1), decided by z3 after ``theta = (v^2 - 1)/(v^2 + 1)`` (a rational function
of v > 1).  Both constants are approached as theta -> 0, and psi is the best bound, so ``tight``.
The calibration function (Osokin, Bach & Lacoste-Julien 2017) is ``psi(eps)`` on [0, 1].

Every other problem: :func:`bound` computes a bound for surrogates decided by method (A) (exponent
1/2) or (B) (exponent 1) once the calibration verdict is ``proved``
(:mod:`symcal.calibration.regret_bounds`); otherwise ``unknown`` with the reason.  A bound is never
reported for a problem not proved calibrated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from symcal.calibration.convexity import NotShown, analyse, max_of_affine
from symcal.exact import sign
from symcal.verdicts import Status

__all__ = ["Regret", "psi_transform", "bound", "TEXTBOOK"]

ETA = sympy.Symbol("eta", positive=True)
EPS = sympy.Symbol("eps", nonnegative=True)
THETA = sympy.Symbol("theta", real=True)
_A = sympy.Symbol("a", real=True)

# Bartlett, Jordan & McAuliffe (2006), Section 2 examples, for comparison in tests and reports
TEXTBOOK = {
    "hinge": sympy.Abs(THETA),
    "squared": THETA**2,
    "exponential": 1 - sympy.sqrt(1 - THETA**2),
    "logistic": (1 + THETA) / 2 * sympy.log(1 + THETA) + (1 - THETA) / 2 * sympy.log(1 - THETA),
}


@dataclass
class Regret:
    """The regret transfer of one surrogate: ``status`` proved (psi computed and checked), or
    unknown with ``reason``."""

    status: Status
    kind: str = "psi-transform"
    phi: str = ""
    H: Any = None
    psi: Any = None
    argmin: Any = None
    steps: list[str] = field(default_factory=list)
    reason: str = ""
    known: str = ""  # the name of the textbook psi it equals, when shown
    # the power bound excess_target <= constant * excess_surrogate ** exponent (every p in P, u in C)
    exponent: str = ""
    constant: Any = None
    tight: bool | None = None
    calibration_function: Any = None  # H(eps), an expression in EPS, on calibration_range
    calibration_range: str = ""
    evidence: list[Any] = field(default_factory=list)  # (label, Evidence) pairs
    attained: dict[str, Any] = field(default_factory=dict)  # the exact (p, u) showing the constant tight
    seconds: float = 0.0

    def statement(self) -> str:
        if self.psi is None:
            if self.constant is None:
                return ""
            return (f"for every p in P and u in C: excess target loss <= {sympy.sstr(self.constant)} * (excess "
                    f"surrogate risk) ** ({self.exponent})")
        return (f"for every f: psi(R_01(f) - R_01*) <= R_phi(f) - R_phi*, psi(theta) = {sympy.sstr(self.psi)} on "
                "(-1, 1), extended by continuity to -1 and 1 (Bartlett, Jordan & McAuliffe 2006, Theorem 1; psi is "
                "the best such function)")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "status": self.status.value, "phi": self.phi, "textbook": self.known or None,
                "H": None if self.H is None else sympy.sstr(self.H),
                "psi": None if self.psi is None else sympy.sstr(self.psi),
                "argmin": None if self.argmin is None else sympy.sstr(self.argmin),
                "statement": self.statement() or None, "steps": self.steps, "reason": self.reason or None,
                "exponent": self.exponent or None,
                "constant": None if self.constant is None else sympy.sstr(self.constant),
                "tight": self.tight,
                "calibration_function": None if self.calibration_function is None
                else sympy.sstr(self.calibration_function),
                "calibration_range": self.calibration_range or None,
                "psi_transform": None if self.psi is None else sympy.sstr(self.psi),
                "attained": self.attained or None,
                "evidence": [{"label": lab, **ev.to_json()} for lab, ev in self.evidence],
                "seconds": round(self.seconds, 3)}

    def describe(self) -> str:
        if self.status is not Status.PROVED:
            return f"regret: unknown ({self.reason})"
        if self.psi is None:
            return self._describe_power()
        lines = [f"regret (psi-transform, Bartlett, Jordan & McAuliffe 2006): phi(u) = {self.phi}",
                 f"  H(eta) = inf_a [eta phi(a) + (1 - eta) phi(-a)] = {sympy.sstr(self.H)}",
                 f"  psi(theta) = phi(0) - H((1 + theta)/2) = {sympy.sstr(self.psi)}",
                 f"  so {self.statement()}"]
        lines += [f"  checked: {s}" for s in self.steps]
        if self.constant is not None:
            lines.append(f"  power bound: excess_01 <= {sympy.sstr(self.constant)} * excess_phi ** ({self.exponent})"
                         f"{' (tight)' if self.tight else ''}; calibration function H(eps) = "
                         f"{sympy.sstr(self.calibration_function)} for {self.calibration_range}")
        return "\n".join(lines)

    def _describe_power(self) -> str:
        lines = [f"regret ({self.kind}): excess target loss <= {sympy.sstr(self.constant)} * (excess surrogate risk)"
                 f" ** ({self.exponent}) for every p in P and u in C  ({'tight' if self.tight else 'not shown tight'};"
                 f" {self.seconds:.2f} s)"]
        if self.calibration_function is not None:
            lines.append(f"  calibration function H(eps) = {sympy.sstr(self.calibration_function)} for "
                         f"{self.calibration_range}")
        lines += [f"  {s}" for s in self.steps]
        lines += [f"  evidence: {lab}: {ev.summary()}" for lab, ev in self.evidence]
        return "\n".join(lines)


def _unknown(reason: str, phi: str = "") -> Regret:
    return Regret(Status.UNKNOWN, phi=phi, reason=reason)


def _margin_phi(s: Any) -> tuple[sympy.Expr | None, str]:
    """phi from a set-up that is a binary margin problem, or (None, why not)."""
    if s.n != 2 or s.k != 2 or s.d != 1 or s.eqs or s.les or s.noise:
        return None, ("--regret computes the psi-transform of binary margin losses: 2 labels, 2 predictions, "
                      "u in R, the whole simplex")
    (u,) = s.u
    L = s.L
    if not (L[0][0] == L[1][1] == 0 and L[0][1] == L[1][0] == 1):
        return None, "the loss is not the 0-1 loss [[0, 1], [1, 0]]"
    phi, other = s.surrogate.per_label
    if sympy.simplify(other - phi.xreplace({u: -u})) != 0:
        return None, "psi_2(u) is not shown equal to psi_1(-u): not a margin loss"
    cells = s.link.cells
    want = [[((Fraction(-1),), Fraction(0))], [((Fraction(1),), Fraction(0))]]  # label 1 on u >= 0, 2 on u <= 0
    got = [sorted((tuple(a), b) for a, b in cell if any(a) or b) for cell in cells]
    scaled = []
    for cell in got:
        norm = []
        for a, b in cell:
            k = abs(a[0]) if a[0] else Fraction(1)
            norm.append(((a[0] / k,), b / k))
        scaled.append(norm)
    if scaled != want:
        return None, "the link is not the sign link (prediction 1 exactly when u >= 0)"
    return phi, ""


def psi_transform(s: Any) -> Regret:
    """The psi-transform of the binary margin problem ``s`` (a :class:`~symcal.calibration.engine.Setup`)."""
    phi_u, why = _margin_phi(s)
    if phi_u is None:
        return _unknown(why)
    (u,) = s.u
    phi = phi_u.xreplace({u: _A})
    text = sympy.sstr(phi_u)
    steps: list[str] = []
    try:
        shape = analyse(phi, [_A])
    except NotShown as exc:
        return _unknown(f"phi is not shown convex: {exc}", text)
    if shape.curvature not in ("convex", "affine"):
        return _unknown("phi is not shown convex", text)
    steps.append("phi is convex (composition rules)")
    from symcal.calibration.smooth import _smooth_at

    kink = _smooth_at([phi], {_A: sympy.Integer(0)})
    if kink and not shape.c1:
        return _unknown(f"phi is not shown differentiable at 0 ({kink}): not classification-calibrated or not "
                        "decided", text)
    d0 = sympy.diff(phi.xreplace({_A: sympy.Symbol("a_real", real=True)}), sympy.Symbol("a_real", real=True))
    d0 = d0.xreplace({sympy.Symbol("a_real", real=True): 0})
    sg = sign(d0)
    if sg.value is None:
        return _unknown(f"the sign of phi'(0) = {sympy.sstr(d0)} is not decided ({sg.reason})", text)
    if sg.value != -1:
        return _unknown(f"phi'(0) = {sympy.sstr(d0)} is not < 0 ({sg.reason}): phi is not "
                        "classification-calibrated (Bartlett et al., Theorem 6), no psi-transform bound", text)
    steps.append(f"phi is differentiable at 0 with phi'(0) = {sympy.sstr(d0)} < 0, so classification-calibrated "
                 "(Bartlett et al., Theorem 6) and psi(theta) = phi(0) - H((1 + theta)/2)")
    C = ETA * phi + (1 - ETA) * phi.xreplace({_A: -_A})
    psi_half = None  # psi on [0, 1), when H was found on eta >= 1/2 only (then psi is even)
    if shape.c1 and C.has(sympy.Max, sympy.Min, sympy.Abs, sympy.Piecewise):
        H, argmin, msg = _h_piecewise_smooth(C)
        if H is None:
            H, argmin, msg2, psi_half = _h_split_at_half(C, phi.xreplace({_A: 0}))
            msg = f"{msg}; {msg2}" if H is None else msg2
    elif shape.c1:
        H, argmin, msg = _h_smooth(C)
    else:
        H, argmin, msg = _h_piecewise_linear(phi, C)
    if H is None:
        return _unknown(msg, text)
    steps.append(msg)
    if psi_half is not None:
        psi = psi_half
    else:
        psi = _tidy(phi.xreplace({_A: 0}) - H.xreplace({ETA: (1 + THETA) / 2}))
    known = ""
    for name, form in TEXTBOOK.items():
        how = identical_on_interval(psi, form)
        if how:
            known, psi = name, form
            steps.append(f"psi equals Bartlett et al.'s {name} psi-transform {sympy.sstr(form)} on (-1, 1) ({how})")
            break
    r = Regret(Status.PROVED, phi=text, H=_tidy(H), psi=psi, argmin=argmin, steps=steps, known=known)
    _power_from_psi(r)
    return r


def _power_from_psi(r: Regret) -> None:
    """The power bound and calibration function read off a proved psi (see the module docstring);
    left empty (with a step saying why) when not shown."""
    psi = r.psi.xreplace({sympy.Abs(THETA): THETA})  # only theta >= 0 is used below (limits at 0+, (0, 1))
    slope = _right_slope_at_0(psi)
    if slope is not None:
        at0, L1 = slope
    else:
        try:
            at0 = sympy.limit(psi, THETA, 0, "+")
            L1 = sympy.limit(psi / THETA, THETA, 0, "+")
        except Exception as exc:  # noqa: BLE001 - not shown
            r.steps.append(f"power bound: the limits of psi at 0 are not computed ({exc})")
            return
    if at0 != 0:
        r.steps.append(f"power bound: psi(0+) = {sympy.sstr(at0)} is not 0")
        return
    r.calibration_function, r.calibration_range = psi.xreplace({THETA: EPS}), "0 <= eps <= 1"
    r.steps.append("calibration function H(eps) = psi(eps) on [0, 1]: the 0-1 excess at eta is |2 eta - 1| and psi "
                   "is convex with psi(0) = 0, so nondecreasing on [0, 1]")
    if L1.is_positive and L1.is_finite:
        r.exponent, r.constant, r.tight = "1", _tidy(1 / L1), True
        r.steps.append(f"power bound: psi'(0+) = {sympy.sstr(L1)} > 0 and psi(theta)/theta does not decrease (psi "
                       f"convex, psi(0) = 0), so excess_01 <= {sympy.sstr(r.constant)} * excess_phi, approached as "
                       "theta -> 0 (tight)")
        return
    if L1 != 0:
        r.steps.append(f"power bound: psi'(0+) = {sympy.sstr(L1)} is not decided")
        return
    try:
        L2 = sympy.limit(psi / THETA**2, THETA, 0, "+")
    except Exception as exc:  # noqa: BLE001 - not shown
        r.steps.append(f"power bound: lim psi/theta^2 is not computed ({exc})")
        return
    if not (L2.is_positive and L2.is_finite and L2.is_Rational):
        r.steps.append(f"power bound: lim psi/theta^2 = {sympy.sstr(L2)} is not a positive rational")
        return
    v = sympy.Symbol("v", positive=True)
    g2 = sympy.diff(psi, THETA, 2) - 2 * L2
    how = _nonnegative_on_unit(g2, v)
    if not how:
        r.steps.append(f"power bound: psi'' >= {sympy.sstr(2 * L2)} on (0, 1) is not shown")
        return
    r.exponent, r.constant, r.tight = "1/2", sympy.sqrt(1 / L2), True
    r.steps.append(f"power bound: psi(theta) >= {sympy.sstr(L2)} theta^2 on [0, 1] since g = psi - {sympy.sstr(L2)} "
                   f"theta^2 has g(0) = g'(0+) = 0 and g'' >= 0 on (0, 1) ({how}); so excess_01 <= "
                   f"{sympy.sstr(r.constant)} * excess_phi ** (1/2), approached as theta -> 0 (tight)")


def _right_slope_at_0(psi: sympy.Expr) -> tuple[sympy.Rational, sympy.Rational] | None:
    """``(psi(0), psi'(0+))`` exactly for a piecewise-linear convex psi written with ``Max``/``Min`` of
    affine pieces (a hinge-like phi gives ``phi(0) - Min(...)``, where sympy's limit gives up), or None:
    with ``Min(a) = -Max(-a)``, psi is ``max_k (s_k theta + c_k)``, so psi(0) is the largest c_k and
    psi'(0+) the largest s_k among the pieces with that c_k (the pieces active at 0)."""
    if not psi.has(sympy.Min, sympy.Max):
        return None
    flipped = psi.replace(lambda x: isinstance(x, sympy.Min),
                          lambda x: -sympy.Max(*[-a for a in x.args], evaluate=False))
    pieces = max_of_affine(sympy.expand(flipped), [THETA])
    if pieces is None:
        return None
    c0 = max(b for _, b in pieces)
    s0 = max(a[0] for a, b in pieces if b == c0)
    return sympy.Rational(c0.numerator, c0.denominator), sympy.Rational(s0.numerator, s0.denominator)


def _nonnegative_on_unit(g: sympy.Expr, v: sympy.Symbol) -> str:
    """How g(theta) >= 0 was shown for every theta in (0, 1), or '': theta = (v^2 - 1)/(v^2 + 1) with
    v > 1 makes sqrt(1 - theta^2) rational in v; the rational function's sign is decided by z3."""
    try:
        h = sympy.factor(sympy.simplify(g.xreplace({THETA: (v**2 - 1) / (v**2 + 1)})))
        num, den = sympy.fraction(sympy.together(h))
        if not (num.is_polynomial(v) and den.is_polynomial(v)):
            return ""
        from symcal.backends.base import Budget
        from symcal.backends.translate import Translator
        from symcal.backends.z3_backend import solve

        tr = Translator()
        z = tr.var(v)
        res = solve([z > 1, tr(num) * tr(den) < 0], Budget(10.0), [z], "is psi'' - 2 L2 negative somewhere?")
    except Exception:  # noqa: BLE001 - not shown
        return ""
    if res.answer != "unsat":
        return ""
    return (f"after theta = (v^2 - 1)/(v^2 + 1), g'' = {sympy.sstr(h)}; z3: no v > 1 where numerator x denominator "
            "< 0 (unsat)")


def identical_on_interval(a: sympy.Expr, b: sympy.Expr) -> str:
    """How ``a = b`` was shown for every theta in (-1, 1), or '' when not shown: sympy simplifies the
    difference to 0 after theta = (w - 1)/(w + 1) with w > 0 (a bijection onto (-1, 1)); or z3 finds
    no theta in (-1, 1) where they differ (piecewise-linear forms)."""
    w = sympy.Symbol("w", positive=True)
    # a piecewise-linear form (Min/Max of affine pieces) goes to z3 at once: linear arithmetic decides it,
    # and sympy's simplify spent 15-30 s on a Min of six pieces (an asymmetric hinge)
    if not a.has(sympy.Min, sympy.Max):
        try:
            if sympy.simplify((a - b).xreplace({THETA: (w - 1) / (w + 1)})) == 0:
                return "the difference simplifies to 0 under theta = (w - 1)/(w + 1), w > 0"
        except Exception:  # noqa: BLE001 - not shown this way
            pass
    if a.has(sympy.log, sympy.exp, sympy.Pow) and not (a.is_polynomial(THETA) and b.is_polynomial(THETA)):
        return ""
    try:
        from symcal.backends.base import Budget
        from symcal.backends.translate import Translator
        from symcal.backends.z3_backend import solve

        tr = Translator()
        t = tr.var(THETA)
        res = solve([t > -1, t < 1, tr(a) != tr(b)], Budget(5.0), [t], "do the two forms differ on (-1, 1)?")
    except Exception:  # noqa: BLE001 - not translatable: not shown
        return ""
    return "z3: no theta in (-1, 1) where they differ (unsat)" if res.answer == "unsat" else ""


def _tidy(e: sympy.Expr) -> sympy.Expr:
    """A shorter form of ``e`` (sympy's simplify: every rewrite is an identity, the value is unchanged)."""
    try:
        return sympy.simplify(e)
    except Exception:  # noqa: BLE001 - a tidier form is optional
        return e


def _h_smooth(C: sympy.Expr) -> tuple[sympy.Expr | None, Any, str]:
    """H(eta) for a C^1 convex phi: the stationary point of C_eta, checked by simplification."""
    dC = sympy.diff(C, _A)
    try:
        sols = sympy.solve(sympy.Eq(dC, 0), _A)
    except (NotImplementedError, ValueError) as exc:
        return None, None, f"the stationary point of C_eta is not solved ({exc})"
    for a_star in sols:
        check = sympy.simplify(dC.xreplace({_A: a_star}))
        if check != 0:
            continue
        probe = a_star.xreplace({ETA: sympy.Rational(1, 3)})
        if not (probe.is_real and probe.is_finite):
            continue
        H = C.xreplace({_A: a_star})
        return H, a_star, (f"a*(eta) = {sympy.sstr(a_star)} makes dC_eta/da vanish identically (simplified to 0), so "
                           "it minimises the convex C_eta for every eta in (0, 1)")
    return None, None, "no real stationary point of C_eta was shown to vanish the derivative identically"


def _h_piecewise_smooth(C: sympy.Expr) -> tuple[sympy.Expr | None, Any, str]:
    """H(eta) for a C^1 piecewise-polynomial phi (squared hinge, Huber): on one piece [lo, hi] of
    C_eta the stationary point a*(eta) solved exactly, and shown (z3) to lie in [lo, hi] for every
    eta in (0, 1); by convexity it is then the minimiser for every eta."""
    from symcal.calibration.convexity import _breaks, _local

    try:
        pts = sorted(_breaks(C.xreplace({ETA: sympy.Rational(1, 2)}), _A), key=lambda r: sympy.Float(r, 30))
    except NotShown as exc:
        return None, None, f"the pieces of C_eta are not found ({exc})"
    edges = [-sympy.oo, *pts, sympy.oo]
    for lo, hi in zip(edges, edges[1:], strict=False):
        mid = (lo + hi) / 2 if lo.is_finite and hi.is_finite else (hi - 1 if lo == -sympy.oo else lo + 1)
        if lo == -sympy.oo and hi == sympy.oo:
            mid = sympy.Integer(0)
        piece = sympy.expand(_local(C, _A, mid))
        if not piece.is_polynomial(_A):
            continue
        for a_star in sympy.solve(sympy.diff(piece, _A), _A):
            if not _within(a_star, lo, hi):
                continue
            H = sympy.simplify(piece.xreplace({_A: a_star}))
            return H, a_star, (f"on the piece {lo} <= a <= {hi}, a*(eta) = {sympy.sstr(a_star)} is the stationary "
                               "point of C_eta and lies in the piece for every eta in (0, 1) (z3), so it minimises "
                               "the convex C_eta")
    return None, None, "no piece of C_eta holds the minimiser for every eta in (0, 1)"


def _within(a_star: sympy.Expr, lo: Any, hi: Any) -> bool:
    """lo <= a*(eta) <= hi for every eta in (0, 1), shown by z3 (unsat of the negation)."""
    from symcal.backends.base import Budget
    from symcal.backends.translate import Translator
    from symcal.backends.z3_backend import solve

    try:
        tr = Translator()
        e = tr.var(ETA)
        a = tr(a_star)
        out = [a < tr(lo)] if lo.is_finite else []
        out += [a > tr(hi)] if hi.is_finite else []
        if not out:
            return True
        import z3

        res = solve([e > 0, e < 1, z3.Or(*out) if len(out) > 1 else out[0]], Budget(5.0), [e], "a* outside its piece?")
    except Exception:  # noqa: BLE001 - not shown
        return False
    return res.answer == "unsat"


_V = sympy.Symbol("v", positive=True)


def _h_split_at_half(C: sympy.Expr, phi0: sympy.Expr) -> tuple[sympy.Expr | None, Any, str, sympy.Expr | None]:
    """H(eta) for a C^1 convex piecewise-polynomial phi whose minimiser changes piece at eta = 1/2
    (the Huberized hinge, the cubic hinge): ``(H, argmin, how, psi)`` or ``(None, None, why, None)``.

    Bartlett, Jordan & McAuliffe (2006), Section 2: ``C_{1 - eta}(a) = C_eta(-a)``, so
    ``H(1 - eta) = H(eta)`` and psi is even; it suffices to find H on ``1/2 <= eta < 1``.  There
    ``eta = v^2/(1 + v^2)`` with ``v >= 1`` (a bijection onto [1/2, 1), ``v = sqrt(eta/(1 - eta))``),
    which makes the stationary points of the square-root kind rational in v.  On one piece
    [lo, hi] of C_eta, a root ``a*(v)`` of dC/da is kept when (1) dC/da at ``a*(v)`` simplifies to 0
    identically in v, and (2) z3 finds no ``v >= 1`` where ``a*(v)`` is undefined or outside [lo, hi]
    (a polynomial query: ``a* = N/D``, ``D = 0 or N D < lo D^2 or N D > hi D^2``).  C_eta is convex and
    C^1 and equals the piece's polynomial on [lo, hi], so ``a*`` minimises it.  Then
    ``psi(theta) = phi(0) - H((1 + theta)/2)`` on [0, 1) is written with
    ``v = sqrt(1 - theta^2)/(1 - theta)`` and the written form is checked equal to the v-form after
    ``theta = (v^2 - 1)/(v^2 + 1)`` (simplified to 0); psi on (-1, 0] is psi(|theta|)."""
    from symcal.calibration.convexity import _breaks, _local

    try:
        pts = sorted(_breaks(C.xreplace({ETA: sympy.Rational(1, 2)}), _A), key=lambda r: sympy.Float(r, 30))
    except NotShown as exc:
        return None, None, f"the pieces of C_eta are not found ({exc})", None
    v = _V
    eta_v = v**2 / (1 + v**2)
    edges = [-sympy.oo, *pts, sympy.oo]
    for lo, hi in zip(edges, edges[1:], strict=False):
        if lo == -sympy.oo and hi == sympy.oo:
            mid = sympy.Integer(0)
        else:
            mid = (lo + hi) / 2 if lo.is_finite and hi.is_finite else (hi - 1 if lo == -sympy.oo else lo + 1)
        piece = sympy.expand(_local(C, _A, mid))
        if not piece.is_polynomial(_A):
            continue
        dpiece = sympy.diff(piece, _A).xreplace({ETA: eta_v})
        num = sympy.fraction(sympy.together(dpiece))[0]
        try:
            roots = sympy.solve(num, _A)
        except (NotImplementedError, ValueError):
            continue
        for a_star in roots:
            a_star = sympy.cancel(a_star)
            n_, d_ = sympy.fraction(a_star)
            if not (n_.is_polynomial(v) and d_.is_polynomial(v)):
                continue
            if sympy.simplify(dpiece.xreplace({_A: a_star})) != 0:
                continue
            if not _within_v(n_, d_, lo, hi):
                continue
            h_v = sympy.factor(sympy.cancel(piece.xreplace({ETA: eta_v, _A: a_star})))
            psi_v = sympy.factor(sympy.cancel(phi0 - h_v))
            psi = _psi_from_v(psi_v)
            if psi is None:
                return None, None, (f"H was found on eta >= 1/2 (a*(v) = {sympy.sstr(a_star)}, eta = v^2/(1 + v^2)) "
                                    "but psi was not written in theta and checked"), None
            even = sympy.simplify(psi.xreplace({THETA: -THETA}) - psi) == 0
            if not even:
                psi = psi.xreplace({THETA: sympy.Abs(THETA)})
            v_of = sympy.sqrt(ETA / (1 - ETA))
            h_half = _tidy(h_v.xreplace({v: v_of}))
            H = sympy.Piecewise((h_half, ETA >= sympy.Rational(1, 2)), (h_half.xreplace({ETA: 1 - ETA}), True))
            a_half = _tidy(a_star.xreplace({v: v_of}))
            argmin = sympy.Piecewise((a_half, ETA >= sympy.Rational(1, 2)), (-a_half.xreplace({ETA: 1 - ETA}), True))
            return H, argmin, (
                f"no one piece holds the minimiser for every eta, so eta is split at 1/2: C_(1-eta)(a) = C_eta(-a) "
                f"gives H(1 - eta) = H(eta) and psi even; for 1/2 <= eta < 1, eta = v^2/(1 + v^2) with v >= 1, on "
                f"the piece {lo} <= a <= {hi} a*(v) = {sympy.sstr(a_star)} makes dC_eta/da vanish identically "
                f"(simplified to 0) and lies in the piece for every v >= 1 (z3, unsat), so it minimises the convex "
                f"C^1 C_eta; H = {sympy.sstr(h_v)} there, psi = phi(0) - H = {sympy.sstr(psi_v)}, equal to "
                f"{sympy.sstr(psi)} (difference simplified to 0 under theta = (v^2 - 1)/(v^2 + 1))"
                + ("" if even else "; psi(theta) = psi(|theta|) on (-1, 0]")), psi
    return None, None, "no piece of C_eta holds the minimiser for every eta in [1/2, 1) either", None


def _within_v(n_: sympy.Expr, d_: sympy.Expr, lo: Any, hi: Any) -> bool:
    """``lo <= n_/d_ <= hi`` with ``d_ != 0`` for every v >= 1, shown by z3 (unsat of the negation)."""
    from symcal.backends.base import Budget
    from symcal.backends.translate import Translator
    from symcal.backends.z3_backend import solve

    try:
        import z3

        tr = Translator()
        z = tr.var(_V)
        n, d = tr(n_), tr(d_)
        out = [d == 0]
        out += [n * d < tr(lo) * d * d] if lo.is_finite else []
        out += [n * d > tr(hi) * d * d] if hi.is_finite else []
        res = solve([z >= 1, z3.Or(*out)], Budget(5.0), [z], "a*(v) undefined or outside its piece?")
    except Exception:  # noqa: BLE001 - not shown
        return False
    return res.answer == "unsat"


def _psi_from_v(psi_v: sympy.Expr) -> sympy.Expr | None:
    """psi(theta) on [0, 1) from its form in v (``v = sqrt((1 + theta)/(1 - theta))``), checked equal to
    it exactly after ``theta = (v^2 - 1)/(v^2 + 1)``; None when not shown."""
    v = _V
    r = sympy.sqrt(1 - THETA**2)
    cands = []
    try:
        # psi_v in v^2 only: v^2 = (1 + theta)/(1 - theta), no root
        even_v = sympy.cancel(psi_v.xreplace({v: -v}) - psi_v) == 0
        if even_v:
            w = sympy.Symbol("w", positive=True)
            cands.append(sympy.factor(sympy.cancel(psi_v.xreplace({v: sympy.sqrt(w)}).xreplace(
                {w: (1 + THETA) / (1 - THETA)}))))
        raw = sympy.cancel(psi_v.xreplace({v: r / (1 - THETA)}))
        cands += [sympy.factor(raw), _tidy(raw)]
    except Exception:  # noqa: BLE001 - not written
        return None
    for psi in cands:
        try:
            diff = sympy.simplify((psi.xreplace({THETA: (v**2 - 1) / (v**2 + 1)}) - psi_v))
        except Exception:  # noqa: BLE001 - not checked
            continue
        if diff == 0:
            return psi
    return None


def _h_piecewise_linear(phi: sympy.Expr, C: sympy.Expr) -> tuple[sympy.Expr | None, Any, str]:
    """H(eta) for a piecewise-linear convex phi: the least value of C_eta at its breakpoints."""
    pieces = max_of_affine(phi, [_A])
    if pieces is None:
        return None, None, "phi is neither C^1 nor a max of affine pieces: H is not computed"
    slopes = [a[0] for a, _ in pieces]
    if not (min(slopes) < 0 < max(slopes)) and not (min(slopes) < 0 and max(slopes) == 0):
        return None, None, "phi's outer slopes do not make C_eta bounded below for every eta"
    # C_eta's slope at +inf: eta * max(slopes) - (1 - eta) * min(slopes) >= 0; at -inf: the mirror; so the
    # infimum of the convex piecewise-linear C_eta is attained at a breakpoint (or equals its value there)
    kinks = set()
    for (a1, b1) in pieces:
        for (a2, b2) in pieces:
            if a1[0] != a2[0]:
                r = (b2 - b1) / (a1[0] - a2[0])
                kinks |= {r, -r}
    values = [sympy.simplify(C.xreplace({_A: sympy.Rational(k.numerator, k.denominator)})) for k in sorted(kinks)]
    H = sympy.Min(*values)
    return H, None, (f"C_eta is convex piecewise linear with breakpoints {sorted(map(str, kinks))}; its infimum is "
                     "the least value there (its outer slopes are >= 0 for every eta in (0, 1))")


def bound(s: Any, verdict: Any = None, timeout: float = 60.0, cross_check: bool | None = None) -> Regret:
    """The regret bound of the problem ``s`` (a :class:`~symcal.calibration.engine.Setup`): the
    psi-transform of a binary margin loss, else a power bound by method (A) or (B) when ``verdict``
    (decided here when None) is ``proved``; ``unknown`` with the reason otherwise.  ``cross_check``
    (None: when cvc5 is installed) has cvc5 re-decide every SMT answer behind the bound; a
    disagreement makes it ``unknown``."""
    import time

    from symcal.backends.base import Budget
    from symcal.calibration.engine import Polyhedral, Quadratic, decide, polyhedral_form, quadratic_form
    from symcal.calibration.regret_bounds import NotFound, polyhedral_bound, quadratic_bound
    from symcal.errors import NoBackendAvailable

    t0 = time.monotonic()
    r = psi_transform(s)
    if r.status is Status.PROVED:
        if verdict is not None and verdict.status is Status.REFUTED:  # Bartlett et al.'s test says calibrated
            return Regret(Status.UNKNOWN, reason="the psi-transform says calibrated but the calibration check "
                                                 "refuted it: no bound is reported (internal)")
        r.seconds = time.monotonic() - t0
        return r
    why_psi = r.reason
    form = quadratic_form(s)
    kind = "(A) quadratic"
    if not isinstance(form, Quadratic):
        poly = polyhedral_form(s)
        if not isinstance(poly, Polyhedral):
            return Regret(Status.UNKNOWN, kind="power bound", reason=(
                f"not a binary margin loss ({why_psi}); multiclass bounds need method (A) or (B): not (A): {form}; "
                f"not (B): {poly}"))
        form, kind = poly, "(B) polyhedral"
    if verdict is None:
        verdict = decide(s, timeout)
    if verdict.status is not Status.PROVED:
        return Regret(Status.UNKNOWN, kind=f"power bound, {kind}", reason=(
            f"the surrogate is not proved calibrated (verdict {verdict.status.value}): no bound is reported"))
    budget = Budget(timeout)
    try:
        b = quadratic_bound(s, form, budget) if kind.startswith("(A)") else polyhedral_bound(s, form, budget)
    except (NotFound, NoBackendAvailable) as exc:
        return Regret(Status.UNKNOWN, kind=f"power bound, {kind}", reason=str(exc), seconds=time.monotonic() - t0)
    r = Regret(Status.PROVED, kind=f"power bound, {kind}", steps=b.steps, exponent=b.exponent, constant=b.constant,
               tight=b.tight, calibration_function=b.calibration_function, calibration_range=b.calibration_range,
               evidence=b.evidence, attained=b.attained)
    _second_opinion(r, cross_check, min(timeout, 30.0))
    r.seconds = time.monotonic() - t0
    return r


def _second_opinion(r: Regret, cross_check: bool | None, seconds: float) -> None:
    """cvc5 re-decides each SMT answer of ``r.evidence`` (noted on it); a disagreement makes ``r`` unknown."""
    import dataclasses

    from symcal.backends import cvc5_backend
    from symcal.backends.base import FamilyBudget

    if cross_check is False or not cvc5_backend.available():
        if cross_check:
            r.steps.append("second opinion: cvc5 is not installed")
        return
    solver = f"cvc5 {cvc5_backend.version()}"
    budget = FamilyBudget(seconds)  # cvc5 decides in child processes: their CPU seconds count
    out, agreed, disagree = [], 0, []
    for label, ev in r.evidence:
        if "(nonlinear" in label:  # z3's re-decision of what the linear queries prove: cvc5 is slow on it
            out.append((label, dataclasses.replace(ev, cross_check=f"{solver}: not asked (a second proof)")))
            continue
        left = budget.share(10.0).seconds
        ans = cvc5_backend.decide_smtlib(ev.smtlib, left) if left > 0.05 else "unknown (no time left)"
        if ans == ev.answer:
            agreed += 1
            note = f"{solver} agrees ({ans})"
        elif ans.startswith("unknown"):
            note = f"{solver}: {ans}"
        else:
            note = f"{solver} DISAGREES ({ans})"
            disagree.append(f"{label}: z3 says {ev.answer}, cvc5 says {ans}")
        out.append((label, dataclasses.replace(ev, cross_check=note)))
    r.evidence = out
    asked = sum(1 for lab, _ in out if "(nonlinear" not in lab)
    r.steps.append(f"second opinion: {solver} agrees on {agreed} of the {asked} SMT answers the bound rests on")
    if disagree:
        r.status, r.reason = Status.UNKNOWN, "SOLVERS DISAGREE: " + "; ".join(disagree)
        r.exponent, r.constant, r.tight, r.calibration_function, r.calibration_range = "", None, None, None, ""
