"""The folder sink: `clearnote deid FILE_OR_DIR... --output-dir DIR` without a project.

Outputs are named by a document id keyed with the run's secret (random unless
--secret-file), never by the original file name, which often holds a patient's name. The
export folder holds de-identified material only: ``report.csv`` (ids, outcome, CIRE high
flags, output names) goes there, while the re-identification key (document id → source
path, file name, patient) goes to a key file beside the input, never inside the output
folder.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from engine.cire import assess
from engine.core.context import RunContext
from engine.core.errors import CancelledError, ClearNoteError
from engine.core.files import keyed_document_id
from engine.exporters.outputs import DEFAULT_FORMATS, check_formats, export_job, write_outputs
from engine.exporters.reports import (
    KEY_WARNING,
    REPORT_FILE_NAME,
    check_key_location,
    default_key_file,
    key_row,
    report_row,
    source_name_parts,
    write_key,
    write_report,
)
from engine.parallel import WorkItem, WorkResult
from engine.runs.driver import STORED
from engine.runs.outcome import FileOutcome, RunReport, Status
from engine.runs.patients import DEFAULT_PATIENT, PatientLinker
from engine.session import Session, SessionServices
from engine.tables.run import deid_table, is_table, output_name
from engine.tables.schema import TableSchema

log = logging.getLogger(__name__)



@dataclass
class FolderSink:
    """De-identify with a ``Session`` into a folder; the key goes to ``key_file``
    (default: beside the first input). With ``cire`` the sidecars carry the full CIRE
    report (alignment, retention score) instead of the guard's flags alone."""

    session: Session
    formats: Sequence[str] = DEFAULT_FORMATS
    key_file: Path | None = None
    pdf_mode: str = "redacted"
    password: str | None = None
    cire: bool = False
    table_schema: TableSchema | None = None  # roles for every table of the run
    patients: PatientLinker = field(init=False, repr=False)
    stage: str = "deid"
    services: SessionServices = field(default_factory=SessionServices)

    @property
    def session_config(self) -> object:
        return self.session.config

    def check(self, inputs: list[Path], out_dir: Path) -> None:
        check_formats(self.formats)
        self.key_file = self.key_file or default_key_file(inputs)
        check_key_location(self.key_file, out_dir)

    def open(self, out_dir: Path) -> None:
        # One patient linker for the run: tables' rows and notes of a patient share it.
        self.patients = PatientLinker(self.session.config.secret)

    def document_id_for(self, sha256_hex: str) -> str:
        return keyed_document_id(self.session.config.secret, sha256_hex)

    def plan(self, outcome: FileOutcome, sha256_hex: str
             ) -> WorkItem | Literal["stored"] | None:
        if is_table(outcome.source):
            return STORED  # streamed here, row by row
        return WorkItem(outcome.document_id, path=str(outcome.source), sha256=sha256_hex,
                        password=self.password)

    def write_stored(self, outcome: FileOutcome, out_dir: Path, ctx: RunContext) -> None:
        """A table: every row through its columns' roles, into one table."""
        try:
            table = deid_table(outcome.source, out_dir / output_name(outcome.document_id,
                                                                    outcome.source),
                               self.session, schema=self.table_schema, ctx=ctx,
                               scope_of=self.patients.patient_for_row)
        except (ClearNoteError, OSError) as exc:
            if isinstance(exc, CancelledError):
                raise
            outcome.failed_by(exc)
            log.warning("table %s failed: %s", outcome.document_id, type(exc).__name__)
            return
        outcome.outputs, outcome.spans = [table.output], table.spans

    def finisher(self, out_dir: Path, ctx: RunContext) -> FolderFinisher:
        return FolderFinisher(self, out_dir, ctx)

    def write_report(self, report: RunReport, out_dir: Path) -> Path:
        rows = []
        forbidden: list[str] = []
        for o in report.outcomes:
            names = source_name_parts(o.source)
            forbidden += names
            rows.append(report_row(o.document_id, status=o.status, spans=o.spans,
                                   cire_high=o.cire_high, outputs=[p.name for p in o.outputs],
                                   error=o.reason, forbidden=names))
        return write_report(rows, out_dir / REPORT_FILE_NAME, forbidden=forbidden)

    def write_key(self, report: RunReport) -> None:
        assert self.key_file is not None  # set by check
        report.key_file = self.key_file
        report.key_notice = f"re-identification key: {self.key_file} ({KEY_WARNING})"
        # The default scope is no patient, as in a project's key.
        write_key([key_row(o.document_id, o.source,
                           None if o.patient == DEFAULT_PATIENT else o.patient)
                   for o in report.outcomes], self.key_file)


class FolderFinisher:
    """De-identifies and writes each detected document at once, in this process."""

    def __init__(self, sink: FolderSink, out_dir: Path, ctx: RunContext) -> None:
        self.sink, self.out_dir, self.ctx = sink, out_dir, ctx
        self._done: list[FileOutcome] = []
        self._patients = sink.patients

    def put(self, result: WorkResult, outcome: FileOutcome) -> None:
        self._done.append(outcome)
        if result.result is None or result.document is None:
            outcome.fail(result.problem or "could not be processed", result.error)
            log.warning("document %s failed: %s", outcome.document_id,
                        (result.error or "").split(":")[0])
            return
        try:
            self._write(result, outcome)
        except CancelledError:
            self._done.remove(outcome)  # left pending: not run
            raise
        except (ClearNoteError, OSError) as exc:
            outcome.outputs = []
            outcome.failed_by(exc)
            log.warning("document %s failed: %s", outcome.document_id, type(exc).__name__)

    def _write(self, result: WorkResult, outcome: FileOutcome) -> None:
        assert result.result is not None and result.document is not None
        sink, doc = self.sink, result.document
        outcome.needs_review = doc.needs_review
        if doc.needs_review:
            log.warning("document %s needs review: uncertain text decoding", doc.id)
        session = sink.session
        outcome.patient = self._patients.patient_for(doc, result.result.spans)
        deid = session.deidentify(doc, result.result.active, patient=outcome.patient,
                                  ctx=self.ctx)
        outcome.spans = len(result.result.active)
        full = assess(doc, deid, policy=session.policy, ctx=self.ctx).to_json() \
            if sink.cire else None
        job = export_job(doc, result.result.active, deid, policy=session.policy,
                         source=outcome.source, pdf_mode=sink.pdf_mode,
                         password=sink.password, cire=full, ctx=self.ctx)
        outcome.outputs = [w.path for w in write_outputs(job, self.out_dir, sink.formats)]
        outcome.cire_high = job.high_flags
        outcome.status = Status.OK

    def finished(self) -> list[FileOutcome]:
        done, self._done = self._done, []
        return done

    def close(self) -> list[FileOutcome]:
        return self.finished()
