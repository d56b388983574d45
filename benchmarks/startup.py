"""Pipeline start-up: seconds to import the engine and build the detector pipeline.

    python benchmarks/startup.py [--runs 3]

Every run is a fresh interpreter, as the CLI, each batch worker and the desktop app start:
nothing is cached in memory between runs. Prints the median over the runs for rules only
(``PipelineConfig(ner=False)``) and the default configuration (NER on when the model is
installed), plus the first document after the build, so that work moved out of the build
into first use would show.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs in the child; prints {"build": s, "first_doc": s} as JSON.
CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from engine.core.domain import Document
from engine.pipeline import PipelineConfig, build_pipeline
pipeline = build_pipeline(PipelineConfig(**{config}))
t1 = time.perf_counter()
pipeline.run(Document(text="Seen by Dr. Mara Quinn at Lakeside Clinic, Toronto, on 3 March "
                           "2021. Call 416-555-0142."))
t2 = time.perf_counter()
print(json.dumps({{"build": t1 - t0, "first_doc": t2 - t1}}))
"""

CONFIGS = {"rules only (ner=False)": "{'ner': False}", "default": "{}"}


def measure(config: str, runs: int) -> dict[str, float]:
    samples: dict[str, list[float]] = {"build": [], "first_doc": []}
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), config=config)],
                             check=True, capture_output=True, text=True, cwd=ROOT).stdout
        for key, value in json.loads(out.strip().splitlines()[-1]).items():
            samples[key].append(value)
    return {key: statistics.median(values) for key, values in samples.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    for name, config in CONFIGS.items():
        result = measure(config, args.runs)
        print(f"{name:24s} build {result['build']:.3f} s   first document "
              f"{result['first_doc']:.3f} s   (median of {args.runs} fresh processes)")


if __name__ == "__main__":
    main()
