"""Patients (the scope of surrogates and date shifts) and de-identification of stored
documents under their patient."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import update

from engine.core.domain import ACTIVE_STATUSES, DeidentifiedText
from engine.core.errors import UsageError
from engine.project import queries
from engine.project.state import ProjectState
from engine.store import patients as pat
from engine.store import repositories as repo
from engine.store.db import Database
from engine.store.models import DocumentRow, PatientRow
from engine.store.records import PatientRecord, PatientSuggestion


def patients(db: Database) -> list[PatientRecord]:
    with db.read() as s:
        return pat.patient_records(s)


def suggestions(db: Database) -> list[PatientSuggestion]:
    with db.read() as s:
        return pat.suggestions(s)


def create_patient(db: Database, name: str | None = None) -> PatientRecord:
    """A new patient; ``name`` is a pseudonymous label (not the person's name)."""
    with db.write() as s:
        patient_id = pat.new_patient(s)
        if name:
            s.execute(update(PatientRow).where(PatientRow.id == patient_id)
                      .values(name=name))
        repo.audit(s, "patient.created", patient=patient_id)
        return PatientRecord(patient_id, name or patient_id, (), True)


def assign_patient(db: Database, document_ids: Iterable[str], patient_id: str | None) -> None:
    """A person's decision: these documents belong to this patient (None: to none)."""
    ids = list(document_ids)
    with db.write() as s:
        if patient_id is not None and s.get(PatientRow, patient_id) is None:
            raise UsageError(f"unknown patient id {patient_id}")
        for doc_id in ids:
            row = s.get(DocumentRow, doc_id)
            if row is None:
                raise UsageError(f"unknown document id {doc_id}")
            row.patient_id = patient_id
            row.patient_confirmed = patient_id is not None
            repo.audit(s, "patient.assigned", document_id=doc_id, patient=patient_id)


def confirm_patient(db: Database, document_id: str) -> None:
    with db.write() as s:
        row = s.get(DocumentRow, document_id)
        if row is None or row.patient_id is None:
            raise UsageError(f"document {document_id} has no patient link to confirm")
        row.patient_confirmed = True
        repo.audit(s, "patient.confirmed", document_id=document_id, patient=row.patient_id)


def deidentify(state: ProjectState, document_id: str) -> DeidentifiedText:
    doc = queries.load_document(state.db, document_id)
    active = queries.replaceable(queries.spans(state.db, document_id,
                                               statuses=ACTIVE_STATUSES))
    with state.deid_lock:
        return state.session.deidentify(doc, active,
                                        patient=queries.patient_key(state.db, document_id))


def surrogate_preview(state: ProjectState, span_id: str) -> str:
    """What this span will read as in the export (the surrogate is registered now, so
    the export shows the same value)."""
    doc_id, span = queries.span(state.db, span_id)
    doc = queries.load_document(state.db, doc_id)
    with state.deid_lock:
        deid = state.session.deidentify(doc, [span],
                                        patient=queries.patient_key(state.db, doc_id))
    for rep in deid.replacements:
        if rep.span_id == span.id:
            return deid.text[rep.output_start:rep.output_end]
    return deid.text[span.start:span.end + len(deid.text) - len(doc.text)]
