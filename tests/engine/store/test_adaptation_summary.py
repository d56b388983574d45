"""What the desktop shows about learning (issue 25): counts for the offer, and how many
places each learned entry matches in the documents nobody reviewed. Synthetic PHI only."""

from __future__ import annotations

from pathlib import Path

from engine.core.domain import SpanStatus
from engine.core.labels import Label
from engine.pipeline import PipelineConfig
from engine.profile import EntrySource, PhiEntry, PhiKind, VocabEntry
from engine.project import Services
from engine.project.adaptation_summary import match_key

NOTES = {
    "a.txt": "Pt Quilla Lindqvist seen by Dr. Haldane. Haldane to call back.\n",
    "b.txt": "LINDQVIST, Quilla: HALDANE's note. Quilla  Lindqvist's daughter. St. Mary's.\n",
    "c.txt": "Dr. Haldane-Berg on call. Foley in place; foley changed.\n",
}


def test_summary_and_entry_matches(make_project, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    project = make_project(services=Services(), pipeline=PipelineConfig(ner=False))
    project.import_paths([folder])
    project.detect()
    adaptation = project.adaptation
    first = adaptation.summary()
    assert (first.decisions, first.learned_decisions, first.version, first.versions,
            first.unreviewed) == (0, 0, None, 0, 3)

    reviewed = next(d.id for d in project.documents() if d.source_path.endswith("a.txt"))
    spans = project.spans(reviewed)
    for span in spans:
        project.set_span_status(span.id, SpanStatus.ACCEPTED)
    adaptation.adapt()
    after = adaptation.summary()
    assert after.decisions == len(spans) == after.learned_decisions and after.new_decisions == 0
    assert (after.version, after.versions, after.unreviewed) == (1, 1, 2)
    assert after.stale == 2  # detected before the profile: a re-check would touch them

    name = PhiEntry("quilla lindqvist", Label.PATIENT, PhiKind.PATIENT, EntrySource.REVIEW)
    doctor = PhiEntry("haldane", Label.DOCTOR, PhiKind.STAFF, EntrySource.REVIEW)
    saint = PhiEntry("st. mary", Label.HOSPITAL, PhiKind.HOSPITAL, EntrySource.LIST)
    foley = VocabEntry("foley", Label.PATIENT, EntrySource.CORPUS)
    absent = VocabEntry("bruce", Label.DOCTOR, EntrySource.REVIEW, "name")
    counts = adaptation.entry_matches([name, doctor, saint, foley, absent])
    # a.txt is reviewed: never counted. "LINDQVIST, Quilla" is not "quilla lindqvist";
    # "Haldane-Berg" is another name; case, possessives and spacing do not matter.
    assert counts == {name: 1, doctor: 1, saint: 1, foley: 2, absent: 0}
    assert match_key("St. Mary's") == "st mary" == match_key("ST MARY")
