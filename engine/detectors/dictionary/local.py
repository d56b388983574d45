"""The local PHI dictionary: every occurrence of the institution's own names, wards and places
(a project profile's PHI entries) in every variant a note writes them.

One token-keyed phrase table built once per profile (never a regex per entry):

- any case ("SMITH", "smith"); possessives ("Smith's", "Jones'"); hyphen and space variants
  ("Mary-Anne" / "Mary Anne"); "." and "," between tokens ("B. TOLLER", "Smith, John");
- people: initial + surname ("d lang", "B. Toller"), surname + initial, "surname, first",
  the surname alone, and for patients and relatives the given name alone;
- a ward or hospital with its number ("Kessler 3", "Kessler-3B");
- OCR near-misses: a token of five letters or more that is one edit (rapidfuzz Levenshtein)
  from a dictionary token and is no English word ("Srnith" is not, "Sm1th" is not).

A one-word variant that is also an English or clinical word ("Rose", "Bell") must be written
capitalised to count: "BP rose" is no name. So must a form made only of the project's own
common words (``Profile.common``: words its notes write everywhere or as plain lower-case
words), and no variant is derived from those or read as a near-miss of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.detectors.base import DetectorSpec
from engine.detectors.dictionary.context import clinical_words, is_english
from engine.detectors.dictionary.stopwords import common_words
from engine.profile.model import (
    FUZZY_MIN_LENGTH,
    PERSON_KINDS,
    TOKEN,
    PhiEntry,
    PhiKind,
    entry_order,
    entry_tokens,
)

_GAP = re.compile(r"[ \t]{0,2}[.,]?[ \t]{1,2}|[ \t]?-[ \t]?|\.")  # what may join two tokens
_WARD_NUMBER = re.compile(r"[ \t\-]?#?\d{1,3}[A-Za-z]?(?![\w\-])")
_NUMBERED = frozenset({PhiKind.WARD, PhiKind.HOSPITAL})

_NEAR_CACHE_SIZE = 200_000  # words remembered per detector (a few MB)
# Confidence by how the text matched.
EXACT, VARIANT, FUZZY = 0.95, 0.85, 0.75
# When two entries give one key: exact forms first, then the more specific kind.
_KIND_RANK = {PhiKind.PATIENT: 0, PhiKind.RELATIVE: 1, PhiKind.STAFF: 2, PhiKind.WARD: 3,
              PhiKind.HOSPITAL: 4, PhiKind.PLACE: 5}


@dataclass(frozen=True, slots=True)
class _Hit:
    label: Label
    confidence: float
    cased: bool  # must be written Capitalised or ALL CAPS (a one-word common word)
    numbered: bool  # a ward or hospital: takes a following number
    rank: tuple[int, int]


def _common(word: str) -> bool:
    return word in common_words() or word in clinical_words() or is_english(word)


def _possessive(key: tuple[str, ...]) -> tuple[str, ...]:
    return (*key[:-1], key[-1] + "'s")


def _variants(entry: PhiEntry) -> Iterator[tuple[tuple[str, ...], float]]:
    """(token key, confidence) of each way a note may write ``entry``."""
    base = entry_tokens(entry.text)
    if not base:
        return
    split = tuple(p for token in base for p in token.split("-") if p)
    forms = {base, split}
    if len(split) == 2:
        forms.add((f"{split[0]}-{split[1]}",))
    for form in forms:
        yield form, EXACT
    words = [t for t in split if t.isalpha()]
    if entry.kind in _NUMBERED and words and len(words) < len(split):
        yield tuple(words), VARIANT  # "Kessler 3" listed: "Kessler" then takes any number
    if entry.kind in PERSON_KINDS and len(words) >= 2:
        first, last = words[0], words[-1]
        yield (first[0], last), VARIANT
        yield (last, first), VARIANT
        yield (last, first[0]), VARIANT
        if len(last) >= 3:
            yield (last,), VARIANT
        if entry.kind is not PhiKind.STAFF and len(first) >= 3:
            yield (first,), VARIANT


class LocalDictionaryDetector:
    """Finds a profile's PHI entries; see the module docstring for the variants."""

    def __init__(self, entries: Iterable[PhiEntry], *, common: Iterable[str] = (),
                 version_tag: str = "", fuzzy: bool = True) -> None:
        # The project's own common words (Profile.common): a form made of them only is taken
        # as written (capitalised) and never derived; no near-miss is read onto or from them.
        self._common = frozenset(common)
        table: dict[tuple[str, ...], _Hit] = {}
        for entry in sorted(set(entries), key=entry_order):
            label = entry.label
            for key, confidence in _variants(entry):
                single = len(key) == 1
                if single and len(key[0]) == 1:
                    continue  # a lone initial is nobody
                local_common = all(t in self._common or len(t) == 1 for t in key)
                if local_common and confidence != EXACT:
                    continue
                hit = _Hit(label, confidence, local_common or single and _common(key[0]),
                           entry.kind in _NUMBERED,
                           (0 if confidence == EXACT else 1, _KIND_RANK[entry.kind]))
                for form in (key, _possessive(key)):
                    held = table.get(form)
                    if held is None or hit.rank < held.rank:
                        table[form] = hit
        self._table = table
        lengths: dict[str, set[int]] = {}
        for key in table:
            lengths.setdefault(key[0], set()).add(len(key))
        self._lengths = {k: tuple(sorted(v, reverse=True)) for k, v in lengths.items()}
        self._fuzzy = _deletion_index({t for key in table for t in key
                                       if len(t) >= FUZZY_MIN_LENGTH and t.isalpha()
                                       and t not in self._common}) if fuzzy else {}
        self._near_cache: dict[str, str | None] = {}
        self.spec = DetectorSpec(id="dictionary.local", version=1, source=Source.DICTIONARY,
                                 description=f"{len(table)} local forms {version_tag}".strip())

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        ctx.check()
        if not self._table:
            return []
        text = doc.text
        tokens = list(TOKEN.finditer(text))
        keys = [m.group().casefold().replace("’", "'") for m in tokens]
        fuzzed = [False] * len(keys)
        if self._fuzzy:
            for i, key in enumerate(keys):
                if key not in self._lengths and len(key) >= FUZZY_MIN_LENGTH \
                        and key not in self._common:
                    near = self._near(key)
                    if near is not None and near != key:
                        keys[i], fuzzed[i] = near, True
        spans: list[Span] = []
        i = 0
        while i < len(tokens):
            found = self._match(text, tokens, keys, i)
            if found is None:
                i += 1
                continue
            n, hit = found
            start, end = tokens[i].start(), tokens[i + n - 1].end()
            if len(keys[i + n - 1]) == 1 and text[end:end + 1] == ".":
                end += 1  # "Lindqvist, Q." takes its initial's period
            if hit.numbered:
                number = _WARD_NUMBER.match(text, end)
                if number:
                    end = number.end()
            confidence = FUZZY if any(fuzzed[i:i + n]) else hit.confidence
            spans.append(Span(start, end, hit.label, source=Source.DICTIONARY,
                              detector=self.spec.qualified, confidence=confidence))
            i += n
        return spans

    def _match(self, text: str, tokens: list[re.Match[str]], keys: list[str], i: int
               ) -> tuple[int, _Hit] | None:
        for n in self._lengths.get(keys[i], ()):
            if i + n > len(tokens):
                continue
            if any(not _GAP.fullmatch(text, tokens[k].end(), tokens[k + 1].start())
                   for k in range(i, i + n - 1)):
                continue
            hit = self._table.get(tuple(keys[i:i + n]))
            if hit is None:
                continue
            if hit.cased and not _capitalised(tokens[i].group()):
                continue
            return n, hit
        return None

    def _near(self, key: str) -> str | None:
        """The dictionary token one edit from ``key`` (None if none, or an English word);
        remembered, since notes repeat their words."""
        try:
            return self._near_cache[key]
        except KeyError:
            pass
        if len(self._near_cache) > _NEAR_CACHE_SIZE:
            self._near_cache.clear()
        near = self._near_cache[key] = self._lookup_near(key)
        return near

    def _lookup_near(self, key: str) -> str | None:
        if not key.isalnum() or key.isdigit():
            return None
        found: set[str] = set(self._fuzzy.get(key, ()))
        for d in _deletions(key):
            found.update(self._fuzzy.get(d, ()))
        if key in found:
            return key
        near = sorted(w for w in found if Levenshtein.distance(key, w, score_cutoff=1) <= 1)
        if not near or (key.isalpha() and is_english(key)):
            return None
        return near[0]


def _capitalised(word: str) -> bool:
    return word[:1].isupper()


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _deletion_index(words: set[str]) -> dict[str, tuple[str, ...]]:
    """word and each one-deletion form -> the words: one edit apart words share a form."""
    index: dict[str, set[str]] = {}
    for word in words:
        for form in (word, *_deletions(word)):
            index.setdefault(form, set()).add(word)
    return {k: tuple(sorted(v)) for k, v in index.items()}
