"""Reading preference data from JSON, and a JSON-ready report about it.

Two file forms (numbers are ints or ``"p/q"`` strings; JSON floats are refused):

* a distribution over preference DAGs (Duchi et al. 2010, Section 1)::

    {"m": 3, "graphs": [{"p": "1/2", "edges": [[1, 2, "1"], [1, 3, "2"]]},
                        {"p": "1/2", "edges": [[2, 3, "1/10"], [3, 1, "1"]]}]}

* the expected weights ``a_ij`` directly (the text after Eq. (7))::

    {"m": 3, "weights": [[1, 2, "3/4"], [2, 1, "1/4"]]}
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from symcal.errors import DuplicateKey, invalid, unique_keys
from symcal.exact import fraction_str, to_fraction
from symcal.ranking.difference import _cycle_in, _low_noise_scan
from symcal.ranking.preference import (
    PreferenceDistribution,
    PreferenceGraph,
    SparseWeights,
    check_m,
    format_cycle,
    sparse_weights,
    weight_matrix,
)

__all__ = ["load_preferences", "parse_preferences", "describe_preferences", "report_file"]


MAX_FILE_BYTES = 1_000_000_000  # a preference file read whole: at most 1 GB (m <= 5,000 needs < 0.5 GB)


class _JsonFloat(str):
    """A JSON number with a fraction part or exponent, kept as its text to be refused."""


def _number(value: Any, where: str) -> Fraction:
    if isinstance(value, _JsonFloat):
        exact = Fraction(str(value))
        raise invalid(
            where,
            float(value),
            "an int or a 'p/q' string, not a JSON float",
            f'write "{fraction_str(exact)}"',
        )
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise invalid(where, value, "an int or a 'p/q' string")
    return to_fraction(value, where)


def _node(value: Any, m: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= m:
        raise invalid(where, value, f"a node label (int) in 1..{m}")
    return value


def _triples(items: Any, m: int, where: str) -> dict[tuple[int, int], Fraction]:
    if not isinstance(items, list):
        raise invalid(where, items, "a list of [i, j, weight] triples")
    out: dict[tuple[int, int], Fraction] = {}
    for k, item in enumerate(items):
        here = f"{where}[{k}]"
        if not isinstance(item, list) or len(item) != 3:
            raise invalid(here, item, "a triple [i, j, weight]")
        i = _node(item[0], m, f"{here}[0]")
        j = _node(item[1], m, f"{here}[1]")
        if i == j:
            raise invalid(here, item, "an edge [i, j, weight] with i != j")
        if (i, j) in out:
            raise invalid(here, item, f"each pair (i, j) once; ({i}, {j}) is repeated")
        w = _number(item[2], f"{here}[2]")
        if w < 0:
            raise invalid(f"{here}[2]", fraction_str(w), "a weight >= 0")
        out[(i, j)] = w
    return out


def parse_preferences(data: Any, source: str = "<data>") -> PreferenceDistribution | SparseWeights:
    """Validate already-decoded JSON ``data`` (see the module docstring) into a preference
    distribution (Duchi et al. 2010, Section 1) or expected weights (after Eq. (7));
    ``source`` prefixes every field name in errors."""
    if not isinstance(source, str) or len(source) > 1000:
        raise invalid("source", source, "a short text naming where data came from (a str)")
    if not isinstance(data, dict):
        raise invalid(source, data, 'a JSON object with "m" and "graphs" or "weights"')
    keys = set(data)
    if "m" not in data:
        raise invalid(f"{source}: m", None, "the number of results m (an int >= 1)")
    forms = keys & {"graphs", "weights"}
    if len(forms) != 1:
        raise invalid(source, sorted(keys), 'exactly one of "graphs" (a distribution) or "weights" (a_ij)')
    extra = keys - {"m", "graphs", "weights"}
    if extra:
        name = sorted(extra)[0]
        raise invalid(f"{source}: {name}", data[name], "no fields other than m, graphs, weights")
    if isinstance(data["m"], _JsonFloat):
        raise invalid(f"{source}: m", float(data["m"]), "an int >= 1")
    m = check_m(data["m"], f"{source}: m")
    if "weights" in forms:
        where = f"{source}: weights"
        parsed = _triples(data["weights"], m, where)
        if not parsed:
            raise invalid(where, [], "at least one [i, j, weight] triple")
        return SparseWeights(m, parsed, param=where)
    where = f"{source}: graphs"
    graphs = data["graphs"]
    if not isinstance(graphs, list) or not graphs:
        raise invalid(where, graphs, 'a non-empty list of {"p": ..., "edges": [...]} objects')
    pairs = []
    for k, g in enumerate(graphs):
        here = f"{where}[{k}]"
        if not isinstance(g, dict) or set(g) != {"p", "edges"}:
            raise invalid(here, g, 'an object with exactly the fields "p" and "edges"')
        p = _number(g["p"], f"{here}.p")
        edges = _triples(g["edges"], m, f"{here}.edges")
        try:
            graph = PreferenceGraph(m, edges)
        except ValueError as err:
            raise invalid(f"{here}.edges", g["edges"], "the edges of a DAG", str(err)) from None
        pairs.append((graph, p))
    for k, (_graph, p) in enumerate(pairs):
        if p < 0:
            raise invalid(f"{where}[{k}].p", fraction_str(p), "a probability >= 0")
    total = sum((p for _g, p in pairs), Fraction(0))
    if total != 1:
        raise invalid(
            f"{where}[*].p",
            [fraction_str(p) for _g, p in pairs],
            f"probabilities summing to 1 (they sum to {fraction_str(total)})",
        )
    return PreferenceDistribution(pairs)


def load_preferences(path: str | Path) -> PreferenceDistribution | SparseWeights:
    """Read a preference file (see the module docstring): a :class:`PreferenceDistribution`
    (Duchi et al. 2010, Section 1) or the expected weights ``{(i, j): a_ij}`` (after
    Eq. (7)) as a :class:`~symcal.ranking.preference.SparseWeights` (a read-only mapping with
    every ordered pair as a key, storing only the non-zero weights).  Every problem is an
    :class:`~symcal.errors.InvalidInput` naming the path and the field."""
    if not isinstance(path, str | Path):
        raise invalid("path", path, "the path of a JSON preference file (a str or a Path)")
    if "\x00" in str(path):
        raise invalid("path", str(path), "a file name without a NUL character")
    p = Path(path)
    try:
        size = p.stat().st_size if p.is_file() else 0
        special = p.exists() and not p.is_file() and not p.is_dir()
    except OSError:
        size, special = 0, False
    if special:  # a FIFO or a device: reading it may never end (/dev/zero) or wait for a writer
        raise invalid("path", str(path), "a regular JSON file", "it is a FIFO, a device or a socket")
    if size > MAX_FILE_BYTES:
        raise invalid("path", str(path), f"a JSON file of at most {MAX_FILE_BYTES // 10**6:,} MB",
                      f"it has {size // 10**6:,} MB; m <= 5,000 results need far less")
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise invalid("path", str(path), "an existing JSON file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise invalid("path", str(path), "a readable JSON file (UTF-8 text)", str(err)) from None
    try:
        data = json.loads(text, parse_float=_JsonFloat, parse_constant=_refuse_constant,
                          object_pairs_hook=unique_keys("path", str(path)))
    except DuplicateKey:
        raise
    except json.JSONDecodeError as err:
        raise invalid("path", str(path), "valid JSON", f"line {err.lineno}, column {err.colno}: {err.msg}") from None
    except (ValueError, RecursionError) as err:  # ints beyond the digit limit, absurd nesting
        raise invalid("path", str(path), "valid JSON of a sensible size", str(err).split(";")[0]) from None
    return parse_preferences(data, str(path))


def _refuse_constant(name: str) -> Any:
    raise invalid("JSON constant", name, "finite numbers only (NaN and Infinity are not allowed)")


def _pairs_json(a: Any) -> list[list[Any]]:
    return [[i, j, fraction_str(w)] for (i, j), w in sorted(a.items()) if w]


MAX_LISTED = 20  # violating triples (and broken Lemma 16 constraints) listed in a report


def _risk_numerator(w: Any, scores: Any) -> int:
    """``l(p, alpha) * scale`` of Duchi et al. 2010, Eq. (8), for integer weights ``w`` and
    scores compared exactly: ``a_ij`` is paid when ``alpha_i <= alpha_j`` (``i < j``) or
    ``alpha_i < alpha_j`` (``i > j``) -- ties break towards the smaller label, as in
    :func:`symcal.ranking.losses.conditional_risk`."""
    m = w.shape[0]
    si, sj = scores[:, None], scores[None, :]
    upper = np.triu(np.ones((m, m), dtype=bool), 1)
    paid = (upper & (si <= sj)) | (upper.T & (si < sj))
    return int(w[paid].sum()) if paid.any() else 0


def _minimum(w: Any, deadline: float | None) -> tuple[list[int], int, int, bool, str]:
    """``(order, cost, lower, certified, method)`` of the minimum of Eq. (8) over orders:
    exhaustive for ``m <= 7`` (the lexicographically first optimal order, as
    :func:`symcal.ranking.losses.min_conditional_risk`), else the feedback arc set solver."""
    from symcal.ranking.feedback_arc_set import SCC_BRUTE_FORCE_NODES, _brute_force, _solve
    from symcal.ranking.losses import BRUTE_FORCE_RISK_MAX_M

    m = w.shape[0]
    if m <= BRUTE_FORCE_RISK_MAX_M:
        best, cost = _brute_force(w.tolist(), list(range(m)))
        return best, cost, cost, True, f"exhaustive search over the {m}! orders"
    sol = _solve(w, deadline, SCC_BRUTE_FORCE_NODES)
    return sol.order, sol.cost, sol.lower, sol.certified, sol.method


def _frac(x: Any, scale: int) -> Fraction:
    """The exact value of ``x`` in units of ``1/scale``."""
    return Fraction(int(x), scale)


def _check_report_time_limit(time_limit: Any) -> None:
    """Refuse a ``time_limit`` that is not a finite number of seconds > 0 (None is no limit)."""
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not 0 < time_limit <= 1e9:
            raise invalid("time_limit", time_limit, "a finite number of seconds > 0, or None for no limit")


def _low_noise_json(d: Any, scale: int) -> dict[str, Any]:
    """The low-noise verdict of Definition 8 on the difference matrix ``d`` (in units of
    ``1/scale``), with the first violating triple and the first :data:`MAX_LISTED` of them."""
    n_paths, n_bad, listed = _low_noise_scan(d, MAX_LISTED)
    if not n_paths:
        low_reason = "low-noise (Definition 8) holds vacuously: the difference graph has no two-edge path"
    elif not n_bad:
        low_reason = (f"low-noise (Definition 8): all {n_paths} two-edge paths i -> j -> k of the difference graph "
                      "satisfy a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj)")
    low_json: dict[str, Any] = {"holds": not n_bad, "reason": "", "violating_triple": None}
    if n_bad:
        i, j, k = listed[0]
        lhs, rhs = _frac(d[i - 1, k - 1], scale), _frac(d[i - 1, j - 1], scale) + _frac(d[j - 1, k - 1], scale)
        low_reason = (f"not low-noise (Definition 8) at (i, j, k) = ({i}, {j}, {k}): "
                      f"a[{i},{k}] - a[{k},{i}] = {fraction_str(lhs)} < "
                      f"(a[{i},{j}] - a[{j},{i}]) + (a[{j},{k}] - a[{k},{j}]) = {fraction_str(rhs)}"
                      f"; {n_bad} of {n_paths} two-edge paths violate it")
        low_json.update({"violating_triple": [i, j, k], "lhs": fraction_str(lhs), "rhs": fraction_str(rhs),
                         "violations": [list(t) for t in listed], "violation_count": n_bad})
    low_json["reason"] = low_reason
    return low_json


# (order, cost, lower, certified, method) of :func:`_minimum`
_Minimum = tuple[list[int], int, int, bool, str]


def _risk_json(minimum: _Minimum, scale: int) -> dict[str, Any]:
    """``min l(p, alpha)`` of Eq. (8): exact with an optimal order, or unknown with the best
    order found and a proved lower bound."""
    order, cost, lower, certified, method = minimum
    best_order = [v + 1 for v in order]
    if certified:
        return {"status": "exact", "value": fraction_str(_frac(cost, scale)), "optimal_order": best_order}
    return {"status": "unknown", "value": None, "optimal_order": None,
            "best_value": fraction_str(_frac(cost, scale)), "best_order": best_order,
            "lower_bound": fraction_str(_frac(lower, scale)),
            "reason": f"the minimum (a feedback arc set, NP-hard) was not proved: it lies in "
                      f"[{fraction_str(_frac(lower, scale))}, {fraction_str(_frac(cost, scale))}] ({method})"}


def _broken_constraints(pos: Any, net: Any) -> str:
    """Lemma 16's description of A(p): ``alpha_i > alpha_j`` (i < j), ``>=`` (i > j) on each
    edge of the difference graph ``pos``; the ones alpha* (ordered as ``net``) breaks, as text."""
    edges = np.argwhere(pos)
    ni, nj = net[edges[:, 0]], net[edges[:, 1]]
    broken = edges[np.where(edges[:, 0] < edges[:, 1], ni <= nj, ni < nj)]
    if not broken.size:
        return ""
    parts = [f"alpha_{a + 1} {'>' if a < b else '>='} alpha_{b + 1}" for a, b in broken[:MAX_LISTED]]
    more = f" and {len(broken) - MAX_LISTED} more" if len(broken) > MAX_LISTED else ""
    return "; it breaks " + ", ".join(parts) + more


def _in_optimal_set(risk: int, minimum: _Minimum, scale: int,
                    lemma16: tuple[Any, Any] | None) -> tuple[bool | None, str]:
    """Whether alpha* (of risk ``risk``) lies in ``A(p)`` given the minimum's interval
    ``[lower, cost]``: True, False, or None when undecided, with the reason; ``lemma16`` is
    ``(pos, net)`` when the difference graph is a DAG, to list the constraints alpha* breaks."""
    order, cost, lower, certified, _method = minimum
    best_order = [v + 1 for v in order]
    r = fraction_str(_frac(risk, scale))
    if certified and risk == cost or risk <= lower:
        return True, f"alpha is in A(p): l(p, alpha) = {r} is the minimum"
    if risk > cost:
        shown = fraction_str(_frac(cost, scale))
        in_reason = (f"alpha is not in A(p): l(p, alpha) = {r} > min = {shown} (attained by the order "
                     f"{tuple(best_order)})" if certified else
                     f"alpha is not in A(p): l(p, alpha) = {r} > {shown}, the risk of the order {tuple(best_order)}")
        return False, in_reason + ("" if lemma16 is None else _broken_constraints(*lemma16))
    lo, hi = fraction_str(_frac(lower, scale)), fraction_str(_frac(cost, scale))
    return None, (f"undecided: l(p, alpha) = {r} lies between the proved lower bound {lo} "
                  f"and the best risk found {hi} (the minimum was not proved)")


def describe_preferences(obj: Any, m: int | None = None, *, time_limit: float | None = None) -> dict[str, Any]:
    """A JSON-ready report on preference data (Duchi et al. 2010, Sections 2-3): ``m``;
    the weights ``a_ij``; the difference graph (Fig. 1) and whether it is a DAG; the
    low-noise verdict of Definition 8 with the first violating triple (and the first
    :data:`MAX_LISTED` of them, with their count); ``min l(p, alpha)`` of Eq. (8) with an
    optimal order; and the exact minimiser of the linear surrogate (14) with
    ``r = alpha^2``, ``nu = 1`` (Eq. (15)), with whether it lies in ``A(p)``.

    Everything is exact (integer arrays over the weights' common denominator) and fast at
    hundreds of nodes, except the minimum of Eq. (8), a feedback arc set (NP-hard): with
    ``time_limit`` (CPU seconds for the whole report) the search stops in time, and the minimum
    is then ``"status": "unknown"`` with the best order found and a proved lower bound --
    and ``in_optimal_set`` is None when that interval does not decide it."""
    t0 = time.process_time()
    _check_report_time_limit(time_limit)
    sw = sparse_weights(obj, m)
    m = sw.m
    w, scale = weight_matrix(sw)
    d = w - w.T
    pos = d > 0
    cycle = _cycle_in(pos)
    low_json = _low_noise_json(d, scale)

    # alpha*_i = sum_j (a_ij - a_ji) / 2 (Eq. (15), nu = 1): its order is that of the row sums
    net = d.sum(axis=1)
    alpha = [Fraction(int(v), 2 * scale) for v in net]
    risk = _risk_numerator(w, net)
    deadline = None
    if time_limit is not None:
        # the rest after the minimum is one pass over the pairs: leave it a tenth of the time
        deadline = t0 + 0.9 * float(time_limit)
    minimum = _minimum(w, deadline)
    inside, in_reason = _in_optimal_set(risk, minimum, scale, None if cycle is not None else (pos, net))
    return {
        "m": m,
        "source": type(obj).__name__ if isinstance(obj, PreferenceDistribution | PreferenceGraph) else "weights",
        "weights": [[i, j, fraction_str(v)] for (i, j), v in sw.nonzero.items()],
        "difference_graph": {
            "edges": [[int(i) + 1, int(j) + 1, fraction_str(_frac(d[i, j], scale))] for i, j in np.argwhere(pos)],
            "is_dag": cycle is None,
            "cycle": None if cycle is None else format_cycle(cycle),
        },
        "low_noise": low_json,
        "min_conditional_risk": _risk_json(minimum, scale),
        "linear_surrogate": {
            "nu": "1",
            "r": "alpha^2",
            "alpha_star": [fraction_str(v) for v in alpha],
            "in_optimal_set": inside,
            "risk_at_alpha_star": fraction_str(_frac(risk, scale)),
            "reason": in_reason,
        },
    }


def report_file(path: str | Path, *, time_limit: float | None = None) -> dict[str, Any]:
    """:func:`describe_preferences` of the file at ``path``; ``time_limit`` (CPU seconds)
    covers reading and validating the file too.  ``symcal preference`` runs this in a child
    process limited to the same budget (:func:`symcal.limits.run_limited`)."""
    t0 = time.process_time()
    data = load_preferences(path)
    left = None if time_limit is None else max(float(time_limit) - (time.process_time() - t0), 0.05)
    return describe_preferences(data, time_limit=left)
