"""Decide claims on a Dask cluster when one machine is not enough (``--cluster ADDRESS|local``).

Claims hold lambdas and build z3 objects, which do not pickle, so what travels is a **query**:
where the claim comes from (a module of the bundled library, or the path of the user's
``--theorems`` file, with the sha256 of its text), the claim's id, how it was derived from a
claim of that module (a hypothesis dropped for ``necessity``, a mutant or a declared negative
twin for ``selftest``, the smallest default sizes, the all-sizes local lemma), a fingerprint of
its content, the size, the timeout and the options.  A worker loads the module by path, rebuilds
the claim, checks that its fingerprint is the one the client computed (else the decision is an
``error``, never a verdict about some other claim), and decides it through the runner's own task path
(:func:`symcal.runner._execute`): every decision in a forked child with its CPU budget,
``RLIMIT_CPU`` and the wall-clock backstop, because cancelling a Dask task does not stop it.

What comes back are the runner's per-size outcomes, which the client hands to the same
aggregation as a local run, claim by claim and size by size **in order**, stopping a claim's
sweep at its first refuted or out-of-time size exactly as ``check_many`` does with one job.  So
the verdicts are those of a local run with ``--jobs 1``, whatever the number of workers.  (One
caveat, not the cluster's: z3 numbers terms per process, so the SMT-LIB text's let-names and,
rarely, which model z3 finds depend on what the deciding process built before -- a model that no
rounding re-checks exactly is then ``unknown`` in one run and ``refuted`` in another.)

* **Batches.** A Dask task costs a few milliseconds, as much as a quick decision: consecutive
  decisions (a claim's sizes, several quick claims) go in one task, about eight tasks per worker
  thread and at most :data:`MAX_BATCH` decisions each.
* **Exactly once.** Each task's key is the hash of its content; a worker lost mid-task is
  rescheduled by the scheduler and a task that raises is retried (:data:`RETRIES`); each result
  is delivered once to its slot, and a decision whose task failed for good comes back as
  ``error`` with the reason -- never lost, never counted twice.
* **Cache.** Every decision is stored under the hash of its content (claim source text and
  fingerprint, derivation, size, timeout, options, symcal's version and code digest, Python, z3
  and -- with a second opinion -- cvc5 versions) in :func:`default_cache_dir` or ``--cache DIR``;
  a re-run of a sweep costs nothing, and a verdict taken from the cache says so in its backend
  (``z3 (from cache)``).  Errors and outcomes that depend on the load (a wall-clock backstop, a
  dead worker) are never cached.
* **Same code everywhere.** A worker whose symcal code, Python, z3 (or cvc5) differs from the
  client's answers ``error`` for every decision, naming the difference.

Dask is an optional extra: ``pip install 'symcal[cluster]'`` (``distributed``, ``dask-jobqueue``).
"""

from __future__ import annotations

import contextvars
import dataclasses
import enum
import hashlib
import importlib.metadata
import json
import logging
import math
import os
import pickle
import re
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from symcal import runner
from symcal.backends import Outcome
from symcal.claims.core import Claim
from symcal.errors import InvalidClaim, InvalidInput, SymcalError, invalid
from symcal.verdicts import Status

__all__ = [
    "Batch", "ClaimRef", "Cluster", "ClusterUnavailable", "DecisionCache", "Sources", "claim_fingerprint",
    "dask_available", "default_cache_dir", "local_environment", "run_batch",
]

INSTALL_HINT = "pip install 'symcal[cluster]'"
LOCAL_WORKERS = 2  # --cluster local: two worker processes with one thread each
MAX_BATCH = 8  # decisions per Dask task at most
TASKS_PER_THREAD = 8  # about this many tasks per worker thread, for balance
RETRIES = 2  # a task that raises is run again this many times
CACHE_FORMAT = 1
FROM_CACHE = " (from cache)"
BUNDLED = "bundled"

OnResult = Callable[[Any, Outcome, float], bool]


class ClusterUnavailable(SymcalError):
    """Dask is not installed, or the scheduler cannot be reached."""


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def require_dask(option: str = "--cluster") -> None:
    if not dask_available():
        raise ClusterUnavailable(f"{option} needs Dask (the 'distributed' package), which is not installed: "
                                 f"{INSTALL_HINT}")


# --------------------------------------------------------------------------- environment


_CODE_DIGEST: str | None = None


def code_digest() -> str:
    """sha256 of symcal's own Python files (not the bundled theorems, hashed per module), so a
    change of code -- even without a new version number -- is a different symcal."""
    global _CODE_DIGEST
    if _CODE_DIGEST is None:
        root = Path(__file__).resolve().parent
        h = hashlib.sha256()
        for p in sorted(root.rglob("*.py")):
            rel = p.relative_to(root).as_posix()
            if rel.startswith("_theorems/") or "__pycache__" in rel:
                continue
            h.update(rel.encode() + b"\0" + p.read_bytes() + b"\0")
        _CODE_DIGEST = h.hexdigest()
    return _CODE_DIGEST


code_digest()  # at import, beside symcal's other modules: the code this process runs, not later edits


def local_environment(cross: bool) -> dict[str, str]:
    """What must be the same on the client and on every worker for their verdicts to agree."""
    import z3

    from symcal.version import __version__

    env = {"symcal": f"{__version__}+{code_digest()[:16]}",
           "python": f"{sys.version_info.major}.{sys.version_info.minor}",
           "z3": z3.get_version_string()}
    if cross:
        try:
            env["cvc5"] = importlib.metadata.version("cvc5")
        except importlib.metadata.PackageNotFoundError:
            env["cvc5"] = "not installed"
    return env


def _env_mismatch(client: dict[str, str], worker: dict[str, str]) -> str:
    diffs = [f"{k} {worker.get(k, 'missing')} (client: {v})" for k, v in client.items() if worker.get(k) != v]
    if not diffs:
        return ""
    return (f"the worker on {_host()} runs a different environment: {'; '.join(diffs)}; install the same symcal, "
            f"Python and solvers on the workers")


def _host() -> str:
    import socket

    return socket.gethostname()


# --------------------------------------------------------------------------- fingerprints


def claim_fingerprint(claim: Claim) -> str:
    """sha256 of a claim's content: its fields, and for every function in it (conclusions,
    hypotheses, predicates) the bytecode, constants, defaults and closed-over values, recursively.
    The same claim built in two processes has the same fingerprint; a claim changed in memory
    under the same id does not."""
    h = hashlib.sha256()
    token = _DUMMIES.set({})
    try:
        _feed(h, claim, set(), 0)
    finally:
        _DUMMIES.reset(token)
    return h.hexdigest()


# a sympy Dummy's srepr carries ``dummy_index``, drawn at random per process: within one fingerprint each
# index is replaced by its order of first appearance, so the same claim hashes alike in every process while
# two different Dummies of one claim stay apart
_DUMMIES: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar("symcal_fingerprint_dummies",
                                                                                 default=None)
_DUMMY_INDEX = re.compile(r"dummy_index=(-?\d+)")


def _stable_srepr(text: str) -> str:
    """``text`` (an srepr) with each Dummy's per-process index replaced by its order in this fingerprint."""
    seen = _DUMMIES.get()
    if seen is None:  # fed outside claim_fingerprint: numbered within this one text
        seen = {}

    def number(m: re.Match[str]) -> str:
        return f"dummy_order={seen.setdefault(m.group(1), len(seen))}"

    return _DUMMY_INDEX.sub(number, text)


MAX_DEPTH = 60


def _global_names(code: types.CodeType) -> list[str]:
    """The global names a code object (and the functions, lambdas and comprehensions nested in it) reads."""
    names = list(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names += _global_names(c)
    return names


def _feed_globals(h: Any, fn: types.FunctionType, seen: set[int], depth: int) -> None:
    """Feed the values of the module globals a function reads (``TH = 0`` edited to ``TH = 1`` in a claims
    file changes the claim, so it must change the fingerprint, or a cache would hand back the old verdict):
    values and the functions of the function's own module in full; functions and classes of other modules
    (sympy, symcal, the standard library) by their qualified name, since their code is not the claim's."""
    g = fn.__globals__
    own = fn.__module__
    for name in sorted(set(_global_names(fn.__code__))):
        if name not in g:
            continue  # a builtin, or an attribute name
        v = g[name]
        _put(h, "global", name)
        if isinstance(v, types.FunctionType | type) and getattr(v, "__module__", None) != own:
            _put(h, "foreign", f"{getattr(v, '__module__', '')}.{getattr(v, '__qualname__', name)}")
        else:
            _feed(h, v, seen, depth)


def _put(h: Any, tag: str, text: str = "") -> None:
    """Feed one tagged piece of text to the hash ``h``."""
    h.update(tag.encode() + b":" + text.encode("utf-8", "surrogatepass") + b";")


def _feed_leaf(h: Any, x: Any, depth: int) -> bool:
    """Feed a value fed by its text alone (numbers, strings, enums, classes, modules, builtins,
    sympy, z3, ctypes and numpy values, and any value beyond ``MAX_DEPTH``); False for others."""
    if x is None or isinstance(x, bool | int | float | complex | str | Fraction):
        _put(h, type(x).__name__, repr(x))
    elif isinstance(x, bytes):
        _put(h, "bytes", x.hex())
    elif isinstance(x, enum.Enum):
        _put(h, "enum", f"{type(x).__module__}.{type(x).__qualname__}.{x.name}")
    elif depth > MAX_DEPTH:
        _put(h, "deep", type(x).__qualname__)
    elif isinstance(x, type):
        _put(h, "class", f"{x.__module__}.{x.__qualname__}")
    elif isinstance(x, types.ModuleType):
        _put(h, "module", x.__name__)
    elif isinstance(x, types.BuiltinFunctionType):
        _put(h, "builtin", f"{getattr(x, '__module__', '')}.{getattr(x, '__qualname__', x.__name__)}")
    else:
        return _feed_foreign(h, x)
    return True


def _feed_foreign(h: Any, x: Any) -> bool:
    """Feed a sympy, z3, ctypes or numpy value by its text; False for any other value."""
    mod = type(x).__module__ or ""
    if mod.startswith("sympy") or hasattr(x, "_sympy_"):
        import sympy

        _put(h, "sympy", _stable_srepr(sympy.srepr(x)))
    elif mod.startswith("z3"):
        _put(h, "z3", x.sexpr() if hasattr(x, "sexpr") else type(x).__qualname__)
    elif mod.startswith("ctypes") or mod.startswith("_ctypes"):
        _put(h, "ctypes", type(x).__qualname__)
    elif mod.startswith("numpy"):
        if hasattr(x, "tobytes"):
            _put(h, "ndarray", f"{getattr(x, 'dtype', '')}{getattr(x, 'shape', '')}{x.tobytes().hex()}")
        else:
            _put(h, "numpy", repr(x))
    else:
        return False
    return True


def _feed_code(h: Any, x: types.CodeType, seen: set[int], d: int) -> None:
    """Feed a code object: its name, bytecode, names and constants."""
    _put(h, "code", x.co_name)
    h.update(x.co_code)
    _put(h, "names", ",".join(x.co_names) + "|" + ",".join(x.co_varnames) + "|" + ",".join(x.co_freevars))
    for c in x.co_consts:
        _feed(h, c, seen, d)


def _feed_function(h: Any, x: types.FunctionType, seen: set[int], d: int) -> None:
    """Feed a function: its code, defaults, closed-over values and the globals it reads."""
    _put(h, "function", x.__qualname__)
    _feed(h, x.__code__, seen, d)
    _feed(h, x.__defaults__, seen, d)
    _feed(h, x.__kwdefaults__, seen, d)
    for cell in x.__closure__ or ():
        try:
            _feed(h, cell.cell_contents, seen, d)
        except ValueError:  # an empty cell
            _put(h, "empty-cell")
    _feed_globals(h, x, seen, d)


def _feed_container(h: Any, x: Any, seen: set[int], d: int) -> bool:
    """Feed a bound method, list, tuple, dict, set or frozenset element by element; False for others."""
    if isinstance(x, types.MethodType):
        _put(h, "method")
        _feed(h, x.__func__, seen, d)
        _feed(h, x.__self__, seen, d)
    elif isinstance(x, list | tuple):
        _put(h, type(x).__name__, str(len(x)))
        for v in x:
            _feed(h, v, seen, d)
    elif isinstance(x, dict):
        _put(h, "dict", str(len(x)))
        for k, v in x.items():
            _feed(h, k, seen, d)
            _feed(h, v, seen, d)
    elif isinstance(x, set | frozenset):
        parts = []
        for v in x:
            hv = hashlib.sha256()
            _feed(hv, v, seen, d)
            parts.append(hv.hexdigest())
        _put(h, "set", ",".join(sorted(parts)))
    else:
        return False
    return True


def _feed_object(h: Any, x: Any, seen: set[int], d: int) -> None:
    """Feed a dataclass, a functools.partial or another object by its fields, attributes and slots."""
    mod = type(x).__module__ or ""
    if dataclasses.is_dataclass(x):
        _put(h, "dataclass", f"{type(x).__module__}.{type(x).__qualname__}")
        for f in dataclasses.fields(x):
            _put(h, "field", f.name)
            _feed(h, getattr(x, f.name, None), seen, d)
        return
    if hasattr(x, "func") and hasattr(x, "args") and hasattr(x, "keywords"):  # functools.partial
        _put(h, "partial")
        _feed(h, x.func, seen, d)
        _feed(h, x.args, seen, d)
        _feed(h, x.keywords, seen, d)
        return
    if hasattr(x, "__dict__"):
        _put(h, "object", f"{mod}.{type(x).__qualname__}")
        _feed(h, {k: v for k, v in vars(x).items() if not k.startswith("__")}, seen, d)
    else:
        _put(h, "opaque", f"{mod}.{type(x).__qualname__}")
    for s in getattr(type(x), "__slots__", ()):
        _feed(h, getattr(x, s, None), seen, d)


def _feed(h: Any, x: Any, seen: set[int], depth: int) -> None:
    """Feed ``x`` to the hash ``h``: leaves by their text, everything else by what it holds, recursively;
    ``seen`` (ids on the current path) cuts cycles."""
    if _feed_leaf(h, x, depth):
        return
    key = id(x)
    if key in seen:
        _put(h, "cycle", type(x).__qualname__)
        return
    seen.add(key)
    try:
        d = depth + 1
        if isinstance(x, types.CodeType):
            _feed_code(h, x, seen, d)
        elif isinstance(x, types.FunctionType):
            _feed_function(h, x, seen, d)
        elif not _feed_container(h, x, seen, d):
            _feed_object(h, x, seen, d)
    finally:
        seen.discard(key)


# --------------------------------------------------------------------------- where claims come from


@dataclass(frozen=True)
class ClaimRef:
    """Where a claim comes from, in a form that pickles: ``source`` is ``bundled:<paper>`` or
    ``file:<absolute path>``; ``digest`` the sha256 of that module's text; ``id`` a claim of that
    module; ``steps`` how the claim was derived from it, in order:
    ``("without", h)``, ``("all_sizes",)``, ``("mutant", mutant_id)``, ``("default_sizes", lo, hi)``."""

    source: str
    digest: str
    id: str
    steps: tuple[tuple[Any, ...], ...] = ()

    def content(self) -> list[Any]:
        """What identifies the claim's content (not the path of the file it was read from)."""
        kind = self.source if self.source.startswith(BUNDLED) else "file"
        return [kind, self.digest, self.id, [list(s) for s in self.steps]]

    def then(self, *step: Any) -> ClaimRef:
        return dataclasses.replace(self, steps=self.steps + (tuple(step),))


_LOCK = threading.RLock()
_MODULES: dict[tuple[str, str], dict[str, Claim]] = {}
_RESOLVED: dict[ClaimRef, Claim] = {}
_FINGERPRINTS: dict[ClaimRef, str] = {}
_MUTANTS: dict[ClaimRef, dict[str, Claim]] = {}  # a claim's mutants by id (generating them can take seconds)
_TWINS: dict[ClaimRef, dict[str, Claim]] = {}  # a claim's declared negative twins by id
_MODULE_OBJECTS: dict[tuple[str, str], types.ModuleType] = {}


def _source_path(source: str) -> Path:
    if source.startswith(BUNDLED + ":"):
        from symcal.library import bundled_dir, paper_path

        paper = source.split(":", 1)[1]
        try:
            return paper_path(paper)
        except InvalidInput:
            return bundled_dir() / f"{paper}.py"  # absent: callers test .exists()
    if source.startswith("file:"):
        return Path(source.split(":", 1)[1])
    raise invalid("source", source, "'bundled:<paper>' or 'file:<path>'")


def _digest(path: Path) -> str:
    from symcal.library import source_digest

    try:
        return source_digest(path)
    except OSError as e:
        raise invalid("--theorems", str(path), "a file this machine can read", f"{type(e).__name__}: {e}") from None


def module_claims(source: str) -> tuple[str, dict[str, Claim]]:
    """(sha256 of the module's text, its claims by id), loaded once per process and text."""
    from symcal.library import _claims_of, load_module

    path = _source_path(source)
    digest = _digest(path)
    with _LOCK:
        hit = _MODULES.get((source, digest))
        if hit is not None:
            return digest, hit
        bundled = source.startswith(BUNDLED + ":")
        module = load_module(path, f"symcal_theorems_{source.split(':', 1)[1]}" if bundled else None)
        claims = _claims_of(module, str(path))
        if not claims:
            raise invalid("--theorems", str(path), "a file that defines claims (a CLAIMS list or Claim values)")
        _MODULE_OBJECTS[(source, digest)] = module
        by_id: dict[str, Claim] = {}
        for c in claims:
            if c.id in by_id:
                raise InvalidClaim(f"claim id {c.id!r} is defined twice in {path}; ids must be unique")
            by_id[c.id] = c
        _MODULES[(source, digest)] = by_id
        return digest, by_id


def _declared_twins(source: str) -> dict[str, list[Any]]:
    """The negative twins a module declares (TWINS / EXTRA_TWINS; symcal.explore.twins), by claim id."""
    try:
        from symcal.explore.twins import twins_of_module
    except ImportError:  # pragma: no cover - a symcal without declared twins
        return {}
    digest, claims = module_claims(source)
    return twins_of_module(_MODULE_OBJECTS[(source, digest)], str(_source_path(source)), list(claims))


def _twins_of(parent: ClaimRef) -> dict[str, Claim]:
    """The twins the module of ``parent`` declares for it, built once, by id."""
    with _LOCK:
        if parent not in _TWINS:
            if parent.steps:  # only a module's own claim has declared twins
                raise InvalidClaim(f"{parent.id} (derived: {parent.steps}) has no declared twin")
            built = (t.make() for t in _declared_twins(parent.source).get(parent.id, ()))
            _TWINS[parent] = {b.id: b for b in built}
        return _TWINS[parent]


def _apply(claim: Claim, step: tuple[Any, ...], parent: ClaimRef) -> Claim:
    what = step[0]
    if what == "twin":
        twins = _twins_of(parent)
        if step[1] not in twins:
            raise InvalidClaim(f"{parent.id} declares no twin {step[1]!r}")
        return twins[step[1]]
    if what == "without":
        return claim.without(step[1])
    if what == "all_sizes":
        from symcal.claims.constructors import all_sizes

        return all_sizes(claim, claim.id + ".all_m")
    if what == "mutant":
        from symcal.explore.mutants import mutants_of

        with _LOCK:
            if parent not in _MUTANTS:
                _MUTANTS[parent] = {mu.claim.id: mu.claim for mu in mutants_of(claim)[0]}
            mutants = _MUTANTS[parent]
        if step[1] not in mutants:
            raise InvalidClaim(f"{claim.id} has no mutant {step[1]!r}")
        return mutants[step[1]]
    if what == "default_sizes":
        if claim.sizes is None:
            raise InvalidClaim(f"{claim.id} has no sizes to narrow to {step[1]}..{step[2]}")
        return dataclasses.replace(claim, sizes=dataclasses.replace(claim.sizes, default=(step[1], step[2])))
    raise InvalidClaim(f"unknown derivation step {step!r}")


def resolve(ref: ClaimRef) -> Claim:
    """Rebuild the claim ``ref`` names (loading its module by path); memoised per process."""
    with _LOCK:
        hit = _RESOLVED.get(ref)
        if hit is not None:
            return hit
        if ref.steps:
            parent = dataclasses.replace(ref, steps=ref.steps[:-1])
            claim = _apply(resolve(parent), ref.steps[-1], parent)
        else:
            digest, claims = module_claims(ref.source)
            if digest != ref.digest:
                raise InvalidClaim(f"{_source_path(ref.source)} changed since the client read it (sha256 "
                                   f"{digest[:12]}..., client {ref.digest[:12]}...): the same file must be "
                                   f"visible to the workers")
            if ref.id not in claims:
                raise InvalidClaim(f"{_source_path(ref.source)} defines no claim {ref.id!r}")
            claim = claims[ref.id]
        _RESOLVED[ref] = claim
        return claim


def _fingerprint_of(ref: ClaimRef) -> str:
    with _LOCK:
        fp = _FINGERPRINTS.get(ref)
        if fp is None:
            fp = _FINGERPRINTS[ref] = claim_fingerprint(resolve(ref))
        return fp


class Sources:
    """The modules a cluster may rebuild claims from: the bundled library (one module per paper)
    and the user's ``--theorems`` files (absolute paths; the workers load them by path, so on a
    cluster they must sit on a file system the workers share)."""

    def __init__(self, theorems: Iterable[str | Path] = (), *, with_library: bool = False) -> None:
        from symcal.library import PAPERS

        files = [f"file:{Path(f).resolve()}" for f in theorems]
        bundled = [f"{BUNDLED}:{p}" for p in PAPERS] if (with_library or not files) else []
        self.sources: tuple[str, ...] = tuple(files + bundled)
        self._twin_index: dict[str, list[ClaimRef]] | None = None

    def twins(self) -> dict[str, list[ClaimRef]]:
        """twin id -> the refs that build it (the declared negative twins of every source's claims)."""
        if self._twin_index is None:
            index: dict[str, list[ClaimRef]] = {}
            for s in self.sources:
                if s.startswith(BUNDLED + ":") and not _source_path(s).exists():
                    continue
                digest, _ = module_claims(s)
                for parent_id in _declared_twins(s):
                    parent = ClaimRef(s, digest, parent_id)
                    for twin_id in _twins_of(parent):
                        index.setdefault(twin_id, []).append(parent.then("twin", twin_id))
            self._twin_index = index
        return self._twin_index

    def lookup(self, cid: str) -> tuple[str, str] | None:
        """(source, digest) of the module that defines claim ``cid``: the bundled module its id
        names first, then the user's files, then the other modules (each read once, when needed)."""
        paper = f"{BUNDLED}:{cid.split('.', 1)[0]}"
        for s in sorted(self.sources, key=lambda s: (s != paper, s.startswith(BUNDLED))):
            if s.startswith(BUNDLED + ":") and not _source_path(s).exists():
                continue
            digest, claims = module_claims(s)
            if cid in claims:
                return s, digest
        return None

    def _ref_for_id(self, cid: str) -> ClaimRef | None:
        found = self.lookup(cid)
        if found is not None:
            return ClaimRef(found[0], found[1], cid)
        if cid.endswith(".all_m"):
            parent = self._ref_for_id(cid[: -len(".all_m")])
            return parent.then("all_sizes") if parent else None
        for marker, step in ((".mutant_", "mutant"), (".without_", "without")):
            i = cid.rfind(marker)
            if i > 0:
                parent = self._ref_for_id(cid[:i])
                if parent is not None:
                    return parent.then(step, cid if step == "mutant" else cid[i + len(marker):])
        return None

    def ref_of(self, claim: Claim) -> tuple[ClaimRef, str]:
        """The query that rebuilds ``claim`` on a worker, and the claim's fingerprint; an error
        when no source defines (or derives) this very claim.  A mutant is not rebuilt here (that
        can take seconds, and the caller has just built it): the worker compares fingerprints."""
        ref = self._ref_for_id(claim.id)
        if ref is None:  # a declared negative twin (selftest): its id says nothing of its claim
            mine = claim_fingerprint(claim)
            sized = ("default_sizes", *claim.sizes.default) if claim.sizes is not None else None
            for cand in self.twins().get(claim.id, ()):
                full = cand.then(*sized) if sized else cand
                if _fingerprint_of(full) == mine:
                    return full, mine
        where = ", ".join(s.split(":", 1)[1] if s.startswith("file:") else s for s in self.sources[:3])
        if ref is None:
            raise invalid("claim", claim.id, f"a claim the cluster can rebuild from its sources ({where}, ...)",
                          "put it in a file and pass it with --theorems (Cluster(..., theorems=[path])), or "
                          "decide it without a cluster")
        if claim.sizes is not None:  # e.g. selftest's smallest default sizes
            ref = ref.then("default_sizes", *claim.sizes.default)
        mine = claim_fingerprint(claim)
        if any(step[0] == "mutant" for step in ref.steps):
            return ref, mine
        try:
            theirs = _fingerprint_of(ref)
        except SymcalError:
            raise
        except Exception as e:
            raise invalid("claim", claim.id, "a claim the cluster can rebuild from its source",
                          f"rebuilding it failed: {type(e).__name__}: {e}") from None
        if mine != theirs:
            raise invalid("claim", claim.id, "the claim its source defines (the cluster rebuilds claims from "
                          f"{ref.source.split(':', 1)[1]} by id)",
                          "this claim was changed in memory under the same id: give it an id of its own in a "
                          "file passed with --theorems, or decide it without a cluster")
        return ref, mine


# --------------------------------------------------------------------------- the cache


def default_cache_dir() -> Path:
    """``$SYMCAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/symcal``, else ``~/.cache/symcal``."""
    env = os.environ.get("SYMCAL_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "symcal"


def decision_key(env: dict[str, str], ref: ClaimRef, fingerprint: str, size: int | None, timeout: float,
                 encoding: str, cross: bool, certify: bool = False) -> str:
    """sha256 of everything a decision's outcome depends on."""
    content = {"format": CACHE_FORMAT, "env": env, "claim": ref.content(), "fingerprint": fingerprint,
               "size": size, "timeout": float(timeout), "encoding": encoding, "cross_check": bool(cross),
               "certify": bool(certify)}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


_TRANSIENT = ("wall-clock backstop", "worker died", "worker failed", "the cluster", "not run")


def cacheable(out: Outcome) -> bool:
    """Whether an outcome depends only on the query: not an error, not a wall-clock backstop or a
    dead worker (which depend on the load), and a second opinion that was not cut short either.
    (An ``unknown`` for an exhausted CPU budget is kept: CPU seconds do not depend on the load.)"""
    if out.status is Status.ERROR or any(t in out.reason for t in _TRANSIENT):
        return False
    cut_short = ("died", "killed", "failed", "time limit")
    cc = out.cross_check
    if cc is not None and any(w in u for w in cut_short for u in cc.unknown):
        return False
    cert = getattr(out, "certificate", None)  # --certify: a certification cut short is not cached either
    return cert is None or not any(w in str(getattr(cert, "reason", "")) for w in cut_short)


class DecisionCache:
    """Outcomes of decisions on disk, one pickle per decision key (written atomically). The
    directory is created private to the user; only ever read a cache you wrote yourself."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory).expanduser()
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            raise invalid("--cache", str(directory), "a directory symcal can create and write", str(e)) from None
        self.hits = 0
        self.writes = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pickle"

    def get(self, key: str) -> tuple[Outcome, float] | None:
        p = self._path(key)
        try:
            with p.open("rb") as fh:
                data = pickle.load(fh)
        except FileNotFoundError:
            return None
        except Exception:  # a truncated or foreign file: decide again (and overwrite it)
            return None
        if not (isinstance(data, dict) and data.get("format") == CACHE_FORMAT and data.get("key") == key
                and isinstance(data.get("outcome"), Outcome)):
            return None
        self.hits += 1
        return data["outcome"], float(data["seconds"])

    def put(self, key: str, out: Outcome, secs: float, about: dict[str, Any]) -> None:
        if not cacheable(out):
            return
        p = self._path(key)
        data = {"format": CACHE_FORMAT, "key": key, "outcome": out, "seconds": secs, "about": about}
        try:
            p.parent.mkdir(exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, p)
            self.writes += 1
        except (OSError, pickle.PicklingError, TypeError, AttributeError):  # a cache that cannot be written
            pass  # costs a re-run next time, nothing else


def from_cache(out: Outcome) -> Outcome:
    return dataclasses.replace(out, backend=out.backend + FROM_CACHE)


# --------------------------------------------------------------------------- the worker side


@dataclass(frozen=True)
class Batch:
    """One Dask task: decisions run one after the other on a worker, each in its own child."""

    items: tuple[tuple[ClaimRef, str, int | None], ...]  # (claim, its fingerprint, size)
    timeout: float
    encoding: str
    cross: bool
    env: dict[str, str]
    certify: bool = False

    def key(self) -> str:
        content = [self.env, [[r.content(), fp, m] for r, fp, m in self.items], float(self.timeout),
                   self.encoding, self.cross, self.certify]
        return "symcal-" + hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:40]


def _allow_children() -> None:
    """Dask starts worker processes as daemons, and multiprocessing forbids a daemon to have
    children; each decision needs its own child (its CPU limit), so this worker stops being one.
    The children are still bounded: each has its CPU budget, RLIMIT_CPU and a wall-clock kill."""
    import multiprocessing as mp

    proc = mp.current_process()
    if proc.daemon:
        try:
            proc.daemon = False
        except AssertionError:  # pragma: no cover - a process object that already started
            proc._config["daemon"] = False  # type: ignore[attr-defined]


def _error(reason: str) -> Outcome:
    return Outcome(Status.ERROR, "", "none", reason=reason)


def run_batch(batch: Batch) -> list[tuple[Outcome, float] | None]:
    """Decide a batch on this worker; one entry per item, in order (None: not run, because an
    earlier size of the same claim in this batch was refuted or ran out of time)."""
    from symcal import runner

    mismatch = _env_mismatch(batch.env, local_environment(batch.cross))
    if mismatch:
        return [(_error(mismatch), 0.0)] * len(batch.items)
    _allow_children()
    results: list[tuple[Outcome, float] | None] = [None] * len(batch.items)
    tasks: list[runner.Task] = []
    slot_of: dict[int, int] = {}
    claim_no: dict[ClaimRef, int] = {}
    numeric = False
    for i, (ref, fp, size) in enumerate(batch.items):
        try:
            claim = resolve(ref)
            if _fingerprint_of(ref) != fp:
                results[i] = (_error(f"the worker on {_host()} rebuilt a different {ref.id} from "
                                     f"{ref.source} (fingerprint differs): its sources or code differ"), 0.0)
                continue
        except Exception as e:
            results[i] = (_error(f"the worker on {_host()} could not rebuild {ref.id}: {type(e).__name__}: {e}"),
                          0.0)
            continue
        numeric = numeric or claim.kind == "numeric"
        t = runner.Task(claim_no.setdefault(ref, len(claim_no)), claim, size)
        slot_of[id(t)] = i
        tasks.append(t)
    if numeric:
        import scipy.optimize  # noqa: F401  (imported once here, inherited by every forked child)
    if batch.cross:
        import cvc5  # noqa: F401
    if batch.certify:
        import scipy.optimize  # noqa: F401,F811  (the certificate producer's LP)

    def on_result(t: Any, out: Outcome, secs: float) -> bool:
        results[slot_of[id(t)]] = (out, secs)
        return not runner.stops_sweep(out)

    runner._execute(tasks, batch.timeout, 1, batch.encoding, on_result, os.name == "posix", cross=batch.cross,
                    certify=batch.certify)
    return results


# --------------------------------------------------------------------------- the client side


class _InOrder:
    """Hands results to ``on_result`` claim by claim in size order, each exactly once, and stops a
    claim at the first result for which ``on_result`` says so (as the local runner does)."""

    def __init__(self, tasks: Sequence[Any], on_result: OnResult) -> None:
        self.tasks = tasks
        self.on_result = on_result
        self.order: dict[int, list[int]] = {}
        for pos, t in enumerate(tasks):
            self.order.setdefault(t.index, []).append(pos)
        self.next = dict.fromkeys(self.order, 0)
        self.ready: dict[int, tuple[Outcome, float]] = {}
        self.stopped: set[int] = set()
        self.delivered: set[int] = set()

    def put(self, pos: int, out: Outcome, secs: float) -> None:
        if pos in self.delivered or pos in self.ready:
            return  # exactly once
        self.ready[pos] = (out, secs)
        ci = self.tasks[pos].index
        positions = self.order[ci]
        while ci not in self.stopped and self.next[ci] < len(positions) and positions[self.next[ci]] in self.ready:
            p = positions[self.next[ci]]
            self.next[ci] += 1
            out, secs = self.ready.pop(p)
            self.delivered.add(p)
            if not self.on_result(self.tasks[p], out, secs):
                self.stopped.add(ci)

    def wanted(self, pos: int) -> bool:
        return self.tasks[pos].index not in self.stopped and pos not in self.delivered

    def missing(self) -> list[int]:
        return [p for ci, ps in self.order.items() if ci not in self.stopped for p in ps[self.next[ci]:]]


class Cluster:
    """A connection to a Dask scheduler (``"tcp://host:8786"``) or a fresh local one (``"local"``:
    2 worker processes, 1 thread each, on 127.0.0.1).  Use as a context manager and pass it to
    :func:`symcal.runner.check_many` (``cluster=``), :func:`symcal.explore.necessity` or
    :func:`symcal.explore.mutants.run_selftest`.

    ``theorems``: the user's claim files the workers may load (by path); the bundled library
    always, unless files are given without ``with_library``.  ``cache``: a directory, ``True``
    for :func:`default_cache_dir`, or ``None``/``False`` for no cache.  ``batch``: decisions per
    Dask task (default: about eight tasks per worker thread, at most :data:`MAX_BATCH`)."""

    def __init__(self, address: str = "local", *, theorems: Iterable[str | Path] = (), with_library: bool = False,
                 cache: str | Path | bool | None = True, batch: int | None = None,
                 connect_timeout: float = 20.0) -> None:
        require_dask()
        if not isinstance(address, str) or not address.strip():
            raise invalid("--cluster", address, "a scheduler address such as tcp://host:8786, or 'local'")
        if batch is not None and not (isinstance(batch, int) and batch >= 1):
            raise invalid("batch", batch, "an integer >= 1")
        self.address = address.strip()
        self.sources = Sources(theorems, with_library=with_library)
        self.cache: DecisionCache | None = None
        if cache is True:
            self.cache = DecisionCache(default_cache_dir())
        elif cache is not None and cache is not False:
            self.cache = DecisionCache(cache)
        self.batch = batch
        self.local: Any = None
        self.client: Any = None
        self.last_run: dict[str, Any] = {}
        self.totals = {"decisions": 0, "from_cache": 0, "submitted": 0, "tasks": 0, "failed_tasks": 0,
                       "cancelled_tasks": 0}
        self.connect_timeout = connect_timeout
        self.notify: Callable[[str], None] | None = None  # e.g. print to stderr: "no worker connected yet"

    def connect(self) -> Any:
        """The Dask client, connected on first need (a run answered from the cache needs none)."""
        if self.client is not None:
            return self.client
        import dask
        from distributed import Client

        connect_timeout = self.connect_timeout
        try:
            if self.address == "local":
                from distributed import LocalCluster

                with dask.config.set({"distributed.worker.daemon": False}):
                    self.local = LocalCluster(n_workers=LOCAL_WORKERS, threads_per_worker=1, processes=True,
                                              host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                              silence_logs=logging.ERROR)
                self.client = Client(self.local)
            else:
                self.client = Client(self.address, timeout=f"{connect_timeout:g}s")
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            raise ClusterUnavailable(
                f"--cluster={self.address!r}: expected a running Dask scheduler (tcp://host:8786) or 'local'; "
                f"could not connect: {type(e).__name__}: {e}") from None
        if self.notify is not None and self.workers() == 0:
            self.notify(f"no Dask worker is connected to {self.address} yet; the decisions wait for one")
        return self.client

    def workers(self) -> int:
        """Worker threads connected now."""
        return sum(self.client.nthreads().values()) if self.client is not None else 0

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.local is not None:
            self.local.close()
            self.local = None

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = f"{self.workers()} worker threads" if self.client is not None else "not connected yet"
        return f"Cluster({self.address!r}, {state})"

    # ---------------------------------------------------------------- one run

    def _batch_size(self, n: int) -> int:
        if self.batch is not None:
            return self.batch
        threads = max(self.workers(), LOCAL_WORKERS)
        return max(1, min(MAX_BATCH, math.ceil(n / (TASKS_PER_THREAD * threads))))

    def _from_cache(self, tasks: Sequence[Any], keys: list[str]) -> tuple[list[int], list[tuple[int, Outcome, float]]]:
        """Decisions from the cache, and the positions still to decide; a claim's sizes after a cached
        stop are not needed at all."""
        from symcal.runner import stops_sweep

        todo: list[int] = []
        cached: list[tuple[int, Outcome, float]] = []
        stopped: set[int] = set()
        for pos, t in enumerate(tasks):
            if t.index in stopped:
                continue
            hit = self.cache.get(keys[pos]) if self.cache is not None else None
            if hit is None:
                todo.append(pos)
                continue
            cached.append((pos, from_cache(hit[0]), hit[1]))
            if stops_sweep(hit[0]):
                stopped.add(t.index)
        return todo, cached

    def _chunk_results(self, f: Any, chunk: list[int]) -> tuple[list[tuple[Outcome, float] | None], bool]:
        """The results of one finished Dask task, and whether it was lost for good (then every
        decision in it is an error, not a gap)."""
        try:
            results = f.result()
            if len(results) != len(chunk):  # pragma: no cover - a foreign task under our key
                raise RuntimeError(f"{len(results)} results for {len(chunk)} decisions")
        except Exception as e:  # lost for good (KilledWorker, cancelled, ...): errors, not gaps
            why = f"the cluster could not run this decision: {type(e).__name__}: {e}"
            return [(_error(why), 0.0)] * len(chunk), True
        return results, False

    def _collect(self, client: Any, futures: dict[Any, list[int]], tasks: Sequence[Any], keys: list[str],
                 deliver: _InOrder, timeout: float) -> tuple[int, set[Any]]:
        """Deliver (and cache) the results of the Dask tasks as they finish, cancelling the tasks a
        stopped sweep no longer needs: how many tasks were lost, and the ones cancelled."""
        from distributed import as_completed

        failed = 0
        skipped: set[Any] = set()  # tasks cancelled because no decision in them is wanted any more
        stops = len(deliver.stopped)
        try:
            for f in as_completed(list(futures)) if futures else ():
                chunk = futures[f]
                if f in skipped:
                    f.release()
                    continue
                results, lost = self._chunk_results(f, chunk)
                failed += lost
                for pos, res in zip(chunk, results, strict=True):
                    if res is None:
                        continue
                    out, secs = res
                    if self.cache is not None:
                        t = tasks[pos]
                        self.cache.put(keys[pos], out, secs, {"claim": t.claim.id, "size": t.size,
                                                               "timeout": timeout, "when": time.time()})
                    deliver.put(pos, out, secs)
                f.release()
                if len(deliver.stopped) > stops:  # a sweep stopped: drop its tasks not yet finished
                    stops = len(deliver.stopped)
                    idle = [g for g, ch in futures.items() if not g.done() and g not in skipped
                            and not any(deliver.wanted(p) for p in ch)]
                    if idle:
                        client.cancel(idle)
                        skipped.update(idle)
        except BaseException:
            if futures:
                client.cancel(list(futures))
            raise
        return failed, skipped

    def execute(self, tasks: Sequence[Any], *, timeout: float, encoding: str, cross: bool,
                on_result: OnResult, certify: bool = False) -> None:
        """Decide runner tasks on the cluster; results reach ``on_result`` as from the local runner."""
        started = time.perf_counter()
        env = local_environment(cross)
        refs: dict[int, tuple[ClaimRef, str]] = {}
        for t in tasks:
            if t.index not in refs:
                refs[t.index] = self.sources.ref_of(t.claim)
        keys = [decision_key(env, *refs[t.index], t.size, timeout, encoding, cross, certify) for t in tasks]
        deliver = _InOrder(tasks, on_result)
        todo, cached = self._from_cache(tasks, keys)
        client: Any = self.connect() if todo else None
        b = self._batch_size(len(todo))
        batches: list[tuple[Batch, list[int]]] = []
        for k in range(0, len(todo), b):
            chunk = todo[k:k + b]
            batches.append((Batch(tuple((*refs[tasks[p].index], tasks[p].size) for p in chunk), float(timeout),
                                  encoding, bool(cross), env, bool(certify)), chunk))
        futures: dict[Any, list[int]] = {}  # one entry per submitted task (Future equality is identity)
        for batch, chunk in batches:
            futures[client.submit(run_batch, batch, key=batch.key(), retries=RETRIES, pure=False)] = chunk
        for pos, out, secs in cached:
            deliver.put(pos, out, secs)
        failed, skipped = self._collect(client, futures, tasks, keys, deliver, timeout)
        for pos in deliver.missing():  # pragma: no cover - a worker skipped a size the client needs
            deliver.put(pos, _error("the cluster returned no result for this decision"), 0.0)
        self.last_run = {"decisions": len(tasks), "from_cache": len(cached), "submitted": len(todo),
                         "tasks": len(batches), "failed_tasks": failed, "cancelled_tasks": len(skipped),
                         "seconds": round(time.perf_counter() - started, 3)}
        for what in self.totals:
            self.totals[what] += self.last_run[what]

    def summary(self) -> str:
        """One line: what the runs on this cluster cost."""
        t = self.totals
        where = f"cache {self.cache.directory}" if self.cache is not None else "no cache"
        lost = f", {t['failed_tasks']} lost for good (their decisions are errors)" if t["failed_tasks"] else ""
        dropped = f" ({t['cancelled_tasks']} dropped after a sweep stopped)" if t["cancelled_tasks"] else ""
        return (f"{t['decisions']} decisions: {t['from_cache']} from the cache, {t['submitted']} sent in "
                f"{t['tasks']} Dask tasks{dropped}{lost} ({where})")


def _open(address: str) -> Cluster:
    """A cluster for one :func:`symcal.runner.check_many` run (``cluster=ADDRESS``)."""
    return Cluster(address)


runner.cluster_opener = _open
