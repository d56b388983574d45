"""Row ↔ domain conversions and the queries the Project service needs.

Every function takes an open SQLAlchemy ``Session`` (a unit of work from ``Database``), so
callers decide the transaction boundaries.
"""

from __future__ import annotations

import functools
import getpass
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from engine.core.domain import Document, Source, Span, SpanStatus
from engine.core.labels import Label
from engine.store import geometry
from engine.store.models import (
    AuditRow,
    ContentRow,
    DocumentRow,
    SettingRow,
    SpanRow,
    table_of,
)
from engine.store.records import AuditEntry, DocumentRecord, DocumentStatus


def insert_rows(s: Session, table: Table, rows: Sequence[Mapping[str, Any]], *,
                or_ignore: bool = False) -> int:
    """INSERT ``rows`` (dicts with the same keys) in the session's transaction; returns how
    many were inserted. The SQL is compiled by SQLAlchemy from the model, once per table
    and column set, and run on the connection's DBAPI cursor: SQLAlchemy's own work per
    statement (about 0.1 ms) was most of a batch's store cost (benchmarks/batch.py).
    Errors name the constraint, never the values."""
    if not rows:
        return 0
    sql, columns = _insert_sql(table, tuple(rows[0]), or_ignore)
    cursor = _dbapi_cursor(s)
    try:
        cursor.executemany(sql, [tuple(row[c] for c in columns) for row in rows])
        return cursor.rowcount
    finally:
        cursor.close()


def insert_row(s: Session, table: Table, row: Mapping[str, Any]) -> int:
    """``insert_rows`` for one row; returns its row id (autoincrement key)."""
    sql, columns = _insert_sql(table, tuple(row), False)
    cursor = _dbapi_cursor(s)
    try:
        cursor.execute(sql, tuple(row[c] for c in columns))
        return int(cursor.lastrowid or 0)
    finally:
        cursor.close()


def _dbapi_cursor(s: Session) -> Any:
    """A cursor of the driver's own connection (sqlite3 or sqlcipher3), in the session's
    transaction."""
    driver = s.connection().connection.driver_connection
    if driver is None:  # the pool detached it: nothing to run the insert on
        raise RuntimeError("the project database connection is closed")
    return driver.cursor()


@functools.lru_cache(maxsize=64)
def _insert_sql(table: Table, keys: tuple[str, ...], or_ignore: bool
                ) -> tuple[str, tuple[str, ...]]:
    stmt = sqlite_insert(table).values({k: bindparam(k) for k in keys})
    if or_ignore:
        stmt = stmt.on_conflict_do_nothing()
    compiled = stmt.compile(dialect=sqlite_dialect())
    return str(compiled), tuple(compiled.positiontup or ())


def _who() -> str:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name (containers): still audit
        return "unknown"


WHO = _who()

# ----------------------------------------------------------------------------- settings


def get_settings(s: Session) -> dict[str, Any]:
    return {row.key: json.loads(row.value) for row in s.scalars(select(SettingRow))}


def put_setting(s: Session, key: str, value: Any) -> None:
    s.merge(SettingRow(key=key, value=json.dumps(value, sort_keys=True)))


# ----------------------------------------------------------------------------- documents


def document_record(row: DocumentRow) -> DocumentRecord:
    return DocumentRecord(
        id=row.id, source_path=row.source_path, sha256=row.sha256, media_type=row.media_type,
        page_count=row.page_count, char_count=row.char_count,
        status=DocumentStatus(row.status), reason=row.reason, patient_id=row.patient_id,
        patient_confirmed=row.patient_confirmed, imported_at=row.imported_at,
        updated_at=row.updated_at, needs_review=bool(row.needs_review))


def add_document(s: Session, doc: Document, *, file_sha256: str, source_path: str,
                 status: DocumentStatus = DocumentStatus.IMPORTED,
                 patient_id: str | None = None) -> None:
    """The document row and its content. Core inserts: a batch stores thousands of these,
    and the ORM unit of work costs several times the SQL itself (see ``insert_rows``)."""
    now = time.time()
    insert_rows(s, table_of(DocumentRow), [dict(
        id=doc.id, source_path=source_path, sha256=file_sha256, media_type=doc.media_type,
        page_count=len(doc.pages) or 1, char_count=len(doc.text), status=status.value,
        reason=None, patient_id=patient_id, patient_confirmed=False,
        needs_review=doc.needs_review, imported_at=now, updated_at=now)])
    insert_rows(s, table_of(ContentRow), [dict(
        document_id=doc.id, text=doc.text, pages=geometry.encode_pages(doc.pages),
        boxes=geometry.encode_boxes(doc.boxes),
        confidences=geometry.encode_confidences(doc.confidences),
        warnings=json.dumps(list(doc.warnings)))])


def add_failed_document(s: Session, *, document_id: str, file_sha256: str, source_path: str,
                        media_type: str, reason: str) -> None:
    now = time.time()
    insert_rows(s, table_of(DocumentRow), [dict(
        id=document_id, source_path=source_path, sha256=file_sha256, media_type=media_type,
        page_count=0, char_count=0, status=DocumentStatus.FAILED.value, reason=reason,
        patient_id=None, patient_confirmed=False, needs_review=False, imported_at=now,
        updated_at=now)])


def load_document(s: Session, document_id: str) -> Document | None:
    row = s.get(DocumentRow, document_id)
    content = s.get(ContentRow, document_id)
    if row is None or content is None:
        return None
    return Document(
        text=content.text, id=row.id, source_path=row.source_path, media_type=row.media_type,
        sha256=row.sha256, pages=geometry.decode_pages(content.pages),
        boxes=geometry.decode_boxes(content.boxes),
        confidences=geometry.decode_confidences(content.confidences),
        warnings=tuple(json.loads(content.warnings)), needs_review=bool(row.needs_review))


def set_document_status(s: Session, document_id: str, status: DocumentStatus,
                        reason: str | None = None) -> None:
    row = s.get(DocumentRow, document_id)
    if row is None:
        return
    row.status = status.value
    row.reason = reason
    row.updated_at = time.time()


def document_status(s: Session, document_id: str) -> DocumentStatus | None:
    """The stored status, read with a Core query (fresh inside a write transaction)."""
    value = s.execute(select(DocumentRow.status).where(DocumentRow.id == document_id)
                      ).scalar()
    return DocumentStatus(value) if value is not None else None


def update_document_status(s: Session, document_id: str, status: DocumentStatus,
                           reason: str | None = None) -> None:
    """``set_document_status`` as one Core UPDATE, for callers that hold no ORM row of the
    document in this session (an ORM row loaded earlier would keep the old status)."""
    s.execute(_UPDATE_STATUS, {"doc_id": document_id, "new_status": status.value,
                               "new_reason": reason, "now": time.time()})


# Built once, on the Core table: an ORM-enabled UPDATE costs several times more.
_UPDATE_STATUS = (update(table_of(DocumentRow))
                  .where(table_of(DocumentRow).c.id == bindparam("doc_id"))
                  .values(status=bindparam("new_status"), reason=bindparam("new_reason"),
                          updated_at=bindparam("now")))


# ----------------------------------------------------------------------------- spans


def span_values(span: Span, document_id: str, run_id: int | None) -> dict[str, Any]:
    values = span.to_dict()
    values.update(document_id=document_id, run_id=run_id,
                  evidence=json.dumps(values["evidence"]), updated_at=time.time())
    return values


def to_span(row: Any) -> Span:
    """A span from an ORM row or a Core row of the spans table."""
    return Span(start=row.start, end=row.end, label=Label(row.label),
                source=Source(row.source), detector=row.detector, confidence=row.confidence,
                status=SpanStatus(row.status), subtype=row.subtype,
                evidence=tuple(json.loads(row.evidence)), id=row.id)


def spans_of(s: Session, document_id: str) -> list[Span]:
    table = table_of(SpanRow)  # Core rows: no ORM identity map to build for a read
    rows = s.execute(select(table).where(table.c.document_id == document_id)
                     .order_by(table.c.start, table.c.end, table.c.id))
    return [to_span(r) for r in rows]


def count_by(s: Session, column: Any, *where: Any) -> dict[str, int]:
    stmt = select(column, func.count()).group_by(column)
    for clause in where:
        stmt = stmt.where(clause)
    return {str(k): int(n) for k, n in s.execute(stmt)}


# ----------------------------------------------------------------------------- audit


def audit(s: Session, action: str, *, document_id: str | None = None,
          span_id: str | None = None, label: str | None = None, start: int | None = None,
          end: int | None = None, count: int | None = None, **detail: Any) -> None:
    """Append one entry. Callers pass ids, labels, offsets, counts, statuses and setting
    keys only; values that could be PHI (text, file names, dictionary entries) never."""
    insert_rows(s, table_of(AuditRow), [dict(
        at=time.time(), who=WHO, action=action, document_id=document_id, span_id=span_id,
        label=label, start=start, end=end, count=count,
        detail=json.dumps(detail, sort_keys=True))])


def audit_entries(s: Session, *, document_id: str | None = None,
                  actions: Sequence[str] | None = None) -> list[AuditEntry]:
    stmt = select(AuditRow).order_by(AuditRow.id)
    if document_id is not None:
        stmt = stmt.where(AuditRow.document_id == document_id)
    if actions:
        stmt = stmt.where(AuditRow.action.in_(list(actions)))
    return [AuditEntry(r.id, r.at, r.who, r.action, r.document_id, r.span_id, r.label,
                       r.start, r.end, r.count, r.detail) for r in s.scalars(stmt)]


def document_rows(s: Session, ids: Iterable[str] | None = None,
                  statuses: Iterable[DocumentStatus] | None = None) -> list[DocumentRow]:
    stmt = select(DocumentRow).order_by(DocumentRow.imported_at, DocumentRow.id)
    if ids is not None:
        stmt = stmt.where(DocumentRow.id.in_(list(ids)))
    if statuses is not None:
        stmt = stmt.where(DocumentRow.status.in_([st.value for st in statuses]))
    return list(s.scalars(stmt))
