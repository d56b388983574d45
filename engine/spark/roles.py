"""`clearnote spark deid --schema FILE`: a table's column roles as a Spark job, with the
same output as `clearnote deid FILE` for the same secret.

Two passes. The driver reads the linking columns (patient key, name, date of birth) in row
order and links rows to patients exactly as the folder sink does (``PatientLinker``:
"P00001" in order of first appearance; the run's scope names, so the same surrogates);
the digest → patient map (one entry per key of each distinct patient, keyed digests, no
values) goes to the workers, which de-identify their rows through ``RowDeidentifier``
(``engine.tables.transform``) in parallel. Every column is read as text (Spark's casts:
dates ``yyyy-MM-dd``) and changed columns are cast back to their type; keep columns are
copied. A row that still holds an original identifier fails the task, so the job fails
and Spark's committer writes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, StructField, StructType

from engine.api import PipelineConfig, SessionConfig
from engine.core.labels import Label
from engine.runs.patients import DEFAULT_PATIENT, PatientLinker, row_keys
from engine.spark.rows import session_for
from engine.tables.roles import Role
from engine.tables.schema import TableSchema
from engine.tables.transform import RowDeidentifier, linking_cells


@dataclass(frozen=True)
class TableTask:
    config: SessionConfig
    schema: TableSchema
    patients: dict[str, tuple[int, str]]  # key digest -> (first row, patient)


def deidentify_table(df: DataFrame, schema: TableSchema, *, secret: bytes,
                     pipeline: PipelineConfig | None = None, policy: str | None = None,
                     source: str = "the input") -> DataFrame:
    """``df`` de-identified by ``schema``'s roles: the same columns, rows and order."""
    schema.check_header(df.columns, Path(source))
    text = df.select(*[F.col(c).cast(StringType()).alias(c) for c in df.columns])
    config = SessionConfig(pipeline=_pipeline(pipeline, policy), secret=bytes(secret))
    task = TableTask(config, schema, _link_patients(text, schema, config.secret))
    out_schema = StructType([StructField(c, StringType(), True) for c in df.columns])
    out = text.mapInArrow(functools.partial(map_table_batches, task=task), out_schema)
    return out.select(*[F.col(c).cast(df.schema[c].dataType).alias(c) for c in df.columns])


def _pipeline(pipeline: PipelineConfig | None, policy: str | None) -> PipelineConfig:
    config = pipeline or PipelineConfig(ner_threads=1)
    return replace(config, policy=policy) if policy else config


def _link_patients(text: DataFrame, schema: TableSchema, secret: bytes
                   ) -> dict[str, tuple[int, str]]:
    """The driver's pass: rows in order through the folder sink's linker."""
    linking = schema.indexes(Role.PATIENT_KEY, Role.NAME, Role.DOB)
    linker = PatientLinker(secret)
    if not linking:
        return {}
    width = len(schema.columns)
    for row in text.select(*[schema.columns[i] for i in linking]).toLocalIterator():
        values = [""] * width
        for i, value in zip(linking, row, strict=True):
            values[i] = value or ""
        linker.patient_for_row(linking_cells(schema, values))
    return linker.first_patients()


def _scope(task: TableTask, cells: Sequence[tuple[Label, str | None, str]]) -> str:
    hits = [task.patients[d] for _kind, d in row_keys(cells, task.config.secret)
            if d in task.patients]
    return min(hits)[1] if hits else DEFAULT_PATIENT


def map_table_batches(batches: Iterator[pa.RecordBatch], task: TableTask
                      ) -> Iterator[pa.RecordBatch]:
    """The ``mapInArrow`` function: each row through its roles."""
    deid = RowDeidentifier(session_for(task.config), task.schema,
                           scope_of=functools.partial(_scope, task))
    for batch in batches:
        columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
        rows = []
        for original in zip(*columns, strict=True):
            new = deid.row([v or "" for v in original], where="a row")
            rows.append([None if old is None and value == "" else value
                         for old, value in zip(original, new, strict=True)])
        yield pa.RecordBatch.from_arrays(
            [pa.array([r[i] for r in rows], type=pa.string())
             for i in range(batch.num_columns)], names=batch.schema.names)
