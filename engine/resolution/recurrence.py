"""A name or place found once in a note is the same name or place where the note writes it
again: "return to QVL when off pressors; QVL case mgr Sandra Bixby", "lives in Marrow Bay ...
a bakery in MARROW BAY". The first mention had the evidence (a move, a title, the model); the
later ones often have none and were missed.

Only what is safe to repeat is repeated: names and places (not dates or numbers, which a
format finds everywhere), three letters or more, no word of it English, clinical or shorthand
("Rose" of "BP rose", "Will"), in the case it was found in or the same words upper- or lower-
cased or capitalised (real exports come in every case); a lower-case one only from a line
without case, and none in a note in another language. An institution of three words or more
recurs as its initials too ("Quillon Valley Nursing Center ... QVNC accepted"), in capitals,
when they spell no English word or shorthand. The repeats are candidates like any other: the
policy and a project's learned deciders still see them.
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

DETECTOR = "resolution.recurrence@2"
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
    acronyms = _acronyms(text, spans)
    if not first and not acronyms:
        return []
    taken = sorted((s.start, s.end) for s in spans)
    found = _found_again(text, first, taken)
    for m in _CAPITALS.finditer(text) if acronyms else ():
        source = acronyms.get(m.group())
        if source is None or _overlaps(m, taken):
            continue  # "transfer from Quillon Valley Nursing Center ... QVNC accepted"
        found.append(_repeat(source, m))
        taken.append((m.start(), m.end()))
    return found


_JOINING = frozenset({"of", "the", "and", "&", "at", "for"})
_CAPITALS = re.compile(r"(?<![\w\-])[A-Z]{3,6}(?![\w\-])")


def _acronyms(text: str, spans: list[Span]) -> dict[str, Span]:
    """The initials of each institution of three words or more ("Windrow Point Health
    Center" gives "WPHC"), when they spell no shorthand or English word."""
    out: dict[str, Span] = {}
    for span in spans:
        if span.label is not Label.HOSPITAL:
            continue
        words = [w for w in text[span.start:span.end].split() if w.casefold() not in _JOINING]
        initials = "".join(w[0] for w in words if w[:1].isalpha()).upper()
        if len(words) >= 3 and len(initials) == len(words) <= 6 \
                and not is_english(initials) and not is_shorthand(initials):
            out.setdefault(initials, span)
    return out


def _found_again(text: str, first: dict[str, Span],
                 taken: list[tuple[int, int]]) -> list[Span]:
    if not first:
        return []
    pattern = re.compile(r"(?<![\w\-])(?:" + "|".join(
        re.escape(k) for k in sorted(first, key=len, reverse=True)) + r")(?![\w\-])",
        re.IGNORECASE)
    found: list[Span] = []
    for m in pattern.finditer(text):
        source = first.get(m.group().casefold())
        if source is None or _overlaps(m, taken):
            continue
        seen = text[source.start:source.end].strip()
        if m.group() not in (seen, seen.upper(), seen.lower(), seen.title()):
            continue  # "QVL" again as "Qvl": no case a note would write it in
        found.append(_repeat(source, m))
        taken.append((m.start(), m.end()))
    return found


def _overlaps(match: re.Match[str], taken: list[tuple[int, int]]) -> bool:
    return any(a < match.end() and match.start() < b for a, b in taken)


def _repeat(source: Span, match: re.Match[str]) -> Span:
    """``source`` again where ``match`` found it: a rule's candidate, no surer than 0.6."""
    return replace(source, start=match.start(), end=match.end(), source=Source.RULE,
                   detector=DETECTOR, confidence=min(source.confidence, 0.6), evidence=(),
                   id=new_id())
