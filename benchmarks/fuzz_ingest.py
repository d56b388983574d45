"""The long ingest fuzz run (issue 15, item 7c): random mutations of seed PDFs, DOCX,
images and text files (tests/fuzz/ingest_harness.py) for a time or an input count, each
input in a worker process with a time bound. Reports inputs tried and the distinct failures
(exception type and place, hang, crash), and writes one reproducer per failure.

    nice -n 19 .venv/bin/python benchmarks/fuzz_ingest.py --minutes 10 [--seed 1]
        [--timeout 30] [--save DIR]

Replay a saved input: ``python tests/fuzz/ingest_worker.py`` reads file paths on stdin.
Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--count", type=int, default=None, help="stop after this many inputs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per input")
    parser.add_argument("--save", type=Path, default=None,
                        help="folder for one reproducer per distinct failure")
    args = parser.parse_args()

    from tests.fuzz.ingest_harness import Finding, IngestRunner, make_seeds, run_random, scratch_dir

    work = scratch_dir()
    seeds = make_seeds(work / "seeds")
    runner = IngestRunner(work, timeout=args.timeout)
    found: dict[str, tuple[int, Finding]] = {}

    def on_finding(finding: Finding) -> None:
        count, first = found.get(finding.signature, (0, finding))
        found[finding.signature] = (count + 1, first)
        if count == 0:
            print(f"new failure: {finding.signature} (from {finding.label})", file=sys.stderr)
            if args.save is not None:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"failure{len(found):03d}.bin").write_bytes(finding.data)

    started = time.monotonic()
    try:
        tried = run_random(seeds, runner, seed=args.seed, count=args.count,
                           seconds=args.minutes * 60, on_finding=on_finding)
    finally:
        runner.close()
    report = {
        "inputs": tried, "seconds": round(time.monotonic() - started, 1), "seed": args.seed,
        "distinct_failures": len(found),
        "failures": [{"signature": sig, "count": count, "from": first.label,
                      "detail": first.detail[-800:]}
                     for sig, (count, first) in sorted(found.items())],
    }
    print(json.dumps(report, indent=2))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
