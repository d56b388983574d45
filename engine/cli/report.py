"""`clearnote project report P --output report.html`: the de-identification report for an
IRB or a data-protection officer (issue 27): policy, detectors and models with their
sha256, spans by label, reviewer decisions, CIRE flags, what is still open, exports with
their outputs' sha256 and verification, what the project learned, the audit log. One
self-contained HTML page; ids and counts only, never PHI or file names.

``api.write_report`` is read when the command runs: every `clearnote project` action
registers this module, and the report's reads (model manifests) must not slow them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from engine import api
from engine.cli.common import EXIT_OK, run_context
from engine.cli.passphrase import add_passphrase_options, open_project
from engine.core.errors import UsageError


def cmd_report(args: argparse.Namespace) -> int:
    out: Path = args.output
    if out.is_dir():
        raise UsageError(f"{out}: is a folder; give the report's file name (report.html)")
    if out.resolve() == args.project.resolve():
        raise UsageError(f"{out}: that is the project file; choose another name")
    with open_project(args) as project:
        written = api.write_report(project, out, run_context(args))
        documents = project.statistics().documents
    print(f"wrote {written} ({documents} document(s); ids and counts only, no PHI)")
    return EXIT_OK


def register(subparsers: Any) -> None:
    """`project report` (registered by engine.cli.main under `project`)."""
    p = subparsers.add_parser("report", help="a de-identification report (HTML) for an IRB "
                                             "or data-protection officer: no PHI")
    p.add_argument("project", type=Path)
    p.add_argument("--output", type=Path, required=True, metavar="REPORT.html")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    add_passphrase_options(p)
    p.set_defaults(func=cmd_report)
