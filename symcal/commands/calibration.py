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

``--certify`` builds the verdict's certificate with the producer of ``symcal check --certify``
(:func:`symcal.certify.build` on the claim ``calibrated(...)`` of the file's loss, surrogate, link and
noise) and has :mod:`symcal.kernel` check it: kinds ``calibration-a`` / ``calibration-b`` for proofs and
refutations by methods (A) and (B); methods (S) and (Q) have no kernel certificate kind and say
``no certificate: ...``.  A rejected certificate makes the verdict ``unknown``.  Text and JSON gain
``certificate`` (``kind``, ``checked``, ``reason``, as in ``symcal check --json --certify``).
``--certificates DIR`` (implies ``--certify``) also writes the certificate file of
:mod:`symcal.certificate_files` as ``DIR/<id>.json``, the id from the file's ``"name"`` (by default its
stem: :func:`symcal.certificate_files.question_id`, e.g. ``calibration0000.weston_watkins_3``), for
``python -m symcal.kernel DIR`` to re-check without sympy or a solver.  The certificate is built in a
child under its own CPU budget (:func:`symcal.certify.budget` of ``min(--timeout, 30)``), as in
``symcal check``; running out leaves the verdict standing, uncertified.  Not with ``--region`` (no
single verdict); a file with ``"parameters"`` has no kernel certificate (``--certify`` says so,
``--certificates`` is refused).

Exit code: 0 when decided (proved or refuted; with ``--region``: the region is exact), 1 when
unknown, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
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
    sp.add_argument("--certify", action="store_true",
                    help="build the verdict's certificate and re-check it with symcal's small independent kernel "
                         "(methods (A) and (B); (S) and (Q) have none and say why); a rejected certificate makes "
                         "the verdict unknown")
    sp.add_argument("--certificates", metavar="DIR", default=None,
                    help="also write the certificate file into DIR (<id>.json, the id from the file's name; implies "
                         "--certify) for `python -m symcal.kernel DIR` to re-check without sympy or a solver")
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
    _certificate_options(args, kw)
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
    written: Path | None = None
    if args.certify:
        v, written = certify_verdict(kw, args.file, v, args.timeout, args.certificates)
    rep = report(s, v)
    if args.certify:
        rep["certificate"] = v.certificate.to_json()
    if args.certificates is not None:
        rep["certificate_file"] = str(written) if written is not None else None
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
        if args.certify:
            print(_certificate_line(v.certificate))
        if args.certificates is not None:
            print(f"certificate file: {written} (re-check: python -m symcal.kernel {args.certificates})"
                  if written is not None else "certificate file: none (no decisive verdict)")
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
    if args.certify:  # --certificates was refused before the decision (_certificate_options)
        rep["certificate"] = _parametric_check().to_json()
    if args.draw is not None:
        from symcal.calibration.draw import draw_parameters

        rep["drawing"] = str(draw_parameters(ans, args.draw))
    if args.json:
        print(json.dumps(rep, indent=1, default=str))
    else:
        print(ans.describe())
        if args.certify:
            print(_certificate_line(_parametric_check()))
        if args.draw is not None:
            print(f"drawing: {rep['drawing']}")
    return EXIT_DECIDED if ans.decided and ans.pieces else EXIT_UNKNOWN


# ---------------------------------------------------------------------------------------
# --certify / --certificates DIR: the verdict's kernel certificate (symcal.certify, symcal.kernel)
# ---------------------------------------------------------------------------------------

NO_KERNEL_KIND = ("has no kernel certificate kind (only methods (A) quadratic and (B) polyhedral have: "
                  "calibration-a, calibration-b)")

METHOD_NAMES = {"(S)": "(smooth convex)", "(Q)": "(quadratic over a polyhedral domain)"}


def _certificate_options(args: argparse.Namespace, kw: dict[str, Any]) -> None:
    """Validate ``--certify`` / ``--certificates DIR`` before anything is decided (one line, exit 2):
    not with ``--region`` (a region is several pieces and a proof over the rest, not one verdict), no
    ``--certificates`` for a file with ``"parameters"`` (a parametric answer has no kernel certificate),
    and DIR a folder symcal can create and write (the rules of ``symcal check --certificates``).
    ``--certificates`` implies ``--certify``."""
    from symcal.calibration.problem import invalid

    if args.certificates is not None:
        args.certify = True
    if not args.certify:
        return
    option = "--certificates" if args.certificates is not None else "--certify"
    if args.region:
        raise invalid(option, "with --region", f"{option} without --region",
                      "the region is several pieces and a proof over the rest, not one verdict with a certificate: "
                      f"run `symcal calibration FILE {option}{' DIR' if args.certificates is not None else ''}` for "
                      "the verdict")
    if args.certificates is None:
        return
    if kw.get("parameters"):
        raise invalid("--certificates", f"{args.file} (a file with \"parameters\")", "a file without \"parameters\"",
                      "a parametric answer is a list of pieces with no kernel certificate (--certify says so); "
                      "put a value in for the parameter first")
    folder = args.certificates
    if not folder.strip():
        raise invalid("--certificates", folder, "a folder name")
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise OSError("not writable")
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the name
        raise invalid("--certificates", folder, "a folder symcal can create and write", str(e)) from None


def _parametric_check() -> Any:
    from symcal.certify import CertificateCheck

    return CertificateCheck("none", False, "no certificate: a parametric answer (pieces of the parameter's range, "
                                           "decided with the parameter free) " + NO_KERNEL_KIND
                            + "; the answer stands, solver-trusted")


def _certificate_line(check: Any) -> str:
    """One line on the verdict's certificate, as the kernel found it."""
    if check.checked:
        return (f"certificate: {check.kind}, checked by symcal's kernel ({check.kernel} of {check.pieces} "
                f"piece{'s' if check.pieces != 1 else ''})")
    if check.rejected:
        return f"certificate: {check.kind}, REJECTED by symcal's kernel: {check.reason}"
    return f"certificate: {check.kind}, not kernel-checked: {check.reason}"


def method_of(v: Any) -> str:
    """The engine's method behind a decisive calibration verdict: ``"(A)"``, ``"(B)"``, ``"(S)"``,
    ``"(Q)"``, or ``""`` when the evidence does not say.  A refutation by (S) or (Q) names its method
    in the witness's ``certificate["method"]`` ((A) and (B) are told apart by form); a proof carries
    its precondition as :class:`symcal.calibration.engine.Precondition` evidence."""
    from symcal.verdicts import Composite

    def pieces(ev: Any) -> list[Any]:
        return [x for _, part in ev.parts for x in pieces(part)] if isinstance(ev, Composite) else [ev]

    w = v.witness
    if w is not None:
        method = str(w.certificate.get("method", ""))
        return method[:3] if method[:3] in ("(S)", "(Q)") else "(A)/(B)" if not method else ""
    names = [str(getattr(ev, "name", "")) for ev in (pieces(v.evidence) if v.evidence is not None else [])
             if getattr(ev, "kind", "") == "precondition"]
    for m in ("(S)", "(Q)", "(A)", "(B)"):  # (S)/(Q) first: a proof by them may also record (A)/(B) failing
        if any(n.startswith(m) for n in names):
            return m
    return ""


def question_claim(kw: dict[str, Any], path: str) -> Any:
    """The user's question as the claim ``calibrated(...)`` a library claim would be (its loss,
    surrogate, link and noise as read from the file), so that the producer and the certificate file
    are those of ``symcal check --certify --certificates``; its id from the file's name
    (:func:`symcal.certificate_files.question_id`)."""
    from symcal.certificate_files import question_id
    from symcal.claims import Citation, calibrated

    cid = question_id(kw["name"])
    return calibrated(cid, loss=kw["loss"], surrogate=kw["surrogate"], link=kw["link"], noise=kw["noise"],
                      cite=Citation("symcal calibration", str(path)),
                      statement=f"{kw['name']}: the surrogate with its link is calibrated for the loss over P "
                                f"(symcal calibration {path})")


def _build_and_judge(out: Any, claim: Any, seconds: float) -> Any:
    """In the certificate's child: the certificates of ``out`` built (:func:`symcal.certify.build`, at
    most ``seconds`` CPU) and checked by the kernel, carried back with their bodies."""
    from symcal import certify
    from symcal.certificate_files import CarriedOutcome

    built = certify.build(out, claim, None, seconds)
    judged = certify.judge(out, built)
    fields = {f: getattr(judged, f) for f in certify.CertifiedOutcome.__dataclass_fields__}
    return CarriedOutcome(**fields, built=tuple(built))


def certify_verdict(kw: dict[str, Any], path: str, v: Any, timeout: float,
                    folder: str | None = None) -> tuple[Any, Path | None]:
    """``v`` with its certificate checked by the kernel (``v.certificate``; a rejected certificate makes
    it ``unknown``, as in ``symcal check --certify``), and the certificate file written into
    ``folder`` (None when not asked or when the verdict is not decisive).

    The certificate is built and checked in a child limited to 1.5 times
    :func:`symcal.certify.budget` of ``min(timeout, 30)`` CPU seconds (the budget of ``symcal
    check``'s certificate phase); running out leaves the verdict standing, uncertified.  Methods (S)
    and (Q) have no kernel certificate kind: nothing is built, and the reason says so."""
    import dataclasses

    from symcal import certificate_files, certify
    from symcal.backends.base import Outcome
    from symcal.calibration.problem import invalid
    from symcal.limits import TimeLimitReached, run_limited
    from symcal.verdicts import Status

    out = Outcome(v.status, v.scope, v.backend, v.evidence, v.reason, v.cross_check, v.warnings)
    claim = question_claim(kw, path)
    method = method_of(v) if v.status in (Status.PROVED, Status.REFUTED) else ""
    carried: Any
    if v.status not in (Status.PROVED, Status.REFUTED):
        carried = certify.with_certificate(out, certify.CertificateCheck("none", False,
                                                                         "no decisive verdict to certify"))
    elif method in ("(S)", "(Q)"):
        why = (f"no certificate: method {method} {METHOD_NAMES[method]} {NO_KERNEL_KIND}; the verdict stands, "
               "solver-trusted")
        fields = {f: getattr(out, f) for f in Outcome.__dataclass_fields__}
        carried = certificate_files.CarriedOutcome(**fields, certificate=certify.CertificateCheck("none", False, why),
                                                   built=(("evidence", None, why),))
    else:
        seconds = certify.budget(out, min(timeout, 30.0))
        try:
            carried = run_limited(_build_and_judge, out, claim, seconds, timeout=1.5 * seconds,
                                  what="the certificate")
        except TimeLimitReached as e:
            carried = certify.with_certificate(out, certify.CertificateCheck(
                "none", False, f"no certificate: certification ran past its time limit ({e.seconds:g} CPU s)"))
        except Exception as e:  # noqa: BLE001 - the producer is untrusted: the decision stands, uncertified
            carried = certify.with_certificate(out, certify.CertificateCheck(
                "none", False, f"no certificate: certification failed: {type(e).__name__}: {e}"))
    written = None
    if folder is not None:
        try:
            written = certificate_files.write(folder, claim, None, carried)
        except OSError as e:
            raise invalid("--certificates", folder, "a folder symcal can write", str(e)) from None
    check = carried.certificate
    return dataclasses.replace(v, status=carried.status, reason=carried.reason, certificate=check), written
