"""The slow lane: every library claim at its whole default sweep (what ``symcal check`` decides),
where the default test run stops each true sized claim one size short (tests/common/papers.py,
``short_sweep``)."""

from __future__ import annotations

import pytest

from symcal.library import load_bundled
from tests.common.papers import disagreements, short_sweep, verdicts_by_id


@pytest.mark.slow
def test_every_library_claim_agrees_with_its_paper_at_its_whole_default_sweep():
    claims = load_bundled()
    wrong = disagreements(claims, verdicts_by_id(claims, whole=True))
    assert not wrong, "\n".join(wrong)


def test_the_short_sweep_drops_only_the_largest_size_of_true_sized_claims():
    claims = load_bundled()
    shortened = [c for c in claims if short_sweep(c) is not c]
    assert shortened, "no claim is shortened: the default run decides the whole library"
    for c in shortened:
        lo, hi = c.sizes.default
        assert short_sweep(c).sizes.default == (lo, hi - 1) and c.finding is None and c.strategy == "per_size"
    # its twin: a claim with a finding keeps its whole sweep
    with_finding = [c for c in claims if c.sizes is not None and c.finding is not None]
    assert with_finding and all(short_sweep(c) is c for c in with_finding)
