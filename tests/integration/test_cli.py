"""`clearnote` end to end, in-process through engine.cli.main and once as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

# Synthetic PHI only.
NOTES = [
    {"id": "n1", "text": "Patient: Harold Finch  DOB: 03/14/1961  MRN: 00482913\n"
                         "Call 617-555-0142 or email harold.finch@example.org."},
    {"id": "n2", "text": "No identifiers here: blood pressure 120/80, metformin 500 mg."},
    {"id": "n3", "text": ""},
]
PLANTED = ["Harold Finch", "03/14/1961", "00482913", "617-555-0142", "harold.finch@example.org"]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "in.jsonl", NOTES)


def test_detect_keeps_every_id_in_order(notes: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert main(["detect", "--input", str(notes), "--output", str(out), "--no-progress"]) == 0
    records = read_jsonl(out)
    assert [r["id"] for r in records] == ["n1", "n2", "n3"]
    spans = records[0]["spans"]
    assert all({"start", "end", "label", "source", "confidence"} <= s.keys() for s in spans)
    covered = {NOTES[0]["text"][s["start"]:s["end"]] for s in spans}
    for phi in PLANTED:
        assert any(phi in c or c in phi for c in covered), phi
    assert records[2]["spans"] == []


@pytest.mark.parametrize("mode", ["surrogate", "tag", "redact"])
def test_deid_jsonl_removes_phi_and_records_offsets(notes: Path, tmp_path: Path,
                                                    mode: str) -> None:
    out = tmp_path / "out.jsonl"
    assert main(["deid", "--input", str(notes), "--output", str(out), "--mode", mode,
                 "--no-progress"]) == 0
    records = read_jsonl(out)
    assert [r["id"] for r in records] == ["n1", "n2", "n3"]
    first = records[0]
    for phi in PLANTED:
        assert phi not in first["text"]
    original = NOTES[0]["text"]
    # Between replacements the text is untouched.
    cursor_in = cursor_out = 0
    for r in first["replacements"]:
        assert original[cursor_in:r["start"]] == first["text"][cursor_out:r["output_start"]]
        cursor_in, cursor_out = r["end"], r["output_end"]
    assert original[cursor_in:] == first["text"][cursor_out:]
    if mode == "tag":
        assert "[DATE]" in first["text"]


def test_deid_files_to_output_dir(tmp_path: Path) -> None:
    src = tmp_path / "letters"
    src.mkdir()
    (src / "Harold_Finch_referral.txt").write_text(NOTES[0]["text"], encoding="utf-8")
    (src / "clean.txt").write_text(NOTES[1]["text"], encoding="utf-8")
    out = tmp_path / "out"
    assert main(["deid", str(src), "--output-dir", str(out), "--no-progress"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert "report.csv" in names and "mapping.csv" not in names
    assert not any("Harold" in n or "Finch" in n for n in names)
    # The key is beside the input folder, never in the output folder.
    key = (tmp_path / "letters.clearnote-key.csv").read_text(encoding="utf-8")
    assert "Harold_Finch_referral.txt" in key
    for p in out.iterdir():
        content = p.read_text(encoding="utf-8")
        assert "Harold" not in content and "Finch" not in content, p.name
    texts = [p.read_text(encoding="utf-8") for p in out.glob("*.deid.txt")]
    assert len(texts) == 2
    assert not any(phi in t for t in texts for phi in PLANTED)
    assert (src / "Harold_Finch_referral.txt").read_text(encoding="utf-8") == NOTES[0]["text"]
    assert not list(out.glob(".*tmp"))


def test_deid_refuses_output_inside_input(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    src = tmp_path / "letters"
    src.mkdir()
    (src / "a.txt").write_text("Call 617-555-0142", encoding="utf-8")
    assert main(["deid", str(src), "--output-dir", str(src / "out"), "--no-progress"]) == 2
    assert "must not be inside" in capsys.readouterr().err


def test_deid_reports_bad_file_and_continues(tmp_path: Path) -> None:
    src = tmp_path / "letters"
    src.mkdir()
    (src / "good.txt").write_text(NOTES[0]["text"], encoding="utf-8")
    (src / "empty.txt").write_bytes(b"")
    out = tmp_path / "out"
    assert main(["deid", str(src), "--output-dir", str(out), "--no-progress"]) == 1
    mapping = (out / "report.csv").read_text(encoding="utf-8")
    assert "failed" in mapping and "ok" in mapping
    assert "empty.txt" not in mapping  # source names only in the key
    assert len(list(out.glob("*.deid.txt"))) == 1


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert main([]) == 2
    assert main(["deid", "--input", str(tmp_path / "x.jsonl")]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["detect"])
    assert exc.value.code == 2


def test_malformed_jsonl_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": "x"}\nnot json\n', encoding="utf-8")
    out = tmp_path / "o.jsonl"
    assert main(["detect", "--input", str(bad), "--output", str(out), "--no-progress"]) == 2
    assert "bad.jsonl:2" in capsys.readouterr().err
    assert not out.exists()


def test_evaluate_text_and_json(notes: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", [
        {"id": "n1", "text": NOTES[0]["text"],
         "spans": [{"start": 9, "end": 21, "label": "PATIENT"}]},
    ])
    pred = tmp_path / "pred.jsonl"
    main(["detect", "--input", str(notes), "--output", str(pred), "--no-progress"])
    capsys.readouterr()
    assert main(["evaluate", "--gold", str(gold), "--pred", str(pred), "--json",
                 "--bootstrap", "50"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert isinstance(report, dict) and report
    assert main(["evaluate", "--gold", str(gold), "--pred", str(pred),
                 "--bootstrap", "50"]) == 0
    assert "recall" in capsys.readouterr().out.lower()


def test_console_script_help_and_version() -> None:
    exe = Path(sys.executable).with_name("clearnote")
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("clearnote ")
    for command in ("detect", "deid", "evaluate", "demo"):
        result = subprocess.run([str(exe), command, "--help"], capture_output=True, text=True)
        assert result.returncode == 0 and "usage" in result.stdout


def test_no_phi_in_logs_or_progress(notes: Path, tmp_path: Path, capfd: pytest.CaptureFixture,
                                    caplog: pytest.LogCaptureFixture) -> None:
    """Debug logging and progress on: logs and stderr hold ids and counts, never PHI."""
    import logging

    caplog.set_level(logging.DEBUG)
    src = tmp_path / "letters"
    src.mkdir()
    (src / "a.txt").write_text(NOTES[0]["text"], encoding="utf-8")
    (src / "empty.txt").write_bytes(b"")
    root = logging.getLogger()
    old = root.level
    try:
        main(["-v", "deid", "--input", str(notes), "--output", str(tmp_path / "o.jsonl")])
        main(["-v", "detect", "--input", str(notes), "--output", str(tmp_path / "d.jsonl")])
        main(["-v", "deid", str(src), "--output-dir", str(tmp_path / "out")])
        root.setLevel(logging.DEBUG)
        main(["detect", "--input", str(notes), "--output", str(tmp_path / "d2.jsonl")])
    finally:
        root.setLevel(old)
    captured = capfd.readouterr()
    assert caplog.records  # the pipeline did log something at DEBUG
    for phi in PLANTED:
        assert phi not in caplog.text
        assert phi not in captured.err
        assert phi not in captured.out
