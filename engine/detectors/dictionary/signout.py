"""A sign-out list's patients by surname ("1. feld - hsv enceph d5", "2) Jang, ADHF").

Residents hand over a numbered list headed by the patient's surname alone, with no title or
cue before it. Read only in a note that calls itself a sign-out, hand-off or census, and only
a word that cannot be the problem the item is about: a listed name, or a word no English,
clinical, shorthand or drug list holds and no clinical ending shapes (dev 1-56: 32 items of 33
were patients; a numbered problem list, "1. Rhabdo - CK 48k", reads the same without the
heading).
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.detectors.base import DetectorSpec
from engine.detectors.dictionary.context import clinical_words, is_english
from engine.detectors.dictionary.names import is_listed_name

_SIGNOUT = re.compile(r"(?i:\bsign[ \-]?out|\bhand[ \-]?(?:off|over)|\bcensus\b|\boverflow\b"
                      r"|\bcross[ \-]?cover)")
# The item's first word, then a dash, a comma or a bracket: "3) Halvorsen-Quaye - POD 0",
# "- ahn, copd/pna", "2. tuck (frat pt) - etoh".
_ITEM = re.compile(r"(?m:^[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]*"
                   r"([^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)?)"
                   r"(?=[ \t]*[,(]|[ \t]+[-–—][ \t]|[ \t]?[–—][ \t]?))")
# What a drug, a disease or an operation ends in ("Apixaban", "Deconditioning", "esld").
_CLINICAL_ENDING = re.compile(r"(?i:.*(?:ing|tion|itis|emia|osis|ectomy|pathy|plasty|ism|ase"
                              r"|ide|ine|pam|lol|pril|sartan|xaban|parin|mab|nib|cillin"
                              r"|mycin|floxacin))")


@lru_cache(maxsize=1)
def _allowlisted() -> frozenset[str]:
    from engine.resolution.allowlist import ClinicalAllowlist  # resolution imports detectors

    return ClinicalAllowlist.default().terms


def _a_surname(word: str) -> bool:
    from engine.resolution.shorthand import is_shorthand

    key = word.casefold()
    parts = key.split("-")
    if key in _allowlisted() \
            or any(is_shorthand(p) or p in clinical_words() for p in parts):
        return False
    listed = is_listed_name(word) or all(is_listed_name(p) for p in parts)
    if not listed and (_CLINICAL_ENDING.fullmatch(word) or word.isupper() and len(word) <= 4
                       or not word.isupper() and word[-1].isupper()
                       and sum(c.isupper() for c in word) > 1):
        return False  # "8. DTS - PHENOBARB PROTOCOL", "1. Apixaban (AF)", "2. HFrEF -"
    return listed or not any(is_english(p) for p in parts)


class SignoutNameDetector:
    """The surname that heads an item of a sign-out list."""

    spec = DetectorSpec(id="dictionary.signout_names", version=1, source=Source.DICTIONARY,
                        description="patients heading the items of a sign-out list")

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        ctx.check()
        text = doc.text
        if not _SIGNOUT.search(text):
            return []
        return [Span(*item.span(1), Label.PATIENT, source=Source.DICTIONARY,
                     detector=self.spec.qualified, confidence=0.6)
                for item in _ITEM.finditer(text) if _a_surname(item.group(1))]
