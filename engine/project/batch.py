"""``clearnote batch``: import → detect → export for a folder, detection in worker
processes (``engine.parallel``), store and export on one thread of the parent, overlapping
detection. Resumable after a crash: every step is recorded in the project only after it is
complete, outputs are named by the stable document id and written through temp files, so
re-running finishes what is left."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.context import RunContext
from engine.core.errors import CancelledError, ClearNoteError
from engine.core.files import file_sha256, os_reason, path_id, private_dir, short_name
from engine.ingest.discover import check_output_dir, discover_inputs
from engine.parallel import (
    ProgressMeter,
    WorkItem,
    WorkResult,
    default_workers,
    error_reason,
    run_parallel,
)
from engine.project.export import WriteGroup
from engine.store.records import DocumentStatus

if TYPE_CHECKING:
    from engine.project.facade import Project

log = logging.getLogger(__name__)


@dataclass
class BatchReport:
    inputs: int = 0
    skipped: int = 0  # already exported earlier (resumed run)
    exported: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (document id, reason)
    duplicates: int = 0
    # (short name of the left-out file, what it duplicates: short name and id of the kept)
    duplicate_of: list[tuple[str, str]] = field(default_factory=list)
    cancelled: bool = False
    seconds: float = 0.0
    report_csv: Path | None = None  # report.csv in the output folder (no source names)
    cire_high: int = 0  # high-severity CIRE flags over the documents exported in this run

    def summary(self) -> str:
        rate = self.exported / self.seconds if self.seconds > 0 else 0.0
        return (f"{self.inputs} input(s): exported {self.exported}, already done "
                f"{self.skipped}, duplicates {self.duplicates}, failed {len(self.failed)}, "
                f"CIRE high flags {self.cire_high} "
                f"in {self.seconds:.1f}s ({rate:.1f} docs/s)"
                + (" (cancelled)" if self.cancelled else ""))


def run_batch(project: Project, inputs: list[Path], out_dir: Path, *,
              workers: int | None = None, formats: tuple[str, ...] | None = None,
              password: str | None = None, ctx: RunContext | None = None,
              on_exported: Callable[[str], None] | None = None) -> BatchReport:
    """Import, detect and export every supported file under ``inputs`` into ``out_dir``."""
    ctx = ctx or RunContext()
    started = time.monotonic()
    workers = workers or default_workers()
    check_output_dir(inputs, out_dir)
    found = discover_inputs(inputs)
    files = found.files
    private_dir(out_dir)
    project.clean_temp_files(out_dir)
    report = BatchReport(inputs=len(files) + len(found.skipped))
    # Inputs that are not read get an answer too (links, FIFOs, unreadable files), named
    # by an id of their path and their short name, never the path.
    report.failed += [(path_id(s.path), f"{short_name(s.path)}: {s.reason}")
                      for s in found.skipped]

    known = {d.sha256: d for d in project.documents()}
    items: list[WorkItem] = []
    to_export: list[str] = []
    seen: dict[str, Path] = {}
    for path in files:
        ctx.check()
        try:
            sha = file_sha256(path)
        except OSError as exc:  # permission denied, vanished since discovery
            report.failed.append((path_id(path),
                                  f"{short_name(path)}: cannot read ({os_reason(exc)})"))
            continue
        doc_id = project.document_id_for(sha)  # stable: resumed runs write the same file names
        if sha in seen:
            report.duplicates += 1
            report.duplicate_of.append(
                (short_name(path), f"{short_name(seen[sha])} [{doc_id}]"))
            continue
        seen[sha] = path
        record = known.get(sha)
        if record is None:
            items.append(WorkItem(doc_id, path=str(path), sha256=sha, password=password))
        elif record.status is DocumentStatus.FAILED:
            report.failed.append((record.id, record.reason or "failed"))
        elif record.status is DocumentStatus.IMPORTED:
            items.append(WorkItem(record.id, document=project.load_document(record.id)))
        elif record.status is DocumentStatus.EXPORTED and \
                project.export_files_exist(record.id, out_dir, formats):
            report.skipped += 1
        else:
            to_export.append(record.id)

    meter = ProgressMeter(ctx, "batch", len(items) + len(to_export))

    def tally(doc_id: str, error: str | None, high: int = 0) -> None:
        if error is None:
            report.exported += 1
            report.cire_high += high
            if on_exported is not None:
                on_exported(doc_id)
        else:
            report.failed.append((doc_id, error))
        meter.step(failed=error is not None)

    store = StoreThread(project, out_dir, formats)
    try:
        for doc_id in to_export:  # detected before the crash, not yet exported
            ctx.check()
            exported = project.export([doc_id], out_dir=out_dir, formats=formats,
                                      report=False)
            tally(doc_id, exported.failed[0][1] if exported.failed else None,
                  exported.cire_high)
        store.start()
        for result in run_parallel(items, total=len(items), workers=workers,
                                   services=project.services,
                                   session_config=project.session_config(),
                                   session=project.session, ctx=ctx):
            store.put(result)
            for outcome in store.outcomes():
                tally(*outcome)
    except (CancelledError, KeyboardInterrupt):
        report.cancelled = True
    finally:
        try:  # documents handed to the store thread are finished and committed
            for outcome in store.close():
                tally(*outcome)
        finally:
            report.report_csv = project.write_report_csv(out_dir)
            report.seconds = time.monotonic() - started
    return report


class StoreThread:
    """Stores and exports worker results on one thread of the parent, in order, while
    the next documents are detected (ONNX inference releases the GIL, so the store's cost
    overlaps detection instead of adding to it). Documents are committed in groups
    (``Project.write_group``); an outcome is handed back only once committed, so what
    the batch reports as exported is in the project. At most two results wait, so
    memory stays flat."""

    _STOP = object()

    def __init__(self, project: Project, out_dir: Path, formats: tuple[str, ...] | None
                 ) -> None:
        self.project, self.out_dir, self.formats = project, out_dir, formats
        self._inbox: queue.Queue[Any] = queue.Queue(maxsize=2)
        self._outbox: queue.Queue[tuple[str, str | None, int]] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="clearnote-store",
                                        daemon=True)
        self._error: BaseException | None = None

    def start(self) -> None:
        self._thread.start()

    def put(self, result: WorkResult) -> None:
        while True:
            self._raise_if_failed()
            try:
                self._inbox.put(result, timeout=0.1)
                return
            except queue.Full:
                continue

    def outcomes(self) -> list[tuple[str, str | None, int]]:
        """Committed outcomes so far: (document id, None, CIRE high flags) or (id,
        failure reason, 0)."""
        out: list[tuple[str, str | None, int]] = []
        while True:
            try:
                out.append(self._outbox.get_nowait())
            except queue.Empty:
                self._raise_if_failed()
                return out

    def close(self) -> list[tuple[str, str | None, int]]:
        """Finish the queued documents, commit, stop; the remaining outcomes."""
        if self._thread.is_alive():
            self._inbox.put(self._STOP)
            self._thread.join()
        return self.outcomes()

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        done: list[tuple[str, str | None, int]] = []
        try:
            with self.project.write_group() as group:
                while True:
                    try:
                        item = self._inbox.get(timeout=group.seconds_left())
                    except queue.Empty:  # the group is due by time and nothing waits
                        item = None
                    if item is self._STOP:
                        break
                    if item is not None:
                        done.append(self._store(group, item))
                    if group.due:
                        group.commit()
                        self._hand_back(done)
            self._hand_back(done)  # committed as the group closed
        except BaseException as exc:  # noqa: BLE001 - re-raised in the batch's thread
            self._error = exc

    def _hand_back(self, done: list[tuple[str, str | None, int]]) -> None:
        for outcome in done:
            self._outbox.put(outcome)
        done.clear()

    def _store(self, group: WriteGroup, result: WorkResult) -> tuple[str, str | None, int]:
        doc_id = result.item.document_id
        try:
            exported = group.record_and_export(result, self.out_dir, self.formats)
        except (ClearNoteError, OSError) as exc:  # detected, not exported: go on
            log.warning("document %s export failed: %s", doc_id, type(exc).__name__)
            return doc_id, error_reason(exc), 0
        if exported is None:
            return doc_id, result.error or "failed", 0
        return doc_id, None, exported.cire_high
