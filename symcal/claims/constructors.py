"""Constructor functions: the only way claims are built (ARCHITECTURE.md, convention 3).

Every constructor takes the claim id, a :class:`Citation` (``cite=``), the outcome the
source asserts (``expected=``, default the natural one for the kind) and, for a printed
statement that symcal refutes, a recorded :class:`Finding`.
"""

from __future__ import annotations

import functools
import numbers
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from symcal.claims.arguments import MAX_SIZES
from symcal.claims.core import (
    ID_PATTERN,
    MAX_CASES,
    MAX_ID,
    CasesSpec,
    Citation,
    Claim,
    ExistsSpec,
    Finding,
    FiniteSpec,
    IdentitySpec,
    ImpliesSpec,
    Local,
    NodeSpec,
    NumericOutcome,
    NumericSpec,
    Sizes,
    as_builder,
    case_hypothesis_names,
    finite_items,
    formula_truth,
    validate_cases,
)
from symcal.errors import InvalidClaim, SymcalError, invalid, shown, wrong_type
from symcal.exact.numbers import rational_hint
from symcal.verdicts import Status

__all__ = [
    "calibrated",
    "identity",
    "implies",
    "implies_cases",
    "unique_minimiser",
    "exists",
    "node_implies",
    "all_sizes",
    "finite_check",
    "numeric",
    "reals",
    "bounded_inequality",
]


MAX_SYMBOLS = 10_000  # symbols of one reals(...) call


def reals(names: str) -> tuple[sympy.Symbol, ...]:
    """Real symbols, e.g. ``p, q = reals("p q")`` (names separated by spaces or commas, each a
    Python identifier; sympy's ranges ``"x:3"`` give ``x0, x1, x2``)."""
    expected = "symbol names separated by spaces or commas, e.g. 'p q'"
    if not isinstance(names, str):
        raise wrong_type("names", names, expected)
    if not names.strip():
        raise invalid("names", names, expected)
    if ":" in names:  # sympy's ranges: x:3, x(:2)(:3), a:d -- at most MAX_SYMBOLS symbols
        count = 1
        for n in re.findall(r"\d+", names):
            count *= max(int(n), 1) if len(n) < 10 else MAX_SYMBOLS + 1
        if count > MAX_SYMBOLS:
            raise invalid("names", names, f"at most {MAX_SYMBOLS:,} symbols")
    try:
        out = sympy.symbols(names, real=True)
    except (ValueError, TypeError, IndexError) as e:
        raise invalid("names", names, expected, str(e)) from None
    out = out if isinstance(out, tuple) else (out,)
    bad = [s for s in out if not (isinstance(s, sympy.Symbol) and s.name.isidentifier())]
    if bad or not out:
        raise invalid("names", names, expected + (f" ({bad[0]} is not an identifier)" if bad else ""))
    return out


def _id(id: Any) -> str:
    """The claim id, refused before anything else is looked at (the messages below name it)."""
    if not isinstance(id, str) or len(id) > MAX_ID or not ID_PATTERN.fullmatch(id):
        raise InvalidClaim(f"id={shown(id)}: expected '<firstauthor><year>.<label>' in lower case (at most {MAX_ID} "
                           f"characters), e.g. 'duchi2010.lemma14'")
    return id


def _common(id: str, *, statement: Any = "", scope: Any = "", finding: Any = None, cite: Any = None) -> None:
    """The arguments every constructor shares: ``statement`` and ``scope`` strings, ``finding`` a
    :class:`Finding` or None, ``cite`` a :class:`Citation`."""
    for name, v in (("statement", statement), ("scope", scope)):
        if not isinstance(v, str):
            raise wrong_type(name, v, f"a string for {id}")
    if finding is not None and not isinstance(finding, Finding):
        raise wrong_type("finding", finding,
                         f"a Finding(what, counterexample, corrected, finding_class=...) or None for {id}")
    _cite(cite, id)


def _digit_limit() -> int:
    """Python's limit on the digits of an int it will print (0: none)."""
    return sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0


def _too_large(n: int, limit: int) -> bool:
    return limit > 0 and abs(n).bit_length() > limit * 3.3219280948873626  # log2(10)


def _numbers(value: Any, param: str, claim_id: str) -> None:
    """Refuse an integer (or a rational's numerator/denominator) with more digits than Python will
    print (4300 by default): such a claim could be neither shown, written as SMT-LIB nor reported; and an
    expression nested deeper than ``MAX_EXPR_DEPTH`` (:func:`_not_too_deep`).  Functions of the size m are
    checked when they are built."""
    limit = _digit_limit()
    stack, seen = [value], 0
    while stack and seen < 100_000:
        e = stack.pop()
        seen += 1
        if isinstance(e, bool):
            continue
        if isinstance(e, int | Fraction):
            parts = [e] if isinstance(e, int) else [e.numerator, e.denominator]
        elif isinstance(e, sympy.Basic | sympy.MatrixBase):
            _not_too_deep(e, param, claim_id)
            if not limit:
                continue
            parts = [n for r in e.atoms(sympy.Rational) for n in (r.p, r.q)]
        elif isinstance(e, list | tuple | set | frozenset):
            stack.extend(e)
            continue
        elif isinstance(e, Mapping):
            stack.extend(e.keys())
            stack.extend(e.values())
            continue
        else:
            continue
        big = next((n for n in parts if _too_large(n, limit)), None)
        if big is not None:
            raise invalid(param, f"<a number of about {int(abs(big).bit_length() / 3.3219280948873626):,} digits>",
                          f"numbers of at most {limit} digits for {claim_id}",
                          "state it with a symbol and a hypothesis instead")


MAX_EXPR_DEPTH = 250  # an expression tree at most this deep: sympy's own functions recurse once per level or more


def _not_too_deep(e: Any, param: str, claim_id: str) -> None:
    """Refuse an expression nested deeper than ``MAX_EXPR_DEPTH`` (10,000 unevaluated ``Add``s inside each
    other): every sympy function on it would end in a RecursionError.  Measured without recursion."""
    stack = [(e, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_EXPR_DEPTH:
            raise invalid(param, "<an expression nested too deep to show>",
                          f"an expression nested at most {MAX_EXPR_DEPTH} levels deep for {claim_id}",
                          "build it with evaluate=True (sympy flattens sums and products) or state it in parts")
        args = node.args if isinstance(node, sympy.Basic) else tuple(node) if isinstance(node, sympy.MatrixBase) else ()
        stack.extend((a, depth + 1) for a in args if isinstance(a, sympy.Basic))


MAX_NESTING = 32  # lists of lists of relations, at most this deep
_TOO_DEEP = "<lists nested too deep to show>"


def _expr(value: Any, param: str, claim_id: str, depth: int = 0) -> None:
    """``value`` is a sympy expression, an exact number or a function of the size m."""
    if callable(value) and not isinstance(value, sympy.Basic):
        return
    if isinstance(value, list | tuple):
        if depth >= MAX_NESTING:
            raise invalid(param, _TOO_DEEP, f"lists nested at most {MAX_NESTING} deep for {claim_id}")
        for k, e in enumerate(value):
            _expr(e, f"{param}[{k}]", claim_id, depth + 1)
        return
    if isinstance(value, bool) or not isinstance(value, sympy.Basic | sympy.MatrixBase | numbers.Rational | float):
        raise wrong_type(param, value, f"a sympy expression or an exact number (or a function of the size m) "
                         f"for {claim_id}", "build expressions from symbols, e.g. p, q = symcal.reals('p q')"
                         if isinstance(value, str) else None)
    _numbers(value, param, claim_id)


def _relations(value: Any, param: str, claim_id: str, depth: int = 0) -> None:
    """``value`` is a sympy relation or boolean, a list of them, or a function of the size m."""
    if callable(value) and not isinstance(value, sympy.Basic):
        return
    if depth >= MAX_NESTING:
        raise invalid(param, _TOO_DEEP, f"lists nested at most {MAX_NESTING} deep for {claim_id}")
    items = value if isinstance(value, list | tuple) else [value]
    for k, e in enumerate(items):
        where = f"{param}[{k}]" if isinstance(value, list | tuple) else param
        if isinstance(e, list | tuple):
            _relations(e, where, claim_id, depth + 1)
            continue
        if isinstance(e, bool | float):
            continue  # refused by _strict with its own advice where the value is a statement
        if not (isinstance(e, sympy.Basic) and (e.is_Relational or e.is_Boolean)):
            raise wrong_type(where, e, f"a sympy relation or boolean, e.g. x > 0 or sympy.Eq(x, 1) for {claim_id}")
    if depth == 0:
        _numbers(value, param, claim_id)


def _expected(value: str | Status | None, default: Status) -> Status:
    if value is None:
        return default
    try:
        return Status.parse(value)
    except (ValueError, TypeError):
        words = ", ".join(s.value for s in Status)
        raise InvalidClaim(f"expected={shown(value)}: expected one of {words}") from None


def _sizes(sizes: Any, claim_id: str) -> Sizes | None:
    if sizes is None or isinstance(sizes, Sizes):
        return sizes
    if isinstance(sizes, str | bytes):
        raise wrong_type("sizes", sizes, f"(low, high) sizes for {claim_id}")
    try:
        lo, hi = sizes
    except (TypeError, ValueError):
        raise invalid("sizes", sizes, f"(low, high) sizes for {claim_id}") from None
    if not (isinstance(lo, int) and isinstance(hi, int)) or isinstance(lo, bool) or isinstance(hi, bool) \
            or lo < 1 or lo > hi:
        raise invalid("sizes", sizes, f"integers 1 <= low <= high for {claim_id}")
    if hi - lo + 1 > MAX_SIZES:
        raise invalid("sizes", sizes, f"at most {MAX_SIZES:,} sizes in the default sweep of {claim_id}")
    return Sizes(minimum=lo, default=(lo, hi))


def _cite(cite: Any, claim_id: str) -> Citation:
    if not isinstance(cite, Citation):
        raise InvalidClaim(f"{claim_id}: cite={shown(cite)}: expected a Citation(paper, location, quote)")
    if not all(isinstance(x, str) and x.strip() for x in (cite.paper, cite.location)) or not isinstance(
        cite.quote, str
    ):
        raise InvalidClaim(f"{claim_id}: cite={shown(cite)}: expected a non-empty paper and location (strings)")
    return cite


def _strict(value: Any, param: str, claim_id: str) -> None:
    """Refuse what would silently change the claim: a Python bool where a relation belongs
    (``x == y`` compares expressions structurally and gives False), and float constants in an
    exact statement (``x > 0.1``).  Functions of the size m are checked when they are built."""
    if callable(value) and not isinstance(value, sympy.Basic):
        return
    items = value if isinstance(value, list | tuple) else [value]
    for k, e in enumerate(items):
        where = f"{param}[{k}]" if isinstance(value, list | tuple) else param
        if isinstance(e, list | tuple):
            _strict(e, where, claim_id)
            continue
        if isinstance(e, bool):  # sympy's own true/false (a relation that evaluated) are fine
            raise invalid(where, e, f"a sympy relation for {claim_id}, not the truth value {bool(e)}",
                          "did you write == ? use sympy.Eq(lhs, rhs) (Python's == compares expressions "
                          "structurally)")
        if isinstance(e, float):
            raise invalid(where, e, f"an exact value for {claim_id}, not a float",
                          f"use {rational_hint(e)}")
        if isinstance(e, sympy.Basic):
            floats = e.atoms(sympy.Float)
            if floats:
                f0 = next(iter(floats))
                raise invalid(where, sympy.sstr(e), f"an exact statement for {claim_id}, without the float {f0}",
                              f"write {rational_hint(f0)}")


def _assumptions(value: Any, param: str, claim_id: str) -> None:
    """Refuse a symbol whose sympy assumptions symcal cannot encode (complex, imaginary, real=False,
    extended_real, ...), naming the parameter, the symbol and the assumption; every other assumption
    is encoded in the query or re-checked on witnesses
    (:func:`symcal.exact.assumptions.symbol_domain`).  Functions of the size m are checked when
    the backend builds them."""
    if callable(value) and not isinstance(value, sympy.Basic):
        return
    from symcal.exact.assumptions import check_symbols

    try:
        check_symbols([value])
    except InvalidClaim as e:
        raise InvalidClaim(f"{claim_id}: {param}: {e}") from None


def _hyp_dict(hypotheses: Any, claim_id: str) -> dict[str, Callable[[int | None], Any]]:
    if hypotheses is None:
        return {}
    if not isinstance(hypotheses, Mapping):
        raise invalid("hypotheses", hypotheses, f"a dict name -> list of relations for {claim_id}")
    out: dict[str, Callable[[int | None], Any]] = {}
    for name, value in hypotheses.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise invalid("hypotheses", name, f"hypothesis names that are identifiers for {claim_id}")
        _relations(value, f"hypotheses[{name!r}]", claim_id)
        _strict(value, f"hypotheses[{name!r}]", claim_id)
        _assumptions(value, f"hypotheses[{name!r}]", claim_id)
        out[name] = as_builder(value)
    return out


def identity(
    id: str,
    lhs: Any,
    rhs: Any,
    *,
    cite: Citation,
    statement: str = "",
    conditions: Any = (),
    sizes: Any = None,
    expected: str | Status | None = None,
    finding: Finding | None = None,
    scope: str = "",
) -> Claim:
    """``lhs == rhs`` for all real values of the free symbols within their sympy assumptions
    (integer, even, positive, ...), wherever both sides are defined over the reals, and for every
    function that an undefined sympy ``Function`` (``phi(x)``) stands for: a false one is
    refuted by a concrete polynomial in its place at an exact point.  A proved verdict's scope
    says exactly that: ``identity for all real x where both sides are defined (x != 1)``.

    ``lhs``/``rhs`` are sympy expressions, or functions of the size ``m`` with ``sizes``.
    ``conditions`` restricts the points used to look for a refutation (e.g. ``x > 0`` when
    a square root appears).  ``scope`` states what a proof covers beyond the identity itself
    (e.g. "all K >= 2"), shown in the scope of a proved verdict.  A symbol that is not real
    (complex=True, ...) is refused.  sympy evaluates expressions when they are built
    (``exp(log(x))`` is ``x``): when both sides come out as the same expression the verdict
    says so in a warning.
    """
    _common(_id(id), statement=statement, scope=scope, finding=finding, cite=cite)
    _expr(lhs, "lhs", id)
    _expr(rhs, "rhs", id)
    _relations(conditions, "conditions", id)
    _strict(lhs, "lhs", id)
    _strict(rhs, "rhs", id)
    _strict(conditions, "conditions", id)  # x > 0.5 would restrict the points (and z3's query) to a double's value
    for name, v in (("lhs", lhs), ("rhs", rhs), ("conditions", conditions)):
        _assumptions(v, name, id)
    _assumptions([lhs, rhs, conditions], "lhs, rhs and conditions", id)  # one name, one symbol across them
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="identity",
        statement=statement or (f"{lhs} = {rhs}" if not callable(lhs) else id),
        spec=IdentitySpec(as_builder(lhs), as_builder(rhs), as_builder(conditions)),
        expected=_expected(expected, Status.PROVED),
        sizes=_sizes(sizes, id),
        finding=finding,
        method="sympy: residual lhs - rhs simplified; exact random rational points",
        scope=scope,
    )


def implies(
    id: str,
    *,
    hypotheses: Mapping[str, Any] | None,
    conclusion: Any,
    cite: Citation,
    statement: str = "",
    sizes: Any = None,
    expected: str | Status | None = None,
    finding: Finding | None = None,
    scope: str = "",
) -> Claim:
    """For all real (or integer) values of the free symbols: hypotheses => conclusion.

    ``hypotheses`` maps a name to a list of sympy relations (or a function of ``m``
    returning one); ``conclusion`` is a sympy boolean (or a function of ``m``).
    Decided by z3 on the negated query; counterexamples are re-checked exactly.  ``scope``
    states what a proof covers beyond the query (shown in the scope of a proved verdict).

    Every sympy assumption of a symbol is part of the claim: integer, even/odd and the signs are
    stated to z3; rational, prime, ... are not (no solver theory states them), so a proof covers
    them and a counterexample counts only once it satisfies them; a symbol that is not real
    (complex=True, ...) is refused.  A conclusion sympy already evaluated to True when it was
    built is decided as written, with a warning that it states nothing.
    """
    _common(_id(id), statement=statement, scope=scope, finding=finding, cite=cite)
    if isinstance(conclusion, list | tuple | set):
        raise invalid("conclusion", shown(conclusion, 80), f"one sympy relation or boolean for {id}",
                      "a list is not read as a conjunction here: write sympy.And(*conditions)")
    _relations(conclusion, "conclusion", id)
    _strict(conclusion, "conclusion", id)
    _assumptions(conclusion, "conclusion", id)
    if isinstance(hypotheses, Mapping):  # one name, one symbol across hypotheses and conclusion
        _assumptions([list(hypotheses.values()), conclusion], "hypotheses and conclusion", id)
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="implies",
        statement=statement or id,
        spec=ImpliesSpec(_hyp_dict(hypotheses, id), as_builder(conclusion)),
        expected=_expected(expected, Status.PROVED),
        hypothesis_names=tuple(_hyp_dict(hypotheses, id)),
        sizes=_sizes(sizes, id),
        finding=finding,
        method="z3 on the negated query; models re-checked in exact arithmetic",
        scope=scope,
    )


def implies_cases(
    id: str,
    *,
    cases: Any,
    cite: Citation,
    statement: str = "",
    sizes: Any = None,
    expected: str | Status | None = None,
    finding: Finding | None = None,
    scope: str = "",
    domain: str = "",
) -> Claim:
    """A finite family of implications, each decided by its own SMT query, with full evidence.

    ``cases`` is a list, or a function of the size ``m`` returning a list, of
    ``(label, hypotheses, conclusion)``: ``label`` a distinct string naming the case
    (``"n=3, k=1, ties=(1, 1, 2)"``), ``hypotheses`` a dict name -> list of sympy relations,
    ``conclusion`` a sympy boolean.  Proved iff every case's negated query is unsat (at every
    size); refuted as soon as one case has a counterexample, re-checked in exact arithmetic on
    that case's own expressions, and the verdict names the case; unknown (never proved) when a
    case is undecided or the time budget runs out.  The evidence of a proof is one SMT-LIB2
    query per case (a ``Composite`` labelled by case), so cvc5's second opinion, ``--json`` and
    ``--smtlib`` cover every case.  An empty family is an error.  A hypothesis name used by
    several cases is dropped from all of them by ``necessity`` and the ``drop`` mutant.
    ``domain`` says in words what the cases range over.
    """
    _common(_id(id), statement=statement, scope=scope, finding=finding, cite=cite)
    sz = _sizes(sizes, id)
    if callable(cases):
        build: Callable[[int | None], Any] = cases
    else:
        if sz is not None:
            raise invalid("cases", "a fixed list", f"a function of the size m when sizes= is given for {id}")
        fixed = validate_cases(cases, id)
        _numbers([[list(h.values()), c] for _, h, c in fixed], "cases", id)
        _assumptions([[list(h.values()), c] for _, h, c in fixed], "cases", id)
        build = lambda m: fixed  # noqa: E731
    if not isinstance(domain, str):
        raise invalid("domain", domain, f"a string saying what the cases range over for {id}")
    if not isinstance(scope, str):
        raise invalid("scope", scope, f"a string saying what a proof covers for {id}")
    names = case_hypothesis_names(validate_cases(build(sz.default[0] if sz else None), id,
                                                 sz.default[0] if sz else None))
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="implies_cases",
        statement=statement or id,
        spec=CasesSpec(build, domain),
        expected=_expected(expected, Status.PROVED),
        hypothesis_names=names,
        sizes=sz,
        finding=finding,
        method=("z3 on each case's negated query (one SMT-LIB2 query per case, one shared time budget); "
                "models re-checked in exact arithmetic on the case's own expressions"),
        scope=scope,
    )


MAX_MINIMISER_CASES = 20_000  # the competitor (or pair) cases of one unique_minimiser claim, over all families


def _risks(risk: Any, over: list[Any], claim_id: str) -> dict[int, Any]:
    """``risk(t)`` (or ``risk[t]``) for every prediction ``t`` of ``over``, by position, each a
    sympy expression or an exact number, floats refused."""
    out: dict[int, Any] = {}
    for k, t in enumerate(over):
        try:
            r = risk[t] if isinstance(risk, Mapping) else risk(t)
        except SymcalError:
            raise
        except Exception as e:  # noqa: BLE001 - the user's own function or dict
            raise invalid("risk", shown(risk, 60), f"a function (or dict) giving the risk of every prediction in "
                          f"over for {claim_id}", f"at {t!r}: {type(e).__name__}: {e}") from None
        where = f"risk({t!r})"
        if isinstance(r, int) and not isinstance(r, bool):
            r = sympy.Integer(r)
        elif isinstance(r, Fraction):
            r = sympy.Rational(r.numerator, r.denominator)
        _expr(r, where, claim_id)
        if callable(r) and not isinstance(r, sympy.Basic):
            raise wrong_type(where, r, f"a sympy expression or an exact number for {claim_id}")
        _strict(r, where, claim_id)
        _assumptions(r, where, claim_id)
        out[k] = sympy.sympify(r)
    return out


def unique_minimiser(
    id: str,
    *,
    risk: Callable[[Any], Any] | Mapping[Any, Any],
    over: Iterable[Any],
    family: Any,
    cite: Citation,
    best: Any = None,
    statement: str = "",
    expected: str | Status | None = None,
    finding: Finding | None = None,
    scope: str = "",
) -> Claim:
    """For every distribution p of ``family``, the set of minimisers of the risk over the finite
    prediction set ``over`` is exactly ``{best}`` -- or, with ``best=None``, has exactly one element.

    ``risk(t)`` (or ``risk[t]``) is the risk of the prediction ``t`` (an order, a score vector, any
    hashable value) as a sympy expression in the family's symbols.  ``family`` is a dict name ->
    list of sympy relations describing P (e.g. the simplex and a noise condition; a single
    distribution is a family of equalities), or a list of ``(label, dict)`` for a finite union of
    such families.  The claim compiles to an :func:`implies_cases` family over linear / polynomial
    real arithmetic, so its evidence, the exact re-check of counterexamples, ``--certify``,
    ``necessity`` and the mutants are those of every implication:

    * with ``best``: one case per other prediction ``t``: "t is not a minimiser" (some u has a
      strictly smaller risk).  Over a finite set the minimisers are never empty, so these cases
      together say argmin = {best}.  A refutation names the case -- a second minimiser t -- and
      the distribution p at which t is a minimiser, re-checked exactly.
    * with ``best=None``: one case per unordered pair {t, t'}: "t and t' are not both
      minimisers"; a refutation names both and p.
    """
    _common(_id(id), statement=statement, scope=scope, finding=finding, cite=cite)
    if isinstance(over, str | bytes | Mapping) or not isinstance(over, Iterable):
        raise wrong_type("over", over, f"a finite list of predictions (orders, scores, ...) for {id}")
    preds = finite_items(over, "over", id, MAX_MINIMISER_CASES)
    if len(preds) < 2:
        raise invalid("over", shown(preds, 80), f"at least two predictions for {id} (one is always the minimiser)")
    try:
        distinct = len(set(preds)) == len(preds)
    except TypeError:
        raise invalid("over", shown(preds, 80), f"hashable predictions (tuples, not lists) for {id}") from None
    labels = [repr(t) for t in preds]
    if not distinct or len(set(labels)) != len(labels):
        raise invalid("over", shown(preds, 80), f"distinct predictions for {id}")
    if best is not None:
        try:
            b = preds.index(best)
        except ValueError:
            raise invalid("best", shown(best, 80), f"one of the predictions in over for {id}") from None
    if not (callable(risk) or isinstance(risk, Mapping)) or isinstance(risk, sympy.Basic):
        raise wrong_type("risk", risk, f"a function t -> the risk of prediction t (a sympy expression) for {id}")
    if isinstance(family, Mapping):
        families: list[tuple[str, Any]] = [("", family)]
    elif isinstance(family, list | tuple) and family and all(
            isinstance(f, list | tuple) and len(f) == 2 and isinstance(f[0], str) and isinstance(f[1], Mapping)
            for f in family):
        families = [(f"{label}: ", hyps) for label, hyps in family]
    else:
        raise wrong_type("family", shown(family, 80), f"a dict name -> list of relations describing the "
                         f"distributions, or a non-empty list of (label, dict) for {id}")
    per = len(preds) - 1 if best is not None else len(preds) * (len(preds) - 1) // 2
    if per * len(families) > MAX_MINIMISER_CASES:
        raise invalid("over", f"{len(preds)} predictions x {len(families)} families",
                      f"at most {MAX_MINIMISER_CASES:,} cases for {id} ({per * len(families):,} here)")
    for _, hyps in families:
        _hyp_dict(hyps, id)  # names and relations, as for implies
    r = _risks(risk, preds, id)
    _assumptions([list(r.values()), [list(h.values()) for _, h in families]], "risk and family", id)

    def not_minimiser(k: int) -> Any:  # some other prediction has a strictly smaller risk
        return sympy.Or(*(r[u] < r[k] for u in range(len(preds)) if u != k))

    cases = []
    for prefix, hyps in families:
        h = {name: (list(v) if isinstance(v, list | tuple) else [v]) for name, v in hyps.items()}
        if best is not None:
            cases += [(f"{prefix}second minimiser {labels[k]}", h, not_minimiser(k))
                      for k in range(len(preds)) if k != b]
        else:
            cases += [(f"{prefix}two minimisers {labels[i]} and {labels[j]}", h,
                       sympy.Or(not_minimiser(i), not_minimiser(j)))
                      for i in range(len(preds)) for j in range(i + 1, len(preds))]
    what = f"exactly {{{labels[b]}}}" if best is not None else "a single prediction"
    claim = implies_cases(
        id, cases=cases, cite=cite, expected=expected, finding=finding, scope=scope,
        statement=statement or f"for every p in the family, the minimisers of the risk over {len(preds)} "
                               f"predictions are {what}",
        domain=(f"the {len(preds) - 1} predictions other than {labels[b]}" if best is not None
                else f"the {per} pairs of the {len(preds)} predictions")
               + (f", in each of {len(families)} families" if len(families) > 1 else ""))
    return claim.replace(method=(
        "argmin over a finite set: one implication per " + ("other prediction t ('t is not a minimiser')"
                                                            if best is not None else
                                                            "pair {t, t'} ('not both minimisers')")
        + ", each decided by z3 on its negated query; models re-checked in exact arithmetic"))


def exists(
    id: str,
    *,
    constraints: Mapping[str, Any],
    cite: Citation,
    witness: Any = None,
    statement: str = "",
    sizes: Any = None,
    expected: str | Status | None = None,
    finding: Finding | None = None,
) -> Claim:
    """There are real values of the free symbols satisfying every constraint.

    With ``witness`` (a dict symbol -> exact value, or a function of ``m``) the witness is
    checked exactly; without, z3 searches and its model is turned into small rationals
    and re-checked.
    """
    _common(_id(id), statement=statement, finding=finding, cite=cite)
    if witness is not None and not callable(witness) and not isinstance(witness, Mapping):
        raise wrong_type("witness", witness, f"a dict symbol -> exact value (or a function of the size m) for {id}")
    if isinstance(witness, Mapping):
        _numbers(witness, "witness", id)
    cons = _hyp_dict(constraints, id)
    if isinstance(constraints, Mapping):  # one name, one symbol across them
        _assumptions(list(constraints.values()), "constraints", id)
    if not cons:
        raise invalid("constraints", constraints, f"at least one constraint for {id}")
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="exists",
        statement=statement or id,
        spec=ExistsSpec(cons, as_builder(witness) if witness is not None else None),
        expected=_expected(expected, Status.WITNESSED),
        hypothesis_names=tuple(cons),
        sizes=_sizes(sizes, id),
        finding=finding,
        method="exact witness" if witness is not None else "z3 search; model re-checked exactly",
    )


def node_implies(
    id: str,
    *,
    hypotheses: Mapping[str, Local],
    conclusion: Local,
    cite: Citation,
    statement: str = "",
    sizes: Any = (3, 12),
    symmetric: bool = True,
    expected: str | Status | None = None,
    finding: Finding | None = None,
) -> Claim:
    """A statement about edge weights a_ij >= 0 on m nodes, for each m in ``sizes``.

    Each hypothesis is a :class:`Local` constraint required of every ordered tuple of
    distinct nodes; the conclusion is a :class:`Local` claimed for every ordered tuple.
    Sizes start at the conclusion's arity; a hypothesis on more nodes than m has no instance
    at m and holds vacuously (e.g. transitivity at m = 2).  ``symmetric=True`` declares that the
    functions treat all nodes alike (they never compare labels); the engine then fixes the
    failing tuple by symmetry, uses difference variables when only ``a.d`` is used,
    instantiates hypotheses lazily, and can prove the claim for all m by a local lemma (:func:`all_sizes`).
    """
    _common(_id(id), statement=statement, finding=finding, cite=cite)
    if not isinstance(symmetric, bool):
        raise wrong_type("symmetric", symmetric, f"True or False for {id}")
    if sizes is None:
        raise invalid("sizes", sizes, f"(low, high) sizes for {id} (a node claim is stated for m nodes)")
    if not isinstance(conclusion, Local):
        raise invalid("conclusion", conclusion, "a Local(arity, fn) constraint")
    if not isinstance(hypotheses, Mapping):
        raise invalid("hypotheses", hypotheses, f"a dict name -> Local(arity, fn) for {id}")
    for name, h in hypotheses.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise invalid("hypotheses", name, f"hypothesis names that are identifiers for {id}")
        if not isinstance(h, Local):
            raise invalid(f"hypotheses[{name!r}]", h, "a Local(arity, fn) constraint")
    sz = _sizes(sizes, id)
    assert sz is not None
    # a hypothesis on more nodes than m has no instance at m and holds vacuously (transitivity on
    # m = 2 nodes); a conclusion on more nodes than m would claim nothing, so sizes start at its arity
    need = conclusion.arity
    if sz.minimum < need:
        raise invalid("sizes", sizes, f"sizes >= {need} (the conclusion's tuple arity) for {id}")
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="node",
        statement=statement or id,
        spec=NodeSpec(dict(hypotheses), conclusion, symmetric),
        expected=_expected(expected, Status.PROVED),
        hypothesis_names=tuple(hypotheses),
        sizes=sz,
        finding=finding,
        method=(
            "z3 per size: difference variables, symmetry-fixed failing tuple, "
            "lazily instantiated hypotheses; counterexamples re-checked exactly"
        ),
    )


def all_sizes(claim: Claim, id: str, *, statement: str = "") -> Claim:
    """The same node claim, decided for every size at once by a local lemma."""
    from symcal.claims.core import Claim as _Claim

    if not isinstance(claim, _Claim):
        raise wrong_type("claim", claim, "a node claim (built with node_implies)")
    _common(_id(id), statement=statement, cite=claim.citation)
    if claim.kind != "node":
        raise invalid("claim", claim.id, "a node claim (built with node_implies)")
    return claim.replace(
        id=id,
        strategy="local_lemma",
        statement=statement or f"{claim.statement} (all sizes)",
        method=(
            "local lemma: the conclusion's sums split into a base term on the fixed nodes and "
            "one term per other node; each is signed by z3 from the hypotheses on those nodes"
        ),
    )


def finite_check(
    id: str,
    *,
    cases: Callable[[int | None], Iterable[Any]] | Iterable[Any],
    holds: Callable[[Any], Any] | None = None,
    domain: str,
    cite: Citation,
    statement: str = "",
    sizes: Any = None,
    describe: Callable[[Any], Any] | None = None,
    sample: str = "",
    expected: str | Status | None = None,
    finding: Finding | None = None,
    formula: Callable[[Any], Any] | None = None,
    kernel: Callable[[Any], Any] | None = None,
) -> Claim:
    """``holds(case)`` for every case of a finite domain, evaluated in exact arithmetic.

    ``cases`` is an iterable or a function of the size ``m``; ``holds`` returns a bool or
    ``(bool, detail)``.  An empty domain is an error, never a vacuous pass.

    Instead of ``holds``, a case's statement can be given as a ``formula``: ``formula(case)``
    returns ``(conditions, values)``, sympy relations (a list is their conjunction) over symbols
    that ``values`` binds to exact rationals -- the case's data, e.g. a table's printed numbers.
    It is decided exactly (rationals exactly, exp/log/roots by rigorous enclosures; undecided is
    ``unknown``), and ``symcal check --certify`` hands the same conditions and values to the
    kernel, which re-evaluates them with its own arithmetic.  With ``holds``, ``kernel(case)`` may
    state the case's property as a kernel certificate (e.g. ``{"kind": "matrix", ...}``: the rank
    or a decomposition of the case's exact matrix), which ``--certify`` has the kernel re-check;
    the claim's module is trusted to state there what ``holds`` decides, as the translation is
    trusted for solver claims.

    When the cases are the statement's whole domain (every permutation, every entry of a
    matrix), a pass is ``proved``.  When they are only a *sample* of it (seeded draws, or a
    grid of a continuous domain), say how they were drawn in ``sample`` (e.g.
    ``"30 seeded distributions, seed 3"``): a pass is then ``confirmed-on-samples``, which
    is never a proof, and the expected outcome defaults to it.  A failing case is an exact
    counterexample either way (``refuted``).
    """
    _common(_id(id), statement=statement, finding=finding, cite=cite)
    if not isinstance(sample, str):
        raise invalid("sample", sample, "a string saying how the cases were drawn ('' for the whole domain)")
    if not isinstance(domain, str) or not domain.strip():
        raise invalid("domain", domain, f"a non-empty string saying what the cases range over for {id}")
    if describe is not None and not callable(describe):
        raise wrong_type("describe", describe, f"a function of the case (or None) for {id}")
    if (holds is None) == (formula is None):
        raise invalid("holds", holds, f"exactly one of holds and formula for {id}")
    for name, fn in (("holds", holds), ("formula", formula), ("kernel", kernel)):
        if fn is not None and not callable(fn):
            raise invalid(name, fn, f"a function of the case for {id}")
    if formula is not None:
        if kernel is not None:
            raise invalid("kernel", kernel, f"None with formula (the formula is what the kernel checks) for {id}")
        holds = functools.partial(formula_truth, formula, where=f"formula of {id}")
    if not callable(cases):
        fixed = finite_items(cases, "cases", id, MAX_CASES)  # empty: an error verdict, never a vacuous pass
        cases_fn: Callable[[int | None], Iterable[Any]] = lambda m: fixed  # noqa: E731
    else:
        cases_fn = cases
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="finite",
        statement=statement or id,
        spec=FiniteSpec(cases_fn, holds, domain, describe, sample.strip(), formula, kernel),
        expected=_expected(expected, Status.CONFIRMED_ON_SAMPLES if sample.strip() else Status.PROVED),
        sizes=_sizes(sizes, id),
        finding=finding,
        method=(f"exact evaluation on sampled instances ({sample.strip()}) of {domain}: not a proof"
                if sample.strip() else f"exhaustive exact enumeration over {domain}"),
    )


def numeric(
    id: str,
    *,
    run: Callable[[], NumericOutcome],
    cite: Citation,
    statement: str = "",
    expected: str | Status | None = None,
    finding: Finding | None = None,
) -> Claim:
    """A numeric confirmation (optimiser output, tolerance, margin): never a proof."""
    _common(_id(id), statement=statement, finding=finding, cite=cite)
    if not callable(run):
        raise wrong_type("run", run, f"a function of no arguments returning a NumericOutcome for {id}")
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="numeric",
        statement=statement or id,
        spec=NumericSpec(run),
        expected=_expected(expected, Status.CONFIRMED_NUMERICALLY),
        finding=finding,
        method="scipy numeric optimisation; labelled numeric, never a proof",
    )



def bounded_inequality(
    id: str,
    lhs: Any,
    relation: str,
    rhs: Any,
    *,
    box: Any,
    cite: Citation,
    conditions: Any = (),
    statement: str = "",
    sizes: Any = None,
    expected: str | Status | None = None,
    finding: Finding | None = None,
    scope: str = "",
    max_boxes: int = 20000,
    max_depth: int = 40,
    precision: int = 53,
) -> Claim:
    """``lhs REL rhs`` (REL one of ``>=``, ``>``, ``<=``, ``<``) for every point of a bounded
    box where the side ``conditions`` hold; exp, log, sqrt, powers and pi/E allowed.

    ``box`` is a dict symbol -> (lo, hi) of exact bounds (ints, Fractions, 'p/q'; floats are
    refused), or a function of the size ``m``.  Algebraic queries go to z3; otherwise a
    rigorous interval branch-and-bound (mpmath ``iv``) proves it, refutes it at an exact
    rational point re-checked at a higher precision, or says ``unknown`` with the covered
    fraction when ``max_boxes``/``max_depth``/the timeout run out.  Never sampled.
    """
    from symcal.claims.core import RELATIONS, BoxSpec, validate_box

    _common(_id(id), statement=statement, scope=scope, finding=finding, cite=cite)
    if not isinstance(relation, str) or relation not in RELATIONS:
        raise invalid("relation", relation, f"one of {', '.join(RELATIONS)} for {id}")
    _expr(lhs, "lhs", id)
    _expr(rhs, "rhs", id)
    _relations(conditions, "conditions", id)
    for name, v, lo in (("max_boxes", max_boxes, 1), ("max_depth", max_depth, 1), ("precision", precision, 24)):
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise invalid(name, v, f"an integer >= {lo} for {id}")
    if not callable(box) and not isinstance(box, Mapping):
        raise wrong_type("box", box, f"a dict symbol -> (lo, hi) of exact bounds (or a function of the size m) "
                                     f"for {id}")
    for name, v in (("lhs", lhs), ("rhs", rhs), ("conditions", conditions)):
        _assumptions(v, name, id)  # first: a symbol standing as a truth value is named as such, not as unboxed
    if not callable(box):
        _numbers(box, "box", id)
        conds = conditions if isinstance(conditions, list | tuple) else [conditions]
        validate_box(box, [lhs, rhs, *conds] if not callable(lhs) else list(conds), id)
        _assumptions(list(box), "box", id)
    _assumptions([lhs, rhs, conditions, list(box) if isinstance(box, Mapping) else []], "lhs, rhs, conditions and box",
                 id)  # one name, one symbol across them
    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="interval",
        statement=statement or (f"{lhs} {relation} {rhs}" if not callable(lhs) else id),
        spec=BoxSpec(as_builder(lhs), as_builder(rhs), relation, as_builder(box), as_builder(conditions),
                     max_boxes, max_depth, precision),
        expected=_expected(expected, Status.PROVED),
        sizes=_sizes(sizes, id),
        finding=finding,
        method=("z3 when algebraic; else rigorous mpmath iv branch-and-bound with derivative-sign face "
                "reduction; counterexamples re-checked at a higher precision"),
        scope=scope,
    )


def calibrated(
    id: str,
    *,
    loss: Any,
    surrogate: Any,
    link: Any,
    cite: Citation,
    noise: Any = None,
    statement: str = "",
    sizes: Any = None,
    expected: str | Status | None = None,
    finding: Finding | None = None,
) -> Claim:
    """``surrogate`` with ``link`` is calibrated for ``loss`` over the whole simplex (or the subset
    cut out by the ``noise`` relations in p1..pn), in the sense of Tewari & Bartlett (2007) and
    Ramaswamy et al. (2013, Definition 1); see :mod:`symcal.calibration`.

    Each of ``loss``, ``surrogate``, ``link``, ``noise`` is what
    :func:`symcal.calibration.check_calibration` takes, or a function of the size ``m`` (e.g. the
    number of documents r).  ``proved`` rests on one SMT query per pair of predictions;
    ``refuted`` on an exact counterexample distribution re-checked without the solver.
    """
    from symcal.claims.core import CalibrationSpec

    _common(_id(id), statement=statement, finding=finding, cite=cite)
    for name, v in (("loss", loss), ("surrogate", surrogate), ("link", link)):
        if v is None or isinstance(v, bool | int | float):
            raise wrong_type(name, v, f"what symcal.calibration.check_calibration takes as {name} (or a function "
                             f"of the size m) for {id}")

    def b(x: Any) -> Any:
        return x if callable(x) and not isinstance(x, str | dict | list | tuple) else (lambda m: x)

    return Claim(
        id=id,
        citation=_cite(cite, id),
        kind="calibration",
        statement=statement or id,
        spec=CalibrationSpec(b(loss), b(surrogate), b(link), b(noise)),
        expected=_expected(expected, Status.PROVED),
        sizes=_sizes(sizes, id),
        finding=finding,
        method=("calibration over the whole simplex (symcal.calibration): quadratic surrogates by their affine "
                "minimiser, polyhedral ones by exact KKT conditions, smooth convex ones by (approximate) "
                "stationarity with exp(u) as polynomial variables; one z3 query per pair of predictions; "
                "counterexamples re-checked in exact arithmetic"),
    )
