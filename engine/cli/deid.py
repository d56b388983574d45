"""`clearnote deid`: JSONL documents in and out, or files to a folder of de-identified
outputs (``engine.api.run_files`` into a ``FolderSink``, detection in worker processes)."""

from __future__ import annotations

import argparse
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
    report_exit,
    run_context,
    session_from,
)
from engine.cli.secret_input import add_pdf_password_options, pdf_password
from engine.core.domain import Replacement
from engine.core.errors import UsageError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("deid", help="de-identify JSONL documents or files",
                       description="JSONL mode: --input IN.jsonl --output OUT.jsonl. File "
                                   "mode: FILE_OR_DIR... --output-dir DIR.")
    p.add_argument("paths", nargs="*", metavar="FILE_OR_DIR")
    p.add_argument("--input", type=Path, help="IN.jsonl with {\"id\",\"text\"} lines")
    p.add_argument("--output", type=Path, help="OUT.jsonl")
    p.add_argument("--output-dir", type=Path, help="folder for de-identified files")
    p.add_argument("--formats", nargs="+", choices=sorted(api.FORMAT_SUFFIXES),
                   default=list(api.DEFAULT_FORMATS),
                   help="files per document (default: %(default)s; pdf for PDFs and scans)")
    p.add_argument("--key-file", type=Path,
                   help="where the re-identification key goes (document id -> source "
                        "file); default: clearnote-key.csv beside the input; never inside "
                        "the output folder")
    p.add_argument("--mode", default="surrogate", choices=["surrogate", "tag", "redact"])
    p.add_argument("--pdf", default="redacted", choices=["redacted", "surrogate-text"],
                   help="what redacted PDFs show over removed text")
    add_pdf_password_options(p)
    p.add_argument("--cire", action="store_true",
                   help="add clinical-information-retention flags to the sidecars")
    p.add_argument("--secret-file", type=Path,
                   help="reuse this secret so surrogates stay consistent across runs")
    p.add_argument("--workers", type=int, default=0,
                   help="worker processes for files (default: the machine's cores)")
    p.add_argument("--schema", type=Path, metavar="SCHEMA.csv",
                   help="column roles for the tables (CSV/TSV) among the inputs, as "
                        "`clearnote table-schema` prints them (default: inferred)")
    add_detection_options(p)
    p.set_defaults(func=cmd_deid)

    p = subparsers.add_parser(
        "table-schema", help="print the inferred column roles of a table, to edit",
        description="Prints one line per column (role,column) with the roles explained; "
                    "edit the roles and pass the file to `clearnote deid --schema`.")
    p.add_argument("table", type=Path, metavar="FILE.csv")
    p.set_defaults(func=cmd_table_schema)


def replacement_record(replacement: Replacement) -> dict:
    return {"start": replacement.start, "end": replacement.end,
            "label": replacement.label.value, "output_start": replacement.output_start,
            "output_end": replacement.output_end}


def cmd_deid(args: argparse.Namespace) -> int:
    if args.input is not None:
        if args.paths or args.output_dir:
            raise UsageError("use either --input/--output (JSONL) or FILE_OR_DIR... "
                             "--output-dir, not both")
        if args.output is None:
            raise UsageError("--input needs --output")
        return _deid_jsonl(args)
    if not args.paths or args.output_dir is None:
        raise UsageError("give --input IN.jsonl --output OUT.jsonl, or FILE_OR_DIR... "
                         "--output-dir DIR")
    schema = api.read_schema(args.schema) if args.schema else None
    sink = api.FolderSink(session_from(args), formats=args.formats, key_file=args.key_file,
                          pdf_mode=args.pdf, password=pdf_password(args), cire=args.cire,
                          table_schema=schema)
    report = api.run_files([Path(p) for p in args.paths], Path(args.output_dir), sink,
                           workers=args.workers or None, ctx=run_context(args))
    return report_exit(report)


def cmd_table_schema(args: argparse.Namespace) -> int:
    print(api.infer_schema(args.table).to_text(), end="")
    return EXIT_OK


def _deid_jsonl(args: argparse.Namespace) -> int:
    session = session_from(args)
    ctx = run_context(args)
    progress = Progress("deid", count_lines(args.input), enabled=not args.no_progress)
    with JsonlWriter(args.output) as out:
        for record, doc in read_documents(args.input):
            _result, deid = session.process(doc, ctx,
                                            patient=str(record.get("patient", "default")))
            out.write({"id": record["id"], "text": deid.text,
                       "replacements": [replacement_record(r) for r in deid.replacements]})
            progress.step()
    progress.close()
    return EXIT_OK
