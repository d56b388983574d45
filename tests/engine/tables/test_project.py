"""Tables in a project: `clearnote project import` records a CSV, Parquet or XLSX extract as one
table document (no text detected as prose), `project detect` stores its cells for review, and
`project export` streams its rows into the same format, byte-identical to `clearnote deid`
(the folder sink) for the same secret; a table changed since import is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import FolderSink, PipelineConfig, Project, Session, SessionConfig, run_files
from engine.cli.main import main
from tests.engine.tables.extract import write_extract

SECRET = b"tables-in-a-project-0123456789ab"
PIPELINE = PipelineConfig(policy="hipaa", ner=False)


def _folder_output(src: Path, out: Path, key: Path) -> bytes:
    session = Session(SessionConfig(pipeline=PIPELINE, secret=SECRET))
    report = run_files([src], out, FolderSink(session, key_file=key), workers=1)
    assert report.ok, report.summary()
    [table] = [p for p in out.iterdir() if ".deid." in p.name]
    return table.read_bytes()


def _parquet(src: Path) -> Path:
    pq = pytest.importorskip("pyarrow.parquet")
    pcsv = pytest.importorskip("pyarrow.csv")
    out = src.with_suffix(".parquet")
    pq.write_table(pcsv.read_csv(src), out)
    return out


def _xlsx(src: Path) -> Path:
    import csv

    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "Visits"
    with src.open(encoding="utf-8", newline="") as handle:
        for row in csv.reader(handle):
            book.active.append(row)
    out = src.with_suffix(".xlsx")
    book.save(out)
    return out


@pytest.mark.parametrize("detect", [True, False], ids=["detected", "not-detected"])
@pytest.mark.parametrize("kind", ["csv", "parquet", "xlsx"])
def test_project_import_and_export_of_a_table_equal_the_folder_run(
        tmp_path: Path, kind: str, detect: bool, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=8, visits=3)
    if kind == "parquet":
        src = _parquet(src)
    elif kind == "xlsx":  # written with fixed timestamps: the same bytes, run after run
        src = _xlsx(src)
    project_path = tmp_path / "p.clearnote"
    Project.create(project_path, policy="hipaa", pipeline=PIPELINE, secret=SECRET).close()
    assert main(["project", "import", str(project_path), str(src)]) == 0
    if detect:  # its cells stored for review (none decided): the same bytes
        assert main(["project", "detect", str(project_path)]) == 0
    with Project.open(project_path) as project:
        [doc] = project.documents()
        if detect:  # the review text: identifier and note cells, not the file as prose
            assert doc.status == "detected" and doc.char_count > 0
            assert project.tables.cells(doc.id)[0].name.endswith("r1c1")
        else:
            assert doc.status == "imported" and doc.char_count == 0
    assert main(["project", "export", str(project_path), "--output-dir",
                 str(tmp_path / "out")]) == 0
    assert "exported 1 document(s)" in capsys.readouterr().out
    [table] = [p for p in (tmp_path / "out").iterdir() if ".deid." in p.name]
    assert table.suffix == src.suffix
    assert table.read_bytes() == _folder_output(src, tmp_path / "folder", tmp_path / "k.csv")
    if kind == "xlsx":  # not the time of saving, which two runs would not share
        import zipfile

        assert {i.date_time for i in zipfile.ZipFile(table).infolist()} == {
            (1980, 1, 1, 0, 0, 0)}
    report = (tmp_path / "out" / "report.csv").read_text(encoding="utf-8")
    assert table.name in report and "exported" in report


def test_a_table_changed_since_import_is_refused(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=2, visits=1)
    project_path = tmp_path / "p.clearnote"
    Project.create(project_path, pipeline=PIPELINE, secret=SECRET).close()
    assert main(["project", "import", str(project_path), str(src)]) == 0
    src.write_text(src.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert main(["project", "export", str(project_path), "--output-dir",
                 str(tmp_path / "out")]) == 1
    assert "changed since it was imported" in capsys.readouterr().err
    assert not [p for p in (tmp_path / "out").iterdir() if ".deid." in p.name]


@pytest.mark.parametrize("fmt", ["brat", "jsonl"])
def test_review_export_covers_each_rows_note(tmp_path: Path, fmt: str) -> None:
    import json

    src = tmp_path / "extract.csv"
    people = write_extract(src, n_patients=3, visits=2)
    project_path = tmp_path / "p.clearnote"
    Project.create(project_path, pipeline=PIPELINE, secret=SECRET).close()
    assert main(["project", "import", str(project_path), str(src)]) == 0
    out = tmp_path / "review"
    assert main(["project", "review-export", str(project_path), "--output-dir", str(out),
                 "--format", fmt]) == 0
    with Project.open(project_path) as project:
        [table] = project.documents()
    if fmt == "jsonl":
        lines = [json.loads(x) for x in (out / "tables.review.jsonl").read_text(
            encoding="utf-8").splitlines()]
        cells = {x["id"]: (x["text"], x["spans"]) for x in lines}
    else:
        cells = {p.stem: (p.read_text(encoding="utf-8"), p.with_suffix(".ann").read_text(
            encoding="utf-8").splitlines()) for p in sorted(out.glob("*.txt"))}
    assert sorted(cells) == sorted(f"{table.id}-r{n}c9" for n in range(1, 7))
    text, spans = cells[f"{table.id}-r1c9"]
    assert text.startswith(f"{people[0].first} {people[0].last} (MRN {people[0].mrn})")
    assert len(spans) >= 4  # name, MRN, date, phone, first name again


def test_cli_review_round_trip_of_a_tables_note(tmp_path: Path) -> None:
    import csv
    import json

    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=2, visits=1)
    project_path = tmp_path / "p.clearnote"
    Project.create(project_path, policy="hipaa", pipeline=PIPELINE, secret=SECRET).close()
    assert main(["project", "import", str(project_path), str(src)]) == 0
    assert main(["project", "detect", str(project_path)]) == 0
    review = tmp_path / "review"
    assert main(["project", "review-export", str(project_path), "--output-dir", str(review),
                 "--format", "jsonl"]) == 0
    records = [json.loads(x) for x in (review / "tables.review.jsonl").read_text(
        encoding="utf-8").splitlines()]
    first = records[0]
    [date] = [s for s in first["spans"] if s["label"] == "DATE"]
    written = first["text"][date["start"]:date["end"]]
    date["status"] = "REJECTED"
    (review / "tables.review.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["project", "review-import", str(project_path),
                 str(review / "tables.review.jsonl")]) == 0
    assert main(["project", "export", str(project_path), "--output-dir",
                 str(tmp_path / "out")]) == 0
    [table] = (tmp_path / "out").glob("*.deid.csv")
    with table.open(encoding="utf-8", newline="") as handle:
        notes = [row["note"] for row in csv.DictReader(handle)]
    assert written in notes[0] and written not in notes[1]
