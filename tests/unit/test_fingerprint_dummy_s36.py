"""A claim holding a sympy Dummy (random ``dummy_index`` per process) has the same fingerprint in every
process (symcal.cluster.claim_fingerprint: the decision cache and the cluster's check compare them),
while two claims that differ only in which Dummy is where still differ."""

from __future__ import annotations

import subprocess
import sys

import sympy

from symcal import Citation, implies
from symcal.cluster import claim_fingerprint

_SCRIPT = """
from symcal.library import load_bundled
from symcal.cluster import claim_fingerprint
c = [c for c in load_bundled(["duchi2010"]) if c.id == "duchi2010.section2_2.eq11"][0]
print(claim_fingerprint(c))
"""


def test_a_claim_with_a_dummy_has_one_fingerprint_in_every_process():
    runs = {subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=True,
                           timeout=300).stdout.strip() for _ in range(3)}
    assert len(runs) == 1 and len(runs.pop()) == 64


def _claim(second: str) -> object:
    u, v = sympy.Dummy("u", real=True), sympy.Dummy(second, real=True)
    return implies("mine2026.dummies", hypotheses={"h": [u > 0, v > 0]}, conclusion=u + v > 0,
                   cite=Citation("Mine 2026", "Eq. 1"), statement="two dummies")


def test_fresh_dummies_give_the_same_fingerprint_and_other_names_another():
    assert claim_fingerprint(_claim("v")) == claim_fingerprint(_claim("v"))  # fresh Dummies, new indices
    assert claim_fingerprint(_claim("v")) != claim_fingerprint(_claim("w"))
