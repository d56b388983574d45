"""Find where a quoted string occurs in the text: every occurrence, whole words only.

Exact matching is tolerant to case and whitespace; when it finds nothing, a fuzzy pass
(rapidfuzz) over word windows absorbs OCR noise ("0lsen" for "Olsen"). A quote that aligns
nowhere is a hallucination: it is counted and never becomes a span.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

_WORD = re.compile(r"\S+")
_EDGE_PUNCT = ".,;:!?()[]{}\"'`“”‘’"


@dataclass(frozen=True, slots=True)
class Match:
    start: int
    end: int
    score: float  # 100 for exact (case/whitespace-insensitive) matches


def normalise(text: str) -> str:
    return " ".join(text.split()).casefold()


def _exact_pattern(quote: str) -> re.Pattern[str] | None:
    parts = quote.split()
    if not parts:
        return None
    body = r"\s+".join(re.escape(p) for p in parts)
    # Whole words: no word character may touch a quote that starts/ends with one.
    head = r"(?<!\w)" if parts[0][0].isalnum() else ""
    tail = r"(?!\w)" if parts[-1][-1].isalnum() else ""
    return re.compile(head + body + tail, re.IGNORECASE)


def _words(text: str) -> list[tuple[int, int]]:
    out = []
    for m in _WORD.finditer(text):
        start, end = m.start(), m.end()
        while start < end and text[start] in _EDGE_PUNCT:
            start += 1
        while end > start and text[end - 1] in _EDGE_PUNCT:
            end -= 1
        if start < end:
            out.append((start, end))
    return out


def align_quote(quote: str, text: str, *, min_score: float | None = None,
                min_fuzzy_chars: int = 5) -> list[Match]:
    """All non-overlapping occurrences of ``quote`` in ``text``, best first within a place."""
    quote = quote.strip().strip(_EDGE_PUNCT).strip()
    pattern = _exact_pattern(quote)
    if pattern is None:
        return []
    exact = [Match(m.start(), m.end(), 100.0) for m in pattern.finditer(text)]
    if exact or len(quote) < min_fuzzy_chars:
        return exact  # short quotes must match exactly: fuzzy "Al" would match anything
    target = normalise(quote)
    # One OCR slip in a short name costs 20 points; longer strings must be closer.
    threshold = min_score if min_score is not None else (80.0 if len(target) <= 8 else 88.0)
    return _fuzzy(target, text, threshold)


def _fuzzy(target: str, text: str, min_score: float) -> list[Match]:
    words = _words(text)
    n = len(target.split())
    candidates: list[Match] = []
    for size in {max(1, n - 1), n, n + 1}:
        for i in range(len(words) - size + 1):
            start, end = words[i][0], words[i + size - 1][1]
            score = fuzz.ratio(target, normalise(text[start:end]))
            if score >= min_score:
                candidates.append(Match(start, end, score))
    chosen: list[Match] = []
    for cand in sorted(candidates, key=lambda m: (-m.score, m.start, -(m.end - m.start))):
        if all(cand.end <= c.start or c.end <= cand.start for c in chosen):
            chosen.append(cand)
    return sorted(chosen, key=lambda m: m.start)
