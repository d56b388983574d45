"""`clearnote detect`: JSONL documents in, JSONL spans out (``engine.api.Session``)."""

from __future__ import annotations

import argparse
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine import api
from engine.cli.common import (
    EXIT_OK,
    JsonlWriter,
    Progress,
    add_detection_options,
    count_lines,
    read_documents,
    run_context,
    session_from,
)
from engine.core.domain import Document, Span

# Below this many documents, starting worker processes (each builds its own pipeline)
# costs more than it saves.
PARALLEL_FROM = 16


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("detect", help="find PHI spans in JSONL documents",
                       description="Read {\"id\",\"text\"} lines; write {\"id\",\"spans\"} "
                                   "lines in the same order.")
    p.add_argument("--input", type=Path, required=True, help="IN.jsonl (- for stdin)")
    p.add_argument("--output", type=Path, required=True, help="OUT.jsonl (- for stdout)")
    p.add_argument("--workers", type=int, default=0,
                   help=f"worker processes (default: one per core from {PARALLEL_FROM} "
                        "documents)")
    add_detection_options(p)
    p.set_defaults(func=cmd_detect)


def worker_count(requested: int, documents: int | None) -> int:
    if requested > 0:
        return requested
    if documents is None or documents < PARALLEL_FROM:
        return 1
    return min(api.default_workers(), documents)


def span_record(span: Span) -> dict:
    """A span as `clearnote detect` writes it (fields picked from ``Span.to_dict``)."""
    full = span.to_dict()
    record = {k: full[k] for k in ("start", "end", "label", "source")}
    record["confidence"] = round(span.confidence, 4)
    if span.subtype:
        record["subtype"] = span.subtype
    record["detector"] = span.detector
    return record


def cmd_detect(args: argparse.Namespace) -> int:
    session = session_from(args)  # cheap: the pipeline is built on first use
    ctx = run_context(args)
    total = count_lines(args.input)
    progress = Progress("detect", total, enabled=not args.no_progress)
    ids: deque[object] = deque()  # read ahead of the results by the workers' queue only

    def documents() -> Iterator[Document]:
        for record, doc in read_documents(args.input):
            ids.append(record["id"])
            yield doc

    results = api.detect_in_order(documents(), total=total,
                                  workers=worker_count(args.workers, total),
                                  services=api.SessionServices(), session_config=session.config,
                                  session=session, ctx=ctx)
    with JsonlWriter(args.output) as out:
        for result in results:
            out.write({"id": ids.popleft(), "spans": [span_record(s) for s in result.active]})
            progress.step()
    progress.close()
    return EXIT_OK
