"""Span edges: no span starts or ends on space or punctuation that is not part of it; what
belongs to a span beyond its proposer's edges (a name's initials and other hyphenated half, an
identifier's glued letters); the line a span sits in, which several guards read for its case
or its vocabulary; the word before it."""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.core.domain import Span

WORD_BEFORE = re.compile(r"([^\W\d_]+)[ \t]+\Z")  # the word before a position
WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")  # and after one


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


_HYPHENATED_REST = re.compile(r"-[A-Z][a-z']+\b")
_HYPHENATED_FIRST = re.compile(r"\b[A-Z][a-z']+-\Z")


def with_hyphenated_part(text: str, start: int, end: int,
                         a_name: Callable[[str], bool]) -> tuple[int, int]:
    """A name cut at its hyphen takes in the other half ("Beaumont" of "Beaumont-Ng") that
    ``a_name`` accepts; only capitalised halves, so "NG" of an upper-case note's "BEAUMONT-NG"
    stays a tube."""
    if text[start:start + 1].isupper():
        rest = _HYPHENATED_REST.match(text, end)
        if rest and a_name(rest.group()[1:]):
            end = rest.end()
        first = _HYPHENATED_FIRST.search(text, max(0, start - 24), start)
        if first and a_name(first.group()[:-1]):
            start = first.start()
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

    word = WORD_BEFORE.search(text[max(0, start - 30):start])
    term = default_lexicon().whole(word.group(1)) if word else None
    return term is not None and term.category == "drug"


# \Z, not $: "Sexo: M.⏎Fecha" has no initial before "Fecha" ($ matches before a newline).
# Not "ML/H. FALL", nor the side a comparison ends on ("INFILTRATES R > L. BAL: GNR").
_INITIALS_BEFORE = re.compile(r"(?<![\w./<>=])(?<![<>=][ \t])(?:[A-Z]\.[ \t]?){1,3}[ \t]*\Z")
# A bare initial closes a field's value: "ATTENDING: DESROSIERS, A⏎", "HRYNIUK, STEPAN M   MRN".
_INITIALS_AFTER = re.compile(r"^,?[ \t]+(?:[A-Z]\.(?:[ \t]?[A-Z]\.){0,2}(?=[\s,;:)]|$)"
                             r"|[A-Z](?=[ \t]*(?:\n|$)|[ \t]{2,}))")


def with_initials(text: str, start: int, end: int) -> tuple[int, int]:
    """"K. Morrow", "J.R. Smith", "Anna K.": the initials belong to the name."""
    before = _INITIALS_BEFORE.search(text[max(0, start - 12):start])
    if before and text[start:start + 1].isupper():
        start -= len(before.group())
    after = _INITIALS_AFTER.match(text[end:end + 12])
    if after and not (after.group().strip() in ("M", "F") and "," not in text[start:end]):
        end += len(after.group())  # after a lone surname, "M" is the sex: "NAKAI  F  STROKE"
    return start, end


_ID_PREFIX = re.compile(r"(?<![\w\-])[A-Za-z0-9]{1,6}-?$")
_ID_SUFFIX = re.compile(r"^(?:-?[A-Za-z0-9]){1,6}(?![\w\-])")


def whole_identifier(text: str, start: int, end: int) -> tuple[int, int]:
    """Letters and dashes glued to an identifier are part of it ("#KX-448120")."""
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
        prefix = _ID_PREFIX.search(text[max(0, start - 7):start])
        if prefix:
            start -= len(prefix.group())
    if end < len(text) and (text[end].isalnum() or text[end] == "-"):
        suffix = _ID_SUFFIX.match(text[end:end + 13])
        if suffix:
            end += len(suffix.group())
    return start, end


_AGE_AT_END = re.compile(r"[ \t]+\d{1,3}\Z")
_SEX_AFTER = re.compile(r"[ \t]*(?:(?i:yo|y/o)[ \t]*)?[MFmf]\b")


def without_age_after(text: str, start: int, end: int) -> tuple[int, int]:
    """An identifier stops before the age that follows it: "MRN 5529018   34 F"."""
    age = _AGE_AT_END.search(text, start, end)
    if age and age.start() > start and _SEX_AFTER.match(text, end):
        return start, age.start()
    return start, end


def whole_word(text: str, span: Span) -> str:
    """The run of non-blank characters the span lies in ("f/u" around the "u" of it)."""
    start, end = span.start, span.end
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]
