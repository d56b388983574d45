"""Issue 29 item 4 (projects): a project on a full disk is a clear message, a non-zero exit
and no traceback; the project stays intact and the same command finishes once there is
space. On a small tmpfs where the test may mount one (root on Linux), else skipped with the
reason; the translation itself is also checked by injecting SQLite's errors."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from engine.core.errors import DiskFullError
from engine.project import Project
from engine.store.db import Database
from tests.engine.store.fakes import letter

ROOT = Path(__file__).resolve().parents[2]
PASS = "synthetic full disk passphrase"
FULL = "is full: free space and run the same command again"


@pytest.mark.parametrize("message", ["database or disk is full", "disk I/O error"])
def test_sqlite_errors_in_a_unit_of_work_become_a_clear_message(tmp_path, message) -> None:
    db = Database(tmp_path / "u.clearnote")
    try:
        with pytest.raises(DiskFullError) as err, db.write():
            raise OperationalError("COMMIT", {}, sqlite3.OperationalError(message))
        assert str(tmp_path / "u.clearnote") in str(err.value)
        if message.startswith("disk I/O"):  # this disk has room: not called full
            assert "reported an I/O error" in str(err.value)
        else:
            assert FULL in str(err.value)
        with pytest.raises(DiskFullError), db.read():
            raise OSError(28, "No space left on device")
        with pytest.raises(OperationalError), db.write():  # other errors pass as they are
            raise OperationalError("SELECT", {}, sqlite3.OperationalError("no such table"))
    finally:
        db.close()


@contextlib.contextmanager
def _tmpfs(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root on Linux")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()[:200]}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1",
           "CLEARNOTE_PASSPHRASE": PASS}
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("encrypted", [False, True])
def test_a_batch_whose_project_disk_fills_up(tmp_path, encrypted) -> None:
    letters = tmp_path / "in"
    letters.mkdir()
    for i in range(60):
        (letters / f"letter_{i}.txt").write_text(letter(i).text(i) * 20, encoding="utf-8")
    # Room for a new project (its schema and write-ahead log), not for the batch's letters.
    with _tmpfs(tmp_path / "disk", "480k") as disk:
        project = disk / "study.clearnote"
        batch = ["batch", str(letters), "--output-dir", str(tmp_path / "out"), "--project",
                 str(project), "--ner", "off", "--workers", "1", "-q",
                 *([] if encrypted else ["--no-encryption"])]
        first = _cli(*batch)
        assert first.returncode == 1, first.stderr[-2000:]
        assert FULL in first.stderr and str(project) in first.stderr
        assert "Traceback" not in first.stderr
        passphrase = PASS if encrypted else None
        with Project.open(project, passphrase=passphrase) as opened:  # intact
            assert opened.integrity_check() == "ok"
        subprocess.run(["mount", "-o", "remount,size=16m", str(disk)], check=True)
        again = _cli(*batch)
        assert again.returncode == 0, again.stderr[-2000:]
        with Project.open(project, passphrase=passphrase) as opened:
            assert len(opened.documents()) == 60


def test_creating_a_project_on_a_full_disk(tmp_path) -> None:
    with _tmpfs(tmp_path / "tiny", "12k") as disk:
        done = _cli("project", "create", str(disk / "p.clearnote"), "--no-encryption")
        assert done.returncode == 1 and FULL in done.stderr
        assert "Traceback" not in done.stderr
        assert list(disk.iterdir()) == []  # no half-made project left
