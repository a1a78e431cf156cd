"""The README's Python examples run, and print what the README says they print.

Every fenced ```python block of README.md runs in a fresh interpreter (the repository first on
the path, the repository as the working directory) under a CPU limit.  A block is skipped when
the line before its fence is ``<!-- no-run: why -->``; ``<!-- slow -->`` marks it ``slow``;
``<!-- needs: module -->`` skips it when that module is not installed.

What a block promises is compared where the README shows it: a ``print(...)`` line's trailing
comment ``# output``, or the comment lines right after a ``print`` line without one, is the line
that ``print`` writes.  The comparison allows what the README adds in words: ``...`` stands for
omitted text, and the output may be followed in the comment by ``(an annotation)`` or ``: words``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CPU_SECONDS = 60
WALL_SECONDS = 120

_MARK = re.compile(r"<!--\s*(no-run|slow|needs)\s*(?::\s*(.*?))?\s*-->")


@dataclass
class Block:
    line: int  # the line of the opening fence
    code: str
    marks: dict[str, str] = field(default_factory=dict)
    expected: list[tuple[int, str | None]] = field(default_factory=list)  # (line, text) per print; None: unknown


def blocks(text: str) -> list[Block]:
    """The ```python blocks of ``text`` with their marks and the outputs they promise."""
    lines = text.splitlines()
    out: list[Block] = []
    k = 0
    while k < len(lines):
        if lines[k].strip() == "```python":
            start = k
            body: list[str] = []
            k += 1
            while k < len(lines) and lines[k].strip() != "```":
                body.append(lines[k])
                k += 1
            marks: dict[str, str] = {}
            j = start - 1
            while j >= 0 and (m := _MARK.fullmatch(lines[j].strip())):
                marks[m.group(1)] = m.group(2) or ""
                j -= 1
            out.append(Block(start + 1, "\n".join(body) + "\n", marks, promised(body, start + 2)))
        k += 1
    return out


def promised(body: list[str], first: int) -> list[tuple[int, str | None]]:
    """One entry per top-level ``print(`` line: the output its comment promises, or None."""
    out: list[tuple[int, str | None]] = []
    for i, line in enumerate(body):
        if not line.startswith("print("):
            continue
        code, sep, comment = line.partition("  #")
        text = comment.strip() if sep else None
        if text is None:  # the comment lines right below, if any
            below = []
            for nxt in body[i + 1:]:
                if not nxt.startswith("# "):
                    break
                below.append(nxt[2:].strip())
            text = " ".join(below) if below else None
        out.append((first + i, text))
    return out


def matches(printed: str, promised_text: str) -> bool:
    """Whether ``printed`` is what the README's comment ``promised_text`` shows (see the module text)."""
    p, e = " ".join(printed.split()), " ".join(promised_text.split())
    if e.startswith("e.g."):
        return True
    if p == e or any(e.startswith(p + tail) for tail in (" (", ":", ";")):
        return True
    if "..." in e:
        pos = 0
        for frag in (f.strip(" ,") for f in e.split("...")):
            at = p.find(frag, pos)
            if frag and at < 0:
                return False
            pos = at + len(frag) if frag else pos
        return True
    return False


def _limit_cpu() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))


def run_block(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}".rstrip(os.pathsep),
           "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=WALL_SECONDS, preexec_fn=_limit_cpu if os.name == "posix" else None)


def _params() -> list[object]:
    out = []
    for b in blocks(README.read_text(encoding="utf-8")):
        marks = []
        if "no-run" in b.marks:
            marks.append(pytest.mark.skip(reason=f"README marks it no-run: {b.marks['no-run']}"))
        if "slow" in b.marks:
            marks.append(pytest.mark.slow)
        needs = b.marks.get("needs")
        if needs and importlib.util.find_spec(needs) is None:
            marks.append(pytest.mark.skip(reason=f"needs {needs}"))
        out.append(pytest.param(b, id=f"README.md:{b.line}", marks=marks))
    return out


@pytest.mark.parametrize("block", _params())
def test_a_readme_example_runs_and_prints_what_the_readme_shows(block: Block):
    r = run_block(block.code)
    assert r.returncode == 0, f"README.md:{block.line} failed:\n{r.stderr[-2000:]}"
    printed = r.stdout.splitlines()
    assert len(printed) >= len(block.expected), f"README.md:{block.line}: {len(printed)} lines printed: {printed}"
    for (line, text), got in zip(block.expected, printed, strict=False):
        if text is not None:
            assert matches(got, text), f"README.md:{line} promises {text!r}; it prints {got!r}"


def test_the_readme_has_examples_and_every_one_is_run_or_marked():
    found = blocks(README.read_text(encoding="utf-8"))
    assert len(found) >= 5
    assert all(set(b.marks) <= {"no-run", "slow", "needs"} for b in found)
    assert sum(1 for b in found for _, t in b.expected if t is not None) >= 10  # outputs actually compared


def test_the_comparison_allows_words_but_not_other_output():
    assert matches("43/96", "43/96 (exact)")
    assert matches("(2, 1, 3)", "(2, 1, 3): numeric; object 2 first")
    assert matches("R(k=1, a=2, risk=3)", "R(k=1, ..., risk=3)")
    # its twins: another value, or a fragment missing, is a mismatch
    assert not matches("43/97", "43/96 (exact)")
    assert not matches("R(k=1, a=2, risk=4)", "R(k=1, ..., risk=3)")
    assert not matches("True", "False")


def test_a_failing_block_is_noticed():
    # the negative twin of the examples: a block that raises or prints otherwise is caught
    assert run_block("raise SystemExit(3)\n").returncode == 3
    b = blocks("```python\nprint(1 + 1)   # 3\n```\n")[0]
    assert b.expected == [(2, "3")] and not matches(run_block(b.code).stdout.strip(), "3")
