"""Verification after a redacted PDF is written: re-open it and look for what must be gone.

``verify_pdf``: no redacted string can still be extracted (per page, from the metadata, and
across pages), and no annotation, form field or attachment survived. ``verify_boxes``: no
text remains under a box redaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from engine.core.domain import Document, Span
from engine.core.errors import ExportVerificationError
from engine.exporters.geometry import PageBox, PageFrame
from engine.exporters.verify import find_leaks, masked_original, needles
from engine.ingest.pdfium_lock import serialized


@serialized
def verify_pdf(path: Path, doc: Document, spans: Sequence[Span], what: str
               ) -> list[tuple[Span, int | None]]:
    """Re-open ``path`` and return every (span, page number or None for metadata /
    cross-page) whose original string is still extractable. Raises if annotations, form
    fields or attachments survived."""
    checks = needles(doc, spans)
    leaks: list[tuple[Span, int | None]] = []
    pdf = pdfium.PdfDocument(path)
    try:
        if pdf.count_attachments():
            raise ExportVerificationError(f"{what}: output still has attachments")
        if pdf.get_formtype() != pdfium_c.FORMTYPE_NONE:
            raise ExportVerificationError(f"{what}: output still has form fields")
        meta = " \n ".join(v for v in pdf.get_metadata_dict(skip_empty=True).values())
        if meta.strip():
            for span in find_leaks(meta, "", checks):
                leaks.append((span, None))
        all_text: list[str] = []
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                if pdfium_c.FPDFPage_GetAnnotCount(page.raw) > 0:
                    raise ExportVerificationError(f"{what}: page {index + 1} still has "
                                                  "annotations")
                textpage = page.get_textpage()
                text = textpage.get_text_range()
                textpage.close()
            finally:
                page.close()
            all_text.append(text)
            number = index + 1
            src = next((p for p in doc.pages if p.number == number), None)
            allowed = (masked_original(doc, spans, src.start, src.end) if src is not None
                       else masked_original(doc, spans))
            for span in find_leaks(text, allowed, checks):
                leaks.append((span, number))
        # Whole-document pass: a string split over pages or objects must not reappear either.
        for span in find_leaks("\n".join(all_text), masked_original(doc, spans), checks):
            if not any(s.id == span.id for s, _ in leaks):
                leaks.append((span, None))
    finally:
        pdf.close()
    return leaks


@serialized
def verify_boxes(path: Path, boxes: Sequence[PageBox], frames: dict[int, PageFrame],
                 what: str) -> None:
    """No text can be extracted from under a box redaction (its inner part: a word
    touching the edge keeps its outside letters)."""
    if not boxes:
        return
    pdf = pdfium.PdfDocument(path)
    try:
        for box in boxes:
            x0, y0, x1, y1 = frames[box.page].to_source(box.rect)
            if x1 - x0 <= 2 or y1 - y0 <= 2:
                continue
            page = pdf[box.page - 1]
            textpage = page.get_textpage()
            try:
                inside = textpage.get_text_bounded(x0 + 1, y0 + 1, x1 - 1, y1 - 1)
            finally:
                textpage.close()
                page.close()
            if inside.strip():
                raise ExportVerificationError(f"{what}: text remains under a box redaction "
                                              f"on page {box.page}")
    finally:
        pdf.close()
