"""What every section of Xia, Liu & Li (2009) shares: the citation helper, the twin-id rule,
orderings of objects 1..n (positions, swaps, top-k subgroups), Definition 2 (order preserving)
as inequalities between subgroup probabilities, and the Luce model's numerators, denominators and
gradient in t = exp(g)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import sympy

from symcal import Citation
from symcal.errors import BackendFailure

PAPER = "xia2009"


def cite(location: str, quote: str) -> Citation:
    return Citation(PAPER, location, quote)


def twin_id(claim_id: str) -> str:
    return claim_id + ".twin"


# ---------------------------------------------------------------------------------------
# Small combinatorial helpers (objects 1..n, orderings as tuples)
# ---------------------------------------------------------------------------------------


def perms(n: int) -> list[tuple[int, ...]]:
    return list(itertools.permutations(range(1, n + 1)))


def pos(y: tuple[int, ...], obj: int) -> int:
    return y.index(obj) + 1


def swap(y: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    return tuple(j if x == i else i if x == j else x for x in y)


def before(y: tuple[int, ...], i: int, j: int) -> bool:
    return pos(y, i) < pos(y, j)


def changes_subgroup(y: tuple[int, ...], i: int, j: int, k: int) -> bool:
    return pos(y, i) <= k or pos(y, j) <= k


def tie_patterns(n: int) -> list[tuple[int, ...]]:
    """Weak orders of g up to relabelling: g_1 <= ... <= g_n given by block labels
    (block[i] = index of the tie block of object i+1), one per composition of n."""
    out = []
    for cuts in itertools.product((0, 1), repeat=n - 1):
        blocks, b = [0], 0
        for c in cuts:
            b += c
            blocks.append(b)
        out.append(tuple(blocks))
    return out


class UndecidedCase(BackendFailure):
    """A z3 case came back unknown: the claim must not be proved."""


def simplex(n: int) -> tuple[dict[tuple[int, ...], sympy.Symbol], list[Any]]:
    p = {y: sympy.Symbol("p_" + "".join(map(str, y)), real=True) for y in perms(n)}
    return p, [v >= 0 for v in p.values()] + [sympy.Eq(sum(p.values()), 1)]


def subgroup_prob(p: dict[tuple[int, ...], Any], key: tuple[int, ...]) -> Any:
    k = len(key)
    return sum(v for y, v in p.items() if y[:k] == key)


def order_preserving(p: dict[tuple[int, ...], Any], n: int, k: int, i: int, j: int) -> list[Any]:
    """Definition 2 as a list of strict inequalities between subgroup probabilities."""
    out, seen = [], set()
    for y in perms(n):
        if before(y, i, j) and changes_subgroup(y, i, j, k):
            a, b = y[:k], swap(y, i, j)[:k]
            if (a, b) not in seen:
                seen.add((a, b))
                out.append(subgroup_prob(p, a) > subgroup_prob(p, b))
    return out


def phi_vars(n: int, name: str = "phi") -> dict[tuple[int, ...], sympy.Symbol]:
    return {y: sympy.Symbol(f"{name}_" + "".join(map(str, y)), real=True) for y in perms(n)}


# ---------------------------------------------------------------------------------------
# The Luce model in t = exp(g)
# ---------------------------------------------------------------------------------------


def t_symbols(n: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(" ".join(f"t{i}" for i in range(1, n + 1)), positive=True))


def luce_parts(t: Sequence[Any], y: tuple[int, ...], m: int) -> tuple[Any, Any]:
    """Numerator and denominator of the Luce top-m probability (as products, unexpanded)."""
    n = len(y)
    num, den = sympy.Integer(1), sympy.Integer(1)
    for s in range(m):
        num = num * t[y[s] - 1]
        den = den * sum(t[y[r] - 1] for r in range(s, n))
    return num, den


def cancel_positive(left: Any, right: Any) -> tuple[Any, Any]:
    """(l, r) with left = c l and right = c r for the common factor c of the two products made of the bases
    sympy proves positive (the Luce numerator prod u and the partial sums of positive u shared by pi and tau pi),
    so that left > right <=> l > r and left = right <=> l = r.  Only literal common factors are removed, and
    the result is checked to rebuild both products exactly (else the products come back unchanged)."""
    pl, pr = sympy.Mul(left).as_powers_dict(), sympy.Mul(right).as_powers_dict()
    common = {b: min(pl[b], pr[b]) for b in pl.keys() & pr.keys()
              if b.is_positive is True and sympy.Integer(min(pl[b], pr[b])).is_positive}
    if not common:
        return left, right
    c = sympy.Mul(*[b ** e for b, e in common.items()])
    lo = sympy.Mul(*[b ** (e - common.get(b, 0)) for b, e in pl.items()])
    ro = sympy.Mul(*[b ** (e - common.get(b, 0)) for b, e in pr.items()])
    if c.is_positive is not True or c * lo != left or c * ro != right:
        return left, right
    return lo, ro


def listmle_gradient(t: Sequence[Any], y: tuple[int, ...], m: int, i: int) -> Any:
    """d/dg_i of -log Luce_m(y) = -[pos(i) <= m] + sum_{s <= min(pos(i), m)} t_i / D_s."""
    n, a = len(y), pos(y, i)
    out: Any = -1 if a <= m else 0
    for s in range(min(a, m)):
        out = out + t[i - 1] / sum(t[y[r] - 1] for r in range(s, n))
    return out


def position_patterns(n: int) -> list[tuple[int, ...]]:
    """Orderings with object 1 at position a < position b of object 2, the others 3..n in
    increasing order: every y in Y_{1,2} up to relabelling objects 3..n."""
    out = []
    for a, b in itertools.combinations(range(1, n + 1), 2):
        rest = iter(range(3, n + 1))
        out.append(tuple(1 if q == a else 2 if q == b else next(rest) for q in range(1, n + 1)))
    return out


def position_scores(psi: Sequence[Any], y: tuple[int, ...]) -> list[Any]:
    """psi_y as a vector per object: the object at position s gets psi[s - 1]."""
    out: list[Any] = [0] * len(y)
    for s, obj in enumerate(y):
        out[obj - 1] = psi[s]
    return out
