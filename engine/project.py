"""The Project service: the API the desktop app and the CLI use for project work.

A project is one SQLite file (``*.clearnote``) holding settings, documents and their text,
spans and review decisions, patients, the surrogate registry, exports and the audit log.
Every method is safe to call from worker threads (one engine, short transactions) and
returns frozen records or domain types, never ORM rows.

    project = Project.create("study.clearnote", policy="hipaa")
    project.import_paths([Path("letters/")])
    project.detect()
    for doc in project.documents(status=DocumentStatus.DETECTED): ...
    project.set_span_status(span_id, SpanStatus.REJECTED); project.undo()
    project.export(out_dir=Path("out"))
"""

from __future__ import annotations

import csv
import hashlib
import json
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, func, select, update

from engine.batch import WorkItem, WorkResult, error_reason, run_parallel
from engine.core.context import RunContext
from engine.core.domain import (
    DeidentifiedText,
    DetectionResult,
    Document,
    Source,
    Span,
    SpanStatus,
    SurrogateMode,
)
from engine.core.errors import CancelledError, ClearNoteError, ProjectError, UsageError
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.store import migrations
from engine.store import patients as pat
from engine.store import repositories as repo
from engine.store import review
from engine.store.db import Database
from engine.store.models import (
    CireFlagRow,
    DocumentRow,
    ExportRow,
    PatientRow,
    RunRow,
    SpanRow,
    SurrogateRow,
)
from engine.store.records import (
    AuditEntry,
    DetectReport,
    DocumentRecord,
    DocumentStatus,
    ExportedDocument,
    ExportReport,
    ImportFailure,
    ImportReport,
    PatientRecord,
    PatientSuggestion,
    ReviewImportReport,
    Statistics,
)
from engine.store.review import ReviewChange

if TYPE_CHECKING:
    from engine.cire import CireReport
from engine.store.surrogate_map import StoreSurrogateMap

log = logging.getLogger(__name__)

SUFFIX = ".clearnote"
TEMP_PREFIX = ".cn-tmp-"
ACTIVE = (SpanStatus.CANDIDATE, SpanStatus.ACCEPTED)
PAGE_MEDIA = ("application/pdf", "image/")
# Output file name per format, after the stable document id (never the source name).
FORMAT_SUFFIXES: dict[str, str] = {"txt": ".deid.txt", "json": ".json",
                                   "pdf": ".redacted.pdf"}
DEFAULT_FORMATS = ("txt", "json", "pdf")  # "pdf" applies to PDF and image documents only
# Core statements built once: they run for every document of a batch.
_DOCUMENT_PATIENT = select(DocumentRow.__table__.c.patient_id).where(
    DocumentRow.__table__.c.id == bindparam("id"))


# ----------------------------------------------------------------------------- services


@dataclass(frozen=True)
class ExportJob:
    document: Document
    spans: tuple[Span, ...]
    deid: DeidentifiedText
    mode: SurrogateMode


Writer = Callable[[ExportJob, Path], None]


def default_session_factory(config: Any, mapping: Any | None) -> Any:
    from engine.api import Session

    return Session(config, mapping=mapping)


def default_loader(path: Path, *, password: str | None = None) -> Document:
    from engine.ingest import load_document

    return load_document(path, password=password)


def _write_txt(job: ExportJob, path: Path) -> None:
    from engine.exporters import write_text

    write_text(job.deid, path)


def _write_json(job: ExportJob, path: Path) -> None:
    from engine.exporters import write_json_sidecar

    write_json_sidecar(job.document, job.spans, job.deid, path)


def _write_pdf(job: ExportJob, path: Path) -> None:
    from engine.exporters import write_redacted_pdf

    source = Path(job.document.source_path or "")
    write_redacted_pdf(source, job.document, job.spans, path, surrogate=job.deid,
                       mode="redacted")


DEFAULT_WRITERS: dict[str, Writer] = {"txt": _write_txt, "json": _write_json,
                                      "pdf": _write_pdf}


@dataclass(frozen=True)
class Services:
    """What a project calls out to; replaceable in tests. Picklable (module functions),
    because batch workers rebuild their session from it."""

    session_factory: Callable[[Any, Any | None], Any] = default_session_factory
    loader: Callable[..., Document] = default_loader
    writers: Mapping[str, Writer] = field(default_factory=lambda: dict(DEFAULT_WRITERS))


# ----------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class ProjectSettings:
    """Project options shown in the settings page. The secret is not among them."""

    policy: str = "strict"
    mode: SurrogateMode = SurrogateMode.SURROGATE
    ner: bool | str = "auto"
    ner_model: str | None = None
    llm_model: str | None = None
    gazetteers: bool = True
    allowlist: bool = True
    overlap: str | None = None
    user_dictionary: tuple[tuple[str, str], ...] = ()
    export_formats: tuple[str, ...] = DEFAULT_FORMATS
    # Recorded from detection runs: "id@version" of each detector, model names → versions.
    detectors: tuple[str, ...] = ()
    model_versions: tuple[tuple[str, str], ...] = ()

    def pipeline_config(self) -> Any:
        from engine.pipeline import PipelineConfig

        kw: dict[str, Any] = dict(
            policy=self.policy, ner=self.ner, gazetteers=self.gazetteers,
            allowlist=self.allowlist,
            ner_model=Path(self.ner_model) if self.ner_model else None,
            llm_model=Path(self.llm_model) if self.llm_model else None,
            user_dictionary=tuple((t, Label(lbl)) for t, lbl in self.user_dictionary))
        if self.overlap:
            kw["overlap"] = self.overlap
        return PipelineConfig(**kw)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["mode"] = self.mode.value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProjectSettings:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in known}
        if "mode" in kw:
            kw["mode"] = SurrogateMode(kw["mode"])
        for key in ("user_dictionary", "model_versions"):
            if key in kw:
                kw[key] = tuple(tuple(x) for x in kw[key])
        for key in ("export_formats", "detectors"):
            if key in kw:
                kw[key] = tuple(kw[key])
        return cls(**kw)


def pipeline_settings(config: Any) -> dict[str, Any]:
    """ProjectSettings fields taken from a PipelineConfig."""
    return dict(
        policy=config.policy, ner=config.ner, gazetteers=config.gazetteers,
        allowlist=config.allowlist, overlap=config.overlap,
        ner_model=str(config.ner_model) if config.ner_model else None,
        llm_model=str(config.llm_model) if config.llm_model else None,
        user_dictionary=tuple((t, Label(lbl).value) for t, lbl in config.user_dictionary))


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def document_id_for_sha(sha: str) -> str:
    return sha[:16]


# ----------------------------------------------------------------------------- project


class Project:
    """One open project file. Create with ``Project.create`` or ``Project.open``."""

    def __init__(self, db: Database, *, services: Services | None = None,
                 migrated_from: Path | None = None) -> None:
        self.db = db
        self.path = db.path
        self.services = services or Services()
        self.backup_path = migrated_from  # set when opening migrated an older schema
        with db.read() as s:
            stored = repo.get_settings(s)
        if "secret" not in stored:
            raise ProjectError(f"{self.path}: project settings are missing")
        self._secret = bytes.fromhex(stored["secret"])
        self.id: str = stored.get("project_id", "")
        self._settings = ProjectSettings.from_json(stored.get("project", {}))
        self._session: Any = None
        self._session_lock = threading.Lock()
        # Surrogate generation is read-then-write on the registry: one at a time per
        # process, so two threads never invent two surrogates for one value.
        self._deid_lock = threading.Lock()
        self.surrogate_map = StoreSurrogateMap(db, self._secret)
        # fsync each output before its rename. A SIGKILL cannot lose page-cache data, so
        # this guards power loss only; without it, a resumed batch still re-exports any
        # output whose bytes no longer match the sha256 recorded (export_files_exist).
        self.durable_exports = False

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def create(cls, path: str | Path, *, policy: str = "strict",
               mode: SurrogateMode | str = SurrogateMode.SURROGATE,
               pipeline: Any | None = None, secret: bytes | None = None,
               export_formats: Sequence[str] = DEFAULT_FORMATS,
               services: Services | None = None) -> Project:
        """A new project file; ``pipeline`` (a PipelineConfig) overrides ``policy``."""
        path = Path(path)
        if path.suffix != SUFFIX:
            raise UsageError(f"{path}: a project file name ends in {SUFFIX}")
        if path.exists():
            raise UsageError(f"{path}: already exists")
        get_policy(pipeline.policy if pipeline is not None else policy)  # validate early
        path.parent.mkdir(parents=True, exist_ok=True)
        _check_formats(export_formats)
        settings = ProjectSettings(policy=policy, mode=SurrogateMode(mode),
                                   export_formats=tuple(export_formats))
        if pipeline is not None:
            settings = replace(settings, **pipeline_settings(pipeline))
        # Built under a temp name and renamed: a crash never leaves a half-made project,
        # and the next create removes what a killed one left.
        leftover = re.compile(rf"{re.escape(TEMP_PREFIX)}[0-9a-f]{{8}}-{re.escape(path.name)}"
                              r"(-wal|-shm|-journal)?")
        for stale in path.parent.iterdir():
            if leftover.fullmatch(stale.name):
                stale.unlink(missing_ok=True)
        tmp = path.with_name(f"{TEMP_PREFIX}{secrets.token_hex(4)}-{path.name}")
        db = Database(tmp)
        try:
            migrations.create_latest(db.engine)
            with db.write() as s:
                repo.put_setting(s, "project_id", secrets.token_hex(8))
                repo.put_setting(s, "created_at", time.time())
                repo.put_setting(s, "secret", (secret or secrets.token_bytes(32)).hex())
                repo.put_setting(s, "project", settings.to_json())
                repo.audit(s, "project.created", policy=settings.policy,
                           mode=settings.mode.value)
            db.close()  # checkpoints and removes the WAL, so one file is renamed
            os.replace(tmp, path)
        except BaseException:
            db.close()
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                leftover.unlink(missing_ok=True)
            raise
        return cls(Database(path), services=services)

    @classmethod
    def open(cls, path: str | Path, *, services: Services | None = None) -> Project:
        """Open a project; an older schema is backed up, then migrated."""
        path = Path(path)
        if not path.is_file():
            raise UsageError(f"{path}: no such project file")
        db = Database(path)
        try:
            saved = migrations.migrate(db.engine, path)
            project = cls(db, services=services, migrated_from=saved)
            with db.write() as s:
                repo.audit(s, "project.opened", schema=migrations.LATEST,
                           migrated=saved is not None)
        except BaseException:
            db.close()
            raise
        return project

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ------------------------------------------------------------------ settings

    @property
    def settings(self) -> ProjectSettings:
        return self._settings

    def update_settings(self, **changes: Any) -> ProjectSettings:
        """Change project options; audited by key (values may name people or places)."""
        known = {f.name for f in fields(ProjectSettings)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise UsageError(f"unknown project setting(s): {', '.join(unknown)}")
        if "policy" in changes:
            get_policy(changes["policy"])
        if "mode" in changes:
            changes["mode"] = SurrogateMode(changes["mode"])
        if "export_formats" in changes:
            _check_formats(changes["export_formats"])
            changes["export_formats"] = tuple(changes["export_formats"])
        if "user_dictionary" in changes:
            changes["user_dictionary"] = tuple((str(t), Label(lbl).value)
                                               for t, lbl in changes["user_dictionary"])
        new = replace(self._settings, **changes)
        changed = sorted(k for k in changes if getattr(new, k) != getattr(self._settings, k))
        if not changed:
            return self._settings
        with self.db.write() as s:
            repo.put_setting(s, "project", new.to_json())
            repo.audit(s, "settings.changed", count=len(changed), keys=changed)
        self._settings = new
        with self._session_lock:
            self._session = None  # rebuilt with the new pipeline on next use
        return new

    def session_config(self) -> Any:
        from engine.api import SessionConfig

        return SessionConfig(pipeline=self._settings.pipeline_config(),
                             mode=self._settings.mode, secret=self._secret)

    @property
    def session(self) -> Any:
        """The loaded pipeline + a surrogator backed by this project's registry."""
        with self._session_lock:
            if self._session is None:
                self._session = self.services.session_factory(self.session_config(),
                                                               self.surrogate_map)
            return self._session

    # ------------------------------------------------------------------ import

    file_sha256 = staticmethod(file_sha256)

    def import_paths(self, paths: Iterable[str | Path], ctx: RunContext | None = None, *,
                     workers: int = 1, password: str | None = None) -> ImportReport:
        """Import files and folders (supported types, recursively). Files already in the
        project (same sha256) are skipped; unreadable ones are recorded as failed with the
        reason and the batch goes on."""
        from engine.deid_files import collect_inputs

        ctx = ctx or RunContext()
        files = collect_inputs([Path(p) for p in paths])
        known = {d.sha256: d.id for d in self.documents()}
        items: list[WorkItem] = []
        duplicates: list[str] = []
        for path in files:
            ctx.check()
            sha = file_sha256(path)
            if sha in known:
                duplicates.append(known[sha])
                continue
            known[sha] = document_id_for_sha(sha)
            items.append(WorkItem(document_id_for_sha(sha), path=str(path), sha256=sha,
                                  password=password, detect=False))
        imported: list[str] = []
        failed: list[ImportFailure] = []
        from engine.batch import ProgressMeter

        meter = ProgressMeter(ctx, "import", len(items))
        cancelled = False
        try:
            for result in run_parallel(items, total=len(items), workers=workers,
                                       services=self.services,
                                       session_config=None, session=None, ctx=ctx):
                ok = self.record_work_result(result)
                if ok:
                    imported.append(result.item.document_id)
                else:
                    failed.append(ImportFailure(Path(result.item.path or ""),
                                                result.error or "failed"))
                meter.step(failed=not ok)
        except CancelledError:
            cancelled = True
        return ImportReport(tuple(imported), tuple(duplicates), tuple(failed), cancelled)

    def record_work_result(self, result: WorkResult) -> bool:
        """Store what a worker produced (import and/or detection) in one transaction.
        Returns False when the document failed (recorded with its reason)."""
        with self.db.write() as s:
            return self._record(s, result) is not None

    @contextmanager
    def write_group(self, *, max_documents: int = 32, max_seconds: float = 0.25
                    ) -> Iterator[WriteGroup]:
        """A ``WriteGroup`` for this thread, committed on exit, also on an error: a document
        that failed midway was rolled back to its savepoint, the others are complete."""
        group = WriteGroup(self, max_documents=max_documents, max_seconds=max_seconds)
        try:
            yield group
        finally:
            group.commit()

    def _record(self, s: Any, result: WorkResult) -> tuple[str | None, list[Span]] | None:
        """Store a worker's result in ``s``: the document's patient and spans, or None when
        the document failed (recorded with its reason)."""
        item = result.item
        known = s.execute(_DOCUMENT_PATIENT, {"id": item.document_id}).first()
        if known is not None:
            return self._record_known(s, result, known.patient_id)
        doc = result.document
        if result.load_failed or doc is None:
            repo.add_failed_document(
                s, document_id=item.document_id, file_sha256=item.sha256,
                source_path=item.path or "", media_type=_guess_media(item.path),
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
            keys = pat.identifier_keys(doc, result.result.spans, self._secret)
            patient, created = pat.find_patient(s, doc.id, keys)
            if created:
                self.surrogate_map.known_empty(patient)
        status = DocumentStatus.DETECTED if result.result is not None else \
            DocumentStatus.IMPORTED
        repo.add_document(s, doc, file_sha256=item.sha256, source_path=item.path or "",
                          status=status, patient_id=patient)
        repo.audit(s, "document.imported", document_id=doc.id, count=len(doc.text),
                   media_type=doc.media_type)
        if result.result is None:
            return self._record_known(s, result, None)  # a detection failure, or import only
        pat.store_keys(s, doc.id, keys, replace=False)
        return patient, self._store_detection(s, doc, result.result, result.seconds, ())

    def _record_known(self, s: Any, result: WorkResult, patient: str | None
                      ) -> tuple[str | None, list[Span]] | None:
        """``_record`` for a document already in the project (imported, or re-detected)."""
        item, doc = result.item, result.document
        if result.result is not None and doc is not None:
            # Keep decisions a person made; replace machine candidates from earlier runs.
            kept = tuple(sp for sp in repo.spans_of(s, doc.id)
                         if sp.source is Source.MANUAL
                         or sp.status in (SpanStatus.ACCEPTED, SpanStatus.REJECTED))
            s.execute(delete(SpanRow).where(SpanRow.document_id == doc.id,
                                            SpanRow.id.not_in([sp.id for sp in kept])))
            repo.update_document_status(s, doc.id, DocumentStatus.DETECTED)
            keys = pat.identifier_keys(doc, result.result.spans, self._secret)
            patient, created = pat.store_keys_and_link(s, doc.id, keys, patient_id=patient)
            if created:
                self.surrogate_map.known_empty(patient)
            return patient, self._store_detection(s, doc, result.result, result.seconds, kept)
        if result.error is not None and not result.load_failed:
            repo.update_document_status(s, item.document_id, DocumentStatus.FAILED,
                                        result.error)
            repo.audit(s, "document.failed", document_id=item.document_id,
                       stage="detect", error=result.error.split(":")[0])
            log.warning("document %s failed detection: %s", item.document_id,
                        result.error.split(":")[0])
            return None
        return patient, []

    # ------------------------------------------------------------------ detection

    def detect(self, document_ids: Sequence[str] | None = None,
               ctx: RunContext | None = None, *, workers: int = 1) -> DetectReport:
        """Detect PHI in the given documents (re-detecting them), or in every imported
        document. Review decisions (accepted, rejected, manual spans) are kept."""
        from engine.batch import ProgressMeter

        ctx = ctx or RunContext()
        with self.db.read() as s:
            if document_ids is None:
                rows = repo.document_rows(s, statuses=[DocumentStatus.IMPORTED])
            else:
                rows = repo.document_rows(s, ids=document_ids)
                missing = set(document_ids) - {r.id for r in rows}
                if missing:
                    raise UsageError(f"unknown document id(s): {', '.join(sorted(missing))}")
            ids = [r.id for r in rows]
        ids = [i for i in ids if self._has_content(i)]  # a failed import has no text

        def items() -> Iterable[WorkItem]:
            for doc_id in ids:
                doc = self.load_document(doc_id)
                yield WorkItem(doc_id, document=doc, sha256=doc.sha256)

        meter = ProgressMeter(ctx, "detect", len(ids))
        detected: list[str] = []
        failed: list[tuple[str, str]] = []
        n_spans = 0
        cancelled = False
        try:
            for result in run_parallel(items(), total=len(ids), workers=workers,
                                       services=self.services,
                                       session_config=self.session_config(),
                                       session=self.session, ctx=ctx):
                if self.record_work_result(result):
                    detected.append(result.item.document_id)
                    n_spans += len(result.result.spans) if result.result else 0
                else:
                    failed.append((result.item.document_id, result.error or "failed"))
                meter.step(failed=result.error is not None)
        except CancelledError:
            cancelled = True
        return DetectReport(tuple(detected), tuple(failed), n_spans, cancelled)

    def _has_content(self, document_id: str) -> bool:
        from engine.store.models import ContentRow

        with self.db.read() as s:
            return s.get(ContentRow, document_id) is not None

    def _store_detection(self, s: Any, doc: Document, result: DetectionResult,
                         seconds: float, kept: tuple[Span, ...]) -> list[Span]:
        """Store a detection run beside the ``kept`` spans (a person's decisions); returns
        all the document's spans."""
        decided = {(sp.start, sp.end, sp.label) for sp in kept}
        run_id = repo.insert_row(s, RunRow.__table__, dict(
            document_id=doc.id, detectors=json.dumps(list(result.detectors)),
            policy=result.policy, span_count=len(result.spans),
            allowlisted=result.allowlisted, seconds=seconds, created_at=time.time()))
        new_spans = [sp for sp in result.spans if (sp.start, sp.end, sp.label) not in decided]
        if kept:  # a re-run may hand back ids the document's kept spans still use
            taken = {sp.id for sp in kept}
            new_spans = [sp if sp.id not in taken else replace(sp, id=_new_span_id())
                         for sp in new_spans]
        repo.insert_rows(s, SpanRow.__table__,
                         [repo.span_values(sp, doc.id, run_id) for sp in new_spans])
        repo.audit(s, "document.detected", document_id=doc.id, count=len(new_spans),
                   detectors=list(result.detectors), policy=result.policy)
        if tuple(result.detectors) != self._settings.detectors:
            self._settings = replace(self._settings, detectors=tuple(result.detectors))
            repo.put_setting(s, "project", self._settings.to_json())
        spans = list(kept) + new_spans
        spans.sort(key=lambda sp: (sp.start, sp.end, sp.id))  # as ``spans_of`` orders
        return spans

    # ------------------------------------------------------------------ queries

    def documents(self, *, status: DocumentStatus | Iterable[DocumentStatus] | None = None,
                  patient_id: str | None = None, ids: Iterable[str] | None = None
                  ) -> list[DocumentRecord]:
        statuses = [status] if isinstance(status, DocumentStatus) else status
        with self.db.read() as s:
            rows = repo.document_rows(s, ids=ids, statuses=statuses)
            records = [repo.document_record(r) for r in rows]
        if patient_id is not None:
            records = [r for r in records if r.patient_id == patient_id]
        return records

    def document(self, document_id: str) -> DocumentRecord:
        with self.db.read() as s:
            row = s.get(DocumentRow, document_id)
            if row is None:
                raise UsageError(f"unknown document id {document_id}")
            return repo.document_record(row)

    def load_document(self, document_id: str) -> Document:
        with self.db.read() as s:
            doc = repo.load_document(s, document_id)
        if doc is None:
            raise UsageError(f"document {document_id} has no extracted text")
        return doc

    def document_text(self, document_id: str) -> str:
        return self.load_document(document_id).text

    def spans(self, document_id: str, *, statuses: Iterable[SpanStatus] | None = None
              ) -> list[Span]:
        with self.db.read() as s:
            spans = repo.spans_of(s, document_id)
        if statuses is not None:
            wanted = set(statuses)
            spans = [sp for sp in spans if sp.status in wanted]
        return spans

    def span(self, span_id: str) -> tuple[str, Span]:
        """(document id, span)."""
        with self.db.read() as s:
            row = s.get(SpanRow, span_id)
            if row is None:
                raise UsageError(f"unknown span id {span_id}")
            return row.document_id, repo.to_span(row)

    def audit_log(self, *, document_id: str | None = None,
                  actions: Sequence[str] | None = None) -> list[AuditEntry]:
        with self.db.read() as s:
            return repo.audit_entries(s, document_id=document_id, actions=actions)

    # ------------------------------------------------------------------ review

    def set_span_status(self, span_id: str, status: SpanStatus | str) -> Span:
        status = SpanStatus(status)
        _check_review_status(status)
        with self.db.write() as s:
            row = _span_row(s, span_id)
            action = review.PendingAction(f"span.{status.value.lower()}", [], [])
            review.change_status(s, action, row, status)
            review.record(s, action)
            return repo.to_span(row)

    def set_status_all_occurrences(self, span_id: str, status: SpanStatus | str, *,
                                   scope: str = "document") -> int:
        """Give ``status`` to every span covering the same text (case-insensitive) in the
        document or the project. Accepting also adds manual spans where the text occurs
        as a whole word but no active span covers it. One undoable action; returns the
        number of spans changed or added."""
        status = SpanStatus(status)
        _check_review_status(status)
        if scope not in ("document", "project"):
            raise UsageError(f"scope must be 'document' or 'project', not {scope!r}")
        with self.db.write() as s:
            origin = _span_row(s, span_id)
            origin_doc = repo.load_document(s, origin.document_id)
            assert origin_doc is not None
            needle = origin_doc.text[origin.start:origin.end].casefold()
            doc_ids = ([origin.document_id] if scope == "document"
                       else list(s.scalars(select(DocumentRow.id))))
            action = review.PendingAction(f"occurrences.{status.value.lower()}", [], [])
            for doc_id in doc_ids:
                doc = origin_doc if doc_id == origin.document_id else \
                    repo.load_document(s, doc_id)
                if doc is None:
                    continue
                rows = list(s.scalars(select(SpanRow).where(SpanRow.document_id == doc_id)))
                for row in rows:
                    if row.status != SpanStatus.SUPERSEDED.value and \
                            doc.text[row.start:row.end].casefold() == needle:
                        review.change_status(s, action, row, status, via=f"all-{scope}")
                if status is SpanStatus.ACCEPTED:
                    active = [(r.start, r.end) for r in rows
                              if r.status in (SpanStatus.CANDIDATE.value,
                                              SpanStatus.ACCEPTED.value)]
                    for start, end in _whole_word_occurrences(doc.text, needle):
                        if any(a < end and start < b for a, b in active):
                            continue
                        span = Span(start, end, Label(origin.label), source=Source.MANUAL,
                                    detector="review.occurrence@1",
                                    status=SpanStatus.ACCEPTED, subtype=origin.subtype)
                        review.add_span(s, action, span, doc_id, via=f"all-{scope}")
            review.record(s, action)
            return len(action.sets) + len(action.adds)

    def add_manual_span(self, document_id: str, start: int, end: int, label: Label | str, *,
                        subtype: str | None = None) -> Span:
        with self.db.write() as s:
            doc = repo.load_document(s, document_id)
            if doc is None:
                raise UsageError(f"unknown document id {document_id}")
            if not (0 <= start < end <= len(doc.text)):
                raise UsageError(f"span [{start}, {end}) is outside document {document_id}")
            span = Span(start, end, Label(label), source=Source.MANUAL, detector="manual@1",
                        status=SpanStatus.ACCEPTED, subtype=subtype)
            action = review.PendingAction("span.added", [], [])
            review.add_span(s, action, span, document_id)
            review.record(s, action)
            return span

    def apply_review_decisions(self, decisions: Mapping[str, Sequence[Any]]
                               ) -> ReviewImportReport:
        """Apply review decisions (``review_io.Decision`` per document); see review_io."""
        accepted = rejected = added = 0
        unknown: list[str] = []
        with self.db.write() as s:
            action = review.PendingAction("review.import", [], [])
            for doc_id, items in decisions.items():
                doc = repo.load_document(s, doc_id)
                if doc is None:
                    unknown.append(doc_id)
                    continue
                rows = {r.id: r for r in s.scalars(select(SpanRow).where(
                    SpanRow.document_id == doc_id))}
                listed: set[str] = set()
                for d in items:
                    if not (0 <= d.start < d.end <= len(doc.text)):
                        raise UsageError(f"document {doc_id}: span [{d.start}, {d.end}) is "
                                         "outside the text")
                    row = rows.get(d.span_id or "")
                    if row is not None and (row.start, row.end, row.label) == \
                            (d.start, d.end, d.label.value):
                        listed.add(row.id)
                        before = len(action.sets)
                        review.change_status(s, action, row, d.status, via="import")
                        if len(action.sets) > before:
                            accepted += d.status is SpanStatus.ACCEPTED
                            rejected += d.status is SpanStatus.REJECTED
                        continue
                    span = Span(d.start, d.end, d.label, source=Source.MANUAL,
                                detector="review.import@1", status=d.status,
                                subtype=d.subtype)
                    review.add_span(s, action, span, doc_id, via="import")
                    added += 1
                for row in rows.values():
                    if row.id not in listed and row.status in (
                            SpanStatus.CANDIDATE.value, SpanStatus.ACCEPTED.value):
                        review.change_status(s, action, row, SpanStatus.REJECTED, via="import")
                        rejected += 1
            review.record(s, action)
            repo.audit(s, "review.imported", count=len(decisions) - len(unknown),
                       accepted=accepted, rejected=rejected, added=added)
        return ReviewImportReport(len(decisions) - len(unknown), accepted, rejected, added,
                                  tuple(unknown))

    def mark_reviewed(self, document_id: str) -> DocumentRecord:
        with self.db.write() as s:
            row = s.get(DocumentRow, document_id)
            if row is None:
                raise UsageError(f"unknown document id {document_id}")
            if row.status not in (DocumentStatus.DETECTED.value,
                                  DocumentStatus.EXPORTED.value):
                raise UsageError(f"document {document_id} is {row.status}, not detected")
            undecided = int(s.scalar(select(func.count()).select_from(SpanRow).where(
                SpanRow.document_id == document_id,
                SpanRow.status == SpanStatus.CANDIDATE.value)) or 0)
            repo.set_document_status(s, document_id, DocumentStatus.REVIEWED)
            repo.audit(s, "document.reviewed", document_id=document_id, count=undecided)
            return repo.document_record(row)

    def undo(self) -> ReviewChange | None:
        with self.db.write() as s:
            return review.undo(s)

    def redo(self) -> ReviewChange | None:
        with self.db.write() as s:
            return review.redo(s)

    @property
    def can_undo(self) -> bool:
        with self.db.read() as s:
            return review.can_undo(s)

    @property
    def can_redo(self) -> bool:
        with self.db.read() as s:
            return review.can_redo(s)

    # ------------------------------------------------------------------ surrogates

    def patient_key(self, document_id: str) -> str:
        """The surrogate and date-shift scope of a document: its patient, or one shared
        project-wide scope for documents without a patient."""
        with self.db.read() as s:
            row = s.get(DocumentRow, document_id)
            return (row.patient_id if row is not None and row.patient_id
                    else pat.DEFAULT_PATIENT)

    def deidentify(self, document_id: str) -> DeidentifiedText:
        doc = self.load_document(document_id)
        active = tuple(self.spans(document_id, statuses=ACTIVE))
        with self._deid_lock:
            return self.session.deidentify(doc, active, patient=self.patient_key(document_id))

    def retention(self, document_id: str,
                  deid: DeidentifiedText | None = None) -> CireReport:
        """CIRE on the document as it would be exported now (pass ``deid`` when the caller
        has just de-identified it); the flags replace the document's previous ones in the
        project (ids, reasons and offsets only, no text)."""
        from engine.cire import assess

        if deid is None:
            deid = self.deidentify(document_id)
        report = assess(self.load_document(document_id), deid,
                        policy=get_policy(self.settings.policy))
        now = time.time()
        with self.db.write() as s:
            s.execute(delete(CireFlagRow).where(CireFlagRow.document_id == document_id))
            s.add_all(CireFlagRow(document_id=document_id, span_id=f.replacement_span_id,
                                  severity=f.severity.value, kind=f.reason.value,
                                  detail=json.dumps(f.to_json()), created_at=now)
                      for f in report.flags)
        return report

    def cire_flag_counts(self) -> dict[str, dict[str, int]]:
        """Stored CIRE flags per document and severity (from the last ``retention`` run)."""
        counts: dict[str, dict[str, int]] = {}
        with self.db.read() as s:
            rows = s.execute(select(CireFlagRow.document_id, CireFlagRow.severity,
                                    func.count()).group_by(CireFlagRow.document_id,
                                                           CireFlagRow.severity))
            for doc_id, severity, n in rows:
                counts.setdefault(doc_id, {})[severity] = n
        return counts

    def surrogate_preview(self, span_id: str) -> str:
        """What this span will read as in the export (the surrogate is registered now, so
        the export shows the same value)."""
        doc_id, span = self.span(span_id)
        doc = self.load_document(doc_id)
        with self._deid_lock:
            deid = self.session.deidentify(doc, [span], patient=self.patient_key(doc_id))
        for rep in deid.replacements:
            if rep.span_id == span.id:
                return deid.text[rep.output_start:rep.output_end]
        return deid.text[span.start:span.end + len(deid.text) - len(doc.text)]

    # ------------------------------------------------------------------ patients

    def patients(self) -> list[PatientRecord]:
        with self.db.read() as s:
            return pat.patient_records(s)

    def patient_suggestions(self) -> list[PatientSuggestion]:
        with self.db.read() as s:
            return pat.suggestions(s)

    def create_patient(self, name: str | None = None) -> PatientRecord:
        """A new patient; ``name`` is a pseudonymous label (not the person's name)."""
        with self.db.write() as s:
            patient_id = pat.new_patient(s)
            if name:
                s.execute(update(PatientRow).where(PatientRow.id == patient_id)
                          .values(name=name))
            repo.audit(s, "patient.created", patient=patient_id)
            return PatientRecord(patient_id, name or patient_id, (), True)

    def assign_patient(self, document_ids: Iterable[str], patient_id: str | None) -> None:
        """A person's decision: these documents belong to this patient (None: to none)."""
        ids = list(document_ids)
        with self.db.write() as s:
            if patient_id is not None and s.get(PatientRow, patient_id) is None:
                raise UsageError(f"unknown patient id {patient_id}")
            for doc_id in ids:
                row = s.get(DocumentRow, doc_id)
                if row is None:
                    raise UsageError(f"unknown document id {doc_id}")
                row.patient_id = patient_id
                row.patient_confirmed = patient_id is not None
                repo.audit(s, "patient.assigned", document_id=doc_id, patient=patient_id)

    def confirm_patient(self, document_id: str) -> None:
        with self.db.write() as s:
            row = s.get(DocumentRow, document_id)
            if row is None or row.patient_id is None:
                raise UsageError(f"document {document_id} has no patient link to confirm")
            row.patient_confirmed = True
            repo.audit(s, "patient.confirmed", document_id=document_id, patient=row.patient_id)

    # ------------------------------------------------------------------ export

    def export(self, document_ids: Sequence[str] | None = None, *, out_dir: str | Path,
               formats: Sequence[str] | None = None, ctx: RunContext | None = None,
               mapping: bool = True) -> ExportReport:
        """Write de-identified files named ``<document id><suffix>``. Without ids, every
        reviewed (or previously exported) document. Files appear only complete (temp file
        + rename); a document is marked exported after all its files exist."""
        from engine.batch import ProgressMeter

        ctx = ctx or RunContext()
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        formats = tuple(formats or self._settings.export_formats)
        _check_formats(formats)
        if document_ids is None:
            document_ids = [d.id for d in self.documents(
                status=[DocumentStatus.REVIEWED, DocumentStatus.EXPORTED])]
        meter = ProgressMeter(ctx, "export", len(document_ids))
        exported: list[ExportedDocument] = []
        failed: list[tuple[str, str]] = []
        cancelled = False
        for doc_id in document_ids:
            if ctx.cancel.cancelled:
                cancelled = True
                break
            try:
                exported.append(self._export_document(doc_id, out, formats))
                ok = True
            except (ClearNoteError, OSError) as exc:
                ok = False
                failed.append((doc_id, error_reason(exc)))
                log.warning("document %s export failed: %s", doc_id, type(exc).__name__)
            meter.step(failed=not ok)
        csv_path = self.write_mapping_csv(out) if mapping else None
        return ExportReport(out, tuple(exported), tuple(failed), csv_path, cancelled)

    def _export_document(self, doc_id: str, out: Path, formats: tuple[str, ...]
                         ) -> ExportedDocument:
        with self.db.read() as s:  # one read transaction for all the inputs
            row = s.get(DocumentRow, doc_id)
            if row is None:
                raise UsageError(f"unknown document id {doc_id}")
            status = DocumentStatus(row.status)
            patient = row.patient_id
            doc = repo.load_document(s, doc_id)
            active = tuple(sp for sp in repo.spans_of(s, doc_id) if sp.status in ACTIVE)
        if doc is None or status not in (DocumentStatus.DETECTED, DocumentStatus.REVIEWED,
                                         DocumentStatus.EXPORTED):
            # Fail closed: an undetected document would go out with its PHI.
            raise ProjectError(f"document {doc_id} is {status.value}; detect first")
        with self._exporting(), self.db.write() as s:
            self.surrogate_map.sync(s)
            exported = self._export_in(s, doc, active, patient, out, formats)
            self.surrogate_map.mark_seen(s)
            return exported

    @contextmanager
    def _exporting(self) -> Iterator[None]:
        """Hold the deidentify lock around an export. Surrogates an export invents are
        cached at once (``surrogate_map.defer``) and stored with the export's record; when
        the export fails, they are stored on their own, because the cache may already
        have handed them to another document."""
        with self._deid_lock:
            try:
                yield
            except BaseException:
                pending = self.surrogate_map.take_pending()
                if pending:
                    with self.db.write() as s:
                        self.surrogate_map.sync(s)
                        self.surrogate_map.store_pending(s, pending)
                        self.surrogate_map.mark_seen(s)
                raise
            self.surrogate_map.take_pending()  # committed with the export

    def _export_in(self, s: Any, doc: Document, active: tuple[Span, ...],
                   patient: str | None, out: Path, formats: tuple[str, ...]
                   ) -> ExportedDocument:
        """De-identify, write the files, and record them in ``s`` (a write transaction
        inside ``_exporting``). The document is marked exported in the same transaction
        that records its files, after every file exists under its final name."""
        with self.surrogate_map.defer():
            deid = self.session.deidentify(doc, active,
                                           patient=patient or pat.DEFAULT_PATIENT)
        written = self._write_files(doc, active, deid, out, formats)
        self.surrogate_map.store_pending(s, self.surrogate_map.peek_pending())
        now = time.time()
        repo.insert_rows(s, ExportRow.__table__,
                         [dict(document_id=doc.id, path=str(target.resolve()), format=fmt,
                               sha256=sha, created_at=now) for fmt, target, sha in written])
        repo.update_document_status(s, doc.id, DocumentStatus.EXPORTED)
        repo.audit(s, "document.exported", document_id=doc.id, count=len(written),
                   formats=[f for f, _, _ in written], spans=len(active),
                   mode=self._settings.mode.value)
        return ExportedDocument(doc.id, tuple(t for _, t, _ in written))

    def _write_files(self, doc: Document, active: tuple[Span, ...], deid: DeidentifiedText,
                     out: Path, formats: tuple[str, ...]) -> list[tuple[str, Path, str]]:
        """Write every format to a temp file, then rename them all: when one format fails,
        no file of this export appears, and an earlier export's files stay as they were."""
        job = ExportJob(doc, active, deid, self._settings.mode)
        staged: list[tuple[str, Path, Path]] = []
        try:
            for fmt in _formats_for(doc, formats):
                target = out / f"{doc.id}{FORMAT_SUFFIXES[fmt]}"
                tmp = out / f"{TEMP_PREFIX}{secrets.token_hex(4)}-{target.name}"
                staged.append((fmt, target, tmp))
                self.services.writers[fmt](job, tmp)
                if self.durable_exports:
                    _fsync(tmp)
            written = [(fmt, target, file_sha256(tmp)) for fmt, target, tmp in staged]
            for _, target, tmp in staged:
                os.replace(tmp, target)
        finally:
            for _, _, tmp in staged:
                tmp.unlink(missing_ok=True)
        return written

    def export_files_exist(self, document_id: str, out_dir: Path,
                           formats: Sequence[str] | None = None) -> bool:
        """Every expected output of the document is in ``out_dir`` with the bytes that
        were recorded when it was exported."""
        doc = self.document(document_id)
        fmts = tuple(formats or self._settings.export_formats)
        wanted = [out_dir / f"{document_id}{FORMAT_SUFFIXES[f]}" for f in fmts
                  if f != "pdf" or doc.media_type.startswith(PAGE_MEDIA)]
        with self.db.read() as s:
            recorded = {p: sha for p, sha in s.execute(
                select(ExportRow.path, ExportRow.sha256).where(
                    ExportRow.document_id == document_id).order_by(ExportRow.id))}
        for path in wanted:
            sha = recorded.get(str(path.resolve()))
            if sha is None or not path.is_file() or file_sha256(path) != sha:
                return False
        return True

    @staticmethod
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

    def write_mapping_csv(self, out_dir: Path) -> Path:
        """``mapping.csv``: document id → source file, status, outputs in this folder.
        It names source files (which may hold names): keep it with the originals."""
        out = Path(out_dir)
        path = out / "mapping.csv"
        resolved = str(out.resolve())
        with self.db.read() as s:
            docs = repo.document_rows(s)
            files: dict[str, list[str]] = {}
            for doc_id, p in s.execute(select(ExportRow.document_id, ExportRow.path)):
                if str(Path(p).parent) == resolved:
                    files.setdefault(doc_id, []).append(Path(p).name)
        tmp = out / f"{TEMP_PREFIX}mapping.csv"
        with tmp.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["document_id", "source", "status", "outputs", "reason"])
            for d in docs:
                names = sorted(set(files.get(d.id, [])))
                writer.writerow([d.id, d.source_path, d.status, ";".join(names),
                                 d.reason or ""])
        os.replace(tmp, path)
        return path

    # ------------------------------------------------------------------ statistics

    def statistics(self) -> Statistics:
        with self.db.read() as s:
            by_status = repo.count_by(s, DocumentRow.status)
            spans_by_status = repo.count_by(s, SpanRow.status)
            spans_by_label = repo.count_by(s, SpanRow.label, SpanRow.status.in_(
                [st.value for st in ACTIVE]))

            def n(model: Any) -> int:
                return int(s.scalar(select(func.count()).select_from(model)) or 0)

            chars = int(s.scalar(select(func.coalesce(func.sum(DocumentRow.char_count), 0)))
                        or 0)
            return Statistics(documents=sum(by_status.values()), by_status=by_status,
                              spans_by_status=spans_by_status, spans_by_label=spans_by_label,
                              patients=n(PatientRow), surrogates=n(SurrogateRow),
                              exports=n(ExportRow), characters=chars)

    def integrity_check(self) -> str:
        return self.db.integrity_check()


# ----------------------------------------------------------------------------- helpers


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

    def __init__(self, project: Project, *, max_documents: int, max_seconds: float) -> None:
        self.project = project
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
        project = self.project
        formats = tuple(formats or project.settings.export_formats)
        _check_formats(formats)
        out_dir.mkdir(parents=True, exist_ok=True)
        s = self._open()
        self._documents += 1
        if result.result is None or result.document is None:
            with s.begin_nested():
                project._record(s, result)
            return None
        try:
            with s.begin_nested():
                recorded = project._record(s, result)
                if recorded is None:  # not reached: a detected document is no failure
                    return None
                patient, spans = recorded
                active = tuple(sp for sp in spans if sp.status in ACTIVE)
                return project._export_in(s, result.document, active, patient, out_dir,
                                          formats)
        except Exception:
            # The savepoint rolled back. Keep the detection, as the two-step path would,
            # and the surrogates the cache may already have handed to other documents.
            with s.begin_nested():
                project.surrogate_map.store_pending(s, project.surrogate_map.take_pending())
                project._record(s, result)
            raise
        finally:
            project.surrogate_map.take_pending()  # stored in the group's transaction

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
                self.project.surrogate_map.mark_seen(session)
            finally:
                stack.close()  # commits, then releases the locks
        except BaseException:
            # Nothing of the group was stored: surrogates cached meanwhile are unknown to
            # the registry, so the cache is read again from the file.
            self.project.surrogate_map.forget()
            raise

    def _open(self) -> Any:
        if self._session is None:
            with ExitStack() as stack:
                stack.enter_context(self.project._deid_lock)
                self._session = stack.enter_context(self.project.db.write())
                # Another process may have stored surrogates since the cache was filled.
                self.project.surrogate_map.sync(self._session)
                self._stack = stack.pop_all()
            self._opened, self._documents = time.monotonic(), 0
        return self._session


def _new_span_id() -> str:
    from engine.core.domain import new_id

    return new_id()


def _span_row(s: Any, span_id: str) -> SpanRow:
    row = s.get(SpanRow, span_id)
    if row is None:
        raise UsageError(f"unknown span id {span_id}")
    return row


def _check_review_status(status: SpanStatus) -> None:
    if status not in (SpanStatus.ACCEPTED, SpanStatus.REJECTED, SpanStatus.CANDIDATE):
        raise UsageError(f"a reviewer sets ACCEPTED, REJECTED or CANDIDATE, not {status}")


def _check_formats(formats: Iterable[str]) -> None:
    unknown = sorted(set(formats) - set(FORMAT_SUFFIXES))
    if unknown:
        raise UsageError(f"unknown export format(s): {', '.join(unknown)} "
                         f"(known: {', '.join(FORMAT_SUFFIXES)})")


def _formats_for(doc: Document, formats: tuple[str, ...]) -> list[str]:
    return [f for f in formats if f != "pdf" or doc.media_type.startswith(PAGE_MEDIA)]


def _whole_word_occurrences(text: str, needle_folded: str) -> list[tuple[int, int]]:
    if not needle_folded.strip():
        return []
    pattern = re.compile(r"(?<!\w)" + re.escape(needle_folded) + r"(?!\w)", re.IGNORECASE)
    return [(m.start(), m.end()) for m in pattern.finditer(text)
            if len(m.group()) == len(needle_folded)]


def _guess_media(path: str | None) -> str:
    import mimetypes

    return (mimetypes.guess_type(path or "")[0] or "application/octet-stream")


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f"{TEMP_PREFIX}{secrets.token_hex(4)}-{path.name}")
    try:
        tmp.write_text(text, encoding="utf-8", newline="")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _fsync(path: Path) -> None:
    # The rename must not reach the disk before the data: a power cut would leave an
    # empty file under the final name.
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ----------------------------------------------------------------------------- evaluation


def evaluate_project(project: Project, gold_dir: str | Path, **options: Any) -> Any:
    """Score the project's active spans against gold annotations in ``gold_dir``: gold JSONL
    files (``{"id","text","spans"}``) and/or BRAT pairs (``X.txt`` + ``X.ann``). A gold
    document matches a project document by id, else by identical text. ``options`` go to
    ``engine.evaluation.evaluate``; returns its ``EvaluationReport``."""
    from engine.core.domain import sha256_text
    from engine.evaluation import GoldDocument, GoldSpan, PredictedSpan, Prediction, evaluate
    from engine.evaluation import load_gold

    folder = Path(gold_dir)
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder of gold annotations")
    gold: list[GoldDocument] = []
    for path in sorted(folder.glob("*.jsonl")):
        gold += load_gold(path)
    for ann in sorted(folder.glob("*.ann")):
        from engine.store.review_io import read_brat

        txt = ann.with_suffix(".txt")
        if not txt.is_file():
            raise UsageError(f"{ann}: the matching .txt file is missing")
        text = txt.read_text(encoding="utf-8")
        spans = tuple(sorted((GoldSpan(d.start, d.end, d.label, d.label.value)
                              for d in read_brat(ann)), key=lambda g: (g.start, g.end)))
        gold.append(GoldDocument(ann.stem, text, spans))
    if not gold:
        raise UsageError(f"{folder}: no *.jsonl or *.ann gold files")
    by_text = {}
    for record in project.documents():
        if record.char_count:
            by_text[sha256_text(project.document_text(record.id))] = record.id
    known = {d.id for d in project.documents()}
    predictions: dict[str, Prediction] = {}
    for g in gold:
        doc_id = g.id if g.id in known else by_text.get(sha256_text(g.text))
        if doc_id is None:
            continue
        spans = {PredictedSpan(s.start, s.end, s.label)
                 for s in project.spans(doc_id, statuses=ACTIVE)}
        predictions[g.id] = Prediction(g.id, tuple(sorted(
            spans, key=lambda p: (p.start, p.end, p.label))))
    return evaluate(gold, predictions, **options)
