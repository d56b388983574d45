from __future__ import annotations

import logging
import re
import sqlite3
import threading
from datetime import date
from pathlib import Path

import pytest

from engine.core.domain import SpanStatus
from engine.core.errors import UsageError
from engine.core.labels import Label
from engine.project import Project
from engine.store import DocumentStatus
from tests.engine.store.fakes import FAKE_SERVICES, Letter, letter


def _import_detect(project: Project, folder: Path) -> list[str]:
    report = project.import_paths([folder])
    assert not report.failed
    project.detect()
    return list(report.imported)


def test_create_open_pragmas_and_settings(make_project, tmp_path: Path) -> None:
    project = make_project(policy="hipaa")
    with project.db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000
    project.update_settings(mode="tag", user_dictionary=[("Kestrel Clinic", "HOSPITAL")])
    path = project.path
    project.close()
    with Project.open(path, services=FAKE_SERVICES) as again:
        assert again.settings.policy == "hipaa"
        assert again.settings.mode.value == "tag"
        assert again.settings.user_dictionary == (("Kestrel Clinic", "HOSPITAL"),)
        change = again.audit_log(actions=["settings.changed"])[0]
        assert "Kestrel" not in change.detail and "user_dictionary" in change.detail
    with pytest.raises(UsageError):
        Project.create(path, services=FAKE_SERVICES)
    not_a_project = tmp_path / "other.clearnote"
    sqlite3.connect(not_a_project).execute("CREATE TABLE x (a)").connection.close()
    from engine.core.errors import ProjectError
    with pytest.raises(ProjectError):
        Project.open(not_a_project, services=FAKE_SERVICES)


def test_create_removes_what_a_killed_create_left(make_project, tmp_path: Path) -> None:
    # A create killed midway leaves its temp file (and WAL) beside the project's name.
    left = [tmp_path / f".cn-tmp-0badc0de-study.clearnote{suffix}" for suffix in
            ("", "-wal", "-shm")]
    other = tmp_path / ".cn-tmp-0badc0de-other.clearnote"  # another project's: kept
    for path in [*left, other]:
        path.write_bytes(b"half a project")
    project = make_project("study")
    assert project.path.is_file()
    assert not any(p.exists() for p in left) and other.exists()


def test_import_dedups_and_records_failures(make_project, letters: Path) -> None:
    project = make_project()
    (letters / "copy.txt").write_text(letter(0).text(0), encoding="utf-8")  # duplicate
    (letters / "empty.txt").write_text("  ", encoding="utf-8")
    (letters / "scan.png").write_bytes(b"\x89PNG not really")
    report = project.import_paths([letters])
    assert len(report.imported) == 4
    assert len(report.duplicates) == 1
    assert {f.path.name for f in report.failed} == {"empty.txt", "scan.png"}
    assert all("EmptyDocumentError" in f.reason or "Unsupported" in f.reason
               for f in report.failed)
    again = project.import_paths([letters])
    assert not again.imported and len(again.duplicates) == 7  # failures are known too
    failed = project.documents(status=DocumentStatus.FAILED)
    assert len(failed) == 2 and all(d.reason for d in failed)
    doc_id = report.imported[0]
    assert project.document_text(doc_id).startswith("Referral letter")
    assert project.document(doc_id).status is DocumentStatus.IMPORTED


def test_detect_stores_spans_runs_and_links_patients(make_project, letters: Path,
                                                     tmp_path: Path) -> None:
    project = make_project()
    same_patient = tmp_path / "later"
    same_patient.mkdir()
    (same_patient / "followup.txt").write_text(letter(1).text(99), encoding="utf-8")
    ids = _import_detect(project, letters)
    ids += list(project.import_paths([same_patient]).imported)
    report = project.detect()
    assert len(report.detected) == 1
    for doc_id in ids:
        assert project.document(doc_id).status is DocumentStatus.DETECTED
        labels = {s.label for s in project.spans(doc_id)}
        assert {Label.PATIENT, Label.DATE, Label.ID, Label.PHONE} <= labels
    assert project.settings.detectors == ("fake.rules@1",)
    # letter 1 and the follow-up share an MRN: linked to one patient, unconfirmed.
    first, followup = project.document(ids[1]), project.document(ids[-1])
    assert first.patient_id is not None and followup.patient_id == first.patient_id
    assert not followup.patient_confirmed
    project.confirm_patient(followup.id)
    assert project.document(followup.id).patient_confirmed
    other = project.create_patient()
    project.assign_patient([ids[0]], other.id)
    assert project.document(ids[0]).patient_id == other.id
    assert any(p.id == other.id and p.confirmed for p in project.patients())


def test_detector_failure_fails_the_document_not_the_batch(make_project, tmp_path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Patient: Ona Brisk FAIL-DETECTOR", encoding="utf-8")
    (folder / "b.txt").write_text("Patient: Ona Brisk", encoding="utf-8")
    project = make_project()
    project.import_paths([folder])
    report = project.detect()
    assert len(report.detected) == 1 and len(report.failed) == 1
    assert "DetectorError" in report.failed[0][1] and "Ona" not in report.failed[0][1]
    assert project.document(report.failed[0][0]).status is DocumentStatus.FAILED


def _surrogate_of(project: Project, doc_id: str, label: Label) -> list[str]:
    deid = project.deidentify(doc_id)
    return [deid.text[r.output_start:r.output_end] for r in deid.replacements
            if r.label is label]


def test_surrogates_consistent_across_documents_and_sessions(make_project, tmp_path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    person = letter(3)
    for i in range(3):  # same patient and doctor in three letters
        (folder / f"l{i}.txt").write_text(person.text(i), encoding="utf-8")
    project = make_project()
    ids = _import_detect(project, folder)
    names = {_surrogate_of(project, d, Label.PATIENT)[0] for d in ids}
    doctors = {_surrogate_of(project, d, Label.DOCTOR)[0] for d in ids}
    assert len(names) == 1 and len(doctors) == 1
    assert person.patient not in names
    path = project.path
    project.close()
    with Project.open(path, services=FAKE_SERVICES) as again:
        assert {_surrogate_of(again, d, Label.PATIENT)[0] for d in ids} == names
    # Another project gets its own surrogates and its own secret.
    other = make_project("other")
    other_ids = _import_detect(other, folder)  # ids are keyed per project: new ones
    assert set(other_ids).isdisjoint(ids)
    assert {_surrogate_of(other, d, Label.PATIENT)[0] for d in other_ids} != names
    assert other._secret != Project.open(path, services=FAKE_SERVICES)._secret
    with sqlite3.connect(path) as conn:  # originals are not stored in the registry
        dump = "\n".join(conn.iterdump())
    registry = [line for line in dump.splitlines() if "INTO \"surrogates\"" in line]
    assert registry and not any(person.patient in line for line in registry)


def test_date_intervals_preserved_per_patient(make_project, tmp_path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    a = Letter("Maris Oakhollow", "4455667", "1950-03-14", "2023-01-10", "780-555-1234",
               "Haldane")
    b = Letter("Maris Oakhollow", "4455667", "1950-03-14", "2023-04-02", "780-555-1234",
               "Haldane")
    (folder / "a.txt").write_text(a.text(), encoding="utf-8")
    (folder / "b.txt").write_text(b.text(), encoding="utf-8")
    project = make_project()
    ids = _import_detect(project, folder)
    assert project.document(ids[0]).patient_id == project.document(ids[1]).patient_id
    dates = {}
    for doc_id in ids:
        deid = project.deidentify(doc_id)
        text = project.document_text(doc_id)
        dates[doc_id] = [(date.fromisoformat(text[r.start:r.end]),
                          date.fromisoformat(deid.text[r.output_start:r.output_end]))
                         for r in deid.replacements if r.label is Label.DATE]
    originals = [o for d in ids for o, _ in dates[d]]
    shifted = [s for d in ids for _, s in dates[d]]
    assert originals != shifted
    base_o, base_s = originals[0], shifted[0]
    assert [(o - base_o).days for o in originals] == [(s - base_s).days for s in shifted]


def test_review_undo_redo_and_persistence(make_project, letters) -> None:
    project = make_project()
    doc_id = _import_detect(project, letters)[0]
    spans = project.spans(doc_id)
    phone = next(s for s in spans if s.label is Label.PHONE)
    project.set_span_status(phone.id, SpanStatus.REJECTED)
    manual = project.add_manual_span(doc_id, 0, 8, Label.OTHER)
    assert project.span(phone.id)[1].status is SpanStatus.REJECTED
    assert project.undo() is not None  # removes the manual span
    assert all(s.id != manual.id for s in project.spans(doc_id))
    change = project.undo()
    assert change is not None and change.document_ids == (doc_id,)
    assert project.span(phone.id)[1].status is SpanStatus.CANDIDATE
    assert project.undo() is None and project.can_redo
    project.redo()
    assert project.span(phone.id)[1].status is SpanStatus.REJECTED
    path = project.path
    project.close()
    with Project.open(path, services=FAKE_SERVICES) as again:  # history survives
        again.redo()
        assert any(s.id == manual.id for s in again.spans(doc_id))
        assert not again.can_redo
        again.undo()
        again.set_span_status(phone.id, SpanStatus.ACCEPTED)  # a new action drops redo
        assert not again.can_redo


def test_all_occurrences_document_and_project(make_project, tmp_path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    body = "Patient: Tobin Lindqvist\nTobin Lindqvist was seen. tobin lindqvist agrees.\n"
    (folder / "a.txt").write_text(body, encoding="utf-8")
    (folder / "b.txt").write_text("Patient: Tobin Lindqvist\nbrother of Tobin Lindqvist\n",
                                  encoding="utf-8")
    project = make_project()
    ids = _import_detect(project, folder)
    first = project.spans(ids[0])[0]
    assert project.set_status_all_occurrences(first.id, "ACCEPTED") == 3  # 1 set + 2 added
    assert len(project.spans(ids[0], statuses=[SpanStatus.ACCEPTED])) == 3
    assert len(project.spans(ids[1])) == 1
    n = project.set_status_all_occurrences(first.id, "REJECTED", scope="project")
    assert n == 4
    assert {s.status for s in project.spans(ids[1])} == {SpanStatus.REJECTED}
    project.undo()
    project.undo()
    assert len(project.spans(ids[0])) == 1 and project.spans(ids[0])[0].status is \
        SpanStatus.CANDIDATE


def test_export_writes_complete_files_and_fails_closed(make_project, letters, tmp_path):
    project = make_project(export_formats=("txt", "json"))
    ids = list(project.import_paths([letters]).imported)
    out = tmp_path / "out"
    report = project.export(ids[:1], out_dir=out)
    assert not report.exported and "detect first" in report.failed[0][1]
    project.detect()
    assert not project.export(out_dir=out).exported  # nothing reviewed yet
    project.mark_reviewed(ids[0])
    report = project.export(out_dir=out)
    assert [e.document_id for e in report.exported] == [ids[0]]
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([f"{ids[0]}.deid.txt", f"{ids[0]}.json", "report.csv"])
    text = (out / f"{ids[0]}.deid.txt").read_text(encoding="utf-8")
    assert letter(0).patient not in text and letter(0).mrn not in text
    assert project.document(ids[0]).status is DocumentStatus.EXPORTED
    again = project.export(ids, out_dir=out)  # idempotent names, no temp files left
    assert len(again.exported) == 4
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    assert len(list(out.glob("*.deid.txt"))) == 4
    stats = project.statistics()
    assert stats.documents == 4 and stats.by_status == {"exported": 4}
    assert stats.exports == 2 + 8 and stats.surrogates > 0


def test_audit_log_is_complete_and_has_no_phi(make_project, letters, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    project = make_project()
    ids = _import_detect(project, letters)
    spans = project.spans(ids[0])
    project.set_span_status(spans[0].id, SpanStatus.ACCEPTED)
    project.set_span_status(spans[1].id, SpanStatus.REJECTED)
    project.add_manual_span(ids[0], 0, 8, Label.OTHER)
    project.set_status_all_occurrences(spans[2].id, SpanStatus.ACCEPTED, scope="project")
    project.undo()
    project.redo()
    project.update_settings(policy="hipaa")
    project.surrogate_preview(spans[0].id)
    project.mark_reviewed(ids[0])
    project.export([ids[0]], out_dir=tmp_path / "out")
    entries = project.audit_log()
    actions = [e.action for e in entries]
    for expected in ("project.created", "document.imported", "document.detected",
                     "span.accepted", "span.rejected", "span.added", "review.undo",
                     "review.redo", "settings.changed", "document.reviewed",
                     "document.exported"):
        assert expected in actions, expected
    assert actions.count("document.imported") == 4
    assert all(e.who for e in entries)
    rejected = next(e for e in entries if e.action == "span.rejected")
    assert (rejected.span_id, rejected.start, rejected.end) == (spans[1].id, spans[1].start,
                                                                spans[1].end)
    # No PHI: neither in the audit table (dumped raw) nor in log output.
    with sqlite3.connect(project.path) as conn:
        rows = "\n".join(repr(r) for r in conn.execute("SELECT * FROM audit_log"))
    phi = []
    for i in range(4):
        lt = letter(i)
        phi += [lt.patient, *lt.patient.split(), lt.mrn, lt.dob, lt.phone, lt.doctor,
                "letter_"]
    for value in phi:
        assert value not in rows, value
        assert value not in caplog.text, value
    # Append-only, enforced by the database.
    with sqlite3.connect(project.path) as conn, pytest.raises(sqlite3.DatabaseError):
        conn.execute("UPDATE audit_log SET who = 'x'")
    with sqlite3.connect(project.path) as conn, pytest.raises(sqlite3.DatabaseError):
        conn.execute("DELETE FROM audit_log")


def test_writes_from_many_threads(make_project, letters) -> None:
    project = make_project()
    ids = _import_detect(project, letters)
    spans = [s for d in ids for s in project.spans(d)]
    errors: list[BaseException] = []

    def work(chunk):
        try:
            for span in chunk:
                project.set_span_status(span.id, SpanStatus.ACCEPTED)
                project.surrogate_preview(span.id)
                project.statistics()
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(spans[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert project.statistics().spans_by_status == {"ACCEPTED": len(spans)}
    assert project.integrity_check() == "ok"


def test_two_processes_exporting_one_patient_write_the_same_surrogates(make_project,
                                                                       tmp_path) -> None:
    # Two handles on one file, each with its own surrogate cache, as the desktop app and a
    # CLI batch would be: B reads the patient's registry, A then invents a surrogate for a
    # name B has not seen, and B must use A's, not one of its own.
    person = letter(3)
    folder = tmp_path / "in"
    folder.mkdir()
    texts = [person.text(0), person.text(1).replace(person.doctor, "Quarrington"),
             person.text(2).replace(person.doctor, "Quarrington")]
    for i, text in enumerate(texts):
        (folder / f"l{i}.txt").write_text(text, encoding="utf-8")
    a = make_project()
    ids = _import_detect(a, folder)
    by_text = {a.document_text(i): i for i in ids}
    first, second, third = (by_text[t] for t in texts)
    assert len({a.document(i).patient_id for i in ids}) == 1
    b = Project.open(a.path, services=FAKE_SERVICES)
    try:
        out = tmp_path / "out"
        b.export([first], out_dir=out, formats=("txt",))   # B has read the registry
        a.export([second], out_dir=out, formats=("txt",))  # A invents Dr. Quarrington's
        b.export([third], out_dir=out, formats=("txt",))   # B must not invent another
    finally:
        b.close()
    doctor = re.compile(r"by Dr\. (\S+)\.")
    in_second = doctor.search((out / f"{second}.deid.txt").read_text())[1]
    in_third = doctor.search((out / f"{third}.deid.txt").read_text())[1]
    assert in_second != "Quarrington" and in_second == in_third
