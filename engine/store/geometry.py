"""Compact storage of a Document's pages, char→box map and OCR confidences.

Boxes are one record per character (often hundreds of thousands per PDF), so they are
packed as little-endian (int16 page, 4 × float32) and zlib-compressed; page 0 marks a
synthetic character without a box. Float32 keeps well under a 1/100 point of precision.
"""

from __future__ import annotations

import json
import struct
import zlib

from engine.core.domain import CharBox, Page

_BOX = struct.Struct("<h4f")


def encode_pages(pages: tuple[Page, ...]) -> str:
    return json.dumps([[p.number, p.start, p.end, p.width, p.height, p.ocr] for p in pages])


def decode_pages(raw: str) -> tuple[Page, ...]:
    return tuple(Page(int(n), int(s), int(e), float(w), float(h), bool(o))
                 for n, s, e, w, h, o in json.loads(raw))


def encode_boxes(boxes: tuple[CharBox | None, ...]) -> bytes | None:
    if not boxes:
        return None
    buf = bytearray(_BOX.size * len(boxes))
    for i, b in enumerate(boxes):
        if b is None:
            _BOX.pack_into(buf, i * _BOX.size, 0, 0.0, 0.0, 0.0, 0.0)
        else:
            _BOX.pack_into(buf, i * _BOX.size, b.page, b.x0, b.y0, b.x1, b.y1)
    return zlib.compress(bytes(buf), 6)


def decode_boxes(raw: bytes | None) -> tuple[CharBox | None, ...]:
    if not raw:
        return ()
    data = zlib.decompress(raw)
    return tuple(None if page == 0 else CharBox(page, x0, y0, x1, y1)
                 for page, x0, y0, x1, y1 in _BOX.iter_unpack(data))


def encode_confidences(conf: tuple[tuple[int, int, float], ...]) -> str:
    return json.dumps([list(c) for c in conf])


def decode_confidences(raw: str) -> tuple[tuple[int, int, float], ...]:
    return tuple((int(s), int(e), float(c)) for s, e, c in json.loads(raw))
