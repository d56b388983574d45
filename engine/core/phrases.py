"""How an original string is searched for in output text: word-bounded, case- and
whitespace-insensitive. The exporters' leak check and the surrogate generator's guard use
this one definition, so a surrogate the guard accepts is one the exporters accept."""

from __future__ import annotations

import re

MIN_PHRASE_LEN = 2  # single characters (initials) cannot be checked meaningfully


def normalise(text: str) -> str:
    """Whitespace-collapsed, case-folded; soft hyphens dropped."""
    return " ".join(text.replace("\u00ad", "").split()).casefold()


def phrase_pattern(value: str) -> re.Pattern[str]:
    """A pattern for a ``normalise``d value; word boundaries where it starts/ends with a
    word character, so "ann" does not match inside "annual"."""
    body = re.escape(value).replace(r"\ ", r"\s*")
    left = r"(?<!\w)" if value[0].isalnum() else ""
    right = r"(?!\w)" if value[-1].isalnum() else ""
    return re.compile(left + body + right)
