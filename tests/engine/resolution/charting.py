"""What the resolver keeps of charting text, for the golden-case tests: the pipeline's covered
characters (rules and dictionaries, no model), what the guards keep of a model's span and what
stays a live candidate once spans found apart are joined."""

from __future__ import annotations

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span, SpanStatus
from engine.core.labels import Label
from engine.detectors.dictionary.signout import SignoutNameDetector
from engine.pipeline import Pipeline
from engine.resolution.allowlist import ClinicalAllowlist
from engine.resolution.guards import guard
from engine.resolution.joins import joined


def covered(pipeline: Pipeline, text: str) -> set[int]:
    """Every character index some active span covers."""
    out: set[int] = set()
    for span in pipeline.run(Document.from_text(text)).active:
        out.update(range(span.start, span.end))
    return out


def model_span(text: str, piece: str, label: Label, start: int | None = None) -> Span:
    """A model's span over ``piece`` (its first place, or ``start``)."""
    start = text.index(piece) if start is None else start
    return Span(start, start + len(piece), label, source=Source.NER, detector="ner.test")


def kept_of_a_models_span(text: str, piece: str, label: Label,
                          start: int | None = None) -> list[str]:
    """What the guards keep of a model's span over ``piece`` (its first place, or ``start``)."""
    kept, _dropped = guard(Document.from_text(text), [model_span(text, piece, label, start)])
    return [text[s.start:s.end] for s in kept]


def joined_candidates(text: str, spans: list[Span]) -> list[Span]:
    """The spans still candidates after joins (the halves of a joined pair are superseded)."""
    return [s for s in joined(text, spans) if s.status is SpanStatus.CANDIDATE]


def recovered_by_the_allowlist(text: str, piece: str, label: Label) -> bool:
    """Does the shipped allowlist take a model's span over ``piece`` back?"""
    span = model_span(text, piece, label)
    _kept, dropped = ClinicalAllowlist.default().recover(Document.from_text(text), [span])
    return bool(dropped)


def assert_never_a_span(pipeline: Pipeline, text: str, piece: str) -> None:
    start = text.index(piece)
    assert not covered(pipeline, text) & set(range(start, start + len(piece))), piece


def assert_always_a_span(pipeline: Pipeline, text: str, piece: str) -> None:
    """Every non-space character of ``piece`` covered."""
    start = text.index(piece)
    found = covered(pipeline, text)
    assert all(i in found for i in range(start, start + len(piece)) if not text[i].isspace()), \
        piece


def signout_names(text: str) -> list[str]:
    """The patients the sign-out detector finds heading the items of ``text``."""
    found = SignoutNameDetector().detect(Document.from_text(text), RunContext())
    return [text[s.start:s.end] for s in found]
