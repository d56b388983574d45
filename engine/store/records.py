"""Frozen records returned to callers (the GUI never sees ORM rows)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from engine.core.errors import shown


class DocumentStatus(StrEnum):
    IMPORTED = "imported"
    DETECTED = "detected"
    REVIEWED = "reviewed"
    EXPORTED = "exported"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class BoxRedaction:
    """A rectangle drawn on a page to redact, in the upright page's view space (origin
    top-left, y down, page units: ``engine.api.PageBox``'s space)."""

    id: str
    document_id: str
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    active: bool = True


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    id: str
    source_path: str
    sha256: str
    media_type: str
    page_count: int
    char_count: int
    status: DocumentStatus
    reason: str | None  # why it failed; names the problem, never PHI
    patient_id: str | None
    patient_confirmed: bool
    imported_at: float
    updated_at: float
    needs_review: bool = False  # uncertain text decoding: a person should check the text


@dataclass(frozen=True, slots=True)
class PatientRecord:
    id: str
    name: str
    document_ids: tuple[str, ...]
    confirmed: bool  # every document's link was confirmed by a person


@dataclass(frozen=True, slots=True)
class PatientSuggestion:
    """Documents that share an identifier (by kind) but are not yet in one patient."""

    document_ids: tuple[str, ...]
    kinds: tuple[str, ...]  # MRN, PHN, HCN, ULI, NAME_DOB


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    at: float
    who: str
    action: str
    document_id: str | None
    span_id: str | None
    label: str | None
    start: int | None
    end: int | None
    count: int | None
    detail: str  # JSON of statuses, setting keys, formats: no PHI


@dataclass(frozen=True, slots=True)
class ImportFailure:
    path: Path
    reason: str


@dataclass(frozen=True)
class ImportReport:
    imported: tuple[str, ...] = ()  # document ids
    duplicates: tuple[str, ...] = ()  # ids of documents already in the project
    failed: tuple[ImportFailure, ...] = ()
    cancelled: bool = False
    needs_review: tuple[str, ...] = ()  # imported, with uncertain text decoding
    not_reached: int = 0  # files found but left when the import was cancelled

    @classmethod
    def merged(cls, parts: Iterable[ImportReport]) -> ImportReport:
        """One report for several (an import's batches), in order."""
        reps = list(parts)
        return cls(tuple(i for r in reps for i in r.imported),
                   tuple(i for r in reps for i in r.duplicates),
                   tuple(f for r in reps for f in r.failed), any(r.cancelled for r in reps),
                   tuple(i for r in reps for i in r.needs_review),
                   sum(r.not_reached for r in reps))

    def summary(self) -> str:
        review = f", needs review {len(self.needs_review)}" if self.needs_review else ""
        return (f"imported {len(self.imported)}, already present {len(self.duplicates)}, "
                f"failed {len(self.failed)}{review}"
                + (" (cancelled)" if self.cancelled else ""))


@dataclass(frozen=True)
class DetectReport:
    detected: tuple[str, ...] = ()
    failed: tuple[tuple[str, str], ...] = ()  # (document id, reason)
    spans: int = 0
    cancelled: bool = False
    skipped: tuple[str, ...] = ()  # another process detected them meanwhile

    def summary(self) -> str:
        return (f"detected {len(self.detected)} document(s), {self.spans} span(s), failed "
                f"{len(self.failed)}"
                + (f", {len(self.skipped)} already done by another process"
                   if self.skipped else "") + (" (cancelled)" if self.cancelled else ""))


@dataclass(frozen=True)
class ExportedDocument:
    document_id: str
    files: tuple[Path, ...]
    cire_high: int = 0  # high-severity CIRE guard flags of this export


@dataclass(frozen=True)
class ExportReport:
    out_dir: Path
    exported: tuple[ExportedDocument, ...] = ()
    failed: tuple[tuple[str, str], ...] = ()  # (document id, reason)
    report_csv: Path | None = None  # report.csv in out_dir: ids and outcomes, no source
    cancelled: bool = False
    cire_high: int = 0  # high-severity CIRE flags over the exported documents
    key_location: Path | None = None  # where the re-identification key is (the project)

    def summary(self) -> str:
        return (f"exported {len(self.exported)} document(s) to {self.out_dir}, failed "
                f"{len(self.failed)}, CIRE high flags {self.cire_high}"
                + (" (cancelled)" if self.cancelled else ""))

    def key_notice(self) -> str:
        where = f"the project {self.key_location}" if self.key_location else "the project"
        return (f"re-identification key (document id -> source file, patient): kept in "
                f"{where}, not in the export folder; it must not be shared")


@dataclass(frozen=True)
class Statistics:
    documents: int
    by_status: dict[str, int] = field(default_factory=dict)
    spans_by_status: dict[str, int] = field(default_factory=dict)
    spans_by_label: dict[str, int] = field(default_factory=dict)  # active spans only
    patients: int = 0
    surrogates: int = 0
    exports: int = 0
    characters: int = 0


@dataclass(frozen=True)
class ReviewImportReport:
    documents: int = 0
    accepted: int = 0
    rejected: int = 0
    added: int = 0
    unknown_documents: tuple[str, ...] = ()
    unlisted_spans: int = 0  # active spans the files did not list, in
    unlisted_documents: int = 0  # ... this many documents
    unlisted_rejected: bool = False  # True: they were rejected (--unlisted reject)

    def summary(self) -> str:
        """One paragraph for a terminal; ids from the files are escaped."""
        text = (f"applied decisions to {self.documents} document(s): accepted "
                f"{self.accepted}, rejected {self.rejected}, added {self.added}")
        if self.unlisted_spans:
            verb = "were REJECTED (--unlisted reject)" if self.unlisted_rejected else \
                "keep their state (use --unlisted reject to reject them)"
            text += (f"\n{self.unlisted_spans} active span(s) in {self.unlisted_documents} "
                     f"document(s) were not listed and {verb}")
        if self.unknown_documents:
            names = ", ".join(shown(d, 40) for d in self.unknown_documents[:10])
            more = len(self.unknown_documents) - 10
            text += f"\nunknown ids: {names}" + (f" and {more} more" if more > 0 else "")
        return text
