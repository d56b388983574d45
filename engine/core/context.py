"""RunContext: cancellation and progress for long work, shared by CLI, batch and GUI."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.errors import CancelledError

# progress(stage, done, total, message). Messages carry counts and ids, never PHI.
ProgressCallback = Callable[[str, int, int, str], None]


class CancelToken:
    """Thread-safe flag polled by long loops."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise CancelledError("cancelled")


def _no_progress(stage: str, done: int, total: int, message: str) -> None:
    return None


@dataclass(frozen=True)
class RunContext:
    cancel: CancelToken = field(default_factory=CancelToken)
    progress: ProgressCallback = _no_progress

    def check(self) -> None:
        self.cancel.raise_if_cancelled()

    def report(self, stage: str, done: int, total: int, message: str = "") -> None:
        self.progress(stage, done, total, message)


def rate_and_eta(done: int, total: int | None, started: float) -> tuple[float, float | None]:
    """Items per second since ``started`` (a ``time.monotonic()``) and the seconds left
    (None without a total, 0 before the first item)."""
    rate = done / max(time.monotonic() - started, 1e-9)
    if not total:
        return rate, None
    return rate, max(total - done, 0) / rate if rate > 0 else 0.0
