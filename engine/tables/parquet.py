"""Parquet tables (pyarrow, the ``tables`` or ``spark`` extra), streamed a record batch at
a time into a file with the same schema (names, types, metadata) and the rows in the same
order. Keep columns are copied as Arrow arrays; a de-identified
column keeps its type: text stays text, dates stay dates (shifted), integer identifiers
stay integers (an age over 89 in an integer column becomes 90, which is what "90+" can be
there)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.core.context import RunContext
from engine.core.errors import InputError
from engine.core.files import atomic_target
from engine.session import Session
from engine.tables import csvio
from engine.tables.roles import SAMPLE_ROWS, Role, infer_roles
from engine.tables.schema import TableSchema
from engine.tables.transform import OVER_89, ReviewOf, RowDeidentifier, ScopeOf

BATCH_ROWS = 1024


def _pyarrow(path: Path) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(path, "reading Parquet needs pyarrow (pip install "
                               "'clearnote[tables]')") from None
    return pq


def _open(path: Path) -> Any:
    pq = _pyarrow(path)
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for bad files
        raise InputError(path, "not a readable Parquet file") from exc


def _as_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    return str(value)


def _rows(batch: Any) -> Iterator[list[str]]:
    columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
    for values in zip(*columns, strict=True):
        yield [_as_text(v) for v in values]


def infer_schema(path: Path) -> TableSchema:
    parquet = _open(path)
    names = list(parquet.schema_arrow.names)
    csvio.check_header(path, names)
    sample: list[list[str]] = []
    for batch in parquet.iter_batches(batch_size=SAMPLE_ROWS):
        sample = list(_rows(batch))
        break
    return TableSchema(tuple(names), tuple(infer_roles(names, sample)))


def deid_parquet(path: Path, out: Path, session: Session, *,
                 schema: TableSchema | None = None, ctx: RunContext | None = None,
                 scope_of: ScopeOf | None = None,
                review_of: ReviewOf | None = None) -> tuple[int, int]:
    """(rows, spans replaced in free text)."""
    import pyarrow as pa

    ctx = ctx or RunContext()
    parquet = _open(path)
    arrow_schema = parquet.schema_arrow
    csvio.check_header(path, arrow_schema.names)
    schema = schema or infer_schema(path)
    schema.check_header(arrow_schema.names, path)
    deid = RowDeidentifier(session, schema, ctx, scope_of=scope_of,
                           review_of=review_of)
    changed = [i for i, r in enumerate(schema.roles) if r is not Role.KEEP]
    for i in changed:
        _check_type(path, arrow_schema.field(i), schema.roles[i])
    rows = 0
    pq = _pyarrow(path)
    with atomic_target(out) as tmp, pq.ParquetWriter(tmp, arrow_schema) as writer:
        for batch in parquet.iter_batches(batch_size=BATCH_ROWS):
            ctx.check()
            new_rows = [deid.row(_sized(path, values, rows + n + 1),
                                 where=f"{path.name}: row {rows + n + 1}")
                        for n, values in enumerate(_rows(batch))]
            arrays = list(batch.columns)
            for i in changed:
                field = arrow_schema.field(i)
                old = batch.column(i).to_pylist()
                arrays[i] = pa.array([_back(field.type, o, r[i], path, field.name)
                                      for o, r in zip(old, new_rows, strict=True)],
                                     type=field.type)
            writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=arrow_schema))
            rows += batch.num_rows
    return rows, deid.spans


def _sized(path: Path, values: list[str], row: int) -> list[str]:
    """A cell past ``csvio.MAX_CELL_CHARS`` is refused, as in a CSV table."""
    for column, value in enumerate(values, 1):
        if len(value) > csvio.MAX_CELL_CHARS:
            raise InputError(path, f"row {row}, column {column}: a cell longer than "
                                   f"{csvio.MAX_CELL_CHARS} characters")
    return values


def _check_type(path: Path, field: Any, role: Role) -> None:
    import pyarrow.types as t

    kind = field.type
    ok = t.is_string(kind) or t.is_large_string(kind) or \
        (role in (Role.DATE, Role.DOB) and (t.is_date(kind) or t.is_timestamp(kind))) or \
        (role in (Role.PATIENT_KEY, Role.IDENTIFIER, Role.AGE, Role.DROP, Role.ZIP)
         and t.is_integer(kind))
    if not ok:
        raise InputError(path, f"column {field.name!r}: the role {role.value} cannot be "
                               f"applied to {kind} values")


def _back(kind: Any, old: object, new: str, path: Path, column: str) -> object:
    """``new`` (text) in the column's own type; an empty cell stays empty (null)."""
    import pyarrow.types as t

    if old is None or (new == "" and not (t.is_string(kind) or t.is_large_string(kind))):
        return None
    if t.is_string(kind) or t.is_large_string(kind):
        return new
    if t.is_integer(kind):
        digits = "90" if new == OVER_89 else new
        if not digits.isdigit():
            raise InputError(path, f"column {column!r}: {new!r} is no integer")
        return int(digits)
    if t.is_date(kind):
        return dt.date.fromisoformat(new)
    return dt.datetime.fromisoformat(new)
