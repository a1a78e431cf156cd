"""The symbols' sympy assumptions, and where expressions are defined: each assumption is encoded
(stated to the solver), relaxed (the query ranges over a larger domain, every witness is checked
against it) or refused; partial functions give definedness requirements; scope texts say what was
decided.  Used by the claim constructors (to refuse a symbol early) and by the backends (to encode
it), so it lives below both."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy
from sympy.core.function import AppliedUndef

from symcal.errors import InvalidClaim
from symcal.exact.evaluate import UNDECIDED, truth_at

__all__ = ["ENCODED", "RELAXED", "GENERIC_SCOPES", "Domain", "symbol_domain", "check_symbols", "assumption_constraints",
           "assumptions_hold", "definedness", "guarded", "defined_at", "domain_text", "where_defined",
           "exact_scope"]

# --- the symbols' sympy assumptions: each one encoded, relaxed, or refused --------------------

# assumptions stated to the solver: an integer symbol is a z3 Int, parity a constraint on it, a
# sign a relation (in the query and in every exact re-check)
ENCODED = ("integer", "even", "odd", "positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero")
# assumptions no theory symcal's solvers decide can state (rationality, primality, ...): the query
# ranges over the reals (or the integers) around them, so a proof covers them, and a witness
# counts only once it is shown to satisfy them (assumptions_hold)
RELAXED = ("rational", "irrational", "algebraic", "transcendental", "noninteger", "prime", "composite")
_SIGNS = ("zero", "positive", "negative", "nonnegative", "nonpositive", "nonzero")
_SIGN_OP = {"zero": "=", "positive": ">", "negative": "<", "nonnegative": ">=", "nonpositive": "<=",
            "nonzero": "!="}
_DROP_ORDER = ("algebraic", "transcendental", "noninteger", "irrational", "composite", "rational", "prime")


@dataclass(frozen=True)
class Domain:
    """What symcal makes of one symbol's sympy assumptions (``symbol.assumptions0``, what sympy
    derives included): every one of them is encoded or relaxed, else :func:`symbol_domain` refuses
    the symbol.

    ``integer``: a z3 Int (else a Real); ``parity``: "even", "odd" or None, a z3 constraint;
    ``sign``: the one sign assumption the others follow from (positive, nonnegative, ..., zero,
    nonzero) or None, a relation; ``relaxed``: the assumptions no solver query states, as
    ``(name, value)`` pairs -- a proof over the larger domain covers them, and every witness is
    re-checked against them; ``plain``: declared without real=True (symcal decides over the reals).
    """

    symbol: sympy.Symbol
    integer: bool = False
    parity: str | None = None
    sign: str | None = None
    relaxed: tuple[tuple[str, bool], ...] = ()
    plain: bool = False

    def conditions(self) -> list[str]:
        """The encoded assumptions in words: ``p > 0``, ``n even``."""
        out = [f"{self.symbol} {_SIGN_OP[self.sign]} 0"] if self.sign else []
        if self.parity:
            out.append(f"{self.symbol} {self.parity}")
        return out

    def relaxed_text(self) -> list[str]:
        return [f"{self.symbol} {'' if v else 'not '}{k}" for k, v in self.relaxed]


def _refuse(s: sympy.Symbol, key: str, value: Any, why: str) -> InvalidClaim:
    return InvalidClaim(f"symbol {s} has assumption {key}={value}, which symcal cannot encode: {why}")


def _given(s: sympy.Symbol) -> dict[str, Any]:
    """The assumptions as the user wrote them (sympy >= 1.12 keeps them), else the derived ones."""
    orig = getattr(s, "_assumptions_orig", None)
    return dict(orig) if orig else dict(s.assumptions0)


@functools.lru_cache(maxsize=4096)
def symbol_domain(s: sympy.Symbol) -> Domain:
    """Classify every assumption ``s`` carries (sympy's derived ones included): integer, parity and
    sign are encoded; rational, irrational, algebraic, transcendental, noninteger, prime and
    composite are relaxed (see :class:`Domain`); anything that is not a real number -- complex,
    imaginary, real=False, extended_real (which admits +-oo), infinite -- is refused with an
    :class:`InvalidClaim` naming the symbol and the assumption.  A symbol declared with no
    assumption (or finite=True only) is taken as real: symcal decides over the reals.

    Completeness is checked by sympy itself: a fresh symbol declared with exactly the encoded and
    relaxed assumptions must derive every fact ``s`` carries, else ``s`` is refused."""
    facts = s.assumptions0
    if facts.get("commutative") is False:
        return _raise(_refuse(s, "commutative", False, "symcal decides over the real numbers"))
    if facts.get("real") is not True:
        plain = _facts(frozenset({("finite", True)}))
        if all(plain.get(k) == v for k, v in facts.items()):
            return Domain(s, plain=True)
        given = _given(s)
        key, value = next(((k, v) for k, v in sorted(given.items())
                           if (k, v) not in (("commutative", True), ("finite", True))),
                          next((k, v) for k, v in sorted(facts.items()) if plain.get(k) != v))
        return _raise(_refuse(s, key, value, f"symcal decides over the real numbers; declare it with real=True "
                                             f"(e.g. reals('{s}')) and state any other property as a hypothesis"))
    if facts.get("irrational") is True:  # rational=False on a real symbol says the same
        key, value = ("rational", False) if _given(s).get("rational") is False else ("irrational", True)
        return _raise(_refuse(s, key, value, f"sympy derives false facts from it when expressions are built "
                                             f"({s}**2 is taken to be irrational, so Eq({s}**2, 2) is built as False "
                                             f"although {s} = sqrt(2) satisfies it); declare {s} with real=True"))
    integer = facts.get("integer") is True
    parity = "even" if facts.get("even") is True else "odd" if facts.get("odd") is True else None
    sign = next((k for k in _SIGNS if facts.get(k) is True), None)
    enc: dict[str, bool] = {"real": True}
    if integer:
        enc["integer"] = True
    if parity:
        enc[parity] = True
    if sign:
        enc[sign] = True
    ref = _facts(frozenset(enc.items()))
    relaxed = {k: v for k, v in sorted(facts.items()) if ref.get(k) != v and k in RELAXED}
    derived = _facts(frozenset({**enc, **relaxed}.items()))
    if derived != facts:  # a fact neither encoded, relaxed, nor a consequence of those
        k, v = next((k, v) for k, v in sorted(facts.items()) if derived.get(k) != v)
        return _raise(_refuse(s, k, v, "no solver theory symcal uses states it; state it as a hypothesis"))
    for k in _DROP_ORDER:  # keep the assumptions the others do not imply (rational implies algebraic, ...)
        if k in relaxed:
            rest = {a: b for a, b in relaxed.items() if a != k}
            if _facts(frozenset({**enc, **rest}.items())) == facts:
                relaxed = rest
    return Domain(s, integer, parity, sign, tuple(sorted(relaxed.items())))


def _raise(e: Exception) -> Any:
    raise e


@functools.lru_cache(maxsize=256)
def _facts(declared: frozenset[tuple[str, bool]]) -> dict[str, Any]:
    """What sympy derives from a declaration (a fresh symbol's ``assumptions0``)."""
    return dict(sympy.Symbol("symcal_ref", **dict(declared)).assumptions0)


def check_symbols(exprs: Any) -> list[sympy.Symbol]:
    """The free symbols of ``exprs`` (nested lists, dicts' keys and values), sorted by name, each
    classified by :func:`symbol_domain` (an assumption symcal cannot encode raises InvalidClaim)."""
    syms: set[sympy.Symbol] = set()
    functions: set[str] = set()
    stack = [exprs]
    while stack:
        e = stack.pop()
        if isinstance(e, list | tuple | set | frozenset):
            stack.extend(e)
        elif isinstance(e, dict):
            stack.extend(e.keys())
            stack.extend(e.values())
        elif isinstance(e, sympy.Basic | sympy.MatrixBase):
            syms |= {s for s in e.free_symbols if isinstance(s, sympy.Symbol)}
            functions |= {type(f).__name__ for f in e.atoms(AppliedUndef)}
            _no_truth_valued_symbol(e)
    out = sorted(syms, key=str)
    _distinct_names(out)
    clash = sorted(str(s) for s in out if str(s) in functions)
    if clash:  # a witness names the function's stand-in and the symbol's value by the same name
        raise InvalidClaim(f"a symbol and a function are both named {clash[0]!r}: witnesses and solver queries name "
                           f"them by their names; give them different names")
    for s in out:
        symbol_domain(s)
    return out


_CONNECTIVES = (sympy.And, sympy.Or, sympy.Not, sympy.Xor, sympy.Implies, sympy.Equivalent, sympy.ITE,
                sympy.Nand, sympy.Nor)


def _no_truth_valued_symbol(e: Any) -> None:
    """Refuse a symbol that stands as a truth value (``Or(b, Not(b))``, ``Piecewise((1, b), (0, True))``):
    symcal's symbols are numbers, so no solver query can state it (z3 raised on the query, an error
    verdict); a lone ``b`` as a statement is refused as "not a relation" by the constructors."""
    if not isinstance(e, sympy.Basic) or not e.has(*_CONNECTIVES, sympy.Piecewise):
        return
    for node in e.atoms(*_CONNECTIVES, sympy.Piecewise):
        parts = [c for _, c in node.args] if isinstance(node, sympy.Piecewise) else node.args
        for a in parts:
            if isinstance(a, sympy.Symbol):
                raise InvalidClaim(f"the symbol {a} stands as a truth value in {sympy.sstr(node)[:120]}: "
                                   f"symcal's symbols are numbers (real or integer); state a relation such as "
                                   f"sympy.Eq({a}, 1) on a number instead")


def _described(s: sympy.Symbol) -> str:
    given = {k: v for k, v in _given(s).items() if k != "commutative"}
    kind = "a Dummy" if isinstance(s, sympy.Dummy) else "a Symbol"
    if not given:
        return f"{kind} without assumptions"
    return f"{kind} with {', '.join(f'{k}={v}' for k, v in sorted(given.items()))}"


def _distinct_names(symbols: list[sympy.Symbol]) -> None:
    """Refuse two different symbols with one name (``Symbol('x', real=True)`` beside ``Symbol('x',
    positive=True)`` or ``Symbol('x')``, or two ``Dummy('x')``): sympy keeps them apart, but solver
    variables, witnesses and scopes name a variable by its name, so they would be merged into one."""
    seen: dict[str, sympy.Symbol] = {}
    for s in symbols:
        other = seen.setdefault(str(s), s)
        if other is not s and other != s:
            raise InvalidClaim(f"two different symbols are named {str(s)!r} ({_described(other)}; {_described(s)}): "
                               f"sympy treats them as two variables, but solver queries and witnesses name a "
                               f"variable by its name; create each symbol once, or give them different names")


def assumption_constraints(symbols: Any) -> list[Any]:
    """The sign assumptions sympy keeps on symbols (positive=True, ...) as explicit relations.

    sympy uses them to simplify (``nu > 0`` becomes True when nu is positive), so they must
    reach the solver and the exact re-check as constraints, or a hypothesis would silently
    vanish.  (Integer-ness and parity reach z3 through :class:`Translator`; every assumption
    is re-checked on a witness by :func:`assumptions_hold`.)
    """
    out: list[Any] = []
    rel = {"positive": sympy.StrictGreaterThan, "nonnegative": sympy.GreaterThan, "negative": sympy.StrictLessThan,
           "nonpositive": sympy.LessThan, "zero": sympy.Equality, "nonzero": sympy.Unequality}
    for s in sorted(symbols, key=str):
        if not isinstance(s, sympy.Symbol):
            continue
        sign = symbol_domain(s).sign
        if sign is not None:
            out.append(rel[sign](s, 0, evaluate=False))
    return out


def _rational_of(v: Any) -> Any:
    """``v`` as a Fraction when it is rational, False when it is certainly irrational (a real root
    of an irreducible integer polynomial of degree >= 2), None when that is not known."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, Fraction):
        return v
    if isinstance(v, sympy.Basic):
        if v.is_Rational:
            return Fraction(int(v.p), int(v.q))
        if isinstance(v, sympy.CRootOf):
            try:
                if v.poly.degree() >= 2 and v.poly.is_irreducible:
                    return False
            except (sympy.PolynomialError, NotImplementedError):  # pragma: no cover
                return None
    return None


def _algebraic(v: Any) -> bool:
    return _rational_of(v) is not None or isinstance(v, sympy.CRootOf)


def _relaxed_holds(key: str, v: Any) -> bool | None:
    """Whether the value ``v`` has the property ``key`` (True), has not (False), or unknown (None)."""
    q = _rational_of(v)
    if key == "rational":
        return None if q is None else q is not False
    if key == "irrational":
        return None if q is None else q is False
    if key == "algebraic":
        return True if _algebraic(v) else None
    if key == "transcendental":
        return False if _algebraic(v) else None
    if key == "noninteger":
        return None if q is None else (q is False or q.denominator != 1)
    if key in ("prime", "composite"):
        if q is None:
            return None
        if q is False or q.denominator != 1:
            return False
        n = q.numerator
        return sympy.isprime(n) if key == "prime" else (n > 1 and not sympy.isprime(n))
    return None  # pragma: no cover - RELAXED lists every key


def assumptions_hold(values: dict[Any, Any]) -> tuple[bool | None, str]:
    """Does every value of a witness (Fractions, or exact sympy numbers such as an algebraic
    ``CRootOf``) satisfy every assumption its symbol carries -- integer, parity, sign and the
    relaxed ones (rationality, primality, ...)?  True, False (with the first violated assumption
    named), or None when one cannot be decided (never a guess).  The one check every witness and
    counterexample of an identity, implication, existence or bounded inequality passes."""
    undecided = ""
    for s, v in values.items():
        if not isinstance(s, sympy.Symbol):
            continue
        d = symbol_domain(s)
        checks: list[tuple[str, bool | None]] = []
        if d.integer or d.parity:
            q = _rational_of(v)
            is_int = None if q is None else (q is not False and q.denominator == 1)
            checks.append(("integer=True", is_int))
            if d.parity and is_int:
                assert isinstance(q, Fraction)
                checks.append((f"{d.parity}=True", (q.numerator % 2 == 0) == (d.parity == "even")))
        if d.sign:
            q = _rational_of(v)
            if isinstance(q, Fraction):  # exact rational: compare directly
                t: Any = {"zero": q == 0, "positive": q > 0, "negative": q < 0, "nonnegative": q >= 0,
                          "nonpositive": q <= 0, "nonzero": q != 0}[d.sign]
            else:
                t = truth_at(assumption_constraints([s])[0], {s: v})
            checks.append((f"{d.sign}=True", None if t is UNDECIDED else t))
        checks += [(f"{k}={val}", None if (h := _relaxed_holds(k, v)) is None else h == val) for k, val in d.relaxed]
        for what, ok in checks:
            if ok is False:
                return False, f"{s} = {_show_value(v)} violates {s}'s assumption {what}"
            if ok is None and not undecided:
                undecided = f"whether {s} = {_show_value(v)} satisfies {s}'s assumption {what} is not decided"
    return (None, undecided) if undecided else (True, "")


def _show_value(v: Any) -> str:
    if isinstance(v, sympy.Basic) and not v.is_Rational:
        return f"{sympy.sstr(v)} (~ {sympy.N(v, 12)})"
    return str(v)


# --- where expressions are defined over the reals -----------------------------------------


def definedness(exprs: Any) -> list[Any]:
    """The conditions under which every expression in ``exprs`` is defined over the reals, as
    sympy relations (those sympy already finds true -- e.g. by the symbols' assumptions -- are
    left out): a power with a negative integer exponent needs a non-zero base, a root a base
    >= 0 (> 0 when inverted), another power and a log a base > 0, and a Piecewise without an
    otherwise branch one of its conditions.  A sub-expression of a Piecewise branch needs to be
    defined only where that branch is taken (and a condition only where the earlier ones fail):
    its requirement is :func:`guarded` by them, so ``Piecewise((1/x, x > 0), (0, True))`` is
    defined at every real x; the same for the branches of an ``ITE``, which is what sympy makes of
    a Piecewise inside a relation (``Piecewise((1/x, x > 0), (0, True)) > 1`` in a condition arrives
    as ``ITE(x > 0, 1/x > 1, False)``).  (sympy evaluates some expressions when they are built --
    ``exp(log(x))`` is ``x`` -- and what it removed is no longer there to be listed.)"""
    out: list[Any] = []
    seen: set[Any] = set()
    roots = list(exprs) if isinstance(exprs, list | tuple) else [exprs]
    stack: list[tuple[Any, tuple[Any, ...]]] = [(e, ()) for e in roots]
    while stack:
        e, guards = stack.pop(0)
        if isinstance(e, list | tuple):
            stack.extend((a, guards) for a in e)
            continue
        if isinstance(e, sympy.MatrixBase):
            stack.extend((a, guards) for a in e)
            continue
        if not isinstance(e, sympy.Basic) or not e.args or (e, guards) in seen:
            continue
        seen.add((e, guards))
        if isinstance(e, sympy.Piecewise):
            if e.args[-1].cond is not sympy.true:
                _add(out, guarded(sympy.Or(*[c for _, c in e.args]), guards))
            failed: list[Any] = []
            for expr, cond in e.args:
                stack.append((cond, guards + tuple(failed)))  # a condition is evaluated once the earlier ones failed
                taken = guards + tuple(failed) + (() if cond is sympy.true else (cond,))
                stack.append((expr, taken))
                failed.append(sympy.Not(cond))
            continue
        if isinstance(e, sympy.ITE):  # sympy writes a Piecewise inside a relation as one: read it as one
            c, then, other = e.args
            stack.extend([(c, guards), (then, guards + (c,)), (other, guards + (sympy.Not(c),))])
            continue
        req: Any = None
        if isinstance(e, sympy.Pow) and e.args[0] is not sympy.E:
            base, ex = e.args
            if ex.is_integer:  # 2**(-1), or (-1)**n for an integer symbol n: a non-zero base if it may be negative
                req = None if ex.is_nonnegative else sympy.Ne(base, 0)
            elif ex.is_Rational:
                req = (base > 0) if ex < 0 else (base >= 0)
            else:
                req = base > 0
        elif isinstance(e, sympy.log):
            req = e.args[0] > 0
        elif isinstance(e, sympy.Function):
            req = _function_requirement(e)
        for r in (req if isinstance(req, list) else [req]):
            if r is not None:
                _add(out, guarded(r, guards))
        stack.extend((a, guards) for a in e.args)
    return sorted(out, key=str)  # one order in every process (the scope text is compared across runs)


def _add(out: list[Any], r: Any) -> None:
    if r is not sympy.true and r not in out:
        out.append(r)


def guarded(requirement: Any, guards: tuple[Any, ...] | list[Any]) -> Any:
    """``requirement`` where ``guards`` (the conditions under which a Piecewise branch is taken)
    hold: ``Or(Not(g1), ..., requirement)``, written the same way by :func:`definedness` and by
    the z3 translator's roots (``symcal.backends.translate``), so that each root's domain is found
    among the requirements; ``True`` when that is true for every real value of its one symbol
    (decided exactly by sympy's univariate solver on rational polynomial relations, else kept)."""
    if not guards or requirement is sympy.true:
        return requirement
    g = [c for c in guards if c is not sympy.true]
    if not g:
        return requirement
    r = sympy.Or(sympy.Not(sympy.And(*g)), requirement)
    return sympy.true if _valid_univariate(r) else r


def _valid_univariate(r: Any) -> bool:
    """``r`` holds at every real value of its one free symbol, shown exactly: every relation in it
    is between polynomials with rational coefficients in that symbol, and the set where ``r``
    holds, computed by sympy's univariate inequality solver, is all of the reals.  With several
    symbols, when every relation is about one expression g (``p + q <= 0 or p + q != 0``), g is
    replaced by a fresh real t: valid for every real t is valid for every value of the symbols."""
    if r is sympy.true:
        return True
    syms = r.free_symbols
    if r.atoms(sympy.Function) - r.atoms(sympy.Piecewise) or r.has(sympy.Piecewise):
        return False
    if len(syms) > 1:  # every relation about one expression (p + q > 0 guarding p + q != 0): that expression as t
        rels = list(r.atoms(sympy.Rel))
        if not rels:
            return False
        t = sympy.Dummy("t", real=True)
        one = r.xreplace({rel: type(rel)(sympy.expand(rel.lhs - rel.rhs), 0) for rel in rels})
        for g in sorted({(d := sympy.expand(rel.lhs - rel.rhs)) - d.as_coeff_Add()[0] for rel in rels}, key=str):
            if not g.free_symbols:  # g: a relation's expression without its constant term
                continue
            sub = one.subs(g, t)  # exact: t stands for g's value, which is a real number at every point
            if sub.free_symbols == {t} and _valid_univariate(sub):
                return True
        return False
    if len(syms) != 1:
        return False
    (s,) = syms
    for rel in r.atoms(sympy.Rel):
        try:
            poly = sympy.Poly(rel.lhs - rel.rhs, s)
        except sympy.PolynomialError:
            return False
        if not all(c.is_Rational for c in poly.all_coeffs()) or poly.degree() > 4:
            return False
    x = sympy.Dummy("x", real=True)
    try:
        return bool(r.subs(s, x).as_set() == sympy.S.Reals)
    except Exception:  # noqa: BLE001 - an undecided set keeps the requirement (the conservative side)
        return False


# functions defined at every real argument (an undefined Function such as phi stands for any function)
_TOTAL = ("exp", "sin", "cos", "atan", "acot", "sinh", "cosh", "tanh", "asinh", "sech", "Abs", "sign", "floor",
          "ceiling", "frac", "Heaviside", "erf", "erfc", "re", "im", "conjugate", "KroneckerDelta", "Max", "Min")


def _not_pole(a: Any, first: int) -> Any:
    """``a`` is not one of the integers ``first, first - 1, first - 2, ...`` (the poles of gamma at first = 0)."""
    return sympy.Or(a > first, sympy.Ne(a, sympy.floor(a)))


def _function_requirement(node: Any) -> Any:
    """Where an applied sympy function is defined over the reals: None when everywhere, a relation or a list
    of relations for the partial functions symcal knows (tan needs cos != 0, asin an argument in [-1, 1],
    gamma no pole, Mod a non-zero divisor, ...), and for any other function that its value is real
    (``im(f(x)) = 0``), so that no scope says "all real values" of an expression symcal cannot vouch for."""
    from sympy.core.function import AppliedUndef

    if isinstance(node, AppliedUndef) or type(node).__name__ in _TOTAL:
        return None
    a = node.args[0] if node.args else None
    name = type(node).__name__
    if name in ("tan", "sec"):
        return sympy.Ne(sympy.cos(a), 0)
    if name in ("cot", "csc"):
        return sympy.Ne(sympy.sin(a), 0)
    if name in ("coth", "csch"):
        return sympy.Ne(a, 0)
    if name in ("asin", "acos"):
        return [a >= -1, a <= 1]
    if name in ("asec", "acsc"):
        return sympy.Abs(a) >= 1
    if name == "acosh":
        return a >= 1
    if name == "atanh":
        return [a > -1, a < 1]
    if name == "acoth":
        return sympy.Abs(a) > 1
    if name in ("gamma", "digamma"):
        return _not_pole(a, 0)
    if name == "polygamma" and len(node.args) == 2:
        return _not_pole(node.args[1], 0)
    if name == "factorial":
        return _not_pole(a, -1)
    if name == "loggamma":
        return a > 0
    if name == "LambertW" and len(node.args) == 1:
        return a >= -sympy.exp(-1)
    if name == "Mod":
        return sympy.Ne(node.args[1], 0)
    if name == "zeta" and len(node.args) == 1:
        return sympy.Ne(a, 1)
    if name == "atan2":
        return sympy.Or(sympy.Ne(node.args[0], 0), sympy.Ne(node.args[1], 0))
    if name == "binomial" and all(x.is_integer for x in node.args):
        return None
    return sympy.Eq(sympy.im(node), 0)


def defined_at(requirements: list[Any], values: dict[Any, Any]) -> bool:
    """Every requirement (from :func:`definedness`) certainly holds at the point."""
    return all(truth_at(r, values) is True for r in requirements)


def _requirement_text(r: Any) -> str:
    """``x != 1`` for ``Ne(x - 1, 0)`` when the side is linear in one symbol, else ``g != 0``."""
    if isinstance(r, sympy.Or):
        return " or ".join(_requirement_text(a) for a in r.args)
    if not isinstance(r, sympy.Rel):
        return sympy.sstr(r)
    ops = {sympy.Unequality: "!=", sympy.StrictGreaterThan: ">", sympy.GreaterThan: ">=",
           sympy.StrictLessThan: "<", sympy.LessThan: "<=", sympy.Equality: "="}
    op = ops.get(type(r))
    g = r.lhs - r.rhs
    if op is None:
        return sympy.sstr(r)
    floors = list(g.atoms(sympy.floor))
    if op == "!=" and len(floors) == 1 and sympy.expand(g - (floors[0].args[0] - floors[0])) == 0:
        return f"{sympy.sstr(floors[0].args[0])} not an integer"  # a pole of gamma: Ne(x, floor(x))
    syms = g.free_symbols
    if len(syms) == 1:
        (s,) = syms
        try:
            p = sympy.Poly(g, s)
        except sympy.PolynomialError:
            p = None
        if p is not None and p.degree() == 1 and all(c.is_Rational for c in p.all_coeffs()):
            a, b = p.all_coeffs()
            flip = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
            return f"{s} {op if a > 0 else flip.get(op, op)} {sympy.sstr(-b / a)}"
    return f"{sympy.sstr(g)} {op} 0"


def domain_text(symbols: Any, defined: Any = (), side: str = "every expression is", *,
                existential: bool = False) -> str:
    """What a decision over ``symbols`` covers, in words: ``all real values of p, x and integer
    values of n with p > 0, n even`` (``some ...`` when ``existential``; a long list is cut after
    8 names), the relaxed assumptions with how they were handled, and, when ``defined`` lists
    conditions (:func:`definedness`), ``where <side> defined (x != 1)``."""
    doms = [symbol_domain(s) for s in sorted(symbols, key=str) if isinstance(s, sympy.Symbol)]
    if not doms:
        head = "the expressions as written (no free symbols)"
    else:
        reals = [str(d.symbol) for d in doms if not d.integer]
        ints = [str(d.symbol) for d in doms if d.integer]
        head = ("some " if existential else "all ") + " and ".join(
            ([f"real values of {_names(reals)}"] if reals else []) + ([f"integer values of {_names(ints)}"]
                                                                      if ints else []))
        cons = [c for d in doms for c in d.conditions()]
        if cons:
            head += f" with {_names(cons)}"
        relaxed = [c for d in doms for c in d.relaxed_text()]
        if relaxed:
            head += (f" ({', '.join(relaxed)}: checked exactly on the witness, as no solver query states it)"
                     if existential else
                     f" ({', '.join(relaxed)}: no solver query states it, so the claim was decided for every real "
                     "or integer value, which covers it)")
    if defined:
        head += f" {where_defined(defined, side)}"
    return head


def where_defined(defined: Any, side: str = "every expression is") -> str:
    """``where <side> defined (x != 1, ...)``: the requirements of :func:`definedness` in words
    (the first four and how many more)."""
    texts = list(dict.fromkeys(_requirement_text(r) for r in defined))  # n + 1 > 0 and n > -1 read alike
    shown = texts[:4]
    more = f" and {len(texts) - 4} more" if len(texts) > 4 else ""
    return f"where {side} defined ({', '.join(shown)}{more})"


def _names(items: list[str], shown: int = 8) -> str:
    """``a, b, c`` -- the first ``shown`` and how many more."""
    if len(items) <= shown:
        return ", ".join(items)
    return f"{', '.join(items[:shown - 2])} and {len(items) - shown + 2} more"


GENERIC_SCOPES = ("all real values of its symbols", "all real values of the free symbols")


def exact_scope(scope: str, text: str) -> str:
    """``scope`` with its generic phrase ("all real values of ...") replaced by ``text``, what was
    actually decided (:func:`domain_text`); ``text`` appended when there is no such phrase."""
    for g in GENERIC_SCOPES:
        if g in scope:
            return scope.replace(g, text, 1)
    return f"{scope}; {text}" if scope else text
