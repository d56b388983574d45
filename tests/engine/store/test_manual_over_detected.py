"""A reviewer's manual span over an already-detected span: the manual span wins (the
covered span becomes SUPERSEDED in the same undoable action), and de-identification and
export never fail with "overlapping spans", also for projects that hold such overlaps
from before (a superseded span re-accepted by hand)."""

from __future__ import annotations

from pathlib import Path

from engine.core.domain import Source, SpanStatus
from engine.core.labels import Label
from engine.pipeline import PipelineConfig
from engine.project import Project

TEXT = "Patient: Harold Finch, seen on 03/14/2021, phone 403-555-0199.\n"


def _project(tmp_path: Path) -> tuple[Project, str]:
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    project = Project.create(tmp_path / "p.clearnote", pipeline=PipelineConfig(ner=False))
    project.import_paths([tmp_path / "a.txt"])
    (doc_id,) = list(project.detect().detected)
    return project, doc_id


def _detected(project: Project, doc_id: str, word: str):  # type: ignore[no-untyped-def]
    start = TEXT.index(word)
    return next(s for s in project.spans(doc_id)
                if s.start <= start < s.end and s.status is SpanStatus.CANDIDATE)


def test_manual_span_exactly_over_a_candidate_wins(tmp_path: Path) -> None:
    project, doc_id = _project(tmp_path)
    with project:
        phone = _detected(project, doc_id, "403-555")
        manual = project.add_manual_span(doc_id, phone.start, phone.end, Label.ID)
        by_id = {s.id: s for s in project.spans(doc_id)}
        assert by_id[phone.id].status is SpanStatus.SUPERSEDED
        assert by_id[manual.id].status is SpanStatus.ACCEPTED
        deid = project.deidentify(doc_id)  # failed: "overlapping spans"
        assert "403-555-0199" not in deid.text
        assert [r for r in deid.replacements if r.span_id == manual.id]
        audit = project.audit_log(actions=["span.superseded"])
        assert [e.span_id for e in audit] == [phone.id]
        assert project.undo() is not None  # one action: the add and the supersede
        by_id = {s.id: s for s in project.spans(doc_id)}
        assert manual.id not in by_id and by_id[phone.id].status is SpanStatus.CANDIDATE
        project.redo()
        assert {s.id: s for s in project.spans(doc_id)}[phone.id].status \
            is SpanStatus.SUPERSEDED


def test_partly_overlapping_manual_span_covers_what_it_cuts_into(tmp_path: Path) -> None:
    project, doc_id = _project(tmp_path)
    with project:
        name = _detected(project, doc_id, "Harold")
        start = TEXT.index("Finch")  # from inside the name to the comma after it
        manual = project.add_manual_span(doc_id, start, start + len("Finch,"), Label.PATIENT)
        assert {s.id: s for s in project.spans(doc_id)}[name.id].status \
            is SpanStatus.SUPERSEDED
        # Recall first: the reviewer's span grew over the whole name it cut into, so no
        # part of it ("Harold") is left in clear.
        assert (manual.start, manual.end) == (name.start, start + len("Finch,"))
        deid = project.deidentify(doc_id)
        assert "Finch," not in deid.text and "Harold" not in deid.text
        report = project.export([doc_id], out_dir=tmp_path / "out", formats=("txt",))
        assert report.exported and manual.source is Source.MANUAL
        # Undo brings the detected name back as it was.
        project.undo()
        assert {s.id: s for s in project.spans(doc_id)}[name.id].status \
            is SpanStatus.CANDIDATE


def test_overlap_left_in_a_project_is_resolved_at_deidentification(tmp_path: Path) -> None:
    project, doc_id = _project(tmp_path)
    with project:
        phone = _detected(project, doc_id, "403-555")
        manual = project.add_manual_span(doc_id, phone.start, phone.end - 2, Label.PHONE)
        project.set_span_status(phone.id, SpanStatus.ACCEPTED)  # both live again
        live = [s for s in project.spans(doc_id)
                if s.status is SpanStatus.ACCEPTED and s.id in (phone.id, manual.id)]
        assert len(live) == 2
        deid = project.deidentify(doc_id)
        assert "403-555-01" not in deid.text
        project.export([doc_id], out_dir=tmp_path / "out", formats=("txt",))
