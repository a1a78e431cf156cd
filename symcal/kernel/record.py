"""What a certificate file says besides its certificate, checked against the certificate.

A file written by ``symcal check --certificates DIR`` (format in ``symcal/certificate_files.py``)
records, next to the certificate ``body`` the kernel checks (:func:`symcal.kernel.check`), what that
body is claimed to establish: a ``status``, a ``statement``, a ``size``, the certificate's ``kind``
and the ``reductions`` between the claim and the body.  :func:`check` does not read these; a file
whose record says more than its body proves must still be rejected, so :func:`record_problem` checks
each of them against the body alone:

``statement``   equal to :func:`statement_of` the body (the body with its proof parts -- Farkas trees,
                minimisers, box-cover trees -- left out), or, for a file written before every body
                had one, null or the older shape (an identity's pairs, a node claim's formulas, a
                calibration claim's loss, link, noise and surrogate); a body that states its claim
                (``identity``, ``node``, ``calibration-a``, ``calibration-b``) never goes with a null
                statement;
``status``      a bare ``witness`` with formulas that fail is ``refuted``, one with only formulas that
                hold is ``witnessed``; a bare calibration certificate with a ``refutation`` is
                ``refuted``; every other body (a case tree, an identity, a node claim, an
                enumeration's ``all``...) is ``proved`` and contains no refutation;
``size``        a ``node`` body's size ``m`` is the file's ``size``;
``kind``        the record's kind is the body's kind, or the kinds of an ``all`` body's parts joined
                by ``+`` (``none`` without a body);
``reductions``  a step marked ``checked_by_kernel`` is one the kernel re-derives from the body: the
                node-claim steps (node symmetry, difference variables, one query per tuple, a subset
                of the hypotheses, the base-term split) only with a ``node`` body, the calibration
                steps only with a ``calibration-a`` / ``calibration-b`` (or ``quadratic``) piece, and
                none while a piece of the evidence has no certificate.

Free text (``text``, ``scope``, ``reason``, a step's ``note``) and the claim's id are not statements
the kernel can check; they are shown, not trusted.
"""

from __future__ import annotations

from typing import Any

__all__ = ["statement_of", "legacy_statement", "record_problem", "name_problem", "CHECKED_STEPS"]

_NODE = frozenset({"node"})
# the reduction steps the kernel re-derives, and the body kinds whose check covers them
CHECKED_STEPS: dict[str, frozenset[str]] = {
    "node symmetry (the failing tuple fixed)": _NODE,
    "difference variables (weights read only as a_ij - a_ji)": _NODE,
    "one query per conclusion tuple": _NODE,
    "a subset of the hypothesis instances (a weakening)": _NODE,
    "conclusion split into a base term and one term per other node": _NODE,
    "calibration reduction": frozenset({"calibration-a", "calibration-b"}),
    "calibration precondition (A)": frozenset({"quadratic", "calibration-a"}),
}

# the parts of each kind of body that state the claim (the rest is proof)
_STATED: dict[str, tuple[str, ...]] = {
    "farkas": ("smtlib",),
    "identity": ("pairs", "functions"),
    "witness": ("values", "holds", "fails"),
    "interval": ("lhs", "relation", "rhs", "box", "conditions"),
    "quadratic": ("vars", "psi", "domain"),
    "matrix": ("rows", "rank", "decomposition"),
    "node": ("m", "variables", "hypotheses", "conclusions"),
    "calibration-b": ("loss", "predictions", "link", "noise", "surrogate"),
}


def statement_of(body: Any) -> Any:
    """What ``body`` states, without its proof: a JSON-able value (None for a malformed body)."""
    if not isinstance(body, dict):
        return None
    kind = body.get("kind")
    if kind == "all":
        parts = body.get("parts")
        if not isinstance(parts, list) or not all(isinstance(p, list) and len(p) == 2 for p in parts):
            return None
        return {"kind": "all", "parts": [[label, statement_of(part)] for label, part in parts]}
    if kind == "calibration-a":
        return _calibration(body)
    if kind == "identity":
        return {"kind": "identity", "pairs": body.get("pairs"), "functions": body.get("functions", [])}
    if kind in _STATED:
        return {"kind": kind} | {k: body[k] for k in _STATED[kind] if k in body}
    return None


def _calibration(body: dict[str, Any]) -> dict[str, Any]:
    quad = body.get("quadratic") if isinstance(body.get("quadratic"), dict) else {}
    return {k: body.get(k) for k in ("kind", "loss", "predictions", "link", "noise")} | {
        "psi": quad.get("psi"), "domain": quad.get("domain"), "vars": quad.get("vars")}


def _pieces(body: Any) -> list[Any]:
    """The top-level pieces of a body (an ``all`` body's parts, else the body itself)."""
    if isinstance(body, dict) and body.get("kind") == "all" and isinstance(body.get("parts"), list):
        return [p[1] for p in body["parts"] if isinstance(p, list) and len(p) == 2]
    return [body]


def legacy_statement(body: Any) -> Any:
    """The statement files carried before every body had one (``symcal/certificate_files.py``'s
    first shape): a single identity's or node claim's, or the one calibration claim's; else None."""
    pieces = [p for p in _pieces(body) if isinstance(p, dict)]
    calibration = [p for p in pieces if p.get("kind") == "calibration-a"]
    if len(calibration) == 1:
        return _calibration(calibration[0])
    if len(pieces) != 1 or body is not pieces[0]:
        return None
    if body.get("kind") in ("identity", "node"):
        return statement_of(body)
    return None


def _refutes(piece: Any) -> bool:
    """A witness with failing formulas, or a calibration certificate's refutation."""
    return bool(piece.get("fails")) if piece.get("kind") == "witness" else piece.get("refutation") is not None


def _witnesses(body: Any) -> list[dict[str, Any]]:
    """Every witness and calibration certificate inside a body (through ``all`` parts)."""
    if not isinstance(body, dict):
        return []
    if body.get("kind") in ("witness", "calibration-a", "calibration-b"):
        return [body]
    if body.get("kind") == "all":
        return [w for p in _pieces(body) for w in _witnesses(p)]
    return []


def _status_problem(status: Any, body: Any) -> str | None:
    if body.get("kind") == "witness":
        fails = body.get("fails") or []
        want = "refuted" if fails else "witnessed"
        if status != want:
            return (f"status {status!r}, but a witness whose formulas {'fail' if fails else 'all hold'} at a "
                    f"point shows {want!r}")
        return None
    if body.get("kind") in ("calibration-a", "calibration-b") and _refutes(body):
        return None if status == "refuted" else f"status {status!r}, but the certificate refutes calibration " \
                                                "at a distribution (status 'refuted')"
    if status != "proved":
        return f"status {status!r}, but a {body.get('kind')} certificate proves (status 'proved')"
    if any(_refutes(w) for w in _witnesses(body)):
        return "status 'proved', but a part of the certificate is a refutation (a failing formula or distribution)"
    return None


def _kind_problem(kind: Any, body: Any) -> str | None:
    if body is None:
        return None if kind in ("none", None) else f"certificate kind {kind!r} without a certificate body"
    allowed = {body.get("kind")}
    if body.get("kind") == "all":
        allowed.add("+".join(sorted({str(p.get("kind")) for p in _pieces(body) if isinstance(p, dict)})))
    if kind not in allowed:
        return f"certificate kind {kind!r}, but the body is {' / '.join(sorted(map(str, allowed)))}"
    return None


def _reductions_problem(steps: Any, body: Any, missing: Any) -> str | None:
    if not isinstance(steps, list):
        return None  # the caller rejects malformed steps
    kinds = {p.get("kind") for p in _pieces(body) if isinstance(p, dict)} if body is not None else set()
    for s in steps:
        if not (isinstance(s, dict) and s.get("checked_by_kernel") is True):
            continue
        covers = CHECKED_STEPS.get(s.get("kind"))  # type: ignore[arg-type]
        if covers is None:
            return f"reduction step {s.get('kind')!r} is marked checked, but the kernel re-derives no such step"
        if missing:
            return f"reduction step {s.get('kind')!r} is marked checked, but a piece has no certificate"
        if not kinds or (kinds - covers if covers is _NODE else not kinds & covers):
            return f"reduction step {s.get('kind')!r} is marked checked, but no {'/'.join(sorted(covers))} " \
                   "certificate re-derives it"
    return None


def name_problem(file_name: str, data: dict[str, Any]) -> str | None:
    """Why a file's name is not ``<claim>.json`` / ``<claim>@m<size>.json`` for the claim and size it
    records (an edited ``claim`` or ``size`` field); None when it is."""
    claim, size = data.get("claim"), data.get("size")
    want = f"{claim}.json" if size is None else f"{claim}@m{size}.json"
    if not isinstance(claim, str) or file_name != want:
        return f"the file name {file_name!r} is not {want!r}, the name of the claim and size it records"
    return None


def record_problem(data: dict[str, Any]) -> str | None:
    """Why the record of a certificate file (its status, statement, size, kind and reductions)
    claims more than its certificate body proves; None when it does not (the body itself is
    checked by :func:`symcal.kernel.check`)."""
    cert = data.get("certificate")
    if not isinstance(cert, dict):
        return "no certificate record"
    steps = data.get("reductions", [])
    if isinstance(steps, list) and all(isinstance(s, dict) for s in steps):
        want = "none" if not steps else "checked" if all(s.get("checked_by_kernel") is True for s in steps) \
            else "trusted"
        if data.get("reduction") != want:
            return f"reduction {data.get('reduction')!r}, but its steps make it {want!r}"
    body, recorded = cert.get("body"), data.get("statement")
    if body is not None and not isinstance(body, dict):
        return "the certificate body is not an object"
    if body is None:
        if recorded is not None:
            return "a statement without a certificate body"
    else:
        legacy = legacy_statement(body)
        if recorded is None:  # every calibration-b file was written with its statement
            if legacy is not None or any(isinstance(p, dict) and p.get("kind") == "calibration-b"
                                         for p in _pieces(body)):
                return "the statement is missing, but the certificate states one"
        elif recorded != statement_of(body) and recorded != legacy:
            return "the statement differs from what the certificate states"
        why = _status_problem(data.get("status"), body)
        if why is not None:
            return why
    size = data.get("size")
    if size is not None and (type(size) is not int or size < 0):
        return f"size {size!r}: expected null or a non-negative integer"
    for piece in _pieces(body):
        if isinstance(piece, dict) and piece.get("kind") == "node" and piece.get("m") != size:
            return f"size {size!r}, but the node certificate is at m = {piece.get('m')!r}"
    why = _kind_problem(cert.get("kind"), body)
    if why is not None:
        return why
    return _reductions_problem(data.get("reductions", []), body, cert.get("missing"))
