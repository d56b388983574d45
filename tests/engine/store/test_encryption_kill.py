"""Issue 29 item 1: `project encrypt` and `rekey` killed after any rename, link, unlink or
fsync of theirs (injected in a subprocess, not timed) leave a project that opens, and once it
has been opened no file of the folder holds plaintext PHI and no temporary copy is left.

The child process wraps ``os.replace``/``rename``/``link``/``unlink``/``fsync`` so that the
N-th call completes and then the process dies at once (``os._exit``: no cleanup, no finally),
for N = 1, 2, ... until a run finishes without being killed. Synthetic PHI only."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.project import Project
from tests.engine.store.fakes import FAKE_SERVICES

PASS = "plover kestrel 7 lantern"
NEW = "a brand new passphrase"
ROOT = Path(__file__).resolve().parents[3]
KILLED = 137

CHILD = r"""
import os, sys
from pathlib import Path
step, target = int(sys.argv[1]), sys.argv[3]
calls = 0
def wrap(name):
    real = getattr(os, name)
    def call(*a, **kw):
        global calls
        result = real(*a, **kw)
        calls += 1
        if calls == step:
            os._exit(137)
        return result
    setattr(os, name, call)
for name in ("replace", "rename", "link", "unlink", "fsync"):
    wrap(name)
from engine.project import encryption
if sys.argv[2] == "encrypt":
    encryption.encrypt_project(Path(target), sys.argv[4])
else:
    encryption.rekey_project(Path(target), sys.argv[4], sys.argv[5])
print("finished", calls)
"""


def _planted(folder: Path) -> list[str]:
    words: set[str] = set()
    for p in folder.iterdir():
        words |= set(re.findall(r"\b[A-Z][a-z]{5,}\b", p.read_text(encoding="utf-8")))
    return sorted(words - {"Patient", "Please", "Thanks", "Regards", "Sincerely"})


def _leaks(folder: Path, words: list[str]) -> dict[str, int]:
    found = {}
    for p in folder.iterdir():
        if p.is_file():
            data = p.read_bytes().decode("latin-1")
            if n := sum(w in data for w in words):
                found[p.name] = n
    return found


def _run(step: int, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", CHILD, str(step), *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def _kill_at_every_step(tmp_path: Path, template: Path, words: list[str], op: str,
                        opened_with: tuple[str, ...]) -> int:
    """Runs ``op`` killed at step 1, 2, ...; after each, opens the project and checks the
    folder. Returns the number of steps the unkilled run takes."""
    for step in range(1, 60):
        folder = tmp_path / f"{op}-{step}"
        folder.mkdir()
        path = folder / template.name
        shutil.copy2(template, path)
        args = (PASS,) if op == "encrypt" else (PASS, NEW)
        done = _run(step, op, str(path), *args)
        assert done.returncode in (0, KILLED), done.stderr[-2000:]
        opened = None
        for passphrase in opened_with:  # the old or the new state, whole either way
            try:
                opened = Project.open(path, services=FAKE_SERVICES, passphrase=passphrase)
                break
            except Exception:  # noqa: BLE001 - the next passphrase is tried
                continue
        assert opened is not None, f"{op} killed at step {step}: the project does not open"
        with opened:
            assert len(opened.documents()) == 4
        names = sorted(p.name for p in folder.iterdir())
        assert names == [path.name], (op, step, names)  # no temp, backup or replaced copy
        if Project.is_encrypted(path):  # else the plain project is still the only file
            assert _leaks(folder, words) == {}, (op, step)
        if done.returncode == 0:
            return int(done.stdout.split()[-1])
    raise AssertionError(f"{op} never finished")


def _plain_project(tmp_path: Path, letters: Path, passphrase: str | None) -> Path:
    path = tmp_path / "template" / "study.clearnote"
    path.parent.mkdir()
    with Project.create(path, services=FAKE_SERVICES, passphrase=passphrase) as project:
        project.import_paths([letters])
        project.detect()
    return path


def test_encrypt_killed_after_every_step_leaves_no_plaintext(tmp_path: Path,
                                                             letters: Path) -> None:
    template = _plain_project(tmp_path, letters, None)
    words = _planted(letters)
    assert _leaks(template.parent, words)  # the control: a plain project is readable
    steps = _kill_at_every_step(tmp_path, template, words, "encrypt", (PASS, None))
    assert steps >= 3  # at least the link, the rename and the wipe's fsync were killed


def test_rekey_killed_after_every_step_leaves_one_whole_project(tmp_path: Path,
                                                                letters: Path) -> None:
    template = _plain_project(tmp_path, letters, PASS)
    steps = _kill_at_every_step(tmp_path, template, _planted(letters), "rekey", (PASS, NEW))
    assert steps >= 3


@pytest.mark.parametrize("encrypted", [True, False])
def test_a_plain_backup_left_by_an_older_version_is_wiped_on_open(
        tmp_path: Path, letters: Path, encrypted: bool) -> None:
    """ClearNote before issue 29 took ``NAME.plain-backup`` first; a kill could leave it."""
    path = _plain_project(tmp_path, letters, None)
    backup = path.with_name(f"{path.name}.plain-backup")
    shutil.copy2(path, backup)
    stray = path.with_name(f".{path.name}.encrypt-0123abcd")
    shutil.copy2(path, stray)
    if encrypted:
        Project.encrypt(path, PASS)  # recovers first, then encrypts
    else:
        Project.open(path, services=FAKE_SERVICES).close()
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    if encrypted:
        assert _leaks(path.parent, _planted(letters)) == {}


def test_a_second_name_of_the_live_project_is_only_unlinked(tmp_path: Path,
                                                             letters: Path) -> None:
    """Killed between the link and the rename: the ``.replaced-`` name is the project
    itself, which must not be wiped."""
    path = _plain_project(tmp_path, letters, None)
    os.link(path, path.with_name(f".{path.name}.replaced-0123abcd"))
    with Project.open(path, services=FAKE_SERVICES) as project:
        assert len(project.documents()) == 4
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_temp_copy_held_by_a_running_operation_is_left_alone(tmp_path: Path,
                                                               letters: Path) -> None:
    from engine.core.files import claimed

    path = _plain_project(tmp_path, letters, None)
    with claimed(path.with_name(f".{path.name}.rekey-0123abcd")) as held:
        Project.open(path, services=FAKE_SERVICES).close()
        assert held.exists()
    Project.open(path, services=FAKE_SERVICES).close()
    assert not held.exists()


def test_a_migration_backup_under_the_project_key_is_kept(tmp_path: Path) -> None:
    """Recovery removes only backups another key (or none) opens: the backup a schema
    migration of this encrypted project wrote stays."""
    from engine.store import migrations
    from engine.store.db import Database

    path = tmp_path / "e.clearnote"
    Project.create(path, services=FAKE_SERVICES, passphrase=PASS).close()
    db = Database(path, passphrase=PASS)
    try:
        backup = migrations.backup(path, 1, db.key)
    finally:
        db.close()
    plain = path.with_name(f"{path.name}.v2.bak")
    plain.write_bytes(b"SQLite format 3\x00" + bytes(100))  # what an old plain copy starts with
    Project.open(path, services=FAKE_SERVICES, passphrase=PASS).close()
    assert backup.exists() and not plain.exists()
