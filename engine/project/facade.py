"""The Project service: the API the desktop app and the CLI use for project work.

A project is one SQLite file (``*.clearnote``) holding settings, documents and their text,
spans and review decisions, patients, the surrogate registry, exports and the audit log.
Every method is safe to call from worker threads (one engine, short transactions) and
returns frozen records or domain types, never ORM rows. ``Project`` is a façade: the work is
done by the modules beside it (recording, review, patients, export, retention), on the
``ProjectState`` they share.

    project = Project.create("study.clearnote", policy="hipaa")
    project.import_paths([Path("letters/")])
    project.detect()
    for doc in project.documents(status=DocumentStatus.DETECTED): ...
    project.set_span_status(span_id, SpanStatus.REJECTED); project.undo()
    project.export(out_dir=Path("out"))
"""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, Document, Span, SpanStatus, SurrogateMode
from engine.core.errors import ProjectError, UsageError
from engine.core.files import file_sha256, private_dir
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.parallel import WorkResult
from engine.project import boxes as _boxes
from engine.project import encryption as _encryption
from engine.project import export as _export
from engine.project import export_check as _export_check
from engine.project import patients as _patients
from engine.project import queries as _queries
from engine.project import recording as _recording
from engine.project import retention as _retention
from engine.project import review as _review
from engine.project import table_export as _table_export
from engine.project import tables as _tables
from engine.project.adaptation import Adaptation
from engine.project.export import WriteGroup
from engine.project.services import Services
from engine.project.settings import (
    DEFAULT_FORMATS,
    SUFFIX,
    TEMP_PREFIX,
    ProjectSettings,
    check_formats,
    pipeline_settings,
)
from engine.project.state import ProjectState
from engine.project.table_service import ProjectTables
from engine.session import SessionConfig
from engine.store import migrations
from engine.store import repositories as repo
from engine.store.db import Database
from engine.store.records import (
    AuditEntry,
    BoxRedaction,
    DetectReport,
    DocumentRecord,
    DocumentStatus,
    ExportReport,
    ImportReport,
    PatientRecord,
    PatientSuggestion,
    ReviewImportReport,
    Statistics,
)
from engine.store.review import ReviewChange
from engine.store.surrogate_map import StoreSurrogateMap

if TYPE_CHECKING:
    from engine.cire import CireReport


class Project:
    """One open project file. Create with ``Project.create`` or ``Project.open``."""

    file_sha256 = staticmethod(file_sha256)
    clean_temp_files = staticmethod(_export.clean_temp_files)

    def __init__(self, db: Database, *, services: Services | None = None,
                 migrated_from: Path | None = None) -> None:
        self.db = db
        self.path = db.path
        self.backup_path = migrated_from  # set when opening migrated an older schema
        with db.read() as s:
            stored = repo.get_settings(s)
        if "secret" not in stored:
            raise ProjectError(f"{self.path}: project settings are missing")
        self._secret = bytes.fromhex(stored["secret"])
        self.id: str = stored.get("project_id", "")
        self._state = ProjectState(db, secret=self._secret,
                                   settings=ProjectSettings.from_json(stored.get("project", {})),
                                   services=services or Services())

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def create(cls, path: str | Path, *, policy: str = "strict",
               mode: SurrogateMode | str = SurrogateMode.SURROGATE,
               pipeline: Any | None = None, secret: bytes | None = None,
               export_formats: Sequence[str] = DEFAULT_FORMATS,
               services: Services | None = None, passphrase: str | None = None) -> Project:
        """A new project file; ``pipeline`` (a PipelineConfig) overrides ``policy``.
        With ``passphrase`` the file is encrypted (SQLCipher; the front ends always pass
        one unless the user explicitly asks for a plain project); the surrogate secret
        and every document's text then live only inside the encrypted store."""
        path = Path(path)
        if path.suffix != SUFFIX:
            raise UsageError(f"{path}: a project file name ends in {SUFFIX}")
        if path.exists():
            raise UsageError(f"{path}: already exists")
        get_policy(pipeline.policy if pipeline is not None else policy)  # validate early
        private_dir(path.parent)
        check_formats(export_formats)
        settings = ProjectSettings(policy=policy, mode=SurrogateMode(mode),
                                   export_formats=tuple(export_formats))
        if pipeline is not None:
            settings = replace(settings, **pipeline_settings(pipeline))
        # Built under a temp name and renamed: a crash never leaves a half-made project,
        # and the next create removes what a killed one left.
        temp_name = re.compile(rf"{re.escape(TEMP_PREFIX)}[0-9a-f]{{8}}-{re.escape(path.name)}"
                               r"(-wal|-shm|-journal)?")
        for stale in path.parent.iterdir():
            if temp_name.fullmatch(stale.name):
                stale.unlink(missing_ok=True)
        tmp = path.with_name(f"{TEMP_PREFIX}{secrets.token_hex(4)}-{path.name}")
        db = Database(tmp, passphrase=passphrase)
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
        return cls(Database(path, passphrase=passphrase), services=services)

    @classmethod
    def open(cls, path: str | Path, *, services: Services | None = None,
             passphrase: str | None = None) -> Project:
        """Open a project; an older schema is backed up, then migrated. An encrypted one
        needs its ``passphrase`` (``PassphraseRequiredError`` / ``WrongPassphraseError``
        otherwise, the file untouched)."""
        path = Path(path)
        if not path.is_file():
            raise UsageError(f"{path}: no such project file")
        db = Database(path, passphrase=passphrase)
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

    @property
    def encrypted(self) -> bool:
        return self.db.encrypted

    is_encrypted = staticmethod(_encryption.is_encrypted)
    encrypt = staticmethod(_encryption.encrypt_project)
    rekey = staticmethod(_encryption.rekey_project)
    # Wipe what a killed encrypt or rekey left beside the project (every open does it too).
    recover_leftovers = staticmethod(_encryption.recover_leftovers)

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ------------------------------------------------------------------ shared state

    @property
    def services(self) -> Services:
        return self._state.services

    @property
    def surrogate_map(self) -> StoreSurrogateMap:
        return self._state.surrogate_map

    @property
    def durable_exports(self) -> bool:
        """fsync each output before its rename (guards power loss; see ProjectState)."""
        return self._state.durable_exports

    @durable_exports.setter
    def durable_exports(self, value: bool) -> None:
        self._state.durable_exports = value

    @property
    def settings(self) -> ProjectSettings:
        return self._state.settings

    def update_settings(self, **changes: Any) -> ProjectSettings:
        """Change project options; audited by key (values may name people or places)."""
        return self._state.update_settings(**changes)

    def session_config(self) -> SessionConfig:
        return self._state.session_config()

    @property
    def session(self) -> Any:
        """The loaded pipeline + a surrogator backed by this project's registry."""
        return self._state.session

    @property
    def adaptation(self) -> Adaptation:
        """What the project learned (issue 25): lists, adapt, versions, undo, re-detection
        of unreviewed documents, profile export."""
        return Adaptation(self._state)

    # ------------------------------------------------------------------ import, detection

    def import_paths(self, paths: Iterable[str | Path], ctx: RunContext | None = None, *,
                     workers: int = 1, password: str | None = None,
                     table_schema: str | None = None) -> ImportReport:
        """Import files and folders (supported types, recursively); see recording."""
        return _recording.import_paths(self._state, paths, ctx, workers=workers,
                                       password=password, table_schema=table_schema)

    def import_batches(self, paths: Iterable[str | Path], ctx: RunContext | None = None, *,
                       batch: int, password: str | None = None) -> Iterator[ImportReport]:
        """``import_paths`` a report per ``batch`` documents stored (see recording)."""
        return _recording.import_batches(self._state, paths, ctx, batch=batch,
                                         password=password)

    def document_id_for(self, sha256_hex: str) -> str:
        """The id a file with this content gets here (keyed with the project secret)."""
        return _recording.document_id_for_sha(self._secret, sha256_hex)

    def record_work_result(self, result: WorkResult) -> bool:
        """Store what a worker produced (import and/or detection) in one transaction.
        Returns False when the document failed (recorded with its reason)."""
        return _recording.record_work_result(self._state, result)

    @contextmanager
    def write_group(self, *, max_documents: int = 32, max_seconds: float = 0.25
                    ) -> Iterator[WriteGroup]:
        """A ``WriteGroup`` for this thread, committed on exit, also on an error: a document
        that failed midway was rolled back to its savepoint, the others are complete."""
        group = WriteGroup(self._state, max_documents=max_documents, max_seconds=max_seconds)
        try:
            yield group
        finally:
            group.commit()

    def detect(self, document_ids: Sequence[str] | None = None,
               ctx: RunContext | None = None, *, workers: int = 1) -> DetectReport:
        """Detect PHI in the given documents (re-detecting them), or in every imported
        document. Review decisions (accepted, rejected, manual spans) are kept."""
        return _recording.detect(self._state, document_ids, ctx, workers=workers)

    # ------------------------------------------------------------------ queries

    def documents(self, *, status: DocumentStatus | Iterable[DocumentStatus] | None = None,
                  patient_id: str | None = None, ids: Iterable[str] | None = None
                  ) -> list[DocumentRecord]:
        return _queries.documents(self.db, status=status, patient_id=patient_id, ids=ids)

    def document(self, document_id: str) -> DocumentRecord:
        return _queries.document(self.db, document_id)

    def load_document(self, document_id: str) -> Document:
        return _queries.load_document(self.db, document_id)

    def document_text(self, document_id: str) -> str:
        return _queries.document_text(self.db, document_id)

    def spans(self, document_id: str, *, statuses: Iterable[SpanStatus] | None = None
              ) -> list[Span]:
        return _queries.spans(self.db, document_id, statuses=statuses)

    def span(self, span_id: str) -> tuple[str, Span]:
        """(document id, span)."""
        return _queries.span(self.db, span_id)

    def audit_log(self, *, document_id: str | None = None,
                  actions: Sequence[str] | None = None) -> list[AuditEntry]:
        return _queries.audit_log(self.db, document_id=document_id, actions=actions)

    def statistics(self) -> Statistics:
        return _queries.statistics(self.db)

    def integrity_check(self) -> str:
        return self.db.integrity_check()

    # ------------------------------------------------------------------ review

    def set_span_status(self, span_id: str, status: SpanStatus | str) -> Span:
        return _review.set_span_status(self.db, span_id, status)

    def set_status_all_occurrences(self, span_id: str, status: SpanStatus | str, *,
                                   scope: str = "document") -> int:
        """Give ``status`` to every span covering the same text; see review."""
        return _review.set_status_all_occurrences(self.db, span_id, status, scope=scope)

    def count_all_occurrences(self, span_id: str, status: SpanStatus | str, *,
                              scope: str = "document") -> tuple[int, int]:
        """(spans, documents) that set_status_all_occurrences would change."""
        return _review.count_all_occurrences(self.db, span_id, status, scope=scope)

    def set_span_label(self, span_id: str, label: Label | str, *,
                       subtype: str | None = None) -> Span:
        return _review.set_span_label(self.db, span_id, label, subtype=subtype)

    def add_manual_span(self, document_id: str, start: int, end: int, label: Label | str, *,
                        subtype: str | None = None) -> Span:
        return _review.add_manual_span(self.db, document_id, start, end, label,
                                       subtype=subtype)

    def apply_review_decisions(self, decisions: Mapping[str, Sequence[Any]] | Iterable[
                               tuple[str, Sequence[Any]]], *, unlisted: str = "keep",
                               scopes: Mapping[str, Sequence[tuple[int, int]]] | None = None
                               ) -> ReviewImportReport:
        """Apply review decisions (``review_io.Decision`` per document); see review_io."""
        return _review.apply_review_decisions(self.db, decisions, unlisted=unlisted,
                                              scopes=scopes)

    def mark_reviewed(self, document_id: str) -> DocumentRecord:
        return _review.mark_reviewed(self.db, document_id)

    def add_box_redaction(self, document_id: str, page: int,
                          rect: tuple[float, float, float, float]) -> BoxRedaction:
        """Redact a rectangle of a page (view space of the upright page); undoable."""
        return _boxes.add_box(self.db, document_id, page, rect)

    def remove_box_redaction(self, box_id: str) -> BoxRedaction:
        return _boxes.remove_box(self.db, box_id)

    def box_redactions(self, document_id: str) -> list[BoxRedaction]:
        """The document's active box redactions."""
        return _boxes.boxes(self.db, document_id)

    def undo(self) -> ReviewChange | None:
        return _review.undo(self.db)

    def redo(self) -> ReviewChange | None:
        return _review.redo(self.db)

    @property
    def can_undo(self) -> bool:
        return _review.can_undo(self.db)

    @property
    def can_redo(self) -> bool:
        return _review.can_redo(self.db)

    # ------------------------------------------------------------------ surrogates, CIRE

    def patient_key(self, document_id: str) -> str:
        """The surrogate and date-shift scope of a document: its patient, or one shared
        project-wide scope for documents without a patient."""
        return _queries.patient_key(self.db, document_id)

    def deidentify(self, document_id: str) -> DeidentifiedText:
        return _patients.deidentify(self._state, document_id)

    def surrogate_preview(self, span_id: str) -> str:
        """What this span will read as in the export (the surrogate is registered now, so
        the export shows the same value)."""
        return _patients.surrogate_preview(self._state, span_id)

    def retention(self, document_id: str,
                  deid: DeidentifiedText | None = None) -> CireReport:
        """CIRE on the document as it would be exported now; the flags are stored."""
        return _retention.retention(self._state, document_id, deid)

    def cire_flag_counts(self) -> dict[str, dict[str, int]]:
        """Stored CIRE flags per document and severity (from the last ``retention`` run)."""
        return _retention.cire_flag_counts(self.db)

    # ------------------------------------------------------------------ patients

    def patients(self) -> list[PatientRecord]:
        return _patients.patients(self.db)

    def patient_suggestions(self) -> list[PatientSuggestion]:
        return _patients.suggestions(self.db)

    def create_patient(self, name: str | None = None) -> PatientRecord:
        """A new patient; ``name`` is a pseudonymous label (not the person's name)."""
        return _patients.create_patient(self.db, name)

    def assign_patient(self, document_ids: Iterable[str], patient_id: str | None) -> None:
        """A person's decision: these documents belong to this patient (None: to none)."""
        _patients.assign_patient(self.db, document_ids, patient_id)

    def confirm_patient(self, document_id: str) -> None:
        _patients.confirm_patient(self.db, document_id)

    # ------------------------------------------------------------------ export

    def export(self, document_ids: Sequence[str] | None = None, *, out_dir: str | Path,
               formats: Sequence[str] | None = None, ctx: RunContext | None = None,
               report: bool = True, tables: bool = True) -> ExportReport:
        """Write de-identified files named ``<document id><suffix>``, the tables among
        the ids first (every table when None; ``tables=False``: none); see export."""
        return _export.export(self._state, document_ids, out_dir=out_dir, formats=formats,
                              ctx=ctx, report=report, tables=tables)

    def export_plan(self, document_ids: Sequence[str] | None = None
                    ) -> _export_check.ExportPlan:
        """What an export of ``document_ids`` would write and which documents are still
        open (undecided candidates, HIGH CIRE flags); see export_check."""
        return _export_check.export_plan(self._state, document_ids)

    def record_export_anyway(self, open_work: Sequence[_export_check.OpenWork], *,
                             via: str | None = None) -> None:
        """Audit: the reviewer exports these open documents anyway (ids and counts)."""
        _export_check.record_export_anyway(self.db, open_work, via=via)

    def record_export_settled_only(self, open_work: Sequence[_export_check.OpenWork], *,
                                   via: str | None = None) -> None:
        """Audit: these open documents were left out of an export (ids and counts)."""
        _export_check.record_export_settled_only(self.db, open_work, via=via)

    def export_files_exist(self, document_id: str, out_dir: Path,
                           formats: Sequence[str] | None = None) -> bool:
        """Every expected output of the document is in ``out_dir`` with the bytes that
        were recorded when it was exported."""
        return _export.export_files_exist(self._state, document_id, out_dir, formats)

    # ------------------------------------------------------------------ tables

    def record_table(self, document_id: str, source: Path, sha256_hex: str) -> bool:
        """A table (CSV, TSV, Parquet, XLSX) as an imported document; see project.tables."""
        return _tables.record_table(self._state, document_id, source, sha256_hex)

    def table_schema(self, document_id: str) -> str | None:
        return _tables.table_schema(self._state, document_id)  # confirmed roles, or None

    @property
    def tables(self) -> ProjectTables:
        """Its tables: cells detected for review, their export with the decisions."""
        return ProjectTables(self._state)

    def table_export_exists(self, document_id: str, path: Path) -> bool:
        return _table_export.table_export_exists(self._state, document_id, path)

    def write_report_csv(self, out_dir: Path) -> Path:
        """``report.csv``: document id, status, spans, CIRE high flags, outputs in this
        folder; no source names (the key stays in the project)."""
        return _export.write_report_csv(self._state, out_dir)

    def key_rows(self) -> list[dict[str, object]]:
        """The re-identification key: document id → source path, file name, patient."""
        return _export.key_rows(self._state)

    def write_key_file(self, path: Path, *, out_dir: Path | None = None) -> Path:
        """The key as CSV (the schema ``clearnote deid --key-file`` writes); refused
        inside ``out_dir``, the export folder."""
        return _export.write_key_file(self._state, path, out_dir=out_dir)

