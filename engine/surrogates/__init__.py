"""Surrogates: replace PHI spans with realistic consistent values, tags or redaction blocks.

``Surrogator`` is the entry point; ``SurrogateMap`` is the persistence seam the project
store implements (``InMemorySurrogateMap`` is the run-scoped default).
"""

from __future__ import annotations

from engine.surrogates.mapping import InMemorySurrogateMap, SurrogateMap
from engine.surrogates.surrogator import REDACT_CHAR, Surrogator

__all__ = ["REDACT_CHAR", "InMemorySurrogateMap", "SurrogateMap", "Surrogator"]
