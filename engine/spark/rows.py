"""What runs inside a Spark Python worker: Arrow batches in, Arrow batches out.

Every row is a pure function of (row, SessionConfig): the surrogates are keyed by HMAC of
(secret, patient, value) and the surrogate map is only a cache, so a retried or speculative
task writes exactly what the first attempt wrote, whatever the partitioning or row order.
A row that fails gets an error code and no text; the batch and the job go on.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

import pyarrow as pa

from engine.api import Session, SessionConfig
from engine.core.domain import Document, Span
from engine.core.errors import (
    DetectorError,
    DocumentTooLargeError,
    InputError,
    ModelError,
)

log = logging.getLogger("clearnote.spark")

DEID, DETECT = "deid", "detect"
# What a row without a patient id is keyed by: the same pseudo-patient `clearnote deid`
# uses for a JSONL record without "patient" (one date shift and one surrogate per value for
# all such rows), so both front ends give the same output for the same input.
NO_PATIENT = "default"

# The error column's closed vocabulary (never an exception message: it may quote PHI).
MISSING_TEXT = "missing_text"  # the text is null
BAD_ENCODING = "bad_encoding"  # a binary text column that is not UTF-8
TOO_LARGE = "too_large"  # longer than the pipeline's max_document_chars
BAD_INPUT = "bad_input"  # any other unreadable input
DETECTOR_FAILED = "detector_failed"  # a detector raised: the row fails closed
MODEL_FAILED = "model_failed"  # a model could not be loaded or verified
FAILED = "failed"  # anything else (surrogate generation, a bug): the type goes to the log
ERROR_CODES = (MISSING_TEXT, BAD_ENCODING, TOO_LARGE, BAD_INPUT, DETECTOR_FAILED,
               MODEL_FAILED, FAILED)

SPAN_TYPE = pa.struct([
    ("start", pa.int32()), ("end", pa.int32()), ("label", pa.string()),
    ("subtype", pa.string()), ("source", pa.string()), ("detector", pa.string()),
    ("confidence", pa.float64()),
])
REPLACEMENT_TYPE = pa.struct([
    ("start", pa.int32()), ("end", pa.int32()), ("label", pa.string()),
    ("subtype", pa.string()), ("output_start", pa.int32()), ("output_end", pa.int32()),
])


@dataclass(frozen=True)
class Task:
    """What one job asks of every row; pickled once into the Spark task closure."""

    kind: str  # DEID or DETECT
    config: SessionConfig
    id_col: str
    text_col: str
    patient_col: str | None = None
    keep: tuple[str, ...] = ()  # input columns copied through unchanged


@dataclass(frozen=True)
class RowResult:
    text: str | None = None
    spans: list[dict] | None = None
    replacements: list[dict] | None = None
    error: str | None = None


class CacheMap:
    """A bounded surrogate map. Surrogates are pure functions of (secret, patient, value),
    so the map is only a cache: forgetting old entries keeps a long-lived worker's memory
    flat over millions of notes without changing any output."""

    def __init__(self, capacity: int = 200_000) -> None:
        self._data: OrderedDict[tuple[str, str, str], str] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def get(self, patient: str, label: str, key: str) -> str | None:
        with self._lock:
            found = self._data.get((patient, str(label), key))
            if found is not None:
                self._data.move_to_end((patient, str(label), key))
            return found

    def put(self, patient: str, label: str, key: str, surrogate: str) -> None:
        with self._lock:
            self._data.setdefault((patient, str(label), key), surrogate)
            while len(self._data) > self._capacity:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def __repr__(self) -> str:  # never show keys (PHI)
        return f"CacheMap(<{len(self)} entries>)"


_SESSIONS: dict[SessionConfig, Session] = {}
_SESSIONS_LOCK = threading.Lock()


def session_for(config: SessionConfig) -> Session:
    """This worker process's Session for ``config``: built on first use and reused by
    every later task the (reused) worker runs, so the models load once per process."""
    with _SESSIONS_LOCK:
        session = _SESSIONS.get(config)
        if session is None:
            if len(_SESSIONS) >= 4:  # a long-lived worker serving many jobs
                _SESSIONS.clear()
            session = _SESSIONS[config] = Session(config, mapping=CacheMap())
        return session


def map_batches(batches: Iterator[pa.RecordBatch], task: Task) -> Iterator[pa.RecordBatch]:
    """The ``mapInArrow`` function."""
    session = session_for(task.config)
    for batch in batches:
        yield process_batch(batch, session, task)


def process_batch(batch: pa.RecordBatch, session: Session, task: Task) -> pa.RecordBatch:
    ids = batch.column(batch.schema.get_field_index(task.id_col))
    texts = batch.column(batch.schema.get_field_index(task.text_col)).to_pylist()
    if task.patient_col is None:
        patients: list[object] = [None] * batch.num_rows
    else:
        patients = batch.column(batch.schema.get_field_index(task.patient_col)).to_pylist()
    results = [process_row(session, task.kind, doc_id, text, patient)
               for doc_id, text, patient in zip(ids.to_pylist(), texts, patients, strict=True)]
    arrays: list[pa.Array] = [ids]
    names = [task.id_col]
    if task.kind == DEID:
        arrays.append(pa.array([r.text for r in results], pa.string()))
        names.append(task.text_col)
    arrays.append(pa.array([r.spans for r in results], pa.list_(SPAN_TYPE)))
    names.append("spans")
    if task.kind == DEID:
        arrays.append(pa.array([r.replacements for r in results], pa.list_(REPLACEMENT_TYPE)))
        names.append("replacements")
    arrays.append(pa.array([r.error for r in results], pa.string()))
    names.append("error")
    for column in task.keep:
        arrays.append(batch.column(batch.schema.get_field_index(column)))
        names.append(column)
    return pa.RecordBatch.from_arrays(arrays, names=names)


def process_row(session: Session, kind: str, doc_id: object, text: object,
                patient: object) -> RowResult:
    """One row, never raising: the result or an error code (and no text)."""
    if text is None:
        return RowResult(error=MISSING_TEXT)
    if isinstance(text, bytes | bytearray | memoryview):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return RowResult(error=BAD_ENCODING)
    doc = Document.from_text(str(text), id=str(doc_id))
    try:
        result = session.detect(doc)
        spans = [span_row(s) for s in result.active]
        if kind == DETECT:
            return RowResult(spans=spans)
        key = NO_PATIENT if patient is None else str(patient)
        deid = session.deidentify(doc, result.active, patient=key)
    except Exception as exc:  # noqa: BLE001 - one row fails, the job goes on
        code = error_code(exc)
        # Ids, codes and types only: an exception message may quote the document.
        log.warning("row %s failed: %s (%s)", doc_id, code, type(exc).__name__)
        return RowResult(error=code)
    replacements = [{"start": r.start, "end": r.end, "label": r.label.value,
                     "subtype": r.subtype, "output_start": r.output_start,
                     "output_end": r.output_end} for r in deid.replacements]
    return RowResult(text=deid.text, spans=spans, replacements=replacements)


def span_row(span: Span) -> dict:
    """The fields of `clearnote detect`'s span records; never the covered text."""
    return {"start": span.start, "end": span.end, "label": span.label.value,
            "subtype": span.subtype, "source": span.source.value, "detector": span.detector,
            "confidence": round(span.confidence, 4)}


def error_code(exc: BaseException) -> str:
    if isinstance(exc, DocumentTooLargeError):
        return TOO_LARGE
    if isinstance(exc, InputError):
        return BAD_INPUT
    if isinstance(exc, DetectorError):
        return DETECTOR_FAILED
    if isinstance(exc, ModelError):
        return MODEL_FAILED
    return FAILED
