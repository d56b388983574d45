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
