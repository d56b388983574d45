"""``run_batch``: import → detect → export in one pass per document, stored and exported
on the store thread while the next document is detected. (The SIGKILL test is in
tests/integration/test_batch_kill.py.)"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from engine.batch import run_batch
from engine.core.context import CancelToken, RunContext
from engine.core.errors import ExportVerificationError
from engine.project import ExportJob
from engine.store.records import DocumentStatus
from tests.engine.store.fakes import FAKE_SERVICES, letter, write_json


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
    report = run_batch(project, [_folder(tmp_path, texts)], out, workers=1)

    assert (report.exported, report.failed, report.cancelled) == (6, [], False)
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

    again = run_batch(project, [tmp_path / "in"], out, workers=1)
    assert (again.skipped, again.exported) == (6, 0)


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
    report = run_batch(project, [_folder(tmp_path, texts)], out, workers=1)

    assert report.exported == 2
    reasons = dict(report.failed)
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
    project = make_project()
    out = tmp_path / "out"
    cancel = CancelToken()
    exported: list[str] = []

    def stop_after_three(doc_id: str) -> None:
        exported.append(doc_id)
        if len(exported) == 3:
            cancel.cancel()

    report = run_batch(project, [folder], out, workers=1,
                       ctx=RunContext(cancel=cancel), on_exported=stop_after_three)
    assert report.cancelled
    assert 3 <= report.exported < 8  # the document being stored is finished, not cut
    done = {d.id for d in project.documents(status=DocumentStatus.EXPORTED)}
    assert done == set(exported)
    assert {p.name.split(".")[0] for p in out.glob("*.deid.txt")} == done

    rest = run_batch(project, [folder], out, workers=1)
    assert (rest.skipped, rest.exported, rest.cancelled) == (len(done), 8 - len(done), False)
    assert len(list(out.glob("*.deid.txt"))) == 8
    mapping = (out / "mapping.csv").read_text().splitlines()
    assert len(mapping) == 9
    assert json.loads((out / f"{sorted(done)[0]}.json").read_text())["replacements"]
