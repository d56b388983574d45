"""`clearnote project export` asks, as the desktop does: documents about to go out with
undecided candidates or HIGH CIRE flags are listed with their counts, and the export is
refused unless ``--reviewed-only`` (export the settled ones; the open ones left out are
audited) or ``--anyway`` (export them all; the choice is audited per document)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.api import Project
from engine.core.errors import ClearNoteError
from engine.core.files import short_name


def add_open_work_options(parser: argparse.ArgumentParser) -> None:
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--reviewed-only", action="store_true",
                        help="when documents still have undecided candidates or HIGH CIRE "
                             "flags, export only the others (the choice is audited)")
    choice.add_argument("--anyway", action="store_true",
                        help="export documents with undecided candidates or HIGH CIRE "
                             "flags too (the choice is audited per document)")


def settle(project: Project, ids: Sequence[str] | None, args: argparse.Namespace
           ) -> tuple[list[str] | None, bool]:
    """The ids to export and whether to go on: (ids, False) when open documents remain and
    neither option was given (they are listed on stderr)."""
    plan = project.export_plan(ids)
    if not plan.open:
        return (list(ids) if ids is not None else None), True
    undecided = sum(w.undecided for w in plan.open)
    high = sum(w.cire_high for w in plan.open)
    print(f"{len(plan.open)} of {len(plan.document_ids)} document(s) to export are still "
          f"open: {undecided} undecided candidate(s), {high} HIGH CIRE flag(s)",
          file=sys.stderr)
    for w in plan.open:
        print(f"  {_name(project, w.document_id)}: {w.undecided} undecided, "
              f"{w.cire_high} HIGH CIRE", file=sys.stderr)
    if args.anyway:
        project.record_export_anyway(plan.open, via="cli")
        print("exporting them anyway (--anyway; recorded in the audit log)", file=sys.stderr)
        return list(plan.document_ids), True
    if args.reviewed_only:
        project.record_export_settled_only(plan.open, via="cli")
        print(f"exporting the {len(plan.settled)} settled document(s) only (--reviewed-only; "
              "the others are recorded in the audit log)", file=sys.stderr)
        return list(plan.settled), True
    print("nothing exported: review them, or choose --reviewed-only (export the settled "
          "ones) or --anyway (export all, recorded in the audit log)", file=sys.stderr)
    return None, False


def _name(project: Project, doc_id: str) -> str:
    try:
        source = project.document(doc_id).source_path
    except ClearNoteError:
        source = ""
    return f"{short_name(Path(source))} [{doc_id}]" if source else doc_id
