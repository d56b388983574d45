"""Read gold annotations and predictions (JSONL) into frozen evaluation records.

Gold lines: ``{"id", "text", "spans": [{"start", "end", "label"}]}``; labels from any schema
known to :func:`engine.core.labels.map_label`. Spans whose label maps to ``None`` are not PHI
and are dropped; the raw label is kept beside the mapped one for per-label reporting.

Prediction lines are either ``clearnote detect`` output
``{"id", "spans": [{"start", "end", "label", ...}]}`` or ``clearnote deid`` output
``{"id", "text", "replacements": [{"start", "end", "label", "output_start", "output_end"}]}``;
the replacements' input offsets are the predicted spans and ``text`` is the de-identified
output used by the Levenshtein metrics.

Errors name the file, the line and the problem, never the document text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.errors import InputError
from engine.core.labels import Label, map_label

# Statuses a reviewer or the overlap policy took out of play: never counted as predictions.
_INACTIVE_STATUSES = frozenset({"REJECTED", "SUPERSEDED"})


@dataclass(frozen=True, slots=True)
class GoldSpan:
    """One annotated PHI range. Not ``core.Span``: it must carry the raw schema label."""

    start: int
    end: int
    label: Label
    raw_label: str


@dataclass(frozen=True, slots=True)
class GoldDocument:
    id: str
    text: str
    spans: tuple[GoldSpan, ...]


@dataclass(frozen=True, slots=True)
class PredictedSpan:
    start: int
    end: int
    label: Label


@dataclass(frozen=True, slots=True)
class Prediction:
    id: str
    spans: tuple[PredictedSpan, ...]
    # The de-identified text when the prediction came from ``clearnote deid``; None otherwise.
    text: str | None = None


def load_gold(path: str | Path) -> list[GoldDocument]:
    """Read a gold JSONL file. Duplicate ids, bad offsets and unknown labels are errors."""
    docs: list[GoldDocument] = []
    seen: set[str] = set()
    for lineno, obj in _read_jsonl(path):
        where = f"line {lineno}"
        doc_id = _get_str(obj, "id", path, where)
        text = _get_str(obj, "text", path, where)
        if doc_id in seen:
            raise InputError(path, f"{where}: duplicate document id {doc_id!r}")
        seen.add(doc_id)
        spans: list[GoldSpan] = []
        for raw in _get_list(obj, "spans", path, where, default=[]):
            start, end, raw_label = _span_fields(raw, path, where)
            _check_range(start, end, len(text), path, where)
            label = _map(raw_label, path, where)
            if label is not None:
                spans.append(GoldSpan(start, end, label, raw_label))
        spans.sort(key=lambda s: (s.start, s.end, s.label))
        docs.append(GoldDocument(doc_id, text, tuple(spans)))
    return docs


def load_predictions(path: str | Path) -> dict[str, Prediction]:
    """Read ``clearnote detect`` or ``clearnote deid`` JSONL output, keyed by document id."""
    preds: dict[str, Prediction] = {}
    for lineno, obj in _read_jsonl(path):
        where = f"line {lineno}"
        doc_id = _get_str(obj, "id", path, where)
        if doc_id in preds:
            raise InputError(path, f"{where}: duplicate document id {doc_id!r}")
        preds[doc_id] = parse_prediction(obj, path=path, where=where)
    return preds


def parse_prediction(obj: Mapping[str, Any], *, path: str | Path | None = None,
                     where: str = "record") -> Prediction:
    """Build a Prediction from one decoded detect/deid output line."""
    doc_id = _get_str(obj, "id", path, where)
    text: str | None = None
    if "replacements" in obj:  # deid output: input offsets are the predictions
        items = _get_list(obj, "replacements", path, where)
        if "text" in obj:
            text = _get_str(obj, "text", path, where)
    else:
        items = _get_list(obj, "spans", path, where, default=[])
    spans: set[PredictedSpan] = set()  # several detectors may report the same range
    for raw in items:
        if isinstance(raw, Mapping) and str(raw.get("status", "")).upper() in _INACTIVE_STATUSES:
            continue
        start, end, raw_label = _span_fields(raw, path, where)
        if end <= start or start < 0:
            raise InputError(path, f"{where}: invalid span range [{start}, {end})")
        label = _map(raw_label, path, where)
        if label is not None:
            spans.add(PredictedSpan(start, end, label))
    ordered = tuple(sorted(spans, key=lambda s: (s.start, s.end, s.label)))
    return Prediction(doc_id, ordered, text)


def _read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 - closed by the `with` below
    except OSError as exc:
        raise InputError(path, f"cannot open: {exc.strerror or exc}") from exc
    with handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(path, f"line {lineno}: invalid JSON ({exc.msg})") from exc
            if not isinstance(obj, dict):
                raise InputError(path, f"line {lineno}: expected a JSON object")
            yield lineno, obj


def _get_str(obj: Mapping[str, Any], key: str, path: str | Path | None, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise InputError(path, f"{where}: field {key!r} must be a string")
    return value


def _get_list(obj: Mapping[str, Any], key: str, path: str | Path | None, where: str,
              default: list[Any] | None = None) -> list[Any]:
    value = obj.get(key, default)
    if not isinstance(value, list):
        raise InputError(path, f"{where}: field {key!r} must be a list")
    return value


def _span_fields(raw: Any, path: str | Path | None, where: str) -> tuple[int, int, str]:
    if not isinstance(raw, Mapping):
        raise InputError(path, f"{where}: each span must be a JSON object")
    start, end, label = raw.get("start"), raw.get("end"), raw.get("label")
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) \
            or isinstance(end, bool):
        raise InputError(path, f"{where}: span 'start' and 'end' must be integers")
    if not isinstance(label, str):
        raise InputError(path, f"{where}: span 'label' must be a string")
    return start, end, label


def _check_range(start: int, end: int, length: int, path: str | Path | None,
                 where: str) -> None:
    if not 0 <= start < end <= length:
        raise InputError(path, f"{where}: span [{start}, {end}) outside text of length {length}")


def _map(raw_label: str, path: str | Path | None, where: str) -> Label | None:
    try:
        return map_label(raw_label)
    except ValueError as exc:
        raise InputError(path, f"{where}: unknown label {raw_label!r}") from exc
