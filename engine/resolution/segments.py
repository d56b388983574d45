"""Long texts are detected in bounded, overlapping segments, so time and memory grow
linearly with the input however long its lines are.

A detector (regexes scanning a line, the gazetteers' per-text word lists, the NER tokenizer)
sees at most ``SEGMENT_CHARS`` characters at a time. Segments are cut at a newline or a space
where there is one near the limit; consecutive segments overlap by at least ``OVERLAP``
characters. Each span is kept from the one segment that owns its start, the owner's border
lying in the middle of the overlap: an owned span has at least ``OVERLAP / 2`` characters of
context on either side and is seen whole unless it is longer than that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import Document, Span
from engine.core.errors import DocumentTooLargeError

SEGMENT_CHARS = 32_000
OVERLAP = 1_000
# The default limit on one document's text; above it the pipeline refuses the document.
MAX_DOCUMENT_CHARS = 64 * 1024 * 1024

# (document, context) -> (kept candidates, dropped candidates), run once per segment.
SegmentDetector = Callable[[Document, RunContext], tuple[list[Span], list[Span]]]


@dataclass(frozen=True, slots=True)
class Segment:
    start: int  # the text the detectors see: [start, end)
    end: int
    own_start: int  # spans starting in [own_start, own_end) are kept from this segment
    own_end: int


def _boundary(text: str, lo: int, hi: int) -> int:
    """A cut in (lo, hi]: just after the last newline, else the last space, else ``hi``."""
    for sep in ("\n", " "):
        at = text.rfind(sep, lo, hi)
        if at >= 0:
            return at + 1
    return hi


def plan_segments(text: str, *, size: int = SEGMENT_CHARS,
                  overlap: int = OVERLAP) -> list[Segment]:
    if not 0 < 3 * overlap < size:
        raise ValueError("segments need 0 < 3 * overlap < size")
    n = len(text)
    if n <= size:
        return [Segment(0, n, 0, n)]
    bounds: list[tuple[int, int]] = []
    start = 0
    while True:
        if start + size >= n:
            bounds.append((start, n))
            break
        end = _boundary(text, start + size - overlap, start + size)
        bounds.append((start, end))
        # The next segment starts at a word boundary at least ``overlap`` before ``end``.
        start = _boundary(text, end - overlap - overlap // 2, end - overlap)
    segments: list[Segment] = []
    own_start = 0
    for k, (start, end) in enumerate(bounds):
        own_end = n if k + 1 == len(bounds) else (bounds[k + 1][0] + end) // 2
        segments.append(Segment(start, end, own_start, own_end))
        own_start = own_end
    return segments


def check_size(doc: Document, max_chars: int) -> None:
    if len(doc.text) > max_chars:
        name = Path(doc.source_path).name if doc.source_path else "text"
        raise DocumentTooLargeError(
            f"{name} (document {doc.id})",
            f"{len(doc.text):,} characters of text, above the limit of {max_chars:,} "
            "(max_document_chars); split the file or raise the limit")


def detect_in_segments(doc: Document, ctx: RunContext, detect: SegmentDetector, *,
                       size: int = SEGMENT_CHARS,
                       overlap: int = OVERLAP) -> tuple[list[Span], list[Span]]:
    """``detect`` over ``doc`` (short texts in one call), spans in document offsets."""
    segments = plan_segments(doc.text, size=size, overlap=overlap)
    if len(segments) == 1:
        return detect(doc, ctx)
    # Per-detector progress would restart in every segment: report segments instead.
    quiet = RunContext(cancel=ctx.cancel)
    kept: list[Span] = []
    dropped: list[Span] = []
    for index, seg in enumerate(segments):
        ctx.check()
        part = Document(text=doc.text[seg.start:seg.end], id=doc.id,
                        source_path=doc.source_path, media_type=doc.media_type)
        found, lost = detect(part, quiet)
        for spans, out in ((found, kept), (lost, dropped)):
            for span in spans:
                if seg.own_start <= span.start + seg.start < seg.own_end:
                    out.append(span.moved(span.start + seg.start, span.end + seg.start))
        ctx.report("detect", index + 1, len(segments), f"segment {index + 1}")
    return kept, dropped
