"""LaTeX: each claim as a table row a researcher can paste into an appendix, a complete
compilable report, one claim's statement (``symcal show ID --latex``), and a claim's formula
for a notebook's ``_repr_latex_``.

Every piece of text goes through :func:`escape`: the ten special characters of LaTeX are
escaped, and the Unicode a statement may hold (Greek letters, ≤, →, ℝ, sub- and superscript
digits, ...) becomes the matching command, so the output compiles with a plain ``pdflatex``
(T1 + utf8 inputenc); a character without a mapping is printed as ``[U+XXXX]``, never passed
through.  Math symbols are written with ``\\ensuremath``, so the output holds no ``$`` at all.

The report uses only standard packages (inputenc, fontenc, lmodern, amsmath, amssymb, array,
booktabs, longtable, geometry).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from symcal import display
from symcal.verdicts import Verdict

__all__ = ["escape", "breakable", "texttt_id", "claim_row", "claims_table", "latex_report", "claim_latex",
           "claim_formula_latex", "math_latex", "sanity_problems", "PREAMBLE"]

_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%", "#": r"\#",
    "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}", "<": r"\textless{}",
    ">": r"\textgreater{}", "|": r"\textbar{}",
}

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "ζ": "zeta", "η": "eta",
    "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi",
    "ρ": "rho", "σ": "sigma", "ς": "varsigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda",
    "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
    "ϵ": "epsilon", "ϑ": "vartheta",
}

_MATH = {
    "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv", "∼": r"\sim",
    "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow", "⟹": r"\Longrightarrow",
    "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "⟺": r"\Longleftrightarrow", "↦": r"\mapsto",
    "∈": r"\in", "∉": r"\notin", "⊆": r"\subseteq", "⊂": r"\subset", "⊇": r"\supseteq", "⊃": r"\supset",
    "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset", "∞": r"\infty", "∑": r"\sum", "∏": r"\prod",
    "√": r"\surd", "·": r"\cdot", "⋅": r"\cdot", "×": r"\times", "±": r"\pm", "∓": r"\mp", "−": "-",
    "∀": r"\forall", "∃": r"\exists", "¬": r"\neg", "∧": r"\wedge", "∨": r"\vee", "∘": r"\circ",
    "≻": r"\succ", "≺": r"\prec", "⪰": r"\succeq", "⪯": r"\preceq", "⟨": r"\langle", "⟩": r"\rangle",
    "‖": r"\|", "∂": r"\partial", "∇": r"\nabla", "∫": r"\int", "⊤": r"\top", "⊥": r"\perp",
    "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℓ": r"\ell",
    "∝": r"\propto", "≪": r"\ll", "≫": r"\gg", "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor",
    "⌋": r"\rfloor", "†": r"\dagger", "∗": r"\ast", "′": r"\prime", "⊕": r"\oplus", "⊗": r"\otimes",
    "△": r"\triangle", "□": r"\square", "°": r"^\circ", "∖": r"\setminus", "⋯": r"\cdots", "⋮": r"\vdots",
}
for _k, _v in _GREEK.items():
    _MATH[_k] = "\\" + _v

_TEXT = {
    "–": "--", "—": "---", "…": r"\dots{}", "“": "``", "”": "''", "‘": "`", "’": "'", "„": ",,",
    "«": r"\guillemotleft{}", "»": r"\guillemotright{}", "§": r"\S{}", "¶": r"\P{}", "©": r"\copyright{}",
    "\u00a0": "~", "\u2009": r"\,", "\u202f": r"\,", "•": r"\textbullet{}", "✓": "yes", "✗": "no",
}
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓᵢⱼₖₘₙₚₜ", "0123456789+-=()aeoxijkmnpt", strict=True))
_SUP = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ", "0123456789+-=()niT", strict=True))
# Latin-1 letters (é, ü, ñ, ...) compile as they are under T1 + utf8 inputenc
_LATIN = set(chr(c) for c in range(0xC0, 0x100)) - {"×", "÷"} | {"Œ", "œ", "Š", "š", "Ž", "ž", "Ÿ", "ł", "Ł"}


def _unicode(ch: str) -> str:
    if ch in _MATH:
        return f"\\ensuremath{{{_MATH[ch]}}}"
    if ch in _TEXT:
        return _TEXT[ch]
    if ch in _SUB:
        return f"\\ensuremath{{_{{{_SUB[ch]}}}}}"
    if ch in _SUP:
        return f"\\ensuremath{{^{{{_SUP[ch]}}}}}"
    if ch == "÷":
        return r"\ensuremath{\div}"
    if ch in _LATIN:
        return ch
    return f"[U+{ord(ch):04X}]"


def escape(text: Any) -> str:
    """``text`` as LaTeX text: every special character escaped, Unicode mapped to commands,
    control characters dropped (a newline becomes a space)."""
    out = []
    for ch in str(text):
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in "\n\r\t":
            out.append(" ")
        elif ord(ch) < 32 or ord(ch) == 127:
            continue
        elif ord(ch) < 128:
            out.append(ch)
        else:
            out.append(_unicode(ch))
    return "".join(out)


def breakable(text: Any, *, longer_than: int = 16) -> str:
    """:func:`escape`, with a line break allowed after ``. _ / , = -`` inside every word longer
    than ``longer_than`` characters (ids and formulas in a narrow table column)."""
    out = []
    for word in re.split(r"(\s+)", str(text)):
        if len(word) <= longer_than or word.isspace():
            out.append(escape(word))
            continue
        out.append("".join(escape(ch) + (r"\allowbreak{}" if ch in "._/,=-" else "") for ch in word))
    return "".join(out)


def texttt_id(claim_id: str) -> str:
    """A claim id in typewriter type, breakable after each dot and underscore."""
    return r"\texttt{" + escape(claim_id).replace(".", r".\allowbreak{}").replace(r"\_", r"\_\allowbreak{}") + "}"


def _short(text: str, n: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _verdict_cell(claim: Any, v: Verdict | None) -> str:
    from symcal.report.render import agrees, is_erratum

    if v is None:
        return escape(f"expected {claim.expected.value}" if claim.expected else "-")
    word = escape(v.status.value)
    if claim.expected is None or agrees(claim, v):
        return word
    if is_erratum(claim, v):
        return f"{word} (erratum)"
    return rf"\textbf{{{word}}} (disagrees; the source: {escape(claim.expected.value)})"


def claim_row(claim: Any, v: Verdict | None = None, *, scope_chars: int = 240) -> str:
    """One table row ``id & location & statement & verdict & scope \\\\`` (on one line)."""
    scope = v.scope if v is not None else ""
    cells = [texttt_id(claim.id), breakable(claim.citation.location), breakable(claim.statement or claim.id),
             _verdict_cell(claim, v), breakable(_short(scope, scope_chars))]
    return " & ".join(cells) + r" \\"


COLUMNS = (r">{\raggedright\arraybackslash}p{3.3cm}>{\raggedright\arraybackslash}p{2.0cm}"
           r">{\raggedright\arraybackslash}p{5.6cm}>{\raggedright\arraybackslash}p{1.8cm}"
           r">{\raggedright\arraybackslash}p{3.2cm}")


def claims_table(pairs: Sequence[tuple[Any, Verdict | None]], *, caption: str = "") -> str:
    """A ``longtable`` (booktabs rules) with one row per claim: id, location, statement,
    verdict, scope.  Needs ``array``, ``booktabs`` and ``longtable``."""
    lines = [r"{\small\setlength{\tabcolsep}{3pt}",
             rf"\begin{{longtable}}{{{COLUMNS}}}"]
    if caption:
        lines.append(rf"\caption{{{escape(caption)}}}\\")
    head = r"\textbf{id} & \textbf{location} & \textbf{statement} & \textbf{verdict} & \textbf{scope} \\"
    lines += [r"\toprule", head, r"\midrule", r"\endfirsthead",
              r"\toprule", head, r"\midrule", r"\endhead",
              r"\bottomrule", r"\endfoot"]
    lines += [claim_row(c, v) for c, v in pairs]
    lines += [r"\end{longtable}", "}"]
    return "\n".join(lines)


PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{lmodern}
\usepackage{amsmath,amssymb}
\usepackage{array,booktabs,longtable}
\usepackage[margin=2cm]{geometry}
"""


def latex_report(pairs: Sequence[tuple[Any, Verdict]], title: str = "symcal report") -> str:
    """A complete, compilable document: the backend versions, the summary, the errata (each with
    its finding), then one table per paper (``% symcal table: begin/end`` mark what to paste)."""
    from symcal.report.render import by_paper_sorted, is_erratum, outcome_counts, status_counts, versions

    pairs = sorted(pairs, key=lambda p: p[0].id)
    by_paper = by_paper_sorted(pairs)
    errata = [(c, v) for c, v in pairs if is_erratum(c, v)]
    n_ok, _, n_bad = outcome_counts(pairs)
    out = ["% Written by symcal: one table row per claim (id, location, statement, verdict, scope).",
           PREAMBLE.rstrip("\n"), r"\begin{document}", rf"\section*{{{escape(title)}}}",
           r"\noindent Backends: " + escape(", ".join(f"{k} {v}" for k, v in versions().items())) + r".\par",
           r"\medskip\noindent " + escape(f"{len(pairs)} claims: {n_ok} agree with the source, {len(errata)} "
                                          f"recorded errata, {n_bad} disagree; {status_counts(list(pairs))}.")
           + r"\par"]
    if errata:
        out += [r"\subsection*{Errata}", r"\begin{description}"]
        for c, _v in errata:
            f = c.finding
            out.append(rf"\item[{texttt_id(c.id)}] {escape(f.what)} \emph{{Counterexample:}} "
                       rf"{escape(f.counterexample)} \emph{{Corrected claim:}} {texttt_id(f.corrected)}.")
        out.append(r"\end{description}")
    for paper, rows in by_paper.items():
        out += [rf"\subsection*{{{escape(paper)}}}", f"% symcal table: begin {paper}", claims_table(rows),
                f"% symcal table: end {paper}"]
    out.append(r"\end{document}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- one claim


def claim_formula_latex(claim: Any, *, max_chars: int = 3000) -> str | None:
    """The claim's formula in math mode (no delimiters) from its sympy expressions: ``lhs = rhs``
    for an identity, ``hypotheses \\Longrightarrow conclusion`` for an implication; None for
    other kinds, or when the formula is too long to be read."""
    import sympy

    from symcal.report.html import formula_parts

    parts = formula_parts(claim)
    if parts is None:
        return None
    try:
        if "lhs" in parts:
            text = f"{sympy.latex(parts['lhs'])} = {sympy.latex(parts['rhs'])}"
        else:
            hyps = [sympy.latex(r) for _, rels in parts["hypotheses"] for r in rels]
            concl = sympy.latex(parts["conclusion"])
            text = (r",\ ".join(hyps) + r" \;\Longrightarrow\; " + concl) if hyps else concl
    except Exception:  # noqa: BLE001 - a formula sympy cannot print is left out
        return None
    if parts.get("m") is not None:
        text += rf"\qquad (m = {parts['m']})"
    return text if len(text) <= max_chars else None


def math_latex(claim: Any) -> list[str]:
    """The claim's hypotheses and conclusion as LaTeX mathematics (:func:`symcal.report.mathematics.claim_math`),
    one labelled formula each, short ones in display math and long ones inline so that they break;
    then a line saying what was shown (the size built at, the tuple) or why the statement text
    stands instead."""
    from symcal.report.mathematics import breakable_math, claim_math, to_latex

    cm = claim_math(claim)
    out = []
    for ln in cm.lines:
        tex = to_latex(ln.expr) if ln.expr is not None else None
        if tex is None:
            out.append(rf"\emph{{{escape(ln.label)}:}} \texttt{{{escape(ln.text)}}}\par")
        elif len(tex) <= 160:
            out.append(rf"\emph{{{escape(ln.label)}:}}\[ {tex} \]")
        else:
            out.append(rf"\emph{{{escape(ln.label)}:}}\begin{{flushleft}}\ensuremath{{{breakable_math(tex)}}}"
                       r"\end{flushleft}")
    if cm.note:
        out.append(rf"{{\footnotesize Mathematics: {escape(cm.note)}.}}\par")
    return out


def claim_latex(claim: Any) -> str:
    """One claim as a LaTeX paragraph (``symcal show ID --latex``): id, citation and quote,
    statement, expected outcome, its hypotheses and conclusion as mathematics (:func:`math_latex`),
    and any finding."""
    c = claim
    cite = escape(f"{c.citation.paper}, {c.citation.location}")
    quote = rf" --- ``{escape(c.citation.quote)}''" if c.citation.quote else ""
    statement = (c.statement or c.id).rstrip()
    lines = [f"% symcal claim {c.id}", rf"\paragraph{{{texttt_id(c.id)}}} ({cite}{quote})",
             escape(statement) + ("" if statement.endswith(".") else ".")]
    if c.expected is not None:
        lines.append(rf"\emph{{The source asserts:}} {escape(c.expected.value)}.")
    lines += math_latex(c)
    if c.finding:
        f = c.finding
        lines.append(rf"\emph{{Erratum:}} {escape(f.what)} \emph{{Counterexample:}} {escape(f.counterexample)} "
                     rf"\emph{{Corrected claim:}} {texttt_id(f.corrected)}.")
    return "\n".join(lines)


# --------------------------------------------------------------------------- sanity


_ENV = re.compile(r"\\(begin|end)\{([^}]*)\}")
_ESCAPED = re.compile(r"\\\\|\\[{}$&%#_]")  # a row end \\ and the escaped specials


def _math_spans(line: str) -> tuple[str, str]:
    """``(text outside math, text inside math)`` of one line: display math ``\\[ ... \\]`` and
    ``\\ensuremath{...}`` groups (balanced braces) are math."""
    outside, inside = [], []
    i = 0
    while i < len(line):
        if line.startswith("\\[", i):
            j = line.find("\\]", i + 2)
            j = len(line) if j < 0 else j + 2
            inside.append(line[i + 2:j - 2])
            i = j
        elif line.startswith("\\ensuremath{", i):
            j, depth = i + len("\\ensuremath{"), 1
            while j < len(line) and depth:
                if line[j] == "\\":
                    j += 2
                    continue
                depth += (line[j] == "{") - (line[j] == "}")
                j += 1
            inside.append(line[i + len("\\ensuremath{"):j - 1])
            i = j
        else:
            outside.append(line[i])
            i += 1
    return "".join(outside), " ".join(inside)


def sanity_problems(tex: str, *, columns: int = 5) -> list[str]:
    """Problems a plain ``pdflatex`` would trip on, found without running it: unbalanced braces
    (escaped ``\\{``/``\\}`` aside), unmatched ``\\begin``/``\\end``, an unescaped ``_ ^`` outside
    math, an unescaped ``$ % #`` anywhere, and an ``&`` that is not one of the ``columns - 1``
    separators of a table row.  Comment lines (``%`` first) are skipped.  An empty list means
    none were found."""
    problems = []
    depth = 0
    stack: list[str] = []
    tables = 0
    for n, line in enumerate(tex.splitlines(), start=1):
        if line.lstrip().startswith("%"):
            continue
        plain = _ESCAPED.sub(" ", line)
        for ch in plain:
            depth += (ch == "{") - (ch == "}")
            if depth < 0:
                problems.append(f"line {n}: '}}' closes nothing")
                depth = 0
        text, math = _math_spans(plain)
        for ch in "$%#":
            if ch in text or ch in math:
                problems.append(f"line {n}: unescaped {ch!r}")
        for ch in "_^":
            if ch in text:
                problems.append(f"line {n}: unescaped {ch!r} outside math")
        for kind, env in _ENV.findall(line):
            if kind == "begin":
                stack.append(env)
                tables += env in ("longtable", "tabular")
            elif not stack or stack[-1] != env:
                problems.append(f"line {n}: \\end{{{env}}} does not match \\begin{{{stack[-1] if stack else ''}}}")
            else:
                stack.pop()
                tables -= env in ("longtable", "tabular")
        amps = text.count("&") + math.count("&")
        is_row = tables > 0 and line.rstrip().endswith("\\\\") and amps == columns - 1
        if amps and not is_row:
            problems.append(f"line {n}: {amps} unescaped '&' outside a {columns}-column table row")
    if depth:
        problems.append(f"{depth} unclosed '{{'")
    if stack:
        problems.append(f"unclosed environments: {', '.join(stack)}")
    return problems


def _claim_display(claim: Any) -> str | None:
    """A claim's notebook LaTeX (``Claim._repr_latex_``): its formula as display math, or None."""
    formula = claim_formula_latex(claim)
    return None if formula is None else f"$$ {formula} $$"


display.register("claim", "latex", _claim_display)
