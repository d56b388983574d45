"""Storing and exporting a batch's worker results on one thread of the parent, while the
next documents are detected."""

from __future__ import annotations

import logging
import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.errors import ClearNoteError
from engine.core.messages import problem_in_words
from engine.parallel import WorkResult, error_reason
from engine.store.records import ExportedDocument

if TYPE_CHECKING:
    from engine.project.export import WriteGroup
    from engine.project.facade import Project

log = logging.getLogger(__name__)

# (document id, None, None, the export) or (id, reason for report.csv, problem in words, None)
Stored = tuple[str, str | None, str | None, ExportedDocument | None]


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
        self._outbox: queue.Queue[Stored] = queue.Queue()
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

    def outcomes(self) -> list[Stored]:
        """Committed outcomes so far."""
        out: list[Stored] = []
        while True:
            try:
                out.append(self._outbox.get_nowait())
            except queue.Empty:
                self._raise_if_failed()
                return out

    def close(self) -> list[Stored]:
        """Finish the queued documents, commit, stop; the remaining outcomes."""
        if self._thread.is_alive():
            self._inbox.put(self._STOP)
            self._thread.join()
        return self.outcomes()

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        done: list[Stored] = []
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

    def _hand_back(self, done: list[Stored]) -> None:
        for outcome in done:
            self._outbox.put(outcome)
        done.clear()

    def _store(self, group: WriteGroup, result: WorkResult) -> Stored:
        doc_id = result.item.document_id
        try:
            exported = group.record_and_export(result, self.out_dir, self.formats)
        except (ClearNoteError, OSError) as exc:  # detected, not exported: go on
            log.warning("document %s export failed: %s", doc_id, type(exc).__name__)
            return doc_id, error_reason(exc), problem_in_words(exc), None
        if exported is None:
            return doc_id, result.error or "failed", result.problem, None
        return doc_id, None, None, exported
