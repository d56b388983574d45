"""The first rows of a table with its roles, for a person to look at: the desktop's role
dialog (a few sample values per column) and its read-only table view (a few hundred
rows). Rows are read as ``deid_table`` reads them (so bad input fails the same way), and
only as many as asked: a preview of a million-row extract reads its first rows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.tables.review import table_rows
from engine.tables.roles import ROLE_HELP, Role
from engine.tables.run import infer_schema
from engine.tables.schema import TableSchema

TABLE_ROLES: tuple[Role, ...] = tuple(Role)  # in the order a person picks from


@dataclass(frozen=True)
class TablePreview:
    schema: TableSchema
    rows: tuple[tuple[str, ...], ...]  # the first rows (of the first sheet of a workbook)
    more: bool  # the table goes on past these rows (or has further sheets)

    def samples(self, column: int, count: int = 3) -> list[str]:
        """Up to ``count`` non-empty values of ``column``, from the first rows."""
        values = [row[column] for row in self.rows if row[column].strip()]
        return values[:count]


def role_help(role: Role | str) -> str:
    return ROLE_HELP[Role(role)]


def preview_table(path: Path, *, rows: int = 300, schema: TableSchema | None = None
                  ) -> TablePreview:
    """The roles (``schema``, else inferred as `clearnote table-schema` prints them) and
    the first ``rows`` data rows of the table at ``path``."""
    first = schema or infer_schema(path)
    kept: list[tuple[str, ...]] = []
    more = False
    for _name, row_schema, values in table_rows(path, schema):
        if row_schema.columns != first.columns or len(kept) == rows:
            more = True  # a workbook's next sheet, or past the rows asked for
            break
        kept.append(tuple(values))
    return TablePreview(first, tuple(kept), more)
