"""Throughput of `detect` and `deid` on generated 1,500-character notes.

    python benchmarks/throughput.py [--notes 300] [--repeats 3] [--no-ner]

Prints documents/s and characters/s (median of repeats) for the default pipeline and the
ratio against a pure-regex baseline measured in the same run (machines are noisy: compare
ratios, not absolute figures).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _notes import make_notes  # noqa: E402

from engine.api import Session, SessionConfig  # noqa: E402
from engine.core.domain import Document  # noqa: E402
from engine.core.policies import get_policy  # noqa: E402
from engine.detectors.regex import default_rule_detectors  # noqa: E402
from engine.pipeline import Pipeline, PipelineConfig  # noqa: E402


def _time(fn, docs: list[Document], repeats: int) -> float:
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        for doc in docs:
            fn(doc)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-ner", action="store_true")
    args = parser.parse_args()

    docs = [Document.from_text(t, id=str(i)) for i, t in enumerate(make_notes(args.notes))]
    chars = sum(len(d.text) for d in docs)
    regex_only = Pipeline(default_rule_detectors(), policy=get_policy("strict"))
    session = Session(SessionConfig(pipeline=PipelineConfig(ner=not args.no_ner and "auto")))
    session.detect(docs[0])  # warm up: model load and first-call costs out of the timing

    baseline = _time(regex_only.run, docs, args.repeats)
    detect = _time(session.detect, docs, args.repeats)
    deid = _time(lambda d: session.process(d), docs, args.repeats)

    print(f"notes: {len(docs)} x ~{chars // len(docs)} chars; repeats: {args.repeats} (median)")
    print(f"detectors: {', '.join(session.pipeline.detector_ids)}")
    for name, seconds in (("regex baseline", baseline), ("detect", detect), ("deid", deid)):
        print(f"{name:>15}: {len(docs) / seconds:8.1f} docs/s  {chars / seconds:10.0f} chars/s"
              f"  ({seconds / baseline:5.2f}x baseline time)")
    per_detector = session.pipeline.timing.seconds
    total = sum(per_detector.values()) or 1.0
    print("share of detect time by detector:")
    for name, seconds in sorted(per_detector.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<40} {100 * seconds / total:5.1f} %")


if __name__ == "__main__":
    main()
