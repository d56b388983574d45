"""Tables in the desktop, the worker side: the first rows of dropped tables for the role
dialog (``preview_dropped``) and of a table document for the review area
(``load_table``). Both run in Tasks: a table may be a million rows, and only its first
rows are read here, never on the GUI thread."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import engine.api as api
from desktop.records import TableData
from engine.core.domain import Document
from engine.core.errors import ClearNoteError
from engine.core.messages import problem_in_words

if TYPE_CHECKING:
    from engine.api import Project, TablePreview

DIALOG_ROWS = 20  # rows read for the role dialog's sample values
VIEW_ROWS = 300  # rows the review area shows of a table document


@dataclass(frozen=True, slots=True)
class DroppedTable:
    """A dropped table with its inferred roles and first rows, or why it cannot be read."""

    path: Path
    preview: TablePreview | None
    problem: str = ""
    sheets: tuple[TablePreview, ...] = ()  # a workbook: each sheet's first rows


@dataclass(frozen=True, slots=True)
class DropPreview:
    """What a drop holds: its tables (named, or inside a dropped folder) with their first
    rows, and the other things to import: a folder holding tables is replaced by its other
    files, so that only the tables confirmed in the dialog are imported from it."""

    tables: list[DroppedTable]
    others: list[Path]


def preview_drop(paths: Sequence[Path]) -> DropPreview:
    """Walk the dropped folders for tables (hidden files left out, as import does) and
    read every table's first rows. Runs on a worker."""
    tables: list[Path] = []
    others: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = [p for p in api.discover_inputs([path]).files if p.is_file()]
            found = [p for p in inside if api.is_table_path(p)]
            tables += found
            others += [p for p in inside if p not in found] if found else [path]
        elif api.is_table_path(path) and path.is_file():
            tables.append(path)
        else:
            others.append(path)
    return DropPreview(preview_dropped(tables), others)


def preview_dropped(paths: Sequence[Path]) -> list[DroppedTable]:
    out = []
    for path in paths:
        try:
            first = api.preview_table(path, rows=DIALOG_ROWS)
            sheets = tuple(api.preview_table(path, rows=DIALOG_ROWS, sheet=n)
                           for n in range(2, len(first.sheets) + 1))
            out.append(DroppedTable(path, first, sheets=(first, *sheets)))
        except (ClearNoteError, OSError) as exc:  # named in words, the file by the caller
            out.append(DroppedTable(path, None, problem_in_words(exc)))
    return out


def load_table(project: Project, document: Document, *, sheet: int = 1) -> TableData | None:
    """A table document's first rows (of a workbook's ``sheet``) with the roles its export
    uses, and the cells and spans stored for them when it was detected; None for a
    document that is not a table."""
    if not api.is_table_media(document.media_type):
        return None
    try:
        preview = api.preview_project_table(project, document.id, rows=VIEW_ROWS,
                                            sheet=sheet)
    except (ClearNoteError, OSError) as exc:
        return TableData(None, problem_in_words(exc), document.id)
    row_of = {name: i for i, name in enumerate(preview.row_names)}
    cells = {(row_of[c.row], c.column): (c.start, c.end)
             for c in project.tables.cells(document.id, rows=preview.row_names)}
    if not cells:
        return TableData(preview, document_id=document.id)
    low, high = min(a for a, _ in cells.values()), max(b for _, b in cells.values())
    spans = tuple(sp for sp in project.spans(document.id)
                  if sp.start >= low and sp.end <= high)
    return TableData(preview, "", document.id, cells, spans)


def table_stub(document: Document) -> Document:
    """The table document without its review text: the review area shows its cells in
    the grid, never the whole text (a large extract's would not fit a text view)."""
    return Document(text="", id=document.id, source_path=document.source_path,
                    media_type=document.media_type, sha256=document.sha256)


__all__ = ["DIALOG_ROWS", "VIEW_ROWS", "DropPreview", "DroppedTable", "load_table", "preview_drop",
           "preview_dropped",
           "table_stub"]
