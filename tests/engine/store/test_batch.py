"""``run_files`` into a ``ProjectSink``: import → detect → export in one pass per
document, stored and exported on the store thread while the next document is detected.
(The SIGKILL test is in tests/integration/test_batch_kill.py.)"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

from engine.core.context import CancelToken, RunContext
from engine.core.errors import ExportVerificationError
from engine.project import ExportJob
from engine.runs.driver import run_files
from engine.runs.outcome import Status
from engine.runs.project import ProjectSink
from engine.store.records import DocumentStatus
from tests.engine.store.fakes import FAKE_SERVICES, letter, text_loader, write_json


def _folder(tmp_path: Path, texts: list[str]) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for i, text in enumerate(texts):
        (folder / f"letter_{i:02d}.txt").write_text(text, encoding="utf-8")
    return folder


def test_batch_records_and_exports_every_document(make_project, tmp_path: Path) -> None:
    # Letters 0 and 3 share an MRN: one patient, one set of surrogates.
    texts = [letter(i).text(i) for i in range(6)]
    texts[3] = texts[3].replace(letter(3).mrn, letter(0).mrn).replace(
        letter(3).patient, letter(0).patient)
    project = make_project()
    out = tmp_path / "out"
    report = run_files([_folder(tmp_path, texts)], out, ProjectSink(project), workers=1)

    assert (report.count(Status.OK), report.failed, report.cancelled) == (6, [], False)
    docs = project.documents()
    assert {d.status for d in docs} == {DocumentStatus.EXPORTED}
    for doc in docs:
        assert project.spans(doc.id), "spans are stored for review"
        assert (out / f"{doc.id}.deid.txt").is_file() and (out / f"{doc.id}.json").is_file()
        assert project.export_files_exist(doc.id, out)
        actions = [e.action for e in project.audit_log(document_id=doc.id)]
        assert actions == ["document.imported", "document.detected", "document.exported"]
    by_text = {project.document_text(d.id): d for d in docs}
    first, fourth = by_text[texts[0]], by_text[texts[3]]
    assert first.patient_id is not None and first.patient_id == fourth.patient_id
    assert len({d.patient_id for d in docs}) == 5
    name = re.compile(r"Patient: (.+)")
    outputs = {d.id: (out / f"{d.id}.deid.txt").read_text() for d in docs}
    assert name.search(outputs[first.id])[1] == name.search(outputs[fourth.id])[1]
    for text in texts:  # no original name survives
        assert name.search(text)[1] not in "".join(outputs.values())
    assert project.integrity_check() == "ok"

    again = run_files([tmp_path / "in"], out, ProjectSink(project), workers=1)
    assert (again.count(Status.DONE_BEFORE), again.count(Status.OK)) == (6, 0)


def _fails_on_marker(job: ExportJob, path: Path) -> None:
    if "EXPORT-FAILS" in job.document.text:
        raise ExportVerificationError("an original string survived the export")
    write_json(job, path)


def test_a_failed_export_keeps_the_detection_and_the_batch_goes_on(
        make_project, tmp_path: Path) -> None:
    texts = [letter(i).text(i) for i in range(4)]
    texts[1] += "EXPORT-FAILS\n"
    texts[2] += "FAIL-DETECTOR\n"
    # The .json fails after the .deid.txt was written: neither may appear.
    services = replace(FAKE_SERVICES, writers={**FAKE_SERVICES.writers,
                                               "json": _fails_on_marker})
    project = make_project(services=services)
    out = tmp_path / "out"
    report = run_files([_folder(tmp_path, texts)], out, ProjectSink(project), workers=1)

    assert report.count(Status.OK) == 2
    reasons = {o.document_id: o.reason or "" for o in report.failed}
    assert len(reasons) == 2
    status = {project.document_text(d.id): d for d in project.documents()}
    export_failed, detect_failed = status[texts[1]], status[texts[2]]
    assert reasons[export_failed.id].startswith("ExportVerificationError")
    assert reasons[detect_failed.id].startswith("DetectorError")
    # The export failed after detection: the spans are kept for review, nothing written.
    assert export_failed.status is DocumentStatus.DETECTED
    assert project.spans(export_failed.id)
    assert not list(out.glob(f"{export_failed.id}*"))
    assert detect_failed.status is DocumentStatus.FAILED
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "no temp files"
    assert project.integrity_check() == "ok"


def test_cancel_stops_between_documents_and_a_rerun_finishes(make_project,
                                                             tmp_path: Path) -> None:
    folder = _folder(tmp_path, [letter(i).text(i) for i in range(8)])
    cancel = CancelToken()
    loaded: list[Path] = []

    def load_then_cancel_at_three(path: Path, *, password: str | None = None):
        loaded.append(path)
        if len(loaded) == 3:
            cancel.cancel()  # as the Cancel button does, while the third is detected
        return text_loader(path, password=password)

    project = make_project(services=replace(FAKE_SERVICES, loader=load_then_cancel_at_three))
    out = tmp_path / "out"
    exported: list[str] = []
    report = run_files([folder], out, ProjectSink(project), workers=1,
                       ctx=RunContext(cancel=cancel),
                       on_finished=lambda o: exported.append(o.document_id))
    # The document in hand is finished and committed, nothing after it is started.
    assert report.cancelled and report.count(Status.OK) == 3 and len(loaded) == 3
    assert report.count(Status.NOT_RUN) == 5
    done = {d.id for d in project.documents(status=DocumentStatus.EXPORTED)}
    assert done == set(exported) and len(project.documents()) == 3
    assert {p.name.split(".")[0] for p in out.glob("*.deid.txt")} == done

    rest = run_files([folder], out, ProjectSink(project), workers=1)
    assert (rest.count(Status.DONE_BEFORE), rest.count(Status.OK), rest.cancelled) == (3, 5, False)
    assert len(list(out.glob("*.deid.txt"))) == 8
    mapping = (out / "report.csv").read_text().splitlines()
    assert len(mapping) == 9
    assert json.loads((out / f"{sorted(done)[0]}.json").read_text())["replacements"]


def test_a_group_commits_many_documents_and_hands_back_only_what_is_committed(
        make_project, tmp_path: Path) -> None:
    from engine.parallel import WorkItem, process_item, use_session_in_process

    folder = _folder(tmp_path, [letter(i).text(i) for i in range(5)])
    project = make_project()
    use_session_in_process(project.services, project.session_config(), project.session)
    results = [process_item(WorkItem(f"doc{i}", path=str(p), sha256=f"{i:064d}"))
               for i, p in enumerate(sorted(folder.iterdir()))]
    out = tmp_path / "out"
    with project.write_group(max_documents=3, max_seconds=60) as group:
        for result in results[:3]:
            assert group.record_and_export(result, out) is not None
            assert not group.due or result is results[2]
        # Not committed yet: another connection sees none of the three.
        with closing(sqlite3.connect(project.path)) as other:
            assert other.execute("SELECT count(*) FROM documents").fetchone() == (0,)
        assert group.due
        group.commit()
        assert len(project.documents(status=DocumentStatus.EXPORTED)) == 3
        for result in results[3:]:
            group.record_and_export(result, out)
    assert len(project.documents(status=DocumentStatus.EXPORTED)) == 5
    assert project.integrity_check() == "ok"
