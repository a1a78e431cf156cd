"""Section 3 (Conditions for consistency): Theorem 13 with r(a) = a^2 and every step of its
proof, Theorem 13 for a kinked strictly convex r (an erratum), Lemma 14 and every case of its
proof (an erratum in the tie case), its false converse, Corollary 15, and the remark that the
regulariser r is needed."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from symcal import And, Finding, Implies, Local, all_sizes, finite_check, identity, implies, node_implies
from symcal.claims.core import Claim

from .common import HALF, acyclic, alpha, asym, cite, d, has_cycle, pairs, twin_id

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}


# ---------------------------------------------------------------------------------------
# Theorem 13 with r(a) = a^2
# ---------------------------------------------------------------------------------------

NU = sympy.Symbol("nu", real=True)  # real, not positive: "nu > 0" stays a hypothesis


def net_out(i: int, m: int) -> Any:
    """sum_j (a_ij - a_ji) over raw weight symbols a_i_j."""
    return sum((asym(i, j) - asym(j, i) for j in range(1, m + 1) if j != i), sympy.Integer(0))


def alpha_star(i: int, m: int, factor: Any = 2) -> Any:
    """Eq. (15) with r(a) = a^2: s(g) = g / 2, so a*_i = sum_j (a_ij - a_ji) / (2 nu)."""
    return net_out(i, m) / (factor * NU)


def linear_w(m: int, r: Callable[[Any], Any], al: Callable[[int], Any] = alpha) -> Any:
    """W(p, a) = sum_G p_G phi(a, G) for Eq. (14): sum_{i != j} a_ij (a_j - a_i) + nu sum_i r(a_i)."""
    return sum((asym(i, j) * (al(j) - al(i)) for i, j in pairs(m)), sympy.Integer(0)) + NU * sum(
        (r(al(i)) for i in range(1, m + 1)), sympy.Integer(0)
    )


def theorem13_gradient_claim(
    id: str = "duchi2010.theorem13.eq15", *, factor: Any = 2, sizes: tuple[int, int] = (3, 6)
) -> Claim:
    """Theorem 13, proof, Eq. (15): "Optimality is therefore attained uniquely at a*_i = s((sum_j a_ij - a_ji) / nu)."
    ``factor`` 1 drops the 1/2 of s(g) = g/2 for r = a^2 (the twin)."""

    def grad_at_star(m: int) -> sympy.Matrix:
        w = linear_w(m, lambda x: x**2)
        star = {alpha(i): alpha_star(i, m, factor) for i in range(1, m + 1)}
        return sympy.Matrix([sympy.diff(w, alpha(i)).xreplace(star) for i in range(1, m + 1)])

    return identity(
        id,
        grad_at_star,
        lambda m: sympy.zeros(m, 1),
        cite=cite(
            "Theorem 13, proof, Eq. (15)",
            "Optimality is therefore attained uniquely at a*_i = s((sum_j a_ij - a_ji) / nu).",
        ),
        statement="with r(a) = a^2, the gradient of W at a*_i = sum_j (a_ij - a_ji)/(2 nu) is 0",
        sizes=sizes,
    )


theorem13_eq15 = theorem13_gradient_claim()
TWINS[theorem13_eq15.id] = lambda: theorem13_gradient_claim(twin_id(theorem13_eq15.id), factor=1, sizes=(3, 3))


def theorem13_unique_claim(
    id: str = "duchi2010.theorem13.eq15.unique_minimum", *, scale: Any = 1, sizes: tuple[int, int] = (3, 5)
) -> Claim:
    """Theorem 13, proof: "since a* is the unique global minimum" -- W(a) - W(a*) = nu |a - a*|^2 for r = a^2.
    ``scale`` 2 doubles the right-hand side (the twin)."""

    def lhs(m: int) -> Any:
        w = linear_w(m, lambda x: x**2)
        return w - w.xreplace({alpha(i): alpha_star(i, m) for i in range(1, m + 1)})

    return identity(
        id,
        lhs,
        lambda m: scale * NU * sum(((alpha(i) - alpha_star(i, m)) ** 2 for i in range(1, m + 1)), sympy.Integer(0)),
        cite=cite("Theorem 13, proof", "since a* is the unique global minimum"),
        statement="with r(a) = a^2: W(a) - W(a*) = nu |a - a*|^2, so a* is the unique minimiser for nu > 0",
        sizes=sizes,
    )


theorem13_unique = theorem13_unique_claim()
TWINS[theorem13_unique.id] = lambda: theorem13_unique_claim(
    twin_id("duchi2010.theorem13.unique"), scale=2, sizes=(3, 3)
)


def theorem13_w_form_claim(
    id: str = "duchi2010.theorem13.w_form", *, sign: int = 1, sizes: tuple[int, int] = (3, 6)
) -> Claim:
    """Theorem 13, proof: "W(p, a) = sum_i (a_i sum_j (a_ji - a_ij) + nu r(a_i))" for every r.  ``sign`` -1
    flips the linear term (the twin)."""
    r = sympy.Function("r")
    return identity(
        id,
        lambda m: linear_w(m, r),
        lambda m: sum(
            (alpha(i) * sign * (-net_out(i, m)) + NU * r(alpha(i)) for i in range(1, m + 1)), sympy.Integer(0)
        ),
        cite=cite("Theorem 13, proof", "W(p, a) = sum_i (a_i sum_j (a_ji - a_ij) + nu r(a_i))"),
        statement="sum_{i != j} a_ij (a_j - a_i) + nu sum_i r(a_i) = sum_i (a_i sum_j (a_ji - a_ij) + nu r(a_i))",
        sizes=sizes,
    )


theorem13_w_form = theorem13_w_form_claim()
TWINS[theorem13_w_form.id] = lambda: theorem13_w_form_claim(twin_id(theorem13_w_form.id), sign=-1, sizes=(3, 3))


def s_of(i: int, m: int) -> Any:
    return sum((d(i, j) for j in range(1, m + 1)), sympy.Integer(0))


def star_d(i: int, m: int) -> Any:
    """a*_i in difference variables: sum_j d_ij / (2 nu)."""
    return s_of(i, m) / (2 * NU)


def eq16(m: int, slack: Any = 0) -> Any:
    """(16): sum_j (a_ij - a_ji)/nu > sum_j (a_kj - a_jk)/nu whenever a_ik > a_ki."""
    return sympy.And(
        *[
            sympy.Implies(d(i, k) > 0, s_of(i, m) / NU > s_of(k, m) / NU + slack)
            for i, k in itertools.permutations(range(1, m + 1), 2)
        ]
    )


def alpha_in_lemma16_set(al: Callable[[int], Any], m: int) -> Any:
    """A(p) of a DAG difference graph, by Lemma 16."""
    return sympy.And(
        *[
            sympy.Implies(d(i, k) > 0, al(i) > al(k) if i < k else al(i) >= al(k))
            for i, k in itertools.permutations(range(1, m + 1), 2)
        ]
    )


def alpha_respects_edges(al: Callable[[int], Any], m: int) -> Any:
    return sympy.And(
        *[sympy.Implies(d(i, k) > 0, al(i) > al(k)) for i, k in itertools.permutations(range(1, m + 1), 2)]
    )


THM13_QUOTE = "Hence, the optimal a* of Eq. (15) is in A(p) if and only if (16) when a_ik > a_ki."


def theorem13_iff_claim(
    id: str, *, strict: bool, slack: Any = 0, sizes: tuple[int, int] = (3, 5), finding: Finding | None = None
) -> Claim:
    """Theorem 13, proof, Eq. (16): "Hence, the optimal a* of Eq. (15) is in A(p) if and only if (16)".
    ``strict`` reads "in A(p)" as "strictly respects every edge" (the corrected statement)."""
    inside = alpha_respects_edges if strict else alpha_in_lemma16_set
    return implies(
        id,
        hypotheses={"dag": lambda m: [acyclic(d, m)], "nu_positive": [NU > 0]},
        conclusion=lambda m: sympy.Equivalent(inside(lambda i: star_d(i, m), m), eq16(m, slack)),
        cite=cite(
            "Theorem 13, proof, Eq. (16)",
            THM13_QUOTE + (" [corrected: strictly respects every edge]" if strict else ""),
        ),
        statement=(
            "for a DAG G~: a* of (15) strictly respects every edge of G~ <=> (16)"
            if strict
            else "for a DAG G~: a* of (15) is in A(p) (Lemma 16's set) <=> (16)"
        ),
        sizes=sizes,
        finding=finding,
    )


theorem13_iff = theorem13_iff_claim(
    "duchi2010.theorem13.eq16_iff_alpha_star_in_a",
    strict=False,
    sizes=(3, 4),
    finding=Finding(
        what=(
            "Theorem 13's proof: 'a* is in A(p) iff (16)' fails when G~ has an edge i -> k with "
            "i > k and a*_i = a*_k: Lemma 16's A(p) then only asks a_i >= a_k, so a* is in A(p) "
            "(on its boundary) while (16) fails. The theorem survives: a boundary a* still gives "
            "W* = inf{W : a not in A(p)}; what is equivalent to (16) is that a* is in the interior "
            "of A(p), i.e. strictly respects every edge of G~."
        ),
        counterexample=(
            "m = 3, nu = 1, a_21 = 1, a_13 = 2, all other a = 0: G~ = {2 -> 1, 1 -> 3} is a "
            "DAG, a* = (1/2, 1/2, -1) is in A(p) = {a_2 >= a_1 > a_3}, but (16) fails for (i, k) = (2, 1) "
            "since sum_j d_2j = 1 = sum_j d_1j."
        ),
        corrected="duchi2010.theorem13.eq16_iff_alpha_star_in_a.corrected",
        finding_class="proof",
    ),
)
theorem13_iff_corrected = theorem13_iff_claim(theorem13_iff.finding.corrected, strict=True)
TWINS[theorem13_iff_corrected.id] = lambda: theorem13_iff_claim(
    twin_id("duchi2010.theorem13.iff"), strict=True, slack=1, sizes=(3, 3)
)


@functools.cache
def star_sym(i: int) -> sympy.Symbol:
    return sympy.Symbol(f"astar_{i}", real=True)


def theorem13_neighbourhood_claim(
    id: str = "duchi2010.theorem13.neighbourhood", *, half: Any = HALF, sizes: tuple[int, int] = (3, 4)
) -> Claim:
    """Theorem 13, proof: "for all a satisfying |a - a*|_oo < min_{i,k: a_ik > a_ki} (a*_i - a*_k)/2, we have a in
    A(p)".  ``half`` 1 widens the neighbourhood (the twin)."""

    def near(m: int) -> list[Any]:
        return [
            sympy.Implies(d(i, k) > 0, sympy.Abs(alpha(j) - star_sym(j)) < half * (star_sym(i) - star_sym(k)))
            for i, k in itertools.permutations(range(1, m + 1), 2)
            for j in range(1, m + 1)
        ]

    return implies(
        id,
        hypotheses={"eq16": lambda m: [alpha_respects_edges(star_sym, m)], "near": near},
        conclusion=lambda m: alpha_respects_edges(alpha, m),
        cite=cite(
            "Theorem 13, proof",
            "for all a satisfying |a - a*|_oo < min_{i,k: a_ik > a_ki} (a*_i - a*_k)/2, we have a in A(p)",
        ),
        statement=(
            "a* strictly respects every edge and |a - a*|_oo < min (a*_i - a*_k)/2 => a strictly respects every edge"
        ),
        sizes=sizes,
    )


theorem13_neighbourhood = theorem13_neighbourhood_claim()
TWINS[theorem13_neighbourhood.id] = lambda: theorem13_neighbourhood_claim(
    twin_id(theorem13_neighbourhood.id), half=1, sizes=(3, 3)
)


# --- Theorem 13 for a strictly convex r that is not differentiable --------------------------
# Theorem 13 asks only that r be strictly convex and 1-coercive.  Its proof uses
# "s = (dr)^-1 is increasing" as if strictly: a*_i > a*_k iff g_i > g_k.  For a kinked r the
# inverse subdifferential is flat on the kink, so distinct g can give equal a*.
# The family r_{k,b,c}(a) = k a^2 + b a + c |a| (k > 0, c >= 0) is strictly convex and
# 1-coercive; its minimiser of -G a + nu r(a) is the soft threshold below (exact).

R = tuple[Fraction, Fraction, Fraction]  # (k, b, c): r(a) = k a^2 + b a + c |a|


def _soft_threshold_minimiser(g: Fraction, nu: Fraction, k: Fraction, b: Fraction, c: Fraction) -> Fraction:
    """argmin_a  -g a + nu (k a^2 + b a + c |a|), exactly."""
    t = g / nu - b  # the subgradient condition: t in 2 k a + c * sign(a)
    if abs(t) <= c:
        return Fraction(0)
    return (t - c) / (2 * k) if t > 0 else (t + c) / (2 * k)


def _theorem13_general_r_cases(rs: tuple[R, ...]) -> list[Any]:
    grid = (Fraction(0), Fraction(1, 2), Fraction(1))
    cases = []
    for m in (2, 3):
        for values in itertools.product(grid, repeat=len(pairs(m))):
            a = dict(zip(pairs(m), values, strict=True))
            for nu in (Fraction(1), Fraction(1, 2)):
                for r in rs:
                    cases.append((m, a, nu, r))
    return cases


def _theorem13_general_r_holds(case: Any) -> tuple[bool, str]:
    m, a, nu, (k, b, c) = case
    g = {i: sum((a.get((i, j), 0) - a.get((j, i), 0) for j in range(1, m + 1) if j != i), Fraction(0))
         for i in range(1, m + 1)}
    edges = [(i, j) for i, j in pairs(m) if a.get((i, j), 0) > a.get((j, i), 0)]
    if has_cycle(edges, m):
        return True, "difference graph not a DAG: outside the theorem"
    star = {i: _soft_threshold_minimiser(g[i], nu, k, b, c) for i in range(1, m + 1)}
    consistent = all(star[i] > star[j] for i, j in edges)  # a* in the interior of A(p)
    cond16 = all(g[i] > g[k2] for i, k2 in edges)
    return consistent == cond16, (f"m={m}, a={ {f'a{i}{j}': str(v) for (i, j), v in a.items() if v} }, nu={nu}, "
                                  f"r=({k})a^2+({b})a+({c})|a|: (16) {'holds' if cond16 else 'fails'} but a* = "
                                  f"{ {i: str(v) for i, v in star.items()} } "
                                  f"{'respects' if consistent else 'does not strictly respect'} every edge")


def theorem13_general_r_claim(id: str, rs: tuple[R, ...], *, finding: Finding | None = None, statement: str) -> Claim:
    """Theorem 13: "... where nu > 0 and r is strictly convex and 1-coercive. If (G, p) induces a difference graph
    that is a DAG, then [edge-consistency] <=> (16)", on a grid of weights for the regularisers ``rs``."""
    return finite_check(
        id,
        cases=lambda m: _theorem13_general_r_cases(rs),
        holds=_theorem13_general_r_holds,
        sample='a grid of weights and two choices of r, of a statement for every strictly convex r',
        domain=(f"m = 2, 3; a_ij in {{0, 1/2, 1}}; nu in {{1, 1/2}}; r(a) = k a^2 + b a + c|a| for (k, b, c) in "
                f"{[tuple(str(x) for x in r) for r in rs]}"),
        describe=lambda case: {"m": case[0], **{f"a[{i},{j}]": v for (i, j), v in case[1].items() if v},
                               "nu": case[2], "r": f"({case[3][0]})a^2 + ({case[3][1]})a + ({case[3][2]})|a|"},
        cite=cite("Theorem 13", "... where nu > 0 and r is strictly convex and 1-coercive. If the pair (G, p) "
                                "induces a difference graph that is a DAG, then [edge-consistency] <=> (16)."),
        statement=statement,
        finding=finding,
    )


_F = Fraction
theorem13_strictly_convex_r = theorem13_general_r_claim(
    "duchi2010.theorem13.strictly_convex_r",
    ((_F(1), _F(0), _F(0)), (_F(1), _F(0), _F(1))),
    statement="for strictly convex 1-coercive r (here k a^2 + c|a|), a DAG difference graph gives: "
              "edge-consistency (a* strictly respects every edge) <=> (16)",
    finding=Finding(
        what=("Theorem 13 holds for differentiable r but not for every strictly convex 1-coercive r: the proof's "
              "step 'a*_i > a*_k iff (sum_j a_ij - a_ji)/nu > (sum_j a_kj - a_jk)/nu' needs s = (dr)^-1 strictly "
              "increasing, and at a kink of r it is constant, so (16) can hold while a* ties the two ends of an "
              "edge (a* on the boundary of A(p), so W* = inf{W : a not in A(p)})."),
        counterexample="m = 2, a_21 = 1/2 (a_12 = 0), nu = 1, r(a) = a^2 + |a|: (16) holds for the edge 2 -> 1 "
                       "(1/2 > -1/2) but the unique minimiser is a* = (0, 0), on the boundary of "
                       "A(p) = {a_2 >= a_1}, so the loss is not edge-consistent there.",
        corrected="duchi2010.theorem13.strictly_convex_r.corrected",
        finding_class="hypothesis",
    ),
)
theorem13_strictly_convex_r_corrected = theorem13_general_r_claim(
    theorem13_strictly_convex_r.finding.corrected,
    ((_F(1), _F(0), _F(0)), (_F(1), _F(1), _F(0)), (_F(2), _F(-1), _F(0))),
    statement="with r also differentiable (here k a^2 + b a), a DAG difference graph gives: edge-consistency <=> (16)",
)
# a small kink (c = 1/2) added to the differentiable family breaks the corrected statement
TWINS[theorem13_strictly_convex_r_corrected.id] = lambda: theorem13_general_r_claim(
    twin_id(theorem13_strictly_convex_r_corrected.id), ((_F(1), _F(0), _F(0)), (_F(1), _F(0), _F(1, 2))),
    statement="twin: a kinked r",
)


# ---------------------------------------------------------------------------------------
# Lemma 14 and the steps of its proof (node claims)
# ---------------------------------------------------------------------------------------


def low_noise_local(slack: Any = 0) -> Local:
    """Definition 8 on the ordered triple (i, j, k) (``slack`` > 0 weakens it: a twin)."""
    return Local(
        3,
        lambda a, i, j, k: Implies(And(a.d(i, j) > 0, a.d(j, k) > 0), a.d(i, k) >= a.d(i, j) + a.d(j, k) - slack),
        "d_ij > 0 and d_jk > 0  ->  d_ik >= d_ij + d_jk" + (f" - {slack}" if slack else ""),
    )


# Definition 8: whenever i->j and j->k are edges of the difference graph,
# a_ik - a_ki >= (a_ij - a_ji) + (a_jk - a_kj).
LOW_NOISE = low_noise_local()

# Theorem 13 / Lemma 14: whenever a_ik > a_ki, sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk).
ORDERING = Local(
    2,
    lambda a, i, k: Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j))),
    "d_ik > 0  ->  sum_j d_ij > sum_j d_kj",
)


def lemma14_claim(id: str = "duchi2010.lemma14", *, slack: Any = 0, sizes: tuple[int, int] = (3, 12)) -> Claim:
    """Lemma 14: "If (G, p) is low noise, then whenever a_ik > a_ki, sum_j a_ij - a_ji > sum_j a_kj - a_jk."
    ``slack`` > 0 weakens low noise (the twin)."""
    return node_implies(
        id,
        hypotheses={"low_noise": low_noise_local(slack)},
        conclusion=ORDERING,
        cite=cite(
            "Lemma 14", "If (G, p) is low noise, then whenever a_ik > a_ki, sum_j a_ij - a_ji > sum_j a_kj - a_jk."
        ),
        statement="low noise (Def. 8) => for every pair with a_ik > a_ki: sum_j (a_ij - a_ji) > sum_j (a_kj - a_jk)",
        sizes=sizes,
    )


def lemma14_converse_claim(
    id: str = "duchi2010.lemma14.converse", *, with_low_noise: bool = False, sizes: tuple[int, int] = (3, 6)
) -> Claim:
    """Section 3, after Lemma 14: "The converse of the lemma is, in general, false."  ``with_low_noise`` adds
    the lemma's hypothesis, which makes the converse hold (the twin)."""
    hyps = {"ordering": ORDERING, **({"low_noise": LOW_NOISE} if with_low_noise else {})}
    return node_implies(
        id,
        hypotheses=hyps,
        conclusion=LOW_NOISE,
        cite=cite("Section 3, after Lemma 14", "The converse of the lemma is, in general, false."),
        statement="the ordering condition of Lemma 14 => low noise (the paper says: false in general)",
        sizes=sizes,
        expected="proved" if with_low_noise else "refuted",
    )


lemma14 = lemma14_claim()
TWINS[lemma14.id] = lambda: lemma14_claim(twin_id(lemma14.id), slack=1, sizes=(3, 4))
lemma14_all_m = all_sizes(lemma14, "duchi2010.lemma14.all_m")
# the local lemma never refutes: the twin is the perturbed node claim (ALL_SIZE_TWINS)
TWINS[lemma14_all_m.id] = lambda: lemma14_claim(twin_id(lemma14_all_m.id), slack=1, sizes=(3, 4))
lemma14_converse = lemma14_converse_claim()
TWINS[lemma14_converse.id] = lambda: lemma14_converse_claim(
    twin_id(lemma14_converse.id), with_low_noise=True, sizes=(3, 4)
)
TWIN_EXPECT[lemma14_converse.id] = "proved"  # the paper calls it false: the twin adds what makes it true


def step(
    id: str,
    conclusion: Callable[..., Any],
    text: str,
    quote: str,
    *,
    slack: Any = 0,
    arity: int = 3,
    sizes: tuple[int, int] = (3, 4),
    finding: Finding | None = None,
) -> Claim:
    """A step of Lemma 14's proof on the nodes (i, k, j): low noise => ``conclusion``."""
    return node_implies(
        id,
        hypotheses={"low_noise": low_noise_local(slack)},
        conclusion=Local(arity, conclusion, text),
        cite=cite("Lemma 14, proof", quote),
        statement=f"low noise => {text}",
        sizes=sizes,
        finding=finding,
    )


def case_both_edges(extra: Any = 0, strict: bool = False) -> Callable[..., Any]:
    def fn(a: Any, i: int, k: int, j: int) -> Any:
        rhs = a.d(k, j) + a.d(i, k) + extra
        return Implies(
            And(a.d(i, k) > 0, a.d(i, j) > 0, a.d(k, j) > 0),
            And(a.d(i, j) > rhs if strict else a.d(i, j) >= rhs, a.d(k, j) + a.d(i, k) > a.d(k, j)),
        )

    return fn


def case_edge_ij_only(extra: Any = 0) -> Callable[..., Any]:
    return lambda a, i, k, j: Implies(And(a.d(i, k) > 0, a.d(i, j) > 0, a.d(k, j) <= 0), a.d(k, j) + extra < a.d(i, j))


def case_reverse_edge(extra: Any = 0) -> Callable[..., Any]:
    # printed chain: a_ji - a_ij < a_ji - a_ij + a_ik - a_ki <= a_jk - a_kj, or a_kj - a_jk < a_ij - a_ji
    return lambda a, i, k, j: Implies(
        And(a.d(i, k) > 0, a.d(i, j) < 0),
        And(
            a.d(j, i) < a.d(j, i) + a.d(i, k), a.d(j, i) + a.d(i, k) <= a.d(j, k) + extra, a.d(k, j) < a.d(i, j) + extra
        ),
    )


def tie(a: Any, i: int, j: int) -> Any:
    return And(a.d(i, j) >= 0, a.d(i, j) <= 0)  # a_ij = a_ji, written without ==


def case_tie_printed(a: Any, i: int, k: int, j: int) -> Any:
    return Implies(And(a.d(i, k) > 0, tie(a, i, j)), a.d(j, k) <= 0)  # (j -> k) not in G~


def case_tie_corrected(extra: Any = 0) -> Callable[..., Any]:
    # (k -> j) not in G~, so a_kj - a_jk <= 0 = a_ij - a_ji
    return lambda a, i, k, j: Implies(
        And(a.d(i, k) > 0, tie(a, i, j)), And(a.d(k, j) <= extra, a.d(k, j) <= a.d(i, j) + extra)
    )


def per_node(extra: Any = 0) -> Callable[..., Any]:
    return lambda a, i, k, j: Implies(a.d(i, k) > 0, a.d(i, j) >= a.d(k, j) + extra)


TIE_QUOTE = (
    "Otherwise, a_ij = a_ji, and the low-noise condition guarantees that (j -> k) is not "
    "in G~, so a_kj - a_jk <= 0 = a_ij - a_ji."
)

lemma14_case_both = step(
    "duchi2010.lemma14.proof.case_both_edges",
    case_both_edges(),
    "d_ik > 0, d_ij > 0, d_kj > 0  ->  d_ij >= d_kj + d_ik > d_kj",
    "If (k -> j) in G~, the low-noise condition implies a_ij - a_ji >= a_kj - a_jk + a_ik - a_ki > a_kj - a_jk.",
)
TWINS[lemma14_case_both.id] = lambda: step(
    twin_id("duchi2010.lemma14.both"), case_both_edges(strict=True), "d_ij > d_kj + d_ik", "q"
)
lemma14_case_ij_only = step(
    "duchi2010.lemma14.proof.case_edge_ij_only",
    case_edge_ij_only(),
    "d_ik > 0, d_ij > 0, d_kj <= 0  ->  d_kj < d_ij",
    "Otherwise, a_kj - a_jk <= 0 < a_ij - a_ji.",
)
TWINS[lemma14_case_ij_only.id] = lambda: step(
    twin_id("duchi2010.lemma14.ij_only"), case_edge_ij_only(extra=1), "d_kj + 1 < d_ij", "q"
)
lemma14_case_reverse = step(
    "duchi2010.lemma14.proof.case_reverse_edge",
    case_reverse_edge(),
    "d_ik > 0, d_ij < 0  ->  d_ji < d_ji + d_ik <= d_jk, so d_kj < d_ij",
    "If the inequality is strict, then (j -> i) in G~, so ... a_ji - a_ij < a_ji - a_ij + a_ik - a_ki <= a_jk - a_kj",
)
TWINS[lemma14_case_reverse.id] = lambda: step(
    twin_id("duchi2010.lemma14.reverse"), case_reverse_edge(extra=-1), "d_ji + d_ik <= d_jk - 1", "q"
)
lemma14_case_tie = step(
    "duchi2010.lemma14.proof.case_tie",
    case_tie_printed,
    "d_ik > 0, d_ij = 0  ->  (j -> k) not in G~, i.e. d_jk <= 0",
    TIE_QUOTE,
    finding=Finding(
        what=(
            "Lemma 14's proof, tie case: low noise does not exclude the edge (j -> k) when "
            "a_ij = a_ji; what it excludes (and what the next step 'a_kj - a_jk <= 0' uses) is "
            "(k -> j), since i -> k -> j would force a_ij - a_ji >= a_ik - a_ki + a_kj - a_jk > 0. "
            "The lemma itself is unaffected."
        ),
        counterexample=(
            "m = 3, (i, k, j) = (1, 2, 3), a_12 = 1, a_32 = 1, all other a = 0: G~ = "
            "{1 -> 2, 3 -> 2} is low-noise (no two-edge path), a_13 = a_31 = 0, and "
            "(j -> k) = (3 -> 2) is in G~."
        ),
        corrected="duchi2010.lemma14.proof.case_tie.corrected",
        finding_class="proof",
    ),
)
lemma14_case_tie_corrected = step(
    lemma14_case_tie.finding.corrected,
    case_tie_corrected(),
    "d_ik > 0, d_ij = 0  ->  (k -> j) not in G~, i.e. d_kj <= 0 = d_ij",
    TIE_QUOTE + " [corrected: (k -> j) is not in G~]",
)
TWINS[lemma14_case_tie_corrected.id] = lambda: step(
    twin_id("duchi2010.lemma14.tie"), case_tie_corrected(extra=Fraction(-1, 2)), "d_kj <= -1/2", "q"
)
lemma14_per_node = step(
    "duchi2010.lemma14.proof.per_node",
    per_node(),
    "d_ik > 0  ->  d_ij >= d_kj for every third node j (the four cases together)",
    "There are two cases for a third node j: either a_ij - a_ji > 0 or a_ij - a_ji <= 0.",
)
TWINS[lemma14_per_node.id] = lambda: step(
    twin_id("duchi2010.lemma14.per_node"), per_node(extra=Fraction(1, 2)), "d_ij >= d_kj + 1/2", "q"
)


def strict_terms(extra: Any = 0) -> Callable[..., Any]:
    # the j = k and j = i terms: d_ik > 0 = d_kk and d_ii = 0 > d_ki
    return lambda a, i, k: Implies(a.d(i, k) > 0, And(a.d(i, k) > a.d(k, k) + extra, a.d(i, i) > a.d(k, i) + extra))


def lemma14_strict_claim(id: str = "duchi2010.lemma14.proof.strict", *, extra: Any = 0) -> Claim:
    """Lemma 14, proof: "The inequality in the statement of the lemma is strict, because a_ik - a_ki > 0 =
    a_kk - a_kk."  ``extra`` 1 asks a margin of 1 (the twin)."""
    return node_implies(
        id,
        hypotheses={"low_noise": LOW_NOISE},
        conclusion=Local(2, strict_terms(extra), "d_ik > 0  ->  d_ik > d_kk = 0 and d_ii = 0 > d_ki"),
        cite=cite(
            "Lemma 14, proof",
            "The inequality in the statement of the lemma is strict, because a_ik - a_ki > 0 = a_kk - a_kk.",
        ),
        statement="low noise => the j = k and j = i terms differ strictly: d_ik > d_kk = 0, d_ii = 0 > d_ki",
        sizes=(3, 3),
    )


lemma14_strict = lemma14_strict_claim()
TWINS[lemma14_strict.id] = lambda: lemma14_strict_claim(twin_id("duchi2010.lemma14.strict"), extra=1)


# ---------------------------------------------------------------------------------------
# Corollary 15 and the remark that r is needed
# ---------------------------------------------------------------------------------------


def corollary15_claim(id: str = "duchi2010.corollary15", *, slack: Any = 0, sizes: tuple[int, int] = (3, 8)) -> Claim:
    """Corollary 15: "The linear loss of Eq. (14) is edge-consistent if (G, p) is low noise", with r = a^2 and
    nu = 1/2 (a*_i = sum_j d_ij).  ``slack`` > 0 weakens low noise (the twin)."""

    def fn(a: Any, i: int, k: int) -> Any:
        return Implies(a.d(i, k) > 0, a.sum(lambda j: a.d(i, j)) > a.sum(lambda j: a.d(k, j)))

    return node_implies(
        id,
        hypotheses={"low_noise": low_noise_local(slack)},
        conclusion=Local(2, fn, "d_ik > 0  ->  a*_i > a*_k with a*_i = sum_j d_ij / (2 nu), nu = 1/2"),
        cite=cite("Corollary 15", "The linear loss of Eq. (14) is edge-consistent if (G, p) is low noise"),
        statement=(
            "low noise => the minimiser a* of the linear loss (r = a^2, nu = 1/2) strictly respects every edge of G~"
        ),
        sizes=sizes,
    )


corollary15 = corollary15_claim()
TWINS[corollary15.id] = lambda: corollary15_claim(twin_id(corollary15.id), slack=1, sizes=(3, 4))
corollary15_all_m = all_sizes(corollary15, "duchi2010.corollary15.all_m")
TWINS[corollary15_all_m.id] = lambda: corollary15_claim(twin_id(corollary15_all_m.id), slack=1, sizes=(3, 4))

T = sympy.Symbol("t", real=True)


def regulariser_claim(id: str = "duchi2010.section3.regulariser_needed", *, nu: Any = 0) -> Claim:
    """Section 3, after Corollary 15: "if r is not in the objective in Eq. (14), then phi(., G) can be sent to -oo
    with a not in A(p)".  ``nu`` 1/2 puts r = a^2 back (the twin)."""
    a = {(1, 2): 1, (1, 3): 1}  # G~ = {1 -> 2, 1 -> 3}, A(p) = {a1 > a2, a1 > a3}
    al = (T, T, sympy.Integer(0))  # a(t) = (t, t, 0)
    w = sum((wt * (al[j - 1] - al[i - 1]) for (i, j), wt in a.items()), sympy.Integer(0)) + nu * sum(x**2 for x in al)
    return implies(
        id,
        hypotheses={"t_positive": [T > 0]},
        conclusion=sympy.And(sympy.Not(sympy.And(al[0] > al[1], al[0] > al[2])), w <= -T),
        cite=cite(
            "Section 3, after Corollary 15",
            "if r is not in the objective in Eq. (14), then phi(., G) can be sent to -oo with a not in A(p)",
        ),
        statement=(
            "without r (nu = 0), for G~ = {1->2, 1->3} and a(t) = (t, t, 0): a(t) is not in A(p) "
            "and W(a(t)) <= -t for all t > 0"
        ),
    )


regulariser_needed = regulariser_claim()
TWINS[regulariser_needed.id] = lambda: regulariser_claim(
    twin_id("duchi2010.section3.regulariser"), nu=sympy.Rational(1, 2)
)


# "phi(., G) can be sent to -oo with a not in A(p)", read for every (G, p) whose A(p) is not everything
def _unbounded_ray(dd: dict[tuple[int, int], Fraction], m: int) -> tuple[bool, str]:
    """Is W(a) = sum_(i,j) a_ij (a_j - a_i) = -sum_i s_i a_i (s_i = sum_j d_ij) unbounded below off A(p)?  Off A(p)
    is the union over the edges i -> k of G~ of {a_i <= a_k} (or a_i < a_k; same infimum).  On one such half-space
    W is unbounded below iff s . v > 0 for a generator v of its recession cone {v_k >= v_i}: +-e_j (j not i, k),
    +-(e_i + e_k), e_k - e_i (LP duality: otherwise s = lam (e_i - e_k), lam >= 0, and W = lam (a_k - a_i) >= 0)."""
    s = [sum((dd.get((i, j), -dd.get((j, i), Fraction(0))) for j in range(1, m + 1) if j != i), Fraction(0))
         for i in range(1, m + 1)]
    edges = [(i, j) if w > 0 else (j, i) for (i, j), w in sorted(dd.items()) if w != 0]
    for i, k in edges:
        gens: list[list[int]] = []
        for j in range(1, m + 1):
            if j not in (i, k):
                gens += [[int(x == j) for x in range(1, m + 1)], [-int(x == j) for x in range(1, m + 1)]]
        both = [int(x in (i, k)) for x in range(1, m + 1)]
        gens += [both, [-b for b in both], [int(x == k) - int(x == i) for x in range(1, m + 1)]]
        for v in gens:
            if sum(si * vi for si, vi in zip(s, v, strict=True)) > 0:
                return True, f"s = {[str(x) for x in s]}; off A(p) along a_{i} <= a_{k}: W(a0 + t v) -> -oo for v = {v}"
    return False, f"s = {[str(x) for x in s]}, G~ = {edges}: W >= 0 off A(p) (s = lam (e_i - e_k) for its one edge)"


def _regulariser_cases(m: int, *, min_edges: int) -> list[dict[tuple[int, int], Fraction]]:
    out = []
    for ws in itertools.product((-1, 0, 1, 2), repeat=m * (m - 1) // 2):
        dd = {e: Fraction(w) for e, w in zip(itertools.combinations(range(1, m + 1), 2), ws, strict=True)}
        edges = [(i, j) if w > 0 else (j, i) for (i, j), w in dd.items() if w]
        if len(edges) >= min_edges and not has_cycle(edges, m):  # Section 3's setting: G~ is a DAG
            out.append(dd)
    return out


def regulariser_every_p_claim(id: str, *, min_edges: int, finding: Finding | None = None) -> Claim:
    """Section 3, after Corollary 15, read for every (G, p) of Theorem 13's setting (G~ a DAG) with a score vector
    outside A(p): without r, W(p, .) is unbounded below outside A(p).  ``min_edges`` 2 restricts to difference graphs
    with at least two edges (the corrected reading; a DAG with an edge has a source, so s != 0)."""
    return finite_check(
        id,
        cases=lambda m: _regulariser_cases(m, min_edges=min_edges),
        holds=lambda dd: _unbounded_ray(dd, max(j for _, j in dd)),
        sizes=(2, 3) if min_edges < 2 else (3, 4),
        sample="differences d_ij in {-1, 0, 1, 2}, of a statement for all real weights",
        domain=(f"m = {'2, 3' if min_edges < 2 else '3, 4'}; d_ij = a_ij - a_ji in {{-1, 0, 1, 2}} (i < j); "
                f"G~ a DAG with at least {min_edges} edge(s)"),
        describe=lambda dd: {f"d[{i},{j}]": str(w) for (i, j), w in dd.items() if w},
        cite=cite("Section 3, after Corollary 15",
                  "if r is not in the objective in Eq. (14), then phi(., G) can be sent to -oo with a not in A(p)"
                  + (" [corrected: when the DAG G~ has at least two edges]" if min_edges >= 2 else "")),
        statement=("without r (nu = 0), for every (G, p) whose difference graph is a DAG (Theorem 13's setting) with "
                   f"at least {min_edges} edge(s): inf over a not in A(p) of W(p, a) = -oo"),
        finding=finding,
    )


regulariser_every_p = regulariser_every_p_claim(
    "duchi2010.section3.regulariser_every_p", min_edges=1,
    finding=Finding(
        what=(
            "Section 3 says that without r the linear loss 'can be sent to -oo with a not in A(p)'. Without r, "
            "W(p, a) = -sum_i s_i a_i with s_i = sum_j (a_ij - a_ji); when G~ has a single edge i -> k, s = d_ik "
            "(e_i - e_k) and W = d_ik (a_k - a_i) >= 0 outside A(p) (it goes to -oo only inside A(p)). The remark "
            "holds once the DAG G~ has two or more edges (the paper's own example G~ = {1 -> 2, 1 -> 3}); that r is "
            "needed is unaffected."
        ),
        counterexample="m = 2, a_12 = 1, a_21 = 0: A(p) = {a1 > a2} and W = a2 - a1 >= 0 for every a with a1 <= a2.",
        corrected="duchi2010.section3.regulariser_every_p.corrected",
        finding_class="clarification",
    ),
)
regulariser_every_p_corrected = regulariser_every_p_claim(regulariser_every_p.finding.corrected, min_edges=2)
TWINS[regulariser_every_p_corrected.id] = lambda: regulariser_every_p_claim(
    twin_id(regulariser_every_p_corrected.id), min_edges=1)
