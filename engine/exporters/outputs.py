"""The one export path: every front end (``clearnote deid``, project export and batch, the
desktop, the Spark job) writes a document's files through ``write_outputs``.

Files are named ``<document id><suffix>``, never after the source file. Each format is
written to a temp file, and all of them are renamed only once every one exists: a failed
format leaves no file of this export, and an earlier export's files stay as they were.
Every file is de-identified material: the JSON/JSONL records and the BRAT and CSV span
tables are re-checked for the document's original strings and its source file's name.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.cire.guard import ClinicalGuard
from engine.cire.report import CireFlag, FlagSource, Severity
from engine.core.context import RunContext
from engine.core.domain import ACTIVE_STATUSES, DeidentifiedText, Document, Span, SurrogateMode
from engine.core.errors import UsageError
from engine.core.files import (
    PRIVATE_FILE,
    create_private_file,
    file_sha256,
    fsync_file,
    private_dir,
)
from engine.core.policies import Policy
from engine.exporters.brat import write_deid_ann
from engine.exporters.csv import write_csv_summary
from engine.exporters.geometry import PageBox
from engine.exporters.jsonl import write_json_sidecar, write_jsonl_record
from engine.exporters.reports import source_name_parts
from engine.exporters.text import write_text
from engine.exporters.verify import verify_no_strings
from engine.ingest.discover import has_pages

# Output file name per format, after the document id. BRAT's .ann pairs with the .deid.txt.
FORMAT_SUFFIXES: dict[str, str] = {
    "txt": ".deid.txt", "json": ".json", "pdf": ".redacted.pdf", "brat": ".deid.ann",
    "csv": ".spans.csv", "jsonl": ".jsonl"}
DEFAULT_FORMATS = ("txt", "json", "pdf")  # "pdf" applies to PDF and image documents only
TEMP_PREFIX = ".cn-tmp-"
SPAN_COLUMNS = ("span_id", "label", "subtype", "output_start", "output_end", "page",
                "source", "detector", "confidence", "status", "cire_high")


@dataclass(frozen=True)
class ExportJob:
    """One document to write: its spans, its de-identified text and what the writers need."""

    document: Document
    spans: tuple[Span, ...]
    deid: DeidentifiedText
    mode: SurrogateMode
    source: Path | None = None  # the original file (the redacted PDF is built from it)
    pdf_mode: str = "redacted"
    password: str | None = None
    cire: Mapping[str, Any] = field(default_factory=dict)  # the sidecar's "cire" block
    forbidden: tuple[str, ...] = ()  # source-name strings no record may contain
    # Polled between formats and inside the writers' re-verification (a 10 MB text takes
    # seconds to check), so a cancel stops an export within a second or two.
    ctx: RunContext | None = field(default=None, compare=False, repr=False)
    # Rectangles a reviewer drew to redact (signatures, logos): burnt into the redacted PDF.
    boxes: tuple[PageBox, ...] = ()

    @property
    def high_flags(self) -> int:
        return int(self.cire.get("high_flags", 0))


Writer = Callable[[ExportJob, Path], None]


@dataclass(frozen=True)
class Written:
    format: str
    path: Path
    sha256: str


def check_formats(formats: Sequence[str]) -> None:
    unknown = sorted(set(formats) - set(FORMAT_SUFFIXES))
    if unknown:
        raise UsageError(f"unknown export format(s): {', '.join(unknown)} "
                         f"(known: {', '.join(FORMAT_SUFFIXES)})")


class _HasMediaType(Protocol):
    @property
    def media_type(self) -> str: ...


def formats_for(doc: _HasMediaType, formats: Sequence[str]) -> list[str]:
    """The formats that apply to ``doc``: a redacted PDF only for documents with pages;
    BRAT brings the de-identified text its offsets point into."""
    out = [f for f in formats if f != "pdf" or has_pages(doc.media_type)]
    if "brat" in out and "txt" not in out:
        out.insert(out.index("brat"), "txt")
    return out


def output_names(doc_id: str, formats: Sequence[str]) -> list[str]:
    return [f"{doc_id}{FORMAT_SUFFIXES[f]}" for f in formats]


def cire_guard(doc: Document, deid: DeidentifiedText, policy: Policy,
               ctx: RunContext | None = None) -> dict[str, Any]:
    """The deterministic CIRE guard over the replacements (no model): flags with offsets
    and categories, never text, and the count of high-severity ones."""
    findings = ClinicalGuard(policy=policy).check(doc, deid.text, deid.replacements,
                                                  check=ctx.check if ctx else None)
    flags = [CireFlag(f.replacement.span_id, 0, f.reason, f.severity, FlagSource.GUARD,
                      f.detail, f.replacement.start, f.replacement.end,
                      f.replacement.output_start, f.replacement.output_end).to_json()
             for f in findings]
    for flag in flags:
        flag.pop("chunk")  # the guard does not align chunks
    return {"judge": None, "flags": flags,
            "high_flags": sum(f.severity is Severity.HIGH for f in findings)}


def export_job(doc: Document, spans: Sequence[Span], deid: DeidentifiedText, *,
               policy: Policy, source: str | Path | None = None, pdf_mode: str = "redacted",
               password: str | None = None, cire: Mapping[str, Any] | None = None,
               ctx: RunContext | None = None, boxes: Sequence[PageBox] = ()) -> ExportJob:
    """An ``ExportJob`` with the CIRE guard's flags (or the full ``cire`` report given,
    whose high flags are counted the same way). ``ctx`` is polled by the guard and by
    ``write_outputs``."""
    source = source if source is not None else doc.source_path
    block = dict(cire) if cire is not None else cire_guard(doc, deid, policy, ctx)
    block.setdefault("high_flags", sum(f.get("severity") == Severity.HIGH.value
                                       for f in block.get("flags", [])))
    return ExportJob(doc, tuple(spans), deid, deid.mode, Path(source) if source else None,
                     pdf_mode, password, block,
                     source_name_parts(source, phi=_phi_strings(doc, spans)) if source
                     else (), ctx, tuple(boxes))


def _phi_strings(doc: Document, spans: Sequence[Span]) -> list[str]:
    return [doc.text[s.start:s.end] for s in spans if s.status in ACTIVE_STATUSES]


def _write_txt(job: ExportJob, path: Path) -> None:
    write_text(job.deid, path, ctx=job.ctx)


def _write_json(job: ExportJob, path: Path) -> None:
    write_json_sidecar(job.document, job.spans, job.deid, path, extra={"cire": dict(job.cire)},
                       forbidden=job.forbidden, ctx=job.ctx)


def _write_jsonl(job: ExportJob, path: Path) -> None:
    path.unlink(missing_ok=True)  # one record per document file, never appended
    write_jsonl_record(job.document, job.spans, job.deid, path,
                       extra={"cire": dict(job.cire)}, forbidden=job.forbidden)


def _write_brat(job: ExportJob, path: Path) -> None:
    write_deid_ann(job.document, job.spans, job.deid, path, forbidden=job.forbidden)


def _write_csv(job: ExportJob, path: Path) -> None:
    by_id = {s.id: s for s in job.spans}
    high = {f.get("replacement_span_id") for f in job.cire.get("flags", [])
            if f.get("severity") == Severity.HIGH.value}
    rows = []
    for r in job.deid.replacements:
        span = by_id.get(r.span_id)
        page = next((p.number for p in job.document.pages if p.start <= r.start < p.end), "")
        rows.append({"span_id": r.span_id, "label": r.label.value, "subtype": r.subtype or "",
                     "output_start": r.output_start, "output_end": r.output_end, "page": page,
                     "source": span.source.value if span else "",
                     "detector": (span.detector or "") if span else "",
                     "confidence": round(span.confidence, 4) if span else "",
                     "status": span.status.value if span else "",
                     "cire_high": int(r.span_id in high)})
    write_csv_summary(rows, path, columns=SPAN_COLUMNS)
    verify_no_strings(path.read_text(encoding="utf-8"), job.forbidden, path.name)


def _write_pdf(job: ExportJob, path: Path) -> None:
    from engine.exporters.pdf import write_redacted_pdf  # PDFium: only for PDF outputs

    write_redacted_pdf(job.source or Path(""), job.document, job.spans, path,
                       surrogate=job.deid, mode=job.pdf_mode,  # type: ignore[arg-type]
                       password=job.password, boxes=job.boxes)


DEFAULT_WRITERS: dict[str, Writer] = {
    "txt": _write_txt, "json": _write_json, "pdf": _write_pdf, "brat": _write_brat,
    "csv": _write_csv, "jsonl": _write_jsonl}


def write_outputs(job: ExportJob, out_dir: Path, formats: Sequence[str], *,
                  writers: Mapping[str, Writer] | None = None, durable: bool = False
                  ) -> list[Written]:
    """Write every applicable format of ``job`` into ``out_dir``, all or none (temp files
    renamed together). ``writers`` replaces the default writer of some formats (tests);
    ``durable`` fsyncs each file before the renames. ``job.ctx`` is polled before each
    format and before the renames: a cancelled export leaves no file of its own."""
    check_formats(formats)
    private_dir(out_dir)
    staged: list[tuple[str, Path, Path]] = []
    try:
        for fmt in formats_for(job.document, formats):
            target = out_dir / f"{job.document.id}{FORMAT_SUFFIXES[fmt]}"
            tmp = out_dir / f"{TEMP_PREFIX}{secrets.token_hex(4)}-{target.name}"
            staged.append((fmt, target, tmp))
            if job.ctx is not None:
                job.ctx.check()
            writer = (writers or {}).get(fmt) or DEFAULT_WRITERS[fmt]
            create_private_file(tmp)  # owner-only, whatever the writer does
            writer(job, tmp)
            os.chmod(tmp, PRIVATE_FILE)  # a writer that replaced the file got the umask
            if durable:
                fsync_file(tmp)
        written = [Written(fmt, target, file_sha256(tmp)) for fmt, target, tmp in staged]
        if job.ctx is not None:
            job.ctx.check()  # the last chance: after the renames the export is whole
        for _, target, tmp in staged:
            os.replace(tmp, target)
    finally:
        for _, _, tmp in staged:
            tmp.unlink(missing_ok=True)
    return written
