"""sympy -> z3 translation.  The exact evaluator that re-checks solver answers
(:mod:`symcal.exact.evaluate`) and the symbols' assumptions (:mod:`symcal.exact.assumptions`) live
in ``exact/``, below the claims and the backends; their names are re-exported here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from symcal.errors import NoBackendAvailable
from symcal.exact.assumptions import (  # noqa: F401 - re-exported: the backends' one place for both
    Domain,
    assumption_constraints,
    assumptions_hold,
    check_symbols,
    defined_at,
    definedness,
    guarded,
    domain_text,
    exact_scope,
    symbol_domain,
)
from symcal.exact.evaluate import POINT_SECONDS, UNDECIDED, evaluate_exact, truth_at  # noqa: F401

__all__ = ["Translator", "lattice", "evaluate_exact", "truth_at", "model_fraction", "UNDECIDED", "Domain",
           "symbol_domain", "assumption_constraints", "assumptions_hold", "definedness", "defined_at", "domain_text",
           "exact_scope"]


def lattice(e: sympy.Max | sympy.Min | sympy.Abs, args: list[Any]) -> Any:
    """``Max`` / ``Min`` / ``Abs`` of z3 terms ``args`` (already translated) as if-then-else."""
    import z3

    if isinstance(e, sympy.Abs):
        return z3.If(args[0] >= 0, args[0], -args[0])
    out = args[0]
    for a in args[1:]:
        out = z3.If(a > out, a, out) if isinstance(e, sympy.Max) else z3.If(a < out, a, out)
    return out


MAX_POWER = 1000  # the largest integer exponent written out as a product for z3
MAX_ROOT_DEGREE = 12  # b**(p/q) becomes t**q = b**|p|: both at most this (x**(999/1000) would stall z3)


class Translator:
    """Turns sympy expressions into z3 terms over one shared set of z3 variables."""

    def __init__(self, *, roots: bool = False) -> None:
        """With ``roots``, a rational power ``b**(p/q)`` (``sqrt``) is a fresh real variable ``t``
        defined by ``t >= 0`` (``t > 0`` for ``p < 0``, the term then being ``1/t``) and
        ``t**q = b**|p|``: the caller asserts :attr:`definitions` beside its query, which then
        ranges only over points where the power is defined over the reals -- the caller must check
        that its scope says so (:meth:`root_domains`: each ``b >= 0`` / ``b > 0`` is among the
        claim's definedness requirements)."""
        import z3

        self.z3 = z3
        self.vars: dict[sympy.Symbol, Any] = {}
        self.roots = roots
        self.definitions: list[Any] = []
        self._root_vars: dict[tuple[Any, int, int, tuple[int, ...]], Any] = {}  # (base, |p|, q, guards)
        # the conditions under which the term being translated is evaluated: a Piecewise branch is evaluated only
        # where it is the one taken, so a root in it is defined by its equation only there (a signed square root
        # Piecewise((sqrt(x), x >= 0), (-sqrt(-x), True)) is defined for every real x, not only at x = 0)
        self._guards: list[Any] = []
        self._sym_guards: list[Any] = []  # the same conditions as sympy relations (for root_domains)
        self._domains: list[Any] = []  # each root's domain under its guards, as symcal.exact.assumptions.guarded writes it

    def var(self, s: sympy.Symbol) -> Any:
        v = self.vars.get(s)
        if v is None:
            z3 = self.z3
            if any(str(t) == str(s) for t in self._root_vars.values()):  # z3 names a variable by its name
                raise NoBackendAvailable(f"z3: the symbol {s} has the name of a root's fresh variable; rename it")
            v = z3.Int(str(s)) if symbol_domain(s).integer else z3.Real(str(s))
            self.vars[s] = v
        return v

    def _root(self, base: Any, p: int, q: int) -> Any:
        """``base**(p/q)`` for ``q > 1`` as a fresh variable with its definition (see
        :meth:`__init__`); one variable per distinct power, named ``symcal_root_<k>`` in order of
        first use (the query's text does not depend on the process)."""
        z3 = self.z3
        guards = tuple(self._guards)
        key = (base, abs(p), q, tuple(g.get_id() for g in guards))  # z3 hash-conses: one id per term
        t = self._root_vars.get(key)
        if t is None:
            # the base first: a root inside it (sqrt(1 - sqrt(x))) takes its own variable before this one is
            # named, or both would be named symcal_root_1 -- one z3 variable for two different roots
            power_of_b = self(sympy.Pow(base, abs(p), evaluate=False))  # the integer power's own product
            power_of_b = z3.ToReal(power_of_b) if z3.is_int(power_of_b) else power_of_b
            taken = {str(s) for s in self.vars}
            k = len(self._root_vars) + 1
            while f"symcal_root_{k}" in taken:
                k += 1
            t = z3.Real(f"symcal_root_{k}")
            power_of_t = t
            for _ in range(q - 1):
                power_of_t = power_of_t * t
            definition = z3.And(t >= 0 if p > 0 else t > 0, power_of_t == power_of_b)
            self.definitions.append(z3.Implies(z3.And(*guards), definition) if guards else definition)
            self._root_vars[key] = t
        domain = guarded(sympy.Gt(base, 0) if p < 0 else sympy.Ge(base, 0), tuple(self._sym_guards))
        if domain not in self._domains:
            self._domains.append(domain)
        return t if p > 0 else z3.RealVal(1) / t

    def root_domains(self) -> list[Any]:
        """What the roots' definitions restrict the query to: ``b >= 0`` for each base ``b`` of a
        positive rational power, ``b > 0`` for a negative one (as sympy relations), each only where
        the Piecewise branches around it are taken (:func:`symcal.exact.assumptions.guarded`)."""
        return list(self._domains)

    def parity(self, symbols: Any) -> list[Any]:
        """The parity assumptions (even=True, odd=True) of ``symbols`` as z3 constraints on their
        integer variables (z3's ``%`` is Euclidean: ``n % 2`` is 0 or 1 for negative n too).  The
        sign assumptions are relations of their own (:func:`assumption_constraints`), and an
        integer symbol is a z3 Int (:meth:`var`)."""
        out = []
        for s in sorted(symbols, key=str):
            if isinstance(s, sympy.Symbol):
                d = symbol_domain(s)
                if d.parity is not None:
                    out.append(self.var(s) % 2 == (0 if d.parity == "even" else 1))
        return out

    def __call__(self, e: Any) -> Any:
        z3 = self.z3
        if isinstance(e, bool):
            return z3.BoolVal(e)
        if isinstance(e, int):
            return z3.RealVal(e)
        if isinstance(e, Fraction):
            return z3.RealVal(f"{e.numerator}/{e.denominator}")
        if not isinstance(e, sympy.Basic):
            raise NoBackendAvailable(f"z3: cannot translate {type(e).__name__} {e!r}")
        if e is sympy.true:
            return z3.BoolVal(True)
        if e is sympy.false:
            return z3.BoolVal(False)
        if isinstance(e, sympy.Symbol):
            return self.var(e)
        if isinstance(e, sympy.Integer):
            return z3.RealVal(int(e))
        if isinstance(e, sympy.Rational):
            return z3.RealVal(f"{int(e.p)}/{int(e.q)}")
        if isinstance(e, sympy.Float):
            raise NoBackendAvailable(f"z3: the float {e} has no exact value; write it as a Rational")
        if isinstance(e, sympy.Add):
            return z3.Sum([self(a) for a in e.args])
        if isinstance(e, sympy.Mul):
            out = self(e.args[0])
            for a in e.args[1:]:
                out = out * self(a)
            return out
        if isinstance(e, sympy.Pow):
            base, ex = e.args
            if isinstance(ex, sympy.Integer):
                n = int(ex)
                if abs(n) > MAX_POWER:  # repeated products: a huge exponent would build (and hang) for minutes
                    raise NoBackendAvailable(f"z3: the exponent {n} in {sympy.sstr(e)[:60]} is larger than "
                                             f"{MAX_POWER}; such claims need the sympy or interval backend")
                b = self(base)
                if n == 0:
                    return z3.RealVal(1)
                acc = b
                for _ in range(abs(n) - 1):
                    acc = acc * b
                if n > 0:
                    return acc
                # real division: for an integer symbol k, z3's 1 / k would be integer division (1/2 = 0)
                return z3.RealVal(1) / (z3.ToReal(acc) if z3.is_int(acc) else acc)
            if self.roots and isinstance(ex, sympy.Rational) and ex.q > 1:
                if ex.q > MAX_ROOT_DEGREE or abs(ex.p) > MAX_ROOT_DEGREE:
                    raise NoBackendAvailable(f"z3: the power {sympy.sstr(e)[:60]} would be a polynomial equation of "
                                             f"degree above {MAX_ROOT_DEGREE}; not sent to z3")
                return self._root(base, int(ex.p), int(ex.q))
            raise NoBackendAvailable(f"z3: non-integer power {e} is not supported")
        rel = {
            sympy.StrictLessThan: lambda a, b: a < b,
            sympy.LessThan: lambda a, b: a <= b,
            sympy.StrictGreaterThan: lambda a, b: a > b,
            sympy.GreaterThan: lambda a, b: a >= b,
            sympy.Equality: lambda a, b: a == b,
            sympy.Unequality: lambda a, b: a != b,
        }
        for cls, fn in rel.items():
            if isinstance(e, cls):
                return fn(self(e.lhs), self(e.rhs))
        if isinstance(e, sympy.And):
            return z3.And(*[self(a) for a in e.args])
        if isinstance(e, sympy.Or):
            return z3.Or(*[self(a) for a in e.args])
        if isinstance(e, sympy.Not):
            return z3.Not(self(e.args[0]))
        if isinstance(e, sympy.Implies):
            return z3.Implies(self(e.args[0]), self(e.args[1]))
        if isinstance(e, sympy.Equivalent):
            args = [self(a) for a in e.args]
            return z3.And(*[args[0] == a for a in args[1:]])
        if isinstance(e, sympy.Piecewise):
            if e.args[-1].cond is not sympy.true:
                raise NoBackendAvailable(f"z3: Piecewise without an otherwise branch: {sympy.sstr(e)[:80]}")
            # each branch (and each later condition) under the guard that it is reached: see self._guards
            conds: list[Any] = []
            sym_conds: list[Any] = []
            values: list[Any] = []
            for expr, cond in e.args:
                before = len(self._guards)
                self._guards.extend(z3.Not(c) for c in conds)  # the earlier conditions all failed
                self._sym_guards.extend(sympy.Not(c) for c in sym_conds)
                c = z3.BoolVal(True) if cond is sympy.true else self(cond)
                self._guards.append(c)
                self._sym_guards.append(cond)
                values.append(self(expr))
                del self._guards[before:]
                del self._sym_guards[before:]
                conds.append(c)
                sym_conds.append(cond)
            out = values[-1]
            for c, v in reversed(list(zip(conds[:-1], values[:-1], strict=True))):
                out = z3.If(c, v, out)
            return out
        if isinstance(e, sympy.Max | sympy.Min | sympy.Abs):
            return lattice(e, [self(a) for a in e.args])
        name = type(e).__name__
        raise NoBackendAvailable(
            f"z3 does not support {name} (in {sympy.sstr(e)[:80]}); such claims need the "
            f"sympy, interval or numeric backend"
        )


def model_fraction(v: Any, digits: int = 40) -> Fraction:
    """A z3 model value as a Fraction (algebraic numbers: a close rational)."""
    import z3

    if z3.is_int_value(v):
        return Fraction(v.as_long())
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    if z3.is_algebraic_value(v):
        approx = v.approx(digits)
        return Fraction(approx.numerator_as_long(), approx.denominator_as_long())
    raise NoBackendAvailable(f"cannot read model value {v}")


def model_algebraic(v: Any) -> sympy.Expr | None:
    """A z3 model value exactly, as a sympy number: a Rational, or for an algebraic number the
    real root of its polynomial that z3 names (``CRootOf``, exact; its index is checked against
    z3's decimal approximation).  None when it cannot be read."""
    import z3

    if z3.is_int_value(v) or z3.is_rational_value(v):
        q = model_fraction(v)
        return sympy.Rational(q.numerator, q.denominator)
    if not z3.is_algebraic_value(v):
        return None
    t = sympy.Symbol("t")  # a bound variable of the polynomial (CRootOf's poly is a PurePoly)
    coeffs = [int(c.as_long()) for c in v.poly()]  # lowest degree first
    poly = sympy.Poly(list(reversed(coeffs)), t, domain=sympy.ZZ)
    k = int(v.index()) - 1  # z3: 1-based among the real roots in increasing order
    try:
        root = sympy.CRootOf(poly, k)
    except (IndexError, ValueError, sympy.PolynomialError):
        return None
    # (a root of a reducible polynomial may come back as a rational or with radicals); the check
    # of the index is a sanity check only: whatever value this is, the caller re-checks it exactly
    approx = model_fraction(v, 30)
    if not root.is_real or abs(sympy.N(root - sympy.Rational(approx.numerator, approx.denominator), 30)) > 1e-20:
        return None
    return root



