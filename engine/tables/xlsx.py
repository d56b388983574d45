"""XLSX workbooks (openpyxl, the ``tables`` extra): every sheet, read and written as a
stream (read-only in, write-only out), the same sheet names, rows and order. Formulas are
written as the values Excel last computed for them; cell styles and number formats are
not kept (dates stay dates, numbers stay numbers). The first row of a sheet is its header;
an empty sheet is copied empty. Merged cells and password-protected workbooks are refused
with the sheet (and range) named."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

from engine.core.context import RunContext
from engine.core.errors import InputError
from engine.core.files import atomic_target
from engine.session import Session
from engine.tables import csvio
from engine.tables.roles import SAMPLE_ROWS, infer_roles
from engine.tables.schema import TableSchema
from engine.tables.transform import OVER_89, ReviewOf, RowDeidentifier, ScopeOf


def _openpyxl(path: Path) -> Any:
    try:
        import openpyxl
    except ImportError:
        raise InputError(path, "reading XLSX needs openpyxl (pip install "
                               "'clearnote[tables]')") from None
    return openpyxl


def _load(path: Path, *, read_only: bool = True) -> Any:
    openpyxl = _openpyxl(path)
    try:
        return openpyxl.load_workbook(path, read_only=read_only, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError) as exc:
        problem = "password-protected or not an XLSX workbook" \
            if isinstance(exc, zipfile.BadZipFile) else "not a readable XLSX workbook"
        raise InputError(path, problem) from None


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else \
            value.isoformat(sep=" ")
    return str(value)


def _back(old: object, new: str, where: str) -> object:
    if old is None or isinstance(old, str):
        return new if old is not None or new else None
    if new == _text(old):
        return old
    if isinstance(old, bool):
        return new
    if isinstance(old, int):
        digits = "90" if new == OVER_89 else new
        return int(digits) if digits.isdigit() else new
    if isinstance(old, float):
        try:
            return float(new)
        except ValueError:
            return new
    if isinstance(old, dt.datetime):
        try:
            return dt.datetime.fromisoformat(new)
        except ValueError:
            return new
    if isinstance(old, dt.date):
        try:
            return dt.date.fromisoformat(new)
        except ValueError:
            return new
    raise InputError(None, f"{where}: a cell of an unsupported kind")


def trimmed(row: Any, width: int = 0) -> list[Any]:
    """The row without its empty cells past ``width``: a read-only sheet pads every row
    to the sheet's widest, so only a value past the header makes a row ragged."""
    cells = list(row)
    while len(cells) > width and cells[-1] is None:
        cells.pop()
    return cells


def check_sheet_header(path: Path, title: str, names: list[str]) -> None:
    """A sheet's header as a CSV's: no empty or repeated column name."""
    try:
        csvio.check_header(path, names)
    except InputError as exc:
        raise InputError(path, f"sheet {title!r}, {exc.problem}") from None


# openpyxl stamps the ZIP entries and docProps/core.xml with the time of saving; a fixed
# stamp makes the output a function of the input and the secret (the folder and project
# sinks, and two runs, write the same bytes), and says nothing about when it was made.
FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
FIXED_XML_TIME = b"1980-01-01T00:00:00Z"
_XML_TIME = re.compile(rb"(<dcterms:(?:created|modified)\b[^>]*>)[^<]*(</dcterms:)")


def stable_zip(path: Path) -> None:
    """Rewrite the saved workbook with fixed timestamps, entry by entry (streamed)."""
    fixed = path.with_name(path.name + ".stable")
    try:
        with zipfile.ZipFile(path) as src, \
                zipfile.ZipFile(fixed, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                entry = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
                entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, \
                    info.external_attr
                if info.filename == "docProps/core.xml":
                    dst.writestr(entry, _XML_TIME.sub(rb"\g<1>" + FIXED_XML_TIME + rb"\g<2>",
                                                      src.read(info)))
                    continue
                with src.open(info) as reader, dst.open(entry, "w") as writer:
                    shutil.copyfileobj(reader, writer, 1 << 20)
        os.replace(fixed, path)
    finally:
        fixed.unlink(missing_ok=True)


def _check_merged(path: Path) -> None:
    """Merged cells (only visible outside read-only mode) have no one value per row."""
    book = _load(path, read_only=False)
    try:
        for sheet in book.worksheets:
            ranges = list(sheet.merged_cells.ranges)
            if ranges:
                raise InputError(path, f"sheet {sheet.title!r}: merged cells ({ranges[0]}); "
                                       "unmerge them and run again")
    finally:
        book.close()


def infer_schema(path: Path) -> TableSchema:
    """Each sheet's roles (a workbook of one sheet with a header: that sheet's; of
    several, one schema per sheet, ``TableSchema.sheets``)."""
    found = [(title, schema) for title, schema in sheet_schemas(path) if schema is not None]
    if not found:
        raise InputError(path, "the workbook has no sheet with a header")
    return TableSchema.of_sheets(found)


def sheet_schemas(path: Path) -> list[tuple[str, TableSchema | None]]:
    """Every sheet in order, with its inferred roles (None: an empty sheet)."""
    book = _load(path)
    out: list[tuple[str, TableSchema | None]] = []
    try:
        for sheet in book.worksheets:
            rows = sheet.iter_rows(values_only=True)
            header = next(rows, None)
            if header is None:
                out.append((sheet.title, None))
                continue
            names = [_text(v) for v in trimmed(header)]
            check_sheet_header(path, sheet.title, names)
            sample = [[_text(v) for v in row] for _, row in zip(range(SAMPLE_ROWS), rows,
                                                                 strict=False)]
            out.append((sheet.title, TableSchema(tuple(names), tuple(infer_roles(names,
                                                                                  sample)))))
    finally:
        book.close()
    return out


def deid_xlsx(path: Path, out: Path, session: Session, *,
              schema: TableSchema | None = None, ctx: RunContext | None = None,
              scope_of: ScopeOf | None = None,
                review_of: ReviewOf | None = None) -> tuple[int, int]:
    """(rows, spans replaced in free text) over every sheet."""
    ctx = ctx or RunContext()
    openpyxl = _openpyxl(path)
    _check_merged(path)
    book = _load(path)
    rows = spans = 0
    try:
        with atomic_target(out) as tmp:
            target = openpyxl.Workbook(write_only=True)
            for sheet in book.worksheets:
                n, s = _sheet(path, sheet, target.create_sheet(sheet.title), session,
                              schema, ctx, scope_of, review_of)
                rows, spans = rows + n, spans + s
            target.save(tmp)
            stable_zip(tmp)
    finally:
        book.close()
    return rows, spans


def _sheet(path: Path, sheet: Any, target: Any, session: Session,
           schema: TableSchema | None, ctx: RunContext, scope_of: ScopeOf | None,
           review_of: ReviewOf | None = None) -> tuple[int, int]:
    rows = sheet.iter_rows(values_only=True)
    header = next(rows, None)
    if header is None:
        return 0, 0
    header = trimmed(header)
    names = [_text(v) for v in header]
    check_sheet_header(path, sheet.title, names)
    where = f"{path.name}, sheet {sheet.title!r}"
    if schema is None:
        buffered = [row for _, row in zip(range(SAMPLE_ROWS), rows, strict=False)]
        sheet_schema = TableSchema(tuple(names), tuple(infer_roles(
            names, [[_text(v) for v in row] for row in buffered])))
        rows = iter([*buffered, *rows])
    else:
        sheet_schema = schema.for_sheet(sheet.title)
        sheet_schema.check_header(names, path)
    target.append(list(header))
    deid = RowDeidentifier(session, sheet_schema, ctx, scope_of=scope_of,
                           review_of=review_of)
    count = 0
    for number, row in enumerate(rows, 2):
        ctx.check()
        cells = trimmed(row, len(names))
        cells += [None] * (len(names) - len(cells))
        if len(cells) > len(names):
            raise InputError(path, f"sheet {sheet.title!r}, row {number}: {len(cells)} "
                                   f"cells where the header has {len(names)} columns")
        new = deid.row([_text(v) for v in cells], where=f"{where}, row {number}")
        target.append([_back(old, value, f"{where}, row {number}")
                       for old, value in zip(cells, new, strict=True)])
        count += 1
    return count, deid.spans


def sheet_rows(path: Path, sheet: int, count: int, schema: TableSchema
               ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], bool]:
    """The first ``count`` data rows of the workbook's ``sheet`` (1-based), as
    ``deid_xlsx`` reads them, with their names ("s2r12") and whether more follow; only
    that sheet is read."""
    book = _load(path)
    try:
        target = book.worksheets[sheet - 1]
        rows = target.iter_rows(values_only=True)
        header = next(rows, None)
        if header is None:
            return (), (), False
        names = [_text(v) for v in trimmed(header)]
        check_sheet_header(path, target.title, names)
        schema.for_sheet(target.title).check_header(names, path)
        kept: list[tuple[str, ...]] = []
        for row in rows:
            if len(kept) == count:
                return tuple(kept), tuple(f"s{sheet}r{n}" for n in range(1, count + 1)), True
            values = [_text(v) for v in row] + [""] * (len(names) - len(row))
            kept.append(tuple(values[:len(names)]))
        return tuple(kept), tuple(f"s{sheet}r{n}" for n in range(1, len(kept) + 1)), False
    finally:
        book.close()
