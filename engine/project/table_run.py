"""A table's rows exported through its project (`clearnote batch`, `project export`, the
desktop's export, ``Project.export``): the same rows stream as in the folder sink
(``engine.tables.run.deid_table``), with the project's session (its surrogate registry)
and the project's patients, so the two sinks write byte-identical tables for the same
inputs and secret. A table detected for review (``table_review``) is exported with the
decisions made on its cells; one never detected is detected as it is written, as the
folder sink does. What the project stores of a table is ``engine.project.tables``'s."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.core.context import RunContext
from engine.core.errors import CancelledError, ClearNoteError
from engine.core.files import private_dir
from engine.core.labels import Label
from engine.core.messages import problem_in_words
from engine.parallel import error_reason
from engine.project import queries
from engine.project import tables as _tables
from engine.project.state import ProjectState
from engine.project.table_export import export_table
from engine.project.table_review import row_reviews
from engine.project.tables import check_source, stored_schema
from engine.store.patients import DEFAULT_PATIENT, row_keys
from engine.store.records import DocumentStatus, ExportedDocument, ExportReport
from engine.tables.run import deid_table, output_name
from engine.tables.schema import TableSchema


class ProjectRowLinker:
    """A table's rows linked to the project's patients (``tables.link_row``), with a cache
    for the table so each patient's keys go to the store once, not once a row: the cache
    grows with distinct patients, never with rows."""

    def __init__(self, state: ProjectState, table_id: str) -> None:
        self.state, self.table_id = state, table_id
        self.secret = state.secret
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
        patient = _tables.link_row(self.state, self.table_id, keys)
        for _kind, digest in keys:
            self._seen.setdefault(digest, (self._rows, patient))
        return patient


def export_table_rows(state: ProjectState, document_id: str, source: Path, out_dir: Path, *,
                      schema: TableSchema | None = None, ctx: RunContext | None = None
                      ) -> tuple[ExportedDocument, int]:
    """The table's rows de-identified into ``out_dir`` (one file of the same format,
    named by the document id); returns the export and the spans replaced in free text.
    The source must still hold the bytes that were imported. Roles: ``schema`` (given
    for the run), else those confirmed at import, else inferred. A table detected for
    review is written with its decisions (with the roles it was detected with)."""
    check_source(state, document_id, source)
    schema = schema or stored_schema(state, document_id)
    linker = ProjectRowLinker(state, document_id)
    reviews = row_reviews(state, document_id)
    replaced = 0

    def write() -> tuple[Path, int]:
        nonlocal replaced
        table = deid_table(source, out_dir / output_name(document_id, source),
                           state.session, schema=schema, ctx=ctx,
                           scope_of=linker.patient_for_row, review_of=reviews)
        replaced = table.spans
        return table.output, table.spans

    return export_table(state, document_id, write), replaced


def export_tables(state: ProjectState, document_ids: Sequence[str] | None, out_dir: Path,
                  *, schema: TableSchema | None = None, ctx: RunContext | None = None
                  ) -> tuple[ExportReport, list[str]]:
    """The tables among ``document_ids`` (every imported table when None), exported;
    returns the report and the ids that are not tables."""
    ctx = ctx or RunContext()
    records = {d.id: d for d in queries.documents(state.db, ids=document_ids)}
    if document_ids is None:
        tables = [i for i, d in records.items() if _tables.is_table_media(d.media_type)
                  and d.status is not DocumentStatus.FAILED]
        others: list[str] = []
    else:
        tables = [i for i in document_ids
                  if i in records and _tables.is_table_media(records[i].media_type)]
        others = [i for i in document_ids if i not in tables]
    exported: list[ExportedDocument] = []
    failed: list[tuple[str, str]] = []
    if tables:
        private_dir(out_dir)
    for doc_id in tables:
        ctx.check()
        try:
            done, _spans = export_table_rows(state, doc_id, Path(records[doc_id].source_path),
                                             out_dir, schema=schema, ctx=ctx)
        except (ClearNoteError, OSError) as exc:
            if isinstance(exc, CancelledError):
                raise
            failed.append((doc_id, error_reason(exc) if isinstance(exc, ClearNoteError)
                           else problem_in_words(exc)))
            continue
        exported.append(done)
    return ExportReport(out_dir, tuple(exported), tuple(failed)), others
