"""Time and peak memory of de-identification against input size (issue 17, item 2).

    python benchmarks/scaling.py [--no-ner] [--sizes 10K,100K,1M,10M] [--shapes single,multi]
                                 [--timeout 900]

Synthetic clinical notes with planted synthetic PHI (Faker) are concatenated to each size,
either as one line (newlines become spaces: EHR extracts, CSV dumps, OCR of tables) or as
ordinary multi-line text. Each size runs in a fresh subprocess through the path `clearnote
deid` takes: the text is written to a file, read back by ``engine.api.load_document``,
de-identified by a ``Session`` (detect + surrogates) and written by ``write_outputs`` in
txt + json after the CIRE guard (the JSON writer re-verifies the output). Model loading
and a warm-up document stay outside the timing. Prints seconds per stage, peak RSS of the
child, and the time ratio per 10x size (issue 17 asks for <= 12x), in wall-clock seconds
and in CPU seconds of the child (all threads): on a busy machine the wall-clock ratio also
measures how the load changed between sizes, the CPU ratio only the work.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

UNITS = {"K": 1_000, "M": 1_000_000}


def parse_size(text: str) -> int:
    text = text.strip().upper().removesuffix("B")
    if text[-1:] in UNITS:
        return int(float(text[:-1]) * UNITS[text[-1]])
    return int(text)


def show_size(n: int) -> str:
    for suffix, unit in (("M", 1_000_000), ("K", 1_000)):
        if n >= unit and n % unit == 0:
            return f"{n // unit}{suffix}"
    return str(n)


def make_text(size: int, shape: str) -> str:
    from _notes import make_notes

    notes = make_notes(size // 1400 + 2)
    text = "\n\n".join(notes)[:size]
    if shape == "single":
        text = text.replace("\r", " ").replace("\n", " ")
    return text


def child(size: int, shape: str, no_ner: bool) -> None:
    """One measurement, printed as a JSON line (run in a fresh process)."""
    from engine.api import Session, SessionConfig, load_document
    from engine.core.domain import Document
    from engine.exporters import export_job, write_outputs
    from engine.pipeline import PipelineConfig

    session = Session(SessionConfig(pipeline=PipelineConfig(ner=False if no_ner else "auto")))
    session.process(Document.from_text(make_text(3000, shape)))  # warm-up: models load
    with tempfile.TemporaryDirectory(prefix="clearnote-scaling-") as tmp:
        src = Path(tmp) / "input.txt"
        src.write_text(make_text(size, shape), encoding="utf-8")
        stages: dict[str, float] = {}
        started, cpu_started = time.perf_counter(), time.process_time()
        doc = load_document(src)
        stages["ingest"] = time.perf_counter() - started
        mark = time.perf_counter()
        result = session.detect(doc)
        stages["detect"] = time.perf_counter() - mark
        mark = time.perf_counter()
        deid = session.deidentify(doc, result.active)
        stages["surrogates"] = time.perf_counter() - mark
        mark = time.perf_counter()
        # As `clearnote deid` writes it: the CIRE guard, then txt + json, re-verified.
        write_outputs(export_job(doc, result.active, deid, policy=session.policy, source=src),
                      Path(tmp) / "out", ("txt", "json"))
        stages["export"] = time.perf_counter() - mark
        total = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    print(json.dumps({"chars": len(doc.text), "spans": len(result.active), "seconds": total,
                      "cpu_seconds": cpu,
                      "stages": stages, "peak_rss_mb": peak_kb / 1024,
                      "detectors": list(session.pipeline.detector_ids)}))


def measure(size: int, shape: str, no_ner: bool, timeout: float) -> dict | None:
    cmd = [sys.executable, __file__, "--child", str(size), "--shape", shape]
    if no_ner:
        cmd.append("--no-ner")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=ROOT, check=False)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-3000:])
        raise SystemExit(f"size {size} ({shape}) failed with exit code {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-ner", action="store_true", help="rules and dictionaries only")
    parser.add_argument("--sizes", default="10K,100K,1M,10M",
                        help="comma-separated sizes in characters (K = 1e3, M = 1e6)")
    parser.add_argument("--shapes", default="single,multi")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds per size; larger sizes of a shape are skipped after one")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--shape", default="single", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.shape, args.no_ner)
        return

    sizes = sorted(parse_size(s) for s in args.sizes.split(",") if s.strip())
    print(f"pipeline: {'rules + dictionaries' if args.no_ner else 'default (NER if installed)'};"
          f" cpus: {os.cpu_count()}; one fresh process per size")
    print(f"{'shape':<7}{'size':>6}{'spans':>9}{'seconds':>10}{'x/10x':>8}{'cpu s':>9}"
          f"{'x/10x':>7}{'peak MB':>9}  stages (ingest/detect/surrogates/export s)")
    for shape in args.shapes.split(","):
        previous: tuple[int, float, float] | None = None
        for size in sizes:
            row = measure(size, shape, args.no_ner, args.timeout)
            if row is None:
                print(f"{shape:<7}{show_size(size):>6}   timed out after {args.timeout:.0f} s;"
                      " larger sizes skipped")
                break
            ratio = cpu_ratio = ""
            if previous is not None and size == previous[0] * 10:
                ratio = f"{row['seconds'] / max(previous[1], 1e-6):.1f}"
                cpu_ratio = f"{row['cpu_seconds'] / max(previous[2], 1e-6):.1f}"
            st = row["stages"]
            print(f"{shape:<7}{show_size(size):>6}{row['spans']:>9}{row['seconds']:>10.2f}"
                  f"{ratio:>8}{row['cpu_seconds']:>9.2f}{cpu_ratio:>7}"
                  f"{row['peak_rss_mb']:>9.0f}  {st['ingest']:.2f}/{st['detect']:.2f}"
                  f"/{st['surrogates']:.2f}/{st['export']:.2f}", flush=True)
            previous = (size, row["seconds"], row["cpu_seconds"])


if __name__ == "__main__":
    main()
