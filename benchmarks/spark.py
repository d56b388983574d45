"""Spark front end against the plain CLI: notes/s and start-up cost.

    python benchmarks/spark.py [--notes 2000] [--no-ner] [--masters local[1] local[2]]

The same generated 1,500-character notes go through `clearnote deid` (JSONL, one process)
and `clearnote spark deid`'s code path on each Spark master. Throughput excludes start-up:
for the CLI, (N - 1) notes over the difference between an N-note run and a 1-note run; for
Spark, a timed job after a warm-up job that made every Python worker build its pipeline.
Start-up is reported apart: the CLI's 1-note run, Spark's JVM start and warm-up job.
Machines are noisy: compare the ratios, printed last.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _notes import make_notes  # noqa: E402

from engine.api import PipelineConfig  # noqa: E402
from engine.spark import (  # noqa: E402
    build_local_session,
    deidentify_dataframe,
    read_table,
    stop_session,
    write_table,
)

SECRET = b"benchmark-secret-0123456789abcdef"


def write_notes(path: Path, count: int) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for i, text in enumerate(make_notes(count)):
            record = {"id": f"n{i:05d}", "patient": f"P{i % 200:03d}", "text": text}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def time_cli(source: Path, out: Path, secret: Path, no_ner: bool) -> float:
    command = [sys.executable, "-m", "engine.cli", "deid", "--input", str(source),
               "--output", str(out), "--secret-file", str(secret), "--no-progress"]
    started = time.perf_counter()
    subprocess.run(command + (["--no-ner"] if no_ner else []), check=True,
                   cwd=Path(__file__).resolve().parent.parent)
    return time.perf_counter() - started


def time_spark(master: str, source: Path, work: Path, count: int, no_ner: bool,
               ) -> tuple[float, float, float]:
    """(JVM start s, warm-up job s, timed job s) on ``master``."""
    cores = int(master.removeprefix("local[").rstrip("]"))
    pipeline = PipelineConfig(ner=False) if no_ner else PipelineConfig(ner_threads=1)
    started = time.perf_counter()
    spark = build_local_session(master)
    jvm = time.perf_counter() - started
    try:
        df = read_table(spark, str(source), "jsonl").cache()
        df.count()
        started = time.perf_counter()
        warm = deidentify_dataframe(df.limit(cores * 2), patient_col="patient", secret=SECRET,
                                    pipeline=pipeline, partitions=cores)
        warm.write.format("noop").mode("overwrite").save()
        warmup = time.perf_counter() - started
        started = time.perf_counter()
        out = deidentify_dataframe(df, patient_col="patient", secret=SECRET,
                                   pipeline=pipeline, partitions=cores * 4)
        write_table(out, str(work / f"out-{cores}"), "parquet")
        job = time.perf_counter() - started
    finally:
        stop_session(spark)
    assert len(list((work / f"out-{cores}").glob("part-*"))) > 0
    return jvm, warmup, job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--no-ner", action="store_true", help="rules and dictionaries only")
    parser.add_argument("--masters", nargs="+", default=["local[1]", "local[2]"])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        source = write_notes(work / "notes.jsonl", args.notes)
        one = write_notes(work / "one.jsonl", 1)
        secret = work / "secret"
        secret.write_bytes(SECRET)
        cli_one = time_cli(one, work / "one.out.jsonl", secret, args.no_ner)
        cli_all = time_cli(source, work / "all.out.jsonl", secret, args.no_ner)
        cli_rate = (args.notes - 1) / max(cli_all - cli_one, 1e-9)
        runs = {m: time_spark(m, source, work, args.notes, args.no_ner) for m in args.masters}

    pipeline = "rules + dictionaries" if args.no_ner else "default (NER when installed)"
    print(f"notes: {args.notes} x ~1500 chars; pipeline: {pipeline}")
    print(f"{'plain CLI':>10}: {cli_rate:7.1f} notes/s   start-up {cli_one:5.1f} s "
          f"(process + pipeline + 1 note)")
    rates = {}
    for master, (jvm, warm, job) in runs.items():
        rates[master] = args.notes / job
        print(f"{master:>10}: {rates[master]:7.1f} notes/s   start-up {jvm + warm:5.1f} s "
              f"(JVM {jvm:.1f} s + warm-up job {warm:.1f} s)")
    first = args.masters[0]
    for master in args.masters:
        cores = int(master.removeprefix("local[").rstrip("]"))
        jvm, warm, _ = runs[master]
        print(f"{master}: {rates[master] / cli_rate:.2f}x plain CLI, "
              f"{rates[master] / rates[first]:.2f}x {first}, "
              f"{rates[master] / cores:.1f} notes/s per core, "
              f"start-up {(jvm + warm) / cli_one:.1f}x the CLI's")


if __name__ == "__main__":
    main()
