"""`clearnote detect`: JSONL documents in, JSONL spans out (``engine.api.Session``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

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
from engine.core.domain import Span


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("detect", help="find PHI spans in JSONL documents",
                       description="Read {\"id\",\"text\"} lines; write {\"id\",\"spans\"} "
                                   "lines in the same order.")
    p.add_argument("--input", type=Path, required=True, help="IN.jsonl (- for stdin)")
    p.add_argument("--output", type=Path, required=True, help="OUT.jsonl (- for stdout)")
    add_detection_options(p)
    p.set_defaults(func=cmd_detect)


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
    session = session_from(args)
    ctx = run_context(args)
    progress = Progress("detect", count_lines(args.input), enabled=not args.no_progress)
    with JsonlWriter(args.output) as out:
        for record, doc in read_documents(args.input):
            result = session.detect(doc, ctx)
            out.write({"id": record["id"], "spans": [span_record(s) for s in result.active]})
            progress.step()
    progress.close()
    return EXIT_OK
