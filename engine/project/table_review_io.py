"""Review decisions on table cells, read back from review files (`clearnote project
review-import`): a record or ``.ann`` file named ``<table id>-r12c9`` (``s2r12c9`` on a
workbook's second sheet) is a free-text cell of that table, its offsets into the cell.
``table_decisions`` moves them to their table (offsets into its review text), all of a
table's cells one entry, and says which cells were listed: a span of a cell the files do
not list is not "unlisted" (a review export holds the free-text cells only, never the
identifier cells)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core.errors import UsageError, shown
from engine.project.tables import is_table_media
from engine.tables.cells import LaidCell

if TYPE_CHECKING:
    from engine.project.facade import Project

_CELL_ID = re.compile(r"(?P<table>[0-9a-f]{16})-(?P<row>(?:s\d+)?r\d+)c(?P<column>\d+)")
Scopes = dict[str, list[tuple[int, int]]]


def table_decisions(project: Project, pairs: Iterable[tuple[str, Sequence[Any]]]
                    ) -> tuple[list[tuple[str, Sequence[Any]]], Scopes]:
    """Review decisions read from files, with those on table cells ("<table id>-r12c9")
    moved to their table: offsets into the cell become offsets into the table's review
    text, all of a table's cells one entry. Returns the entries and, per table, the cells
    listed (a span outside them is not "unlisted": only the cells in the files are)."""
    out: list[tuple[str, Sequence[Any]]] = []
    by_table: dict[str, list[Any]] = {}
    scopes: Scopes = {}
    cells: dict[str, dict[tuple[str, int], LaidCell]] = {}
    for doc_id, decisions in pairs:
        found = _CELL_ID.fullmatch(doc_id)
        if found is None or not _is_table(project, found["table"], cells):
            out.append((doc_id, decisions))
            continue
        table = found["table"]
        cell = cells[table].get((found["row"], int(found["column"]) - 1))
        if cell is None or not cell.free_text:
            raise UsageError(f"{shown(doc_id)}: table {table} has no such free-text cell")
        for d in decisions:
            start, end = d.start, d.end
            if not 0 <= start < end <= cell.end - cell.start:
                raise UsageError(f"{shown(getattr(d, 'where', '') or doc_id, 240)}: span "
                                 f"[{start}, {end}) is outside the cell "
                                 f"({cell.end - cell.start} characters)")
            by_table.setdefault(table, []).append(
                replace(d, start=start + cell.start, end=end + cell.start))
        by_table.setdefault(table, [])
        scopes.setdefault(table, []).append((cell.start, cell.end))
    out += list(by_table.items())
    return out, scopes


def _is_table(project: Project, table_id: str,
              cells: dict[str, dict[tuple[str, int], LaidCell]]) -> bool:
    if table_id not in cells:
        try:
            record = project.document(table_id)
        except UsageError:
            return False
        if not is_table_media(record.media_type):
            return False
        cells[table_id] = {(c.row, c.column): c for c in project.tables.cells(table_id)}
    return True
