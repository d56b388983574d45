"""A name or place found once in a note is the same name or place where the note writes it
again: "return to QVL when off pressors; QVL case mgr Sandra Bixby", "lives in Marrow Bay ...
a bakery in MARROW BAY". The first mention had the evidence (a move, a title, the model); the
later ones often have none and were missed.

Only what is safe to repeat is repeated: names and places (not dates or numbers, which a
format finds everywhere), three letters or more, no word of it English, clinical or shorthand
("Rose" of "BP rose", "Will"), in the case it was found in or the same words upper- or lower-
cased or capitalised (real exports come in every case); a lower-case one only from a line
without case, and none in a note in another language. The repeats are candidates like any
other: the policy and a project's learned deciders still see them.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.core.domain import Document, Source, Span, new_id
from engine.core.labels import Label
from engine.detectors.dictionary.context import is_english
from engine.detectors.dictionary.names import caseless_lines
from engine.resolution.foreign_words import foreign_document
from engine.resolution.shorthand import is_shorthand

DETECTOR = "resolution.recurrence@1"
_REPEATED = frozenset({Label.PATIENT, Label.DOCTOR, Label.PERSON, Label.HOSPITAL,
                       Label.LOCATION})
_WORD = re.compile(r"[^\W\d_]+")


def _repeatable(surface: str) -> bool:
    words = _WORD.findall(surface)
    return len(surface) >= 3 and bool(words) and len("".join(words)) >= 3 \
        and not any(is_english(w) or is_shorthand(w) for w in words)


def recurrences(doc: Document, spans: list[Span]) -> list[Span]:
    """New candidates where a name or place of ``spans`` recurs outside every span."""
    text = doc.text
    if foreign_document(text):
        return []  # its words are not in the English lists that keep "Rose" from repeating
    caseless = caseless_lines(text)
    first: dict[str, Span] = {}
    for span in sorted(spans, key=lambda s: s.start):
        surface = text[span.start:span.end].strip()
        if span.label not in _REPEATED or surface.casefold() in first \
                or not _repeatable(surface):
            continue
        if not surface[:1].isupper() and not any(a <= span.start < b for a, b in caseless):
            continue  # a lower-case name in a line with case is itself doubtful
        first[surface.casefold()] = span
    if not first:
        return []
    taken = sorted((s.start, s.end) for s in spans)
    pattern = re.compile(r"(?<![\w\-])(?:" + "|".join(
        re.escape(k) for k in sorted(first, key=len, reverse=True)) + r")(?![\w\-])",
        re.IGNORECASE)
    found: list[Span] = []
    for m in pattern.finditer(text):
        source = first.get(m.group().casefold())
        if source is None or any(a < m.end() and m.start() < b for a, b in taken):
            continue
        seen = text[source.start:source.end].strip()
        if m.group() not in (seen, seen.upper(), seen.lower(), seen.title()):
            continue  # "QVL" again as "Qvl": no case a note would write it in
        found.append(replace(source, start=m.start(), end=m.end(), source=Source.RULE,
                             detector=DETECTOR, confidence=min(source.confidence, 0.6),
                             evidence=(), id=new_id()))
        taken.append((m.start(), m.end()))
    return found
