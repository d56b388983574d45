"""The Spark DataFrame API: ``deidentify_dataframe`` and ``detect_dataframe``.

Both return a DataFrame with the id column, the de-identified text (deid only), the spans
as an array of structs (offsets, label, subtype, source, detector, confidence; never the
covered text), the replacements (deid only) and an ``error`` column (null, or a code from
``engine.spark.rows.ERROR_CODES``; a failed row has no text). Spark distributes, retries
and commits; each Python worker builds one Session and maps Arrow batches through it.
"""

from __future__ import annotations

import functools
import logging
import secrets as _secrets
from collections.abc import Sequence
from dataclasses import replace

from pyspark.sql import DataFrame
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    DataType,
    DoubleType,
    IntegerType,
    StringType,
    StructField,
    StructType,
)

from engine.api import PipelineConfig, SessionConfig, SurrogateMode
from engine.core.errors import UsageError
from engine.spark.rows import DEID, DETECT, Task, map_batches

log = logging.getLogger("clearnote.spark")

OUTPUT_COLUMNS = ("spans", "replacements", "error")

SPAN_SCHEMA = StructType([
    StructField("start", IntegerType()), StructField("end", IntegerType()),
    StructField("label", StringType()), StructField("subtype", StringType()),
    StructField("source", StringType()), StructField("detector", StringType()),
    StructField("confidence", DoubleType()),
])
REPLACEMENT_SCHEMA = StructType([
    StructField("start", IntegerType()), StructField("end", IntegerType()),
    StructField("label", StringType()), StructField("subtype", StringType()),
    StructField("output_start", IntegerType()), StructField("output_end", IntegerType()),
])


def deidentify_dataframe(df: DataFrame, *, id_col: str = "id", text_col: str = "text",
                         patient_col: str | None = None, keep: Sequence[str] = (),
                         policy: str | None = None, mode: str | SurrogateMode = "surrogate",
                         secret: bytes | None = None, pipeline: PipelineConfig | None = None,
                         partitions: int | None = None) -> DataFrame:
    """De-identify ``df[text_col]``. Rows with the same ``patient_col`` value share date
    shifts and surrogates; rows without a patient (no column, or null) all belong to the
    pseudo-patient ``"default"``, as in ``clearnote deid``. Use the same ``secret`` as the
    CLI or desktop project to get the same surrogates; without one a random secret is drawn
    on the driver, so surrogates agree within this job only."""
    if secret is None:
        log.warning("no secret given: surrogates are consistent within this job only")
        secret = _secrets.token_bytes(32)
    config = SessionConfig(pipeline=_pipeline(pipeline, policy),
                           mode=SurrogateMode(mode), secret=bytes(secret))
    return _map(df, Task(DEID, config, id_col, text_col, patient_col, tuple(keep)),
                partitions)


def detect_dataframe(df: DataFrame, *, id_col: str = "id", text_col: str = "text",
                     keep: Sequence[str] = (), policy: str | None = None,
                     pipeline: PipelineConfig | None = None,
                     partitions: int | None = None) -> DataFrame:
    """Find PHI spans in ``df[text_col]``: id, spans, error (and the ``keep`` columns)."""
    config = SessionConfig(pipeline=_pipeline(pipeline, policy), secret=b"detect-only")
    return _map(df, Task(DETECT, config, id_col, text_col, None, tuple(keep)), partitions)


def _pipeline(pipeline: PipelineConfig | None, policy: str | None) -> PipelineConfig:
    # One ONNX thread per Spark task: Spark runs one task per core, so more would
    # oversubscribe the executor. Raise both together (spark.task.cpus and ner_threads).
    config = pipeline or PipelineConfig(ner_threads=1)
    return replace(config, policy=policy) if policy else config


def output_schema(df: DataFrame, task: Task) -> StructType:
    fields = [_field(df, task.id_col)]
    if task.kind == DEID:
        fields.append(StructField(task.text_col, StringType()))
    fields.append(StructField("spans", ArrayType(SPAN_SCHEMA)))
    if task.kind == DEID:
        fields.append(StructField("replacements", ArrayType(REPLACEMENT_SCHEMA)))
    fields.append(StructField("error", StringType()))
    fields.extend(_field(df, column) for column in task.keep)
    return StructType(fields)


def _map(df: DataFrame, task: Task, partitions: int | None) -> DataFrame:
    _check_columns(df, task)
    needed = [task.id_col, task.text_col, *([task.patient_col] if task.patient_col else []),
              *task.keep]
    # Only the columns the job needs go to Python (and the text never goes anywhere else).
    source = df.select(*dict.fromkeys(needed))
    if partitions:
        source = source.repartition(partitions)
    return source.mapInArrow(functools.partial(map_batches, task=task),
                             output_schema(df, task))


def _check_columns(df: DataFrame, task: Task) -> None:
    present = set(df.columns)
    named = [task.id_col, task.text_col, *([task.patient_col] if task.patient_col else []),
             *task.keep]
    missing = [c for c in named if c not in present]
    if missing:
        raise UsageError(f"no column {', '.join(map(repr, missing))} in the input "
                         f"(it has {', '.join(df.columns)})")
    text_type: DataType = df.schema[task.text_col].dataType
    if not isinstance(text_type, StringType | BinaryType):
        raise UsageError(f"the text column {task.text_col!r} must hold strings or UTF-8 "
                         f"bytes, not {text_type.simpleString()}")
    written = [task.id_col, *([task.text_col] if task.kind == DEID else []),
               *OUTPUT_COLUMNS, *task.keep]
    clashes = {c for c in written if written.count(c) > 1}
    if clashes:
        raise UsageError(f"column name(s) {', '.join(sorted(clashes))} would appear twice in "
                         f"the output; rename them or leave them out of keep")


def _field(df: DataFrame, column: str) -> StructField:
    field = df.schema[column]
    return StructField(column, field.dataType, True)
