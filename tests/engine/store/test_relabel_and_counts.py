"""A reviewer changes a span's label (undoable, audited, status and range kept), and bulk
'all occurrences' actions can be counted before they run."""

from __future__ import annotations

from pathlib import Path

from engine.core.domain import SpanStatus
from engine.core.labels import Label
from engine.pipeline import PipelineConfig
from engine.project import Project

TEXT = ("Patient: Harold Finch, seen on 03/14/2021, phone 403-555-0199.\n"
        "Harold Finch was seen again; Finch is well.\n")


def test_relabel_is_undoable_and_audited(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    with Project.create(tmp_path / "p.clearnote", pipeline=PipelineConfig(ner=False)) as project:
        project.import_paths([tmp_path / "a.txt"])
        (doc_id,) = list(project.detect().detected)
        phone = next(s for s in project.spans(doc_id) if s.label is Label.PHONE)
        changed = project.set_span_label(phone.id, Label.ID, subtype="MRN")
        assert (changed.label, changed.subtype, changed.status) == \
            (Label.ID, "MRN", phone.status)
        assert (changed.start, changed.end) == (phone.start, phone.end)
        entries = project.audit_log(actions=["span.relabelled"])
        assert [(e.span_id, e.label) for e in entries] == [(phone.id, "ID")]
        assert "403-555" not in str(entries[0].detail)
        project.undo()
        back = {s.id: s for s in project.spans(doc_id)}[phone.id]
        assert (back.label, back.subtype) == (Label.PHONE, phone.subtype)
        project.redo()
        assert {s.id: s for s in project.spans(doc_id)}[phone.id].label is Label.ID
        # the export replaces it under its new label
        project.deidentify(doc_id)


def test_count_all_occurrences_matches_what_the_action_does(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.txt").write_text(TEXT + f"Note {name}.\n", encoding="utf-8")
    with Project.create(tmp_path / "p.clearnote", pipeline=PipelineConfig(ner=False)) as project:
        project.import_paths(sorted(tmp_path.glob("*.txt")))
        a, _b = list(project.detect().detected)
        start = TEXT.index("Finch")
        finch = project.add_manual_span(a, start, start + 5, Label.PATIENT)
        project.set_span_status(finch.id, SpanStatus.CANDIDATE)
        n, docs = project.count_all_occurrences(finch.id, SpanStatus.ACCEPTED, scope="project")
        before = project.spans(a)
        assert len(project.spans(a)) == len(before)  # counting changes nothing
        assert docs == 2 and n >= 2
        assert project.set_status_all_occurrences(finch.id, SpanStatus.ACCEPTED,
                                                  scope="project") == n
        assert project.count_all_occurrences(finch.id, SpanStatus.ACCEPTED,
                                             scope="project") == (0, 0)
