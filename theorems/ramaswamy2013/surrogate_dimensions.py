"""Sections 4-7: the dimensions of convex calibrated surrogates, decided by symcal's bracket on the
convex calibration dimension (:func:`symcal.calibration.dimension.cc_dimension`).

``CCdim(L)`` is the least d such that a convex surrogate on a convex subset of R^d is calibrated
for L over the whole simplex (Definition 1; Ramaswamy & Agarwal 2012/2016).  A d-dimensional
convex calibrated surrogate exists iff ``CCdim(L) <= d`` (a smaller one is padded by ``|v|^2`` in
the extra coordinates, with the same pred).  The bracket has two certified ends:

* upper: ``rank D`` of the double differences ``D_yt = l_yt - l_yk - l_nt + l_nk``, its rank
  certified by an exact minor and a checked decomposition; Theorem 3 in its affine form turns the
  decomposition into a calibrated least-squares surrogate on R^(rank D) (a trusted reduction: the
  module docstring of :mod:`symcal.calibration.dimension` gives the argument).  With ``--certify``
  the kernel recomputes ``rank D`` from the same D (kernel kind ``matrix``).
* lower: the feasible subspace dimension theorem at an exact relative-interior point ``p`` with
  prediction ``t`` optimal, re-checked in Fractions by
  :func:`symcal.calibration.dimension.check_lower_certificate` (the theorem is trusted).

A claim "a surrogate of dimension b exists" is proved by the upper end (``upper <= b``) and refuted
by the lower end (``lower > b``, the re-checked ``(p, t)`` is the counterexample); "no surrogate of
dimension b exists" the other way round; anything between is undecided (``unknown``).

The paper's stated dimensions (upper ends): r for P@2 and ERU, r(r+1)/2 for MAP, r(r-1)/2 for PD
(the Section 7 remark, which stays true although its rank statement is an erratum).  The paper's
quoted impossibility results ("there cannot exist any r-dimensional convex, calibrated surrogates
for the MAP / PD loss [15, 16]") are lower ends: **errata** -- both fail at r = 2 (two predictions:
CCdim = 1), and PD's fails at r = 3 as well (CCdim = 3 = r: Theorem 3's own surrogate on
R^{r(r-1)/2}); corrected for r >= 3 (MAP, r = 3..5) and r >= 4 (PD, r = 4).  The exact values
(``*.cc_dim_exact``) are symcal's exploration, not the paper's statements: the two ends meet at
the uniform distribution for every loss here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from symcal import Finding, finite_check
from symcal.calibration.dimension import cc_dimension, check_lower_certificate
from symcal.claims.core import Claim, Sizes
from symcal.ranking.loss_matrix import LossMatrix

from .common import _named_loss, cite, r_sizes, twin_id

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}

# the lower end's search after the uniform distribution (it meets the upper end there for every loss here)
SEARCH_CPU = 3.0
SEARCH_QUERIES = 200
ERU = {"s": 2, "v": 1, "w": 2}


def _params(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(params.items()))


@functools.cache
def bracket(loss: str, r: int, params: tuple[tuple[str, Any], ...] = ()) -> Any:
    """The certified bracket on CCdim of the named loss at r documents (cached per process)."""
    return cc_dimension(_named_loss(loss, r, params).matrix, cpu_seconds=SEARCH_CPU, max_queries=SEARCH_QUERIES)


def double_differences(loss: str, r: int, params: tuple[tuple[str, Any], ...] = ()) -> LossMatrix:
    """``D_yt = l_yt - l_yk - l_nt + l_nk`` (last label n, last prediction k) of the named loss: the
    matrix whose rank is the bracket's upper end, stated for the kernel."""
    mat = _named_loss(loss, r, params).matrix
    num = mat.numerators
    n, k = mat.shape
    rows = [[int(num[y, t]) - int(num[y, k - 1]) - int(num[n - 1, t]) + int(num[n - 1, k - 1]) for t in range(k - 1)]
            for y in range(n - 1)]
    return LossMatrix(rows, mat.denominator, [f"y{y + 1}" for y in range(n - 1)], [f"t{t + 1}" for t in range(k - 1)],
                      name=f"double differences of {mat.name}")


def _upper_text(cc: Any) -> str:
    up = cc.evidence["upper"]
    cert = up.get("rank_certificate", {})
    return (f"upper end {cc.upper} by {up['by']} (rank {cert.get('rank')}, certified {cert.get('certified')}, "
            f"minor of size {cert.get('minor_size')}; {cert.get('surrogate_check', 'no entrywise check')})")


def _lower_text(loss: str, r: int, params: tuple[tuple[str, Any], ...], cc: Any) -> tuple[bool, str]:
    """The lower end's certificate re-checked in Fractions (``check_lower_certificate``)."""
    low = cc.evidence["lower"]
    if "p" not in low:
        return True, f"lower end {cc.lower}: {low['by']}"
    chk = check_lower_certificate(_named_loss(loss, r, params).matrix, low["p"], low["t"], cc.lower)
    p = f"uniform ({low['p'][0]} each)" if len(set(low["p"])) == 1 else f"({', '.join(low['p'])})"
    return chk.holds, (f"lower end {cc.lower} at p = {p}, t = {low['t']}, "
                       f"{len(low['tied'])} predictions tied (feasible subspace dimension; re-checked: {chk.reason})")


def dimension_holds(loss: str, params: dict[str, Any], r: int, relation: str, bound: int) -> tuple[Any, str]:
    """Decide ``CCdim(L) relation bound`` for the named loss at r from the certified bracket:
    ``<=`` (a convex calibrated surrogate of dimension ``bound`` exists), ``>`` (none exists) or
    ``==``; None (undecided) when the bound falls inside the bracket."""
    key = _params(params)
    cc = bracket(loss, r, key)
    ok_low, low = _lower_text(loss, r, key, cc)
    up = _upper_text(cc)
    where = f"{cc.lower} <= CCdim <= {cc.upper} ({cc.labels} labels x {cc.predictions} predictions)"
    if not ok_low:  # pragma: no cover - cc_dimension re-checks its certificate before reporting it
        return None, f"the lower-end certificate failed its re-check: {low}"
    if relation == "<=":
        if cc.upper <= bound:
            return True, f"{where}: a {bound}-dimensional convex calibrated surrogate exists; {up}"
        if cc.lower > bound:
            return False, f"{where}: none of dimension {bound}; {low}"
    elif relation == ">":
        if cc.lower > bound:
            return True, f"{where}: no convex calibrated surrogate of dimension {bound}; {low}"
        if cc.upper <= bound:
            return False, f"{where}: a {bound}-dimensional convex calibrated surrogate exists; {up}"
    else:
        if cc.lower == cc.upper == bound:
            return True, f"{where}: exactly {bound}; {low}; {up}"
        if cc.lower > bound:
            return False, f"{where}: above {bound}; {low}"
        if cc.upper < bound:
            return False, f"{where}: below {bound}; {up}"
    return None, f"undecided: {bound} lies inside the certified bracket {where}"


def dimension_claim(id: str, loss: str, params: dict[str, Any], sizes: Sizes, location: str, quote: str, *,
                    relation: str, bound: Callable[[int], int], statement: str, finding: Finding | None = None,
                    ) -> Claim:
    """``CCdim(L_loss) relation bound(r)`` at every r of ``sizes``, decided by the certified bracket
    (module docstring).  A ``<=`` claim states for the kernel what its upper end rests on: the rank of
    the double-difference matrix D is at most ``bound(r)`` (kernel kind ``matrix``)."""
    if relation not in ("<=", ">", "=="):
        raise ValueError(f"relation={relation!r}: expected '<=', '>' or '=='")

    def kernel(r: int) -> dict[str, Any]:
        return double_differences(loss, r, _params(params)).kernel_statement(rank=("rank", "<=", bound(r)))

    return finite_check(
        id, cases=lambda m: [m], holds=lambda r: dimension_holds(loss, params, r, relation, bound(r)),
        kernel=kernel if relation == "<=" else None, describe=lambda r: {"r": r, **params},
        domain=f"the {loss} loss matrix (the certified bracket on its convex calibration dimension)",
        cite=cite(location, quote), statement=statement, sizes=sizes, finding=finding,
    )


def _shifted(claim: Claim, loss: str, params: dict[str, Any], sizes: Sizes, relation: str,
             bound: Callable[[int], int], what: str) -> Callable[[], Claim]:
    """The builder of a twin: the same loss and location, the bound moved (``what`` says how)."""
    return lambda: dimension_claim(twin_id(claim.id), loss, params, sizes, claim.citation.location,
                                   claim.citation.quote, relation=relation, bound=bound, statement=f"twin: {what}")


# --- the paper's stated dimensions: a convex calibrated surrogate of that dimension exists -----------------------

P_AT_Q = ("Section 4", "Therefore, by Theorem 3, for the r-dimensional surrogate psi*_P@q ... (psi*_P@q, pred*_P@q) "
                       "is l_P@q-calibrated")
precision_dim = dimension_claim(
    "ramaswamy2013.precision.cc_dim_upper", "precision", {"q": 2}, r_sizes(3, 5, 6), *P_AT_Q, relation="<=",
    bound=lambda r: r, statement="an r-dimensional convex calibrated surrogate exists for P@2 (certified CCdim <= r)")
TWINS[precision_dim.id] = _shifted(precision_dim, "precision", {"q": 2}, r_sizes(3, 3), "<=", lambda r: r - 2,
                                   "an (r-2)-dimensional one exists for P@2")

ERU_QUOTE = ("Section 5", "Thus, by Theorem 3, for the r-dimensional surrogate psi*_ERU ... (psi*_ERU, pred*_ERU) is "
                          "l_ERU-calibrated")
eru_dim = dimension_claim(
    "ramaswamy2013.eru.cc_dim_upper", "eru", ERU, r_sizes(3, 4, 5), *ERU_QUOTE, relation="<=", bound=lambda r: r,
    statement="an r-dimensional convex calibrated surrogate exists for ERU (s = 2, v = 1, w = 2; certified CCdim <= r)")
TWINS[eru_dim.id] = _shifted(eru_dim, "eru", ERU, r_sizes(3, 3), "<=", lambda r: r - 2,
                             "an (r-2)-dimensional one exists for ERU")

MAP_QUOTE = ("Section 6", "Thus, by Theorem 3, for the r(r+1)/2-dimensional surrogate psi*_MAP ... (psi*_MAP, "
                          "pred*_MAP) is l_MAP-calibrated")
map_dim = dimension_claim(
    "ramaswamy2013.map.cc_dim_upper", "map", {}, r_sizes(3, 5, 6), *MAP_QUOTE, relation="<=",
    bound=lambda r: r * (r + 1) // 2,
    statement="an r(r+1)/2-dimensional convex calibrated surrogate exists for MAP (certified CCdim <= r(r+1)/2)")
TWINS[map_dim.id] = _shifted(map_dim, "map", {}, r_sizes(3, 3), "<=", lambda r: r * (r + 1) // 2 - 3,
                             "an (r(r+1)/2 - 3)-dimensional one exists for MAP")

PD_QUOTE = ("Section 7", "in fact the loss matrix l_PD has rank at most r(r-1)/2, allowing for an r(r-1)/2-dimensional "
                         "surrogate")
pd_dim = dimension_claim(
    "ramaswamy2013.pd.cc_dim_upper", "pd", {}, r_sizes(2, 4, 4), *PD_QUOTE, relation="<=",
    bound=lambda r: r * (r - 1) // 2,
    statement="an r(r-1)/2-dimensional convex calibrated surrogate exists for PD over all unit DAGs (certified "
              "CCdim <= r(r-1)/2)")
TWINS[pd_dim.id] = _shifted(pd_dim, "pd", {}, r_sizes(3, 3), "<=", lambda r: r * (r - 1) // 2 - 1,
                            "an (r(r-1)/2 - 1)-dimensional one exists for PD")

# --- the quoted impossibility results: no r-dimensional convex calibrated surrogate ------------------------------

MAP_NONE = ("Section 6", "It was recently shown that there cannot exist any r-dimensional convex, calibrated "
                         "surrogates for the MAP loss [15]")
map_none = dimension_claim(
    "ramaswamy2013.map.no_r_dimensional_surrogate", "map", {}, r_sizes(2, 5, 6), *MAP_NONE, relation=">",
    bound=lambda r: r,
    statement="no r-dimensional convex calibrated surrogate exists for MAP (certified CCdim > r)",
    finding=Finding(
        what="At r = 2 the statement fails: MAP has two predictions there, and every loss with two predictions has "
             "a 1-dimensional convex calibrated surrogate (CCdim = 1 <= r). From r = 3 on it holds (CCdim = 4, 8, 13 "
             "at r = 3, 4, 5, certified at both ends).",
        counterexample="r = 2: l_MAP on {0,1}^2 x S_2 (l_MAP(0, .) = 1) has double-difference rank 1, so "
                       "psi(y, u) = (u - alpha_y)^2 on R with Theorem 3's linear pred is calibrated (certified rank 1; "
                       "the lower end 1 at the uniform distribution).",
        corrected="ramaswamy2013.map.no_r_dimensional_surrogate.corrected",
        finding_class="hypothesis"))
map_none_corrected = dimension_claim(
    "ramaswamy2013.map.no_r_dimensional_surrogate.corrected", "map", {}, r_sizes(3, 5, 6), *MAP_NONE, relation=">",
    bound=lambda r: r,
    statement="for r >= 3 no r-dimensional convex calibrated surrogate exists for MAP (certified CCdim > r)")
TWINS[map_none_corrected.id] = _shifted(map_none_corrected, "map", {}, r_sizes(3, 3), ">",
                                        lambda r: r * (r + 1) // 2 - 2, "none of dimension r(r+1)/2 - 2 for MAP")

PD_NONE = ("Section 7", "It was recently shown that there cannot exist any r-dimensional convex, calibrated surrogates "
                        "for the PD loss [15, 16]")
pd_none = dimension_claim(
    "ramaswamy2013.pd.no_r_dimensional_surrogate", "pd", {}, r_sizes(2, 4, 4), *PD_NONE, relation=">",
    bound=lambda r: r,
    statement="no r-dimensional convex calibrated surrogate exists for PD over all unit DAGs (certified CCdim > r)",
    finding=Finding(
        what="False at r = 2 and r = 3: the paper's own next sentence allows an r(r-1)/2-dimensional surrogate, "
             "which is r at r = 3 (and 1 < r at r = 2); CCdim(PD) = 1, 3 exactly there. It holds from r = 4 on "
             "(CCdim = 6 > 4 at r = 4, certified): the results cited are for score-based surrogates (pred = sorting "
             "the r scores) or for r >= 4.",
        counterexample="r = 2 (smallest): PD on the 3 unit DAGs of 2 nodes has double-difference rank 1 (a "
                       "1-dimensional calibrated least-squares surrogate); r = 3: rank 3 on the 25 unit DAGs, "
                       "psi(y, u) = |u - alpha_y|^2 on R^3 with pred(u) in argmin_sigma u.beta_sigma + b_sigma "
                       "(CCdim = 3 = r; lower end 3 at the uniform distribution).",
        corrected="ramaswamy2013.pd.no_r_dimensional_surrogate.corrected",
        finding_class="hypothesis"))
pd_none_corrected = dimension_claim(
    "ramaswamy2013.pd.no_r_dimensional_surrogate.corrected", "pd", {}, r_sizes(4, 4, 4), *PD_NONE, relation=">",
    bound=lambda r: r,
    statement="for r >= 4 no r-dimensional convex calibrated surrogate exists for PD over all unit DAGs (certified "
              "CCdim > r; r = 4)")
TWINS[pd_none_corrected.id] = _shifted(pd_none_corrected, "pd", {}, r_sizes(4, 4, 4), ">",
                                       lambda r: r * (r - 1) // 2, "none of dimension r(r-1)/2 for PD")

# --- exploration beyond the paper: the exact convex calibration dimension -----------------------------------------

EXACT = "exploration beyond the paper (symcal's own lower end, not the paper's statement): "
precision_exact = dimension_claim(
    "ramaswamy2013.precision.cc_dim_exact", "precision", {"q": 2}, r_sizes(3, 5, 6), *P_AT_Q, relation="==",
    bound=lambda r: r - 1, statement=EXACT + "CCdim(P@2) = r - 1 exactly, one below the paper's r")
TWINS[precision_exact.id] = _shifted(precision_exact, "precision", {"q": 2}, r_sizes(3, 3), "==", lambda r: r,
                                     "CCdim(P@2) = r")
eru_exact = dimension_claim(
    "ramaswamy2013.eru.cc_dim_exact", "eru", ERU, r_sizes(3, 4, 5), *ERU_QUOTE, relation="==", bound=lambda r: r - 1,
    statement=EXACT + "CCdim(ERU) = r - 1 exactly (s = 2, v = 1, w = 2), one below the paper's r")
TWINS[eru_exact.id] = _shifted(eru_exact, "eru", ERU, r_sizes(3, 3), "==", lambda r: r, "CCdim(ERU) = r")
map_exact = dimension_claim(
    "ramaswamy2013.map.cc_dim_exact", "map", {}, r_sizes(3, 5, 6), *MAP_QUOTE, relation="==",
    bound=lambda r: r * (r + 1) // 2 - 2,
    statement=EXACT + "CCdim(MAP) = r(r+1)/2 - 2 exactly, two below the paper's r(r+1)/2")
TWINS[map_exact.id] = _shifted(map_exact, "map", {}, r_sizes(3, 3), "==", lambda r: r * (r + 1) // 2 - 1,
                               "CCdim(MAP) = r(r+1)/2 - 1")
pd_exact = dimension_claim(
    "ramaswamy2013.pd.cc_dim_exact", "pd", {}, r_sizes(2, 4, 4), *PD_QUOTE, relation="==",
    bound=lambda r: r * (r - 1) // 2,
    statement=EXACT + "CCdim(PD) = r(r-1)/2 exactly over all unit DAGs: the paper's r(r-1)/2 is tight")
TWINS[pd_exact.id] = _shifted(pd_exact, "pd", {}, r_sizes(3, 3), "==", lambda r: r * (r - 1) // 2 - 1,
                              "CCdim(PD) = r(r-1)/2 - 1")

# in reading order
CLAIMS = [
    precision_dim, precision_exact,
    eru_dim, eru_exact,
    map_none, map_none_corrected, map_dim, map_exact,
    pd_none, pd_none_corrected, pd_dim, pd_exact,
]
