"""Throughput of the ONNX NER detector on 1,500-character synthetic notes.

    python benchmarks/ner.py [--model models/clearnote-ner-minilm] [--notes 60] [--threads 2]

Reports notes/s, model tokens/s, the efficiency of the detector against raw onnxruntime on
the very same windows (raw_time / detector_time; 1.0 = no overhead), and peak RSS.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.detectors.ner import OnnxNerDetector
from engine.training.corpus import generate


def notes(n: int, chars: int, seed: int) -> list[str]:
    out = []
    for d in generate(seed, "test", n * 2):
        text = str(d["text"])
        if len(text) >= chars:
            cut = text.rfind(" ", 0, chars)
            out.append(text[: cut if cut > chars * 0.9 else chars])
        if len(out) == n:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", default=None)
    ap.add_argument("--notes", type=int, default=60)
    ap.add_argument("--chars", type=int, default=1500)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args()

    t0 = time.perf_counter()
    det = OnnxNerDetector.from_model_dir(
        Path(args.model) if args.model else None, threads=args.threads, batch_size=args.batch_size
    )
    load_s = time.perf_counter() - t0
    texts = notes(args.notes, args.chars, args.seed)
    ctx = RunContext()
    det.detect(Document.from_text(texts[0]), ctx)  # warm-up

    # Same windows, prepared up front, for the raw onnxruntime baseline.
    prepared = []
    n_tokens = 0
    for t in texts:
        ids, _, shapes = det.encode(t)
        windows = det.plan(len(ids))
        prepared.append(det.feeds(ids, shapes, windows))
        n_tokens += len(ids)
    t0 = time.perf_counter()
    for feeds in prepared:
        for f in feeds:
            det.run(f)
    raw_s = time.perf_counter() - t0

    docs = [Document.from_text(t) for t in texts]
    t0 = time.perf_counter()
    n_spans = sum(len(det.detect(d, ctx)) for d in docs)
    det_s = time.perf_counter() - t0

    long_text = " ".join(texts)[:20000]
    t0 = time.perf_counter()
    det.detect(Document.from_text(long_text), ctx)
    long_s = time.perf_counter() - t0

    print(
        json.dumps(
            {
                "model": det.spec.qualified,
                "threads": args.threads,
                "batch_size": args.batch_size,
                "notes": len(texts),
                "chars_per_note": round(sum(map(len, texts)) / len(texts)),
                "model_tokens": n_tokens,
                "spans": n_spans,
                "load_s": round(load_s, 2),
                "notes_per_s": round(len(texts) / det_s, 2),
                "tokens_per_s": round(n_tokens / det_s),
                "raw_onnxruntime_tokens_per_s": round(n_tokens / raw_s),
                "efficiency_raw_over_detector": round(raw_s / det_s, 3),
                "doc_20k_chars_s": round(long_s, 2),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
