"""Names after explicit cues ("Patient", "Pt", "Name:", "Re:"), whatever the dictionaries say.

"Patient Zebulon Quasimodo-Fairweather MRN 99887766" names its patient although neither word
is in any list. The words after the cue are taken while they can be a name: not an English or
clinical word (a listed name that is also a word, "Hope", counts only beside another name or
where the cue has a colon or an identifier follows), never across a line break or punctuation.
"""

from __future__ import annotations

import re

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.detectors.base import DetectorSpec
from engine.detectors.dictionary.context import (
    COUNTED_DAY,
    PERSON_WORDS,
    clinical_words,
    is_english,
    is_english_compound,
)
from engine.detectors.dictionary.gazetteer import is_title
from engine.detectors.dictionary.names import all_name_lists

_CUE = re.compile(
    r"(?i:\b(patient|pt|re|client|(?:patient\s+|pt\s+)?name)\b)(?:[ \t]*(:|#|-))?[ \t]+")
_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*|[A-Z]\.")
# Words that end a name: identifiers, ages and verbs that follow one.
_STOP = frozenset({"mrn", "dob", "id", "hcn", "phn", "ssn", "sin", "uli", "acct", "yo", "y", "is",
                   "was", "has", "had", "and", "or", "the", "a", "an", "to", "of", "in", "on",
                   "at", "for", "with", "who", "seen", "age", "aged", "sex", "male", "female",
                   "mr", "mrs", "ms", "dr", "room", "bed", "unit", "no", "number", "date",
                   "boy", "girl", "infant", "baby"}) | PERSON_WORDS
_GAP = re.compile(r"[ \t]{1,2}(?![ \t])")  # three blanks end a form field
_ID_AFTER = re.compile(r"(?i:^[ \t]*(?:,|\(|mrn|dob|d\.o\.b|id\b|#|\d|hcn|phn|age\b|aged\b"
                       r"|\d+\s*(?:yo|y/o|years?)))")


_WITH_BEFORE = re.compile(r"(?i:\b(?:w/|with)[ \t]*\Z)")


class CueNameDetector:
    """The name right after an explicit cue, in any case."""

    spec = DetectorSpec(id="dictionary.cue_names", version=8, source=Source.DICTIONARY,
                        description="names after Patient / Pt / Name: / Re: cues")

    def __init__(self) -> None:
        first, last = all_name_lists()
        self.names = first | last
        self.clinical = clinical_words()

    def _takes(self, word: str, caseless: bool) -> str | None:
        """"name" (cannot be a word), "listed" (a name that is also a word) or None."""
        key = word.casefold().replace("’", "'")
        key = key[:-2] if key.endswith("'s") else key  # "PER PT'S WISHES": the patient's
        listed = key in self.names or all(p in self.names for p in key.split("-"))
        if key.rstrip(".") in _STOP or len(key) < 2 or key in self.clinical and not listed:
            return None
        # imported here: resolution imports detectors
        from engine.resolution.shorthand import is_prefixed_word, is_shorthand

        if not listed and (is_shorthand(key) or is_prefixed_word(key)):
            return None  # "PT: RR 18-24, UNLABORED", "PT re-eval": a section, a reading, a visit
        head, _, tail = word.partition("-")
        if not listed and tail and (is_english(tail.casefold()) or len(tail) == 1) \
                and (head.isupper() and not word.isupper() or is_shorthand(head.casefold())):
            return None  # "pt IHS-eligible", "pt ICU-acquired", "PT HLA-B*15:02": what the
            # patient is or has
        if not caseless and not (is_title(word) or word.isupper()):  # "PT re-evaluation"
            return None if is_english(key) or is_english_compound(key) else "name"
        if not is_english(key) and not is_english_compound(key):
            return "name"
        return "listed" if listed else None

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        ctx.check()
        text = doc.text
        spans: list[Span] = []
        # A line's case is read once, and the search for its start begins at the previous
        # cue: a long single line has thousands of cues (this was quadratic in its length).
        line_start, seen, caseless = 0, 0, _caseless(text, 0)
        for cue in _CUE.finditer(text):
            newline = text.rfind("\n", seen, cue.start())
            seen = cue.start()
            if newline >= 0:
                line_start = newline + 1
                caseless = _caseless(text, line_start)
            if cue.group(1).casefold() == "re" and text[line_start:cue.start()].strip():
                continue  # "Re:" heads a letter's subject line; "upset re: her condition"
            if _WITH_BEFORE.search(text, max(0, cue.start() - 8), cue.start()):
                continue  # "teaching done w/ pt: small sips": what was done with the patient
            pos, end = cue.end(), cue.end()
            kinds: list[str] = []
            while len(kinds) < 4:
                word = _WORD.match(text, pos)
                if word is None:
                    break
                if len(word.group()) == 2 and word.group().endswith("."):
                    kind: str | None = "initial"
                elif kinds and COUNTED_DAY.match(text, word.start()):
                    break  # "pt kwadwo day 28 in micu": the day of the stay ends the name
                else:
                    kind = self._takes(word.group(), caseless)
                if kind is None:
                    break
                kinds.append(kind)
                end = word.end()
                gap = _GAP.match(text, end)  # not text[end:]: a copy of the rest per word
                if gap is None:
                    break
                pos = gap.end()
            names = [k for k in kinds if k != "initial"]
            if not names:
                continue
            vouched = "name" in names or len(names) > 1 or cue.group(2) == ":" \
                or bool(_ID_AFTER.match(text[end:end + 12]))
            if vouched:
                spans.append(Span(cue.end(), end, Label.PATIENT, source=Source.DICTIONARY,
                                  detector=self.spec.qualified, confidence=0.85))
        return spans


def _caseless(text: str, line_start: int) -> bool:
    """Whether the line starting at ``line_start`` lacks lower- or upper-case letters."""
    line_end = text.find("\n", line_start)
    line = text[line_start:line_end if line_end >= 0 else None]
    letters = [c for c in line if c.isalpha()]
    return not any(c.islower() for c in letters) or not any(c.isupper() for c in letters)
