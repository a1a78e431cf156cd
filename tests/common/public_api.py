"""The machinery of the public-API error tests: call every public callable with its good call, its
curated bad calls and generic bad values per parameter, each in a forked child with a time limit, and
check that every refusal is a one-line :class:`~symcal.errors.SymcalError` naming the parameter.

Used by ``tests/unit/test_public_api_errors.py`` (``symcal`` and ``symcal.testing``) and
``tests/unit/test_public_api_errors_subpackages.py`` (``symcal.ranking``, ``symcal.calibration``,
``symcal.exact``, ``symcal.explore``).
"""

from __future__ import annotations

import inspect
import itertools
import multiprocessing as mp
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from symcal import SymcalError

HUGE = 10**100_000

Call = tuple[tuple[Any, ...], dict[str, Any]] | Callable[[], tuple[tuple[Any, ...], dict[str, Any]]]
Bad = list[tuple[str, tuple[Any, ...], dict[str, Any]]]


def generic_bad_values() -> list[tuple[str, Callable[[], Any]]]:
    """Values no parameter of symcal's front door should choke on (built fresh for each call)."""
    return [
        ("None", lambda: None),
        ("object()", object),
        ("''", lambda: ""),
        ("nan", lambda: float("nan")),
        ("inf", lambda: float("inf")),
        ("-1", lambda: -1),
        ("10**100000", lambda: HUGE),
        ("itertools.count()", itertools.count),
    ]


@dataclass
class ApiTable:
    """The public callables of some modules and how to call them.

    ``public``: name -> object; ``good``: name -> a call that must be accepted (or a function building
    it, for arguments that take a while to make); ``bad``: name ->
    [(parameter the message must name, positional, keyword)] that must be refused; ``fuzzed``: name ->
    the parameters that get the generic bad values (default: all but ``self``/``cluster``/``**kwargs``);
    ``known``: call label -> why it may raise a plain exception; ``values``: the generic bad values;
    ``skip_defaults``: leave out None for a parameter whose default is None (a quicker run).
    """

    public: dict[str, Any]
    good: dict[str, Call]
    bad: dict[str, Bad]
    fuzzed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    known: dict[str, str] = field(default_factory=dict)
    values: Callable[[], list[tuple[str, Callable[[], Any]]]] = generic_bad_values
    per_call_seconds: float = 20.0
    skipped_params: tuple[str, ...] = ("self", "cluster")
    skip_defaults: bool = False  # leave out a generic value equal to the parameter's default (None for None)

    def calls(self, name: str) -> list[tuple[str, str, Callable[[], Any]]]:
        """(kind, label, call) for ``name``: 'good', then 'bad:<param>' (must be refused), then 'fuzz'."""
        fn = self.public[name]
        good = self.good[name]
        args, kwargs = good() if callable(good) else good  # a callable builds the good call when it is needed
        out: list[tuple[str, str, Callable[[], Any]]] = [("good", f"{name}(good)", lambda: fn(*args, **kwargs))]
        for param, a, k in self.bad.get(name, []):
            out.append(("bad:" + param, f"{name}(bad {param})", lambda a=a, k=k: fn(*a, **k)))
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
            params = []
        positional = [q.name for q in params if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)]
        for p in params:
            if p.kind is p.VAR_KEYWORD or p.name in self.skipped_params:
                continue
            if p.name not in self.fuzzed.get(name, (p.name,)):
                continue
            for label, make in self.values():
                if self.skip_defaults and p.default is None and label == "None":
                    continue  # what the good call already does
                def call(p: inspect.Parameter = p, make: Callable[[], Any] = make) -> Any:
                    a, k = list(args), dict(kwargs)
                    if p.kind is p.VAR_POSITIONAL:
                        return fn(*a, make(), **k)
                    if p.name in positional and positional.index(p.name) < len(a):
                        a[positional.index(p.name)] = make()
                    else:
                        k[p.name] = make()
                    return fn(*a, **k)

                out.append(("fuzz", f"{name}({p.name}={label})", call))
        return out

    def _child(self, conn: Any, name: str) -> None:
        for _kind, label, call in self.calls(name):
            conn.send(("start", label))
            try:
                call()
                conn.send(("accepted", ""))
            except SymcalError as e:
                conn.send(("symcal", str(e)))
            except BaseException as e:  # noqa: BLE001 - what the test is looking for
                tb = traceback.extract_tb(e.__traceback__)[-1]
                where = f"{tb.filename.rsplit('/', 1)[-1]}:{tb.lineno}"
                conn.send(("raw", f"{type(e).__name__}: {str(e)[:200]} at {where}"))
        conn.send(("done", ""))
        conn.close()

    def run(self, name: str) -> list[tuple[str, str, str, str]]:
        """(kind, label, outcome, message) of every call of ``name``, each in a child under a time limit."""
        kinds = {label: kind for kind, label, _ in self.calls(name)}
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        p = ctx.Process(target=self._child, args=(child, name), daemon=False)
        p.start()
        child.close()
        results: list[tuple[str, str, str, str]] = []
        label = "(before the first call)"
        try:
            while True:
                if not parent.poll(self.per_call_seconds):
                    results.append((kinds.get(label, "fuzz"), label, "hang",
                                    f"no answer within {self.per_call_seconds:g} s"))
                    break
                try:
                    what, text = parent.recv()
                except EOFError:
                    results.append((kinds.get(label, "fuzz"), label, "died", f"exit code {p.exitcode}"))
                    break
                if what == "done":
                    break
                if what == "start":
                    label = text
                    continue
                results.append((kinds[label], label, what, text))
        finally:
            p.kill()
            p.join(5)
        return results

    def check(self, name: str) -> None:
        """Assert: no raw exception, hang or crash; the good call accepted; each bad call refused by a
        one-line SymcalError naming its parameter (or an item of it)."""
        results = self.run(name)
        raw = [f"{label}: {outcome} {msg}" for kind, label, outcome, msg in results
               if outcome in ("raw", "hang", "died") and not (outcome == "raw" and label in self.known)]
        assert not raw, f"{name}: not a SymcalError:\n  " + "\n  ".join(raw)
        by_label = {label: (kind, outcome, msg) for kind, label, outcome, msg in results}
        good = by_label[f"{name}(good)"]
        assert good[1] == "accepted", f"{name}: its good call is refused: {good[2]}"
        for kind, label, outcome, msg in results:
            if not kind.startswith("bad:"):
                continue
            param = kind.split(":", 1)[1]
            assert outcome == "symcal", f"{label}: {outcome}, expected a refusal naming {param}"
            names_it = f"{param}=" in msg or f"{param}[" in msg  # the parameter, or an item of it
            assert names_it and "expected" in msg and "\n" not in msg, f"{label}: {msg!r}"

    def check_coverage(self, not_called: dict[str, str]) -> None:
        """Assert every public name has a good call or a reason it is not called, and nothing else does."""
        public = set(self.public)
        listed = set(self.good) | set(not_called)
        assert public == listed, (
            f"public names without a GOOD call (or a NOT_CALLED reason): {sorted(public - listed)}; "
            f"entries for names that are not public: {sorted(listed - public)}")
        assert set(self.bad) <= set(self.good)
        assert not set(self.good) & set(not_called)
