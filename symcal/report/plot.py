"""Pictures with matplotlib (the ``plot`` extra): preference graphs and difference graphs with
their exact edge weights, a low-noise violation or a counterexample's failing tuple in red, the
feedback arc set of an optimal order, and seconds against size for a sized sweep.

matplotlib is imported inside the functions only, so the core works without it; a missing
matplotlib is one line: ``drawing needs matplotlib ...: pip install 'symcal[plot]'``.  Figures are
drawn on matplotlib's Agg canvas directly (``matplotlib.figure.Figure``, never ``pyplot``), so no
display is needed and the backend of a notebook that imports symcal is left alone.

Each function returns a :class:`Picture`: ``.save("out.png")`` (or ``.svg``, ``.pdf``), ``.figure``
for the matplotlib figure, and a PNG in a notebook.

    >>> from symcal.report import plot
    >>> plot.difference_graph({(1, 2): 1, (1, 3): 3, (2, 3): 1, (3, 1): 2}).save("dg.png")  # doctest: +SKIP
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from symcal.errors import NoBackendAvailable, invalid
from symcal.report.html import EDGE, HIGHLIGHT, STATUS_COLOURS, circle_positions, node_counterexample, num
from symcal.verdicts import Status, Verdict

__all__ = ["Picture", "difference_graph", "preference_graph", "feedback_arc_set", "preferences",
           "counterexample", "sweep", "draw_verdicts", "available", "picture_file", "picture_dir", "unwritable_file",
           "FORMATS"]

FORMATS = (".png", ".svg", ".pdf")
NODE_FILL, NODE_EDGE, HOT_FILL = "#ddf4ff", "#0969da", "#ffebe9"
GREY = "#8c959f"


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise NoBackendAvailable("drawing needs matplotlib, which is not installed: pip install 'symcal[plot]'") \
            from None
    return matplotlib


def _figure(width: float, height: float) -> Any:
    _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)  # the Agg canvas: no display, no pyplot state
    return fig


def available() -> bool:
    """Is matplotlib installed?"""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def picture_file(text: str) -> str:
    """An argparse ``type`` for ``--draw FILE``: a .png, .svg or .pdf path, with matplotlib
    installed (checked before any work is done)."""
    import argparse

    if Path(text).suffix.lower() not in FORMATS:
        raise argparse.ArgumentTypeError(f"--draw={text!r}: expected a file ending in {', '.join(FORMATS)}")
    if not available():
        raise argparse.ArgumentTypeError("--draw needs matplotlib, which is not installed: pip install 'symcal[plot]'")
    why = unwritable_file(text)
    if why:
        raise argparse.ArgumentTypeError(f"--draw={text!r}: expected a file symcal can write; {why}")
    return text


_HELD_OPEN: list[int] = []  # write ends of FIFOs found to have a reader by unwritable_file


def unwritable_file(text: str) -> str:
    """Why the file ``text`` cannot be written ('' when it can): checked by opening it for appending
    (and removing it again when it did not exist), so that a name the system refuses (too long, a
    NUL byte), a missing or read-only folder, or a folder in its place is refused before any work
    is done, not after."""
    if not text.strip():
        return "a file name is needed"
    if "\x00" in text:
        return "the name holds a NUL character"
    import errno
    import os
    import stat

    p = Path(text)
    try:
        existed = p.exists()
        if existed and stat.S_ISFIFO(p.stat().st_mode):
            # a named pipe: opened without waiting, since a FIFO nobody reads would block symcal forever;
            # one with a reader stays open here until exit (closing it would end the reader's input early)
            try:
                _HELD_OPEN.append(os.open(p, os.O_WRONLY | os.O_NONBLOCK))
            except OSError as e:
                if e.errno == errno.ENXIO:
                    return "it is a FIFO that nobody reads (writing to it would wait forever)"
                raise
            return ""
        with open(p, "ab"):
            pass
        if not existed:
            p.unlink()
    except (OSError, ValueError) as e:
        return str(e) if isinstance(e, ValueError) else f"{e.strerror or type(e).__name__}"
    return ""


def picture_dir(text: str) -> str:
    """An argparse ``type`` for ``--draw DIR``: a directory name, with matplotlib installed."""
    import argparse

    if not text.strip():
        raise argparse.ArgumentTypeError(f"--draw={text!r}: expected a directory name")
    if not available():
        raise argparse.ArgumentTypeError("--draw needs matplotlib, which is not installed: pip install 'symcal[plot]'")
    try:
        if Path(text).exists() and not Path(text).is_dir():
            raise argparse.ArgumentTypeError(f"--draw={text!r}: expected a directory (it is a file)")
    except (OSError, ValueError) as e:  # a name the system refuses: too long, a NUL byte
        raise argparse.ArgumentTypeError(f"--draw={text!r}: expected a directory name the system accepts; "
                                         f"{getattr(e, 'strerror', None) or e}") from None
    return text


class Picture:
    """A drawn figure: ``save(path)`` writes PNG, SVG or PDF (by the suffix); a notebook shows
    it as PNG."""

    def __init__(self, figure: Any, name: str = "") -> None:
        self.figure = figure
        self.name = name

    def save(self, path: str | Path, *, dpi: int = 150) -> Path:
        p = Path(path)
        if p.suffix.lower() not in FORMATS:
            raise invalid("path", str(path), f"a file ending in {', '.join(FORMATS)}")
        try:
            self.figure.savefig(p, dpi=dpi, bbox_inches="tight", facecolor="white")
        except OSError as e:
            raise invalid("path", str(path), "a file symcal can write", str(e)) from None
        return p

    def to_bytes(self, fmt: str = "png", *, dpi: int = 110) -> bytes:
        buf = io.BytesIO()
        self.figure.savefig(buf, format=fmt, dpi=dpi, bbox_inches="tight", facecolor="white")
        return buf.getvalue()

    def _repr_png_(self) -> bytes:
        return self.to_bytes("png")

    def __repr__(self) -> str:
        return f"Picture({self.name or 'symcal figure'})"


# --------------------------------------------------------------------------- graphs on an axis


def _draw_graph(ax: Any, nodes: Sequence[Any], edges: Sequence[tuple[Any, Any, str]], *,
                highlight_edges: Iterable[tuple[Any, Any]] = (), highlight_nodes: Iterable[Any] = (),
                dashed_edges: Sequence[tuple[Any, Any, str]] = (), title: str = "", caption: str = "") -> None:
    """A directed graph on a circle (the layout of :func:`symcal.report.html.svg_graph`): edge
    weights as labels 40% along each edge; highlighted edges and nodes red and thick; dashed
    edges red and dashed; a 2-cycle drawn as two arcs."""
    from matplotlib.patches import Circle, FancyArrowPatch

    pos = {v: (x, -y) for v, (x, y) in circle_positions(list(nodes)).items()}  # y up: node 1 on top
    hl_e = {(u, v) for u, v in highlight_edges}
    hl_n = set(highlight_nodes)
    pairs = {(u, v) for u, v, _ in edges}
    r = 0.13 if len(nodes) <= 8 else 0.09

    def arrow(u: Any, v: Any, label: str, colour: str, width: float, style: str) -> None:
        (x1, y1), (x2, y2) = pos[u], pos[v]
        d = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        rad = 0.22 if (v, u) in pairs else 0.0  # a 2-cycle, or a dashed edge beside its reverse
        start = (x1 + ux * r, y1 + uy * r)
        end = (x2 - ux * (r + 0.01), y2 - uy * (r + 0.01))
        ax.add_patch(FancyArrowPatch(start, end, connectionstyle=f"arc3,rad={rad}", arrowstyle="-|>",
                                     mutation_scale=14 + 3 * width, color=colour, linewidth=width,
                                     linestyle=style, zorder=2))
        if label:
            # arc3 bends to the right of u -> v for rad > 0 (in data coordinates, y up)
            cx = (x1 + x2) / 2 + rad * (y2 - y1)
            cy = (y1 + y2) / 2 - rad * (x2 - x1)
            t = 0.4
            lx = (1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t ** 2 * x2
            ly = (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t ** 2 * y2
            ax.text(lx, ly, label, ha="center", va="center", fontsize=11, color=colour, zorder=4,
                    fontweight="bold" if colour == HIGHLIGHT else "normal",
                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.9})

    for u, v, label in edges:
        hot = (u, v) in hl_e
        arrow(u, v, label, HIGHLIGHT if hot else EDGE, 2.6 if hot else 1.3, "solid")
    for u, v, label in dashed_edges:
        arrow(u, v, label, HIGHLIGHT, 1.8, "dashed")
    for v, (x, y) in pos.items():
        hot = v in hl_n
        ax.add_patch(Circle((x, y), r, facecolor=HOT_FILL if hot else NODE_FILL,
                            edgecolor=HIGHLIGHT if hot else NODE_EDGE, linewidth=2.4 if hot else 1.4, zorder=3))
        ax.text(x, y, str(v), ha="center", va="center", fontsize=13, fontweight="bold", zorder=5)
    ylo = min(y for _, y in pos.values()) - 0.3
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(ylo - (0.25 if caption else 0.0), 1.3)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=12, fontweight="bold")
    if caption:
        ax.text(0, ylo, caption, ha="center", va="top", fontsize=9.5, color="#57606a", wrap=True)


def _draw_arcs(ax: Any, order: Sequence[Any], edges: Sequence[tuple[Any, Any, str]], back: Iterable[tuple[Any, Any]],
               *, title: str = "", caption: str = "") -> None:
    """Nodes in ``order`` (best first) on a line; forward edges grey arcs above, back edges (the
    feedback arc set the order pays for) red arcs below, each labelled with its weight."""
    from matplotlib.patches import Circle, FancyArrowPatch

    back_set = {(u, v) for u, v in back}
    pos = {v: float(k) for k, v in enumerate(order)}
    r = 0.16
    top = 0.6
    bottom = -0.6
    for u, v, label in edges:
        hot = (u, v) in back_set
        xa, xb = pos[u], pos[v]
        span = abs(xb - xa)
        sign = -1 if hot else 1
        h = 0.32 * span + 0.25
        # arc3 puts its control point at mid + rad * (dy, -dx): rad < 0 lifts a left-to-right
        # edge above the line and drops a right-to-left one below it; the peak is |rad| span / 2
        rad = (-1 if xb > xa else 1) * sign * min(0.9, h / max(span, 1e-9))
        peak = r + abs(rad) * span / 2
        top, bottom = max(top, peak + 0.35), min(bottom, -peak - 0.35)
        colour = HIGHLIGHT if hot else GREY
        ax.add_patch(FancyArrowPatch((xa, sign * r), (xb, sign * (r + 0.02)), connectionstyle=f"arc3,rad={rad}",
                                     arrowstyle="-|>", mutation_scale=13, color=colour,
                                     linewidth=2.4 if hot else 1.1, zorder=2))
        if label:
            ly = sign * (r + abs(rad) * span * 0.5 + 0.13)
            ax.text((xa + xb) / 2, ly, label, ha="center", va="center", fontsize=10.5, color=colour, zorder=4,
                    fontweight="bold" if hot else "normal",
                    bbox={"boxstyle": "round,pad=0.12", "facecolor": "white", "edgecolor": "none", "alpha": 0.9})
    for v, x in pos.items():
        ax.add_patch(Circle((x, 0), r, facecolor=NODE_FILL, edgecolor=NODE_EDGE, linewidth=1.4, zorder=3))
        ax.text(x, 0, str(v), ha="center", va="center", fontsize=12, fontweight="bold", zorder=5)
    ax.set_xlim(-0.6, len(order) - 0.4)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=12, fontweight="bold")
    if caption:
        ax.text((len(order) - 1) / 2, bottom, caption, ha="center", va="top", fontsize=9.5, color="#57606a")


# --------------------------------------------------------------------------- preference pictures


def _low_noise_marks(a: dict[tuple[int, int], Fraction], m: int, g: Any) -> tuple[Any, list[Any], list[Any], str]:
    from symcal.ranking.difference import is_low_noise

    low = is_low_noise(a, m)
    if low.holds or not low.witness:
        return None, [], [], "low noise holds" if low.holds else ""
    i, j, k = low.witness["triple"]
    hl = [(i, j), (j, k)]
    dashed = []
    if g.has_edge(i, k):
        hl.append((i, k))
    else:
        dashed = [(i, k, f"d = {num(low.witness['lhs'])}")]
    text = (f"not low-noise at (i, j, k) = ({i}, {j}, {k}): a_ik - a_ki = {num(low.witness['lhs'])} < "
            f"{num(low.witness['rhs'])}")
    return (i, j, k), hl, dashed, text


def _difference_panel(ax: Any, a: dict[tuple[int, int], Fraction], m: int, *, low_noise: bool, title: str) -> None:
    from symcal.ranking.difference import difference_graph as dg

    g = dg(a, m)
    edges = [(u, v, num(d["weight"])) for u, v, d in sorted(g.edges(data=True))]
    triple, hl, dashed, text = _low_noise_marks(a, m, g) if low_noise else (None, [], [], "")
    _draw_graph(ax, list(range(1, m + 1)), edges, highlight_edges=hl, highlight_nodes=triple or (),
                dashed_edges=dashed, title=title, caption=text or "edge i→j: a_ij − a_ji > 0")


def difference_graph(weights: Any, m: int | None = None, *, low_noise: bool = True,
                     title: str = "difference graph") -> Picture:
    """The difference graph (Duchi et al. 2010, Fig. 1): an edge i → j with weight a_ij − a_ji
    when positive.  With ``low_noise`` the first violating triple of Definition 8 is drawn in
    red (the missing or too light edge i → k dashed)."""
    from symcal.ranking.preference import as_weights

    m, a = as_weights(weights, m)
    fig = _figure(4.4, 4.6)
    _difference_panel(fig.add_subplot(1, 1, 1), a, m, low_noise=low_noise, title=title)
    return Picture(fig, "difference graph")


def _order_and_back(a: dict[tuple[int, int], Fraction], m: int) -> tuple[tuple[int, ...], list[tuple[int, int]],
                                                                        Fraction, bool]:
    from symcal.ranking.feedback_arc_set import min_feedback_arc_set

    fas = min_feedback_arc_set(a, m)
    return fas.order, list(fas.removed), fas.weight, fas.certified


def preference_graph(weights: Any, m: int | None = None, *, fas: bool = True,
                     title: str = "preference weights a_ij") -> Picture:
    """The weighted graph of the a_ij (a preference DAG, or the expected weights of a
    distribution: two arcs where both a_ij and a_ji are positive); with ``fas`` the back edges of
    an optimal order (a minimum weighted feedback arc set) are drawn in red."""
    from symcal.ranking.preference import as_weights

    m, a = as_weights(weights, m)
    fig = _figure(4.4, 4.6)
    ax = fig.add_subplot(1, 1, 1)
    _preference_panel(ax, a, m, fas=fas, title=title)
    return Picture(fig, "preference graph")


def _preference_panel(ax: Any, a: dict[tuple[int, int], Fraction], m: int, *, fas: bool, title: str) -> None:
    edges = [(i, j, num(w)) for (i, j), w in sorted(a.items()) if w > 0]
    back: list[tuple[int, int]] = []
    caption = "edge i→j: a_ij > 0"
    if fas:
        order, back, weight, certified = _order_and_back(a, m)
        shown = " > ".join(map(str, order))
        caption = (f"red: back edges of the order {shown} (total {num(weight)}{'' if certified else ', NOT certified'})"
                   if back else f"a DAG: the order {shown} has no back edge")
    _draw_graph(ax, list(range(1, m + 1)), edges, highlight_edges=back, title=title, caption=caption)


def feedback_arc_set(weights: Any, m: int | None = None, *, title: str = "an optimal order") -> Picture:
    """An optimal order of the a_ij (Duchi et al. 2010, Lemma 7) on a line, best first: forward
    edges above in grey, the back edges it pays for (the minimum weighted feedback arc set) below
    in red, with their weights."""
    from symcal.ranking.preference import as_weights

    m, a = as_weights(weights, m)
    order, back, weight, certified = _order_and_back(a, m)
    edges = [(i, j, num(w)) for (i, j), w in sorted(a.items()) if w > 0]
    fig = _figure(max(4.0, 0.9 * m + 1.5), 3.4)
    _draw_arcs(fig.add_subplot(1, 1, 1), order, edges, back, title=title,
               caption=f"min l(p, α) = {num(weight)}: the back edges' total{'' if certified else ' (NOT certified)'}")
    return Picture(fig, "feedback arc set")


def preferences(obj: Any, m: int | None = None) -> Picture:
    """Everything :func:`symcal.ranking.describe_preferences` reports, drawn in three panels: the
    a_ij with the feedback arc set of an optimal order in red, the difference graph with the
    low-noise violation in red, and the optimal order with its back edges."""
    from symcal.ranking.preference import as_weights

    m, a = as_weights(obj, m)
    order, back, weight, certified = _order_and_back(a, m)
    edges = [(i, j, num(w)) for (i, j), w in sorted(a.items()) if w > 0]
    fig = _figure(13.5, 4.9)
    axes = [fig.add_axes((0.0, 0.05, 0.31, 0.86)), fig.add_axes((0.33, 0.05, 0.31, 0.86)),
            fig.add_axes((0.67, 0.05, 0.33, 0.86))]
    _preference_panel(axes[0], a, m, fas=True, title="weights a_ij")
    _difference_panel(axes[1], a, m, low_noise=True, title="difference graph")
    _draw_arcs(axes[2], order, edges, back, title="an optimal order",
               caption=f"min l(p, α) = {num(weight)}{'' if certified else ' (NOT certified)'}")
    return Picture(fig, "preferences")


# --------------------------------------------------------------------------- verdicts


def counterexample(verdict: Verdict, claim: Any = None) -> Picture:
    """A refuted node claim's counterexample: its difference graph with the failing conclusion
    tuple in red, beside the exact weights a_ij.  Re-checked on the claim's own functions when
    the claim is given."""
    cx = node_counterexample(verdict, claim)
    if cx is None:
        raise invalid("verdict", verdict.claim_id, "a refuted node claim (its witness has values a[i,j])")
    fig = _figure(8.2, 4.6)
    ax = fig.add_axes((0.0, 0.07, 0.55, 0.78))
    edges = [(i, j, num(d)) for i, j, d in cx.differences()]
    at = f"the conclusion fails at {cx.failing}" if cx.failing else ""
    _draw_graph(ax, list(range(1, cx.m + 1)), edges, highlight_edges=cx.highlighted_edges(),
                highlight_nodes=cx.failing or (), title=f"counterexample, m = {cx.m}",
                caption=f"edge i→j: a_ij − a_ji > 0; {at}")
    width = min(0.38, 0.07 * (cx.m + 1))
    tab = fig.add_axes((0.6, 0.25, width, 0.5))
    tab.axis("off")
    hot = set(cx.failing or ())
    cells = [["·" if i == j else num(cx.weights.get((i, j), Fraction(0))) for j in range(1, cx.m + 1)]
             for i in range(1, cx.m + 1)]
    table = tab.table(cellText=cells, rowLabels=[str(i) for i in range(1, cx.m + 1)],
                      colLabels=[str(j) for j in range(1, cx.m + 1)], loc="center", cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(11)
    table.scale(1, 1.5)
    for (row, col), cell in table.get_celld().items():
        if row >= 1 and col >= 0 and (row in hot and col + 1 in hot and row != col + 1):
            cell.get_text().set_color(HIGHLIGHT)
            cell.get_text().set_fontweight("bold")
    tab.set_title("weights a_ij (row i, column j)", fontsize=11, loc="left")
    fig.suptitle(verdict.claim_id, fontsize=12, fontweight="bold", y=0.985)
    return Picture(fig, f"{verdict.claim_id} counterexample")


def sweep(verdict: Verdict) -> Picture:
    """Seconds against size for a sized sweep (the verdict's ``sizes``), each point coloured by
    its status; a logarithmic time axis when the times span more than a factor 50.  Sizes that
    were never run (the sweep stopped at a refutation or a timeout) are left out."""
    rows = [s for s in verdict.sizes if s.seconds > 0 or s.status is not Status.UNKNOWN]
    if len(rows) < 1:
        raise invalid("verdict", verdict.claim_id, "a verdict of a sized sweep (with sizes)")
    fig = _figure(5.6, 3.6)
    ax = fig.add_subplot(1, 1, 1)
    xs = [s.size for s in rows]
    ys = [max(s.seconds, 1e-4) for s in rows]
    ax.plot(xs, ys, color=GREY, linewidth=1.2, zorder=1)
    seen = set()
    for s, y in zip(rows, ys, strict=True):
        word = s.status.value
        ax.scatter([s.size], [y], color=STATUS_COLOURS.get(word, ("#57606a",))[0], s=36, zorder=2,
                   label=word if word not in seen else None)
        seen.add(word)
    if max(ys) / min(ys) > 50:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("size m")
    ax.set_ylabel("seconds")
    ax.set_xticks(sorted(set(xs)) if len(set(xs)) <= 15 else sorted(set(xs))[:: math.ceil(len(set(xs)) / 15)])
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9, frameon=False)
    ax.set_title(f"{verdict.claim_id}: {verdict.status.value}, {verdict.scope[:60]}", fontsize=10.5)
    return Picture(fig, f"{verdict.claim_id} sweep")


def draw_verdicts(pairs: Sequence[tuple[Any, Verdict]], directory: str | Path, *, fmt: str = "png") -> list[Path]:
    """One picture per refuted node claim (``<id>.counterexample.<fmt>``) and per sized sweep of
    two or more sizes (``<id>.sizes.<fmt>``) into ``directory``; returns the files written."""
    suffix = "." + fmt.lower().lstrip(".")
    if suffix not in FORMATS:
        raise invalid("format", fmt, f"one of {', '.join(f.lstrip('.') for f in FORMATS)}")
    out_dir = Path(directory)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise invalid("--draw", str(directory), "a directory symcal can create and write", str(e)) from None
    written = []
    for c, v in pairs:
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", v.claim_id)
        if node_counterexample(v, c) is not None:
            written.append(counterexample(v, c).save(out_dir / f"{safe}.counterexample{suffix}"))
        if sum(1 for s in v.sizes if s.seconds > 0 or s.status is not Status.UNKNOWN) >= 2:
            written.append(sweep(v).save(out_dir / f"{safe}.sizes{suffix}"))
    return written
