"""Candidates found apart that are one identifier: a surname and its given names around their
comma ("LOPEZ-ALDANA, MARCO 19 YO M", "vega, teodoro (74 yo"), an institution and the place or
the name after its "of" or "for" ("UNIVERSITY HOSPITAL OF EASTBROOK", "larchmont sisters of
mercy home", "PIKE SLIP CENTER FOR REHAB"). A model often stops at the comma or the "of", and
each half alone would get its own surrogate: one name, one hospital to the reviewer. The halves
come back SUPERSEDED. A hospital named head first takes its head in ("HOSPITAL SAN GABRIEL",
"HOSPICE ANUENUE"): alone, the head is an English word the guards drop. Here, after the
overlaps are settled, not at the guards, where the head would make the span overlap a rule's
facility before it and lose to it ("Magnelli Hospital Ángeles Valle Oriente")."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from engine.core.domain import Span, SpanStatus
from engine.core.labels import NAME_LABELS, Label

_NAME_PRIORITY = (Label.PATIENT, Label.PERSON, Label.DOCTOR)
_PLACES = frozenset({Label.HOSPITAL, Label.LOCATION})
# What an institution's name ends in before its "of", besides a facility's head ("Sunrise
# Dialysis of Weslaco", "Little Sisters of the Poor").
_INSTITUTION_HEADS = ("dialysis", "home", "network", "services", "university", "sisters",
                      "brothers", "society", "college", "foundation")
_OF = re.compile(r"[ \t]+(?i:of|for)[ \t]+(?:(?i:the)[ \t]+)?\Z")


def joined(text: str, spans: list[Span]) -> list[Span]:
    """The candidates with each pair that is one identifier joined."""
    live: list[Span] = []
    other: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if span.status is not SpanStatus.CANDIDATE:
            other.append(span)
            continue
        span = _with_head_before(text, span)
        before = live[-1] if live else None
        label = None if before is None else _surname_and_given(text, before, span) \
            or _institution_of(text, before, span) or _whose_institution(text, before, span)
        if before is not None and label is not None:
            evidence = tuple(dict.fromkeys(d for s in (before, span) for d in s.detectors
                                           if d and d != before.detector))
            live[-1] = replace(before, end=span.end, label=label, evidence=evidence,
                               subtype=None if label is not before.label else before.subtype)
            other += [before.with_status(SpanStatus.SUPERSEDED),
                      span.with_status(SpanStatus.SUPERSEDED)]
        else:
            live.append(span)
    return sorted([*live, *other], key=lambda s: (s.start, s.end, s.status))


def _surname_and_given(text: str, before: Span, span: Span) -> Label | None:
    """Two names with only a comma between them, an age after the second or the first heading
    its line: the more specific label of the two."""
    if before.label not in NAME_LABELS or text[before.end:span.start] not in (",", ", ") \
            or not (span.label in NAME_LABELS or _given_name_as_a_place(text, span)):
        return None
    from engine.resolution.shorthand import age_after

    if not (age_after(text, span.end)
            or _heads_its_line().search(text, max(0, before.start - 40), before.start)):
        return None
    return min(before.label, span.label if span.label in NAME_LABELS else before.label,
               key=_NAME_PRIORITY.index)


def _given_name_as_a_place(text: str, span: Span) -> bool:
    """A model's place that is one listed first name: "HOLLOWAY, DORIS", "MOULTRIE, ODESSA"."""
    from engine.detectors.dictionary.names import all_name_lists

    covered = text[span.start:span.end]
    return span.label is Label.LOCATION and covered.isalpha() \
        and covered.casefold() in all_name_lists()[0]


@cache
def _heads_its_line() -> re.Pattern[str]:
    """Where a name heads its line, a form's field or a list's item, which joins it to the name
    after its comma as the second name's age does (shorthand.age_after: " 19 YO M"): "HOLLOWAY,
    DORIS - 79 YO F", "PT MOULTRIE, ODESSA CVICU BED 9", "Pt: Gallegos, Ignacio", "rm 403 -
    toomer, willie mae"."""
    from engine.detectors.regex.fragments import BED  # at call: the rules compile on import

    return re.compile(r"(?im:^[ \t]*(?:[-*•][ \t]*)?(?:(?:pt|patient|name|re)\b[ \t]*[:#\-]?"
                      rf"|{BED}[ \t]*[-–:.)|]?"
                      r"|\d{1,3}[ \t]*[-–.):|])?[ \t]*\Z)")


@cache
def _institution_end() -> re.Pattern[str]:
    from engine.resolution.places import FACILITY_HEADS  # at call: places loads the rules

    return re.compile(rf"(?i:\b(?:{'|'.join(FACILITY_HEADS + _INSTITUTION_HEADS)})\Z)")


def _institution_of(text: str, before: Span, span: Span) -> Label | None:
    """An institution, "of" or "for", then a place or a name on the same line."""
    gap = text[before.end:span.start]
    if before.label is not Label.HOSPITAL or span.label not in _PLACES | NAME_LABELS \
            or "\n" in gap or not _OF.fullmatch(gap) \
            or not _institution_end().search(text, before.start, before.end):
        return None
    return Label.HOSPITAL


_POSSESSIVE_GAP = re.compile(r"['’]s[ \t]+")


def _whose_institution(text: str, before: Span, span: Span) -> Label | None:
    """A hospital's name cut at its possessive: "Children" and "Hospital of the Desert
    Southwest" of "Children's Hospital of the Desert Southwest"."""
    if before.label is not Label.HOSPITAL or span.label is not Label.HOSPITAL \
            or not _POSSESSIVE_GAP.fullmatch(text, before.end, span.start):
        return None
    return Label.HOSPITAL


def _with_head_before(text: str, span: Span) -> Span:
    """A hospital's name with its head word just before it (places.facility_head_before)."""
    if span.label is not Label.HOSPITAL:
        return span
    from engine.resolution.places import facility_head_before  # compiles the rules: not on import

    head = facility_head_before(text, span.start, span.end)
    return span if head < 0 else span.moved(head, span.end)
