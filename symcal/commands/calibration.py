"""``symcal calibration FILE``: is a surrogate with a link calibrated for a loss matrix over the
simplex (or a noise subset)?  See :mod:`symcal.calibration` for the definition and the method.

    symcal calibration examples/calibration/lee_lin_wahba_3.json
    symcal calibration examples/calibration/weston_watkins_3.json --json --timeout 30

The file is JSON::

    {"loss": [[0,1,1],[1,0,1],[1,1,0]],
     "surrogate": {"dim": 3, "domain": ["u1 + u2 + u3 = 0"],
                   "per_label": ["Max(0, 1 + u2) + Max(0, 1 + u3)", "...", "..."]},
     "link": "argmax",
     "noise": ["p1 >= p2"]}

``loss`` may also be ``{"name": "precision", "r": 3, "q": 2}`` (a paper loss); ``link`` is
``"argmax"``, ``"argmin"``, ``"sort-desc"``, ``{"linear": B, "offset": c}``,
``{"regions": [[...], ...]}`` (either with ``"names": [...]``, which then name the predictions in
the answer) or a Python file defining ``REGIONS`` (and ``NAMES``), imported in a child process
under the limits of a ``--theorems`` file; what it prints goes to stderr.

When cvc5 is installed, it re-decides every SMT answer behind a decisive verdict (as in
``symcal check``; ``--no-cross-check`` skips it): a disagreement makes the verdict ``unknown``.

With ``--region`` it reports instead the largest subset of P on which the surrogate is
calibrated: the polytopes of P where it fails (each with an exact counterexample) and a proof
over the rest (:mod:`symcal.calibration.region`).

With ``"parameters": {"tau": ["-1", "1"]}`` in the file (one parameter, its range; ``"(-1"`` /
``"1)"`` for open ends) the answer is a list of pieces of the range, each ``proved``, ``refuted``
or ``unknown`` for every value in it (:mod:`symcal.calibration.parameters`); JSON
``parameter_set``.  Exit 0 when every piece is decided.

``--draw OUT.png`` (or ``.svg``) draws the problem (:mod:`symcal.calibration.draw`): 3 labels the
simplex with the loss's trigger cells, the failure region of ``--region`` (methods (A), (B)) and the
counterexamples; 4 labels three slices ``p4 = 0, 1/4, 1/2``; with a parameter its pieces on a line.
It needs matplotlib (``pip install 'symcal[plot]'``).

Exit code: 0 when decided (proved or refuted; with ``--region``: the region is exact), 1 when
unknown, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from symcal.commands import seconds
from symcal.errors import invalid
from symcal.exact import fraction_str

EXIT_DECIDED = 0
EXIT_UNKNOWN = 1


def register(sub: Any) -> None:
    sp = sub.add_parser("calibration", help="is a surrogate with a link calibrated for a loss matrix over the "
                                            "simplex or a noise subset? (JSON file)")
    sp.add_argument("file", help="JSON file with loss, surrogate, link and optional noise")
    sp.add_argument("--timeout", type=seconds, default=60.0, help="CPU seconds for the decision (default 60)")
    sp.add_argument("--json", action="store_true", help="print a JSON object")
    sp.add_argument("--cross-check", action=argparse.BooleanOptionalAction, default=None,
                    help="have cvc5 re-decide every SMT answer behind a decisive verdict (default: when cvc5 is "
                         "installed; --cross-check insists on it)")
    sp.add_argument("--regret", action="store_true",
                    help="also compute how much regret the surrogate transfers: a bound excess target loss <= C * "
                         "(excess surrogate risk) ** e, exactly (binary margin losses: the psi-transform of Bartlett, "
                         "Jordan & McAuliffe 2006; methods (A), (B): e = 1/2, 1)")
    sp.add_argument("--region", action="store_true",
                    help="also find the largest subset of P on which it is calibrated: the pieces where it fails, "
                         "each with an exact counterexample, and a proof over the rest")
    sp.add_argument("--draw", metavar="OUT", default=None,
                    help="also draw the problem to OUT (.png or .svg): the simplex (3 labels) or slices (4) with "
                         "the loss's cells, the failure region and the counterexamples; with a parameter, its "
                         "pieces (needs matplotlib)")
    sp.set_defaults(fn=run)


def _show(x: Any) -> Any:
    from fractions import Fraction

    if isinstance(x, Fraction):
        return fraction_str(x)
    if isinstance(x, list | tuple):
        return [_show(v) for v in x]
    return x


def report(s: Any, v: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": v.claim_id, "status": v.status.value, "scope": v.scope, "seconds": round(v.seconds, 4),
        "backend": v.backend, "reason": v.reason or None,
        "problem": {"labels": s.n, "predictions": s.k, "dim": s.d, "link": s.link.kind,
                    "prediction_names": [s.pname(t) for t in range(s.k)],
                    "domain": s.c_text(), "P": s.p_text()},
        "counterexample": None,
        "evidence": v.evidence.to_json() if v.evidence is not None else None,
        "cross_check": v.cross_check.to_json() if v.cross_check is not None else None,
    }
    w = v.witness
    if w is not None:
        vals = w.values
        out["counterexample"] = {
            "p": [_show(vals[f"p{i}"]) for i in range(1, s.n + 1)],
            "u": [_show(vals[f"u{i}"]) for i in range(1, s.d + 1)],
            "pred": vals["pred"], "loss_of_pred": _show(vals["loss of pred"]),
            "optimal_loss": _show(vals["optimal loss"]), "optimal_predictions": vals["optimal predictions"],
            "rechecked": w.rechecked, "detail": w.detail,
        }
    return out


def _print(rep: dict[str, Any], v: Any) -> None:
    print(f"{rep['id']}: {rep['status']}  ({rep['seconds']:.2f} s)")
    from symcal.calibration import DEFINITION

    scope = rep["scope"]
    if scope.startswith(DEFINITION):  # the definition once, then what this check covered
        print(f"definition: {DEFINITION}")
        scope = scope[len(DEFINITION):].lstrip("; ")
    print(f"scope: {scope}")
    if rep["reason"]:
        print(f"reason: {rep['reason']}")
    if v.cross_check is not None:
        print(f"second opinion: {v.cross_check.summary()}")
    ce = rep["counterexample"]
    if ce:
        print("counterexample (re-checked exactly):")
        print(f"  p = ({', '.join(ce['p'])})")
        print(f"  u = ({', '.join(ce['u'])})  minimises risk_p")
        where = "on u + eps (c - u), eps -> 0" if "interior point c" in v.witness.certificate else "at u"
        print(f"  the link predicts {ce['pred']} {where}: conditional loss "
              f"{ce['loss_of_pred']}; optimal {ce['optimal_loss']} "
              f"(by {', '.join(map(str, ce['optimal_predictions']))})")
        for key, val in v.witness.certificate.items():
            if key not in ("mu", "nu", "eta", "max-terms"):
                print(f"  {key}: {val}")
    elif v.evidence is not None:
        print(f"evidence: {v.evidence.summary()}")
        parts = getattr(v.evidence, "parts", ())
        for label, ev in parts[:6]:
            print(f"  {label}: {ev.summary()}")
        if len(parts) > 6:
            print(f"  ... {len(parts) - 6} more (--json for all, with the SMT-LIB2 text)")


def run(args: argparse.Namespace) -> int:
    from symcal.calibration import check_file
    from symcal.calibration.problem import read_problem_file

    if args.draw is not None:
        from symcal.calibration.draw import _output
        from symcal.report.plot import unwritable_file

        _output(args.draw)  # a bad name is refused before anything is decided
        why = unwritable_file(args.draw)
        if why:
            raise invalid("--draw", args.draw, "a file symcal can write", why)
    kw = read_problem_file(args.file)
    if kw.get("parameters"):
        return run_parameters(args, kw)
    if args.region and (args.regret or args.draw is not None):  # run_region does neither: say so, not ignore it
        if args.regret:
            raise invalid("--regret", "with --region", "--region or --regret, not both in one run",
                          "run them one after the other")
        raise invalid("--draw", "with --region", "--draw without --region",
                      "--draw computes the region itself and hatches where the surrogate fails")
    if args.region:
        return run_region(args)
    if args.draw is not None and isinstance(kw["loss"], list) and len(kw["loss"]) not in (3, 4):
        # refused before the decision, not after it (its verdict would be lost with the error)
        raise invalid("--draw", f"{len(kw['loss'])} labels", "a problem with 3 labels (the simplex) or 4 (slices)")
    from symcal.progress import progress_bar

    bar = progress_bar("calibration", json=args.json)
    try:
        s, v = check_file(args.file, timeout=args.timeout, progress=bar, cross_check=args.cross_check)
    finally:
        if bar is not None:
            bar.close()
    rep = report(s, v)
    bound = None
    if args.regret:
        from symcal.calibration.transfer import Regret
        from symcal.calibration.transfer import bound as regret_bound
        from symcal.limits import TimeLimitReached, run_limited
        from symcal.verdicts import Status

        try:
            bound = run_limited(regret_bound, s, v, args.timeout, timeout=args.timeout, what="the regret bound",
                                cross_check=args.cross_check)
        except TimeLimitReached as e:
            bound = Regret(Status.UNKNOWN, reason=f"gave up after {e.seconds:g} s")
        rep["regret"] = bound.to_json()
    if args.draw is not None:
        rep["drawing"] = _draw(args, s, v)
    if args.json:
        print(json.dumps(rep, indent=1, default=str))
    else:
        _print(rep, v)
        if bound is not None:
            print(bound.describe())
        if args.draw is not None:
            print(f"drawing: {rep['drawing']}")
    decided = v.status.decisive and (bound is None or bound.status.decisive)
    return EXIT_DECIDED if decided else EXIT_UNKNOWN


def run_region(args: argparse.Namespace) -> int:
    """``--region``: the largest subset of P on which the surrogate is calibrated (exit 0 when exact)."""
    from symcal.calibration import calibrated_region
    from symcal.calibration.problem import read_problem_file

    kw = read_problem_file(args.file)
    r = calibrated_region(kw["loss"], kw["surrogate"], kw["link"], noise=kw["noise"], timeout=args.timeout,
                          name=kw["name"])
    if args.json:
        print(json.dumps(r.to_json(), indent=1, default=str))
    else:
        print(r.describe())
    return EXIT_DECIDED if r.status.decisive else EXIT_UNKNOWN


def _draw(args: argparse.Namespace, s: Any, v: Any) -> str:
    """Draw the problem: with the failure region of ``--region`` when method (A) or (B) applies, else
    the counterexample only (the picture says the region was not computed)."""
    from fractions import Fraction

    from symcal.calibration import calibrated_region
    from symcal.calibration.draw import draw_problem
    from symcal.calibration.engine import Polyhedral, Quadratic, polyhedral_form, quadratic_form
    from symcal.calibration.problem import read_problem_file

    if s.n not in (3, 4):
        from symcal.calibration.problem import invalid

        raise invalid("--draw", f"{s.n} labels", "a problem with 3 labels (the simplex) or 4 (slices)")
    ws = []
    if v.witness is not None:
        ws.append([Fraction(v.witness.values[f"p{i}"]) for i in range(1, s.n + 1)])
    region = None
    note = ""
    if isinstance(quadratic_form(s), Quadratic) or isinstance(polyhedral_form(s), Polyhedral):
        kw = read_problem_file(args.file)
        region = calibrated_region(kw["loss"], kw["surrogate"], kw["link"], noise=kw["noise"],
                                   timeout=args.timeout, name=kw["name"])
    else:
        note = (f"verdict {v.status.value}; region not computed for (S)"
                + (": only the counterexample is marked" if ws else ""))
    path = draw_problem(s, args.draw, region, ws, note)
    return str(path)


def run_parameters(args: argparse.Namespace, kw: dict[str, Any]) -> int:
    """A file with ``"parameters"``: the pieces of the parameter's range (exit 0 when all decided)."""
    from symcal.calibration.parameters import ParameterAnswer, decide_parameters
    from symcal.calibration.problem import invalid
    from symcal.limits import TimeLimitReached, run_limited

    if args.region or args.regret:
        raise invalid("--region" if args.region else "--regret", "a file with parameters",
                      "a file without \"parameters\" (put a value in for the parameter first)")
    try:
        ans = run_limited(decide_parameters, kw, args.timeout, args.cross_check, timeout=args.timeout,
                          what="the calibration check with a parameter")
    except TimeLimitReached as e:
        name = next(iter(kw["parameters"]))
        ans = ParameterAnswer(kw["name"], name, str(kw["parameters"][name]), "unknown", (), (), e.seconds,
                              {"reason": f"gave up after {e.seconds:g} s"})
    rep = ans.to_json()
    if args.draw is not None:
        from symcal.calibration.draw import draw_parameters

        rep["drawing"] = str(draw_parameters(ans, args.draw))
    if args.json:
        print(json.dumps(rep, indent=1, default=str))
    else:
        print(ans.describe())
        if args.draw is not None:
            print(f"drawing: {rep['drawing']}")
    return EXIT_DECIDED if ans.decided and ans.pieces else EXIT_UNKNOWN
