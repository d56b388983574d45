"""The boxes drawn over a redacted PDF's spans: black, or white with the surrogate text
in ``surrogate-text`` mode, as page objects of the output document (``pdf`` decides what
is underneath them)."""

from __future__ import annotations

import ctypes
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from engine.core.domain import Span
from engine.exporters.pdf_text_layer import Rect, set_text, winansi

PdfMode = Literal["redacted", "surrogate-text"]

PAD = 1.0  # points of margin around each box


@dataclass(frozen=True)
class Mark:
    span: Span | None  # None: a box redaction drawn by a reviewer
    rects: tuple[Rect, ...]  # one per line the span covers, in the source's page space
    label_text: str | None  # surrogate text drawn in surrogate-text mode


def _rect_obj(rect: Rect, *, fill: tuple[int, int, int],
              stroke: bool) -> pdfium_c.FPDF_PAGEOBJECT:
    x0, y0, x1, y1 = rect
    obj = pdfium_c.FPDFPageObj_CreateNewRect(x0, y0, x1 - x0, y1 - y0)
    pdfium_c.FPDFPageObj_SetFillColor(obj, *fill, 255)
    if stroke:
        pdfium_c.FPDFPageObj_SetStrokeColor(obj, 0, 0, 0, 255)
        pdfium_c.FPDFPageObj_SetStrokeWidth(obj, 0.5)
    pdfium_c.FPDFPath_SetDrawMode(obj, pdfium_c.FPDF_FILLMODE_ALTERNATE, bool(stroke))
    return obj


_FOLD = str.maketrans({"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "ı": "i", "Ħ": "H", "ħ": "h"})


def drawable(text: str) -> str:
    """Standard-14 Helvetica speaks WinAnsi: keep what it can draw (Léa, Zoë, cœur), fold
    the rest to an ASCII base (Łódź → Lódz), drop what still cannot be drawn."""
    out = []
    for c in unicodedata.normalize("NFC", text):
        if c == " " or winansi(c) is not None:
            out.append(c)
        else:
            folded = unicodedata.normalize("NFKD", c.translate(_FOLD))
            out.extend(f for f in folded if f.isascii() and f.isprintable())
    return "".join(out)


def _text_obj(pdf: pdfium.PdfDocument, text: str, rect: Rect) -> pdfium_c.FPDF_PAGEOBJECT:
    x0, y0, x1, y1 = rect
    height, width = y1 - y0, x1 - x0
    size = max(3.0, min(height * 0.8, 14.0))
    obj = pdfium_c.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(size))
    set_text(obj, text)
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
    natural = max(right.value - left.value, 1e-3)
    factor = min(1.0, (width - 1.0) / natural) if width > 1 else 1.0
    pdfium_c.FPDFPageObj_Transform(obj, factor, 0, 0, factor, x0 + 0.5,
                                   y0 + (height - size * factor) / 2 + size * factor * 0.2)
    pdfium_c.FPDFPageObj_SetFillColor(obj, 0, 0, 0, 255)
    return obj


def draw_boxes(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, marks: Sequence[Mark],
               to_out: Callable[[Rect], Rect], mode: PdfMode) -> None:
    for mark in marks:
        for i, r in enumerate(mark.rects):
            rect = to_out(r)
            rect = (rect[0] - PAD, rect[1] - PAD, rect[2] + PAD, rect[3] + PAD)
            if mode == "redacted" or mark.span is None:  # box redactions: always black
                pdfium_c.FPDFPage_InsertObject(page.raw, _rect_obj(rect, fill=(0, 0, 0),
                                                                   stroke=False))
                continue
            pdfium_c.FPDFPage_InsertObject(page.raw, _rect_obj(rect, fill=(255, 255, 255),
                                                               stroke=True))
            text = drawable(mark.label_text or "") if i == 0 else ""
            if text.strip():
                pdfium_c.FPDFPage_InsertObject(page.raw, _text_obj(pdf, text, rect))
