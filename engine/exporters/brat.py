"""BRAT standoff (.txt + .ann) of reviewed spans. The .txt is the ORIGINAL text: this is
for review and gold annotation inside the secure environment, not for release."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from engine.core.domain import ACTIVE_STATUSES, Document, Span, SpanStatus
from engine.core.errors import ExportError
from engine.core.files import atomic_target

DEFAULT_STATUSES = ACTIVE_STATUSES


def _fragments(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """BRAT fragments may not cross newlines: split a span into per-line pieces."""
    frags: list[tuple[int, int]] = []
    cur = None
    for i in range(start, end):
        if text[i] in "\n\r\f":
            if cur is not None:
                frags.append((cur, i))
                cur = None
        elif cur is None:
            cur = i
    if cur is not None:
        frags.append((cur, end))
    # Trim whitespace-only fragments.
    return [(s, e) for s, e in frags if text[s:e].strip()]


def brat_lines(doc: Document, spans: Iterable[Span],
               statuses: Sequence[SpanStatus] = DEFAULT_STATUSES) -> list[str]:
    lines: list[str] = []
    n = 0
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if span.status not in statuses:
            continue
        frags = _fragments(doc.text, span.start, span.end)
        if not frags:
            continue
        n += 1
        label = span.label.value + (f"-{span.subtype}" if span.subtype else "")
        where = ";".join(f"{s} {e}" for s, e in frags)
        covered = " ".join(doc.text[s:e] for s, e in frags).replace("\t", " ")
        lines.append(f"T{n}\t{label} {where}\t{covered}")
        lines.append(f"#{n}\tAnnotatorNotes T{n}\tid={span.id} status={span.status.value} "
                     f"source={span.source.value} detector={span.detector or '-'}")
    return lines


def write_brat(doc: Document, spans: Sequence[Span], txt_path: str | Path,
               ann_path: str | Path, *,
               statuses: Sequence[SpanStatus] = DEFAULT_STATUSES) -> tuple[Path, Path]:
    txt_path, ann_path = Path(txt_path), Path(ann_path)
    lines = brat_lines(doc, spans, statuses)
    with atomic_target(txt_path) as tmp_txt, atomic_target(ann_path) as tmp_ann:
        # newline="" keeps offsets exact: BRAT counts characters of the file as written.
        tmp_txt.write_text(doc.text, encoding="utf-8", newline="")
        tmp_ann.write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8",
                           newline="")
        _verify(tmp_txt, tmp_ann)
    return txt_path, ann_path


def _verify(txt: Path, ann: Path) -> None:
    with txt.open(encoding="utf-8", newline="") as fh:
        text = fh.read()
    for number, line in enumerate(ann.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.startswith("T"):
            continue
        tid, spec, covered = line.split("\t")
        pieces = []
        for frag in spec.split(" ", 1)[1].split(";"):
            s, e = (int(v) for v in frag.split())
            pieces.append(text[s:e])
        if " ".join(pieces).replace("\t", " ") != covered:
            raise ExportError(f"{ann.name}: annotation {tid} (line {number}) does not match "
                              "the text offsets")
