"""The picture of the noise-condition map (:mod:`symcal.explore.noise_map`): ``symcal noise-map --draw``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcal.explore.noise_map import STATEMENTS, NoiseMap, condition, inclusion_graph, sizes_text
from symcal.report import plot

__all__ = ["draw"]


def draw(maps: Sequence[NoiseMap]) -> Any:
    """The map as a :class:`symcal.report.plot.Picture`: one node per condition (grouped by
    space), an arrow ``A -> B`` labelled ``⊆`` where ``A subset B`` is proved at every size
    shown (the transitive reduction; ``=`` joins equivalent conditions), the paper of each
    stated inclusion beside its arrow."""
    import networkx as nx


    g = inclusion_graph(maps)
    keys = maps[0].keys
    # layers: the longest chain of strict inclusions above a node (supersets higher up)
    strict = nx.DiGraph((u, v) for u, v, e in g.edges(data=True) if not e["equal"])
    strict.add_nodes_from(keys)
    depth: dict[str, int] = {}
    for v in reversed(list(nx.topological_sort(strict))):
        depth[v] = 1 + max((depth[w] for w in strict.successors(v)), default=-1)
    for u, v, e in g.edges(data=True):  # equivalent conditions on one level
        if e["equal"]:
            depth[u] = depth[v] = max(depth[u], depth[v])
    spaces = list(dict.fromkeys(condition(k).space for k in keys))
    pos: dict[str, tuple[float, float]] = {}
    x0 = 0.0
    for sp in spaces:
        ks = [k for k in keys if condition(k).space == sp]
        # within a layer, equivalent conditions side by side; each layer centred
        ks.sort(key=lambda k: (keys.index(min(g.nodes[k]["equivalent"], key=keys.index)), keys.index(k)))
        layers: dict[int, list[str]] = {}
        for k in ks:
            layers.setdefault(depth[k], []).append(k)
        span = max(len(v) for v in layers.values()) - 1
        for d_, row in layers.items():
            for t, k in enumerate(row):
                pos[k] = (x0 + (t + (span - (len(row) - 1)) / 2) * 3.2, -d_ * 1.6)
        x0 += span * 3.2 + 3.0
    fig = plot._figure(12, 6.2)
    ax = fig.add_subplot(1, 1, 1)
    ax.set_axis_off()
    colours = {"dag": "#dbeafe", "perm": "#fde68a", "binary": "#e9d5ff"}
    for u, v, e in g.edges(data=True):
        if e["equal"] and keys.index(u) > keys.index(v):
            continue
        (x1, y1), (x2, y2) = pos[u], pos[v]
        ax.annotate("", xy=(x2, y2), xytext=(x1, y1),
                    arrowprops={"arrowstyle": "<|-|>" if e["equal"] else "-|>", "color": "#24292f", "lw": 1.3,
                                "shrinkA": 48 if e["equal"] else 22, "shrinkB": 48 if e["equal"] else 22,
                                "mutation_scale": 14})
        cites = sorted({f"{s.paper}, {s.location}" for s in STATEMENTS if s.kind == "subset"
                        and s.a in g.nodes[u]["equivalent"] and s.b in g.nodes[v]["equivalent"]})
        label = "\n".join([r"$=$" if e["equal"] else r"$\subseteq$", *cites])
        if e["equal"]:
            ax.text((x1 + x2) / 2, y1 - 0.1, label, fontsize=8.5, ha="center", va="top")
        else:
            ax.text((x1 + x2) / 2, (y1 + y2) / 2, label, fontsize=8.5, ha="center", va="center",
                    bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85})
    for k, (x, y) in pos.items():
        c = condition(k)
        ax.text(x, y, f"{c.short}\n{c.paper}", fontsize=8, ha="center", va="center",
                bbox={"boxstyle": "round,pad=0.45", "fc": colours.get(c.space, "white"), "ec": "#57606a"})
    for sp in spaces:
        xs = [pos[k][0] for k in keys if condition(k).space == sp]
        ax.text(sum(xs) / len(xs), 0.9, sp + " labels", fontsize=9, ha="center", va="bottom", style="italic",
                color="#57606a")
    ys = [p[1] for p in pos.values()]
    xs = [p[0] for p in pos.values()]
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 0.8, 1.4)
    at = f"at {sizes_text(maps)}" if len(maps) == 1 else f"at every {sizes_text(maps)}"
    ax.set_title(f"Noise conditions: A → B when A ⊆ B is proved {at} (= both ways; the papers' statements "
                 "beside the arrows); conditions on different labels are not comparable", fontsize=9)
    return plot.Picture(fig, "noise_map")
