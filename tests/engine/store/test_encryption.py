"""Projects encrypted at rest (SQLCipher), at store level: no planted PHI readable in the
file or its WAL, wrong passphrase, rekey, plain -> encrypted migration. Synthetic PHI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import text

from engine.core.errors import PassphraseRequiredError, ProjectError, WrongPassphraseError
from engine.store import crypto, migrations
from engine.store.db import Database

PHI = ("Bartholomew Ravensworth", "MRN 99887766", "Zebulon Quasimodo-Fairweather",
       "42 Larkspur Crescent")
NOTE = " ".join(PHI) * 200  # several pages: the text spans overflow pages too


def _strings(path: Path) -> str:
    """What `strings` shows: runs of 4+ printable ASCII bytes (and UTF-16 is not used)."""
    data = path.read_bytes()
    return "\n".join(m.group().decode("ascii") for m in re.finditer(rb"[\x20-\x7e]{4,}", data))


def _create(path: Path, passphrase: str | None) -> Database:
    db = Database(path, passphrase=passphrase)
    migrations.create_latest(db.engine)
    with db.write() as s:
        s.execute(text("INSERT INTO settings (key, value) VALUES ('note', :v)"), {"v": NOTE})
    return db


def _note(db: Database) -> str:
    with db.read() as s:
        return str(s.execute(text("SELECT value FROM settings WHERE key='note'")).scalar())


def _assert_no_phi(*paths: Path) -> None:
    for p in paths:
        if p.exists():
            dump = _strings(p).casefold()
            for value in PHI:
                for word in re.findall(r"[A-Za-z0-9]{4,}", value):
                    assert word.casefold() not in dump, (p.name, "planted PHI readable")


def test_plain_project_is_readable_with_strings(tmp_path: Path) -> None:
    # The control: the scan does find PHI in a plain file, so it can find it at all.
    db = _create(tmp_path / "plain.clearnote", None)
    db.close()
    assert "Ravensworth" in _strings(tmp_path / "plain.clearnote")


def test_encrypted_project_file_and_wal_hold_no_readable_phi(tmp_path: Path) -> None:
    path = tmp_path / "enc.clearnote"
    db = _create(path, "correct horse battery staple")
    assert db.encrypted and crypto.is_encrypted(path)
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    # While open, the data sits in the -wal file: it must be ciphertext too.
    wal = Path(f"{path}-wal")
    assert wal.exists() and wal.stat().st_size > 0
    _assert_no_phi(path, wal)
    assert _note(db) == NOTE
    db.close()
    _assert_no_phi(path)
    again = Database(path, passphrase="correct horse battery staple")
    try:
        assert _note(again) == NOTE
        assert migrations.user_version(again.engine) == migrations.LATEST
        migrations.check_application(again.engine, path)
    finally:
        again.close()


def test_wrong_or_missing_passphrase_is_a_clear_error_and_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "enc.clearnote"
    _create(path, "right one").close()
    before = path.read_bytes()
    with pytest.raises(WrongPassphraseError) as err:
        Database(path, passphrase="wrong one")
    assert "wrong passphrase" in str(err.value) and "right" not in str(err.value)
    with pytest.raises(PassphraseRequiredError):
        Database(path)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


def test_plain_projects_still_open_and_refuse_a_passphrase(tmp_path: Path) -> None:
    path = tmp_path / "plain.clearnote"
    _create(path, None).close()
    db = Database(path)
    try:
        assert not db.encrypted and _note(db) == NOTE
    finally:
        db.close()
    with pytest.raises(ProjectError):
        Database(path, passphrase="x")


def test_encrypt_a_plain_project_into_a_new_file(tmp_path: Path) -> None:
    plain = tmp_path / "plain.clearnote"
    _create(plain, None).close()
    target = crypto.encrypt_plain(plain, tmp_path / "enc.clearnote", "s3cret pass")
    assert crypto.is_encrypted(target) and not crypto.is_encrypted(plain)
    assert target.stat().st_mode & 0o077 == 0
    _assert_no_phi(target)
    db = Database(target, passphrase="s3cret pass")
    try:
        assert _note(db) == NOTE
        migrations.check_application(db.engine, target)
        assert migrations.user_version(db.engine) == migrations.LATEST
        with db.engine.connect() as conn:  # the append-only triggers came along
            names = {r[0] for r in conn.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE type='trigger'")}
        assert {"audit_log_no_update", "audit_log_no_delete"} <= names
    finally:
        db.close()
    with pytest.raises(ProjectError):
        crypto.encrypt_plain(target, tmp_path / "again.clearnote", "x")


def test_rekey(tmp_path: Path) -> None:
    path = tmp_path / "enc.clearnote"
    _create(path, "old pass").close()
    with pytest.raises(WrongPassphraseError):
        crypto.rekey(path, "not it", "new pass")
    crypto.rekey(path, "old pass", "new pass")
    with pytest.raises(WrongPassphraseError):
        Database(path, passphrase="old pass")
    db = Database(path, passphrase="new pass")
    try:
        assert _note(db) == NOTE
    finally:
        db.close()
    _assert_no_phi(path)
    assert not list(tmp_path.glob(".*rekey*"))


def test_migration_backup_of_an_encrypted_project_stays_encrypted(tmp_path: Path) -> None:
    path = tmp_path / "enc.clearnote"
    db = _create(path, "pass")
    try:
        saved = migrations.backup(path, 2, crypto.key_for(path, "pass"))
    finally:
        db.close()
    assert crypto.is_encrypted(saved)
    _assert_no_phi(saved)
    again = Database(saved, passphrase="pass")
    try:
        assert _note(again) == NOTE
    finally:
        again.close()


def test_key_is_never_printed() -> None:
    key = crypto.new_key("pw")
    assert key.key.hex() not in repr(key) and "pw" not in repr(key)


def test_rekey_and_encrypt_leave_no_backup_that_opens_with_the_old_key(tmp_path: Path) -> None:
    """Issue 15: after `clearnote project rekey` (or `encrypt`), the schema-migration
    backups (NAME.clearnote.vN.bak) no longer open with the old passphrase (or none):
    they are overwritten and removed once the new file is checked."""
    from engine.project.encryption import encrypt_project, migration_backups, rekey_project

    path = tmp_path / "enc.clearnote"
    db = _create(path, "old pass")
    try:
        key = crypto.key_for(path, "old pass")
        saved = [migrations.backup(path, 1, key), migrations.backup(path, 1, key)]
    finally:
        db.close()
    assert migration_backups(path) == sorted(saved)
    old = Database(saved[0], passphrase="old pass")  # before: the backup opens with it
    try:
        assert _note(old) == NOTE
    finally:
        old.close()
    other = tmp_path / "other.clearnote"  # another project's backups are not touched
    _create(other, "x").close()
    kept = migrations.backup(other, 1, crypto.key_for(other, "x"))
    rekey_project(path, "old pass", "new pass")
    assert migration_backups(path) == [] and kept.exists()
    leftovers = [p for p in tmp_path.iterdir() if p.name.startswith(path.name) and p != path]
    assert leftovers == []
    for candidate in tmp_path.iterdir():
        if candidate.name.startswith(("enc", ".enc")) and candidate.is_file():
            with pytest.raises((WrongPassphraseError, ProjectError)):
                Database(candidate, passphrase="old pass").close()

    plain = tmp_path / "plain.clearnote"
    _create(plain, None).close()
    plain_backup = migrations.backup(plain, 1)
    _assert_no_phi(path)
    assert "Ravensworth" in _strings(plain_backup)
    encrypt_project(plain, "pass")
    assert not plain_backup.exists() and migration_backups(plain) == []
    _assert_no_phi(*[p for p in tmp_path.iterdir() if p.name.startswith(("plain", ".plain"))])
