"""View records: what the GUI shows about a document or a change, built in workers from
engine results. Frozen; they hold ids, counts and statuses, never a second copy of an
engine type."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine.api import BoxRedaction, DocumentRecord, DocumentStatus
from engine.core.domain import DeidentifiedText, Document, Span, SpanStatus

if TYPE_CHECKING:  # the tables stack is imported when a table is first opened
    from engine.api import TablePreview


class DisplayStatus:
    """The status words the document list shows (the engine's plus "needs review")."""

    IMPORTED = "imported"
    DETECTED = "detected"
    NEEDS_REVIEW = "needs review"
    REVIEWED = "reviewed"
    EXPORTED = "exported"
    FAILED = "failed"
    ALL = (IMPORTED, DETECTED, NEEDS_REVIEW, REVIEWED, EXPORTED, FAILED)


@dataclass(frozen=True, slots=True)
class DocumentEntry:
    record: DocumentRecord
    candidates: int = 0
    accepted: int = 0
    rejected: int = 0
    flags: int = 0  # CIRE flags, when known

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def name(self) -> str:
        return Path(self.record.source_path).name or self.record.id

    @property
    def display_status(self) -> str:
        st = self.record.status
        if st is DocumentStatus.DETECTED:
            return DisplayStatus.NEEDS_REVIEW if self.candidates else DisplayStatus.DETECTED
        return str(st.value)


def entry_for(record: DocumentRecord, spans: list[Span], flags: int = 0) -> DocumentEntry:
    counts = dict.fromkeys(SpanStatus, 0)
    for span in spans:
        counts[span.status] += 1
    return DocumentEntry(record, counts[SpanStatus.CANDIDATE], counts[SpanStatus.ACCEPTED],
                         counts[SpanStatus.REJECTED], flags)


@dataclass(frozen=True)
class LoadedDocument:
    """A document opened for review."""

    document: Document
    spans: tuple[Span, ...]
    status: DocumentStatus | None = None
    boxes: tuple[BoxRedaction, ...] = ()  # active box redactions drawn on its pages
    table: TableData | None = None  # a table document's first rows (it has no text)


@dataclass(frozen=True, slots=True)
class TableData:
    """A table document's first rows (of one sheet) with the roles its export uses, or
    why they cannot be shown (the source moved or changed since import), in words. A
    table detected for review also has its cells (shown row, column) -> (start, end) in
    its review text, and the spans inside them (offsets into that text)."""

    preview: TablePreview | None
    problem: str = ""
    document_id: str = ""
    cells: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    spans: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class DiffFlag:
    """A CIRE flag as the diff shows it (converted from the engine's flag type)."""

    span_id: str | None
    start: int  # output offsets in the de-identified text
    end: int
    severity: str  # "high" | "medium" | "low"
    reason: str  # in words: the term, its category, what it became
    source_start: int = -1  # offsets in the original text (-1: none)
    source_end: int = -1


@dataclass(frozen=True)
class DiffData:
    document: Document
    deid: DeidentifiedText
    flags: tuple[DiffFlag, ...] = ()
    retention: float | None = None  # per-document retention score in [0, 1]
    notes: tuple[str, ...] = field(default=())  # e.g. "CIRE not available"
