"""Whole-process throughput of `clearnote detect`, cold, as a coordinator measures it.

    python benchmarks/throughput.py [--notes 200] [--rounds 3]
        [--baseline-tree /tmp/prev-main] [--model-old /work/train-out/model_v2]
        [--workers-check]

Each run is a fresh ``python -m engine.cli detect`` over one JSONL file of ``--notes``
synthetic ~1,500-character notes (benchmarks/_notes.py), start-up included, rules only
(``--no-ner``) and default. With ``--baseline-tree DIR`` the same command also runs with
DIR as its working directory (``python -m`` puts the cwd first on sys.path, so DIR's
``engine`` is the one imported: make DIR with ``git worktree add DIR COMMIT --detach``),
alternating with this tree, ``--rounds`` times; medians and the new/old ratio are printed.
``--model-old DIR`` compares NER tokens/s of the shipped model with another model dir and
with raw onnxruntime on the very same windows, in this process. ``--workers-check`` compares
2 single-threaded processes (the notes split in halves) with 1 process and 2 intra-op
threads. Peak RSS is each child's own (``os.wait4``). Ratios are printed last: on a busy
machine compare them, not the absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _notes import make_notes  # noqa: E402

MODES: dict[str, list[str]] = {"rules only": ["--no-ner"], "default": []}


def run_detect(tree: Path, notes: Path, out: Path, extra: Sequence[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one fresh `clearnote detect` run from ``tree``."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "detect", "--input", str(notes),
                             "--output", str(out), "--no-progress", *extra], cwd=tree,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: clearnote detect failed ({proc.returncode}): {stderr[-500:]}")
    return wall, usage.ru_maxrss / 1024


def run_split(tree: Path, halves: Sequence[Path], tmp: Path) -> tuple[float, float]:
    """Two single-threaded `clearnote detect` processes at once, one per half."""
    started = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-m", "engine.cli", "detect", "--input", str(h),
                               "--output", str(tmp / f"split{i}.jsonl"), "--no-progress",
                               "--threads", "1", "--workers", "1"], cwd=tree,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for i, h in enumerate(halves)]
    peak = 0.0
    for proc in procs:
        _pid, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit("split clearnote detect failed")
        peak = max(peak, usage.ru_maxrss / 1024)
    return time.perf_counter() - started, peak


def whole_process(args: argparse.Namespace, notes: Path, n: int, tmp: Path) -> list[str]:
    trees = {"new": ROOT}
    if args.baseline_tree:
        trees["old"] = Path(args.baseline_tree).resolve()
        if not (trees["old"] / "engine" / "__init__.py").is_file():
            raise SystemExit(f"{trees['old']}: no engine/ package there")
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
    outputs: dict[tuple[str, str], str] = {}
    for _round in range(args.rounds):
        for mode, extra in MODES.items():
            for name, tree in trees.items():  # alternating: new, old, new, old, ...
                out = tmp / f"{name}-{mode.replace(' ', '_')}.jsonl"
                samples.setdefault((name, mode), []).append(run_detect(tree, notes, out, extra))
                outputs[(name, mode)] = out.read_text(encoding="utf-8")
    ratios = []
    print(f"clearnote detect, {n} notes, whole process (median of {args.rounds}, alternating):")
    for (name, mode), runs in samples.items():
        wall = statistics.median(w for w, _ in runs)
        rss = max(r for _, r in runs)
        print(f"  {name:>3} {mode:<10} {n / wall:7.1f} notes/s  ({wall:6.2f} s)  "
              f"peak RSS {rss:6.0f} MB")
    for mode in MODES:
        if ("old", mode) in samples:
            new = statistics.median(w for w, _ in samples[("new", mode)])
            old = statistics.median(w for w, _ in samples[("old", mode)])
            same = outputs[("new", mode)] == outputs[("old", mode)]
            ratios.append(f"throughput new/old, {mode}: {old / new:.2f}x "
                          f"(outputs {'identical' if same else 'differ'})")
    return ratios


def workers_check(args: argparse.Namespace, notes: Path, tmp: Path) -> list[str]:
    lines = notes.read_text(encoding="utf-8").splitlines(keepends=True)
    halves = [tmp / "half0.jsonl", tmp / "half1.jsonl"]
    halves[0].write_text("".join(lines[0::2]), encoding="utf-8")
    halves[1].write_text("".join(lines[1::2]), encoding="utf-8")
    one, two = [], []
    for _round in range(args.rounds):
        one.append(run_detect(ROOT, notes, tmp / "one.jsonl",
                              ["--threads", "2", "--workers", "1"])[0])
        two.append(run_split(ROOT, halves, tmp)[0])
    one_s, two_s = statistics.median(one), statistics.median(two)
    print(f"default detect, 1 process x 2 intra-op threads: {one_s:6.2f} s; "
          f"2 processes x 1 thread: {two_s:6.2f} s (median of {args.rounds}, alternating)")
    return [f"2 single-threaded processes vs 1 process with 2 threads: {one_s / two_s:.2f}x"]


def model_comparison(args: argparse.Namespace, texts: list[str]) -> list[str]:
    """NER tokens/s: shipped vs ``--model-old`` vs raw onnxruntime on the same windows."""
    import numpy as np

    from engine.core.context import RunContext
    from engine.core.domain import Document
    from engine.detectors.ner import OnnxNerDetector

    dets = {"shipped": OnnxNerDetector.from_model_dir(None, threads=args.threads),
            "old": OnnxNerDetector.from_model_dir(Path(args.model_old), threads=args.threads)}
    docs = [Document.from_text(t, id=str(i)) for i, t in enumerate(texts)]
    ctx = RunContext()
    feeds = {}
    tokens = {}
    for name, det in dets.items():
        det.detect(docs[0], ctx)  # warm-up
        feeds[name] = []
        tokens[name] = 0
        for doc in docs:
            ids, _offsets, shapes = det.encode(doc.text)
            tokens[name] += len(ids)
            feeds[name] += det.feeds(ids, shapes, det.plan(len(ids)))
    times: dict[str, list[float]] = {}
    for _round in range(args.rounds):
        for name, det in dets.items():
            started = time.perf_counter()
            for doc in docs:
                det.detect(doc, ctx)
            times.setdefault(name, []).append(time.perf_counter() - started)
            started = time.perf_counter()
            for feed in feeds[name]:
                np.asarray(det._session.run(None, feed)[0])  # noqa: SLF001 - raw baseline
            times.setdefault(f"{name} raw", []).append(time.perf_counter() - started)
    rate = {k: tokens[k.split()[0]] / statistics.median(v) for k, v in times.items()}
    print(f"NER on {len(docs)} notes ({args.threads} threads, median of {args.rounds}):")
    for name, value in rate.items():
        print(f"  {name:<12} {value:8.0f} tokens/s")
    return [f"NER tokens/s shipped/old: {rate['shipped'] / rate['old']:.2f}x",
            f"NER detector/raw onnxruntime, shipped: {rate['shipped'] / rate['shipped raw']:.2f}"
            f" (1.00 = no overhead); old: {rate['old'] / rate['old raw']:.2f}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baseline-tree", help="another checkout to run alternately (old)")
    ap.add_argument("--model-old", help="an older NER model dir to compare tokens/s with")
    ap.add_argument("--threads", type=int, default=2, help="NER threads in --model-old")
    ap.add_argument("--workers-check", action="store_true")
    args = ap.parse_args()

    texts = make_notes(args.notes)
    ratios: list[str] = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        notes = tmp / "notes.jsonl"
        notes.write_text("".join(json.dumps({"id": str(i), "text": t}) + "\n"
                                 for i, t in enumerate(texts)), encoding="utf-8")
        print(f"notes: {len(texts)} x ~{sum(map(len, texts)) // len(texts)} characters")
        ratios += whole_process(args, notes, len(texts), tmp)
        if args.workers_check:
            ratios += workers_check(args, notes, tmp)
    if args.model_old:
        ratios += model_comparison(args, texts)
    print("ratios:")
    for line in ratios:
        print(f"  {line}")


if __name__ == "__main__":
    main()
