"""The layers of ``symcal/`` (ARCHITECTURE.md, *Layers*): every package and top-level module has a
layer; an import from a lower layer into a higher one is one of the known arrows listed here, made
inside a function; and every cycle between packages closes through one of those arrows.

The import graph is read with ``ast`` (nothing is imported): a node is a package or top-level module
of ``symcal`` (``backends``, ``runner``, ``__init__`` for the front door), an edge is any import
statement from one node into another, at module level or inside a function.  Reading the
constant ``symcal.__version__`` is not a dependency on the front door.

When you remove an arrow, remove it from ``KNOWN_ARROWS_UP`` and from ARCHITECTURE.md; when a
new package appears, give it a layer here and a line in ARCHITECTURE.md.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SYMCAL = Path(__file__).resolve().parents[2] / "symcal"

# lowest first; a node may import from its own layer and the layers below it
LAYERS: tuple[tuple[str, ...], ...] = (
    ("kernel",),                                   # the independent certificate checker
    ("errors", "logic", "limits", "display", "version"),  # errors, connectives, time limits, displays, version
    ("exact",),                                    # exact numbers, the one zero test, enclosures
    ("verdicts", "claims"),                        # the vocabulary
    ("ranking", "library"),                        # the domain; loading theorem modules
    ("backends", "crosscheck"),                    # deciding
    ("calibration",),                              # the calibration engine (uses backends)
    ("certify", "certify_sos", "certificate_files"),  # certificate producers
    ("runner", "progress"),                        # running decisions under limits
    ("explore", "coverage"),                       # necessity, mutation testing; the papers' map
    ("cluster",),                                  # Dask: runs the runner's and explore's work
    ("report", "export_coq", "testing"),           # output: reports, Coq files, the pytest plugin
    ("commands", "cli", "__main__", "__init__"),   # front doors
)
RANK = {node: i for i, nodes in enumerate(LAYERS) for node in nodes}

# (from, to): the imports that run up a layer today, every one inside a function
KNOWN_ARROWS_UP: dict[tuple[str, str], str] = {
}
# strongly connected groups of nodes today (none: each would need an arrow up)
KNOWN_CYCLES = 0


def _node(dotted: str, root: Path) -> str | None:
    parts = dotted.split(".")
    if parts[0] != "symcal":
        return None
    if len(parts) == 1:
        return "__init__"
    name = parts[1]
    if (root / name).is_dir() or (root / f"{name}.py").exists():
        return name
    return "__init__"  # a name the front door defines


def import_edges(root: Path) -> list[tuple[str, str, str, bool]]:
    """Every import of one node of the package at ``root`` into another: (from, to, file:line,
    at module level)."""
    out = []
    for f in sorted(root.rglob("*.py")):
        rel = f.relative_to(root.parent).with_suffix("").parts
        module = ".".join(rel[:-1] if rel[-1] == "__init__" else rel)
        package = module if f.name == "__init__.py" else module.rsplit(".", 1)[0]
        src = _node(module, root)
        tree = ast.parse(f.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    names = ([".".join([*base, node.module])] if node.module
                             else [".".join([*base, a.name]) for a in node.names])
                elif node.module == "symcal":
                    names = ["symcal." + a.name for a in node.names if a.name != "__version__"]
                else:
                    names = [node.module or ""]
            else:
                continue
            for name in names:
                dst = _node(name, root)
                if src and dst and dst != src:
                    out.append((src, dst, f"{f.relative_to(root.parent)}:{node.lineno}", id(node) in top))
    return out


def nodes_of(root: Path) -> set[str]:
    """The packages and top-level modules of the package at ``root``."""
    return {p.stem if p.is_file() else p.name for p in root.iterdir()
            if (p.is_file() and p.suffix == ".py") or (p.is_dir() and (p / "__init__.py").exists())}


def arrows_up(edges: list[tuple[str, str, str, bool]], rank: dict[str, int]) -> dict[tuple[str, str], list[str]]:
    """(from, to) -> where, for every import into a higher layer."""
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for src, dst, where, _ in edges:
        if rank[dst] > rank[src]:
            out[(src, dst)].append(where)
    return dict(out)


def cycles(pairs: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected groups (of two nodes or more) of the graph with these edges (Tarjan)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in pairs:
        graph[a].add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


EDGES = import_edges(SYMCAL)


def test_every_package_and_top_level_module_of_symcal_has_a_layer():
    unplaced = sorted(nodes_of(SYMCAL) - set(RANK))
    assert not unplaced, f"give {unplaced} a layer in LAYERS and a line in ARCHITECTURE.md, *Layers*"


def test_no_import_runs_up_a_layer_except_the_known_arrows():
    new = {k: v for k, v in arrows_up(EDGES, RANK).items() if k not in KNOWN_ARROWS_UP}
    assert not new, f"imports into a higher layer: {new}"


def test_the_count_of_arrows_up_does_not_grow():
    assert len(arrows_up(EDGES, RANK)) <= len(KNOWN_ARROWS_UP) == 0


def test_every_import_up_a_layer_is_made_inside_a_function():
    at_top = [(s, d, where) for s, d, where, top in EDGES if top and RANK[d] > RANK[s]]
    assert not at_top


def test_cycles_between_packages_close_only_through_the_known_arrows_and_do_not_grow():
    pairs = {(s, d) for s, d, _, _ in EDGES}
    assert len(cycles(pairs)) <= KNOWN_CYCLES
    assert cycles(pairs - set(KNOWN_ARROWS_UP)) == []


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "symcal"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_an_import_into_a_higher_layer_and_the_cycle_it_closes_are_found(tmp_path):
    # the negative twin: a low module that imports a high one, lazily and at module level
    root = _package(tmp_path, {
        "__init__.py": "",
        "errors.py": "def f():\n    from symcal.report import render\n",
        "report/__init__.py": "from symcal.errors import f\n",
        "report/render.py": "from . import __init__\nfrom ..errors import f\n",
        "exact/__init__.py": "import symcal.report.render\n",
    })
    rank = {"__init__": 9, "errors": 1, "exact": 2, "report": 5}
    edges = import_edges(root)
    assert nodes_of(root) == {"__init__", "errors", "exact", "report"}
    up = arrows_up(edges, rank)
    assert set(up) == {("errors", "report"), ("exact", "report")}
    assert [top for s, d, _, top in edges if (s, d) == ("exact", "report")] == [True]
    assert [top for s, d, _, top in edges if (s, d) == ("errors", "report")] == [False]
    pairs = {(s, d) for s, d, _, _ in edges}
    assert cycles(pairs) == [["errors", "report"]]
    assert cycles(pairs - {("errors", "report")}) == []


def test_reading_the_version_constant_is_not_an_arrow_to_the_front_door(tmp_path):
    root = _package(tmp_path, {"__init__.py": "", "runner.py": "def v():\n    from symcal import __version__\n"})
    assert import_edges(root) == []
    root2 = _package(tmp_path / "b", {"__init__.py": "", "runner.py": "def v():\n    from symcal import check\n"})
    assert [(s, d) for s, d, _, _ in import_edges(root2)] == [("runner", "__init__")]
