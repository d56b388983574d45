"""JSON sidecar / JSONL records: spans (ids, offsets, labels, provenance), replacements,
page geometry and CIRE flags — never the original text, the source file name (names hold
PHI) nor a hash of the original (anyone holding it could tell which output it became)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, Document, Span
from engine.core.errors import ExportError
from engine.core.files import write_atomic
from engine.exporters.verify import verify_no_strings, verify_text_output

FORMAT = "clearnote.deid/1"


def _page_of(doc: Document, offset: int) -> int | None:
    for page in doc.pages:
        if page.start <= offset < page.end:
            return page.number
    return None


def jsonl_record(doc: Document, spans: Sequence[Span], deid: DeidentifiedText | None = None,
                 *, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": FORMAT,
        "document_id": doc.id,
        "media_type": doc.media_type,
        "characters": len(doc.text),
        "pages": [{"number": p.number, "start": p.start, "end": p.end, "ocr": p.ocr,
                   "width": p.width, "height": p.height} for p in doc.pages],
        "warnings": list(doc.warnings),
        "needs_review": doc.needs_review,
        "spans": [{**s.to_dict(), "page": _page_of(doc, s.start)} for s in spans],
    }
    if deid is not None:
        record["mode"] = deid.mode.value
        record["replacements"] = [
            {"span_id": r.span_id, "start": r.start, "end": r.end, "label": r.label.value,
             "subtype": r.subtype, "output_start": r.output_start, "output_end": r.output_end}
            for r in deid.replacements]
    if extra:
        record.update(extra)
    return record


def _dumps(record: Mapping[str, Any], **kw: Any) -> str:
    try:
        return json.dumps(record, ensure_ascii=False, **kw)
    except (TypeError, ValueError) as exc:
        raise ExportError(f"record is not JSON-serialisable: {type(exc).__name__}") from exc


# Fields whose values come from ClearNote's own vocabulary (labels, ids, hashes), never from
# the document: checking them would flag a span over the word "DOB" because of a subtype.
_VOCABULARY_KEYS = frozenset({"format", "document_id", "media_type", "id", "reason",
                              "severity", "replacement_span_id", "detail", "judge",
                              "span_id", "label", "subtype", "source", "detector",
                              "evidence", "status", "mode"})


def _string_values(value: Any) -> str:
    """Every document-derived string in a record, one per line. Only strings can carry
    document text; offsets beside them would make an age "45" look leaked by "start": 45."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return "\n".join(_string_values(v) for k, v in value.items()
                         if k not in _VOCABULARY_KEYS)
    if isinstance(value, (list, tuple)):
        return "\n".join(_string_values(v) for v in value)
    return ""


def verify_record(record: Mapping[str, Any], doc: Document, spans: Sequence[Span],
                  what: str, *, forbidden: Sequence[str] = (),
                  ctx: RunContext | None = None) -> None:
    """A record is checked like a document: no original string, no source-name string."""
    values = _string_values(record)
    verify_text_output(values, doc, spans, what, ctx=ctx)
    verify_no_strings(values, forbidden, what, ctx=ctx)


def write_json_sidecar(doc: Document, spans: Sequence[Span], deid: DeidentifiedText | None,
                       path: str | Path, *, extra: Mapping[str, Any] | None = None,
                       forbidden: Sequence[str] = (), ctx: RunContext | None = None) -> Path:
    path = Path(path)
    if ctx is not None:
        ctx.check()
    data = _dumps(jsonl_record(doc, spans, deid, extra=extra), indent=2) + "\n"

    def verify(tmp: Path) -> None:
        record = json.loads(tmp.read_text(encoding="utf-8"))
        verify_record(record, doc, spans, path.name, forbidden=forbidden, ctx=ctx)

    return write_atomic(path, data.encode("utf-8"), verify)


def write_jsonl_record(doc: Document, spans: Sequence[Span], deid: DeidentifiedText | None,
                       path: str | Path, *, extra: Mapping[str, Any] | None = None,
                       forbidden: Sequence[str] = ()) -> Path:
    """Append one record as a line to a JSONL file (the batch log); the line is verified
    before it is appended, and the whole file is rewritten atomically."""
    path = Path(path)
    record = jsonl_record(doc, spans, deid, extra=extra)
    line = _dumps(record) + "\n"
    verify_record(record, doc, spans, path.name, forbidden=forbidden)
    previous = path.read_bytes() if path.exists() else b""
    if previous and not previous.endswith(b"\n"):
        previous += b"\n"
    return write_atomic(path, previous + line.encode("utf-8"))
