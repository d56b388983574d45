"""`clearnote spark deid|detect`: the same engine as a Spark job over a notes table
(Parquet, JSON Lines or CSV), written by Spark's committer to an output folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    add_detection_options,
    pipeline_config,
    read_secret,
)
from engine.core.errors import UsageError

# `clearnote deid` reads a JSONL record's patient from "patient": by default the Spark
# job does the same, so one input file gives the same output through both commands.
DEFAULT_PATIENT_COL = "patient"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("spark", help="de-identify a notes table as a Spark job",
                              description="Run detect or deid over a Parquet/JSONL/CSV "
                                          "table with Apache Spark (needs clearnote[spark]).")
    commands = p.add_subparsers(dest="spark_command", metavar="COMMAND", required=True)
    deid = commands.add_parser("deid", help="de-identify the text column")
    _common(deid)
    deid.add_argument("--patient-col",
                      help="column with the patient id (default: \"patient\" when the input "
                           "has it; rows without one share the pseudo-patient \"default\")")
    deid.add_argument("--mode", default="surrogate", choices=["surrogate", "tag", "redact"])
    deid.add_argument("--secret-file", help="the secret of `clearnote deid --secret-file`: "
                                            "same secret, same surrogates")
    deid.add_argument("--schema", type=Path, metavar="SCHEMA.csv",
                      help="de-identify the whole table by its column roles (as "
                           "`clearnote table-schema` prints them), as `clearnote deid` "
                           "does; --id-col, --text-col and --keep-col do not apply")
    deid.set_defaults(func=cmd_spark)
    detect = commands.add_parser("detect", help="find PHI spans in the text column")
    _common(detect)
    detect.set_defaults(func=cmd_spark)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--input", required=True, help="notes table: FILE or folder (or URI)")
    p.add_argument("--output", required=True, help="output folder (must not exist)")
    p.add_argument("--format", default="parquet", choices=["parquet", "jsonl", "csv"],
                   help="output format (default parquet)")
    p.add_argument("--input-format", choices=["parquet", "jsonl", "csv"],
                   help="input format when the name's suffix does not tell")
    p.add_argument("--id-col", default="id")
    p.add_argument("--text-col", default="text")
    p.add_argument("--keep-col", action="append", default=[], metavar="COL",
                   help="copy this input column to the output (repeatable)")
    p.add_argument("--master", help="Spark master (default local[*]; under spark-submit, "
                                    "its own)")
    p.add_argument("--partitions", type=int, help="repartition the input into N partitions")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output")
    add_detection_options(p)
    # One ONNX thread per Spark task unless asked (see engine.spark.frames).
    p.set_defaults(threads=1)


def cmd_spark(args: argparse.Namespace) -> int:
    # pyspark is an optional extra: imported only when a spark command runs.
    try:
        from engine import spark as sparkfe
    except ImportError as exc:
        raise UsageError("clearnote spark needs the spark extra: "
                         "pip install 'clearnote[spark]'") from exc
    if args.partitions is not None and args.partitions < 1:
        raise UsageError("--partitions must be at least 1")
    secret = read_secret_arg(args)
    fmt_in = sparkfe.format_of(args.input, args.input_format)
    with sparkfe.spark_session(args.master, progress=not args.no_progress) as spark:
        df = sparkfe.read_table(spark, args.input, fmt_in)
        if getattr(args, "schema", None) is not None:
            return _spark_table(sparkfe, spark, df, args, secret)
        if args.spark_command == "deid":
            patient_col = args.patient_col
            if patient_col is None and DEFAULT_PATIENT_COL in df.columns:
                patient_col = DEFAULT_PATIENT_COL
            out = sparkfe.deidentify_dataframe(
                df, id_col=args.id_col, text_col=args.text_col, patient_col=patient_col,
                keep=args.keep_col, mode=args.mode, secret=secret,
                pipeline=pipeline_config(args), partitions=args.partitions)
        else:
            out = sparkfe.detect_dataframe(
                df, id_col=args.id_col, text_col=args.text_col, keep=args.keep_col,
                pipeline=pipeline_config(args), partitions=args.partitions)
        sparkfe.write_table(out, args.output, args.format, overwrite=args.overwrite)
        # A second, cheap pass over what was committed: counts only, never content.
        written = sparkfe.read_table(spark, args.output, args.format)
        counts = {row["error"]: row["count"]
                  for row in written.groupBy("error").count().collect()}
    rows = sum(counts.values())
    failed = {code: n for code, n in counts.items() if code is not None}
    summary = f"spark {args.spark_command}: {rows} rows written to {args.output}"
    if failed:
        codes = ", ".join(f"{code} {n}" for code, n in sorted(failed.items()))
        summary += f"; {sum(failed.values())} failed ({codes}: see the error column)"
    print(summary, file=sys.stderr)
    return EXIT_FAILURE if failed else EXIT_OK


def _spark_table(sparkfe: Any, spark: Any, df: Any, args: argparse.Namespace,
                 secret: bytes | None) -> int:
    from engine.api import read_schema
    from engine.spark.roles import deidentify_table

    if secret is None:
        raise UsageError("--schema needs --secret-file: the same secret as `clearnote deid "
                         "--secret-file` gives the same output")
    out = deidentify_table(df, read_schema(args.schema), secret=secret,
                           pipeline=pipeline_config(args), source=args.input)
    sparkfe.write_table(out, args.output, args.format, overwrite=args.overwrite)
    rows = sparkfe.read_table(spark, args.output, args.format).count()
    print(f"spark deid: {rows} rows written to {args.output} by the schema's roles",
          file=sys.stderr)
    return EXIT_OK


def read_secret_arg(args: argparse.Namespace) -> bytes | None:
    path = getattr(args, "secret_file", None)
    return read_secret(Path(path)) if path else None
