"""Documents in: PDF (text layer or OCR, page by page), images, DOCX and plain text."""

from __future__ import annotations

from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.errors import EmptyDocumentError, InputError
from engine.ingest.assemble import PAGE_SEPARATOR
from engine.ingest.ocr import (
    DoctrEngine,
    OcrEngine,
    OcrPage,
    OcrWord,
    TesseractEngine,
    default_engine,
)
from engine.ingest.sniff import IMAGE_KINDS, Kind, sniff

__all__ = [
    "PAGE_SEPARATOR", "DoctrEngine", "Kind", "OcrEngine", "OcrPage", "OcrWord",
    "TesseractEngine", "default_engine", "load_document", "sniff",
]

MAX_TEXT_BYTES = 100 * 1024 * 1024


def load_document(path: str | Path, *, password: str | None = None,
                  ocr: OcrEngine | None = None, ctx: RunContext | None = None) -> Document:
    """Read any supported file into a Document. The format is decided by content (magic
    bytes), not the extension, so an image renamed .pdf is read as the image it is."""
    path = Path(path)
    kind = sniff(path)
    ctx = ctx or RunContext()
    ctx.check()
    if kind is Kind.PDF:
        from engine.ingest.pdf import load_pdf

        doc = load_pdf(path, password=password, ocr=ocr, ctx=ctx)
    elif kind in IMAGE_KINDS:
        from engine.ingest.images import load_image

        doc = load_image(path, media_type=kind.value, ocr=ocr, ctx=ctx)
    elif kind is Kind.DOCX:
        from engine.ingest.docx import load_docx

        doc = load_docx(path)
        ctx.report("ingest", 1, 1, "docx")
    else:
        from engine.ingest.text import load_text

        if path.stat().st_size > MAX_TEXT_BYTES:
            raise InputError(path, "text file is larger than 100 MB")
        doc = load_text(path, path.read_bytes())
        ctx.report("ingest", 1, 1, "text")
    if not doc.text.strip() and kind in (Kind.DOCX, Kind.TEXT):
        raise EmptyDocumentError(path, "document contains no text")
    return doc
