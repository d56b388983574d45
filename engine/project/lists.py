"""Reading the coordinator's lists (patients, staff, places) from CSV files.

Columns are found by their header, whatever the order and case: name, or first and last
name; MRN or another identifier (PHN, HCN, ULI, "id"); date of birth; address; ward; clinic.
A bad list (unreadable, binary, not UTF-8, empty, without the columns its kind needs, a row
without a name) is refused as a whole with a message naming the file and line; nothing of it
is stored. Messages never quote a cell: cells are names.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import InputError
from engine.profile.model import PhiKind

LIST_KINDS = ("patients", "staff", "places")
_HEADERS: dict[str, tuple[str, ...]] = {
    "name": ("name", "fullname", "patientname", "patient", "staffname", "staff",
             "providername", "provider", "doctor", "physician", "nurse", "place",
             "placename", "location"),
    "first": ("firstname", "first", "givenname", "given", "forename"),
    "last": ("lastname", "last", "surname", "familyname", "family"),
    "MRN": ("mrn", "medicalrecordnumber", "medicalrecord", "chart", "chartnumber", "id",
            "patientid", "identifier", "recordnumber", "hospitalnumber"),
    "PHN": ("phn", "personalhealthnumber"),
    "HCN": ("hcn", "healthcard", "healthcardnumber"),
    "ULI": ("uli",),
    "dob": ("dob", "dateofbirth", "birthdate", "birthday", "born"),
    "address": ("address", "streetaddress", "street", "city", "town", "homeaddress"),
    "ward": ("ward", "unit", "department", "floor"),
    "clinic": ("clinic", "hospital", "facility", "site", "practice"),
}
_ID_FIELDS = ("MRN", "PHN", "HCN", "ULI")
_HEADER_KEY = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class ListRow:
    """One row: the person or place and, for patients, what ties documents to them."""

    line: int
    name: str
    ids: tuple[tuple[str, str], ...] = ()  # (MRN|PHN|HCN|ULI, value)
    dob: str = ""
    places: tuple[tuple[PhiKind, str], ...] = ()  # address, ward, clinic cells


def _text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(path, f"cannot read the list ({exc.strerror or 'unreadable'})"
                         ) from None
    if b"\x00" in raw[:65536]:
        raise InputError(path, "not a CSV text file (binary content)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise InputError(path, f"line {line}: not UTF-8 text (save the list as CSV UTF-8)"
                         ) from None


def _columns(path: Path, header: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = _HEADER_KEY.sub("", cell.casefold())
        for field, names in _HEADERS.items():
            if key in names and field not in found:
                found[field] = index
    return found


def _needs(path: Path, kind: str, columns: dict[str, int]) -> None:
    has_name = "name" in columns or ("first" in columns and "last" in columns)
    if kind in ("patients", "staff") and not has_name:
        raise InputError(path, "line 1: no name column (the header needs \"name\", or "
                               "\"first name\" and \"last name\")")
    if kind == "places" and not ({"name", "ward", "clinic", "address"} & set(columns)):
        raise InputError(path, "line 1: no place column (the header needs \"name\", "
                               "\"ward\", \"clinic\" or \"address\")")


def read_list(path: str | Path, kind: str) -> list[ListRow]:
    """The rows of a list of ``kind`` (patients, staff or places)."""
    path = Path(path)
    if kind not in LIST_KINDS:
        raise InputError(path, f"unknown list kind {kind!r} (patients, staff or places)")
    text = _text(path)
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        raise InputError(path, "the list is empty")
    delimiter = "\t" if "\t" in lines[0] else ";" if lines[0].count(";") > \
        lines[0].count(",") else ","
    try:
        records = list(csv.reader(lines, delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise InputError(path, f"not a readable CSV file ({exc})") from None
    columns = _columns(path, records[0])
    _needs(path, kind, columns)
    rows: list[ListRow] = []
    for line, record in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in record):
            continue
        if len(record) > len(records[0]):
            raise InputError(path, f"line {line}: more cells than the header has columns")

        def cell(field: str, record: list[str] = record) -> str:
            index = columns.get(field)
            return " ".join(record[index].split()) if index is not None and \
                index < len(record) else ""

        name = cell("name") or " ".join(p for p in (cell("first"), cell("last")) if p)
        places = tuple((k, cell(f)) for f, k in (("address", PhiKind.PLACE),
                                                  ("ward", PhiKind.WARD),
                                                  ("clinic", PhiKind.HOSPITAL)) if cell(f))
        if kind != "places" and not name:
            raise InputError(path, f"line {line}: no name in this row")
        if kind == "places" and not (name or places):
            raise InputError(path, f"line {line}: no place in this row")
        rows.append(ListRow(line, name, tuple((f, cell(f)) for f in _ID_FIELDS if cell(f)),
                            cell("dob"), places))
    if not rows:
        raise InputError(path, "the list has a header but no rows")
    return rows
