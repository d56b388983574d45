"""Where the time of one long document goes: the NER model's ``session.run`` against
everything else (issue 17: the 1 MB single line within 60 s on 2 cores).

    python benchmarks/split.py [--size 1M] [--shape single] [--no-ner]

One document goes through the path ``clearnote deid`` takes (``load_document``, a
``Session``'s detect and surrogates, the CIRE guard and ``write_outputs`` with txt + json,
whose writers re-verify their output). Each part is timed in wall-clock seconds and in CPU
seconds of the process (``time.process_time``: all threads; it stays honest on a busy
machine, where wall-clock time also counts the waits for a core). The parts are measured
by wrapping the pipeline's own objects in this process; nothing is replaced.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scaling import make_text, parse_size  # noqa: E402


class Clock:
    """Wall and CPU seconds per named part (parts may nest: "ner" holds "ner.model")."""

    def __init__(self) -> None:
        self.parts: dict[str, list[float]] = {}

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                acc = self.parts.setdefault(name, [0.0, 0.0, 0])
                acc[0] += time.perf_counter() - wall
                acc[1] += time.process_time() - cpu
                acc[2] += 1
        return timed

    def row(self, name: str) -> tuple[float, float, int]:
        wall, cpu, calls = self.parts.get(name, [0.0, 0.0, 0])
        return wall, cpu, int(calls)


def instrument(session: Any, clock: Clock) -> None:
    import dataclasses

    import engine.resolution.guards as guards_module
    import engine.resolution.resolver as resolver_module

    pipeline = session.pipeline
    for detector in pipeline.detectors:
        name = detector.spec.qualified
        detector.detect = clock.wrap(f"detector {name}", detector.detect)
        if hasattr(detector, "token_probs"):  # the NER wrapper: its parts
            detector.run = clock.wrap("ner: session.run (model)", detector.run)
            detector.encode = clock.wrap("ner: tokenise + shapes", detector.encode)
            detector.feeds = clock.wrap("ner: input batches", detector.feeds)
    # The resolver imports guard from its module when it runs: patch it there.
    guards_module.guard = clock.wrap("guards", guards_module.guard)  # type: ignore[assignment]
    resolver_module.resolve_overlaps = clock.wrap(  # type: ignore[assignment]
        "overlap resolution", resolver_module.resolve_overlaps)
    pipeline.resolver = dataclasses.replace(pipeline.resolver, recoverers=tuple(
        _Timed(clock.wrap(type(r).__name__, r.recover)) for r in pipeline.resolver.recoverers))


class _Timed:
    def __init__(self, recover: Callable[..., Any]) -> None:
        self.recover = recover


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1M")
    parser.add_argument("--shape", default="single", choices=("single", "multi"))
    parser.add_argument("--no-ner", action="store_true")
    args = parser.parse_args()

    from engine.api import Session, SessionConfig, load_document
    from engine.core.domain import Document
    from engine.exporters.outputs import export_job, write_outputs
    from engine.pipeline import PipelineConfig

    session = Session(SessionConfig(pipeline=PipelineConfig(
        ner=False if args.no_ner else "auto")))
    session.process(Document.from_text(make_text(3000, args.shape)))  # warm-up: models load
    clock = Clock()
    instrument(session, clock)
    with tempfile.TemporaryDirectory(prefix="clearnote-split-") as tmp:
        src = Path(tmp) / "input.txt"
        src.write_text(make_text(parse_size(args.size), args.shape), encoding="utf-8")
        stages = {
            "ingest": lambda: load_document(src),
            "detect": lambda: session.detect(doc),
            "surrogates": lambda: session.deidentify(doc, result.active),
            "export (CIRE guard + txt/json, re-verified)": lambda: write_outputs(
                export_job(doc, result.active, deid, policy=session.policy, source=src),
                Path(tmp) / "out", ("txt", "json")),
        }
        doc = clock.wrap("ingest", stages.pop("ingest"))()
        result = clock.wrap("detect", stages.pop("detect"))()
        deid = clock.wrap("surrogates", stages.pop("surrogates"))()
        for name, fn in stages.items():
            clock.wrap(name, fn)()
    print(f"{args.shape} line(s), {len(doc.text):,} characters, {len(result.active):,} spans;"
          f" detectors: {', '.join(session.pipeline.detector_ids)}")
    print(f"{'part':<46}{'wall s':>9}{'cpu s':>9}{'calls':>7}")
    for name in sorted(clock.parts, key=lambda n: -clock.parts[n][1]):
        wall, cpu, calls = clock.row(name)
        print(f"{name:<46}{wall:>9.2f}{cpu:>9.2f}{calls:>7}")
    total = sum(clock.row(n)[1] for n in ("ingest", "detect", "surrogates")) + sum(
        clock.row(n)[1] for n in stages)
    model = clock.row("ner: session.run (model)")[1]
    print(f"total cpu {total:.2f} s: model (session.run) {model:.2f} s, everything else "
          f"{total - model:.2f} s")


if __name__ == "__main__":
    main()
