"""`clearnote project report P --output report.html` end to end: the file, no PHI in it or
on the terminal, and the exit codes (0 written, 2 usage, 1 could not write)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli.main import main

LETTER = ("Referral letter\nPatient: Quenby Marchetti\nMRN: 4471120\nDOB: 1950-03-02\n"
          "Seen by Dr. Ignatius Vollmer on 2023-05-02.\n")
PLANTED = ("Quenby", "Marchetti", "4471120", "Vollmer", "Marchetti_Quenby")


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path: Path, capsys) -> Path:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "Marchetti_Quenby.txt").write_text(LETTER, encoding="utf-8")
    path = tmp_path / "study.clearnote"
    assert _run(capsys, "project", "create", str(path), "--no-encryption", "--ner", "off")[0] == 0
    assert _run(capsys, "project", "import", str(path), str(notes), "-q")[0] == 0
    assert _run(capsys, "project", "detect", str(path), "-q")[0] == 0
    return path


def test_report_written_without_phi(project: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "reports" / "report.html"
    code, stdout, stderr = _run(capsys, "project", "report", str(project), "--output",
                                str(out), "-q")
    assert code == 0, stderr
    assert "wrote" in stdout and "1 document(s)" in stdout
    data = out.read_bytes()
    assert data.startswith(b"<!DOCTYPE html>")
    for value in PLANTED:
        assert value.lower().encode() not in data.lower()
        assert value not in stdout + stderr


def test_exit_codes(project: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    # 2: no such project, the output is a folder, the output is the project itself
    code, _, err = _run(capsys, "project", "report", str(tmp_path / "none.clearnote"),
                        "--output", str(tmp_path / "r.html"))
    assert code == 2 and "no such project file" in err
    code, _, err = _run(capsys, "project", "report", str(project), "--output", str(tmp_path))
    assert code == 2 and "is a folder" in err
    code, _, err = _run(capsys, "project", "report", str(project), "--output", str(project))
    assert code == 2 and "project file" in err
    assert project.stat().st_size > 0
    with pytest.raises(SystemExit) as exited:  # --output is required (argparse)
        main(["project", "report", str(project)])
    assert exited.value.code == 2
    # 1: the report cannot be written (its folder would be under a file); nothing left
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    code, _, err = _run(capsys, "project", "report", str(project), "--output",
                        str(blocker / "report.html"))
    assert code == 1 and "cannot write" in err
    assert not (tmp_path / "r.html").exists()


def test_wrong_passphrase_is_a_usage_error(tmp_path: Path, capsys, monkeypatch) -> None:
    path = tmp_path / "locked.clearnote"
    monkeypatch.setenv("CLEARNOTE_NEW_PASSPHRASE", "correct horse battery")
    monkeypatch.setenv("CLEARNOTE_PASSPHRASE", "correct horse battery")
    assert _run(capsys, "project", "create", str(path), "--ner", "off")[0] == 0
    monkeypatch.setenv("CLEARNOTE_PASSPHRASE", "wrong")
    code, _, err = _run(capsys, "project", "report", str(path), "--output",
                        str(tmp_path / "r.html"))
    assert code == 2 and "passphrase" in err
    assert not (tmp_path / "r.html").exists()
    monkeypatch.setenv("CLEARNOTE_PASSPHRASE", "correct horse battery")
    code, _, err = _run(capsys, "project", "report", str(path), "--output",
                        str(tmp_path / "r.html"), "-q")
    assert code == 0, err
    assert b"encrypted at rest" in (tmp_path / "r.html").read_bytes()
