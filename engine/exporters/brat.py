"""BRAT standoff (.txt + .ann). ``write_brat`` pairs the ORIGINAL text with its spans, for
review and gold annotation inside the secure environment, never for release;
``write_deid_ann`` annotates the de-identified text (an export format)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path

from engine.core.domain import ACTIVE_STATUSES, DeidentifiedText, Document, Span, SpanStatus
from engine.core.errors import ExportError
from engine.core.files import atomic_target, write_atomic
from engine.exporters.verify import verify_no_strings, verify_text_output

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
    _check_offsets(text, ann.read_text(encoding="utf-8").splitlines(), ann.name)


def _check_offsets(text: str, ann_lines: Sequence[str], name: str) -> None:
    for number, line in enumerate(ann_lines, start=1):
        if not line.startswith("T"):
            continue
        tid, spec, covered = line.split("\t")
        pieces = []
        for frag in spec.split(" ", 1)[1].split(";"):
            s, e = (int(v) for v in frag.split())
            pieces.append(text[s:e])
        if " ".join(pieces).replace("\t", " ") != covered:
            raise ExportError(f"{name}: annotation {tid} (line {number}) does not match "
                              "the text offsets")


def deid_spans(spans: Sequence[Span], deid: DeidentifiedText) -> list[Span]:
    """The replacements as spans of the de-identified text (output offsets), keeping each
    span's id, label, status and provenance."""
    by_id = {s.id: s for s in spans}
    out: list[Span] = []
    for r in deid.replacements:
        base = by_id.get(r.span_id)
        if base is None or r.output_end <= r.output_start:
            continue
        out.append(dataclasses.replace(base, start=r.output_start, end=r.output_end,
                                       label=r.label, subtype=r.subtype))
    return out


def write_deid_ann(doc: Document, spans: Sequence[Span], deid: DeidentifiedText,
                   ann_path: str | Path, *, forbidden: Sequence[str] = ()) -> Path:
    """The .ann of the de-identified text (``<id>.deid.ann`` beside ``<id>.deid.txt``):
    one annotation per replacement, over the surrogate. Checked like a document: no
    original string of ``doc``, no string of the source name (``forbidden``)."""
    ann_path = Path(ann_path)
    out_doc = Document(text=deid.text, id=doc.id)
    lines = brat_lines(out_doc, deid_spans(spans, deid),
                       statuses=tuple(SpanStatus))
    content = "\n".join(lines) + ("\n" if lines else "")

    def verify(tmp: Path) -> None:
        written = tmp.read_text(encoding="utf-8")
        verify_text_output(written, doc, spans, ann_path.name)
        verify_no_strings(written, forbidden, ann_path.name)
        _check_offsets(deid.text, written.splitlines(), ann_path.name)

    return write_atomic(ann_path, content.encode("utf-8"), verify)
