"""A table's export recorded in its project (``engine.project.tables`` says what a
table is there): the output, the surrogates its rows invented and the exported status in
one transaction, after the rows were streamed into the output by the runs layer."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import select

from engine.core.files import file_sha256
from engine.project.export_lock import exporting
from engine.project.state import ProjectState
from engine.store import repositories as repo
from engine.store.models import ExportRow, table_of
from engine.store.records import DocumentStatus, ExportedDocument

TABLE_FORMAT = "table"  # the exports' format column for a table's one output


def export_table(state: ProjectState, document_id: str, write: Callable[[], tuple[Path, int]]
                 ) -> ExportedDocument:
    """Run ``write`` (streams the rows into the output, temp + rename; returns the path
    and the spans replaced in free text) holding the export lock, then record the
    output, the surrogates it invented and the exported status in one transaction."""
    with exporting(state):
        with state.surrogate_map.defer():
            path, spans = write()
        with state.db.write() as s:
            state.surrogate_map.store_pending(s, state.surrogate_map.peek_pending())
            repo.insert_rows(s, table_of(ExportRow), [dict(
                document_id=document_id, path=str(path.resolve()), format=TABLE_FORMAT,
                sha256=file_sha256(path), created_at=time.time())])
            repo.update_document_status(s, document_id, DocumentStatus.EXPORTED)
            repo.audit(s, "document.exported", document_id=document_id, count=1,
                       formats=[TABLE_FORMAT], spans=spans,
                       mode=state.settings.mode.value, cire_high=0)
            state.surrogate_map.mark_seen(s)
    return ExportedDocument(document_id, (path,), 0)


def table_export_exists(state: ProjectState, document_id: str, path: Path) -> bool:
    """The table's output is at ``path`` with the bytes recorded when it was exported."""
    with state.db.read() as s:
        recorded = set(s.scalars(select(ExportRow.sha256).where(
            ExportRow.document_id == document_id,
            ExportRow.path == str(path.resolve()))).all())
    return path.is_file() and file_sha256(path) in recorded
