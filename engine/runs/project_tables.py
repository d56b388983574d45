"""Tables through the project sink (`clearnote batch`, `clearnote project import` then
export) and the desktop: thin functions over ``Project.tables`` (``engine.project.table_run``
streams the rows, ``engine.project.table_review`` keeps the decisions on their cells), so the
two sinks write byte-identical tables for the same inputs and secret."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engine.core.context import RunContext
from engine.project import Project
from engine.store.records import ExportedDocument, ExportReport, ImportReport
from engine.tables.preview import TablePreview, preview_table
from engine.tables.schema import TableSchema


def check_source(project: Project, document_id: str, source: Path) -> None:
    """The table's rows are read from its source: it must hold the imported bytes."""
    project.tables.check_source(document_id, source)


def import_table(project: Project, path: Path, schema: TableSchema,
                 ctx: RunContext | None = None) -> ImportReport:
    """Import the table at ``path`` with the roles a person confirmed (the desktop's
    dialog): they are stored with it and used when it is exported."""
    return project.import_paths([path], ctx, table_schema=schema.to_text())


def stored_schema(project: Project, document_id: str) -> TableSchema | None:
    """The roles confirmed for the table at import, or None (inferred at export)."""
    return project.tables.schema(document_id)


def preview_project_table(project: Project, document_id: str, *, rows: int = 300,
                          sheet: int = 1) -> TablePreview:
    """The table's first rows (of a workbook's ``sheet``) with the roles its export uses;
    the source must still hold the imported bytes (else the rows shown would not be the
    ones exported)."""
    source = Path(project.document(document_id).source_path)
    check_source(project, document_id, source)
    return preview_table(source, rows=rows, schema=stored_schema(project, document_id),
                         sheet=sheet)


def export_project_table(project: Project, document_id: str, source: Path, out_dir: Path, *,
                         schema: TableSchema | None = None, ctx: RunContext | None = None
                         ) -> tuple[ExportedDocument, int]:
    """The table's rows de-identified into ``out_dir`` (one file of the same format,
    named by the document id); returns the export and the spans replaced in free text.
    A table detected for review is written with the decisions made on its cells."""
    return project.tables.export_one(document_id, source, out_dir, schema=schema, ctx=ctx)


def export_project_tables(project: Project, document_ids: Sequence[str] | None, out_dir: Path,
                          *, schema: TableSchema | None = None, ctx: RunContext | None = None
                          ) -> tuple[ExportReport, list[str]]:
    """`clearnote project export`'s tables: those among ``document_ids`` (every imported
    table when None); returns the report and the ids that are not tables."""
    return project.tables.export(document_ids, out_dir, schema=schema, ctx=ctx)


def export_project_with_tables(project: Project, document_ids: Sequence[str] | None,
                               out_dir: Path, *, formats: Sequence[str] | None = None,
                               ctx: RunContext | None = None) -> ExportReport:
    """The desktop's export, in `clearnote project export`'s order: the tables among
    ``document_ids`` (every table when None) with their stored roles and decisions, then
    the other documents (every reviewed one when None), in one report."""
    ctx = ctx or RunContext()
    tables, _others = export_project_tables(project, document_ids, out_dir, ctx=ctx)
    done = {e.document_id for e in tables.exported} | {i for i, _ in tables.failed}
    others = None if document_ids is None else [i for i in document_ids if i not in done]
    report = project.export(others, out_dir=out_dir, formats=formats, ctx=ctx, tables=False)
    return replace(report, exported=tables.exported + report.exported,
                   failed=tables.failed + report.failed)
