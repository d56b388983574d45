"""The project learns its institution (issue 25): imported lists, ``adapt`` (review decisions
+ lists + corpus -> a new profile version), going back, removing entries, re-detecting the
documents nobody reviewed, exporting the profile.

Everything a person decided stays: documents with any review decision are never re-detected.
The audit log records each step with counts and versions, never an entry.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, or_, select

from engine.core.context import RunContext
from engine.core.domain import ACTIVE_STATUSES, Document, Source, Span, SpanStatus
from engine.core.errors import UsageError
from engine.profile import (
    Decision,
    DocumentSample,
    ListEntry,
    PhiEntry,
    PhiKind,
    Profile,
    VocabEntry,
    build_profile,
    corpus_statistics,
)
from engine.project import adaptation_summary, recording
from engine.project.adaptation_summary import LearningSummary
from engine.project.lists import read_list
from engine.project.profile_file import write_profile_file
from engine.project.state import ProjectState
from engine.resolution.vocabulary import context_kind
from engine.store import patients as pat
from engine.store import profiles
from engine.store import repositories as repo
from engine.store.models import DocumentRow, PatientKeyRow, RunRow, SpanRow
from engine.store.records import DetectReport, DocumentStatus

_DECIDED = or_(SpanRow.status.in_([SpanStatus.ACCEPTED.value, SpanStatus.REJECTED.value]),
               SpanRow.source == Source.MANUAL.value)


@dataclass(frozen=True)
class ListImportReport:
    rows: int
    entries: int
    patients_new: int = 0
    patients_known: int = 0
    documents_linked: int = 0


@dataclass(frozen=True)
class AdaptReport:
    version: int | None  # the active version after adapt (None: nothing learned)
    previous: int | None
    changed: bool  # False: the same content as the active version
    documents_reviewed: int
    decisions: int
    counts: dict[str, int] = field(default_factory=dict)  # entries by kind, no text
    seconds: float = 0.0
    learned: str = ""  # what the learned resolver did, in words (no PHI)


@dataclass(frozen=True)
class _ProjectRead:
    decisions: list[Decision]
    reviewed: list[str]  # document ids with any decision
    samples: list[DocumentSample]  # every document, for corpus statistics
    examples: list[tuple[Document, tuple[Span, ...]]]  # reviewed documents and their spans


class Adaptation:
    """``project.adaptation``: what the project learned, and learning more."""

    def __init__(self, state: ProjectState) -> None:
        self._state = state
        self._db = state.db

    # ------------------------------------------------------------------ lists

    def import_list(self, path: str | Path, kind: str) -> ListImportReport:
        """Add a patients, staff or places list (see engine.project.lists). A patient list
        ties each row's names and identifiers to that patient: documents naming them join
        the patient and share its surrogates. A bad list changes nothing."""
        rows = read_list(path, kind)
        secret = self._state.secret
        entries: list[tuple[PhiKind, str, str | None]] = []
        new = known = linked = 0
        with self._db.write() as s:
            for row in rows:
                patient: str | None = None
                if kind == "patients":
                    keys = pat.list_keys(secret, ids=row.ids, name=row.name, dob=row.dob)
                    patient = profiles.listed_patient(s, [d for _, d in keys])
                    if patient is None:
                        patient = _document_patient(s, [d for _, d in keys])
                    if patient is None:
                        patient, new = pat.new_patient(s), new + 1
                    else:
                        known += 1
                    profiles.add_list_keys(s, patient, keys)
                    linked += _link_documents(s, patient, [d for _, d in keys])
                if row.name:
                    entries.append((_NAME_KIND[kind], row.name, patient))
                entries += [(k, text, patient if k is PhiKind.PLACE else None)
                            for k, text in row.places]
            profiles.add_list_entries(s, entries)
            repo.audit(s, "list.imported", count=len(rows), kind=kind, entries=len(entries),
                       patients_new=new, patients_known=known, documents_linked=linked)
        return ListImportReport(len(rows), len(entries), new, known, linked)

    # ------------------------------------------------------------------ learning

    def adapt(self, ctx: RunContext | None = None, *,
              learned: dict[str, Any] | None = None) -> AdaptReport:
        """Learn from every reviewed document, the lists and the corpus: a new profile
        version when the content changed. ``learned``: a learned resolver's dict (else one
        is trained, see ``learned_resolver``)."""
        ctx = ctx or RunContext()
        started = time.perf_counter()
        read = self._read_project(ctx)
        decisions, reviewed, samples = read.decisions, read.reviewed, read.samples
        with self._db.read() as s:
            listed = [ListEntry(text, kind, patient)
                      for kind, text, patient in profiles.list_entries(s)]
        summary = ""
        if learned is None:
            ctx.report("adapt", 1, 2, "training the learned resolver")
            learned, summary = learned_resolver(read.examples)
        ctx.report("adapt", 1, 2, "building the profile")
        profile = build_profile(decisions, listed, corpus_statistics(samples), learned=learned,
                                documents_reviewed=len(reviewed))
        report = self._store(profile, note="adapt", decisions=len(decisions),
                             reviewed=len(reviewed))
        ctx.report("adapt", 2, 2, "done")
        return AdaptReport(report[0], report[1], report[2], len(reviewed), len(decisions),
                           profile.counts_by_kind(), time.perf_counter() - started, summary)

    def decisions(self, ctx: RunContext | None = None) -> tuple[list[Decision], list[str]]:
        """Every review decision (with its text) and the reviewed documents' ids."""
        read = self._read_project(ctx or RunContext(), corpus=False)
        return read.decisions, read.reviewed

    def _read_project(self, ctx: RunContext, *, corpus: bool = True) -> _ProjectRead:
        decisions: list[Decision] = []
        samples: list[DocumentSample] = []
        examples: list[tuple[Document, tuple[Span, ...]]] = []
        with self._db.read() as s:
            reviewed = sorted(set(s.scalars(select(SpanRow.document_id).where(_DECIDED))))
            decided = set(reviewed)
            rows = list(s.execute(select(DocumentRow.id, DocumentRow.patient_id)
                                  .order_by(DocumentRow.id)))
            for index, (doc_id, patient) in enumerate(rows):
                if doc_id not in decided and not corpus:
                    continue
                ctx.check()
                doc = repo.load_document(s, doc_id)
                if doc is None:
                    continue
                spans = repo.spans_of(s, doc_id)
                if doc_id in decided:
                    examples.append((doc, tuple(spans)))
                    decisions += [Decision(doc.slice(sp), sp.label,
                                           sp.status is not SpanStatus.REJECTED,
                                           context_kind(doc, sp), patient)
                                  for sp in spans if sp.status in
                                  (SpanStatus.ACCEPTED, SpanStatus.REJECTED)
                                  or sp.source is Source.MANUAL]
                if corpus:
                    samples.append(DocumentSample(
                        patient or f"document:{doc_id}", doc.text,
                        tuple(sp for sp in spans if sp.status in ACTIVE_STATUSES),
                        reviewed=doc_id in decided,
                        accepted=tuple((sp.start, sp.end) for sp in spans
                                       if sp.status is SpanStatus.ACCEPTED)))
                ctx.report("adapt", index + 1, len(rows), "reading the project")
        return _ProjectRead(decisions, reviewed, samples, examples)

    def _store(self, profile: Profile, *, note: str, decisions: int = 0,
               reviewed: int = 0) -> tuple[int | None, int | None, bool]:
        with self._db.write() as s:
            previous = profiles.active_version(s)
            current = profiles.load(s, previous) if previous is not None else None
            if current is not None and current.to_bytes() == profile.to_bytes():
                return previous, previous, False
            if current is None and profile.empty:
                return None, None, False
            version = profiles.add_version(s, profile, note)
            repo.audit(s, f"profile.{note}", count=len(profile.phi) + len(profile.vocabulary),
                       version=version, previous=previous,
                       content_version=profile.content_version, decisions=decisions,
                       documents_reviewed=reviewed, learned=profile.learned is not None,
                       entries=profile.counts_by_kind())
        self._state.profile_changed()
        return version, previous, True

    # ------------------------------------------------------------------ inspecting, undo

    @property
    def profile(self) -> Profile | None:
        return self._state.profile

    def versions(self) -> list[profiles.ProfileVersion]:
        with self._db.read() as s:
            return profiles.versions(s)

    def remove_entries(self, entries: Iterable[PhiEntry | VocabEntry]) -> int | None:
        """A new version without ``entries`` (a person removed them); undoable."""
        current = self.profile
        if current is None:
            raise UsageError("the project has learned nothing yet (run adapt first)")
        version, _, _ = self._store(current.without(entries), note="removed")
        return version

    def use_profile(self, profile: Profile) -> int | None:
        """Make ``profile`` (another project's, from a profile file) the active version."""
        version, _, _ = self._store(profile, note="imported")
        return version

    def undo(self) -> int | None:
        """Go back to the version before the active one (None: no profile at all)."""
        with self._db.write() as s:
            active = profiles.active_version(s)
            if active is None:
                raise UsageError("there is no learned profile to go back from")
            previous = profiles.previous_version(s)
            profiles.set_active(s, previous)
            repo.audit(s, "profile.reverted", version=previous, previous=active)
        self._state.profile_changed()
        return previous

    def summary(self) -> LearningSummary:
        """Counts for offering to learn: decisions now and when last learned, documents a
        re-check would touch (no text)."""
        return adaptation_summary.summary(self._state, _DECIDED, self.stale_documents())

    def entry_matches(self, entries: Iterable[PhiEntry | VocabEntry],
                      ctx: RunContext | None = None) -> dict[PhiEntry | VocabEntry, int]:
        """How many places in the unreviewed documents each entry matches."""
        return adaptation_summary.entry_matches(self._state, _DECIDED, entries, ctx)

    # ------------------------------------------------------------------ re-detection, export

    def stale_documents(self) -> list[str]:
        """Documents to detect now: imported ones, and detected ones without any review
        decision whose last detection predates the active profile."""
        with self._db.read() as s:
            since = profiles.activated_at(s)
            decided = set(s.scalars(select(SpanRow.document_id).where(_DECIDED)))
            last = dict(s.execute(select(RunRow.document_id, func.max(RunRow.created_at))
                                  .group_by(RunRow.document_id)).all())
            rows = repo.document_rows(s, statuses=[DocumentStatus.IMPORTED,
                                                   DocumentStatus.DETECTED])
        return [r.id for r in rows if r.status == DocumentStatus.IMPORTED.value or (
            r.id not in decided and last.get(r.id, 0.0) < since)]

    def redetect(self, ctx: RunContext | None = None, *, workers: int = 1) -> DetectReport:
        """``clearnote project detect``: every document nobody reviewed, with the profile."""
        ids = self.stale_documents()
        if not ids:
            return DetectReport()
        return recording.detect(self._state, ids, ctx, workers=workers)

    def export_profile(self, path: str | Path, passphrase: str) -> Path:
        current = self.profile
        if current is None:
            raise UsageError("the project has learned nothing yet (run adapt first)")
        written = write_profile_file(current, path, passphrase)
        with self._db.write() as s:
            repo.audit(s, "profile.exported", version=profiles.active_version(s),
                       content_version=current.content_version)
        return written


def learned_resolver(examples: Sequence[tuple[Document, tuple[Span, ...]]]
                     ) -> tuple[dict[str, Any] | None, str]:
    """The learned resolver (engine.resolution.learned_training) trained on the reviewed
    documents with their spans: (its ``to_dict()`` or None when it refuses, what it did in
    words, no PHI)."""
    from engine.resolution import learned_training as training  # numpy: only when learning

    outcome = training.train_resolver(
        [training.ReviewedDocument(doc, spans) for doc, spans in examples])
    summary = f"learned resolver: {outcome.reason}"
    cv = outcome.cv
    if cv is not None:
        summary += (f"; cross-validated on the reviewed documents: token precision "
                    f"{_figure(cv.token_precision_before)} -> "
                    f"{_figure(cv.token_precision_after)}, recall "
                    f"{_figure(cv.token_recall_before)} -> {_figure(cv.token_recall_after)}")
    resolver = outcome.resolver
    return (resolver.to_dict() if resolver is not None else None), summary


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


_NAME_KIND = {"patients": PhiKind.PATIENT, "staff": PhiKind.STAFF, "places": PhiKind.PLACE}


def _document_patient(s: Any, digests: Sequence[str]) -> str | None:
    """The patient of an already linked document carrying one of these digests."""
    if not digests:
        return None
    return s.scalar(select(DocumentRow.patient_id)
                    .join(PatientKeyRow, PatientKeyRow.document_id == DocumentRow.id)
                    .where(PatientKeyRow.digest.in_(list(digests)),
                           DocumentRow.patient_id.is_not(None))
                    .order_by(DocumentRow.imported_at).limit(1))


def _link_documents(s: Any, patient: str, digests: Sequence[str]) -> int:
    """Unassigned documents carrying one of these digests join ``patient`` (unconfirmed,
    shown for confirmation like every automatic link)."""
    if not digests:
        return 0
    ids = set(s.scalars(select(PatientKeyRow.document_id)
                        .where(PatientKeyRow.digest.in_(list(digests)))))
    rows = [r for r in repo.document_rows(s, ids=ids) if r.patient_id is None]
    for row in rows:
        row.patient_id = patient
        row.patient_confirmed = False
    return len(rows)
