"""Images (PNG, JPEG, TIFF incl. multi-page, BMP, GIF, WebP) → OCR, one page per frame.

Boxes of image pages are in pixels of the frame (origin top-left, y down); Page.width and
Page.height are the frame's pixel size.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from engine.core.context import RunContext
from engine.core.domain import CharBox, Document
from engine.core.errors import CorruptDocumentError, InputError
from engine.ingest.assemble import DocumentBuilder, PageText
from engine.ingest.ocr import OcrEngine, default_engine, layout_words, ocr_pages

# Decompression-bomb guard: an A3 page at 600 dpi is ~70 Mpx; refuse far beyond that.
MAX_PIXELS = 200_000_000
# What Pillow raises on damaged input, past the first decode too (frame count, seeking to
# later TIFF frames, EXIF orientation, mode conversion): found by fuzzing (issue 15).
DECODE_ERRORS: tuple[type[Exception], ...] = (
    OSError, EOFError, ValueError, TypeError, SyntaxError, struct.error, KeyError, IndexError,
    ZeroDivisionError)


def open_image(path: Path) -> Image.Image:
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        img = Image.open(path)
        img.load()
    except (UnidentifiedImageError, Image.DecompressionBombError) as exc:
        raise CorruptDocumentError(path, "image cannot be decoded") from exc
    except DECODE_ERRORS as exc:
        raise CorruptDocumentError(path, "image is damaged or truncated") from exc
    return img


def iter_frames(img: Image.Image) -> Iterator[Image.Image]:
    """Every frame (multi-page TIFF), upright per EXIF orientation, in RGB or L."""
    for index in range(getattr(img, "n_frames", 1)):
        img.seek(index)
        frame = ImageOps.exif_transpose(img.copy()) or img.copy()
        if frame.mode not in ("RGB", "L"):
            frame = frame.convert("RGBA" if "A" in frame.getbands() else "RGB")
            if frame.mode == "RGBA":  # transparent scans: flatten onto white
                background = Image.new("RGB", frame.size, "white")
                background.paste(frame, mask=frame.getchannel("A"))
                frame = background
        yield frame


def _frame_count(path: Path, img: Image.Image) -> int:
    try:
        return int(getattr(img, "n_frames", 1))
    except DECODE_ERRORS as exc:
        raise CorruptDocumentError(path, "image frames are damaged") from exc


def _decoded_frames(path: Path, img: Image.Image) -> Iterator[Image.Image]:
    """iter_frames with Pillow's errors on damaged frames turned into ClearNote's."""
    try:
        yield from iter_frames(img)
    except DECODE_ERRORS as exc:
        raise CorruptDocumentError(path, "image frame is damaged or truncated") from exc


def load_image(path: Path, *, media_type: str, ocr: OcrEngine | None = None,
               ctx: RunContext | None = None) -> Document:
    ctx = ctx or RunContext()
    img = open_image(path)
    engine = ocr if ocr is not None else default_engine()
    builder = DocumentBuilder()
    builder.warnings.append("image input: text recognised by OCR")
    try:
        total = _frame_count(path, img)
        for index, result in ocr_pages(engine, _decoded_frames(path, img), total=total,
                                       ctx=ctx):
            number = index + 1

            def to_box(px: tuple[int, int, int, int], n: int = number) -> CharBox:
                return CharBox(n, float(px[0]), float(px[1]), float(px[2]), float(px[3]))

            text, boxes, conf = layout_words(result, to_box)
            builder.add_page(PageText(number=number, width=float(result.width),
                                      height=float(result.height), text=text, boxes=boxes,
                                      ocr=True, confidences=conf))
            ctx.report("ingest", number, total, f"page {number} OCR")
    except (OSError, EOFError) as exc:
        raise CorruptDocumentError(path, "image frame is damaged or truncated") from exc
    finally:
        img.close()
    if total == 0:
        raise InputError(path, "image has no frames")
    return builder.build(source_path=str(path), media_type=media_type)
