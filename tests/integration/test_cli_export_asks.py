"""`clearnote project export` asks, as the desktop does: with undecided candidates (or
HIGH CIRE flags) in the documents to export it lists the counts per document and writes
nothing unless --reviewed-only (the settled ones; those left out audited) or --anyway
(all; the choice audited per document)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.api import Project
from engine.cli import main

TEXT = "Patient: Harold Finch, seen on 03/14/2021, phone 403-555-0199.\nNote {n}.\n"


def test_export_refuses_lists_counts_and_audits_the_choice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    for n in range(2):
        (inbox / f"letter{n}.txt").write_text(TEXT.format(n=n), encoding="utf-8")
    project = tmp_path / "p.clearnote"
    assert main(["project", "create", str(project), "--ner", "off", "--no-encryption"]) == 0
    assert main(["project", "import", str(project), str(inbox), "-q", "--workers", "1"]) == 0
    assert main(["project", "detect", str(project), "-q", "--workers", "1"]) == 0
    with Project.open(project) as p:
        docs = {Path(d.source_path).name: d.id for d in p.documents()}
        settled = docs["letter0.txt"]
        for span in p.spans(settled):
            p.set_span_status(span.id, "ACCEPTED")
        open_id = docs["letter1.txt"]
        undecided = sum(1 for s in p.spans(open_id) if s.status.value == "CANDIDATE")
        for doc_id in docs.values():
            p.mark_reviewed(doc_id)
    capsys.readouterr()

    out = tmp_path / "out"
    assert main(["project", "export", str(project), "--output-dir", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"letter1.txt [{open_id}]: {undecided} undecided, 0 HIGH CIRE" in err
    assert "letter0.txt" not in err and "Finch" not in err
    assert "--reviewed-only" in err and "--anyway" in err
    assert not out.exists() or not any(out.iterdir())

    assert main(["project", "export", str(project), "--output-dir", str(out), "-q",
                 "--reviewed-only"]) == 0
    written = {f.name.split(".")[0] for f in out.iterdir() if f.is_file()}
    assert settled in written and open_id not in written
    with Project.open(project) as p:
        (left,) = p.audit_log(actions=["export.left_open"])
        assert left.document_id == open_id
        assert json.loads(left.detail or "{}")["via"] == "cli"

    out2 = tmp_path / "out2"
    assert main(["project", "export", str(project), "--output-dir", str(out2), "-q",
                 "--anyway"]) == 0
    written = {f.name.split(".")[0] for f in out2.iterdir() if f.is_file()}
    assert {settled, open_id} <= written
    with Project.open(project) as p:
        (anyway,) = p.audit_log(actions=["export.confirmed_open"])
        assert anyway.document_id == open_id
        assert json.loads(anyway.detail or "{}") == {"cire_high": 0, "undecided": undecided,
                                                     "via": "cli"}
    with pytest.raises(SystemExit):
        main(["project", "export", str(project), "--output-dir", str(out2),
              "--anyway", "--reviewed-only"])
