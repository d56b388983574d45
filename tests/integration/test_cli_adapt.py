"""`clearnote project import-list|adapt|profile|profile-export` and `--profile` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli.main import main


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_learn_export_and_use_a_profile(tmp_path: Path, monkeypatch, capsys) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("Q. Lindqvist resting on Kessler 3.\n", encoding="utf-8")
    (tmp_path / "staff.csv").write_text("Surname,Given name,Ward\nLang,Dana,Kessler\n",
                                        encoding="utf-8")
    (tmp_path / "patients.csv").write_text("name,mrn\nQuilla Lindqvist,4471120\n",
                                           encoding="utf-8")
    project = str(tmp_path / "site.clearnote")
    assert _run(capsys, "project", "create", project, "--no-encryption", "--ner", "off")[0] == 0
    assert _run(capsys, "project", "import", project, str(notes), "-q")[0] == 0
    code, out, _ = _run(capsys, "project", "import-list", project,
                        str(tmp_path / "patients.csv"), "--kind", "patients")
    assert code == 0 and "1 new" in out and "Lindqvist" not in out
    assert _run(capsys, "project", "import-list", project, str(tmp_path / "staff.csv"),
                "--kind", "staff")[0] == 0
    code, out, _ = _run(capsys, "project", "adapt", project, "-q")
    assert code == 0 and "phi: patient 1" in out and "profile version 1" in out
    assert "lindqvist" not in out.lower()
    code, out, _ = _run(capsys, "project", "adapt", project, "-q", "--show")
    assert "lindqvist" in out  # only when asked
    assert _run(capsys, "project", "detect", project, "-q")[0] == 0

    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "tulip-7")
    profile = tmp_path / "site.clearnote-profile"
    code, out, _ = _run(capsys, "project", "profile-export", project, "--output", str(profile))
    assert code == 0 and profile.is_file()

    docs = tmp_path / "in.jsonl"
    docs.write_text(json.dumps({"id": 1, "text": "LINDQVIST'S MRI on kessler-2. d lang"})
                    + "\n", encoding="utf-8")
    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "tulip-7")
    assert _run(capsys, "detect", "--input", str(docs), "--output", str(tmp_path / "o.jsonl"),
                "--no-ner", "--no-progress", "--profile", str(profile))[0] == 0
    record = json.loads((tmp_path / "o.jsonl").read_text(encoding="utf-8"))
    labels = {(s["start"], s["label"]) for s in record["spans"]}
    assert labels == {(0, "PATIENT"), (19, "HOSPITAL"), (30, "DOCTOR")}

    # deid takes the same profile: the listed names are replaced in every variant (the
    # passphrase left the environment once read: it is set again).
    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "tulip-7")
    code, _, err = _run(capsys, "deid", "--input", str(docs), "--output",
                        str(tmp_path / "d.jsonl"), "--no-ner", "--no-progress", "--mode",
                        "tag", "--profile", str(profile))
    assert code == 0, err
    deid = json.loads((tmp_path / "d.jsonl").read_text(encoding="utf-8"))["text"]
    assert "LINDQVIST" not in deid and "kessler-2" not in deid and "lang" not in deid
    assert deid.startswith("[PATIENT]")

    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "wrong")
    code, _, err = _run(capsys, "detect", "--input", str(docs), "--output",
                        str(tmp_path / "o2.jsonl"), "--no-ner", "--profile", str(profile))
    assert code == 2 and "wrong passphrase" in err and not (tmp_path / "o2.jsonl").exists()

    code, out, _ = _run(capsys, "project", "profile", project, "--remove", "1")
    assert code == 0 and "removed 1 entry: profile version 2" in out
    assert _run(capsys, "project", "profile", project, "--remove", "99")[0] == 2
    code, out, _ = _run(capsys, "project", "profile", project, "--undo")
    assert code == 0 and "went back to profile version 1" in out and "* version 1" in out
    code, out, _ = _run(capsys, "project", "profile", project, "--undo")
    assert code == 0 and "no profile" in out
    code, out, _ = _run(capsys, "project", "status", project)
    assert "learned profile: none" in out

    # A batch through a new project takes the profile as that project's own.
    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "tulip-7")
    other = tmp_path / "warehouse.clearnote"
    code, _, err = _run(capsys, "batch", str(notes), "--output-dir", str(tmp_path / "out"),
                        "--project", str(other), "--no-encryption", "--ner", "off",
                        "--workers", "1", "-q", "--profile", str(profile), "--mode", "tag")
    assert code == 0, err
    [written] = [p for p in (tmp_path / "out").iterdir() if p.suffix == ".txt"]
    assert "Lindqvist" not in written.read_text(encoding="utf-8")
    from engine.project import Project

    with Project.open(other) as warehouse:
        assert warehouse.adaptation.profile is not None
        assert [e.action for e in warehouse.audit_log() if e.action.startswith("profile.")
                ] == ["profile.imported"]


def test_a_profile_passphrase_is_never_taken_from_argv(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["detect", "--input", "x", "--output", "y", "--profile", "p",
              "--profile-passphrase", "secret"])
    assert "never taken from the command line" in capsys.readouterr().err
