"""S-expressions: the one concrete syntax the kernel reads.

SMT-LIB2 scripts (the exact text kept in a verdict's evidence) and the terms inside certificates are
both read by :func:`parse`.  Atoms become:

* ``Fraction`` for a numeral (``3``, ``2.50``) or a rational ``p/q`` (certificates use it);
* ``str`` for a symbol or keyword (``|x y|`` is the symbol ``x y``; a quoted symbol is never read as
  a number);
* ``Quoted(text)`` for a string literal (only ``set-info`` uses them).

Lists become Python lists.  The parser is iterative, so deep nesting (z3 writes long chains of
``let``) cannot exhaust Python's stack.
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
# white space, a comment, a parenthesis, a |quoted symbol|, a "string" (SMT-LIB escapes " as ""), a bare
# token, or else a lone | or " (one never closed)
_TOKEN = re.compile(r'[ \t\r\n]+|;[^\n]*|[()]|\|[^|]*\||"(?:[^"]|"")*"|[^ \t\r\n();|"]+|.')


def number(token: str) -> Fraction | None:
    """The exact value of a numeral token, or None when it is not one."""
    if _NUMBER.fullmatch(token) is None:
        return None
    try:
        return Fraction(token)
    except (ValueError, ZeroDivisionError):
        return None


def parse(text: str) -> list[object]:
    """Every top-level s-expression of ``text``."""
    tokens = _TOKEN.findall(text)
    for tok in tokens:
        if tok in ("|", '"'):
            raise SyntaxProblem("unterminated |quoted symbol|" if tok == "|" else "unterminated string literal")
    stack: list[list[object]] = [[]]
    for tok in tokens:
        if tok[0] == '"':  # a string literal, whatever its text (even "(")
            stack[-1].append(Quoted(tok[1:-1].replace('""', '"')))
        elif tok == "(":
            stack.append([])
        elif tok == ")":
            if len(stack) == 1:
                raise SyntaxProblem("unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        elif tok[0] == "|":
            stack[-1].append(tok[1:-1])
        elif tok[0] not in " \t\r\n;":
            v = number(tok)
            stack[-1].append(tok if v is None else v)
    if len(stack) != 1:
        raise SyntaxProblem("unbalanced '(': the text ends inside a list")
    return stack[0]
