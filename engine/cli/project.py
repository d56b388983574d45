"""`clearnote project create|import|detect|export|status|review-export|review-import` and
`clearnote batch IN_DIR --output-dir OUT --project P.clearnote`. Output: counts and ids,
never PHI."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.api import (
    FORMAT_SUFFIXES,
    DocumentStatus,
    PipelineConfig,
    Project,
    ProjectSink,
    TableSchema,
    default_workers,
    export_project_tables,
    export_review,
    export_table_review,
    import_review,
    read_schema,
    run_files,
)
from engine.cli.common import EXIT_CANCELLED, EXIT_FAILURE, EXIT_OK, report_exit, run_context
from engine.cli.open_work import add_open_work_options, settle
from engine.cli.passphrase import (
    NEW_ENV_VAR,
    add_passphrase_options,
    add_profile_options,
    new_project_passphrase,
    open_project,
    profile_from,
    read_passphrase,
)
from engine.cli.secret_input import add_pdf_password_options, pdf_password
from engine.core.errors import ClearNoteError
from engine.core.files import short_name
from engine.core.labels import SCHEMAS as LABEL_SCHEMAS
from engine.core.messages import display_name, reason_in_words
from engine.core.policies import POLICIES


def _open(args: argparse.Namespace) -> Project:
    return open_project(args)


def _workers(args: argparse.Namespace) -> int:
    return args.workers or default_workers()


def _pipeline(args: argparse.Namespace) -> PipelineConfig:
    ner: dict[str, bool | str] = {"auto": "auto", "on": True, "off": False}
    return PipelineConfig(policy=args.policy, ner=ner[args.ner])


def cmd_create(args: argparse.Namespace) -> int:
    passphrase = new_project_passphrase(args)
    with Project.create(args.project, policy=args.policy, mode=args.mode,
                        pipeline=_pipeline(args), passphrase=passphrase) as project:
        print(f"created {project.path} (policy {project.settings.policy}, "
              f"mode {project.settings.mode.value}, "
              f"{'encrypted' if project.encrypted else 'NOT encrypted'})")
    return EXIT_OK


def cmd_encrypt(args: argparse.Namespace) -> int:
    Project.recover_leftovers(args.project)
    if Project.is_encrypted(args.project):
        print(f"clearnote: {args.project.name} is already encrypted", file=sys.stderr)
        return EXIT_FAILURE
    passphrase = read_passphrase(args.passphrase_file, confirm=True,
                                 prompt=f"New passphrase for {args.project.name}")
    Project.encrypt(args.project, passphrase)
    print(f"encrypted {args.project} (the plain file was overwritten and removed)")
    return EXIT_OK


def cmd_rekey(args: argparse.Namespace) -> int:
    old = read_passphrase(args.passphrase_file,
                          prompt=f"Current passphrase for {args.project.name}")
    new = read_passphrase(args.new_passphrase_file, env_var=NEW_ENV_VAR, confirm=True,
                          prompt=f"New passphrase for {args.project.name}")
    Project.rekey(args.project, old, new)
    print(f"changed the passphrase of {args.project}")
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    with _open(args) as project:
        report = project.import_paths(args.paths, run_context(args), workers=_workers(args),
                                      password=pdf_password(args))
        print(report.summary())
        for failure in report.failed:  # named relative to the inputs given, in words
            print(f"  failed: {display_name(failure.path, args.paths)}: "
                  f"{reason_in_words(failure.reason)}", file=sys.stderr)
        for doc_id in report.needs_review:
            print(f"  needs review: {doc_id}: uncertain text decoding, check the text",
                  file=sys.stderr)
    if report.cancelled:
        return EXIT_CANCELLED
    return EXIT_FAILURE if report.failed else EXIT_OK


def cmd_detect(args: argparse.Namespace) -> int:
    with _open(args) as project:
        if args.ids:
            report = project.detect(args.ids, run_context(args), workers=_workers(args))
        else:  # imported documents, and after `project adapt` every unreviewed one
            report = project.adaptation.redetect(run_context(args), workers=_workers(args))
        print(report.summary())
        _print_failures(project, report.failed)
    return EXIT_FAILURE if report.cancelled else EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    with _open(args) as project:
        ids = args.ids or None
        if args.all_detected:
            ids = [d.id for d in project.documents(status=[
                DocumentStatus.DETECTED, DocumentStatus.REVIEWED, DocumentStatus.EXPORTED])]
        # Open documents (undecided candidates, HIGH CIRE) stop the export before anything
        # is written, tables included; a table has no candidates of its own.
        ids, go = settle(project, ids, args)
        if not go:
            return EXIT_FAILURE
        ctx = run_context(args)
        # Tables first (every table unless ids name documents), then the other documents.
        tables, _others = export_project_tables(project, args.ids or None, args.output_dir,
                                                schema=_schema(args), ctx=ctx)
        done = {e.document_id for e in tables.exported} | {i for i, _ in tables.failed}
        others = None if ids is None else [i for i in ids if i not in done]
        report = project.export(others, out_dir=args.output_dir, formats=args.formats,
                                ctx=ctx, tables=False)
        report = replace(report, exported=tables.exported + report.exported,
                         failed=tables.failed + report.failed)
        print(report.summary())
        print(report.key_notice())
        _print_failures(project, report.failed)
    return EXIT_OK if not report.failed and not report.cancelled else EXIT_FAILURE


def _print_failures(project: Project, failed: Sequence[tuple[str, str]]) -> None:
    """Each failed document by its file's name and id, the problem in words."""
    for doc_id, reason in failed:
        try:
            source = project.document(doc_id).source_path
        except ClearNoteError:  # an id given on the command line that is not in it
            source = ""
        name = f"{short_name(Path(source))} [{doc_id}]" if source else doc_id
        print(f"  failed: {name}: {reason_in_words(reason)}", file=sys.stderr)


def cmd_status(args: argparse.Namespace) -> int:
    with _open(args) as project:
        stats = project.statistics()
        s = project.settings
        print(f"project {project.path}: policy {s.policy}, mode {s.mode.value}, "
              f"detectors {', '.join(s.detectors) or '(none run yet)'}")
        print(f"documents {stats.documents}: " + ", ".join(
            f"{k} {v}" for k, v in sorted(stats.by_status.items())))
        print("spans: " + ", ".join(f"{k} {v}" for k, v in sorted(
            stats.spans_by_status.items())))
        print("active spans by label: " + ", ".join(
            f"{k} {v}" for k, v in sorted(stats.spans_by_label.items())))
        print(f"patients {stats.patients}, surrogates {stats.surrogates}, "
              f"exported files {stats.exports}")
        active = [v for v in project.adaptation.versions() if v.active]
        print(f"learned profile: version {active[0].version} ({active[0].content_version})"
              if active else "learned profile: none (`clearnote project adapt` learns one)")
        if args.failed:
            for d in project.documents():
                if d.reason:
                    print(f"  failed: {d.id}: {d.reason}")
    return EXIT_OK


def cmd_review_export(args: argparse.Namespace) -> int:
    with _open(args) as project:
        files = export_review(project, args.output_dir, fmt=args.format,
                              document_ids=args.ids or None)
        # Tables: each row's free-text cells (decisions on them are not imported back).
        files += export_table_review(project, args.output_dir, fmt=args.format,
                                     document_ids=args.ids or None, schema=_schema(args))
        print(f"wrote {len(files)} file(s) to {args.output_dir} (they contain the original "
              "text: keep them with the originals)")
    return EXIT_OK


def cmd_review_import(args: argparse.Namespace) -> int:
    with _open(args) as project:
        r = import_review(project, args.source, schema=args.schema, unlisted=args.unlisted)
        print(r.summary())
    return EXIT_OK


def cmd_batch(args: argparse.Namespace) -> int:
    if args.project.exists():
        project = open_project(args)
    else:
        project = Project.create(args.project, policy=args.policy, mode=args.mode,
                                 pipeline=_pipeline(args),
                                 passphrase=new_project_passphrase(args))
    with project:
        profile = profile_from(args)
        if profile is not None:  # what another project learned: this project's profile now
            project.adaptation.use_profile(profile)
        sink = ProjectSink(project, formats=args.formats, password=pdf_password(args),
                           table_schema=_schema(args))
        report = run_files(args.inputs, args.output_dir, sink, workers=_workers(args),
                           ctx=run_context(args))
    return report_exit(report)


def _schema(args: argparse.Namespace) -> TableSchema | None:
    return read_schema(args.schema) if args.schema else None


def _schema_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--schema", type=Path, metavar="SCHEMA.csv",
                   help="column roles for the tables (CSV/TSV, Parquet, XLSX) as "
                        "`clearnote table-schema` prints them (default: inferred)")


def _common(p: argparse.ArgumentParser, *, workers: bool = False) -> None:
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    if workers:
        p.add_argument("--workers", type=int, default=0,
                       help="worker processes (default: the machine's cores)")


def _new_project_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--policy", default="strict", choices=sorted(POLICIES))
    p.add_argument("--mode", default="surrogate", choices=["surrogate", "tag", "redact"])
    p.add_argument("--ner", default="auto", choices=["auto", "on", "off"],
                   help="the NER model (auto: when installed)")


def register(subparsers: Any) -> Any:
    """Register `project` and `batch`; returns the `project` actions' subparsers (more
    actions come from engine.cli.adapt, see engine.cli.main.ACTION_GROUPS)."""
    formats = sorted(FORMAT_SUFFIXES)
    proj = subparsers.add_parser("project", help="work with a project file (*.clearnote)")
    sub = proj.add_subparsers(dest="project_command", metavar="ACTION", required=True)

    p = sub.add_parser("create", help="create a project file (encrypted unless "
                                      "--no-encryption)")
    p.add_argument("project", type=Path)
    _new_project_options(p)
    add_passphrase_options(p, new_project=True)
    p.set_defaults(func=cmd_create)

    p = sub.add_parser("encrypt", help="encrypt a plain project in place (the plain copy is "
                                       "overwritten and removed)")
    p.add_argument("project", type=Path)
    add_passphrase_options(p)
    p.set_defaults(func=cmd_encrypt)

    p = sub.add_parser("rekey", help="change an encrypted project's passphrase")
    p.add_argument("project", type=Path)
    add_passphrase_options(p, rekey=True)
    p.set_defaults(func=cmd_rekey)

    p = sub.add_parser("import", help="import files or folders (deduplicated by hash)")
    p.add_argument("project", type=Path)
    p.add_argument("paths", nargs="+", type=Path)
    add_pdf_password_options(p)
    _common(p, workers=True)
    add_passphrase_options(p)
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("detect", help="detect PHI in imported documents and, after `project "
                                      "adapt`, re-detect the unreviewed ones (or the given ids)")
    p.add_argument("project", type=Path)
    p.add_argument("--ids", nargs="*", help="re-detect these documents")
    _common(p, workers=True)
    add_passphrase_options(p)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("export", help="export reviewed documents (or the given ids)")
    p.add_argument("project", type=Path)
    p.add_argument("--output-dir", type=Path, required=True)
    p.add_argument("--ids", nargs="*")
    p.add_argument("--all-detected", action="store_true",
                   help="also documents nobody reviewed (candidates are replaced)")
    p.add_argument("--formats", nargs="+", choices=formats)
    add_open_work_options(p)
    _schema_option(p)
    _common(p)
    add_passphrase_options(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("status", help="counts by status, label; settings")
    p.add_argument("project", type=Path)
    p.add_argument("--failed", action="store_true", help="list failed documents")
    add_passphrase_options(p)
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("review-export", help="candidates to BRAT or JSONL for review, or a "
                                             "review copy of each PDF/scan (pdf)")
    p.add_argument("project", type=Path)
    p.add_argument("--output-dir", type=Path, required=True)
    p.add_argument("--format", default="brat", choices=["brat", "jsonl", "pdf"],
                   help="pdf: <document id>.review.pdf per PDF or scanned document, the "
                        "original pages with the page view's highlight boxes and a legend")
    p.add_argument("--ids", nargs="*")
    _schema_option(p)
    add_passphrase_options(p)
    p.set_defaults(func=cmd_review_export)

    p = sub.add_parser("review-import", help="apply decisions from BRAT folder / JSONL")
    p.add_argument("project", type=Path)
    p.add_argument("source", type=Path, help="BRAT folder (<id>.ann) or review.jsonl")
    p.add_argument("--schema", default="clearnote", choices=sorted(LABEL_SCHEMAS),
                   help="the labels' schema (default: ClearNote's labels)")
    p.add_argument("--unlisted", default="keep", choices=["keep", "reject"],
                   help="active spans a file does not list: keep their state (default) or "
                        "reject them (their text is then exported as it is)")
    add_passphrase_options(p)
    p.set_defaults(func=cmd_review_import)

    p = subparsers.add_parser(
        "batch", help="import, detect and export a folder through a project (resumable)",
        description="Re-run the same command after a crash or Ctrl-C to finish the rest.")
    p.add_argument("inputs", nargs="+", type=Path, metavar="IN_DIR")
    p.add_argument("--output-dir", type=Path, required=True)
    p.add_argument("--project", type=Path, required=True, help="P.clearnote (created if new)")
    p.add_argument("--formats", nargs="+", choices=formats)
    _schema_option(p)
    add_pdf_password_options(p)
    _new_project_options(p)
    add_passphrase_options(p, new_project=True)
    add_profile_options(p)
    _common(p, workers=True)
    p.set_defaults(func=cmd_batch)
    return sub
