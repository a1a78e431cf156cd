"""S-expressions: the one concrete syntax the kernel reads.

SMT-LIB2 scripts (the exact text kept in a verdict's evidence) and the terms inside
certificates are both read by :func:`parse`.  Atoms become:

* ``Fraction`` for a numeral (``3``, ``2.50``) or a rational ``p/q`` (certificates use it);
* ``str`` for a symbol or keyword (``|x y|`` is the symbol ``x y``; a quoted symbol is never
  read as a number);
* ``Quoted(text)`` for a string literal (only ``set-info`` uses them).

Lists become Python lists.  The parser is iterative, so deep nesting (z3 writes long
chains of ``let``) cannot exhaust Python's stack.
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["parse", "Quoted", "SyntaxProblem", "number"]


class SyntaxProblem(ValueError):
    """The text is not a well-formed s-expression."""


class Quoted(str):
    """A string literal."""


_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?|-?[0-9]+/[0-9]+|-[0-9]+(\.[0-9]+)?")


def number(token: str) -> Fraction | None:
    """The exact value of a numeral token, or None when it is not one."""
    if _NUMBER.fullmatch(token) is None:
        return None
    try:
        return Fraction(token)
    except (ValueError, ZeroDivisionError):
        return None


def _tokens(text: str) -> list[object]:
    out: list[object] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif c in "()":
            out.append(c)
            i += 1
        elif c == "|":
            j = text.find("|", i + 1)
            if j < 0:
                raise SyntaxProblem("unterminated |quoted symbol|")
            out.append(("sym", text[i + 1:j]))
            i = j + 1
        elif c == '"':
            j = i + 1
            while True:
                j = text.find('"', j)
                if j < 0:
                    raise SyntaxProblem("unterminated string literal")
                if text.startswith('""', j):  # SMT-LIB escapes " as ""
                    j += 2
                    continue
                break
            out.append(Quoted(text[i + 1:j].replace('""', '"')))
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in ' \t\r\n();|"':
                j += 1
            out.append(text[i:j])
            i = j
    return out


def parse(text: str) -> list[object]:
    """Every top-level s-expression of ``text``."""
    stack: list[list[object]] = [[]]
    for tok in _tokens(text):
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if len(stack) == 1:
                raise SyntaxProblem("unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        elif isinstance(tok, tuple):
            stack[-1].append(tok[1])
        elif isinstance(tok, Quoted):
            stack[-1].append(tok)
        else:
            assert isinstance(tok, str)
            v = number(tok)
            stack[-1].append(v if v is not None else tok)
    if len(stack) != 1:
        raise SyntaxProblem("unbalanced '(': the text ends inside a list")
    return stack[0]
