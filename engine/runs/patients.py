"""Patients in a run without a project, linked as a project links them
(``engine.store.patients``): a document joins the patient of the earliest document that
shares an MRN / PHN / HCN / ULI or a name + date of birth, else a new patient ("P00001",
numbered in input order); a document without such identifiers stays in the default scope.
So the folder sink and the project sink give a document the same surrogate scope, and the
same de-identified text for the same secret. Digests stay in memory, never written."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.domain import Document, Span
from engine.core.labels import Label
from engine.store.patients import DEFAULT_PATIENT, identifier_keys, row_document, row_keys

__all__ = ["DEFAULT_PATIENT", "PatientLinker", "row_document", "row_keys"]


class PatientLinker:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._first: dict[str, tuple[int, str]] = {}  # digest -> (document order, patient)
        self._documents = 0
        self._patients = 0

    def patient_for(self, doc: Document, spans: Sequence[Span]) -> str:
        """Call in input order: patient numbers follow it."""
        self._documents += 1
        digests = [digest for _kind, digest in identifier_keys(doc, spans, self._secret)]
        if not digests:
            return DEFAULT_PATIENT
        matches = [self._first[d] for d in digests if d in self._first]
        if matches:
            patient = min(matches)[1]
        else:
            self._patients += 1
            patient = f"P{self._patients:05d}"
        for digest in digests:
            self._first.setdefault(digest, (self._documents, patient))
        return patient

    def first_patients(self) -> dict[str, tuple[int, str]]:
        """Each key digest's (first document, patient): a row's patient is the patient of
        the earliest of its digests, once every row was seen (Spark's workers use it)."""
        return dict(self._first)

    def patient_for_row(self, cells: Sequence[tuple[Label, str | None, str]]) -> str:
        """A table row's patient, linked by the same keys as a document's (``row_keys``),
        so an MRN or a name + date of birth in a table joins the patient of the notes
        that hold it."""
        doc, spans = row_document(cells)
        return self.patient_for(doc, spans)
