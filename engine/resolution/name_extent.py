"""Where a name span stops short of the name: an okina or an apostrophe inside or before it
("'ANA MAFI", "Saufo'i"), or a third given name before the patient's age ("PT: KWAN, TAK SHING
69M", "PT FONG, WAI MAN 68 YO M": a model often stops at the second word, and Chinese given names
are often English words), or the "Md." that opens many Bangladeshi men's names ("HUSBAND MD.
JAHANGIR ALAM": after a relative it is no physician) and the title that opens a Karen one ("Saw
Eh Doh")."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.core.domain import Span
from engine.core.labels import NAME_LABELS, Label
from engine.detectors.dictionary.context import KAREN_TITLES, RELATIONS

_GLOTTAL_LABELS = NAME_LABELS | {Label.LOCATION}  # a place too: "Nuku'alofa", "Hawai'i"
# Pacific names keep their glottal stop: "'ANA MAFI", "Saufo'i" (not a possessive "Tonga's").
_GLOTTAL_AFTER = re.compile(r"['’ʻ](?!(?i:s|d|m|t|ll|re|ve)\b)[^\W\d_]+")  # not "eval'd"
_GLOTTAL_BEFORE = re.compile(r"(?:^|(?<=[\s(\"“]))['’ʻ]\Z")
# One more given name, then the age and sex: " SHING  69M", " MAN 68 YO M", " Wai, 50 F".
_GIVEN_BEFORE_AGE = re.compile(r"[ \t]+([^\W\d_]{2,})(?=,?[ \t]+\d{1,3}[ \t]*"
                               r"(?:(?i:yo|y/o|y\.o\.)[ \t]*)?[MFmf]\b)")


# "Md." (Mohammad) before a relative's name: "HUSBAND MD. JAHANGIR ALAM", "son Md Rafiq".
_MD_AFTER_RELATIVE = re.compile(rf"(?i:\b(?:{RELATIONS})[ \t:,-]+)(Md\.?|MD\.)[ \t]+\Z")


# A Karen title capitalised inside a sentence, where the verb "saw" is not, after a word (after
# a comma, "Paw, Naw Mu", another span holds the title with the surname).
_KAREN_TITLE = "|".join(sorted(title.title() for title in KAREN_TITLES))
_KAREN_TITLE_BEFORE = re.compile(rf"(?<=[^\W\d_][ \t])({_KAREN_TITLE})[ \t]+\Z")


def with_given_name_prefix(text: str, span: Span) -> Span:
    """A relative's name takes in the "Md." before it, and is no doctor's for it; a name takes
    in the Karen title before it ("husband Saw Eh Doh")."""
    if span.label not in NAME_LABELS:
        return span
    title = _KAREN_TITLE_BEFORE.search(text, max(0, span.start - 12), span.start)
    if title is not None and span.label is not Label.DOCTOR:
        return span.moved(title.start(1), span.end)
    prefix = _MD_AFTER_RELATIVE.search(text, max(0, span.start - 40), span.start)
    if prefix is None:
        return span
    moved = span.moved(prefix.start(1), span.end)
    return replace(moved, label=Label.PERSON) if moved.label is Label.DOCTOR else moved


def with_glottal_stops(text: str, span: Span) -> Span:
    """A name span that stops at an okina or apostrophe inside or before the name takes the
    rest of the name in."""
    if span.label not in _GLOTTAL_LABELS:
        return span
    start, end = span.start, span.end
    if start > 0 and _GLOTTAL_BEFORE.search(text, max(0, start - 2), start) \
            and text[start:start + 1].isalpha() and text[end:end + 1] not in ("'", "’"):
        start -= 1  # not 'Ana' in quotes
    after = _GLOTTAL_AFTER.match(text, end)
    if after and text[end - 1:end].isalpha():
        end = after.end()
    return span if (start, end) == (span.start, span.end) else span.moved(start, end)


def with_given_name_before_age(text: str, span: Span) -> Span:
    """A patient written surname first ("KWAN, TAK") takes in one more given name when the age
    and sex follow it; not shorthand, clinical vocabulary or a longer English word ("DOE, JOHN
    ADMITTED 68 M" keeps its two words)."""
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.resolution.shorthand import is_shorthand

    covered = text[span.start:span.end]
    if span.label is not Label.PATIENT or ", " not in covered or "\n" in covered:
        return span
    more = _GIVEN_BEFORE_AGE.match(text, span.end)
    if more is None:
        return span
    key = more.group(1).casefold()
    if is_shorthand(key) or key in clinical_words() or is_english(key) and len(key) > 5:
        return span  # "DOE, JOHN SEPTIC 68 M"; a short syllable may be a word ("WAI MAN")
    return span.moved(span.start, more.end())

