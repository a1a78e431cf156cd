"""A ``--theorems`` file may import the modules beside it (``from helpers import X`` with ``helpers.py``
in the same folder), for that import only: no sibling can shadow symcal, a module it uses, a
standard-library or installed module, and nothing of the folder stays importable afterwards."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symcal.errors import InvalidInput
from symcal.library import load_file

ROOT = Path(__file__).resolve().parents[2]

HELPERS = ("from symcal import Citation, reals\nx, = reals('x')\n"
           "C = Citation('mine2026', 'p. 1')\nBOUND = 0\ndef positive(v):\n    return v > BOUND\n")
MINE = ("from helpers import C, x, positive, BOUND\nfrom symcal import implies\n"
        "a = implies('mine2026.sibling', hypotheses={'h': [positive(x)]}, conclusion=x >= BOUND, cite=C)\n")


def symcal(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symcal", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def folder(tmp_path: Path, name: str = "proj", helpers: str = HELPERS, mine: str = MINE) -> Path:
    d = tmp_path / name
    d.mkdir()
    (d / "helpers.py").write_text(helpers)
    (d / "mine.py").write_text(mine)
    return d


def test_a_theorems_file_imports_its_sibling_module_and_is_checked(tmp_path):
    d = folder(tmp_path)
    r = symcal("check", "--theorems", str(d / "mine.py"), "--json", "--no-cross-check")
    assert r.returncode == 0, r.stderr
    row, = json.loads(r.stdout)
    assert row["id"] == "mine2026.sibling" and row["status"] == "proved"
    # its twin: a module that is not beside the file is still an import error, on one line
    (d / "helpers.py").rename(d / "elsewhere.py")
    r2 = symcal("check", "--theorems", str(d / "mine.py"), "--no-cross-check")
    assert r2.returncode == 2 and "Traceback" not in r2.stderr and len(r2.stderr.strip().splitlines()) == 1
    assert "helpers" in r2.stderr and "--theorems" in r2.stderr


def test_the_sibling_is_importable_for_that_import_only_and_two_folders_get_their_own(tmp_path):
    mine = MINE.replace("'mine2026.sibling'", "f'mine2026.bound{BOUND}'")
    a = folder(tmp_path, "a", mine=mine)
    b = folder(tmp_path, "b", helpers=HELPERS.replace("BOUND = 0", "BOUND = 5"), mine=mine)
    meta, path = list(sys.meta_path), list(sys.path)
    (ca,) = load_file(a / "mine.py")
    (cb,) = load_file(b / "mine.py")
    assert "helpers" not in sys.modules and sys.meta_path == meta and sys.path == path
    assert str(a) not in sys.path and str(b) not in sys.path
    # each file saw its own helpers.py: the bounds differ
    assert (ca.id, cb.id) == ("mine2026.bound0", "mine2026.bound5")
    # its twin: a plain import from the test itself does not see the folder
    with pytest.raises(ModuleNotFoundError):
        __import__("helpers")


@pytest.mark.parametrize("name", ["sympy", "symcal", "json", "z3"])
def test_a_sibling_that_would_shadow_symcal_or_a_module_it_uses_is_refused_on_one_line(tmp_path, name):
    d = folder(tmp_path)
    (d / f"{name}.py").write_text("raise SystemExit('the shadowing file ran')\n")
    (d / "mine.py").write_text(f"import {name}\n" + MINE)
    r = symcal("check", "--theorems", str(d / "mine.py"), "--no-cross-check")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert f"{name}.py" in r.stderr and "rename it" in r.stderr and "shadowing file ran" not in r.stderr
    # its twin: renamed as the error says, the file imports the real module and is checked
    (d / f"{name}.py").rename(d / f"my_{name}.py")
    r2 = symcal("check", "--theorems", str(d / "mine.py"), "--json", "--no-cross-check")
    assert r2.returncode == 0, r2.stderr
    assert json.loads(r2.stdout)[0]["status"] == "proved"


def test_a_sibling_importing_a_shadowing_sibling_is_refused_too(tmp_path):
    d = folder(tmp_path, helpers="import fractions\n" + HELPERS)
    (d / "fractions.py").write_text("raise SystemExit('ran')\n")
    with pytest.raises(InvalidInput, match="fractions.py"):
        load_file(d / "mine.py")
    # its twin: without the shadowing file the same chain imports
    (d / "fractions.py").unlink()
    assert [c.id for c in load_file(d / "mine.py")] == ["mine2026.sibling"]
