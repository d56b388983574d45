"""Reviewing a table's cells (issue 28): detection stores each row's identifier cells and
note spans in the project, decisions on them are undoable and audited without PHI, the
export honours them (a rejected note span stays as written, a rejected identifier cell is
written as it is), the review files cover each row's note and their decisions import
back, ``Project.export(None)`` writes tables, report.csv counts a table's spans, and a
workbook's sheets each have their own roles."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from engine.api import (
    PipelineConfig,
    Project,
    export_review,
    export_table_review,
    import_review,
    infer_schema,
    preview_table,
)
from engine.core.domain import SpanStatus
from engine.core.labels import Label
from tests.engine.tables.extract import HEADER, write_extract

SECRET = b"tables-reviewed-cells-0123456789"
PIPELINE = PipelineConfig(policy="hipaa", ner=False)
NOTE, PHONE = HEADER.index("note"), HEADER.index("phone")


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))[1:]


def _project(tmp_path: Path, rows: int = 2) -> tuple[Path, Path, list]:  # type: ignore[type-arg]
    src = tmp_path / "extract.csv"
    people = write_extract(src, n_patients=rows, visits=1)
    path = tmp_path / "p.clearnote"
    with Project.create(path, policy="hipaa", pipeline=PIPELINE, secret=SECRET) as project:
        project.import_paths([src])
        report = project.detect()
        assert len(report.detected) == 1 and not report.failed
    return path, src, people


def _export(project: Project, out: Path) -> list[list[str]]:
    report = project.export(None, out_dir=out)  # tables included (issue 28 item 5)
    [table] = [f for e in report.exported for f in e.files if ".deid." in f.name]
    return _rows(table)


def _cell(project: Project, doc_id: str, row: str, column: int):  # type: ignore[no-untyped-def]
    [cell] = [c for c in project.tables.cells(doc_id, rows=[row]) if c.column == column]
    return cell


def test_rejecting_a_note_span_keeps_it_and_undo_brings_it_back(tmp_path: Path) -> None:
    path, src, _people = _project(tmp_path)
    original = _rows(src)
    with Project.open(path) as project:
        [doc] = project.documents()
        before = _export(project, tmp_path / "before")
        note = _cell(project, doc.id, "r1", NOTE)
        text = project.document_text(doc.id)
        assert text[note.start:note.end] == original[0][NOTE]
        [date] = [sp for sp in project.spans(doc.id) if sp.label is Label.DATE
                  and note.start <= sp.start < note.end]
        written = text[date.start:date.end]
        assert written not in before[0][NOTE]  # shifted when undecided
        project.set_span_status(date.id, SpanStatus.REJECTED)
        rejected = _export(project, tmp_path / "rejected")
        assert written in rejected[0][NOTE]  # the reviewer's decision: as written
        assert rejected[1] == before[1]  # other rows as they were
        assert [c for i, c in enumerate(rejected[0]) if i != NOTE] == \
            [c for i, c in enumerate(before[0]) if i != NOTE]
        project.undo()
        assert _export(project, tmp_path / "undone") == before
        # audited by id, offsets and status: never the text
        log = repr(project.audit_log())
        assert written not in log and original[0][NOTE][:20] not in log


def test_a_rejected_identifier_cell_is_written_as_it_is(tmp_path: Path) -> None:
    path, src, people = _project(tmp_path)
    with Project.open(path) as project:
        [doc] = project.documents()
        before = _export(project, tmp_path / "before")
        phone = _cell(project, doc.id, "r1", PHONE)
        [span] = [sp for sp in project.spans(doc.id)
                  if (sp.start, sp.end) == (phone.start, phone.end)]
        assert span.detector == "table.role@1" and span.label is Label.PHONE
        project.set_span_status(span.id, SpanStatus.REJECTED)
        after = _export(project, tmp_path / "after")
    assert before[0][PHONE] != people[0].phone
    assert after[0][PHONE] == people[0].phone  # kept: a person said it is no identifier
    assert people[0].phone not in after[0][NOTE]  # the note's own span still replaced
    assert after[1] == before[1]


def test_report_counts_a_tables_spans(tmp_path: Path) -> None:
    path, _src, _people = _project(tmp_path)
    with Project.open(path) as project:
        [doc] = project.documents()
        # detected, not decided: no span counts as a person's (MANUAL) decision
        assert {sp.source.value for sp in project.spans(doc.id)} <= {
            "RULE", "DICTIONARY", "NER", "LLM"}
        _export(project, tmp_path / "out")
    with (tmp_path / "out" / "report.csv").open(encoding="utf-8", newline="") as handle:
        [row] = [r for r in csv.DictReader(handle) if r["document_id"] == doc.id]
    assert int(row["spans"]) >= 8  # per note: name, MRN, date, phone, first name


@pytest.mark.parametrize("fmt", ["jsonl", "brat"])
def test_decisions_in_review_files_come_back(tmp_path: Path, fmt: str) -> None:
    path, src, _people = _project(tmp_path)
    review = tmp_path / "review"
    with Project.open(path) as project:
        [doc] = project.documents()
        before = _export(project, tmp_path / "before")
        export_table_review(project, review, fmt=fmt)
        # the table's review text is not a document of review.jsonl or of BRAT files
        export_review(project, review, fmt=fmt)
        note = _cell(project, doc.id, "r2", NOTE)
        phone = _cell(project, doc.id, "r2", PHONE)
        [date] = [sp for sp in project.spans(doc.id) if sp.label is Label.DATE
                  and note.start <= sp.start < note.end]
        written = project.document_text(doc.id)[date.start:date.end]
    name = f"{doc.id}-r2c{NOTE + 1}"
    assert not (review / f"{doc.id}.txt").exists()
    if fmt == "jsonl":
        assert (review / "review.jsonl").read_text(encoding="utf-8") == ""
    if fmt == "jsonl":
        lines = [json.loads(x) for x in (review / "tables.review.jsonl").read_text(
            encoding="utf-8").splitlines()]
        record = next(x for x in lines if x["id"] == name)
        for span in record["spans"]:
            if span["id"] == date.id:
                span["status"] = "REJECTED"
        (review / "tables.review.jsonl").write_text(
            "".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
        source = review / "tables.review.jsonl"
    else:
        ann = review / f"{name}.ann"
        lines = ann.read_text(encoding="utf-8").splitlines()
        target = next(x.split("\t")[0] for x in lines if x.startswith("T")
                      and f"{date.start - note.start} {date.end - note.start}" in x)
        ann.write_text("\n".join(lines + [f"#99\tAnnotatorNotes {target}\tid={date.id} "
                                          "status=REJECTED"]) + "\n", encoding="utf-8")
        source = review
    with Project.open(path) as project:
        # every other listed span "unlisted reject"ed too, but never an identifier cell
        report = import_review(project, source, unlisted="keep")
        assert report.rejected == 1
        assert project.span(date.id)[1].status is SpanStatus.REJECTED
        after = _export(project, tmp_path / "after")
        import_review(project, source, unlisted="reject")
        phone_span = [sp for sp in project.spans(doc.id)
                      if (sp.start, sp.end) == (phone.start, phone.end)]
        assert [sp.status for sp in phone_span] == [SpanStatus.CANDIDATE]
    assert written in after[1][NOTE] and written not in before[1][NOTE]
    assert after[0] == before[0]


def _workbook(path: Path) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    visits = book.active
    visits.title = "Visits"
    visits.append(["mrn", "patient_name", "note"])
    visits.append(["4410021", "Ottilie Brannagh", "Ottilie Brannagh seen today, stable."])
    labs = book.create_sheet("Labs")
    labs.append(["specimen_id", "collected", "result"])
    labs.append(["SP-77123", "2024-03-02", "HbA1c 7.1"])
    book.save(path)
    return path


def test_a_workbooks_sheets_each_have_their_roles(tmp_path: Path) -> None:
    src = _workbook(tmp_path / "book.xlsx")
    schema = infer_schema(src)
    assert [title for title, _ in schema.sheets] == ["Visits", "Labs"]
    assert schema.for_sheet("Labs").columns == ("specimen_id", "collected", "result")
    assert "role,column,sheet" in schema.to_text()
    second = preview_table(src, sheet=2)
    assert second.sheets == ("Visits", "Labs") and second.row_names == ("s2r1",)
    assert second.rows == (("SP-77123", "2024-03-02", "HbA1c 7.1"),)
    assert second.sheet_schema.columns == ("specimen_id", "collected", "result")
    path = tmp_path / "p.clearnote"
    with Project.create(path, policy="hipaa", pipeline=PIPELINE, secret=SECRET) as project:
        project.import_paths([src], table_schema=schema.to_text())
        project.detect()
        [doc] = project.documents()
        assert {c.row for c in project.tables.cells(doc.id)} == {"s1r1", "s2r1"}
        report = project.export(None, out_dir=tmp_path / "out")
        assert not report.failed, report.failed


@pytest.mark.parametrize("suffix", [".tsv", ".jsonl"])
def test_a_detected_tsv_or_jsonl_table_exports_as_the_folder_run(tmp_path: Path,
                                                                  suffix: str) -> None:
    from engine.api import FolderSink, Session, SessionConfig, run_files

    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=3, visits=2)
    with src.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    other = tmp_path / f"visits{suffix}"
    if suffix == ".tsv":
        other.write_text("\t".join(HEADER) + "\n" + "".join(
            "\t".join(r[h] for h in HEADER) + "\n" for r in rows), encoding="utf-8")
    else:
        other.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    folder = tmp_path / "folder"
    session = Session(SessionConfig(pipeline=PIPELINE, secret=SECRET))
    assert run_files([other], folder, FolderSink(session, key_file=tmp_path / "k.csv"),
                     workers=1).ok
    [expected] = folder.glob("*.deid.*")
    with Project.create(tmp_path / "p.clearnote", policy="hipaa", pipeline=PIPELINE,
                        secret=SECRET) as project:
        project.import_paths([other])
        assert project.detect().spans > 0
        report = project.export(None, out_dir=tmp_path / "out")
    [table] = [f for e in report.exported for f in e.files]
    assert table.read_bytes() == expected.read_bytes()


def test_a_live_span_across_two_cells_fails_the_export_closed(tmp_path: Path) -> None:
    path, _src, _people = _project(tmp_path)
    with Project.open(path) as project:
        [doc] = project.documents()
        first, second = project.tables.cells(doc.id, rows=["r1"])[:2]
        project.add_manual_span(doc.id, first.end - 2, second.start + 2, Label.ID)
        report = project.export(None, out_dir=tmp_path / "out")
        assert not report.exported and "runs past its cell" in report.failed[0][1]
        project.undo()
        assert not project.export(None, out_dir=tmp_path / "again").failed


def test_a_table_too_large_for_cell_review_is_refused_and_still_exported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Review holds every cell and span in memory: past the bound detection stores nothing
    # and says why in words; the export streams the table by its roles as before.
    from engine.project import table_review

    monkeypatch.setattr(table_review, "MAX_REVIEW_ROWS", 3)
    src = tmp_path / "extract.csv"
    people = write_extract(src, n_patients=5, visits=1)
    with Project.create(tmp_path / "p.clearnote", policy="hipaa", pipeline=PIPELINE,
                        secret=SECRET) as project:
        project.import_paths([src])
        report = project.detect()
        [(doc_id, reason)] = report.failed
        assert "more than 3 rows, too many to review cell by cell" in reason
        assert not report.detected and not project.tables.is_detected(doc_id)
        assert project.tables.cells(doc_id) == [] and project.spans(doc_id) == []
        rows = _export(project, tmp_path / "out")
    assert len(rows) == 5
    written = "\n".join(",".join(r) for r in rows)
    for p in people:
        assert p.mrn not in written and p.last not in written
