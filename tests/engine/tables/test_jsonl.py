"""JSON Lines tables: the acceptance extract as JSONL gives the CSV's values (types kept:
a number stays a number, null stays null), one line per row in its own key order; bad
lines are refused naming the file, the line and the key, with nothing written."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from engine.api import FolderSink, PipelineConfig, Project, Session, SessionConfig, run_files
from tests.engine.tables.extract import write_extract

SECRET = b"jsonl-tables-0123456789abcdef012"
PIPELINE = PipelineConfig(policy="hipaa", ner=False)


def _run(src: Path, out: Path, tmp_path: Path) -> Path:
    session = Session(SessionConfig(pipeline=PIPELINE, secret=SECRET))
    report = run_files([src], out, FolderSink(session, key_file=tmp_path / f"{out.name}.key"),
                       workers=1)
    assert report.ok, report.summary()
    [table] = [p for p in out.iterdir() if ".deid." in p.name]
    return table


def test_jsonl_gives_the_csv_values_and_keeps_types(tmp_path: Path) -> None:
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=6, visits=2)
    with src.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    lines = []
    for i, row in enumerate(rows):
        obj: dict[str, object] = {**row, "hba1c": float(row["hba1c"])}
        if i == 0:  # another key order, and a null in an identifier column
            obj = {"note": obj.pop("note"), **obj, "phone": None}
        lines.append(json.dumps(obj))
    jsonl = tmp_path / "extract.jsonl"
    jsonl.write_text("\n".join(lines[:3]) + "\n\n" + "\n".join(lines[3:]) + "\n",
                     encoding="utf-8")
    csv_out = _run(src, tmp_path / "c", tmp_path)
    jsonl_out = _run(jsonl, tmp_path / "j", tmp_path)
    with csv_out.open(encoding="utf-8", newline="") as handle:
        want = list(csv.DictReader(handle))
    text = jsonl_out.read_text(encoding="utf-8")
    assert text.count("\n") == len(rows) + 1  # the blank line kept
    got = [json.loads(line) for line in text.splitlines() if line]
    assert list(got[0]) == list(json.loads(lines[0]))  # the line's own key order
    assert got[0]["phone"] is None
    for w, g in zip(want, got, strict=True):
        assert g["hba1c"] == float(w["hba1c"]) and isinstance(g["hba1c"], float)
        for key in ("mrn", "patient_name", "dob", "visit_date", "zip", "icd10", "note"):
            assert g[key] == w[key]
    for row in rows:
        assert row["mrn"] not in text and row["patient_name"] not in text


@pytest.mark.parametrize(("lines", "problem"), [
    (['{"mrn": "1234567", "note": "x"}', '{"mrn": "7654321"}'],
     "line 2: the key 'note' is missing"),
    (['{"mrn": "1234567", "note": "x"}', '{"mrn": "1", "note": "y", "zip": "02139"}'],
     "line 2: the key 'zip' is not on the first line"),
    (['{"mrn": "1234567", "mrn": "x"}'], "line 1: the key 'mrn' twice"),
    (['{"mrn": "1234567", "note": "x"}', '["a", "b"]'], "line 2: not a JSON object"),
    (['{"mrn": "1234567", "note": "x"}', '{"mrn": {"a": 1}, "note": "y"}'],
     "line 2, key 'mrn': a nested value"),
    (['{"": "1234567", "note": "x"}'], "header, column 1: the column has no name"),
])
def test_bad_lines_are_refused_by_line_and_key(tmp_path: Path, lines: list[str],
                                               problem: str) -> None:
    src = tmp_path / "bad.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = Session(SessionConfig(pipeline=PIPELINE, secret=SECRET))
    report = run_files([src], tmp_path / "out", FolderSink(session,
                                                            key_file=tmp_path / "k.csv"))
    [outcome] = report.outcomes
    assert outcome.status == "failed" and problem in (outcome.problem or ""), outcome.problem
    assert outcome.source.name == "bad.jsonl"  # the summary names it beside the problem
    assert not [p for p in (tmp_path / "out").iterdir() if ".deid." in p.name]


def test_jsonl_through_the_project_equals_the_folder_run(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    csv_src = tmp_path / "extract.csv"
    write_extract(csv_src, n_patients=4, visits=2)
    with csv_src.open(encoding="utf-8", newline="") as handle:
        (src / "extract.jsonl").write_text("".join(json.dumps(r) + "\n"
                                                   for r in csv.DictReader(handle)),
                                           encoding="utf-8")
    folder = _run(src, tmp_path / "folder", tmp_path)  # found in a folder: a table
    with Project.create(tmp_path / "p.clearnote", pipeline=PIPELINE, secret=SECRET) as p:
        from engine.api import ProjectSink
        assert run_files([src], tmp_path / "project", ProjectSink(p), workers=1).ok
    [table] = [q for q in (tmp_path / "project").iterdir() if ".deid." in q.name]
    assert table.name == folder.name and table.read_bytes() == folder.read_bytes()
