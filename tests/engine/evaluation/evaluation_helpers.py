"""Builders for evaluation tests: spans are stated by their text, offsets found here."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.labels import Label, map_label
from engine.evaluation import GoldDocument, GoldSpan, PredictedSpan, Prediction


def find(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """Offsets of the ``nth`` occurrence of ``needle`` (tests state spans by their text)."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return start, start + len(needle)


def gold_doc(doc_id: str, text: str, spans: Sequence[tuple[str, str]]) -> GoldDocument:
    out = []
    for needle, raw in spans:
        s, e = find(text, needle)
        label = map_label(raw)
        assert label is not None
        out.append(GoldSpan(s, e, label, raw))
    return GoldDocument(doc_id, text, tuple(sorted(out, key=lambda g: (g.start, g.end))))


def pred(doc_id: str, text: str, spans: Sequence[tuple[str, Label]],
         output: str | None = None) -> Prediction:
    return Prediction(doc_id, tuple(PredictedSpan(*find(text, n), lab) for n, lab in spans),
                      output)

