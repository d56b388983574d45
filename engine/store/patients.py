"""Patients: documents grouped so that one person keeps one set of surrogates and one date
shift. A person assigns documents, or ClearNote links a document to a patient whose other
documents share an MRN / PHN / HCN / ULI or a name + date of birth. Automatic links are
stored unconfirmed and always shown for confirmation.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from engine.core.domain import Document, Span, SpanStatus
from engine.core.labels import Label
from engine.store.models import DocumentRow, PatientKeyRow, PatientRow
from engine.store.records import PatientRecord, PatientSuggestion

LINK_SUBTYPES = frozenset({"MRN", "PHN", "HCN", "ULI"})
DEFAULT_PATIENT = "default"  # surrogate scope of documents not assigned to a patient
_NON_ALNUM = re.compile(r"[^0-9A-Za-z]+")
_SPACES = re.compile(r"\s+")


def _digest(secret: bytes, kind: str, value: str) -> str:
    return hmac.new(secret, f"{kind}\x1f{value}".encode(), hashlib.sha256).hexdigest()


def identifier_keys(doc: Document, spans: Sequence[Span], secret: bytes
                    ) -> set[tuple[str, str]]:
    """(kind, digest) of the identifiers in a document that can link it to a patient."""
    active = [s for s in spans if s.status in (SpanStatus.CANDIDATE, SpanStatus.ACCEPTED)]
    keys: set[tuple[str, str]] = set()
    for span in active:
        if span.label is Label.ID and span.subtype in LINK_SUBTYPES:
            value = _NON_ALNUM.sub("", doc.slice(span)).upper()
            if len(value) >= 4:
                keys.add((span.subtype, _digest(secret, span.subtype, value)))
    names = {_SPACES.sub(" ", doc.slice(s)).strip().casefold()
             for s in active if s.label is Label.PATIENT}
    dobs = {_NON_ALNUM.sub("", doc.slice(s)) for s in active
            if s.label is Label.DATE and s.subtype == "DOB"}
    for name in names:
        for dob in dobs:
            keys.add(("NAME_DOB", _digest(secret, "NAME_DOB", f"{name}\x1f{dob}")))
    return keys


def new_patient(s: Session) -> PatientRow:
    n = int(s.scalar(select(func.count()).select_from(PatientRow)) or 0) + 1
    while s.get(PatientRow, f"P{n:05d}") is not None:
        n += 1
    row = PatientRow(id=f"P{n:05d}", name=f"P{n:05d}", created_at=time.time())
    s.add(row)
    s.flush()
    return row


def store_keys_and_link(s: Session, document_id: str, keys: set[tuple[str, str]]) -> None:
    """Replace a document's keys; an unassigned document joins a matching patient
    (unconfirmed), or a new patient when it has identifiers of its own."""
    s.execute(delete(PatientKeyRow).where(PatientKeyRow.document_id == document_id))
    for kind, digest in sorted(keys):
        s.add(PatientKeyRow(document_id=document_id, kind=kind, digest=digest))
    doc = s.get(DocumentRow, document_id)
    if doc is None or doc.patient_id is not None or not keys:
        return
    match = s.scalar(
        select(DocumentRow.patient_id)
        .join(PatientKeyRow, PatientKeyRow.document_id == DocumentRow.id)
        .where(PatientKeyRow.digest.in_([d for _, d in keys]),
               DocumentRow.id != document_id, DocumentRow.patient_id.is_not(None))
        .order_by(DocumentRow.imported_at).limit(1))
    doc.patient_id = match if match is not None else new_patient(s).id
    doc.patient_confirmed = False


def patient_records(s: Session) -> list[PatientRecord]:
    out: list[PatientRecord] = []
    for p in s.scalars(select(PatientRow).order_by(PatientRow.id)):
        docs = list(s.execute(select(DocumentRow.id, DocumentRow.patient_confirmed)
                              .where(DocumentRow.patient_id == p.id)
                              .order_by(DocumentRow.id)))
        out.append(PatientRecord(p.id, p.name, tuple(d for d, _ in docs),
                                 all(c for _, c in docs)))
    return out


def suggestions(s: Session) -> list[PatientSuggestion]:
    """Groups of documents sharing an identifier but not (all) in one patient."""
    rows = list(s.execute(select(PatientKeyRow.digest, PatientKeyRow.kind,
                                 PatientKeyRow.document_id, DocumentRow.patient_id)
                          .join(DocumentRow, DocumentRow.id == PatientKeyRow.document_id)))
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    by_digest: dict[str, list[str]] = {}
    kinds: dict[str, set[str]] = {}
    for digest, kind, doc_id, _ in rows:
        by_digest.setdefault(digest, []).append(doc_id)
        kinds.setdefault(digest, set()).add(kind)
        find(doc_id)
    for docs in by_digest.values():
        for other in docs[1:]:
            parent[find(other)] = find(docs[0])
    groups: dict[str, set[str]] = {}
    for doc_id in parent:
        groups.setdefault(find(doc_id), set()).add(doc_id)
    patient_of = {doc_id: pid for _, _, doc_id, pid in rows}
    out: list[PatientSuggestion] = []
    for members in groups.values():
        if len(members) < 2 or len({patient_of.get(d) for d in members}) == 1 and \
                None not in {patient_of.get(d) for d in members}:
            continue
        group_kinds = {k for digest, ks in kinds.items() for k in ks
                       if set(by_digest[digest]) & members}
        out.append(PatientSuggestion(tuple(sorted(members)), tuple(sorted(group_kinds))))
    return sorted(out, key=lambda g: g.document_ids)
