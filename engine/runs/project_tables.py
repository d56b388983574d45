"""A table through the project sink (`clearnote batch`, `clearnote project import` then
export): the same rows stream as in the folder sink (``engine.tables.run.deid_table``),
with the project's session (its surrogate registry) and the project's patients, so the
two sinks write byte-identical tables for the same inputs and secret. What the project
stores of a table is ``engine.project.tables``'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engine.core.context import RunContext
from engine.core.errors import CancelledError, ClearNoteError, InputError
from engine.core.files import file_sha256, private_dir
from engine.core.labels import Label
from engine.core.messages import problem_in_words
from engine.parallel import error_reason
from engine.project import Project
from engine.project.tables import is_table_media
from engine.runs.patients import DEFAULT_PATIENT, row_keys
from engine.store.records import DocumentStatus, ExportedDocument, ExportReport, ImportReport
from engine.tables.preview import TablePreview, preview_table
from engine.tables.run import deid_table, output_name
from engine.tables.schema import TableSchema, parse_schema


class ProjectRowLinker:
    """A table's rows linked to the project's patients (``Project.link_table_row``), with
    a cache for the table so each patient's keys go to the store once, not once a row:
    the cache grows with distinct patients, never with rows."""

    def __init__(self, project: Project, table_id: str) -> None:
        self.project, self.table_id = project, table_id
        self.secret = project.session_config().secret
        self._seen: dict[str, tuple[int, str]] = {}  # digest -> (first row, patient)
        self._rows = 0

    def patient_for_row(self, cells: Sequence[tuple[Label, str | None, str]]) -> str:
        self._rows += 1
        keys = row_keys(cells, self.secret)
        if not keys:
            return DEFAULT_PATIENT
        hits = [self._seen[d] for _kind, d in keys if d in self._seen]
        if len(hits) == len(keys):
            return min(hits)[1]
        patient = self.project.link_table_row(self.table_id, keys)
        for _kind, digest in keys:
            self._seen.setdefault(digest, (self._rows, patient))
        return patient


def check_source(project: Project, document_id: str, source: Path) -> None:
    """The table's rows are read from its source: it must hold the imported bytes."""
    try:
        current = file_sha256(source)
    except OSError:
        raise InputError(source, "the table cannot be read where it was imported from"
                         ) from None
    if current != project.document(document_id).sha256:
        raise InputError(source, "the table changed since it was imported; import it "
                                 "again")


def import_table(project: Project, path: Path, schema: TableSchema,
                 ctx: RunContext | None = None) -> ImportReport:
    """Import the table at ``path`` with the roles a person confirmed (the desktop's
    dialog): they are stored with it and used when it is exported."""
    return project.import_paths([path], ctx, table_schema=schema.to_text())


def stored_schema(project: Project, document_id: str) -> TableSchema | None:
    """The roles confirmed for the table at import, or None (inferred at export)."""
    text = project.table_schema(document_id)
    return None if text is None else parse_schema(
        text, f"the roles stored for table {document_id}")


def preview_project_table(project: Project, document_id: str, *, rows: int = 300
                          ) -> TablePreview:
    """The table's first rows with the roles its export uses; the source must still hold
    the imported bytes (else the rows shown would not be the ones exported)."""
    source = Path(project.document(document_id).source_path)
    check_source(project, document_id, source)
    return preview_table(source, rows=rows, schema=stored_schema(project, document_id))


def export_project_table(project: Project, document_id: str, source: Path, out_dir: Path, *,
                         schema: TableSchema | None = None, ctx: RunContext | None = None
                         ) -> tuple[ExportedDocument, int]:
    """The table's rows de-identified into ``out_dir`` (one file of the same format,
    named by the document id); returns the export and the spans replaced in free text.
    The source must still hold the bytes that were imported. Roles: ``schema`` (given
    for the run), else those confirmed at import, else inferred."""
    check_source(project, document_id, source)
    schema = schema or stored_schema(project, document_id)
    linker = ProjectRowLinker(project, document_id)
    replaced = 0

    def write() -> tuple[Path, int]:
        nonlocal replaced
        table = deid_table(source, out_dir / output_name(document_id, source),
                           project.session, schema=schema, ctx=ctx,
                           scope_of=linker.patient_for_row)
        replaced = table.spans
        return table.output, table.spans

    return project.export_table(document_id, write), replaced


def export_project_tables(project: Project, document_ids: Sequence[str] | None, out_dir: Path,
                          *, schema: TableSchema | None = None, ctx: RunContext | None = None
                          ) -> tuple[ExportReport, list[str]]:
    """`clearnote project export`'s tables: those among ``document_ids`` (every imported
    table when None; their rows need no review step of their own, their roles decide);
    returns the report and the ids that are not tables, for ``Project.export``."""
    ctx = ctx or RunContext()
    records = {d.id: d for d in project.documents()}
    if document_ids is None:
        tables = [i for i, d in records.items() if is_table_media(d.media_type)
                  and d.status is not DocumentStatus.FAILED]
        others: list[str] = []
    else:
        tables = [i for i in document_ids
                  if i in records and is_table_media(records[i].media_type)]
        others = [i for i in document_ids if i not in tables]
    exported: list[ExportedDocument] = []
    failed: list[tuple[str, str]] = []
    private_dir(out_dir)
    for doc_id in tables:
        ctx.check()
        try:
            done, _spans = export_project_table(project, doc_id,
                                                Path(records[doc_id].source_path),
                                                out_dir, schema=schema, ctx=ctx)
        except (ClearNoteError, OSError) as exc:
            if isinstance(exc, CancelledError):
                raise
            failed.append((doc_id, error_reason(exc) if isinstance(exc, ClearNoteError)
                           else problem_in_words(exc)))
            continue
        exported.append(done)
    return ExportReport(out_dir, tuple(exported), tuple(failed)), others


def export_project_with_tables(project: Project, document_ids: Sequence[str] | None,
                               out_dir: Path, *, formats: Sequence[str] | None = None,
                               ctx: RunContext | None = None) -> ExportReport:
    """The desktop's export, in `clearnote project export`'s order: the tables among
    ``document_ids`` (every table when None) with their stored roles, then the other
    documents (every reviewed one when None), in one report."""
    ctx = ctx or RunContext()
    tables, _others = export_project_tables(project, document_ids, out_dir, ctx=ctx)
    done = {e.document_id for e in tables.exported} | {i for i, _ in tables.failed}
    others = None if document_ids is None else [i for i in document_ids if i not in done]
    report = project.export(others, out_dir=out_dir, formats=formats, ctx=ctx)
    return replace(report, exported=tables.exported + report.exported,
                   failed=tables.failed + report.failed)
