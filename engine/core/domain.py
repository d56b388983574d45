"""Frozen domain types. Offsets are half-open character ranges into ``Document.text``.

A ``Span`` never stores the text it covers, so spans can be logged, persisted and shown in
tables without copying PHI; read the text with ``Document.slice(span)``.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field, replace
from enum import StrEnum

from engine.core.labels import Label, check_subtype


class Source(StrEnum):
    RULE = "RULE"
    DICTIONARY = "DICTIONARY"
    NER = "NER"
    LLM = "LLM"
    MANUAL = "MANUAL"
    GOLD = "GOLD"


class SpanStatus(StrEnum):
    CANDIDATE = "CANDIDATE"
    ACCEPTED = "ACCEPTED"
    REJECTED = "REJECTED"
    SUPERSEDED = "SUPERSEDED"  # lost an overlap; kept for review and audit


# Spans that will be replaced unless a reviewer rejects them.
ACTIVE_STATUSES: tuple[SpanStatus, ...] = (SpanStatus.CANDIDATE, SpanStatus.ACCEPTED)


class SurrogateMode(StrEnum):
    SURROGATE = "surrogate"
    TAG = "tag"
    REDACT = "redact"


def new_id() -> str:
    return uuid.uuid4().hex[:16]


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    label: Label
    source: Source = Source.RULE
    detector: str = ""  # "id@version" of the detector that proposed it
    confidence: float = 1.0
    status: SpanStatus = SpanStatus.CANDIDATE
    subtype: str | None = None
    # Other detectors ("id@version") that proposed the same range and label.
    evidence: tuple[str, ...] = ()
    id: str = field(default_factory=new_id)

    def __post_init__(self) -> None:
        if not (0 <= self.start < self.end):
            raise ValueError(f"invalid span range [{self.start}, {self.end})")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence {self.confidence} outside [0, 1]")
        check_subtype(self.label, self.subtype)

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def detectors(self) -> tuple[str, ...]:
        """Every detector that proposed this span, the primary one first."""
        return (self.detector, *self.evidence) if self.detector else self.evidence

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def with_status(self, status: SpanStatus) -> Span:
        return replace(self, status=status)

    def moved(self, start: int, end: int) -> Span:
        return replace(self, start=start, end=end)

    def to_dict(self) -> dict[str, object]:
        """The one JSON form of a span (sidecars, review files, store rows, CLI output
        pick their fields from it). No covered text, as ever."""
        return {"id": self.id, "start": self.start, "end": self.end,
                "label": self.label.value, "subtype": self.subtype,
                "source": self.source.value, "detector": self.detector,
                "evidence": list(self.evidence), "confidence": self.confidence,
                "status": self.status.value}


@dataclass(frozen=True, slots=True)
class Page:
    number: int  # 1-based
    start: int  # character range of the page in Document.text
    end: int
    width: float  # PDF points (1/72 inch) or pixels for images
    height: float
    ocr: bool = False  # text came from OCR rather than a text layer


@dataclass(frozen=True, slots=True)
class CharBox:
    page: int  # 1-based page number
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, slots=True)
class Document:
    text: str
    id: str = field(default_factory=new_id)
    source_path: str | None = None
    media_type: str = "text/plain"
    sha256: str = ""
    pages: tuple[Page, ...] = ()
    # One entry per character of ``text`` (None for synthetic separators), or empty.
    boxes: tuple[CharBox | None, ...] = ()
    # OCR word confidences as (start, end, confidence in [0, 1]).
    confidences: tuple[tuple[int, int, float], ...] = ()
    warnings: tuple[str, ...] = ()  # legitimate degradations shown to the user
    # Ingest is not sure the text is right (a guessed encoding, replaced bytes): front ends
    # show the warnings and the output should not be trusted before a person looks.
    needs_review: bool = False

    def __post_init__(self) -> None:
        if self.boxes and len(self.boxes) != len(self.text):
            raise ValueError("char->box map must have one entry per character")
        if not self.sha256:
            object.__setattr__(self, "sha256", sha256_text(self.text))

    @classmethod
    def from_text(cls, text: str, *, id: str | None = None, source_path: str | None = None,
                  ) -> Document:
        return cls(text=text, id=id or new_id(), source_path=source_path)

    def slice(self, span: Span | tuple[int, int]) -> str:
        start, end = (span.start, span.end) if isinstance(span, Span) else span
        return self.text[start:end]


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Replacement:
    """Where one span landed in the de-identified output."""

    span_id: str
    start: int  # input offsets
    end: int
    label: Label
    output_start: int
    output_end: int
    subtype: str | None = None


@dataclass(frozen=True, slots=True)
class DeidentifiedText:
    document_id: str
    text: str
    replacements: tuple[Replacement, ...]
    mode: SurrogateMode


@dataclass(frozen=True, slots=True)
class DetectionResult:
    """Everything the pipeline concluded about one document."""

    document_id: str
    spans: tuple[Span, ...]  # every span, losers (SUPERSEDED) included
    detectors: tuple[str, ...]  # "id@version" of each detector that ran
    policy: str
    allowlisted: int = 0  # candidates dropped by the clinical allowlist

    @property
    def active(self) -> tuple[Span, ...]:
        """Spans that will be replaced unless a reviewer rejects them."""
        return tuple(s for s in self.spans if s.status in ACTIVE_STATUSES)
