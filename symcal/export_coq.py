"""Certified claims as Coq files that ``coqc`` re-checks (``symcal export --coq DIR``).

The kernel (:mod:`symcal.kernel`) is small, but it is still our code.  This module writes the
same certificates the kernel accepts as Coq proof scripts, so that Coq's kernel becomes a
third, independent checker.  Nothing here is trusted: a wrong translation makes ``coqc``
fail, never pass.  What must be right is the *statement* of each Coq lemma, so it is
translated mechanically from the very text the kernel reads, and each file says in a
comment what the statement is and what it is not.

Translation, per certificate kind (all over Coq's real numbers ``R``, ``Require Import
Reals Lra``):

* ``farkas`` (an unsat SMT-LIB2 query): a lemma ``<name>_query``, the query itself
  (``forall vars, A1 -> ... -> An -> False``), proved by replaying the certificate: a
  ``destruct (Rlt_le_dec p 0)`` / ``(Rle_lt_dec p 0)`` per split of the case tree, the kernel's
  unit propagation as one ``lra`` step per forced literal (``clear -`` all but the assertion
  that forces it and the literals it needs, so ``lra`` never faces the query's disjunctions),
  and at each leaf the products of literals and squares the Positivstellensatz multipliers
  use (``Rmult_le_pos``, ``Rmult_lt_0_compat``, ``pow2_ge_0``) and a last ``lra`` over the
  leaf's literals only (Micromega finds the combination again and checks it by reflection
  over Q).  When the last assertion is ``(not C)`` (the negated claim), a second lemma
  ``<name>`` states the claim's own form ``forall vars, A1 -> ... -> C``, derived from the
  first by deciding ``C`` atom by atom (``Rlt_dec``, ...; no classical axiom).  A quotient
  ``a / b`` by a non-constant ``b`` gets the fact ``b = 0 \\/ a / b * b = a`` (SMT-LIB leaves
  ``a / 0`` unspecified), an ``ite`` on one comparison the fact ``(c /\\ t' = t) \\/ (~ c /\\ t'
  = e)``; ``Int`` constants are integers ``(n : Z)`` used as ``IZR n``.
* ``identity``: ``forall vars, d1 <> 0 -> ... -> lhs = rhs`` with one hypothesis per
  non-constant divisor, proved by ``field``.
* ``witness``: an exact counterexample of an implication is ``~ (forall vars, H1 -> ... -> C)``,
  an example of an existence claim ``exists vars, C1 /\\ ...``; the proof instantiates the
  rational values and closes the ground goal with ``lra`` (exact rational arithmetic,
  evaluated by ``vm_compute`` inside Micromega's checker).
* ``interval`` (ball arithmetic) has no Coq counterpart here: such claims are skipped.

A claim is exported only when *every* piece of its evidence has a certificate that the
kernel accepts; the others are listed, with the reason, in ``DIR/README.md``.  A node claim
(``node_implies``) is decided through reductions (difference variables, node symmetry, a
split into per-node terms, a local lemma for all sizes): its Coq lemmas are the queries
symcal decided, and its file and the index say that the reduction from the claim to them is
symcal's argument, not formalised in Coq.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symcal.certify import literals
from symcal.kernel.lra import Query, constraint_of, covers, free_names, literal, read_query, simplify
from symcal.kernel.poly import Poly
from symcal.kernel.sexpr import parse
from symcal.kernel.terms import RELATIONS, Unsupported, expand_lets, is_bool, show

if TYPE_CHECKING:
    from symcal.claims.core import Claim
    from symcal.verdicts import Verdict

__all__ = ["CoqFile", "ExportResult", "CoqTerms", "Untranslatable", "export_coq", "export_certificates",
           "farkas_lemma", "farkas_lemmas",
           "identity_lemma", "witness_lemma", "run_coqc", "coqc_available"]

# One lemma's text beyond this is not written: the largest replay that compiled was 67 KB (about
# 10 s, 0.5 GB); a 4.4 MB one (duchi2010.definition8 at m = 6) made coqc exhaust 24 GB.
MAX_LEMMA_CHARS = 100_000
# An assertion with at least this many comparisons is used atom by atom (``tauto``), not by ``lra``.
ATOMWISE_ATOMS = 8
# A branch of a case tree whose replay is longer than this becomes a lemma of its own.
SUBTREE_CHARS = 30_000

PRELUDE = """Require Import Reals Lra Psatz.
Open Scope R_scope.

(* Facts about the quotients and if-then-else terms of a query (SMT-LIB leaves a / 0
   unspecified; any value of it satisfies the first disjunct). *)
Lemma symcal_div : forall a b : R, b = 0 \\/ (a / b) * b = a.
Proof. intros a b. destruct (Req_dec b 0) as [E|E]; [left; exact E | right; field; exact E]. Qed.

(* A claim A1 -> ... -> C from its query A1 -> ... -> ~ C -> False: C is decided atom by atom
   (Rlt_dec, Rle_dec, ...), so no classical axiom is added. *)
Lemma symcal_nn : forall P : Prop, P \\/ ~ P -> (~ P -> False) -> P.
Proof. intros P [p|np] h; [exact p | destruct (h np)]. Qed.
Lemma symcal_em_and : forall A B : Prop, A \\/ ~ A -> B \\/ ~ B -> (A /\\ B) \\/ ~ (A /\\ B).
Proof. tauto. Qed.
Lemma symcal_em_or : forall A B : Prop, A \\/ ~ A -> B \\/ ~ B -> (A \\/ B) \\/ ~ (A \\/ B).
Proof. tauto. Qed.
Lemma symcal_em_imp : forall A B : Prop, A \\/ ~ A -> B \\/ ~ B -> (A -> B) \\/ ~ (A -> B).
Proof. tauto. Qed.
Lemma symcal_em_iff : forall A B : Prop, A \\/ ~ A -> B \\/ ~ B -> (A <-> B) \\/ ~ (A <-> B).
Proof. tauto. Qed.
Lemma symcal_em_not : forall A : Prop, A \\/ ~ A -> (~ A) \\/ ~ (~ A).
Proof. tauto. Qed.
(* False from Z : e = 0, when e is a non-zero constant, or a multiple of some d of a hypothesis
   d <> 0 (both by lra, monomials as atoms), or a product or power of such factors. *)
Ltac symcal_zero Z :=
  first [ lra
        | match goal with H : ?d <> 0 |- _ => apply H; lra end
        | lazymatch type of Z with
          | _ * _ = 0 => apply Rmult_integral in Z; destruct Z as [Z|Z]; symcal_zero Z
          | ?a ^ ?n = 0 => let W := fresh "Z" in apply (pow_nonzero a n); [intro W; symcal_zero W | exact Z]
          end ].
(* A side condition e <> 0 of field, from a hypothesis d <> 0 with d = 0 when e = 0; failing
   that, from e = 0 as written or ring-simplified (field leaves 1 - p + p <> 0 of the nested
   quotient 1 / (1 + p / (1 - p)), and g2 pi2 <> 0 as g pi + g2 pi2 - g pi <> 0). *)
Ltac symcal_nonzero :=
  match goal with
  | H : ?d <> 0 |- ?e <> 0 => let Z := fresh "Z" in intro Z; apply H; rewrite ?Z; ring_simplify; rewrite ?Z; ring
  | |- _ <> 0 => let Z := fresh "Z" in intro Z; first [symcal_zero Z | ring_simplify in Z; symcal_zero Z]
  end.
(* The positive transcendental atoms of a goal (exp, Rpower, sqrt) as variables with their signs,
   for nra: an example's inequality between terms with exp and powers at its rational point. *)
Ltac symcal_atoms :=
  unfold Rpower in *;
  repeat match goal with
  | |- context [exp ?a] => generalize (exp_pos a); generalize (exp a); intros ? ?
  | |- context [sqrt ?a] => generalize (sqrt_pos a); generalize (sqrt a); intros ? ?
  end.
Ltac symcal_em :=
  lazymatch goal with
  | |- (~ ?A) \\/ _ => apply symcal_em_not; symcal_em
  | |- (?A /\\ ?B) \\/ _ => apply symcal_em_and; symcal_em
  | |- (?A \\/ ?B) \\/ _ => apply symcal_em_or; symcal_em
  | |- (?A <-> ?B) \\/ _ => apply symcal_em_iff; symcal_em
  | |- (?A -> ?B) \\/ _ => apply symcal_em_imp; symcal_em
  | |- (?a < ?b) \\/ _ => destruct (Rlt_dec a b); [left | right]; assumption
  | |- (?a <= ?b) \\/ _ => destruct (Rle_dec a b); [left | right]; assumption
  | |- (?a > ?b) \\/ _ => destruct (Rgt_dec a b); [left | right]; assumption
  | |- (?a >= ?b) \\/ _ => destruct (Rge_dec a b); [left | right]; assumption
  | |- (?a = ?b) \\/ _ => exact (Req_dec a b)
  | |- True \\/ _ => left; exact I
  | |- False \\/ _ => right; intro; assumption
  end.
"""

_ITE_LEMMAS = {dec: f"""Lemma symcal_ite_{dec} : forall a b t e : R,
  (a {rel} b /\\ (if {dec} a b then t else e) = t) \\/ (~ a {rel} b /\\ (if {dec} a b then t else e) = e).
Proof. intros. destruct ({dec} a b); [left | right]; split; auto. Qed.
""" for dec, rel in (("Rle_dec", "<="), ("Rlt_dec", "<"), ("Rge_dec", ">="), ("Rgt_dec", ">"), ("Req_EM_T", "="))}


class Untranslatable(Exception):
    """A certificate (or a term in it) that this exporter cannot state faithfully in Coq."""


# ---------------------------------------------------------------------------------------
# names and terms
# ---------------------------------------------------------------------------------------

_COQ_WORDS = frozenset("""
as at cofix else end exists exists2 fix for forall fun if IF in let match mod Prop return Set then Type
using where with R Z Q nat IZR INR Rinv Ropp Rplus Rmult Rminus Rdiv exp ln sqrt Rpower Rabs PI pow
Rle_dec Rlt_dec Rge_dec Rgt_dec Req_EM_T Req_dec Rlt_le_dec Rle_lt_dec True False and or not iff
lra nra field ring Proof Qed Lemma Theorem Definition left right split intro intros I
Rmult_le_pos Rmult_lt_0_compat pow2_ge_0 Rlt_le_dec Rle_lt_dec Admitted admit Axiom Parameter Hypothesis
Variable Variables Section End Require Import Open Scope Context Conjecture Hypotheses Axioms Parameters
""".split())


def _ident_base(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not s or not (s[0].isalpha()) or s in _COQ_WORDS or s.startswith("symcal_"):
        s = "v_" + s
    return s


def lemma_name(text: str) -> str:
    """A Coq identifier for a lemma named after ``text`` (a claim id and a piece label)."""
    s = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")
    s = re.sub(r"_+", "_", s)
    return s if s and s[0].isalpha() else "claim_" + s


def _number(q: Fraction) -> str:
    n, d = abs(q.numerator), q.denominator
    body = str(n) if d == 1 else f"({n}/{d})"
    return body if q >= 0 else f"(- {body})"


_DECIDERS = {"<=": ("Rle_dec", "<="), "<": ("Rlt_dec", "<"), ">=": ("Rge_dec", ">="), ">": ("Rgt_dec", ">"),
             "=": ("Req_EM_T", "=")}


@dataclass
class CoqTerms:
    """Translate the kernel's s-expressions (after :func:`expand_lets`) into Coq text over ``R``.

    ``sorts`` maps declared names to ``Real``, ``Int`` or ``Bool``; an undeclared name is a
    real variable.  Shared subterms are translated once (memoised by identity).  ``ites`` and
    ``divisions`` collect the if-then-else terms and the quotients by non-constant terms met,
    for the facts the proof needs about them."""

    sorts: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    ites: dict[str, tuple[str, str, str, str, str]] = field(default_factory=dict)
    divisions: dict[str, tuple[str, str]] = field(default_factory=dict)
    divisors: dict[str, None] = field(default_factory=dict)
    functions: dict[str, int | None] = field(default_factory=dict)  # uninterpreted function -> arity seen
    _memo: dict[int, tuple[Any, str]] = field(default_factory=dict)

    def ident(self, name: str) -> str:
        """The Coq identifier of the variable ``name`` (stable, distinct per name)."""
        if name not in self.names:
            base = _ident_base(name)
            taken = set(self.names.values())
            out, k = base, 1
            while out in taken:
                k += 1
                out = f"{base}_{k}"
            self.names[name] = out
        return self.names[name]

    def var(self, name: str) -> str:
        sort = self.sorts.get(name, "Real")
        if sort == "Bool":
            raise Untranslatable(f"the Boolean constant {name} (Bool variables are not translated)")
        v = self.ident(name)
        return f"(IZR {v})" if sort == "Int" else v

    def binders(self, names: Sequence[str]) -> str:
        """``(f : R -> R) (x y : R) (n : Z)``: the uninterpreted functions applied so far, then
        ``names`` in the order given."""
        groups: list[tuple[str, list[str]]] = []
        for f, arity in self.functions.items():
            if arity is not None:
                groups.append((" -> ".join(["R"] * (arity + 1)), [self.ident(f)]))
        for n in names:
            sort = self.sorts.get(n, "Real")
            if sort == "Bool":
                raise Untranslatable(f"the Boolean constant {n} (Bool variables are not translated)")
            t = "Z" if sort == "Int" else "R"
            if groups and groups[-1][0] == t:
                groups[-1][1].append(self.ident(n))
            else:
                groups.append((t, [self.ident(n)]))
        return " ".join(f"({' '.join(vs)} : {t})" for t, vs in groups)

    def term(self, e: Any) -> str:
        """``e`` as a Coq term of type ``R``."""
        hit = self._memo.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        out = self._term(e)
        self._memo[id(e)] = (e, out)
        return out

    def _term(self, e: Any) -> str:
        if isinstance(e, Fraction):
            return _number(e)
        if isinstance(e, str):
            if e in ("true", "false"):
                raise Untranslatable(f"{e} used as a number")
            return self.var(e)
        if not isinstance(e, list) or not e:
            raise Untranslatable(f"not a term: {e!r}")
        op, args = e[0], e[1:]
        if op == "ite" and len(args) == 3:
            return self._ite(args)
        if op == "^" and len(args) == 2 and isinstance(args[1], Fraction):
            base, q = self.term(args[0]), args[1]
            if q.denominator != 1:
                return f"(Rpower {base} {_number(q)})"
            n = int(q)
            if n >= 0:
                return f"({base} ^ {n})"
            self.divisors.setdefault(base)  # defined exactly when the base is non-zero
            return f"(/ ({base} ^ {-n}))"
        if op in ("exp", "sqrt") and len(args) == 1:
            return f"({op} {self.term(args[0])})"
        if op == "log" and len(args) == 1:
            return f"(ln {self.term(args[0])})"
        if op == "to_real" and len(args) == 1:
            return self.term(args[0])
        if op in self.functions and args:  # an uninterpreted function of the certificate: an opaque atom
            if self.functions[op] not in (None, len(args)):
                raise Untranslatable(f"the function {op} is applied to {self.functions[op]} and {len(args)} arguments")
            self.functions[op] = len(args)
            return "(" + " ".join([self.ident(op), *(self.term(a) for a in args)]) + ")"
        if not args:
            raise Untranslatable(f"{op} without arguments")
        parts = [self.term(a) for a in args]
        if op == "+":
            return parts[0] if len(parts) == 1 else "(" + " + ".join(parts) + ")"
        if op == "-":
            return f"(- {parts[0]})" if len(parts) == 1 else "(" + " - ".join(parts) + ")"
        if op == "*":
            return parts[0] if len(parts) == 1 else "(" + " * ".join(parts) + ")"
        if op == "/":
            out = parts[0]
            for a, b in zip(args[1:], parts[1:], strict=True):
                if not isinstance(a, Fraction):
                    self.divisions.setdefault(f"({out} / {b})", (out, b))
                    self.divisors.setdefault(b)
                out = f"({out} / {b})"
            return out
        raise Untranslatable(f"the operator {op!r} is not translated to Coq")

    def _ite(self, args: list[Any]) -> str:
        c, t, e = args
        flip = False
        while isinstance(c, list) and c and c[0] == "not" and len(c) == 2:
            c, flip = c[1], not flip
        if not (isinstance(c, list) and len(c) == 3 and c[0] in _DECIDERS and not is_bool(c[1], self.sorts)):
            raise Untranslatable("an if-then-else term whose condition is not one comparison of two terms")
        dec, _ = _DECIDERS[c[0]]
        a, b = self.term(c[1]), self.term(c[2])
        if flip:
            t, e = e, t
        tt, et = self.term(t), self.term(e)
        text = f"(if {dec} {a} {b} then {tt} else {et})"
        self.ites.setdefault(text, (dec, a, b, tt, et))
        return text

    def formula(self, e: Any) -> str:
        """``e`` as a Coq proposition."""
        if e == "true":
            return "True"
        if e == "false":
            return "False"
        if isinstance(e, str):
            raise Untranslatable(f"the Boolean constant {e} (Bool variables are not translated)")
        if not isinstance(e, list) or not e:
            raise Untranslatable(f"not a formula: {e!r}")
        op, args = e[0], e[1:]
        if op in ("and", "or"):
            if not args:
                return "True" if op == "and" else "False"
            fs = [self.formula(a) for a in args]
            return fs[0] if len(fs) == 1 else "(" + (" /\\ " if op == "and" else " \\/ ").join(fs) + ")"
        if op == "not" and len(args) == 1:
            return f"(~ {self.formula(args[0])})"
        if op == "=>" and len(args) >= 2:
            return "(" + " -> ".join(self.formula(a) for a in args) + ")"
        if op == "xor" and len(args) == 2:
            return f"(~ ({self.formula(args[0])} <-> {self.formula(args[1])}))"
        if op == "ite" and len(args) == 3:
            c = self.formula(args[0])
            return f"(({c} /\\ {self.formula(args[1])}) \\/ ((~ {c}) /\\ {self.formula(args[2])}))"
        if op in ("=", "distinct") and len(args) >= 2:
            boolean = is_bool(args[0], self.sorts)
            vals = [self.formula(a) if boolean else self.term(a) for a in args]
            if op == "=":
                sym = " <-> " if boolean else " = "
                parts = [f"({vals[i]}{sym}{vals[i + 1]})" for i in range(len(vals) - 1)]
            else:
                parts = [f"(~ ({x} <-> {y}))" if boolean else f"({x} <> {y})"
                         for i, x in enumerate(vals) for y in vals[i + 1:]]
            return parts[0] if len(parts) == 1 else "(" + " /\\ ".join(parts) + ")"
        if op in RELATIONS and len(args) >= 2:
            vals = [self.term(a) for a in args]
            parts = [f"({vals[i]} {op} {vals[i + 1]})" for i in range(len(vals) - 1)]
            return parts[0] if len(parts) == 1 else "(" + " /\\ ".join(parts) + ")"
        raise Untranslatable(f"the connective {op!r} is not translated to Coq")

    def poly(self, p: Poly, lifted: dict[str, Any]) -> str:
        """A kernel polynomial; a variable the kernel introduced for an ite or a quotient is
        written back as that term (``lifted``: kernel name -> s-expression)."""
        if not p.terms:
            return "0"
        parts = []
        for mono, c in sorted(p.terms.items()):
            factors = []
            for v, k in mono:
                t = self.term(lifted[v]) if v in lifted else self.var(v)
                factors.append(t if k == 1 else f"({t} ^ {k})")
            if not factors:
                parts.append(_number(c))
            elif c == 1:
                parts.append(" * ".join(factors))
            else:
                parts.append(" * ".join([_number(c), *factors]))
        return "(" + " + ".join(parts) + ")"


def _one(text: str) -> Any:
    items = parse(text)
    if len(items) != 1:
        raise Untranslatable(f"expected one s-expression, got {len(items)}")
    return expand_lets(items[0])


def _free(e: Any, out: dict[str, None]) -> None:
    out.update(free_names(e))


# ---------------------------------------------------------------------------------------
# farkas: an unsat SMT-LIB2 query
# ---------------------------------------------------------------------------------------


def _lifted_terms(q: Query, assertions: list[Any]) -> dict[str, Any]:
    """Kernel name of each lifted ite / quotient -> the s-expression it stands for (the names
    are hashes of texts the kernel computed; recomputed here the same way)."""
    import hashlib

    out: dict[str, Any] = {}
    seen: set[int] = set()
    stack = list(assertions)
    while stack:
        x = stack.pop()
        if not isinstance(x, list) or id(x) in seen or not x:
            continue
        seen.add(id(x))
        if x[0] == "ite" and len(x) == 4:
            name = f"ite!{hashlib.sha256(show(x).encode()).hexdigest()[:12]}"
            if name in q.texts:
                out[name] = x
        elif x[0] == "/" and len(x) >= 3:
            try:  # the kernel folds (/ a b c) left to right
                acc = q.poly(x[1])
                for k, b in enumerate(x[2:]):
                    pb = q.poly(b)
                    c = pb.constant()
                    if c is None:
                        name = f"div!{hashlib.sha256(f'{acc.key()}/{pb.key()}'.encode()).hexdigest()[:12]}"
                        if name in q.texts:
                            out[name] = ["/", *x[1:k + 2]] if k else ["/", x[1], b]
                        acc = Poly.var(name)
                    else:
                        acc = acc.scale(Fraction(1) / c)
            except (Unsupported, ZeroDivisionError):
                pass
        stack.extend(x[1:])
    missing = [n for n in q.lifted if n not in out]
    if missing:
        raise Untranslatable(f"cannot recover the term behind the kernel's variable {missing[0]}")
    return out


def _statement_of_query(q: Query) -> tuple[CoqTerms, list[str], list[str], str]:
    """(terms, declared names, hypotheses, goal) of the query the kernel read, as
    ``forall vars, A1 -> ... -> C`` (the last assertion ``(not C)``) or ``... -> False``."""
    lifted = set(q.lifted)
    sorts = {n: s for n, s in q.sorts.items() if n not in lifted}  # the declarations, in order
    if any(s == "Bool" for s in sorts.values()):
        raise Untranslatable("the query declares Boolean constants (not translated)")
    terms = CoqTerms(sorts=sorts)
    for n in sorts:
        terms.ident(n)
    goal = "False"
    hyps_e = q.assertions
    last = hyps_e[-1] if hyps_e else None
    if isinstance(last, list) and last[0] == "not" and len(last) == 2:
        goal = terms.formula(last[1])
        hyps_e = hyps_e[:-1]
    return terms, list(sorts), [terms.formula(a) for a in hyps_e], goal


def _forall(terms: CoqTerms, names: Sequence[str], hyps: Sequence[str], goal: str) -> str:
    body = "\n    -> ".join([*hyps, goal])
    binders = terms.binders(names)
    return f"forall {binders},\n    {body}" if binders else body


def farkas_lemma(name: str, cert: dict[str, Any], *, follow_tree: bool = True) -> str:
    """A Coq ``Lemma`` (statement and proof) for a ``farkas`` certificate of an SMT-LIB2 query.

    With ``follow_tree`` the proof replays the certificate: a ``destruct`` per split, the
    kernel's unit propagation as one small ``lra`` step per literal (from the one assertion
    that forces it and the literals it needs), and at each leaf the Farkas products and a
    final ``lra`` over the leaf's literals only.  Without it, one ``lra`` on the whole query
    (Micromega's own search: fine for small queries, exponential in the number of
    disjunctions).  A chain of lemmas at the tree's root becomes lemmas of their own
    (:func:`farkas_lemmas`); this is their text joined."""
    return "\n\n".join(farkas_lemmas(name, cert, follow_tree=follow_tree))


def farkas_lemmas(name: str, cert: dict[str, Any], *, follow_tree: bool = True) -> list[str]:
    """The Coq text of a ``farkas`` certificate as a list of blocks, each within
    ``MAX_LEMMA_CHARS``, in dependency order (a block uses only the blocks before it).

    A tree whose root is a chain of lemmas (``{"lemmas": [[cube, tree], ...], "then": tree}``, the
    ordering principle's n + (2 + ... + n-1) refuted cubes) is split: lemma i becomes a Coq lemma
    ``<name>_lem<i>`` of its own, ``forall vars, A1 -> ... -> An -> ~ (cube_i)``, whose proof
    re-does the root's unit propagation, takes the earlier lemmas it uses (``pose proof``) and
    replays the cube's tree; the query's lemma takes the lemmas and replays the ``then`` tree.
    Each block is one of these lemmas (the last: the query and the claim's own form), so that a
    long chain is many small proofs, not one large one.  Raises :class:`Untranslatable` when a
    block is beyond ``MAX_LEMMA_CHARS``."""
    smtlib = cert["smtlib"]
    try:
        q = read_query(smtlib)
    except Unsupported as e:
        raise Untranslatable(f"the kernel cannot read the query: {e}") from None
    terms, names, hyps, goal = _statement_of_query(q)
    assertions = q.assertions
    lifted = _lifted_terms(q, assertions)
    query_form = goal != "False"
    qname = f"{name}_query" if query_form else name
    all_hyps = [*hyps, f"(~ {goal})"] if query_form else hyps
    statement = _forall(terms, names, all_hyps, "False")
    n_hyps = len(all_hyps)
    args_all = " ".join([terms.ident(n) for n in names] + [f"H'{k + 1}" for k in range(n_hyps)])
    prologue = [f"  intros {args_all}." if args_all else "  intros."]
    side_facts: dict[str, str] = {}  # kernel name of a lifted term -> the Coq fact about it
    div_names = {terms.term(x): n for n, x in lifted.items() if x[0] == "/"}
    ite_names = {terms.term(x): n for n, x in lifted.items() if x[0] == "ite"}
    for k, (text, (a, b)) in enumerate(sorted(terms.divisions.items())):
        prologue.append(f"  pose proof (symcal_div {a} {b}) as D'{k + 1}.")
        if text in div_names:
            side_facts[div_names[text]] = f"D'{k + 1}"
    for k, (text, (dec, a, b, then, other)) in enumerate(sorted(terms.ites.items())):
        prologue.append(f"  pose proof (symcal_ite_{dec} {a} {b} {then} {other}) as I'{k + 1}.")
        if text in ite_names:
            side_facts[ite_names[text]] = f"I'{k + 1}"
    blocks: list[str] = []
    lines = [f"Lemma {qname} :\n  {statement}.", "Proof.", *prologue]
    tree = cert["tree"]
    if not follow_tree:
        lines.append("  lra.")
    else:
        replay = _Replay(q, assertions, terms, lifted, side_facts)
        replay.names, replay.all_hyps = names, all_hyps
        replay.hoist = (name, prologue, args_all, [])
        chain = _chain_lemmas(name, tree, replay, terms, names, all_hyps, prologue, args_all) \
            if isinstance(tree, dict) and "lemmas" in tree else None
        if chain is None:
            replay.node(tree, {}, {}, lines, "  ")
            blocks += replay.hoisted
        else:
            blocks += chain[0]
            lines += chain[1]
    lines.append("Qed.")
    if query_form:  # the claim's own form A1 -> ... -> C, from the query by deciding C (no axiom)
        args = " ".join([terms.ident(n) for n in names] + [f"H'{k + 1}" for k in range(len(hyps))])
        lines += ["", f"Lemma {name} :\n  {_forall(terms, names, hyps, goal)}.", "Proof.",
                  f"  intros {args}." if args else "  intros.",
                  f"  refine (symcal_nn _ _ ({qname} {args})).".replace(" )", ")"), "  symcal_em.", "Qed."]
    blocks.append("\n".join(lines))
    for text in blocks:
        if len(text) > MAX_LEMMA_CHARS:
            raise Untranslatable(f"the case tree's Coq replay is {len(text) // 1000:,} KB in one lemma, beyond the "
                                 f"{MAX_LEMMA_CHARS // 1000} KB per lemma that coqc compiles in bounded memory")
    return blocks


def _chain_lemmas(name: str, tree: dict[str, Any], replay: _Replay, terms: CoqTerms, names: list[str],
                  all_hyps: list[str], prologue: list[str], args_all: str) -> tuple[list[str], list[str]] | None:
    """The lemmas of a root ``lemmas`` node as Coq lemmas of their own, and the proof lines of
    the query's lemma after its prologue; None when the root's propagation already closes the
    query (the plain replay is then short)."""
    probe: list[str] = []
    closed, _ = replay._propagate({}, {}, probe, "  ")
    if closed:
        return None
    base = len(replay.sources)
    done: list[tuple[str, Any]] = []  # (Coq name, the clause the kernel adds) of each lemma so far
    blocks: list[str] = []

    def uses(body: list[str]) -> list[str]:
        """``pose proof`` lines of the earlier lemmas that ``body`` mentions (as N'j)."""
        text = "\n".join(body)
        return [f"  pose proof ({lem} {args_all}) as N'{j + 1}.".replace(" )", ")")
                for j, (lem, _) in enumerate(done) if re.search(rf"\bN'{j + 1}\b", text)]

    try:
        for i, (cube, proof) in enumerate(tree["lemmas"]):
            lits = _cube_literals(cube, "a lemma")
            lem = f"{name}_lem{i + 1}"
            hyps = [replay._fresh("K") for _ in lits]
            text = " /\\ ".join(_lit_text(k, p, terms, replay.lifted) for k, p in lits)
            pattern = hyps[-1]
            for h in reversed(hyps[:-1]):
                pattern = f"[{h} {pattern}]"
            facts: dict[Any, str] = {}
            body: list[str] = []
            del replay.sources[base:]
            _, full = replay._propagate({}, facts, body, "  ")  # as the kernel, before the chain's clauses
            for j, (_, clause) in enumerate(done):
                replay.sources.append((clause, [f"N'{j + 1}"]))
            body.append(f"  intros {pattern}.")
            named = {k: h for (k, _), h in zip(lits, hyps, strict=True)}
            replay.node(proof, {**full, **dict(lits)}, {**facts, **named}, body, "  ")
            statement = _forall(terms, names, all_hyps, f"(~ ({text}))")
            blocks += replay.hoisted
            replay.hoisted = []
            blocks.append("\n".join([f"Lemma {lem} :\n  {statement}.", "Proof.", *prologue, *uses(body), *body,
                                     "Qed."]))
            clause = [("lit", k, not p) for k, p in lits]
            done.append((lem, clause[0] if len(clause) == 1 else ("or", tuple(clause))))
            assert replay.hoist is not None
            replay.hoist[3].append((f"N'{len(done)}", f"  pose proof ({lem} {args_all}) as N'{len(done)}."
                                    .replace(" )", ")")))
        facts = {}
        body = []
        del replay.sources[base:]
        _, full = replay._propagate({}, facts, body, "  ")
        for j, (_, clause) in enumerate(done):
            replay.sources.append((clause, [f"N'{j + 1}"]))
        replay.node(tree["then"], full, facts, body, "  ")
        blocks += replay.hoisted
        replay.hoisted = []
        return blocks, [*uses(body), *body]
    finally:
        del replay.sources[base:]


def _lit_text(key: Any, pol: bool, terms: CoqTerms, lifted: dict[str, Any]) -> str:
    p, strict = constraint_of(key, pol)
    return f"({terms.poly(p, lifted)} {'<' if strict else '<='} 0)"


def _cube_literals(cube: list[Any], what: str) -> list[tuple[Any, bool]]:
    """The (atom key, polarity) of each atom ``[op, poly]`` of a certificate's cube."""
    lits = []
    for op, pj in cube:
        f = literal(Poly.from_json(pj), op == "<")
        if isinstance(f, bool) or op not in ("<", "<="):
            raise Untranslatable(f"{what} on a constant atom")
        lits.append((f[1], f[2]))
    return lits


def _lit_vars(f: Any) -> set[str]:
    """The kernel variables of the literals of formula ``f``."""
    return {v for key, _ in literals(f) if key[0] == "lin" for mono, _ in key[1] for v, _ in mono}


class _Replay:
    """Writes the proof of a ``farkas`` case tree, re-doing the kernel's unit propagation per
    assertion so that each ``lra`` call sees one assertion and a few literals."""

    def __init__(self, q: Query, assertions: list[Any], terms: CoqTerms, lifted: dict[str, Any],
                 side_facts: dict[str, str]) -> None:
        self.terms, self.lifted = terms, lifted
        self.counter = 0
        # (formula, the Coq facts it comes from): every assertion, then the lifted terms' side conditions
        self.sources: list[tuple[Any, list[str]]] = [
            (q.nnf(e, True), [f"H'{k + 1}"]) for k, e in enumerate(assertions)]
        self.q = q
        # hoisting large branches into lemmas of their own: (base name, prologue lines, the
        # query's arguments, [(fact name, its pose proof line)] of the chain lemmas in scope)
        self.hoist: tuple[str, list[str], str, list[tuple[str, str]]] | None = None
        self.hoisted: list[str] = []
        self.hoisted_count = 0
        self.inline_lemmas = 0
        self.names: list[str] = []
        self.all_hyps: list[str] = []
        # the comparisons of each large assertion without lifted terms: (Coq text, kernel formula)
        self.atoms: dict[str, list[tuple[str, Any]]] = {}
        self.raw: dict[str, Any] = {}
        for k, e in enumerate(assertions):
            found = _comparisons(e, q.sorts)
            if len(found) >= ATOMWISE_ATOMS and not (_lit_vars(q.nnf(e, True)) & set(lifted)):
                try:
                    self.atoms[f"H'{k + 1}"] = [(terms.formula(a), q.nnf(a, True)) for a in found]
                    self.raw[f"H'{k + 1}"] = e
                except (Untranslatable, Unsupported):
                    pass
        for f in q.side:
            facts = sorted({side_facts[v] for v in _lit_vars(f) if v in side_facts})
            if not facts:
                raise Untranslatable("a side condition of a lifted term has no Coq fact")
            self.sources.append((f, facts))

    def _hoisted(self, sub: list[str], assign: dict[Any, bool], facts: dict[Any, str], ind: str,
                 counter: int) -> str:
        """The branch ``sub`` (proof lines closing False from the query's hypotheses and the
        branch's literal facts) as a lemma of its own, ``forall vars, A1 -> ... -> An -> lit1 ->
        ... -> litk -> False``, appended to ``self.hoisted``; the line that applies it here."""
        name, prologue, args_all, pose = self.hoist
        self.hoisted_count += 1
        lem = f"{name}_sub{self.hoisted_count}"
        text = "\n".join(sub)
        # every fact named in the branch that was in scope before it: its literal becomes a hypothesis
        used = [(k, n) for k, n in facts.items() if (k in assign or k[0] == "atom")
                and re.search(rf"(?<![\w']){re.escape(n)}\b", text)]
        hyps = [(k[1] if k[2] else f"(~ {k[1]})") if k[0] == "atom"
                else _lit_text(k, assign[k], self.terms, self.lifted) for k, _ in used]
        statement = _forall(self.terms, self.names, [*self.all_hyps, *hyps], "False")
        intro = " ".join(n for _, n in used)
        poses = [line for tag, line in pose if re.search(rf"(?<![\w']){re.escape(tag)}\b", text)]
        self.hoisted.append("\n".join([f"Lemma {lem} :\n  {statement}.", "Proof.", *prologue, *poses,
                                       *([f"  intros {intro}."] if intro else []), *sub, "Qed."]))
        # a split's fact reads 0 <= p or 0 < p (Rlt_le_dec / Rle_lt_dec), the hypothesis -p <= 0 or -p < 0
        args = " ".join(f"ltac:(clear - {n}; lra)" if n.startswith("S'") else n for _, n in used)
        return f"{ind}exact ({lem} {args_all} {args})".rstrip().replace(" )", ")") + "."

    def _fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}'{self.counter}"

    def _propagate(self, assign: dict[Any, bool], facts: dict[Any, str], lines: list[str],
                   ind: str) -> tuple[bool, dict[Any, bool]]:
        """Unit propagation as in :func:`symcal.kernel.lra.propagate`, one Coq step per literal;
        (closed, assignment)."""
        assign, facts = dict(assign), facts
        while True:
            new = False
            for f, origin in self.sources:
                g = simplify(f, assign)
                if g is True:
                    continue
                deps = [facts[k] for k in _keys(f) if k in assign and k in facts]
                using = " ".join(dict.fromkeys([*origin, *deps]))
                atomwise = self.atoms.get(origin[0]) if len(origin) == 1 else None
                if g is False:
                    if atomwise is not None:
                        self._atomwise(origin[0], atomwise, assign, facts, None, "", lines, ind)
                    else:
                        lines.append(f"{ind}clear - {using}; lra.")
                    return True, assign
                units = [g] if g[0] == "lit" else [u for u in g[1] if g[0] == "and" and u[0] == "lit"]
                for _, key, pol in units:
                    if key in assign:
                        if assign[key] != pol:
                            lines.append(f"{ind}clear - {using} {facts.get(key, '')}; lra.")
                            return True, assign
                        continue
                    if key[0] != "lin":
                        raise Untranslatable("a Boolean literal in the query")
                    name = self._fresh("L")
                    if atomwise is not None:
                        opener = f"{ind}assert ({name} : {_lit_text(key, pol, self.terms, self.lifted)})."
                        self._atomwise(origin[0], atomwise, assign, facts, (key, pol), opener, lines, ind)
                    else:
                        lines.append(f"{ind}assert ({name} : {_lit_text(key, pol, self.terms, self.lifted)}) by "
                                     f"(clear - {using}; lra).")
                    assign[key] = pol
                    facts[key] = name
                    new = True
            if not new:
                return False, assign

    def _atomwise(self, source: str, atoms: list[tuple[str, Any]], assign: dict[Any, bool], facts: dict[Any, str],
                  goal: tuple[Any, bool] | None, opener: str, lines: list[str], ind: str) -> None:
        """One propagation step from a large assertion without ``lra`` over it (Micromega's
        propositional search is exponential in its atoms: a 30-atom ``~ (A <-> B)`` took minutes
        per literal): the goal literal is decided (its negation assumed), each comparison of the
        assertion whose value the branch's literals fix is proved or refuted by a small ``lra``
        from those literals (once per branch: kept in ``facts`` under ``("atom", text, value)``),
        and ``tauto`` closes (the assertion evaluates to False in strong Kleene logic, which
        intuitionistic logic proves from decided atoms).  ``goal``: the literal that ``opener``
        (``assert (L : ...).``) states, or None to close the branch."""
        inner = ind + "  " if goal is not None else ind
        local: list[str] = []
        known: list[str] = [source]
        values: dict[str, tuple[bool, str]] = {}
        z_key = goal[0] if goal is not None else None
        z = self._fresh("Z") if goal is not None else ""
        trial = {**assign, z_key: not goal[1]} if goal is not None else assign
        for text, f in atoms:
            v = simplify(f, trial)
            if not isinstance(v, bool):
                continue
            keys = _keys(f)
            if z_key is not None and z_key in keys:
                deps = " ".join(dict.fromkeys(z if k == z_key else facts[k] for k in keys if k == z_key or k in facts))
                a = self._fresh("A")
                local.append(f"{inner}assert ({a} : {text if v else f'~ {text}'}) by (clear - {deps}; lra).")
                known.append(a)
                values[text] = (v, a)
                continue
            tag = ("atom", text, v)
            if tag not in facts:
                deps = " ".join(dict.fromkeys(facts[k] for k in keys if k in facts))
                if not deps and keys:
                    continue
                a = self._fresh("A")
                lines.append(f"{ind}assert ({a} : {text if v else f'~ {text}'}) by "
                             f"({f'clear - {deps}; ' if deps else ''}lra).")
                facts[tag] = a
            known.append(facts[tag])
            values[text] = (v, facts[tag])
        if goal is not None:
            key, pol = goal
            p, strict = constraint_of(key, pol)
            dec = "Rlt_le_dec" if strict else "Rle_lt_dec"
            lines += [opener, f"{ind}{{", f"{inner}destruct ({dec} {self.terms.poly(p, self.lifted)} 0) as [{z}|{z}]; "
                      f"[exact {z} | exfalso]."]
        lines += local
        kleene = _Kleene(self.terms, values)
        if kleene.value(self.raw[source]) is False:  # false at these atoms: a proof term of False from it
            lines.append(f"{inner}exact {kleene.refute(self.raw[source], source)}.")
        else:  # pragma: no cover - the kernel's propagation says it is false
            lines.append(f"{inner}clear - {' '.join(dict.fromkeys(known))}; tauto.")
        if goal is not None:
            lines.append(f"{ind}}}")

    def node(self, node: Any, assign: dict[Any, bool], facts: dict[Any, str], lines: list[str], ind: str) -> None:
        facts = dict(facts)
        closed, full = self._propagate(assign, facts, lines, ind)
        if closed:
            return
        if "split" in node:
            op, pj = node["split"]
            p = Poly.from_json(pj)
            f = literal(p, op == "<")
            if isinstance(f, bool):
                raise Untranslatable("a split on a constant atom")
            _, key, pol = f
            s = self._fresh("S")
            dec = "Rlt_le_dec" if op == "<" else "Rle_lt_dec"
            lines.append(f"{ind}destruct ({dec} {self.terms.poly(p, self.lifted)} 0) as [{s}|{s}].")
            for branch, value in (("then", pol), ("else", not pol)):
                lines.append(f"{ind}{{")
                sub: list[str] = []
                counter = self.counter
                self.node(node[branch], {**full, key: value}, {**facts, key: s}, sub, ind + "  ")
                if self.hoist is not None and self.inline_lemmas == 0 and \
                        sum(len(x) + 1 for x in sub) > SUBTREE_CHARS:
                    sub = [self._hoisted(sub, {**full, key: value}, {**facts, key: s}, ind + "  ", counter)]
                lines += sub
                lines.append(f"{ind}}}")
            return
        if "cases" in node:
            self._cases(node, full, facts, lines, ind)
            return
        if "lemmas" in node:
            self._lemmas(node, full, facts, lines, ind)
            return
        if "farkas" not in node:
            raise Untranslatable("a tree node that is neither a split, cases, lemmas nor a leaf")
        by_constraint: dict[tuple[Any, bool], str] = {}
        for key, pol in full.items():
            if key[0] == "lin" and key in facts:
                p, strict = constraint_of(key, pol)
                by_constraint[(p.key(), strict)] = facts[key]
        used: list[str] = []
        for factors, lam in node["farkas"]:
            if Fraction(lam) == 0:
                continue
            names = []
            for fac in factors:
                if fac[0] == "sq":
                    continue
                hit = by_constraint.get((Poly.from_json(fac[1]).key(), fac[0] == "<"))
                if hit is None:
                    raise Untranslatable("a Farkas factor that is not a literal of its leaf")
                names.append(hit)
            if len(factors) == 1 and factors[0][0] != "sq":
                used += names
                continue
            texts = [_factor_text(f, self.terms, self.lifted) for f in factors]
            strict = all(st for _, st, _ in texts)
            product = " * ".join(t for t, _, _ in texts)
            fact = self._fresh("F")
            deps = " ".join(dict.fromkeys(names))
            clear = f"clear - {deps}; " if deps else ""
            if strict:
                lines.append(f"{ind}assert ({fact} : 0 < {product}) by ({clear}repeat apply Rmult_lt_0_compat; lra).")
            else:
                lines.append(f"{ind}assert ({fact} : 0 <= {product}) by "
                             f"({clear}repeat (apply pow2_ge_0 || apply Rmult_le_pos); lra).")
            used.append(fact)
        keep = " ".join(dict.fromkeys(used))
        lines.append(f"{ind}clear - {keep}; lra." if keep else f"{ind}lra.")


    def _lemmas(self, node: Any, full: dict[Any, bool], facts: dict[Any, str], lines: list[str], ind: str) -> None:
        """A ``lemmas`` node: each ``~ (cube)`` asserted and proved by its tree, then a source of
        propagation (as the kernel adds its clause) for the later lemmas and the final tree."""
        added = len(self.sources)
        self.inline_lemmas += 1
        try:
            for cube, proof in node["lemmas"]:
                lits = _cube_literals(cube, "a lemma")
                name, hyps = self._fresh("M"), [self._fresh("K") for _ in lits]
                text = " /\\ ".join(_lit_text(k, p, self.terms, self.lifted) for k, p in lits)
                pattern = hyps[-1]
                for h in reversed(hyps[:-1]):
                    pattern = f"[{h} {pattern}]"
                lines += [f"{ind}assert ({name} : ~ ({text})).", f"{ind}{{", f"{ind}  intros {pattern}."]
                named = {k: h for (k, _), h in zip(lits, hyps, strict=True)}
                self.node(proof, {**full, **dict(lits)}, {**facts, **named}, lines, ind + "  ")
                lines.append(f"{ind}}}")
                clause = [("lit", k, not p) for k, p in lits]
                self.sources.append((clause[0] if len(clause) == 1 else ("or", tuple(clause)), [name]))
            self.node(node["then"], full, facts, lines, ind)
        finally:
            self.inline_lemmas -= 1
            del self.sources[added:]

    def _cases(self, node: Any, full: dict[Any, bool], facts: dict[Any, str], lines: list[str], ind: str) -> None:
        """A ``cases`` node: the disjunction of cubes one assertion reduces to on this branch is
        asserted (``lra`` from that assertion and the literals it needs), then destructed, one
        subtree per cube."""
        cubes = [_cube_literals(cube, "a case") for cube in node["cases"]]
        trees = node.get("trees")
        if not isinstance(trees, list) or len(trees) != len(cubes) or not cubes:
            raise Untranslatable("cases without one tree per case")
        want = [frozenset(("lit", k, p) for k, p in c) for c in cubes]  # as the kernel: each disjunct of a
        true = {("lit", k, p) for k, p in full.items()}  # disjunction, with the branch's true literals, implies a cube
        cube_facts = [facts[k] for c in cubes for k, p in c if full.get(k) == p and k in facts]
        source = " ".join(dict.fromkeys(cube_facts)) if any(c <= true for c in want) else None
        for f, origin in [] if source else self.sources:
            if covers(simplify(f, full), true, want):
                deps = [facts[k] for k in _keys(f) if k in full and k in facts]
                source = " ".join(dict.fromkeys([*origin, *deps, *cube_facts]))
                break
        if source is None:
            raise Untranslatable("the cases of a node are not a disjunction of the branch")
        texts = [" /\\ ".join(_lit_text(k, p, self.terms, self.lifted) for k, p in c) for c in cubes]
        name = self._fresh("C")
        disjunction = " \\/ ".join(f"({t})" for t in texts)
        lines.append(f"{ind}assert ({name} : {disjunction}) by (clear - {source}; lra).")
        self._case_branches(name, cubes, trees, full, facts, lines, ind)

    def _case_branches(self, name: str, cubes: list[list[tuple[Any, bool]]], trees: list[Any],
                       full: dict[Any, bool], facts: dict[Any, str], lines: list[str], ind: str) -> None:
        cube, tree = cubes[0], trees[0]
        if len(cubes) > 1:
            lines.append(f"{ind}destruct {name} as [{name}|{name}].")
            lines.append(f"{ind}{{")
            self._one_case(name, cube, tree, full, facts, lines, ind + "  ")
            lines.append(f"{ind}}}")
            lines.append(f"{ind}{{")
            self._case_branches(name, cubes[1:], trees[1:], full, facts, lines, ind + "  ")
            lines.append(f"{ind}}}")
        else:
            self._one_case(name, cube, tree, full, facts, lines, ind)

    def _one_case(self, name: str, cube: list[tuple[Any, bool]], tree: Any, full: dict[Any, bool],
                  facts: dict[Any, str], lines: list[str], ind: str) -> None:
        names = [self._fresh("K") for _ in cube]
        if len(names) == 1:
            lines.append(f"{ind}rename {name} into {names[0]}.")
        else:
            pattern = names[-1]
            for n in reversed(names[:-1]):
                pattern = f"[{n} {pattern}]"
            lines.append(f"{ind}destruct {name} as {pattern}.")
        for (k, p), n in zip(cube, names, strict=True):
            if k in full and full[k] != p:
                lines.append(f"{ind}clear - {n} {facts[k]}; lra.")  # the cube contradicts the branch
                return
        self.node(tree, {**full, **dict(cube)}, {**facts, **{k: n for (k, _), n in zip(cube, names, strict=True)}},
                  lines, ind)


class _Kleene:
    """Proof terms for a formula ``F`` whose value strong Kleene logic fixes from decided
    comparisons (``facts``: Coq text of a comparison -> (value, the name of its fact or of its
    negation's)), along the structure :meth:`CoqTerms.formula` gives ``F``: :meth:`refute` turns a
    proof ``h`` of a false ``F`` into a proof of ``False``, :meth:`proof` proves a true ``F``.
    Coq only type-checks the term (no search), and every binder's type is known from ``h``."""

    def __init__(self, terms: CoqTerms, facts: dict[str, tuple[bool, str]]) -> None:
        self.terms, self.facts = terms, facts
        self.counter = 0
        self._values: dict[int, bool | None] = {}

    def _fresh(self) -> str:
        self.counter += 1
        return f"k'{self.counter}"

    def _parts(self, e: Any) -> tuple[str, list[Any]]:
        op, args = e[0], e[1:]
        if op == "=" and len(args) == 2 and is_bool(args[0], self.terms.sorts):
            return "iff", args
        return op, args

    def value(self, e: Any) -> bool | None:
        """True, False or None (undecided) at the facts."""
        if e in ("true", "false"):
            return e == "true"
        if not isinstance(e, list) or not e:
            return None
        hit = self._values.get(id(e), 0)
        if hit != 0:
            return hit  # type: ignore[return-value]
        op, args = self._parts(e)
        vs = [self.value(a) for a in args] if op in ("and", "or", "not", "=>", "iff") else []
        out: bool | None
        if op == "and" and args:
            out = False if False in vs else True if all(v is True for v in vs) else None
        elif op == "or" and args:
            out = True if True in vs else False if all(v is False for v in vs) else None
        elif op == "not" and len(args) == 1:
            out = None if vs[0] is None else not vs[0]
        elif op == "=>" and len(args) >= 2:
            out = vs[-1]
            for v in reversed(vs[:-1]):
                out = True if v is False or out is True else False if v is True and out is False else None
        elif op == "iff":
            out = None if None in vs else vs[0] == vs[1]
        elif op in RELATIONS or op in ("=", "distinct"):
            hit2 = self.facts.get(self.terms.formula(e))
            out = hit2[0] if hit2 else None
        else:
            out = None
        self._values[id(e)] = out
        return out

    def refute(self, e: Any, h: str) -> str:
        """A proof of False from ``h`` : ``e`` (``e`` false)."""
        if e == "false":
            return h
        op, args = self._parts(e)
        if op in RELATIONS or op in ("=", "distinct"):
            return f"({self.facts[self.terms.formula(e)][1]} {h})"
        if op == "and":
            if len(args) == 1:
                return self.refute(args[0], h)
            i = next(k for k, a in enumerate(args) if self.value(a) is False)
            return self.refute(args[i], _proj_path(i, len(args), h))
        if op == "or":
            if len(args) == 1:
                return self.refute(args[0], h)
            x, rest = self._fresh(), self._fresh()
            tail = self.refute(args[-1], rest)
            for a in reversed(args[1:-1]):
                y, r = self._fresh(), self._fresh()
                tail = f"(match {r} with or_introl {y} => {self.refute(a, y)} | or_intror {rest} => {tail} end)"
                rest = r
            return f"(match {h} with or_introl {x} => {self.refute(args[0], x)} | or_intror {rest} => {tail} end)"
        if op == "not":
            return f"({h} {self.proof(args[0])})"
        if op == "=>":
            # A1 -> (A2 -> ... -> C): all premises true and the conclusion false
            term = h
            for a in args[:-1]:
                term = f"({term} {self.proof(a)})"
            return self.refute(args[-1], term)
        if op == "iff":
            a, b = args
            if self.value(a):
                return self.refute(b, f"(proj1 {h} {self.proof(a)})")
            return self.refute(a, f"(proj2 {h} {self.proof(b)})")
        raise Untranslatable(f"cannot refute {op!r} atom by atom")

    def proof(self, e: Any) -> str:
        """A proof of ``e`` (``e`` true)."""
        if e == "true":
            return "I"
        op, args = self._parts(e)
        if op in RELATIONS or op in ("=", "distinct"):
            return self.facts[self.terms.formula(e)][1]
        if op == "and":
            term = self.proof(args[-1])
            for a in reversed(args[:-1]):
                term = f"(conj {self.proof(a)} {term})"
            return term
        if op == "or":
            if len(args) == 1:
                return self.proof(args[0])
            i = next(k for k, a in enumerate(args) if self.value(a) is True)
            term = self.proof(args[i]) if i == len(args) - 1 else f"(or_introl {self.proof(args[i])})"
            for _ in range(i):
                term = f"(or_intror {term})"
            return term
        if op == "not":
            x = self._fresh()
            return f"(fun {x} : {self.terms.formula(args[0])} => {self.refute(args[0], x)})"
        if op == "=>":
            first, rest = args[0], args[1:]
            x = self._fresh()
            t = self.terms.formula(first)
            if self.value(first) is False:
                return f"(fun {x} : {t} => False_ind _ {self.refute(first, x)})"
            tail = rest[0] if len(rest) == 1 else ["=>", *rest]
            return f"(fun {x} : {t} => {self.proof(tail)})"
        if op == "iff":
            a, b = args
            ta, tb = self.terms.formula(a), self.terms.formula(b)
            x, y = self._fresh(), self._fresh()
            if self.value(a):
                return f"(conj (fun {x} : {ta} => {self.proof(b)}) (fun {y} : {tb} => {self.proof(a)}))"
            return (f"(conj (fun {x} : {ta} => False_ind _ {self.refute(a, x)}) "
                    f"(fun {y} : {tb} => False_ind _ {self.refute(b, y)}))")
        raise Untranslatable(f"cannot prove {op!r} atom by atom")


def _proj_path(i: int, n: int, h: str = "h") -> str:
    """The proof of the i-th conjunct (from 0) of an n-ary conjunction ``h`` (right-nested)."""
    path = h
    for _ in range(i):
        path = f"(proj2 {path})"
    return path if i == n - 1 else f"(proj1 {path})"


def _comparisons(e: Any, sorts: dict[str, str]) -> list[Any]:
    """The arithmetic comparisons of formula ``e`` (an s-expression after ``expand_lets``), each once."""
    out: dict[str, Any] = {}
    stack = [e]
    while stack:
        x = stack.pop()
        if not isinstance(x, list) or not x:
            continue
        op = x[0]
        if op in RELATIONS or (op in ("=", "distinct") and len(x) >= 3 and not is_bool(x[1], sorts)):
            out.setdefault(show(x), x)
        elif op in ("and", "or", "not", "=>", "xor", "ite", "=", "distinct"):
            stack.extend(x[1:])
    return list(out.values())


def _keys(f: Any) -> list[Any]:
    """The atom keys of the literals of formula ``f`` (each once, in order)."""
    return list(dict.fromkeys(key for key, _ in literals(f)))


def _factor_text(fac: list[Any], terms: CoqTerms, lifted: dict[str, Any]) -> tuple[str, bool, bool]:
    """(Coq text of the factor G_i >= 0, strict, is a square)."""
    op, pj = fac
    p = Poly.from_json(pj)
    if op == "sq":
        return f"({terms.poly(p, lifted)} ^ 2)", False, True
    return f"(- {terms.poly(p, lifted)})", op == "<", False


# ---------------------------------------------------------------------------------------
# identity and witness
# ---------------------------------------------------------------------------------------


def identity_lemma(name: str, cert: dict[str, Any]) -> str:
    """A Coq ``Lemma`` for an ``identity`` certificate: every pair's sides are equal wherever
    the divisors are non-zero (``field``)."""
    terms = CoqTerms(functions=dict.fromkeys(cert.get("functions", [])))
    pairs = [(_one(a), _one(b)) for a, b in cert["pairs"]]
    names: dict[str, None] = {}
    for a, b in pairs:
        _free(a, names)
        _free(b, names)
    eqs = [f"{terms.term(a)} = {terms.term(b)}" for a, b in pairs]
    divisors = list(terms.divisors)
    if terms.ites:
        raise Untranslatable("an identity with if-then-else terms")
    goal = eqs[0] if len(eqs) == 1 else " /\\ ".join(f"({e})" for e in eqs)
    statement = _forall(terms, list(names), [f"{d} <> 0" for d in divisors], goal)
    functions = [terms.ident(f) for f, arity in terms.functions.items() if arity is not None]
    intro = " ".join(functions + [terms.ident(n) for n in names] + [f"H'{k + 1}" for k in range(len(divisors))])
    # field, not ring, even without divisors: ring takes a constant (1/2) as an opaque inverse
    close = "field; repeat split; first [assumption | symcal_nonzero]" if divisors else "field"
    tactic = " ".join(["repeat split;" if len(eqs) > 1 else "", close])
    return "\n".join([f"Lemma {name} :\n  {statement}.", "Proof.", f"  intros {intro}." if intro else "  intros.",
                      f"  {tactic.strip()}.", "Qed."])


def witness_lemma(name: str, cert: dict[str, Any]) -> str:
    """A Coq ``Lemma`` for a ``witness`` certificate: ``~ (forall vars, holds -> fails)`` (a
    counterexample) or ``exists vars, holds`` (an example), proved at the rational point."""
    terms = CoqTerms()
    holds = [_one(f) for f in cert.get("holds", [])]
    fails = [_one(f) for f in cert.get("fails", [])]
    names: dict[str, None] = {}
    for f in holds + fails:
        _free(f, names)
    values = {k: Fraction(v) for k, v in cert["values"].items()}
    missing = [n for n in names if n not in values]
    if missing:
        raise Untranslatable(f"no value for {missing[0]}")
    hs = [terms.formula(f) for f in holds]
    point = " ".join(_number(values[n]) for n in names)
    if fails:
        concl = " /\\ ".join(terms.formula(f) for f in fails)
        statement = f"~ ({_forall(terms, list(names), hs, concl)})"
        proof = [f"  intro H'0. pose proof (H'0 {point}) as H'1. clear H'0.", "  lra."] if names else \
            ["  intro H'0. lra."]
    else:
        body = " /\\ ".join(hs) if hs else "True"
        statement = f"exists {terms.binders(list(names))},\n    {body}" if names else body
        transcendental = any(f in body for f in ("exp ", "Rpower ", "sqrt ", "ln "))
        close = "  repeat split; first [lra | symcal_atoms; nra]." if transcendental else "  repeat split; lra."
        proof = [f"  exists {', '.join(_number(values[n]) for n in names)}." if names else "", close]
    if terms.ites:
        raise Untranslatable("a witness with if-then-else terms")
    return "\n".join([f"Lemma {name} :\n  {statement}.", "Proof.", *[p for p in proof if p], "Qed."])


# ---------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------


@dataclass
class CoqFile:
    """One exported claim: its file, lemmas, how faithful its statement is, and coqc's answer."""

    claim_id: str
    path: Path
    lemmas: list[str]
    kinds: list[str]
    reduced: str = ""  # non-empty: the reduction from the claim to the lemmas, not formalised
    compiled: bool | None = None
    seconds: float = 0.0
    coqc_error: str = ""


@dataclass
class ExportResult:
    """What :func:`export_coq` wrote and skipped (with reasons)."""

    directory: Path
    files: list[CoqFile] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        exact = sum(1 for f in self.files if not f.reduced)
        line = (f"wrote {len(self.files)} Coq files to {self.directory} ({exact} with the claim's own statement, "
                f"{len(self.files) - exact} with the decided queries of a reduction not formalised in Coq); "
                f"skipped {len(self.skipped)} claims (reasons in {self.directory / 'README.md'})")
        checked = [f for f in self.files if f.compiled is not None]
        if checked:
            ok = sum(1 for f in checked if f.compiled)
            line += (f"; coqc: {ok} of {len(checked)} compile "
                     f"({sum(f.seconds for f in checked):.1f} s)")
        return line


def _comment(text: str) -> str:
    """``text`` safe inside a Coq comment: no nested comment marks, no string quotes (Coq lexes
    strings inside comments, so an unbalanced double quote would break the file)."""
    return text.replace("(*", "( *").replace("*)", "* )").replace('"', "''")


def _header(claim: Claim, verdict: Verdict, reduced: str, kinds: list[str]) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("symcal")
    except PackageNotFoundError:  # pragma: no cover
        ver = "unknown"
    cite = claim.citation
    lines = [
        f"claim     : {claim.id}",
        f"citation  : {cite.paper}, {cite.location}" + (f" -- ``{cite.quote}''" if cite.quote else ""),
        f"statement : {claim.statement}",
        f"symcal    : {verdict.status.value} ({verdict.scope}); certificates: {', '.join(sorted(set(kinds)))}",
    ]
    if claim.finding:
        lines.append(f"finding   : {claim.finding.what}")
    if verdict.status.value == "refuted":
        lines.append("scope     : the lemma states that the claim is FALSE: its negation, shown at an exact rational "
                     "counterexample (the smallest size refuted, for a sized claim)")
    if reduced:
        lines.append("scope     : the lemmas below are the queries symcal decided; the claim follows from them by "
                     f"symcal's reductions, which are NOT formalised here: {reduced}")
    elif verdict.status.value != "refuted":
        lines.append("scope     : each lemma is the claim's statement (at the size or case named), translated from "
                     "the SMT-LIB2 text / certificate symcal's kernel checked; a lemma <name>_query is the negated "
                     "claim's SMT-LIB2 query itself (unsat), from which <name> follows")
    lines.append(f"generated by symcal {ver} (symcal export --coq); no axioms beyond Coq's Reals")
    return "(* " + "\n   ".join(_comment(x) for x in lines) + " *)\n"


def _pieces_of(claim: Claim, verdict: Verdict) -> list[tuple[int | None, Any]]:
    """(size, outcome) for each decision behind the verdict: every size of a proved sweep, the
    first refuted size of a refuted one."""
    from symcal.backends.base import Outcome
    from symcal.verdicts import Status

    if verdict.sizes and verdict.status is not Status.REFUTED:
        return [(s.size, Outcome(s.status, s.scope, verdict.backend, s.evidence)) for s in verdict.sizes]
    size = next((s.size for s in verdict.sizes if s.status is Status.REFUTED), None)
    return [(size, Outcome(verdict.status, verdict.scope, verdict.backend, verdict.evidence))]


def _reduction_note(claim: Claim, outs: list[tuple[int | None, Any]]) -> str:
    from symcal.verdicts import Composite

    if claim.kind != "node" and claim.strategy != "local_lemma":
        return ""
    notes: list[str] = []

    def walk(ev: Any) -> None:
        n = getattr(ev, "note", "")
        if n and n not in notes and not re.fullmatch(r"\d+ sizes", n):
            notes.append(n)
        if isinstance(ev, Composite):
            for _, part in ev.parts:
                walk(part)

    for _, out in outs[:1]:
        walk(out.evidence)
    return "; ".join(notes)[:1500] or "the node-claim encoding (difference variables, node symmetry)"


def _claim_file(claim: Claim, verdict: Verdict, directory: Path, seconds: float,
                follow_tree: bool) -> CoqFile | str:
    """``seconds``: the certificate producer's time for each piece of evidence."""
    """The Coq file of one claim, or why it is not exported."""
    from symcal import certify
    from symcal.kernel import check as kernel_check
    from symcal.verdicts import Status

    if verdict.status not in (Status.PROVED, Status.REFUTED, Status.WITNESSED):
        return f"verdict {verdict.status.value}: nothing decisive to export" + (
            f" ({verdict.reason[:160]})" if verdict.reason else "")
    outs = _pieces_of(claim, verdict)
    blocks: list[str] = []
    lemmas: list[str] = []
    kinds: list[str] = []
    base = lemma_name(claim.id)
    for m, out in outs:
        built = certify.build(out, claim, m, max(certify.SECONDS, 6 * seconds), part_seconds=seconds)
        if not built:
            return "no evidence to certify"
        for k, (label, cert, why) in enumerate(built):
            where = (f"m = {m}: " if m is not None else "") + (f"{label}: " if label != "evidence" else "")
            if cert is None:
                return f"{where}no certificate ({why})"
            res = kernel_check(cert)
            if not res["checked"]:
                return f"{where}the kernel does not accept the certificate ({res['reason']})"
            tail = [f"m{m}"] if m is not None else []
            if len(built) > 1:  # the piece's label, without a repeated size: "m=3, alpha=(0, 1, 0)"
                slug = lemma_name(re.sub(r"^\s*m\s*=\s*\d+\s*,?\s*", "", label)).strip("_")
                tail.append(slug[:60] if slug and not slug.startswith("claim_") else f"part{k + 1}")
            name = lemma_name("_".join([base, *tail]))
            while name in lemmas or f"{name}_query" in lemmas:
                name += f"_{k + 1}"
            try:
                if cert["kind"] == "farkas":
                    text = farkas_lemma(name, cert, follow_tree=follow_tree)
                elif cert["kind"] == "node":  # its queries; the reduction is re-derived by symcal's kernel
                    text = "\n\n".join(
                        farkas_lemma(lemma_name(f"{name}_{'_'.join(map(str, t)) if isinstance(t, list) else t}"),
                                     body, follow_tree=follow_tree)
                        for t, body in cert["queries"])
                elif cert["kind"] == "identity":
                    text = identity_lemma(name, cert)
                elif cert["kind"] == "witness":
                    text = witness_lemma(name, cert)
                else:
                    return f"{where}a certificate of kind {cert['kind']!r} has no Coq translation here"
            except (Untranslatable, Unsupported) as e:
                return f"{where}{e}"
            kinds.append(cert["kind"])
            lemmas.append(name)
            label_text = (f"size m = {m}" if m is not None else "") + (
                f"{', ' if m is not None else ''}{label}" if label != "evidence" else "")
            if verdict.status is Status.REFUTED:
                label_text = (label_text + ": " if label_text else "") + "the claim is FALSE (exact counterexample)"
            blocks.append((f"(* {_comment(label_text)} *)\n" if label_text else "") + text)
    reduced = _reduction_note(claim, outs)
    path = directory / f"{lemma_name(claim.id)}.v"
    body = "\n\n".join(blocks)
    helpers = "".join("\n" + text for dec, text in _ITE_LEMMAS.items() if f"symcal_ite_{dec} " in body)
    path.write_text(_header(claim, verdict, reduced, kinds) + "\n" + PRELUDE + helpers + "\n" + body + "\n")
    return CoqFile(claim.id, path, lemmas, kinds, reduced)


def _memory_limit(memory_mb: int) -> Callable[[], None] | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None

    def limit() -> None:
        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return limit


def _output_dir(directory: str | Path, check: bool) -> Path:
    """The export folder, created; with ``check``, coqc must be on PATH (one-line errors otherwise)."""
    from symcal.errors import invalid

    out_dir = Path(directory)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise invalid("--coq", str(directory), "a directory symcal can create and write", str(e)) from None
    if check and not coqc_available():
        raise invalid("--check", True, "coqc on PATH", "install Coq (apt-get install coq) or drop --check")
    return out_dir


def coqc_available() -> bool:
    """Whether ``coqc`` is on PATH."""
    return shutil.which("coqc") is not None


def _clean(path: Path) -> None:
    """Remove what coqc wrote beside ``path``."""
    for ext in (".vo", ".vok", ".vos", ".glob"):
        path.with_suffix(ext).unlink(missing_ok=True)
    (path.parent / f".{path.stem}.aux").unlink(missing_ok=True)


def run_coqc(path: Path, timeout: float = 600.0, memory_mb: int = 4096, keep: bool = False) -> tuple[bool, float, str]:
    """Compile ``path`` with ``coqc`` (in its directory, at most ``timeout`` seconds and
    ``memory_mb`` MB of address space); (compiled, seconds, error text).  A file containing
    ``Admitted``, ``admit`` or a command that assumes (``Axiom``, ``Parameter``, ``Hypothesis``,
    ``Variable``, ``Context``, ``Conjecture``) counts as failed.  ``keep``: leave the compiled
    ``.vo`` for a file that imports this one."""
    exe = shutil.which("coqc")
    if exe is None:
        return False, 0.0, "coqc is not on PATH"
    text = path.read_text()
    code = re.sub(r"\(\*.*?\*\)", "", text, flags=re.S)
    cheat = re.search(r"\b(Admitted|admit|Axioms?|Parameters?|Hypothesis|Hypotheses|Variables?|Context|Conjecture)\b",
                      code)
    if cheat:
        return False, 0.0, f"the file contains {cheat.group(1)}: an assumption, not a proof"
    start = time.perf_counter()
    try:
        r = subprocess.run([exe, "-q", path.name], cwd=path.parent, capture_output=True, text=True, timeout=timeout,
                           preexec_fn=_memory_limit(memory_mb))
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - start, f"coqc ran past {timeout:g} s"
    secs = time.perf_counter() - start
    if not keep or r.returncode != 0:  # keep: a later part imports this one
        _clean(path)
    if r.returncode != 0:
        return False, secs, (r.stderr or r.stdout).strip()[-2000:]
    return True, secs, ""


def _index(result: ExportResult) -> str:
    lines = ["# Coq export (symcal export --coq)", "",
             "Each `.v` file holds the certified statements of one claim; compile one with `coqc FILE.v`.",
             "Files marked *reduction* hold the queries symcal decided for a node claim; the step from",
             "them to the claim (difference variables, node symmetry, the per-node split, the local",
             "lemma for every size) is symcal's argument and is not formalised in Coq.", "",
             "## Exported", "", "| claim | file | lemmas | certificates | statement | coqc |",
             "|---|---|---|---|---|---|"]
    for f in result.files:
        coq = "-" if f.compiled is None else (f"compiles ({f.seconds:.1f} s)" if f.compiled else "FAILS")
        lines.append(f"| {f.claim_id} | {f.path.name} | {len(f.lemmas)} | {', '.join(sorted(set(f.kinds)))} | "
                     f"{'reduction (see file)' if f.reduced else 'the claim'} | {coq} |")
    lines += ["", "## Not exported", "", "| claim | reason |", "|---|---|"]
    for cid, why in result.skipped:
        lines.append(f"| {cid} | {why.replace('|', '/').replace(chr(10), ' ')} |")
    return "\n".join(lines) + "\n"


def export_coq(claims: Sequence[Claim], directory: str | Path, *, timeout: float = 60.0, jobs: int = 1,
               certify_seconds: float = 5.0, check: bool = False, follow_tree: bool = True,
               verdicts: Sequence[Verdict] | None = None,
               progress: Callable[[str], None] | None = None) -> ExportResult:
    """Decide ``claims``, certify each decisive verdict with :mod:`symcal.certify`, have the
    kernel check every certificate, and write each fully certified claim as a Coq file
    ``<id>.v`` (dots as ``_``) into ``directory`` (plus ``README.md``: the index, and the claims not exported
    with their reasons).  ``certify_seconds``: the certificate producer's time per piece of
    evidence (as ``symcal check --certify``: 5 s; a larger case tree needs more).  ``check``:
    compile each file with ``coqc`` and record the answer.
    ``verdicts``: already decided verdicts of ``claims`` (same order), else they are decided
    here (``timeout`` CPU seconds per decision, ``jobs`` workers)."""

    out_dir = _output_dir(directory, check)
    if verdicts is None:
        from symcal.runner import check_many

        verdicts = check_many(claims, timeout=timeout, jobs=jobs, cross_check=False, certify=False, progress=progress)
    result = ExportResult(out_dir)
    for i, (claim, verdict) in enumerate(zip(claims, verdicts, strict=True)):
        try:
            got = _claim_file(claim, verdict, out_dir, certify_seconds, follow_tree)
        except Exception as e:  # noqa: BLE001 - the certificate producer is best effort
            got = f"the export failed: {type(e).__name__}: {e}"
        if isinstance(got, str):
            result.skipped.append((claim.id, got[:400]))
            if progress:
                progress(f"[{i + 1}/{len(claims)}] {claim.id}: skipped ({got[:100]})")
            continue
        if check:
            got.compiled, got.seconds, got.coqc_error = run_coqc(got.path)
        result.files.append(got)
        if progress:
            progress(f"[{i + 1}/{len(claims)}] {claim.id}: {got.path.name}" + ("" if got.compiled is None else
                                                      f" ({'compiles' if got.compiled else 'FAILS'}, "
                                                      f"{got.seconds:.1f} s)"))
    (out_dir / "README.md").write_text(_index(result))
    return result


# ---------------------------------------------------------------------------------------
# from certificate files (symcal check --certificates DIR)
# ---------------------------------------------------------------------------------------

# A claim's Coq text beyond this is written as several files, each importing the one before
# (``Require Import``), so that no coqc run faces the whole replay (Lemma 16 at m = 4: MBs).
MAX_FILE_CHARS = 250_000
# One decision's Coq text beyond this is listed, not written: at about 10 s of coqc per 100 KB
# (Lemma 16 at m = 4, one of its 76 parts: 400 KB in 2 files, 28 s), 4 MB is several minutes.
MAX_DECISION_CHARS = 4_000_000


def _cert_blocks(base: str, cert: dict[str, Any], follow_tree: bool) -> list[tuple[str, str]]:
    """(Coq kind, text) blocks for one kernel certificate, in dependency order; ``all`` is
    split into its parts, a ``node`` certificate into one block per query."""
    kind = cert.get("kind")
    if kind == "all":
        out: list[tuple[str, str]] = []
        for k, (label, part) in enumerate(cert["parts"]):
            slug = lemma_name(re.sub(r"^\s*m\s*=\s*\d+\s*,?\s*", "", str(label))).strip("_")
            tail = slug[:60] if slug and not slug.startswith("claim_") else f"part{k + 1}"
            blocks = _cert_blocks(lemma_name(f"{base}_{tail}"), part, follow_tree)
            if blocks:
                blocks[0] = (blocks[0][0], f"(* {_comment(str(label))} *)\n" + blocks[0][1])
            out += blocks
        return out
    if kind == "farkas":
        return [("farkas", t) for t in farkas_lemmas(base, cert, follow_tree=follow_tree)]
    if kind == "node":
        out = []
        for t, body in cert["queries"]:
            sub = lemma_name(f"{base}_{'_'.join(map(str, t)) if isinstance(t, list) else t}")
            out += [("node", x) for x in farkas_lemmas(sub, body, follow_tree=follow_tree)]
        return out
    if kind == "identity":
        return [("identity", identity_lemma(base, cert))]
    if kind == "witness":
        return [("witness", witness_lemma(base, cert))]
    raise Untranslatable(f"a certificate of kind {kind!r} has no Coq translation here (interval: ball arithmetic; "
                         f"quadratic: the calibration engine's reduction; matrix: exact linear algebra)")


def _read_certificates(cert_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """Certificate files of ``cert_dir`` grouped by claim id, each claim's by size."""
    import json

    from symcal.errors import invalid

    if not cert_dir.is_dir():
        raise invalid("--from-certificates", str(cert_dir), "a folder written by symcal check --certificates")
    by_claim: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(cert_dir.glob("*.json")):
        try:
            rec = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("claim"), str):
            rec["_file"] = path.name
            by_claim.setdefault(rec["claim"], []).append(rec)
    for recs in by_claim.values():
        recs.sort(key=lambda r: (r.get("size") is not None, r.get("size") or 0))
    return by_claim


def _files_of(base: str, blocks: list[str], directory: Path, header: str) -> list[Path]:
    """Write ``blocks`` as ``<base>.v`` or, beyond ``MAX_FILE_CHARS``, as ``<base>.v``,
    ``<base>_2.v``, ... each importing the one before."""
    chunks: list[list[str]] = [[]]
    size = 0
    for b in blocks:
        if chunks[-1] and size + len(b) > MAX_FILE_CHARS:
            chunks.append([])
            size = 0
        chunks[-1].append(b)
        size += len(b)
    paths: list[Path] = []
    for k, chunk in enumerate(chunks):
        name = base if k == 0 else f"{base}_{k + 1}"
        path = directory / f"{name}.v"
        body = "\n\n".join(chunk)
        if k == 0:
            helpers = "".join("\n" + text for dec, text in _ITE_LEMMAS.items()
                              if f"symcal_ite_{dec} " in "".join(blocks))
            path.write_text(header + "\n" + PRELUDE + helpers + "\n" + body + "\n")
        else:
            path.write_text(header + f"\n(* part {k + 1} of {len(chunks)} *)\nRequire Import Reals Lra Psatz.\n"
                            f"Require Import {' '.join(p.stem for p in paths)}.\nOpen Scope R_scope.\n\n" + body + "\n")
        paths.append(path)
    return paths


def _cert_header(claim: Any, rec: dict[str, Any], kinds: list[str], reduced: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("symcal")
    except PackageNotFoundError:  # pragma: no cover
        ver = "unknown"
    lines = [f"claim     : {rec['claim']}" + (f" at m = {rec['size']}" if rec.get("size") is not None else "")]
    if claim is not None:
        lines.append(f"citation  : {claim.citation.paper}, {claim.citation.location}")
    lines += [f"statement : {rec.get('text', '')}",
              f"symcal    : {rec.get('status')} ({rec.get('scope', '')}); "
              f"certificates: {', '.join(sorted(set(kinds)))}; "
              f"from {rec['_file']}"]
    if rec.get("status") == "refuted":
        lines.append("scope     : the lemma states that the claim is FALSE at this size: its negation, shown at an "
                     "exact rational counterexample")
    if reduced:
        lines.append("scope     : the lemmas below are what symcal's certificate proves; the claim follows from them "
                     f"by these steps, NOT formalised here: {reduced}")
    lines.append(f"generated by symcal {ver} (symcal export --coq --from-certificates); no axioms beyond Coq's Reals")
    return "(* " + "\n   ".join(_comment(x) for x in lines) + " *)\n"


def export_certificates(claims: Sequence[Claim], cert_dir: str | Path, directory: str | Path, *,
                        check: bool = False, follow_tree: bool = True, coqc_timeout: float = 600.0,
                        progress: Callable[[str], None] | None = None) -> ExportResult:
    """Write the certificates of ``symcal check --certificates CERT_DIR`` as Coq files, without
    deciding anything again: for each claim of ``claims`` and each of its certificate files (one
    per size of a sized claim), the kernel re-checks the certificate and the file becomes
    ``<id>.v`` or ``<id>_m<size>.v`` (several parts ``..._2.v``, ... importing each other when the
    text is beyond ``MAX_FILE_CHARS``).  A claim without a file, a decision whose certificate is
    missing, rejected or has no Coq translation, is listed in ``README.md`` with the reason; a
    sized claim with some sizes exported is listed there too, for the sizes that are not.
    ``check``: compile every file with ``coqc`` (in order, each part after the one it imports)."""
    from symcal.kernel import check as kernel_check

    out_dir = _output_dir(directory, check)
    records = _read_certificates(Path(cert_dir))
    result = ExportResult(out_dir)
    for i, claim in enumerate(claims):
        recs = records.get(claim.id, [])
        if not recs:
            result.skipped.append((claim.id, "no certificate file: symcal check --certificates writes one only for a "
                                             "decisive verdict (proved, refuted, witnessed)"))
            continue
        for rec in recs:
            where = claim.id + (f" at m = {rec['size']}" if rec.get("size") is not None else "")
            base = lemma_name(claim.id) + (f"_m{rec['size']}" if rec.get("size") is not None else "")
            why = _one_record(claim, rec, base, out_dir, result, kernel_check, follow_tree, check, coqc_timeout)
            if why:
                result.skipped.append((where, why[:400]))
            if progress:
                progress(f"[{i + 1}/{len(claims)}] {where}: {why[:100] if why else 'written'}")
    (out_dir / "README.md").write_text(_index(result))
    return result


def _one_record(claim: Any, rec: dict[str, Any], base: str, out_dir: Path, result: ExportResult,
                kernel_check: Callable[[Any], dict[str, Any]], follow_tree: bool, check: bool,
                coqc_timeout: float) -> str:
    """Export one certificate file; '' or why not."""
    cert = rec.get("certificate") or {}
    body = cert.get("body")
    missing = cert.get("missing") or []
    if body is None:
        return "no certificate (" + "; ".join(f"{lab}: {w}" for lab, w in missing)[:300] + ")"
    if missing:
        return "a piece has no certificate (" + "; ".join(f"{lab}: {w}" for lab, w in missing)[:300] + ")"
    res = kernel_check(body)
    if not res["checked"]:
        return f"the kernel does not accept the certificate ({res['reason'][:200]})"
    try:
        blocks = _cert_blocks(base, body, follow_tree)
    except (Untranslatable, Unsupported) as e:
        return str(e)
    except RecursionError:
        return "the certificate is nested too deeply to translate"
    total = sum(len(t) for _, t in blocks)
    if total > MAX_DECISION_CHARS:
        return (f"the Coq replay is {total / 1e6:.1f} MB ({len(blocks)} lemmas), beyond the "
                f"{MAX_DECISION_CHARS / 1e6:g} MB per decision exported (about {total / 1e4:.0f} s of coqc)")
    kinds = [k for k, _ in blocks]
    steps = [s for s in rec.get("reductions") or [] if s.get("kind")]
    reduced = "; ".join(dict.fromkeys(
        f"{s['kind']} ({'re-checked by symcal kernel' if s.get('checked_by_kernel') else 'trusted'})" for s in steps))
    if "node" in kinds and "node" not in reduced:
        reduced = "; ".join(x for x in (reduced, "node symmetry and the per-tuple queries (re-derived by symcal's "
                                                 "kernel)") if x)
    header = _cert_header(claim, rec, kinds, reduced)
    paths = _files_of(base, [t for _, t in blocks], out_dir, header)
    files = [CoqFile(rec["claim"] + (f" at m = {rec['size']}" if rec.get("size") is not None else "")
                     + (f" (part {k + 1} of {len(paths)})" if len(paths) > 1 else ""), p,
                     re.findall(r"^Lemma (\S+)", p.read_text(), flags=re.M), kinds, reduced)
             for k, p in enumerate(paths)]
    if check:
        for k, f in enumerate(files):
            f.compiled, f.seconds, f.coqc_error = run_coqc(f.path, timeout=coqc_timeout, keep=k + 1 < len(files))
        for f in files[:-1]:
            _clean(f.path)
    result.files.extend(files)
    return ""
