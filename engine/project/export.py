"""Export: de-identified files named by document id, written by the one export path
(``engine.exporters.outputs.write_outputs``), recorded in the project in the transaction
that marks the document exported; ``WriteGroup`` does the same for a batch's documents,
many per transaction. The re-identification key stays in the project (``key_rows``); the
export folder gets ``report.csv`` (ids, outcome, CIRE high flags, output names) only."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from engine.core.context import RunContext
from engine.core.domain import ACTIVE_STATUSES, Document, Span
from engine.core.errors import ClearNoteError, ProjectError, UsageError
from engine.core.files import file_sha256, private_dir
from engine.core.policies import get_policy
from engine.exporters.outputs import export_job, write_outputs
from engine.exporters.reports import (
    REPORT_FILE_NAME,
    check_key_location,
    key_row,
    report_row,
    source_name_parts,
    write_key,
    write_report,
)
from engine.parallel import ProgressMeter, WorkResult, error_reason
from engine.project import queries
from engine.project.boxes import active_page_boxes
from engine.project.export_lock import exporting
from engine.project.recording import record
from engine.project.settings import FORMAT_SUFFIXES, TEMP_PREFIX, check_formats, formats_for
from engine.project.state import ProjectState
from engine.project.table_run import export_tables
from engine.project.tables import is_table_media
from engine.store import patients as pat
from engine.store import repositories as repo
from engine.store.models import AuditRow, DocumentRow, ExportRow, SpanRow, table_of
from engine.store.records import DocumentStatus, ExportedDocument, ExportReport

log = logging.getLogger(__name__)


def export(state: ProjectState, document_ids: Sequence[str] | None = None, *,
           out_dir: str | Path, formats: Sequence[str] | None = None, ctx: RunContext | None = None,
           report: bool = True, tables: bool = True) -> ExportReport:
    """Write de-identified files named ``<document id><suffix>``. Without ids, every
    reviewed (or previously exported) document. Files appear only complete (temp file
    + rename); a document is marked exported after all its files exist. ``tables``: the
    tables among the ids (every table without ids) first, their rows streamed
    (``table_run``) as `clearnote project export` does; else tables are left out."""
    ctx = ctx or RunContext()
    out = Path(out_dir)
    private_dir(out)
    formats = tuple(formats or state.settings.export_formats)
    check_formats(formats)
    done_tables = ExportReport(out)
    if tables:
        done_tables, others = export_tables(state, document_ids, out, ctx=ctx)
        document_ids = None if document_ids is None else others
    if document_ids is None:
        document_ids = [d.id for d in queries.documents(
            state.db, status=[DocumentStatus.REVIEWED, DocumentStatus.EXPORTED])
            if not is_table_media(d.media_type)]
    meter = ProgressMeter(ctx, "export", len(document_ids))
    exported: list[ExportedDocument] = []
    failed: list[tuple[str, str]] = []
    cancelled = False
    for doc_id in document_ids:
        if ctx.cancel.cancelled:
            cancelled = True
            break
        try:
            exported.append(export_document(state, doc_id, out, formats))
            ok = True
        except (ClearNoteError, OSError) as exc:
            ok = False
            failed.append((doc_id, error_reason(exc)))
            log.warning("document %s export failed: %s", doc_id, type(exc).__name__)
        meter.step(failed=not ok)
    csv_path = write_report_csv(state, out) if report else None
    return ExportReport(out, done_tables.exported + tuple(exported),
                        done_tables.failed + tuple(failed), csv_path, cancelled,
                        cire_high=sum(e.cire_high for e in exported),
                        key_location=Path(state.db.path))


def export_document(state: ProjectState, doc_id: str, out: Path, formats: tuple[str, ...]
                    ) -> ExportedDocument:
    with state.db.read() as s:  # one read transaction for all the inputs
        row = s.get(DocumentRow, doc_id)
        if row is None:
            raise UsageError(f"unknown document id {doc_id}")
        if is_table_media(row.media_type):
            raise ProjectError(f"document {doc_id} is a table: its rows are exported by "
                               "`clearnote project export` or `clearnote batch`")
        status = DocumentStatus(row.status)
        patient = row.patient_id
        doc = repo.load_document(s, doc_id)
        active = queries.replaceable(repo.spans_of(s, doc_id))
    if doc is None or status not in (DocumentStatus.DETECTED, DocumentStatus.REVIEWED,
                                     DocumentStatus.EXPORTED):
        # Fail closed: an undetected document would go out with its PHI.
        raise ProjectError(f"document {doc_id} is {status.value}; detect first")
    with exporting(state), state.db.write() as s:
        state.surrogate_map.sync(s)
        exported = export_in(state, s, doc, active, patient, out, formats)
        state.surrogate_map.mark_seen(s)
        return exported


def export_in(state: ProjectState, s: Any, doc: Document, active: tuple[Span, ...],
              patient: str | None, out: Path, formats: tuple[str, ...]
              ) -> ExportedDocument:
    """De-identify, write the files, and record them in ``s`` (a write transaction
    inside ``exporting``). The document is marked exported in the same transaction
    that records its files, after every file exists under its final name."""
    with state.surrogate_map.defer():
        deid = state.session.deidentify(doc, active,
                                        patient=patient or pat.DEFAULT_PATIENT)
    job = export_job(doc, active, deid, policy=get_policy(state.settings.policy),
                     source=doc.source_path, boxes=active_page_boxes(s, doc.id))
    written = write_outputs(job, out, formats, writers=state.services.writers,
                            durable=state.durable_exports)
    state.surrogate_map.store_pending(s, state.surrogate_map.peek_pending())
    now = time.time()
    repo.insert_rows(s, table_of(ExportRow),
                     [dict(document_id=doc.id, path=str(w.path.resolve()), format=w.format,
                           sha256=w.sha256, created_at=now) for w in written])
    repo.update_document_status(s, doc.id, DocumentStatus.EXPORTED)
    repo.audit(s, "document.exported", document_id=doc.id, count=len(written),
               formats=[w.format for w in written], spans=len(active),
               mode=state.settings.mode.value, cire_high=job.high_flags)
    return ExportedDocument(doc.id, tuple(w.path for w in written), job.high_flags)


def export_files_exist(state: ProjectState, document_id: str, out_dir: Path,
                       formats: Sequence[str] | None = None) -> bool:
    """Every expected output of the document is in ``out_dir`` with the bytes that
    were recorded when it was exported."""
    doc = queries.document(state.db, document_id)
    fmts = tuple(formats or state.settings.export_formats)
    wanted = [out_dir / f"{document_id}{FORMAT_SUFFIXES[f]}" for f in formats_for(doc, fmts)]
    with state.db.read() as s:
        recorded = dict(s.execute(
            select(ExportRow.path, ExportRow.sha256).where(
                ExportRow.document_id == document_id).order_by(ExportRow.id)).all())
    for path in wanted:
        sha = recorded.get(str(path.resolve()))
        if sha is None or not path.is_file() or file_sha256(path) != sha:
            return False
    return True


def clean_temp_files(out_dir: Path) -> int:
    """Remove temp files a killed export left behind."""
    n = 0
    if out_dir.is_dir():
        # Ours, and engine.exporters' own temp files (".clearnote-*.tmp").
        for pattern in (f"{TEMP_PREFIX}*", ".clearnote-*.tmp"):
            for tmp in out_dir.glob(pattern):
                tmp.unlink(missing_ok=True)
                n += 1
    return n


def write_report_csv(state: ProjectState, out_dir: Path) -> Path:
    """``report.csv``: per document of the project, its status, active spans, CIRE high
    flags of its last export, and its outputs in this folder; no source name (the key
    stays in the project)."""
    out = Path(out_dir)
    resolved = str(out.resolve())
    with state.db.read() as s:
        docs = repo.document_rows(s)
        files: dict[str, list[str]] = {}
        for doc_id, p in s.execute(select(ExportRow.document_id, ExportRow.path)):
            if str(Path(p).parent) == resolved:
                files.setdefault(doc_id, []).append(Path(p).name)
        high: dict[str, int] = {}
        replaced: dict[str, int] = {}  # spans each export replaced (a table's, below)
        for audited, detail in s.execute(
                select(AuditRow.document_id, AuditRow.detail)
                .where(AuditRow.action == "document.exported").order_by(AuditRow.id)):
            if audited is not None:  # always set on a document's export
                high[audited] = int(json.loads(detail or "{}").get("cire_high", 0))
                replaced[audited] = int(json.loads(detail or "{}").get("spans", 0))
        spans = dict(s.execute(
            select(SpanRow.document_id, func.count()).where(
                SpanRow.status.in_([st.value for st in ACTIVE_STATUSES]))
            .group_by(SpanRow.document_id)).all())
    forbidden = [part for d in docs for part in source_name_parts(d.source_path)]
    # A table: the spans its last export replaced in free text (the folder sink's figure),
    # else those stored for review; a document: its live spans.
    rows = [report_row(d.id, status=d.status,
                       spans=replaced.get(d.id, spans.get(d.id, 0))
                       if is_table_media(d.media_type) else spans.get(d.id, 0),
                       cire_high=high.get(d.id, ""),
                       outputs=sorted(set(files.get(d.id, []))), error=d.reason,
                       forbidden=source_name_parts(d.source_path)) for d in docs]
    return write_report(rows, out / REPORT_FILE_NAME, forbidden=forbidden)


def key_rows(state: ProjectState) -> list[dict[str, object]]:
    """The project's re-identification key, in the schema ``clearnote deid`` writes."""
    with state.db.read() as s:
        return [key_row(d.id, d.source_path, d.patient_id) for d in repo.document_rows(s)]


def write_key_file(state: ProjectState, path: Path, *, out_dir: Path | None = None) -> Path:
    """The key as a CSV file (for the user who must re-link outside ClearNote), never
    inside the export folder ``out_dir``."""
    if out_dir is not None:
        check_key_location(path, out_dir)
    return write_key(key_rows(state), path)


class WriteGroup:
    """Consecutive documents of a batch stored in one write transaction, committed every
    ``max_documents`` documents or ``max_seconds`` (``due``), whichever comes first: a
    commit writes each changed page once, and the index pages that every document
    touches dominated the cost of committing each document alone.

    Each document runs in a savepoint, so one failed export rolls back that document
    only. Files are written before the commit: a crash before it leaves no record of
    the group's documents, and the resumed batch redoes them under the same file names.
    While open, the group holds the project's write and de-identification locks, so
    other threads and processes wait at most about ``max_seconds``. Use from one thread.
    """

    def __init__(self, state: ProjectState, *, max_documents: int, max_seconds: float) -> None:
        self.state = state
        self.max_documents = max_documents
        self.max_seconds = max_seconds
        self._stack: ExitStack | None = None
        self._session: Any = None
        self._opened = 0.0
        self._documents = 0

    def record_and_export(self, result: WorkResult, out_dir: Path,
                          formats: Sequence[str] | None = None) -> ExportedDocument | None:
        """Store a worker's result and export the document from memory (the two-step
        path, ``record_work_result`` then ``export``, reads the document back). Returns
        None when the document failed (recorded with its reason); raises when only the
        export failed, with the detection recorded as ``record_work_result`` would."""
        state = self.state
        formats = tuple(formats or state.settings.export_formats)
        check_formats(formats)
        private_dir(out_dir)
        s = self._open()
        self._documents += 1
        if result.result is None or result.document is None:
            with s.begin_nested():
                record(state, s, result)
            return None
        try:
            with s.begin_nested():
                recorded = record(state, s, result)
                if recorded is None:  # not reached: a detected document is no failure
                    return None
                patient, spans = recorded
                active = queries.replaceable(spans)
                return export_in(state, s, result.document, active, patient, out_dir, formats)
        except Exception:
            # The savepoint rolled back. Keep the detection, as the two-step path would,
            # and the surrogates the cache may already have handed to other documents.
            with s.begin_nested():
                state.surrogate_map.store_pending(s, state.surrogate_map.take_pending())
                record(state, s, result)
            raise
        finally:
            state.surrogate_map.take_pending()  # stored in the group's transaction

    @property
    def due(self) -> bool:
        return self._session is not None and (
            self._documents >= self.max_documents
            or time.monotonic() - self._opened >= self.max_seconds)

    def seconds_left(self) -> float | None:
        """Until the group is due by time; None when nothing is open."""
        if self._session is None:
            return None
        return max(0.0, self.max_seconds - (time.monotonic() - self._opened))

    def commit(self) -> None:
        if self._stack is None:
            return
        stack, session = self._stack, self._session
        self._stack = self._session = None
        try:
            try:
                self.state.surrogate_map.mark_seen(session)
            finally:
                stack.close()  # commits, then releases the locks
        except BaseException:
            # Nothing of the group was stored: surrogates cached meanwhile are unknown to
            # the registry, so the cache is read again from the file.
            self.state.surrogate_map.forget()
            raise

    def _open(self) -> Any:
        if self._session is None:
            with ExitStack() as stack:
                stack.enter_context(self.state.deid_lock)
                self._session = stack.enter_context(self.state.db.write())
                # Another process may have stored surrogates since the cache was filled.
                self.state.surrogate_map.sync(self._session)
                self._stack = stack.pop_all()
            self._opened, self._documents = time.monotonic(), 0
        return self._session
