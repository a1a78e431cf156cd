"""``symcal list`` and ``symcal show``: the claims of the library (or of ``--theorems`` files).

    symcal list [PATTERN] [--theorems FILE [--with-library]]
    symcal show ID [--latex] [--theorems FILE [--with-library]]

``list`` prints one line per claim (id, expected outcome, location in its paper, ``[finding: CLASS]``
for a recorded erratum) and the count; ``show`` prints one claim's statement, citation,
hypotheses, sizes, expected outcome, how it is checked and its finding with its class, or with ``--latex`` its
statement as LaTeX.  Both exit 0, or 2 on bad input.
"""

from __future__ import annotations

import argparse
from typing import Any

from symcal.commands import common
from symcal.errors import invalid

__all__ = ["register", "run_list", "run_show"]


def register(sub: Any) -> None:
    sp = sub.add_parser("list", help="list claims")
    sp.add_argument("pattern", nargs="?")
    common.add_theorems_options(sp)
    sp.set_defaults(fn=run_list)

    sp = sub.add_parser("show", help="show one claim: statement, hypotheses, citation, how it is checked")
    sp.add_argument("id")
    sp.add_argument("--latex", action="store_true", help="print the claim's statement as LaTeX")
    common.add_theorems_options(sp)
    sp.set_defaults(fn=run_show)


def run_list(args: argparse.Namespace) -> int:
    from symcal.library import select

    if args.pattern is not None and not args.pattern.strip():  # as check does: an empty PATTERN is a mistake
        raise invalid("pattern", args.pattern, "a claim id, an id prefix or a glob", "leave it out to list every claim")
    claims = select(common.load_claims(args), [args.pattern] if args.pattern is not None else [])
    width = max((len(c.id) for c in claims), default=2)
    for c in claims:
        exp = c.expected.value if c.expected else "-"
        flag = f"  [finding: {c.finding.finding_class}]" if c.finding else ""
        print(f"{c.id.ljust(width)}  {exp:<22} {c.citation.location}{flag}")
    print(f"\n{len(claims)} claims")
    return common.EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    from symcal.library import select

    claims = common.load_claims(args)
    found = [c for c in claims if c.id == args.id]
    if not found:
        select(claims, [args.id])  # raises with near matches
        raise invalid("id", args.id, "the exact id of one claim", "see 'symcal list'")
    c = found[0]
    if getattr(args, "latex", False):  # the statement as LaTeX (symcal.report.latex)
        from symcal.report.latex import claim_latex

        print(claim_latex(c))
        return common.EXIT_OK
    print(c.id)
    print(f"  statement : {c.statement}")
    print(f"  citation  : {c.citation.paper}, {c.citation.location}")
    if c.citation.quote:
        print(f"  quote     : \"{c.citation.quote}\"")
    print(f"  kind      : {c.kind}")
    if c.hypothesis_names:
        print(f"  hypotheses: {', '.join(c.hypothesis_names)}")
        spec = c.spec
        hyps = getattr(spec, "hypotheses", None) or getattr(spec, "constraints", None) or {}
        for name, h in hyps.items():
            text = getattr(h, "text", "")
            if text:
                print(f"      {name}: {text}   (every ordered {h.arity}-tuple of distinct nodes)")
    concl = getattr(c.spec, "conclusion", None)
    if concl is not None and getattr(concl, "text", ""):
        print(f"  conclusion: {concl.text}   (every ordered {concl.arity}-tuple)")
    if c.sizes:
        scope = (f"all {c.sizes.name} >= {c.sizes.minimum}" if c.strategy == "local_lemma"
                 else f"{c.sizes.name} = {c.sizes.default[0]}..{c.sizes.default[1]} by default "
                      f"(any {c.sizes.name} >= {c.sizes.minimum} with --size)")
        print(f"  sizes     : {scope}")
    print(f"  expected  : {c.expected.value if c.expected else '-'}")
    print(f"  checked by: {c.method}")
    if c.finding:
        print(f"  finding   : {c.finding.what}")
        print(f"  class     : {c.finding.finding_class}")
        print(f"  counterex.: {c.finding.counterexample}")
        print(f"  corrected : {c.finding.corrected}")
    return common.EXIT_OK
