"""Parallel document work for projects: load and detect in worker processes (the detectors
are CPU-bound Python, so threads would share one core), store and export on one thread of
the parent, overlapping detection.

``run_parallel`` maps a work function over items with a bounded queue, progress (counts,
rate, ETA; never document content) and cancellation. ``run_batch`` is
``clearnote batch``: import → detect → export for a folder, resumable after a crash: every
step is recorded in the project only after it is complete, outputs are named by the stable
document id and written through temp files, so re-running finishes what is left.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.context import RunContext
from engine.core.domain import DetectionResult, Document
from engine.core.errors import CancelledError, ClearNoteError, InputError

if TYPE_CHECKING:
    from engine.project import Project, Services, WriteGroup

log = logging.getLogger(__name__)


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


# ----------------------------------------------------------------------------- progress


class ProgressMeter:
    """Counts, rate and ETA for ``RunContext.report``: ``"120/300 docs, 8.1/s, ETA 22s"``."""

    def __init__(self, ctx: RunContext, stage: str, total: int) -> None:
        self.ctx, self.stage, self.total = ctx, stage, total
        self.done = 0
        self.failed = 0
        self.started = time.monotonic()

    def step(self, *, failed: bool = False) -> None:
        self.done += 1
        self.failed += int(failed)
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / elapsed
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        extra = f", {self.failed} failed" if self.failed else ""
        self.ctx.report(self.stage, self.done, self.total,
                        f"{self.done}/{self.total} docs{extra}, {rate:.1f}/s, ETA {eta:.0f}s")


# ----------------------------------------------------------------------------- workers


@dataclass(frozen=True)
class WorkItem:
    document_id: str
    path: str | None = None  # load this file ...
    document: Document | None = None  # ... or detect this stored document
    sha256: str = ""
    password: str | None = None
    detect: bool = True


@dataclass(frozen=True)
class WorkResult:
    item: WorkItem
    document: Document | None = None
    result: DetectionResult | None = None
    error: str | None = None  # "ErrorType: problem", never PHI
    load_failed: bool = False
    seconds: float = 0.0


@dataclass
class _WorkerState:
    services: Services | None = None
    session_config: Any = None
    session: Any = None


_STATE = _WorkerState()


def _init_worker(services: Services, session_config: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and cancels
    _STATE.services, _STATE.session_config, _STATE.session = services, session_config, None


def use_session_in_process(services: Services, session_config: Any, session: Any) -> None:
    _STATE.services, _STATE.session_config, _STATE.session = services, session_config, session


def error_reason(exc: BaseException) -> str:
    """A reason safe to store and log: the error type and, for input errors, the problem
    (never the file name, which may hold a patient's name, nor document text)."""
    if isinstance(exc, InputError):
        return f"{type(exc).__name__}: {exc.problem}"
    if isinstance(exc, ClearNoteError):
        return f"{type(exc).__name__}: {exc}"
    return type(exc).__name__


def process_item(item: WorkItem) -> WorkResult:
    """Load (if needed) and detect one document. Runs in a worker or in-process."""
    assert _STATE.services is not None
    started = time.perf_counter()
    doc = item.document
    if doc is None:
        try:
            loaded = _STATE.services.loader(Path(item.path or ""), password=item.password)
            doc = Document(**{**{n: getattr(loaded, n) for n in loaded.__dataclass_fields__},
                              "id": item.document_id, "source_path": item.path})
        except Exception as exc:  # noqa: BLE001 - recorded as the document's failure
            return WorkResult(item, error=error_reason(exc), load_failed=True,
                              seconds=time.perf_counter() - started)
    if not item.detect:
        return WorkResult(item, document=doc, seconds=time.perf_counter() - started)
    try:
        if _STATE.session is None:
            _STATE.session = _STATE.services.session_factory(_STATE.session_config, None)
        result = _STATE.session.detect(doc)
    except CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - fail closed: the document fails, batch goes on
        return WorkResult(item, document=doc, error=error_reason(exc),
                          seconds=time.perf_counter() - started)
    return WorkResult(item, document=doc, result=result,
                      seconds=time.perf_counter() - started)


def run_parallel(items: Iterable[WorkItem], *, total: int, workers: int, services: Services,
                 session_config: Any, session: Any, ctx: RunContext
                 ) -> Iterator[WorkResult]:
    """Yield results as they complete. ``workers <= 1`` runs in this process with
    ``session``; more start a process pool (spawned: no inherited DB handles or threads).
    On cancellation the pool is shut down and ``CancelledError`` raised."""
    if workers <= 1 or total <= 1:
        use_session_in_process(services, session_config, session)
        for item in items:
            ctx.check()
            yield process_item(item)
        return
    session_config = _one_thread_each(session_config)
    pool = ProcessPoolExecutor(max_workers=min(workers, total),
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init_worker, initargs=(services, session_config))
    pending: set[Future[WorkResult]] = set()
    source = iter(items)
    exhausted = False
    try:
        while True:
            # A short queue: cancellation is quick and memory stays flat on big batches.
            while not exhausted and len(pending) < 2 * workers:
                item = next(source, None)
                if item is None:
                    exhausted = True
                    break
                pending.add(pool.submit(process_item, item))
            if not pending:
                return
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
            ctx.check()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _one_thread_each(config: Any) -> Any:
    """Worker processes already use every core: an ONNX runtime per worker that also
    spreads over all cores oversubscribes the machine (measured slower than 1 worker)."""
    from dataclasses import replace

    pipeline = getattr(config, "pipeline", None)
    if pipeline is None or getattr(pipeline, "ner_threads", 0) is not None:
        return config
    return replace(config, pipeline=replace(pipeline, ner_threads=1))


# ----------------------------------------------------------------------------- batch


@dataclass
class BatchReport:
    inputs: int = 0
    skipped: int = 0  # already exported earlier (resumed run)
    exported: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (document id, reason)
    duplicates: int = 0
    cancelled: bool = False
    seconds: float = 0.0
    mapping_csv: Path | None = None

    def summary(self) -> str:
        rate = self.exported / self.seconds if self.seconds > 0 else 0.0
        return (f"{self.inputs} input(s): exported {self.exported}, already done "
                f"{self.skipped}, duplicates {self.duplicates}, failed {len(self.failed)} "
                f"in {self.seconds:.1f}s ({rate:.1f} docs/s)"
                + (" (cancelled)" if self.cancelled else ""))


def run_batch(project: Project, inputs: list[Path], out_dir: Path, *,
              workers: int | None = None, formats: tuple[str, ...] | None = None,
              password: str | None = None, ctx: RunContext | None = None,
              on_exported: Callable[[str], None] | None = None) -> BatchReport:
    """Import, detect and export every supported file under ``inputs`` into ``out_dir``."""
    from engine.deid_files import check_output_dir, collect_inputs
    from engine.store.records import DocumentStatus

    ctx = ctx or RunContext()
    started = time.monotonic()
    workers = workers or default_workers()
    check_output_dir(inputs, out_dir)
    files = collect_inputs(inputs)
    out_dir.mkdir(parents=True, exist_ok=True)
    project.clean_temp_files(out_dir)
    report = BatchReport(inputs=len(files))

    known = {d.sha256: d for d in project.documents()}
    items: list[WorkItem] = []
    to_export: list[str] = []
    seen: set[str] = set()
    for path in files:
        ctx.check()
        sha = project.file_sha256(path)
        doc_id = sha[:16]  # stable: resumed runs write the same file names
        if sha in seen:
            report.duplicates += 1
            continue
        seen.add(sha)
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

    def tally(doc_id: str, error: str | None) -> None:
        if error is None:
            report.exported += 1
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
                                      mapping=False)
            tally(doc_id, exported.failed[0][1] if exported.failed else None)
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
            report.mapping_csv = project.write_mapping_csv(out_dir)
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
        self._outbox: queue.Queue[tuple[str, str | None]] = queue.Queue()
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

    def outcomes(self) -> list[tuple[str, str | None]]:
        """Committed outcomes so far: (document id, None) or (id, failure reason)."""
        out: list[tuple[str, str | None]] = []
        while True:
            try:
                out.append(self._outbox.get_nowait())
            except queue.Empty:
                self._raise_if_failed()
                return out

    def close(self) -> list[tuple[str, str | None]]:
        """Finish the queued documents, commit, stop; the remaining outcomes."""
        if self._thread.is_alive():
            self._inbox.put(self._STOP)
            self._thread.join()
        return self.outcomes()

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        done: list[tuple[str, str | None]] = []
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

    def _hand_back(self, done: list[tuple[str, str | None]]) -> None:
        for outcome in done:
            self._outbox.put(outcome)
        done.clear()

    def _store(self, group: WriteGroup, result: WorkResult) -> tuple[str, str | None]:
        doc_id = result.item.document_id
        try:
            exported = group.record_and_export(result, self.out_dir, self.formats)
        except (ClearNoteError, OSError) as exc:  # detected, not exported: go on
            log.warning("document %s export failed: %s", doc_id, type(exc).__name__)
            return doc_id, error_reason(exc)
        return doc_id, None if exported is not None else (result.error or "failed")
