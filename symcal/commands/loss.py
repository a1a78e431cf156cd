"""``symcal loss FILE-or-NAME``: the certified rank, a checked low-rank decomposition, the
least-squares surrogate and the pred map of a loss matrix (Ramaswamy, Agarwal & Tewari 2013,
Theorem 3), for your own matrix (JSON) or one of the paper's losses at ``--r`` documents.

    symcal loss examples/loss.json
    symcal loss map --r 4 [--json]
    symcal loss pd --r 3 --labels total_orders
    symcal loss --table            # certified ranks of P@2, WTA, ERU, MAP, PD beside the paper's bounds
    symcal loss zero-one --n 4 --cc-dim [--json]   # brackets on the convex calibration dimension

Multiclass losses by name (``--n`` classes, or tags for hamming / subset-zero-one): zero-one, top-k
(``--k``), abstain, ordinal-abs, ordinal-sq, hamming, subset-zero-one.  ``--cc-dim`` adds
``cc_dimension: {lower, upper, exact, evidence}`` (Ramaswamy & Agarwal 2012/2016;
:mod:`symcal.calibration.dimension`), its search limited to the same ``--timeout``.

Everything runs in a child process limited to ``--timeout`` CPU seconds (default 60): past it,
one line "gave up after S s ... unknown" and exit 1.  Exit 1 too when a rank is not certified.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from symcal.commands import seconds
from symcal.errors import invalid
from symcal.exact import fraction_str

PRED_MAPS = {
    "precision": "top-q selection: the q highest scores u_i in the top q positions (Section 4)",
    "wta": "the highest score u_i first (Section 4, q = 1)",
    "eru": "sort u decreasingly (w > 1; increasingly for w < 1) (Section 5)",
    "map": "pred*: exact quadratic assignment argmax_sigma sum_{i>=j} u_ij / max(sigma(i), sigma(j)); "
           "pred-bar: sort the diagonal u_ii (Theorem 4, calibrated on P_reinforce)",
    "pd": "pred*: exact minimum weighted feedback arc set of (u_ij - u_ji)_+; pred-bar: Algorithm 1 "
          "(Theorem 7, calibrated on P_DAG)",
    "dcg": "sort u decreasingly (decreasing discounts)",
    "ndcg": "sort u decreasingly (decreasing discounts)",
}


def register(sub: Any) -> None:
    sp = sub.add_parser("loss", help="rank, decomposition, surrogate and pred map of a loss matrix (JSON or a "
                                     "paper loss: precision, wta, eru, map, pd, dcg, ndcg; or a multiclass loss: "
                                     "zero-one, top-k, abstain, ordinal-abs, ordinal-sq, hamming, subset-zero-one)")
    sp.add_argument("source", nargs="?", help="a JSON file {\"matrix\": [[...]]} or a loss name")
    sp.add_argument("--r", type=int, default=None, help="number of documents for a named loss (default 3)")
    sp.add_argument("--q", type=int, default=None, help="q of Precision@q (default 2)")
    sp.add_argument("--labels", default=None, help="PD labels: unit_dags, total_orders or weighted_dags")
    sp.add_argument("--empty", default=None, help="MAP/NDCG at the all-zero label: one, zero or error")
    sp.add_argument("--n", type=int, default=None, help="classes of a multiclass loss (tags for hamming and "
                                                         "subset-zero-one; default 3, tags 2)")
    sp.add_argument("--k", type=int, default=None, help="set size of top-k (default 2)")
    sp.add_argument("--table", action="store_true", help="the rank table for r = 3..6 beside the paper's bounds")
    sp.add_argument("--cc-dim", action="store_true", dest="cc_dim",
                    help="add cc_dimension: lower and upper bounds on the convex calibration dimension, with "
                         "certificates (Ramaswamy & Agarwal 2012/2016)")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--timeout", type=seconds, default=60.0,
                    help="CPU seconds for reading the matrix and certifying its rank (default 60)")
    sp.set_defaults(fn=run)


def _dec_summary(dec: Any) -> dict[str, Any]:
    return {"d": dec.d, "c": fraction_str(dec.c), "coordinates": list(dec.coords[:12])
            + (["..."] if dec.d > 12 else []), "source": dec.source}


def _cert(cert: Any) -> dict[str, Any]:
    rows, cols, det = cert.minors[0] if cert.minors else ((), (), None)
    if isinstance(det, tuple):  # affine dimension: (det at c = 0, slope in c)
        det = det[0]
    return {"value": cert.value, "certified": cert.certified, "lower": cert.lower, "upper": cert.upper,
            "minor_size": len(rows),
            "minor_determinant_bits": abs(int(det)).bit_length() if isinstance(det, int) else None,
            "minor_determinant": ("exact" if isinstance(det, int) else str(det)) if det is not None else None,
            "upper_bound_by": cert.decomposition.source if cert.decomposition else
            ("an exact identity (see notes)" if cert.certified else None),
            "seconds": round(cert.seconds, 3), "notes": list(cert.notes)}


def describe_file(path: str) -> dict[str, Any]:
    from symcal.ranking.loss_matrix import analyse

    return describe_analysis(analyse(Path(path)))


def describe_analysis(an: Any) -> dict[str, Any]:
    """The report of a :class:`~symcal.ranking.loss_matrix.LossAnalysis` (a file or a multiclass loss)."""
    n, k = an.matrix.shape
    d = an.decomposition
    return {
        "loss": an.matrix.name, "labels": n, "predictions": k,
        "rank": _cert(an.rank), "affine_dimension": _cert(an.affine),
        "decomposition": {**_dec_summary(d), "check": d.check(an.matrix).reason,
                          "alpha": {str(an.matrix.labels[a]): [fraction_str(x) for x in d.alpha_of(a)]
                                    for a in range(min(n, 20))},
                          "beta": {str(an.matrix.predictions[t]): [fraction_str(x) for x in d.beta_of(t)]
                                   for t in range(min(k, 20))}},
        "surrogate": f"psi*(y, u) = sum_{{i=1..{d.d}}} (u_i - alpha_yi)^2 on R^{d.d} (Theorem 3)",
        "pred_map": "pred*(u) in argmin_t u^T beta_t (Theorem 3); u^p = sum_y p_y alpha_y minimises p^T psi*",
    }


def describe_named(name: str, r: int, params: dict[str, Any], nl: Any = None) -> dict[str, Any]:
    from symcal.ranking.subset_losses import named_loss

    if nl is None:
        nl = named_loss(name, r, **params)
    rk = nl.matrix.rank()
    af = nl.matrix.affine_dimension(base=rk)
    value = rk.value if nl.bound_kind == "rank" else af.value
    dec = nl.decomposition
    return {
        "loss": nl.matrix.name, "labels": nl.matrix.shape[0], "predictions": nl.matrix.shape[1],
        "rank": _cert(rk), "affine_dimension": _cert(af),
        "paper_bound": {"value": nl.bound, "bounds": nl.bound_kind, "text": nl.bound_text,
                        "holds": value is not None and value <= nl.bound},
        "paper_decomposition": {**_dec_summary(dec), "check": dec.check(nl.matrix).reason} if dec else None,
        "tight_decomposition": _dec_summary(af.decomposition) if af.decomposition else None,
        "surrogate": f"psi*(y, u) = sum_{{i=1..{dec.d}}} (u_i - alpha_yi)^2 on R^{dec.d} with the paper's alpha "
                     f"(Theorem 3); the certified minimum is d = {af.value}",
        "pred_map": PRED_MAPS[name],
    }


def _print(report: dict[str, Any], indent: str = "") -> None:
    for key, value in report.items():
        if isinstance(value, dict):
            print(f"{indent}{key}:")
            _print(value, indent + "  ")
        elif isinstance(value, list):
            print(f"{indent}{key}: {', '.join(str(v) for v in value) if value else '-'}")
        else:
            print(f"{indent}{key}: {value}")


def _table(rows: list[dict[str, Any]], as_json: bool) -> int:
    if as_json:
        print(json.dumps(rows, indent=1, default=str))
        return 0
    head = f"{'loss':<10} {'params':<24} {'r':>2} {'n x k':>13} {'rank':>5} {'d':>4} {'paper':>6} {'bounds':<17} " \
           f"{'holds':<5} {'s':>6}"
    print(head)
    print("-" * len(head))
    for row in rows:
        params = ",".join(f"{k}={v}" for k, v in row["params"].items())
        size = f"{row['labels']} x {row['predictions']}"
        print(f"{row['loss']:<10} {params:<24} {row['r']:>2} {size:>13} "
              f"{row['rank']!s:>5} {row['affine_dimension']!s:>4} {row['paper_bound']:>6} "
              f"{row['paper_bound_kind']:<17} {'yes' if row['bound_holds'] else 'NO':<5} {row['seconds']:>6.2f}")
    print("\nrank = certified rank of L; d = certified affine dimension min{d : L = A B^T + c 1 1^T} (Theorem 3); "
          "'bounds' says which one the paper's number is about.")
    return 0


def _cc_dim(matrix: Any, timeout: float, surrogates: Any = None) -> dict[str, Any]:
    """``cc_dimension`` for ``--cc-dim``: the search gets what is left of the child's CPU budget."""
    import time

    from symcal.calibration.dimension import cc_dimension

    left = max(1.0, 0.85 * timeout - time.process_time() - 1.0)
    return cc_dimension(matrix, cpu_seconds=left, surrogates=surrogates).to_json()


def _work(args: argparse.Namespace) -> Any:
    """Everything ``symcal loss`` computes (run in a child limited to ``--timeout``)."""
    from symcal.calibration.dimension import MULTICLASS_LOSSES, known_surrogates, multiclass_loss
    from symcal.ranking.subset_losses import LOSS_NAMES, named_loss, rank_table

    names = (*LOSS_NAMES, *MULTICLASS_LOSSES)
    cc = getattr(args, "cc_dim", False)
    n_opt, k_opt = getattr(args, "n", None), getattr(args, "k", None)
    if args.table:
        if cc:
            raise invalid("--cc-dim", True, "a loss file or name (--table has its own rows; see bench/cc_dim.py)")
        return rank_table()
    if not args.source:
        raise invalid("source", None, "a JSON loss-matrix file or a loss name (" + ", ".join(names) + ")",
                      "or pass --table")
    if args.source not in MULTICLASS_LOSSES and (n_opt is not None or k_opt is not None):
        raise invalid("--n/--k", args.source, "a multiclass loss name (" + ", ".join(MULTICLASS_LOSSES)
                      + ") when these options are given")
    if args.source in MULTICLASS_LOSSES:
        from symcal.ranking.loss_matrix import analyse

        if args.r is not None or args.q is not None or args.labels is not None or args.empty is not None:
            raise invalid("--r/--q/--labels/--empty", args.source, "a ranking loss name when these options are "
                          "given (multiclass losses take --n and --k)")
        mat = multiclass_loss(args.source, n_opt, k=k_opt)
        report = describe_analysis(analyse(mat))
        if cc:
            report["cc_dimension"] = _cc_dim(mat, args.timeout, known_surrogates(args.source, n_opt))
        return report
    if args.source in LOSS_NAMES:
        params: dict[str, Any] = {}
        if args.q is not None:
            params["q"] = args.q
        elif args.source == "precision":
            params["q"] = 2
        if args.labels is not None:
            params["labels"] = args.labels
        if args.empty is not None:
            params["empty"] = args.empty
        r = args.r if args.r is not None else 3
        nl = named_loss(args.source, r, **params)
        report = describe_named(args.source, r, params, nl)
        if cc:
            report["cc_dimension"] = _cc_dim(nl.matrix, args.timeout)
    else:
        if args.r is not None or args.q is not None or args.labels is not None or args.empty is not None:
            raise invalid("--r/--q/--labels/--empty", args.source, "a loss name when these options are given")
        if not _exists(args.source):
            raise invalid("source", args.source, "an existing JSON file or a loss name (" + ", ".join(names) + ")")
        from symcal.commands.common import input_file

        input_file("source", args.source, 'a JSON file with a "matrix" entry')
        if cc:
            from symcal.ranking.loss_matrix import LossMatrix, analyse

            mat = LossMatrix.from_file(args.source)
            report = describe_analysis(analyse(mat))
            report["cc_dimension"] = _cc_dim(mat, args.timeout)
        else:
            report = describe_file(args.source)
    return report


def _exists(text: str) -> bool:
    """``Path(text).exists()``, False for a name the system refuses (too long, a NUL byte)."""
    try:
        return Path(text).exists()
    except (OSError, ValueError):
        return False


def run(args: argparse.Namespace) -> int:
    from symcal.limits import TimeLimitReached, run_limited
    from symcal.ranking.loss_matrix import flint_available

    timeout = getattr(args, "timeout", 60.0)
    try:  # reading, validating and certifying: one CPU budget in a child that is really stopped
        result = run_limited(_work, args, timeout=timeout, what="the loss-matrix certificate")
    except TimeLimitReached:
        hint = "" if flint_available() else " (pip install 'symcal[flint]' certifies large matrices in seconds)"
        what = "the rank and the cc-dim bracket were" if getattr(args, "cc_dim", False) else "the rank was"
        reason = f"gave up after {timeout:g} s: {what} not certified within --timeout {timeout:g}{hint}"
        print(json.dumps({"status": "unknown", "reason": reason}) if args.json else f"symcal: {reason}: unknown")
        return 1
    if args.table:
        return _table(result, args.json)
    if args.json:
        print(json.dumps(result, indent=1, default=str))
    else:
        _print(result)
    return 0 if result["rank"]["certified"] and result["affine_dimension"]["certified"] else 1
