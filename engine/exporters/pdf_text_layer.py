"""The searchable layer of a redacted PDF: the words no span touches, as invisible text.

Wherever the redaction turns text into pixels (a text object touching a span becomes an
image of itself, a page falls back to raster, a scanned page is burnt), the words of the
original that are not PHI are written back as invisible text (render mode 3, as OCR tools
do) at their own boxes, so the redacted letter can still be searched and copied from.

A word is written only if no character of it lies in a live span and its box does not
touch a redaction box; the export's verification re-reads the file as before, and a page
whose extractable text still matches a redacted string is redone without this layer.
Standard-14 Helvetica speaks WinAnsi (cp1252) only: a word with a character outside it is
left out rather than written folded (a folded word is not the original, and verification
compares with the original).
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from engine.core.domain import Document, Span
from engine.exporters.verify import live_spans

Rect = tuple[float, float, float, float]  # left, bottom, right, top

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Word:
    text: str
    rect: Rect  # union of the word's character boxes, in the source's page space
    space_after: bool  # followed by a space on its line: written out, not guessed
    # Centres of the first and last character: which way the word runs (rotated pages).
    ends: tuple[tuple[float, float], tuple[float, float]]


def hidden_mask(doc: Document, spans: Sequence[Span]) -> bytearray:
    """1 for every character of ``doc.text`` inside a live span."""
    mask = bytearray(len(doc.text))
    for span in live_spans(spans):
        mask[span.start:span.end] = b"\x01" * (span.end - span.start)
    return mask


def winansi(text: str) -> str | None:
    """``text`` if built-in Helvetica (WinAnsi, i.e. cp1252) can carry it unchanged, else
    None."""
    text = unicodedata.normalize("NFC", text)
    for c in text:
        if not c.isprintable():
            return None
        try:
            c.encode("cp1252")
        except UnicodeEncodeError:
            return None
    return text


def page_words(doc: Document, number: int, hidden: bytearray,
               avoid: Sequence[Rect]) -> list[Word]:
    """The words of page ``number`` that no live span touches and whose box keeps clear of
    every rectangle in ``avoid`` (the redaction boxes, padded), in reading order."""
    if not doc.boxes:
        return []
    page = next((p for p in doc.pages if p.number == number), None)
    start, end = (page.start, page.end) if page is not None else (0, len(doc.text))
    words: list[Word] = []
    for match in _WORD.finditer(doc.text, start, end):
        s, e = match.span()
        if any(hidden[s:e]):
            continue
        boxes = [b for b in doc.boxes[s:e] if b is not None and b.page == number]
        text = winansi(match.group())
        if not boxes or len(boxes) != e - s or text is None:
            continue  # a character without a box cannot be placed; leave the word out
        rect = (min(b.x0 for b in boxes), min(b.y0 for b in boxes),
                max(b.x1 for b in boxes), max(b.y1 for b in boxes))
        if rect[2] - rect[0] <= 0 or rect[3] - rect[1] <= 0:
            continue
        if any(intersects(rect, r) for r in avoid):
            continue
        first, last = boxes[0], boxes[-1]
        ends = (((first.x0 + first.x1) / 2, (first.y0 + first.y1) / 2),
                ((last.x0 + last.x1) / 2, (last.y0 + last.y1) / 2))
        words.append(Word(text, rect, doc.text[e:e + 1] in (" ", "\t"), ends))
    return words


def inside(word: Word, rect: Rect) -> bool:
    """Whether the centre of the word's box lies in ``rect``."""
    x, y = (word.rect[0] + word.rect[2]) / 2, (word.rect[1] + word.rect[3]) / 2
    return rect[0] <= x <= rect[2] and min(rect[1], rect[3]) <= y <= max(rect[1], rect[3])


def set_text(obj: pdfium_c.FPDF_PAGEOBJECT, text: str) -> None:
    """Set a raw text object's text (pdfium takes UTF-16, NUL-terminated)."""
    wide = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
    pdfium_c.FPDFText_SetText(obj, ctypes.cast(wide, ctypes.POINTER(pdfium_c.FPDF_WCHAR)))


def direction(start: tuple[float, float], end: tuple[float, float]) -> int:
    """Which way text runs from ``start`` to ``end`` in page space (y up), in degrees
    counter-clockwise: 0, 90, 180 or 270. A one-letter word reads as 0."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    if abs(dy) > abs(dx):
        return 90 if dy > 0 else 270
    return 180 if dx < 0 else 0


# Per direction: (cos, sin) of the rotation, and which corner of the target rectangle the
# rotated text box's origin lands on (0 = left/bottom, 1 = right/top).
_TURNS = {0: ((1, 0), (0, 0)), 90: ((0, 1), (1, 0)), 180: ((-1, 0), (1, 1)),
          270: ((0, -1), (0, 1))}


def invisible_word(pdf: pdfium.PdfDocument, word: Word, rect: Rect,
                   turn: int = 0) -> pdfium_c.FPDF_PAGEOBJECT | None:
    """A raw text object carrying the word invisibly, stretched over ``rect`` (output page
    points) and running ``turn`` degrees counter-clockwise, so selecting it highlights the
    word where it is drawn. A following space is written after it: text extraction would
    otherwise guess word gaps from the stretched glyphs, and guesses "T2N1N4" for "T2N 1N4"."""
    obj = pdfium_c.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(10.0))
    set_text(obj, word.text)
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
    width, height = right.value - left.value, top.value - bottom.value
    if width <= 0 or height <= 0:
        pdfium_c.FPDFPageObj_Destroy(obj)
        return None
    (cos, sin), (cx, cy) = _TURNS[turn]
    along, across = rect[2] - rect[0], rect[3] - rect[1]
    if turn in (90, 270):
        along, across = across, along
    sx, sy = along / width, across / height
    a, b, c, d = cos * sx, sin * sx, -sin * sy, cos * sy
    ex, ey = (rect[2] if cx else rect[0]), (rect[3] if cy else rect[1])
    pdfium_c.FPDFPageObj_Transform(obj, a, b, c, d, ex - a * left.value - c * bottom.value,
                                   ey - b * left.value - d * bottom.value)
    if word.space_after:
        set_text(obj, word.text + " ")  # placed by the word's own bounds, measured above
    pdfium_c.FPDFTextObj_SetTextRenderMode(obj, pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE)
    return obj


def insert_words(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, words: Sequence[Word],
                 to_out: Callable[[Rect], Rect], index: int | None = None) -> int:
    """Insert ``words`` as invisible text (at object ``index`` of the page, keeping the
    content order, or at the end). Returns how many were written."""
    written = 0
    for word in words:
        (x0, y0, _, _), (x1, y1, _, _) = (to_out((x, y, x, y)) for x, y in word.ends)
        obj = invisible_word(pdf, word, to_out(word.rect), direction((x0, y0), (x1, y1)))
        if obj is None:
            continue
        if index is None:
            pdfium_c.FPDFPage_InsertObject(page.raw, obj)
        elif not pdfium_c.FPDFPage_InsertObjectAtIndex(page.raw, obj, index + written):
            pdfium_c.FPDFPageObj_Destroy(obj)  # the page did not take ownership
            continue
        written += 1
    return written


def intersects(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
