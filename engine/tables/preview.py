"""The first rows of a table with its roles, for a person to look at: the desktop's role
dialog (a few sample values per column) and its read-only table view (a few hundred
rows). Rows are read as ``deid_table`` reads them (so bad input fails the same way), and
only as many as asked: a preview of a million-row extract reads its first rows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import UsageError
from engine.tables.review import table_rows
from engine.tables.roles import ROLE_HELP, Role
from engine.tables.run import infer_schema
from engine.tables.schema import TableSchema

TABLE_ROLES: tuple[Role, ...] = tuple(Role)  # in the order a person picks from


@dataclass(frozen=True)
class TablePreview:
    schema: TableSchema  # the roles: of every sheet (``schema.sheets``) for a workbook
    rows: tuple[tuple[str, ...], ...]  # the first rows (of ``sheet`` in a workbook)
    more: bool  # the sheet goes on past these rows
    sheet: int = 1  # which sheet of a workbook the rows are from (1-based)
    sheets: tuple[str, ...] = ()  # a workbook's sheet names, in order
    row_names: tuple[str, ...] = ()  # each row's name ("r12", "s2r12"), as review names it

    @property
    def sheet_schema(self) -> TableSchema:
        """The roles of the shown sheet's columns."""
        if self.sheets and self.schema.sheets:
            return self.schema.for_sheet(self.sheets[self.sheet - 1])
        return self.schema

    def samples(self, column: int, count: int = 3) -> list[str]:
        """Up to ``count`` non-empty values of ``column``, from the first rows."""
        values = [row[column] for row in self.rows if row[column].strip()]
        return values[:count]


def role_help(role: Role | str) -> str:
    return ROLE_HELP[Role(role)]


def preview_table(path: Path, *, rows: int = 300, schema: TableSchema | None = None,
                  sheet: int = 1) -> TablePreview:
    """The roles (``schema``, else inferred as `clearnote table-schema` prints them) and
    the first ``rows`` data rows of the table at ``path`` (of a workbook's ``sheet``:
    only that sheet is read)."""
    if path.suffix.lower() == ".xlsx":
        return _preview_sheet(path, rows, schema, sheet)
    first = schema or infer_schema(path)
    kept: list[tuple[str, ...]] = []
    names: list[str] = []
    more = False
    for name, _row_schema, values in table_rows(path, schema):
        if len(kept) == rows:
            more = True  # past the rows asked for
            break
        kept.append(tuple(values))
        names.append(name)
    return TablePreview(first, tuple(kept), more, row_names=tuple(names))


def _preview_sheet(path: Path, rows: int, schema: TableSchema | None, sheet: int
                   ) -> TablePreview:
    from engine.tables import xlsx

    inferred = xlsx.sheet_schemas(path)
    titles = tuple(title for title, _ in inferred)
    if not 1 <= sheet <= len(titles):
        raise UsageError(f"{path.name}: no sheet {sheet} (the workbook has {len(titles)})")
    if schema is None:
        schema = TableSchema.of_sheets([(t, s) for t, s in inferred if s is not None])
    kept, names, more = xlsx.sheet_rows(path, sheet, rows, schema)
    return TablePreview(schema, kept, more, sheet, titles, names)
