"""A report from a saved run (``symcal report --from RUN.json``): nothing is decided again.

The run is the JSON array ``symcal check --json`` wrote (ARCHITECTURE.md, *Interface contract*).
Each element's verdict -- status, whether it agrees with the source, scope, evidence, witness
values, finding -- is read from the file as it is; the claim's mathematics (its hypotheses and
conclusion, :mod:`symcal.report.mathematics`) comes from the library by id.  An id the library
does not hold (a user's claim) is reported from the JSON alone, with a note.

Three formats: Markdown (math in ``$$ ... $$``), one self-contained HTML file (math as MathML,
which browsers render natively: no script, no network) and a LaTeX document that a plain
``pdflatex`` compiles (amsmath and amssymb only).  The header gives the symcal version, the git
commit of the checkout symcal runs from (``unknown`` outside one), the date, the run file and
the versions of sympy, z3 and cvc5.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from symcal.errors import invalid
from symcal.report.latex import PREAMBLE, escape, texttt_id
from symcal.report.mathematics import ClaimMath, MathLine, breakable_math, claim_math, to_latex, to_mathml, value_math

__all__ = ["RunEntry", "load_run", "entries", "header", "render_run", "git_commit", "FORMATS"]

FORMATS = ("md", "html", "latex")
MAX_WITNESS_VALUES = 24  # witness values shown per counterexample
MAX_WITNESSES = 3  # counterexamples shown per claim (a sweep's sizes)
HTML_CLASS = {"Scope": "where", "Re-check": "note", "Reason": "where", "Warning": "warn"}  # a Detail's line


# --------------------------------------------------------------------------- reading the run


def load_run(path: str | Path) -> list[dict[str, Any]]:
    """The elements of the run ``path``, validated: a readable file holding a JSON array of objects,
    each with a string ``id`` and ``status``.  Anything else is a one-line :class:`InvalidInput`
    naming the file and what was expected."""
    what = "a JSON array written by 'symcal check --json'"
    if not isinstance(path, str | Path) or not str(path).strip():
        raise invalid("--from", path, what, "give the file's name")
    p = Path(path)
    try:
        missing = "" if p.is_file() else "no such file" if not p.exists() else "it is not a file"
        text = "" if missing else p.read_text(encoding="utf-8")
    except (OSError, ValueError) as e:  # ValueError: bad UTF-8, a NUL in the name
        why = getattr(e, "strerror", None) or type(e).__name__
        raise invalid("--from", str(path), what, f"cannot read it: {why}") from None
    if missing:
        raise invalid("--from", str(path), what, missing)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # ValueError: bad JSON, an int beyond the digit limit
        where = f"line {e.lineno}" if isinstance(e, json.JSONDecodeError) else \
            "nesting" if isinstance(e, RecursionError) else str(e).split(";")[0][:80]
        raise invalid("--from", str(path), what, f"it is not JSON ({where})") from None
    if not isinstance(data, list):
        raise invalid("--from", str(path), what, f"it holds a JSON {type(data).__name__}, not an array")
    if not data:
        raise invalid("--from", str(path), what, "it is an empty array: no verdict to report")
    from symcal.verdicts import Status

    statuses = {s.value for s in Status}
    first: dict[str, int] = {}  # id -> the element that gave it
    for k, e in enumerate(data):
        if not isinstance(e, dict):
            raise invalid("--from", str(path), what, f"element {k} is not an object")
        for key in ("id", "status"):
            if not isinstance(e.get(key), str):
                raise invalid("--from", str(path), what, f"element {k} has no string {key!r}")
        if e["status"] not in statuses:
            raise invalid("--from", str(path), what, f"element {k} ({e['id']}) has status {e['status']!r}, "
                                                     f"not one of {', '.join(sorted(statuses))}")
        if e["id"] in first:  # a run decides each claim once: two verdicts for one id cannot both be reported
            raise invalid("--from", str(path), what, f"element {k} repeats the id {e['id']!r} of element "
                                                     f"{first[e['id']]}; each claim appears once")
        first[e["id"]] = k
    return data


def _items(value: Any) -> list[Any]:
    """``value`` when it is a JSON list, else no items: a saved run edited by hand (``"sizes": 5``,
    ``"warnings": true``) reports what it can, never a crash."""
    return value if isinstance(value, list) else []


@dataclass(frozen=True)
class RunEntry:
    """One element of the run, its claim from the library (None for an id the library lacks) and
    the claim's mathematics."""

    elem: dict[str, Any]
    claim: Any
    math: ClaimMath

    @property
    def id(self) -> str:
        return str(self.elem["id"])

    @property
    def paper(self) -> str:
        cit = self.elem.get("citation")
        if isinstance(cit, dict) and isinstance(cit.get("paper"), str):
            return cit["paper"]
        return self.claim.citation.paper if self.claim is not None else self.id.split(".", 1)[0]

    @property
    def location(self) -> str:
        cit = self.elem.get("citation")
        if isinstance(cit, dict) and isinstance(cit.get("location"), str):
            return cit["location"]
        return self.claim.citation.location if self.claim is not None else ""

    @property
    def statement(self) -> str:
        s = self.elem.get("statement")
        if isinstance(s, str) and s:
            return s
        return self.claim.statement if self.claim is not None else ""

    @property
    def expected(self) -> str | None:
        e = self.elem.get("expected")
        return e if isinstance(e, str) else None

    @property
    def agrees(self) -> bool:
        a = self.elem.get("agrees")
        return a if isinstance(a, bool) else (self.expected is not None and self.expected == self.elem["status"])

    @property
    def erratum(self) -> bool:
        return self.elem.get("erratum") is True and not self.agrees

    @property
    def mark(self) -> str:
        """``agrees``, ``erratum`` (a recorded finding the run reproduces) or ``DISAGREES``."""
        return "agrees" if self.agrees else ("erratum" if self.erratum else "DISAGREES")

    @property
    def finding_class(self) -> str | None:
        fc = self.elem.get("finding_class")
        if isinstance(fc, str) and fc:
            return fc
        finding = getattr(self.claim, "finding", None)
        fc = getattr(finding, "finding_class", None) if finding is not None else None
        return str(fc) if fc else None

    def witnesses(self) -> list[tuple[str, dict[str, Any]]]:
        """The witnesses (counterexamples, or the values of a witnessed existence) in the
        evidence, each with where it was found (``m = 3``, a part's label)."""
        out: list[tuple[str, dict[str, Any]]] = []

        def walk(ev: Any, label: str) -> None:
            if not isinstance(ev, dict) or len(out) >= MAX_WITNESSES:
                return
            if ev.get("kind") == "witness" and isinstance(ev.get("values"), dict):
                size = ev.get("size")
                where = ", ".join(x for x in (label, f"m = {size}" if size is not None else "") if x)
                out.append((where, ev))
            for part in _items(ev.get("parts")):
                if isinstance(part, dict):
                    walk(part, str(part.get("label", "")))

        walk(self.elem.get("evidence"), "")
        if not out:
            for s in _items(self.elem.get("sizes")):
                if isinstance(s, dict) and s.get("status") in ("refuted", "witnessed"):
                    walk(s.get("evidence"), "")
        return out


def _library_claims(ids: list[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The library's claims of the papers ``ids`` name, and for each paper that could not be built
    why (its claims are then reported from the JSON alone)."""
    from symcal.library import PAPERS, load_bundled

    claims: dict[str, Any] = {}
    broken: dict[str, str] = {}
    for p in PAPERS:
        if any(i.split(".", 1)[0] == p for i in ids):
            try:
                claims.update((c.id, c) for c in load_bundled((p,)))
            except Exception as e:  # noqa: BLE001 - a paper that fails to build leaves its claims without formulas
                broken[p] = _text(f"{type(e).__name__}: {e}", 200)
    return claims, broken


def entries(elems: list[dict[str, Any]], claims: dict[str, Any] | None = None) -> list[RunEntry]:
    """Each element with its claim (``claims`` by id, else the bundled library's) and mathematics,
    sorted by id."""
    known, broken = _library_claims([e["id"] for e in elems]) if claims is None else (claims, {})
    out = []
    for e in sorted(elems, key=lambda x: x["id"]):
        c = known.get(e["id"])
        paper = e["id"].split(".", 1)[0]
        if c is not None:
            m = claim_math(c)
        elif paper in broken:
            m = ClaimMath(note=f"statement text from the JSON: the library's {paper} could not be built "
                               f"({broken[paper]})")
        else:
            m = ClaimMath(note="not in the library: reported from the JSON alone (its statement text, no formulas)")
        out.append(RunEntry(e, c, m))
    return out


# --------------------------------------------------------------------------- header


def git_commit(start: Path | None = None) -> str:
    """The commit checked out where symcal's source lives (read from ``.git`` without running git),
    or ``unknown`` outside a git checkout."""
    here = (start or Path(__file__)).resolve()
    for d in [here, *here.parents]:
        git = d / ".git"
        if git.is_file():  # a worktree: "gitdir: PATH"
            m = re.match(r"gitdir:\s*(.+)", git.read_text(errors="replace").strip())
            git = (d / m.group(1)).resolve() if m else git
        if not git.is_dir():
            continue
        try:
            head = (git / "HEAD").read_text().strip()
            if not head.startswith("ref:"):
                return head[:12] if re.fullmatch(r"[0-9a-f]{40}", head) else "unknown"
            ref = head.split(None, 1)[1]
            common = git / "commondir"
            base = (git / common.read_text().strip()).resolve() if common.is_file() else git
            f = base / ref
            if f.is_file():
                return f.read_text().strip()[:12]
            packed = base / "packed-refs"
            if packed.is_file():
                for line in packed.read_text().splitlines():
                    if line.endswith(" " + ref):
                        return line.split()[0][:12]
        except OSError:
            pass
        return "unknown"
    return "unknown"


def _version(module: str) -> str:
    try:
        if module == "z3":
            import z3

            return str(z3.get_version_string())
        mod = __import__(module)
        return str(getattr(mod, "__version__", "installed"))
    except ImportError:
        return "not installed"


def _symcal_version() -> str:
    """The installed distribution's version (read without importing the package's front door, a
    higher layer)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("symcal")
    except PackageNotFoundError:
        return "unknown"


def header(run_path: str | Path, elems: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(label, value)`` rows: symcal version, git commit, date, the run file (its sha256 prefix and
    how many claims), and the versions of sympy, z3 and cvc5."""
    p = Path(run_path)
    try:
        digest = hashlib.sha256(p.read_bytes()).hexdigest()[:12]
    except OSError:  # pragma: no cover - it was just read
        digest = "unreadable"
    return [("symcal", _symcal_version()), ("git commit", git_commit()),
            ("date", datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")),
            ("run", f"{p.name} ({len(elems)} claims, sha256 {digest}); nothing was decided again"),
            ("sympy", _version("sympy")), ("z3", _version("z3")), ("cvc5", _version("cvc5"))]


def _counts(es: list[RunEntry]) -> str:
    ok = sum(e.agrees for e in es)
    err = sum(e.erratum for e in es)
    statuses: dict[str, int] = {}
    for e in es:
        statuses[e.elem["status"]] = statuses.get(e.elem["status"], 0) + 1
    by = ", ".join(f"{n} {s}" for s, n in statuses.items())
    return (f"{len(es)} claims: {ok} agree with the source, {err} recorded errata, "
            f"{len(es) - ok - err} disagree; {by}")


def _verdict_words(e: RunEntry) -> str:
    exp = f"the source: {e.expected}" if e.expected else "no expected outcome"
    return f"{e.elem['status']} ({exp}; {e.mark})"


def _groups(es: list[RunEntry]) -> list[tuple[str, list[RunEntry]]]:
    """Disagreements first, then errata, then each paper."""
    out = [("Disagreements", [e for e in es if e.mark == "DISAGREES"]), ("Errata", [e for e in es if e.erratum])]
    papers: dict[str, list[RunEntry]] = {}
    for e in es:
        if e.mark == "agrees":
            papers.setdefault(e.paper, []).append(e)
    return [(t, g) for t, g in out if g] + list(papers.items())


def _text(x: Any, n: int = 600) -> str:
    s = " ".join(str(x).split())
    return s if len(s) <= n else s[: n - 3] + "..."


def _regret_items(e: RunEntry) -> list[tuple[str, str]]:
    """``regret`` / ``region`` results of the element (``symcal calibration --json`` writes them)
    as ``(name, text)`` rows."""
    rows = []
    for key in ("regret", "region"):
        val = e.elem.get(key)
        if isinstance(val, dict):
            rows += [(f"{key} {k}", _text(v if not isinstance(v, dict | list) else json.dumps(v), 300))
                     for k, v in val.items()]
        elif val is not None:
            rows.append((key, _text(val if not isinstance(val, list) else json.dumps(val), 300)))
    return rows


def _witness_lines(w: dict[str, Any]) -> list[MathLine]:
    vals = list(w["values"].items())[:MAX_WITNESS_VALUES]
    return [value_math(str(k), v) for k, v in vals]


class Detail(NamedTuple):
    """One thing a report shows of an entry after its mathematics.  ``kind`` is ``Scope``,
    ``Re-check``, ``Reason`` or ``Warning`` (a line ``kind: text``), ``witness`` (``name`` is
    *Counterexample* or *Witness*, ``text`` where it was found, ``witness`` its values), ``item``
    (a regret / region row ``name: text``) or ``Finding`` (``name`` the finding class or "")."""

    kind: str
    text: str
    name: str = ""
    witness: dict[str, Any] | None = None


def _details(e: RunEntry) -> list[Detail]:
    """What every format shows of ``e`` after its mathematics, in order and already shortened: the
    scope, each witness with its re-check, the regret / region rows, the reason (unless proved),
    the finding and the warnings."""
    st = e.elem["status"]
    out = [Detail("Scope", _text(e.elem["scope"]))] if e.elem.get("scope") else []
    for where, w in e.witnesses():
        out.append(Detail("witness", where, "Counterexample" if st == "refuted" else "Witness", w))
        if w.get("detail"):
            out.append(Detail("Re-check", _text(w["detail"])))
    out += [Detail("item", v, k) for k, v in _regret_items(e)]
    if e.elem.get("reason") and st != "proved":
        out.append(Detail("Reason", _text(e.elem["reason"])))
    if e.elem.get("finding"):
        out.append(Detail("Finding", _text(e.elem["finding"], 1200), e.finding_class or ""))
    return out + [Detail("Warning", _text(w, 300)) for w in _items(e.elem.get("warnings"))]


# --------------------------------------------------------------------------- Markdown


def _md(es: list[RunEntry], head: list[tuple[str, str]], title: str) -> str:
    out = [f"# {title}", ""] + [f"- **{k}**: {v}" for k, v in head] + ["", _counts(es) + ".", ""]
    for group, rows in _groups(es):
        out += [f"## {group}", ""]
        for e in rows:
            out += [f"### `{e.id}`", "", f"*{e.paper}, {e.location}* — **{_verdict_words(e)}**", ""]
            if e.statement:
                out += [f"> {_text(e.statement)}", ""]
            out += _md_math(e.math.lines, e.math.note)
            for d in _details(e):
                if d.kind == "witness":
                    out += [f"{d.name}{f' ({d.text})' if d.text else ''}:", ""]
                    out += _md_math(_witness_lines(d.witness or {}), "", label=False)
                elif d.kind == "item":
                    out += [f"- {d.name}: {d.text}"]
                elif d.kind == "Finding":
                    out += [f"**Finding**{f' [{d.name}]' if d.name else ''}: {d.text}", ""]
                else:
                    out += [f"{d.kind}: {d.text}", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _md_math(lines: tuple[MathLine, ...] | list[MathLine], note: str, *, label: bool = True) -> list[str]:
    out = []
    for ln in lines:
        tex = to_latex(ln.expr) if ln.expr is not None else None
        lab = f"{ln.label}: " if label else ""
        if tex:
            out += ([lab, ""] if label else []) + ["$$", tex, "$$", ""]
        else:
            out += [f"{lab}`{ln.text}`", ""]
    if note:
        out += [f"*Mathematics: {note}.*", ""]
    return out


# --------------------------------------------------------------------------- HTML

CSS = """
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px auto;max-width:1000px;
color:#1f2328;padding:0 16px;line-height:1.45}
h1{font-size:24px;margin-bottom:4px}h2{font-size:19px;border-bottom:1px solid #d0d7de;padding-bottom:3px;
margin-top:30px}
table.head td{padding:1px 10px 1px 0;font-size:13px}table.head td:first-child{color:#57606a}
.claim{border:1px solid #d0d7de;border-left:5px solid #1a7f37;border-radius:6px;padding:8px 12px;margin:12px 0}
.claim.erratum{border-left-color:#8250df}.claim.DISAGREES{border-left-color:#cf222e;background:#fff8f7}
.id{font-family:SFMono-Regular,Consolas,'Liberation Mono',Menlo,monospace;font-weight:600}
.badge{border-radius:10px;padding:1px 8px;font-size:12px;font-weight:600;margin-left:6px}
.proved,.witnessed{color:#1a7f37;background:#dafbe1}.refuted{color:#cf222e;background:#ffebe9}
.confirmed-on-samples,.confirmed-numerically{color:#9a6700;background:#fff8c5}.unknown{color:#57606a;
background:#eaeef2}.error{color:#82071e;background:#ffcecb}
.mark-agrees{color:#1a7f37}.mark-erratum{color:#8250df}.mark-DISAGREES{color:#cf222e;font-weight:700}
.where{color:#57606a;font-size:13px}.stmt{margin:4px 0;font-style:italic}
.math{display:grid;grid-template-columns:minmax(120px,max-content) minmax(0,1fr);column-gap:12px;
align-items:baseline;margin:6px 0}.math>div{min-width:0;overflow-x:auto;overflow-y:hidden;padding:3px 0}
.math .lab{color:#57606a;font-size:13px}math{font-size:17px}
.note{color:#57606a;font-size:12px}.finding{background:#fbefff;border:1px solid #8250df;padding:4px 8px;
margin:6px 0}.warn{color:#9a6700;font-size:13px}
code{font-family:SFMono-Regular,Consolas,'Liberation Mono',Menlo,monospace;font-size:12px}
"""


def _esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _html_math(lines: tuple[MathLine, ...] | list[MathLine], note: str) -> str:
    rows = []
    for ln in lines:
        ml = to_mathml(ln.expr, display=False) if ln.expr is not None else None
        body = ml if ml else f"<code>{_esc(_text(ln.text, 400))}</code>"
        rows.append(f'<div class="lab">{_esc(ln.label)}</div><div>{body}</div>')
    out = f'<div class="math">{"".join(rows)}</div>' if rows else ""
    return out + (f'<div class="note">Mathematics: {_esc(note)}.</div>' if note else "")


def _html(es: list[RunEntry], head: list[tuple[str, str]], title: str) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_esc(title)}</title><style>{CSS}</style></head><body>", f"<h1>{_esc(title)}</h1>",
           '<table class="head">' + "".join(f"<tr><td>{_esc(k)}</td><td>{_esc(v)}</td></tr>" for k, v in head)
           + "</table>", f"<p><b>{_esc(_counts(es))}</b>.</p>",
           '<p class="note">Formulas are MathML, which current browsers render natively (no script, '
           "no network).</p>"]
    for group, rows in _groups(es):
        out.append(f"<h2>{_esc(group)} ({len(rows)})</h2>")
        for e in rows:
            st = e.elem["status"]
            parts = [f'<div class="claim {_esc(e.mark)}" id="{_esc(e.id)}"><span class="id">{_esc(e.id)}</span>'
                     f'<span class="badge {_esc(st)}">{_esc(st)}</span> '
                     f'<span class="mark-{_esc(e.mark)}">{_esc(e.mark)}</span>'
                     f'<span class="where"> — {_esc(e.paper)}, {_esc(e.location)}; the source: '
                     f'{_esc(e.expected or "-")}</span>']
            if e.statement:
                parts.append(f'<div class="stmt">{_esc(_text(e.statement))}</div>')
            parts.append(_html_math(e.math.lines, e.math.note))
            for d in _details(e):
                if d.kind == "witness":
                    parts.append(f"<div><b>{d.name}</b>{_esc(f' ({d.text})' if d.text else '')}:</div>"
                                 + _html_witness(d.witness or {}))
                elif d.kind == "item":
                    parts.append(f"<div><b>{_esc(d.name)}</b>: {_esc(d.text)}</div>")
                elif d.kind == "Finding":
                    parts.append(f'<div class="finding"><b>Finding</b>{_esc(f" [{d.name}]" if d.name else "")}: '
                                 f"{_esc(d.text)}</div>")
                else:
                    parts.append(f'<div class="{HTML_CLASS[d.kind]}">{d.kind}: {_esc(d.text)}</div>')
            out.append("".join(parts) + "</div>")
    out.append('<p class="note">Written by symcal report --from; self-contained (no scripts, no network).</p>'
               "</body></html>")
    return "\n".join(out) + "\n"


def _html_witness(w: dict[str, Any]) -> str:
    cells = []
    for ln in _witness_lines(w):
        ml = to_mathml(ln.expr, display=False) if ln.expr is not None else None
        cells.append(f"<span style=\"margin-right:18px;white-space:nowrap\">{ml or f'<code>{_esc(ln.text)}</code>'}"
                     "</span>")
    more = len(w["values"]) - MAX_WITNESS_VALUES
    tail = f' <span class="note">(and {more} more values)</span>' if more > 0 else ""
    return f'<div style="margin:4px 0 4px 12px">{"".join(cells)}{tail}</div>'


# --------------------------------------------------------------------------- LaTeX


def _tex_formula(tex: str) -> str:
    """Short formulas in display math; longer ones inline (``\\ensuremath``) so that TeX can break
    them at relations and operators."""
    if len(tex) <= 160:
        return rf"\[ {tex} \]"
    return r"\begin{flushleft}\ensuremath{" + breakable_math(tex) + r"}\end{flushleft}"


def _latex_math(lines: tuple[MathLine, ...] | list[MathLine], note: str) -> list[str]:
    out = []
    for ln in lines:
        tex = to_latex(ln.expr) if ln.expr is not None else None
        shown = "" if tex else rf" \texttt{{{escape(_text(ln.text, 400))}}}\par"
        out.append(rf"\noindent\emph{{{escape(ln.label)}:}}" + shown)
        if tex:
            out.append(_tex_formula(tex))
    if note:
        out.append(rf"\noindent{{\footnotesize Mathematics: {escape(note)}.}}\par")
    return out


def _latex(es: list[RunEntry], head: list[tuple[str, str]], title: str) -> str:
    out = ["% Written by symcal report --from: one paragraph per claim, its mathematics and its verdict.",
           PREAMBLE.rstrip("\n"), r"\setlength{\parindent}{0pt}", r"\begin{document}",
           rf"\section*{{{escape(title)}}}", r"\begin{tabular}{@{}ll@{}}"]
    out += [rf"{escape(k)} & {escape(v)} \\" for k, v in head]
    out += [r"\end{tabular}\par", r"\medskip " + escape(_counts(es) + ".") + r"\par"]
    for group, rows in _groups(es):
        out.append(rf"\subsection*{{{escape(group)}}}")
        for e in rows:
            verdict = escape(_verdict_words(e))
            if e.mark == "DISAGREES":
                verdict = rf"\textbf{{{verdict}}}"
            out += [rf"\paragraph{{{texttt_id(e.id)}}} ({escape(e.paper)}, {escape(e.location)}) --- {verdict}.\par"]
            if e.statement:
                out.append(rf"\emph{{{escape(_text(e.statement))}}}\par")
            out += _latex_math(e.math.lines, e.math.note)
            for d in _details(e):
                if d.kind == "witness":
                    out.append(rf"\noindent\emph{{{d.name}}}{escape(f' ({d.text})' if d.text else '')}:\par")
                    out.append(_latex_witness(d.witness or {}))
                elif d.kind == "item":
                    out.append(rf"\noindent\emph{{{escape(d.name)}:}} {escape(d.text)}\par")
                elif d.kind == "Finding":
                    fc = f" [{escape(d.name)}]" if d.name else ""
                    out.append(rf"\noindent\textbf{{Finding}}{fc}: {escape(d.text)}\par")
                elif d.kind == "Re-check":
                    out.append(rf"{{\footnotesize Re-check: {escape(d.text)}}}\par")
                else:
                    out.append(rf"\noindent {d.kind}: {escape(d.text)}\par")
    out.append(r"\end{document}")
    return "\n".join(out) + "\n"


def _latex_witness(w: dict[str, Any]) -> str:
    parts = []
    for ln in _witness_lines(w):
        tex = to_latex(ln.expr) if ln.expr is not None else None
        parts.append(rf"\ensuremath{{{tex}}}" if tex else rf"\texttt{{{escape(ln.text)}}}")
    more = len(w["values"]) - MAX_WITNESS_VALUES
    tail = escape(f" (and {more} more values)") if more > 0 else ""
    return r"\begin{quote}" + ",\\quad ".join(parts) + tail + r"\end{quote}"


# --------------------------------------------------------------------------- front


def render_run(path: str | Path, fmt: str, *, claims: dict[str, Any] | None = None,
               patterns: list[str] | None = None, title: str = "symcal report") -> tuple[str, list[RunEntry]]:
    """The report of the run ``path`` in ``fmt`` (``md``, ``html`` or ``latex``) and its entries.
    ``claims`` (id -> Claim) supplies the mathematics, else the bundled library; ``patterns`` (ids,
    prefixes, globs) keep only the matching elements."""
    if fmt not in FORMATS:
        raise invalid("--format", fmt, "one of " + ", ".join(FORMATS))
    elems = load_run(path)
    if patterns:
        elems = _select(elems, patterns)
    es = entries(elems, claims)
    head = header(path, elems)
    text = {"md": _md, "html": _html, "latex": _latex}[fmt](es, head, title)
    return text, es


def _select(elems: list[dict[str, Any]], patterns: list[str]) -> list[dict[str, Any]]:
    import fnmatch

    out = []
    for pat in patterns:
        hit = [e for e in elems if e["id"] == pat or e["id"].startswith(pat + ".") or fnmatch.fnmatchcase(e["id"], pat)]
        if not hit:
            raise invalid("pattern", pat, "an id, id prefix or glob of a claim in the run")
        out += [e for e in hit if e not in out]
    return out
