"""Load claims: the bundled theorem library and a user's own ``--theorems`` file.

Modules are loaded by path, so the generic name ``theorems`` never lands in
site-packages (ARCHITECTURE.md, *Layers*).  After a normal install the library is package data in
``symcal/_theorems``; in a source checkout it is ``theorems/`` beside the package.
"""

from __future__ import annotations

import difflib
import fnmatch
import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from symcal.claims.core import Claim
from symcal.errors import InvalidClaim, SymcalError, invalid

__all__ = ["bundled_dir", "paper_path", "load_paper", "source_digest", "load_module", "load_bundled", "papers_for",
           "load_selected", "load_file", "probe_file", "merge", "select", "PAPERS"]

PAPERS = ("duchi2010", "ramaswamy2013", "xia2009", "uematsu2013", "calauzenes2013")
# bytes of address space a user's file may add while it is imported in a child (import_limited)
USER_FILE_MEMORY = 2 * 1024**3


def bundled_dir() -> Path:
    here = Path(__file__).resolve().parent
    installed = here / "_theorems"
    if installed.is_dir():
        return installed
    return here.parent / "theorems"


def paper_path(paper: str) -> Path:
    """The bundled module of ``paper``: ``<paper>.py``, or ``<paper>/__init__.py`` for a paper
    split into a package by section (theorems/README.md)."""
    d = bundled_dir()
    for p in (d / f"{paper}.py", d / paper / "__init__.py"):
        if p.exists():
            return p
    raise invalid("paper", paper, f"one of {', '.join(PAPERS)}")


def source_digest(path: Path) -> str:
    """sha256 of a theorem module's text; of every .py file of the package for a package's
    ``__init__.py`` (a change in any section is a different module)."""
    import hashlib

    path = Path(path)
    files = sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]
    h = hashlib.sha256()
    for f in files:
        if "__pycache__" in f.parts:
            continue
        h.update(f.relative_to(path.parent).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def load_paper(paper: str, name: str | None = None) -> ModuleType:
    """The bundled module of ``paper``, imported by path (a fresh copy under ``name``, default
    the library's own private name ``symcal_theorems_<paper>``)."""
    return load_module(paper_path(paper), name or f"symcal_theorems_{paper}")


def load_module(path: Path, name: str | None = None, *, param: str = "--theorems",
                expected: str = "a .py file defining claims") -> ModuleType:
    """Import a Python file by path under a private module name.  A package's ``__init__.py``
    is imported as a package, so its sections can import one another relatively.  Errors name
    ``param`` (``--theorems``, or ``link`` for a calibration link file)."""
    path = Path(path)
    if not path.exists():
        raise invalid(param, str(path), "an existing Python file", "check the path")
    if path.is_dir() or path.suffix != ".py":
        raise invalid(param, str(path), expected)
    modname = name or f"symcal_user_theorems_{abs(hash(str(path.resolve())))}"
    package = [str(path.parent)] if path.name == "__init__.py" else None
    spec = importlib.util.spec_from_file_location(modname, path, submodule_search_locations=package)
    if spec is None or spec.loader is None:  # pragma: no cover
        raise invalid(param, str(path), "a loadable Python file")
    module = importlib.util.module_from_spec(spec)
    siblings = {} if package else _siblings_imported(path, param)
    sys.modules[modname] = module
    try:
        with _siblings_importable(siblings):
            spec.loader.exec_module(module)
    except SymcalError:
        raise
    except SyntaxError as e:
        at = f" at line {e.lineno}" if e.lineno else ""  # a NUL byte has no line
        raise invalid(param, str(path), f"valid Python ({e.msg}{at})") from None
    except (Exception, SystemExit) as e:
        raise invalid(param, str(path), f"a file that imports cleanly ({_one_line(e)})") from None
    return module


def _top_imports(path: Path) -> set[str]:
    """The top-level module names a Python file imports absolutely (``import a.b`` gives ``a``,
    ``from a import b`` gives ``a``; relative imports are left out).  A file that does not parse
    imports nothing here: importing it reports the syntax error."""
    import ast

    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (SyntaxError, ValueError, OSError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".", 1)[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".", 1)[0])
    return names


def _sibling_file(folder: Path, name: str) -> Path | None:
    """The sibling module ``name`` in ``folder``: ``name.py`` or the package ``name/__init__.py``."""
    if not name.isidentifier():
        return None
    for p in (folder / f"{name}.py", folder / name / "__init__.py"):
        if p.is_file():
            return p
    return None


# names a sibling may never take, installed or not: symcal itself and what it imports when it can
_RESERVED = frozenset({"symcal", "sympy", "z3", "cvc5", "flint", "mpmath", "numpy", "matplotlib", "pytest"})


def _shadowed(name: str, folder: Path) -> str | None:
    """What a sibling module ``name`` of a file in ``folder`` would shadow (``None``: nothing)."""
    import importlib.machinery

    if name in _RESERVED:
        return "a module symcal uses"
    if name in sys.builtin_module_names or name in getattr(sys, "stdlib_module_names", ()):
        return "a standard-library module"
    loaded = sys.modules.get(name)
    if loaded is not None:
        where = getattr(loaded, "__file__", None)
        if not where or Path(where).resolve().parent not in (folder, folder / name):
            return "a module already imported"
    here = {str(folder), ""}
    search = [p for p in sys.path if p not in here and Path(p or ".").resolve() != folder]
    if importlib.machinery.PathFinder.find_spec(name, search) is not None:
        return "an installed module"
    return None


def _siblings_imported(path: Path, param: str) -> dict[str, Path]:
    """The modules beside ``path`` that it imports (``from helpers import X`` with ``helpers.py``
    beside it), and those they import in turn.  A sibling whose name would shadow symcal, a module
    it uses, a standard-library or installed module is refused (:class:`InvalidInput`): importing
    the file must never change what symcal itself imports."""
    folder = path.resolve().parent
    found: dict[str, Path] = {}
    todo = [path]
    while todo:
        for name in sorted(_top_imports(todo.pop())):
            if name in found:
                continue
            sibling = _sibling_file(folder, name)
            if sibling is None or sibling.resolve() == path.resolve():
                continue
            what = _shadowed(name, folder)
            if what is not None:
                raise invalid(param, str(path), "a file whose sibling imports shadow no other module",
                              f"{sibling.relative_to(folder)} beside it has the name of {what} ({name!r}): rename it")
            found[name] = sibling
            todo.append(sibling)
    return found


class _SiblingFinder:
    """A meta-path finder that imports exactly ``siblings`` (top-level name -> file), nothing else:
    the folder never goes on ``sys.path``, so no other import can land on a file there."""

    def __init__(self, siblings: dict[str, Path]) -> None:
        self.siblings = siblings

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        file = self.siblings.get(fullname) if path is None else None
        if file is None:
            return None
        package = [str(file.parent)] if file.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(fullname, file, submodule_search_locations=package)


class _siblings_importable:
    """Within the block the ``siblings`` of a file being imported are importable by name; after it,
    ``sys.meta_path`` and the ``sys.modules`` entries of those names (and their submodules) are as
    they were, so a second file with its own ``helpers.py`` gets its own, and nothing leaks.  What the
    file bound at import (``from helpers import f``) keeps working; an ``import helpers`` run later,
    inside a function, does not: import siblings at the top of the file."""

    def __init__(self, siblings: dict[str, Path]) -> None:
        self.siblings = siblings
        self.finder = _SiblingFinder(siblings)
        self.saved: dict[str, Any] = {}

    def _ours(self, key: str) -> bool:
        return key.split(".", 1)[0] in self.siblings

    def __enter__(self) -> None:
        if not self.siblings:
            return
        self.saved = {k: m for k, m in sys.modules.items() if self._ours(k)}
        for k in self.saved:
            del sys.modules[k]
        sys.meta_path.insert(0, self.finder)

    def __exit__(self, *exc: Any) -> None:
        if not self.siblings:
            return
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        for k in [k for k in sys.modules if self._ours(k)]:
            del sys.modules[k]
        sys.modules.update(self.saved)


def _one_line(e: BaseException) -> str:
    """``Type: message`` of an exception raised by a user's file, on one line and short (its
    ``str`` may itself raise, or run over many lines)."""
    try:
        text = str(e)
    except BaseException:  # noqa: BLE001 - the user's own __str__
        text = "<unprintable>"
    text = " ".join(text.split())
    if len(text) > 160:
        text = text[:157] + "..."
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _claims_of(module: ModuleType, where: str) -> list[Claim]:
    claims = getattr(module, "CLAIMS", None)
    if claims is None:
        claims = [v for v in vars(module).values() if isinstance(v, Claim)]
    if isinstance(claims, str | bytes) or not hasattr(claims, "__iter__"):
        raise InvalidClaim(f"{where}: CLAIMS is a {type(claims).__name__}, not a list of claims")
    claims = list(claims)
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad:
        raise InvalidClaim(f"{where}: CLAIMS holds {type(bad[0]).__name__}, not Claim")
    return claims


def _unique(claims: list[Claim], where: str = "") -> list[Claim]:
    """The claims sorted by id, each once: one claim bound to two names is one claim; two different
    claims with one id are an error (one of them would silently not be checked)."""
    seen: dict[str, Claim] = {}
    for c in claims:
        if c.id in seen and seen[c.id] is not c:
            raise InvalidClaim(f"claim id {c.id!r} is defined twice{f' in {where}' if where else ''}; "
                               "ids must be unique")
        seen[c.id] = c
    return sorted(seen.values(), key=lambda c: c.id)


def merge(sources: list[tuple[str, list[Claim]]]) -> list[Claim]:
    """The claims of several sources (``(name, claims)``: a file, "the bundled library"), in order,
    each once; an id that two sources define is an error naming both (:class:`InvalidClaim`)."""
    owner: dict[str, tuple[str, Claim]] = {}
    for name, claims in sources:
        for c in claims:
            if c.id in owner and owner[c.id][1] is not c:
                raise InvalidClaim(f"claim id {c.id!r} is defined in {owner[c.id][0]} and in {name}; ids must be "
                                   "unique (rename one)")
            owner.setdefault(c.id, (name, c))
    return [c for _, c in owner.values()]


def papers_for(patterns: list[str] | None) -> tuple[str, ...]:
    """The papers whose claims ``patterns`` (as :func:`select` reads them) can match: the paper named
    before a pattern's first dot, or every paper when a pattern has a glob character there, names no
    paper (a typo: the suggestions need every id) or there is no pattern.  Loading only these makes
    ``symcal show ID`` and a one-claim ``check`` start without building the whole library."""
    if not patterns:
        return PAPERS
    out: list[str] = []
    for pat in patterns:
        head = str(pat).split(".", 1)[0]
        if head not in PAPERS and "." in str(pat) and re.fullmatch(r"[a-z]+\d+", head):
            # a paper key that is no paper's: its suggestions come from the nearest paper, or from none
            # ("nosuch2026.claim" builds nothing; "duchi201.lemma14" builds duchi2010 for "did you mean")
            head = next(iter(difflib.get_close_matches(head, PAPERS, n=1, cutoff=0.75)), "")
            if not head:
                continue
        if any(ch in head for ch in "*?[") or head not in PAPERS:
            return PAPERS
        if head not in out:
            out.append(head)
    return tuple(p for p in PAPERS if p in out)


# one process builds each paper once (the front door and the tests call main() many times); a paper
# whose files changed since (size or modification time) is built again
_BUILT: dict[str, tuple[tuple[tuple[str, int, int], ...], list[Claim]]] = {}
_LOADED: dict[str, tuple[tuple[tuple[str, int, int], ...], ModuleType]] = {}


def _stamp(paper: str) -> tuple[tuple[str, int, int], ...]:
    folder = paper_path(paper).parent
    return tuple(sorted((f.name, f.stat().st_mtime_ns, f.stat().st_size) for f in folder.glob("*.py")))


def _paper_module(paper: str) -> ModuleType:
    """The bundled module of ``paper``, imported once per process (again when one of its files changes).
    Importing it may build nothing yet: a paper split into sections may build them on first use."""
    stamp = _stamp(paper)
    hit = _LOADED.get(paper)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    module = load_module(paper_path(paper), f"symcal_theorems_{paper}")
    _LOADED[paper] = (stamp, module)
    _BUILT.pop(paper, None)
    return module


def _paper_claims(paper: str) -> list[Claim]:
    module = _paper_module(paper)
    stamp = _LOADED[paper][0]
    hit = _BUILT.get(paper)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    claims = _claims_of(module, str(paper_path(paper)))
    _BUILT[paper] = (stamp, claims)
    return claims


def load_bundled(papers: tuple[str, ...] | list[str] | None = None) -> list[Claim]:
    """Every claim of the bundled library (or of ``papers`` only), sorted by id.  Each paper is
    built once per process (again when one of its files changes)."""
    claims: list[Claim] = []
    for paper in (PAPERS if papers is None else papers):
        claims += _paper_claims(paper)
    return _unique(claims)


def _indexed(paper: str, patterns: list[str]) -> list[Claim] | None:
    """The claims of ``paper`` that ``patterns`` match, built alone when the paper keeps a cheap index
    of its ids (``CLAIM_IDS``, a mapping keyed by claim id, and ``claims_named(ids)`` building those
    claims only); None when it keeps none, or when a pattern that names this paper matches none of
    its ids (the whole paper is built then, so that the "did you mean" of :func:`select` is the same)."""
    module = _paper_module(paper)
    index = getattr(module, "CLAIM_IDS", None)
    build = getattr(module, "claims_named", None)
    if index is None or build is None:
        return None
    ids = list(index)
    wanted: set[str] = set()
    for pat in patterns:
        hits = _matches(ids, str(pat))
        if not hits and paper in papers_for([pat]):
            return None
        wanted.update(hits)
    return list(build(sorted(wanted)))


def load_selected(patterns: list[str] | None) -> list[Claim]:
    """The bundled claims that ``patterns`` (as :func:`select` reads them) can select, sorted by id:
    every claim of the papers :func:`papers_for` names, or, of a paper that keeps a cheap index of
    its ids, only the claims the patterns match.  ``select(load_selected(p), p)`` is
    ``select(load_bundled(), p)``; ``symcal show duchi2010.lemma14`` builds Section 3 of Duchi et al.
    alone."""
    if not patterns:
        return load_bundled()
    claims: list[Claim] = []
    for paper in papers_for(patterns):
        hit = _BUILT.get(paper)
        some = None if hit is not None and hit[0] == _stamp(paper) else _indexed(paper, patterns)
        claims += _paper_claims(paper) if some is None else some
    return _unique(claims)


def _count_claims(module: ModuleType) -> int:
    """In the child of :func:`probe_file`: validate the module's claims and count them."""
    path = getattr(module, "__file__", "") or ""
    claims = _claims_of(module, path)
    if not claims:
        raise invalid("--theorems", path, "a file that defines claims (a CLAIMS list or Claim values)")
    return len(_unique(claims, path))


def _import_and_extract(path: str, extract: Callable[[ModuleType], Any], param: str, expected: str, quiet: bool,
                        memory: int | None, forked: bool) -> Any:
    """In the child of :func:`import_limited` (``forked``; or in a worker that may not fork):
    import ``path`` and return ``extract(module)``; anything the file raises, ``SystemExit`` and
    ``KeyboardInterrupt`` included, becomes one :class:`~symcal.errors.InvalidInput` line."""
    import contextlib
    import os

    if quiet and forked:
        sys.stdout.flush()
        os.dup2(2, 1)  # this child's own descriptor: whatever the file writes to stdout goes to stderr
    if memory is not None and forked:
        _limit_memory(memory)
    out = contextlib.redirect_stdout(sys.stderr) if quiet else contextlib.nullcontext()
    try:
        with out:
            return extract(load_module(Path(path), param=param, expected=expected))
    except SymcalError:
        raise
    except BaseException as e:  # noqa: BLE001 - e.g. KeyboardInterrupt raised by the file itself
        raise invalid(param, path, f"a file that imports cleanly ({_one_line(e)})") from None


def _limit_memory(extra: int) -> None:
    """This process may grow its address space by ``extra`` bytes more (RLIMIT_AS), so that a
    file that allocates without end gets a MemoryError instead of the machine's memory."""
    import os
    import resource

    try:
        pages = int(Path("/proc/self/statm").read_text().split()[0])
        now = pages * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = now + extra
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        if soft == resource.RLIM_INFINITY or want < soft:
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (OSError, ValueError, IndexError):  # pragma: no cover - no /proc or no RLIMIT_AS: CPU limit only
        pass


def import_limited(path: str | Path, extract: Callable[[ModuleType], Any], timeout: float, *,
                   param: str = "--theorems", expected: str = "a .py file defining claims", quiet: bool = False,
                   memory: int | None = USER_FILE_MEMORY) -> Any:
    """Import a user's Python file in a forked child limited to ``timeout`` CPU seconds
    (:func:`symcal.limits.run_limited`) and ``memory`` more bytes of address space, and return
    ``extract(module)`` computed there (it must be picklable: plain data).  A file that loops,
    sleeps, exits (``sys.exit``, ``os._exit``), crashes the interpreter, allocates without end or
    raises at import is refused with a one-line :class:`~symcal.errors.InvalidInput` naming
    ``param`` and the file.  ``quiet``: what the file prints goes to stderr, never to stdout
    (a ``--json`` answer stays clean).  Inside a worker that may not fork (it runs under its own
    limits already) the file is imported in this process."""
    import multiprocessing

    from symcal.limits import TimeLimitReached, run_limited

    path = str(path)
    p = Path(path)
    if not p.exists() or p.is_dir() or p.suffix != ".py":
        load_module(p, param=param, expected=expected)  # the usual one-line error, no child needed
    if multiprocessing.current_process().daemon:  # a worker may not fork: it runs under a limit already
        return _import_and_extract(path, extract, param, expected, quiet, None, False)
    import time

    start = time.monotonic()
    ended = ("a file that imports cleanly", "importing it ended the process without an answer (os._exit, "
             "sys.exit from a thread, a crash or a signal)")
    try:
        return run_limited(_import_and_extract, path, extract, param, expected, quiet, memory, True,
                           timeout=timeout, what=f"importing {path}")
    except TimeLimitReached:
        if time.monotonic() - start < timeout:  # too soon to have used its CPU budget: it died
            raise invalid(param, path, *ended) from None
        raise invalid(param, path, f"a file that imports within {timeout:g} CPU seconds",
                      "importing it did not finish (a loop at import?)") from None
    except SymcalError:
        raise
    except RuntimeError as e:
        if "worker process died" in str(e):
            raise invalid(param, path, *ended) from None
        raise invalid(param, path, expected, f"what it defines could not be read back ({_one_line(e)})") from None
    except Exception as e:  # noqa: BLE001 - e.g. an object of the file's own class that cannot be unpickled here
        raise invalid(param, path, expected, f"what it defines could not be read back ({_one_line(e)})") from None


def probe_file(path: str | Path, timeout: float) -> int:
    """Import a user's file once in a forked child limited to ``timeout`` CPU seconds
    (:func:`import_limited`) and validate its claims there: a file that loops, exits
    (``os._exit``), crashes the interpreter or raises at import is refused with a one-line
    :class:`~symcal.errors.InvalidInput` before symcal imports it itself.  Returns the number
    of claims.  (Claims hold functions, which do not travel between processes: the parent
    imports the file again; a file whose import is not repeatable is on its own.)"""
    return int(import_limited(path, _count_claims, timeout))


def load_file(path: str | Path, *, timeout: float | None = None) -> list[Claim]:
    """The claims a user's file defines (its CLAIMS list, else every module-level Claim).
    With ``timeout`` the file is first imported in a child process limited to that many CPU
    seconds (:func:`probe_file`), so that no file can hang or end symcal."""
    if timeout is not None:
        probe_file(path, timeout)
    claims = _claims_of(load_module(Path(path)), str(path))
    if not claims:
        raise invalid("--theorems", str(path), "a file that defines claims (a CLAIMS list or Claim values)")
    return _unique(claims, str(path))


def _matches(ids: list[str], pat: str) -> list[str]:
    """The ids ``pat`` matches: itself when it is one of them, else those a glob matches
    ('uematsu2013.*'), else those it is a prefix of (up to a dot)."""
    if pat in ids:
        return [pat]
    if any(ch in pat for ch in "*?["):
        return [i for i in ids if fnmatch.fnmatchcase(i, pat)]
    return [i for i in ids if i.startswith(pat + ".")]


def select(claims: list[Claim], patterns: list[str]) -> list[Claim]:
    """Claims matching any pattern: an exact id, a glob ('uematsu2013.*'), or an id prefix."""
    if not patterns:
        return claims
    out: dict[str, Claim] = {}
    ids = [c.id for c in claims]
    for pat in patterns:
        matched = set(_matches(ids, pat))
        hits = [c for c in claims if c.id in matched]
        if not hits:
            near = difflib.get_close_matches(pat, ids, n=3, cutoff=0.5)
            hint = f"did you mean {', '.join(near)}?" if near else "see 'symcal list'"
            raise invalid("pattern", pat, "a claim id, an id prefix or a glob matching some claim", hint)
        for c in hits:
            out[c.id] = c
    return sorted(out.values(), key=lambda c: c.id)
