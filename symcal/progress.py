"""A progress bar for long work (sweeps, ``check`` over many claims, ``selftest``), drawn by tqdm.

:func:`symcal.runner.check_many` reports each finished decision as one line,
``"[done/total] claim-id m=5: proved (0.12 s)"``.  :class:`ProgressBar` turns those lines into a
bar with the counts, the rate and an ETA; the text after the counts becomes the bar's postfix.
When the counts start again (``done`` does not grow: a second phase such as ``selftest``'s
mutants after its originals) a fresh bar starts.

:func:`progress_bar` returns ``None`` -- no bar at all -- unless both stdout and stderr are
terminals and the output is not ``--json``, so piped or machine-read output never carries
control characters.  The bar is drawn on stderr; tqdm is a dependency of symcal (when it is
missing all the same, there is simply no bar).  Where there is no bar, :class:`PlainProgress`
prints one plain line to stderr every few seconds (``symcal: deciding: 3/40 done after 25 s;
last: ...``) -- a long ``symcal check`` in a log or a pipe is never silent for minutes -- and
nothing at all for work that ends sooner.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from typing import Any, TextIO

__all__ = ["PlainProgress", "ProgressBar", "plain_progress", "progress_bar", "PLAIN_SECONDS"]

PLAIN_SECONDS = 5.0  # a plain progress line at most this often, the first one after this long

_COUNTS = re.compile(r"\s*\[(\d+)/(\d+)\]\s*(.*)", re.S)
POSTFIX_WIDTH = 48


class ProgressBar:
    """A callable for ``check_many(progress=...)``: each line advances the bar."""

    def __init__(self, desc: str = "deciding", *, file: TextIO | None = None, unit: str = "decision") -> None:
        from tqdm import tqdm  # a dependency; progress_bar() checks that it imports

        self._tqdm = tqdm
        self.desc = desc
        self.unit = unit
        self.file = file if file is not None else sys.stderr
        self._bar: Any = None

    def _new(self, total: int) -> None:
        self.close()
        width = _columns(self.file)  # a terminal that reports no width gets 100 columns
        self._bar = self._tqdm(total=total, desc=self.desc, unit=self.unit, file=self.file, leave=False,
                               dynamic_ncols=width > 0, ncols=None if width > 0 else 100,
                               nrows=None if width > 0 else 20, smoothing=0.1,
                               bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                                          "[{elapsed}<{remaining}]{postfix}")

    def __call__(self, line: str) -> None:
        m = _COUNTS.fullmatch(line)
        if m is None:  # a line without counts: show it in place of the last result
            if self._bar is not None:
                self._bar.set_postfix_str(line[:POSTFIX_WIDTH], refresh=True)
            return
        done, total, text = int(m.group(1)), int(m.group(2)), m.group(3).strip()
        if self._bar is None or total != self._bar.total or done <= self._bar.n:
            self._new(total)
        self._bar.set_postfix_str(text[:POSTFIX_WIDTH], refresh=False)
        self._bar.update(done - self._bar.n)

    @property
    def count(self) -> tuple[int, int] | None:
        """(done, total) of the current bar, or None before the first line."""
        return None if self._bar is None else (int(self._bar.n), int(self._bar.total))

    def text(self) -> str:
        """The bar's current line (what the terminal shows at its next refresh)."""
        return "" if self._bar is None else str(self._bar)

    def close(self) -> None:
        """Erase the bar (the caller prints its table next)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class PlainProgress:
    """A callable for ``check_many(progress=...)`` where no bar can be drawn: it keeps the last
    line and a background thread prints, every ``interval`` seconds, one plain line to ``file``
    (default stderr) with the counts, the time so far and the last result -- also while one long
    decision runs and no line comes.  :meth:`close` stops it (no line is printed before the first
    ``interval`` has passed)."""

    def __init__(self, desc: str = "deciding", *, file: TextIO | None = None,
                 interval: float | None = None) -> None:
        self.desc = desc
        self.file = file if file is not None else sys.stderr
        self.interval = interval if interval is not None else PLAIN_SECONDS
        self.started = time.monotonic()
        self._last: tuple[int, int] | None = None
        self._text = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="symcal-progress", daemon=True)
        self._thread.start()

    def __call__(self, line: str) -> None:
        m = _COUNTS.fullmatch(line)
        with self._lock:
            if m is None:
                self._text = line.strip()
                return
            self._last = (int(m.group(1)), int(m.group(2)))
            self._text = m.group(3).strip()

    @property
    def count(self) -> tuple[int, int] | None:
        """(done, total) of the last line with counts, or None before the first."""
        return self._last

    def text(self) -> str:
        """The line printed at the next tick."""
        with self._lock:
            counts = f"{self._last[0]}/{self._last[1]} done" if self._last else "started"
            last = f"; last: {self._text[:POSTFIX_WIDTH]}" if self._text else ""
        secs = time.monotonic() - self.started
        took = f"{secs:.0f} s" if secs < 120 else f"{int(secs // 60)} min {int(secs % 60)} s"
        return f"symcal: {self.desc}: {counts} after {took}{last}"

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                print(self.text(), file=self.file, flush=True)
            except (OSError, ValueError):  # stderr closed or replaced: stay silent
                return

    def close(self) -> None:
        """Stop printing (the caller prints its table next)."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)


def plain_progress(desc: str = "deciding", *, json: bool = False, stdout: TextIO | None = None,
                   stderr: TextIO | None = None, interval: float | None = None) -> PlainProgress | None:
    """Plain lines on stderr (every ``interval`` seconds, default :data:`PLAIN_SECONDS`) exactly when
    :func:`progress_bar` draws no bar; else None."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    if not json and _isatty(out) and _isatty(err):
        return None
    return PlainProgress(desc, file=err, interval=interval)


def progress_bar(desc: str = "deciding", *, json: bool = False, stdout: TextIO | None = None,
                 stderr: TextIO | None = None) -> ProgressBar | None:
    """A bar on stderr when both stdout and stderr are terminals and ``json`` is false; else None."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    if json or not (_isatty(out) and _isatty(err)):
        return None
    try:
        import tqdm  # noqa: F401
    except ImportError:  # pragma: no cover - tqdm is a dependency; without it, no bar
        return None
    return ProgressBar(desc, file=err)


def _columns(stream: Any) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False
