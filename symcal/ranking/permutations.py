"""Permutations of objects ``1..n`` with the conventions of Xia, Liu & Li (2009) made explicit.

Xia et al. (2009), Section 2 and Section 4.1: a permutation ``y`` is read as an *ordering*,
``y(i)`` is the object ranked at position ``i`` (positions and objects both 1-based), and
``y^{-1}(j)`` is the position of object ``j``.  :class:`Permutation` stores the ordering and
offers both views:

* ``y.order``      -- ``(y(1), ..., y(n))``, the object at each position (best first);
* ``y.positions``  -- ``(y^{-1}(1), ..., y^{-1}(n))``, the position of each object.

``Permutation.from_order`` and ``Permutation.from_positions`` build one from either view;
a sequence with a repeat, a missing object or an out-of-range entry is refused with a clear
error (``order=(1, 1, 3): object 1 appears twice``).

``y.swap_objects(i, j)`` is the paper's ``sigma_{i,j}^{-1} y``: the positions of objects ``i``
and ``j`` are exchanged, the other objects stay where they are.  ``swap_scores(g, i, j)``
is ``sigma_{i,j}^{-1} g`` for a score vector (entries ``g_i`` and ``g_j`` exchanged).
``y.ranks_before(i, j)`` is membership of ``Y_{i,j} = {y : y^{-1}(i) < y^{-1}(j)}``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from symcal.errors import InvalidInput, invalid

__all__ = [
    "Permutation",
    "as_permutation",
    "check_n",
    "check_object",
    "permutations",
    "swap_scores",
    "order_of_scores",
    "MAX_N",
]

# n! grows fast: exact enumeration over S_n is refused beyond this size
MAX_N = 9


def check_n(n: Any, param: str = "n", *, at_least: int = 1, at_most: int = MAX_N) -> int:
    """``n`` as an int in ``[at_least, at_most]`` (bools and floats refused)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise invalid(param, n, f"an integer number of objects between {at_least} and {at_most}")
    if n < at_least or n > at_most:
        raise invalid(param, n, f"an integer number of objects between {at_least} and {at_most}",
                      "enumeration over all n! permutations is not practical beyond n = 9"
                      if n > at_most else None)
    return n


def check_object(x: Any, n: int, param: str) -> int:
    """An object label in ``1..n``."""
    if isinstance(x, bool) or not isinstance(x, int):
        raise invalid(param, x, f"an object label, an integer in 1..{n}")
    if not 1 <= x <= n:
        raise invalid(param, x, f"an object label in 1..{n}")
    return x


def _parse_sequence(seq: Any, param: str) -> tuple[int, ...]:
    if isinstance(seq, str):
        text = seq.strip().strip("()[]")
        parts = [s for s in text.replace(",", " ").split()] if ("," in text or " " in text) else list(text)
        try:
            return tuple(int(s) for s in parts)
        except ValueError:
            raise invalid(param, seq, "a permutation such as (3, 1, 2) or '312'") from None
    if isinstance(seq, Sequence):
        out = []
        for x in seq:
            if isinstance(x, bool) or not isinstance(x, int):
                raise invalid(param, tuple(seq), "a sequence of integer object labels")
            out.append(int(x))
        return tuple(out)
    raise invalid(param, seq, "a sequence of integer object labels such as (3, 1, 2)")


def _check_bijection(values: tuple[int, ...], param: str, what: str) -> None:
    n = len(values)
    if n == 0:
        raise invalid(param, values, "a non-empty permutation of 1..n")
    check_n(n, f"len({param})")
    seen: dict[int, int] = {}
    for idx, v in enumerate(values, start=1):
        if not 1 <= v <= n:
            raise invalid(param, values, f"a permutation of 1..{n}: entry {v} at index {idx} is out of range")
        if v in seen:
            raise invalid(param, values,
                          f"a permutation of 1..{n}: {what} {v} appears twice (indices {seen[v]} and {idx})")
        seen[v] = idx


@dataclass(frozen=True, order=True)
class Permutation:
    """An ordering of objects ``1..n``: ``order[t - 1] = y(t)`` is the object at position t.

    Build with :meth:`from_order` (the paper's ``y``) or :meth:`from_positions`
    (``y^{-1}``); direct construction validates too.
    """

    order: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", _parse_sequence(self.order, "order"))
        _check_bijection(self.order, "order", "object")

    @classmethod
    def from_order(cls, order: Any) -> Permutation:
        """``order = (y(1), ..., y(n))``: the object at each position, best first."""
        return cls(_parse_sequence(order, "order"))

    @classmethod
    def from_positions(cls, positions: Any) -> Permutation:
        """``positions = (y^{-1}(1), ..., y^{-1}(n))``: the position of each object."""
        pos = _parse_sequence(positions, "positions")
        _check_bijection(pos, "positions", "position")
        order = [0] * len(pos)
        for obj, p in enumerate(pos, start=1):
            order[p - 1] = obj
        return cls(tuple(order))

    @classmethod
    def identity(cls, n: int) -> Permutation:
        return cls(tuple(range(1, check_n(n) + 1)))

    @property
    def n(self) -> int:
        return len(self.order)

    @property
    def positions(self) -> tuple[int, ...]:
        """``(y^{-1}(1), ..., y^{-1}(n))``."""
        pos = [0] * self.n
        for t, obj in enumerate(self.order, start=1):
            pos[obj - 1] = t
        return tuple(pos)

    def item_at(self, position: int) -> int:
        """``y(position)``: the object ranked at ``position`` (1-based)."""
        check_object(position, self.n, "position")
        return self.order[position - 1]

    def position_of(self, obj: int) -> int:
        """``y^{-1}(obj)``: the position (1-based) of object ``obj``."""
        check_object(obj, self.n, "object")
        return self.order.index(obj) + 1

    def top(self, k: int) -> tuple[int, ...]:
        """``(y(1), ..., y(k))``: the key of the top-k subgroup ``G_k`` containing ``y``."""
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.n:
            raise invalid("k", k, f"an integer in 1..{self.n} (n = {self.n})")
        return self.order[:k]

    def ranks_before(self, i: int, j: int) -> bool:
        """``y in Y_{i,j}``: object ``i`` is ranked before object ``j``."""
        check_object(i, self.n, "i")
        check_object(j, self.n, "j")
        if i == j:
            raise invalid("j", j, f"an object different from i = {i}")
        return self.position_of(i) < self.position_of(j)

    def swap_objects(self, i: int, j: int) -> Permutation:
        """``sigma_{i,j}^{-1} y``: exchange the positions of objects ``i`` and ``j``."""
        check_object(i, self.n, "i")
        check_object(j, self.n, "j")
        return Permutation(tuple(j if x == i else i if x == j else x for x in self.order))

    def inverse(self) -> Permutation:
        """The permutation whose order is this one's positions (``y^{-1}`` as an ordering)."""
        return Permutation(self.positions)

    def __str__(self) -> str:
        return "(" + ", ".join(str(x) for x in self.order) + ")"

    def __repr__(self) -> str:
        return f"Permutation.from_order({self.order})"

    def key(self) -> str:
        """Compact label ``'312'`` for n <= 9."""
        return "".join(str(x) for x in self.order)


def as_permutation(y: Any, n: int | None = None, param: str = "y") -> Permutation:
    """``y`` as a :class:`Permutation` (an ordering ``(y(1), ..., y(n))`` or ``'312'``),
    checked to be on ``n`` objects when ``n`` is given."""
    if isinstance(y, Permutation):
        perm = y
    else:
        try:
            perm = Permutation.from_order(y)
        except InvalidInput as e:
            raise InvalidInput(f"{param}: {e}", param=param, value=y) from None
    if n is not None and perm.n != n:
        raise invalid(param, y, f"a permutation of {n} objects (it has {perm.n})")
    return perm


def permutations(n: int) -> Iterator[Permutation]:
    """All ``n!`` permutations of ``1..n`` in lexicographic order of their orderings."""
    check_n(n)
    for order in itertools.permutations(range(1, n + 1)):
        yield Permutation(order)


def swap_scores(g: Sequence[Any], i: int, j: int) -> tuple[Any, ...]:
    """``sigma_{i,j}^{-1} g``: the score vector with entries ``g_i`` and ``g_j`` exchanged
    (``g[0]`` is ``g_1``)."""
    if isinstance(g, (str, bytes)) or not isinstance(g, Sequence):
        raise invalid("g", g, "a sequence of scores (g_1, ..., g_n)")
    n = len(g)
    check_object(i, n, "i")
    check_object(j, n, "j")
    out = list(g)
    out[i - 1], out[j - 1] = out[j - 1], out[i - 1]
    return tuple(out)


def order_of_scores(g: Sequence[Any]) -> tuple[Permutation, bool]:
    """``sort(g)`` of Section 2: objects by decreasing score (ties broken by the smaller
    label first) and whether there were ties (then the ranking is not determined by g)."""
    if isinstance(g, (str, bytes)) or not isinstance(g, Sequence):
        raise invalid("g", g, "a sequence of real scores (g_1, ..., g_n)")
    n = len(g)
    check_n(n, "len(g)")
    if any(isinstance(v, float) and v != v for v in g):
        raise invalid("g", tuple(g), "real scores (no NaN)")
    try:
        order = sorted(range(1, n + 1), key=lambda obj: (-g[obj - 1], obj))
        ties = len(set(g)) < n
    except TypeError:
        raise invalid("g", tuple(g), "a sequence of real scores (g_1, ..., g_n)") from None
    return Permutation(tuple(order)), ties
