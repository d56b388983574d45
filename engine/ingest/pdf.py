"""PDF ingest with pypdfium2: per page, a sane text layer is used with per-char boxes;
otherwise the page is rendered at 300 dpi and OCRed. Mixed documents work page by page.

Boxes of PDF pages are in PDF user space (points, origin bottom-left, y up), whether they
came from the text layer or from OCR (pixel boxes are mapped back through the renderer).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from engine.core.context import RunContext
from engine.core.domain import CharBox, Document
from engine.core.errors import (
    CorruptDocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    InputError,
)
from engine.ingest.assemble import DocumentBuilder, PageText
from engine.ingest.ocr import (
    OcrEngine,
    OcrPage,
    PixelBox,
    default_engine,
    layout_words,
    ocr_pages,
)
from engine.ingest.pdfium_lock import PDFIUM

if TYPE_CHECKING:
    from PIL import Image

OCR_DPI = 300
MIN_TEXT_CHARS = 1  # non-space characters for a text layer to count at all
MAX_BAD_RATIO = 0.10  # unmapped / replacement / private-use characters tolerated
SPARSE_TEXT_CHARS = 60  # below this, a page that is mostly image is treated as a scan
BIG_IMAGE_AREA = 0.30  # fraction of the page an image must cover to be "mostly image"


def open_pdf(path: Path, password: str | None = None) -> pdfium.PdfDocument:
    """Open a PDF, translating PDFium's errors into ClearNote's (messages name the file)."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - 2048))
            tail = fh.read()
    except OSError as exc:
        raise InputError(path, f"cannot be read ({exc.strerror or type(exc).__name__})") from exc
    if size == 0:
        raise EmptyDocumentError(path, "file is empty (0 bytes)")
    try:
        pdf = pdfium.PdfDocument(path, password=password)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            problem = ("PDF is password protected; give its password" if password is None
                       else "PDF is password protected and the password given is wrong")
            raise EncryptedDocumentError(path, problem) from exc
        if code == pdfium_c.FPDF_ERR_SECURITY:
            raise EncryptedDocumentError(path, "PDF uses an unsupported encryption scheme") from exc
        raise CorruptDocumentError(path, "PDF is damaged and cannot be opened") from exc
    # PDFium quietly rebuilds truncated files, possibly without their last pages: fail closed.
    if b"%%EOF" not in tail:
        pdf.close()
        raise CorruptDocumentError(path, "PDF is truncated (no end-of-file marker)")
    if len(pdf) == 0:
        pdf.close()
        raise CorruptDocumentError(path, "PDF has no readable pages")
    return pdf


@dataclass
class _Affine:
    """Bitmap pixel → page point mapping of one rendering (exact: rendering is affine)."""

    ox: float
    oy: float
    ax: float
    ay: float
    bx: float
    by: float

    @classmethod
    def from_posconv(cls, conv: pdfium.PdfPosConv) -> _Affine:
        o = conv.to_page(0, 0)
        x = conv.to_page(1000, 0)
        y = conv.to_page(0, 1000)
        return cls(o[0], o[1], (x[0] - o[0]) / 1000, (x[1] - o[1]) / 1000,
                   (y[0] - o[0]) / 1000, (y[1] - o[1]) / 1000)

    def box(self, number: int, px: PixelBox) -> CharBox:
        x0, y0, x1, y1 = px
        pts = [(self.ox + x * self.ax + y * self.bx, self.oy + x * self.ay + y * self.by)
               for x, y in ((x0, y0), (x1, y1))]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return CharBox(number, min(xs), min(ys), max(xs), max(ys))


def render_page(page: pdfium.PdfPage, dpi: int, *, grayscale: bool
                ) -> tuple[Image.Image, _Affine]:
    bitmap = page.render(scale=dpi / 72, grayscale=grayscale, may_draw_forms=True)
    affine = _Affine.from_posconv(bitmap.get_posconv(page))
    return bitmap.to_pil(), affine


def _is_bad(ch: str) -> bool:
    if ch == "\ufffd":
        return True
    cat = unicodedata.category(ch)
    return cat in ("Co", "Cs") or (cat == "Cc" and ch not in "\n\t\f")


def extract_text_layer(page: pdfium.PdfPage, number: int) -> tuple[PageText, int, int]:
    """The page's text layer with one loose box per character (None for characters PDFium
    generated: inferred spaces and line breaks). Returns (page, non-space chars, bad chars)."""
    width, height = page.get_size()
    out = PageText(number=number, width=width, height=height)
    textpage = page.get_textpage()
    try:
        tp = textpage.raw
        count = pdfium_c.FPDFText_CountChars(tp)
        rect = pdfium_c.FS_RECTF()
        nonspace = bad = 0
        chars: list[str] = []
        i = 0
        while i < count:
            code = pdfium_c.FPDFText_GetUnicode(tp, i)
            step = 1
            if 0xD800 <= code < 0xDC00 and i + 1 < count:
                low = pdfium_c.FPDFText_GetUnicode(tp, i + 1)
                if 0xDC00 <= low < 0xE000:
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    step = 2
            ch = chr(code) if code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"
            generated = pdfium_c.FPDFText_IsGenerated(tp, i) == 1
            if ch == "\r":
                nxt = pdfium_c.FPDFText_GetUnicode(tp, i + 1) if i + 1 < count else 0
                i += step
                if nxt == 10:
                    continue  # CRLF → LF (the LF follows)
                ch = "\n"
            else:
                i += step
            if ch == "\x02":  # PDFium's marker for a hyphen at a line end
                ch = "-"
            box: CharBox | None = None
            if not generated and not ch.isspace():
                if pdfium_c.FPDFText_GetLooseCharBox(tp, i - step, rect):
                    box = CharBox(number, rect.left, rect.bottom, rect.right, rect.top)
                if pdfium_c.FPDFText_HasUnicodeMapError(tp, i - step) == 1:
                    bad += 1
            if not ch.isspace():
                nonspace += 1
                if _is_bad(ch):
                    bad += 1
            if "\ufb00" <= ch <= "\ufb06":  # ligatures (ﬁ, ﬂ): spell them out for detectors
                expanded = unicodedata.normalize("NFKC", ch)
                chars.append(expanded)
                out.boxes.extend([box] * len(expanded))
                continue
            chars.append(ch)
            out.boxes.append(box)
        out.text = "".join(chars)
        return out, nonspace, bad
    finally:
        textpage.close()


def _image_coverage(page: pdfium.PdfPage) -> float:
    width, height = page.get_size()
    area = max(width * height, 1.0)
    best = 0.0
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3):
        left, bottom, right, top = obj.get_bounds()
        best = max(best, max(0.0, right - left) * max(0.0, top - bottom) / area)
    return best


def load_pdf(path: Path, *, password: str | None = None, ocr: OcrEngine | None = None,
             ctx: RunContext | None = None) -> Document:
    ctx = ctx or RunContext()
    with PDFIUM:
        pdf = open_pdf(path, password)
    try:
        with PDFIUM:  # the text pass is all PDFium; OCR below runs outside the lock
            pages, to_ocr, builder = _text_pass(pdf, path, ctx)
        total = len(pages)
        if to_ocr:
            engine = ocr if ocr is not None else default_engine()
            affines: dict[int, _Affine] = {}

            def rendered() -> Iterator[Image.Image]:
                for index in to_ocr:
                    with PDFIUM:  # not across the yield: OCR runs outside the lock
                        page = pdf[index]
                        try:
                            image, affines[index] = render_page(page, OCR_DPI,
                                                                grayscale=True)
                        finally:
                            page.close()
                    yield image

            for k, result in ocr_pages(engine, rendered(), total=len(to_ocr), ctx=ctx,
                                       stage="ocr"):
                index = to_ocr[k]
                with PDFIUM:
                    size = pdf.get_page_size(index)
                pages[index] = _ocr_page_text(result, index + 1, affines.pop(index), size)
                ctx.report("ingest", total - len(to_ocr) + k + 1, total,
                           f"page {index + 1} OCR")
        for page_text in pages:
            assert page_text is not None
            builder.add_page(page_text)
        return builder.build(source_path=str(path), media_type="application/pdf")
    finally:
        with PDFIUM:
            pdf.close()


def _text_pass(pdf: pdfium.PdfDocument, path: Path, ctx: RunContext
               ) -> tuple[list[PageText | None], list[int], DocumentBuilder]:
    """Every page's text layer where it is sane; the pages to OCR, with why."""
    total = len(pdf)
    builder = DocumentBuilder()
    pages: list[PageText | None] = [None] * total
    to_ocr: list[int] = []
    for index in range(total):
        ctx.check()
        number = index + 1
        try:
            page = pdf[index]
        except pdfium.PdfiumError as exc:
            raise CorruptDocumentError(path, f"page {number} cannot be read") from exc
        try:
            text_page, nonspace, bad = extract_text_layer(page, number)
            coverage = _image_coverage(page)
        finally:
            page.close()
        if nonspace < MIN_TEXT_CHARS:
            to_ocr.append(index)
            builder.warnings.append(f"page {number} had no text layer: OCR used")
        elif bad > MAX_BAD_RATIO * nonspace:
            to_ocr.append(index)
            builder.warnings.append(f"page {number} text layer is unreadable "
                                    f"({bad} of {nonspace} characters): OCR used")
        elif nonspace < SPARSE_TEXT_CHARS and coverage >= BIG_IMAGE_AREA:
            to_ocr.append(index)
            builder.warnings.append(f"page {number} is mostly an image with little "
                                    "text: OCR used")
        else:
            pages[index] = text_page
            if coverage >= BIG_IMAGE_AREA:
                builder.warnings.append(f"page {number} has a large image whose content "
                                        "was not read (text layer used)")
            ctx.report("ingest", index + 1 - len(to_ocr), total, f"page {number} text")
    return pages, to_ocr, builder


def _ocr_page_text(result: OcrPage, number: int, affine: _Affine,
                   size: tuple[float, float]) -> PageText:
    text, boxes, conf = layout_words(result, lambda px: affine.box(number, px))
    return PageText(number=number, width=size[0], height=size[1], text=text, boxes=boxes,
                    ocr=True, confidences=conf)
