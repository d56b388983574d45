"""A table through its roles, streamed row by row into one output of the same format:
the same header, rows, order and row count; keep columns byte for byte. The output appears
only complete (temp file + rename); a row that still holds one of its original identifier
values fails the table closed."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.core.context import RunContext
from engine.core.errors import ExportError, InputError
from engine.core.files import atomic_target
from engine.session import Session
from engine.tables import csvio, jsonl, parquet, xlsx
from engine.tables.roles import SAMPLE_ROWS, infer_roles
from engine.tables.schema import TableSchema
from engine.tables.transform import ReviewOf, RowDeidentifier, ScopeOf

TABLE_SUFFIXES = {".csv": ".deid.csv", ".tsv": ".deid.tsv", ".parquet": ".deid.parquet",
                  ".xlsx": ".deid.xlsx", ".jsonl": ".deid.jsonl"}
PARQUET, XLSX, JSONL = ".parquet", ".xlsx", ".jsonl"


def is_table(path: Path) -> bool:
    return path.suffix.lower() in TABLE_SUFFIXES


def output_name(document_id: str, path: Path) -> str:
    return document_id + TABLE_SUFFIXES[path.suffix.lower()]


@dataclass(frozen=True)
class TableResult:
    output: Path
    rows: int
    spans: int  # replaced inside free-text cells


def _open(path: Path) -> tuple[csvio.CsvFormat, csvio.Record, list[csvio.Record],
                                 Iterator[csvio.Record]]:
    fmt = csvio.sniff(path)
    records = csvio.read_records(path, fmt)
    header = next(records, None)
    if header is None:
        raise InputError(path, "the table is empty (no header)")
    csvio.check_header(path, header.values)
    sample = list(itertools.islice(records, SAMPLE_ROWS))
    return fmt, header, sample, records


def infer_schema(path: Path) -> TableSchema:
    """The roles ClearNote would use, from the header and the first rows' values."""
    if path.suffix.lower() == PARQUET:
        return parquet.infer_schema(path)
    if path.suffix.lower() == XLSX:
        return xlsx.infer_schema(path)
    if path.suffix.lower() == JSONL:
        return jsonl.infer_schema(path)
    _fmt, header, sample, _rest = _open(path)
    rows = [r.values for r in sample if not _blank(r)]
    return TableSchema(tuple(header.values), tuple(infer_roles(header.values, rows)))


def deid_table(path: Path, out: Path, session: Session, *, schema: TableSchema | None = None,
               ctx: RunContext | None = None, scope_of: ScopeOf | None = None,
               review_of: ReviewOf | None = None) -> TableResult:
    """``scope_of``: the run's patient linker (default: each patient key its own scope);
    ``review_of``: a person's decisions per row (a table reviewed in its project)."""
    ctx = ctx or RunContext()
    if path.suffix.lower() == PARQUET:
        count, spans = parquet.deid_parquet(path, out, session, schema=schema, ctx=ctx,
                                            scope_of=scope_of, review_of=review_of)
        return TableResult(out, count, spans)
    if path.suffix.lower() == XLSX:
        count, spans = xlsx.deid_xlsx(path, out, session, schema=schema, ctx=ctx,
                                      scope_of=scope_of, review_of=review_of)
        return TableResult(out, count, spans)
    if path.suffix.lower() == JSONL:
        count, spans = jsonl.deid_jsonl(path, out, session, schema=schema, ctx=ctx,
                                        scope_of=scope_of, review_of=review_of)
        return TableResult(out, count, spans)
    fmt, header, sample, rest = _open(path)
    if schema is None:
        rows = [r.values for r in sample if not _blank(r)]
        schema = TableSchema(tuple(header.values), tuple(infer_roles(header.values, rows)))
    else:
        schema.check_header(header.values, path)
    width = len(header.fields)
    deid = RowDeidentifier(session, schema, ctx, scope_of=scope_of, review_of=review_of)
    count = 0
    try:
        with atomic_target(out) as tmp, \
                tmp.open("w", encoding=fmt.encoding, newline="") as handle:
            handle.write(csvio.render(header, header.values, fmt.delimiter))
            for record in itertools.chain(sample, rest):
                ctx.check()
                if _blank(record) and width > 1:
                    handle.write(csvio.render(record, record.values, fmt.delimiter))
                    continue
                csvio.check_width(path, record, width)
                values = deid.row(record.values, where=f"{path.name}: line {record.line}")
                handle.write(csvio.render(record, values, fmt.delimiter))
                count += 1
    except UnicodeEncodeError:
        raise ExportError(f"{out.name}: a surrogate cannot be written in the table's "
                          f"encoding ({fmt.encoding}); save the table as UTF-8") from None
    return TableResult(out, count, deid.spans)


def _blank(record: csvio.Record) -> bool:
    return len(record.fields) == 1 and not record.fields[0].raw
