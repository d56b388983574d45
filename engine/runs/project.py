"""The project sink: `clearnote batch IN_DIR --output-dir OUT --project P.clearnote`, import
→ detect → export, detection in worker processes, store and export on one thread of the
parent (``StoreThread``), overlapping detection. Resumable after a crash: every step is
recorded in the project only after it is complete, outputs are named by the stable
document id and written through temp files, so re-running finishes what is left."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.core.context import RunContext
from engine.core.errors import CancelledError, ClearNoteError
from engine.core.files import short_name
from engine.core.messages import reason_in_words
from engine.parallel import WorkItem, WorkResult
from engine.project import Project
from engine.project.settings import check_formats
from engine.runs.driver import STORED
from engine.runs.outcome import FileOutcome, RunReport, Status
from engine.runs.project_tables import export_project_table
from engine.runs.store_thread import StoreThread
from engine.store.records import DocumentRecord, DocumentStatus
from engine.tables.run import is_table, output_name
from engine.tables.schema import TableSchema

log = logging.getLogger(__name__)

@dataclass
class ProjectSink:
    """Import, detect and export into ``project``; the key stays in the project."""

    project: Project
    formats: tuple[str, ...] | None = None
    password: str | None = None
    table_schema: TableSchema | None = None  # roles for every table of the run
    stage: str = "batch"
    _known: dict[str, DocumentRecord] | None = field(default=None, init=False, repr=False)
    _out_dir: Path = field(default=Path(), init=False, repr=False)

    @property
    def services(self) -> Any:
        return self.project.services

    @property
    def session_config(self) -> Any:
        return self.project.session_config()

    @property
    def session(self) -> Any:
        return self.project.session

    def check(self, inputs: list[Path], out_dir: Path) -> None:
        if self.formats is not None:
            check_formats(self.formats)

    def open(self, out_dir: Path) -> None:
        self._out_dir = out_dir
        self.project.clean_temp_files(out_dir)

    def document_id_for(self, sha256_hex: str) -> str:
        return self.project.document_id_for(sha256_hex)  # stable: resumed runs, same names

    def plan(self, outcome: FileOutcome, sha256_hex: str
             ) -> WorkItem | Literal["stored"] | None:
        if self._known is None:
            self._known = {d.sha256: d for d in self.project.documents()}
        record = self._known.get(sha256_hex)
        if is_table(outcome.source):
            return self._plan_table(outcome, record, sha256_hex)
        if record is None:
            return WorkItem(outcome.document_id, path=str(outcome.source), sha256=sha256_hex,
                            password=self.password)
        if record.status is DocumentStatus.FAILED:
            outcome.fail(reason_in_words(record.reason), record.reason or "failed")
            return None
        if record.status is DocumentStatus.IMPORTED:
            return WorkItem(record.id, document=self.project.load_document(record.id))
        if record.status is DocumentStatus.EXPORTED and \
                self.project.export_files_exist(record.id, self._out_dir, self.formats):
            outcome.status = Status.DONE_BEFORE
            return None
        return STORED

    def _plan_table(self, outcome: FileOutcome, record: DocumentRecord | None,
                    sha256_hex: str) -> Literal["stored"] | None:
        """A table is streamed here, row by row (``engine.runs.project_tables``)."""
        if record is None:
            self.project.record_table(outcome.document_id, outcome.source, sha256_hex)
        elif record.status is DocumentStatus.EXPORTED and self.project.table_export_exists(
                record.id, self._out_dir / output_name(record.id, outcome.source)):
            outcome.status = Status.DONE_BEFORE
            return None
        return STORED

    def write_stored(self, outcome: FileOutcome, out_dir: Path, ctx: RunContext) -> None:
        if is_table(outcome.source):
            self._write_table(outcome, out_dir, ctx)
            return
        exported = self.project.export([outcome.document_id], out_dir=out_dir,
                                       formats=self.formats, report=False, tables=False)
        if exported.failed:
            reason = exported.failed[0][1]
            outcome.fail(reason_in_words(reason), reason)
        else:
            outcome.outputs = list(exported.exported[0].files)
            outcome.cire_high = exported.cire_high

    def _write_table(self, outcome: FileOutcome, out_dir: Path, ctx: RunContext) -> None:
        try:
            exported, spans = export_project_table(
                self.project, outcome.document_id, outcome.source, out_dir,
                schema=self.table_schema, ctx=ctx)
        except (ClearNoteError, OSError) as exc:
            if isinstance(exc, CancelledError):
                raise
            outcome.failed_by(exc)
            log.warning("table %s failed: %s", outcome.document_id, type(exc).__name__)
            return
        outcome.outputs, outcome.spans = list(exported.files), spans

    def finisher(self, out_dir: Path, ctx: RunContext) -> ProjectFinisher:
        return ProjectFinisher(StoreThread(self.project, out_dir, self.formats))

    def write_report(self, report: RunReport, out_dir: Path) -> Path:
        return self.project.write_report_csv(out_dir)

    def write_key(self, report: RunReport) -> None:
        report.key_notice = (f"re-identification key: kept in the project "
                             f"{short_name(self.project.path)}, not in the output folder; "
                             "it must not be shared")


class ProjectFinisher:
    """Hands results to the store thread; outcomes come back once committed."""

    def __init__(self, store: StoreThread) -> None:
        self.store = store
        self._waiting: dict[str, FileOutcome] = {}
        store.start()

    def put(self, result: WorkResult, outcome: FileOutcome) -> None:
        self._waiting[outcome.document_id] = outcome
        self.store.put(result)

    def finished(self) -> list[FileOutcome]:
        return self._settle(self.store.outcomes())

    def close(self) -> list[FileOutcome]:
        return self._settle(self.store.close())

    def _settle(self, done: Sequence[tuple[str, str | None, str | None, Any]]
                ) -> list[FileOutcome]:
        out = []
        for doc_id, reason, problem, exported in done:
            outcome = self._waiting.pop(doc_id)
            if reason is not None:
                outcome.fail(problem or reason_in_words(reason), reason)
            else:
                outcome.outputs = list(exported.files)
                outcome.cire_high = exported.cire_high
            out.append(outcome)
        return out
