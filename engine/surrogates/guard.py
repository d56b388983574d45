"""Keep surrogates from reintroducing an original of the same document (or patient).

The exporters re-read their output and fail if any live span's original (word-bounded,
case- and whitespace-insensitive) shows up more often than outside the spans. A surrogate
that happens to contain another span's original ("Port Emily" next to Dr. Emily) would
trip that check, and a reader could not tell a surrogate equal to a real name of the same
letter from a leak; so new surrogates are drawn again when they collide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.core.phrases import PhraseSet
from engine.core.phrases import normalise as _normalise

WORD = re.compile(r"[^\W\d_]+")
# Kept as written inside name spans ("Dr.", "Jr"), so never a sign of a leak.
_KEPT_WORDS = frozenset({"mr", "mrs", "ms", "miss", "mister", "dr", "prof", "madam", "mx",
                         "sir", "rev", "jr", "sr", "md", "phd", "rn", "np", "do", "s", "the",
                         "and", "of"})


class Avoid:
    """Original strings (phrase check) and the words of every original (name-part check)."""

    def __init__(self, originals: Iterable[str] = (), *, words: Iterable[str] = ()) -> None:
        # One PhraseSet, not a pattern per original: a long document has thousands of
        # originals and every surrogate drawn is checked, which was quadratic.
        self._set = PhraseSet(_normalise(raw) for raw in originals)
        self._words = frozenset(w for w in (x.casefold() for x in words)
                                if len(w) > 1 and w not in _KEPT_WORDS)

    def ok(self, candidate: str) -> bool:
        return self._set.search(_normalise(candidate)) is None

    def ok_part(self, part: str) -> bool:
        """A name part (one first name or surname): no original phrase inside it, and not
        equal to any word of any original ("Emily" is out if "Port Emily" is an original)."""
        return self.ok(part) and not any(w.casefold() in self._words
                                         for w in WORD.findall(part))

    def __repr__(self) -> str:  # never show the originals
        return f"Avoid(<{len(self._set)} strings, {len(self._words)} words>)"
