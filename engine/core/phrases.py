"""How an original string is searched for in output text: word-bounded, case- and
whitespace-insensitive. The exporters' leak check and the surrogate generator's guard use
this one definition, so a surrogate the guard accepts is one the exporters accept."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

MIN_PHRASE_LEN = 2  # single characters (initials) cannot be checked meaningfully


def normalise(text: str) -> str:
    """Whitespace-collapsed, case-folded; soft hyphens dropped."""
    return " ".join(text.replace("\u00ad", "").split()).casefold()


def phrase_pattern(value: str) -> re.Pattern[str]:
    """A pattern for a ``normalise``d value; word boundaries where it starts/ends with a
    word character, so "ann" does not match inside "annual"."""
    body = re.escape(value).replace(r"\ ", r"\s*")
    left = r"(?<!\w)" if value[0].isalnum() else ""
    right = r"(?!\w)" if value[-1].isalnum() else ""
    return re.compile(left + body + right)


class PhraseSet:
    """Many ``phrase_pattern``s searched at once, in time linear in the text searched.

    Each phrase is tried only where a match can start (a word start, or its own first
    character when that is not a letter or digit) and where the next few non-space characters
    agree with it, so a document with ten thousand distinct originals is not scanned ten
    thousand times. Counts are those of ``pattern.findall`` for each phrase."""

    # Non-space characters compared before a pattern is tried. Long enough that few phrases
    # share a key: with 3, a 10 MB extract's 60,000 originals put thousands of dates and
    # phone numbers behind one key, and every surrogate check tried them all (quadratic).
    _KEY = 12

    def __init__(self, values: Iterable[str]) -> None:
        """``values`` are ``normalise``d; shorter than MIN_PHRASE_LEN ones are ignored."""
        # Compiled on first use: most phrases are never tried (their key never shows up),
        # and compiling thousands of patterns up front cost more than the search.
        self.patterns: dict[str, re.Pattern[str] | None] = {}
        self._by_key: dict[str, list[str]] = {}
        punct: set[str] = set()
        for value in values:
            if len(value) < MIN_PHRASE_LEN or value in self.patterns:
                continue
            self.patterns[value] = None
            self._by_key.setdefault(value.replace(" ", "")[:self._KEY], []).append(value)
            if not value[0].isalnum():
                punct.add(value[0])
        self._lengths = sorted({len(k) for k in self._by_key}, reverse=True)
        alternatives = [r"(?<!\w)[^\W_]"]
        if punct:
            alternatives.append("[" + "".join(re.escape(c) for c in sorted(punct)) + "]")
        self._starts = re.compile("|".join(alternatives))

    def __len__(self) -> int:
        return len(self.patterns)

    def _matches(self, text: str, check: Callable[[], None] | None = None,
                 ) -> Iterator[tuple[str, int, int]]:
        """(phrase, start, end) for every position where a phrase matches, by start.
        ``check`` (a cancel poll) is called every few thousand positions."""
        if not self.patterns:
            return
        for n, found in enumerate(self._starts.finditer(text)):
            if check is not None and not n & 0x3FFF:
                check()
            at = found.start()
            # Whitespace of any kind is skipped, as the patterns' \s* skip it.
            ahead = "".join(text[at:at + 3 * self._KEY].split())
            for size in self._lengths:
                for value in self._by_key.get(ahead[:size], ()):
                    pattern = self.patterns[value]
                    if pattern is None:
                        pattern = self.patterns[value] = phrase_pattern(value)
                    match = pattern.match(text, at)
                    if match is not None:
                        yield value, at, match.end()

    def counts(self, text: str, check: Callable[[], None] | None = None) -> dict[str, int]:
        """Non-overlapping occurrences of each phrase found in ``text`` (absent: none)."""
        counts: dict[str, int] = {}
        ends: dict[str, int] = {}
        for value, start, end in self._matches(text, check):
            if start >= ends.get(value, 0):
                counts[value] = counts.get(value, 0) + 1
                ends[value] = end
        return counts

    def search(self, text: str) -> str | None:
        """The first phrase found in ``text``, or None."""
        for value, _, _ in self._matches(text):
            return value
        return None
