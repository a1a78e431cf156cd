"""ARCHITECTURE.md is the project's own design document: it exists, has the sections the code
cites, names only files and functions that exist, and nothing in the repository refers to design
notes kept outside it."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "ARCHITECTURE.md"

# the names of the design notes that used to live outside the repository (spelt in pieces, so
# that this file does not mention them itself)
OUTSIDE = ("DESIGN" + ".md", "STYLE" + ".md", ".." + "/shared")

SECTIONS = ("Who uses symcal, and for what", "Vocabulary", "Rules of trust", "The trust path", "Layers",
            "Time and budgets", "Interface contract", "How to", "Add a paper", "Add a claim kind",
            "Add a calibration method", "Add a certificate kind", "Add a backend", "Encoding for speed",
            "Conventions")

_SPAN = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"^((?:symcal|theorems|tests|bench|examples)/[\w./-]*|README\.md|pyproject\.toml|ARCHITECTURE\.md)"
                   r"(?:::(\w+))?$")
_DOTTED = re.compile(r"^(symcal(?:\.\w+)+)(?:\(.*\))?$")


def _resolves(dotted: str) -> bool:
    """Whether ``symcal.a.b.c`` names a module, or an attribute of the longest importable module prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def broken_references(text: str, root: Path = ROOT) -> list[str]:
    """Every backticked repository path (``symcal/...``, ``tests/...::test_name``) that does not exist
    and every backticked ``symcal.module.name`` that does not import; placeholders (``<paper>``) are
    skipped."""
    bad = []
    for span in _SPAN.findall(text):
        span = span.strip()
        if "<" in span:
            continue
        if m := _PATH.match(span):
            path = root / m.group(1)
            if not path.exists():
                bad.append(f"{span}: no such file or folder")
            elif m.group(2) and not re.search(rf"^\s*def {m.group(2)}\(", path.read_text(encoding="utf-8"), re.M):
                bad.append(f"{span}: no function {m.group(2)} in {m.group(1)}")
        elif m := _DOTTED.match(span):
            if not _resolves(m.group(1)):
                bad.append(f"{span}: does not import")
    return bad


def outside_references(files: dict[str, str]) -> list[str]:
    """``name:line: text`` for every line of ``files`` (name -> text) that names the old notes."""
    return [f"{name}:{k}: {line.strip()}" for name, text in files.items()
            for k, line in enumerate(text.splitlines(), 1) if any(word in line for word in OUTSIDE)]


def _tracked_text_files() -> dict[str, str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    out = {}
    for name in names.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            out[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return out


def test_the_architecture_document_exists_with_the_sections_the_code_cites():
    text = DOC.read_text(encoding="utf-8")
    headings = [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]
    missing = [s for s in SECTIONS if s not in headings]
    assert not missing, missing


def test_the_rules_of_trust_are_numbered_one_to_eight_and_the_conventions_one_to_fourteen():
    text = DOC.read_text(encoding="utf-8")
    rules = text.split("## Rules of trust", 1)[1].split("\n## ", 1)[0]
    conventions = text.split("## Conventions", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"^(\d+)\. \*\*", rules, re.M) == [str(k) for k in range(1, 9)]
    assert re.findall(r"^(\d+)\. \*\*", conventions, re.M) == [str(k) for k in range(1, 15)]


def layer_table(text: str) -> dict[str, int]:
    """The *Layers* table of the document: node (``backends``, ``runner``, ``__init__``) -> layer."""
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    out = {}
    for row in re.findall(r"^\| (\d+) \| ([^|]+) \|", section, re.M):
        for name in re.findall(r"`([\w.]+?)(?:\.py|/)?`", row[1]):
            out[name] = int(row[0])
    return out


def test_the_layer_table_agrees_with_the_layer_test():
    from tests.unit.test_layers import RANK, SYMCAL, nodes_of

    table = layer_table(DOC.read_text(encoding="utf-8"))
    assert {n: RANK.get(n) for n in table} == table
    tracked = set(_tracked_text_files())
    present = {n for n in nodes_of(SYMCAL) if f"symcal/{n}.py" in tracked or f"symcal/{n}/__init__.py" in tracked}
    assert present <= set(table), sorted(present - set(table))


def test_a_layer_table_row_is_read_name_by_name():
    # the negative twin of the table reader: a wrong layer or a missing node would show
    text = "## Layers\n\n| 0 | `kernel/` | x |\n| 12 | `cli.py`, `__init__.py` | y |\n\n## Next\n| 3 | `z.py` | z |\n"
    assert layer_table(text) == {"kernel": 0, "cli": 12, "__init__": 12}


def test_every_file_and_function_the_document_names_exists():
    assert broken_references(DOC.read_text(encoding="utf-8")) == []


def test_a_missing_file_function_or_test_named_in_backticks_is_reported():
    # the negative twin: references that do not exist are found; placeholders are not checked
    text = ("`symcal/no_such_module.py`, `tests/unit/test_layers.py::test_that_does_not_exist`, "
            "`symcal.runner.no_such_function`, `symcal.no_such_package.f`, `theorems/<paper>/`, "
            "`symcal/runner.py`, `symcal.runner.check_many`, `symcal.calibration.check_calibration(...)`, "
            "`tests/unit/test_layers.py::test_the_count_of_arrows_up_does_not_grow`")
    assert [b.split(":")[0] for b in broken_references(text)] == [
        "symcal/no_such_module.py", "tests/unit/test_layers.py", "symcal.runner.no_such_function",
        "symcal.no_such_package.f"]


def test_no_file_of_the_repository_refers_to_design_notes_outside_it():
    files = _tracked_text_files()
    files["ARCHITECTURE.md"] = DOC.read_text(encoding="utf-8")
    assert outside_references(files) == []


def test_a_reference_to_the_old_notes_is_found_wherever_it_is():
    # the negative twin of the repository-wide check
    found = outside_references({"a.py": "x = 1\n# see " + OUTSIDE[0] + ", rule 2\n",
                                "b.md": "ok\n" + OUTSIDE[2] + "/papers/x.txt\n", "c.md": "ARCHITECTURE.md\n"})
    assert [f.split(":")[:2] for f in found] == [["a.py", "2"], ["b.md", "2"]]
