"""Span edges: no span starts or ends on space or punctuation that is not part of it; the line
a span sits in, which several guards read for its case or its vocabulary; the word before it."""

from __future__ import annotations

import re

_WORD_BEFORE = re.compile(r"([^\W\d_]+)[ \t]+\Z")


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without surrounding whitespace and punctuation, ``(start, start)`` when
    nothing alphanumeric is inside. Kept: the period of an initial or abbreviation ("Anna K.",
    "Jr."; a longer word's period ends a sentence), a bracket pair inside the span
    ("(555) 123-4567"), a leading "+" of a number and a "#" before one ("# 1680")."""
    while start < end and not text[start].isalnum():
        ch = text[start]
        if ch == "(" and ")" in text[start:end]:
            break
        if ch == "+" and start + 1 < end and text[start + 1].isdigit():
            break
        if ch == "#" and text[start + 1:start + 3].strip()[:1].isdigit():
            break  # "# 1680, Katherine Gardens": the number sign of a unit or an ID
        start += 1
    while end > start and not text[end - 1].isalnum():
        ch = text[end - 1]
        if ch == "." and _short_word_before(text, start, end - 1):
            break
        if ch == ")" and "(" in text[start:end - 1]:
            break
        end -= 1
    if not any(c.isalnum() for c in text[start:end]):
        return start, start
    return start, end


def _short_word_before(text: str, start: int, dot: int) -> bool:
    """An initial or short abbreviation (1-3 letters) ends right before the period at ``dot``."""
    i = dot
    while i > start and text[i - 1].isalpha():
        i -= 1
    return 1 <= dot - i <= 3


def line_around(text: str, start: int, end: int) -> str:
    """The whole line of ``text`` that holds ``[start, end)`` (from the line break before
    ``start`` to the one after ``end``)."""
    line_end = text.find("\n", end)
    return text[text.rfind("\n", 0, start) + 1:line_end if line_end >= 0 else len(text)]


def in_caseless_line(text: str, start: int, end: int | None = None) -> bool:
    """Is the line around ``[start, end)`` written without case (ALL CAPS or all lower case,
    four letters or more), where a capital says nothing? ``end`` defaults to ``start``: the
    line the span begins in. The per-span form of names.caseless_lines."""
    line = line_around(text, start, start if end is None else end)
    return (line.upper() == line or line.lower() == line) \
        and sum(c.isalpha() for c in line) >= 4


def drug_before(text: str, start: int) -> bool:
    """The word right before ``start`` is a drug of the clinical lexicon ("heparin to coumadin
    bridge", "buprenorphine/naloxone 8/2 SL")."""
    from engine.cire.lexicon import default_lexicon

    word = _WORD_BEFORE.search(text[max(0, start - 30):start])
    term = default_lexicon().whole(word.group(1)) if word else None
    return term is not None and term.category == "drug"


_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+", re.UNICODE)
_CLOCK_AT_END = re.compile(r"[ \t]+(?:[01]\d|2[0-3])[0-5]\d\Z")
_CLOCK_AT_START = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d(?:,[ \t]*|[ \t]+-[ \t]+)")
# A whole phone number or extension before that time: "(555) 902-6617", "X6-3391", "x4417".
_WHOLE_NUMBER = re.compile(r"(?:\+?1[ .\-]?)?\(?\d{3}\)?[ .\-]?\d{3}[.\-]\d{4}"
                           r"|\d{10}|(?i:x|ext\.?[ \t]?)?\d{0,3}-?\d{4}")


# A count or a clock a model's place took from the words after it: "returned from PORT AMARU 3
# wks ago", "arrived from Marisca 5 mo ago", "ECMO team at Kesterton Children's 0730".
_NUMBER_AT_END = re.compile(r"[ \t]+(\d{1,4})\Z")
# An address's numbered part: "Suite 1400", "Route 1800", "PO Box 2210".
_NUMBERED_BEFORE = re.compile(r"(?i:\b(?:suite|ste|unit|apt|room|rm|box|route|rte|hwy|highway"
                              r"|road|rd|st|street|ave|avenue|blvd|floor|fl|building|bldg))\.?\Z")
_DURATION_AFTER = re.compile(r"[ \t]*(?i:wks?|weeks?|mos?|months?|days?|d|yrs?|years?|hrs?"
                             r"|hours?|mins?)\b")


def place_without_a_count(text: str, start: int, end: int) -> tuple[int, int]:
    number = _NUMBER_AT_END.search(text, start, end)
    if number is None:
        return start, end
    digits = number.group(1)
    clock = len(digits) == 4 and int(digits[:2]) < 24 and int(digits[2:]) < 60 \
        and not _NUMBERED_BEFORE.search(text, start, number.start())
    if clock or _DURATION_AFTER.match(text, end):
        return start, number.start()
    return start, end


def contact_core(text: str, start: int, end: int, web: bool) -> tuple[int, int]:
    """A model's address or phone without the words it took along: "CGC - ALOFTUS@..." is the
    address, "X6-3391 0315" the extension without the time it was called."""
    covered = text[start:end]
    if web:
        email = _EMAIL.search(covered)
        return (start + email.start(), start + email.end()) if email else (start, end)
    clock = _CLOCK_AT_END.search(covered)
    if clock and _WHOLE_NUMBER.fullmatch(covered[:clock.start()]):
        return start, start + clock.start()  # not the last group of "413 555 0143"
    clock = _CLOCK_AT_START.match(covered)
    if clock and _WHOLE_NUMBER.fullmatch(covered[clock.end():]):
        return start + clock.end(), end  # "report called 1330, 978-555-0154"
    return start, end
