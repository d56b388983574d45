"""Issue 29 item 7: PDF passwords never on the command line; the project passphrase gone
from the environment (and from /proc/PID/environ) once read; passphrases compared in NFC,
with projects keyed before that still opening; concurrent detects skip documents another
process finished and leave exported documents exported."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.context import RunContext
from engine.project import Project
from engine.store import crypto
from tests.engine.store.fakes import FAKE_SERVICES

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("command", [["batch", "IN", "--output-dir", "OUT", "--project",
                                      "P.clearnote"],
                                     ["project", "import", "P.clearnote", "IN"],
                                     ["deid", "IN", "--output-dir", "OUT"]])
def test_a_pdf_password_on_the_command_line_is_refused(command, capsys) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--password", "s3cret"])
    assert "never taken from the command line" in capsys.readouterr().err


CHILD = r"""
import os
from pathlib import Path
from engine.cli.passphrase import read_passphrase
assert read_passphrase(None, prompt="x") == "correct horse battery"
assert "CLEARNOTE_PASSPHRASE" not in os.environ
print("in /proc:", b"correct horse battery" in Path("/proc/self/environ").read_bytes())
"""


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux /proc")
def test_the_passphrase_leaves_the_environment_and_proc_once_read() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CLEARNOTE_PASSPHRASE": "correct horse battery"}
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    assert "in /proc: False" in done.stdout


def test_passphrases_are_compared_in_nfc_and_old_nfd_keyed_projects_open(tmp_path) -> None:
    nfc = unicodedata.normalize("NFC", "café señor")
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfc != nfd
    path = tmp_path / "n.clearnote"
    Project.create(path, services=FAKE_SERVICES, passphrase=nfd).close()
    Project.open(path, services=FAKE_SERVICES, passphrase=nfc).close()  # same passphrase
    # A project keyed with the NFD bytes (before issue 29) opens when typed the same way.
    old = tmp_path / "old.clearnote"
    conn = crypto.dbapi().connect(str(path))
    conn.execute(crypto.derive(nfc, path.read_bytes()[:crypto.SALT_BYTES]).pragma())
    crypto.export_copy(conn, old, crypto.derive(nfd, os.urandom(16), normalize=False))
    conn.close()
    Project.open(old, services=FAKE_SERVICES, passphrase=nfd).close()


def test_a_second_detect_skips_what_another_finished_and_exported_stays(
        tmp_path, letters) -> None:
    """Two detects on one project: the second lists the four imported documents, then,
    after its first one, the other process detects the rest and exports one. The second
    skips those three, and the exported one stays exported."""
    path = tmp_path / "c.clearnote"
    other = Project.create(path, services=FAKE_SERVICES)
    mine = Project.open(path, services=FAKE_SERVICES)
    seen: list[int] = []

    def meanwhile(stage: str, done: int, total: int, message: str) -> None:
        if stage == "detect" and done == 1 and not seen:
            seen.append(done)
            finished = other.detect().detected
            other.export([finished[0]], out_dir=tmp_path / "out", formats=["txt"])
            seen.append(len(finished))

    try:
        other.import_paths([letters])
        report = mine.detect(ctx=RunContext(progress=meanwhile))
        assert seen == [1, 3]
        assert len(report.detected) == 1 and len(report.skipped) == 3
        assert "3 already done by another process" in report.summary()
        statuses = sorted(d.status.value for d in mine.documents())
        assert statuses == ["detected", "detected", "detected", "exported"]
    finally:
        other.close()
        mine.close()
