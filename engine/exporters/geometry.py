"""Where a span sits on its pages: character boxes grouped into one rectangle per visual
line. The redacted-PDF exporter burns these rectangles and the desktop highlights them, so
what a reviewer sees marked is what the export removes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from engine.core.domain import CharBox, Document, Span

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in the page's box space


def line_rects(boxes: Sequence[CharBox]) -> list[Rect]:
    """Union of char boxes per visual line (boxes overlapping vertically join a line)."""
    lines: list[list[float]] = []
    for b in sorted(boxes, key=lambda b: (b.page, -b.y1, b.x0)):
        for line in lines:
            overlap = min(line[3], b.y1) - max(line[1], b.y0)
            if overlap > 0.5 * min(line[3] - line[1], b.y1 - b.y0):
                line[0], line[1] = min(line[0], b.x0), min(line[1], b.y0)
                line[2], line[3] = max(line[2], b.x1), max(line[3], b.y1)
                break
        else:
            lines.append([b.x0, b.y0, b.x1, b.y1])
    return [(a, b, c, d) for a, b, c, d in lines]


def span_boxes(doc: Document, span: Span) -> dict[int, list[CharBox]]:
    """The span's character boxes per page number (characters without a box left out)."""
    per_page: dict[int, list[CharBox]] = defaultdict(list)
    if doc.boxes:
        for box in doc.boxes[span.start:span.end]:
            if box is not None:
                per_page[box.page].append(box)
    return dict(sorted(per_page.items()))


def span_rectangles(doc: Document, span: Span) -> list[tuple[int, Rect]]:
    """(page number, rectangle) per line the span covers, pages in order."""
    return [(number, rect) for number, boxes in span_boxes(doc, span).items()
            for rect in line_rects(boxes)]
