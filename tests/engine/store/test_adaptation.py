"""The project learns (issue 25): lists, adapt, versions and undo, re-detection that never
touches reviewed documents, encrypted profile files, bad lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.domain import Source, SpanStatus
from engine.core.errors import InputError, WrongPassphraseError
from engine.core.labels import Label
from engine.pipeline import PipelineConfig
from engine.project import Services
from engine.project.profile_file import read_profile_file

NOTES = {
    "a.txt": "Nursing note. Pt Quilla Lindqvist resting. Bruce protocol done. cont abx.\n",
    "b.txt": "LINDQVIST, Q. seen on Kessler 3 by Dr. Haldane. Plan: cont current meds.\n",
    "c.txt": "Q. Lindqvist's daughter called. Sm1th present. Transfer to Kessler-4B.\n",
}
PATIENTS_CSV = "First Name,Last Name,MRN,Date of Birth\nQuilla,Lindqvist,4471120,1950-03-02\n"


@pytest.fixture
def project(make_project, tmp_path: Path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    p = make_project(services=Services(), pipeline=PipelineConfig(ner=False))
    p.import_paths([folder])
    p.detect()
    return p


def _doc(project, name: str) -> str:
    return next(d.id for d in project.documents() if d.source_path.endswith(name))


def _texts(project, doc_id: str) -> dict[str, str]:
    text = project.document_text(doc_id)
    return {text[s.start:s.end]: s.label.value for s in project.spans(doc_id)
            if s.status in (SpanStatus.CANDIDATE, SpanStatus.ACCEPTED)}


def test_lists_adapt_and_redetect_leave_reviewed_documents_untouched(project, tmp_path) -> None:
    reviewed = _doc(project, "a.txt")
    for span in project.spans(reviewed):  # the reviewer accepts everything but one span
        status = SpanStatus.REJECTED if project.document_text(reviewed)[
            span.start:span.end] == "Bruce" else SpanStatus.ACCEPTED
        project.set_span_status(span.id, status)
    before = [(s.id, s.start, s.end, s.label, s.status) for s in project.spans(reviewed)]
    csv = tmp_path / "patients.csv"
    csv.write_text(PATIENTS_CSV, encoding="utf-8")
    listed = project.adaptation.import_list(csv, "patients")
    assert (listed.rows, listed.entries, listed.patients_new) == (1, 1, 1)
    wards = tmp_path / "wards.csv"
    wards.write_text("Ward;Clinic\nKessler;\n", encoding="utf-8")
    assert project.adaptation.import_list(wards, "places").entries == 1
    unreviewed = _doc(project, "b.txt")
    assert "LINDQVIST, Q." not in _texts(project, unreviewed)

    report = project.adaptation.adapt()
    assert report.version == 1 and report.changed and report.documents_reviewed == 1
    assert report.counts["phi.patient"] >= 1
    assert project.adaptation.adapt().changed is False  # same project, same profile
    detected = project.adaptation.redetect()
    assert reviewed not in detected.detected and unreviewed in detected.detected
    assert project.adaptation.redetect().detected == ()  # nothing stale any more
    after = [(s.id, s.start, s.end, s.label, s.status) for s in project.spans(reviewed)]
    assert after == before
    found = _texts(project, unreviewed)
    assert found.get("LINDQVIST, Q.") == "PATIENT" and found.get("Kessler 3") == "HOSPITAL"
    assert _texts(project, _doc(project, "c.txt")).get("Kessler-4B") == "HOSPITAL"

    audit = [e for e in project.audit_log() if e.action.startswith(("profile.", "list."))]
    assert [e.action for e in audit] == ["list.imported", "list.imported", "profile.adapt"]
    assert all("Lindqvist" not in e.detail and "Quilla" not in e.detail for e in audit)


def test_versions_undo_and_removing_an_entry(project, tmp_path) -> None:
    csv = tmp_path / "staff.csv"
    csv.write_text("Name,Ward\nDana Lang,Kessler\n", encoding="utf-8")
    project.adaptation.import_list(csv, "staff")
    first = project.adaptation.adapt().version
    profile = project.adaptation.profile
    assert profile is not None and {e.text for e in profile.phi} == {"dana lang", "kessler"}
    ward = next(e for e in profile.phi if e.text == "kessler")
    second = project.adaptation.remove_entries([ward])
    assert second == 2 and ward not in project.adaptation.profile.phi
    assert project.adaptation.undo() == first
    assert ward in project.adaptation.profile.phi
    assert project.adaptation.undo() is None and project.adaptation.profile is None
    assert [v.version for v in project.adaptation.versions()] == [1, 2]
    assert project.adaptation.redetect().detected  # back to no profile: re-checked


def test_a_patient_list_ties_documents_to_the_listed_patient(project, tmp_path) -> None:
    csv = tmp_path / "patients.csv"
    csv.write_text(PATIENTS_CSV, encoding="utf-8")
    project.adaptation.import_list(csv, "patients")
    [patient] = project.patients()
    entry = next(iter(project.adaptation.adapt() and project.adaptation.profile.phi))
    assert entry.patient == patient.id
    later = tmp_path / "later"
    later.mkdir()
    (later / "d.txt").write_text("Clinic letter. MRN: 4471120. Doing well.\n", encoding="utf-8")
    [doc_id] = project.import_paths([later]).imported
    project.detect([doc_id])
    assert project.document(doc_id).patient_id == patient.id  # the same surrogates


def test_profile_files_are_encrypted_and_refuse_a_wrong_passphrase(project, tmp_path) -> None:
    csv = tmp_path / "patients.csv"
    csv.write_text(PATIENTS_CSV, encoding="utf-8")
    project.adaptation.import_list(csv, "patients")
    project.adaptation.adapt()
    out = project.adaptation.export_profile(tmp_path / "site.clearnote-profile", "tulip-7")
    raw = out.read_bytes()
    assert b"lindqvist" not in raw.lower() and not raw.startswith(b"SQLite format 3")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    assert read_profile_file(out, "tulip-7") == project.adaptation.profile
    with pytest.raises(WrongPassphraseError, match="wrong passphrase"):
        read_profile_file(out, "tulip-8")
    with pytest.raises(WrongPassphraseError, match="or not a ClearNote profile"):
        read_profile_file(csv, "tulip-7")


@pytest.mark.parametrize(("content", "message"), [
    (b"MRN,Date of Birth\n4471120,1950-03-02\n", r"line 1: no name column"),
    ("Name\nQuilla Lindqvist\nZoë M\u00fcller\n".encode("latin-1"), r"line 3: not UTF-8"),
    (b"", r"the list is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", r"binary"),
    (b"Name,MRN\nQuilla Lindqvist,1\n,2\n", r"line 3: no name"),
    (b"Name\n", r"header but no rows"),
])
def test_bad_lists_are_refused_naming_file_and_line_and_change_nothing(
        project, tmp_path, content: bytes, message: str) -> None:
    path = tmp_path / "list.csv"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message) as info:
        project.adaptation.import_list(path, "patients")
    assert "list.csv" in str(info.value) and "Lindqvist" not in str(info.value)
    assert project.patients() == [] or all(not p.document_ids for p in project.patients())
    assert project.adaptation.adapt().version is None  # nothing listed, nothing reviewed
    assert [e for e in project.audit_log() if e.action == "list.imported"] == []


def test_manual_spans_count_as_decisions(project) -> None:
    doc_id = _doc(project, "c.txt")
    start = project.document_text(doc_id).index("Sm1th")
    project.add_manual_span(doc_id, start, start + 5, Label.PERSON)
    decisions, reviewed = project.adaptation.decisions()
    assert reviewed == [doc_id]
    assert any(d.text == "Sm1th" and d.accepted for d in decisions)
    assert all(s.source is Source.MANUAL or s.status is SpanStatus.CANDIDATE
               for s in project.spans(doc_id))


def test_adapt_reports_what_the_learned_resolver_did(project) -> None:
    doc_id = _doc(project, "a.txt")
    project.set_span_status(project.spans(doc_id)[0].id, SpanStatus.REJECTED)
    report = project.adaptation.adapt()
    # Until engine.resolution.learned_training is in the build, adapt says so; once it is,
    # one decision is below its minimum and it refuses in words.
    assert report.learned.startswith("learned resolver: ")
    assert project.adaptation.profile is not None
    assert project.adaptation.profile.learned is None
