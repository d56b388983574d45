"""Review: a person's decisions on spans (accept, reject, add, all occurrences at once,
decisions imported from a file), each one undoable action; undo and redo."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from engine.core.domain import ACTIVE_STATUSES, Source, Span, SpanStatus
from engine.core.errors import UsageError, shown
from engine.core.labels import Label
from engine.store import repositories as repo
from engine.store import review as store_review
from engine.store.db import Database
from engine.store.models import DocumentRow, SpanRow
from engine.store.records import DocumentRecord, DocumentStatus, ReviewImportReport
from engine.store.review import ReviewChange

ACTIVE_VALUES = tuple(st.value for st in ACTIVE_STATUSES)


def set_span_status(db: Database, span_id: str, status: SpanStatus | str) -> Span:
    status = SpanStatus(status)
    check_review_status(status)
    with db.write() as s:
        row = span_row(s, span_id)
        action = store_review.PendingAction(f"span.{status.value.lower()}", [], [])
        store_review.change_status(s, action, row, status)
        store_review.record(s, action)
        return repo.to_span(row)


def set_status_all_occurrences(db: Database, span_id: str, status: SpanStatus | str, *,
                               scope: str = "document") -> int:
    """Give ``status`` to every span covering the same text (case-insensitive) in the
    document or the project. Accepting also adds manual spans where the text occurs
    as a whole word but no active span covers it. One undoable action; returns the
    number of spans changed or added (``count_all_occurrences`` tells it beforehand)."""
    status = SpanStatus(status)
    with db.write() as s:
        origin, changes, adds = _occurrences(s, span_id, status, scope)
        action = store_review.PendingAction(f"occurrences.{status.value.lower()}", [], [])
        for row in changes:
            store_review.change_status(s, action, row, status, via=f"all-{scope}")
        for doc_id, start, end in adds:
            span = Span(start, end, Label(origin.label), source=Source.MANUAL,
                        detector="review.occurrence@1",
                        status=SpanStatus.ACCEPTED, subtype=origin.subtype)
            store_review.add_span(s, action, span, doc_id, via=f"all-{scope}")
        store_review.record(s, action)
        return action.size


def count_all_occurrences(db: Database, span_id: str, status: SpanStatus | str, *,
                          scope: str = "document") -> tuple[int, int]:
    """What ``set_status_all_occurrences`` would do, changing nothing: (spans it would
    change or add, documents they are in), so a person can be asked first."""
    with db.read() as s:
        _origin, changes, adds = _occurrences(s, span_id, SpanStatus(status), scope)
        docs = {r.document_id for r in changes} | {d for d, _s, _e in adds}
        return len(changes) + len(adds), len(docs)


def _occurrences(s: Any, span_id: str, status: SpanStatus, scope: str
                 ) -> tuple[SpanRow, list[SpanRow], list[tuple[str, int, int]]]:
    check_review_status(status)
    if scope not in ("document", "project"):
        raise UsageError(f"scope must be 'document' or 'project', not {scope!r}")
    origin = span_row(s, span_id)
    origin_doc = repo.load_document(s, origin.document_id)
    assert origin_doc is not None
    needle = origin_doc.text[origin.start:origin.end].casefold()
    doc_ids = ([origin.document_id] if scope == "document"
               else list(s.scalars(select(DocumentRow.id))))
    changes: list[SpanRow] = []
    adds: list[tuple[str, int, int]] = []
    for doc_id in doc_ids:
        doc = origin_doc if doc_id == origin.document_id else repo.load_document(s, doc_id)
        if doc is None:
            continue
        rows = list(s.scalars(select(SpanRow).where(SpanRow.document_id == doc_id)))
        changes += [row for row in rows if row.status != SpanStatus.SUPERSEDED.value
                    and row.status != status.value
                    and doc.text[row.start:row.end].casefold() == needle]
        if status is SpanStatus.ACCEPTED:
            active = [(r.start, r.end) for r in rows if r.status in ACTIVE_VALUES]
            adds += [(doc_id, start, end)
                     for start, end in whole_word_occurrences(doc.text, needle)
                     if not any(a < end and start < b for a, b in active)]
    return origin, changes, adds


def set_span_label(db: Database, span_id: str, label: Label | str, *,
                   subtype: str | None = None) -> Span:
    """A reviewer's new label for a span; its range and status stay. Undoable, audited."""
    label = Label(label)
    with db.write() as s:
        row = span_row(s, span_id)
        action = store_review.PendingAction("span.relabelled", [], [])
        store_review.change_label(s, action, row, label.value, subtype)
        store_review.record(s, action)
        return repo.to_span(row)


def add_manual_span(db: Database, document_id: str, start: int, end: int, label: Label | str, *,
                    subtype: str | None = None) -> Span:
    with db.write() as s:
        doc = repo.load_document(s, document_id)
        if doc is None:
            raise UsageError(f"unknown document id {document_id}")
        if not (0 <= start < end <= len(doc.text)):
            raise UsageError(f"span [{start}, {end}) is outside document {document_id}")
        start, end = _covering(s, document_id, start, end)
        span = Span(start, end, Label(label), source=Source.MANUAL, detector="manual@1",
                    status=SpanStatus.ACCEPTED, subtype=subtype)
        action = store_review.PendingAction("span.added", [], [])
        supersede_overlapped(s, action, document_id, start, end, via="manual")
        store_review.add_span(s, action, span, document_id)
        store_review.record(s, action)
        return span


def apply_review_decisions(db: Database, decisions: Mapping[str, Sequence[Any]] | Iterable[
                           tuple[str, Sequence[Any]]], *, unlisted: str = "keep",
                           scopes: Mapping[str, Sequence[tuple[int, int]]] | None = None
                           ) -> ReviewImportReport:
    """Apply review decisions (``review_io.Decision`` per document, as a mapping or as
    pairs read one at a time); see review_io. One transaction: an error in any document
    (a span outside the text, named by file line) changes nothing. ``scopes``: for a
    document listed in parts (a table's cells), the ranges listed: only its spans inside
    them can be unlisted."""
    count = _ImportCounts()
    unknown: list[str] = []
    pairs = decisions.items() if isinstance(decisions, Mapping) else decisions
    with db.write() as s:
        action = store_review.PendingAction("review.import", [], [])
        for doc_id, items in pairs:
            count.documents += 1
            doc = repo.load_document(s, doc_id)
            if doc is None:
                unknown.append(doc_id)
                continue
            _apply_document(s, action, doc, items, count, reject_unlisted=unlisted == "reject",
                            scope=(scopes or {}).get(doc_id))
        store_review.record(s, action)
        repo.audit(s, "review.imported", count=count.documents - len(unknown),
                   accepted=count.accepted, rejected=count.rejected, added=count.added,
                   unlisted=count.unlisted, unlisted_rejected=unlisted == "reject")
    return ReviewImportReport(count.documents - len(unknown), count.accepted, count.rejected,
                              count.added, tuple(unknown), unlisted_spans=count.unlisted,
                              unlisted_documents=count.unlisted_documents,
                              unlisted_rejected=unlisted == "reject")


@dataclass
class _ImportCounts:
    documents: int = 0
    accepted: int = 0
    rejected: int = 0
    added: int = 0
    unlisted: int = 0
    unlisted_documents: int = 0


def _apply_document(s: Any, action: Any, doc: Any, items: Sequence[Any],
                    count: _ImportCounts, *, reject_unlisted: bool,
                    scope: Sequence[tuple[int, int]] | None = None) -> None:
    rows = {r.id: r for r in s.scalars(select(SpanRow).where(SpanRow.document_id == doc.id))}
    # An annotation without ClearNote's id note (another tool's file) finds its span by
    # range and label.
    by_range = {(r.start, r.end, r.label, r.subtype): r for r in rows.values()
                if r.status in ACTIVE_VALUES}
    listed: set[str] = set()
    for d in items:
        if not (0 <= d.start < d.end <= len(doc.text)):
            where = getattr(d, "where", "")
            raise UsageError(f"{shown(where, 240) + ': ' if where else ''}document "
                             f"{shown(doc.id)}: span [{d.start}, {d.end}) is outside the "
                             f"text ({len(doc.text):,} characters)")
        row = rows.get(d.span_id or "")
        if row is None or (row.start, row.end, row.label) != (d.start, d.end, d.label.value):
            row = by_range.get((d.start, d.end, d.label.value, d.subtype))
            if row is not None and row.id in listed:
                continue  # listed twice (with and without its id): merged
        if row is not None:
            listed.add(row.id)
            before = len(action.sets)
            store_review.change_status(s, action, row, d.status, via="import")
            if len(action.sets) > before:
                count.accepted += d.status is SpanStatus.ACCEPTED
                count.rejected += d.status is SpanStatus.REJECTED
            continue
        span = Span(d.start, d.end, d.label, source=Source.MANUAL,
                    detector="review.import@1", status=d.status, subtype=d.subtype)
        if d.status in ACTIVE_STATUSES:
            supersede_overlapped(s, action, doc.id, d.start, d.end, via="import",
                                 keep=listed)
        store_review.add_span(s, action, span, doc.id, via="import")
        count.added += 1
    left = [r for r in rows.values() if r.id not in listed and r.status in ACTIVE_VALUES
            and (scope is None or any(a <= r.start and r.end <= b for a, b in scope))]
    count.unlisted += len(left)
    count.unlisted_documents += bool(left)
    if reject_unlisted:
        for row in left:
            store_review.change_status(s, action, row, SpanStatus.REJECTED, via="import")
            count.rejected += 1


def _covering(s: Any, document_id: str, start: int, end: int) -> tuple[int, int]:
    """Recall first: a span a person draws across part of a live span ("Finch," over
    "Harold Finch") grows to cover it, so superseding the detected span never leaves part
    of an identifier in clear. To narrow a span, reject it and draw the narrower one."""
    while True:
        lo, hi = s.execute(select(func.min(SpanRow.start), func.max(SpanRow.end)).where(
            SpanRow.document_id == document_id, SpanRow.start < end, SpanRow.end > start,
            SpanRow.status.in_(ACTIVE_VALUES))).one()
        if lo is None or (lo >= start and hi <= end):
            return start, end
        start, end = min(start, lo), max(end, hi)


def supersede_overlapped(s: Any, action: store_review.PendingAction, document_id: str,
                         start: int, end: int, *, via: str,
                         keep: Iterable[str] = ()) -> int:
    """A span a person adds wins over the live spans it overlaps: they become SUPERSEDED
    in the same undoable action (kept and audited, never deleted), so the document's
    live spans stay disjoint, as replacement needs. ``keep``: ids this action already
    decided on and that stay as they are."""
    kept = set(keep)
    rows = s.scalars(select(SpanRow).where(
        SpanRow.document_id == document_id, SpanRow.start < end, SpanRow.end > start,
        SpanRow.status.in_(ACTIVE_VALUES)))
    n = 0
    for row in list(rows):
        if row.id not in kept:
            store_review.change_status(s, action, row, SpanStatus.SUPERSEDED, via=via)
            n += 1
    return n


def mark_reviewed(db: Database, document_id: str) -> DocumentRecord:
    with db.write() as s:
        row = s.get(DocumentRow, document_id)
        if row is None:
            raise UsageError(f"unknown document id {document_id}")
        if row.status not in (DocumentStatus.DETECTED.value,
                              DocumentStatus.EXPORTED.value):
            raise UsageError(f"document {document_id} is {row.status}, not detected")
        undecided = int(s.scalar(select(func.count()).select_from(SpanRow).where(
            SpanRow.document_id == document_id,
            SpanRow.status == SpanStatus.CANDIDATE.value)) or 0)
        repo.set_document_status(s, document_id, DocumentStatus.REVIEWED)
        repo.audit(s, "document.reviewed", document_id=document_id, count=undecided)
        return repo.document_record(row)


def undo(db: Database) -> ReviewChange | None:
    with db.write() as s:
        return store_review.undo(s)


def redo(db: Database) -> ReviewChange | None:
    with db.write() as s:
        return store_review.redo(s)


def can_undo(db: Database) -> bool:
    with db.read() as s:
        return store_review.can_undo(s)


def can_redo(db: Database) -> bool:
    with db.read() as s:
        return store_review.can_redo(s)


def span_row(s: Any, span_id: str) -> SpanRow:
    row = s.get(SpanRow, span_id)
    if row is None:
        raise UsageError(f"unknown span id {span_id}")
    return row


def check_review_status(status: SpanStatus) -> None:
    if status not in (SpanStatus.ACCEPTED, SpanStatus.REJECTED, SpanStatus.CANDIDATE):
        raise UsageError(f"a reviewer sets ACCEPTED, REJECTED or CANDIDATE, not {status}")


def whole_word_occurrences(text: str, needle_folded: str) -> list[tuple[int, int]]:
    if not needle_folded.strip():
        return []
    pattern = re.compile(r"(?<!\w)" + re.escape(needle_folded) + r"(?!\w)", re.IGNORECASE)
    return [(m.start(), m.end()) for m in pattern.finditer(text)
            if len(m.group()) == len(needle_folded)]
