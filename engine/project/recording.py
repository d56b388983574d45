"""Storing what workers produce: imports and detection runs, each document in its final
state in one transaction; a person's review decisions survive a re-detection."""

from __future__ import annotations

import json
import logging
import mimetypes
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, delete, select

from engine.core.context import RunContext
from engine.core.domain import DetectionResult, Document, Source, Span, SpanStatus, new_id
from engine.core.errors import CancelledError, ClearNoteError, UsageError
from engine.core.files import file_sha256, keyed_document_id, os_reason
from engine.ingest.discover import discover_inputs
from engine.parallel import ProgressMeter, WorkItem, WorkResult, error_reason, run_parallel
from engine.project import queries
from engine.project.state import ProjectState
from engine.project.table_review import detect_table
from engine.project.tables import is_table_media, is_table_path, record_table
from engine.store import patients as pat
from engine.store import repositories as repo
from engine.store.models import DocumentRow, RunRow, SpanRow, table_of
from engine.store.records import DetectReport, DocumentStatus, ImportFailure, ImportReport

log = logging.getLogger(__name__)

# Built once: it runs for every document of a batch.
_DOCUMENT_PATIENT = select(table_of(DocumentRow).c.patient_id).where(
    table_of(DocumentRow).c.id == bindparam("id"))


def document_id_for_sha(secret: bytes, sha: str) -> str:
    """Keyed with the project secret: stable across runs of this project, unlinkable to
    the original's hash outside it."""
    return keyed_document_id(secret, sha)


def guess_media(path: str | None) -> str:
    return (mimetypes.guess_type(path or "")[0] or "application/octet-stream")


def import_paths(state: ProjectState, paths: Iterable[str | Path],
                 ctx: RunContext | None = None, *, workers: int = 1,
                 password: str | None = None,
                 table_schema: str | None = None) -> ImportReport:
    """Import files and folders (supported types, recursively). Files already in the
    project (same sha256) are skipped; unreadable ones are recorded as failed with the
    reason and the batch goes on. ``table_schema``: roles a person confirmed for the
    tables among ``paths`` (stored with them, used at export; a table already there gets
    them too)."""
    return ImportReport.merged(import_batches(state, paths, ctx, batch=0, workers=workers,
                                        password=password, table_schema=table_schema))


def import_batches(state: ProjectState, paths: Iterable[str | Path],
                   ctx: RunContext | None = None, *, batch: int, workers: int = 1,
                   password: str | None = None,
                   table_schema: str | None = None) -> Iterator[ImportReport]:
    """``import_paths`` a report at a time: one per ``batch`` documents stored (0: one in
    all), the first also naming the duplicates, tables and files that could not be read, so
    a caller can show (and detect) a folder's documents while the rest are read. The last
    report of a cancelled import is ``cancelled`` and counts the files ``not_reached``; the
    reports' counts add up to the files found."""
    ctx = ctx or RunContext()
    found = discover_inputs([Path(p) for p in paths])
    known = {d.sha256: d.id for d in queries.documents(state.db)}
    items: list[WorkItem] = []
    tables: list[str] = []
    duplicates: list[str] = []
    failed: list[ImportFailure] = [ImportFailure(s.path, s.reason) for s in found.skipped]
    for path in found.files:
        ctx.check()
        try:
            sha = file_sha256(path)
        except OSError as exc:  # permission denied, vanished since discovery
            failed.append(ImportFailure(path, f"cannot read ({os_reason(exc)})"))
            continue
        if sha in known:
            duplicates.append(known[sha])
            if table_schema is not None and is_table_path(path):
                record_table(state, known[sha], path, sha, schema=table_schema)
            continue
        known[sha] = document_id_for_sha(state.secret, sha)
        if is_table_path(path):  # rows are read when the table is exported
            record_table(state, known[sha], path, sha, schema=table_schema)
            tables.append(known[sha])
            continue
        items.append(WorkItem(known[sha], path=str(path), sha256=sha,
                              password=password, detect=False))
    imported: list[str] = list(tables)
    review: list[str] = []
    meter = ProgressMeter(ctx, "import", len(items))
    done = 0
    try:
        for result in run_parallel(items, total=len(items), workers=workers,
                                   services=state.services,
                                   session_config=None, session=None, ctx=ctx):
            done += 1
            ok = record_work_result(state, result)
            if ok:
                imported.append(result.item.document_id)
                if result.document is not None and result.document.needs_review:
                    review.append(result.item.document_id)
            else:
                failed.append(ImportFailure(Path(result.item.path or ""),
                                            result.error or "failed"))
            meter.step(failed=not ok)
            if batch and (len(imported) >= batch or done == len(items)):
                yield ImportReport(tuple(imported), tuple(duplicates), tuple(failed),
                                   needs_review=tuple(review))
                imported, duplicates, failed, review = [], [], [], []
    except CancelledError:
        yield ImportReport(tuple(imported), tuple(duplicates), tuple(failed), True,
                           tuple(review), not_reached=len(items) - done)
        return
    if not batch or imported or duplicates or failed or not done:
        yield ImportReport(tuple(imported), tuple(duplicates), tuple(failed), False,
                           tuple(review))


def record_work_result(state: ProjectState, result: WorkResult) -> bool:
    """Store what a worker produced (import and/or detection) in one transaction.
    Returns False when the document failed (recorded with its reason)."""
    with state.db.write() as s:
        return record(state, s, result) is not None


def record(state: ProjectState, s: Any, result: WorkResult
           ) -> tuple[str | None, list[Span]] | None:
    """Store a worker's result in ``s``: the document's patient and spans, or None when
    the document failed (recorded with its reason)."""
    item = result.item
    known = s.execute(_DOCUMENT_PATIENT, {"id": item.document_id}).first()
    if known is not None:
        return record_known(state, s, result, known.patient_id)
    doc = result.document
    if result.load_failed or doc is None:
        repo.add_failed_document(
            s, document_id=item.document_id, file_sha256=item.sha256,
            source_path=item.path or "", media_type=guess_media(item.path),
            reason=result.error or "failed")
        repo.audit(s, "document.failed", document_id=item.document_id,
                   stage="import", error=(result.error or "").split(":")[0])
        log.warning("document %s failed to import: %s", item.document_id,
                    (result.error or "").split(":")[0])
        return None
    # A new document is inserted once, in its final state: detected (or not) and
    # linked to its patient, so a batch issues no UPDATEs for it.
    keys: set[tuple[str, str]] = set()
    patient: str | None = None
    if result.result is not None:
        keys = pat.identifier_keys(doc, result.result.spans, state.secret)
        patient, created = pat.find_patient(s, doc.id, keys)
        if created:
            state.surrogate_map.known_empty(patient)
    status = DocumentStatus.DETECTED if result.result is not None else \
        DocumentStatus.IMPORTED
    repo.add_document(s, doc, file_sha256=item.sha256, source_path=item.path or "",
                      status=status, patient_id=patient)
    repo.audit(s, "document.imported", document_id=doc.id, count=len(doc.text),
               media_type=doc.media_type)
    if result.result is None:
        return record_known(state, s, result, None)  # a detection failure, or import only
    pat.store_keys(s, doc.id, keys, replace=False)
    return patient, store_detection(state, s, doc, result.result, result.seconds, ())


def record_known(state: ProjectState, s: Any, result: WorkResult, patient: str | None
                 ) -> tuple[str | None, list[Span]] | None:
    """``record`` for a document already in the project (imported, or re-detected)."""
    item, doc = result.item, result.document
    if result.result is not None and doc is not None:
        # Keep decisions a person made; replace machine candidates from earlier runs.
        kept = tuple(sp for sp in repo.spans_of(s, doc.id)
                     if sp.source is Source.MANUAL
                     or sp.status in (SpanStatus.ACCEPTED, SpanStatus.REJECTED))
        s.execute(delete(SpanRow).where(SpanRow.document_id == doc.id,
                                        SpanRow.id.not_in([sp.id for sp in kept])))
        repo.update_document_status(s, doc.id, DocumentStatus.DETECTED)
        keys = pat.identifier_keys(doc, result.result.spans, state.secret)
        patient, created = pat.store_keys_and_link(s, doc.id, keys, patient_id=patient)
        if created:
            state.surrogate_map.known_empty(patient)
        return patient, store_detection(state, s, doc, result.result, result.seconds, kept)
    if result.error is not None and not result.load_failed:
        repo.update_document_status(s, item.document_id, DocumentStatus.FAILED,
                                    result.error)
        repo.audit(s, "document.failed", document_id=item.document_id,
                   stage="detect", error=result.error.split(":")[0])
        log.warning("document %s failed detection: %s", item.document_id,
                    result.error.split(":")[0])
        return None
    return patient, []


def detect(state: ProjectState, document_ids: Sequence[str] | None = None,
           ctx: RunContext | None = None, *, workers: int = 1) -> DetectReport:
    """Detect PHI in the given documents (re-detecting them), or in every imported
    document. Review decisions (accepted, rejected, manual spans) are kept."""
    ctx = ctx or RunContext()
    with state.db.read() as s:
        if document_ids is None:
            rows = repo.document_rows(s, statuses=[DocumentStatus.IMPORTED])
        else:
            rows = repo.document_rows(s, ids=document_ids)
            missing = set(document_ids) - {r.id for r in rows}
            if missing:
                raise UsageError(f"unknown document id(s): {', '.join(sorted(missing))}")
        # A table's cells are detected from its source file (engine.project.table_review).
        ids = [r.id for r in rows if not is_table_media(r.media_type)]
        tables = [r.id for r in rows if is_table_media(r.media_type)
                  and r.status != DocumentStatus.FAILED.value]
    ids = [i for i in ids if queries.has_content(state.db, i)]  # a failed import has no text
    done_tables = detect_tables(state, tables, ctx)

    only_new = document_ids is None  # another process may detect the same ones meanwhile

    def items() -> Iterable[WorkItem]:
        for doc_id in ids:
            if only_new and _status(state, doc_id) is not DocumentStatus.IMPORTED:
                skipped.append(doc_id)  # detected (or exported) by another process
                meter.step()
                continue
            doc = queries.load_document(state.db, doc_id)
            yield WorkItem(doc_id, document=doc, sha256=doc.sha256)

    meter = ProgressMeter(ctx, "detect", len(ids))
    detected: list[str] = []
    failed: list[tuple[str, str]] = []
    skipped: list[str] = []
    n_spans = 0
    cancelled = False
    try:
        for result in run_parallel(items(), total=len(ids), workers=workers,
                                   services=state.services,
                                   session_config=state.session_config(),
                                   session=state.session, ctx=ctx):
            doc_id = result.item.document_id
            with state.db.write() as s:  # BEGIN IMMEDIATE: the check and the write are one
                if only_new and repo.document_status(s, doc_id) is not DocumentStatus.IMPORTED:
                    stored = None
                    skipped.append(doc_id)
                else:
                    stored = record(state, s, result)
            if stored is not None:
                detected.append(doc_id)
                n_spans += len(result.result.spans) if result.result else 0
            elif doc_id not in skipped:
                failed.append((doc_id, result.error or "failed"))
            meter.step(failed=result.error is not None)
    except CancelledError:
        cancelled = True
    return DetectReport(done_tables.detected + tuple(detected),
                        done_tables.failed + tuple(failed), done_tables.spans + n_spans,
                        cancelled or done_tables.cancelled, tuple(skipped))


def detect_tables(state: ProjectState, ids: Sequence[str], ctx: RunContext) -> DetectReport:
    """Each table's cells detected and stored (``table_review.detect_table``)."""
    detected: list[str] = []
    failed: list[tuple[str, str]] = []
    n_spans = 0
    for doc_id in ids:
        try:
            n_spans += detect_table(state, doc_id, ctx=ctx)
        except CancelledError:
            return DetectReport(tuple(detected), tuple(failed), n_spans, True)
        except (ClearNoteError, OSError) as exc:
            failed.append((doc_id, error_reason(exc) if isinstance(exc, ClearNoteError)
                           else os_reason(exc)))
            log.warning("table %s failed detection: %s", doc_id, type(exc).__name__)
            continue
        detected.append(doc_id)
    return DetectReport(tuple(detected), tuple(failed), n_spans)


def _status(state: ProjectState, doc_id: str) -> DocumentStatus | None:
    with state.db.read() as s:
        return repo.document_status(s, doc_id)


def store_detection(state: ProjectState, s: Any, doc: Document, result: DetectionResult,
                    seconds: float, kept: tuple[Span, ...]) -> list[Span]:
    """Store a detection run beside the ``kept`` spans (a person's decisions); returns
    all the document's spans."""
    decided = {(sp.start, sp.end, sp.label) for sp in kept}
    run_id = repo.insert_row(s, table_of(RunRow), dict(
        document_id=doc.id, detectors=json.dumps(list(result.detectors)),
        policy=result.policy, span_count=len(result.spans),
        allowlisted=result.allowlisted, seconds=seconds, created_at=time.time()))
    new_spans = [sp for sp in result.spans if (sp.start, sp.end, sp.label) not in decided]
    if kept:  # a re-run may hand back ids the document's kept spans still use
        taken = {sp.id for sp in kept}
        new_spans = [sp if sp.id not in taken else replace(sp, id=new_id())
                     for sp in new_spans]
    repo.insert_rows(s, table_of(SpanRow),
                     [repo.span_values(sp, doc.id, run_id) for sp in new_spans])
    repo.audit(s, "document.detected", document_id=doc.id, count=len(new_spans),
               detectors=list(result.detectors), policy=result.policy)
    if tuple(result.detectors) != state.settings.detectors:
        state.settings = replace(state.settings, detectors=tuple(result.detectors))
        repo.put_setting(s, "project", state.settings.to_json())
    spans = list(kept) + new_spans
    spans.sort(key=lambda sp: (sp.start, sp.end, sp.id))  # as ``spans_of`` orders
    return spans
