"""Exploration: hypothesis necessity, counterexample search."""

from symcal.explore.necessity import NecessityRow, necessity

__all__ = ["NecessityRow", "necessity"]
