"""Where a span sits on its pages: the one span-to-page-box function.

``span_page_boxes`` groups a span's character boxes into one rectangle per visual line, in
the view space of the upright page (``engine.ingest.frames``: origin top-left, y down,
rotation and crop box applied). The page view scales these onto its rendering, the review
PDF draws them, and the redacted PDF maps them back to its own page space
(``PageFrame.to_source``) and burns them: what a reviewer sees marked is what the export
removes, on born-digital pages, OCR'd scans and rotated pages alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.domain import Document, Span
from engine.ingest.frames import PageFrame, Rect, page_frames

__all__ = ["PageBox", "PageFrame", "page_frames", "span_page_boxes"]


@dataclass(frozen=True, slots=True)
class PageBox:
    page: int  # 1-based page number
    x0: float  # view space of the upright page (origin top-left, y down), page units
    y0: float
    x1: float
    y1: float

    @property
    def rect(self) -> Rect:
        return self.x0, self.y0, self.x1, self.y1


def _overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
    return min(a1, b1) - max(a0, b0) > 0.5 * min(a1 - a0, b1 - b0)


def _join_lines(rects: Sequence[Rect]) -> list[Rect]:
    """Union of the boxes of one line of text (no line break between them): boxes sharing
    half their height join (text across the page), or half their width (text running down
    the page, as on a born-digital page shown turned by its /Rotate)."""
    lines: list[list[float]] = []
    for r in sorted(rects, key=lambda r: (r[1], r[0])):
        for line in lines:
            if _overlap(line[1], line[3], r[1], r[3]) or _overlap(line[0], line[2], r[0], r[2]):
                line[0], line[1] = min(line[0], r[0]), min(line[1], r[1])
                line[2], line[3] = max(line[2], r[2]), max(line[3], r[3])
                break
        else:
            lines.append(list(r))
    return [(a, b, c, d) for a, b, c, d in lines]


def span_page_boxes(doc: Document, span: Span, frames: Mapping[int, PageFrame]
                    ) -> list[PageBox]:
    """One box per line of text the span covers, pages in order, top to bottom. Characters
    without a box (inserted separators) are left out; a line break in the text always
    starts a new box, so a span over two lines never becomes one box over both."""
    runs: dict[tuple[int, int], list[Rect]] = {}
    line = 0
    for i in range(span.start, min(span.end, len(doc.boxes))):
        if doc.text[i] == "\n":
            line += 1
            continue
        box = doc.boxes[i]
        if box is None:
            continue
        frame = frames.get(box.page)
        if frame is None:
            raise KeyError(f"no frame for page {box.page}")
        runs.setdefault((box.page, line), []).append(
            frame.to_view((box.x0, box.y0, box.x1, box.y1)))
    out = [PageBox(page, *rect) for (page, _), rects in runs.items()
           for rect in _join_lines(rects)]
    return sorted(out, key=lambda b: (b.page, b.y0, b.x0))
