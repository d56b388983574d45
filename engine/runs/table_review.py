"""`clearnote project review-export` for a project's tables: each row's free-text cells as
review documents (``engine.tables.review``) beside the other documents'. BRAT: one
``<table id>-<cell>.txt/.ann`` pair per cell; JSONL: ``tables.review.jsonl``, one line per
cell in ``review.jsonl``'s shape, its id ``<table id>-<cell>`` ("r12c9": data row 12,
column 9; "s2r12c9" on a workbook's second sheet). They hold the original text: keep them
with the originals. Decisions on them are not imported back (the cells' spans are not
stored; the table's roles and rules decide its export)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.files import atomic_target, private_dir
from engine.exporters.brat import write_brat
from engine.project import Project
from engine.project.tables import is_table_media
from engine.runs.project_tables import check_source, stored_schema
from engine.tables.review import review_cells
from engine.tables.schema import TableSchema

TABLES_JSONL = "tables.review.jsonl"
_FIELDS = ("start", "end", "label", "subtype", "status", "detector")


def export_table_review(project: Project, out_dir: Path, *, fmt: str = "brat",
                        document_ids: list[str] | None = None,
                        schema: TableSchema | None = None, ctx: RunContext | None = None
                        ) -> list[Path]:
    """The review files of the tables among ``document_ids`` (every table when None)."""
    tables = [d for d in project.documents() if is_table_media(d.media_type)
              and d.status.value != "failed"
              and (document_ids is None or d.id in document_ids)]
    if not tables or fmt not in ("brat", "jsonl"):
        return []
    private_dir(out_dir)
    session = project.session
    written: list[Path] = []
    if fmt == "brat":
        for table in tables:
            check_source(project, table.id, Path(table.source_path))
            for cell in review_cells(Path(table.source_path), session, ctx=ctx,
                                     schema=schema or stored_schema(project, table.id)):
                stem = out_dir / f"{table.id}-{cell.name}"
                written += write_brat(Document.from_text(cell.text), cell.spans,
                                      stem.with_suffix(".txt"), stem.with_suffix(".ann"))
        return written
    path = out_dir / TABLES_JSONL
    with atomic_target(path) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for table in tables:
            check_source(project, table.id, Path(table.source_path))
            for cell in review_cells(Path(table.source_path), session, ctx=ctx,
                                     schema=schema or stored_schema(project, table.id)):
                spans = [{k: s.to_dict()[k] for k in _FIELDS} for s in cell.spans]
                handle.write(json.dumps({"id": f"{table.id}-{cell.name}", "text": cell.text,
                                         "spans": spans}, ensure_ascii=False) + "\n")
    return [path]
