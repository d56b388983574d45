"""The folder sink (`clearnote deid FILE_OR_DIR`) and the project sink (`clearnote batch`)
are one flow: for the same inputs and secret they write byte-identical de-identified text
under the same names, and link the same documents to the same patients."""

from __future__ import annotations

import csv
from pathlib import Path

from engine.api import (
    FolderSink,
    PipelineConfig,
    Project,
    ProjectSink,
    Session,
    SessionConfig,
    run_files,
)
from engine.runs.outcome import Status
from tests.engine.store.fakes import letter

SECRET = b"0123456789abcdef" * 4


def _inputs(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    texts = [letter(i).text(i) for i in range(5)]
    # Letters 0 and 3 share an MRN: one patient; letter 4 has no identifier to link by.
    texts[3] = texts[3].replace(letter(3).mrn, letter(0).mrn)
    texts[4] = "Follow-up visit, no complaints. Continue ramipril.\n"
    for i, text in enumerate(texts):
        folder = src / "sub" if i % 2 else src
        (folder / f"letter_{i}.txt").write_text(text, encoding="utf-8")
    (src / "copy.txt").write_text(texts[2], encoding="utf-8")  # a duplicate
    return src


def _texts(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("*.deid.txt"))}


def test_folder_and_project_sinks_write_identical_text(tmp_path: Path) -> None:
    src = _inputs(tmp_path)
    pipeline = PipelineConfig(policy="strict", ner=False)
    session = Session(SessionConfig(pipeline=pipeline, secret=SECRET))
    folder = run_files([src], tmp_path / "folder", FolderSink(
        session, formats=("txt",), key_file=tmp_path / "key.csv"), workers=2)
    with Project.create(tmp_path / "p.clearnote", pipeline=pipeline, secret=SECRET,
                        export_formats=("txt",)) as project:
        batch = run_files([src], tmp_path / "project", ProjectSink(project), workers=2)
        patients = {Path(str(r["source"])).name: r["patient"] for r in project.key_rows()}

    assert folder.ok and batch.ok
    assert [o.status for o in folder.outcomes] == [o.status for o in batch.outcomes]
    folder_texts, project_texts = _texts(tmp_path / "folder"), _texts(tmp_path / "project")
    assert len(folder_texts) == 5
    assert folder_texts == project_texts  # same names (ids), same bytes
    with (tmp_path / "key.csv").open(encoding="utf-8", newline="") as handle:
        key = {Path(r["source"]).name: r["patient"] for r in csv.DictReader(handle)}
    duplicate = next(o for o in folder.outcomes if o.status == "duplicate").source.name
    assert {name: p for name, p in key.items() if name != duplicate} == patients
    assert key["letter_0.txt"] == key["letter_3.txt"] != key["letter_1.txt"]
    assert key["letter_4.txt"] == ""  # no identifier to link by: no patient


def test_a_table_is_byte_identical_through_both_sinks_and_joins_the_projects_patients(
        tmp_path: Path) -> None:
    """A CSV extract and a letter of one of its patients: the folder sink and the project
    sink write the same table and letter bytes under the same names; in the project the
    letter joins the patient of the table's rows, as in the folder run; a second batch
    finds the table done."""
    from tests.engine.tables.extract import write_extract

    src = tmp_path / "in"
    src.mkdir()
    people = write_extract(src / "extract.csv", n_patients=6, visits=2)
    p = people[2]
    (src / "letter.txt").write_text(f"Referral letter\nPatient: {p.first} {p.last}\n"
                                    f"MRN: {p.mrn}\nSeen on 2024-02-03.\n", encoding="utf-8")
    pipeline = PipelineConfig(policy="strict", ner=False)
    session = Session(SessionConfig(pipeline=pipeline, secret=SECRET))
    folder = run_files([src], tmp_path / "folder", FolderSink(
        session, formats=("txt",), key_file=tmp_path / "key.csv"), workers=1)
    with Project.create(tmp_path / "p.clearnote", pipeline=pipeline, secret=SECRET,
                        export_formats=("txt",)) as project:
        batch = run_files([src], tmp_path / "project", ProjectSink(project), workers=1)
        again = run_files([src], tmp_path / "project", ProjectSink(project), workers=1)
        patients = {Path(str(r["source"])).name: r["patient"] for r in project.key_rows()}
        media = {d.source_path and Path(d.source_path).name: d.media_type
                 for d in project.documents()}

    assert folder.ok and batch.ok and again.ok, (folder.summary(), batch.summary())
    assert [o.status for o in again.outcomes] == [Status.DONE_BEFORE] * 2

    def outputs(out: Path) -> dict[str, bytes]:
        return {f.name: f.read_bytes() for f in sorted(out.iterdir())
                if f.name.endswith((".deid.csv", ".deid.txt"))}

    folder_out, project_out = outputs(tmp_path / "folder"), outputs(tmp_path / "project")
    assert sorted(n.split(".", 1)[1] for n in folder_out) == ["deid.csv", "deid.txt"]
    assert folder_out == project_out
    assert p.mrn.encode() not in folder_out[next(n for n in folder_out if n.endswith("csv"))]
    assert media["extract.csv"] == "text/csv"
    assert patients["letter.txt"] not in ("", None)  # linked to the row's patient
