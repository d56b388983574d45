"""Document throughput: pages/s for text-layer PDFs, scanned (OCR) pages and redacted-PDF
export. Prints figures; not a test.
Usage: python benchmarks/documents.py [text_pages] [scan_pages]"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.exporters import write_redacted_pdf  # noqa: E402
from engine.ingest import load_document  # noqa: E402
from engine.ingest.ocr import default_workers  # noqa: E402
from tests.fixtures_docs import (  # noqa: E402
    degrade,
    letter_pages,
    planted_spans,
    render_pages,
    write_image_pdf,
    write_text_pdf,
)


def main(text_pages: int = 100, scan_pages: int = 6) -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        pages = (letter_pages() * (text_pages // 2 + 1))[:text_pages]
        text_pdf = write_text_pdf(tmp / "text.pdf", pages, extras=False)
        load_document(text_pdf)  # warm-up (imports)
        t = time.perf_counter()
        doc = load_document(text_pdf)
        dt = time.perf_counter() - t
        print(f"text-layer PDF ingest: {text_pages} pages in {dt:.2f} s = "
              f"{text_pages / dt:.0f} pages/s")
        spans = planted_spans(doc)
        t = time.perf_counter()
        write_redacted_pdf(text_pdf, doc, spans, tmp / "text.redacted.pdf")
        dt = time.perf_counter() - t
        print(f"redacted PDF (glyph removal + verify): {text_pages} pages, {len(spans)} spans "
              f"in {dt:.2f} s = {text_pages / dt:.1f} pages/s")

        images = render_pages(write_text_pdf(tmp / "two.pdf", extras=False))
        scans = [degrade(images[i % 2], seed=i) if i % 2 else images[i % 2]
                 for i in range(scan_pages)]
        scan_pdf = write_image_pdf(tmp / "scan.pdf", scans)
        t = time.perf_counter()
        doc = load_document(scan_pdf)
        dt = time.perf_counter() - t
        print(f"scanned PDF ingest (render 300 dpi + Tesseract, {default_workers()} workers): "
              f"{scan_pages} pages in {dt:.2f} s = {scan_pages / dt:.2f} pages/s")
        spans = planted_spans(doc)
        t = time.perf_counter()
        write_redacted_pdf(scan_pdf, doc, spans, tmp / "scan.redacted.pdf")
        dt = time.perf_counter() - t
        print(f"redacted scanned PDF (raster 200 dpi + verify): {scan_pages} pages in "
              f"{dt:.2f} s = {scan_pages / dt:.1f} pages/s")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
