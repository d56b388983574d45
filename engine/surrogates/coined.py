"""Pronounceable coined words: the surrogate of last resort when every listed name or place
is an original of the document."""

from __future__ import annotations

import random

_ONSETS = ("b", "br", "d", "dr", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "st",
           "t", "th", "v", "w", "z")
_NUCLEI = ("a", "e", "i", "o", "u", "ai", "ea", "ou")
_CODAS = ("", "", "", "n", "r", "l", "s", "th", "nd", "rt")


def coined_name(rng: random.Random) -> str:
    """A name built from syllables ("Dravelin"): a whole EHR extract in one text has tens of
    thousands of names and places. Three syllables give ~10^9 names, so a keyed retry
    always ends."""
    parts = [rng.choice(_ONSETS) + rng.choice(_NUCLEI) + rng.choice(_CODAS) for _ in range(3)]
    return "".join(parts).capitalize()
