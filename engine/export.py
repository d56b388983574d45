"""`clearnote deid FILE_OR_DIR... --output-dir DIR`: de-identify files without a project,
through the one export path (``engine.exporters.outputs.write_outputs``).

Outputs are named by a stable document id (a prefix of the file's sha256), never by the
original file name, which often holds a patient's name. The export folder holds
de-identified material only: ``report.csv`` (ids, outcome, CIRE high flags, output names)
goes there, while the re-identification key (document id → source path, file name,
patient) goes to a key file beside the input, never inside the output folder.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.cire import assess
from engine.core.context import RunContext
from engine.core.errors import CancelledError, ClearNoteError, InputError
from engine.core.files import (
    file_sha256,
    keyed_document_id,
    os_reason,
    path_id,
    private_dir,
    short_name,
)
from engine.exporters.outputs import DEFAULT_FORMATS, check_formats, export_job, write_outputs
from engine.exporters.reports import (
    KEY_WARNING,
    REPORT_FILE_NAME,
    check_key_location,
    default_key_file,
    is_key_file,
    key_row,
    report_row,
    source_name_parts,
    write_key,
    write_report,
)
from engine.ingest.discover import check_output_dir, discover_inputs
from engine.parallel import error_reason
from engine.session import Session, load_document

log = logging.getLogger(__name__)


class Status:
    OK = "ok"
    FAILED = "failed"  # could not be read, or failed in detection / export
    DUPLICATE = "duplicate"  # same content as an earlier input (named in ``error``)
    NOT_RUN = "not run"  # the run was cancelled before it


@dataclass
class FileOutcome:
    document_id: str
    source: Path
    outputs: list[Path] = field(default_factory=list)
    error: str | None = None
    spans: int = 0
    cire_high: int = 0
    reason: str | None = None  # the error without any file name: for report.csv
    status: str = Status.OK
    needs_review: bool = False

    @property
    def label(self) -> str:
        """How a report names the file: short name and id, never the folders."""
        return f"{short_name(self.source)} [{self.document_id}]"


@dataclass
class DeidReport:
    outcomes: list[FileOutcome] = field(default_factory=list)
    key_file: Path | None = None
    report_csv: Path | None = None
    cancelled: bool = False

    @property
    def failed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == Status.FAILED]

    @property
    def cire_high(self) -> int:
        return sum(o.cire_high for o in self.outcomes)

    def summary(self) -> str:
        done = sum(o.status == Status.OK for o in self.outcomes)
        lines = [f"de-identified {done} of {len(self.outcomes)} input(s), CIRE high flags "
                 f"{self.cire_high}" + (" (cancelled)" if self.cancelled else "")]
        lines += [f"  {o.status}: {o.label}: {o.error}" for o in self.outcomes
                  if o.status != Status.OK]
        lines += [f"  needs review: {o.label}: uncertain text decoding" for o in self.outcomes
                  if o.status == Status.OK and o.needs_review]
        if self.key_file is not None:
            lines.append(f"re-identification key: {self.key_file} ({KEY_WARNING})")
        return "\n".join(lines)


def document_id_for(path: Path, secret: bytes) -> str:
    """Keyed with the run's secret (random unless --secret-file): no hash of the original."""
    return keyed_document_id(secret, file_sha256(path))


def deid_paths(paths: list[Path], output_dir: Path, *, session: Session,
               formats: Sequence[str] = DEFAULT_FORMATS, key_file: Path | None = None,
               pdf_mode: str = "redacted", password: str | None = None, cire: bool = False,
               progress_enabled: bool = True, ctx: RunContext | None = None) -> DeidReport:
    """De-identify every supported file under ``paths`` into ``output_dir`` in
    ``formats``; the key goes to ``key_file`` (default: beside the first input). With
    ``cire`` the sidecars carry the full CIRE report (alignment, retention score) instead
    of the guard's flags alone."""
    ctx = ctx or RunContext()
    check_formats(formats)
    check_output_dir(paths, output_dir)
    key_file = key_file or default_key_file(paths)
    check_key_location(key_file, output_dir)
    found = discover_inputs(paths)
    inputs = [p for p in found.files if not is_key_file(p)]  # earlier runs' keys
    private_dir(output_dir)
    report = DeidReport(key_file=key_file)
    for skipped in found.skipped:
        report.outcomes.append(FileOutcome(path_id(skipped.path), skipped.path,
                                           error=skipped.reason, reason=skipped.reason,
                                           status=Status.FAILED))
    first: dict[str, FileOutcome] = {}  # document id -> the input kept
    for index, path in enumerate(inputs):
        if ctx.cancel.cancelled:
            report.cancelled = True
            report.outcomes += [FileOutcome(path_id(p), p, error="the run was cancelled",
                                            status=Status.NOT_RUN) for p in inputs[index:]]
            break
        outcome = _deid_one(path, output_dir, first, session=session, formats=formats,
                            pdf_mode=pdf_mode, password=password, cire=cire, ctx=ctx)
        report.outcomes.append(outcome)
        if outcome.status == Status.NOT_RUN:
            report.cancelled = True
        if progress_enabled:
            ctx.report("deid", index + 1, len(inputs), outcome.document_id)
    write_key([key_row(o.document_id, o.source, "default") for o in report.outcomes],
              key_file)
    report.report_csv = _write_report(report, output_dir)
    return report


def problem_of(exc: BaseException) -> str:
    """The problem alone: an InputError's message starts with the full path, which a
    report names once, by its short name."""
    if isinstance(exc, InputError):
        return exc.problem
    if isinstance(exc, OSError):
        return os_reason(exc)
    return str(exc)


def _deid_one(path: Path, output_dir: Path, first: dict[str, FileOutcome], *,
              session: Session, formats: Sequence[str], pdf_mode: str,
              password: str | None, cire: bool, ctx: RunContext) -> FileOutcome:
    try:
        outcome = FileOutcome(document_id_for(path, session.config.secret), path)
    except OSError as exc:  # permission denied, vanished since discovery, ...
        problem = f"cannot read ({os_reason(exc)})"
        return FileOutcome(path_id(path), path, error=problem, reason=problem,
                           status=Status.FAILED)
    kept = first.get(outcome.document_id)
    if kept is not None:
        outcome.status, outcome.error = Status.DUPLICATE, f"same content as {kept.label}"
        outcome.reason = f"same content as {kept.document_id}"
        return outcome
    first[outcome.document_id] = outcome
    try:
        doc = load_document(path, password=password, ctx=ctx)
        doc = replace(doc, id=outcome.document_id)
        outcome.needs_review = doc.needs_review
        if doc.needs_review:
            log.warning("document %s needs review: uncertain text decoding",
                        outcome.document_id)
        result, deid = session.process(doc, ctx)
        outcome.spans = len(result.active)
        full = assess(doc, deid, policy=session.policy, ctx=ctx).to_json() if cire else None
        job = export_job(doc, result.active, deid, policy=session.policy, source=path,
                         pdf_mode=pdf_mode, password=password, cire=full, ctx=ctx)
        outcome.outputs = [w.path for w in write_outputs(job, output_dir, formats)]
        outcome.cire_high = job.high_flags
    except CancelledError:
        outcome.status, outcome.error = Status.NOT_RUN, "the run was cancelled"
        outcome.reason = outcome.error
    except (ClearNoteError, OSError) as exc:
        outcome.status, outcome.error = Status.FAILED, problem_of(exc)
        outcome.reason = error_reason(exc) if isinstance(exc, ClearNoteError) else problem_of(exc)
        log.warning("document %s failed: %s", outcome.document_id, type(exc).__name__)
    return outcome


def _write_report(report: DeidReport, output_dir: Path) -> Path:
    rows = []
    forbidden: list[str] = []
    for o in report.outcomes:
        names = source_name_parts(o.source)
        forbidden += names
        rows.append(report_row(o.document_id, status=o.status,
                               spans=o.spans, cire_high=o.cire_high,
                               outputs=[p.name for p in o.outputs], error=o.reason,
                               forbidden=names))
    return write_report(rows, output_dir / REPORT_FILE_NAME, forbidden=forbidden)
