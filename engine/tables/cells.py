"""A table's reviewable cells as one review text, so that their spans are stored and
decided as a document's are (``engine.project.table_review`` stores them).

The review text is every data row's reviewable cells one after another, in reading order
(every sheet of a workbook), each cell's value followed by a line break: the identifier
cells (a role replaced as an identifier: name, MRN, phone, date...) and the free-text
cells, non-empty ones only. Each cell is a ``LaidCell``: its row (ordinal and name), its
column and its range in the review text. An identifier cell gets one span over its whole
value (``table.role@1``), a free-text cell the spans ``deid_table`` would replace in it
(the pipeline's and the row's own identifier values), at their offsets in the review text.
The layout is a function of the rows and the roles, so the project's export can check
that the rows it streams are the rows that were detected.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.session import Session
from engine.tables.review import table_rows
from engine.tables.roles import Role
from engine.tables.schema import TableSchema
from engine.tables.transform import LABELS, RowDeidentifier

ROLE_DETECTOR = "table.role@1"  # the span of an identifier cell: its column's role
CELL_ROLES = frozenset(LABELS)  # roles whose cells are replaced as an identifier
SEPARATOR = "\n"


@dataclass(frozen=True, slots=True)
class LaidCell:
    ordinal: int  # the data row over the whole table, 1-based, in reading order
    row: str  # "r12" (data row 12), "s2r12" (a workbook's second sheet)
    column: int  # 0-based
    start: int  # the value's range in the review text
    end: int
    role: str = Role.FREE_TEXT.value  # the column's role

    @property
    def free_text(self) -> bool:
        return self.role == Role.FREE_TEXT.value

    @property
    def name(self) -> str:
        """"r12c9": the cell's name in review files (column 1-based)."""
        return f"{self.row}c{self.column + 1}"


def reviewable(schema: TableSchema, values: Sequence[str]) -> list[tuple[int, str]]:
    """(column, value) of the row's reviewable cells, in column order."""
    return [(i, values[i]) for i, role in enumerate(schema.roles)
            if (role in CELL_ROLES or role is Role.FREE_TEXT) and i < len(values)
            and values[i].strip()]


def lay_row(schema: TableSchema, values: Sequence[str], ordinal: int, row: str,
            offset: int) -> tuple[list[LaidCell], str]:
    """The row's cells laid out from ``offset``, and the row's part of the review text."""
    cells, parts = [], []
    for column, value in reviewable(schema, values):
        cells.append(LaidCell(ordinal, row, column, offset, offset + len(value),
                              schema.role_of(column).value))
        parts.append(value + SEPARATOR)
        offset += len(value) + len(SEPARATOR)
    return cells, "".join(parts)


@dataclass(frozen=True)
class DetectedRow:
    cells: list[LaidCell]
    text: str  # the row's part of the review text
    spans: list[Span]  # offsets into the review text


def detect_rows(path: Path, session: Session, *, schema: TableSchema | None = None,
                ctx: RunContext | None = None) -> Iterator[DetectedRow]:
    """Each data row laid out with its spans, in reading order (as ``deid_table`` reads
    the rows, so bad input fails the same way)."""
    ctx = ctx or RunContext()
    deids: dict[TableSchema, RowDeidentifier] = {}
    offset = 0
    for ordinal, (name, row_schema, values) in enumerate(table_rows(path, schema), 1):
        ctx.check()
        deid = deids.get(row_schema)
        if deid is None:
            deid = deids[row_schema] = RowDeidentifier(session, row_schema, ctx)
        cells, text = lay_row(row_schema, values, ordinal, name, offset)
        spans: list[Span] = []
        for cell in cells:
            role = row_schema.role_of(cell.column)
            if role is Role.FREE_TEXT:
                found = deid.free_text_spans(Document.from_text(values[cell.column]), values)
                # The row's own values found in its note are a dictionary's finding, not a
                # person's (stored, a MANUAL span would count as a review decision).
                spans += [replace(sp, start=sp.start + cell.start, end=sp.end + cell.start,
                                  source=Source.DICTIONARY if sp.source is Source.MANUAL
                                  else sp.source) for sp in found]
            else:
                label, subtype = LABELS[role]
                spans.append(Span(cell.start, cell.end, label, source=Source.RULE,
                                  subtype=subtype, detector=ROLE_DETECTOR))
        offset += len(text)
        yield DetectedRow(cells, text, spans)
