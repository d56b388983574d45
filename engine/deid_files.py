"""`clearnote deid FILE_OR_DIR... --output-dir DIR`: de-identify files without a project.

Outputs are named by a stable document id (a prefix of the file's sha256), never by the
original file name, which often holds a patient's name; `mapping.csv` links the two.
"""

from __future__ import annotations

import csv
import hashlib
import logging
import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, DetectionResult, Document
from engine.core.errors import ClearNoteError, UsageError

log = logging.getLogger(__name__)

SUPPORTED_SUFFIXES = frozenset({
    ".txt", ".text", ".md", ".csv", ".tsv", ".rtf", ".pdf", ".png", ".jpg", ".jpeg",
    ".tif", ".tiff", ".bmp", ".docx",
})
PAGE_MEDIA = ("application/pdf", "image/")


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


def collect_inputs(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*")
                            if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES
                            and not p.name.startswith("."))
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"{path}: no such file or folder")
    return list(dict.fromkeys(p.resolve() for p in files))


def check_output_dir(inputs: list[Path], output_dir: Path) -> None:
    """Outputs never land among the inputs: not inside an input folder (a re-run would read
    them back in), not in the folder of an input file."""
    out = output_dir.resolve()
    for path in inputs:
        if path.is_dir():
            folder = path.resolve()
            if out == folder or folder in out.parents:
                raise UsageError(f"{output_dir}: the output folder must not be inside an "
                                 f"input folder ({path})")
        elif out == path.resolve().parent:
            raise UsageError(f"{output_dir}: the output folder must not be the folder of an "
                             f"input file ({path})")


def document_id_for(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def atomic_write_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def deid_paths(paths: list[Path], output_dir: Path, *, session: object, pdf_mode: str = "redacted",
               password: str | None = None, cire: bool = False,
               progress_enabled: bool = True, ctx: RunContext | None = None) -> DeidReport:
    from engine.api import Session, load_document

    assert isinstance(session, Session)
    ctx = ctx or RunContext()
    check_output_dir(paths, output_dir)
    inputs = collect_inputs(paths)
    output_dir.mkdir(parents=True, exist_ok=True)
    report = DeidReport()
    for index, path in enumerate(inputs):
        ctx.check()
        outcome = FileOutcome(document_id=document_id_for(path), source=path)
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
                   password: str | None, cire: bool, session: object) -> list[Path]:
    from engine.exporters import write_json_sidecar, write_redacted_pdf, write_text

    stem = output_dir / doc.id
    text_path = stem.with_suffix(".deid.txt")
    write_text(deid, text_path)
    outputs = [text_path]
    extra: dict = {}
    if cire:
        from engine.cire import assess

        report = assess(doc, deid, policy=session.policy)  # type: ignore[attr-defined]
        extra["cire"] = report.to_json()
    sidecar = stem.with_suffix(".json")
    write_json_sidecar(doc, result.active, deid, sidecar, extra=extra)
    outputs.append(sidecar)
    if doc.media_type.startswith(PAGE_MEDIA):
        pdf_path = stem.with_suffix(".redacted.pdf")
        write_redacted_pdf(path, doc, result.active, pdf_path, surrogate=deid,
                           mode=pdf_mode, password=password)
        outputs.append(pdf_path)
    return outputs


def _write_mapping(report: DeidReport, output_dir: Path) -> None:
    path = output_dir / "mapping.csv"
    fd, tmp = tempfile.mkstemp(dir=output_dir, prefix=".mapping.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["document_id", "source", "status", "spans", "outputs", "error"])
        for o in report.outcomes:
            writer.writerow([o.document_id, str(o.source), "failed" if o.error else "ok",
                             o.spans, ";".join(p.name for p in o.outputs), o.error or ""])
    os.replace(tmp, path)
