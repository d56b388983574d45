"""Tokenisation and character-coverage helpers shared by the metrics.

Tokens are ``\\w+`` runs or single non-space punctuation characters, so scores do not depend
on any model's tokenizer and a span cut mid-word still touches the whole word's token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

TOKEN_RE = re.compile(r"\w+|[^\w\s]")


def tokenize(text: str) -> list[tuple[int, int]]:
    """Half-open ``(start, end)`` offsets of every token of ``text``."""
    return [m.span() for m in TOKEN_RE.finditer(text)]


def coverage(length: int, ranges: Iterable[tuple[int, int]]) -> bytearray:
    """A byte per character: 1 where any of ``ranges`` covers it (clipped to ``length``)."""
    cov = bytearray(length)
    for start, end in ranges:
        start, end = max(start, 0), min(end, length)
        if end > start:
            cov[start:end] = b"\x01" * (end - start)
    return cov


def touches(cov: bytearray, start: int, end: int) -> bool:
    """True if any character of ``[start, end)`` is covered."""
    return cov.find(1, start, end) != -1


def covers_content(cov: bytearray, text: str, start: int, end: int) -> bool:
    """True if every non-whitespace character of ``[start, end)`` is covered.

    Whitespace is exempt so "John Smith" predicted as "John" + "Smith" counts as covered.
    """
    pos = cov.find(0, start, end)
    while pos != -1:
        if not text[pos].isspace():
            return False
        pos = cov.find(0, pos + 1, end)
    return True
