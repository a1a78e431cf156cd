"""symcal's version: one home, read by the package's front door, the certificate files and the cluster's
environment fingerprint (kept equal to ``pyproject.toml``'s ``version`` by a test)."""

__version__ = "0.1.0"
