"""All labelled DAGs on results ``1..m`` and how many there are.

Duchi, Mackey & Jordan (2010), Section 1: ``G(m)`` is the set of possible preference DAGs
over ``m`` results, with ``|G(m)| <= 3^(m choose 2)``.  :func:`dags` enumerates ``G(m)``
(as edge sets, weights left out); :func:`count_dags` counts it exactly by Robinson's
recurrence (R. W. Robinson, *Counting labeled acyclic digraphs*, 1973):
``a(n) = sum_{k=1..n} (-1)^(k+1) C(n, k) 2^(k(n-k)) a(n-k)``, ``a(0) = 1``.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb

from symcal.ranking.preference import Edge, check_m

__all__ = ["dags", "count_dags", "MAX_ENUMERATED_M", "MAX_COUNTED_M"]

MAX_ENUMERATED_M = 6  # 3,781,503 DAGs; m <= 5 (29,281) takes well under a second
MAX_COUNTED_M = 60


def dags(m: int) -> Iterator[frozenset[Edge]]:
    """Yield every labelled DAG on nodes ``1..m`` once, as a frozenset of edges ``(i, j)``
    (the set ``G(m)`` of Duchi et al. 2010, Section 1).  ``1 <= m <= 6``; the counts are
    1, 3, 25, 543, 29281, 3781503.

    Each unordered pair is left out, oriented ``i -> j`` or ``j -> i`` in turn, and an
    orientation is pruned as soon as it closes a cycle (tracked by reachability bitmasks).
    """
    m = check_m(m, at_most=MAX_ENUMERATED_M)
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    n_pairs = len(pairs)

    def close(reach: tuple[int, ...], u: int, v: int) -> tuple[int, ...] | None:
        # adding u -> v closes a cycle iff v already reaches u
        if reach[v] >> u & 1:
            return None
        gained = (1 << v) | reach[v]
        return tuple(r | gained if (w == u or r >> u & 1) else r for w, r in enumerate(reach))

    def walk(k: int, reach: tuple[int, ...], chosen: list[Edge]) -> Iterator[frozenset[Edge]]:
        if k == n_pairs:
            yield frozenset((u + 1, v + 1) for u, v in chosen)
            return
        i, j = pairs[k]
        yield from walk(k + 1, reach, chosen)
        for u, v in ((i, j), (j, i)):
            nxt = close(reach, u, v)
            if nxt is not None:
                chosen.append((u, v))
                yield from walk(k + 1, nxt, chosen)
                chosen.pop()

    yield from walk(0, (0,) * m, [])


def count_dags(m: int) -> int:
    """Exact number of labelled DAGs on ``m`` nodes, ``|G(m)|`` in Duchi et al. 2010,
    Section 1, by Robinson's recurrence; ``1 <= m <= 60``."""
    m = check_m(m, at_most=MAX_COUNTED_M)
    a = [1]
    for n in range(1, m + 1):
        a.append(sum((-1) ** (k + 1) * comb(n, k) * 2 ** (k * (n - k)) * a[n - k] for k in range(1, n + 1)))
    return a[m]
