"""``Project.tables``: what a project does with its tables (EHR extracts), one object so
the façade stays small. Detection of a table's cells, their places, the export of its rows
with the decisions made on them, the source check and the roles stored for it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.core.context import RunContext
from engine.project import table_review as _review
from engine.project import table_run as _run
from engine.project import tables as _tables
from engine.project.state import ProjectState
from engine.store.records import ExportedDocument, ExportReport
from engine.tables.cells import LaidCell
from engine.tables.schema import TableSchema


class ProjectTables:
    def __init__(self, state: ProjectState) -> None:
        self._state = state

    def detect(self, document_id: str, *, schema: TableSchema | None = None,
               ctx: RunContext | None = None) -> int:
        """Detect the table's cells and store them with their spans (review decisions on
        the same cells kept); returns the spans stored."""
        return _review.detect_table(self._state, document_id, schema=schema, ctx=ctx)

    def is_detected(self, document_id: str) -> bool:
        return _review.is_detected(self._state, document_id)

    def cells(self, document_id: str, *, rows: Sequence[str] | None = None
              ) -> list[LaidCell]:
        """The table's reviewable cells (of the named rows, "r12" / "s2r12"), each with
        its range in the table's review text (``Project.document_text``)."""
        return _review.cells_of(self._state, document_id, rows=rows)

    def schema(self, document_id: str) -> TableSchema | None:
        """The roles confirmed for the table at import, or None (inferred)."""
        return _tables.stored_schema(self._state, document_id)

    def check_source(self, document_id: str, source: Path) -> None:
        """The source still holds the bytes imported (else InputError, by name)."""
        _tables.check_source(self._state, document_id, source)

    def export_one(self, document_id: str, source: Path, out_dir: Path, *,
                   schema: TableSchema | None = None, ctx: RunContext | None = None
                   ) -> tuple[ExportedDocument, int]:
        """The table's rows de-identified into ``out_dir``; (export, spans replaced)."""
        return _run.export_table_rows(self._state, document_id, source, out_dir,
                                      schema=schema, ctx=ctx)

    def export(self, document_ids: Sequence[str] | None, out_dir: Path, *,
               schema: TableSchema | None = None, ctx: RunContext | None = None
               ) -> tuple[ExportReport, list[str]]:
        """The tables among ``document_ids`` (every table when None) exported; returns
        the report and the ids that are not tables."""
        return _run.export_tables(self._state, document_ids, out_dir, schema=schema, ctx=ctx)
