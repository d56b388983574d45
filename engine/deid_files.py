"""`clearnote deid FILE_OR_DIR... --output-dir DIR`: de-identify files without a project.

Outputs are named by a stable document id (a prefix of the file's sha256), never by the
original file name, which often holds a patient's name; `mapping.csv` links the two.
"""

from __future__ import annotations

import csv
import io
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, DetectionResult, Document
from engine.core.errors import CancelledError, ClearNoteError, InputError
from engine.core.files import file_sha256, os_reason, path_id, short_name, write_text_atomic
from engine.ingest.discover import check_output_dir, discover_inputs, has_pages
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
    status: str = Status.OK
    needs_review: bool = False

    @property
    def label(self) -> str:
        """How a report names the file: short name and id, never the folders."""
        return f"{short_name(self.source)} [{self.document_id}]"


@dataclass
class DeidReport:
    outcomes: list[FileOutcome] = field(default_factory=list)
    cancelled: bool = False

    @property
    def failed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == Status.FAILED]

    def summary(self) -> str:
        done = sum(o.status == Status.OK for o in self.outcomes)
        lines = [f"de-identified {done} of {len(self.outcomes)} input(s)"
                 + (" (cancelled)" if self.cancelled else "")]
        lines += [f"  {o.status}: {o.label}: {o.error}" for o in self.outcomes
                  if o.status != Status.OK]
        lines += [f"  needs review: {o.label}: uncertain text decoding" for o in self.outcomes
                  if o.status == Status.OK and o.needs_review]
        return "\n".join(lines)


def document_id_for(path: Path) -> str:
    return file_sha256(path)[:16]


def problem_of(exc: BaseException) -> str:
    """The problem alone: an InputError's message starts with the full path, which a
    report names once, by its short name."""
    if isinstance(exc, InputError):
        return exc.problem
    if isinstance(exc, OSError):
        return os_reason(exc)
    return str(exc)


def deid_paths(paths: list[Path], output_dir: Path, *, session: Session,
               pdf_mode: str = "redacted", password: str | None = None, cire: bool = False,
               progress_enabled: bool = True, ctx: RunContext | None = None) -> DeidReport:
    """Every input gets an outcome: files that cannot be read (links, FIFOs, permission,
    vanished) and documents that fail are reported and the run goes on."""
    ctx = ctx or RunContext()
    check_output_dir(paths, output_dir)
    found = discover_inputs(paths)
    output_dir.mkdir(parents=True, exist_ok=True)
    report = DeidReport()
    for skipped in found.skipped:
        report.outcomes.append(FileOutcome(path_id(skipped.path), skipped.path,
                                           error=skipped.reason, status=Status.FAILED))
    first: dict[str, FileOutcome] = {}  # document id -> the input kept
    inputs = found.files
    for index, path in enumerate(inputs):
        if ctx.cancel.cancelled:
            report.cancelled = True
            report.outcomes += [FileOutcome(path_id(p), p, error="the run was cancelled",
                                            status=Status.NOT_RUN) for p in inputs[index:]]
            break
        outcome = _deid_one(path, output_dir, first, session=session, pdf_mode=pdf_mode,
                            password=password, cire=cire, ctx=ctx)
        report.outcomes.append(outcome)
        if outcome.status == Status.NOT_RUN:
            report.cancelled = True
        if progress_enabled:
            ctx.report("deid", index + 1, len(inputs), outcome.document_id)
    _write_mapping(report, output_dir)
    return report


def _deid_one(path: Path, output_dir: Path, first: dict[str, FileOutcome], *,
              session: Session, pdf_mode: str, password: str | None, cire: bool,
              ctx: RunContext) -> FileOutcome:
    try:
        outcome = FileOutcome(document_id=document_id_for(path), source=path)
    except OSError as exc:  # permission denied, vanished since discovery, ...
        return FileOutcome(path_id(path), path, error=f"cannot read ({os_reason(exc)})",
                           status=Status.FAILED)
    kept = first.get(outcome.document_id)
    if kept is not None:
        outcome.status, outcome.error = Status.DUPLICATE, f"same content as {kept.label}"
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
        outcome.outputs = _write_outputs(path, doc, result, deid, output_dir,
                                         pdf_mode=pdf_mode, password=password,
                                         cire=cire, session=session, ctx=ctx)
    except CancelledError:
        outcome.status, outcome.error = Status.NOT_RUN, "the run was cancelled"
    except (ClearNoteError, OSError) as exc:
        outcome.status, outcome.error = Status.FAILED, problem_of(exc)
        log.warning("document %s failed: %s", outcome.document_id, type(exc).__name__)
    return outcome


def _write_outputs(path: Path, doc: Document, result: DetectionResult,
                   deid: DeidentifiedText, output_dir: Path, *, pdf_mode: str,
                   password: str | None, cire: bool, session: Session,
                   ctx: RunContext | None = None) -> list[Path]:
    """A document's outputs, all or none: on any failure (a cancellation included) the
    files already written for it are removed, so a re-run starts it clean."""
    written: list[Path] = []
    try:
        _write_each(path, doc, result, deid, output_dir, written, pdf_mode=pdf_mode,
                    password=password, cire=cire, session=session, ctx=ctx)
    except BaseException:
        for done in written:
            done.unlink(missing_ok=True)
        raise
    return written


def _write_each(path: Path, doc: Document, result: DetectionResult, deid: DeidentifiedText,
                output_dir: Path, outputs: list[Path], *, pdf_mode: str,
                password: str | None, cire: bool, session: Session,
                ctx: RunContext | None) -> None:
    from engine.exporters import write_json_sidecar, write_redacted_pdf, write_text

    stem = output_dir / doc.id
    text_path = stem.with_suffix(".deid.txt")
    write_text(deid, text_path, ctx=ctx)
    outputs.append(text_path)
    extra: dict = {}
    if cire:
        from engine.cire import assess

        report = assess(doc, deid, policy=session.policy)
        extra["cire"] = report.to_json()
    sidecar = stem.with_suffix(".json")
    write_json_sidecar(doc, result.active, deid, sidecar, extra=extra, ctx=ctx)
    outputs.append(sidecar)
    if has_pages(doc.media_type):
        pdf_path = stem.with_suffix(".redacted.pdf")
        write_redacted_pdf(path, doc, result.active, pdf_path, surrogate=deid,
                           mode=pdf_mode, password=password, ctx=ctx)
        outputs.append(pdf_path)


def _write_mapping(report: DeidReport, output_dir: Path) -> None:
    handle = io.StringIO()
    writer = csv.writer(handle)
    writer.writerow(["document_id", "source", "status", "spans", "outputs", "error"])
    for o in report.outcomes:
        writer.writerow([o.document_id, str(o.source), o.status,
                         o.spans, ";".join(p.name for p in o.outputs), o.error or ""])
    write_text_atomic(output_dir / "mapping.csv", handle.getvalue())
