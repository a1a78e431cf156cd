"""``symcal costs``: does my misranking cost scheme satisfy Uematsu & Lee (2013)'s Theorem 3
condition, where does it fail, and what is f_0^*?

``symcal costs FILE`` reads a K x K cost table (row j, column i, c_ji above the diagonal) from
JSON or CSV, or takes a named scheme (``linear``, ``dcg``, ``zero_one``) or a formula in i and j
(``"log(i/j)"``: c_ji = log(i/j) for j < i), with ``--K``; it prints the verdict with every
violating (j, i) and its exact residual, the normalised form, the relative scale and f_0^* as a
formula in the posteriors.  ``--K-sweep A..B`` sweeps a named scheme or a formula over K; for a
formula it first tries to prove the condition for all K by an identity in symbolic j < i < K.
``--posteriors FILE`` ranks the points of a finite instance space by f_0^* and checks,
exhaustively over weak orders, whether that ranking minimises R_0.

The verdict is the engine's: ``holds`` (proved: every residual formally zero), ``fails``
(refuted: a residual proved non-zero, exactly or by a rigorous interval enclosure) or
``undecided`` (unknown).  ``--timeout S`` (default 60) bounds the check in CPU seconds (per K
in a sweep); it really stops it.  Exit codes: 0 when decided either way, 1 when undecided, 2 on
bad input.

JSON: ``{"costs": [[null, "1", "2"], [null, null, "1"], [null, null, null]]}`` (numbers as
ints or strings -- ``"3/10"``, ``"0.25"``, ``"exp(103/50)"``; JSON floats are refused).
CSV: K lines of K comma-separated cells, empty or ``-`` on and below the diagonal; ``#``
starts a comment line.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from symcal.commands import seconds, whole_number
from symcal.errors import DuplicateKey, invalid, unique_keys
from symcal.exact import expr_str, fraction_str

__all__ = ["register", "run", "load_costs", "load_space", "describe_costs"]

MAX_M_EXHAUSTIVE = 7
# a cost table or a posteriors file is read whole: K and m in the thousands fit in far less
MAX_FILE_BYTES = 256 * 1024**2


class _JsonFloat(str):
    pass


def _text(path: Path, param: str = "FILE") -> str:
    """The UTF-8 text of an input file: a regular file of sensible size (a FIFO, a device or a 3 GB
    file is refused before it is read; :func:`symcal.commands.common.input_file`), else a one-line
    error naming ``param`` and the path."""
    from symcal.commands.common import input_file

    input_file(param, str(path), "a readable UTF-8 text file", max_bytes=MAX_FILE_BYTES)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise invalid(param, str(path), "a readable UTF-8 text file", str(e)) from None


def _json(path: Path, param: str = "FILE") -> Any:
    text = _text(path, param)
    try:
        return json.loads(text, parse_float=_JsonFloat, object_pairs_hook=unique_keys(param, str(path)))
    except DuplicateKey:
        raise
    except json.JSONDecodeError as e:
        raise invalid(param, str(path), "valid JSON", f"line {e.lineno}, column {e.colno}: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # ints beyond the digit limit, absurd nesting
        raise invalid(param, str(path), "valid JSON of a sensible size (nesting, digits)",
                      str(e).split(";")[0]) from None


def _exact(value: Any, where: str) -> Any:
    if isinstance(value, _JsonFloat):
        raise invalid(
            where,
            float(value),
            'an int or a string such as "3/10" or "0.25", not a JSON float',
            f'write "{value}" in quotes (read as the exact decimal)',
        )
    return value


def _exists(path: Path) -> bool:
    """``path.exists()``, False for a name the system refuses (too long, a NUL byte): a formula such
    as ``i+i+...`` is tried as a file name first."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _read_table(path: Path) -> list[list[Any]]:
    if not _exists(path):
        raise invalid(
            "FILE",
            str(path),
            "an existing JSON or CSV file, a scheme name (linear, dcg, zero_one) or a formula in i and j",
        )
    if path.suffix.lower() == ".json":
        data = _json(path)
        rows = data.get("costs") if isinstance(data, dict) else data
        if isinstance(data, dict):
            extra = set(data) - {"costs", "name"}
            if extra:
                raise invalid(
                    f"{path}: {sorted(extra)[0]}", data[sorted(extra)[0]], 'only the fields "costs" and "name"'
                )
        if not isinstance(rows, list):
            raise invalid(f"{path}: costs", rows, "a K x K table (a list of K rows)")
        return [
            [_exact(v, f"{path}: costs[{r}][{c}]") for c, v in enumerate(row, start=1)]
            if isinstance(row, list)
            else row
            for r, row in enumerate(rows, start=1)
        ]
    if path.suffix.lower() in {".csv", ".txt"}:
        lines = [ln for ln in _text(path).splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        try:
            return [[cell.strip() for cell in row] for row in csv.reader(io.StringIO("\n".join(lines)))]
        except csv.Error as e:  # e.g. a cell beyond csv's field size limit (131,072 characters)
            raise invalid("FILE", str(path), "a CSV table of costs", str(e)) from None
    raise invalid("FILE", str(path), "a .json or .csv file")


def load_costs(spec: str, K: int | None = None) -> Any:
    """A CostScheme from a file path, a scheme name (``linear``, ``dcg``, ``zero_one``) or a
    formula in i and j (``"log(i/j)"``, with ``K``)."""
    from symcal.ranking.costs import NAMED_SCHEMES, CostScheme, formula_costs, is_formula

    if spec in NAMED_SCHEMES:
        if K is None:
            raise invalid("--K", None, f"the number of categories for the named scheme {spec!r}", "add --K 4")
        return NAMED_SCHEMES[spec](K)
    path = Path(spec)
    if not _exists(path) and is_formula(spec):
        if K is None:
            raise invalid("--K", None, f"the number of categories for the formula {spec!r}", "add --K 4")
        return formula_costs(spec, K)
    name = path.stem
    if path.suffix.lower() == ".json" and _exists(path):
        data = _json(path)
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            name = data["name"]
    return CostScheme.from_matrix(_read_table(path), name=name, source=str(path))


def load_space(path_text: str) -> Any:
    """A finite instance space from JSON ``{"marginal": [...], "posteriors": [[...], ...]}``."""
    from symcal.ranking.multipartite import FiniteInstanceSpace

    path = Path(path_text)
    if not _exists(path):
        raise invalid("--posteriors", path_text, "an existing JSON file")
    data = _json(path, "--posteriors")
    if not isinstance(data, dict) or set(data) != {"marginal", "posteriors"}:
        raise invalid(
            f"{path}",
            data if not isinstance(data, dict) else sorted(data),
            'a JSON object with exactly "marginal" and "posteriors"',
        )
    marg = data["marginal"]
    post = data["posteriors"]
    if not isinstance(marg, list) or not isinstance(post, list):
        raise invalid(f"{path}", "marginal/posteriors", "lists")
    marg = [_exact(v, f"{path}: marginal[{k}]") for k, v in enumerate(marg, start=1)]
    post = [
        [_exact(v, f"{path}: posteriors[{a}][{k}]") for k, v in enumerate(row, start=1)]
        if isinstance(row, list)
        else row
        for a, row in enumerate(post, start=1)
    ]
    return FiniteInstanceSpace(tuple(marg), tuple(post))


def _show(x: Any) -> str:
    from fractions import Fraction

    if isinstance(x, Fraction):
        return fraction_str(x)
    return expr_str(x)


def describe_costs(costs: Any, space: Any = None, *, timeout: float | None = 60.0) -> dict[str, Any]:
    """A JSON-ready report: the scheme, the condition verdict with violations, the
    normalised form, the relative scale, f_0^* and (with ``space``) the ranking of its points.

    The condition check is bounded by ``timeout`` CPU seconds, and so is the rest of the
    report (a part that does not finish says "gave up after S s")."""
    from symcal.limits import TimeLimitReached
    from symcal.ranking.costs import _limited, satisfies_theorem3_condition

    res = satisfies_theorem3_condition(costs, timeout=timeout)
    report: dict[str, Any] = {
        "scheme": costs.to_json(),
        "condition": "c_1K c_ji = c_1i c_jK - c_1j c_iK for all 1 <= j < i <= K (Uematsu & Lee 2013, Theorem 3)",
        "verdict": {True: "holds", False: "fails", None: "undecided"}[res.holds],
        **res.to_json(),
    }
    try:
        report.update(_limited(_describe_rest, costs, space, timeout=timeout, what="the normalised form and f_0^*"))
    except TimeLimitReached:
        gave_up = f"gave up after {timeout:g} s"
        report.update({"normalised": [], "relative_scale c_1i/c_iK": gave_up, "f0_star": gave_up})
        if space is not None:
            report["ranking"] = {"note": gave_up}
    report["f0_star_valid"] = res.holds is True and res.c1K_positive is True
    if res.c1K_positive is False:
        report["warning"] = "c_1K = 0: Theorem 3 needs c_1K > 0 (symcal finding uematsu2013.theorem3.ii)"
    return report


def _describe_rest(costs: Any, space: Any) -> dict[str, Any]:
    from symcal.ranking.costs import normalised_condition, optimal_ranking_function, relative_scale

    f0 = optimal_ranking_function(costs)
    report: dict[str, Any] = {
        "normalised": [
            {
                "j": r["j"],
                "i": r["i"],
                "lhs c_ji/c_1K": None if r["lhs"] is None else _show(r["lhs"]),
                "rhs": None if r["rhs"] is None else _show(r["rhs"]),
            }
            for r in normalised_condition(costs)
        ],
        "relative_scale c_1i/c_iK": [None if v is None else _show(v) for v in relative_scale(costs)],
        "f0_star": expr_str(f0),
    }
    if space is not None:
        report["ranking"] = _rank_points(costs, space)
    return report


def _rank_points(costs: Any, space: Any) -> dict[str, Any]:
    from symcal.ranking.multipartite import check_theorem3, optimal_levels, optimal_scores, pair_table

    if space.K != costs.K:
        raise invalid("--posteriors", f"K = {space.K}", f"posteriors over the K = {costs.K} labels of the scheme")
    scores = []
    for N, M in optimal_scores(space, costs):
        scores.append("undefined (0/0)" if N == M == 0 else "+inf" if M == 0 else fraction_str(N / M))
    levels = optimal_levels(space, costs)
    out: dict[str, Any] = {
        "f0_star": scores,
        "levels": list(levels),
        "order (best first)": [a + 1 for a in sorted(range(space.m), key=lambda a: -levels[a])],
        "risk of f0_star": fraction_str(pair_table(space, costs).risk(levels)),
    }
    if space.m <= MAX_M_EXHAUSTIVE:
        r = check_theorem3(space, costs)
        out.update(
            {
                "min risk over all weak orders": fraction_str(r.min_risk),
                "weak orders": r.orders,
                "f0_star optimal": r.f0_optimal,
                "a minimiser": list(r.minimisers[0]),
            }
        )
    else:
        out["note"] = f"m = {space.m} > {MAX_M_EXHAUSTIVE}: the exhaustive check is skipped"
    return out


def _k_range(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if not m or int(m.group(1)) < 2 or int(m.group(1)) > int(m.group(2)) or int(m.group(2)) > 60:
        raise argparse.ArgumentTypeError(f"--K-sweep={text!r}: expected A..B with 2 <= A <= B <= 60, e.g. 2..12")
    return int(m.group(1)), int(m.group(2))


_k = whole_number("--K", 2)

EXIT_DECIDED, EXIT_UNDECIDED = 0, 1


def register(sub: Any) -> None:
    sp = sub.add_parser("costs", help="check a misranking cost scheme against Uematsu & Lee's Theorem 3 condition")
    sp.add_argument(
        "file",
        metavar="FILE",
        help="a JSON/CSV K x K cost table, a scheme name (linear, dcg, zero_one) "
        'or a formula in i and j, e.g. "log(i/j)"',
    )
    sp.add_argument("--K", type=_k, help="number of categories for a named scheme or a formula")
    sp.add_argument(
        "--K-sweep",
        dest="k_sweep",
        type=_k_range,
        metavar="A..B",
        help="for a named scheme or a formula in i and j: for which K in A..B does it satisfy the condition "
        "(a formula is first tried for all K by an identity in symbolic j < i < K)",
    )
    sp.add_argument("--posteriors", metavar="FILE", help='JSON {"marginal": [...], "posteriors": [[...], ...]}')
    sp.add_argument(
        "--timeout",
        type=seconds,
        default=60.0,
        metavar="S",
        help="CPU seconds for the check (per K in a sweep; default 60); undecided when it runs out",
    )
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(fn=run)


def _sweep(args: argparse.Namespace) -> int:
    from symcal.ranking.costs import NAMED_SCHEMES, is_formula, sweep_named

    if args.file not in NAMED_SCHEMES and (_exists(Path(args.file)) or not is_formula(args.file)):
        raise invalid(
            "FILE",
            args.file,
            f"a scheme name ({', '.join(sorted(NAMED_SCHEMES))}) or a formula in i and j (e.g. \"log(i/j)\") "
            "with --K-sweep",
        )
    report = sweep_named(args.file, range(args.k_sweep[0], args.k_sweep[1] + 1), timeout=args.timeout)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"scheme: {report['scheme']}")
        if report.get("all_K"):
            print(f"condition {report['all_K']}")
        print(f"condition holds for K = {report['holds_for']}")
        print(f"fails for K = {report['fails_for']}")
        for K, v in report["first_violation"].items():
            print(f"  K = {K}: {v}")
        if report["undecided_for"]:
            print(f"undecided for K = {report['undecided_for']}")
            for K, v in report["undecided"].items():
                print(f"  K = {K}: {v}")
    return EXIT_UNDECIDED if report["undecided_for"] else EXIT_DECIDED


def run(args: argparse.Namespace) -> int:
    if args.k_sweep is not None:
        return _sweep(args)
    from symcal.limits import TimeLimitReached
    from symcal.ranking.costs import _limited

    try:  # validating exact costs (their signs) is part of the work --timeout bounds
        costs = _limited(load_costs, args.file, args.K, timeout=args.timeout, what="reading the costs")
    except TimeLimitReached:
        reason = f"gave up after {args.timeout:g} s validating the costs (their signs)"
        # under --json stdout is only JSON, as for every other verdict of this verb
        print(json.dumps({"verdict": "undecided", "status": "unknown", "holds": None, "reason": reason})
              if args.json else f"symcal: {reason}: undecided")
        return EXIT_UNDECIDED
    space = load_space(args.posteriors) if args.posteriors else None
    report = describe_costs(costs, space, timeout=args.timeout)
    code = EXIT_DECIDED if report["holds"] is not None else EXIT_UNDECIDED
    if args.json:
        print(json.dumps(report, indent=1, default=str))
        return code
    print(f"scheme: {costs}")
    print(
        f"Theorem 3 condition (c_1K c_ji = c_1i c_jK - c_1j c_iK): {report['verdict'].upper()} ({report['status']})"
    )
    print(f"  {report['reason']}")
    if report["evidence"]:
        print(f"  evidence: {report['evidence']}")
    for v in report["violations"]:
        print(
            f"  violated at (j, i) = ({v['j']}, {v['i']}): c_1K c_ji = {v['lhs']}, c_1i c_jK - c_1j c_iK = "
            f"{v['rhs']}, residual {v['residual']}"
        )
    for v in report["undecided"]:
        print(f"  undecided at (j, i) = ({v['j']}, {v['i']}): residual {v['residual']} ({v['shown_by']})")
    if "warning" in report:
        print(f"warning: {report['warning']}")
    print("normalised form (1 <= j < i <= K-1): c_ji/c_1K = (c_jK/c_1K)(c_iK/c_1K)(c_1i/c_iK - c_1j/c_jK)")
    for r in report["normalised"]:
        print(f"  ({r['j']}, {r['i']}): {r['lhs c_ji/c_1K']} vs {r['rhs']}")
    print(f"relative scale c_1i/c_iK (i = 1..K-1): {report['relative_scale c_1i/c_iK']}")
    valid = "" if report["f0_star_valid"] else "   (NOT guaranteed optimal: the condition or c_1K > 0 fails)"
    print(f"f_0^* = {report['f0_star']}{valid}")
    if space is not None:
        print("ranking of the points by f_0^*:")
        for k, v in report["ranking"].items():
            print(f"  {k}: {v}")
    return code
