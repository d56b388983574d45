"""The one driver for running files: check the output folder, discover the inputs, derive
each one's id, leave out duplicates, detect in worker processes (``engine.parallel``), hand
each result to a sink (a folder, a project) that de-identifies and writes it, honour
cancellation, and write report.csv and the key, whatever happened before.

The steps that differ between sinks are the sink's (``Sink``): how an id is derived, what
an earlier run already did, where the outputs and the key go.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal, Protocol

from engine.core.context import RunContext
from engine.core.errors import CancelledError, ExportError
from engine.core.files import file_sha256, os_reason, path_id, private_dir
from engine.core.messages import problem_in_words
from engine.exporters.reports import is_key_file
from engine.ingest.discover import check_output_dir, discover_inputs
from engine.parallel import ProgressMeter, WorkItem, WorkResult, default_workers, run_parallel
from engine.runs.outcome import FileOutcome, RunReport, Status

log = logging.getLogger(__name__)

# A plan: the sink does this input itself, in this process, before the workers' results
# (a project's stored document, written out; a table, streamed row by row).
STORED: Literal["stored"] = "stored"


class Finisher(Protocol):
    """Takes worker results and hands back the outcomes it has finished."""

    def put(self, result: WorkResult, outcome: FileOutcome) -> None: ...

    def finished(self) -> list[FileOutcome]: ...

    def close(self) -> list[FileOutcome]: ...


class Sink(Protocol):
    stage: str

    @property
    def services(self) -> Any: ...  # engine.parallel.WorkerServices

    @property
    def session_config(self) -> Any: ...

    @property
    def session(self) -> Any: ...

    def check(self, inputs: list[Path], out_dir: Path) -> None:
        """Refuse bad options before anything is written."""

    def open(self, out_dir: Path) -> None:
        """The output folder exists: clean what a killed run left."""

    def document_id_for(self, sha256_hex: str) -> str: ...

    def plan(self, outcome: FileOutcome, sha256_hex: str) -> WorkItem | Literal["stored"] | None:
        """What this input needs: a worker's item, the sink's own work in this process
        (``STORED``), or nothing (``None``: the sink settled the outcome)."""

    def write_stored(self, outcome: FileOutcome, out_dir: Path, ctx: RunContext) -> None: ...

    def finisher(self, out_dir: Path, ctx: RunContext) -> Finisher: ...

    def write_report(self, report: RunReport, out_dir: Path) -> Path: ...

    def write_key(self, report: RunReport) -> None:
        """Write the key (or say where it is: ``report.key_notice``)."""


def run_files(inputs: list[Path], out_dir: Path, sink: Sink, *, workers: int | None = None,
              ctx: RunContext | None = None,
              on_finished: Callable[[FileOutcome], None] | None = None) -> RunReport:
    """Run every supported file under ``inputs`` through ``sink`` into ``out_dir``."""
    ctx = ctx or RunContext()
    started = time.monotonic()
    sink.check(inputs, out_dir)
    check_output_dir(inputs, out_dir)
    found = discover_inputs(inputs)
    private_dir(out_dir)
    sink.open(out_dir)
    report = RunReport(roots=list(inputs), out_dir=out_dir)
    for skipped in found.skipped:
        report.outcomes.append(FileOutcome(path_id(skipped.path), skipped.path)
                               .fail(skipped.reason))
    pending: dict[str, FileOutcome] = {}  # document id -> outcome not yet settled
    try:
        items, stored = _plan(found.files, sink, report, pending, ctx)
        meter = ProgressMeter(ctx, sink.stage, len(items) + len(stored))

        def settle(outcome: FileOutcome) -> None:
            pending.pop(outcome.document_id, None)
            meter.step(failed=outcome.status == Status.FAILED)
            if on_finished is not None:
                on_finished(outcome)

        for outcome in stored:  # the sinks' own work, one at a time
            ctx.check()
            sink.write_stored(outcome, out_dir, ctx)
            settle(outcome)
        _run_workers(items, sink, out_dir, pending, settle, workers, ctx)
    except (CancelledError, KeyboardInterrupt):
        report.cancelled = True
    finally:
        for outcome in pending.values():
            outcome.not_run()
        report.cancelled = report.cancelled or any(
            o.status == Status.NOT_RUN for o in report.outcomes)
        _write_run_files(report, sink, out_dir)
        report.seconds = time.monotonic() - started
    return report


def _plan(files: list[Path], sink: Sink, report: RunReport, pending: dict[str, FileOutcome],
          ctx: RunContext
          ) -> tuple[list[WorkItem], list[FileOutcome]]:
    """Each input's id and what it needs; duplicates (same content) are left out."""
    items: list[WorkItem] = []
    stored: list[FileOutcome] = []
    first: dict[str, FileOutcome] = {}  # sha256 -> the input kept
    for path in (p for p in files if not is_key_file(p)):  # earlier runs' keys
        try:
            sha = file_sha256(path)
        except OSError as exc:  # permission denied, vanished since discovery
            report.outcomes.append(FileOutcome(path_id(path), path)
                                   .fail(f"cannot read ({os_reason(exc)})"))
            continue
        outcome = FileOutcome(sink.document_id_for(sha), path)
        report.outcomes.append(outcome)
        kept = first.get(sha)
        if kept is not None:
            outcome.status, outcome.duplicate_of = Status.DUPLICATE, kept
            outcome.reason = f"same content as {kept.document_id}"
            continue
        first[sha] = outcome
        pending[outcome.document_id] = outcome
        if ctx.cancel.cancelled:
            continue  # left pending: not run
        plan = sink.plan(outcome, sha)
        if plan is None:
            pending.pop(outcome.document_id)
        elif plan == STORED:
            stored.append(outcome)
        else:
            items.append(plan)
    ctx.check()
    return items, stored


def _run_workers(items: list[WorkItem], sink: Sink, out_dir: Path,
                 pending: dict[str, FileOutcome], settle: Callable[[FileOutcome], None],
                 workers: int | None, ctx: RunContext) -> None:
    finisher = sink.finisher(out_dir, ctx)
    try:
        for result in run_parallel(items, total=len(items),
                                   workers=workers or default_workers(),
                                   services=sink.services, session_config=sink.session_config,
                                   session=sink.session, ctx=ctx, ordered=True):
            finisher.put(result, pending[result.item.document_id])
            _settle_all(finisher.finished(), settle)
    finally:  # results handed to the finisher are finished (and, in a project, committed)
        _settle_all(finisher.close(), settle)


def _settle_all(outcomes: Iterable[FileOutcome], settle: Callable[[FileOutcome], None]
                ) -> None:
    for outcome in outcomes:
        settle(outcome)


def _write_run_files(report: RunReport, sink: Sink, out_dir: Path) -> None:
    """The key, then report.csv. One that cannot be written (a full disk) does not hide
    the other, nor the summary: the report says what is missing and the run fails."""
    try:
        sink.write_key(report)
    except (OSError, ExportError) as exc:
        log.warning("the key file could not be written: %s", type(exc).__name__)
        report.unwritten.append(f"the re-identification key ({_why(exc)})")
    try:
        report.report_csv = sink.write_report(report, out_dir)
    except (OSError, ExportError) as exc:
        log.warning("report.csv could not be written: %s", type(exc).__name__)
        report.unwritten.append(f"report.csv in the output folder ({_why(exc)}); the "
                                "summary here stands in for it")


def _why(exc: BaseException) -> str:
    cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else exc
    return problem_in_words(cause)
