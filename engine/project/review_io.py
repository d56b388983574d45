"""Review without the GUI: candidates out to BRAT standoff or JSONL, decisions back in.

Exported files contain the original text (the reviewer needs it): they belong with the
originals, not with de-identified output. On import, for each document in the files:
a listed span keeps its id and takes the listed status (ACCEPTED when none is given);
a listed span without a known id (a new annotation) becomes a manual span. A span is
rejected only by an explicit status: an active span the file no longer lists keeps its
state (a damaged or cut file must not turn PHI into clear text), unless the user asks for
``unlisted="reject"``. All of it is one undoable action. Reading: ``review_files``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.domain import ACTIVE_STATUSES, Span
from engine.core.errors import UsageError, shown
from engine.core.files import private_dir, write_text_atomic
from engine.exporters.brat import write_brat
from engine.exporters.geometry import PageBox
from engine.project.review_files import (
    Decision,
    Labels,
    read_brat,
    read_brat_folder,
    read_jsonl,
)
from engine.project.table_review_io import table_decisions
from engine.project.tables import is_table_media
from engine.store.records import ReviewImportReport

if TYPE_CHECKING:
    from engine.project.facade import Project


def _active(project: Project, doc_id: str) -> list[Span]:
    return project.spans(doc_id, statuses=ACTIVE_STATUSES)


UNLISTED = ("keep", "reject")
__all__ = ["UNLISTED", "Decision", "export_review", "import_review", "read_brat"]

_REVIEW_FIELDS = ("id", "start", "end", "label", "subtype", "status", "detector")


def export_review(project: Project, out_dir: Path, *, fmt: str = "brat",
                  document_ids: list[str] | None = None) -> list[Path]:
    private_dir(out_dir)
    # A table's cells go out one file (or record) per cell: engine.runs.table_review.
    tables = {d.id for d in project.documents(ids=document_ids)
              if is_table_media(d.media_type)}
    ids = [i for i in document_ids if i not in tables] if document_ids else [
        d.id for d in project.documents() if d.char_count > 0
        and d.status.value != "failed" and d.id not in tables]
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


def import_review(project: Project, source: Path, *, schema: str = "clearnote",
                  unlisted: str = "keep") -> ReviewImportReport:
    """Apply decisions from a BRAT folder (``<id>.ann``) or a review JSONL file, read and
    applied one document at a time in one transaction: an error anywhere (named by file
    and line) changes nothing. ``unlisted``: ``keep`` (active spans a document's file does
    not list keep their state) or ``reject``; ``schema``: the labels' schema."""
    if unlisted not in UNLISTED:
        raise UsageError(f"unlisted spans are kept or rejected, not {shown(unlisted)}")
    labels = Labels(schema)
    if source.is_dir():
        decisions = read_brat_folder(source, labels)
    elif source.is_file():
        decisions = read_jsonl(source, labels)
    else:
        raise UsageError(f"{shown(source, 240)}: no such review file or folder")
    pairs, scopes = table_decisions(project, decisions)  # table cells onto their table
    return project.apply_review_decisions(pairs, unlisted=unlisted, scopes=scopes)
