"""Reads of a project: documents, their text and spans, the audit log, statistics. Each
returns frozen records or domain types, never ORM rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import func, select

from engine.core.domain import ACTIVE_STATUSES, Document, Span, SpanStatus
from engine.core.errors import UsageError
from engine.resolution.overlaps import resolve_overlaps
from engine.store import patients as pat
from engine.store import repositories as repo
from engine.store.db import Database
from engine.store.models import (
    ContentRow,
    DocumentRow,
    ExportRow,
    PatientRow,
    SpanRow,
    SurrogateRow,
)
from engine.store.records import AuditEntry, DocumentRecord, DocumentStatus, Statistics


def documents(db: Database, *, status: DocumentStatus | Iterable[DocumentStatus] | None = None,
              patient_id: str | None = None, ids: Iterable[str] | None = None
              ) -> list[DocumentRecord]:
    statuses = [status] if isinstance(status, DocumentStatus) else status
    with db.read() as s:
        rows = repo.document_rows(s, ids=ids, statuses=statuses)
        records = [repo.document_record(r) for r in rows]
    if patient_id is not None:
        records = [r for r in records if r.patient_id == patient_id]
    return records


def document(db: Database, document_id: str) -> DocumentRecord:
    with db.read() as s:
        row = s.get(DocumentRow, document_id)
        if row is None:
            raise UsageError(f"unknown document id {document_id}")
        return repo.document_record(row)


def load_document(db: Database, document_id: str) -> Document:
    with db.read() as s:
        doc = repo.load_document(s, document_id)
    if doc is None:
        raise UsageError(f"document {document_id} has no extracted text")
    return doc


def document_text(db: Database, document_id: str) -> str:
    return load_document(db, document_id).text


def spans(db: Database, document_id: str, *, statuses: Iterable[SpanStatus] | None = None
          ) -> list[Span]:
    with db.read() as s:
        spans = repo.spans_of(s, document_id)
    if statuses is not None:
        wanted = set(statuses)
        spans = [sp for sp in spans if sp.status in wanted]
    return spans


def span(db: Database, span_id: str) -> tuple[str, Span]:
    """(document id, span)."""
    with db.read() as s:
        row = s.get(SpanRow, span_id)
        if row is None:
            raise UsageError(f"unknown span id {span_id}")
        return row.document_id, repo.to_span(row)


def audit_log(db: Database, *, document_id: str | None = None,
              actions: Sequence[str] | None = None) -> list[AuditEntry]:
    with db.read() as s:
        return repo.audit_entries(s, document_id=document_id, actions=actions)


def has_content(db: Database, document_id: str) -> bool:
    with db.read() as s:
        return s.get(ContentRow, document_id) is not None


def patient_key(db: Database, document_id: str) -> str:
    """The surrogate and date-shift scope of a document: its patient, or one shared
    project-wide scope for documents without a patient."""
    with db.read() as s:
        row = s.get(DocumentRow, document_id)
        return (row.patient_id if row is not None and row.patient_id
                else pat.DEFAULT_PATIENT)


def statistics(db: Database) -> Statistics:
    with db.read() as s:
        by_status = repo.count_by(s, DocumentRow.status)
        spans_by_status = repo.count_by(s, SpanRow.status)
        spans_by_label = repo.count_by(s, SpanRow.label, SpanRow.status.in_(
            [st.value for st in ACTIVE_STATUSES]))

        def n(model: Any) -> int:
            return int(s.scalar(select(func.count()).select_from(model)) or 0)

        chars = int(s.scalar(select(func.coalesce(func.sum(DocumentRow.char_count), 0)))
                    or 0)
        return Statistics(documents=sum(by_status.values()), by_status=by_status,
                          spans_by_status=spans_by_status, spans_by_label=spans_by_label,
                          patients=n(PatientRow), surrogates=n(SurrogateRow),
                          exports=n(ExportRow), characters=chars)


def replaceable(spans: Iterable[Span]) -> tuple[Span, ...]:
    """The live spans, disjoint, for replacement. Review keeps them so (a span a person
    adds supersedes what it overlaps), but a superseded span accepted again by hand, or a
    project from before that rule, can hold overlapping live spans: a reviewer's accepted
    span wins, then the longer one, as detection's own overlap policy decides."""
    live = sorted((sp for sp in spans if sp.status in ACTIVE_STATUSES),
                  key=lambda sp: (sp.start, sp.end))
    if all(b.start >= a.end for a, b in zip(live, live[1:], strict=False)):
        return tuple(live)
    return tuple(sp for sp in resolve_overlaps(live) if sp.status in ACTIVE_STATUSES)
