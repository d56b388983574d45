"""Keep surrogates from reintroducing an original of the same document.

The exporters re-read their output and fail if any live span's original (word-bounded,
case- and whitespace-insensitive) shows up more often than outside the spans. A surrogate
that happens to contain another span's original ("Port Emily" next to Dr. Emily) would
trip that check, so new surrogates are drawn again when they do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.core.phrases import MIN_PHRASE_LEN, phrase_pattern
from engine.core.phrases import normalise as _normalise


class Avoid:
    def __init__(self, originals: Iterable[str] = ()) -> None:
        patterns: list[re.Pattern[str]] = []
        seen: set[str] = set()
        for raw in originals:
            value = _normalise(raw)
            if len(value) < MIN_PHRASE_LEN or value in seen:
                continue
            seen.add(value)
            patterns.append(phrase_pattern(value))
        self._patterns = patterns

    def ok(self, candidate: str) -> bool:
        text = _normalise(candidate)
        return not any(p.search(text) for p in self._patterns)

    def __repr__(self) -> str:  # never show the originals
        return f"Avoid(<{len(self._patterns)} strings>)"
