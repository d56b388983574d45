"""Documents out: de-identified text, JSON/JSONL, BRAT, CSV summary and redacted PDF.
Every exporter writes to a temp file, re-reads and verifies it, then renames."""

from __future__ import annotations

from engine.exporters.brat import write_brat
from engine.exporters.csv import write_csv_summary
from engine.exporters.jsonl import jsonl_record, write_json_sidecar, write_jsonl_record
from engine.exporters.pdf import verify_pdf, write_redacted_pdf
from engine.exporters.text import write_text

__all__ = ["jsonl_record", "verify_pdf", "write_brat", "write_csv_summary",
           "write_json_sidecar", "write_jsonl_record", "write_redacted_pdf", "write_text"]
