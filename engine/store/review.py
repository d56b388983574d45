"""Review actions: span status changes and manual spans, with a persistent undo/redo
history (``review_actions``) and an audit entry for every span that changes.

An action's payload is ``{"set": [[span_id, document_id, old, new], ...],
"add": [span fields, ...], "box": [[box_id, document_id, old active, new active], ...],
"label": [[span_id, document_id, old label, old subtype, new label, new subtype], ...]}``:
ids, offsets, labels and statuses, never text. A new action clears the redo history, as in
any editor. Box redactions are never deleted: drawing one, removing it, undoing either
flips its ``active`` flag.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from engine.core.domain import Span, SpanStatus
from engine.store import repositories as repo
from engine.store.models import BoxRedactionRow, ReviewActionRow, SpanRow


@dataclass(frozen=True)
class ReviewChange:
    """What an undo or redo touched, so a view can refresh."""

    kind: str
    document_ids: tuple[str, ...]
    spans: int


@dataclass
class PendingAction:
    kind: str
    sets: list[tuple[str, str, str, str]]
    adds: list[dict[str, Any]]
    boxes: list[tuple[str, str, bool, bool]] = field(default_factory=list)
    labels: list[tuple[str, str, str, str | None, str, str | None]] = field(
        default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.sets and not self.adds and not self.boxes and not self.labels

    @property
    def size(self) -> int:
        return len(self.sets) + len(self.adds) + len(self.boxes) + len(self.labels)


def span_fields(span: Span, document_id: str) -> dict[str, Any]:
    # Undo records keep every field of the span but its evidence (manual spans have none).
    fields = {k: v for k, v in span.to_dict().items() if k != "evidence"}
    return {"id": fields.pop("id"), "document_id": document_id, **fields}


def _insert(s: Session, f: dict[str, Any]) -> SpanRow:
    row = SpanRow(id=f["id"], document_id=f["document_id"], run_id=None, start=f["start"],
                  end=f["end"], label=f["label"], subtype=f["subtype"], source=f["source"],
                  detector=f["detector"], evidence="[]", confidence=f["confidence"],
                  status=f["status"], updated_at=time.time())
    s.add(row)
    return row


def change_status(s: Session, action: PendingAction, row: SpanRow, status: SpanStatus,
                  *, via: str = "review") -> None:
    old = row.status
    if old == status.value:
        return
    row.status = status.value
    row.updated_at = time.time()
    action.sets.append((row.id, row.document_id, old, status.value))
    repo.audit(s, f"span.{status.value.lower()}", document_id=row.document_id,
               span_id=row.id, label=row.label, start=row.start, end=row.end,
               previous=old, via=via)


def add_span(s: Session, action: PendingAction, span: Span, document_id: str,
             *, via: str = "review") -> None:
    f = span_fields(span, document_id)
    _insert(s, f)
    action.adds.append(f)
    repo.audit(s, "span.added", document_id=document_id, span_id=span.id,
               label=span.label.value, start=span.start, end=span.end,
               status=span.status.value, via=via)


def record(s: Session, action: PendingAction) -> None:
    """Store a finished action and drop the redo history."""
    if action.empty:
        return
    s.execute(delete(ReviewActionRow).where(ReviewActionRow.undone.is_(True)))
    s.add(ReviewActionRow(kind=action.kind, created_at=time.time(), undone=False,
                          payload=json.dumps({"set": action.sets, "add": action.adds,
                                              "box": action.boxes,
                                              "label": action.labels})))


def change_label(s: Session, action: PendingAction, row: SpanRow, label: str,
                 subtype: str | None, *, via: str = "review") -> None:
    """A reviewer's new label for a span (its status and range stay)."""
    if (row.label, row.subtype) == (label, subtype):
        return
    action.labels.append((row.id, row.document_id, row.label, row.subtype, label, subtype))
    _relabel(s, row.id, label, subtype, via=via)


def _relabel(s: Session, span_id: str, label: str, subtype: str | None, *, via: str) -> None:
    row = s.get(SpanRow, span_id)
    if row is None:
        return
    previous = row.label
    row.label, row.subtype = label, subtype
    row.updated_at = time.time()
    repo.audit(s, "span.relabelled", document_id=row.document_id, span_id=row.id,
               label=label, previous=previous, start=row.start, end=row.end, via=via)


def set_box(s: Session, action: PendingAction, row: BoxRedactionRow, active: bool,
            *, via: str = "review") -> None:
    """Draw (``active``) or remove a box redaction, as part of ``action``."""
    action.boxes.append((row.id, row.document_id, bool(row.active), active))
    _flip_box(s, row.id, active, via=via)


def _flip_box(s: Session, box_id: str, active: bool, *, via: str) -> str | None:
    row = s.get(BoxRedactionRow, box_id)
    if row is None:
        return None
    row.active = active
    repo.audit(s, "box.drawn" if active else "box.removed", document_id=row.document_id,
               page=row.page, box_id=row.id, via=via)
    return row.document_id


def undo(s: Session) -> ReviewChange | None:
    row = s.scalars(select(ReviewActionRow).where(ReviewActionRow.undone.is_(False))
                    .order_by(ReviewActionRow.id.desc()).limit(1)).first()
    if row is None:
        return None
    payload = json.loads(row.payload)
    docs: set[str] = set()
    for span_id, doc_id, old, _new in reversed(payload["set"]):
        _restore(s, span_id, old, via="undo")
        docs.add(doc_id)
    for box_id, doc_id, old, _new in reversed(payload.get("box", [])):
        _flip_box(s, box_id, old, via="undo")
        docs.add(doc_id)
    for span_id, doc_id, old_label, old_sub, _label, _sub in reversed(payload.get("label", [])):
        _relabel(s, span_id, old_label, old_sub, via="undo")
        docs.add(doc_id)
    for f in payload["add"]:
        span = s.get(SpanRow, f["id"])
        if span is not None:
            s.delete(span)
            repo.audit(s, "span.removed", document_id=f["document_id"], span_id=f["id"],
                       label=f["label"], start=f["start"], end=f["end"], via="undo")
        docs.add(f["document_id"])
    row.undone = True
    n = _size(payload)
    repo.audit(s, "review.undo", count=n, action_id=row.id, kind=row.kind)
    return ReviewChange(row.kind, tuple(sorted(docs)), n)


def redo(s: Session) -> ReviewChange | None:
    row = s.scalars(select(ReviewActionRow).where(ReviewActionRow.undone.is_(True))
                    .order_by(ReviewActionRow.id).limit(1)).first()
    if row is None:
        return None
    payload = json.loads(row.payload)
    docs: set[str] = set()
    for f in payload["add"]:
        if s.get(SpanRow, f["id"]) is None:
            _insert(s, f)
            repo.audit(s, "span.added", document_id=f["document_id"], span_id=f["id"],
                       label=f["label"], start=f["start"], end=f["end"],
                       status=f["status"], via="redo")
        docs.add(f["document_id"])
    for span_id, doc_id, _old, new in payload["set"]:
        _restore(s, span_id, new, via="redo")
        docs.add(doc_id)
    for box_id, doc_id, _old, new in payload.get("box", []):
        _flip_box(s, box_id, new, via="redo")
        docs.add(doc_id)
    for span_id, doc_id, _old, _old_sub, label, sub in payload.get("label", []):
        _relabel(s, span_id, label, sub, via="redo")
        docs.add(doc_id)
    row.undone = False
    n = _size(payload)
    repo.audit(s, "review.redo", count=n, action_id=row.id, kind=row.kind)
    return ReviewChange(row.kind, tuple(sorted(docs)), n)


def _size(payload: dict[str, Any]) -> int:
    return sum(len(payload.get(k, [])) for k in ("set", "add", "box", "label"))


def _restore(s: Session, span_id: str, status: str, *, via: str) -> None:
    row = s.get(SpanRow, span_id)
    if row is None or row.status == status:
        return
    previous = row.status
    row.status = status
    row.updated_at = time.time()
    repo.audit(s, f"span.{status.lower()}", document_id=row.document_id, span_id=row.id,
               label=row.label, start=row.start, end=row.end, previous=previous, via=via)


def can_undo(s: Session) -> bool:
    return s.scalar(select(ReviewActionRow.id).where(ReviewActionRow.undone.is_(False))
                    .limit(1)) is not None


def can_redo(s: Session) -> bool:
    return s.scalar(select(ReviewActionRow.id).where(ReviewActionRow.undone.is_(True))
                    .limit(1)) is not None
