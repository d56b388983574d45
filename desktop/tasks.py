"""Workers: every piece of engine work runs in a QRunnable and reports back by signal.

A task gets a ``RunContext`` whose cancel token the GUI can set and whose progress
callback is throttled, so a chatty engine loop never floods the event queue.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from engine.core.context import CancelToken, RunContext
from engine.core.errors import CancelledError, InputError
from engine.core.files import short_name
from engine.core.messages import problem_in_words

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.05


def safe_message(exc: BaseException) -> str:
    """What a user may see: the problem in words, and for a file that cannot be read its
    name, never PHI nor an exception class (the log has the type)."""
    problem = problem_in_words(exc)
    if isinstance(exc, InputError) and exc.path:
        return f"{short_name(Path(exc.path))}: {problem}"
    return problem


class TaskSignals(QObject):
    progress = Signal(str, int, int, str)  # stage, done, total, message
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    done = Signal()  # after any of the three outcomes


class Task(QRunnable):
    def __init__(self, name: str, fn: Callable[[RunContext], Any]) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the runner keeps it until ``done``
        self.name = name
        self.fn = fn
        self.token = CancelToken()
        self.signals = TaskSignals()
        self._last_progress = 0.0

    def cancel(self) -> None:
        self.token.cancel()

    def _progress(self, stage: str, done: int, total: int, message: str) -> None:
        now = time.monotonic()
        if done >= total or now - self._last_progress >= PROGRESS_INTERVAL_S:
            self._last_progress = now
            self.signals.progress.emit(stage, done, total, message)

    def run(self) -> None:
        ctx = RunContext(cancel=self.token, progress=self._progress)
        try:
            result = self.fn(ctx)
        except CancelledError:
            self.signals.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - reported to the GUI, never swallowed
            log.warning("task %s failed: %s", self.name, type(exc).__name__)
            self.signals.failed.emit(safe_message(exc))
        else:
            if self.token.cancelled and result is None:
                self.signals.cancelled.emit()
            else:
                self.signals.finished.emit(result)
        self.signals.done.emit()


class TaskRunner(QObject):
    """Owns the pools. ``serial`` tasks (review edits, undo) run one at a time in order on
    their own thread, so a fast reviewer's keystrokes reach the database in sequence."""

    busyChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, threads: int | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        if threads:
            self.pool.setMaxThreadCount(max(1, threads))
        self.serial_pool = QThreadPool(self)
        self.serial_pool.setMaxThreadCount(1)
        self._active: set[Task] = set()

    def submit(self, name: str, fn: Callable[[RunContext], Any], *,
               on_done: Callable[[Any], None] | None = None,
               on_error: Callable[[str], None] | None = None,
               on_progress: Callable[[str, int, int, str], None] | None = None,
               on_cancel: Callable[[], None] | None = None,
               serial: bool = False) -> Task:
        task = Task(name, fn)
        if on_done is not None:
            task.signals.finished.connect(on_done)
        if on_error is not None:
            task.signals.failed.connect(on_error)
        if on_progress is not None:
            task.signals.progress.connect(on_progress)
        if on_cancel is not None:
            task.signals.cancelled.connect(on_cancel)
        task.signals.done.connect(lambda: self._finish(task))
        was_idle = not self._active
        self._active.add(task)
        (self.serial_pool if serial else self.pool).start(task)
        if was_idle:
            self.busyChanged.emit(True)
        return task

    def _finish(self, task: Task) -> None:
        self._active.discard(task)
        if not self._active:
            self.busyChanged.emit(False)

    @property
    def busy(self) -> bool:
        return bool(self._active)

    def cancel_all(self) -> None:
        for task in list(self._active):
            task.cancel()

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Cancel and wait (on exit): a write must not be cut off mid-transaction."""
        self.cancel_all()
        ok = self.pool.waitForDone(timeout_ms)
        return self.serial_pool.waitForDone(timeout_ms) and ok
