"""Ages: over the policy's threshold they become "90+"; otherwise a nearby age."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

_NUMBER = re.compile(r"\d{1,3}")
_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
          "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
          "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_WORD_AGE = re.compile(r"\b(?:(?P<hundred>one\s+hundred)(?:\s+(?:and\s+)?)?)?"
                       r"(?P<tens>twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)?"
                       r"(?:[\s-]?(?P<unit>one|two|three|four|five|six|seven|eight|nine))?\b",
                       re.IGNORECASE)


def age_number(text: str) -> tuple[int, int, int] | None:
    """(value, start, end) of the age in ``text``, digits or English words."""
    m = _NUMBER.search(text)
    if m:
        return int(m.group()), m.start(), m.end()
    for m in _WORD_AGE.finditer(text):
        if not m.group():
            continue
        value = (100 if m.group("hundred") else 0) + _TENS.get(
            (m.group("tens") or "").lower(), 0) + _UNITS.get((m.group("unit") or "").lower(), 0)
        return value, m.start(), m.end()
    for word, value in _UNITS.items():
        w = re.search(rf"\b{word}\b", text, re.IGNORECASE)
        if w:
            return value, w.start(), w.end()
    return None


def age_surrogate(text: str, *, age_over: int | None, rng: random.Random,
                  ok: Callable[[str], bool] = lambda _: True) -> str:
    """"92-year-old" -> "90+ year old" above ``age_over``; otherwise a nearby age (the
    first of a keyed shuffle of ±1..3, then ±4..8, that ``ok`` accepts)."""
    found = age_number(text)
    if found is None:
        return "[AGE]"  # nothing to keep the shape of
    value, start, end = found
    rest = text[end:]
    if age_over is not None and value > age_over:
        # "92-year-old" reads better as "90+ year old" than "90+-year-old".
        if re.match(r"-[A-Za-z]", rest):
            rest = re.sub(r"-(?=[A-Za-z/])", " ", rest)
        return text[:start] + f"{age_over + 1}+" + rest
    near, farther = [-3, -2, -1, 1, 2, 3], [-8, -7, -6, -5, -4, 4, 5, 6, 7, 8]
    rng.shuffle(near)
    rng.shuffle(farther)
    deltas = near + farther  # farther only when every near age is taken in this document
    candidates = [value + d for d in deltas if value + d >= 0
                  and (age_over is None or value + d <= age_over)]  # stay non-PHI
    for new in candidates:
        out = text[:start] + str(new) + rest
        if ok(out):
            return out
    return text[:start] + str(candidates[0] if candidates else value + 1) + rest
