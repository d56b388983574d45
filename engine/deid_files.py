"""`clearnote deid FILE_OR_DIR... --output-dir DIR`: de-identify files without a project.

Outputs are named by a document id (keyed with the run's secret, see ``document_id_for``), never by the
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
from engine.core.errors import ClearNoteError
from engine.core.files import file_sha256, keyed_document_id, private_dir, write_text_atomic
from engine.ingest.discover import check_output_dir, collect_inputs, has_pages
from engine.session import Session, load_document

log = logging.getLogger(__name__)


@dataclass
class FileOutcome:
    document_id: str
    source: Path
    outputs: list[Path] = field(default_factory=list)
    error: str | None = None
    spans: int = 0


@dataclass
class DeidReport:
    outcomes: list[FileOutcome] = field(default_factory=list)

    @property
    def failed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.error is not None]

    def summary(self) -> str:
        done = len(self.outcomes) - len(self.failed)
        lines = [f"de-identified {done} of {len(self.outcomes)} file(s)"]
        lines += [f"  failed: {o.source}: {o.error}" for o in self.failed]
        return "\n".join(lines)


def document_id_for(path: Path, secret: bytes) -> str:
    """Keyed with the run's secret (random unless --secret-file): no hash of the original."""
    return keyed_document_id(secret, file_sha256(path))


def deid_paths(paths: list[Path], output_dir: Path, *, session: Session,
               pdf_mode: str = "redacted", password: str | None = None, cire: bool = False,
               progress_enabled: bool = True, ctx: RunContext | None = None) -> DeidReport:
    ctx = ctx or RunContext()
    check_output_dir(paths, output_dir)
    inputs = collect_inputs(paths)
    private_dir(output_dir)
    report = DeidReport()
    for index, path in enumerate(inputs):
        ctx.check()
        outcome = FileOutcome(document_id=document_id_for(path, session.config.secret), source=path)
        report.outcomes.append(outcome)
        try:
            doc = load_document(path, password=password, ctx=ctx)
            doc = replace(doc, id=outcome.document_id)
            result, deid = session.process(doc, ctx)
            outcome.spans = len(result.active)
            outcome.outputs = _write_outputs(path, doc, result, deid, output_dir,
                                             pdf_mode=pdf_mode, password=password,
                                             cire=cire, session=session)
        except ClearNoteError as exc:
            outcome.error = str(exc)
            log.warning("document %s failed: %s", outcome.document_id, type(exc).__name__)
        if progress_enabled:
            ctx.report("deid", index + 1, len(inputs), outcome.document_id)
    _write_mapping(report, output_dir)
    return report


def _write_outputs(path: Path, doc: Document, result: DetectionResult,
                   deid: DeidentifiedText, output_dir: Path, *, pdf_mode: str,
                   password: str | None, cire: bool, session: Session) -> list[Path]:
    from engine.exporters import write_json_sidecar, write_redacted_pdf, write_text

    stem = output_dir / doc.id
    text_path = stem.with_suffix(".deid.txt")
    write_text(deid, text_path)
    outputs = [text_path]
    extra: dict = {}
    if cire:
        from engine.cire import assess

        report = assess(doc, deid, policy=session.policy)
        extra["cire"] = report.to_json()
    sidecar = stem.with_suffix(".json")
    write_json_sidecar(doc, result.active, deid, sidecar, extra=extra)
    outputs.append(sidecar)
    if has_pages(doc.media_type):
        pdf_path = stem.with_suffix(".redacted.pdf")
        write_redacted_pdf(path, doc, result.active, pdf_path, surrogate=deid,
                           mode=pdf_mode, password=password)
        outputs.append(pdf_path)
    return outputs


def _write_mapping(report: DeidReport, output_dir: Path) -> None:
    handle = io.StringIO()
    writer = csv.writer(handle)
    writer.writerow(["document_id", "source", "status", "spans", "outputs", "error"])
    for o in report.outcomes:
        writer.writerow([o.document_id, str(o.source), "failed" if o.error else "ok",
                         o.spans, ";".join(p.name for p in o.outputs), o.error or ""])
    write_text_atomic(output_dir / "mapping.csv", handle.getvalue())
