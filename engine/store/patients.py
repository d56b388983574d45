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

from sqlalchemy import Integer, bindparam, delete, func, literal_column, select, update
from sqlalchemy.orm import Session

from engine.core.domain import ACTIVE_STATUSES, Document, Source, Span
from engine.core.labels import Label
from engine.store import repositories as repo
from engine.store.models import DocumentRow, PatientKeyRow, PatientRow, table_of
from engine.store.profiles import listed_patient
from engine.store.records import PatientRecord, PatientSuggestion

LINK_SUBTYPES = frozenset({"MRN", "PHN", "HCN", "ULI"})
DEFAULT_PATIENT = "default"  # surrogate scope of documents not assigned to a patient
_NON_ALNUM = re.compile(r"[^0-9A-Za-z]+")
_SPACES = re.compile(r"\s+")


def _digest(secret: bytes, kind: str, value: str) -> str:
    return hmac.new(secret, f"{kind}\x1f{value}".encode(), hashlib.sha256).hexdigest()


def list_keys(secret: bytes, *, ids: Sequence[tuple[str, str]] = (), name: str = "",
              dob: str = "") -> set[tuple[str, str]]:
    """The (kind, digest) keys of a listed patient, as ``identifier_keys`` computes them
    from a document naming that patient: ids (kind, value), and name + date of birth."""
    keys = {(kind, _digest(secret, kind, value)) for kind, raw in ids
            if kind in LINK_SUBTYPES and len(value := _NON_ALNUM.sub("", raw).upper()) >= 4}
    name = _SPACES.sub(" ", name).strip().casefold()
    dob = _NON_ALNUM.sub("", dob)
    if name and dob:
        keys.add(("NAME_DOB", _digest(secret, "NAME_DOB", f"{name}\x1f{dob}")))
    return keys


def identifier_keys(doc: Document, spans: Sequence[Span], secret: bytes
                    ) -> set[tuple[str, str]]:
    """(kind, digest) of the identifiers in a document that can link it to a patient."""
    active = [s for s in spans if s.status in ACTIVE_STATUSES]
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


# Core tables: these statements run for every document of a batch, and ORM-enabled
# statements cost several times more than the SQL.
_DOCS = table_of(DocumentRow).c
_KEYS = table_of(PatientKeyRow).c
_PATIENTS = table_of(PatientRow)
_LAST_PATIENT = select(func.max(literal_column("rowid", Integer))).select_from(_PATIENTS)


def new_patient(s: Session) -> str:
    """A new patient's id ("P00001", ...)."""
    # Patients are never deleted, so the largest rowid is their number (count(*) would
    # scan the table for every new patient of a batch).
    n = int(s.scalar(_LAST_PATIENT) or 0)
    while True:  # the next free number, should ids ever have gaps
        n += 1
        patient_id = f"P{n:05d}"
        row = dict(id=patient_id, name=patient_id, created_at=time.time())
        if repo.insert_rows(s, _PATIENTS, [row], or_ignore=True):
            return patient_id


_MATCH = (select(_DOCS.patient_id)
          .join_from(table_of(DocumentRow), table_of(PatientKeyRow),
                     _KEYS.document_id == _DOCS.id)
          .where(_KEYS.digest.in_(bindparam("digests", expanding=True)),
                 _DOCS.id != bindparam("document_id"), _DOCS.patient_id.is_not(None))
          .order_by(_DOCS.imported_at).limit(1))


def find_patient(s: Session, document_id: str, keys: set[tuple[str, str]]
                 ) -> tuple[str | None, bool]:
    """The patient an unassigned document with these keys joins: the first patient whose
    documents share a key, else a new patient; None for a document without keys.
    Returns the patient and whether it is new."""
    if not keys:
        return None, False
    # A patient list names who this is first (engine.store.profiles), then other documents.
    match = listed_patient(s, [d for _, d in keys]) or s.scalar(
        _MATCH, {"digests": [d for _, d in keys], "document_id": document_id})
    if match is not None:
        return match, False
    return new_patient(s), True


def store_keys(s: Session, document_id: str, keys: set[tuple[str, str]], *,
               replace: bool = True) -> None:
    if replace:
        s.execute(delete(table_of(PatientKeyRow)).where(_KEYS.document_id == document_id))
    repo.insert_rows(s, table_of(PatientKeyRow),
                     [dict(document_id=document_id, kind=kind, digest=digest)
                      for kind, digest in sorted(keys)])


def store_keys_and_link(s: Session, document_id: str, keys: set[tuple[str, str]], *,
                        patient_id: str | None) -> tuple[str | None, bool]:
    """Replace a document's keys; an unassigned document (``patient_id`` None) joins a
    matching patient (unconfirmed), or a new patient when it has identifiers of its own.
    Returns the document's patient and whether that patient is new."""
    store_keys(s, document_id, keys)
    if patient_id is not None:
        return patient_id, False
    patient_id, created = find_patient(s, document_id, keys)
    if patient_id is not None:
        s.execute(update(table_of(DocumentRow)).where(_DOCS.id == document_id)
                  .values(patient_id=patient_id, patient_confirmed=False))
    return patient_id, created


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


def row_document(cells: Sequence[tuple[Label, str | None, str]]) -> tuple[Document, list[Span]]:
    """A table row's linking cells (label, subtype, value) as a small document of their
    own, each cell one span, so that they give the keys a document naming them gives."""
    text, spans = "", []
    for label, subtype, value in cells:
        if value.strip():
            spans.append(Span(len(text), len(text) + len(value), label,
                              source=Source.MANUAL, subtype=subtype))
            text += value + "\n"
    return Document.from_text(text), spans


def row_keys(cells: Sequence[tuple[Label, str | None, str]], secret: bytes
             ) -> set[tuple[str, str]]:
    doc, spans = row_document(cells)
    return identifier_keys(doc, spans, secret)
