"""Section 3, before Lemma 14: "low-noise settings satisfy the conditions of Theorem 13", as one
inclusion of noise sets decided by symcal's noise-condition map (:mod:`symcal.explore.noise_map`).

The existing claims check the two halves apart: ``duchi2010.definition8.difference_graph_is_dag``
(Definition 8 => G~ is a DAG) and ``duchi2010.lemma14`` (Definition 8 => Eq. (16)).  Theorem 13's
conditions are both at once (G~ a DAG, and Eq. (16) when a_ik > a_ki), so the sentence is the
inclusion ``low noise ⊆ {DAG and Eq. (16)}`` of the map's conditions ``low_noise`` and
``theorem13``: one :func:`symcal.claims.implies` query per size over the expected weights
a_ij >= 0 (every a >= 0 is the expectation of a distribution over single-edge DAG labels, the
map's ``scope``).  Its negative twin is the reverse inclusion, which the paper itself calls false
after Lemma 14 and the map separates by an exact distribution at m = 3."""

from __future__ import annotations

from collections.abc import Callable

from symcal.claims.core import Claim, Sizes, described
from symcal.explore.noise_map import MAX_N, inclusion_claim

from .common import cite, twin_id

TWINS: dict[str, Callable[[], Claim]] = {}
TWIN_EXPECT: dict[str, str] = {}

LEMMA14_LEAD = ("Section 3, before Lemma 14",
                "We now prove a simple lemma showing that low-noise settings satisfy the conditions of Theorem 13.")


def noise_inclusion_claim(id: str, a: str, b: str, location: str, quote: str, statement: str, *,
                          sizes: tuple[int, int] = (3, 5), expected: str | None = None) -> Claim:
    """``a ⊆ b`` for two conditions of the noise-condition map (:func:`symcal.explore.noise_map.inclusion_claim`,
    sizes m = ``sizes``, at most the map's largest size), cited at the paper's own location."""
    claim = inclusion_claim(a, b, sizes, id=id, expected=expected)
    # every a_ij >= 0 is the expected weights of some distribution and every distribution's are such a's: a proved
    # inclusion covers exactly the queries' domain (a refutation also needs the converse: the map's scope)
    scope = claim.scope if expected == "refuted" else described(
        "every real a_ij = E[Y_ij] >= 0 at each size decided: the expected weights of every distribution over DAG "
        "labels on m items, through which alone each condition depends on the distribution")
    return claim.replace(citation=cite(location, quote), statement=statement,
                         sizes=Sizes(minimum=3, default=sizes, maximum=MAX_N, name="m"), scope=scope)


def low_noise_in_theorem13_claim(id: str = "duchi2010.noise_map.low_noise_in_theorem13", *,
                                 reverse: bool = False, sizes: tuple[int, int] = (3, 5)) -> Claim:
    """Section 3: "low-noise settings satisfy the conditions of Theorem 13" -- every low-noise
    (G, p) has a DAG difference graph satisfying Eq. (16).  ``reverse``: the converse inclusion
    (the twin; false, as the paper says after Lemma 14)."""
    a, b = ("theorem13", "low_noise") if reverse else ("low_noise", "theorem13")
    what = ("twin: every (G, p) with a DAG difference graph and Eq. (16) is low noise" if reverse else
            "every low-noise (G, p) (Definition 8) induces a DAG difference graph satisfying Eq. (16), i.e. meets "
            "the conditions of Theorem 13")
    return noise_inclusion_claim(id, a, b, *LEMMA14_LEAD, what + " (noise-condition map, over all a_ij >= 0)",
                                 sizes=sizes)


low_noise_in_theorem13 = low_noise_in_theorem13_claim()
TWINS[low_noise_in_theorem13.id] = lambda: low_noise_in_theorem13_claim(
    twin_id(low_noise_in_theorem13.id), reverse=True, sizes=(3, 3))
