"""JSON Lines tables: one JSON object per line, every line with the same keys (the first
line's, in any order), streamed line by line into a table of the same shape: each line's
keys in its own order, keep columns as they were, blank lines kept. Text values stay text;
a changed number stays a number where its new value is one (a shifted ``20240203`` date,
a surrogate MRN), else becomes text; null stays null. The file is UTF-8 (a byte order mark
is kept); lines are written as ``json.dumps`` writes them (``ensure_ascii=False``), so a
keep column's value is the same value, its spelling may differ (``1.50`` → ``1.5``).

Bad input is an ``InputError`` naming the file, the line and the key: a line that is not
a JSON object, keys that differ from the first line's, a nested value in a column that is
not kept, bytes that are not UTF-8, a line past ``MAX_ROW_CHARS``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.core.context import RunContext
from engine.core.errors import ExportError, InputError
from engine.core.files import atomic_target
from engine.session import Session
from engine.tables import csvio
from engine.tables.csvio import MAX_ROW_CHARS
from engine.tables.roles import SAMPLE_ROWS, Role, infer_roles
from engine.tables.schema import TableSchema
from engine.tables.transform import ReviewOf, RowDeidentifier, ScopeOf

BOM = "\ufeff"


def _text(value: Any) -> str | None:
    """A cell's text; None for a nested value (an object or an array)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return None
    return str(value)


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _lines(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line number, the line without its ending, the ending)."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            for number in itertools.count(1):
                text = handle.readline(MAX_ROW_CHARS)
                if not text:
                    return
                if len(text) == MAX_ROW_CHARS and not text.endswith(("\n", "\r")):
                    raise InputError(path, f"line {number}: longer than {MAX_ROW_CHARS} "
                                           "characters")
                body = text.rstrip("\r\n")
                yield number, body, text[len(body):]
    except UnicodeDecodeError as exc:
        raise InputError(path, f"bytes that are not UTF-8 near byte {exc.start} of a "
                               "block: JSON Lines files are UTF-8") from None


def _objects(path: Path) -> Iterator[tuple[int, str, dict[str, Any] | None, str]]:
    """(line number, prefix (a byte order mark), object or None for a blank line, ending)."""
    for number, body, end in _lines(path):
        prefix = BOM if number == 1 and body.startswith(BOM) else ""
        body = body[len(prefix):]
        if not body.strip():
            yield number, prefix, None, end
            continue
        try:
            value = json.loads(body, object_pairs_hook=_unique)
        except _DuplicateKey as exc:
            raise InputError(path, f"line {number}: the key {exc.key!r} twice") from None
        except ValueError:
            raise InputError(path, f"line {number}: not a JSON object") from None
        if not isinstance(value, dict):
            raise InputError(path, f"line {number}: not a JSON object")
        yield number, prefix, value, end


def _open(path: Path) -> tuple[list[str], Iterator[tuple[int, str, dict[str, Any] | None,
                                                          str]]]:
    objects = _objects(path)
    buffered = []
    for item in objects:
        buffered.append(item)
        if item[2] is not None:
            header = list(item[2])
            if not header:
                raise InputError(path, f"line {item[0]}: an object without keys")
            return header, itertools.chain(buffered, objects)
    raise InputError(path, "the table is empty (no JSON object)")


def _values(path: Path, number: int, obj: dict[str, Any], header: list[str]) -> list[str]:
    if len(obj) != len(header) or any(k not in obj for k in header):
        extra = [k for k in obj if k not in header]
        what = (f"the key {extra[0]!r} is not on the first line" if extra else
                f"the key {next(k for k in header if k not in obj)!r} is missing")
        raise InputError(path, f"line {number}: {what}")
    return [_text(obj[k]) or "" for k in header]


def infer_schema(path: Path) -> TableSchema:
    header, objects = _open(path)
    csvio.check_header(path, header)
    rows = ((n, o) for n, _p, o, _e in objects if o is not None)
    sample = [_values(path, n, o, header) for n, o in itertools.islice(rows, SAMPLE_ROWS)]
    return TableSchema(tuple(header), tuple(infer_roles(header, sample)))


def table_rows(path: Path, schema: TableSchema | None) -> tuple[TableSchema,
                                                                 Iterator[list[str]]]:
    """The schema (checked or inferred) and each object's values in header order."""
    header, objects = _open(path)
    schema = schema or infer_schema(path)
    schema.check_header(header, path)
    return schema, (_values(path, n, o, header) for n, _p, o, _e in objects if o is not None)


def _back(old: Any, new: str) -> Any:
    """The new value in the old one's JSON type where it fits."""
    if isinstance(old, str) or old is None and new == "":
        return None if old is None else new
    if isinstance(old, bool):
        return old if new in ("true", "false") and new == _text(old) else new
    if isinstance(old, int):
        return int(new) if new.lstrip("-").isdigit() else new
    if isinstance(old, float):
        try:
            return float(new)
        except ValueError:
            return new
    return new


def deid_jsonl(path: Path, out: Path, session: Session, *,
               schema: TableSchema | None = None, ctx: RunContext | None = None,
               scope_of: ScopeOf | None = None,
                review_of: ReviewOf | None = None) -> tuple[int, int]:
    """(rows, spans replaced in free text)."""
    ctx = ctx or RunContext()
    header, objects = _open(path)
    schema = schema or infer_schema(path)
    schema.check_header(header, path)
    deid = RowDeidentifier(session, schema, ctx, scope_of=scope_of,
                           review_of=review_of)
    kept = {k for i, k in enumerate(header) if schema.role_of(i) is Role.KEEP}
    rows = 0
    try:
        with atomic_target(out) as tmp, tmp.open("w", encoding="utf-8", newline="") as handle:
            for number, prefix, obj, end in objects:
                ctx.check()
                if obj is None:
                    handle.write(prefix + end)
                    continue
                values = _values(path, number, obj, header)
                nested = next((k for k in header if k not in kept and _text(obj[k]) is None),
                              None)
                if nested is not None:
                    raise InputError(path, f"line {number}, key {nested!r}: a nested value "
                                           "in a column that is not kept")
                new = dict(zip(header, deid.row(values, where=f"{path.name}: line {number}"),
                               strict=True))
                written = {k: obj[k] if k in kept else _back(obj[k], new[k]) for k in obj}
                handle.write(prefix + json.dumps(written, ensure_ascii=False) + end)
                rows += 1
    except UnicodeEncodeError:  # a lone surrogate in the input cannot be UTF-8
        raise ExportError(f"{out.name}: a value cannot be written as UTF-8") from None
    return rows, deid.spans
