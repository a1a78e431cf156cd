"""Audit of the coverage map of Calauzenes, Usunier & Gallinari (2013) (issue 26, "coverage without blind spots"):
checkable steps inside the entries the map had listed as "not checkable".

* Section 3, Notation: "One may notice that D_r = {Delta | ||U(Delta)||_oo < +oo}": its finite mechanism (n = 3) --
  every ranking has R <= b + phi(1) sum_i U_i, and the ranking with i first has R >= b + phi(1) U_i (u >= 0, phi(1) > 0,
  phi non-increasing and >= 0).  No finding.

* Section 5.2: "if psi is mu-strongly convex, we have B_psi(u||v) >= mu/2 ||u - v||_2^2" was listed as not checkable
  (the gradient of an arbitrary function, a limit t -> 0).  Restricted to the segment from v to u it is two finite
  steps over the values of psi alone, hence for every psi: Eq. (12) at x = u, y = v and one t in (0, 1], with the
  directional derivative at v at most the difference quotient (psi is convex), gives B >= mu/2 (1 - t) ||u - v||^2;
  and if B < mu/2 ||u - v||^2, the explicit t* = min(1/2, (mu/2 ||u - v||^2 - B) / (mu ||u - v||^2)) in (0, 1/2]
  breaks that bound, so the limit t -> 0 is not needed.  No finding.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import sympy

from symcal import implies
from symcal.claims.core import Claim

from .common import cite, twin_id

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}

BREGMAN_QUOTE = "So, if psi is mu-strongly convex, we have B_psi(u||v) >= mu/2 ||u - v||_2^2"
# values along the segment v -> u: psi(u), psi(v), psi(v + t (u - v)), the directional derivative <grad psi(v), u - v>,
# D = ||u - v||^2 and B = B_psi(u || v) = psi(u) - psi(v) - <grad psi(v), u - v>
FU, FV, FT, G, D, MU, T = sympy.symbols("psi_u psi_v psi_t g D mu t", real=True)
B = FU - FV - G


def bregman_step_claim(id: str = "calauzenes2013.audit.section5_2.bregman_strong_convexity_step", *,
                       keep_t: bool = True) -> Claim:
    """Section 5.2, the finite step: Eq. (12) at (x, y) = (u, v) and t in (0, 1], and g <= (psi_t - psi_v)/t (a convex
    function's directional derivative is at most its difference quotient) give B >= mu/2 (1 - t) D.  ``keep_t``
    False drops the factor (1 - t) (the twin: the bound needs the limit)."""
    return implies(
        id,
        hypotheses={"t_in_unit_interval": [T > 0, T <= 1], "mu_positive": [MU > 0], "D_is_a_square_norm": [D >= 0],
                    "eq12_at_t": [FT <= T * FU + (1 - T) * FV - MU / 2 * T * (1 - T) * D],
                    "derivative_below_quotient": [G * T <= FT - FV]},
        conclusion=B >= MU / 2 * ((1 - T) if keep_t else 1) * D,
        cite=cite("Section 5.2", BREGMAN_QUOTE),
        statement=("0 < t <= 1, mu > 0, D = ||u - v||^2 >= 0, Eq. (12) at x = u, y = v and t, and "
                   "<grad psi(v), u - v> <= (psi(v + t(u - v)) - psi(v))/t => B_psi(u||v) >= mu/2 "
                   + ("(1 - t) " if keep_t else "") + "||u - v||^2, for every psi (through its values)"
                   + ("" if keep_t else " [twin: without the factor (1 - t)]")),
    )


def bregman_limit_claim(id: str = "calauzenes2013.audit.section5_2.bregman_strong_convexity_limit", *,
                        scale: int = 1) -> Claim:
    """Section 5.2, the limit t -> 0 made explicit: if B < mu/2 D (D > 0), then t* = min(1/2, (mu/2 D - B)/(mu D))
    lies in (0, 1/2] and B < mu/2 (1 - t*) D, contradicting the step above at t = t*; so B >= mu/2 D.  ``scale`` 2
    doubles the second term (the twin: then B = mu/2 (1 - t*) D exactly when it is below 1/2)."""
    t_star = sympy.Min(sympy.Rational(1, 2), scale * (MU / 2 * D - B) / (MU * D))
    return implies(
        id,
        hypotheses={"mu_positive": [MU > 0], "D_positive": [D > 0], "bound_fails": [B < MU / 2 * D]},
        conclusion=sympy.And(t_star > 0, t_star <= 1, B < MU / 2 * (1 - t_star) * D),
        cite=cite("Section 5.2", BREGMAN_QUOTE),
        statement=("mu > 0, D > 0, B < mu/2 D => t* = min(1/2, " + ("2 " if scale == 2 else "")
                   + "(mu/2 D - B)/(mu D)) is in (0, 1] and B < mu/2 (1 - t*) D: the step's bound fails at t*, so "
                   "B >= mu/2 D" + (" [twin: t* doubled]" if scale == 2 else "")),
    )


bregman_strong_convexity_step = bregman_step_claim()
TWINS[bregman_strong_convexity_step.id] = lambda: bregman_step_claim(twin_id(bregman_strong_convexity_step.id),
                                                                     keep_t=False)
bregman_strong_convexity_limit = bregman_limit_claim()
TWINS[bregman_strong_convexity_limit.id] = lambda: bregman_limit_claim(twin_id(bregman_strong_convexity_limit.id),
                                                                       scale=2)

# ---------------------------------------------------------------------------------------
# Section 3, Notation: D_r = {Delta : ||U(Delta)||_oo < +oo}, the finite mechanism
# ---------------------------------------------------------------------------------------

DR_QUOTE = ("D_r = {Delta in D | for all s in R^n, R(Delta, s) < +oo} ... One may notice that D_r = {Delta | "
            "||U(Delta)||_oo < +oo}")
N_DR = 3
UU = sympy.symbols(f"U1:{N_DR + 1}", real=True)
PHI = sympy.symbols(f"phi1:{N_DR + 1}", real=True)
BB = sympy.Symbol("b", real=True)


def _gppm_value(order: tuple[int, ...]) -> Any:
    """R(Delta, s) = b + sum_k phi(k) U_{sigma^-1(k)} for the ranking ``order`` (documents, best first, 0-based)."""
    return BB + sum(PHI[k] * UU[d] for k, d in enumerate(order))


def dr_claim(id: str = "calauzenes2013.audit.section3.d_r_is_bounded_utility", *, nonnegative_u: bool = True) -> Claim:
    """Section 3, Notation, at n = 3 and finite values: with u >= 0 (so U >= 0), phi(1) > 0 and phi non-increasing
    and >= 0 (a GPPM), every ranking has R(Delta, s) <= b + phi(1) sum_i U_i, and the ranking with i first has
    R >= b + phi(1) U_i: so R(Delta, .) is finite everywhere iff every U_i is, D_r = {||U||_oo < +oo}.
    ``nonnegative_u`` False drops U >= 0 (the twin)."""
    orders = list(itertools.permutations(range(N_DR)))
    hyps: dict[str, Any] = {"gppm_phi": [PHI[0] > 0, *(PHI[k] >= PHI[k + 1] for k in range(N_DR - 1)), PHI[-1] >= 0]}
    if nonnegative_u:
        hyps["u_nonnegative"] = [x >= 0 for x in UU]
    upper = [_gppm_value(o) <= BB + PHI[0] * sum(UU) for o in orders]
    lower = [_gppm_value(next(o for o in orders if o[0] == i)) >= BB + PHI[0] * UU[i] for i in range(N_DR)]
    return implies(
        id, hypotheses=hyps, conclusion=sympy.And(*upper, *lower),
        cite=cite("Section 3, Notation", DR_QUOTE),
        statement=("n = 3, phi(1) > 0, phi non-increasing, phi >= 0"
                   + (", U_i >= 0" if nonnegative_u else "")
                   + ": R(Delta, s) = b + sum_k phi(k) U_sigma^-1(k) <= b + phi(1) sum_i U_i for every ranking, and "
                   ">= b + phi(1) U_i when i is ranked first: R(Delta, .) < +oo everywhere iff ||U||_oo < +oo"
                   + ("" if nonnegative_u else " [twin: without U >= 0]")),
        scope="n = 3 documents; finite values (the +oo case is the contrapositive of the two bounds)",
    )


d_r_is_bounded_utility = dr_claim()
TWINS[d_r_is_bounded_utility.id] = lambda: dr_claim(twin_id(d_r_is_bounded_utility.id), nonnegative_u=False)

CLAIMS: list[Claim] = [d_r_is_bounded_utility, bregman_strong_convexity_step, bregman_strong_convexity_limit]
