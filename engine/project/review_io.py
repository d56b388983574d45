"""Review without the GUI: candidates out to BRAT standoff or JSONL, decisions back in.

Exported files contain the original text (the reviewer needs it): they belong with the
originals, not with de-identified output. On import, for each document in the files:
a listed span keeps its id and takes the listed status (ACCEPTED when none is given);
an active span that is no longer listed is REJECTED; a listed span without a known id (a
new annotation) becomes an ACCEPTED manual span. All of it is one undoable action.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.domain import ACTIVE_STATUSES, Span, SpanStatus
from engine.core.errors import InputError
from engine.core.files import private_dir, write_text_atomic
from engine.core.labels import Label, map_label
from engine.exporters.brat import write_brat
from engine.exporters.geometry import PageBox
from engine.store.records import ReviewImportReport

if TYPE_CHECKING:
    from engine.project.facade import Project

# Notes written by engine.exporters.brat ("id=…"), and by earlier versions ("span=…").
def _phi_label(raw: str) -> Label:
    label = map_label(raw)
    if label is None:  # a schema's non-PHI label: not a decision about a span
        raise ValueError("not a PHI label")
    return label


_NOTE = re.compile(r"\b(?:span|id)=(\w+)(?:\s+status=(\w+))?")


@dataclass(frozen=True, slots=True)
class Decision:
    start: int
    end: int
    label: Label
    status: SpanStatus = SpanStatus.ACCEPTED
    span_id: str | None = None
    subtype: str | None = None


def _active(project: Project, doc_id: str) -> list[Span]:
    return project.spans(doc_id, statuses=ACTIVE_STATUSES)


_REVIEW_FIELDS = ("id", "start", "end", "label", "subtype", "status", "detector")


def export_review(project: Project, out_dir: Path, *, fmt: str = "brat",
                  document_ids: list[str] | None = None) -> list[Path]:
    private_dir(out_dir)
    ids = document_ids or [d.id for d in project.documents() if d.char_count > 0
                           and d.status.value != "failed"]
    written: list[Path] = []
    if fmt == "jsonl":
        lines = []
        for doc_id in ids:
            lines.append(json.dumps({"id": doc_id, "text": project.document_text(doc_id),
                                     "spans": [{k: s.to_dict()[k] for k in _REVIEW_FIELDS}
                                               for s in _active(project, doc_id)]},
                                    ensure_ascii=False))
        path = out_dir / "review.jsonl"
        write_text_atomic(path, "".join(line + "\n" for line in lines))
        return [path]
    if fmt == "pdf":
        return _review_pdfs(project, ids, out_dir)
    if fmt != "brat":
        raise ValueError(f"unknown review format {fmt!r} (brat, jsonl, pdf)")
    for doc_id in ids:
        # The ORIGINAL text with its candidates, through the one BRAT writer.
        doc = project.load_document(doc_id)
        written += write_brat(doc, _active(project, doc_id), out_dir / f"{doc_id}.txt",
                              out_dir / f"{doc_id}.ann")
    return written


def _review_pdfs(project: Project, ids: list[str], out_dir: Path) -> list[Path]:
    """``<document id>.review.pdf`` per document with pages (PDFs and scans): the original
    pages with the page view's boxes (plain-text documents have no pages to draw on)."""
    from engine.exporters.review_pdf import write_review_pdf  # PDFium: only when asked

    written: list[Path] = []
    for doc_id in ids:
        doc = project.load_document(doc_id)
        if not doc.pages or not doc.source_path:
            continue
        boxes = [PageBox(b.page, b.x0, b.y0, b.x1, b.y1)
                 for b in project.box_redactions(doc_id)]
        written.append(write_review_pdf(doc.source_path, doc, project.spans(doc_id),
                                        out_dir / f"{doc_id}.review.pdf", redactions=boxes))
    return written


def read_brat(ann_path: Path) -> list[Decision]:
    spans: dict[str, tuple[int, int, str]] = {}
    notes: dict[str, tuple[str, str | None]] = {}
    for number, line in enumerate(ann_path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split("\t")
        if line.startswith("T") and len(parts) >= 2:
            head = parts[1].split(" ", 1)
            try:
                ranges = [tuple(int(x) for x in r.split()) for r in head[1].split(";")]
                spans[parts[0]] = (min(r[0] for r in ranges), max(r[1] for r in ranges),
                                   head[0])
            except (IndexError, ValueError):
                raise InputError(ann_path, f"line {number}: not a BRAT text-bound "
                                           "annotation") from None
        elif line.startswith("#") and len(parts) >= 3:
            target = parts[1].split()[-1]
            match = _NOTE.search(parts[2])
            if match:
                notes[target] = (match.group(1), match.group(2))
    out: list[Decision] = []
    for tid, (start, end, raw) in spans.items():
        parsed = _label(raw)
        if parsed is None:
            continue
        span_id, status = notes.get(tid, (None, None))
        st = SpanStatus(status) if status in ("ACCEPTED", "REJECTED") else SpanStatus.ACCEPTED
        out.append(Decision(start, end, parsed[0], st, span_id, parsed[1]))
    return out


def _label(raw: str) -> tuple[Label, str | None] | None:
    """``LABEL`` or ``LABEL-SUBTYPE`` (as the BRAT writer names subtypes) of any schema."""
    try:
        label = map_label(raw)
        return (label, None) if label is not None else None
    except ValueError:
        head, _, subtype = raw.partition("-")
        if not subtype:
            raise
        label = map_label(head)
        return (label, subtype) if label is not None else None


def import_review(project: Project, source: Path) -> ReviewImportReport:
    """Apply decisions from a BRAT folder (``<id>.ann``) or a review JSONL file."""
    decisions: dict[str, list[Decision]] = {}
    if source.is_dir():
        for ann in sorted(source.glob("*.ann")):
            decisions[ann.stem] = read_brat(ann)
    else:
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                decisions[str(obj["id"])] = [
                    Decision(int(s["start"]), int(s["end"]), _phi_label(s["label"]),
                             SpanStatus(s.get("status") or "ACCEPTED")
                             if s.get("status") in ("ACCEPTED", "REJECTED", None)
                             else SpanStatus.ACCEPTED, s.get("id"), s.get("subtype"))
                    for s in obj.get("spans", [])]
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(source, f"line {number}: not a review record "
                                         f"({type(exc).__name__})") from None
    return project.apply_review_decisions(decisions)
