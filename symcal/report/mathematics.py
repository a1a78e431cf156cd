"""A claim's hypotheses and conclusion as mathematics: sympy objects printed as LaTeX
(``sympy.latex``) and as presentation MathML (``sympy.printing.mathml``, which a browser renders
natively, offline, without a script).

:func:`claim_math` builds the formulas from the claim's own builders, never from its prose:

* ``identity``: ``lhs = rhs`` (and the conditions of its refutation points);
* ``implies``: each named hypothesis, then the conclusion; ``implies_cases``: the first cases;
* ``exists``: each named constraint (and the witness the claim supplies, if any);
* ``interval``: ``lhs REL rhs`` on its box, with its conditions;
* ``node``: the formulas built at m = 3 (at least the claim's minimum size) on symbolic weights
  a_ij, each hypothesis and the conclusion at the tuple (1, ..., arity): every ordered tuple of
  distinct nodes is its relabelling;
* ``calibration``: the surrogate per label, the link and the noise conditions.

A sized claim is built at the smallest size of its default sweep.  When a builder fails, or the
kind holds no formula (``finite``, ``numeric``), the statement text is used and the result says
so (``ClaimMath.rendered`` is False and ``note`` tells why).  Nothing here decides anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["MathLine", "ClaimMath", "claim_math", "to_latex", "to_mathml", "value_math", "breakable_math",
           "NODE_SIZE", "MAX_CHARS"]

NODE_SIZE = 3  # node claims are shown at this size (or their minimum, when larger)
MAX_CHARS = 1500  # a formula longer than this (as LaTeX) is not shown: its text is too long to read
MAX_ITEMS = 6  # cases, constraints, noise conditions shown per claim


@dataclass(frozen=True)
class MathLine:
    """One formula with its label (``Hypothesis low_noise``, ``Conclusion``, ...): ``expr`` is a
    sympy object, or None when ``text`` stands in for it (a value sympy cannot print)."""

    label: str
    expr: Any = None
    text: str = ""


@dataclass(frozen=True)
class ClaimMath:
    """The formulas of one claim, and where they come from (``note``: the size they were built at,
    the tuple shown, or why the statement text is used instead)."""

    lines: tuple[MathLine, ...] = ()
    note: str = ""
    rendered: bool = False


def to_latex(expr: Any) -> str | None:
    """``expr`` as LaTeX math (no delimiters), or None when sympy cannot print it or the result is
    longer than :data:`MAX_CHARS`."""
    import sympy

    try:
        text = sympy.latex(expr)
    except Exception:  # noqa: BLE001 - an object sympy cannot print is shown as text
        return None
    return text if len(text) <= MAX_CHARS else None


def breakable_math(tex: str) -> str:
    """``tex`` with ``\\left( ... \\right)`` written as plain parentheses (when they are the only
    ``\\left``/``\\right`` pairs), so that TeX may break an inline formula inside them."""
    if tex.count(r"\left") == tex.count(r"\left(") == tex.count(r"\right)") == tex.count(r"\right"):
        return tex.replace(r"\left(", "(").replace(r"\right)", ")")
    return tex


def to_mathml(expr: Any, *, display: bool = True) -> str | None:
    """``expr`` as one ``<math>`` element of presentation MathML, or None when sympy cannot print it."""
    from sympy.printing.mathml import mathml

    try:
        body = mathml(expr, printer="presentation")
    except Exception:  # noqa: BLE001
        return None
    if len(body) > 20 * MAX_CHARS:
        return None
    disp = ' display="block"' if display else ""
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML"{disp}>{body}</math>'


# --------------------------------------------------------------------------- witness values

_RATIONAL = re.compile(r"^\s*-?\d+(/\d+)?\s*$")
_DECIMAL = re.compile(r"^\s*-?\d+\.\d*([eE][-+]?\d+)?\s*$")
_INDEXED = re.compile(r"^([A-Za-z]+)\[(\d+(?:\s*,\s*\d+)*)\]$")
_SUBSCRIPTED = re.compile(r"^([A-Za-z]+?)_?(\d+(?:_\d+)*)$")
_SUPER = re.compile(r"^([A-Za-z]+)(\d+)_([A-Za-z]\w*)$")
_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "lambda", "mu", "nu", "xi", "pi", "rho",
          "sigma", "tau", "phi", "chi", "psi", "omega"}


def _name_symbol(name: str) -> Any:
    """A variable name of a witness (``a[1,2]``, ``p_123``, ``d_1_2``, ``u1``, ``phi``) as a sympy
    Symbol that prints as its subscripted form, or None when the name has another shape."""
    import sympy

    m = _SUPER.match(name)
    if m:  # a12_G1: a_12 of the graph G1
        return sympy.Symbol(f"{m.group(1)}_{m.group(2)}__{m.group(3)}")
    m = _INDEXED.match(name) or _SUBSCRIPTED.match(name)
    if m:
        base, sub = m.group(1), re.split(r"[,_\s]+", m.group(2))
        glue = "" if all(len(s) == 1 for s in sub) else ","
        return sympy.Symbol(f"{base}_{glue.join(sub)}")
    if re.fullmatch(r"[A-Za-z]+", name) and (len(name) == 1 or name.lower() in _GREEK):
        return sympy.Symbol(name)
    return None


def value_math(name: str, value: Any) -> MathLine:
    """``name = value`` of a witness: an equation of sympy objects when the name has a known shape and
    the value is an exact rational (as JSON writes it, ``"3/4"``), else the plain text.  The value
    is never evaluated as code."""
    import sympy

    sym = _name_symbol(str(name))
    text = f"{name} = {value}"
    if sym is None:
        return MathLine(str(name), None, text)
    s = str(value)
    if _RATIONAL.match(s):
        num: Any = sympy.Rational(Fraction(s.replace(" ", "")))
    elif _DECIMAL.match(s):
        num = sympy.Float(s.strip())
    else:
        return MathLine(str(name), None, text)
    return MathLine(str(name), sympy.Eq(sym, num, evaluate=False), text)


# --------------------------------------------------------------------------- one claim


def _as_list(x: Any) -> list[Any]:
    if isinstance(x, list | tuple):
        return list(x)
    return [x]


def _conj(rels: list[Any]) -> Any:
    import sympy

    rels = [r for r in rels if r is not True and r is not sympy.true]
    if not rels:
        return sympy.true
    if len(rels) == 1:
        return rels[0]
    return sympy.And(*rels, evaluate=False) if _all_boolean(rels) else sympy.Tuple(*rels)


def _all_boolean(rels: list[Any]) -> bool:
    import sympy

    return all(isinstance(r, sympy.logic.boolalg.Boolean) for r in rels)


def _size(claim: Any) -> int | None:
    sizes = getattr(claim, "sizes", None)
    return sizes.default[0] if sizes is not None else None


def _node_lines(claim: Any) -> tuple[list[MathLine], str]:
    import sympy

    from symcal.backends.nodes import NodeFormulas

    spec = claim.spec
    m = max(NODE_SIZE, claim.sizes.minimum if getattr(claim, "sizes", None) is not None else NODE_SIZE)
    nf = NodeFormulas(spec, m)
    show: dict[Any, Any] = {}
    for s in {s for f in list(nf.hyps.values()) + list(nf.concl.values()) for s in f.free_symbols}:
        prefix, i, j = s.name.split("_")
        a_ij, a_ji = sympy.Symbol(f"a_{i}{j}"), sympy.Symbol(f"a_{j}{i}")
        show[s] = a_ij if prefix == "a" else a_ij - a_ji
    lines = []
    for name, h in spec.hypotheses.items():
        t = tuple(range(1, h.arity + 1))
        lines.append(MathLine(f"Hypothesis {name} at {t}", nf.hyps[(name, t)].xreplace(show)))
    t = tuple(range(1, spec.conclusion.arity + 1))
    lines.append(MathLine(f"Conclusion at {t}", nf.concl[t].xreplace(show)))
    note = (f"built at m = {m} on the weights a_ij >= 0 (a_ii = 0), each at the tuple shown; the claim "
            "requires each hypothesis and asserts the conclusion at every ordered tuple of distinct nodes")
    return lines, note


def _lines(claim: Any) -> tuple[list[MathLine], str]:  # noqa: C901 - one branch per kind of claim
    import sympy

    from symcal.claims.core import BoxSpec, CalibrationSpec, CasesSpec, ExistsSpec, IdentitySpec, ImpliesSpec, NodeSpec

    spec = claim.spec
    m = _size(claim)
    at = f"built at m = {m}" if m is not None else "as built"
    if isinstance(spec, NodeSpec):
        return _node_lines(claim)
    if isinstance(spec, IdentitySpec):
        lines = [MathLine("Identity", sympy.Eq(spec.lhs(m), spec.rhs(m), evaluate=False))]
        conds = [c for c in _as_list(spec.conditions(m) or []) if c is not True]
        if conds:
            lines.append(MathLine("Where", _conj(conds)))
        return lines, at
    if isinstance(spec, ImpliesSpec):
        lines = [MathLine(f"Hypothesis {name}", _conj(_as_list(build(m)))) for name, build in spec.hypotheses.items()]
        lines.append(MathLine("Conclusion", spec.conclusion(m)))
        return lines, at
    if isinstance(spec, CasesSpec):
        from symcal.claims.core import validate_cases

        cases = validate_cases(spec.cases(m), claim.id, m)
        lines = []
        for label, hyps, concl in cases[:MAX_ITEMS]:
            premise = [r for rels in hyps.values() for r in rels]
            expr = sympy.Implies(_conj(premise), concl, evaluate=False) if premise else concl
            lines.append(MathLine(f"Case {label}", expr))
        more = f"; the first {MAX_ITEMS} of {len(cases)} cases" if len(cases) > MAX_ITEMS else ""
        return lines, at + more
    if isinstance(spec, ExistsSpec):
        lines = [MathLine(f"Constraint {name}", _conj(_as_list(build(m)))) for name, build in spec.constraints.items()]
        w = spec.witness(m) if spec.witness is not None else None
        if w:
            lines += [value_math(str(k), str(v)) for k, v in w.items()]
        return lines, at + ("; there exist values with every constraint" if not w else "; with the witness given")
    if isinstance(spec, BoxSpec):
        rel = {">=": sympy.Ge, ">": sympy.Gt, "<=": sympy.Le, "<": sympy.Lt}[spec.relation]
        lines = [MathLine("Inequality", rel(spec.lhs(m), spec.rhs(m), evaluate=False))]
        box = spec.box(m)
        lines += [MathLine("Box", sympy.And(sympy.Le(sympy.Rational(Fraction(lo)), s, evaluate=False),
                                            sympy.Le(s, sympy.Rational(Fraction(hi)), evaluate=False),
                                            evaluate=False)) for s, (lo, hi) in box.items()]
        conds = [c for c in _as_list(spec.conditions(m) or []) if c is not True]
        if conds:
            lines.append(MathLine("Where", _conj(conds)))
        return lines, at
    if isinstance(spec, CalibrationSpec):
        return _calibration_lines(spec, m), at
    raise LookupError(f"a {claim.kind} claim holds no formula")


def _calibration_lines(spec: Any, m: int | None) -> list[MathLine]:
    import sympy

    lines = [MathLine("Loss", None, str(spec.loss(m)))]
    sur = spec.surrogate(m)
    per_label = sur.get("per_label") if isinstance(sur, dict) else None
    if per_label:
        for k, text in enumerate(per_label[:MAX_ITEMS], start=1):
            expr = sympy.sympify(text) if isinstance(text, str) else text  # the library's own strings
            lines.append(MathLine(f"Surrogate, label {k}", sympy.Eq(sympy.Symbol(f"psi_{k}"), expr, evaluate=False)))
    elif isinstance(sur, sympy.Basic):
        lines.append(MathLine("Surrogate", sur))
    else:
        lines.append(MathLine("Surrogate", None, str(sur)))
    if per_label and len(per_label) > MAX_ITEMS:
        lines.append(MathLine("Surrogate", None, f"{len(per_label) - MAX_ITEMS} more labels: see 'symcal show ID'"))
    lines.append(MathLine("Link", None, str(spec.link(m))))
    noise = [n for n in _as_list(spec.noise(m) or []) if isinstance(n, sympy.Basic)]
    lines += [MathLine("Noise condition", n) for n in noise[:MAX_ITEMS]]
    if len(noise) > MAX_ITEMS:
        lines.append(MathLine("Noise condition", None, f"{len(noise) - MAX_ITEMS} more: see 'symcal show ID'"))
    return lines


SPLIT_CHARS = 160  # a conjunction longer than this (as LaTeX) is shown one conjunct a line
MAX_CONJUNCTS = 12


def _pretty(line: MathLine) -> MathLine:
    """Symbols named ``d_1_2`` printed as d_12 (single-digit indices run together); the same
    assumptions, so the formula is the same."""
    import sympy

    if line.expr is None or not isinstance(line.expr, sympy.Basic):
        return line
    sub = {}
    for s in line.expr.free_symbols:
        m = re.fullmatch(r"([A-Za-z]+)_(\d)_(\d)", s.name)
        if m:
            sub[s] = sympy.Symbol(f"{m.group(1)}_{m.group(2)}{m.group(3)}", **s.assumptions0)
    return MathLine(line.label, line.expr.xreplace(sub), line.text) if sub else line


def _split(line: MathLine) -> list[MathLine]:
    """A long implication as its premise and its conclusion, a long conjunction as one line per
    conjunct (every one shown, or the count of those left out said), so that each line can be read
    and typeset."""
    import sympy

    e = line.expr
    if not isinstance(e, sympy.And | sympy.Implies) or len(to_latex(e) or "x" * (SPLIT_CHARS + 1)) <= SPLIT_CHARS:
        return [line]
    if isinstance(e, sympy.Implies):
        return (_split(MathLine(f"{line.label}, if", e.args[0]))
                + _split(MathLine(f"{line.label}, then", e.args[1])))
    args = list(e.args)
    out = [MathLine(f"{line.label} ({k} of {len(args)}, all required)", a)
           for k, a in enumerate(args[:MAX_CONJUNCTS], 1)]
    if len(args) > MAX_CONJUNCTS:
        out.append(MathLine(f"{line.label} (the other {len(args) - MAX_CONJUNCTS})", None,
                            f"{len(args) - MAX_CONJUNCTS} more conjuncts: see 'symcal show ID'"))
    return out


def claim_math(claim: Any) -> ClaimMath:
    """The claim's formulas (see the module docstring), or its statement text with the reason."""
    try:
        lines, note = _lines(claim)
    except LookupError as e:
        return ClaimMath(note=f"statement text: {e}")
    except Exception as e:  # noqa: BLE001 - a builder that needs more than the size shown: its text
        return ClaimMath(note=f"statement text: the formulas could not be built ({type(e).__name__})")
    lines = [part for ln in lines for part in _split(_pretty(ln))]
    shown = [ln if ln.expr is None or to_latex(ln.expr) is not None
             else MathLine(ln.label, None, f"(longer than {MAX_CHARS} characters of LaTeX: not shown)") for ln in lines]
    if not any(ln.expr is not None for ln in shown):
        return ClaimMath(note=f"statement text: every formula is longer than {MAX_CHARS} characters of LaTeX")
    return ClaimMath(tuple(shown), note, True)
