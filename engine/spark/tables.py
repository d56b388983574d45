"""Reading notes tables and writing results with Spark's own readers and committer.

Formats: Parquet, JSON Lines and CSV (RFC 4180 quoting, a header line, multi-line fields).
Output goes to a folder that Spark's committer fills: part files appear only when the job
succeeds (``_SUCCESS`` marks a complete folder), never a half-written file.
"""

from __future__ import annotations

from pathlib import Path

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, MapType, StructType

from engine.core.errors import UsageError

FORMATS = ("parquet", "jsonl", "csv")
_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".json": "jsonl",
             ".ndjson": "jsonl", ".csv": "csv"}
_CSV = {"header": "true", "multiLine": "true", "quote": '"', "escape": '"'}


def format_of(path: str, given: str | None = None) -> str:
    """The format named by ``given`` or by the path's suffix (a folder needs ``given``)."""
    if given:
        if given not in FORMATS:
            raise UsageError(f"unknown format {given!r} (use one of {', '.join(FORMATS)})")
        return given
    found = _SUFFIXES.get(Path(path.rstrip("/")).suffix.lower())
    if found is None:
        raise UsageError(f"{path}: cannot tell the format from the name; give "
                         f"--input-format ({', '.join(FORMATS)})")
    return found


def read_table(spark: SparkSession, path: str, fmt: str | None = None) -> DataFrame:
    fmt = format_of(path, fmt)
    if "://" not in path and not Path(path).exists():
        raise UsageError(f"{path}: no such file or folder")
    reader = spark.read
    if fmt == "parquet":
        return reader.parquet(path)
    if fmt == "jsonl":
        return reader.json(path)
    # Every CSV column is read as a string: ids keep their leading zeros.
    return reader.options(**_CSV).csv(path)


def write_table(df: DataFrame, path: str, fmt: str, *, overwrite: bool = False) -> None:
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r} (use one of {', '.join(FORMATS)})")
    if not overwrite and "://" not in path and Path(path).exists():
        raise UsageError(f"{path} already exists (give --overwrite to replace it)")
    writer_df = _flat(df) if fmt == "csv" else df
    writer = writer_df.write.mode("overwrite" if overwrite else "errorifexists")
    if fmt == "parquet":
        writer.parquet(path)
    elif fmt == "jsonl":
        # Null fields are written, so every line has the same keys ("error": null).
        writer.option("ignoreNullFields", "false").json(path)
    else:
        writer.options(**_CSV).csv(path)


def _flat(df: DataFrame) -> DataFrame:
    """CSV holds no arrays or structs: those columns become JSON strings."""
    nested = (ArrayType, MapType, StructType)
    return df.select(*[F.to_json(F.col(f.name)).alias(f.name)
                       if isinstance(f.dataType, nested) else F.col(f.name)
                       for f in df.schema.fields])
