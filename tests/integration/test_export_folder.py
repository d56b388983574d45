"""The export folder holds de-identified material only (issue 15, item 2): the key goes
beside the input (``clearnote deid``) or stays in the project, file names that hold PHI
appear in no file of the output folder, and deid and project exports share one key
schema and one report schema."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from engine.api import (
    KEY_COLUMNS,
    REPORT_COLUMNS,
    PipelineConfig,
    Project,
    ProjectSink,
    run_files,
)
from engine.cli import main

# The body names nobody: the file names are the only PHI, and must not travel.
NAMES = ("Smith_John_0090075.txt", "Quasimodo-Fairweather_Z_99887766.txt")
PLANTED = ("Smith", "John", "0090075", "Quasimodo", "Fairweather", "99887766")
BODY = "Seen today for cough. Started metformin 500 mg twice daily. Call 617-555-0142.\n"


def _inputs(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    for n, name in enumerate(NAMES):  # different bodies: a project skips duplicates
        (src / name).write_text(f"{BODY}Visit {n + 1}.\n", encoding="utf-8")
    return src


def _assert_clean(out: Path) -> None:
    files = [p for p in out.rglob("*") if p.is_file()]
    assert files
    for path in files:
        content = path.read_text(encoding="utf-8")
        for value in PLANTED:
            assert value not in path.name and value not in content, (path.name, value)


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_deid_writes_the_key_beside_the_input_and_nothing_identifying_to_the_output(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    src = _inputs(tmp_path)
    out = tmp_path / "out"
    assert main(["deid", str(src), "--output-dir", str(out), "--no-progress", "--no-ner",
                 "--formats", "txt", "json", "brat", "csv", "jsonl"]) == 0
    _assert_clean(out)
    suffixes = sorted({p.name.split(".", 1)[1] for p in out.glob("*") if p.name != "report.csv"})
    assert suffixes == ["deid.ann", "deid.txt", "json", "jsonl", "spans.csv"]
    for sidecar in out.glob("*.json"):
        data = json.loads(sidecar.read_text(encoding="utf-8"))
        assert "cire" in data and "flags" in data["cire"] and "text_sha256" not in data
    key_file = tmp_path / "in.clearnote-key.csv"
    key = _csv(key_file)
    assert tuple(key[0]) == KEY_COLUMNS
    assert sorted(r["file_name"] for r in key) == sorted(NAMES)
    report = _csv(out / "report.csv")
    assert tuple(report[0]) == REPORT_COLUMNS
    assert {r["document_id"] for r in report} == {r["document_id"] for r in key}
    err = capsys.readouterr().err
    assert str(key_file) in err and "never share" in err
    # A second run over the same folder does not read the key back as a document.
    out2 = tmp_path / "out2"
    assert main(["deid", str(src), "--output-dir", str(out2), "--no-progress",
                 "--no-ner"]) == 0
    assert len(_csv(out2 / "report.csv")) == len(NAMES)


def test_deid_refuses_a_key_file_inside_the_output_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    src = _inputs(tmp_path)
    out = tmp_path / "out"
    assert main(["deid", str(src), "--output-dir", str(out), "--no-progress", "--no-ner",
                 "--key-file", str(out / "key.csv")]) == 2
    assert "must not be inside the output folder" in capsys.readouterr().err
    assert not (out / "key.csv").exists()
    named = tmp_path / "elsewhere" / "my-key.csv"
    assert main(["deid", str(src / NAMES[0]), "--output-dir", str(out), "--no-progress",
                 "--no-ner", "--key-file", str(named)]) == 0
    assert _csv(named)[0]["file_name"] == NAMES[0]


def test_project_batch_keeps_the_key_in_the_project_with_the_same_schema(
        tmp_path: Path) -> None:
    src = _inputs(tmp_path)
    out = tmp_path / "out"
    with Project.create(tmp_path / "study.clearnote",
                        pipeline=PipelineConfig(policy="strict", ner=False),
                        export_formats=("txt", "json", "csv")) as project:
        report = run_files([src], out, ProjectSink(project), workers=1)
        assert len(report.outcomes) == len(NAMES) and report.ok
        assert "CIRE high flags" in report.summary()
        key = project.key_rows()
        assert all(tuple(row) == KEY_COLUMNS for row in key)
        assert sorted(str(r["file_name"]) for r in key) == sorted(NAMES)
        with pytest.raises(Exception, match="must not be inside the output folder"):
            project.write_key_file(out / "key.csv", out_dir=out)
        exported = project.export(out_dir=out, formats=["txt", "json", "brat", "jsonl"])
        assert "not in the export folder" in exported.key_notice()
    _assert_clean(out)
    report_rows = _csv(out / "report.csv")
    assert tuple(report_rows[0]) == REPORT_COLUMNS
    assert {r["status"] for r in report_rows} == {"exported"}
