"""The inclusions between noise conditions that Sections 1, 7 and 7.1 state, decided by symcal's
noise-condition map (:mod:`symcal.explore.noise_map`).

Every condition here is a set of distributions over DAG labels that depends only on the expected
weights a_ij = E[Y_ij] (the map's ``dag`` space): Duchi et al.'s low noise (their Definition 8),
Duchi et al.'s Theorem 13 conditions (G~ a DAG and Eq. (16)), ``P_f`` of Theorem 6 for Duchi's
``f_i(y) = sum_j (y_ij - y_ji)`` and for the out-weight ``f_i(y) = sum_j y_ij``, and ``P_DAG``
(Section 7.2).  Each inclusion ``A ⊆ B`` is one :func:`symcal.claims.implies` query per size
r = 3..5 over every a_ij >= 0 (:func:`symcal.explore.noise_map.inclusion_claim`; every a >= 0 is
the expectation of a distribution over single-edge DAG labels).  A stated non-inclusion is the
inclusion with ``expected="refuted"``: its counterexample is re-checked exactly on the formulas by
the runner, and :func:`symcal.explore.noise_map.decide_cell` turns it into a label distribution
that the conditions' own membership checks re-decide (``tests/unit/test_inclusion_claims.py``).

Already claims elsewhere, so not repeated here: ``P_DAG ⊇ P_f`` for every f
(``ramaswamy2013.theorem7.p_dag_contains_p_f``, z3 with E f symbolic) and ``P_DAG ⊄ P_f`` for
Duchi's f in Section 7.2 (``ramaswamy2013.theorem7.inclusion_strict``, seeded distributions)."""

from __future__ import annotations

from collections.abc import Callable

from symcal.claims.core import Claim, described
from symcal.explore.noise_map import MAX_N, inclusion_claim

from .common import cite, r_sizes, twin_id

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}

NAMES = {
    "low_noise": "Duchi et al.'s low noise (Definition 8)",
    "theorem13": "Duchi et al.'s Theorem 13 conditions (G~ a DAG and Eq. (16))",
    "p_f_dmj": "P_f for Duchi's f_i(y) = sum_j (y_ij - y_ji)",
    "p_f_out": "P_f for the out-weight f_i(y) = sum_j y_ij",
    "p_dag": "P_DAG",
}

SECTION71 = ("Section 7.1", "the set of noise conditions under which the surrogate psi_DMJ is shown to be calibrated "
                            "with the PD loss in Duchi et al. [11] is exactly the set P_f above with this choice of f")
SECTION1 = ("Section 1", "We also give a family of convex score-based surrogates calibrated with the PD loss under "
                         "certain noise conditions, generalizing the surrogate and conditions of Duchi et al. [11]")
SECTION7 = ("Section 7", "This condition is more general (i.e. encompasses a larger set of probability "
                         "distributions) than those associated with the score-based surrogates")


DAG_WEIGHTS = ("every real a_ij = E[Y_ij] >= 0 at each size decided: the expected weights of every distribution "
               "over DAG labels on r items, through which alone each condition depends on the distribution")


def noise_inclusion_claim(id: str, a: str, b: str, where: tuple[str, str], *, sizes: tuple[int, int] = (3, 5),
                          expected: str | None = None, twin: bool = False) -> Claim:
    """``a ⊆ b`` for two conditions of the noise-condition map at r = ``sizes`` (at most the map's
    largest size), cited at ``where`` (location, quote); ``expected="refuted"`` for a stated
    non-inclusion."""
    claim = inclusion_claim(a, b, sizes, id=id, expected=expected)
    said = f"every distribution in {NAMES[a]} is in {NAMES[b]} (noise-condition map, over all E[Y_ij] >= 0)"
    if expected == "refuted":
        said = f"{said} (false: the paper says the second set is strictly larger)"
    # a proved inclusion covers every a_ij >= 0, the expected weights of every distribution; only a refutation's
    # counterexample needs the converse (every a >= 0 is attained by a distribution), which stays in the map's scope
    scope = claim.scope if expected == "refuted" else described(DAG_WEIGHTS)
    return claim.replace(citation=cite(*where), statement=("twin: " if twin else "") + said,
                         sizes=r_sizes(3, sizes[1], MAX_N), scope=scope)


# --- Section 7.1: P_f for Duchi's f is exactly Duchi et al.'s Theorem 13 set (both inclusions) --------------------

p_f_dmj_in_theorem13 = noise_inclusion_claim("ramaswamy2013.noise_map.p_f_dmj_in_theorem13", "p_f_dmj", "theorem13",
                                             SECTION71)
# one edit: the out-weight f in place of Duchi's
TWINS[p_f_dmj_in_theorem13.id] = lambda: noise_inclusion_claim(
    twin_id(p_f_dmj_in_theorem13.id), "p_f_out", "theorem13", SECTION71, sizes=(3, 3), twin=True)

theorem13_in_p_f_dmj = noise_inclusion_claim("ramaswamy2013.noise_map.theorem13_in_p_f_dmj", "theorem13", "p_f_dmj",
                                             SECTION71)
TWINS[theorem13_in_p_f_dmj.id] = lambda: noise_inclusion_claim(
    twin_id(theorem13_in_p_f_dmj.id), "theorem13", "p_f_out", SECTION71, sizes=(3, 3), twin=True)

# --- Section 1: Theorem 6's conditions generalise Duchi et al.'s (low noise) ---------------------------------------

low_noise_in_p_f_dmj = noise_inclusion_claim("ramaswamy2013.noise_map.low_noise_in_p_f_dmj", "low_noise", "p_f_dmj",
                                             SECTION1)
# the reverse inclusion: P_f is strictly more general than low noise
TWINS[low_noise_in_p_f_dmj.id] = lambda: noise_inclusion_claim(
    twin_id(low_noise_in_p_f_dmj.id), "p_f_dmj", "low_noise", SECTION1, sizes=(3, 3), twin=True)

# --- Section 7: P_DAG is strictly larger than the score-based surrogates' conditions P_f ---------------------------
# (stated non-inclusions: the twin is the true reverse inclusion P_f ⊆ P_DAG, which must be proved)

p_dag_in_p_f_dmj = noise_inclusion_claim("ramaswamy2013.noise_map.p_dag_in_p_f_dmj", "p_dag", "p_f_dmj", SECTION7,
                                         expected="refuted")
TWINS[p_dag_in_p_f_dmj.id] = lambda: noise_inclusion_claim(
    twin_id(p_dag_in_p_f_dmj.id), "p_f_dmj", "p_dag", SECTION7, sizes=(3, 3), twin=True)
TWIN_EXPECT[p_dag_in_p_f_dmj.id] = "proved"

p_dag_in_p_f_out = noise_inclusion_claim("ramaswamy2013.noise_map.p_dag_in_p_f_out", "p_dag", "p_f_out", SECTION7,
                                         expected="refuted")
TWINS[p_dag_in_p_f_out.id] = lambda: noise_inclusion_claim(
    twin_id(p_dag_in_p_f_out.id), "p_f_out", "p_dag", SECTION7, sizes=(3, 3), twin=True)
TWIN_EXPECT[p_dag_in_p_f_out.id] = "proved"

# in reading order: Section 1, Section 7, Section 7.1
CLAIMS = [low_noise_in_p_f_dmj, p_dag_in_p_f_dmj, p_dag_in_p_f_out, p_f_dmj_in_theorem13, theorem13_in_p_f_dmj]
