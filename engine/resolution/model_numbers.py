"""Numbers a model proposes, judged by where they stand.

A model reads "86" in "Gertrude Olenick, 86, POD #9" as a place and "79F" as an ID: by their
place they are ages, relabelled rather than dropped (over 89 an age is PHI). Its clocks
("ARRIVED 1530 FROM", "son 1930-2100"), rooms ("ROOM 312") and money ("$343/mo") are no
identifiers; the short numbers it calls phones stay, mostly postal codes and extensions.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.core.domain import Source, Span
from engine.core.labels import Label
from engine.detectors.regex.fragments import HHMM

_AGE_AND_SEX_CORE = re.compile(r"(?i:(\d{1,3})[ \t]?(?:yo|y/o|y\.o\.)?[ \t]?[mf])")
_AGE_ALONE = re.compile(r"\d{1,3}")
_NAME_THEN_COMMA = re.compile(r"[A-Za-z][a-z]+(?:,[ \t]*|[ \t]+\()\Z")
_AGE_CLOSED = re.compile(r"(?:\)|,|[ \t]+(?:POD|HD|w/|with|s/p|yo|y/o)\b)")
_CLOCK_RANGE = re.compile(rf"{HHMM}[ \t]?-[ \t]?{HHMM}")
_ROOM_BEFORE = re.compile(r"(?i:\b(?:room|rm|bed)[ \t:#]*\Z)")
# "ARRIVED 1530 FROM", "admit note 1530": a clock is no ID, phone or street number.
_CLOCK = re.compile(HHMM)
_AT_BEFORE = re.compile(r"(?i:\b(?:at|phone|call)[ \t:]*\Z)")
_NUMBER_WORD_BEFORE = re.compile(r"(?i:(?:\b(?:mrn|acct|account|id|no|number|unit|apt|suite|box"
                                 r"|room|rm|bed|ext|x|pager|beeper|pgr|po|cell|phone|tel|fax|call"
                                 r"|at)\.?|#)[ \t:#]*\Z)")


def age_of_a_model_number(text: str, span: Span) -> Span:
    """A model's number that is an age by its place is relabelled, not dropped (over 89 it is
    PHI): "81M", "79F" (an age and a sex), "Gertrude Olenick, 86, POD #9", "Rocco (77) on
    behalf". A model's "'98" as an age is a year."""
    if span.source not in (Source.NER, Source.LLM):
        return span
    covered = text[span.start:span.end].strip()
    if span.label is Label.AGE and text[span.start - 1:span.start] in ("'", "’"):
        return replace(span, label=Label.DATE, subtype=None)
    if span.label is Label.AGE:
        return span
    sexed = _AGE_AND_SEX_CORE.fullmatch(covered)
    if sexed:
        start = span.start + text[span.start:span.end].index(sexed.group(1))
        return replace(span, start=start, end=start + len(sexed.group(1)), label=Label.AGE,
                       subtype=None)
    if _AGE_ALONE.fullmatch(covered) and int(covered) <= 115 \
            and _NAME_THEN_COMMA.search(text[max(0, span.start - 24):span.start]) \
            and bool(_AGE_CLOSED.match(text, span.end)):
        return replace(span, label=Label.AGE, subtype=None)
    return span


_DECADE = re.compile(r"(?:1[89])?\d0['’]?s\b")
THE_BEFORE = re.compile(r"(?i:\bthe[ \t]+\Z)")  # "The 70s", "AT THE PINES"
_CODE_SECTION_BEFORE = re.compile(r"\d\([a-z]\)\(\Z")
_DECIMAL_AFTER = re.compile(r"\.\d")
_DECIMAL_BEFORE = re.compile(r"\d\.\Z")
# A floor is no address: Spanish flats ("Calle Trinidad, 39, 8 A") carry no ordinal suffix.
_ROOM = re.compile(r"(?i:(?:rm|room|bed)\.?[ \t]*#?[ \t]*\d{1,4}[A-Za-z]?)")
_ORDINAL_FLOOR = re.compile(r"(?i:\d{1,2}(?:st|nd|rd|th)(?:[ \t]+(?:floor|fl|flr)\.?)?)")


_FORM_BEFORE = re.compile(r"(?i:\bform[ \t#:]*\Z)")
_TREND_BEFORE = re.compile(r"\d[ \t]+(?:from|to|->|→)[ \t]*\Z")
# A value after a trend's arrow and its day: "(POD1 3100 -> POD3 6800)".
_ARROW_BEFORE = re.compile(r"\d[ \t]*(?:->|→)[ \t]*(?:[A-Za-z]+\d*[ \t]+)?\Z")


def model_number_is_no_identifier(text: str, span: Span) -> bool:
    """A model's clock as a phone, an ID or a street number ("CALL BY 0530", "ARRIVED 1530
    FROM", "admit note 1530"), a room as a phone ("ROOM 312"), a decade or a tax code's
    section as an age ("The 70s", "501(c)(3)"), a piece of a decimal or a floor as a place.
    Other short numbers it calls
    phones stay: they are mostly postal codes and extensions, PHI under another label."""
    covered = text[span.start:span.end].strip()
    before = text[max(0, span.start - 16):span.start]
    if before.endswith("$") or _CLOCK_RANGE.fullmatch(covered):
        return True  # "$343/mo", "son 1930-2100"
    if span.label is Label.AGE and (_DECADE.match(text, span.start)
                                   and THE_BEFORE.search(before)
                                   or _CODE_SECTION_BEFORE.search(before)):
        return True  # "Musicians Of The 70s" (a decade, not "in her 70s"), "a 501(c)(3)"
    if covered.isdigit() and len(covered) < 4 \
            and (_DECIMAL_AFTER.match(text, span.end) or _DECIMAL_BEFORE.search(before)
                 or _TREND_BEFORE.search(before)):
        return True  # "K 5.9 -> 3.3", "from 1.9", "ast 212 from 480": a value and its trend
    if covered.isdigit() and len(covered) <= 5 and _ARROW_BEFORE.search(before):
        return True  # "amylase (POD1 3100 -> POD3 6800)"
    if span.label is Label.LOCATION and (_ORDINAL_FLOOR.fullmatch(covered)
                                         or _ROOM.fullmatch(covered)
                                         or covered.isdigit() and _ROOM_BEFORE.search(before)):
        return True  # "a 3rd floor walkup", "2nd fl", "INN ACROSS STREET, RM 212", "FROM RM 7"
    if span.label is Label.PHONE and _ROOM_BEFORE.search(before) \
            and sum(c.isdigit() for c in covered) < 7:
        return True
    if span.label is Label.AGE and covered.isdigit() and len(covered) >= 4:
        return True  # "Coordinator arrived [1130]": no age has four digits
    if span.label is Label.HOSPITAL and _CLOCK.fullmatch(covered) \
            or span.label is Label.ID and _FORM_BEFORE.search(before):
        return True  # "BACK TO SICU 0510", "ENROLLMENT FORM 2728"
    if not (span.label in (Label.ID, Label.PHONE, Label.LOCATION) and _CLOCK.fullmatch(covered)):
        return False
    # After "at" or "phone" a round or early clock is the time ("by phone at 0540", "UPDATED
    # BY PHONE 1400"); "reach her at 4412" and "ext 1400" stay extensions.
    round_or_early = covered[0] == "0" or covered[2:] in ("00", "15", "30", "45")
    return not _NUMBER_WORD_BEFORE.search(before) or bool(_BY_PHONE_BEFORE.search(before)) \
        or bool(_AT_BEFORE.search(before)) and round_or_early


# "notified by phone 2355": the time of the call
_BY_PHONE_BEFORE = re.compile(r"(?i:\bby[ \t]+phone[ \t]+(?:at[ \t]+)?\Z)")
