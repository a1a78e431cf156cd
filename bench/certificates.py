"""Farkas certificates of the ordering principle: the chain of ordering lemmas against the
generic learning search.

A query that says of each of n terms "it is not a least one" is unsat because a finite family has
a least member (the ordering principle).  ``symcal.certify`` recognises the family and writes the
resolution proof of the ordering principle as a chain of about n**3 / 3 lemmas; the baseline is
the same producer with the recognition switched off (the DPLL search that learns a lemma from
every closed branch, which needs exponentially many).  Both times are CPU seconds of building
the certificate, including the producer's own kernel check of it; the kernel's separate check is
in the note.  Also the piece of ``duchi2010.lemma16.all_weights`` at m = 4 whose refutation is
the ordering principle over the 24 permutations' costs (the cyclic graph).

Run alone: ``python -m bench.certificates`` (add ``--full`` for n = 8 and the Lemma 16 piece).
"""

from __future__ import annotations

import sys
import time
from typing import Any

CAP = 120.0


def ordering_query(n: int, op: str = "<=") -> str:
    """SMT-LIB2: for every j, not (x_j op x_i for every i != j)."""
    xs = [f"x{i}" for i in range(n)]
    lines = [f"(declare-fun {x} () Real)" for x in xs]
    for j in range(n):
        atoms = " ".join(f"({op} {xs[j]} {xs[i]})" for i in range(n) if i != j)
        lines.append(f"(assert (not (and {atoms})))")
    return "\n".join([*lines, "(check-sat)"])


def _lemma16_piece() -> str:
    from symcal.backends import Budget, decide
    from symcal.certify import _pieces
    from symcal.library import load_bundled

    claim = next(c for c in load_bundled() if c.id == "duchi2010.lemma16.all_weights")
    out = decide(claim, 4, Budget(120.0))
    return next(ev.smtlib for label, ev in _pieces(out.evidence) if label.endswith("cyclic"))


def _build(smtlib: str, cap: float, ordering: bool) -> tuple[float, str, dict[str, Any] | None]:
    """(CPU seconds, outcome, certificate) of the producer, with or without the ordering lemmas."""
    from symcal import certify

    real = certify._least_families
    if not ordering:
        certify._least_families = lambda q: []
    start = time.process_time()
    try:
        cert = certify.farkas_certificate(smtlib, cap)
        return time.process_time() - start, f"{len(cert['tree'].get('lemmas', []))} lemmas", cert
    except certify.GiveUp as e:
        return time.process_time() - start, f"gave up ({str(e)[:60]})", None
    finally:
        certify._least_families = real


def rows(quick: bool = False) -> list[dict[str, Any]]:
    from symcal.kernel import check

    cases = [(f"n = {n} terms, {'least' if op == '<=' else 'greatest'} ({op})", ordering_query(n, op), n)
             for n, op in ((5, "<="), (6, ">="), (7, "<="))]
    if not quick:
        cases += [("n = 8 terms, least (<=)", ordering_query(8), 8)]
        cases += [("Lemma 16, m = 4, cyclic: 24 permutation costs", _lemma16_piece(), 24)]
    out = []
    for size, text, n in cases:
        secs, got, cert = _build(text, CAP, True)
        k0 = time.process_time()
        ok = cert is not None and check(cert)["checked"]
        kernel = time.process_time() - k0
        bsecs, bgot, _ = _build(text, CAP, False)
        capped = bgot.startswith("gave up")
        expected = n + sum(range(2, n))
        out.append({"what": "Farkas certificate of the ordering principle: ordering lemmas vs generic learning search",
                    "size": size, "baseline_s": bsecs, "baseline_capped": capped, "symcal_s": secs,
                    "target": "kernel-checked", "met": ok,
                    "note": f"symcal {got} (n + ... = {expected}), kernel check {kernel:.1f} s; baseline {bgot}"})
        print(f"  .. {size}: symcal {secs:.2f} s ({got}), baseline {bsecs:.2f} s ({bgot})", file=sys.stderr)
    return out


if __name__ == "__main__":
    for r in rows(quick="--full" not in sys.argv):
        print(r)
