"""Redacted PDF: the PHI is removed from the file, not just covered.

Per page of the output (a fresh document: no metadata, annotations, form fields,
attachments, thumbnails or incremental-update history survive):

* no live span on the page → the page's content is copied as a Form XObject (text stays);
* text-layer page → every top-level text object touching a span is removed from the
  content stream and replaced by an image of how that object looked, with the span areas
  burnt black into the pixels; unaffected text stays real text. If a span touches an image
  or a nested form (content we cannot edit glyph by glyph), the page falls back to:
* raster → the page is rendered, boxes are burnt into the pixels, and the page becomes one
  image (scanned/OCR pages always take this path).

Wherever text became pixels, the words no span touches come back as invisible text
(``pdf_text_layer``), so the redacted file stays searchable; scanned pages gain the OCR text.

Boxes are drawn on top (``pdf_boxes``: black, or white with the surrogate text in
``surrogate-text`` mode). The written file is re-opened and verified; a page that still
leaks is rebuilt without its invisible words, then as raster, and if anything still leaks
the file is deleted and ExportVerificationError raised.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw

from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, Document, Span
from engine.core.errors import ExportError, InputError
from engine.core.files import atomic_target
from engine.exporters.geometry import PageBox, PageFrame, page_frames, span_page_boxes
from engine.exporters.pdf_boxes import PAD, Mark, PdfMode, draw_boxes
from engine.exporters.pdf_text_layer import (
    Rect,
    Word,
    hidden_mask,
    insert_words,
    inside,
    intersects,
    page_words,
)
from engine.exporters.pdf_verify import verify_boxes, verify_pdf
from engine.exporters.verify import live_spans, raise_leaks
from engine.ingest.pdfium_lock import serialized

RASTER_DPI = 200
PATCH_DPI = 300
CHUNK_PAGES = 20  # pages built per freshly opened source (_build_from_pdf)


# --------------------------------------------------------------------------- geometry


def _surrogates(deid: DeidentifiedText | None) -> dict[str, str]:
    if deid is None:
        return {}
    return {r.span_id: deid.text[r.output_start:r.output_end] for r in deid.replacements}


def _marks(doc: Document, spans: Sequence[Span], deid: DeidentifiedText | None,
           mode: PdfMode, frames: dict[int, PageFrame]
           ) -> tuple[dict[int, list[Mark]], list[Span]]:
    """Marks per page number, and the live spans that have no box at all (cannot be
    located on the page: the export must refuse rather than silently skip them). The
    rectangles are the page view's (``span_page_boxes``), mapped back to page space."""
    subs = _surrogates(deid) if mode == "surrogate-text" else {}
    by_page: dict[int, list[Mark]] = defaultdict(list)
    unlocated: list[Span] = []
    for span in live_spans(spans):
        boxes = span_page_boxes(doc, span, frames)
        if not boxes:
            if doc.text[span.start:span.end].strip():
                unlocated.append(span)
            continue
        first = True
        for number in sorted({b.page for b in boxes}):
            rects = tuple(frames[number].to_source(b.rect) for b in boxes if b.page == number)
            by_page[number].append(Mark(span, rects, subs.get(span.id) if first else ""))
            first = False
    return by_page, unlocated


def _box_marks(boxes: Sequence[PageBox], frames: dict[int, PageFrame],
               by_page: dict[int, list[Mark]]) -> None:
    """Box redactions (view space) as marks in page space, beside the spans' marks."""
    for box in boxes:
        frame = frames.get(box.page)
        if frame is None:
            raise ExportError(f"a box redaction is on page {box.page}, which the document "
                              "does not have")
        by_page[box.page].append(Mark(None, (frame.to_source(box.rect),), None))


class _PixelMap:
    """Maps a document box (page space) to bitmap pixels of one rendering."""

    def __init__(self, conv: pdfium.PdfPosConv | None = None, scale: float = 1.0) -> None:
        self.conv, self.scale = conv, scale

    def rect(self, r: Rect, pad: float) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad
        if self.conv is None:  # image documents: boxes already are pixels (y down)
            return int(x0), int(y0), int(x1 + 1), int(y1 + 1)
        pts = [self.conv.to_bitmap(x, y) for x, y in ((x0, y0), (x1, y1))]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1


def _burn(image: Image.Image, marks: Sequence[Mark], pixmap: _PixelMap, pad: float) -> None:
    draw = ImageDraw.Draw(image)
    fill = 0 if image.mode == "L" else (0, 0, 0)
    for mark in marks:
        for r in mark.rects:
            draw.rectangle(pixmap.rect(r, pad), fill=fill)


# --------------------------------------------------------------------------- pdfium helpers


def _jpeg_image_obj(pdf: pdfium.PdfDocument, image: Image.Image) -> pdfium.PdfImage:
    buf = io.BytesIO()
    image.convert("RGB" if image.mode not in ("L", "RGB") else image.mode).save(
        buf, "JPEG", quality=85, optimize=True)
    buf.seek(0)
    obj = pdfium.PdfImage.new(pdf)
    obj.load_jpeg(buf, inline=True)
    return obj


def _place(obj: pdfium.PdfObject, rect: Rect) -> None:
    x0, y0, x1, y1 = rect
    obj.set_matrix(pdfium.PdfMatrix().scale(x1 - x0, y1 - y0).translate(x0, y0))


# --------------------------------------------------------------------------- per page


def _copy_page(src: pdfium.PdfDocument, index: int, out: pdfium.PdfDocument,
               src_page: pdfium.PdfPage, rotation: int) -> pdfium.PdfPage:
    """A fresh page whose only content is the source page's content as a Form XObject
    (annotations, thumbnails and other page-dictionary baggage stay behind)."""
    mediabox = src_page.get_mediabox()
    cropbox = src_page.get_cropbox()
    page = out.new_page(mediabox[2] - mediabox[0], mediabox[3] - mediabox[1])
    page.set_mediabox(*mediabox)
    page.set_cropbox(*cropbox)
    xobject = src.page_as_xobject(index, out)
    form = xobject.as_pageobject()
    page.insert_obj(form)
    page.set_rotation(rotation)
    return page


def _raster_page(out: pdfium.PdfDocument, src_page: pdfium.PdfPage, marks: Sequence[Mark],
                 rotation: int, dpi: int) -> pdfium.PdfPage:
    bitmap = src_page.render(scale=dpi / 72, may_draw_forms=False, draw_annots=False)
    image = bitmap.to_pil()
    _burn(image, marks, _PixelMap(bitmap.get_posconv(src_page)), PAD)
    crop = src_page.get_cropbox()
    page = out.new_page(crop[2] - crop[0], crop[3] - crop[1])
    page.set_mediabox(*crop)
    obj = _jpeg_image_obj(out, image)
    _place(obj, crop)
    page.insert_obj(obj)
    page.set_rotation(rotation)
    return page


def _padded(marks: Sequence[Mark], pad: float) -> list[Rect]:
    return [(r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad) for m in marks for r in m.rects]


def _remove_text_objects(src: pdfium.PdfDocument, src_page: pdfium.PdfPage,
                         marks: Sequence[Mark], words: Sequence[Word]) -> bool:
    """Replace every top-level text object touching a span by an image of itself with the
    span burnt out, and the ``words`` it carried by invisible text in its place in the
    content. Returns False when the page needs the raster path instead."""
    rects = _padded(marks, PAD)
    hit_text: list[tuple[int, pdfium.PdfObject]] = []
    covered = [False] * len(rects)
    for index, obj in enumerate(list(src_page.get_objects(max_depth=0))):
        bounds = obj.get_bounds()
        touching = [i for i, r in enumerate(rects) if intersects(bounds, r)]
        if not touching:
            continue
        if obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT:
            hit_text.append((index, obj))
            for i in touching:
                covered[i] = True
        elif obj.type in (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM,
                          pdfium_c.FPDF_PAGEOBJ_SHADING, pdfium_c.FPDF_PAGEOBJ_UNKNOWN):
            return False  # pixels or nested content under PHI: only rasterising removes it
    if not all(covered):
        return False  # a span's glyphs are not where a top-level text object is
    bitmap = src_page.render(scale=PATCH_DPI / 72, may_draw_forms=False, draw_annots=False)
    image = bitmap.to_pil()
    pixmap = _PixelMap(bitmap.get_posconv(src_page))
    _burn(image, marks, pixmap, PAD)
    patches: list[tuple[Rect, Image.Image]] = []
    carried: dict[int, list[Word]] = {}
    unplaced = list(words)
    for index, obj in hit_text:
        left, bottom, right, top = obj.get_bounds()
        # A word belongs to the first object its centre lies in.
        carried[index] = [w for w in unplaced if inside(w, (left, bottom, right, top))]
        unplaced = [w for w in unplaced if not inside(w, (left, bottom, right, top))]
        rect = (left - PAD, bottom - PAD, right + PAD, top + PAD)
        x0, y0, x1, y1 = pixmap.rect(rect, 0)
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(image.width, x1), min(image.height, y1)
        if x1 > x0 and y1 > y0:
            box_pt = [pixmap.conv.to_page(x, y) for x, y in ((x0, y1), (x1, y0))]  # type: ignore[union-attr]
            patch_rect = (box_pt[0][0], box_pt[0][1], box_pt[1][0], box_pt[1][1])
            patches.append((patch_rect, image.crop((x0, y0, x1, y1))))
    # Last object first, so the indices of the ones still to replace do not move.
    for index, obj in reversed(hit_text):
        src_page.remove_obj(obj)
        obj.close()
        insert_words(src, src_page, carried[index], lambda r: r, index)
    for rect, patch in patches:
        img_obj = pdfium.PdfImage.new(src)
        img_obj.set_bitmap(pdfium.PdfBitmap.from_pil(patch.convert("RGB")))
        _place(img_obj, rect)
        src_page.insert_obj(img_obj)
    src_page.gen_content()
    return True


# --------------------------------------------------------------------------- source kinds


def _is_pdf(path: Path) -> bool:
    with path.open("rb") as fh:
        return b"%PDF-" in fh.read(1024)


@dataclass
class _Plan:
    """How each page is built, made stricter page by page while verification finds a leak:
    first a page loses its invisible words, then its glyph-level editing (it is rastered)."""

    hidden: bytearray
    bare: set[int] = field(default_factory=set)  # pages without invisible words
    bare_all: bool = False  # a leak across pages: no invisible words anywhere
    raster: set[int] = field(default_factory=set)  # pages rastered whatever they hold
    written: set[int] = field(default_factory=set)  # pages given invisible words this time

    def words(self, doc: Document, number: int, marks: Sequence[Mark], pad: float
              ) -> list[Word]:
        if self.bare_all or number in self.bare:
            return []
        return page_words(doc, number, self.hidden, _padded(marks, pad))

    def stricter(self, leaks: Sequence[tuple[Span, int | None]], rastered: set[int],
                 editable: bool) -> bool:
        """Tighten the plan for the pages that leaked; False when nothing is left to try."""
        changed = False
        for page in {page for _, page in leaks}:
            if page is None:  # across pages (or metadata): drop every invisible word
                changed |= bool(self.written) and not self.bare_all
                self.bare_all = True
            elif page in self.written:
                self.bare.add(page)
                changed = True
            elif editable and page not in rastered:
                self.raster.add(page)
                changed = True
        return changed


def _build_from_pdf(source: Path, password: str | None, marks: dict[int, list[Mark]],
                    doc: Document, plan: _Plan, mode: PdfMode, dpi: int,
                    ctx: RunContext) -> tuple[pdfium.PdfDocument, set[int]]:
    """Built ``CHUNK_PAGES`` pages at a time, each chunk from a freshly opened source and
    saved compressed before the next: the edited pages of a chunk (image patches as raw
    bitmaps) are released, so memory does not grow with the page count."""
    out, used_raster, first, total = pdfium.PdfDocument.new(), set[int](), 0, 1
    try:
        while first < total:
            part, total = _build_chunk(source, password, first, marks, doc, plan, mode, dpi,
                                       ctx, used_raster)
            buffer = io.BytesIO()
            try:
                part.save(buffer, version=17)
            finally:
                part.close()
            saved = pdfium.PdfDocument(buffer.getvalue())
            try:
                out.import_pages(saved)
            finally:
                saved.close()
            first += CHUNK_PAGES
    except BaseException:
        out.close()
        raise
    return out, used_raster


def _build_chunk(source: Path, password: str | None, first: int,
                 marks: dict[int, list[Mark]], doc: Document, plan: _Plan, mode: PdfMode,
                 dpi: int, ctx: RunContext, used_raster: set[int]
                 ) -> tuple[pdfium.PdfDocument, int]:
    from engine.ingest.pdf import open_pdf

    src = open_pdf(source, password)
    try:
        ocr_pages = {p.number for p in doc.pages if p.ocr}
        if doc.pages and len(doc.pages) != len(src):
            raise ExportError(f"{source.name}: document has {len(doc.pages)} pages but the "
                              f"source PDF has {len(src)}")
        out = pdfium.PdfDocument.new()
        total = len(src)
        for index in range(first, min(first + CHUNK_PAGES, total)):
            ctx.check()
            number = index + 1
            src_page = src[index]
            rotation = src_page.get_rotation()
            src_page.set_rotation(0)  # work in unrotated user space; rotation restored below
            page_marks = marks.get(number, [])
            # Only pages that become pixels, or were pixels (scans), need invisible words.
            words = (plan.words(doc, number, page_marks, PAD)
                     if page_marks or number in ocr_pages else [])
            if (page_marks and number not in ocr_pages and number not in plan.raster
                    and _remove_text_objects(src, src_page, page_marks, words)):
                page = _copy_page(src, index, out, src_page, rotation)
                if words:
                    plan.written.add(number)
            elif page_marks:
                page = _raster_page(out, src_page, page_marks, rotation, dpi)
                used_raster.add(number)
                if insert_words(out, page, words, lambda r: r):
                    plan.written.add(number)
            else:
                page = _copy_page(src, index, out, src_page, rotation)
                if number in ocr_pages and insert_words(out, page, words, lambda r: r):
                    plan.written.add(number)  # a scan with nothing to hide: searchable too
            draw_boxes(out, page, page_marks, lambda r: r, mode)
            page.gen_content()
            page.close()
            src_page.close()
            ctx.report("export", number, total, f"page {number}")
        return out, total
    finally:
        src.close()


def _build_from_image(source: Path, marks: dict[int, list[Mark]], doc: Document,
                      plan: _Plan, mode: PdfMode, ctx: RunContext) -> pdfium.PdfDocument:
    from engine.ingest.images import iter_frames, open_image

    img = open_image(source)
    out = pdfium.PdfDocument.new()
    try:
        total = getattr(img, "n_frames", 1)
        for index, frame in enumerate(iter_frames(img)):
            ctx.check()
            number = index + 1
            dpi = _image_dpi(img)
            page_marks = marks.get(number, [])
            frame = frame.copy()
            _burn(frame, page_marks, _PixelMap(), PAD * dpi / 72)
            w_pt, h_pt = frame.width * 72 / dpi, frame.height * 72 / dpi
            page = out.new_page(w_pt, h_pt)
            obj = _jpeg_image_obj(out, frame)
            _place(obj, (0, 0, w_pt, h_pt))
            page.insert_obj(obj)
            k = 72 / dpi

            def to_out(r: Rect, k: float = k, h: float = h_pt) -> Rect:
                return (r[0] * k, h - r[3] * k, r[2] * k, h - r[1] * k)

            words = plan.words(doc, number, page_marks, PAD * dpi / 72)
            if insert_words(out, page, words, to_out):
                plan.written.add(number)
            draw_boxes(out, page, page_marks, to_out, mode)
            page.gen_content()
            page.close()
            ctx.report("export", number, total, f"page {number}")
    finally:
        img.close()
    return out


def _image_dpi(img: Image.Image) -> float:
    dpi = img.info.get("dpi")
    try:
        value = float(dpi[0]) if dpi else 0.0
    except (TypeError, ValueError, IndexError):
        value = 0.0
    return value if 50 <= value <= 1200 else 300.0


# --------------------------------------------------------------------------- entry point


@serialized
def write_redacted_pdf(source_pdf_or_image: str | Path, doc: Document, spans: Sequence[Span],
                       out_path: str | Path, *, surrogate: DeidentifiedText | None = None,
                       mode: PdfMode = "redacted", password: str | None = None,
                       dpi: int = RASTER_DPI, ctx: RunContext | None = None,
                       boxes: Sequence[PageBox] = ()) -> Path:
    """Write a redacted copy of a PDF or image document. ``doc`` must be what ingest read
    from that source (its char boxes locate the spans). ``mode``: "redacted" (black boxes)
    or "surrogate-text" (the surrogate from ``surrogate`` in a white box). ``boxes``: box
    redactions (view space) burnt black whatever the mode; no text survives under them."""
    source, out_path = Path(source_pdf_or_image), Path(out_path)
    ctx = ctx or RunContext()
    if mode not in ("redacted", "surrogate-text"):
        raise ExportError(f"unknown PDF mode {mode!r} (use 'redacted' or 'surrogate-text')")
    if mode == "surrogate-text" and surrogate is None:
        raise ExportError("surrogate-text mode needs the de-identified text (surrogate=...)")
    if not source.is_file():
        raise InputError(source, "source document not found")
    frames = (page_frames(doc, source=source, password=password)
              if doc.boxes or boxes else {})
    marks, unlocated = _marks(doc, spans, surrogate, mode, frames)
    _box_marks(boxes, frames, marks)
    if unlocated:
        ids = ", ".join(f"{s.id} ({s.label.value})" for s in unlocated[:10])
        raise ExportError(f"{out_path.name}: {len(unlocated)} span(s) have no position on the "
                          f"page and cannot be redacted: {ids}")
    is_pdf = _is_pdf(source)
    plan = _Plan(hidden_mask(doc, spans))
    while True:  # each retry makes some page stricter; at most words, then raster, per page
        plan.written.clear()
        try:
            with atomic_target(out_path) as tmp:
                if is_pdf:
                    out, used = _build_from_pdf(source, password, marks, doc, plan, mode,
                                                dpi, ctx)
                else:
                    out, used = _build_from_image(source, marks, doc, plan, mode, ctx), set()
                try:
                    out.save(tmp, version=17)  # a fresh file: no incremental-update history
                finally:
                    out.close()
                leaks = verify_pdf(tmp, doc, spans, out_path.name)
                verify_boxes(tmp, boxes, frames, out_path.name)
                if leaks:
                    if plan.stricter(leaks, used, editable=is_pdf):
                        raise _Retry()
                    raise_leaks(out_path.name, [
                        (span, f" on page {page}" if page else "") for span, page in leaks])
            return out_path
        except _Retry:
            continue


class _Retry(Exception):
    pass
