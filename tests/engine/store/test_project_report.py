"""The de-identification report (issue 27 item 9): its figures are the project's own
statistics, it holds no PHI (not a name, an MRN or a file name planted in the letters), it
is self-contained, and it is written all or nothing."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from engine.api import build_report, report_html, write_report
from engine.core.domain import Source, SpanStatus
from engine.core.errors import ExportError
from engine.core.labels import Label
from engine.pipeline import PipelineConfig
from engine.project import Services

# Synthetic PHI only; each value is planted in a letter and, for the names, in file names.
PATIENTS = [("Quenby", "Marchetti", "4471120", "1950-03-02"),
            ("Odalys", "Fairweather", "7730915", "1962-11-17")]
DOCTOR = ("Ignatius", "Vollmer")
PLANTED_FILES = [f"{last}_{first}_MRN{mrn}" for first, last, mrn, _ in PATIENTS]


def _letter(first: str, last: str, mrn: str, dob: str) -> str:
    return (f"Referral letter\nPatient: {first} {last}\nMRN: {mrn}\nDOB: {dob}\n"
            f"Seen by Dr. {DOCTOR[0]} {DOCTOR[1]} on 2023-05-02. Phone 403-555-0199.\n"
            f"{first} {last} has type 2 diabetes and takes metformin 500 mg.\n")


@pytest.fixture
def reviewed(make_project, tmp_path: Path):
    """Two letters named after their patients, detected (rules only), partly reviewed, a
    span added, one document marked reviewed, CIRE run, a patient list learned, exported."""
    folder = tmp_path / "Marchetti referrals"
    folder.mkdir()
    for (first, last, mrn, dob), stem in zip(PATIENTS, PLANTED_FILES, strict=True):
        (folder / f"{stem}.txt").write_text(_letter(first, last, mrn, dob), encoding="utf-8")
    (tmp_path / "patients.csv").write_text(
        "First Name,Last Name,MRN\n" + "".join(f"{f},{la},{m}\n" for f, la, m, _ in PATIENTS),
        encoding="utf-8")
    p = make_project(services=Services(), pipeline=PipelineConfig(ner=False))
    p.import_paths([folder])
    p.detect()
    first, second = (d.id for d in p.documents())
    spans = p.spans(first, statuses=[SpanStatus.CANDIDATE])
    p.set_span_status(spans[0].id, SpanStatus.ACCEPTED)
    p.set_span_status(spans[1].id, SpanStatus.REJECTED)
    p.add_manual_span(first, 0, 8, Label.OTHER)  # "Referral": a reviewer's own span
    for sp in p.spans(second, statuses=[SpanStatus.CANDIDATE]):
        p.set_span_status(sp.id, SpanStatus.ACCEPTED)
    p.mark_reviewed(second)
    for doc_id in (first, second):
        p.retention(doc_id)
    p.adaptation.import_list(tmp_path / "patients.csv", "patients")
    p.adaptation.adapt()
    p.export([first, second], out_dir=tmp_path / "out", formats=["txt", "json"])
    return p


def test_figures_are_the_projects_own_statistics(reviewed) -> None:
    p = reviewed
    r = build_report(p)
    stats = p.statistics()
    total = r.totals()
    by_status = stats.spans_by_status
    assert total.accepted == by_status.get(SpanStatus.ACCEPTED.value, 0) > 0
    assert total.rejected == by_status.get(SpanStatus.REJECTED.value, 0) == 1
    assert total.undecided == by_status.get(SpanStatus.CANDIDATE.value, 0) > 0
    assert total.superseded == by_status.get(SpanStatus.SUPERSEDED.value, 0)
    assert total.detected + total.added == sum(by_status.values())
    assert total.added == 1
    assert {c.label: c.replaced for c in r.labels if c.replaced} == stats.spans_by_label
    assert r.documents == stats.documents == 2
    assert r.documents_by_status == stats.by_status
    assert len(r.exports) == stats.exports == 4
    assert {e.state for e in r.exports} == {"unchanged"}
    assert r.box_redactions in (None, 0)

    candidates = {d.id: len(p.spans(d.id, statuses=[SpanStatus.CANDIDATE]))
                  for d in p.documents()}
    assert {d: n for d, n, _ in r.undecided if n} == {d: n for d, n in candidates.items() if n}
    flags = p.cire_flag_counts()
    assert sum(r.cire_by_severity.values()) == sum(sum(c.values()) for c in flags.values())
    decided = {a: sum(d.counts.get(a, 0) for d in r.decisions)
               for a in ("span.accepted", "span.rejected", "span.added", "document.reviewed")}
    # a reviewer's own span is stored accepted, audited as added
    assert decided == {"span.accepted": total.accepted - total.added, "span.rejected": 1,
                       "span.added": 1, "document.reviewed": 1}
    assert [v.version for v in r.profile_versions] == [1] and r.profile_versions[0].active
    assert r.list_entries and sum(r.list_entries.values()) > 0
    assert r.audit.entries == len(p.audit_log())
    assert sum(n for _, n, _, _ in r.audit.by_action) == r.audit.entries
    assert any(d.startswith("regex.") for d, _, _ in r.detectors)
    assert all(docs == 2 for _, _, docs in r.detectors)
    assert sorted(p.settings.detectors) == [d for d, _, _ in r.detectors]
    ner = [m for m in r.models if m.kind.startswith("NER")]
    for m in ner:  # installed: described by its manifest, unused by this rules-only project
        assert all(re.fullmatch(r"[0-9a-f]{64}", f.sha256) for f in m.files)
        assert m.used_versions == ()


def test_report_holds_no_phi_and_nothing_from_outside(reviewed, tmp_path: Path) -> None:
    out = write_report(reviewed, tmp_path / "report.html")
    data = out.read_bytes().lower()
    planted = [v for first, last, mrn, dob in PATIENTS for v in (first, last, mrn, dob)]
    planted += [*DOCTOR, *PLANTED_FILES, "Marchetti referrals", "letters", "patients.csv",
                reviewed.path.name, str(tmp_path), "403-555-0199"]
    leaked = [v for v in planted if v.lower().encode("utf-8") in data]
    assert leaked == []
    for outside in (b"http:", b"https:", b"src=", b"<script", b"<link", b"url(", b"@import"):
        assert outside not in data
    text = data.decode("utf-8")
    for doc in reviewed.documents():  # documents are named by their ids
        assert doc.id in text
    assert "4. spans by label" in text and "8. exported documents" in text
    assert reviewed.audit_log(actions=["report.written"])[-1].count == len(data)


def test_box_redactions_are_counted_when_the_project_has_them(reviewed) -> None:
    # The box_redactions table as issue 27's box redaction adds it (schema v4).
    doc = reviewed.documents()[0].id
    with reviewed.db.write() as s:
        s.connection().exec_driver_sql(
            "CREATE TABLE IF NOT EXISTS box_redactions (id VARCHAR NOT NULL PRIMARY KEY, "
            "document_id VARCHAR NOT NULL, page INTEGER NOT NULL, x0 FLOAT NOT NULL, "
            "y0 FLOAT NOT NULL, x1 FLOAT NOT NULL, y1 FLOAT NOT NULL, "
            "active BOOLEAN NOT NULL, created_at FLOAT NOT NULL)")
        for i, active in enumerate((1, 1, 0)):
            s.connection().exec_driver_sql(
                "INSERT INTO box_redactions (id, document_id, page, x0, y0, x1, y1, active, "
                "created_at) VALUES (?, ?, 1, 0, 0, 10, 10, ?, 0)",
                (f"box{i}", doc, active))
    r = build_report(reviewed)
    assert (r.box_redactions, r.box_documents) == (2, 1)
    assert "2 active, on 1 document(s)" in report_html(r)


def test_written_all_or_nothing(reviewed, tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "report.html"
    target.write_text("the previous report", encoding="utf-8")

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("engine.core.files.os.replace", refuse)
    with pytest.raises(ExportError, match="report.html: cannot write the report"):
        write_report(reviewed, target)
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "the previous report"
    assert [n for n in os.listdir(tmp_path) if n.startswith(".clearnote-")] == []
    assert reviewed.audit_log(actions=["report.written"]) == []
    write_report(reviewed, target)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_empty_project_reports_without_error(make_project, tmp_path: Path) -> None:
    p = make_project(name="empty", services=Services(), pipeline=PipelineConfig(ner=False))
    r = build_report(p)
    assert r.documents == 0 and r.labels == () and r.exports == () and r.decisions == ()
    html = report_html(r)
    assert "No detection has run yet." in html and "Nothing has been exported." in html
    assert Source.MANUAL.value not in html
    with pytest.raises(ExportError):
        write_report(p, tmp_path / "empty.clearnote" / "report.html")  # under a file


def test_models_are_named_with_their_sha256_and_checked(tmp_path: Path, monkeypatch) -> None:
    import hashlib
    import struct

    from engine.core.context import RunContext
    from engine.modelstore import add_model
    from engine.project.report_models import model_entries
    from engine.project.settings import ProjectSettings

    monkeypatch.setenv("CLEARNOTE_CONFIG_DIR", str(tmp_path / "config"))
    gguf = tmp_path / "tiny-judge.gguf"  # a header with no tensors and no metadata
    gguf.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 0))
    add_model(gguf, name="tiny-judge", chat_format="chatml")
    settings = ProjectSettings(ner=True, llm_model=str(gguf))
    ran = ("regex.date@2", "ner.clearnote-ner-minilm@3", "llm.tiny-judge@1")
    ner, llm = model_entries(settings, ran, RunContext())

    assert ner.name == "clearnote-ner-minilm" and ner.used_versions == ("3",)
    assert f"version {ner.version} is installed" in ner.note  # detected with an older one
    assert {f.name for f in ner.files} == {"model.onnx", "tokenizer.json"}
    assert {f.state for f in ner.files} == {"matches the manifest"}
    assert (llm.name, llm.used_versions) == ("tiny-judge", ("1",))
    digest = hashlib.sha256(gguf.read_bytes()).hexdigest()
    assert [(f.sha256, f.state) for f in llm.files] == [(digest, "matches the model registry")]

    gguf.write_bytes(gguf.read_bytes() + b"\0")  # the file changed after it was registered
    _, llm = model_entries(settings, ran, RunContext())
    assert [(f.sha256, f.state) for f in llm.files] == [
        (digest, "DIFFERS from the model registry")]
    gguf.unlink()
    _, llm = model_entries(settings, ran, RunContext())
    assert llm.files[0].state == "missing" and "not on this machine" in llm.note
