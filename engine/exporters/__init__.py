"""Documents out: de-identified text, JSON/JSONL, BRAT, CSV and redacted PDF, all written
through ``write_outputs`` (the one export path); the key and report schemas. Every
exporter writes to a temp file, re-reads and verifies it, then renames."""

from __future__ import annotations

from typing import Any

from engine.exporters.brat import write_brat, write_deid_ann
from engine.exporters.csv import write_csv_summary
from engine.exporters.geometry import PageBox, page_frames, span_page_boxes
from engine.exporters.jsonl import jsonl_record, write_json_sidecar, write_jsonl_record
from engine.exporters.outputs import (
    DEFAULT_FORMATS,
    FORMAT_SUFFIXES,
    ExportJob,
    Writer,
    Written,
    check_formats,
    cire_guard,
    export_job,
    formats_for,
    write_outputs,
)
from engine.exporters.text import write_text


def __getattr__(name: str) -> Any:
    # The PDF exporter loads PDFium and PIL: only when asked for (PEP 562).
    if name in ("verify_pdf", "write_redacted_pdf"):
        from engine.exporters import pdf

        return getattr(pdf, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["DEFAULT_FORMATS", "FORMAT_SUFFIXES", "ExportJob", "Writer", "Written",
           "check_formats", "cire_guard", "export_job", "formats_for", "jsonl_record",
           "PageBox", "page_frames", "span_page_boxes", "verify_pdf", "write_brat",
           "write_csv_summary",
           "write_deid_ann", "write_json_sidecar", "write_jsonl_record", "write_outputs",
           "write_redacted_pdf", "write_text"]
