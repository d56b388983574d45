"""A drop, followed as it goes: each dropped item is imported (a folder a few documents
at a time), its documents appear in the list as they are stored, and they are detected a
few at a time, each batch shown as it lands.
The summary's counts add up (imported + already present + failed + not reached = files),
and a cancel leaves the list of documents imported but not yet detected, to finish later."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import engine.api as api
from engine.core.context import RunContext
from engine.core.errors import CancelledError
from engine.core.messages import problem_in_words

if TYPE_CHECKING:
    from engine.api import DetectReport, ImportReport, Project, TableSchema

DETECT_BATCH = 8  # documents detected per step: the list fills as they land


@dataclass
class DropSummary:
    """What a drop did, counted per file found (a folder counts its files)."""

    imported: list[str] = field(default_factory=list)
    duplicates: int = 0
    failed: int = 0
    not_reached: int = 0  # files of a folder, and dropped items, left by a cancel
    detected: int = 0
    detect_failed: int = 0
    spans: int = 0
    cancelled: bool = False
    undetected: list[str] = field(default_factory=list)  # imported, not detected yet

    @property
    def files(self) -> int:
        return len(self.imported) + self.duplicates + self.failed + self.not_reached

    def text(self) -> str:
        n = self.files
        parts = [f"{len(self.imported)} imported"]
        if self.duplicates:
            parts.append(f"{self.duplicates} already in the project")
        if self.failed:
            parts.append(f"{self.failed} failed")
        if self.not_reached:
            parts.append(f"{self.not_reached} not reached")
        words = f"{n} file{'s' if n != 1 else ''}: " + ", ".join(parts)
        if self.detected or self.detect_failed:
            words += f"; {self.detected} detected ({self.spans} spans)"
            if self.detect_failed:
                words += f", {self.detect_failed} could not be detected"
        if self.cancelled:
            words += " · cancelled"
            if self.undetected:
                k = len(self.undetected)
                words += f": {k} document{'s' if k != 1 else ''} imported but not detected"
        return words


Emit = Callable[..., None]


def run_drop(project: Project, paths: Sequence[Path], ctx: RunContext, *,
             password: str | None, detect: bool, item: Emit, entries: Emit,
             item_state: Callable[[ImportReport, Path], tuple[str, str]],
             table_schemas: Mapping[Path, TableSchema] | None = None) -> DropSummary:
    """Import ``paths`` one dropped item at a time, a folder a few documents at a time;
    ``item(path, state, detail)`` for the import panel, ``entries(ids)`` whenever documents
    arrive or change. A table in ``table_schemas`` is imported with the roles confirmed for
    it. Runs on a worker."""
    summary = DropSummary()
    pending: list[str] = []
    for i, path in enumerate(paths):
        if ctx.cancel.cancelled:
            summary.not_reached += len(paths) - i
            summary.cancelled = True
            break
        ctx.report("import", i, len(paths), f"item {i + 1} of {len(paths)}")
        item(str(path), "importing", "")
        try:
            schema = (table_schemas or {}).get(path)
            reports = (project.import_batches([path], ctx, batch=DETECT_BATCH,
                                              password=password) if schema is None
                       else iter([api.import_table(project, path, schema, ctx)]))
            parts: list[ImportReport] = []
            for rep in reports:  # a folder's documents arrive a batch at a time
                parts.append(rep)
                pending = _arrived(project, rep, pending, ctx, summary, entries, detect)
        except CancelledError:  # before this item stored anything
            summary.not_reached += len(paths) - i
            summary.cancelled = True
            item(str(path), "cancelled", "")
            break
        except Exception as exc:  # noqa: BLE001 - one bad item must not stop the drop
            summary.failed += 1
            item(str(path), "failed", problem_in_words(exc))
            continue
        rep = api.ImportReport.merged(parts)
        item(str(path), *item_state(rep, path))
        if detect and pending and not ctx.cancel.cancelled:
            pending = _detect_some(project, pending, ctx, summary, entries)
        if rep.cancelled or summary.cancelled:
            summary.cancelled = True
            summary.not_reached += len(paths) - i - 1
            break
    summary.undetected = pending if detect else []
    return summary


def _arrived(project: Project, rep: ImportReport, pending: list[str], ctx: RunContext,
             summary: DropSummary, entries: Emit, detect: bool) -> list[str]:
    """Count a batch of an item's documents and show them; detect the batches before it
    (the item's last batch is detected once its row says how the import went) unless the
    drop was cancelled (the import then ends with a report of what was not reached)."""
    summary.imported += rep.imported
    summary.duplicates += len(rep.duplicates)
    summary.failed += len(rep.failed)
    summary.not_reached += rep.not_reached
    if rep.imported:
        entries(list(rep.imported))  # in the list now, detected or not
    if detect and pending and not ctx.cancel.cancelled:
        pending = _detect_some(project, pending, ctx, summary, entries)
    return pending + list(rep.imported)


def _detect_some(project: Project, ids: list[str], ctx: RunContext, summary: DropSummary,
                 entries: Emit) -> list[str]:
    """Detect ``ids``, counted in the drop's summary; returns those left undetected (on a
    cancel)."""
    rep, left = detect_in_batches(project, ids, ctx, entries,
                                  done_before=summary.detected + summary.detect_failed,
                                  total=len(summary.imported))
    summary.detected += len(rep.detected)
    summary.detect_failed += len(rep.failed)
    summary.spans += rep.spans
    if left and ctx.cancel.cancelled:
        summary.cancelled = True
    return left


def detect_in_batches(project: Project, ids: Sequence[str], ctx: RunContext, entries: Emit,
                      *, done_before: int = 0, total: int | None = None
                      ) -> tuple[DetectReport, list[str]]:
    """Detect ``ids`` DETECT_BATCH at a time, each batch's rows shown as it lands; returns
    the report of all batches and the ids a cancel left undetected. Progress counts
    documents (``done_before`` of ``total`` were done before): the pipeline's own reports
    (each detector and segment of a document, also stage "detect") made the bar read "19
    of 19" (the detectors) between document counts, and sent a signal per document."""
    total = len(ids) if total is None else total
    left = list(ids)
    quiet = RunContext(cancel=ctx.cancel)
    detected: list[str] = []
    failed: list[tuple[str, str]] = []
    spans = 0
    while left and not ctx.cancel.cancelled:
        batch, left = left[:DETECT_BATCH], left[DETECT_BATCH:]
        try:
            det: DetectReport = project.detect(batch, quiet)
        except CancelledError:
            entries(batch)
            still = {r.id for r in project.documents(ids=batch)
                     if r.status.value == "imported"}
            left = [d for d in batch if d in still] + left
            break
        detected += det.detected
        failed += det.failed
        spans += det.spans
        entries(batch)
        finished = done_before + len(detected) + len(failed)
        ctx.report("detect", finished, total, f"{finished} of {total} documents")
        if det.cancelled:
            done = set(det.detected) | {d for d, _r in det.failed}
            left = [d for d in batch if d not in done] + left
            break
    cancelled = bool(left) and ctx.cancel.cancelled
    return api.DetectReport(tuple(detected), tuple(failed), spans, cancelled), left


__all__ = ["DropSummary", "detect_in_batches", "run_drop"]
