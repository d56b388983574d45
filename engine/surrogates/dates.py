"""Date surrogates: a per-patient day shift applied in the original's own format.

The date is tokenised (numbers, words, separators), each token gets a role (day, month,
year, weekday, ordinal suffix), the value is shifted, and every token is written back in
its original style: same separators, field order, zero-padding, month-name case and
abbreviation. Anything that does not parse gets a shape-preserving fallback instead.
"""

from __future__ import annotations

import calendar
import random
import re
from dataclasses import dataclass
from datetime import date, timedelta

from engine.detectors.regex.fragments import HOLIDAY
from engine.surrogates.identifiers import shape_replace

_MONTHS = [m.lower() for m in calendar.month_name[1:]]
_MONTH_ABBR = [m.lower() for m in calendar.month_abbr[1:]]
_WEEKDAYS = [d.lower() for d in calendar.day_name]
_WEEKDAY_ABBR = [d.lower() for d in calendar.day_abbr]
_ORDINALS = ("st", "nd", "rd", "th")
_FILLERS = {"of", "the", "on", "in"}

_TOKEN = re.compile(r"(?P<num>\d+)(?P<ord>st|nd|rd|th)?|(?P<word>[A-Za-z]+)|"
                    r"(?P<other>.)", re.DOTALL | re.IGNORECASE)
_TIME = re.compile(r"^(?P<h>\d{1,2})(?P<sep>[:h.])(?P<m>\d{2})(?::(?P<s>\d{2}))?"
                   r"(?P<ampm>\s*[AaPp]\.?[Mm]\.?)?$")
_TRAILING_TIME = re.compile(r"(?:[T\s,]+|\s+at\s+)\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                            r"(?:\s*[AaPp]\.?[Mm]\.?)?(?:\s*(?:Z|[+-]\d{2}:?\d{2}|[A-Z]{2,4}))?$")

# Numeric dates: month first for North American locales, day first elsewhere.
_MONTH_FIRST_LOCALES = ("en_US", "en_CA", "en_PH", "fil_PH")


@dataclass
class _Tok:
    text: str
    kind: str  # num | word | other
    role: str = ""  # day | month | year | year2 | weekday | filler | sep
    suffix: str = ""  # ordinal suffix as written ("th", "ND")


def _tokenise(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        if m.group("num") is not None:
            toks.append(_Tok(m.group("num"), "num", suffix=m.group("ord") or ""))
        elif m.group("word") is not None:
            toks.append(_Tok(m.group("word"), "word"))
        else:
            toks.append(_Tok(m.group("other"), "other", role="sep"))
    return toks


def _month_of(word: str) -> int | None:
    w = word.lower()
    if w in _MONTHS:
        return _MONTHS.index(w) + 1
    if w in _MONTH_ABBR:
        return _MONTH_ABBR.index(w) + 1
    if w == "sept":
        return 9
    return None


def _weekday_of(word: str) -> bool:
    w = word.lower()
    return w in _WEEKDAYS or w in _WEEKDAY_ABBR or w in ("tues", "thur", "thurs", "weds")


@dataclass
class _Parsed:
    toks: list[_Tok]
    year: int | None
    month: int | None
    day: int | None


def _full_year(two: int) -> int:
    return 2000 + two if two < 50 else 1900 + two


def _assign_numeric(nums: list[_Tok], month_first: bool) -> bool:
    """Give roles to an all-numeric date. False: not a date we understand."""
    vals = [int(t.text) for t in nums]
    widths = [len(t.text) for t in nums]
    if len(nums) == 1:
        t = nums[0]
        if widths[0] == 4 and 1000 <= vals[0] <= 2999:
            t.role = "year"
            return True
        return False
    if len(nums) == 2:
        a, b = nums
        if widths[0] == 4:  # 2014-03
            a.role, b.role = "year", "month"
        elif widths[1] == 4 or (widths[1] == 2 and vals[1] > 31):  # 03/2014, 11/93
            a.role, b.role = "month", "year" if widths[1] == 4 else "year2"
        elif month_first or vals[1] > 12:
            a.role, b.role = "month", "day"
        else:
            a.role, b.role = "day", "month"
        return True
    if len(nums) == 3:
        a, b, c = nums
        if widths[0] == 4:
            a.role, b.role, c.role = "year", "month", "day"
        elif widths[2] in (2, 4):
            c.role = "year" if widths[2] == 4 else "year2"
            if vals[0] > 12 >= vals[1]:
                a.role, b.role = "day", "month"
            elif vals[1] > 12 >= vals[0] or month_first:
                a.role, b.role = "month", "day"
            else:
                a.role, b.role = "day", "month"
        else:
            return False
        return True
    return False


_COMPACT = re.compile(r"^(1[89]|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$")


def _parse(text: str, month_first: bool) -> _Parsed | None:
    if _COMPACT.match(text):  # 20140305
        toks = [_Tok(text[:4], "num"), _Tok(text[4:6], "num"), _Tok(text[6:], "num")]
    else:
        toks = _tokenise(text)
    nums = [t for t in toks if t.kind == "num"]
    words = [t for t in toks if t.kind == "word"]
    month_word = None
    for w in words:
        if _month_of(w.text) is not None and month_word is None:
            w.role = "month"
            month_word = w
        elif _weekday_of(w.text):
            w.role = "weekday"
        elif w.text.lower() in _FILLERS:
            w.role = "filler"
        else:
            return None
    if any(t.kind == "other" and not (t.text.isspace() or t.text in "/-.,'") for t in toks):
        return None
    if month_word is not None:
        for t in nums:
            v = int(t.text)
            if len(t.text) == 4:
                t.role = "year"
            elif t.suffix or (v <= 31 and not any(n.role == "day" for n in nums)
                              and not _is_apostrophe_year(toks, t)):
                t.role = "day"
            elif len(t.text) == 2:
                t.role = "year2"
            else:
                return None
    elif not _assign_numeric(nums, month_first):
        return None
    roles = [t.role for t in toks if t.kind == "num"] + ([month_word.role] if month_word else [])
    if len(roles) != len(set(roles)) or not roles:
        return None
    year = month = day = None
    for t in toks:
        if t.role == "year":
            year = int(t.text)
        elif t.role == "year2":
            year = _full_year(int(t.text))
        elif t.role == "day":
            day = int(t.text)
        elif t.role == "month":
            month = _month_of(t.text) if t.kind == "word" else int(t.text)
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None:
        if month is None:
            return None
        try:
            date(year if year is not None else 2000, month, day)
        except ValueError:
            return None
    if year is None and month is None:
        return None
    return _Parsed(toks, year, month, day)


def _is_apostrophe_year(toks: list[_Tok], t: _Tok) -> bool:
    i = toks.index(t)
    return i > 0 and toks[i - 1].text == "'"


def _add_months(year: int, month: int, delta: int) -> tuple[int, int]:
    total = year * 12 + (month - 1) + delta
    return total // 12, total % 12 + 1


def _month_delta(shift_days: int) -> int:
    """A day shift as a whole number of months, never 0 (so a month/year always changes)."""
    months = round(shift_days / 30.44)
    return months if months else (1 if shift_days > 0 else -1)


def _shift_full(d: date, shift: int, keep_year: bool) -> date:
    if not keep_year:
        return d + timedelta(days=shift)
    # Wrap within the year: a bijection on that year's days, so distinct dates stay distinct
    # and |shift| < 365 guarantees the date changes.
    start = date(d.year, 1, 1)
    length = (date(d.year + 1, 1, 1) - start).days
    return start + timedelta(days=((d - start).days + shift) % length)


def _case_like(new: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return new.upper()
    if like.islower():
        return new.lower()
    if like[:1].isupper():
        return new[:1].upper() + new[1:].lower()
    return new


def _month_word(month: int, like: str) -> str:
    low = like.lower()
    if low == "sept":
        name = "Sept" if month == 9 else calendar.month_abbr[month]
    elif low in _MONTHS:  # full name ("May" is both: read it as full)
        name = calendar.month_name[month]
    else:
        name = calendar.month_abbr[month]
    return _case_like(name, like)


def _weekday_word(d: date, like: str) -> str:
    low = like.lower()
    full = low in _WEEKDAYS
    name = calendar.day_name[d.weekday()] if full else calendar.day_abbr[d.weekday()]
    if not full and len(low) > 3:
        name = {"Tue": "Tues", "Thu": "Thurs", "Wed": "Weds"}.get(name, name)
    return _case_like(name, like)


def _ordinal(n: int, like: str) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return suffix.upper() if like.isupper() else suffix


def _num(value: int, like: str, padded: bool = True) -> str:
    return f"{value:0{len(like)}d}" if padded else str(value)


def _padded(toks: list[_Tok]) -> bool:
    """Zero-padding style of day/month numbers: "03/07/2014" pads, "3/7/2014" does not,
    the ambiguous "12/25/2014" keeps its width, and "Aug 26" (a written month) does not."""
    fields = [t.text for t in toks if t.kind == "num" and t.role in ("day", "month")]
    if any(f.startswith("0") for f in fields):
        return True
    if any(len(f) == 1 for f in fields):
        return False
    return not any(t.kind == "word" and t.role == "month" for t in toks)


def _render(p: _Parsed, year: int | None, month: int | None, day: int | None,
            weekday_date: date | None) -> str:
    padded = _padded(p.toks)
    out: list[str] = []
    for t in p.toks:
        if t.role == "year":
            out.append(_num(year or 0, t.text))
        elif t.role == "year2":
            out.append(f"{(year or 0) % 100:02d}")
        elif t.role == "day":
            out.append(_num(day or 0, t.text, padded) + (_ordinal(day or 0, t.suffix) if t.suffix
                                                  else ""))
        elif t.role == "month":
            out.append(_month_word(month or 1, t.text) if t.kind == "word"
                       else _num(month or 1, t.text, padded))
        elif t.role == "weekday":
            out.append(_weekday_word(weekday_date, t.text) if weekday_date else t.text)
        else:
            out.append(t.text)
    return "".join(out)


def _shift_parsed(p: _Parsed, shift: int, keep_years: bool) -> str:
    y, m, d = p.year, p.month, p.day
    if m is not None and d is not None:
        if y is None:
            # No year: shift inside a leap reference year and wrap, so Feb 29 works and the
            # month/day always changes.
            new = _shift_full(date(2000, m, d), shift, keep_year=True)
            return _render(p, None, new.month, new.day, None)
        new = _shift_full(date(y, m, d), shift, keep_years)
        return _render(p, new.year, new.month, new.day, new)
    delta = _month_delta(shift)
    if m is not None:
        if y is None or keep_years:
            new_m = (m - 1 + delta) % 12 + 1
            if new_m == m:
                new_m = m % 12 + 1
            return _render(p, y, new_m, None, None)
        ny, nm = _add_months(y, m, delta)
        return _render(p, ny, nm, None, None)
    # A bare year (only PHI when the policy does not keep years): at least one year off.
    assert y is not None
    years = round(shift / 365.25) or (1 if shift > 0 else -1)
    return _render(p, y + years, None, None, None)


def _time_surrogate(text: str, rng: random.Random) -> str | None:
    m = _TIME.match(text.strip())
    if not m:
        return None
    twelve = m.group("ampm") is not None
    h = rng.randint(1, 12) if twelve else rng.randint(0, 23)
    out = text.replace(m.group("h") + m.group("sep") + m.group("m"),
                       _num(h, m.group("h")) + m.group("sep") + f"{rng.randint(0, 59):02d}", 1)
    return out


# A holiday's day of the year (floating ones at a typical day): shifted like any date, so
# "Christmas Eve" and "12/26" of one patient keep their two days between them.
_HOLIDAY = re.compile(rf"(?i:{HOLIDAY})")
_HOLIDAY_DAYS = (("christmas eve", 12, 24), ("xmas eve", 12, 24), ("christmas", 12, 25),
                 ("xmas", 12, 25), ("new year's eve", 12, 31), ("new years eve", 12, 31),
                 ("new year", 1, 1), ("thanksgiving", 11, 25), ("easter", 4, 10),
                 ("good friday", 4, 8), ("labor day", 9, 3), ("labour day", 9, 3),
                 ("memorial day", 5, 28), ("independence day", 7, 4), ("fourth of july", 7, 4),
                 ("july 4th", 7, 4), ("halloween", 10, 31), ("valentine", 2, 14),
                 ("veteran", 11, 11), ("columbus day", 10, 10), ("president", 2, 18),
                 ("mlk day", 1, 18), ("mother", 5, 12), ("father", 6, 17), ("patrick", 3, 17),
                 ("canada day", 7, 1), ("boxing day", 12, 26))


def _holiday_surrogate(text: str, shift: int) -> str | None:
    """"Christmas Eve" -> "January 9": the holiday's day, shifted, written as a month and day."""
    if not _HOLIDAY.fullmatch(text):
        return None
    key = " ".join(text.casefold().replace("’", "'").split())
    month, day = next(((m, d) for name, m, d in _HOLIDAY_DAYS if name in key), (1, 1))
    new = _shift_full(date(2001, month, day), shift or 1, keep_year=True)
    return _case_like(f"{calendar.month_name[new.month]} {new.day}", text)


_ORDINAL_DAY = re.compile(r"(?i:(the[ \t]+)?(\d{1,2})(st|nd|rd|th))")
_SEASONS = ("winter", "spring", "summer", "fall")
_SEASON = re.compile(r"(?i:(.*?)\b(spring|summer|fall|autumn|winter)\b(.*))")


def _season_surrogate(text: str, shift: int, keep_years: bool) -> str | None:
    """"last spring" -> "last summer": the season moves with the shift (at least one), a year
    after it like any year."""
    m = _SEASON.fullmatch(text)
    if not m:
        return None
    index = _SEASONS.index("fall" if m.group(2).casefold() == "autumn" else m.group(2).casefold())
    steps = round(shift / 91) or (1 if shift >= 0 else -1)
    season = _case_like(_SEASONS[(index + steps) % 4], m.group(2))
    tail = m.group(3)
    year = re.search(r"(?:19|20)\d\d", tail)
    if year and not keep_years:
        moved = int(year.group()) + (index + steps) // 4
        tail = tail[:year.start()] + str(moved) + tail[year.end():]
    return m.group(1) + season + tail


def _ordinal_day_surrogate(text: str, shift: int) -> str | None:
    """"the 9th" -> "the 19th": a day of an unnamed month moves by the shift within 28 days."""
    m = _ORDINAL_DAY.fullmatch(text)
    if not m or not 1 <= int(m.group(2)) <= 31:
        return None
    day = (int(m.group(2)) - 1 + (shift % 28 or 1)) % 28 + 1
    return (m.group(1) or "") + str(day) + _ordinal(day, m.group(3))


def shift_date(text: str, shift: int, *, keep_years: bool, rng: random.Random,
               locale: str = "en_US") -> str:
    """The surrogate for a date (or date-time) string under a day shift.

    A trailing time of day is kept as written; unparseable text gets a consistent
    shape-preserving fallback (from ``rng``), never the original.
    """
    month_first = locale in _MONTH_FIRST_LOCALES
    core, tail = text, ""
    t = _TRAILING_TIME.search(text)
    if t and t.start() > 0:
        core, tail = text[:t.start()], text[t.start():]
    lead = len(core) - len(core.lstrip())
    trail = len(core.rstrip())
    stripped = core[lead:trail]
    in_words = _holiday_surrogate(stripped, shift) or _ordinal_day_surrogate(stripped, shift) \
        or _season_surrogate(stripped, shift, keep_years)
    if in_words is not None:
        return core[:lead] + in_words + core[trail:] + tail
    parsed = _parse(stripped, month_first) if stripped else None
    if parsed is not None:
        new = core[:lead] + _shift_parsed(parsed, shift, keep_years) + core[trail:] + tail
        if new != text:
            return new
    timed = _time_surrogate(text, rng)
    if timed is not None and timed != text:
        return timed
    for _ in range(20):
        fallback = shape_replace(text, rng)
        if fallback != text:
            return fallback
    return "".join("0" if c.isdigit() else c for c in text) if any(
        c.isdigit() for c in text) else "[DATE]"
