"""Box redactions: rectangles a reviewer draws on a page (a signature, a logo, a stamp,
handwriting) to redact whatever is under them. Each drawing or removal is one undoable
review action and an audit entry (page and id only). The redacted PDF burns the active ones
(``engine.exporters.pdf``), in the same view space as the span boxes."""

from __future__ import annotations

import time

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core.domain import new_id
from engine.core.errors import UsageError
from engine.exporters.geometry import PageBox
from engine.store import review as store_review
from engine.store.db import Database
from engine.store.models import BoxRedactionRow, DocumentRow
from engine.store.records import BoxRedaction

MIN_SIDE = 1.0  # page units: a click without a drag draws nothing


def _record(row: BoxRedactionRow) -> BoxRedaction:
    return BoxRedaction(row.id, row.document_id, row.page, row.x0, row.y0, row.x1, row.y1,
                        bool(row.active))


def add_box(db: Database, document_id: str, page: int,
            rect: tuple[float, float, float, float]) -> BoxRedaction:
    """Draw a box redaction on ``page`` (1-based); ``rect`` in the page's view space."""
    x0, y0, x1, y1 = min(rect[0], rect[2]), min(rect[1], rect[3]), \
        max(rect[0], rect[2]), max(rect[1], rect[3])
    if x1 - x0 < MIN_SIDE or y1 - y0 < MIN_SIDE:
        raise UsageError("a box redaction needs a width and a height (drag a rectangle)")
    with db.write() as s:
        doc = s.get(DocumentRow, document_id)
        if doc is None:
            raise UsageError(f"unknown document id {document_id}")
        if not 1 <= page <= max(doc.page_count, 0):
            raise UsageError(f"document {document_id} has no page {page}")
        row = BoxRedactionRow(id=new_id(), document_id=document_id, page=page, x0=x0, y0=y0,
                              x1=x1, y1=y1, active=False, created_at=time.time())
        s.add(row)
        s.flush()
        action = store_review.PendingAction("box.drawn", [], [])
        store_review.set_box(s, action, row, True)
        store_review.record(s, action)
        return _record(row)


def remove_box(db: Database, box_id: str) -> BoxRedaction:
    """Remove a box redaction (undo brings it back)."""
    with db.write() as s:
        row = s.get(BoxRedactionRow, box_id)
        if row is None:
            raise UsageError(f"unknown box redaction {box_id}")
        if row.active:
            action = store_review.PendingAction("box.removed", [], [])
            store_review.set_box(s, action, row, False)
            store_review.record(s, action)
        return _record(row)


def boxes(db: Database, document_id: str, *, active_only: bool = True) -> list[BoxRedaction]:
    stmt = select(BoxRedactionRow).where(BoxRedactionRow.document_id == document_id)
    if active_only:
        stmt = stmt.where(BoxRedactionRow.active.is_(True))
    with db.read() as s:
        return [_record(r) for r in s.scalars(stmt.order_by(BoxRedactionRow.page,
                                                            BoxRedactionRow.created_at))]


def active_page_boxes(s: Session, document_id: str) -> tuple[PageBox, ...]:
    """The document's active box redactions as the exporters take them (inside the
    export's own transaction ``s``)."""
    rows = s.scalars(select(BoxRedactionRow).where(
        BoxRedactionRow.document_id == document_id, BoxRedactionRow.active.is_(True))
        .order_by(BoxRedactionRow.page, BoxRedactionRow.created_at))
    return tuple(PageBox(r.page, r.x0, r.y0, r.x1, r.y1) for r in rows)
