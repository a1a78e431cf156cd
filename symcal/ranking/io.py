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
from fractions import Fraction
from pathlib import Path
from typing import Any

from symcal.errors import invalid
from symcal.exact import fraction_str, to_fraction
from symcal.ranking.difference import difference_cycle, difference_graph, is_low_noise
from symcal.ranking.losses import in_optimal_set, min_conditional_risk
from symcal.ranking.preference import (
    PreferenceDistribution,
    PreferenceGraph,
    Weights,
    as_weights,
    check_m,
    format_cycle,
)
from symcal.ranking.surrogates import linear_surrogate_minimiser

__all__ = ["load_preferences", "parse_preferences", "describe_preferences"]


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


def parse_preferences(data: Any, source: str = "<data>") -> PreferenceDistribution | Weights:
    """Validate already-decoded JSON ``data`` (see the module docstring) into a preference
    distribution (Duchi et al. 2010, Section 1) or expected weights (after Eq. (7));
    ``source`` prefixes every field name in errors."""
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
        _m, a = as_weights(parsed, m)
        return a
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


def load_preferences(path: str | Path) -> PreferenceDistribution | Weights:
    """Read a preference file (see the module docstring): a :class:`PreferenceDistribution`
    (Duchi et al. 2010, Section 1) or the expected weights ``{(i, j): a_ij}`` (after
    Eq. (7)).  Every problem is an :class:`~symcal.errors.InvalidInput` naming the path
    and the field."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise invalid("path", str(path), "an existing JSON file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise invalid("path", str(path), "a readable JSON file (UTF-8 text)", str(err)) from None
    try:
        data = json.loads(text, parse_float=_JsonFloat, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise invalid("path", str(path), "valid JSON", f"line {err.lineno}, column {err.colno}: {err.msg}") from None
    except (ValueError, RecursionError) as err:  # ints beyond the digit limit, absurd nesting
        raise invalid("path", str(path), "valid JSON of a sensible size", str(err).split(";")[0]) from None
    return parse_preferences(data, str(path))


def _refuse_constant(name: str) -> Any:
    raise invalid("JSON constant", name, "finite numbers only (NaN and Infinity are not allowed)")


def _pairs_json(a: dict[tuple[int, int], Fraction]) -> list[list[Any]]:
    return [[i, j, fraction_str(w)] for (i, j), w in sorted(a.items()) if w]


def describe_preferences(obj: Any, m: int | None = None) -> dict[str, Any]:
    """A JSON-ready report on preference data (Duchi et al. 2010, Sections 2-3): ``m``;
    the weights ``a_ij``; the difference graph (Fig. 1) and whether it is a DAG; the
    low-noise verdict of Definition 8 with the first violating triple; ``min l(p, alpha)``
    of Eq. (8) with an optimal order; and the exact minimiser of the linear surrogate
    (14) with ``r = alpha^2``, ``nu = 1`` (Eq. (15)), with whether it lies in ``A(p)``."""
    m, a = as_weights(obj, m)
    g = difference_graph(a, m)
    cycle = difference_cycle(a, m)
    low = is_low_noise(a, m)
    best = min_conditional_risk(a, m)
    alpha = linear_surrogate_minimiser(a, 1, m)
    inside = in_optimal_set(a, alpha, m)
    low_json: dict[str, Any] = {"holds": low.holds, "reason": low.reason, "violating_triple": None}
    if not low.holds and low.witness is not None:
        low_json["violating_triple"] = list(low.witness["triple"])
        low_json["lhs"] = fraction_str(low.witness["lhs"])
        low_json["rhs"] = fraction_str(low.witness["rhs"])
        low_json["violations"] = [list(t) for t in low.violations]
    return {
        "m": m,
        "source": type(obj).__name__ if not isinstance(obj, dict) else "weights",
        "weights": _pairs_json(a),
        "difference_graph": {
            "edges": [[i, j, fraction_str(d["weight"])] for i, j, d in sorted(g.edges(data=True))],
            "is_dag": cycle is None,
            "cycle": None if cycle is None else format_cycle(cycle),
        },
        "low_noise": low_json,
        "min_conditional_risk": {
            "value": fraction_str(best.value),
            "optimal_order": list(best.order),
        },
        "linear_surrogate": {
            "nu": "1",
            "r": "alpha^2",
            "alpha_star": [fraction_str(v) for v in alpha],
            "in_optimal_set": inside.holds,
            "risk_at_alpha_star": fraction_str(inside.witness["risk"]) if inside.witness else None,
            "reason": inside.reason,
        },
    }
