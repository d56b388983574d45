"""`clearnote project review-export` / `review-import` for a project's tables: each row's
free-text cells as review documents beside the other documents'. BRAT: one
``<table id>-<cell>.txt/.ann`` pair per cell; JSONL: ``tables.review.jsonl``, one line per
cell in ``review.jsonl``'s shape, its id ``<table id>-<cell>`` ("r12c9": data row 12,
column 9; "s2r12c9" on a workbook's second sheet). They hold the original text: keep them
with the originals. The cells and their spans are the ones stored when the table was
detected (``engine.project.table_review``; a table not detected yet is detected first), so
the decisions in the files are imported back onto them
(``engine.project.table_review_io``)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import ACTIVE_STATUSES, Document, Span
from engine.core.files import atomic_target, private_dir
from engine.exporters.brat import write_brat
from engine.project import Project
from engine.project.tables import is_table_media
from engine.store.records import DocumentRecord
from engine.tables.cells import LaidCell
from engine.tables.schema import TableSchema

TABLES_JSONL = "tables.review.jsonl"
_FIELDS = ("id", "start", "end", "label", "subtype", "status", "detector")


def _tables(project: Project, document_ids: Sequence[str] | None) -> list[DocumentRecord]:
    return [d for d in project.documents() if is_table_media(d.media_type)
            and d.status.value != "failed"
            and (document_ids is None or d.id in document_ids)]


def _note_cells(project: Project, table: DocumentRecord, schema: TableSchema | None,
                ctx: RunContext | None) -> Iterator[tuple[LaidCell, str, list[Span]]]:
    """Each stored free-text cell with its text and live spans (offsets in the cell)."""
    if not project.tables.is_detected(table.id):
        project.tables.detect(table.id, schema=schema, ctx=ctx)
    project.tables.check_source(table.id, Path(table.source_path))
    text = project.document_text(table.id)
    spans = sorted(project.spans(table.id, statuses=ACTIVE_STATUSES),
                   key=lambda sp: (sp.start, sp.end))
    for cell in project.tables.cells(table.id):
        if cell.free_text:
            inside = [replace(sp, start=sp.start - cell.start, end=sp.end - cell.start)
                      for sp in spans if sp.start >= cell.start and sp.end <= cell.end]
            yield cell, text[cell.start:cell.end], inside


def export_table_review(project: Project, out_dir: Path, *, fmt: str = "brat",
                        document_ids: list[str] | None = None,
                        schema: TableSchema | None = None, ctx: RunContext | None = None
                        ) -> list[Path]:
    """The review files of the tables among ``document_ids`` (every table when None)."""
    tables = _tables(project, document_ids)
    if not tables or fmt not in ("brat", "jsonl"):
        return []
    private_dir(out_dir)
    written: list[Path] = []
    if fmt == "brat":
        for table in tables:
            for cell, text, spans in _note_cells(project, table, schema, ctx):
                stem = out_dir / f"{table.id}-{cell.name}"
                written += write_brat(Document.from_text(text), spans,
                                      stem.with_suffix(".txt"), stem.with_suffix(".ann"))
        return written
    path = out_dir / TABLES_JSONL
    with atomic_target(path) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for table in tables:
            for cell, text, spans in _note_cells(project, table, schema, ctx):
                items = [{k: s.to_dict()[k] for k in _FIELDS} for s in spans]
                handle.write(json.dumps({"id": f"{table.id}-{cell.name}", "text": text,
                                         "spans": items}, ensure_ascii=False) + "\n")
    return [path]
