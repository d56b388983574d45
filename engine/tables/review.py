"""The free-text cells of a table for review (`clearnote project review-export`): every
row's note cells with the spans ``deid_table`` replaces in them (the pipeline's and the
row's own identifier values), named by sheet, row and column, never by their values. The
rows are read as ``deid_table`` reads them, so bad input fails the same way."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import Document, Span
from engine.session import Session
from engine.tables import csvio, jsonl, parquet, xlsx
from engine.tables.roles import SAMPLE_ROWS, Role, infer_roles
from engine.tables.schema import TableSchema
from engine.tables.transform import RowDeidentifier


@dataclass(frozen=True)
class ReviewCell:
    name: str  # "r12c9": data row 12 (1-based, the header not counted), column 9
    text: str
    spans: list[Span]


def _csv_rows(path: Path, schema: TableSchema | None
              ) -> Iterator[tuple[str, TableSchema, list[str]]]:
    from engine.tables.run import _blank, _open

    _fmt, header, sample, rest = _open(path)
    if schema is None:
        rows = [r.values for r in sample if not _blank(r)]
        schema = TableSchema(tuple(header.values), tuple(infer_roles(header.values, rows)))
    else:
        schema.check_header(header.values, path)
    width = len(header.fields)
    number = 0
    for record in itertools.chain(sample, rest):
        if _blank(record) and width > 1:
            continue
        csvio.check_width(path, record, width)
        number += 1
        yield f"r{number}", schema, record.values


def _parquet_rows(path: Path, schema: TableSchema | None
                  ) -> Iterator[tuple[str, TableSchema, list[str]]]:
    table = parquet._open(path)
    schema = schema or parquet.infer_schema(path)
    schema.check_header(table.schema_arrow.names, path)
    number = 0
    for batch in table.iter_batches(batch_size=parquet.BATCH_ROWS):
        for values in parquet._rows(batch):
            number += 1
            yield f"r{number}", schema, values


def _xlsx_rows(path: Path, schema: TableSchema | None
               ) -> Iterator[tuple[str, TableSchema, list[str]]]:
    xlsx._check_merged(path)
    book = xlsx._load(path)
    try:
        for index, sheet in enumerate(book.worksheets, 1):
            rows = sheet.iter_rows(values_only=True)
            header = next(rows, None)
            if header is None:
                continue
            names = [xlsx._text(v) for v in xlsx.trimmed(header)]
            xlsx.check_sheet_header(path, sheet.title, names)
            data: Iterator[list[str]] = (
                [xlsx._text(v) for v in row] + [""] * (len(names) - len(row)) for row in rows)
            if schema is None:
                sample = list(itertools.islice(data, SAMPLE_ROWS))
                sheet_schema = TableSchema(tuple(names), tuple(infer_roles(names, sample)))
                data = itertools.chain(sample, data)
            else:
                sheet_schema = schema.for_sheet(sheet.title)
                sheet_schema.check_header(names, path)
            for number, values in enumerate(data, 1):
                yield f"s{index}r{number}", sheet_schema, values[:len(names)]
    finally:
        book.close()


def _jsonl_rows(path: Path, schema: TableSchema | None
                ) -> Iterator[tuple[str, TableSchema, list[str]]]:
    schema, rows = jsonl.table_rows(path, schema)
    for number, values in enumerate(rows, 1):
        yield f"r{number}", schema, values


def table_rows(path: Path, schema: TableSchema | None
               ) -> Iterator[tuple[str, TableSchema, list[str]]]:
    """Every data row as ``deid_table`` reads it: (name, the row's schema, values)."""
    reader = {".parquet": _parquet_rows, ".xlsx": _xlsx_rows, ".jsonl": _jsonl_rows
              }.get(path.suffix.lower(), _csv_rows)
    return reader(path, schema)


def review_cells(path: Path, session: Session, *, schema: TableSchema | None = None,
                 ctx: RunContext | None = None) -> Iterator[ReviewCell]:
    """Each non-empty free-text cell with its spans, in row order."""
    rows = table_rows(path, schema)
    deids: dict[TableSchema, RowDeidentifier] = {}
    for name, row_schema, values in rows:
        deid = deids.get(row_schema)
        if deid is None:
            deid = deids[row_schema] = RowDeidentifier(session, row_schema, ctx)
        for column in row_schema.indexes(Role.FREE_TEXT):
            text = values[column]
            if text.strip():
                doc = Document.from_text(text)
                yield ReviewCell(f"{name}c{column + 1}", text,
                                 deid.free_text_spans(doc, values))
