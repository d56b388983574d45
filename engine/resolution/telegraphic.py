"""Telegraphic forms a model takes for identifiers, judged for model spans only.

- A side and a device or a body part is no name: "R fem sheath", "R RADIAL ALINE", "Bilat LE".
  The words after the side are shorthand or English words, none a listed name that is neither
  ("R. Dimauro" keeps its surname; "R fem" has none).
- A capitalised English word that starts a sentence is no name or place by its capital alone:
  "Dialyzes at DaVita", "Community rehab visit", "Made DNR". It stays with a listed name or
  place, name context, a subject's verb after it ("Bra reports swelling"), or a candidate
  beside it ("Hospital San Rafael").
- Sizes and post-operative days are no IDs or places: "POD #2", "Trach #8 portex", "#8 Shiley".
"""

from __future__ import annotations

import re

from engine.core.domain import Span
from engine.detectors.dictionary.context import english_words, has_name_context, is_english
from engine.detectors.dictionary.locations import one_word_places
from engine.detectors.dictionary.names import all_name_lists
from engine.resolution.shorthand import is_shorthand

_SIDES = frozenset({"r", "l", "rt", "lt", "bilat", "b/l", "bil", "left", "right"})
_SENTENCE_START = re.compile(r"(?:\A|[.!?;:][ \t]+|\n[ \t]*|[-–][ \t]+)\Z")
_SUBJECT_VERB_AFTER = re.compile(
    r"(?i:^[ \t]+(?:reports?|states?|denies|says|said|is|was|has|had|feels|complains|c/o|notes"
    r"|agrees|wants|asks|called|visited|aware)\b)")
_SIZE_BEFORE = re.compile(r"(?i:\b(?:pod|trach|ett|ngt|ogt|size|fr|french)[ \t]*#?[ \t]*\Z)")
_SIZE_AFTER = re.compile(r"(?i:^[ \t]*(?:fr\b|french|portex|shiley|bivona|cuffed|uncuffed))")
_SMALL_NUMBER = re.compile(r"#?\d{1,2}(?:-\d{1,2})?")
_NAME_GOES_ON = re.compile(r"^[ \t]+([A-Z][^\W\d_]+)")  # "Armada Navalón"


def _a_name(word: str) -> bool:
    """A listed name that is no English word and no shorthand ("Dimauro", not "fem")."""
    first, last = all_name_lists()
    key = word.casefold().strip(".,")
    return (key in first or key in last) and not is_english(key) and not is_shorthand(key)


def side_and_device(text: str, span: Span) -> bool:
    words = text[span.start:span.end].split()
    return len(words) >= 2 and words[0].casefold() in _SIDES \
        and all(is_shorthand(w) or w.strip(".,").casefold() in english_words()
                for w in words[1:]) \
        and not any(_a_name(w) for w in words[1:]) \
        and not has_name_context(text, span.start, span.end)  # "R DAVIES, RN"


def capital_of_a_sentence(text: str, span: Span, beside: bool) -> bool:
    covered = text[span.start:span.end]
    if beside or " " in covered or not covered[:1].isupper() or covered.isupper() \
            or not _SENTENCE_START.search(text[max(0, span.start - 3):span.start]):
        return False
    first, last = all_name_lists()
    key = covered.casefold()
    return is_english(covered) and key not in first and key not in last \
        and key not in one_word_places() \
        and not has_name_context(text, span.start, span.end) \
        and not _SUBJECT_VERB_AFTER.match(text[span.end:span.end + 16]) \
        and not _surname_after(text, span.end)


def _surname_after(text: str, end: int) -> bool:
    after = _NAME_GOES_ON.match(text[end:end + 30])
    return after is not None and not is_english(after.group(1))


def size_or_day(text: str, span: Span) -> bool:
    return bool(_SMALL_NUMBER.fullmatch(text[span.start:span.end])) and bool(
        _SIZE_BEFORE.search(text[max(0, span.start - 10):span.start])
        or _SIZE_AFTER.match(text[span.end:span.end + 12]))
