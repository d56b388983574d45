"""Before an export: what is still open in the documents about to go out.

A document is open when it has undecided candidates (an export replaces them, decided or
not) or HIGH CIRE flags (clinical content the replacement may have changed). The front end
shows the counts per document and offers: export the settled documents only, export anyway
(``record_export_anyway`` puts the choice and the counts in the audit log), or cancel.
CIRE is run now on every document that has none stored, so a document nobody opened in the
diff is checked too (ids, reasons and offsets only are stored, as ``retention`` does)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from engine.core.domain import SpanStatus
from engine.project import queries
from engine.project.retention import retention
from engine.project.state import ProjectState
from engine.project.tables import is_table_media
from engine.store import repositories as repo
from engine.store.db import Database
from engine.store.models import CireFlagRow, SpanRow
from engine.store.records import DocumentStatus


@dataclass(frozen=True, slots=True)
class OpenWork:
    document_id: str
    undecided: int  # candidate spans nobody accepted or rejected
    cire_high: int  # HIGH CIRE flags of the document as it would be exported now


@dataclass(frozen=True, slots=True)
class ExportPlan:
    document_ids: tuple[str, ...]  # what the export would write, in order
    open: tuple[OpenWork, ...]  # those of them with something still open

    @property
    def settled(self) -> tuple[str, ...]:
        """The documents with nothing open: "export the reviewed ones only"."""
        busy = {w.document_id for w in self.open}
        return tuple(d for d in self.document_ids if d not in busy)


def undecided_counts(db: Database, document_ids: Sequence[str] | None = None
                     ) -> dict[str, int]:
    """Candidate spans per document (documents without any left out)."""
    stmt = (select(SpanRow.document_id, func.count())
            .where(SpanRow.status == SpanStatus.CANDIDATE.value)
            .group_by(SpanRow.document_id))
    if document_ids is not None:
        stmt = stmt.where(SpanRow.document_id.in_(list(document_ids)))
    with db.read() as s:
        return {doc_id: int(n) for doc_id, n in s.execute(stmt)}


def _assessed(db: Database, document_ids: Sequence[str]) -> set[str]:
    with db.read() as s:
        return set(s.scalars(select(CireFlagRow.document_id).distinct()
                             .where(CireFlagRow.document_id.in_(list(document_ids)))))


def export_plan(state: ProjectState, document_ids: Sequence[str] | None = None
                ) -> ExportPlan:
    """The documents an export of ``document_ids`` (None: every reviewed or exported one,
    as ``export`` picks them) would write, and which of them are still open."""
    if document_ids is None:
        document_ids = [d.id for d in queries.documents(
            state.db, status=[DocumentStatus.REVIEWED, DocumentStatus.EXPORTED])]
    ids = tuple(document_ids)
    undecided = undecided_counts(state.db, ids)
    assessed = _assessed(state.db, ids)
    high: dict[str, int] = {}
    tables = {d.id for d in queries.documents(state.db, ids=ids)
              if is_table_media(d.media_type)}
    for doc_id in ids:
        if doc_id in assessed or doc_id in tables:
            continue  # flags stored by the last CIRE run; a table's cells have no CIRE
        report = retention(state, doc_id)
        high[doc_id] = sum(1 for f in report.flags if f.severity.value.lower() == "high")
    with state.db.read() as s:
        for doc_id, n in s.execute(
                select(CireFlagRow.document_id, func.count())
                .where(CireFlagRow.document_id.in_([d for d in ids if d in assessed]),
                       func.lower(CireFlagRow.severity) == "high")
                .group_by(CireFlagRow.document_id)):
            high[doc_id] = int(n)
    open_work = tuple(OpenWork(d, undecided.get(d, 0), high.get(d, 0)) for d in ids
                      if undecided.get(d, 0) or high.get(d, 0))
    return ExportPlan(ids, open_work)


def record_export_anyway(db: Database, open_work: Sequence[OpenWork], *,
                         via: str | None = None) -> None:
    """The reviewer chose to export documents that are still open: one audit entry per
    document with its counts (ids and counts only)."""
    _record(db, "export.confirmed_open", open_work, via)


def record_export_settled_only(db: Database, open_work: Sequence[OpenWork], *,
                               via: str | None = None) -> None:
    """The reviewer chose to export the settled documents only: the open ones left out
    are audited with their counts."""
    _record(db, "export.left_open", open_work, via)


def _record(db: Database, action: str, open_work: Sequence[OpenWork], via: str | None
            ) -> None:
    extra: dict[str, Any] = {"via": via} if via else {}
    with db.write() as s:
        for w in open_work:
            repo.audit(s, action, document_id=w.document_id, count=w.undecided,
                       undecided=w.undecided, cire_high=w.cire_high, **extra)
