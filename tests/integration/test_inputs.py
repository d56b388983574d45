"""Issue 17: every input gets an answer (bad files are listed, the run goes on, exit 1),
Ctrl-C stops the document in progress, JSONL records without text are errors."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
# Synthetic PHI only.
LETTER = ("Patient: Harold Finch  DOB: 03/14/1961  MRN: 00482913\n"
          "Seen by Dr. Alice Brown at 12 Elm Street, Toronto. Call 617-555-0142.\n")


def _mapping(out: Path, key: Path) -> dict[str, dict[str, str]]:
    """report.csv rows (no file names) by source file name, joined through the key file."""
    with (out / "report.csv").open(encoding="utf-8") as handle:
        report = list(csv.DictReader(handle))
    with key.open(encoding="utf-8") as handle:
        keys = list(csv.DictReader(handle))
    # One row per input in both, in the same order (a duplicate shares its twin's id).
    assert [r["document_id"] for r in report] == [k["document_id"] for k in keys]
    return {k["file_name"]: r for k, r in zip(keys, report, strict=True)}


def _cli(*args: str, **kwargs: object) -> list[str]:
    return [sys.executable, "-m", "engine.cli", *args]


def _without_dac_override() -> list[str] | None:
    """A prefix that runs a command without root's right to read any file, so that a
    chmod 000 file is unreadable for it too (tests run as root here)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    caps = "-dac_override,-dac_read_search"
    prefix = [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"]
    probe = subprocess.run([*prefix, "true"], capture_output=True)
    return prefix if probe.returncode == 0 else None


def test_every_input_gets_an_answer(tmp_path: Path) -> None:
    prefix = _without_dac_override()
    if prefix is None:
        pytest.skip("cannot drop root's file access here (no setpriv)")
    src = tmp_path / "Jane Doe letters"  # folder names often name the patient
    src.mkdir()
    (src / "good1.txt").write_text(LETTER, encoding="utf-8")
    (src / "good2.txt").write_text(LETTER.replace("Harold", "Walter"), encoding="utf-8")
    (src / "copy of good1.txt").write_text(LETTER, encoding="utf-8")
    (src / "locked.txt").write_text(LETTER, encoding="utf-8")
    (src / "locked.txt").chmod(0)
    os.symlink("cycle.txt", src / "cycle.txt")
    os.symlink("missing.txt", src / "broken.txt")
    os.mkfifo(src / "channel.txt")
    out = tmp_path / "out"
    run = subprocess.run([*prefix, *_cli("deid", str(src), "--output-dir", str(out),
                                         "--no-ner", "--no-progress")],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    # Short names and ids, never the folders; the one exception is the line telling the
    # user where the key file is (its default name comes from the input folder).
    assert not [line for line in run.stderr.splitlines()
                if "Jane Doe" in line and not line.startswith("re-identification key:")]
    # (file names chosen so that no reason contains a word of a name: report.csv cuts
    # such an error down to its type)
    rows = _mapping(out, tmp_path / "Jane Doe letters.clearnote-key.csv")
    twins = sorted(("copy of good1.txt", "good1.txt"), key=lambda n: rows[n]["status"])
    kept, duplicate = twins[1], twins[0]  # "ok" sorts after "duplicate"
    assert {n: r["status"] for n, r in rows.items()} == {
        kept: "ok", duplicate: "duplicate", "good2.txt": "ok",
        "locked.txt": "failed", "cycle.txt": "failed", "broken.txt": "failed",
        "channel.txt": "failed"}
    assert rows[duplicate]["error"] == f"same content as {rows[kept]['document_id']}"
    assert rows["locked.txt"]["error"] == "cannot read (permission denied)"
    assert rows["cycle.txt"]["error"] == "symbolic link loop"
    assert "dangling" in rows["broken.txt"]["error"]
    assert "FIFO" in rows["channel.txt"]["error"]
    assert f"same content as {kept} [" in run.stdout + run.stderr  # names the kept file
    for name in (kept, "good2.txt"):
        doc_id = rows[name]["document_id"]
        assert (out / f"{doc_id}.deid.txt").is_file()
        assert "Finch" not in (out / f"{doc_id}.deid.txt").read_text(encoding="utf-8")
    for name in ("locked.txt", "cycle.txt", "broken.txt", "channel.txt"):
        line = f"failed: {name} [{rows[name]['document_id']}]: {rows[name]['error']}"
        assert line in run.stderr
    assert run.stderr.count("locked.txt") == 1  # named once, not `path: path: problem`


def test_summary_names_files_once_without_folders(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    src = tmp_path / "Harold Finch"
    src.mkdir()
    (src / "empty.txt").write_bytes(b"")
    (src / "ok.txt").write_text(LETTER, encoding="utf-8")
    russian = "Пациентка Иванова Мария Петровна, 1961 года рождения, осмотрена. " * 4
    (src / "ivanova.txt").write_bytes(russian.encode("cp1251"))  # decoding is a guess
    assert main(["deid", str(src), "--output-dir", str(tmp_path / "out"), "--no-ner",
                 "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "needs review: ivanova.txt [" in err
    # the folder's name appears only in the line that says where the key file is
    assert not [line for line in err.splitlines()
                if "Harold Finch" in line and not line.startswith("re-identification key:")]
    assert err.count("empty.txt") == 1
    assert "failed: empty.txt [" in err and "file is empty" in err


def test_jsonl_record_without_text_is_an_error(tmp_path: Path,
                                                capsys: pytest.CaptureFixture) -> None:
    bad = tmp_path / "in.jsonl"
    bad.write_text('{"id": "a", "text": "Dr. Brown"}\n{"id": "b", "txt": "x"}\n',
                   encoding="utf-8")
    out = tmp_path / "o.jsonl"
    assert main(["deid", "--input", str(bad), "--output", str(out), "--no-ner",
                 "--no-progress"]) == 2
    assert "in.jsonl:2" in capsys.readouterr().err and not out.exists()
    bad.write_text('{"id": "a", "text": 5}\n', encoding="utf-8")
    assert main(["detect", "--input", str(bad), "--output", str(out), "--no-ner",
                 "--no-progress"]) == 2
    bad.write_text('{"id": null, "text": "x"}\n', encoding="utf-8")
    assert main(["detect", "--input", str(bad), "--output", str(out), "--no-ner",
                 "--no-progress"]) == 2
    assert not out.exists()


def test_sigint_stops_a_long_document_and_a_rerun_finishes_it(tmp_path: Path) -> None:
    big = tmp_path / "extract.txt"
    big.write_text(LETTER * (1_000_000 // len(LETTER)), encoding="utf-8")  # ~1 MB
    out = tmp_path / "out"
    log = tmp_path / "stderr.txt"
    args = _cli("deid", str(big), "--output-dir", str(out), "--no-ner")
    with log.open("w") as err:
        child = subprocess.Popen(args, cwd=ROOT, stderr=err, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while "detect:" not in log.read_text() and time.monotonic() < deadline:
            assert child.poll() is None, log.read_text()
            time.sleep(0.2)
        child.send_signal(signal.SIGINT)
        code = child.wait(timeout=120)
    assert code == 130, log.read_text()
    assert "Traceback" not in log.read_text()
    assert not list(out.glob("*.deid.txt")) and not list(out.glob("*.json"))
    assert not list(out.glob(".clearnote-*"))  # no temp file left behind either
    key = tmp_path / "clearnote-key.csv"
    assert _mapping(out, key)["extract.txt"]["status"] == "not run"
    rerun = subprocess.run([*args, "--no-progress"], cwd=ROOT, capture_output=True,
                           text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr
    assert _mapping(out, key)["extract.txt"]["status"] == "ok"
    assert "Finch" not in next(out.glob("*.deid.txt")).read_text(encoding="utf-8")
