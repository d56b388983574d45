"""Reading review decisions from files a person edited: a review JSONL file or a folder of
BRAT ``<id>.ann`` files. Such files may be damaged or hostile, so reading is strict and
bounded:

- streamed line by line, with a bound on the file size, the line length and the spans of
  one document: a record of millions of spans is refused at the bound, not read without end;
- integers are JSON integers (``28.9`` and ``true`` are not), statuses come from the
  reviewer's set (ACCEPTED, REJECTED, CANDIDATE), labels are ClearNote's or those of the
  schema the user names; a label that is not PHI (e.g. presidio ``TITLE``) is an error: the
  span would otherwise be exported in clear;
- exact duplicates are merged; the same span listed with two statuses is an error;
- every error names the file and the line, with control characters escaped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.domain import SpanStatus
from engine.core.errors import InputError, UsageError, shown
from engine.core.labels import SCHEMAS, Label, map_label

REVIEW_STATUSES = frozenset({SpanStatus.ACCEPTED, SpanStatus.REJECTED, SpanStatus.CANDIDATE})
MAX_SPANS_PER_DOCUMENT = 100_000
MAX_REVIEW_FILE_BYTES = 1024 * 1024 * 1024  # a review JSONL file (it holds the texts too)
MAX_LINE_BYTES = 32 * 1024 * 1024  # one document's record
MAX_ANN_BYTES = 32 * 1024 * 1024  # one BRAT .ann file
ANY_SCHEMA = "any"  # gold files for evaluation: every known schema, non-PHI labels skipped
_SUBTYPE = re.compile(r"[A-Z][A-Z0-9_]{0,31}")
_STATUS_NOTE = re.compile(r"\bstatus=(\S*)")
_ID_NOTE = re.compile(r"\b(?:span|id)=(\w+)")


@dataclass(frozen=True, slots=True)
class Decision:
    start: int
    end: int
    label: Label
    status: SpanStatus = SpanStatus.ACCEPTED
    span_id: str | None = None
    subtype: str | None = None
    where: str = ""  # FILE:LINE it was read from, for messages


class Labels:
    """Turns a file's label (``LABEL`` or ``LABEL-SUBTYPE``) into a ClearNote label, for
    one schema (``clearnote``, ``i2b2``, ...; see ``engine.core.labels.SCHEMAS``)."""

    def __init__(self, schema: str = "clearnote") -> None:
        if schema != ANY_SCHEMA and schema not in SCHEMAS:
            raise UsageError(f"unknown label schema {shown(schema)} (choose from "
                             f"{', '.join(sorted(SCHEMAS))})")
        self.schema = schema

    def _map(self, raw: str) -> Label | None:
        if self.schema == ANY_SCHEMA:
            return map_label(raw)
        table = SCHEMAS[self.schema]
        if raw not in table:
            raise ValueError(raw)
        return table[raw]

    def parse(self, raw: str, where: str) -> tuple[Label, str | None] | None:
        """(label, subtype); None for a non-PHI label when reading gold files (any schema);
        a clear error otherwise."""
        try:
            return self._checked(self._map(raw), raw, None, where)
        except ValueError:
            pass
        head, _, subtype = raw.partition("-")
        try:
            if subtype and _SUBTYPE.fullmatch(subtype):
                return self._checked(self._map(head), raw, subtype, where)
        except ValueError:
            pass
        schema = "any known schema" if self.schema == ANY_SCHEMA else \
            f"the {self.schema} schema"
        hint = "" if self.schema != "clearnote" else \
            " (labels of another schema need --schema, e.g. --schema i2b2)"
        raise ReviewFileError(where, f"unknown label {shown(raw)}: not a label of {schema}"
                                     f"{hint}")

    def _checked(self, label: Label | None, raw: str, subtype: str | None,
                 where: str) -> tuple[Label, str | None] | None:
        if label is None:
            if self.schema == ANY_SCHEMA:
                return None
            raise ReviewFileError(where, f"label {shown(raw)} is not PHI in the "
                                         f"{self.schema} schema: a span under it would be "
                                         "exported in clear; give it a PHI label, or the "
                                         "status REJECTED to leave its text as it is")
        return label, subtype


class ReviewFileError(InputError):
    """A review file that cannot be applied; ``where`` is ``FILE:LINE``."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(shown(where, 240), problem)  # a file name may hold escape codes


def status_of(raw: object, where: str) -> SpanStatus:
    """A listed span's status: REJECTED only when the file says so; listed without a status
    or still CANDIDATE (as exported for review), the reviewer kept it: ACCEPTED."""
    if raw is None:
        return SpanStatus.ACCEPTED
    if isinstance(raw, str) and raw in SpanStatus.__members__:
        status = SpanStatus(raw)
        if status in REVIEW_STATUSES:
            return SpanStatus.ACCEPTED if status is SpanStatus.CANDIDATE else status
    raise ReviewFileError(where, f"status {shown(raw)} is not a review status (ACCEPTED, "
                                 "REJECTED or CANDIDATE)")


def _integer(record: dict, key: str, where: str) -> int:
    value = record.get(key)
    if type(value) is not int:  # noqa: E721 - bool is an int subclass, 28.9 a float
        raise ReviewFileError(where, f"\"{key}\" must be an integer, not {shown(value, 20)}")
    return value


class _Document:
    """One document's decisions while they are read: bounded, duplicates merged."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.by_key: dict[tuple[Any, ...], Decision] = {}

    def add(self, d: Decision, where: str) -> None:
        key = (d.start, d.end, d.label, d.subtype, d.span_id)
        seen = self.by_key.get(key)
        if seen is not None:
            if seen.status is not d.status:
                raise ReviewFileError(where, f"the span [{d.start}, {d.end}) is listed "
                                             f"twice with different statuses (also "
                                             f"{shown(seen.where, 240)})")
            return
        if len(self.by_key) >= MAX_SPANS_PER_DOCUMENT:
            raise ReviewFileError(where, f"more than {MAX_SPANS_PER_DOCUMENT:,} spans for "
                                         "one document")
        self.by_key[key] = d

    def decisions(self) -> list[Decision]:
        return list(self.by_key.values())


def _lines(path: Path, limit: int) -> Iterator[tuple[int, str]]:
    """(number, text) of each line, decoded as UTF-8, each at most ``limit`` bytes."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ReviewFileError(str(path), f"cannot open ({(exc.strerror or '').lower()})"
                              ) from None
    with handle:
        number = 0
        while raw := handle.readline(limit + 1):
            number += 1
            if len(raw) > limit:
                raise ReviewFileError(f"{path}:{number}", f"the line is longer than "
                                                          f"{limit // 2**20} MB")
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ReviewFileError(f"{path}:{number}", "not UTF-8 text (review files "
                                                          "are UTF-8)") from None


def _check_size(path: Path, limit: int) -> None:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ReviewFileError(str(path), f"cannot open ({(exc.strerror or '').lower()})"
                              ) from None
    if size > limit:
        raise ReviewFileError(str(path), f"{size // 2**20:,} MB, above the limit of "
                                         f"{limit // 2**20:,} MB for a review file")


def read_jsonl(path: Path, labels: Labels) -> Iterator[tuple[str, list[Decision]]]:
    """(document id, decisions) per record of a review JSONL file, one at a time."""
    _check_size(path, MAX_REVIEW_FILE_BYTES)
    seen: dict[str, int] = {}
    for number, line in _lines(path, MAX_LINE_BYTES):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReviewFileError(where, f"not valid JSON ({exc.msg})") from None
        doc_id = record.get("id") if isinstance(record, dict) else None
        if not isinstance(doc_id, str) or not doc_id:
            raise ReviewFileError(where, "a review record needs an \"id\" (a string)")
        if doc_id in seen:
            raise ReviewFileError(where, f"document {shown(doc_id)} is listed again (first "
                                         f"on line {seen[doc_id]})")
        seen[doc_id] = number
        spans = record.get("spans", [])
        if not isinstance(spans, list):
            raise ReviewFileError(where, "\"spans\" must be a list")
        if len(spans) > MAX_SPANS_PER_DOCUMENT:
            raise ReviewFileError(where, f"{len(spans):,} spans, above the limit of "
                                         f"{MAX_SPANS_PER_DOCUMENT:,} for one document")
        doc = _Document(where)
        for item in spans:
            doc.add(_jsonl_span(item, labels, where), where)
        yield doc_id, doc.decisions()


def _jsonl_span(item: object, labels: Labels, where: str) -> Decision:
    if not isinstance(item, dict):
        raise ReviewFileError(where, "each span must be an object")
    start, end = _integer(item, "start", where), _integer(item, "end", where)
    raw_label, span_id, subtype = item.get("label"), item.get("id"), item.get("subtype")
    if not isinstance(raw_label, str):
        raise ReviewFileError(where, "each span needs a \"label\" (a string)")
    if span_id is not None and not isinstance(span_id, str):
        raise ReviewFileError(where, "a span \"id\" must be a string")
    if subtype is not None and not (isinstance(subtype, str) and _SUBTYPE.fullmatch(subtype)):
        raise ReviewFileError(where, f"subtype {shown(subtype, 40)} is not a subtype name")
    parsed = labels.parse(raw_label, where)
    assert parsed is not None  # only the gold reader (any schema) skips labels
    label, from_label = parsed
    return Decision(start, end, label, status_of(item.get("status"), where), span_id,
                    subtype or from_label, where)


def read_brat(ann_path: Path, labels: Labels | None = None) -> list[Decision]:
    """The decisions of one BRAT ``.ann`` file (text-bound annotations, with the status
    and span id from ClearNote's AnnotatorNotes)."""
    labels = labels or Labels()
    _check_size(ann_path, MAX_ANN_BYTES)
    spans: dict[str, tuple[int, int, str, int]] = {}
    notes: dict[str, tuple[str | None, str | None, int]] = {}
    for number, line in _lines(ann_path, MAX_ANN_BYTES):
        line = line.rstrip("\r\n")
        parts = line.split("\t")
        where = f"{ann_path}:{number}"
        if line.startswith("T") and len(parts) >= 2:
            if len(spans) >= MAX_SPANS_PER_DOCUMENT:
                raise ReviewFileError(where, f"more than {MAX_SPANS_PER_DOCUMENT:,} "
                                             "annotations in one file")
            head = parts[1].split(" ", 1)
            try:
                ranges = [[int(x) for x in r.split()] for r in head[1].split(";")]
                if any(len(r) != 2 for r in ranges):
                    raise ValueError
            except (IndexError, ValueError):
                raise ReviewFileError(where, "not a BRAT text-bound annotation") from None
            spans[parts[0]] = (min(r[0] for r in ranges), max(r[1] for r in ranges),
                               head[0], number)
        elif line.startswith("#") and len(parts) >= 3:
            if len(notes) >= 2 * MAX_SPANS_PER_DOCUMENT:
                raise ReviewFileError(where, "too many notes in one file")
            target = parts[1].split()[-1] if parts[1].split() else ""
            found_id = _ID_NOTE.search(parts[2])
            found_status = _STATUS_NOTE.search(parts[2])
            notes[target] = (found_id.group(1) if found_id else None,
                             found_status.group(1) if found_status else None, number)
    doc = _Document(str(ann_path))
    for tid, (start, end, raw, number) in spans.items():
        where = f"{ann_path}:{number}"
        parsed = labels.parse(raw, where)
        if parsed is None:
            continue
        span_id, status, note_line = notes.get(tid, (None, None, number))
        doc.add(Decision(start, end, parsed[0],
                         status_of(status, f"{ann_path}:{note_line}"), span_id, parsed[1],
                         where), where)
    return doc.decisions()


def read_brat_folder(folder: Path, labels: Labels) -> Iterator[tuple[str, list[Decision]]]:
    for ann in sorted(folder.glob("*.ann")):
        yield ann.stem, read_brat(ann, labels)
