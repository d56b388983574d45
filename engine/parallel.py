"""Parallel document work: load and detect in worker processes (the detectors are
CPU-bound Python, so threads would share one core), with a bounded queue, progress (counts,
rate, ETA; never document content) and cancellation. The caller stores the results."""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from engine.core.context import RunContext, rate_and_eta
from engine.core.domain import DetectionResult, Document
from engine.core.errors import CancelledError, ClearNoteError, ExportError, InputError
from engine.core.messages import problem_in_words

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
        rate, eta = rate_and_eta(self.done, self.total, self.started)
        extra = f", {self.failed} failed" if self.failed else ""
        self.ctx.report(self.stage, self.done, self.total,
                        f"{self.done}/{self.total} docs{extra}, {rate:.1f}/s, ETA {eta or 0:.0f}s")


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
    problem: str | None = None  # the same in words, for the person (no type, no path)
    load_failed: bool = False
    seconds: float = 0.0


class WorkerServices(Protocol):
    """What a worker needs of a project's services (``engine.project.Services``)."""

    @property
    def loader(self) -> Callable[..., Document]: ...

    @property
    def session_factory(self) -> Callable[[Any, Any | None], Any]: ...


@dataclass
class _WorkerState:
    services: WorkerServices | None = None
    session_config: Any = None
    session: Any = None


_STATE = _WorkerState()


def _init_worker(services: WorkerServices, session_config: Any, parent_pid: int) -> None:
    # The arguments arrive pickled through the spawn pipe, never in argv or the
    # environment (the session config holds the project's surrogate secret).
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and cancels
    exit_with_parent(parent_pid)
    _STATE.services, _STATE.session_config, _STATE.session = services, session_config, None


PR_SET_PDEATHSIG = 1
WATCHDOG_SECONDS = 1.0


def exit_with_parent(parent_pid: int) -> None:
    """Make this worker die with the process that started it, whatever kills the parent
    (a SIGKILL gives it no chance to stop the pool). Linux: the kernel sends SIGKILL when
    the parent exits (``prctl(PR_SET_PDEATHSIG)``). Everywhere, also: a watchdog thread
    that exits once the parent is gone (the spawn pipe's end of file, or a new ppid)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
                log.debug("prctl(PR_SET_PDEATHSIG) failed: errno %d", ctypes.get_errno())
        except (OSError, AttributeError):
            log.debug("prctl unavailable; the watchdog thread alone watches the parent")
    if _parent_gone(parent_pid):  # it died before the death signal was armed
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="clearnote-watchdog",
                     daemon=True).start()


def _parent_gone(parent_pid: int) -> bool:
    # The spawn pipe's sentinel reads EOF once the parent is gone (portable, Windows
    # included, where a process is never re-parented).
    parent = multiprocessing.parent_process()
    if parent is not None and not parent.is_alive():
        return True
    return sys.platform != "win32" and os.getppid() != parent_pid


def _watch_parent(parent_pid: int) -> None:
    while not _parent_gone(parent_pid):
        time.sleep(WATCHDOG_SECONDS)
    os._exit(1)  # nothing to clean up: the parent stores every result


def use_session_in_process(services: WorkerServices, session_config: Any, session: Any) -> None:
    _STATE.services, _STATE.session_config, _STATE.session = services, session_config, session


def error_reason(exc: BaseException) -> str:
    """A reason safe to store and log: the error type and, for input errors, the problem
    (never the file name, which may hold a patient's name, nor document text)."""
    if isinstance(exc, InputError):
        return f"{type(exc).__name__}: {exc.problem}"
    if isinstance(exc, ExportError) and isinstance(exc.__cause__, OSError):
        return f"{type(exc).__name__}: {problem_in_words(exc)}"  # not the output's path
    if isinstance(exc, ClearNoteError):
        return f"{type(exc).__name__}: {exc}"
    return type(exc).__name__


def process_item(item: WorkItem, ctx: RunContext | None = None) -> WorkResult:
    """Load (if needed) and detect one document. Runs in a worker or in-process; in
    process, ``ctx`` lets Ctrl-C stop the document in progress."""
    assert _STATE.services is not None
    started = time.perf_counter()
    doc = item.document
    if doc is None:
        try:
            loaded = _STATE.services.loader(Path(item.path or ""), password=item.password)
            doc = Document(**{**{n: getattr(loaded, n) for n in loaded.__dataclass_fields__},
                              "id": item.document_id, "source_path": item.path})
        except Exception as exc:  # noqa: BLE001 - recorded as the document's failure
            return WorkResult(item, error=error_reason(exc), problem=problem_in_words(exc),
                              load_failed=True,
                              seconds=time.perf_counter() - started)
    if not item.detect:
        return WorkResult(item, document=doc, seconds=time.perf_counter() - started)
    try:
        if _STATE.session is None:
            _STATE.session = _STATE.services.session_factory(_STATE.session_config, None)
        result = _STATE.session.detect(doc, ctx)
    except CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - fail closed: the document fails, batch goes on
        return WorkResult(item, document=doc, error=error_reason(exc),
                          problem=problem_in_words(exc), seconds=time.perf_counter() - started)
    return WorkResult(item, document=doc, result=result,
                      seconds=time.perf_counter() - started)


ORDERED_WINDOW = 4  # in-flight documents per worker when results are wanted in order


def run_parallel(items: Iterable[WorkItem], *, total: int, workers: int,
                 services: WorkerServices,
                 session_config: Any, session: Any, ctx: RunContext,
                 ordered: bool = False) -> Iterator[WorkResult]:
    """Yield results as they complete, or with ``ordered`` in input order (what a result
    leads to may depend on the results before it: a file run numbers patients as it
    links them). ``workers <= 1`` runs in this process with ``session``; more start a
    process pool (spawned: no inherited DB handles or threads). On cancellation the pool
    is shut down and ``CancelledError`` raised."""
    if workers <= 1 or total <= 1:
        use_session_in_process(services, session_config, session)
        for item in items:
            ctx.check()
            yield process_item(item, ctx)
        return
    session_config = _one_thread_each(session_config)
    pool = ProcessPoolExecutor(max_workers=min(workers, total),
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init_worker,
                               initargs=(services, session_config, os.getpid()))
    pending: dict[Future[WorkResult], int] = {}  # future -> its place in the input
    held: dict[int, WorkResult] = {}  # finished ahead of an earlier one (ordered)
    # A short queue: cancellation is quick and memory stays flat on big batches. In
    # order, results held back count against it, so a slow document holds back at most
    # ORDERED_WINDOW * workers others.
    window = (ORDERED_WINDOW if ordered else 2) * workers
    source = iter(items)
    submitted = wanted = 0
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) + len(held) < window:
                queued = next(source, None)
                if queued is None:
                    exhausted = True
                    break
                pending[pool.submit(process_item, queued)] = submitted
                submitted += 1
            if not pending and not held:
                return
            done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in done:
                place = pending.pop(future)
                if not ordered:
                    yield future.result()
                    continue
                held[place] = future.result()
            while wanted in held:
                yield held.pop(wanted)
                wanted += 1
            ctx.check()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _one_thread_each(config: Any) -> Any:
    """Worker processes already use every core: an ONNX runtime per worker that also
    spreads over all cores oversubscribes the machine (measured slower than 1 worker)."""
    pipeline = getattr(config, "pipeline", None)
    if pipeline is None or getattr(pipeline, "ner_threads", 0) is not None:
        return config
    return replace(config, pipeline=replace(pipeline, ner_threads=1))


def detect_in_order(documents: Iterable[Document], *, total: int | None, workers: int,
                    services: WorkerServices, session_config: Any, session: Any,
                    ctx: RunContext) -> Iterator[DetectionResult]:
    """Detect each document, yielding results in input order (``clearnote detect`` writes
    them so). Several workers beat one process with several ONNX threads: the rules are
    Python and use one core per process. A document that fails raises, as in-process."""
    items = (WorkItem(document_id=str(number), document=doc)
             for number, doc in enumerate(documents))
    ahead: dict[int, WorkResult] = {}  # finished out of order; at most 2 * workers
    wanted = 0
    results = run_parallel(items, total=workers if total is None else total, workers=workers,
                           services=services, session_config=session_config, session=session,
                           ctx=ctx)
    for finished in results:
        ahead[int(finished.item.document_id)] = finished
        while wanted in ahead:
            ready = ahead.pop(wanted)
            if ready.error is not None or ready.result is None:
                raise ClearNoteError(f"document {wanted + 1}: {ready.error}")
            yield ready.result
            wanted += 1
