"""CSV tables (RFC 4180), streamed record by record, written back as they were: the same
encoding (detected as for text, byte order mark kept), delimiter, quoting and line endings.
A cell that is not changed is written as its original bytes; a changed cell is quoted when
the original was, or when its new value needs it.

Bad input is an ``InputError`` naming the file, the row and the column: a ragged row, an
empty or duplicate header, an unterminated quote, bytes the detected encoding cannot read,
a cell past ``MAX_CELL_CHARS`` or a row past ``MAX_ROW_CHARS`` (never read whole).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from engine.core.errors import InputError
from engine.ingest.text import decode_bytes

DELIMITERS = (",", ";", "\t", "|")
QUOTE = '"'
HEAD_BYTES = 1 << 16  # what encoding and delimiter are guessed from
MAX_CELL_CHARS = 1 << 20  # 1 M characters: a bigger cell is refused, not read
MAX_ROW_CHARS = 1 << 23  # a row is read at most this far before it is refused


@dataclass(frozen=True)
class Field:
    value: str
    raw: str  # as written in the file, quotes included

    @property
    def quoted(self) -> bool:
        return self.raw.startswith(QUOTE)


@dataclass(frozen=True)
class Record:
    fields: tuple[Field, ...]
    end: str  # the line ending as written ("" for a last line without one)
    line: int  # the physical line the record starts on (1-based)

    @property
    def values(self) -> list[str]:
        return [f.value for f in self.fields]


@dataclass(frozen=True)
class CsvFormat:
    encoding: str
    delimiter: str


def sniff(path: Path) -> CsvFormat:
    """The encoding (from the head of the file, as text files are decoded) and the
    delimiter (the candidate found the same number of times, most often, on the first
    lines outside quotes; a comma when nothing says otherwise)."""
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
        more = bool(handle.read(1))
    if more and b"\n" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")) \
            and b"\x00" not in head:
        head = head[:head.rindex(b"\n") + 1]  # never cut a character in two
    decoded = decode_bytes(head)
    lines = decoded.text.splitlines()[:20]
    counts = {d: [_count_outside_quotes(line, d) for line in lines] for d in DELIMITERS}

    def score(d: str) -> tuple[bool, int]:
        seen = [c for c in counts[d] if c]
        return bool(seen) and len(set(seen)) == 1, sum(seen)

    best = max(DELIMITERS, key=score)
    delimiter = best if score(best)[1] else ","
    return CsvFormat(_python_codec(decoded.encoding), delimiter)


def _python_codec(encoding: str) -> str:
    name = codecs.lookup(encoding).name
    return "utf-8-sig" if encoding == "utf-8-sig" else name


def _count_outside_quotes(line: str, delimiter: str) -> int:
    inside, n = False, 0
    for ch in line:
        if ch == QUOTE:
            inside = not inside
        elif ch == delimiter and not inside:
            n += 1
    return n


def read_records(path: Path, fmt: CsvFormat) -> Iterator[Record]:
    """Every record of the file, in order; a quoted field may span lines."""
    try:
        with path.open(encoding=fmt.encoding, newline="") as handle:
            yield from _records(path, handle, fmt.delimiter)
    except UnicodeDecodeError as exc:
        raise InputError(path, f"bytes that are not {fmt.encoding} near byte {exc.start} of "
                               "a block: save the file as UTF-8") from None


def _records(path: Path, handle: IO[str], delimiter: str) -> Iterator[Record]:
    line_no = 0

    def line() -> str:
        text = handle.readline(MAX_ROW_CHARS)
        if len(text) == MAX_ROW_CHARS and not text.endswith(("\n", "\r")):
            raise InputError(path, f"line {line_no + 1}: a row longer than {MAX_ROW_CHARS} "
                                   "characters")
        return text

    for first in iter(line, ""):
        line_no += 1
        start_line, text = line_no, first
        while _open_quote(text):
            more = line()
            if not more:
                raise InputError(path, f"row starting on line {start_line}: a quoted cell "
                                       "is never closed")
            line_no += 1
            text += more
            if len(text) > MAX_ROW_CHARS:
                raise InputError(path, f"row starting on line {start_line}: longer than "
                                       f"{MAX_ROW_CHARS} characters")
        body = text.rstrip("\r\n")
        yield Record(tuple(_fields(path, body, delimiter, start_line)), text[len(body):],
                     start_line)


def _open_quote(text: str) -> bool:
    return text.count(QUOTE) % 2 == 1


def _fields(path: Path, body: str, delimiter: str, line: int) -> Iterator[Field]:
    i, n = 0, len(body)
    while True:
        start = i
        if i < n and body[i] == QUOTE:
            i += 1
            parts = []
            while True:
                j = body.find(QUOTE, i)
                if j < 0:  # not reached: records end outside quotes
                    raise InputError(path, f"line {line}: a quoted cell is never closed")
                parts.append(body[i:j])
                if j + 1 < n and body[j + 1] == QUOTE:
                    parts.append(QUOTE)
                    i = j + 2
                    continue
                i = j + 1
                break
            if i < n and body[i] != delimiter:
                raise InputError(path, f"line {line}, column {_column(body, start, delimiter)}"
                                       ": text after a closing quote")
            value = "".join(parts)
        else:
            j = body.find(delimiter, i)
            i = n if j < 0 else j
            value = body[start:i]
        if len(value) > MAX_CELL_CHARS:
            raise InputError(path, f"line {line}: a cell longer than {MAX_CELL_CHARS} "
                                   "characters")
        yield Field(value, body[start:i])
        if i >= n:
            return
        i += 1  # past the delimiter


def _column(body: str, position: int, delimiter: str) -> int:
    return _count_outside_quotes(body[:position], delimiter) + 1


def check_header(path: Path, header: Sequence[str]) -> None:
    seen: dict[str, int] = {}
    for number, name in enumerate(header, 1):
        if not name.strip():
            raise InputError(path, f"header, column {number}: the column has no name")
        key = name.strip().casefold()
        if key in seen:
            raise InputError(path, f"header, columns {seen[key]} and {number}: the same name "
                                   f"twice ({name.strip()!r})")
        seen[key] = number


def check_width(path: Path, record: Record, width: int) -> None:
    if len(record.fields) != width:
        raise InputError(path, f"line {record.line}: {len(record.fields)} cells where the "
                               f"header has {width} columns")


def render(record: Record, values: Sequence[str], delimiter: str) -> str:
    """The record with ``values``: unchanged cells byte for byte, changed ones quoted as
    the original was, or as RFC 4180 needs."""
    cells = []
    for field, value in zip(record.fields, values, strict=True):
        if value == field.value:
            cells.append(field.raw)
        elif field.quoted or any(c in value for c in (delimiter, QUOTE, "\r", "\n")):
            cells.append(QUOTE + value.replace(QUOTE, QUOTE * 2) + QUOTE)
        else:
            cells.append(value)
    return delimiter.join(cells) + record.end
