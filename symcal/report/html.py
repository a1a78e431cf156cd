"""HTML for notebooks and reports, in one place.

Every ``_repr_html_`` of symcal's objects (a :class:`~symcal.claims.core.Claim`, a
:class:`~symcal.verdicts.Verdict`, the :class:`~symcal.verdicts.Verdicts` of ``check_many``, a
preference distribution, a cost scheme and its Theorem 3 condition, a loss matrix and its
analysis) calls a builder here, and :func:`report_html` writes a whole report as ONE
self-contained file: inline CSS and inline SVG, no network, no script.

A verdict shows its status coloured, the statement, the scope and the evidence folded in a
``<details>``; a refuted node claim (its witness has values ``a[i,j]``) shows the difference
graph of its counterexample as an inline SVG with the failing tuple in red.  The SVG is drawn
here in plain Python (circular layout, arrows, exact weights as labels), so neither matplotlib
nor a browser script is needed; :mod:`symcal.report.plot` draws the same pictures with
matplotlib for PNG/SVG files.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from symcal import display
from symcal.exact import fraction_str
from symcal.verdicts import Composite, Evidence, SmtResult, Status, Verdict

__all__ = [
    "STATUS_COLOURS",
    "status_badge",
    "claim_html",
    "verdict_html",
    "verdicts_html",
    "html_table",
    "report_html",
    "evidence_html",
    "svg_graph",
    "svg_order_arcs",
    "svg_sweep",
    "node_counterexample",
    "NodeCounterexample",
    "preference_html",
    "check_result_html",
    "cost_scheme_html",
    "condition_html",
    "loss_matrix_html",
    "rank_certificate_html",
    "loss_analysis_html",
    "fas_html",
    "formula_parts",
]

# status -> (text/border colour, background); proofs green, refutations red, samples and numerics
# amber (never a proof), unknown grey, error dark red
STATUS_COLOURS: dict[str, tuple[str, str]] = {
    "proved": ("#1a7f37", "#dafbe1"),
    "witnessed": ("#1a7f37", "#dafbe1"),
    "refuted": ("#cf222e", "#ffebe9"),
    "confirmed-on-samples": ("#9a6700", "#fff8c5"),
    "confirmed-numerically": ("#9a6700", "#fff8c5"),
    "unknown": ("#57606a", "#eaeef2"),
    "error": ("#82071e", "#ffcecb"),
}
MARK_COLOURS = {"ok": "#1a7f37", "ok (VACUOUS)": "#9a6700", "ERRATUM": "#8250df", "DISAGREES": "#cf222e"}
HIGHLIGHT = "#cf222e"
EDGE = "#424a53"
FONT = "-apple-system,'Segoe UI',Helvetica,Arial,sans-serif"
CARD = (f"font-family:{FONT};font-size:13px;line-height:1.45;color:#1f2328;background:#ffffff;"
        "padding:6px 10px;margin:4px 0;max-width:980px")
MONO = "font-family:SFMono-Regular,Consolas,'Liberation Mono',Menlo,monospace;font-size:12px"
TABLE = "border-collapse:collapse;margin:4px 0;font-size:12px"
TD = "border:1px solid #d0d7de;padding:2px 6px;text-align:left;vertical-align:top"
TH = TD + ";background:#f6f8fa;font-weight:600"
SMT_CHARS = 4000  # SMT-LIB text shown per query; `symcal check --smtlib DIR` writes it in full
NOTEBOOK_FOLDED = 40  # folded cards of routine verdicts in a notebook's table of check_many


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def num(x: Any) -> str:
    """An exact number as symcal prints it (``-1/3``); anything else as ``str``."""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction | int):
        return fraction_str(x)
    try:
        import sympy

        if isinstance(x, sympy.Basic):
            return sympy.sstr(x)
    except ImportError:  # pragma: no cover - sympy is a core dependency
        pass
    return str(x)


def _status_word(status: Any) -> str:
    if isinstance(status, Status):
        return status.value
    if status is True:
        return "proved"
    if status is False:
        return "refuted"
    if status is None:
        return "unknown"
    return str(status)


def status_badge(status: Any, text: str | None = None) -> str:
    """A coloured pill: ``Status``, a status word, or True/False/None (holds / fails / undecided)."""
    word = _status_word(status)
    fg, bg = STATUS_COLOURS.get(word, ("#57606a", "#eaeef2"))
    label = text if text is not None else word
    return (f'<span class="symcal-status symcal-{esc(word)}" style="display:inline-block;padding:0 8px;'
            f"border-radius:10px;font-weight:600;font-size:12px;color:{fg};background:{bg};"
            f'border:1px solid {fg}">{esc(label)}</span>')


def _holds_badge(holds: bool | None) -> str:
    return status_badge(holds, {True: "holds", False: "fails", None: "undecided"}[holds])


def _mark_badge(mark: str) -> str:
    colour = MARK_COLOURS.get(mark, "#57606a")
    return f'<span style="font-weight:600;font-size:12px;color:{colour}">{esc(mark)}</span>'


def _card(body: str, colour: str = "#d0d7de", anchor: str = "") -> str:
    ident = f' id="{esc(anchor)}"' if anchor else ""
    return f'<div class="symcal"{ident} style="{CARD};border-left:4px solid {colour}">{body}</div>'


def _row(label: str, value: str) -> str:
    return (f'<div><span style="color:#57606a;display:inline-block;min-width:88px">{esc(label)}</span> '
            f"{value}</div>")


def _pre(text: str, limit: int = SMT_CHARS) -> str:
    shown = text if len(text) <= limit else text[:limit]
    more = "" if len(text) <= limit else (f"\n... ({len(text) - limit:,} more characters; "
                                          "`symcal check ID --smtlib DIR` writes the full text)")
    return (f'<pre style="{MONO};background:#f6f8fa;padding:6px;margin:2px 0;white-space:pre-wrap;'
            f'max-height:320px;overflow:auto">{esc(shown + more)}</pre>')


def _details(summary: str, body: str, *, open_: bool = False) -> str:
    return (f"<details{' open' if open_ else ''} style=\"margin:3px 0\"><summary style=\"cursor:pointer;"
            f"color:#0969da\">{summary}</summary><div style=\"margin-left:14px\">{body}</div></details>")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], *, raw: bool = False) -> str:
    """A small table; cells are escaped unless ``raw``."""
    head = "".join(f'<th style="{TH}">{esc(h)}</th>' for h in header)
    body = "".join("<tr>" + "".join(f'<td style="{TD}">{c if raw else esc(c)}</td>' for c in r) + "</tr>"
                   for r in rows)
    return f'<table style="{TABLE}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _short(text: str, n: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 3] + "..."


# --------------------------------------------------------------------------- SVG graphs


def _svg_id(*parts: Any) -> str:
    return "s" + hashlib.sha1(repr(parts).encode()).hexdigest()[:10]


def _svg_open(width: float, height: float, mid: str, edge: str, title: str) -> list[str]:
    """The start of a drawing: the ``<svg>`` element, the arrow heads ``{mid}n`` (colour ``edge``)
    and ``{mid}h`` (highlighted), and the title if any."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" role="img"><defs>']
    for name, colour in (("n", edge), ("h", HIGHLIGHT)):
        out.append(f'<marker id="{mid}{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                   f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/>'
                   "</marker>")
    out.append("</defs>")
    if title:
        out.append(f'<text x="{width / 2:.1f}" y="15" text-anchor="middle" font-size="13" font-weight="600" '
                   f'fill="#1f2328">{esc(title)}</text>')
    return out


def _svg_node(x: float, y: float, r: float, name: Any, hot: bool) -> list[str]:
    """A node: a circle of radius ``r`` at (x, y), red when ``hot``, with its name."""
    return [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{"#ffebe9" if hot else "#ddf4ff"}" '
            f'stroke="{HIGHLIGHT if hot else "#0969da"}" stroke-width="{2.4 if hot else 1.4}"/>',
            f'<text x="{x:.1f}" y="{y + 4.5:.1f}" text-anchor="middle" font-size="13" font-weight="600" '
            f'fill="#1f2328">{esc(name)}</text>']


def _svg_close(x: float, y: float, caption: str) -> list[str]:
    """The end of a drawing: the caption (if any) centred at (x, y), then ``</svg>``."""
    out = [f'<text x="{x:.1f}" y="{y:.0f}" text-anchor="middle" font-size="11" fill="#57606a">{esc(caption)}</text>']
    return (out if caption else []) + ["</svg>"]


def circle_positions(nodes: Sequence[Any], *, radius: float = 1.0) -> dict[Any, tuple[float, float]]:
    """Nodes on a circle, the first at the top, clockwise (the layout of every graph symcal draws:
    a chord never passes through a third node)."""
    n = len(nodes)
    if n == 1:
        return {nodes[0]: (0.0, 0.0)}
    return {v: (radius * math.sin(2 * math.pi * k / n), -radius * math.cos(2 * math.pi * k / n))
            for k, v in enumerate(nodes)}


def svg_graph(nodes: Sequence[Any], edges: Sequence[tuple[Any, Any, str]], *,
              highlight_edges: Iterable[tuple[Any, Any]] = (), highlight_nodes: Iterable[Any] = (),
              dashed_edges: Iterable[tuple[Any, Any, str]] = (), title: str = "", caption: str = "",
              size: int = 280) -> str:
    """A directed graph as inline SVG: ``edges`` are ``(u, v, label)``; highlighted edges and
    nodes are red and thick; ``dashed_edges`` (e.g. the missing edge of a low-noise violation) are
    drawn red and dashed.  A pair with edges both ways is drawn as two arcs."""
    nodes = list(nodes)
    hl_e = {(u, v) for u, v in highlight_edges}
    hl_n = set(highlight_nodes)
    dashed = list(dashed_edges)
    r_node = 15 if len(nodes) <= 8 else 12
    margin = 34
    top = 22 if title else 6
    inner = size - 2 * margin
    unit = circle_positions(nodes)
    ylo = min(y for _, y in unit.values())
    yhi = max(y for _, y in unit.values())
    pos = {v: (size / 2 + x * inner / 2, top + margin + (y - ylo) * inner / 2) for v, (x, y) in unit.items()}
    height = top + 2 * margin + (yhi - ylo) * inner / 2 + (18 if caption else 0)
    mid = _svg_id(tuple(nodes), tuple(edges), tuple(sorted(map(str, hl_e))), tuple(map(str, dashed)))
    out = _svg_open(size, height, mid, EDGE, title)
    pairs = {(u, v) for u, v, _ in edges}
    labels = []

    def draw(u: Any, v: Any, label: str, colour: str, width: float, marker: str, dash: str = "") -> None:
        (x1, y1), (x2, y2) = pos[u], pos[v]
        dx, dy = x2 - x1, y2 - y1
        dist = math.hypot(dx, dy) or 1.0
        ux, uy = dx / dist, dy / dist
        bend = 0.18 * dist if (v, u) in pairs else 0.0  # a 2-cycle, or a dashed edge beside its reverse
        # control point to the left of u -> v; both arcs of a 2-cycle bend apart
        cx, cy = (x1 + x2) / 2 - uy * bend, (y1 + y2) / 2 + ux * bend
        def toward(px: float, py: float, qx: float, qy: float, d: float) -> tuple[float, float]:
            ddx, ddy = qx - px, qy - py
            n = math.hypot(ddx, ddy) or 1.0
            return px + ddx / n * d, py + ddy / n * d
        sx, sy = toward(x1, y1, cx, cy, r_node + 1)
        ex, ey = toward(x2, y2, cx, cy, r_node + 3)
        style = f'stroke="{colour}" stroke-width="{width}" fill="none"'
        if dash:
            style += f' stroke-dasharray="{dash}"'
        end = f' marker-end="url(#{mid}{marker})"' if marker else ""
        if bend:
            out.append(f'<path d="M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}" {style}{end}/>')
        else:
            out.append(f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" {style}{end}/>')
        if label:
            # label 40% along the arc from its source (two diagonals crossing at the centre keep
            # their labels apart), nudged off the line
            lx = 0.36 * x1 + 0.48 * cx + 0.16 * x2 - uy * 8
            ly = 0.36 * y1 + 0.48 * cy + 0.16 * y2 + ux * 8 + 4
            labels.append(f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="middle" font-size="12" '
                          f'fill="{colour}" stroke="#ffffff" stroke-width="3" paint-order="stroke" '
                          f'font-weight="{600 if colour == HIGHLIGHT else 400}">{esc(label)}</text>')

    for u, v, label in edges:
        hot = (u, v) in hl_e
        draw(u, v, label, HIGHLIGHT if hot else EDGE, 2.6 if hot else 1.4, "h" if hot else "n")
    for u, v, label in dashed:
        draw(u, v, label, HIGHLIGHT, 1.8, "h", dash="5,4")
    out += labels
    for v in nodes:
        x, y = pos[v]
        out += _svg_node(x, y, r_node, v, v in hl_n)
    return "".join(out + _svg_close(size / 2, height - 5, caption))


def svg_order_arcs(order: Sequence[Any], edges: Sequence[tuple[Any, Any, str]], back: Iterable[tuple[Any, Any]],
                   *, title: str = "", caption: str = "", width: int = 0) -> str:
    """Nodes in ``order`` (best first) on a line; forward edges as grey arcs above, the back
    edges (the feedback arc set the order pays for) as red arcs below, each with its weight."""
    order = list(order)
    back_set = {(u, v) for u, v in back}
    step = 70
    width = width or max(240, step * (len(order) - 1) + 80)
    x0 = (width - step * (len(order) - 1)) / 2
    pos = {v: x0 + step * k for k, v in enumerate(order)}
    spans = {True: [0.0], False: [0.0]}
    for u, v, _ in edges:
        spans[(u, v) in back_set].append(abs(pos[u] - pos[v]))
    top = 22 if title else 4
    up = 0.21 * max(spans[False]) + 10 + 12 + 16 if len(spans[False]) > 1 else 14
    down = 0.21 * max(spans[True]) + 10 + 14 + 18 if len(spans[True]) > 1 else 14
    base = top + up
    height = base + down + (16 if caption else 0)
    mid = _svg_id("arcs", tuple(order), tuple(edges), tuple(sorted(map(str, back_set))))
    out = _svg_open(width, height, mid, "#8c959f", title)
    labels = []
    for u, v, label in edges:
        xa, xb = pos[u], pos[v]
        hot = (u, v) in back_set
        span = abs(xb - xa)
        h = 0.21 * span + 10  # the arc's height above (below) the line
        sign = 1 if hot else -1  # back edges below the line
        cx = (xa + xb) / 2
        cy = base + sign * (2 * h + 12)
        shift = 4 if xb > xa else -4
        sx, ex = xa + shift, xb - shift
        colour = HIGHLIGHT if hot else "#8c959f"
        out.append(f'<path d="M{sx:.1f},{base + sign * 12:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{base + sign * 14:.1f}" '
                   f'stroke="{colour}" stroke-width="{2.4 if hot else 1.2}" fill="none" '
                   f'marker-end="url(#{mid}{"h" if hot else "n"})"/>')
        if label:
            ly = base + sign * (h + 12 + 3) + (9 if hot else 0)
            labels.append(f'<text x="{cx:.1f}" y="{ly:.1f}" text-anchor="middle" font-size="11" fill="{colour}" '
                          f'stroke="#ffffff" stroke-width="3" paint-order="stroke" '
                          f'font-weight="{600 if hot else 400}">{esc(label)}</text>')
    out += labels
    for v in order:
        out += _svg_node(pos[v], base, 12, v, False)
    return "".join(out + _svg_close(width / 2, height - 4, caption))


def svg_sweep(verdict: Verdict, *, width: int = 320, height: int = 170) -> str:
    """Seconds against size for a sized sweep (a verdict's ``sizes``), one dot per size coloured
    by its status; sizes not reached are left out."""
    rows = [s for s in verdict.sizes if s.seconds > 0 or s.status is not Status.UNKNOWN]
    if not rows:
        return ""
    left, right, top, bottom = 44, 12, 22, 30
    xs = [s.size for s in rows]
    ys = [s.seconds for s in rows]
    xlo, xhi = min(xs), max(xs)
    ymax = max(ys) or 1.0
    xspan = (xhi - xlo) or 1

    def px(x: float) -> float:
        return left + (x - xlo) / xspan * (width - left - right) if xhi > xlo else (left + width - right) / 2

    def py(y: float) -> float:
        return height - bottom - y / ymax * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="{FONT}" role="img">',
           f'<text x="{width / 2:.0f}" y="14" text-anchor="middle" font-size="12" font-weight="600" fill="#1f2328">'
           f"{esc(verdict.claim_id)}: seconds per size</text>",
           f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="#8c959f"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#8c959f"/>']
    for frac in (0.0, 0.5, 1.0):
        y = py(frac * ymax)
        out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="10" fill="#57606a">'
                   f"{frac * ymax:.3g}</text>")
    ticks = sorted(set(xs)) if len(set(xs)) <= 12 else sorted(set(xs))[:: math.ceil(len(set(xs)) / 12)]
    for x in ticks:
        out.append(f'<text x="{px(x):.1f}" y="{height - bottom + 13}" text-anchor="middle" font-size="10" '
                   f'fill="#57606a">{x}</text>')
    out.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 3}" text-anchor="middle" font-size="10" '
               f'fill="#57606a">size m</text>')
    pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys, strict=True))
    out.append(f'<polyline points="{pts}" fill="none" stroke="#8c959f" stroke-width="1.2"/>')
    for s in rows:
        fg, _ = STATUS_COLOURS.get(s.status.value, ("#57606a", ""))
        out.append(f'<circle cx="{px(s.size):.1f}" cy="{py(s.seconds):.1f}" r="3.5" fill="{fg}">'
                   f"<title>m = {s.size}: {esc(s.status.value)}, {s.seconds:.3g} s</title></circle>")
    out.append("</svg>")
    return "".join(out)


# --------------------------------------------------------------------------- node counterexamples

_A_KEY = re.compile(r"a\[(\d+),(\d+)\]")
_FAILS_AT = re.compile(r"conclusion fails at \(([\d, ]+)\)")


class NodeCounterexample:
    """The counterexample of a refuted node claim: ``m``, the exact weights ``a[(i, j)]``, the
    conclusion tuple that fails (or None when it cannot be read) and how it was found."""

    def __init__(self, m: int, weights: dict[tuple[int, int], Fraction], failing: tuple[int, ...] | None,
                 detail: str) -> None:
        self.m = m
        self.weights = weights
        self.failing = failing
        self.detail = detail

    def differences(self) -> list[tuple[int, int, Fraction]]:
        """The difference graph's edges ``(i, j, a_ij - a_ji)`` with ``a_ij > a_ji``."""
        a = self.weights
        return [(i, j, w - a.get((j, i), Fraction(0))) for (i, j), w in sorted(a.items())
                if w > a.get((j, i), Fraction(0))]

    def highlighted_edges(self) -> list[tuple[int, int]]:
        """Difference-graph edges between nodes of the failing tuple."""
        if not self.failing:
            return []
        nodes = set(self.failing)
        return [(i, j) for i, j, _ in self.differences() if i in nodes and j in nodes]


def node_counterexample(verdict: Verdict, claim: Any = None) -> NodeCounterexample | None:
    """The node counterexample of a refuted verdict whose witness has values ``a[i,j]``, or None.

    With the claim at hand the witness is re-checked on the claim's own functions in exact
    arithmetic (:func:`symcal.backends.nodes.recheck`) and the failing tuple is taken from that
    re-check; otherwise from the witness's own detail."""
    w = verdict.witness
    if verdict.status is not Status.REFUTED or w is None or not w.values:
        return None
    weights: dict[tuple[int, int], Fraction] = {}
    for key, value in w.values.items():
        mm = _A_KEY.fullmatch(str(key))
        if mm is None:
            return None
        try:
            weights[(int(mm.group(1)), int(mm.group(2)))] = Fraction(value)
        except (TypeError, ValueError):
            return None
    m = w.size or max(max(e) for e in weights)
    detail = w.detail
    spec = getattr(claim, "spec", None)
    if spec is not None and type(spec).__name__ == "NodeSpec":
        try:
            from symcal.backends.nodes import recheck

            ok, text = recheck(spec, m, weights)
            if ok:
                detail = text
        except Exception:  # noqa: BLE001 - the picture falls back on the witness's own detail
            pass
    found = _FAILS_AT.search(detail)
    failing = tuple(int(t) for t in found.group(1).split(",")) if found else None
    return NodeCounterexample(m, weights, failing, detail)


def node_counterexample_svg(cx: NodeCounterexample, *, title: str = "") -> str:
    edges = [(i, j, fraction_str(d)) for i, j, d in cx.differences()]
    at = f"conclusion fails at {cx.failing}" if cx.failing else "counterexample"
    return svg_graph(list(range(1, cx.m + 1)), edges, highlight_edges=cx.highlighted_edges(),
                     highlight_nodes=cx.failing or (), title=title or f"difference graph, m = {cx.m}",
                     caption=f"edge i→j: a_ij − a_ji > 0; {at}")


def _weights_matrix(m: int, a: dict[tuple[int, int], Fraction], highlight: Iterable[int] = ()) -> str:
    hot = set(highlight)
    head = "".join(f'<th style="{TH}">{j}</th>' for j in range(1, m + 1))
    rows = []
    for i in range(1, m + 1):
        cells = []
        for j in range(1, m + 1):
            text = "·" if i == j else num(a.get((i, j), Fraction(0)))
            bold = ";color:#cf222e;font-weight:600" if i in hot and j in hot and i != j else ""
            zero = ";color:#8c959f" if i != j and not a.get((i, j)) and not bold else ""
            cells.append(f'<td style="{TD};text-align:right{bold}{zero}">{esc(text)}</td>')
        rows.append(f'<tr><th style="{TH}">{i}</th>{"".join(cells)}</tr>')
    return (f'<table style="{TABLE}"><thead><tr><th style="{TH}">a<sub>ij</sub></th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


# --------------------------------------------------------------------------- claims


def formula_parts(claim: Any) -> dict[str, Any] | None:
    """The claim's formulas as sympy objects, built at the smallest default size for a sized
    claim: ``{"lhs", "rhs"}`` for an identity, ``{"hypotheses": [(name, [relations])],
    "conclusion"}`` for an implication, plus ``"m"``; None for other kinds (or when a builder
    fails)."""
    from symcal.claims.core import IdentitySpec, ImpliesSpec

    m = claim.sizes.default[0] if getattr(claim, "sizes", None) is not None else None
    spec = claim.spec
    try:
        if isinstance(spec, IdentitySpec):
            return {"lhs": spec.lhs(m), "rhs": spec.rhs(m), "m": m}
        if isinstance(spec, ImpliesSpec):
            hyps = []
            for name, build in spec.hypotheses.items():
                rels = build(m)
                hyps.append((name, list(rels) if isinstance(rels, list | tuple) else [rels]))
            return {"hypotheses": hyps, "conclusion": spec.conclusion(m), "m": m}
    except Exception:  # noqa: BLE001 - a claim whose builders need more than m shows no formula
        return None
    return None


def _formula_html(claim: Any) -> str:
    parts = formula_parts(claim)
    if parts is None:
        spec = claim.spec
        lines = []
        for name, h in (getattr(spec, "hypotheses", None) or {}).items():
            text = getattr(h, "text", "")
            if text:
                lines.append(f"{esc(name)}: {esc(text)} <span style=\"color:#57606a\">(every ordered "
                             f"{h.arity}-tuple of distinct nodes)</span>")
        concl: Any = getattr(spec, "conclusion", None)
        concl_text = getattr(concl, "text", None) if concl is not None else None
        if concl_text:
            lines.append(f"⟹ {esc(concl_text)} <span style=\"color:#57606a\">(every ordered "
                         f"{concl.arity}-tuple)</span>")
        return "<br>".join(lines)
    at = f' <span style="color:#57606a">(at m = {parts["m"]})</span>' if parts.get("m") is not None else ""
    if "lhs" in parts:
        lhs, rhs = esc(_short(num(parts["lhs"]), 300)), esc(_short(num(parts["rhs"]), 300))
        return f'<code style="{MONO}">{lhs} = {rhs}</code>{at}'
    hyps = "<br>".join(f'{esc(name)}: <code style="{MONO}">{esc(_short(", ".join(num(r) for r in rels), 300))}</code>'
                       for name, rels in parts["hypotheses"])
    return (f"{hyps}{'<br>' if hyps else ''}⟹ <code style=\"{MONO}\">{esc(_short(num(parts['conclusion']), 300))}"
            f"</code>{at}")


def _finding_html(finding: Any) -> str:
    return (f'<div style="background:#fbefff;border:1px solid #8250df;padding:4px 8px;margin:4px 0">'
            f'<b style="color:#8250df">Finding (erratum)</b>: {esc(finding.what)}<br>'
            f"<b>Counterexample</b>: {esc(finding.counterexample)}<br>"
            f"<b>Corrected claim</b>: <code style=\"{MONO}\">{esc(finding.corrected)}</code></div>")


def claim_html(claim: Any) -> str:
    """A claim: id, kind, expected outcome, statement, citation and quote, hypotheses and
    conclusion, sizes, how it is checked, and any recorded finding."""
    c = claim
    expected = status_badge(c.expected, f"expected {c.expected.value}") if c.expected else ""
    head = (f'<div><code style="{MONO};font-weight:600">{esc(c.id)}</code> '
            f'<span style="color:#57606a">({esc(c.kind)})</span> {expected}</div>')
    body = [head]
    if c.statement:
        body.append(f"<div>{esc(c.statement)}</div>")
    cite = esc(f"{c.citation.paper}, {c.citation.location}")
    if c.citation.quote:
        cite += f" — <q>{esc(c.citation.quote)}</q>"
    body.append(_row("citation", cite))
    formula = _formula_html(c)
    if formula:
        body.append(_row("formula", formula))
    if c.sizes:
        s = c.sizes
        scope = (f"all {s.name} ≥ {s.minimum}" if c.strategy == "local_lemma"
                 else f"{s.name} = {s.default[0]}..{s.default[1]} by default (any {s.name} ≥ {s.minimum})")
        body.append(_row("sizes", esc(scope)))
    if c.method:
        body.append(_row("checked by", esc(c.method)))
    if c.finding:
        body.append(_finding_html(c.finding))
    return _card("".join(body), "#0969da")


# --------------------------------------------------------------------------- evidence


def evidence_html(ev: Evidence | None, *, smt_chars: int = SMT_CHARS, depth: int = 0) -> str:
    """Evidence a sceptic can re-check: its summary, then its fields; SMT-LIB2 text folded."""
    if ev is None:
        return '<i style="color:#57606a">no evidence</i>'
    out = [f'<div><span style="color:#57606a">{esc(ev.kind)}</span>: {esc(_short(ev.summary(), 600))}</div>']
    if isinstance(ev, Composite):
        items = []
        for k, (label, part) in enumerate(ev.parts):
            if k >= 40:
                items.append(f"<li>... and {len(ev.parts) - 40} more parts</li>")
                break
            items.append(f"<li><b>{esc(label)}</b>: {evidence_html(part, smt_chars=smt_chars, depth=depth + 1)}</li>")
        out.append(f'<ul style="margin:2px 0;padding-left:18px">{"".join(items)}</ul>')
        return "".join(out)
    if isinstance(ev, SmtResult):
        lines = ev.smtlib.count("\n") + 1
        if smt_chars > 0:
            out.append(_details(f"SMT-LIB2 of the query ({lines} lines)", _pre(ev.smtlib, smt_chars)))
        else:
            out.append(f'<div style="color:#57606a">SMT-LIB2 of the query: {lines} lines; '
                       "<code>symcal check ID --smtlib DIR</code> writes it</div>")
        return "".join(out)
    data = ev.to_json()
    rows = []
    for key, value in data.items():
        if key in ("kind", "query") or value in (None, "", [], {}):
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        cell = _pre(text, 1200) if len(text) > 160 else f'<code style="{MONO}">{esc(text)}</code>'
        rows.append((esc(key), cell))
    if rows:
        out.append(_table(("field", "value"), rows, raw=True))
    query = getattr(ev, "query", None)
    if isinstance(query, SmtResult):
        out.append(_details("the satisfiable SMT query the model came from",
                            evidence_html(query, smt_chars=smt_chars, depth=depth + 1)))
    return "".join(out)


def _witness_html(v: Verdict, claim: Any = None) -> str:
    w = v.witness
    if w is None:
        return ""
    cx = node_counterexample(v, claim)
    label = "counterexample" if v.status is Status.REFUTED else "witness"
    rechecked = "re-checked exactly" if w.rechecked else "NOT re-checked"
    if cx is not None:
        pieces = (f'<div style="display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start">'
                  f"<div>{node_counterexample_svg(cx)}</div>"
                  f"<div>{_weights_matrix(cx.m, cx.weights, cx.failing or ())}"
                  f'<div style="max-width:380px;color:#57606a">{esc(cx.detail)}</div></div></div>')
        return (f'<div style="margin:4px 0"><b>{label}</b> at m = {cx.m} ({rechecked}, found by '
                f"{esc(w.found_by or v.backend)}):{pieces}</div>")
    vectors: dict[str, list[tuple[int, Any]]] = {}
    rest = []
    for k, x in w.values.items():
        mm = re.fullmatch(r"([pu])(\d+)", str(k))
        if mm:
            vectors.setdefault(mm.group(1), []).append((int(mm.group(2)), x))
        else:
            rest.append((k, x))
    shown = [f"{name} = ({', '.join(num(x) for _, x in sorted(items))})" for name, items in vectors.items()]
    shown += [f"{k} = {num(x)}" for k, x in rest[:60]]
    values = ", ".join(f'<code style="{MONO}">{esc(t)}</code>' for t in shown)
    if len(rest) > 60:
        values += f" ... ({len(w.values)} values)"
    at = f" at m = {w.size}" if w.size is not None else ""
    detail = f'<div style="color:#57606a">{esc(w.detail)}</div>' if w.detail else ""
    return f'<div style="margin:4px 0"><b>{label}</b>{at} ({rechecked}): {values}{detail}</div>'


def _sizes_html(v: Verdict) -> str:
    if not v.sizes:
        return ""
    rows = [(str(s.size), status_badge(s.status), f"{s.seconds:.3f}", esc(_short(s.scope, 80)),
             esc(_short(s.reason, 160))) for s in v.sizes]
    chart = svg_sweep(v) if len(v.sizes) >= 2 else ""
    return _details(f"{len(v.sizes)} sizes", chart + _table(("m", "status", "seconds", "scope", "reason"), rows,
                                                             raw=True))


def _mark(claim: Any, v: Verdict) -> str:
    from symcal.report.render import _mark as mark

    return mark(claim, v)


def verdict_html(v: Verdict, claim: Any = None, *, smt_chars: int = SMT_CHARS, open_evidence: bool = False) -> str:
    """One verdict: the status coloured, the claim's id and statement, the scope, the reason,
    the counterexample (a refuted node claim draws its difference graph), and the evidence in
    a ``<details>``."""
    fg, _ = STATUS_COLOURS.get(v.status.value, ("#57606a", ""))
    if claim is not None and getattr(claim, "id", None) != v.claim_id:
        claim = None
    mark = ""
    if claim is not None and claim.expected is not None:
        mark = f" {_mark_badge(_mark(claim, v))} <span style=\"color:#57606a\">(the source: " \
               f"{esc(claim.expected.value)})</span>"
    head = (f"<div>{status_badge(v.status)} <code style=\"{MONO};font-weight:600\">{esc(v.claim_id)}</code>{mark}"
            f' <span style="color:#57606a;float:right">{esc(v.backend)} · {v.seconds:.2f} s</span></div>')
    body = [head]
    if claim is not None and claim.statement:
        body.append(f"<div>{esc(claim.statement)}</div>")
        body.append(_row("citation", esc(f"{claim.citation.paper}, {claim.citation.location}")))
    body.append(_row("scope", esc(v.scope)))
    if v.reason:
        body.append(_row("reason", esc(v.reason)))
    for w in v.warnings:
        body.append(_row("warning", f'<span style="color:#9a6700;font-weight:600">{esc(w)}</span>'))
    if v.cross_check is not None:
        body.append(_row("2nd opinion", esc(v.cross_check.summary())))
    cert = getattr(v, "certificate", None)  # the independent kernel's check (symcal check --certify)
    if cert is not None:
        word = ("REJECTED by the kernel" if getattr(cert, "rejected", False) else
                "checked by the kernel" if getattr(cert, "checked", False) else "not checked by the kernel")
        body.append(_row("certificate", f"{esc(getattr(cert, 'kind', ''))}: <b>{esc(word)}</b> "
                                        f"{esc(getattr(cert, 'reason', ''))}"))
    body.append(_witness_html(v, claim))
    if claim is not None and claim.finding is not None:
        body.append(_finding_html(claim.finding))
    body.append(_sizes_html(v))
    body.append(_details(f"evidence ({esc(v.evidence.kind if v.evidence else 'none')})",
                         evidence_html(v.evidence, smt_chars=smt_chars), open_=open_evidence))
    return _card("".join(body), fg, anchor=v.claim_id)


def _pairs(verdicts: Sequence[Verdict], claims: Sequence[Any] | None) -> list[tuple[Any, Verdict]]:
    if claims is not None and len(claims) == len(verdicts) and all(
            getattr(c, "id", None) == v.claim_id for c, v in zip(claims, verdicts, strict=True)):
        return list(zip(claims, verdicts, strict=True))
    return [(None, v) for v in verdicts]


def html_table(pairs: Sequence[tuple[Any, Verdict]], *, smt_chars: int = SMT_CHARS,
               shown_elsewhere: Iterable[str] = (), max_folded: int | None = None) -> str:
    """Verdicts as a table (status coloured, agreement with the source, scope, seconds), then a
    card for each verdict worth a look: refuted, witnessed, disagreeing, undecided or warned;
    every other card folded below (at most ``max_folded`` of them; the table still lists every
    verdict).  The ids in ``shown_elsewhere`` (the errata of a report) link to their card
    ``#erratum-<id>`` instead of repeating it."""
    from symcal.report.render import agrees

    elsewhere = set(shown_elsewhere)
    rows = []
    cards_open: list[str] = []
    cards_folded: list[str] = []
    for c, v in pairs:
        mark = _mark_badge(_mark(c, v)) if c is not None and c.expected is not None else ""
        expected = esc(c.expected.value) if c is not None and c.expected else "-"
        target = f"erratum-{v.claim_id}" if v.claim_id in elsewhere else v.claim_id
        rows.append((f'<a href="#{esc(target)}" style="color:#0969da"><code style="{MONO}">{esc(v.claim_id)}'
                     "</code></a>", status_badge(v.status), expected, mark, esc(_short(v.scope, 70)),
                     f"{v.seconds:.2f}"))
        if v.claim_id in elsewhere:
            continue
        card = verdict_html(v, c, smt_chars=smt_chars)
        worth = (v.status in (Status.REFUTED, Status.WITNESSED, Status.UNKNOWN, Status.ERROR) or bool(v.warnings)
                 or (c is not None and c.expected is not None and not agrees(c, v)))
        (cards_open if worth else cards_folded).append(card)
    counts: dict[str, int] = {}
    for _, v in pairs:
        counts[v.status.value] = counts.get(v.status.value, 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in counts.items())
    total = sum(v.seconds for _, v in pairs)
    out = [f'<div style="font-family:{FONT};font-size:13px;margin:4px 0"><b>{len(pairs)} verdicts</b>: '
           f"{esc(summary)}; {total:.1f} s of checking</div>",
           _table(("id", "status", "expected", "", "scope", "seconds"), rows, raw=True)]
    out += cards_open
    if cards_folded:
        more = ""
        if max_folded is not None and len(cards_folded) > max_folded:
            more = (f'<div style="color:#57606a">... and {len(cards_folded) - max_folded} more: '
                    "<code>symcal report --format html</code> writes every card</div>")
            cards_folded = cards_folded[:max_folded]
        out.append(_details(f"{len(cards_folded)} more verdicts (proved / confirmed)", "".join(cards_folded) + more))
    return f'<div class="symcal-verdicts" style="font-family:{FONT}">{"".join(out)}</div>'


def verdicts_html(verdicts: Sequence[Verdict], claims: Sequence[Any] | None = None) -> str:
    """The verdicts of ``check_many`` (with their claims when known) as :func:`html_table`."""
    return html_table(_pairs(verdicts, claims), max_folded=NOTEBOOK_FOLDED)


# --------------------------------------------------------------------------- the report


REPORT_CSS = """
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px auto;max-width:1060px;
color:#1f2328;padding:0 16px}
h1{font-size:24px;margin-bottom:4px}h2{font-size:19px;border-bottom:1px solid #d0d7de;padding-bottom:3px;
margin-top:30px}h3{font-size:15px}
.meta{color:#57606a;font-size:12px}
nav a{margin-right:12px}
table.summary td,table.summary th{border:1px solid #d0d7de;padding:2px 8px;font-size:13px}
table.summary{border-collapse:collapse}
@media print{details{display:block}summary{display:none}}
"""


def report_html(pairs: Sequence[tuple[Any, Verdict]], title: str = "symcal report", *,
                smt_chars: int = 0) -> str:
    """A whole report as ONE self-contained HTML file (inline CSS and SVG; no network, no
    script): the backend versions, a summary per paper, the errata first (each with its
    finding and counterexample), then every paper's verdicts grouped, statuses coloured."""
    from symcal.report.render import agrees, by_paper_sorted, is_erratum, outcome_counts, versions

    pairs = sorted(pairs, key=lambda p: p[0].id)
    vers = versions()
    by_paper = by_paper_sorted(pairs)
    errata = [(c, v) for c, v in pairs if is_erratum(c, v)]
    n_ok, _, n_bad = outcome_counts(pairs)

    def anchor(paper: str) -> str:
        return "paper-" + re.sub(r"[^A-Za-z0-9_-]+", "-", paper)

    summary_rows = []
    for paper, rows in by_paper.items():
        ok = sum(agrees(c, v) for c, v in rows)
        err = sum(is_erratum(c, v) for c, v in rows)
        bad = len(rows) - ok - err
        summary_rows.append(
            f'<tr><td><a href="#{anchor(paper)}">{esc(paper)}</a></td><td>{len(rows)}</td><td>{ok}</td>'
            f'<td>{err}</td><td style="color:{"#cf222e" if bad else "#1f2328"};font-weight:{600 if bad else 400}">'
            f"{bad}</td><td>{sum(v.seconds for _, v in rows):.1f}</td></tr>")
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{esc(title)}</title><style>{REPORT_CSS}</style></head><body>",
           f"<h1>{esc(title)}</h1>",
           f'<p class="meta">Backends: {esc(", ".join(f"{k} {v}" for k, v in vers.items()))}</p>',
           f"<p><b>{len(pairs)} claims</b>: {n_ok} agree with the source, {len(errata)} recorded errata, "
           f'<span style="color:{"#cf222e" if n_bad else "#1f2328"}">{n_bad} disagree</span>; '
           f"{esc(_status_counts(pairs))}.</p>",
           '<table class="summary"><thead><tr><th>paper</th><th>claims</th><th>agree</th><th>errata</th>'
           f"<th>disagree</th><th>seconds</th></tr></thead><tbody>{''.join(summary_rows)}</tbody></table>",
           '<nav><p><a href="#errata">Errata</a>'
           + "".join(f'<a href="#{anchor(p)}">{esc(p)}</a>' for p in by_paper) + "</p></nav>"]
    out.append(f'<h2 id="errata">Errata ({len(errata)})</h2>')
    if errata:
        out.append("<p>Printed statements that symcal refutes, each with its finding, the smallest "
                   "counterexample and the corrected claim.</p>")
        for c, v in errata:
            out.append(verdict_html(v, c, smt_chars=smt_chars).replace(f'id="{esc(v.claim_id)}"',
                                                                      f'id="erratum-{esc(v.claim_id)}"', 1))
    else:
        out.append("<p>None among these claims.</p>")
    for paper, rows in by_paper.items():
        out.append(f'<h2 id="{anchor(paper)}">{esc(paper)} ({len(rows)} claims)</h2>')
        out.append(html_table(rows, smt_chars=smt_chars, shown_elsewhere=[c.id for c, _ in errata]))
    out.append('<p class="meta">Written by symcal; self-contained (no scripts, no network).</p></body></html>')
    return _styles_to_classes("\n".join(out))


_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_STYLE = re.compile(r' style="([^"]*)"')
_CLASS = re.compile(r' class="([^"]*)"')


def _styles_to_classes(doc: str, *, at_least: int = 3) -> str:
    """The same page with every inline style used ``at_least`` times moved into one CSS class
    of the page's own stylesheet (a report repeats a few styles thousands of times; the
    notebook fragments keep inline styles, which survive any notebook viewer)."""
    counts: dict[str, int] = {}
    for style in _STYLE.findall(doc):
        counts[style] = counts.get(style, 0) + 1
    names = {style: f"c{k}" for k, style in enumerate(sorted(s for s, n in counts.items() if n >= at_least))}
    if not names:
        return doc

    def tag(mm: re.Match[str]) -> str:
        text = mm.group(0)
        st = _STYLE.search(text)
        if st is None or st.group(1) not in names:
            return text
        cls = names[st.group(1)]
        text = text[:st.start()] + text[st.end():]
        if _CLASS.search(text):
            return _CLASS.sub(lambda c: f' class="{c.group(1)} {cls}"', text, count=1)
        return text[:-1].rstrip("/") + f' class="{cls}"' + ("/>" if text.endswith("/>") else ">")

    body = _TAG.sub(tag, doc)
    css = "".join(f".{name}{{{style}}}" for style, name in names.items())
    return body.replace("</style>", css + "</style>", 1)


def _status_counts(pairs: Sequence[tuple[Any, Verdict]]) -> str:
    counts = {s: 0 for s in Status}
    for _, v in pairs:
        counts[v.status] += 1
    return ", ".join(f"{n} {s.value}" for s, n in counts.items() if n)


# --------------------------------------------------------------------------- domain objects


def preference_html(obj: Any, m: int | None = None, *, max_m: int = 15) -> str:
    """A preference distribution (or graph, or weights): its graphs, the expected weights a_ij,
    the difference graph with the low-noise verdict (the violating triple in red), and the
    minimum conditional risk with the back edges of an optimal order (its feedback arc set)."""
    from symcal.ranking.difference import difference_cycle, difference_graph, is_low_noise
    from symcal.ranking.preference import PreferenceDistribution, PreferenceGraph, as_weights, format_cycle

    m, a = as_weights(obj, m)
    nodes = list(range(1, m + 1))
    body = []
    if isinstance(obj, PreferenceDistribution):
        body.append(f"<div><b>Preference distribution</b> on m = {m} results, {len(obj)} graph(s) "
                    "(Duchi et al. 2010, Section 2)</div>")
        rows = [(num(p), ", ".join(f"{i}→{j}: {num(w)}" for (i, j), w in g.edges.items()) or "(no edges)")
                for g, p in obj]
        body.append(_table(("p", "edges i→j: weight"), rows))
    elif isinstance(obj, PreferenceGraph):
        body.append(f"<div><b>Preference graph</b> on m = {m} results</div>")
    else:
        body.append(f"<div><b>Expected weights</b> on m = {m} results</div>")
    g = difference_graph(a, m)
    low = is_low_noise(a, m)
    triple = low.witness.get("triple") if (not low.holds and low.witness) else None
    hl_e: list[tuple[int, int]] = []
    dashed: list[tuple[int, int, str]] = []
    if triple is not None:
        i, j, k = triple
        hl_e = [(i, j), (j, k)]
        if g.has_edge(i, k):
            hl_e.append((i, k))
        else:
            dashed = [(i, k, f"d = {num(low.witness['lhs'])}")]  # type: ignore[index]
    edges = [(u, v, num(d["weight"])) for u, v, d in sorted(g.edges(data=True))]
    cycle = difference_cycle(a, m)
    cap = ("a DAG" if cycle is None else f"cycle {format_cycle(cycle)}") + "; edge i→j: a_ij − a_ji"
    pictures = [svg_graph(nodes, edges, highlight_edges=hl_e, highlight_nodes=triple or (),
                          dashed_edges=dashed, title="difference graph", caption=cap)]
    side = [_weights_matrix(m, a), _row("low noise", f"{_holds_badge(low.holds)} {esc(low.reason)}")]
    if m <= max_m:
        from symcal.ranking.losses import min_conditional_risk

        best = min_conditional_risk(a, m)
        pos = {v: k for k, v in enumerate(best.order)}
        back = [(i, j) for (i, j), w in sorted(a.items()) if w > 0 and pos[j] < pos[i]]
        arcs = [(i, j, num(w)) for (i, j), w in sorted(a.items()) if w > 0]
        pictures.append(svg_order_arcs(best.order, arcs, back, title="an optimal order, back edges red",
                                       caption=f"min l(p, α) = {num(best.value)} (Eq. 8)"))
        side.append(_row("min risk", f"{esc(num(best.value))} with the order "
                                     f"{esc(' ≻ '.join(map(str, best.order)))}; back edges "
                                     f"{esc(', '.join(f'{i}→{j}' for i, j in back) or 'none')}"))
    body.append('<div style="display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start">'
                + "".join(f"<div>{p}</div>" for p in pictures) + "</div>")
    body += side
    colour = STATUS_COLOURS["proved" if low.holds else "refuted"][0]
    return _card("".join(body), colour)


def check_result_html(r: Any) -> str:
    """A domain check's answer (:class:`~symcal.ranking._check.CheckResult`): holds or fails,
    why, the witness and how many violations."""
    body = [f"<div>{_holds_badge(bool(r.holds))} {esc(r.reason)}</div>"]
    if r.witness:
        rows = [(esc(k), f'<code style="{MONO}">{esc(_short(num(v), 300))}</code>') for k, v in r.witness.items()]
        body.append(_table(("witness", "value"), rows, raw=True))
    if r.violations:
        shown = ", ".join(num(x) for x in r.violations[:20]) + (" ..." if len(r.violations) > 20 else "")
        body.append(_row("violations", f"{len(r.violations)}: {esc(shown)}"))
    return _card("".join(body), STATUS_COLOURS["proved" if r.holds else "refuted"][0])


def cost_scheme_html(c: Any, violations: Iterable[tuple[int, int]] = ()) -> str:
    """A misranking cost scheme as its K x K table (row j, column i, c_ji above the diagonal);
    ``violations`` (pairs (j, i)) are shown in red."""
    bad = set(violations)
    head = "".join(f'<th style="{TH}">i = {i}</th>' for i in range(1, c.K + 1))
    rows = []
    for j in range(1, c.K + 1):
        cells = []
        for i in range(1, c.K + 1):
            if i <= j:
                cells.append(f'<td style="{TD};color:#8c959f;text-align:center">·</td>')
                continue
            hot = ";color:#cf222e;font-weight:600;background:#ffebe9" if (j, i) in bad else ""
            cells.append(f'<td style="{TD};text-align:right{hot}">{esc(_short(num(c.c(j, i)), 40))}</td>')
        rows.append(f'<tr><th style="{TH}">j = {j}</th>{"".join(cells)}</tr>')
    table = (f'<table style="{TABLE}"><thead><tr><th style="{TH}">c<sub>ji</sub></th>{head}</tr></thead>'
             f"<tbody>{''.join(rows)}</tbody></table>")
    title = f"<div><b>Cost scheme</b> {esc(c.name or '')} (K = {c.K}; Uematsu &amp; Lee 2013, Eq. (5))</div>"
    hint = ('<div style="color:#57606a">Theorem 3 condition: '
            "<code>satisfies_theorem3_condition(c)</code></div>") if not bad else ""
    return _card(title + table + hint, "#0969da")


def condition_html(r: Any) -> str:
    """Theorem 3's condition for a cost scheme (a ``ConditionResult``): holds / fails /
    undecided, the scope, every violating (j, i) with both sides and the exact residual."""
    body = [f"<div>{_holds_badge(r.holds)} <b>Theorem 3 condition</b> c<sub>1K</sub> c<sub>ji</sub> = "
            "c<sub>1i</sub> c<sub>jK</sub> − c<sub>1j</sub> c<sub>iK</sub> "
            f'<span style="color:#57606a;float:right">{r.seconds:.2f} s</span></div>',
            f"<div>{esc(r.reason)}</div>", _row("scope", esc(r.scope))]
    if r.c1K_positive is False:
        body.append(_row("warning", '<span style="color:#9a6700;font-weight:600">c_1K = 0: Theorem 3 then fails '
                                    "(see the errata)</span>"))
    for label, items in (("violations", r.violations), ("undecided", r.undecided)):
        if items:
            rows = [(f"({x.j}, {x.i})", _short(num(x.lhs), 60), _short(num(x.rhs), 60), _short(num(x.residual), 60),
                     _short(x.shown_by, 80)) for x in items[:40]]
            body.append(f"<div><b>{label}</b> ({len(items)})</div>")
            body.append(_table(("(j, i)", "c_1K c_ji", "c_1i c_jK − c_1j c_iK", "residual", "shown by"), rows))
    body.append(_details("evidence", esc(r.evidence)))
    return _card("".join(body), STATUS_COLOURS[_status_word(r.holds)][0])


def _matrix_table(mat: Any, *, limit: int = 12) -> str:
    n, k = mat.shape
    rows_shown, cols_shown = min(n, limit), min(k, limit)
    head = "".join(f'<th style="{TH}">{esc(_short(_label(mat.predictions[b]), 14))}</th>' for b in range(cols_shown))
    if cols_shown < k:
        head += f'<th style="{TH}">… {k - cols_shown} more</th>'
    rows = []
    for a in range(rows_shown):
        cells = "".join(f'<td style="{TD};text-align:right">{esc(num(mat.entry(a, b)))}</td>'
                        for b in range(cols_shown))
        if cols_shown < k:
            cells += f'<td style="{TD}">…</td>'
        rows.append(f'<tr><th style="{TH}">{esc(_short(_label(mat.labels[a]), 18))}</th>{cells}</tr>')
    if rows_shown < n:
        rows.append(f'<tr><td style="{TD}" colspan="{cols_shown + 2}">… {n - rows_shown} more rows</td></tr>')
    return (f'<table style="{TABLE}"><thead><tr><th style="{TH}">label \\ prediction</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _label(x: Any) -> str:
    if isinstance(x, tuple) and all(isinstance(v, int) for v in x):
        return "(" + ",".join(str(v) for v in x) + ")"
    return str(x)


def loss_matrix_html(mat: Any) -> str:
    """A loss matrix: name, shape, entries (the first 12 x 12)."""
    n, k = mat.shape
    title = (f"<div><b>Loss matrix</b> {esc(mat.name)} — {n} labels × {k} predictions "
             f'<span style="color:#57606a">(<code>.rank()</code>, <code>.affine_dimension()</code>, '
             "<code>analyse(...)</code>)</span></div>")
    return _card(title + _matrix_table(mat), "#0969da")


def rank_certificate_html(cert: Any) -> str:
    """A certified rank or affine dimension: its value, both bounds and what certifies each."""
    status = "proved" if cert.certified else "unknown"
    body = [f"<div>{status_badge(status, 'certified' if cert.certified else 'NOT certified')} "
            f"{esc(cert.summary())}</div>"]
    minor = cert.minors[0] if cert.minors else None
    lower = f"{cert.lower}" + (f" by a non-singular {len(minor[0])}×{len(minor[0])} minor with its exact "
                                "determinant" if minor else "")
    upper = f"{cert.upper}" + (f" by a decomposition checked entry by entry ({esc(cert.decomposition.source)})"
                                if cert.decomposition is not None else "")
    body += [_row("lower bound", esc(lower)), _row("upper bound", upper), _row("method", esc(cert.method))]
    for note in cert.notes:
        body.append(_row("note", esc(note)))
    return _card("".join(body), STATUS_COLOURS[status][0])


def loss_analysis_html(an: Any) -> str:
    """Ramaswamy et al. (2013), Theorem 3 for a loss: the matrix, the certified rank and affine
    dimension, the checked decomposition, the surrogate ψ* and the pred map."""
    d = an.decomposition
    check = d.check(an.matrix)
    body = [loss_matrix_html(an.matrix), rank_certificate_html(an.rank), rank_certificate_html(an.affine),
            _card(_row("decomposition", f"d = {d.d}, c = {esc(num(d.c))}: {_holds_badge(check.holds)} "
                                        f"{esc(check.reason)}")
                  + _row("surrogate", f"ψ*(y, u) = Σ<sub>i=1..{d.d}</sub> (u<sub>i</sub> − α<sub>yi</sub>)² on "
                                      f"ℝ<sup>{d.d}</sup> (Theorem 3)")
                  + _row("pred map", "pred*(u) ∈ argmin<sub>t</sub> u<sup>T</sup> β<sub>t</sub>; u<sup>p</sup> = "
                                     "Σ<sub>y</sub> p<sub>y</sub> α<sub>y</sub> minimises p<sup>T</sup> ψ*"),
                  STATUS_COLOURS["proved" if check.holds else "refuted"][0])]
    return f'<div class="symcal-loss">{"".join(body)}</div>'


def fas_html(r: Any, weights: Any = None) -> str:
    """A minimum weighted feedback arc set: the order, its back edges and their weight; with the
    weights at hand, the order drawn with the back edges in red."""
    status = "proved" if r.certified else "unknown"
    body = [f"<div>{status_badge(status, 'optimal (certified)' if r.certified else 'NOT certified')} "
            f"order {esc(' ≻ '.join(map(str, r.order)))}; back edges "
            f"{esc(', '.join(f'{i}→{j}' for i, j in r.removed) or 'none')} of total weight {esc(num(r.weight))}"
            f'<span style="color:#57606a;float:right">{r.seconds:.2f} s</span></div>',
            _row("method", esc(r.method))]
    if weights is not None:
        from symcal.ranking.preference import as_weights

        _, a = as_weights(weights, len(r.order))
        arcs = [(i, j, num(w)) for (i, j), w in sorted(a.items()) if w > 0]
    else:  # the back edges alone (their weights are in the weights, not in the result)
        arcs = [(i, j, "") for i, j in r.removed]
    if len(r.order) <= 30:
        body.append(svg_order_arcs(r.order, arcs, r.removed, title="order with its feedback arc set"))
    return _card("".join(body), STATUS_COLOURS[status][0])


# the notebook displays of the lower layers' objects (symcal.display)
display.register("verdict", "html", lambda v: verdict_html(v, v.__dict__.get("_claim")))
display.register("verdicts", "html", lambda vs: verdicts_html(vs, vs.claims))
display.register("claim", "html", claim_html)
display.register("cost_scheme", "html", cost_scheme_html)
display.register("condition", "html", condition_html)
display.register("preference", "html", preference_html)
display.register("loss_matrix", "html", loss_matrix_html)
display.register("rank_certificate", "html", rank_certificate_html)
display.register("loss_analysis", "html", loss_analysis_html)
display.register("check_result", "html", check_result_html)
display.register("fas", "html", fas_html)
