"""Pictures of a calibration problem: ``symcal calibration FILE --draw OUT.png`` (or ``.svg``).

* 3 labels: the simplex as a triangle (corner y is the point mass on label y); the *trigger cells*
  of the target loss (where each prediction is L-optimal, ``argmin_t <p, L_t>``: exact polygons,
  their boundaries drawn and each labelled with its prediction), the region where calibration fails
  (the pieces of ``--region``, :mod:`symcal.calibration.region`, for methods (A) and (B)), the noise
  set's failures only where the region was computed, and the counterexample distributions marked.
  For method (S) the region is not computed: the picture says so and shows the witness only.
* 4 labels: three slices ``p4 = 0, 1/4, 1/2``, each a triangle in ``(p1, p2, p3)`` scaled to
  ``1 - p4``, with the same layers cut by the slice.
* with a parameter: the parameter's range as a line, its pieces coloured by status.

Every polygon is computed exactly (half-planes clipped in Fractions); only the drawing is floats.
matplotlib is an optional extra (``pip install 'symcal[plot]'``), imported here only.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from symcal.errors import invalid
from symcal.exact import fraction_str

__all__ = ["draw_problem", "draw_parameters", "cells_2d", "clip"]

F0, F1 = Fraction(0), Fraction(1)
SLICES = (Fraction(0), Fraction(1, 4), Fraction(1, 2))
_COLOURS = ["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#64b5cd", "#937860", "#da8bc3"]


def _plt() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise invalid("--draw", "matplotlib", "matplotlib installed for pictures",
                      "pip install 'symcal[plot]'") from None
    return plt


def _output(out: Any) -> Path:
    path = Path(out)
    if path.suffix.lower() not in (".png", ".svg"):
        raise invalid("--draw", str(out), "a file name ending in .png or .svg")
    if path.parent and not path.parent.exists():
        raise invalid("--draw", str(out), "a file in an existing directory")
    return path


# --------------------------------------------------------------------------- exact polygons




def clip(poly: list[tuple[Fraction, Fraction]], a: tuple[Fraction, Fraction], b: Fraction
         ) -> list[tuple[Fraction, Fraction]]:
    """The convex polygon ``poly`` (vertices in order) cut by the half-plane ``a.x <= b`` (Sutherland-
    Hodgman, exact)."""
    out: list[tuple[Fraction, Fraction]] = []
    if not poly:
        return out

    def val(x: tuple[Fraction, Fraction]) -> Fraction:
        return a[0] * x[0] + a[1] * x[1] - b

    for i, cur in enumerate(poly):
        nxt = poly[(i + 1) % len(poly)]
        vc, vn = val(cur), val(nxt)
        if vc <= 0:
            out.append(cur)
        if (vc < 0 < vn) or (vn < 0 < vc):
            t = vc / (vc - vn)
            out.append((cur[0] + t * (nxt[0] - cur[0]), cur[1] + t * (nxt[1] - cur[1])))
    dedup: list[tuple[Fraction, Fraction]] = []
    for x in out:
        if not dedup or dedup[-1] != x:
            dedup.append(x)
    if len(dedup) > 1 and dedup[0] == dedup[-1]:
        dedup.pop()
    return dedup


def _slice_triangle(mass: Fraction) -> list[tuple[Fraction, Fraction]]:
    """The slice as a triangle in (p1, p2): p1, p2 >= 0, p1 + p2 <= mass (p3 = mass - p1 - p2)."""
    return [(F0, F0), (mass, F0), (F0, mass)]


def cells_2d(L: Any, mass: Fraction = F1, fixed: dict[int, Fraction] | None = None
             ) -> list[list[tuple[Fraction, Fraction]]]:
    """The trigger cells of the loss ``L`` (n x k) in a slice: for each prediction t, the polygon of
    (p1, p2) where ``<p, L_t> <= <p, L_s>`` for every s (exact)."""
    fixed = fixed or {}
    n, k = len(L), len(L[0])
    out = []
    for t in range(k):
        poly = _slice_triangle(mass)
        for s in range(k):
            if s == t:
                continue
            coeffs = [Fraction(L[y][t]) - Fraction(L[y][s]) for y in range(n)]
            a, b = _half_plane_full(coeffs, fixed, mass)
            poly = clip(poly, a, b)
        out.append(poly)
    return out


def _half_plane_full(coeffs: list[Fraction], fixed: dict[int, Fraction], mass: Fraction
                     ) -> tuple[tuple[Fraction, Fraction], Fraction]:
    """``sum_y coeffs_y p_y <= 0`` with p3 = mass - p1 - p2 and p_y = fixed[y] for y >= 4 (0-based 3..)."""
    c = list(coeffs) + [F0] * max(0, 3 - len(coeffs))
    rest = sum((c[y] * fixed.get(y, F0) for y in range(3, len(c))), F0) + c[2] * mass
    return (c[0] - c[2], c[1] - c[2]), -rest


def _relation_half_planes(text: str, n: int, fixed: dict[int, Fraction], mass: Fraction
                          ) -> list[tuple[tuple[Fraction, Fraction], Fraction, bool]] | None:
    """A piece's relation ``a.p + b op 0`` (from :mod:`symcal.calibration.region`) as half-planes
    ``(a, b, strict)`` in (p1, p2); None when it is not linear."""
    p = [sympy.Symbol(f"p{i}") for i in range(1, n + 1)]
    rel = sympy.sympify(text, locals={str(x): x for x in p})
    if isinstance(rel, sympy.Eq):
        lhs = rel.lhs - rel.rhs
        parts = [(lhs, False), (-lhs, False)]
    elif isinstance(rel, sympy.Le | sympy.Lt):
        parts = [(rel.lhs - rel.rhs, isinstance(rel, sympy.Lt))]
    elif isinstance(rel, sympy.Ge | sympy.Gt):
        parts = [(rel.rhs - rel.lhs, isinstance(rel, sympy.Gt))]
    else:
        return None
    out = []
    for e, strict in parts:
        poly = sympy.Poly(sympy.expand(e), *p)
        if poly.total_degree() > 1:
            return None
        coeffs = [Fraction(int(c.p), int(c.q)) for c in (poly.coeff_monomial(x) for x in p)]
        c0 = poly.coeff_monomial(1)
        a, b = _half_plane_full(coeffs, fixed, mass)
        out.append((a, b - Fraction(int(c0.p), int(c0.q)), strict))
    return out


# --------------------------------------------------------------------------- drawing


def _xy(pt: tuple[Fraction, Fraction], mass: Fraction) -> tuple[float, float]:
    """(p1, p2) with p3 = mass - p1 - p2 to the plane: corner 1 bottom left, 2 bottom right, 3 top."""
    p1, p2 = float(pt[0]), float(pt[1])
    p3 = float(mass) - p1 - p2
    corners = [(0.0, 0.0), (1.0, 0.0), (0.5, 0.8660254)]
    m = float(mass) or 1.0
    return (sum(w * c[0] for w, c in zip((p1, p2, p3), corners, strict=True)) / m,
            sum(w * c[1] for w, c in zip((p1, p2, p3), corners, strict=True)) / m)


def _triangle(ax: Any, s: Any, pieces: list[list[str]], witnesses: list[list[Fraction]], mass: Fraction,
              fixed: dict[int, Fraction], title: str) -> None:
    import matplotlib.patches as mpatches

    tri = [_xy(v, mass) for v in _slice_triangle(mass)]
    ax.add_patch(mpatches.Polygon(tri, closed=True, fill=False, edgecolor="black", linewidth=1.2))
    L = [[Fraction(x) for x in row] for row in s.L]
    for t, cell in enumerate(cells_2d(L, mass, fixed)):
        if len(cell) < 3:
            continue
        pts = [_xy(v, mass) for v in cell]
        col = _COLOURS[t % len(_COLOURS)]
        ax.add_patch(mpatches.Polygon(pts, closed=True, facecolor=col, alpha=0.18, edgecolor=col, linewidth=0.8))
        cx, cy = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        ax.text(cx, cy, f"{s.pname(t)}", ha="center", va="center", fontsize=9, color=col, fontweight="bold",
                zorder=5, bbox={"facecolor": "white", "alpha": 0.95, "edgecolor": col, "boxstyle": "round,pad=0.2"})
    for rels in pieces:
        poly = _slice_triangle(mass)
        ok = True
        for text in rels:
            hp = _relation_half_planes(text, s.n, fixed, mass)
            if hp is None:
                ok = False
                break
            for a, b, _strict in hp:
                poly = clip(poly, a, b)
        if ok and len(poly) >= 3:
            ax.add_patch(mpatches.Polygon([_xy(v, mass) for v in poly], closed=True, facecolor="none",
                                          edgecolor="#c00000", hatch="////", linewidth=1.0))
        elif ok and len(poly) == 2:
            (x0, y0), (x1, y1) = (_xy(v, mass) for v in poly)
            ax.plot([x0, x1], [y0, y1], color="#c00000", linewidth=2.0)
    for w in witnesses:
        if len(w) == s.n and all(w[i] == fixed[i] for i in fixed) and sum(w[:3]) == mass:
            x, y = _xy((w[0], w[1]), mass)
            ax.plot([x], [y], marker="x", color="#c00000", markersize=9, mew=2, zorder=6)
    # the corners of the slice triangle (p1, p2) = (0, 0), (mass, 0), (0, mass) are the masses on 3, 1, 2
    for label, (x, y), (dx, dy) in zip((3, 1, 2), tri, ((0, 0.04), (-0.06, -0.06), (0.06, -0.06)), strict=True):
        ax.text(x + dx, y + dy, f"p{label} = {fraction_str(mass)}" if mass != 1 else f"label {label}",
                ha="center", fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.12, 0.98)
    ax.set_aspect("equal")
    ax.axis("off")


def draw_problem(s: Any, out: Any, region: Any = None, witnesses: list[list[Fraction]] | None = None,
                 note: str = "") -> Path:
    """Draw a problem with 3 or 4 labels to ``out`` (.png or .svg); ``region``: a
    :class:`~symcal.calibration.region.CalibratedRegion` (its pieces hatched), ``witnesses``: the
    counterexample distributions to mark.  Returns the path written."""
    path = _output(out)
    if s.n not in (3, 4):
        raise invalid("--draw", f"{s.n} labels", "a problem with 3 labels (the simplex) or 4 (slices)")
    plt = _plt()
    pieces = [list(pc.relations) for pc in region.pieces] if region is not None else []
    ws = list(witnesses or [])
    if region is not None:
        for pc in region.pieces:
            w = pc.verdict.witness if pc.verdict is not None else None
            if w is not None:
                ws.append([Fraction(w.values[f"p{i}"]) for i in range(1, s.n + 1)])
    status = ("exact: proved both ways" if region is not None and region.status.value == "proved"
              else f"{region.status.value}, the pieces found" if region is not None else "not computed")
    if s.n == 3:
        fig, axes = plt.subplots(1, 1, figsize=(5.2, 5.0))
        axes = [axes]
        slices = [(F1, {})]
    else:
        levels = list(SLICES)
        extra = sorted({w[3] for w in ws if w[3] not in levels and w[3] < 1})[:1]  # a counterexample's own slice
        levels += extra
        fig, axes = plt.subplots(1, len(levels), figsize=(4.4 * len(levels), 4.8))
        slices = [(1 - v, {3: v}) for v in levels]
    for ax, (mass, fixed) in zip(axes, slices, strict=True):
        title = "the simplex" if s.n == 3 else f"slice p4 = {fraction_str(fixed[3])}"
        _triangle(ax, s, pieces, ws, mass, fixed, title)
    head = f"{s.name or 'calibration'}: trigger cells of the loss (shaded, by prediction)"
    sub = (f"hatched: where calibration fails (--region: {status}); x: counterexamples"
           if region is not None else f"x: counterexamples; {note or 'region not computed'}")
    fig.suptitle(head + "\n" + sub, fontsize=9)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def draw_parameters(answer: Any, out: Any) -> Path:
    """Draw the pieces of a parameter's range (:class:`~symcal.calibration.parameters.ParameterAnswer`)
    as a coloured line: proved green, refuted red, unknown grey; points as dots."""
    path = _output(out)
    plt = _plt()
    colour = {"proved": "#2e7d32", "refuted": "#c62828", "unknown": "#9e9e9e"}
    fig, ax = plt.subplots(figsize=(8, 1.4))
    xs: list[float] = []
    names: dict[float, str] = {}  # the exact value of each end, as its tick label
    ends = []
    for pc in answer.pieces:
        if not pc.spans:
            continue
        first, last = pc.spans[0], pc.spans[-1]
        lo, hi = float(sympy.N(first.lo)), float(sympy.N(last.hi))
        xs += [lo, hi]
        names[lo], names[hi] = sympy.sstr(first.lo), sympy.sstr(last.hi)
        if lo == hi:
            ends.append((lo, False, colour[pc.status]))
            continue
        ax.plot([lo, hi], [0, 0], "-", color=colour[pc.status], linewidth=7, solid_capstyle="butt", zorder=2)
        ends += [(lo, first.lo_open, colour[pc.status]), (hi, last.hi_open, colour[pc.status])]
    for x, is_open, c in sorted(ends, key=lambda e: e[1], reverse=True):  # closed ends drawn last, on top
        if is_open:
            ax.plot([x], [0], "o", markerfacecolor="white", markeredgecolor=c, markersize=7, zorder=3)
        else:
            ax.plot([x], [0], "o", color=c, markersize=8, zorder=4)
    for name, c in colour.items():
        ax.plot([], [], "-", color=c, linewidth=6, label=name)
    ticks = sorted({*xs})
    ax.set_xticks(ticks)
    ax.set_xticklabels([names.get(x, f"{x:g}") for x in ticks], fontsize=8)
    ax.set_yticks([])
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel(answer.parameter)
    ax.set_ylim(-1, 1)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 1.35), ncol=3, fontsize=8, frameon=False)
    ax.set_title(f"{answer.name or 'calibration'}: calibrated for which {answer.parameter}? (filled dot: the end "
                 f"belongs to the piece; open: it does not)", fontsize=9, pad=24)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path
