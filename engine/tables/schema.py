"""The table schema a person confirms: one line per column, ``role,column`` (RFC 4180, so
any column name survives), with comment lines (``#``) listing the roles. `clearnote
table-schema FILE` prints it; `--schema FILE` reads it back, and it must name exactly the
file's columns, in order."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import UsageError
from engine.tables.roles import ROLE_HELP, Role


@dataclass(frozen=True)
class TableSchema:
    """The roles of a table's columns. A workbook whose sheets have their own columns has
    one schema per sheet (``sheets``, by sheet name; ``columns``/``roles`` are the first
    sheet's): its text has a third column, ``role,column,sheet``."""

    columns: tuple[str, ...]
    roles: tuple[Role, ...]
    sheets: tuple[tuple[str, TableSchema], ...] = ()

    @classmethod
    def of_sheets(cls, sheets: Sequence[tuple[str, TableSchema]]) -> TableSchema:
        """One schema for a workbook's sheets (each sheet's columns and roles)."""
        if not sheets:
            raise UsageError("a workbook schema names at least one sheet")
        flat = tuple((title, TableSchema(s.columns, s.roles)) for title, s in sheets)
        if len(flat) == 1:
            return flat[0][1]
        return cls(flat[0][1].columns, flat[0][1].roles, flat)

    def for_sheet(self, title: str) -> TableSchema:
        """The schema of the sheet named ``title`` (this one when not per sheet)."""
        if not self.sheets:
            return self
        for name, schema in self.sheets:
            if name == title:
                return schema
        raise UsageError(f"the schema names no sheet {title!r} (it names "
                         f"{', '.join(repr(n) for n, _ in self.sheets)})")

    def role_of(self, index: int) -> Role:
        return self.roles[index]

    def indexes(self, *roles: Role) -> list[int]:
        return [i for i, r in enumerate(self.roles) if r in roles]

    def to_text(self) -> str:
        out = io.StringIO()
        out.write("# ClearNote table schema: one line per column, role then column name.\n"
                  "# Edit the roles, keep the columns and their order. Roles:\n")
        for role, help_text in ROLE_HELP.items():
            out.write(f"#   {role.value:<14} {help_text}\n")
        writer = csv.writer(out, lineterminator="\n")
        if self.sheets:
            writer.writerow(["role", "column", "sheet"])
            for title, sheet in self.sheets:
                for column, role in zip(sheet.columns, sheet.roles, strict=True):
                    writer.writerow([role.value, column, title])
            return out.getvalue()
        writer.writerow(["role", "column"])
        for column, role in zip(self.columns, self.roles, strict=True):
            writer.writerow([role.value, column])
        return out.getvalue()

    def check_header(self, header: Sequence[str], source: Path) -> None:
        if tuple(header) != self.columns:
            raise UsageError(f"{source.name}: its columns differ from the schema's "
                             f"({len(header)} columns, the schema names {len(self.columns)}"
                             "; the names must match in order)")


def read_schema(path: Path) -> TableSchema:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the schema ({type(exc).__name__})") from None
    return parse_schema(text, str(path))


def schema_with_roles(columns: Sequence[str], roles: Sequence[Role | str]) -> TableSchema:
    """A schema from roles a person chose (the desktop's dialog), one per column."""
    if len(columns) != len(roles):
        raise UsageError(f"{len(roles)} roles for {len(columns)} columns")
    valid = ", ".join(r.value for r in Role)
    try:
        return TableSchema(tuple(columns), tuple(Role(r) for r in roles))
    except ValueError:
        raise UsageError(f"unknown column role (one of {valid})") from None


def parse_schema(text: str, path: str) -> TableSchema:
    """A schema from its text (``to_text``); ``path`` names where it came from."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    rows = [r for r in csv.reader(lines) if r]
    head = [c.strip().casefold() for c in rows[0]] if rows else []
    if head not in (["role", "column"], ["role", "column", "sheet"]):
        raise UsageError(f"{path}: a schema starts with the line \"role,column\" (or "
                         "\"role,column,sheet\" for a workbook's sheets)")
    sheets: dict[str, tuple[list[str], list[Role]]] = {}
    valid = ", ".join(r.value for r in Role)
    for number, row in enumerate(rows[1:], 2):
        if len(row) != len(head):
            raise UsageError(f"{path}: schema line {number}: expected {','.join(head)}")
        try:
            role = Role(row[0].strip().casefold())
        except ValueError:
            raise UsageError(f"{path}: schema line {number}: unknown role {row[0]!r} "
                             f"(one of {valid})") from None
        columns, roles = sheets.setdefault(row[2] if len(head) == 3 else "", ([], []))
        columns.append(row[1])
        roles.append(role)
    if len(head) == 2 or not sheets:
        columns, roles = sheets.get("", ([], []))
        return TableSchema(tuple(columns), tuple(roles))
    return TableSchema.of_sheets([(title, TableSchema(tuple(c), tuple(r)))
                                  for title, (c, r) in sheets.items()])
