"""CIRE on stored documents: clinical information the de-identification changed, with
the flags kept in the project (ids, reasons and offsets only, no text)."""

from __future__ import annotations

import json
import time

from sqlalchemy import delete, func, select

from engine.cire import CireReport, assess
from engine.core.domain import DeidentifiedText
from engine.core.policies import get_policy
from engine.project import queries
from engine.project.patients import deidentify
from engine.project.state import ProjectState
from engine.store.db import Database
from engine.store.models import CireFlagRow


def retention(state: ProjectState, document_id: str,
              deid: DeidentifiedText | None = None) -> CireReport:
    """CIRE on the document as it would be exported now (pass ``deid`` when the caller
    has just de-identified it); the flags replace the document's previous ones in the
    project (ids, reasons and offsets only, no text)."""
    if deid is None:
        deid = deidentify(state, document_id)
    report = assess(queries.load_document(state.db, document_id), deid,
                    policy=get_policy(state.settings.policy))
    now = time.time()
    with state.db.write() as s:
        s.execute(delete(CireFlagRow).where(CireFlagRow.document_id == document_id))
        s.add_all(CireFlagRow(document_id=document_id, span_id=f.replacement_span_id,
                              severity=f.severity.value, kind=f.reason.value,
                              detail=json.dumps(f.to_json()), created_at=now)
                  for f in report.flags)
    return report


def cire_flag_counts(db: Database) -> dict[str, dict[str, int]]:
    """Stored CIRE flags per document and severity (from the last ``retention`` run)."""
    counts: dict[str, dict[str, int]] = {}
    with db.read() as s:
        rows = s.execute(select(CireFlagRow.document_id, CireFlagRow.severity,
                                func.count()).group_by(CireFlagRow.document_id,
                                                       CireFlagRow.severity))
        for doc_id, severity, n in rows:
            counts.setdefault(doc_id, {})[severity] = n
    return counts
