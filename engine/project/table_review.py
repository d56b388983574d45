"""A table's cells reviewed as a document's text is (issue 28).

Detecting a table (``detect_table``: `clearnote project detect`, the desktop's import)
stores its review text (``engine.tables.cells``: the identifier and free-text cells, one
after another) as the table document's text, its cells' places (``table_cells``) and
their spans (``spans``), so every review tool works on them as on a document's: accept,
reject, undo, the audit log, review files. The export (``row_reviews``) then reads the
decisions row by row: a rejected identifier cell is written as it is, a free-text cell
gets exactly its live spans replaced. Rows the export streams must be the rows that were
detected (the source is checked by sha256, each row's cells against the stored text);
a table never detected is exported as before, detecting as it goes.

Review holds a table's cells and spans in memory and in the project (about 9 KB of memory
and 2.4 KB of project per row, measured with a note on every row), so only tables of up
to ``MAX_REVIEW_ROWS`` data rows are detected for review: a larger extract is refused here
by its size, before anything is stored, and its export streams by its column roles (a
warehouse extract is not reviewed row by row)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from pathlib import Path

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from engine.core.context import RunContext
from engine.core.domain import ACTIVE_STATUSES, Source, Span, SpanStatus, new_id
from engine.core.errors import DocumentTooLargeError, ExportError
from engine.project import queries
from engine.project.state import ProjectState
from engine.project.tables import check_source, stored_schema
from engine.store import repositories as repo
from engine.store.models import ContentRow, DocumentRow, RunRow, SpanRow, TableCellRow, table_of
from engine.store.records import DocumentStatus
from engine.tables.cells import ROLE_DETECTOR, LaidCell, detect_rows, lay_row
from engine.tables.schema import TableSchema
from engine.tables.transform import RowReview

MAX_REVIEW_ROWS = 25_000


def detect_table(state: ProjectState, document_id: str, *, schema: TableSchema | None = None,
                 ctx: RunContext | None = None) -> int:
    """Detect the table's cells and store them (the review text, the cells, the spans);
    returns the number of spans stored. Decisions a person made survive a re-detection
    that finds the same cells; when the cells changed (other roles) they are dropped."""
    record = queries.document(state.db, document_id)
    source = Path(record.source_path)
    check_source(state, document_id, source)
    schema = schema or stored_schema(state, document_id)
    started = time.monotonic()
    cells: list[LaidCell] = []
    parts: list[str] = []
    spans: list[Span] = []
    for n, row in enumerate(detect_rows(source, state.session, schema=schema, ctx=ctx), 1):
        if n > MAX_REVIEW_ROWS:
            raise DocumentTooLargeError(None, (
                f"more than {MAX_REVIEW_ROWS:,} rows, too many to review cell by cell: it "
                "is exported by its column roles without cell review"))
        cells += row.cells
        parts.append(row.text)
        spans += row.spans
    text = "".join(parts)
    with state.db.write() as s:
        content = s.get(ContentRow, document_id)
        kept: list[Span] = []
        if content is not None and content.text == text and _detected(s, document_id):
            kept = [sp for sp in repo.spans_of(s, document_id) if sp.source is Source.MANUAL
                    or sp.status in (SpanStatus.ACCEPTED, SpanStatus.REJECTED)]
        s.execute(delete(SpanRow).where(SpanRow.document_id == document_id,
                                        SpanRow.id.not_in([sp.id for sp in kept])))
        s.execute(delete(TableCellRow).where(TableCellRow.document_id == document_id))
        if content is None:
            s.add(ContentRow(document_id=document_id, text=text))
        else:
            content.text = text
        doc_row = s.get(DocumentRow, document_id)
        assert doc_row is not None  # queries.document found it
        doc_row.char_count = len(text)
        doc_row.status = DocumentStatus.DETECTED.value
        doc_row.updated_at = time.time()
        repo.insert_rows(s, table_of(TableCellRow), [dict(
            document_id=document_id, start=c.start, end=c.end, ordinal=c.ordinal, row=c.row,
            column=c.column, role=c.role) for c in cells])
        detectors = sorted({sp.detector for sp in spans if sp.detector})
        run_id = repo.insert_row(s, table_of(RunRow), dict(
            document_id=document_id, detectors=json.dumps(detectors),
            policy=state.settings.policy, span_count=len(spans), allowlisted=0,
            seconds=time.monotonic() - started, created_at=time.time()))
        decided = {(sp.start, sp.end, sp.label) for sp in kept}
        taken = {sp.id for sp in kept}
        new = [sp if sp.id not in taken else _renamed(sp) for sp in spans
               if (sp.start, sp.end, sp.label) not in decided]
        repo.insert_rows(s, table_of(SpanRow), [repo.span_values(sp, document_id, run_id)
                                                for sp in new])
        repo.audit(s, "document.detected", document_id=document_id, count=len(new),
                   cells=len(cells), kept=len(kept), policy=state.settings.policy)
    return len(new) + len(kept)


def _renamed(span: Span) -> Span:
    return replace(span, id=new_id())


def is_detected(state: ProjectState, document_id: str) -> bool:
    """The table's cells are stored (it was detected for review)."""
    with state.db.read() as s:
        return _detected(s, document_id)


def _detected(s: Session, document_id: str) -> bool:
    return s.scalar(select(RunRow.id).where(RunRow.document_id == document_id).limit(1)
                    ) is not None


def cells_of(state: ProjectState, document_id: str, *, rows: Sequence[str] | None = None
             ) -> list[LaidCell]:
    """The table's stored cells (of the named rows), in reading order."""
    stmt = select(TableCellRow).where(TableCellRow.document_id == document_id)
    if rows is not None:
        stmt = stmt.where(TableCellRow.row.in_(list(rows)))
    with state.db.read() as s:
        return [LaidCell(c.ordinal, c.row, c.column, c.start, c.end, c.role)
                for c in s.scalars(stmt.order_by(TableCellRow.start))]


@dataclass
class RowReviews:
    """``ReviewOf`` for the export of a detected table: called once per data row in
    reading order, it checks the row's cells against the stored ones (else the export
    fails: the rows are not the ones detected) and returns the row's decisions."""

    document_id: str
    text: str
    cells: dict[int, list[LaidCell]]  # by row ordinal
    spans: list[Span]  # every span of the table, by start
    _ordinal: int = 0
    _next_span: int = 0

    def __call__(self, schema: TableSchema, values: Sequence[str]) -> RowReview:
        self._ordinal += 1
        stored = self.cells.get(self._ordinal, [])
        start = stored[0].start if stored else 0
        laid, text = lay_row(schema, values, self._ordinal, "", start)
        if [(c.column, c.start, c.end, c.role) for c in laid] != \
                [(c.column, c.start, c.end, c.role) for c in stored] \
                or (stored and self.text[start:stored[-1].end + 1] != text):
            raise ExportError(f"table {self.document_id}: data row {self._ordinal} is not "
                              "the row that was detected; detect the table again")
        kept: set[int] = set()
        notes: dict[int, list[Span]] = {}
        for cell in stored:
            inside = self._spans_in(cell)
            live = queries.replaceable(inside)
            if cell.free_text:
                notes[cell.column] = [_shifted(sp, -cell.start) for sp in live]
            elif not any(sp.start <= cell.start and sp.end >= cell.end for sp in live):
                kept.add(cell.column)  # its span rejected: the cell is written as it is
        return RowReview(frozenset(kept), notes)

    def _spans_in(self, cell: LaidCell) -> list[Span]:
        while self._next_span < len(self.spans) and \
                self.spans[self._next_span].start < cell.start:
            self._next_span += 1  # spans across two cells cannot be: each is inside one
        out = []
        i = self._next_span
        while i < len(self.spans) and self.spans[i].start < cell.end:
            if self.spans[i].end <= cell.end:
                out.append(self.spans[i])
            elif self.spans[i].status in ACTIVE_STATUSES:  # fail closed: no half span
                raise ExportError(f"table {self.document_id}: span {self.spans[i].id} "
                                  f"runs past its cell (data row {self._ordinal}); reject "
                                  "it and mark the cell's part instead")
            i += 1
        self._next_span = i
        return out


def _shifted(span: Span, by: int) -> Span:
    return replace(span, start=span.start + by, end=span.end + by)


def row_reviews(state: ProjectState, document_id: str) -> RowReviews | None:
    """The decisions of a detected table for its export, or None (never detected)."""
    with state.db.read() as s:
        content = s.get(ContentRow, document_id)
        if content is None or not _detected(s, document_id):
            return None
        text = content.text
        spans = sorted(repo.spans_of(s, document_id), key=lambda sp: (sp.start, sp.end))
        stored = [LaidCell(c.ordinal, c.row, c.column, c.start, c.end, c.role) for c in s.scalars(
            select(TableCellRow).where(TableCellRow.document_id == document_id)
            .order_by(TableCellRow.start))]
    cells = {k: list(g) for k, g in groupby(stored, key=lambda c: c.ordinal)}
    return RowReviews(document_id, text, cells, spans)


__all__ = ["ROLE_DETECTOR", "RowReviews", "cells_of", "detect_table", "is_detected",
           "row_reviews"]
