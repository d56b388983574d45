from __future__ import annotations

import argparse

from engine.core.domain import SpanStatus
from engine.core.labels import Label
from engine.project.review_io import export_review, import_review
from tests.engine.store.fakes import letter


def test_brat_round_trip_applies_decisions(make_project, letters, tmp_path) -> None:
    project = make_project()
    ids = list(project.import_paths([letters]).imported)
    project.detect()
    doc_id = ids[0]
    out = tmp_path / "review"
    export_review(project, out, fmt="brat", document_ids=[doc_id])
    ann = out / f"{doc_id}.ann"
    lines = ann.read_text(encoding="utf-8").splitlines()
    phone_t = next(ln.split("\t")[0] for ln in lines if ln.split("\t")[1].startswith("PHONE"))
    kept = [ln for ln in lines if not ln.startswith(phone_t + "\t")
            and not ln.endswith(phone_t) and f" {phone_t}\t" not in ln]
    kept.append("T99\tHOSPITAL 0 8\tReferral")
    ann.write_text("\n".join(kept) + "\n", encoding="utf-8")
    report = import_review(project, out)  # the unlisted phone keeps its state
    assert (report.documents, report.rejected, report.added) == (1, 0, 1)
    assert (report.unlisted_spans, report.unlisted_documents) == (1, 1)
    assert "1 active span(s) in 1 document(s) were not listed and keep" in report.summary()
    assert {s.label: s for s in project.spans(doc_id)}[Label.PHONE].status is \
        SpanStatus.CANDIDATE
    project.undo()
    report = import_review(project, out, unlisted="reject")
    assert (report.documents, report.rejected, report.added) == (1, 1, 1)
    assert "were REJECTED" in report.summary()
    by_label = {s.label: s for s in project.spans(doc_id)}
    assert by_label[Label.PHONE].status is SpanStatus.REJECTED
    assert by_label[Label.HOSPITAL].status is SpanStatus.ACCEPTED
    project.undo()
    assert Label.HOSPITAL not in {s.label for s in project.spans(doc_id)}


def test_jsonl_review_and_evaluate(make_project, letters, tmp_path) -> None:
    project = make_project()
    project.import_paths([letters])
    project.detect()
    [path] = export_review(project, tmp_path / "r", fmt="jsonl")
    report = import_review(project, path)  # unchanged: everything listed is accepted
    assert report.documents == 4 and report.rejected == 0 and report.accepted > 0
    from engine.project import evaluate_project
    result = evaluate_project(project, tmp_path / "r", bootstrap=0)  # review file as gold
    assert result.to_dict()


def test_cli_batch_and_status(tmp_path, letters, monkeypatch, capsys) -> None:
    import engine.project.facade as project_module
    from engine.cli.project import register
    from tests.engine.store.fakes import FAKE_SERVICES

    monkeypatch.setattr(project_module, "Services", lambda: FAKE_SERVICES)
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    proj = tmp_path / "cli.clearnote"
    out = tmp_path / "out"
    # New projects are encrypted: the passphrase comes from the environment (read once).
    monkeypatch.setenv("CLEARNOTE_PASSPHRASE", "synthetic test passphrase")
    args = parser.parse_args(["batch", str(letters), "--output-dir", str(out), "--project",
                              str(proj), "--workers", "1", "--formats", "txt", "-q"])
    assert args.func(args) == 0
    assert len(list(out.glob("*.deid.txt"))) == 4
    assert project_module.Project.is_encrypted(proj)
    monkeypatch.setenv("CLEARNOTE_PASSPHRASE", "synthetic test passphrase")
    args = parser.parse_args(["project", "status", str(proj)])
    assert args.func(args) == 0
    printed = capsys.readouterr()
    assert "exported 4" in printed.out
    for i in range(4):
        assert letter(i).patient not in printed.out + printed.err
