"""Token n-gram lookup shared by the dictionary detectors."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise

# Word tokens: letters with inner apostrophes, hyphens or periods ("O'Neil", "Jean-Luc").
TOKEN = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class Token:
    start: int
    end: int
    text: str

    @property
    def key(self) -> str:
        return self.text.casefold().replace("’", "'")


def tokenize(text: str) -> list[Token]:
    return [Token(m.start(), m.end(), m.group()) for m in TOKEN.finditer(text)]


def only_spaces_between(text: str, left: Token, right: Token, *, allow: str = " \t") -> bool:
    gap = text[left.end:right.start]
    return 0 < len(gap) <= 3 and all(c in allow for c in gap)


def is_title(token: str) -> bool:
    return token[:1].isupper() and any(c.islower() for c in token[1:])


def is_upper(token: str) -> bool:
    return token.isupper() and len(token) > 1


class PhraseTable:
    """Longest-match lookup of multi-token phrases keyed by casefolded tokens."""

    def __init__(self, phrases: Mapping[tuple[str, ...], str]) -> None:
        self.phrases = dict(phrases)
        self.max_len = max((len(k) for k in self.phrases), default=1)
        # Lengths of phrases by first token, longest first: most tokens start no phrase and
        # cost one lookup. Most phrases are one word; those are set in one C-level call.
        longer: dict[str, set[int]] = {}
        for key in self.phrases:
            if len(key) > 1:
                longer.setdefault(key[0], set()).add(len(key))
        single = (1,)
        self.lengths: dict[str, tuple[int, ...]] = dict.fromkeys(
            [key[0] for key in self.phrases if len(key) == 1], single)
        for first, sizes in longer.items():
            if first in self.lengths:
                sizes.add(1)
            self.lengths[first] = tuple(sorted(sizes, reverse=True))

    def scan(self, text: str, tokens: list[Token],
             allow: str = " \t-") -> Iterator[tuple[int, int, str]]:
        """Yield (first token, last token + 1, payload), longest first, non-overlapping;
        ``allow``: the characters that may stand between a phrase's tokens."""
        i = 0
        while i < len(tokens):
            found = None
            for n in self.lengths.get(tokens[i].key, ()):
                if i + n > len(tokens):
                    continue
                window = tokens[i:i + n]
                if n > 1 and not all(only_spaces_between(text, a, b, allow=allow)
                                     for a, b in pairwise(window)):
                    continue
                payload = self.phrases.get(tuple(t.key for t in window))
                if payload is not None:
                    found = (i, i + n, payload)
                    break
            if found:
                yield found
                i = found[1]
            else:
                i += 1
